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

pub use crate::rt::registry::{Entry, Kind, Registry, State};

/// The registry of this crate's revisions: what the functions below look in.
pub static REGISTRY: Registry =
    Registry::new(crate::REVISIONS, PROTOCOL_VERSIONS, ENTRIES, STATE_LISTS, SAME_AS_LISTS);

/// Every entry, sorted by path.
pub fn entries() -> &'static [Entry] {
    REGISTRY.entries()
}

/// The entry for a path.
pub fn entry(path: &str) -> Option<&'static Entry> {
    REGISTRY.entry(path)
}

/// The state of `path` in `revision`; `None` when either is unknown.
pub fn state(revision: &str, path: &str) -> Option<&'static State> {
    REGISTRY.state(revision, path)
}

/// The entries Deprecated in `revision`, with their state, by path; each item
/// once, under the path that revision declares it by.
pub fn deprecated_in(revision: &str) -> impl Iterator<Item = (&'static Entry, &'static State)> {
    REGISTRY.deprecated_in(revision)
}

/// The entries present in `old` and absent from `new`, by path.
pub fn removed_between(old: &str, new: &str) -> impl Iterator<Item = &'static Entry> {
    REGISTRY.removed_between(old, new)
}

/// The revision a protocol version string from the wire (`initialize`'s
/// `protocolVersion`, the `MCP-Protocol-Version` header) belongs to.
pub fn revision_for_protocol_version(version: &str) -> Option<&'static str> {
    REGISTRY.revision_for_protocol_version(version)
}
