//! The server's side over Streamable HTTP as a state machine, driven with no
//! socket: each case feeds it what an HTTP exchange would report and checks
//! what it asks for and what it delivers.

use std::time::Duration;

use mcp_era_bridge::http::{
    AuthReason, Credentials, End, HttpMethod, HttpRequest, HttpUpstream, MAX_QUIET_RESUMES, Shape, Status, StreamId,
    TimerId, Transport, UpstreamAction, UpstreamInput,
};
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

/// The exchanges cut (cancelled, refused).
fn stopped(actions: &[UpstreamAction]) -> Vec<StreamId> {
    actions.iter().filter_map(|a| if let UpstreamAction::Stop(s) = a { Some(*s) } else { None }).collect()
}

/// The exchanges answered: let end, their connections kept for the next request.
fn finished(actions: &[UpstreamAction]) -> Vec<StreamId> {
    actions.iter().filter_map(|a| if let UpstreamAction::Finish(s) = a { Some(*s) } else { None }).collect()
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}})
}

fn began(stream: StreamId, status: u16, session: Option<&str>) -> UpstreamInput {
    UpstreamInput::Began {
        stream,
        status: Status::new(status, None),
        session_id: session.map(String::from),
        www_authenticate: None,
    }
}

fn body(stream: StreamId, value: Value) -> UpstreamInput {
    UpstreamInput::Body { stream, body: value.to_string().into_bytes() }
}

fn event(stream: StreamId, value: Value) -> UpstreamInput {
    UpstreamInput::Event { stream, data: value.to_string(), id: None, retry: None, event: "message".into() }
}

/// An SSE event with its stream's last event id, and a `retry` if it names one.
fn event_with_id(stream: StreamId, data: &str, id: &str, retry_ms: Option<u64>) -> UpstreamInput {
    UpstreamInput::Event {
        stream,
        data: data.to_string(),
        id: Some(id.to_string()),
        retry: retry_ms.map(Duration::from_millis),
        event: "message".into(),
    }
}

fn ended(stream: StreamId) -> UpstreamInput {
    UpstreamInput::Ended { stream, end: End::Finished }
}

/// The timers it asks for.
fn wakes(actions: &[UpstreamAction]) -> Vec<(TimerId, Duration)> {
    actions
        .iter()
        .filter_map(|a| match a {
            UpstreamAction::Wake { timer, after } => Some((*timer, *after)),
            _ => None,
        })
        .collect()
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
    assert!(up.handle(ended(r.stream)).is_empty());
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
    assert_eq!(finished(&actions), [r.stream], "the answer came: its stream is done, let end");
    assert!(stopped(&actions).is_empty(), "an answered stream is not cut: {actions:?}");
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
        up.handle(UpstreamInput::Ended { stream: cut, end: End::Cut("the server's stream was cut: reset".into()) });
    let error = &delivered(&actions)[0];
    assert_eq!((error["id"].clone(), error["error"]["code"].clone()), (json!(1), json!(-32603)));
    assert!(error["error"]["message"].as_str().unwrap().contains("cut: reset"), "{error}");
    let ended = send(&mut up, 2);
    let error = &delivered(&up.handle(self::ended(ended)))[0];
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
    // `initialized` and the session's GET stream go out together, before anything after them.
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let sent = requests(&up.handle(UpstreamInput::Send(initialized.clone())));
    let [r, get] = &sent[..] else { panic!("{sent:?}") };
    assert_eq!(r.method, HttpMethod::Post);
    assert_eq!((get.method, get.long_lived, header(get, "Mcp-Session-Id")), (HttpMethod::Get, true, Some("s-1")));
    assert!(requests(&up.handle(began(r.stream, 202, None))).is_empty(), "no second GET");
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

/// A legacy session open, its GET stream begun; the GET's stream id.
fn listening_legacy_session(up: &mut HttpUpstream) -> StreamId {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let r = one_request(&up.handle(UpstreamInput::Send(init)));
    up.handle(began(r.stream, 200, Some("s-1")));
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}}});
    up.handle(body(r.stream, answer));
    // `initialized` and the session's GET stream go out together.
    let sent =
        requests(&up.handle(UpstreamInput::Send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))));
    let [r, get] = &sent[..] else { panic!("{sent:?}") };
    assert_eq!((r.method, get.method, get.long_lived), (HttpMethod::Post, HttpMethod::Get, true));
    assert!(requests(&up.handle(began(r.stream, 202, None))).is_empty(), "no second GET");
    assert!(up.handle(began(get.stream, 200, None)).is_empty());
    get.stream
}

