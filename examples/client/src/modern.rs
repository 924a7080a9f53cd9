//! The 2026-07-28 era, to the end: no handshake, every request carries the
//! protocol version, the client's info and capabilities in its `_meta`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use mcp_spec_types::ext::tasks::draft as tasks;
use mcp_spec_types::negotiate::{Offer, negotiate};
use mcp_spec_types::{PROTOCOL_VERSIONS, Request, v2026_07_28 as m};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::Summary;
use crate::wire::{Error, Peer, round_trip};

/// A request's params with the answers and the `requestState` of the round
/// before, when it is sent again (every 2026-07-28 request that may be
/// answered with `input_required` has both setters).
macro_rules! retried {
    ($params:expr, $answers:expr, $state:expr) => {{
        let mut params = $params;
        if let Some(answers) = $answers {
            params = params.with_input_responses(answers);
        }
        if let Some(state) = $state {
            // Opaque: sent back exactly as it came.
            params = params.with_request_state(state);
        }
        params
    }};
}

/// At most this many `input_required` rounds for one call.
const MAX_ROUNDS: usize = 8;
/// The root this client offers when a server asks for its roots.
const ROOT: &str = "file:///tmp/mcp-spec-example-client";

fn check(v: &Value) -> Result<(), Error> {
    round_trip::<m::JSONRPCMessage>(v, "a 2026-07-28 JSONRPCMessage").map(drop)
}

/// At most this many `tasks/get` polls for one task.
const MAX_POLLS: usize = 50;

/// What this client can do for a server: answer forms, sample, list roots, and
/// take a task handle for a tool call (the Tasks extension).
/// `without` names capabilities not to declare (`sampling`, `elicitation`,
/// `roots`, `tasks`): what a server then refuses with `-32021` is reported.
#[allow(deprecated)] // sampling and roots are deprecated in 2026-07-28 (SEP-2577), and still what servers ask for
fn capabilities(without: &[String]) -> m::ClientCapabilities {
    let has = |c: &str| !without.iter().any(|w| w == c);
    let mut caps = m::ClientCapabilities::new();
    if has("tasks") {
        caps = caps.with_extensions(std::iter::once((tasks::EXTENSION_ID.to_string(), m::JSONObject::new())).collect());
    }
    if has("elicitation") {
        caps = caps.with_elicitation(m::ClientCapabilitiesElicitation::new().with_form(m::JSONObject::new()));
    }
    if has("sampling") {
        caps = caps.with_sampling(m::ClientCapabilitiesSampling::new());
    }
    if has("roots") {
        caps = caps.with_roots(m::ClientCapabilitiesRoots::new());
    }
    caps
}

fn meta_declaring(capabilities: m::ClientCapabilities) -> m::RequestMetaObject {
    m::RequestMetaObject::new(m::LATEST_PROTOCOL_VERSION, capabilities).with_io_modelcontextprotocol_client_info(
        m::Implementation::new("mcp-spec-example-client", env!("CARGO_PKG_VERSION")),
    )
}

/// What `server/discover` found of a modern server.
pub struct Found {
    pub result: m::DiscoverResult,
    pub version: String,
}

