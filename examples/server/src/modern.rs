//! The 2026-07-28 era: no handshake; every request carries its protocol version
//! and the client's capabilities in `params._meta`, checked on each request
//! (`-32602` when missing, `-32022` for a version not served, `-32021` when a
//! tool needs a capability the client did not declare); a tool that needs the
//! user's input answers with an `InputRequiredResult` and a sealed `requestState`,
//! and the client retries with `inputResponses`; list results carry cache hints;
//! `subscriptions/listen` streams change notifications. With the Tasks extension
//! (`io.modelcontextprotocol/tasks`) declared in a request's capabilities,
//! `count` answers with a task handle, and `tasks/get` reports the task until it
//! completes with the tool's result.

use mcp_spec_types::ext::tasks::draft as tasks;
use mcp_spec_types::v2026_07_28 as m;
use serde_json::{Map, Value, json};

use crate::demo::{self, Ask, Step};
use crate::state::CallState;
use crate::{Wire, parse_error};

/// The only version this era is served at.
const VERSION: &str = m::LATEST_PROTOCOL_VERSION;

struct Server<'w> {
    wire: &'w mut Wire,
    /// Open `subscriptions/listen` streams: the request's id and what it asked for.
    listeners: Vec<(m::RequestId, m::SubscriptionFilter)>,
    /// Tasks made so far, by id.
    tasks: Vec<Task>,
}

/// A task the server runs for `count`: done after two polls of `tasks/get`.
struct Task {
    id: String,
    n: i64,
    polls: u32,
    cancelled: bool,
}

/// When every task was made and last changed: the demo's clock stands still.
const TASK_TIME: &str = "2026-07-28T00:00:00Z";

/// How many polls a task is working for before it completes.
const TASK_POLLS: u32 = 2;

pub fn serve(wire: &mut Wire) {
    let mut server = Server { wire, listeners: Vec::new(), tasks: Vec::new() };
    while let Some(line) = server.wire.recv() {
        match serde_json::from_str::<m::JSONRPCMessage>(&line) {
            Err(e) => parse_error(server.wire, e),
            Ok(m::JSONRPCMessage::JSONRPCRequest(request)) => server.request(&line, request),
            Ok(m::JSONRPCMessage::JSONRPCNotification(_)) => server.notification(&line),
            // This era sends no requests, so no response is awaited.
            Ok(m::JSONRPCMessage::JSONRPCResponse(_)) => {}
        }
    }
}

fn server_info() -> m::ResultMetaObject {
    m::ResultMetaObject::new()
        .with_io_modelcontextprotocol_server_info(m::Implementation::new(demo::NAME, demo::VERSION))
}

fn invalid_params(message: impl Into<String>, data: Option<Value>) -> m::Error {
    let e: m::Error = m::InvalidParamsError::new(message).into();
    match data {
        Some(d) => e.with_data(d),
        None => e,
    }
}

