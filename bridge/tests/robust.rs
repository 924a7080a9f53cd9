//! Every message anyone wrote, and near misses of them, thrown at both kinds of
//! bridge from both sides: the spec's example messages, every message of the
//! recorded SDK sessions (both eras), and each of them broken the ways a peer
//! breaks them. The bridge never panics, sends only JSON-RPC 2.0 objects, and
//! never drops a request: each one is answered, or sent on to the other side
//! as itself (its method kept) or as what the mapping puts in its place (a
//! listen stream for a subscribe, an `input_required` round for a legacy
//! server's question). So on a fresh session for each message, and for the
//! whole corpus on one session, where a question that comes while a round is
//! out to the client is held for it (counted). The fixtures check their own
//! handshake and open call first: a bridge that broke its handshake fails
//! there, not quietly in every answer.

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
    // The pinned examples and the recorded sessions make 411, exactly.
    assert_eq!(out.len(), 411, "messages found in the examples and the recorded sessions");
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
    // The fixture checks itself: the client's initialize answered from the
    // DiscoverResult, the call sent on to the server with its 2026-07-28 _meta.
    // The server announces tool list changes: a listen stream opened for the client.
    let out = b.from_client(&init.to_string());
    let [Out { to: To::Client, .. }, Out { to: To::Server, .. }] = &out[..] else { panic!("initialize: {out:?}") };
    let (message, listen) = (out[0].message(), out[1].message());
    assert_eq!((message["id"].clone(), message["result"]["protocolVersion"].clone()), (json!(0), json!("2025-11-25")));
    assert_eq!(
        (listen["method"].clone(), listen["params"]["notifications"].clone()),
        (json!("subscriptions/listen"), json!({"toolsListChanged": true}))
    );
    let out = b.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#);
    let [Out { to: To::Server, .. }] = &out[..] else { panic!("tools/call: {out:?}") };
    let message = out[0].message();
    assert_eq!((message["id"].clone(), message["method"].clone()), (json!(1), json!("tools/call")));
    assert_eq!(message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    b
}

/// A modern client and a legacy server, past the handshake, with a call open.
fn to_legacy() -> Bridge {
    let mut b = Bridge::between(Era::Modern, ServerEra::Legacy).unwrap();
    let first = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"_meta": meta(), "name": "t"}});
    let out = b.from_client(&first.to_string());
    // The fixture checks itself: the handshake first, the call sent once it is done.
    let [Out { to: To::Server, .. }] = &out[..] else { panic!("the handshake: {out:?}") };
    let init = out[0].message();
    assert_eq!(init["method"], "initialize");
    let answer = json!({"jsonrpc": "2.0", "id": init["id"], "result": {"protocolVersion": "2025-11-25",
        "capabilities": {"tools": {}, "resources": {"subscribe": true}}, "serverInfo": {"name": "s", "version": "2"}}});
    let out = b.from_server(&answer.to_string());
    let sent: Vec<(To, Value, Value)> =
        out.iter().map(|o| (o.to, o.message()["method"].clone(), o.message()["id"].clone())).collect();
    assert_eq!(
        sent,
        [(To::Server, json!("notifications/initialized"), Value::Null), (To::Server, json!("tools/call"), json!(1))]
    );
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

/// Whether the bridge broke the rules with what it sent for `msg` from `from`, and why.
fn judge(bridge: &mut Bridge, from: To, msg: &Value) -> Result<(), String> {
    judge_sent(bridge, from, msg).1
}

/// What the bridge sent for `msg` from `from`, and whether it broke the rules.
fn judge_sent(bridge: &mut Bridge, from: To, msg: &Value) -> (Vec<Out>, Result<(), String>) {
    let line = msg.to_string();
    let sent = catch_unwind(AssertUnwindSafe(|| match from {
        To::Client => bridge.from_client(&line),
        To::Server => bridge.from_server(&line),
    }));
    let Ok(out) = sent else { return (Vec::new(), Err("panicked".to_string())) };
    let verdict = rules(&out, from, msg);
    (out, verdict)
}

