//! An example MCP server on stdio, built on mcp-spec-types, that speaks both
//! eras of the protocol and chooses by what the client sends first, as the spec
//! says a server supporting both does: a request whose `params._meta` carries
//! `io.modelcontextprotocol/protocolVersion` is 2026-07-28 (stateless: every
//! request carries its version and capabilities; `server/discover`; input asked
//! through `InputRequiredResult`), an `initialize` request is the 2025-11-25
//! handshake (input asked with requests to the client). Every message in and
//! out is one of the generated types.
//!
//! Run it with `cargo run -p mcp-spec-example-server`; it needs no arguments.

mod demo;
mod legacy;
mod modern;
mod state;

use std::collections::VecDeque;
use std::io::{BufRead, Write};

use mcp_spec_types::v2026_07_28 as m;
use serde::Serialize;

/// The two ends of stdio, one JSON-RPC message per line.
pub struct Wire {
    input: std::io::Lines<std::io::StdinLock<'static>>,
    output: std::io::StdoutLock<'static>,
    /// Lines read ahead (while waiting for a client's answer) and not yet handled.
    queued: VecDeque<String>,
}

impl Wire {
    fn stdio() -> Wire {
        Wire { input: std::io::stdin().lock().lines(), output: std::io::stdout().lock(), queued: VecDeque::new() }
    }

    /// The next line: a queued one first. `None` when the client has gone.
    pub fn recv(&mut self) -> Option<String> {
        if let Some(line) = self.queued.pop_front() {
            return Some(line);
        }
        loop {
            match self.input.next()? {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => return Some(line),
                Err(_) => return None,
            }
        }
    }

    /// The next line from the client itself, past the queue.
    pub fn recv_fresh(&mut self) -> Option<String> {
        loop {
            match self.input.next()? {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => return Some(line),
                Err(_) => return None,
            }
        }
    }

    /// Keeps a line to handle later.
    pub fn queue(&mut self, line: String) {
        self.queued.push_back(line);
    }

    pub fn send<T: Serialize>(&mut self, message: &T) {
        // A closed stdout ends the session: there is no one to answer.
        let text = serde_json::to_string(message).unwrap_or_default();
        if writeln!(self.output, "{text}").and_then(|()| self.output.flush()).is_err() {
            std::process::exit(0);
        }
    }
}

/// The `-32700` reply to a line that is not JSON: `id` null, as JSON-RPC 2.0 §5 says.
pub fn parse_error(wire: &mut Wire, why: impl std::fmt::Display) {
    wire.send(&m::JSONRPCErrorResponse::new(None, m::ParseError::new(format!("Parse error: {why}"))));
}

fn main() {
    let mut wire = Wire::stdio();
    // Until a request says which era it is, nothing is served.
    while let Some(line) = wire.recv() {
        let message: m::JSONRPCMessage = match serde_json::from_str(&line) {
            Ok(message) => message,
            Err(e) => {
                parse_error(&mut wire, e);
                continue;
            }
        };
        let m::JSONRPCMessage::JSONRPCRequest(request) = message else { continue };
        let modern = request
            .params
            .as_ref()
            .and_then(|p| p.get("_meta"))
            .is_some_and(|meta| meta.get("io.modelcontextprotocol/protocolVersion").is_some());
        if modern {
            wire.queue(line);
            return modern::serve(&mut wire);
        }
        if request.method == "initialize" {
            wire.queue(line);
            return legacy::serve(&mut wire);
        }
        let error = m::InvalidRequestError::new(
            "send `initialize` (2025-11-25) or a request whose params._meta carries io.modelcontextprotocol/protocolVersion (2026-07-28) first",
        );
        wire.send(&m::JSONRPCErrorResponse::new(Some(request.id), error));
    }
}
