//! Support code for the generated types: reading object keys, checking fixed
//! values, measuring how well a JSON value fits a type (to decide unions), and
//! writing numbers as they were written. Public for the generated modules only.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;
use std::sync::OnceLock;

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

/// The value a field is fixed to by a literal type.
#[derive(Clone, Copy, Debug)]
pub enum Fixed {
    Str(&'static str),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Fixed {
    pub fn matches(&self, v: &Value) -> bool {
        match self {
            Fixed::Str(s) => v.as_str() == Some(*s),
            Fixed::Int(i) => v.as_i64() == Some(*i),
            Fixed::Float(x) => v.as_f64() == Some(*x),
            Fixed::Bool(b) => v.as_bool() == Some(*b),
        }
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fixed::Str(s) => write!(f, "{s:?}"),
            Fixed::Int(i) => write!(f, "{i}"),
            Fixed::Float(x) => write!(f, "{x}"),
            Fixed::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl Serialize for Fixed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Fixed::Str(v) => s.serialize_str(v),
            Fixed::Int(v) => s.serialize_i64(*v),
            Fixed::Float(v) => Float(*v).serialize(s),
            Fixed::Bool(v) => s.serialize_bool(*v),
        }
    }
}

/// Reads the value of a fixed field and checks it, naming the field and the
/// expected value when it differs. The check runs inside the value's
/// deserialization, so path-tracking deserializers place the error at the member.
pub fn read_fixed<'de, A: MapAccess<'de>>(
    map: &mut A,
    field: &'static str,
    expected: Fixed,
    seen: &mut bool,
) -> Result<(), A::Error> {
    if *seen {
        return map.next_value_seed(Duplicate(field));
    }
    *seen = true;
    map.next_value_seed(FixedSeed { field, expected })
}

struct FixedSeed {
    field: &'static str,
    expected: Fixed,
}

impl<'de> de::DeserializeSeed<'de> for FixedSeed {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        // Scalars are compared as they come, without building a `Value`.
        d.deserialize_any(self)
    }
}

impl FixedSeed {
    fn check<E: de::Error>(&self, ok: bool, found: impl fmt::Display) -> Result<(), E> {
        if ok {
            Ok(())
        } else {
            Err(E::custom(format_args!("invalid value for `{}`: expected {}, found {found}", self.field, self.expected)))
        }
    }
}

impl<'de> Visitor<'de> for FixedSeed {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.expected)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.check(matches!(self.expected, Fixed::Str(s) if s == v), Value::from(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        let ok = match self.expected {
            Fixed::Int(i) => i == v,
            Fixed::Float(x) => x == v as f64,
            _ => false,
        };
        self.check(ok, v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        let ok = match self.expected {
            Fixed::Int(i) => u64::try_from(i).is_ok_and(|i| i == v),
            Fixed::Float(x) => x == v as f64,
            _ => false,
        };
        self.check(ok, v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.check(matches!(self.expected, Fixed::Float(x) if x == v), v)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.check(matches!(self.expected, Fixed::Bool(b) if b == v), v)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.check(false, "null")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        self.check(false, "an array")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
        self.check(false, "an object")
    }
}

/// Skips a repeated key's value and fails with "duplicate field", from inside the
/// value so that the error's path names the key.
struct Duplicate<'a>(&'a str);

impl<'de> de::DeserializeSeed<'de> for Duplicate<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        de::IgnoredAny::deserialize(d)?;
        Err(de::Error::custom(format_args!("duplicate field `{}`", self.0)))
    }
}

/// Reads a field's value into its slot, refusing a second occurrence of the key.
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

/// Keeps a member the type does not name, as the JSON text it came as,
/// refusing a duplicate key.
pub fn read_extra<'de, A: MapAccess<'de>>(map: &mut A, key: Key<'de>, extra: &mut Extra) -> Result<(), A::Error> {
    if extra.contains_key(&key.0) {
        return map.next_value_seed(Duplicate(&key.0));
    }
    let raw: Box<RawValue> = map.next_value()?;
    extra.members.insert(key.0.into_owned(), Member { raw: Some(raw), value: OnceLock::new() });
    Ok(())
}

