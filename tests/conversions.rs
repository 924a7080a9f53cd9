//! The generated conversions between adjacent revisions (`mcp_spec_types::convert`):
//! every conversion tried on values of its type (each union member and enum
//! value in turn, the spec's examples); a `From` takes every one, a `TryFrom`
//! fails exactly where reading the value's JSON as the other revision's type
//! fails, naming the type and the revisions; a value converted both ways by
//! `From` comes back as it was; what a conversion makes is valid for the
//! target revision's schema.json (upstream's, not ours; the designed exceptions
//! of `not_checked_by_design` and methods passed through as `Other` aside);
//! and, typed, what a conversion makes of a union, an unknown member, a missing
//! `_meta`.

use std::collections::{BTreeMap, BTreeSet};

use mcp_spec_tests as support;
use serde_json::{Value, json};

/// What the conversions of one pair did.
#[derive(Debug, Default)]
struct Tally {
    conversions: usize,
    values: usize,
    /// `TryFrom` conversions that refused a value, and values they refused.
    refusing: usize,
    refused: usize,
    /// `TryFrom`s no sample made refuse, shown refusing a value near one.
    refused_near: usize,
    /// Values a `From` and its way back returned as they were.
    round_trips: usize,
    /// Converted values checked against the target revision's schema.json.
    validated: usize,
}

/// The `TryFrom`s that refuse no value tried, reviewed (2026-12-05), each for
/// one of two reasons the test checks of it:
/// - [`MEMBERS_REFUSE`]: some member's conversion is a `TryFrom`, and each such
///   member's own conversion refuses values above; the union's samples do not
///   reach the member and method that would not fit;
/// - [`HAND_BUILT_OTHER`]: no member's conversion is a `TryFrom`; the union's is
///   one for its catch-all member, which a user may build holding a method both
///   revisions know (a message of a known method reads as its member, never as
///   `Other`, so no value read from the wire reaches it):
///   `hand_built_other_is_what_a_message_unions_try_from_refuses` shows one.
const NEVER_REFUSED: &[(&str, &str)] = &[
    ("ClientRequest 2024-11-05 to 2025-03-26", HAND_BUILT_OTHER),
    ("ServerRequest 2024-11-05 to 2025-03-26", HAND_BUILT_OTHER),
    ("ClientNotification 2025-03-26 to 2024-11-05", HAND_BUILT_OTHER),
    ("ClientRequest 2025-03-26 to 2024-11-05", HAND_BUILT_OTHER),
    ("ClientResult 2025-03-26 to 2024-11-05", MEMBERS_REFUSE),
    ("ServerNotification 2025-03-26 to 2024-11-05", HAND_BUILT_OTHER),
    ("ServerRequest 2025-03-26 to 2024-11-05", MEMBERS_REFUSE),
    ("ServerResult 2025-03-26 to 2024-11-05", MEMBERS_REFUSE),
    ("ClientNotification 2025-03-26 to 2025-06-18", HAND_BUILT_OTHER),
    ("ServerNotification 2025-03-26 to 2025-06-18", HAND_BUILT_OTHER),
    ("ClientNotification 2025-06-18 to 2025-03-26", HAND_BUILT_OTHER),
    ("ClientRequest 2025-06-18 to 2025-03-26", HAND_BUILT_OTHER),
    ("ServerNotification 2025-06-18 to 2025-03-26", HAND_BUILT_OTHER),
    ("ServerResult 2025-06-18 to 2025-03-26", MEMBERS_REFUSE),
];
const MEMBERS_REFUSE: &str = "its members' TryFroms refuse on their own";
const HAND_BUILT_OTHER: &str = "only a hand-built Other holding a known method is refused";