/// The rules every answer keeps: JSON-RPC 2.0 messages only, and a request
/// answered or sent on.
fn rules(out: &[Out], from: To, msg: &Value) -> Result<(), String> {
    for o in out {
        if let Some(why) = not_a_message(&o.message()) {
            return Err(format!("sent {:?} {why}: {}", o.to, o.line));
        }
    }
    let Some(method) = msg.get("method").and_then(Value::as_str).filter(|_| msg.get("id").is_some()) else {
        return Ok(());
    };
    let other = if from == To::Client { To::Server } else { To::Client };
    let answered = out.iter().any(|o| o.to == from && o.message().get("method").is_none() && o.message().get("id") == msg.get("id"))
        // A listen stream is answered by its acknowledgment, and stays open.
        || out.iter().any(|o| o.to == from && o.message()["method"] == "notifications/subscriptions/acknowledged");
    if !answered && !out.iter().any(|o| o.to == other && sends_on(method, from, &o.message())) {
        return Err(format!("a {method} request from the {from:?} was neither answered nor sent on: {out:?}"));
    }
    Ok(())
}

/// Whether `sent`, to the other side, carries on a request of `method` from
/// `from`: the request itself (translated, its method kept), or what the
/// mapping puts in its place.
fn sends_on(method: &str, from: To, sent: &Value) -> bool {
    match (from, sent.get("method").and_then(Value::as_str)) {
        (_, Some(m)) if m == method => true,
        // A legacy client's (un)subscribe: served by a subscriptions/listen stream (the old one cancelled).
        (To::Client, Some("subscriptions/listen" | "notifications/cancelled")) => {
            matches!(method, "resources/subscribe" | "resources/unsubscribe")
        }
        // A modern client's listen stream over a legacy server: its resources subscribed.
        (To::Client, Some("resources/subscribe")) => method == "subscriptions/listen",
        // A legacy server's question during a call: the call answered with an
        // input_required round asking it, or failed for a capability not declared.
        (To::Server, None) => {
            sent.pointer("/result/resultType") == Some(&json!("input_required"))
                || sent.pointer("/error/code") == Some(&json!(-32021))
        }
        _ => false,
    }
}

#[test]
fn no_message_makes_the_bridge_panic_send_a_non_message_or_drop_a_request() {
    let corpus = corpus();
    let mut failures = Vec::new();
    let mut tried = 0;
    let mut held_questions = 0;
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
        // All of them on one session, both sides in turn: no panic, only
        // messages, and no request dropped, whatever came before it.
        // A legacy server's question that comes while a round is out to the
        // client waits for that round (it is asked with the next): held, not
        // dropped; counted.
        let mut one = fresh();
        let mut round_out = false;
        for (n, msg) in corpus.iter().enumerate() {
            let from = if n % 2 == 0 { To::Client } else { To::Server };
            tried += 1;
            let (out, verdict) = judge_sent(&mut one, from, msg);
            let asks_round = |o: &Out| {
                o.to == To::Client && o.message().pointer("/result/resultType") == Some(&json!("input_required"))
            };
            let held = kind.starts_with("modern client") && from == To::Server && out.is_empty() && round_out;
            match verdict {
                Err(_) if held => held_questions += 1,
                Err(why) => {
                    failures.push(format!("{kind}, one session, message {n} from the {from:?}: {why}\n  {msg}"))
                }
                Ok(()) => {}
            }
            if out.iter().any(asks_round) {
                round_out = true;
            } else if from == To::Client
                && out.iter().any(|o| o.to == To::Server && o.message().get("method").is_none())
            {
                // A retry the bridge took: its answers went to the server's questions.
                round_out = false;
            }
        }
    }
    // The one-session runs meet held questions (the rule above is needed), as many as the corpus makes.
    assert_eq!(held_questions, 9, "questions held for a round out in the one-session runs");
    assert!(failures.is_empty(), "{} of {tried}:\n{}", failures.len(), failures.join("\n"));
    eprintln!(
        "{tried} messages, each alone on a fresh session, and the corpus on one session per kind ({held_questions} questions held for a round out)"
    );
}
