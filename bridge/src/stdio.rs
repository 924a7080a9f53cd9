//! The stdio side of the bridge: a process spawned as the server, its output
//! read line by line, and the client on the bridge's own stdin and stdout
//! ([`StdioFront`], one of the [`driver`](crate::driver)'s fronts). Every line
//! is bounded by `--max-message` and read without being held whole when it is
//! longer. A server is ended as the stdio binding says a client ends it: its
//! stdin closed, then SIGTERM, then SIGKILL, each step given [`GRACE`].

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc;

use crate::driver::{Event, Fed, Front, GRACE, In, Sink};

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

/// The client on the bridge's stdin and stdout.
pub(crate) struct StdioFront {
    stdout: std::io::Stdout,
    max_message: usize,
}

/// What the stdin reader reports besides lines: a request over the bound, its id and size.
pub(crate) struct TooLargeRequest(Value, usize);

impl StdioFront {
    /// The front, and its reader of stdin started: each line, a request over the
    /// bound, and the end of stdin (the client has gone) go to `feed`.
    pub(crate) fn start(max_message: usize, feed: mpsc::UnboundedSender<In<TooLargeRequest>>) -> StdioFront {
        std::thread::spawn(move || {
            let lines = feed.clone();
            bounded_lines(
                std::io::stdin().lock(),
                max_message,
                |line| lines.send(In::Line(line)).is_ok(),
                |big| {
                    eprintln!(
                        "mcp-era-bridge: the client sent a message of {} bytes, over --max-message {max_message}: not passed on",
                        big.size
                    );
                    match big.id {
                        Some(id) if big.has_method => feed.send(In::Front(TooLargeRequest(id, big.size))).is_ok(),
                        _ => true,
                    }
                },
            );
            let _ = feed.send(In::Gone("the client closed"));
        });
        StdioFront { stdout: std::io::stdout(), max_message }
    }
}

impl Front for StdioFront {
    type Input = TooLargeRequest;

    fn input(&mut self, TooLargeRequest(id, size): TooLargeRequest) -> Fed {
        let why = format!("the request was {size} bytes, over the bridge's --max-message {}", self.max_message);
        Fed::Client(mcp_era_bridge::error_response(id, mcp_era_bridge::modern::INVALID_REQUEST, why).to_string())
    }

    fn deliver(&mut self, line: String) {
        let mut out = self.stdout.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn finish(&mut self, _why: &str) {}

    fn refuse(&mut self, _input: TooLargeRequest, _why: &str) {}
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

    use tokio::signal::unix::{SignalKind, signal};

    /// Resolves on SIGTERM or SIGINT (tokio's handlers; never, if they cannot be installed).
    pub async fn stopped() {
        match (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }
            _ => std::future::pending().await,
        }
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
pub(crate) mod signals {
    use std::process::Child;

    /// Ctrl-C.
    pub async fn stopped() {
        let _ = tokio::signal::ctrl_c().await;
    }

    /// No SIGTERM: the server is killed after the grace period.
    pub fn terminate(_: &Child) {}
}
