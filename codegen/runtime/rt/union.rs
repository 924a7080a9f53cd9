//! Unions: the `union!` macro each generated enum of types calls, the first
//! look at its input (kind, keys, the selector's or discriminator's value) and
//! the reading of the chosen member from the input's text, with errors that name
//! the member and the JSON path inside it.
//!
//! Forms of a call:
//!
//! - `union! { Name by "field" { A(TypeA) = ["a"], B(TypeB) = ["b", "bee"], Other(Base) = _ } }`:
//!   the member is the one whose values include the field's (`_` reads any other value);
//! - `union! { Name by shape { A(TypeA), B(i64) as int } }`: by the rule of `choose`;
//! - `union! { Name by kind { A(String), B(i64) as int } }`: the same rule, for members that
//!   are scalars of distinct kinds, whose first step alone decides: read through serde,
//!   from the value serde hands over, with nothing captured;
//! - `union! { Name by shape, "resultType" (ResultType) picks { "input_required" => B }, unlisted Other { .. } }`:
//!   with a selector field.
//!
//! The input is taken as JSON text (`RawValue`): only the keys and one value are
//! looked at to choose, then the member is read from the text once, so the members
//! it keeps stay text too. (A union decided by kind, read through serde, needs no
//! text: the kind of the value serde hands over is the whole decision. A union
//! whose members are all objects, decided by shape or by a field, read through
//! serde, takes its input's members one by one instead, each key with its
//! value's text, and reads the member from those: see `pairs`.)

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use super::choose::{
    ARRAY, BOOLEAN, Look, Members, NULL, NUMBER, OBJECT, STRING, Selector, join, kind_name, kinds_names,
};
use super::fixed::Fixed;
use super::object::Key;

/// The members of a union as `choose` sees them: one entry per member, from each
/// member type's `Shape`.
pub struct MemberTable<'a> {
    pub kinds: &'a [u8],
    pub declares: &'a [fn(&str) -> bool],
    pub requirement: &'a [Requirement],
}

/// A member type's `Shape::requirement`.
pub type Requirement = fn(&[&str]) -> (usize, bool);

impl Members for MemberTable<'_> {
    fn count(&self) -> usize {
        self.kinds.len()
    }
    fn kinds(&self, i: usize) -> u8 {
        self.kinds[i]
    }
    fn declares(&self, i: usize, key: &str) -> bool {
        (self.declares[i])(key)
    }
    fn requirement(&self, i: usize, keys: &[&str]) -> (usize, bool) {
        (self.requirement[i])(keys)
    }
}

