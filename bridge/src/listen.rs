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
use std::process::Child;
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
use mcp_era_bridge::{Action, Input, ServerEraChoice, Session, To, error_response, method, modern};
use mcp_spec_types::http::{self as rules, ToolHeaders};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::{Ending, Event, GRACE, Recorder, Sink, Upstream, connect, reap, spawn};

/// What `--listen` serves, and what is behind it.
pub struct Config {
    pub addr: SocketAddr,
    pub path: String,
    pub upstream: Upstream,
    pub server_era: ServerEraChoice,
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
        let front = Arc::new(Front { config, sessions: Mutex::new(HashMap::new()), next: AtomicU64::new(1) });
        let app = Router::new().route(&path, axum::routing::any(endpoint)).with_state(front.clone());
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let (force_tx, force_rx) = tokio::sync::oneshot::channel::<()>();
        let (signal_tx, signal_rx) = std::sync::mpsc::channel();
        crate::signals::watch(signal_tx);
        let (signalled_tx, signalled_rx) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let _ = signal_rx.recv();
            let _ = signalled_tx.send(());
        });
        // On a signal: every session ended first (their streams close with
        // them), then the server shut down, forced if a connection lingers.
        tokio::spawn(async move {
            let _ = signalled_rx.await;
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
async fn end_sessions(front: Arc<Front>) {
    let sessions: Vec<Arc<Downstream>> = front.sessions.lock().unwrap().drain().map(|(_, s)| s).collect();
    for s in &sessions {
        let _ = s.inputs.send(DIn::Gone);
    }
    let until = Instant::now() + GRACE * 3;
    while Instant::now() < until && sessions.iter().any(|s| !s.inputs.is_closed()) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

struct Front {
    config: Config,
    /// By key: `legacy:<Mcp-Session-Id>` or `modern:<identity>`.
    sessions: Mutex<HashMap<String, Arc<Downstream>>>,
    next: AtomicU64,
}

/// One HTTP client's bridged session: its driver's inbox, and what the front keeps of it.
struct Downstream {
    inputs: mpsc::UnboundedSender<DIn>,
    /// The mirrored parameters of the tools this client was listed (modern clients).
    tools: Arc<Mutex<ToolBook>>,
}

/// What the front tells a session's driver.
enum DIn {
    /// A request: sent on with `front_id`, its messages back on `reply`.
    Request { message: Value, front_id: String, reply: mpsc::UnboundedSender<String> },
    /// A notification, or an answer to one of the server's requests.
    Other(Value),
    /// A legacy client's GET stream.
    Listen(mpsc::UnboundedSender<String>),
    /// The client closed a request's stream before its answer.
    Closed(String),
    /// A line from the server side.
    Server(Event),
    /// DELETE, or the bridge is stopping.
    Gone,
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

async fn endpoint(State(front): State<Arc<Front>>, method: Method, headers: HeaderMap, body: Body) -> Response {
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
                    let _ = session.inputs.send(DIn::Listen(tx));
                    sse(rx, None, None)
                }
            },
        },
        Method::DELETE => match session_id {
            None => StatusCode::METHOD_NOT_ALLOWED.into_response(),
            Some(id) => match front.sessions.lock().unwrap().remove(&format!("legacy:{id}")) {
                None => json_response(StatusCode::NOT_FOUND, error_body(None, SESSION_NOT_FOUND, "Session not found")),
                Some(session) => {
                    let _ = session.inputs.send(DIn::Gone);
                    StatusCode::OK.into_response()
                }
            },
        },
        _ => StatusCode::METHOD_NOT_ALLOWED.into_response(),
    }
}

