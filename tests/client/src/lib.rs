//! An MCP client over stdio built on `mcp-spec-types`: it probes a server the
//! way the 2026-07-28 spec tells a modern client to (`server/discover`), falls
//! back to the 2025-11-25 `initialize` handshake when the server is older, then
//! lists and uses what the server offers. Every message the server sends is read
//! with the generated types and written back, and must come out JSON-equal:
//! nothing dropped, nothing invented.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use mcp_spec_types::{Extra, Request, v2025_11_25 as legacy, v2026_07_28 as modern};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// What a session with a server found.
#[derive(Debug, Default)]
pub struct Summary {
    /// How the server answered `server/discover`.
    pub discovery: String,
    /// The protocol version both sides settled on.
    pub protocol_version: String,
    pub server: String,
    pub tools: usize,
    pub resources: usize,
    pub resource_templates: usize,
    pub prompts: usize,
    /// What the tool call, the prompt and the resource read gave back.
    pub tool_call: String,
    pub prompt_messages: usize,
    pub resource_contents: usize,
    /// Messages from the server read with the generated types and written back equal.
    pub messages_checked: usize,
    /// Notifications and requests the server sent on its own.
    pub unsolicited: usize,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "server:            {}", self.server)?;
        writeln!(f, "discovery:         {}", self.discovery)?;
        writeln!(f, "protocol version:  {}", self.protocol_version)?;
        writeln!(f, "tools:             {}", self.tools)?;
        writeln!(f, "resources:         {} (+ {} templates)", self.resources, self.resource_templates)?;
        writeln!(f, "prompts:           {}", self.prompts)?;
        writeln!(f, "tool call:         {}", self.tool_call)?;
        writeln!(f, "prompt messages:   {}", self.prompt_messages)?;
        writeln!(f, "resource contents: {}", self.resource_contents)?;
        write!(
            f,
            "messages checked:  {} (all written back JSON-equal; {} unsolicited)",
            self.messages_checked, self.unsolicited
        )
    }
}

/// A server process and the lines it writes on stdout.
pub struct Peer {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    next_id: i64,
    summary: Summary,
    timeout: Duration,
}

type Error = String;

