//! Golden fixtures, as text: each `tests/fixtures/<name>.ts` generates exactly
//! `<name>.rs`. `UPDATE_GOLDEN=1 cargo test -p mcp-spec-tests --test fixtures`
//! rewrites them (this test does not compile them, so it works while they are
//! stale); `tests/golden.rs` compiles and exercises them.

use std::path::Path;

const COMPILED: &[&str] =
    &["docs", "enums", "inheritance", "inline", "keywords", "numbers_maps", "recursive", "unions"];

fn fixtures_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

#[test]
fn every_fixture_matches_its_golden_file_and_is_compiled() {
    let dir = fixtures_dir();
    let names = mcp_spec_tests::ts_stems(&dir);
    assert_eq!(
        names, COMPILED,
        "every fixture must be compiled: add a `#[path]` module for it in tests/golden.rs, and its name here and there"
    );
    let golden = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("golden.rs")).unwrap();
    for name in &names {
        assert!(
            golden.contains(&format!("#[path = \"fixtures/{name}.rs\"]")),
            "tests/golden.rs does not compile {name}.rs"
        );
    }
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut mismatches = Vec::new();
    for name in names {
        let ts = dir.join(format!("{name}.ts"));
        let text = std::fs::read_to_string(&ts).unwrap();
        let (module, _warnings) = mcp_spec_codegen::generate_module(&ts, &text)
            .unwrap_or_else(|d| panic!("{name}.ts failed:\n{}", d.render_with(|_| Some(text.clone()))));
        let expected_path = dir.join(format!("{name}.rs"));
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if module != expected {
            if update {
                std::fs::write(&expected_path, &module).unwrap();
            } else {
                let first = expected.lines().zip(module.lines()).position(|(a, b)| a != b).unwrap_or(0);
                mismatches.push(format!(
                    "{name}.rs differs at line {}:\n- {}\n+ {}",
                    first + 1,
                    expected.lines().nth(first).unwrap_or(""),
                    module.lines().nth(first).unwrap_or("")
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\nrun `UPDATE_GOLDEN=1 cargo test -p mcp-spec-tests --test fixtures` to accept",
        mismatches.join("\n")
    );
}
