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

/// The committed crate's files, as `cargo xtask codegen` makes them: the spec
/// inputs and the extensions.
fn generate_committed() -> Files {
    let settings = mcp_spec_codegen::emit::Settings::default()
        .with_extensions(&mcp_spec_codegen::extension::ExtDir::named(support::ext_dir()))
        .with_manifest(&support::ext_manifest());
    match mcp_spec_codegen::generate_with(&support::spec_dir(), &settings) {
        Ok(g) => g.files,
        Err(d) => panic!("generation failed:\n{}", d.render()),
    }
}

#[test]
fn committed_crate_is_fresh() {
    let root = support::workspace_root();
    let files = generate_committed();
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
    // A file generation would not write is stale, in any folder: a source, a
    // note beside the manifest, anything but a build's `target/`.
    for stray in ["src/stray.rs", "src/shared/stray.rs", "src/rt/stray.rs", "NOTES.md", "src/data.json", "benches/b.rs"]
    {
        let path = out.join(stray);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "// left over\n").unwrap();
        assert_eq!(output::check_crate(&out, &second), [output::Stale::Extra(path.clone())], "{stray}");
        std::fs::remove_file(&path).unwrap();
    }
    std::fs::create_dir_all(out.join("target/debug")).unwrap();
    std::fs::write(out.join("target/debug/built"), "").unwrap();
    assert!(output::check_crate(&out, &second).is_empty(), "a build's target/ is not the generator's");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The module of a revision that shares an earlier one's: nothing but a re-export.
fn reexported_module(text: &str) -> Option<String> {
    // Comments, docs and the file's inner attributes (its mark for rustfmt) aside.
    let code: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//") && !l.starts_with("#![") && !l.trim().is_empty())
        .collect();
    match code[..] {
        [line] => line.strip_prefix("pub use crate::").and_then(|l| l.strip_suffix("::*;")).map(str::to_string),
        _ => None,
    }
}

/// A module's text without comments and docs.
fn code_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect()
}

/// The notes the crate adds to each revision module's docs.
fn crate_notes(spec: &mcp_spec_codegen::Spec) -> mcp_spec_codegen::emit::RevisionNotes {
    mcp_spec_codegen::emit::registry::look_ahead_notes(spec, &mcp_spec_codegen::registry::build(spec))
}

/// The items a crate module re-exports from `src/shared/`: item → shared module.
fn reexported_items(module: &str) -> std::collections::BTreeMap<String, String> {
    module
        .lines()
        .filter_map(|l| l.strip_prefix("pub use crate::shared::")?.strip_suffix(';')?.split_once("::"))
        .map(|(m, item)| (item.to_string(), m.to_string()))
        .collect()
}

/// Checks which revisions of `dir` share a module (the generator decides from
/// the model) against the modules emitted in full, each on its own, and against
/// the typed diff: a revision re-exports the first earlier revision with a module
/// of its own whose full module is the same but for comments and docs, and from
/// which the diff finds no change but docs; its feature turns that one's on. A
/// revision with a module of its own has every item of its full module, there or
/// re-exported from `src/shared/` (see `check_item_sharing`). Returns the pairs.
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
                assert_eq!(feature, format!("{} = []", rev.module));
                own.push(i);
            }
        }
    }
    let own: Vec<&mcp_spec_codegen::model::Revision> = own.iter().map(|&i| &spec.revisions[i]).collect();
    check_item_sharing(&spec, &own, &files);
    pairs
}

