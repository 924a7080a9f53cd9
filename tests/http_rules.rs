//! The types crate's `http` helpers held to the transport text itself
//! (`docs/specification/2026-07-28/basic/transports/streamable-http.mdx` of the
//! spec inputs): its encoding table, its example requests with their headers,
//! its example tool definition, its error example and its header table, each
//! read from the text and counted, so a changed text changes what is checked.

use mcp_spec_types::http::{
    HeaderMismatch, NAMED_METHODS, Problem, ToolHeaders, decode_value, encode_value, request_headers, validate_headers,
};
use mcp_spec_types::v2026_07_28;
use serde_json::Value;

fn transport_text() -> String {
    let path = mcp_spec_testkit::spec_dir().join("docs/specification/2026-07-28/basic/transports/streamable-http.mdx");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced blocks of `lang` in `text`, in order.
fn blocks<'a>(text: &'a str, lang: &str) -> Vec<&'a str> {
    let open = format!("```{lang}\n");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&open) {
        let body = &rest[start + open.len()..];
        let end = body.find("\n```").unwrap_or_else(|| panic!("an unclosed ```{lang} block"));
        out.push(&body[..end]);
        rest = &body[end..];
    }
    out
}

/// The rows of the markdown table whose header row starts with `first`, each row's cells trimmed.
fn table(text: &str, first: &str) -> Vec<Vec<String>> {
    let start = text.find(&format!("| {first}")).unwrap_or_else(|| panic!("no table headed {first:?}"));
    text[start..]
        .lines()
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
        .collect()
}

fn unquote(cell: &str) -> &str {
    cell.trim_matches('`')
}

#[test]
fn the_encoding_table_of_the_transport_text_is_what_the_helpers_do() {
    let rows = table(&transport_text(), "Original Value");
    assert_eq!(rows.len(), 5, "the encoding table's rows");
    for row in &rows {
        let original: String = serde_json::from_str(unquote(&row[0])).unwrap_or_else(|e| panic!("{row:?}: {e}"));
        let (header, value) = unquote(&row[2]).split_once(": ").unwrap_or_else(|| panic!("{row:?}"));
        assert!(header.starts_with("Mcp-Param-"), "{row:?}");
        assert_eq!(encode_value(&original), value, "{row:?}");
        assert_eq!(decode_value(value.as_bytes()).unwrap(), original, "{row:?}");
    }
}

/// An example request of the text: its headers (Content-Type aside) and body.
struct Example {
    headers: Vec<(String, String)>,
    body: Value,
}

fn examples(text: &str) -> Vec<Example> {
    blocks(text, "http")
        .into_iter()
        .map(|block| {
            let (head, body) = block.split_once("\n\n").unwrap_or_else(|| panic!("no body in {block}"));
            let mut lines = head.lines();
            assert!(lines.next().unwrap().starts_with("POST "), "{block}");
            let headers = lines
                .map(|l| l.split_once(": ").unwrap_or_else(|| panic!("{l}")))
                .filter(|(name, _)| !name.eq_ignore_ascii_case("Content-Type"))
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            Example { headers, body: serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}")) }
        })
        .collect()
}

/// The text's example tool definitions, by name.
fn tools(text: &str) -> Vec<(String, ToolHeaders)> {
    blocks(text, "json")
        .into_iter()
        .filter_map(|b| serde_json::from_str::<Value>(b).ok())
        .filter(|v| v.get("inputSchema").is_some())
        .map(|tool| {
            // The text's tool is a real `Tool` of 2026-07-28.
            let typed: v2026_07_28::Tool = serde_json::from_value(tool.clone()).unwrap();
            let schema = serde_json::to_value(&typed.input_schema).unwrap();
            (typed.name, ToolHeaders::of(&schema).unwrap())
        })
        .collect()
}

fn sent(headers: &[(String, String)]) -> impl Iterator<Item = (&str, &[u8])> {
    headers.iter().map(|(n, v)| (n.as_str(), v.as_bytes()))
}

