//! The member a message is read as, and what a near miss gets: the cases that
//! a round trip cannot see (a broken complete result read as an
//! `InputRequiredResult`, a result swallowed by `EmptyResult`), one test each.

use mcp_spec_types::v2026_07_28 as m;
use serde_json::{Value, json};

fn read<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn error_of<T: serde::de::DeserializeOwned + std::fmt::Debug>(v: Value) -> String {
    match read::<T>(v.clone()) {
        Ok(t) => panic!("{v} read as {t:?}, expected an error"),
        Err(e) => e,
    }
}

#[test]
fn a_broken_complete_result_is_an_error_naming_the_complete_member_and_the_path() {
    use m::CallToolResultResponseResult as R;
    let e = error_of::<R>(json!({"resultType": "complete", "content": [{"type": "image", "data": "AAAA"}]}));
    assert!(e.contains("CallToolResult: content[0]: ContentBlock: ImageContent: missing field `mimeType`"), "{e}");
    // Without resultType (a server of an earlier revision): the same.
    let e = error_of::<R>(json!({"content": [{"type": "image", "data": "AAAA"}]}));
    assert!(e.contains("CallToolResult: content[0]"), "{e}");
    let e = error_of::<R>(json!({"resultType": "complete"}));
    assert!(e.contains("CallToolResult: missing field `content`"), "{e}");
    let e = error_of::<m::GetPromptResultResponseResult>(json!({"resultType": "complete", "description": "d"}));
    assert!(e.contains("GetPromptResult: missing field `messages`"), "{e}");
    let e = error_of::<m::ReadResourceResultResponseResult>(
        json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public"}),
    );
    assert!(e.contains("ReadResourceResult: missing field `contents`"), "{e}");
    // In a whole response, the error says where the result is too.
    let e =
        error_of::<m::CallToolResultResponse>(json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}}));
    assert!(e.contains("CallToolResult: missing field `content`"), "{e}");
}

#[test]
fn input_required_reads_only_as_input_required_and_an_unlisted_result_type_as_other() {
    use m::CallToolResultResponseResult as R;
    let r: R = read(json!({"resultType": "input_required", "requestState": "s1"})).unwrap();
    let R::InputRequiredResult(ir) = &r else { panic!("{}", r.member_name()) };
    assert_eq!(ir.request_state.as_deref(), Some("s1"));
    // `content` does not make it a complete result: resultType decides.
    let r: R = read(json!({"resultType": "input_required", "content": []})).unwrap();
    assert_eq!(r.member_name(), "InputRequiredResult");
    // A kind of result this revision does not list: kept whole, never taken for
    // one of the others.
    let ticket = json!({"resultType": "com.example/tickets/ticket", "ticket": {"id": 7}, "content": []});
    let r: R = read(ticket.clone()).unwrap();
    let R::Other(result) = &r else { panic!("read as {}", r.member_name()) };
    assert_eq!(result.result_type, m::ResultType::Other("com.example/tickets/ticket".into()));
    assert_eq!(result.extra["ticket"], json!({"id": 7}));
    assert_eq!(serde_json::to_value(&r).unwrap(), ticket);
    let s: m::ServerResult = read(json!({"resultType": "com.example/x"})).unwrap();
    assert_eq!(s.member_name(), "Other");
}

#[test]
fn server_result_never_settles_for_empty_result_when_a_specific_member_claims_the_input() {
    let s: m::ServerResult = read(json!({"resultType": "complete"})).unwrap();
    assert_eq!(s.member_name(), "EmptyResult");
    let s: m::ServerResult = read(json!({"resultType": "complete", "x-vendor": 1})).unwrap();
    assert_eq!(s.member_name(), "EmptyResult", "an extension member claims nothing");
    let tools = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": [{"name": "t", "inputSchema": {"type": "object"}}]});
    assert_eq!(read::<m::ServerResult>(tools).unwrap().member_name(), "ListToolsResult");
    // `tools` is ListToolsResult's alone: its error is the union's error.
    let e = error_of::<m::ServerResult>(
        json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": [{"name": 5}]}),
    );
    assert!(e.contains("ServerResult: ListToolsResult: tools[0].name: invalid type: integer `5`"), "{e}");
    let e = error_of::<m::ServerResult>(json!({"resultType": "complete", "content": [{"type": "text"}]}));
    assert!(
        e.contains("ServerResult: CallToolResult: content[0]: ContentBlock: TextContent: missing field `text`"),
        "{e}"
    );
    // Members claimed by a key several of them declare, none of them complete:
    // each one's error, never EmptyResult.
    let e = error_of::<m::ServerResult>(json!({"resultType": "complete", "ttlMs": 5, "cacheScope": "public"}));
    assert!(e.contains("the value is none of") && e.contains("ListToolsResult: missing field `tools`"), "{e}");
}

