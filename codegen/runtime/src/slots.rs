//! A struct's members read into a tuple of slots, one per member in the
//! struct's order, by code written here once: what a generated struct brings is
//! the tuple's type (`ReadObject::Slots`) and a `build` that moves the values
//! into its fields.
//!
//! Why a type and not a body: each member's read is a call whose bounds (the
//! member's type deserializes, from this input) the compiler proves in the body
//! that makes it, in type checking and again in borrow checking, for every
//! struct. Named as the associated type's bound (`type Slots: Slots<'de>`), they
//! are proved once per struct, where the impl is checked, and the loop over the
//! keys is checked once, here (see BENCHMARKS.md, Compile time).
//!
//! A tuple has at most [`SLOTS_PER_GROUP`] slots; a struct with more members has
//! such tuples nested ([`Groups`]: the first full tuple, then the rest).

use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess};
use serde_json::value::RawValue;

use crate::de::{Duplicate, Key};
use crate::extra::Extra;
use crate::fixed::{Fixed, read_fixed};
use crate::text::same_key;

/// The members of one tuple of slots; a struct with more has [`Groups`] of them.
pub const SLOTS_PER_GROUP: usize = 8;

/// What a slot holds once the object is read. Without bounds, so that naming a
/// struct's values (its `build`'s argument) proves nothing.
pub trait SlotValue {
    type Value;
}

/// One member's slot: read when its key comes, then its value or its absence.
pub trait Slot<'de>: SlotValue {
    fn empty() -> Self;
    /// Reads the member's value (`fixed`: the struct's fixed members, by wire).
    fn read<A: MapAccess<'de>>(
        &mut self,
        access: &mut A,
        wire: &'static str,
        fixed: &[(&str, Fixed)],
    ) -> Result<(), A::Error>;
    /// Whether the member is required and was absent.
    fn missing(&self) -> bool;
    /// The value, once [`Slot::missing`] said no.
    fn value(self) -> Self::Value;
}

/// A required member of type `T`, read as `R` (`Int` for an `i64` read leniently).
pub struct Required<T, R = T>(Option<T>, PhantomData<fn() -> R>);

/// An optional (or defaulted) member of type `T`, read as `R`.
pub struct Optional<T, R = T>(Option<T>, PhantomData<fn() -> R>);

/// A member fixed to a value: checked where it stands, no field.
pub struct FixedSlot(bool);

impl<T, R> SlotValue for Required<T, R> {
    type Value = T;
}

impl<T, R> SlotValue for Optional<T, R> {
    type Value = Option<T>;
}

impl SlotValue for FixedSlot {
    type Value = ();
}

/// Reads a member's value into `slot`, refusing a second occurrence of the key.
#[inline]
fn read_into<'de, A: MapAccess<'de>, T, R: Deserialize<'de> + Into<T>>(
    access: &mut A,
    wire: &'static str,
    slot: &mut Option<T>,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return access.next_value_seed(Duplicate(wire));
    }
    *slot = Some(access.next_value::<R>()?.into());
    Ok(())
}

impl<'de, T, R: Deserialize<'de> + Into<T>> Slot<'de> for Required<T, R> {
    #[inline]
    fn empty() -> Self {
        Required(None, PhantomData)
    }
    #[inline]
    fn read<A: MapAccess<'de>>(
        &mut self,
        access: &mut A,
        wire: &'static str,
        _: &[(&str, Fixed)],
    ) -> Result<(), A::Error> {
        read_into::<A, T, R>(access, wire, &mut self.0)
    }
    #[inline]
    fn missing(&self) -> bool {
        self.0.is_none()
    }
    #[inline]
    fn value(self) -> T {
        match self.0 {
            Some(value) => value,
            None => unreachable!("a required member's value taken without checking it"),
        }
    }
}

