//! A union of objects read through serde in one pass: its input's members taken
//! as they come, each key with its value's text (borrowed from the input when
//! serde_json reads text in memory), then the member chosen from the keys and
//! read from those members. No text of the whole object is captured and
//! scanned for its keys, and a member's open objects (`params`, `_meta`) are
//! handed the text they were taken as, not walked over again.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, Visitor};

use crate::choose::{ARRAY, BOOLEAN, NULL, NUMBER, STRING};
use crate::de::{Key, NUMBER_TOKEN, RAW_VALUE_TOKEN, raw_of, skip_seq};
use crate::member::{member_error, read_or_explain};
use crate::text::without_position;

/// An object's members, in order: each key and its value's JSON text.
type Pairs<'de> = Vec<(Cow<'de, str>, Cow<'de, str>)>;

/// A union of objects, read from its input's members (see the module docs).
pub trait FromPairs: Sized {
    /// Reads the union from an object's members, with the keys a union holding
    /// this one has already found (`looked`).
    fn from_pairs(pairs: &[(Cow<'_, str>, Cow<'_, str>)], looked: Option<&[&str]>) -> Result<Self, String>;
    /// The error for an input of another kind (`kind`, one of the kind bits).
    fn kind_error(kind: u8) -> String;
}

/// The visitor of a union of objects read through serde.
pub struct PairsVisitor<U>(PhantomData<fn() -> U>);

impl<U> PairsVisitor<U> {
    #[inline]
    pub fn new() -> Self {
        PairsVisitor(PhantomData)
    }
}

impl<U> Default for PairsVisitor<U> {
    fn default() -> Self {
        PairsVisitor::new()
    }
}

