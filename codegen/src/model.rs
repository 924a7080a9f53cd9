//! The model: what a revision of the schema means, resolved and named, with docs
//! and spans for diagnostics. It owns no swc node and no token. The emitter, the
//! deprecation registry and the revision diff all read it.
//!
//! Every item has a name that is unique within its revision (declared names verbatim,
//! inline types named from their parent and field), and types refer to items by name.
//! Items are kept sorted by name, so everything derived from the model is ordered.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::diag::Span;

/// Every revision found in a spec folder, oldest first (dated revisions by date,
/// then the undated ones such as `draft`, by name).
#[derive(Clone, Debug)]
pub struct Spec {
    pub dir: PathBuf,
    pub revisions: Vec<Revision>,
}

impl Spec {
    pub fn revision(&self, name: &str) -> Option<&Revision> {
        self.revisions.iter().find(|r| r.name == name)
    }
    /// The newest dated revision: what `latest` and the default feature point at.
    pub fn latest_dated(&self) -> Option<&Revision> {
        self.revisions.iter().rev().find(|r| r.dated)
    }
}

#[derive(Clone, Debug)]
pub struct Revision {
    /// The folder name: `2025-11-25`, `draft`.
    pub name: String,
    /// The Rust module and cargo feature: `v2025_11_25`, `draft`.
    pub module: String,
    /// True for `YYYY-MM-DD` revisions.
    pub dated: bool,
    pub schema_path: PathBuf,
    /// Hex sha256 of schema.ts.
    pub schema_sha256: String,
    pub items: BTreeMap<String, Item>,
}

impl Revision {
    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.get(name)
    }
}

#[derive(Clone, Debug)]
pub struct Item {
    pub name: String,
    pub origin: Origin,
    pub docs: Docs,
    pub span: Span,
    pub kind: ItemKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Exported from schema.ts under this name.
    Declared,
    /// An anonymous type in `parent`'s member `field` (`ClientCapabilities.sampling`),
    /// named `ClientCapabilitiesSampling`. `suffix` is `Item` for array elements and
    /// `Value` for map values.
    Inline { parent: String, field: String, suffix: Option<&'static str> },
}

#[derive(Clone, Debug)]
pub enum ItemKind {
    Struct(Struct),
    Union(Union),
    Enum(StringEnum),
    /// `type Cursor = string`, `type EmptyResult = Result`, map-only interfaces.
    Alias(Type),
    Const(Literal),
}

impl ItemKind {
    pub fn describe(&self) -> &'static str {
        match self {
            ItemKind::Struct(_) => "object",
            ItemKind::Union(_) => "union",
            ItemKind::Enum(e) if e.open => "open enum",
            ItemKind::Enum(_) => "enum",
            ItemKind::Alias(_) => "alias",
            ItemKind::Const(_) => "const",
        }
    }
}

/// An object type: an interface (with its bases resolved) or an object literal.
#[derive(Clone, Debug)]
pub struct Struct {
    /// The interfaces named in `extends` (after `Omit<>`), for docs and the diff.
    pub bases: Vec<String>,
    /// All fields, inherited ones included, in declaration order (bases first).
    pub fields: Vec<Field>,
    /// The type of an index signature (`[key: string]: T`), when one is declared or
    /// inherited. Unknown members are kept whether or not there is one.
    pub index: Option<Type>,
}

impl Struct {
    pub fn field(&self, wire: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.wire == wire)
    }
    /// Fields whose value is fixed by a literal type: always written, checked on read.
    pub fn fixed(&self) -> impl Iterator<Item = (&Field, &Literal)> {
        self.fields.iter().filter_map(|f| match &f.ty {
            Type::Literal(l) if f.required => Some((f, l)),
            _ => None,
        })
    }
}

