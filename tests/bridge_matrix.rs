//! Never worse than direct, as a matrix: clients of each era (the TypeScript
//! SDK 1.32's legacy client, the TypeScript SDK v2's client pinned to
//! 2026-07-28) × servers that are legacy-only, modern-only and dual-era (one
//! surface: the Python SDK 2.3's demo server speaks both eras; the same behind
//! `legacy_only.py`, which refuses what a 2025-11-25 server refuses, is
//! legacy-only; the TypeScript SDK v2's with the handshake refused is
//! modern-only), on stdio and over Streamable HTTP. Each client runs every
//! check directly and through the bridge, in the same test:
//! - where the eras meet, every check that passes directly passes through the
//!   bridge, and the bridge's record shows the session passed through (its two
//!   sides the same messages, the bridge's own probe aside);
//! - where they cannot meet directly (the client fails there), every check
//!   passes through the bridge, translated.
//!
//! Over HTTP the legacy-only server is missing: no server of this surface
//! serves only 2025-11-25 sessions over HTTP (`bridge_http_peers.rs` has modern
//! clients with `server-everything`'s).

use std::path::Path;
use std::process::Command;

use mcp_spec_tests::peers;
use serde_json::Value;

use crate::bridge_http_peers::{StartPeer, python_http_server, ts_v2_http_server};
use crate::bridge_peers::{bridge_bin, node, python, recorded, session_ended};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Era {
    Legacy,
    Modern,
}

/// What a server speaks.
#[derive(Clone, Copy, Debug)]
enum Speaks {
    LegacyOnly,
    ModernOnly,
    Both,
}

impl Speaks {
    fn meets(self, client: Era) -> bool {
        matches!(
            (self, client),
            (Speaks::Both, _) | (Speaks::LegacyOnly, Era::Legacy) | (Speaks::ModernOnly, Era::Modern)
        )
    }
}

/// A client: its era, and its command before where the server goes (`--` and
/// a command, or `--url URL`).
struct Client {
    label: &'static str,
    era: Era,
    command: Vec<String>,
    /// The checks it runs against this surface wherever it gets through (the
    /// legacy client's 18 skip the change events this surface's legacy side
    /// does not offer; the modern client has 12).
    checks: usize,
}

fn clients() -> [Client; 2] {
    [
        Client { label: "ts-1.32-legacy", era: Era::Legacy, command: node("client.mjs", &[]), checks: 18 },
        Client {
            label: "ts-v2-modern",
            era: Era::Modern,
            command: node("client_v2.mjs", &["--negotiation", "pinned"]),
            checks: 12,
        },
    ]
}

/// A client's run, every check run (none stops it): each check's outcome and name.
fn checks(client: &Client, target: &[String]) -> Vec<(bool, String)> {
    let out = Command::new(&client.command[0])
        .args(&client.command[1..])
        .args(target)
        .env("CHECKS_KEEP_GOING", "1")
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", client.label));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| match (l.strip_prefix("ok   "), l.strip_prefix("FAIL ")) {
            (Some(what), _) => Some((true, name_of(what))),
            (_, Some(what)) => Some((false, name_of(what))),
            _ => None,
        })
        .collect()
}

/// A check's name: its text up to the values it shows.
fn name_of(what: &str) -> String {
    what.split([':', '-', '[', '{', '=']).next().unwrap_or(what).trim().to_string()
}

fn passed(outcomes: &[(bool, String)]) -> Vec<&str> {
    outcomes.iter().filter(|(ok, _)| *ok).map(|(_, n)| n.as_str()).collect()
}

/// Whether the bridge's record shows the session passed through: the server
/// heard what the client said and the client what the server said, message
/// for message, the bridge's own probe and its answer aside.
fn passed_through(record: &Path) -> bool {
    // The id the bridge gives its probe (its README's): the tests do not link the bridge.
    let own = |m: &Value| m["id"] == "mcp-era-bridge-discover";
    let client: Vec<(String, Value)> = recorded(record, "client");
    let server: Vec<(String, Value)> = recorded(record, "server").into_iter().filter(|(_, m)| !own(m)).collect();
    ["c2s", "s2c"].iter().all(|dir| {
        let a: Vec<&Value> = client.iter().filter(|(d, _)| d == dir).map(|(_, m)| m).collect();
        let b: Vec<&Value> = server.iter().filter(|(d, _)| d == dir).map(|(_, m)| m).collect();
        a == b
    })
}

