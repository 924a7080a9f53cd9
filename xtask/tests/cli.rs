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
    for args in
        [&["diff", "2025-11-25", "2030-01-01"][..], &["registry", "--revision", "2030-01-01"], &["model", "nope"]]
    {
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

/// A copy of the spec folder's schemas in a fresh temporary folder.
fn spec_copy(tag: &str) -> std::path::PathBuf {
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/mcp-spec/schema");
    let to = std::env::temp_dir().join(format!("mcp-spec-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    for rev in std::fs::read_dir(&from).expect("the spec inputs beside the workspace").flatten() {
        let dir = to.join("schema").join(rev.file_name());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(rev.path().join("schema.ts"), dir.join("schema.ts")).unwrap();
    }
    to
}

#[test]
fn a_broken_schema_writes_nothing_and_check_never_writes() {
    let spec = spec_copy("broken");
    let out = spec.join("out");
    let ok = xtask(&["codegen", "--spec-dir", spec.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code(&ok), 0, "{}", String::from_utf8_lossy(&ok.stderr));
    let lib = std::fs::read(out.join("src/lib.rs")).unwrap();

    // Break one revision: the run fails, names the place, and leaves `out` alone.
    let ts = spec.join("schema/2025-06-18/schema.ts");
    let text = std::fs::read_to_string(&ts).unwrap() + "\nexport interface Broken {\n  broken: Missing;\n}\n";
    std::fs::write(&ts, text).unwrap();
    let failed = xtask(&["codegen", "--spec-dir", spec.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code(&failed), 1);
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(err.contains("reference to undeclared type `Missing`") && err.contains("2025-06-18/schema.ts:"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(std::fs::read(out.join("src/lib.rs")).unwrap(), lib);

    // `--check` on a stale crate reports it and changes nothing.
    std::fs::write(out.join("src/lib.rs"), b"// edited by hand\n").unwrap();
    let check = xtask(&["codegen", "--check", "--out", out.to_str().unwrap()]);
    assert_eq!(code(&check), 1);
    assert!(String::from_utf8_lossy(&check.stderr).contains("run `cargo xtask codegen`"));
    assert_eq!(std::fs::read(out.join("src/lib.rs")).unwrap(), b"// edited by hand\n");
    let _ = std::fs::remove_dir_all(&spec);
}
