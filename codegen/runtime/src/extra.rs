//! The members of an object that its type does not name, and open objects of
//! anything: kept as JSON text, parsed when looked at.

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use indexmap::IndexMap;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Unexpected, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::de::{Key, RAW_VALUE_TOKEN};

/// The members of an object that its type does not name: extension fields,
/// members of a later revision, the contents of an open object such as a tool's
/// `inputSchema`. They are kept as the JSON text they came as (reading them costs
/// a copy, not a parse), parsed into a [`Value`] the first time they are looked
/// at, and written back as they came, so a proxy passes them on untouched.
///
/// It is also the type of an open object whose values the schema leaves open
/// (`{ [key: string]: unknown }`, `object`): a request's generic `params`,
/// `_meta`, a tool call's `arguments`. Such an object is read whole, as its
/// text (one copy), split into members the first time one is looked at, and
/// written back as it came unless it was changed: a proxy that does not look
/// into a request's `params` neither parses nor prints them. A key repeated in
/// such an object is passed on as it came; looked at, the last one counts (as
/// in a `serde_json::Value`), so two such objects can be equal (`==` compares
/// values) and be written differently. Kept text nested deeper than serde_json
/// parses (127 arrays and objects) is refused when read, where it is, so
/// looking at it later cannot fail. From a deserializer other than
/// serde_json's (serde's buffer in a `#[serde(untagged)]` enum or under
/// `flatten`, another format) an open object is read member by member, as
/// values: it has no text to keep ([`Extra::as_raw`] is `None`). Members the
/// type does not name are kept as text only, so need serde_json.
///
/// Kept text is as it came except for line breaks, which JSON has only as
/// whitespace: each is kept as a space, so a message written with
/// `serde_json::to_string` stays on one line, as transports that frame messages
/// by lines need (MCP's stdio), also when the input was pretty-printed
/// ([`Extra::get_raw`] and [`Extra::as_raw`] give the text so kept).
///
/// Members keep the order they came in (or were inserted in), whatever features
/// the build gives `serde_json`.
///
/// Reads like a map of [`Value`]s: `extra["x-vendor"]`, [`Extra::get`],
/// [`Extra::iter`]; [`Extra::get_raw`] gives the text as received. Indexing a
/// missing key gives `Value::Null`, as indexing a `Value` does.
///
/// ```
/// use mcp_spec_types::v2026_07_28 as m;
///
/// let text = r#"{"name":"get_weather","inputSchema":{"type":"object"},"x-vendor":{ "tier": 2 }}"#;
/// let mut tool: m::Tool = mcp_spec_types::from_str(text).unwrap();
/// assert_eq!(tool.extra["x-vendor"]["tier"], 2);
/// assert_eq!(tool.extra.get_raw("x-vendor"), Some(r#"{ "tier": 2 }"#));
/// tool.extra.insert("x-owner", serde_json::json!("ops"));
/// assert_eq!(
///     serde_json::to_string(&tool).unwrap(),
///     r#"{"name":"get_weather","inputSchema":{"type":"object"},"x-vendor":{ "tier": 2 },"x-owner":"ops"}"#
/// );
/// ```
#[derive(Clone, Default)]
pub struct Extra(
    /// `None` when empty, as most are: one pointer in every struct, no allocation.
    Option<Box<Held>>,
);

#[derive(Clone)]
enum Held {
    /// Members kept one by one: built from values (`from_iter`, `From`,
    /// another deserializer), changed, or more unknown members of a struct
    /// than `Listed` holds.
    Members(IndexMap<String, Member>),
    /// A struct's unknown members as read, when there are few (as there
    /// mostly are, a result's members under `Result`): a list, looked up one
    /// by one, which costs less than hashing each key into a map.
    Listed(Vec<(String, Member)>),
    /// An open object read whole. Any change moves its members to `Members`
    /// and drops the text.
    Whole(Whole),
}

#[derive(Clone)]
struct Whole {
    /// JSON text serde_json has read: an object, no deeper than it parses.
    text: Box<str>,
    members: OnceLock<IndexMap<String, Member>>,
}

