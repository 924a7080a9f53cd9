//! The bridge's upstream over Streamable HTTP (`--connect URL`) between real
//! SDKs and real HTTP servers of both eras and both shapes of the transport.
//! The client's side is recorded by a proxy that is not ours (`tee_proxy.py`)
//! and checked against the bridge's `--record`; the server's side is the
//! bridge's record of what it POSTed and what came back (no stdio proxy can sit
//! on HTTP). Each side is judged with the generated types of its own revision.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_spec_tests::{Checks, peers, transcript};
use serde_json::{Value, json};

use crate::bridge_peers::{
    NO_CHANGE_EVENTS, asked_as_requests, bridge_bin, judged, node, python, recorded, run_through, session_ended,
};

/// A peer server on Streamable HTTP at a free loopback port, stopped when dropped.
pub(crate) struct HttpPeer {
    child: Child,
    pub url: String,
    /// Its stderr.
    pub log: PathBuf,
}

/// Runs `f`; when it fails, the logs (the bridge's, the server's) are printed
/// before the failure goes on, so a failure in CI says why.
fn or_logs<T>(logs: &[&Path], f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(t) => t,
        Err(panic) => {
            for log in logs {
                let text = std::fs::read_to_string(log).unwrap_or_else(|e| format!("(unreadable: {e})"));
                let lines: Vec<&str> = text.lines().collect();
                let tail = &lines[lines.len().saturating_sub(200)..];
                eprintln!("--- {} (its last {} lines) ---\n{}", log.display(), tail.len(), tail.join("\n"));
            }
            std::panic::resume_unwind(panic)
        }
    }
}

impl Drop for HttpPeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The Python SDK's server (tests/peers/python/server.py) on Streamable HTTP: both eras, each in its shape.
pub(crate) fn python_http_server(name: &str) -> HttpPeer {
    let mut program = python("server.py", &[]);
    program.push("--http".into());
    let port = free_port();
    program.push(port.to_string());
    http_peer(name, port, "/mcp", Command::new(&program[0]).args(&program[1..]))
}

/// `cmd`, serving on `port`, once it listens there.
pub(crate) fn http_peer(name: &str, port: u16, path: &str, cmd: &mut Command) -> HttpPeer {
    cmd.stdin(Stdio::null()).stdout(Stdio::null());
    let log = peers::transcript_path(&format!("{name}.server-log"));
    cmd.stderr(std::fs::File::create(&log).unwrap());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("{name}: {:?}: {e}", cmd.get_program()));
    let until = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{name}: the server exited ({status}) before listening; its log: {}", log.display());
        }
        assert!(Instant::now() < until, "{name}: the server did not listen on {port} in 30 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    HttpPeer { child, url: format!("http://127.0.0.1:{port}{path}"), log }
}

/// How a peer server is started (by the name of its test).
pub(crate) type StartPeer = fn(&str) -> HttpPeer;

/// The TypeScript SDK v2's server (tests/peers/node/server_v2.mjs) on Streamable HTTP,
/// modern only: it refuses the `initialize` handshake.
pub(crate) fn ts_v2_http_server(name: &str) -> HttpPeer {
    let port = free_port();
    let program = node("server_v2.mjs", &["--legacy", "reject", "--http", &port.to_string()]);
    http_peer(name, port, "/mcp", Command::new(&program[0]).args(&program[1..]))
}

/// The reference server (`server-everything`) started with `streamableHttp`: a 2025-11-25 server with sessions.
pub(crate) fn everything_http_server(name: &str) -> HttpPeer {
    let program = node("node_modules/@modelcontextprotocol/server-everything/dist/index.js", &["streamableHttp"]);
    let port = free_port();
    http_peer(name, port, "/mcp", Command::new(&program[0]).args(&program[1..]).env("PORT", port.to_string()))
}

