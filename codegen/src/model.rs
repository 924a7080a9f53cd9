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
}

/// A union of several types, decided by a discriminator or by shape.
#[derive(Clone, Debug)]
pub struct Union {
    pub variants: Vec<Variant>,
    /// The wire name of a field every member fixes to distinct values.
    pub discriminator: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Variant {
    /// The Rust variant name.
    pub name: String,
    pub ty: Type,
    /// With a discriminator: the values that select this variant.
    pub tags: Vec<Literal>,
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
                    let fdep = if f.docs.deprecated.is_some() { " [deprecated]" } else { "" };
                    out.push_str(&format!("  {}{opt}: {}{fdep}\n", f.wire, f.ty.describe()));
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
                out.push_str(&format!("union {} ({rule}){dep}\n", item.name));
                for v in &u.variants {
                    let tags: Vec<String> = v.tags.iter().map(|t| t.value.to_json()).collect();
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
