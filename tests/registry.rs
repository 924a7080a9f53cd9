//! The deprecation registry: its counts against the schemas' own tags, its
//! removals against the declarations that disappear, its Deprecated rows against
//! the spec's registry page, the compiler's warnings downstream, the look-ahead
//! docs of older modules, and the three report formats.

use std::collections::BTreeSet;

use mcp_spec_codegen::registry::report::{Format, render};
use mcp_spec_tests as support;
use mcp_spec_types::REVISIONS;
use mcp_spec_types::registry::{self, Kind, State};

fn schema_text(revision: &str) -> String {
    let path = support::spec_dir().join("schema").join(revision).join("schema.ts");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The entries each `@deprecated` tag of a schema.ts should make, read from the
/// raw text (not through the generator): one, or one per quoted value when the
/// tag's first sentence deprecates values.
fn entries_expected_from_tags(text: &str) -> usize {
    text.split("@deprecated")
        .skip(1)
        .map(|after| {
            let tag: String = after
                .split("*/")
                .next()
                .unwrap_or("")
                .split("\n")
                .map(|l| l.trim().trim_start_matches('*').trim())
                .collect::<Vec<_>>()
                .join(" ");
            let tag = tag.split(" @").next().unwrap_or("");
            let first_sentence = tag.split(". ").next().unwrap_or("");
            let quoted_values = first_sentence.matches("`\"").count();
            if first_sentence.contains(" value") && quoted_values > 0 { quoted_values } else { 1 }
        })
        .sum()
}

/// The registry paths the `@deprecated` tags of a schema.ts deprecate, read from
/// the raw text (not through the generator): the declaration or member each tag's
/// comment stands before, under the declarations and inline object members it
/// sits in; a tag whose first sentence names quoted values deprecates those
/// values (`Type.member."value"`).
fn paths_from_tags(text: &str) -> BTreeSet<String> {
    fn segment(name: &str) -> String {
        let ident = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if ident { name.to_string() } else { format!("{name:?}") }
    }
    let mut out = BTreeSet::new();
    // (the brace depth inside the scope, its path)
    let mut scopes: Vec<(i64, String)> = Vec::new();
    let mut depth: i64 = 0;
    let (mut in_comment, mut comment, mut pending) = (false, String::new(), None::<String>);
    for line in text.lines() {
        let t = line.trim();
        if in_comment || t.starts_with("/*") {
            comment.push_str(t.trim_start_matches("/**").trim_start_matches("/*").trim_start_matches('*').trim());
            comment.push(' ');
            in_comment = !t.contains("*/");
            if !in_comment {
                if let Some(at) = comment.find("@deprecated") {
                    pending = Some(comment[at..].to_string());
                }
                comment.clear();
            }
            continue;
        }
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        let decl = t
            .strip_prefix("export ")
            .and_then(|r| ["interface ", "type ", "const "].iter().find_map(|k| r.strip_prefix(k)))
            .map(|r| r.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>());
        let member = if decl.is_some() {
            None
        } else if let Some(rest) = t.strip_prefix('"') {
            rest.split_once('"')
                .filter(|(_, after)| after.starts_with("?:") || after.starts_with(':'))
                .map(|(n, _)| n.to_string())
        } else {
            let name: String = t.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let after = &t[name.len()..];
            (!name.is_empty() && (after.starts_with("?:") || after.starts_with(':'))).then_some(name)
        };
        let path = match (&decl, &member) {
            (Some(d), _) => Some(d.clone()),
            (None, Some(m)) => scopes.last().map(|(_, p)| format!("{p}.{}", segment(m))),
            _ => None,
        };
        if let (Some(tag), Some(path)) = (pending.take(), &path) {
            let first_sentence = tag.split(". ").next().unwrap_or("");
            let values: Vec<&str> = first_sentence.split("`\"").skip(1).filter_map(|v| v.split('"').next()).collect();
            if first_sentence.contains(" value") && !values.is_empty() {
                out.extend(values.iter().map(|v| format!("{path}.\"{v}\"")));
            } else {
                out.insert(path.clone());
            }
        }
        let opened = t.matches('{').count() as i64 - t.matches('}').count() as i64;
        depth += opened;
        if let (Some(path), true) = (path, opened > 0) {
            scopes.push((depth, path));
        }
        while scopes.last().is_some_and(|(d, _)| *d > depth) {
            scopes.pop();
        }
    }
    out
}

#[test]
fn deprecated_entries_are_the_paths_the_tags_deprecate() {
    let mut compared = 0;
    for rev in REVISIONS {
        let expected = paths_from_tags(&schema_text(rev));
        let actual: BTreeSet<String> = registry::deprecated_in(rev).map(|(e, _)| e.path.to_string()).collect();
        assert_eq!(actual, expected, "{rev}: the registry's deprecated paths against the schema's tags");
        compared += expected.len();
    }
    assert_eq!(compared, 44, "2026-07-28 and draft carry 22 deprecations each");
}

#[test]
fn deprecated_entries_match_the_tags_of_each_schema() {
    let mut report = Vec::new();
    for rev in REVISIONS {
        let text = schema_text(rev);
        let tags = text.matches("@deprecated").count();
        let expected = entries_expected_from_tags(&text);
        let actual = registry::deprecated_in(rev).count();
        report.push(format!("{rev}: {tags} tags, {actual} deprecated entries"));
        assert_eq!(actual, expected, "{rev}: {tags} `@deprecated` tags should make {expected} entries");
    }
    // The revisions with the lifecycle policy really carry tags: the check is not vacuous.
    assert_eq!(registry::deprecated_in("2026-07-28").count(), 22, "{report:?}");
}

/// Names declared with `export interface|type|const` in a schema.ts.
fn declared_names(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("export ")?;
            let rest = ["interface ", "type ", "const "].iter().find_map(|k| rest.strip_prefix(k))?;
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

#[test]
fn removed_types_are_the_declarations_that_disappear() {
    let mut total = 0;
    for pair in REVISIONS.windows(2) {
        let (old, new) = (pair[0], pair[1]);
        let (before, after) = (declared_names(&schema_text(old)), declared_names(&schema_text(new)));
        let expected: BTreeSet<String> = before.difference(&after).cloned().collect();
        let actual: BTreeSet<String> = registry::removed_between(old, new)
            .filter(|e| matches!(e.kind, Kind::Type | Kind::Const))
            .map(|e| e.path.to_string())
            .collect();
        assert_eq!(actual, expected, "types and consts removed between {old} and {new}");
        for name in &expected {
            assert_eq!(registry::state(new, name), Some(&State::Removed { last_seen: old }), "{name} in {new}");
        }
        total += expected.len();
    }
    assert_eq!(total, 38, "types and consts removed between adjacent revisions");
    for name in ["PingRequest", "InitializeRequest", "SetLevelRequest"] {
        assert!(registry::removed_between("2025-11-25", "2026-07-28").any(|e| e.path == name), "{name}");
    }
    // A field of a removed type is removed with it; a member whose type was given a
    // name of its own is not removed: it lives on under its new path.
    assert!(matches!(registry::state("2026-07-28", "PingRequest.params"), Some(State::Removed { .. })));
    let moved = registry::entry("CallToolRequest.params.name").expect("an inline member of 2025-06-18");
    assert_eq!(moved.state("2025-11-25"), Some(&State::Active));
    assert_eq!(moved.same_as("2025-11-25"), Some("CallToolRequestParams.name"));
    assert_eq!(moved.same_as("2025-06-18"), None);
}

#[test]
fn lookups_by_revision_path_and_protocol_version() {
    assert!(matches!(
        registry::state("2026-07-28", "ClientCapabilities.sampling"),
        Some(State::Deprecated { since: "2026-07-28", sep: Some("SEP-2577"), .. })
    ));
    assert_eq!(registry::state("2025-11-25", "ClientCapabilities.sampling"), Some(&State::Active));
    assert_eq!(registry::state("2024-11-05", "DiscoverRequest"), Some(&State::Absent));
    assert_eq!(registry::state("2026-07-28", "DiscoverRequest"), Some(&State::Active));
    assert!(matches!(
        registry::state("2026-07-28", "CreateMessageRequestParams.includeContext.\"thisServer\""),
        Some(State::Deprecated { since: "2025-11-25", sep: Some("SEP-2596"), .. })
    ));
    assert_eq!(
        registry::state("2026-07-28", "CreateMessageRequestParams.includeContext.\"none\""),
        Some(&State::Active)
    );
    assert_eq!(registry::state("2026-07-28", "NoSuchType"), None);
    assert_eq!(registry::state("1999-01-01", "PingRequest"), None);
    let e = registry::entry("RequestMetaObject.\"io.modelcontextprotocol/logLevel\"").expect("a quoted member");
    assert_eq!(e.kind, Kind::Field);
    assert_eq!(e.states().count(), REVISIONS.len());
    for rev in REVISIONS.iter().filter(|r| r.starts_with("20")) {
        assert_eq!(registry::revision_for_protocol_version(rev), Some(*rev));
    }
    assert_eq!(registry::revision_for_protocol_version("2099-01-01"), None);
    let sorted = registry::entries().windows(2).all(|w| w[0].path < w[1].path);
    assert!(sorted, "entries must be sorted for the lookups' binary search");
}

/// One row of the "Deprecated" table of a `deprecated.mdx` page.
struct PageRow {
    feature: String,
    sep: String,
    since: String,
}

fn strip_links(cell: &str) -> String {
    let mut out = String::new();
    let mut rest = cell;
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match (after.find("]("), after.find(')')) {
            (Some(j), Some(k)) if j < k => {
                out.push_str(&after[..j]);
                rest = &after[after[j..].find(')').map(|x| j + x + 1).unwrap_or(after.len())..];
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

fn deprecated_rows(page: &str) -> Vec<PageRow> {
    let section = page.split("## Deprecated").nth(1).unwrap_or("");
    let section = section.split("\n## ").next().unwrap_or("");
    section
        .lines()
        .filter(|l| l.starts_with('|'))
        .skip(2) // the header and the separator
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            PageRow {
                feature: cells[0].to_string(),
                sep: strip_links(cells[1]),
                since: cells[2].trim_matches('`').to_string(),
            }
        })
        .collect()
}

/// Lower-case words of a path, split at humps and punctuation.
fn words(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in path.chars() {
        if (!c.is_alphanumeric() || c.is_uppercase()) && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[test]
fn deprecated_features_of_the_spec_registry_page_are_deprecated_here() {
    let docs = support::spec_dir().join("docs/specification");
    let mut pages = 0;
    let api_docs = std::fs::read_to_string(support::workspace_root().join("generated/src/registry.rs")).unwrap();
    for rev in REVISIONS {
        let page_path = docs.join(rev).join("deprecated.mdx");
        let Ok(page) = std::fs::read_to_string(&page_path) else {
            // The registry page began with the lifecycle policy (SEP-2596, adopted
            // in 2026-07-28): an older revision has none (its tags are checked
            // against the schema above); one after the first page must have its own.
            assert_eq!(pages, 0, "{rev} has no deprecated.mdx, though an earlier revision has one");
            continue;
        };
        pages += 1;
        let rows = deprecated_rows(&page);
        assert!(!rows.is_empty(), "{}: no rows in its Deprecated table", page_path.display());
        let deprecated: Vec<(&registry::Entry, &State)> = registry::deprecated_in(rev).collect();
        let mut with_items = 0;
        for row in &rows {
            let matching: Vec<&(&registry::Entry, &State)> = if let Some(code) = row.feature.strip_prefix('`') {
                // `includeContext: "thisServer"` / `"allServers"`: a member and some of its values.
                let member = code.split(':').next().unwrap_or("").trim();
                let values: Vec<&str> = row.feature.split('"').skip(1).step_by(2).collect();
                let found: Vec<_> = deprecated
                    .iter()
                    .filter(|(e, _)| values.iter().any(|v| e.path.ends_with(&format!(".{member}.\"{v}\""))))
                    .collect();
                assert_eq!(found.len(), values.len(), "{rev}: {} should deprecate {values:?}", row.feature);
                found
            } else {
                let feature = words(&strip_links(&row.feature));
                let has = |path: &str| words(path).windows(feature.len()).any(|w| w == feature.as_slice());
                if !registry::entries().iter().any(|e| has(e.path)) {
                    // No schema item carries this feature's name: a transport or an
                    // authorization feature, outside the registry; its docs must say so.
                    let name = strip_links(&row.feature);
                    assert!(api_docs.contains(&name), "registry docs should name `{name}` as out of scope");
                    continue;
                }
                deprecated.iter().filter(|(e, _)| has(e.path)).collect()
            };
            assert!(!matching.is_empty(), "{rev}: `{}` has schema items, but none is deprecated", row.feature);
            for (e, s) in matching {
                let State::Deprecated { since, sep, .. } = s else { unreachable!() };
                assert_eq!((*sep, *since), (Some(row.sep.as_str()), row.since.as_str()), "{rev}: {}", e.path);
            }
            with_items += 1;
        }
        assert_eq!(with_items, 4, "{rev}: Roots, Sampling, Logging and the includeContext values have schema items");
        // And the other way round: every deprecation here is one of the page's rows.
        // Matched by SEP and date: the schema's tags name no feature ("Deprecated as
        // of protocol version 2026-07-28 (SEP-2577)"), and Roots, Sampling and
        // Logging share both; which items belong to which row is checked above,
        // by name, from the rows' side.
        for (e, s) in &deprecated {
            let State::Deprecated { since, sep, .. } = s else { unreachable!() };
            assert!(
                rows.iter().any(|r| Some(r.sep.as_str()) == *sep && r.since == *since),
                "{rev}: {} ({sep:?}, {since}) is on no row of the page",
                e.path
            );
        }
    }
    assert_eq!(pages, 2, "deprecated.mdx pages under {}", docs.display());
}

/// The doc comment just above `pub struct|enum NAME` (or a field) in a file.
fn docs_above(text: &str, declaration: &str) -> String {
    let at = text.find(declaration).unwrap_or_else(|| panic!("`{declaration}` not found"));
    text[..at]
        .lines()
        .rev()
        .take_while(|l| {
            let t = l.trim();
            !(t.starts_with("pub ") || t == "}" || t.ends_with('{') || t.ends_with(">,"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn older_modules_say_what_later_revisions_do() {
    let text = std::fs::read_to_string(support::workspace_root().join("generated/src/v2025_11_25.rs")).unwrap();
    assert!(docs_above(&text, "pub struct PingRequest {").contains("Removed in 2026-07-28."));
    let caps = &text[text.find("pub struct ClientCapabilities {").unwrap()..];
    assert!(docs_above(caps, "pub sampling:").contains("Deprecated in 2026-07-28 (SEP-2577)."));
    assert!(!docs_above(caps, "pub experimental:").contains("Later revisions"));
    let current = std::fs::read_to_string(support::workspace_root().join("generated/src/v2026_07_28.rs")).unwrap();
    let caps = &current[current.find("pub struct ClientCapabilities {").unwrap()..];
    let sampling = docs_above(caps, "pub sampling:");
    assert!(sampling.contains("#[deprecated(") && sampling.contains("since = \"2026-07-28\""), "{sampling}");
}

#[test]
fn a_downstream_crate_gets_the_compilers_deprecation_warnings() {
    let out = support::downstream(
        "deprecations",
        &["v2026_07_28"],
        r#"use mcp_spec_types::v2026_07_28 as v;

fn wants_sampling(caps: &v::ClientCapabilities) -> bool {
    caps.sampling.is_some()
}

fn log_at(level: v::LoggingLevel) -> v::LoggingLevel {
    level
}

fn main() {
    let level = log_at(v::LoggingLevel::Info);
    let context = v::CreateMessageRequestParamsIncludeContext::ThisServer;
    let fine = v::CreateMessageRequestParamsIncludeContext::None;
    let tool_name = |t: &v::Tool| t.name.clone();
    let _ = (wants_sampling, level, context, fine, tool_name);
}
"#,
        "check",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the downstream crate must build:\n{stderr}");
    for expected in [
        "use of deprecated field `mcp_spec_types::v2026_07_28::ClientCapabilities::sampling`",
        "use of deprecated enum `mcp_spec_types::v2026_07_28::LoggingLevel`",
        "use of deprecated unit variant `mcp_spec_types::v2026_07_28::LoggingLevel::Info`",
        "use of deprecated unit variant `mcp_spec_types::v2026_07_28::CreateMessageRequestParamsIncludeContext::ThisServer`",
    ] {
        assert!(stderr.contains(expected), "missing warning `{expected}` in:\n{stderr}");
    }
    // Exactly these (the enum named twice: in the signature and its return type);
    // `Tool` and the `None` value are not deprecated.
    let warned: std::collections::BTreeMap<&str, usize> = stderr
        .lines()
        .filter_map(|l| l.split("use of deprecated ").nth(1))
        // "field `a::B::c`: note" → "field `a::B::c`"
        .map(|rest| rest.find("`:").map(|end| &rest[..=end]).unwrap_or(rest))
        .fold(Default::default(), |mut m, w| {
            *m.entry(w).or_default() += 1;
            m
        });
    let expected: std::collections::BTreeMap<&str, usize> = [
        ("field `mcp_spec_types::v2026_07_28::ClientCapabilities::sampling`", 1),
        ("enum `mcp_spec_types::v2026_07_28::LoggingLevel`", 2),
        ("unit variant `mcp_spec_types::v2026_07_28::LoggingLevel::Info`", 1),
        ("unit variant `mcp_spec_types::v2026_07_28::CreateMessageRequestParamsIncludeContext::ThisServer`", 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(warned, expected, "{stderr}");
    assert!(
        !stderr.contains("`mcp-spec-types` (lib) generated"),
        "the generated crate itself must build warning-free:\n{stderr}"
    );
}

#[test]
fn reports_in_three_formats_match_their_golden_files() {
    let reg = mcp_spec_codegen::registry::build(&support::fixture_spec());
    support::assert_golden("reports/registry.txt", &render(&reg, None, Format::Text));
    support::assert_golden("reports/registry.md", &render(&reg, None, Format::Markdown));
    support::assert_golden("reports/registry.json", &render(&reg, None, Format::Json));
    support::assert_golden("reports/registry-draft.json", &render(&reg, reg.revision_index("draft"), Format::Json));
}

#[test]
fn the_real_report_lists_what_the_spec_deprecates() {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let reg = mcp_spec_codegen::registry::build(&spec);
    let md = render(&reg, reg.revision_index("2026-07-28"), Format::Markdown);
    assert!(md.contains("| `ClientCapabilities.sampling` | field | SEP-2577 | `2026-07-28` |"), "{md}");
    assert!(md.contains("| `PingRequest` | type | `2025-11-25` | `2026-07-28` |"), "{md}");
    let json: serde_json::Value = serde_json::from_str(&render(&reg, None, Format::Json)).unwrap();
    assert_eq!(json["format"], "mcp-spec-registry/1");
    assert_eq!(json["entries"].as_array().map(Vec::len), Some(registry::entries().len()));
}

/// Whether the object at a registry path (`Tool.inputSchema`) admits members it
/// does not name, by upstream's `schema.json` of that revision: derived from
/// the same schema.ts by another tool (typescript-json-schema), which writes an
/// index signature as `additionalProperties`. An oracle apart from the
/// registry's own reading of the model. `None` when the revision has no such
/// object (the type, or a member on the way, is not there).
fn schema_json_admits(schema: &serde_json::Value, path: &str) -> Option<bool> {
    let defs = schema.get("definitions").or_else(|| schema.get("$defs")).expect("schema.json's definitions");
    fn deref<'a>(defs: &'a serde_json::Value, mut v: &'a serde_json::Value) -> &'a serde_json::Value {
        while let Some(name) = v.get("$ref").and_then(|r| r.as_str()).and_then(|r| r.rsplit('/').next()) {
            v = &defs[name];
        }
        v
    }
    let mut segments = segments_of(path).into_iter();
    let root = segments.next().expect("a path");
    let mut at = deref(defs, defs.get(&root)?);
    for segment in segments {
        at = deref(defs, at.get("properties")?.get(&segment)?);
    }
    Some(at.get("additionalProperties").is_some_and(|a| a != &serde_json::Value::Bool(false)))
}

/// A registry path's segments: `.`-separated, a quoted one whole (`params."a.b"`).
fn segments_of(path: &str) -> Vec<String> {
    let (mut out, mut rest) = (Vec::new(), path);
    while !rest.is_empty() {
        let (segment, after) = if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').map(|i| i + 2).expect("a closing quote");
            (serde_json::from_str::<String>(&rest[..end]).unwrap(), &rest[end..])
        } else {
            let end = rest.find('.').unwrap_or(rest.len());
            (rest[..end].to_string(), &rest[end..])
        };
        out.push(segment);
        rest = after.strip_prefix('.').unwrap_or(after);
    }
    out
}

#[test]
fn a_registry_path_reads_by_segment() {
    assert_eq!(segments_of("Tool.inputSchema"), ["Tool", "inputSchema"]);
    assert_eq!(segments_of("A.\"io.x/y\".b"), ["A", "io.x/y", "b"]);
    let schema = serde_json::json!({"definitions": {
        "Open": {"type": "object", "properties": {"inner": {"$ref": "#/definitions/Shut"}}, "additionalProperties": {}},
        "Shut": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}
    }});
    assert_eq!(schema_json_admits(&schema, "Open"), Some(true));
    assert_eq!(schema_json_admits(&schema, "Open.inner"), Some(false), "through the reference, no index signature");
    assert_eq!(schema_json_admits(&schema, "Open.inner.m"), Some(true));
    assert_eq!(schema_json_admits(&schema, "Open.gone"), None);
    assert_eq!(schema_json_admits(&schema, "Gone"), None);
}

/// A member a revision stops naming while its parent's index signature still
/// admits it is not Removed: the protocol still carries it (`Tool.inputSchema.properties`
/// in 2026-07-28). Over every revision: a Removed field's parent admits no
/// member it does not name there, and an Unnamed one's does, as upstream's
/// schema.json says (not as the registry's own reading of the model does).
#[test]
fn no_member_is_removed_while_its_parent_still_admits_it() {
    use mcp_spec_codegen::registry::{EntryKind, State as S};
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let reg = mcp_spec_codegen::registry::build(&spec);
    let schemas: Vec<serde_json::Value> = spec
        .revisions
        .iter()
        .map(|r| {
            let file = support::spec_dir().join("schema").join(&r.name).join("schema.json");
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
        })
        .collect();
    // A parent the revision does not have admits nothing; how many were there is counted.
    let parents_found = std::cell::Cell::new(0);
    let admits = |i: usize, parent: &str| {
        let found = schema_json_admits(&schemas[i], parent);
        parents_found.set(parents_found.get() + usize::from(found.is_some()));
        found == Some(true)
    };
    let (mut removed, mut unnamed) = (0, Vec::new());
    for e in reg.entries.iter().filter(|e| e.kind == EntryKind::Field) {
        for (i, rev) in spec.revisions.iter().enumerate() {
            let parent = e.parent.as_deref().unwrap();
            match &e.states[i] {
                S::Removed { .. } => {
                    removed += 1;
                    assert!(!admits(i, parent), "{}: Removed in {}, but `{parent}` admits it there", e.path, rev.name);
                }
                S::Unnamed { .. } => {
                    assert!(admits(i, parent), "{}: Unnamed in {}, but `{parent}` does not admit it", e.path, rev.name);
                    unnamed.push(format!("{} in {}", e.path, rev.name));
                }
                _ => {}
            }
        }
    }
    assert_eq!(removed, 237, "members and values Removed in some revision");
    // Each reviewed: the generic Request's and Notification's `params` became a map
    // of anything in 2025-11-25; `Tool.inputSchema` and `outputSchema` became open
    // JSON Schema objects in 2026-07-28 (draft is a copy of it).
    let mut expected = Vec::new();
    for rev in ["2025-11-25", "2026-07-28", "draft"] {
        expected.extend(["Notification.params._meta", "Request.params._meta"].map(|p| format!("{p} in {rev}")));
    }
    for rev in ["2026-07-28", "draft"] {
        for p in ["inputSchema.properties", "inputSchema.required", "outputSchema.properties", "outputSchema.required"]
        {
            expected.push(format!("Tool.{p} in {rev}"));
        }
        expected.push(format!("Tool.outputSchema.type in {rev}"));
    }
    expected.sort();
    unnamed.sort();
    assert_eq!(unnamed, expected, "the members a revision stops naming while their parent admits them");
    assert_eq!(parents_found.get(), 56, "parents of Removed or Unnamed members that schema.json has");
    // Not among what 2026-07-28 removed, and the older module's docs say what happened.
    assert!(!registry::removed_between("2025-11-25", "2026-07-28").any(|e| e.path == "Tool.inputSchema.properties"));
    let old = std::fs::read_to_string(support::workspace_root().join("generated/src/v2025_11_25.rs")).unwrap();
    assert!(old.contains("No longer named in 2026-07-28, but still allowed there"), "the look-ahead note");
}

/// The members each `export interface` of a schema.ts declares, its own and
/// those its bases bring (`extends A, Omit<B, "x">`), read from the raw text,
/// not through the generator; and each string-literal type alias's values
/// (`export type Role = "user" | "assistant"`).
struct RawSchema {
    own: std::collections::BTreeMap<String, (Vec<String>, BTreeSet<String>)>,
    values: std::collections::BTreeMap<String, BTreeSet<String>>,
}

impl RawSchema {
    fn read(text: &str) -> RawSchema {
        let mut own = std::collections::BTreeMap::new();
        let mut values = std::collections::BTreeMap::new();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let t = lines[i].trim();
            if let Some(rest) = t.strip_prefix("export interface ") {
                // The head up to the body's `{`, over as many lines as it takes.
                let mut head = rest.to_string();
                while !head.contains('{') && i + 1 < lines.len() {
                    i += 1;
                    head.push(' ');
                    head.push_str(lines[i].trim());
                }
                let name: String = head.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let bases = head
                    .split_once(" extends ")
                    .map(|(_, b)| b.split('{').next().unwrap_or("").to_string())
                    .map(|b| split_top(&b))
                    .unwrap_or_default();
                // The body: members at depth one, the lines up to its closing brace.
                let mut depth = head.matches('{').count() as i64 - head.matches('}').count() as i64;
                let mut members = BTreeSet::new();
                while depth > 0 && i + 1 < lines.len() {
                    i += 1;
                    let l = lines[i].trim();
                    if depth == 1 && !l.starts_with('*') && !l.starts_with("/") {
                        let l = l.strip_prefix("readonly ").unwrap_or(l);
                        let key = if let Some(q) = l.strip_prefix('"') {
                            q.split_once('"').map(|(k, _)| k.to_string())
                        } else {
                            let k: String =
                                l.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
                            (!k.is_empty()).then_some(k)
                        };
                        if let Some(k) = key {
                            let after = &l[l.find(k.as_str()).map(|p| p + k.len()).unwrap_or(0)..];
                            let after = after.trim_start_matches('"');
                            if after.starts_with(':') || after.starts_with("?:") {
                                members.insert(k);
                            }
                        }
                    }
                    depth += l.matches('{').count() as i64 - l.matches('}').count() as i64;
                }
                own.insert(name, (bases, members));
            } else if let Some(rest) = t.strip_prefix("export type ") {
                let mut body = rest.to_string();
                while !body.trim_end().ends_with(';') && i + 1 < lines.len() {
                    i += 1;
                    body.push(' ');
                    body.push_str(lines[i].trim());
                }
                if let Some((name, rhs)) = body.split_once('=') {
                    let name = name.trim().to_string();
                    let parts: Vec<&str> = rhs.trim().trim_end_matches(';').split('|').map(str::trim).collect();
                    if parts.iter().all(|p| p.starts_with('"') || *p == "string") {
                        values.insert(
                            name,
                            parts
                                .iter()
                                .filter_map(|p| p.strip_prefix('"')?.strip_suffix('"'))
                                .map(String::from)
                                .collect(),
                        );
                    }
                }
            }
            i += 1;
        }
        RawSchema { own, values }
    }

    /// Its own members and its bases', less what an `Omit` takes out; `None`
    /// when the text declares no such interface.
    fn members(&self, name: &str) -> Option<BTreeSet<String>> {
        let (bases, own) = self.own.get(name)?;
        let mut all = own.clone();
        for base in bases {
            let (base_name, omitted): (String, BTreeSet<String>) = match base.strip_prefix("Omit<") {
                Some(rest) => {
                    let (b, keys) = rest.trim_end_matches('>').split_once(',').unwrap_or((rest, ""));
                    (b.trim().to_string(), keys.split('|').map(|k| k.trim().trim_matches('"').to_string()).collect())
                }
                None => (base.split('<').next().unwrap_or(base).trim().to_string(), BTreeSet::new()),
            };
            if base_name != name {
                all.extend(self.members(&base_name).unwrap_or_default().into_iter().filter(|m| !omitted.contains(m)));
            }
        }
        Some(all)
    }
}

/// A comma-separated list, split where no `<>` is open.
fn split_top(list: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for c in list.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The registry's Removed states of the members of declared interfaces and of
/// the values of declared string enums, held to the raw text of both revisions:
/// the revision last seen declares the member (or value), the revision that
/// removed it does not; and every member or value one revision's text declares
/// and the next one's drops (its type still there) is Removed, or Unnamed there.
#[test]
fn removed_members_and_values_are_the_ones_the_raw_schemas_drop() {
    let raw: Vec<RawSchema> = REVISIONS.iter().map(|r| RawSchema::read(&schema_text(r))).collect();
    let index = |r: &str| REVISIONS.iter().position(|x| *x == r).unwrap();
    let direct = |path: &str| -> Option<(String, String)> {
        let (owner, member) = path.split_once('.')?;
        let member = member.trim_matches('"');
        (owner.chars().all(|c| c.is_alphanumeric() || c == '_') && !member.contains('.'))
            .then(|| (owner.to_string(), member.to_string()))
    };
    let mut checked = 0;
    for e in registry::entries() {
        for (i, state) in e.states.iter().enumerate() {
            let State::Removed { last_seen } = state else { continue };
            let Some((owner, member)) = direct(e.path) else { continue };
            let (then, now) = (&raw[index(last_seen)], &raw[i]);
            match e.kind {
                Kind::Field => {
                    // Listed under the type that declares it: its own member there.
                    let Some((_, had)) = then.own.get(&owner) else { continue };
                    checked += 1;
                    assert!(
                        had.contains(&member),
                        "{}: Removed in {}, but {last_seen}'s text does not declare it",
                        e.path,
                        REVISIONS[i]
                    );
                    if let Some(has) = now.members(&owner) {
                        assert!(
                            !has.contains(&member),
                            "{}: Removed in {}, whose text declares it",
                            e.path,
                            REVISIONS[i]
                        );
                    }
                }
                Kind::Value => {
                    let Some(had) = then.values.get(&owner) else { continue };
                    checked += 1;
                    assert!(
                        had.contains(&member),
                        "{}: Removed in {}, but {last_seen}'s text does not list it",
                        e.path,
                        REVISIONS[i]
                    );
                    if let Some(has) = now.values.get(&owner) {
                        assert!(!has.contains(&member), "{}: Removed in {}, whose text lists it", e.path, REVISIONS[i]);
                    }
                }
                _ => {}
            }
        }
    }
    // And the other way: what the text of one revision drops from the last.
    let mut dropped = 0;
    for i in 1..REVISIONS.len() {
        let (before, after) = (&raw[i - 1], &raw[i]);
        for (owner, (_, had)) in &before.own {
            // Its own members (the registry lists a member under the type that
            // declares it) that the type no longer has, own or inherited.
            let Some(has) = after.members(owner) else { continue };
            for member in had.difference(&has) {
                let segment = if member.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                    member.clone()
                } else {
                    format!("{member:?}")
                };
                let path = format!("{owner}.{segment}");
                let state = registry::state(REVISIONS[i], &path);
                dropped += 1;
                assert!(
                    matches!(state, Some(State::Removed { .. } | State::Unnamed { .. })),
                    "{path}: {} drops it from {}'s text, and the registry says {state:?}",
                    REVISIONS[i],
                    REVISIONS[i - 1]
                );
            }
        }
        for (name, had) in &before.values {
            let Some(has) = after.values.get(name) else { continue };
            for value in had.difference(has) {
                let path = format!("{name}.{value:?}");
                dropped += 1;
                assert!(
                    matches!(registry::state(REVISIONS[i], &path), Some(State::Removed { .. })),
                    "{path}: {} drops it from {}'s text, and the registry says {:?}",
                    REVISIONS[i],
                    REVISIONS[i - 1],
                    registry::state(REVISIONS[i], &path)
                );
            }
        }
    }
    eprintln!(
        "{checked} Removed states of members and values checked against the raw text; {dropped} drops found in it"
    );
    // 146 and 4 at the last count (floors within 10%).
    assert!(checked >= 131 && dropped >= 4, "{checked} checked, {dropped} drops");
}
