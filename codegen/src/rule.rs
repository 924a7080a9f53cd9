//! The union rule as the model reads it: how a JSON value is matched against a
//! type or union ([`reads`], [`choose()`], [`candidates`]), on the same first
//! look as the generated code's runtime ([`choose`], its module, compiled here
//! too). What a union's rule is, is decided when a revision is lowered
//! (`lower::union_rules`); its samples are `sample`'s, its prose `emit::docs`'s.
//!
//! The facts a union asks of its members (`declares`, `requirement`) are the
//! runtime's own functions asked of the model's types, and `tests/unions.rs`
//! holds this reader and the runtime's together on inputs made for every member
//! of every union. Aliases are looked through by
//! [`Revision::canonical`], the one resolver, before each walker looks at a type.

use serde_json::Value;

use crate::model::{ALIAS_DEPTH, ItemKind, LiteralValue, Revision, Type, Union};
use crate::rust::NumberWrap;

/// What a member type says of itself to a union (its keys, what it requires):
/// the runtime's own functions, asked of the model's types.
use mcp_spec_runtime::__private as shape;
/// The rule's first look: the generated code's runtime's own, so that both decide alike.
pub use mcp_spec_runtime::__private::choose;

/// Would the generated code read `v` as `ty`? The model's account of the typed
/// read, for the checks and the tests: strings, numbers (an integer is any number
/// with no fractional part that fits `i64`), objects whose required members are
/// there and whose fixed members have their value (and, for a notification, no
/// `id`), unions by [`choose()`].
pub fn reads(rev: &Revision, ty: &Type, v: &Value) -> bool {
    reads_depth(rev, ty, v, 0, false)
}

/// Whether a member (or union member) of type `t` reads a whole float (`7.0`)
/// as an integer: what the runtime's `as int` / `as nullable_int` do, decided
/// once, by [`NumberWrap::of`]. An integer inside an array or a map, or a type
/// read on its own, takes JSON integers only.
fn reads_whole_floats(rev: &Revision, t: &Type) -> bool {
    matches!(NumberWrap::of(rev, t), NumberWrap::Int | NumberWrap::NullableInt)
}

/// `whole`: an integer here may be written as a whole float (see [`reads_whole_floats`]).
fn reads_depth(rev: &Revision, ty: &Type, v: &Value, depth: usize, whole: bool) -> bool {
    if depth > ALIAS_DEPTH {
        return true;
    }
    let integer = |v: &Value| if whole { is_integer(v) } else { v.is_i64() };
    match rev.canonical(ty) {
        Type::String => v.is_string(),
        Type::Integer => integer(v),
        Type::Number => v.is_number(),
        Type::Boolean => v.is_boolean(),
        Type::Json => true,
        // A literal outside a member of its own is read as its base type.
        Type::Literal(l) => match l.value {
            LiteralValue::Str(_) => v.is_string(),
            LiteralValue::Int(_) => integer(v),
            LiteralValue::Float(_) => v.is_number(),
            LiteralValue::Bool(_) => v.is_boolean(),
        },
        Type::Nullable(t) => v.is_null() || reads_depth(rev, t, v, depth + 1, whole),
        Type::Array(t) => {
            v.as_array().is_some_and(|items| items.iter().all(|item| reads_depth(rev, t, item, depth + 1, false)))
        }
        Type::Map(t) => {
            v.as_object().is_some_and(|m| m.values().all(|item| reads_depth(rev, t, item, depth + 1, false)))
        }
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Alias(_) | ItemKind::Const(_)) | None => false,
            Some(ItemKind::Enum(e)) => v.as_str().is_some_and(|s| e.open || e.values.iter().any(|x| x.value == s)),
            Some(ItemKind::Union(u)) => choose_depth(rev, u, v, depth + 1).is_some(),
            Some(ItemKind::Struct(s)) => {
                let Some(m) = v.as_object() else { return false };
                // A notification refuses an `id` (see `protocol::refuses_id`).
                if m.contains_key("id") && rev.item(n).is_some_and(crate::protocol::refuses_id) {
                    return false;
                }
                s.fields.iter().all(|f| match (m.get(&f.wire), f.role.fixed()) {
                    (Some(value), Some(l)) => literal_matches(&l.value, value),
                    (Some(value), None) => reads_depth(rev, &f.ty, value, depth + 1, reads_whole_floats(rev, &f.ty)),
                    (None, _) => !f.must_be_present(),
                })
            }
        },
    }
}