impl<'de, U: FromPairs> Visitor<'de> for PairsVisitor<U> {
    type Value = U;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<U, A::Error> {
        match take_pairs(map)? {
            // A number, from serde_json with `arbitrary_precision`.
            Taken::Number => Err(de::Error::custom(U::kind_error(NUMBER))),
            Taken::Pairs(pairs) => U::from_pairs(&pairs, None).map_err(de::Error::custom),
        }
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<U, A::Error> {
        skip_seq(seq)?;
        Err(de::Error::custom(U::kind_error(ARRAY)))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<U, E> {
        Err(E::custom(U::kind_error(STRING)))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<U, E> {
        Err(E::custom(U::kind_error(NUMBER)))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<U, E> {
        Err(E::custom(U::kind_error(NUMBER)))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<U, E> {
        Err(E::custom(U::kind_error(NUMBER)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<U, E> {
        Err(E::custom(U::kind_error(BOOLEAN)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<U, E> {
        Err(E::custom(U::kind_error(NULL)))
    }
}

/// A member's value as its JSON text (how serde_json hands over a raw value).
struct ValueText<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for ValueText<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        raw_of(d).map(ValueText)
    }
}

/// What a map handed to a union of objects holds.
enum Taken<'de> {
    Pairs(Pairs<'de>),
    /// serde_json's form of a number with `arbitrary_precision`.
    Number,
}

/// Takes an object's members as they come (see the module docs).
fn take_pairs<'de, A: MapAccess<'de>>(mut map: A) -> Result<Taken<'de>, A::Error> {
    // (A hint is a claim of the input's: a map of another format may claim more.)
    let mut pairs = Vec::with_capacity(map.size_hint().map_or(8, |n| n.min(32)));
    while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
        if pairs.is_empty() && key == NUMBER_TOKEN {
            map.next_value::<de::IgnoredAny>()?;
            return Ok(Taken::Number);
        }
        let ValueText(text) = map.next_value()?;
        pairs.push((key, text));
    }
    Ok(Taken::Pairs(pairs))
}

/// The keys of `pairs`, as the union rule takes them.
pub fn keys_of<'a>(pairs: &'a [(Cow<'_, str>, Cow<'_, str>)]) -> Vec<&'a str> {
    pairs.iter().map(|(k, _)| &**k).collect()
}

/// The value of the first member named `field`, parsed (a union's selector).
pub fn field_of(
    pairs: &[(Cow<'_, str>, Cow<'_, str>)],
    field: Option<&str>,
) -> Result<Option<serde_json::Value>, String> {
    let Some(field) = field else { return Ok(None) };
    match pairs.iter().find(|(k, _)| k == field) {
        Some((_, text)) => serde_json::from_str(text).map(Some).map_err(|e| without_position(&e)),
        None => Ok(None),
    }
}

/// Reads a member type from an object's members. When it does not read, the
/// object's text is put back together and read again, tracking where, so the
/// error is the one reading the text gives (`content[0]: missing field ...`);
/// unless a union is trying its members quietly, when the error is empty.
#[inline]
pub fn read_pairs<T: DeserializeOwned>(pairs: &[(Cow<'_, str>, Cow<'_, str>)]) -> Result<T, String> {
    read_or_explain(|| T::deserialize(PairsDeserializer { pairs }), || member_error::<T>(&object_text(pairs)))
}

/// The JSON text of an object with these members.
#[cold]
pub fn object_text(pairs: &[(Cow<'_, str>, Cow<'_, str>)]) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // A key is a string, so it writes.
        out.push_str(&serde_json::to_string(&**key).unwrap_or_default());
        out.push(':');
        out.push_str(value);
    }
    out.push('}');
    out
}

/// An object, as its members: a map to whatever reads it.
struct PairsDeserializer<'a, 'p> {
    pairs: &'a [(Cow<'p, str>, Cow<'p, str>)],
}

impl<'de> Deserializer<'de> for PairsDeserializer<'de, '_> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(PairsAccess { pairs: self.pairs.iter(), value: None })
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        if name == RAW_VALUE_TOKEN {
            // Asked for the object's text (a member that keeps it, or a union
            // read as text): put it back together.
            return visitor.visit_map(RawEntry { text: Some(Text::Owned(object_text(self.pairs))) });
        }
        visitor.visit_newtype_struct(self)
    }

    // An object is a map to every request (`deserialize_enum` included: no
    // member of a union of objects is a serde enum).
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

struct PairsAccess<'a, 'p> {
    pairs: std::slice::Iter<'a, (Cow<'p, str>, Cow<'p, str>)>,
    value: Option<&'a str>,
}

impl<'a> MapAccess<'a> for PairsAccess<'a, '_> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        match self.pairs.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        match self.value.take() {
            Some(text) => seed.deserialize(ValueDeserializer { text }),
            None => Err(de::Error::custom("a value asked for before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.pairs.len())
    }
}

/// One member's value, as its JSON text: read by serde_json, except that a
/// request for the text itself (a kept member, an open object, a union) is
/// handed the text without walking over it again.
struct ValueDeserializer<'a> {
    text: &'a str,
}

macro_rules! through_serde_json {
    ($( $method:ident ( $( $arg:ident : $ty:ty ),* ) )*) => {
        $(
            fn $method<V: Visitor<'a>>(self, $( $arg: $ty, )* visitor: V) -> Result<V::Value, Self::Error> {
                let mut d = serde_json::Deserializer::from_str(self.text);
                let value = Deserializer::$method(&mut d, $( $arg, )* visitor)?;
                d.end()?;
                Ok(value)
            }
        )*
    };
}

impl<'a> Deserializer<'a> for ValueDeserializer<'a> {
    type Error = serde_json::Error;

    through_serde_json! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16() deserialize_i32()
        deserialize_i64() deserialize_i128() deserialize_u8() deserialize_u16() deserialize_u32()
        deserialize_u64() deserialize_u128() deserialize_f32() deserialize_f64() deserialize_char()
        deserialize_str() deserialize_string() deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit() deserialize_seq() deserialize_map()
        deserialize_identifier() deserialize_ignored_any()
        deserialize_unit_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        if name == RAW_VALUE_TOKEN {
            return visitor.visit_map(RawEntry { text: Some(Text::Borrowed(self.text)) });
        }
        let mut d = serde_json::Deserializer::from_str(self.text);
        let value = d.deserialize_newtype_struct(name, visitor)?;
        d.end()?;
        Ok(value)
    }
}

enum Text<'a> {
    Borrowed(&'a str),
    Owned(String),
}

/// serde_json's hand-over of a raw value: a map of one entry, the token and the text.
struct RawEntry<'a> {
    text: Option<Text<'a>>,
}

impl<'a> MapAccess<'a> for RawEntry<'a> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        if self.text.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(RAW_VALUE_TOKEN)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        match self.text.take() {
            Some(Text::Borrowed(text)) => seed.deserialize(BorrowedStrDeserializer::new(text)),
            Some(Text::Owned(text)) => seed.deserialize(StringDeserializer::new(text)),
            None => Err(de::Error::custom("a value asked for before its key")),
        }
    }
}
