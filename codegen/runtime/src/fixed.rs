//! Members fixed by a literal type (`jsonrpc: "2.0"`, `method: "tools/call"`): no
//! Rust field, always written, checked where they stand when read.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::de::Duplicate;
use crate::number::Float;

/// The value a member is fixed to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fixed {
    Str(&'static str),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl From<&'static str> for Fixed {
    fn from(v: &'static str) -> Fixed {
        Fixed::Str(v)
    }
}
impl From<i64> for Fixed {
    fn from(v: i64) -> Fixed {
        Fixed::Int(v)
    }
}
impl From<f64> for Fixed {
    fn from(v: f64) -> Fixed {
        Fixed::Float(v)
    }
}
impl From<bool> for Fixed {
    fn from(v: bool) -> Fixed {
        Fixed::Bool(v)
    }
}

/// A fixed member's value as a [`Fixed`], in a const (a `From` is not const):
/// `FixedOf::<&str>::fixed("2.0")`, by the type the member's const has.
pub struct FixedOf<T>(std::marker::PhantomData<T>);

impl FixedOf<&'static str> {
    pub const fn fixed(v: &'static str) -> Fixed {
        Fixed::Str(v)
    }
}
impl FixedOf<i64> {
    pub const fn fixed(v: i64) -> Fixed {
        Fixed::Int(v)
    }
}
impl FixedOf<f64> {
    pub const fn fixed(v: f64) -> Fixed {
        Fixed::Float(v)
    }
}
impl FixedOf<bool> {
    pub const fn fixed(v: bool) -> Fixed {
        Fixed::Bool(v)
    }
}

impl Fixed {
    /// True when `v` is this value (an integer also as a whole float, as JSON
    /// Schema's `const` compares numbers).
    pub fn matches(&self, v: &serde_json::Value) -> bool {
        match self {
            Fixed::Str(s) => v.as_str() == Some(*s),
            Fixed::Int(i) => v.as_i64() == Some(*i) || v.as_f64() == Some(*i as f64),
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

/// Reads the value of a fixed member and checks it, naming the member and the
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
            Err(E::custom(format_args!(
                "invalid value for `{}`: expected {}, found {found}",
                self.field, self.expected
            )))
        }
    }
}

impl<'de> Visitor<'de> for FixedSeed {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.expected)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.check(matches!(self.expected, Fixed::Str(s) if s == v), serde_json::Value::from(v))
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
        let ok = match self.expected {
            Fixed::Float(x) => x == v,
            Fixed::Int(i) => i as f64 == v,
            _ => false,
        };
        self.check(ok, v)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.check(matches!(self.expected, Fixed::Bool(b) if b == v), v)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.check(false, "null")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        crate::de::skip_seq(seq)?;
        self.check(false, "an array")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        match crate::de::number_or_skip(map)? {
            // A number, from serde_json with `arbitrary_precision`.
            Some(number) => {
                if let Ok(i) = number.parse::<i64>() {
                    self.visit_i64(i)
                } else if let Ok(u) = number.parse::<u64>() {
                    self.visit_u64(u)
                } else if let Ok(f) = number.parse::<f64>() {
                    self.visit_f64(f)
                } else {
                    self.check(false, number)
                }
            }
            None => self.check(false, "an object"),
        }
    }
}
