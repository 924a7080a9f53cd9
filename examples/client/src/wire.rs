//! The server process and its stdio: one JSON-RPC message per line. What the
//! server writes is read as the session's revision's `JSONRPCMessage` and must
//! write back equal; requests of ours get ids of our own counter.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::Summary;

pub type Error = String;

/// A server process and the lines it writes on stdout.
pub struct Peer {
    child: Child,
    /// `None` once closed, at the end of the session.
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    /// Messages read while waiting for another, not yet handled.
    held: VecDeque<Value>,
    next_id: i64,
    pub summary: Summary,
    timeout: Duration,
}

impl Peer {
    /// Starts `command` with `args`; its stderr is dropped (servers log there).
    pub fn spawn(command: &str, args: &[String]) -> Result<Peer, Error> {
        let mut child = Command::new(command)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Peer {
            child,
            stdin: Some(stdin),
            lines,
            held: VecDeque::new(),
            next_id: 0,
            summary: Summary::default(),
            timeout: Duration::from_secs(30),
        })
    }

    pub fn send<T: Serialize>(&mut self, message: &T) -> Result<(), Error> {
        let text = serde_json::to_string(message).map_err(|e| e.to_string())?;
        let stdin = self.stdin.as_mut().ok_or("the session is closed")?;
        writeln!(stdin, "{text}").and_then(|_| stdin.flush()).map_err(|e| format!("cannot write to the server: {e}"))
    }

    /// The next id of ours.
    pub fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// The next message, held ones first; `check` reads it as the session's
    /// `JSONRPCMessage` (it must write back equal). `None` when nothing came in `wait`.
    pub fn receive_within(
        &mut self,
        wait: Duration,
        check: fn(&Value) -> Result<(), Error>,
    ) -> Result<Option<Value>, Error> {
        if let Some(v) = self.held.pop_front() {
            return Ok(Some(v));
        }
        let line = match self.lines.recv_timeout(wait) {
            Ok(Ok(line)) => line,
            Ok(Err(e)) => return Err(format!("cannot read from the server: {e}")),
            Err(RecvTimeoutError::Timeout) => return Ok(None),
            Err(RecvTimeoutError::Disconnected) => return Err("the server closed its stdout".into()),
        };
        let raw: Value =
            serde_json::from_str(&line).map_err(|e| format!("the server wrote non-JSON to stdout ({e}): {line}"))?;
        check(&raw)?;
        self.summary.messages_checked += 1;
        Ok(Some(raw))
    }

    pub fn receive(&mut self, check: fn(&Value) -> Result<(), Error>) -> Result<Value, Error> {
        let wait = self.timeout;
        self.receive_within(wait, check)?.ok_or_else(|| "the server did not answer in time".to_string())
    }

    /// Keeps a message to handle later, in order.
    pub fn hold(&mut self, message: Value) {
        self.held.push_back(message);
    }
}

/// Reads `v` as `T` and writes it back: the two must be JSON-equal.
pub fn round_trip<T: DeserializeOwned + Serialize>(v: &Value, what: &str) -> Result<T, Error> {
    let typed: T = serde_json::from_value(v.clone()).map_err(|e| format!("{what}: {e}\n  {v}"))?;
    let back = serde_json::to_value(&typed).map_err(|e| e.to_string())?;
    if !json_eq(&back, v) {
        return Err(format!("{what}: written back differently\n  read:    {v}\n  written: {back}"));
    }
    Ok(typed)
}

impl Drop for Peer {
    /// Ends the session as stdio does: stdin closed, a moment for the server to
    /// go, then it is stopped.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let until = std::time::Instant::now() + Duration::from_secs(2);
        while std::time::Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// JSON equality, numbers compared as numbers: `1.0` and `1` are one number
/// (the types write a whole `f64` without its fraction, as most peers do; a peer
/// that writes `1.0` gets `1` back).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64().is_some_and(|x| y.as_f64() == Some(x)),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}
