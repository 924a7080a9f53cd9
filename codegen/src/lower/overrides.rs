//! Corrections of known defects of the upstream schema, in one small table that
//! says, for each: the member (by schema path), the revisions it applies to, what
//! its type becomes and why. Nothing else in the generator corrects the schema.
//! A correction shows in the member's docs ("Corrected by the generator: ...")
//! and in `cargo xtask model`. An entry for a revision that has its type but not
//! the defect (the member is gone, or already right) is a warning, so a fixed
//! defect does not linger here; a revision without the type at all (a test
//! fixture, a revision that dropped it) is simply not concerned.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::model::{Item, ItemKind, PathStep, Type, canonical, parse_path};

/// What a correction does to the type at its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Correction {
    /// An integer (the schema's `number` without `@TJS-type number`) becomes any
    /// number; in a union, its integer member does.
    AnyNumber,
    /// `T` becomes `T | null`.
    Nullable,
}

impl Correction {
    fn describe(self) -> &'static str {
        match self {
            Correction::AnyNumber => "any number (`f64`) instead of an integer",
            Correction::Nullable => "may also be `null`",
        }
    }
}

/// One correction.
#[derive(Clone, Copy, Debug)]
pub struct Override {
    /// A schema path ending at a member, or inside one (`ElicitResult.content{}`).
    pub path: &'static str,
    /// The first revision it applies to.
    pub since: &'static str,
    /// The last, when the member is gone after it; else every later revision,
    /// dated or not (`draft`).
    pub until: Option<&'static str>,
    pub correction: Correction,
    pub reason: &'static str,
}

/// The table.
pub const OVERRIDES: &[Override] = &[
    Override {
        path: "ElicitResult.content{}",
        since: "2025-06-18",
        until: None,
        correction: Correction::AnyNumber,
        reason: "a form field's `NumberSchema` may have `type: \"number\"`, so the client's answer can be any number (`0.25`), but the schema types the answer as `number` without `@TJS-type number`, which reads as an integer",
    },
    Override {
        path: "JSONRPCError.id",
        since: "2024-11-05",
        until: None,
        correction: Correction::Nullable,
        reason: "JSON-RPC 2.0 §5: the `id` of an error response is `null` when the request's id could not be read (a parse error)",
    },
    Override {
        path: "JSONRPCErrorResponse.id",
        since: "2024-11-05",
        until: None,
        correction: Correction::Nullable,
        reason: "JSON-RPC 2.0 §5: the `id` of an error response is `null` when the request's id could not be read (a parse error)",
    },
];

/// Does an override apply to the revision `name` (`dated` when `YYYY-MM-DD`)?
pub fn applies(o: &Override, name: &str, dated: bool) -> bool {
    match (dated, o.until) {
        (false, until) => until.is_none(),
        (true, until) => name >= o.since && until.is_none_or(|u| name <= u),
    }
}

/// Applies the table to a revision's items. Returns the warnings for entries
/// that apply to this revision but find nothing to correct.
pub fn apply_overrides(
    items: &mut BTreeMap<String, Item>,
    revision: &str,
    dated: bool,
    schema: &std::path::Path,
) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for o in OVERRIDES.iter().filter(|o| applies(o, revision, dated)) {
        // A member's path written after its declaring type: that type or any that
        // inherits the member. (The wrong path is the one the table would name.)
        let Some((head, steps)) = parse_path(o.path) else { continue };
        let Some(last_member) = steps.iter().rposition(|s| matches!(s, PathStep::Member(_))) else { continue };
        if !items.contains_key(&head) {
            continue;
        }
        let done = match locate(items, &head, &steps[..last_member]) {
            Some(owner) => {
                let PathStep::Member(wire) = &steps[last_member] else { continue };
                correct_member(items, &owner, wire, &steps[last_member + 1..], o)
            }
            None => false,
        };
        if !done {
            warnings.push(
                Diagnostic::warning(format!(
                    "the override of `{}` ({}) finds nothing to correct in revision {revision}",
                    o.path,
                    o.correction.describe()
                ))
                .in_file(schema)
                .hint("the schema may have fixed the defect: narrow the entry's revisions in codegen/src/lower/overrides.rs, or remove it"),
            );
        }
    }
    warnings
}

