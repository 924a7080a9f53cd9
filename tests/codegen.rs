//! The generator's contract with the committed crate: fresh, deterministic,
//! independent of where it runs and of the order the file system lists things.

use mcp_spec_tests as support;

use std::path::{Path, PathBuf};

use mcp_spec_codegen::{Files, generate, output};

fn generate_ok(dir: &Path) -> Files {
    match generate(dir) {
        Ok(g) => g.files,
        Err(d) => panic!("generation failed:\n{}", d.render()),
    }
}

/// A few lines around the first difference, for the failure message.
fn short_diff(old: &str, new: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let mut out = format!("first difference at line {}:\n", first + 1);
    for l in a.iter().skip(first).take(3) {
        out.push_str(&format!("- {l}\n"));
    }
    for l in b.iter().skip(first).take(3) {
        out.push_str(&format!("+ {l}\n"));
    }
    out
}

#[test]
fn committed_crate_is_fresh() {
    let root = support::workspace_root();
    let files = generate_ok(&support::spec_dir());
    let out = root.join("generated");
    let stale = output::check_crate(&out, &files);
    let mut report = String::new();
    for s in &stale {
        report.push_str(&format!("{s}\n"));
        if let output::Stale::Changed(p) = s {
            let rel = p.strip_prefix(&out).unwrap();
            let old = std::fs::read_to_string(p).unwrap_or_default();
            report.push_str(&short_diff(&old, &files[rel]));
        }
    }
    assert!(stale.is_empty(), "generated/ is out of date; run `cargo xtask codegen` and commit it\n{report}");
}