/// A `tools/call` out on a legacy session, answered with an event stream that
/// primed its cursor (`e-1`, retry 500 ms): its stream.
fn primed_call(up: &mut HttpUpstream, id: i64) -> StreamId {
    let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "slow"}});
    let r = one_request(&up.handle(UpstreamInput::Send(call)));
    up.handle(began(r.stream, 200, None));
    assert!(up.handle(event_with_id(r.stream, "", "e-1", Some(500))).is_empty(), "a priming event delivers nothing");
    r.stream
}

#[test]
fn a_stream_closed_before_its_answer_is_resumed_after_retry_with_last_event_id() {
    let mut up = HttpUpstream::new();
    listening_legacy_session(&mut up);
    let call = primed_call(&mut up, 7);
    // The server closes the connection (polling): no error, a timer for the retry it named.
    let actions = up.handle(ended(call));
    assert!(delivered(&actions).is_empty(), "{actions:?}");
    assert!(requests(&actions).is_empty(), "nothing before the retry: {actions:?}");
    let [(timer, after)] = wakes(&actions)[..] else { panic!("one timer: {actions:?}") };
    assert_eq!(after, Duration::from_millis(500), "the server's retry");
    // Then a GET that resumes it.
    let get = one_request(&up.handle(UpstreamInput::Timer(timer)));
    assert_eq!((get.method, get.body.clone(), get.long_lived), (HttpMethod::Get, None, false));
    assert_eq!(header(&get, "Last-Event-ID"), Some("e-1"));
    assert_eq!(header(&get, "Mcp-Session-Id"), Some("s-1"));
    assert_eq!(header(&get, "Accept"), Some("text/event-stream"));
    up.handle(began(get.stream, 200, Some("s-1")));
    let answer = json!({"jsonrpc": "2.0", "id": 7, "result": {"content": []}});
    let actions = up.handle(event_with_id(get.stream, &answer.to_string(), "e-2", None));
    assert_eq!(delivered(&actions), [answer], "the answer on the resumed stream is the call's");
    assert_eq!(finished(&actions), [get.stream]);
    // A timer fired twice, or a stale one, does nothing.
    assert!(up.handle(UpstreamInput::Timer(timer)).is_empty());
}

#[test]
fn a_cut_stream_is_resumed_and_one_the_driver_gave_up_on_is_an_error() {
    let mut up = HttpUpstream::new();
    listening_legacy_session(&mut up);
    let call = primed_call(&mut up, 8);
    let actions = up.handle(UpstreamInput::Ended { stream: call, end: End::Cut("connection reset".into()) });
    assert_eq!(wakes(&actions).len(), 1, "a cut is resumed: {actions:?}");
    assert!(delivered(&actions).is_empty());
    // A stream that stalled past the driver's bound is not resumed: its silence was the fault.
    let stalled = primed_call(&mut up, 9);
    let actions =
        up.handle(UpstreamInput::Ended { stream: stalled, end: End::Failed("stalled (--body-timeout)".into()) });
    assert!(wakes(&actions).is_empty(), "{actions:?}");
    let error = &delivered(&actions)[0];
    assert_eq!(error["id"], 9);
    assert!(error["error"]["message"].as_str().unwrap().contains("--body-timeout"), "{error}");
    // A stream that named no event id cannot be resumed: ended before its answer.
    let call = json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "slow"}});
    let r = one_request(&up.handle(UpstreamInput::Send(call)));
    up.handle(began(r.stream, 200, None));
    let error = &delivered(&up.handle(ended(r.stream)))[0];
    assert!(error["error"]["message"].as_str().unwrap().contains("ended before its answer"), "{error}");
}

