//! A modern client (2026-07-28) and a legacy server (2025-11-25, `initialize`).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};

use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::members::{Members, constant, to_line, written};
use crate::meta_key::{CLIENT_CAPABILITIES, LOG_LEVEL, PROTOCOL_VERSION};
use crate::older::{Sent, reads, reads_text};
use crate::{
    LEGACY_VERSION, LEGACY_VERSIONS, MODERN_VERSION, Out, drop_reserved_meta, error_passed_on, error_response, key,
    legacy, may_ask_for_input, method, modern, result_response, to_value,
};
use crate::{To, Way, cross_result_text, id_of, is_own_id, meta_member, result_response_line};
use mcp_spec_types::negotiate::{Offer, negotiate};

/// How many ended calls the bridge remembers (see `ToLegacy::ended`).
const ENDED_KEPT: usize = 256;

/// The id of the `initialize` the bridge sends for the client.
const INIT_ID: &str = crate::own_id!("handshake");

/// The bridge between a modern client and a legacy server (see the crate docs'
/// mapping).
pub struct ToLegacy {
    /// Where the `initialize` handshake the bridge does for the client stands.
    handshake: Handshake,
    /// The version the server answered the handshake with (one the bridge
    /// speaks; an older one than [`LEGACY_VERSION`] has each message to the
    /// server checked as its type).
    version: &'static str,
    /// The client's messages that came before the handshake was done.
    queued: Vec<Value>,
    log_level: Option<String>,
    /// The client's requests sent to the server, by their id.
    calls: HashMap<String, Call>,
    /// Calls held while the client answers the server's questions, by the
    /// `requestState` the bridge gave the client.
    held: HashMap<String, Held>,
    /// Open `subscriptions/listen` streams: the request's id, what they honor.
    listens: Vec<(Value, modern::SubscriptionFilter)>,
    /// The bridge's own requests to the server (`resources/subscribe`,
    /// `logging/setLevel`), whose answers go nowhere.
    own: Vec<String>,
    /// Calls the bridge told the server are over (the client cancelled them, or
    /// lacked a capability they needed), by the id the server knows: its late
    /// answer goes nowhere. The newest [`ENDED_KEPT`]; an id the client uses
    /// again is its new request's (as on a direct connection, a late answer to
    /// the old one would be taken for the new one's).
    ended: VecDeque<String>,
    next: u64,
    notes: Vec<String>,
}

/// Where a call's progress goes: to the client's first request's token, or,
/// once the client has retried, to the retry's (none: nowhere; the first
/// request is over for the client).
enum ProgressTo {
    First,
    Retry(Option<Value>),
}

/// The `initialize` handshake the bridge does for a modern client.
enum Handshake {
    /// The client has not spoken yet.
    NotSent,
    /// Sent with the client's first request; its messages wait in `queued`.
    Sent,
    /// Answered: the server's result, at the version it answered (`version`).
    Done(Box<legacy::InitializeResult>),
    /// Refused, or answered at a version the bridge does not speak: every
    /// request is answered with why.
    Failed(String),
}

struct Call {
    method: String,
    /// The request's id as the server knows it: the client's first.
    server_id: Value,
    /// The id of the client's request that waits for this call's answer: its
    /// first, then each retry's.
    answer_to: Value,
    /// The order calls were made in: a server's question goes to the newest.
    seq: u64,
    /// The `requestState` of the round in progress, if any.
    state: Option<String>,
    /// Whether the client waits for an answer under `answer_to` (not when it
    /// was answered with `input_required` and has not retried yet).
    client_waits: bool,
    /// The progress token the server knows the call by, and, once the client
    /// has retried, the retry's (the client's first request is over for it).
    progress: Option<Value>,
    progress_to: ProgressTo,
    /// The client capabilities the client's latest request for the call
    /// declared (2026-07-28 declares them per request).
    capabilities: Value,
}

struct Held {
    call: String,
    /// The server's requests asked of the client: by `inputRequests` key, the
    /// server's request id and method.
    asked: BTreeMap<String, (Value, String)>,
    /// Asked and not yet answered by a retry: more questions wait.
    waiting: bool,
    /// Questions that came while the client was being asked others: the
    /// server's id and its request's line.
    queued: Vec<(Value, String)>,
    /// The server's final answer to the call, when it came while the client
    /// still had questions to answer: the retry gets it.
    finished: Option<Value>,
}

impl Default for ToLegacy {
    fn default() -> Self {
        ToLegacy::new()
    }
}

impl ToLegacy {
    pub fn new() -> ToLegacy {
        ToLegacy {
            handshake: Handshake::NotSent,
            version: LEGACY_VERSION,
            queued: Vec::new(),
            log_level: None,
            calls: HashMap::new(),
            held: HashMap::new(),
            listens: Vec::new(),
            own: Vec::new(),
            ended: VecDeque::new(),
            next: 0,
            notes: Vec::new(),
        }
    }

