//! Translation between the two eras of MCP, both ways, as a library with no I/O
//! and no async runtime. A [`Session`] is one bridged session from start to end
//! (the client's first line, a legacy client's `initialize` offered to the
//! server first, the `server/discover` probe where that cannot decide, the
//! pass-through when the eras meet, the end): a front feeds it what happens
//! ([`Input`]) and does what it says ([`Action`]). Within it a [`Bridge`] takes
//! each message from one side and returns the messages to send, to either side.
//! `mcp-era-bridge` (`src/main.rs`) is a proxy that drives a [`Session`] per client: on stdio,
//! or over Streamable HTTP on either side (`src/connect.rs`, `src/listen.rs`: tokio, reqwest and
//! axum, in the binary only).
//!
//! - The **modern** era (2026-07-28): `server/discover`, the protocol version,
//!   client capabilities and client info in every request's `_meta`, and a
//!   server's questions to the user as `input_required` results that the client
//!   answers by retrying with `inputResponses` and the `requestState`.
//! - The **legacy** era (the `initialize` handshake, 2024-11-05 to 2025-11-25):
//!   capabilities declared once, and a server's questions as requests to the
//!   client. The bridge translates at 2025-11-25, and speaks to a legacy peer
//!   in the older version it offers or answers, sending it only what that
//!   version reads ([`LEGACY_VERSIONS`]).
//!
//! Every message is read with the generated types of its side's revision and
//! crosses through the generated conversions (`mcp_spec_types::convert`); what
//! does not fit is a JSON-RPC error to the side that sent it, never a hang and
//! never a message dropped unanswered. A message is read from its line once, as
//! its type, and written once, as the other side's: around that read, the
//! JSON-RPC envelope, a `_meta` and the members the eras differ in are handled
//! as their members' text (no `serde_json::Value` between). What the bridge
//! does rarely (a cancel, a message that does not read, to find out why) goes
//! through a `Value`; a test holds the two to the same messages.
//!
//! # The mapping
//!
//! A legacy client and a modern server ([`ToModern`]):
//!
//! | the legacy client sends | the bridge |
//! |---|---|
//! | `initialize` | answers it from the server's `DiscoverResult` (capabilities, `serverInfo`, instructions), at the version the client offered when it is one of [`LEGACY_VERSIONS`] (2024-11-05 to 2025-11-25), else at 2025-11-25; keeps the client's capabilities and info. With a client of an older version every message to it must read as that version's type: a result that does not is an error (`-32603`, naming where), a question it has no request for fails the call, a notification it does not know is not sent |
//! | `notifications/initialized` | keeps it (the modern server has no handshake) |
//! | `ping` | answers it (2026-07-28 has no `ping`) |
//! | `logging/setLevel` | answers it, and sends the level as `io.modelcontextprotocol/logLevel` in every later request's `_meta` |
//! | `resources/subscribe`, `resources/unsubscribe` | opens a `subscriptions/listen` stream with the client's new set of resources and answers once the server acknowledges it, so the subscription is in effect when the client hears back; only then is the old stream cancelled (a change during the switch may arrive twice, never not at all); with nothing left to listen for, the stream is cancelled and the client answered at once; refused (`-32601`) when the server offers no subscriptions, `-32603` with why when the server ends the stream before acknowledging it |
//! | any other request | adds `_meta` (protocol version, the client's capabilities and info) and converts it to 2026-07-28 |
//! | notifications | `notifications/roots/list_changed` kept (roots are asked per request now); the rest converted and sent on |
//!
//! | the modern server sends | the bridge |
//! |---|---|
//! | its `DiscoverResult` (to the probe) | the `InitializeResult`'s source; and when it announces list changes, a `subscriptions/listen` stream opened for the client after `initialize`, whose notifications reach the client as 2025-11-25 ones |
//! | a result | converted to 2025-11-25: `resultType`, `ttlMs`, `cacheScope` and the reserved `io.modelcontextprotocol/` keys of `_meta` dropped (2025-11-25 names none of them) |
//! | an `input_required` result | each `inputRequests` entry sent to the client as the request it is (elicitation, sampling, roots); when all are answered, the original request sent again, as a new request (an id of the bridge's: MRTR), with `inputResponses` and the `requestState` as it came (at once when it asks nothing); the client's answer is the final result; after [`MAX_ROUNDS`] rounds the call fails (`-32603`) rather than loop |
//! | an error | sent on as it is |
//! | `notifications/cancelled` for a listen stream, or its response | the stream's end: an (un)subscribe waiting on it refused with why; the stream in effect opened again (three times at most); any other cancel kept |
//! | notifications | `notifications/subscriptions/acknowledged` kept; the rest sent on, the subscription id dropped from `_meta` |
//!
//! A modern client and a legacy server ([`ToLegacy`]):
//!
//! | the modern client sends | the bridge |
//! |---|---|
//! | its first request | does the `initialize` handshake on the client's behalf first, with that request's capabilities and client info, then handles the request |
//! | `server/discover` | answers it from the `InitializeResult`: `supportedVersions` `["2026-07-28"]`, capabilities, `serverInfo` in `_meta`, `ttlMs` 0 and `cacheScope` `"private"` (nothing says a legacy answer may be cached) |
//! | `subscriptions/listen` | acknowledges it with what it will honor (list changes, and resource updates through `resources/subscribe`) and sends the server's change notifications on the stream, with its subscription id |
//! | a retry with `inputResponses` and a `requestState` the bridge issued | answers the server's held requests with them; the held call's result answers the retry (kept for it when the call ended before the client had answered) |
//! | a request with any other `requestState` | refused (`-32602`): a legacy server knows none, and running the call again is not what the client asked |
//! | a request whose `_meta` names a protocol version other than 2026-07-28 | refused as a 2026-07-28 server refuses it (`-32022`, `UnsupportedProtocolVersionError` with `supported` and `requested`), `server/discover`'s too |
//! | any other request | converts it to 2025-11-25 and drops the reserved `_meta` keys; a new `io.modelcontextprotocol/logLevel` becomes a `logging/setLevel` first |
//! | `notifications/cancelled` | ends a listen stream; for a call (by its first id or a retry's, or one that ended while its client answered a round) sent on with the id the server knows, the questions asked through it answered with an error; else sent on |
//!
//! | the legacy server sends | the bridge |
//! |---|---|
//! | its `InitializeResult` | the handshake done at the version it answered, one of [`LEGACY_VERSIONS`] (each request to a server of an older version than 2025-11-25, and each answer to its questions, must read as that version's type, else the client is answered `-32602`/the server `-32603` with why); any other version fails the handshake, every request answered with why |
//! | a result | converted to 2026-07-28: `resultType` `"complete"`; a list result gets `ttlMs` 0 and `cacheScope` `"private"` |
//! | a request to the client (elicitation, sampling, roots) during a call | holds it, and answers the client's call (the newest still open whose `_meta` declared the capability the question needs: the question names no call) with an `input_required` result asking the same, with a `requestState` of its own |
//! | such a request when no open call declared the capability it needs (URL-mode elicitation needs `elicitation.url`) | the newest call fails as a 2026-07-28 server fails it (`-32021`, `MissingRequiredClientCapabilityError` naming the capability); the server's question refused as a client without it refuses it (`-32601`), and the server told the call is over (`notifications/cancelled`) |
//! | a request to the client with no call open | an error to the server (`-32603`): a modern client takes no requests |
//! | `ping` | answers it |
//! | `notifications/progress` for a call the client has retried | sent with the retry's progress token (dropped if the retry has none): the client's first request is over for it |
//! | `notifications/cancelled` for a question it asked | keeps it (on stdio a cancel from the server ends a listen stream), and drops the question if it still waits to be asked |
//! | list-changed and resource-updated notifications | sent on the listen streams that asked for them; none when no stream is open |
//!
//! Refused, each a JSON-RPC error to the side that asked: a message that does
//! not read as its revision's type (`-32600`/`-32602`, naming where); a value a
//! conversion does not take (`-32602` to a request's sender, `-32603` for a
//! result, naming the type and the member); `resources/subscribe` to a server
//! that offers no subscriptions (`-32601`); an input request the client refused
//! (`-32603` to the held call); every request after a failed handshake with a
//! legacy server (`-32603`, with the server's refusal or the version it named).
//! The tables above give the rest: `-32022` and `-32021` as a 2026-07-28 server
//! gives them, an unknown `requestState`, a message an older peer's version
//! does not read, a server that asks for input without end.
//!
//! Ids: requests the bridge makes of its own have string ids starting
//! `mcp-era-bridge-` ([`OWN_ID_PREFIX`]); a client's request with such an id is
//! refused (`-32600`), as the server could not tell the two apart; a peer's
//! other ids pass through unchanged.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

