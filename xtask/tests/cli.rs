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

/// The spec folder, found as the tool finds it (`MCP_SPEC_DIR`, then the
/// repository's pinned copy, `spec/mcp`); missing inputs fail loudly.
fn spec_dir() -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    mcp_spec_codegen::spec::locate_spec_dir(None, &root)
        .unwrap_or_else(|d| panic!("the MCP spec inputs are missing; these tests need them\n{}", d.render()))
}

/// Every file under `dir`, by relative path, with its bytes.
fn tree(dir: &std::path::Path) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// A copy of the spec folder's schemas in a fresh temporary folder.
fn spec_copy(tag: &str) -> std::path::PathBuf {
    let from = spec_dir().join("schema");
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
    let before = tree(&out);
    assert!(before.len() > 10, "the whole crate is written: {:?}", before.keys());

    // Break one revision: the run fails, names the place, and leaves `out` alone.
    let ts = spec.join("schema/2025-06-18/schema.ts");
    let text = std::fs::read_to_string(&ts).unwrap() + "\nexport interface Broken {\n  broken: Missing;\n}\n";
    std::fs::write(&ts, text).unwrap();
    let failed = xtask(&["codegen", "--spec-dir", spec.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code(&failed), 1);
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(err.contains("reference to undeclared type `Missing`") && err.contains("2025-06-18/schema.ts:"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(tree(&out) == before, "a failed run changed the output folder");

    // `--check` on a stale crate reports it and changes nothing.
    std::fs::write(out.join("src/lib.rs"), b"// edited by hand\n").unwrap();
    let check = xtask(&["codegen", "--check", "--out", out.to_str().unwrap()]);
    assert_eq!(code(&check), 1);
    assert!(String::from_utf8_lossy(&check.stderr).contains("run `cargo xtask codegen`"));
    let edited = tree(&out);
    std::fs::remove_file(out.join("src/negotiate.rs")).unwrap();
    let check = xtask(&["codegen", "--check", "--out", out.to_str().unwrap()]);
    assert_eq!(code(&check), 1, "a missing file is stale too");
    assert!(String::from_utf8_lossy(&check.stderr).contains("negotiate.rs"));
    std::fs::write(out.join("src/negotiate.rs"), &edited[std::path::Path::new("src/negotiate.rs")]).unwrap();
    assert!(tree(&out) == edited, "--check changed the output folder");
    let _ = std::fs::remove_dir_all(&spec);
}

/// Two small revisions whose diffs differ in kind: for each, `--fail-on K` exits 3
/// exactly when the report counts a change of kind K, so the three are told apart.
#[test]
fn fail_on_tells_breaking_wire_and_api_apart() {
    let base = "export interface GetThing {\n  name: string;\n  size: number;\n}\n\
                export interface Ping {\n  method: \"thing/ping\";\n}\nexport type Mode = \"a\" | \"b\";\n";
    let changed = [
        // the Rust API breaks, the wire does not: a type renamed (the `Ping`
        // message renamed would be no wire change either: `method-changed` is judged)
        ("api-only", base.replace("GetThing {", "GetThingRequest {").replace("Ping {", "PingNotification {")),
        // the wire breaks, the Rust type does not: a fixed value changed
        ("wire-only", base.replace("thing/ping", "thing/pong")),
        // both: a value added to a closed enum
        ("both", base.replace("\"a\" | \"b\"", "\"a\" | \"b\" | \"c\"")),
        // neither: docs only
        ("none", format!("/** A mode. */\n{base}")),
    ];
    let mut patterns = std::collections::BTreeSet::new();
    for (tag, new) in changed {
        let spec = std::env::temp_dir().join(format!("mcp-spec-cli-failon-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&spec);
        for (rev, text) in [("2030-01-01", base), ("2030-02-01", new.as_str())] {
            std::fs::create_dir_all(spec.join("schema").join(rev)).unwrap();
            std::fs::write(spec.join("schema").join(rev).join("schema.ts"), text).unwrap();
        }
        let dir = spec.to_str().unwrap();
        let json = xtask(&["diff", "2030-01-01", "2030-02-01", "--spec-dir", dir, "--format", "json"]);
        assert_eq!(code(&json), 0, "{tag}: {}", String::from_utf8_lossy(&json.stderr));
        let summary = serde_json::from_slice::<serde_json::Value>(&json.stdout).unwrap()["summary"].clone();
        let mut pattern = Vec::new();
        for kind in ["breaking", "wire", "api"] {
            let found = summary[kind].as_u64().unwrap() > 0;
            let o = xtask(&["diff", "2030-01-01", "2030-02-01", "--spec-dir", dir, "--fail-on", kind]);
            assert_eq!(code(&o), if found { 3 } else { 0 }, "{tag} --fail-on {kind}: summary {summary}");
            pattern.push(found);
        }
        patterns.insert((tag, pattern));
        let _ = std::fs::remove_dir_all(&spec);
    }
    let distinct: std::collections::BTreeSet<&Vec<bool>> = patterns.iter().map(|(_, p)| p).collect();
    assert_eq!(distinct.len(), 4, "the four changes should give four verdict patterns: {patterns:?}");
}

/// The schema's own ambiguities are one line each by default (with a count), the
/// full located diagnostics with `--verbose`.
#[test]
fn codegen_warnings_are_brief_unless_verbose() {
    let brief = xtask(&["codegen", "--check"]);
    assert_eq!(code(&brief), 0, "{}", String::from_utf8_lossy(&brief.stderr));
    let brief = String::from_utf8_lossy(&brief.stderr).into_owned();
    let lines: Vec<&str> = brief.lines().filter(|l| l.starts_with("warning: ")).collect();
    let count_line = brief.lines().find(|l| l.contains("warnings about the schema")).expect("a count");
    let count: usize = count_line.split_whitespace().next().unwrap().parse().unwrap();
    assert_eq!(lines.len(), count, "one line per warning:\n{brief}");
    assert!(lines.iter().all(|l| l.contains("schema.ts:") && l.contains("the rule picks")), "{brief}");
    let verbose = xtask(&["codegen", "--check", "--verbose"]);
    let verbose = String::from_utf8_lossy(&verbose.stderr).into_owned();
    assert_eq!(verbose.lines().filter(|l| l.starts_with("warning: ")).count(), count);
    assert!(verbose.contains("= hint:") && verbose.lines().count() > brief.lines().count() * 5, "{verbose}");
}

/// `cargo xtask model` shows the corrections of the override table on the members they correct.
#[test]
fn the_model_shows_the_generators_corrections() {
    let o = xtask(&["model", "2026-07-28"]);
    assert_eq!(code(&o), 0);
    let text = String::from_utf8_lossy(&o.stdout);
    let corrected: Vec<&str> = text.lines().filter(|l| l.contains("(corrected: ")).collect();
    assert!(corrected.iter().any(|l| l.contains("any number (`f64`)")), "{corrected:?}");
    assert!(corrected.iter().any(|l| l.contains("JSON-RPC 2.0 §5")), "{corrected:?}");
    let generated = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/src/v2026_07_28.rs"),
    )
    .unwrap();
    assert!(generated.matches("**Corrected by the generator:**").count() >= 2, "the docs show them too");
}

/// `--format html` from the command line: one self-contained page each (no
/// network, no external assets), what `tests/html.rs` loads in a browser.
#[test]
fn html_reports_are_self_contained_pages() {
    for args in [&["registry", "--format", "html"][..], &["diff", "2025-11-25", "2026-07-28", "--format", "html"]] {
        let o = xtask(args);
        assert_eq!(code(&o), 0, "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        let page = String::from_utf8_lossy(&o.stdout);
        assert!(page.to_lowercase().starts_with("<!doctype html>") && page.trim_end().ends_with("</html>"), "{args:?}");
        for external in ["src=\"http", "href=\"http://", "<link ", "@import", "fetch("] {
            assert!(!page.contains(external), "{args:?}: the page loads something from outside ({external})");
        }
        assert!(page.contains("<script>") && page.contains("<style>"), "{args:?}: scripts and styles are inline");
    }
}

#[test]
fn ext_reports_an_extensions_own_items_and_names_what_it_does_not_know() {
    let json = xtask(&["registry", "--ext", "tasks", "--format", "json"]);
    assert_eq!(code(&json), 0, "{}", String::from_utf8_lossy(&json.stderr));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON on stdout");
    let paths: Vec<&str> = v["entries"].as_array().unwrap().iter().filter_map(|e| e["path"].as_str()).collect();
    assert!(paths.contains(&"GetTaskRequest") && paths.contains(&"TaskStatus.\"working\""), "{paths:?}");
    // The core's items are the core's registry's, not repeated here.
    assert!(!paths.contains(&"InitializeRequest") && !paths.contains(&"Tool"), "{paths:?}");
    let same = xtask(&["diff", "draft", "draft", "--ext", "tasks", "--fail-on", "breaking"]);
    assert_eq!(code(&same), 0, "{}", String::from_utf8_lossy(&same.stderr));
    assert!(String::from_utf8_lossy(&same.stdout).starts_with("draft -> draft: 0 changes"));

    // An extension the manifest describes (Apps, from its npm package's `.d.ts`) as well.
    let apps = xtask(&["registry", "--ext", "apps", "--format", "json"]);
    assert_eq!(code(&apps), 0, "{}", String::from_utf8_lossy(&apps.stderr));
    let v: serde_json::Value = serde_json::from_slice(&apps.stdout).expect("JSON on stdout");
    let paths: Vec<&str> = v["entries"].as_array().unwrap().iter().filter_map(|e| e["path"].as_str()).collect();
    assert!(paths.contains(&"McpUiOpenLinkRequest") && !paths.contains(&"Tool"), "{paths:?}");

    let unknown = xtask(&["registry", "--ext", "nope"]);
    assert_eq!(code(&unknown), 2);
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown extension `nope`"));
    // An extension's revisions are its own folders: a core revision it has no folder for is unknown.
    let core_only = xtask(&["diff", "2026-07-28", "draft", "--ext", "tasks"]);
    assert_eq!(code(&core_only), 2);
    assert!(String::from_utf8_lossy(&core_only.stderr).contains("available: draft"));
}

/// Runs `git` in `dir` with a fixed identity and dates, so commits are the same on every machine.
fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .env("GIT_AUTHOR_DATE", "2030-01-02T03:04:05Z")
        .env("GIT_COMMITTER_DATE", "2030-01-02T03:04:05Z")
        .output()
        .expect("git runs");
    assert!(o.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// `spec-sync` takes exactly the files the manifest lists from a checkout (none of
/// upstream's others), records its commit, and `--check` lists each difference of
/// a later commit (a file changed, one added, one removed, the pin) until synced.
#[test]
fn spec_sync_copies_exactly_the_listed_files_and_check_lists_what_differs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pinned_mcp = root.join("spec/mcp");
    let work = std::env::temp_dir().join(format!("mcp-spec-cli-sync-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    // An upstream checkout: the pinned files, and files of upstream's the manifest does not take.
    let upstream = work.join("upstream");
    let mut taken = tree(&pinned_mcp);
    taken.remove(std::path::Path::new("README.md"));
    assert!(taken.len() >= 290, "the pinned copy holds {} files", taken.len());
    for (rel, bytes) in &taken {
        std::fs::create_dir_all(upstream.join(rel).parent().unwrap()).unwrap();
        std::fs::write(upstream.join(rel), bytes).unwrap();
    }
    for extra in ["README.md", "schema/draft/schema.mdx", "docs/specification/draft/server/tools.mdx", "package.json"] {
        std::fs::create_dir_all(upstream.join(extra).parent().unwrap()).unwrap();
        std::fs::write(upstream.join(extra), "not an input").unwrap();
    }
    git(&upstream, &["init", "--quiet"]);
    git(&upstream, &["add", "-A"]);
    git(&upstream, &["commit", "--quiet", "-m", "first"]);
    let first = git(&upstream, &["rev-parse", "HEAD"]);
    let pinned = work.join("spec");
    std::fs::create_dir_all(&pinned).unwrap();
    std::fs::copy(root.join("spec/sources.toml"), pinned.join("sources.toml")).unwrap();
    let sync = |check: bool| {
        let (from, into) = (upstream.to_str().unwrap(), pinned.to_str().unwrap());
        let mut args = vec!["spec-sync", "--from", from, "--into", into];
        if check {
            args.push("--check");
        }
        xtask(&args)
    };
    // Before the first sync, everything is to be added.
    let o = sync(true);
    assert_eq!(code(&o), 1);
    let added = String::from_utf8_lossy(&o.stdout).lines().filter(|l| l.starts_with("added: ")).count();
    assert_eq!(added, taken.len(), "{}", String::from_utf8_lossy(&o.stdout));

    let o = sync(false);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let mut written = tree(&pinned.join("mcp"));
    let readme = String::from_utf8(written.remove(std::path::Path::new("README.md")).expect("a README")).unwrap();
    assert_eq!(
        written, taken,
        "the synced folder is the pinned one, byte for byte, with none of upstream's other files"
    );
    assert!(readme.contains(&format!("at commit `{first}` (2030-01-02)")), "{readme}");
    let manifest = std::fs::read_to_string(pinned.join("sources.toml")).unwrap();
    assert!(manifest.contains(&format!("commit = \"{first}\"")), "{manifest}");
    assert_eq!(code(&sync(true)), 0, "a fresh sync checks clean");

    // A later upstream commit: one file changed, one added, one removed; one change outside the patterns.
    std::fs::write(upstream.join("schema/2025-11-25/schema.ts"), "export interface Changed {}\n").unwrap();
    std::fs::create_dir_all(upstream.join("schema/2027-01-01")).unwrap();
    std::fs::write(upstream.join("schema/2027-01-01/schema.ts"), "export interface New {}\n").unwrap();
    std::fs::remove_file(upstream.join("docs/specification/draft/deprecated.mdx")).unwrap();
    std::fs::write(upstream.join("schema/draft/schema.mdx"), "still not an input").unwrap();
    git(&upstream, &["add", "-A"]);
    git(&upstream, &["commit", "--quiet", "-m", "second"]);
    let second = git(&upstream, &["rev-parse", "HEAD"]);
    let o = sync(true);
    assert_eq!(code(&o), 1);
    let report = String::from_utf8_lossy(&o.stdout).into_owned();
    let expected = format!(
        "pin: recorded commit {first} (2030-01-02), upstream at commit {second} (2030-01-02)\n\
         added: schema/2027-01-01/schema.ts\n\
         removed: docs/specification/draft/deprecated.mdx\n\
         changed: schema/2025-11-25/schema.ts\n"
    );
    assert_eq!(report, expected);
    assert_eq!(code(&sync(false)), 0);
    assert_eq!(code(&sync(true)), 0, "synced again, it checks clean");
    assert!(!pinned.join("mcp/docs/specification/draft/deprecated.mdx").exists(), "a file upstream dropped is dropped");

    // A checkout of another repository is refused, naming what it lacks, and nothing is written.
    let o = xtask(&["spec-sync", "--from", work.join("spec").to_str().unwrap(), "--into", pinned.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no file `schema/*/schema.ts`"));
    assert_eq!(code(&sync(true)), 0, "the refused sync changed nothing");
    let _ = std::fs::remove_dir_all(&work);
}

/// Every file of the repository's pinned folders is one its source takes, and
/// each README is the one its source writes: a file dropped in by hand fails.
#[test]
fn the_pinned_folders_hold_exactly_what_their_sources_list() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = Vec::new();
    for (source, folder) in [("mcp", "mcp"), ("tasks", "ext/tasks"), ("ext-apps", "packages/ext-apps")] {
        // A folder compared with itself: only the pin cannot be told (it is not a checkout).
        let dir = root.join("spec").join(folder);
        let o = xtask(&["spec-sync", "--source", source, "--from", dir.to_str().unwrap(), "--check"]);
        assert_eq!(
            code(&o),
            0,
            "{source}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        checked.push(tree(&dir).len());
    }
    assert_eq!(checked, [300, 6, 3], "files per pinned folder (README included)");
    let o = xtask(&["spec-sync", "--source", "nope", "--from", "."]);
    assert_eq!(code(&o), 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown source `nope`; "));
}

/// A manifest naming a capability type its extension does not declare would
/// generate `pub type Capability = <nothing>;`: it is an error at the key, with
/// the closest declared names, and no crate is written.
#[test]
fn a_manifests_capability_must_name_a_declared_type() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let work = std::env::temp_dir().join(format!("mcp-spec-cli-capability-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let apps = root.join("spec/packages/ext-apps/dist/src/spec.types.d.ts").canonicalize().unwrap();
    let manifest = work.join("extensions.toml");
    let write = |capability: &str| {
        std::fs::write(
            &manifest,
            format!(
                "[[extension]]\nname = \"apps\"\nid = \"io.modelcontextprotocol/ui\"\ncapability = \"{capability}\"\n\
                 core-packages = [\"@modelcontextprotocol/client\", \"@modelcontextprotocol/sdk/types.js\"]\n\n\
                 [[extension.revision]]\nname = \"2026-01-26\"\nfile = {:?}\ncore = \"2025-11-25\"\n",
                apps.display().to_string()
            ),
        )
        .unwrap()
    };
    let out = work.join("out");
    let generate = || {
        xtask(&[
            "codegen",
            "--ext-manifest",
            manifest.to_str().unwrap(),
            "--ext-dir",
            work.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    write("McpUiClientCapabilites");
    let o = generate();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(code(&o), 1, "{err}");
    assert!(
        err.contains("`extension[0].capability` names `McpUiClientCapabilites`, which revision 2026-01-26 of extension `apps` does not declare"),
        "{err}"
    );
    assert!(err.contains("extensions.toml:4:14"), "the key's value is located: {err}");
    assert!(err.contains("the closest declared: `McpUiClientCapabilities`"), "{err}");
    assert!(!out.exists(), "nothing is written");
    // Named rightly, the same manifest generates.
    write("McpUiClientCapabilities");
    let o = generate();
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::read_to_string(out.join("src/ext/apps/v2026_01_26.rs"))
            .unwrap()
            .contains("pub type Capability = McpUiClientCapabilities;")
    );
    let _ = std::fs::remove_dir_all(&work);
}
