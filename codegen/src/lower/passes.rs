//! The passes that run over a revision's items once every declaration is
//! lowered: what decides each union (a discriminator, a fallback for unknown
//! tags, a selector field), field defaults checked against their types, and
//! `@deprecated` tags that name enum values moved onto those values.

use std::collections::{BTreeMap, HashSet};

use super::{Lowerer, resolve_struct};
use crate::diag::Diagnostic;
use crate::model::*;

impl Lowerer<'_> {
    /// Types that contain each other by value (not through an array or a map)
    /// have no size in Rust: every such member that points back into its cycle
    /// (into the same strongly connected group of types) is held in a `Box`.
    pub(super) fn box_cycles(&mut self) {
        let group = by_value_groups(&self.items);
        let closes = |from: &str, t: &Type| by_value_target(t).is_some_and(|to| group.get(from).is_some_and(|g| group.get(to) == Some(g)));
        for item in self.items.values_mut() {
            let name = item.name.clone();
            match &mut item.kind {
                ItemKind::Struct(s) => s.fields.iter_mut().for_each(|f| f.boxed = closes(&name, &f.ty)),
                ItemKind::Union(u) => u.variants.iter_mut().for_each(|v| v.boxed = closes(&name, &v.ty)),
                _ => {}
            }
        }
    }

    /// Finds, for each union whose members are all structs, a field that every member
    /// fixes to distinct literal values: that union is decided by the field's value.
    pub(super) fn classify_unions(&mut self) {
        let names: Vec<String> = self.items.keys().cloned().collect();
        for name in names {
            let Some(ItemKind::Union(u)) = self.items.get(&name).map(|i| &i.kind) else { continue };
            let mut structs = Vec::new();
            for v in &u.variants {
                match &v.ty {
                    Type::Named(n) => match resolve_struct(&self.items, n) {
                        Some(s) => structs.push(s),
                        None => break,
                    },
                    _ => break,
                }
            }
            if structs.len() != u.variants.len() || structs.is_empty() {
                continue;
            }
            let candidates: Vec<String> = structs[0].fixed().map(|(f, _)| f.wire.clone()).collect();
            let mut chosen = None;
            'cand: for wire in candidates {
                let mut tags: Vec<Vec<Literal>> = Vec::new();
                for s in &structs {
                    let Some((_, lit)) = s.fixed().find(|(f, _)| f.wire == wire) else { continue 'cand };
                    if tags.iter().flatten().any(|t| t.value == lit.value) {
                        continue 'cand;
                    }
                    tags.push(vec![lit.clone()]);
                }
                chosen = Some((wire, tags));
                break;
            }
            if let Some((wire, tags)) = chosen
                && let Some(Item { kind: ItemKind::Union(u), .. }) = self.items.get_mut(&name)
            {
                u.discriminator = Some(wire);
                for (v, t) in u.variants.iter_mut().zip(tags) {
                    v.tags = t;
                }
            }
        }
    }

    /// A discriminated union whose members all extend (directly or not) one base that leaves the
    /// discriminator open (`JSONRPCRequest`'s `method: string`) reads any other
    /// value as that base: the variant `Other`, so unknown and extension methods
    /// pass through.
    pub(super) fn add_fallbacks(&mut self) {
        let names: Vec<String> = self.items.keys().cloned().collect();
        for name in names {
            let Some(ItemKind::Union(u)) = self.items.get(&name).map(|i| &i.kind) else { continue };
            let Some(field) = u.discriminator.clone() else { continue };
            let mut common: Option<Vec<String>> = None;
            for v in &u.variants {
                let Type::Named(n) = &v.ty else { continue };
                let bases = ancestors(&self.items, n);
                common = Some(match common {
                    None => bases,
                    Some(c) => c.into_iter().filter(|b| bases.contains(b)).collect(),
                });
            }
            let open_base = common.unwrap_or_default().into_iter().find(|b| {
                resolve_struct(&self.items, b)
                    .and_then(|s| s.field(&field))
                    .is_some_and(|f| !matches!(f.ty, Type::Literal(_)))
            });
            let Some(base) = open_base else { continue };
            if let Some(Item { kind: ItemKind::Union(u), .. }) = self.items.get_mut(&name) {
                let vname = if u.variants.iter().any(|v| v.name == "Other") { "Unknown" } else { "Other" };
                u.variants.push(Variant { name: vname.into(), ty: Type::Named(base), tags: Vec::new(), boxed: false });
                u.fallback = Some(u.variants.len() - 1);
            }
        }
    }

    /// A union decided by shape whose members share a field typed by one string
    /// enum, whose docs tie a value to one of the members (`ResultType`:
    /// "input_required - ... contains an {@link InputRequiredResult} object"), is
    /// read by that field first: the value picks that member, and any other value
    /// (or none) leaves the choice to the shape rule among the others. This is how
    /// the spec says a result is to be read ("allows the client to determine how to
    /// parse the result object").
    pub(super) fn add_selectors(&mut self) {
        let names: Vec<String> = self.items.keys().cloned().collect();
        for name in names {
            let Some(ItemKind::Union(u)) = self.items.get(&name).map(|i| &i.kind) else { continue };
            if u.discriminator.is_some() || u.variants.len() < 2 {
                continue;
            }
            let mut structs = Vec::new();
            for v in &u.variants {
                match &v.ty {
                    Type::Named(n) => match resolve_struct(&self.items, n) {
                        Some(s) => structs.push((n.clone(), s)),
                        None => break,
                    },
                    _ => break,
                }
            }
            if structs.len() != u.variants.len() {
                continue;
            }
            let mut chosen = None;
            for f in &structs[0].1.fields {
                let Type::Named(enum_name) = &f.ty else { continue };
                let Some(enum_item) = self.items.get(enum_name) else { continue };
                let ItemKind::Enum(e) = &enum_item.kind else { continue };
                if !structs.iter().all(|(_, s)| s.field(&f.wire).is_some_and(|g| g.ty == f.ty)) {
                    continue;
                }
                let linked = value_links(&enum_item.docs.text);
                let tags: Vec<(String, usize)> = structs
                    .iter()
                    .enumerate()
                    .filter_map(|(i, (n, _))| {
                        let (value, _) = linked.iter().find(|(_, ty)| ty == n)?;
                        e.values.iter().any(|v| &v.value == value).then(|| (value.clone(), i))
                    })
                    .collect();
                if !tags.is_empty() && tags.len() < structs.len() {
                    chosen = Some(Selector { field: f.wire.clone(), tags });
                    break;
                }
            }
            if let Some(sel) = chosen
                && let Some(Item { kind: ItemKind::Union(u), .. }) = self.items.get_mut(&name)
            {
                u.selector = Some(sel);
            }
        }
    }

    /// A default must be a value of its field's type; one that is not is dropped
    /// with a warning.
    pub(super) fn check_defaults(&mut self) {
        let mut bad = Vec::new();
        for item in self.items.values() {
            let ItemKind::Struct(s) = &item.kind else { continue };
            for f in &s.fields {
                let Some(d) = &f.default else { continue };
                if f.declared_in == item.name && !default_fits(&self.items, &f.ty, &d.value) {
                    bad.push((item.name.clone(), f.wire.clone(), f.span, d.value.to_json(), f.ty.describe()));
                }
            }
        }
        for (item, wire, span, value, ty) in &bad {
            self.diags.push(
                Diagnostic::warning(format!("the default {value} of `{item}.{wire}` is not a value of its type `{ty}`"))
                    .at(self.path, *span)
                    .label("this member")
                    .hint("the default is ignored: absence stays an error"),
            );
        }
        for item in self.items.values_mut() {
            let ItemKind::Struct(s) = &mut item.kind else { continue };
            for f in &mut s.fields {
                if bad.iter().any(|(i, w, ..)| (i == &f.declared_in || i == &item.name) && w == &f.wire) {
                    f.default = None;
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
            let Some(Item { kind: ItemKind::Enum(e), origin: Origin::Inline { .. }, .. }) = self.items.get_mut(&target) else { continue };
            let named: Vec<String> = dep.values.iter().filter(|v| e.values.iter().any(|ev| &ev.value == *v)).cloned().collect();
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

/// The values an enum's docs tie to a type, one per line:
/// `input_required - ... an {@link InputRequiredResult} object ...`.
fn value_links(text: &[String]) -> Vec<(String, String)> {
    text.iter()
        .filter_map(|line| {
            let (value, rest) = line.trim().split_once(" - ")?;
            let at = rest.find("{@link ")? + "{@link ".len();
            let target: String = rest[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            (!value.contains(' ') && !target.is_empty()).then(|| (value.trim_matches('`').trim_matches('"').to_string(), target))
        })
        .collect()
}

fn default_fits(items: &BTreeMap<String, Item>, ty: &Type, v: &LiteralValue) -> bool {
    match (ty, v) {
        (Type::String, LiteralValue::Str(_)) | (Type::Boolean, LiteralValue::Bool(_)) | (Type::Integer, LiteralValue::Int(_)) => true,
        (Type::Number, LiteralValue::Int(_) | LiteralValue::Float(_)) => true,
        (Type::Named(n), LiteralValue::Str(s)) => match items.get(n).map(|i| &i.kind) {
            Some(ItemKind::Enum(e)) => e.open || e.values.iter().any(|x| &x.value == s),
            Some(ItemKind::Alias(t)) => default_fits(items, t, v),
            _ => false,
        },
        _ => false,
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

/// The bases of a struct and theirs, nearest first.
fn ancestors(items: &BTreeMap<String, Item>, name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut queue: std::collections::VecDeque<String> =
        resolve_struct(items, name).map(|s| s.bases.iter().cloned().collect()).unwrap_or_default();
    while let Some(b) = queue.pop_front() {
        if out.contains(&b) || out.len() > 64 {
            continue;
        }
        if let Some(s) = resolve_struct(items, &b) {
            queue.extend(s.bases.iter().cloned());
        }
        out.push(b);
    }
    out
}
