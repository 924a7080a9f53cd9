//! The era bridge's cost per message, side by side in one run (`cargo bench -p
//! mcp-spec-bench --bench bridge`): two recorded bridged sessions
//! (`tests/bench/data/bridge/`, the bridge's own `--record` of the peer tests'
//! sessions: the TypeScript SDK 1.32 client with the Python SDK server, and the
//! Python SDK client with server-everything) replayed through `mcp_era_bridge`
//! in memory, against a plain line relay (each line copied through) and a JSON
//! relay (each line read as a `serde_json::Value` and written back). The
//! replay's output must be what the bridge sent in the session, message for
//! message; nothing here asserts a speed.

use std::hint::black_box;
use std::path::Path;

use mcp_era_bridge::{Bridge, Era, PROBE_ID, To, client_era, server_era};
use mcp_spec_bench::{Contender, print_paired, race_paired};
use serde_json::Value;

/// A recorded session, as the bridge took it in: each input line and its side,
/// the server's era and `DiscoverResult` from the probe, and what the bridge sent.
struct Session {
    name: String,
    inputs: Vec<(To, String)>,
    client: Era,
    server: Era,
    discovered: Option<mcp_era_bridge::modern::DiscoverResult>,
    sent: Vec<Value>,
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
    let (server, discovered) = probe.map(|p| server_era(&p).unwrap()).unwrap_or((Era::Legacy, None));
    let first = inputs.iter().find(|(s, _)| *s == To::Client).expect("a client message");
    let client = client_era(&serde_json::from_str(&first.1).unwrap());
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    Session { name, inputs, client, server, discovered, sent }
}

/// The session replayed through a new bridge: the lines it sends.
fn replay(s: &Session) -> Vec<String> {
    let mut bridge = Bridge::new(s.client, s.server, s.discovered.clone()).unwrap();
    let mut out = Vec::with_capacity(s.sent.len());
    for (from, line) in &s.inputs {
        let outs = match from {
            To::Client => bridge.from_client(line),
            To::Server => bridge.from_server(line),
        };
        out.extend(outs.into_iter().map(|o| o.message.to_string()));
    }
    out
}

fn main() {
    let rounds: usize = std::env::var("BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(31) * 10;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/bridge");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    for path in files {
        let s = load(&path);
        // The replay sends what the bridge sent in the session.
        let replayed: Vec<Value> = replay(&s).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(replayed, s.sent, "{}: the replay differs from the session", s.name);
        let bytes: usize = s.inputs.iter().map(|(_, l)| l.len()).sum();
        println!(
            "\n{}: {} client ({}) and {} server ({}) messages in, {} out",
            s.name,
            s.inputs.iter().filter(|(t, _)| *t == To::Client).count(),
            s.client,
            s.inputs.iter().filter(|(t, _)| *t == To::Server).count(),
            s.server,
            s.sent.len()
        );
        let lines: Vec<&str> = s.inputs.iter().map(|(_, l)| l.as_str()).collect();
        let session = &s;
        let mut contenders = vec![
            Contender {
                name: "line relay",
                run: Box::new(|| {
                    let out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    black_box(out);
                }),
            },
            Contender {
                name: "JSON relay (Value)",
                run: Box::new(|| {
                    let out: Vec<String> = lines
                        .iter()
                        .map(|l| serde_json::from_str::<Value>(l).map(|v| v.to_string()).unwrap_or_default())
                        .collect();
                    black_box(out);
                }),
            },
            Contender { name: "mcp-era-bridge", run: Box::new(move || drop(black_box(replay(session)))) },
        ];
        let results = race_paired(&mut contenders, rounds);
        print_paired(&format!("{}: the whole session, per contender", s.name), bytes, &results, &[]);
        let per_message = |name: &str| {
            results.iter().find(|(n, _, _)| *n == name).map(|(_, t, _)| t.as_secs_f64() * 1e6 / lines.len() as f64)
        };
        println!(
            "  per message in: line relay {:.2} us, JSON relay {:.2} us, bridge {:.2} us",
            per_message("line relay").unwrap_or(f64::NAN),
            per_message("JSON relay (Value)").unwrap_or(f64::NAN),
            per_message("mcp-era-bridge").unwrap_or(f64::NAN)
        );
    }
}
