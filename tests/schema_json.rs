//! Cross-validation against upstream's `schema.json`, which upstream derives from
//! the same schema.ts (typescript-json-schema): for all six revisions, every
//! definition has a generated type with the same members and required members;
//! and instances built from every definition (each optional member present and
//! absent, each union branch, each enum value) read into our type, write back
//! JSON-equal, and still validate against schema.json.
//!
//! Where the two disagree, schema.ts wins; each such case is listed in
//! `KNOWN_DISAGREEMENTS` with its reason.

use std::collections::{BTreeMap, BTreeSet};

use mcp_spec_codegen::model::{ItemKind, Revision, Type};
use mcp_spec_codegen::sample::{Fill, sample};
use mcp_spec_tests as support;
use serde_json::{Map, Value, json};

/// (revision or `*`, definition, what differs, why schema.ts is right).
const KNOWN_DISAGREEMENTS: &[(&str, &str, &str, &str)] = &[];

fn known(rev: &str, def: &str, what: &str) -> bool {
    KNOWN_DISAGREEMENTS.iter().any(|(r, d, w, _)| (*r == "*" || *r == rev) && *d == def && what.starts_with(w))
}

struct Doc {
    root: Value,
    defs_key: &'static str,
}

impl Doc {
    fn defs(&self) -> &Map<String, Value> {
        self.root[self.defs_key].as_object().expect("definitions")
    }
    fn follow<'a>(&'a self, schema: &'a Value) -> &'a Value {
        let mut s = schema;
        for _ in 0..16 {
            match s.get("$ref").and_then(Value::as_str) {
                Some(r) => s = &self.defs()[r.rsplit('/').next().unwrap_or("")],
                None => break,
            }
        }
        s
    }

    /// A schema with its `$ref`s followed and an `allOf` of objects merged into
    /// one object (properties, required members, additional properties).
    fn resolve(&self, schema: &Value) -> Value {
        let s = self.follow(schema);
        let Some(parts) = s.get("allOf").and_then(Value::as_array) else { return s.clone() };
        let mut props = Map::new();
        let mut required: Vec<Value> = Vec::new();
        let mut additional = None;
        for part in parts {
            let part = self.resolve(part);
            if let Some(p) = part.get("properties").and_then(Value::as_object) {
                for (k, v) in p {
                    props.insert(k.clone(), v.clone());
                }
            }
            for r in part.get("required").and_then(Value::as_array).into_iter().flatten() {
                if !required.contains(r) {
                    required.push(r.clone());
                }
            }
            if let Some(a) = part.get("additionalProperties") {
                additional = Some(a.clone());
            }
        }
        let mut merged = json!({ "type": "object", "properties": props, "required": required });
        if let Some(a) = additional {
            merged["additionalProperties"] = a;
        }
        merged
    }
    /// A validator for one definition, within the whole document.
    fn validator(&self, def: &str) -> jsonschema::Validator {
        let mut root = self.root.clone();
        let r = format!("#/{}/{def}", self.defs_key);
        root.as_object_mut().unwrap().insert("allOf".into(), json!([{ "$ref": r }]));
        jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("schema.json does not compile for {def}: {e}"))
    }
}

