//! The Rust-facing view of the model: what a model type, a member or a fixed
//! value is called in the generated Rust. Decided here once; `emit` writes it,
//! the diff compares it (a change of Rust type breaks the API), the docs link to
//! it and `check` makes sure the names can exist.

use std::fmt;

use crate::model::{Field, Item, ItemKind, LiteralValue, Revision, Role, Struct, Type};
use crate::names::{field_ident, snake_case};

/// A Rust type as the generated code spells it: a path, or a generic path with
/// arguments. Printed as text (`Display`) for reports and comparisons, and as
/// tokens by `emit`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RustType {
    /// `i64`, `TextContent`, `::serde_json::Value`.
    Path(String),
    /// `Vec<T>`, `Option<T>`, `::std::collections::BTreeMap<String, T>`.
    Generic(String, Vec<RustType>),
}

impl fmt::Display for RustType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RustType::Path(p) => f.write_str(p),
            RustType::Generic(p, args) => {
                write!(f, "{p}<")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(">")
            }
        }
    }
}

/// How a [`RustType`] names things.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// As the revision's module writes it: aliases by their name, prelude names
    /// (`Option`, `Vec`) unless the revision declares a type that shadows one.
    Module,
    /// What the type is, for comparing two revisions' APIs: aliases seen through
    /// (they are `type` aliases, so they change nothing), short names.
    Api,
}

/// The Rust types of one revision's model.
#[derive(Clone, Copy)]
pub struct RustTypes<'a> {
    pub rev: &'a Revision,
    pub spelling: Spelling,
}

impl<'a> RustTypes<'a> {
    pub fn module(rev: &'a Revision) -> Self {
        RustTypes { rev, spelling: Spelling::Module }
    }

    pub fn api(rev: &'a Revision) -> Self {
        RustTypes { rev, spelling: Spelling::Api }
    }

    /// The Rust type of a model type.
    pub fn of(&self, t: &Type) -> RustType {
        match t {
            Type::String => self.prelude("String", "::std::string::String"),
            Type::Integer => RustType::Path("i64".into()),
            Type::Number => RustType::Path("f64".into()),
            Type::Boolean => RustType::Path("bool".into()),
            Type::Json => self.json(),
            Type::Named(n) => match (self.spelling, self.rev.item(n).map(|i| &i.kind)) {
                (Spelling::Api, Some(ItemKind::Alias(inner))) => self.of(inner),
                _ => RustType::Path(n.clone()),
            },
            Type::Array(t) => self.generic("Vec", "::std::vec::Vec", vec![self.of(t)]),
            // An open object of anything is kept as text, member by member
            // (`Extra`): a proxy passes it on without parsing it.
            Type::Map(t) if **t == Type::Json => match self.spelling {
                Spelling::Module => RustType::Path("crate::Extra".into()),
                Spelling::Api => RustType::Path("Extra".into()),
            },
            Type::Map(t) => {
                let key = self.prelude("String", "::std::string::String");
                let map = match self.spelling {
                    Spelling::Module => "crate::IndexMap",
                    Spelling::Api => "IndexMap",
                };
                RustType::Generic(map.into(), vec![key, self.of(t)])
            }
            Type::Nullable(t) => self.option(self.of(t)),
            // A literal outside a member of its own (in a union or an array) is
            // read as its base type.
            Type::Literal(l) => match l.value {
                LiteralValue::Str(_) => self.prelude("String", "::std::string::String"),
                LiteralValue::Int(_) => RustType::Path("i64".into()),
                LiteralValue::Float(_) => RustType::Path("f64".into()),
                LiteralValue::Bool(_) => RustType::Path("bool".into()),
            },
        }
    }

    /// The type of a member's value, in a `Box` when the member closes a cycle of
    /// by-value containment (`Option<Box<T>>` for `T | null`).
    pub fn boxed(&self, t: &Type, boxed: bool) -> RustType {
        if !boxed {
            return self.of(t);
        }
        match t {
            Type::Nullable(inner) => self.option(self.boxed(inner, true)),
            other => self.generic("Box", "::std::boxed::Box", vec![self.of(other)]),
        }
    }

