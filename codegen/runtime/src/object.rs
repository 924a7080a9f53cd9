//! Object types: the `object!` macro each generated struct calls, what it
//! implements (writing through [`Writer`], reading through [`ObjectVisitor`]
//! into the slots of `slots`), and the [`Shape`] unions ask of their members.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::extra::Extra;
use crate::fixed::Fixed;
use crate::shape::Shape;
use crate::slots::{SlotValues, Slots, read_members};

/// Writes an object's members, one call each, keeping the first error (nothing
/// is written after it): the members of [`write_object`] are then calls in a
/// row, with no early return per member, each of which would be a path out for
/// the compiler to build and check (see BENCHMARKS.md, Compile time).
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

/// One member as a generated `Serialize` hands it to [`write_object`]: its wire
/// and its value. A tuple of them is a list of members (of groups, for a struct
/// read in groups): each struct's `Serialize` is one call whose argument's type
/// names its members, proved once, instead of a call per member.
pub trait WriteMember {
    fn write<M: SerializeMap>(&self, w: &mut Writer<M>);
}

/// A member always written.
pub struct Put<'a, T: ?Sized>(pub &'static str, pub &'a T);

/// An optional member, written when it is there.
pub struct PutSome<'a, T>(pub &'static str, pub &'a Option<T>);

/// A member written as `W` (`Float`: a whole `f64` without a fraction).
pub struct PutAs<'a, T: ?Sized, W>(pub &'static str, pub &'a T, pub PhantomData<fn() -> W>);

/// An optional member written as `W` when it is there.
pub struct PutSomeAs<'a, T, W>(pub &'static str, pub &'a Option<T>, pub PhantomData<fn() -> W>);

/// A fixed member.
pub struct PutFixed(pub &'static str, pub Fixed);

impl<T: ?Sized + Serialize> WriteMember for Put<'_, T> {
    #[inline]
    fn write<M: SerializeMap>(&self, w: &mut Writer<M>) {
        w.member(self.0, self.1)
    }
}

impl<T: Serialize> WriteMember for PutSome<'_, T> {
    #[inline]
    fn write<M: SerializeMap>(&self, w: &mut Writer<M>) {
        w.optional(self.0, self.1)
    }
}

impl<'a, T: ?Sized, W: From<&'a T> + Serialize> WriteMember for PutAs<'a, T, W> {
    #[inline]
    fn write<M: SerializeMap>(&self, w: &mut Writer<M>) {
        w.member(self.0, &W::from(self.1))
    }
}

impl<'a, T, W: From<&'a T> + Serialize> WriteMember for PutSomeAs<'a, T, W> {
    #[inline]
    fn write<M: SerializeMap>(&self, w: &mut Writer<M>) {
        if let Some(value) = self.1 {
            w.member(self.0, &W::from(value))
        }
    }
}

impl WriteMember for PutFixed {
    #[inline]
    fn write<M: SerializeMap>(&self, w: &mut Writer<M>) {
        w.member(self.0, &self.1)
    }
}

impl WriteMember for () {
    #[inline]
    fn write<M: SerializeMap>(&self, _: &mut Writer<M>) {}
}

macro_rules! tuple_write {
    ($( ($($i:tt $m:ident),+) )+) => { $(
        impl<$($m: WriteMember),+> WriteMember for ($($m,)+) {
            #[inline]
            fn write<M: SerializeMap>(&self, w: &mut Writer<M>) {
                $( self.$i.write(w); )+
            }
        }
    )+ };
}

tuple_write! {
    (0 M0)
    (0 M0, 1 M1)
    (0 M0, 1 M1, 2 M2)
    (0 M0, 1 M1, 2 M2, 3 M3)
    (0 M0, 1 M1, 2 M2, 3 M3, 4 M4)
    (0 M0, 1 M1, 2 M2, 3 M3, 4 M4, 5 M5)
    (0 M0, 1 M1, 2 M2, 3 M3, 4 M4, 5 M5, 6 M6)
    (0 M0, 1 M1, 2 M2, 3 M3, 4 M4, 5 M5, 6 M6, 7 M7)
}

/// A generated struct's `Serialize` body: its members in order, then the kept ones.
#[inline]
pub fn write_object<S: Serializer, W: WriteMember>(
    serializer: S,
    members: W,
    extra: &Extra,
) -> Result<S::Ok, S::Error> {
    let mut w = Writer::new(serializer.serialize_map(None)?);
    members.write(&mut w);
    w.end(extra)
}

/// How a generated struct reads itself from a JSON object's members: the
/// slots of its members, in its order (see `slots`), what is fixed, and how its
/// values become the struct; [`ObjectVisitor`] runs the one loop over the keys.
pub trait ReadObject<'de>: Shape + Sized {
    /// The members' slots. Its bound is where each member's reading is proved,
    /// once per struct (see `slots`).
    type Slots: Slots<'de>;
    /// The fixed members' values, by wire.
    const FIXED: &'static [(&'static str, Fixed)] = &[];
    /// Whether the struct is a notification (it refuses an `id`).
    const NOTIFICATION: bool = false;
    /// The struct, from its members' values and the members it does not name.
    fn build(values: <Self::Slots as SlotValues>::Values, extra: Extra) -> Self;
}

