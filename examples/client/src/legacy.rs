//! The 2025-11-25 era: the `initialize` handshake, then the server's tools,
//! prompts and resources. This client declares no capabilities here, so a
//! request from the server gets "method not found".

use mcp_spec_types::negotiate::{Offer, negotiate};
use mcp_spec_types::{PROTOCOL_VERSIONS, Request, v2025_11_25 as l};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::Summary;
use crate::wire::{Error, Peer, round_trip};

fn check(v: &Value) -> Result<(), Error> {
    round_trip::<l::JSONRPCMessage>(v, "a 2025-11-25 JSONRPCMessage").map(drop)
}

/// Sends a typed request and reads its typed result, answering what the server
/// asks meanwhile.
fn call<R>(peer: &mut Peer, make: impl FnOnce(i64) -> R) -> Result<R::Result, Error>
where
    R: Request + Serialize,
    R::Result: DeserializeOwned + Serialize,
{
    match call_or_error(peer, make)? {
        Ok(result) => Ok(result),
        Err(error) => Err(format!("{} failed: {}", R::METHOD, serde_json::to_string(&error).unwrap_or_default())),
    }
}

/// [`call`], with an error response as the typed error it is.
fn call_or_error<R>(peer: &mut Peer, make: impl FnOnce(i64) -> R) -> Result<Result<R::Result, l::Error>, Error>
where
    R: Request + Serialize,
    R::Result: DeserializeOwned + Serialize,
{
    let id = peer.next_id();
    peer.send(&make(id))?;
    let want = Value::from(id);
    loop {
        let msg = peer.receive(check)?;
        if msg.get("method").is_some() {
            peer.summary.unsolicited += 1;
            match msg.get("id") {
                Some(their) => {
                    let their: l::RequestId = serde_json::from_value(their.clone()).map_err(|e| e.to_string())?;
                    peer.send(&l::JSONRPCErrorResponse::new(
                        Some(their),
                        l::Error::new(l::METHOD_NOT_FOUND, "not offered"),
                    ))?;
                }
                None => drop(round_trip::<l::ServerNotification>(&msg, "ServerNotification")?),
            }
            continue;
        }
        if msg.get("id") != Some(&want) {
            continue;
        }
        if let Some(error) = msg.get("error") {
            return round_trip::<l::Error>(error, "Error").map(Err);
        }
        let result = msg.get("result").ok_or_else(|| format!("{}: a response without a result", R::METHOD))?;
        return round_trip::<R::Result>(result, R::METHOD).map(Ok);
    }
}

pub fn run(mut peer: Peer) -> Result<Summary, Error> {
    let info = l::Implementation::new("mcp-spec-example-client", env!("CARGO_PKG_VERSION"))
        .with_title("mcp-spec example client");
    let params = l::InitializeRequestParams::new(l::LATEST_PROTOCOL_VERSION, l::ClientCapabilities::default(), info);
    let init = call(&mut peer, |id| l::InitializeRequest::new(id, params))?;
    // The server answers with the version it speaks; this client must speak it too.
    let version = negotiate(Offer::Answered(&init.protocol_version), PROTOCOL_VERSIONS)
        .ok_or_else(|| format!("the server chose {}, which this client does not speak", init.protocol_version))?;
    peer.summary.step("server", format!("{} {}", init.server_info.name, init.server_info.version));
    peer.summary.step("protocol version", version);
    peer.send(&l::InitializedNotification::new())?;

    // Only what the server declared is asked for: each area it did not is said, and skipped.
    let offered = &init.capabilities;
    let not_offered = |peer: &mut Peer, capability: &str| {
        peer.summary.step(capability, format!("not offered: the server declares no `{capability}`"));
    };
    if offered.tools.is_some() {
        tools(&mut peer)?;
    } else {
        not_offered(&mut peer, "tools");
    }
    let prompts = match offered.prompts {
        Some(_) => {
            let prompts = call(&mut peer, l::ListPromptsRequest::new)?;
            peer.summary.step("prompts", prompts.prompts.len().to_string());
            Some(prompts)
        }
        None => {
            not_offered(&mut peer, "prompts");
            None
        }
    };
    if let Some(prompts) = prompts {
        // A prompt without required arguments.
        let prompt = prompts
            .prompts
            .iter()
            .find(|p| p.arguments.as_ref().is_none_or(|a| a.iter().all(|arg| arg.required != Some(true))))
            .ok_or("no prompt without required arguments")?;
        let params = l::GetPromptRequestParams::new(prompt.name.clone());
        let got = call(&mut peer, |id| l::GetPromptRequest::new(id, params))?;
        peer.summary.step("prompt messages", got.messages.len().to_string());
    }
    if offered.resources.is_some() {
        let resources = call(&mut peer, l::ListResourcesRequest::new)?;
        let templates = call(&mut peer, l::ListResourceTemplatesRequest::new)?;
        peer.summary.step(
            "resources",
            format!("{} (+ {} templates)", resources.resources.len(), templates.resource_templates.len()),
        );
        let uri = resources.resources.first().map(|r| r.uri.clone()).ok_or("the server lists no resources")?;
        let read = call(&mut peer, |id| l::ReadResourceRequest::new(id, l::ReadResourceRequestParams::new(uri)))?;
        peer.summary.step("resource contents", read.contents.len().to_string());
    } else {
        not_offered(&mut peer, "resources");
    }
    Ok(std::mem::take(&mut peer.summary))
}

/// Lists the tools and calls each.
fn tools(peer: &mut Peer) -> Result<(), Error> {
    let tools = call(peer, l::ListToolsRequest::new)?;
    peer.summary.step("tools", tools.tools.len().to_string());

    // Every tool, with arguments built from its input schema (echo's message
    // said, each other property a value of its type): each answer typed, a
    // tool's error (`isError`) and a JSON-RPC error counted apart.
    let (mut ok, mut tool_errors, mut errors) = (0, Vec::new(), Vec::new());
    for tool in &tools.tools {
        // The input schema as a JSON object (2025-11-25 types its `properties`
        // and `required`; the rest of JSON Schema is kept as unknown members).
        let schema = serde_json::to_value(&tool.input_schema).map_err(|e| e.to_string())?;
        let schema = mcp_spec_types::Extra::try_from(schema).map_err(|e| e.to_string())?;
        let mut args = crate::arguments_for(&schema, true);
        if tool.name == "echo" {
            args.insert("message", Value::from("hello from Rust"));
        }
        let params = l::CallToolRequestParams::new(tool.name.clone()).with_arguments(args);
        match call_or_error(peer, |id| l::CallToolRequest::new(id, params))? {
            Ok(called) if called.is_error == Some(true) => tool_errors.push(tool.name.clone()),
            Ok(called) => {
                ok += 1;
                if tool.name == "echo" {
                    let shown = match called.content.first() {
                        Some(l::ContentBlock::TextContent(t)) => format!("{}: {:?}", tool.name, t.text),
                        Some(other) => format!("{}: {}", tool.name, other.member_name()),
                        None => format!("{}: no content", tool.name),
                    };
                    peer.summary.step("tool call", shown);
                }
            }
            Err(error) => errors.push(format!("{} ({})", tool.name, error.code)),
        }
    }
    peer.summary.step(
        "tools called",
        format!(
            "{} of {}: {ok} answered, {} with isError {tool_errors:?}, {} JSON-RPC errors {errors:?}",
            ok + tool_errors.len() + errors.len(),
            tools.tools.len(),
            tool_errors.len(),
            errors.len()
        ),
    );
    Ok(())
}
