//! The union rule's first look. From the kind of a union's input, its keys and
//! the value of its selector field, the members to read the input as, in order:
//! the first of them that reads is the union's value, and when none reads, their
//! errors are the union's error. Plain Rust with no serde: the generator uses
//! this very module too (as `mcp_spec_codegen::rule::choose`), so the generated
//! code and the model choose alike by construction.
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

/// The most members a union may have: the rule keeps sets of members as bits of
/// a `u64` (the generator refuses a union with more).
pub const MAX_MEMBERS: usize = 64;

/// The members to try, in order: a list that lives on the stack (the rule runs
/// for every union read, and a message holds several).
#[derive(Clone, Copy)]
pub struct Order {
    members: [u8; MAX_MEMBERS],
    len: usize,
}

impl Order {
    fn new() -> Order {
        Order { members: [0; MAX_MEMBERS], len: 0 }
    }
    fn push(&mut self, i: usize) {
        self.members[self.len] = i as u8;
        self.len += 1;
    }
    /// The members in set `set`, in schema order.
    fn of_set(set: u64) -> Order {
        let mut out = Order::new();
        let mut rest = set;
        while rest != 0 {
            out.push(rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
        out
    }
    /// The members to try, in order.
    pub fn as_slice(&self) -> &[u8] {
        &self.members[..self.len]
    }
    /// How many members there are to try.
    pub fn len(&self) -> usize {
        self.len
    }
    /// There is none to try.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl std::fmt::Debug for Order {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl PartialEq for Order {
    fn eq(&self, other: &Order) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Order {}

impl IntoIterator for Order {
    type Item = usize;
    type IntoIter = std::iter::Map<std::iter::Take<std::array::IntoIter<u8, MAX_MEMBERS>>, fn(u8) -> usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.into_iter().take(self.len).map(usize::from)
    }
}

/// The members to read the input as, in the order to try them (see the module docs).
/// Members past [`MAX_MEMBERS`] are never tried (the generator refuses such a union).
pub fn order<M: Members + ?Sized>(members: &M, selector: Option<&Selector<'_>>, look: &Look<'_>) -> Order {
    let count = members.count().min(MAX_MEMBERS);
    let bit = |i: usize| 1u64 << i;
    // Sets of members as bits, member `i` as bit `i`.
    let mut pool = (0..count).filter(|&i| members.kinds(i) & look.kind != 0).fold(0u64, |set, i| set | bit(i));
    if look.kind != OBJECT || pool == 0 {
        return Order::of_set(pool);
    }
    if let Some(sel) = selector {
        let member = |k: usize| if k < count { bit(k) } else { 0 };
        if let Some(value) = look.selected {
            if let Some(&(_, k)) = sel.picks.iter().find(|(v, _)| *v == value) {
                return Order::of_set(pool & member(k));
            }
            if let (false, Some(other)) = (sel.listed.contains(&value), sel.other) {
                return Order::of_set(pool & member(other));
            }
        }
        for &(_, k) in sel.picks {
            pool &= !member(k);
        }
        if let Some(other) = sel.other {
            pool &= !member(other);
        }
    }
    // Who declares what, asked once per key and candidate: for each key, the set
    // of candidates that declare it. A candidate claims the input with a key
    // that one candidate alone declares (`alone`), or that not all of them
    // declare (`some`); `known[i]` counts the keys member `i` declares.
    let n = pool.count_ones();
    let (mut alone, mut some) = (0u64, 0u64);
    let mut known = [0u32; MAX_MEMBERS];
    for key in look.keys {
        let mut declaring = 0u64;
        let mut rest = pool;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if members.declares(i, key) {
                declaring |= bit(i);
                known[i] += 1;
            }
        }
        match declaring.count_ones() {
            0 => {}
            1 => (alone, some) = (alone | declaring, some | declaring),
            c if c < n => some |= declaring,
            _ => {}
        }
    }
    // Keys declared by one member alone, else keys not all of them declare, else all.
    let claimants = if alone != 0 {
        alone
    } else if some != 0 {
        some
    } else {
        pool
    };
    // Most specific first: all it requires present, then the more of the keys it
    // requires, then the more it knows, then schema order. When some claimant
    // has all it requires, the others are left out.
    let mut required = [0usize; MAX_MEMBERS];
    let mut complete = 0u64;
    let mut rest = claimants;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let (present, all) = members.requirement(i, look.keys);
        required[i] = present;
        if all {
            complete |= bit(i);
        }
    }
    let mut out = Order::of_set(if claimants.count_ones() > 1 && complete != 0 { complete } else { claimants });
    out.members[..out.len].sort_unstable_by(|&a, &b| {
        let rank = |i: u8| {
            let i = usize::from(i);
            (complete & bit(i) != 0, required[i], known[i])
        };
        rank(b).cmp(&rank(a)).then(a.cmp(&b))
    });
    out
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
        Some((last, rest)) => format!("{} or {last}", join(rest, ", ")),
    }
}

/// `parts` with `separator` between them: what `[&str]::join` gives, in a plain
/// loop (the standard one is a large generic body, compiled for each element
/// type, and these are error messages).
pub(crate) fn join(parts: &[&str], separator: &str) -> String {
    let mut joined = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            joined.push_str(separator);
        }
        joined.push_str(part);
    }
    joined
}
