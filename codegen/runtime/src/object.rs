//! Object types: the `object!` macro each generated struct calls, the reading of
//! its keys and members, and the [`Shape`] unions ask of their members.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap};
use serde_json::value::RawValue;

use crate::de::{Duplicate, Key};
use crate::extra::Extra;
use crate::text::same_key;

/// A kept member's text, refused (from inside the value, so that the error's
/// path names the key) when it nests deeper than serde_json parses; its line
/// breaks kept as spaces (see `extra::one_line`).
struct KeptText;

impl<'de> de::DeserializeSeed<'de> for KeptText {
    type Value = Box<RawValue>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Box<RawValue>, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        if crate::extra::too_deep(raw.get()) {
            return Err(crate::extra::too_deep_error());
        }
        match crate::extra::one_line(raw.get()) {
            // JSON text with whitespace changed is JSON text.
            Some(text) => RawValue::from_string(text).map_err(de::Error::custom),
            None => Ok(raw),
        }
    }
}

/// Reads a member's value into its slot, refusing a second occurrence of the key.
pub fn read_field<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    field: &'static str,
    slot: &mut Option<T>,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return map.next_value_seed(Duplicate(field));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// [`read_field`] through a reading type (`Int` for an `i64` read leniently).
pub fn read_field_as<'de, A: MapAccess<'de>, W: Deserialize<'de>, T>(
    map: &mut A,
    field: &'static str,
    slot: &mut Option<T>,
    unwrap: impl FnOnce(W) -> T,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return map.next_value_seed(Duplicate(field));
    }
    *slot = Some(unwrap(map.next_value::<W>()?));
    Ok(())
}

/// Keeps a member the type does not name, as the JSON text it came as,
/// refusing a duplicate key.
pub fn read_extra<'de, A: MapAccess<'de>>(map: &mut A, key: Key<'de>, extra: &mut Extra) -> Result<(), A::Error> {
    if extra.contains_key(&key.0) {
        return map.next_value_seed(Duplicate(&key.0));
    }
    let raw = map.next_value_seed(KeptText)?;
    #[cfg(feature = "unknown-members-log")]
    crate::log::record(&key.0);
    extra.insert_raw(key.0.into_owned(), raw);
    Ok(())
}

/// A notification's member that its type does not name: kept, unless it is
/// `id`, which is refused (MCP's base protocol: notifications MUST NOT include
/// an ID; a message with one is a request), from inside its value so that the
/// error's path names it.
pub fn read_unnamed_of_notification<'de, A: MapAccess<'de>>(
    map: &mut A,
    key: Key<'de>,
    extra: &mut Extra,
) -> Result<(), A::Error> {
    if key.0 == "id" {
        return map.next_value_seed(IdOfNotification);
    }
    read_extra(map, key, extra)
}

/// Skips a notification's `id` and fails, from inside the value.
struct IdOfNotification;

impl<'de> de::DeserializeSeed<'de> for IdOfNotification {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        de::IgnoredAny::deserialize(d)?;
        Err(de::Error::custom("a notification has no `id` (a message with one is a request)"))
    }
}

/// Writes an object's members, one call each, keeping the first error (nothing
/// is written after it): a generated `Serialize` is then calls in a row, with no
/// early return per member, each of which was a path out for the compiler to
/// build and check (see BENCHMARKS.md, Compile time).
pub struct Writer<M: SerializeMap> {
    map: M,
    error: Option<M::Error>,
}

impl<M: SerializeMap> Writer<M> {
    #[inline]
    pub fn new(map: M) -> Self {
        Writer { map, error: None }
    }

    /// Writes a member, unless an earlier one failed.
    #[inline]
    pub fn member<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.map.serialize_entry(key, value) {
            self.error = Some(e);
        }
    }

    /// Writes an optional member when it is there.
    #[inline]
    pub fn optional<T: Serialize>(&mut self, key: &'static str, value: &Option<T>) {
        if let Some(value) = value {
            self.member(key, value);
        }
    }

    /// Writes the kept members and ends the object, or returns the first error.
    #[inline]
    pub fn end(mut self, extra: &Extra) -> Result<M::Ok, M::Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        for (key, value) in extra.members() {
            self.map.serialize_entry(key, value)?;
        }
        self.map.end()
    }
}

