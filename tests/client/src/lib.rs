//! An MCP client over stdio built on `mcp-spec-types`, as a downstream crate
//! would write one. It probes a server the way the 2026-07-28 spec tells a
//! client to (`server/discover`) and, when the server is modern, speaks that
//! revision to the end: every request carries its `_meta`; tools, prompts,
//! resources and templates are listed and used, arguments completed; list
//! results are cached for their `ttlMs`; `input_required` rounds are answered
//! (forms, sampling, roots) and the call retried with `inputResponses` and the
//! `requestState` as it came; a `subscriptions/listen` stream is opened and
//! read. An older server gets the 2025-11-25 `initialize` handshake instead.
//!
//! Every message is built with the generated types (constructors, no `json!`),
//! and every message the server sends is read with them and written back: it
//! must come out JSON-equal.

mod legacy;
mod modern;
mod wire;

pub use wire::{Error, Peer};

/// What a session with a server found, step by step, for people to read.
#[derive(Debug, Default)]
pub struct Summary {
    /// One `(step, what it found)` per line, in order.
    pub steps: Vec<(String, String)>,
    /// Messages from the server read with the generated types and written back equal.
    pub messages_checked: usize,
    /// Notifications and requests the server sent on its own.
    pub unsolicited: usize,
}

impl Summary {
    pub fn step(&mut self, name: &str, found: impl Into<String>) {
        self.steps.push((name.to_string(), found.into()));
    }

    /// What a step found.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.steps.iter().find(|(n, _)| n == name).map(|(_, f)| f.as_str())
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let width = self.steps.iter().map(|(n, _)| n.len() + 2).max().unwrap_or(0).max("messages checked: ".len());
        for (name, found) in &self.steps {
            writeln!(f, "{:<width$}{found}", format!("{name}:"))?;
        }
        write!(
            f,
            "{:<width$}{} (all written back JSON-equal; {} unsolicited)",
            "messages checked:", self.messages_checked, self.unsolicited
        )
    }
}

/// Runs a session with the server `command args`: modern if it answers
/// `server/discover`, else the 2025-11-25 handshake.
pub fn run(command: &str, args: &[String]) -> Result<Summary, Error> {
    let mut peer = Peer::spawn(command, args)?;
    match modern::discover(&mut peer)? {
        Some(found) => modern::Session::new(peer, found).run(),
        None => legacy::run(peer),
    }
}