/// A message union's `TryFrom` with no refusing member refuses what only a
/// hand-built value holds: a catch-all `Other` with a method both revisions
/// know and params its member there does not take.
#[test]
fn hand_built_other_is_what_a_message_unions_try_from_refuses() {
    use mcp_spec_types::{v2024_11_05 as old, v2025_03_26 as new};
    // A `tools/call` without the `name` its params require there.
    let hand_built = old::ClientRequest::Other(old::Request::new("tools/call"));
    let error = new::ClientRequest::try_from(hand_built).unwrap_err().to_string();
    assert!(error.starts_with("ClientRequest (2024-11-05 to 2025-03-26): "), "{error}");
    // The same message read from the wire is its member, and converts.
    let read: old::ClientRequest =
        serde_json::from_value(json!({"method": "tools/call", "params": {"name": "t"}})).unwrap();
    assert_eq!(read.member_name(), "CallToolRequest");
    assert!(new::ClientRequest::try_from(read).is_ok());
}

#[test]
fn every_from_takes_every_value_and_a_try_from_refuses_what_the_other_revision_cannot_read() {
    let spec = mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render())).0;
    let mut failures = Vec::new();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut pairs = 0;
    let mut never_refused = Vec::new();
    // Each TryFrom by (type, from, to), with whether it refused a value.
    let mut try_froms: BTreeMap<(String, String, String), bool> = BTreeMap::new();
    for w in spec.revisions.windows(2) {
        let (old, new) = (&w[0], &w[1]);
        let Some(table) = mcp_spec_types::convert::conversions(&old.name, &new.name) else {
            // A revision whose module is another's re-exported: one Rust type each.
            assert!(
                mcp_spec_types::schema_types(&new.name).unwrap().iter().all(|e| {
                    let old_entry = support::types_of(&old.name).iter().find(|o| o.name == e.name);
                    old_entry.is_none_or(|o| (o.type_id)() == (e.type_id)())
                }),
                "{} and {} have no conversions, yet some type differs",
                old.name,
                new.name
            );
            continue;
        };
        pairs += 1;
        let tally = tallies.entry(format!("{} and {}", old.name, new.name)).or_default();
        let examples =
            [(old.name.clone(), support::examples_by_type(old)), (new.name.clone(), support::examples_by_type(new))];
        // What each conversion makes is held to upstream's schema.json of its
        // target revision, which no code here wrote.
        let schemas =
            [(old.name.clone(), support::SchemaJson::load(old)), (new.name.clone(), support::SchemaJson::load(new))];
        for c in table {
            tally.conversions += 1;
            let from_rev = if c.from == old.name { old } else { new };
            let examples = &examples.iter().find(|(n, _)| *n == from_rev.name).unwrap().1;
            let from_entry = support::types_of(c.from).iter().find(|e| e.name == c.type_name).unwrap();
            let to_entry = support::types_of(c.to).iter().find(|e| e.name == c.type_name).unwrap();
            assert_ne!((from_entry.type_id)(), (to_entry.type_id)(), "{}: a conversion of one Rust type", c.type_name);
            let back = table.iter().find(|b| b.type_name == c.type_name && b.from == c.to).unwrap();
            let mut refused_here = 0;
            let mut tried = 0;
            for value in support::values_of(from_rev, c.type_name, examples) {
                // What the value is in its own revision: as that revision writes it.
                let Ok(written) = (from_entry.roundtrip)(&value.to_string()) else { continue };
                tally.values += 1;
                tried += 1;
                let converted = (c.convert)(&written.to_string());
                // What a peer of the other revision reads of that JSON.
                let read = (to_entry.roundtrip)(&written.to_string());
                let at = format!("{} {} to {}: {written}", c.type_name, c.from, c.to);
                if let Ok(made) = &converted {
                    let schema = &schemas.iter().find(|(n, _)| n.as_str() == c.to).unwrap().1;
                    // A message of a method the revision does not know passes through as
                    // `Other`, by design; schema.json lists only the known.
                    let passed_through = to_entry.choose.is_some_and(|choose| choose(made.clone()) == Ok("Other"));
                    if schema.defines(c.type_name) && !passed_through {
                        tally.validated += 1;
                        let errors: Vec<String> = schema
                            .errors(c.type_name, made)
                            .into_iter()
                            .filter(|e| !support::not_checked_by_design(c.type_name, e))
                            .collect();
                        if !errors.is_empty() {
                            failures
                                .push(format!("{at}\n  made {made}, which {}'s schema.json rejects: {errors:?}", c.to));
                        }
                    }
                }
                match (&converted, &read) {
                    (Ok(a), Ok(b)) if a == b => {}
                    (Err(e), Err(_)) if !c.lossless => {
                        refused_here += 1;
                        let head = format!("{} ({} to {}): ", c.type_name, c.from, c.to);
                        if !e.starts_with(&head) {
                            failures.push(format!("{at}\n  the error does not name the type and revisions: {e}"));
                        }
                    }
                    (Err(e), _) if c.lossless => failures.push(format!("{at}\n  a From failed: {e}")),
                    _ => failures.push(format!("{at}\n  converted {converted:?}, but read as {read:?}")),
                }
                // Both ways by `From`: the value comes back as it was.
                if let (Ok(there), true, true) = (&converted, c.lossless, back.lossless) {
                    match (back.convert)(&there.to_string()) {
                        Ok(again) if again == written => tally.round_trips += 1,
                        other => failures.push(format!("{at}\n  back: {other:?}")),
                    }
                }
            }
            if tried == 0 {
                failures.push(format!("{} {} to {}: no value of it read", c.type_name, c.from, c.to));
            }
            // A TryFrom no sample made refuse: values near the samples (a member
            // of each JSON kind, a member the target names, of each kind) that
            // its own revision writes and the other's rejects; the conversion
            // must refuse the first such, naming the type.
            if !c.lossless && refused_here == 0 {
                let to_rev = if c.to == old.name { old } else { new };
                let names = support::declared_names(to_rev, c.type_name);
                // And, for a union read by a tag, each sample with each tag value the
                // target lists: a message the source keeps whole as `Other` (a method
                // it does not know) that the target reads as its member.
                let retag = |v: &Value| -> Vec<Value> {
                    let Some(mcp_spec_codegen::model::ItemKind::Union(u)) = to_rev.item(c.type_name).map(|i| &i.kind)
                    else {
                        return Vec::new();
                    };
                    let Some(field) = u.tag_field() else { return Vec::new() };
                    let tags = u.variants.iter().flat_map(|m| &m.tags).filter_map(|t| match &t.value {
                        mcp_spec_codegen::model::LiteralValue::Str(s) => Some(s.clone()),
                        _ => None,
                    });
                    tags.filter_map(|t| {
                        let mut w = v.clone();
                        w.as_object_mut()?.insert(field.to_string(), Value::String(t));
                        Some(w)
                    })
                    .collect()
                };
                let near = support::values_of(from_rev, c.type_name, examples)
                    .iter()
                    .flat_map(|v| retag(v).into_iter().chain(support::probes(v, &names)))
                    .filter_map(|p| (from_entry.roundtrip)(&p.to_string()).ok())
                    .find(|w| (to_entry.roundtrip)(&w.to_string()).is_err());
                if let Some(written) = near {
                    tally.refused_near += 1;
                    match (c.convert)(&written.to_string()) {
                        Err(e) if e.starts_with(&format!("{} ({} to {}): ", c.type_name, c.from, c.to)) => {
                            refused_here += 1
                        }
                        other => failures.push(format!(
                            "{} {} to {}: {written}, which {} rejects, converted as {other:?}",
                            c.type_name, c.from, c.to, c.to
                        )),
                    }
                }
            }
            tally.refused += refused_here;
            tally.refusing += usize::from(refused_here > 0);
            if !c.lossless && refused_here == 0 {
                never_refused.push(format!("{} {} to {}", c.type_name, c.from, c.to));
            }
            if !c.lossless {
                try_froms.insert((c.type_name.to_string(), c.from.to_string(), c.to.to_string()), refused_here > 0);
            }
        }
    }
    // What the review says of each: a union whose members' TryFroms (one at
    // least) each refused a value.
    for name in &never_refused {
        let mut words = name.split(' ');
        let (ty, from, to) = (words.next().unwrap(), words.next().unwrap(), words.nth(1).unwrap());
        let rev = spec.revision(from).unwrap();
        let Some(mcp_spec_codegen::model::ItemKind::Union(u)) = rev.item(ty).map(|i| &i.kind) else {
            failures.push(format!("{name}: refused no value, and is not a union"));
            continue;
        };
        let members: Vec<(&str, bool)> = u
            .variants
            .iter()
            .filter_map(|v| match &v.ty {
                mcp_spec_codegen::model::Type::Named(n) => {
                    try_froms.get(&(n.clone(), from.to_string(), to.to_string())).map(|r| (n.as_str(), *r))
                }
                _ => None,
            })
            .collect();
        let why = NEVER_REFUSED.iter().find(|(c, _)| c == name).map(|(_, why)| *why);
        let holds = match why {
            Some(MEMBERS_REFUSE) => !members.is_empty() && members.iter().all(|(_, refused)| *refused),
            Some(HAND_BUILT_OTHER) => members.is_empty() && u.fallback().is_some(),
            _ => false,
        };
        if !holds {
            failures.push(format!(
                "{name}: refused no value, reviewed as {why:?}; its members' TryFroms (and whether each refused): {members:?}, a catch-all member: {}",
                u.fallback().is_some()
            ));
        }
    }
    eprintln!("{tallies:#?}");
    eprintln!("{} TryFrom conversions refused no value:\n{}", never_refused.len(), never_refused.join("\n"));
    assert!(failures.is_empty(), "{} conversions went wrong:\n{}", failures.len(), failures.join("\n"));
    assert!(pairs >= 4, "conversions for only {pairs} pairs");
    for (pair, t) in &tallies {
        assert!(t.values >= 4 * t.conversions, "{pair}: only {} values for {} conversions", t.values, t.conversions);
        assert!(t.round_trips > 0, "{pair}: no value went both ways");
    }
    // A TryFrom is there because some value does not fit: the values find such ones.
    let refusing: usize = tallies.values().map(|t| t.refusing).sum();
    // 104 on 2026-12-04: at least nine tenths of them.
    assert!(refusing >= 94, "only {refusing} TryFrom conversions refused any value (104 did): {tallies:#?}");
    // The others, reviewed: each is on `NEVER_REFUSED`, with why, and the list is
    // exactly what ran (52 on 2026-12-04 before values near the samples were
    // tried; 16 since).
    let reviewed: BTreeSet<&str> = NEVER_REFUSED.iter().map(|(c, _)| *c).collect();
    let found: BTreeSet<&str> = never_refused.iter().map(String::as_str).collect();
    assert_eq!(found, reviewed, "TryFroms that refused no value, against the reviewed list NEVER_REFUSED");
    for (pair, t) in &tallies {
        assert!(
            t.validated * 2 >= t.values,
            "{pair}: only {} of {} converted values checked against schema.json",
            t.validated,
            t.values
        );
    }
}

