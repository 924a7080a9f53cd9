//! The union rule, in one place: how the model decides what a union is
//! (a discriminator, a fallback member for unknown tags, a selector field), how
//! a JSON value is matched against it ([`reads`], [`choose()`]) and how the rule is
//! told to a reader of the generated docs ([`describe`]).
//!
//! The generated code implements the same rule in the runtime (its `choose`
//! module, which this crate compiles too, and the `union!` macro's readers);
//! `tests/unions.rs` holds the two together on inputs made for every member of
//! every union. Aliases are looked through by [`Revision::canonical`], the one
//! resolver, before each walker looks at a type.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::{
    ALIAS_DEPTH, Item, ItemKind, Literal, LiteralValue, Revision, Selector, Type, Union, UnionRule, Variant, canonical,
    struct_of,
};
use crate::rust::NumberWrap;
use crate::sample::Fill;

/// Decides every union of a revision being lowered: first a discriminator where
/// every member fixes one field to distinct values, then the fallback member of
/// discriminated unions whose common base leaves the field open, then a selector
/// field for unions decided by shape.
pub fn decide_unions(items: &mut BTreeMap<String, Item>) {
    message_aliases_as_unions(items);
    classify_unions(items);
    add_fallbacks(items);
    add_selectors(items);
    mark_told_by_kind(items);
}

/// A union decided by shape, without a selector, whose every member is a JSON
/// scalar of a kind no other member has (`string | integer`): the rule's first
/// step alone decides, so it is read straight from serde's first look at the
/// value, with nothing captured (the runtime's `union! { .. by kind }`).
fn mark_told_by_kind(items: &mut BTreeMap<String, Item>) {
    let names: Vec<String> = items.keys().cloned().collect();
    for name in names {
        let Some(ItemKind::Union(u)) = items.get(&name).map(|i| &i.kind) else { continue };
        if !matches!(u.rule, UnionRule::Shape) {
            continue;
        }
        let mut seen = Vec::new();
        let by_kind = u.variants.iter().all(|v| {
            let kind = match canonical(items, &v.ty) {
                Type::String => "string",
                Type::Integer | Type::Number => "number",
                Type::Boolean => "boolean",
                _ => return false,
            };
            !seen.contains(&kind) && {
                seen.push(kind);
                true
            }
        });
        if by_kind && let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(&name) {
            u.rule = UnionRule::Kind;
        }
    }
}

/// A message union of one member is written in TypeScript as an alias (2026-07-28:
/// `type ClientNotification = CancelledNotification`). It is lowered as the union
/// it stands for, so that, like every other message union, it reads a method it
/// does not know as `Other` instead of failing (and stays a union from one
/// revision to the next). A message is a struct that fixes its `method`.
fn message_aliases_as_unions(items: &mut BTreeMap<String, Item>) {
    let names: Vec<String> = items.keys().cloned().collect();
    for name in names {
        let Some(ItemKind::Alias(Type::Named(target))) = items.get(&name).map(|i| &i.kind) else { continue };
        let is_message = items
            .get(target)
            .is_some_and(|i| matches!(&i.kind, ItemKind::Struct(s) if s.fixed().any(|(f, _)| f.wire == "method")));
        if !is_message {
            continue;
        }
        let member = Variant { name: target.clone(), ty: Type::Named(target.clone()), tags: Vec::new(), boxed: false };
        if let Some(item) = items.get_mut(&name) {
            item.kind = ItemKind::Union(Union { variants: vec![member], rule: UnionRule::default() });
        }
    }
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
            u.rule = UnionRule::Tagged { field: wire, fallback: None };
            for (v, t) in u.variants.iter_mut().zip(tags) {
                v.tags = t;
            }
        }
    }
}

/// The name of the member a union keeps an input no member takes in: `Other`,
/// or `Unknown` when a member of the schema's is called `Other` already.
fn fallback_name(u: &Union) -> &'static str {
    if u.variants.iter().any(|v| v.name == "Other") { "Unknown" } else { "Other" }
}