/// The members of an object that its type does not name: extension fields,
/// members of a later revision, the contents of an open object such as a tool's
/// `inputSchema`. They are kept as the JSON text they came as (reading them costs
/// a copy, not a parse), parsed into a [`Value`] the first time they are looked
/// at, and written back as they came, so a proxy passes them on untouched.
///
/// Reads like a map of [`Value`]s: `extra["x-vendor"]`, [`Extra::get`],
/// [`Extra::iter`]; [`Extra::get_raw`] gives the text as received. Indexing a
/// missing key gives `Value::Null`, as indexing a `Value` does.
#[derive(Clone, Default)]
pub struct Extra {
    members: BTreeMap<String, Member>,
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
    /// Removes a member, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.members.remove(key).map(|m| m.value().clone())
    }
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.members.keys()
    }
    /// Every member with its value, by key.
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
}

impl std::ops::Index<&str> for Extra {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

impl PartialEq for Extra {
    /// Equal when the same keys have equal values (not necessarily the same text).
    fn eq(&self, other: &Extra) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

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

impl Extend<(String, Value)> for Extra {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

/// The error for a required field that is absent.
pub fn missing<E: de::Error>(field: &'static str) -> E {
    E::missing_field(field)
}

/// How well a JSON value fits a type: `None` when it cannot be that type, else
/// the number of object members, at any depth, that the type knows by name. Unions
/// use it to take the most specific member rather than the first that parses.
pub trait Fit {
    fn fit(v: &Value) -> Option<u32>;
}

impl Fit for String {
    fn fit(v: &Value) -> Option<u32> {
        v.is_string().then_some(0)
    }
}
impl Fit for i64 {
    fn fit(v: &Value) -> Option<u32> {
        v.is_i64().then_some(0)
    }
}
impl Fit for f64 {
    fn fit(v: &Value) -> Option<u32> {
        v.is_number().then_some(0)
    }
}
impl Fit for bool {
    fn fit(v: &Value) -> Option<u32> {
        v.is_boolean().then_some(0)
    }
}
impl Fit for Value {
    fn fit(_: &Value) -> Option<u32> {
        Some(0)
    }
}
impl<T: Fit> Fit for Vec<T> {
    fn fit(v: &Value) -> Option<u32> {
        let items = v.as_array()?;
        let mut score = 0u32;
        for item in items {
            score = score.saturating_add(T::fit(item)?);
        }
        Some(score)
    }
}
impl<T: Fit> Fit for BTreeMap<String, T> {
    fn fit(v: &Value) -> Option<u32> {
        let m = v.as_object()?;
        let mut score = 0u32;
        for item in m.values() {
            score = score.saturating_add(T::fit(item)?);
        }
        Some(score)
    }
}
impl Fit for serde_json::Map<String, Value> {
    fn fit(v: &Value) -> Option<u32> {
        v.is_object().then_some(0)
    }
}
impl<T: Fit> Fit for Box<T> {
    fn fit(v: &Value) -> Option<u32> {
        T::fit(v)
    }
}
impl<T: Fit> Fit for Option<T> {
    fn fit(v: &Value) -> Option<u32> {
        if v.is_null() { Some(0) } else { T::fit(v) }
    }
}

/// A field of an object type, as [`fit_object`] checks it.
pub struct FieldShape {
    pub name: &'static str,
    pub required: bool,
    pub fit: fn(&Value) -> Option<u32>,
    pub fixed: Option<Fixed>,
}

/// An object fits when every required field is present, every fixed field has its
/// value and every known field's value fits; the score counts the members it knows,
/// and those its fields' types know in turn.
pub fn fit_object(v: &Value, fields: &[FieldShape]) -> Option<u32> {
    let m = v.as_object()?;
    let mut known = 0u32;
    for f in fields {
        match m.get(f.name) {
            Some(value) => {
                let nested = match f.fixed {
                    Some(fixed) if fixed.matches(value) => 0,
                    Some(_) => return None,
                    None => (f.fit)(value)?,
                };
                known = known.saturating_add(1).saturating_add(nested);
            }
            None if f.required => return None,
            None => {}
        }
    }
    Some(known)
}

/// A field whose value picks a member when it is one of the listed values.
pub type Selector<'a> = Option<(&'a str, &'a [(&'a str, usize)])>;