    /// What happened that no message says, for the log.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The ids of the client's requests that wait for an answer: those
    /// queued behind the handshake, and the calls it has not been answered for.
    pub fn unanswered(&self) -> Vec<Value> {
        let queued = self.queued.iter().filter(|m| m.get("method").is_some()).filter_map(|m| m.get("id"));
        let calls = self.calls.values().filter(|c| c.client_waits).map(|c| &c.answer_to);
        queued.chain(calls).cloned().collect()
    }

    fn next_id(&mut self) -> Value {
        self.next += 1;
        json!(format!("{}{}", crate::OWN_ID_PREFIX, self.next))
    }

    pub fn from_client(&mut self, msg: Value) -> Vec<Out> {
        if matches!(self.handshake, Handshake::Done(_)) {
            return self.client_message(msg);
        }
        if let Handshake::Failed(why) = &self.handshake {
            return match msg.get("id").cloned().filter(|_| msg.get("method").is_some()) {
                Some(id) => vec![Out::client(error_response(id, modern::INTERNAL_ERROR, why.clone()))],
                None => Vec::new(),
            };
        }
        self.queued.push(msg);
        if matches!(self.handshake, Handshake::Sent) {
            return Vec::new();
        }
        // The handshake, with what the first message says of the client.
        let meta = self.queued[0].pointer("/params/_meta").cloned().unwrap_or(Value::Null);
        let meta = crate::read_as::<modern::RequestMetaObject>(&meta).ok();
        let capabilities =
            meta.as_ref().map(|m| m.io_modelcontextprotocol_client_capabilities.clone()).unwrap_or_default();
        let info = meta.and_then(|m| m.io_modelcontextprotocol_client_info).unwrap_or_else(crate::bridge_info);
        let params = legacy::InitializeRequestParams::new(
            LEGACY_VERSION,
            legacy::ClientCapabilities::from(capabilities),
            legacy::Implementation::from(info),
        );
        self.handshake = Handshake::Sent;
        vec![Out::server(to_value(&legacy::InitializeRequest::new(INIT_ID, params)))]
    }

    fn client_message(&mut self, msg: Value) -> Vec<Out> {
        let id = msg.get("id").cloned();
        match (msg.get("method").and_then(Value::as_str).map(str::to_string), id) {
            (Some(method), Some(id)) => self.request(msg, &method, id),
            (Some(_), None) => self.client_notification(msg),
            (None, _) => {
                self.notes.push(format!("a response from the client, which was asked nothing: {msg}"));
                Vec::new()
            }
        }
    }

    fn request(&mut self, msg: Value, method: &str, id: Value) -> Vec<Out> {
        // The version each request names is checked, as a 2026-07-28 server
        // checks it, `server/discover`'s too (2026-07-28's versioning: a server
        // MUST answer a version it does not implement with this error, which
        // lists the versions it does).
        let requested = meta_member(&msg, PROTOCOL_VERSION).and_then(Value::as_str);
        if let Some(requested) = requested
            && requested != MODERN_VERSION
        {
            let data = modern::UnsupportedProtocolVersionErrorErrorData::new(vec![MODERN_VERSION.into()], requested);
            let error = modern::UnsupportedProtocolVersionErrorError::new(
                format!("Unsupported protocol version: {requested}"),
                data,
            );
            return vec![Out::client(crate::with_id(
                to_value(&modern::UnsupportedProtocolVersionError::new(None, error)),
                id,
            ))];
        }
        let request: modern::ClientRequest = match crate::read_as(&msg) {
            Ok(r) => r,
            Err(e) => return vec![Out::client(error_response(id, modern::INVALID_PARAMS, e))],
        };
        let mut out = Vec::new();
        // A level for the server's log messages, for a server that offers them (it
        // declared `logging`): one that did not would refuse logging/setLevel.
        let level = meta_member(&msg, LOG_LEVEL).and_then(Value::as_str);
        let logs = self.init().is_some_and(|init| init.capabilities.logging.is_some());
        if let Some(level) = level.filter(|_| logs)
            && self.log_level.as_deref() != Some(level)
        {
            self.log_level = Some(level.to_string());
            let own = self.next_id();
            self.own.push(key(&own));
            let set = json!({"jsonrpc": "2.0", "id": own, "method": method::SET_LEVEL, "params": {"level": level}});
            out.push(Out::server(set));
        }
        match request {
            modern::ClientRequest::DiscoverRequest(_) => out.push(Out::client(match self.discovered() {
                Some(found) => result_response(id, found),
                None => error_response(
                    id,
                    modern::INTERNAL_ERROR,
                    format!("{} before the handshake was done", method::DISCOVER),
                ),
            })),
            modern::ClientRequest::SubscriptionsListenRequest(listen) => out.extend(self.listen(id, listen)),
            _ => {
                if let Some(state) = msg.pointer("/params/requestState") {
                    // A legacy server knows no requestState: only one this bridge gave is a retry.
                    match state.as_str().filter(|s| self.held.contains_key(*s)) {
                        Some(state) => {
                            let state = state.to_string();
                            let text = msg.get("params").map(written).unwrap_or_else(|| written(&json!({})));
                            let params = Members::read(text.get()).unwrap_or_default();
                            let meta = params.object("_meta");
                            out.extend(self.retried(&Retry::of(&params, &meta), &state, id));
                        }
                        None => {
                            let why = format!("requestState {state} is none this bridge gave, or its call has ended");
                            out.push(Out::client(error_response(id, modern::INVALID_PARAMS, why)));
                        }
                    }
                    return out;
                }
                let converted = legacy::ClientRequest::try_from(request).map_err(|e| e.to_string());
                let converted = converted.map(|r| to_value(&r)).and_then(|mut sent| {
                    if let Some(params) = sent.get_mut("params") {
                        drop_reserved_meta(params);
                    }
                    reads(self.version, Sent::ClientRequest, &sent).map(|()| sent)
                });
                match converted {
                    Ok(sent) => {
                        let progress = msg.pointer("/params/_meta/progressToken").cloned();
                        self.open_call(method.to_string(), id, progress, declared_capabilities(&msg));
                        out.push(Out::server(sent));
                    }
                    Err(e) => out.push(Out::client(error_response(id, modern::INVALID_PARAMS, e))),
                }
            }
        }
        out
    }