pub use mcp_spec_types::{v2025_11_25 as legacy, v2026_07_28 as modern};

// Sampling, roots and logging levels are deprecated in 2026-07-28 (SEP-2577), and still what
// legacy peers use: translating them is not using them.
mod ignore;
mod members;
mod older;
#[allow(deprecated)]
mod to_legacy;
#[allow(deprecated)]
mod to_modern;

pub mod http;
pub mod session;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}

pub use older::LEGACY_VERSIONS;
pub use session::{Action, Input, PROBE_WAIT, ServerEraChoice, Session};
pub use to_legacy::ToLegacy;
pub use to_modern::{MAX_ROUNDS, ToModern};

/// The wire names of the methods the bridge handles itself, from the generated
/// types' `Request::METHOD` and `Notification::METHOD`: no method name is
/// typed in the bridge. (Sampling, roots and logging levels are deprecated in
/// 2026-07-28, and still what legacy peers use.)
#[allow(deprecated)]
pub mod method {
    use mcp_spec_types::{Notification, Request};

    use super::{legacy, modern};

    pub const INITIALIZE: &str = <legacy::InitializeRequest as Request>::METHOD;
    pub const PING: &str = <legacy::PingRequest as Request>::METHOD;
    pub const SET_LEVEL: &str = <legacy::SetLevelRequest as Request>::METHOD;
    pub const SUBSCRIBE: &str = <legacy::SubscribeRequest as Request>::METHOD;
    pub const UNSUBSCRIBE: &str = <legacy::UnsubscribeRequest as Request>::METHOD;
    pub const DISCOVER: &str = <modern::DiscoverRequest as Request>::METHOD;
    pub const LISTEN: &str = <modern::SubscriptionsListenRequest as Request>::METHOD;
    pub const TOOLS_LIST: &str = <modern::ListToolsRequest as Request>::METHOD;
    pub const TOOLS_CALL: &str = <modern::CallToolRequest as Request>::METHOD;
    pub const ELICIT: &str = <legacy::ElicitRequest as Request>::METHOD;
    pub const SAMPLE: &str = <legacy::CreateMessageRequest as Request>::METHOD;
    pub const ROOTS: &str = <legacy::ListRootsRequest as Request>::METHOD;
    pub const INITIALIZED: &str = <legacy::InitializedNotification as Notification>::METHOD;
    pub const ROOTS_CHANGED: &str = <legacy::RootsListChangedNotification as Notification>::METHOD;
    pub const CANCELLED: &str = <modern::CancelledNotification as Notification>::METHOD;
    pub const PROGRESS: &str = <modern::ProgressNotification as Notification>::METHOD;
    pub const TOOLS_CHANGED: &str = <modern::ToolListChangedNotification as Notification>::METHOD;
    pub const PROMPTS_CHANGED: &str = <modern::PromptListChangedNotification as Notification>::METHOD;
    pub const RESOURCES_CHANGED: &str = <modern::ResourceListChangedNotification as Notification>::METHOD;
    pub const RESOURCE_UPDATED: &str = <modern::ResourceUpdatedNotification as Notification>::METHOD;
}