/// Instances of a schema: `wide` (at the top) gives one per union branch, enum
/// value and type, and both "all optional members" and "required only". Below
/// the top one branch, enum value and type is taken at each place: the
/// `rot`-th (counted on by depth), so calls with other `rot`s reach other ones.
fn instances(doc: &Doc, schema: &Value, depth: usize, wide: bool, all_optional: bool, rot: usize) -> Vec<Value> {
    let nth = |len: usize| (rot + depth) % len.max(1);
    let resolved = doc.resolve(schema);
    let schema = &resolved;
    if let Some(c) = schema.get("const") {
        return vec![c.clone()];
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return if wide { values.clone() } else { values.get(nth(values.len())).cloned().into_iter().collect() };
    }
    if let Some(branches) = schema.get("anyOf").or_else(|| schema.get("oneOf")).and_then(Value::as_array) {
        let picked: Vec<&Value> =
            if wide { branches.iter().collect() } else { branches.get(nth(branches.len())).into_iter().collect() };
        return picked.into_iter().flat_map(|b| instances(doc, b, depth + 1, false, all_optional, rot)).collect();
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if schema.get("properties").is_some() => vec!["object"],
        _ => vec!["any"],
    };
    let types = if wide { types } else { types.get(nth(types.len())).copied().into_iter().collect() };
    let mut out = Vec::new();
    for t in types {
        match t {
            "object" => {
                let modes: &[bool] = if wide {
                    &[true, false]
                } else if all_optional && depth < 4 {
                    &[true]
                } else {
                    &[false]
                };
                for &all in modes {
                    let mut m = Map::new();
                    let required: BTreeSet<&str> = schema
                        .get("required")
                        .and_then(Value::as_array)
                        .map(|r| r.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                        for (k, p) in props {
                            if (required.contains(k.as_str()) || (all && depth < 4))
                                && let Some(v) = instances(doc, p, depth + 1, false, all, rot).into_iter().next()
                            {
                                m.insert(k.clone(), v);
                            }
                        }
                        // schema.json types every result's `resultType` as the whole
                        // `ResultType`; the spec says the value decides which result it
                        // is (`input_required`: an InputRequiredResult, the one with
                        // `inputRequests`), so an instance says what it is.
                        if m.contains_key("resultType") {
                            let asks = props.contains_key("inputRequests");
                            m.insert("resultType".into(), json!(if asks { "input_required" } else { "complete" }));
                        }
                    }
                    if all
                        && depth < 4
                        && let Some(extra) = schema.get("additionalProperties").filter(|a| a.is_object())
                        && let Some(v) = instances(doc, extra, depth + 1, false, false, rot).into_iter().next()
                    {
                        m.insert("x-extension".into(), v);
                    }
                    out.push(Value::Object(m));
                }
            }
            "array" => {
                let item = schema
                    .get("items")
                    .map(|i| instances(doc, i, depth + 1, false, all_optional, rot))
                    .unwrap_or_default();
                out.push(if depth < 5 { Value::Array(item.into_iter().take(1).collect()) } else { json!([]) });
            }
            "string" => out.push(json!(match schema.get("format").and_then(Value::as_str) {
                Some("uri") => "https://example.com/a",
                Some("date-time") => "2025-01-01T00:00:00Z",
                Some("byte") => "aGVsbG8=",
                Some("email") => "a@example.com",
                _ => "text",
            })),
            "integer" => out.push(json!(
                schema
                    .get("minimum")
                    .and_then(Value::as_i64)
                    .unwrap_or(1)
                    .max(1)
                    .min(schema.get("maximum").and_then(Value::as_i64).unwrap_or(i64::MAX))
            )),
            "number" => out.push(json!(
                schema
                    .get("minimum")
                    .and_then(Value::as_f64)
                    .map(|m| m + 0.5)
                    .unwrap_or(0.5)
                    .min(schema.get("maximum").and_then(Value::as_f64).unwrap_or(f64::MAX))
            )),
            "boolean" => out.push(json!(true)),
            "null" => out.push(Value::Null),
            _ => out.push(json!({})),
        }
    }
    out
}

/// A declared type's name through aliases (`EmptyResult` → `Result`), as
/// schema.json names it.
fn canonical(rev: &Revision, name: &str) -> String {
    match rev.canonical(&Type::Named(name.to_string())) {
        Type::Named(n) => n.clone(),
        _ => name.to_string(),
    }
}

/// The declared types a union stands for, as schema.json lists its branches: a
/// member that is a union gives its own members; the members this crate adds
/// (the fallback for unknown methods, `Other` for unlisted result types) are not
/// the schema's.
fn leaves(rev: &Revision, union: &str, out: &mut BTreeSet<String>, depth: usize) {
    let Some(ItemKind::Union(u)) = rev.item(union).map(|i| &i.kind) else { return };
    for (i, v) in u.variants.iter().enumerate() {
        if Some(i) == u.fallback() || Some(i) == u.selector().and_then(|s| s.other) {
            continue;
        }
        // schema.json writes a member that is an array or a primitive in place,
        // without a `$ref`: only named ones are compared.
        let Type::Named(n) = rev.canonical(&v.ty) else { continue };
        let n = n.clone();
        match rev.item(&n).map(|i| &i.kind) {
            Some(ItemKind::Union(_)) if depth < 8 => leaves(rev, &n, out, depth + 1),
            _ => {
                out.insert(n);
            }
        }
    }
}

