//! `mcp-era-bridge [OPTIONS] [--] <SERVER COMMAND>...` or `mcp-era-bridge [OPTIONS] --connect URL`
//! (`src/cli.rs` has every option; `mcp-era-bridge --help` lists them).
//!
//! A stdio MCP proxy: the client talks to it on stdin and stdout, it runs the
//! server and talks to it on the server's, or reaches it over Streamable HTTP
//! (`--connect`, in `connect.rs`). It learns the server's era as the
//! spec's stdio binding says (a `server/discover` probe: a `DiscoverResult` is
//! modern, an error that no modern server gives is legacy), the client's from
//! its first message, and translates between them with `mcp_era_bridge`; when
//! both speak the same era every line passes unchanged. Logs go to stderr only.
//! `--record FILE` appends every message, both sides, as JSON lines
//! `{"session": PID, "side": "client" | "server", "dir": "c2s" | "s2c", "msg": ...}`,
//! with `{"session": PID, "closing": why}` when the client has gone (the
//! server's last words after it are recorded, not translated) and
//! `{"session": PID, "end": why}` last:
//! appended, each line whole and naming its bridge process, because one client
//! may start the same command twice at once (the TypeScript SDK v2 probes a
//! stdio server's era on a sibling process) and no session may overwrite
//! another's lines.
//!
//! One message (a line, a body, an SSE event) over `--max-message` bytes
//! (default [`cli::MAX_MESSAGE`]) is refused, with an error to the side that waits
//! for it when its id can be read, and the session goes on.
//!
//! It ends its server as a stdio client does: the server's stdin closed, then
//! SIGTERM, then SIGKILL, each after two seconds, recording what the server
//! says meanwhile. It does so when the client closes its stdin, and on SIGTERM
//! or SIGINT.

mod cli;
mod connect;
mod listen;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use mcp_era_bridge::{Action, Input, ServerEraChoice, Session, To};
use serde_json::{Value, json};

/// Where a server's side delivers what happens to it.
pub(crate) type Sink = std::sync::Arc<dyn Fn(Event) + Send + Sync>;

pub(crate) enum Event {
    Client(String),
    /// A request of the client's over `--max-message` (its id, its size): answered here, never passed on.
    ClientTooLarge(Value, usize),
    Server(String),
    ClientClosed,
    ServerClosed,
    /// SIGTERM or SIGINT: the session ends as if the client had closed.
    Stopped,
}

/// How long the server gets at each step of its ending.
pub(crate) const GRACE: Duration = Duration::from_secs(2);

/// Where the server is.
pub(crate) enum Upstream {
    /// `-- CMD`: a process on stdio.
    Command(Vec<String>),
    /// `--connect URL`: over Streamable HTTP.
    Http(Box<connect::Config>),
}

pub(crate) struct Options {
    /// `--listen`: serve HTTP clients instead of one on stdio.
    pub(crate) listen: Option<(std::net::SocketAddr, String)>,
    pub(crate) allowed_origins: Vec<String>,
    pub(crate) server_era: ServerEraChoice,
    pub(crate) record: Option<std::path::PathBuf>,
    pub(crate) max_message: usize,
    pub(crate) upstream: Upstream,
}

/// The JSON lines of `--record`, each naming its session: the process's id
/// (stdio), or the process's id and the HTTP session's (`--listen`).
pub(crate) struct Recorder(Option<std::fs::File>, Value);

impl Recorder {
    pub(crate) fn open(path: &std::path::Path, session: Value) -> Result<Recorder, String> {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path);
        Ok(Recorder(Some(file.map_err(|e| format!("{}: {e}", path.display()))?), session))
    }

    pub(crate) fn none() -> Recorder {
        Recorder(None, Value::Null)
    }

    pub(crate) fn record(&mut self, side: &str, dir: &str, line: &str) {
        let Some(file) = &mut self.0 else { return };
        let msg = serde_json::from_str::<Value>(line).unwrap_or_else(|_| Value::String(line.to_string()));
        // One write per line: appends from two processes do not interleave within one.
        let mut record = json!({"session": self.1, "side": side, "dir": dir, "msg": msg}).to_string();
        record.push('\n');
        let _ = file.write_all(record.as_bytes());
    }

    /// A line of the session's own: `closing` when the client has gone (what
    /// the server says after it is recorded but not translated), `end` last.
    pub(crate) fn mark(&mut self, what: &str, why: &str) {
        let Some(file) = &mut self.0 else { return };
        let line = json!({"session": self.1, what: why}).to_string() + "\n";
        let _ = file.write_all(line.as_bytes());
    }
}