/// The protocol version of each era's side.
pub const MODERN_VERSION: &str = "2026-07-28";
pub const LEGACY_VERSION: &str = "2025-11-25";

/// Where a message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    Client,
    Server,
}

/// A message to send, and to whom: its line, as written (no newline).
#[derive(Clone, Debug, PartialEq)]
pub struct Out {
    pub to: To,
    pub line: String,
}

impl Out {
    pub fn client(message: Value) -> Out {
        Out { to: To::Client, line: message.to_string() }
    }
    pub fn server(message: Value) -> Out {
        Out { to: To::Server, line: message.to_string() }
    }
    /// A message already written (its generated type's text, or the members it came with).
    pub(crate) fn written(to: To, line: String) -> Out {
        Out { to, line }
    }
    /// The message, read back as a `Value` (`Null` if it were not JSON), to look at.
    pub fn message(&self) -> Value {
        serde_json::from_str(&self.line).unwrap_or(Value::Null)
    }
}

/// An era.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    Modern,
    Legacy,
}

impl std::fmt::Display for Era {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Era::Modern => "modern (2026-07-28)",
            Era::Legacy => "legacy (initialize, 2024-11-05 to 2025-11-25)",
        })
    }
}

/// Who the bridge says it is, to each side.
pub fn bridge_info() -> modern::Implementation {
    modern::Implementation::new("mcp-era-bridge", env!("CARGO_PKG_VERSION"))
}

/// An id of the bridge's own requests: [`OWN_ID_PREFIX`] and what it is for.
macro_rules! own_id {
    ($what:literal) => {
        concat!("mcp-era-bridge-", $what)
    };
}
pub(crate) use own_id;

/// What the ids of the bridge's own requests start with.
pub const OWN_ID_PREFIX: &str = own_id!("");

/// The id of the probe [`discover_probe`] sends.
pub const PROBE_ID: &str = own_id!("discover");

/// The `server/discover` request that tells a server's era (the spec's stdio
/// rule): a `DiscoverResult` means modern.
pub fn discover_probe() -> Value {
    let meta = modern::RequestMetaObject::new(MODERN_VERSION, modern::ClientCapabilities::new())
        .with_io_modelcontextprotocol_client_info(bridge_info());
    to_value(&modern::DiscoverRequest::new(PROBE_ID, modern::RequestParams::new(meta)))
}

