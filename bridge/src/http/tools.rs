//! The tool headers a server's `tools/list` answers teach (2026-07-28's
//! `x-mcp-header`): which `Mcp-Param-*` headers each tool's calls carry. One
//! book for both sides of the bridge; what differs is what an invalid
//! annotation does to the answer ([`Invalid`]).

use std::collections::HashMap;

use mcp_spec_types::http::ToolHeaders;
use serde_json::Value;

/// What a tool whose `x-mcp-header` annotations are invalid does to the answer
/// that lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// Left out of the answer, with a note: the transport requires it of a
    /// client (the bridge's `--connect` side is one).
    Drop,
    /// Kept, with no headers learnt: a relay must not alter the answer (the
    /// bridge's `--listen` side passes it on to a client that decides).
    Keep,
}

/// The mirrored parameters of each tool listed so far, by name.
#[derive(Clone, Debug, Default)]
pub struct ToolBook {
    tools: HashMap<String, ToolHeaders>,
}

impl ToolBook {
    /// Learns from a `tools/list` answer (a JSON-RPC response with a
    /// `result.tools` list; anything else teaches nothing): each valid tool's
    /// headers kept, each invalid one forgotten, and per `invalid` left out of
    /// the answer or kept in it. The notes say which tools were left out, and why.
    pub fn learn(&mut self, answer: &mut Value, invalid: Invalid) -> Vec<String> {
        let Some(tools) = answer.pointer_mut("/result/tools").and_then(Value::as_array_mut) else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        tools.retain(|tool| {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
            match ToolHeaders::of(tool.get("inputSchema").unwrap_or(&Value::Null)) {
                Ok(headers) => {
                    self.tools.insert(name, headers);
                    true
                }
                Err(why) => {
                    self.tools.remove(&name);
                    if invalid == Invalid::Drop {
                        notes.push(format!("the tool {name:?} is left out of tools/list: its {why}"));
                    }
                    invalid == Invalid::Keep
                }
            }
        });
        notes
    }

    /// The headers learnt for a tool, when it was listed with valid ones.
    pub fn get(&self, name: &str) -> Option<&ToolHeaders> {
        self.tools.get(name)
    }

    /// The headers a `tools/call` request's tool needs, if it is one.
    pub fn of_call(&self, request: &Value) -> Option<&ToolHeaders> {
        if request.get("method").and_then(Value::as_str) != Some(crate::method::TOOLS_CALL) {
            return None;
        }
        self.get(request.pointer("/params/name").and_then(Value::as_str)?)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn answer() -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "good", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"}}}},
            {"name": "bad", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "object", "x-mcp-header": "Region"}}}}
        ]}})
    }

    #[test]
    fn a_client_drops_an_invalid_tool_and_a_relay_keeps_it_both_learn_the_valid_one() {
        let mut book = ToolBook::default();
        let mut dropped = answer();
        let notes = book.learn(&mut dropped, Invalid::Drop);
        assert_eq!(dropped.pointer("/result/tools").unwrap().as_array().unwrap().len(), 1);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("\"bad\""), "{notes:?}");
        assert!(book.get("good").is_some() && book.get("bad").is_none());

        let mut relay = ToolBook::default();
        let mut kept = answer();
        assert!(relay.learn(&mut kept, Invalid::Keep).is_empty());
        assert_eq!(kept, answer(), "a relay does not alter the answer");
        assert!(relay.get("good").is_some() && relay.get("bad").is_none());
    }

    #[test]
    fn a_call_finds_its_tools_headers() {
        let mut book = ToolBook::default();
        book.learn(&mut answer(), Invalid::Drop);
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "good", "arguments": {"region": "eu"}}});
        let headers = book.of_call(&call).expect("learnt").headers(call.pointer("/params/arguments"));
        assert_eq!(headers, [("Mcp-Param-Region".to_string(), "eu".to_string())]);
        let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
        assert!(book.of_call(&list).is_none());
    }
}