    /// The type of a struct's Rust field: the member's type, in an `Option` when
    /// the member is optional. `None` for a fixed member, which has no field.
    pub fn field(&self, f: &Field) -> Option<RustType> {
        let inner = self.boxed(&f.ty, f.boxed);
        match f.role {
            Role::Fixed(_) => None,
            Role::Optional => Some(self.option(inner)),
            Role::Required | Role::Defaulted(_) => Some(inner),
        }
    }

    pub fn option(&self, inner: RustType) -> RustType {
        self.generic("Option", "::std::option::Option", vec![inner])
    }

    fn json(&self) -> RustType {
        match self.spelling {
            Spelling::Module => RustType::Path("::serde_json::Value".into()),
            Spelling::Api => RustType::Path("Value".into()),
        }
    }

    fn generic(&self, name: &str, full: &str, args: Vec<RustType>) -> RustType {
        match self.prelude(name, full) {
            RustType::Path(p) => RustType::Generic(p, args),
            generic => generic,
        }
    }

    /// A prelude name as written, unless this revision declares a type of that
    /// name, which would shadow it in the module: then the full path.
    fn prelude(&self, name: &str, full: &str) -> RustType {
        let shadowed = self.spelling == Spelling::Module && self.rev.item(name).is_some();
        RustType::Path(if shadowed { full } else { name }.to_string())
    }
}

/// The Rust expression of a member's default value, or `None` when the value
/// is not one of the member's type (through aliases, to the enum or primitive
/// they name). The one test of a default: `lower` drops a default this gives
/// no expression for (with a warning), so emit never meets one.
pub fn default_expr<'a>(item: impl Fn(&str) -> Option<&'a Item>, ty: &'a Type, v: &LiteralValue) -> Option<String> {
    // Through aliases, to the enum or primitive they name.
    let t = crate::model::resolve_aliases(&item, ty);
    match (t, v) {
        (Type::String, LiteralValue::Str(s)) => Some(format!("::std::string::String::from({s:?})")),
        (Type::Integer, LiteralValue::Int(i)) => Some(i.to_string()),
        (Type::Number, LiteralValue::Int(i)) => Some(format!("{:?}", *i as f64)),
        (Type::Number, LiteralValue::Float(f)) => Some(format!("{f:?}")),
        (Type::Boolean, LiteralValue::Bool(b)) => Some(b.to_string()),
        (Type::Named(n), LiteralValue::Str(s)) => match item(n).map(|i| &i.kind) {
            Some(ItemKind::Enum(e)) => match e.values.iter().find(|v| &v.value == s) {
                Some(v) => Some(format!("{n}::{}", v.rust)),
                None if e.open => Some(format!("{n}::Other(::std::string::String::from({s:?}))")),
                None => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// Whether a struct's `new` takes this member as a parameter: a required one,
/// or an optional one that may be `null` (absent and `null` differ there, an
/// error's `id`: the caller says which). Every other member starts at `None` or
/// its default. The builders and the diff's api verdicts both ask this.
pub fn new_takes(f: &Field) -> bool {
    match &f.role {
        Role::Required => true,
        Role::Optional => matches!(f.ty, Type::Nullable(_)),
        Role::Defaulted(_) | Role::Fixed(_) => false,
    }
}

/// The members a struct's `new` takes, in the order it takes them: the
/// schema's, but a JSON-RPC `id` first, as envelopes are read
/// (`ListToolsRequest::new(id, params)`). A struct whose `new` takes none has
/// `Default`.
pub fn new_params(s: &Struct) -> Vec<&Field> {
    let mut params: Vec<&Field> = s.stored().filter(|f| new_takes(f)).collect();
    params.sort_by_key(|f| f.wire != "id");
    params
}

/// The Rust name of a member's field (`r#type`, `self_`), or of its const for
/// a fixed member (`METHOD`).
pub fn member_name(f: &Field) -> String {
    match f.role {
        Role::Fixed(_) => const_name(&f.wire),
        _ => field_ident(&f.rust),
    }
}

/// The associated const of a fixed member: `method` → `METHOD`.
pub fn const_name(wire: &str) -> String {
    snake_case(wire).to_uppercase()
}

/// True when `t` is `serde_json::Value`, directly or through aliases.
pub fn is_json(rev: &Revision, t: &Type) -> bool {
    matches!(rev.canonical(t), Type::Json)
}

/// True when a value of `t` can hold an object (whose kept members are text).
pub fn holds_objects(rev: &Revision, t: &Type) -> bool {
    fn go(rev: &Revision, t: &Type, depth: usize) -> bool {
        if depth > crate::model::ALIAS_DEPTH {
            return true;
        }
        match rev.canonical(t) {
            Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
                Some(ItemKind::Struct(_)) => true,
                Some(ItemKind::Union(u)) => u.variants.iter().any(|v| go(rev, &v.ty, depth + 1)),
                _ => false,
            },
            Type::Array(t) | Type::Map(t) | Type::Nullable(t) => go(rev, t, depth + 1),
            _ => false,
        }
    }
    go(rev, t, 0)
}

/// How the runtime reads and writes the numbers in a value of `t`: an `f64`
/// that holds a whole number is written without a fraction (`50` stays `50`); an
/// `i64` is read from any JSON number with no fractional part (`100.0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberWrap {
    Plain,
    Float,
    NullableFloat,
    FloatSeq,
    Int,
    NullableInt,
}

impl NumberWrap {
    /// The wrap of a member (or union member) of type `t`, aliases looked
    /// through: a member typed by an alias of `integer` reads whole floats as a
    /// member typed `integer` does (`rule::reads` says the same of them).
    pub fn of(rev: &Revision, t: &Type) -> NumberWrap {
        match rev.canonical(t) {
            Type::Number => NumberWrap::Float,
            Type::Integer => NumberWrap::Int,
            Type::Nullable(inner) => match rev.canonical(inner) {
                Type::Number => NumberWrap::NullableFloat,
                Type::Integer => NumberWrap::NullableInt,
                _ => NumberWrap::Plain,
            },
            Type::Array(inner) if *rev.canonical(inner) == Type::Number => NumberWrap::FloatSeq,
            _ => NumberWrap::Plain,
        }
    }

    /// The word the runtime's macros take after `as`, if any.
    pub fn word(self) -> Option<&'static str> {
        match self {
            NumberWrap::Plain => None,
            NumberWrap::Float => Some("float"),
            NumberWrap::NullableFloat => Some("nullable_float"),
            NumberWrap::FloatSeq => Some("float_seq"),
            NumberWrap::Int => Some("int"),
            NumberWrap::NullableInt => Some("nullable_int"),
        }
    }
}

