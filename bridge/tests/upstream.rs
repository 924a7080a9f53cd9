//! The server's side over Streamable HTTP as a state machine, driven with no
//! socket: each case feeds it what an HTTP exchange would report and checks
//! what it asks for and what it delivers.

use mcp_era_bridge::http::{HttpMethod, HttpRequest, HttpUpstream, Status, StreamId, UpstreamAction, UpstreamInput};
use serde_json::{Value, json};

/// The exchanges it asks for.
fn requests(actions: &[UpstreamAction]) -> Vec<HttpRequest> {
    actions
        .iter()
        .filter_map(|a| match a {
            UpstreamAction::Http(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

/// The one exchange it asks for.
fn one_request(actions: &[UpstreamAction]) -> HttpRequest {
    let all = requests(actions);
    assert_eq!(all.len(), 1, "{actions:?}");
    all.into_iter().next().unwrap()
}

/// The lines it delivers to the session, parsed.
fn delivered(actions: &[UpstreamAction]) -> Vec<Value> {
    actions
        .iter()
        .filter_map(|a| match a {
            UpstreamAction::Deliver(line) => Some(serde_json::from_str(line).unwrap()),
            _ => None,
        })
        .collect()
}

fn header<'a>(r: &'a HttpRequest, name: &str) -> Option<&'a str> {
    r.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

fn stopped(actions: &[UpstreamAction]) -> Vec<StreamId> {
    actions
        .iter()
        .filter_map(|a| match a {
            UpstreamAction::Stop(s) => Some(*s),
            _ => None,
        })
        .collect()
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}})
}

fn began(stream: StreamId, status: u16, session: Option<&str>) -> UpstreamInput {
    UpstreamInput::Began { stream, status: Status::new(status, None), session_id: session.map(String::from) }
}

fn body(stream: StreamId, value: Value) -> UpstreamInput {
    UpstreamInput::Body { stream, body: value.to_string().into_bytes() }
}

fn event(stream: StreamId, value: Value) -> UpstreamInput {
    UpstreamInput::Event { stream, data: value.to_string() }
}

#[test]
fn a_modern_request_is_a_post_with_its_headers_and_its_answer_is_delivered() {
    let mut up = HttpUpstream::new();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(call.clone())));
    assert_eq!((r.method, r.long_lived), (HttpMethod::Post, false));
    assert_eq!(header(&r, "Mcp-Method"), Some("tools/call"));
    assert_eq!(header(&r, "Mcp-Name"), Some("echo"));
    assert_eq!(header(&r, "MCP-Protocol-Version"), Some("2026-07-28"));
    assert_eq!(r.body.as_deref().map(|b| serde_json::from_str::<Value>(b).unwrap()), Some(call));
    assert!(up.handle(began(r.stream, 200, None)).is_empty());
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [], "resultType": "complete"}});
    let actions = up.handle(body(r.stream, answer.clone()));
    assert_eq!(delivered(&actions), [answer]);
    assert_eq!(up.in_flight(), 0);
    // What the driver still reports of it is ignored.
    assert!(up.handle(UpstreamInput::Ended { stream: r.stream, fault: None }).is_empty());
}

#[test]
fn tool_headers_are_learnt_from_tools_list_an_invalid_tool_left_out_and_sent_on_calls() {
    let mut up = HttpUpstream::new();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(list)));
    up.handle(began(r.stream, 200, None));
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": [
        {"name": "weather", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"}}}},
        {"name": "broken", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "object", "x-mcp-header": "Region"}}}}]}});
    // As an event of its stream: a notification first, then the answer.
    let progress =
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}});
    assert_eq!(delivered(&up.handle(event(r.stream, progress.clone()))), [progress]);
    let actions = up.handle(event(r.stream, answer));
    let tools = delivered(&actions)[0]["result"]["tools"].clone();
    assert_eq!(tools.as_array().unwrap().len(), 1, "the invalid tool is left out: {tools}");
    assert!(actions.iter().any(|a| matches!(a, UpstreamAction::Log(n) if n.contains("\"broken\""))), "{actions:?}");
    assert_eq!(stopped(&actions), [r.stream], "the answer came: its stream is done");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "weather", "arguments": {"region": "eu-west"}, "_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(call)));
    assert_eq!(header(&r, "Mcp-Param-Region"), Some("eu-west"));
}