impl Server<'_> {
    fn error(&mut self, id: m::RequestId, error: impl Into<m::Error>) {
        self.wire.send(&m::JSONRPCErrorResponse::new(Some(id), error));
    }

    fn notification(&mut self, line: &str) {
        // A cancelled `subscriptions/listen` ends its stream (no result is sent).
        if let Ok(m::ClientNotification::CancelledNotification(m::CancelledNotification { params, .. })) =
            serde_json::from_str::<m::ClientNotification>(line)
        {
            self.listeners.retain(|(id, _)| *id != params.request_id);
        }
    }

    fn request(&mut self, line: &str, generic: m::JSONRPCRequest) {
        let id = generic.id.clone();
        // The envelope, read first, so that its errors are the ones the spec names.
        let meta = generic.params.as_ref().and_then(|p| p.get("_meta")).cloned();
        let meta: m::RequestMetaObject = match meta.map(serde_json::from_value) {
            None => {
                return self.error(
                    id,
                    invalid_params(
                        "params._meta must carry io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities",
                        None,
                    ),
                );
            }
            Some(Err(e)) => return self.error(id, invalid_params(format!("params._meta: {e}"), None)),
            Some(Ok(meta)) => meta,
        };
        let requested = meta.io_modelcontextprotocol_protocol_version.clone();
        if requested != VERSION {
            let data = m::UnsupportedProtocolVersionErrorErrorData::new(vec![VERSION.to_string()], requested);
            let error = m::UnsupportedProtocolVersionErrorError::new("Unsupported protocol version", data);
            return self.wire.send(&m::UnsupportedProtocolVersionError::new(Some(id), error));
        }
        if generic.method.starts_with("tasks/") {
            return self.task_request(line, id, &meta);
        }
        let request: m::ClientRequest = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => return self.error(id, invalid_params(e.to_string(), None)),
        };
        use m::ClientRequest as R;
        match request {
            R::DiscoverRequest(r) => {
                let result = m::DiscoverResult::new(
                    0,
                    m::CacheableResultCacheScope::Private,
                    vec![VERSION.to_string()],
                    capabilities(),
                )
                .with_instructions(demo::INSTRUCTIONS)
                .with_meta(server_info());
                self.wire.send(&m::DiscoverResultResponse::new(r.id, result));
            }
            R::ListToolsRequest(r) => {
                let result = m::ListToolsResult::new(60_000, m::CacheableResultCacheScope::Public, tools())
                    .with_meta(server_info());
                self.wire.send(&m::ListToolsResultResponse::new(r.id, result));
            }
            R::CallToolRequest(r) => self.call_tool(r, &meta),
            R::ListPromptsRequest(r) => {
                let greet = m::Prompt::new("greet").with_description("Greet someone.").with_arguments(vec![
                    m::PromptArgument::new("name").with_required(true),
                    m::PromptArgument::new("style"),
                ]);
                let result = m::ListPromptsResult::new(30_000, m::CacheableResultCacheScope::Public, vec![greet])
                    .with_meta(server_info());
                self.wire.send(&m::ListPromptsResultResponse::new(r.id, result));
            }
            R::GetPromptRequest(r) => {
                let args = r.params.arguments.unwrap_or_default();
                if r.params.name != "greet" {
                    return self.error(r.id, invalid_params(format!("Unknown prompt: {}", r.params.name), None));
                }
                let name = args.get("name").map(String::as_str).unwrap_or("you");
                let style = args.get("style").map(String::as_str).unwrap_or("friendly");
                let message = m::PromptMessage::new(m::Role::User, m::TextContent::new(demo::greeting(name, style)));
                let result = m::GetPromptResult::new(vec![message]).with_meta(server_info());
                self.wire.send(&m::GetPromptResultResponse::new(r.id, result));
            }
            R::ListResourcesRequest(r) => {
                let readme = m::Resource::new("readme", demo::README_URI)
                    .with_mime_type("text/plain")
                    .with_description("Static text resource");
                let result = m::ListResourcesResult::new(5_000, m::CacheableResultCacheScope::Private, vec![readme])
                    .with_meta(server_info());
                self.wire.send(&m::ListResourcesResultResponse::new(r.id, result));
            }
            R::ListResourceTemplatesRequest(r) => {
                let user = m::ResourceTemplate::new("user", demo::USER_TEMPLATE)
                    .with_mime_type("application/json")
                    .with_description("User by id");
                let result =
                    m::ListResourceTemplatesResult::new(5_000, m::CacheableResultCacheScope::Private, vec![user])
                        .with_meta(server_info());
                self.wire.send(&m::ListResourceTemplatesResultResponse::new(r.id, result));
            }
            R::ReadResourceRequest(r) => match demo::read(&r.params.uri) {
                Some((mime, text)) => {
                    let contents = m::TextResourceContents::new(r.params.uri.clone(), text).with_mime_type(mime);
                    let result =
                        m::ReadResourceResult::new(0, m::CacheableResultCacheScope::Private, vec![contents.into()])
                            .with_meta(server_info());
                    self.wire.send(&m::ReadResourceResultResponse::new(r.id, result));
                }
                None => {
                    let uri = r.params.uri.clone();
                    self.error(r.id, invalid_params(format!("Unknown resource: {uri}"), Some(json!({"uri": uri}))))
                }
            },
            R::CompleteRequest(r) => {
                let on = match &r.params.r#ref {
                    m::CompleteRequestParamsRef::PromptReference(p) => p.name.clone(),
                    m::CompleteRequestParamsRef::ResourceTemplateReference(t) => t.uri.clone(),
                };
                let values = demo::complete(&on, &r.params.argument.name, &r.params.argument.value);
                let completion = m::CompleteResultCompletion::new(values.clone())
                    .with_total(values.len() as i64)
                    .with_has_more(false);
                self.wire.send(&m::CompleteResultResponse::new(
                    r.id,
                    m::CompleteResult::new(completion).with_meta(server_info()),
                ));
            }
            R::SubscriptionsListenRequest(r) => {
                let honored = r.params.notifications.clone();
                let meta = m::NotificationMetaObject::new().with_io_modelcontextprotocol_subscription_id(r.id.clone());
                let params = m::SubscriptionsAcknowledgedNotificationParams::new(honored.clone()).with_meta(meta);
                self.wire.send(&m::SubscriptionsAcknowledgedNotification::new(params));
                self.listeners.push((r.id, honored));
            }
            R::Other(r) => {
                let error: m::Error = m::MethodNotFoundError::new("Method not found").into();
                self.error(r.id, error.with_data(Value::String(r.method)));
            }
        }
    }

    /// `tasks/get`, `tasks/update`, `tasks/cancel`: for a client that declared
    /// the extension on the request (else `-32021`, as the extension says).
    fn task_request(&mut self, line: &str, id: m::RequestId, meta: &m::RequestMetaObject) {
        if !declares_tasks(meta) {
            let missing = m::ClientCapabilities::new().with_extensions(tasks_declared());
            let data = m::MissingRequiredClientCapabilityErrorErrorData::new(missing);
            let error = m::MissingRequiredClientCapabilityErrorError::new("Missing required client capability", data);
            return self.wire.send(&m::MissingRequiredClientCapabilityError::new(Some(id), error));
        }
        let method = serde_json::from_str::<m::JSONRPCRequest>(line).map(|r| r.method).unwrap_or_default();
        let task_id = |line: &str| -> Result<String, String> {
            match method.as_str() {
                "tasks/get" => serde_json::from_str::<tasks::GetTaskRequest>(line).map(|r| r.params.task_id),
                "tasks/cancel" => serde_json::from_str::<tasks::CancelTaskRequest>(line).map(|r| r.params.task_id),
                _ => serde_json::from_str::<tasks::UpdateTaskRequest>(line).map(|r| r.params.task_id),
            }
            .map_err(|e| e.to_string())
        };
        let task_id = match task_id(line) {
            Ok(t) => t,
            Err(e) => return self.error(id, invalid_params(e, None)),
        };
        let Some(task) = self.tasks.iter_mut().find(|t| t.id == task_id) else {
            return self.error(id, invalid_params(format!("Failed to retrieve task: Task not found: {task_id}"), None));
        };
        match method.as_str() {
            "tasks/get" => {
                task.polls += 1;
                let result: tasks::GetTaskResult = if task.cancelled {
                    tasks::GetTaskResultCancelledTask::new(task_id, TASK_TIME, TASK_TIME, None).into()
                } else if task.polls <= TASK_POLLS {
                    tasks::GetTaskResultWorkingTask::new(task_id, TASK_TIME, TASK_TIME, None)
                        .with_poll_interval_ms(10)
                        .with_status_message(format!("counted {} of {}", task.polls, TASK_POLLS + 1))
                        .into()
                } else {
                    // The result `count` gives when it is not a task, as the task's result.
                    let counted = tool_result(task.n.to_string(), Some(json!({"result": task.n})), false);
                    let counted = match serde_json::to_value(&counted).map(mcp_spec_types::Extra::try_from) {
                        Ok(Ok(extra)) => extra,
                        Ok(Err(e)) | Err(e) => return self.error(id, invalid_params(format!("internal: {e}"), None)),
                    };
                    tasks::GetTaskResultCompletedTask::new(task_id, TASK_TIME, TASK_TIME, None, counted).into()
                };
                self.send_result(id, &result);
            }
            "tasks/cancel" => {
                task.cancelled = true;
                self.send_result(id, &tasks::CancelTaskResult::new());
            }
            _ => {
                // No task here asks for input: nothing is outstanding to answer.
                self.error(id, invalid_params(format!("Task {task_id} awaits no input"), None));
            }
        }
    }

    /// A response with `result`, of any type (an extension's results are not the core's).
    fn send_result(&mut self, id: m::RequestId, result: &impl serde::Serialize) {
        let result = serde_json::to_value(result).and_then(serde_json::from_value::<m::Result>);
        match result {
            Ok(result) => self.wire.send(&m::JSONRPCResultResponse::new(id, result)),
            Err(e) => self.error(id, invalid_params(format!("internal: {e}"), None)),
        }
    }

    fn call_tool(&mut self, r: m::CallToolRequest, meta: &m::RequestMetaObject) {
        let p = r.params;
        let arguments = Value::Object(p.arguments.clone().unwrap_or_default().into_iter().collect());
        // The answers so far: sealed in the state, and the new ones.
        let mut answers = Map::new();
        if let Some(sealed) = &p.request_state {
            match CallState::open(sealed, &p.name, &arguments) {
                Ok(state) => answers = state.answers,
                Err(why) => {
                    return self.error(
                        r.id,
                        invalid_params(
                            format!("Invalid requestState: {why}"),
                            Some(json!({"reason": "invalid_request_state"})),
                        ),
                    );
                }
            }
        }
        for (key, response) in p.input_responses.unwrap_or_default() {
            answers.insert(key, answer_of(response));
        }
        let args: Map<String, Value> = arguments.as_object().cloned().unwrap_or_default();
        let result = match demo::step(&p.name, &args, &answers) {
            Step::Ask(asks) => {
                if let Some(missing) = missing_capability(&asks, &meta.io_modelcontextprotocol_client_capabilities) {
                    let data = m::MissingRequiredClientCapabilityErrorErrorData::new(missing);
                    let error = m::MissingRequiredClientCapabilityErrorError::new(
                        "The tool needs a capability the client did not declare",
                        data,
                    );
                    return self.wire.send(&m::MissingRequiredClientCapabilityError::new(Some(r.id), error));
                }
                let requests: m::InputRequests = asks.iter().map(|a| (a.key().to_string(), input_request(a))).collect();
                let state = CallState { tool: p.name.clone(), arguments, answers };
                m::InputRequiredResult::new()
                    .with_input_requests(requests)
                    .with_request_state(state.seal())
                    .with_meta(server_info())
                    .into()
            }
            // With the Tasks extension declared, `count` runs as a task.
            Step::Count(n) if declares_tasks(meta) => {
                let id = format!("task-{}", self.tasks.len() + 1);
                self.tasks.push(Task { id: id.clone(), n, polls: 0, cancelled: false });
                let handle = tasks::CreateTaskResult::new(id, tasks::TaskStatus::Working, TASK_TIME, TASK_TIME, None)
                    .with_poll_interval_ms(10)
                    .with_meta(server_info());
                return self.wire.send(&tasks::CallToolResultResponseWithTasks::new(r.id, handle));
            }
            Step::Count(n) => {
                if let Some(token) = &meta.progress_token {
                    for i in 1..=n {
                        let params = m::ProgressNotificationParams::new(token.clone(), i as f64)
                            .with_total(n as f64)
                            .with_message(format!("step {i}"));
                        self.wire.send(&m::ProgressNotification::new(params));
                    }
                }
                done(n.to_string(), Some(json!({"result": n})), false)
            }
            Step::Touch => {
                self.publish();
                done("published".into(), None, false)
            }
            Step::Done { text, structured, is_error } => done(text, structured, is_error),
        };
        self.wire.send(&m::CallToolResultResponse::new(r.id, result));
    }

    /// Tells every listener what `touch` changed.
    fn publish(&mut self) {
        let listeners = self.listeners.clone();
        for (id, filter) in listeners {
            let meta = m::NotificationMetaObject::new().with_io_modelcontextprotocol_subscription_id(id.clone());
            if filter.tools_list_changed == Some(true) {
                let params = m::NotificationParams::new().with_meta(meta.clone());
                self.wire.send(&m::ToolListChangedNotification::new().with_params(params));
            }
            if filter.resource_subscriptions.as_ref().is_some_and(|uris| uris.iter().any(|u| u == demo::README_URI)) {
                let params = m::ResourceUpdatedNotificationParams::new(demo::README_URI).with_meta(meta);
                self.wire.send(&m::ResourceUpdatedNotification::new(params));
            }
        }
    }
}

