//! A session's lifecycle with no I/O: a legacy client's `initialize` offered
//! first and what answers it, the probe and what answers it (a
//! `DiscoverResult`, a legacy refusal, a modern refusal, silence, a server
//! gone), the client's lines that come before the era is known, the choice
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
    assert_eq!(actions, [], "nothing is asked before the client speaks");
    (session, now)
}

/// A session whose client spoke first with `first` (not an `initialize`): the
/// probe goes out, its deadline armed by the tick it asks for at once.
fn probed(first: String) -> (Session, Instant) {
    let (mut s, start) = started();
    let actions = s.handle(Input::FromClient(first));
    let probe = sent(&actions, To::Server);
    assert_eq!(probe.len(), 1, "only the probe: {actions:?}");
    assert_eq!(probe[0]["method"], "server/discover");
    assert_eq!(probe[0]["id"], PROBE_ID);
    assert_eq!(probe[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert_eq!(actions.last(), Some(&Action::WakeAt(start)), "a tick at once, to arm the deadline");
    assert_eq!(s.handle(Input::Tick(start)), [Action::WakeAt(start + PROBE_WAIT)], "counted from the server's start");
    (s, start)
}

/// A session whose legacy client's `initialize` was offered to the server as it came.
fn offered() -> (Session, Instant) {
    let (mut s, start) = started();
    let actions = s.handle(Input::FromClient(initialize()));
    assert_eq!(sent(&actions, To::Server), [serde_json::from_str::<Value>(&initialize()).unwrap()], "{actions:?}");
    assert!(logs(&actions).contains("the client is legacy"), "{actions:?}");
    assert_eq!(actions.last(), Some(&Action::WakeAt(start)));
    assert_eq!(s.handle(Input::Tick(start)), [Action::WakeAt(start + PROBE_WAIT)]);
    (s, start)
}

fn accepted() -> String {
    json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {},
        "serverInfo": {"name": "dual", "version": "1"}}})
    .to_string()
}

fn refused() -> String {
    json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32601, "message": "Method not found: initialize"}}).to_string()
}

#[test]
fn a_server_that_accepts_a_legacy_clients_initialize_gets_the_session_passed_through_unprobed() {
    let (mut s, _) = offered();
    // The client speaks again before the answer: it waits, in order.
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.to_string();
    assert_eq!(s.handle(Input::FromClient(ping.clone())), []);
    // What the server says before its answer passes, as it would directly.
    let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"up"}}"#;
    assert_eq!(s.handle(Input::FromServer(note.into())), [Action::Send(To::Client, note.into())]);
    let answer = format!("{}  ", accepted());
    let actions = s.handle(Input::FromServer(answer.clone()));
    assert!(logs(&actions).contains("passes through"), "{actions:?}");
    let passed: Vec<&Action> = actions.iter().filter(|a| matches!(a, Action::Send(..))).collect();
    assert_eq!(passed, [&Action::Send(To::Client, answer), &Action::Send(To::Server, ping)], "byte for byte");
    // Everything after passes as it came, both ways; no probe ever.
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask"}}"#.to_string();
    assert_eq!(s.handle(Input::FromClient(call.clone())), [Action::Send(To::Server, call)]);
    let ask = r#"{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{}}"#.to_string();
    assert_eq!(s.handle(Input::FromServer(ask.clone())), [Action::Send(To::Client, ask)]);
    assert!(!s.is_over());
}