#[test]
fn ties_go_to_the_member_that_requires_more_of_the_input() {
    let select = json!({"type": "string", "enum": ["a", "b"], "minLength": 1});
    let p: m::PrimitiveSchemaDefinition = read(select).unwrap();
    let m::PrimitiveSchemaDefinition::EnumSchema(m::EnumSchema::SingleSelectEnumSchema(
        m::SingleSelectEnumSchema::UntitledSingleSelectEnumSchema(e),
    )) = &p
    else {
        panic!("{p:?}")
    };
    assert_eq!(e.r#enum, ["a", "b"]);
    assert!(e.extra.contains_key("minLength"), "what the member does not know is kept");
}

#[test]
fn every_elicitation_schema_is_read_as_itself() {
    use m::PrimitiveSchemaDefinition as P;
    let cases: Vec<(Value, &str)> = vec![
        (json!({"type": "string", "title": "Name", "minLength": 1, "maxLength": 50}), "StringSchema"),
        (json!({"type": "string", "format": "email"}), "StringSchema"),
        (json!({"type": "number", "minimum": 0.5, "maximum": 9.5, "default": 1.5}), "NumberSchema"),
        (json!({"type": "integer", "minimum": 0}), "NumberSchema"),
        (json!({"type": "boolean", "default": false}), "BooleanSchema"),
        (json!({"type": "string", "enum": ["red", "green"]}), "UntitledSingleSelectEnumSchema"),
        (json!({"type": "string", "oneOf": [{"const": "r", "title": "Red"}]}), "TitledSingleSelectEnumSchema"),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1}),
            "UntitledMultiSelectEnumSchema",
        ),
        (json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}}), "TitledMultiSelectEnumSchema"),
        (json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]}), "LegacyTitledEnumSchema"),
    ];
    for (input, expected) in cases {
        let p: P = read(input.clone()).unwrap_or_else(|e| panic!("{input}: {e}"));
        let name = match &p {
            P::EnumSchema(m::EnumSchema::SingleSelectEnumSchema(s)) => s.member_name(),
            P::EnumSchema(m::EnumSchema::MultiSelectEnumSchema(s)) => s.member_name(),
            P::EnumSchema(e) => e.member_name(),
            other => other.member_name(),
        };
        assert_eq!(name, expected, "{input}");
        assert_eq!(serde_json::to_value(&p).unwrap(), input);
    }
    // A near miss of each: an error, never another member.
    for bad in
        [json!({"type": "number", "minimum": "low"}), json!({"type": "string", "enum": "red"}), json!({"type": "date"})]
    {
        assert!(read::<P>(bad.clone()).is_err(), "{bad} read");
    }
}

#[test]
fn a_form_answer_may_be_any_number_and_integers_may_be_written_as_whole_floats() {
    let r: m::ElicitResult = read(json!({"action": "accept", "content": {"ratio": 0.25, "count": 3}})).unwrap();
    let content = r.content.as_ref().unwrap();
    assert_eq!(content["ratio"], m::ElicitResultContentValue::Number(0.25));
    assert_eq!(serde_json::to_value(&r).unwrap()["content"], json!({"ratio": 0.25, "count": 3}));
    // A retried tools/call carrying that answer reads too.
    let call: m::CallToolRequest = read(json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {
            "name": "book", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}},
            "inputResponses": {"q": {"action": "accept", "content": {"ratio": 0.25}}}, "requestState": "s"
        }
    }))
    .unwrap();
    assert_eq!(call.params.name, "book");
    // JSON Schema's integer is any number with no fractional part.
    let cached: m::ListToolsResult =
        read(json!({"resultType": "complete", "ttlMs": 3.6e6, "cacheScope": "public", "tools": []})).unwrap();
    assert_eq!(cached.ttl_ms, 3_600_000);
    assert_eq!(serde_json::to_value(&cached).unwrap()["ttlMs"], json!(3600000));
    let id: m::RequestId = read(json!(100.0)).unwrap();
    assert_eq!(id, m::RequestId::Integer(100));
    assert_eq!(serde_json::to_value(&id).unwrap(), json!(100));
    let e = error_of::<m::ListToolsResult>(
        json!({"resultType": "complete", "ttlMs": 0.5, "cacheScope": "public", "tools": []}),
    );
    assert!(e.contains("invalid value: floating point `0.5`, expected an integer"), "{e}");
    let e = error_of::<m::ListToolsResult>(
        json!({"resultType": "complete", "ttlMs": 1e30, "cacheScope": "public", "tools": []}),
    );
    assert!(e.contains("expected an integer") && e.contains("fits in 64 bits"), "{e}");
}

