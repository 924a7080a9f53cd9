//! `--listen` when a client misbehaves, or comes from where it should not:
//! each refusal the status (and JSON-RPC error) the transport names, and the
//! bridge serving the next request as before. Behind it a stand-in modern
//! server on stdio (Python's standard library).

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::blocking::{Client, Response};
use serde_json::{Value, json};

/// A modern server: discovery, a tool that mirrors `region` into a header, and
/// its calls; `whoami` answers with the server process's id (a session of the
/// bridge's is a process of its own); `refuse` answers with the error its
/// argument `code` names; `hang` never answers; both it and a
/// `notifications/cancelled` are written to the file `$CANCEL_LOG` names.
const MODERN: &str = r#"
import json, os, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "notifications/cancelled" and os.environ.get("CANCEL_LOG"):
        with open(os.environ["CANCEL_LOG"], "a") as log:
            log.write(json.dumps(msg) + "\n")
        continue
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "tools/call" and msg["params"].get("name") == "hang":
        if os.environ.get("CANCEL_LOG"):
            with open(os.environ["CANCEL_LOG"], "a") as log:
                log.write(json.dumps(msg) + "\n")
        continue
    m, i = msg["method"], msg["id"]
    if m == "initialize":
        # Modern only: the handshake is refused, as a 2026-07-28-only server does.
        print(json.dumps({"jsonrpc": "2.0", "id": i, "error": {"code": -32601, "message": "Method not found"}}), flush=True)
        continue
    if m == "server/discover":
        r = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0,
             "cacheScope": "private", "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "m", "version": "0"}}}
    elif m == "tools/list":
        tool = {"name": "sql", "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}}
        bad = {"name": "broken", "inputSchema": {"type": "object", "properties": {"region": {"type": "object", "x-mcp-header": "Region"}}}}
        r = {"resultType": "complete", "tools": [tool, bad], "ttlMs": 0, "cacheScope": "private"}
    elif msg["params"].get("name") == "whoami":
        r = {"resultType": "complete", "content": [{"type": "text", "text": str(os.getpid())}]}
    elif msg["params"].get("name") == "refuse":
        code = msg["params"]["arguments"]["code"]
        print(json.dumps({"jsonrpc": "2.0", "id": i, "error": {"code": code, "message": "refused"}}), flush=True)
        continue
    else:
        r = {"resultType": "complete", "content": [{"type": "text", "text": "ran " + json.dumps(msg["params"].get("arguments"))}]}
    print(json.dumps({"jsonrpc": "2.0", "id": i, "result": r}), flush=True)
"#;

struct Listening {
    child: Child,
    url: String,
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn listening(extra: &[&str]) -> Listening {
    listening_with(extra, None)
}

/// [`listening`], the stand-in server writing the cancellations it gets to `cancel_log`.
fn listening_with(extra: &[&str], cancel_log: Option<&std::path::Path>) -> Listening {
    listening_to(MODERN, extra, cancel_log)
}

/// The bridge listening in front of the stand-in server `script` (Python).
fn listening_to(script: &str, extra: &[&str], cancel_log: Option<&std::path::Path>) -> Listening {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let bridge = mcp_spec_testkit::as_installed("mcp-era-bridge", "mcp-era-bridge");
    let mut command = Command::new(bridge);
    if let Some(log) = cancel_log {
        command.env("CANCEL_LOG", log);
    }
    let child = command
        .args(["--listen", &port.to_string()])
        .args(extra)
        .args(["--", "python3", "-c", script])
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < until, "the bridge did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    Listening { child, url: format!("http://127.0.0.1:{port}/mcp") }
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "listen-test", "version": "0"}
    })
}

fn call(id: i64, region: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "sql", "arguments": {"region": region}, "_meta": meta()}})
}

/// An HTTP client (reqwest with rustls, its crypto provider ring as the bridge's).
fn client() -> Client {
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::new()
}

/// A POST of `body` with `headers`.
fn post(url: &str, body: &Value, headers: &[(&str, &str)]) -> Response {
    let mut request = client()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.timeout(Duration::from_secs(20)).send().unwrap()
}

type Headers = Vec<(&'static str, &'static str)>;