    /// A modern client's request read straight from its line (a message is
    /// read as its type once, with no `Value` between): one the bridge sends
    /// on, or the retry of a call it holds. `None`, and nothing changed, for
    /// any other message (`server/discover`, a listen stream, a retry of no
    /// held call, a request that names another version or a new log level),
    /// before the handshake or with a server of an older version, and for one
    /// that does not read or convert ([`ToLegacy::from_client`] takes those).
    pub(crate) fn client_line(&mut self, line: &str) -> Option<Vec<Out>> {
        if !matches!(self.handshake, Handshake::Done(_)) || self.version != LEGACY_VERSION {
            return None;
        }
        let msg = Members::read(line).ok()?;
        let method = msg.text("method")?;
        let id = id_of(&msg)?;
        if is_own_id(&id) || method == method::DISCOVER || method == method::LISTEN {
            return None;
        }
        let params = Members::read(msg.get("params")?.get()).ok()?;
        let meta = Members::read(params.get("_meta")?.get()).ok()?;
        let version = meta.text(PROTOCOL_VERSION);
        let level = meta.text(LOG_LEVEL);
        let logs = self.init().is_some_and(|init| init.capabilities.logging.is_some());
        let new_level = logs && level.is_some() && self.log_level.as_deref() != level.as_deref();
        let other_version = version.is_some_and(|v| v != MODERN_VERSION);
        if other_version || new_level {
            return None;
        }
        let request: modern::ClientRequest = mcp_spec_types::from_str(line).ok()?;
        if let Some(state) = params.get("requestState") {
            // A retry of a call the bridge holds (any other state is refused, with why, by `request`).
            let state: String = serde_json::from_str(state.get()).ok().filter(|s| self.held.contains_key(s))?;
            return Some(self.retried(&Retry::of(&params, &meta), &state, id));
        }
        let request = legacy::ClientRequest::try_from(request).ok()?;
        let converted = written(&request);
        let mut sent = Members::read(converted.get()).ok()?;
        sent.edit("params", crate::drop_reserved_meta_in);
        let capabilities = meta.read_member(CLIENT_CAPABILITIES).unwrap_or(Value::Null);
        self.open_call(method.into_owned(), id, meta.read_member("progressToken"), capabilities);
        Some(vec![Out::written(To::Server, to_line(&sent))])
    }

    /// A client's request sent to the server, kept as a call until it is
    /// answered: its progress token and the capabilities its `_meta` declared.
    fn open_call(&mut self, method: String, id: Value, progress: Option<Value>, capabilities: Value) {
        self.next += 1;
        let call = Call {
            method,
            server_id: id.clone(),
            answer_to: id.clone(),
            seq: self.next,
            state: None,
            client_waits: true,
            progress,
            progress_to: ProgressTo::First,
            capabilities,
        };
        self.forget_ended(&key(&id));
        self.calls.insert(key(&id), call);
    }

    /// A call's result or a question for the client, read straight from the
    /// server's line (see [`ToLegacy::client_line`]): `None`, and nothing
    /// changed, for any other message and for a call whose client still
    /// answers an `input_required` round.
    pub(crate) fn server_line(&mut self, line: &str) -> Option<Vec<Out>> {
        let msg = Members::read(line).ok()?;
        let id = id_of(&msg)?;
        if let Some(method) = msg.text("method") {
            let asks = [method::ELICIT, method::SAMPLE, method::ROOTS].contains(&method.as_ref());
            return asks.then(|| self.ask(id, line.to_string()));
        }
        let result = msg.get("result")?;
        let server_key = key(&id);
        if id.as_str() == Some(INIT_ID) || self.own.contains(&server_key) {
            return None;
        }
        // A call whose client holds an input_required and will retry gets its answer then.
        let held = self.calls.get(&server_key)?.state.as_ref().and_then(|s| self.held.get(s));
        if held.is_some_and(|h| h.waiting) {
            return None;
        }
        let call = self.calls.remove(&server_key).expect("looked up above");
        if let Some(state) = &call.state {
            self.held.remove(state);
        }
        Some(vec![match up_result_text(&call.method, result) {
            Ok(r) => Out::written(To::Client, result_response_line(&call.answer_to, &r)),
            Err(e) => Out::client(error_response(call.answer_to, modern::INTERNAL_ERROR, e)),
        }])
    }