/// Runs `client` against the server at `url` through `mcp-era-bridge --connect`,
/// the client's side teed; the client's side and the server's side (from the
/// bridge's record) as transcripts, and the record.
pub(crate) fn bridged_http(
    name: &str,
    client: &[String],
    url: &str,
    extra: &[&str],
    checks: Checks,
) -> (PathBuf, PathBuf, PathBuf) {
    let client_side = peers::transcript_path(&format!("{name}.client-side"));
    let server_side = peers::transcript_path(&format!("{name}.server-side"));
    let record = client_side.with_file_name(format!("{name}.bridge-record.jsonl"));
    let _ = std::fs::remove_file(&record);
    let bridge = vec![
        bridge_bin().display().to_string(),
        "--record".to_string(),
        record.display().to_string(),
        "--connect".to_string(),
        url.to_string(),
    ];
    let bridge: Vec<String> = bridge.into_iter().chain(extra.iter().map(|a| a.to_string())).collect();
    run_through(name, client, &peers::teed(&client_side, &bridge), &[&client_side, &record], &checks);
    session_ended(&record);
    write_side(&record, "server", &server_side);
    same_side(&record, "client", &client_side);
    (client_side, server_side, record)
}

/// The Python SDK's server speaks both eras: told it is modern, the bridge
/// translates a legacy client's session (without, it passes it through).
const TRANSLATE: &[&str] = &["--server-era", "modern"];

/// One side of the bridge's record as a transcript (`{"dir", "msg"}` lines).
fn write_side(record: &Path, side: &str, to: &Path) {
    let lines: String = recorded(record, side)
        .into_iter()
        .map(|(dir, msg)| serde_json::json!({"dir": dir, "msg": msg}).to_string() + "\n")
        .collect();
    std::fs::write(to, lines).unwrap();
}

#[test]
fn a_legacy_typescript_sdk_client_uses_a_modern_python_sdk_http_server_through_connect() {
    let server = python_http_server("connect-ts-legacy-to-python-http");
    let client = node("client.mjs", &[]);
    let (client_side, server_side, _) =
        bridged_http("connect-ts-legacy-to-python-http", &client, &server.url, TRANSLATE, Checks::all(20));
    let c = judged(&client_side);
    asked_as_requests(&c);
    // The server saw the modern shape only: no handshake, the probe, input_required rounds, listen streams.
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    assert_eq!(s.count("c2s request initialize") + s.count("c2s request ping"), 0, "{:?}", s.kinds);
    assert_eq!(s.count("c2s request server/discover"), 1, "{:?}", s.kinds);
    assert_eq!(s.count("s2c result InputRequiredResult"), 3, "{:?}", s.kinds);
    assert_eq!(s.count("c2s request subscriptions/listen"), 3, "{:?}", s.kinds);
    for event in ["notifications/tools/list_changed", "notifications/resources/updated"] {
        let kind = format!("s2c notification {event}");
        assert_eq!((s.count(&kind), c.count(&kind)), (1, 1), "{event}: {:?} / {:?}", s.kinds, c.kinds);
    }
}

#[test]
fn an_older_hosts_typescript_sdk_client_at_2025_03_26_uses_a_modern_python_sdk_http_server_through_connect() {
    let server = python_http_server("connect-ts-2025-03-26-to-python-http");
    let client = node("client_2025_03_26.mjs", &[]);
    let (client_side, server_side, _) =
        bridged_http("connect-ts-2025-03-26-to-python-http", &client, &server.url, TRANSLATE, Checks::all(14));
    let c = judged(&client_side);
    assert_eq!(c.revision, "2025-03-26");
    assert_eq!(c.count("s2c request sampling/createMessage"), 1, "{:?}", c.kinds);
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    assert_eq!(s.count("s2c result InputRequiredResult"), 1, "{:?}", s.kinds);
}

#[test]
fn modern_clients_use_the_legacy_reference_server_over_http_through_connect() {
    let clients = [
        ("python-modern", python("client_everything.py", &["--mode", "modern"])),
        ("ts-v2-pinned", node("client_v2.mjs", &["--negotiation", "pinned", "--surface", "everything"])),
    ];
    for (label, client) in clients {
        let name = format!("connect-{label}-to-everything-http");
        let server = everything_http_server(&name);
        let (client_side, server_side, _) = bridged_http(&name, &client, &server.url, &[], Checks::all(11));
        let c = judged(&client_side);
        assert_eq!(c.revision, "2026-07-28", "{label}");
        assert_eq!(c.count("s2c request"), 0, "{label}: a modern client takes no requests: {:?}", c.kinds);
        assert_eq!(c.count("s2c result InputRequiredResult"), 3, "{label}: {:?}", c.kinds);
        // The server's session: one handshake, its questions asked on the call's stream and answered by POSTs.
        let s = judged(&server_side);
        assert_eq!(s.revision, "2025-11-25", "{label}");
        assert_eq!(s.count("c2s request initialize"), 1, "{label}: {:?}", s.kinds);
        for asked in ["sampling/createMessage", "elicitation/create", "roots/list"] {
            assert_eq!(s.count(&format!("s2c request {asked}")), 1, "{label}: {asked}: {:?}", s.kinds);
        }
        assert_eq!(s.count("c2s result"), 3, "{label}: each answered: {:?}", s.kinds);
    }
}

