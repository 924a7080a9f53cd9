//! The bridge over Streamable HTTP when a peer misbehaves: every fault is a
//! JSON-RPC error (or the HTTP status the transport names) to the side that
//! asked, within a bound, and the session goes on. The server side is
//! `fault_server.py` (Python's standard library); the client side is this test
//! on the bridge's stdio, or reqwest on its `--listen` endpoint.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn bridge_bin() -> PathBuf {
    mcp_spec_testkit::as_installed("mcp-era-bridge", "mcp-era-bridge")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("http-faults");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("log"));
    path
}

/// `fault_server.py` on a loopback port of its choosing, killed when dropped.
struct FaultServer {
    child: Child,
    url: String,
    log: PathBuf,
}

impl Drop for FaultServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl FaultServer {
    fn start(name: &str, args: &[&str]) -> FaultServer {
        let port_file = scratch(name);
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fault_server.py");
        let child = Command::new("python3").arg(script).arg(&port_file).args(args).spawn().unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        let port = loop {
            if let Ok(port) = std::fs::read_to_string(&port_file) {
                break port;
            }
            assert!(Instant::now() < until, "the fault server did not start");
            std::thread::sleep(Duration::from_millis(20));
        };
        let log = PathBuf::from(format!("{}.log", port_file.display()));
        FaultServer { child, url: format!("http://127.0.0.1:{port}/mcp"), log }
    }

    /// Every request it received, in order.
    fn received(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }
}

/// The bridge with a client on its stdio: this test.
struct Bridge {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    seen: Vec<Value>,
}

impl Bridge {
    fn start(args: &[&str]) -> Bridge {
        let mut child = Command::new(bridge_bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(serde_json::from_str(&line).unwrap_or(Value::String(line)));
            }
        });
        Bridge { child, stdin, lines, seen: Vec::new() }
    }

    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// The answer to request `id`, which must come within `within`.
    fn answer(&mut self, id: i64, within: Duration) -> Value {
        let until = Instant::now() + within;
        loop {
            if let Some(at) = self.seen.iter().position(|m| m["id"] == id && m.get("method").is_none()) {
                return self.seen.remove(at);
            }
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(m) => self.seen.push(m),
                Err(_) => panic!("no answer to {id} in {within:?}; the bridge sent {:?}", self.seen),
            }
        }
    }

    fn call(&mut self, id: i64, message: Value, within: Duration) -> Value {
        self.send(message);
        self.answer(id, within)
    }

    /// Closes its stdin (the client leaves) and waits for it to exit.
    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < until, "the bridge did not exit in 20 s after its client left");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "fault-test", "version": "0"}
    })
}

fn modern_call(id: i64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": {}, "_meta": meta()}})
}

fn legacy_call(id: i64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": {}}})
}

fn error_message(answer: &Value) -> &str {
    answer.pointer("/error/message").and_then(Value::as_str).unwrap_or_else(|| panic!("not an error: {answer}"))
}

/// A request's stream whose answer came is read to its end, not cut: its
/// connection carries the next request (cut, it would be closed, and the
/// next call would open another: 0.2 ms a call on loopback with the Python
/// SDK's server, whose streams end just after their answers). Both shapes:
/// a legacy session passed through and a modern server. `linger` keeps its
/// stream 0.35 s after the answer; what it sends then is not the client's.
#[test]
fn an_answered_stream_is_read_to_its_end_so_its_connection_carries_the_next_request() {
    for (shape, args) in [("legacy", &["--server-era", "legacy"][..]), ("modern", &[][..])] {
        let server = FaultServer::start(&format!("reuse-{shape}"), &[]);
        let mut bridge = Bridge::start(&[args, &["--connect", &server.url]].concat());
        let call = |id| if shape == "legacy" { legacy_call(id, "linger") } else { modern_call(id, "linger") };
        if shape == "legacy" {
            let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fault-test", "version": "0"}}});
            assert!(bridge.call(0, init, Duration::from_secs(10)).get("result").is_some());
            bridge.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        }
        for id in 1..=3 {
            let started = Instant::now();
            let answer = bridge.call(id, call(id), Duration::from_secs(10));
            assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!("lingered")), "{shape}: {answer}");
            assert!(started.elapsed() < Duration::from_millis(300), "{shape}: answered when the stream ended");
            // The next call goes once the stream has ended.
            std::thread::sleep(Duration::from_millis(500));
        }
        assert!(bridge.finish().success());
        let received = server.received();
        let aborted: Vec<&Value> = received.iter().filter(|r| r.get("aborted").is_some()).collect();
        assert!(aborted.is_empty(), "{shape}: streams cut after their answers: {aborted:?}");
        let ports: Vec<u64> = received
            .iter()
            .filter(|r| r["msg"]["params"]["name"] == "linger")
            .map(|r| r["port"].as_u64().expect("a port"))
            .collect();
        assert_eq!(ports.len(), 3, "{shape}: {ports:?}");
        assert!(ports.windows(2).all(|w| w[0] == w[1]), "{shape}: the calls came on connections from {ports:?}");
    }
}