#[test]
fn a_cut_stream_and_a_stream_ended_before_its_answer_are_errors_to_the_request() {
    let mut up = HttpUpstream::new();
    let send = |up: &mut HttpUpstream, id: i64| {
        let call =
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "slow", "_meta": meta()}});
        let r = one_request(&up.handle(UpstreamInput::Send(call)));
        up.handle(began(r.stream, 200, None));
        r.stream
    };
    let cut = send(&mut up, 1);
    let actions =
        up.handle(UpstreamInput::Ended { stream: cut, fault: Some("the server's stream was cut: reset".into()) });
    let error = &delivered(&actions)[0];
    assert_eq!((error["id"].clone(), error["error"]["code"].clone()), (json!(1), json!(-32603)));
    assert!(error["error"]["message"].as_str().unwrap().contains("cut: reset"), "{error}");
    let ended = send(&mut up, 2);
    let error = &delivered(&up.handle(UpstreamInput::Ended { stream: ended, fault: None }))[0];
    assert!(error["error"]["message"].as_str().unwrap().contains("ended before its answer"), "{error}");
    assert_eq!(up.in_flight(), 0);
}

#[test]
fn a_cancelled_modern_request_stops_its_stream_and_nothing_is_sent() {
    let mut up = HttpUpstream::new();
    let call =
        json!({"jsonrpc": "2.0", "id": "c-1", "method": "tools/call", "params": {"name": "slow", "_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(call)));
    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c-1", "_meta": meta()}});
    let actions = up.handle(UpstreamInput::Send(cancel));
    assert_eq!(actions, [UpstreamAction::Stop(r.stream)]);
    // Its answer, should it still come, goes nowhere.
    assert!(up.handle(body(r.stream, json!({"jsonrpc": "2.0", "id": "c-1", "result": {}}))).is_empty());
}

/// The legacy shape: nothing goes out before `initialize` is answered; then
/// the session's id and version on every message, and the GET stream.
fn opened_legacy_session(up: &mut HttpUpstream) -> (Value, Value) {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let r = one_request(&up.handle(UpstreamInput::Send(init.clone())));
    assert_eq!(header(&r, "Mcp-Session-Id"), None);
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    assert!(up.handle(UpstreamInput::Send(list)).is_empty(), "held until the session is open");
    up.handle(began(r.stream, 200, Some("s-1")));
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-06-18", "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}}});
    let actions = up.handle(body(r.stream, answer.clone()));
    assert_eq!(delivered(&actions), [answer]);
    let held = one_request(&actions);
    assert_eq!(header(&held, "Mcp-Session-Id"), Some("s-1"));
    assert_eq!(header(&held, "MCP-Protocol-Version"), Some("2025-06-18"), "the version the server answered");
    assert_eq!(header(&held, "Mcp-Method"), None, "the session shape names no method");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let r = one_request(&up.handle(UpstreamInput::Send(initialized.clone())));
    let get = one_request(&up.handle(began(r.stream, 202, None)));
    assert_eq!((get.method, get.long_lived, header(&get, "Mcp-Session-Id")), (HttpMethod::Get, true, Some("s-1")));
    (init, initialized)
}

#[test]
fn a_legacy_session_holds_messages_until_initialize_is_answered_then_listens() {
    let mut up = HttpUpstream::new();
    opened_legacy_session(&mut up);
}