/// The member that fits best: the highest score, the earliest on a tie. With a
/// selector, a listed value of its field picks its member outright (if that
/// member fits), and the members it names are out of the running otherwise,
/// unless no other member fits (a message that breaks the schema is still read
/// whole rather than refused).
pub fn pick(v: &Value, members: &[fn(&Value) -> Option<u32>], selector: Selector<'_>) -> Option<(usize, u32)> {
    if let Some((field, tags)) = selector {
        let value = v.get(field).and_then(Value::as_str);
        if let Some(&(_, k)) = tags.iter().find(|(t, _)| Some(*t) == value) {
            return members[k](v).map(|score| (k, score));
        }
        let unselected = best_fit(v, members, |i| !tags.iter().any(|(_, k)| *k == i));
        if unselected.is_some() {
            return unselected;
        }
    }
    best_fit(v, members, |_| true)
}

fn best_fit(v: &Value, members: &[fn(&Value) -> Option<u32>], allowed: impl Fn(usize) -> bool) -> Option<(usize, u32)> {
    let mut best: Option<(usize, u32)> = None;
    for (i, fit) in members.iter().enumerate() {
        if !allowed(i) {
            continue;
        }
        if let Some(score) = fit(v)
            && best.is_none_or(|(_, s)| score > s)
        {
            best = Some((i, score));
        }
    }
    best
}

/// The member a discriminator value selects; with a fallback, any value no
/// member claims selects the fallback.
pub fn by_tag(v: &Value, field: &str, tags: &[&[Fixed]], fallback: Option<usize>) -> Result<usize, String> {
    let Some(tag) = v.get(field) else {
        return Err(match v {
            Value::Object(_) => format!("missing field `{field}`"),
            other => format!("invalid type: {}, expected an object", kind(other)),
        });
    };
    tags.iter()
        .position(|ts| ts.iter().any(|t| t.matches(tag)))
        .or(fallback)
        .ok_or_else(|| {
            let expected: Vec<String> = tags.iter().flat_map(|ts| ts.iter().map(|t| t.to_string())).collect();
            format!("unknown `{field}` value {tag}, expected one of {}", expected.join(", "))
        })
}

/// An error of a union, prefixed with the union's name.
pub fn in_union(union: &str, e: String) -> String {
    format!("{union}: {e}")
}

