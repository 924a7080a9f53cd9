//! A fixed amount of work for a counting profiler (`tests/bench/callgrind.sh`):
//! `N` passes over the mixed stream of `benches/mixed.rs`, one `MODE` per run.
//! Instruction counts and simulated cache and branch misses do not move with
//! the load of a shared machine, as times do; they say why a time is what it is.
//!
//! Modes: `read` (ours reads each message as the generic JSON-RPC message, with
//! `mcp_spec_types::from_str`), `read-value` (as `serde_json::Value`),
//! `client` (the server's messages, each as the type a client reads it as, with
//! `from_str`), `client-value`, `write` (ours writes what it read),
//! `write-value`.

use std::hint::black_box;

use mcp_spec_bench::{client_side, mixed_stream, sessions};
use mcp_spec_types::v2026_07_28 as ours;
use serde_json::Value;

fn main() {
    let mode = std::env::var("MODE").unwrap_or_else(|_| "read".into());
    let passes: usize = std::env::var("N").ok().and_then(|n| n.parse().ok()).unwrap_or(10);
    let recorded = sessions();
    let stream = mixed_stream(&recorded);
    let typed = client_side(&recorded);
    // Writing: the messages ours reads (all 241 of the stream; the timed bench
    // writes the 177 every crate reads, so its counts are of a larger load).
    let ours_read: Vec<ours::JSONRPCMessage> = stream.iter().filter_map(|t| serde_json::from_str(t).ok()).collect();
    let values: Vec<Value> = stream.iter().filter_map(|t| serde_json::from_str(t).ok()).collect();
    measured_passes(&mode, passes, &stream, &typed, &ours_read, &values);
}

/// The passes themselves, out of line so that a profiler can count them alone
/// (`code-touched.sh` collects only inside this function).
#[inline(never)]
fn measured_passes(
    mode: &str,
    passes: usize,
    stream: &[String],
    typed: &[(&mcp_spec_types::rt::TypeEntry, &str)],
    ours_read: &[ours::JSONRPCMessage],
    values: &[Value],
) {
    for _ in 0..passes {
        match mode {
            "read" => stream.iter().for_each(|t| drop(black_box(mcp_spec_types::from_str::<ours::JSONRPCMessage>(t)))),
            "read-value" => stream.iter().for_each(|t| drop(black_box(serde_json::from_str::<Value>(t)))),
            "client" => typed.iter().for_each(|(entry, t)| drop(black_box((entry.read)(t)))),
            "client-value" => typed.iter().for_each(|(_, t)| drop(black_box(serde_json::from_str::<Value>(t)))),
            "write" => ours_read.iter().for_each(|m| drop(black_box(serde_json::to_string(m)))),
            "write-value" => values.iter().for_each(|m| drop(black_box(serde_json::to_string(m)))),
            other => panic!("unknown MODE {other}"),
        }
    }
}
