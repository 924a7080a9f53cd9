//! Golden fixtures: each `tests/fixtures/<name>.ts` generates `<name>.rs`, which is
//! compiled into this test (a module below) and exercised. `UPDATE_GOLDEN=1`
//! rewrites the expected files.

use std::path::Path;

/// What the generated modules call `crate::rt`.
mod rt {
    pub use mcp_spec_types::rt::*;
}

#[path = "fixtures/docs.rs"]
#[allow(dead_code)]
mod docs;
#[path = "fixtures/enums.rs"]
#[allow(dead_code)]
mod enums;
#[path = "fixtures/inheritance.rs"]
#[allow(dead_code)]
mod inheritance;
#[path = "fixtures/inline.rs"]
#[allow(dead_code)]
mod inline;
#[path = "fixtures/numbers_maps.rs"]
#[allow(dead_code)]
mod numbers_maps;
#[path = "fixtures/unions.rs"]
#[allow(dead_code)]
mod unions;

const COMPILED: &[&str] = &["docs", "enums", "inheritance", "inline", "numbers_maps", "unions"];

fn fixtures_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

#[test]
fn every_fixture_matches_its_golden_file_and_is_compiled() {
    let dir = fixtures_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, COMPILED, "every fixture must be compiled: add a `#[path]` module for it in tests/golden.rs");
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
    assert!(mismatches.is_empty(), "{}\nrun `UPDATE_GOLDEN=1 cargo test -p mcp-spec-tests --test golden` to accept", mismatches.join("\n"));
}

fn read<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> T {
    serde_json::from_value(json).unwrap()
}

fn write<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap()
}

#[test]
fn enums_fixture_fixed_members_and_open_unions() {
    use enums::*;
    let json = serde_json::json!({
        "type": "message", "version": "1.2", "answer": 42,
        "role": "assistant", "reason": "vendor-stop", "mode": "slow", "x": [1]
    });
    let m: Message = read(json.clone());
    assert_eq!(m.role, Role::Assistant);
    assert_eq!(m.reason, Some(Reason::Other("vendor-stop".into())));
    assert_eq!(m.mode, Some(MessageMode::Slow));
    assert_eq!((Message::TYPE, Message::VERSION, Message::ANSWER), ("message", VERSION, ANSWER));
    assert_eq!(write(&m), json);
    let wrong = serde_json::json!({"type": "message", "version": "1.3", "answer": 42, "role": "user"});
    let err = serde_json::from_value::<Message>(wrong).unwrap_err().to_string();
    assert!(err.contains("`version`") && err.contains("\"1.2\""), "{err}");
    assert!(serde_json::from_value::<Role>(serde_json::json!("system")).is_err());
}

#[test]
fn inheritance_fixture_bases_omit_and_intersections() {
    use inheritance::*;
    let both: Both = read(serde_json::json!({"kind": "k", "id": 7, "createdAt": "now"}));
    assert_eq!((both.id, both.created_at.as_str()), (BaseId::Integer(7), "now"));
    let without: WithoutId = read(serde_json::json!({"label": "l", "id": "kept as unknown"}));
    assert_eq!(without.extra["id"], "kept as unknown");
    let json = serde_json::json!({"id": "a", "error": {"code": CUSTOM_ERROR, "message": "m"}});
    let response: ErrorResponse = read(json.clone());
    assert_eq!(ErrorResponseError::CODE, CUSTOM_ERROR);
    assert_eq!(write(&response), json);
    let renumbered = serde_json::json!({"id": "a", "error": {"code": -1, "message": "m"}});
    assert!(serde_json::from_value::<ErrorResponse>(renumbered).is_err());
    assert_eq!(Narrowed::KIND, "narrowed");
    let _: StampedBase = read(serde_json::json!({"kind": "k", "id": "i", "createdAt": "t"}));
}

#[test]
fn inline_fixture_named_from_parent_and_field() {
    use inline::*;
    let json = serde_json::json!({
        "roots": {}, "sampling": {"context": {"depth": 2}},
        "options": [{"value": "v", "title": "t"}], "servers": {"a": {"url": "u"}}
    });
    let c: Capabilities = read(json.clone());
    assert_eq!(c.sampling.as_ref().and_then(|s| s.context.as_ref()).map(|c| c.depth), Some(2));
    assert_eq!(c.options[0].title, "t");
    assert_eq!(c.servers.as_ref().map(|s| s["a"].url.as_str()), Some("u"));
    assert_eq!(write(&c), json);
    let _empty: CapabilitiesRoots = read(serde_json::json!({}));
}

#[test]
fn numbers_maps_fixture_integers_floats_and_maps() {
    use numbers_maps::*;
    let json = serde_json::json!({"count": 3, "ratio": 1, "whatever": null, "labels": {"b": "2", "a": "1"}});
    let p: Progress = read(json.clone());
    assert_eq!((p.count, p.ratio), (3, Some(1.0)));
    assert_eq!(write(&p), json, "a whole f64 is written as it was read");
    assert!(serde_json::from_value::<Progress>(serde_json::json!({"count": 1.5, "whatever": 0})).is_err());
    let scores: Scores = read(serde_json::json!({"x": 1}));
    assert_eq!(scores["x"], 1);
    let open: Open = read(serde_json::json!({"name": "n", "more": true}));
    assert_eq!(open.extra["more"], true);
}

#[test]
fn unions_fixture_tags_shapes_and_primitives() {
    use unions::*;
    let f: Figure = read(serde_json::json!({"shape": "square", "side": 2}));
    assert!(matches!(f, Figure::Square(ref s) if s.side == 2));
    let err = serde_json::from_value::<Figure>(serde_json::json!({"shape": "hexagon"})).unwrap_err().to_string();
    assert!(err.contains("\"circle\"") && err.contains("\"square\""), "{err}");
    let o: Outcome = read(serde_json::json!({"items": ["a"], "_meta": {}}));
    assert_eq!(o.member_name(), "Listing");
    let o: Outcome = read(serde_json::json!({"state": "waiting", "inputs": {"a": {"shape": "circle", "radius": 1}}}));
    assert_eq!(o.member_name(), "Paused");
    let o: Outcome = read(serde_json::json!({"unrelated": 1}));
    assert_eq!(o.member_name(), "Plain");
    let h: Holder = read(serde_json::json!({"token": 5, "ttl": null, "content": [{"shape": "circle", "radius": 1}]}));
    assert_eq!((h.token, h.ttl), (Token::Integer(5), None));
    assert!(matches!(h.content, HolderContent::FigureArray(ref v) if v.len() == 1));
    assert!(serde_json::from_value::<Holder>(serde_json::json!({"token": 5, "content": []})).is_err(), "ttl is required");
}

#[test]
#[allow(deprecated)]
fn docs_fixture_deprecations_reach_the_types() {
    use docs::*;
    let d: Documented = read(serde_json::json!({"uri": "u", "link": "l", "style": "old"}));
    assert_eq!((d.link.as_deref(), d.style), (Some("l"), Some(DocumentedStyle::Old)));
    assert_eq!(INTERNAL_LIMIT, 10);
    let _: Other = read(serde_json::json!({"value": "v"}));
    let text = std::fs::read_to_string(fixtures_dir().join("docs.rs")).unwrap();
    for expected in [
        "since = \"2026-07-28\"",
        "SEP-1234",
        "[`Other`] and [its value](Other::value)",
        "https://modelcontextprotocol.io/specification/draft/basic",
        "\"uri\": \"https://example.com/resource\"",
    ] {
        assert!(text.contains(expected), "docs.rs lacks {expected}");
    }
}
