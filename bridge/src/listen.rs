//! `--listen ADDR[/path]`: the client side over Streamable HTTP, serving
//! clients of both eras at once, each in its own shape, in front of a server
//! command (`-- CMD`) or an HTTP server (`--connect URL`).
//!
//! - **Legacy clients** (2025-11-25 and before) open a session with
//!   `initialize`: the bridge mints its `Mcp-Session-Id`, serves its GET
//!   stream, ends it on DELETE, and answers `404` to a session it does not know.
//! - **Modern clients** (2026-07-28) are served statelessly: every request's
//!   headers are checked against its body as a 2026-07-28 server must
//!   (`mcp_spec_types::http::validate_headers`, `400` with `HeaderMismatch`),
//!   GET and DELETE are `405`, and a request whose stream the client closes is
//!   cancelled.
//! - **Each HTTP client is its own [`Session`]** towards the server side, with
//!   its own server process (or HTTP session): a legacy client per
//!   `Mcp-Session-Id`, a modern one per identity (its `Authorization` header and
//!   its `clientInfo`), so a legacy server behind gets one handshake per legacy
//!   session or per modern client, and no client sees another's messages.
//!   Request ids are the bridge's own on the server side (`h1`, `h2`, …) and the
//!   client's again on the way back, so two connections of one identity cannot
//!   collide.
//! - Loopback by default; an `Origin` that is not loopback (or given with
//!   `--allow-origin`) is refused with `403`; a body over `--max-message` with
//!   `413` and a JSON-RPC error naming the bound.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use mcp_era_bridge::http::{HttpDownstream, Invalid, Route, ToolBook, client_identity};
use mcp_era_bridge::{ServerEraChoice, error_response, method, modern};
use mcp_spec_types::http::{self as rules, ToolHeaders};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::Upstream;
use crate::driver::{self, Fed, Front, GRACE, In, Recorder, Settings};

/// What `--listen` serves, and what is behind it.
pub struct Config {
    pub addr: SocketAddr,
    pub path: String,
    pub upstream: Upstream,
    pub server_era: ServerEraChoice,
    pub probe_timeout: std::time::Duration,
    pub ignored_tools: Vec<String>,
    pub max_message: usize,
    /// `--allow-origin`: origins besides loopback ones.
    pub allowed_origins: Vec<String>,
    pub record: Option<std::path::PathBuf>,
}

/// `ADDR[/path]` or `PORT[/path]` (loopback): the address and the endpoint's path (`/mcp` by default).
pub fn parse_listen(text: &str) -> Result<(SocketAddr, String), String> {
    let (addr, path) = match text.find('/') {
        Some(at) => (&text[..at], text[at..].to_string()),
        None => (text, "/mcp".to_string()),
    };
    let addr = match addr.parse::<u16>() {
        Ok(port) => SocketAddr::from(([127, 0, 0, 1], port)),
        Err(_) => addr.parse().map_err(|e| format!("--listen {text:?}: {e} (give ADDR:PORT[/path] or PORT[/path])"))?,
    };
    Ok((addr, path))
}

/// Serves until SIGTERM or SIGINT, then ends every session.
pub fn serve(config: Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the HTTP runtime: {e}"))?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(config.addr).await.map_err(|e| format!("--listen {}: {e}", config.addr))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        if !addr.ip().is_loopback() {
            eprintln!("mcp-era-bridge: listening on {addr}, not loopback: anyone who reaches it reaches the server");
        }
        eprintln!("mcp-era-bridge: listening on http://{addr}{}", config.path);
        let path = config.path.clone();
        let front = Arc::new(Endpoint { config, sessions: Mutex::new(HashMap::new()), next: AtomicU64::new(1) });
        let app = Router::new().route(&path, axum::routing::any(endpoint)).with_state(front.clone());
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let (force_tx, force_rx) = tokio::sync::oneshot::channel::<()>();
        // On a signal: every session ended first (their streams close with
        // them), then the server shut down, forced if a connection lingers.
        tokio::spawn(async move {
            crate::stdio::signals::stopped().await;
            end_sessions(front).await;
            let _ = stop_tx.send(());
            tokio::time::sleep(GRACE).await;
            let _ = force_tx.send(());
        });
        let served = axum::serve(listener, app).with_graceful_shutdown(async move {
            let _ = stop_rx.await;
        });
        tokio::select! {
            result = served => result.map_err(|e| e.to_string())?,
            _ = force_rx => {}
        }
        Ok(())
    })
}