/// The struct a path of members leads to.
fn locate(items: &BTreeMap<String, Item>, head: &str, steps: &[PathStep]) -> Option<String> {
    let mut current = Type::Named(head.to_string());
    for step in steps {
        let name = match canonical(items, &current) {
            Type::Named(n) => n.clone(),
            _ => return None,
        };
        let ItemKind::Struct(s) = &items.get(&name)?.kind else { return None };
        current = match step {
            PathStep::Member(m) => s.field(m)?.ty.clone(),
            _ => return None,
        };
    }
    match canonical(items, &current) {
        Type::Named(n) => Some(n.clone()),
        _ => None,
    }
}

/// Corrects the member `wire` of `owner` (and of every struct that has the same
/// member from the same declaration), at `rest` inside its type.
fn correct_member(
    items: &mut BTreeMap<String, Item>,
    owner: &str,
    wire: &str,
    rest: &[PathStep],
    o: &Override,
) -> bool {
    let Some(ItemKind::Struct(s)) = items.get(owner).map(|i| &i.kind) else { return false };
    let Some(field) = s.field(wire) else { return false };
    let declared_in = field.declared_in.clone();
    let note = format!("{}: {}.", o.correction.describe(), o.reason);
    // What the correction changes: the member's own type, or a union item inside it.
    let mut target_union: Option<String> = None;
    let mut changed = false;
    let mut new_type = field.ty.clone();
    if let Some(slot) = type_at(&mut new_type, rest) {
        match (o.correction, &*slot) {
            (Correction::AnyNumber, Type::Integer) => {
                *slot = Type::Number;
                changed = true;
            }
            (Correction::AnyNumber, Type::Named(n)) => target_union = Some(n.clone()),
            (Correction::Nullable, t) if !matches!(t, Type::Nullable(_)) => {
                let inner = t.clone();
                *slot = Type::Nullable(Box::new(inner));
                changed = true;
            }
            _ => {}
        }
    }
    if let Some(u) = target_union
        && let Some(Item { kind: ItemKind::Union(union), docs, .. }) = items.get_mut(&u)
    {
        for v in &mut union.variants {
            if v.ty == Type::Integer {
                v.ty = Type::Number;
                if v.name == "Integer" {
                    v.name = "Number".into();
                }
                changed = true;
            }
        }
        if changed {
            docs.overrides.push(note.clone());
        }
    }
    if !changed {
        return false;
    }
    for item in items.values_mut() {
        let ItemKind::Struct(s) = &mut item.kind else { continue };
        for f in s.fields.iter_mut().filter(|f| f.wire == wire && f.declared_in == declared_in) {
            f.ty = new_type.clone();
            f.docs.overrides.push(note.clone());
        }
    }
    true
}

/// The type at `steps` inside `t` (`{}` a map's values, `[]` an array's items).
fn type_at<'a>(t: &'a mut Type, steps: &[PathStep]) -> Option<&'a mut Type> {
    let mut t = t;
    for step in steps {
        t = match (step, t) {
            (PathStep::Values, Type::Map(inner)) | (PathStep::Items, Type::Array(inner)) => inner,
            (_, Type::Nullable(inner)) => type_at(inner, std::slice::from_ref(step))?,
            _ => return None,
        };
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_a_path_with_a_member_and_a_dated_revision() {
        for o in OVERRIDES {
            let (_, steps) = parse_path(o.path).unwrap_or_else(|| panic!("{}: not a path", o.path));
            assert!(steps.iter().any(|s| matches!(s, PathStep::Member(_))), "{}: names no member", o.path);
            assert!(
                crate::jsdoc::find_date(o.since).as_deref() == Some(o.since),
                "{}: `{}` is not a date",
                o.path,
                o.since
            );
        }
    }
}
