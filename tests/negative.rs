//! Wrong input is an error that says what and where: the JSON path (tracked with
//! serde_path_to_error, as a downstream crate would) and the member's name.

use mcp_spec_types::v2026_07_28 as v;
use serde::de::DeserializeOwned;

/// Reads `json` as `T` and returns the error's path and message; the crate's own
/// `from_str` must give the same, shown as `path: message`.
fn error_of<T: DeserializeOwned + std::fmt::Debug>(json: &str) -> (String, String) {
    let mut de = serde_json::Deserializer::from_str(json);
    let (path, message) = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(v) => panic!("expected an error, read {v:?}"),
        Err(e) => (e.path().to_string(), e.inner().to_string()),
    };
    let ours = mcp_spec_types::from_str::<T>(json).expect_err("from_str read what serde_path_to_error refused");
    // (A lone `?`, input that broke off before its first key, is the input's fault.)
    let expected_path = if path == "?" { "." } else { path.as_str() };
    assert_eq!((ours.path(), ours.inner().to_string()), (expected_path, message.clone()), "{json}");
    let shown = if expected_path == "." { message.clone() } else { format!("{path}: {message}") };
    assert_eq!(ours.to_string(), shown);
    (path, message)
}

#[test]
fn from_str_reads_as_serde_json_does_and_says_where_it_fails() {
    // What reads, reads the same.
    let text = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META},"name":"x","arguments":{{"a":1}}}}}}"#
    );
    let ours: v::CallToolRequest = mcp_spec_types::from_str(&text).unwrap();
    assert_eq!(ours, serde_json::from_str::<v::CallToolRequest>(&text).unwrap());
    assert_eq!(ours.params.arguments.as_ref().unwrap().get_raw("a"), Some("1"));

    // serde_json alone says what and at which character; `from_str` says where too.
    let broken = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather"}}"#;
    let plain = serde_json::from_str::<v::CallToolRequest>(broken).unwrap_err();
    let ours = mcp_spec_types::from_str::<v::CallToolRequest>(broken).unwrap_err();
    assert_eq!(ours.path(), "params");
    assert_eq!(ours.to_string(), format!("params: {plain}"));
    assert_eq!((ours.inner().line(), ours.inner().column()), (plain.line(), plain.column()));
    assert!(std::error::Error::source(&ours).is_some());
    assert_eq!(ours.into_inner().to_string(), plain.to_string());

    // Below a union the path goes on from where the union stands.
    let (path, message) = error_of::<v::CallToolResult>(
        r#"{"resultType":"complete","content":[{"type":"text","text":"a"},{"type":"resource","resource":{"text":"t"}}]}"#,
    );
    assert_eq!(path, "content[1]");
    assert!(message.starts_with("ContentBlock: EmbeddedResource: resource: "), "{message}");
    let (path, message) = error_of::<v::CallToolRequest>(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":5}},"name":"x"}}"#,
    );
    assert_eq!(path, "params._meta.io.modelcontextprotocol/clientCapabilities.elicitation");
    assert!(message.starts_with("invalid type: integer `5`"), "{message}");

    // The input itself at fault: no path, serde_json's error as it is.
    for (text, what) in [(r#"{"resultType":"complete","content":[]} x"#, "trailing characters"), ("{", "EOF")] {
        let plain = serde_json::from_str::<v::CallToolResult>(text).unwrap_err();
        let ours = mcp_spec_types::from_str::<v::CallToolResult>(text).unwrap_err();
        assert_eq!(ours.path(), ".", "{text}");
        assert_eq!(ours.to_string(), plain.to_string());
        assert!(ours.to_string().contains(what), "{ours}");
    }
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

#[test]
fn wrong_literal_names_the_member_and_the_expected_value() {
    let (path, msg) = error_of::<v::CallToolRequest>(&format!(
        r#"{{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{{{META},"name":"x"}}}}"#
    ));
    assert_eq!(path, "jsonrpc");
    assert!(msg.contains(r#"invalid value for `jsonrpc`: expected "2.0", found "1.0""#), "{msg}");

    let (path, msg) = error_of::<v::CallToolRequest>(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META},"name":"x"}}}}"#
    ));
    assert_eq!(path, "method");
    assert!(msg.contains(r#"expected "tools/call""#), "{msg}");

    let (path, msg) = error_of::<v::ParseError>(r#"{"code":-32600,"message":"m"}"#);
    assert_eq!(path, "code");
    assert!(msg.contains("expected -32700, found -32600"), "{msg}");
}

#[test]
fn missing_required_member_names_it_and_its_parent() {
    let (path, msg) = error_of::<v::CallToolRequest>(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META}}}}}"#
    ));
    assert_eq!(path, "params");
    assert!(msg.contains("missing field `name`"), "{msg}");

    let (path, msg) =
        error_of::<v::CallToolRequest>(&format!(r#"{{"id":1,"method":"tools/call","params":{{{META},"name":"x"}}}}"#));
    assert_eq!(path, ".");
    assert!(msg.contains("missing field `jsonrpc`"), "{msg}");
}

#[test]
fn wrong_type_at_depth_names_the_path() {
    let (path, msg) = error_of::<v::CallToolRequest>(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META},"name":5}}}}"#
    ));
    assert_eq!(path, "params.name");
    assert!(msg.contains("invalid type: integer `5`, expected a string"), "{msg}");

    let (path, msg) = error_of::<v::ListToolsResult>(
        r#"{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[{"name":"t","inputSchema":{"type":"array"}}]}"#,
    );
    assert_eq!(path, "tools[0].inputSchema.type");
    assert!(msg.contains(r#"expected "object""#), "{msg}");

    let (path, msg) =
        error_of::<v::ListToolsResult>(r#"{"resultType":"complete","ttlMs":1.5,"cacheScope":"public","tools":[]}"#);
    assert_eq!(path, "ttlMs");
    assert!(msg.contains("invalid value: floating point `1.5`, expected an integer"), "{msg}");
}

#[test]
fn errors_inside_unions_name_the_member_read() {
    let (path, msg) = error_of::<v::CallToolResult>(r#"{"resultType":"complete","content":[{"type":"text"}]}"#);
    assert_eq!(path, "content[0]");
    assert!(msg.contains("ContentBlock: TextContent: missing field `text`"), "{msg}");

    let (path, msg) = error_of::<v::CallToolResult>(r#"{"resultType":"complete","content":[{"type":"video"}]}"#);
    assert_eq!(path, "content[0]");
    assert!(msg.contains(r#"unknown `type` value "video""#) && msg.contains(r#""text""#), "{msg}");
}

#[test]
#[allow(deprecated)] // CreateMessageResult is deprecated in 2026-07-28 (SEP-2577); still on the wire
fn closed_enums_reject_unknown_values_and_open_ones_keep_them() {
    let (path, msg) = error_of::<v::Annotations>(r#"{"audience":["robot"]}"#);
    assert_eq!(path, "audience[0]");
    assert!(msg.contains("unknown variant `robot`, expected `user` or `assistant`"), "{msg}");

    let r: v::CreateMessageResult = serde_json::from_str(
        r#"{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m","stopReason":"vendorSpecific"}"#,
    )
    .unwrap();
    assert_eq!(r.stop_reason, Some(v::CreateMessageResultStopReason::Other("vendorSpecific".into())));
    assert_eq!(serde_json::to_value(&r).unwrap()["stopReason"], "vendorSpecific");
}

#[test]
fn duplicate_keys_and_nulls_for_optional_members_are_errors() {
    let (path, msg) = error_of::<v::TextContent>(r#"{"type":"text","text":"a","text":"b"}"#);
    assert_eq!(path, "text");
    assert!(msg.contains("duplicate field `text`"), "{msg}");

    let (_, msg) = error_of::<v::TextContent>(r#"{"type":"text","text":"a","x":1,"x":2}"#);
    assert!(msg.contains("duplicate field `x`"), "{msg}");

    let (path, msg) = error_of::<v::TextContent>(r#"{"type":"text","text":"a","annotations":null}"#);
    assert_eq!(path, "annotations");
    assert!(msg.contains("invalid type: null"), "{msg}");
}

#[test]
fn fixed_members_are_always_written() {
    let n = v::ResourceListChangedNotification { params: None, extra: Default::default() };
    let json = serde_json::to_value(&n).unwrap();
    assert_eq!(json, serde_json::json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"}));
    assert_eq!(v::ResourceListChangedNotification::METHOD, "notifications/resources/list_changed");
}

/// An open object of anything (`arguments`, a request's generic `params`,
/// `_meta`) is an [`mcp_spec_types::Extra`] read whole: its text kept, split into
/// members when looked at, written back as it came until changed; what is not an
/// object is an error naming where.
#[test]
fn open_objects_keep_their_text_and_refuse_what_is_not_one() {
    let text = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META},"name":"x","arguments":{{"n":1.50, "deep":{{"c" : [1, 2]}}}}}}}}"#
    );
    let request: v::CallToolRequest = serde_json::from_str(&text).unwrap();
    let arguments = request.params.arguments.as_ref().expect("arguments read");
    assert_eq!(arguments.as_raw(), Some(r#"{"n":1.50, "deep":{"c" : [1, 2]}}"#));
    assert_eq!(arguments.get_raw("n"), Some("1.50"), "the number's text, not a re-printed float");
    assert_eq!(arguments.get_raw("deep"), Some(r#"{"c" : [1, 2]}"#));
    assert_eq!(arguments["deep"], serde_json::json!({"c": [1, 2]}), "parsed when looked at");
    assert_eq!(arguments.keys().collect::<Vec<_>>(), ["n", "deep"]);
    let written = serde_json::to_string(&request).unwrap();
    assert!(written.contains(r#""arguments":{"n":1.50, "deep":{"c" : [1, 2]}}"#), "as it came: {written}");

    // Changed, it is written from its members, the untouched ones as they came.
    let mut changed = request.clone();
    let arguments = changed.params.arguments.as_mut().unwrap();
    assert_eq!(arguments.insert("m", serde_json::json!(true)), None);
    assert_eq!(arguments.as_raw(), None, "the text no longer says what it holds");
    let written = serde_json::to_string(&changed).unwrap();
    assert!(written.contains(r#""arguments":{"n":1.50,"deep":{"c" : [1, 2]},"m":true}"#), "{written}");

    // Read as a type of the caller's, and changed in place.
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Arguments {
        n: f64,
        deep: serde_json::Value,
    }
    let parsed: Arguments = request.params.arguments.as_ref().unwrap().parse().unwrap();
    assert_eq!(parsed, Arguments { n: 1.5, deep: serde_json::json!({"c": [1, 2]}) });
    let mut edited = request.clone();
    let arguments = edited.params.arguments.as_mut().unwrap();
    arguments.get_mut("deep").unwrap()["c"] = serde_json::json!("x");
    assert_eq!(arguments.get_raw("deep"), None, "written from its value now");
    assert_eq!(arguments.get_raw("n"), Some("1.50"), "the others as they came");
    let written = serde_json::to_string(&edited).unwrap();
    assert!(written.contains(r#""arguments":{"n":1.50,"deep":{"c":"x"}}"#), "{written}");
    assert!(edited.params.arguments.as_mut().unwrap().get_mut("absent").is_none());
    // Changed, it reads from its values.
    let from_values: Arguments = edited.params.arguments.as_ref().unwrap().parse().unwrap();
    assert_eq!(from_values, Arguments { n: 1.5, deep: serde_json::json!({"c": "x"}) });
    let e = edited.params.arguments.as_ref().unwrap().parse::<Vec<i64>>().unwrap_err().to_string();
    assert!(e.contains("invalid type: map"), "{e}");

    // A repeated key is passed on as it came; looked at, the last one counts.
    let repeated: v::CallToolRequest = serde_json::from_str(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META},"name":"x","arguments":{{"a":1,"a":2}}}}}}"#
    ))
    .unwrap();
    let arguments = repeated.params.arguments.as_ref().unwrap();
    assert_eq!((arguments.len(), &arguments["a"]), (1, &serde_json::json!(2)));
    assert!(serde_json::to_string(&repeated).unwrap().contains(r#""arguments":{"a":1,"a":2}"#));

    // The same from a `Value` (no text to keep): the values, equal.
    let from_value: v::CallToolRequest = serde_json::from_value(serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(from_value.params.arguments.as_ref().unwrap()["deep"], serde_json::json!({"c": [1, 2]}));
    assert_eq!(from_value, request);

    // The generic message: its `params` too.
    let generic: v::JSONRPCMessage = serde_json::from_str(&text).unwrap();
    let v::JSONRPCMessage::JSONRPCRequest(generic) = generic else { panic!("read as {generic:?}") };
    assert_eq!(generic.params.as_ref().and_then(|p| p.get_raw("name")), Some(r#""x""#));

    for (value, expected) in [
        ("[1]", "invalid type: sequence, expected an object"),
        (r#""text""#, r#"invalid type: string "text", expected an object"#),
        ("null", "invalid type: null, expected an object"),
        ("-3", "invalid type: integer `-3`, expected an object"),
    ] {
        let (path, msg) = error_of::<v::CallToolRequest>(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META},"name":"x","arguments":{value}}}}}"#
        ));
        assert_eq!(path, "params.arguments", "{value}");
        assert!(msg.contains(expected), "{value}: {msg}");
    }
}

/// Every struct holds an `Extra`, most of them empty: it is one pointer, and
/// empty holds nothing, while an empty object read whole still keeps its text.
#[test]
fn extra_is_one_pointer_and_empty_is_empty() {
    use mcp_spec_types::Extra;
    assert_eq!(std::mem::size_of::<Extra>(), std::mem::size_of::<usize>());
    let mut extra = Extra::new();
    assert_eq!((extra.len(), extra.is_empty(), extra.as_raw(), extra.get("a")), (0, true, None, None));
    assert_eq!(serde_json::to_string(&extra).unwrap(), "{}");
    assert_eq!(extra.remove("a"), None);
    assert_eq!(extra.insert("a", serde_json::json!(1)), None);
    assert_eq!((extra.len(), extra.keys().map(String::as_str).collect::<Vec<_>>()), (1, vec!["a"]));
    assert_eq!(extra.remove("a"), Some(serde_json::json!(1)));
    assert_eq!((extra.len(), serde_json::to_string(&extra).unwrap()), (0, "{}".to_string()));
    assert_eq!(extra, Extra::new(), "emptied equals empty");

    let read: Extra = serde_json::from_str("{ }").unwrap();
    assert_eq!((read.len(), read.as_raw()), (0, Some("{ }")));
    assert_eq!(serde_json::to_string(&read).unwrap(), "{ }", "as it came");
    assert_eq!(read, Extra::new());
    let from_value: Extra = serde_json::from_value(serde_json::json!({})).unwrap();
    assert_eq!((from_value.len(), &from_value), (0, &Extra::new()));
    assert_eq!(Extra::from(serde_json::Map::new()).into_iter().count(), 0);
}

/// A struct's unknown members are kept as a list while few and in a map past
/// that: either way in order, as their text, a repeated one refused wherever
/// it comes, and looked up, changed and written back alike.
#[test]
fn unknown_members_few_and_many_read_alike() {
    for count in [1, 3, 15, 16, 17, 40] {
        let members: Vec<String> = (0..count).map(|i| format!(r#""x{i}":[{i}, "t"]"#)).collect();
        let text = format!(r#"{{"type":"text","text":"a",{}}}"#, members.join(","));
        let content: v::TextContent = serde_json::from_str(&text).unwrap();
        let extra = &content.extra;
        assert_eq!(extra.len(), count, "{count}");
        let keys: Vec<String> = (0..count).map(|i| format!("x{i}")).collect();
        assert_eq!(extra.keys().cloned().collect::<Vec<_>>(), keys, "in order: {count}");
        let last = format!("x{}", count - 1);
        assert_eq!(extra.get_raw(&last), Some(format!("[{}, \"t\"]", count - 1).as_str()));
        assert_eq!(extra[&*last], serde_json::json!([count - 1, "t"]));
        assert!(!extra.contains_key("absent") && extra.get("absent").is_none());
        assert_eq!(extra.iter().count(), count);
        assert_eq!((&content.extra).into_iter().size_hint(), (count, Some(count)));
        assert_eq!(serde_json::to_string(&content).unwrap(), text, "written back as read: {count}");

        // Changed: the others keep their place and text.
        let mut changed = content.clone();
        assert_eq!(changed.extra.remove("x0"), Some(serde_json::json!([0, "t"])));
        changed.extra.insert("y", serde_json::json!(1));
        let mut expected: Vec<String> = members[1..].to_vec();
        expected.push(r#""y":1"#.into());
        assert_eq!(
            serde_json::to_string(&changed).unwrap(),
            format!(r#"{{"type":"text","text":"a",{}}}"#, expected.join(","))
        );
        assert_ne!(changed, content);

        // Equal to the same members built from values; set again, a member keeps
        // its place; changed in place, the rest keep their text.
        let built: mcp_spec_types::Extra = extra.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        assert_eq!(&built, extra);
        let backwards: Vec<String> = extra.iter().rev().map(|(k, _)| k.clone()).collect();
        assert_eq!(backwards, keys.iter().rev().cloned().collect::<Vec<_>>());
        assert_eq!(extra.iter().len(), count);
        let mut edited = content.clone();
        assert_eq!(edited.extra.insert("x0", serde_json::json!("again")), Some(serde_json::json!([0, "t"])));
        let mut expected: Vec<String> = members.clone();
        expected[0] = r#""x0":"again""#.into();
        if count > 1 {
            edited.extra.get_mut(&last).unwrap()[0] = serde_json::json!(-1);
            expected[count - 1] = format!(r#""{last}":[-1,"t"]"#);
        }
        assert_eq!(edited.extra.keys().next().map(String::as_str), Some("x0"));
        assert_eq!(
            serde_json::to_string(&edited).unwrap(),
            format!(r#"{{"type":"text","text":"a",{}}}"#, expected.join(","))
        );

        // A repeated key, first or last among them, is refused.
        for repeated in ["x0", &last] {
            let (_, msg) = error_of::<v::TextContent>(&format!(r#"{},"{repeated}":0}}"#, &text[..text.len() - 1]));
            assert!(msg.contains(&format!("duplicate field `{repeated}`")), "{count}: {msg}");
        }
    }
}

/// Text kept unparsed (an open object, an unknown member) is held to the depth
/// serde_json parses when it is read, so looking at it later cannot fail (it
/// would give `null`): deeper is an error naming where, as for any value.
#[test]
fn kept_text_deeper_than_serde_json_parses_is_refused_where_it_is() {
    let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let request = |arguments: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META},"name":"x","arguments":{arguments}}}}}"#
        )
    };
    // Deep but parseable: kept, and looked at it is the value.
    let deep = format!(r#"{{"d":{}}}"#, nested(126));
    let read: v::CallToolRequest = serde_json::from_str(&request(&deep)).unwrap();
    let arguments = read.params.arguments.as_ref().unwrap();
    assert_eq!(arguments["d"], serde_json::from_str::<serde_json::Value>(&nested(126)).unwrap());
    // Deeper than serde_json parses: refused where it is, not `null` later.
    let (path, msg) = error_of::<v::CallToolRequest>(&request(&format!(r#"{{"d":{}}}"#, nested(200))));
    assert_eq!(path, "params.arguments");
    assert!(msg.contains("recursion limit exceeded"), "{msg}");
    // Brackets in strings are no nesting.
    let brackets = format!(r#"{{"s":"{}"}}"#, "[{".repeat(300));
    let read: v::CallToolRequest = serde_json::from_str(&request(&brackets)).unwrap();
    assert_eq!(read.params.arguments.as_ref().unwrap()["s"].as_str().map(str::len), Some(600));
    // An unknown member of a struct alike.
    let (path, msg) = error_of::<v::TextContent>(&format!(r#"{{"type":"text","text":"a","x":{}}}"#, nested(200)));
    assert_eq!(path, "x");
    assert!(msg.contains("recursion limit exceeded"), "{msg}");
}

/// An open object reads from any self-describing deserializer, not only from
/// serde_json's text: inside a downstream `#[serde(untagged)]` enum (serde
/// buffers the input and hands over its own deserializer), it is read member by
/// member, as values.
#[test]
fn open_objects_read_inside_an_untagged_enum() {
    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    #[allow(dead_code)]
    enum Incoming {
        Call(Box<v::CallToolRequest>),
        Other(serde_json::Value),
    }
    let text = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META},"name":"x","arguments":{{"n":1,"deep":{{"c":[1,2]}}}}}}}}"#
    );
    let Incoming::Call(call) = serde_json::from_str::<Incoming>(&text).unwrap() else {
        panic!("not read as the call");
    };
    let arguments = call.params.arguments.as_ref().unwrap();
    assert_eq!(arguments.as_raw(), None, "no text to keep: values");
    assert_eq!(arguments["deep"], serde_json::json!({"c": [1, 2]}));
    assert_eq!(serde_json::to_value(&*call).unwrap(), serde_json::from_str::<serde_json::Value>(&text).unwrap());
    // Not an object, from that deserializer too: an error.
    let e = serde_json::from_str::<Incoming>(
        &text.replace(r#""arguments":{"n":1,"deep":{"c":[1,2]}}"#, r#""arguments":[1]"#),
    );
    assert!(matches!(e, Ok(Incoming::Other(_))), "{e:?}");
}