impl Peer {
    /// Starts `command` with `args`; its stderr is passed through (servers log there).
    pub fn spawn(command: &str, args: &[String]) -> Result<Peer, Error> {
        let mut child = Command::new(command)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Peer { child, stdin, lines, next_id: 0, summary: Summary::default(), timeout: Duration::from_secs(30) })
    }

    fn send<T: Serialize>(&mut self, message: &T) -> Result<(), Error> {
        let text = serde_json::to_string(message).map_err(|e| e.to_string())?;
        writeln!(self.stdin, "{text}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))
    }

    /// The next message on stdout: JSON (anything else there is an error), read
    /// as a 2025-11-25 `JSONRPCMessage` and written back equal.
    fn receive(&mut self) -> Result<Value, Error> {
        let line = match self.lines.recv_timeout(self.timeout) {
            Ok(Ok(line)) => line,
            Ok(Err(e)) => return Err(format!("cannot read from the server: {e}")),
            Err(RecvTimeoutError::Timeout) => return Err("the server did not answer in time".into()),
            Err(RecvTimeoutError::Disconnected) => return Err("the server closed its stdout".into()),
        };
        let raw: Value =
            serde_json::from_str(&line).map_err(|e| format!("the server wrote non-JSON to stdout ({e}): {line}"))?;
        round_trip::<legacy::JSONRPCMessage>(&raw, "JSONRPCMessage")?;
        self.summary.messages_checked += 1;
        Ok(raw)
    }

    /// Waits for the response to request `id`, answering what the server asks
    /// meanwhile: notifications are read and kept, requests get a "method not
    /// found" (this client offers no capabilities).
    fn response_to(&mut self, id: &legacy::RequestId) -> Result<Value, Error> {
        let want = serde_json::to_value(id).map_err(|e| e.to_string())?;
        loop {
            let msg = self.receive()?;
            if msg.get("method").is_some() {
                self.summary.unsolicited += 1;
                if let Some(their_id) = msg.get("id") {
                    let refusal = json!({"jsonrpc": "2.0", "id": their_id, "error": {"code": legacy::METHOD_NOT_FOUND, "message": "not offered"}});
                    let typed: legacy::JSONRPCErrorResponse =
                        serde_json::from_value(refusal).map_err(|e| e.to_string())?;
                    self.send(&typed)?;
                } else {
                    round_trip::<legacy::ServerNotification>(&msg, "ServerNotification")?;
                }
                continue;
            }
            if msg.get("id") == Some(&want) {
                return Ok(msg);
            }
        }
    }

    fn next_id(&mut self) -> legacy::RequestId {
        self.next_id += 1;
        legacy::RequestId::Integer(self.next_id)
    }

    /// Sends a typed request and reads its typed result, which must write back
    /// equal to what came over the wire.
    pub fn call<R>(&mut self, make: impl FnOnce(legacy::RequestId) -> R) -> Result<R::Result, Error>
    where
        R: Request + Serialize,
        R::Result: DeserializeOwned + Serialize,
    {
        let id = self.next_id();
        let request = make(id.clone());
        self.send(&request)?;
        let response = self.response_to(&id)?;
        if let Some(error) = response.get("error") {
            return Err(format!("{} failed: {error}", R::METHOD));
        }
        let result = response.get("result").ok_or_else(|| format!("{}: a response without a result", R::METHOD))?;
        round_trip::<R::Result>(result, R::METHOD)
    }

    /// The whole session: probe, handshake, list, use.
    pub fn run(mut self) -> Result<Summary, Error> {
        self.discover()?;
        self.initialize()?;
        let tools = self.call(|id| legacy::ListToolsRequest { params: None, id, extra: Extra::new() })?;
        self.summary.tools = tools.tools.len();
        let resources = self.call(|id| legacy::ListResourcesRequest { params: None, id, extra: Extra::new() })?;
        self.summary.resources = resources.resources.len();
        let templates =
            self.call(|id| legacy::ListResourceTemplatesRequest { params: None, id, extra: Extra::new() })?;
        self.summary.resource_templates = templates.resource_templates.len();
        let prompts = self.call(|id| legacy::ListPromptsRequest { params: None, id, extra: Extra::new() })?;
        self.summary.prompts = prompts.prompts.len();

        // Call a tool that needs no input of its own, or echo if there is one.
        let tool = tools
            .tools
            .iter()
            .find(|t| t.name == "echo")
            .or_else(|| tools.tools.first())
            .ok_or("the server has no tools")?;
        let arguments = (tool.name == "echo")
            .then(|| mcp_spec_types::IndexMap::from_iter([("message".to_string(), json!("hello from Rust"))]));
        let name = tool.name.clone();
        let called = self.call(|id| legacy::CallToolRequest {
            params: legacy::CallToolRequestParams { meta: None, task: None, name, arguments, extra: Extra::new() },
            id,
            extra: Extra::new(),
        })?;
        self.summary.tool_call = match called.content.first() {
            Some(legacy::ContentBlock::TextContent(t)) => format!("{}: {:?}", tool.name, t.text),
            Some(other) => format!("{}: {}", tool.name, other.member_name()),
            None => format!("{}: no content", tool.name),
        };

        // A prompt without required arguments.
        let prompt = prompts
            .prompts
            .iter()
            .find(|p| p.arguments.as_ref().is_none_or(|a| a.iter().all(|arg| arg.required != Some(true))))
            .ok_or("no prompt without required arguments")?;
        let name = prompt.name.clone();
        let got = self.call(|id| legacy::GetPromptRequest {
            params: legacy::GetPromptRequestParams { meta: None, name, arguments: None, extra: Extra::new() },
            id,
            extra: Extra::new(),
        })?;
        self.summary.prompt_messages = got.messages.len();

        let uri = resources.resources.first().map(|r| r.uri.clone()).ok_or("the server lists no resources")?;
        let read = self.call(|id| legacy::ReadResourceRequest {
            params: legacy::ReadResourceRequestParams { meta: None, uri, extra: Extra::new() },
            id,
            extra: Extra::new(),
        })?;
        self.summary.resource_contents = read.contents.len();
        Ok(std::mem::take(&mut self.summary))
    }

    /// `server/discover` with 2026-07-28 `_meta`. A `DiscoverResult` would mean a
    /// modern server; "method not found", or any answer that is neither that
    /// nor a modern error, means an older one, and the legacy handshake follows.
    fn discover(&mut self) -> Result<(), Error> {
        let id = self.next_id();
        let request: modern::DiscoverRequest = serde_json::from_value(json!({
            "jsonrpc": "2.0", "id": id, "method": modern::DiscoverRequest::METHOD,
            "params": {"_meta": {
                "io.modelcontextprotocol/protocolVersion": modern::LATEST_PROTOCOL_VERSION,
                "io.modelcontextprotocol/clientInfo": {"name": "mcp-spec-example-client", "version": env!("CARGO_PKG_VERSION")},
                "io.modelcontextprotocol/clientCapabilities": {}
            }}
        }))
        .map_err(|e| format!("building server/discover: {e}"))?;
        self.send(&request)?;
        let answer = self.response_to(&id)?;
        if let Some(result) = answer.get("result") {
            let found = round_trip::<modern::DiscoverResult>(result, "server/discover")?;
            return Err(format!(
                "the server speaks {:?}: a modern server, which this example does not go on with",
                found.supported_versions
            ));
        }
        let code = answer.pointer("/error/code").and_then(Value::as_i64);
        let modern_refusals =
            [modern::HEADER_MISMATCH, modern::UNSUPPORTED_PROTOCOL_VERSION, modern::MISSING_REQUIRED_CLIENT_CAPABILITY];
        if let Some(code) = code.filter(|c| modern_refusals.contains(c)) {
            return Err(format!("the server is modern but refused server/discover with {code}: {answer}"));
        }
        round_trip::<modern::JSONRPCErrorResponse>(&answer, "server/discover error")?;
        self.summary.discovery = match code {
            Some(modern::METHOD_NOT_FOUND) => "method not found (-32601): a server older than 2026-07-28".into(),
            other => format!("an answer that is not a DiscoverResult (code {other:?}): treated as older"),
        };
        Ok(())
    }

    /// The 2025-11-25 handshake: `initialize`, then `notifications/initialized`.
    fn initialize(&mut self) -> Result<(), Error> {
        let client_info = legacy::Implementation {
            name: "mcp-spec-example-client".into(),
            title: Some("mcp-spec example client".into()),
            icons: None,
            version: env!("CARGO_PKG_VERSION").into(),
            description: None,
            website_url: None,
            extra: Extra::new(),
        };
        let capabilities: legacy::ClientCapabilities = serde_json::from_value(json!({})).map_err(|e| e.to_string())?;
        let result = self.call(|id| legacy::InitializeRequest {
            params: legacy::InitializeRequestParams {
                meta: None,
                protocol_version: legacy::LATEST_PROTOCOL_VERSION.into(),
                capabilities,
                client_info,
                extra: Extra::new(),
            },
            id,
            extra: Extra::new(),
        })?;
        self.summary.protocol_version = result.protocol_version.clone();
        self.summary.server = format!("{} {}", result.server_info.name, result.server_info.version);
        if mcp_spec_types::registry::revision_for_protocol_version(&result.protocol_version).is_none() {
            return Err(format!("the server chose {}, which no revision knows", result.protocol_version));
        }
        let initialized = legacy::InitializedNotification { params: None, extra: Extra::new() };
        self.send(&initialized)
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `raw` as `T`, writes it back, and insists on getting `raw` again.
pub fn round_trip<T: DeserializeOwned + Serialize>(raw: &Value, what: &str) -> Result<T, Error> {
    let typed: T = serde_json::from_value(raw.clone()).map_err(|e| format!("{what}: cannot read {raw}: {e}"))?;
    let back = serde_json::to_value(&typed).map_err(|e| e.to_string())?;
    if &back != raw {
        return Err(format!("{what}: written back differently\n  read:    {raw}\n  written: {back}"));
    }
    Ok(typed)
}