/// How a generated struct reads itself from a JSON object's members: what would
/// be the body of its own visitor's `visit_map`; [`ObjectVisitor`] calls it.
pub trait ReadObject<'de>: Sized {
    fn read_object<A: MapAccess<'de>>(access: A) -> Result<Self, A::Error>;
}

/// The one visitor of every generated struct (its name for the error), so that
/// each struct brings only its [`ReadObject`] body, not a visitor type, impl
/// and `expecting` of its own.
pub struct ObjectVisitor<T> {
    name: &'static str,
    read: std::marker::PhantomData<fn() -> T>,
}

impl<T> ObjectVisitor<T> {
    #[inline]
    pub fn new(name: &'static str) -> Self {
        ObjectVisitor { name, read: std::marker::PhantomData }
    }
}

impl<'de, T: ReadObject<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object of type {}", self.name)
    }
    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<T, A::Error> {
        T::read_object(access)
    }
}

/// The position of `key` among an object type's `wires`, `usize::MAX` when it
/// is none of them: what a generated [`ReadObject`] body matches on (integer arms
/// are cheaper to compile than string ones; as fast to run, measured).
#[inline]
pub fn member_index(wires: &[&str], key: &str) -> usize {
    let mut i = 0;
    while i < wires.len() {
        if same_key(wires[i], key) {
            return i;
        }
        i += 1;
    }
    usize::MAX
}

