//! Checks over a lowered revision that span several items, run before emitting.
//!
//! The union rule lives here in model form ([`fit`], [`choose`]): the generated
//! `Fit` impls implement the same rule, and a test holds the two together. With
//! it, the check finds union members that the rule can never tell apart for
//! some input and reports them as warnings naming the member the rule picks.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{ItemKind, LiteralValue, Revision, Type, Union};
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
                        None if f.required => return None,
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
        return u.variants.iter().position(|var| var.tags.iter().any(|t| literal_matches(&t.value, tag)));
    }
    let mut best: Option<(usize, u32)> = None;
    for (i, var) in u.variants.iter().enumerate() {
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
                let input = sample(rev, &var.ty, fill);
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
