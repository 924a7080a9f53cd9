//! One HTTP client's session on `--listen`'s side as a state machine, driven
//! with no socket: where each message for the client goes, under which id.

use mcp_era_bridge::http::downstream::QUEUE;
use mcp_era_bridge::http::{HttpDownstream, Route, client_identity};
use serde_json::{Value, json};

fn parsed(line: &str) -> Value {
    serde_json::from_str(line).unwrap()
}

#[test]
fn an_answer_goes_on_its_requests_stream_under_the_clients_own_id() {
    for client_id in [json!(7), json!("seven")] {
        let mut d = HttpDownstream::new(true);
        let sent = d.request("h1", json!({"jsonrpc": "2.0", "id": client_id, "method": "tools/call", "params": {}}));
        assert_eq!(sent["id"], "h1", "on the server's side, the front's id");
        let route = d.route(json!({"jsonrpc": "2.0", "id": "h1", "result": {}}).to_string());
        let Route::Answer { front_id, method, line } = route else { panic!("{route:?}") };
        assert_eq!((front_id.as_str(), method.as_str()), ("h1", "tools/call"));
        assert_eq!(parsed(&line)["id"], client_id);
        assert_eq!(d.waiting(), 0);
    }
}

/// 2026-07-28: a listen stream's notifications carry the id of the client's own
/// `subscriptions/listen` request as `subscriptionId`, a string or a number.
#[test]
fn a_listen_streams_subscription_id_is_the_clients_request_id() {
    for client_id in [json!(3), json!("listen-1")] {
        let mut d = HttpDownstream::new(true);
        d.request("h9", json!({"jsonrpc": "2.0", "id": client_id, "method": "subscriptions/listen", "params": {}}));
        let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "h9"}}});
        let Route::Request { front_id, line } = d.route(ack.to_string()) else { panic!() };
        assert_eq!(front_id, "h9");
        assert_eq!(parsed(&line).pointer("/params/_meta/io.modelcontextprotocol~1subscriptionId"), Some(&client_id));
        let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
            "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "h9"}}});
        let Route::Request { line, .. } = d.route(changed.to_string()) else { panic!() };
        assert_eq!(parsed(&line).pointer("/params/_meta/io.modelcontextprotocol~1subscriptionId"), Some(&client_id));
    }
}

#[test]
fn a_notification_about_a_request_goes_on_its_stream() {
    let mut d = HttpDownstream::new(true);
    d.request(
        "h1",
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"_meta": {"progressToken": "p"}}}),
    );
    d.request("h2", json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {}}));
    let progress =
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p", "progress": 1}});
    assert!(matches!(d.route(progress.to_string()), Route::Request { front_id, .. } if front_id == "h1"));
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "h1"}});
    let Route::Request { front_id, line } = d.route(cancelled.to_string()) else { panic!() };
    assert_eq!((front_id.as_str(), parsed(&line).pointer("/params/requestId")), ("h1", Some(&json!(1))));
    // About no request: the newest open one's stream.
    let log = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}});
    assert!(matches!(d.route(log.to_string()), Route::Request { front_id, .. } if front_id == "h2"));
    d.route(json!({"jsonrpc": "2.0", "id": "h2", "result": {}}).to_string());
    d.route(json!({"jsonrpc": "2.0", "id": "h1", "result": {}}).to_string());
    // A modern client with nothing open: nowhere, said.
    assert!(matches!(d.route(log.to_string()), Route::Nowhere(why) if why.contains("no request")));
}

#[test]
fn a_legacy_clients_messages_go_on_its_get_stream_or_wait_for_one_bounded() {
    let mut d = HttpDownstream::new(false);
    let log = |n: usize| {
        json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": n}}).to_string()
    };
    for n in 0..QUEUE {
        assert_eq!(d.route(log(n)), Route::Queued { dropped: None });
    }
    let Route::Queued { dropped: Some(first) } = d.route(log(QUEUE)) else { panic!("the oldest goes") };
    assert_eq!(parsed(&first)["params"]["data"], 0);
    let (stream, waited) = d.listen_opened();
    assert_eq!(waited.len(), QUEUE, "what waited, in order, to the new stream");
    assert_eq!(parsed(&waited[0])["params"]["data"], 1);
    assert!(matches!(d.route(log(0)), Route::Listen { stream: s, .. } if s == stream));
    d.listen_closed(stream);
    d.request("h1", json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}));
    assert!(matches!(d.route(log(0)), Route::Request { front_id, .. } if front_id == "h1"));
}

#[test]
fn a_closed_stream_cancels_a_modern_clients_request_only() {
    let mut modern = HttpDownstream::new(true);
    modern.request("h4", json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {}}));
    let cancel = modern.closed("h4").expect("the server is told");
    assert_eq!(
        (cancel["method"].clone(), cancel.pointer("/params/requestId")),
        (json!("notifications/cancelled"), Some(&json!("h4")))
    );
    assert_eq!(modern.closed("h4"), None, "once");
    let mut legacy = HttpDownstream::new(false);
    legacy.request("h5", json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {}}));
    assert_eq!(legacy.closed("h5"), None, "a legacy client cancels with a notification of its own");
    // Its answer, should it still come, is for no stream.
    assert!(!matches!(
        legacy.route(json!({"jsonrpc": "2.0", "id": "h5", "result": {}}).to_string()),
        Route::Answer { .. }
    ));
}

#[test]
fn two_credentials_with_one_client_info_are_two_identities() {
    let request =
        json!({"params": {"_meta": {"io.modelcontextprotocol/clientInfo": {"name": "host", "version": "1"}}}});
    let a = client_identity(Some(b"Bearer a"), &request);
    let b = client_identity(Some(b"Bearer b"), &request);
    let none = client_identity(None, &request);
    assert!(a != b && a != none && b != none);
    assert_eq!(a, client_identity(Some(b"Bearer a"), &request));
    let other = json!({"params": {"_meta": {"io.modelcontextprotocol/clientInfo": {"name": "other", "version": "1"}}}});
    assert_ne!(a, client_identity(Some(b"Bearer a"), &other), "one credential, two clients");
}
