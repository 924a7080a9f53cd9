//! The deprecation registry: every type, field, const and enum value that any
//! revision declares, with its lifecycle state in each revision (SEP-2596):
//! Active, Deprecated (with the revision and SEP the `@deprecated` tag names) or
//! Removed (with the last revision that had it). Built from the model, never from
//! emitted code; `emit` turns it into the generated crate's `registry` module and
//! into look-ahead notes on older modules, and [`report`] prints it.
//!
//! Paths are those of [`Revision::path_of`]: `PingRequest`,
//! `ClientCapabilities.sampling`, `CreateMessageRequestParams.includeContext."thisServer"`.
//! A field is an entry of the type that declares (or redeclares) it; a type that
//! only inherits it still counts as having it, so moving a field into a base is not
//! a removal.
//!
//! Decisions worth knowing:
//! - A revision's states come from its own schema.ts only. A tag's date goes into
//!   `since` even when it is earlier than the revision that carries the tag
//!   (`includeContext: "thisServer"` is tagged in 2026-07-28 as deprecated as of
//!   2025-11-25; in 2025-11-25 itself, which has no tag, it is Active).
//! - A tag without a date is dated to the revision that carries it; its SEP is the
//!   first one the text names.
//! - Features of the spec without schema items (transports, authorization and
//!   client registration) are outside this registry.

pub mod html;
pub mod report;

use std::collections::BTreeMap;

use crate::model::{ItemKind, Origin, Revision, Spec, Target, member_segment, value_segment};

/// The name of the const that holds a revision's protocol version string.
pub const PROTOCOL_VERSION_CONST: &str = "LATEST_PROTOCOL_VERSION";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    Type,
    Field,
    Value,
    Const,
}

impl EntryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Type => "type",
            EntryKind::Field => "field",
            EntryKind::Value => "value",
            EntryKind::Const => "const",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum State {
    /// Not in this revision, nor in any earlier one.
    Absent,
    Active,
    Deprecated(DeprecatedState),
    /// Not in this revision, but in an earlier one: `last_seen` is the newest such.
    Removed {
        last_seen: String,
    },
    /// A member this revision no longer names but still admits: its parent's
    /// index signature (`[key: string]: unknown`) takes it. Not gone from the
    /// protocol; kept as an unknown member by the generated types.
    Unnamed {
        last_named: String,
    },
}

