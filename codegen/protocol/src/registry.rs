//! The lifecycle registry's shape and queries (SEP-2596): every schema item with
//! its state in each revision. The data is the generated crate's
//! (`mcp_spec_types::registry`, which documents it and wraps these queries over
//! its one table); the types and the lookups are written here once.

use std::sync::OnceLock;

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
///
/// The entries come as a table of text, a line each, read into [`Entry`]s on
/// the first lookup: some 700 entries written as a static of structs cost the
/// types crate's build about 2% (each a constant expression to check, evaluate
/// and emit, with its relocations); a line of text costs nothing to compile.
#[derive(Debug)]
pub struct Registry {
    pub revisions: &'static [&'static str],
    pub protocol_versions: &'static [(&'static str, &'static str)],
    table: Table,
    entries: OnceLock<Box<[Entry]>>,
}

/// A registry's entries in the generated crate's shorthand.
#[derive(Debug)]
struct Table {
    /// A line per entry, sorted by path: `KIND STATES SAME_AS PATH`, where `KIND`
    /// is `T`ype, `F`ield, `V`alue or `C`onst, `STATES` and `SAME_AS` index
    /// `state_lists` and `same_as_lists` (most items have one of a few dozen
    /// histories), and `PATH` is the rest of the line (its odd segments are
    /// JSON-quoted, so it has no line break).
    lines: &'static str,
    state_lists: &'static [&'static [State]],
    same_as_lists: &'static [&'static [Option<&'static str>]],
}

impl Table {
    /// The entry a line describes.
    fn entry(&self, line: &'static str, revisions: &'static [&'static str]) -> Option<Entry> {
        let mut fields = line.splitn(4, ' ');
        let kind = match fields.next()? {
            "T" => Kind::Type,
            "F" => Kind::Field,
            "V" => Kind::Value,
            "C" => Kind::Const,
            _ => return None,
        };
        let states = *self.state_lists.get(fields.next()?.parse::<usize>().ok()?)?;
        let same_as = *self.same_as_lists.get(fields.next()?.parse::<usize>().ok()?)?;
        let path = fields.next()?;
        (states.len() == revisions.len() && same_as.len() == revisions.len()).then_some(Entry {
            path,
            kind,
            states,
            same_as,
            revisions,
        })
    }
}

fn index_of(revisions: &[&str], revision: &str) -> Option<usize> {
    revisions.iter().position(|r| *r == revision)
}

impl Registry {
    /// A registry of `revisions`, with its entries as `lines` of text (see
    /// [`Registry`]) whose states and paths elsewhere are lists of
    /// `state_lists` and `same_as_lists`; what the generated crate's one static is.
    pub const fn new(
        revisions: &'static [&'static str],
        protocol_versions: &'static [(&'static str, &'static str)],
        lines: &'static str,
        state_lists: &'static [&'static [State]],
        same_as_lists: &'static [&'static [Option<&'static str>]],
    ) -> Registry {
        Registry {
            revisions,
            protocol_versions,
            table: Table { lines, state_lists, same_as_lists },
            entries: OnceLock::new(),
        }
    }