/// One cell: the client directly and through the bridge; the checks it passed through the bridge.
fn cell(client: &Client, speaks: Speaks, server: &str, direct: &[String], bridged: &[String], record: &Path) -> usize {
    let cell = format!("{} × {server}", client.label);
    let direct = checks(client, direct);
    let through = checks(client, bridged);
    session_ended(record);
    let failed: Vec<&str> = through.iter().filter(|(ok, _)| !ok).map(|(_, n)| n.as_str()).collect();
    assert!(failed.is_empty(), "{cell}: failed through the bridge: {failed:?}");
    assert!(!through.is_empty(), "{cell}: no check ran through the bridge");
    if speaks.meets(client.era) {
        assert!(direct.iter().all(|(ok, _)| *ok) && !direct.is_empty(), "{cell}: directly: {direct:?}");
        let lost: Vec<&str> = passed(&direct).into_iter().filter(|name| !passed(&through).contains(name)).collect();
        assert!(lost.is_empty(), "{cell}: passed directly, not through the bridge: {lost:?}");
        assert!(passed_through(record), "{cell}: the eras meet, but the record shows no pass-through");
    } else {
        assert!(
            !direct.iter().all(|(ok, _)| *ok) || direct.is_empty(),
            "{cell}: the eras cannot meet, yet directly: {direct:?}"
        );
        assert!(!passed_through(record), "{cell}: the eras cannot meet, yet the record shows a pass-through");
    }
    println!(
        "{cell}: directly {}/{} passed, through the bridge {} passed",
        passed(&direct).len(),
        direct.len(),
        through.len()
    );
    assert_eq!(through.len(), client.checks, "{cell}: the checks run through the bridge");
    through.len()
}

fn record_for(name: &str) -> std::path::PathBuf {
    let record = peers::transcript_path(&format!("matrix-{name}.bridge-record.jsonl"));
    let _ = std::fs::remove_file(&record);
    record
}

#[test]
fn every_check_that_passes_directly_passes_through_the_bridge_and_the_rest_are_translated() {
    let bridge = bridge_bin().display().to_string();
    let dual = python("server.py", &[]);
    let stdio_servers: [(&str, Speaks, Vec<String>); 3] = [
        ("python-legacy-only", Speaks::LegacyOnly, [python("legacy_only.py", &[]), dual.clone()].concat()),
        ("ts-v2-modern-only", Speaks::ModernOnly, node("server_v2.mjs", &["--legacy", "reject"])),
        ("python-dual", Speaks::Both, dual),
    ];
    let mut cells = Vec::new();
    for client in clients() {
        for (server, speaks, command) in &stdio_servers {
            let name = format!("stdio-{}-{server}", client.label);
            let record = record_for(&name);
            let direct: Vec<String> = [&["--".to_string()][..], command].concat();
            let through: Vec<String> =
                [&["--", &bridge, "--record", &record.display().to_string(), "--"].map(String::from)[..], command]
                    .concat();
            cells.push((name, cell(&client, *speaks, server, &direct, &through, &record)));
        }
    }
    let http_servers: [(&str, Speaks, StartPeer); 2] = [
        ("ts-v2-modern-only-http", Speaks::ModernOnly, ts_v2_http_server),
        ("python-dual-http", Speaks::Both, python_http_server),
    ];
    for client in clients() {
        for (server, speaks, start) in &http_servers {
            let name = format!("http-{}-{server}", client.label);
            let peer = start(&format!("matrix-{name}"));
            let record = record_for(&name);
            let direct = vec!["--url".to_string(), peer.url.clone()];
            let through: Vec<String> =
                ["--", &bridge, "--record", &record.display().to_string(), "--connect", &peer.url]
                    .map(String::from)
                    .to_vec();
            cells.push((name, cell(&client, *speaks, server, &direct, &through, &record)));
        }
    }
    // Every cell ran, each with the checks its client has there.
    let counts: Vec<(&str, usize)> = cells.iter().map(|(n, c)| (n.as_str(), *c)).collect();
    assert_eq!(counts.len(), 10, "{counts:?}");
    // 2 clients × 3 servers on stdio, × 2 over HTTP: 150 checks through the bridge.
    assert_eq!(counts.iter().map(|(_, c)| c).sum::<usize>(), 5 * 18 + 5 * 12, "{counts:?}");
}
