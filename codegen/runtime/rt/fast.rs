//! Reading this crate's types straight from JSON text, without serde's
//! generic glue: the first reading of [`from_str`](super::from_str) and of a
//! union's member (see `union::read_member`).
//!
//! Through serde, each type's reader is one more copy of serde's and
//! serde_json's machinery for that type (`deserialize_map`, `from_trait`, a
//! `read_field` per map access and member type, the members of a union of
//! objects read again through `pairs`). A client reading typed results ran
//! 256 KiB of such code a pass, eight times what the first-level instruction
//! cache holds. Here a struct's reader is its members' places ([`Slot`]) and one
//! loop every struct shares ([`Reader::read_members`]), over one concrete
//! [`Reader`]; a member's place reads through its type's reader, one for each
//! type however many structs have a member of it.
//!
//! This reading only ever answers what serde's would, or declines: it gives
//! `Ok` only for a value that reading through serde gives too, equal;
//! [`Miss::No`] only where serde's reading fails (a value of the wrong kind, a
//! missing or repeated member, a fixed member of another value); and
//! [`Miss::Unsure`] for anything it does not handle (escapes in keys, numbers
//! an integer member must round, lone surrogates, deep nesting, malformed
//! text), when the caller reads through serde instead, which has the last word
//! and the error messages. A union's value is read by its `from_text`, whose
//! members are read this way, each from the union's text (so nesting is counted
//! from there, as `from_text` counts it). `tests/fast.rs` holds it to serde's
//! reading on every spec example and recorded session message read as every
//! type, and on near misses; `tests/unions.rs` holds `from_text` to it on every
//! union's samples and near misses.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde_json::Value;
use serde_json::value::RawValue;

use super::extra::Extra;
use super::fixed::Fixed;
use super::number::{Int, NullableInt};
use super::union::skip_ws;

/// Why a fast reading gave no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// Reading through serde fails too.
    No,
    /// Not decided here: read through serde.
    Unsure,
}

/// A fast reading's outcome.
pub type Fast<T> = Result<T, Miss>;

/// Deeper than this (arrays and objects), the reading declines: serde_json
/// stops at 128 counted over the whole document, which a reading from a
/// fragment (a union's member) would count differently.
const MAX_DEPTH: usize = 96;

/// JSON text and a position in it.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
}

/// A type [`from_str`](crate::from_str) reads straight from JSON text, without
/// serde's glue per type. Every type of this crate has it, and so do `String`,
/// `bool`, `i64`, `f64`, `serde_json::Value` and `Vec`, `Option`, `Box` and
/// `IndexMap<String, _>` of them. The reading gives the value serde_json's
/// reading gives, or leaves the input to serde_json (see `rt::fast`). Not meant
/// to be implemented outside this crate.
pub trait ReadFast: Sized {
    /// Reads a value at the reader's position.
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self>;

    /// Reads the whole of `text` (a union reads its text as it is, with
    /// nothing to find the end of first).
    fn read_text_fast(text: &str) -> Fast<Self> {
        let mut r = Reader { text, pos: 0, depth: 0 };
        let value = read_out_of_line::<Self>(&mut r)?;
        r.ws();
        // Trailing characters: serde's error, not decided here.
        if r.pos == text.len() { Ok(value) } else { Err(Miss::Unsure) }
    }
}

/// Reads the whole of `text` as `T`. What the reading recorded in the
/// unknown-members log is forgotten unless it gives a value.
pub fn read_whole<T: ReadFast>(text: &str) -> Fast<T> {
    #[cfg(feature = "unknown-members-log")]
    let mark = super::log::mark();
    let read = T::read_text_fast(text);
    #[cfg(feature = "unknown-members-log")]
    if read.is_err() {
        super::log::rewind(mark);
    }
    read
}

/// A struct member's place while its object is read: the member read into it,
/// `No` when its key came before.
pub trait Slot {
    fn read(&mut self, r: &mut Reader<'_>) -> Fast<()>;
}

impl<T: ReadFast> Slot for Option<T> {
    fn read(&mut self, r: &mut Reader<'_>) -> Fast<()> {
        if self.is_some() {
            return Err(Miss::No);
        }
        *self = Some(read_out_of_line(r)?);
        Ok(())
    }
}

/// A member's place as the loop takes it (a call, not a cast in each struct's
/// reader: cheaper to build).
#[inline(always)]
pub fn slot<S: Slot>(place: &mut S) -> &mut dyn Slot {
    place
}

/// The place of a member read through a reading type `W` (an integer member
/// through [`Int`], `integer | null` through [`NullableInt`]).
pub struct Through<'a, W, T>(pub &'a mut Option<T>, pub std::marker::PhantomData<W>);

