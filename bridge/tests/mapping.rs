//! The translation library without I/O: each row of the mapping that the peer
//! sessions do not reach, and every refusal, checked message by message. A
//! refusal is an error to the side that asked, never silence.

use mcp_era_bridge::{Bridge, Era, Out, ServerEra, To, client_era, discover_probe, server_era};
use serde_json::{Value, json};

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"sampling": {}, "roots": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}
    })
}

fn discovered() -> Value {
    json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "result": {
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {}}, "instructions": "be kind",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern-server", "version": "9"}}
    }})
}

/// A bridge between a legacy client and a modern server, past `initialize`.
fn to_modern() -> Bridge {
    let found = server_era(&discovered()).unwrap();
    assert_eq!(found.era(), Era::Modern);
    let mut b = Bridge::between(Era::Legacy, found).unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}}, "clientInfo": {"name": "old", "version": "1"}}});
    let out = b.from_client(&init.to_string());
    let [Out { to: To::Client, .. }] = &out[..] else { panic!("{out:?}") };
    let message = out[0].message();
    assert_eq!(message["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(message["result"]["serverInfo"]["name"], "modern-server");
    assert_eq!(message["result"]["instructions"], "be kind");
    assert!(b.from_client(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());
    b
}

fn one(out: Vec<Out>, to: To) -> Value {
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].to, to, "{out:?}");
    out[0].message()
}

#[test]
fn eras_are_told_apart_as_the_stdio_binding_says() {
    assert_eq!(discover_probe()["method"], "server/discover");
    let legacy = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "error": {"code": -32601, "message": "Method not found"}});
    assert_eq!(server_era(&legacy).unwrap().era(), Era::Legacy);
    let before_init = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "error": {"code": -32600, "message": "not initialized"}});
    assert_eq!(server_era(&before_init).unwrap().era(), Era::Legacy);
    // A modern refusal is not a legacy server: an error that says so.
    let modern_refusal = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2027-01-01"], "requested": "2026-07-28"}}});
    assert!(server_era(&modern_refusal).unwrap_err().to_string().contains("refused"));
    let other_version = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2027-01-01"], "capabilities": {}}});
    assert!(server_era(&other_version).unwrap_err().to_string().contains("2027-01-01"));

    assert_eq!(client_era(&json!({"method": "initialize"})), Era::Legacy);
    assert_eq!(client_era(&json!({"method": "server/discover"})), Era::Modern);
    assert_eq!(client_era(&json!({"method": "tools/list", "params": {"_meta": meta()}})), Era::Modern);
    assert_eq!(client_era(&json!({"method": "tools/list"})), Era::Legacy);
}

