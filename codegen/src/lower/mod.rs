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
mod object;
pub mod overrides;
mod passes;
mod union;
mod union_rules;
mod utility;

use object::ObjectShape;
use union::{collect_string_literals, is_json_value_union};
use utility::{OBJECT_UTILITIES, bounded_primitive, make_optional};

pub struct LowerInput<'a> {
    pub name: String,
    pub module: String,
    pub dated: bool,
    pub schema_path: &'a Path,
    pub schema_sha256: String,
    pub decls: Vec<Decl>,
    /// For an extension: the core revision it extends, and the names it imports
    /// from it (the name in the extension's file → the core's name).
    pub core: Option<&'a Revision>,
    pub imports: BTreeMap<String, String>,
    /// For an extension: its name (`tasks`), which names the core's unions it widens.
    pub extension: Option<&'a str>,
}

pub fn lower_revision(input: LowerInput<'_>) -> (Revision, Diagnostics) {
    let mut lx = Lowerer {
        core: input.core,
        imports: input.imports.clone(),
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
        if let Some(prev) = lx.decls.get_mut(&d.name) {
            // Interfaces merge, as TypeScript merges them; anything else declared twice is an error.
            let d = match prev.merge(&d) {
                Some(Ok(())) => continue,
                Some(Err(conflict)) => Diagnostic::error(format!(
                    "{} is declared again with another type: TypeScript merges the two declarations of `{}` only when their common members agree",
                    conflict.what, d.name
                ))
                .at(lx.path, conflict.at)
                .label("declared again here")
                .also_at(conflict.first, "first declared here")
                .hint("give the member one type in both declarations, or keep one declaration"),
                None => Diagnostic::error(format!("`{}` is declared more than once", d.name))
                    .at(lx.path, d.span)
                    .label("declared again here")
                    .also_at(prev.span, "first declared here")
                    .hint("only interfaces merge: keep one declaration"),
            };
            lx.diags.push(d);
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
    let widened = match (input.core, input.extension) {
        (Some(core), Some(ext)) => union_rules::widen_core_unions(&mut lx.items, core, ext),
        _ => BTreeMap::new(),
    };
    union_rules::decide_unions(&mut lx.items, input.core);
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
        core: input.core.map(|c| Box::new(c.clone())),
        widened,
    };
    (rev, lx.diags)
}

impl<'a> Lowerer<'a> {
    /// The core item an extension's imported name stands for.
    fn imported(&self, name: &str) -> Option<&'a Item> {
        let core = self.core?;
        core.item(self.imports.get(name)?)
    }
}

struct Lowerer<'a> {
    /// An extension's core revision, whose imported items its types name.
    core: Option<&'a Revision>,
    /// An extension's imports: the name in its file → the core's name.
    imports: BTreeMap<String, String>,
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
                // `Result & DetailedTask & { .. }` where `DetailedTask` is a union of
                // object types: a union of one struct per member, each the
                // intersection with that member (`GetTaskResultWorkingTask`, ...).
                TypeKind::Intersection(parts) if self.union_part(parts).is_some() => {
                    let (k, members) = self.union_part(parts).unwrap_or_default();
                    let mut variants = Vec::new();
                    for (i, member) in members.iter().enumerate() {
                        let TypeKind::Ref { name: member_name, .. } = &member.kind else { continue };
                        let mut with_member = parts.clone();
                        with_member[k] = member.clone();
                        let joined = TypeExpr { kind: TypeKind::Intersection(with_member), span: ty.span };
                        let iname = self.inline_name_as(format!("{name}{member_name}"), name, member.span);
                        if let Some(shape) = self.expr_shape(&joined, &iname) {
                            let vty = self.add_inline(
                                &iname,
                                name,
                                "",
                                InlineRole::Variant(i + 1),
                                member.span,
                                ItemKind::Struct(shape.into_struct()),
                            );
                            variants.push(Variant {
                                name: member_name.clone(),
                                ty: vty,
                                tags: Vec::new(),
                                boxed: false,
                            });
                        }
                    }
                    ItemKind::Union(Union { variants, rule: UnionRule::default() })
                }
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
                None => match self.imported(c).map(|i| (&i.name, &i.kind)) {
                    Some((core, ItemKind::Const(l))) => {
                        Type::Literal(Literal { value: l.value.clone(), via_const: Some(core.clone()) })
                    }
                    _ => {
                        self.undeclared(c, ty.span);
                        Type::Json
                    }
                },
            },
            TypeKind::Ref { name, args } => match (name.as_str(), args.as_slice()) {
                // `Record<string, never>`: an object with no members.
                ("Record", args) if let object::RecordKeys::NotString(at) = self.record_keys(args) => {
                    self.error_at(
                        at,
                        "a key of `Record<K, T>` that is not a string",
                        "JSON's keys are strings: use string literals (`\"a\" | \"b\"`) or `string`",
                    );
                    Type::Json
                }
                ("Record", [_, v]) if matches!(v.kind, TypeKind::Never) => Type::Map(Box::new(Type::Json)),
                // Keyed by a union of literals: a struct of those members (see `record_keys`).
                ("Record", args) if matches!(self.record_keys(args), object::RecordKeys::Named(_)) => {
                    self.inline_struct(ty, parent, field, role)
                }
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
                    } else if let Some(core) = self.imported(name) {
                        if matches!(core.kind, ItemKind::Const(_)) {
                            self.error_at(
                                ty.span,
                                &format!("`{name}` is a const, not a type"),
                                &format!("write `typeof {name}`"),
                            );
                            return Type::Json;
                        }
                        Type::Named(core.name.clone())
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

    /// The part of an intersection that names a union of object types (a
    /// declared `type U = A | B`, each a declared object type), with U's members.
    fn union_part(&self, parts: &[TypeExpr]) -> Option<(usize, Vec<TypeExpr>)> {
        parts.iter().enumerate().find_map(|(k, p)| {
            let TypeKind::Ref { name, args } = &p.kind else { return None };
            if !args.is_empty() {
                return None;
            }
            let Some(DeclKind::Alias(TypeExpr { kind: TypeKind::Union(members), .. })) =
                self.decls.get(name).map(|d| &d.kind)
            else {
                return None;
            };
            let objects = members.iter().all(|m| match &m.kind {
                TypeKind::Ref { name, args } if args.is_empty() => {
                    matches!(self.decls.get(name).map(|d| &d.kind), Some(DeclKind::Interface { .. }))
                }
                _ => false,
            });
            (objects && members.len() > 1).then(|| (k, members.clone()))
        })
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
            let dist = crate::names::edit_distance(&lower, &cand.to_lowercase());
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

fn is_map_literal(members: &[Member]) -> bool {
    matches!(members, [Member::Index { .. }])
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
