//! The passes that run over a revision's items once every declaration is
//! lowered: what decides each union (a discriminator, a fallback for unknown
//! tags, a selector field), field defaults checked against their types, and
//! `@deprecated` tags that name enum values moved onto those values.

use std::collections::{BTreeMap, HashSet};

use super::Lowerer;
use crate::diag::Diagnostic;
use crate::model::*;

impl Lowerer<'_> {
    /// Types that contain each other by value (not through an array or a map)
    /// have no size in Rust: every such member that points back into its cycle
    /// (into the same strongly connected group of types) is held in a `Box`.
    pub(super) fn box_cycles(&mut self) {
        let group = by_value_groups(&self.items);
        let closes = |from: &str, t: &Type| {
            by_value_target(t).is_some_and(|to| group.get(from).is_some_and(|g| group.get(to) == Some(g)))
        };
        for item in self.items.values_mut() {
            let name = item.name.clone();
            match &mut item.kind {
                ItemKind::Struct(s) => s.fields.iter_mut().for_each(|f| f.boxed = closes(&name, &f.ty)),
                ItemKind::Union(u) => u.variants.iter_mut().for_each(|v| v.boxed = closes(&name, &v.ty)),
                _ => {}
            }
        }
    }

    /// Two members whose Rust names are one (`progressToken`, `progress_token`):
    /// the later one's field takes the first free number (`progress_token_2`),
    /// with a warning. The wire names are unchanged.
    pub(super) fn resolve_member_names(&mut self) {
        for item in self.items.values_mut() {
            let ItemKind::Struct(s) = &mut item.kind else { continue };
            let mut seen: BTreeMap<String, String> = BTreeMap::new();
            for f in s.fields.iter_mut().filter(|f| f.role.has_rust_field()) {
                if let Some(other) = seen.get(&f.rust).cloned() {
                    let renamed = (2..)
                        .map(|n| format!("{}_{n}", f.rust))
                        .find(|r| !seen.contains_key(r) && *r != s.extra)
                        .unwrap_or_default();
                    if f.declared_in == item.name {
                        self.diags.push(
                            Diagnostic::warning(format!(
                                "the member `{}` of `{}` is the Rust field `{renamed}`: `{}` is `{other}`'s",
                                f.wire, item.name, f.rust
                            ))
                            .at(self.path, f.span)
                            .label("this member")
                            .hint("rename one of the members to choose the Rust names"),
                        );
                    }
                    f.rust = renamed;
                }
                seen.insert(f.rust.clone(), f.wire.clone());
            }
        }
    }

    /// A default must be a value of its field's type (`rust::default_expr`, the
    /// one test, which emit writes the default with); one that is not is dropped
    /// with a warning.
    pub(super) fn check_defaults(&mut self) {
        let mut bad = Vec::new();
        for item in self.items.values() {
            let ItemKind::Struct(s) = &item.kind else { continue };
            for f in &s.fields {
                let Some(d) = f.role.default() else { continue };
                if f.declared_in == item.name
                    && crate::rust::default_expr(|n| self.items.get(n).or_else(|| self.core?.item(n)), &f.ty, &d.value)
                        .is_none()
                {
                    bad.push((item.name.clone(), f.wire.clone(), f.span, d.value.to_json(), f.ty.describe()));
                }
            }
        }
        for (item, wire, span, value, ty) in &bad {
            self.diags.push(
                Diagnostic::warning(format!(
                    "the default {value} of `{item}.{wire}` is not a value of its type `{ty}`"
                ))
                .at(self.path, *span)
                .label("this member")
                .hint("the default is ignored: absence stays an error"),
            );
        }
        for item in self.items.values_mut() {
            let ItemKind::Struct(s) = &mut item.kind else { continue };
            for f in &mut s.fields {
                if bad.iter().any(|(i, w, ..)| (i == &f.declared_in || i == &item.name) && w == &f.wire) {
                    f.role = Role::Required;
                }
            }
        }
    }

    /// A `@deprecated` tag on a field that names some of the field's enum values
    /// deprecates those values (on the field's inline enum), not the field.
    pub(super) fn attach_value_deprecations(&mut self) {
        let mut moves: Vec<(String, Deprecation)> = Vec::new();
        for item in self.items.values_mut() {
            let ItemKind::Struct(s) = &mut item.kind else { continue };
            for f in &mut s.fields {
                let Some(dep) = &f.docs.deprecated else { continue };
                if dep.values.is_empty() || f.declared_in != item.name {
                    continue;
                }
                if let Type::Named(target) = &f.ty {
                    moves.push((target.clone(), dep.clone()));
                }
            }
        }
        let mut value_deprecated: HashSet<String> = HashSet::new();
        for (target, dep) in moves {
            let Some(Item { kind: ItemKind::Enum(e), origin: Origin::Inline { .. }, .. }) = self.items.get_mut(&target)
            else {
                continue;
            };
            let named: Vec<String> =
                dep.values.iter().filter(|v| e.values.iter().any(|ev| &ev.value == *v)).cloned().collect();
            if named.is_empty() {
                continue;
            }
            for ev in &mut e.values {
                if named.contains(&ev.value) {
                    ev.deprecated = Some(Deprecation { values: named.clone(), ..dep.clone() });
                }
            }
            value_deprecated.insert(target);
        }
        // The field itself stays usable: its deprecation now lives on the values.
        for item in self.items.values_mut() {
            let ItemKind::Struct(s) = &mut item.kind else { continue };
            for f in &mut s.fields {
                if let (Type::Named(t), Some(dep)) = (&f.ty, &mut f.docs.deprecated)
                    && value_deprecated.contains(t)
                {
                    dep.values.retain(|_| false);
                    f.docs.deprecated = None;
                }
            }
        }
        // Values named by the tag but absent from the type leave the field deprecated.
        for item in self.items.values_mut() {
            let ItemKind::Struct(s) = &mut item.kind else { continue };
            for f in &mut s.fields {
                if let Some(dep) = &mut f.docs.deprecated {
                    dep.values.clear();
                }
            }
        }
    }
}

/// The item a member holds by value: `T` or `T | null`, not `T[]` or a map.
pub(crate) fn by_value_target(t: &Type) -> Option<&str> {
    match t {
        Type::Named(n) => Some(n),
        Type::Nullable(inner) => by_value_target(inner),
        _ => None,
    }
}

/// Each item that lies on a cycle of by-value containment, with the number of
/// its strongly connected group (Tarjan's algorithm, iteratively).
fn by_value_groups(items: &BTreeMap<String, Item>) -> BTreeMap<String, usize> {
    let names: Vec<&String> = items.keys().collect();
    let index_of: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|n| {
            let targets: Vec<&Type> = match &items[*n].kind {
                ItemKind::Struct(s) => s.fields.iter().map(|f| &f.ty).collect(),
                ItemKind::Union(u) => u.variants.iter().map(|v| &v.ty).collect(),
                ItemKind::Alias(t) => vec![t],
                _ => Vec::new(),
            };
            targets.into_iter().filter_map(by_value_target).filter_map(|t| index_of.get(t).copied()).collect()
        })
        .collect();
    let n = names.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut groups) = (Vec::new(), 0, BTreeMap::new());
    let mut group_count = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cyclic = members.len() > 1 || edges[v].contains(&v);
                if cyclic {
                    for m in members {
                        groups.insert(names[m].clone(), group_count);
                    }
                    group_count += 1;
                }
            }
        }
    }
    groups
}