/// A server's era, as the probe found it: a modern server with what it
/// answered (the legacy client's `InitializeResult` is made from it).
#[derive(Clone, Debug, PartialEq)]
pub enum ServerEra {
    Modern(Box<modern::DiscoverResult>),
    Legacy,
}

impl ServerEra {
    pub fn era(&self) -> Era {
        match self {
            ServerEra::Modern(_) => Era::Modern,
            ServerEra::Legacy => Era::Legacy,
        }
    }
}

/// The server's era from its answer to [`discover_probe`]: modern for a
/// `DiscoverResult` that lists 2026-07-28, or for an error only a modern server
/// gives (`-32022` unsupported version, `-32021` missing capability, `-32020`
/// header mismatch); legacy for any other error (method not found, invalid
/// request before `initialize`). [`ProbeFault`] for an answer that is neither.
pub fn server_era(answer: &Value) -> Result<ServerEra, ProbeFault> {
    if let Some(result) = answer.get("result") {
        let found: modern::DiscoverResult = read_as(result).map_err(ProbeFault::NotADiscoverResult)?;
        if !found.supported_versions.iter().any(|v| v == MODERN_VERSION) {
            return Err(ProbeFault::OtherVersions(found.supported_versions));
        }
        return Ok(ServerEra::Modern(Box::new(found)));
    }
    let error: modern::JSONRPCErrorResponse =
        read(answer, "the answer to server/discover").map_err(ProbeFault::NotAnAnswer)?;
    let modern_codes =
        [modern::UNSUPPORTED_PROTOCOL_VERSION, modern::MISSING_REQUIRED_CLIENT_CAPABILITY, modern::HEADER_MISMATCH];
    if modern_codes.contains(&error.error.code) {
        return Err(ProbeFault::ModernRefusal(error.error.to_string()));
    }
    Ok(ServerEra::Legacy)
}

/// An answer to [`discover_probe`] that tells no era.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeFault {
    /// A result that does not read as a `DiscoverResult`: why. Servers that
    /// answer any method with something (`{}`) are legacy ones, in the field.
    NotADiscoverResult(String),
    /// A `DiscoverResult` without 2026-07-28 among its versions.
    OtherVersions(Vec<String>),
    /// An error only a modern server gives.
    ModernRefusal(String),
    /// Neither a result nor an error.
    NotAnAnswer(String),
}

impl std::fmt::Display for ProbeFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeFault::NotADiscoverResult(why) => write!(f, "the server's {why}"),
            ProbeFault::OtherVersions(v) => write!(f, "the server speaks {v:?}, not {MODERN_VERSION}"),
            ProbeFault::ModernRefusal(e) => write!(f, "the server is modern but refused server/discover: {e}"),
            ProbeFault::NotAnAnswer(why) => f.write_str(why),
        }
    }
}

/// Over Streamable HTTP, the modern JSON-RPC error in a failed answer to a
/// modern request, if its body is one: unsupported version (`-32022`), missing
/// capability (`-32021`), header mismatch (`-32020`), or method not found
/// (`-32601`) with `404`. None means the server is legacy: the transport's
/// "Backward Compatibility" says to fall back to `initialize` on a `400`,
/// `404` or `405` whose body is empty or no such error.
pub fn modern_refusal(status: u16, body: &[u8]) -> Option<modern::JSONRPCErrorResponse> {
    let error: modern::JSONRPCErrorResponse = serde_json::from_slice(body).ok()?;
    let code = error.error.code;
    let modern_codes =
        [modern::UNSUPPORTED_PROTOCOL_VERSION, modern::MISSING_REQUIRED_CLIENT_CAPABILITY, modern::HEADER_MISMATCH];
    (modern_codes.contains(&code) || (status == 404 && code == modern::METHOD_NOT_FOUND)).then_some(error)
}

/// A client's era from its first message: `initialize` is legacy; a request
/// whose `_meta` names a protocol version of 2026-07-28 or later, or
/// `server/discover`, is modern; anything else legacy.
pub fn client_era(first: &Value) -> Era {
    let method = first.get("method").and_then(Value::as_str).unwrap_or_default();
    let version = meta_member(first, meta_key::PROTOCOL_VERSION).and_then(Value::as_str);
    match (method, version) {
        (method::INITIALIZE, _) => Era::Legacy,
        (method::DISCOVER, _) => Era::Modern,
        (_, Some(v)) if v >= MODERN_VERSION => Era::Modern,
        _ => Era::Legacy,
    }
}

/// The translation between a client and a server of different eras. (When
/// both speak the same era there is nothing to translate: [`Session`] passes
/// every line as it came.)
pub enum Bridge {
    ToModern(Box<ToModern>),
    ToLegacy(Box<ToLegacy>),
}

