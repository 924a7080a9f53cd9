//! The two runtime crates the generated code calls, `mcp-spec-runtime`
//! (`codegen/runtime`: what each type calls to read and write itself) and
//! `mcp-spec-protocol` (`codegen/protocol`: what the crate's API calls): their
//! modules are layered, their roots show users only documented names, and
//! neither depends on the other, so that they build side by side.

use std::path::{Path, PathBuf};

use mcp_spec_tests::workspace_root;

struct RuntimeCrate {
    dir: &'static str,
    /// Its modules from the bottom up: each may use only those before it.
    layers: &'static [&'static str],
    /// How many names its root shows users (each must have an example).
    root_names: usize,
    /// The modules its root shows, besides the hidden ones.
    shown_modules: &'static [&'static str],
}

const RUNTIME: RuntimeCrate = RuntimeCrate {
    dir: "codegen/runtime",
    layers: &[
        "choose", "text", "de", "number", "fixed", "enums", "log", "extra", "member", "pairs", "shape", "scan",
        "slots", "object", "union",
    ],
    root_names: 3,
    shown_modules: &["log"],
};

const PROTOCOL: RuntimeCrate = RuntimeCrate {
    dir: "codegen/protocol",
    layers: &["read", "convert", "table", "protocol", "registry", "negotiate", "http"],
    root_names: 14,
    shown_modules: &["http"],
};

fn src_of(krate: &RuntimeCrate) -> PathBuf {
    workspace_root().join(krate.dir).join("src")
}

/// The crate-root names a file's code reaches: the first segment after each
/// `crate::` and each `super::` that climbs to the root, in paths and in use
/// trees alike (`use crate::{a, b::C}` reaches `a` and `b`; `crate::*` is
/// `*`), inside macros' bodies too; not `$crate::` (a macro's path to its own
/// crate's root), nor a name in a comment, a doc or a string. Read from the
/// file's tokens, so every form of path is one form.
fn root_names_used(text: &str) -> Result<Vec<String>, String> {
    use proc_macro2::{Delimiter, TokenTree};
    syn::parse_file(text).map_err(|e| format!("not Rust: {e}"))?;
    let tokens: proc_macro2::TokenStream = text.parse().map_err(|e| format!("{e:?}"))?;
    fn is_path_sep(t: &[TokenTree]) -> bool {
        matches!(t, [TokenTree::Punct(a), TokenTree::Punct(b), ..] if a.as_char() == ':' && b.as_char() == ':')
    }
    fn ident_is(t: Option<&TokenTree>, name: &str) -> bool {
        matches!(t, Some(TokenTree::Ident(i)) if i == name)
    }
    /// The first segments of the path or use tree starting at `t`.
    fn first_segments(t: &[TokenTree], out: &mut Vec<String>) {
        match t.first() {
            Some(TokenTree::Ident(i)) => out.push(i.to_string()),
            Some(TokenTree::Punct(p)) if p.as_char() == '*' => out.push("*".into()),
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                for element in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
                    first_segments(element, out);
                }
            }
            _ => {}
        }
    }
    /// `depth`: how many inline `mod`s deep (a `super` there stays in the file).
    fn scan(tokens: &[TokenTree], depth: usize, out: &mut Vec<String>) {
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Ident(m) if m == "mod" => {
                    if let (Some(TokenTree::Ident(_)), Some(TokenTree::Group(g))) =
                        (tokens.get(i + 1), tokens.get(i + 2))
                    {
                        scan(&g.stream().into_iter().collect::<Vec<_>>(), depth + 1, out);
                        i += 3;
                        continue;
                    }
                }
                TokenTree::Group(g) => scan(&g.stream().into_iter().collect::<Vec<_>>(), depth, out),
                TokenTree::Ident(c) if c == "crate" && is_path_sep(&tokens[i + 1..]) => {
                    let after_dollar = i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                    if !after_dollar {
                        first_segments(&tokens[i + 3..], out);
                    }
                }
                TokenTree::Ident(s) if s == "super" && is_path_sep(&tokens[i + 1..]) => {
                    let mut climbs = 1;
                    let mut at = i + 3;
                    while ident_is(tokens.get(at), "super") && is_path_sep(&tokens[at + 1..]) {
                        climbs += 1;
                        at += 3;
                    }
                    if climbs > depth {
                        first_segments(&tokens[at..], out);
                    }
                    i = at;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
    let mut out = Vec::new();
    scan(&tokens.into_iter().collect::<Vec<_>>(), 0, &mut out);
    Ok(out)
}

/// Each module of `src` that uses a module at or above it in `layers`, and the
/// modules found, which must be every one of `layers`.
fn layering_faults(src: &Path, layers: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut found = Vec::new();
    let mut wrong = Vec::new();
    for entry in std::fs::read_dir(src).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().trim_end_matches(".rs").to_string();
        if name == "lib" {
            continue;
        }
        let Some(level) = layers.iter().position(|l| *l == name) else {
            wrong.push(format!("src/{name}.rs is not in its crate's layers: place it there, above what it uses"));
            continue;
        };
        found.push(name.clone());
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let used = match root_names_used(&text) {
            Ok(used) => used,
            Err(e) => {
                wrong.push(format!("src/{name}.rs: {e}"));
                continue;
            }
        };
        for used in used {
            if used == "*" {
                wrong.push(format!("{name} uses every name of the crate's root (`crate::*`): name what it uses"));
            } else if let Some(at) = layers.iter().position(|l| *l == used)
                && at >= level
                && used != name
            {
                wrong.push(format!("{name} uses {used}, which is not below it"));
            }
        }
    }
    found.sort();
    (wrong, found)
}

