//! The one driver: runs a [`Session`] between a client's side (a [`Front`]:
//! the client on stdio, or one HTTP client of `--listen`) and a server's
//! ([`ServerSide`]: a process on stdio, or `--connect`'s Streamable HTTP), on
//! tokio. It feeds the session what happens, carries out what it says, records
//! every message at one place, and ends the server and the record at one
//! place. The protocol's decisions are the session's and the state machines';
//! this only moves lines.

use std::process::Child;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_era_bridge::{Action, Input, ServerEraChoice, Session, To};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::{Upstream, connect, stdio};

/// What a server's side reports: a line, or its end.
pub(crate) enum Event {
    Server(String),
    ServerClosed,
}

/// Where a server's side delivers what happens to it.
pub(crate) type Sink = Arc<dyn Fn(Event) + Send + Sync>;

/// How long the server gets at each step of its ending.
pub(crate) const GRACE: Duration = Duration::from_secs(2);

/// The client's side of a session, as the driver sees it.
pub(crate) trait Front {
    /// What the front's own I/O reports (a request with its reply stream, a
    /// stream closed, a line over the bound).
    type Input: Send + 'static;
    /// Takes an input of the front's.
    fn input(&mut self, input: Self::Input) -> Fed;
    /// A line for the client.
    fn deliver(&mut self, line: String);
    /// The session is over: whatever still waits hears why.
    fn finish(&mut self, why: &str);
    /// An input that came after the end, answered with why.
    fn refuse(&mut self, input: Self::Input, why: &str);
}

/// What an input of the front's comes to.
pub(crate) enum Fed {
    /// A line for the session, from the client.
    Session(String),
    /// A line for the client, answered by the front itself (a line over the bound).
    Client(String),
    Nothing,
}

/// What the driver takes.
pub(crate) enum In<I> {
    /// A line from the client.
    Line(String),
    /// An input of the front's.
    Front(I),
    /// A line or the end of the server's side.
    Server(Event),
    /// The client has gone (its stdin closed, a DELETE, a signal): why, for the record.
    Gone(&'static str),
}

/// The server's side of a session.
pub(crate) enum ServerSide {
    /// A process on stdio: its lines written by a thread of their own (a server
    /// that stops reading blocks that thread, not the runtime).
    Process {
        child: Option<Child>,
        lines: Option<std::sync::mpsc::Sender<String>>,
        /// Once it is being ended: the thread that steps it down and reaps it.
        reaper: Option<tokio::task::JoinHandle<()>>,
    },
    Http(connect::HttpServer),
}

impl ServerSide {
    pub(crate) fn start(upstream: &Upstream, max: usize, sink: Sink) -> Result<ServerSide, String> {
        match upstream {
            Upstream::Http(config) => Ok(ServerSide::Http(connect::HttpServer::start((**config).clone(), sink)?)),
            Upstream::Command(command) => {
                let (child, mut stdin) = stdio::spawn(command, max, sink)?;
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
                Ok(ServerSide::Process { child: Some(child), lines: Some(lines), reaper: None })
            }
        }
    }

    fn send(&mut self, line: String) {
        match self {
            ServerSide::Http(http) => http.send(line),
            ServerSide::Process { lines: Some(lines), .. } => {
                let _ = lines.send(line);
            }
            ServerSide::Process { lines: None, .. } => {
                eprintln!("mcp-era-bridge: not sent, the server's stdin is closed: {line}")
            }
        }
    }

    /// Ends the server as its transport says: a process's stdin closed, then
    /// SIGTERM, then SIGKILL, [`GRACE`] apart (on a blocking thread, which
    /// reaps it); an HTTP session ended (DELETE). Its end comes as [`Event::ServerClosed`].
    fn end(&mut self) {
        match self {
            ServerSide::Http(http) => http.close(),
            ServerSide::Process { child, lines, reaper } => {
                drop(lines.take());
                if let Some(mut child) = child.take() {
                    let step = stdio::Ending::StdinClosed(Instant::now() + GRACE);
                    *reaper = Some(tokio::task::spawn_blocking(move || stdio::reap(&mut child, step)));
                }
            }
        }
    }

