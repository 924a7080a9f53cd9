//! The recorded bridged sessions both bridge benchmarks replay
//! (`tests/bench/data/bridge/`, the bridge's own `--record` of the peer tests'
//! sessions), shared by `bridge.rs` (paired rounds) and `bridge_criterion.rs`.

use std::path::Path;

use mcp_era_bridge::{Bridge, Era, PROBE_ID, ServerEra, To, client_era, server_era};
use serde_json::Value;

/// A recorded session, as the bridge took it in: each input line and its side,
/// the server's era and `DiscoverResult` from the probe, and what the bridge sent.
pub struct Session {
    pub name: String,
    pub inputs: Vec<(To, String)>,
    pub client: Era,
    pub server: ServerEra,
    pub sent: Vec<Value>,
}

fn load(path: &Path) -> Session {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut inputs = Vec::new();
    let mut sent = Vec::new();
    let mut probe = None;
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        if r.get("closing").is_some() {
            // What the server said after the client had gone was not translated.
            break;
        }
        if r.get("side").is_none() {
            continue;
        }
        let msg = &r["msg"];
        let is_probe = msg.get("id") == Some(&Value::from(PROBE_ID));
        match (r["side"].as_str(), r["dir"].as_str()) {
            (Some("server"), Some("s2c")) if is_probe => probe = Some(msg.clone()),
            (Some("server"), Some("c2s")) if is_probe => {}
            (Some("client"), Some("c2s")) => inputs.push((To::Client, msg.to_string())),
            (Some("server"), Some("s2c")) => inputs.push((To::Server, msg.to_string())),
            _ => sent.push(msg.clone()),
        }
    }
    let server = probe.map(|p| server_era(&p).unwrap()).unwrap_or(ServerEra::Legacy);
    let first = inputs.iter().find(|(s, _)| *s == To::Client).expect("a client message");
    let client = client_era(&serde_json::from_str(&first.1).unwrap());
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    Session { name, inputs, client, server, sent }
}

/// The session replayed through a new bridge: the lines it sends.
pub fn replay(s: &Session) -> Vec<String> {
    let mut bridge = Bridge::between(s.client, s.server.clone()).expect("a recorded session bridges two eras");
    let mut out = Vec::with_capacity(s.sent.len());
    for (from, line) in &s.inputs {
        let outs = match from {
            To::Client => bridge.from_client(line),
            To::Server => bridge.from_server(line),
        };
        out.extend(outs.into_iter().map(|o| o.line));
    }
    out
}

/// Every recorded session, sorted, each checked first: replayed through a new
/// bridge, it sends what the bridge sent in the session, message for message.
pub fn sessions() -> Vec<Session> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/bridge");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no recorded sessions in {}", dir.display());
    files
        .iter()
        .map(|path| {
            let s = load(path);
            let replayed: Vec<Value> = replay(&s).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
            assert_eq!(replayed, s.sent, "{}: the replay differs from the session", s.name);
            s
        })
        .collect()
}

impl Session {
    /// The input lines, in the order the bridge took them.
    pub fn lines(&self) -> Vec<&str> {
        self.inputs.iter().map(|(_, l)| l.as_str()).collect()
    }

    /// One line about the session: who spoke, how much.
    pub fn describe(&self) -> String {
        format!(
            "{}: {} client ({}) and {} server ({}) messages in, {} out",
            self.name,
            self.inputs.iter().filter(|(t, _)| *t == To::Client).count(),
            self.client,
            self.inputs.iter().filter(|(t, _)| *t == To::Server).count(),
            self.server.era(),
            self.sent.len()
        )
    }
}

/// A plain line relay: each line copied through.
pub fn line_relay(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

/// A JSON relay: each line read as a `serde_json::Value` and written back.
pub fn json_relay(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|l| serde_json::from_str::<Value>(l).map(|v| v.to_string()).unwrap_or_default()).collect()
}
