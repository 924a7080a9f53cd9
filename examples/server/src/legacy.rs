//! The 2025-11-25 era: the `initialize` handshake (the version answered by
//! [`negotiate`](mcp_spec_types::negotiate)), then requests; a tool that needs
//! the user's input asks with requests of its own to the client
//! (`elicitation/create`, `sampling/createMessage`, `roots/list`) and waits for
//! their responses before it answers.

use mcp_spec_types::negotiate::{Offer, negotiate};
use mcp_spec_types::v2025_11_25 as l;
use serde_json::{Map, Value, json};

use crate::demo::{self, Ask, Step};
use crate::{Wire, parse_error};

/// The handshake versions answered (their messages are 2025-11-25's for this server).
const VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

struct Server<'w> {
    wire: &'w mut Wire,
    /// The client's capabilities from `initialize`.
    client: Option<l::ClientCapabilities>,
    /// The ids of the requests this server sends: its own counter, as strings, so
    /// they never look like the client's.
    next_id: u64,
}

pub fn serve(wire: &mut Wire) {
    let mut server = Server { wire, client: None, next_id: 1 };
    while let Some(line) = server.wire.recv() {
        match serde_json::from_str::<l::JSONRPCMessage>(&line) {
            Err(e) => parse_error(server.wire, e),
            Ok(l::JSONRPCMessage::JSONRPCRequest(_)) => server.request(&line),
            // `notifications/initialized`, cancellations, progress: nothing to do.
            Ok(l::JSONRPCMessage::JSONRPCNotification(_)) => {}
            Ok(l::JSONRPCMessage::JSONRPCResponse(_)) => {}
        }
    }
}

fn ok(id: l::RequestId, result: impl Into<l::Result>) -> l::JSONRPCResultResponse {
    l::JSONRPCResultResponse::new(id, result)
}