#[test]
fn the_modern_shape_resumes_nothing() {
    // 2026-07-28: "Resumable SSE streams via Last-Event-ID are not supported."
    let mut up = HttpUpstream::new();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow", "_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(call)));
    up.handle(began(r.stream, 200, None));
    up.handle(event_with_id(r.stream, "", "e-1", Some(10)));
    let actions = up.handle(ended(r.stream));
    assert!(wakes(&actions).is_empty(), "{actions:?}");
    assert_eq!(delivered(&actions)[0]["error"]["code"], -32603);
}

#[test]
fn reconnections_that_bring_nothing_give_up_after_the_limit_and_a_message_resets_the_count() {
    let mut up = HttpUpstream::new();
    listening_legacy_session(&mut up);
    let mut stream = primed_call(&mut up, 11);
    let mut resumes = 0;
    let error = loop {
        let actions = up.handle(ended(stream));
        match wakes(&actions)[..] {
            [(timer, _)] => {
                resumes += 1;
                let get = one_request(&up.handle(UpstreamInput::Timer(timer)));
                up.handle(began(get.stream, 200, None));
                up.handle(event_with_id(get.stream, "", &format!("e-{resumes}"), None));
                if resumes == 3 {
                    // A progress notification: the call is alive, the count starts again.
                    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                        "params": {"progressToken": 1, "progress": 1}});
                    up.handle(event_with_id(get.stream, &progress.to_string(), "e-p", None));
                }
                stream = get.stream;
            }
            [] => break delivered(&actions)[0].clone(),
            _ => panic!("{actions:?}"),
        }
        assert!(resumes <= 3 + MAX_QUIET_RESUMES as usize, "never a loop");
    };
    assert_eq!(resumes, 3 + MAX_QUIET_RESUMES as usize, "the count restarted after the message");
    assert_eq!(error["id"], 11);
}

#[test]
fn a_cancelled_request_is_not_resumed_and_closing_forgets_the_timers() {
    let mut up = HttpUpstream::new();
    listening_legacy_session(&mut up);
    let call = primed_call(&mut up, 12);
    let [(timer, _)] = wakes(&up.handle(ended(call)))[..] else { panic!() };
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 12}});
    let sent = one_request(&up.handle(UpstreamInput::Send(cancel)));
    assert_eq!(sent.method, HttpMethod::Post, "the server is told");
    assert!(up.handle(UpstreamInput::Timer(timer)).is_empty(), "the cancelled call's stream is not resumed");
    let call = primed_call(&mut up, 13);
    let [(timer, _)] = wakes(&up.handle(ended(call)))[..] else { panic!() };
    up.handle(UpstreamInput::Close);
    assert!(up.handle(UpstreamInput::Timer(timer)).is_empty());
}

#[test]
fn the_legacy_get_stream_is_resumed_with_its_last_event_id() {
    let mut up = HttpUpstream::new();
    let get = listening_legacy_session(&mut up);
    let ping = json!({"jsonrpc": "2.0", "id": "s-q", "method": "ping"});
    assert_eq!(delivered(&up.handle(event_with_id(get, &ping.to_string(), "g-4", Some(250)))), [ping]);
    let [(timer, after)] = wakes(&up.handle(ended(get)))[..] else { panic!() };
    assert_eq!(after, Duration::from_millis(250));
    let again = one_request(&up.handle(UpstreamInput::Timer(timer)));
    assert_eq!((again.method, again.long_lived), (HttpMethod::Get, true));
    assert_eq!(header(&again, "Last-Event-ID"), Some("g-4"));
}

fn challenge(stream: StreamId, status: u16, www_authenticate: &str) -> UpstreamInput {
    UpstreamInput::Began {
        stream,
        status: Status::new(status, None),
        session_id: None,
        www_authenticate: Some(www_authenticate.to_string()),
    }
}

