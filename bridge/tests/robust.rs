//! Every message anyone wrote, and near misses of them, thrown at both kinds of
//! bridge from both sides: the spec's example messages, every message of the
//! recorded SDK sessions (both eras), and each of them broken the ways a peer
//! breaks them. The bridge never panics, sends only JSON-RPC 2.0 objects, and
//! never drops a request: each one from the client reaches the server or is
//! answered, each one from the server reaches the client or is answered.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use mcp_era_bridge::{Bridge, Era, Out, ServerEra, To, server_era};
use serde_json::{Value, json};

fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

/// The spec's example messages and the recorded sessions' messages.
fn corpus() -> Vec<Value> {
    let mut out = Vec::new();
    let examples = mcp_spec_testkit::spec_dir().join("schema/2026-07-28/examples");
    out.extend(
        mcp_spec_testkit::examples_of(&examples).into_iter().map(|(_, _, v)| v).filter(|v| v.get("jsonrpc").is_some()),
    );
    let data = mcp_spec_testkit::workspace_root().join("tests/bench/data");
    for dir in [data.clone(), data.join("bridge")] {
        for file in sorted_files(&dir).into_iter().filter(|f| f.extension().is_some_and(|e| e == "jsonl")) {
            for line in std::fs::read_to_string(&file).unwrap().lines() {
                let record: Value = serde_json::from_str(line).unwrap();
                if let Some(msg) = record.get("msg") {
                    out.push(msg.clone());
                }
            }
        }
    }
    assert!(out.len() > 300, "only {} messages found", out.len());
    out
}

/// A message broken the ways peers break them.
fn near_misses(msg: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for (key, bad) in [
        ("params", json!(5)),
        ("params", json!([])),
        ("params", Value::Null),
        ("id", json!({"a": 1})),
        ("id", Value::Null),
        ("method", json!(7)),
        ("result", json!("x")),
        ("jsonrpc", json!("1.0")),
    ] {
        let mut m = msg.clone();
        m[key] = bad;
        out.push(m);
    }
    for key in ["params", "id", "method", "jsonrpc", "result"] {
        let mut m = msg.clone();
        if m.as_object_mut().and_then(|o| o.remove(key)).is_some() {
            out.push(m);
        }
    }
    if let Some(meta) = msg.pointer("/params/_meta") {
        let mut m = msg.clone();
        m["params"]["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": 2026, "x": meta.clone()});
        out.push(m);
    }
    out
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"sampling": {}, "roots": {}, "elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}})
}

/// A legacy client and a modern server, past `initialize`, with a call open.
fn to_modern() -> Bridge {
    let discovered = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "result": {
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}}}});
    let found = server_era(&discovered).unwrap();
    let mut b = Bridge::between(Era::Legacy, found).unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"sampling": {}, "elicitation": {}, "roots": {}},
        "clientInfo": {"name": "old", "version": "1"}}});
    b.from_client(&init.to_string());
    b.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#);
    b
}

/// A modern client and a legacy server, past the handshake, with a call open.
fn to_legacy() -> Bridge {
    let mut b = Bridge::between(Era::Modern, ServerEra::Legacy).unwrap();
    let first = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"_meta": meta(), "name": "t"}});
    let out = b.from_client(&first.to_string());
    let init = &out[0].message;
    let answer = json!({"jsonrpc": "2.0", "id": init["id"], "result": {"protocolVersion": "2025-11-25",
        "capabilities": {"tools": {}, "resources": {"subscribe": true}}, "serverInfo": {"name": "s", "version": "2"}}});
    b.from_server(&answer.to_string());
    b
}

/// Why a message the bridge sent is no JSON-RPC 2.0 message, if it is not.
fn not_a_message(m: &Value) -> Option<&'static str> {
    if !m.is_object() || m.get("jsonrpc") != Some(&json!("2.0")) {
        return Some("no JSON-RPC 2.0 object");
    }
    if m.get("method").is_some() {
        return (!m["method"].is_string()).then_some("a method that is no string");
    }
    if m.get("id").is_none() {
        return Some("neither a request, a notification nor a response");
    }
    let error_ok = m.get("error").is_some_and(|e| e["code"].is_i64() && e["message"].is_string());
    match (m.get("result"), m.get("error")) {
        (Some(r), None) if r.is_object() => None,
        (None, Some(_)) if error_ok => None,
        _ => Some("a response with no object result and no well-formed error"),
    }
}

/// What the bridge sent for `msg` from `from`, or why it broke the rules.
fn judge(bridge: &mut Bridge, from: To, msg: &Value) -> Result<(), String> {
    let line = msg.to_string();
    let out: Vec<Out> = catch_unwind(AssertUnwindSafe(|| match from {
        To::Client => bridge.from_client(&line),
        To::Server => bridge.from_server(&line),
    }))
    .map_err(|_| "panicked".to_string())?;
    for o in &out {
        if let Some(why) = not_a_message(&o.message) {
            return Err(format!("sent {:?} {why}: {}", o.to, o.message));
        }
    }
    let is_request = msg.get("method").is_some_and(Value::is_string) && msg.get("id").is_some();
    if is_request {
        let other = if from == To::Client { To::Server } else { To::Client };
        let answered = out.iter().any(|o| o.to == from && o.message.get("id") == msg.get("id"));
        if !answered && !out.iter().any(|o| o.to == other) {
            return Err(format!("a request from the {from:?} went nowhere: {out:?}"));
        }
    }
    Ok(())
}

#[test]
fn no_message_makes_the_bridge_panic_send_a_non_message_or_drop_a_request() {
    let corpus = corpus();
    let mut failures = Vec::new();
    let mut tried = 0;
    for (kind, fresh) in
        [("legacy client, modern server", to_modern as fn() -> Bridge), ("modern client, legacy server", to_legacy)]
    {
        // Each message alone, on a fresh session: every rule applies.
        for msg in corpus.iter().flat_map(|m| std::iter::once(m.clone()).chain(near_misses(m))) {
            for from in [To::Client, To::Server] {
                tried += 1;
                if let Err(why) = judge(&mut fresh(), from, &msg) {
                    failures.push(format!("{kind}, from the {from:?}: {why}\n  {msg}"));
                }
            }
        }
        // All of them on one session, both sides in turn: no panic, only messages.
        let mut one = fresh();
        for (n, msg) in corpus.iter().enumerate() {
            let from = if n % 2 == 0 { To::Client } else { To::Server };
            let line = msg.to_string();
            let result = catch_unwind(AssertUnwindSafe(|| match from {
                To::Client => one.from_client(&line),
                To::Server => one.from_server(&line),
            }));
            match result {
                Err(_) => failures.push(format!("{kind}, one session, message {n}: panicked\n  {msg}")),
                Ok(out) => {
                    if let Some((bad, why)) = out.iter().find_map(|o| not_a_message(&o.message).map(|w| (o, w))) {
                        failures.push(format!("{kind}, one session, message {n}: sent {why}: {}", bad.message));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {tried}:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{tried} messages, each alone on a fresh session, and the corpus on one session per kind");
}