/// Sends `server/discover`. `Some` for a modern server whose versions include one
/// this client speaks; `None` for an older server ("method not found", or any
/// answer that is neither a `DiscoverResult` nor a modern refusal).
pub fn discover(peer: &mut Peer, without: &[String]) -> Result<Option<Found>, Error> {
    let id = peer.next_id();
    peer.send(&m::DiscoverRequest::new(id, m::RequestParams::new(meta_declaring(capabilities(without)))))?;
    let answer = response(peer, id, &mut Vec::new())?;
    if let Some(result) = answer.get("result") {
        let result = round_trip::<m::DiscoverResult>(result, "server/discover")?;
        let version = negotiate(Offer::Discovered(&result.supported_versions), &[m::LATEST_PROTOCOL_VERSION])
            .ok_or_else(|| {
                format!(
                    "the server speaks {:?}, none of which this client does ({PROTOCOL_VERSIONS:?})",
                    result.supported_versions
                )
            })?;
        peer.summary.step("discovery", format!("supported {:?}; chose {version}", result.supported_versions));
        return Ok(Some(Found { result, version: version.to_string() }));
    }
    let error = round_trip::<m::JSONRPCErrorResponse>(&answer, "server/discover error")?;
    let refusals = [m::HEADER_MISMATCH, m::UNSUPPORTED_PROTOCOL_VERSION, m::MISSING_REQUIRED_CLIENT_CAPABILITY];
    if refusals.contains(&error.error.code) {
        return Err(format!("the server is modern but refused server/discover: {}", error.error));
    }
    let why = match error.error.code {
        m::METHOD_NOT_FOUND => "method not found (-32601): a server older than 2026-07-28".to_string(),
        code => format!("an answer that is not a DiscoverResult ({code}): treated as older"),
    };
    peer.summary.step("discovery", why);
    Ok(None)
}

/// Waits for the response to `id`; notifications that come meanwhile are kept,
/// requests refused (this era has none from the server).
fn response(peer: &mut Peer, id: i64, notifications: &mut Vec<Value>) -> Result<Value, Error> {
    let want = Value::from(id);
    loop {
        let msg = peer.receive(check)?;
        if msg.get("method").is_some() {
            peer.summary.unsolicited += 1;
            if let Some(their) = msg.get("id") {
                let their: m::RequestId = serde_json::from_value(their.clone()).map_err(|e| e.to_string())?;
                let error: m::Error = m::MethodNotFoundError::new("this client takes no requests in 2026-07-28").into();
                peer.send(&m::JSONRPCErrorResponse::new(Some(their), error))?;
            } else {
                round_trip::<m::ServerNotification>(&msg, "ServerNotification")?;
                notifications.push(msg);
            }
            continue;
        }
        if msg.get("id") == Some(&want) {
            return Ok(msg);
        }
    }
}

/// A list result a client may keep for `ttlMs`.
trait Cacheable {
    fn ttl(&self) -> (i64, String);
}

macro_rules! cacheable {
    ($($t:ty),*) => { $( impl Cacheable for $t { fn ttl(&self) -> (i64, String) { (self.ttl_ms, self.cache_scope.to_string()) } } )* };
}
cacheable!(m::ListToolsResult, m::ListPromptsResult, m::ListResourcesResult, m::ListResourceTemplatesResult);

pub struct Session {
    peer: Peer,
    found: Found,
    /// Fresh list results by method, until their `ttlMs` runs out.
    cache: HashMap<&'static str, (Instant, Value)>,
    notifications: Vec<Value>,
    sent_lists: usize,
    cached_lists: usize,
    /// What this client declares on every request.
    capabilities: m::ClientCapabilities,
    /// What it answered in `input_required` rounds, whichever request asked.
    rounds: Rounds,
}

impl Session {
    pub fn new(peer: Peer, found: Found, without: &[String]) -> Session {
        Session {
            peer,
            found,
            cache: HashMap::new(),
            notifications: Vec::new(),
            sent_lists: 0,
            cached_lists: 0,
            capabilities: capabilities(without),
            rounds: Rounds::default(),
        }
    }

    /// Whether the server declared `completions`: only then is it asked.
    fn completes(&self) -> bool {
        self.found.result.capabilities.completions.is_some()
    }

    fn meta(&self) -> m::RequestMetaObject {
        meta_declaring(self.capabilities.clone())
    }

    fn step(&mut self, name: &str, found: impl Into<String>) {
        self.peer.summary.step(name, found);
    }