/// The error for a value that fits no member of a union.
pub fn fits_none(union: &str, v: &Value) -> String {
    format!("{union}: the value fits none of the members (it is {} {})", article(kind(v)), kind(v))
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// What a union's input says about one of its members, looked up without
/// building the rest.
enum Probe {
    Found(Value),
    Missing,
    NotObject(&'static str),
}

struct ProbeSeed<'f>(&'f str);

impl<'de> Visitor<'de> for ProbeSeed<'_> {
    type Value = Probe;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Probe, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if found.is_none() && key.0 == self.0 {
                found = Some(map.next_value::<Value>()?);
            } else {
                map.next_value::<de::IgnoredAny>()?;
            }
        }
        Ok(found.map_or(Probe::Missing, Probe::Found))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Probe, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Probe::NotObject("array"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Probe, E> {
        Ok(Probe::NotObject("string"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Probe, E> {
        Ok(Probe::NotObject("number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Probe, E> {
        Ok(Probe::NotObject("number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Probe, E> {
        Ok(Probe::NotObject("number"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Probe, E> {
        Ok(Probe::NotObject("boolean"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Probe, E> {
        Ok(Probe::NotObject("null"))
    }
}

/// [`by_tag`] on a union's input as JSON text: only the discriminator is parsed.
pub fn by_tag_raw(raw: &RawValue, field: &str, tags: &[&[Fixed]], fallback: Option<usize>) -> Result<usize, String> {
    let mut d = serde_json::Deserializer::from_str(raw.get());
    match de::Deserializer::deserialize_any(&mut d, ProbeSeed(field)).map_err(|e| without_position(&e))? {
        Probe::Found(tag) => {
            let mut probe = serde_json::Map::new();
            probe.insert(field.to_string(), tag);
            by_tag(&Value::Object(probe), field, tags, fallback)
        }
        Probe::Missing => Err(format!("missing field `{field}`")),
        Probe::NotObject(kind) => Err(format!("invalid type: {kind}, expected an object")),
    }
}

/// A union's input, parsed for the shape rule.
pub fn parse_raw(raw: &RawValue) -> Result<Value, String> {
    serde_json::from_str(raw.get()).map_err(|e| without_position(&e))
}

/// Reads the chosen member from the union's input text, so its own kept members
/// stay text too; the error says which member was being read.
pub fn member_raw<T: de::DeserializeOwned>(raw: &RawValue, union: &str, variant: &str) -> Result<T, String> {
    serde_json::from_str(raw.get()).map_err(|e| format!("{union}::{variant}: {}", without_position(&e)))
}

/// A JSON value as text, for [`member_raw`] when the input came as a `Value`.
pub fn to_raw(value: &Value) -> Result<Box<RawValue>, String> {
    serde_json::value::to_raw_value(value).map_err(|e| e.to_string())
}

/// The message of an error met inside a union's input, without a position that
/// would count from the start of that fragment rather than of the document.
fn without_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) if e.line() > 0 => s[..i].to_string(),
        _ => s,
    }
}

/// Deserializes a buffered member, saying which member was being read.
pub fn member<T: de::DeserializeOwned>(v: Value, union: &str, variant: &str) -> Result<T, String> {
    T::deserialize(v).map_err(|e| format!("{union}::{variant}: {e}"))
}

/// Describes a JSON value's kind for messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Writes an `f64` that holds a whole number as an integer, so `50` stays `50`
/// rather than becoming `50.0`.
pub struct Float(pub f64);

impl Serialize for Float {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_finite() && v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
            s.serialize_i64(v as i64)
        } else {
            s.serialize_f64(v)
        }
    }
}

/// [`Float`] for `f64 | null`.
pub struct NullableFloat(pub Option<f64>);

impl Serialize for NullableFloat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(v) => Float(v).serialize(s),
            None => s.serialize_none(),
        }
    }
}

/// [`Float`] for arrays of `f64`.
pub struct FloatSeq<'a>(pub &'a [f64]);

impl Serialize for FloatSeq<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for v in self.0 {
            seq.serialize_element(&Float(*v))?;
        }
        seq.end()
    }
}

/// A type of a revision module, by its schema name, with a function that reads
/// JSON text into the type and writes the value back as JSON.
pub struct TypeEntry {
    pub name: &'static str,
    /// Reads JSON text as the type, and only that (for benchmarks).
    pub read: fn(&str) -> Result<(), String>,
    pub roundtrip: fn(&str) -> Result<Value, String>,
    /// For unions: reads a JSON value and says which member it chose.
    pub choose: Option<ChooseMember>,
}

/// Reads a JSON value as a union and names the member chosen.
pub type ChooseMember = fn(Value) -> Result<&'static str, String>;

/// Reads `json` as `T`.
pub fn read<T: de::DeserializeOwned>(json: &str) -> Result<(), String> {
    serde_json::from_str::<T>(json).map(drop).map_err(|e| e.to_string())
}

/// Reads `json` as `T` and writes it back.
pub fn roundtrip<T: de::DeserializeOwned + Serialize>(json: &str) -> Result<Value, String> {
    let value: T = serde_json::from_str(json).map_err(|e| e.to_string())?;
    serde_json::to_value(&value).map_err(|e| e.to_string())
}

/// The serde and `Fit` impls of one generated object type. The generator writes
/// the type and one invocation per type listing its members in schema order:
///
/// - `[fixed "wire" slot (Fixed::...)]`: a member fixed by a literal (no Rust field);
/// - `[required "wire" field (Type) wrap field]`, `[optional ...]`: a member and its field;
/// - `[defaulted "wire" field (Type) wrap field (default)]`: required, read as `default` when absent;
///
/// where `wrap` says how the value is written (`plain`, or `float`, `nullable_float`,
/// `float_seq` for floats that keep `50` as `50`); a member is read into a local of
/// its field's name (`slot`), and `inits` lists the Rust fields.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_object {
    ($name:ident, $expecting:literal, $extra:ident,
     fields: [ $( [$kind:ident $wire:literal $slot:ident $($rest:tt)*] )* ],
     inits: [ $( $field:ident )* ]) => {
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                $( $crate::__mcp_member!(@write self map $kind $wire $($rest)*); )*
                for (key, value) in self.$extra.members() {
                    ::serde::ser::SerializeMap::serialize_entry(&mut map, key, value)?;
                }
                ::serde::ser::SerializeMap::end(map)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                struct ObjectVisitor;
                impl<'de> ::serde::de::Visitor<'de> for ObjectVisitor {
                    type Value = $name;
                    #[inline]
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, mut access: A) -> ::std::result::Result<$name, A::Error> {
                        $( $crate::__mcp_member!(@slot $kind $slot $($rest)*); )*
                        let mut $extra = $crate::rt::Extra::new();
                        while let ::std::option::Option::Some(key) = access.next_key::<$crate::rt::Key<'de>>()? {
                            $crate::__mcp_object!(@match access key $extra [ $( [$kind $wire $slot $($rest)*] )* ]);
                        }
                        $( $crate::__mcp_member!(@finish $kind $wire $slot $($rest)*); )*
                        ::std::result::Result::Ok($name { $( $field, )* $extra })
                    }
                }
                deserializer.deserialize_map(ObjectVisitor)
            }
        }

        impl $crate::rt::Fit for $name {
            #[inline]
            fn fit(value: &::serde_json::Value) -> ::std::option::Option<u32> {
                $crate::rt::fit_object(value, &[ $( $crate::__mcp_member!(@shape $kind $wire $($rest)*), )* ])
            }
        }
    };
    // A type without members keeps everything; with members, a key is matched first.
    (@match $access:ident $key:ident $extra:ident []) => {
        $crate::rt::read_extra(&mut $access, $key, &mut $extra)?
    };
    (@match $access:ident $key:ident $extra:ident [ $( [$kind:ident $wire:literal $slot:ident $($rest:tt)*] )+ ]) => {
        match &*$key.0 {
            $( $wire => $crate::__mcp_member!(@read $access $kind $wire $slot $($rest)*), )+
            _ => $crate::rt::read_extra(&mut $access, $key, &mut $extra)?,
        }
    };
}

