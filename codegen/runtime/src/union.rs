//! Unions: the `union!` macro each generated enum of types calls, the first
//! look at its input (kind, keys, the selector's or discriminator's value) and
//! the reading of the chosen member from the input's text, with errors that name
//! the member and the JSON path inside it.
//!
//! Forms of a call:
//!
//! - `union! { Name by "field" { A(TypeA) = ["a"], B(TypeB) = ["b", "bee"], Other(Base) = _ } }`:
//!   the member is the one whose values include the field's (`_` reads any other value);
//! - `union! { Name by shape { A(TypeA), B(i64) as int } }`: by the rule of `choose`;
//! - `union! { Name by kind { A(String), B(i64) as int } }`: the same rule, for members that
//!   are scalars of distinct kinds, whose first step alone decides: read through serde,
//!   from the value serde hands over, with nothing captured;
//! - `union! { Name by shape, "resultType" (ResultType) picks { "input_required" => B }, unlisted Other { .. } }`:
//!   with a selector field.
//!
//! The input is taken as JSON text (`RawValue`): only the keys and one value are
//! looked at to choose, then the member is read from the text once, so the members
//! it keeps stay text too. (A union decided by kind, read through serde, needs no
//! text: the kind of the value serde hands over is the whole decision. A union
//! whose members are all objects, decided by shape or by a field, read through
//! serde, takes its input's members one by one instead, each key with its
//! value's text, and reads the member from those: see `pairs`.)

use std::borrow::Cow;

use serde::de::{self, DeserializeOwned};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::choose::{Look, Members, OBJECT, Selector, join, kind_name, kinds_names};
use crate::fixed::Fixed;
use crate::member::{Quiet, quiet, read_member};
use crate::scan::{Scanned, scan, scan_unless};

/// The members of a union as `choose` sees them: one entry per member, from each
/// member type's `Shape`.
pub struct MemberTable<'a> {
    pub kinds: &'a [u8],
    pub declares: &'a [fn(&str) -> bool],
    pub requirement: &'a [Requirement],
}

/// A member type's `Shape::requirement`.
pub type Requirement = fn(&[&str]) -> (usize, bool);

impl Members for MemberTable<'_> {
    fn count(&self) -> usize {
        self.kinds.len()
    }
    fn kinds(&self, i: usize) -> u8 {
        self.kinds[i]
    }
    fn declares(&self, i: usize, key: &str) -> bool {
        (self.declares[i])(key)
    }
    fn requirement(&self, i: usize, keys: &[&str]) -> (usize, bool) {
        (self.requirement[i])(keys)
    }
}

