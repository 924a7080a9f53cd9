//! The command line itself: exit codes and what it prints, run as a user runs it.

use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed")
}

#[test]
fn a_revision_diffed_with_itself_passes_every_fail_on() {
    for fail_on in ["breaking", "wire", "api", "none"] {
        for format in ["text", "markdown", "json"] {
            let o = xtask(&["diff", "2026-07-28", "2026-07-28", "--fail-on", fail_on, "--format", format]);
            assert_eq!(code(&o), 0, "--fail-on {fail_on}: {}", String::from_utf8_lossy(&o.stderr));
        }
    }
    let o = xtask(&["diff", "2026-07-28", "2026-07-28"]);
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("2026-07-28 -> 2026-07-28: 0 changes"));
}

#[test]
fn fail_on_sets_the_exit_code() {
    let breaking = xtask(&["diff", "2025-11-25", "2026-07-28", "--fail-on", "breaking"]);
    assert_eq!(code(&breaking), 3);
    assert!(String::from_utf8_lossy(&breaking.stdout).contains("type-removed"), "the report is printed too");
    assert_eq!(code(&xtask(&["diff", "2025-11-25", "2026-07-28", "--fail-on", "wire"])), 3);
    assert_eq!(code(&xtask(&["diff", "2025-11-25", "2026-07-28", "--fail-on", "api"])), 3);
    assert_eq!(code(&xtask(&["diff", "2025-11-25", "2026-07-28"])), 0, "the default is --fail-on none");
    let json = xtask(&["diff", "2025-11-25", "2026-07-28", "--format", "json", "--docs"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON on stdout");
    assert_eq!(v["format"], "mcp-spec-diff/1");
    assert_eq!(v["changes"].as_array().map(Vec::len), v["summary"]["changes"].as_u64().map(|n| n as usize));
}

#[test]
fn unknown_revisions_are_usage_errors_that_list_the_known_ones() {
    for args in [&["diff", "2025-11-25", "2030-01-01"][..], &["registry", "--revision", "2030-01-01"], &["model", "nope"]] {
        let o = xtask(args);
        assert_eq!(code(&o), 2, "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("available: 2024-11-05, 2025-03-26") && err.contains("draft"), "{err}");
    }
}

#[test]
fn a_missing_spec_folder_says_what_was_looked_for() {
    let o = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["codegen", "--check", "--spec-dir", "/nonexistent/spec"])
        .env_remove("MCP_SPEC_DIR")
        .output()
        .unwrap();
    assert_eq!(code(&o), 1);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("/nonexistent/spec") && err.contains("MCP_SPEC_DIR") && err.contains("default"), "{err}");
}

#[test]
fn the_registry_report_prints_in_every_format() {
    let text = xtask(&["registry", "--revision", "2026-07-28"]);
    assert_eq!(code(&text), 0);
    assert!(String::from_utf8_lossy(&text.stdout).contains("deprecated  ClientCapabilities.sampling"));
    let json = xtask(&["registry", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON on stdout");
    assert_eq!(v["format"], "mcp-spec-registry/1");
    let md = xtask(&["registry", "--format", "markdown", "--revision", "draft"]);
    assert!(String::from_utf8_lossy(&md.stdout).contains("## draft"));
}