    /// Waits until an ended process is reaped (its steps bound the wait): no
    /// server outlives the bridge, not even as a zombie.
    async fn reaped(&mut self) {
        if let ServerSide::Process { reaper: Some(reaper), .. } = self {
            let _ = reaper.await;
        }
    }
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

    fn record(&mut self, side: &str, dir: &str, line: &str) {
        use std::io::Write;
        let Some(file) = &mut self.0 else { return };
        let msg = serde_json::from_str::<Value>(line).unwrap_or_else(|_| Value::String(line.to_string()));
        // One write per line: appends from two processes do not interleave within one.
        let mut record = json!({"session": self.1, "side": side, "dir": dir, "msg": msg}).to_string();
        record.push('\n');
        let _ = file.write_all(record.as_bytes());
    }

    /// A line of the session's own: `closing` when the client has gone (what
    /// the server says after it is recorded but not translated), `end` last.
    fn mark(&mut self, what: &str, why: &str) {
        use std::io::Write;
        let Some(file) = &mut self.0 else { return };
        let line = json!({"session": self.1, what: why}).to_string() + "\n";
        let _ = file.write_all(line.as_bytes());
    }
}

/// What one session runs with.
pub(crate) struct Settings<'a> {
    pub upstream: &'a Upstream,
    pub server_era: ServerEraChoice,
    /// `--probe-timeout`: from the server's start.
    pub probe_timeout: Duration,
    /// `--ignore-tool`.
    pub ignored_tools: &'a [String],
    pub max_message: usize,
    pub recorder: Recorder,
    /// Before each log line: `mcp-era-bridge` or `mcp-era-bridge [label]`.
    pub log_prefix: String,
}