impl<W: ReadFast, T: From<W>> Slot for Through<'_, W, T> {
    fn read(&mut self, r: &mut Reader<'_>) -> Fast<()> {
        if self.0.is_some() {
            return Err(Miss::No);
        }
        *self.0 = Some(W::read_fast(r)?.into());
        Ok(())
    }
}

/// The place of a fixed member: checked, and whether it was seen.
pub struct FixedSlot {
    expected: Fixed,
    seen: bool,
}

impl FixedSlot {
    #[inline]
    pub fn new(expected: Fixed) -> FixedSlot {
        FixedSlot { expected, seen: false }
    }
    #[inline]
    pub fn seen(&self) -> bool {
        self.seen
    }
}

impl Slot for FixedSlot {
    fn read(&mut self, r: &mut Reader<'_>) -> Fast<()> {
        if self.seen {
            return Err(Miss::No);
        }
        self.seen = true;
        r.fixed(self.expected)
    }
}

/// [`ReadFast::read_fast`] out of line: each type's reader compiled once, in
/// here, however many structs have a member of that type.
#[inline(never)]
fn read_out_of_line<T: ReadFast>(r: &mut Reader<'_>) -> Fast<T> {
    T::read_fast(r)
}

impl<'a> Reader<'a> {
    #[inline]
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Skips whitespace.
    #[inline]
    fn ws(&mut self) {
        self.pos = skip_ws(self.bytes(), self.pos);
    }

