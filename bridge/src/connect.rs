//! `--connect URL`: the server side of a session over Streamable HTTP, in
//! either shape of the transport. The session's lines go out as POSTs; what
//! comes back (a JSON body, or each event of an SSE stream) comes in as lines,
//! exactly as a stdio server's would. Part of the binary: the library has no
//! async runtime, and this runs one (tokio, current-thread) on a thread of its own.
//!
//! - **2026-07-28**: every request its own POST with the headers the
//!   transport names (`mcp_spec_types::http`: `MCP-Protocol-Version`,
//!   `Mcp-Method`, `Mcp-Name`, and each tool's `Mcp-Param-*`, learnt from the
//!   `tools/list` answers that pass, a tool whose annotations are invalid left
//!   out of them with a warning); `notifications/cancelled` is not sent but
//!   closes the request's stream, which is how this shape cancels.
//! - **2025-11-25 and before**: from `initialize` on, the session the server
//!   mints (`Mcp-Session-Id`) on every POST with the negotiated
//!   `MCP-Protocol-Version`, a GET stream for what the server sends on its own,
//!   the session ended with DELETE. A `404` on it means the session expired: the
//!   request is answered with an error (never sent twice), and a new session is
//!   opened with the client's own `initialize` before the next message.
//! - The era: the session's `server/discover` probe is a modern POST; a `400`,
//!   `404` or `405` whose body is no modern JSON-RPC error
//!   ([`mcp_era_bridge::modern_refusal`]) is answered to the session as a
//!   legacy server's refusal, so it falls back to `initialize`.
//!
//! Every fault is an error to the request that met it, with why: the server
//! unreachable, a status without a JSON-RPC answer, a stream that ends before
//! its answer, silence past a timeout (named), a message over `--max-message`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use mcp_spec_types::http::{self as rules, ToolHeaders};
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Client, StatusCode, Url};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use mcp_era_bridge::{error_response, method, modern};

use crate::{Event, Sink};

/// What `--connect` was given.
#[derive(Clone, Debug)]
pub struct Config {
    pub url: Url,
    /// `--header` and `--header-file`, on every request.
    pub headers: HeaderMap,
    /// Until the TCP (and TLS) connection is up.
    pub connect_timeout: Duration,
    /// Until the answer's status and headers have come.
    pub headers_timeout: Duration,
    /// The longest silence within an answer's body (none for streams that are
    /// meant to stay open: `subscriptions/listen`, the legacy GET stream).
    pub body_timeout: Duration,
    /// The largest message (a JSON body or one SSE event), in bytes.
    pub max_message: usize,
}

enum Command {
    Send(String),
    Close,
}

/// The server over HTTP: [`send`](Self::send) a line, receive lines as
/// [`Event::Server`], and [`Event::ServerClosed`] after [`close`](Self::close).
pub struct HttpServer {
    commands: mpsc::UnboundedSender<Command>,
}

impl HttpServer {
    /// Starts it on the running tokio runtime, or on a thread of its own when there is none.
    pub fn start(config: Config, events: Sink) -> Result<HttpServer, String> {
        // One crypto provider for rustls, chosen here: ring, which builds with
        // cc alone (aws-lc-rs, rustls' default, wants a longer C build). rustls
        // deprecates it for lacking post-quantum key exchange; classical TLS 1.3
        // and 1.2 are what MCP servers offer today. A second install is a no-op.
        #[allow(deprecated)]
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = Client::builder()
            .connect_timeout(config.connect_timeout)
            // A pooled connection is let go before common servers close an idle one (uvicorn's
            // and Node's keep-alive is 5 s; reqwest would keep it 90 s): a request is never
            // written to a connection its server is closing. A request whose connection is
            // reset all the same gets an error naming the reset; it is not sent again, as
            // the server may have acted on it.
            .pool_idle_timeout(IDLE_CONNECTION)
            .default_headers(config.headers.clone())
            .build()
            .map_err(|e| format!("cannot make the HTTP client: {e}"))?;
        let (commands, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared { client, config, events, state: Mutex::new(State::default()) });
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                handle.spawn(run(shared, rx));
            }
            Err(_) => {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| format!("cannot start the HTTP runtime: {e}"))?;
                std::thread::spawn(move || runtime.block_on(run(shared, rx)));
            }
        }
        Ok(HttpServer { commands })
    }

    pub fn send(&self, line: String) {
        let _ = self.commands.send(Command::Send(line));
    }

    /// Ends the session (DELETE, for a legacy server's), then says [`Event::ServerClosed`].
    pub fn close(&self) {
        let _ = self.commands.send(Command::Close);
    }
}