/// The traits a generated type gets beyond `Clone, Debug, PartialEq`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Derives {
    /// `Eq` and `Hash`: every value it can hold has them (no `f64`, no kept
    /// members), so it can key a map (`RequestId`, `ProgressToken`).
    pub eq_hash: bool,
    /// `Display`: every member is a string, a number or a boolean, shown as is.
    pub display: bool,
}

/// What a union derives (structs and enums have fixed derives).
pub fn union_derives(rev: &Revision, u: &crate::model::Union) -> Derives {
    Derives {
        eq_hash: u.variants.iter().all(|v| eq_hash(rev, &v.ty, 0)),
        display: u
            .variants
            .iter()
            .all(|v| matches!(rev.canonical(&v.ty), Type::String | Type::Integer | Type::Number | Type::Boolean)),
    }
}

fn eq_hash(rev: &Revision, t: &Type, depth: usize) -> bool {
    if depth > crate::model::ALIAS_DEPTH {
        return false;
    }
    match rev.canonical(t) {
        Type::String | Type::Integer | Type::Boolean => true,
        Type::Literal(l) => !matches!(l.value, LiteralValue::Float(_)),
        Type::Array(t) | Type::Nullable(t) => eq_hash(rev, t, depth + 1),
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Enum(_)) => true,
            Some(ItemKind::Union(u)) => u.variants.iter().all(|v| eq_hash(rev, &v.ty, depth + 1)),
            _ => false,
        },
        _ => false,
    }
}
