//! Object types: a declaration's members, its bases (`extends`, intersections,
//! `Omit`, `Pick`) merged into one shape, before it becomes a struct.

use super::*;

/// The fields and index signature an object type contributes to those that extend it.
#[derive(Clone, Debug, Default)]
pub(super) struct ObjectShape {
    pub(super) fields: Vec<Field>,
    pub(super) index: Option<Type>,
    pub(super) bases: Vec<String>,
}

impl ObjectShape {
    pub(super) fn into_struct(self) -> Struct {
        let extra = extra_field_name(&self.fields);
        Struct { bases: self.bases, fields: self.fields, index: self.index, extra }
    }

    /// Adds or replaces a field: a redeclared field keeps its place and takes the
    /// new type (TypeScript only lets a subtype narrow it).
    pub(super) fn put(&mut self, f: Field) {
        match self.fields.iter_mut().find(|g| g.wire == f.wire) {
            Some(g) => {
                let docs =
                    if f.docs.text.is_empty() && f.docs.deprecated.is_none() { g.docs.clone() } else { f.docs.clone() };
                *g = Field { docs, ..f };
            }
            None => self.fields.push(f),
        }
    }
    pub(super) fn merge(&mut self, other: ObjectShape) {
        for f in other.fields {
            self.put(f);
        }
        if other.index.is_some() {
            self.index = other.index;
        }
        for b in other.bases {
            if !self.bases.contains(&b) {
                self.bases.push(b);
            }
        }
    }
}