impl Whole {
    fn members(&self) -> &IndexMap<String, Member> {
        self.members.get_or_init(|| split(&self.text))
    }
}

/// The most unknown members kept as a list: past it they move to a map, so a
/// hostile object with many keys is not searched one by one for each (a
/// bound, not a measured optimum: sixteen short keys compared per insert at
/// most, about what hashing one costs).
const LISTED_MAX: usize = 16;

/// The members of an [`Extra`], in order, each with its value (parsed the first
/// time it is looked at).
///
/// ```
/// // In the order they came (a `serde_json::Value` built by `json!` would sort them).
/// let extra: mcp_spec_types::Extra = mcp_spec_types::from_str(r#"{"b": 1, "a": [true]}"#).unwrap();
/// let members: Vec<(&String, &serde_json::Value)> = extra.iter().collect();
/// assert_eq!(members, [(&"b".to_string(), &serde_json::json!(1)), (&"a".to_string(), &serde_json::json!([true]))]);
/// ```
#[derive(Clone)]
pub struct ExtraIter<'a>(Entries<'a>);

impl<'a> Iterator for ExtraIter<'a> {
    type Item = (&'a String, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, m)| (k, m.value()))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for ExtraIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, m)| (k, m.value()))
    }
}

impl ExactSizeIterator for ExtraIter<'_> {}

impl std::iter::FusedIterator for ExtraIter<'_> {}

impl fmt::Debug for ExtraIter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// The kept members, in order, however they are held.
#[derive(Clone)]
enum Entries<'a> {
    Map(indexmap::map::Iter<'a, String, Member>),
    List(std::slice::Iter<'a, (String, Member)>),
}

impl<'a> Iterator for Entries<'a> {
    type Item = (&'a String, &'a Member);
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Entries::Map(members) => members.next(),
            Entries::List(members) => members.next().map(|(k, m)| (k, m)),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Entries::Map(members) => members.size_hint(),
            Entries::List(members) => members.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Entries<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Entries::Map(members) => members.next_back(),
            Entries::List(members) => members.next_back().map(|(k, m)| (k, m)),
        }
    }
}

/// The deepest nesting of arrays and objects serde_json parses (its recursion
/// limit). Text kept unparsed is held to it when read, so that looking at it
/// later cannot fail.
const MAX_DEPTH: usize = 127;

/// Whether JSON text nests arrays and objects deeper than [`MAX_DEPTH`].
pub(crate) fn too_deep(text: &str) -> bool {
    let b = text.as_bytes();
    // A text too short, or with too few opening brackets, cannot be (most are).
    // (`{` and `[` differ in one bit; counted without a branch, a byte-wide
    // count per 255 bytes, the loop runs on vectors.)
    let openers = |chunk: &[u8]| chunk.iter().fold(0u8, |n, &c| n + u8::from(c | 0x20 == b'{'));
    if b.len() <= 2 * MAX_DEPTH || b.chunks(255).map(|chunk| usize::from(openers(chunk))).sum::<usize>() <= MAX_DEPTH {
        return false;
    }
    crate::text::nests_deeper(b, MAX_DEPTH)
}

/// The error for kept text nested deeper than serde_json parses.
pub(crate) fn too_deep_error<E: de::Error>() -> E {
    E::custom("recursion limit exceeded")
}

/// The members of an object's text, each as its own text. The text was read
/// as a JSON object, so it splits; a repeated key keeps its first place and its
/// last value.
fn split(text: &str) -> IndexMap<String, Member> {
    let members: IndexMap<String, Box<RawValue>> = serde_json::from_str(text).unwrap_or_default();
    members.into_iter().map(|(k, raw)| (k, Member::from_raw(raw))).collect()
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
    fn into_value(self) -> Value {
        self.value();
        self.value.into_inner().unwrap_or(Value::Null)
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
            Some(raw) => write_kept(s, raw.get()),
            None => self.value().serialize(s),
        }
    }
}

