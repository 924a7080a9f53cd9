//! What the example server offers, the same in both protocol eras: the surface
//! of the Python SDK server in `tests/peers/python/server.py`, so one client
//! script drives either. Tools that need the user's input are small state
//! machines over the answers so far; each era asks its own way (2026-07-28 in an
//! `InputRequiredResult`, 2025-11-25 with requests to the client).

use serde_json::{Map, Value, json};

pub const NAME: &str = "mcp-spec-example-server";
pub const VERSION: &str = "0.1.0";
pub const INSTRUCTIONS: &str = "Example server built on mcp-spec-types.";
pub const README_URI: &str = "demo://readme";
pub const README_TEXT: &str = "Hello from mcp-spec-example-server.";
pub const USER_TEMPLATE: &str = "demo://users/{user_id}";

/// A tool as the server lists it.
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// The members of its input schema's `properties`, and which are required.
    pub properties: Value,
    pub required: &'static [&'static str],
    /// Its output schema's `properties`, for tools with structured output.
    pub output: Option<Value>,
}

pub fn tools() -> Vec<ToolSpec> {
    let int = json!({"type": "integer"});
    let string = json!({"type": "string"});
    vec![
        ToolSpec {
            name: "echo",
            description: "Echo the text back.",
            properties: json!({"text": string}),
            required: &["text"],
            output: None,
        },
        ToolSpec {
            name: "add",
            description: "Add two integers (structured output).",
            properties: json!({"a": int, "b": int}),
            required: &["a", "b"],
            output: Some(json!({"result": int})),
        },
        ToolSpec {
            name: "count",
            description: "Report progress n times, then return n.",
            properties: json!({"n": int}),
            required: &["n"],
            output: Some(json!({"result": int})),
        },
        ToolSpec {
            name: "book_table",
            description: "Book a table; asks the user twice (two input_required rounds on 2026-07-28).",
            properties: json!({"date": string}),
            required: &["date"],
            output: None,
        },
        ToolSpec {
            name: "haiku_with_roots",
            description: "Uses sampling and roots (one round with two inputRequests on 2026-07-28).",
            properties: json!({"topic": string}),
            required: &["topic"],
            output: None,
        },
        ToolSpec {
            name: "touch",
            description: "Publish change events to subscriptions/listen streams.",
            properties: json!({}),
            required: &[],
            output: None,
        },
    ]
}

/// What the server asks the user (through the client) before a tool can finish.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// A form with one field: its name and JSON type (`string`, `integer`).
    Elicit { key: &'static str, message: String, field: &'static str, kind: &'static str },
    /// A sampled message for this prompt.
    Sample { key: &'static str, prompt: String },
    /// The client's roots.
    Roots { key: &'static str },
}

impl Ask {
    pub fn key(&self) -> &'static str {
        match self {
            Ask::Elicit { key, .. } | Ask::Sample { key, .. } | Ask::Roots { key } => key,
        }
    }
}

/// Where a tool call stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Done {
        text: String,
        structured: Option<Value>,
        is_error: bool,
    },
    /// Progress to report first (`count`), then done.
    Count(i64),
    /// Publish changes to listeners (`touch`), then done.
    Touch,
    Ask(Vec<Ask>),
}

fn done(text: impl Into<String>) -> Step {
    Step::Done { text: text.into(), structured: None, is_error: false }
}

/// The next step of `tool` called with `args`, given the answers so far (each
/// kept as: an elicitation's content object, a sampled text, a list of root URIs).
pub fn step(tool: &str, args: &Map<String, Value>, answers: &Map<String, Value>) -> Step {
    let int = |k: &str| args.get(k).and_then(Value::as_f64).map(|f| f as i64);
    let text = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    match tool {
        "echo" => done(text("text")),
        "add" => match (int("a"), int("b")) {
            (Some(a), Some(b)) => {
                Step::Done { text: (a + b).to_string(), structured: Some(json!({"result": a + b})), is_error: false }
            }
            _ => Step::Done { text: "add needs integers `a` and `b`".into(), structured: None, is_error: true },
        },
        "count" => Step::Count(int("n").unwrap_or(0).clamp(0, 100)),
        "touch" => Step::Touch,
        "book_table" => {
            let name = answers.get("ask_name").and_then(|c| c["name"].as_str()).map(str::to_string);
            let size = answers.get("ask_party").and_then(|c| c["size"].as_f64());
            match (name, size) {
                (None, _) => Step::Ask(vec![Ask::Elicit {
                    key: "ask_name",
                    message: "What is your name?".into(),
                    field: "name",
                    kind: "string",
                }]),
                (Some(name), None) => Step::Ask(vec![Ask::Elicit {
                    key: "ask_party",
                    message: format!("How many people are coming, {name}?"),
                    field: "size",
                    kind: "integer",
                }]),
                (Some(name), Some(size)) => {
                    done(format!("Booked {} for {name}, party of {}", text("date"), size as i64))
                }
            }
        }
        "haiku_with_roots" => match (answers.get("sample_haiku"), answers.get("get_roots")) {
            (Some(haiku), Some(roots)) => {
                let uris: Vec<String> = roots
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|u| u.as_str())
                    .map(|u| format!("'{u}'"))
                    .collect();
                done(format!("{} | roots=[{}]", haiku.as_str().unwrap_or("?"), uris.join(", ")))
            }
            _ => Step::Ask(vec![
                Ask::Sample { key: "sample_haiku", prompt: format!("Haiku about {}", text("topic")) },
                Ask::Roots { key: "get_roots" },
            ]),
        },
        other => Step::Done { text: format!("Unknown tool: {other}"), structured: None, is_error: true },
    }
}

pub fn greeting(name: &str, style: &str) -> String {
    format!("Write a {style} greeting for {name}.")
}

/// A resource's text and MIME type.
pub fn read(uri: &str) -> Option<(&'static str, String)> {
    if uri == README_URI {
        return Some(("text/plain", README_TEXT.to_string()));
    }
    let id = uri.strip_prefix("demo://users/")?;
    Some(("application/json", format!("{{\"id\": \"{id}\", \"name\": \"User {id}\"}}")))
}

/// Completions of a prompt's or a template's argument.
pub fn complete(prompt_or_template: &str, argument: &str, prefix: &str) -> Vec<String> {
    let values: &[&str] = match (prompt_or_template, argument) {
        ("greet", "style") => &["friendly", "formal", "pirate"],
        (USER_TEMPLATE, "user_id") => &["1", "2", "42"],
        _ => &[],
    };
    values.iter().filter(|v| v.starts_with(prefix)).map(|v| v.to_string()).collect()
}
