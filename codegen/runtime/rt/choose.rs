//! The union rule's first look. From the kind of a union's input, its keys and
//! the value of its selector field, the members to read the input as, in order:
//! the first of them that reads is the union's value, and when none reads, their
//! errors are the union's error. Plain Rust with no serde: the generator compiles
//! this very file too (as `mcp_spec_codegen::rule::choose`), so the generated code
//! and the model choose alike by construction.
//!
//! The rule, for an input of some JSON kind:
//!
//! 1. Only members that can be a value of that kind take part.
//! 2. A union with a selector field (`resultType`) looks at it first: a value that
//!    picks a member (`"input_required"`) reads only that member; a value the
//!    field's type does not list reads only the catch-all member (which keeps the
//!    object whole); no value, or a listed value that picks no member
//!    (`"complete"`), leaves the members that no value picks.
//! 3. An object input is claimed by keys: when one of its keys is declared by only
//!    one member, the members that hold such a key alone are the only candidates;
//!    else the members that declare a key that not all of them declare are; else
//!    all of them. A member that declares nothing of its own (an open `Result`) is
//!    therefore read only when no other member claims the input.
//! 4. The candidates are tried most specific first: those whose required members
//!    are all present before the others (which are left out when some member has
//!    them all), then the more of the input's keys they require, then the more of
//!    them they know, then schema order.

/// JSON kinds, as bits.
pub const OBJECT: u8 = 1;
pub const ARRAY: u8 = 2;
pub const STRING: u8 = 4;
pub const NUMBER: u8 = 8;
pub const BOOLEAN: u8 = 16;
pub const NULL: u8 = 32;
/// Every kind: `serde_json::Value`.
pub const ANY: u8 = 63;

/// What the rule needs to know of a union's members.
pub trait Members {
    fn count(&self) -> usize;
    /// The JSON kinds (bits) a value of member `i` can be.
    fn kinds(&self, i: usize) -> u8;
    /// Member `i` declares `key` (for a union, one of its members does).
    fn declares(&self, i: usize, key: &str) -> bool;
    /// How many of `keys` member `i` requires, and whether `keys` holds every
    /// member it requires (for a union, its member that does best).
    fn requirement(&self, i: usize, keys: &[&str]) -> (usize, bool);
}

/// A field whose value chooses before the shape does (`resultType`).
#[derive(Clone, Copy, Debug)]
pub struct Selector<'a> {
    /// The field's wire name.
    pub field: &'a str,
    /// A value and the member it picks: `("input_required", 11)`.
    pub picks: &'a [(&'a str, usize)],
    /// Every value the field's type lists.
    pub listed: &'a [&'a str],
    /// The member that reads a value the type does not list.
    pub other: Option<usize>,
}

/// What a first look at a union's input found.
#[derive(Clone, Copy, Debug)]
pub struct Look<'a> {
    /// One of the kind bits.
    pub kind: u8,
    /// An object's keys (empty for any other kind).
    pub keys: &'a [&'a str],
    /// The selector field's value, when the input has it as a string.
    pub selected: Option<&'a str>,
}

/// The members to read the input as, in the order to try them (see the module docs).
pub fn order<M: Members + ?Sized>(members: &M, selector: Option<&Selector<'_>>, look: &Look<'_>) -> Vec<usize> {
    let mut pool: Vec<usize> = (0..members.count()).filter(|&i| members.kinds(i) & look.kind != 0).collect();
    if look.kind != OBJECT || pool.is_empty() {
        return pool;
    }
    if let Some(sel) = selector {
        if let Some(value) = look.selected {
            if let Some(&(_, k)) = sel.picks.iter().find(|(v, _)| *v == value) {
                pool.retain(|&i| i == k);
                return pool;
            }
            if let (false, Some(other)) = (sel.listed.contains(&value), sel.other) {
                pool.retain(|&i| i == other);
                return pool;
            }
        }
        pool.retain(|&i| !sel.picks.iter().any(|&(_, k)| k == i) && sel.other != Some(i));
    }
    // Who declares what, asked once per key and candidate (a union's input is
    // small, so one scratch buffer beats a map): `by[k]` is how many of the pool
    // declare key `k`, `declares[k * n + j]` whether `pool[j]` does.
    let (n, key_count) = (pool.len(), look.keys.len());
    let mut scratch = vec![0usize; key_count * (n + 1)];
    let (by, declares) = scratch.split_at_mut(key_count);
    for (k, key) in look.keys.iter().enumerate() {
        for (j, &i) in pool.iter().enumerate() {
            if members.declares(i, key) {
                declares[k * n + j] = 1;
                by[k] += 1;
            }
        }
    }
    let claims =
        |j: usize, test: fn(usize, usize) -> bool| (0..key_count).any(|k| declares[k * n + j] == 1 && test(by[k], n));
    // Keys declared by one member alone, else keys not all of them declare, else all.
    let tests: [fn(usize, usize) -> bool; 2] = [|count, _| count == 1, |count, n| count < n];
    let test = tests.into_iter().find(|&test| (0..n).any(|j| claims(j, test)));
    let mut ranked: Vec<(bool, usize, usize, usize)> = (0..n)
        .filter(|&j| test.is_none_or(|test| claims(j, test)))
        .map(|j| {
            let i = pool[j];
            let (required, complete) = members.requirement(i, look.keys);
            let known = (0..key_count).filter(|&k| declares[k * n + j] == 1).count();
            (complete, required, known, i)
        })
        .collect();
    if ranked.len() > 1 && ranked.iter().any(|r| r.0) {
        ranked.retain(|r| r.0);
    }
    ranked.sort_by(|a, b| (b.0, b.1, b.2).cmp(&(a.0, a.1, a.2)).then(a.3.cmp(&b.3)));
    pool.clear();
    pool.extend(ranked.into_iter().map(|r| r.3));
    pool
}

/// A kind's name, with its article: "an object", "a string".
pub fn kind_name(kind: u8) -> &'static str {
    match kind {
        OBJECT => "an object",
        ARRAY => "an array",
        STRING => "a string",
        NUMBER => "a number",
        BOOLEAN => "a boolean",
        _ => "null",
    }
}

/// The kinds of a set, for "expected a string or a number".
pub fn kinds_names(kinds: u8) -> String {
    let names: Vec<&str> =
        [OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL].into_iter().filter(|k| kinds & k != 0).map(kind_name).collect();
    match names.split_last() {
        None => "nothing".into(),
        Some((last, [])) => (*last).into(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}