#[test]
fn a_401_parks_the_request_and_every_later_one_until_authorized_then_each_goes_again_with_the_credentials() {
    let mut up = HttpUpstream::new();
    let call =
        |id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "x", "_meta": meta()}});
    let first = one_request(&up.handle(UpstreamInput::Send(call(1))));
    let www = r#"Bearer resource_metadata="https://s.example/.well-known/oauth-protected-resource""#;
    let actions = up.handle(challenge(first.stream, 401, www));
    assert_eq!(stopped(&actions), [first.stream]);
    let asked: Vec<_> = actions.iter().filter(|a| matches!(a, UpstreamAction::Authorize(_))).collect();
    assert_eq!(
        asked,
        [&UpstreamAction::Authorize(AuthReason::Challenged {
            status: Status::new(401, None),
            www_authenticate: Some(www.into())
        })]
    );
    assert!(delivered(&actions).is_empty(), "the request waits; it is not answered");
    // A request made meanwhile waits too; nothing is asked twice.
    let actions = up.handle(UpstreamInput::Send(call(2)));
    assert!(actions.is_empty(), "{actions:?}");
    let granted = Credentials { authorization: "Bearer t-1".into(), refresh_after: Some(Duration::from_secs(50)) };
    let actions = up.handle(UpstreamInput::Authorized(Ok(granted)));
    let sent = requests(&actions);
    assert_eq!(sent.len(), 2, "{actions:?}");
    for (r, id) in sent.iter().zip([1, 2]) {
        assert_eq!(header(r, "Authorization"), Some("Bearer t-1"));
        assert_eq!(r.body.as_deref().map(|b| serde_json::from_str::<Value>(b).unwrap()), Some(call(id)));
        assert_ne!(r.stream, first.stream, "a new exchange");
    }
    let [(refresh, after)] = wakes(&actions)[..] else { panic!("{actions:?}") };
    assert_eq!(after, Duration::from_secs(50));
    // The refresh is asked when its time comes; requests do not wait for it.
    assert_eq!(up.handle(UpstreamInput::Timer(refresh)), [UpstreamAction::Authorize(AuthReason::Expiring)]);
    let r = one_request(&up.handle(UpstreamInput::Send(call(3))));
    assert_eq!(header(&r, "Authorization"), Some("Bearer t-1"));
    up.handle(UpstreamInput::Authorized(Ok(Credentials { authorization: "Bearer t-2".into(), refresh_after: None })));
    assert_eq!(header(&one_request(&up.handle(UpstreamInput::Send(call(4)))), "Authorization"), Some("Bearer t-2"));
}

#[test]
fn a_refusal_of_replaced_credentials_is_sent_again_and_a_challenge_during_a_refresh_waits_for_it() {
    let mut up = HttpUpstream::new();
    let call =
        |id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "x", "_meta": meta()}});
    let granted =
        |t: &str| Credentials { authorization: format!("Bearer {t}"), refresh_after: Some(Duration::from_secs(9)) };
    let actions = up.handle(UpstreamInput::Authorized(Ok(granted("t-1"))));
    let [(refresh, _)] = wakes(&actions)[..] else { panic!("{actions:?}") };
    let old = one_request(&up.handle(UpstreamInput::Send(call(1))));
    // A refresh goes out while the call is out, and its new credentials come back.
    assert_eq!(up.handle(UpstreamInput::Timer(refresh)), [UpstreamAction::Authorize(AuthReason::Expiring)]);
    up.handle(UpstreamInput::Authorized(Ok(granted("t-2"))));
    // The call, sent with t-1, is refused: sent again with t-2, nothing asked.
    let actions = up.handle(challenge(old.stream, 401, "Bearer"));
    assert!(!actions.iter().any(|a| matches!(a, UpstreamAction::Authorize(_))), "{actions:?}");
    assert_eq!(header(&requests(&actions)[0], "Authorization"), Some("Bearer t-2"));

    // A challenge met while a refresh is out asks nothing; the refresh's failure asks it.
    let mut up = HttpUpstream::new();
    let [(refresh, _)] = wakes(&up.handle(UpstreamInput::Authorized(Ok(granted("t-1")))))[..] else { panic!() };
    let r = one_request(&up.handle(UpstreamInput::Send(call(2))));
    up.handle(UpstreamInput::Timer(refresh));
    let actions = up.handle(challenge(r.stream, 401, "Bearer"));
    assert!(!actions.iter().any(|a| matches!(a, UpstreamAction::Authorize(_))), "one question at a time: {actions:?}");
    assert!(up.handle(UpstreamInput::Send(call(3))).is_empty(), "later requests wait too");
    let actions = up.handle(UpstreamInput::Authorized(Err("invalid_grant".into())));
    assert!(delivered(&actions).is_empty(), "nothing is failed: {actions:?}");
    let asked: Vec<_> = actions.iter().filter(|a| matches!(a, UpstreamAction::Authorize(_))).collect();
    assert_eq!(
        asked,
        [&UpstreamAction::Authorize(AuthReason::Challenged {
            status: Status::new(401, None),
            www_authenticate: Some("Bearer".into())
        })]
    );
    let sent = requests(&up.handle(UpstreamInput::Authorized(Ok(granted("t-3")))));
    assert_eq!(sent.len(), 2);
    assert!(sent.iter().all(|r| header(r, "Authorization") == Some("Bearer t-3")));
}

