//! Building messages: the constructors, `Default`, setters and `From` impls the
//! generator writes for every type, used as a downstream crate uses them (warnings
//! denied), and what they write checked against the spec (upstream's schema.json
//! and the values the spec requires).

use mcp_spec_tests::{self as support, SchemaJson};
use serde_json::{Value, json};

const FIRST_HOUR: &str = r##"#![deny(warnings)]
use mcp_spec_types::v2026_07_28 as m;

fn main() {
    // A tool result with one text block.
    let result = m::CallToolResult::new(vec![m::TextContent::new("72F").into()]);
    // A 2026-07-28 request with its required `_meta`.
    let meta = m::RequestMetaObject::new(m::LATEST_PROTOCOL_VERSION, m::ClientCapabilities::default());
    let id: m::RequestId = 1.into();
    let mut pending = std::collections::HashSet::new();
    pending.insert(id.clone());
    let request = m::ListToolsRequest::new(id.clone(), m::PaginatedRequestParams::new(meta));
    // A tools/list request (2025-11-25, where `params` is optional).
    let legacy = mcp_spec_types::v2025_11_25::ListToolsRequest::new(1);
    // An error reply to a request id.
    let reply = m::JSONRPCErrorResponse::new(Some(id), m::Error::new(m::METHOD_NOT_FOUND, "no such method"));
    println!("{}", reply.error);
    // A multi-round-trip answer, and the typed response of a tool call.
    let more = m::InputRequiredResult::new().with_request_state("opaque");
    let response = m::CallToolResultResponse::new("call-1", more);
    // A tool call as the spec's example has it, its arguments from `json!`, a
    // `serde_json::Map` and an `IndexMap`: one message.
    let info = m::Implementation::new("ExampleClient", "1.0.0");
    let call_meta = m::RequestMetaObject::new(m::LATEST_PROTOCOL_VERSION, m::ClientCapabilities::default())
        .with_io_modelcontextprotocol_client_info(info);
    let call_with = |arguments: mcp_spec_types::Extra| {
        let params = m::CallToolRequestParams::new(call_meta.clone(), "get_weather").with_arguments(arguments);
        m::CallToolRequest::new("call-tool-example", params)
    };
    let arguments = serde_json::json!({"location": "New York"});
    let call = call_with(mcp_spec_types::Extra::try_from(arguments.clone()).unwrap());
    let params_map = m::CallToolRequestParams::new(call_meta.clone(), "get_weather")
        .with_arguments(arguments.as_object().unwrap().clone());
    let params_indexmap = m::CallToolRequestParams::new(call_meta.clone(), "get_weather")
        .with_arguments(mcp_spec_types::IndexMap::from_iter([("location".to_string(), serde_json::json!("New York"))]));
    let same_ways = params_map == call.params && params_indexmap == call.params;
    let not_an_object = mcp_spec_types::Extra::try_from(serde_json::json!(["New York"])).unwrap_err().to_string();
    // Reading with the path of the value at fault.
    let broken = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather"}}"#;
    let at_fault = mcp_spec_types::from_str::<m::CallToolRequest>(broken).unwrap_err();
    let at_fault_path = at_fault.path().to_string();
    let at_fault = at_fault.to_string();
    // Orders kept without `serde_json/preserve_order` in this build.
    let form: m::ElicitRequestFormParams = serde_json::from_str(
        r#"{"message":"?","requestedSchema":{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"}}}}"#,
    )
    .unwrap();
    let order: Vec<&String> = form.requested_schema.properties.keys().collect();
    // Written back in the order read, members the schema does not name included.
    let text = r#"{"zeta-x":1,"text":"t","type":"text","alpha-x":2}"#;
    let message: m::TextContent = serde_json::from_str(text).unwrap();
    let written = serde_json::to_string(&message).unwrap();
    let form_written = serde_json::to_string(&form.requested_schema.properties).unwrap();
    // A tool whose input schema, which 2026-07-28 leaves open, is built member by member.
    let input = m::ToolInputSchema::new()
        .with_member("properties", serde_json::json!({"location": {"type": "string"}}))
        .with_member("required", ["location"]);
    let tool = m::Tool::new("get_weather", input);
    // String enums are `Display` and `FromStr` by their wire value.
    let role: m::Role = "assistant".parse().unwrap();
    let wrong = "robot".parse::<m::Role>().unwrap_err().to_string();
    for (name, value) in [
        ("result", serde_json::to_value(&result).unwrap()),
        ("request", serde_json::to_value(&request).unwrap()),
        ("legacy", serde_json::to_value(&legacy).unwrap()),
        ("reply", serde_json::to_value(&reply).unwrap()),
        ("response", serde_json::to_value(&response).unwrap()),
        ("order", serde_json::to_value(&order).unwrap()),
        ("written", serde_json::to_value(&written).unwrap()),
        ("form_written", serde_json::to_value(&form_written).unwrap()),
        ("role", serde_json::to_value(role.to_string()).unwrap()),
        ("wrong", serde_json::to_value(&wrong).unwrap()),
        ("pending", serde_json::to_value(pending.len()).unwrap()),
        ("call", serde_json::to_value(&call).unwrap()),
        ("tool", serde_json::to_value(&tool).unwrap()),
        ("same_ways", serde_json::to_value(same_ways).unwrap()),
        ("not_an_object", serde_json::to_value(&not_an_object).unwrap()),
        ("at_fault_path", serde_json::to_value(&at_fault_path).unwrap()),
        ("at_fault", serde_json::to_value(&at_fault).unwrap()),
        ("versions", serde_json::to_value(mcp_spec_types::PROTOCOL_VERSIONS).unwrap()),
    ] {
        println!("{name} {value}");
    }
}
"##;

