//! A JSON object's members as the text they came in, in order: how the bridge
//! reads a message around the part it reads as its generated type (the
//! JSON-RPC envelope, a `_meta`, the members a result gains or loses between
//! the eras) and writes it back without parsing what it does not touch. Each
//! member's value is a `serde_json` `RawValue`: checked to be JSON as it is
//! read, handed over and written as it came.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::de::{Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::{RawValue, to_raw_value};

/// An object's members, each key with its value's text.
#[derive(Clone, Debug, Default)]
pub(crate) struct Members<'a>(Vec<(Cow<'a, str>, Cow<'a, RawValue>)>);

impl<'a> Members<'a> {
    /// The members of `text`, which must be one JSON object; a key given
    /// twice keeps its last value, as `serde_json::Value` does.
    pub(crate) fn read(text: &'a str) -> Result<Members<'a>, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The members, owning their text.
    pub(crate) fn into_owned(self) -> Members<'static> {
        let own = |(k, v): (Cow<'a, str>, Cow<'a, RawValue>)| {
            (Cow::Owned(k.into_owned()), Cow::<RawValue>::Owned(v.into_owned()))
        };
        Members(self.0.into_iter().map(own).collect())
    }

    /// A member's value.
    pub(crate) fn get(&self, key: &str) -> Option<&RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_ref())
    }

    /// An object member's own members (none when it is absent or no object).
    pub(crate) fn object(&self, key: &str) -> Members<'_> {
        self.get(key).and_then(|v| Members::read(v.get()).ok()).unwrap_or_default()
    }

    /// A member's value read as `T` (`None` when absent or not a `T`).
    pub(crate) fn read_member<'s, T: Deserialize<'s>>(&'s self, key: &str) -> Option<T> {
        self.get(key).and_then(|v| serde_json::from_str(v.get()).ok())
    }

    /// A string member, borrowed unless it has escapes (serde reads a
    /// `Cow<str>` always owned).
    pub(crate) fn text(&self, key: &str) -> Option<Cow<'_, str>> {
        self.read_member::<Text>(key).map(|text| text.0)
    }

    /// Takes a member out.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Cow<'a, RawValue>> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1)
    }

    /// Sets a member: in its place when present, else last.
    pub(crate) fn set(&mut self, key: impl Into<Cow<'a, str>>, value: Cow<'a, RawValue>) {
        let key = key.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.0.push((key, value)),
        }
    }

    /// Keeps the members `keep` says yes to.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.0.retain(|(k, _)| keep(k));
    }

    /// Edits an object member's own members, written back in its place
    /// (nothing when it is absent or no object).
    pub(crate) fn edit(&mut self, key: &str, f: impl FnOnce(&mut Members<'_>)) {
        let Some(at) = self.0.iter().position(|(k, _)| k == key) else { return };
        let Ok(mut inner) = Members::read(self.0[at].1.get()) else { return };
        f(&mut inner);
        let edited = inner.write();
        self.0[at].1 = Cow::Owned(edited);
    }

    /// The members, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Cow<'a, str>, &RawValue)> {
        self.0.iter().map(|(k, v)| (k, v.as_ref()))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The members written as one object.
    pub(crate) fn write(&self) -> Box<RawValue> {
        written(self)
    }
}

/// A message written as its line (the generated types' writing does not fail).
pub(crate) fn to_line<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string())
}

/// A value written as JSON text, to be a member of another.
pub(crate) fn written<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// A constant's JSON text (`"\"complete\""`), as a member's value.
pub(crate) fn constant(text: &'static str) -> Cow<'static, RawValue> {
    Cow::Borrowed(serde_json::from_str(text).expect("a constant is JSON"))
}

impl Serialize for Members<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k.as_ref(), v.as_ref())?;
        }
        map.end()
    }
}

/// Members written with one member's value given by another value, nested
/// and in one pass (appended when absent): how a message whose `params`
/// gained a `_meta` is written once.
pub(crate) struct Replaced<'x, 'a, V: ?Sized> {
    pub members: &'x Members<'a>,
    pub key: &'x str,
    pub value: &'x V,
}

impl<V: Serialize + ?Sized> Serialize for Replaced<'_, '_, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        let mut placed = false;
        for (k, v) in &self.members.0 {
            if k == self.key {
                map.serialize_entry(k.as_ref(), self.value)?;
                placed = true;
            } else {
                map.serialize_entry(k.as_ref(), v.as_ref())?;
            }
        }
        if !placed {
            map.serialize_entry(self.key, self.value)?;
        }
        map.end()
    }
}

/// A string (a key, a member's value), borrowed from the text unless it has
/// escapes. (Written here: the library builds without serde's derive, and the
/// types runtime's own borrowed key is private to the generated code.)
pub(crate) struct Text<'a>(pub Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct String_;
        impl<'de> Visitor<'de> for String_ {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(String_)
    }
}

