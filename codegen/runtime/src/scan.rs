//! A union's first look at its input: its kind, its keys and the value of one
//! field, skipping over the rest as bytes (see `text`), or through serde when
//! the text is anything but plain.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde_json::Value;

use crate::choose::{ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING};
use crate::de::{Key, skip_seq};
use crate::text::{skip_value, skip_ws, string_end, without_position};

/// What a first look at a union's input found.
pub struct Scanned<'a> {
    /// One of the kind bits.
    pub kind: u8,
    /// An object's keys, when asked for, borrowed from the text...
    keys: Vec<&'a str>,
    /// ...or, when one of them is written with an escape, all of them unescaped.
    unescaped: Option<Vec<String>>,
    /// The value of the field asked for, when the object has it.
    pub field: Option<Value>,
}

impl<'a> Scanned<'a> {
    fn of_kind(kind: u8) -> Scanned<'a> {
        Scanned { kind, keys: Vec::new(), unescaped: None, field: None }
    }

    /// The keys as `choose` takes them (borrowed as they are, unless escaped).
    pub fn key_list(&self) -> Cow<'_, [&str]> {
        match &self.unescaped {
            Some(keys) => Cow::Owned(keys.iter().map(String::as_str).collect()),
            None => Cow::Borrowed(&self.keys),
        }
    }
}

/// The first look of a union decided by shape: none when a union holding it has
/// already found the kind and keys (`looked`) and no selector field is wanted,
/// else [`scan`] (for the selector's value alone when the keys are known).
#[inline]
pub fn scan_unless<'a>(
    text: &'a str,
    field: Option<&str>,
    looked: Option<(u8, &[&str])>,
) -> Result<Scanned<'a>, String> {
    match (looked, field) {
        (Some((kind, _)), None) => Ok(Scanned::of_kind(kind)),
        (looked, field) => scan(text, field, looked.is_none()),
    }
}

/// Looks at a union's input: its kind, its keys (when `keys`) and the value of
/// `field` (when it is an object that has it). Nothing else is parsed: the
/// other values are skipped over as bytes (the text is JSON serde_json has
/// already read once; anything unexpected goes the slow way, through serde,
/// which says what is wrong).
pub fn scan<'a>(text: &'a str, field: Option<&str>, keys: bool) -> Result<Scanned<'a>, String> {
    match scan_fast(text, field, keys) {
        Some(Ok(scanned)) => Ok(scanned),
        Some(Err(e)) => Err(e),
        None => scan_slow(text, field, keys),
    }
}

fn scan_slow<'a>(text: &'a str, field: Option<&str>, keys: bool) -> Result<Scanned<'a>, String> {
    let mut d = serde_json::Deserializer::from_str(text);
    de::Deserializer::deserialize_any(&mut d, ScanVisitor { field, keys }).map_err(|e| without_position(&e))
}

/// The byte-level first look; `None` when the text is anything but a plain JSON
/// value whose keys have no escapes. (Public for the tests: `scan` falls back
/// to serde when this gives up, which would hide a wrong skip.)
pub fn scan_fast<'a>(text: &'a str, field: Option<&str>, keys: bool) -> Option<Result<Scanned<'a>, String>> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    let kind = match b.get(i)? {
        b'{' => OBJECT,
        b'[' => ARRAY,
        b'"' => STRING,
        b't' | b'f' => BOOLEAN,
        b'n' => NULL,
        b'-' | b'0'..=b'9' => NUMBER,
        _ => return None,
    };
    let mut out = Scanned::of_kind(kind);
    if kind != OBJECT {
        return Some(Ok(out));
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return Some(Ok(out));
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let end = string_end(b, i + 1)?;
        let key = &text[i + 1..end];
        if key.contains('\\') {
            return None;
        }
        i = skip_ws(b, end + 1);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, i + 1);
        i = skip_value(b, start)?;
        if out.field.is_none() && Some(key) == field {
            match serde_json::from_str(&text[start..i]) {
                Ok(v) => out.field = Some(v),
                Err(e) => return Some(Err(without_position(&e))),
            }
            // Only the field was asked for: the rest goes unseen here (the
            // member's read that follows reads, and checks, all of the text).
            if !keys {
                return Some(Ok(out));
            }
        }
        if keys {
            out.keys.push(key);
        }
        i = skip_ws(b, i);
        match b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b'}' => return Some(Ok(out)),
            _ => return None,
        }
    }
}

struct ScanVisitor<'f> {
    field: Option<&'f str>,
    keys: bool,
}

impl<'de> Visitor<'de> for ScanVisitor<'_> {
    type Value = Scanned<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scanned<'de>, A::Error> {
        let mut out = Scanned::of_kind(OBJECT);
        let mut keys: Vec<Cow<'de, str>> = Vec::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if out.field.is_none() && Some(&*key.0) == self.field {
                out.field = Some(map.next_value::<Value>()?);
            } else {
                map.next_value::<de::IgnoredAny>()?;
            }
            if self.keys {
                keys.push(key.0);
            }
        }
        let borrowed: Option<Vec<&'de str>> = keys
            .iter()
            .map(|k| match k {
                Cow::Borrowed(k) => Some(*k),
                Cow::Owned(_) => None,
            })
            .collect();
        match borrowed {
            Some(borrowed) => out.keys = borrowed,
            None => out.unescaped = Some(keys.into_iter().map(Cow::into_owned).collect()),
        }
        Ok(out)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Scanned<'de>, A::Error> {
        skip_seq(seq)?;
        Ok(Scanned::of_kind(ARRAY))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Scanned<'de>, E> {
        Ok(Scanned::of_kind(STRING))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Scanned<'de>, E> {
        Ok(Scanned::of_kind(NUMBER))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Scanned<'de>, E> {
        Ok(Scanned::of_kind(NUMBER))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Scanned<'de>, E> {
        Ok(Scanned::of_kind(NUMBER))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Scanned<'de>, E> {
        Ok(Scanned::of_kind(BOOLEAN))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Scanned<'de>, E> {
        Ok(Scanned::of_kind(NULL))
    }
}