/// The reference server (`server-everything`) started with `sse`: 2024-11-05's HTTP+SSE transport
/// (a GET stream at `/sse` whose `endpoint` event names where to POST).
pub(crate) fn everything_sse_server(name: &str) -> HttpPeer {
    let program = node("node_modules/@modelcontextprotocol/server-everything/dist/index.js", &["sse"]);
    let port = free_port();
    http_peer(name, port, "/sse", Command::new(&program[0]).args(&program[1..]).env("PORT", port.to_string()))
}

#[test]
fn clients_of_both_eras_reach_a_2024_11_05_http_sse_server_through_connect_falling_back_from_streamable_http() {
    let clients = [
        ("python-modern", python("client_everything.py", &["--mode", "modern"])),
        ("ts-v2-pinned", node("client_v2.mjs", &["--negotiation", "pinned", "--surface", "everything"])),
        ("python-legacy", python("client_everything.py", &["--mode", "legacy"])),
    ];
    for (label, client) in clients {
        let legacy = label.ends_with("legacy");
        let name = format!("connect-{label}-to-everything-sse");
        let server = everything_sse_server(&name);
        let (client_side, server_side, _) = bridged_http(&name, &client, &server.url, &[], Checks::all(11));
        let c = judged(&client_side);
        let s = judged(&server_side);
        if legacy {
            // The eras meet: passed through, the server's questions reaching the client as requests.
            assert_eq!(c.revision, "2025-11-25", "{label}");
            assert_eq!(c.count("s2c request"), 3, "{label}: {:?}", c.kinds);
        } else {
            assert_eq!(c.revision, "2026-07-28", "{label}");
            assert_eq!(c.count("s2c result InputRequiredResult"), 3, "{label}: {:?}", c.kinds);
        }
        assert_eq!(s.count("c2s request initialize"), 1, "{label}: one handshake, over HTTP+SSE: {:?}", s.kinds);
        for asked in ["sampling/createMessage", "elicitation/create", "roots/list"] {
            assert_eq!(s.count(&format!("s2c request {asked}")), 1, "{label}: {asked}: {:?}", s.kinds);
        }
        assert_eq!(s.count("c2s result"), 3, "{label}: each answered: {:?}", s.kinds);
        // The fallback, as the bridge's log says it (the record holds messages only).
        let log = peers::installed().join(format!("transcripts/{name}.stderr.jsonl"));
        let log = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
        assert!(log.contains("trying the 2024-11-05 HTTP+SSE transport"), "{label}: {log}");
        assert!(log.contains("the server's HTTP+SSE endpoint: /message?sessionId="), "{label}: {log}");
    }
}

/// The bridge serving HTTP clients (`--listen`) in front of `upstream` (a
/// command, teed to `server_side`, or `--connect URL`), stopped when dropped.
pub(crate) struct Listening {
    peer: HttpPeer,
    pub record: PathBuf,
}

impl Listening {
    pub(crate) fn url(&self) -> &str {
        &self.peer.url
    }

    /// Stops the bridge as a service manager does (SIGTERM), so that every
    /// session ends and the record is complete; its exit status. Its log must
    /// say no message was dropped or sent to no one, as the stdio tests hold it.
    pub(crate) fn stop(mut self) -> std::process::ExitStatus {
        let pid = self.peer.child.id().to_string();
        Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        let until = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = self.peer.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < until, "the bridge did not stop in 20 s after SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        };
        let log = std::fs::read_to_string(&self.peer.log).unwrap_or_default();
        let dropped: Vec<&str> = log.lines().filter(|l| DROPPED.iter().any(|d| l.contains(d))).collect();
        assert!(
            dropped.is_empty(),
            "the bridge dropped something ({}):\n{}",
            self.peer.log.display(),
            dropped.join("\n")
        );
        status
    }
}

