//! Past one machine: two bridges (`--listen --connect`) behind a real balancer,
//! HAProxy 2.6 as Debian 12 ships it (`peers::haproxy`: its packages downloaded
//! with `apt-get download` and unpacked under `target/peers`, nothing installed
//! on the machine), on loopback. What a bridge keeps per session decides the
//! configuration (`bridge/README.md`, "When one machine is not enough"):
//! - a legacy client's session lives in the bridge that minted its
//!   `Mcp-Session-Id`: HAProxy learns the id from the answer
//!   (`stick store-response`) and sends every later request carrying it there;
//! - a modern client's calls are held by the bridge that translates them
//!   between `input_required` rounds (its `requestState` names a call only that
//!   bridge has): requests are balanced by a hash of the client's
//!   `Authorization`, so one client's requests reach one bridge (the bridge
//!   keys a modern client's session by the same header).
//!
//! The bridges translate modern clients onto the Python SDK server's legacy side
//! (`--server-era legacy`), so each modern client's `input_required` round is
//! held in one bridge; legacy clients pass through.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_spec_tests::peers;
use serde_json::{Value, json};

use crate::bridge_http_peers::{HttpPeer, free_port, http_peer, python_http_server};
use crate::bridge_peers::bridge_bin;

const CLIENTS: usize = 32;
const CALLS: usize = 50;

/// The configuration tested (the README quotes it): sticky, or plain round robin.
fn config(port: u16, bridges: [u16; 2], sticky: bool) -> String {
    let balance = if sticky {
        "    # A modern client's requests (its input_required retries too) reach one bridge: by its Authorization.
    balance hdr(Authorization)
    hash-type consistent
    # A legacy client's session stays with the bridge that minted its Mcp-Session-Id.
    stick-table type string len 64 size 100k expire 1h
    stick store-response res.hdr(Mcp-Session-Id)
    stick match req.hdr(Mcp-Session-Id)"
    } else {
        "    balance roundrobin"
    };
    format!(
        "global
    maxconn 4096

defaults
    mode http
    timeout connect 5s
    timeout client 120s
    timeout server 120s

frontend mcp
    bind 127.0.0.1:{port}
    default_backend bridges

backend bridges
{balance}
    server a 127.0.0.1:{} check
    server b 127.0.0.1:{} check
",
        bridges[0], bridges[1]
    )
}

/// HAProxy in the foreground with the configuration, checked first; stopped when dropped.
fn balancer(name: &str, bridges: [u16; 2], sticky: bool) -> HttpPeer {
    let (haproxy, libs) = peers::haproxy();
    let port = free_port();
    let cfg = peers::transcript_path(&format!("{name}.haproxy.cfg"));
    std::fs::write(&cfg, config(port, bridges, sticky)).unwrap();
    let check = Command::new(&haproxy).env("LD_LIBRARY_PATH", &libs).arg("-c").arg("-f").arg(&cfg).output().unwrap();
    assert!(check.status.success(), "{}: {}", cfg.display(), String::from_utf8_lossy(&check.stderr));
    let mut cmd = Command::new(&haproxy);
    cmd.env("LD_LIBRARY_PATH", &libs).arg("-db").arg("-f").arg(&cfg);
    http_peer(&format!("{name}.haproxy"), port, "/mcp", &mut cmd)
}

/// Two bridges in front of `server`, each recording to its own file.
fn bridges(name: &str, server: &str) -> ([HttpPeer; 2], [PathBuf; 2]) {
    let start = |label: &str| {
        let record = peers::transcript_path(&format!("{name}.bridge-{label}.jsonl"));
        let _ = std::fs::remove_file(&record);
        let port = free_port();
        let mut cmd = Command::new(bridge_bin());
        cmd.args(["--listen", &port.to_string(), "--server-era", "legacy", "--connect", server, "--record"])
            .arg(&record);
        (http_peer(&format!("{name}.bridge-{label}"), port, "/mcp", &mut cmd), record)
    };
    let ((a, ra), (b, rb)) = (start("a"), start("b"));
    ([a, b], [ra, rb])
}

fn port_of(url: &str) -> u16 {
    url.rsplit(':').next().unwrap().split('/').next().unwrap().parse().unwrap()
}

/// One client through the balancer: what it got, by what it asked.
struct Outcome {
    answered: usize,
    /// Requests the balancer sent to a bridge that did not have what they named.
    lost: Vec<String>,
}