#[test]
fn generation_is_deterministic_across_runs_folders_and_listing_order() {
    let spec = support::spec_dir();
    let first = generate_ok(&spec);
    let second = generate_ok(&spec);
    assert!(first == second, "two runs on the same inputs differ");

    // A copy of the spec made in reverse order (so the file system lists it
    // differently), reached through a different path.
    let tmp = std::env::temp_dir().join(format!("mcp-spec-determinism-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    copy_reversed(&spec, &tmp.join("elsewhere/spec"));
    let copied = generate_ok(&tmp.join("elsewhere/spec"));
    let _ = std::fs::remove_dir_all(&tmp);
    for (path, content) in &first {
        let other = copied.get(path).unwrap_or_else(|| panic!("{} missing from the copy's output", path.display()));
        assert!(
            other == content,
            "{} differs when generated from a copy:\n{}",
            path.display(),
            short_diff(content, other)
        );
    }
    assert_eq!(first.len(), copied.len());
}

fn copy_reversed(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(from).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    entries.reverse();
    for e in entries {
        let target = to.join(e.file_name().unwrap());
        if e.is_dir() {
            copy_reversed(&e, &target);
        } else {
            std::fs::copy(&e, &target).unwrap();
        }
    }
}

/// Every file under `dir`, with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_run_that_fails_midway_leaves_the_previous_crate_as_it_was() {
    let tmp = std::env::temp_dir().join(format!("mcp-spec-midway-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let out = tmp.join("generated");
    let first = generate_ok(&support::spec_dir());
    output::write_crate(&out, &first).unwrap();
    let before = snapshot(&out);
    assert_eq!(before.len(), first.len());

    let second: Files = first.iter().map(|(p, c)| (p.clone(), format!("{c}// a later run\n"))).collect();
    for fail_after in [1, 3, second.len()] {
        let mut written = 0;
        let result = output::write_crate_with(&out, &second, |_| {
            written += 1;
            if written == fail_after { Err(std::io::Error::other("interrupted")) } else { Ok(()) }
        });
        assert!(result.is_err(), "the hook's failure must abort the run");
        assert!(snapshot(&out) == before, "a run failing after {fail_after} files changed the crate");
        let leftovers: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("generated")], "temporary folders are cleaned up");
    }
    // A complete run replaces the crate, and `--check` then finds it fresh.
    output::write_crate(&out, &second).unwrap();
    assert!(output::check_crate(&out, &second).is_empty());
    assert_eq!(output::check_crate(&out, &first).len(), first.len(), "every file differs from the first run's");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The module of a revision that shares an earlier one's: nothing but a re-export.
fn reexported_module(text: &str) -> Option<String> {
    let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//") && !l.trim().is_empty()).collect();
    match code[..] {
        [line] => line.strip_prefix("pub use crate::").and_then(|l| l.strip_suffix("::*;")).map(str::to_string),
        _ => None,
    }
}

/// A module's text without comments and docs.
fn code_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect()
}

/// Checks which revisions of `dir` share a module (the generator decides from
/// the model) against the modules emitted in full, each on its own, and against
/// the typed diff: a revision re-exports the first earlier revision with a module
/// of its own whose full module is the same but for comments and docs, and from
/// which the diff finds no change but docs; its feature turns that one's on.
/// Returns the pairs.
fn check_sharing(dir: &Path) -> Vec<(String, String)> {
    let (spec, _) = mcp_spec_codegen::spec::load_spec(dir).unwrap_or_else(|d| panic!("{}", d.render()));
    let files = generate_ok(dir);
    let cargo = &files[Path::new("Cargo.toml")];
    let full: Vec<String> = spec
        .revisions
        .iter()
        .map(|r| {
            mcp_spec_codegen::emit::emit_module(r, &Default::default()).unwrap_or_else(|d| panic!("{}", d.render()))
        })
        .collect();
    let mut own: Vec<usize> = Vec::new();
    let mut pairs = Vec::new();
    for (i, rev) in spec.revisions.iter().enumerate() {
        let same_text = own.iter().copied().find(|&e| code_lines(&full[e]) == code_lines(&full[i]));
        let same_model = own
            .iter()
            .copied()
            .find(|&e| mcp_spec_codegen::diff::diff(&spec.revisions[e], rev).changes.iter().all(|c| c.is_docs()));
        assert_eq!(same_text, same_model, "{}: the emitted modules and the diff disagree", rev.name);
        let module = &files[Path::new(&format!("src/{}.rs", rev.module))];
        let feature = cargo.lines().find(|l| l.starts_with(&format!("{} = [", rev.module))).unwrap_or_default();
        match same_text.map(|e| &spec.revisions[e]) {
            Some(e) => {
                assert_eq!(reexported_module(module).as_deref(), Some(e.module.as_str()), "{}: {module}", rev.name);
                assert_eq!(feature, format!("{} = [\"{}\"]", rev.module, e.module));
                pairs.push((rev.name.clone(), e.name.clone()));
            }
            None => {
                assert_eq!(reexported_module(module), None, "{} differs from every earlier revision", rev.name);
                // (The crate's modules carry the registry's notes in their docs.)
                assert!(
                    code_lines(module) == code_lines(&full[i]),
                    "{}: its own module, as emitted on its own",
                    rev.name
                );
                assert_eq!(feature, format!("{} = []", rev.module));
                own.push(i);
            }
        }
    }
    pairs
}

#[test]
fn a_revision_shares_an_earlier_module_exactly_when_the_diff_finds_no_change() {
    // A spec made for it: a copy of a revision with other docs shares, one with a
    // member more or a deprecation does not, and a copy of the copy points at the first.
    let tmp = std::env::temp_dir().join(format!("mcp-spec-sharing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let base =
        std::fs::read_to_string(support::workspace_root().join("tests/fixtures/spec/schema/2025-06-01/schema.ts"))
            .unwrap();
    let redocumented =
        base.replacen("/**", "/**\n * Docs that only this revision has, with a [link](/specification/x).\n *", 1);
    assert_ne!(redocumented, base);
    let grown = base.replacen("export interface Tool {", "export interface Tool {\n  added?: string;", 1);
    assert_ne!(grown, base);
    // A deprecation is docs in schema.ts and `#[deprecated]` in Rust: not shared.
    let deprecated =
        base.replacen("export interface Tool {", "/** @deprecated Use something else. */\nexport interface Tool {", 1);
    assert_ne!(deprecated, base);
    for (name, text) in [
        ("2025-01-01", &base),
        ("2025-02-01", &redocumented),
        ("2025-03-01", &grown),
        ("2025-04-01", &redocumented),
        ("2025-05-01", &deprecated),
    ] {
        let dir = tmp.join("schema").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("schema.ts"), text).unwrap();
    }
    let pairs = check_sharing(&tmp);
    std::fs::remove_dir_all(&tmp).unwrap();
    let expected = [("2025-02-01", "2025-01-01"), ("2025-04-01", "2025-01-01")];
    assert_eq!(pairs, expected.map(|(a, b)| (a.to_string(), b.to_string())));

    // The spec inputs: whatever the diff says, the crate agrees.
    let pairs = check_sharing(&support::spec_dir());
    eprintln!("revisions sharing a module in the spec inputs: {pairs:?}");
}
