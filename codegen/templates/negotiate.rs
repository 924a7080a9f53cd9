//! Which protocol version to speak with a peer, by the rule of the revision that
//! offers it. [`PROTOCOL_VERSIONS`](crate::PROTOCOL_VERSIONS) lists the versions
//! this crate has types for, oldest first; pass it, or the part of it you
//! support, as `ours`.
//!
//! - Up to 2025-11-25 the client offers one version in `initialize`
//!   (`params.protocolVersion`): a server that supports it answers with it, else
//!   with the newest version it supports that has the handshake; the client then
//!   speaks the answered version if it supports it, and disconnects otherwise.
//!   Only versions whose revision has `InitializeRequest` take part
//!   ([`has_initialize`]): a 2026-07-28 server cannot answer `initialize` with
//!   2026-07-28, nor can a client accept that answer.
//! - From 2026-07-28 there is no handshake: `server/discover` answers with the
//!   server's `supportedVersions`, and the client chooses one of them (the newest
//!   it supports too) and sends it in every request's `_meta`; the server checks
//!   it on each request, and answers one it does not support with an
//!   `UnsupportedProtocolVersionError` listing its own.
//!
//! ```
//! use mcp_spec_types::negotiate::{Offer, negotiate};
//! use mcp_spec_types::PROTOCOL_VERSIONS;
//!
//! // A client reading the server's `supportedVersions`:
//! let server = ["2025-11-25".to_string(), "2026-07-28".to_string()];
//! assert_eq!(negotiate(Offer::Discovered(&server), PROTOCOL_VERSIONS), Some("2026-07-28"));
//! // A server answering an older client's `initialize`:
//! assert_eq!(negotiate(Offer::Initialize("2025-06-18"), &["2025-11-25", "2025-06-18"]), Some("2025-06-18"));
//! assert_eq!(negotiate(Offer::Initialize("2024-01-01"), &["2025-06-18", "2025-11-25"]), Some("2025-11-25"));
//! assert_eq!(negotiate(Offer::Initialize("2099-01-01"), &["2025-11-25", "2026-07-28"]), Some("2025-11-25"));
//! // A server that speaks only 2026-07-28 has no version for `initialize`:
//! assert_eq!(negotiate(Offer::Initialize("2025-11-25"), &["2026-07-28"]), None);
//! // A client checking the server's answer to its `initialize`:
//! assert_eq!(negotiate(Offer::Answered("2023-01-01"), PROTOCOL_VERSIONS), None);
//! assert_eq!(negotiate(Offer::Answered("2026-07-28"), &["2025-11-25", "2026-07-28"]), None);
//! // A 2026-07-28 server checking the version a request's `_meta` names:
//! assert_eq!(negotiate(Offer::Requested("2026-07-28"), &["2026-07-28"]), Some("2026-07-28"));
//! assert_eq!(negotiate(Offer::Requested("2027-01-01"), &["2026-07-28"]), None);
//! assert_eq!(negotiate(Offer::Requested("2025-11-25"), &["2025-11-25", "2026-07-28"]), None);
//! ```

pub use crate::rt::negotiate::Offer;

/// The version to speak, or `None` when there is none in common (a client then
/// disconnects; a server refuses the request; a server answering `initialize`
/// has one whenever it supports a version with the handshake: the offered one,
/// else its newest such).
/// "Newest" is by date: versions are `YYYY-MM-DD`.
pub fn negotiate<'a>(offer: Offer<'_>, ours: &[&'a str]) -> Option<&'a str> {
    crate::rt::negotiate::negotiate(offer, ours, &crate::registry::REGISTRY)
}

/// Whether a protocol version opens with the `initialize` handshake: whether its
/// revision has `InitializeRequest` (every revision up to 2025-11-25), as the
/// [registry](crate::registry) says, so that a new revision needs no change here.
/// A version this crate has no revision for is taken as one without.
///
/// ```
/// use mcp_spec_types::negotiate::has_initialize;
///
/// assert!(has_initialize("2025-11-25"));
/// assert!(!has_initialize("2026-07-28"));
/// assert!(!has_initialize("2099-01-01"));
/// ```
pub fn has_initialize(version: &str) -> bool {
    crate::registry::REGISTRY.has_initialize(version)
}