struct Shared {
    client: Client,
    config: Config,
    events: Sink,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The legacy shape, from `initialize` on.
    legacy: Option<LegacySession>,
    /// The client's `initialize`, to open a new session with when one expires.
    initialize: Option<Value>,
    /// The `initialized` notification that followed it.
    initialized: Option<Value>,
    /// The mirrored parameters of each tool the server listed (modern shape).
    tools: HashMap<String, ToolHeaders>,
    /// Requests in flight, by id: their method and how to stop them.
    in_flight: HashMap<String, (String, AbortHandle)>,
}

#[derive(Clone, Default)]
struct LegacySession {
    id: Option<String>,
    version: Option<String>,
    expired: bool,
    listening: bool,
}

fn key(id: &Value) -> String {
    id.to_string()
}

/// A JSON-RPC error answering request `id`, for a fault the server never answered.
fn fault(id: &Value, message: impl Into<String>) -> String {
    error_response(id.clone(), modern::INTERNAL_ERROR, message).to_string()
}

impl Shared {
    fn deliver(&self, line: String) {
        (self.events)(Event::Server(line));
    }

    fn log(&self, note: impl AsRef<str>) {
        eprintln!("mcp-era-bridge: {}", note.as_ref());
    }

    fn legacy(&self) -> Option<LegacySession> {
        self.state.lock().unwrap().legacy.clone()
    }
}

async fn run(shared: Arc<Shared>, mut commands: mpsc::UnboundedReceiver<Command>) {
    while let Some(command) = commands.recv().await {
        match command {
            Command::Send(line) => match serde_json::from_str::<Value>(&line) {
                Ok(message) => send(&shared, message).await,
                Err(e) => shared.log(format!("not sent to the server, not JSON ({e}): {line}")),
            },
            Command::Close => break,
        }
    }
    let (legacy, in_flight) = {
        let mut state = shared.state.lock().unwrap();
        (state.legacy.take(), std::mem::take(&mut state.in_flight))
    };
    for (_, (_, handle)) in in_flight {
        handle.abort();
    }
    if let Some(LegacySession { id: Some(id), version, .. }) = legacy {
        let mut delete = shared.client.delete(shared.config.url.clone()).header(rules::SESSION_ID_HEADER, &id);
        if let Some(version) = version {
            delete = delete.header(rules::PROTOCOL_VERSION_HEADER, version);
        }
        match tokio::time::timeout(shared.config.headers_timeout, delete.send()).await {
            Ok(Ok(r)) if r.status().is_success() || r.status() == StatusCode::METHOD_NOT_ALLOWED => {}
            Ok(Ok(r)) => shared.log(format!("ending the server's session: DELETE answered {}", r.status())),
            Ok(Err(e)) => shared.log(format!("ending the server's session: {e}")),
            Err(_) => shared.log("ending the server's session: no answer to DELETE in the headers timeout"),
        }
    }
    (shared.events)(Event::ServerClosed);
}

/// How long an idle pooled connection to the server is kept: under the 5 s
/// keep-alive of common servers (uvicorn, Node's http).
const IDLE_CONNECTION: Duration = Duration::from_secs(4);

/// One message of the session's to the server.
async fn send(shared: &Arc<Shared>, message: Value) {
    let method = message.get("method").and_then(Value::as_str).map(str::to_string);
    let id = message.get("id").cloned();
    match (method, id) {
        (Some(method), Some(id)) if method == method::INITIALIZE => {
            // Inline: nothing else goes out before the session it opens is known.
            {
                let mut state = shared.state.lock().unwrap();
                state.initialize = Some(message.clone());
                state.legacy = Some(LegacySession::default());
            }
            post_request(shared.clone(), message, id, method).await
        }
        (Some(method), Some(id)) => {
            reopen_if_expired(shared).await;
            let task = tokio::spawn(post_request(shared.clone(), message, id.clone(), method.clone()));
            shared.state.lock().unwrap().in_flight.insert(key(&id), (method, task.abort_handle()));
        }
        (Some(method), None) => notify(shared, message, &method).await,
        (None, Some(_)) => {
            // An answer to a legacy server's own request.
            reopen_if_expired(shared).await;
            let shared = shared.clone();
            tokio::spawn(async move {
                match post(&shared, &message, None).await {
                    Ok(r) if r.status().is_success() => {}
                    Ok(r) => shared.log(format!("an answer to the server was refused ({}): {message}", r.status())),
                    Err(e) => shared.log(format!("an answer to the server was not delivered ({e}): {message}")),
                }
            });
        }
        (None, None) => shared.log(format!("not sent to the server, not a JSON-RPC message: {message}")),
    }
}

