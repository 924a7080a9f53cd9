//! The server's side of a session over Streamable HTTP (`--connect`), as a
//! state machine in the style of quinn-proto: it takes what happens (a message
//! of the session's to send, an HTTP answer's status, its body or each event of
//! its stream, its end) as [`UpstreamInput`]s, and says what to do as
//! [`UpstreamAction`]s (start an HTTP exchange, stop one, deliver a line to the
//! session, log a note, report the end). It owns no socket, no clock and no
//! runtime: a driver moves the bytes and enforces the timeouts, and a test
//! drives it with none.
//!
//! - **2026-07-28** ([`Shape::PerRequest`]): every request its own POST with
//!   the headers the transport names (`mcp_spec_types::http`:
//!   `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and each tool's
//!   `Mcp-Param-*` from the [`ToolBook`], where a tool whose annotations are
//!   invalid is left out of the `tools/list` answer, as a client must);
//!   `notifications/cancelled` is not sent but stops the request's stream,
//!   which is how this shape cancels. The `server/discover` probe is such a POST.
//! - **2025-11-25 and before** ([`Shape::Session`]): from `initialize` on, the
//!   session the server mints (`Mcp-Session-Id`) on every POST with the
//!   negotiated `MCP-Protocol-Version`, a GET stream for what the server sends
//!   on its own once `initialized` is through, the session ended with DELETE.
//!   Nothing else goes out until the `initialize` is answered (the session and
//!   its version are not known before). A `404` on the session means it expired:
//!   the request is answered with an error (never sent twice), and a new
//!   session is opened with the client's own `initialize` and `initialized`
//!   (their answers the bridge's, not passed on) before the next message, which
//!   waits for it. An `initialize` refused (a modern-only server) opens no
//!   session: the shape is per request again.
//! - The era: a `400`, `404` or `405` to the bridge's own probe whose body is
//!   no modern JSON-RPC error ([`crate::modern_refusal`]) is answered to the
//!   session as a legacy server's refusal (`-32601`), so it falls back to
//!   `initialize`; a client's own `server/discover` gets the server's answer.
//!
//! - **2024-11-05** ([`Shape::Sse`], in `upstream/sse.rs`): HTTP+SSE, a GET
//!   stream that names the endpoint messages are POSTed to and carries every
//!   answer; [`Transport::Auto`] falls back to it when an `initialize` POST gets
//!   a 4xx with no JSON-RPC answer.
//! - **Resumption** (2025-11-25's polling and redelivery; the session shape
//!   only, 2026-07-28 has none): each SSE stream keeps its last event id and
//!   `retry`. A stream that ends, or is cut, before its answer while it has an
//!   event id is resumed: after `retry` (else [`DEFAULT_RETRY`]) the machine
//!   asks for a timer ([`UpstreamAction::Wake`]), and when it fires, a GET with
//!   `Last-Event-ID` carries on where the stream stopped; the legacy GET stream
//!   likewise. A run of [`MAX_QUIET_RESUMES`] reconnections that bring no
//!   message gives up, with an error to the request.
//! - **Authorization**: a `401` (or a `403` whose `WWW-Authenticate` says
//!   `insufficient_scope`) asks the driver to authorize
//!   ([`UpstreamAction::Authorize`]); the exchange is parked, and so is every
//!   one that starts until the driver tells the credentials or why there are
//!   none ([`UpstreamInput::Authorized`]): then each goes out again with them
//!   (a refused request was not acted on), or ends with the reason. Credentials
//!   that expire ask for a timer, and their refresh when it fires, without
//!   holding anything meanwhile. The flow's own HTTP exchanges are the driver's
//!   (`upstream/auth.rs`).
//!
//! Every fault is an error to the request that met it, with why: a transport
//! fault the driver reports (unreachable, a timeout it names, a body over the
//! bound), a status without a JSON-RPC answer, a stream that ends before its
//! answer (and cannot be resumed).

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use mcp_spec_types::http as rules;
use serde_json::Value;

use super::tools::{Invalid, ToolBook};

mod auth;
mod sse;

use crate::{error_response, method, modern};
pub use sse::SseSession;

/// One HTTP exchange of the machine's, named by the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamId(pub u64);

/// A timer the machine asked for ([`UpstreamAction::Wake`]), named by the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimerId(pub u64);

/// How long to wait before resuming a stream whose server named no `retry`.
pub const DEFAULT_RETRY: Duration = Duration::from_secs(1);

/// Reconnections in a row that bring no message before a stream is given up:
/// a server that polls (closes each connection after a priming event) keeps a
/// silent call alive this many times its `retry`, plus each GET's own wait.
pub const MAX_QUIET_RESUMES: u32 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpMethod {
    Post,
    Get,
    Delete,
}

/// An HTTP exchange to start: to the server's one URL, with these headers
/// (besides the ones the user gave, which the driver adds), and this body.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub stream: StreamId,
    /// Where, when not the server's URL: the 2024-11-05 transport's message
    /// endpoint as its `endpoint` event named it (relative to the server's URL, or whole).
    pub url: Option<String>,
    pub method: HttpMethod,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    /// A stream meant to stay open (`subscriptions/listen`, the GET stream):
    /// no silence limit within its body.
    pub long_lived: bool,
}

impl HttpRequest {
    /// A GET of the server's URL for an event stream, with these headers besides `Accept`.
    fn event_stream(headers: Vec<(String, String)>, long_lived: bool) -> HttpRequest {
        let mut all = vec![("Accept".to_string(), "text/event-stream".to_string())];
        all.extend(headers);
        HttpRequest { stream: StreamId(0), url: None, method: HttpMethod::Get, headers: all, body: None, long_lived }
    }
}