/// Writes kept JSON text as serde_json writes a `RawValue`: as it is.
fn write_kept<S: Serializer>(s: S, text: &str) -> Result<S::Ok, S::Error> {
    let mut raw = s.serialize_struct(RAW_VALUE_TOKEN, 1)?;
    raw.serialize_field(RAW_VALUE_TOKEN, text)?;
    raw.end()
}

/// Kept text with its line breaks as spaces, when it has any (`None` when it has
/// none, as compact text has not). JSON has line breaks only as whitespace
/// between tokens (inside a string they are escaped), so the value is the same,
/// and a message written with `serde_json::to_string` stays on one line, as
/// transports that frame messages by lines need (MCP's stdio: no embedded
/// newlines), also when its input was pretty-printed. Done once, as the text is
/// kept, not at every writing.
pub(crate) fn one_line(text: &str) -> Option<String> {
    // Every byte looked at, without an early way out: a loop the compiler runs
    // on vectors (a `memchr` per text counted twice the instructions on these
    // short texts, a word-at-a-time loop as many as this).
    if !text.bytes().fold(false, |found, b| found | (b == b'\n')) {
        return None;
    }
    // Byte by byte (a loop the compiler runs on vectors): ASCII for ASCII, so
    // the text stays UTF-8.
    let mut bytes = text.as_bytes().to_vec();
    for b in &mut bytes {
        if *b == b'\n' || *b == b'\r' {
            *b = b' ';
        }
    }
    String::from_utf8(bytes).ok()
}

