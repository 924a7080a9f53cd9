//! Typed methods and messages: the `Request` / `Notification` impls of every
//! revision against the schema's own message unions, unknown methods kept, and
//! results told apart by `resultType` as the spec says.

use std::collections::BTreeSet;
use std::marker::PhantomData;

use mcp_spec_codegen::model::{ItemKind, Type};
use mcp_spec_tests as support;
use mcp_spec_types::{HasResponse, InputRequest, MethodInfo, MethodKind, Notification, Request};

fn methods_of(revision: &str) -> &'static [MethodInfo] {
    mcp_spec_types::methods(revision).unwrap_or_else(|| panic!("no module for revision {revision}"))
}

#[test]
fn the_method_table_of_every_revision_matches_the_schemas_own_unions() {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let mut printed = String::new();
    for rev in &spec.revisions {
        let table = methods_of(&rev.name);
        printed.push_str(&format!("{}: {} methods\n", rev.name, table.len()));
        for m in table {
            printed.push_str(&format!(
                "  {:45} {:12} {:38} params {:40} result {}\n",
                m.method,
                format!("{:?}", m.kind),
                m.message,
                m.params.unwrap_or("-"),
                m.result.unwrap_or("-")
            ));
        }
        let union_members = |name: &str| -> Vec<String> {
            match rev.item(name).map(|i| &i.kind) {
                Some(ItemKind::Union(u)) => u
                    .variants
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| u.fallback() != Some(*i))
                    .filter_map(|(_, v)| match &v.ty {
                        Type::Named(n) => Some(n.clone()),
                        _ => None,
                    })
                    .collect(),
                Some(ItemKind::Alias(Type::Named(n))) => vec![n.clone()],
                _ => Vec::new(),
            }
        };
        let mut checked = 0;
        let mut in_unions: BTreeSet<String> = BTreeSet::new();
        for (union, kind, answered_by) in [
            ("ClientRequest", MethodKind::Request, "ServerResult"),
            ("ServerRequest", MethodKind::Request, "ClientResult"),
            ("InputRequest", MethodKind::InputRequest, "InputResponse"),
            ("ClientNotification", MethodKind::Notification, ""),
            ("ServerNotification", MethodKind::Notification, ""),
        ] {
            // The answering side's own union, nothing added: a request answered by
            // `EmptyResult` must find it there.
            let answers: BTreeSet<String> = union_members(answered_by).into_iter().collect();
            for member in union_members(union) {
                in_unions.insert(member.clone());
                let m = table.iter().find(|m| m.message == member).unwrap_or_else(|| {
                    panic!("{}: `{member}` of `{union}` has no entry in METHODS:\n{printed}", rev.name)
                });
                assert_eq!(m.kind, kind, "{}: {member}", rev.name);
                if kind != MethodKind::Notification {
                    let result = m.result.unwrap_or_else(|| panic!("{}: {member} has no result type", rev.name));
                    // (Which type it is, the schema's docs say: see
                    // `each_requests_result_is_the_one_the_schemas_docs_name`.)
                    let held = match union_members(result).as_slice() {
                        [] => vec![result.to_string()],
                        members => members.to_vec(),
                    };
                    for r in held.iter().filter(|r| *r != "Result") {
                        assert!(
                            answers.contains(r),
                            "{}: {member} is answered by `{r}`, which is not in `{answered_by}`",
                            rev.name
                        );
                    }
                }
                checked += 1;
            }
        }
        // The counts of the pinned inputs; a revision dropped in later needs ten.
        let expected = match rev.name.as_str() {
            "2024-11-05" | "2025-03-26" => 27,
            "2025-06-18" => 28,
            "2025-11-25" => 39,
            "2026-07-28" | "draft" => 22,
            _ => 10,
        };
        assert!(checked >= expected, "{}: only {checked} messages in the unions, {expected} expected", rev.name);
        // And the other way round: every entry of the table is a member of its union.
        let entries: BTreeSet<String> = table.iter().map(|m| m.message.to_string()).collect();
        assert_eq!(entries, in_unions, "{}: METHODS and the schema's message unions", rev.name);
        let names: BTreeSet<&str> = table.iter().map(|m| m.method).collect();
        assert_eq!(names.len(), table.len(), "{}: a method appears twice", rev.name);
    }
    println!("{printed}");
}

fn same_type<T>(_: PhantomData<T>, _: PhantomData<T>) {}

fn method_of<R: Request>() -> &'static str {
    R::METHOD
}