/// An HTTP answer's status: its code and, when known, its reason phrase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: u16,
    pub reason: Option<String>,
}

impl Status {
    pub fn new(code: u16, reason: Option<&str>) -> Status {
        Status { code, reason: reason.map(String::from) }
    }

    fn success(&self) -> bool {
        (200..300).contains(&self.code)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.reason {
            Some(reason) => write!(f, "{} {reason}", self.code),
            None => write!(f, "{}", self.code),
        }
    }
}

/// What happens, fed to [`HttpUpstream::handle`].
#[derive(Clone, Debug, PartialEq)]
pub enum UpstreamInput {
    /// A message of the session's, for the server.
    Send(Value),
    /// A message of the session's as its text: sent as it came (a pass-through
    /// relays bodies untouched), read only to route it.
    SendText(String),
    /// An exchange's answer began: its status, its `Mcp-Session-Id` and its
    /// `WWW-Authenticate`. Its body comes next, whole ([`Body`](Self::Body)) or
    /// as the events of a stream ([`Event`](Self::Event)), as its content type says.
    Began { stream: StreamId, status: Status, session_id: Option<String>, www_authenticate: Option<String> },
    /// The whole body of an answer that is not an event stream.
    Body { stream: StreamId, body: Vec<u8> },
    /// One event of an answer's event stream: its data, the stream's last
    /// event id (the SSE standard's: it stays until an event sets another),
    /// the `retry` it named, and its `event` name (`message` when none was given).
    Event { stream: StreamId, data: String, id: Option<String>, retry: Option<Duration>, event: String },
    /// The exchange is over, and how.
    Ended { stream: StreamId, end: End },
    /// A timer asked for with [`UpstreamAction::Wake`] fired.
    Timer(TimerId),
    /// What came of [`UpstreamAction::Authorize`]: the credentials, or why there are none.
    Authorized(Result<Credentials, String>),
    /// The session is over: stop everything, end the server's session.
    Close,
}

/// How an exchange ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Its body or stream ended as HTTP ends them.
    Finished,
    /// The connection broke within the answer: what came stands, and a stream
    /// with an event id can be resumed.
    Cut(String),
    /// The driver gave up on it (the server unreachable, a timeout naming
    /// itself, a message over the bound): never resumed.
    Failed(String),
}

impl End {
    fn fault(&self) -> Option<&str> {
        match self {
            End::Finished => None,
            End::Cut(why) | End::Failed(why) => Some(why),
        }
    }
}

/// What the driver got by authorizing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credentials {
    /// The `Authorization` header's value for every exchange from now on.
    pub authorization: String,
    /// When to ask for fresh ones (before they expire), if ever.
    pub refresh_after: Option<Duration>,
}

/// Why the driver is asked to authorize.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthReason {
    /// The server refused an exchange for its credentials (`401`, or `403`
    /// with `insufficient_scope`): everything waits for the answer.
    Challenged { status: Status, www_authenticate: Option<String> },
    /// The credentials are about to expire: nothing waits meanwhile.
    Expiring,
}

/// What to do, returned by [`HttpUpstream::handle`].
#[derive(Clone, Debug, PartialEq)]
pub enum UpstreamAction {
    Http(HttpRequest),
    /// Cut an exchange that will not be answered or is no longer wanted (a
    /// cancelled call, a refused or ended stream, the session closed): the
    /// machine has forgotten it, and ignores what the driver still reports of it.
    Stop(StreamId),
    /// An exchange whose answer came: the machine has forgotten it, and ignores
    /// what the driver still reports of it; the driver lets the response end
    /// (read to its end, for a short while) rather than cut it, so that its
    /// connection carries the next request instead of a new one being opened.
    Finish(StreamId),
    /// A line for the session, as the server's (or an error answering a request for it).
    Deliver(String),
    /// A note for the log (stderr), never the protocol stream.
    Log(String),
    /// Feed [`UpstreamInput::Timer`] after this long.
    Wake {
        timer: TimerId,
        after: Duration,
    },
    /// Authorize (the flow is the driver's), then feed [`UpstreamInput::Authorized`].
    Authorize(AuthReason),
    /// Everything is over after [`UpstreamInput::Close`].
    Closed,
}

/// The shape of the transport the server is spoken to in. One member per
/// shape; the 2024-11-05 HTTP+SSE transport's would be a third.
#[derive(Clone, Debug)]
pub enum Shape {
    /// 2026-07-28: each request its own POST (also before the era is known:
    /// the `server/discover` probe is one).
    PerRequest,
    /// 2025-11-25 and before: a session the server mints.
    Session(Box<Session>),
    /// 2024-11-05's HTTP+SSE: one GET stream carries everything the server
    /// says; messages are POSTed to the endpoint its `endpoint` event names.
    Sse(Box<SseSession>),
}

/// Which transport to speak (`--transport`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Transport {
    /// Streamable HTTP, falling back to HTTP+SSE as the 2025-03-26 and later
    /// texts say: an `initialize` POST answered with a 4xx status is sent again
    /// over the old transport (a GET for its `endpoint` event).
    #[default]
    Auto,
    StreamableHttp,
    /// 2024-11-05's HTTP+SSE only.
    Sse,
}