/// Where the session's lines to the server go.
enum ServerWire {
    /// A process's stdin (None once closed).
    Stdin(Option<ChildStdin>),
    Http(connect::HttpServer),
}

struct Wires {
    server: ServerWire,
    stdout: std::io::Stdout,
    recorder: Recorder,
}

impl Wires {
    fn send_server(&mut self, line: &str) {
        match &mut self.server {
            ServerWire::Http(http) => http.send(line.to_string()),
            ServerWire::Stdin(None) => {
                eprintln!("mcp-era-bridge: not sent, the server's stdin is closed: {line}");
                return;
            }
            ServerWire::Stdin(Some(w)) => {
                if writeln!(w, "{line}").is_err() || w.flush().is_err() {
                    eprintln!("mcp-era-bridge: the server's stdin is closed");
                    self.server = ServerWire::Stdin(None);
                    return;
                }
            }
        }
        self.recorder.record("server", "c2s", line);
    }

    fn send_client(&mut self, line: &str) {
        self.recorder.record("client", "s2c", line);
        let mut out = self.stdout.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// A message over `--max-message`: what could be read of it.
struct TooLarge {
    size: usize,
    /// Its `id`, when it comes before anything that was cut.
    id: Option<Value>,
    /// Whether a `method` came before the cut (a request or notification, not an answer).
    has_method: bool,
}

/// The `id` and whether there is a `method`, read from the start of a message
/// cut short: serde_json reads the members in order until the cut.
fn leading_members(prefix: &[u8]) -> (Option<Value>, bool) {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
    struct Members<'a>(&'a mut (Option<Value>, bool));
    impl<'de> Visitor<'de> for Members<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON-RPC message")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "id" => self.0.0 = Some(map.next_value()?),
                    "method" => {
                        map.next_value::<IgnoredAny>()?;
                        self.0.1 = true;
                    }
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(())
        }
    }
    let mut found = (None, false);
    let _ = serde_json::Deserializer::from_slice(prefix).deserialize_map(Members(&mut found));
    found
}

/// The lines of `input`, each at most `max` bytes: `line` for each one, and
/// `too_large` for each longer one (skipped to its end, never held whole).
fn bounded_lines(
    input: impl Read,
    max: usize,
    mut line: impl FnMut(String) -> bool,
    mut too_large: impl FnMut(TooLarge) -> bool,
) {
    // What is kept of a line too large to read its id from.
    const PREFIX: usize = 64 * 1024;
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut reader).take(max as u64 + 1).read_until(b'\n', &mut buf);
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buf.len() > max && buf.last() != Some(&b'\n') {
            let mut size = buf.len();
            buf.truncate(PREFIX);
            // Skip to the end of the line.
            loop {
                let (done, used) = match reader.fill_buf() {
                    Ok([]) | Err(_) => (true, 0),
                    Ok(chunk) => match chunk.iter().position(|b| *b == b'\n') {
                        Some(at) => (true, at + 1),
                        None => (false, chunk.len()),
                    },
                };
                reader.consume(used);
                size += used;
                if done {
                    break;
                }
            }
            let (id, has_method) = leading_members(&buf);
            if !too_large(TooLarge { size, id, has_method }) {
                return;
            }
            continue;
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim();
        if !text.is_empty() && !line(text.to_string()) {
            return;
        }
    }
}

pub(crate) fn spawn(server: &[String], max: usize, events: Sink) -> Result<(Child, ChildStdin), String> {
    let mut child = Command::new(&server[0])
        .args(&server[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run {:?}: {e}", server[0]))?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    std::thread::spawn(move || {
        bounded_lines(
            stdout,
            max,
            |line| {
                events(Event::Server(line));
                true
            },
            |big| {
                eprintln!(
                    "mcp-era-bridge: the server sent a message of {} bytes, over --max-message {max}: not passed on",
                    big.size
                );
                // An answer too large becomes an error answering the same request.
                match big.id {
                    Some(id) if !big.has_method => {
                        let why = format!(
                            "the server's answer was {} bytes, over the bridge's --max-message {max}",
                            big.size
                        );
                        let error = mcp_era_bridge::error_response(id, mcp_era_bridge::modern::INTERNAL_ERROR, why);
                        events(Event::Server(error.to_string()));
                    }
                    _ => {}
                }
                true
            },
        );
        events(Event::ServerClosed);
    });
    Ok((child, stdin))
}