#[test]
fn an_optional_literal_is_checked_when_present() {
    let base = json!({"message": "?", "requestedSchema": {"type": "object", "properties": {}}});
    let p: m::ElicitRequestFormParams = read(base.clone()).unwrap();
    assert_eq!(p.mode, None);
    let mut with = base.clone();
    with["mode"] = json!("form");
    let p: m::ElicitRequestFormParams = read(with.clone()).unwrap();
    assert_eq!(p.mode, Some(m::ElicitRequestFormParamsMode::Form));
    assert_eq!(serde_json::to_value(&p).unwrap(), with);
    let mut wrong = base;
    wrong["mode"] = json!("url");
    let e = error_of::<m::ElicitRequestFormParams>(wrong);
    assert!(e.contains("unknown variant `url`, expected `form`"), "{e}");
}

#[test]
fn an_error_response_may_have_a_null_id() {
    let parse_error = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}});
    let r: m::JSONRPCErrorResponse = read(parse_error.clone()).unwrap();
    assert_eq!(r.id, Some(None));
    assert_eq!(serde_json::to_value(&r).unwrap(), parse_error);
    let absent = json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}});
    let r: m::JSONRPCErrorResponse = read(absent.clone()).unwrap();
    assert_eq!(r.id, None);
    assert_eq!(serde_json::to_value(&r).unwrap(), absent);
    // The generic message reads it as an error response too.
    let msg: m::JSONRPCMessage = read(parse_error).unwrap();
    assert!(matches!(msg, m::JSONRPCMessage::JSONRPCResponse(m::JSONRPCResponse::JSONRPCErrorResponse(_))), "{msg:?}");
    // And so does an older revision, whose id is required.
    use mcp_spec_types::v2025_06_18 as old;
    let r: old::JSONRPCError =
        read(json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}})).unwrap();
    assert_eq!(r.id, None);
}

#[test]
fn request_ids_key_maps_and_print_as_they_are() {
    use std::collections::{HashMap, HashSet};
    let ids: Vec<m::RequestId> = vec![read(json!(1)).unwrap(), read(json!("abc")).unwrap(), read(json!(1.0)).unwrap()];
    let set: HashSet<m::RequestId> = ids.iter().cloned().collect();
    assert_eq!(set.len(), 2, "1 and 1.0 are the same id");
    let mut pending: HashMap<m::ProgressToken, &str> = HashMap::new();
    pending.insert(read(json!("t")).unwrap(), "x");
    assert_eq!(ids[0].to_string(), "1");
    assert_eq!(ids[1].to_string(), "abc");
}

#[test]
fn maps_keep_the_order_they_came_in() {
    let props = json!({"zeta": {"type": "string"}, "alpha": {"type": "number"}, "mid": {"type": "boolean"}});
    let text = json!({"message": "?", "requestedSchema": {"type": "object", "properties": props}}).to_string();
    let p: m::ElicitRequestFormParams = serde_json::from_str(&text).unwrap();
    let keys: Vec<&String> = p.requested_schema.properties.keys().collect();
    assert_eq!(keys, ["zeta", "alpha", "mid"]);
    let written = serde_json::to_string(&p).unwrap();
    assert!(
        written.find("zeta").unwrap() < written.find("alpha").unwrap()
            && written.find("alpha").unwrap() < written.find("mid").unwrap(),
        "{written}"
    );
    let t: m::TextContent = serde_json::from_str(r#"{"type":"text","text":"t","z":1,"a":2}"#).unwrap();
    assert_eq!(t.extra.keys().collect::<Vec<_>>(), ["z", "a"]);
    assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"type":"text","text":"t","z":1,"a":2}"#);
}