/// The members a value reads as, union inside union, by the generated choosers:
/// `[EnumSchema, SingleSelectEnumSchema, UntitledSingleSelectEnumSchema]`.
fn chosen_path(
    rev: &Revision,
    types: &BTreeMap<&str, &mcp_spec_types::rt::TypeEntry>,
    union: &str,
    value: &Value,
) -> Result<Vec<String>, String> {
    let mut path = Vec::new();
    let mut at = union.to_string();
    while let Some(choose) = types.get(at.as_str()).and_then(|t| t.choose) {
        let member = choose(value.clone())?;
        let ItemKind::Union(u) = &rev.item(&at).ok_or("no such union")?.kind else { break };
        let Some(Type::Named(n)) = u.variants.iter().find(|v| v.name == member).map(|v| &v.ty) else {
            path.push(member.to_string());
            break;
        };
        at = canonical(rev, n);
        path.push(at.clone());
        if path.len() > 8 {
            break;
        }
    }
    Ok(path)
}

/// Every member name a struct of the model has, and the required ones.
fn members(rev: &Revision, name: &str) -> Option<(BTreeSet<String>, BTreeSet<String>)> {
    let mut n = name.to_string();
    for _ in 0..8 {
        match &rev.item(&n)?.kind {
            ItemKind::Struct(s) => {
                let all = s.fields.iter().map(|f| f.wire.clone()).collect();
                let required = s.fields.iter().filter(|f| f.is_required()).map(|f| f.wire.clone()).collect();
                return Some((all, required));
            }
            ItemKind::Alias(Type::Named(m)) => n = m.clone(),
            // A message union of one member (`type ClientNotification =
            // CancelledNotification`), which schema.json inlines: that member,
            // beside the `Other` the generator adds for unknown methods.
            ItemKind::Union(u) if u.variants.len() == 2 && u.fallback() == Some(1) => match &u.variants[0].ty {
                Type::Named(m) => n = m.clone(),
                _ => return None,
            },
            _ => return None,
        }
    }
    None
}

