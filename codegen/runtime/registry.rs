//! The lifecycle of every schema item of every revision, as data (SEP-2596): each
//! type, field, const and enum value that any revision declares, with its state in
//! each revision: Active, Deprecated (with the revision and SEP its `@deprecated`
//! tag names, and the tag's text), or Removed (with the last revision that had it).
//! Always compiled, whatever revision features are on.
//!
//! Paths name items as the schema does: `PingRequest`, `ClientCapabilities.sampling`,
//! `CreateMessageRequestParams.includeContext."thisServer"`. A member whose name is
//! not an identifier is quoted (`RequestMetaObject."io.modelcontextprotocol/logLevel"`);
//! an anonymous type is named by the member it types, with `[]` for array elements
//! and `{}` for map values. A field is listed under the type that declares it;
//! types that inherit it are not listed again.
//!
//! A revision's states come from its own `schema.ts`: `since` is the date the tag
//! gives, which can be earlier than the revision carrying the tag
//! (`includeContext: "thisServer"` is tagged in 2026-07-28 "as of 2025-11-25").
//! Features the spec deprecates that have no schema items (the HTTP+SSE transport,
//! Dynamic Client Registration) are not in this table.
//!
//! ```
//! use mcp_spec_types::registry::{self, State};
//!
//! let state = registry::state("2026-07-28", "ClientCapabilities.sampling");
//! assert!(matches!(state, Some(State::Deprecated { sep: Some("SEP-2577"), .. })));
//! assert!(matches!(registry::state("2026-07-28", "PingRequest"), Some(State::Removed { last_seen: "2025-11-25" })));
//! assert_eq!(registry::revision_for_protocol_version("2025-06-18"), Some("2025-06-18"));
//! ```

/// What an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An interface, type alias, union or enum declared by the schema.
    Type,
    /// A member of an object type.
    Field,
    /// One value of a string enum.
    Value,
    /// An exported const.
    Const,
}

/// The state of an entry in one revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// Not in this revision, nor in any earlier one.
    Absent,
    /// In the revision, not deprecated.
    Active,
    /// In the revision, with a `@deprecated` tag.
    Deprecated {
        /// The revision the tag names ("as of protocol version 2026-07-28"), or
        /// the revision carrying the tag when it names none.
        since: &'static str,
        /// The first SEP the tag names (`SEP-2577`).
        sep: Option<&'static str>,
        /// The tag's text.
        note: &'static str,
    },
    /// Not in this revision, but in an earlier one.
    Removed {
        /// The newest earlier revision that has it.
        last_seen: &'static str,
    },
    /// A member this revision no longer names but still allows: its parent's
    /// index signature (`[key: string]: unknown`) takes it, and the types keep it
    /// as an unknown member. Not gone from the protocol.
    Unnamed {
        /// The newest earlier revision that names it.
        last_named: &'static str,
    },
}

impl State {
    /// Active or Deprecated: the revision has the item.
    pub fn is_present(&self) -> bool {
        matches!(self, State::Active | State::Deprecated { .. })
    }
}

/// One schema item and its state in each revision.
#[derive(Debug)]
pub struct Entry {
    pub path: &'static str,
    pub kind: Kind,
    /// One state per revision, in the order of [`crate::REVISIONS`].
    pub states: &'static [State],
    /// Per revision, the path under which that revision declares the item when it
    /// is not this one: `CallToolRequest.params.name` is `CallToolRequestParams.name`
    /// from 2025-11-25 on. The item is present there, and listed under that path.
    pub same_as: &'static [Option<&'static str>],
}

impl Entry {
    /// The state in `revision` (a name from [`crate::REVISIONS`]).
    pub fn state(&self, revision: &str) -> Option<&'static State> {
        let i = revision_index(revision)?;
        self.states.get(i)
    }

    /// The path under which `revision` declares this item, when it is another one.
    pub fn same_as(&self, revision: &str) -> Option<&'static str> {
        *self.same_as.get(revision_index(revision)?)?
    }

    /// Every revision with the entry's state in it, oldest first.
    pub fn states(&self) -> impl Iterator<Item = (&'static str, &'static State)> {
        crate::REVISIONS.iter().copied().zip(self.states.iter())
    }
}

/// The data's own shorthand: `entries!["path" Kind STATES SAME_AS, ...]`.
macro_rules! entries {
    ( $( $path:literal $kind:ident $states:ident $same_as:ident ),* $(,)? ) => {
        &[ $( Entry { path: $path, kind: Kind::$kind, states: $states, same_as: $same_as } ),* ]
    };
}

fn revision_index(revision: &str) -> Option<usize> {
    crate::REVISIONS.iter().position(|r| *r == revision)
}

/// Every entry, sorted by path.
pub fn entries() -> &'static [Entry] {
    ENTRIES
}

/// The entry for a path.
pub fn entry(path: &str) -> Option<&'static Entry> {
    ENTRIES.binary_search_by(|e| e.path.cmp(path)).ok().map(|i| &ENTRIES[i])
}

/// The state of `path` in `revision`; `None` when either is unknown.
pub fn state(revision: &str, path: &str) -> Option<&'static State> {
    entry(path)?.state(revision)
}

/// The entries Deprecated in `revision`, with their state, by path; each item
/// once, under the path that revision declares it by.
pub fn deprecated_in(revision: &str) -> impl Iterator<Item = (&'static Entry, &'static State)> {
    let i = revision_index(revision);
    ENTRIES.iter().filter_map(move |e| {
        let i = i?;
        let s = e.states.get(i)?;
        (matches!(s, State::Deprecated { .. }) && e.same_as[i].is_none()).then_some((e, s))
    })
}

/// The entries present in `old` and absent from `new`, by path.
pub fn removed_between(old: &str, new: &str) -> impl Iterator<Item = &'static Entry> {
    let (a, b) = (revision_index(old), revision_index(new));
    ENTRIES.iter().filter(move |e| match (a, b) {
        // A member no longer named but still allowed (`Unnamed`) is not removed.
        (Some(a), Some(b)) => e.states[a].is_present() && matches!(e.states[b], State::Removed { .. }),
        _ => false,
    })
}

/// The revision a protocol version string from the wire (`initialize`'s
/// `protocolVersion`, the `MCP-Protocol-Version` header) belongs to.
pub fn revision_for_protocol_version(version: &str) -> Option<&'static str> {
    PROTOCOL_VERSIONS.binary_search_by(|(v, _)| (*v).cmp(version)).ok().map(|i| PROTOCOL_VERSIONS[i].1)
}