/// A legacy session and what it needs to be opened again.
#[derive(Clone, Debug)]
pub struct Session {
    /// The client's `initialize` and `initialized`.
    initialize: Value,
    initialized: Option<Value>,
    /// `Mcp-Session-Id`, once the server minted one, and the negotiated version.
    id: Option<String>,
    version: Option<String>,
    state: SessionState,
    listening: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SessionState {
    /// `initialize` sent, its answer not yet in: nothing else goes out.
    Opening,
    Open,
    /// The server said the session is gone (a `404`): a new one opens first.
    Expired,
    /// A new session's `initialize`, then its `initialized`, are out.
    Reopening,
}

/// What an exchange is for.
#[derive(Clone, Debug)]
enum Purpose {
    /// A request of the session's, to be answered: its id and method.
    Request {
        id: Value,
        method: String,
    },
    Notification {
        method: String,
    },
    /// An answer to a request of the server's.
    Answer,
    /// The legacy session's GET stream.
    Listen,
    /// A new session's `initialize`, then its `initialized`.
    Reinitialize,
    Reinitialized,
    /// The DELETE that ends the session.
    End,
    /// The HTTP+SSE transport's GET stream.
    SseStream,
    /// A message POSTed to the HTTP+SSE endpoint: a request's id and method, if it is one.
    SsePost {
        request: Option<(Value, String)>,
    },
}

#[derive(Clone, Debug)]
struct Exchange {
    purpose: Purpose,
    /// What was asked, to ask again once authorized.
    request: HttpRequest,
    status: Option<Status>,
    /// The stream's last event id and `retry`, to resume it.
    cursor: Option<String>,
    retry: Option<Duration>,
    /// Whether a message came on it, and the reconnections before it that brought none.
    heard: bool,
    quiet: u32,
}

impl Exchange {
    fn new(purpose: Purpose, request: HttpRequest) -> Exchange {
        Exchange { purpose, request, status: None, cursor: None, retry: None, heard: false, quiet: 0 }
    }
}

/// What a timer is for.
#[derive(Clone, Debug)]
enum Timer {
    /// A stream to resume.
    Resume(Box<Exchange>),
    /// The credentials to refresh.
    Refresh,
    /// An HTTP+SSE request's answer, awaited on the stream: by its id's key.
    Answer(String),
}

/// Where authorization stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asking {
    No,
    /// A refresh is out; exchanges go on with the credentials they have.
    Refresh,
    /// The server refused: exchanges are parked until the answer.
    Challenge,
}

/// The server's side over Streamable HTTP. See the module's docs.
#[derive(Debug)]
pub struct HttpUpstream {
    shape: Shape,
    tools: ToolBook,
    exchanges: BTreeMap<StreamId, Exchange>,
    next: u64,
    /// Messages that wait for the legacy session to open.
    held: VecDeque<(Value, Option<String>)>,
    timers: BTreeMap<TimerId, Timer>,
    /// The `Authorization` of every exchange, once the driver told it.
    authorization: Option<String>,
    asking: Asking,
    /// A challenge met while a refresh was out: asked if the refresh fails.
    challenge_after_refresh: Option<AuthReason>,
    /// Exchanges that wait for authorization, in order.
    parked: Vec<Exchange>,
    transport: Transport,
    /// The longest wait for an HTTP+SSE request's answer on the stream (the
    /// driver's bound on silence); none: unbounded.
    answer_wait: Option<Duration>,
    closing: bool,
}

impl Default for HttpUpstream {
    fn default() -> Self {
        HttpUpstream::new()
    }
}

impl HttpUpstream {
    pub fn new() -> HttpUpstream {
        HttpUpstream {
            shape: Shape::PerRequest,
            tools: ToolBook::default(),
            exchanges: BTreeMap::new(),
            next: 1,
            held: VecDeque::new(),
            timers: BTreeMap::new(),
            authorization: None,
            asking: Asking::No,
            challenge_after_refresh: None,
            parked: Vec::new(),
            transport: Transport::Auto,
            answer_wait: None,
            closing: false,
        }
    }

    /// A machine that speaks `transport`, an HTTP+SSE request's answer awaited
    /// at most `answer_wait` on the stream.
    pub fn with_transport(transport: Transport, answer_wait: Duration) -> HttpUpstream {
        HttpUpstream { transport, answer_wait: Some(answer_wait), ..HttpUpstream::new() }
    }

    /// The shape the server is spoken to in.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The exchanges in flight.
    pub fn in_flight(&self) -> usize {
        self.exchanges.len()
    }

    pub fn handle(&mut self, input: UpstreamInput) -> Vec<UpstreamAction> {
        let mut out = Vec::new();
        match input {
            UpstreamInput::Send(message) => self.send(message, None, &mut out),
            UpstreamInput::SendText(text) => match serde_json::from_str(&text) {
                Ok(message) => self.send(message, Some(text), &mut out),
                Err(e) => out.push(UpstreamAction::Log(format!("not sent to the server, not JSON ({e}): {text}"))),
            },
            UpstreamInput::Began { stream, status, session_id, www_authenticate } => {
                self.began(stream, status, session_id, www_authenticate, &mut out)
            }
            UpstreamInput::Body { stream, body } => self.body(stream, body, &mut out),
            UpstreamInput::Event { stream, data, id, retry, event } => {
                if matches!(self.shape, Shape::Sse(_)) {
                    self.sse_event(stream, data, &event, &mut out)
                } else {
                    self.event(stream, data, id, retry, &mut out)
                }
            }
            UpstreamInput::Ended { stream, end } => self.ended(stream, end, &mut out),
            UpstreamInput::Timer(timer) => self.timer(timer, &mut out),
            UpstreamInput::Authorized(answer) => self.authorized(answer, &mut out),
            UpstreamInput::Close => self.close(&mut out),
        }
        out
    }