fn standard(method: &'static str, name: Option<&'static str>) -> Headers {
    let mut h = vec![("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", method)];
    h.extend(name.map(|n| ("Mcp-Name", n)));
    h
}

fn json_of(r: Response) -> (u16, Value) {
    let status = r.status().as_u16();
    let text = r.text().unwrap();
    // A one-message SSE answer or a JSON body.
    let data = text.lines().find_map(|l| l.strip_prefix("data: ")).map(str::to_string).unwrap_or(text);
    (status, serde_json::from_str(&data).unwrap_or_else(|e| panic!("{e}: {data}")))
}

#[test]
fn a_modern_request_is_served_only_when_its_headers_say_what_its_body_says() {
    let bridge = listening(&[]);
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}});
    let (status, answer) = json_of(post(&bridge.url, &list, &standard("tools/list", None)));
    assert_eq!((status, answer["id"].clone()), (200, json!(1)), "{answer}");
    assert_eq!(answer.pointer("/result/tools/0/name"), Some(&json!("sql")));
    // A relay does not alter the answer: the tool whose annotation is invalid is passed on.
    assert_eq!(answer.pointer("/result/tools/1/name"), Some(&json!("broken")), "{answer}");

    // The tool's x-mcp-header, learnt from the list: its header is required now.
    let mut ok = standard("tools/call", Some("sql"));
    ok.push(("Mcp-Param-Region", "us-west1"));
    let (status, answer) = json_of(post(&bridge.url, &call(2, "us-west1"), &ok));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!("ran {\"region\": \"us-west1\"}")));

    let refusals: Vec<(&str, Headers, &str)> = vec![
        ("no Mcp-Param-Region", standard("tools/call", Some("sql")), "Mcp-Param-Region header is required"),
        (
            "a different Mcp-Param-Region",
            {
                let mut h = standard("tools/call", Some("sql"));
                h.push(("Mcp-Param-Region", "eu-west1"));
                h
            },
            "'eu-west1' does not match body value 'us-west1'",
        ),
        ("a different Mcp-Name", standard("tools/call", Some("other")), "Mcp-Name header value 'other'"),
        ("no Mcp-Method", vec![("MCP-Protocol-Version", "2026-07-28")], "Mcp-Method header is required"),
        ("no version", vec![("Mcp-Method", "tools/call")], "MCP-Protocol-Version header is required"),
    ];
    for (what, headers, why) in refusals {
        let (status, answer) = json_of(post(&bridge.url, &call(3, "us-west1"), &headers));
        assert_eq!(status, 400, "{what}: {answer}");
        assert_eq!(answer.pointer("/error/code"), Some(&json!(-32020)), "{what}: {answer}");
        assert_eq!(answer["id"], 3, "{what}");
        let message = answer.pointer("/error/message").and_then(Value::as_str).unwrap();
        assert!(message.contains(why), "{what}: {message}");
    }
    // And served again after them.
    let (status, _) = json_of(post(&bridge.url, &call(4, "us-west1"), &ok));
    assert_eq!(status, 200);
}

#[test]
fn foreign_origins_large_bodies_and_the_legacy_verbs_get_the_statuses_the_transport_names() {
    let bridge = listening(&["--max-message", "10000", "--allow-origin", "https://app.example"]);
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}});
    let mut foreign = standard("tools/list", None);
    foreign.push(("Origin", "http://evil.example"));
    let (status, answer) = json_of(post(&bridge.url, &list, &foreign));
    assert_eq!(status, 403, "{answer}");
    assert!(answer.pointer("/error/message").unwrap().as_str().unwrap().contains("evil.example"));
    for origin in ["https://app.example", "http://localhost:5173"] {
        let mut allowed = standard("tools/list", None);
        allowed.push(("Origin", origin));
        assert_eq!(json_of(post(&bridge.url, &list, &allowed)).0, 200, "{origin}");
    }

    let big = call(2, &"x".repeat(20_000));
    let (status, answer) = json_of(post(&bridge.url, &big, &standard("tools/call", Some("sql"))));
    assert_eq!(status, 413, "{answer}");
    assert!(answer.pointer("/error/message").unwrap().as_str().unwrap().contains("--max-message 10000"), "{answer}");

    // A modern client's endpoint has no GET stream and no session to delete.
    let client = client();
    assert_eq!(client.get(&bridge.url).send().unwrap().status().as_u16(), 405);
    assert_eq!(client.delete(&bridge.url).send().unwrap().status().as_u16(), 405);
    // A session the bridge never minted.
    let unknown = client.delete(&bridge.url).header("Mcp-Session-Id", "nope").send().unwrap();
    assert_eq!(unknown.status().as_u16(), 404);
}

