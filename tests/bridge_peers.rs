//! The bridge between real SDKs of the two eras, both ways. Each session is
//! recorded on both sides of the bridge by a proxy that is not ours
//! (`tee_proxy.py`), and each side is judged with the generated types of its own
//! revision: the client's side in the client's era (and version), the
//! server's in the server's. The bridge's own `--record` file is checked against the proxies'.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_spec_tests::{Checks, peers, transcript};
use serde_json::Value;

/// The bridge as `cargo install --path bridge` builds it.
pub(crate) fn bridge_bin() -> PathBuf {
    mcp_spec_testkit::as_installed("mcp-era-bridge", "mcp-era-bridge")
}

/// Runs `client` (a command ending where the server command goes) against
/// `server` through the bridge, each side recorded; the client's output, and
/// the two transcripts and the bridge's record.
fn bridged(
    name: &str,
    client: &[String],
    bridge_args: &[&str],
    server: &[String],
    checks: Checks,
) -> (String, PathBuf, PathBuf, PathBuf) {
    let client_side = peers::transcript_path(&format!("{name}.client-side"));
    let server_side = peers::transcript_path(&format!("{name}.server-side"));
    let record = client_side.with_file_name(format!("{name}.bridge-record.jsonl"));
    // Appended to by the bridge: a fresh one for this run.
    let _ = std::fs::remove_file(&record);
    let mut bridge = vec![bridge_bin().display().to_string()];
    bridge.extend(bridge_args.iter().map(|a| a.to_string()));
    bridge.extend(["--record".to_string(), record.display().to_string(), "--".to_string()]);
    bridge.extend(peers::teed(&server_side, server));
    let stdout = run_through(name, client, &peers::teed(&client_side, &bridge), &[&client_side, &server_side], &checks);
    session_ended(&record);
    // Earlier sessions of the same commands (a client's probe on a sibling
    // process) are judged as well: every message through the bridge is typed.
    for transcript in [&client_side, &server_side] {
        for earlier in peers::earlier_sessions(transcript) {
            judged(&earlier);
        }
    }
    (stdout, client_side, server_side, record)
}

/// The check `client.mjs` skips against a server without change events to
/// offer (no `touch` tool, no subscriptions or no tool list changes): the
/// TypeScript SDK v2 demo server and the example server's legacy side have none.
pub(crate) const NO_CHANGE_EVENTS: &str =
    "change events (the server offers no subscriptions, no tool list changes or no touch tool)";

/// Runs `client` with `proxy` as its server command; its output, once it has
/// passed every check and the bridge (its stderr) dropped nothing. `transcripts`
/// are named when it fails.
pub(crate) fn run_through(
    name: &str,
    client: &[String],
    proxy: &[String],
    transcripts: &[&Path],
    checks: &Checks,
) -> String {
    let mut cmd = client.to_vec();
    cmd.push("--".into());
    cmd.extend_from_slice(proxy);
    let out = Command::new(&cmd[0]).args(&cmd[1..]).output().unwrap_or_else(|e| panic!("{name}: {:?}: {e}", cmd[0]));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    // The client's stderr, which the bridge's log goes to: kept for the tests that read it.
    let _ = std::fs::write(peers::transcript_path(&format!("{name}.stderr")), &stderr);
    println!("{stdout}");
    let named: Vec<String> = transcripts.iter().map(|t| t.display().to_string()).collect();
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "{name}: the client failed ({}):\n{stdout}\n{stderr}\ntranscripts: {}",
        out.status,
        named.join(", ")
    );
    assert!(
        !stderr.contains("not sent on") && !stderr.contains("to no request"),
        "{name}: the bridge dropped something:\n{stderr}"
    );
    checks.assert_run(name, &stdout);
    stdout
}

/// What a legacy TypeScript SDK 1.32 client (`client.mjs`) is asked by the
/// demo server, bridged from a modern one: the server's questions as requests.
pub(crate) fn asked_as_requests(c: &transcript::Judged) {
    assert_eq!(c.revision, "2025-11-25");
    assert_eq!(c.count("c2s request initialize"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request elicitation/create"), 2, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request sampling/createMessage"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request roots/list"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c result InputRequiredResult"), 0, "{:?}", c.kinds);
}

