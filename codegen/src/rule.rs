//! The union rule, in one place: how the model decides what a union is
//! (a discriminator, a fallback member for unknown tags, a selector field), how
//! a JSON value is matched against it ([`fit`], [`choose`]) and how the rule is
//! told to a reader of the generated docs ([`describe`]).
//!
//! The generated code implements the same rule in the runtime (`rt::pick`,
//! `rt::by_tag`); `tests/unions.rs` holds the two together on inputs made for
//! every member of every union.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::{Item, ItemKind, Literal, LiteralValue, Revision, Selector, Type, Union, Variant, struct_of};
use crate::sample::{Fill, sample};

/// Decides every union of a revision being lowered: first a discriminator where
/// every member fixes one field to distinct values, then the fallback member of
/// discriminated unions whose common base leaves the field open, then a selector
/// field for unions decided by shape.
pub fn decide_unions(items: &mut BTreeMap<String, Item>) {
    classify_unions(items);
    add_fallbacks(items);
    add_selectors(items);
}

/// Finds, for each union whose members are all structs, a field that every member
/// fixes to distinct literal values: that union is decided by the field's value.
fn classify_unions(items: &mut BTreeMap<String, Item>) {
    let names: Vec<String> = items.keys().cloned().collect();
    for name in names {
        let Some(ItemKind::Union(u)) = items.get(&name).map(|i| &i.kind) else { continue };
        let mut structs = Vec::new();
        for v in &u.variants {
            match &v.ty {
                Type::Named(n) => match struct_of(items, n) {
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
            && let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(&name)
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
fn add_fallbacks(items: &mut BTreeMap<String, Item>) {
    let names: Vec<String> = items.keys().cloned().collect();
    for name in names {
        let Some(ItemKind::Union(u)) = items.get(&name).map(|i| &i.kind) else { continue };
        let Some(field) = u.discriminator.clone() else { continue };
        let mut common: Option<Vec<String>> = None;
        for v in &u.variants {
            let Type::Named(n) = &v.ty else { continue };
            let bases = ancestors(items, n);
            common = Some(match common {
                None => bases,
                Some(c) => c.into_iter().filter(|b| bases.contains(b)).collect(),
            });
        }
        let open_base = common.unwrap_or_default().into_iter().find(|b| {
            struct_of(items, b)
                .and_then(|s| s.field(&field))
                .is_some_and(|f| !matches!(f.ty, Type::Literal(_)))
        });
        let Some(base) = open_base else { continue };
        if let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(&name) {
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
fn add_selectors(items: &mut BTreeMap<String, Item>) {
    let names: Vec<String> = items.keys().cloned().collect();
    for name in names {
        let Some(ItemKind::Union(u)) = items.get(&name).map(|i| &i.kind) else { continue };
        if u.discriminator.is_some() || u.variants.len() < 2 {
            continue;
        }
        let mut structs = Vec::new();
        for v in &u.variants {
            match &v.ty {
                Type::Named(n) => match struct_of(items, n) {
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
            let Some(enum_item) = items.get(enum_name) else { continue };
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
            && let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(&name)
        {
            u.selector = Some(sel);
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

/// The bases of a struct and theirs, nearest first.
pub fn ancestors(items: &BTreeMap<String, Item>, name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut queue: std::collections::VecDeque<String> =
        struct_of(items, name).map(|s| s.bases.iter().cloned().collect()).unwrap_or_default();
    while let Some(b) = queue.pop_front() {
        if out.contains(&b) || out.len() > 64 {
            continue;
        }
        if let Some(s) = struct_of(items, &b) {
            queue.extend(s.bases.iter().cloned());
        }
        out.push(b);
    }
    out
}

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
            if crate::rust::is_json(rev, t) {
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
                            let nested = match f.role.fixed() {
                                Some(l) => {
                                    if literal_matches(&l.value, value) { 0 } else { return None }
                                }
                                None => fit_depth(rev, &f.ty, value, depth + 1)?,
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