impl<'de, T, R: Deserialize<'de> + Into<T>> Slot<'de> for Optional<T, R> {
    #[inline]
    fn empty() -> Self {
        Optional(None, PhantomData)
    }
    #[inline]
    fn read<A: MapAccess<'de>>(
        &mut self,
        access: &mut A,
        wire: &'static str,
        _: &[(&str, Fixed)],
    ) -> Result<(), A::Error> {
        read_into::<A, T, R>(access, wire, &mut self.0)
    }
    #[inline]
    fn missing(&self) -> bool {
        false
    }
    #[inline]
    fn value(self) -> Option<T> {
        self.0
    }
}

impl<'de> Slot<'de> for FixedSlot {
    #[inline]
    fn empty() -> Self {
        FixedSlot(false)
    }
    #[inline]
    fn read<A: MapAccess<'de>>(
        &mut self,
        access: &mut A,
        wire: &'static str,
        fixed: &[(&str, Fixed)],
    ) -> Result<(), A::Error> {
        // The struct lists each of its fixed members (the `object!` macro writes
        // both lists); a wire not there is a bug of the macro's, said as an error.
        match fixed.iter().find(|(w, _)| *w == wire) {
            Some(&(_, expected)) => read_fixed(access, wire, expected, &mut self.0),
            None => Err(de::Error::custom(format_args!("`{wire}` is fixed, but its struct lists no value for it"))),
        }
    }
    #[inline]
    fn missing(&self) -> bool {
        !self.0
    }
    #[inline]
    fn value(self) {}
}

/// What a tuple of slots holds once read, without bounds (see [`SlotValue`]).
pub trait SlotValues {
    type Values;
}