    /// The first byte of the next value, after whitespace.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.bytes().get(self.pos).copied()
    }

    /// Takes `word` (`true`, `false`, `null`), whose first byte is next.
    #[inline]
    fn literal(&mut self, word: &str) -> Fast<()> {
        if self.bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(Miss::Unsure)
        }
    }

    /// Whether the object whose `{` is at `at` starts with serde_json's key for
    /// a number (`$serde_json::private::Number`, with `arbitrary_precision`).
    /// Reading through serde takes such an object as a number where a union
    /// or a fixed member is read (`union::number_or_skip`, `pairs`), so there
    /// it is serde's to read; a struct or kept text takes it as a key.
    #[inline]
    fn number_token_at(&self, at: usize) -> bool {
        number_token_in(&self.bytes()[at + 1..])
    }

    fn enter(&mut self) -> Fast<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH { Err(Miss::Unsure) } else { Ok(()) }
    }

    /// A string's text between its quotes, the opening one next, and whether
    /// it has escapes (checked well-formed: a bad escape, a lone surrogate or a
    /// control character is serde's to report).
    fn string_text(&mut self) -> Fast<(&'a str, bool)> {
        let b = self.bytes();
        let start = self.pos + 1;
        let mut i = start;
        let mut escaped = false;
        loop {
            // The first quote, backslash or control character.
            i = super::union::next_special::<true>(b, i);
            match b.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok((&self.text[start..i], escaped));
                }
                Some(b'\\') => {
                    escaped = true;
                    i = escape_end(b, i + 1)?;
                }
                Some(&c) if c < 0x20 => return Err(Miss::Unsure),
                Some(_) => i += 1,
                None => return Err(Miss::Unsure),
            }
        }
    }

    /// A string, the opening quote next.
    #[inline]
    fn string(&mut self) -> Fast<Cow<'a, str>> {
        let (text, escaped) = self.string_text()?;
        if escaped { unescape(text).map(Cow::Owned) } else { Ok(Cow::Borrowed(text)) }
    }

    /// A number's text, its first byte next; and whether it is an integer
    /// (no fraction, no exponent).
    fn number_text(&mut self) -> Fast<(&'a str, bool)> {
        let b = self.bytes();
        let start = self.pos;
        let mut i = start;
        let digits = |i: &mut usize| {
            let from = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i > from
        };
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                digits(&mut i);
            }
            _ => return Err(Miss::Unsure),
        }
        let mut integer = true;
        if b.get(i) == Some(&b'.') {
            i += 1;
            integer = false;
            if !digits(&mut i) {
                return Err(Miss::Unsure);
            }
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            integer = false;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            if !digits(&mut i) {
                return Err(Miss::Unsure);
            }
        }
        self.pos = i;
        Ok((&self.text[start..i], integer))
    }

    /// Skips the next value, checking that it is well-formed JSON, and gives
    /// its text.
    fn skip(&mut self) -> Fast<&'a str> {
        self.ws();
        let start = self.pos;
        self.skip_value()?;
        Ok(&self.text[start..self.pos])
    }

    fn skip_value(&mut self) -> Fast<()> {
        match self.bytes().get(self.pos) {
            Some(b'"') => self.string_text().map(drop),
            Some(b'{') => {
                self.enter()?;
                self.pos += 1;
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                } else {
                    loop {
                        if self.peek() != Some(b'"') {
                            return Err(Miss::Unsure);
                        }
                        self.string_text()?;
                        if self.peek() != Some(b':') {
                            return Err(Miss::Unsure);
                        }
                        self.pos += 1;
                        self.ws();
                        self.skip_value()?;
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(b'}') => {
                                self.pos += 1;
                                break;
                            }
                            _ => return Err(Miss::Unsure),
                        }
                    }
                }
                self.depth -= 1;
                Ok(())
            }
            Some(b'[') => {
                self.enter()?;
                self.pos += 1;
                if self.peek() == Some(b']') {
                    self.pos += 1;
                } else {
                    loop {
                        self.ws();
                        self.skip_value()?;
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(b']') => {
                                self.pos += 1;
                                break;
                            }
                            _ => return Err(Miss::Unsure),
                        }
                    }
                }
                self.depth -= 1;
                Ok(())
            }
            Some(b't') => self.literal("true"),
            Some(b'f') => self.literal("false"),
            Some(b'n') => self.literal("null"),
            Some(b'-' | b'0'..=b'9') => self.number_text().map(drop),
            _ => Err(Miss::Unsure),
        }
    }

    /// Opens an object: `No` for a value of another kind. (Out of line, as
    /// [`next_member`](Reader::next_member): one copy for every struct.)
    #[inline(never)]
    pub fn begin_object(&mut self) -> Fast<()> {
        if self.peek() != Some(b'{') {
            return Err(Miss::No);
        }
        self.enter()?;
        self.pos += 1;
        Ok(())
    }

    /// The next key of an object opened with [`begin_object`](Reader::begin_object),
    /// with its position among `wires` (`usize::MAX` when none), the reader at
    /// its value; `None` at the object's end (`first`: no member read yet).
    #[inline(never)]
    pub fn next_member(&mut self, wires: &[&str], first: &mut bool) -> Fast<Option<(usize, &'a str)>> {
        match self.peek() {
            Some(b'}') => {
                self.pos += 1;
                self.depth -= 1;
                return Ok(None);
            }
            Some(b',') if !*first => {
                self.pos += 1;
                self.ws();
            }
            Some(b'"') if *first => {}
            _ => return Err(Miss::Unsure),
        }
        *first = false;
        if self.bytes().get(self.pos) != Some(&b'"') {
            return Err(Miss::Unsure);
        }
        let (key, escaped) = self.string_text()?;
        // A key written with escapes names what it decodes to: serde's to match.
        if escaped || self.peek() != Some(b':') {
            return Err(Miss::Unsure);
        }
        self.pos += 1;
        Ok(Some((super::object::member_index(wires, key), key)))
    }

    /// Reads an object's members into their places (`slots`, in the order of
    /// `wires`), keeping the others in `extra`: the loop of every struct's
    /// reader, which brings only its places.
    #[inline(never)]
    pub fn read_members(&mut self, wires: &[&str], slots: &mut [&mut dyn Slot], extra: &mut Extra) -> Fast<()> {
        self.begin_object()?;
        let mut first = true;
        while let Some((index, key)) = self.next_member(wires, &mut first)? {
            match slots.get_mut(index) {
                Some(slot) => slot.read(self)?,
                None => self.extra(key, extra)?,
            }
        }
        Ok(())
    }

    /// Checks a fixed member's value.
    fn fixed(&mut self, expected: Fixed) -> Fast<()> {
        let same = match (self.peek(), expected) {
            (Some(b'"'), Fixed::Str(s)) => self.string()? == s,
            (Some(b'-' | b'0'..=b'9'), Fixed::Int(i)) => match self.number_text()? {
                (text, true) => integer(text)? == i,
                _ => return Err(Miss::Unsure),
            },
            (Some(b't'), Fixed::Bool(b)) => self.literal("true").map(|()| b)?,
            (Some(b'f'), Fixed::Bool(b)) => self.literal("false").map(|()| !b)?,
            (_, Fixed::Float(_)) => return Err(Miss::Unsure),
            (Some(b'{'), _) if self.number_token_at(self.pos) => return Err(Miss::Unsure),
            _ => false,
        };
        if same { Ok(()) } else { Err(Miss::No) }
    }

    /// Keeps a member the type does not name, as its text: `No` when the key
    /// came before.
    #[inline(never)]
    pub fn extra(&mut self, key: &str, extra: &mut Extra) -> Fast<()> {
        if extra.contains_key(key) {
            return Err(Miss::No);
        }
        let text = self.skip()?;
        extra.insert_raw(key.to_owned(), kept(text)?);
        #[cfg(feature = "unknown-members-log")]
        super::log::record(key);
        Ok(())
    }
}