#[test]
fn a_legacy_client_gets_a_session_of_its_own_that_ends_on_delete() {
    let bridge = listening(&[]);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "legacy", "version": "0"}}});
    let r = post(&bridge.url, &init, &[]);
    let session = r.headers().get("mcp-session-id").expect("a session id").to_str().unwrap().to_string();
    let (status, answer) = json_of(r);
    assert_eq!(status, 200);
    assert_eq!(answer.pointer("/result/protocolVersion"), Some(&json!("2025-11-25")), "{answer}");
    let with = [("Mcp-Session-Id", session.as_str()), ("MCP-Protocol-Version", "2025-11-25")];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(post(&bridge.url, &initialized, &with).status().as_u16(), 202);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "sql", "arguments": {"region": "x"}}});
    let (status, answer) = json_of(post(&bridge.url, &call, &with));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["id"], 2);
    assert!(answer.pointer("/result/content/0/text").is_some(), "{answer}");
    let client = client();
    assert_eq!(client.delete(&bridge.url).header("Mcp-Session-Id", &session).send().unwrap().status().as_u16(), 200);
    let (status, _) = json_of(post(&bridge.url, &call, &with));
    assert_eq!(status, 404, "the session is over");
}

fn tool_call(id: i64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments, "_meta": meta()}})
}

/// Each row of the table a 2026-07-28 server answers errors with, through
/// `--listen`: a refusal for the request's version or a capability is `400`, a
/// method the server lacks `404`, any other error `200`, each with its JSON-RPC error.
#[test]
fn a_modern_servers_errors_reach_the_client_with_the_status_the_transport_names() {
    let bridge = listening(&[]);
    for (code, status) in [(-32022, 400), (-32021, 400), (-32601, 404), (-32602, 200), (-32603, 200)] {
        let (got, answer) = json_of(post(
            &bridge.url,
            &tool_call(1, "refuse", json!({"code": code})),
            &standard("tools/call", Some("refuse")),
        ));
        assert_eq!((got, answer.pointer("/error/code")), (status, Some(&json!(code))), "{code}: {answer}");
    }
}

/// A modern client's identity is its `Authorization` with its `clientInfo`: two
/// clients that share a `clientInfo` but not a credential get sessions of their
/// own (server processes of their own, here), never one another's.
#[test]
fn two_credentials_with_the_same_client_info_never_share_a_session() {
    let bridge = listening(&[]);
    let whoami = |auth: Option<&'static str>| {
        let mut headers = standard("tools/call", Some("whoami"));
        headers.extend(auth.map(|a| ("Authorization", a)));
        let (status, answer) = json_of(post(&bridge.url, &tool_call(1, "whoami", json!({})), &headers));
        assert_eq!(status, 200, "{answer}");
        answer.pointer("/result/content/0/text").and_then(Value::as_str).unwrap().to_string()
    };
    let (a, b, none) = (whoami(Some("Bearer token-a")), whoami(Some("Bearer token-b")), whoami(None));
    assert!(a != b && a != none && b != none, "sessions: {a}, {b}, {none}");
    assert_eq!(whoami(Some("Bearer token-a")), a, "the same credential is the same session");
    assert_eq!(whoami(Some("Bearer token-b")), b);
}

