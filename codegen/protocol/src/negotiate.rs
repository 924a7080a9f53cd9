//! Which protocol version to speak with a peer, by the rule of the revision that
//! offers it, over a [`Registry`] (which versions have the `initialize`
//! handshake). The generated crate's `negotiate` module documents the rule and
//! calls this with its own registry.

use crate::registry::Registry;

/// What the peer said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer<'a> {
    /// A client's `initialize` offered this version (the server decides).
    Initialize(&'a str),
    /// A server answered `initialize` with this version (the client checks it).
    Answered(&'a str),
    /// A server's `server/discover` listed these versions (the client chooses;
    /// when the version chosen has the handshake, it goes on with `initialize`).
    Discovered(&'a [String]),
    /// A request's `_meta` names this version, from 2026-07-28 on (the server
    /// checks it; `None`, also for a version with the handshake, which no
    /// request names: answer with an `UnsupportedProtocolVersionError`).
    Requested(&'a str),
}

/// The version to speak, or `None` when there is none in common (a client then
/// disconnects; a server refuses the request; a server answering `initialize`
/// has one whenever it supports a version with the handshake: the offered one,
/// else its newest such). "Newest" is by date: versions are `YYYY-MM-DD`.
/// Only versions whose revision has `InitializeRequest` in `registry` take
/// part in the handshake.
pub fn negotiate<'a>(offer: Offer<'_>, ours: &[&'a str], registry: &'static Registry) -> Option<&'a str> {
    let handshake = || ours.iter().copied().filter(|o| registry.has_initialize(o));
    match offer {
        Offer::Initialize(v) => handshake().find(|o| *o == v).or_else(|| handshake().max()),
        Offer::Answered(v) => handshake().find(|o| *o == v),
        Offer::Requested(v) => ours.iter().copied().find(|o| *o == v && !registry.has_initialize(o)),
        Offer::Discovered(theirs) => ours.iter().copied().filter(|o| theirs.iter().any(|t| t == o)).max(),
    }
}
