//! Checks over a lowered revision that span several items, run before emitting.
//!
//! The union rule lives here in model form ([`fit`], [`choose`]): the generated
//! `Fit` impls implement the same rule, and a test holds the two together. With
//! it, the check finds union members that the rule can never tell apart for
//! some input and reports them as warnings naming the member the rule picks.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{ItemKind, LiteralValue, Origin, Revision, Type, Union};
use crate::names::{field_ident, is_keyword, snake_case};
use crate::sample::{Fill, sample};

/// How well `v` fits `ty`: `None` when it cannot be one, else the number of
/// object members at any depth the type knows (see the runtime's `Fit`).
pub fn fit(rev: &Revision, ty: &Type, v: &Value) -> Option<u32> {
    fit_depth(rev, ty, v, 0)
}

fn fit_depth(rev: &Revision, ty: &Type, v: &Value, depth: usize) -> Option<u32> {
    if depth > 64 {
        return Some(0);
    }
    match ty {
        Type::String => v.is_string().then_some(0),
        Type::Integer => v.is_i64().then_some(0),
        Type::Number => v.is_number().then_some(0),
        Type::Boolean => v.is_boolean().then_some(0),
        Type::Json => Some(0),
        Type::Literal(l) => match l.value {
            LiteralValue::Str(_) => v.is_string().then_some(0),
            LiteralValue::Int(_) => v.is_i64().then_some(0),
            LiteralValue::Float(_) => v.is_number().then_some(0),
            LiteralValue::Bool(_) => v.is_boolean().then_some(0),
        },
        Type::Nullable(t) => if v.is_null() { Some(0) } else { fit_depth(rev, t, v, depth + 1) },
        Type::Array(t) => {
            let mut score = 0u32;
            for item in v.as_array()? {
                score = score.saturating_add(fit_depth(rev, t, item, depth + 1)?);
            }
            Some(score)
        }
        Type::Map(t) => {
            let m = v.as_object()?;
            if is_json(rev, t) {
                return Some(0);
            }
            let mut score = 0u32;
            for item in m.values() {
                score = score.saturating_add(fit_depth(rev, t, item, depth + 1)?);
            }
            Some(score)
        }
        Type::Named(n) => match &rev.item(n)?.kind {
            ItemKind::Alias(t) => fit_depth(rev, t, v, depth + 1),
            ItemKind::Const(_) => None,
            ItemKind::Enum(e) => {
                let s = v.as_str()?;
                (e.open || e.values.iter().any(|x| x.value == s)).then_some(0)
            }
            ItemKind::Union(u) => {
                let i = choose_depth(rev, u, v, depth + 1)?;
                fit_depth(rev, &u.variants[i].ty, v, depth + 1)
            }
            ItemKind::Struct(s) => {
                let m = v.as_object()?;
                let mut known = 0u32;
                for f in &s.fields {
                    match m.get(&f.wire) {
                        Some(value) => {
                            let nested = match (&f.ty, f.required) {
                                (Type::Literal(l), true) => {
                                    if literal_matches(&l.value, value) { 0 } else { return None }
                                }
                                (t, _) => fit_depth(rev, t, value, depth + 1)?,
                            };
                            known = known.saturating_add(1).saturating_add(nested);
                        }
                        None if f.must_be_present() => return None,
                        None => {}
                    }
                }
                Some(known)
            }
        },
    }
}

fn literal_matches(l: &LiteralValue, v: &Value) -> bool {
    match l {
        LiteralValue::Str(s) => v.as_str() == Some(s),
        LiteralValue::Int(i) => v.as_i64() == Some(*i),
        LiteralValue::Float(f) => v.as_f64() == Some(*f),
        LiteralValue::Bool(b) => v.as_bool() == Some(*b),
    }
}

fn is_json(rev: &Revision, t: &Type) -> bool {
    let mut t = t;
    for _ in 0..32 {
        match t {
            Type::Json => return true,
            Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
                Some(ItemKind::Alias(inner)) => t = inner,
                _ => return false,
            },
            _ => return false,
        }
    }
    false
}

/// The member of `u` the rule chooses for `v`: by discriminator when there is one,
/// else the best fit, the earliest on a tie.
pub fn choose(rev: &Revision, u: &Union, v: &Value) -> Option<usize> {
    choose_depth(rev, u, v, 0)
}

