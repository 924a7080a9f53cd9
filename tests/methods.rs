//! Typed methods and messages: the `Request` / `Notification` impls of every
//! revision against the schema's own message unions, unknown methods kept, and
//! results told apart by `resultType` as the spec says.

use std::collections::BTreeSet;
use std::marker::PhantomData;

use mcp_spec_codegen::model::{ItemKind, Type};
use mcp_spec_tests as support;
use mcp_spec_types::{HasResponse, MethodInfo, Notification, Request};

fn methods_of(revision: &str) -> &'static [MethodInfo] {
    match revision {
        "2024-11-05" => mcp_spec_types::v2024_11_05::METHODS,
        "2025-03-26" => mcp_spec_types::v2025_03_26::METHODS,
        "2025-06-18" => mcp_spec_types::v2025_06_18::METHODS,
        "2025-11-25" => mcp_spec_types::v2025_11_25::METHODS,
        "2026-07-28" => mcp_spec_types::v2026_07_28::METHODS,
        "draft" => mcp_spec_types::draft::METHODS,
        other => panic!("no module for revision {other}: add it here"),
    }
}

#[test]
fn the_method_table_of_every_revision_matches_the_schemas_own_unions() {
    let (spec, _) = mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let mut printed = String::new();
    for rev in &spec.revisions {
        let table = methods_of(&rev.name);
        printed.push_str(&format!("{}: {} methods\n", rev.name, table.len()));
        for m in table {
            printed.push_str(&format!(
                "  {:45} {:12} {:38} params {:40} result {}\n",
                m.method,
                if m.is_request { "request" } else { "notification" },
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
                    .filter(|(i, _)| u.fallback != Some(*i))
                    .filter_map(|(_, v)| match &v.ty {
                        Type::Named(n) => Some(n.clone()),
                        _ => None,
                    })
                    .collect(),
                Some(ItemKind::Alias(Type::Named(n))) => vec![n.clone()],
                _ => Vec::new(),
            }
        };
        let mut results: BTreeSet<String> = ["EmptyResult".to_string()].into();
        results.extend(union_members("ClientResult"));
        results.extend(union_members("ServerResult"));
        let mut checked = 0;
        for (union, is_request) in
            [("ClientRequest", true), ("ServerRequest", true), ("ClientNotification", false), ("ServerNotification", false)]
        {
            for member in union_members(union) {
                let m = table.iter().find(|m| m.message == member).unwrap_or_else(|| {
                    panic!("{}: `{member}` of `{union}` has no entry in METHODS:\n{printed}", rev.name)
                });
                assert_eq!(m.is_request, is_request, "{}: {member}", rev.name);
                if is_request {
                    let result = m.result.unwrap_or_else(|| panic!("{}: {member} has no result type", rev.name));
                    assert!(results.contains(result), "{}: {member}'s result `{result}` is in no result union", rev.name);
                }
                checked += 1;
            }
        }
        assert!(checked >= 10, "{}: only {checked} messages in the unions", rev.name);
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
    same_type(PhantomData::<<v::CallToolRequest as Request>::Result>, PhantomData::<v::CallToolResult>);
    same_type(PhantomData::<<v::CallToolRequest as HasResponse>::Response>, PhantomData::<v::CallToolResultResponse>);
    // In 2026-07-28 every request carries params (its `_meta` is required).
    same_type(PhantomData::<<v::ListToolsRequest as Request>::Params>, PhantomData::<v::PaginatedRequestParams>);
    assert_eq!(<v::ProgressNotification as Notification>::METHOD, "notifications/progress");
    use mcp_spec_types::v2024_11_05 as old;
    assert_eq!(method_of::<old::InitializeRequest>(), "initialize");
    same_type(PhantomData::<<old::PingRequest as Request>::Result>, PhantomData::<old::EmptyResult>);
    same_type(PhantomData::<<old::ListToolsRequest as Request>::Params>, PhantomData::<Option<old::PaginatedRequestParams>>);
}

#[test]
fn an_unknown_method_passes_through_as_a_generic_request() {
    use mcp_spec_types::v2026_07_28 as v;
    let json = serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "vendor/custom", "params": {"x": 1}, "x-trace": "t"});
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
    let n: v::ServerNotification = serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "method": "vendor/ping"})).unwrap();
    assert_eq!(n.member_name(), "Other");
    // A known method with a wrong shape is still an error, not an `Other`.
    assert!(serde_json::from_value::<v::ClientRequest>(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"})).is_err());
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