/// Whether an object's text after its `{` starts with serde_json's key for a
/// number (see `Reader::number_token_at`): asked of every union's object.
#[inline]
fn number_token_in(after_brace: &[u8]) -> bool {
    let i = skip_ws(after_brace, 0);
    after_brace.get(i + 1) == Some(&b'$') && after_brace[i..].starts_with(NUMBER_KEY)
}

/// serde_json's key for a number, as JSON text.
const NUMBER_KEY: &[u8] = b"\"$serde_json::private::Number\"";

/// An integer's text (no fraction, no exponent) as the `i64` serde_json reads
/// it as; `Unsure` for `-0` (a float there) and for one that does not fit.
fn integer(text: &str) -> Fast<i64> {
    if text == "-0" {
        return Err(Miss::Unsure);
    }
    text.parse().map_err(|_| Miss::Unsure)
}

/// The index just past an escape whose letter is at `i`.
fn escape_end(b: &[u8], i: usize) -> Fast<usize> {
    match b.get(i) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 1),
        Some(b'u') => {
            let unit = hex4(b, i + 1)?;
            // A surrogate must pair; serde's to judge.
            if (0xD800..0xE000).contains(&unit) {
                if !(0xD800..0xDC00).contains(&unit) || b.get(i + 5..i + 7) != Some(b"\\u") {
                    return Err(Miss::Unsure);
                }
                let low = hex4(b, i + 7)?;
                if !(0xDC00..0xE000).contains(&low) {
                    return Err(Miss::Unsure);
                }
                return Ok(i + 11);
            }
            Ok(i + 5)
        }
        _ => Err(Miss::Unsure),
    }
}

fn hex4(b: &[u8], i: usize) -> Fast<u32> {
    let digits = b.get(i..i + 4).ok_or(Miss::Unsure)?;
    let mut unit = 0;
    for &d in digits {
        unit = unit * 16 + (d as char).to_digit(16).ok_or(Miss::Unsure)?;
    }
    Ok(unit)
}

/// A string's text with its escapes (already checked well-formed) decoded.
fn unescape(text: &str) -> Fast<String> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(at) = text[i..].find('\\') {
        out.push_str(&text[i..i + at]);
        // At the escape's letter.
        i += at + 1;
        let (c, len) = match b[i] {
            b'"' => ('"', 1),
            b'\\' => ('\\', 1),
            b'/' => ('/', 1),
            b'b' => ('\u{8}', 1),
            b'f' => ('\u{c}', 1),
            b'n' => ('\n', 1),
            b'r' => ('\r', 1),
            b't' => ('\t', 1),
            _ => {
                let unit = hex4(b, i + 1)?;
                if (0xD800..0xDC00).contains(&unit) {
                    let low = hex4(b, i + 7)?;
                    (char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)).ok_or(Miss::Unsure)?, 11)
                } else {
                    (char::from_u32(unit).ok_or(Miss::Unsure)?, 5)
                }
            }
        };
        out.push(c);
        i += len;
    }
    out.push_str(&text[i..]);
    Ok(out)
}

/// A kept member's text as serde's reading keeps it (see `object::KeptText`).
fn kept(text: &str) -> Fast<Box<RawValue>> {
    if super::extra::too_deep(text) {
        return Err(Miss::No);
    }
    match super::extra::one_line(text) {
        Some(text) => RawValue::from_string(text).map_err(|_| Miss::Unsure),
        None => super::pairs::raw_value(text).ok_or(Miss::Unsure),
    }
}

impl ReadFast for String {
    #[inline]
    fn read_fast(r: &mut Reader<'_>) -> Fast<String> {
        if r.peek() != Some(b'"') {
            return Err(Miss::No);
        }
        r.string().map(Cow::into_owned)
    }
}

impl ReadFast for bool {
    #[inline]
    fn read_fast(r: &mut Reader<'_>) -> Fast<bool> {
        match r.peek() {
            Some(b't') => r.literal("true").map(|()| true),
            Some(b'f') => r.literal("false").map(|()| false),
            _ => Err(Miss::No),
        }
    }
}

impl ReadFast for Int {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Int> {
        match r.peek() {
            Some(b'-' | b'0'..=b'9') => match r.number_text()? {
                (text, true) => integer(text).map(Int),
                // A whole number written with a fraction or an exponent.
                _ => Err(Miss::Unsure),
            },
            _ => Err(Miss::No),
        }
    }
}

