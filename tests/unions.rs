//! Every member of every union of every revision, with an input made for it
//! (only its required members, and all of them): the generated code chooses what
//! the model's rule chooses, and where that is not the member the input was made
//! for, the generator has warned that the two are indistinguishable.

use mcp_spec_codegen::model::ItemKind;
use mcp_spec_codegen::rule as check;
use mcp_spec_codegen::sample::Fill;
use mcp_spec_tests as support;
use serde_json::json;

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
                    let input = mcp_spec_codegen::sample::member_sample_turn(rev, u, i, fill, turn);
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
/// code's actual read, for every type of every revision, on samples and near
/// misses (see [`support::model_agreement`]); for a union, the member chosen
/// as well. The generated code is the oracle; the model is checked. The golden
/// fixtures get the same check in the `golden` binary.
#[test]
fn the_models_account_of_reading_agrees_with_the_generated_code() {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let (mut checked, mut rejected) = (0usize, 0usize);
    let mut failures = Vec::new();
    for rev in &spec.revisions {
        let agreement = support::model_agreement(rev, support::types_of(&rev.name));
        checked += agreement.checked;
        rejected += agreement.rejected;
        failures.extend(agreement.failures);
    }
    eprintln!("{checked} inputs, {rejected} of them errors for the generated code");
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    // Both answers occur by the ten thousand: the check is not one-sided.
    // At the last count 125,430 of 154,677 (floors within 10%).
    assert!(rejected >= 112_000 && checked - rejected >= 26_300, "{rejected} of {checked} rejected");
}

/// The rule as the module docs of `choose` state it, written plainly (vectors,
/// a matrix of who declares what): the reference the stack-only `order` is held to.
fn order_as_stated<M: check::choose::Members>(
    members: &M,
    selector: Option<&check::choose::Selector<'_>>,
    look: &check::choose::Look<'_>,
) -> Vec<usize> {
    let mut pool: Vec<usize> = (0..members.count()).filter(|&i| members.kinds(i) & look.kind != 0).collect();
    if look.kind != check::choose::OBJECT || pool.is_empty() {
        return pool;
    }
    if let Some(sel) = selector {
        if let Some(value) = look.selected {
            if let Some(&(_, k)) = sel.picks.iter().find(|(v, _)| *v == value) {
                pool.retain(|&i| i == k);
                return pool;
            }
            if let (false, Some(other)) = (sel.listed.contains(&value), sel.other) {
                pool.retain(|&i| i == other);
                return pool;
            }
        }
        pool.retain(|&i| !sel.picks.iter().any(|&(_, k)| k == i) && sel.other != Some(i));
    }
    let n = pool.len();
    let declares: Vec<Vec<bool>> =
        look.keys.iter().map(|key| pool.iter().map(|&i| members.declares(i, key)).collect()).collect();
    let by: Vec<usize> = declares.iter().map(|row| row.iter().filter(|d| **d).count()).collect();
    let claims = |j: usize, test: &dyn Fn(usize) -> bool| (0..look.keys.len()).any(|k| declares[k][j] && test(by[k]));
    let alone = |count: usize| count == 1;
    let some = |count: usize| count < n;
    let tests: [&dyn Fn(usize) -> bool; 2] = [&alone, &some];
    let test = tests.into_iter().find(|test| (0..n).any(|j| claims(j, *test)));
    let mut ranked: Vec<(bool, usize, usize, usize)> = (0..n)
        .filter(|&j| test.is_none_or(|test| claims(j, test)))
        .map(|j| {
            let (required, complete) = members.requirement(pool[j], look.keys);
            let known = (0..look.keys.len()).filter(|&k| declares[k][j]).count();
            (complete, required, known, pool[j])
        })
        .collect();
    if ranked.len() > 1 && ranked.iter().any(|r| r.0) {
        ranked.retain(|r| r.0);
    }
    ranked.sort_by(|a, b| (b.0, b.1, b.2).cmp(&(a.0, a.1, a.2)).then(a.3.cmp(&b.3)));
    ranked.into_iter().map(|r| r.3).collect()
}

/// Made-up members: kinds, the keys each declares and those it requires.
struct Table {
    kinds: Vec<u8>,
    declared: Vec<Vec<&'static str>>,
    required: Vec<Vec<&'static str>>,
}