fn read_client(max: usize, events: Sender<Event>) {
    std::thread::spawn(move || {
        let lines = events.clone();
        bounded_lines(
            std::io::stdin().lock(),
            max,
            |line| lines.send(Event::Client(line)).is_ok(),
            |big| {
                eprintln!(
                    "mcp-era-bridge: the client sent a message of {} bytes, over --max-message {max}: not passed on",
                    big.size
                );
                match big.id {
                    Some(id) if big.has_method => events.send(Event::ClientTooLarge(id, big.size)).is_ok(),
                    _ => true,
                }
            },
        );
        let _ = events.send(Event::ClientClosed);
    });
}

/// Runs one session: the server started, then every event fed to the
/// [`Session`] and what it says done, until it finishes; the server ended as a
/// stdio client ends it. The protocol's decisions are all the session's.
fn run(o: Options) -> Result<(), String> {
    // The record first: a file that cannot be opened stops the bridge before any server runs.
    let recorder = match &o.record {
        Some(path) => Recorder::open(path, json!(std::process::id()))?,
        None => Recorder::none(),
    };
    let (tx, events) = channel();
    let sink: Sink = {
        let tx = tx.clone();
        std::sync::Arc::new(move |event| {
            let _ = tx.send(event);
        })
    };
    let (mut child, server) = match o.upstream {
        Upstream::Command(command) => {
            let (child, stdin) = spawn(&command, o.max_message, sink)?;
            (Some(child), ServerWire::Stdin(Some(stdin)))
        }
        Upstream::Http(config) => (None, ServerWire::Http(connect::HttpServer::start(*config, sink)?)),
    };
    let mut wires = Wires { server, stdout: std::io::stdout(), recorder };
    signals::watch(tx.clone());
    read_client(o.max_message, tx);
    let (mut session, mut actions) = Session::new(o.server_era, Instant::now());
    // When the session wants a tick, and the server's ending step once it is being ended.
    let mut wake: Option<Instant> = None;
    let mut ending: Option<Ending> = None;
    let mut why: Option<&str> = None;
    let mut result = Ok(());
    let mut server_closed = false;
    loop {
        for action in actions.drain(..) {
            match action {
                Action::Send(To::Server, line) => wires.send_server(&line),
                Action::Send(To::Client, line) => wires.send_client(&line),
                Action::WakeAt(at) => wake = Some(at),
                Action::Log(note) => eprintln!("mcp-era-bridge: {note}"),
                Action::EndServer => {
                    // What the server says from here on is recorded, not translated.
                    wires.recorder.mark("closing", why.unwrap_or("the client closed"));
                    match &mut wires.server {
                        ServerWire::Stdin(stdin) => {
                            drop(stdin.take());
                            ending = Some(Ending::StdinClosed(Instant::now() + GRACE));
                        }
                        // The HTTP side ends its session and says so (ServerClosed).
                        ServerWire::Http(http) => http.close(),
                    }
                }
                Action::Finish(done) => result = done,
            }
        }
        if session.is_over() {
            break;
        }
        let deadline = match (wake, &ending) {
            (Some(w), Some(e)) => Some(w.min(e.deadline())),
            (w, e) => w.or(e.as_ref().map(Ending::deadline)),
        };
        let event = match deadline {
            None => match events.recv() {
                Ok(e) => e,
                Err(_) => break,
            },
            Some(at) => match events.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => {
                    let now = Instant::now();
                    if let Some(step) = ending.as_ref().filter(|e| e.deadline() <= now)
                        && let Some(child) = child.as_mut()
                    {
                        match step.next(child) {
                            Some(next) => ending = Some(next),
                            None => break,
                        }
                    }
                    if wake.is_some_and(|w| w <= now) {
                        wake = None;
                        actions = session.handle(Input::Tick(now));
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            },
        };
        actions = match event {
            Event::Client(line) => {
                wires.recorder.record("client", "c2s", &line);
                session.handle(Input::FromClient(line))
            }
            Event::Server(line) => {
                wires.recorder.record("server", "s2c", &line);
                session.handle(Input::FromServer(line))
            }
            Event::ClientClosed | Event::Stopped => {
                let gone = if matches!(event, Event::Stopped) { "stopped by a signal" } else { "the client closed" };
                why.get_or_insert(gone);
                session.handle(Input::ClientGone)
            }
            Event::ClientTooLarge(id, size) => {
                let why = format!("the request was {size} bytes, over the bridge's --max-message {}", o.max_message);
                let error = mcp_era_bridge::error_response(id, mcp_era_bridge::modern::INVALID_REQUEST, why);
                wires.send_client(&error.to_string());
                Vec::new()
            }
            Event::ServerClosed => {
                server_closed = true;
                session.handle(Input::ServerGone)
            }
        };
    }
    match (&mut wires.server, child.as_mut()) {
        (ServerWire::Http(http), _) if !server_closed => {
            // The session ended on its own: the server's session is ended too.
            http.close();
            let until = Instant::now() + GRACE * 5;
            while let Ok(event) = events.recv_timeout(until.saturating_duration_since(Instant::now())) {
                if matches!(event, Event::ServerClosed) {
                    break;
                }
            }
        }
        (ServerWire::Stdin(stdin), Some(child)) => {
            drop(stdin.take());
            reap(child, ending.unwrap_or_else(|| Ending::StdinClosed(Instant::now() + GRACE)));
        }
        _ => {}
    }
    // The session's last line: a reader of the record knows it is complete.
    let end = match (&result, why) {
        (Err(e), _) => e.as_str(),
        (Ok(()), Some(why)) => why,
        (Ok(()), None) => "the server exited",
    };
    wires.recorder.mark("end", end);
    result
}

/// The server's output has ended (or the last step has passed): it is reaped,
/// stepped down from `step` the same way if it lingers.
pub(crate) fn reap(child: &mut Child, mut step: Ending) {
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        if Instant::now() < step.deadline() {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        match step.next(child) {
            Some(next) => step = next,
            None => {
                let _ = child.wait();
                return;
            }
        }
    }
}

/// Ending the server as the stdio binding says a client does: its stdin
/// closed, then SIGTERM, then SIGKILL, each step given [`GRACE`].
pub(crate) enum Ending {
    StdinClosed(Instant),
    Terminated(Instant),
    Killed(Instant),
}

impl Ending {
    fn deadline(&self) -> Instant {
        match self {
            Ending::StdinClosed(t) | Ending::Terminated(t) | Ending::Killed(t) => *t,
        }
    }

    /// The next step, taken; None after the last.
    fn next(&self, child: &mut Child) -> Option<Ending> {
        match self {
            Ending::StdinClosed(_) => {
                signals::terminate(child);
                Some(Ending::Terminated(Instant::now() + GRACE))
            }
            Ending::Terminated(_) => {
                let _ = child.kill();
                Some(Ending::Killed(Instant::now() + GRACE))
            }
            Ending::Killed(_) => None,
        }
    }
}

#[cfg(unix)]
pub(crate) mod signals {
    use std::process::Child;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::Sender;
    use std::time::Duration;

    use super::Event;

    static STOPPED: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_signal(_: libc::c_int) {
        // Only an atomic store: nothing else is safe in a signal handler.
        STOPPED.store(true, Ordering::SeqCst);
    }

    /// SIGTERM and SIGINT become an [`Event::Stopped`].
    pub fn watch(events: Sender<Event>) {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(libc::SIGTERM, handler);
            libc::signal(libc::SIGINT, handler);
        }
        std::thread::spawn(move || {
            while !STOPPED.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = events.send(Event::Stopped);
        });
    }

    pub fn terminate(child: &Child) {
        let Ok(pid) = libc::pid_t::try_from(child.id()) else { return };
        // SAFETY: kill(2) on our own child's pid, not yet reaped (try_wait said it runs).
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }
}

#[cfg(not(unix))]
mod signals {
    use std::process::Child;
    use std::sync::mpsc::Sender;

    use super::Event;

    /// No signals to watch: the session ends when the client closes.
    pub fn watch(_: Sender<Event>) {}

    /// No SIGTERM: the server is killed after the grace period.
    pub fn terminate(_: &Child) {}
}

fn main() -> ExitCode {
    use clap::Parser;
    let mut o = match cli::Cli::parse().options() {
        Ok(o) => o,
        Err(e) => e.exit(),
    };
    let result = match o.listen.take() {
        Some((addr, path)) => listen::serve(listen::Config {
            addr,
            path,
            upstream: o.upstream,
            server_era: o.server_era,
            max_message: o.max_message,
            allowed_origins: o.allowed_origins,
            record: o.record,
        }),
        None => run(o),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-era-bridge: {e}");
            ExitCode::from(1)
        }
    }
}
