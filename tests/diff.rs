//! The revision diff: complete (its changes turn OLD's facts into NEW's, for
//! every consecutive pair), right about known changes, empty on itself, and
//! stable in its three formats.

use mcp_spec_codegen::Spec;
use mcp_spec_codegen::diff::facts::{apply, facts};
use mcp_spec_codegen::diff::report::{Format, render, summary};
use mcp_spec_codegen::diff::{Change, Diff, Wire, diff};
use mcp_spec_tests as support;

fn real_spec() -> Spec {
    match mcp_spec_codegen::spec::load_spec(&support::spec_dir()) {
        Ok((spec, _)) => spec,
        Err(d) => panic!("{}", d.render()),
    }
}

fn diff_of(spec: &Spec, old: &str, new: &str) -> Diff {
    diff(spec.revision(old).unwrap(), spec.revision(new).unwrap())
}

fn find<'a>(d: &'a Diff, id: &str, path: &str) -> &'a Change {
    d.changes
        .iter()
        .find(|c| c.id.as_str() == id && c.path == path)
        .unwrap_or_else(|| panic!("{} -> {}: no `{id}` at `{path}`", d.old, d.new))
}

fn assert_absent(d: &Diff, id: &str, path: &str) {
    assert!(
        !d.changes.iter().any(|c| c.id.as_str() == id && c.path == path),
        "{} -> {}: unexpected `{id}` at `{path}`",
        d.old,
        d.new
    );
}

#[test]
fn reported_changes_turn_old_into_new_for_every_consecutive_pair() {
    for spec in [real_spec(), support::fixture_spec()] {
        for pair in spec.revisions.windows(2) {
            let (old, new) = (&pair[0], &pair[1]);
            let d = diff(old, new);
            let mut state = facts(old);
            for c in &d.changes {
                apply(&mut state, &c.edits);
            }
            let expected = facts(new);
            let missing: Vec<&String> = expected.keys().filter(|k| state.get(*k) != expected.get(*k)).take(5).collect();
            let extra: Vec<&String> = state.keys().filter(|k| !expected.contains_key(*k)).take(5).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{} -> {}: applying the {} changes does not give NEW's facts; differing: {missing:?}, left over: {extra:?}",
                old.name,
                new.name,
                d.changes.len()
            );
            // And no change is empty or redundant: leaving any one out gives other
            // facts (but for the ones derived from others, which edit nothing).
            for skip in 0..d.changes.len() {
                if d.changes[skip].id == mcp_spec_codegen::diff::ChangeId::MethodResultChanged {
                    assert!(d.changes[skip].edits.is_empty());
                    continue;
                }
                let mut partial = facts(old);
                for (i, c) in d.changes.iter().enumerate() {
                    if i != skip {
                        apply(&mut partial, &c.edits);
                    }
                }
                assert!(
                    partial != expected,
                    "{} -> {}: the change {:?} edits nothing",
                    old.name,
                    new.name,
                    d.changes[skip]
                );
            }
        }
    }
}