/// A legacy client (a session) or a modern one (stateless, one `input_required`
/// round per call of `confirm_raw`), `calls` echo calls and one confirm, each
/// with its own `Authorization`; each answer checked to be its own.
fn client(url: &str, n: usize, legacy: bool, calls: usize) -> Outcome {
    let http = reqwest::blocking::Client::new();
    let token = format!("Bearer client-{n}");
    let post = |body: &Value, headers: &[(String, String)]| {
        let mut r = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("authorization", &token)
            .timeout(Duration::from_secs(60));
        for (k, v) in headers {
            r = r.header(k, v);
        }
        let response = r.body(body.to_string()).send().unwrap_or_else(|e| panic!("client {n}: {e}"));
        let status = response.status().as_u16();
        let text = response.text().unwrap();
        let data = text.lines().filter_map(|l| l.strip_prefix("data:")).next_back().map(str::trim).unwrap_or(&text);
        (status, serde_json::from_str::<Value>(data).unwrap_or(Value::Null))
    };
    let info = json!({"name": format!("balanced-{n}"), "version": "0"});
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": info});
    let mut out = Outcome { answered: 0, lost: Vec::new() };
    let mut session = Vec::new();
    if legacy {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": info}});
        let r = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("authorization", &token)
            .body(init.to_string())
            .send()
            .unwrap();
        let id = r.headers()["mcp-session-id"].to_str().unwrap().to_string();
        session =
            vec![("Mcp-Session-Id".to_string(), id), ("MCP-Protocol-Version".to_string(), "2025-11-25".to_string())];
        let (status, _) = post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), &session);
        if status != 202 {
            out.lost.push(format!("client {n}: initialized: HTTP {status}"));
            return out;
        }
    }
    let headers_of = |body: &Value| {
        if legacy { session.clone() } else { mcp_spec_types::http::request_headers(body, None).unwrap() }
    };
    for i in 1..=calls {
        let text = format!("client {n} call {i}");
        let mut params = json!({"name": "echo", "arguments": {"text": text}});
        if !legacy {
            params["_meta"] = meta.clone();
        }
        let body = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params});
        let (status, answer) = post(&body, &headers_of(&body));
        if answer.pointer("/result/content/0/text") == Some(&json!(text)) && answer["id"] == i {
            out.answered += 1;
        } else {
            out.lost.push(format!("client {n} call {i}: HTTP {status} {answer}"));
        }
    }
    if !legacy {
        // One input_required round: the retry must reach the bridge that holds the call.
        let id = calls + 1;
        let params = json!({"name": "confirm_raw", "arguments": {"action": format!("deploy-{n}")}, "_meta": meta});
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let (_, asked) = post(&call, &headers_of(&call));
        let (Some(requests), Some(state)) =
            (asked.pointer("/result/inputRequests").and_then(Value::as_object), asked.pointer("/result/requestState"))
        else {
            panic!("client {n}: no input_required round: {asked}");
        };
        let responses: serde_json::Map<String, Value> =
            requests.keys().map(|k| (k.clone(), json!({"action": "accept", "content": {"ok": true}}))).collect();
        let mut retry = call.clone();
        retry["id"] = json!(id + 1);
        retry["params"]["inputResponses"] = Value::Object(responses);
        retry["params"]["requestState"] = state.clone();
        let (status, done) = post(&retry, &headers_of(&retry));
        let text = done.pointer("/result/content/0/text").and_then(Value::as_str).unwrap_or_default();
        if text.starts_with(&format!("deploy-{n}: accept")) {
            out.answered += 1;
        } else {
            out.lost.push(format!("client {n} retry: HTTP {status} {done}"));
        }
    }
    out
}

/// The sessions each bridge's record names: how the load was shared.
fn sessions_in(record: &Path) -> usize {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    let mut seen: Vec<Value> = Vec::new();
    for line in text.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        if !seen.contains(&line["session"]) {
            seen.push(line["session"].clone());
        }
    }
    seen.len()
}

#[test]
fn two_bridges_behind_haproxy_answer_every_client_and_without_stickiness_sessions_break() {
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
    let name = "balance";
    let server = python_http_server(name);
    let (bridges, records) = bridges(name, &server.url);
    let ports = [port_of(&bridges[0].url), port_of(&bridges[1].url)];

    // Sticky: 32 clients at once, half of each era, every answer to its asker.
    let sticky = balancer(&format!("{name}-sticky"), ports, true);
    let started = Instant::now();
    let threads: Vec<_> = (0..CLIENTS)
        .map(|n| {
            let url = sticky.url.clone();
            std::thread::spawn(move || client(&url, n, n % 2 == 0, CALLS))
        })
        .collect();
    let outcomes: Vec<Outcome> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let lost: Vec<&String> = outcomes.iter().flat_map(|o| &o.lost).collect();
    assert!(lost.is_empty(), "through the sticky balancer: {lost:#?}");
    let answered: usize = outcomes.iter().map(|o| o.answered).sum();
    assert_eq!(answered, CLIENTS * CALLS + CLIENTS / 2, "every call and every modern client's round");
    let shared = [sessions_in(&records[0]), sessions_in(&records[1])];
    println!(
        "{CLIENTS} clients, {answered} answers through HAProxy in {:?}; sessions per bridge {shared:?}",
        started.elapsed()
    );
    assert!(shared.iter().all(|s| *s > 0), "both bridges served: {shared:?}");
    drop(sticky);

    // Round robin without stickiness: what breaks. One client at a time, so the
    // alternation is known: a legacy client's second request reaches the other
    // bridge, which has no such session; a modern client's retry reaches the
    // bridge that does not hold its call.
    let plain = balancer(&format!("{name}-round-robin"), ports, false);
    let legacy = client(&plain.url, 100, true, 1);
    assert!(
        legacy.lost.iter().any(|l| l.contains("HTTP 404")),
        "a legacy session on the other bridge is unknown (404): {:?}",
        legacy.lost
    );
    let modern = client(&plain.url, 101, false, 1);
    assert!(
        modern.lost.iter().any(|l| l.contains("retry") && l.contains("requestState")),
        "a retry on the other bridge names a call it does not hold: {:?}",
        modern.lost
    );
}
