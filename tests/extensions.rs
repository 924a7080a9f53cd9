//! Extensions: the Tasks extension's schema.ts, lowered on the core revision its
//! vendored copy equals and generated as `ext::tasks::draft`; the messages its
//! specification text shows (`specification/draft/tasks.md`) read as the
//! members they are, written back equal, their near misses errors naming the
//! member and the path; and bad extension inputs located diagnostics.

use std::collections::BTreeMap;

use mcp_spec_codegen::model::ItemKind;
use mcp_spec_tests as support;
use mcp_spec_types::rt::TypeEntry;
use serde_json::Value;

use mcp_spec_types::draft as core;
use mcp_spec_types::ext::tasks::draft as tasks;

fn load() -> (mcp_spec_codegen::Spec, Vec<mcp_spec_codegen::extension::Extension>) {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let (exts, _) = mcp_spec_codegen::extension::load_extensions(
        &mcp_spec_codegen::extension::ExtDir::named(support::ext_dir()),
        &spec,
    )
    .unwrap_or_else(|d| panic!("{}", d.render()));
    (spec, exts)
}

#[test]
fn the_tasks_extension_lowers_on_the_core_revision_it_vendors() {
    let (_, exts) = load();
    let names: Vec<&str> = exts.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["tasks"]);
    let draft = &exts[0].revisions[0];
    assert_eq!((draft.rev.name.as_str(), draft.core_name.as_str()), ("draft", "draft"));
    assert_eq!(draft.id.as_deref(), Some("io.modelcontextprotocol/tasks"));
    assert_eq!(draft.capability.as_deref(), Some("TasksExtensionCapability"));
    assert_eq!(draft.feature, "ext-tasks-draft");
    // Imported names are the core's items, never copies: the extension declares
    // none of them (the aliased `Error as JSONRPCErrorObject` is `Error`).
    let rev = &draft.rev;
    for imported in ["Result", "JSONRPCRequest", "Error", "InputRequests", "NotificationParams", "JSONRPCErrorObject"] {
        assert!(!rev.owns(imported), "{imported} is copied into the extension");
    }
    let failed = rev.struct_of("FailedTask").unwrap();
    assert_eq!(format!("{:?}", failed.field("error").unwrap().ty), "Named(\"Error\")");
    // The intersection with a union is a union of one struct per task status.
    let ItemKind::Union(get) = &rev.items["GetTaskResult"].kind else { panic!("GetTaskResult is a union") };
    let members: Vec<&str> = get.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(members, ["WorkingTask", "InputRequiredTask", "CompletedTask", "FailedTask", "CancelledTask"]);
    assert_eq!(get.tag_field(), Some("status"));
    // And the core union a tools/call answer is read by takes `resultType: "task"`,
    // under a name of the extension's own.
    assert_eq!(rev.widened["CallToolResultResponseResult"], "CallToolResultResponseResultWithTasks");
    let ItemKind::Union(call) = &rev.items["CallToolResultResponseResultWithTasks"].kind else { panic!() };
    assert!(
        call.selector().unwrap().tags.iter().any(|(v, k)| v == "task" && call.variants[*k].name == "CreateTaskResult")
    );
    assert_eq!(tasks::EXTENSION_ID, "io.modelcontextprotocol/tasks");
}

/// One message of the extension's specification text: its line in `tasks.md`,
/// the section it is in, and its JSON.
struct TextMessage {
    line: usize,
    section: String,
    value: Value,
}

