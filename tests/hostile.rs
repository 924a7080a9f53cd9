//! JSON from strangers: hostile documents give errors with a path, never a panic
//! or a stack overflow; and arbitrary JSON fed to every type of every revision
//! never panics, while whatever a type accepts it writes back in a form it
//! accepts again unchanged.

use mcp_spec_tests as support;
use mcp_spec_types::v2026_07_28 as v;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use support::Rng;

fn error_at<T: DeserializeOwned + std::fmt::Debug>(json: &str) -> (String, String) {
    let mut de = serde_json::Deserializer::from_str(json);
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(v) => panic!("expected an error, read {v:?}"),
        Err(e) => (e.path().to_string(), e.inner().to_string()),
    }
}

/// Runs `f` on a thread with a small stack (less than a main thread's), so a
/// recursion that depends on the input would show as a crash here.
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new().stack_size(1 << 20).spawn(f).unwrap().join().expect("no panic, no overflow")
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 10_000;
    let objects = format!(r#"{{"content":[],"structuredContent":{}1{}}}"#, r#"{"a":"#.repeat(depth), "}".repeat(depth));
    let arrays = format!(
        r#"{{"type":"text","text":"t","annotations":{{"audience":{}"user"{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let union = format!(r#"{{"content":{}{}}}"#, "[".repeat(depth), "]".repeat(depth));
    let msgs = on_small_stack(move || {
        let a = serde_json::from_str::<v::CallToolResult>(&objects).unwrap_err().to_string();
        let b = serde_json::from_str::<v::ContentBlock>(&arrays).unwrap_err().to_string();
        let c = serde_json::from_str::<v::CallToolResult>(&union).unwrap_err().to_string();
        let d = serde_json::from_str::<v::JSONRPCMessage>(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)))
            .unwrap_err()
            .to_string();
        [a, b, c, d]
    });
    assert!(msgs[0].contains("recursion limit exceeded") && msgs[0].contains("line 1"), "{}", msgs[0]);
    // A union is chosen by its discriminator without parsing the rest; the member
    // read then stops at the first wrong value, and the message names the member
    // and the path inside it.
    assert!(
        msgs[1].contains(
            "ContentBlock: TextContent: annotations.audience[0]: invalid type: sequence, expected a Role value"
        ),
        "{}",
        msgs[1]
    );
    assert!(msgs[2].contains("line 1"), "errors inside a document say where: {msgs:?}");
    // The whole document is the union: its error says what it expected.
    assert!(msgs[3].contains("JSONRPCMessage: expected an object, found an array"), "{msgs:?}");
}