    /// Sends a typed request; its typed result (must write back equal), or the error.
    fn call<R>(&mut self, make: impl FnOnce(i64) -> R) -> Result<Result<R::Result, m::Error>, Error>
    where
        R: Request + Serialize,
        R::Result: DeserializeOwned + Serialize,
    {
        let id = self.peer.next_id();
        self.peer.send(&make(id))?;
        let answer = response(&mut self.peer, id, &mut self.notifications)?;
        if answer.get("error").is_some() {
            return Ok(Err(round_trip::<m::JSONRPCErrorResponse>(&answer, R::METHOD)?.error));
        }
        let result = answer.get("result").ok_or_else(|| format!("{}: a response without a result", R::METHOD))?;
        Ok(Ok(round_trip::<R::Result>(result, R::METHOD)?))
    }

    fn must<R>(&mut self, make: impl FnOnce(i64) -> R) -> Result<R::Result, Error>
    where
        R: Request + Serialize,
        R::Result: DeserializeOwned + Serialize,
    {
        self.call(make)?.map_err(|e| format!("{} failed: {e}", R::METHOD))
    }

    /// Sends a request that may be answered with `input_required` (2026-07-28:
    /// `tools/call`, `prompts/get` and `resources/read`, whose params take
    /// `inputResponses` and a `requestState`), as a client must for every such
    /// request: each round's questions answered, and the request sent again
    /// (`make` is given the round, the answers and the state as it came) until
    /// the server answers otherwise, at most [`MAX_ROUNDS`] times. The answer,
    /// typed, and the round it came in.
    fn call_answering<R>(
        &mut self,
        make: impl Fn(i64, usize, Option<m::InputResponses>, Option<String>) -> R,
    ) -> Result<(Result<R::Result, m::Error>, usize), Error>
    where
        R: Request + Serialize,
        R::Result: DeserializeOwned + Serialize,
    {
        let input_required = serde_json::to_value(m::ResultType::InputRequired).map_err(|e| e.to_string())?;
        let (mut answers, mut state) = (None, None);
        for round in 1..=MAX_ROUNDS {
            let id = self.peer.next_id();
            self.peer.send(&make(id, round, answers.take(), state.take()))?;
            let reply = response(&mut self.peer, id, &mut self.notifications)?;
            if reply.get("error").is_some() {
                return Ok((Err(round_trip::<m::JSONRPCErrorResponse>(&reply, R::METHOD)?.error), round));
            }
            let result = reply.get("result").ok_or_else(|| format!("{}: a response without a result", R::METHOD))?;
            if result.get("resultType") != Some(&input_required) {
                return Ok((Ok(round_trip::<R::Result>(result, R::METHOD)?), round));
            }
            let more = round_trip::<m::InputRequiredResult>(result, R::METHOD)?;
            if more.input_requests.is_none() && more.request_state.is_none() {
                return Err(format!(
                    "{}: an InputRequiredResult with neither inputRequests nor requestState",
                    R::METHOD
                ));
            }
            let rounds = &mut self.rounds;
            answers =
                more.input_requests.map(|asks| asks.into_iter().map(|(k, ask)| (k, answer(ask, rounds))).collect());
            // Opaque: sent back exactly as it came.
            state = more.request_state;
        }
        Err(format!("{}: still asking for input after {MAX_ROUNDS} rounds", R::METHOD))
    }

    /// A list, from the cache while its `ttlMs` lasts.
    fn list<R>(&mut self, make: impl FnOnce(i64) -> R) -> Result<R::Result, Error>
    where
        R: Request + Serialize,
        R::Result: DeserializeOwned + Serialize + Cacheable,
    {
        if let Some((until, value)) = self.cache.get(R::METHOD)
            && Instant::now() < *until
        {
            self.cached_lists += 1;
            return serde_json::from_value(value.clone()).map_err(|e| e.to_string());
        }
        let result = self.must(make)?;
        self.sent_lists += 1;
        let (ttl, _) = result.ttl();
        if ttl > 0 {
            let value = serde_json::to_value(&result).map_err(|e| e.to_string())?;
            self.cache.insert(R::METHOD, (Instant::now() + Duration::from_millis(ttl as u64), value));
        }
        Ok(result)
    }

