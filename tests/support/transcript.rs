//! A session's transcript, as a proxy on the wire recorded it, judged message by
//! message with the generated types of the revision the session speaks:
//!
//! - each message reads as the JSON-RPC message its keys say it is (request,
//!   notification, result, error), and writes back equal;
//! - a request reads as the member of `ClientRequest` (or `ServerRequest`) its
//!   method names (`Other` for a method the revision does not have), a
//!   notification likewise;
//! - a result reads as the result type of the request it answers, found by its
//!   id: an `InputRequiredResult` exactly when `resultType` says
//!   `"input_required"`; each of its `inputRequests` as the member its method
//!   names, and each `inputResponses` entry of the retry as the result of the
//!   request it answers;
//! - nothing the revision's schema names is kept as unknown (what neither our
//!   types nor upstream's schema.json know is a peer's extension, and counted);
//! - with an extension the session speaks ([`judge_with`]): a message of one of
//!   its methods reads as that method's type of the extension, and a result the
//!   core's union keeps as `Other` reads as the member of the extension's union
//!   of the same name (a tool call answered with a task handle).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use mcp_spec_codegen::model::{ItemKind, Revision, Type};
use mcp_spec_types::MethodInfo;
use mcp_spec_types::rt::TypeEntry;
use serde_json::Value;

use crate::{SchemaJson, reading, types_of};

/// What a transcript held and what was wrong with it.
#[derive(Debug, Default)]
pub struct Judged {
    pub revision: String,
    pub messages: usize,
    /// How many messages of each kind: `c2s request tools/call`, `s2c result InputRequiredResult`.
    pub kinds: BTreeMap<String, usize>,
    /// Members kept as unknown that the schema does not name either: `path (owner)`.
    pub extensions: Vec<String>,
    pub failures: Vec<String>,
}

impl Judged {
    pub fn count(&self, kind: &str) -> usize {
        self.kinds.iter().filter(|(k, _)| k.contains(kind)).map(|(_, n)| n).sum()
    }

    /// Panics with every failure and the transcript's path.
    pub fn assert_clean(&self, path: &Path) {
        assert!(
            self.failures.is_empty(),
            "{} of {} messages in {} ({}) are not what they should be:\n{}",
            self.failures.len(),
            self.messages,
            path.display(),
            self.revision,
            self.failures.join("\n")
        );
    }
}

fn spec() -> &'static mcp_spec_codegen::Spec {
    static SPEC: std::sync::OnceLock<mcp_spec_codegen::Spec> = std::sync::OnceLock::new();
    SPEC.get_or_init(|| {
        mcp_spec_codegen::spec::load_spec(&crate::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render())).0
    })
}

/// The protocol version a session speaks: the version `initialize` was answered
/// with, when there was a handshake (a client may probe with `server/discover`
/// first); else the first request's `_meta` (2026-07-28 on). An `initialize`
/// refused (a modern-only server's answer to a legacy client) is no handshake.
fn version_of(records: &[(String, Value)]) -> Option<String> {
    let initializes: Vec<&Value> =
        records.iter().filter(|(_, m)| m["method"] == "initialize").filter_map(|(_, m)| m.get("id")).collect();
    let handshake = records.iter().any(|(_, m)| {
        m.get("method").is_none()
            && m.get("result").is_some()
            && m.get("id").is_some_and(|id| initializes.contains(&id))
    });
    for (_, msg) in records {
        if handshake {
            if let Some(v) = msg.pointer("/result/protocolVersion").and_then(Value::as_str) {
                return Some(v.to_string());
            }
            continue;
        }
        if let Some(v) = msg.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion").and_then(Value::as_str) {
            return Some(v.to_string());
        }
        if let Some(v) = msg.pointer("/result/protocolVersion").and_then(Value::as_str) {
            return Some(v.to_string());
        }
    }
    None
}

/// Reads a transcript of JSON lines `{"dir": "c2s" | "s2c", "msg": ...}`.
pub fn read(path: &Path) -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let record: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display()));
            (record["dir"].as_str().unwrap_or("?").to_string(), record["msg"].clone())
        })
        .collect()
}