/// Ends every session, and waits (a bounded time) for each to finish.
async fn end_sessions(front: Arc<Endpoint>) {
    let sessions: Vec<Arc<Downstream>> = front.sessions.lock().unwrap().drain().map(|(_, s)| s).collect();
    for s in &sessions {
        let _ = s.inputs.send(In::Gone("the client's session ended"));
    }
    let until = Instant::now() + GRACE * 3;
    while Instant::now() < until && sessions.iter().any(|s| !s.inputs.is_closed()) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

struct Endpoint {
    config: Config,
    /// By key: `legacy:<Mcp-Session-Id>` or `modern:<identity>`.
    sessions: Mutex<HashMap<String, Arc<Downstream>>>,
    next: AtomicU64,
}

/// One HTTP client's bridged session: its driver's inbox, and what the front keeps of it.
struct Downstream {
    inputs: mpsc::UnboundedSender<In<DIn>>,
    /// The mirrored parameters of the tools this client was listed (modern clients).
    tools: Arc<Mutex<ToolBook>>,
}

/// What the endpoint tells a session's front (besides a notification or an
/// answer of the client's, [`In::Line`], and its end, [`In::Gone`]).
enum DIn {
    /// A request: sent on with `front_id`, its messages back on `reply`.
    Request { message: Value, front_id: String, reply: mpsc::UnboundedSender<String> },
    /// A legacy client's GET stream.
    Listen(mpsc::UnboundedSender<String>),
    /// The client closed a request's stream before its answer.
    Closed(String),
}

fn error_body(id: Option<&Value>, code: i64, message: impl Into<String>) -> String {
    error_response(id.cloned().unwrap_or(Value::Null), code, message).to_string()
}

fn json_response(status: StatusCode, body: String) -> Response {
    let mut r = (status, body).into_response();
    r.headers_mut().insert("content-type", HeaderValue::from_static("application/json"));
    r
}

/// Whether `origin` may reach the bridge: loopback hosts, and those allowed by name.
fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    if allowed.iter().any(|a| a == origin) {
        return true;
    }
    let host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.split(':').next().unwrap_or_default(),
    };
    matches!(host, "localhost" | "127.0.0.1" | "::1")
}

async fn endpoint(State(front): State<Arc<Endpoint>>, method: Method, headers: HeaderMap, body: Body) -> Response {
    if let Some(origin) = headers.get("origin")
        && !origin.to_str().is_ok_and(|o| origin_allowed(o, &front.config.allowed_origins))
    {
        let origin = String::from_utf8_lossy(origin.as_bytes()).into_owned();
        return json_response(
            StatusCode::FORBIDDEN,
            error_body(None, modern::INVALID_REQUEST, format!("Forbidden: the Origin {origin:?} is not allowed")),
        );
    }
    let session_id = headers.get(rules::SESSION_ID_HEADER).and_then(|v| v.to_str().ok()).map(str::to_string);
    match method {
        Method::POST => post(front, headers, session_id, body).await,
        Method::GET => match session_id {
            None => StatusCode::METHOD_NOT_ALLOWED.into_response(),
            Some(id) => match front.sessions.lock().unwrap().get(&format!("legacy:{id}")).cloned() {
                None => json_response(StatusCode::NOT_FOUND, error_body(None, SESSION_NOT_FOUND, "Session not found")),
                Some(session) => {
                    let (tx, rx) = mpsc::unbounded_channel();
                    let _ = session.inputs.send(In::Front(DIn::Listen(tx)));
                    sse(rx, None, None)
                }
            },
        },
        Method::DELETE => match session_id {
            None => StatusCode::METHOD_NOT_ALLOWED.into_response(),
            Some(id) => match front.sessions.lock().unwrap().remove(&format!("legacy:{id}")) {
                None => json_response(StatusCode::NOT_FOUND, error_body(None, SESSION_NOT_FOUND, "Session not found")),
                Some(session) => {
                    let _ = session.inputs.send(In::Gone("the client's session ended"));
                    StatusCode::OK.into_response()
                }
            },
        },
        _ => StatusCode::METHOD_NOT_ALLOWED.into_response(),
    }
}

