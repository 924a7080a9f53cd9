//! What the generator says about broken schemas, rendered as a user sees it:
//! each `tests/fixtures/broken/<name>.ts` beside its expected `<name>.txt`
//! (`UPDATE_GOLDEN=1` rewrites them).

use std::path::Path;

use mcp_spec_tests as support;

#[test]
fn broken_schemas_render_their_diagnostics_as_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/broken");
    let names = support::ts_stems(&dir);
    assert_eq!(names.len(), 12, "the broken fixtures: {names:?}");
    for name in names {
        let text = std::fs::read_to_string(dir.join(format!("{name}.ts"))).unwrap();
        // A relative path, so the rendering does not depend on where the checkout is.
        let path = format!("broken/{name}.ts");
        let rendered = match mcp_spec_codegen::generate_module(Path::new(&path), &text) {
            Ok((_, warnings)) => {
                assert!(!warnings.is_empty(), "{name}.ts generated without a word: it is meant to be broken");
                warnings.render_with(|_| Some(text.clone()))
            }
            Err(errors) => {
                assert!(errors.has_errors());
                // Every error says where: file, line and column.
                for e in errors.errors() {
                    assert!(e.file.is_some() && e.span.is_some(), "{name}: `{}` has no place", e.message);
                }
                errors.render_with(|_| Some(text.clone()))
            }
        };
        assert!(rendered.contains(&format!("┌─ {path}:")), "{name}: no file:line:column in\n{rendered}");
        support::assert_golden(&format!("broken/{name}.txt"), &rendered);
    }
}