#[test]
fn each_module_of_each_runtime_crate_uses_only_the_modules_below_it() {
    for krate in [RUNTIME, PROTOCOL] {
        let (wrong, found) = layering_faults(&src_of(&krate), krate.layers);
        assert!(wrong.is_empty(), "{}:\n{}", krate.dir, wrong.join("\n"));
        let mut layers: Vec<String> = krate.layers.iter().map(|l| l.to_string()).collect();
        layers.sort();
        assert_eq!(found, layers, "{}: a module of its layers has no file", krate.dir);
    }
}

#[test]
fn a_module_that_uses_one_above_it_is_a_fault() {
    // The check on a folder made for it: `low` uses `high`, which is above it.
    let dir = std::env::temp_dir().join(format!("mcp-spec-layering-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Each way `low` reaches `high` counts once: a plain use, a grouped one, a
    // `super::` from the file's top, a path in code, a path in a macro's body;
    // none of the look-alikes does.
    let low = r#"
use crate::high::Thing;
use crate::{low as _, high::{A, B}};
use super::high;
fn f() -> u8 { crate::high::value() }
macro_rules! m { () => { crate::high::X } }
// Look-alikes: a macro's own root, a comment naming crate::high, a doc, a string,
// a visibility, and `super` inside an inline module (it stays in this file).
macro_rules! n { () => { $crate::high::X } }
/// See crate::high.
pub(crate) fn g() -> &'static str { "crate::high" }
mod inner { use super::f; }
"#;
    std::fs::write(dir.join("low.rs"), low).unwrap();
    std::fs::write(dir.join("high.rs"), "use crate::low::Other;\n").unwrap();
    std::fs::write(dir.join("glob.rs"), "use crate::*;\n").unwrap();
    std::fs::write(dir.join("stray.rs"), "").unwrap();
    let (wrong, found) = layering_faults(&dir, &["glob", "low", "high"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, ["glob", "high", "low"]);
    assert_eq!(
        wrong.iter().filter(|w| w.as_str() == "low uses high, which is not below it").count(),
        5,
        "the plain, grouped, `super::`, code and macro paths count; the look-alikes do not: {wrong:?}"
    );
    assert!(wrong.iter().any(|w| w.contains("src/stray.rs is not in its crate's layers")), "{wrong:?}");
    assert!(wrong.iter().any(|w| w.starts_with("glob uses every name of the crate's root")), "{wrong:?}");
    assert_eq!(wrong.len(), 7, "{wrong:?}");
}

/// The names a crate's root shows users (its `pub use`s between
/// `// What users call` and `pub mod __private`).
fn root_names(lib: &str) -> Vec<&str> {
    let root = &lib[lib.find("// What users call").unwrap()..lib.find("pub mod __private").unwrap()];
    root.split("pub use ")
        .skip(1)
        .flat_map(|u| {
            let list = u.split(';').next().unwrap();
            let list = list.split_once('{').map_or(list.rsplit("::").next().unwrap(), |(_, l)| l.trim_end_matches('}'));
            list.split(',').map(str::trim).filter(|n| !n.is_empty())
        })
        .collect()
}

/// The docs above the declaration of `name` in one of `files`, if it is declared.
fn docs_of(files: &[String], name: &str) -> Option<String> {
    files.iter().find_map(|text| {
        let at = ["struct", "enum", "trait", "fn", "type"].iter().find_map(|k| {
            let decl = format!("pub {k} {name}");
            text.match_indices(&decl)
                .find(|(i, _)| !text[i + decl.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
                .map(|(i, _)| i)
        })?;
        let above: Vec<&str> = text[..at]
            .lines()
            .rev()
            .skip(1)
            .map(str::trim)
            .take_while(|l| l.starts_with("///") || l.starts_with("#["))
            .collect();
        Some(above.join("\n"))
    })
}

#[test]
fn every_name_a_runtime_crates_root_shows_has_an_example() {
    for krate in [RUNTIME, PROTOCOL] {
        let src = src_of(&krate);
        let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
        let names = root_names(&lib);
        let files: Vec<String> =
            std::fs::read_dir(&src).unwrap().flatten().map(|e| std::fs::read_to_string(e.path()).unwrap()).collect();
        let mut without = Vec::new();
        for name in &names {
            match docs_of(&files, name) {
                Some(d) if d.contains("/// ```") => {}
                Some(_) => without.push(format!("{name}: no example in its docs")),
                None => without.push(format!("{name}: no declaration found")),
            }
        }
        assert!(without.is_empty(), "{}:\n{}", krate.dir, without.join("\n"));
        // A name added to the root fails here until it has an example and is counted.
        assert_eq!(names.len(), krate.root_names, "{}: the root's names changed: {names:?}", krate.dir);
        let shown: Vec<&str> = lib
            .split("\npub mod ")
            .skip(1)
            .filter(|m| !lib[..lib.find(&format!("pub mod {m}")).unwrap()].trim_end().ends_with("#[doc(hidden)]"))
            .map(|m| m.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap())
            .collect();
        assert_eq!(shown, krate.shown_modules, "{}: modules the root shows", krate.dir);
    }
}

/// Each package of this workspace and the packages it depends on (not for
/// tests or builds), as its manifest declares them: one `cargo metadata` call.
fn dependencies() -> std::collections::BTreeMap<String, Vec<String>> {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--manifest-path"])
        .arg(workspace_root().join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&output.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    packages
        .iter()
        .map(|p| {
            let normal = p["dependencies"].as_array().unwrap().iter().filter(|d| d["kind"].is_null());
            (p["name"].as_str().unwrap().to_string(), normal.map(|d| d["name"].as_str().unwrap().to_string()).collect())
        })
        .collect()
}

#[test]
fn the_runtime_crates_build_side_by_side_and_the_types_crate_needs_both() {
    let all = dependencies();
    let of = |package: &str| all.get(package).unwrap_or_else(|| panic!("no package {package}")).clone();
    let (runtime, protocol, types) = (of("mcp-spec-runtime"), of("mcp-spec-protocol"), of("mcp-spec-types"));
    // Counted, so that a renamed package cannot pass by being absent.
    assert!(runtime.len() >= 3 && protocol.len() >= 3, "{runtime:?} {protocol:?}");
    assert!(!runtime.iter().any(|d| d.starts_with("mcp-spec")), "the runtime depends on {runtime:?}");
    assert!(!protocol.iter().any(|d| d.starts_with("mcp-spec")), "the protocol crate depends on {protocol:?}");
    for needed in ["mcp-spec-runtime", "mcp-spec-protocol"] {
        assert!(types.iter().any(|d| d == needed), "the types crate lacks {needed}: {types:?}");
    }
}
