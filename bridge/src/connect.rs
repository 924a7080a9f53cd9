//! `--connect URL`: the driver of [`HttpUpstream`], the server's side of a
//! session over Streamable HTTP as a state machine (`mcp_era_bridge::http`,
//! whose docs say what each shape of the transport does). The session's lines
//! go into the machine; each HTTP exchange it asks for runs as a task of its own
//! on reqwest, whose status, body or SSE events and end come back to it through
//! one channel, in the order they happened; what it delivers goes to the
//! session as the server's lines. The machine decides; this only moves bytes
//! and keeps the time: a timeout ends an exchange with a fault naming it, and
//! a body or event over `--max-message` is refused before it is held whole.
//! Part of the binary: the library has no async runtime, and this runs one
//! (tokio, current-thread) on a thread of its own.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use mcp_era_bridge::http::{
    AuthReason, End, HttpMethod, HttpRequest, HttpUpstream, Status, StreamId, TimerId, Transport, UpstreamAction,
    UpstreamInput,
};
use mcp_spec_types::http as rules;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Client, Url};
use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use crate::driver::{Event, Sink};
use crate::oauth::Authorizer;

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
    /// `--transport`: Streamable HTTP, 2024-11-05's HTTP+SSE, or the one the server answers.
    pub transport: Transport,
    /// OAuth for a server that asks for it; `None` with `--oauth off`: a
    /// challenge is then answered with an error quoting it.
    pub oauth: Option<Arc<Authorizer>>,
    /// `--ipv4`: connect over IPv4 only.
    pub ipv4: bool,
    /// Keep the cookies the server sets and send them back (`--disable-cookies` turns it off).
    pub cookies: bool,
}

/// What the driver's loop takes: the session's lines and its end, and what
/// each exchange reports.
enum Command {
    Send(String),
    Close,
    Http(UpstreamInput),
    /// What came of authorizing, with the credentials' generation.
    Authorized(Result<(mcp_era_bridge::http::Credentials, u64), String>),
}

/// How long an idle pooled connection to the server is kept: under the 5 s
/// keep-alive of common servers (uvicorn, Node's http).
const IDLE_CONNECTION: Duration = Duration::from_secs(4);

/// How long a response whose answer came is let run to its end (a server
/// closes a request's stream once it has answered; one that keeps it open
/// past this has it cut).
const FINISH_WITHIN: Duration = Duration::from_secs(1);

/// The server over HTTP: [`send`](Self::send) a line, receive lines as
/// [`Event::Server`], and [`Event::ServerClosed`] after [`close`](Self::close).
pub struct HttpServer {
    commands: mpsc::UnboundedSender<Command>,
}

impl HttpServer {
    /// Starts it on the running tokio runtime, or on a thread of its own when there is none.
    pub fn start(config: Config, events: Sink) -> Result<HttpServer, String> {
        install_crypto();
        let client = Client::builder()
            .connect_timeout(config.connect_timeout)
            // A pooled connection is let go before common servers close an idle one (uvicorn's
            // and Node's keep-alive is 5 s; reqwest would keep it 90 s): a request is never
            // written to a connection its server is closing. A request whose connection is
            // reset all the same gets an error naming the reset; it is not sent again, as
            // the server may have acted on it.
            .pool_idle_timeout(IDLE_CONNECTION)
            .default_headers(config.headers.clone())
            // A load balancer's sticky cookie, kept for the session in memory (reqwest's jar:
            // sent back only where its Domain and Path say), never written anywhere.
            .cookie_store(config.cookies)
            .local_address(config.ipv4.then_some(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)))
            .build()
            .map_err(|e| format!("cannot make the HTTP client: {e}"))?;
        let (commands, rx) = mpsc::unbounded_channel();
        let io = Arc::new(Io { client, config });
        let driver = run(io, events, commands.clone(), rx);
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                handle.spawn(driver);
            }
            Err(_) => {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| format!("cannot start the HTTP runtime: {e}"))?;
                std::thread::spawn(move || runtime.block_on(driver));
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