/// Checks the items revision modules share against each one's items emitted
/// on their own (with the crate's notes): every item is in its module as
/// emitted, or re-exported from a shared module that holds that same text and
/// is re-exported by exactly the run of adjacent modules whose text of it is
/// that; an item not shared by adjacent modules that have the same text of it
/// mentions one they do not share. Returns the shared items, by revision.
fn check_item_sharing(
    spec: &mcp_spec_codegen::Spec,
    own: &[&mcp_spec_codegen::model::Revision],
    files: &Files,
) -> Vec<std::collections::BTreeMap<String, String>> {
    use std::collections::BTreeMap;
    let notes = crate_notes(spec);
    let empty = Default::default();
    let texts: Vec<BTreeMap<String, String>> = own
        .iter()
        .map(|r| {
            let t = mcp_spec_codegen::emit::module_text(r, notes.get(&r.module).unwrap_or(&empty))
                .unwrap_or_else(|d| panic!("{}", d.render()));
            t.items.into_iter().map(|i| (i.name, i.text)).collect()
        })
        .collect();
    let shared: Vec<BTreeMap<String, String>> =
        own.iter().map(|r| reexported_items(&files[Path::new(&format!("src/{}.rs", r.module))])).collect();
    // Each shared module's revisions: those that re-export from it.
    let mut runs: BTreeMap<&str, std::collections::BTreeSet<usize>> = BTreeMap::new();
    for (k, s) in shared.iter().enumerate() {
        for m in s.values() {
            runs.entry(m.as_str()).or_default().insert(k);
        }
    }
    for (k, rev) in own.iter().enumerate() {
        let module = &files[Path::new(&format!("src/{}.rs", rev.module))];
        for (name, text) in &texts[k] {
            match shared[k].get(name) {
                None => assert!(module.contains(text.as_str()), "{}: {name} is not in its module as emitted", rev.name),
                Some(m) => {
                    let file = &files[Path::new(&format!("src/shared/{m}.rs"))];
                    assert!(
                        file.contains(text.as_str()),
                        "{}: {name} in shared/{m} is not as the revision emits it",
                        rev.name
                    );
                    // The module is named for the run of revisions that re-export it.
                    let run: Vec<&str> = (0..own.len())
                        .filter(|&j| shared[j].get(name) == Some(m))
                        .map(|j| own[j].module.as_str())
                        .collect();
                    assert_eq!(m, &format!("{}_to_{}", run[0], run[run.len() - 1]), "{name}");
                    let first = own.iter().position(|r| r.module == run[0]).unwrap_or_default();
                    for j in first..first + run.len() {
                        assert_eq!(own[j].module, run[j - first], "{name}: {m} is re-exported by adjacent modules");
                        assert_eq!(texts[j].get(name), Some(text), "{name}: its text in {}", own[j].name);
                    }
                }
            }
        }
        // The whole module: as emitted on its own, each shared item's text in
        // place of its re-export.
        let mut expected = mcp_spec_codegen::emit::emit_module(rev, notes.get(&rev.module).unwrap_or(&empty)).unwrap();
        for (name, m) in &shared[k] {
            expected = expected.replacen(texts[k][name].as_str(), &format!("pub use crate::shared::{m}::{name};\n"), 1);
        }
        let solid = |t: &str| -> Vec<String> {
            code_lines(t).into_iter().filter(|l| !l.trim().is_empty()).map(str::to_string).collect()
        };
        let (want, got) = (solid(&expected), solid(module));
        assert!(want == got, "{}: {}", rev.name, short_diff(&want.join("\n"), &got.join("\n")));
        // What a shared item mentions is shared over (at least) the same revisions.
        for (name, m) in &shared[k] {
            for mentioned in mcp_spec_codegen::emit::share::mentions(&texts[k][name], rev, name) {
                let from = shared[k].get(&mentioned).unwrap_or_else(|| panic!("{name} mentions {mentioned}, its own"));
                assert!(
                    runs[m.as_str()].is_subset(&runs[from.as_str()]),
                    "{name} in {m} mentions {mentioned} of {from}"
                );
            }
        }
        if k == 0 {
            continue;
        }
        // Kept apart although the text is the same: something it mentions (in
        // either revision) is not shared.
        for (name, text) in &texts[k] {
            if texts[k - 1].get(name) != Some(text)
                || shared[k].get(name).is_some_and(|m| shared[k - 1].get(name) == Some(m))
            {
                continue;
            }
            let mut mentions = mcp_spec_codegen::emit::share::mentions(text, rev, name);
            mentions.extend(mcp_spec_codegen::emit::share::mentions(text, own[k - 1], name));
            let apart = mentions.iter().any(|m| match (shared[k].get(m), shared[k - 1].get(m)) {
                (Some(a), Some(b)) => a != b,
                _ => true,
            });
            assert!(
                apart,
                "{}: {name} has the text it has in {} and mentions only items they share, yet is not shared",
                rev.name,
                own[k - 1].name
            );
        }
    }
    shared
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

#[test]
fn adjacent_revisions_share_an_item_exactly_when_it_and_all_it_mentions_are_the_same() {
    // A spec made for it, of three revisions: the first, then one where some items
    // change, then a copy of the second with other docs on the module's first item.
    let tmp = std::env::temp_dir().join(format!("mcp-spec-item-sharing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let base =
        std::fs::read_to_string(support::workspace_root().join("tests/fixtures/spec/schema/2025-06-01/schema.ts"))
            .unwrap();
    // The same text in every revision, but a doc link to `Tool`, which changes.
    // A type whose name starts in lower case is mentioned like any other.
    let first = format!(
        "{base}\n/** Names a {{@link Tool}}. */\nexport interface ToolRef {{\n  name: string;\n}}\n\
         export interface note_box {{\n  note: Note;\n}}\nexport interface Holder {{\n  held: note_box;\n}}\n\
         /** Says Tool in prose, not in a link. */\nexport interface Prose {{\n  text: string;\n}}\n"
    );
    let second = first
        .replacen("export interface Tool {", "export interface Tool {\n  added?: string;", 1)
        .replacen(
            "export interface Note {\n  text: string;",
            "export interface Note {\n  text: string;\n  lang?: string;",
            1,
        )
        .replacen("export interface Dot {", "/** A dot, now documented. */\nexport interface Dot {", 1);
    let third = second.replacen("export const MAX_TOOLS = 64;", "export const MAX_TOOLS = 65;", 1);
    for (name, text) in [("2025-01-01", &first), ("2025-02-01", &second), ("2025-03-01", &third)] {
        assert!(name == "2025-01-01" || text != &first);
        let dir = tmp.join("schema").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("schema.ts"), text).unwrap();
    }
    let (spec, _) = mcp_spec_codegen::spec::load_spec(&tmp).unwrap_or_else(|d| panic!("{}", d.render()));
    // Written to target/downstream below: its manifest names the runtime from there.
    let dir = support::workspace_root().join("target/downstream/item-sharing");
    let files = mcp_spec_codegen::generate_from_with(&spec, &mcp_spec_codegen::emit::Settings::writing_to(&dir))
        .unwrap_or_else(|d| panic!("{}", d.render()));
    std::fs::remove_dir_all(&tmp).unwrap();
    let own: Vec<&mcp_spec_codegen::model::Revision> = spec.revisions.iter().collect();
    let shared = check_item_sharing(&spec, &own, &files);
    let (all, later) = ("v2025_01_01_to_v2025_03_01", "v2025_02_01_to_v2025_03_01");
    let expected = [
        // Unchanged, and mentions only what is unchanged.
        ("Link", [Some(all), Some(all), Some(all)]),
        ("Request", [Some(all), Some(all), Some(all)]),
        // A name in prose is not a mention: rustdoc resolves only links.
        ("Prose", [Some(all), Some(all), Some(all)]),
        // Changed in the second revision, then the same.
        ("Tool", [None, Some(later), Some(later)]),
        ("Note", [None, Some(later), Some(later)]),
        // Its docs changed: docs are part of what is shared.
        ("Dot", [None, Some(later), Some(later)]),
        // The same text throughout, but mentions an item that changed: in code (a
        // member's type, a union's member, the result type of a `Request` impl) or
        // in a doc link.
        ("Card", [None, Some(later), Some(later)]),
        ("Mark", [None, Some(later), Some(later)]),
        ("ListToolsResult", [None, Some(later), Some(later)]),
        ("ListToolsRequest", [None, Some(later), Some(later)]),
        ("ToolRef", [None, Some(later), Some(later)]),
        ("note_box", [None, Some(later), Some(later)]),
        ("Holder", [None, Some(later), Some(later)]),
        // Changed in the third: the first two share it.
        ("MAX_TOOLS", [Some("v2025_01_01_to_v2025_02_01"), Some("v2025_01_01_to_v2025_02_01"), None]),
    ];
    for (item, modules) in expected {
        let found: Vec<Option<&str>> = shared.iter().map(|s| s.get(item).map(String::as_str)).collect();
        assert_eq!(found, modules, "{item}");
    }
    // The crate compiles, and its docs build, without a warning (a doc link that
    // does not resolve is one), with each revision alone and with all.
    let _ = std::fs::remove_dir_all(&dir);
    output::write_crate(&dir, &files).unwrap();
    let manifest = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}\n[workspace]\n")).unwrap();
    support::lock_like_root(&dir).unwrap_or_else(|e| panic!("{e}"));
    let features: Vec<&str> = spec.revisions.iter().map(|r| r.module.as_str()).chain(["all-revisions"]).collect();
    for (command, feature) in features.iter().flat_map(|f| [("check", *f), ("doc", *f)]) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut args = vec![
            command,
            "--locked",
            "--offline",
            "--quiet",
            "--message-format",
            "short",
            "--no-default-features",
            "--features",
            feature,
        ];
        if command == "doc" {
            args.push("--no-deps");
        }
        let out = std::process::Command::new(cargo)
            .args(&args)
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", support::workspace_root().join("target/downstream/target"))
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .output()
            .expect("cargo runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && !stderr.contains("warning"), "cargo {command}, feature {feature}:\n{stderr}");
    }
    // Each shared module is compiled when one of its revisions is, and brings in
    // what its items mention from another.
    let index = &files[Path::new("src/shared.rs")];
    assert!(index.contains("feature = \"v2025_02_01\", feature = \"v2025_03_01\""), "{index}");
    let later_file = &files[Path::new(&format!("src/shared/{later}.rs"))];
    assert!(later_file.contains(&format!("use super::{all}::Request;")), "{later_file}");
}

#[test]
fn two_revisions_have_one_rust_type_exactly_where_their_modules_share_it() {
    use std::collections::BTreeMap;
    let generated = support::workspace_root().join("generated/src");
    // What the committed files say: a module re-exported whole (`draft`), and the
    // items each module re-exports from `src/shared/`.
    let mut whole: BTreeMap<&str, String> = BTreeMap::new();
    let mut items: BTreeMap<&str, BTreeMap<String, String>> = BTreeMap::new();
    let module_of = |rev: &str| if rev == "draft" { rev.to_string() } else { format!("v{}", rev.replace('-', "_")) };
    for rev in mcp_spec_types::REVISIONS {
        let text = std::fs::read_to_string(generated.join(format!("{}.rs", module_of(rev)))).unwrap();
        if let Some(of) = reexported_module(&text) {
            whole.insert(rev, of);
        }
        items.insert(rev, reexported_items(&text));
    }
    let source = |rev: &'static str| -> &'static str {
        let m = whole.get(rev).map(String::as_str).unwrap_or_default();
        mcp_spec_types::REVISIONS.iter().find(|r| module_of(r) == m).copied().unwrap_or(rev)
    };
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let aliases: std::collections::BTreeSet<&str> = spec
        .revisions
        .iter()
        .flat_map(|r| r.items.values())
        .filter(|i| matches!(i.kind, mcp_spec_codegen::model::ItemKind::Alias(_)))
        .map(|i| i.name.as_str())
        .collect();
    let (mut same, mut by_item, mut apart) = (0, 0, 0);
    for (i, a) in mcp_spec_types::REVISIONS.iter().enumerate() {
        for b in &mcp_spec_types::REVISIONS[i + 1..] {
            let (ta, tb) = (support::types_of(a), support::types_of(b));
            for ea in ta {
                let Some(eb) = tb.iter().find(|e| e.name == ea.name) else { continue };
                // An alias's `TypeId` is its target's.
                if aliases.contains(ea.name) {
                    continue;
                }
                let (sa, sb) = (source(a), source(b));
                let files_say = sa == sb
                    || matches!((items[sa].get(ea.name), items[sb].get(ea.name)), (Some(x), Some(y)) if x == y);
                let rust_says = (ea.type_id)() == (eb.type_id)();
                assert_eq!(rust_says, files_say, "{} in {a} and {b}", ea.name);
                if rust_says {
                    same += 1
                } else {
                    apart += 1
                }
                if rust_says && sa != sb {
                    by_item += 1;
                }
            }
        }
    }
    // At the last count: 110 shared item by item, 1,404 apart (floors within 10%).
    assert!(by_item >= 99 && apart >= 1260, "{same} pairs of one type ({by_item} shared item by item), {apart} of two");
}

/// Every `object!` call lists each wire once, and a struct of more members than
/// one tuple of slots holds has them in groups of exactly that many but the
/// last: the runtime finds a key's group by dividing its position, so a short
/// group would read a member into another member's slot and still compile.
#[test]
fn every_object_call_groups_its_members_as_the_runtime_reads_them() {
    let per_group = mcp_spec_types::rt::SLOTS_PER_GROUP;
    let files = generate_committed();
    let fixtures =
        mcp_spec_codegen::generate_from(&support::fixture_spec()).unwrap_or_else(|d| panic!("{}", d.render()));
    let (mut calls, mut grouped) = (0, 0);
    for (path, text) in files.iter().chain(fixtures.iter()) {
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if line != "crate::rt::object! {" {
                continue;
            }
            calls += 1;
            let header = lines.next().unwrap_or_default().trim().to_string();
            if header.ends_with("{}") {
                continue;
            }
            let (mut wires, mut groups) = (Vec::new(), Vec::new());
            for member in lines.by_ref().take_while(|l| *l != "    }") {
                match member.trim() {
                    "[" => groups.push(0),
                    "]" => {}
                    member => {
                        let wire = member.split('"').nth(1).unwrap_or_default().to_string();
                        assert!(!wire.is_empty(), "{}: {header}: {member}", path.display());
                        assert!(!wires.contains(&wire), "{}: {header}: {wire} twice", path.display());
                        wires.push(wire);
                        if let Some(n) = groups.last_mut() {
                            *n += 1;
                        }
                    }
                }
            }
            let place = format!("{}: {header}", path.display());
            if wires.len() <= per_group {
                assert!(groups.is_empty(), "{place}: {} members in groups", wires.len());
                continue;
            }
            grouped += 1;
            assert_eq!(groups.iter().sum::<usize>(), wires.len(), "{place}: a member outside the groups");
            let (last, full) = groups.split_last().unwrap();
            assert!(
                full.iter().all(|n| *n == per_group) && (1..=per_group).contains(last),
                "{place}: groups {groups:?}"
            );
        }
    }
    assert!(
        calls >= 510,
        "only {calls} object! calls found (567 at the last count): the layout this test reads has changed"
    );
    // The Apps extension's `McpUiStyles` (76 members; the golden fixtures' `Palette`
    // is read in `golden.rs`).
    assert!(grouped >= 1, "no grouped call: the layout this test reads has changed");
}