#[derive(Clone, Debug)]
pub struct Field {
    /// The key on the wire.
    pub wire: String,
    /// The snake_case Rust name (without `r#`).
    pub rust: String,
    pub ty: Type,
    pub required: bool,
    pub docs: Docs,
    pub span: Span,
    /// The interface that declared (or last redeclared) the field.
    pub declared_in: String,
    /// For a required field: the value read when it is absent, from an
    /// `@default` tag or the spec's own wording ("treat the absent field as
    /// `"complete"`"). It is always written.
    pub default: Option<Literal>,
    /// Held in a `Box`: the field closes a cycle of types that contain each other
    /// by value, which Rust can only size through a pointer.
    pub boxed: bool,
}

impl Field {
    /// Required, and without a default: absence is an error.
    pub fn must_be_present(&self) -> bool {
        self.required && self.default.is_none()
    }
}

/// A union of several types, decided by a discriminator or by shape.
#[derive(Clone, Debug)]
pub struct Union {
    pub variants: Vec<Variant>,
    /// The wire name of a field every member fixes to distinct values.
    pub discriminator: Option<String>,
    /// With a discriminator: the member (without tags of its own) that reads any
    /// other value, so a method this revision does not know passes through as a
    /// generic request instead of failing.
    pub fallback: Option<usize>,
    /// Without a discriminator: a member chosen by the value of one field when it
    /// has that value (`resultType: "input_required"` → `InputRequiredResult`); any
    /// other value, or none, leaves the choice to the shape rule among the rest.
    pub selector: Option<Selector>,
}

#[derive(Clone, Debug)]
pub struct Selector {
    /// The field's wire name: `resultType`.
    pub field: String,
    /// A value and the index of the member it selects.
    pub tags: Vec<(String, usize)>,
}

#[derive(Clone, Debug)]
pub struct Variant {
    /// The Rust variant name.
    pub name: String,
    pub ty: Type,
    /// With a discriminator: the values that select this variant.
    pub tags: Vec<Literal>,
    /// Held in a `Box`, as [`Field::boxed`].
    pub boxed: bool,
}

/// A union of string literals; `open` when `| string` lets any other value through.
#[derive(Clone, Debug)]
pub struct StringEnum {
    pub values: Vec<EnumValue>,
    pub open: bool,
}

#[derive(Clone, Debug)]
pub struct EnumValue {
    pub value: String,
    pub rust: String,
    /// Set when a `@deprecated` tag on the field or type names this value.
    pub deprecated: Option<Deprecation>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    String,
    /// A TypeScript `number`, which the schema means as an integer (as upstream's
    /// schema.json does) unless tagged `@TJS-type number`.
    Integer,
    /// `number` tagged `@TJS-type number`.
    Number,
    Boolean,
    /// `unknown`, `any`, `object`, or a JSON value type.
    Json,
    Named(String),
    Array(Box<Type>),
    /// `{ [key: string]: T }`, `Record<string, T>`.
    Map(Box<Type>),
    /// `T | null`.
    Nullable(Box<Type>),
    Literal(Literal),
}