/// One crypto provider for rustls, chosen here, before any HTTP client is
/// made: ring, which builds with cc alone (aws-lc-rs, rustls' default, wants a
/// longer C build). rustls deprecates it for lacking post-quantum key exchange;
/// classical TLS 1.3 and 1.2 are what MCP servers offer today. A second install is a no-op.
pub fn install_crypto() {
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// What every exchange needs: the client and the bounds.
struct Io {
    client: Client,
    config: Config,
}

/// The one loop: the machine fed in order, its actions carried out.
async fn run(
    io: Arc<Io>,
    events: Sink,
    commands: mpsc::UnboundedSender<Command>,
    mut rx: mpsc::UnboundedReceiver<Command>,
) {
    let mut machine = HttpUpstream::with_transport(io.config.transport, io.config.body_timeout);
    let mut exchanges: HashMap<StreamId, AbortHandle> = HashMap::new();
    let mut timers: HashMap<TimerId, AbortHandle> = HashMap::new();
    // The credentials of an earlier run, before anything is sent: they go with the first request.
    // `seen`: the generation of the credentials this session has (sessions share an authorizer).
    let mut seen = 0;
    let mut flow: Option<AbortHandle> = None;
    let mut stored = match &io.config.oauth {
        Some(oauth) => oauth.stored().await.map(|answer| Command::Authorized(Ok(answer))),
        None => None,
    };
    loop {
        let command = match stored.take() {
            Some(command) => command,
            None => match rx.recv().await {
                Some(command) => command,
                None => break,
            },
        };
        let input = match command {
            // As it came: the machine reads it to route it, and sends its text.
            Command::Send(line) => UpstreamInput::SendText(line),
            Command::Close => UpstreamInput::Close,
            Command::Http(input) => input,
            Command::Authorized(answer) => {
                flow = None;
                UpstreamInput::Authorized(answer.map(|(credentials, generation)| {
                    seen = generation;
                    credentials
                }))
            }
        };
        match &input {
            UpstreamInput::Began { status, .. } if (200..300).contains(&status.code) => {
                if let Some(oauth) = &io.config.oauth {
                    oauth.succeeded();
                }
            }
            UpstreamInput::Ended { stream, .. } => drop(exchanges.remove(stream)),
            UpstreamInput::Timer(timer) => drop(timers.remove(timer)),
            _ => {}
        }
        for action in machine.handle(input) {
            match action {
                UpstreamAction::Http(request) => {
                    let stream = request.stream;
                    let task = tokio::spawn(exchange(io.clone(), request, commands.clone()));
                    exchanges.insert(stream, task.abort_handle());
                }
                UpstreamAction::Stop(stream) => {
                    if let Some(task) = exchanges.remove(&stream) {
                        task.abort();
                    }
                }
                // Read to its end, its connection goes back to the pool for the next request
                // (cut, it would be closed, and the next request would open another).
                UpstreamAction::Finish(stream) => {
                    if let Some(task) = exchanges.remove(&stream) {
                        tokio::spawn(async move {
                            tokio::time::sleep(FINISH_WITHIN).await;
                            task.abort();
                        });
                    }
                }
                UpstreamAction::Deliver(line) => events(Event::Server(line)),
                UpstreamAction::Log(note) => eprintln!("mcp-era-bridge: {note}"),
                UpstreamAction::Wake { timer, after } => {
                    let report = commands.clone();
                    let task = tokio::spawn(async move {
                        tokio::time::sleep(after).await;
                        let _ = report.send(Command::Http(UpstreamInput::Timer(timer)));
                    });
                    timers.insert(timer, task.abort_handle());
                }
                UpstreamAction::Authorize(reason) => match &io.config.oauth {
                    // The flow runs beside the loop: what comes meanwhile still moves. Its
                    // answer always comes: a flow that panicked is an error too.
                    Some(oauth) => {
                        let (oauth, report) = (oauth.clone(), commands.clone());
                        let task = tokio::spawn(async move { oauth.authorize(reason, seen).await });
                        flow = Some(task.abort_handle());
                        tokio::spawn(async move {
                            let answer = match task.await {
                                Ok(answer) => answer,
                                Err(e) if e.is_cancelled() => return,
                                Err(e) => Err(format!("the authorization failed: {e}")),
                            };
                            if let Err(why) = &answer {
                                eprintln!("mcp-era-bridge: authorization failed: {why}");
                            }
                            let _ = report.send(Command::Authorized(answer));
                        });
                    }
                    None => {
                        let _ = commands.send(Command::Authorized(Err(unauthorized(&reason))));
                    }
                },
                UpstreamAction::Closed => {
                    for (_, task) in exchanges.drain().chain(timers.drain().map(|(_, t)| (StreamId(0), t))) {
                        task.abort();
                    }
                    // A flow still waiting for the user ends with the session (its listener closed).
                    if let Some(flow) = flow.take() {
                        flow.abort();
                    }
                    return events(Event::ServerClosed);
                }
            }
        }
    }
}

/// Why the server's credentials cannot be had with `--oauth off`: a server
/// that asks for them gets the user's token (`--header`) or nothing.
fn unauthorized(reason: &AuthReason) -> String {
    let asked = match reason {
        AuthReason::Challenged { status, www_authenticate: Some(challenge) } => {
            format!("HTTP {status}, WWW-Authenticate: {challenge}")
        }
        AuthReason::Challenged { status, www_authenticate: None } => format!("HTTP {status}"),
        AuthReason::Expiring => "the credentials expire".into(),
    };
    format!("{asked}; --oauth is off: give the bridge a token with --header 'Authorization: Bearer …'")
}

/// One HTTP exchange: its status, its body (whole, or each event of its
/// stream), and its end, reported to the machine; a fault ends it with why.
async fn exchange(io: Arc<Io>, request: HttpRequest, report: mpsc::UnboundedSender<Command>) {
    let stream = request.stream;
    let send = |input: UpstreamInput| {
        let _ = report.send(Command::Http(input));
    };
    let end = match run_exchange(&io, request, &send).await {
        Ok(()) => End::Finished,
        Err(end) => end,
    };
    send(UpstreamInput::Ended { stream, end });
}

async fn run_exchange(io: &Io, request: HttpRequest, send: &impl Fn(UpstreamInput)) -> Result<(), End> {
    // The HTTP+SSE transport's messages go where its endpoint event said, relative to the server's URL.
    let url = match &request.url {
        Some(endpoint) => {
            let url = io
                .config
                .url
                .join(endpoint)
                .map_err(|e| End::Failed(format!("the server's endpoint {endpoint:?} is no URL: {e}")))?;
            // Messages (and the credentials on them) go to the server's origin only.
            if url.origin() != io.config.url.origin() {
                return Err(End::Failed(format!(
                    "the server's endpoint {url} is on another origin than {}: refused",
                    io.config.url
                )));
            }
            url
        }
        None => io.config.url.clone(),
    };
    let mut builder = match request.method {
        HttpMethod::Post => io.client.post(url),
        HttpMethod::Get => io.client.get(url),
        HttpMethod::Delete => io.client.delete(url),
    };
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    if let Some(body) = request.body {
        builder = builder.body(body);
    }
    let response = match tokio::time::timeout(io.config.headers_timeout, builder.send()).await {
        Ok(Ok(response)) => response,
        Ok(Err(e)) => return Err(End::Failed(describe(&e))),
        Err(_) => {
            return Err(End::Failed(format!(
                "the server sent no answer's headers in {:?} (--headers-timeout)",
                io.config.headers_timeout
            )));
        }
    };
    let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok()).map(String::from);
    let session_id = header(rules::SESSION_ID_HEADER);
    let www_authenticate = header(reqwest::header::WWW_AUTHENTICATE.as_str());
    let event_stream = is_event_stream(&response);
    let status_ok = response.status().is_success();
    let status = Status::new(response.status().as_u16(), response.status().canonical_reason());
    send(UpstreamInput::Began { stream: request.stream, status, session_id, www_authenticate });
    if event_stream {
        relay_stream(&io.config, response, request.stream, request.long_lived, send).await
    } else if status_ok {
        relay_json(&io.config, response, request.stream, request.long_lived, send).await
    } else {
        let body = read_body(&io.config, response).await?;
        send(UpstreamInput::Body { stream: request.stream, body });
        Ok(())
    }
}