fn is_integer(v: &Value) -> bool {
    v.is_i64()
        || v.as_f64().is_some_and(|f| {
            f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f)
        })
}

fn literal_matches(l: &LiteralValue, v: &Value) -> bool {
    match l {
        LiteralValue::Str(s) => v.as_str() == Some(s),
        LiteralValue::Int(i) => v.as_i64() == Some(*i) || v.as_f64() == Some(*i as f64),
        LiteralValue::Float(f) => v.as_f64() == Some(*f),
        LiteralValue::Bool(b) => v.as_bool() == Some(*b),
    }
}

/// The member of `u` the rule reads `v` as: by discriminator when there is one,
/// else the first of [`choose::order`]'s candidates that reads.
pub fn choose(rev: &Revision, u: &Union, v: &Value) -> Option<usize> {
    choose_depth(rev, u, v, 0)
}

fn choose_depth(rev: &Revision, u: &Union, v: &Value, depth: usize) -> Option<usize> {
    if let Some(field) = u.tag_field() {
        let tag = v.as_object()?.get(field)?;
        let k = u
            .variants
            .iter()
            .position(|var| var.tags.iter().any(|t| literal_matches(&t.value, tag)))
            .or(u.fallback())?;
        let ty = &u.variants[k].ty;
        return reads_depth(rev, ty, v, depth + 1, reads_whole_floats(rev, ty)).then_some(k);
    }
    candidates(rev, u, v).into_iter().find(|&i| {
        let ty = &u.variants[i].ty;
        reads_depth(rev, ty, v, depth + 1, reads_whole_floats(rev, ty))
    })
}

/// The members the rule would try for `v`, in order ([`choose::order`]).
pub fn candidates(rev: &Revision, u: &Union, v: &Value) -> Vec<usize> {
    let keys: Vec<&str> = v.as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
    let selected = match (u.selector(), v) {
        (Some(sel), Value::Object(m)) => m.get(&sel.field).and_then(Value::as_str),
        _ => None,
    };
    let look = choose::Look { kind: kind_of(v), keys: &keys, selected };
    let values: Vec<&str> = u.selector().map(|s| listed(rev, &s.values_of)).unwrap_or_default();
    let picks: Vec<(&str, usize)> =
        u.selector().map(|s| s.tags.iter().map(|(t, k)| (t.as_str(), *k)).collect()).unwrap_or_default();
    let selector =
        u.selector().map(|s| choose::Selector { field: &s.field, picks: &picks, listed: &values, other: s.other });
    choose::order(&ModelMembers { rev, u }, selector.as_ref(), &look).into_iter().collect()
}

/// The values a string enum lists.
fn listed<'a>(rev: &'a Revision, name: &str) -> Vec<&'a str> {
    match rev.item(name).map(|i| &i.kind) {
        Some(ItemKind::Enum(e)) => e.values.iter().map(|v| v.value.as_str()).collect(),
        _ => Vec::new(),
    }
}

fn kind_of(v: &Value) -> u8 {
    match v {
        Value::Object(_) => choose::OBJECT,
        Value::Array(_) => choose::ARRAY,
        Value::String(_) => choose::STRING,
        Value::Number(_) => choose::NUMBER,
        Value::Bool(_) => choose::BOOLEAN,
        Value::Null => choose::NULL,
    }
}