#[test]
fn a_legacy_clients_requests_get_the_meta_and_what_2026_07_28_has_not_is_answered_or_refused() {
    let mut b = to_modern();
    // ping and logging/setLevel: answered here; the level rides in later requests' _meta.
    let pong = one(b.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), To::Client);
    assert_eq!(pong["result"], json!({}));
    one(
        b.from_client(r#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}"#),
        To::Client,
    );
    let sent = one(b.from_client(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#), To::Server);
    let meta = &sent["params"]["_meta"];
    assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "old");
    assert_eq!(meta["io.modelcontextprotocol/clientCapabilities"], json!({"elicitation": {}}));
    assert_eq!(meta["io.modelcontextprotocol/logLevel"], "debug");
    // resources/subscribe to a server that offers no subscriptions: refused with why, not sent.
    let refused = one(
        b.from_client(r#"{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"a://b"}}"#),
        To::Client,
    );
    assert_eq!(refused["error"]["code"], -32601);
    assert!(refused["error"]["message"].as_str().unwrap().contains("does not offer resource subscriptions"));
    // A request that does not read: invalid params, naming where.
    let bad =
        one(b.from_client(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"arguments":{}}}"#), To::Client);
    assert_eq!(bad["error"]["code"], -32602);
    assert!(bad["error"]["message"].as_str().unwrap().contains("name"), "{bad}");
    // Not JSON: a parse error to the sender.
    assert_eq!(one(b.from_client("{nope"), To::Client)["error"]["code"], -32700);
    // The modern server's result, down to 2025-11-25: no resultType, cache hints or reserved _meta.
    let result = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete", "ttlMs": 5, "cacheScope": "public", "tools": [],
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}, "x": 1}}});
    let down = one(b.from_server(&result.to_string()), To::Client);
    assert_eq!(down["result"], json!({"tools": [], "_meta": {"x": 1}}));
    // A request from a modern server (which has none to send): refused to it.
    let asked = one(b.from_server(r#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#), To::Server);
    assert_eq!(asked["error"]["code"], -32601);
    // A response to nothing: kept out, and said.
    assert!(b.from_server(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#).is_empty());
    assert!(b.take_notes().iter().any(|n| n.contains("to no request")));
}

#[test]
fn an_input_round_the_legacy_client_refuses_fails_the_call_with_why() {
    let mut b = to_modern();
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "book"}});
    one(b.from_client(&call.to_string()), To::Server);
    let more = json!({"jsonrpc": "2.0", "id": 7, "result": {"resultType": "input_required", "requestState": "s1", "inputRequests": {
        "who": {"method": "elicitation/create", "params": {"mode": "form", "message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}}}}});
    let ask = one(b.from_server(&more.to_string()), To::Client);
    assert_eq!(ask["method"], "elicitation/create");
    let ask_id = ask["id"].clone();
    assert!(ask_id.as_str().unwrap().starts_with("mcp-era-bridge-"));
    let no = json!({"jsonrpc": "2.0", "id": ask_id, "error": {"code": -1, "message": "user closed the dialog"}});
    let failed = one(b.from_client(&no.to_string()), To::Client);
    assert_eq!((failed["id"].clone(), failed["error"]["code"].clone()), (json!(7), json!(-32603)));
    assert!(failed["error"]["message"].as_str().unwrap().contains("user closed the dialog"));

    // Answered, the call is sent again with the answer and the state as it came.
    one(b.from_client(&call.to_string()), To::Server);
    let ask = one(b.from_server(&more.to_string()), To::Client);
    let yes = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"name": "Ada"}}});
    let retry = one(b.from_client(&yes.to_string()), To::Server);
    // A retry is a new request (MRTR: a new JSON-RPC id); its answer is the client's call's.
    assert_ne!(retry["id"], 7);
    assert!(retry["id"].as_str().unwrap().starts_with("mcp-era-bridge-"), "{retry}");
    assert_eq!(retry["params"]["requestState"], "s1");
    assert_eq!(retry["params"]["inputResponses"]["who"]["content"], json!({"name": "Ada"}));
    let done = json!({"jsonrpc": "2.0", "id": retry["id"], "result": {"resultType": "complete", "content": []}});
    assert_eq!(one(b.from_server(&done.to_string()), To::Client)["id"], 7);
}

/// A bridge between a modern client and a legacy server, past the handshake.
fn to_legacy() -> Bridge {
    let mut b = Bridge::between(Era::Modern, ServerEra::Legacy).unwrap();
    let first = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}});
    let init = one(b.from_client(&first.to_string()), To::Server);
    assert_eq!(init["method"], "initialize");
    assert_eq!(init["params"]["capabilities"], json!({"sampling": {}, "roots": {}}));
    assert_eq!(init["params"]["clientInfo"]["name"], "c");
    // A second message before the handshake is done waits.
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta()}});
    assert!(b.from_client(&list.to_string()).is_empty());
    let answer = json!({"jsonrpc": "2.0", "id": init["id"], "result": {"protocolVersion": "2025-11-25",
        "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "old-server", "version": "2"}}});
    let out = b.from_server(&answer.to_string());
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0].message()["method"], "notifications/initialized");
    let discover = &out[1].message();
    assert_eq!(out[1].to, To::Client);
    assert_eq!(discover["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(discover["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "old-server");
    assert_eq!(
        (discover["result"]["ttlMs"].clone(), discover["result"]["cacheScope"].clone()),
        (json!(0), json!("private"))
    );
    // The queued request, without the reserved _meta keys.
    assert_eq!(out[2].message()["method"], "tools/list");
    assert!(out[2].message()["params"].get("_meta").is_none(), "{}", out[2].message());
    b
}

#[test]
fn a_legacy_servers_question_with_no_call_open_is_refused_and_one_during_a_call_is_asked() {
    let mut b = to_legacy();
    let list = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": []}});
    let up = one(b.from_server(&list.to_string()), To::Client);
    assert_eq!(up["result"], json!({"tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}));
    let asked = json!({"jsonrpc": "2.0", "id": 50, "method": "roots/list"});
    let refused = one(b.from_server(&asked.to_string()), To::Server);
    assert_eq!((refused["id"].clone(), refused["error"]["code"].clone()), (json!(50), json!(-32603)));
    // ping: answered to the server.
    assert_eq!(one(b.from_server(r#"{"jsonrpc":"2.0","id":51,"method":"ping"}"#), To::Server)["result"], json!({}));

    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"_meta": meta(), "name": "haiku"}});
    one(b.from_client(&call.to_string()), To::Server);
    let sample = json!({"jsonrpc": "2.0", "id": 52, "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}});
    let more = one(b.from_server(&sample.to_string()), To::Client);
    assert_eq!(more["id"], 3);
    assert_eq!(more["result"]["resultType"], "input_required");
    let state = more["result"]["requestState"].clone();
    let (key, request) = more["result"]["inputRequests"].as_object().unwrap().iter().next().unwrap();
    assert_eq!(request["method"], "sampling/createMessage");
    let retry = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"_meta": meta(), "name": "haiku",
        "requestState": state, "inputResponses": {key: {"role": "assistant", "content": {"type": "text", "text": "pond"}, "model": "m"}}}});
    let answered = one(b.from_client(&retry.to_string()), To::Server);
    assert_eq!((answered["id"].clone(), answered["result"]["model"].clone()), (json!(52), json!("m")));
    // The held call's result answers the retry.
    let done = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "pond"}]}});
    let result = one(b.from_server(&done.to_string()), To::Client);
    assert_eq!((result["id"].clone(), result["result"]["resultType"].clone()), (json!(4), json!("complete")));
}