impl Bridge {
    /// The bridge between a client of `client` era and a server of `server`
    /// era; `None` when their eras match.
    pub fn between(client: Era, server: ServerEra) -> Option<Bridge> {
        match (client, server) {
            (Era::Legacy, ServerEra::Modern(found)) => Some(Bridge::ToModern(Box::new(ToModern::new(*found)))),
            (Era::Modern, ServerEra::Legacy) => Some(Bridge::ToLegacy(Box::default())),
            _ => None,
        }
    }

    /// What to send for a line from the client.
    ///
    /// The messages that make most of a session (a request sent on, a call's
    /// result) are read as their types straight from the line; the rest, and
    /// any of those that does not read, go through a `serde_json::Value`.
    pub fn from_client(&mut self, line: &str) -> Vec<Out> {
        match self.by_line(To::Client, line) {
            Some(out) => out,
            None => self.by_value(To::Client, line),
        }
    }

    /// What to send for a line from `from`, read as its type straight from
    /// the line: `None`, and nothing changed, for a message the line readers
    /// do not take.
    fn by_line(&mut self, from: To, line: &str) -> Option<Vec<Out>> {
        match (self, from) {
            (Bridge::ToModern(b), To::Client) => b.client_line(line),
            (Bridge::ToModern(b), To::Server) => b.server_line(line),
            (Bridge::ToLegacy(b), To::Client) => b.client_line(line),
            (Bridge::ToLegacy(b), To::Server) => b.server_line(line),
        }
    }

    /// What to send for a line from `from`, read as a `serde_json::Value`.
    fn by_value(&mut self, from: To, line: &str) -> Vec<Out> {
        with_json(line, from, |v| match (self, from) {
            (Bridge::ToModern(b), To::Client) => refuse_own_id(&v).unwrap_or_else(|| b.from_client(v)),
            (Bridge::ToLegacy(b), To::Client) => refuse_own_id(&v).unwrap_or_else(|| b.from_client(v)),
            (Bridge::ToModern(b), To::Server) => b.from_server(v),
            (Bridge::ToLegacy(b), To::Server) => b.from_server(v),
        })
    }

    /// The ids of the client's requests that wait for an answer (answered
    /// with an error when the session cannot go on).
    pub fn unanswered(&self) -> Vec<Value> {
        match self {
            Bridge::ToModern(b) => b.unanswered(),
            Bridge::ToLegacy(b) => b.unanswered(),
        }
    }

    /// What happened that no message says, for the log.
    pub fn take_notes(&mut self) -> Vec<String> {
        match self {
            Bridge::ToModern(b) => b.take_notes(),
            Bridge::ToLegacy(b) => b.take_notes(),
        }
    }

    /// What to send for a line from the server. (As [`Bridge::from_client`],
    /// what makes most of a session read straight from the line: a call's
    /// result, a question or round it asks, a notification.)
    pub fn from_server(&mut self, line: &str) -> Vec<Out> {
        match self.by_line(To::Server, line) {
            Some(out) => out,
            None => self.by_value(To::Server, line),
        }
    }
}

/// A client's request with an id of the kind the bridge gives its own requests
/// to the server: refused, as the server could not tell the two apart.
fn refuse_own_id(msg: &Value) -> Option<Vec<Out>> {
    let id = msg.get("id").filter(|_| msg.get("method").is_some())?;
    if !is_own_id(id) {
        return None;
    }
    let why = format!("request ids starting {OWN_ID_PREFIX:?} are the bridge's own");
    Some(vec![Out::client(error_response(id.clone(), modern::INVALID_REQUEST, why))])
}

/// Parses a line, or answers its sender with a parse error.
fn with_json(line: &str, from: To, f: impl FnOnce(Value) -> Vec<Out>) -> Vec<Out> {
    match serde_json::from_str::<Value>(line) {
        Ok(v) => f(v),
        Err(e) => {
            let error = error_response(Value::Null, modern::PARSE_ERROR, format!("Parse error: {e}"));
            vec![Out { to: from, line: error.to_string() }]
        }
    }
}

/// A JSON-RPC 2.0 error response to `id` (the bridge's own errors, and the
/// fronts' answers for what never reached a session).
pub fn error_response(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// A peer's error response sent on to the other side, as a JSON-RPC 2.0 error
/// response to `id`: its `error` as it came when it is one (a code and a
/// message; `data` kept), else an internal error saying what came.
pub(crate) fn error_passed_on(id: Value, msg: &Value) -> Value {
    let error = msg
        .get("error")
        .filter(|e| e.get("code").is_some_and(Value::is_i64) && e.get("message").is_some_and(Value::is_string));
    match error {
        Some(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
        None => error_response(id, modern::INTERNAL_ERROR, format!("the peer answered with no result or error: {msg}")),
    }
}

/// A JSON-RPC result response.
pub(crate) fn result_response(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// Reads a value as a generated type; an error names the type (its Rust name
/// is its schema name) and the path of what did not read.
pub(crate) fn read_as<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    read(value, type_label::<T>())
}

/// Reads a message's text as a generated type; an error names the type and
/// the path of what did not read.
pub(crate) fn read_text_as<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    mcp_spec_types::from_str(text).map_err(|e| format!("{}: {e}", type_label::<T>()))
}

/// A generated type's name, for messages.
pub(crate) fn type_label<T>() -> &'static str {
    std::any::type_name::<T>().rsplit("::").next().unwrap_or("value")
}

