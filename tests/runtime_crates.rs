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
        for (i, _) in text.match_indices("crate::") {
            // `$crate::` is the macros' path to their crate's root, not a use.
            if text[..i].ends_with('$') {
                continue;
            }
            let used: String = text[i + 7..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if let Some(at) = layers.iter().position(|l| *l == used)
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
    std::fs::write(dir.join("low.rs"), "use crate::high::Thing;\nmacro_rules! m { () => { $crate::high::X } }\n")
        .unwrap();
    std::fs::write(dir.join("high.rs"), "use crate::low::Other;\n").unwrap();
    std::fs::write(dir.join("stray.rs"), "").unwrap();
    let (wrong, found) = layering_faults(&dir, &["low", "high"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, ["high", "low"]);
    assert_eq!(
        wrong.iter().filter(|w| w.as_str() == "low uses high, which is not below it").count(),
        1,
        "the `use` counts, the macro's `$crate::` does not: {wrong:?}"
    );
    assert!(wrong.iter().any(|w| w.contains("src/stray.rs is not in its crate's layers")), "{wrong:?}");
    assert_eq!(wrong.len(), 2, "{wrong:?}");
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