/// An extension a session may speak: its methods, and the types they are read
/// with (the extension's own first, then those of the core revision it is on).
#[derive(Clone, Copy)]
pub struct Extension {
    pub id: &'static str,
    pub methods: &'static [MethodInfo],
    pub types: &'static [TypeEntry],
    pub core_types: &'static [TypeEntry],
}

impl Extension {
    /// The Tasks extension (`ext::tasks::draft`).
    pub fn tasks() -> Extension {
        use mcp_spec_types::ext::tasks::draft as tasks;
        Extension {
            id: tasks::EXTENSION_ID,
            methods: tasks::METHODS,
            types: tasks::SCHEMA_TYPES,
            core_types: mcp_spec_types::draft::SCHEMA_TYPES,
        }
    }

    fn method(&self, method: &str) -> Option<&'static MethodInfo> {
        self.methods.iter().find(|m| m.method == method)
    }

    fn entry(&self, name: &str) -> Option<&'static TypeEntry> {
        self.types.iter().chain(self.core_types).find(|e| e.name == name)
    }

    /// Only the extension's own declarations: a core union it widens.
    fn own(&self, name: &str) -> Option<&'static TypeEntry> {
        self.types.iter().find(|e| e.name == name)
    }
}

/// Reads `value` with an extension's type: it must write back equal; what it
/// keeps as unknown is counted with the session's extensions; the member a
/// union chose.
fn check_ext(entry: &TypeEntry, value: &Value, j: &mut Judged, at: &str) -> Option<&'static str> {
    match crate::roundtrip_logged(entry, &value.to_string()) {
        (Ok(back), kept) if crate::json_eq(&back, value) => {
            for key in kept {
                let ext = format!("{key} ({}, an extension's type)", entry.name);
                if !j.extensions.contains(&ext) {
                    j.extensions.push(ext);
                }
            }
        }
        (Ok(back), _) => {
            j.failures.push(format!(
                "{at}: as {}, written back differently:\n  read:    {value}\n  written: {back}",
                entry.name
            ));
            return None;
        }
        (Err(e), _) => {
            j.failures.push(format!("{at}: does not read as the extension's {}: {e}\n  {value}", entry.name));
            return None;
        }
    }
    let choose = entry.choose?;
    match choose(value.clone()) {
        Ok(member) => Some(member),
        Err(e) => {
            j.failures.push(format!("{at}: {}: {e}", entry.name));
            None
        }
    }
}

pub fn judge(path: &Path) -> Judged {
    judge_with(path, &[])
}

