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
fn arguments_it_does_not_take_are_refused_with_the_usage() {
    for args in [&[][..], &["--server-era", "old", "--", "x"][..], &["--record"][..], &["--verbose", "--", "x"][..]] {
        let out = bridge(args, "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("usage: mcp-era-bridge"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: stdout carries protocol only");
    }
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

#[test]
fn a_server_that_exits_before_the_probe_is_answered_is_reported() {
    let out = bridge(&["--", "python3", "-c", "import sys; sys.stdin.readline()"], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the server exited before answering server/discover"), "{stderr}");
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