    /// `server/discover`, answered from the `InitializeResult`.
    fn discovered(&self) -> Option<Value> {
        let Handshake::Done(init) = &self.handshake else { return None };
        let capabilities = modern::ServerCapabilities::from(init.capabilities.clone());
        let meta = modern::ResultMetaObject::new()
            .with_io_modelcontextprotocol_server_info(modern::Implementation::from(init.server_info.clone()));
        let mut result = modern::DiscoverResult::new(
            0,
            modern::CacheableResultCacheScope::Private,
            vec![MODERN_VERSION.into()],
            capabilities,
        )
        .with_meta(meta);
        result.instructions = init.instructions.clone();
        Some(to_value(&result))
    }

    /// The server's `InitializeResult`, once the handshake is done.
    fn init(&self) -> Option<&legacy::InitializeResult> {
        match &self.handshake {
            Handshake::Done(init) => Some(init),
            _ => None,
        }
    }

    /// A `subscriptions/listen` stream: acknowledged with what the legacy
    /// server can give (list changes it announces; resource updates through
    /// `resources/subscribe`), kept open until the client cancels it.
    fn listen(&mut self, id: Value, listen: modern::SubscriptionsListenRequest) -> Vec<Out> {
        let caps = self.init().map(|i| i.capabilities.clone()).unwrap_or_default();
        let wanted = listen.params.notifications;
        let mut honored = modern::SubscriptionFilter::new();
        let changed = |c: Option<bool>| c == Some(true);
        if wanted.tools_list_changed == Some(true) && changed(caps.tools.as_ref().and_then(|t| t.list_changed)) {
            honored.tools_list_changed = Some(true);
        }
        if wanted.prompts_list_changed == Some(true) && changed(caps.prompts.as_ref().and_then(|t| t.list_changed)) {
            honored.prompts_list_changed = Some(true);
        }
        let resources = caps.resources.as_ref();
        if wanted.resources_list_changed == Some(true) && changed(resources.and_then(|r| r.list_changed)) {
            honored.resources_list_changed = Some(true);
        }
        let mut out = Vec::new();
        if let Some(uris) = wanted.resource_subscriptions.filter(|_| changed(resources.and_then(|r| r.subscribe))) {
            for uri in &uris {
                let own = self.next_id();
                self.own.push(key(&own));
                let subscribe =
                    json!({"jsonrpc": "2.0", "id": own, "method": method::SUBSCRIBE, "params": {"uri": uri}});
                out.push(Out::server(subscribe));
            }
            honored.resource_subscriptions = Some(uris);
        }
        let meta = modern::NotificationMetaObject::new().with_io_modelcontextprotocol_subscription_id(
            crate::read_as::<modern::RequestId>(&id).unwrap_or_else(|_| modern::RequestId::from(0)),
        );
        let params = modern::SubscriptionsAcknowledgedNotificationParams::new(honored.clone()).with_meta(meta);
        out.push(Out::client(to_value(&modern::SubscriptionsAcknowledgedNotification::new(params))));
        self.listens.push((id, honored));
        out
    }

    /// A retry with the answers to the questions the bridge asked for a held call.
    fn retried(&mut self, retry: &Retry<'_>, state: &str, id: Value) -> Vec<Out> {
        let mut held = self.held.remove(state).expect("checked by the caller");
        let mut out = Vec::new();
        for (input_key, (server_id, method)) in std::mem::take(&mut held.asked) {
            let answer = match retry.responses.get(&input_key) {
                Some(response) => match self.answer_down(&method, response) {
                    Ok(r) => Out::written(To::Server, result_response_line(&server_id, &r)),
                    Err(e) => Out::server(error_response(
                        server_id,
                        modern::INTERNAL_ERROR,
                        format!("the client's answer: {e}"),
                    )),
                },
                None => Out::server(error_response(
                    server_id,
                    modern::INTERNAL_ERROR,
                    format!("the client did not answer {input_key}"),
                )),
            };
            out.push(answer);
        }
        held.waiting = false;
        let queued = std::mem::take(&mut held.queued);
        match held.finished.take() {
            // The call ended meanwhile: the retry gets its answer, and any
            // question still queued goes through another open call.
            Some(mut finished) => {
                finished["id"] = id;
                out.push(Out::client(finished));
            }
            None => {
                if let Some(call) = self.calls.get_mut(&held.call) {
                    call.answer_to = id;
                    call.client_waits = true;
                    call.progress_to = ProgressTo::Retry(retry.progress.clone());
                    call.capabilities = retry.capabilities.clone();
                }
                self.held.insert(state.to_string(), held);
            }
        }
        for (server_id, request) in queued {
            out.extend(self.ask(server_id, request));
        }
        out
    }