/// The one visitor of every generated struct (its name for the error), so that
/// each struct brings only its [`ReadObject`] impl, not a visitor of its own.
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
        let (values, extra) = read_members::<A, T::Slots>(access, T::WIRES, T::FIXED, T::NOTIFICATION)?;
        Ok(T::build(values, extra))
    }
}

/// A generated struct's `Deserialize` body: an object read by [`ObjectVisitor`].
#[inline]
pub fn deserialize_object<'de, T: ReadObject<'de>, D: Deserializer<'de>>(
    deserializer: D,
    name: &'static str,
) -> Result<T, D::Error> {
    deserializer.deserialize_map(ObjectVisitor::<T>::new(name))
}

/// The serde impls, the fixed members' consts and the [`Shape`] of one generated
/// struct; see the module docs for the form of a call.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_object {
    ($name:ident $($notification:ident)? { $($members:tt)* }) => {
        $crate::__mcp_object!(@groups $name extra [$($notification)?] { $($members)* });
    };
    ($name:ident (extra: $extra:ident) $($notification:ident)? { $($members:tt)* }) => {
        $crate::__mcp_object!(@groups $name $extra [$($notification)?] { $($members)* });
    };
    // At most `SLOTS_PER_GROUP` members, one tuple of slots; more come in
    // groups of that many, `[..] [..]` (see `Groups`).
    (@groups $name:ident $extra:ident [$($notification:ident)?] { $( [ $($group:tt)* ] )+ }) => {
        $crate::__mcp_object!(@impl $name $extra [$($notification)?] { $( [ $($group)* ] )+ });
    };
    (@groups $name:ident $extra:ident [$($notification:ident)?] { $($members:tt)* }) => {
        $crate::__mcp_object!(@impl $name $extra [$($notification)?] { [ $($members)* ] });
    };
    (@impl $name:ident $extra:ident [$($notification:ident)?] { $( [
        $( $wire:literal
            $( fixed $cname:ident : $cty:ty = $cvalue:literal )?
            $( : $kind:ident $field:ident : $ty:ty $( as $wrap:ident )? $( = $default:expr )? )?
        ),* $(,)?
    ] )+ }) => {
        impl $name {
            $( $( $(
                #[doc = concat!(" The fixed value of `", $wire, "`.")]
                pub const $cname: $cty = $cvalue;
            )? )* )+
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                $crate::__private::write_object(serializer, $crate::__mcp_object!(@nest $( [( $(
                    $( $crate::__private::PutFixed($wire, $crate::__private::FixedOf::<$cty>::fixed($name::$cname)) )?
                    $( $crate::__mcp_object!(@put self $kind $wire $field $($wrap)?) )?,
                )* )] )+), &self.$extra)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                $crate::__private::deserialize_object(deserializer, stringify!($name))
            }
        }

        impl<'de> $crate::__private::ReadObject<'de> for $name {
            type Slots = $crate::__mcp_object!(@slots $( [(
                $( $( $crate::__mcp_object!(@fixed_slot $cname) )? $( $crate::__mcp_object!(@slot $kind $ty $(, $wrap)?) )?, )*
            )] )+);
            $crate::__mcp_object!(@fixed [ $( $( $( ($wire, $crate::__private::FixedOf::<$cty>::fixed($name::$cname)), )? )* )+ ]);
            $( const NOTIFICATION: bool = $crate::__mcp_object!(@notification $notification); )?
            #[inline]
            fn build(values: <Self::Slots as $crate::__private::SlotValues>::Values, $extra: $crate::__private::Extra) -> Self {
                let $crate::__mcp_object!(@values $( [( $( $( $crate::__mcp_object!(@fixed_pattern $cname) )? $( $field )?, )* )] )+) = values;
                $( $( $( $crate::__mcp_object!(@default $kind $field $(= $default)?); )? )* )+
                $name { $( $( $( $field, )? )* )+ $extra }
            }
        }

        impl $crate::__private::Shape for $name {
            const WIRES: &'static [&'static str] = &[ $( $( $wire ),* ),+ ];
            const REQUIRED: &'static [bool] = &[ $( $( $crate::__mcp_object!(@required $( fixed $cname )? $( $kind )?) ),* ),+ ];
        }
    };

    (@fixed_slot $cname:ident) => { $crate::__private::FixedSlot };
    (@fixed_pattern $cname:ident) => { _ };
    // One tuple of slots, or the first group's and the rest's (see `Groups`).
    (@slots [$slots:ty]) => { $slots };
    (@slots [$first:ty] $([$rest:ty])+) => { $crate::__private::Groups<$first, $crate::__mcp_object!(@slots $([$rest])+)> };
    (@nest [$members:expr]) => { $members };
    (@nest [$first:expr] $([$rest:expr])+) => { ($first, $crate::__mcp_object!(@nest $([$rest])+)) };
    (@values [$values:pat]) => { $values };
    (@values [$first:pat] $([$rest:pat])+) => { ($first, $crate::__mcp_object!(@values $([$rest])+)) };
    (@fixed []) => {};
    (@fixed [ $($fixed:tt)+ ]) => {
        const FIXED: &'static [(&'static str, $crate::__private::Fixed)] = &[ $($fixed)+ ];
    };
    (@notification notification) => { true };

    (@slot required $ty:ty) => { $crate::__private::Required<$ty> };
    (@slot required $ty:ty, int) => { $crate::__private::Required<$ty, $crate::__private::Int> };
    (@slot required $ty:ty, nullable_int) => { $crate::__private::Required<$ty, $crate::__private::NullableInt> };
    (@slot required $ty:ty, $wrap:ident) => { $crate::__private::Required<$ty> };
    (@slot $kind:ident $ty:ty) => { $crate::__private::Optional<$ty> };
    (@slot $kind:ident $ty:ty, int) => { $crate::__private::Optional<$ty, $crate::__private::Int> };
    (@slot $kind:ident $ty:ty, nullable_int) => { $crate::__private::Optional<$ty, $crate::__private::NullableInt> };
    (@slot $kind:ident $ty:ty, $wrap:ident) => { $crate::__private::Optional<$ty> };

    (@default defaulted $field:ident = $default:expr) => {
        let $field = match $field {
            ::std::option::Option::Some(value) => value,
            ::std::option::Option::None => $default,
        };
    };
    (@default $kind:ident $field:ident) => {};

    (@put $s:ident optional $wire:literal $field:ident float) => { $crate::__mcp_object!(@put_some_as $s $wire $field Float) };
    (@put $s:ident optional $wire:literal $field:ident nullable_float) => { $crate::__mcp_object!(@put_some_as $s $wire $field NullableFloat) };
    (@put $s:ident optional $wire:literal $field:ident float_seq) => { $crate::__mcp_object!(@put_some_as $s $wire $field FloatSeq) };
    (@put $s:ident optional $wire:literal $field:ident $($wrap:ident)?) => { $crate::__private::PutSome($wire, &$s.$field) };
    (@put $s:ident $kind:ident $wire:literal $field:ident float) => { $crate::__mcp_object!(@put_as $s $wire $field Float) };
    (@put $s:ident $kind:ident $wire:literal $field:ident nullable_float) => { $crate::__mcp_object!(@put_as $s $wire $field NullableFloat) };
    (@put $s:ident $kind:ident $wire:literal $field:ident float_seq) => { $crate::__mcp_object!(@put_as $s $wire $field FloatSeq) };
    (@put $s:ident $kind:ident $wire:literal $field:ident $($wrap:ident)?) => { $crate::__private::Put($wire, &$s.$field) };
    (@put_as $s:ident $wire:literal $field:ident $as:ident) => {
        $crate::__private::PutAs::<_, $crate::__private::$as>($wire, &$s.$field, ::std::marker::PhantomData)
    };
    (@put_some_as $s:ident $wire:literal $field:ident $as:ident) => {
        $crate::__private::PutSomeAs::<_, $crate::__private::$as>($wire, &$s.$field, ::std::marker::PhantomData)
    };

    (@required fixed $cname:ident) => { true };
    (@required required) => { true };
    (@required $kind:ident) => { false };
}