/// A struct's members as slots, in its order.
pub trait Slots<'de>: SlotValues + Sized {
    fn empty() -> Self;
    /// Reads the member at `index` among `wires` (this tuple's first member is
    /// at `base`).
    fn read_at<A: MapAccess<'de>>(
        &mut self,
        index: usize,
        base: usize,
        access: &mut A,
        wires: &[&'static str],
        fixed: &[(&str, Fixed)],
    ) -> Result<(), A::Error>;
    /// The wire of the first member required and absent (this tuple's first
    /// member is at `base` among `wires`). Checked before any value is moved
    /// out, so that a way out drops the slots whole, not what is left of them.
    fn missing(&self, base: usize, wires: &[&'static str]) -> Option<&'static str>;
    /// The values, once [`Slots::missing`] found none absent.
    fn values(self) -> Self::Values;
}

impl SlotValues for () {
    type Values = ();
}

impl<'de> Slots<'de> for () {
    #[inline]
    fn empty() -> Self {}
    #[inline]
    fn read_at<A: MapAccess<'de>>(
        &mut self,
        _: usize,
        _: usize,
        _: &mut A,
        _: &[&'static str],
        _: &[(&str, Fixed)],
    ) -> Result<(), A::Error> {
        Ok(())
    }
    #[inline]
    fn missing(&self, _: usize, _: &[&'static str]) -> Option<&'static str> {
        None
    }
    #[inline]
    fn values(self) {}
}

macro_rules! tuple_slots {
    ($( ($($i:tt $s:ident),+) )+) => { $(
        impl<$($s: SlotValue),+> SlotValues for ($($s,)+) {
            type Values = ($($s::Value,)+);
        }

        impl<'de, $($s: Slot<'de>),+> Slots<'de> for ($($s,)+) {
            #[inline]
            fn empty() -> Self {
                ($($s::empty(),)+)
            }
            #[inline]
            fn read_at<A: MapAccess<'de>>(
                &mut self,
                index: usize,
                base: usize,
                access: &mut A,
                wires: &[&'static str],
                fixed: &[(&str, Fixed)],
            ) -> Result<(), A::Error> {
                match index - base {
                    $( $i => self.$i.read(access, wires[index], fixed), )+
                    _ => Ok(()),
                }
            }
            #[inline]
            fn missing(&self, base: usize, wires: &[&'static str]) -> Option<&'static str> {
                $( if self.$i.missing() {
                    return Some(wires[base + $i]);
                } )+
                None
            }
            #[inline]
            fn values(self) -> Self::Values {
                ($( self.$i.value(), )+)
            }
        }
    )+ };
}

tuple_slots! {
    (0 S0)
    (0 S0, 1 S1)
    (0 S0, 1 S1, 2 S2)
    (0 S0, 1 S1, 2 S2, 3 S3)
    (0 S0, 1 S1, 2 S2, 3 S3, 4 S4)
    (0 S0, 1 S1, 2 S2, 3 S3, 4 S4, 5 S5)
    (0 S0, 1 S1, 2 S2, 3 S3, 4 S4, 5 S5, 6 S6)
    (0 S0, 1 S1, 2 S2, 3 S3, 4 S4, 5 S5, 6 S6, 7 S7)
}

/// The slots of a struct with more than [`SLOTS_PER_GROUP`] members: the
/// tuple of its first that many, then the rest (the last tuple, or `Groups`
/// again). Nested rather than one impl per count of groups: wide structs are
/// rare, and each such impl was a runtime build's worth of generic code.
pub struct Groups<First, Rest>(First, Rest);

impl<F: SlotValues, R: SlotValues> SlotValues for Groups<F, R> {
    type Values = (F::Values, R::Values);
}

impl<'de, F: Slots<'de>, R: Slots<'de>> Slots<'de> for Groups<F, R> {
    #[inline]
    fn empty() -> Self {
        Groups(F::empty(), R::empty())
    }
    #[inline]
    fn read_at<A: MapAccess<'de>>(
        &mut self,
        index: usize,
        base: usize,
        access: &mut A,
        wires: &[&'static str],
        fixed: &[(&str, Fixed)],
    ) -> Result<(), A::Error> {
        if index - base < SLOTS_PER_GROUP {
            self.0.read_at(index, base, access, wires, fixed)
        } else {
            self.1.read_at(index, base + SLOTS_PER_GROUP, access, wires, fixed)
        }
    }
    #[inline]
    fn missing(&self, base: usize, wires: &[&'static str]) -> Option<&'static str> {
        match self.0.missing(base, wires) {
            Some(wire) => Some(wire),
            None => self.1.missing(base + SLOTS_PER_GROUP, wires),
        }
    }
    #[inline]
    fn values(self) -> Self::Values {
        (self.0.values(), self.1.values())
    }
}

/// The most members a struct can have (eighteen groups): the nesting has no
/// limit of its own, but the golden fixtures build and read a struct this wide
/// and none wider, so that a schema's accident (an object type of thousands of
/// members) is a diagnostic, not a compiler's recursion limit.
pub const MAX_OBJECT_MEMBERS: usize = 144;
/// Reads an object's members into `S`, keeping the ones `wires` does not name
/// (a notification refuses an `id`): the loop each struct's read runs, with one
/// way out for an error, then the first required member found absent.
#[inline]
pub fn read_members<'de, A: MapAccess<'de>, S: Slots<'de>>(
    mut access: A,
    wires: &[&'static str],
    fixed: &[(&str, Fixed)],
    notification: bool,
) -> Result<(S::Values, Extra), A::Error> {
    let mut slots = S::empty();
    let mut extra = Extra::new();
    loop {
        let read = match next_member(&mut access, wires) {
            Ok(Some((usize::MAX, key))) if notification => read_unnamed_of_notification(&mut access, key, &mut extra),
            Ok(Some((usize::MAX, key))) => read_extra(&mut access, key, &mut extra),
            Ok(Some((index, _))) => slots.read_at(index, 0, &mut access, wires, fixed),
            Ok(None) => break,
            Err(e) => Err(e),
        };
        read?;
    }
    match slots.missing(0, wires) {
        Some(wire) => Err(missing(wire)),
        None => Ok((slots.values(), extra)),
    }
}

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

/// The position of `key` among an object type's `wires`, `usize::MAX` when it
/// is none of them: what [`Slots::read_at`] matches on (integer arms
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