/// A discriminated union whose members all extend (directly or not) one base that leaves the
/// discriminator open (`JSONRPCRequest`'s `method: string`) reads any other
/// value as that base: the variant `Other`, so unknown and extension methods
/// pass through.
fn add_fallbacks(items: &mut BTreeMap<String, Item>) {
    let names: Vec<String> = items.keys().cloned().collect();
    for name in names {
        let Some(ItemKind::Union(u)) = items.get(&name).map(|i| &i.kind) else { continue };
        let Some(field) = u.tag_field().map(str::to_string) else { continue };
        let mut common: Option<Vec<String>> = None;
        for v in &u.variants {
            let Type::Named(n) = &v.ty else { continue };
            let bases = ancestors(items, n);
            common = Some(match common {
                None => bases,
                Some(c) => c.into_iter().filter(|b| bases.contains(b)).collect(),
            });
        }
        // Open: any string (`method: string`), or an open enum; a closed enum
        // (`status: TaskStatus`) reads no other value, so a fallback would read none.
        let open = |t: &Type| match canonical(items, t) {
            Type::Literal(_) => false,
            Type::Named(n) => !matches!(items.get(n).map(|i| &i.kind), Some(ItemKind::Enum(e)) if !e.open),
            _ => true,
        };
        let open_base = common
            .unwrap_or_default()
            .into_iter()
            .find(|b| struct_of(items, b).and_then(|s| s.field(&field)).is_some_and(|f| open(&f.ty)));
        let Some(base) = open_base else { continue };
        if let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(&name) {
            let vname = fallback_name(u);
            u.variants.push(Variant { name: vname.into(), ty: Type::Named(base), tags: Vec::new(), boxed: false });
            let at = u.variants.len() - 1;
            if let UnionRule::Tagged { fallback, .. } = &mut u.rule {
                *fallback = Some(at);
            }
        }
    }
}

/// A union decided by shape whose members share a field typed by one string
/// enum, whose docs tie a value to one of the members (`ResultType`:
/// "input_required - ... contains an {@link InputRequiredResult} object"), is
/// read by that field first: a value tied to a member reads that member; a value
/// the enum does not list (it is open) reads the member `Other`, added here, typed
/// by the members' common base, so an extension's result is kept whole and never
/// taken for one of the others; no value, or another listed value (`"complete"`),
/// leaves the shape rule to choose among the members no value is tied to. This is
/// how the spec says a result is read ("allows the client to determine how to
/// parse the result object").
fn add_selectors(items: &mut BTreeMap<String, Item>) {
    let names: Vec<String> = items.keys().cloned().collect();
    for name in names {
        let Some(ItemKind::Union(u)) = items.get(&name).map(|i| &i.kind) else { continue };
        if u.tag_field().is_some() || u.variants.len() < 2 {
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
                let base =
                    e.open.then(|| common_base(items, structs.iter().map(|(n, _)| n.as_str()), &f.wire)).flatten();
                chosen =
                    Some((Selector { field: f.wire.clone(), values_of: enum_name.clone(), tags, other: None }, base));
                break;
            }
        }
        if let Some((mut sel, base)) = chosen
            && let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(&name)
        {
            if let Some(base) = base {
                let vname = fallback_name(u);
                u.variants.push(Variant { name: vname.into(), ty: Type::Named(base), tags: Vec::new(), boxed: false });
                sel.other = Some(u.variants.len() - 1);
            }
            u.rule = UnionRule::Selected(sel);
        }
    }
}

/// The nearest struct that every one of `members` is or extends and that has
/// `field`: the type a value of any of them can be read as whole.
fn common_base<'a>(
    items: &BTreeMap<String, Item>,
    members: impl Iterator<Item = &'a str>,
    field: &str,
) -> Option<String> {
    let mut common: Option<Vec<String>> = None;
    for m in members {
        let own = canonical_name(items, m)?;
        let mut lineage = vec![own.clone()];
        lineage.extend(ancestors(items, &own));
        common = Some(match common {
            None => lineage,
            Some(c) => c.into_iter().filter(|b| lineage.contains(b)).collect(),
        });
    }
    common?.into_iter().find(|b| struct_of(items, b).is_some_and(|s| s.field(field).is_some()))
}

