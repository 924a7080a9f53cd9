//! `mcp-era-bridge [--server-era auto|modern|legacy] [--record FILE] -- <server command...>`
//!
//! A stdio MCP proxy: the client talks to it on stdin and stdout, it runs the
//! server and talks to it on the server's. It learns the server's era as the
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
//! It ends its server as a stdio client does: the server's stdin closed, then
//! SIGTERM, then SIGKILL, each after two seconds, recording what the server
//! says meanwhile. It does so when the client closes its stdin, and on SIGTERM
//! or SIGINT.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use mcp_era_bridge::{Action, Input, ServerEraChoice, Session, To};
use serde_json::{Value, json};

enum Event {
    Client(String),
    Server(String),
    ClientClosed,
    ServerClosed,
    /// SIGTERM or SIGINT: the session ends as if the client had closed.
    Stopped,
}

/// How long the server gets at each step of its ending.
const GRACE: Duration = Duration::from_secs(2);

struct Options {
    server_era: ServerEraChoice,
    record: Option<std::path::PathBuf>,
    server: Vec<String>,
}

fn usage() -> ExitCode {
    eprintln!("usage: mcp-era-bridge [--server-era auto|modern|legacy] [--record FILE] -- <server command> [args...]");
    ExitCode::from(2)
}

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut o = Options { server_era: ServerEraChoice::Auto, record: None, server: Vec::new() };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--server-era" => {
                o.server_era = match args.next().as_deref() {
                    Some("auto") => ServerEraChoice::Auto,
                    Some("modern") => ServerEraChoice::Modern,
                    Some("legacy") => ServerEraChoice::Legacy,
                    other => return Err(format!("--server-era takes auto, modern or legacy, not {other:?}")),
                }
            }
            "--record" => o.record = Some(args.next().ok_or("--record takes a file")?.into()),
            "--" => {
                o.server = args.collect();
                break;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if o.server.is_empty() {
        return Err("no server command after --".into());
    }
    Ok(o)
}

/// The JSON lines of `--record`.
struct Recorder(Option<std::fs::File>);

impl Recorder {
    fn open(path: &std::path::Path) -> Result<Recorder, String> {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path);
        Ok(Recorder(Some(file.map_err(|e| format!("{}: {e}", path.display()))?)))
    }

    fn record(&mut self, side: &str, dir: &str, line: &str) {
        let Some(file) = &mut self.0 else { return };
        let msg = serde_json::from_str::<Value>(line).unwrap_or_else(|_| Value::String(line.to_string()));
        // One write per line: appends from two processes do not interleave within one.
        let mut record = json!({"session": std::process::id(), "side": side, "dir": dir, "msg": msg}).to_string();
        record.push('\n');
        let _ = file.write_all(record.as_bytes());
    }

    /// A line of the session's own: `closing` when the client has gone (what
    /// the server says after it is recorded but not translated), `end` last.
    fn mark(&mut self, what: &str, why: &str) {
        let Some(file) = &mut self.0 else { return };
        let line = json!({"session": std::process::id(), what: why}).to_string() + "\n";
        let _ = file.write_all(line.as_bytes());
    }
}

struct Wires {
    server_in: Option<ChildStdin>,
    stdout: std::io::Stdout,
    recorder: Recorder,
}

impl Wires {
    fn send_server(&mut self, line: &str) {
        let Some(w) = &mut self.server_in else {
            eprintln!("mcp-era-bridge: not sent, the server's stdin is closed: {line}");
            return;
        };
        if writeln!(w, "{line}").is_err() || w.flush().is_err() {
            eprintln!("mcp-era-bridge: the server's stdin is closed");
            self.server_in = None;
            return;
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

fn spawn(server: &[String], events: Sender<Event>) -> Result<(Child, ChildStdin), String> {
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
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if !line.trim().is_empty() && events.send(Event::Server(line)).is_err() {
                return;
            }
        }
        let _ = events.send(Event::ServerClosed);
    });
    Ok((child, stdin))
}

fn read_client(events: Sender<Event>) {
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if !line.trim().is_empty() && events.send(Event::Client(line)).is_err() {
                return;
            }
        }
        let _ = events.send(Event::ClientClosed);
    });
}

/// Runs one session: the server started, then every event fed to the
/// [`Session`] and what it says done, until it finishes; the server ended as a
/// stdio client ends it. The protocol's decisions are all the session's.
fn run(o: Options) -> Result<(), String> {
    // The record first: a file that cannot be opened stops the bridge before any server runs.
    let recorder = match &o.record {
        Some(path) => Recorder::open(path)?,
        None => Recorder(None),
    };
    let (tx, events) = channel();
    let (mut child, server_in) = spawn(&o.server, tx.clone())?;
    let mut wires = Wires { server_in: Some(server_in), stdout: std::io::stdout(), recorder };
    signals::watch(tx.clone());
    read_client(tx);
    let (mut session, mut actions) = Session::new(o.server_era, Instant::now());
    // When the session wants a tick, and the server's ending step once it is being ended.
    let mut wake: Option<Instant> = None;
    let mut ending: Option<Ending> = None;
    let mut why: Option<&str> = None;
    let mut result = Ok(());
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
                    drop(wires.server_in.take());
                    ending = Some(Ending::StdinClosed(Instant::now() + GRACE));
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
                    if let Some(step) = ending.as_ref().filter(|e| e.deadline() <= now) {
                        match step.next(&mut child) {
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
            Event::ServerClosed => session.handle(Input::ServerGone),
        };
    }
    drop(wires.server_in.take());
    reap(&mut child, ending.unwrap_or_else(|| Ending::StdinClosed(Instant::now() + GRACE)));
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
fn reap(child: &mut Child, mut step: Ending) {
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
enum Ending {
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
mod signals {
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
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("mcp-era-bridge: {e}");
            return usage();
        }
    };
    match run(o) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-era-bridge: {e}");
            ExitCode::from(1)
        }
    }
}