#[test]
fn known_changes_between_2025_11_25_and_2026_07_28() {
    let spec = real_spec();
    let d = diff_of(&spec, "2025-11-25", "2026-07-28");
    for removed in ["InitializeRequest", "PingRequest"] {
        let c = find(&d, "type-removed", removed);
        assert!(c.api.is_some() && c.is_breaking());
    }
    find(&d, "type-added", "DiscoverRequest");
    let c = find(&d, "field-added-required", "Result.resultType");
    // Required, but the spec says to read its absence as "complete": old writers
    // (2025-11-25 servers, which never send it) are still understood.
    assert_eq!(c.new.as_deref(), Some(r#"required ResultType (absent: "complete")"#));
    assert_eq!(c.wire, Wire::None);
    assert!(c.api.is_some(), "struct literals must name it");
    // And each result type gains it through Result, with the same verdicts.
    let inherited = find(&d, "field-added-required", "CallToolResult.resultType");
    assert_eq!((inherited.wire, inherited.detail.as_deref()), (Wire::None, Some("through Result")));
    assert_eq!(find(&d, "method-removed", "initialize").wire, Wire::OldWriters);
    assert_eq!(find(&d, "method-added", "server/discover").wire, Wire::OldReaders);
    // The members of a removed type go with it.
    assert_absent(&d, "field-removed", "InitializeRequest.params");
    assert!(find(&d, "deprecated", "ClientCapabilities.sampling").api.is_none());
}

#[test]
fn jsonrpc_error_is_renamed_in_2025_11_25() {
    let spec = real_spec();
    let d = diff_of(&spec, "2025-06-18", "2025-11-25");
    let c = find(&d, "type-renamed", "JSONRPCErrorResponse");
    assert_eq!(c.old.as_deref(), Some("JSONRPCError"));
    assert_absent(&d, "type-removed", "JSONRPCError");
    assert_absent(&d, "type-added", "JSONRPCErrorResponse");
    // Its own changes, under the new name.
    assert_eq!(find(&d, "field-made-optional", "JSONRPCErrorResponse.id").wire, Wire::OldReaders);
    // An inline `params` that became a declared type of the same name keeps its
    // Rust type's name, but not its fields: struct literals of it break (the
    // api oracle, `tests/oracle.rs`, compiles one).
    let api = find(&d, "field-type-changed", "CallToolRequest.params").api.clone().unwrap_or_default();
    assert_eq!(api, "`CallToolRequestParams`, the type it holds, gained `meta`, `task`: struct literals change");
}

#[test]
fn a_revision_diffed_with_itself_is_empty() {
    for spec in [real_spec(), support::fixture_spec()] {
        for rev in &spec.revisions {
            let d = diff(rev, rev);
            assert!(d.is_empty(), "{}: {:?}", rev.name, d.changes.first());
            assert_eq!(summary(&d).breaking, 0);
        }
        // And two dated revisions in a row are not (a draft may equal its release).
        for pair in spec.revisions.windows(2).filter(|p| p[0].dated && p[1].dated) {
            let d = diff(&pair[0], &pair[1]);
            assert!(!d.is_empty() && !d.changes.is_empty(), "{} -> {}", pair[0].name, pair[1].name);
        }
    }
}

#[test]
fn verdicts_on_the_fixture() {
    let spec = support::fixture_spec();
    let d = diff_of(&spec, "2025-01-01", "2025-06-01");
    assert_eq!(find(&d, "type-renamed", "JSONRPCErrorResponse").old.as_deref(), Some("JSONRPCError"));
    assert_eq!(find(&d, "field-made-required", "Tool.title").wire, Wire::OldWriters);
    assert_eq!(find(&d, "field-type-changed", "Tool.timeout").wire, Wire::OldReaders, "integer readers reject 1.5");
    assert_eq!(find(&d, "enum-opened", "LoggingLevel").wire, Wire::OldReaders);
    assert_eq!(find(&d, "const-value-changed", "INVALID_PARAMS").wire, Wire::Both);
    assert!(find(&d, "const-value-changed", "INVALID_PARAMS").api.is_none());
    assert!(!find(&d, "field-type-changed", "ListToolsRequest.params").is_breaking());
    let draft = diff_of(&spec, "2025-06-01", "draft");
    assert_eq!(find(&draft, "value-removed", "Tool.style.\"legacy\"").wire, Wire::OldWriters);
    find(&draft, "undeprecated", "LoggingLevel");
    find(&draft, "deprecated", "Tool.timeout");
}

#[test]
fn reports_in_three_formats_match_their_golden_files() {
    let spec = support::fixture_spec();
    let d = diff_of(&spec, "2025-01-01", "2025-06-01");
    support::assert_golden("reports/diff.txt", &render(&d, Format::Text, false));
    support::assert_golden("reports/diff.md", &render(&d, Format::Markdown, false));
    support::assert_golden("reports/diff.json", &render(&d, Format::Json, false));
    support::assert_golden("reports/diff-docs.txt", &render(&d, Format::Text, true));
    // The next pair: a lifted deprecation, a member declared again, a base that loosens.
    let d = diff_of(&spec, "2025-06-01", "draft");
    support::assert_golden("reports/diff-draft.txt", &render(&d, Format::Text, false));
}

#[test]
fn the_docs_excerpt_is_real_output() {
    let readme = std::fs::read_to_string(support::workspace_root().join("docs/registry-and-diff.md")).unwrap();
    let after = readme
        .split("A real excerpt of `cargo xtask diff 2025-06-18 2025-11-25`:")
        .nth(1)
        .expect("docs/registry-and-diff.md shows an excerpt");
    let block = after.split("```text\n").nth(1).and_then(|b| b.split("\n```").next()).expect("a text block");
    let spec = real_spec();
    let output = render(&diff_of(&spec, "2025-06-18", "2025-11-25"), Format::Text, false);
    let lines: Vec<&str> = output.lines().collect();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            lines.contains(&line),
            "docs/registry-and-diff.md's excerpt has a line the diff does not print any more:\n{line}\nupdate it from `cargo xtask diff 2025-06-18 2025-11-25`"
        );
    }
}