    fn session(&mut self) -> Option<&mut Session> {
        match &mut self.shape {
            Shape::Session(s) => Some(s),
            Shape::PerRequest | Shape::Sse(_) => None,
        }
    }

    fn sse(&mut self) -> Option<&mut SseSession> {
        match &mut self.shape {
            Shape::Sse(s) => Some(s),
            _ => None,
        }
    }

    /// Sends `message`; its `text`, when given, is the body as it came.
    fn send(&mut self, message: Value, text: Option<String>, out: &mut Vec<UpstreamAction>) {
        if self.closing {
            return out.push(UpstreamAction::Log(format!("not sent to the server, the session is ending: {message}")));
        }
        if self.transport == Transport::Sse && matches!(self.shape, Shape::PerRequest) {
            self.open_sse(out);
        }
        if matches!(self.shape, Shape::Sse(_)) {
            return self.send_sse(message, text, out);
        }
        let method = message.get("method").and_then(Value::as_str).map(str::to_string);
        let id = message.get("id").cloned();
        if let (Some(m), Some(id)) = (&method, &id)
            && m == method::INITIALIZE
        {
            // A legacy session begins; nothing else goes out until it is answered.
            self.shape = Shape::Session(Box::new(Session {
                initialize: message.clone(),
                initialized: None,
                id: None,
                version: None,
                state: SessionState::Opening,
                listening: false,
            }));
            let purpose = Purpose::Request { id: id.clone(), method: m.clone() };
            return self.post(purpose, &message, text, out);
        }
        match self.session().map(|s| s.state) {
            Some(SessionState::Opening | SessionState::Reopening) => return self.held.push_back((message, text)),
            Some(SessionState::Expired) => {
                self.held.push_back((message, text));
                return self.reopen(out);
            }
            _ => {}
        }
        match (method, id) {
            (Some(method), Some(id)) => self.post(Purpose::Request { id, method }, &message, text, out),
            (Some(method), None) => {
                if method == method::CANCELLED {
                    // A cancelled request's stream is not resumed.
                    let cancelled = message.pointer("/params/requestId");
                    self.timers.retain(|_, t| !matches!(t, Timer::Resume(e) if matches!(&e.purpose, Purpose::Request { id, .. } if Some(id) == cancelled)));
                }
                if method == method::CANCELLED && matches!(self.shape, Shape::PerRequest) {
                    // The per-request shape cancels by closing the request's stream.
                    let cancelled = message.pointer("/params/requestId");
                    let stream = self.exchanges.iter().find_map(|(s, e)| match &e.purpose {
                        Purpose::Request { id, .. } if Some(id) == cancelled => Some(*s),
                        _ => None,
                    });
                    if let Some(stream) = stream {
                        self.stop(stream, out);
                    }
                    return;
                }
                let initialized = method == method::INITIALIZED;
                if initialized && let Some(session) = self.session() {
                    session.initialized = Some(message.clone());
                }
                self.post(Purpose::Notification { method }, &message, text, out);
                // The session's GET stream goes out with `initialized`, before anything the
                // client says after it: the server's messages have somewhere to come from
                // the start, and a request's stream closed early is resumed on a GET of its own.
                if initialized {
                    self.listen(out);
                }
            }
            (None, Some(_)) => self.post(Purpose::Answer, &message, text, out),
            (None, None) => out.push(UpstreamAction::Log(format!("not sent to the server, not JSON-RPC: {message}"))),
        }
    }

    /// A new exchange's id.
    fn stream(&mut self) -> StreamId {
        let id = StreamId(self.next);
        self.next += 1;
        id
    }

    /// The POST of `message` with the headers its shape needs.
    /// The POST of `message` (its `text` as it came, when given) with the headers its shape needs.
    fn post(&mut self, purpose: Purpose, message: &Value, text: Option<String>, out: &mut Vec<UpstreamAction>) {
        let mut headers = vec![
            ("Accept".to_string(), "application/json, text/event-stream".to_string()),
            ("Content-Type".to_string(), "application/json".to_string()),
        ];
        match &self.shape {
            Shape::Session(session) => {
                headers.extend(session.headers());
                if session.id.is_none()
                    && matches!(&purpose, Purpose::Request { method, .. } if method == method::INITIALIZE)
                {
                    // Offered before the era is known: named as a 2026-07-28 POST names its
                    // method (a legacy server ignores the header; a modern one reads it).
                    headers.push((rules::METHOD_HEADER.to_string(), method::INITIALIZE.to_string()));
                }
            }
            Shape::PerRequest if message.get("id").is_some() && message.get("method").is_some() => {
                match rules::request_headers(message, self.tools.of_call(message)) {
                    Ok(more) => headers.extend(more),
                    Err(why) => {
                        // A request the headers cannot be derived from (its `_meta` lacks the
                        // version): sent with what can be, for the server to judge as it
                        // would judge it directly; the bridge is no stricter than the server.
                        out.push(UpstreamAction::Log(format!("sent with the headers it allows: {why}")));
                        headers.extend(minimal_headers(message));
                    }
                }
            }
            Shape::PerRequest | Shape::Sse(_) => headers.extend(minimal_headers(message)),
        }
        let long_lived = matches!(&purpose, Purpose::Request { method, .. } if method == method::LISTEN);
        let request = HttpRequest {
            stream: StreamId(0),
            url: None,
            method: HttpMethod::Post,
            headers,
            body: Some(text.unwrap_or_else(|| message.to_string())),
            long_lived,
        };
        self.start(Exchange::new(purpose, request), out);
    }