#[test]
fn authorization_that_fails_answers_every_waiting_request_with_why_and_a_403_without_insufficient_scope_is_an_answer() {
    let mut up = HttpUpstream::new();
    let call =
        |id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "x", "_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(call(1))));
    up.handle(challenge(r.stream, 403, r#"Bearer error="insufficient_scope", scope="files:write""#));
    up.handle(UpstreamInput::Send(call(2)));
    let note = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1, "_meta": meta()}});
    up.handle(UpstreamInput::Send(note));
    let actions = up.handle(UpstreamInput::Authorized(Err("the user closed the browser".into())));
    let errors = delivered(&actions);
    assert_eq!(errors.iter().map(|e| e["id"].clone()).collect::<Vec<_>>(), [json!(1), json!(2)]);
    for e in &errors {
        let message = e["error"]["message"].as_str().unwrap();
        assert!(message.contains("asks for authorization: the user closed the browser"), "{message}");
    }
    assert!(requests(&actions).is_empty());
    assert_eq!(up.in_flight(), 0);
    // A 403 for another reason is the server's answer to the request, not a challenge.
    let r = one_request(&up.handle(UpstreamInput::Send(call(3))));
    let actions = up.handle(challenge(r.stream, 403, r#"Bearer error="invalid_token""#));
    assert!(!actions.iter().any(|a| matches!(a, UpstreamAction::Authorize(_))), "{actions:?}");
    let refusal = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "forbidden"}});
    assert_eq!(delivered(&up.handle(body(r.stream, refusal)))[0]["error"]["message"], "forbidden");
}

#[test]
fn an_initialize_refused_by_a_modern_only_server_leaves_the_per_request_shape() {
    let mut up = HttpUpstream::new();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let r = one_request(&up.handle(UpstreamInput::Send(init)));
    // The bridge's probe, asked after the refusal, waits for the answer meanwhile.
    let probe = json!({"jsonrpc": "2.0", "id": mcp_era_bridge::PROBE_ID, "method": "server/discover", "params": {"_meta": meta()}});
    assert!(up.handle(UpstreamInput::Send(probe)).is_empty());
    up.handle(began(r.stream, 400, None));
    let refusal =
        json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32601, "message": "Method not found: initialize"}});
    let actions = up.handle(body(r.stream, refusal));
    assert_eq!(delivered(&actions)[0]["error"]["code"], -32601);
    let sent = one_request(&actions);
    assert_eq!(header(&sent, "Mcp-Method"), Some("server/discover"), "a modern POST again");
    assert_eq!(header(&sent, "MCP-Protocol-Version"), Some("2026-07-28"));
    assert!(matches!(up.shape(), mcp_era_bridge::http::Shape::PerRequest));
}