/// Reads a value as a generated type, with the path of what did not read.
pub(crate) fn read<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, String> {
    mcp_spec_types::from_str(&value.to_string()).map_err(|e| format!("{what}: {e}"))
}

/// Which way a value crosses between the eras.
#[derive(Clone, Copy)]
pub(crate) enum Way {
    /// 2025-11-25 to 2026-07-28.
    Up,
    /// 2026-07-28 to 2025-11-25.
    Down,
}

/// The result of `method` (a server's to a request, or a client's to a
/// server's question) carried across, from its text as it came: read once as
/// its method's complete result in the one era (the generated `AnyResult`'s
/// dispatch by method), through the generated conversion to the other's,
/// written once. A method that one of the two revisions has no request for
/// (an extension's) goes as it came.
pub(crate) fn cross_result_text(method: &str, way: Way, text: &RawValue) -> Result<Box<RawValue>, String> {
    if !crosses(method) {
        return Ok(text.to_owned());
    }
    let unread = |e: mcp_spec_types::ReadError| format!("the {method} result: {e}");
    match way {
        Way::Up => match legacy::AnyResult::read(method, text.get()) {
            Some(read) => modern::AnyResult::try_from(read.map_err(unread)?).map(|r| members::written(&r)),
            None => return Ok(text.to_owned()),
        },
        Way::Down => match modern::AnyResult::read(method, text.get()) {
            Some(read) => legacy::AnyResult::try_from(read.map_err(unread)?).map(|r| members::written(&r)),
            None => return Ok(text.to_owned()),
        },
    }
    .map_err(|e| e.to_string())
}

/// Whether both eras have a request `method` with a complete result (whose
/// result the generated conversions carry across).
pub(crate) fn crosses(method: &str) -> bool {
    let known =
        |methods: &[mcp_spec_types::MethodInfo]| find_method(methods, method).is_some_and(|m| m.complete.is_some());
    known(legacy::METHODS) && known(modern::METHODS)
}

/// A 2025-11-25 result's `_meta` and the members its type does not name.
pub(crate) fn result_members(
    result: &mut legacy::AnyResult,
) -> (&mut Option<mcp_spec_types::Extra>, &mut mcp_spec_types::Extra) {
    macro_rules! each {
        ($($member:ident),* $(,)?) => {
            match result {
                $(legacy::AnyResult::$member(r) => (&mut r.meta, &mut r.extra),)*
            }
        };
    }
    each!(
        CallToolResult,
        CancelTaskResult,
        CompleteResult,
        CreateMessageResult,
        ElicitResult,
        EmptyResult,
        GetPromptResult,
        GetTaskPayloadResult,
        GetTaskResult,
        InitializeResult,
        ListPromptsResult,
        ListResourceTemplatesResult,
        ListResourcesResult,
        ListRootsResult,
        ListTasksResult,
        ListToolsResult,
        ReadResourceResult,
    )
}

/// A JSON-RPC result response, written in one pass: `result` a result's text
/// as it is, or a generated result type.
pub(crate) fn result_response_line<R: Serialize + ?Sized>(id: &Value, result: &R) -> String {
    struct Response<'a, R: ?Sized> {
        id: &'a Value,
        result: &'a R,
    }
    // Written here: the library builds without serde's derive.
    impl<R: Serialize + ?Sized> Serialize for Response<'_, R> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = serializer.serialize_map(Some(3))?;
            map.serialize_entry("jsonrpc", "2.0")?;
            map.serialize_entry("id", self.id)?;
            map.serialize_entry("result", self.result)?;
            map.end()
        }
    }
    members::to_line(&Response { id, result })
}

/// A message's `id`, when it has one that is JSON (a request's, a response's).
pub(crate) fn id_of(message: &members::Members<'_>) -> Option<Value> {
    message.read_member::<Value>("id")
}

/// The facts of a 2026-07-28 request the bridge acts on, from the generated
/// `METHODS`: whether its answer may be `input_required`, whether its result
/// carries cache hints.
pub fn modern_method(method: &str) -> Option<&'static mcp_spec_types::MethodInfo> {
    find_method(modern::METHODS, method)
}