impl Extra {
    pub const fn new() -> Extra {
        Extra(None)
    }
    /// The member `key` (split from the text first when the object was read whole).
    fn find(&self, key: &str) -> Option<&Member> {
        match self.0.as_deref()? {
            Held::Members(members) => members.get(key),
            Held::Listed(members) => members.iter().find(|(k, _)| k == key).map(|(_, m)| m),
            Held::Whole(whole) => whole.members().get(key),
        }
    }
    /// The members, to change: an object read whole is split, and its text
    /// dropped; listed members move to a map.
    fn map_mut(&mut self) -> &mut IndexMap<String, Member> {
        let held = self.0.get_or_insert_with(|| Box::new(Held::Members(IndexMap::new())));
        match &mut **held {
            Held::Members(_) => {}
            Held::Listed(members) => **held = Held::Members(std::mem::take(members).into_iter().collect()),
            Held::Whole(whole) => {
                let members = std::mem::take(&mut whole.members).into_inner().unwrap_or_else(|| split(&whole.text));
                **held = Held::Members(members);
            }
        }
        match &mut **held {
            Held::Members(members) => members,
            Held::Listed(_) | Held::Whole(_) => unreachable!("moved to a map just above"),
        }
    }
    /// Every member, in order (none when empty).
    fn entries(&self) -> Entries<'_> {
        match self.0.as_deref() {
            None => Entries::List([].iter()),
            Some(Held::Members(members)) => Entries::Map(members.iter()),
            Some(Held::Listed(members)) => Entries::List(members.iter()),
            Some(Held::Whole(whole)) => Entries::Map(whole.members().iter()),
        }
    }
    pub fn len(&self) -> usize {
        match self.0.as_deref() {
            None => 0,
            Some(Held::Members(members)) => members.len(),
            Some(Held::Listed(members)) => members.len(),
            Some(Held::Whole(whole)) => whole.members().len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_some()
    }
    /// The member's value, parsed on first use.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.find(key).map(Member::value)
    }
    /// The member's JSON text as it was read (`None` for one set with [`Extra::insert`]).
    pub fn get_raw(&self, key: &str) -> Option<&str> {
        self.find(key)?.raw.as_deref().map(RawValue::get)
    }
    /// The whole object's JSON text as it was read, when it was read as an open
    /// object (a request's `params`, ...) from JSON text and has not been
    /// changed since.
    pub fn as_raw(&self) -> Option<&str> {
        match self.0.as_deref()? {
            Held::Whole(whole) => Some(&whole.text),
            Held::Members(_) | Held::Listed(_) => None,
        }
    }
    /// The member's value, to change in place (parsed first; it is written from
    /// the value from then on, not as the text it came as).
    #[inline]
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        if !self.contains_key(key) {
            return None;
        }
        let member = self.map_mut().get_mut(key)?;
        member.value();
        member.raw = None;
        member.value.get_mut()
    }
    /// Reads the object as a type of the caller's (a tool's arguments as its
    /// own struct): from the text it came as when it has it, else from its values.
    /// A key the text repeats is read as the caller's type reads it (serde's
    /// derive refuses a struct's field given twice), where [`get`](Extra::get)
    /// takes the last.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        match self.as_raw() {
            Some(text) => serde_json::from_str(text),
            None => serde_json::from_value(Value::Object(self.iter().map(|(k, v)| (k.clone(), v.clone())).collect())),
        }
    }
    /// Sets a member, returning the value it had.
    pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Option<Value> {
        self.map_mut().insert(key.into(), Member::of(value)).map(Member::into_value)
    }
    /// Removes a member, returning its value; the others keep their order.
    /// (Removing a key that is not there changes nothing: the text is kept.)
    #[inline]
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        if !self.contains_key(key) {
            return None;
        }
        self.map_mut().shift_remove(key).map(Member::into_value)
    }
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries().map(|(k, _)| k)
    }
    /// Every member with its value, in order.
    pub fn iter(&self) -> ExtraIter<'_> {
        ExtraIter(self.entries())
    }
    /// The members as a JSON object.
    #[inline]
    pub fn into_map(self) -> serde_json::Map<String, Value> {
        self.into_iter().collect()
    }
    /// The members as written: for the generated serializers.
    #[doc(hidden)]
    pub fn members(&self) -> impl Iterator<Item = (&String, &Member)> {
        self.entries()
    }
    /// Keeps a member read as text (the reader has refused duplicates).
    pub(crate) fn insert_raw(&mut self, key: String, raw: Box<RawValue>) {
        self.push(key, Member::from_raw(raw));
    }
    /// Sets a member as serde_json writes `value`: for the generated widening
    /// conversions (`CallToolResult` into `Result`), which keep what the wider
    /// type does not name as the narrower one writes it, in its order (through a
    /// `Value`, objects would come out with their keys sorted).
    #[doc(hidden)]
    pub fn insert_written<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        // Writing this crate's types does not fail (a non-finite float is written as null).
        let raw = serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned());
        self.put(key.to_owned(), Member::from_raw(raw));
    }
    /// Moves `other`'s members after this one's, as they are (one kept as text
    /// stays that text), a key both hold taking `other`'s value in this one's
    /// place: for the generated widening conversions.
    #[doc(hidden)]
    pub fn append(&mut self, mut other: Extra) {
        if other.is_empty() {
            return;
        }
        for (key, member) in std::mem::take(other.map_mut()) {
            self.put(key, member);
        }
    }
    /// Sets a member: in its place when the key is there, else after the others.
    fn put(&mut self, key: String, member: Member) {
        if self.contains_key(&key) {
            self.map_mut().insert(key, member);
        } else {
            self.push(key, member);
        }
    }
    /// Adds a member whose key is not there yet.
    fn push(&mut self, key: String, member: Member) {
        match self.0.as_deref_mut() {
            None => {
                // Room for four at once (`vec![..]` would make room for one), as
                // most have no more.
                let mut members = Vec::with_capacity(4);
                members.push((key, member));
                self.0 = Some(Box::new(Held::Listed(members)));
            }
            Some(Held::Listed(members)) if members.len() < LISTED_MAX => members.push((key, member)),
            Some(_) => {
                self.map_mut().insert(key, member);
            }
        }
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Some(Held::Whole(whole)) = self.0.as_deref() {
            return write_kept(s, &whole.text);
        }
        let mut map = s.serialize_map(Some(self.len()))?;
        for (key, member) in self.entries() {
            map.serialize_entry(key, member)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Extra {
    /// Reads an open object whole, as its text, from serde_json (see the type's
    /// docs); from another deserializer (serde's own buffer in an untagged enum
    /// or under `flatten`, another format), member by member, as values.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Extra, D::Error> {
        d.deserialize_newtype_struct(RAW_VALUE_TOKEN, ExtraVisitor)
    }
}

struct ExtraVisitor;

impl<'de> Visitor<'de> for ExtraVisitor {
    type Value = Extra;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Extra, D::Error> {
        d.deserialize_map(ExtraVisitor)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Extra, A::Error> {
        let Some(Key(first)) = map.next_key::<Key<'de>>()? else {
            return Ok(Extra::new());
        };
        if first == RAW_VALUE_TOKEN {
            // serde_json's hand-over of the value's text.
            let Key(text) = map.next_value::<Key<'de>>()?;
            return whole(text);
        }
        // A map of values, from another deserializer.
        let mut extra = Extra::new();
        extra.insert(first.into_owned(), map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            extra.insert(key, value);
        }
        Ok(extra)
    }
}

/// An open object read whole from its JSON text, which serde_json has read.
pub(crate) fn whole<E: de::Error>(text: Cow<'_, str>) -> Result<Extra, E> {
    if !text.starts_with('{') {
        // Not an object: the error serde would give, from the value's kind.
        let unexpected = match text.as_bytes().first() {
            Some(b'[') => Unexpected::Seq,
            Some(b'"') => match serde_json::from_str::<String>(&text) {
                Ok(s) => return Err(E::invalid_type(Unexpected::Str(&s), &"an object")),
                Err(_) => Unexpected::Other("a string"),
            },
            Some(b't') => Unexpected::Bool(true),
            Some(b'f') => Unexpected::Bool(false),
            Some(b'n') => Unexpected::Unit,
            _ => match serde_json::from_str::<serde_json::Number>(&text) {
                Ok(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                    (Some(i), _, _) => Unexpected::Signed(i),
                    (_, Some(u), _) => Unexpected::Unsigned(u),
                    (_, _, Some(f)) => Unexpected::Float(f),
                    _ => Unexpected::Other("a number"),
                },
                Err(_) => Unexpected::Other("a number"),
            },
        };
        return Err(E::invalid_type(unexpected, &"an object"));
    }
    if too_deep(&text) {
        return Err(too_deep_error());
    }
    let text = match one_line(&text) {
        Some(text) => text.into_boxed_str(),
        None => text.into_owned().into_boxed_str(),
    };
    Ok(Extra(Some(Box::new(Held::Whole(Whole { text, members: OnceLock::new() })))))
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
        let members: IndexMap<String, Member> = iter.into_iter().map(|(k, v)| (k, Member::of(v))).collect();
        if members.is_empty() { Extra::new() } else { Extra(Some(Box::new(Held::Members(members)))) }
    }
}