async fn notify(shared: &Arc<Shared>, message: Value, method: &str) {
    if shared.legacy().is_none() && method == method::CANCELLED {
        // The modern shape cancels by closing the request's stream.
        let id = message.pointer("/params/requestId").cloned().unwrap_or(Value::Null);
        if let Some((_, handle)) = shared.state.lock().unwrap().in_flight.remove(&key(&id)) {
            handle.abort();
        }
        return;
    }
    if method == method::INITIALIZED {
        shared.state.lock().unwrap().initialized = Some(message.clone());
    }
    reopen_if_expired(shared).await;
    match post(shared, &message, None).await {
        Ok(r) if r.status().is_success() => {
            if method == method::INITIALIZED {
                open_listening(shared);
            }
        }
        Ok(r) => shared.log(format!("the server refused {method} ({})", r.status())),
        Err(e) => shared.log(format!("{method} was not delivered: {e}")),
    }
}

/// The legacy server's own stream (GET), once its session is initialized.
fn open_listening(shared: &Arc<Shared>) {
    let session = {
        let mut state = shared.state.lock().unwrap();
        match state.legacy.as_mut() {
            Some(legacy) if !legacy.listening => {
                legacy.listening = true;
                legacy.clone()
            }
            _ => return,
        }
    };
    let shared = shared.clone();
    tokio::spawn(async move {
        let mut get = shared.client.get(shared.config.url.clone()).header(ACCEPT, "text/event-stream");
        if let Some(id) = &session.id {
            get = get.header(rules::SESSION_ID_HEADER, id);
        }
        if let Some(version) = &session.version {
            get = get.header(rules::PROTOCOL_VERSION_HEADER, version);
        }
        let response = match tokio::time::timeout(shared.config.headers_timeout, get.send()).await {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => return shared.log(format!("the server's GET stream: {e}")),
            Err(_) => return shared.log("the server's GET stream: no answer in the headers timeout"),
        };
        if response.status() == StatusCode::METHOD_NOT_ALLOWED {
            return; // The server offers none: it sends on POST streams only.
        }
        if !response.status().is_success() {
            return shared.log(format!("the server's GET stream: {}", response.status()));
        }
        if let Err(why) = relay_stream(&shared, response, None).await {
            shared.log(format!("the server's GET stream ended: {why}"));
        }
    });
}

/// When the legacy session expired, a new one: the client's `initialize` and
/// `initialized` sent again (their answers are the bridge's, not passed on).
async fn reopen_if_expired(shared: &Arc<Shared>) {
    let (initialize, initialized) = {
        let state = shared.state.lock().unwrap();
        match &state.legacy {
            Some(legacy) if legacy.expired => (state.initialize.clone(), state.initialized.clone()),
            _ => return,
        }
    };
    shared.state.lock().unwrap().legacy = Some(LegacySession::default());
    let Some(initialize) = initialize else { return };
    shared.log("the server's session expired: opening a new one with the client's initialize");
    match post(shared, &initialize, None).await {
        Ok(response) if response.status().is_success() => {
            note_session(shared, &response);
            // The answer is read (its version kept) and not passed on: the client has had one.
            let answer = first_answer(&shared.config, response).await;
            if let Some(version) =
                answer.as_ref().and_then(|a| a.pointer("/result/protocolVersion")).and_then(Value::as_str)
                && let Some(legacy) = shared.state.lock().unwrap().legacy.as_mut()
            {
                legacy.version = Some(version.to_string());
            }
        }
        Ok(response) => shared.log(format!("a new session was refused: {}", response.status())),
        Err(e) => shared.log(format!("a new session could not be opened: {e}")),
    }
    if let Some(initialized) = initialized {
        match post(shared, &initialized, None).await {
            Ok(r) if r.status().is_success() => open_listening(shared),
            Ok(r) => shared.log(format!("the new session's initialized was refused: {}", r.status())),
            Err(e) => shared.log(format!("the new session's initialized: {e}")),
        }
    }
}

