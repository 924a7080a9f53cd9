//! The example client against servers nobody here wrote: a server on the
//! official Python SDK (`mcp` 2.3.0, `tests/peers/python/server.py`) and one on
//! the TypeScript SDK v2 (2.4.0, `tests/peers/node/server_v2.mjs`), which speak
//! 2026-07-28, and the official reference server,
//! `@modelcontextprotocol/server-everything` 2026.8.31, which speaks 2025-11-25.
//! Both are installed by the tests (`mcp_spec_tests::peers`). A proxy records
//! the wire; every message of the session, both ways, is judged with the
//! generated types; the transcripts stay in `target/peers/transcripts/`.

use std::process::Command;

use mcp_spec_tests::{peers, transcript};

/// Runs the example client against `server` behind the recording proxy.
fn session(name: &str, server: &[String]) -> (String, transcript::Judged) {
    session_with(name, &[], server)
}

/// [`session`], with the client's own options first (`--legacy`).
fn session_with(name: &str, options: &[&str], server: &[String]) -> (String, transcript::Judged) {
    let path = peers::transcript_path(name);
    let cmd = peers::teed(&path, server);
    let out = Command::new(mcp_spec_testkit::as_installed("mcp-spec-example-client", "mcp-spec-example-client"))
        .args(options)
        .args(&cmd)
        .output()
        .expect("the example client runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{name}: the session failed:\n{}\n{stdout}\ntranscript: {}",
        String::from_utf8_lossy(&out.stderr),
        path.display()
    );
    println!("{stdout}");
    let j = transcript::judge(&path);
    j.assert_clean(&path);
    eprintln!(
        "{}: {} messages of {}, all typed; extensions: {:?}",
        path.display(),
        j.messages,
        j.revision,
        j.extensions
    );
    (stdout, j)
}

fn field<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .map(str::trim)
        .unwrap_or_else(|| panic!("no `{name}` in\n{stdout}"))
}

#[test]
fn a_2026_07_28_session_with_a_python_sdk_server() {
    let server = vec![peers::python().display().to_string(), peers::python_script("server.py").display().to_string()];
    let (out, j) = session("client-python-modern", &server);
    assert!(j.extensions.is_empty(), "members no schema names: {:?}", j.extensions);
    assert_eq!(field(&out, "protocol version:"), "2026-07-28");
    assert!(field(&out, "server:").starts_with("peers-demo-server"), "{out}");
    assert!(field(&out, "tools:").contains("listed again from the cache, not sent"), "{out}");
    // Multi-round input: two form rounds, a number that is not an integer, sampling and roots.
    assert_eq!(field(&out, "call book_table:"), "\"Booked hello from Rust for Ada, party of 4\" after 3 rounds");
    assert_eq!(field(&out, "call tip:"), "\"Tip on 2: 0.30\" after 2 rounds");
    assert!(
        field(&out, "call haiku_with_roots:")
            .contains("an old silent pond | roots=['file:///tmp/mcp-spec-example-client']"),
        "{out}"
    );
    assert!(field(&out, "listen:").starts_with("acknowledged; 2 notification(s)"), "{out}");
    assert_eq!(field(&out, "progress:"), "2 notifications");
    // On the wire: discovery once, one tools/list (the second came from the cache),
    // every request with its _meta, the retries carrying what was asked.
    assert_eq!(j.revision, "2026-07-28");
    assert_eq!(j.count("c2s request server/discover"), 1, "{:?}", j.kinds);
    assert_eq!(j.count("c2s request tools/list"), 1, "{:?}", j.kinds);
    assert!(j.count("s2c result InputRequiredResult") >= 5, "{:?}", j.kinds);
    assert_eq!(j.count("c2s request subscriptions/listen"), 1, "{:?}", j.kinds);
    assert_eq!(j.count("c2s notification notifications/cancelled"), 1, "{:?}", j.kinds);
}

#[test]
fn a_2025_11_25_session_with_the_reference_server() {
    let node = peers::node();
    let server = vec![
        "node".to_string(),
        node.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js").display().to_string(),
    ];
    let (out, j) = session("client-everything-legacy", &server);
    // JSON Schema's own keywords in a tool's output schema, which the MCP schema does not name.
    assert_eq!(j.extensions, ["tools[5].outputSchema.additionalProperties (ToolOutputSchema)"]);
    assert!(field(&out, "discovery:").starts_with("method not found (-32601)"), "{out}");
    assert_eq!(field(&out, "protocol version:"), "2025-11-25");
    assert!(field(&out, "server:").starts_with("mcp-servers/everything"), "{out}");
    assert!(field(&out, "tool call:").contains("hello from Rust"), "{out}");
    // Every tool it lists called, with arguments from its input schema, and answered
    // with a result (a tool's own error, `isError`, is a result: fetching a URL on a
    // closed network, a tool that needs tasks), never a JSON-RPC error.
    let tools: usize = field(&out, "tools:").split_whitespace().next().unwrap().parse().unwrap();
    let called = field(&out, "tools called:");
    assert!(called.starts_with(&format!("{tools} of {tools}:")), "{called}");
    assert!(called.contains(" 0 JSON-RPC errors"), "{called}");
    assert_eq!(j.count("c2s request tools/call"), tools, "{:?}", j.kinds);
    for name in ["tools:", "prompts:", "resource contents:", "prompt messages:"] {
        let n: usize = field(&out, name).split_whitespace().next().unwrap().parse().unwrap();
        assert!(n > 0, "{name} {n}");
    }
    assert_eq!(j.revision, "2025-11-25");
    assert_eq!(j.count("c2s request initialize"), 1, "{:?}", j.kinds);
    let checked: usize = field(&out, "messages checked:").split_whitespace().next().unwrap().parse().unwrap();
    assert_eq!(checked, j.count("s2c"), "the client checked every message the server sent");
}