async fn post(front: Arc<Endpoint>, headers: HeaderMap, session_id: Option<String>, body: Body) -> Response {
    let max = front.config.max_message;
    let bytes: Bytes = match axum::body::to_bytes(body, max).await {
        Ok(b) => b,
        Err(_) => {
            let why = format!("the request body is over the bridge's --max-message {max} bytes");
            return json_response(StatusCode::PAYLOAD_TOO_LARGE, error_body(None, modern::INVALID_REQUEST, why));
        }
    };
    let message: Value = match serde_json::from_slice(&bytes) {
        Ok(m) => m,
        Err(e) => {
            return json_response(
                StatusCode::BAD_REQUEST,
                error_body(None, modern::PARSE_ERROR, format!("Parse error: {e}")),
            );
        }
    };
    let method = message.get("method").and_then(Value::as_str).map(str::to_string);
    let id = message.get("id").cloned();
    let (session, legacy_id) = match (&session_id, method.as_deref()) {
        (Some(sid), _) => match front.sessions.lock().unwrap().get(&format!("legacy:{sid}")).cloned() {
            Some(s) => (s, Some(sid.clone())),
            None => {
                return json_response(
                    StatusCode::NOT_FOUND,
                    error_body(id.as_ref(), SESSION_NOT_FOUND, "Session not found"),
                );
            }
        },
        // `initialize` is a legacy client's first request, unless its headers name
        // a 2026-07-28 version: then it is a method that version removed (below).
        (None, Some(method::INITIALIZE)) if !names_modern_version(&headers) => {
            let sid = uuid::Uuid::new_v4().to_string();
            let session = start_session(&front, &format!("legacy:{sid}"), &sid, false);
            (session, Some(sid))
        }
        (None, _) => {
            // A modern request: a method 2026-07-28 removed is not found (404); one
            // whose `_meta` lacks what every request carries is invalid (400); then its
            // headers must say what its body says.
            if let (Some(m), Some(_)) = (method.as_deref(), &id)
                && mcp_era_bridge::legacy_only_method(m)
            {
                let why = format!("Method not found: {m} is not a method of 2026-07-28");
                return json_response(StatusCode::NOT_FOUND, error_body(id.as_ref(), modern::METHOD_NOT_FOUND, why));
            }
            if id.is_some()
                && method.is_some()
                && let Some(missing) = missing_meta(&message)
            {
                let why = format!("Invalid params: the request's _meta lacks {missing}");
                return json_response(StatusCode::BAD_REQUEST, error_body(id.as_ref(), modern::INVALID_PARAMS, why));
            }
            if id.is_some() && method.is_some() {
                let tool = front.tool_headers(&headers, &message);
                let sent = headers.iter().map(|(n, v)| (n.as_str(), v.as_bytes()));
                if let Err(mismatch) = rules::validate_headers(sent, &message, tool.as_ref()) {
                    return json_response(StatusCode::BAD_REQUEST, mismatch.error_response(id.as_ref()).to_string());
                }
            }
            let identity = identity(&headers, &message);
            let key = format!("modern:{identity}");
            let existing = front.sessions.lock().unwrap().get(&key).cloned();
            let session = match existing {
                Some(s) if !s.inputs.is_closed() => s,
                _ => start_session(&front, &key, &short(&identity), true),
            };
            (session, None)
        }
    };
    let (Some(_), Some(id)) = (&method, id) else {
        // A notification, or an answer to the server: accepted.
        let _ = session.inputs.send(In::Line(message.to_string()));
        return StatusCode::ACCEPTED.into_response();
    };
    let front_id = format!("h{}", front.next.fetch_add(1, Ordering::Relaxed));
    let (reply, mut replies) = mpsc::unbounded_channel();
    if session.inputs.send(In::Front(DIn::Request { message, front_id: front_id.clone(), reply })).is_err() {
        return json_response(
            StatusCode::SERVICE_UNAVAILABLE,
            error_body(Some(&id), modern::INTERNAL_ERROR, "the session has ended"),
        );
    }
    let modern = legacy_id.is_none();
    // A client that goes before the first message (this future dropped) has
    // closed its request's stream: reported as the stream's own end is.
    let mut gone = ClosedBeforeAnswer(Some((front_id.clone(), session.inputs.clone())));
    // The first message decides the answer's form: the final one alone is a
    // JSON body (with the status a modern error asks for); anything else opens a stream.
    let Some(first) = replies.recv().await else {
        return json_response(
            StatusCode::SERVICE_UNAVAILABLE,
            error_body(Some(&id), modern::INTERNAL_ERROR, "the session ended before answering"),
        );
    };
    gone.0 = None;
    let final_answer = serde_json::from_str::<Value>(&first).ok().filter(|m| answers(m, &id));
    let mut response = match final_answer {
        Some(answer) => {
            // The status a 2026-07-28 server answers its error with (a legacy session's: 200).
            let code = answer.pointer("/error/code").and_then(Value::as_i64).filter(|_| modern);
            let status = code.map_or(200, mcp_era_bridge::http::modern_status_of_error);
            json_response(StatusCode::from_u16(status).unwrap_or(StatusCode::OK), first)
        }
        None => sse(replies, Some(first), Some((front_id, id, session.inputs.clone()))),
    };
    if let Some(sid) = legacy_id
        && let Ok(v) = HeaderValue::from_str(&sid)
    {
        response.headers_mut().insert(rules::SESSION_ID_HEADER, v);
    }
    response
}