fn choose_depth(rev: &Revision, u: &Union, v: &Value, depth: usize) -> Option<usize> {
    if let Some(field) = &u.discriminator {
        let tag = v.get(field)?;
        return u.variants.iter().position(|var| var.tags.iter().any(|t| literal_matches(&t.value, tag))).or(u.fallback);
    }
    if let Some(sel) = &u.selector {
        let value = v.get(&sel.field).and_then(Value::as_str);
        if let Some((_, k)) = sel.tags.iter().find(|(t, _)| Some(t.as_str()) == value) {
            return fit_depth(rev, &u.variants[*k].ty, v, depth + 1).map(|_| *k);
        }
    }
    let selected = |i: usize| u.selector.as_ref().is_some_and(|s| s.tags.iter().any(|(_, k)| *k == i));
    best_fit(rev, u, v, depth, |i| !selected(i)).or_else(|| best_fit(rev, u, v, depth, |_| true))
}

fn best_fit(rev: &Revision, u: &Union, v: &Value, depth: usize, allowed: impl Fn(usize) -> bool) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for (i, var) in u.variants.iter().enumerate() {
        if !allowed(i) {
            continue;
        }
        if let Some(score) = fit_depth(rev, &var.ty, v, depth + 1)
            && best.is_none_or(|(_, s)| score > s)
        {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| i)
}

/// Union members the rule cannot tell apart: for a member's own sample input
/// (required members only, or all of them), another member is chosen.
/// An input made for member `i` of `u`: its sample, with the selector's value
/// for it when the union has one.
pub fn member_sample(rev: &Revision, u: &Union, i: usize, fill: Fill) -> Value {
    let mut input = sample(rev, &u.variants[i].ty, fill);
    if let (Some(sel), Value::Object(m)) = (&u.selector, &mut input)
        && let Some((value, _)) = sel.tags.iter().find(|(_, k)| *k == i)
    {
        m.insert(sel.field.clone(), Value::String(value.clone()));
    }
    input
}

/// Returns `(union, member, chosen instead, fill)` in a fixed order.
pub fn ambiguous_members(rev: &Revision) -> Vec<(String, String, String, Fill)> {
    let mut out = Vec::new();
    for item in rev.items.values() {
        let ItemKind::Union(u) = &item.kind else { continue };
        if u.discriminator.is_some() {
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
    if !diags.has_errors() {
        diags.extend(check_unions(rev));
    }
    diags
}

/// Names the generated module declares itself.
const RESERVED: &[&str] = &["SCHEMA_TYPES"];

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
            let (table, rust) = match (&f.ty, f.required) {
                (Type::Literal(_), true) => (&mut consts, snake_case(&f.wire).to_uppercase()),
                _ => (&mut fields, field_ident(&f.rust)),
            };
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
/// cycles; this is the check that it did.
pub fn check_recursion(rev: &Revision) -> Diagnostics {
    fn by_value<'a>(t: &'a Type, out: &mut Vec<&'a str>) {
        match t {
            Type::Named(n) => out.push(n),
            Type::Nullable(inner) => by_value(inner, out),
            _ => {}
        }
    }
    let mut edges: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for item in rev.items.values() {
        let mut out = Vec::new();
        match &item.kind {
            ItemKind::Struct(s) => s.fields.iter().filter(|f| !f.boxed).for_each(|f| by_value(&f.ty, &mut out)),
            ItemKind::Union(u) => u.variants.iter().filter(|v| !v.boxed).for_each(|v| by_value(&v.ty, &mut out)),
            ItemKind::Alias(t) => by_value(t, &mut out),
            _ => {}
        }
        edges.insert(&item.name, out);
    }
    let mut diags = Diagnostics::default();
    let mut reported: BTreeSet<Vec<&str>> = BTreeSet::new();
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
                let mut cycle = path.clone();
                cycle.sort();
                if reported.insert(cycle) {
                    let span = rev.item(start).map(|i| i.span).unwrap_or_default();
                    let only_aliases = path.iter().all(|n| matches!(rev.item(n).map(|i| &i.kind), Some(ItemKind::Alias(_))));
                    let (what, hint) = if only_aliases {
                        ("stands for itself", "these aliases name each other and nothing else; let one of them name a real type")
                    } else {
                        ("contains itself by value", "a Rust type cannot contain itself; make a member on the cycle an array or a map")
                    };
                    diags.push(
                        Diagnostic::error(format!("`{start}` {what}: {} → {start}", path.join(" → ")))
                            .at(&rev.schema_path, span)
                            .label("this type")
                            .hint(hint),
                    );
                }
            } else if seen.insert(t) {
                let mut p = path.clone();
                p.push(t);
                stack.push((p, 0));
            }
        }
    }
    diags
}