#[test]
fn a_modern_only_servers_refusal_of_initialize_is_the_probe_and_the_session_is_translated() {
    let (mut s, start) = offered();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string();
    s.handle(Input::FromClient(list));
    let actions = s.handle(Input::FromServer(refused()));
    assert!(sent(&actions, To::Client).is_empty(), "the refusal is not the client's: {actions:?}");
    assert_eq!(sent(&actions, To::Server)[0]["method"], "server/discover");
    assert_eq!(actions.last(), Some(&Action::WakeAt(start)));
    let actions = s.handle(Input::FromServer(discovered()));
    let log = logs(&actions);
    assert!(log.contains("the server is modern") && log.contains("the client is legacy"), "{log}");
    let to_client = sent(&actions, To::Client);
    assert_eq!(to_client.len(), 1, "the initialize, answered by the bridge from the probe: {actions:?}");
    assert_eq!(to_client[0]["result"]["serverInfo"]["name"], "modern-server");
    let to_server = sent(&actions, To::Server);
    assert_eq!(to_server.len(), 1, "{actions:?}");
    assert_eq!(to_server[0]["method"], "tools/list");
    assert_eq!(to_server[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
}

#[test]
fn a_legacy_server_that_refuses_the_initialize_has_its_refusal_passed_on() {
    let (mut s, _) = offered();
    s.handle(Input::FromServer(refused()));
    let actions = s.handle(Input::FromServer(legacy_refusal()));
    assert_eq!(sent(&actions, To::Client), [serde_json::from_str::<Value>(&refused()).unwrap()], "{actions:?}");
    assert!(sent(&actions, To::Server).is_empty(), "nothing sent twice: {actions:?}");
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.to_string();
    assert_eq!(s.handle(Input::FromClient(ping.clone())), [Action::Send(To::Server, ping)]);
}

#[test]
fn an_initialize_unanswered_by_the_deadline_asks_the_probe_and_a_late_acceptance_still_passes_through() {
    let (mut s, start) = offered();
    assert_eq!(s.handle(Input::Tick(start + Duration::from_secs(1))), [Action::WakeAt(start + PROBE_WAIT)]);
    let late = start + PROBE_WAIT;
    let actions = s.handle(Input::Tick(late));
    assert!(logs(&actions).contains("no answer to the client's initialize"), "{actions:?}");
    assert_eq!(sent(&actions, To::Server)[0]["method"], "server/discover");
    assert_eq!(actions.last(), Some(&Action::WakeAt(late + PROBE_WAIT)), "the probe's own deadline");
    // The initialize is answered after all: the session passes through, and the probe's answer goes nowhere.
    let actions = s.handle(Input::FromServer(accepted()));
    assert_eq!(sent(&actions, To::Client)[0]["id"], 0);
    let actions = s.handle(Input::FromServer(legacy_refusal()));
    assert!(sent(&actions, To::Client).is_empty() && logs(&actions).contains("not passed on"), "{actions:?}");
}

#[test]
fn a_legacy_refusal_of_the_probe_makes_a_legacy_server_and_a_modern_client_is_bridged() {
    let (mut s, _) = probed(modern_request(1, "tools/list"));
    let actions = s.handle(Input::FromServer(legacy_refusal()));
    let log = logs(&actions);
    assert!(log.contains("the server is legacy") && log.contains("the client is modern"), "{log}");
    // The modern client's first request: the bridge does the handshake first.
    assert_eq!(sent(&actions, To::Server)[0]["method"], "initialize", "{actions:?}");
}

#[test]
fn two_modern_peers_pass_every_line_as_it_came() {
    let request = format!("{}  ", modern_request(1, "tools/list"));
    let (mut s, _) = probed(request.clone());
    let actions = s.handle(Input::FromServer(discovered()));
    assert!(logs(&actions).contains("passes through"), "{actions:?}");
    assert_eq!(actions.last(), Some(&Action::Send(To::Server, request)), "byte for byte, whitespace and all");
    assert_eq!(s.handle(Input::FromClient("not json".into())), [Action::Send(To::Server, "not json".into())]);
    let answer = r#"{"jsonrpc":"2.0","id":1,"result":{ "tools":[]}}"#.to_string();
    assert_eq!(s.handle(Input::FromServer(answer.clone())), [Action::Send(To::Client, answer)]);
}

#[test]
fn a_server_that_refuses_the_probe_as_a_modern_server_would_ends_the_session_answering_what_waits() {
    let (mut s, _) = probed(modern_request(4, "tools/list"));
    let refusal = json!({"jsonrpc": "2.0", "id": PROBE_ID, "error": {"code": -32022, "message": "Unsupported protocol version",
        "data": {"supported": ["2027-01-01"], "requested": "2026-07-28"}}});
    let actions = s.handle(Input::FromServer(refusal.to_string()));
    let [Action::Send(To::Client, error), Action::Finish(Err(why))] = &actions[..] else { panic!("{actions:?}") };
    assert!(why.contains("refused server/discover"), "{why}");
    let error: Value = serde_json::from_str(error).unwrap();
    assert_eq!((error["id"].clone(), error["error"]["code"].clone()), (json!(4), json!(-32603)));
    assert!(error["error"]["message"].as_str().unwrap().contains("refused server/discover"), "{error}");
    assert!(s.is_over());
    // Nothing more is done once over.
    assert_eq!(s.handle(Input::FromClient(initialize())), []);
    assert_eq!(s.handle(Input::ServerGone), []);
}

#[test]
fn a_server_that_refuses_the_probes_version_but_names_it_among_those_it_takes_is_asked_once_again() {
    let (mut s, _) = probed(modern_request(4, "tools/list"));
    let refusal = json!({"jsonrpc": "2.0", "id": PROBE_ID, "error": {"code": -32022, "message": "Unsupported protocol version",
        "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"}}});
    let actions = s.handle(Input::FromServer(refusal.to_string()));
    let again = sent(&actions, To::Server);
    assert_eq!(again.len(), 1, "{actions:?}");
    assert_eq!((again[0]["method"].clone(), again[0]["id"].clone()), (json!("server/discover"), json!(PROBE_ID)));
    assert!(sent(&actions, To::Client).is_empty(), "the client's request still waits: {actions:?}");
    // Once only: the same refusal again ends the session, answering what waits.
    let actions = s.handle(Input::FromServer(refusal.to_string()));
    assert!(
        matches!(actions.last(), Some(Action::Finish(Err(why))) if why.contains("refused server/discover")),
        "{actions:?}"
    );
    assert_eq!(sent(&actions, To::Client)[0]["id"], 4);
}

#[test]
fn a_server_that_exits_on_the_probe_is_started_again_once_and_spoken_to_as_legacy() {
    let (mut s, _) = probed(modern_request(1, "tools/list"));
    let actions = s.handle(Input::ServerGone);
    assert!(logs(&actions).contains("started again"), "{actions:?}");
    let restart = actions.iter().position(|a| *a == Action::RestartServer).expect("a restart");
    // After the restart, the handshake the new process needs, for the modern client's request.
    let first_send = actions.iter().position(|a| matches!(a, Action::Send(To::Server, _))).unwrap();
    assert!(restart < first_send, "{actions:?}");
    assert_eq!(sent(&actions, To::Server)[0]["method"], "initialize");
    // It exits again: the session ends; never a second restart.
    let actions = s.handle(Input::ServerGone);
    assert!(!actions.contains(&Action::RestartServer), "{actions:?}");
    assert!(s.is_over());
}

#[test]
fn a_server_that_exits_on_the_clients_initialize_or_when_it_must_be_modern_ends_answering_what_waits() {
    let (mut s, _) = offered();
    let actions = s.handle(Input::ServerGone);
    let [Action::Send(To::Client, error), Action::Finish(Err(why))] = &actions[..] else { panic!("{actions:?}") };
    assert!(why.contains("exited before answering the client's initialize"), "{why}");
    assert!(error.contains("exited before answering"), "{error}");
    let now = Instant::now();
    let (mut s, _) = Session::new(ServerEraChoice::Modern, now);
    s.handle(Input::FromClient(initialize()));
    let actions = s.handle(Input::ServerGone);
    assert!(!actions.contains(&Action::RestartServer), "--server-era modern: no restart as legacy: {actions:?}");
    assert_eq!(sent(&actions, To::Client)[0]["id"], 0, "the held initialize is answered: {actions:?}");
    assert!(s.is_over());
}

#[test]
fn a_silent_server_is_taken_for_legacy_at_the_deadline_and_not_before() {
    let (mut s, start) = probed(modern_request(1, "tools/list"));
    // An early tick asks to be woken again at the same deadline.
    assert_eq!(s.handle(Input::Tick(start + Duration::from_secs(1))), [Action::WakeAt(start + PROBE_WAIT)]);
    let actions = s.handle(Input::Tick(start + PROBE_WAIT));
    let log = logs(&actions);
    assert!(log.contains("taken for legacy") && log.contains("the client is modern"), "{log}");
    // The early request went through the handshake to the legacy server.
    assert_eq!(sent(&actions, To::Server)[0]["method"], "initialize");
}

#[test]
fn the_probe_deadline_is_counted_from_the_servers_start_and_never_shorter_than_a_floor() {
    let now = Instant::now();
    let wait = Duration::from_secs(3);
    let (mut s, _) = Session::with_probe_wait(ServerEraChoice::Auto, wait, now);
    s.handle(Input::FromClient(modern_request(1, "tools/list")));
    // The client spoke long after the server started: the server still gets a little time.
    let late = now + Duration::from_secs(60);
    assert_eq!(s.handle(Input::Tick(late)), [Action::WakeAt(late + Duration::from_secs(2))]);
}

#[test]
fn server_era_modern_probes_at_once_and_ends_the_session_when_the_server_is_not() {
    let now = Instant::now();
    let (mut s, actions) = Session::new(ServerEraChoice::Modern, now);
    assert_eq!(sent(&actions, To::Server)[0]["method"], "server/discover");
    assert_eq!(actions.last(), Some(&Action::WakeAt(now + PROBE_WAIT)));
    let actions = s.handle(Input::FromServer(legacy_refusal()));
    let [Action::Finish(Err(why))] = &actions[..] else { panic!("{actions:?}") };
    assert!(why.contains("--server-era modern"), "{why}");
    // Silence too.
    let (mut s, _) = Session::new(ServerEraChoice::Modern, now);
    let actions = s.handle(Input::Tick(now + PROBE_WAIT));
    let [Action::Finish(Err(why))] = &actions[..] else { panic!("{actions:?}") };
    assert!(why.contains("--server-era modern") && why.contains("did not answer"), "{why}");
    // A dual-era server told modern: a legacy client is translated, not passed through.
    let (mut s, _) = Session::new(ServerEraChoice::Modern, now);
    s.handle(Input::FromServer(discovered()));
    let actions = s.handle(Input::FromClient(initialize()));
    assert!(sent(&actions, To::Server).is_empty(), "the bridge answers the initialize: {actions:?}");
    assert_eq!(sent(&actions, To::Client)[0]["result"]["serverInfo"]["name"], "modern-server");
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
    let (mut s, _) = offered();
    s.handle(Input::FromServer(accepted()));
    assert_eq!(s.handle(Input::ClientGone), [Action::EndServer]);
    let late = json!({"jsonrpc": "2.0", "id": 5, "result": {"content": []}}).to_string();
    assert_eq!(s.handle(Input::FromServer(late)), []);
    assert_eq!(s.handle(Input::ClientGone), []);
    assert!(!s.is_over());
    assert_eq!(s.handle(Input::ServerGone), [Action::Finish(Ok(()))]);
    assert!(s.is_over());
    // Gone before saying anything.
    let (mut s, _) = started();
    assert_eq!(s.handle(Input::ClientGone), [Action::EndServer]);
}

#[test]
fn a_client_gone_during_the_probe_is_handled_after_its_early_lines() {
    let (mut s, _) = offered();
    s.handle(Input::ClientGone);
    s.handle(Input::FromServer(refused()));
    let actions = s.handle(Input::FromServer(discovered()));
    // The initialize is answered, then the server is ended.
    assert_eq!(sent(&actions, To::Client).len(), 1, "{actions:?}");
    assert_eq!(actions.last(), Some(&Action::EndServer));
}

#[test]
fn a_server_gone_mid_session_finishes_it() {
    let (mut s, _) = offered();
    s.handle(Input::FromServer(accepted()));
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
    let (mut s, _) = probed(modern_request(1, "tools/list"));
    let actions = s.handle(Input::FromServer(empty.clone()));
    let log = logs(&actions);
    assert!(log.contains("not a DiscoverResult") && log.contains("ttlMs") && log.contains("taken for legacy"), "{log}");
    assert!(log.contains("the server is legacy"), "{log}");
    assert_eq!(sent(&actions, To::Server)[0]["method"], "initialize", "the modern client is translated");
    assert!(!s.is_over());

    let (mut s, _) = Session::new(ServerEraChoice::Modern, Instant::now());
    let actions = s.handle(Input::FromServer(empty));
    assert!(s.is_over());
    assert!(matches!(&actions[..], [Action::Finish(Err(why))] if why.contains("DiscoverResult")), "{actions:?}");
}

#[test]
fn an_initialize_answered_at_no_legacy_version_is_no_acceptance_and_the_probe_asks() {
    // A modern server that answers everything, initialize too, at 2026-07-28: a legacy
    // client could not take that version directly, so the bridge learns the era and translates.
    let (mut s, _) = offered();
    let modern_answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"resultType": "complete",
        "protocolVersion": "2026-07-28", "capabilities": {}, "serverInfo": {"name": "m", "version": "1"}}});
    let actions = s.handle(Input::FromServer(modern_answer.to_string()));
    assert!(sent(&actions, To::Client).is_empty(), "{actions:?}");
    assert_eq!(sent(&actions, To::Server)[0]["method"], "server/discover");
    let actions = s.handle(Input::FromServer(discovered()));
    assert_eq!(sent(&actions, To::Client)[0]["result"]["protocolVersion"], "2025-11-25", "answered by the bridge");
}