#[test]
fn each_example_request_of_the_transport_text_gets_its_headers_and_passes_validation() {
    let text = transport_text();
    let tools = tools(&text);
    assert_eq!(tools.iter().map(|(n, t)| (n.as_str(), t.params.len())).collect::<Vec<_>>(), [("execute_sql", 1)]);
    let examples = examples(&text);
    assert_eq!(examples.len(), 3, "the text's example requests");
    let mut mirrored = 0;
    for Example { headers, body } in &examples {
        // Each example is a real request of 2026-07-28.
        let _: v2026_07_28::ClientRequest = serde_json::from_value(body.clone()).unwrap();
        let name = body["params"]["name"].as_str();
        let tool = tools.iter().find(|(n, _)| Some(n.as_str()) == name).map(|(_, t)| t);
        mirrored += tool.is_some() as usize;
        assert_eq!(&request_headers(body, tool).unwrap(), headers, "{body}");
        assert_eq!(validate_headers(sent(headers), body, tool), Ok(()));
        // Each header left out, or changed, is refused, naming it.
        for (i, (name, value)) in headers.iter().enumerate() {
            let mut without = headers.clone();
            without.remove(i);
            let e = validate_headers(sent(&without), body, tool).unwrap_err();
            assert_eq!((e.header.to_lowercase(), e.problem), (name.to_lowercase(), Problem::Missing), "{body}");
            let mut changed = headers.clone();
            changed[i].1 = format!("{value}x");
            let e = validate_headers(sent(&changed), body, tool).unwrap_err();
            assert_eq!(e.header.to_lowercase(), name.to_lowercase());
            assert!(matches!(e.problem, Problem::Differs { .. }), "{e}");
        }
    }
    assert_eq!(mirrored, 1, "the example whose tool mirrors a parameter");
}

#[test]
fn the_error_example_is_what_a_mismatch_answers_and_reads_as_the_schemas_type() {
    let text = transport_text();
    let example: Value = blocks(&text, "json")
        .into_iter()
        .filter_map(|b| serde_json::from_str::<Value>(b).ok())
        .find(|v| v["error"]["code"] == -32020)
        .expect("the text's example error response");
    let mismatch = HeaderMismatch {
        header: "Mcp-Name".into(),
        problem: Problem::Differs { header: "foo".into(), body: Some("bar".into()) },
    };
    assert_eq!(mismatch.error_response(Some(&example["id"])), example);
    // The schema's type fixes the code: it reads only a -32020.
    let typed: v2026_07_28::HeaderMismatchError = serde_json::from_value(mismatch.error_response(None)).unwrap();
    assert_eq!(typed.error.message, example["error"]["message"]);
    let mut other = example.clone();
    other["error"]["code"] = (-32022).into();
    assert!(serde_json::from_value::<v2026_07_28::HeaderMismatchError>(other).is_err());
}

#[test]
fn the_methods_with_mcp_name_are_the_texts_table_and_each_names_a_required_string_of_its_params() {
    let text = transport_text();
    let rows = table(&text, "Header Name");
    let row = rows.iter().find(|r| r[0] == "`Mcp-Name`").expect("the Mcp-Name row");
    let mut methods: Vec<&str> = row[2].trim_end_matches(" requests").split(", ").map(unquote).collect();
    methods.sort();
    let ours: Vec<&str> = NAMED_METHODS.iter().map(|(m, _)| *m).collect();
    assert_eq!(methods, ours);
    let members: Vec<&str> = row[1].split(" or ").map(|m| unquote(m).trim_start_matches("params.")).collect();
    // The schema's facts: each method's params type requires the member, a string.
    let schema_path = mcp_spec_testkit::spec_dir().join("schema/2026-07-28/schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&schema_path).unwrap()).unwrap();
    let infos = mcp_spec_types::methods("2026-07-28").unwrap();
    for (method, member) in NAMED_METHODS {
        assert!(members.contains(&member), "{method}: {member} is not in the table's {members:?}");
        let params = infos.iter().find(|i| i.method == method).and_then(|i| i.params).unwrap();
        let def = &schema["$defs"][params];
        assert!(def["required"].as_array().unwrap().contains(&Value::from(member)), "{params} requires {member}");
        assert_eq!(def["properties"][member]["type"], "string", "{params}.{member}");
    }
}