/// Reports a request whose client went before its first message came
/// (`DIn::Closed`), unless disarmed.
struct ClosedBeforeAnswer(Option<(String, mpsc::UnboundedSender<In<DIn>>)>);

impl Drop for ClosedBeforeAnswer {
    fn drop(&mut self) {
        if let Some((front_id, inputs)) = self.0.take() {
            let _ = inputs.send(In::Front(DIn::Closed(front_id)));
        }
    }
}

/// Whether a request's headers name a protocol version of 2026-07-28 or later.
fn names_modern_version(headers: &HeaderMap) -> bool {
    headers
        .get(rules::PROTOCOL_VERSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v >= mcp_era_bridge::MODERN_VERSION)
}

/// What a 2026-07-28 request's `_meta` lacks of what every request carries
/// (its protocol version and the client's capabilities), if anything.
fn missing_meta(message: &Value) -> Option<&'static str> {
    let meta = message.pointer("/params/_meta");
    if meta.and_then(|m| m.get(rules::PROTOCOL_VERSION_META)).is_none() {
        return Some(rules::PROTOCOL_VERSION_META);
    }
    if meta.and_then(|m| m.get("io.modelcontextprotocol/clientCapabilities")).is_none() {
        return Some("io.modelcontextprotocol/clientCapabilities");
    }
    None
}

/// Whether a message is the answer to the client's request `id`.
fn answers(message: &Value, id: &Value) -> bool {
    message.get("method").is_none() && message.get("id") == Some(id)
}