#[test]
fn huge_strings_are_read_whole_and_misplaced_ones_rejected() {
    let big = "x".repeat(8 << 20);
    let text = format!(r#"{{"type":"text","text":"{big}"}}"#);
    let read: v::TextContent = serde_json::from_str(&text).unwrap();
    assert_eq!(read.text.len(), big.len());
    let (path, msg) =
        error_at::<v::ProgressNotificationParams>(&format!(r#"{{"progressToken":1,"progress":"{big}"}}"#));
    assert_eq!(path, "progress");
    assert!(msg.starts_with("invalid type: string"), "{}", &msg[..msg.len().min(200)]);
}

#[test]
fn numbers_out_of_range_are_errors_with_a_path() {
    let (path, msg) = error_at::<v::ListToolsRequest>(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}},"extra":1}"#
            .replace(r#""id":1"#, r#""id":18446744073709551616"#)
            .as_str(),
    );
    assert_eq!(path, "id");
    // Too big for an i64 (JSON Schema's integer is a whole number, and this one
    // does not fit): the member it could be, and why it is not.
    assert!(
        msg.contains("RequestId: Integer: invalid value: floating point") && msg.contains("expected an integer"),
        "{msg}"
    );
    let (path, msg) = error_at::<v::ProgressNotificationParams>(r#"{"progressToken":1,"progress":1e400}"#);
    assert_eq!(path, "progress");
    assert!(msg.contains("number out of range"), "{msg}");
    let (path, msg) =
        error_at::<v::ReadResourceResult>(r#"{"contents":[],"cacheScope":"public","ttlMs":99999999999999999999}"#);
    assert_eq!(path, "ttlMs");
    assert!(msg.contains("invalid value: floating point `1e+20`, expected an integer (a number with no fractional part) that fits in 64 bits"), "{msg}");
}

#[test]
fn wrong_types_deep_inside_are_errors_at_their_path() {
    let (path, msg) = error_at::<v::CallToolResult>(
        r#"{"content":[{"type":"text","text":"a"},{"type":"text","text":"b","annotations":{"priority":"high"}}]}"#,
    );
    // The path reaches the union; the message names the member read and the path
    // inside it.
    assert_eq!(path, "content[1]");
    assert!(msg.contains("ContentBlock: TextContent: annotations.priority: invalid type: string \"high\""), "{msg}");
    let (path, msg) = error_at::<v::ListToolsResult>(r#"{"tools":[{"name":"t","inputSchema":{"type":"array"}}]}"#);
    assert_eq!(path, "tools[0].inputSchema.type");
    assert!(msg.contains("expected \"object\""), "{msg}");
}

/// Keys and strings the real messages use, so arbitrary values often get deep.
struct Vocabulary {
    keys: Vec<String>,
    strings: Vec<String>,
    examples: Vec<(String, Value)>,
}

fn harvest(v: &Value, keys: &mut Vec<String>, strings: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                keys.push(k.clone());
                harvest(v, keys, strings);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| harvest(v, keys, strings)),
        Value::String(s) if s.len() < 40 => strings.push(s.clone()),
        _ => {}
    }
}

fn vocabulary() -> Vocabulary {
    let (mut keys, mut strings, mut examples) = (Vec::new(), Vec::new(), Vec::new());
    let dir = support::spec_dir().join("schema/2026-07-28/examples");
    let mut folders: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    folders.sort();
    for folder in folders {
        let mut files: Vec<_> = std::fs::read_dir(&folder).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            harvest(&v, &mut keys, &mut strings);
            examples.push((folder.file_name().unwrap().to_string_lossy().into_owned(), v));
        }
    }
    keys.sort();
    keys.dedup();
    strings.sort();
    strings.dedup();
    Vocabulary { keys, strings, examples }
}

fn arbitrary(rng: &mut Rng, voc: &Vocabulary, depth: usize) -> Value {
    match rng.below(if depth == 0 { 5 } else { 8 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 1),
        2 => match rng.below(4) {
            0 => json!(rng.next_u64() as i64),
            1 => json!(rng.below(100)),
            2 => json!((rng.below(1000) as f64) / 7.0),
            _ => json!(-(rng.below(40000) as i64)),
        },
        3 | 4 => Value::String(voc.strings[rng.below(voc.strings.len())].clone()),
        5 => Value::Array((0..rng.below(4)).map(|_| arbitrary(rng, voc, depth - 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(6) {
                m.insert(voc.keys[rng.below(voc.keys.len())].clone(), arbitrary(rng, voc, depth - 1));
            }
            Value::Object(m)
        }
    }
}

/// An example with one part changed: a member removed or replaced, deep inside.
fn mutated(rng: &mut Rng, voc: &Vocabulary, v: &Value) -> Value {
    let mut v = v.clone();
    let steps = rng.below(6);
    change_at(&mut v, steps, rng, voc);
    v
}

fn change_at(v: &mut Value, steps: usize, rng: &mut Rng, voc: &Vocabulary) {
    if steps > 0 {
        match v {
            Value::Object(m) if !m.is_empty() => {
                let k = m.keys().nth(rng.below(m.len())).cloned().unwrap_or_default();
                if let Some(inner) = m.get_mut(&k) {
                    return change_at(inner, steps - 1, rng, voc);
                }
            }
            Value::Array(a) if !a.is_empty() => {
                let i = rng.below(a.len());
                return change_at(&mut a[i], steps - 1, rng, voc);
            }
            _ => {}
        }
    }
    match v {
        Value::Object(m) if !m.is_empty() && rng.below(3) == 0 => {
            let k = m.keys().nth(rng.below(m.len())).cloned().unwrap_or_default();
            m.remove(&k);
        }
        _ => *v = arbitrary(rng, voc, 3),
    }
}

#[test]
fn arbitrary_json_never_panics_and_what_is_read_reads_back_the_same() {
    let voc = vocabulary();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut accepted, mut rejected, mut validated) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    for rev in mcp_spec_types::REVISIONS {
        // An oracle not of our making: what our types accept, upstream's schema.json
        // accepts too, but where the override table corrects the schema.
        let schema = support::SchemaJson::load(spec.revision(rev).unwrap());
        for entry in support::types_of(rev) {
            let mut inputs: Vec<Value> = (0..24).map(|_| arbitrary(&mut rng, &voc, 4)).collect();
            for (name, example) in voc.examples.iter().filter(|(n, _)| n == entry.name) {
                let _ = name;
                inputs.extend((0..24).map(|_| mutated(&mut rng, &voc, example)));
            }
            for input in inputs {
                let text = input.to_string();
                match std::panic::catch_unwind(|| (entry.roundtrip)(&text)) {
                    Err(_) => failures.push(format!("{rev} {}: panicked on {text}", entry.name)),
                    Ok(Err(_)) => rejected += 1,
                    Ok(Ok(written)) => {
                        accepted += 1;
                        // A message of a method the revision does not know passes
                        // through as `Other`, by design; schema.json lists only the known.
                        let passed_through = entry.choose.is_some_and(|c| c(input.clone()) == Ok("Other"));
                        if schema.defines(entry.name) && !passed_through {
                            validated += 1;
                            let errors: Vec<String> = schema
                                .errors(entry.name, &input)
                                .into_iter()
                                .filter(|e| !support::not_checked_by_design(entry.name, e))
                                .collect();
                            if !errors.is_empty() {
                                failures.push(format!(
                                    "{rev} {}: ours reads {text}, which schema.json rejects: {errors:?}",
                                    entry.name
                                ));
                            }
                        }
                        match (entry.roundtrip)(&written.to_string()) {
                            Ok(again) if again == written => {}
                            other => failures.push(format!(
                                "{rev} {}: read {text}, wrote {written}, which reads back as {other:?}",
                                entry.name
                            )),
                        }
                    }
                }
            }
        }
    }
    eprintln!("{accepted} inputs accepted and stable ({validated} also valid for schema.json), {rejected} rejected");
    assert!(
        validated >= 4_200,
        "only {validated} accepted inputs checked against schema.json (4,639 at the last count)"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(
        accepted > 1000 && rejected > 1000,
        "{accepted} accepted, {rejected} rejected: the inputs should exercise both"
    );
}

/// An `io::Write` that accepts `budget` bytes, then fails every write, counting
/// the writes it is asked for after the first failure.
struct FailingWriter {
    budget: usize,
    failed: bool,
    writes_after_failure: usize,
}

impl std::io::Write for FailingWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.failed {
            self.writes_after_failure += 1;
        }
        if buf.len() > self.budget {
            self.failed = true;
            return Err(std::io::Error::other("full"));
        }
        self.budget -= buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn writing_stops_at_the_first_error_and_returns_it() {
    // Fixed members, required, optional and nested ones, numbers written as floats,
    // and kept unknown members: a failure at every byte lands in each kind of
    // member in turn.
    let call: v::CallToolResultResponse = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","content":[{"type":"text","text":"hi","x-a":1}],"isError":false,"x-b":[true]}}"#,
    )
    .unwrap();
    fails_at_every_byte(&call);
    let progress: v::ProgressNotification = serde_json::from_str(
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5,"total":2,"message":"half"}}"#,
    )
    .unwrap();
    fails_at_every_byte(&progress);
}

fn fails_at_every_byte<T: serde::Serialize>(message: &T) {
    let whole = serde_json::to_vec(message).unwrap();
    for budget in 0..whole.len() {
        let mut out = FailingWriter { budget, failed: false, writes_after_failure: 0 };
        let result = serde_json::to_writer(&mut out, message);
        let error = result.expect_err(&format!("writing into {budget} bytes succeeded"));
        assert!(error.is_io() && error.to_string() == "full", "budget {budget}: {error}");
        assert_eq!(out.writes_after_failure, 0, "budget {budget}: written to after the failure");
    }
    let mut out = FailingWriter { budget: whole.len(), failed: false, writes_after_failure: 0 };
    serde_json::to_writer(&mut out, message).unwrap();
}