/// Judges a transcript whose session may speak `extensions` as well.
pub fn judge_with(path: &Path, extensions: &[Extension]) -> Judged {
    let records = read(path);
    let version =
        version_of(&records).unwrap_or_else(|| panic!("{}: no protocol version in the session", path.display()));
    let revision = mcp_spec_types::registry::revision_for_protocol_version(&version)
        .unwrap_or_else(|| panic!("{version}: no revision"));
    let rev = spec().revision(revision).unwrap();
    let schema = SchemaJson::load(rev);
    let methods = mcp_spec_types::methods(revision).unwrap();
    let mut j = Judged { revision: revision.to_string(), ..Default::default() };
    let split_responses =
        mcp_spec_types::schema_types(revision).unwrap().iter().any(|t| t.name == "JSONRPCResultResponse");
    // Requests in flight, by the direction they went and their id.
    let mut pending: HashMap<(String, String), String> = HashMap::new();
    // The methods of the last `inputRequests`, by key.
    let mut asked: HashMap<String, String> = HashMap::new();
    for (n, (dir, msg)) in records.iter().enumerate() {
        j.messages += 1;
        let at = format!("#{} {dir}", n + 1);
        let Some(object) = msg.as_object() else {
            j.failures.push(format!("{at}: not a JSON object: {msg}"));
            continue;
        };
        let kind = match (
            object.contains_key("method"),
            object.contains_key("id"),
            object.contains_key("result"),
            object.contains_key("error"),
        ) {
            (true, true, _, _) => "request",
            (true, false, _, _) => "notification",
            (false, _, true, _) => "result",
            (false, _, _, true) => "error",
            _ => {
                j.failures.push(format!("{at}: neither a request, a notification nor a response: {msg}"));
                continue;
            }
        };
        // What the core keeps as unknown of a message an extension types is not unknown.
        let unknown_before = j.extensions.len();
        let whole = check_as(rev, &schema, "JSONRPCMessage", msg, &mut j, &at);
        // Where the revision declares `JSONRPCResultResponse` (2025-11-25 on) a
        // response is a union of it and an error response; before,
        // `JSONRPCResponse` is the result and `JSONRPCError` the error.
        let expected_top = match (kind, split_responses) {
            ("request", _) => vec!["JSONRPCRequest"],
            ("notification", _) => vec!["JSONRPCNotification"],
            ("result", true) => vec!["JSONRPCResponse", "JSONRPCResultResponse"],
            ("result", false) => vec!["JSONRPCResponse"],
            (_, true) => vec!["JSONRPCResponse", "JSONRPCErrorResponse"],
            (_, false) => vec!["JSONRPCError"],
        };
        let chosen: Vec<&str> = whole.iter().filter(|(p, _, _)| p.is_empty()).map(|(_, _, m)| m.as_str()).collect();
        if chosen != expected_top {
            j.failures.push(format!("{at}: a {kind} read as {chosen:?}: {msg}"));
        }
        let method = object.get("method").and_then(Value::as_str).unwrap_or_default().to_string();
        let id = object.get("id").map(Value::to_string).unwrap_or_default();
        let info = methods.iter().find(|m| m.method == method);
        match kind {
            "request" | "notification" => {
                let side = if dir == "c2s" { "Client" } else { "Server" };
                let union = format!("{side}{}", if kind == "request" { "Request" } else { "Notification" });
                let expected = info.map(|i| i.message).unwrap_or("Other");
                let members = check_as(rev, &schema, &union, msg, &mut j, &at);
                if let Some((_, _, member)) = members.iter().find(|(p, _, _)| p.is_empty()) {
                    if member != expected {
                        j.failures.push(format!("{at}: {method} read as {union}::{member}, expected {expected}"));
                    }
                } else if !matches!(rev.item(&union).map(|i| &i.kind), Some(ItemKind::Alias(_) | ItemKind::Struct(_))) {
                    j.failures.push(format!("{at}: {method}: `{union}` chose nothing"));
                }
                let ext = extensions.iter().find_map(|e| Some((e, e.method(&method)?)));
                if let (None, Some((ext, info))) = (info, ext) {
                    j.extensions.truncate(unknown_before);
                    match ext.entry(info.message) {
                        Some(entry) => {
                            let _ = check_ext(entry, msg, &mut j, &at);
                        }
                        None => j.failures.push(format!("{at}: {method}: no type {} in {}", info.message, ext.id)),
                    }
                }
                if kind == "request" {
                    pending.insert((dir.clone(), id.clone()), method.clone());
                    for (key, _) in
                        msg.pointer("/params/inputResponses").and_then(Value::as_object).into_iter().flatten()
                    {
                        let Some(asked_method) = asked.get(key) else {
                            j.failures.push(format!("{at}: inputResponses.{key} answers nothing asked"));
                            continue;
                        };
                        let want =
                            methods.iter().find(|m| m.method == asked_method).and_then(|m| m.result).unwrap_or("?");
                        let path = format!("params.inputResponses.{key}");
                        match members.iter().find(|(p, _, _)| *p == path) {
                            Some((_, _, m)) if m == want => {}
                            other => j.failures.push(format!(
                                "{at}: {path} (an answer to {asked_method}) read as {other:?}, expected {want}"
                            )),
                        }
                    }
                }
                *j.kinds.entry(format!("{dir} {kind} {method}")).or_default() += 1;
            }
            "result" => {
                let other = if dir == "c2s" { "s2c" } else { "c2s" };
                let Some(method) = pending.remove(&(other.to_string(), id.clone())) else {
                    j.failures.push(format!("{at}: a result for id {id}, which no request has"));
                    continue;
                };
                let Some(result_type) = methods.iter().find(|m| m.method == method).and_then(|m| m.result) else {
                    let ext = extensions.iter().find_map(|e| Some((e, e.method(&method)?.result?)));
                    let Some((ext, result_type)) = ext else {
                        *j.kinds.entry(format!("{dir} result of {method}")).or_default() += 1;
                        continue;
                    };
                    j.extensions.truncate(unknown_before);
                    let member = match ext.entry(result_type) {
                        Some(entry) => check_ext(entry, &msg["result"], &mut j, &at).unwrap_or(result_type),
                        None => {
                            j.failures.push(format!("{at}: {method}: no type {result_type} in {}", ext.id));
                            result_type
                        }
                    };
                    *j.kinds.entry(format!("{dir} result {member}")).or_default() += 1;
                    continue;
                };
                let result = &msg["result"];
                let members = check_as(rev, &schema, result_type, result, &mut j, &at);
                let top = members.iter().find(|(p, u, _)| p.is_empty() && u == result_type).map(|(_, _, m)| m.clone());
                let input_required = result.get("resultType").and_then(Value::as_str) == Some("input_required");
                let mut member = top.clone().unwrap_or_else(|| result_type.to_string());
                // A result kind the core does not list, which an extension's union of
                // the same name reads (a task handle for a tool call).
                let widened = extensions.iter().find_map(|e| e.own(result_type));
                if let (Some(entry), "Other") = (widened, member.as_str()) {
                    j.extensions.truncate(unknown_before);
                    if let Some(chosen) = check_ext(entry, result, &mut j, &at) {
                        member = chosen.to_string();
                    }
                }
                if input_required != (member == "InputRequiredResult") {
                    j.failures.push(format!(
                        "{at}: the result of {method} read as {member}, but its resultType is {:?}",
                        result.get("resultType")
                    ));
                }
                if input_required {
                    asked.clear();
                    for (key, request) in result.get("inputRequests").and_then(Value::as_object).into_iter().flatten() {
                        let m = request["method"].as_str().unwrap_or_default().to_string();
                        let want = methods.iter().find(|i| i.method == m).map(|i| i.message).unwrap_or("?");
                        let path = format!("inputRequests.{key}");
                        match members.iter().find(|(p, _, _)| *p == path) {
                            Some((_, _, got)) if got == want => {}
                            other => j.failures.push(format!("{at}: {path} ({m}) read as {other:?}, expected {want}")),
                        }
                        asked.insert(key.clone(), m);
                    }
                }
                *j.kinds.entry(format!("{dir} result {member}")).or_default() += 1;
            }
            _ => {
                pending.remove(&(if dir == "c2s" { "s2c" } else { "c2s" }.to_string(), id));
                *j.kinds.entry(format!("{dir} error {}", msg["error"]["code"])).or_default() += 1;
            }
        }
    }
    j
}

