//! The fast reading (`rt::fast`: JSON text straight into the types, what
//! `mcp_spec_types::from_str` and a union's members read with first) held to
//! serde's: on every input it gives the value serde gives, refuses only what
//! serde refuses, or declines (and serde reads). Inputs: every spec example and
//! recorded session message read as every type of its revision (so each is a
//! near miss for all but a few), and each example changed: a member dropped, a
//! member of the wrong kind, a key repeated, the text pretty-printed, a key
//! written with an escape.

use mcp_spec_tests as support;
use mcp_spec_types::rt::{FastOutcome, TypeEntry};
use serde_json::{Value, json};

#[derive(Default)]
struct Tally {
    read: usize,
    refused: usize,
    declined: usize,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, entry: &TypeEntry, text: &str, what: &str) -> Option<FastOutcome> {
        match (entry.fast_agrees)(text) {
            Ok(outcome) => {
                match outcome {
                    FastOutcome::Read => self.read += 1,
                    FastOutcome::Refused => self.refused += 1,
                    FastOutcome::Declined => self.declined += 1,
                }
                Some(outcome)
            }
            Err(e) => {
                self.failures.push(format!("{what} as {}: {e}\n  {text}", entry.name));
                None
            }
        }
    }
}

/// Near misses of one value: each member dropped, each given a value of another
/// kind, the first key repeated; as compact text, and the value pretty-printed
/// and with its first key written with an escape.
fn variants(value: &Value) -> Vec<String> {
    let mut texts = vec![value.to_string(), serde_json::to_string_pretty(value).unwrap()];
    let Some(members) = value.as_object() else { return texts };
    for key in members.keys() {
        let mut without = members.clone();
        without.remove(key);
        texts.push(Value::Object(without).to_string());
        for wrong in [json!([]), json!("x"), json!(7), json!(-3), json!(1.5), json!(null), json!({"k": true})] {
            let mut changed = members.clone();
            changed.insert(key.clone(), wrong);
            texts.push(Value::Object(changed).to_string());
        }
    }
    if let Some((key, first)) = members.iter().next() {
        let compact = value.to_string();
        let key_text = serde_json::to_string(key).unwrap();
        texts.push(format!("{{{key_text}:{first},{}", &compact[1..]));
        if key.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            let escaped = format!("\"\\u{:04x}{}", u32::from(key.chars().next().unwrap()), &key_text[2..]);
            texts.push(compact.replacen(&key_text, &escaped, 1));
        }
    }
    texts
}

#[test]
fn the_fast_reading_agrees_with_serde_on_examples_and_their_near_misses() {
    let revisions = support::example_revisions();
    assert!(!revisions.is_empty(), "no revision of the spec inputs has examples");
    let mut tally = Tally::default();
    let mut own_declined = Vec::new();
    for (revision, dir) in &revisions {
        let types = support::types_of(revision);
        for (type_name, file, value) in support::examples_of(dir) {
            let own = types.iter().find(|t| t.name == type_name).unwrap_or_else(|| panic!("no type {type_name}"));
            let text = std::fs::read_to_string(&file).unwrap();
            let what = format!("{revision} {}", file.display());
            // As its own type, the example is decided fast, not handed to serde
            // (read, or refused as serde refuses the few upstream's schema
            // refuses too, see `examples`).
            if tally.check(own, &text, &what) == Some(FastOutcome::Declined) {
                own_declined.push(format!("{what} as {type_name}"));
            }
            // As every other type (near misses for most).
            for entry in types.iter().filter(|t| t.name != type_name) {
                tally.check(entry, &text, &what);
            }
            // Changed, as its own type.
            for changed in variants(&value) {
                tally.check(own, &changed, &format!("{what}, changed"));
            }
        }
    }
    assert!(tally.failures.is_empty(), "{} readings disagree:\n{}", tally.failures.len(), tally.failures.join("\n"));
    assert!(own_declined.is_empty(), "examples not read fast as their own type:\n{}", own_declined.join("\n"));
    // Most inputs are decided fast, both ways.
    assert!(tally.read > 1000 && tally.refused > 10_000, "read {} refused {}", tally.read, tally.refused);
    assert!(
        tally.declined * 10 < tally.read + tally.refused,
        "declined {} of {}",
        tally.declined,
        tally.read + tally.refused
    );
    eprintln!(
        "fast reading: {} read, {} refused, {} declined, all as serde",
        tally.read, tally.refused, tally.declined
    );
}