/// The position of `name` in `names` (for a union's selector, at compile time).
pub const fn position(names: &[&str], name: &str) -> usize {
    let mut i = 0;
    while i < names.len() {
        let (a, b) = (names[i].as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("no such member")
}

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

/// What a union's member is read from: the union's input as JSON text, with
/// the kind and keys the union found when it looked; or, read through serde,
/// the input's members taken one by one (see `pairs`), with their keys when
/// the union decided by shape.
#[derive(Clone, Copy)]
pub enum Input<'a, 'p> {
    Text(&'a str, Option<(u8, &'a [&'a str])>),
    Pairs(&'a [(Cow<'p, str>, Cow<'p, str>)], Option<&'a [&'a str]>),
}

/// Reads a union's member (one per member, in a table the union's rule indexes).
pub type Reader<U> = fn(Input<'_, '_>) -> Result<U, String>;

/// Reads a member type from its input (one function, so that each member's
/// reader is one call).
#[inline]
pub fn read_as<T: super::Shape + DeserializeOwned>(input: Input<'_, '_>) -> Result<T, String> {
    match input {
        Input::Text(text, Some((kind, keys))) => T::read_looked(text, kind, keys),
        Input::Text(text, None) => T::read_text(text),
        Input::Pairs(pairs, looked) => T::read_pairs(pairs, looked),
    }
}

/// [`read_as`] for a reading type (`Int`), which no union asks the shape of.
#[inline]
pub fn read_plain<T: DeserializeOwned>(input: Input<'_, '_>) -> Result<T, String> {
    match input {
        Input::Text(text, _) => read_member(text),
        Input::Pairs(pairs, _) => super::pairs::read_pairs(pairs),
    }
}

/// A union's name and members, and how each member is read.
pub struct UnionOf<'a, U> {
    pub name: &'a str,
    pub members: &'a [&'a str],
    pub readers: &'a [Reader<U>],
}

thread_local! {
    /// Set while a union tries its members (and so in every union read inside
    /// them): a member that does not read then fails without saying why. Saying
    /// why means reading it again, tracking where, and formatting the message,
    /// and only the union's own error needs it, when no member reads; a member
    /// that fails before the one that reads (a schema of `"type": "integer"`
    /// tried as a `StringSchema` first) would pay it on the way to a value.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Whether a member that does not read may fail without saying why.
#[inline]
fn quiet() -> bool {
    QUIET.with(Cell::get)
}

/// Makes failures quiet until dropped, then puts back what was (also when a
/// reader panics).
struct Quiet(bool);

impl Quiet {
    #[inline]
    fn start() -> Quiet {
        Quiet(QUIET.with(|q| q.replace(true)))
    }
}

impl Drop for Quiet {
    #[inline]
    fn drop(&mut self) {
        QUIET.with(|q| q.set(self.0));
    }
}

/// The members the rule orders, tried in order: the first that reads, or the
/// errors of all. They are tried quietly first; only when none reads are they
/// read again, saying why each does not (unless this union is itself being
/// tried quietly, by one holding it).
#[inline]
fn try_in_order<U>(
    union: &UnionOf<'_, U>,
    table: &MemberTable<'_>,
    selector: Option<&Selector<'_>>,
    look: &Look<'_>,
    input: Input<'_, '_>,
) -> Result<U, String> {
    let order = super::choose::order(table, selector, look);
    let quietly = Quiet::start();
    for i in order {
        if let Ok(value) = (union.readers[i])(input) {
            return Ok(value);
        }
    }
    let held_quietly = quietly.0;
    drop(quietly);
    if held_quietly {
        return Err(String::new());
    }
    explain_order(union, table, look.kind, order, input)
}

/// The error of a union none of whose members `order` read: each read again,
/// saying why it does not. (Out of line: only an error comes here, and each
/// union's inline reader stays smaller.)
#[cold]
#[inline(never)]
fn explain_order<U>(
    union: &UnionOf<'_, U>,
    table: &MemberTable<'_>,
    kind: u8,
    order: super::choose::Order,
    input: Input<'_, '_>,
) -> Result<U, String> {
    let mut errors = Vec::new();
    for i in order {
        match (union.readers[i])(input) {
            // Reading does not depend on being quiet, so this is not expected.
            Ok(value) => return Ok(value),
            Err(e) => errors.push((i, e)),
        }
    }
    Err(union_error(union.name, union.members, table.kinds, kind, &errors))
}

/// Reads a union decided by shape from JSON text whose kind and keys a union
/// holding this one has already found (`looked`), or looks itself.
#[inline]
pub fn shape_from_text<U>(
    union: &UnionOf<'_, U>,
    table: &MemberTable<'_>,
    selector: Option<&Selector<'_>>,
    text: &str,
    looked: Option<(u8, &[&str])>,
) -> Result<U, String> {
    let scanned = scan_unless(text, selector.map(|s| s.field), looked).map_err(|e| format!("{}: {e}", union.name))?;
    let own_keys = scanned.key_list();
    let (kind, keys) = looked.unwrap_or((scanned.kind, &own_keys[..]));
    let selected = scanned.field.as_ref().and_then(Value::as_str);
    try_in_order(union, table, selector, &Look { kind, keys, selected }, Input::Text(text, Some((kind, keys))))
}

/// Reads a union decided by shape from an object's members, with the keys a
/// union holding this one has already found (`looked`).
#[inline]
pub fn shape_from_pairs<U>(
    union: &UnionOf<'_, U>,
    table: &MemberTable<'_>,
    selector: Option<&Selector<'_>>,
    pairs: &[(Cow<'_, str>, Cow<'_, str>)],
    looked: Option<&[&str]>,
) -> Result<U, String> {
    let own_keys;
    let keys = match looked {
        Some(keys) => keys,
        None => {
            own_keys = super::pairs::keys_of(pairs);
            &own_keys[..]
        }
    };
    let field = super::pairs::field_of(pairs, selector.map(|s| s.field)).map_err(|e| format!("{}: {e}", union.name))?;
    let selected = field.as_ref().and_then(Value::as_str);
    try_in_order(union, table, selector, &Look { kind: OBJECT, keys, selected }, Input::Pairs(pairs, Some(keys)))
}

/// Reads a discriminated union from JSON text.
#[inline]
pub fn tag_from_text<U>(union: &UnionOf<'_, U>, rule: &TagRule<'_>, text: &str) -> Result<U, String> {
    let scanned = scan(text, Some(rule.field), false).map_err(|e| format!("{}: {e}", union.name))?;
    read_tagged(union, by_tag(rule, &scanned), Input::Text(text, None))
}

/// Reads a discriminated union from an object's members.
#[inline]
pub fn tag_from_pairs<U>(
    union: &UnionOf<'_, U>,
    rule: &TagRule<'_>,
    pairs: &[(Cow<'_, str>, Cow<'_, str>)],
) -> Result<U, String> {
    let field = super::pairs::field_of(pairs, Some(rule.field)).map_err(|e| format!("{}: {e}", union.name))?;
    read_tagged(union, by_tag_of(rule, OBJECT, field.as_ref()), Input::Pairs(pairs, None))
}

/// Reads the member a discriminator's value chose (or says why none was; while
/// a union holding this one tries it quietly, the member's own error, unsaid).
#[inline]
fn read_tagged<U>(union: &UnionOf<'_, U>, which: Result<usize, String>, input: Input<'_, '_>) -> Result<U, String> {
    let which = which.map_err(|e| format!("{}: {e}", union.name))?;
    (union.readers[which])(input)
        .map_err(|e| if quiet() { e } else { union_error(union.name, union.members, &[], 0, &[(which, e)]) })
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

#[inline]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = b.get(i) {
        i += 1;
    }
    i
}

/// The index of the quote that ends the string whose text starts at `i`.
/// Eight bytes at a time, in a word: the strings of a message are mostly short,
/// and a call to `memchr` costs more than it saves on them (measured).
#[inline]
pub(crate) fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        i = next_quote_or_backslash(b, i);
        while !matches!(b.get(i)?, b'"' | b'\\') {
            i += 1;
        }
        if b[i] == b'"' {
            return Some(i);
        }
        i += 2;
    }
}

/// The first quote or backslash at or after `i`, looked for eight bytes at a
/// time; where fewer than eight bytes are left, the index where the word-wise
/// look stopped (the caller looks at the rest byte by byte).
#[inline(always)]
fn next_quote_or_backslash(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const QUOTES: u64 = u64::from_ne_bytes([b'"'; 8]);
    const BACKSLASHES: u64 = u64::from_ne_bytes([b'\\'; 8]);
    // The high bit of each byte of `w` that is zero. A byte above a flagged
    // one may be flagged too, so only the lowest flag is trusted, in each test
    // and so in their union.
    let zeros = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let found = zeros(w ^ QUOTES) | zeros(w ^ BACKSLASHES);
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// The bytes that matter while skipping a container: quotes and brackets.
const STRUCTURAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'[' as usize] = true;
    t[b'}' as usize] = true;
    t[b']' as usize] = true;
    t
};

/// Whether JSON text nests arrays and objects deeper than `max`.
pub(crate) fn nests_deeper(b: &[u8], max: usize) -> bool {
    let (mut depth, mut i) = (0usize, 0usize);
    loop {
        while !STRUCTURAL[match b.get(i) {
            Some(&c) => c as usize,
            None => return false,
        }] {
            i += 1;
        }
        match b[i] {
            b'"' => match string_end(b, i + 1) {
                Some(end) => i = end,
                None => return false,
            },
            b'{' | b'[' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            _ => depth = depth.saturating_sub(1),
        }
        i += 1;
    }
}

/// The index just past the JSON value that starts at `i`.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i + 1).map(|e| e + 1),
        b'{' | b'[' => {
            let (mut depth, mut j) = (0usize, i);
            loop {
                while !STRUCTURAL[*b.get(j)? as usize] {
                    j += 1;
                }
                match b[j] {
                    b'"' => j = string_end(b, j + 1)?,
                    b'{' | b'[' => depth += 1,
                    _ => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while let Some(c) = b.get(j) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    break;
                }
                j += 1;
            }
            (j > i).then_some(j)
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

/// Reads a union's member from the union's input text. On failure the text is
/// read again, tracking where, so the error says the path inside the member
/// (`content[0]: missing field \`mimeType\``); unless a union is trying its
/// members quietly, when the error is empty (see `QUIET`).
#[inline]
pub fn read_member<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    read_or_explain(|| serde_json::from_str(text), || member_error::<T>(text))
}

/// Reads a union's member; when it does not read, the error `explain` gives
/// (reading again, tracking where), or none while a union tries its members
/// quietly. (The first reading is not made quiet itself, though its error is
/// never shown: a guard in every member's inline reader cost the generic read
/// 15% more instruction-cache misses, for a gain on errors alone.) A member
/// that does not read keeps nothing: what it recorded in the unknown-members
/// log, and what the second reading recorded, is forgotten.
#[inline]
pub(crate) fn read_or_explain<T, E>(
    read: impl FnOnce() -> Result<T, E>,
    explain: impl FnOnce() -> String,
) -> Result<T, String> {
    #[cfg(feature = "unknown-members-log")]
    let mark = super::log::mark();
    read().map_err(|_| {
        let e = if quiet() { String::new() } else { explain() };
        #[cfg(feature = "unknown-members-log")]
        super::log::rewind(mark);
        e
    })
}

/// The error of reading `text` as `T`, with its JSON path.
#[cold]
pub fn member_error<T: DeserializeOwned>(text: &str) -> String {
    let mut d = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, T>(&mut d) {
        // What follows the value (`serde_json::from_str` checks it, `deserialize` does not).
        Ok(_) => match d.end() {
            Err(e) => without_position(&e),
            Ok(()) => "the value reads only when tracked".into(),
        },
        Err(e) => {
            let path = e.path().to_string();
            let inner = without_position(e.inner());
            if path == "." || path.is_empty() { inner } else { format!("{path}: {inner}") }
        }
    }
}

/// The error of a union none of whose candidates read: each candidate's own,
/// or, when no member can be a value of the input's kind, the kinds expected.
#[cold]
pub fn union_error(union: &str, names: &[&str], kinds: &[u8], kind: u8, errors: &[(usize, String)]) -> String {
    match errors {
        [] => {
            let all = kinds.iter().fold(0, |a, k| a | k);
            format!("{union}: expected {}, found {}", kinds_names(all), kind_name(kind))
        }
        // A member that is a union names itself first.
        [(i, e)] if e.starts_with(names[*i]) && e[names[*i].len()..].starts_with(": ") => format!("{union}: {e}"),
        [(i, e)] => format!("{union}: {}: {e}", names[*i]),
        many => {
            let list: Vec<&str> = many.iter().map(|(i, _)| names[*i]).collect();
            let each: Vec<String> = many.iter().map(|(i, e)| format!("{}: {e}", names[*i])).collect();
            let each: Vec<&str> = each.iter().map(String::as_str).collect();
            format!("{union}: the value is none of {} ({})", join(&list, ", "), join(&each, "; "))
        }
    }
}

/// How a discriminated union's field decides.
pub struct TagRule<'a> {
    pub field: &'a str,
    /// Per member, the values that select it.
    pub tags: &'a [&'a [Fixed]],
    /// The member that reads any other value.
    pub fallback: Option<usize>,
}

