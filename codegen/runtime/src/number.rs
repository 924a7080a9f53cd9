//! Numbers as JSON Schema reads them: an `integer` is any JSON number with no
//! fractional part (`100.0` and `3.6e6` are integers, as peers written in
//! dynamic languages send them), read into an `i64` and written back as an
//! integer; a `number` (`f64`) that holds a whole value is written without a
//! fraction, so `50` stays `50`.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

/// An `i64` read from any JSON number with no fractional part that fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int(pub i64);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Int, D::Error> {
        d.deserialize_i64(IntVisitor)
    }
}

struct IntVisitor;

impl Visitor<'_> for IntVisitor {
    type Value = Int;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer (a number with no fractional part) that fits in 64 bits")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Int, E> {
        Ok(Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Int, E> {
        i64::try_from(v).map(Int).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Int, E> {
        // Within ±2^63, exclusive at the top: every such whole f64 is an i64.
        if v.fract() == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&v) {
            Ok(Int(v as i64))
        } else {
            Err(E::invalid_value(de::Unexpected::Float(v), &self))
        }
    }
}

impl From<Int> for i64 {
    fn from(i: Int) -> i64 {
        i.0
    }
}

/// [`Int`] for `integer | null`.
pub struct NullableInt(pub Option<i64>);

impl From<NullableInt> for Option<i64> {
    fn from(i: NullableInt) -> Option<i64> {
        i.0
    }
}

impl<'de> Deserialize<'de> for NullableInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NullableInt, D::Error> {
        Ok(NullableInt(Option::<Int>::deserialize(d)?.map(|i| i.0)))
    }
}

/// Writes an `f64` that holds a whole number as an integer, so `50` stays `50`
/// rather than becoming `50.0`.
pub struct Float(pub f64);

impl From<&f64> for Float {
    fn from(v: &f64) -> Float {
        Float(*v)
    }
}

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

impl From<&Option<f64>> for NullableFloat {
    fn from(v: &Option<f64>) -> NullableFloat {
        NullableFloat(*v)
    }
}

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

impl<'a> From<&'a Vec<f64>> for FloatSeq<'a> {
    fn from(v: &'a Vec<f64>) -> FloatSeq<'a> {
        FloatSeq(v)
    }
}

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