/// Runs one session to its end: the server started, every input fed to the
/// session and what it says done, the server ended, the record's last line
/// written. `feed` is the inbox's own sender, for the server's side.
pub(crate) async fn drive<F: Front>(
    front: &mut F,
    settings: Settings<'_>,
    feed: mpsc::UnboundedSender<In<F::Input>>,
    mut inbox: mpsc::UnboundedReceiver<In<F::Input>>,
) -> Result<(), String> {
    let Settings { upstream, server_era, probe_timeout, ignored_tools, max_message, mut recorder, log_prefix } =
        settings;
    let sink: Sink = Arc::new(move |event| {
        let _ = feed.send(In::Server(event));
    });
    let mut server = match ServerSide::start(upstream, max_message, sink.clone()) {
        Ok(s) => s,
        Err(why) => {
            front.finish(&why);
            inbox.close();
            while let Some(input) = inbox.recv().await {
                if let In::Front(input) = input {
                    front.refuse(input, &why);
                }
            }
            return Err(why);
        }
    };
    let (mut session, mut actions) = Session::with_probe_wait(server_era, probe_timeout, Instant::now());
    session.ignore_tools(ignored_tools.to_vec());
    let mut wake: Option<Instant> = None;
    // Once the server is being ended: when to stop waiting for it (a process
    // whose output a child of its own holds open never closes it).
    let mut ending: Option<Instant> = None;
    let mut why_gone: Option<&'static str> = None;
    let mut result = Ok(());
    let mut server_closed = false;
    loop {
        // What an action gives rise to (a server that cannot be started again) comes after it.
        while !actions.is_empty() {
            for action in std::mem::take(&mut actions) {
                match action {
                    Action::Send(To::Server, line) => {
                        recorder.record("server", "c2s", &line);
                        server.send(line);
                    }
                    Action::Send(To::Client, line) => {
                        recorder.record("client", "s2c", &line);
                        front.deliver(line);
                    }
                    Action::WakeAt(at) => wake = Some(at),
                    Action::Log(note) => eprintln!("{log_prefix}: {note}"),
                    Action::EndServer => {
                        // What the server says from here on is recorded, not translated.
                        recorder.mark("closing", why_gone.unwrap_or("the client closed"));
                        server.end();
                        ending = Some(Instant::now() + GRACE * 3 + Duration::from_secs(1));
                    }
                    Action::RestartServer => {
                        // The old process exited (its end was fed); reaped before the new one starts.
                        server.end();
                        server.reaped().await;
                        recorder.mark("restart", "the server exited on server/discover");
                        match ServerSide::start(upstream, max_message, sink.clone()) {
                            Ok(started) => {
                                server = started;
                                server_closed = false;
                            }
                            Err(why) => {
                                eprintln!("{log_prefix}: the server could not be started again: {why}");
                                actions.extend(session.handle(Input::ServerGone));
                            }
                        }
                    }
                    Action::Finish(done) => result = done,
                }
            }
        }
        if session.is_over() {
            break;
        }
        let deadline = match (wake, ending) {
            (Some(w), Some(e)) => Some(w.min(e)),
            (w, e) => w.or(e),
        };
        let input = match deadline {
            None => inbox.recv().await,
            Some(at) => tokio::select! {
                input = inbox.recv() => input,
                _ = tokio::time::sleep_until(at.into()) => {
                    let now = Instant::now();
                    if ending.is_some_and(|e| e <= now) {
                        // The server was ended and its output never closed: it is gone all the same.
                        ending = None;
                        actions = session.handle(Input::ServerGone);
                        continue;
                    }
                    if wake.is_some_and(|w| w <= now) {
                        wake = None;
                        actions = session.handle(Input::Tick(now));
                    }
                    continue;
                }
            },
        };
        let Some(input) = input else { break };
        actions = match input {
            In::Line(line) => {
                recorder.record("client", "c2s", &line);
                session.handle(Input::FromClient(line))
            }
            In::Front(input) => match front.input(input) {
                Fed::Session(line) => {
                    recorder.record("client", "c2s", &line);
                    session.handle(Input::FromClient(line))
                }
                Fed::Client(line) => {
                    recorder.record("client", "s2c", &line);
                    front.deliver(line);
                    Vec::new()
                }
                Fed::Nothing => Vec::new(),
            },
            In::Server(Event::Server(line)) => {
                recorder.record("server", "s2c", &line);
                session.handle(Input::FromServer(line))
            }
            In::Server(Event::ServerClosed) => {
                server_closed = true;
                session.handle(Input::ServerGone)
            }
            In::Gone(why) => {
                why_gone.get_or_insert(why);
                session.handle(Input::ClientGone)
            }
        };
    }
    // The session ended on its own (the server went, or could not be spoken
    // to): the server's side is ended too (a process that exited, reaped), and
    // waited for, a bounded time.
    if ending.is_none() {
        server.end();
    }
    if !server_closed {
        let until = Instant::now() + GRACE * 3 + Duration::from_secs(1);
        while let Ok(Some(input)) = tokio::time::timeout_at(until.into(), inbox.recv()).await {
            match input {
                In::Server(Event::ServerClosed) => break,
                In::Server(Event::Server(line)) => recorder.record("server", "s2c", &line),
                In::Front(input) => front.refuse(input, "the session has ended"),
                In::Line(_) | In::Gone(_) => {}
            }
        }
    }
    server.reaped().await;
    let why = match (&result, why_gone) {
        (Err(e), _) => e.clone(),
        (Ok(()), Some(why)) => why.to_string(),
        (Ok(()), None) => "the server exited".to_string(),
    };
    front.finish(&why);
    // The session's last line: a reader of the record knows it is complete.
    recorder.mark("end", &why);
    inbox.close();
    while let Ok(input) = inbox.try_recv() {
        if let In::Front(input) = input {
            front.refuse(input, "the session has ended");
        }
    }
    result
}
