//! Golden fixtures, as text: each `tests/fixtures/<name>.ts` generates exactly
//! `<name>.rs` (`UPDATE_GOLDEN=1` rewrites them; this test does not compile
//! them, so it works while they are stale); the `golden` binary compiles every
//! one it finds and exercises them.

use mcp_spec_tests as support;

#[test]
fn every_fixture_matches_its_golden_file() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let names = support::ts_stems(&dir);
    assert_eq!(names.len(), 10, "the fixtures: {names:?}");
    for name in names {
        let ts = dir.join(format!("{name}.ts"));
        let text = std::fs::read_to_string(&ts).unwrap();
        let (module, _warnings) = mcp_spec_codegen::generate_module(&ts, &text)
            .unwrap_or_else(|d| panic!("{name}.ts failed:\n{}", d.render_with(|_| Some(text.clone()))));
        support::assert_golden(&format!("{name}.rs"), &module);
    }
}