impl Server<'_> {
    fn error(&mut self, id: l::RequestId, error: impl Into<l::Error>) {
        self.wire.send(&l::JSONRPCErrorResponse::new(Some(id), error));
    }

    fn request(&mut self, line: &str) {
        let request: l::ClientRequest = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => {
                let id = serde_json::from_str::<l::JSONRPCRequest>(line).map(|r| r.id).ok();
                let error: l::Error = l::Error::new(l::INVALID_PARAMS, e.to_string());
                return self.wire.send(&l::JSONRPCErrorResponse::new(id, error));
            }
        };
        use l::ClientRequest as R;
        match request {
            R::InitializeRequest(r) => {
                let version = negotiate(Offer::Initialize(&r.params.protocol_version), VERSIONS)
                    .unwrap_or(l::LATEST_PROTOCOL_VERSION);
                self.client = Some(r.params.capabilities);
                let result = l::InitializeResult::new(
                    version,
                    capabilities(),
                    l::Implementation::new(demo::NAME, demo::VERSION),
                )
                .with_instructions(demo::INSTRUCTIONS);
                self.wire.send(&ok(r.id, result));
            }
            _ if self.client.is_none() => {
                let id = serde_json::from_str::<l::JSONRPCRequest>(line).map(|r| r.id).ok();
                let error: l::Error = l::Error::new(l::INVALID_REQUEST, "send `initialize` first");
                self.wire.send(&l::JSONRPCErrorResponse::new(id, error));
            }
            R::PingRequest(r) => self.wire.send(&ok(r.id, l::Result::new())),
            R::ListToolsRequest(r) => self.wire.send(&ok(r.id, l::ListToolsResult::new(tools()))),
            R::CallToolRequest(r) => {
                let args = r.params.arguments.clone().unwrap_or_default();
                let args: Map<String, Value> = args.into_iter().collect();
                let token = r.params.meta.as_ref().and_then(|m| m.progress_token.clone());
                let result = self.call_tool(&r.params.name, &args, token);
                self.wire.send(&ok(r.id, result));
            }
            R::ListPromptsRequest(r) => {
                let greet = l::Prompt::new("greet").with_description("Greet someone.").with_arguments(vec![
                    l::PromptArgument::new("name").with_required(true),
                    l::PromptArgument::new("style"),
                ]);
                self.wire.send(&ok(r.id, l::ListPromptsResult::new(vec![greet])));
            }
            R::GetPromptRequest(r) => {
                let args = r.params.arguments.clone().unwrap_or_default();
                if r.params.name != "greet" {
                    let name = r.params.name.clone();
                    return self.error(r.id, l::Error::new(l::INVALID_PARAMS, format!("Unknown prompt: {name}")));
                }
                let name = args.get("name").map(String::as_str).unwrap_or("you");
                let style = args.get("style").map(String::as_str).unwrap_or("friendly");
                let message = l::PromptMessage::new(l::Role::User, l::TextContent::new(demo::greeting(name, style)));
                self.wire.send(&ok(r.id, l::GetPromptResult::new(vec![message])));
            }
            R::ListResourcesRequest(r) => {
                let readme = l::Resource::new("readme", demo::README_URI)
                    .with_mime_type("text/plain")
                    .with_description("Static text resource");
                self.wire.send(&ok(r.id, l::ListResourcesResult::new(vec![readme])));
            }
            R::ListResourceTemplatesRequest(r) => {
                let user = l::ResourceTemplate::new("user", demo::USER_TEMPLATE)
                    .with_mime_type("application/json")
                    .with_description("User by id");
                self.wire.send(&ok(r.id, l::ListResourceTemplatesResult::new(vec![user])));
            }
            R::ReadResourceRequest(r) => match demo::read(&r.params.uri) {
                Some((mime, text)) => {
                    let contents = l::TextResourceContents::new(r.params.uri.clone(), text).with_mime_type(mime);
                    self.wire.send(&ok(r.id, l::ReadResourceResult::new(vec![contents.into()])));
                }
                None => {
                    let uri = r.params.uri.clone();
                    let error: l::Error = l::Error::new(l::INVALID_PARAMS, format!("Unknown resource: {uri}"));
                    self.error(r.id, error.with_data(json!({"uri": uri})));
                }
            },
            R::CompleteRequest(r) => {
                let on = match &r.params.r#ref {
                    l::CompleteRequestParamsRef::PromptReference(p) => p.name.clone(),
                    l::CompleteRequestParamsRef::ResourceTemplateReference(t) => t.uri.clone(),
                };
                let values = demo::complete(&on, &r.params.argument.name, &r.params.argument.value);
                let completion = l::CompleteResultCompletion::new(values.clone())
                    .with_total(values.len() as i64)
                    .with_has_more(false);
                self.wire.send(&ok(r.id, l::CompleteResult::new(completion)));
            }
            other => {
                let id = serde_json::from_str::<l::JSONRPCRequest>(line).map(|r| r.id).ok();
                let error: l::Error = l::Error::new(l::METHOD_NOT_FOUND, "Method not found");
                let method = match &other {
                    R::Other(generic) => generic.method.clone(),
                    known => known.member_name().to_string(),
                };
                self.wire.send(&l::JSONRPCErrorResponse::new(id, error.with_data(Value::String(method))));
            }
        }
    }

    fn call_tool(
        &mut self,
        name: &str,
        args: &Map<String, Value>,
        token: Option<l::ProgressToken>,
    ) -> l::CallToolResult {
        let mut answers = Map::new();
        loop {
            match demo::step(name, args, &answers) {
                Step::Ask(asks) => {
                    for ask in asks {
                        match self.ask(&ask) {
                            Ok(answer) => {
                                answers.insert(ask.key().to_string(), answer);
                            }
                            Err(why) => return done(why, None, true),
                        }
                    }
                }
                Step::Count(n) => {
                    if let Some(token) = &token {
                        for i in 1..=n {
                            let params = l::ProgressNotificationParams::new(token.clone(), i as f64)
                                .with_total(n as f64)
                                .with_message(format!("step {i}"));
                            self.wire.send(&l::ProgressNotification::new(params));
                        }
                    }
                    return done(n.to_string(), Some(json!({"result": n})), false);
                }
                // This era has no `subscriptions/listen`: nothing to tell.
                Step::Touch => return done("published".into(), None, false),
                Step::Done { text, structured, is_error } => return done(text, structured, is_error),
            }
        }
    }

    /// Asks the client, waits for its answer (handling nothing else meanwhile:
    /// other messages are kept for later) and returns it as the tool's logic takes it.
    fn ask(&mut self, ask: &Ask) -> Result<Value, String> {
        let id = l::RequestId::from(format!("server-{}", self.next_id));
        self.next_id += 1;
        let declared = self.client.clone().unwrap_or_default();
        match ask {
            Ask::Elicit { message, field, kind, .. } => {
                if declared.elicitation.is_none() {
                    return Err("the client did not declare elicitation".into());
                }
                let schema: l::PrimitiveSchemaDefinition = match *kind {
                    "integer" => {
                        l::NumberSchema::new(l::NumberSchemaType::Integer).with_title(capitalized(field)).into()
                    }
                    _ => l::StringSchema::new().with_title(capitalized(field)).into(),
                };
                let properties = mcp_spec_types::IndexMap::from_iter([(field.to_string(), schema)]);
                let requested =
                    l::ElicitRequestFormParamsRequestedSchema::new(properties).with_required(vec![field.to_string()]);
                let params = l::ElicitRequestFormParams::new(message.clone(), requested)
                    .with_mode(l::ElicitRequestFormParamsMode::Form);
                self.wire.send(&l::ElicitRequest::new(id.clone(), params));
                let result: l::ElicitResult = self.answer(&id)?;
                match result.action {
                    l::ElicitResultAction::Accept => {
                        Ok(serde_json::to_value(result.content.unwrap_or_default()).unwrap_or_default())
                    }
                    other => Err(format!("the user answered {other}")),
                }
            }
            Ask::Sample { prompt, .. } => {
                if declared.sampling.is_none() {
                    return Err("the client did not declare sampling".into());
                }
                let message = l::SamplingMessage::new(
                    l::Role::User,
                    l::SamplingMessageContentBlock::from(l::TextContent::new(prompt.clone())),
                );
                self.wire.send(&l::CreateMessageRequest::new(
                    id.clone(),
                    l::CreateMessageRequestParams::new(vec![message], 50),
                ));
                let result: l::CreateMessageResult = self.answer(&id)?;
                Ok(Value::String(match result.content {
                    l::SamplingMessageContent::SamplingMessageContentBlock(
                        l::SamplingMessageContentBlock::TextContent(t),
                    ) => t.text,
                    _ => "?".into(),
                }))
            }
            Ask::Roots { .. } => {
                if declared.roots.is_none() {
                    return Err("the client did not declare roots".into());
                }
                self.wire.send(&l::ListRootsRequest::new(id.clone()));
                let result: l::ListRootsResult = self.answer(&id)?;
                Ok(json!(result.roots.iter().map(|r| r.uri.clone()).collect::<Vec<_>>()))
            }
        }
    }

    /// The result of the client's response to `id`, read as `T`.
    fn answer<T: serde::de::DeserializeOwned>(&mut self, id: &l::RequestId) -> Result<T, String> {
        let mut later = Vec::new();
        let outcome = loop {
            let Some(line) = self.wire.recv_fresh() else { break Err("the client went away".to_string()) };
            match serde_json::from_str::<l::JSONRPCMessage>(&line) {
                Ok(l::JSONRPCMessage::JSONRPCResponse(l::JSONRPCResponse::JSONRPCResultResponse(r))) if r.id == *id => {
                    break serde_json::to_value(&r.result)
                        .and_then(serde_json::from_value)
                        .map_err(|e| format!("the client's answer: {e}"));
                }
                Ok(l::JSONRPCMessage::JSONRPCResponse(l::JSONRPCResponse::JSONRPCErrorResponse(e)))
                    if e.id == Some(Some(id.clone())) =>
                {
                    break Err(format!("the client answered with an error: {}", e.error));
                }
                _ => later.push(line),
            }
        };
        for line in later {
            self.wire.queue(line);
        }
        outcome
    }
}