#[test]
fn a_listen_stream_gets_what_the_legacy_server_announces_and_ends_when_cancelled() {
    let mut b = to_legacy();
    one(b.from_server(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#), To::Client);
    let listen = json!({"jsonrpc": "2.0", "id": "l1", "method": "subscriptions/listen", "params": {"_meta": meta(),
        "notifications": {"toolsListChanged": true, "promptsListChanged": true}}});
    let ack = one(b.from_client(&listen.to_string()), To::Client);
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    // Honored: what the server announces (tools list changes), not prompts.
    assert_eq!(ack["params"]["notifications"], json!({"toolsListChanged": true}));
    let changed = one(b.from_server(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#), To::Client);
    assert_eq!(changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "l1");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "l1"}});
    assert!(b.from_client(&cancel.to_string()).is_empty());
    assert!(b.from_server(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#).is_empty());
}

#[test]
fn a_legacy_client_gets_list_changes_and_its_subscriptions_through_a_listen_stream() {
    let discovered = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "result": {
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}}}});
    let found = server_era(&discovered).unwrap();
    let mut b = Bridge::between(Era::Legacy, found).unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}});
    let out = b.from_client(&init.to_string());
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0].message()["result"]["capabilities"]["tools"]["listChanged"], true);
    let listen = &out[1].message();
    assert_eq!((out[1].to, listen["method"].clone()), (To::Server, json!("subscriptions/listen")));
    assert_eq!(listen["params"]["notifications"], json!({"toolsListChanged": true}));
    assert_eq!(listen["params"]["_meta"]["io.modelcontextprotocol/clientInfo"]["name"], "old");
    let first = listen["id"].clone();
    // The ack stays here; a change on the stream reaches the client without the stream's id.
    let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": first}, "notifications": {"toolsListChanged": true}}});
    assert!(b.from_server(&ack.to_string()).is_empty());
    let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": first}}});
    let to_client = one(b.from_server(&changed.to_string()), To::Client);
    assert_eq!(to_client, json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
    // Subscribing: a stream opened with the resource, the first kept until it is acknowledged ...
    let out =
        b.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"demo://readme"}}"#);
    let listen = one(out, To::Server);
    let second = listen["id"].clone();
    assert_eq!(listen["params"]["notifications"]["resourceSubscriptions"], json!(["demo://readme"]));
    assert_eq!(listen["params"]["notifications"]["toolsListChanged"], true);
    // ... a change meanwhile still comes on the first; a late ack of the first is nothing new ...
    assert_eq!(one(b.from_server(&changed.to_string()), To::Client)["method"], "notifications/tools/list_changed");
    assert!(b.from_server(&ack.to_string()).is_empty());
    // ... and on the new stream's ack the client is answered (the subscription in effect) and the first cancelled.
    let ack2 = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": second}, "notifications": {"resourceSubscriptions": ["demo://readme"]}}});
    let out = b.from_server(&ack2.to_string());
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(
        (out[0].to, out[0].message()),
        (
            To::Server,
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": first, "reason": "resubscribed"}})
        )
    );
    assert_eq!((out[1].to, out[1].message()), (To::Client, json!({"jsonrpc": "2.0", "id": 1, "result": {}})));
    // The cancelled stream's end is the bridge's own business.
    assert!(b.from_server(&json!({"jsonrpc": "2.0", "id": first, "result": {}}).to_string()).is_empty());
    let updated = json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {
        "uri": "demo://readme", "_meta": {"io.modelcontextprotocol/subscriptionId": second}}});
    let to_client = one(b.from_server(&updated.to_string()), To::Client);
    assert_eq!(to_client["params"], json!({"uri": "demo://readme"}));
    assert!(b.take_notes().is_empty());

    // Unsubscribing, and the server ending the new stream before its ack: the
    // client told why, the subscription still in effect on the stream it had.
    let out =
        b.from_client(r#"{"jsonrpc":"2.0","id":2,"method":"resources/unsubscribe","params":{"uri":"demo://readme"}}"#);
    let third = one(out, To::Server);
    assert_eq!(third["params"]["notifications"], json!({"toolsListChanged": true}));
    let ended = json!({"jsonrpc": "2.0", "id": third["id"], "error": {"code": -32603, "message": "too many streams"}});
    let refused = one(b.from_server(&ended.to_string()), To::Client);
    assert_eq!(refused["id"], 2);
    assert!(refused["error"]["message"].as_str().unwrap().contains("too many streams"), "{refused}");
    assert_eq!(b.take_notes().len(), 1);
    // Subscribing to another resource now asks for both (the failed unsubscribe undone).
    let out =
        b.from_client(r#"{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"demo://other"}}"#);
    let fourth = one(out, To::Server);
    assert_eq!(fourth["params"]["notifications"]["resourceSubscriptions"], json!(["demo://other", "demo://readme"]));
}

#[test]
fn with_nothing_to_listen_for_a_legacy_client_is_answered_at_once() {
    let discovered = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "result": {
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"],
        "capabilities": {"resources": {"subscribe": true}}}});
    let found = server_era(&discovered).unwrap();
    let mut b = Bridge::between(Era::Legacy, found).unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}});
    // No list changes announced: no stream after initialize.
    one(b.from_client(&init.to_string()), To::Client);
    let listen = one(
        b.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"a://b"}}"#),
        To::Server,
    );
    let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": listen["id"]}, "notifications": {"resourceSubscriptions": ["a://b"]}}});
    assert_eq!(one(b.from_server(&ack.to_string()), To::Client)["id"], 1);
    // The last subscription gone: the stream cancelled and the client answered, with no ack to wait for.
    let out = b.from_client(r#"{"jsonrpc":"2.0","id":2,"method":"resources/unsubscribe","params":{"uri":"a://b"}}"#);
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!((out[0].to, out[0].message()["params"]["requestId"].clone()), (To::Server, listen["id"].clone()));
    assert_eq!((out[1].to, out[1].message()), (To::Client, json!({"jsonrpc": "2.0", "id": 2, "result": {}})));
}