/// A modern client cancels by closing its request's stream: the bridge tells
/// the server (`notifications/cancelled` with the request's id), and serves the
/// next request as before.
#[test]
fn a_modern_client_closing_its_requests_stream_cancels_it_at_the_server() {
    let log = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cancels-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let bridge = listening_with(&[], Some(&log));
    let hang = tool_call(41, "hang", json!({}));
    let sent = client()
        .post(&bridge.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "hang")
        .body(hang.to_string())
        .timeout(Duration::from_millis(700))
        .send()
        .and_then(|r| r.text());
    assert!(sent.is_err(), "the server never answers hang: the client gave up: {sent:?}");
    // The server got the call (under the id the bridge gave it), then its cancellation.
    let until = Instant::now() + Duration::from_secs(10);
    let lines: Vec<Value> = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        if lines.len() >= 2 || Instant::now() > until {
            break lines;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(lines.len(), 2, "the call, then the server told of its cancellation: {lines:?}");
    assert_eq!(lines[1]["method"], "notifications/cancelled", "{lines:?}");
    assert_eq!(lines[1].pointer("/params/requestId"), lines[0].get("id"), "the call's own id: {lines:?}");
    let (status, answer) =
        json_of(post(&bridge.url, &tool_call(42, "whoami", json!({})), &standard("tools/call", Some("whoami"))));
    assert_eq!((status, answer["id"].clone()), (200, json!(42)), "the session goes on: {answer}");
}

/// A legacy server with tool list changes to offer: the handshake, and nothing else.
const LEGACY: &str = r#"
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        r = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {"listChanged": True}},
             "serverInfo": {"name": "l", "version": "0"}}
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": r}), flush=True)
    elif msg.get("method") == "tools/list":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": []}}), flush=True)
    elif "id" in msg and "method" in msg:
        error = {"code": -32601, "message": "Method not found"}
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": error}), flush=True)
"#;

/// 2026-07-28: a listen stream's acknowledgement names the client's own
/// `subscriptions/listen` request as its `subscriptionId`, a number or a string,
/// never an id of the bridge's (a client matching by id would never see its
/// subscription confirmed).
#[test]
fn a_listen_stream_is_acknowledged_under_the_clients_own_request_id() {
    let bridge = listening_to(LEGACY, &[], None);
    for id in [json!(77), json!("listen-a")] {
        let listen = json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
            "params": {"notifications": {"toolsListChanged": true}, "_meta": meta()}});
        let mut response = post(&bridge.url, &listen, &standard("subscriptions/listen", None));
        assert_eq!(response.status().as_u16(), 200);
        // The first event of the stream: the acknowledgement.
        let mut text = String::new();
        let mut buf = [0u8; 4096];
        let until = Instant::now() + Duration::from_secs(10);
        while !text.contains("\n\n") {
            assert!(Instant::now() < until, "no acknowledgement: {text}");
            let n = std::io::Read::read(&mut response, &mut buf).unwrap();
            assert!(n > 0, "the stream ended: {text}");
            text.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        let data = text.lines().find_map(|l| l.strip_prefix("data: ")).expect("an event");
        let ack: Value = serde_json::from_str(data).unwrap();
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{ack}");
        assert_eq!(ack.pointer("/params/_meta/io.modelcontextprotocol~1subscriptionId"), Some(&id), "{ack}");
    }
}

/// A 2026-07-28 request the transport refuses before any server sees it: a
/// `_meta` without the version or the client's capabilities (400, -32602), a
/// method 2026-07-28 removed (404, -32601; `initialize` too when its headers
/// name 2026-07-28).
#[test]
fn requests_a_modern_server_refuses_get_the_statuses_the_transport_names() {
    let bridge = listening(&[]);
    let without = |drop: &str| {
        let mut meta = meta();
        meta.as_object_mut().unwrap().remove(drop);
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"_meta": meta}})
    };
    let cases = [
        (without("io.modelcontextprotocol/clientCapabilities"), "tools/list", 400, -32602),
        (without("io.modelcontextprotocol/protocolVersion"), "tools/list", 400, -32602),
        (json!({"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"_meta": meta()}}), "ping", 404, -32601),
        (
            json!({"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel", "params": {"level": "info", "_meta": meta()}}),
            "logging/setLevel",
            404,
            -32601,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
            "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}),
            "initialize",
            404,
            -32601,
        ),
    ];
    for (request, method, status, code) in cases {
        let (got, answer) = json_of(post(&bridge.url, &request, &standard(method, None)));
        assert_eq!(
            (got, answer.pointer("/error/code"), answer["id"].clone()),
            (status, Some(&json!(code)), json!(5)),
            "{request}: {answer}"
        );
    }
    // A legacy client's initialize (no 2026-07-28 version header) still opens a session.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
        "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let response = post(&bridge.url, &init, &[]);
    assert!(response.headers().get("mcp-session-id").is_some(), "{:?}", response.headers());
}