#[test]
fn the_fast_reading_agrees_with_serde_on_recorded_sessions() {
    let mut tally = Tally::default();
    let mut messages = 0;
    let data = support::workspace_root().join("tests/bench/data");
    let mut files: Vec<_> =
        std::fs::read_dir(&data).unwrap_or_else(|e| panic!("{}: {e}", data.display())).flatten().collect();
    files.sort_by_key(|f| f.path());
    for file in files {
        let path = file.path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let revision = if name.ends_with("legacy") { "2025-11-25" } else { "2026-07-28" };
        let types = support::types_of(revision);
        for line in std::fs::read_to_string(&path).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            let record: Value = serde_json::from_str(line).unwrap();
            let text =
                record.get("msg").unwrap_or_else(|| panic!("{}: a line without msg", path.display())).to_string();
            messages += 1;
            for entry in types {
                tally.check(entry, &text, &name);
            }
        }
    }
    assert!(tally.failures.is_empty(), "{} readings disagree:\n{}", tally.failures.len(), tally.failures.join("\n"));
    assert!(messages > 100 && tally.read > messages, "{messages} messages, {} read", tally.read);
    eprintln!(
        "{messages} recorded messages: {} read, {} refused, {} declined",
        tally.read, tally.refused, tally.declined
    );
}