#[test]
fn request_types_know_their_method_params_and_result() {
    use mcp_spec_types::v2026_07_28 as v;
    assert_eq!(method_of::<v::CallToolRequest>(), "tools/call");
    same_type(PhantomData::<<v::CallToolRequest as Request>::Params>, PhantomData::<v::CallToolRequestParams>);
    // In 2026-07-28 a tool call may be answered by an `InputRequiredResult`.
    same_type(PhantomData::<<v::CallToolRequest as Request>::Result>, PhantomData::<v::CallToolResultResponseResult>);
    same_type(PhantomData::<<v::ListToolsRequest as Request>::Result>, PhantomData::<v::ListToolsResult>);
    // Requests a server asks inside an `InputRequiredResult` are not JSON-RPC requests.
    assert_eq!(<v::ElicitRequest as InputRequest>::METHOD, "elicitation/create");
    same_type(PhantomData::<<v::ElicitRequest as InputRequest>::Result>, PhantomData::<v::ElicitResult>);
    same_type(PhantomData::<<v::CallToolRequest as HasResponse>::Response>, PhantomData::<v::CallToolResultResponse>);
    // In 2026-07-28 every request carries params (its `_meta` is required).
    same_type(PhantomData::<<v::ListToolsRequest as Request>::Params>, PhantomData::<v::PaginatedRequestParams>);
    assert_eq!(<v::ProgressNotification as Notification>::METHOD, "notifications/progress");
    use mcp_spec_types::v2024_11_05 as old;
    assert_eq!(method_of::<old::InitializeRequest>(), "initialize");
    same_type(PhantomData::<<old::PingRequest as Request>::Result>, PhantomData::<old::EmptyResult>);
    same_type(
        PhantomData::<<old::ListToolsRequest as Request>::Params>,
        PhantomData::<Option<old::PaginatedRequestParams>>,
    );
}

#[test]
fn an_unknown_method_passes_through_as_a_generic_request() {
    use mcp_spec_types::v2026_07_28 as v;
    let json =
        serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "vendor/custom", "params": {"x": 1}, "x-trace": "t"});
    let r: v::ClientRequest = serde_json::from_value(json.clone()).unwrap();
    let v::ClientRequest::Other(generic) = &r else { panic!("read as {}", r.member_name()) };
    assert_eq!(generic.method, "vendor/custom");
    assert_eq!(serde_json::to_value(&r).unwrap(), json, "written back as it came");
    let known: v::ClientRequest = serde_json::from_value(serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}
    }))
    .unwrap();
    assert_eq!(known.member_name(), "ListToolsRequest");
    let n: v::ServerNotification =
        serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "method": "vendor/ping"})).unwrap();
    assert_eq!(n.member_name(), "Other");
    // A known method with a wrong shape is still an error, not an `Other`.
    assert!(
        serde_json::from_value::<v::ClientRequest>(
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"})
        )
        .is_err()
    );
}

#[test]
fn results_are_told_apart_by_result_type_and_its_absence_means_complete() {
    use mcp_spec_types::v2026_07_28 as v;
    use v::CallToolResultResponseResult as R;
    let done: R = serde_json::from_value(serde_json::json!({"content": [{"type": "text", "text": "72°F"}]})).unwrap();
    let R::CallToolResult(result) = &done else { panic!("read as {}", done.member_name()) };
    assert_eq!(result.result_type, v::ResultType::Complete, "an absent resultType reads as complete");
    let more: R = serde_json::from_value(serde_json::json!({
        "resultType": "input_required",
        "inputRequests": {"q": {"method": "elicitation/create", "params": {"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": {}}}}}
    }))
    .unwrap();
    assert!(matches!(more, R::InputRequiredResult(_)), "read as {}", more.member_name());
    // `resultType` decides before the shape does, as the spec says it must.
    let tagged: R = serde_json::from_value(serde_json::json!({"resultType": "input_required", "content": []})).unwrap();
    assert!(matches!(tagged, R::InputRequiredResult(_)));
    let server: v::ServerResult = serde_json::from_value(serde_json::json!({"resultType": "input_required"})).unwrap();
    assert_eq!(server.member_name(), "InputRequiredResult");
}

/// The docs of each declared type of a schema.ts, read from its raw text (not
/// through the generator): the JSDoc block right above `export interface` or
/// `export type`.
fn raw_docs(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    let mut open: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(b) = open.as_mut() {
            b.push_str(t);
            b.push('\n');
            if t.ends_with("*/") {
                block = open.take();
            }
            continue;
        }
        if t.starts_with("/**") {
            if t.ends_with("*/") {
                block = Some(t.to_string());
            } else {
                open = Some(format!("{t}\n"));
            }
            continue;
        }
        let decl = t.strip_prefix("export interface ").or_else(|| t.strip_prefix("export type "));
        if let Some(rest) = decl {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if let Some(b) = block.take() {
                out.push((name, b));
            }
        } else if !t.is_empty() && !t.starts_with("//") {
            block = None;
        }
    }
    out
}

