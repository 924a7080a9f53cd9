//! The example server's 2026-07-28 error paths, driven over stdio with requests
//! no SDK client sends: each answer is read as the error type the spec names for
//! it, its code and typed `data` checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use mcp_spec_types::v2026_07_28 as m;
use serde_json::{Value, json};

const SERVER: &str = env!("CARGO_BIN_EXE_mcp-spec-example-server");

/// Sends each request on its own line and reads one answer per request.
fn exchange(requests: &[Value]) -> Vec<String> {
    let mut child = Command::new(SERVER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut stdin = child.stdin.take().unwrap();
    // Lines are read on a thread of their own, so a server that never answers
    // fails the test after a bound instead of hanging it.
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut answers = Vec::new();
    for r in requests {
        writeln!(stdin, "{r}").unwrap();
        stdin.flush().unwrap();
        match lines.recv_timeout(ANSWER_WITHIN) {
            Ok(line) => answers.push(line),
            Err(e) => {
                let _ = child.kill();
                panic!("no answer to {r} within {ANSWER_WITHIN:?}: {e}");
            }
        }
    }
    // Its input closed, the server ends; one that does not is stopped after the
    // same bound, and the test says so.
    drop(stdin);
    let deadline = std::time::Instant::now() + ANSWER_WITHIN;
    while child.try_wait().ok().flatten().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server did not end within {ANSWER_WITHIN:?} of its input closing");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    answers
}

/// How long the server may take to answer one request.
const ANSWER_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

fn meta(version: &str, capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "errors-test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

#[test]
fn bad_requests_get_the_errors_the_spec_names() {
    let good = meta("2026-07-28", json!({"elicitation": {"form": {}}}));
    let answers = exchange(&[
        // The first request decides the era: a modern one.
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": good}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": meta("2099-01-01", json!({}))}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
               "params": {"_meta": meta("2026-07-28", json!({})), "name": "book_table", "arguments": {"date": "today"}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
               "params": {"_meta": good, "name": "book_table", "arguments": {"date": "today"}, "requestState": "forged"}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
               "params": {"_meta": good, "name": "book_table", "arguments": {"date": "today"}}}),
        json!({"jsonrpc": "2.0", "id": 7, "method": "vendor/unknown", "params": {"_meta": good}}),
    ]);
    let discovered: m::DiscoverResultResponse = serde_json::from_str(&answers[0]).unwrap();
    assert_eq!(discovered.result.supported_versions, ["2026-07-28"]);

    // No `_meta`: invalid params.
    let missing: m::JSONRPCErrorResponse = serde_json::from_str(&answers[1]).unwrap();
    assert_eq!((missing.id, missing.error.code), (Some(Some(m::RequestId::from(2))), m::INVALID_PARAMS));
    assert!(missing.error.message.contains("_meta"), "{}", missing.error);

    // A version the server does not serve: -32022, with what it supports.
    let unsupported: m::UnsupportedProtocolVersionError = serde_json::from_str(&answers[2]).unwrap();
    assert_eq!(unsupported.error.data.supported, ["2026-07-28"]);
    assert_eq!(unsupported.error.data.requested, "2099-01-01");
    assert_eq!(m::UnsupportedProtocolVersionErrorError::CODE, -32022);

    // A tool that needs the user's input, from a client that declared no elicitation: -32021.
    let capability: m::MissingRequiredClientCapabilityError = serde_json::from_str(&answers[3]).unwrap();
    assert!(capability.error.data.required_capabilities.elicitation.is_some(), "{}", answers[3]);
    assert_eq!(m::MissingRequiredClientCapabilityErrorError::CODE, -32021);

    // A requestState the server did not seal: invalid params, with the reason.
    let forged: m::JSONRPCErrorResponse = serde_json::from_str(&answers[4]).unwrap();
    assert_eq!(forged.error.code, m::INVALID_PARAMS);
    assert_eq!(forged.error.data, Some(json!({"reason": "invalid_request_state"})));

    // The same call, well formed: an InputRequiredResult with a sealed state.
    let asked: m::CallToolResultResponse = serde_json::from_str(&answers[5]).unwrap();
    let m::CallToolResultResponseResult::InputRequiredResult(more) = &asked.result else {
        panic!("expected input_required: {}", answers[5])
    };
    assert!(more.request_state.as_deref().is_some_and(|s| s != "forged" && !s.is_empty()));
    assert!(more.input_requests.as_ref().is_some_and(|r| r.contains_key("ask_name")));

    // An unknown method: method not found, naming it.
    let unknown: m::JSONRPCErrorResponse = serde_json::from_str(&answers[6]).unwrap();
    assert_eq!(unknown.error.code, m::METHOD_NOT_FOUND);
    assert_eq!(unknown.error.data, Some(json!("vendor/unknown")));
}