/// `to_legacy()`'s queued `tools/list` answered: a session with nothing open.
fn to_legacy_idle() -> Bridge {
    let mut b = to_legacy();
    one(b.from_server(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#), To::Client);
    b
}

fn call(id: u64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"_meta": meta(), "name": name}})
}

#[test]
fn a_call_that_ends_while_its_client_still_answers_gives_its_result_to_the_retry() {
    let mut b = to_legacy_idle();
    // Two calls open; the server's question goes through the newer (it may be the older's).
    one(b.from_client(&call(3, "slow").to_string()), To::Server);
    one(b.from_client(&call(4, "quick").to_string()), To::Server);
    let ask = json!({"jsonrpc": "2.0", "id": 60, "method": "roots/list"});
    let more = one(b.from_server(&ask.to_string()), To::Client);
    assert_eq!((more["id"].clone(), more["result"]["resultType"].clone()), (json!(4), json!("input_required")));
    let state = more["result"]["requestState"].clone();
    let input_key = more["result"]["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
    // The newer call ends before the client has answered: nothing to the client
    // now (its id 4 has had its answer), and no second answer to id 4.
    let quick = json!({"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "done"}]}});
    assert!(b.from_server(&quick.to_string()).is_empty());
    // The retry: the answer goes to the server's question, and the call's result to the retry.
    let mut retry = call(5, "quick");
    retry["params"]["requestState"] = state;
    retry["params"]["inputResponses"] = json!({input_key: {"roots": [{"uri": "file:///w"}]}});
    let out = b.from_client(&retry.to_string());
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!((out[0].to, out[0].message()["id"].clone()), (To::Server, json!(60)));
    assert_eq!(out[0].message()["result"]["roots"][0]["uri"], "file:///w");
    assert_eq!((out[1].to, out[1].message()["id"].clone()), (To::Client, json!(5)));
    assert_eq!(out[1].message()["result"]["content"][0]["text"], "done");
    // The older call answers its own id.
    let slow = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": []}});
    assert_eq!(one(b.from_server(&slow.to_string()), To::Client)["id"], 3);
    // A requestState the bridge never gave, or gave for a call that has ended: refused, not run again.
    let mut stale = call(6, "quick");
    stale["params"]["requestState"] = more["result"]["requestState"].clone();
    stale["params"]["inputResponses"] = json!({});
    let refused = one(b.from_client(&stale.to_string()), To::Client);
    assert_eq!((refused["id"].clone(), refused["error"]["code"].clone()), (json!(6), json!(-32602)));
    assert!(b.take_notes().is_empty());
}

#[test]
fn a_cancel_reaches_the_legacy_server_by_the_id_it_knows_and_ends_the_questions_asked_through_it() {
    let mut b = to_legacy_idle();
    one(b.from_client(&call(3, "haiku").to_string()), To::Server);
    let sample = json!({"jsonrpc": "2.0", "id": 61, "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}});
    let more = one(b.from_server(&sample.to_string()), To::Client);
    let state = more["result"]["requestState"].clone();
    let key = more["result"]["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
    // Answered by a retry (id 4); the server asks again meanwhile.
    let mut retry = call(4, "haiku");
    retry["params"]["requestState"] = state;
    retry["params"]["inputResponses"] =
        json!({key: {"role": "assistant", "content": {"type": "text", "text": "pond"}, "model": "m"}});
    one(b.from_client(&retry.to_string()), To::Server);
    let again = json!({"jsonrpc": "2.0", "id": 62, "method": "roots/list"});
    assert_eq!(one(b.from_server(&again.to_string()), To::Client)["id"], 4);
    // The client gives up the retry: the server hears of its call 3, and its open question is answered.
    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4, "reason": "user"}});
    let out = b.from_client(&cancel.to_string());
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(
        (out[0].to, out[0].message()["id"].clone(), out[0].message()["error"]["code"].clone()),
        (To::Server, json!(62), json!(-32603))
    );
    assert_eq!(
        (out[1].to, out[1].message()["params"].clone()),
        (To::Server, json!({"requestId": 3, "reason": "user"}))
    );
    // The server's own cancel of a question is not the client's business (on stdio it would end a listen stream).
    let withdrawn = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 63}});
    assert!(b.from_server(&withdrawn.to_string()).is_empty());
    assert_eq!(b.take_notes().len(), 1);
}