/// An SSE answer: `first`, then what comes on `rx`, each line an event. When
/// `request` is given, the stream is a request's: its final answer gets the
/// client's id back, and a client that closes it before the end is reported.
fn sse(
    rx: mpsc::UnboundedReceiver<String>,
    first: Option<String>,
    request: Option<(String, Value, mpsc::UnboundedSender<In<DIn>>)>,
) -> Response {
    struct Stream {
        rx: mpsc::UnboundedReceiver<String>,
        first: Option<String>,
        request: Option<(String, Value, mpsc::UnboundedSender<In<DIn>>)>,
        done: bool,
    }
    impl Drop for Stream {
        fn drop(&mut self) {
            if !self.done
                && let Some((front_id, _, inputs)) = self.request.take()
            {
                let _ = inputs.send(In::Front(DIn::Closed(front_id)));
            }
        }
    }
    let state = Stream { rx, first, request, done: false };
    let events = stream::unfold(state, |mut s| async move {
        let line = match s.first.take() {
            Some(line) => line,
            None => s.rx.recv().await?,
        };
        if let Some((_, id, _)) = &s.request {
            // The final answer: the client closing the stream now cancels nothing.
            s.done |= serde_json::from_str::<Value>(&line).is_ok_and(|m| answers(&m, id));
        }
        Some((Ok::<_, Infallible>(SseEvent::default().data(line)), s))
    });
    let mut response = Sse::new(events).keep_alive(KeepAlive::default()).into_response();
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// A modern client's identity ([`client_identity`]): its `Authorization` header and its `clientInfo`.
fn identity(headers: &HeaderMap, message: &Value) -> String {
    client_identity(headers.get("authorization").map(HeaderValue::as_bytes), message)
}

/// The error a request on an unknown legacy session gets, with `404`: the
/// code the official SDKs answer it with (the schema names none).
const SESSION_NOT_FOUND: i64 = -32001;

/// A short label for logs and records (the identity may hold a credential).
fn short(identity: &str) -> String {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    format!("m{:016x}", BuildHasherDefault::<DefaultHasher>::default().hash_one(identity))
}

impl Endpoint {
    /// The headers the tool a modern client's `tools/call` names must carry, as
    /// its `tools/list` answers taught them.
    fn tool_headers(&self, headers: &HeaderMap, message: &Value) -> Option<ToolHeaders> {
        let key = format!("modern:{}", identity(headers, message));
        let session = self.sessions.lock().unwrap().get(&key).cloned()?;
        let book = session.tools.lock().unwrap();
        book.of_call(message).cloned()
    }
}

/// A new session under `key`, its driver started.
fn start_session(front: &Arc<Endpoint>, key: &str, label: &str, modern: bool) -> Arc<Downstream> {
    let (inputs, inbox) = mpsc::unbounded_channel();
    let tools = Arc::new(Mutex::new(ToolBook::default()));
    let session = Arc::new(Downstream { inputs: inputs.clone(), tools: tools.clone() });
    front.sessions.lock().unwrap().insert(key.to_string(), session.clone());
    let recorder = match &front.config.record {
        Some(path) => Recorder::open(path, json!(format!("{}/{label}", std::process::id()))).unwrap_or_else(|e| {
            eprintln!("mcp-era-bridge: {e}");
            Recorder::none()
        }),
        None => Recorder::none(),
    };
    let mut client = HttpFront {
        modern,
        router: HttpDownstream::new(modern),
        replies: HashMap::new(),
        listens: HashMap::new(),
        tools,
        label: label.to_string(),
    };
    let front = front.clone();
    let key = key.to_string();
    tokio::spawn(async move {
        let settings = Settings {
            upstream: &front.config.upstream,
            server_era: front.config.server_era,
            probe_timeout: front.config.probe_timeout,
            ignored_tools: &front.config.ignored_tools,
            max_message: front.config.max_message,
            recorder,
            log_prefix: format!("mcp-era-bridge [{}]", client.label),
        };
        if let Err(why) = driver::drive(&mut client, settings, inputs, inbox).await {
            eprintln!("mcp-era-bridge [{}]: {why}", client.label);
        }
        let mut sessions = front.sessions.lock().unwrap();
        if sessions.get(&key).is_some_and(|s| s.inputs.is_closed()) {
            sessions.remove(&key);
        }
    });
    session
}

/// One HTTP client's side of its session, as the driver sees it: the streams
/// each message to the client goes on, as its [`HttpDownstream`] routes them.
struct HttpFront {
    modern: bool,
    router: HttpDownstream,
    /// Each open request's stream, by front id.
    replies: HashMap<String, mpsc::UnboundedSender<String>>,
    /// Each legacy GET stream, by the router's number.
    listens: HashMap<u64, mpsc::UnboundedSender<String>>,
    /// What the endpoint reads of the tools (a modern client's header checks).
    tools: Arc<Mutex<ToolBook>>,
    label: String,
}

impl Front for HttpFront {
    type Input = DIn;

    fn input(&mut self, input: DIn) -> Fed {
        match input {
            DIn::Request { message, front_id, reply } => {
                let line = self.router.request(&front_id, message).to_string();
                self.replies.insert(front_id, reply);
                Fed::Session(line)
            }
            DIn::Listen(tx) => {
                let (stream, queued) = self.router.listen_opened();
                for line in queued {
                    let _ = tx.send(line);
                }
                self.listens.insert(stream, tx);
                Fed::Nothing
            }
            DIn::Closed(front_id) => {
                self.replies.remove(&front_id);
                // The modern shape's cancellation: the stream closed before its answer.
                match self.router.closed(&front_id) {
                    Some(cancel) => Fed::Session(cancel.to_string()),
                    None => Fed::Nothing,
                }
            }
        }
    }

    /// A message for the client, on the stream its router says.
    fn deliver(&mut self, line: String) {
        let mut line = line;
        loop {
            match self.router.route(line) {
                Route::Answer { front_id, method, line } => {
                    if self.modern && method == method::TOOLS_LIST {
                        self.learn_tools(&line);
                    }
                    if let Some(reply) = self.replies.remove(&front_id) {
                        let _ = reply.send(line);
                    }
                }
                Route::Request { front_id, line } => {
                    if let Some(reply) = self.replies.get(&front_id) {
                        let _ = reply.send(line);
                    }
                }
                Route::Listen { stream, line: text } => {
                    let sent = self.listens.get(&stream).is_some_and(|tx| tx.send(text.clone()).is_ok());
                    if !sent {
                        // A GET stream the client closed: routed again without it.
                        self.listens.remove(&stream);
                        self.router.listen_closed(stream);
                        line = text;
                        continue;
                    }
                }
                Route::Queued { dropped: Some(dropped) } => {
                    eprintln!("mcp-era-bridge [{}]: the client opened no stream; dropped: {dropped}", self.label)
                }
                Route::Queued { dropped: None } => {}
                Route::Nowhere(why) => eprintln!("mcp-era-bridge [{}]: {why}", self.label),
            }
            return;
        }
    }

    /// Every request still waiting hears why the session ended.
    fn finish(&mut self, why: &str) {
        for front_id in self.router.ended() {
            if let Some(reply) = self.replies.remove(&front_id) {
                let _ = reply.send(error_body(None, modern::INTERNAL_ERROR, format!("the session ended: {why}")));
            }
        }
    }

    fn refuse(&mut self, input: DIn, why: &str) {
        if let DIn::Request { message, reply, .. } = input {
            let _ = reply.send(error_body(message.get("id"), modern::INTERNAL_ERROR, why));
        }
    }
}

impl HttpFront {
    /// What a `tools/list` answer teaches of its tools' headers; the answer
    /// itself goes to the client as it came (a relay does not alter it).
    fn learn_tools(&self, line: &str) {
        if let Ok(mut message) = serde_json::from_str::<Value>(line) {
            self.tools.lock().unwrap().learn(&mut message, Invalid::Keep);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses_default_to_loopback_and_mcp() {
        assert_eq!(parse_listen("8080").unwrap(), (SocketAddr::from(([127, 0, 0, 1], 8080)), "/mcp".to_string()));
        assert_eq!(parse_listen("0.0.0.0:9/x").unwrap(), (SocketAddr::from(([0, 0, 0, 0], 9)), "/x".to_string()));
        assert!(parse_listen("nowhere").unwrap_err().contains("ADDR:PORT"));
    }

    #[test]
    fn origins_are_loopback_or_allowed_by_name() {
        for ok in ["http://localhost:3000", "http://127.0.0.1", "http://[::1]:8080"] {
            assert!(origin_allowed(ok, &[]), "{ok}");
        }
        for bad in ["http://evil.example", "http://localhost.evil.example", "null"] {
            assert!(!origin_allowed(bad, &[]), "{bad}");
        }
        assert!(origin_allowed("https://app.example", &["https://app.example".into()]));
    }
}
