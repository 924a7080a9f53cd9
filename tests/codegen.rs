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
        assert!(other == content, "{} differs when generated from a copy:\n{}", path.display(), short_diff(content, other));
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