    /// An exchange goes out under a new id, with the credentials; or is
    /// parked while the server's challenge is being answered.
    fn start(&mut self, mut exchange: Exchange, out: &mut Vec<UpstreamAction>) {
        if self.asking == Asking::Challenge {
            return self.parked.push(exchange);
        }
        if let Some(authorization) = &self.authorization {
            let headers = &mut exchange.request.headers;
            headers.retain(|(name, _)| !name.eq_ignore_ascii_case(AUTHORIZATION));
            headers.push((AUTHORIZATION.to_string(), authorization.clone()));
        }
        let stream = self.stream();
        exchange.request.stream = stream;
        exchange.status = None;
        out.push(UpstreamAction::Http(exchange.request.clone()));
        self.exchanges.insert(stream, exchange);
    }

    /// Opens an expired session again: the client's `initialize` first.
    fn reopen(&mut self, out: &mut Vec<UpstreamAction>) {
        let Some(session) = self.session() else { return };
        session.state = SessionState::Reopening;
        session.id = None;
        session.listening = false;
        let initialize = session.initialize.clone();
        out.push(UpstreamAction::Log(
            "the server's session expired: opening a new one with the client's initialize".into(),
        ));
        self.post(Purpose::Reinitialize, &initialize, None, out);
    }

    /// After a new session's `initialize`: its `initialized`, or, when the
    /// client sent none, the session open.
    fn reinitialized(&mut self, out: &mut Vec<UpstreamAction>) {
        match self.session().and_then(|s| s.initialized.clone()) {
            Some(initialized) => self.post(Purpose::Reinitialized, &initialized, None, out),
            None => self.opened(out),
        }
    }

    /// The session is open: what waited for it goes out, in order.
    fn opened(&mut self, out: &mut Vec<UpstreamAction>) {
        if let Some(session) = self.session() {
            session.state = SessionState::Open;
        }
        while let Some((message, text)) = self.held.pop_front() {
            self.send(message, text, out);
            // A message that expired the session again holds the rest.
            if self.session().is_some_and(|s| s.state != SessionState::Open) {
                break;
            }
        }
    }

    /// The legacy session's GET stream, once.
    fn listen(&mut self, out: &mut Vec<UpstreamAction>) {
        let Some(session) = self.session().filter(|s| !s.listening) else { return };
        session.listening = true;
        let request = HttpRequest::event_stream(session.headers(), true);
        self.start(Exchange::new(Purpose::Listen, request), out);
    }

    fn stop(&mut self, stream: StreamId, out: &mut Vec<UpstreamAction>) {
        if self.exchanges.remove(&stream).is_some() {
            out.push(UpstreamAction::Stop(stream));
        }
    }

    /// An exchange answered: forgotten, its response let end.
    fn finish(&mut self, stream: StreamId, out: &mut Vec<UpstreamAction>) {
        if self.exchanges.remove(&stream).is_some() {
            out.push(UpstreamAction::Finish(stream));
        }
    }

    fn began(
        &mut self,
        stream: StreamId,
        status: Status,
        session_id: Option<String>,
        www_authenticate: Option<String>,
        out: &mut Vec<UpstreamAction>,
    ) {
        let challenged = status.code == 401
            || (status.code == 403 && www_authenticate.as_deref().is_some_and(|c| c.contains("insufficient_scope")));
        if challenged
            && !self.closing
            && !matches!(self.exchanges.get(&stream).map(|e| &e.purpose), None | Some(Purpose::End))
        {
            return self.challenged(stream, status, www_authenticate, out);
        }
        let Some(exchange) = self.exchanges.get_mut(&stream) else { return };
        exchange.status = Some(status.clone());
        let purpose = exchange.purpose.clone();
        let success = status.success();
        match purpose {
            Purpose::SseStream => {
                if !success {
                    self.stop(stream, out);
                    self.sse_over(format!("the server's HTTP+SSE stream was refused: HTTP {status}"), out);
                }
            }
            Purpose::SsePost { request } => {
                // Accepted: the answer comes on the stream. Refused: the request has its answer.
                self.finish(stream, out);
                if !success {
                    let why = format!("the server refused the message: HTTP {status}");
                    match request {
                        Some((id, method)) => self.sse_answered(&id, Some(format!("{method}: {why}")), out),
                        None => out.push(UpstreamAction::Log(why)),
                    }
                }
            }
            Purpose::Request { ref method, ref id } => {
                if method == method::INITIALIZE
                    && success
                    && let Some(session) = self.session()
                {
                    session.id = session_id;
                }
                let expired = status.code == 404 && self.session().is_some_and(|s| s.id.is_some());
                if expired {
                    if let Some(session) = self.session() {
                        session.state = SessionState::Expired;
                    }
                    out.push(fault(
                        id,
                        format!("{method}: the server's session expired (404); the request was not delivered and is not sent again: a new session opens with the next"),
                    ));
                    self.stop(stream, out);
                }
                // Else its body or its events answer it.
            }
            Purpose::Reinitialize => {
                if success {
                    if let Some(session) = self.session() {
                        session.id = session_id;
                    }
                } else {
                    out.push(UpstreamAction::Log(format!("a new session was refused: HTTP {status}")));
                    self.stop(stream, out);
                    self.reinitialized(out);
                }
            }
            Purpose::Reinitialized | Purpose::Notification { .. } | Purpose::Answer => {
                if !success {
                    let what = match &purpose {
                        Purpose::Notification { method } => format!("the server refused {method}"),
                        Purpose::Answer => "the server refused an answer to its request".to_string(),
                        _ => "the new session's initialized was refused".to_string(),
                    };
                    out.push(UpstreamAction::Log(format!("{what} (HTTP {status})")));
                }
                self.finish(stream, out);
                let initialized = matches!(&purpose, Purpose::Notification { method } if method == method::INITIALIZED)
                    || matches!(purpose, Purpose::Reinitialized);
                if success && initialized {
                    self.listen(out);
                }
                if matches!(purpose, Purpose::Reinitialized) {
                    self.opened(out);
                }
            }
            Purpose::Listen => {
                if !success {
                    // 405: the server offers none; it sends on POST streams only.
                    if status.code != 405 {
                        out.push(UpstreamAction::Log(format!("the server's GET stream: HTTP {status}")));
                    }
                    self.stop(stream, out);
                }
            }
            Purpose::End => {
                if !success && status.code != 405 {
                    out.push(UpstreamAction::Log(format!("ending the server's session: DELETE answered {status}")));
                }
                self.stop(stream, out);
                out.push(UpstreamAction::Closed);
            }
        }
    }