#[test]
fn the_fast_reading_declines_what_only_serde_decides() {
    let types = support::types_of("2026-07-28");
    let entry = |name: &str| types.iter().find(|t| t.name == name).unwrap();
    let completion = entry("CompleteResultCompletion");
    for (text, expected) in [
        // A whole number written with a fraction: serde's integer rule.
        (r#"{"values":[],"total":1.0}"#, FastOutcome::Declined),
        (r#"{"values":[],"total":1e2}"#, FastOutcome::Declined),
        // `-0` is a float to serde_json.
        (r#"{"values":[],"total":-0}"#, FastOutcome::Declined),
        (r#"{"values":[],"total":-3}"#, FastOutcome::Read),
        (r#"{"values":[],"total":9223372036854775808}"#, FastOutcome::Declined),
        (r#"{"values":[],"total":"3"}"#, FastOutcome::Refused),
    ] {
        assert_eq!((completion.fast_agrees)(text), Ok(expected), "{text}");
    }
    let progress = entry("ProgressNotificationParams");
    let cases = [
        // A union member's number serde decides, inside the union: read.
        (r#"{"progressToken":1.0,"progress":1}"#, FastOutcome::Read),
        (r#"{"progressToken":-3,"progress":0.25}"#, FastOutcome::Read),
        // A key written with an escape.
        (r#"{"progres\u0073Token":1,"progress":1}"#, FastOutcome::Declined),
        // A lone surrogate, and a control character, in a string.
        (r#"{"progressToken":"\ud800","progress":1}"#, FastOutcome::Declined),
        ("{\"progressToken\":\"a\u{1}\",\"progress\":1}", FastOutcome::Declined),
        (r#"{"progressToken":"\ud83d\ude00\n","progress":1}"#, FastOutcome::Read),
        // Trailing characters.
        (r#"{"progressToken":1,"progress":1} x"#, FastOutcome::Declined),
        // Refused: a repeated member, a missing one, one of the wrong kind.
        (r#"{"progressToken":1,"progress":1,"progress":2}"#, FastOutcome::Refused),
        (r#"{"progressToken":1}"#, FastOutcome::Refused),
        (r#"{"progressToken":1,"progress":"1"}"#, FastOutcome::Refused),
    ];
    for (text, expected) in cases {
        assert_eq!((progress.fast_agrees)(text), Ok(expected), "{text}");
    }
    // Nesting past the fast reading's depth is serde's (kept text here).
    let deep = format!(r#"{{"progressToken":1,"progress":1,"x":{}1{}}}"#, "[".repeat(120), "]".repeat(120));
    assert_eq!((progress.fast_agrees)(&deep), Ok(FastOutcome::Declined));
    // serde_json's key for a number (with `arbitrary_precision`), which reading
    // through serde takes as a number in places: left to serde wherever it is.
    let token = r#"{"$serde_json::private::Number":"5"}"#;
    let v25 = support::types_of("2025-06-18");
    let entry25 = |name: &str| v25.iter().find(|t| t.name == name).unwrap();
    // (A union reading such a member reads that member through serde: the same value.)
    let request = format!(r#"{{"jsonrpc":"2.0","id":{token},"method":"ping"}}"#);
    assert_eq!((entry25("JSONRPCMessage").fast_agrees)(&request), Ok(FastOutcome::Read));
    for (entry, text) in [
        (entry25("JSONRPCRequest"), request.clone()),
        (entry25("ServerResult"), token.to_string()),
        (
            entry25("CallToolResult"),
            r#"{"content":[{"$serde_json::private::Number":"1","type":"text","text":"hi"}]}"#.into(),
        ),
        (entry("InternalError"), r#"{"code":{"$serde_json::private::Number":"-32603"},"message":"m"}"#.into()),
    ] {
        assert_eq!((entry.fast_agrees)(&text), Ok(FastOutcome::Declined), "{} {text}", entry.name);
    }
    // A struct's unknown member, or an open object, takes it as a key, through
    // serde as here.
    assert_eq!((entry("Result").fast_agrees)(&format!(r#"{{"x":{token}}}"#)), Ok(FastOutcome::Read));
    assert_eq!((entry("Result").fast_agrees)(token), Ok(FastOutcome::Read));
    // The generic message reads that id as serde does, as a request.
    let message = mcp_spec_types::from_str::<mcp_spec_types::v2025_06_18::JSONRPCMessage>(&request).unwrap();
    assert_eq!(message.member_name(), "JSONRPCRequest");
    // A fixed member of another value is refused fast.
    let cancelled = entry("CancelledNotification");
    let text = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"requestId":1}}"#;
    assert_eq!((cancelled.fast_agrees)(text), Ok(FastOutcome::Refused));
}

/// Byte-level damage to every example: cut short, and one byte replaced by a
/// character that matters to JSON. The fast reading must never read what serde
/// refuses (malformed text is serde's to refuse, or both refuse it).
#[test]
fn the_fast_reading_agrees_with_serde_on_damaged_text() {
    let mut tally = Tally::default();
    for (revision, dir) in support::example_revisions() {
        let types = support::types_of(&revision);
        for (type_name, file, _) in support::examples_of(&dir) {
            let own = types.iter().find(|t| t.name == type_name).unwrap();
            let compact = serde_json::from_str::<Value>(&std::fs::read_to_string(&file).unwrap()).unwrap().to_string();
            let what = format!("{revision} {}", file.display());
            for at in (1..compact.len()).step_by(7).filter(|&i| compact.is_char_boundary(i)) {
                tally.check(own, &compact[..at], &format!("{what}, cut at {at}"));
                if !compact.is_char_boundary(at + 1) {
                    continue;
                }
                for c in ["\"", "\\", "{", "]", ",", ":", "7", "-", "x", " ", "\u{1}", "\n"] {
                    let damaged = format!("{}{c}{}", &compact[..at], &compact[at + 1..]);
                    tally.check(own, &damaged, &format!("{what}, {c:?} at {at}"));
                }
            }
        }
    }
    assert!(tally.failures.is_empty(), "{} readings disagree:\n{}", tally.failures.len(), tally.failures.join("\n"));
    assert!(tally.refused > 10_000, "refused {}", tally.refused);
    eprintln!(
        "damaged text: {} read, {} refused, {} declined, all as serde",
        tally.read, tally.refused, tally.declined
    );
}