async fn post(front: Arc<Front>, headers: HeaderMap, session_id: Option<String>, body: Body) -> Response {
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
        (None, Some(method::INITIALIZE)) => {
            let sid = uuid::Uuid::new_v4().to_string();
            let session = start_session(&front, &format!("legacy:{sid}"), &sid, false);
            (session, Some(sid))
        }
        (None, _) => {
            // A modern request: its headers must say what its body says.
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
        let _ = session.inputs.send(DIn::Other(message));
        return StatusCode::ACCEPTED.into_response();
    };
    let front_id = format!("h{}", front.next.fetch_add(1, Ordering::Relaxed));
    let (reply, mut replies) = mpsc::unbounded_channel();
    if session.inputs.send(DIn::Request { message, front_id: front_id.clone(), reply }).is_err() {
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
struct ClosedBeforeAnswer(Option<(String, mpsc::UnboundedSender<DIn>)>);

impl Drop for ClosedBeforeAnswer {
    fn drop(&mut self) {
        if let Some((front_id, inputs)) = self.0.take() {
            let _ = inputs.send(DIn::Closed(front_id));
        }
    }
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
    request: Option<(String, Value, mpsc::UnboundedSender<DIn>)>,
) -> Response {
    struct Stream {
        rx: mpsc::UnboundedReceiver<String>,
        first: Option<String>,
        request: Option<(String, Value, mpsc::UnboundedSender<DIn>)>,
        done: bool,
    }
    impl Drop for Stream {
        fn drop(&mut self) {
            if !self.done
                && let Some((front_id, _, inputs)) = self.request.take()
            {
                let _ = inputs.send(DIn::Closed(front_id));
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

impl Front {
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
fn start_session(front: &Arc<Front>, key: &str, label: &str, modern: bool) -> Arc<Downstream> {
    let (inputs, inbox) = mpsc::unbounded_channel();
    let tools = Arc::new(Mutex::new(ToolBook::default()));
    let session = Arc::new(Downstream { inputs: inputs.clone(), tools: tools.clone() });
    front.sessions.lock().unwrap().insert(key.to_string(), session.clone());
    let sink: Sink = Arc::new(move |event| {
        let _ = inputs.send(DIn::Server(event));
    });
    let recorder = match &front.config.record {
        Some(path) => Recorder::open(path, json!(format!("{}/{label}", std::process::id()))).unwrap_or_else(|e| {
            eprintln!("mcp-era-bridge: {e}");
            Recorder::none()
        }),
        None => Recorder::none(),
    };
    let driver = Driver {
        label: label.to_string(),
        modern,
        router: HttpDownstream::new(modern),
        replies: HashMap::new(),
        listens: HashMap::new(),
        tools,
        recorder,
        max_message: front.config.max_message,
    };
    let front = front.clone();
    let key = key.to_string();
    tokio::spawn(async move {
        driver.run(&front, sink, inbox).await;
        let mut sessions = front.sessions.lock().unwrap();
        if sessions.get(&key).is_some_and(|s| s.inputs.is_closed()) {
            sessions.remove(&key);
        }
    });
    session
}

/// The server side of one session.
enum Server {
    Process { child: Option<Child>, lines: Option<std::sync::mpsc::Sender<String>> },
    Http(connect::HttpServer),
}

impl Server {
    fn start(upstream: &Upstream, max: usize, sink: Sink) -> Result<Server, String> {
        match upstream {
            Upstream::Http(config) => Ok(Server::Http(connect::HttpServer::start((**config).clone(), sink)?)),
            Upstream::Command(command) => {
                let (child, mut stdin) = spawn(command, max, sink)?;
                // Writes on a thread of their own: a server that stops reading blocks it, not the runtime.
                let (lines, rx) = std::sync::mpsc::channel::<String>();
                std::thread::spawn(move || {
                    use std::io::Write;
                    for line in rx {
                        if writeln!(stdin, "{line}").and_then(|_| stdin.flush()).is_err() {
                            eprintln!("mcp-era-bridge: the server's stdin is closed");
                            return;
                        }
                    }
                });
                Ok(Server::Process { child: Some(child), lines: Some(lines) })
            }
        }
    }

    fn send(&mut self, line: String) {
        match self {
            Server::Http(http) => http.send(line),
            Server::Process { lines: Some(lines), .. } => {
                let _ = lines.send(line);
            }
            Server::Process { lines: None, .. } => {
                eprintln!("mcp-era-bridge: not sent, the server's stdin is closed: {line}")
            }
        }
    }

    /// Ends the server as its transport says: stdin closed, then signals; or the HTTP session ended.
    fn end(&mut self) {
        match self {
            Server::Http(http) => http.close(),
            Server::Process { child, lines } => {
                drop(lines.take());
                if let Some(mut child) = child.take() {
                    tokio::task::spawn_blocking(move || reap(&mut child, Ending::StdinClosed(Instant::now() + GRACE)));
                }
            }
        }
    }
}

/// What drives one session: its [`Session`], its server, and the streams each
/// message to the client goes on, as its [`HttpDownstream`] routes them.
struct Driver {
    label: String,
    modern: bool,
    router: HttpDownstream,
    /// Each open request's stream, by front id.
    replies: HashMap<String, mpsc::UnboundedSender<String>>,
    /// Each legacy GET stream, by the router's number.
    listens: HashMap<u64, mpsc::UnboundedSender<String>>,
    /// What the front reads of the tools (a modern client's header checks).
    tools: Arc<Mutex<ToolBook>>,
    recorder: Recorder,
    max_message: usize,
}

impl Driver {
    async fn run(mut self, front: &Arc<Front>, sink: Sink, mut inbox: mpsc::UnboundedReceiver<DIn>) {
        let mut server = match Server::start(&front.config.upstream, self.max_message, sink) {
            Ok(s) => s,
            Err(why) => {
                eprintln!("mcp-era-bridge [{}]: {why}", self.label);
                // Every request answered with why.
                while let Ok(input) = inbox.try_recv() {
                    if let DIn::Request { message, reply, .. } = input {
                        let _ = reply.send(error_body(message.get("id"), modern::INTERNAL_ERROR, why.clone()));
                    }
                }
                return;
            }
        };
        let (mut session, mut actions) = Session::new(front.config.server_era, Instant::now());
        let mut wake: Option<Instant> = None;
        let mut ended = false;
        loop {
            for action in actions.drain(..) {
                match action {
                    Action::Send(To::Server, line) => {
                        self.recorder.record("server", "c2s", &line);
                        server.send(line);
                    }
                    Action::Send(To::Client, line) => {
                        self.recorder.record("client", "s2c", &line);
                        self.deliver(line);
                    }
                    Action::WakeAt(at) => wake = Some(at),
                    Action::Log(note) => eprintln!("mcp-era-bridge [{}]: {note}", self.label),
                    Action::EndServer => {
                        self.recorder.mark("closing", "the client's session ended");
                        server.end();
                        ended = true;
                    }
                    Action::Finish(result) => {
                        let why = match &result {
                            Ok(()) => "the server exited".to_string(),
                            Err(e) => e.clone(),
                        };
                        if let Err(e) = &result {
                            eprintln!("mcp-era-bridge [{}]: {e}", self.label);
                        }
                        for front_id in self.router.ended() {
                            if let Some(reply) = self.replies.remove(&front_id) {
                                let why = format!("the session ended: {why}");
                                let _ = reply.send(error_body(None, modern::INTERNAL_ERROR, why));
                            }
                        }
                        self.recorder.mark("end", &why);
                    }
                }
            }
            if session.is_over() {
                if !ended {
                    server.end();
                }
                // What is still in flight hears why.
                inbox.close();
                while let Some(input) = inbox.recv().await {
                    if let DIn::Request { message, reply, .. } = input {
                        let _ =
                            reply.send(error_body(message.get("id"), modern::INTERNAL_ERROR, "the session has ended"));
                    }
                }
                return;
            }
            let input = match wake {
                Some(at) => {
                    tokio::select! {
                        input = inbox.recv() => input,
                        _ = tokio::time::sleep_until(at.into()) => {
                            wake = None;
                            actions = session.handle(Input::Tick(Instant::now()));
                            continue;
                        }
                    }
                }
                None => inbox.recv().await,
            };
            let Some(input) = input else { return };
            actions = match input {
                DIn::Request { message, front_id, reply } => {
                    let line = self.router.request(&front_id, message).to_string();
                    self.replies.insert(front_id, reply);
                    self.recorder.record("client", "c2s", &line);
                    session.handle(Input::FromClient(line))
                }
                DIn::Other(message) => {
                    let line = message.to_string();
                    self.recorder.record("client", "c2s", &line);
                    session.handle(Input::FromClient(line))
                }
                DIn::Listen(tx) => {
                    let (stream, queued) = self.router.listen_opened();
                    for line in queued {
                        let _ = tx.send(line);
                    }
                    self.listens.insert(stream, tx);
                    Vec::new()
                }
                DIn::Closed(front_id) => {
                    self.replies.remove(&front_id);
                    // The modern shape's cancellation: the stream closed before its answer.
                    match self.router.closed(&front_id) {
                        Some(cancel) => session.handle(Input::FromClient(cancel.to_string())),
                        None => Vec::new(),
                    }
                }
                DIn::Server(Event::Server(line)) => {
                    self.recorder.record("server", "s2c", &line);
                    session.handle(Input::FromServer(line))
                }
                DIn::Server(Event::ServerClosed) => session.handle(Input::ServerGone),
                DIn::Server(_) => Vec::new(),
                DIn::Gone => session.handle(Input::ClientGone),
            };
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