#[derive(Clone, Debug, PartialEq)]
pub enum LiteralValue {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl LiteralValue {
    /// The value as JSON text.
    pub fn to_json(&self) -> String {
        match self {
            LiteralValue::Str(s) => serde_json::to_string(s).unwrap_or_default(),
            LiteralValue::Int(i) => i.to_string(),
            LiteralValue::Float(f) => f.to_string(),
            LiteralValue::Bool(b) => b.to_string(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Literal {
    pub value: LiteralValue,
    /// The const the literal came from, for `typeof CONST`.
    pub via_const: Option<String>,
}

/// Documentation of an item or field, read from its JSDoc.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Docs {
    /// The description, in JSDoc markdown (with `{@link}`s), one entry per line.
    pub text: Vec<String>,
    pub deprecated: Option<Deprecation>,
    pub internal: bool,
    pub category: Option<String>,
    pub examples: Vec<Example>,
    /// `@see` targets, as written.
    pub see: Vec<String>,
    /// Other tags kept for the reader: `@format uri`, `@minimum 0`, `@nullable`.
    pub constraints: Vec<(String, String)>,
    /// `@TJS-type number`.
    pub tjs_number: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub title: String,
    /// As written after `@includeCode`, relative to schema.ts.
    pub path: String,
    /// The file's text, when it could be read.
    pub content: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deprecation {
    /// The revision the tag names ("as of protocol version 2026-07-28").
    pub since: Option<String>,
    /// The first SEP the tag names (`SEP-2577`).
    pub sep: Option<String>,
    /// The tag's text, whitespace-normalised.
    pub note: String,
    /// When the tag deprecates some literal values of the field (`"thisServer"`),
    /// rather than the field itself.
    pub values: Vec<String>,
}

impl Type {
    /// The type as a short TypeScript-like string, for reports and tests.
    pub fn describe(&self) -> String {
        match self {
            Type::String => "string".into(),
            Type::Integer => "integer".into(),
            Type::Number => "number".into(),
            Type::Boolean => "boolean".into(),
            Type::Json => "json".into(),
            Type::Named(n) => n.clone(),
            Type::Array(t) => format!("{}[]", t.describe()),
            Type::Map(t) => format!("{{[key: string]: {}}}", t.describe()),
            Type::Nullable(t) => format!("{} | null", t.describe()),
            Type::Literal(l) => match &l.via_const {
                Some(c) => format!("typeof {c} ({})", l.value.to_json()),
                None => l.value.to_json(),
            },
        }
    }
}

/// A plain-text outline of a revision's model: one line per item, indented lines
/// for fields, variants and values. Used by `cargo xtask model` and in tests.
pub fn outline(rev: &Revision) -> String {
    let mut out = String::new();
    for item in rev.items.values() {
        let dep = if item.docs.deprecated.is_some() { " [deprecated]" } else { "" };
        match &item.kind {
            ItemKind::Struct(s) => {
                let bases = if s.bases.is_empty() { String::new() } else { format!(" extends {}", s.bases.join(", ")) };
                out.push_str(&format!("struct {}{bases}{dep}\n", item.name));
                for f in &s.fields {
                    let opt = if f.required { "" } else { "?" };
                    let default = f.default.as_ref().map(|d| format!(" (absent: {})", d.value.to_json())).unwrap_or_default();
                    let fdep = if f.docs.deprecated.is_some() { " [deprecated]" } else { "" };
                    out.push_str(&format!("  {}{opt}: {}{default}{fdep}\n", f.wire, f.ty.describe()));
                }
                if let Some(ix) = &s.index {
                    out.push_str(&format!("  [key: string]: {}\n", ix.describe()));
                }
            }
            ItemKind::Union(u) => {
                let rule = match &u.discriminator {
                    Some(d) => format!("by `{d}`"),
                    None => "by shape".into(),
                };
                let rule = match &u.selector {
                    Some(sel) => format!("{rule}, `{}` first", sel.field),
                    None => rule,
                };
                out.push_str(&format!("union {} ({rule}){dep}\n", item.name));
                for (i, v) in u.variants.iter().enumerate() {
                    let mut tags: Vec<String> = v.tags.iter().map(|t| t.value.to_json()).collect();
                    if let Some(sel) = &u.selector {
                        tags.extend(sel.tags.iter().filter(|(_, k)| *k == i).map(|(t, _)| format!("{t:?}")));
                    }
                    if u.fallback == Some(i) {
                        tags.push("any other".into());
                    }
                    let tags = if tags.is_empty() { String::new() } else { format!(" = {}", tags.join(" | ")) };
                    out.push_str(&format!("  {}: {}{tags}\n", v.name, v.ty.describe()));
                }
            }
            ItemKind::Enum(e) => {
                let open = if e.open { " (open)" } else { "" };
                out.push_str(&format!("enum {}{open}{dep}\n", item.name));
                for v in &e.values {
                    let vdep = if v.deprecated.is_some() { " [deprecated]" } else { "" };
                    out.push_str(&format!("  {} = {:?}{vdep}\n", v.rust, v.value));
                }
            }
            ItemKind::Alias(t) => out.push_str(&format!("type {} = {}{dep}\n", item.name, t.describe())),
            ItemKind::Const(l) => out.push_str(&format!("const {} = {}{dep}\n", item.name, l.value.to_json())),
        }
    }
    out
}

impl Revision {
    /// The schema path of an item: its name when declared; for an inline type,
    /// the path of the member it is the type of (`ClientCapabilities.sampling`),
    /// with `[]` for array elements, `{}` for map values and `|N` for the Nth
    /// member of a union. The registry and the diff name things by these paths.
    pub fn path_of(&self, item: &Item) -> String {
        let mut path = String::new();
        self.push_path(item, &mut path, 0);
        path
    }

    fn push_path(&self, item: &Item, out: &mut String, depth: usize) {
        match &item.origin {
            Origin::Inline { parent, field, suffix } if depth < 32 => {
                match self.item(parent) {
                    Some(p) => self.push_path(p, out, depth + 1),
                    None => out.push_str(parent),
                }
                if !field.is_empty() {
                    out.push('.');
                    out.push_str(&member_segment(field));
                }
                match suffix {
                    Some("Item") => out.push_str("[]"),
                    Some("Value") => out.push_str("{}"),
                    Some(s) => {
                        if let Some(n) = s.strip_prefix("Variant") {
                            out.push('|');
                            out.push_str(n);
                        }
                    }
                    None => {}
                }
            }
            _ => out.push_str(&item.name),
        }
    }
}

/// A member's wire name as a path segment: as written when it is an identifier,
/// JSON-quoted otherwise (`"io.modelcontextprotocol/logLevel"`), so a path splits
/// unambiguously on `.`.
pub fn member_segment(wire: &str) -> String {
    let mut chars = wire.chars();
    let ident_like = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident_like { wire.to_string() } else { serde_json::to_string(wire).unwrap_or_default() }
}

/// An enum value as a path segment: always JSON-quoted (`"thisServer"`).
pub fn value_segment(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// One step of a [`Revision::path_of`] path after its first name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStep {
    /// `.name` or `."quoted"`: a member, or a value of an enum.
    Member(String),
    /// `[]`: the elements of an array.
    Items,
    /// `{}`: the values of a map.
    Values,
    /// `|N`: the Nth member of a union (1-based).
    Variant(usize),
}

/// Splits a path into its first name and its steps; `None` when malformed.
pub fn parse_path(path: &str) -> Option<(String, Vec<PathStep>)> {
    let end = path.find(['.', '[', '{', '|']).unwrap_or(path.len());
    let (head, mut rest) = path.split_at(end);
    if head.is_empty() {
        return None;
    }
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[]") {
            steps.push(PathStep::Items);
            rest = r;
        } else if let Some(r) = rest.strip_prefix("{}") {
            steps.push(PathStep::Values);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('|') {
            let n: String = r.chars().take_while(char::is_ascii_digit).collect();
            steps.push(PathStep::Variant(n.parse().ok()?));
            rest = &r[n.len()..];
        } else if let Some(r) = rest.strip_prefix('.') {
            if r.starts_with('"') {
                // A JSON string: find its closing quote, honouring escapes.
                let mut de = serde_json::Deserializer::from_str(r).into_iter::<String>();
                let s = de.next()?.ok()?;
                let used = de.byte_offset();
                steps.push(PathStep::Member(s));
                rest = &r[used..];
            } else {
                let end = r.find(['.', '[', '{', '|']).unwrap_or(r.len());
                if end == 0 {
                    return None;
                }
                steps.push(PathStep::Member(r[..end].to_string()));
                rest = &r[end..];
            }
        } else {
            return None;
        }
    }
    Some((head.to_string(), steps))
}

/// What a path leads to in one revision.
#[derive(Clone, Debug)]
pub struct Resolved<'a> {
    /// The path under which this revision declares the thing (a field under the
    /// type that declares it, not one that inherits it).
    pub canonical: String,
    pub target: Target<'a>,
}

#[derive(Clone, Debug)]
pub enum Target<'a> {
    Item(&'a Item),
    Field(&'a Item, &'a Field),
    Value(&'a Item, &'a EnumValue),
    /// A type reached through `[]`, `{}` or `|N` that is not an item of its own.
    Type(Type),
}

impl Target<'_> {
    pub fn deprecation(&self) -> Option<&Deprecation> {
        match self {
            Target::Item(i) => i.docs.deprecated.as_ref(),
            Target::Field(_, f) => f.docs.deprecated.as_ref(),
            Target::Value(_, v) => v.deprecated.as_ref(),
            Target::Type(_) => None,
        }
    }
}

impl Revision {
    /// Follows a path through this revision's types, looking through declared
    /// names, aliases and `| null`, so a path written against another revision
    /// finds the same member after a type was named or a field moved into a base.
    pub fn resolve_path(&self, path: &str) -> Option<Resolved<'_>> {
        let (head, steps) = parse_path(path)?;
        let mut item = self.item(&head)?;
        let mut target = Target::Item(item);
        for step in steps {
            let ty = match &target {
                Target::Item(i) => Type::Named(i.name.clone()),
                Target::Field(_, f) => f.ty.clone(),
                Target::Type(t) => t.clone(),
                Target::Value(..) => return None,
            };
            let ty = self.unwrap_type(ty);
            target = match (step, ty) {
                (PathStep::Member(m), Type::Named(n)) => {
                    item = self.item(&n)?;
                    match &item.kind {
                        ItemKind::Struct(s) => Target::Field(item, s.field(&m)?),
                        ItemKind::Enum(e) => Target::Value(item, e.values.iter().find(|v| v.value == m)?),
                        _ => return None,
                    }
                }
                (PathStep::Items, Type::Array(t)) | (PathStep::Values, Type::Map(t)) => self.as_target(*t),
                (PathStep::Values, Type::Named(n)) => match &self.item(&n)?.kind {
                    ItemKind::Struct(Struct { index: Some(t), .. }) => self.as_target(t.clone()),
                    _ => return None,
                },
                (PathStep::Variant(k), Type::Named(n)) => match &self.item(&n)?.kind {
                    ItemKind::Union(u) => self.as_target(u.variants.get(k.checked_sub(1)?)?.ty.clone()),
                    _ => return None,
                },
                _ => return None,
            };
        }
        let canonical = match &target {
            Target::Item(i) => self.path_of(i),
            Target::Field(i, f) => {
                let owner = self.item(&f.declared_in).unwrap_or(i);
                format!("{}.{}", self.path_of(owner), member_segment(&f.wire))
            }
            Target::Value(i, v) => format!("{}.{}", self.path_of(i), value_segment(&v.value)),
            Target::Type(_) => path.to_string(),
        };
        Some(Resolved { canonical, target })
    }

