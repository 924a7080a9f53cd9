//! Checks over a lowered revision that span several items, run before emitting:
//! Rust names, by-value recursion, and union members that the union rule
//! ([`crate::rule`]) can never tell apart for some input, reported as warnings
//! naming the member the rule picks.

use std::collections::{BTreeMap, BTreeSet};

use mcp_spec_runtime::__private::{MAX_OBJECT_MEMBERS, SLOTS_PER_GROUP};

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{ItemKind, Origin, Revision, Role, Type};
use crate::names::is_keyword;
use crate::rule::choose;
use crate::rust::member_name;
use crate::sample::Fill;
use crate::sample::member_sample;

/// Returns `(union, member, chosen instead, fill)` in a fixed order.
pub fn ambiguous_members(rev: &Revision) -> Vec<(String, String, String, Fill)> {
    let mut out = Vec::new();
    for item in rev.items.values() {
        let ItemKind::Union(u) = &item.kind else { continue };
        if u.tag_field().is_some() {
            continue;
        }
        for (i, var) in u.variants.iter().enumerate() {
            for fill in [Fill::Required, Fill::All] {
                let input = member_sample(rev, u, i, fill);
                if let Some(j) = choose(rev, u, &input)
                    && j != i
                {
                    out.push((item.name.clone(), var.name.clone(), u.variants[j].name.clone(), fill));
                }
            }
        }
    }
    out
}

/// The warnings of the union check, one per (union, member, chosen) triple.
pub fn check_unions(rev: &Revision) -> Diagnostics {
    let mut diags = Diagnostics::default();
    let mut seen = BTreeSet::new();
    for (union, member, chosen, fill) in ambiguous_members(rev) {
        if !seen.insert((union.clone(), member.clone(), chosen.clone())) {
            continue;
        }
        let span = rev.item(&union).map(|i| i.span).unwrap_or_default();
        let what = match fill {
            Fill::Required => "with only its required members",
            Fill::All => "even with all of its members",
        };
        diags.push(
            Diagnostic::warning(format!(
                "in revision {}, union `{union}`: an input for `{member}` {what} also fits `{chosen}`; the rule picks `{chosen}`",
                rev.name
            ))
            .at(&rev.schema_path, span)
            .label(format!("`{member}` and `{chosen}` are indistinguishable in shape here"))
            .hint(format!(
                "`{chosen}` knows at least as many of the input's members and comes first; a fixed member (a literal type) in `{member}` would tell them apart"
            )),
        );
    }
    diags
}

/// Every check of a revision, errors and warnings together: names that cannot
/// be Rust names, Rust names that collide, types that contain themselves by value,
/// and the union check.
pub fn check_revision(rev: &Revision) -> Diagnostics {
    let mut diags = check_names(rev);
    diags.extend(check_recursion(rev));
    diags.extend(check_union_sizes(rev));
    diags.extend(check_struct_sizes(rev));
    if !diags.has_errors() {
        diags.extend(check_unions(rev));
    }
    diags
}

/// A union decided by shape has at most [`choose::MAX_MEMBERS`] members: the rule
/// keeps sets of them as the bits of a `u64`, on the stack.
pub fn check_union_sizes(rev: &Revision) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for item in rev.items.values() {
        let ItemKind::Union(u) = &item.kind else { continue };
        if u.tag_field().is_none() && u.variants.len() > choose::MAX_MEMBERS {
            diags.push(
                Diagnostic::error(format!(
                    "the union `{}` has {} members; a union told apart by shape may have at most {}",
                    item.name,
                    u.variants.len(),
                    choose::MAX_MEMBERS
                ))
                .at(&rev.schema_path, item.span)
                .label("declared here")
                .hint("give its members a common discriminator field (a literal type), or split the union"),
            );
        }
    }
    diags
}

/// A struct has at most [`MAX_OBJECT_MEMBERS`] members: its read keeps them in
/// tuples of [`SLOTS_PER_GROUP`] slots, nested, and the golden fixtures build
/// and read a struct that wide, none wider.
pub fn check_struct_sizes(rev: &Revision) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for item in rev.items.values() {
        let ItemKind::Struct(s) = &item.kind else { continue };
        if s.fields.len() > MAX_OBJECT_MEMBERS {
            diags.push(
                Diagnostic::error(format!(
                    "the object type `{}` has {} members; a generated struct may have at most {MAX_OBJECT_MEMBERS}",
                    item.name,
                    s.fields.len(),
                ))
                .at(&rev.schema_path, item.span)
                .label("declared here")
                .hint(format!(
                    "a struct's members are read in groups of {SLOTS_PER_GROUP}, at most {} groups; split the type (an intersection of smaller ones)",
                    MAX_OBJECT_MEMBERS / SLOTS_PER_GROUP
                )),
            );
        }
    }
    diags
}

/// Names the generated module declares itself, and those the runtime's macros
/// give local items in the bodies they write (where one would hide a schema
/// type of the same name).
const RESERVED: &[&str] = &["SCHEMA_TYPES", "__McpKindVisitor"];

fn is_rust_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s != "_"
}