/// What the bridge's log says of a message it did not deliver.
const DROPPED: [&str; 3] = ["not sent on", "to no request", "dropped:"];

pub(crate) fn listening(name: &str, args: &[String]) -> Listening {
    let record = peers::transcript_path(&format!("{name}.bridge-record"));
    let _ = std::fs::remove_file(&record);
    let port = free_port();
    let mut cmd = Command::new(bridge_bin());
    cmd.args(["--listen", &port.to_string(), "--record", &record.display().to_string()]).args(args);
    Listening { peer: http_peer(&format!("{name}.bridge"), port, "/mcp", &mut cmd), record }
}

/// Runs an HTTP `client` (its command ending where `--url URL` goes) and checks that it passed.
fn run_http_client(name: &str, client: &[String], url: &str, checks: Checks) {
    let out = Command::new(&client[0])
        .args(&client[1..])
        .args(["--url", url])
        .output()
        .unwrap_or_else(|e| panic!("{name}: {:?}: {e}", client[0]));
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "{name}: the client failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    checks.assert_run(name, &stdout);
}

#[test]
fn a_legacy_typescript_sdk_http_client_uses_a_modern_python_sdk_server_through_listen() {
    let name = "listen-ts-legacy-http-to-python-stdio";
    let server_side = peers::transcript_path(&format!("{name}.server-side"));
    let client_side = peers::transcript_path(&format!("{name}.client-side"));
    let mut args = vec!["--server-era".to_string(), "modern".to_string(), "--".to_string()];
    args.extend(peers::teed(&server_side, &python("server.py", &[])));
    let bridge = listening(name, &args);
    run_http_client(name, &node("client.mjs", &[]), bridge.url(), Checks::all(20));
    let record = bridge.record.clone();
    assert!(bridge.stop().success());
    write_side(&record, "client", &client_side);
    // The client spoke 2025-11-25 over HTTP with a session; the server 2026-07-28 on stdio.
    let c = judged(&client_side);
    asked_as_requests(&c);
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    assert_eq!(s.count("c2s request initialize"), 0, "{:?}", s.kinds);
    assert_eq!(s.count("s2c result InputRequiredResult"), 3, "{:?}", s.kinds);
    same_side(&record, "server", &server_side);
}

/// The bridge's record of `side` is what the proxy on it saw, each direction in order.
fn same_side(record: &Path, side: &str, teed: &Path) {
    let teed = transcript::read(teed);
    let ours = recorded(record, side);
    assert_eq!(ours.len(), teed.len(), "{side} side: the record and the proxy");
    for dir in ["c2s", "s2c"] {
        let a: Vec<_> = ours.iter().filter(|(d, _)| d == dir).map(|(_, m)| m).collect();
        let b: Vec<_> = teed.iter().filter(|(d, _)| d == dir).map(|(_, m)| m).collect();
        assert_eq!(a, b, "{side} side, {dir}: the record and the proxy differ");
    }
}

#[test]
fn modern_http_clients_use_the_legacy_reference_server_through_listen() {
    let clients = [
        ("python-pinned", python("client_everything.py", &["--mode", "pinned"])),
        ("ts-v2-pinned", node("client_v2.mjs", &["--negotiation", "pinned", "--surface", "everything"])),
    ];
    let everything = node("node_modules/@modelcontextprotocol/server-everything/dist/index.js", &[]);
    for (label, client) in clients {
        let name = format!("listen-{label}-http-to-everything-stdio");
        let server_side = peers::transcript_path(&format!("{name}.server-side"));
        let client_side = peers::transcript_path(&format!("{name}.client-side"));
        let mut args = vec!["--".to_string()];
        args.extend(peers::teed(&server_side, &everything));
        let bridge = listening(&name, &args);
        run_http_client(&name, &client, bridge.url(), Checks::all(11));
        let record = bridge.record.clone();
        assert!(bridge.stop().success(), "{label}");
        write_side(&record, "client", &client_side);
        let c = judged(&client_side);
        assert_eq!(c.revision, "2026-07-28", "{label}");
        assert_eq!(c.count("c2s request initialize"), 0, "{label}: {:?}", c.kinds);
        assert_eq!(c.count("s2c result InputRequiredResult"), 3, "{label}: {:?}", c.kinds);
        // One handshake for the client's whole life: its requests are one identity's.
        let s = judged(&server_side);
        assert_eq!(s.revision, "2025-11-25", "{label}");
        assert_eq!(s.count("c2s request initialize"), 1, "{label}: {:?}", s.kinds);
        assert_eq!(s.count("c2s result"), 3, "{label}: each question answered: {:?}", s.kinds);
        same_side(&record, "server", &server_side);
    }
}