    pub fn run(mut self) -> Result<Summary, Error> {
        let info = self.found.result.meta.as_ref().and_then(|m| m.io_modelcontextprotocol_server_info.clone());
        let server = info.map(|i| format!("{} {}", i.name, i.version)).unwrap_or_else(|| "(no serverInfo)".into());
        self.step("server", server);
        let version = self.found.version.clone();
        self.step("protocol version", version);

        // Only what the server declared is asked for: each area it did not is said, and skipped.
        let offered = self.found.result.capabilities.clone();
        let can_touch = match offered.tools {
            Some(_) => self.tools()?,
            None => self.not_offered("tools", false),
        };
        match offered.prompts {
            Some(_) => self.prompts()?,
            None => self.not_offered("prompts", ()),
        }
        let first_resource = match offered.resources {
            Some(_) => self.resources()?,
            None => self.not_offered("resources", None),
        };
        let listens = Listens::of(&offered);
        if listens.any() {
            self.listen(listens, first_resource, can_touch)?;
        } else {
            self.step("listen", "not offered: the server declares no change it notifies of");
        }
        let rounds = self.rounds.to_string();
        self.step("input rounds", rounds);
        self.step("lists", format!("{} sent, {} served from the cache", self.sent_lists, self.cached_lists));
        Ok(std::mem::take(&mut self.peer.summary))
    }

    /// Says that an area of the protocol was not asked for, as the server does
    /// not offer it; `nothing` is what was found there.
    fn not_offered<T>(&mut self, capability: &str, nothing: T) -> T {
        self.step(capability, format!("not offered: the server declares no `{capability}`"));
        nothing
    }

    /// Lists the tools (twice: the second from the cache) and calls each;
    /// whether one of them, `touch`, makes a change to listen for.
    fn tools(&mut self) -> Result<bool, Error> {
        let meta = self.meta();
        let tools = self.list(|id| m::ListToolsRequest::new(id, m::PaginatedRequestParams::new(meta)))?;
        let (ttl, scope) = tools.ttl();
        // Within the TTL a second list is served from the cache: nothing is sent.
        let meta = self.meta();
        let again = self.list(|id| m::ListToolsRequest::new(id, m::PaginatedRequestParams::new(meta)))?;
        let cached =
            if self.cached_lists == 1 && again == tools { "; listed again from the cache, not sent" } else { "" };
        self.step("tools", format!("{} (ttlMs {ttl}, {scope}{cached})", tools.tools.len()));

        let mut refused: Vec<String> = Vec::new();
        let names: Vec<String> = tools.tools.iter().map(|t| t.name.clone()).filter(|n| n != "touch").collect();
        for tool in tools.tools.iter().filter(|t| t.name != "touch") {
            let args = crate::arguments_for(&tool.input_schema.extra, false);
            let (result, how) = match self.call_tool(&tool.name, args) {
                Ok(done) => done,
                // A tool gated on a capability this client did not declare: said, and on to the next.
                Err(Called::Refused(e)) if e.code == m::MISSING_REQUIRED_CLIENT_CAPABILITY => {
                    let needs =
                        e.data.as_ref().and_then(|d| d.get("requiredCapabilities")).cloned().unwrap_or_default();
                    self.step(&format!("call {}", tool.name), format!("refused ({}): needs {needs}", e.code));
                    refused.push(tool.name.clone());
                    continue;
                }
                Err(other) => return Err(other.into()),
            };
            let text: String = result
                .content
                .iter()
                .filter_map(|c| match c {
                    m::ContentBlock::TextContent(t) => Some(t.text.as_str()),
                    _ => None,
                })
                .collect();
            let error = if result.is_error == Some(true) { " (isError)" } else { "" };
            self.step(&format!("call {}", tool.name), format!("{text:?}{how}{error}"));
        }
        let refusals = if refused.is_empty() {
            String::new()
        } else {
            format!("; {} refused for a capability not declared: {}", refused.len(), refused.join(", "))
        };
        self.step("tool calls", format!("{} ({}){refusals}", names.len(), names.join(", ")));
        let progress = self.notifications.iter().filter(|n| n["method"] == m::ProgressNotification::METHOD).count();
        self.step("progress", format!("{progress} notifications"));
        Ok(tools.tools.iter().any(|t| t.name == "touch"))
    }