#[test]
fn each_fault_of_a_modern_server_is_an_error_to_the_request_that_met_it_and_the_session_goes_on() {
    let server = FaultServer::start("modern", &[]);
    let mut bridge = Bridge::start(&[
        "--connect",
        &server.url,
        "--headers-timeout",
        "1",
        "--body-timeout",
        "1",
        "--max-message",
        "1000000",
    ]);
    let faults = [
        ("status500-json", "the tool broke"),
        ("status500-plain", "HTTP 500 Internal Server Error with no JSON-RPC answer"),
        ("status400-plain", "HTTP 400 Bad Request with no JSON-RPC answer"),
        ("cut", "the server's stream ended before its answer"),
        ("silent", "--headers-timeout"),
        ("slow-body", "--body-timeout"),
        ("huge", "over 1000000 bytes (--max-message)"),
    ];
    let mut id = 0;
    for (tool, why) in faults {
        id += 1;
        let started = Instant::now();
        let answer = bridge.call(id, modern_call(id, tool), Duration::from_secs(10));
        assert!(error_message(&answer).contains(why), "{tool}: {answer}");
        assert!(started.elapsed() < Duration::from_secs(5), "{tool}: answered after {:?}", started.elapsed());
        // The session goes on.
        id += 1;
        let echo = bridge.call(id, modern_call(id, "echo"), Duration::from_secs(10));
        assert_eq!(echo.pointer("/result/content/0/text"), Some(&json!("echo")), "after {tool}: {echo}");
    }
    // The cut stream's progress reached the client before the error.
    assert!(bridge.seen.iter().any(|m| m["method"] == "notifications/progress"), "{:?}", bridge.seen);
    assert!(bridge.finish().success());
    // Every call went out once, with the transport's headers.
    let calls: Vec<Value> = server.received().into_iter().filter(|r| r["msg"]["method"] == "tools/call").collect();
    assert_eq!(calls.len(), 2 * faults.len());
    for call in &calls {
        assert_eq!(call["method_header"], "tools/call");
        assert_eq!(call["name_header"], call["msg"]["params"]["name"]);
    }
}

#[test]
fn an_expired_legacy_session_is_an_error_once_and_a_new_session_for_what_follows() {
    let server = FaultServer::start("legacy", &["legacy"]);
    let mut bridge = Bridge::start(&["--connect", &server.url]);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fault-test", "version": "0"}}});
    let answer = bridge.call(1, init, Duration::from_secs(15));
    assert_eq!(answer.pointer("/result/protocolVersion"), Some(&json!("2025-11-25")), "{answer}");
    bridge.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert!(bridge.call(2, legacy_call(2, "echo"), Duration::from_secs(5)).get("result").is_some());
    assert!(bridge.call(3, legacy_call(3, "expire"), Duration::from_secs(5)).get("result").is_some());
    let expired = bridge.call(4, legacy_call(4, "echo"), Duration::from_secs(5));
    assert!(error_message(&expired).contains("session expired (404)"), "{expired}");
    let after = bridge.call(5, legacy_call(5, "echo"), Duration::from_secs(10));
    assert_eq!(after.pointer("/result/content/0/text"), Some(&json!("echo")), "{after}");
    assert!(bridge.finish().success());
    let received = server.received();
    let sessions: Vec<&str> = received
        .iter()
        .filter(|r| r["msg"]["method"] == "tools/call")
        .map(|r| r["session"].as_str().unwrap_or("none"))
        .collect();
    // Call 4 went out once, on the expired session; call 5 on the new one.
    assert_eq!(sessions, ["s1", "s1", "s1", "s2"]);
    let initializes = received.iter().filter(|r| r["msg"]["method"] == "initialize").count();
    assert_eq!(initializes, 2, "the client's and the new session's");
    assert_eq!(received.last().unwrap()["DELETE"], "s2", "the session ended with DELETE when the client left");
}

