//! Every member of every union of every revision, with an input made for it
//! (only its required members, and all of them): the generated code chooses what
//! the model's rule chooses, and where that is not the member the input was made
//! for, the generator has warned that the two are indistinguishable.

use mcp_spec_codegen::model::ItemKind;
use mcp_spec_codegen::rule as check;
use mcp_spec_codegen::sample::Fill;
use mcp_spec_tests as support;

#[test]
fn every_union_member_is_chosen_for_its_own_input() {
    let (spec, warnings) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let (mut cases, mut own) = (0, 0);
    let mut ambiguous = String::new();
    let mut failures = Vec::new();
    for rev in &spec.revisions {
        let types = support::types_of(&rev.name);
        for item in rev.items.values() {
            let ItemKind::Union(u) = &item.kind else { continue };
            let entry = types.iter().find(|t| t.name == item.name).expect("every union is in the type table");
            let choose = entry.choose.expect("unions have a chooser");
            for (i, v) in u.variants.iter().enumerate() {
                // Turns below the top reach the other members of nested unions and
                // the other values of enums, not only the first.
                for (fill, turn) in [Fill::Required, Fill::All].into_iter().flat_map(|f| (0..3).map(move |t| (f, t))) {
                    cases += 1;
                    let input = check::member_sample_turn(rev, u, i, fill, turn);
                    // The oracle is the member the input was made for; where the
                    // rule picks another, the generator must have warned of exactly
                    // that pair, and the case is listed in a reviewed golden file.
                    match choose(input.clone()) {
                        Ok(chosen) if chosen == v.name => own += 1,
                        Ok(chosen) => {
                            let warned = warnings.warnings().any(|w| {
                                w.message.contains(&format!(
                                    "in revision {}, union `{}`: an input for `{}`",
                                    rev.name, item.name, v.name
                                )) && w.message.ends_with(&format!("the rule picks `{chosen}`"))
                            });
                            if warned {
                                ambiguous.push_str(&format!(
                                    "{} {}: an input for `{}` ({fill:?}, turn {turn}) reads as `{chosen}`: {input}\n",
                                    rev.name, item.name, v.name
                                ));
                            } else {
                                failures.push(format!(
                                    "{} {}: input for `{}` ({fill:?}, turn {turn}) chose `{chosen}` with no warning from the generator: {input}",
                                    rev.name, item.name, v.name
                                ));
                            }
                        }
                        Err(e) => failures.push(format!(
                            "{} {}: input for `{}` ({fill:?}, turn {turn}) failed: {e}",
                            rev.name, item.name, v.name
                        )),
                    }
                    // And it reads strictly: written back equal, nothing kept as unknown
                    // (the selector's unlisted value aside, the input is all schema).
                    if let Err(e) = support::roundtrip_strict(entry, &input) {
                        failures.push(format!(
                            "{} {}: input for `{}` ({fill:?}, turn {turn}): {e}",
                            rev.name, item.name, v.name
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} union cases failed:\n{}", failures.len(), failures.join("\n"));
    let listed = ambiguous.lines().count();
    assert_eq!(own + listed, cases, "every case chose its own member or a listed one");
    // The cases where the rule picks another member, pinned: a change here is a
    // change of the rule or of the schema, to be reviewed.
    support::assert_golden("members/ambiguous.txt", &ambiguous);
    eprintln!("{cases} union inputs: {own} chose their own member, {listed} another the generator warns about");
}

/// The hard cases named in the design: the result of a `CallToolResultResponse`
/// with `content` is a `CallToolResult`, and `ServerResult` does not fall back to
/// the bare `Result` when a more specific member fits.
#[test]
fn hard_cases_choose_the_specific_member() {
    use mcp_spec_types::v2026_07_28 as v;
    let r: v::CallToolResultResponse = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"hi"}]}}"#,
    )
    .unwrap();
    assert!(matches!(r.result, v::CallToolResultResponseResult::CallToolResult(ref c) if c.content.len() == 1));
    let r: v::CallToolResultResponse = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"abc"}}"#,
    )
    .unwrap();
    assert!(matches!(r.result, v::CallToolResultResponseResult::InputRequiredResult(_)));
    let s: v::ServerResult = serde_json::from_str(r#"{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[{"name":"t","inputSchema":{"type":"object"}}]}"#).unwrap();
    assert_eq!(s.member_name(), "ListToolsResult");
    let s: v::ServerResult = serde_json::from_str(r#"{"resultType":"complete"}"#).unwrap();
    assert_eq!(s.member_name(), "EmptyResult");
    let e: v::EnumSchema = serde_json::from_str(r#"{"type":"string","oneOf":[{"const":"a","title":"A"}]}"#).unwrap();
    assert!(matches!(
        e,
        v::EnumSchema::SingleSelectEnumSchema(v::SingleSelectEnumSchema::TitledSingleSelectEnumSchema(_))
    ));
    let e: v::EnumSchema =
        serde_json::from_str(r#"{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]}}"#).unwrap();
    assert!(matches!(
        e,
        v::EnumSchema::MultiSelectEnumSchema(v::MultiSelectEnumSchema::TitledMultiSelectEnumSchema(_))
    ));
    let e: v::EnumSchema = serde_json::from_str(r#"{"type":"string","enum":["a"],"enumNames":["A"]}"#).unwrap();
    assert!(matches!(e, v::EnumSchema::LegacyTitledEnumSchema(_)));
}

/// The model's account of the typed read (`rule::reads`, which the generator's
/// union check and the rule's own `choose` stand on) agrees with the generated
/// code's actual read, for every type of every revision: on samples of the type
/// (every fill, three turns below the top) and on near misses of each (a member
/// dropped, or its value replaced by one of each JSON kind, at the top and one
/// object below); for a union, the member chosen as well. The generated code is
/// the oracle; the model is checked.
#[test]
fn the_models_account_of_reading_agrees_with_the_generated_code() {
    use mcp_spec_codegen::model::Type;
    use mcp_spec_codegen::sample::sample_turn;
    use serde_json::{Value, json};

    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    // Every JSON kind, and numbers at the edges of what an integer is: whole
    // floats, negative ones, one too large for `i64`, one that is only a `u64`.
    let wrong_values = [
        json!(null),
        json!(true),
        json!("x"),
        json!(7),
        json!(7.0),
        json!(-7.0),
        json!(1.5),
        json!(1e300),
        json!(u64::MAX),
        json!([]),
        json!({}),
    ];
    // The value `v` turned into its nearest neighbours: an integer as the same
    // number written as a float and the next one, a boolean negated, a string
    // lengthened (a fixed member's value is then one step from the right one).
    let neighbours = |v: &Value| -> Vec<Value> {
        match v {
            Value::Number(n) if n.is_i64() => {
                let i = n.as_i64().unwrap_or_default();
                vec![json!(i as f64), json!(i.wrapping_add(1))]
            }
            Value::Bool(b) => vec![json!(!b)],
            Value::String(s) => vec![json!(format!("{s}x"))],
            _ => Vec::new(),
        }
    };
    // Every variant of `v` one step away at the object `at` (a path of keys):
    // each member dropped, each member's value replaced by each of `wrong_values`
    // and by its neighbours.
    let near = |v: &Value, at: &[String]| -> Vec<Value> {
        let mut out = Vec::new();
        let Some(Value::Object(m)) = at.iter().try_fold(v, |cur, k| cur.get(k.as_str())) else { return out };
        for key in m.keys() {
            let mut edits: Vec<Option<Value>> = vec![None];
            edits.extend(wrong_values.iter().cloned().map(Some));
            edits.extend(neighbours(&m[key]).into_iter().map(Some));
            for edit in edits {
                let mut copy = v.clone();
                let Some(Value::Object(target)) = at.iter().try_fold(&mut copy, |cur, k| cur.get_mut(k.as_str()))
                else {
                    continue;
                };
                match edit {
                    None => drop(target.shift_remove(key)),
                    Some(w) => drop(target.insert(key.clone(), w)),
                }
                out.push(copy);
            }
        }
        out
    };
    let (mut checked, mut rejected) = (0usize, 0usize);
    let mut failures = Vec::new();
    for rev in &spec.revisions {
        let types = support::types_of(&rev.name);
        for item in rev.items.values() {
            let Some(entry) = types.iter().find(|t| t.name == item.name) else { continue };
            let ty = Type::Named(item.name.clone());
            let mut inputs = std::collections::BTreeSet::new();
            for fill in [Fill::Required, Fill::All] {
                for turn in 0..3 {
                    let sample = sample_turn(rev, &ty, fill, turn);
                    inputs.insert(sample.to_string());
                    let mut places = vec![Vec::new()];
                    if let Value::Object(m) = &sample {
                        places.extend(m.iter().filter(|(_, v)| v.is_object()).map(|(k, _)| vec![k.clone()]));
                    }
                    for at in &places {
                        inputs.extend(near(&sample, at).iter().map(Value::to_string));
                    }
                }
            }
            for text in &inputs {
                let value: Value = serde_json::from_str(text).unwrap();
                let generated = (entry.read)(text);
                let model = check::reads(rev, &ty, &value);
                checked += 1;
                rejected += usize::from(generated.is_err());
                // A union: the member chosen, too (`rule::choose` against the runtime's).
                if let (ItemKind::Union(u), Some(choose)) = (&item.kind, entry.choose) {
                    let by_model = check::choose(rev, u, &value).map(|i| u.variants[i].name.as_str());
                    let by_generated = choose(value.clone()).ok();
                    if by_model != by_generated {
                        failures.push(format!(
                            "{} {}: the model chooses {by_model:?}, the generated code {by_generated:?}: {text}",
                            rev.name, item.name
                        ));
                    }
                }
                if model != generated.is_ok() {
                    failures.push(format!(
                        "{} {}: the model says {}, the generated code {}: {text}",
                        rev.name,
                        item.name,
                        if model { "it reads" } else { "it does not read" },
                        match &generated {
                            Ok(()) => "reads it".to_string(),
                            Err(e) => format!("does not ({e})"),
                        }
                    ));
                }
            }
        }
    }
    eprintln!("{checked} inputs, {rejected} of them errors for the generated code");
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    // Both answers occur by the ten thousand: the check is not one-sided.
    assert!(rejected >= 10_000 && checked - rejected >= 10_000, "{rejected} of {checked} rejected");
}
