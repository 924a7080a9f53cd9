//! The load real clients and proxies carry, measured side by side in one run
//! (`cargo bench -p mcp-spec-bench --bench mixed`): the messages of the recorded
//! sessions (`tests/bench/data`: the example client and server against the
//! official Python and TypeScript SDKs, both eras) and the spec's example
//! messages, small and mixed, read and written by each crate, interleaved round
//! by round. Prints medians, MB/s, the median of the paired ratios (time over
//! ours, round by round) and each crate's rejects. Nothing here asserts a speed.

use std::hint::black_box;

use mcp_spec_bench::{Contender, client_side, mixed_stream, print_paired, race_paired, same_json, sessions};
use mcp_spec_types::v2026_07_28 as ours;
use rust_mcp_schema::mcp_2026_07_28 as rms;
use serde_json::Value;

fn main() {
    let rounds: usize = std::env::var("BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(31) * 10;
    let recorded = sessions();
    let stream = mixed_stream(&recorded);
    let from_sessions = recorded.len();
    let bytes: usize = stream.iter().map(String::len).sum();
    println!(
        "{} messages: {from_sessions} from {} recorded sessions, {} spec examples; mean {} bytes",
        stream.len(),
        recorded.iter().map(|r| &r.transcript).collect::<std::collections::BTreeSet<_>>().len(),
        stream.len() - from_sessions,
        bytes / stream.len()
    );

    // `MIXED_PROFILE=1`: only ours reads, for a few seconds, for a profiler to
    // watch (`=client`: the client's side; `=write`: ours writes what it read).
    if let Ok(mode) = std::env::var("MIXED_PROFILE") {
        let start = std::time::Instant::now();
        let typed = client_side(&recorded);
        let read: Vec<ours::JSONRPCMessage> = stream.iter().filter_map(|t| serde_json::from_str(t).ok()).collect();
        while start.elapsed().as_secs() < 5 {
            if mode == "write" {
                read.iter().for_each(|m| drop(black_box(serde_json::to_string(m).unwrap())));
            } else if mode == "client" {
                typed.iter().for_each(|(entry, t)| {
                    black_box((entry.read)(t).ok());
                });
            } else {
                stream.iter().for_each(|t| drop(black_box(mcp_spec_types::from_str::<ours::JSONRPCMessage>(t).ok())));
            }
        }
        return;
    }

    // Each crate reads every message as its generic JSON-RPC message; rejects
    // counted. Ours with `mcp_spec_types::from_str` (what its README shows:
    // serde_json, and the path on errors), and with the union's `from_text`.
    let names =
        ["mcp-spec-types", "serde_json::Value", "rust-mcp-schema 2.0.0", "rmcp 3.11.0", "mcp-spec-types from_text"];
    let rejects = [
        (names[0], stream.iter().filter(|t| mcp_spec_types::from_str::<ours::JSONRPCMessage>(t).is_err()).count()),
        (names[4], stream.iter().filter(|t| ours::JSONRPCMessage::from_text(t).is_err()).count()),
        (names[1], 0),
        (names[2], stream.iter().filter(|t| serde_json::from_str::<rms::JsonrpcMessage>(t).is_err()).count()),
        (names[3], stream.iter().filter(|t| serde_json::from_str::<rmcp::model::JsonRpcMessage>(t).is_err()).count()),
    ];
    // Ours reads every message of the stream, both ways: a reject is a reader that broke.
    assert_eq!((rejects[0].1, rejects[1].1), (0, 0), "ours rejects messages of the stream");
    let s = &stream;
    let mut readers = vec![
        Contender {
            name: names[0],
            run: Box::new(move || {
                s.iter().for_each(|t| drop(black_box(mcp_spec_types::from_str::<ours::JSONRPCMessage>(t).ok())))
            }),
        },
        Contender {
            name: names[1],
            run: Box::new(move || s.iter().for_each(|t| drop(black_box(serde_json::from_str::<Value>(t).ok())))),
        },
        Contender {
            name: names[2],
            run: Box::new(move || {
                s.iter().for_each(|t| drop(black_box(serde_json::from_str::<rms::JsonrpcMessage>(t).ok())))
            }),
        },
        Contender {
            name: names[3],
            run: Box::new(move || {
                s.iter().for_each(|t| drop(black_box(serde_json::from_str::<rmcp::model::JsonRpcMessage>(t).ok())))
            }),
        },
        // A caller that holds the text (a line of stdio) can skip serde's capture of it.
        Contender {
            name: names[4],
            run: Box::new(move || s.iter().for_each(|t| drop(black_box(ours::JSONRPCMessage::from_text(t).ok())))),
        },
    ];
    let times = race_paired(&mut readers, rounds);
    drop(readers);
    print_paired("Read each message as the generic JSON-RPC message", bytes, &times, &rejects);

    // Writing the same messages: the ones every crate reads (a crate that
    // rejects a message has nothing to write; timing each crate on its own set
    // would compare different loads).
    let common: Vec<&String> = stream
        .iter()
        .filter(|t| {
            serde_json::from_str::<ours::JSONRPCMessage>(t).is_ok()
                && serde_json::from_str::<rms::JsonrpcMessage>(t).is_ok()
                && serde_json::from_str::<rmcp::model::JsonRpcMessage>(t).is_ok()
        })
        .collect();
    let common_bytes: usize = common.iter().map(|t| t.len()).sum();
    let ours_read: Vec<ours::JSONRPCMessage> = common.iter().map(|t| serde_json::from_str(t).unwrap()).collect();
    let values: Vec<Value> = common.iter().map(|t| serde_json::from_str(t).unwrap()).collect();
    let rms_read: Vec<rms::JsonrpcMessage> = common.iter().map(|t| serde_json::from_str(t).unwrap()).collect();
    let rmcp_read: Vec<rmcp::model::JsonRpcMessage> = common.iter().map(|t| serde_json::from_str(t).unwrap()).collect();
    // Ours writes back what it read (numbers compared as numbers: a peer's `1.0`
    // comes back as `1`).
    for (t, m) in common.iter().zip(&ours_read) {
        let back: Value = serde_json::to_value(m).unwrap();
        assert!(same_json(&back, &serde_json::from_str::<Value>(t).unwrap()), "ours writes back {t} as {back}");
    }
    let (o, v, a, b) = (&ours_read, &values, &rms_read, &rmcp_read);
    let mut writers = vec![
        Contender {
            name: names[0],
            run: Box::new(move || o.iter().for_each(|m| drop(black_box(serde_json::to_string(m).unwrap())))),
        },
        Contender {
            name: names[1],
            run: Box::new(move || v.iter().for_each(|m| drop(black_box(serde_json::to_string(m).unwrap())))),
        },
        Contender {
            name: names[2],
            run: Box::new(move || a.iter().for_each(|m| drop(black_box(serde_json::to_string(m).unwrap())))),
        },
        Contender {
            name: names[3],
            run: Box::new(move || b.iter().for_each(|m| drop(black_box(serde_json::to_string(m).unwrap())))),
        },
    ];
    let wtimes = race_paired(&mut writers, rounds);
    drop(writers);
    print_paired(
        &format!("Write the {} of the {} messages that every crate reads", common.len(), stream.len()),
        common_bytes,
        &wtimes,
        &[],
    );

    // A client's side: every message of a server, typed as the client reads it
    // (ours: the result by the method it answers, requests and notifications by
    // method, with `mcp_spec_types::from_str`; theirs: rmcp's `ServerJsonRpcMessage`,
    // rust-mcp-schema's `ServerMessage`).
    let typed = client_side(&recorded);
    let server_bytes: usize = typed.iter().map(|(_, t)| t.len()).sum();
    let typed_names = [
        "mcp-spec-types (by method)",
        "serde_json::Value",
        "rust-mcp-schema ServerMessage",
        "rmcp ServerJsonRpcMessage",
    ];
    let typed_rejects = [
        (typed_names[0], typed.iter().filter(|(entry, t)| (entry.read)(t).is_err()).count()),
        (typed_names[1], 0),
        (
            typed_names[2],
            typed.iter().filter(|(_, t)| serde_json::from_str::<rms::schema_utils::ServerMessage>(t).is_err()).count(),
        ),
        (
            typed_names[3],
            typed.iter().filter(|(_, t)| serde_json::from_str::<rmcp::model::ServerJsonRpcMessage>(t).is_err()).count(),
        ),
    ];
    assert_eq!(typed_rejects[0].1, 0, "ours rejects server messages as the type a client reads them as");
    let ty = &typed;
    let mut client = vec![
        Contender {
            name: typed_names[0],
            run: Box::new(move || {
                ty.iter().for_each(|(entry, t)| {
                    black_box((entry.read)(t).ok());
                })
            }),
        },
        Contender {
            name: typed_names[1],
            run: Box::new(move || ty.iter().for_each(|(_, t)| drop(black_box(serde_json::from_str::<Value>(t).ok())))),
        },
        Contender {
            name: typed_names[2],
            run: Box::new(move || {
                ty.iter().for_each(|(_, t)| {
                    drop(black_box(serde_json::from_str::<rms::schema_utils::ServerMessage>(t).ok()))
                })
            }),
        },
        Contender {
            name: typed_names[3],
            run: Box::new(move || {
                ty.iter().for_each(|(_, t)| {
                    drop(black_box(serde_json::from_str::<rmcp::model::ServerJsonRpcMessage>(t).ok()))
                })
            }),
        },
    ];
    let ctimes = race_paired(&mut client, rounds);
    drop(client);
    print_paired(
        &format!("A client's side: the {} server messages of the sessions, typed", typed.len()),
        server_bytes,
        &ctimes,
        &typed_rejects,
    );
}