/// Reads `value` as the type `name` with the generated code (it must read and
/// write back equal), walks what it was read as, and returns the unions' choices.
fn check_as(
    rev: &Revision,
    schema: &SchemaJson,
    name: &str,
    value: &Value,
    j: &mut Judged,
    at: &str,
) -> Vec<(String, String, String)> {
    let Some(entry) = types_of(&rev.name).iter().find(|t| t.name == name) else {
        j.failures.push(format!("{at}: no type `{name}` in {}", rev.name));
        return Vec::new();
    };
    match (entry.roundtrip)(&value.to_string()) {
        Ok(back) if crate::json_eq(&back, value) => {}
        Ok(back) => j
            .failures
            .push(format!("{at}: as {name}, written back differently:\n  read:    {value}\n  written: {back}")),
        Err(e) => {
            let tracked = (entry.read)(&value.to_string()).err().unwrap_or(e);
            j.failures.push(format!("{at}: does not read as {name}: {tracked}\n  {value}"));
            return Vec::new();
        }
    }
    let r = reading(rev, &Type::Named(name.to_string()), value);
    for (path, e) in &r.errors {
        j.failures.push(format!("{at}: a union at `{path}`: {e}"));
    }
    for (path, owner, key) in &r.extras {
        if schema.owner_declares(rev, owner, key).unwrap_or(true) {
            j.failures.push(format!("{at}: `{path}` kept as unknown, but `{owner}` names `{key}`: misread"));
        } else {
            let ext = format!("{path} ({owner})");
            if !j.extensions.contains(&ext) {
                j.extensions.push(ext);
            }
        }
    }
    r.choices.into_iter().map(|(p, u, m, _)| (p, u, m)).collect()
}