/// One member's part of [`__mcp_object`]'s impls.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_member {
    (@write $s:ident $map:ident fixed $wire:literal ($fx:expr)) => {
        ::serde::ser::SerializeMap::serialize_entry(&mut $map, $wire, &$fx)?
    };
    (@write $s:ident $map:ident optional $wire:literal ($ty:ty) $wrap:ident $field:ident) => {
        if let ::std::option::Option::Some(value) = &$s.$field {
            ::serde::ser::SerializeMap::serialize_entry(&mut $map, $wire, $crate::__mcp_member!(@wrap $wrap value))?;
        }
    };
    (@write $s:ident $map:ident $kind:ident $wire:literal ($ty:ty) $wrap:ident $field:ident $($default:tt)*) => {
        ::serde::ser::SerializeMap::serialize_entry(&mut $map, $wire, $crate::__mcp_member!(@wrap $wrap &$s.$field))?
    };
    (@wrap plain $v:expr) => { $v };
    (@wrap float $v:expr) => { &$crate::rt::Float(*$v) };
    (@wrap nullable_float $v:expr) => { &$crate::rt::NullableFloat(*$v) };
    (@wrap float_seq $v:expr) => { &$crate::rt::FloatSeq($v) };

    (@slot fixed $slot:ident $($rest:tt)*) => {
        let mut $slot = false;
    };
    (@slot $kind:ident $slot:ident ($ty:ty) $($rest:tt)*) => {
        let mut $slot: ::std::option::Option<$ty> = ::std::option::Option::None;
    };

    (@read $access:ident fixed $wire:literal $slot:ident ($fx:expr)) => {
        $crate::rt::read_fixed(&mut $access, $wire, $fx, &mut $slot)?
    };
    (@read $access:ident $kind:ident $wire:literal $slot:ident $($rest:tt)*) => {
        $crate::rt::read_field(&mut $access, $wire, &mut $slot)?
    };

    (@finish fixed $wire:literal $slot:ident $($rest:tt)*) => {
        if !$slot {
            return ::std::result::Result::Err($crate::rt::missing($wire));
        }
    };
    (@finish required $wire:literal $slot:ident $($rest:tt)*) => {
        let ::std::option::Option::Some($slot) = $slot else {
            return ::std::result::Result::Err($crate::rt::missing($wire));
        };
    };
    (@finish optional $wire:literal $slot:ident $($rest:tt)*) => {};
    (@finish defaulted $wire:literal $slot:ident ($ty:ty) $wrap:ident $field:ident ($default:expr)) => {
        let $slot = $crate::rt::or_default($slot, || $default);
    };

    (@shape fixed $wire:literal ($fx:expr)) => {
        $crate::rt::FieldShape { name: $wire, required: true, fit: <::serde_json::Value as $crate::rt::Fit>::fit, fixed: ::std::option::Option::Some($fx) }
    };
    (@shape required $wire:literal ($ty:ty) $($rest:tt)*) => {
        $crate::rt::FieldShape { name: $wire, required: true, fit: <$ty as $crate::rt::Fit>::fit, fixed: ::std::option::Option::None }
    };
    (@shape $kind:ident $wire:literal ($ty:ty) $($rest:tt)*) => {
        $crate::rt::FieldShape { name: $wire, required: false, fit: <$ty as $crate::rt::Fit>::fit, fixed: ::std::option::Option::None }
    };
}