impl State {
    pub fn is_present(&self) -> bool {
        matches!(self, State::Active | State::Deprecated(_))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DeprecatedState {
    /// The revision the tag names, else the revision that carries the tag.
    pub since: String,
    /// The first SEP the tag names.
    pub sep: Option<String>,
    /// The tag's whole text.
    pub note: String,
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub path: String,
    pub kind: EntryKind,
    /// The entry this one belongs to: a field's type, a value's enum or field.
    pub parent: Option<String>,
    /// One state per revision, in the order of [`Registry::revisions`].
    pub states: Vec<State>,
    /// Per revision, the path under which that revision declares the item, when
    /// it is not this one (`CallToolRequest.params.name` is
    /// `CallToolRequestParams.name` from 2025-11-25 on). Such an entry is present
    /// but not counted or listed in that revision: its other path is.
    pub same_as: Vec<Option<String>>,
    /// Per revision, where the item's docs are emitted: `Type`, `Type.wire` or
    /// `Enum."value"` (the keys under which `emit` adds notes to the docs).
    rust_keys: Vec<Option<String>>,
}

#[derive(Clone, Debug)]
pub struct Registry {
    /// Revision names, oldest first (the spec's order).
    pub revisions: Vec<String>,
    /// Sorted by path.
    pub entries: Vec<Entry>,
    /// Protocol version strings as sent on the wire, each with its revision: every
    /// dated revision's name, and each revision's `LATEST_PROTOCOL_VERSION` (a
    /// dated revision wins when an undated one, such as `draft`, shares its string).
    pub protocol_versions: BTreeMap<String, String>,
}

/// Builds the registry of a spec.
///
/// The entries are the paths some revision declares; each revision's state of a
/// path comes from following it through that revision's types
/// ([`Revision::resolve_path`](crate::model::Revision::resolve_path)), so a member
/// that moved (an inline `params` that became `CallToolRequestParams`, a field
/// that moved into a base) is still present, under another name.
pub fn build(spec: &Spec) -> Registry {
    let revisions: Vec<String> = spec.revisions.iter().map(|r| r.name.clone()).collect();
    let mut paths: BTreeMap<String, (EntryKind, Option<String>)> = BTreeMap::new();
    for rev in &spec.revisions {
        for (path, kind, parent) in declared_paths(rev) {
            paths.insert(path, (kind, parent));
        }
    }
    let entries = paths
        .into_iter()
        .map(|(path, (kind, parent))| {
            let mut states = Vec::with_capacity(revisions.len());
            let mut same_as = Vec::with_capacity(revisions.len());
            let mut rust_keys = Vec::with_capacity(revisions.len());
            let mut last_seen: Option<&str> = None;
            for (i, rev) in spec.revisions.iter().enumerate() {
                match rev.resolve_path(&path) {
                    Some(found) => {
                        states.push(match found.target.deprecation() {
                            Some(d) => State::Deprecated(DeprecatedState {
                                since: d.since.clone().unwrap_or_else(|| revisions[i].clone()),
                                sep: d.sep.clone(),
                                note: d.note.clone(),
                            }),
                            None => State::Active,
                        });
                        let canonical = found.canonical == path;
                        rust_keys.push(canonical.then(|| rust_key(&found.target)).flatten());
                        same_as.push((!canonical).then_some(found.canonical));
                        last_seen = Some(&revisions[i]);
                    }
                    None => {
                        states.push(match last_seen {
                            Some(l) if kind == EntryKind::Field && admits(rev, parent.as_deref()) => {
                                State::Unnamed { last_named: l.to_string() }
                            }
                            Some(l) => State::Removed { last_seen: l.to_string() },
                            None => State::Absent,
                        });
                        same_as.push(None);
                        rust_keys.push(None);
                    }
                }
            }
            Entry { path, kind, parent, states, same_as, rust_keys }
        })
        .collect();

    let mut protocol_versions = BTreeMap::new();
    for rev in spec.revisions.iter().filter(|r| r.dated) {
        protocol_versions.insert(rev.name.clone(), rev.name.clone());
    }
    for rev in &spec.revisions {
        if let Some(ItemKind::Const(l)) = rev.item(PROTOCOL_VERSION_CONST).map(|i| &i.kind)
            && let crate::model::LiteralValue::Str(v) = &l.value
        {
            protocol_versions.entry(v.clone()).or_insert_with(|| rev.name.clone());
        }
    }
    Registry { revisions, entries, protocol_versions }
}

/// True when the type at `parent` in `rev` has an index signature, so it admits
/// members it does not name: a struct with one, or a type that became a map
/// (an interface left with only `[key: string]: T` is a map).
fn admits(rev: &Revision, parent: Option<&str>) -> bool {
    use crate::model::Type;
    let Some(found) = parent.and_then(|p| rev.resolve_path(p)) else { return false };
    let ty = match found.target {
        Target::Item(i) => Type::Named(i.name.clone()),
        Target::Field(_, f) => f.ty.clone(),
        _ => return false,
    };
    match rev.canonical(&ty) {
        Type::Map(_) => true,
        Type::Named(n) => rev.struct_of(n).is_some_and(|s| s.index.is_some()),
        _ => false,
    }
}

/// The paths a revision declares: declared types and consts, the fields each
/// object type declares itself (not those it inherits), and enum values.
fn declared_paths(rev: &Revision) -> Vec<(String, EntryKind, Option<String>)> {
    let mut out = Vec::new();
    for item in rev.items.values() {
        let path = rev.path_of(item);
        match &item.kind {
            ItemKind::Const(_) => out.push((path.clone(), EntryKind::Const, None)),
            _ if item.origin == Origin::Declared => out.push((path.clone(), EntryKind::Type, None)),
            _ => {}
        }
        match &item.kind {
            ItemKind::Struct(s) => {
                for f in s.fields.iter().filter(|f| f.declared_in == item.name) {
                    out.push((format!("{path}.{}", member_segment(&f.wire)), EntryKind::Field, Some(path.clone())));
                }
            }
            ItemKind::Enum(e) => {
                for v in &e.values {
                    out.push((format!("{path}.{}", value_segment(&v.value)), EntryKind::Value, Some(path.clone())));
                }
            }
            _ => {}
        }
    }
    out
}

/// Where a target's docs are emitted: `Type`, `Type.wire`, `Enum."value"`.
fn rust_key(target: &Target<'_>) -> Option<String> {
    match target {
        Target::Item(i) => Some(i.name.clone()),
        Target::Field(_, f) => Some(format!("{}.{}", f.declared_in, f.wire)),
        Target::Value(i, v) => Some(value_key(&i.name, &v.value)),
        Target::Type(_) => None,
    }
}

/// The notes key of an enum value: `Enum."value"`.
pub fn value_key(item: &str, value: &str) -> String {
    format!("{item}.{}", value_segment(value))
}

impl Registry {
    pub fn revision_index(&self, name: &str) -> Option<usize> {
        self.revisions.iter().position(|r| r == name)
    }

    pub fn entry(&self, path: &str) -> Option<&Entry> {
        self.entries.binary_search_by(|e| e.path.as_str().cmp(path)).ok().map(|i| &self.entries[i])
    }

    /// The state of `path` in `revision`; `None` for an unknown path or revision.
    pub fn state(&self, revision: &str, path: &str) -> Option<&State> {
        let i = self.revision_index(revision)?;
        self.entry(path).map(|e| &e.states[i])
    }

    /// The entries Deprecated in `revision`, by path (each item once, under the
    /// path that revision declares it by).
    pub fn deprecated_in(&self, revision: &str) -> Vec<(&Entry, &DeprecatedState)> {
        let Some(i) = self.revision_index(revision) else { return Vec::new() };
        self.entries
            .iter()
            .filter(|e| e.same_as[i].is_none())
            .filter_map(|e| match &e.states[i] {
                State::Deprecated(d) => Some((e, d)),
                _ => None,
            })
            .collect()
    }

    /// The entries present in `old` and Removed in `new` (not those it still
    /// admits without naming them: `Unnamed`).
    pub fn removed_between(&self, old: &str, new: &str) -> Vec<&Entry> {
        let (Some(a), Some(b)) = (self.revision_index(old), self.revision_index(new)) else { return Vec::new() };
        self.entries
            .iter()
            .filter(|e| e.states[a].is_present() && matches!(e.states[b], State::Removed { .. }))
            .collect()
    }

    /// True when `e` belongs to an entry that is itself not present in revision
    /// `i` (a field of a removed type): reports list the parent only.
    pub fn parent_also_gone(&self, e: &Entry, i: usize) -> bool {
        e.parent.as_deref().and_then(|p| self.entry(p)).is_some_and(|p| !p.states[i].is_present())
    }

    /// What later revisions do to each item, for the docs of earlier ones: per
    /// revision (in [`Registry::revisions`] order), the docs key of each item that
    /// revision has (`Type`, `Type.wire`, `Enum."value"`) with the later changes
    /// of state, oldest first: the first deprecation, and a removal (after which
    /// nothing more is said). A member of a removed type goes with it: only the
    /// type's removal is listed.
    pub fn look_ahead(&self) -> Vec<BTreeMap<String, Vec<Later>>> {
        let mut out: Vec<BTreeMap<String, Vec<Later>>> = vec![BTreeMap::new(); self.revisions.len()];
        for e in &self.entries {
            for (i, key) in e.rust_keys.iter().enumerate() {
                let Some(key) = key else { continue };
                let mut later = Vec::new();
                let mut deprecated = matches!(e.states[i], State::Deprecated(_));
                for (j, state) in e.states.iter().enumerate().skip(i + 1) {
                    match state {
                        State::Deprecated(d) if !deprecated => {
                            deprecated = true;
                            later.push(Later::Deprecated { revision: self.revisions[j].clone(), state: d.clone() });
                        }
                        State::Removed { .. } => {
                            if !self.parent_also_gone(e, j) {
                                later.push(Later::Removed { revision: self.revisions[j].clone() });
                            }
                            break;
                        }
                        State::Unnamed { .. } => {
                            later.push(Later::Unnamed { revision: self.revisions[j].clone() });
                            break;
                        }
                        _ => {}
                    }
                }
                if !later.is_empty() {
                    out[i].entry(key.clone()).or_default().extend(later);
                }
            }
        }
        out
    }
}

/// A change of an item's state in a later revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Later {
    Deprecated { revision: String, state: DeprecatedState },
    Removed { revision: String },
    Unnamed { revision: String },
}