/// A schema.ts with a byte-order mark and CRLF line ends (a Windows checkout of
/// upstream's repository) generates the same crate, byte for byte, as the file
/// with LF ends: the text is normalised before it is read and hashed.
#[test]
fn a_crlf_or_bom_schema_generates_byte_identical_output() {
    let source = support::spec_dir().join("schema/2026-07-28/schema.ts");
    let text = std::fs::read_to_string(&source).unwrap();
    assert!(!text.contains('\r'), "the pinned input has LF ends");
    let tmp = std::env::temp_dir().join(format!("mcp-spec-crlf-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let mut crates = Vec::new();
    for (name, bytes) in [
        ("lf", text.clone().into_bytes()),
        ("crlf-bom", format!("\u{feff}{}", text.replace('\n', "\r\n")).into_bytes()),
    ] {
        let dir = tmp.join(name).join("schema/2026-07-28");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("schema.ts"), bytes).unwrap();
        crates.push(generate_ok(&tmp.join(name)));
    }
    std::fs::remove_dir_all(&tmp).unwrap();
    assert_eq!(crates[0].len(), crates[1].len());
    for (path, lf) in &crates[0] {
        assert!(crates[1].get(path) == Some(lf), "{} differs between the LF and the CRLF + BOM schema", path.display());
    }
}

/// Adding a revision needs no code change: the spec inputs copied, with a
/// `schema/2027-01-01/` beside them (today's newest with its version and one
/// member more), generate a crate whose `latest`, default feature,
/// `PROTOCOL_VERSIONS`, negotiation, registry and diff all have the new revision,
/// and so do the method facts and the results by method a proxy routes by.
#[test]
fn a_revision_dropped_in_is_picked_up_with_no_code_change() {
    let base = support::workspace_root().join("target/downstream/drop-in");
    let _ = std::fs::remove_dir_all(&base);
    let (spec_dir, out) = (base.join("spec"), base.join("generated"));
    copy_dir(&support::spec_dir().join("schema"), &spec_dir.join("schema"));
    let newest = std::fs::read_to_string(spec_dir.join("schema/2026-07-28/schema.ts")).unwrap();
    let dropped = newest
        .replacen("LATEST_PROTOCOL_VERSION = \"2026-07-28\"", "LATEST_PROTOCOL_VERSION = \"2027-01-01\"", 1)
        .replacen(
            "export interface Implementation extends BaseMetadata, Icons {",
            "export interface Implementation extends BaseMetadata, Icons {\n  /** A short name. */\n  nickname?: string;",
            1,
        );
    assert_ne!(dropped, newest);
    std::fs::create_dir_all(spec_dir.join("schema/2027-01-01")).unwrap();
    std::fs::write(spec_dir.join("schema/2027-01-01/schema.ts"), dropped).unwrap();

    let generated = mcp_spec_codegen::generate_with(&spec_dir, &mcp_spec_codegen::emit::Settings::writing_to(&out))
        .unwrap_or_else(|d| panic!("{}", d.render()));
    output::write_crate(&out, &generated.files).unwrap();
    let manifest = &generated.files[Path::new("Cargo.toml")];
    assert!(manifest.contains("default = [\"v2027_01_01\"]"), "{manifest}");
    assert!(manifest.contains("\nv2027_01_01 = []\n"), "{manifest}");
    assert!(generated.files[Path::new("src/lib.rs")].contains("pub use v2027_01_01 as latest;"));
    // The diff from 2026-07-28 is what was changed, and nothing else.
    let spec = &generated.spec;
    let d = mcp_spec_codegen::diff::diff(spec.revision("2026-07-28").unwrap(), spec.revision("2027-01-01").unwrap());
    let changes: Vec<(&str, &str)> = d.changes.iter().map(|c| (c.id.as_str(), c.path.as_str())).collect();
    assert_eq!(
        changes,
        [("field-added-optional", "Implementation.nickname"), ("const-value-changed", "LATEST_PROTOCOL_VERSION")]
    );
    // The crate, used as a downstream crate uses it, with the new default and 2026-07-28.
    let main = r##"
use mcp_spec_types as t;
use t::negotiate::{Offer, negotiate};
use t::registry::State;
fn main() {
    assert_eq!(t::PROTOCOL_VERSIONS, &["2026-07-28", "2027-01-01"]);
    assert_eq!(t::REVISIONS.iter().filter(|r| **r == "2027-01-01").count(), 1);
    assert_eq!(t::latest::LATEST_PROTOCOL_VERSION, "2027-01-01");
    let me = t::latest::Implementation::new("client", "1.0").with_nickname("c");
    assert_eq!(serde_json::to_value(&me).unwrap()["nickname"], "c");
    let theirs = ["2026-07-28".to_string(), "2027-01-01".to_string()];
    assert_eq!(negotiate(Offer::Discovered(&theirs), t::PROTOCOL_VERSIONS), Some("2027-01-01"));
    assert_eq!(negotiate(Offer::Requested("2027-01-01"), t::PROTOCOL_VERSIONS), Some("2027-01-01"));
    assert!(!t::negotiate::has_initialize("2027-01-01"));
    assert_eq!(t::registry::revision_for_protocol_version("2027-01-01"), Some("2027-01-01"));
    assert_eq!(t::registry::state("2027-01-01", "Implementation.nickname"), Some(&State::Active));
    assert_eq!(t::registry::state("2026-07-28", "Implementation.nickname"), Some(&State::Absent));
    // What a proxy routes a method by (the era bridge: METHODS' facts, results
    // read by method and converted by method to the adjacent revision) is there
    // for the new revision with no code change.
    let call = t::v2027_01_01::METHODS.iter().find(|m| m.method == "tools/call").unwrap();
    assert_eq!((call.complete, call.may_ask_for_input, call.cacheable), (Some("CallToolResult"), true, false));
    let list = t::v2027_01_01::METHODS.iter().find(|m| m.method == "tools/list").unwrap();
    assert!(list.cacheable && !list.may_ask_for_input);
    let text = r#"{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"private"}"#;
    let read = t::v2027_01_01::AnyResult::read("tools/list", text).unwrap().unwrap();
    let back = t::v2026_07_28::AnyResult::try_from(read).unwrap();
    assert_eq!(back.type_name(), "ListToolsResult");
    assert!(t::v2027_01_01::AnyResult::try_from(back).is_ok());
    println!("ok");
}
"##;
    let run = support::downstream_of(&out, "drop-in-user", &["default", "v2026_07_28"], &[], main, "run");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success() && String::from_utf8_lossy(&run.stdout).trim() == "ok", "{stderr}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The non-generic functions of `text` that instantiate a type's serde reading
/// or a conversion (`from_str::<T>`, `convert_step`) without `#[inline]`: each
/// would be compiled inside the types crate, every reader it names with it,
/// instead of where it is called (`AnyResult::read` was, and tripled the
/// crate's build). Returned as `name (line)`.
fn serde_instantiated_here(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix("pub fn ").or_else(|| t.strip_prefix("fn ")) else { continue };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        // Its signature, to the body's opening brace.
        let mut end = i;
        while end < lines.len() && !lines[end].trim_end().ends_with('{') {
            end += 1;
        }
        let signature = lines[i..=end.min(lines.len() - 1)].join(" ");
        if rest[name.len()..].starts_with('<') || signature.contains("impl ") {
            continue; // generic: instantiated where used
        }
        let mut depth = 0i32;
        let mut body = String::new();
        for l in &lines[end..] {
            depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
            body.push_str(l);
            if depth <= 0 {
                break;
            }
        }
        if !(body.contains("from_str::<") || body.contains("convert_step(")) {
            continue;
        }
        let attributes = lines[..i].iter().rev().take_while(|l| {
            let l = l.trim_start();
            l.starts_with("#[") || l.starts_with("///") || l.starts_with("//")
        });
        if !attributes.into_iter().any(|l| l.trim() == "#[inline]") {
            found.push(format!("{name} (line {})", i + 1));
        }
    }
    found
}

/// Every function of the generated crate that instantiates serde readers or
/// conversions is generic or `#[inline]`, so the types crate compiles none of
/// them itself. Checked to find one: the committed `AnyResult::read` without
/// its `#[inline]`.
#[test]
fn no_generated_function_compiles_serde_readers_inside_the_types_crate() {
    let root = support::workspace_root().join("generated/src");
    let mut files = vec![root.clone()];
    let (mut checked, mut instantiating, mut found) = (0, 0, Vec::new());
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().flatten().map(|e| e.path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        checked += 1;
        instantiating += text.matches("from_str::<").count() + text.matches("convert_step(").count();
        found.extend(serde_instantiated_here(&text).into_iter().map(|f| format!("{}: {f}", path.display())));
    }
    assert!(found.is_empty(), "compiled inside the types crate:\n{}", found.join("\n"));
    assert!(checked >= 20 && instantiating >= 100, "{checked} files, {instantiating} calls looked at");
    // The check finds the regression it is for.
    let module = std::fs::read_to_string(root.join("v2026_07_28.rs")).unwrap();
    let without = module.replacen("#[inline]\n    pub fn read(", "pub fn read(", 1);
    assert_ne!(without, module, "AnyResult::read is where this test expects it");
    assert_eq!(serde_instantiated_here(&without).len(), 1, "the check finds AnyResult::read without #[inline]");
}