pub use crate::__mcp_object as object;

/// A read slot, or its default when the member was absent.
#[inline]
pub fn or_default<T>(slot: Option<T>, default: impl FnOnce() -> T) -> T {
    slot.unwrap_or_else(default)
}

/// `as_str`, the serde impls and `Fit` of one generated string enum:
/// `string_enum! { Name, "a Name value", closed | open, [Variant "value" ...] }`.
/// An open enum has the variant `Other(String)` for any other value.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_string_enum {
    ($name:ident, $expecting:literal, closed, [ $( $variant:ident $value:literal )* ]) => {
        impl $name {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $value, )*
                }
            }
        }
        $crate::__mcp_string_enum!(@serde $name, $expecting, [ $( $value )* ], |value| match value {
            $( $value => $name::$variant, )*
            other => return ::std::result::Result::Err(::serde::de::Error::unknown_variant(other, VALUES)),
        });
        impl $crate::rt::Fit for $name {
            #[inline]
            fn fit(value: &::serde_json::Value) -> ::std::option::Option<u32> {
                const VALUES: &[&str] = &[ $( $value ),* ];
                value.as_str().filter(|s| VALUES.contains(s)).map(|_| 0)
            }
        }
    };
    ($name:ident, $expecting:literal, open, [ $( $variant:ident $value:literal )* ]) => {
        impl $name {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $value, )*
                    $name::Other(s) => s,
                }
            }
        }
        $crate::__mcp_string_enum!(@serde $name, $expecting, [ $( $value )* ], |value| match value {
            $( $value => $name::$variant, )*
            other => $name::Other(::std::borrow::ToOwned::to_owned(other)),
        });
        impl $crate::rt::Fit for $name {
            #[inline]
            fn fit(value: &::serde_json::Value) -> ::std::option::Option<u32> {
                value.is_string().then_some(0)
            }
        }
    };
    (@serde $name:ident, $expecting:literal, [ $( $value:literal )* ], |$v:ident| $read:expr) => {
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                struct EnumVisitor;
                impl ::serde::de::Visitor<'_> for EnumVisitor {
                    type Value = $name;
                    #[inline]
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str($expecting)
                    }
                    #[allow(unused)]
                    fn visit_str<E: ::serde::de::Error>(self, $v: &str) -> ::std::result::Result<$name, E> {
                        const VALUES: &[&str] = &[ $( $value ),* ];
                        ::std::result::Result::Ok($read)
                    }
                }
                deserializer.deserialize_str(EnumVisitor)
            }
        }
    };
}

