//! A session's lifecycle with no I/O: the probe and what answers it (a
//! `DiscoverResult`, a legacy refusal, a modern refusal, silence, a server
//! gone), the client's lines that come before it is answered, the choice
//! between pass-through and translation, and the end. Each case feeds a
//! [`Session`] inputs and checks every action it returns.

use std::time::{Duration, Instant};

use mcp_era_bridge::{Action, Input, PROBE_ID, PROBE_WAIT, ServerEraChoice, Session, To};
use serde_json::{Value, json};

fn discovered() -> String {
    json!({"jsonrpc": "2.0", "id": PROBE_ID, "result": {
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {}}, "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern-server", "version": "9"}}
    }})
    .to_string()
}

fn legacy_refusal() -> String {
    json!({"jsonrpc": "2.0", "id": PROBE_ID, "error": {"code": -32601, "message": "Method not found"}}).to_string()
}

fn modern_request(id: i64, method: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "new", "version": "1"}}}})
    .to_string()
}

fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}})
    .to_string()
}

/// The lines sent to one side, parsed.
fn sent(actions: &[Action], to: To) -> Vec<Value> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Send(t, line) if *t == to => Some(serde_json::from_str(line).expect("a JSON line")),
            _ => None,
        })
        .collect()
}

fn logs(actions: &[Action]) -> String {
    actions
        .iter()
        .filter_map(|a| if let Action::Log(l) = a { Some(l.as_str()) } else { None })
        .collect::<Vec<_>>()
        .join("\n")
}