impl Lowerer<'_> {
    /// The object shape of a declared interface or object-like alias, resolved once.
    pub(super) fn object_of(&mut self, name: &str) -> Option<ObjectShape> {
        if let Some(done) = self.objects.get(name) {
            return done.clone();
        }
        if !self.in_progress.insert(name.to_string()) {
            let span = self.decls.get(name).map(|d| d.span).unwrap_or_default();
            self.diags.push(
                Diagnostic::error(format!("`{name}` extends itself"))
                    .at(self.path, span)
                    .label("the chain of `extends` comes back here"),
            );
            return None;
        }
        let decl = self.decls.get(name).cloned();
        // An extension's base from its core revision: the core's struct, as lowered there.
        if decl.is_none()
            && let Some(s) = self.core.and_then(|c| c.struct_of(name))
        {
            self.in_progress.remove(name);
            let shape = ObjectShape { fields: s.fields.clone(), index: s.index.clone(), bases: s.bases.clone() };
            self.objects.insert(name.to_string(), Some(shape.clone()));
            return Some(shape);
        }
        let shape = match decl.as_ref().map(|d| &d.kind) {
            Some(DeclKind::Interface { extends, members }) => {
                let mut shape = ObjectShape::default();
                for base in extends {
                    if let Some(b) = self.base_shape(base, true) {
                        shape.merge(b);
                    }
                }
                let own = self.members_shape(members, name);
                shape.merge(own);
                Some(shape)
            }
            Some(DeclKind::Alias(ty)) => self.expr_shape(ty, name),
            _ => None,
        };
        self.in_progress.remove(name);
        self.objects.insert(name.to_string(), shape.clone());
        shape
    }

    /// What the key type `K` of `Record<K, V>` makes of the record (inline, or
    /// through aliases of this file): the one decision every place that lowers
    /// a `Record` reads.
    pub(super) fn record_keys(&self, args: &[TypeExpr]) -> RecordKeys {
        let [key, _] = args else { return RecordKeys::Any };
        // A key that is no alias of this file (an imported name, say) is taken
        // as a string key, as before unions of literals were read.
        let Some(key) = self.through_aliases(key) else { return RecordKeys::Any };
        let (mut named, mut any) = (Vec::new(), false);
        if let Some(at) = self.collect_record_keys(key, &mut named, &mut any, true) {
            return RecordKeys::NotString(at);
        }
        if any || named.is_empty() { RecordKeys::Any } else { RecordKeys::Named(named) }
    }

    /// Walks a key type's union: literals into `named`, `string` or a template
    /// literal sets `any`; the first member that is not a string is returned.
    fn collect_record_keys(&self, t: &TypeExpr, named: &mut Vec<String>, any: &mut bool, top: bool) -> Option<Span> {
        match &t.kind {
            TypeKind::StrLit(s) => named.push(s.clone()),
            TypeKind::String | TypeKind::Template(_) => *any = true,
            // `string & {}`: TypeScript's open string (it keeps the literals' completions).
            TypeKind::Intersection(parts) if parts.iter().any(|p| matches!(p.kind, TypeKind::String)) => *any = true,
            TypeKind::Never => {}
            TypeKind::Union(members) => {
                for m in members {
                    let m = self.through_aliases(m).unwrap_or(m);
                    if let Some(at) = self.collect_record_keys(m, named, any, false) {
                        return Some(at);
                    }
                }
            }
            // A name that is no alias, as the whole key, is read as a string key (above).
            TypeKind::Ref { .. } if top => *any = true,
            _ => return Some(t.span),
        }
        None
    }

    /// `t` with the aliases of this file it names looked through; `None` when
    /// it names something else (an interface, an imported name) or too deep.
    fn through_aliases<'t>(&'t self, t: &'t TypeExpr) -> Option<&'t TypeExpr> {
        let mut at = t;
        for _ in 0..crate::model::ALIAS_DEPTH {
            match &at.kind {
                TypeKind::Ref { name, args } if args.is_empty() => match self.decls.get(name).map(|d| &d.kind) {
                    Some(DeclKind::Alias(t)) => at = t,
                    _ => return None,
                },
                _ => return Some(at),
            }
        }
        None
    }

    /// The shape a type contributes when used as a base or intersection part.
    pub(super) fn base_shape(&mut self, ty: &TypeExpr, record_base: bool) -> Option<ObjectShape> {
        match &ty.kind {
            TypeKind::Ref { name, args } if name == "Omit" => {
                let [target, keys] = args.as_slice() else {
                    self.error_at(
                        ty.span,
                        "`Omit` takes two type arguments",
                        "write `Omit<Type, \"key\" | \"other\">`",
                    );
                    return None;
                };
                let mut shape = self.base_shape(target, record_base)?;
                let mut omit = Vec::new();
                collect_string_literals(keys, &mut omit);
                if omit.is_empty() {
                    self.error_at(
                        keys.span,
                        "the keys of `Omit` must be string literals",
                        "write `\"key\" | \"other\"`",
                    );
                }
                shape.fields.retain(|f| !omit.contains(&f.wire));
                Some(shape)
            }
            TypeKind::Ref { name, args } if name == "Pick" => {
                let [target, keys] = args.as_slice() else {
                    self.error_at(
                        ty.span,
                        "`Pick` takes two type arguments",
                        "write `Pick<Type, \"key\" | \"other\">`",
                    );
                    return None;
                };
                let mut shape = self.base_shape(target, record_base)?;
                let mut pick = Vec::new();
                collect_string_literals(keys, &mut pick);
                if pick.is_empty() {
                    self.error_at(
                        keys.span,
                        "the keys of `Pick` must be string literals",
                        "write `\"key\" | \"other\"`",
                    );
                }
                for k in &pick {
                    if !shape.fields.iter().any(|f| &f.wire == k) {
                        self.error_at(
                            keys.span,
                            &format!("`Pick` names `{k}`, which the type has no member for"),
                            "name only members the type has",
                        );
                    }
                }
                shape.fields.retain(|f| pick.contains(&f.wire));
                Some(shape)
            }
            TypeKind::Ref { name, args } if matches!(name.as_str(), "Partial" | "Required" | "Readonly") => {
                let [target] = args.as_slice() else {
                    self.error_at(
                        ty.span,
                        &format!("`{name}` takes one type argument"),
                        &format!("write `{name}<Type>`"),
                    );
                    return None;
                };
                let mut shape = self.base_shape(target, record_base)?;
                for f in &mut shape.fields {
                    match name.as_str() {
                        "Partial" => make_optional(f),
                        "Required" if f.role == Role::Optional => f.role = Role::of(false, &f.ty, None),
                        _ => {}
                    }
                }
                Some(shape)
            }
            TypeKind::Ref { name, args }
                if name == "Record"
                    && let RecordKeys::Named(keys) = self.record_keys(args) =>
            {
                // `Record<"a" | "b", T>`: an object with those members, each required
                // (`Partial<Record<…>>`, or a `T | undefined` value, makes them optional).
                let members = keys
                    .into_iter()
                    .map(|key| crate::syntax::Member::Property {
                        name: key,
                        optional: false,
                        ty: args[1].clone(),
                        doc: None,
                        span: ty.span,
                    })
                    .collect::<Vec<_>>();
                Some(self.members_shape(&members, ""))
            }
            TypeKind::Ref { name, args } if name == "Record" => {
                let t = args
                    .get(1)
                    .map(|t| self.lower_type(t, "", "", InlineRole::Value, &Docs::default()))
                    .unwrap_or(Type::Json);
                Some(ObjectShape { index: Some(t), ..Default::default() })
            }
            TypeKind::Ref { name, args } if args.is_empty() => {
                if !self.decls.contains_key(name) && self.imported(name).is_none() {
                    self.undeclared(name, ty.span);
                    return None;
                }
                let name = &self.imports.get(name).cloned().unwrap_or_else(|| name.clone());
                match self.object_of(name) {
                    Some(mut s) => {
                        if record_base {
                            s.bases = vec![name.clone()];
                        } else {
                            s.bases.clear();
                        }
                        Some(s)
                    }
                    None => {
                        self.error_at(
                            ty.span,
                            &format!("`{name}` is not an object type and cannot be extended"),
                            "extend an interface or an object type alias",
                        );
                        None
                    }
                }
            }
            TypeKind::Ref { name, .. } => {
                self.error_at(
                    ty.span,
                    &format!("unsupported generic `{name}<...>` in a base type"),
                    "only `Omit`, `Pick`, `Partial`, `Required`, `Readonly` and `Record<string, T>` are understood",
                );
                None
            }
            TypeKind::Unsupported { .. } => None,
            _ => {
                self.error_at(ty.span, "a base type must be a named object type", "extend an interface");
                None
            }
        }
    }

    /// The shape of an object literal or intersection written in a type position.
    pub(super) fn expr_shape(&mut self, ty: &TypeExpr, parent: &str) -> Option<ObjectShape> {
        match &ty.kind {
            TypeKind::Literal(members) => Some(self.members_shape(members, parent)),
            TypeKind::Intersection(parts) => {
                let mut shape = ObjectShape::default();
                for p in parts {
                    let s = match &p.kind {
                        TypeKind::Literal(members) => Some(self.members_shape(members, parent)),
                        TypeKind::Intersection(_) => self.expr_shape(p, parent),
                        TypeKind::String
                        | TypeKind::Number
                        | TypeKind::Boolean
                        | TypeKind::Null
                        | TypeKind::StrLit(_)
                        | TypeKind::NumLit(_)
                        | TypeKind::BoolLit(_) => {
                            self.error_at(
                                p.span,
                                "an intersection of a primitive type with an object type whose members are not all literal types",
                                "a bounded or branded primitive is read when every other member is a literal (`number & { readonly minimum: 0 }`); otherwise use the primitive alone and put a bound in a JSDoc tag such as `@minimum 0`",
                            );
                            None
                        }
                        _ => self.base_shape(p, true),
                    };
                    if let Some(s) = s {
                        shape.merge(s);
                    }
                }
                Some(shape)
            }
            _ => self.base_shape(ty, false),
        }
    }

    pub(super) fn members_shape(&mut self, members: &[Member], parent: &str) -> ObjectShape {
        let mut shape = ObjectShape::default();
        for m in members {
            match m {
                // `b?: never`: the member may not be there; as for any member the
                // schema does not name, a peer's value is kept as unknown.
                Member::Property { ty, optional: true, .. } if matches!(ty.kind, TypeKind::Never) => {}
                Member::Property { name, optional, ty, doc, span } => {
                    let mut docs = self.docs(doc.as_ref());
                    let mut t = self.lower_type(ty, parent, name, InlineRole::Member, &docs);
                    docs.constraints.append(&mut self.bounds);
                    if let (true, Type::Literal(Literal { value: LiteralValue::Str(s), .. })) = (*optional, &t) {
                        // An optional member fixed by a literal (`mode?: "form"`) is
                        // checked when present: an enum of that one value.
                        let enum_name = self.inline_name(parent, name, InlineRole::Member, ty.span);
                        let kind = ItemKind::Enum(StringEnum {
                            values: vec![EnumValue { value: s.clone(), rust: pascal_case(s), deprecated: None }],
                            open: false,
                        });
                        t = self.add_inline(&enum_name, parent, name, InlineRole::Member, ty.span, kind);
                    }
                    let default = if *optional { None } else { default_of(&docs) };
                    let f = Field {
                        wire: name.clone(),
                        rust: snake_case(name),
                        role: Role::of(*optional, &t, default),
                        ty: t,
                        docs,
                        span: *span,
                        declared_in: parent.to_string(),
                        boxed: false,
                    };
                    shape.put(f);
                }
                // `[key: string]: never`: no other members (the struct keeps a peer's
                // anyway, as unknown ones).
                Member::Index { ty, .. } if matches!(ty.kind, TypeKind::Never) => {}
                Member::Index { ty, .. } => {
                    let t = self.lower_type(ty, parent, "", InlineRole::Value, &Docs::default());
                    // An index signature has no docs of its own to take bounds.
                    self.bounds.clear();
                    shape.index = Some(t);
                }
            }
        }
        shape
    }
}

/// What a `Record<K, V>` is, by its key type `K`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum RecordKeys {
    /// Any string is a key: `string`, a template literal (or `string & {}`), or
    /// a union with one of them among its members (`"name" | string` suggests a
    /// key, it does not require one): a map.
    Any,
    /// A union of string literals only: exactly those members, a struct.
    Named(Vec<String>),
    /// A member that is not a string, where it is written (JSON's keys are
    /// strings): refused rather than dropped.
    NotString(Span),
}
