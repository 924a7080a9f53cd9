//! What a union asks of a member type before reading it (see `choose`): the
//! JSON kinds its values can be, the keys it declares and those it requires;
//! and how it is read once chosen, from text or from an object's members.

use std::borrow::Cow;

use crate::choose::{ANY, ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING};
use crate::extra::Extra;
use crate::text::same_key;

/// Whether `key` is one of an object type's `wires` (what its [`Shape::declares`] says).
pub fn declares(wires: &[&str], key: &str) -> bool {
    wires.iter().any(|wire| same_key(wire, key))
}

/// How many of `keys` are among the `required` of an object type's `wires`, and
/// whether they are all there (what its [`Shape::requirement`] says).
pub fn requirement(wires: &[&str], required: &[bool], keys: &[&str]) -> (usize, bool) {
    debug_assert_eq!(wires.len(), required.len());
    let (mut present, mut all) = (0usize, true);
    for (wire, required) in wires.iter().zip(required) {
        if *required {
            if keys.iter().any(|key| same_key(key, wire)) { present += 1 } else { all = false }
        }
    }
    (present, all)
}

/// What a union's [`Shape::requirement`] says, from each member's kinds and its
/// requirement: the best of the members that can be objects, one that finds
/// all it requires before one that does not, then the one that finds more.
/// (The generator's model asks this of its members too, so the two agree by
/// construction.)
pub fn union_requirement(members: impl IntoIterator<Item = (u8, (usize, bool))>) -> (usize, bool) {
    let mut best = (0usize, false);
    for (kinds, r) in members {
        if kinds & OBJECT != 0 && (r.1, r.0) > (best.1, best.0) {
            best = r;
        }
    }
    best
}

/// What a union asks of a member type before reading it (see `choose`): the JSON
/// kinds its values can be, the keys it declares and those it requires.
pub trait Shape {
    /// The kind bits (`OBJECT`, `STRING`, ...); a generated struct's are `OBJECT`.
    const KINDS: u8 = OBJECT;
    /// A struct's keys, for the default [`declares`](Shape::declares) and
    /// [`requirement`](Shape::requirement) (a type that overrides them, a union
    /// or an `Option`, leaves this empty).
    const WIRES: &'static [&'static str] = &[];
    /// Whether each of [`WIRES`](Shape::WIRES) is required.
    const REQUIRED: &'static [bool] = &[];
    /// The type declares `key` (a union: one of its members does).
    fn declares(key: &str) -> bool {
        declares(Self::WIRES, key)
    }
    /// How many of `keys` it requires, and whether `keys` holds all it requires.
    fn requirement(keys: &[&str]) -> (usize, bool) {
        requirement(Self::WIRES, Self::REQUIRED, keys)
    }
    /// Reads a value of the type from the JSON text a union chose it for. A union
    /// reads its own member straight from the text, without serde capturing the
    /// text a second time. (`#[inline]`: compiled where a union is read, see
    /// `__mcp_union`.)
    #[inline]
    fn read_text(text: &str) -> Result<Self, String>
    where
        Self: Sized + serde::de::DeserializeOwned,
    {
        crate::member::read_member(text)
    }
    /// As [`read_text`](Shape::read_text), for a union that has already looked
    /// at the text and found it of `kind` with `keys`: a union decided by shape
    /// does not look again.
    #[inline]
    fn read_looked(text: &str, _kind: u8, _keys: &[&str]) -> Result<Self, String>
    where
        Self: Sized + serde::de::DeserializeOwned,
    {
        Self::read_text(text)
    }
    /// Reads a value of the type from an object's members, taken one by one by
    /// a union of objects read through serde (see `pairs`), which found their
    /// keys (`looked`) when it decided by shape.
    #[inline]
    fn read_pairs(pairs: &[(Cow<'_, str>, Cow<'_, str>)], _looked: Option<&[&str]>) -> Result<Self, String>
    where
        Self: Sized + serde::de::DeserializeOwned,
    {
        crate::pairs::read_pairs(pairs)
    }
}

impl Shape for String {
    const KINDS: u8 = STRING;
}

impl Shape for i64 {
    const KINDS: u8 = NUMBER;
}

impl Shape for f64 {
    const KINDS: u8 = NUMBER;
}

impl Shape for bool {
    const KINDS: u8 = BOOLEAN;
}

impl Shape for serde_json::Value {
    const KINDS: u8 = ANY;
}

impl<T> Shape for Vec<T> {
    const KINDS: u8 = ARRAY;
}

impl<T> Shape for indexmap::IndexMap<String, T> {
    const KINDS: u8 = OBJECT;
}

impl Shape for Extra {
    const KINDS: u8 = OBJECT;
}

impl<T: Shape> Shape for Option<T> {
    const KINDS: u8 = T::KINDS | NULL;
    fn declares(key: &str) -> bool {
        T::declares(key)
    }
    fn requirement(keys: &[&str]) -> (usize, bool) {
        T::requirement(keys)
    }
}

impl<T: Shape> Shape for Box<T> {
    const KINDS: u8 = T::KINDS;
    fn declares(key: &str) -> bool {
        T::declares(key)
    }
    fn requirement(keys: &[&str]) -> (usize, bool) {
        T::requirement(keys)
    }
}