#[test]
fn schema_json_definitions_match_the_generated_types_and_their_instances_round_trip() {
    let (spec, warnings) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    // The generator's own ambiguity warnings: (revision, union, the member an
    // input was made for, the member the rule picks). An instance built from one
    // branch may read as another only where the generator said so.
    let predicted: BTreeSet<(String, String, String, String)> = warnings
        .warnings()
        .filter_map(|w| {
            let m = &w.message;
            let rev = m.strip_prefix("in revision ")?.split(',').next()?.to_string();
            let ticks: Vec<&str> = m.split('`').skip(1).step_by(2).collect();
            Some((rev, ticks.first()?.to_string(), ticks.get(1)?.to_string(), ticks.last()?.to_string()))
        })
        .collect();
    assert!(!predicted.is_empty(), "the generator warns of the schema's ambiguous unions");
    let mut report = Vec::new();
    let mut total_made = 0;
    let mut problems = Vec::new();
    let mut used_disagreements = BTreeSet::new();
    for rev in &spec.revisions {
        let path = rev.schema_path.with_file_name("schema.json");
        let root: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
                .unwrap();
        let defs_key = if root.get("$defs").is_some() { "$defs" } else { "definitions" };
        let doc = Doc { root, defs_key };
        let types: BTreeMap<&str, &mcp_spec_types::rt::TypeEntry> =
            support::types_of(&rev.name).iter().map(|t| (t.name, t)).collect();
        let (mut defs, mut made, mut round_tripped, mut members_checked, mut branch_lists) = (0, 0, 0, 0, 0);
        let mut note = |problems: &mut Vec<String>, def: &str, what: String| {
            if known(&rev.name, def, &what) {
                used_disagreements.insert(def.to_string());
            } else {
                problems.push(format!("{} {def}: {what}", rev.name));
            }
        };
        for (def, schema) in doc.defs() {
            defs += 1;
            let Some(entry) = types.get(def.as_str()) else {
                if rev.item(def).is_some_and(|i| matches!(i.kind, ItemKind::Const(_))) {
                    continue; // a const, not a type
                }
                note(&mut problems, def, "no generated type of this name".into());
                continue;
            };
            // Structure: member names and required members.
            let resolved = doc.resolve(schema);
            if let Some(props) = resolved.get("properties").and_then(Value::as_object) {
                let theirs: BTreeSet<String> = props.keys().cloned().collect();
                let their_required: BTreeSet<String> = resolved
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                    .unwrap_or_default();
                match members(rev, def) {
                    Some((ours, our_required)) => {
                        if ours != theirs {
                            note(
                                &mut problems,
                                def,
                                format!(
                                    "members differ: schema.json only {:?}, schema.ts only {:?}",
                                    theirs.difference(&ours).collect::<Vec<_>>(),
                                    ours.difference(&theirs).collect::<Vec<_>>()
                                ),
                            );
                        }
                        if our_required != their_required {
                            note(
                                &mut problems,
                                def,
                                format!(
                                    "required members differ: schema.json {their_required:?}, schema.ts {our_required:?}"
                                ),
                            );
                        }
                    }
                    None => note(&mut problems, def, "an object in schema.json, not an object type here".into()),
                }
            }
            // String enums: the same values, and closed where schema.json lists them.
            if let Some(values) = resolved.get("enum").and_then(Value::as_array) {
                let theirs: BTreeSet<&str> = values.iter().filter_map(Value::as_str).collect();
                match rev.item(def).map(|i| &i.kind) {
                    Some(ItemKind::Enum(e)) => {
                        let ours: BTreeSet<&str> = e.values.iter().map(|v| v.value.as_str()).collect();
                        if ours != theirs || e.open {
                            note(
                                &mut problems,
                                def,
                                format!(
                                    "enum values differ: schema.json {theirs:?}, schema.ts {ours:?} (open: {})",
                                    e.open
                                ),
                            );
                        }
                    }
                    _ => note(&mut problems, def, "an enum in schema.json, not an enum here".into()),
                }
            }
            // Unions: schema.json's branches are our members, and an instance built
            // from a branch reads as that branch's member.
            let branches: Vec<String> = resolved
                .get("anyOf")
                .or_else(|| resolved.get("oneOf"))
                .and_then(Value::as_array)
                .map(|b| {
                    b.iter().filter_map(|b| b.get("$ref")?.as_str()?.rsplit('/').next().map(String::from)).collect()
                })
                .unwrap_or_default();
            if let (Some(ItemKind::Union(_)), false) = (rev.item(def).map(|i| &i.kind), branches.is_empty()) {
                let branches: Vec<String> = branches.iter().map(|b| canonical(rev, b)).collect();
                let mut ours = BTreeSet::new();
                leaves(rev, def, &mut ours, 0);
                let theirs: BTreeSet<String> = branches.iter().cloned().collect();
                if ours != theirs {
                    note(
                        &mut problems,
                        def,
                        format!("union members differ: schema.json {theirs:?}, schema.ts {ours:?}"),
                    );
                }
                branch_lists += 1;
                let schemas = resolved.get("anyOf").or_else(|| resolved.get("oneOf")).and_then(Value::as_array);
                let refs = schemas.into_iter().flatten().filter(|b| b.get("$ref").is_some());
                for (branch, b) in branches.iter().zip(refs) {
                    for rot in 0..3 {
                        for instance in instances(&doc, b, 1, false, rot != 1, rot) {
                            let path = match chosen_path(rev, &types, def, &instance) {
                                Ok(path) => path,
                                Err(e) => {
                                    note(
                                        &mut problems,
                                        def,
                                        format!("an instance of {branch} is rejected: {e}\n    {instance}"),
                                    );
                                    continue;
                                }
                            };
                            members_checked += 1;
                            let leaf = path.last().cloned().unwrap_or_default();
                            let warned = predicted.iter().any(|(r, u, m, c)| {
                                *r == rev.name
                                    && canonical(rev, m) == *branch
                                    && (u == def || path.contains(u))
                                    && path.contains(&canonical(rev, c))
                            });
                            if leaf != *branch && !warned {
                                note(
                                    &mut problems,
                                    def,
                                    format!(
                                        "an instance of {branch} reads as {}, which the generator did not warn of:\n    {instance}",
                                        path.join(" > ")
                                    ),
                                );
                            }
                        }
                    }
                }
            }
            // Instances.
            let validator = doc.validator(def);
            let mut all: Vec<Value> = Vec::new();
            for rot in 0..3 {
                for instance in instances(&doc, schema, 0, true, true, rot) {
                    if !all.contains(&instance) {
                        all.push(instance);
                    }
                }
            }
            for instance in all {
                if !validator.is_valid(&instance) {
                    let why = validator.validate(&instance).err().map(|e| e.to_string()).unwrap_or_default();
                    problems.push(format!(
                        "{} {def}: the test made an instance schema.json rejects ({why}): {instance}",
                        rev.name
                    ));
                    continue;
                }
                made += 1;
                let (result, kept) = support::roundtrip_logged(entry, &instance.to_string());
                // Only the test's own `x-extension` members are unknown: anything
                // else was misread (a misnamed member, the wrong union member).
                let misread: Vec<&String> = kept.iter().filter(|k| *k != "x-extension").collect();
                if !misread.is_empty() {
                    note(&mut problems, def, format!("members kept as unknown: {misread:?}\n    {instance}"));
                }
                match result {
                    Ok(back) if back == instance => {
                        round_tripped += 1;
                    }
                    Ok(back) => {
                        let valid = if validator.is_valid(&back) { "still valid" } else { "not valid" };
                        note(
                            &mut problems,
                            def,
                            format!("written back differently ({valid}):\n    read    {instance}\n    written {back}"),
                        );
                    }
                    Err(e) => note(&mut problems, def, format!("a valid instance is rejected: {e}\n    {instance}")),
                }
            }
        }
        // The other way: values our types write (the model's samples of every
        // type, read and written by the generated code) validate against schema.json.
        let mut written_valid = 0;
        for (def, _) in doc.defs() {
            let (Some(entry), Some(item)) = (types.get(def.as_str()), rev.item(def)) else { continue };
            if matches!(item.kind, ItemKind::Const(_)) {
                continue;
            }
            let validator = doc.validator(def);
            for fill in [Fill::Required, Fill::All] {
                let input = sample(rev, &Type::Named(def.clone()), fill);
                let Ok(written) = (entry.roundtrip)(&input.to_string()) else {
                    note(&mut problems, def, format!("our own sample is rejected: {input}"));
                    continue;
                };
                match validator.validate(&written) {
                    Ok(()) => written_valid += 1,
                    Err(e) => {
                        note(&mut problems, def, format!("what our type writes is not valid: {e}\n    {written}"))
                    }
                }
            }
        }
        report.push(format!(
            "{}: {defs} definitions, {made} instances from schema.json, {round_tripped} round-tripped; {branch_lists} unions' branches compared, {members_checked} instances read as the branch they were made from; {written_valid} values written by our types valid",
            rev.name
        ));
        // At least one instance of every definition that is not a const.
        assert!(
            made >= defs - rev.items.values().filter(|i| matches!(i.kind, ItemKind::Const(_))).count(),
            "{}",
            report.last().unwrap()
        );
        assert!(branch_lists > 0 && members_checked > branch_lists, "{}", report.last().unwrap());
        total_made += made;
    }
    // docs/architecture.md says about 2,700; an earlier README said 1,700 (measured when the branches below the top were
    // only the first ones); more are made now.
    assert!(total_made >= 2_450, "{total_made} instances (2,728 at the last count):\n{}", report.join("\n"));
    println!("{}", report.join("\n"));
    let unused: Vec<&str> =
        KNOWN_DISAGREEMENTS.iter().map(|(_, d, _, _)| *d).filter(|d| !used_disagreements.contains(*d)).collect();
    assert!(unused.is_empty(), "known disagreements that no longer occur (remove them): {unused:?}");
    assert!(problems.is_empty(), "{} problems:\n{}\n\n{}", problems.len(), problems.join("\n"), report.join("\n"));
}
