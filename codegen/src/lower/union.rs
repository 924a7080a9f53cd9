//! Unions: a TypeScript union as a string enum (every member a string literal),
//! an alias of JSON (`unknown`-like unions) or a union of lowered members, each
//! member named.

use super::*;

impl Lowerer<'_> {
    /// A union as an item kind: a string enum when every member is a string literal
    /// (open if `string` is among them), otherwise a union of lowered members.
    pub(super) fn union_kind(&mut self, members: &[TypeExpr], name: &str, docs: &Docs, span: Span) -> Option<ItemKind> {
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
}

pub(super) fn variant_name(ty: &Type) -> String {
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
pub(super) enum LiteralKind {
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

pub(super) fn is_literal(kind: &TypeKind) -> bool {
    matches!(kind, TypeKind::StrLit(_) | TypeKind::NumLit(_) | TypeKind::BoolLit(_))
}

pub(super) fn flatten_union<'a>(members: &'a [TypeExpr], out: &mut Vec<&'a TypeExpr>) {
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
pub(super) fn is_json_value_union(members: &[TypeExpr]) -> bool {
    let has = |f: fn(&TypeKind) -> bool| members.iter().any(|m| f(&m.kind));
    has(|k| matches!(k, TypeKind::String))
        && has(|k| matches!(k, TypeKind::Number))
        && has(|k| matches!(k, TypeKind::Boolean))
        && has(|k| matches!(k, TypeKind::Null))
}

pub(super) fn collect_string_literals(t: &TypeExpr, out: &mut Vec<String>) {
    match &t.kind {
        TypeKind::StrLit(s) => out.push(s.clone()),
        TypeKind::Union(ms) => ms.iter().for_each(|m| collect_string_literals(m, out)),
        _ => {}
    }
}