#[test]
fn a_2026_07_28_session_with_a_typescript_sdk_v2_server() {
    let node = peers::node();
    let server = vec!["node".to_string(), node.join("server_v2.mjs").display().to_string()];
    let (out, j) = session("client-typescript-v2-modern", &server);
    assert_eq!(j.revision, "2026-07-28");
    assert!(field(&out, "server:").starts_with("peers-ts-v2-server"), "{out}");
    assert_eq!(field(&out, "call book_table:"), "\"Booked hello from Rust for Ada, party of 4\" after 3 rounds");
    assert!(field(&out, "call haiku_with_roots:").contains("an old silent pond"), "{out}");
    assert_eq!(field(&out, "call add:"), "\"5\"", "{out}");
    assert_eq!(j.count("c2s request server/discover"), 1, "{:?}", j.kinds);
    assert!(j.count("s2c result InputRequiredResult") >= 3, "{:?}", j.kinds);
    // Its prompt's argument completed (the server declares completions).
    assert_eq!(field(&out, "complete greet.style:"), r#"["friendly", "formal", "pirate"]"#);
}

/// The example client answers `input_required` for every request that may
/// get it, not only `tools/call`: against a 2026-07-28 server (a stand-in in
/// plain JSON lines, `tests/peers/python/asking_server.py`) whose `prompts/get`
/// and `resources/read` each ask for a passphrase before they answer, the
/// prompt and the resource come after two rounds each, the retries carrying
/// the answer and the `requestState` as given (the server refuses anything
/// else with `-32602`). Before, the client stopped at the first
/// (`resources/read: InputRequiredResult`).
#[test]
fn a_2026_07_28_server_that_asks_for_input_on_a_prompt_and_a_resource_read() {
    let server = vec!["python3".to_string(), peers::python_script("asking_server.py").display().to_string()];
    let (out, j) = session("client-asking-server", &server);
    assert_eq!(field(&out, "prompts:"), "1 (secret_greeting: 1 message(s) after 2 rounds)", "{out}");
    assert_eq!(field(&out, "resources:"), "1 listed, 1 content(s) read", "{out}");
    assert!(field(&out, "input rounds:").starts_with("2 answered (elicitation 2, sampling 0, roots 0)"), "{out}");
    assert_eq!(j.count("s2c result InputRequiredResult"), 2, "{:?}", j.kinds);
    assert_eq!(j.count("c2s request prompts/get"), 2, "{:?}", j.kinds);
    assert_eq!(j.count("c2s request resources/read"), 2, "{:?}", j.kinds);
    // Each retry carries the answer and the state the server gave.
    let retries: Vec<serde_json::Value> =
        transcript::read(&peers::installed().join("transcripts/client-asking-server.jsonl"))
            .into_iter()
            .filter(|(d, m)| d == "c2s" && m.pointer("/params/requestState").is_some())
            .map(|(_, m)| m)
            .collect();
    assert_eq!(retries.len(), 2, "{retries:?}");
    for retry in &retries {
        let method = retry["method"].as_str().unwrap();
        assert_eq!(retry["params"]["requestState"], format!("asked:{method}"));
        assert_eq!(retry["params"]["inputResponses"]["passphrase"]["action"], "accept");
    }
}

/// A server that declares tools and nothing else (the Python SDK's low-level
/// server derives its capabilities from its handlers): the client asks for
/// nothing it was not offered, on either era, says so, and succeeds.
#[test]
fn the_example_client_asks_a_tools_only_server_for_tools_alone_on_both_eras() {
    let server =
        vec![peers::python().display().to_string(), peers::python_script("tools_only_server.py").display().to_string()];
    for (era, options) in [("2026-07-28", &[][..]), ("2025-11-25", &["--legacy"][..])] {
        let (out, j) = session_with(&format!("client-tools-only-{era}"), options, &server);
        assert_eq!(field(&out, "protocol version:"), era, "{out}");
        assert!(field(&out, "tools:").starts_with('1'), "{out}");
        for area in ["prompts", "resources"] {
            assert_eq!(
                field(&out, &format!("{area}:")),
                format!("not offered: the server declares no `{area}`"),
                "{era}: {out}"
            );
        }
        for method in ["prompts/", "resources/", "subscriptions/listen", "completion/", "logging/"] {
            assert_eq!(j.count(&format!("c2s request {method}")), 0, "{era}: asked {method}: {:?}", j.kinds);
        }
        assert_eq!(j.count("c2s request tools/call"), 1, "{era}: {:?}", j.kinds);
        // Nothing the client asked for was refused.
        assert_eq!(j.count("s2c error"), 0, "{era}: {:?}", j.kinds);
    }
    let (out, _) = session_with("client-tools-only-listen", &[], &server);
    assert_eq!(field(&out, "listen:"), "not offered: the server declares no change it notifies of");
}