impl check::choose::Members for Table {
    fn count(&self) -> usize {
        self.kinds.len()
    }
    fn kinds(&self, i: usize) -> u8 {
        self.kinds[i]
    }
    fn declares(&self, i: usize, key: &str) -> bool {
        self.declared[i].contains(&key)
    }
    fn requirement(&self, i: usize, keys: &[&str]) -> (usize, bool) {
        let present = self.required[i].iter().filter(|r| keys.contains(r)).count();
        (present, present == self.required[i].len())
    }
}

#[test]
fn the_rule_orders_members_as_its_docs_state_it() {
    use check::choose::{self, Look, Selector};
    const KEYS: [&str; 6] = ["a", "b", "c", "d", "e", "resultType"];
    const VALUES: [&str; 3] = ["complete", "input_required", "odd"];
    // A fixed pseudo-random walk over tables, inputs and selectors.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |bound: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % bound as u64) as usize
    };
    let (mut cases, mut several) = (0, 0);
    for _ in 0..20_000 {
        let count = 1 + next(9);
        let subset = |next: &mut dyn FnMut(usize) -> usize| -> Vec<&'static str> {
            KEYS.iter().copied().filter(|_| next(3) == 0).collect()
        };
        let table = Table {
            kinds: (0..count)
                .map(|_| [choose::OBJECT, choose::STRING, choose::OBJECT | choose::NULL][next(3)])
                .collect(),
            declared: (0..count).map(|_| subset(&mut next)).collect(),
            required: (0..count).map(|_| subset(&mut next)).collect(),
        };
        let mut keys = subset(&mut next);
        if next(8) == 0 {
            keys.push("a");
        }
        let picks: Vec<(&str, usize)> = if next(2) == 0 { vec![("input_required", next(count))] } else { vec![] };
        let other = (next(3) == 0).then(|| next(count));
        let selector = Selector { field: "resultType", picks: &picks, listed: &VALUES[..2], other };
        let selected = (next(2) == 0).then(|| VALUES[next(3)]);
        let kind = [choose::OBJECT, choose::STRING, choose::ARRAY][next(3)];
        let look = Look { kind, keys: &keys, selected };
        let selector = (next(2) == 0).then_some(&selector);
        let expected = order_as_stated(&table, selector, &look);
        let got: Vec<usize> = choose::order(&table, selector, &look).into_iter().collect();
        assert_eq!(
            got, expected,
            "members {:?} {:?} {:?}, input {keys:?} {kind} {selected:?}, selector {selector:?}",
            table.kinds, table.declared, table.required
        );
        cases += 1;
        several += usize::from(expected.len() > 1);
    }
    // The walk reaches the interesting part: several candidates, ranked.
    assert!(several >= 4_470, "{several} of {cases} (4,969 at the last count)");

    // The most members a union may have: the last one's bit, and a full order.
    let own: Vec<&'static str> = (0..choose::MAX_MEMBERS).map(|i| &*format!("own{i}").leak()).collect();
    let table = Table {
        kinds: vec![choose::OBJECT; choose::MAX_MEMBERS],
        declared: own.iter().map(|k| vec!["common", *k]).collect(),
        required: (0..choose::MAX_MEMBERS).map(|i| if i % 2 == 0 { vec!["common"] } else { vec!["absent"] }).collect(),
    };
    for keys in [vec!["common", own[63]], vec!["common"], vec!["x"]] {
        let look = Look { kind: choose::OBJECT, keys: &keys, selected: None };
        let expected = order_as_stated(&table, None, &look);
        let got: Vec<usize> = choose::order(&table, None, &look).into_iter().collect();
        assert_eq!(got, expected, "{keys:?}");
    }
    let all = ["common"];
    let look = Look { kind: choose::OBJECT, keys: &all, selected: None };
    assert_eq!(choose::order(&table, None, &look).len(), choose::MAX_MEMBERS / 2, "the complete half");
    let last = ["common", own[63]];
    let look = Look { kind: choose::OBJECT, keys: &last, selected: None };
    assert_eq!(choose::order(&table, None, &look).as_slice(), &[63]);
}