#[test]
fn members_gained_through_a_base_are_changes_of_each_type_that_gains_them() {
    let spec = real_spec();
    let d = diff_of(&spec, "2025-11-25", "2026-07-28");
    let new = spec.revision("2026-07-28").unwrap();
    // Every type of 2026-07-28 that is or extends CacheableResult, as the model says.
    let cacheable: Vec<String> = new
        .items
        .values()
        .filter(|i| mcp_spec_codegen::model::ancestors(&new.items, &i.name).contains(&"CacheableResult".to_string()))
        .filter(|i| spec.revision("2025-11-25").unwrap().item(&i.name).is_some())
        .map(|i| i.name.clone())
        .collect();
    assert_eq!(cacheable.len(), 5, "{cacheable:?}");
    for ty in &cacheable {
        for member in ["ttlMs", "cacheScope"] {
            let c = find(&d, "field-added-required", &format!("{ty}.{member}"));
            assert_eq!(c.detail.as_deref(), Some("through CacheableResult"), "{ty}.{member}");
            assert_eq!(c.wire, Wire::OldWriters, "a new reader rejects an old result without {member}");
            assert!(c.api.as_deref().is_some_and(|a| a.contains("`new` takes")), "{ty}.{member}: {:?}", c.api);
        }
        let bases = find(&d, "type-bases-changed", ty);
        assert!(
            bases.is_breaking() && bases.wire == Wire::OldWriters,
            "{ty}: the base change is as bad as what it brings: {bases:?}"
        );
    }
    let listed = find(&d, "method-result-changed", "tools/list");
    assert!(listed.detail.as_deref().is_some_and(|t| t.contains("ttlMs") && t.contains("cacheScope")), "{listed:?}");

    // title through BaseMetadata, 2025-03-26 -> 2025-06-18.
    let d = diff_of(&spec, "2025-03-26", "2025-06-18");
    let new = spec.revision("2025-06-18").unwrap();
    let titled: Vec<String> = new
        .items
        .values()
        .filter(|i| i.origin == mcp_spec_codegen::model::Origin::Declared)
        .filter(|i| {
            new.struct_of(&i.name).and_then(|s| s.field("title")).is_some_and(|f| f.declared_in == "BaseMetadata")
        })
        .filter(|i| spec.revision("2025-03-26").unwrap().struct_of(&i.name).is_some_and(|s| s.field("title").is_none()))
        .map(|i| i.name.clone())
        .collect();
    assert_eq!(titled.len(), 7, "{titled:?}");
    for ty in titled {
        let c = find(&d, "field-added-optional", &format!("{ty}.title"));
        assert_eq!(c.detail.as_deref(), Some("through BaseMetadata"), "{ty}");
    }
}

/// A revision from schema text, for the small cases below.
fn revision(name: &str, text: &str) -> mcp_spec_codegen::model::Revision {
    let path = std::path::PathBuf::from(format!("{name}/schema.ts"));
    let (rev, diags) = mcp_spec_codegen::spec::read_revision(name.into(), "m".into(), true, &path, text);
    assert!(!diags.has_errors(), "{}", diags.render_with(|_| Some(text.to_string())));
    rev
}

/// A method whose message or result type changed is judged by what each side
/// reads of the other's messages and results, not assumed to break both ways.
#[test]
fn a_changed_method_is_judged_on_the_wire() {
    let wire_of = |old: &str, new: &str, method: &str| -> Wire {
        let d = diff(&revision("2030-01-01", old), &revision("2030-02-01", new));
        find(&d, "method-changed", method).wire
    };
    let ping = "export interface Ping {\n  method: \"ping\";\n  note?: string;\n}\n";
    // Renamed, the same JSON: no wire change.
    assert_eq!(wire_of(ping, &ping.replace("Ping {", "PingNotification {"), "ping"), Wire::None);
    // A member's type changed: each side rejects the other's.
    let typed = ping.replace("Ping {", "PingNotification {").replace("note?: string", "note?: number");
    assert_eq!(wire_of(ping, &typed, "ping"), Wire::Both);
    // A new required member: an OLD peer reads the NEW message, not the reverse.
    let required =
        ping.replace("Ping {", "PingNotification {").replace("note?: string;", "note?: string;\n  at: string;");
    assert_eq!(wire_of(ping, &required, "ping"), Wire::OldWriters);

    // A request and its result: the result travels the other way.
    let get = "export interface GetRequest {\n  method: \"get\";\n  id: number;\n}\nexport interface GetResult {\n  v: string;\n}\n";
    let renamed = get.replace("GetRequest", "FetchRequest").replace("GetResult", "FetchResult");
    assert_eq!(wire_of(get, &renamed, "get"), Wire::None);
    // The result gains a required member: a NEW client rejects an OLD server's result.
    let gains = renamed.replace("v: string;", "v: string;\n  w: string;");
    assert_eq!(wire_of(get, &gains, "get"), Wire::OldWriters);
    // The result loses one: an OLD client rejects a NEW server's result.
    let loses = get.replace("v: string;", "v: string;\n  w: string;");
    assert_eq!(wire_of(&loses, &renamed, "get"), Wire::OldReaders);
}