impl ReadFast for i64 {
    fn read_fast(r: &mut Reader<'_>) -> Fast<i64> {
        Int::read_fast(r).map(|i| i.0)
    }
}

impl ReadFast for NullableInt {
    fn read_fast(r: &mut Reader<'_>) -> Fast<NullableInt> {
        Option::<Int>::read_fast(r).map(|i| NullableInt(i.map(|i| i.0)))
    }
}

impl ReadFast for f64 {
    fn read_fast(r: &mut Reader<'_>) -> Fast<f64> {
        match r.peek() {
            Some(b'-' | b'0'..=b'9') => {
                let (text, integer) = r.number_text()?;
                // serde_json reads an integer as a u64 or an i64 that fits, and
                // converts it; a fraction or an exponent as it reads them.
                let whole = if integer { self::integer(text).ok() } else { None };
                if let Some(i) = whole {
                    return Ok(i as f64);
                }
                // `-0` (its sign is serde_json's to keep or not: it differs with
                // `arbitrary_precision`) and integers past 64 bits.
                if integer {
                    return Err(Miss::Unsure);
                }
                serde_json::from_str(text).map_err(|_| Miss::Unsure)
            }
            _ => Err(Miss::No),
        }
    }
}

impl ReadFast for Value {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Value> {
        let text = r.skip()?;
        serde_json::from_str(text).map_err(|_| Miss::Unsure)
    }
}

impl ReadFast for Extra {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Extra> {
        if r.peek() != Some(b'{') {
            return Err(Miss::No);
        }
        let text = r.skip()?;
        super::extra::whole::<serde_json::Error>(Cow::Borrowed(text)).map_err(|_| Miss::No)
    }
}

impl<T: ReadFast> ReadFast for Option<T> {
    #[inline]
    fn read_fast(r: &mut Reader<'_>) -> Fast<Option<T>> {
        if r.peek() == Some(b'n') {
            return r.literal("null").map(|()| None);
        }
        T::read_fast(r).map(Some)
    }
}

impl<T: ReadFast> ReadFast for Box<T> {
    #[inline]
    fn read_fast(r: &mut Reader<'_>) -> Fast<Box<T>> {
        T::read_fast(r).map(Box::new)
    }
}

impl<T: ReadFast> ReadFast for Vec<T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Vec<T>> {
        if r.peek() != Some(b'[') {
            return Err(Miss::No);
        }
        r.enter()?;
        r.pos += 1;
        let mut items = Vec::new();
        if r.peek() == Some(b']') {
            r.pos += 1;
        } else {
            loop {
                items.push(read_out_of_line(r)?);
                match r.peek() {
                    Some(b',') => r.pos += 1,
                    Some(b']') => {
                        r.pos += 1;
                        break;
                    }
                    _ => return Err(Miss::Unsure),
                }
            }
        }
        r.depth -= 1;
        Ok(items)
    }
}

impl<T: ReadFast> ReadFast for IndexMap<String, T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<IndexMap<String, T>> {
        r.begin_object()?;
        let mut map = IndexMap::new();
        let mut first = true;
        while let Some((_, key)) = r.next_member(&[], &mut first)? {
            let value = read_out_of_line(r)?;
            // A repeated key: the map's own rule (the last value in the first
            // place) is serde's to apply.
            if map.insert(key.to_owned(), value).is_some() {
                return Err(Miss::Unsure);
            }
        }
        Ok(map)
    }
}

/// A union's [`ReadFast::read_fast`]: its value's text read by the union's
/// `from_text`, whose members are read fast where they can be (each exactly as
/// serde would), quietly (its error would go unused).
#[inline]
pub fn union_fast<U>(r: &mut Reader<'_>, from_text: fn(&str) -> Result<U, String>) -> Fast<U> {
    let text = r.skip()?;
    if text.as_bytes().first() == Some(&b'{') && number_token_in(&text.as_bytes()[1..]) {
        return Err(Miss::Unsure);
    }
    super::union::quietly(|| from_text(text)).map_err(|_| Miss::No)
}

/// A union's [`ReadFast::read_text_fast`]: the text read by `from_text`, which
/// finds its members' ends itself.
#[inline]
pub fn union_text_fast<U>(text: &str, from_text: fn(&str) -> Result<U, String>) -> Fast<U> {
    let b = text.as_bytes();
    let i = skip_ws(b, 0);
    if b.get(i) == Some(&b'{') && number_token_in(&b[i + 1..]) {
        return Err(Miss::Unsure);
    }
    super::union::quietly(|| from_text(text)).map_err(|_| Miss::No)
}