/// The method a type's docs say it answers: its `@category` (2025-06-18 on), or
/// "response to a `tools/list` request" / "receiving an `initialize` request"
/// in the prose of older revisions.
fn method_in_docs(docs: &str) -> Option<String> {
    if let Some(i) = docs.find("@category `") {
        let rest = &docs[i + "@category `".len()..];
        return rest.split_once('`').map(|(m, _)| m.to_string());
    }
    for lead in ["response to a ", "response to an ", "receiving an ", "receiving a "] {
        if let Some(i) = docs.find(lead) {
            let word: String = docs[i + lead.len()..].chars().take_while(|c| !c.is_whitespace()).collect();
            if word.contains('/') || word.chars().all(|c| c.is_ascii_lowercase()) {
                let after = &docs[i + lead.len() + word.len()..];
                if after.trim_start().starts_with("request") {
                    return Some(word);
                }
            }
        }
    }
    None
}

/// The results of the requests whose result no schema docs name, reviewed by
/// hand: (method, result, the revisions, what says so). Where a request asks for a
/// side effect and the revision declares no `…Result` for it, the result is
/// the schema's `EmptyResult`, "a response that indicates success but carries
/// no data".
const UNNAMED_BY_DOCS: &[(&str, &str, &[&str], &str)] = &[
    ("logging/setLevel", "EmptyResult", UP_TO_2025_11_25, "no SetLevelResult declared: EmptyResult"),
    (
        "ping",
        "EmptyResult",
        UP_TO_2025_11_25,
        "the ping text (2025-11-25 basic/utilities/ping.mdx): \"MUST respond promptly with an empty response\"",
    ),
    ("resources/subscribe", "EmptyResult", UP_TO_2025_11_25, "no SubscribeResult declared: EmptyResult"),
    ("resources/unsubscribe", "EmptyResult", UP_TO_2025_11_25, "no UnsubscribeResult declared: EmptyResult"),
    (
        "sampling/createMessage",
        "CreateMessageResult",
        BEFORE_2025_06_18,
        "its docs: \"The client's response to a sampling/create_message request\" (the method misspelt)",
    ),
    ("tools/call", "CallToolResult", BEFORE_2025_06_18, "its docs: \"The server's response to a tool call\""),
];
const UP_TO_2025_11_25: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const BEFORE_2025_06_18: &[&str] = &["2024-11-05", "2025-03-26"];

/// The result type each request of the method table names is the one the
/// schema's docs give it, read from the raw text: the `result` of the
/// `…ResultResponse` whose `@category` is the method (2026-07-28), else the
/// `…Result` the docs tie to the method. Independent of how the generator
/// finds it (by the request's name).
#[test]
fn each_requests_result_is_the_one_the_schemas_docs_name() {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let mut report = String::new();
    for rev in &spec.revisions {
        let path = support::spec_dir().join("schema").join(&rev.name).join("schema.ts");
        let text = std::fs::read_to_string(&path).unwrap();
        let docs = raw_docs(&text);
        let table = methods_of(&rev.name);
        let (mut agreed, mut unnamed) = (0, Vec::new());
        for m in table.iter().filter(|m| m.kind != MethodKind::Notification) {
            let named_by = |suffix: &str| -> Vec<&str> {
                docs.iter()
                    .filter(|(name, d)| name.ends_with(suffix) && method_in_docs(d).as_deref() == Some(m.method))
                    .map(|(name, _)| name.as_str())
                    .collect()
            };
            let from_response = named_by("ResultResponse");
            let expected: String = match (from_response.as_slice(), named_by("Result").as_slice()) {
                ([response], _) => match rev.struct_of(response).and_then(|s| s.field("result")).map(|f| &f.ty) {
                    Some(Type::Named(n)) => n.clone(),
                    other => panic!("{}: {response}.result is {other:?}", rev.name),
                },
                ([], [result]) => result.to_string(),
                ([], []) => {
                    unnamed.push(m.method);
                    continue;
                }
                (responses, results) => {
                    panic!("{}: {} is named by {responses:?} and {results:?}", rev.name, m.method)
                }
            };
            assert_eq!(m.result, Some(expected.as_str()), "{}: the result of {}", rev.name, m.method);
            agreed += 1;
        }
        // The requests whose result no docs name: each held to the reviewed table.
        let reviewed: Vec<&(&str, &str, &[&str], &str)> =
            UNNAMED_BY_DOCS.iter().filter(|(_, _, revs, _)| revs.contains(&rev.name.as_str())).collect();
        for method in &unnamed {
            match reviewed.iter().find(|(m, ..)| m == method) {
                Some((_, result, ..)) => {
                    let m = table.iter().find(|m| m.method == *method).unwrap();
                    assert_eq!(m.result, Some(*result), "{}: the result of {method} (the reviewed table)", rev.name);
                }
                None => panic!(
                    "{}: no docs name the result of {method}, and the reviewed table has no row for it",
                    rev.name
                ),
            }
        }
        let listed: Vec<&str> = reviewed.iter().map(|(m, ..)| *m).collect();
        assert_eq!(listed, unnamed, "{}: the reviewed table lists exactly the requests no docs name", rev.name);
        report.push_str(&format!(
            "{}: {agreed} results as the docs name them, {} from the reviewed table\n",
            rev.name,
            unnamed.len()
        ));
        // As many as the pinned inputs' docs name (a revision dropped in later
        // needs one): fewer would mean this reading of the docs broke. The
        // older revisions' docs say "a tool call" and "sampling/create_message".
        let expected = match rev.name.as_str() {
            "2024-11-05" | "2025-03-26" => 9,
            "2025-06-18" => 12,
            "2025-11-25" => 16,
            "2026-07-28" | "draft" => 13,
            _ => 1,
        };
        assert!(agreed >= expected, "{}: only {agreed} results named by the docs\n{report}", rev.name);
    }
    eprintln!("{report}");
}

