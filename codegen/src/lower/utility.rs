//! TypeScript's type operators and utility types, lowered: `keyof` an interface,
//! `T["member"]` and `T[number]`, the object utilities (`Omit`, `Pick`,
//! `Partial`, `Required`, `Readonly`: see `base_shape`), and bounded or branded
//! primitives.

use super::{Lowerer, number_literal};
use crate::diag::Span;
use crate::model::*;
use crate::syntax::{Member, TypeExpr, TypeKind};

impl Lowerer<'_> {
    /// `keyof T` for an object type `T`: the union of its members' names.
    pub(super) fn key_union(&mut self, target: &TypeExpr, span: Span) -> Option<Vec<TypeExpr>> {
        let shape = match &target.kind {
            TypeKind::Ref { name, args } if args.is_empty() && self.decls.contains_key(name) => self.object_of(name),
            _ => None,
        };
        match shape {
            Some(shape) if !shape.fields.is_empty() => {
                Some(shape.fields.iter().map(|f| TypeExpr { kind: TypeKind::StrLit(f.wire.clone()), span }).collect())
            }
            _ => {
                self.error_at(
                    span,
                    "`keyof` of something other than a declared object type with members",
                    "`keyof Interface` is read as the union of its members' names; write the union of string literals",
                );
                None
            }
        }
    }

    /// `T["key"]`: the type of a member of the object type `T`; `T[number]`: the
    /// element type of the array type `T`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn indexed(
        &mut self,
        object: &TypeExpr,
        index: &TypeExpr,
        span: Span,
        parent: &str,
        field: &str,
        role: InlineRole,
        docs: &Docs,
    ) -> Type {
        match (&object.kind, &index.kind) {
            (TypeKind::Ref { name, args }, TypeKind::StrLit(key))
                if args.is_empty() && self.decls.contains_key(name) =>
            {
                let found = self.object_of(name).and_then(|s| s.fields.into_iter().find(|f| &f.wire == key));
                match found {
                    Some(f) => f.ty,
                    None => {
                        self.error_at(
                            index.span,
                            &format!("`{name}[\"{key}\"]`: `{name}` has no member `{key}`"),
                            "name a member the type has",
                        );
                        Type::Json
                    }
                }
            }
            (_, TypeKind::Number) => match self.lower_type(object, parent, field, role, docs) {
                Type::Array(t) => *t,
                other => match &other {
                    Type::Named(n) => match self.items.get(n).map(|i| &i.kind) {
                        Some(ItemKind::Alias(Type::Array(t))) => (**t).clone(),
                        _ => {
                            self.error_at(span, "`T[number]` of a type that is not an array", "name the element type");
                            Type::Json
                        }
                    },
                    _ => {
                        self.error_at(span, "`T[number]` of a type that is not an array", "name the element type");
                        Type::Json
                    }
                },
            },
            _ => {
                self.error_at(
                    span,
                    "an indexed access type other than `Type[\"member\"]` or `Array[number]`",
                    "name the member's type",
                );
                Type::Json
            }
        }
    }
}

/// Utility types whose result is an object type (a declared alias of one is a struct).
pub(super) const OBJECT_UTILITIES: &[&str] = &["Omit", "Pick", "Partial", "Required", "Readonly"];

/// A bounded or branded primitive, `number & { readonly minimum: 0 }` or
/// `string & { __brand: "UserId" }`: one primitive and object literals whose
/// members are all literal types. The primitive, and its members as
/// `(name, value)` bounds for the docs (as `@minimum` tags are).
pub(super) fn bounded_primitive(parts: &[TypeExpr]) -> Option<(&TypeExpr, Vec<(String, String)>)> {
    let mut primitive = None;
    let mut bounds = Vec::new();
    for p in parts {
        match &p.kind {
            TypeKind::String | TypeKind::Number | TypeKind::Boolean if primitive.is_none() => primitive = Some(p),
            // `string & {}`: TypeScript's idiom for "any string" beside literals.
            TypeKind::Literal(members) if members.is_empty() => {}
            TypeKind::Literal(members) => {
                for m in members {
                    let Member::Property { name, ty, .. } = m else { return None };
                    let value = match &ty.kind {
                        TypeKind::StrLit(v) => serde_json::to_string(v).unwrap_or_default(),
                        TypeKind::NumLit(n) => number_literal(*n).to_json().to_string(),
                        TypeKind::BoolLit(b) => b.to_string(),
                        _ => return None,
                    };
                    bounds.push((name.clone(), value));
                }
            }
            _ => return None,
        }
    }
    Some((primitive?, bounds))
}

/// `Partial<T>` makes every member optional; a member fixed by a literal becomes
/// an optional member of the literal's primitive type, the value in its docs.
pub(super) fn make_optional(f: &mut Field) {
    if let Role::Fixed(l) = &f.role {
        let value = l.value.to_json().to_string();
        f.ty = match &l.value {
            LiteralValue::Str(_) => Type::String,
            LiteralValue::Int(_) => Type::Integer,
            LiteralValue::Float(_) => Type::Number,
            LiteralValue::Bool(_) => Type::Boolean,
        };
        f.docs.constraints.push(("const".into(), value));
    }
    f.role = Role::Optional;
}