/// The member a discriminator's value selects, from the first look at the input.
pub fn by_tag(rule: &TagRule<'_>, scanned: &Scanned<'_>) -> Result<usize, String> {
    by_tag_of(rule, scanned.kind, scanned.field.as_ref())
}

/// The member a discriminator's value selects, from the input's kind and the
/// field's value when it has one.
pub fn by_tag_of(rule: &TagRule<'_>, kind: u8, field: Option<&Value>) -> Result<usize, String> {
    if kind != OBJECT {
        return Err(tag_kind_error(kind));
    }
    let Some(tag) = field else {
        return Err(format!("missing field `{}`", rule.field));
    };
    rule.tags.iter().position(|ts| ts.iter().any(|t| t.matches(tag))).or(rule.fallback).ok_or_else(|| {
        let expected: Vec<String> = rule.tags.iter().flat_map(|ts| ts.iter().map(|t| t.to_string())).collect();
        let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
        format!("unknown `{}` value {tag}, expected one of {}", rule.field, join(&expected, ", "))
    })
}

/// The error of a discriminated union for an input of another kind than an object.
pub fn tag_kind_error(kind: u8) -> String {
    format!("invalid type: {}, expected an object", kind_name(kind))
}

/// A JSON value as text, for reading a union from a `Value`.
pub fn to_raw(value: &Value) -> Result<Box<RawValue>, String> {
    serde_json::value::to_raw_value(value).map_err(|e| e.to_string())
}

