//! Lists the golden fixtures (`fixtures/<name>.ts` with its generated
//! `<name>.rs`) for the `golden` test binary, which compiles each as a module:
//! a new fixture is compiled by adding its two files, nothing else.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts") && p.with_extension("rs").is_file())
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    let mut out = String::new();
    for name in &names {
        let path = dir.join(format!("{name}.rs"));
        println!("cargo::rerun-if-changed={}", path.display());
        out.push_str(&format!("#[path = {:?}]\n#[allow(dead_code)]\npub mod {name};\n", path.display().to_string()));
    }
    out.push_str(&format!("/// Every fixture compiled above.\npub const COMPILED: &[&str] = &{names:?};\n"));
    let tables: Vec<String> = names.iter().map(|n| format!("({n:?}, {n}::SCHEMA_TYPES)")).collect();
    out.push_str(&format!(
        "/// Each fixture's type table.\n#[cfg(feature = \"type-table\")]\npub const TYPE_TABLES: &[(&str, &[mcp_spec_types::rt::TypeEntry])] = &[{}];\n",
        tables.join(", ")
    ));
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("fixture_modules.rs");
    std::fs::write(target, out).unwrap();
}