#[test]
fn text_is_relayed_untouched_both_ways_unless_the_machine_changes_it_or_it_spans_lines() {
    let mut up = HttpUpstream::new();
    // Key order, spacing and escapes as the client wrote them: the body is the line.
    let line = r#"{"params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}, "name": "echo"}, "method": "tools/call", "id": 1, "jsonrpc": "2.0"}"#;
    let r = one_request(&up.handle(UpstreamInput::SendText(line.to_string())));
    assert_eq!(r.body.as_deref(), Some(line));
    assert_eq!(header(&r, "Mcp-Name"), Some("echo"), "read to route it");
    up.handle(began(r.stream, 200, None));
    let answer = r#"{"result": {"resultType": "complete", "content": [{"text": "caf\u00e9", "type": "text"}]}, "id": 1, "jsonrpc": "2.0"}"#;
    let actions = up.handle(UpstreamInput::Body { stream: r.stream, body: format!("{answer}\n").into_bytes() });
    assert_eq!(
        actions.iter().find(|a| matches!(a, UpstreamAction::Deliver(_))),
        Some(&UpstreamAction::Deliver(answer.into()))
    );
    // A pretty-printed answer spans lines: written again on one.
    let r = one_request(&up.handle(UpstreamInput::SendText(line.replace("\"id\": 1", "\"id\": 2"))));
    up.handle(began(r.stream, 200, None));
    let pretty =
        "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 2,\n  \"result\": {\"resultType\": \"complete\", \"content\": []}\n}";
    let actions = up.handle(UpstreamInput::Body { stream: r.stream, body: pretty.as_bytes().to_vec() });
    let [UpstreamAction::Deliver(one_line)] =
        &actions.iter().filter(|a| matches!(a, UpstreamAction::Deliver(_))).cloned().collect::<Vec<_>>()[..]
    else {
        panic!()
    };
    assert!(!one_line.contains('\n') && serde_json::from_str::<Value>(one_line).unwrap()["id"] == 2, "{one_line}");
    // A tools/list answer the machine changes (an invalid tool left out) is written again.
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::SendText(list.to_string())));
    up.handle(began(r.stream, 200, None));
    let tools = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete", "tools": [
        {"name": "broken", "inputSchema": {"type": "object", "properties": {"r": {"type": "object", "x-mcp-header": "R"}}}}]}});
    let delivered = delivered(&up.handle(body(r.stream, tools)));
    assert_eq!(delivered[0]["result"]["tools"], json!([]));
    // Text that is no JSON is not sent.
    let actions = up.handle(UpstreamInput::SendText("{nope".into()));
    assert!(
        requests(&actions).is_empty() && matches!(&actions[..], [UpstreamAction::Log(n)] if n.contains("not JSON"))
    );
}

#[test]
fn an_initialize_answered_at_a_modern_version_opens_no_legacy_session() {
    let mut up = HttpUpstream::new();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let r = one_request(&up.handle(UpstreamInput::Send(init)));
    up.handle(began(r.stream, 200, Some("mock-session")));
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2026-07-28", "capabilities": {},
        "serverInfo": {"name": "m", "version": "1"}}});
    up.handle(body(r.stream, answer));
    assert!(matches!(up.shape(), mcp_era_bridge::http::Shape::PerRequest));
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}});
    let r = one_request(&up.handle(UpstreamInput::Send(list)));
    assert_eq!((header(&r, "Mcp-Session-Id"), header(&r, "Mcp-Method")), (None, Some("tools/list")));
}

fn sse_event(stream: StreamId, event: &str, data: &str) -> UpstreamInput {
    UpstreamInput::Event { stream, data: data.to_string(), id: None, retry: None, event: event.to_string() }
}

fn legacy_initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}})
}