/// The message of an error met inside a union's input, without a position that
/// would count from the start of that fragment rather than of the document.
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) if e.line() > 0 => s[..i].to_string(),
        _ => s,
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

/// The error of a union read through serde, from [`union_error`]'s parts.
#[cold]
pub fn union_error_of<E: de::Error>(
    union: &str,
    names: &[&str],
    kinds: &[u8],
    kind: u8,
    errors: &[(usize, String)],
) -> E {
    E::custom(union_error(union, names, kinds, kind, errors))
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

/// The impls of one generated union: `member_name`, reading (see each union's
/// docs for its rule) and writing, and the [`Shape`](super::Shape) its own unions ask of it.
///
/// Every reading entry point is `#[inline]`, and the rules are generic runtime
/// functions over the union's one table of member readers (`UnionOf`): each
/// reader reads its member with `serde_json`'s text reader or from an object's
/// members, which instantiates the member's whole serde code, and an inline
/// function is compiled only in the crates that call it (as serde's generic code
/// is), not in this one. Without it, this crate's own build compiled every
/// member's reader for every union, used or not (about 1.6x the build time).
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_union {
    // Discriminated by a field's value.
    ($name:ident by $field:literal { $( $variant:ident ($ty:ty) $(as $wrap:ident)? = $tags:tt ),* $(,)? }) => {
        $crate::__mcp_union!(@common $name { $( $variant ($ty) $(as $wrap)? ),* });
        $crate::__mcp_union!(@pairs_deserialize $name);
        impl $crate::rt::Shape for $name {
            $crate::__mcp_union!(@shape_of $name { $( $variant ($ty) ),* });
            #[inline]
            fn read_pairs(
                pairs: &[(::std::borrow::Cow<'_, str>, ::std::borrow::Cow<'_, str>)],
                _looked: ::std::option::Option<&[&str]>,
            ) -> ::std::result::Result<Self, ::std::string::String> {
                <$name as $crate::rt::FromPairs>::from_pairs(pairs, ::std::option::Option::None)
            }
        }
        impl $name {
            /// Reads the union from JSON text, choosing the member as its docs say.
            #[inline]
            pub fn from_text(text: &str) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::rt::tag_from_text(&$name::UNION, &$crate::__mcp_union!(@rule $field { $( $tags ),* }), text)
            }
        }
        impl $crate::rt::FromPairs for $name {
            #[inline]
            fn from_pairs(
                pairs: &[(::std::borrow::Cow<'_, str>, ::std::borrow::Cow<'_, str>)],
                _looked: ::std::option::Option<&[&str]>,
            ) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::rt::tag_from_pairs(&$name::UNION, &$crate::__mcp_union!(@rule $field { $( $tags ),* }), pairs)
            }
            fn kind_error(kind: u8) -> ::std::string::String {
                ::std::format!("{}: {}", stringify!($name), $crate::rt::tag_kind_error(kind))
            }
        }
    };
    // Decided by shape, with a selector field.
    ($name:ident by shape, $sfield:literal ($sty:ty) picks { $( $pvalue:literal => $pick:ident ),* $(,)? } $(, unlisted $other:ident)?
        { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* $(,)? }) => {
        $crate::__mcp_union!(@common $name { $( $variant ($ty) $(as $wrap)? ),* });
        $crate::__mcp_union!(@pairs_deserialize $name);
        $crate::__mcp_union!(@shape $name { $( $variant ($ty) $(as $wrap)? ),* }
            ::std::option::Option::Some($crate::rt::Selector {
                field: $sfield,
                picks: &[ $( ($pvalue, $crate::rt::position($name::MEMBERS, stringify!($pick))) ),* ],
                listed: <$sty>::VALUES,
                other: $crate::__mcp_union!(@other $name $($other)?),
            }));
    };
    // Decided by kind: members that are JSON scalars of distinct kinds. The rule
    // is the one of `by shape`, whose first step alone decides here, so serde's
    // own first look at the value (`deserialize_any`) is the whole decision and
    // nothing is captured; `from_text` is that of `by shape`.
    ($name:ident by kind { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* $(,)? }) => {
        $crate::__mcp_union!(@common $name { $( $variant ($ty) $(as $wrap)? ),* });
        $crate::__mcp_union!(@shape $name { $( $variant ($ty) $(as $wrap)? ),* } ::std::option::Option::None);
        impl $name {
            /// Reads the member of the scalar's `kind` from `value`, with the
            /// errors `from_text` gives.
            #[inline]
            fn from_scalar<'de, D: ::serde::Deserializer<'de>>(kind: u8, value: D) -> ::std::result::Result<Self, D::Error> {
                $(
                    if <$ty as $crate::rt::Shape>::KINDS & kind != 0 {
                        return $crate::__mcp_union!(@scalar $name $variant ($ty) $($wrap)?, value).map_err(|e| {
                            let at = $crate::rt::position($name::MEMBERS, stringify!($variant));
                            $crate::rt::union_error_of(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, kind, &[(at, e.to_string())])
                        });
                    }
                )*
                ::std::result::Result::Err($crate::rt::union_error_of(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, kind, &[]))
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                use ::serde::de::IntoDeserializer as _;
                struct __McpKindVisitor;
                impl<'de> ::serde::de::Visitor<'de> for __McpKindVisitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(concat!("a value of ", stringify!($name)))
                    }
                    #[inline]
                    fn visit_bool<E: ::serde::de::Error>(self, v: bool) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::rt::BOOLEAN, v.into_deserializer())
                    }
                    #[inline]
                    fn visit_i64<E: ::serde::de::Error>(self, v: i64) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::rt::NUMBER, v.into_deserializer())
                    }
                    #[inline]
                    fn visit_u64<E: ::serde::de::Error>(self, v: u64) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::rt::NUMBER, v.into_deserializer())
                    }
                    #[inline]
                    fn visit_f64<E: ::serde::de::Error>(self, v: f64) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::rt::NUMBER, v.into_deserializer())
                    }
                    #[inline]
                    fn visit_str<E: ::serde::de::Error>(self, v: &str) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::rt::STRING, v.into_deserializer())
                    }
                    fn visit_unit<E: ::serde::de::Error>(self) -> ::std::result::Result<$name, E> {
                        $name::from_scalar($crate::rt::NULL, ().into_deserializer())
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, map: A) -> ::std::result::Result<$name, A::Error> {
                        match $crate::rt::number_or_skip(map)? {
                            // A number, from serde_json with `arbitrary_precision`.
                            ::std::option::Option::Some(number) => $name::from_text(&number).map_err(::serde::de::Error::custom),
                            ::std::option::Option::None => ::std::result::Result::Err($crate::rt::union_error_of(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, $crate::rt::OBJECT, &[])),
                        }
                    }
                    fn visit_seq<A: ::serde::de::SeqAccess<'de>>(self, seq: A) -> ::std::result::Result<$name, A::Error> {
                        $crate::rt::skip_seq(seq)?;
                        ::std::result::Result::Err($crate::rt::union_error_of(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, $crate::rt::ARRAY, &[]))
                    }
                }
                deserializer.deserialize_any(__McpKindVisitor)
            }
        }
    };
    // Decided by shape.
    ($name:ident by shape { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* $(,)? }) => {
        $crate::__mcp_union!(@common $name { $( $variant ($ty) $(as $wrap)? ),* });
        $crate::__mcp_union!(@pairs_deserialize $name);
        $crate::__mcp_union!(@shape $name { $( $variant ($ty) $(as $wrap)? ),* } ::std::option::Option::None);
    };

    (@shape $name:ident { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* } $selector:expr) => {
        // The rule keeps sets of members as bits of a `u64` (the generator checks it too).
        const _: () = ::std::assert!($name::MEMBERS.len() <= $crate::rt::MAX_MEMBERS, "a union decided by shape has at most 64 members");
        impl $name {
            const SELECTOR: ::std::option::Option<$crate::rt::Selector<'static>> = $selector;
            const TABLE: $crate::rt::MemberTable<'static> = $crate::rt::MemberTable {
                kinds: &[ $( <$ty as $crate::rt::Shape>::KINDS ),* ],
                declares: &[ $( <$ty as $crate::rt::Shape>::declares ),* ],
                requirement: &[ $( <$ty as $crate::rt::Shape>::requirement ),* ],
            };

            /// Reads the union from JSON text, choosing the member as its docs say.
            #[inline]
            pub fn from_text(text: &str) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::rt::shape_from_text(&$name::UNION, &$name::TABLE, $name::SELECTOR.as_ref(), text, ::std::option::Option::None)
            }
        }

        impl $crate::rt::FromPairs for $name {
            #[inline]
            fn from_pairs(
                pairs: &[(::std::borrow::Cow<'_, str>, ::std::borrow::Cow<'_, str>)],
                looked: ::std::option::Option<&[&str]>,
            ) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::rt::shape_from_pairs(&$name::UNION, &$name::TABLE, $name::SELECTOR.as_ref(), pairs, looked)
            }
            fn kind_error(kind: u8) -> ::std::string::String {
                $crate::rt::union_error(stringify!($name), $name::MEMBERS, $name::TABLE.kinds, kind, &[])
            }
        }

        impl $crate::rt::Shape for $name {
            $crate::__mcp_union!(@shape_of $name { $( $variant ($ty) ),* });
            #[inline]
            fn read_looked(text: &str, kind: u8, keys: &[&str]) -> ::std::result::Result<Self, ::std::string::String> {
                $crate::rt::shape_from_text(&$name::UNION, &$name::TABLE, $name::SELECTOR.as_ref(), text, ::std::option::Option::Some((kind, keys)))
            }
            #[inline]
            fn read_pairs(
                pairs: &[(::std::borrow::Cow<'_, str>, ::std::borrow::Cow<'_, str>)],
                looked: ::std::option::Option<&[&str]>,
            ) -> ::std::result::Result<Self, ::std::string::String> {
                <$name as $crate::rt::FromPairs>::from_pairs(pairs, looked)
            }
        }
    };

    (@common $name:ident { $( $variant:ident ($ty:ty) $(as $wrap:ident)? ),* }) => {
        impl $name {
            /// The names of the members, in the schema's order.
            pub const MEMBERS: &'static [&'static str] = &[ $( stringify!($variant) ),* ];

            /// The union's name, members and their readers, for the runtime's rules.
            const UNION: $crate::rt::UnionOf<'static, $name> = $crate::rt::UnionOf {
                name: stringify!($name),
                members: $name::MEMBERS,
                readers: &[ $( $crate::__mcp_union!(@reader $name $variant ($ty) $($wrap)?) ),* ],
            };

            /// The name of the member this value holds.
            pub fn member_name(&self) -> &'static str {
                match self {
                    $( $name::$variant(_) => stringify!($variant), )*
                }
            }

            /// Reads the union from JSON text, choosing the member as its docs say.
            #[inline]
            pub fn from_raw(raw: &::serde_json::value::RawValue) -> ::std::result::Result<Self, ::std::string::String> {
                $name::from_text(raw.get())
            }

            /// Reads a value already parsed into JSON, choosing the member as for text.
            #[inline]
            pub fn from_json(value: ::serde_json::Value) -> ::std::result::Result<Self, ::std::string::String> {
                $name::from_raw(&$crate::rt::to_raw(&value)?)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    $( $name::$variant(value) => ::serde::Serialize::serialize($crate::__mcp_union!(@wrap value $($wrap)?), serializer), )*
                }
            }
        }

    };

    // Reading through serde, a union decided by shape: when its members are all
    // objects, from the input's members taken one by one (see `pairs`); else as
    // the input's text, then from the text.
    (@pairs_deserialize $name:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            #[inline]
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                if <$name as $crate::rt::Shape>::KINDS == $crate::rt::OBJECT {
                    return deserializer.deserialize_any($crate::rt::PairsVisitor::<$name>::new());
                }
                let text = $crate::rt::raw_of(deserializer)?;
                $name::from_text(&text).map_err(::serde::de::Error::custom)
            }
        }
    };

    // A union's `Shape`, less `read_looked` (which only a union decided by shape or kind has).
    (@shape_of $name:ident { $( $variant:ident ($ty:ty) ),* }) => {
            const KINDS: u8 = 0 $( | <$ty as $crate::rt::Shape>::KINDS )*;
            #[inline]
            fn read_text(text: &str) -> ::std::result::Result<Self, ::std::string::String> {
                $name::from_text(text)
            }
            fn declares(key: &str) -> bool {
                false $( || <$ty as $crate::rt::Shape>::declares(key) )*
            }
            fn requirement(keys: &[&str]) -> (usize, bool) {
                let mut best = (0usize, false);
                $(
                    if <$ty as $crate::rt::Shape>::KINDS & $crate::rt::OBJECT != 0 {
                        let r = <$ty as $crate::rt::Shape>::requirement(keys);
                        if (r.1, r.0) > (best.1, best.0) {
                            best = r;
                        }
                    }
                )*
                best
            }
    };

    (@reader $name:ident $variant:ident ($ty:ty) int) => {
        |input| $crate::rt::read_plain::<$crate::rt::Int>(input).map(|i| $name::$variant(i.0))
    };
    (@reader $name:ident $variant:ident ($ty:ty) nullable_int) => {
        |input| $crate::rt::read_plain::<$crate::rt::NullableInt>(input).map(|i| $name::$variant(i.0))
    };
    (@reader $name:ident $variant:ident ($ty:ty) $($wrap:ident)?) => {
        |input| $crate::rt::read_as::<$ty>(input).map($name::$variant)
    };

    (@scalar $name:ident $variant:ident ($ty:ty) int, $value:expr) => {
        <$crate::rt::Int as ::serde::Deserialize>::deserialize($value).map(|i| $name::$variant(i.0))
    };
    (@scalar $name:ident $variant:ident ($ty:ty) $($wrap:ident)?, $value:expr) => {
        <$ty as ::serde::Deserialize>::deserialize($value).map($name::$variant)
    };

    (@wrap $v:ident) => { $v };
    (@wrap $v:ident float) => { &$crate::rt::Float(*$v) };
    (@wrap $v:ident nullable_float) => { &$crate::rt::NullableFloat(*$v) };
    (@wrap $v:ident float_seq) => { &$crate::rt::FloatSeq($v) };
    (@wrap $v:ident int) => { $v };
    (@wrap $v:ident nullable_int) => { $v };

    (@rule $field:literal { $( $tags:tt ),* }) => {
        $crate::rt::TagRule {
            field: $field,
            tags: &[ $( $crate::__mcp_union!(@tags $tags) ),* ],
            fallback: $crate::__mcp_union!(@fallback [ $( $tags )* ] 0usize),
        }
    };

    (@tags _) => { &[] };
    (@tags [ $( $tag:expr ),* ]) => { &[ $( $crate::rt::Fixed::from($tag) ),* ] };

    (@fallback [] $i:expr) => { ::std::option::Option::None };
    (@fallback [ _ $($rest:tt)* ] $i:expr) => { ::std::option::Option::Some($i) };
    (@fallback [ $first:tt $($rest:tt)* ] $i:expr) => { $crate::__mcp_union!(@fallback [ $($rest)* ] $i + 1usize) };

    (@other $name:ident) => { ::std::option::Option::None };
    (@other $name:ident $other:ident) => { ::std::option::Option::Some($crate::rt::position($name::MEMBERS, stringify!($other))) };
}