fn done(text: String, structured: Option<Value>, is_error: bool) -> m::CallToolResultResponseResult {
    tool_result(text, structured, is_error).into()
}

fn tool_result(text: String, structured: Option<Value>, is_error: bool) -> m::CallToolResult {
    let mut result =
        m::CallToolResult::new(vec![m::TextContent::new(text).into()]).with_is_error(is_error).with_meta(server_info());
    result.structured_content = structured;
    result
}

/// Whether a request's capabilities declare the Tasks extension.
fn declares_tasks(meta: &m::RequestMetaObject) -> bool {
    let extensions = meta.io_modelcontextprotocol_client_capabilities.extensions.as_ref();
    extensions.is_some_and(|e| e.contains_key(tasks::EXTENSION_ID))
}

/// `{"io.modelcontextprotocol/tasks": {}}`: the Tasks extension, declared.
fn tasks_declared() -> mcp_spec_types::IndexMap<String, m::JSONObject> {
    std::iter::once((tasks::EXTENSION_ID.to_string(), m::JSONObject::new())).collect()
}

fn capabilities() -> m::ServerCapabilities {
    m::ServerCapabilities::new()
        .with_extensions(tasks_declared())
        .with_tools(m::ServerCapabilitiesTools::new().with_list_changed(true))
        .with_prompts(m::ServerCapabilitiesPrompts::new().with_list_changed(true))
        .with_resources(m::ServerCapabilitiesResources::new().with_list_changed(true).with_subscribe(true))
        .with_completions(m::JSONObject::new())
}