/// The name of the item `name` stands for, through aliases.
fn canonical_name(items: &BTreeMap<String, Item>, name: &str) -> Option<String> {
    match crate::model::canonical(items, &Type::Named(name.to_string())) {
        Type::Named(n) => Some(n.clone()),
        _ => None,
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
            (!value.contains(' ') && !target.is_empty())
                .then(|| (value.trim_matches('`').trim_matches('"').to_string(), target))
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

/// `ty` declares the object key `key` (the runtime's `Shape::declares`).
pub fn declares(rev: &Revision, ty: &Type, key: &str, depth: usize) -> bool {
    if depth > ALIAS_DEPTH {
        return false;
    }
    match rev.canonical(ty) {
        Type::Nullable(t) => declares(rev, t, key, depth + 1),
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Struct(s)) => s.field(key).is_some(),
            Some(ItemKind::Union(u)) => u.variants.iter().any(|v| declares(rev, &v.ty, key, depth + 1)),
            _ => false,
        },
        _ => false,
    }
}

/// How many of `keys` `ty` requires and whether it finds all it requires (the
/// runtime's `Shape::requirement`).
pub fn requirement(rev: &Revision, ty: &Type, keys: &[&str], depth: usize) -> (usize, bool) {
    if depth > ALIAS_DEPTH {
        return (0, true);
    }
    match rev.canonical(ty) {
        Type::Nullable(t) => requirement(rev, t, keys, depth + 1),
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Struct(s)) => {
                let required: Vec<&str> =
                    s.fields.iter().filter(|f| f.must_be_present()).map(|f| f.wire.as_str()).collect();
                let present = required.iter().filter(|r| keys.contains(r)).count();
                (present, present == required.len())
            }
            Some(ItemKind::Union(u)) => {
                let mut best = (0, false);
                for v in u.variants.iter().filter(|v| kinds(rev, &v.ty, depth + 1) & choose::OBJECT != 0) {
                    let r = requirement(rev, &v.ty, keys, depth + 1);
                    if (r.1, r.0) > (best.1, best.0) {
                        best = r;
                    }
                }
                best
            }
            _ => (0, true),
        },
        _ => (0, true),
    }
}

/// An input made for member `i` of `u`: its sample, with the selector's value
/// for it when the union has one.
pub fn member_sample(rev: &Revision, u: &Union, i: usize, fill: Fill) -> Value {
    member_sample_turn(rev, u, i, fill, 0)
}

/// [`member_sample`] with the member's own sample made at `turn` (see
/// [`sample_turn`](crate::sample::sample_turn)).
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

/// The union's rule in words, for its docs: one paragraph per line. The rules
/// themselves are told once, in the crate docs' "How unions are read"; each
/// member's docs give the value that selects it.
pub fn describe(u: &Union) -> Vec<String> {
    const SEE: &str = "see [how unions are read](crate#how-unions-are-read)";
    let name = |k: usize| u.variants[k].name.as_str();
    let line = match &u.rule {
        UnionRule::Tagged { field, fallback: Some(k) } => format!(
            "Reading: by the value of `{field}`; any other value reads as `{}`, so messages this revision does not know pass through ({SEE}).",
            name(*k)
        ),
        UnionRule::Tagged { field, fallback: None } => {
            format!(
                "Reading: by the value of `{field}`; an unknown value is an error that lists the known ones ({SEE})."
            )
        }
        UnionRule::Selected(sel) => {
            let other = match sel.other {
                Some(k) => format!(" (a value `{}` does not list reads `{}`)", sel.values_of, name(k)),
                None => String::new(),
            };
            format!(
                "Reading: by `{}` first{other}, then by shape among the members no value selects ({SEE}).",
                sel.field
            )
        }
        UnionRule::Shape => {
            format!("Reading: by shape, the member whose keys the input has, most specific first ({SEE}).")
        }
        UnionRule::Kind => format!("Reading: by the input's JSON kind alone ({SEE})."),
    };
    vec![line]
}