/// The first JSON-RPC message of an answer (JSON or SSE), read quietly.
async fn first_answer(config: &Config, response: reqwest::Response) -> Option<Value> {
    if is_event_stream(&response) {
        let mut events = response.bytes_stream().eventsource();
        while let Some(Ok(event)) = events.next().await {
            if let Ok(message) = serde_json::from_str::<Value>(&event.data) {
                return Some(message);
            }
        }
        None
    } else {
        read_body(config, response).await.ok().and_then(|b| serde_json::from_slice(&b).ok())
    }
}

fn is_event_stream(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/event-stream"))
}

/// The POST of `message` with the headers its shape needs; `tool_of` is the
/// called tool's mirrored parameters (modern `tools/call`).
async fn post(shared: &Shared, message: &Value, tool: Option<&ToolHeaders>) -> Result<reqwest::Response, String> {
    let mut request = shared
        .client
        .post(shared.config.url.clone())
        .header(ACCEPT, "application/json, text/event-stream")
        .header(CONTENT_TYPE, "application/json")
        .body(message.to_string());
    match shared.legacy() {
        Some(legacy) => {
            if let Some(id) = &legacy.id {
                request = request.header(rules::SESSION_ID_HEADER, id);
            }
            if let Some(version) = &legacy.version {
                request = request.header(rules::PROTOCOL_VERSION_HEADER, version);
            }
        }
        None if message.get("id").is_some() => {
            for (name, value) in rules::request_headers(message, tool).map_err(|e| e.to_string())? {
                request = request.header(name, value);
            }
        }
        None => {
            // A notification: its method, and its version when it names one.
            if let Some(method) = message.get("method").and_then(Value::as_str) {
                request = request.header(rules::METHOD_HEADER, method);
            }
            if let Some(v) =
                message.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion").and_then(Value::as_str)
            {
                request = request.header(rules::PROTOCOL_VERSION_HEADER, v);
            }
        }
    }
    match tokio::time::timeout(shared.config.headers_timeout, request.send()).await {
        Ok(Ok(response)) => Ok(response),
        Ok(Err(e)) => Err(describe(&e)),
        Err(_) => Err(format!(
            "the server sent no answer's headers in {:?} (--headers-timeout)",
            shared.config.headers_timeout
        )),
    }
}

fn describe(e: &reqwest::Error) -> String {
    let mut why = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        why.push_str(": ");
        why.push_str(&s.to_string());
        source = s.source();
    }
    if e.is_connect() { format!("cannot reach the server: {why}") } else { why }
}

fn note_session(shared: &Shared, response: &reqwest::Response) {
    let id = response.headers().get(rules::SESSION_ID_HEADER).and_then(|v| v.to_str().ok()).map(str::to_string);
    if let Some(legacy) = shared.state.lock().unwrap().legacy.as_mut() {
        legacy.id = id;
    }
}

/// A request's POST and its answer, delivered as lines; any fault an error to it.
async fn post_request(shared: Arc<Shared>, message: Value, id: Value, method: String) {
    let tool = (method == method::TOOLS_CALL)
        .then(|| message.pointer("/params/name").and_then(Value::as_str))
        .flatten()
        .and_then(|name| shared.state.lock().unwrap().tools.get(name).cloned());
    let result = match post(&shared, &message, tool.as_ref()).await {
        Ok(response) => answer(&shared, response, &id, &method).await,
        Err(why) => Err(why),
    };
    shared.state.lock().unwrap().in_flight.remove(&key(&id));
    if let Err(why) = result {
        shared.log(format!("{method} ({id}): {why}"));
        shared.deliver(fault(&id, format!("{method}: {why}")));
    }
}