#[test]
fn a_legacy_http_client_reaches_modern_http_servers_through_listen_and_connect() {
    // The TypeScript SDK v2 demo server has no change events to offer: those checks are skipped.
    let servers: [(&str, StartPeer, Checks); 2] = [
        ("python", python_http_server, Checks::all(20)),
        ("ts-v2", ts_v2_http_server, Checks::skipping(18, &[NO_CHANGE_EVENTS])),
    ];
    for (label, start, checks) in servers {
        let name = format!("listen-connect-ts-legacy-to-{label}-http");
        let server = start(&name);
        let args = ["--server-era".to_string(), "modern".to_string(), "--connect".to_string(), server.url.clone()];
        let bridge = listening(&name, &args);
        run_http_client(&name, &node("client.mjs", &[]), bridge.url(), checks);
        let record = bridge.record.clone();
        assert!(bridge.stop().success(), "{label}");
        let (client_side, server_side) = (
            peers::transcript_path(&format!("{name}.client-side")),
            peers::transcript_path(&format!("{name}.server-side")),
        );
        write_side(&record, "client", &client_side);
        write_side(&record, "server", &server_side);
        asked_as_requests(&judged(&client_side));
        let s = judged(&server_side);
        assert_eq!(s.revision, "2026-07-28", "{label}");
        assert_eq!(s.count("c2s request initialize"), 0, "{label}: {:?}", s.kinds);
        assert_eq!(s.count("s2c result InputRequiredResult"), 3, "{label}: {:?}", s.kinds);
    }
}

#[test]
fn a_legacy_typescript_sdk_client_uses_a_modern_only_typescript_sdk_v2_http_server_through_connect() {
    let name = "connect-ts-legacy-to-ts-v2-http";
    let server = ts_v2_http_server(name);
    let (client_side, server_side, _) =
        bridged_http(name, &node("client.mjs", &[]), &server.url, &[], Checks::skipping(18, &[NO_CHANGE_EVENTS]));
    asked_as_requests(&judged(&client_side));
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    // The client's initialize went to the server first; its refusal told the bridge to translate.
    assert_eq!(s.count("c2s request initialize"), 1, "{:?}", s.kinds);
    assert_eq!(s.count("c2s request ping"), 0, "{:?}", s.kinds);
    assert_eq!(s.count("s2c result InputRequiredResult"), 3, "{:?}", s.kinds);
}

#[test]
fn a_modern_http_client_reaches_the_legacy_reference_http_server_through_listen_and_connect() {
    let name = "listen-connect-ts-v2-to-everything-http";
    let server = everything_http_server(name);
    let bridge = listening(name, &["--connect".to_string(), server.url.clone()]);
    let client = node("client_v2.mjs", &["--negotiation", "pinned", "--surface", "everything"]);
    run_http_client(name, &client, bridge.url(), Checks::all(11));
    let record = bridge.record.clone();
    assert!(bridge.stop().success());
    let (client_side, server_side) = (
        peers::transcript_path(&format!("{name}.client-side")),
        peers::transcript_path(&format!("{name}.server-side")),
    );
    write_side(&record, "client", &client_side);
    write_side(&record, "server", &server_side);
    let c = judged(&client_side);
    assert_eq!(c.revision, "2026-07-28");
    assert_eq!(c.count("s2c result InputRequiredResult"), 3, "{:?}", c.kinds);
    let s = judged(&server_side);
    assert_eq!(s.revision, "2025-11-25");
    assert_eq!(s.count("c2s request initialize"), 1, "{:?}", s.kinds);
    assert_eq!(s.count("c2s result"), 3, "{:?}", s.kinds);
}