pub(crate) fn judged(path: &Path) -> transcript::Judged {
    let j = transcript::judge(path);
    j.assert_clean(path);
    eprintln!(
        "{}: {} messages of {}, all typed; kinds {:?}; extensions {:?}",
        path.display(),
        j.messages,
        j.revision,
        j.kinds,
        j.extensions
    );
    j
}

/// The bridge's record of one side in its last session (the session's own, after
/// any probe on a sibling process), as the proxy's transcript has it.
pub(crate) fn recorded(record: &Path, side: &str) -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(record).unwrap_or_else(|e| panic!("{}: {e}", record.display()));
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", record.display())))
        .collect();
    let mut sessions: Vec<&Value> = Vec::new();
    for l in &lines {
        if !sessions.contains(&&l["session"]) {
            sessions.push(&l["session"]);
        }
    }
    let last = sessions.last().unwrap_or_else(|| panic!("{}: empty", record.display()));
    lines
        .iter()
        .filter(|r| &&r["session"] == last && r["side"] == side)
        .map(|r| (r["dir"].as_str().unwrap().to_string(), r["msg"].clone()))
        .collect()
}

/// Waits for the bridge's last session to end (its record's `end` line): the
/// client has exited, but the bridge ends its server as a stdio client does,
/// recording what it says meanwhile, and the proxies' transcripts are complete
/// only then.
pub(crate) fn session_ended(record: &Path) {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let text = std::fs::read_to_string(record).unwrap_or_default();
        let lines: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        let last = lines.iter().rev().find(|l| l.get("side").is_some()).map(|l| l["session"].clone());
        if last.is_some() && lines.iter().any(|l| l["session"] == last.clone().unwrap() && l.get("end").is_some()) {
            return;
        }
        assert!(std::time::Instant::now() < until, "{}: the bridge's session did not end in 15 s", record.display());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The bridge records what the proxies saw, both sides, in order.
fn record_matches(record: &Path, client_side: &Path, server_side: &Path) {
    for (side, tee) in [("client", client_side), ("server", server_side)] {
        let teed = transcript::read(tee);
        let ours = recorded(record, side);
        assert_eq!(
            ours.len(),
            teed.len(),
            "{side} side: the record has {} messages, the proxy saw {}",
            ours.len(),
            teed.len()
        );
        // Each direction in order (the two directions interleave differently by where they were seen).
        for dir in ["c2s", "s2c"] {
            let a: Vec<&Value> = ours.iter().filter(|(d, _)| d == dir).map(|(_, m)| m).collect();
            let b: Vec<&Value> = teed.iter().filter(|(d, _)| d == dir).map(|(_, m)| m).collect();
            assert_eq!(a, b, "{side} side, {dir}: the record and the proxy differ");
        }
    }
}

/// The example server's binary, as a user installs it.
fn example_server() -> PathBuf {
    mcp_spec_testkit::as_installed("mcp-spec-example-server", "mcp-spec-example-server")
}

/// `node` running one of the installed peer scripts (or a package's entry), with `args`.
pub(crate) fn node(script: &str, args: &[&str]) -> Vec<String> {
    let mut v = vec!["node".to_string(), peers::node().join(script).display().to_string()];
    v.extend(args.iter().map(|a| a.to_string()));
    v
}

pub(crate) fn python(script: &str, args: &[&str]) -> Vec<String> {
    let mut v = vec![peers::python().display().to_string(), peers::python_script(script).display().to_string()];
    v.extend(args.iter().map(|a| a.to_string()));
    v
}

#[test]
fn a_legacy_typescript_sdk_client_uses_a_modern_python_sdk_server_through_the_bridge() {
    let client = node("client.mjs", &[]);
    let server = python("server.py", &[]);
    // The Python SDK's server speaks both eras: told it is modern, the bridge translates
    // (without, it passes the session through: the test after this one).
    let (_, client_side, server_side, record) =
        bridged("bridge-ts-legacy-to-python-modern", &client, &["--server-era", "modern"], &server, Checks::all(20));

    // The client spoke 2025-11-25: a handshake, and the server's questions as requests to it.
    let c = judged(&client_side);
    asked_as_requests(&c);

    // The server saw only 2026-07-28: no handshake, no ping, every request with its
    // _meta (the judge reads each as 2026-07-28's type, which requires it), the
    // questions asked as input_required results and answered by retries.
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    for legacy_only in ["initialize", "ping", "notifications/initialized", "logging/setLevel"] {
        assert_eq!(
            s.count(&format!("c2s request {legacy_only}")) + s.count(&format!("c2s notification {legacy_only}")),
            0,
            "{legacy_only}: {:?}",
            s.kinds
        );
    }
    assert_eq!(s.count("c2s request server/discover"), 1, "the bridge's probe: {:?}", s.kinds);
    assert!(s.count("s2c result InputRequiredResult") >= 3, "{:?}", s.kinds);
    let modern_requests = transcript::read(&server_side)
        .into_iter()
        .filter(|(d, m)| d == "c2s" && m.get("id").is_some() && m.get("method").is_some())
        .filter(|(_, m)| {
            m.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion") != Some(&Value::from("2026-07-28"))
        })
        .count();
    assert_eq!(modern_requests, 0, "requests to the server without the 2026-07-28 _meta");

    // The client's subscribe and the server's list changes: through subscriptions/listen
    // streams (one after initialize, one per subscribe and unsubscribe), the touch's events
    // reaching the client as 2025-11-25 notifications.
    assert_eq!(c.count("c2s request resources/subscribe") + c.count("c2s request resources/unsubscribe"), 2);
    assert_eq!(s.count("c2s request resources/subscribe") + s.count("c2s request resources/unsubscribe"), 0);
    assert_eq!(s.count("c2s request subscriptions/listen"), 3, "{:?}", s.kinds);
    assert_eq!(s.count("s2c notification notifications/subscriptions/acknowledged"), 3, "{:?}", s.kinds);
    for event in ["notifications/tools/list_changed", "notifications/resources/updated"] {
        let kind = format!("s2c notification {event}");
        assert_eq!((s.count(&kind), c.count(&kind)), (1, 1), "{event}: {:?} / {:?}", s.kinds, c.kinds);
    }
    record_matches(&record, &client_side, &server_side);
}

/// Never worse than direct: the Python SDK's server accepts a legacy client's
/// `initialize`, so the bridge passes the whole session through, untouched: the
/// server's questions reach the client as the requests it would get directly.
#[test]
fn a_legacy_typescript_sdk_client_and_a_dual_era_python_sdk_server_pass_through_the_bridge() {
    let client = node("client.mjs", &[]);
    let server = python("server.py", &[]);
    // Directly, the server's legacy side offers no change events: the client skips that check.
    let direct = Checks::skipping(18, &[NO_CHANGE_EVENTS]);
    run_through("direct-ts-legacy-to-python-dual", &client, &server, &[], &direct);
    let (_, client_side, server_side, record) =
        bridged("bridge-ts-legacy-to-python-dual-pass", &client, &[], &server, direct);
    let c = judged(&client_side);
    let s = judged(&server_side);
    assert_eq!((c.revision.as_str(), s.revision.as_str()), ("2025-11-25", "2025-11-25"));
    assert_eq!(s.count("c2s request server/discover"), 0, "no probe: {:?}", s.kinds);
    assert_eq!(s.count("c2s request initialize"), 1, "{:?}", s.kinds);
    for asked in ["elicitation/create", "sampling/createMessage", "roots/list"] {
        let kind = format!("s2c request {asked}");
        assert!(s.count(&kind) >= 1 && s.count(&kind) == c.count(&kind), "{asked}: {:?} / {:?}", s.kinds, c.kinds);
    }
    // Untouched: both sides of the record are the same messages.
    let (client_msgs, server_msgs) = (recorded(&record, "client"), recorded(&record, "server"));
    assert_eq!(client_msgs, server_msgs, "the record's two sides differ: not a pass-through");
    record_matches(&record, &client_side, &server_side);
}

#[test]
fn an_older_hosts_typescript_sdk_client_at_2025_03_26_uses_a_modern_python_sdk_server_through_the_bridge() {
    // The TypeScript SDK 1.12.3 offers 2025-03-26 and disconnects from a server
    // that answers 2025-11-25: the bridge answers in the version offered, and
    // sends only what that version reads.
    let client = node("client_2025_03_26.mjs", &[]);
    let server = python("server.py", &[]);
    let (_, client_side, server_side, record) = bridged(
        "bridge-ts-2025-03-26-to-python-modern",
        &client,
        &["--server-era", "modern"],
        &server,
        Checks::all(14),
    );

    // The client's side, judged with 2025-03-26's types: its version, as the bridge answered it.
    let c = judged(&client_side);
    assert_eq!(c.revision, "2025-03-26");
    assert_eq!(c.count("c2s request initialize"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request sampling/createMessage"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request roots/list"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request elicitation/create"), 0, "{:?}", c.kinds);

    // The server's side: 2026-07-28 only, the round answered by a retry.
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    assert_eq!(s.count("c2s request initialize") + s.count("c2s request ping"), 0, "{:?}", s.kinds);
    assert_eq!(s.count("s2c result InputRequiredResult"), 1, "{:?}", s.kinds);
    record_matches(&record, &client_side, &server_side);
}

#[test]
fn a_modern_python_sdk_client_uses_the_legacy_reference_server_through_the_bridge() {
    let server = node("node_modules/@modelcontextprotocol/server-everything/dist/index.js", &[]);
    for mode in ["pinned", "modern"] {
        let client = python("client_everything.py", &["--mode", mode]);
        let (_, client_side, server_side, record) =
            bridged(&format!("bridge-python-{mode}-to-everything-legacy"), &client, &[], &server, Checks::all(11));

        // The client spoke 2026-07-28: the server's questions came as input_required rounds.
        let c = judged(&client_side);
        assert_eq!(c.revision, "2026-07-28", "{mode}");
        assert_eq!(c.count("c2s request initialize"), 0, "{:?}", c.kinds);
        assert_eq!(c.count("s2c request"), 0, "a modern client takes no requests: {:?}", c.kinds);
        assert_eq!(c.count("s2c result InputRequiredResult"), 3, "sampling, elicitation, roots: {:?}", c.kinds);
        if mode == "modern" {
            assert_eq!(c.count("c2s request server/discover"), 1, "{:?}", c.kinds);
        }

        // The server spoke 2025-11-25, asked by requests, answered by the bridge for the client.
        let s = judged(&server_side);
        assert_eq!(s.revision, "2025-11-25", "{mode}");
        assert_eq!(s.count("c2s request initialize"), 1, "{:?}", s.kinds);
        assert_eq!(s.count("s2c request sampling/createMessage"), 1, "{:?}", s.kinds);
        assert_eq!(s.count("s2c request elicitation/create"), 1, "{:?}", s.kinds);
        assert_eq!(s.count("s2c request roots/list"), 1, "{:?}", s.kinds);
        assert_eq!(s.count("c2s result"), 3, "each answered: {:?}", s.kinds);
        record_matches(&record, &client_side, &server_side);
    }
}

#[test]
fn a_modern_python_sdk_client_uses_the_example_servers_legacy_side_through_the_bridge() {
    // Two elicitation rounds in one call, sampling and roots in another, a listen stream.
    let client = python("client.py", &["--mode", "pinned", "--bridged"]);
    let server = vec![example_server().display().to_string()];
    let (_, client_side, server_side, _) = bridged(
        "bridge-python-pinned-to-example-legacy",
        &client,
        &["--server-era", "legacy"],
        &server,
        Checks::all(19),
    );
    let c = judged(&client_side);
    assert_eq!(c.revision, "2026-07-28");
    assert!(c.count("s2c result InputRequiredResult") >= 4, "{:?}", c.kinds);
    assert_eq!(c.count("s2c notification notifications/subscriptions/acknowledged"), 1, "{:?}", c.kinds);
    let s = judged(&server_side);
    assert_eq!(s.revision, "2025-11-25");
    assert_eq!(s.count("c2s request server/discover"), 0, "--server-era legacy: no probe: {:?}", s.kinds);
    assert_eq!(s.count("s2c request elicitation/create"), 2, "{:?}", s.kinds);
}

#[test]
fn a_legacy_typescript_sdk_client_uses_a_modern_only_typescript_sdk_v2_server_through_the_bridge() {
    let client = node("client.mjs", &[]);
    // `--legacy reject`: the server refuses the initialize handshake; only the bridge lets this client in.
    let server = node("server_v2.mjs", &["--legacy", "reject"]);
    let (_, client_side, server_side, record) =
        bridged("bridge-ts-legacy-to-ts-v2-modern", &client, &[], &server, Checks::skipping(18, &[NO_CHANGE_EVENTS]));
    let c = judged(&client_side);
    assert_eq!(c.revision, "2025-11-25");
    assert_eq!(c.count("s2c request elicitation/create"), 2, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request sampling/createMessage"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request roots/list"), 1, "{:?}", c.kinds);
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    // The client's initialize went to the server first; its refusal told the bridge to translate.
    assert_eq!(s.count("c2s request initialize"), 1, "{:?}", s.kinds);
    assert_eq!(s.count("c2s request ping"), 0, "{:?}", s.kinds);
    assert!(s.count("s2c result InputRequiredResult") >= 3, "{:?}", s.kinds);
    record_matches(&record, &client_side, &server_side);
}

#[test]
fn a_modern_typescript_sdk_v2_client_uses_the_legacy_reference_server_through_the_bridge() {
    let server = node("node_modules/@modelcontextprotocol/server-everything/dist/index.js", &[]);
    let client = node("client_v2.mjs", &["--negotiation", "pinned", "--surface", "everything"]);
    let (_, client_side, server_side, record) =
        bridged("bridge-ts-v2-pinned-to-everything-legacy", &client, &[], &server, Checks::all(11));
    let c = judged(&client_side);
    assert_eq!(c.revision, "2026-07-28");
    assert_eq!(c.count("s2c request"), 0, "{:?}", c.kinds);
    assert_eq!(c.count("s2c result InputRequiredResult"), 3, "sampling, elicitation, roots: {:?}", c.kinds);
    let s = judged(&server_side);
    assert_eq!(s.revision, "2025-11-25");
    assert_eq!(s.count("c2s request initialize"), 1, "{:?}", s.kinds);
    assert_eq!(
        s.count("s2c request sampling/createMessage")
            + s.count("s2c request elicitation/create")
            + s.count("s2c request roots/list"),
        3,
        "{:?}",
        s.kinds
    );
    record_matches(&record, &client_side, &server_side);
}

#[test]
fn a_modern_typescript_sdk_v2_client_uses_an_older_legacy_server_at_2025_03_26_through_the_bridge() {
    // The TypeScript SDK 1.12.3's server answers the bridge's 2025-11-25 with
    // 2025-03-26: the bridge speaks that to it, each request checked as its type.
    let server = node("server_2025_03_26.mjs", &[]);
    let client = node("client_v2.mjs", &["--negotiation", "pinned", "--surface", "everything-2025-03-26"]);
    let (_, client_side, server_side, record) = bridged(
        "bridge-ts-v2-pinned-to-ts-2025-03-26",
        &client,
        &[],
        &server,
        Checks::skipping(10, &["elicitation (this surface has no tool that asks)"]),
    );
    let c = judged(&client_side);
    assert_eq!(c.revision, "2026-07-28");
    assert_eq!(c.count("s2c request"), 0, "{:?}", c.kinds);
    assert_eq!(c.count("s2c result InputRequiredResult"), 2, "sampling, roots: {:?}", c.kinds);
    // The server's side, judged with 2025-03-26's types: the version it answered.
    let s = judged(&server_side);
    assert_eq!(s.revision, "2025-03-26");
    assert_eq!(s.count("c2s request initialize"), 1, "{:?}", s.kinds);
    assert_eq!(s.count("s2c request sampling/createMessage"), 1, "{:?}", s.kinds);
    assert_eq!(s.count("s2c request roots/list"), 1, "{:?}", s.kinds);
    record_matches(&record, &client_side, &server_side);
}

/// The host snippets of `bridge/README.md` (a JSON block each: Claude Desktop's
/// and Cursor's `mcpServers`, VS Code's `servers`), as (command, args).
fn readme_snippets() -> Vec<(String, Vec<String>)> {
    let readme = std::fs::read_to_string(mcp_spec_testkit::workspace_root().join("bridge/README.md")).unwrap();
    let mut out = Vec::new();
    for block in readme.split("```json\n").skip(1) {
        let json = block.split("```").next().unwrap();
        let config: Value =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("a JSON block of the README: {e}\n{json}"));
        let servers = config.get("mcpServers").or_else(|| config.get("servers")).and_then(Value::as_object);
        for server in servers.expect("a host config names its servers").values() {
            let command = server["command"].as_str().unwrap().to_string();
            let args = server["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect();
            out.push((command, args));
        }
    }
    out
}

/// The README's host snippet works as a host runs it: the TypeScript SDK's
/// stdio client launches the `command` with the `args` as written (the
/// bridge found on `PATH`, as a host finds it after `cargo install`), the
/// server's own command after `--` standing for the user's server (here the
/// Python SDK's modern server); every check of the legacy client passes.
#[test]
fn the_readmes_host_snippet_launches_the_bridge_for_the_typescript_sdks_stdio_client() {
    let (snippets, remote): (Vec<_>, Vec<_>) =
        readme_snippets().into_iter().partition(|(_, args)| args.first().map(String::as_str) == Some("--"));
    assert_eq!(snippets.len(), 2, "the README has the mcpServers and the VS Code snippets: {snippets:?}");
    for (command, args) in &snippets {
        assert_eq!(command, "mcp-era-bridge", "{snippets:?}");
        assert!(args.len() > 1, "{args:?}");
    }
    // The remote servers' snippets (OAuth): the bridge takes their options as written; a client
    // that leaves at once ends it before anything is sent to the (example) server.
    assert_eq!(remote.len(), 2, "the README's OAuth snippets: {remote:?}");
    let store = peers::transcript_path("readme-oauth-snippets").with_extension("store");
    for (command, args) in &remote {
        assert_eq!(command, "mcp-era-bridge");
        assert_eq!(args.first().map(String::as_str), Some("--connect"), "{args:?}");
        let out = std::process::Command::new(bridge_bin())
            .args(args)
            .env("MCP_ERA_BRIDGE_OAUTH_STORE", &store)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let (command, args) = &snippets[0];
    // The user's server, in place of what follows `--`.
    let mut launched = vec![command.clone()];
    launched.extend(args.iter().take_while(|a| *a != "--").cloned());
    launched.push("--".into());
    launched.extend(python("server.py", &[]));
    let mut client = node("client.mjs", &[]);
    client.push("--".into());
    client.extend(launched);
    let installed = bridge_bin().parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(installed).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let out = Command::new(&client[0]).args(&client[1..]).env("PATH", path).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && stdout.contains("all checks passed"), "{}:\n{stdout}\n{stderr}", out.status);
    // The server speaks the client's era: passed through, the checks it has directly.
    Checks::skipping(18, &[NO_CHANGE_EVENTS]).assert_run("launched-without-dashes", &stdout);
    assert!(stderr.contains("mcp-era-bridge: the client is legacy"), "the bridge ran: {stderr}");
}
