//! Stage 2: [`Decl`] values → the [`model`](crate::model) of one revision.
//!
//! Resolves `extends`, `Omit<>` and intersections into flat structs, names inline
//! types from their parent and field, turns `typeof CONST` into the constant's value,
//! classifies unions, and reports dangling references and name collisions. Problems
//! are collected, never panicked on; a construct that cannot be lowered becomes
//! `serde_json::Value` so the rest of the file is still checked.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::jsdoc::parse_docs;
use crate::model::*;
use crate::names::{pascal_case, snake_case};
use crate::syntax::{ConstValue, Decl, DeclKind, Member, RawDoc, TypeExpr, TypeKind, whole_number};

mod inline;
pub mod overrides;
mod passes;
mod utility;

use utility::{OBJECT_UTILITIES, bounded_primitive, make_optional};

pub struct LowerInput<'a> {
    pub name: String,
    pub module: String,
    pub dated: bool,
    pub schema_path: &'a Path,
    pub schema_sha256: String,
    pub decls: Vec<Decl>,
}

pub fn lower_revision(input: LowerInput<'_>) -> (Revision, Diagnostics) {
    let mut lx = Lowerer {
        path: input.schema_path,
        dir: input.schema_path.parent().map(Path::to_path_buf).unwrap_or_default(),
        decls: HashMap::new(),
        order: Vec::new(),
        items: BTreeMap::new(),
        objects: HashMap::new(),
        in_progress: HashSet::new(),
        inline_spans: HashMap::new(),
        inline_names: HashMap::new(),
        bounds: Vec::new(),
        diags: Diagnostics::default(),
    };
    for d in input.decls {
        if let Some(prev) = lx.decls.get(&d.name) {
            lx.diags.push(
                Diagnostic::error(format!("`{}` is declared more than once", d.name))
                    .at(lx.path, d.span)
                    .label("declared again here")
                    .also_at(prev.span, "first declared here")
                    .hint("declaration merging is not supported: keep one declaration"),
            );
            continue;
        }
        lx.order.push(d.name.clone());
        lx.decls.insert(d.name.clone(), d);
    }
    for name in lx.order.clone() {
        lx.lower_decl(&name);
    }
    for w in overrides::apply_overrides(&mut lx.items, &input.name, input.dated, input.schema_path) {
        lx.diags.push(w);
    }
    lx.resolve_member_names();
    crate::rule::decide_unions(&mut lx.items);
    lx.check_defaults();
    lx.attach_value_deprecations();
    lx.box_cycles();
    let rev = Revision {
        name: input.name,
        module: input.module,
        dated: input.dated,
        schema_path: input.schema_path.to_path_buf(),
        schema_sha256: input.schema_sha256,
        items: lx.items,
    };
    (rev, lx.diags)
}

/// The fields and index signature an object type contributes to those that extend it.
#[derive(Clone, Debug, Default)]
struct ObjectShape {
    fields: Vec<Field>,
    index: Option<Type>,
    bases: Vec<String>,
}

impl ObjectShape {
    fn into_struct(self) -> Struct {
        let extra = extra_field_name(&self.fields);
        Struct { bases: self.bases, fields: self.fields, index: self.index, extra }
    }

