//! Example JSON values built from the model: for each type, a value with only the
//! required members and one with every member. Tests use them to check that every
//! member of every union is chosen for its own input, and the diff and
//! cross-validation tools use them as seeds.

use serde_json::{Map, Value, json};

use crate::model::{Docs, ItemKind, LiteralValue, Revision, Type, Union};

/// How much of a type a sample fills in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Required members only.
    Required,
    /// Every member, optional ones included.
    All,
}

const MAX_DEPTH: usize = 8;

/// A value of `ty` in `rev`: the first member of every union and the first value
/// of every enum on the way down.
pub fn sample(rev: &Revision, ty: &Type, fill: Fill) -> Value {
    sample_turn(rev, ty, fill, 0)
}

/// A value of `ty` in `rev`, turn `turn`: below the top, each union takes its
/// `(turn + depth)`-th member and each enum its `(turn + depth)`-th value, so
/// other turns reach other members and values (turn 0 is [`sample`]).
pub fn sample_turn(rev: &Revision, ty: &Type, fill: Fill, turn: usize) -> Value {
    sample_at(rev, ty, fill, 0, turn)
}

fn nth(turn: usize, depth: usize, len: usize) -> usize {
    if turn == 0 || len == 0 { 0 } else { (turn + depth) % len }
}

fn sample_at(rev: &Revision, ty: &Type, fill: Fill, depth: usize, turn: usize) -> Value {
    match ty {
        Type::String => json!("text"),
        Type::Integer => json!(7),
        Type::Number => json!(0.5),
        Type::Boolean => json!(true),
        Type::Json => json!({}),
        // Deep down, containers are empty and nullables null, so that a type that
        // holds itself through them ends.
        Type::Array(_) | Type::Map(_) | Type::Nullable(_) if depth >= MAX_DEPTH => match ty {
            Type::Array(_) => json!([]),
            Type::Map(_) => json!({}),
            _ => Value::Null,
        },
        Type::Array(t) => Value::Array(vec![sample_at(rev, t, fill, depth + 1, turn)]),
        Type::Map(t) => {
            let mut m = Map::new();
            m.insert("key".into(), sample_at(rev, t, fill, depth + 1, turn));
            Value::Object(m)
        }
        Type::Nullable(t) => sample_at(rev, t, fill, depth, turn),
        Type::Literal(l) => literal(&l.value),
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Struct(_)) => struct_at(rev, n, fill, depth, turn),
            // Deep down, the member that asks least of its own (so that a union
            // that holds itself through a required member ends); past any depth
            // a schema needs, nothing.
            Some(ItemKind::Union(_)) if depth > 4 * MAX_DEPTH => Value::Null,
            Some(ItemKind::Union(u)) => {
                let i = if depth >= MAX_DEPTH {
                    (0..u.variants.len()).min_by_key(|&i| required_members(rev, &u.variants[i].ty)).unwrap_or(0)
                } else {
                    nth(turn, depth, u.variants.len())
                };
                u.variants.get(i).map(|v| sample_at(rev, &v.ty, fill, depth + 1, turn)).unwrap_or(Value::Null)
            }
            Some(ItemKind::Enum(e)) => {
                e.values.get(nth(turn, depth, e.values.len())).map(|v| json!(v.value)).unwrap_or(json!("other"))
            }
            Some(ItemKind::Alias(t)) => sample_at(rev, t, fill, depth + 1, turn),
            Some(ItemKind::Const(l)) => literal(&l.value),
            None => Value::Null,
        },
    }
}

/// How many members a value of `ty` must have: a struct's required members.
fn required_members(rev: &Revision, ty: &Type) -> usize {
    match ty {
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Struct(s)) => s.fields.iter().filter(|f| f.is_required()).count(),
            _ => 0,
        },
        _ => 0,
    }
}

/// A value of the struct `name`, or `Null` when `name` is not a struct.
pub fn sample_struct(rev: &Revision, name: &str, fill: Fill, depth: usize) -> Value {
    struct_at(rev, name, fill, depth, 0)
}

fn struct_at(rev: &Revision, name: &str, fill: Fill, depth: usize, turn: usize) -> Value {
    let Some(ItemKind::Struct(s)) = rev.item(name).map(|i| &i.kind) else { return Value::Null };
    let mut m = Map::new();
    for f in &s.fields {
        if f.is_required() || (fill == Fill::All && depth < MAX_DEPTH) {
            let value = match (&f.ty, format_sample(&f.docs)) {
                (Type::String, Some(formatted)) => formatted,
                _ => sample_at(rev, &f.ty, fill, depth + 1, turn),
            };
            m.insert(f.wire.clone(), value);
        }
    }
    Value::Object(m)
}

/// A string in the format a member's `@format` tag asks for.
fn format_sample(docs: &Docs) -> Option<Value> {
    let (_, format) = docs.constraints.iter().find(|(tag, _)| tag == "format")?;
    Some(json!(match format.as_str() {
        "uri" | "uri-reference" | "iri" => "https://example.com/a",
        "date-time" => "2025-01-01T00:00:00Z",
        "date" => "2025-01-01",
        "byte" => "aGVsbG8=",
        "email" => "someone@example.com",
        _ => "text",
    }))
}

fn literal(v: &LiteralValue) -> Value {
    match v {
        LiteralValue::Str(s) => json!(s),
        LiteralValue::Int(i) => json!(i),
        LiteralValue::Float(f) => json!(f),
        LiteralValue::Bool(b) => json!(b),
    }
}

/// An input made for member `i` of `u`: its sample, with the selector's value
/// for it when the union has one.
pub fn member_sample(rev: &Revision, u: &Union, i: usize, fill: Fill) -> Value {
    member_sample_turn(rev, u, i, fill, 0)
}

/// [`member_sample`] with the member's own sample made at `turn` (see
/// [`sample_turn`]).
pub fn member_sample_turn(rev: &Revision, u: &Union, i: usize, fill: Fill, turn: usize) -> Value {
    let mut input = crate::sample::sample_turn(rev, &u.variants[i].ty, fill, turn);
    if let (Some(sel), Value::Object(m)) = (u.selector(), &mut input) {
        if let Some((value, _)) = sel.tags.iter().find(|(_, k)| *k == i) {
            m.insert(sel.field.clone(), Value::String(value.clone()));
        } else if sel.other == Some(i) {
            m.insert(sel.field.clone(), Value::String(UNLISTED_SAMPLE.into()));
        } else if m.get(&sel.field).and_then(Value::as_str).is_some_and(|v| sel.tags.iter().any(|(t, _)| t == v)) {
            // A value that picks another member: this member's input takes the
            // field's default instead (`"complete"`), or goes without it.
            let default = match rev.canonical(&u.variants[i].ty) {
                Type::Named(n) => match rev.item(n).map(|it| &it.kind) {
                    Some(ItemKind::Struct(st)) => {
                        st.field(&sel.field).and_then(|f| f.role.default()).map(|l| l.value.to_json())
                    }
                    _ => None,
                },
                _ => None,
            };
            match default.and_then(|d| serde_json::from_str::<Value>(&d).ok()) {
                Some(d) => {
                    m.insert(sel.field.clone(), d);
                }
                None => {
                    m.remove(&sel.field);
                }
            }
        }
    }
    input
}

/// A selector value no enum of the schema lists, for the catch-all member's samples.
pub const UNLISTED_SAMPLE: &str = "com.example/unlisted";