/// The peak memory of a process (Linux's VmHWM), in KiB.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The JSON-RPC message of an HTTP answer: its JSON body, or the last event of its SSE stream.
fn message_of(response: reqwest::blocking::Response) -> Value {
    let text = response.text().unwrap();
    let data = text.lines().filter_map(|l| l.strip_prefix("data:")).next_back().map(str::trim).unwrap_or(&text);
    serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}: {text}"))
}

const LOAD_CLIENTS: usize = 32;
const LOAD_CALLS: usize = 200;

/// One HTTP client of the load test: `calls` echo calls, each answer checked to be its own.
fn load_client(url: &str, n: usize, legacy: bool) -> usize {
    let http = reqwest::blocking::Client::new();
    let post = |body: &Value, headers: &[(String, String)]| {
        let mut r = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .timeout(Duration::from_secs(60));
        for (k, v) in headers {
            r = r.header(k, v);
        }
        r.body(body.to_string()).send().unwrap_or_else(|e| panic!("client {n}: {e}"))
    };
    let info = json!({"name": format!("load-{n}"), "version": "0"});
    let mut session = Vec::new();
    if legacy {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": info}});
        let r = post(&init, &[]);
        let id = r.headers()["mcp-session-id"].to_str().unwrap().to_string();
        assert!(message_of(r).get("result").is_some());
        session =
            vec![("Mcp-Session-Id".to_string(), id), ("MCP-Protocol-Version".to_string(), "2025-11-25".to_string())];
        assert_eq!(post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), &session).status(), 202);
    }
    let mut answered = 0;
    for i in 1..=LOAD_CALLS {
        let text = format!("client {n} call {i}");
        let mut params = json!({"name": "echo", "arguments": {"text": text}});
        if !legacy {
            params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": info});
        }
        let body = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params});
        let headers =
            if legacy { session.clone() } else { mcp_spec_types::http::request_headers(&body, None).unwrap() };
        let answer = message_of(post(&body, &headers));
        assert_eq!(answer["id"], i, "client {n}: {answer}");
        assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!(text)), "client {n}: {answer}");
        answered += 1;
    }
    answered
}

#[test]
fn thirty_two_http_clients_of_both_eras_each_get_their_own_answers_through_one_bridge() {
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
    let name = "listen-load";
    let server = python_http_server(name);
    let bridge = listening(name, &["--connect".to_string(), server.url.clone()]);
    let url = bridge.url().to_string();
    let logs = [bridge.peer.log.clone(), server.log.clone()];
    or_logs(&[&logs[0], &logs[1]], || {
        let started = Instant::now();
        let threads: Vec<_> = (0..LOAD_CLIENTS)
            .map(|n| {
                let url = url.clone();
                std::thread::spawn(move || load_client(&url, n, n % 2 == 0))
            })
            .collect();
        let answered: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
        let peak = peak_kib(bridge.peer.child.id());
        println!(
            "{LOAD_CLIENTS} clients (half legacy, half modern) x {LOAD_CALLS} calls: {answered} answers in {:.1?}; the bridge's peak memory {} MiB",
            started.elapsed(),
            peak / 1024
        );
        assert_eq!(answered, LOAD_CLIENTS * LOAD_CALLS);
        assert!(peak < 256 * 1024, "the bridge's peak memory: {peak} KiB");
        assert!(bridge.stop().success());
    });
}

/// The outcome of each check a client printed (`ok` or `FAIL`, then its text), in order.
fn outcomes(stdout: &str) -> Vec<(bool, String)> {
    stdout
        .lines()
        .filter_map(|l| match (l.strip_prefix("ok   "), l.strip_prefix("FAIL ")) {
            (Some(what), _) => Some((true, what.to_string())),
            (_, Some(what)) => Some((false, what.to_string())),
            _ => None,
        })
        .collect()
}

/// A check's name: its text up to the values it shows.
fn check_name(what: &str) -> &str {
    what.split([':', '-', '[', '{', '=']).next().unwrap_or(what).trim()
}

