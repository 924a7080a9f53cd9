//! What the benchmarks share: the spec inputs (found as the tools find them, and
//! loudly missing), the data sets, and a side-by-side timing harness that
//! interleaves the contenders round by round and reports medians.

use std::path::{Path, PathBuf};

use std::time::{Duration, Instant};

use mcp_spec_types::rt::TypeEntry;
use mcp_spec_types::{MethodInfo, v2025_11_25 as legacy, v2026_07_28 as modern};
use serde_json::{Value, json};

/// The spec folder as the tools find it (`MCP_SPEC_DIR`, else the repository's pinned copy).
pub fn spec_dir() -> PathBuf {
    mcp_spec_testkit::spec_dir()
}

/// Every example message of a revision: (type name, JSON text), sorted.
pub fn examples(revision: &str) -> Vec<(String, String)> {
    let dir = spec_dir().join("schema").join(revision).join("examples");
    // Compact, as on the wire.
    mcp_spec_testkit::examples_of(&dir).into_iter().map(|(name, _, value)| (name, value.to_string())).collect()
}

/// A `ListToolsResult` of `n` tools made from the 2026-07-28 example tools
/// (each renamed so no two are alike), as compact JSON.
pub fn many_tools(n: usize) -> String {
    let mut tools: Vec<Value> = Vec::new();
    for (name, text) in examples("2026-07-28") {
        let v: Value = serde_json::from_str(&text).unwrap();
        match name.as_str() {
            "Tool" => tools.push(v),
            "ListToolsResult" => tools.extend(v["tools"].as_array().cloned().unwrap_or_default()),
            _ => {}
        }
    }
    assert!(!tools.is_empty(), "no example tools found");
    let list: Vec<Value> = (0..n)
        .map(|i| {
            let mut t = tools[i % tools.len()].clone();
            t["name"] = json!(format!("{}_{i}", t["name"].as_str().unwrap_or("tool")));
            t
        })
        .collect();
    json!({ "resultType": "complete", "tools": list, "nextCursor": "next-page", "ttlMs": 300000, "cacheScope": "public" }).to_string()
}

/// One contender: a name and what it does with the input once.
pub struct Contender<'a> {
    pub name: &'static str,
    pub run: Box<dyn FnMut() + 'a>,
}

/// The median time of each contender over `rounds`, the order rotating each
/// round so that no one always runs first (or just after the allocator warmed up).
pub fn race(contenders: &mut [Contender<'_>], rounds: usize) -> Vec<(&'static str, Duration)> {
    race_paired(contenders, rounds).into_iter().map(|(name, median, _)| (name, median)).collect()
}

/// Prints a race's results: median, MB/s, each one's time over `ours`'s, and
/// (with a `ceiling`) how close each comes to it.
pub fn print_table(title: &str, bytes: usize, results: &[(&str, Duration)], ours: &str, ceiling: Option<&str>) {
    let time_of =
        |name: &str| results.iter().find(|(n, _)| *n == name).map(|(_, t)| t.as_secs_f64()).unwrap_or(f64::NAN);
    println!("\n{title} ({:.2} MB)", bytes as f64 / 1e6);
    println!("  {:28} {:>10} {:>10} {:>12} {:>12}", "", "median", "MB/s", "it / ours", "of ceiling");
    for (name, t) in results {
        let of_ceiling = ceiling.map(|c| format!("{:.0}%", time_of(c) / t.as_secs_f64() * 100.0)).unwrap_or_default();
        println!(
            "  {:28} {:>8.2}ms {:>10.0} {:>11.2}x {:>12}",
            name,
            t.as_secs_f64() * 1e3,
            mb_per_s(bytes, *t),
            t.as_secs_f64() / time_of(ours),
            of_ceiling
        );
    }
}

pub fn mb_per_s(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

/// One message of a recorded session: who sent it (`c2s`, `s2c`) and its text.
pub struct Recorded {
    pub transcript: String,
    pub from_client: bool,
    pub text: String,
    /// For a result or an error from the server: the method of the request it answers.
    pub answers: Option<String>,
}

/// The sessions the peer tests record (`tests/bench/data/*.jsonl`: the example
/// client against the Python SDK server and the reference server, the example
/// server driven by the Python and TypeScript SDKs' clients), in order.
pub fn sessions() -> Vec<Recorded> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        let mut methods: std::collections::HashMap<(bool, String), String> = Default::default();
        for line in std::fs::read_to_string(&f).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            let record: Value = serde_json::from_str(line).unwrap();
            let from_client = record["dir"] == "c2s";
            let msg = &record["msg"];
            let id = msg.get("id").map(Value::to_string);
            let answers = match (msg.get("method").and_then(Value::as_str), id) {
                (Some(method), Some(id)) => {
                    methods.insert((from_client, id), method.to_string());
                    None
                }
                (None, Some(id)) => methods.get(&(!from_client, id)).cloned(),
                _ => None,
            };
            out.push(Recorded { transcript: name.clone(), from_client, text: msg.to_string(), answers });
        }
    }
    assert!(out.len() > 100, "the recorded sessions are missing from {}", dir.display());
    out
}