#[test]
fn a_failed_handshake_answers_every_later_request_with_why() {
    let mut b = Bridge::between(Era::Modern, ServerEra::Legacy).unwrap();
    let first = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}});
    let init = one(b.from_client(&first.to_string()), To::Server);
    let refused = json!({"jsonrpc": "2.0", "id": init["id"], "error": {"code": -32602, "message": "bad version"}});
    let answered = one(b.from_server(&refused.to_string()), To::Client);
    assert_eq!(answered["id"], 1);
    let later = one(b.from_client(&call(2, "x").to_string()), To::Client);
    assert_eq!(later["id"], 2);
    assert!(later["error"]["message"].as_str().unwrap().contains("bad version"), "{later}");
    // A notification gets nothing back, and nothing goes to a server that refused.
    assert!(
        b.from_client(
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#
        )
        .is_empty()
    );
}

#[test]
fn a_clients_request_with_an_id_like_the_bridges_own_is_refused() {
    let mut b = to_legacy_idle();
    let clash =
        json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-1", "method": "tools/list", "params": {"_meta": meta()}});
    let refused = one(b.from_client(&clash.to_string()), To::Client);
    assert_eq!((refused["id"].clone(), refused["error"]["code"].clone()), (json!("mcp-era-bridge-1"), json!(-32600)));
    let mut b = to_modern();
    let clash = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-7", "method": "tools/list"});
    assert_eq!(one(b.from_client(&clash.to_string()), To::Client)["error"]["code"], -32600);
}

#[test]
fn a_legacy_clients_cancel_mid_round_withdraws_the_bridges_questions() {
    let mut b = to_modern();
    let request = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "book"}});
    one(b.from_client(&request.to_string()), To::Server);
    let more = json!({"jsonrpc": "2.0", "id": 9, "result": {"resultType": "input_required", "requestState": "s1",
        "inputRequests": {"a": {"method": "roots/list"}, "b": {"method": "roots/list"}}}});
    let asks = b.from_server(&more.to_string());
    assert_eq!(asks.len(), 2, "{asks:?}");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}});
    let out = b.from_client(&cancel.to_string());
    assert_eq!(out.len(), 3, "{out:?}");
    let withdrawn: Vec<Value> = out[..2].iter().map(|o| o.message()["params"]["requestId"].clone()).collect();
    let asked: Vec<Value> = asks.iter().map(|o| o.message()["id"].clone()).collect();
    assert_eq!((out[0].to, out[1].to, &withdrawn), (To::Client, To::Client, &asked));
    assert_eq!((out[2].to, out[2].message()["params"]["requestId"].clone()), (To::Server, json!(9)));
    // A late answer to a withdrawn question goes nowhere, and says so.
    let late = json!({"jsonrpc": "2.0", "id": asked[0], "result": {"roots": []}});
    assert!(b.from_client(&late.to_string()).is_empty());
    assert_eq!(b.take_notes().len(), 1);
}

#[test]
fn a_modern_server_ending_a_listen_stream_with_a_cancel_answers_the_waiting_subscribe() {
    let discovered = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "result": {
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"],
        "capabilities": {"resources": {"subscribe": true}}}});
    let found = server_era(&discovered).unwrap();
    let mut b = Bridge::between(Era::Legacy, found).unwrap();
    // A legacy initialize whose capabilities carry an `extensions` of no 2026-07-28 shape: no panic.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"extensions": {"x": 1}}, "clientInfo": {"name": "old", "version": "1"}}});
    assert_eq!(one(b.from_client(&init.to_string()), To::Client)["result"]["protocolVersion"], "2025-11-25");
    let listen = one(
        b.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"a://b"}}"#),
        To::Server,
    );
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": listen["id"], "reason": "shutting down"}});
    let refused = one(b.from_server(&cancel.to_string()), To::Client);
    assert_eq!(refused["id"], 1);
    assert!(refused["error"]["message"].as_str().unwrap().contains("shutting down"), "{refused}");
    // Any other cancel from a modern server is no message for a legacy client.
    assert!(
        b.from_server(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77}}"#).is_empty()
    );
}

#[test]
fn a_modern_server_that_asks_for_ever_is_stopped() {
    let mut b = to_modern();
    let request = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "spin"}});
    one(b.from_client(&request.to_string()), To::Server);
    // Nothing to ask, only a state: the retry goes out at once, each under a new id, up to the cap.
    let again = |id: &Value| json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required", "requestState": "s"}});
    let mut ids = vec![json!(9)];
    for _ in 0..mcp_era_bridge::MAX_ROUNDS {
        let retry = one(b.from_server(&again(ids.last().unwrap()).to_string()), To::Server);
        assert_eq!(retry["params"]["requestState"], "s");
        assert!(!ids.contains(&retry["id"]), "a new id for each retry: {retry}");
        ids.push(retry["id"].clone());
    }
    let stopped = one(b.from_server(&again(ids.last().unwrap()).to_string()), To::Client);
    assert_eq!((stopped["id"].clone(), stopped["error"]["code"].clone()), (json!(9), json!(-32603)));
    assert!(stopped["error"]["message"].as_str().unwrap().contains("more input"), "{stopped}");
}