/// The first look finds an object's keys by skipping over its values, strings
/// eight bytes at a time: an escaped quote or backslash at any place in a word,
/// a string ending at any place, multi-byte text, braces in a string, must all
/// end where JSON says. (The look is taken of text serde_json has read, so only
/// valid JSON is asked of it.)
#[test]
fn the_first_look_skips_strings_where_json_ends_them() {
    let pieces = ["a", "\\\"", "\\\\", "é", "\\u0041", "\\n", "{", "}", "\\\\\\\""];
    let mut cases = 0;
    for len in 0..20 {
        for piece in pieces {
            for at in 0..=len {
                let mut s = "x".repeat(len);
                s.insert_str(at, piece);
                let text = format!(r#"{{"a":"{s}","b":{{"c":["{s}",{{"d":"{s}"}}]}},"k":1}}"#);
                let object: serde_json::Map<String, serde_json::Value> =
                    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
                let keys: Vec<&str> = object.keys().map(String::as_str).collect();
                // The byte-level look itself (`scan` would fall back to serde).
                match mcp_spec_types::rt::scan_fast(&text, None, true) {
                    Some(Ok(scanned)) => assert_eq!(scanned.key_list().to_vec(), keys, "{text}"),
                    _ => panic!("{text}: the byte-level look gave up"),
                }
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 9 * (1..=20).sum::<usize>());
}

/// A union read through serde (one pass over its input's members, see
/// `rt::pairs`) and from text (a first look, then the member from the text)
/// agree: the same member, or the same error (serde's adds where), for every
/// union of every revision, on samples of each member and on near misses of
/// them (a member left out, a value of the wrong kind, an input of another
/// kind), each as compact text, pretty-printed, with a repeated key and with a
/// key written with an escape.
#[test]
fn every_union_reads_alike_through_serde_and_from_text() {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let (mut checked, mut errors) = (0usize, 0usize);
    let mut failures = Vec::new();
    for rev in &spec.revisions {
        let types = support::types_of(&rev.name);
        for item in rev.items.values() {
            let ItemKind::Union(u) = &item.kind else { continue };
            let entry = types.iter().find(|t| t.name == item.name).expect("every union is in the type table");
            let (text_reader, serde_reader) =
                (entry.choose_text.expect("a text reader"), entry.choose_read.expect("a serde reader"));
            let mut inputs = vec![json!([1]), json!("s"), json!(null), json!(1.5), json!({})];
            for i in 0..u.variants.len() {
                for fill in [Fill::Required, Fill::All] {
                    let sample = mcp_spec_codegen::sample::member_sample_turn(rev, u, i, fill, 0);
                    if let serde_json::Value::Object(members) = &sample {
                        for key in members.keys() {
                            let mut without = members.clone();
                            without.remove(key);
                            inputs.push(serde_json::Value::Object(without));
                            for wrong in [json!([]), json!("x"), json!({"k": 1})] {
                                let mut changed = members.clone();
                                changed.insert(key.clone(), wrong);
                                inputs.push(serde_json::Value::Object(changed));
                            }
                        }
                    }
                    inputs.push(sample);
                }
            }
            for input in inputs {
                // Each input as compact text, pretty-printed, with its first key
                // repeated, and with its first key written with an escape.
                let compact = input.to_string();
                let mut texts = vec![compact.clone(), serde_json::to_string_pretty(&input).unwrap()];
                if let Some((key, value)) = input.as_object().and_then(|o| o.iter().next()) {
                    let (key_text, value_text) = (serde_json::to_string(key).unwrap(), value.to_string());
                    texts.push(format!("{{{key_text}:{value_text},{}", &compact[1..]));
                    let escaped =
                        format!("\"\\u{:04x}{}", u32::from(key.chars().next().unwrap_or('a')), &key_text[2..]);
                    if key.chars().next().is_some_and(|c| c.is_ascii_alphanumeric()) {
                        texts.push(compact.replacen(&key_text, &escaped, 1));
                    }
                }
                for text in texts {
                    let from_text = text_reader(&text);
                    let through_serde = serde_reader(&text).map_err(|e| match e.rfind(" at line ") {
                        Some(at) => e[..at].to_string(),
                        None => e,
                    });
                    checked += 1;
                    errors += usize::from(from_text.is_err());
                    if from_text != through_serde {
                        failures.push(format!(
                            "{} {}: {text}\n  from text:    {from_text:?}\n  through serde: {through_serde:?}",
                            rev.name, item.name
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {checked} inputs read differently:\n{}", failures.len(), failures.join("\n"));
    assert!(
        checked >= 41_000 && errors >= 32_000,
        "{checked} inputs, {errors} errors (45,523 and 35,643 at the last count)"
    );
    eprintln!("{checked} inputs read alike through serde and from text ({errors} errors)");
}