#[cfg(test)]
mod tests {
    use crate::extra::Extra;
    use crate::shape::Shape;
    use crate::slots::{FixedSlot, Required};

    use super::{ReadObject, deserialize_object};

    /// A struct with a fixed member its `FIXED` does not list: what a broken
    /// `object!` call would make.
    #[derive(Debug)]
    struct Broken;

    impl Shape for Broken {
        const WIRES: &'static [&'static str] = &["type", "name"];
        const REQUIRED: &'static [bool] = &[true, true];
    }

    impl<'de> ReadObject<'de> for Broken {
        type Slots = (FixedSlot, Required<String>);
        fn build(_: ((), String), _: Extra) -> Self {
            Broken
        }
    }

    fn read(text: &str) -> Result<Broken, String> {
        deserialize_object::<Broken, _>(&mut serde_json::Deserializer::from_str(text), "Broken")
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_fixed_member_with_no_listed_value_is_an_error_not_a_guess() {
        let error = read(r#"{"type":"x","name":"n"}"#).unwrap_err();
        assert!(error.starts_with("`type` is fixed, but its struct lists no value for it"), "{error}");
        // The other member reads as it should, and an absent fixed member is missing.
        assert_eq!(read(r#"{"name":"n"}"#).unwrap_err(), "missing field `type` at line 1 column 12");
    }
}