/// The answer to request `id`: passed on, or Err(why) when it gave none.
async fn answer(shared: &Arc<Shared>, response: reqwest::Response, id: &Value, method: &str) -> Result<(), String> {
    let status = response.status();
    if method == method::INITIALIZE && status.is_success() {
        note_session(shared, &response);
    }
    if status == StatusCode::NOT_FOUND
        && let Some(legacy) = shared.state.lock().unwrap().legacy.as_mut().filter(|l| l.id.is_some())
    {
        legacy.expired = true;
        return Err(
            "the server's session expired (404); the request was not delivered and is not sent again: a new session opens with the next"
                .into(),
        );
    }
    if !status.is_success() {
        let body = read_body(&shared.config, response).await.unwrap_or_default();
        if method == method::DISCOVER && modern_refusal_or_legacy(status, &body) {
            // A legacy server: its refusal as a legacy stdio server gives it, so the session falls back.
            let text = String::from_utf8_lossy(&body);
            let why = format!("HTTP {status} to a modern request, with no modern error ({})", text.trim());
            shared.deliver(error_response(id.clone(), modern::METHOD_NOT_FOUND, why).to_string());
            return Ok(());
        }
        // A JSON-RPC error in the body answers the request, whatever id it names.
        if let Ok(mut error) = serde_json::from_slice::<Value>(&body)
            && error.get("error").is_some()
        {
            error["id"] = id.clone();
            shared.deliver(error.to_string());
            return Ok(());
        }
        let text = String::from_utf8_lossy(&body);
        return Err(format!("the server answered HTTP {status} with no JSON-RPC answer ({})", text.trim()));
    }
    if is_event_stream(&response) {
        return relay_stream(shared, response, Some((id, method))).await;
    }
    let body = read_body(&shared.config, response).await?;
    if body.is_empty() {
        return Err(format!("the server answered HTTP {status} with no body"));
    }
    let message: Value = serde_json::from_slice(&body).map_err(|e| format!("the server's answer is not JSON: {e}"))?;
    pass(shared, message, method);
    Ok(())
}

/// Whether a failed answer to the probe says the server is legacy.
fn modern_refusal_or_legacy(status: StatusCode, body: &[u8]) -> bool {
    matches!(status.as_u16(), 400 | 404 | 405) && mcp_era_bridge::modern_refusal(status.as_u16(), body).is_none()
}

/// A message from the server, passed on (a `tools/list` answer read for its
/// tools' headers first, and invalid tools left out, in the modern shape).
fn pass(shared: &Shared, mut message: Value, method: &str) {
    if method == method::TOOLS_LIST && shared.legacy().is_none() {
        learn_tools(shared, &mut message);
    }
    if method == method::INITIALIZE
        && let Some(version) = message.pointer("/result/protocolVersion").and_then(Value::as_str)
        && let Some(legacy) = shared.state.lock().unwrap().legacy.as_mut()
    {
        legacy.version = Some(version.to_string());
    }
    shared.deliver(message.to_string());
}

fn learn_tools(shared: &Shared, message: &mut Value) {
    let Some(tools) = message.pointer_mut("/result/tools").and_then(Value::as_array_mut) else { return };
    let mut state = shared.state.lock().unwrap();
    tools.retain(|tool| {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        match ToolHeaders::of(tool.get("inputSchema").unwrap_or(&Value::Null)) {
            Ok(headers) => {
                state.tools.insert(name, headers);
                true
            }
            Err(why) => {
                eprintln!("mcp-era-bridge: the tool {name:?} is left out of tools/list: its {why}");
                state.tools.remove(&name);
                false
            }
        }
    });
}

/// A whole body, refused past `--max-message` and after a silence of `--body-timeout`.
async fn read_body(config: &Config, mut response: reqwest::Response) -> Result<Vec<u8>, String> {
    let max = config.max_message;
    let mut body = Vec::new();
    loop {
        match tokio::time::timeout(config.body_timeout, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                if body.len() + chunk.len() > max {
                    return Err(format!("the server's answer is over {max} bytes (--max-message)"));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(Ok(None)) => return Ok(body),
            Ok(Err(e)) => return Err(format!("the server's answer was cut: {}", describe(&e))),
            Err(_) => {
                return Err(format!("the server's answer stalled for {:?} (--body-timeout)", config.body_timeout));
            }
        }
    }
}

/// Why an SSE stream's bytes stopped: the connection, or an event grown past `--max-message`.
#[derive(Debug)]
enum StreamFault {
    Http(reqwest::Error),
    TooLarge(usize),
}

impl std::fmt::Display for StreamFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamFault::Http(e) => f.write_str(&describe(e)),
            StreamFault::TooLarge(max) => write!(f, "an event is over {max} bytes (--max-message)"),
        }
    }
}