fn tools() -> Vec<m::Tool> {
    demo::tools()
        .into_iter()
        .map(|t| {
            let mut input = m::ToolInputSchema::new();
            input.extra.insert("properties", t.properties);
            input.extra.insert("required", json!(t.required));
            let tool = m::Tool::new(t.name, input).with_description(t.description);
            match t.output {
                Some(properties) => {
                    let mut output = m::ToolOutputSchema::new();
                    output.extra.insert("type", json!("object"));
                    output.extra.insert("properties", properties);
                    tool.with_output_schema(output)
                }
                None => tool,
            }
        })
        .collect()
}

/// The request that asks for one answer, carried in `inputRequests`.
#[allow(deprecated)] // sampling and roots are deprecated in 2026-07-28 (SEP-2577) but still on the wire
fn input_request(ask: &Ask) -> m::InputRequest {
    match ask {
        Ask::Elicit { message, field, kind, .. } => {
            let schema: m::PrimitiveSchemaDefinition = match *kind {
                "integer" => m::NumberSchema::new(m::NumberSchemaType::Integer).with_title(capitalized(field)).into(),
                _ => m::StringSchema::new().with_title(capitalized(field)).into(),
            };
            let properties = mcp_spec_types::IndexMap::from_iter([(field.to_string(), schema)]);
            let requested =
                m::ElicitRequestFormParamsRequestedSchema::new(properties).with_required(vec![field.to_string()]);
            let params = m::ElicitRequestFormParams::new(message.clone(), requested)
                .with_mode(m::ElicitRequestFormParamsMode::Form);
            m::ElicitRequest::new(params).into()
        }
        Ask::Sample { prompt, .. } => {
            let message = m::SamplingMessage::new(
                m::Role::User,
                m::SamplingMessageContentBlock::from(m::TextContent::new(prompt.clone())),
            );
            m::CreateMessageRequest::new(m::CreateMessageRequestParams::new(vec![message], 50)).into()
        }
        Ask::Roots { .. } => m::ListRootsRequest::new().into(),
    }
}