/// The ```json blocks of the extension's specification text, and its ```jsonc
/// blocks that are whole messages (comments and trailing commas set aside).
/// A core request there (`tools/call`) leaves out members of the `_meta`
/// 2026-07-28 requires (its blocks say "Other metadata..."): they are added,
/// the client's capabilities declaring the extension, as the text says a client
/// does. The extension's own requests (`tasks/get`) are as written: its schema
/// asks no `_meta` of them.
fn spec_messages() -> Vec<TextMessage> {
    let path = support::ext_dir().join("tasks/specification/draft/tasks.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut block: Option<(usize, String)> = None;
    let mut section = String::new();
    for (i, line) in text.lines().enumerate() {
        match (&mut block, line.trim()) {
            (None, "```json" | "```jsonc") => block = Some((i + 2, String::new())),
            (None, heading) if heading.starts_with('#') => section = heading.trim_start_matches('#').trim().to_string(),
            (Some((start, body)), "```") => {
                let mut value: Value =
                    serde_json::from_str(&json_of_jsonc(body)).unwrap_or_else(|e| panic!("tasks.md:{start}: {e}"));
                if value.get("jsonrpc").is_none() {
                    // A fragment (`"params": {..}`), not a message.
                    block = None;
                    continue;
                }
                let core_request = value["method"].as_str().is_some_and(|m| !m.starts_with("tasks/"));
                if core_request && value.get("id").is_some() {
                    let meta = serde_json::json!({
                        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}
                    });
                    if let Some(params) = value["params"].as_object_mut() {
                        let have = params.entry("_meta").or_insert(serde_json::json!({}));
                        for (k, v) in meta.as_object().into_iter().flatten() {
                            have.as_object_mut().map(|m| m.entry(k.clone()).or_insert(v.clone()));
                        }
                    }
                }
                out.push(TextMessage { line: *start, section: section.clone(), value });
                block = None;
            }
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// JSONC as JSON: `//` comments (outside strings) and trailing commas dropped.
fn json_of_jsonc(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let (mut in_string, mut escaped, mut cut) = (false, false, line.len());
        for (i, c) in line.char_indices() {
            match c {
                '\\' if in_string => escaped = !escaped,
                '"' if !escaped => in_string = !in_string,
                '/' if !in_string && line[i..].starts_with("//") => {
                    cut = i;
                    break;
                }
                _ => escaped = false,
            }
            if c != '\\' {
                escaped = false;
            }
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    // `,` before a closing bracket, whitespace between.
    let chars: Vec<char> = out.chars().collect();
    let mut json = String::new();
    for (i, c) in chars.iter().enumerate() {
        if *c == ',' && chars[i + 1..].iter().find(|c| !c.is_whitespace()).is_some_and(|n| *n == '}' || *n == ']') {
            continue;
        }
        json.push(*c);
    }
    json
}

/// Responses whose request the text does not show, by what its prose says
/// they answer (`tasks.md` line → method).
const ANSWERING: &[(usize, &str)] = &[(842, "tasks/get"), (866, "tasks/get")];

/// Upstream's examples that break its own schema, each rejected with the member
/// named: the two examples of task execution errors answer `tasks/get` (their
/// prose says so) with `resultType: "task"`, where `tasks/get`'s result is
/// `"complete"` (the text: "The `resultType` field MUST be set to `complete`").
const BROKEN: &[(usize, &str)] = &[(842, "resultType"), (866, "resultType")];

/// A type of the extension's module, else the core's: the extension's own
/// declarations first (its `CallToolResultResponseResult` takes a task).
fn entry(name: &str) -> &'static TypeEntry {
    tasks::SCHEMA_TYPES
        .iter()
        .chain(core::SCHEMA_TYPES)
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no type {name}"))
}

/// The type a message is read as: a request or notification by its method (the
/// extension's methods, then the core's); an error response as the core's
/// `JSONRPCErrorResponse`; a result by the method of the request with its id
/// earlier in its section, read as that method's result type (the extension's
/// union of that name when it widens the core's).
fn type_of(m: &TextMessage, requests: &BTreeMap<(String, String), String>) -> (String, Value) {
    let table = |method: &str| tasks::METHODS.iter().chain(core::METHODS).find(|i| i.method == method).copied();
    let message = &m.value;
    if let Some(method) = message["method"].as_str() {
        let info = table(method).unwrap_or_else(|| panic!("no method {method}"));
        return (info.message.to_string(), message.clone());
    }
    if message.get("error").is_some() {
        return ("JSONRPCErrorResponse".to_string(), message.clone());
    }
    let method = requests
        .get(&(m.section.clone(), message["id"].to_string()))
        .map(String::as_str)
        .or_else(|| ANSWERING.iter().find(|(l, _)| *l == m.line).map(|(_, method)| *method))
        .unwrap_or_else(|| panic!("tasks.md:{}: a response to no request it shows: {message}", m.line));
    let info = table(method).unwrap_or_else(|| panic!("no method {method}"));
    let result = match info.response {
        Some(response) => format!("{response}Result"),
        None => info.result.unwrap_or_else(|| panic!("{method} has no result")).to_string(),
    };
    (result, message["result"].clone())
}

/// The statuses the text shows no valid `tasks/get` answer for, built from its
/// prose: a failed task carries the JSON-RPC error ("MUST include the `error`
/// field"), a cancelled one nothing more; both with `resultType: "complete"`.
fn built_messages() -> Vec<TextMessage> {
    let task = |status: &str, more: Value| {
        let mut result = serde_json::json!({
            "resultType": "complete", "taskId": "786512e2", "status": status,
            "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:40:00Z", "ttlMs": null
        });
        result.as_object_mut().unwrap().extend(more.as_object().cloned().unwrap_or_default());
        serde_json::json!({"jsonrpc": "2.0", "id": 9, "result": result})
    };
    let failed = task(
        "failed",
        serde_json::json!({"statusMessage": "rate limited", "error": {"code": -32603, "message": "API rate limit exceeded"}}),
    );
    let cancelled = task("cancelled", serde_json::json!({}));
    let request =
        serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/get", "params": {"taskId": "786512e2"}});
    [request.clone(), failed, request, cancelled]
        .into_iter()
        .enumerate()
        .map(|(i, value)| TextMessage { line: 10_000 + i, section: format!("built {}", i / 2), value })
        .collect()
}

/// Every message of the text, and the ones built from its prose, with the type
/// each is read as.
fn typed_messages() -> Vec<(TextMessage, String, Value)> {
    let mut requests = BTreeMap::new();
    let mut out = Vec::new();
    for m in spec_messages().into_iter().chain(built_messages()) {
        if let (Some(method), Some(id)) = (m.value["method"].as_str(), m.value.get("id")) {
            requests.insert((m.section.clone(), id.to_string()), method.to_string());
        }
        let (ty, value) = type_of(&m, &requests);
        out.push((m, ty, value));
    }
    out
}

#[test]
fn the_specification_texts_messages_read_as_their_members_and_write_back_equal() {
    let mut report = String::new();
    for (m, ty, value) in typed_messages() {
        let e = entry(&ty);
        let text = value.to_string();
        if let Some((_, member)) = BROKEN.iter().find(|(l, _)| *l == m.line) {
            let err = (e.read)(&text).expect_err("upstream's broken example is rejected");
            assert!(err.contains(&format!("`{member}`")), "tasks.md:{}: {err}", m.line);
            report.push_str(&format!("tasks.md:{} {ty} rejected: {err}\n", m.line));
            continue;
        }
        // Read strictly: nothing the schema names kept as unknown.
        support::roundtrip_strict(e, &value).unwrap_or_else(|err| panic!("tasks.md:{}: {ty}: {err}\n{text}", m.line));
        // The member of the union read, or of the union a notification's params are.
        let chosen = match (e.choose, ty.as_str()) {
            (Some(choose), _) => choose(value.clone()).unwrap(),
            (None, "TaskStatusNotification") => {
                (entry("TaskStatusNotificationParams").choose.unwrap())(value["params"].clone()).unwrap()
            }
            _ => "-",
        };
        let at = if m.line >= 10_000 { format!("built {}", m.line - 10_000) } else { format!("tasks.md:{}", m.line) };
        report.push_str(&format!("{at} {ty} {chosen}\n"));
    }
    // Reviewed: each message as the member its `resultType` and `status` say.
    support::assert_golden("members/ext-tasks-draft.txt", &report);
}

#[test]
fn near_misses_of_the_specification_texts_messages_name_the_member_and_where() {
    let mut tried = 0;
    for (m, ty, value) in typed_messages() {
        let Value::Object(members) = &value else { continue };
        if BROKEN.iter().any(|(l, _)| *l == m.line) {
            continue;
        }
        let e = entry(&ty);
        let line = m.line;
        // Each member whose absence the type refuses, dropped: the error names it;
        // without the value that chooses a union's member (`resultType`), another
        // member is read, and the error names that member and what it misses.
        let chooses = |key: &str| matches!(key, "resultType" | "status");
        for key in members.keys() {
            let mut near = members.clone();
            near.remove(key);
            let Err(err) = (e.read)(&Value::Object(near).to_string()) else { continue };
            tried += 1;
            // The union's error starts with its Rust name: the schema's, or for
            // one the extension widens, the schema's with `WithTasks`.
            let union_named = [format!("{ty}: "), format!("{ty}WithTasks: ")].iter().any(|p| err.starts_with(p));
            let named =
                err.contains(&format!("`{key}`")) || (chooses(key) && union_named && err.contains("missing field"));
            assert!(named, "tasks.md:{line}: {ty} without `{key}`: {err}");
        }
        // A task whose status is no status: an error that names the value.
        for at in [&value, &value["params"]] {
            if at.get("status").is_none() {
                continue;
            }
            let mut near = value.clone();
            let target = if at == &value { &mut near } else { &mut near["params"] };
            target["status"] = Value::from("sleeping");
            let err = (e.read)(&near.to_string()).unwrap_err();
            assert!(err.contains("sleeping"), "tasks.md:{line}: {ty} with status sleeping: {err}");
            tried += 1;
        }
    }
    eprintln!("{tried} near misses");
    // 118 on 2026-12-04: at least nine tenths of them.
    assert!(tried >= 107, "only {tried} near misses (118 were tried)");
}

#[test]
fn a_tool_calls_answer_is_a_task_handle_through_the_extensions_union_and_the_core_is_unchanged() {
    let handle = r#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null}"#;
    let ext: tasks::results::CallTool = mcp_spec_types::from_str(handle).unwrap();
    let tasks::CallToolResultResponseResultWithTasks::CreateTaskResult(task) = ext else { panic!("{ext:?}") };
    assert_eq!((task.task_id.as_str(), task.ttl_ms), ("t1", None));
    // The core's union reads it as a result of a kind it does not list, whole.
    let core: core::CallToolResultResponseResult = mcp_spec_types::from_str(handle).unwrap();
    assert!(matches!(core, core::CallToolResultResponseResult::Other(_)), "{core:?}");
    // A complete result is still a CallToolResult, an input round still an InputRequiredResult.
    let done: tasks::CallToolResultResponseResultWithTasks =
        mcp_spec_types::from_str(r#"{"resultType":"complete","content":[]}"#).unwrap();
    assert_eq!(done.member_name(), "CallToolResult");
    // A broken task handle is an error that names it and the member.
    let broken = r#"{"resultType":"task","taskId":"t1","status":"working"}"#;
    let err = mcp_spec_types::from_str::<tasks::results::CallTool>(broken).unwrap_err().to_string();
    assert!(err.contains("CreateTaskResult") && err.contains("createdAt"), "{err}");
    // The extension's methods are typed, its own METHODS list them.
    use mcp_spec_types::Request;
    assert_eq!(<tasks::GetTaskRequest as Request>::METHOD, "tasks/get");
    let listed: Vec<&str> = tasks::METHODS.iter().map(|m| m.method).collect();
    assert_eq!(listed, ["notifications/tasks", "tasks/cancel", "tasks/get", "tasks/update"]);
}

/// An extension folder in a temporary place, with `schema.ts` and, unless
/// `vendored` is `None`, `spec.types.ts`: what loading it says.
fn load_broken(name: &str, schema: &str, vendored: Option<&str>) -> String {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let dir = std::env::temp_dir().join(format!("mcp-spec-ext-{name}-{}", std::process::id()));
    let rev = dir.join("x/schema/draft");
    std::fs::create_dir_all(&rev).unwrap();
    std::fs::write(rev.join("schema.ts"), schema).unwrap();
    if let Some(v) = vendored {
        std::fs::write(rev.join("spec.types.ts"), v).unwrap();
    }
    let out =
        match mcp_spec_codegen::extension::load_extensions(&mcp_spec_codegen::extension::ExtDir::named(&dir), &spec) {
            Ok(_) => "loaded".to_string(),
            Err(d) => d.render(),
        };
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

#[test]
fn bad_extension_inputs_are_located_errors() {
    let core_draft = std::fs::read_to_string(support::spec_dir().join("schema/draft/schema.ts")).unwrap();
    // An import from a package path: located, with a hint.
    let out = load_broken(
        "package",
        "import type { Result } from \"@modelcontextprotocol/core\";\nexport type Mine = Result & { x: string };\n",
        Some(&core_draft),
    );
    assert!(out.contains("an import from `@modelcontextprotocol/core`") && out.contains("schema.ts:1:1"), "{out}");
    // Without a manifest's mapping: the hint says to add one.
    assert!(
        out.contains("described by a manifest (codegen/extensions.toml)") && out.contains("core-packages"),
        "{out}"
    );
    // A name the core does not have.
    let out = load_broken(
        "unknown",
        "import type { Result, Nope } from \"./spec.types.js\";\nexport type Mine = Result & { x: string };\n",
        Some(&core_draft),
    );
    assert!(out.contains("`Nope` is not a type of core revision"), "{out}");
    // A vendored copy that is no core revision: the closest, and the first difference.
    let edited = core_draft.replacen("export interface Result {", "export interface Result {\n  edited: string;", 1);
    let out = load_broken(
        "edited",
        "import type { Result } from \"./spec.types.js\";\nexport type Mine = Result & { x: string };\n",
        Some(&edited),
    );
    assert!(out.contains("fits no core revision of the spec inputs"), "{out}");
    assert!(out.contains("closest: draft") && out.contains("`Result` differs"), "{out}");
    assert!(out.contains("the copy has `interface Result {") && out.contains("\"edited\": string;"), "{out}");
    // Located at the declaration in the copy.
    let line = edited.lines().position(|l| l == "export interface Result {").unwrap() + 1;
    assert!(out.contains(&format!("spec.types.ts:{line}:1")), "{out}");
    // No vendored copy at all.
    let out = load_broken("missing", "export type Mine = { x: string };\n", None);
    assert!(out.contains("no vendored core schema") && out.contains("spec.types.ts"), "{out}");
    // And the extension's own schema errors, located as the core's are.
    let out = load_broken(
        "own",
        "import type { Result } from \"./spec.types.js\";\nexport type Mine = Result & { x: Undeclared };\n",
        Some(&core_draft),
    );
    assert!(out.contains("reference to undeclared type `Undeclared`") && out.contains("schema.ts:2:"), "{out}");
}

/// Any extension folder laid out as Tasks' generates with no code change: a
/// second one (its own schema.ts importing core types, its vendored copy of
/// the core's draft) beside a copy of Tasks, generated, and built downstream
/// with its feature alone.
#[test]
fn another_extension_folder_generates_with_no_code_change() {
    let base = support::workspace_root().join("target/downstream/ext-demo");
    let _ = std::fs::remove_dir_all(&base);
    let (ext_dir, out) = (base.join("ext"), base.join("generated"));
    let rev = ext_dir.join("demo/schema/draft");
    std::fs::create_dir_all(&rev).unwrap();
    std::fs::copy(support::spec_dir().join("schema/draft/schema.ts"), rev.join("spec.types.ts")).unwrap();
    std::fs::write(
        rev.join("schema.ts"),
        r#"/**
 * Extension Identifier: com.example/demo
 */
import type { Result, JSONRPCRequest, Tool as CoreTool } from "./spec.types.js";

/** What a demo lookup answers. */
export interface DemoResult extends Result {
  /** The tools found. */
  tools: CoreTool[];
  count: number;
}

/** Looks tools up. */
export type DemoRequest = JSONRPCRequest & {
  method: "demo/lookup";
  params: { query: string };
};

/** The capability. */
export type DemoExtensionCapability = Record<string, never>;
"#,
    )
    .unwrap();
    let settings = mcp_spec_codegen::emit::Settings::writing_to(&out)
        .with_extensions(&mcp_spec_codegen::extension::ExtDir::named(&ext_dir));
    let generated =
        mcp_spec_codegen::generate_with(&support::spec_dir(), &settings).unwrap_or_else(|d| panic!("{}", d.render()));
    mcp_spec_codegen::output::write_crate(&out, &generated.files).unwrap();
    let manifest = &generated.files[std::path::Path::new("Cargo.toml")];
    assert!(manifest.contains("ext-demo-draft = [\"draft\"]"), "{manifest}");
    let main = r##"
use mcp_spec_types::ext::demo::draft as demo;
use mcp_spec_types::Request;
fn main() {
    assert_eq!(demo::EXTENSION_ID, "com.example/demo");
    assert_eq!(<demo::DemoRequest as Request>::METHOD, "demo/lookup");
    let r: demo::DemoResult = mcp_spec_types::from_str(r#"{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"count":1}"#).unwrap();
    // The core's `Tool`, imported under another name: the core's Rust type.
    let _: &mcp_spec_types::draft::Tool = &r.tools[0];
    println!("ok");
}
"##;
    let run = support::downstream_of(&out, "ext-demo-user", &["ext-demo-draft"], &[], main, "run");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success() && String::from_utf8_lossy(&run.stdout).trim() == "ok", "{stderr}");
}

/// A spec folder in `target/` holding the named revisions of the spec inputs,
/// each schema.ts passed through `edit` (by revision name).
fn spec_folder(name: &str, revisions: &[&str], edit: impl Fn(&str, String) -> String) -> std::path::PathBuf {
    let dir = support::workspace_root().join("target/spec-folders").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for rev in revisions {
        let text = std::fs::read_to_string(support::spec_dir().join(format!("schema/{rev}/schema.ts")))
            .unwrap_or_else(|e| panic!("the spec inputs are missing revision {rev}: {e}"));
        let at = dir.join("schema").join(rev);
        std::fs::create_dir_all(&at).unwrap();
        std::fs::write(at.join("schema.ts"), edit(rev, text)).unwrap();
    }
    dir
}

fn load_with(
    spec_dir: &std::path::Path,
    ext: &mcp_spec_codegen::extension::ExtDir,
) -> Result<(Vec<mcp_spec_codegen::extension::Extension>, String), String> {
    let (spec, _) = mcp_spec_codegen::spec::load_spec(spec_dir).unwrap_or_else(|d| panic!("{}", d.render()));
    mcp_spec_codegen::extension::load_extensions(ext, &spec).map(|(e, w)| (e, w.render())).map_err(|d| d.render())
}

/// The core job never depends on an extension found by default: a spec folder
/// of a core revision Tasks was not written against (2025-06-18 has no `Error`
/// type to import) generates the core, and says with a warning why Tasks was
/// left out; the same folder named by the user is an error, with the closest
/// revision and the first imported item that differs.
#[test]
fn an_extension_found_by_default_never_breaks_another_spec_folder() {
    let spec_dir = spec_folder("past-2025-06-18", &["2025-06-18"], |_, t| t);
    let found = mcp_spec_codegen::extension::ExtDir { path: support::ext_dir(), named: false };
    let settings = mcp_spec_codegen::emit::Settings::default().with_extensions(&found);
    let generated = mcp_spec_codegen::generate_with(&spec_dir, &settings).unwrap_or_else(|d| panic!("{}", d.render()));
    assert!(generated.extensions.is_empty());
    assert_eq!(generated.spec.revisions.len(), 1);
    let files: Vec<String> = generated.files.keys().map(|p| p.display().to_string()).collect();
    assert!(files.iter().any(|f| f == "src/v2025_06_18.rs") && !files.iter().any(|f| f.contains("ext")), "{files:?}");
    let warnings = generated.warnings.render();
    assert!(warnings.contains("revision draft of extension `tasks` skipped"), "{warnings}");
    assert!(warnings.contains("found by default") && warnings.contains("--ext-dir or MCP_EXT_DIR"), "{warnings}");
    assert!(
        warnings.contains("closest: 2025-06-18") && warnings.contains("`Error` is not declared in 2025-06-18"),
        "{warnings}"
    );
    assert!(!generated.warnings.has_errors());
    // Named, the same folder is an error saying the same.
    let err =
        load_with(&spec_dir, &mcp_spec_codegen::extension::ExtDir::named(support::ext_dir())).map(|_| ()).unwrap_err();
    assert!(
        err.contains("error: ")
            && err.contains("fits no core revision")
            && err.contains("`Error` is not declared in 2025-06-18"),
        "{err}"
    );
    // Every revision of the spec inputs alone: the core generates each time;
    // Tasks comes along on the two revisions its imports fit, and only there.
    let found_dir = mcp_spec_codegen::extension::ExtDir { path: support::ext_dir(), named: false };
    let mut kept = Vec::new();
    let revisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"];
    for rev in revisions {
        let dir = spec_folder(&format!("alone-{rev}"), &[rev], |_, t| t);
        let settings = mcp_spec_codegen::emit::Settings::default().with_extensions(&found_dir);
        let generated =
            mcp_spec_codegen::generate_with(&dir, &settings).unwrap_or_else(|d| panic!("{rev}: {}", d.render()));
        let skipped = generated.warnings.render().contains("extension `tasks` skipped");
        assert_eq!(skipped, generated.extensions.is_empty(), "{rev}");
        if !skipped {
            kept.push(rev);
        }
    }
    assert_eq!(kept, ["2026-07-28", "draft"]);
    // Found by default, the folder is the default path when nothing names another.
    if std::env::var_os(mcp_spec_codegen::extension::EXT_DIR_ENV).is_none() {
        let located = mcp_spec_codegen::extension::locate_ext_dir(None, &support::workspace_root()).unwrap();
        assert_eq!(located.map(|d| d.named), Some(false));
    }
}

/// The core revision Tasks builds on is the one where what it imports means
/// the same, not the one whose text equals its copy: a `draft` that has moved
/// on elsewhere (a declaration added, docs edited) still carries it; one where
/// an imported item changed does not, and 2026-07-28 (where it is as in the
/// copy) does; changed in both, no revision fits.
#[test]
fn the_core_revision_is_chosen_by_what_the_extension_imports() {
    let tasks = mcp_spec_codegen::extension::ExtDir::named(support::ext_dir());
    let core_of = |exts: &[mcp_spec_codegen::extension::Extension]| {
        assert_eq!(exts.len(), 1);
        exts[0].revisions.iter().map(|r| (r.rev.name.clone(), r.core_name.clone())).collect::<Vec<_>>()
    };
    let revisions = ["2026-07-28", "draft"];
    // Moved on where Tasks does not look: still draft (the newest of the two that fit).
    let moved = spec_folder("draft-moved-on", &revisions, |rev, t| {
        if rev != "draft" {
            return t;
        }
        let t = t.replacen("/**", "/**\n * A line of docs added upstream.", 1);
        format!(
            "{t}\n/** Added upstream after the extension vendored its copy. */\nexport interface AddedLater {{\n  note: string;\n}}\n"
        )
    });
    let (exts, _) = load_with(&moved, &tasks).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(core_of(&exts), [("draft".to_string(), "draft".to_string())]);
    // An imported item changed in draft: 2026-07-28 carries it.
    let edit_result =
        |t: String| t.replacen("export interface Result {", "export interface Result {\n  changed?: number;", 1);
    let changed =
        spec_folder("draft-result-changed", &revisions, |rev, t| if rev == "draft" { edit_result(t) } else { t });
    let (exts, _) = load_with(&changed, &tasks).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(core_of(&exts), [("draft".to_string(), "2026-07-28".to_string())]);
    // What an imported item reaches counts too: `InputRequests` reaches `CreateMessageRequest`.
    let edit_reached = |t: String| {
        let edited = t.replacen(
            "  method: \"sampling/createMessage\";\n",
            "  method: \"sampling/createMessage\";\n  hint?: string;\n",
            1,
        );
        assert_ne!(edited, t, "the edit must change the schema");
        edited
    };
    let reached = spec_folder("draft-reached-changed", &revisions, |_, t| edit_reached(t));
    let err = load_with(&reached, &tasks).map(|_| ()).unwrap_err();
    assert!(err.contains("fits no core revision") && err.contains("`CreateMessageRequest` differs"), "{err}");
    // Changed in both: no revision fits, the error names the closest and what differs.
    let both = spec_folder("both-result-changed", &revisions, |_, t| edit_result(t));
    let err = load_with(&both, &tasks).map(|_| ()).unwrap_err();
    assert!(err.contains("fits no core revision") && err.contains("closest: draft"), "{err}");
    assert!(err.contains("`Result` differs") && err.contains("\"changed\"?: number;"), "{err}");
}

/// No name of the extension's module is a core one (the core unions it widens
/// are its own types under names of its own), so a glob import of both modules
/// compiles and each name means one thing: the names the extension once
/// declared again are the core's, unqualified, beside the extension's.
#[test]
fn an_extension_and_its_core_import_by_glob_and_share_no_name() {
    let (_, exts) = load();
    let rev = &exts[0].revisions[0].rev;
    let core_rev = rev.core.as_deref().unwrap();
    let both: Vec<&String> = rev.items.keys().filter(|n| core_rev.items.contains_key(*n)).collect();
    assert!(both.is_empty(), "declared by the extension and its core: {both:?}");
    // The widened ones, each named after the core's and holding the extension's member.
    let widened: Vec<(&str, &str)> = rev.widened.iter().map(|(c, o)| (c.as_str(), o.as_str())).collect();
    assert_eq!(widened.len(), 7, "{widened:?}");
    for (core_name, own) in &widened {
        assert_eq!(*own, format!("{core_name}WithTasks"));
        assert!(core_rev.items.contains_key(*core_name) && rev.owns(own), "{core_name} → {own}");
    }
    mod glob {
        pub use mcp_spec_types::draft::*;
        pub use mcp_spec_types::ext::tasks::draft::*;
    }
    let answer = r#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null}"#;
    let core: glob::CallToolResultResponseResult = mcp_spec_types::from_str(answer).unwrap();
    let ext: glob::CallToolResultResponseResultWithTasks = mcp_spec_types::from_str(answer).unwrap();
    assert_eq!((core.member_name(), ext.member_name()), ("Other", "CreateTaskResult"));
    let server: glob::ServerResultWithTasks = mcp_spec_types::from_str(answer).unwrap();
    assert_eq!(server.member_name(), "CreateTaskResult");
    let _: Option<(glob::ServerResult, glob::CallToolResultResponse, glob::GetTaskRequest)> = None;
    // The table lists the widened union under the core's name, which it extends.
    let entry = tasks::SCHEMA_TYPES.iter().find(|e| e.name == "CallToolResultResponseResult").unwrap();
    assert_eq!((entry.type_id)(), std::any::TypeId::of::<tasks::CallToolResultResponseResultWithTasks>());
}