#[test]
fn the_tasks_extension_only_for_a_client_that_declared_it() {
    use mcp_spec_types::ext::tasks::draft as tasks;
    let without = meta("2026-07-28", json!({}));
    let with = meta("2026-07-28", json!({"extensions": {tasks::EXTENSION_ID: {}}}));
    let count = |id: i64, meta: &Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"_meta": meta, "name": "count", "arguments": {"n": 1}}});
    let get = |id: i64, meta: &Value, task: &str| json!({"jsonrpc": "2.0", "id": id, "method": "tasks/get", "params": {"_meta": meta, "taskId": task}});
    let answers = exchange(&[
        count(1, &without),
        count(2, &with),
        get(3, &without, "task-1"),
        get(4, &with, "task-9"),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tasks/cancel", "params": {"_meta": with, "taskId": "task-1"}}),
        get(6, &with, "task-1"),
        json!({"jsonrpc": "2.0", "id": 7, "method": "tasks/update", "params": {"_meta": with, "taskId": "task-1", "inputResponses": {}}}),
    ]);
    // Not declared: `count` is an ordinary call, answered with its result.
    let plain: m::CallToolResultResponse = serde_json::from_str(&answers[0]).unwrap();
    assert_eq!(plain.result.member_name(), "CallToolResult", "{}", answers[0]);
    // Declared: a task handle, which only the extension's union reads as such.
    let handle: tasks::CallToolResultResponseWithTasks = serde_json::from_str(&answers[1]).unwrap();
    let tasks::CallToolResultResponseResultWithTasks::CreateTaskResult(task) = handle.result else {
        panic!("{}", answers[1])
    };
    assert_eq!((task.task_id.as_str(), &task.status), ("task-1", &tasks::TaskStatus::Working));
    // Polling without declaring the extension: -32021, naming it.
    let refused: m::MissingRequiredClientCapabilityError = serde_json::from_str(&answers[2]).unwrap();
    let required = refused.error.data.required_capabilities.extensions.unwrap_or_default();
    assert!(required.contains_key(tasks::EXTENSION_ID), "{}", answers[2]);
    // A task nobody made: invalid params, naming it.
    let unknown: m::JSONRPCErrorResponse = serde_json::from_str(&answers[3]).unwrap();
    assert_eq!(unknown.error.code, m::INVALID_PARAMS);
    assert!(unknown.error.message.contains("task-9"), "{}", unknown.error);
    // Cancelled, then reported as cancelled.
    let _: tasks::CancelTaskResult =
        serde_json::from_value(serde_json::from_str::<Value>(&answers[4]).unwrap()["result"].clone()).unwrap();
    let got: Value = serde_json::from_str(&answers[5]).unwrap();
    let got: tasks::GetTaskResult = serde_json::from_value(got["result"].clone()).unwrap();
    assert_eq!(got.member_name(), "CancelledTask", "{}", answers[5]);
    // Nothing awaits input: tasks/update is refused.
    let update: m::JSONRPCErrorResponse = serde_json::from_str(&answers[6]).unwrap();
    assert_eq!(update.error.code, m::INVALID_PARAMS, "{}", answers[6]);
}
