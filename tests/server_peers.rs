//! The example server driven by the official SDKs' clients: the Python SDK's
//! (`mcp` 2.3.0) in the 2026-07-28 era and in the 2025-11-25 handshake, the
//! TypeScript SDK's (1.32.2) in the handshake; and by the example client, with
//! the Tasks extension, which no SDK here speaks. Each client checks every answer
//! itself (`tests/peers`); a proxy records the wire, and every message of the
//! session, both ways, is then judged with the generated types. The transcripts
//! stay in `target/peers/transcripts/` for a failing test to show.

use std::path::Path;
use std::process::Command;

use mcp_spec_tests::{Checks, peers, transcript};

/// The example server as a user installs it.
fn server() -> String {
    mcp_spec_testkit::as_installed("mcp-spec-example-server", "mcp-spec-example-server").display().to_string()
}

/// Runs a client (a program and its arguments, then `--` and the server command)
/// and returns its output, failing with it when the client fails.
fn drive(name: &str, client: &[String], checks: Checks) -> (std::path::PathBuf, String) {
    let path = peers::transcript_path(name);
    let server = peers::teed(&path, &[server()]);
    let mut cmd = Command::new(&client[0]);
    cmd.args(&client[1..]).arg("--").args(&server);
    let out = cmd.output().unwrap_or_else(|e| panic!("{name}: cannot run {:?}: {e}", client[0]));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "{name}: the client failed ({}):\n{stdout}\n{}\ntranscript: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr),
        path.display()
    );
    checks.assert_run(name, &stdout);
    (path, stdout)
}

fn judged(path: &Path) -> transcript::Judged {
    let j = transcript::judge(path);
    j.assert_clean(path);
    eprintln!(
        "{}: {} messages of {}, all typed; extensions: {:?}",
        path.display(),
        j.messages,
        j.revision,
        j.extensions
    );
    j
}

fn python_client(mode: &str) -> Vec<String> {
    vec![
        peers::python().display().to_string(),
        peers::python_script("client.py").display().to_string(),
        "--mode".into(),
        mode.into(),
    ]
}

#[test]
fn the_python_sdk_client_speaks_2026_07_28_with_it() {
    let (path, out) = drive("server-python-modern", &python_client("modern"), Checks::all(20));
    assert!(out.contains("negotiated 2026-07-28"), "{out}");
    let j = judged(&path);
    // What the SDK sends that 2026-07-28 no longer names: `roots.listChanged`.
    assert_eq!(
        j.extensions,
        ["params._meta.io.modelcontextprotocol/clientCapabilities.roots.listChanged (ClientCapabilitiesRoots)"]
    );
    assert_eq!(j.revision, "2026-07-28");
    // The session did what the era is for: discovery, input rounds, a listen stream.
    assert_eq!(j.count("c2s request server/discover"), 1, "{:?}", j.kinds);
    assert!(
        j.count("s2c result InputRequiredResult") >= 3,
        "two rounds of book_table and one of haiku_with_roots: {:?}",
        j.kinds
    );
    assert!(j.count("s2c notification notifications/subscriptions/acknowledged") == 1, "{:?}", j.kinds);
    assert!(j.count("s2c notification notifications/progress") == 2, "{:?}", j.kinds);
    assert!(j.count("c2s request tools/call") >= 9, "{:?}", j.kinds);
}

#[test]
fn the_python_sdk_client_speaks_the_2025_11_25_handshake_with_it() {
    let (path, out) = drive("server-python-legacy", &python_client("legacy"), Checks::all(17));
    assert!(out.contains("negotiated 2025-11-25"), "{out}");
    let j = judged(&path);
    assert!(j.extensions.is_empty(), "members no schema names: {:?}", j.extensions);
    assert_eq!(j.revision, "2025-11-25");
    assert_eq!(j.count("c2s request initialize"), 1, "{:?}", j.kinds);
    // Input is asked with requests to the client in this era.
    assert_eq!(j.count("s2c request elicitation/create"), 2, "{:?}", j.kinds);
    assert_eq!(j.count("s2c request sampling/createMessage"), 1, "{:?}", j.kinds);
    assert_eq!(j.count("s2c request roots/list"), 1, "{:?}", j.kinds);
    assert_eq!(j.count("c2s result"), 4, "{:?}", j.kinds);
}

#[test]
fn the_typescript_sdk_client_speaks_the_handshake_with_it() {
    let node = peers::node();
    let client = vec!["node".to_string(), node.join("client.mjs").display().to_string()];
    let (path, _) =
        drive("server-typescript-legacy", &client, Checks::skipping(18, &[crate::bridge_peers::NO_CHANGE_EVENTS]));
    let j = judged(&path);
    assert!(j.extensions.is_empty(), "members no schema names: {:?}", j.extensions);
    assert_eq!(j.revision, "2025-11-25");
    assert_eq!(j.count("s2c request elicitation/create"), 2, "{:?}", j.kinds);
    assert_eq!(j.count("c2s request ping"), 1, "{:?}", j.kinds);
    assert_eq!(
        j.count("s2c notification notifications/progress"),
        2,
        "sent, whether or not the SDK shows them: {:?}",
        j.kinds
    );
}