    fn body(&mut self, stream: StreamId, body: Vec<u8>, out: &mut Vec<UpstreamAction>) {
        let Some(exchange) = self.exchanges.get(&stream) else { return };
        let status = exchange.status.clone().unwrap_or(Status { code: 0, reason: None });
        match exchange.purpose.clone() {
            Purpose::Request { id, method } => {
                // `auto`: an initialize POST refused with a 4xx and no JSON-RPC answer is a
                // server of 2024-11-05's HTTP+SSE (a modern server's refusal is a JSON-RPC error).
                let fallback = self.transport == Transport::Auto
                    && (400..500).contains(&status.code)
                    && method == method::INITIALIZE
                    && self.session().is_some_and(|s| s.state == SessionState::Opening)
                    && serde_json::from_slice::<Value>(&body).map_or(true, |v| v.get("jsonrpc").is_none());
                if fallback {
                    return self.fall_back_to_sse(stream, &status, out);
                }
                self.finish(stream, out);
                let answer = answer_of(&status, &body, &id, &method);
                // A success's body is the answer as it came.
                let text = status.success().then(|| std::str::from_utf8(&body).ok()).flatten();
                match answer {
                    Ok(message) => self.pass(message, text, &method, out),
                    Err(why) => out.push(fault(&id, format!("{method}: {why}"))),
                }
                self.answered(&method, out);
            }
            Purpose::Reinitialize => {
                self.finish(stream, out);
                if let Ok(answer) = serde_json::from_slice::<Value>(&body) {
                    self.note_version(&answer);
                }
                self.reinitialized(out);
            }
            _ => {}
        }
    }

    fn event(
        &mut self,
        stream: StreamId,
        data: String,
        id: Option<String>,
        retry: Option<Duration>,
        out: &mut Vec<UpstreamAction>,
    ) {
        let Some(exchange) = self.exchanges.get_mut(&stream) else { return };
        if let Some(id) = id.filter(|id| !id.is_empty()) {
            exchange.cursor = Some(id);
        }
        if retry.is_some() {
            exchange.retry = retry;
        }
        if data.trim().is_empty() {
            return; // A priming event or a keep-alive.
        }
        exchange.heard = true;
        let message: Value = match serde_json::from_str(&data) {
            Ok(m) => m,
            Err(e) => {
                return out
                    .push(UpstreamAction::Log(format!("an event of the server's stream is not JSON ({e}): {data}")));
            }
        };
        match exchange.purpose.clone() {
            Purpose::Request { id, method } => {
                let answers = message.get("method").is_none() && message.get("id") == Some(&id);
                self.pass(message, Some(&data), &method, out);
                if answers {
                    self.finish(stream, out);
                    self.answered(&method, out);
                }
            }
            Purpose::Reinitialize => {
                // The new session's answer is the bridge's: its version kept, not passed on.
                self.note_version(&message);
                self.finish(stream, out);
                self.reinitialized(out);
            }
            _ => self.pass(message, Some(&data), "", out),
        }
    }