/// The next key of an object and its position among the type's `wires`
/// (`usize::MAX` when it is none of them), or `None` at the object's end.
#[inline]
pub fn next_member<'de, A: MapAccess<'de>>(
    access: &mut A,
    wires: &[&str],
) -> Result<Option<(usize, Key<'de>)>, A::Error> {
    Ok(access.next_key::<Key<'de>>()?.map(|key| (member_index(wires, &key.0), key)))
}

/// The error for a required member that is absent.
pub fn missing<E: de::Error>(field: &'static str) -> E {
    E::missing_field(field)
}

/// The serde impls, the fixed members' consts and the [`Shape`] of one generated
/// struct; see the module docs for the form of a call.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_object {
    ($name:ident $($notification:ident)? { $($members:tt)* }) => {
        $crate::__mcp_object!(@impl $name extra [$($notification)?] { $($members)* });
    };
    ($name:ident (extra: $extra:ident) $($notification:ident)? { $($members:tt)* }) => {
        $crate::__mcp_object!(@impl $name $extra [$($notification)?] { $($members)* });
    };
    (@impl $name:ident $extra:ident [$($notification:ident)?] {
        $( $index:literal $wire:literal
            $( fixed $cname:ident : $cty:ty = $cvalue:literal )?
            $( : $kind:ident $field:ident : $ty:ty $( as $wrap:ident )? $( = $default:expr )? )?
        ),* $(,)?
    }) => {
        impl $name {
            $( $(
                #[doc = concat!(" The fixed value of `", $wire, "`.")]
                pub const $cname: $cty = $cvalue;
            )? )*
        }

        impl ::serde::Serialize for $name {
            #[allow(unused_mut)]
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                let mut w = $crate::__private::Writer::new(serializer.serialize_map(::std::option::Option::None)?);
                $(
                    $( w.member($wire, &$crate::__private::Fixed::from($name::$cname)); )?
                    $( $crate::__mcp_object!(@write self w $kind $wire $field $($wrap)?); )?
                )*
                w.end(&self.$extra)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                deserializer.deserialize_map($crate::__private::ObjectVisitor::<$name>::new(stringify!($name)))
            }
        }

        impl<'de> $crate::__private::ReadObject<'de> for $name {
            #[allow(unused_mut, unused_variables)]
            fn read_object<A: ::serde::de::MapAccess<'de>>(mut access: A) -> ::std::result::Result<$name, A::Error> {
                // Whether each fixed member was seen. (A struct of flags, not an
                // array indexed by constants: each constant is evaluated in
                // this generic body, at about a millisecond of build apiece.)
                #[allow(non_snake_case)]
                struct __McpSeen { $( $( $cname: bool, )? )* }
                let mut seen = __McpSeen { $( $( $cname: false, )? )* };
                $(
                    $( let mut $field: ::std::option::Option<$ty> = ::std::option::Option::None; )?
                )*
                let mut $extra = $crate::__private::Extra::new();
                loop {
                    // One way out for an error, whatever read it: each `?` is a
                    // `Try` the type checker resolves, and this is most of the
                    // crate's build. The arms by the member's position, not its
                    // name: a match on strings is a comparison call and a branch
                    // per arm.
                    let read = match $crate::__private::next_member(&mut access, &[ $( $wire ),* ]) {
                        ::std::result::Result::Ok(::std::option::Option::Some((index, key))) => match index {
                            $( $index => {
                                $( $crate::__private::read_fixed(&mut access, $wire, $crate::__private::Fixed::from($name::$cname), &mut seen.$cname) )?
                                $( $crate::__mcp_object!(@read access $wire $field $($wrap)?) )?
                            } )*
                            _ => $crate::__mcp_object!(@unnamed [$($notification)?] access key $extra),
                        },
                        ::std::result::Result::Ok(::std::option::Option::None) => break,
                        ::std::result::Result::Err(e) => ::std::result::Result::Err(e),
                    };
                    if let ::std::result::Result::Err(e) = read {
                        return ::std::result::Result::Err(e);
                    }
                }
                $(
                    $( if !seen.$cname { return ::std::result::Result::Err($crate::__private::missing($wire)); } )?
                    $( $crate::__mcp_object!(@finish $kind $wire $field $(= $default)?); )?
                )*
                ::std::result::Result::Ok($name { $( $( $field, )? )* $extra })
            }
        }

        impl $crate::__private::Shape for $name {
            const KINDS: u8 = $crate::__private::OBJECT;
            const WIRES: &'static [&'static str] = &[ $( $wire ),* ];
            const REQUIRED: &'static [bool] = &[ $( $crate::__mcp_object!(@required $( fixed $cname )? $( $kind )?) ),* ];
        }
    };

    // A notification refuses an `id` (see `read_unnamed_of_notification`).
    (@unnamed [] $access:ident $key:ident $extra:ident) => {
        $crate::__private::read_extra(&mut $access, $key, &mut $extra)
    };
    (@unnamed [notification] $access:ident $key:ident $extra:ident) => {
        $crate::__private::read_unnamed_of_notification(&mut $access, $key, &mut $extra)
    };

    (@write $s:ident $w:ident optional $wire:literal $field:ident) => {
        $w.optional($wire, &$s.$field)
    };
    (@write $s:ident $w:ident optional $wire:literal $field:ident $wrap:ident) => {
        if let ::std::option::Option::Some(value) = &$s.$field {
            $w.member($wire, $crate::__mcp_object!(@wrap value $wrap));
        }
    };
    (@write $s:ident $w:ident $kind:ident $wire:literal $field:ident $($wrap:ident)?) => {
        $w.member($wire, $crate::__mcp_object!(@wrap (&$s.$field) $($wrap)?))
    };
    (@wrap $v:tt) => { $v };
    (@wrap $v:tt float) => { &$crate::__private::Float(*$v) };
    (@wrap $v:tt nullable_float) => { &$crate::__private::NullableFloat(*$v) };
    (@wrap $v:tt float_seq) => { &$crate::__private::FloatSeq($v) };
    (@wrap $v:tt int) => { $v };
    (@wrap $v:tt nullable_int) => { $v };

    (@read $access:ident $wire:literal $field:ident int) => {
        $crate::__private::read_field_as(&mut $access, $wire, &mut $field, |i: $crate::__private::Int| i.0)
    };
    (@read $access:ident $wire:literal $field:ident nullable_int) => {
        $crate::__private::read_field_as(&mut $access, $wire, &mut $field, |i: $crate::__private::NullableInt| i.0)
    };
    (@read $access:ident $wire:literal $field:ident $($wrap:ident)?) => {
        $crate::__private::read_field(&mut $access, $wire, &mut $field)
    };

    (@finish required $wire:literal $field:ident) => {
        let ::std::option::Option::Some($field) = $field else {
            return ::std::result::Result::Err($crate::__private::missing($wire));
        };
    };
    (@finish optional $wire:literal $field:ident) => {};
    (@finish defaulted $wire:literal $field:ident = $default:expr) => {
        let $field = match $field {
            ::std::option::Option::Some(value) => value,
            ::std::option::Option::None => $default,
        };
    };

    (@required fixed $cname:ident) => { true };
    (@required required) => { true };
    (@required $kind:ident) => { false };
}