#[test]
fn ignored_tools_are_left_out_of_lists_and_their_calls_refused_passing_through_or_translated() {
    let list_answer = |id: i64| {
        json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [
            {"name": "read_file", "inputSchema": {"type": "object"}},
            {"name": "delete_repo", "inputSchema": {"type": "object"}},
            {"name": "delete_branch", "inputSchema": {"type": "object"}}]}})
        .to_string()
    };
    // Passed through: the answer to the client's tools/list loses the ignored tools; the rest is as it came.
    let (mut s, _) = offered();
    s.ignore_tools(vec!["delete_*".into()]);
    s.handle(Input::FromServer(accepted()));
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_string();
    assert_eq!(s.handle(Input::FromClient(list.clone())), [Action::Send(To::Server, list)]);
    let shown = sent(&s.handle(Input::FromServer(list_answer(1))), To::Client);
    assert_eq!(shown[0]["result"]["tools"], json!([{"name": "read_file", "inputSchema": {"type": "object"}}]));
    // A call to one is answered by the bridge and never reaches the server.
    let call =
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "delete_repo", "arguments": {}}});
    let actions = s.handle(Input::FromClient(call.to_string()));
    assert!(sent(&actions, To::Server).is_empty(), "{actions:?}");
    let refused = &sent(&actions, To::Client)[0];
    assert_eq!((refused["id"].clone(), refused["error"]["code"].clone()), (json!(2), json!(-32602)));
    assert!(refused["error"]["message"].as_str().unwrap().contains("--ignore-tool"), "{refused}");
    // Another tool's call goes through; an answer that is no tools/list is untouched.
    let other = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "read_file"}}).to_string();
    assert_eq!(s.handle(Input::FromClient(other.clone())), [Action::Send(To::Server, other)]);
    let answer = list_answer(3);
    assert_eq!(s.handle(Input::FromServer(answer.clone())), [Action::Send(To::Client, answer)]);

    // Translated for a modern client: the same.
    let (mut s, _) = started();
    s.ignore_tools(vec!["delete_repo".into()]);
    s.handle(Input::FromClient(modern_request(1, "tools/list")));
    s.handle(Input::FromServer(legacy_refusal()));
    let init = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-handshake", "result": {"protocolVersion": "2025-11-25",
        "capabilities": {"tools": {}}, "serverInfo": {"name": "old", "version": "1"}}});
    s.handle(Input::FromServer(init.to_string()));
    let shown = sent(&s.handle(Input::FromServer(list_answer(1))), To::Client);
    let names: Vec<&str> =
        shown[0]["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["read_file", "delete_branch"]);
}