    fn ended(&mut self, stream: StreamId, end: End, out: &mut Vec<UpstreamAction>) {
        let Some(exchange) = self.exchanges.remove(&stream) else { return };
        let Some(exchange) = self.resume(exchange, &end, out) else { return };
        let fault_of = end.fault().map(str::to_string);
        match exchange.purpose {
            Purpose::SseStream => {
                let why = fault_of.unwrap_or_else(|| "it ended".into());
                self.sse_over(format!("the server's HTTP+SSE stream is over: {why}"), out);
            }
            Purpose::SsePost { request } => {
                // Not begun: the message never reached the server.
                let why = fault_of.unwrap_or_else(|| "the server sent no answer".into());
                match request {
                    Some((id, method)) => self.sse_answered(&id, Some(format!("{method}: {why}")), out),
                    None => out.push(UpstreamAction::Log(format!("a message was not delivered: {why}"))),
                }
            }
            Purpose::Request { id, method } => {
                // Not answered (an answer stops the exchange first).
                let why = fault_of.unwrap_or_else(|| match exchange.status {
                    Some(status) if status.success() => "the server's stream ended before its answer".into(),
                    Some(status) => format!("the server answered HTTP {status} with no body"),
                    None => "the server sent no answer".into(),
                });
                out.push(UpstreamAction::Log(format!("{method} ({id}): {why}")));
                out.push(fault(&id, format!("{method}: {why}")));
                self.answered(&method, out);
            }
            Purpose::Listen => {
                if let Some(why) = fault_of {
                    out.push(UpstreamAction::Log(format!("the server's GET stream ended: {why}")));
                }
            }
            Purpose::Notification { method } => {
                if let Some(why) = fault_of {
                    out.push(UpstreamAction::Log(format!("{method} was not delivered: {why}")));
                }
            }
            Purpose::Answer => {
                if let Some(why) = fault_of {
                    out.push(UpstreamAction::Log(format!("an answer to the server was not delivered: {why}")));
                }
            }
            Purpose::Reinitialize => {
                let why = fault_of.unwrap_or_else(|| "it gave no answer".into());
                out.push(UpstreamAction::Log(format!("a new session could not be opened: {why}")));
                self.reinitialized(out);
            }
            Purpose::Reinitialized => {
                let why = fault_of.unwrap_or_else(|| "it gave no answer".into());
                out.push(UpstreamAction::Log(format!("the new session's initialized: {why}")));
                self.opened(out);
            }
            Purpose::End => {
                if let Some(why) = fault_of {
                    out.push(UpstreamAction::Log(format!("ending the server's session: {why}")));
                }
                out.push(UpstreamAction::Closed);
            }
        }
    }

    /// A stream that ended before its answer, resumed after its `retry` when
    /// it can be (it is given back when not): the session shape, a stream
    /// with an event id, not given up by the driver, not too many quiet tries.
    fn resume(&mut self, mut exchange: Exchange, end: &End, out: &mut Vec<UpstreamAction>) -> Option<Exchange> {
        let open = self.session().is_some_and(|s| s.state == SessionState::Open && s.id.is_some());
        // Reconnections since the last message.
        let quiet = if exchange.heard { 0 } else { exchange.quiet };
        let resumable = matches!(exchange.purpose, Purpose::Request { .. } | Purpose::Listen)
            && exchange.status.as_ref().is_some_and(Status::success)
            && !matches!(end, End::Failed(_))
            && !self.closing
            && open;
        let Some(cursor) = exchange.cursor.clone().filter(|_| resumable) else { return Some(exchange) };
        let what = match &exchange.purpose {
            Purpose::Request { id, method } => format!("{method} ({id})"),
            _ => "the server's GET stream".into(),
        };
        if quiet >= MAX_QUIET_RESUMES {
            out.push(UpstreamAction::Log(format!(
                "{what}: {MAX_QUIET_RESUMES} reconnections brought nothing: given up"
            )));
            return Some(exchange);
        }
        let after = exchange.retry.unwrap_or(DEFAULT_RETRY);
        let how = end.fault().map_or("ended".to_string(), |why| format!("was cut ({why})"));
        out.push(UpstreamAction::Log(format!(
            "{what}: the stream {how} before its answer; resuming after {after:?} from event {cursor:?}"
        )));
        exchange.quiet = quiet + 1;
        exchange.heard = false;
        let timer = self.timer_id();
        self.timers.insert(timer, Timer::Resume(Box::new(exchange)));
        out.push(UpstreamAction::Wake { timer, after });
        None
    }

    fn timer_id(&mut self) -> TimerId {
        let id = TimerId(self.next);
        self.next += 1;
        id
    }

    fn timer(&mut self, timer: TimerId, out: &mut Vec<UpstreamAction>) {
        match self.timers.remove(&timer) {
            Some(Timer::Refresh) if self.asking == Asking::No && !self.closing => {
                self.asking = Asking::Refresh;
                out.push(UpstreamAction::Authorize(AuthReason::Expiring));
            }
            Some(Timer::Answer(key)) => {
                let pending = self.sse().and_then(|s| s.pending.get(&key).cloned());
                if let Some((id, method, _)) = pending {
                    let after = self.answer_wait.unwrap_or_default();
                    let why =
                        format!("{method}: no answer on the server's HTTP+SSE stream in {after:?} (--body-timeout)");
                    self.sse_answered(&id, Some(why), out);
                }
            }
            None | Some(Timer::Refresh) => {}
            Some(Timer::Resume(mut exchange)) => {
                if self.closing {
                    return;
                }
                // A GET with the session's headers and Last-Event-ID, read as the stream it resumes.
                let Some(session) = self.session() else { return };
                let mut headers = session.headers();
                headers.push((LAST_EVENT_ID.to_string(), exchange.cursor.clone().unwrap_or_default()));
                let long_lived = exchange.request.long_lived || matches!(exchange.purpose, Purpose::Listen);
                exchange.request = HttpRequest::event_stream(headers, long_lived);
                self.start(*exchange, out);
            }
        }
    }

    /// A request's exchange is over: the legacy session opens when it was its `initialize`.
    fn answered(&mut self, method: &str, out: &mut Vec<UpstreamAction>) {
        if method == method::INITIALIZE && self.session().is_some_and(|s| s.state == SessionState::Opening) {
            let legacy = |v: &Option<String>| v.as_deref().is_some_and(|v| crate::LEGACY_VERSIONS.contains(&v));
            if self.session().is_some_and(|s| !legacy(&s.version)) {
                // Refused, or answered at no legacy version (a modern server): no legacy session
                // was opened; each request its own POST again.
                self.shape = Shape::PerRequest;
                let held: Vec<_> = self.held.drain(..).collect();
                return held.into_iter().for_each(|(message, text)| self.send(message, text, out));
            }
            self.opened(out);
        }
    }

