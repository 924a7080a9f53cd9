//! The lifecycle registry's shape and queries (SEP-2596): every schema item with
//! its state in each revision. The data is the generated crate's
//! (`mcp_spec_types::registry`, which documents it and wraps these queries over
//! its one table); the types and the lookups are written here once.

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
    /// One state per revision, in the order of `revisions`.
    pub states: &'static [State],
    /// Per revision, the path under which that revision declares the item when it
    /// is not this one: `CallToolRequest.params.name` is `CallToolRequestParams.name`
    /// from 2025-11-25 on. The item is present there, and listed under that path.
    pub same_as: &'static [Option<&'static str>],
    /// The revisions the states are of, oldest first (the generated crate's `REVISIONS`).
    pub revisions: &'static [&'static str],
}

impl Entry {
    /// The state in `revision` (a name from `revisions`).
    pub fn state(&self, revision: &str) -> Option<&'static State> {
        self.states.get(index_of(self.revisions, revision)?)
    }

    /// The path under which `revision` declares this item, when it is another one.
    pub fn same_as(&self, revision: &str) -> Option<&'static str> {
        *self.same_as.get(index_of(self.revisions, revision)?)?
    }

    /// Every revision with the entry's state in it, oldest first.
    pub fn states(&self) -> impl Iterator<Item = (&'static str, &'static State)> {
        self.revisions.iter().copied().zip(self.states.iter())
    }
}

/// A registry: its revisions, its entries sorted by path, and the protocol
/// version strings (sorted) with the revision each belongs to.
#[derive(Debug)]
pub struct Registry {
    pub revisions: &'static [&'static str],
    pub entries: &'static [Entry],
    pub protocol_versions: &'static [(&'static str, &'static str)],
}

fn index_of(revisions: &[&str], revision: &str) -> Option<usize> {
    revisions.iter().position(|r| *r == revision)
}

impl Registry {
    /// The entry for a path.
    pub fn entry(&self, path: &str) -> Option<&'static Entry> {
        let entries = self.entries;
        entries.binary_search_by(|e| e.path.cmp(path)).ok().map(|i| &entries[i])
    }

    /// The state of `path` in `revision`; `None` when either is unknown.
    pub fn state(&self, revision: &str, path: &str) -> Option<&'static State> {
        self.entry(path)?.state(revision)
    }

    /// The entries Deprecated in `revision`, with their state, by path; each item
    /// once, under the path that revision declares it by.
    pub fn deprecated_in(&self, revision: &str) -> impl Iterator<Item = (&'static Entry, &'static State)> + use<> {
        let i = index_of(self.revisions, revision);
        self.entries.iter().filter_map(move |e| {
            let i = i?;
            let s = e.states.get(i)?;
            (matches!(s, State::Deprecated { .. }) && e.same_as[i].is_none()).then_some((e, s))
        })
    }

    /// The entries present in `old` and absent from `new`, by path.
    pub fn removed_between(&self, old: &str, new: &str) -> impl Iterator<Item = &'static Entry> + use<> {
        let (a, b) = (index_of(self.revisions, old), index_of(self.revisions, new));
        self.entries.iter().filter(move |e| match (a, b) {
            // A member no longer named but still allowed (`Unnamed`) is not removed.
            (Some(a), Some(b)) => e.states[a].is_present() && matches!(e.states[b], State::Removed { .. }),
            _ => false,
        })
    }

    /// The revision a protocol version string from the wire (`initialize`'s
    /// `protocolVersion`, the `MCP-Protocol-Version` header) belongs to.
    pub fn revision_for_protocol_version(&self, version: &str) -> Option<&'static str> {
        let versions = self.protocol_versions;
        versions.binary_search_by(|(v, _)| (*v).cmp(version)).ok().map(|i| versions[i].1)
    }

    /// Whether a protocol version opens with the `initialize` handshake: whether
    /// its revision has `InitializeRequest`. A version with no revision here is
    /// taken as one without.
    pub fn has_initialize(&self, version: &str) -> bool {
        self.revision_for_protocol_version(version)
            .and_then(|revision| self.state(revision, "InitializeRequest"))
            .is_some_and(State::is_present)
    }
}

/// A registry's entries, in the data's own shorthand:
/// `registry_entries![REVISIONS; "path" Kind STATES SAME_AS, ...]`.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_registry_entries {
    ( $revisions:expr; $( $path:literal $kind:ident $states:ident $same_as:ident ),* $(,)? ) => {
        &[ $( $crate::__private::registry::Entry {
            path: $path,
            kind: $crate::__private::registry::Kind::$kind,
            states: $states,
            same_as: $same_as,
            revisions: $revisions,
        } ),* ]
    };
}