#[test]
fn a_legacy_servers_stream_closed_before_its_answer_is_resumed_after_retry_with_last_event_id() {
    // 2025-11-25's polling: the server closes the call's stream after a priming
    // event (an id, retry 300 ms); the answer comes on the GET that resumes it.
    let server = FaultServer::start("polling", &["legacy"]);
    let mut bridge = Bridge::start(&["--connect", &server.url]);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fault-test", "version": "0"}}});
    assert!(bridge.call(1, init, Duration::from_secs(15)).get("result").is_some());
    bridge.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let answer = bridge.call(2, legacy_call(2, "poll"), Duration::from_secs(10));
    assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!("answered after the reconnection")), "{answer}");
    assert!(bridge.call(3, legacy_call(3, "echo"), Duration::from_secs(5)).get("result").is_some());
    assert!(bridge.finish().success());
    let resumed: Vec<Value> = server.received().into_iter().filter(|r| r.get("waited_ms").is_some()).collect();
    assert_eq!(resumed.len(), 1, "one GET resumed the call: {resumed:?}");
    assert_eq!((resumed[0]["GET"].as_str(), resumed[0]["last_event_id"].as_str()), (Some("s1"), Some("poll-2")));
    let waited = resumed[0]["waited_ms"].as_f64().unwrap();
    assert!(waited >= 290.0, "the server's retry (300 ms) was respected: {waited} ms");
}

#[test]
fn a_server_asking_for_authorization_is_an_error_naming_its_challenge_and_a_token_given_with_header_passes() {
    let server = FaultServer::start("auth", &[]);
    // With OAuth on (the default), a server whose authorization cannot be found out (its metadata's
    // URL unreachable): an error saying where it was looked for.
    let mut bridge =
        Bridge::start(&["--connect", &server.url, "--oauth-store", &scratch("no-prm").display().to_string()]);
    let refused = bridge.call(1, modern_call(1, "private"), Duration::from_secs(15));
    let message = error_message(&refused);
    assert!(
        message.contains("asks for authorization: GET http://127.0.0.1/.well-known/oauth-protected-resource"),
        "{refused}"
    );
    assert!(bridge.finish().success());
    let mut bridge = Bridge::start(&["--connect", &server.url, "--no-oauth"]);
    let refused = bridge.call(1, modern_call(1, "private"), Duration::from_secs(15));
    let message = error_message(&refused);
    assert!(message.contains("HTTP 401") && message.contains("resource_metadata="), "{refused}");
    assert!(message.contains("--header 'Authorization: Bearer"), "{refused}");
    assert!(
        bridge.call(2, modern_call(2, "echo"), Duration::from_secs(5)).get("result").is_some(),
        "the session goes on"
    );
    assert!(bridge.finish().success());
    let mut bridge = Bridge::start(&["--connect", &server.url, "--header", "Authorization: Bearer let-me-in"]);
    let answer = bridge.call(1, modern_call(1, "private"), Duration::from_secs(15));
    assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!("private")), "{answer}");
    assert!(bridge.finish().success());
}