fn done(text: String, structured: Option<Value>, is_error: bool) -> l::CallToolResult {
    let mut result = l::CallToolResult::new(vec![l::TextContent::new(text).into()]).with_is_error(is_error);
    result.structured_content = structured.and_then(|v| v.as_object().map(|o| o.clone().into_iter().collect()));
    result
}

fn capabilities() -> l::ServerCapabilities {
    l::ServerCapabilities::new()
        .with_tools(l::ServerCapabilitiesTools::new().with_list_changed(false))
        .with_prompts(l::ServerCapabilitiesPrompts::new().with_list_changed(false))
        .with_resources(l::ServerCapabilitiesResources::new().with_list_changed(false).with_subscribe(false))
        .with_completions(mcp_spec_types::Extra::new())
}

fn tools() -> Vec<l::Tool> {
    demo::tools()
        .into_iter()
        .map(|t| {
            let properties: mcp_spec_types::IndexMap<String, mcp_spec_types::Extra> = t
                .properties
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), v.as_object().cloned().unwrap_or_default().into_iter().collect()))
                .collect();
            let input = l::ToolInputSchema::new()
                .with_properties(properties)
                .with_required(t.required.iter().map(|s| s.to_string()).collect());
            let tool = l::Tool::new(t.name, input).with_description(t.description);
            match t.output {
                Some(out) => {
                    let properties = out
                        .as_object()
                        .into_iter()
                        .flatten()
                        .map(|(k, v)| (k.clone(), v.as_object().cloned().unwrap_or_default().into_iter().collect()))
                        .collect();
                    tool.with_output_schema(l::ToolOutputSchema::new().with_properties(properties))
                }
                None => tool,
            }
        })
        .collect()
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