#[test]
fn auto_falls_back_to_http_sse_when_the_initialize_post_gets_a_4xx_and_messages_go_to_its_endpoint() {
    let mut up = HttpUpstream::with_transport(Transport::Auto, Duration::from_secs(30));
    let init = legacy_initialize();
    let r = one_request(&up.handle(UpstreamInput::Send(init.clone())));
    // A 2024-11-05 server has no POST at its SSE URL: a 404 or 405 with no JSON-RPC answer.
    up.handle(began(r.stream, 405, None));
    let actions = up.handle(UpstreamInput::Body { stream: r.stream, body: b"Cannot POST /sse".to_vec() });
    assert_eq!(stopped(&actions), [r.stream]);
    assert!(delivered(&actions).is_empty(), "the initialize is not answered, it is sent again: {actions:?}");
    let get = one_request(&actions);
    assert_eq!((get.method, get.long_lived, get.url.clone()), (HttpMethod::Get, true, None));
    assert_eq!(header(&get, "Accept"), Some("text/event-stream"));
    assert!(matches!(up.shape(), Shape::Sse(_)));
    up.handle(began(get.stream, 200, None));
    // The endpoint event: the held initialize goes there.
    let actions = up.handle(sse_event(get.stream, "endpoint", "/message?sessionId=abc"));
    let post = one_request(&actions);
    assert_eq!((post.method, post.url.as_deref()), (HttpMethod::Post, Some("/message?sessionId=abc")));
    assert_eq!(post.body.as_deref().map(|b| serde_json::from_str::<Value>(b).unwrap()), Some(init));
    let [(_, wait)] = wakes(&actions)[..] else { panic!("the answer's wait is bounded: {actions:?}") };
    assert_eq!(wait, Duration::from_secs(30));
    // 202: accepted; the answer comes on the stream, as a message event.
    assert_eq!(finished(&up.handle(began(post.stream, 202, None))), [post.stream]);
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2024-11-05", "capabilities": {},
        "serverInfo": {"name": "old", "version": "1"}}});
    assert_eq!(delivered(&up.handle(sse_event(get.stream, "message", &answer.to_string()))), [answer]);
    // What the server asks on its own comes the same way.
    let ping = json!({"jsonrpc": "2.0", "id": "s-1", "method": "ping"});
    assert_eq!(delivered(&up.handle(sse_event(get.stream, "message", &ping.to_string()))), [ping]);
}

#[test]
fn over_http_sse_a_refused_message_a_silent_answer_and_a_cut_stream_are_errors_to_the_request() {
    let mut up = HttpUpstream::with_transport(Transport::Sse, Duration::from_secs(5));
    // Forced: the first message opens the stream and waits for its endpoint.
    let actions = up.handle(UpstreamInput::Send(legacy_initialize()));
    let get = one_request(&actions);
    assert_eq!(get.method, HttpMethod::Get);
    up.handle(began(get.stream, 200, None));
    let post = one_request(&up.handle(sse_event(get.stream, "endpoint", "http://127.0.0.1:9/messages")));
    up.handle(began(post.stream, 202, None));
    // A message the endpoint refuses: the request has its answer, naming the status.
    let call = |id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "x"}});
    let post = one_request(&up.handle(UpstreamInput::Send(call(1))));
    let error = &delivered(&up.handle(began(post.stream, 400, None)))[0];
    assert_eq!(error["id"], 1);
    assert!(error["error"]["message"].as_str().unwrap().contains("HTTP 400"), "{error}");
    // Silence: the wait's timer answers it.
    let actions = up.handle(UpstreamInput::Send(call(2)));
    let [(timer, _)] = wakes(&actions)[..] else { panic!("{actions:?}") };
    up.handle(began(one_request(&actions).stream, 202, None));
    let error = &delivered(&up.handle(UpstreamInput::Timer(timer)))[0];
    assert_eq!(error["id"], 2);
    assert!(error["error"]["message"].as_str().unwrap().contains("--body-timeout"), "{error}");
    // A cut stream: every request waiting on it is answered, and later ones at once.
    let actions = up.handle(UpstreamInput::Send(call(3)));
    up.handle(began(one_request(&actions).stream, 202, None));
    let errors = delivered(&up.handle(UpstreamInput::Ended { stream: get.stream, end: End::Cut("reset".into()) }));
    let ids: Vec<Value> = errors.iter().map(|e| e["id"].clone()).collect();
    assert_eq!(ids, [json!(0), json!(3)], "the initialize and call 3 were waiting: {errors:?}");
    let later = delivered(&up.handle(UpstreamInput::Send(call(4))));
    assert!(later[0]["error"]["message"].as_str().unwrap().contains("stream is over"), "{later:?}");
}