/// The position of `name` in `names` (for a union's selector, at compile time).
pub const fn position(names: &[&str], name: &str) -> usize {
    let mut i = 0;
    while i < names.len() {
        let (a, b) = (names[i].as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("no such member")
}

/// What a union's member is read from: the union's input as JSON text, with
/// the kind and keys the union found when it looked; or, read through serde,
/// the input's members taken one by one (see `pairs`), with their keys when
/// the union decided by shape.
#[derive(Clone, Copy)]
pub enum Input<'a, 'p> {
    Text(&'a str, Option<(u8, &'a [&'a str])>),
    Pairs(&'a [(Cow<'p, str>, Cow<'p, str>)], Option<&'a [&'a str]>),
}

/// Reads a union's member (one per member, in a table the union's rule indexes).
pub type Reader<U> = fn(Input<'_, '_>) -> Result<U, String>;

/// Reads a member type from its input (one function, so that each member's
/// reader is one call).
#[inline]
pub fn read_as<T: crate::shape::Shape + DeserializeOwned>(input: Input<'_, '_>) -> Result<T, String> {
    match input {
        Input::Text(text, Some((kind, keys))) => T::read_looked(text, kind, keys),
        Input::Text(text, None) => T::read_text(text),
        Input::Pairs(pairs, looked) => T::read_pairs(pairs, looked),
    }
}

/// [`read_as`] for a reading type (`Int`), which no union asks the shape of.
#[inline]
pub fn read_plain<T: DeserializeOwned>(input: Input<'_, '_>) -> Result<T, String> {
    match input {
        Input::Text(text, _) => read_member(text),
        Input::Pairs(pairs, _) => crate::pairs::read_pairs(pairs),
    }
}

/// A union's name and members, and how each member is read.
pub struct UnionOf<'a, U> {
    pub name: &'a str,
    pub members: &'a [&'a str],
    pub readers: &'a [Reader<U>],
}

/// The members the rule orders, tried in order: the first that reads, or the
/// errors of all. They are tried quietly first; only when none reads are they
/// read again, saying why each does not (unless this union is itself being
/// tried quietly, by one holding it).
#[inline]
fn try_in_order<U>(
    union: &UnionOf<'_, U>,
    table: &MemberTable<'_>,
    selector: Option<&Selector<'_>>,
    look: &Look<'_>,
    input: Input<'_, '_>,
) -> Result<U, String> {
    let order = crate::choose::order(table, selector, look);
    let quietly = Quiet::start();
    for i in order {
        if let Ok(value) = (union.readers[i])(input) {
            return Ok(value);
        }
    }
    let held_quietly = quietly.0;
    drop(quietly);
    if held_quietly {
        return Err(String::new());
    }
    explain_order(union, table, look.kind, order, input)
}

/// The error of a union none of whose members `order` read: each read again,
/// saying why it does not. (Out of line: only an error comes here, and each
/// union's inline reader stays smaller.)
#[cold]
#[inline(never)]
fn explain_order<U>(
    union: &UnionOf<'_, U>,
    table: &MemberTable<'_>,
    kind: u8,
    order: crate::choose::Order,
    input: Input<'_, '_>,
) -> Result<U, String> {
    let mut errors = Vec::new();
    for i in order {
        match (union.readers[i])(input) {
            // Reading does not depend on being quiet, so this is not expected.
            Ok(value) => return Ok(value),
            Err(e) => errors.push((i, e)),
        }
    }
    Err(union_error(union.name, union.members, table.kinds, kind, &errors))
}

/// Reads a union decided by shape from JSON text whose kind and keys a union
/// holding this one has already found (`looked`), or looks itself.
#[inline]
pub fn shape_from_text<U>(
    union: &UnionOf<'_, U>,
    table: &MemberTable<'_>,
    selector: Option<&Selector<'_>>,
    text: &str,
    looked: Option<(u8, &[&str])>,
) -> Result<U, String> {
    let scanned = scan_unless(text, selector.map(|s| s.field), looked).map_err(|e| format!("{}: {e}", union.name))?;
    let own_keys = scanned.key_list();
    let (kind, keys) = looked.unwrap_or((scanned.kind, &own_keys[..]));
    let selected = scanned.field.as_ref().and_then(Value::as_str);
    try_in_order(union, table, selector, &Look { kind, keys, selected }, Input::Text(text, Some((kind, keys))))
}

/// Reads a union decided by shape from an object's members, with the keys a
/// union holding this one has already found (`looked`).
#[inline]
pub fn shape_from_pairs<U>(
    union: &UnionOf<'_, U>,
    table: &MemberTable<'_>,
    selector: Option<&Selector<'_>>,
    pairs: &[(Cow<'_, str>, Cow<'_, str>)],
    looked: Option<&[&str]>,
) -> Result<U, String> {
    let own_keys;
    let keys = match looked {
        Some(keys) => keys,
        None => {
            own_keys = crate::pairs::keys_of(pairs);
            &own_keys[..]
        }
    };
    let field = crate::pairs::field_of(pairs, selector.map(|s| s.field)).map_err(|e| format!("{}: {e}", union.name))?;
    let selected = field.as_ref().and_then(Value::as_str);
    try_in_order(union, table, selector, &Look { kind: OBJECT, keys, selected }, Input::Pairs(pairs, Some(keys)))
}

/// Reads a discriminated union from JSON text.
#[inline]
pub fn tag_from_text<U>(union: &UnionOf<'_, U>, rule: &TagRule<'_>, text: &str) -> Result<U, String> {
    let scanned = scan(text, Some(rule.field), false).map_err(|e| format!("{}: {e}", union.name))?;
    read_tagged(union, by_tag(rule, &scanned), Input::Text(text, None))
}

/// Reads a discriminated union from an object's members.
#[inline]
pub fn tag_from_pairs<U>(
    union: &UnionOf<'_, U>,
    rule: &TagRule<'_>,
    pairs: &[(Cow<'_, str>, Cow<'_, str>)],
) -> Result<U, String> {
    let field = crate::pairs::field_of(pairs, Some(rule.field)).map_err(|e| format!("{}: {e}", union.name))?;
    read_tagged(union, by_tag_of(rule, OBJECT, field.as_ref()), Input::Pairs(pairs, None))
}

/// Reads the member a discriminator's value chose (or says why none was; while
/// a union holding this one tries it quietly, the member's own error, unsaid).
#[inline]
fn read_tagged<U>(union: &UnionOf<'_, U>, which: Result<usize, String>, input: Input<'_, '_>) -> Result<U, String> {
    let which = which.map_err(|e| format!("{}: {e}", union.name))?;
    (union.readers[which])(input)
        .map_err(|e| if quiet() { e } else { union_error(union.name, union.members, &[], 0, &[(which, e)]) })
}

/// The error of a union none of whose candidates read: each candidate's own,
/// or, when no member can be a value of the input's kind, the kinds expected.
#[cold]
pub fn union_error(union: &str, names: &[&str], kinds: &[u8], kind: u8, errors: &[(usize, String)]) -> String {
    match errors {
        [] => {
            let all = kinds.iter().fold(0, |a, k| a | k);
            format!("{union}: expected {}, found {}", kinds_names(all), kind_name(kind))
        }
        // A member that is a union names itself first.
        [(i, e)] if e.starts_with(names[*i]) && e[names[*i].len()..].starts_with(": ") => format!("{union}: {e}"),
        [(i, e)] => format!("{union}: {}: {e}", names[*i]),
        many => {
            let list: Vec<&str> = many.iter().map(|(i, _)| names[*i]).collect();
            let each: Vec<String> = many.iter().map(|(i, e)| format!("{}: {e}", names[*i])).collect();
            let each: Vec<&str> = each.iter().map(String::as_str).collect();
            format!("{union}: the value is none of {} ({})", join(&list, ", "), join(&each, "; "))
        }
    }
}

/// How a discriminated union's field decides.
pub struct TagRule<'a> {
    pub field: &'a str,
    /// Per member, the values that select it.
    pub tags: &'a [&'a [Fixed]],
    /// The member that reads any other value.
    pub fallback: Option<usize>,
}

/// The member a discriminator's value selects, from the first look at the input.
pub fn by_tag(rule: &TagRule<'_>, scanned: &Scanned<'_>) -> Result<usize, String> {
    by_tag_of(rule, scanned.kind, scanned.field.as_ref())
}

/// The member a discriminator's value selects, from the input's kind and the
/// field's value when it has one.
pub fn by_tag_of(rule: &TagRule<'_>, kind: u8, field: Option<&Value>) -> Result<usize, String> {
    if kind != OBJECT {
        return Err(tag_kind_error(kind));
    }
    let Some(tag) = field else {
        return Err(format!("missing field `{}`", rule.field));
    };
    rule.tags.iter().position(|ts| ts.iter().any(|t| t.matches(tag))).or(rule.fallback).ok_or_else(|| {
        let expected: Vec<String> = rule.tags.iter().flat_map(|ts| ts.iter().map(|t| t.to_string())).collect();
        let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
        format!("unknown `{}` value {tag}, expected one of {}", rule.field, join(&expected, ", "))
    })
}

/// The error of a discriminated union for an input of another kind than an object.
pub fn tag_kind_error(kind: u8) -> String {
    format!("invalid type: {}, expected an object", kind_name(kind))
}

/// A JSON value as text, for reading a union from a `Value`.
pub fn to_raw(value: &Value) -> Result<Box<RawValue>, String> {
    serde_json::value::to_raw_value(value).map_err(|e| e.to_string())
}

/// The error of a union read through serde, from [`union_error`]'s parts.
#[cold]
pub fn union_error_of<E: de::Error>(
    union: &str,
    names: &[&str],
    kinds: &[u8],
    kind: u8,
    errors: &[(usize, String)],
) -> E {
    E::custom(union_error(union, names, kinds, kind, errors))
}

/// The impls of one generated union: `member_name`, reading (see each union's
/// docs for its rule) and writing, and the [`Shape`](crate::shape::Shape) its own unions ask of it.
///
/// Every reading entry point is `#[inline]`, and the rules are generic runtime
/// functions over the union's one table of member readers (`UnionOf`): each
/// reader reads its member with `serde_json`'s text reader or from an object's
/// members, which instantiates the member's whole serde code, and an inline
/// function is compiled only in the crates that call it (as serde's generic code
/// is), not in this one. Without it, this crate's own build compiled every
/// member's reader for every union, used or not.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_union {
    // Discriminated by a field's value.
    ($name:ident by $field:literal { $( $variant:ident ($ty:ty) $(as $wrap:ident)? = $tags:tt ),* $(,)? }) => {
        $crate::__mcp_union!(@common $name { $( $variant ($ty) $(as $wrap)? ),* });
        $crate::__mcp_union!(@pairs_deserialize $name);
        impl $crate::__private::Shape for $name {
            $crate::__mcp_union!(@shape_of $name { $( $variant ($ty) ),* });
            #[inline]
            fn read_pairs(
                pairs: &[(::std::borrow::Cow<'_, str>, ::std::borrow::Cow<'_, str>)],
                _looked: ::std::option::Option<&[&str]>,
            ) -> ::std::result::Result<Self, ::std::string::String> {
                <$name as $crate::__private::FromPairs>::from_pairs(pairs, ::std::option::Option::None)
            }
        }
        impl $name {
            /// Reads the union from JSON text, choosing the member as its docs say.
            #[inline]
            pub fn from_text(text: &str) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::__private::tag_from_text(&$name::UNION, &$crate::__mcp_union!(@rule $field { $( $tags ),* }), text)
            }
        }
        impl $crate::__private::FromPairs for $name {
            #[inline]
            fn from_pairs(
                pairs: &[(::std::borrow::Cow<'_, str>, ::std::borrow::Cow<'_, str>)],
                _looked: ::std::option::Option<&[&str]>,
            ) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::__private::tag_from_pairs(&$name::UNION, &$crate::__mcp_union!(@rule $field { $( $tags ),* }), pairs)
            }
            fn kind_error(kind: u8) -> ::std::string::String {
                ::std::format!("{}: {}", stringify!($name), $crate::__private::tag_kind_error(kind))
            }
        }
    };
    // Decided by shape, with a selector field.
    ($name:ident by shape, $sfield:literal ($sty:ty) picks { $( $pvalue:literal => $pick:ident ),* $(,)? } $(, unlisted $other:ident)?
        { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* $(,)? }) => {
        $crate::__mcp_union!(@common $name { $( $variant ($ty) $(as $wrap)? ),* });
        $crate::__mcp_union!(@pairs_deserialize $name);
        $crate::__mcp_union!(@shape $name { $( $variant ($ty) $(as $wrap)? ),* }
            ::std::option::Option::Some($crate::__private::Selector {
                field: $sfield,
                picks: &[ $( ($pvalue, $crate::__private::position($name::MEMBERS, stringify!($pick))) ),* ],
                listed: <$sty>::VALUES,
                other: $crate::__mcp_union!(@other $name $($other)?),
            }));
    };
    // Decided by kind: members that are JSON scalars of distinct kinds. The rule
    // is the one of `by shape`, whose first step alone decides here, so serde's
    // own first look at the value (`deserialize_any`) is the whole decision and
    // nothing is captured; `from_text` is that of `by shape`.
    ($name:ident by kind { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* $(,)? }) => {
        $crate::__mcp_union!(@common $name { $( $variant ($ty) $(as $wrap)? ),* });
        $crate::__mcp_union!(@shape $name { $( $variant ($ty) $(as $wrap)? ),* } ::std::option::Option::None);
        impl $name {
            /// Reads the member of the scalar's `kind` from `value`, with the
            /// errors `from_text` gives.
            #[inline]
            fn from_scalar<'de, D: ::serde::Deserializer<'de>>(kind: u8, value: D) -> ::std::result::Result<Self, D::Error> {
                $(
                    if <$ty as $crate::__private::Shape>::KINDS & kind != 0 {
                        return $crate::__mcp_union!(@scalar $name $variant ($ty) $($wrap)?, value).map_err(|e| {
                            let at = $crate::__private::position($name::MEMBERS, stringify!($variant));
                            $crate::__private::union_error_of(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, kind, &[(at, e.to_string())])
                        });
                    }
                )*
                ::std::result::Result::Err($crate::__private::union_error_of(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, kind, &[]))
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                use ::serde::de::IntoDeserializer as _;
                struct __McpKindVisitor;
                impl<'de> ::serde::de::Visitor<'de> for __McpKindVisitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(concat!("a value of ", stringify!($name)))
                    }
                    #[inline]
                    fn visit_bool<E: ::serde::de::Error>(self, v: bool) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::__private::BOOLEAN, v.into_deserializer())
                    }
                    #[inline]
                    fn visit_i64<E: ::serde::de::Error>(self, v: i64) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::__private::NUMBER, v.into_deserializer())
                    }
                    #[inline]
                    fn visit_u64<E: ::serde::de::Error>(self, v: u64) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::__private::NUMBER, v.into_deserializer())
                    }
                    #[inline]
                    fn visit_f64<E: ::serde::de::Error>(self, v: f64) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::__private::NUMBER, v.into_deserializer())
                    }
                    #[inline]
                    fn visit_str<E: ::serde::de::Error>(self, v: &str) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::__private::STRING, v.into_deserializer())
                    }
                    fn visit_unit<E: ::serde::de::Error>(self) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::__private::NULL, ().into_deserializer())
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, map: A) -> ::std::result::Result<$name, A::Error> {
                        match $crate::__private::number_or_skip(map)? {
                            // A number, from serde_json with `arbitrary_precision`.
                            ::std::option::Option::Some(number) => $name::from_text(&number).map_err(::serde::de::Error::custom),
                            ::std::option::Option::None => ::std::result::Result::Err($crate::__private::union_error_of(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, $crate::__private::OBJECT, &[])),
                        }
                    }
                    fn visit_seq<A: ::serde::de::SeqAccess<'de>>(self, seq: A) -> ::std::result::Result<$name, A::Error> {
                        $crate::__private::skip_seq(seq)?;
                        ::std::result::Result::Err($crate::__private::union_error_of(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, $crate::__private::ARRAY, &[]))
                    }
                }
                deserializer.deserialize_any(__McpKindVisitor)
            }
        }
    };
    // Decided by shape.
    ($name:ident by shape { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* $(,)? }) => {
        $crate::__mcp_union!(@common $name { $( $variant ($ty) $(as $wrap)? ),* });
        $crate::__mcp_union!(@pairs_deserialize $name);
        $crate::__mcp_union!(@shape $name { $( $variant ($ty) $(as $wrap)? ),* } ::std::option::Option::None);
    };

    (@shape $name:ident { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* } $selector:expr) => {
        // The rule keeps sets of members as bits of a `u64` (the generator checks it too).
        const _: () = ::std::assert!($name::MEMBERS.len() <= $crate::__private::MAX_MEMBERS, "a union decided by shape has at most 64 members");
        impl $name {
            const SELECTOR: ::std::option::Option<$crate::__private::Selector<'static>> = $selector;
            const TABLE: $crate::__private::MemberTable<'static> = $crate::__private::MemberTable {
                kinds: &[ $( <$ty as $crate::__private::Shape>::KINDS ),* ],
                declares: &[ $( <$ty as $crate::__private::Shape>::declares ),* ],
                requirement: &[ $( <$ty as $crate::__private::Shape>::requirement ),* ],
            };

            /// Reads the union from JSON text, choosing the member as its docs say.
            #[inline]
            pub fn from_text(text: &str) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::__private::shape_from_text(&$name::UNION, &$name::TABLE, $name::SELECTOR.as_ref(), text, ::std::option::Option::None)
            }
        }

        impl $crate::__private::FromPairs for $name {
            #[inline]
            fn from_pairs(
                pairs: &[(::std::borrow::Cow<'_, str>, ::std::borrow::Cow<'_, str>)],
                looked: ::std::option::Option<&[&str]>,
            ) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::__private::shape_from_pairs(&$name::UNION, &$name::TABLE, $name::SELECTOR.as_ref(), pairs, looked)
            }
            fn kind_error(kind: u8) -> ::std::string::String {
                $crate::__private::union_error(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, kind, &[])
            }
        }

        impl $crate::__private::Shape for $name {
            $crate::__mcp_union!(@shape_of $name { $( $variant ($ty) ),* });
            #[inline]
            fn read_looked(text: &str, kind: u8, keys: &[&str]) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::__private::shape_from_text(&$name::UNION, &$name::TABLE, $name::SELECTOR.as_ref(), text, ::std::option::Option::Some((kind, keys)))
            }
            #[inline]
            fn read_pairs(
                pairs: &[(::std::borrow::Cow<'_, str>, ::std::borrow::Cow<'_, str>)],
                looked: ::std::option::Option<&[&str]>,
            ) -> ::std::result::Result<Self, ::std::string::String> {
                <$name as $crate::__private::FromPairs>::from_pairs(pairs, looked)
            }
        }
    };

    (@common $name:ident { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* }) => {
        impl $name {
            /// The names of the members, in the schema's order.
            pub const MEMBERS: &'static [&'static str] = &[ $( stringify!($variant) ),* ];

            /// The union's name, members and their readers, for the runtime's rules.
            const UNION: $crate::__private::UnionOf<'static, $name> = $crate::__private::UnionOf {
                name: stringify!($name),
                members: $name::MEMBERS,
                readers: &[ $( $crate::__mcp_union!(@reader $name $variant ($ty) $($wrap)?) ),* ],
            };

            /// The name of the member this value holds.
            pub fn member_name(&self) -> &'static str {
                match self {
                    $( $name::$variant(_) => stringify!($variant), )*
                }
            }

            /// Reads the union from JSON text, choosing the member as its docs say.
            #[inline]
            pub fn from_raw(raw: &::serde_json::value::RawValue) -> ::std::result::Result<Self, ::std::string::String> {
                $name::from_text(raw.get())
            }

            /// Reads a value already parsed into JSON, choosing the member as for text.
            #[inline]
            pub fn from_json(value: ::serde_json::Value) -> ::std::result::Result<Self, ::std::string::String> {
                $name::from_raw(&$crate::__private::to_raw(&value)?)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    $( $name::$variant(value) => ::serde::Serialize::serialize($crate::__mcp_union!(@wrap value $($wrap)?), serializer), )*
                }
            }
        }

    };

    // Reading through serde, a union decided by shape: when its members are all
    // objects, from the input's members taken one by one (see `pairs`); else as
    // the input's text, then from the text.
    (@pairs_deserialize $name:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            #[inline]
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                if <$name as $crate::__private::Shape>::KINDS == $crate::__private::OBJECT {
                    return deserializer.deserialize_any($crate::__private::PairsVisitor::<$name>::new());
                }
                let text = $crate::__private::raw_of(deserializer)?;
                $name::from_text(&text).map_err(::serde::de::Error::custom)
            }
        }
    };

    // A union's `Shape`, less `read_looked` (which only a union decided by shape or kind has).
    (@shape_of $name:ident { $( $variant:ident ($ty:ty) ),* }) => {
            const KINDS: u8 = 0 $( | <$ty as $crate::__private::Shape>::KINDS )*;
            #[inline]
            fn read_text(text: &str) -> ::std::result::Result<Self, ::std::string::String> {
                $name::from_text(text)
            }
            fn declares(key: &str) -> bool {
                false $( || <$ty as $crate::__private::Shape>::declares(key) )*
            }
            fn requirement(keys: &[&str]) -> (usize, bool) {
                $crate::__private::union_requirement([
                    $( (<$ty as $crate::__private::Shape>::KINDS, <$ty as $crate::__private::Shape>::requirement(keys)) ),*
                ])
            }
    };

    (@reader $name:ident $variant:ident ($ty:ty) int) => {
        |input| $crate::__private::read_plain::<$crate::__private::Int>(input).map(|i| $name::$variant(i.0))
    };
    (@reader $name:ident $variant:ident ($ty:ty) nullable_int) => {
        |input| $crate::__private::read_plain::<$crate::__private::NullableInt>(input).map(|i| $name::$variant(i.0))
    };
    (@reader $name:ident $variant:ident ($ty:ty) $($wrap:ident)?) => {
        |input| $crate::__private::read_as::<$ty>(input).map($name::$variant)
    };

    (@scalar $name:ident $variant:ident ($ty:ty) int, $value:expr) => {
        <$crate::__private::Int as ::serde::Deserialize>::deserialize($value).map(|i| $name::$variant(i.0))
    };
    (@scalar $name:ident $variant:ident ($ty:ty) $($wrap:ident)?, $value:expr) => {
        <$ty as ::serde::Deserialize>::deserialize($value).map($name::$variant)
    };

    (@wrap $v:ident) => { $v };
    (@wrap $v:ident float) => { &$crate::__private::Float(*$v) };
    (@wrap $v:ident nullable_float) => { &$crate::__private::NullableFloat(*$v) };
    (@wrap $v:ident float_seq) => { &$crate::__private::FloatSeq($v) };
    (@wrap $v:ident int) => { $v };
    (@wrap $v:ident nullable_int) => { $v };

    (@rule $field:literal { $( $tags:tt ),* }) => {
        $crate::__private::TagRule {
            field: $field,
            tags: &[ $( $crate::__mcp_union!(@tags $tags) ),* ],
            fallback: $crate::__mcp_union!(@fallback [ $( $tags )* ] 0usize),
        }
    };

    (@tags _) => { &[] };
    (@tags [ $( $tag:expr ),* ]) => { &[ $( $crate::__private::Fixed::from($tag) ),* ] };

    (@fallback [] $i:expr) => { ::std::option::Option::None };
    (@fallback [ _ $($rest:tt)* ] $i:expr) => { ::std::option::Option::Some($i) };
    (@fallback [ $first:tt $($rest:tt)* ] $i:expr) => { $crate::__mcp_union!(@fallback [ $($rest)* ] $i + 1usize) };

    (@other $name:ident) => { ::std::option::Option::None };
    (@other $name:ident $other:ident) => { ::std::option::Option::Some($crate::__private::position($name::MEMBERS, stringify!($other))) };
}