#[test]
fn the_device_code_flow_shows_the_code_polls_until_the_user_approves_and_the_call_goes_through() {
    let port_file = scratch("device");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/device_server.py");
    let mut server = Command::new("python3").arg(script).arg(&port_file).spawn().unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    let port = loop {
        if let Ok(port) = std::fs::read_to_string(&port_file) {
            break port;
        }
        assert!(Instant::now() < until, "the device server did not start");
        std::thread::sleep(Duration::from_millis(20));
    };
    let log = scratch("device-bridge.log");
    let store = scratch("device-store");
    // The user: approves a second after the code is shown, on "another machine".
    let browser = "sleep 1; python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1])'";
    let url = format!("http://127.0.0.1:{port}/mcp");
    let args =
        ["--connect", &url, "--device-code", "--oauth-browser", browser, "--oauth-store", &store.display().to_string()];
    let mut child = Command::new(bridge_bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{}", modern_call(1, "private")).unwrap();
    let mut answer = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut answer).unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let _ = server.kill();
    let _ = server.wait();
    let answer: Value = serde_json::from_str(&answer).unwrap();
    let stderr = std::fs::read_to_string(&log).unwrap();
    assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!("authorized")), "{answer}\n{stderr}");
    assert!(
        stderr.contains(&format!("visit http://127.0.0.1:{port}/activate and enter the code WDJB-MJHT")),
        "{stderr}"
    );
    assert!(!stderr.contains("dc-s3cret"), "the device code is never shown: {stderr}");
    let seen: Vec<Value> = std::fs::read_to_string(format!("{}.log", port_file.display()))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let registered: Vec<&Value> = seen.iter().filter(|r| r["POST"] == "/register").collect();
    assert_eq!(registered.len(), 1);
    assert_eq!(registered[0]["body"]["grant_types"][0], "urn:ietf:params:oauth:grant-type:device_code");
    assert!(registered[0]["body"].get("redirect_uris").is_none(), "no redirect for the device flow");
    let device: Vec<&Value> = seen.iter().filter(|r| r["POST"] == "/device").collect();
    assert_eq!(device[0]["form"]["resource"], json!(url), "the resource parameter");
    let polls: Vec<&Value> = seen.iter().filter(|r| r["POST"] == "/token").collect();
    assert!(polls.len() >= 2 && polls.last().unwrap()["approved"] == true, "polled until approved: {polls:?}");
    assert_eq!(polls[0]["form"]["grant_type"], "urn:ietf:params:oauth:grant-type:device_code");
    for pair in polls.windows(2) {
        let gap = pair[1]["at"].as_f64().unwrap() - pair[0]["at"].as_f64().unwrap();
        assert!(gap >= 0.9, "polled at the interval the server named (1 s): {gap}");
    }
}

#[test]
fn an_http_sse_endpoint_on_another_origin_is_refused_and_nothing_is_sent_there() {
    let server = FaultServer::start("foreign-endpoint", &[]);
    let url = server.url.replace("/mcp", "/foreign/sse");
    let mut bridge = Bridge::start(&[
        "--connect",
        &url,
        "--transport",
        "sse",
        "--server-era",
        "legacy",
        "--header",
        "Authorization: Bearer secret",
    ]);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    let refused = bridge.call(1, init, Duration::from_secs(15));
    let message = error_message(&refused);
    assert!(message.contains("http://elsewhere.invalid:9/messages?s=1 is on another origin"), "{refused}");
    assert!(bridge.finish().success());
    assert_eq!(server.received(), [json!({"GET": "/foreign/sse"})], "only the stream was asked for");
}

#[test]
fn an_unreachable_server_is_an_error_to_each_request_soon() {
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut bridge = Bridge::start(&["--connect", &url]);
    let started = Instant::now();
    let answer = bridge.call(1, modern_call(1, "echo"), Duration::from_secs(15));
    assert!(error_message(&answer).contains("cannot reach the server"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(bridge.finish().success());
}

/// A stand-in legacy server on stdio: the probe and one call answered with a
/// line of `size` bytes, everything else answered small.
const BIG_LINES: &str = r#"
import json, sys
size = int(sys.argv[1])
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] in ("server/discover", "tools/call") and msg.get("params", {}).get("name") != "small":
        head = json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"pad": ""}})[:-3]
        sys.stdout.write(head)
        chunk = "x" * (1 << 20)
        for _ in range(size >> 20):
            sys.stdout.write(chunk)
        sys.stdout.write('"}}\n')
    elif msg["method"] == "initialize":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}}, "serverInfo": {"name": "big", "version": "0"}}}))
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"content": [{"type": "text", "text": "small"}]}}))
    sys.stdout.flush()
"#;

/// The most memory the process has held (Linux's VmHWM), in KiB.
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_line_over_the_bound_is_refused_without_holding_it_and_the_session_goes_on() {
    let size = 200 << 20;
    let size_arg = size.to_string();
    let mut bridge = Bridge::start(&["--max-message", "8000000", "--", "python3", "-c", BIG_LINES, size_arg.as_str()]);
    // The probe's answer is too large: taken as no answer, the server as legacy.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    let answer = bridge.call(1, init, Duration::from_secs(60));
    assert!(answer.get("result").is_some(), "{answer}");
    bridge.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let big = bridge.call(2, legacy_call(2, "big"), Duration::from_secs(60));
    let why = error_message(&big);
    assert!(why.contains("over the bridge's --max-message 8000000") && why.contains(&size.to_string()[..3]), "{why}");
    let small = bridge.call(3, legacy_call(3, "small"), Duration::from_secs(10));
    assert_eq!(small.pointer("/result/content/0/text"), Some(&json!("small")), "{small}");
    // Two 200 MB lines went through the bridge; it never held one.
    let peak = peak_kib(bridge.child.id());
    assert!(peak < 64 * 1024, "the bridge's peak memory was {peak} KiB");
    assert!(bridge.finish().success());
}

