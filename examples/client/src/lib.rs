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
    run_without(command, args, &[])
}

/// [`run`], declaring none of the capabilities `without` names (`sampling`,
/// `elicitation`, `roots`, `tasks`) in the 2026-07-28 era: a tool that needs one
/// is refused by the server (`-32021`), which the session reports and goes on.
pub fn run_without(command: &str, args: &[String], without: &[String]) -> Result<Summary, Error> {
    let mut peer = Peer::spawn(command, args)?;
    match modern::discover(&mut peer, without)? {
        Some(found) => modern::Session::new(peer, found, without).run(),
        None => legacy::run(peer),
    }
}

/// A session with the server `command args` in the 2025-11-25 handshake era,
/// without asking for `server/discover` first (a server of both eras then
/// speaks its older one).
pub fn run_legacy(command: &str, args: &[String]) -> Result<Summary, Error> {
    legacy::run(Peer::spawn(command, args)?)
}

/// Arguments for a tool from its input schema's properties (members the
/// schema's types keep as unknown, JSON Schema's own): every required one, or
/// with `all` every one, each a value of its type: an enum's first value, a
/// number's `minimum`, else the smaller of its `default` and 1 (a duration
/// the shortest, an id the first), else 2.5 (an integer 2).
pub fn arguments_for(schema: &mcp_spec_types::Extra, all: bool) -> mcp_spec_types::Extra {
    use serde_json::Value;
    let mut args = mcp_spec_types::Extra::new();
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    for (name, property) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
        if !all && !required.contains(&name.as_str()) {
            continue;
        }
        let small = property.get("default").and_then(Value::as_f64).map(|d| Value::from(d.min(1.0) as i64));
        let minimum = property.get("minimum").filter(|m| m.is_number()).cloned().or(small);
        let value =
            match (property.get("enum").and_then(Value::as_array).and_then(|e| e.first()), property["type"].as_str()) {
                (Some(first), _) => first.clone(),
                (None, Some("integer")) => minimum.unwrap_or(Value::from(2)),
                (None, Some("number")) => minimum.unwrap_or(Value::from(2.5)),
                (None, Some("boolean")) => Value::from(false),
                (None, Some("array")) => Value::Array(Vec::new()),
                (None, Some("object")) => Value::Object(Default::default()),
                _ => Value::from("hello from Rust"),
            };
        args.insert(name.clone(), value);
    }
    args
}