/// A union's members as the rule sees them, from the model: what the runtime's
/// `Shape` impls say of the generated types.
struct ModelMembers<'a> {
    rev: &'a Revision,
    u: &'a Union,
}

impl choose::Members for ModelMembers<'_> {
    fn count(&self) -> usize {
        self.u.variants.len()
    }
    fn kinds(&self, i: usize) -> u8 {
        kinds(self.rev, &self.u.variants[i].ty, 0)
    }
    fn declares(&self, i: usize, key: &str) -> bool {
        declares(self.rev, &self.u.variants[i].ty, key, 0)
    }
    fn requirement(&self, i: usize, keys: &[&str]) -> (usize, bool) {
        requirement(self.rev, &self.u.variants[i].ty, keys, 0)
    }
}

/// The JSON kinds a value of `ty` can be (the runtime's `Shape::KINDS`).
pub fn kinds(rev: &Revision, ty: &Type, depth: usize) -> u8 {
    if depth > ALIAS_DEPTH {
        return choose::ANY;
    }
    match rev.canonical(ty) {
        Type::String => choose::STRING,
        Type::Integer | Type::Number => choose::NUMBER,
        Type::Boolean => choose::BOOLEAN,
        Type::Json => choose::ANY,
        Type::Array(_) => choose::ARRAY,
        Type::Map(_) => choose::OBJECT,
        Type::Nullable(t) => kinds(rev, t, depth + 1) | choose::NULL,
        Type::Literal(l) => match l.value {
            LiteralValue::Str(_) => choose::STRING,
            LiteralValue::Int(_) | LiteralValue::Float(_) => choose::NUMBER,
            LiteralValue::Bool(_) => choose::BOOLEAN,
        },
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Struct(_)) => choose::OBJECT,
            Some(ItemKind::Enum(_)) => choose::STRING,
            Some(ItemKind::Union(u)) => u.variants.iter().fold(0, |k, v| k | kinds(rev, &v.ty, depth + 1)),
            Some(ItemKind::Alias(_) | ItemKind::Const(_)) | None => 0,
        },
    }
}

/// A struct's keys, as the generated `Shape` impl lists them (`WIRES`): every
/// member's wire name, `REQUIRED` marking those that must be present.
fn wires(s: &crate::model::Struct) -> Vec<&str> {
    s.fields.iter().map(|f| f.wire.as_str()).collect()
}

/// `ty` declares the object key `key`: the runtime's `Shape::declares`, its
/// own function asked of the model's members.
pub fn declares(rev: &Revision, ty: &Type, key: &str, depth: usize) -> bool {
    if depth > ALIAS_DEPTH {
        return false;
    }
    match rev.canonical(ty) {
        Type::Nullable(t) => declares(rev, t, key, depth + 1),
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Struct(s)) => shape::declares(&wires(s), key),
            Some(ItemKind::Union(u)) => u.variants.iter().any(|v| declares(rev, &v.ty, key, depth + 1)),
            _ => false,
        },
        _ => false,
    }
}

/// How many of `keys` `ty` requires and whether it finds all it requires: the
/// runtime's `Shape::requirement`, its own functions (a struct's, a union's)
/// asked of the model's members.
pub fn requirement(rev: &Revision, ty: &Type, keys: &[&str], depth: usize) -> (usize, bool) {
    if depth > ALIAS_DEPTH {
        return (0, true);
    }
    match rev.canonical(ty) {
        Type::Nullable(t) => requirement(rev, t, keys, depth + 1),
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Struct(s)) => {
                let required: Vec<bool> = s.fields.iter().map(|f| f.must_be_present()).collect();
                shape::requirement(&wires(s), &required, keys)
            }
            Some(ItemKind::Union(u)) => shape::union_requirement(
                u.variants.iter().map(|v| (kinds(rev, &v.ty, depth + 1), requirement(rev, &v.ty, keys, depth + 1))),
            ),
            _ => (0, true),
        },
        _ => (0, true),
    }
}