#[test]
fn the_example_client_gets_a_task_from_it_with_the_tasks_extension() {
    let path = peers::transcript_path("server-example-client-tasks");
    let server = peers::teed(&path, &[server()]);
    let summary = mcp_spec_example_client::run(&server[0], &server[1..])
        .unwrap_or_else(|e| panic!("the session failed: {e}\ntranscript: {}", path.display()));
    println!("{summary}");
    // Both declared the extension: `count` ran as a task, polled until it completed.
    assert_eq!(summary.get("call count"), Some("\"2\" from a task polled 3 times"), "{summary}");
    assert_eq!(summary.get("call add"), Some("\"4\""), "{summary}");

    // Judged without the extension, the task handle is a result the core keeps
    // whole (`Other`: `Result` is open), and the polls' answers go untyped.
    let core = transcript::judge(&path);
    core.assert_clean(&path);
    assert_eq!(core.count("s2c result Other"), 1, "{:?}", core.kinds);
    assert_eq!(core.count("s2c result of tasks/get"), 3, "{:?}", core.kinds);

    // Judged with it, every message is typed: the handle as the extension's member
    // of the tool call's result union, each poll's answer as its status's member.
    let j = transcript::judge_with(&path, &[transcript::Extension::tasks()]);
    j.assert_clean(&path);
    eprintln!("{}: {} messages, kinds {:?}; extensions: {:?}", path.display(), j.messages, j.kinds, j.extensions);
    assert_eq!(j.count("s2c result CreateTaskResult"), 1, "{:?}", j.kinds);
    assert_eq!(j.count("c2s request tasks/get"), 3, "{:?}", j.kinds);
    assert_eq!(j.count("s2c result WorkingTask"), 2, "{:?}", j.kinds);
    assert_eq!(j.count("s2c result CompletedTask"), 1, "{:?}", j.kinds);
    assert_eq!(j.count("s2c result Other"), 0, "{:?}", j.kinds);
    // The `_meta` a 2026-07-28 request carries, which the extension's params do not name.
    assert_eq!(j.extensions, ["_meta (GetTaskRequest, an extension's type)"], "{:?}", j.extensions);
}

#[test]
fn the_official_tasks_requester_library_runs_a_task_to_completion_and_cancels_another() {
    // A peer no one here wrote: @modelcontextprotocol/ext-tasks 0.2.2 over the TypeScript SDK v2
    // client, with its raw path and 2026-07-28 framing (tests/peers/node/tasks_client.mjs).
    let path = peers::transcript_path("server-ext-tasks-library");
    let node = peers::node();
    let client = vec!["node".to_string(), node.join("tasks_client.mjs").display().to_string()];
    let (_, out) = drive("server-ext-tasks-library", &client, Checks::all(3));
    assert!(out.contains("a second call cancelled: cancelled"), "{out}");
    // Every message of the session read as its member with the extension's types.
    let j = transcript::judge_with(&path, &[transcript::Extension::tasks()]);
    j.assert_clean(&path);
    eprintln!("{}: {} messages, kinds {:?}; extensions: {:?}", path.display(), j.messages, j.kinds, j.extensions);
    assert_eq!(j.revision, "2026-07-28");
    assert_eq!(j.count("s2c result CreateTaskResult"), 2, "both calls ran as tasks: {:?}", j.kinds);
    assert_eq!(j.count("s2c result CompletedTask"), 1, "{:?}", j.kinds);
    assert_eq!(j.count("c2s request tasks/cancel"), 1, "{:?}", j.kinds);
    assert!(j.count("c2s request tasks/get") >= 2, "{:?}", j.kinds);
    assert_eq!(j.count("s2c result Other"), 0, "{:?}", j.kinds);
}

#[test]
fn the_example_client_reports_a_tool_it_lacks_the_capability_for_and_goes_on() {
    let without = ["sampling".to_string(), "tasks".to_string()];
    let summary = mcp_spec_example_client::run_without(&server(), &[], &without).unwrap_or_else(|e| panic!("{e}"));
    println!("{summary}");
    // haiku_with_roots asks for sampling: refused with -32021, naming it.
    assert_eq!(summary.get("call haiku_with_roots"), Some(r#"refused (-32021): needs {"sampling":{}}"#), "{summary}");
    assert!(summary.get("tool calls").unwrap().ends_with("1 refused for a capability not declared: haiku_with_roots"));
    // Without the Tasks extension, count is an ordinary call; and the session went on to the end.
    assert_eq!(summary.get("call count"), Some("\"2\""), "{summary}");
    for step in ["prompts", "resources", "templates", "listen", "lists"] {
        assert!(summary.get(step).is_some(), "no `{step}` after the refusal: {summary}");
    }
}

#[test]
fn the_typescript_sdk_v2_client_speaks_2026_07_28_with_it() {
    let node = peers::node();
    for negotiation in ["auto", "pinned"] {
        let client = vec![
            "node".to_string(),
            node.join("client_v2.mjs").display().to_string(),
            "--negotiation".into(),
            negotiation.into(),
        ];
        let (path, out) = drive(&format!("server-typescript-v2-{negotiation}"), &client, Checks::all(12));
        assert!(out.contains("ok   negotiated 2026-07-28"), "{out}");
        let j = judged(&path);
        assert_eq!(j.revision, "2026-07-28");
        assert_eq!(j.count("c2s request initialize"), 0, "{:?}", j.kinds);
        // Neither mode sends server/discover on stdio here: each opens with a
        // 2026-07-28 request (the judge reads every one as its 2026-07-28 type,
        // `_meta` required), which this server answers.
        assert_eq!(j.count("c2s request server/discover"), 0, "{negotiation}: {:?}", j.kinds);
        assert!(
            j.count("s2c result InputRequiredResult") >= 3,
            "two rounds of book_table, one of haiku: {:?}",
            j.kinds
        );
    }
}