    /// A tool call, with as many `input_required` rounds as the server needs
    /// (bounded), or a task polled to its end; the result and how it came
    /// (`" after 3 rounds"`, `" from a task polled 3 times"`, or nothing).
    fn call_tool(&mut self, name: &str, args: mcp_spec_types::Extra) -> Result<(m::CallToolResult, String), Called> {
        let meta = self.meta();
        let (answered, round) = self.call_answering(|id, round, answers, state| {
            let token: m::ProgressToken = format!("{name}-{round}").into();
            let params = m::CallToolRequestParams::new(meta.clone().with_progress_token(token), name)
                .with_arguments(args.clone());
            m::CallToolRequest::new(id, retried!(params, answers, state))
        })?;
        match answered.map_err(Called::Refused)? {
            m::CallToolResultResponseResult::CallToolResult(done) => {
                let how = if round > 1 { format!(" after {round} rounds") } else { String::new() };
                Ok((done, how))
            }
            // A task handle: a result kind of the Tasks extension, which the
            // core union keeps whole and the extension's type reads.
            m::CallToolResultResponseResult::Other(result) if result.result_type.as_str() == "task" => {
                let value = serde_json::to_value(&result).map_err(|e| e.to_string())?;
                let handle = round_trip::<tasks::CreateTaskResult>(&value, "a task handle")?;
                let (done, polls) = self.await_task(name, handle)?;
                Ok((done, format!(" from a task polled {polls} times")))
            }
            other => Err(format!("{name}: a result this client cannot use: {}", other.member_name()).into()),
        }
    }

    /// Polls `tasks/get` (as often as the task's `pollIntervalMs` asks) until the
    /// task ends; its result, read as the `CallToolResult` it is, and how many
    /// polls it took.
    fn await_task(&mut self, name: &str, handle: tasks::CreateTaskResult) -> Result<(m::CallToolResult, usize), Error> {
        let mut interval = handle.poll_interval_ms.unwrap_or(100);
        let meta = serde_json::to_value(self.meta()).map_err(|e| e.to_string())?;
        for poll in 1..=MAX_POLLS {
            std::thread::sleep(Duration::from_millis(interval.clamp(0, 1000) as u64));
            // The extension's requests carry the `_meta` every 2026-07-28 request does.
            let mut params = tasks::GetTaskRequestParams::new(handle.task_id.clone());
            params.extra.insert("_meta".to_string(), meta.clone());
            match self.must(|id| tasks::GetTaskRequest::new(id, params))? {
                tasks::GetTaskResult::WorkingTask(t) => interval = t.poll_interval_ms.unwrap_or(interval),
                tasks::GetTaskResult::CompletedTask(t) => {
                    let result = serde_json::to_value(&t.result).map_err(|e| e.to_string())?;
                    return Ok((round_trip::<m::CallToolResult>(&result, "a completed task's result")?, poll));
                }
                tasks::GetTaskResult::FailedTask(t) => {
                    return Err(format!("{name}: the task failed: {}", t.error));
                }
                tasks::GetTaskResult::CancelledTask(_) => return Err(format!("{name}: the task was cancelled")),
                tasks::GetTaskResult::InputRequiredTask(_) => {
                    return Err(format!("{name}: the task asks for input, which this client does not give a task"));
                }
            }
        }
        Err(format!("{name}: the task is still working after {MAX_POLLS} polls"))
    }