fn started() -> (Session, Instant) {
    let now = Instant::now();
    let (session, actions) = Session::new(ServerEraChoice::Auto, now);
    // The probe, and a deadline for it.
    assert_eq!(actions.len(), 2, "{actions:?}");
    let probe = sent(&actions, To::Server);
    assert_eq!(probe[0]["method"], "server/discover");
    assert_eq!(probe[0]["id"], PROBE_ID);
    assert_eq!(probe[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert_eq!(actions[1], Action::WakeAt(now + PROBE_WAIT));
    (session, now)
}

#[test]
fn a_modern_server_and_a_legacy_client_are_bridged_and_early_lines_wait_for_the_probe() {
    let (mut s, _) = started();
    // The client speaks before the server answers: nothing is sent yet.
    assert_eq!(s.handle(Input::FromClient(initialize())), []);
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    assert_eq!(s.handle(Input::FromClient(ping)), []);
    // The server says something else first: not passed on.
    let stray = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}});
    let actions = s.handle(Input::FromServer(stray.to_string()));
    assert!(sent(&actions, To::Client).is_empty() && logs(&actions).contains("not passed on"), "{actions:?}");
    // The answer: the early lines are handled in order, translated.
    let actions = s.handle(Input::FromServer(discovered()));
    let log = logs(&actions);
    assert!(log.contains("the server is modern") && log.contains("the client is legacy"), "{log}");
    let to_client = sent(&actions, To::Client);
    assert_eq!(to_client.len(), 2, "{actions:?}");
    assert_eq!((to_client[0]["id"].clone(), to_client[1]["id"].clone()), (json!(0), json!(1)));
    assert_eq!(to_client[0]["result"]["serverInfo"]["name"], "modern-server");
    assert_eq!(to_client[1]["result"], json!({}));
    // The modern server hears neither `initialize` nor `ping`.
    assert!(sent(&actions, To::Server).is_empty(), "{actions:?}");
    // A later request reaches the server with its `_meta`.
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    let actions = s.handle(Input::FromClient(list));
    let to_server = sent(&actions, To::Server);
    assert_eq!(to_server.len(), 1);
    assert_eq!(to_server[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert!(!s.is_over());
}

#[test]
fn a_legacy_refusal_of_the_probe_makes_a_legacy_server_and_a_modern_client_is_bridged() {
    let (mut s, _) = started();
    let actions = s.handle(Input::FromServer(legacy_refusal()));
    assert!(logs(&actions).contains("the server is legacy"), "{actions:?}");
    assert!(sent(&actions, To::Client).is_empty() && sent(&actions, To::Server).is_empty());
    // A modern client's first request: the bridge does the handshake first.
    let actions = s.handle(Input::FromClient(modern_request(1, "tools/list")));
    let to_server = sent(&actions, To::Server);
    assert_eq!(to_server[0]["method"], "initialize", "{actions:?}");
    assert!(logs(&actions).contains("the client is modern"), "{actions:?}");
}

#[test]
fn the_same_era_on_both_sides_passes_every_line_as_it_came() {
    let (mut s, _) = started();
    s.handle(Input::FromServer(legacy_refusal()));
    // Byte for byte, whitespace and all, and a line that is not JSON too.
    let init = format!("{}  ", initialize());
    assert_eq!(s.handle(Input::FromClient(init.clone()))[1..], [Action::Send(To::Server, init)]);
    assert_eq!(s.handle(Input::FromClient("not json".into())), [Action::Send(To::Server, "not json".into())]);
    let answer = r#"{"jsonrpc":"2.0","id":0,"result":{ "protocolVersion":"2025-11-25"}}"#.to_string();
    assert_eq!(s.handle(Input::FromServer(answer.clone())), [Action::Send(To::Client, answer)]);
    // Two modern peers as well.
    let (mut s, _) = started();
    s.handle(Input::FromServer(discovered()));
    let request = modern_request(1, "tools/list");
    let actions = s.handle(Input::FromClient(request.clone()));
    assert_eq!(actions.last(), Some(&Action::Send(To::Server, request)));
    assert!(logs(&actions).contains("the client is modern"));
}

#[test]
fn a_server_that_refuses_the_probe_as_a_modern_server_would_ends_the_session_with_why() {
    let (mut s, _) = started();
    let refusal = json!({"jsonrpc": "2.0", "id": PROBE_ID, "error": {"code": -32022, "message": "Unsupported protocol version",
        "data": {"supported": ["2027-01-01"], "requested": "2026-07-28"}}});
    s.handle(Input::FromClient(initialize()));
    let actions = s.handle(Input::FromServer(refusal.to_string()));
    let [Action::Finish(Err(why))] = &actions[..] else { panic!("{actions:?}") };
    assert!(why.contains("refused server/discover"), "{why}");
    assert!(s.is_over());
    // Nothing more is done once over.
    assert_eq!(s.handle(Input::FromClient(initialize())), []);
    assert_eq!(s.handle(Input::ServerGone), []);
}

#[test]
fn a_server_gone_before_answering_ends_the_session_with_why() {
    let (mut s, _) = started();
    let actions = s.handle(Input::ServerGone);
    assert_eq!(actions, [Action::Finish(Err("the server exited before answering server/discover".into()))]);
    assert!(s.is_over());
}

#[test]
fn a_silent_server_is_taken_for_legacy_at_the_deadline_and_not_before() {
    let (mut s, start) = started();
    s.handle(Input::FromClient(modern_request(1, "tools/list")));
    // An early tick asks to be woken again at the same deadline.
    assert_eq!(s.handle(Input::Tick(start + Duration::from_secs(1))), [Action::WakeAt(start + PROBE_WAIT)]);
    let actions = s.handle(Input::Tick(start + PROBE_WAIT));
    let log = logs(&actions);
    assert!(log.contains("taken for legacy") && log.contains("the client is modern"), "{log}");
    // The early request went through the handshake to the legacy server.
    assert_eq!(sent(&actions, To::Server)[0]["method"], "initialize");
}

#[test]
fn server_era_modern_ends_the_session_when_the_server_is_not() {
    let now = Instant::now();
    let (mut s, _) = Session::new(ServerEraChoice::Modern, now);
    let actions = s.handle(Input::FromServer(legacy_refusal()));
    let [Action::Finish(Err(why))] = &actions[..] else { panic!("{actions:?}") };
    assert!(why.contains("--server-era modern"), "{why}");
    // Silence too.
    let (mut s, _) = Session::new(ServerEraChoice::Modern, now);
    let actions = s.handle(Input::Tick(now + PROBE_WAIT));
    let [Action::Finish(Err(why))] = &actions[..] else { panic!("{actions:?}") };
    assert!(why.contains("--server-era modern") && why.contains("did not answer"), "{why}");
}

#[test]
fn server_era_legacy_sends_no_probe() {
    let (mut s, actions) = Session::new(ServerEraChoice::Legacy, Instant::now());
    assert!(sent(&actions, To::Server).is_empty() && logs(&actions).contains("legacy"), "{actions:?}");
    // The server's lines before the client speaks pass as they came.
    let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"up"}}"#;
    assert_eq!(s.handle(Input::FromServer(note.into())), [Action::Send(To::Client, note.into())]);
    let actions = s.handle(Input::FromClient(modern_request(1, "tools/list")));
    assert_eq!(sent(&actions, To::Server)[0]["method"], "initialize");
}