/// The type a client reads a server's message as: a result by the method of the
/// request it answers (its response envelope), a request or notification by
/// the revision's union of them, an error as the error response.
fn client_side_type(
    methods: &[MethodInfo],
    types: &'static [TypeEntry],
    text: &str,
    answers: Option<&str>,
) -> &'static TypeEntry {
    let v: Value = serde_json::from_str(text).unwrap();
    let name = if v.get("error").is_some() {
        "JSONRPCErrorResponse".to_string()
    } else if v.get("result").is_some() {
        let method = answers.unwrap_or_else(|| panic!("a result that answers no request: {text}"));
        let info = methods.iter().find(|m| m.method == method).unwrap_or_else(|| panic!("no method {method}"));
        info.response.map(str::to_string).unwrap_or_else(|| "JSONRPCResultResponse".into())
    } else if v.get("id").is_some() {
        "ServerRequest".into()
    } else {
        "ServerNotification".into()
    };
    types.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no type {name}"))
}

/// The server's messages of the sessions, each with the type a client reads it
/// as (the 2025-11-25 types for the sessions of that era).
pub fn client_side(recorded: &[Recorded]) -> Vec<(&'static TypeEntry, &str)> {
    recorded
        .iter()
        .filter(|r| !r.from_client)
        .map(|r| {
            let (methods, types) = if r.transcript.ends_with("legacy") {
                (legacy::METHODS, legacy::SCHEMA_TYPES)
            } else {
                (modern::METHODS, modern::SCHEMA_TYPES)
            };
            (client_side_type(methods, types, &r.text, r.answers.as_deref()), r.text.as_str())
        })
        .collect()
}

/// The mixed stream: every message of the recorded sessions, then the spec's
/// 2026-07-28 example messages that have a JSON-RPC envelope.
pub fn mixed_stream(recorded: &[Recorded]) -> Vec<String> {
    let mut stream: Vec<String> = recorded.iter().map(|r| r.text.clone()).collect();
    for (_, text) in examples("2026-07-28") {
        if serde_json::from_str::<Value>(&text).unwrap().get("jsonrpc").is_some() {
            stream.push(text);
        }
    }
    stream
}

/// Like [`race`], and also each contender's time over the first one's, round by
/// round: the median of those paired ratios is steadier on a noisy machine than
/// a ratio of medians.
pub fn race_paired(contenders: &mut [Contender<'_>], rounds: usize) -> Vec<(&'static str, Duration, f64)> {
    for c in contenders.iter_mut() {
        (c.run)();
    }
    let n = contenders.len();
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); n];
    for round in 0..rounds {
        for k in 0..n {
            let i = (round + k) % n;
            let start = Instant::now();
            (contenders[i].run)();
            times[i].push(start.elapsed());
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    (0..n)
        .map(|i| {
            let ratios: Vec<f64> = (0..rounds).map(|r| times[i][r].as_secs_f64() / times[0][r].as_secs_f64()).collect();
            let mut t = times[i].clone();
            t.sort();
            (contenders[i].name, t[t.len() / 2], median(ratios))
        })
        .collect()
}

/// Prints a paired race: median, MB/s, and the median of the paired ratios
/// (time over the first contender's), and how many messages each rejected.
pub fn print_paired(title: &str, bytes: usize, results: &[(&str, Duration, f64)], rejects: &[(&str, usize)]) {
    println!("\n{title} ({:.3} MB)", bytes as f64 / 1e6);
    println!("  {:28} {:>10} {:>10} {:>16} {:>9}", "", "median", "MB/s", "time / first's", "rejects");
    for (name, t, ratio) in results {
        let rejected = rejects.iter().find(|(n, _)| n == name).map(|(_, r)| r.to_string()).unwrap_or_default();
        println!(
            "  {:28} {:>8.3}ms {:>10.0} {:>15.2}x {:>9}",
            name,
            t.as_secs_f64() * 1e3,
            mb_per_s(bytes, *t),
            ratio,
            rejected
        );
    }
}

/// Whether two JSON values are equal, numbers compared as numbers (a peer's
/// `1.0` is written back as `1`; `1` and `1.5` differ).
pub fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}