    fn client_notification(&mut self, mut msg: Value) -> Vec<Out> {
        let mut out = Vec::new();
        if msg["method"] == method::CANCELLED
            && let Some(id) = msg.pointer("/params/requestId").cloned()
        {
            if let Some(at) = self.listens.iter().position(|(l, _)| *l == id) {
                self.listens.remove(at);
                return Vec::new();
            }
            // A call the client gave up, by its first id or a retry's: the
            // server is told by the id it knows, and the questions asked
            // through the call are answered with why.
            let cancelled = self.calls.iter().find(|(_, c)| c.answer_to == id).map(|(k, _)| k.clone());
            let held = match cancelled.and_then(|k| self.calls.remove(&k)) {
                Some(call) => {
                    msg["params"]["requestId"] = call.server_id.clone();
                    self.end(&call.server_id);
                    call.state.and_then(|s| self.held.remove(&s))
                }
                // A call that ended while its client answered a round (its
                // result kept for the retry) is cancelled by its first id.
                None => {
                    let finished = self.held.iter().find(|(_, h)| h.call == key(&id)).map(|(s, _)| s.clone());
                    finished.and_then(|s| self.held.remove(&s))
                }
            };
            if let Some(held) = held {
                let why = "the client cancelled the request this was asked through";
                let asked = held.asked.into_values().map(|(server_id, _)| server_id);
                let queued = held.queued.into_iter().map(|(server_id, _)| server_id);
                for server_id in asked.chain(queued) {
                    out.push(Out::server(error_response(server_id, modern::INTERNAL_ERROR, why)));
                }
            }
        }
        let converted = crate::read_as::<modern::ClientNotification>(&msg)
            .and_then(|n| legacy::ClientNotification::try_from(n).map_err(|e| e.to_string()));
        match converted {
            Ok(n) => {
                let mut n = to_value(&n);
                if let Some(params) = n.get_mut("params") {
                    drop_reserved_meta(params);
                }
                out.push(Out::server(n));
                out
            }
            Err(e) => {
                self.notes.push(format!("a notification from the client not sent on: {e}"));
                out
            }
        }
    }

    pub fn from_server(&mut self, msg: Value) -> Vec<Out> {
        let id = msg.get("id").cloned();
        match (msg.get("method").and_then(Value::as_str).map(str::to_string), id) {
            (Some(method), Some(id)) => self.server_request(msg, &method, id),
            (Some(method), None) => self.server_notification(msg, &method),
            (None, Some(id)) => self.response(msg, id),
            (None, None) => {
                self.notes.push(format!("a message from the server that is nothing: {msg}"));
                Vec::new()
            }
        }
    }

    fn response(&mut self, msg: Value, id: Value) -> Vec<Out> {
        if id == json!(INIT_ID) {
            return self.initialized(msg);
        }
        if let Some(at) = self.own.iter().position(|o| *o == key(&id)) {
            self.own.remove(at);
            if msg.get("error").is_some() {
                self.notes.push(format!("the server refused the bridge's own request: {msg}"));
            }
            return Vec::new();
        }
        let Some(call) = self.calls.remove(&key(&id)) else {
            if self.forget_ended(&key(&id)) {
                self.notes.push(format!("the server answered {id}, a call already over for the client"));
            } else {
                self.notes.push(format!("a response from the server to no request: {msg}"));
            }
            return Vec::new();
        };
        let answer = match msg.get("result") {
            None => error_passed_on(call.answer_to.clone(), &msg),
            Some(result) => match up_result(&call.method, result) {
                Ok(r) => result_response(call.answer_to.clone(), r),
                Err(e) => error_response(call.answer_to.clone(), modern::INTERNAL_ERROR, e),
            },
        };
        if let Some(state) = &call.state
            && let Some(held) = self.held.get_mut(state)
        {
            if held.waiting {
                // The client holds an input_required for this call and will
                // retry with the answers (which the server may still wait for,
                // if the question was another call's): the retry gets this.
                held.finished = Some(answer);
                return Vec::new();
            }
            self.held.remove(state);
        }
        vec![Out::client(answer)]
    }