/// `METHODS`' facts of each request that a proxy acts on, against upstream's
/// schema.json (written from the same schema.ts by another tool, and read here
/// without the generator): `may_ask_for_input` where the declared response's
/// `result` has more members than the complete result, `cacheable` where the
/// complete result requires `ttlMs` and `cacheScope`; and `AnyResult::read`
/// reads each request's complete result as that type, by method.
#[test]
fn what_a_proxy_needs_of_each_request_is_the_schemas_own() {
    let mut asked = 0;
    let mut cached = 0;
    for rev in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"] {
        let path = support::spec_dir().join(format!("schema/{rev}/schema.json"));
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let defs = json.get("$defs").or_else(|| json.get("definitions")).expect("schema.json has definitions");
        for m in methods_of(rev).iter().filter(|m| m.kind == MethodKind::Request) {
            let members = m
                .response
                .and_then(|r| {
                    defs[r]["properties"]["result"]
                        .get("anyOf")
                        .or_else(|| defs[r]["properties"]["result"].get("oneOf"))
                })
                .and_then(serde_json::Value::as_array)
                .map_or(1, Vec::len);
            assert_eq!(
                m.may_ask_for_input,
                members > 1,
                "{rev} {}: the response's result has {members} member(s)",
                m.method
            );
            let complete = m.complete.unwrap_or_else(|| panic!("{rev} {}: no complete result", m.method));
            let required: Vec<&str> = defs[complete]["required"]
                .as_array()
                .map(|r| r.iter().filter_map(serde_json::Value::as_str).collect())
                .unwrap_or_default();
            let hinted = required.contains(&"ttlMs") && required.contains(&"cacheScope");
            assert_eq!(m.cacheable, hinted, "{rev} {}: {complete} requires {required:?}", m.method);
            asked += usize::from(m.may_ask_for_input);
            cached += usize::from(m.cacheable);
        }
    }
    // 2026-07-28 and draft: tools/call, prompts/get, resources/read ask; the
    // four lists, resources/read and server/discover carry cache hints.
    assert_eq!((asked, cached), (6, 12));

    use mcp_spec_types::v2026_07_28 as m;
    let read = |method: &str, json: &str| m::AnyResult::read(method, json);
    let call = read("tools/call", r#"{"resultType":"complete","content":[]}"#).unwrap().unwrap();
    assert!(matches!(call, m::AnyResult::CallToolResult(_)), "{call:?}");
    let list = read("tools/list", r#"{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"private"}"#);
    assert_eq!(list.unwrap().unwrap().type_name(), "ListToolsResult");
    // A near miss names what is missing; a method the revision lacks is `None`.
    let err = read("tools/list", r#"{"resultType":"complete","tools":[]}"#).unwrap().unwrap_err().to_string();
    assert!(err.contains("ttlMs"), "{err}");
    assert!(read("ping", "{}").is_none());
    assert!(mcp_spec_types::v2025_11_25::AnyResult::read("ping", "{}").unwrap().is_ok());
}

/// `AnyResult` converts by method between adjacent revisions: a result both
/// have as the type converts (a 2025-11-25 list lacks the cache hints
/// 2026-07-28 requires: the error names type, revisions and member); one the
/// other revision has no type for is an error saying so.
#[test]
fn results_convert_by_method_between_adjacent_revisions() {
    use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};
    let tool = r#"{"content":[{"type":"text","text":"72F"}]}"#;
    let read = old::AnyResult::read("tools/call", tool).unwrap().unwrap();
    let up = new::AnyResult::try_from(read).unwrap();
    assert!(matches!(&up, new::AnyResult::CallToolResult(r) if r.content.len() == 1), "{up:?}");
    let down = old::AnyResult::try_from(up).unwrap();
    assert_eq!(serde_json::to_value(&down).unwrap()["content"][0]["text"], "72F");
    let list = old::AnyResult::read("tools/list", r#"{"tools":[]}"#).unwrap().unwrap();
    let err = new::AnyResult::try_from(list).unwrap_err().to_string();
    assert!(err.starts_with("ListToolsResult (2025-11-25 to 2026-07-28): ") && err.contains("ttlMs"), "{err}");
    let init = r#"{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#;
    let init = old::AnyResult::read("initialize", init).unwrap().unwrap();
    let err = new::AnyResult::try_from(init).unwrap_err();
    assert_eq!(err.to_string(), "InitializeResult (2025-11-25 to 2026-07-28): 2026-07-28 has no such type");
    assert_eq!(err.path(), ".");
}

/// Each revision's `results` names what every request answers with by the
/// request's name without `Request` (`results::CallTool`), as `METHODS` says
/// it, and nothing else; for a few, the compiler checks the name is the type of
/// the `Request` impl's `Result`.
#[test]
fn each_requests_result_has_a_name_to_guess_in_results() {
    let src = support::workspace_root().join("generated/src");
    let module_of = |rev: &str| if rev == "draft" { rev.to_string() } else { format!("v{}", rev.replace('-', "_")) };
    let mut counts = Vec::new();
    for rev in mcp_spec_types::REVISIONS {
        let mut text = std::fs::read_to_string(src.join(format!("{}.rs", module_of(rev)))).unwrap();
        // A revision that re-exports another's module whole has that one's `results`.
        if let Some(of) = text.lines().find_map(|l| l.strip_prefix("pub use crate::")?.strip_suffix("::*;")) {
            text = std::fs::read_to_string(src.join(format!("{of}.rs"))).unwrap();
        }
        let block = text.split("pub mod results {").nth(1).unwrap_or_else(|| panic!("{rev}: no results module"));
        let listed: BTreeSet<(String, String)> = block[..block.find('}').unwrap()]
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub use super::")?.strip_suffix(';')?.split_once(" as "))
            .map(|(ty, name)| (name.to_string(), ty.to_string()))
            .collect();
        let types = support::types_of(rev);
        let expected: BTreeSet<(String, String)> = methods_of(rev)
            .iter()
            .filter(|m| m.kind != MethodKind::Notification)
            .filter_map(|m| {
                let result = m.result.filter(|r| types.iter().any(|e| e.name == *r))?;
                Some((m.message.strip_suffix("Request").unwrap_or(m.message).to_string(), result.to_string()))
            })
            .collect();
        assert_eq!(listed, expected, "{rev}: results against METHODS");
        counts.push(listed.len());
    }
    // Every request of each revision has one (as many as its requests).
    assert_eq!(counts, [15, 15, 16, 20, 13, 13], "results per revision");
    fn same<T: 'static, U: 'static>() -> bool {
        std::any::TypeId::of::<T>() == std::any::TypeId::of::<U>()
    }
    use mcp_spec_types::{v2024_11_05 as a, v2025_11_25 as b, v2026_07_28 as c};
    assert!(same::<<a::CallToolRequest as Request>::Result, a::results::CallTool>());
    assert!(same::<<b::CallToolRequest as Request>::Result, b::results::CallTool>());
    assert!(same::<<c::CallToolRequest as Request>::Result, c::results::CallTool>());
    assert!(same::<<c::ElicitRequest as InputRequest>::Result, c::results::Elicit>());
    assert!(same::<<a::PingRequest as Request>::Result, a::results::Ping>());
    assert!(!same::<c::results::CallTool, c::CallToolResult>(), "tools/call may ask for input in 2026-07-28");
}