    fn prompts(&mut self) -> Result<(), Error> {
        let meta = self.meta();
        let prompts = self.list(|id| m::ListPromptsRequest::new(id, m::PaginatedRequestParams::new(meta)))?;
        let mut found = Vec::new();
        for prompt in &prompts.prompts {
            let mut args = mcp_spec_types::IndexMap::new();
            for arg in prompt.arguments.iter().flatten() {
                // Each argument completed by the server (when it declares completions);
                // its first suggestion taken.
                if !self.completes() {
                    args.insert(arg.name.clone(), "Bob".to_string());
                    continue;
                }
                let r#ref = m::PromptReference::new(prompt.name.clone());
                let argument = m::CompleteRequestParamsArgument::new(arg.name.clone(), "");
                let meta = self.meta();
                let completed =
                    self.must(|id| m::CompleteRequest::new(id, m::CompleteRequestParams::new(meta, r#ref, argument)))?;
                let values = completed.completion.values;
                self.step(&format!("complete {}.{}", prompt.name, arg.name), format!("{values:?}"));
                let value = values.first().cloned().unwrap_or_else(|| "Bob".into());
                args.insert(arg.name.clone(), value);
            }
            let meta = self.meta();
            let (got, round) = self.call_answering(|id, _, answers, state| {
                let params =
                    m::GetPromptRequestParams::new(meta.clone(), prompt.name.clone()).with_arguments(args.clone());
                m::GetPromptRequest::new(id, retried!(params, answers, state))
            })?;
            let after = if round > 1 { format!(" after {round} rounds") } else { String::new() };
            match got.map_err(|e| format!("prompts/get failed: {e}"))? {
                m::GetPromptResultResponseResult::GetPromptResult(p) => {
                    found.push(format!("{}: {} message(s){after}", prompt.name, p.messages.len()))
                }
                other => found.push(format!("{}: {}", prompt.name, other.member_name())),
            }
        }
        self.step("prompts", format!("{} ({})", prompts.prompts.len(), found.join("; ")));
        Ok(())
    }

    /// Lists and reads resources and templates; the first resource's URI.
    fn resources(&mut self) -> Result<Option<String>, Error> {
        let meta = self.meta();
        let resources = self.list(|id| m::ListResourcesRequest::new(id, m::PaginatedRequestParams::new(meta)))?;
        let mut read = 0;
        for r in resources.resources.iter().take(5) {
            read += self.read(&r.uri)?;
        }
        self.step("resources", format!("{} listed, {read} content(s) read", resources.resources.len()));
        let meta = self.meta();
        let templates =
            self.list(|id| m::ListResourceTemplatesRequest::new(id, m::PaginatedRequestParams::new(meta)))?;
        let mut made = Vec::new();
        for t in templates.resource_templates.iter().take(3) {
            let mut uri = t.uri_template.clone();
            while let (Some(open), Some(close)) = (uri.find('{'), uri.find('}')) {
                let var = uri[open + 1..close].to_string();
                if !self.completes() {
                    uri.replace_range(open..=close, "42");
                    continue;
                }
                let r#ref = m::ResourceTemplateReference::new(t.uri_template.clone());
                let argument = m::CompleteRequestParamsArgument::new(var.clone(), "4");
                let meta = self.meta();
                let completed =
                    self.must(|id| m::CompleteRequest::new(id, m::CompleteRequestParams::new(meta, r#ref, argument)))?;
                let value = completed.completion.values.first().cloned().unwrap_or_else(|| "42".into());
                uri.replace_range(open..=close, &value);
            }
            let n = self.read(&uri)?;
            made.push(format!("{uri}: {n} content(s)"));
        }
        self.step("templates", format!("{} listed; read {}", templates.resource_templates.len(), made.join(", ")));
        Ok(resources.resources.first().map(|r| r.uri.clone()))
    }

    fn read(&mut self, uri: &str) -> Result<usize, Error> {
        let meta = self.meta();
        let (read, _) = self.call_answering(|id, _, answers, state| {
            let params = m::ReadResourceRequestParams::new(meta.clone(), uri);
            m::ReadResourceRequest::new(id, retried!(params, answers, state))
        })?;
        match read.map_err(|e| format!("resources/read {uri} failed: {e}"))? {
            m::ReadResourceResultResponseResult::ReadResourceResult(r) => Ok(r.contents.len()),
            other => Err(format!("resources/read: {}", other.member_name())),
        }
    }

    /// Opens a `subscriptions/listen` stream for the changes the server says it
    /// notifies of, makes a change if the server has a tool for it, reads what
    /// the stream says, and cancels it.
    fn listen(&mut self, listens: Listens, resource: Option<String>, can_touch: bool) -> Result<(), Error> {
        let listen_id = self.peer.next_id();
        let mut filter = m::SubscriptionFilter::new();
        if listens.tools {
            filter = filter.with_tools_list_changed(true);
        }
        if listens.prompts {
            filter = filter.with_prompts_list_changed(true);
        }
        if listens.resources {
            filter = filter.with_resources_list_changed(true);
        }
        if let (true, Some(uri)) = (listens.subscribe, resource) {
            filter = filter.with_resource_subscriptions(vec![uri]);
        }
        let meta = self.meta();
        self.peer.send(&m::SubscriptionsListenRequest::new(
            listen_id,
            m::SubscriptionsListenRequestParams::new(meta, filter),
        ))?;
        let ours = |n: &Value| {
            n.pointer("/params/_meta/io.modelcontextprotocol~1subscriptionId") == Some(&Value::from(listen_id))
        };
        let acknowledged =
            self.wait_for(|n| n["method"] == m::SubscriptionsAcknowledgedNotification::METHOD && ours(n), 1)?;
        if acknowledged.is_empty() {
            return Err("subscriptions/listen was not acknowledged".into());
        }
        let mut events = Vec::new();
        if can_touch {
            self.call_tool("touch", Default::default())?;
            events =
                self.wait_for(|n| n["method"] != m::SubscriptionsAcknowledgedNotification::METHOD && ours(n), 2)?;
        }
        self.peer.send(&m::CancelledNotification::new(
            m::CancelledNotificationParams::new(listen_id).with_reason("the session is over"),
        ))?;
        let methods: Vec<&str> = events.iter().filter_map(|e| e["method"].as_str()).collect();
        self.step("listen", format!("acknowledged; {} notification(s): {}", methods.len(), methods.join(", ")));
        Ok(())
    }

    /// Notifications matching `want`, kept or arriving within a few seconds, at most `n`.
    fn wait_for(&mut self, want: impl Fn(&Value) -> bool, n: usize) -> Result<Vec<Value>, Error> {
        let mut found: Vec<Value> = Vec::new();
        let mut rest = Vec::new();
        for note in std::mem::take(&mut self.notifications) {
            if found.len() < n && want(&note) { found.push(note) } else { rest.push(note) }
        }
        self.notifications = rest;
        let until = Instant::now() + Duration::from_secs(5);
        while found.len() < n {
            let left = until.saturating_duration_since(Instant::now());
            let Some(msg) = self.peer.receive_within(left, check)? else { break };
            if msg.get("id").is_some() && msg.get("method").is_none() {
                continue; // a late response: nothing waits for it
            }
            self.peer.summary.unsolicited += 1;
            if want(&msg) { found.push(msg) } else { self.notifications.push(msg) }
        }
        Ok(found)
    }
}

/// Why a tool call gave no result: the server refused it with a JSON-RPC error,
/// or the session went wrong.
enum Called {
    Refused(m::Error),
    Failed(Error),
}

impl From<Error> for Called {
    fn from(e: Error) -> Called {
        Called::Failed(e)
    }
}

impl From<Called> for Error {
    fn from(c: Called) -> Error {
        match c {
            Called::Refused(e) => format!("tools/call failed: {e}"),
            Called::Failed(e) => e,
        }
    }
}

/// What the client answered in `input_required` rounds.
#[derive(Default)]
struct Rounds {
    elicitations: usize,
    samplings: usize,
    roots: usize,
    numbers: Vec<String>,
}

impl std::fmt::Display for Rounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} answered (elicitation {}, sampling {}, roots {})",
            self.elicitations + self.samplings + self.roots,
            self.elicitations,
            self.samplings,
            self.roots
        )?;
        if !self.numbers.is_empty() {
            write!(f, "; non-integer numbers given: {}", self.numbers.join(", "))?;
        }
        Ok(())
    }
}

/// The answer to one input request, as a user and a model would give it.
#[allow(deprecated)] // sampling and roots: see `capabilities`
fn answer(ask: m::InputRequest, rounds: &mut Rounds) -> m::InputResponse {
    match ask {
        m::InputRequest::ElicitRequest(e) => {
            rounds.elicitations += 1;
            match e.params {
                m::ElicitRequestParams::ElicitRequestFormParams(form) => {
                    let content = form
                        .requested_schema
                        .properties
                        .iter()
                        .map(|(field, schema)| (field.clone(), field_value(field, schema, rounds)))
                        .collect();
                    m::ElicitResult::new(m::ElicitResultAction::Accept).with_content(content).into()
                }
                // A browser flow is not something this example can do.
                m::ElicitRequestParams::ElicitRequestURLParams(_) => {
                    m::ElicitResult::new(m::ElicitResultAction::Decline).into()
                }
            }
        }
        m::InputRequest::CreateMessageRequest(_) => {
            rounds.samplings += 1;
            let text = m::SamplingMessageContentBlock::from(m::TextContent::new("an old silent pond"));
            m::CreateMessageResult::new(m::Role::Assistant, text, "mcp-spec-example-client")
                .with_stop_reason(m::CreateMessageResultStopReason::EndTurn)
                .into()
        }
        m::InputRequest::ListRootsRequest(_) => {
            rounds.roots += 1;
            m::ListRootsResult::new(vec![m::Root::new(ROOT).with_name("work")]).into()
        }
    }
}

/// A realistic value for a form field.
fn field_value(field: &str, schema: &m::PrimitiveSchemaDefinition, rounds: &mut Rounds) -> m::ElicitResultContentValue {
    use m::ElicitResultContentValue as V;
    match schema {
        m::PrimitiveSchemaDefinition::StringSchema(s) => match s.format.as_ref().map(|f| f.as_str()) {
            Some("email") => V::String("ada@example.com".into()),
            Some("date") => V::String("2026-08-01".into()),
            _ => V::String("Ada".into()),
        },
        m::PrimitiveSchemaDefinition::NumberSchema(n) if n.r#type == m::NumberSchemaType::Integer => V::Number(4.0),
        m::PrimitiveSchemaDefinition::NumberSchema(_) => {
            rounds.numbers.push(format!("{field} = 0.15"));
            V::Number(0.15)
        }
        m::PrimitiveSchemaDefinition::BooleanSchema(_) => V::Boolean(true),
        m::PrimitiveSchemaDefinition::EnumSchema(e) => {
            let v: Value = serde_json::to_value(e).unwrap_or_default();
            let first = v["enum"][0].as_str().or_else(|| v["oneOf"][0]["const"].as_str()).unwrap_or("").to_string();
            V::String(first)
        }
    }
}

/// The changes a server says it notifies of (each capability's `listChanged`,
/// `resources.subscribe`): what a `subscriptions/listen` may ask for.
#[derive(Clone, Copy, Debug, Default)]
struct Listens {
    tools: bool,
    prompts: bool,
    resources: bool,
    subscribe: bool,
}

impl Listens {
    fn of(offered: &m::ServerCapabilities) -> Listens {
        let yes = |b: Option<bool>| b == Some(true);
        Listens {
            tools: yes(offered.tools.as_ref().and_then(|t| t.list_changed)),
            prompts: yes(offered.prompts.as_ref().and_then(|p| p.list_changed)),
            resources: yes(offered.resources.as_ref().and_then(|r| r.list_changed)),
            subscribe: yes(offered.resources.as_ref().and_then(|r| r.subscribe)),
        }
    }

    fn any(self) -> bool {
        self.tools || self.prompts || self.resources || self.subscribe
    }
}