fn is_event_stream(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/event-stream"))
}

fn describe(e: &reqwest::Error) -> String {
    let why = error_chain(e);
    if e.is_connect() { format!("cannot reach the server: {why}") } else { why }
}

/// An error and each of its causes, `: `-separated (reqwest's own message names the request only).
pub(crate) fn error_chain(e: &reqwest::Error) -> String {
    let mut why = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        why.push_str(": ");
        why.push_str(&s.to_string());
        source = s.source();
    }
    why
}

/// A whole body, refused past `--max-message` and after a silence of `--body-timeout`.
async fn read_body(config: &Config, mut response: reqwest::Response) -> Result<Vec<u8>, End> {
    let max = config.max_message;
    let mut body = Vec::new();
    loop {
        match unless_silent(config, false, "answer", response.chunk()).await? {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > max {
                    return Err(End::Failed(format!("the server's answer is over {max} bytes (--max-message)")));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(e) => return Err(End::Cut(format!("the server's answer was cut: {}", describe(&e)))),
        }
    }
}

/// `next`, awaited within `--body-timeout` of silence, unless what it reads
/// (`what`: an answer, a stream) is meant to stay open.
async fn unless_silent<T>(
    config: &Config,
    long_lived: bool,
    what: &str,
    next: impl std::future::Future<Output = T>,
) -> Result<T, End> {
    if long_lived {
        return Ok(next.await);
    }
    tokio::time::timeout(config.body_timeout, next)
        .await
        .map_err(|_| End::Failed(format!("the server's {what} stalled for {:?} (--body-timeout)", config.body_timeout)))
}

/// A JSON answer's messages reported as each is whole: one JSON body, or,
/// from a server that streams JSON values one after another in an
/// `application/json` body (newline-delimited, as some servers' 2026-07-28
/// handlers do for a `subscriptions/listen` stream), each value as it comes, as
/// a client reading it directly would. A value is bounded by `--max-message`;
/// a body that is not JSON, or is cut within a value, is an error.
async fn relay_json(
    config: &Config,
    mut response: reqwest::Response,
    stream: StreamId,
    long_lived: bool,
    send: &impl Fn(UpstreamInput),
) -> Result<(), End> {
    let max = config.max_message;
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let chunk = match unless_silent(config, long_lived, "answer", response.chunk()).await? {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break,
            Err(e) => return Err(End::Cut(format!("the server's answer was cut: {}", describe(&e)))),
        };
        pending.extend_from_slice(&chunk);
        // Every whole value at the front of what came, reported; the rest kept.
        let mut values = serde_json::Deserializer::from_slice(&pending).into_iter::<serde::de::IgnoredAny>();
        let mut start = 0;
        let mut whole = Vec::new();
        loop {
            match values.next() {
                Some(Ok(_)) => {
                    let end = values.byte_offset();
                    whole.push(String::from_utf8_lossy(&pending[start..end]).trim().to_string());
                    start = end;
                }
                Some(Err(e)) if e.is_eof() => break,
                Some(Err(e)) => return Err(End::Failed(format!("the server's answer is not JSON: {e}"))),
                None => break,
            }
        }
        pending.drain(..start);
        if pending.len() > max {
            return Err(End::Failed(format!("the server's answer is over {max} bytes (--max-message)")));
        }
        for data in whole {
            send(UpstreamInput::Event { stream, data, id: None, retry: None, event: "message".into() });
        }
    }
    if pending.iter().any(|b| !b.is_ascii_whitespace()) {
        return Err(End::Cut("the server's answer was cut within a JSON value".into()));
    }
    Ok(())
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

/// Each event of an SSE stream reported, until it ends; Err(why) when it is
/// cut, stalls (streams meant to stay open aside) or grows an event past the bound.
async fn relay_stream(
    config: &Config,
    response: reqwest::Response,
    stream: StreamId,
    long_lived: bool,
    send: &impl Fn(UpstreamInput),
) -> Result<(), End> {
    let max = config.max_message;
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
        match unless_silent(config, long_lived, "stream", events.next()).await? {
            None => return Ok(()),
            Some(Err(eventsource_stream::EventStreamError::Transport(StreamFault::TooLarge(max)))) => {
                return Err(End::Failed(format!("the server's stream: an event is over {max} bytes (--max-message)")));
            }
            Some(Err(e)) => return Err(End::Cut(format!("the server's stream was cut: {e}"))),
            Some(Ok(event)) => {
                pending.store(0, Ordering::Relaxed);
                // The stream's last event id ("" before any) and the retry this event named.
                let id = Some(event.id).filter(|id| !id.is_empty());
                send(UpstreamInput::Event { stream, data: event.data, id, retry: event.retry, event: event.event });
            }
        }
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
pub(crate) fn expand(text: &str) -> Result<String, String> {
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
