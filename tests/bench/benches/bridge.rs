//! The era bridge's cost per message, side by side in one run (`cargo bench -p
//! mcp-spec-bench --bench bridge`): two recorded bridged sessions
//! (`tests/bench/data/bridge/`, the bridge's own `--record` of the peer tests'
//! sessions: the TypeScript SDK 1.32 client with the Python SDK server, and the
//! Python SDK client with server-everything) replayed through `mcp_era_bridge`
//! in memory, against a plain line relay (each line copied through) and a JSON
//! relay (each line read as a `serde_json::Value` and written back), in paired
//! rounds (the same measurement under criterion: `--bench bridge_criterion`). The
//! replay's output must be what the bridge sent in the session, message for
//! message; nothing here asserts a speed.

use std::hint::black_box;

use mcp_spec_bench::{Contender, print_paired, race_paired};

#[path = "support/bridge_session.rs"]
mod bridge_session;
use bridge_session::{json_relay, line_relay, replay, sessions};

fn main() {
    let rounds: usize = std::env::var("BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(31) * 10;
    for s in sessions() {
        let bytes: usize = s.inputs.iter().map(|(_, l)| l.len()).sum();
        println!("\n{}", s.describe());
        let lines = s.lines();
        let session = &s;
        let mut contenders = vec![
            Contender { name: "line relay", run: Box::new(|| drop(black_box(line_relay(&lines)))) },
            Contender { name: "JSON relay (Value)", run: Box::new(|| drop(black_box(json_relay(&lines)))) },
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
