//! `--ignore-tool`: tools the client is not to see or call, by name patterns
//! (`*` matches any run of characters), as mcp-remote's option of the same
//! name: left out of every `tools/list` answer the client gets, and a
//! `tools/call` naming one answered by the bridge with an error, never sent.
//! It reads only the lines it must (the client's `tools/list` and `tools/call`
//! requests, and the answers to the former), in either era and either mode.

use std::collections::HashSet;

use serde_json::Value;

use crate::{error_response, method, modern};

/// The patterns, and the ids of the client's `tools/list` requests whose answers are due.
#[derive(Debug, Default)]
pub struct IgnoredTools {
    patterns: Vec<String>,
    lists: HashSet<String>,
}

impl IgnoredTools {
    pub fn new(patterns: Vec<String>) -> IgnoredTools {
        IgnoredTools { patterns, lists: HashSet::new() }
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Whether the tool `name` is ignored.
    pub fn ignores(&self, name: &str) -> bool {
        self.patterns.iter().any(|p| matches(p, name))
    }

    /// A line from the client: `Err(answer)` when it calls an ignored tool
    /// (the answer for the client), else it goes on (a `tools/list` noted).
    pub fn check_client_line(&mut self, line: &str) -> Result<(), String> {
        if self.is_empty() || !(line.contains(method::TOOLS_LIST) || line.contains(method::TOOLS_CALL)) {
            return Ok(());
        }
        let Ok(msg) = serde_json::from_str::<Value>(line) else { return Ok(()) };
        let (Some(id), Some(called)) = (msg.get("id"), msg.get("method").and_then(Value::as_str)) else {
            return Ok(());
        };
        if called == method::TOOLS_LIST {
            self.lists.insert(id.to_string());
        }
        let name = msg.pointer("/params/name").and_then(Value::as_str).unwrap_or_default();
        if called == method::TOOLS_CALL && self.ignores(name) {
            let why = format!("the tool {name:?} is not available (--ignore-tool)");
            return Err(error_response(id.clone(), modern::INVALID_PARAMS, why).to_string());
        }
        Ok(())
    }

    /// A line for the client: an answer to a `tools/list` without the ignored tools.
    pub fn filter_client_line(&mut self, line: String) -> String {
        if self.lists.is_empty() {
            return line;
        }
        let Ok(mut msg) = serde_json::from_str::<Value>(&line) else { return line };
        let answers = msg.get("method").is_none() && msg.get("id").is_some_and(|id| self.lists.remove(&id.to_string()));
        let Some(tools) = msg.pointer_mut("/result/tools").and_then(Value::as_array_mut).filter(|_| answers) else {
            return line;
        };
        let before = tools.len();
        tools.retain(|t| {
            !t.get("name").and_then(Value::as_str).is_some_and(|n| self.patterns.iter().any(|p| matches(p, n)))
        });
        if tools.len() == before { line } else { msg.to_string() }
    }
}

/// Whether `name` matches `pattern`, where `*` is any run of characters.
fn matches(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = name.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else { return rest.is_empty() };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_whole_names_with_stars_for_any_run() {
        for (pattern, name, expected) in [
            ("delete_repo", "delete_repo", true),
            ("delete_repo", "delete_repo2", false),
            ("delete_*", "delete_repo", true),
            ("*_admin", "grant_admin", true),
            ("*_admin", "admin", false),
            ("a*b*c", "axxbyyc", true),
            ("a*b*c", "axxcyyb", false),
            ("*", "", true),
            ("ab*ab", "ab", false),
        ] {
            assert_eq!(matches(pattern, name), expected, "{pattern} {name}");
        }
    }
}