#[test]
fn progress_of_a_retried_call_goes_to_the_retrys_token() {
    let mut b = to_legacy_idle();
    let mut first = call(3, "count");
    first["params"]["_meta"]["progressToken"] = json!("p1");
    let sent = one(b.from_client(&first.to_string()), To::Server);
    assert_eq!(sent["params"]["_meta"]["progressToken"], "p1");
    let progress = |n: u64| json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p1", "progress": n}});
    // Before any round: as it is.
    assert_eq!(one(b.from_server(&progress(1).to_string()), To::Client)["params"]["progressToken"], "p1");
    let ask = json!({"jsonrpc": "2.0", "id": 70, "method": "roots/list"});
    let more = one(b.from_server(&ask.to_string()), To::Client);
    let key = more["result"]["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
    let mut retry = call(4, "count");
    retry["params"]["_meta"]["progressToken"] = json!("p2");
    retry["params"]["requestState"] = more["result"]["requestState"].clone();
    retry["params"]["inputResponses"] = json!({key: {"roots": []}});
    one(b.from_client(&retry.to_string()), To::Server);
    // After the retry: the server's progress on its token reaches the retry's.
    assert_eq!(one(b.from_server(&progress(2).to_string()), To::Client)["params"]["progressToken"], "p2");
}

#[test]
fn a_listen_stream_the_modern_server_ends_is_opened_again_a_few_times() {
    let discovered = json!({"jsonrpc": "2.0", "id": "mcp-era-bridge-discover", "result": {
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {"listChanged": true}}}});
    let found = server_era(&discovered).unwrap();
    let mut b = Bridge::between(Era::Legacy, found).unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}});
    let out = b.from_client(&init.to_string());
    let mut stream = out[1].message()["id"].clone();
    let mut reopened = 0;
    loop {
        let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": stream}, "notifications": {"toolsListChanged": true}}});
        assert!(b.from_server(&ack.to_string()).is_empty());
        let ended = json!({"jsonrpc": "2.0", "id": stream, "result": {}});
        let out = b.from_server(&ended.to_string());
        if out.is_empty() {
            break;
        }
        let listen = one(out, To::Server);
        assert_eq!(listen["method"], "subscriptions/listen");
        assert_ne!(listen["id"], stream);
        stream = listen["id"].clone();
        reopened += 1;
    }
    assert_eq!(reopened, 3);
    assert!(b.take_notes().last().unwrap().contains("no more changes"));
}

/// A bridge between a legacy client that offered `version` and a modern server;
/// the version the bridge answered.
fn to_modern_at(version: &str) -> (Bridge, Value) {
    let found = server_era(&discovered()).unwrap();
    let mut b = Bridge::between(Era::Legacy, found).unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {"sampling": {}}, "clientInfo": {"name": "older", "version": "1"}}});
    let answered = one(b.from_client(&init.to_string()), To::Client);
    (b, answered["result"]["protocolVersion"].clone())
}

