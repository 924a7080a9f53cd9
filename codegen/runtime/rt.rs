//! Support code for the generated types: reading object keys, checking fixed
//! values, measuring how well a JSON value fits a type (to decide unions), and
//! writing numbers as they were written. Public for the generated modules only.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::Value;

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
        let v = Value::deserialize(d)?;
        if self.expected.matches(&v) {
            Ok(())
        } else {
            Err(de::Error::custom(format_args!(
                "invalid value for `{}`: expected {}, found {v}",
                self.field, self.expected
            )))
        }
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

/// Keeps a member the type does not name, refusing a duplicate key.
pub fn read_extra<'de, A: MapAccess<'de>>(
    map: &mut A,
    key: Key<'de>,
    extra: &mut serde_json::Map<String, Value>,
) -> Result<(), A::Error> {
    if extra.contains_key(&*key.0) {
        return map.next_value_seed(Duplicate(&key.0));
    }
    let value: Value = map.next_value()?;
    extra.insert(key.0.into_owned(), value);
    Ok(())
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
    pub roundtrip: fn(&str) -> Result<Value, String>,
    /// For unions: reads a JSON value and says which member it chose.
    pub choose: Option<ChooseMember>,
}

/// Reads a JSON value as a union and names the member chosen.
pub type ChooseMember = fn(Value) -> Result<&'static str, String>;

/// Reads `json` as `T` and writes it back.
pub fn roundtrip<T: de::DeserializeOwned + Serialize>(json: &str) -> Result<Value, String> {
    let value: T = serde_json::from_str(json).map_err(|e| e.to_string())?;
    serde_json::to_value(&value).map_err(|e| e.to_string())
}