    /// Adds or replaces a field: a redeclared field keeps its place and takes the
    /// new type (TypeScript only lets a subtype narrow it).
    fn put(&mut self, f: Field) {
        match self.fields.iter_mut().find(|g| g.wire == f.wire) {
            Some(g) => {
                let docs =
                    if f.docs.text.is_empty() && f.docs.deprecated.is_none() { g.docs.clone() } else { f.docs.clone() };
                *g = Field { docs, ..f };
            }
            None => self.fields.push(f),
        }
    }
    fn merge(&mut self, other: ObjectShape) {
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

struct Lowerer<'a> {
    path: &'a Path,
    dir: PathBuf,
    decls: HashMap<String, Decl>,
    order: Vec<String>,
    items: BTreeMap<String, Item>,
    /// Resolved object shapes of declared names, so bases are lowered once.
    objects: HashMap<String, Option<ObjectShape>>,
    in_progress: HashSet<String>,
    /// Inline types by name, with the span of their source.
    inline_spans: HashMap<String, Span>,
    /// The name each inline type got, by the name its parent and field give it
    /// and its span (the same type lowered twice keeps its name).
    inline_names: HashMap<(String, Span), String>,
    /// Bounds a bounded primitive (`number & { readonly minimum: 0 }`) brought
    /// while its member's type was lowered; the member's docs take them.
    bounds: Vec<(String, String)>,
    diags: Diagnostics,
}

impl Lowerer<'_> {
    fn docs(&mut self, raw: Option<&RawDoc>) -> Docs {
        let Some(raw) = raw else { return Docs::default() };
        let mut docs = parse_docs(&raw.text);
        for ex in &mut docs.examples {
            if ex.path.is_empty() {
                continue;
            }
            let p = self.dir.join(&ex.path);
            match std::fs::read_to_string(&p) {
                Ok(text) => ex.content = Some(text.trim_end().to_string()),
                Err(e) => self.diags.push(
                    Diagnostic::warning(format!("example file `{}` cannot be read: {e}", ex.path))
                        .at(self.path, raw.span)
                        .label("this `@includeCode` names it")
                        .note(format!("looked for {}", p.display()))
                        .hint("the example is left out of the docs; generation goes on"),
                ),
            }
        }
        docs
    }

    fn lower_decl(&mut self, name: &str) {
        if self.items.contains_key(name) {
            return;
        }
        let Some(decl) = self.decls.get(name).cloned() else { return };
        let docs = self.docs(decl.doc.as_ref());
        let kind = match &decl.kind {
            DeclKind::Const(v) => ItemKind::Const(Literal { value: const_literal(v), via_const: None }),
            DeclKind::Interface { members, .. } => {
                // A body that is only `[key: string]: T` is a map, not a struct.
                if let ([Member::Index { ty, .. }], true) = (
                    members.as_slice(),
                    matches!(&decl.kind, DeclKind::Interface { extends, .. } if extends.is_empty()),
                ) {
                    let t = self.lower_type(ty, name, "", InlineRole::Value, &Docs::default());
                    ItemKind::Alias(Type::Map(Box::new(t)))
                } else {
                    match self.object_of(name) {
                        Some(shape) => ItemKind::Struct(shape.into_struct()),
                        None => ItemKind::Alias(Type::Json),
                    }
                }
            }
            DeclKind::Alias(ty) => match &ty.kind {
                TypeKind::Literal(members) if !is_map_literal(members) => match self.object_of(name) {
                    Some(shape) => ItemKind::Struct(shape.into_struct()),
                    None => ItemKind::Alias(Type::Json),
                },
                TypeKind::Intersection(parts) if bounded_primitive(parts).is_none() => match self.object_of(name) {
                    Some(shape) => ItemKind::Struct(shape.into_struct()),
                    None => ItemKind::Alias(Type::Json),
                },
                TypeKind::Ref { name: utility, .. } if OBJECT_UTILITIES.contains(&utility.as_str()) => {
                    match self.object_of(name) {
                        Some(shape) => ItemKind::Struct(shape.into_struct()),
                        None => ItemKind::Alias(Type::Json),
                    }
                }
                // `T | null` (or `A | B | null`): an alias of the nullable type, as a
                // member typed so would be.
                TypeKind::Union(members) if members.iter().any(|m| matches!(m.kind, TypeKind::Null)) => {
                    ItemKind::Alias(self.lower_type(ty, name, "", InlineRole::Member, &docs))
                }
                TypeKind::Union(members) => match self.union_kind(members, name, &docs, ty.span) {
                    Some(kind) => kind,
                    None => ItemKind::Alias(self.lower_type(ty, name, "", InlineRole::Member, &docs)),
                },
                TypeKind::KeyOf(target) => match self.key_union(target, ty.span) {
                    Some(keys) => match self.union_kind(&keys, name, &docs, ty.span) {
                        Some(kind) => kind,
                        None => ItemKind::Alias(Type::Json),
                    },
                    None => ItemKind::Alias(Type::Json),
                },
                _ => ItemKind::Alias(self.lower_type(ty, name, "", InlineRole::Member, &docs)),
            },
        };
        let mut docs = docs;
        docs.constraints.append(&mut self.bounds);
        self.items.insert(
            name.to_string(),
            Item { name: name.to_string(), origin: Origin::Declared, docs, span: decl.span, kind },
        );
    }