#[test]
fn the_first_hour_tasks_build_in_a_downstream_crate_with_warnings_denied() {
    let out = support::downstream("first-hour", &["v2026_07_28", "v2025_11_25"], FIRST_HOUR, "run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the downstream crate must build with warnings denied and run:\n{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("no such method (-32601)"), "Error's Display:\n{stdout}");
    let printed: std::collections::BTreeMap<&str, Value> =
        lines.filter_map(|l| l.split_once(' ')).map(|(k, v)| (k, serde_json::from_str(v).unwrap())).collect();
    // The JSON the spec expects.
    assert_eq!(printed["result"], json!({"resultType": "complete", "content": [{"type": "text", "text": "72F"}]}));
    assert_eq!(printed["request"]["method"], "tools/list");
    assert_eq!(printed["request"]["id"], 1);
    assert_eq!(
        printed["request"]["params"]["_meta"],
        json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        })
    );
    assert_eq!(
        printed["reply"],
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no such method"}})
    );
    assert_eq!(printed["response"]["result"], json!({"resultType": "input_required", "requestState": "opaque"}));
    assert_eq!(printed["order"], json!(["zeta", "alpha"]));
    // Written in the order read: this downstream build has no `serde_json/preserve_order`.
    assert_eq!(
        printed["written"], r#"{"type":"text","text":"t","zeta-x":1,"alpha-x":2}"#,
        "known members first, in the schema's order, then the unknown ones as they came"
    );
    assert_eq!(printed["form_written"], r#"{"zeta":{"type":"string"},"alpha":{"type":"boolean"}}"#);
    assert_eq!(printed["role"], "assistant");
    let wrong = printed["wrong"].as_str().unwrap();
    assert!(
        wrong.contains("robot") && wrong.contains("\"user\""),
        "FromStr's error names the value and the choices: {wrong}"
    );
    assert_eq!(printed["pending"], 1);
    // The tool call is the spec's own example, built three ways alike.
    let example = support::spec_dir().join("schema/2026-07-28/examples/CallToolRequest/call-tool-request.json");
    let example: Value = serde_json::from_str(&std::fs::read_to_string(&example).unwrap()).unwrap();
    assert_eq!(printed["call"], example);
    assert_eq!(printed["same_ways"], true, "arguments from json!, a Map and an IndexMap build the same params");
    assert_eq!(
        printed["tool"],
        json!({"name": "get_weather", "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}})
    );
    let not_an_object = printed["not_an_object"].as_str().unwrap();
    assert!(not_an_object.contains("expected an object"), "{not_an_object}");
    // The versions this build has types for: its two revisions' features.
    assert_eq!(printed["versions"], json!(["2025-11-25", "2026-07-28"]));
    // `from_str` says where; serde_json alone says only what.
    assert_eq!(printed["at_fault_path"], "params");
    let at_fault = printed["at_fault"].as_str().unwrap();
    assert!(at_fault.starts_with("params: missing field `_meta` at line 1 column "), "{at_fault}");
    // And upstream's schema.json agrees.
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let schema = SchemaJson::load(spec.revision("2026-07-28").unwrap());
    for (name, def) in [
        ("result", "CallToolResult"),
        ("request", "ListToolsRequest"),
        ("reply", "JSONRPCErrorResponse"),
        ("response", "CallToolResultResponse"),
        ("call", "CallToolRequest"),
        ("tool", "Tool"),
    ] {
        assert_eq!(schema.errors(def, &printed[name]), Vec::<String>::new(), "{name} as {def}");
    }
}

/// Every struct of every revision that has `Default` (it requires nothing): what
/// the default writes reads back as the same, and upstream's schema.json accepts
/// it (with the selector's value where a union picks the struct by one).
#[test]
fn what_default_builds_is_valid_in_every_revision() {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let mut checked = 0;
    let mut failures = Vec::new();
    for rev in &spec.revisions {
        let schema = SchemaJson::load(rev);
        for entry in support::types_of(&rev.name) {
            let Some(default) = entry.default_json else { continue };
            let value = default();
            match (entry.roundtrip)(&value.to_string()) {
                Ok(back) if back == value => {}
                Ok(back) => failures.push(format!("{} {}: {value} read back as {back}", rev.name, entry.name)),
                Err(e) => failures.push(format!("{} {}: {value}: {e}", rev.name, entry.name)),
            }
            if schema.defines(entry.name) {
                let errors = schema.errors(entry.name, &value);
                if !errors.is_empty() {
                    failures.push(format!(
                        "{} {}: schema.json rejects the default {value}: {errors:?}",
                        rev.name, entry.name
                    ));
                }
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let structs: usize =
        spec.revisions.iter().map(|r| r.items.values().filter(|i| r.struct_of(&i.name).is_some()).count()).sum();
    assert!(checked * 5 > structs, "only {checked} of {structs} structs have Default");
    eprintln!("{checked} defaults checked");
}

/// A downstream crate whose `serde_json` has `arbitrary_precision`, which hands
/// every number over as a map: the types read numbers as they do without it.
const ARBITRARY_PRECISION: &str = r##"
use mcp_spec_types::v2026_07_28 as m;

fn main() {
    assert_eq!(serde_json::from_str::<m::RequestId>("7").unwrap(), m::RequestId::Integer(7));
    assert_eq!(serde_json::from_str::<m::RequestId>("7.0").unwrap(), m::RequestId::Integer(7));
    assert_eq!(serde_json::from_str::<m::RequestId>(r#""x""#).unwrap().member_name(), "String");
    let e = serde_json::from_str::<m::RequestId>("1.5").unwrap_err().to_string();
    assert!(e.starts_with("RequestId: Integer: invalid value: floating point `1.5`"), "{e}");
    let e = serde_json::from_str::<m::RequestId>(r#"{"a": 1}"#).unwrap_err().to_string();
    assert!(e.starts_with("RequestId: expected a string or a number, found an object"), "{e}");
    let value: serde_json::Value = serde_json::from_str("12").unwrap();
    assert_eq!(serde_json::from_value::<m::ProgressToken>(value).unwrap(), m::ProgressToken::Integer(12));
    let text = r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1.25}, "_meta": {"progressToken": 5, "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}"#;
    let message: m::JSONRPCMessage = serde_json::from_str(text).unwrap();
    assert_eq!(message.member_name(), "JSONRPCRequest");
    // A union of objects given a number (handed over as a map) says so.
    for number in ["7", "1.5"] {
        let e = serde_json::from_str::<m::JSONRPCMessage>(number).unwrap_err().to_string();
        assert!(e.starts_with("JSONRPCMessage: expected an object, found a number"), "{e}");
    }
    let request: m::CallToolRequest = serde_json::from_str(text).unwrap();
    assert_eq!(request.id, m::RequestId::Integer(3));
    let back: serde_json::Value = serde_json::to_value(&request).unwrap();
    assert_eq!(back, serde_json::from_str::<serde_json::Value>(text).unwrap());
    let result = r#"{"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete", "content": [], "ttlMs": 0}}"#;
    let read: m::CallToolResultResponse = serde_json::from_str(result).unwrap();
    assert_eq!(read.result.member_name(), "CallToolResult");
    // A fixed number (an error's code) is checked as a number, written whole or not
    // (the feature hands over as maps the numbers that are not plain integers).
    let error: m::MethodNotFoundError = serde_json::from_str(r#"{"code": -32601.0, "message": "no"}"#).unwrap();
    assert_eq!(error.message, "no");
    let e = serde_json::from_str::<m::MethodNotFoundError>(r#"{"code": -32600.5, "message": "no"}"#).unwrap_err().to_string();
    assert!(e.contains("expected -32601, found -32600.5"), "{e}");
    println!("ok");
}
"##;

#[test]
fn numbers_read_alike_when_serde_json_has_arbitrary_precision() {
    let out = support::downstream_with(
        "arbitrary-precision",
        &["v2026_07_28"],
        &["arbitrary_precision"],
        ARBITRARY_PRECISION,
        "run",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the downstream crate must build and run:\n{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");
}