pub use crate::__mcp_string_enum as string_enum;

/// The impls of one generated union: `member_name`, how it is read (see each
/// union's docs for the rule) and written, and `Fit`:
///
/// `union! { Name, "Name", [ [0usize Variant (Type) wrap] ... ], CHOICE }` where
/// CHOICE is `tag text "field" [ [tags...] ... ] (fallback)` (read as text, choosing by
/// the tag alone), `tag value "field" [...] (fallback)`, or `shape (selector)`.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_union {
    ($name:ident, $uname:literal, [ $( [$i:literal $variant:ident ($ty:ty) $wrap:ident] )* ], $($choice:tt)*) => {
        impl $name {
            /// The name of the member this value holds.
            pub fn member_name(&self) -> &'static str {
                match self {
                    $( $name::$variant(_) => stringify!($variant), )*
                }
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    $( $name::$variant(value) => ::serde::Serialize::serialize($crate::__mcp_member!(@wrap $wrap value), serializer), )*
                }
            }
        }

        $crate::__mcp_union!(@read $name $uname [ $( [$i $variant ($ty)] )* ] $($choice)*);
    };
    (@read $name:ident $uname:literal [ $( [$i:literal $variant:ident ($ty:ty)] )* ]
        tag text $field:literal [ $( [ $($tag:expr),* ] )* ] ($fallback:expr)) => {
        impl $name {
            /// Reads the union's input as JSON text, choosing the member as described above.
            #[inline]
            pub fn from_raw(raw: &::serde_json::value::RawValue) -> ::std::result::Result<Self, ::std::string::String> {
                let which = $crate::rt::by_tag_raw(raw, $field, &[ $( &[ $($tag),* ] ),* ], $fallback)
                    .map_err(|e| $crate::rt::in_union($uname, e))?;
                match which {
                    $( $i => $crate::rt::member_raw(raw, $uname, stringify!($variant)).map($name::$variant), )*
                    _ => ::std::unreachable!("no member {which} in {}", $uname),
                }
            }

            /// Reads a value already parsed into JSON, choosing the member as described above.
            #[inline]
            pub fn from_json(value: ::serde_json::Value) -> ::std::result::Result<Self, ::std::string::String> {
                $name::from_raw(&$crate::rt::to_raw(&value)?)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let raw = <::std::boxed::Box<::serde_json::value::RawValue> as ::serde::Deserialize>::deserialize(deserializer)?;
                $name::from_raw(&raw).map_err(::serde::de::Error::custom)
            }
        }

        $crate::__mcp_union!(@fit_tag $name [ $( ($ty) )* ] $field [ $( [ $($tag),* ] )* ] ($fallback));
    };
    (@read $name:ident $uname:literal [ $( [$i:literal $variant:ident ($ty:ty)] )* ]
        tag value $field:literal [ $( [ $($tag:expr),* ] )* ] ($fallback:expr)) => {
        impl $name {
            /// Reads a value already parsed into JSON, choosing the member as described above.
            #[inline]
            pub fn from_json(value: ::serde_json::Value) -> ::std::result::Result<Self, ::std::string::String> {
                let which = $crate::rt::by_tag(&value, $field, &[ $( &[ $($tag),* ] ),* ], $fallback)
                    .map_err(|e| $crate::rt::in_union($uname, e))?;
                match which {
                    $( $i => $crate::rt::member(value, $uname, stringify!($variant)).map($name::$variant), )*
                    _ => ::std::unreachable!("no member {which} in {}", $uname),
                }
            }
        }
        $crate::__mcp_union!(@deserialize_value $name);
        $crate::__mcp_union!(@fit_tag $name [ $( ($ty) )* ] $field [ $( [ $($tag),* ] )* ] ($fallback));
    };
    (@read $name:ident $uname:literal [ $( [$i:literal $variant:ident ($ty:ty)] )* ] shape ($selector:expr)) => {
        impl $name {
            /// Reads a value already parsed into JSON, choosing the member as described above.
            #[inline]
            pub fn from_json(value: ::serde_json::Value) -> ::std::result::Result<Self, ::std::string::String> {
                let (which, _) = $crate::rt::pick(&value, &[ $( <$ty as $crate::rt::Fit>::fit ),* ], $selector)
                    .ok_or_else(|| $crate::rt::fits_none($uname, &value))?;
                match which {
                    $( $i => $crate::rt::member(value, $uname, stringify!($variant)).map($name::$variant), )*
                    _ => ::std::unreachable!("no member {which} in {}", $uname),
                }
            }
        }
        $crate::__mcp_union!(@deserialize_value $name);
        impl $crate::rt::Fit for $name {
            #[inline]
            fn fit(value: &::serde_json::Value) -> ::std::option::Option<u32> {
                $crate::rt::pick(value, &[ $( <$ty as $crate::rt::Fit>::fit ),* ], $selector).map(|(_, score)| score)
            }
        }
    };
    (@deserialize_value $name:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                $name::from_json(value).map_err(::serde::de::Error::custom)
            }
        }
    };
    (@fit_tag $name:ident [ $( ($ty:ty) )* ] $field:literal [ $( [ $($tag:expr),* ] )* ] ($fallback:expr)) => {
        impl $crate::rt::Fit for $name {
            #[inline]
            fn fit(value: &::serde_json::Value) -> ::std::option::Option<u32> {
                let which = $crate::rt::by_tag(value, $field, &[ $( &[ $($tag),* ] ),* ], $fallback).ok()?;
                let fits: &[fn(&::serde_json::Value) -> ::std::option::Option<u32>] = &[ $( <$ty as $crate::rt::Fit>::fit ),* ];
                fits[which](value)
            }
        }
    };
}

pub use crate::__mcp_union as union;

/// A module's `SCHEMA_TYPES`: `type_table![ plain A, union B, ... ]`.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_type_table {
    ( $( $kind:ident $name:ident ),* $(,)? ) => {
        &[ $( $crate::__mcp_type_table!(@entry $kind $name) ),* ]
    };
    (@entry plain $name:ident) => {
        $crate::rt::TypeEntry {
            name: stringify!($name),
            read: $crate::rt::read::<$name>,
            roundtrip: $crate::rt::roundtrip::<$name>,
            choose: ::std::option::Option::None,
        }
    };
    (@entry union $name:ident) => {
        $crate::rt::TypeEntry {
            name: stringify!($name),
            read: $crate::rt::read::<$name>,
            roundtrip: $crate::rt::roundtrip::<$name>,
            choose: ::std::option::Option::Some(|v| $name::from_json(v).map(|u| u.member_name())),
        }
    };
}

pub use crate::__mcp_type_table as type_table;
