//! The members of an object that its type does not name.

use std::fmt;
use std::sync::OnceLock;

use indexmap::IndexMap;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

use super::object::{Duplicate, Key};

/// The members of an object that its type does not name: extension fields,
/// members of a later revision, the contents of an open object such as a tool's
/// `inputSchema`. They are kept as the JSON text they came as (reading them costs
/// a copy, not a parse), parsed into a [`Value`] the first time they are looked
/// at, and written back as they came, so a proxy passes them on untouched.
///
/// It is also the type of an open object whose values the schema leaves open
/// (`{ [key: string]: unknown }`, `object`): a request's generic `params`,
/// `_meta`, a tool call's `arguments`. Reading one is a copy of each member's
/// text; writing it back, a copy again (a `Value` would parse and print each).
/// A repeated key is an error, as in every object this crate reads.
///
/// Members keep the order they came in (or were inserted in), whatever features
/// the build gives `serde_json`.
///
/// Reads like a map of [`Value`]s: `extra["x-vendor"]`, [`Extra::get`],
/// [`Extra::iter`]; [`Extra::get_raw`] gives the text as received. Indexing a
/// missing key gives `Value::Null`, as indexing a `Value` does.
#[derive(Clone, Default)]
pub struct Extra {
    members: IndexMap<String, Member>,
}

/// One kept member: the text it came as (when it was read) and, once looked at
/// or when set from a value, its parsed value.
#[doc(hidden)]
#[derive(Clone)]
pub struct Member {
    raw: Option<Box<RawValue>>,
    value: OnceLock<Value>,
}

impl Member {
    fn value(&self) -> &Value {
        self.value.get_or_init(|| match &self.raw {
            // The text was read as JSON, so it parses again.
            Some(raw) => serde_json::from_str(raw.get()).unwrap_or(Value::Null),
            None => Value::Null,
        })
    }
    fn of(value: Value) -> Member {
        Member { raw: None, value: OnceLock::from(value) }
    }
    /// A member as the JSON text it came as.
    pub(crate) fn from_raw(raw: Box<RawValue>) -> Member {
        Member { raw: Some(raw), value: OnceLock::new() }
    }
}

impl Serialize for Member {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.raw {
            Some(raw) => raw.serialize(s),
            None => self.value().serialize(s),
        }
    }
}

impl Extra {
    pub fn new() -> Extra {
        Extra::default()
    }
    pub fn len(&self) -> usize {
        self.members.len()
    }
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.members.contains_key(key)
    }
    /// The member's value, parsed on first use.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.members.get(key).map(Member::value)
    }
    /// The member's JSON text as it was read (`None` for one set with [`Extra::insert`]).
    pub fn get_raw(&self, key: &str) -> Option<&str> {
        self.members.get(key)?.raw.as_deref().map(RawValue::get)
    }
    /// Sets a member, returning the value it had.
    pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Option<Value> {
        self.members.insert(key.into(), Member::of(value)).map(|m| m.value().clone())
    }
    /// Removes a member, returning its value; the others keep their order.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.members.shift_remove(key).map(|m| m.value().clone())
    }
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.members.keys()
    }
    /// Every member with its value, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.members.iter().map(|(k, m)| (k, m.value()))
    }
    /// The members as a JSON object.
    pub fn into_map(self) -> serde_json::Map<String, Value> {
        self.members.into_iter().map(|(k, m)| (k, m.value().clone())).collect()
    }
    /// The members as written: for the generated serializers.
    #[doc(hidden)]
    pub fn members(&self) -> impl Iterator<Item = (&String, &Member)> {
        self.members.iter()
    }
    /// Keeps a member read as text (the reader has refused duplicates).
    pub(crate) fn insert_raw(&mut self, key: String, raw: Box<RawValue>) {
        self.members.insert(key, Member::from_raw(raw));
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.members.len()))?;
        for (key, member) in &self.members {
            map.serialize_entry(key, member)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Extra, D::Error> {
        struct ExtraVisitor;
        impl<'de> Visitor<'de> for ExtraVisitor {
            type Value = Extra;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Extra, A::Error> {
                let mut extra = Extra { members: IndexMap::with_capacity(access.size_hint().unwrap_or(0)) };
                while let Some(Key(key)) = access.next_key::<Key<'de>>()? {
                    if extra.members.contains_key(&*key) {
                        // Fails, naming the key, once the value is skipped.
                        access.next_value_seed(Duplicate(&key))?;
                        continue;
                    }
                    let raw: Box<RawValue> = access.next_value()?;
                    extra.members.insert(key.into_owned(), Member::from_raw(raw));
                }
                Ok(extra)
            }
        }
        d.deserialize_map(ExtraVisitor)
    }
}

impl std::ops::Index<&str> for Extra {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

impl PartialEq for Extra {
    /// Equal when the same keys have equal values (not necessarily the same text,
    /// nor in the same order).
    fn eq(&self, other: &Extra) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Eq for Extra {}

impl fmt::Debug for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl FromIterator<(String, Value)> for Extra {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Extra {
        Extra { members: iter.into_iter().map(|(k, v)| (k, Member::of(v))).collect() }
    }
}

impl From<serde_json::Map<String, Value>> for Extra {
    fn from(map: serde_json::Map<String, Value>) -> Extra {
        map.into_iter().collect()
    }
}

impl IntoIterator for Extra {
    type Item = (String, Value);
    type IntoIter = std::iter::Map<indexmap::map::IntoIter<String, Member>, fn((String, Member)) -> (String, Value)>;
    /// Every member with its value, in order.
    fn into_iter(self) -> Self::IntoIter {
        self.members.into_iter().map(|(k, m)| {
            let value = m.value().clone();
            (k, value)
        })
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a String, &'a Value);
    type IntoIter = std::iter::Map<
        indexmap::map::Iter<'a, String, Member>,
        fn((&'a String, &'a Member)) -> (&'a String, &'a Value),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.members.iter().map(|(k, m)| (k, m.value()))
    }
}

impl From<IndexMap<String, Value>> for Extra {
    fn from(map: IndexMap<String, Value>) -> Extra {
        map.into_iter().collect()
    }
}

impl Extend<(String, Value)> for Extra {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}