/// Whether a request's method is one 2025-11-25 has and 2026-07-28 removed
/// (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`, …): a
/// 2026-07-28 server does not find it.
pub fn legacy_only_method(method: &str) -> bool {
    find_method(legacy::METHODS, method).is_some() && modern_method(method).is_none()
}

/// A method's entry in a revision's `METHODS` (sorted by method, as generated).
fn find_method<'m>(methods: &'m [mcp_spec_types::MethodInfo], method: &str) -> Option<&'m mcp_spec_types::MethodInfo> {
    methods.binary_search_by(|m| m.method.cmp(method)).ok().map(|i| &methods[i])
}

/// A request whose 2026-07-28 answer may be `input_required`.
pub(crate) fn may_ask_for_input(method: &str) -> bool {
    modern_method(method).is_some_and(|m| m.may_ask_for_input)
}

/// Writes a generated type (which does not fail).
pub(crate) fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A request's id, as a map key.
pub(crate) fn key(id: &Value) -> String {
    id.to_string()
}

/// The object at `params._meta` of a message, made if absent.
pub(crate) fn meta_mut(message: &mut Value) -> &mut Map<String, Value> {
    let params = message.as_object_mut().map(|m| m.entry("params").or_insert_with(|| json!({})));
    let Some(Value::Object(params)) = params else { unreachable!("a request is an object with object params") };
    let meta = params.entry("_meta").or_insert_with(|| json!({}));
    if !meta.is_object() {
        *meta = json!({});
    }
    meta.as_object_mut().expect("made an object above")
}

/// A response or request built as its generated type, given the id it
/// answers or carries as that peer had it (whatever JSON value it was).
pub(crate) fn with_id(mut message: Value, id: Value) -> Value {
    if let Some(o) = message.as_object_mut() {
        o.insert("id".into(), id);
    }
    message
}

/// Puts every member of `meta` (a generated `_meta` type, written) into a
/// message's `params._meta`, keeping what else it has.
pub(crate) fn merge_meta(message: &mut Value, meta: &Value) {
    let into = meta_mut(message);
    for (k, v) in meta.as_object().into_iter().flatten() {
        into.insert(k.clone(), v.clone());
    }
}

/// The reserved keys 2026-07-28 puts in `_meta`: the members its `_meta`
/// objects name under the spec's reserved prefix, as the generated registry
/// lists them (`RequestMetaObject."io.modelcontextprotocol/logLevel"`).
pub(crate) fn reserved_meta() -> &'static [String] {
    static KEYS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys: Vec<String> = mcp_spec_types::registry::entries()
            .iter()
            .filter(|e| mcp_spec_types::registry::state(MODERN_VERSION, e.path).is_some_and(|s| s.is_present()))
            .filter_map(|e| e.path.split_once(".\"").map(|(_, key)| key.trim_end_matches('"').to_string()))
            .filter(|key| key.starts_with(RESERVED_PREFIX))
            .collect();
        keys.sort();
        keys.dedup();
        keys
    })
}

/// The `_meta` keys of 2026-07-28 the bridge reads and writes.
pub(crate) mod meta_key {
    pub(crate) use mcp_spec_types::http::PROTOCOL_VERSION_META as PROTOCOL_VERSION;
    pub(crate) const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    pub(crate) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// The listen stream a notification is on.
    pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}

/// A member of a message's `params._meta`.
pub(crate) fn meta_member<'v>(msg: &'v Value, key: &str) -> Option<&'v Value> {
    msg.get("params")?.get("_meta")?.get(key)
}

/// The prefix the spec reserves for its own `_meta` keys.
const RESERVED_PREFIX: &str = "io.modelcontextprotocol/";

/// Drops the reserved keys from an object's `_meta`, and `_meta` when that
/// leaves it empty.
pub(crate) fn drop_reserved_meta(object: &mut Value) {
    let Some(o) = object.as_object_mut() else { return };
    let empty = match o.get_mut("_meta").and_then(Value::as_object_mut) {
        Some(meta) => {
            meta.retain(|k, _| !is_reserved_meta(k));
            meta.is_empty()
        }
        None => false,
    };
    if empty {
        o.remove("_meta");
    }
}

/// [`drop_reserved_meta`] on an object's members as they came.
pub(crate) fn drop_reserved_meta_in(object: &mut members::Members<'_>) {
    let mut emptied = false;
    object.edit("_meta", |meta| {
        meta.retain(|k| !is_reserved_meta(k));
        emptied = meta.is_empty();
    });
    if emptied {
        object.remove("_meta");
    }
}

pub(crate) fn is_reserved_meta(key: &str) -> bool {
    key.starts_with(RESERVED_PREFIX) && reserved_meta().iter().any(|r| r == key)
}