#[test]
fn the_client_gone_ends_the_server_and_what_it_says_then_goes_nowhere() {
    let (mut s, _) = started();
    s.handle(Input::FromServer(discovered()));
    s.handle(Input::FromClient(initialize()));
    assert_eq!(s.handle(Input::ClientGone), [Action::EndServer]);
    let late = json!({"jsonrpc": "2.0", "id": 5, "result": {"resultType": "complete", "content": []}}).to_string();
    assert_eq!(s.handle(Input::FromServer(late)), []);
    assert_eq!(s.handle(Input::ClientGone), []);
    assert!(!s.is_over());
    assert_eq!(s.handle(Input::ServerGone), [Action::Finish(Ok(()))]);
    assert!(s.is_over());
}

#[test]
fn a_client_gone_during_the_probe_is_handled_after_its_early_lines() {
    let (mut s, _) = started();
    s.handle(Input::FromClient(initialize()));
    s.handle(Input::ClientGone);
    let actions = s.handle(Input::FromServer(discovered()));
    // The initialize is answered, then the server is ended.
    assert_eq!(sent(&actions, To::Client).len(), 1, "{actions:?}");
    assert_eq!(actions.last(), Some(&Action::EndServer));
}

#[test]
fn a_server_gone_mid_session_finishes_it() {
    let (mut s, _) = started();
    s.handle(Input::FromServer(legacy_refusal()));
    let actions = s.handle(Input::ServerGone);
    assert_eq!(actions.last(), Some(&Action::Finish(Ok(()))));
    assert!(logs(&actions).contains("the server exited"));
}

/// A server that answers any method with something (`{}`, which is no
/// `DiscoverResult`) is taken for legacy, with a note naming what was wrong;
/// told it is modern, the session ends with why instead.
#[test]
fn a_probe_answered_with_no_discover_result_is_a_legacy_server_with_a_warning() {
    let empty = json!({"jsonrpc": "2.0", "id": PROBE_ID, "result": {}}).to_string();
    let (mut s, _) = started();
    let actions = s.handle(Input::FromServer(empty.clone()));
    let log = logs(&actions);
    assert!(log.contains("not a DiscoverResult") && log.contains("ttlMs") && log.contains("taken for legacy"), "{log}");
    assert!(log.contains("the server is legacy"), "{log}");
    assert!(!s.is_over());
    // A legacy client then passes through.
    let actions = s.handle(Input::FromClient(initialize()));
    assert_eq!(sent(&actions, To::Server), [serde_json::from_str::<Value>(&initialize()).unwrap()]);

    let (mut s, _) = Session::new(ServerEraChoice::Modern, Instant::now());
    let actions = s.handle(Input::FromServer(empty));
    assert!(s.is_over());
    assert!(matches!(&actions[..], [Action::Finish(Err(why))] if why.contains("DiscoverResult")), "{actions:?}");
}