/// A tool's `x-mcp-header` is learnt from the `tools/list` answer that passes
/// through `--connect` and sent on its calls as `Mcp-Param-*` (the stand-in
/// server's `weather` answers with the header it got); a tool whose annotation
/// is invalid is left out of the answer, as the transport requires of a client.
#[test]
fn a_tools_headers_are_learnt_from_its_list_sent_on_its_calls_and_an_invalid_tool_left_out() {
    let server = FaultServer::start("tool-headers", &[]);
    let mut bridge = Bridge::start(&["--connect", &server.url]);
    let weather = |id: i64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "weather", "arguments": {"region": "eu-west"}, "_meta": meta()}})
    };
    // Before the list: nothing is known of the tool, so no header goes with it.
    let before = bridge.call(1, weather(1), Duration::from_secs(10));
    assert_eq!(before.pointer("/result/content/0/text"), Some(&json!("region None")), "{before}");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta()}});
    let answer = bridge.call(2, list, Duration::from_secs(10));
    let names: Vec<&str> = answer
        .pointer("/result/tools")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["echo", "weather"], "the invalid tool is left out: {answer}");
    let after = bridge.call(3, weather(3), Duration::from_secs(10));
    assert_eq!(after.pointer("/result/content/0/text"), Some(&json!("region eu-west")), "{after}");
    let headers: Vec<Value> = server
        .received()
        .iter()
        .filter(|r| r.pointer("/msg/params/name") == Some(&json!("weather")))
        .map(|r| r["region_header"].clone())
        .collect();
    assert_eq!(headers, [Value::Null, json!("eu-west")], "the header on the wire, each call");
    assert!(bridge.finish().success());
}

/// A modern client's `notifications/cancelled` through `--connect` closes the
/// request's stream (how the per-request shape cancels): the server sees the
/// exchange go, nothing is sent for the cancel, and the session goes on.
#[test]
fn a_cancelled_request_closes_its_stream_at_the_server() {
    let server = FaultServer::start("cancel", &[]);
    let mut bridge = Bridge::start(&["--connect", &server.url]);
    bridge.send(modern_call(1, "hang"));
    let until = Instant::now() + Duration::from_secs(10);
    while !server.received().iter().any(|r| r.pointer("/msg/params/name") == Some(&json!("hang"))) {
        assert!(Instant::now() < until, "the call did not reach the server");
        std::thread::sleep(Duration::from_millis(20));
    }
    bridge.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "_meta": meta()}}),
    );
    let until = Instant::now() + Duration::from_secs(10);
    while !server.received().iter().any(|r| r.get("aborted") == Some(&json!(1))) {
        assert!(Instant::now() < until, "the server's stream was not closed: {:?}", server.received());
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !server.received().iter().any(|r| r.pointer("/msg/method") == Some(&json!("notifications/cancelled"))),
        "the cancel itself is not sent: closing the stream is the cancel"
    );
    let echo = bridge.call(2, modern_call(2, "echo"), Duration::from_secs(10));
    assert_eq!(echo.pointer("/result/content/0/text"), Some(&json!("echo")), "{echo}");
    assert!(bridge.seen.iter().all(|m| m["id"] != 1), "no answer to the cancelled call: {:?}", bridge.seen);
    assert!(bridge.finish().success());
}

/// An `application/json` answer that holds JSON values one after another
/// (some servers' 2026-07-28 handlers stream so): each is read as it comes, as
/// a client reading the server directly would; the answer answers its call.
#[test]
fn json_values_one_after_another_in_a_json_answer_are_each_passed_on() {
    let server = FaultServer::start("json-lines", &[]);
    let mut bridge = Bridge::start(&["--connect", &server.url]);
    let answer = bridge.call(1, modern_call(1, "json-lines"), Duration::from_secs(10));
    assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!("streamed")), "{answer}");
    assert!(bridge.seen.iter().any(|m| m["method"] == "notifications/progress"), "{:?}", bridge.seen);
    assert!(bridge.finish().success());
}
