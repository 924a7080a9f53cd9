//! Small pieces of serde reading every other module uses: an object's key
//! (borrowed from the input when it can be), a repeated key's error, skipping
//! what is not taken, and the two private hand-overs of serde_json that this
//! crate relies on: a value's raw text (`RawValue`'s token) and a number with
//! `arbitrary_precision` (the canary tests in this module fail if either stops
//! reaching us).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};

/// An object key, borrowed from the input when the input allows it.
pub struct Key<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// Skips a repeated key's value and fails with "duplicate field", from inside the
/// value so that the error's path names the key.
pub(crate) struct Duplicate<'a>(pub(crate) &'a str);

impl<'de> de::DeserializeSeed<'de> for Duplicate<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        de::IgnoredAny::deserialize(d)?;
        Err(de::Error::custom(format_args!("duplicate field `{}`", self.0)))
    }
}

/// The name under which `serde_json` hands over a value's text: asked for a
/// newtype struct of this name, its deserializers call `visit_map` with one
/// entry whose value is the text, borrowed from the input when the input is
/// text in memory. (How `&RawValue` and `Box<RawValue>` read themselves.)
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// Reads a union from any deserializer: as JSON text first, borrowed from the
/// input when `serde_json` reads text in memory (no copy), else owned.
pub fn raw_of<'de, D: Deserializer<'de>>(d: D) -> Result<Cow<'de, str>, D::Error> {
    struct RawText;
    impl<'de> Visitor<'de> for RawText {
        type Value = Cow<'de, str>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any valid JSON value")
        }
        // Only serde_json's one entry: a map of another deserializer (a
        // `serde_json::Map`, serde's `MapDeserializer`) is no JSON text, and
        // fails as it failed for `Box<RawValue>`; so does anything else.
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cow<'de, str>, A::Error> {
            match map.next_key::<Key<'de>>()? {
                Some(key) if key.0 == RAW_VALUE_TOKEN => Ok(map.next_value::<Key<'de>>()?.0),
                _ => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
            }
        }
    }
    d.deserialize_newtype_struct(RAW_VALUE_TOKEN, RawText)
}

/// The name under which `serde_json` with its `arbitrary_precision` feature
/// hands over a number: a map of one entry whose value is the number's text.
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// What a union decided by kind makes of a map: the number's text when it is a
/// number in `serde_json`'s `arbitrary_precision` form, else nothing, having read
/// over the object (so its error points past the value, as when read as text).
/// (Cargo turns the feature on for every crate of a build when any crate asks.)
pub fn number_or_skip<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Cow<'de, str>>, A::Error> {
    match map.next_key::<Key<'de>>()? {
        Some(key) if key.0 == NUMBER_TOKEN => Ok(Some(map.next_value::<Key<'de>>()?.0)),
        Some(_) => {
            map.next_value::<de::IgnoredAny>()?;
            skip_map(map)?;
            Ok(None)
        }
        None => Ok(None),
    }
}

fn skip_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Reads over the rest of an array (for a value of a kind that cannot be taken).
pub fn skip_seq<'de, A: de::SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<de::IgnoredAny>()?.is_some() {}
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Canaries: serde_json's raw-value token is private to serde_json, and the
    //! reading of unions and of [`Extra`](crate::Extra) stands on it. If a
    //! serde_json release renames it or stops honouring it, these fail first,
    //! naming it, before every union test fails for no visible reason.

    use super::*;

    #[test]
    fn serde_json_hands_over_a_values_text_by_the_raw_value_token() {
        let text = r#"{ "a" : [1, 2 ] ,"b":"\u00e9" }"#;
        let mut d = serde_json::Deserializer::from_str(text);
        let raw = raw_of(&mut d).expect("serde_json no longer honours the raw-value token");
        assert!(matches!(raw, Cow::Borrowed(_)), "the text is no longer borrowed from the input");
        assert_eq!(raw, text);
        // From a reader the text is handed over owned, whole.
        let mut d = serde_json::Deserializer::from_reader(text.as_bytes());
        assert_eq!(raw_of(&mut d).unwrap(), text);
        // It is the token serde_json's own `RawValue` answers to.
        let boxed: Box<serde_json::value::RawValue> = serde_json::from_str(text).unwrap();
        assert_eq!(boxed.get(), text);
    }

    #[test]
    fn the_raw_value_token_reaches_extra() {
        let text = r#"{"z":1,  "a" : {"deep":[true]}}"#;
        let extra: crate::Extra = serde_json::from_str(text).unwrap();
        assert_eq!(extra.as_raw(), Some(text), "an open object is no longer kept as its text");
        assert_eq!(serde_json::to_string(&extra).unwrap(), text, "kept text is no longer written as it came");
    }

    #[test]
    fn a_value_hands_over_its_text_and_another_format_nothing() {
        // serde_json's `Value` writes itself out for the token.
        let value = serde_json::json!({"a": [1, "x"]});
        assert_eq!(raw_of(value).unwrap(), r#"{"a":[1,"x"]}"#);
        // A map of another deserializer is no JSON text: an error, not a guess.
        let map = serde::de::value::MapDeserializer::<_, serde::de::value::Error>::new([("a", 1)].into_iter());
        assert!(raw_of(map).is_err());
    }
}