/// What a client's answer is to the tool's logic.
#[allow(deprecated)] // sampling and roots: see `input_request`
fn answer_of(response: m::InputResponse) -> Value {
    match response {
        m::InputResponse::ElicitResult(e) if e.action == m::ElicitResultAction::Accept => {
            serde_json::to_value(e.content.unwrap_or_default()).unwrap_or_default()
        }
        m::InputResponse::ElicitResult(_) => Value::Null,
        m::InputResponse::CreateMessageResult(c) => {
            let text = match c.content {
                m::SamplingMessageContent::SamplingMessageContentBlock(
                    m::SamplingMessageContentBlock::TextContent(t),
                ) => t.text,
                _ => "?".into(),
            };
            Value::String(text)
        }
        m::InputResponse::ListRootsResult(r) => json!(r.roots.iter().map(|root| root.uri.clone()).collect::<Vec<_>>()),
    }
}

/// The capabilities the asks need that the request's `_meta` does not declare.
#[allow(deprecated)] // sampling and roots: see `input_request`
fn missing_capability(asks: &[Ask], declared: &m::ClientCapabilities) -> Option<m::ClientCapabilities> {
    let mut missing = m::ClientCapabilities::new();
    let mut any = false;
    for ask in asks {
        match ask {
            Ask::Elicit { .. } if declared.elicitation.as_ref().is_none_or(|e| e.form.is_none() && e.url.is_some()) => {
                missing.elicitation = Some(m::ClientCapabilitiesElicitation::new().with_form(m::JSONObject::new()));
                any = true;
            }
            Ask::Sample { .. } if declared.sampling.is_none() => {
                missing.sampling = Some(m::ClientCapabilitiesSampling::new());
                any = true;
            }
            Ask::Roots { .. } if declared.roots.is_none() => {
                missing.roots = Some(m::ClientCapabilitiesRoots::new());
                any = true;
            }
            _ => {}
        }
    }
    any.then_some(missing)
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