#[test]
fn a_session_expired_mid_call_answers_the_call_and_opens_a_new_one_with_the_clients_initialize() {
    let mut up = HttpUpstream::new();
    let (init, initialized) = opened_legacy_session(&mut up);
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo"}});
    let r = one_request(&up.handle(UpstreamInput::Send(call)));
    let actions = up.handle(began(r.stream, 404, None));
    let error = &delivered(&actions)[0];
    assert_eq!(error["id"], 5);
    assert!(error["error"]["message"].as_str().unwrap().contains("expired (404)"), "{error}");
    assert_eq!(stopped(&actions), [r.stream]);
    assert!(requests(&actions).is_empty(), "the call is not sent again");
    // The next message opens a new session first, with the client's initialize, and waits.
    let ping = json!({"jsonrpc": "2.0", "id": 6, "method": "ping"});
    let reinit = one_request(&up.handle(UpstreamInput::Send(ping.clone())));
    assert_eq!(reinit.body.as_deref().map(|b| serde_json::from_str::<Value>(b).unwrap()), Some(init));
    assert_eq!(header(&reinit, "Mcp-Session-Id"), None);
    assert!(up.handle(began(reinit.stream, 200, Some("s-2"))).is_empty());
    // Its answer is the bridge's: not delivered; its version kept; then the client's initialized.
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-03-26", "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}}});
    let actions = up.handle(event(reinit.stream, answer));
    assert!(delivered(&actions).is_empty(), "{actions:?}");
    let again = one_request(&actions);
    assert_eq!(again.body.as_deref().map(|b| serde_json::from_str::<Value>(b).unwrap()), Some(initialized));
    assert_eq!(header(&again, "Mcp-Session-Id"), Some("s-2"));
    let actions = up.handle(began(again.stream, 202, None));
    let sent = requests(&actions);
    assert_eq!(sent.len(), 2, "the GET stream, then the held ping: {sent:?}");
    assert_eq!(sent[0].method, HttpMethod::Get);
    assert_eq!(sent[1].body.as_deref().map(|b| serde_json::from_str::<Value>(b).unwrap()), Some(ping));
    assert_eq!(header(&sent[1], "Mcp-Session-Id"), Some("s-2"));
    assert_eq!(header(&sent[1], "MCP-Protocol-Version"), Some("2025-03-26"));
}

#[test]
fn closing_stops_every_exchange_and_ends_the_legacy_session_with_delete() {
    let mut up = HttpUpstream::new();
    opened_legacy_session(&mut up);
    let in_flight = up.in_flight();
    assert!(in_flight >= 2, "the GET stream and the held tools/list");
    let actions = up.handle(UpstreamInput::Close);
    assert_eq!(stopped(&actions).len(), in_flight);
    let delete = one_request(&actions);
    assert_eq!((delete.method, header(&delete, "Mcp-Session-Id")), (HttpMethod::Delete, Some("s-1")));
    assert_eq!(up.handle(began(delete.stream, 200, None)).last(), Some(&UpstreamAction::Closed));
    // With no session, closing is at once.
    assert_eq!(HttpUpstream::new().handle(UpstreamInput::Close), [UpstreamAction::Closed]);
}

#[test]
fn a_probe_refused_without_a_modern_error_is_a_legacy_servers_refusal_and_a_json_rpc_error_answers_its_request() {
    let mut up = HttpUpstream::new();
    let probe_id = json!(mcp_era_bridge::PROBE_ID);
    let probe = json!({"jsonrpc": "2.0", "id": probe_id, "method": "server/discover", "params": {"_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(probe.clone())));
    up.handle(began(r.stream, 405, None));
    let answer =
        &delivered(&up.handle(UpstreamInput::Body { stream: r.stream, body: b"Method Not Allowed".to_vec() }))[0];
    assert_eq!((answer["id"].clone(), answer["error"]["code"].clone()), (probe_id, json!(-32601)));
    // A client's own discover refused for its params: the server's own error, not a legacy server's.
    let own = json!({"jsonrpc": "2.0", "id": 31, "method": "server/discover", "params": {}});
    let r = one_request(&up.handle(UpstreamInput::Send(own)));
    up.handle(began(r.stream, 400, None));
    let invalid = json!({"jsonrpc": "2.0", "id": "h1", "error": {"code": -32602, "message": "missing _meta"}});
    let answer = &delivered(&up.handle(body(r.stream, invalid)))[0];
    assert_eq!((answer["id"].clone(), answer["error"]["code"].clone()), (json!(31), json!(-32602)), "{answer}");
    // A modern refusal in the body is the server's answer, with the request's id.
    let r = one_request(&up.handle(UpstreamInput::Send(probe)));
    up.handle(began(r.stream, 400, None));
    let refusal = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32022, "message": "unsupported"}});
    let answer = &delivered(&up.handle(body(r.stream, refusal)))[0];
    assert_eq!(
        (answer["id"].clone(), answer["error"]["code"].clone()),
        (json!(mcp_era_bridge::PROBE_ID), json!(-32022))
    );
    // A status with no JSON-RPC answer at all is an error saying so.
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "x", "_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(call)));
    up.handle(began(r.stream, 502, None));
    let answer = &delivered(&up.handle(UpstreamInput::Body { stream: r.stream, body: b"Bad Gateway".to_vec() }))[0];
    assert!(answer["error"]["message"].as_str().unwrap().contains("HTTP 502 with no JSON-RPC answer (Bad Gateway)"));
}
