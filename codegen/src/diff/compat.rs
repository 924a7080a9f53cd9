//! Wire compatibility: does a reader built on one revision accept every value a
//! writer built on another can send? Judged on the generated types' rules:
//! unknown members are kept (never an error), a missing required member is an
//! error, a closed enum rejects values it does not list, an open one keeps them.
//! Recursive types are judged coinductively (a pair under consideration is
//! assumed to fit).

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::model::{Field, ItemKind, LiteralValue, Revision, Type, Union};

pub struct Compat<'a> {
    pub reader: &'a Revision,
    pub writer: &'a Revision,
    assumed: HashSet<(String, String)>,
}

impl<'a> Compat<'a> {
    pub fn new(reader: &'a Revision, writer: &'a Revision) -> Self {
        Compat { reader, writer, assumed: HashSet::new() }
    }

    /// Every value of `w` (in the writer's revision) is accepted as `r` (in the reader's).
    pub fn accepts(&mut self, r: &Type, w: &Type) -> bool {
        let (r, w) = (self.unalias(r, true), self.unalias(w, false));
        match (&r, &w) {
            (Type::Json, _) => true,
            (Type::Nullable(a), Type::Nullable(b)) => self.accepts(a, b),
            (Type::Nullable(a), _) => self.accepts(a, &w),
            (_, Type::Nullable(_)) => false,
            (Type::String, Type::String) => true,
            (Type::String, Type::Literal(l)) => matches!(l.value, LiteralValue::Str(_)),
            (Type::String, Type::Named(n)) => matches!(self.writer.item(n).map(|i| &i.kind), Some(ItemKind::Enum(_))),
            (Type::Integer, Type::Integer)
            | (Type::Number, Type::Integer | Type::Number)
            | (Type::Boolean, Type::Boolean) => true,
            (Type::Integer, Type::Literal(l)) => matches!(l.value, LiteralValue::Int(_)),
            (Type::Number, Type::Literal(l)) => matches!(l.value, LiteralValue::Int(_) | LiteralValue::Float(_)),
            (Type::Boolean, Type::Literal(l)) => matches!(l.value, LiteralValue::Bool(_)),
            (Type::Literal(a), Type::Literal(b)) => a.value == b.value,
            (Type::Array(a), Type::Array(b)) | (Type::Map(a), Type::Map(b)) => self.accepts(a, b),
            (Type::Named(a), Type::Named(b)) => self.named(a, b),
            (Type::Named(a), _) => self.named_accepts_plain(a, &w),
            (_, Type::Named(b)) => self.plain_accepts_named(&r, b),
            _ => false,
        }
    }

    /// A reader's field accepts what a writer's field sends (either may be absent).
    pub fn field_accepts(&mut self, r: Option<&Field>, w: Option<&Field>) -> bool {
        match (r, w) {
            (Some(r), Some(w)) => (w.is_required() || !r.must_be_present()) && self.accepts(&r.ty, &w.ty),
            (Some(r), None) => !r.must_be_present(),
            (None, _) => true,
        }
    }