/// A value of a kind no member can be is an error that says which kinds the
/// union takes and which it got, before any member is tried.
#[test]
fn a_value_of_the_wrong_kind_names_the_kinds_expected() {
    assert_eq!(error_of::<m::RequestId>(json!(true)), "RequestId: expected a string or a number, found a boolean");
    assert_eq!(
        error_of::<m::ProgressToken>(json!({})),
        "ProgressToken: expected a string or a number, found an object"
    );
    assert_eq!(error_of::<m::ServerResult>(json!([1])), "ServerResult: expected an object, found an array");
    assert_eq!(error_of::<m::ServerResult>(json!("done")), "ServerResult: expected an object, found a string");
    assert_eq!(error_of::<m::ServerResult>(json!(null)), "ServerResult: expected an object, found null");
    // A number is a kind the union takes: its member says what is wrong with it.
    assert_eq!(
        error_of::<m::RequestId>(json!(1.5)),
        "RequestId: Integer: invalid value: floating point `1.5`, expected an integer (a number with no fractional part) that fits in 64 bits"
    );
    let e = error_of::<m::ContentBlock>(json!(7));
    assert!(e.contains("a number") && e.contains("expected an object"), "{e}");
}

/// When a member has every member the input requires of it, members that lack
/// some are not tried: the error is the complete one's alone.
#[test]
fn a_complete_candidate_that_fails_is_the_error_alone() {
    use mcp_spec_types::v2025_11_25 as l;
    // `content` is declared by ElicitResult and CreateMessageResult; only
    // ElicitResult has all it requires (`action`), so only it is tried.
    let e = error_of::<l::ClientResult>(json!({"action": "bogus", "content": {"a": "b"}}));
    assert!(e.starts_with("ClientResult: ElicitResult: ") && e.contains("bogus"), "{e}");
    assert!(!e.contains("CreateMessageResult"), "{e}");
}