impl From<serde_json::Map<String, Value>> for Extra {
    #[inline]
    fn from(map: serde_json::Map<String, Value>) -> Extra {
        map.into_iter().collect()
    }
}

/// A JSON object's members (`serde_json::json!({"location": "New York"})` as a
/// tool call's `arguments`); any other JSON value is an error naming its kind.
///
/// ```
/// use mcp_spec_types::Extra;
///
/// let arguments = Extra::try_from(serde_json::json!({"location": "New York"})).unwrap();
/// assert_eq!(arguments["location"], "New York");
/// assert!(Extra::try_from(serde_json::json!([1, 2])).is_err());
/// ```
impl TryFrom<Value> for Extra {
    type Error = serde_json::Error;
    #[inline]
    fn try_from(value: Value) -> Result<Extra, serde_json::Error> {
        match value {
            Value::Object(map) => Ok(map.into()),
            // serde_json's error for a value of another kind.
            other => Extra::deserialize(other),
        }
    }
}

impl IntoIterator for Extra {
    type Item = (String, Value);
    type IntoIter = std::iter::Map<indexmap::map::IntoIter<String, Member>, fn((String, Member)) -> (String, Value)>;
    /// Every member with its value, in order.
    #[inline]
    fn into_iter(mut self) -> Self::IntoIter {
        std::mem::take(self.map_mut()).into_iter().map(|(k, m)| (k, m.into_value()))
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a String, &'a Value);
    type IntoIter = ExtraIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl From<IndexMap<String, Value>> for Extra {
    #[inline]
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