/// An SSE stream's messages passed on, until the answer to `request` (when
/// there is one) has come: Err(why) when the stream ends before it.
async fn relay_stream(
    shared: &Shared,
    response: reqwest::Response,
    request: Option<(&Value, &str)>,
) -> Result<(), String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let max = shared.config.max_message;
    // Streams meant to stay open have no silence limit.
    let long_lived = request.is_none_or(|(_, method)| method == method::LISTEN);
    // Bytes since the last whole event: an event that grows past the bound
    // stops the stream before it is whole, so memory stays bounded.
    let pending = Arc::new(AtomicUsize::new(0));
    let counted = pending.clone();
    let bytes = response.bytes_stream().map(move |chunk| {
        let chunk = chunk.map_err(StreamFault::Http)?;
        if counted.fetch_add(chunk.len(), Ordering::Relaxed) + chunk.len() > max {
            return Err(StreamFault::TooLarge(max));
        }
        Ok(chunk)
    });
    let mut events = bytes.eventsource();
    loop {
        let next = if long_lived {
            events.next().await
        } else {
            match tokio::time::timeout(shared.config.body_timeout, events.next()).await {
                Ok(next) => next,
                Err(_) => {
                    return Err(format!(
                        "the server's stream stalled for {:?} (--body-timeout)",
                        shared.config.body_timeout
                    ));
                }
            }
        };
        let event = match next {
            None => break,
            Some(Err(e)) => return Err(format!("the server's stream was cut: {e}")),
            Some(Ok(event)) => event,
        };
        pending.store(0, Ordering::Relaxed);
        if event.data.trim().is_empty() {
            continue; // A priming event or keep-alive.
        }
        let message: Value = match serde_json::from_str(&event.data) {
            Ok(m) => m,
            Err(e) => {
                shared.log(format!("an event of the server's stream is not JSON ({e}): {}", event.data));
                continue;
            }
        };
        let answers = request.is_some_and(|(id, _)| message.get("method").is_none() && message.get("id") == Some(id));
        pass(shared, message, request.map_or("", |(_, m)| m));
        if answers {
            return Ok(());
        }
    }
    match request {
        Some(_) => Err("the server's stream ended before its answer".into()),
        None => Ok(()),
    }
}

/// `Name: value` as a header, `${VAR}` taken from the environment.
pub fn header(spec: &str) -> Result<(HeaderName, HeaderValue), String> {
    let (name, value) = spec.split_once(':').ok_or_else(|| format!("{spec:?} is not `Name: value`"))?;
    let value = expand(value.trim())?;
    let name = HeaderName::from_bytes(name.trim().as_bytes()).map_err(|e| format!("{:?}: {e}", name.trim()))?;
    let value = HeaderValue::from_str(&value).map_err(|e| format!("the value of {name}: {e}"))?;
    Ok((name, value))
}

/// `text` with each `${VAR}` replaced by the variable's value; an unset one is an error.
fn expand(text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').ok_or_else(|| format!("an unclosed ${{ in {text:?}"))?;
        let var = &rest[start + 2..start + end];
        out.push_str(&std::env::var(var).map_err(|_| format!("${{{var}}} is not set"))?);
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_take_the_environment_and_refuse_what_is_unset() {
        // SAFETY: a test of its own; no other thread reads this variable.
        unsafe { std::env::set_var("MCP_BRIDGE_TEST_TOKEN", "s3cret") };
        let (name, value) = header("Authorization: Bearer ${MCP_BRIDGE_TEST_TOKEN}").unwrap();
        assert_eq!((name.as_str(), value.to_str().unwrap()), ("authorization", "Bearer s3cret"));
        assert!(header("X-A: ${MCP_BRIDGE_TEST_UNSET_VARIABLE}").unwrap_err().contains("is not set"));
        assert!(header("no colon").unwrap_err().contains("Name: value"));
        assert!(header("X-A: ${OPEN").unwrap_err().contains("unclosed"));
    }
}