#[test]
fn a_union_reads_alike_from_text_from_a_reader_and_from_a_value() {
    // serde_json hands a union its input's text borrowed (text in memory) or
    // owned (a reader, a `Value`): the member, the value and the errors agree.
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": [], "x-extra": {"a": [1, 2]}}}),
        json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "input_required", "inputRequests": {}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}}),
        json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete", "content": [{"type": "image"}]}}),
    ];
    for message in messages {
        let text = message.to_string();
        let borrowed = serde_json::from_str::<m::JSONRPCMessage>(&text).map_err(|e| e.to_string());
        let from_reader = serde_json::from_reader::<_, m::JSONRPCMessage>(text.as_bytes()).map_err(|e| e.to_string());
        let from_value = serde_json::from_value::<m::JSONRPCMessage>(message.clone()).map_err(|e| e.to_string());
        assert_eq!(borrowed, from_reader, "{text}");
        assert_eq!(borrowed.as_ref().map(|m| m.member_name()), from_value.as_ref().map(|m| m.member_name()), "{text}");
        if let Ok(read) = &borrowed {
            assert!(mcp_spec_tests::json_eq(&serde_json::to_value(read).unwrap(), &message), "{text}");
        }
        let typed = serde_json::from_str::<m::CallToolResultResponse>(&text).map_err(|e| e.to_string());
        let typed_reader =
            serde_json::from_reader::<_, m::CallToolResultResponse>(text.as_bytes()).map_err(|e| e.to_string());
        assert_eq!(typed.is_ok(), typed_reader.is_ok(), "{text}");
    }
    // Text as bytes, and a `Value` read by reference: the same.
    let text = messages_text();
    for t in &text {
        let value: Value = serde_json::from_str(t).unwrap();
        let a = serde_json::from_str::<m::JSONRPCMessage>(t).map(|m| m.member_name()).map_err(|e| e.to_string());
        let b = serde_json::from_slice::<m::JSONRPCMessage>(t.as_bytes()).map(|m| m.member_name());
        let c = <m::JSONRPCMessage as serde::Deserialize>::deserialize(&value).map(|m| m.member_name());
        assert_eq!(a, b.map_err(|e| e.to_string()), "{t}");
        assert_eq!(a.is_ok(), c.is_ok(), "{t}");
    }
    // A union of objects reads the members of any map of JSON values (a
    // `serde_json::Map`), not only text; a string holding JSON is a string.
    let map = json!({"jsonrpc": "2.0", "method": "ping"}).as_object().unwrap().clone();
    let read = <m::JSONRPCMessage as serde::Deserialize>::deserialize(map).unwrap();
    assert_eq!(read.member_name(), "JSONRPCNotification");
    let mut map = serde_json::Map::new();
    map.insert("x".into(), Value::String(r#"{"jsonrpc": "2.0", "method": "ping"}"#.into()));
    let e = <m::JSONRPCMessage as serde::Deserialize>::deserialize(map).unwrap_err().to_string();
    assert!(e.starts_with("JSONRPCMessage: the value is none of"), "{e}");
    // A map of another deserializer holds no JSON text for a member's value.
    let map = serde::de::value::MapDeserializer::<_, serde_json::Error>::new(
        [("jsonrpc", "2.0"), ("method", "ping")].into_iter(),
    );
    let e = <m::JSONRPCMessage as serde::Deserialize>::deserialize(map).unwrap_err().to_string();
    assert!(e.contains("invalid type"), "{e}");
    // A near miss: the same error whichever way the text comes.
    let bad = r#"{"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete", "content": [{"type": "image"}]}}"#;
    let a = serde_json::from_str::<m::CallToolResultResponse>(bad).unwrap_err().to_string();
    let b = serde_json::from_reader::<_, m::CallToolResultResponse>(bad.as_bytes()).unwrap_err().to_string();
    assert!(a.contains("ImageContent: missing field `data`"), "{a}");
    assert_eq!(a.split(" at line").next(), b.split(" at line").next());
}

/// The messages `a_union_reads_alike_from_text_from_a_reader_and_from_a_value` reads, as text.
fn messages_text() -> Vec<String> {
    [
        r#"{"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}}"#,
        r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}}"#,
        r#"{"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "no"}}"#,
        r#"{"jsonrpc": "2.0", "id": 4, "result": {"resultType": "complete", "content": [{"type": "image"}]}}"#,
        r#"{"jsonrpc": "2.0", "id": 5}"#,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_tagged_union_reads_the_whole_text_though_it_decides_on_the_tag_alone() {
    // The first look stops at the tag; the member's read still sees every byte.
    let read = |t: &str| m::ContentBlock::from_text(t).map(|c| c.member_name());
    assert_eq!(read(r#"{"type": "text", "text": "hi"}"#), Ok("TextContent"));
    assert_eq!(read(r#"{"text": "hi", "type": "text"}"#), Ok("TextContent"));
    // The errors come from the member's read, with the path inside it.
    let broken = [
        (r#"{"type": "text", "text": "hi", "x": }"#, "ContentBlock: TextContent: x: expected value"),
        (r#"{"type": "text", "text": "hi"} x"#, "ContentBlock: TextContent: trailing characters"),
        (r#"{"type": "text", "text": "hi", "#, "ContentBlock: TextContent: ?: EOF while parsing a value"),
        (
            r#"{"type": "text", "type": "image", "text": "hi"}"#,
            "ContentBlock: TextContent: type: duplicate field `type`",
        ),
    ];
    for (text, expected) in broken {
        assert_eq!(read(text).unwrap_err(), expected, "{text}");
    }
    // A union decided by shape: the same for what follows the value.
    let e = m::JSONRPCMessage::from_text(r#"{"jsonrpc": "2.0", "method": "ping"} x"#).unwrap_err();
    assert!(e.starts_with("JSONRPCMessage: ") && e.contains("trailing characters"), "{e}");
}

#[test]
fn a_key_written_with_an_escape_counts_as_the_key_it_spells() {
    // `\u0074` is `t`: the first look unescapes keys it cannot borrow as they are.
    let text = r#"{"jsonrpc": "2.0", "id": 1, "me\u0074hod": "tools/list"}"#;
    let read = m::JSONRPCMessage::from_text(text).unwrap();
    assert_eq!(read.member_name(), "JSONRPCRequest");
    let read: m::JSONRPCMessage = serde_json::from_str(text).unwrap();
    assert_eq!(read.member_name(), "JSONRPCRequest");
    // Also the selector field's name, inside a union inside a struct.
    let text = r#"{"jsonrpc": "2.0", "id": 1, "result": {"r\u0065sultType": "input_required", "inputRequests": {}}}"#;
    let read: m::CallToolResultResponse = serde_json::from_str(text).unwrap();
    assert_eq!(read.result.member_name(), "InputRequiredResult");
    // Where the keys decide: without `tools`, `EmptyResult` would take it.
    use mcp_spec_types::v2025_11_25 as l;
    for text in [r#"{"t\u006fols": []}"#, r#"{"tools": [], "x\u0020y": 1}"#] {
        assert_eq!(l::ServerResult::from_text(text).unwrap().member_name(), "ListToolsResult", "{text}");
        assert_eq!(serde_json::from_str::<l::ServerResult>(text).unwrap().member_name(), "ListToolsResult", "{text}");
    }
}

#[test]
fn a_union_of_scalars_reads_through_serde_as_it_reads_from_text() {
    // `RequestId`, `ProgressToken` and the like are decided by the kind of the
    // value alone: through serde from its first look, from text by the rule.
    // The member and the error agree, whichever way the value comes.
    fn agree<U: serde::de::DeserializeOwned + std::fmt::Debug + PartialEq>(
        from_text: fn(&str) -> Result<U, String>,
        name: fn(&U) -> &'static str,
    ) -> usize {
        let inputs = [
            r#""x""#,
            r#""with \"escapes\" \u00e9""#,
            "1",
            "-3",
            "1.0",
            "1.5",
            "1e3",
            "18446744073709551615",
            "9223372036854775808",
            "true",
            "null",
            "{}",
            r#"{"a": [1]}"#,
            "[]",
            "[1, 2]",
        ];
        let mut errors = 0;
        for input in inputs {
            let strip = |e: serde_json::Error| e.to_string().split(" at line").next().unwrap().to_string();
            let text = from_text(input);
            let serde = serde_json::from_str::<U>(input).map_err(strip);
            let reader = serde_json::from_reader::<_, U>(input.as_bytes()).map_err(strip);
            let value = serde_json::from_value::<U>(serde_json::from_str(input).unwrap()).map_err(strip);
            assert_eq!(text, serde, "{input}");
            assert_eq!(serde, reader, "{input}");
            assert_eq!(serde, value, "{input}");
            match (&text, expected_member(input)) {
                (Ok(u), Some(member)) => {
                    let got = match name(u) {
                        "Integer" | "Number" => "number",
                        other => other,
                    };
                    assert_eq!(got, member, "{input}");
                }
                (Ok(u), None) => panic!("{input} read as {}", name(u)),
                (Err(_), _) => errors += 1,
            }
        }
        errors
    }
    // The member each input reads as, when it reads: a string, else a number
    // (`Integer` or `Number`, whichever the union has), else a boolean.
    fn expected_member(input: &str) -> Option<&'static str> {
        match input.as_bytes()[0] {
            b'"' => Some("String"),
            b'-' | b'0'..=b'9' => Some("number"),
            b't' | b'f' => Some("Boolean"),
            _ => None,
        }
    }
    use mcp_spec_types::v2025_06_18 as j;
    // Each refuses what is not one of its kinds, and what does not fit its member.
    assert_eq!(agree(m::RequestId::from_text, m::RequestId::member_name), 9);
    assert_eq!(agree(m::ProgressToken::from_text, m::ProgressToken::member_name), 9);
    assert_eq!(agree(j::ElicitResultContentValue::from_text, j::ElicitResultContentValue::member_name), 5);
    // What the errors say.
    let e = serde_json::from_str::<m::RequestId>("1.5").unwrap_err().to_string();
    assert!(e.starts_with("RequestId: Integer: invalid value: floating point `1.5`"), "{e}");
    let e = serde_json::from_str::<m::RequestId>(r#"{"a": [1]}"#).unwrap_err().to_string();
    assert!(e.starts_with("RequestId: expected a string or a number, found an object at line 1 column 10"), "{e}");
    assert_eq!(serde_json::from_str::<m::RequestId>("1.0").unwrap(), m::RequestId::Integer(1));
}

#[test]
fn a_generic_message_rereads_as_the_type_its_method_or_code_says() {
    // A notification read generically, then as the server's notification it is.
    let text = json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": "t", "progress": 1, "x-vendor": true}});
    let m::JSONRPCMessage::JSONRPCNotification(generic) = read(text.clone()).unwrap() else { panic!("{text}") };
    let typed: m::ServerNotification = mcp_spec_types::reread(&generic).unwrap();
    let m::ServerNotification::ProgressNotification(progress) = &typed else { panic!("{typed:?}") };
    assert_eq!(progress.params.progress, 1.0);
    assert_eq!(serde_json::to_value(&typed).unwrap(), text, "nothing lost on the way, unknown members included");

    // A response's generic result as the result of the method it answers, and
    // the near miss: an error with the path, never another member.
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "72F"}]}});
    let generic: m::JSONRPCResultResponse = read(response).unwrap();
    let result: m::CallToolResultResponseResult = mcp_spec_types::reread(&generic.result).unwrap();
    assert_eq!(result.member_name(), "CallToolResult");
    let broken = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text"}]}});
    let generic: m::JSONRPCResultResponse = read(broken).unwrap();
    let e = mcp_spec_types::reread::<m::CallToolResult>(&generic.result).unwrap_err();
    assert_eq!(e.path(), "content[0]");
    assert!(e.to_string().contains("ContentBlock: TextContent: missing field `text`"), "{e}");

    // An error response's generic error as the coded error it is, or not.
    let reply = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "no such method"}});
    let generic: m::JSONRPCErrorResponse = read(reply).unwrap();
    let coded: m::MethodNotFoundError = mcp_spec_types::reread(&generic.error).unwrap();
    assert_eq!(coded.message, "no such method");
    let e = mcp_spec_types::reread::<m::ParseError>(&generic.error).unwrap_err();
    assert_eq!(e.path(), "code");
    assert!(e.to_string().contains("expected -32700, found -32601"), "{e}");
}