    /// The object shape of a declared interface or object-like alias, resolved once.
    fn object_of(&mut self, name: &str) -> Option<ObjectShape> {
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

    /// The shape a type contributes when used as a base or intersection part.
    fn base_shape(&mut self, ty: &TypeExpr, record_base: bool) -> Option<ObjectShape> {
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
            TypeKind::Ref { name, args } if name == "Record" => {
                let t = args
                    .get(1)
                    .map(|t| self.lower_type(t, "", "", InlineRole::Value, &Docs::default()))
                    .unwrap_or(Type::Json);
                Some(ObjectShape { index: Some(t), ..Default::default() })
            }
            TypeKind::Ref { name, args } if args.is_empty() => {
                if !self.decls.contains_key(name) {
                    self.undeclared(name, ty.span);
                    return None;
                }
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
    fn expr_shape(&mut self, ty: &TypeExpr, parent: &str) -> Option<ObjectShape> {
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

    fn members_shape(&mut self, members: &[Member], parent: &str) -> ObjectShape {
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

    /// Lowers a type in a field position of `parent` (`field` may be empty for an
    /// alias body). Anonymous objects, unions and enums become inline items.
    fn lower_type(&mut self, ty: &TypeExpr, parent: &str, field: &str, role: InlineRole, docs: &Docs) -> Type {
        match &ty.kind {
            TypeKind::String => Type::String,
            TypeKind::Number => {
                if docs.tjs_number {
                    Type::Number
                } else {
                    Type::Integer
                }
            }
            TypeKind::Boolean => Type::Boolean,
            TypeKind::Unknown | TypeKind::Any => Type::Json,
            // TypeScript's `object`, which upstream's schema.json reads as a JSON object.
            TypeKind::Object => Type::Map(Box::new(Type::Json)),
            TypeKind::Null => {
                self.error_at(
                    ty.span,
                    "`null` on its own is not a useful type",
                    "use `T | null` or make the property optional",
                );
                Type::Json
            }
            TypeKind::StrLit(s) => Type::Literal(Literal { value: LiteralValue::Str(s.clone()), via_const: None }),
            TypeKind::NumLit(n) => Type::Literal(Literal { value: number_literal(*n), via_const: None }),
            TypeKind::BoolLit(b) => Type::Literal(Literal { value: LiteralValue::Bool(*b), via_const: None }),
            TypeKind::TypeOf(c) => match self.decls.get(c).map(|d| &d.kind) {
                Some(DeclKind::Const(v)) => {
                    Type::Literal(Literal { value: const_literal(v), via_const: Some(c.clone()) })
                }
                Some(_) => {
                    self.error_at(
                        ty.span,
                        &format!("`typeof {c}`: `{c}` is not a const"),
                        "`typeof` is supported for exported consts",
                    );
                    Type::Json
                }
                None => {
                    self.undeclared(c, ty.span);
                    Type::Json
                }
            },
            TypeKind::Ref { name, args } => match (name.as_str(), args.as_slice()) {
                // `Record<string, never>`: an object with no members.
                ("Record", [_, v]) if matches!(v.kind, TypeKind::Never) => Type::Map(Box::new(Type::Json)),
                ("Record", [_, v]) => Type::Map(Box::new(self.lower_type(v, parent, field, InlineRole::Value, docs))),
                ("Array" | "ReadonlyArray", [t]) => {
                    Type::Array(Box::new(self.lower_type(t, parent, field, InlineRole::Item, docs)))
                }
                ("Omit" | "Pick" | "Partial" | "Required", _) => self.inline_struct(ty, parent, field, role),
                ("Readonly", [t]) => self.lower_type(t, parent, field, role, docs),
                ("NonNullable", [t]) => match self.lower_type(t, parent, field, role, docs) {
                    Type::Nullable(inner) => *inner,
                    other => other,
                },
                (_, []) => {
                    if self.decls.contains_key(name) {
                        if matches!(self.decls.get(name).map(|d| &d.kind), Some(DeclKind::Const(_))) {
                            self.error_at(
                                ty.span,
                                &format!("`{name}` is a const, not a type"),
                                &format!("write `typeof {name}`"),
                            );
                            return Type::Json;
                        }
                        Type::Named(name.clone())
                    } else {
                        self.undeclared(name, ty.span);
                        Type::Json
                    }
                }
                _ => {
                    self.error_at(
                        ty.span,
                        &format!("unsupported generic type `{name}<...>`"),
                        "only `Record<string, T>`, `Array<T>`, `Omit`, `Pick`, `Partial`, `Required`, `Readonly` and `NonNullable` are understood",
                    );
                    Type::Json
                }
            },
            TypeKind::Array(t) => Type::Array(Box::new(self.lower_type(t, parent, field, InlineRole::Item, docs))),
            TypeKind::Union(members) => {
                let non_null: Vec<&TypeExpr> = members.iter().filter(|m| !matches!(m.kind, TypeKind::Null)).collect();
                if is_json_value_union(members) {
                    return Type::Json;
                }
                if non_null.len() < members.len() {
                    let inner = if non_null.len() == 1 {
                        self.lower_type(non_null[0], parent, field, role, docs)
                    } else {
                        let u =
                            TypeExpr { kind: TypeKind::Union(non_null.into_iter().cloned().collect()), span: ty.span };
                        self.lower_type(&u, parent, field, role, docs)
                    };
                    return Type::Nullable(Box::new(inner));
                }
                if members.len() == 1 {
                    return self.lower_type(&members[0], parent, field, role, docs);
                }
                let name = self.inline_name(parent, field, role, ty.span);
                match self.union_kind(members, &name, docs, ty.span) {
                    Some(kind) => self.add_inline(&name, parent, field, role, ty.span, kind),
                    None => Type::Json,
                }
            }
            TypeKind::Literal(members) if is_map_literal(members) => {
                let Some(Member::Index { ty: v, .. }) = members.first() else { return Type::Json };
                if matches!(v.kind, TypeKind::Never) {
                    return Type::Map(Box::new(Type::Json));
                }
                Type::Map(Box::new(self.lower_type(v, parent, field, InlineRole::Value, docs)))
            }
            TypeKind::Intersection(parts) if bounded_primitive(parts).is_some() => {
                let Some((primitive, bounds)) = bounded_primitive(parts) else { return Type::Json };
                self.bounds.extend(bounds);
                self.lower_type(primitive, parent, field, role, docs)
            }
            TypeKind::Literal(_) | TypeKind::Intersection(_) => self.inline_struct(ty, parent, field, role),
            TypeKind::KeyOf(target) => match self.key_union(target, ty.span) {
                Some(keys) => {
                    let u = TypeExpr { kind: TypeKind::Union(keys), span: ty.span };
                    self.lower_type(&u, parent, field, role, docs)
                }
                None => Type::Json,
            },
            TypeKind::Indexed { object, index } => self.indexed(object, index, ty.span, parent, field, role, docs),
            TypeKind::Template(text) => {
                self.bounds.push(("template".into(), text.clone()));
                Type::String
            }
            TypeKind::Unsupported { .. } => Type::Json,
            TypeKind::Never => {
                self.error_at(
                    ty.span,
                    "`never` where a value is required",
                    "`never` is read as an optional member's type (`b?: never`: the member is absent) and as a map's values (`Record<string, never>`: no members)",
                );
                Type::Json
            }
        }
    }

    /// A union as an item kind: a string enum when every member is a string literal
    /// (open if `string` is among them), otherwise a union of lowered members.
    fn union_kind(&mut self, members: &[TypeExpr], name: &str, docs: &Docs, span: Span) -> Option<ItemKind> {
        if is_json_value_union(members) {
            return None;
        }
        let mut flat = Vec::new();
        flatten_union(members, &mut flat);
        let all_str = flat.iter().all(|m| matches!(m.kind, TypeKind::StrLit(_) | TypeKind::String));
        let any_lit = flat.iter().any(|m| matches!(m.kind, TypeKind::StrLit(_)));
        if all_str && any_lit {
            let open = flat.iter().any(|m| matches!(m.kind, TypeKind::String));
            let mut values: Vec<EnumValue> = Vec::new();
            for m in &flat {
                if let TypeKind::StrLit(s) = &m.kind {
                    if values.iter().any(|v| &v.value == s) {
                        continue;
                    }
                    values.push(EnumValue { value: s.clone(), rust: pascal_case(s), deprecated: None });
                }
            }
            // Two values that give one Rust variant (`"debug"`, `"Debug"`), or a value
            // named like an open enum's catch-all `Other`: the later value's variant
            // takes the first free number (`Debug2`), with a warning.
            let mut seen: HashMap<String, String> = HashMap::new();
            if open {
                seen.insert("Other".into(), "any other value".into());
            }
            for v in &mut values {
                if let Some(other) = seen.get(&v.rust).cloned() {
                    let renamed =
                        (2..).map(|n| format!("{}{n}", v.rust)).find(|r| !seen.contains_key(r)).unwrap_or_default();
                    self.diags.push(
                        Diagnostic::warning(format!(
                            "the value \"{}\" of `{name}` is the Rust variant `{renamed}`: `{}` is taken by {}",
                            v.value,
                            v.rust,
                            if other == "any other value" { other } else { format!("\"{other}\"") }
                        ))
                        .at(self.path, span)
                        .label("in this union")
                        .hint("rename one of the values to choose the Rust names"),
                    );
                    v.rust = renamed;
                }
                seen.insert(v.rust.clone(), v.value.clone());
            }
            return Some(ItemKind::Enum(StringEnum { values, open }));
        }
        // Only numbers (a numeric `enum`, `0 | 1 | 2`): the number type, its values in
        // the docs; a union of `i64`s could not tell them apart.
        if flat.iter().all(|m| matches!(m.kind, TypeKind::NumLit(_))) {
            let values: Vec<LiteralValue> = flat
                .iter()
                .filter_map(|m| if let TypeKind::NumLit(n) = m.kind { Some(number_literal(n)) } else { None })
                .collect();
            let list: Vec<String> = values.iter().map(LiteralValue::to_json).collect();
            self.bounds.push(("enum".into(), list.join(", ")));
            let whole = values.iter().all(|v| matches!(v, LiteralValue::Int(_)));
            return Some(ItemKind::Alias(if whole { Type::Integer } else { Type::Number }));
        }
        // Literals beside members of other kinds (`"auto" | "manual" | Config`,
        // `0 | Config`): the literals of one JSON kind are one member, in the place
        // of the first, so each value reads as its own member and no literal member
        // takes another's values. Strings are an enum of their values (open when
        // `string` is among them), numbers the number type, booleans `bool`.
        let literal_kinds: Vec<LiteralKind> = [LiteralKind::String, LiteralKind::Number, LiteralKind::Boolean]
            .into_iter()
            .filter(|k| flat.iter().any(|m| LiteralKind::of(&m.kind) == Some(*k) && is_literal(&m.kind)))
            .collect();
        let mut grouped: Vec<LiteralKind> = Vec::new();
        let mut variants: Vec<Variant> = Vec::new();
        for (i, m) in flat.iter().enumerate() {
            let role = InlineRole::Variant(i + 1);
            let ty = match LiteralKind::of(&m.kind).filter(|k| literal_kinds.contains(k)) {
                Some(k) if grouped.contains(&k) => continue,
                Some(k) => {
                    grouped.push(k);
                    let same: Vec<TypeExpr> =
                        flat.iter().filter(|x| LiteralKind::of(&x.kind) == Some(k)).map(|x| (*x).clone()).collect();
                    match k {
                        LiteralKind::String => {
                            let inline = self.inline_name(name, "", role, m.span);
                            match self.union_kind(&same, &inline, &Docs::default(), m.span) {
                                Some(kind) => self.add_inline(&inline, name, "", role, m.span, kind),
                                None => Type::String,
                            }
                        }
                        LiteralKind::Number => match same.iter().find(|x| matches!(x.kind, TypeKind::Number)) {
                            Some(number) => self.lower_type(number, name, "", role, docs),
                            None if same
                                .iter()
                                .all(|x| matches!(x.kind, TypeKind::NumLit(n) if matches!(number_literal(n), LiteralValue::Int(_)))) =>
                            {
                                Type::Integer
                            }
                            None => Type::Number,
                        },
                        LiteralKind::Boolean => Type::Boolean,
                    }
                }
                None => self.lower_type(m, name, "", role, docs),
            };
            let mut vname = variant_name(&ty);
            if variants.iter().any(|v| v.name == vname) {
                vname = format!("{vname}{}", i + 1);
            }
            variants.push(Variant { name: vname, ty, tags: Vec::new(), boxed: false });
        }
        Some(ItemKind::Union(Union { variants, rule: UnionRule::default() }))
    }

    fn undeclared(&mut self, name: &str, span: Span) {
        let mut d = Diagnostic::error(format!("reference to undeclared type `{name}`"))
            .at(self.path, span)
            .label("not declared in this file");
        if let Some(close) = self.closest_name(name) {
            d = d.hint(format!("did you mean `{close}`?"));
        }
        self.diags.push(d);
    }

    fn closest_name(&self, name: &str) -> Option<String> {
        let lower = name.to_lowercase();
        let mut best: Option<(usize, &String)> = None;
        for cand in &self.order {
            let dist = edit_distance(&lower, &cand.to_lowercase());
            if dist <= 2.max(name.len() / 4) && best.is_none_or(|(d, c)| dist < d || (dist == d && cand < c)) {
                best = Some((dist, cand));
            }
        }
        best.map(|(_, c)| c.clone())
    }

    fn error_at(&mut self, span: Span, msg: &str, hint: &str) {
        self.diags
            .push(Diagnostic::error(msg.to_string()).at(self.path, span).label(msg.to_string()).hint(hint.to_string()));
    }
}

/// The value a required field takes when absent: an `@default` tag, or the
/// spec's phrase "treat the absent field as `"complete"`".
fn default_of(docs: &Docs) -> Option<Literal> {
    let text = match docs.constraints.iter().find(|(t, _)| t == "default") {
        Some((_, v)) => v.clone(),
        None => {
            let joined = docs.text.join(" ");
            let at = joined.find("treat the absent field as `")? + "treat the absent field as `".len();
            joined[at..].split('`').next()?.to_string()
        }
    };
    let value = match serde_json::from_str::<serde_json::Value>(text.trim()).ok()? {
        serde_json::Value::String(s) => LiteralValue::Str(s),
        serde_json::Value::Bool(b) => LiteralValue::Bool(b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => LiteralValue::Int(i),
            None => LiteralValue::Float(n.as_f64()?),
        },
        _ => return None,
    };
    Some(Literal { value, via_const: None })
}

/// The name of the Rust field that keeps unknown members: `extra`, unless a
/// member is already called that.
fn extra_field_name(fields: &[Field]) -> String {
    ["extra", "extra_members", "unknown_members"]
        .into_iter()
        .find(|n| !fields.iter().any(|f| f.rust == *n))
        .unwrap_or("__extra")
        .to_string()
}

fn variant_name(ty: &Type) -> String {
    match ty {
        Type::String => "String".into(),
        Type::Integer => "Integer".into(),
        Type::Number => "Number".into(),
        Type::Boolean => "Boolean".into(),
        Type::Json => "Value".into(),
        Type::Named(n) => n.clone(),
        Type::Array(t) => format!("{}Array", variant_name(t)),
        Type::Map(t) => format!("{}Map", variant_name(t)),
        Type::Nullable(t) => format!("Nullable{}", variant_name(t)),
        Type::Literal(l) => match &l.value {
            LiteralValue::Str(s) => pascal_case(s),
            LiteralValue::Int(i) => format!("N{}", i.unsigned_abs()),
            LiteralValue::Float(_) => "Float".into(),
            LiteralValue::Bool(b) => {
                if *b {
                    "True".into()
                } else {
                    "False".into()
                }
            }
        },
    }
}

/// The JSON kind of a literal type, or of its base type (`"a"` and `string`).
#[derive(Clone, Copy, PartialEq)]
enum LiteralKind {
    String,
    Number,
    Boolean,
}

impl LiteralKind {
    fn of(kind: &TypeKind) -> Option<Self> {
        match kind {
            TypeKind::StrLit(_) | TypeKind::String => Some(LiteralKind::String),
            TypeKind::NumLit(_) | TypeKind::Number => Some(LiteralKind::Number),
            TypeKind::BoolLit(_) | TypeKind::Boolean => Some(LiteralKind::Boolean),
            _ => None,
        }
    }
}

fn is_literal(kind: &TypeKind) -> bool {
    matches!(kind, TypeKind::StrLit(_) | TypeKind::NumLit(_) | TypeKind::BoolLit(_))
}

fn flatten_union<'a>(members: &'a [TypeExpr], out: &mut Vec<&'a TypeExpr>) {
    for m in members {
        match &m.kind {
            TypeKind::Union(inner) => flatten_union(inner, out),
            // `"a" | "b" | (string & {})`: an open enum, as `"a" | "b" | string` is.
            TypeKind::Intersection(parts) => match bounded_primitive(parts) {
                Some((primitive, bounds)) if bounds.is_empty() => out.push(primitive),
                _ => out.push(m),
            },
            _ => out.push(m),
        }
    }
}

/// A union that admits every JSON scalar and null is "any JSON value"
/// (`string | number | boolean | null | JSONObject | JSONArray`).
fn is_json_value_union(members: &[TypeExpr]) -> bool {
    let has = |f: fn(&TypeKind) -> bool| members.iter().any(|m| f(&m.kind));
    has(|k| matches!(k, TypeKind::String))
        && has(|k| matches!(k, TypeKind::Number))
        && has(|k| matches!(k, TypeKind::Boolean))
        && has(|k| matches!(k, TypeKind::Null))
}

fn is_map_literal(members: &[Member]) -> bool {
    matches!(members, [Member::Index { .. }])
}

fn collect_string_literals(t: &TypeExpr, out: &mut Vec<String>) {
    match &t.kind {
        TypeKind::StrLit(s) => out.push(s.clone()),
        TypeKind::Union(ms) => ms.iter().for_each(|m| collect_string_literals(m, out)),
        _ => {}
    }
}

fn const_literal(v: &ConstValue) -> LiteralValue {
    match v {
        ConstValue::Str(s) => LiteralValue::Str(s.clone()),
        ConstValue::Int(i) => LiteralValue::Int(*i),
        ConstValue::Float(f) => LiteralValue::Float(*f),
        ConstValue::Bool(b) => LiteralValue::Bool(*b),
    }
}

fn number_literal(n: f64) -> LiteralValue {
    whole_number(n).map_or(LiteralValue::Float(n), LiteralValue::Int)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