    /// Every entry, sorted by path.
    ///
    /// # Panics
    ///
    /// On a table line that is not an entry of this registry's revisions: only
    /// a hand-edited generated crate has one (the tests read every line).
    pub fn entries(&'static self) -> &'static [Entry] {
        self.entries.get_or_init(|| {
            let table = &self.table;
            let read = |(n, line)| match table.entry(line, self.revisions) {
                Some(entry) => entry,
                None => panic!("the registry's table, line {}: {line:?} is not `KIND STATES SAME_AS PATH`", n + 1),
            };
            table.lines.lines().enumerate().map(read).collect()
        })
    }

    /// The entry for a path.
    pub fn entry(&'static self, path: &str) -> Option<&'static Entry> {
        let entries = self.entries();
        entries.binary_search_by(|e| e.path.cmp(path)).ok().map(|i| &entries[i])
    }

    /// The state of `path` in `revision`; `None` when either is unknown.
    pub fn state(&'static self, revision: &str, path: &str) -> Option<&'static State> {
        self.entry(path)?.state(revision)
    }

    /// The entries Deprecated in `revision`, with their state, by path; each item
    /// once, under the path that revision declares it by.
    pub fn deprecated_in(
        &'static self,
        revision: &str,
    ) -> impl Iterator<Item = (&'static Entry, &'static State)> + use<> {
        let i = index_of(self.revisions, revision);
        self.entries().iter().filter_map(move |e| {
            let i = i?;
            let s = e.states.get(i)?;
            (matches!(s, State::Deprecated { .. }) && e.same_as[i].is_none()).then_some((e, s))
        })
    }

    /// The entries present in `old` and absent from `new`, by path.
    pub fn removed_between(&'static self, old: &str, new: &str) -> impl Iterator<Item = &'static Entry> + use<> {
        let (a, b) = (index_of(self.revisions, old), index_of(self.revisions, new));
        self.entries().iter().filter(move |e| match (a, b) {
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
    pub fn has_initialize(&'static self, version: &str) -> bool {
        self.revision_for_protocol_version(version)
            .and_then(|revision| self.state(revision, "InitializeRequest"))
            .is_some_and(State::is_present)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REVISIONS: &[&str] = &["2025-11-25", "2026-07-28"];
    const VERSIONS: &[(&str, &str)] = &[("2025-11-25", "2025-11-25"), ("2026-07-28", "2026-07-28")];
    const ACTIVE: &[State] = &[State::Active, State::Active];
    const GONE: &[State] = &[State::Active, State::Removed { last_seen: "2025-11-25" }];
    const HERE: &[Option<&str>] = &[None, None];
    const MOVED: &[Option<&str>] = &[Some("Old.params.name"), None];

    static REGISTRY: Registry = Registry::new(
        REVISIONS,
        VERSIONS,
        "T 0 0 InitializeRequest\nF 1 1 Old.params.\"a b\"\nV 0 0 Role.\"user\"",
        &[ACTIVE, GONE],
        &[HERE, MOVED],
    );

    #[test]
    fn each_line_is_read_into_its_entry() {
        let entries = REGISTRY.entries();
        assert_eq!(entries.len(), 3);
        let field = REGISTRY.entry("Old.params.\"a b\"").expect("the quoted path, spaces and all");
        assert_eq!((field.kind, field.states, field.same_as), (Kind::Field, GONE, MOVED));
        assert_eq!(field.same_as("2025-11-25"), Some("Old.params.name"));
        assert_eq!(REGISTRY.state("2026-07-28", "Role.\"user\""), Some(&State::Active));
        assert_eq!(REGISTRY.entry("Role").map(|e| e.path), None);
        assert_eq!(
            REGISTRY.removed_between("2025-11-25", "2026-07-28").map(|e| e.path).collect::<Vec<_>>(),
            ["Old.params.\"a b\""]
        );
        assert!(REGISTRY.has_initialize("2026-07-28"));
        // Read once: the same slice on every call.
        assert!(std::ptr::eq(entries, REGISTRY.entries()));
    }

    #[test]
    fn a_line_that_is_not_an_entry_is_none() {
        let table = Table { lines: "", state_lists: &[ACTIVE], same_as_lists: &[HERE] };
        let read = |line| table.entry(line, REVISIONS).map(|e| (e.kind, e.path));
        assert_eq!(read("T 0 0 A.b c"), Some((Kind::Type, "A.b c")));
        for near_miss in ["X 0 0 A", "T 1 0 A", "T 0 1 A", "T x 0 A", "T 0 0", "T 0", ""] {
            assert_eq!(read(near_miss), None, "{near_miss:?}");
        }
        // A list of another number of revisions is not this registry's.
        let three = Table { lines: "", state_lists: &[&[State::Active; 3]], same_as_lists: &[HERE] };
        assert!(three.entry("T 0 0 A", REVISIONS).is_none());
    }

    #[test]
    #[should_panic(expected = "the registry's table, line 2: \"Q 0 0 Broken\" is not `KIND STATES SAME_AS PATH`")]
    fn a_broken_table_names_its_line() {
        static BROKEN: Registry = Registry::new(REVISIONS, VERSIONS, "T 0 0 A\nQ 0 0 Broken", &[ACTIVE], &[HERE]);
        BROKEN.entries();
    }
}
