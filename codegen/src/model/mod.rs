//! The model: what a revision of the schema means, resolved and named, with docs
//! and spans for diagnostics. It owns no swc node and no token. The emitter, the
//! deprecation registry and the revision diff all read it.
//!
//! Every item has a name that is unique within its revision (declared names verbatim,
//! inline types named from their parent and field), and types refer to items by name.
//! Items are kept sorted by name, so everything derived from the model is ordered.
//!
//! What the generated Rust makes of a member is decided once, in `lower`, and kept
//! here as the member's [`Role`]; every stage asks the role instead of deciding again.

mod outline;
mod paths;

pub use outline::outline;
pub use paths::*;

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
    /// For an extension: the core revision whose types it names (`Result`,
    /// `JSONRPCRequest`). Its items are looked up through [`Revision::item`] but
    /// are not this revision's: `items` holds the extension's own.
    pub core: Option<Box<Revision>>,
    /// For an extension: the core items it declares again with its own
    /// members, each by the core's name, with the name it has here
    /// (`ServerResult` → `ServerResultWithTasks`).
    pub widened: BTreeMap<String, String>,
}

/// How many aliases in a row are looked through before giving up. `check`
/// rejects aliases that stand for each other and unions among their own members
/// (through unions and aliases alone), so in a checked model every such chain
/// ends; the bound only keeps a model that has not been checked yet from looping.
pub const ALIAS_DEPTH: usize = 64;

impl Revision {
    /// An item of this revision, or, for an extension, of the core revision it extends.
    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.get(name).or_else(|| self.core.as_deref()?.item(name))
    }

    /// Whether `name` is this revision's own item (not a core revision's).
    pub fn owns(&self, name: &str) -> bool {
        self.items.contains_key(name)
    }

    /// What `t` stands for once aliases are looked through: a non-alias item's
    /// name, or a type that is not a name. The one alias resolver: every stage
    /// that needs to see through `type X = Y` asks this.
    pub fn canonical<'a>(&'a self, t: &'a Type) -> &'a Type {
        resolve_aliases(|n| self.item(n), t)
    }

    /// The struct `name` is, directly or through aliases.
    pub fn struct_of(&self, name: &str) -> Option<&Struct> {
        let named = Type::Named(name.to_string());
        match self.canonical(&named) {
            Type::Named(n) => match &self.item(n)?.kind {
                ItemKind::Struct(s) => Some(s),
                _ => None,
            },
            _ => None,
        }
    }
}

/// [`Revision::canonical`] over items that are not yet a revision (in `lower`).
pub fn canonical<'a>(items: &'a BTreeMap<String, Item>, t: &'a Type) -> &'a Type {
    resolve_aliases(|n| items.get(n), t)
}

/// The one alias resolver, over any way of finding an item by name (a
/// revision, the items `lower` is building, a closure): what `t` stands for once
/// `type X = Y` is looked through, at most [`ALIAS_DEPTH`] times.
pub fn resolve_aliases<'a>(item: impl Fn(&str) -> Option<&'a Item>, mut t: &'a Type) -> &'a Type {
    for _ in 0..ALIAS_DEPTH {
        match t {
            Type::Named(n) => match item(n).map(|i| &i.kind) {
                Some(ItemKind::Alias(inner)) => t = inner,
                _ => return t,
            },
            _ => return t,
        }
    }
    t
}

/// [`Revision::struct_of`] over items that are not yet a revision.
pub fn struct_of<'a>(items: &'a BTreeMap<String, Item>, name: &str) -> Option<&'a Struct> {
    let named = Type::Named(name.to_string());
    match canonical(items, &named) {
        Type::Named(n) => match &items.get(n.as_str())?.kind {
            ItemKind::Struct(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
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
    /// named `ClientCapabilitiesSampling`; `field` is empty for the body of an
    /// alias or a union member. `role` says which part of the member it is.
    Inline { parent: String, field: String, role: InlineRole },
}

/// Which part of its parent's member an inline type is: its name adds
/// [`InlineRole::suffix`], its path [`InlineRole::path_step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InlineRole {
    /// The member's type itself: `ClientCapabilities.sampling` → `ClientCapabilitiesSampling`.
    Member,
    /// The elements of an array: `…Item`, path `[]`.
    Item,
    /// The values of a map or index signature: `…Value`, path `{}`.
    Value,
    /// The Nth (1-based) member of a union: `…VariantN`, path `|N`.
    Variant(usize),
}

impl InlineRole {
    pub fn suffix(self) -> String {
        match self {
            InlineRole::Member => String::new(),
            InlineRole::Item => "Item".into(),
            InlineRole::Value => "Value".into(),
            InlineRole::Variant(n) => format!("Variant{n}"),
        }
    }

    pub fn path_step(self) -> String {
        match self {
            InlineRole::Member => String::new(),
            InlineRole::Item => "[]".into(),
            InlineRole::Value => "{}".into(),
            InlineRole::Variant(n) => format!("|{n}"),
        }
    }
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
    /// The Rust field that keeps the members the schema does not name: `extra`,
    /// unless a member already has that name.
    pub extra: String,
}

impl Struct {
    pub fn field(&self, wire: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.wire == wire)
    }
    /// Fields whose value is fixed by a literal type: always written, checked on read.
    pub fn fixed(&self) -> impl Iterator<Item = (&Field, &Literal)> {
        self.fields.iter().filter_map(|f| f.role.fixed().map(|l| (f, l)))
    }
    /// The fields that are Rust fields (every one but the fixed ones), in order.
    pub fn stored(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|f| f.role.has_rust_field())
    }
}