/// Runs a stdio client (every check run, none stopping it) through `proxy`; its outcomes.
fn through(client: &[String], proxy: &[String]) -> Vec<(bool, String)> {
    let out = Command::new(&client[0])
        .args(&client[1..])
        .arg("--")
        .args(proxy)
        .env("CHECKS_KEEP_GOING", "1")
        .output()
        .unwrap();
    outcomes(&String::from_utf8_lossy(&out.stdout))
}

#[test]
fn legacy_stdio_clients_pass_every_check_through_connect_and_the_readme_says_what_mcp_remote_misses() {
    let readme = std::fs::read_to_string(mcp_spec_testkit::workspace_root().join("bridge/README.md")).unwrap();
    let start = readme.find("<!-- mcp-remote checks -->").expect("bridge/README.md: the mcp-remote table's marker");
    let table = &readme[start..readme[start..].find("\n\n").map_or(readme.len(), |e| start + e)];
    let mut they_missed = Vec::new();
    for (label, script, checks) in [("ts-1.32", "client.mjs", 20), ("ts-1.12.3", "client_2025_03_26.mjs", 14)] {
        let name = format!("versus-mcp-remote-{label}");
        let server = python_http_server(&name);
        let client = node(script, &[]);
        // The server speaks both eras: translated (told it is modern), as the table compares.
        let bridge = [bridge_bin().display().to_string(), "--server-era".into(), "modern".into()];
        let ours = through(&client, &[&bridge[..], &["--connect".into(), server.url.clone()]].concat());
        let mcp_remote = node("node_modules/mcp-remote/dist/proxy.js", &[&server.url, "--protocol", "auto"]);
        let theirs = through(&client, &mcp_remote);
        assert_eq!(ours.len(), checks, "{label}: the checks run through the bridge: {ours:?}");
        assert!(ours.iter().all(|(ok, _)| *ok), "{label}: through the bridge: {ours:?}");
        assert!(theirs.len() >= checks, "{label}: the checks run through mcp-remote: {theirs:?}");
        let missed: Vec<&str> = theirs.iter().filter(|(ok, _)| !ok).map(|(_, what)| check_name(what)).collect();
        println!("{label}: {} checks; through mcp-remote --protocol auto, failed: {missed:?}", ours.len());
        they_missed.extend(missed.into_iter().map(|m| format!("{label}: {m}")));
    }
    // The README's table names exactly what mcp-remote failed, client by client.
    let said: Vec<String> = table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("fails"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            format!("{}: {}", cells[0].trim_matches('`'), cells[1].trim_matches('`'))
        })
        .collect();
    assert_eq!(said, they_missed, "bridge/README.md's mcp-remote table against this run");
}

#[test]
fn every_option_mcp_remote_reads_has_a_row_in_the_bridge_readmes_table() {
    let readme = std::fs::read_to_string(mcp_spec_testkit::workspace_root().join("bridge/README.md")).unwrap();
    let start = readme.find("<!-- mcp-remote options -->").expect("bridge/README.md: the options table's marker");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n### ").map_or(section.len(), |e| e + 3)];
    // The first column of each row: what mcp-remote takes.
    let theirs: String = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("|---"))
        .filter_map(|l| l.trim_matches('|').split(" | ").next().map(String::from))
        .collect::<Vec<_>>()
        .join("\n");
    // The options mcp-remote's own code reads, from its code (`"--name"` literals).
    let dist = peers::node().join("node_modules/mcp-remote/dist");
    let mut options = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(&dist).unwrap() {
        let code = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
        for (at, _) in code.match_indices("\"--") {
            let rest = &code[at + 1..];
            let name: String =
                rest.chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-').collect();
            if name.len() > 2 && rest[name.len()..].starts_with('"') {
                options.insert(name);
            }
        }
    }
    assert!(options.len() >= 30, "mcp-remote's options read from {}: {options:?}", dist.display());
    let missing: Vec<&String> =
        options.iter().filter(|o| !theirs.contains(&format!("`{o}")) && !theirs.contains(&format!(" {o}"))).collect();
    assert!(missing.is_empty(), "mcp-remote options without a row in bridge/README.md: {missing:?}");
}