#[test]
fn a_legacy_client_of_an_older_version_is_answered_in_it_and_sent_only_what_it_reads() {
    // Each handshake version this crate has types for is answered as offered; any other gets 2025-11-25.
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        assert_eq!(to_modern_at(version).1, version);
    }
    assert_eq!(to_modern_at("2099-01-01").1, "2025-11-25");
    assert_eq!(to_modern_at("2026-07-28").1, "2025-11-25", "2026-07-28 has no handshake");

    // A result the client's version reads goes on as it is (what 2025-03-26 does
    // not name kept, as the conversions keep it); one it cannot read is refused, naming where.
    let (mut b, _) = to_modern_at("2025-03-26");
    let call = |id: u64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "t"}});
    one(b.from_client(&call(1).to_string()), To::Server);
    let text = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
        "content": [{"type": "text", "text": "hi"}], "structuredContent": {"n": 1}}});
    let answer = one(b.from_server(&text.to_string()), To::Client);
    assert_eq!(answer["result"], json!({"content": [{"type": "text", "text": "hi"}], "structuredContent": {"n": 1}}));
    one(b.from_client(&call(2).to_string()), To::Server);
    let link = json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete",
        "content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}});
    let refused = one(b.from_server(&link.to_string()), To::Client);
    assert_eq!((refused["id"].clone(), refused["error"]["code"].clone()), (json!(2), json!(-32603)));
    let why = refused["error"]["message"].as_str().unwrap();
    assert!(why.contains("2025-03-26 CallToolResult") && why.contains("content[0]"), "{why}");
    // The same result to a 2025-06-18 client, which has resource links: sent on.
    let (mut newer, _) = to_modern_at("2025-06-18");
    one(newer.from_client(&call(2).to_string()), To::Server);
    assert_eq!(one(newer.from_server(&link.to_string()), To::Client)["result"]["content"][0]["type"], "resource_link");

    // A question 2025-03-26 has no request for (elicitation came in 2025-06-18): the call fails with why.
    one(b.from_client(&call(3).to_string()), To::Server);
    let ask = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "input_required", "requestState": "s",
        "inputRequests": {"q": {"method": "elicitation/create", "params": {"mode": "form", "message": "name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}});
    let failed = one(b.from_server(&ask.to_string()), To::Client);
    assert_eq!((failed["id"].clone(), failed["error"]["code"].clone()), (json!(3), json!(-32603)));
    assert!(failed["error"]["message"].as_str().unwrap().contains("no 2025-03-26 request"), "{failed}");
    // One it has (sampling) is asked.
    one(b.from_client(&call(4).to_string()), To::Server);
    let sample = json!({"jsonrpc": "2.0", "id": 4, "result": {"resultType": "input_required", "requestState": "s",
        "inputRequests": {"q": {"method": "sampling/createMessage", "params": {"maxTokens": 5,
            "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}}}}});
    assert_eq!(one(b.from_server(&sample.to_string()), To::Client)["method"], "sampling/createMessage");
}

#[test]
fn a_legacy_server_of_an_older_version_is_spoken_to_in_it_and_an_unknown_version_fails_the_handshake() {
    let handshake = |version: &str| {
        let mut b = Bridge::between(Era::Modern, ServerEra::Legacy).unwrap();
        let first = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}});
        let init = one(b.from_client(&first.to_string()), To::Server);
        let answer = json!({"jsonrpc": "2.0", "id": init["id"], "result": {"protocolVersion": version,
            "capabilities": {"tools": {}}, "serverInfo": {"name": "old-server", "version": "2"}}});
        let out = b.from_server(&answer.to_string());
        (b, out)
    };
    let (mut b, out) = handshake("2025-03-26");
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[1].message()["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(one(b.from_client(&call(2, "t").to_string()), To::Server)["method"], "tools/call");

    // A version the bridge has no types for: the client is told why, now and after.
    let (mut b, out) = handshake("2023-01-01");
    let refused = one(out, To::Client);
    assert_eq!((refused["id"].clone(), refused["error"]["code"].clone()), (json!(1), json!(-32603)));
    assert!(refused["error"]["message"].as_str().unwrap().contains("2023-01-01"), "{refused}");
    let later = one(b.from_client(&call(2, "t").to_string()), To::Client);
    assert_eq!(later["error"]["code"], -32603);
}

#[test]
fn a_request_naming_another_protocol_version_is_refused_as_a_modern_server_refuses_it() {
    let mut b = to_legacy_idle();
    let mut list = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"_meta": meta()}});
    list["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2027-01-01");
    let refused = one(b.from_client(&list.to_string()), To::Client);
    let error: mcp_era_bridge::modern::UnsupportedProtocolVersionError =
        mcp_spec_types::from_str(&refused.to_string()).unwrap_or_else(|e| panic!("{e}: {refused}"));
    assert_eq!(error.error.data.supported, ["2026-07-28"]);
    assert_eq!(error.error.data.requested, "2027-01-01");
    // server/discover too: the error lists what to name (2026-07-28's versioning, for every request).
    let mut discover = json!({"jsonrpc": "2.0", "id": 6, "method": "server/discover", "params": {"_meta": meta()}});
    discover["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2027-01-01");
    let refused = one(b.from_client(&discover.to_string()), To::Client);
    assert_eq!(refused["error"]["code"], -32022);
    assert_eq!(refused["error"]["data"]["supported"], json!(["2026-07-28"]));
    assert_eq!(refused["error"]["data"]["requested"], "2027-01-01");
    // Named as it should be, it is answered.
    discover["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2026-07-28");
    let found = one(b.from_client(&discover.to_string()), To::Client);
    assert_eq!(found["result"]["supportedVersions"], json!(["2026-07-28"]));
}

#[test]
fn a_question_the_calls_client_has_no_capability_for_fails_the_call_with_32021() {
    let mut b = to_legacy_idle();
    // This call declares sampling only; the server asks for roots.
    let mut request = call(3, "needs_roots");
    request["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({"sampling": {}});
    one(b.from_client(&request.to_string()), To::Server);
    let ask = json!({"jsonrpc": "2.0", "id": 70, "method": "roots/list"});
    let out = b.from_server(&ask.to_string());
    assert_eq!(out.len(), 3, "{out:?}");
    // The server's question refused as a client without roots refuses it, and the call ended.
    assert_eq!(
        (out[0].to, out[0].message()["id"].clone(), out[0].message()["error"]["code"].clone()),
        (To::Server, json!(70), json!(-32601))
    );
    assert_eq!((out[1].to, out[1].message()["method"].clone()), (To::Server, json!("notifications/cancelled")));
    assert_eq!(out[1].message()["params"]["requestId"], 3);
    // The client: MissingRequiredClientCapabilityError, naming roots.
    assert_eq!(out[2].to, To::Client);
    let _typed: mcp_era_bridge::modern::MissingRequiredClientCapabilityError =
        mcp_spec_types::from_str(&out[2].line).unwrap_or_else(|e| panic!("{e}: {}", out[2].message()));
    assert_eq!(out[2].message()["id"], 3);
    assert_eq!(out[2].message()["error"]["data"]["requiredCapabilities"], json!({"roots": {}}));
    // The server's late answer goes nowhere, and is not taken for a stray.
    let late = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": []}});
    assert!(b.from_server(&late.to_string()).is_empty());
    assert!(b.take_notes().iter().any(|n| n.contains("already over")));

    // A call that declared roots is asked, as before.
    one(b.from_client(&call(4, "needs_roots").to_string()), To::Server);
    let asked =
        one(b.from_server(&json!({"jsonrpc": "2.0", "id": 71, "method": "roots/list"}).to_string()), To::Client);
    assert_eq!(asked["result"]["resultType"], "input_required");
}

#[test]
fn a_question_goes_through_the_newest_call_that_declared_what_it_needs() {
    let mut b = to_legacy_idle();
    let with = |id: u64, capabilities: Value| {
        let mut c = call(id, "t");
        c["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = capabilities;
        c.to_string()
    };
    one(b.from_client(&with(3, json!({"sampling": {}}))), To::Server);
    one(b.from_client(&with(4, json!({}))), To::Server);
    // The newer call declared nothing: the sampling question goes through the older one.
    let sample = json!({"jsonrpc": "2.0", "id": 80, "method": "sampling/createMessage", "params": {"maxTokens": 5,
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}});
    let more = one(b.from_server(&sample.to_string()), To::Client);
    assert_eq!((more["id"].clone(), more["result"]["resultType"].clone()), (json!(3), json!("input_required")));

    // URL-mode elicitation needs elicitation.url: a call that declared only the form mode fails with -32021.
    one(b.from_client(&with(5, json!({"elicitation": {}}))), To::Server);
    let url = json!({"jsonrpc": "2.0", "id": 81, "method": "elicitation/create", "params": {"mode": "url",
        "message": "sign in", "url": "https://example.com/login", "elicitationId": "e1"}});
    let out = b.from_server(&url.to_string());
    let refused = out.iter().find(|o| o.to == To::Client).unwrap_or_else(|| panic!("{out:?}"));
    assert_eq!(refused.message()["error"]["code"], -32021, "{out:?}");
    assert_eq!(refused.message()["error"]["data"]["requiredCapabilities"], json!({"elicitation": {"url": {}}}));
    // The form mode, for a call that declared it, is asked.
    one(b.from_client(&with(6, json!({"elicitation": {}}))), To::Server);
    let form = json!({"jsonrpc": "2.0", "id": 82, "method": "elicitation/create", "params": {"message": "name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}});
    let asked = one(b.from_server(&form.to_string()), To::Client);
    assert_eq!((asked["id"].clone(), asked["result"]["resultType"].clone()), (json!(6), json!("input_required")));
}

#[test]
fn a_cancel_of_a_call_that_ended_while_its_client_answered_a_round_answers_its_questions() {
    let mut b = to_legacy_idle();
    one(b.from_client(&call(3, "slow").to_string()), To::Server);
    let ask = json!({"jsonrpc": "2.0", "id": 60, "method": "roots/list"});
    assert_eq!(one(b.from_server(&ask.to_string()), To::Client)["result"]["resultType"], "input_required");
    // The call ends while the client holds the round; the client then gives up instead of retrying.
    let done = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": []}});
    assert!(b.from_server(&done.to_string()).is_empty());
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}});
    let out = b.from_client(&cancel.to_string());
    let answered = out.iter().find(|o| o.message()["id"] == 60).unwrap_or_else(|| panic!("{out:?}"));
    assert_eq!((answered.to, answered.message()["error"]["code"].clone()), (To::Server, json!(-32603)));
}

/// A modern client's `_meta.logLevel` becomes a `logging/setLevel` (once per
/// level) for a legacy server that declared `logging`, and nothing for one
/// that did not (it would refuse the request).
#[test]
fn a_log_level_is_set_only_on_a_server_that_offers_logging() {
    for offers in [false, true] {
        let mut b = Bridge::between(Era::Modern, ServerEra::Legacy).unwrap();
        let first = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}});
        let init = one(b.from_client(&first.to_string()), To::Server);
        let capabilities = if offers { json!({"tools": {}, "logging": {}}) } else { json!({"tools": {}}) };
        let answer = json!({"jsonrpc": "2.0", "id": init["id"], "result": {"protocolVersion": "2025-11-25",
            "capabilities": capabilities, "serverInfo": {"name": "old-server", "version": "2"}}});
        b.from_server(&answer.to_string());
        let mut with_level = meta();
        with_level["io.modelcontextprotocol/logLevel"] = json!("debug");
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": with_level}});
        let out = b.from_client(&list.to_string());
        let methods: Vec<String> = out
            .iter()
            .filter(|o| o.to == To::Server)
            .filter_map(|o| o.message()["method"].as_str().map(str::to_string))
            .collect();
        if offers {
            assert_eq!(methods, ["logging/setLevel", "tools/list"], "{out:?}");
        } else {
            assert_eq!(methods, ["tools/list"], "a server without logging is asked nothing of it: {out:?}");
        }
    }
}