/// Whether an id is of the kind the bridge gives its own requests.
pub(crate) fn is_own_id(id: &Value) -> bool {
    id.as_str().is_some_and(|s| s.starts_with(OWN_ID_PREFIX))
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::{Bridge, PROBE_ID, To, server_era};

    /// The recorded sessions the benchmarks replay (`tests/bench/data/bridge/`,
    /// the bridge's `--record` of the peer tests' sessions), each replayed
    /// through two bridges: one given each line the way `Bridge` gives it (read
    /// straight from the line where that applies), one through the `Value`
    /// path alone. Both send the same messages, as JSON, to the same side, for
    /// every line; and the line path took the messages it is for (counted, so
    /// a line path that never applies fails here).
    #[test]
    fn the_line_path_sends_what_the_value_path_sends() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bench/data/bridge");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        files.sort();
        assert_eq!(files.len(), 2, "{files:?}");
        let mut took = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).expect("a recorded session");
            let records: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a record")).collect();
            let is_probe = |r: &Value| r["msg"]["id"] == PROBE_ID;
            let probe = records.iter().find(|r| r["side"] == "server" && r["dir"] == "s2c" && is_probe(r));
            let server =
                probe.map(|p| server_era(&p["msg"]).expect("the probe's answer")).unwrap_or(super::ServerEra::Legacy);
            let inputs: Vec<(To, String)> = records
                .iter()
                .take_while(|r| r.get("closing").is_none())
                .filter(|r| !is_probe(r))
                .filter_map(|r| match (r["side"].as_str(), r["dir"].as_str()) {
                    (Some("client"), Some("c2s")) => Some((To::Client, r["msg"].to_string())),
                    (Some("server"), Some("s2c")) => Some((To::Server, r["msg"].to_string())),
                    _ => None,
                })
                .collect();
            let first = inputs.iter().find(|(t, _)| *t == To::Client).expect("a client message");
            let client = super::client_era(&serde_json::from_str(&first.1).expect("JSON"));
            let mut by_line = Bridge::between(client, server.clone()).expect("two eras");
            let mut by_value = Bridge::between(client, server).expect("two eras");
            let (mut line_path, mut messages) = (0, 0);
            for (from, line) in &inputs {
                let direct = by_line.by_line(*from, line);
                line_path += usize::from(direct.is_some());
                let direct = direct.unwrap_or_else(|| by_line.by_value(*from, line));
                let valued = by_value.by_value(*from, line);
                let sent = |out: &[super::Out]| out.iter().map(|o| (o.to, o.message())).collect::<Vec<_>>();
                assert_eq!(sent(&direct), sent(&valued), "{}: after {line}", file.display());
                messages += direct.len();
            }
            took.push((line_path, inputs.len(), messages));
        }
        // Of the modern client's 33 lines, all but its first request (which waits for the
        // handshake), the handshake's answer and the server's 6 notifications: 12 requests
        // (3 of them retries), the server's 10 results and 3 questions.
        // Of the legacy client's 51, all but its notifications/initialized: 20 requests (the
        // initialize, ping and subscriptions the bridge answers itself among them), 4 answers
        // to questions, the server's 19 results (3 of them input_required) and 7 notifications.
        assert_eq!(took, [(25, 33, 29), (50, 51, 52)]);
    }
    /// The reserved `_meta` keys the registry gives are the ones 2026-07-28's
    /// `_meta` objects declare (`RequestMetaObject`, `ResultMetaObject`,
    /// `NotificationMetaObject`), each once.
    #[test]
    fn the_reserved_meta_keys_are_2026_07_28s() {
        let keys: Vec<&str> = super::reserved_meta().iter().map(String::as_str).collect();
        let suffixes: Vec<&str> = keys.iter().filter_map(|k| k.strip_prefix(super::RESERVED_PREFIX)).collect();
        assert_eq!(
            suffixes,
            ["clientCapabilities", "clientInfo", "logLevel", "protocolVersion", "serverInfo", "subscriptionId"]
        );
    }

    /// A method is found by binary search: every revision's `METHODS` the
    /// bridge uses is sorted by method.
    #[test]
    fn methods_are_sorted_so_a_method_is_found_by_search() {
        for methods in [
            super::legacy::METHODS,
            super::modern::METHODS,
            mcp_spec_types::v2025_06_18::METHODS,
            mcp_spec_types::v2025_03_26::METHODS,
            mcp_spec_types::v2024_11_05::METHODS,
        ] {
            assert!(methods.len() > 10 && methods.windows(2).all(|w| w[0].method < w[1].method));
            for m in methods {
                assert_eq!(super::find_method(methods, m.method).map(|f| f.method), Some(m.method));
            }
        }
        assert!(super::find_method(super::modern::METHODS, "ping").is_none());
    }
}