    fn note_version(&mut self, answer: &Value) {
        if let Some(version) = answer.pointer("/result/protocolVersion").and_then(Value::as_str)
            && let Some(session) = self.session()
        {
            session.version = Some(version.to_string());
        }
    }

    /// A message from the server, delivered as its `text` came when it is
    /// one line and unchanged: a `tools/list` answer read for its tools'
    /// headers first (the per-request shape, which leaves invalid tools out),
    /// an `initialize` answer for the version.
    fn pass(&mut self, mut message: Value, text: Option<&str>, method: &str, out: &mut Vec<UpstreamAction>) {
        let mut text = text.map(str::trim).filter(|t| !t.contains(['\n', '\r']));
        if method == method::TOOLS_LIST && matches!(self.shape, Shape::PerRequest) {
            let notes = self.tools.learn(&mut message, Invalid::Drop);
            if !notes.is_empty() {
                text = None;
            }
            out.extend(notes.into_iter().map(UpstreamAction::Log));
        }
        if method == method::INITIALIZE {
            self.note_version(&message);
        }
        out.push(UpstreamAction::Deliver(text.map_or_else(|| message.to_string(), str::to_string)));
    }

    fn close(&mut self, out: &mut Vec<UpstreamAction>) {
        if self.closing {
            return;
        }
        self.closing = true;
        for stream in self.exchanges.keys().copied().collect::<Vec<_>>() {
            self.stop(stream, out);
        }
        for (message, _) in self.held.drain(..) {
            out.push(UpstreamAction::Log(format!("not sent to the server, the session ended first: {message}")));
        }
        self.timers.clear();
        for exchange in std::mem::take(&mut self.parked) {
            if let Purpose::Request { id, method } = exchange.purpose {
                out.push(fault(
                    &id,
                    format!("{method}: the session ended while the server's authorization was awaited"),
                ));
            }
        }
        self.asking = Asking::No;
        let session = match &self.shape {
            Shape::Session(s) if s.id.is_some() => s.headers(),
            _ => return out.push(UpstreamAction::Closed),
        };
        let request = HttpRequest {
            stream: StreamId(0),
            url: None,
            method: HttpMethod::Delete,
            headers: session,
            body: None,
            long_lived: false,
        };
        self.start(Exchange::new(Purpose::End, request), out);
    }
}

impl Session {
    /// The session's headers: its id and version, once known.
    fn headers(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(id) = &self.id {
            out.push((rules::SESSION_ID_HEADER.to_string(), id.clone()));
        }
        if let Some(version) = &self.version {
            out.push((rules::PROTOCOL_VERSION_HEADER.to_string(), version.clone()));
        }
        out
    }
}

const AUTHORIZATION: &str = "Authorization";
const LAST_EVENT_ID: &str = "Last-Event-ID";

/// The headers every message can have: its method, and its version when its
/// `_meta` names one (a notification; a request the rest cannot be derived for).
fn minimal_headers(message: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(method) = message.get("method").and_then(Value::as_str) {
        out.push((rules::METHOD_HEADER.to_string(), method.to_string()));
    }
    let version = message.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion");
    if let Some(v) = version.and_then(Value::as_str) {
        out.push((rules::PROTOCOL_VERSION_HEADER.to_string(), v.to_string()));
    }
    out
}

/// A request id as a map key: its JSON text (`1` and `"1"` differ).
fn key_of(id: &Value) -> String {
    id.to_string()
}

/// A JSON-RPC error answering request `id`, for a fault the server never answered.
fn fault(id: &Value, message: impl Into<String>) -> UpstreamAction {
    UpstreamAction::Deliver(error_response(id.clone(), modern::INTERNAL_ERROR, message).to_string())
}

/// What a whole body answers request `id` with: the message, or why it is none.
fn answer_of(status: &Status, body: &[u8], id: &Value, method: &str) -> Result<Value, String> {
    if status.success() {
        if body.is_empty() {
            return Err(format!("the server answered HTTP {status} with no body"));
        }
        return serde_json::from_slice(body).map_err(|e| format!("the server's answer is not JSON: {e}"));
    }
    // The bridge's own probe only: a client's `server/discover` gets the server's answer as it is.
    if method == method::DISCOVER
        && id.as_str() == Some(crate::PROBE_ID)
        && matches!(status.code, 400 | 404 | 405)
        && crate::modern_refusal(status.code, body).is_none()
    {
        // A legacy server: its refusal as a legacy stdio server gives it, so the session falls back.
        let text = String::from_utf8_lossy(body);
        let why = format!("HTTP {status} to a modern request, with no modern error ({})", text.trim());
        return Ok(error_response(id.clone(), modern::METHOD_NOT_FOUND, why));
    }
    // A JSON-RPC error in the body answers the request, whatever id it names.
    if let Ok(mut error) = serde_json::from_slice::<Value>(body)
        && error.get("error").is_some()
    {
        error["id"] = id.clone();
        return Ok(error);
    }
    let text = String::from_utf8_lossy(body);
    Err(format!("the server answered HTTP {status} with no JSON-RPC answer ({})", text.trim()))
}