    /// The server's answer to the handshake: then the client's messages so far.
    fn initialized(&mut self, msg: Value) -> Vec<Out> {
        let result = msg.get("result").ok_or_else(|| format!("the server refused initialize: {}", msg["error"]));
        let init = result.and_then(crate::read_as::<legacy::InitializeResult>).and_then(|init| {
            match negotiate(Offer::Answered(&init.protocol_version), LEGACY_VERSIONS) {
                Some(version) => {
                    self.version = version;
                    Ok(init)
                }
                None => Err(format!(
                    "the server answered initialize with protocol version {}, which the bridge does not speak ({})",
                    init.protocol_version,
                    LEGACY_VERSIONS.join(", ")
                )),
            }
        });
        let init = match init {
            Ok(init) => init,
            Err(e) => {
                // Every request that waited, and every later one, is answered with why.
                self.handshake = Handshake::Failed(e.clone());
                return std::mem::take(&mut self.queued)
                    .into_iter()
                    .filter_map(|m| m.get("id").cloned())
                    .map(|id| Out::client(error_response(id, modern::INTERNAL_ERROR, e.clone())))
                    .collect();
            }
        };
        self.handshake = Handshake::Done(Box::new(init));
        let mut out = vec![Out::server(json!({"jsonrpc": "2.0", "method": method::INITIALIZED}))];
        for m in std::mem::take(&mut self.queued) {
            out.extend(self.client_message(m));
        }
        out
    }

    fn server_request(&mut self, msg: Value, method: &str, id: Value) -> Vec<Out> {
        match method {
            method::PING => vec![Out::server(result_response(id, json!({})))],
            method::ELICIT | method::SAMPLE | method::ROOTS => self.ask(id, msg.to_string()),
            _ => {
                let why = format!(
                    "{method}: a {MODERN_VERSION} client takes no requests, and this one has no input request form"
                );
                vec![Out::server(error_response(id, modern::METHOD_NOT_FOUND, why))]
            }
        }
    }

    /// A server's question, asked of the client through its newest open call
    /// as an `input_required` result (or queued while it answers another):
    /// its line, read as the legacy server's request and, as the input
    /// request it becomes, as the modern client's.
    fn ask(&mut self, server_id: Value, request: String) -> Vec<Out> {
        let Ok(members) = Members::read(&request) else {
            let why = "the server's request is no JSON object";
            return vec![Out::server(error_response(server_id, modern::INVALID_REQUEST, why))];
        };
        let method: String = members.read_member("method").unwrap_or_default();
        let mode = members.get("params").and_then(|p| Members::read(p.get()).ok()?.read_member::<Value>("mode"));
        let required = required_capability(&method, mode.as_ref());
        // As a 2026-07-28 input request: the method and params, no JSON-RPC envelope.
        let mut input = Members::default();
        input.set("method", members.get("method").map_or_else(|| constant("null"), Cow::Borrowed));
        input.set("params", members.get("params").map_or_else(|| constant("{}"), Cow::Borrowed));
        let input = input.write();
        // The question names no call: it goes through the newest open call
        // whose request declared the capability it needs.
        let newest = |declared_only: bool| {
            self.calls
                .iter()
                .filter(|(_, c)| may_ask_for_input(&c.method))
                .filter(|(_, c)| !declared_only || required.as_ref().is_none_or(|r| declares(&c.capabilities, r)))
                .max_by_key(|(_, c)| c.seq)
                .map(|(k, _)| k.clone())
        };
        let Some(newest_open) = newest(false) else {
            let why = format!("no request of the {MODERN_VERSION} client is open to ask it through");
            return vec![Out::server(error_response(server_id, modern::INTERNAL_ERROR, why))];
        };
        let call_key = match (newest(true), required) {
            (Some(k), _) => k,
            (None, Some(required)) => {
                // No open call declared it: the newest fails as a 2026-07-28
                // server fails it, unless its client is answering another
                // round (the question waits, and is asked again after).
                let call = &self.calls[&newest_open];
                let answering = call.state.as_ref().and_then(|s| self.held.get(s)).is_some_and(|h| h.waiting);
                if !answering {
                    return self.lacking(&newest_open, server_id, required, &method);
                }
                newest_open
            }
            (None, None) => newest_open,
        };
        let state = match self.calls[&call_key].state.clone() {
            Some(s) => s,
            None => {
                self.next += 1;
                let s = format!("{}{}", crate::own_id!("state-"), self.next);
                self.calls.get_mut(&call_key).expect("found above").state = Some(s.clone());
                s
            }
        };
        let held = self.held.entry(state.clone()).or_insert_with(|| Held {
            call: call_key.clone(),
            asked: BTreeMap::new(),
            waiting: false,
            queued: Vec::new(),
            finished: None,
        });
        if held.waiting {
            held.queued.push((server_id, request));
            return Vec::new();
        }
        let ask = crate::read_text_as::<legacy::ServerRequest>(&request)
            .and_then(|_| crate::read_text_as::<modern::InputRequest>(input.get()));
        let ask = match ask {
            Ok(a) => a,
            Err(e) => return vec![Out::server(error_response(server_id, modern::INVALID_PARAMS, e))],
        };
        let input_key = format!("{}-{}", method.replace('/', "-"), held.asked.len() + 1);
        held.asked.insert(input_key.clone(), (server_id, method));
        held.waiting = true;
        let requests: modern::InputRequests = std::iter::once((input_key, ask)).collect();
        let more = modern::InputRequiredResult::new().with_input_requests(requests).with_request_state(state);
        let call = self.calls.get_mut(&call_key).expect("the caller found it");
        call.client_waits = false;
        vec![Out::written(To::Client, result_response_line(&call.answer_to, &more))]
    }