/// Type names are used verbatim, so each must be a Rust identifier; the Rust
/// names of one struct's fields (and of its fixed members' consts) must differ.
pub fn check_names(rev: &Revision) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for item in rev.items.values() {
        let name = &item.name;
        let problem = if !is_rust_identifier(name) {
            Some("is not a Rust identifier (ASCII letters, digits and `_`)")
        } else if is_keyword(name) {
            Some("is a Rust keyword")
        } else if RESERVED.contains(&name.as_str()) {
            Some("is a name the generated module uses for itself")
        } else {
            None
        };
        if let Some(problem) = problem {
            let what = if item.origin == Origin::Declared { "type" } else { "inline type" };
            diags.push(
                Diagnostic::error(format!("the {what} name `{name}` {problem}"))
                    .at(&rev.schema_path, item.span)
                    .label("declared here")
                    .hint("type names are kept verbatim in Rust; rename the type"),
            );
        }
        let ItemKind::Struct(s) = &item.kind else { continue };
        let mut fields: BTreeMap<String, &str> = BTreeMap::new();
        let mut consts: BTreeMap<String, &str> = BTreeMap::new();
        for f in &s.fields {
            let table = match f.role {
                Role::Fixed(_) => &mut consts,
                _ => &mut fields,
            };
            let rust = member_name(f);
            if let Some(other) = table.insert(rust.clone(), &f.wire) {
                diags.push(
                    Diagnostic::error(format!(
                        "the members `{other}` and `{}` of `{name}` would both be `{rust}` in Rust",
                        f.wire
                    ))
                    .at(&rev.schema_path, f.span)
                    .label("this member")
                    .hint("rename one of the members"),
                );
            }
        }
    }
    diags
}

/// A type that contains itself by value (not through an array, a map or a
/// `Box`) has no finite size in Rust. `lower` boxes the members that close such
/// cycles; this is the check that it did. A cycle of aliases and unions alone
/// (`type Loop = Text | Loop`) is an error even when boxed: no object on it holds
/// anything, TypeScript rejects it ("circularly references itself"), and the
/// union rule and the runtime's shape constants would follow it without end.
pub fn check_recursion(rev: &Revision) -> Diagnostics {
    fn by_value<'a>(t: &'a Type, out: &mut Vec<&'a str>) {
        match t {
            Type::Named(n) => out.push(n),
            Type::Nullable(inner) => by_value(inner, out),
            _ => {}
        }
    }
    let kind = |n: &str| rev.item(n).map(|i| &i.kind);
    // Aliases and unions to the aliases and unions they name, boxed or not.
    let mut through_names: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    // Every type to the types it holds by value and not in a `Box`.
    let mut unboxed: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for item in rev.items.values() {
        let (mut named, mut held) = (Vec::new(), Vec::new());
        match &item.kind {
            ItemKind::Struct(s) => s.fields.iter().filter(|f| !f.boxed).for_each(|f| by_value(&f.ty, &mut held)),
            ItemKind::Union(u) => u.variants.iter().for_each(|v| {
                by_value(&v.ty, &mut named);
                if !v.boxed {
                    by_value(&v.ty, &mut held);
                }
            }),
            ItemKind::Alias(t) => {
                by_value(t, &mut named);
                by_value(t, &mut held);
            }
            _ => {}
        }
        if matches!(item.kind, ItemKind::Union(_) | ItemKind::Alias(_)) {
            named.retain(|n| matches!(kind(n), Some(ItemKind::Union(_) | ItemKind::Alias(_))));
            through_names.insert(&item.name, named);
        }
        unboxed.insert(&item.name, held);
    }
    let mut diags = Diagnostics::default();
    let mut reported: BTreeSet<Vec<&str>> = BTreeSet::new();
    for (edges, holds_objects) in [(&through_names, false), (&unboxed, true)] {
        for path in cycles(edges) {
            let mut members = path.clone();
            members.sort();
            if !reported.insert(members) {
                continue;
            }
            let start = path[0];
            let only_aliases = path.iter().all(|n| matches!(kind(n), Some(ItemKind::Alias(_))));
            let (what, hint) = if only_aliases {
                (
                    "stands for itself",
                    "these aliases name each other and nothing else; let one of them name a real type",
                )
            } else if !holds_objects {
                (
                    "is among its own members",
                    "through unions and aliases alone it adds nothing to the union and has no Rust type \
                     (TypeScript rejects it too); remove that member",
                )
            } else {
                (
                    "contains itself by value",
                    "a Rust type cannot contain itself; make a member on the cycle an array or a map",
                )
            };
            let span = rev.item(start).map(|i| i.span).unwrap_or_default();
            diags.push(
                Diagnostic::error(format!("`{start}` {what}: {} → {start}", path.join(" → ")))
                    .at(&rev.schema_path, span)
                    .label("this type")
                    .hint(hint),
            );
        }
    }
    diags
}

/// The cycles of `edges`, each as its path from its start, starts in name order;
/// a cycle met from several of its members is listed once per start (callers
/// keep the first).
fn cycles<'a>(edges: &BTreeMap<&'a str, Vec<&'a str>>) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    for start in edges.keys().copied() {
        // Depth-first from `start`, looking for a way back to it.
        let mut stack: Vec<(Vec<&str>, usize)> = vec![(vec![start], 0)];
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        while let Some((path, next)) = stack.pop() {
            let last = *path.last().unwrap_or(&start);
            let Some(targets) = edges.get(last) else { continue };
            if next >= targets.len() {
                continue;
            }
            stack.push((path.clone(), next + 1));
            let t = targets[next];
            if t == start {
                out.push(path);
            } else if seen.insert(t) {
                let mut p = path.clone();
                p.push(t);
                stack.push((p, 0));
            }
        }
    }
    out
}