#[test]
fn a_message_union_of_one_member_reads_other_methods_as_other() {
    // 2026-07-28 writes it `type ClientNotification = CancelledNotification`: a
    // union still, as in earlier revisions, so an extension's notification passes.
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
    let n: m::ClientNotification = read(cancelled.clone()).unwrap();
    assert_eq!(n.member_name(), "CancelledNotification");
    let vendor = json!({"jsonrpc": "2.0", "method": "x-vendor/ping", "params": {"n": 1}});
    let n: m::ClientNotification = read(vendor.clone()).unwrap();
    let m::ClientNotification::Other(generic) = &n else { panic!("{n:?}") };
    assert_eq!(generic.method, "x-vendor/ping");
    assert_eq!(serde_json::to_value(&n).unwrap(), vendor);
    // A known method that does not read is that member's error, not `Other`.
    let e =
        error_of::<m::ClientNotification>(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": 5}));
    assert!(e.contains("CancelledNotification") && e.contains("params"), "{e}");
}

/// A result widened into the generic `Result` (`JSONRPCResultResponse::new(id,
/// list)`) keeps what `Result` does not name as the narrower type writes it: in
/// its order, nested objects too, and its unknown members as their text.
#[test]
fn a_widened_result_keeps_its_members_as_written() {
    use mcp_spec_types::v2025_11_25 as old;
    let text = r#"{"nextCursor":"c","tools":[{"name":"t","inputSchema":{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"number"}},"required":["zeta"]}}],"z":{"b":1,"a":[2.50,{"y":0,"x":0}]}}"#;
    let list: old::ListToolsResult = mcp_spec_types::from_str(text).unwrap();
    let written = serde_json::to_string(&list).unwrap();
    assert_eq!(written, text, "the narrow type writes what it read");
    let response = old::JSONRPCResultResponse::new(7, list.clone());
    let wide = serde_json::to_string(&response).unwrap();
    // Every member of the list's text is in the response's, as it was written.
    let members = &written[1..written.len() - 1];
    assert!(wide.contains(members), "{wide}\ndoes not hold\n{members}");
    assert!(wide.find("zeta").unwrap() < wide.find("alpha").unwrap(), "{wide}");
    // A whole float is written as the narrower type writes it, without a fraction.
    let progress = old::ProgressNotificationParams::new("t", 50.0).with_total(100.0);
    let narrow = serde_json::to_string(&progress).unwrap();
    let widened = serde_json::to_string(&old::NotificationParams::from(progress)).unwrap();
    assert_eq!(widened, narrow, "progress 50 stays 50");
    // A key the narrower type's extra holds beside its own member (set by hand)
    // is written once, with the extra's value, in the member's place.
    let mut prompt = old::GetPromptResult::new(vec![]);
    prompt.extra.insert("messages", json!(["by hand"]));
    let widened = serde_json::to_string(&old::Result::from(prompt)).unwrap();
    assert_eq!(widened.matches("\"messages\"").count(), 1, "{widened}");
    assert!(widened.contains(r#""messages":["by hand"]"#), "{widened}");
    // And it reads back as the list it came from.
    let back: old::JSONRPCResultResponse = mcp_spec_types::from_str(&wide).unwrap();
    let again: old::ListToolsResult = mcp_spec_types::reread(&back.result).unwrap();
    assert_eq!(again, list);
}

/// MCP notifications must not include an ID: a message with an `id` is a
/// request. So a request whose `id` is broken is an error that names the
/// request and the notification's refusal, not a notification keeping the `id`
/// among its unknown members; and a notification union does not take a request.
#[test]
fn a_message_with_an_id_is_never_a_notification() {
    for id in [json!(null), json!(1.5), json!(true), json!({"a": 1})] {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
        let e = error_of::<m::JSONRPCMessage>(message.clone());
        assert!(
            e.contains("JSONRPCRequest: id: ") && e.contains("JSONRPCNotification: id: a notification has no `id`"),
            "{message}: {e}"
        );
        let e = mcp_spec_types::from_str::<m::JSONRPCNotification>(&message.to_string()).unwrap_err();
        assert_eq!(e.path(), "id", "{e}");
        assert!(e.to_string().starts_with("id: a notification has no `id` (a message with one is a request)"), "{e}");
    }
    // An `id` written with an escape, or twice, is refused alike.
    for text in [
        r#"{"jsonrpc":"2.0","\u0069d":1,"method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"notifications/initialized"}"#,
    ] {
        let e = mcp_spec_types::from_str::<m::JSONRPCNotification>(text).unwrap_err();
        assert_eq!(e.path(), "id", "{text}: {e}");
        assert!(serde_json::from_str::<m::JSONRPCNotification>(text).is_err(), "{text}");
    }
    let request = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "x"}});
    error_of::<m::ServerNotification>(request.clone());
    error_of::<m::ClientNotification>(request.clone());
    let e = error_of::<m::ToolListChangedNotification>(
        json!({"jsonrpc": "2.0", "id": 3, "method": "notifications/tools/list_changed"}),
    );
    assert!(e.contains("a notification has no `id`"), "{e}");
    // Every revision's notifications, by the same rule.
    use mcp_spec_types::v2024_11_05 as oldest;
    error_of::<oldest::JSONRPCNotification>(json!({"jsonrpc": "2.0", "id": 1, "method": "notifications/initialized"}));
    error_of::<oldest::ClientNotification>(json!({"id": 1, "method": "notifications/initialized"}));
    // Without an `id`, a notification reads, and a request is still a request.
    let n: m::JSONRPCMessage = read(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).unwrap();
    assert!(matches!(n, m::JSONRPCMessage::JSONRPCNotification(_)), "{n:?}");
    let r: m::JSONRPCMessage = read(request).unwrap();
    assert!(matches!(r, m::JSONRPCMessage::JSONRPCRequest(_)), "{r:?}");
}

/// `with_member` sets the members an open object does not name; a member it
/// names is set with its own setter (else it would be written twice).
#[test]
#[should_panic(expected = "`type` is a member `ToolInputSchema` names")]
fn with_member_refuses_a_member_the_type_names() {
    let _ = m::ToolInputSchema::new().with_member("type", "array");
}