    /// Through aliases, and a const named as a type to its literal.
    fn unalias(&self, t: &Type, reader: bool) -> Type {
        let rev = if reader { self.reader } else { self.writer };
        match rev.canonical(t) {
            Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
                Some(ItemKind::Const(l)) => Type::Literal(l.clone()),
                _ => Type::Named(n.clone()),
            },
            other => other.clone(),
        }
    }

    fn named(&mut self, a: &str, b: &str) -> bool {
        let key = (a.to_string(), b.to_string());
        if !self.assumed.insert(key) {
            return true;
        }
        let (Some(ri), Some(wi)) = (self.reader.item(a), self.writer.item(b)) else { return false };
        match (&ri.kind, &wi.kind) {
            (ItemKind::Struct(rs), ItemKind::Struct(ws)) => {
                let (rs, ws) = (rs.clone(), ws.clone());
                rs.fields.iter().all(|rf| self.field_accepts(Some(rf), ws.field(&rf.wire)))
            }
            (ItemKind::Enum(re), ItemKind::Enum(we)) => {
                re.open || (!we.open && we.values.iter().all(|v| re.values.iter().any(|r| r.value == v.value)))
            }
            (ItemKind::Union(ru), ItemKind::Union(wu)) => {
                let (ru, wu) = (ru.clone(), wu.clone());
                wu.variants.iter().all(|wv| self.union_accepts(&ru, &wv.ty))
            }
            (ItemKind::Union(ru), _) => {
                let ru = ru.clone();
                self.union_accepts(&ru, &Type::Named(b.to_string()))
            }
            (_, ItemKind::Union(wu)) => {
                let wu = wu.clone();
                wu.variants.iter().all(|wv| self.accepts(&Type::Named(a.to_string()), &wv.ty))
            }
            _ => false,
        }
    }

    /// A reader's union takes every value of `w`: some member the union's rule
    /// would try for it takes it. The rule goes by the input's keys (and a
    /// selector's value), so a member that would take `w` but that the rule
    /// never tries for `w`'s keys does not count: an `EmptyResult`, which
    /// takes any object, is not tried for one whose `content` another member
    /// declares. A struct's values have its required members and maybe its
    /// optional ones: the members tried for both key sets must take it.
    fn union_accepts(&mut self, ru: &Union, w: &Type) -> bool {
        let w = self.unalias(w, false);
        let ws = match &w {
            Type::Named(n) => match self.writer.item(n).map(|i| &i.kind) {
                Some(ItemKind::Struct(s)) => Some(s.clone()),
                _ => None,
            },
            _ => None,
        };
        if let Some(field) = ru.tag_field() {
            // Read by the tag's value: the member it names, else the fallback; a
            // writer whose tag is not fixed may send any value, so every member
            // and a fallback must take it.
            let fixed = ws.as_ref().and_then(|s| s.field(field)).and_then(|f| f.role.fixed()).cloned();
            return match fixed {
                Some(tag) => {
                    let k = ru.variants.iter().position(|v| v.tags.iter().any(|t| t.value == tag.value));
                    k.or(ru.fallback()).is_some_and(|k| self.accepts(&ru.variants[k].ty, &w))
                }
                None => ru.fallback().is_some() && ru.variants.iter().all(|rv| self.accepts(&rv.ty, &w)),
            };
        }
        let Some(ws) = ws else {
            return ru.variants.iter().any(|rv| self.accepts(&rv.ty, &w));
        };
        let value_of = |f: &Field| match f.role.fixed().or(f.role.default()).map(|l| &l.value) {
            Some(LiteralValue::Str(s)) => Value::String(s.clone()),
            _ => Value::Null,
        };
        let fewest: Map<String, Value> =
            ws.fields.iter().filter(|f| f.is_required()).map(|f| (f.wire.clone(), value_of(f))).collect();
        let most: Map<String, Value> = ws.fields.iter().map(|f| (f.wire.clone(), value_of(f))).collect();
        [fewest, most].into_iter().all(|keys| {
            let tried = crate::rule::candidates(self.reader, ru, &Value::Object(keys));
            tried.iter().any(|&i| self.accepts(&ru.variants[i].ty, &w))
        })
    }

    fn named_accepts_plain(&mut self, a: &str, w: &Type) -> bool {
        match self.reader.item(a).map(|i| i.kind.clone()) {
            // An object type reads a map when it requires nothing and each of its
            // members (and its index signature) takes the map's values.
            Some(ItemKind::Struct(s)) => match w {
                Type::Map(v) => {
                    !s.fields.iter().any(|f| f.is_required())
                        && s.fields.iter().all(|f| self.accepts(&f.ty, v))
                        && s.index.as_ref().is_none_or(|ix| self.accepts(ix, v))
                }
                _ => false,
            },
            Some(ItemKind::Enum(e)) => match w {
                Type::Literal(l) => match &l.value {
                    LiteralValue::Str(s) => e.open || e.values.iter().any(|v| &v.value == s),
                    _ => false,
                },
                Type::String => e.open,
                _ => false,
            },
            Some(ItemKind::Union(u)) => self.union_accepts(&u, w),
            _ => false,
        }
    }

    fn plain_accepts_named(&mut self, r: &Type, b: &str) -> bool {
        match self.writer.item(b).map(|i| i.kind.clone()) {
            // A map reads an object when it takes every member's value.
            Some(ItemKind::Struct(s)) => match r {
                Type::Map(v) => {
                    s.fields.iter().all(|f| self.accepts(v, &f.ty))
                        && s.index.as_ref().is_none_or(|ix| self.accepts(v, ix))
                }
                _ => false,
            },
            Some(ItemKind::Union(u)) => u.variants.iter().all(|v| self.accepts(r, &v.ty)),
            _ => false,
        }
    }
}