/// An object's member `key` read as a string, the rest passed over unread (a
/// result's `resultType`); an error when `text` is no object or the member no
/// string.
pub(crate) fn string_member<'a>(text: &'a str, key: &str) -> Result<Option<Cow<'a, str>>, serde_json::Error> {
    struct Find<'k>(&'k str);
    impl<'de> DeserializeSeed<'de> for Find<'_> {
        type Value = Option<Cow<'de, str>>;
        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
            deserializer.deserialize_map(self)
        }
    }
    impl<'de> Visitor<'de> for Find<'_> {
        type Value = Option<Cow<'de, str>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(Text(k)) = map.next_key::<Text<'de>>()? {
                if k == self.0 {
                    found = Some(map.next_value::<Text<'de>>()?.0);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(found)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let found = Find(key).deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(found)
}

/// How many keys an object's reading compares a new key with before it
/// indexes them.
const SCANNED_KEYS: usize = 16;

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> Visitor<'de> for Object {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut members: Vec<(Cow<'de, str>, Cow<'de, RawValue>)> =
                    Vec::with_capacity(map.size_hint().unwrap_or(4));
                // A repeated key is looked for among those read: by a scan while
                // they are few (a message's objects), by a hash index past that,
                // so an object of a million keys is not a trillion comparisons.
                let mut index: Option<HashMap<Cow<'de, str>, usize>> = None;
                while let Some((Text(key), value)) = map.next_entry::<Text<'de>, &'de RawValue>()? {
                    let seen = match &index {
                        Some(index) => index.get(key.as_ref()).copied(),
                        None => members.iter().position(|(k, _)| *k == key),
                    };
                    if let Some(at) = seen {
                        members[at].1 = Cow::Borrowed(value);
                        continue;
                    }
                    if let Some(index) = &mut index {
                        index.insert(key.clone(), members.len());
                    }
                    members.push((key, Cow::Borrowed(value)));
                    if index.is_none() && members.len() > SCANNED_KEYS {
                        index = Some(members.iter().enumerate().map(|(at, (k, _))| (k.clone(), at)).collect());
                    }
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Object)
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde_json::{Value, json};

    use super::{Members, written};

    /// Members are read in order, a repeated key keeps its last value (as a
    /// `Value` does), escaped keys are read as what they say, and writing them
    /// back gives the same JSON; what is not an object is an error.
    #[test]
    fn members_read_and_write_back_what_came() {
        let text = r#"{"b": [1, 2], "a\u0041": {"x": "y"}, "b": 3, "c": null}"#;
        let mut members = Members::read(text).expect("an object");
        assert_eq!(members.get("aA").map(|v| v.get()), Some(r#"{"x": "y"}"#));
        assert_eq!(members.read_member::<u64>("b"), Some(3));
        let back: Value = serde_json::from_str(members.write().get()).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(text).unwrap());
        members.remove("aA");
        members.set("d", Cow::Owned(written(&json!({"e": true}))));
        members.set("b", Cow::Owned(written(&json!("now"))));
        members.retain(|k| k != "c");
        assert_eq!(members.write().get(), r#"{"b":"now","d":{"e":true}}"#);
        let inner = Members::read(r#"{"x": 1}"#).unwrap();
        let nested = super::Replaced { members: &members, key: "d", value: &inner };
        assert_eq!(super::to_line(&nested), r#"{"b":"now","d":{"x":1}}"#);
        let appended = super::Replaced { members: &members, key: "z", value: &inner };
        assert_eq!(super::to_line(&appended), r#"{"b":"now","d":{"e":true},"z":{"x":1}}"#);
        for not_an_object in ["[1]", "3", "\"x\"", "{", "{\"a\": }"] {
            assert!(Members::read(not_an_object).is_err(), "{not_an_object}");
            assert!(super::string_member(not_an_object, "a").is_err(), "{not_an_object}");
        }
        let result = r#"{"content": [{"resultType": "x"}], "resultType": "input_\u0072equired"}"#;
        assert_eq!(super::string_member(result, "resultType").unwrap().as_deref(), Some("input_required"));
        assert_eq!(super::string_member(r#"{"a": 1}"#, "resultType").unwrap(), None);
        assert!(super::string_member(r#"{"resultType": 1}"#, "resultType").is_err());
    }

    /// Past the keys compared one by one, a repeated key is still found (by
    /// the index): it keeps its first place and its last value, before and
    /// after the index is made, escaped or not, as a `Value` reads them.
    #[test]
    fn a_repeated_key_is_found_among_many() {
        let count = super::SCANNED_KEYS * 3;
        let mut text = String::from("{");
        for at in 0..count {
            text.push_str(&format!("\"k{at}\": {at}, "));
            if at == 5 {
                text.push_str("\"k3\": \"early\", ");
            }
        }
        text.push_str(r#""k40": "late", "k\u0031": "escaped", "new": 0}"#);
        let members = Members::read(&text).expect("an object");
        let keys: Vec<&str> = members.iter().map(|(k, _)| k.as_ref()).collect();
        let expected: Vec<String> = (0..count).map(|at| format!("k{at}")).chain(["new".to_string()]).collect();
        assert_eq!(keys, expected);
        assert_eq!(members.read_member::<String>("k3").as_deref(), Some("early"));
        assert_eq!(members.read_member::<String>("k40").as_deref(), Some("late"));
        assert_eq!(members.read_member::<String>("k1").as_deref(), Some("escaped"));
        assert_eq!(members.read_member::<u64>("k41"), Some(41));
        let back: Value = serde_json::from_str(members.write().get()).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(&text).unwrap());
    }
}