    /// A type reached by `[]`, `{}` or `|N`: the item when it names one.
    fn as_target(&self, t: Type) -> Target<'_> {
        match &t {
            Type::Named(n) => match self.item(n) {
                Some(i) => Target::Item(i),
                None => Target::Type(t),
            },
            _ => Target::Type(t),
        }
    }

    /// Looks through `| null` and aliases to the type that has members.
    fn unwrap_type(&self, mut t: Type) -> Type {
        for _ in 0..32 {
            t = match t {
                Type::Nullable(inner) => *inner,
                Type::Named(n) => match self.item(&n).map(|i| &i.kind) {
                    Some(ItemKind::Alias(inner)) => inner.clone(),
                    _ => return Type::Named(n),
                },
                other => return other,
            };
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_into_steps() {
        let (head, steps) = parse_path(r#"A.b."io.x/y".c[]{}|2."v""#).unwrap();
        assert_eq!(head, "A");
        assert_eq!(
            steps,
            vec![
                PathStep::Member("b".into()),
                PathStep::Member("io.x/y".into()),
                PathStep::Member("c".into()),
                PathStep::Items,
                PathStep::Values,
                PathStep::Variant(2),
                PathStep::Member("v".into()),
            ]
        );
        assert_eq!(parse_path("A..b"), None);
        assert_eq!(parse_path(".b"), None);
        assert_eq!(parse_path("A.\"open"), None);
        assert_eq!(member_segment("io.x/y"), "\"io.x/y\"");
        assert_eq!(member_segment("_meta"), "_meta");
    }
}