#[test]
fn a_union_converts_to_the_member_it_is_and_unknown_members_travel() {
    use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};

    let image: old::ContentBlock = old::ImageContent::new("aGk=", "image/png").into();
    let converted: new::ContentBlock = image.into();
    let new::ContentBlock::ImageContent(image) = converted else { panic!("{converted:?}") };
    assert_eq!((image.data.as_str(), image.mime_type.as_str()), ("aGk=", "image/png"));

    // A member the schema does not name stays in `extra`, both ways.
    let tool: old::Tool =
        mcp_spec_types::from_str(r#"{"name":"get_weather","inputSchema":{"type":"object"},"x-vendor":{"tier":2}}"#)
            .unwrap();
    let modern: new::Tool = tool.into();
    assert_eq!(modern.extra["x-vendor"], json!({"tier": 2}));
    let legacy = old::Tool::try_from(modern).unwrap();
    assert_eq!(legacy.extra["x-vendor"], json!({"tier": 2}));

    // A 2025-11-25 client request 2026-07-28 has no member for reads as the
    // request it is generically, kept whole. (A `TryFrom`: a generic request
    // built in Rust may name a method 2026-07-28 types, with params that do not fit.)
    let initialize: old::ClientRequest = mcp_spec_types::from_str(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
    )
    .unwrap();
    assert_eq!(initialize.member_name(), "InitializeRequest");
    let modern = new::ClientRequest::try_from(initialize).unwrap();
    assert_eq!(modern.member_name(), "Other");
    let forged = old::ClientRequest::Other(old::JSONRPCRequest::new(2, "tools/call"));
    let error = new::ClientRequest::try_from(forged).unwrap_err();
    assert!(error.to_string().starts_with("ClientRequest (2025-11-25 to 2026-07-28): "), "{error}");
    assert!(error.to_string().contains("CallToolRequest"), "{error}");

    // What 2026-07-28 added and 2025-11-25 does not name: kept in `extra`.
    let result: new::CallToolResult =
        mcp_spec_types::from_str(r#"{"resultType":"complete","content":[],"isError":false}"#).unwrap();
    let legacy = old::CallToolResult::try_from(result).unwrap();
    assert_eq!(legacy.extra["resultType"], "complete");
}

#[test]
fn a_try_from_names_the_member_that_does_not_fit() {
    use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};

    // 2026-07-28 requires `_meta` with the protocol version and capabilities.
    let request = old::CallToolRequest::new(7, old::CallToolRequestParams::new("get_weather"));
    let error = new::CallToolRequest::try_from(request).unwrap_err();
    assert_eq!(error.type_name(), "CallToolRequest");
    assert_eq!(error.revisions(), ("2025-11-25", "2026-07-28"));
    assert_eq!(error.path(), "params");
    assert_eq!(error.to_string(), "CallToolRequest (2025-11-25 to 2026-07-28): params: missing field `_meta`");

    // With it, the same request converts, its `_meta` typed in the new revision.
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let params = old::CallToolRequestParams::new("get_weather")
        .with_meta(mcp_spec_types::from_str::<old::RequestParamsMeta>(&meta.to_string()).unwrap());
    let request = new::CallToolRequest::try_from(old::CallToolRequest::new(7, params)).unwrap();
    assert_eq!(request.params.meta.io_modelcontextprotocol_protocol_version, "2026-07-28");

    // A 2026-07-28 list result's cache hints are required there; a 2025-11-25 one has none.
    let list: old::ListToolsResult = mcp_spec_types::from_str(r#"{"tools":[]}"#).unwrap();
    let error = new::ListToolsResult::try_from(list).unwrap_err();
    assert!(error.to_string().starts_with("ListToolsResult (2025-11-25 to 2026-07-28): missing field `"), "{error}");
    let value: Value = serde_json::from_str(r#"{"tools":[],"ttlMs":0,"cacheScope":"public"}"#).unwrap();
    let list: old::ListToolsResult = serde_json::from_value(value).unwrap();
    assert!(new::ListToolsResult::try_from(list).is_ok());
}

#[test]
fn a_from_leaves_out_an_unknown_member_the_newer_revision_names_with_another_shape() {
    use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};

    // 2025-11-25 does not name `extensions`, so a peer's odd one is kept as
    // unknown; 2026-07-28 names it, each entry an object. The `From` leaves out
    // the entry that does not fit, keeps the one that does, and keeps every
    // other member, unknown ones included; it does not panic.
    let text = r#"{"roots":{},"extensions":{"x":1,"io.example/y":{"on":true}},"experimentalThing":[1]}"#;
    let capabilities: old::ClientCapabilities = mcp_spec_types::from_str(text).unwrap();
    let converted = new::ClientCapabilities::from(capabilities);
    let extensions = converted.extensions.as_ref().expect("the entry that fits");
    assert_eq!(extensions.keys().collect::<Vec<_>>(), ["io.example/y"]);
    assert_eq!(
        serde_json::to_value(&converted).unwrap(),
        json!({"roots": {}, "extensions": {"io.example/y": {"on": true}}, "experimentalThing": [1]})
    );
    // The same value through the strict conversion is refused, naming where.
    let capabilities: old::ClientCapabilities = mcp_spec_types::from_str(text).unwrap();
    let strict: Result<new::ClientCapabilities, _> =
        mcp_spec_types::rt::convert(&capabilities, "ClientCapabilities", "2025-11-25", "2026-07-28");
    assert_eq!(strict.unwrap_err().path(), "extensions.x");
}