/// What a member is to the generated type, decided once in `lower`.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// Required with a literal type (`method: "tools/call"`): no Rust field; always
    /// written, checked when read, an associated const.
    Fixed(Literal),
    /// Required: absence is an error.
    Required,
    /// Required, but read as this value when absent, from an `@default` tag or
    /// the spec's own wording ("treat the absent field as `"complete"`"); always
    /// written.
    Defaulted(Literal),
    /// Optional (`name?: T`): an `Option`, left out when `None`.
    Optional,
}

impl Role {
    /// Required in the schema (no `?`), whether or not a default fills it in.
    pub fn is_required(&self) -> bool {
        !matches!(self, Role::Optional)
    }
    /// Required, and without a default: absence is an error.
    pub fn must_be_present(&self) -> bool {
        matches!(self, Role::Fixed(_) | Role::Required)
    }
    pub fn fixed(&self) -> Option<&Literal> {
        match self {
            Role::Fixed(l) => Some(l),
            _ => None,
        }
    }
    pub fn default(&self) -> Option<&Literal> {
        match self {
            Role::Defaulted(l) => Some(l),
            _ => None,
        }
    }
    /// Every member but a fixed one is a field of the Rust struct.
    pub fn has_rust_field(&self) -> bool {
        !matches!(self, Role::Fixed(_))
    }
    /// The role of a member as written: `optional` for `name?:`, else decided by
    /// its type and its default.
    pub fn of(optional: bool, ty: &Type, default: Option<Literal>) -> Role {
        match (optional, ty, default) {
            (true, _, _) => Role::Optional,
            (false, Type::Literal(l), _) => Role::Fixed(l.clone()),
            (false, _, Some(d)) => Role::Defaulted(d),
            (false, _, None) => Role::Required,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Field {
    /// The key on the wire.
    pub wire: String,
    /// The snake_case Rust name (without `r#`).
    pub rust: String,
    pub ty: Type,
    pub role: Role,
    pub docs: Docs,
    pub span: Span,
    /// The interface that declared (or last redeclared) the field.
    pub declared_in: String,
    /// Held in a `Box`: the field closes a cycle of types that contain each other
    /// by value, which Rust can only size through a pointer.
    pub boxed: bool,
}

impl Field {
    pub fn is_required(&self) -> bool {
        self.role.is_required()
    }
    pub fn must_be_present(&self) -> bool {
        self.role.must_be_present()
    }
}

/// A union of several types, decided by a discriminator or by shape.
#[derive(Clone, Debug)]
pub struct Union {
    pub variants: Vec<Variant>,
    /// How the union is read: decided once, by `lower::union_rules`; every later
    /// stage (emit, docs, samples, the diff) matches on it.
    pub rule: UnionRule,
}

/// How a union is read.
#[derive(Clone, Debug, Default)]
pub enum UnionRule {
    /// By the value of `field`, which every member fixes to distinct values
    /// (`type`, `method`; each member's values are its `tags`). `fallback`: the
    /// member (without tags of its own) that reads any other value, so a method
    /// this revision does not know passes through as a generic request instead
    /// of failing.
    Tagged { field: String, fallback: Option<usize> },
    /// By the rule of `choose`: the input's kind and keys, after the value of
    /// a selector field when there is one (`resultType: "input_required"` →
    /// `InputRequiredResult`).
    #[default]
    Shape,
    /// [`Shape`](UnionRule::Shape), with a selector field first.
    Selected(Selector),
    /// Members that are JSON scalars of distinct kinds (`string | integer`): the
    /// shape rule's first step, the input's kind, alone decides, so serde's own
    /// first look at the value is the whole decision.
    Kind,
}

impl Union {
    /// The field whose value decides, for a union read by one.
    pub fn tag_field(&self) -> Option<&str> {
        match &self.rule {
            UnionRule::Tagged { field, .. } => Some(field),
            _ => None,
        }
    }

    /// The member that reads a tag no other member has.
    pub fn fallback(&self) -> Option<usize> {
        match &self.rule {
            UnionRule::Tagged { fallback, .. } => *fallback,
            _ => None,
        }
    }

    /// The selector field read first, for a union decided by shape.
    pub fn selector(&self) -> Option<&Selector> {
        match &self.rule {
            UnionRule::Selected(s) => Some(s),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Selector {
    /// The field's wire name: `resultType`.
    pub field: String,
    /// The string enum that types the field (`ResultType`): the values it lists.
    pub values_of: String,
    /// A value and the index of the member it selects.
    pub tags: Vec<(String, usize)>,
    /// The member, added by `lower`, that reads a value the enum does not list: the
    /// members' common base, which keeps the object whole (`Other(Result)`).
    pub other: Option<usize>,
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

/// Documentation of an item or field, read from its JSDoc. Only `deprecated`
/// reaches the Rust items (as
/// `#[deprecated]`); the rest shapes the doc text alone, which is what lets two
/// revisions whose docs differ share one module (`emit::share`).
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
    /// Corrections the generator's override table made here, each with its reason
    /// (see `lower::overrides`).
    pub overrides: Vec<String>,
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