    /// The client's answer to a server's question, as the legacy server reads
    /// it: converted, without `resultType`, checked as the server's version's.
    fn answer_down(&self, method: &str, response: &RawValue) -> Result<Box<RawValue>, String> {
        let converted = cross_result_text(method, Way::Down, response)?;
        let answer = match Members::read(converted.get()) {
            Ok(mut members) => {
                members.remove("resultType");
                members.write()
            }
            Err(_) => converted,
        };
        reads_text(self.version, Sent::Result(method), answer.get())?;
        Ok(answer)
    }

    /// Remembers a call the bridge told the server is over.
    fn end(&mut self, server_id: &Value) {
        self.ended.push_back(key(server_id));
        if self.ended.len() > ENDED_KEPT {
            self.ended.pop_front();
        }
    }

    /// Forgets an ended call; whether it was one.
    fn forget_ended(&mut self, server_key: &str) -> bool {
        match self.ended.iter().position(|k| k == server_key) {
            Some(at) => self.ended.remove(at).is_some(),
            None => false,
        }
    }

    /// The call needs a capability its client did not declare: the client is
    /// answered as a 2026-07-28 server answers it (`-32021`, naming the
    /// capability), the server's question refused as a client without the
    /// capability refuses it, and the server told the call is over.
    fn lacking(&mut self, call_key: &str, server_id: Value, required: Value, method: &str) -> Vec<Out> {
        let call = self.calls.remove(call_key).expect("the caller found it");
        let why = format!("{method}: the client did not declare the capability {required} for this request");
        let mut out = vec![Out::server(error_response(server_id, modern::METHOD_NOT_FOUND, why.clone()))];
        if let Some(held) = call.state.as_ref().and_then(|s| self.held.remove(s)) {
            let queued = held.queued.into_iter().map(|(server_id, _)| server_id);
            for server_id in held.asked.into_values().map(|(server_id, _)| server_id).chain(queued) {
                let why = "the request this was asked through has failed";
                out.push(Out::server(error_response(server_id, modern::INTERNAL_ERROR, why)));
            }
        }
        let reason = format!("the client lacks the capability {required}");
        out.push(Out::server(json!({"jsonrpc": "2.0", "method": method::CANCELLED,
            "params": {"requestId": call.server_id, "reason": reason}})));
        self.end(&call.server_id);
        let required: modern::ClientCapabilities = serde_json::from_value(required).unwrap_or_default();
        let data = modern::MissingRequiredClientCapabilityErrorErrorData::new(required);
        let error = modern::MissingRequiredClientCapabilityErrorError::new(why, data);
        let error = modern::MissingRequiredClientCapabilityError::new(None, error);
        out.push(Out::client(crate::with_id(to_value(&error), call.answer_to)));
        out
    }

    fn server_notification(&mut self, mut msg: Value, method: &str) -> Vec<Out> {
        if method == method::PROGRESS {
            // Progress of a call the client has retried goes to the retry's token, or nowhere.
            let token = msg.pointer("/params/progressToken").cloned();
            let retried = self.calls.values().find(|c| c.progress.is_some() && c.progress == token);
            match retried.map(|c| &c.progress_to) {
                Some(ProgressTo::Retry(Some(to))) => msg["params"]["progressToken"] = to.clone(),
                Some(ProgressTo::Retry(None)) => return Vec::new(),
                Some(ProgressTo::First) | None => {}
            }
        }
        if method == method::CANCELLED {
            // The server gave up a question it asked (a modern client takes no
            // requests, and on stdio a cancel from the server ends a listen
            // stream): not sent on; the question is not asked if it still waits.
            let id = msg.pointer("/params/requestId").cloned().unwrap_or(Value::Null);
            for held in self.held.values_mut() {
                held.queued.retain(|(server_id, _)| *server_id != id);
            }
            self.notes.push(format!("the server cancelled its request {id}"));
            return Vec::new();
        }
        let wanted = |f: &modern::SubscriptionFilter| match method {
            method::TOOLS_CHANGED => f.tools_list_changed == Some(true),
            method::PROMPTS_CHANGED => f.prompts_list_changed == Some(true),
            method::RESOURCES_CHANGED => f.resources_list_changed == Some(true),
            method::RESOURCE_UPDATED => {
                let uri = msg.pointer("/params/uri").and_then(Value::as_str).unwrap_or_default();
                f.resource_subscriptions.as_ref().is_some_and(|u| u.iter().any(|s| s == uri))
            }
            _ => false,
        };
        let streamed = matches!(
            method,
            method::TOOLS_CHANGED | method::PROMPTS_CHANGED | method::RESOURCES_CHANGED | method::RESOURCE_UPDATED
        );
        let converted = crate::read_as::<legacy::ServerNotification>(&msg)
            .and_then(|n| modern::ServerNotification::try_from(n).map_err(|e| e.to_string()));
        let n = match converted {
            Ok(n) => to_value(&n),
            Err(e) => {
                self.notes.push(format!("a notification from the server not sent on: {e}"));
                return Vec::new();
            }
        };
        if !streamed {
            return vec![Out::client(n)];
        }
        // A change notification goes on each stream that asked for it, with its id.
        self.listens
            .iter()
            .filter(|(_, f)| wanted(f))
            .map(|(id, _)| {
                let mut n = n.clone();
                let stream: modern::RequestId =
                    serde_json::from_value(id.clone()).unwrap_or_else(|_| id.to_string().into());
                let meta = modern::NotificationMetaObject::new().with_io_modelcontextprotocol_subscription_id(stream);
                crate::merge_meta(&mut n, &to_value(&meta));
                Out::client(n)
            })
            .collect()
    }
}

