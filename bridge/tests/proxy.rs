//! The proxy binary on its own, with stand-in servers (a few lines of Python):
//! its arguments, and the ways a session cannot start, each an exit with why
//! on stderr and no server left running.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The bridge as `cargo install --path bridge` builds it (a workspace test run
/// turns on other features of the types crate for `CARGO_BIN_EXE_*`).
fn bridge_bin() -> std::path::PathBuf {
    mcp_spec_testkit::as_installed("mcp-era-bridge", "mcp-era-bridge")
}

/// A legacy server that answers the probe with "method not found", writes its
/// pid to `pid_file`, and then ignores the end of its input (a server that
/// must be stopped).
const STUBBORN_LEGACY: &str = r#"
import json, os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
probe = json.loads(sys.stdin.readline())
print(json.dumps({"jsonrpc": "2.0", "id": probe["id"], "error": {"code": -32601, "message": "Method not found"}}), flush=True)
for _ in sys.stdin:
    pass
time.sleep(60)
"#;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("proxy");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs the bridge with `args`, its stdin given `input` and then closed.
fn bridge(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(bridge_bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// Whether a process runs: `kill -0`, which any Unix has (not `/proc`, which only Linux has).
fn alive(pid: &str) -> bool {
    Command::new("kill").args(["-0", pid.trim()]).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

#[test]
fn arguments_it_does_not_take_are_refused_with_the_usage_naming_the_option() {
    for (args, named) in [
        (&[][..], "no server"),
        (&["--server-era", "old", "--", "x"][..], "--server-era"),
        (&["--record"][..], "--record"),
        (&["--verbose", "--", "x"][..], "--verbose"),
        (&["--connect", "ftp://example.com", "x"][..], "--connect"),
    ] {
        let out = bridge(args, "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(named), "{args:?}: {stderr}");
        assert!(stderr.contains("Usage: mcp-era-bridge") || stderr.contains("try '--help'"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: stdout carries protocol only");
    }
}

#[test]
fn help_and_version_answer_and_exit_0() {
    let out = bridge(&["--help"], "");
    let help = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{help}");
    for option in ["--listen", "--connect", "--allow-origin", "--max-message", "--server-era", "--record", "--header"] {
        assert!(help.contains(option), "--help lists {option}: {help}");
    }
    assert!(help.contains("Examples:") && help.ends_with('\n'), "{help}");
    let out = bridge(&["--version"], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("mcp-era-bridge {}\n", env!("CARGO_PKG_VERSION")));
}

/// A stand-in server that writes its arguments to `argv[1]` and exits: what the bridge ran.
const WRITES_ITS_ARGUMENTS: &str = "import json, sys; open(sys.argv[1], 'w').write(json.dumps(sys.argv[2:]))";

/// Launchers that parse their own arguments drop a `--`: the server's command is
/// then the first argument that is not an option, and everything after it is
/// the server's, its options included.
#[test]
fn the_server_command_runs_with_or_without_dashes() {
    for dashes in [true, false] {
        let file = scratch(&format!("argv-{dashes}.json"));
        let path = file.display().to_string();
        let mut args = vec!["--server-era", "legacy"];
        if dashes {
            args.push("--");
        }
        args.extend(["python3", "-c", WRITES_ITS_ARGUMENTS, &path, "--record", "x", "--", "y"]);
        let out = bridge(&args, "");
        let ran = std::fs::read_to_string(&file).unwrap_or_else(|e| {
            panic!("dashes {dashes}: the server did not run ({e}): {}", String::from_utf8_lossy(&out.stderr))
        });
        assert_eq!(ran, r#"["--record", "x", "--", "y"]"#, "dashes {dashes}");
    }
}

/// Every option a host's config may find easier to set in the environment: the
/// variable is read as the option would be, and an option given wins.
#[test]
fn options_come_from_mcp_era_bridge_variables_too() {
    let record = scratch("from-env.jsonl");
    let mut child = Command::new(bridge_bin())
        .args(["--", "python3", "-c", "import sys; sys.stdin.read()"])
        .env("MCP_ERA_BRIDGE_SERVER_ERA", "legacy")
        .env("MCP_ERA_BRIDGE_RECORD", &record)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A legacy client's first message; the server (told legacy, no probe) never answers.
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    child.stdin.take().unwrap().write_all(format!("{init}\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let recorded = std::fs::read_to_string(&record).unwrap_or_default();
    assert!(
        recorded.contains("\"method\":\"initialize\""),
        "MCP_ERA_BRIDGE_RECORD: {recorded}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!recorded.contains("server/discover"), "MCP_ERA_BRIDGE_SERVER_ERA=legacy: no probe: {recorded}");
    let out = Command::new(bridge_bin()).args(["x"]).env("MCP_ERA_BRIDGE_SERVER_ERA", "old").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--server-era") && stderr.contains("old"),
        "the variable's error names its option: {stderr}"
    );
}

#[test]
fn a_server_that_is_not_modern_when_told_it_is_stops_the_bridge_and_is_stopped() {
    let pid_file = scratch("stubborn.pid");
    let pid = pid_file.display().to_string();
    let out = bridge(&["--server-era", "modern", "--", "python3", "-c", STUBBORN_LEGACY, &pid], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--server-era modern, but the server did not answer server/discover"), "{stderr}");
    assert!(out.stdout.is_empty(), "stdout carries protocol only: {}", String::from_utf8_lossy(&out.stdout));
    let pid = std::fs::read_to_string(&pid_file).expect("the server ran");
    assert!(!alive(&pid), "the server {pid} still runs after the bridge exited");
}

/// A legacy server as some SDKs' older majors build them: it exits (code 1)
/// when its first message is not `initialize`. Each start appends its pid to `argv[1]`.
const EXITS_UNLESS_INITIALIZE_FIRST: &str = r#"
import json, os, sys
open(sys.argv[1], "a").write(str(os.getpid()) + "\n")
first = True
for line in sys.stdin:
    msg = json.loads(line)
    if first and msg.get("method") != "initialize":
        sys.exit(1)
    first = False
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "strict", "version": "1"}}
    elif msg["method"] == "tools/list":
        result = {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"#;

/// A modern client's first request, and its answer read from the bridge's stdout.
fn modern_session(args: &[&str]) -> (serde_json::Value, String, std::process::ExitStatus) {
    use std::io::BufRead;
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}"#;
    let mut child = Command::new(bridge_bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{list}").unwrap();
    stdin.flush().unwrap();
    // The client waits for its answer, as a client does, before it leaves.
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let answer = serde_json::from_str(&first).unwrap_or_else(|e| panic!("{e}: {first:?}\n{stderr}"));
    (answer, stderr, out.status)
}

#[test]
fn a_server_that_exits_on_the_probe_is_started_again_once_and_spoken_to_as_legacy() {
    let starts = scratch("strict.pids");
    let path = starts.display().to_string();
    let (answer, stderr, status) = modern_session(&["--", "python3", "-c", EXITS_UNLESS_INITIALIZE_FIRST, &path]);
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("started again"), "{stderr}");
    assert_eq!(answer.pointer("/result/tools/0/name"), Some(&serde_json::json!("t")), "{answer}\n{stderr}");
    assert_eq!(answer.pointer("/result/resultType"), Some(&serde_json::json!("complete")), "translated: {answer}");
    let pids = std::fs::read_to_string(&starts).unwrap();
    assert_eq!(pids.lines().count(), 2, "started twice, never more: {pids}");
    assert!(pids.lines().all(|pid| !alive(pid)), "no server left running: {pids}");
}

#[test]
fn a_server_that_exits_again_ends_the_session_answering_the_held_request() {
    // Exits on anything: after its restart it exits on the handshake too.
    let (answer, stderr, status) =
        modern_session(&["--", "python3", "-c", "import sys; sys.stdin.readline(); sys.exit(1)"]);
    assert!(stderr.contains("started again"), "{stderr}");
    assert!(
        answer.get("error").is_some() && answer["id"] == 1,
        "the request waiting for the server is answered: {answer}\n{stderr}"
    );
    assert!(!status.success() || stderr.contains("the server exited"), "{stderr}");
}

/// A modern-only server that takes a while to start (its first read after `argv[1]` seconds).
const SLOW_MODERN: &str = r#"
import json, sys, time
time.sleep(float(sys.argv[1]))
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "server/discover":
        r = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0,
             "cacheScope": "private", "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "slow", "version": "0"}}}
    elif msg["method"] == "tools/list":
        r = {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "private"}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": r}), flush=True)
"#;

#[test]
fn the_probe_waits_for_a_slow_server_as_long_as_probe_timeout_says() {
    let (answer, stderr, _) = modern_session(&["--probe-timeout", "8", "--", "python3", "-c", SLOW_MODERN, "1.5"]);
    assert!(stderr.contains("the server is modern") && stderr.contains("passes through"), "{stderr}");
    assert_eq!(answer.pointer("/result/tools"), Some(&serde_json::json!([])), "{answer}");
    let (answer, stderr, _) = modern_session(&["--probe-timeout", "0.5", "--", "python3", "-c", SLOW_MODERN, "1.5"]);
    assert!(stderr.contains("no answer to server/discover in 500ms: taken for legacy"), "{stderr}");
    assert!(answer.get("error").is_some(), "a modern-only server taken for legacy refuses the handshake: {answer}");
}

#[test]
fn a_record_file_that_cannot_be_opened_stops_the_bridge_before_any_server_runs() {
    let pid_file = scratch("never.pid");
    let script = "import os, sys; open(sys.argv[1], 'w').write(str(os.getpid()))";
    let pid = pid_file.display().to_string();
    let out = bridge(&["--record", "/nonexistent/dir/record.jsonl", "--", "python3", "-c", script, &pid], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("/nonexistent/dir/record.jsonl"), "{stderr}");
    assert!(!pid_file.exists(), "the server ran");
}

/// SIGTERM (or SIGINT) ends a stdio session as the client closing does: the
/// server ended, the record's last line saying why, exit 0.
#[test]
fn a_signal_ends_the_session_and_its_server() {
    let pid_file = scratch("signalled.pid");
    let record = scratch("signalled.jsonl");
    let pid = pid_file.display().to_string();
    let mut child = Command::new(bridge_bin())
        .args(["--record", record.to_str().unwrap(), "--", "python3", "-c", STUBBORN_LEGACY, &pid])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !pid_file.exists() {
        assert!(std::time::Instant::now() < until, "the server did not start");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // The client keeps its end open (`wait` would close it): the signal alone ends the session.
    let stdin = child.stdin.take();
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(std::time::Instant::now() < until, "the bridge did not exit on SIGTERM");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    drop(stdin);
    assert!(status.success(), "{status}");
    let server = std::fs::read_to_string(&pid_file).expect("the server ran");
    assert!(!alive(&server), "the server {server} still runs after the bridge exited");
    let last = std::fs::read_to_string(&record).unwrap().lines().last().unwrap().to_string();
    assert!(last.contains(r#""end":"stopped by a signal""#), "{last}");
}

/// A legacy server that answers every method, `server/discover` included, with
/// an empty result: taken for legacy with a warning, and a modern client's
/// session is translated onto it.
const ANSWERS_EVERYTHING: &str = r#"
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    result = {}
    if msg["method"] == "initialize":
        result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "everything-ok", "version": "1"}}
    if msg["method"] == "tools/list":
        result = {"tools": []}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"#;

#[test]
fn a_server_answering_the_probe_with_no_discover_result_is_legacy_and_the_session_goes_on() {
    let (answer, stderr, status) = modern_session(&["--", "python3", "-c", ANSWERS_EVERYTHING]);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("not a DiscoverResult") && stderr.contains("taken for legacy"), "{stderr}");
    assert_eq!(answer.pointer("/result/tools"), Some(&serde_json::json!([])), "{answer}");
    assert_eq!(answer.pointer("/result/resultType"), Some(&serde_json::json!("complete")), "translated: {answer}");
}

#[test]
fn an_ignored_tool_is_not_listed_to_the_client() {
    let starts = scratch("ignored.pids");
    let path = starts.display().to_string();
    let args = [
        "--server-era",
        "legacy",
        "--ignore-tool",
        "x,t*",
        "--",
        "python3",
        "-c",
        EXITS_UNLESS_INITIALIZE_FIRST,
        &path,
    ];
    let (answer, stderr, status) = modern_session(&args);
    assert!(status.success(), "{stderr}");
    assert_eq!(answer.pointer("/result/tools"), Some(&serde_json::json!([])), "{answer}\n{stderr}");
    // Without it, the server's one tool is there.
    let (answer, _, _) =
        modern_session(&["--server-era", "legacy", "--", "python3", "-c", EXITS_UNLESS_INITIALIZE_FIRST, &path]);
    assert_eq!(answer.pointer("/result/tools/0/name"), Some(&serde_json::json!("t")), "{answer}");
}