/// A legacy server's result as the modern client reads it: `resultType`
/// `"complete"`, and for a cacheable one the cache hints (`ttlMs` 0, `cacheScope`
/// `"private"`: nothing says it may be kept), then converted with the generated
/// conversion of its method's result type.
fn up_result(method: &str, result: &Value) -> Result<Value, String> {
    let converted = up_result_text(method, &written(result))?;
    Ok(serde_json::from_str(converted.get()).unwrap_or_default())
}

/// [`up_result`] on the result's text: the members added to the result read
/// as its type (no text written again), or, for a method one of the revisions
/// has no request for, to its text's members.
fn up_result_text(method: &str, result: &RawValue) -> Result<Box<RawValue>, String> {
    let cacheable = crate::modern_method(method).is_some_and(|m| m.cacheable);
    if crate::crosses(method)
        && let Some(read) = legacy::AnyResult::read(method, result.get())
    {
        let mut read = read.map_err(|e| format!("the {method} result: {e}"))?;
        let (_, extra) = crate::result_members(&mut read);
        extra.insert("resultType", json!("complete"));
        if cacheable {
            extra.insert("ttlMs", json!(0));
            extra.insert("cacheScope", json!("private"));
        }
        return modern::AnyResult::try_from(read).map(|r| written(&r)).map_err(|e| e.to_string());
    }
    // A result no conversion carries (no such method in both eras): only its members change.
    let Ok(mut members) = Members::read(result.get()) else { return Ok(result.to_owned()) };
    members.set("resultType", constant("\"complete\""));
    if cacheable {
        members.set("ttlMs", constant("0"));
        members.set("cacheScope", constant("\"private\""));
    }
    Ok(members.write())
}

/// What a retry of a held call brings: the answers by `inputResponses` key,
/// and what its `_meta` declares.
struct Retry<'a> {
    responses: Members<'a>,
    progress: Option<Value>,
    capabilities: Value,
}

impl Retry<'_> {
    /// A retry's, from its `params` and their `_meta`.
    fn of<'a>(params: &'a Members<'_>, meta: &Members<'_>) -> Retry<'a> {
        let responses = params.object("inputResponses");
        let capabilities = meta.read_member(CLIENT_CAPABILITIES).unwrap_or(Value::Null);
        Retry { responses, progress: meta.read_member("progressToken"), capabilities }
    }
}

/// The client capability a server's question needs, as `requiredCapabilities`
/// names it: URL-mode elicitation needs `elicitation.url` (an `elicitation`
/// without modes declares the form mode only).
#[allow(deprecated)] // sampling and roots: deprecated in 2026-07-28, still what legacy servers ask for
fn required_capability(method: &str, mode: Option<&Value>) -> Option<Value> {
    use modern::{
        ClientCapabilities, ClientCapabilitiesElicitation, ClientCapabilitiesRoots, ClientCapabilitiesSampling,
    };
    let needs = match method {
        method::ELICIT => {
            let by_url = mode == Some(url_mode());
            let elicitation = ClientCapabilitiesElicitation::new();
            let elicitation = if by_url { elicitation.with_url(Default::default()) } else { elicitation };
            ClientCapabilities::new().with_elicitation(elicitation)
        }
        method::SAMPLE => ClientCapabilities::new().with_sampling(ClientCapabilitiesSampling::new()),
        method::ROOTS => ClientCapabilities::new().with_roots(ClientCapabilitiesRoots::new()),
        _ => return None,
    };
    Some(to_value(&needs))
}

/// The `mode` of a URL-mode elicitation, as the generated type writes it.
fn url_mode() -> &'static Value {
    static MODE: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    MODE.get_or_init(|| to_value(&legacy::ElicitRequestURLParams::new("", "", ""))["mode"].clone())
}

/// Whether `declared` capabilities have every member `required` names, at every depth.
fn declares(declared: &Value, required: &Value) -> bool {
    match required.as_object() {
        Some(members) => members.iter().all(|(k, r)| declared.get(k).is_some_and(|d| declares(d, r))),
        None => true,
    }
}

/// The client capabilities a modern request declares in its `_meta`.
fn declared_capabilities(msg: &Value) -> Value {
    meta_member(msg, CLIENT_CAPABILITIES).cloned().unwrap_or(Value::Null)
}
