//! A legacy client (2025-11-25, `initialize`) and a modern server (2026-07-28).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::members::{Members, Replaced, constant, to_line, written};
use crate::meta_key::SUBSCRIPTION_ID;
use crate::older::{Sent, reads, reads_text};
use crate::{
    LEGACY_VERSION, LEGACY_VERSIONS, MODERN_VERSION, Out, drop_reserved_meta, error_passed_on, error_response, key,
    legacy, may_ask_for_input, method, modern, result_response, to_value,
};
use crate::{To, Way, cross_result_text, id_of, is_own_id, meta_member, result_response_line};
use mcp_spec_types::negotiate::{Offer, negotiate};

/// A request the bridge made of the legacy client for a modern server's
/// `input_required` round.
struct Ask {
    /// The call it answers for (the client's request id, as a key).
    call: String,
    /// Its key in the round's `inputRequests`.
    input_key: String,
    /// Its method.
    method: String,
}

/// The bridge between a legacy client and a modern server (see the crate docs'
/// mapping).
pub struct ToModern {
    discovered: modern::DiscoverResult,
    /// The client's capabilities and info, from its `initialize`.
    client: Option<(modern::ClientCapabilities, Option<modern::Implementation>)>,
    /// The version agreed with the client: the one it offered when the bridge
    /// speaks it, else [`LEGACY_VERSION`].
    version: &'static str,
    /// The level `logging/setLevel` asked for.
    log_level: Option<modern::LoggingLevel>,
    /// [`ToModern::request_meta`]'s members as written, made again when what
    /// it holds changes.
    bridge_meta: Option<Members<'static>>,
    /// The client's requests sent to the server, by their id (the client's).
    calls: HashMap<String, Call>,
    /// The bridge's requests to the client, by id.
    asks: HashMap<String, Ask>,
    /// Retries sent under an id of the bridge's (a retry is a new request,
    /// with a new JSON-RPC id, as MRTR requires): the call each is for.
    retries: HashMap<String, String>,
    next: u64,
    notes: Vec<String>,
    listening: Listening,
    /// The bridge's own requests to the server (listen streams), whose answers go nowhere.
    own: BTreeSet<String>,
}

/// The `subscriptions/listen` streams the bridge keeps open for a legacy
/// client: the list changes the server announces, and updates of the
/// resources the client subscribed to. A new set is opened before the old
/// stream is cancelled, so a change during the switch may arrive twice but is
/// never lost; the client's (un)subscribe is answered when the new stream is
/// acknowledged, so the subscription is in effect when the client hears back.
#[derive(Default)]
struct Listening {
    /// The acknowledged stream, and the resources it carries.
    current: Option<Value>,
    in_effect: BTreeSet<String>,
    /// A stream sent and not yet acknowledged, and the resources it carries.
    opening: Option<(Value, BTreeSet<String>)>,
    /// The resources the client asked for.
    wanted: BTreeSet<String>,
    /// (Un)subscribe requests, answered when `opening` is acknowledged.
    awaiting: Vec<Value>,
    /// Streams opened again after the server ended the current one.
    reopened: usize,
}

/// How often the bridge opens a listen stream again after the server ended
/// the one in effect (a server that ends each at once is not chased).
const REOPEN: usize = 3;

/// The legacy client's requests the bridge answers or shapes itself
/// ([`ToModern::answer_own`]).
const ANSWERED_OWN: [&str; 5] =
    [method::INITIALIZE, method::PING, method::SET_LEVEL, method::SUBSCRIBE, method::UNSUBSCRIBE];

struct Call {
    method: String,
    /// The request as sent to the server, for one that may ask for input:
    /// sent again, with the answers, for a round.
    request: Option<String>,
    round: Option<Round>,
    /// The `input_required` rounds so far: a server that keeps asking is stopped at [`MAX_ROUNDS`].
    rounds: usize,
    /// The id the server knows the call's request in flight by: the client's, then each retry's.
    sent_as: Value,
}

/// The most `input_required` rounds one call may take through the bridge: a
/// server that answers every retry with another round (with nothing to ask, a
/// retry goes out at once) would otherwise loop with it for ever.
pub const MAX_ROUNDS: usize = 32;

/// An `input_required` round in progress.
struct Round {
    state: Option<String>,
    waiting: usize,
    /// The client's answers so far, by `inputRequests` key, as the modern server reads them.
    responses: BTreeMap<String, Box<RawValue>>,
}

impl ToModern {
    pub fn new(discovered: modern::DiscoverResult) -> ToModern {
        ToModern {
            discovered,
            client: None,
            version: LEGACY_VERSION,
            log_level: None,
            bridge_meta: None,
            calls: HashMap::new(),
            asks: HashMap::new(),
            retries: HashMap::new(),
            next: 0,
            notes: Vec::new(),
            listening: Listening::default(),
            own: BTreeSet::new(),
        }
    }

    /// What happened that no message says (a notification that did not
    /// convert, a response to nothing), for the log.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The ids of the client's requests that wait for an answer: its calls
    /// (a legacy client waits for each through every `input_required` round).
    pub fn unanswered(&self) -> Vec<Value> {
        self.calls.keys().filter_map(|key| serde_json::from_str(key).ok()).collect()
    }

    fn next_id(&mut self) -> String {
        self.next += 1;
        format!("mcp-era-bridge-{}", self.next)
    }

    pub fn from_client(&mut self, msg: Value) -> Vec<Out> {
        let id = msg.get("id").cloned();
        match (msg.get("method").and_then(Value::as_str).map(str::to_string), id) {
            (Some(method), Some(id)) => self.request(msg, &method, id),
            (Some(method), None) => self.client_notification(msg, &method),
            (None, Some(id)) => self.answer(msg, id),
            (None, None) => vec![Out::client(error_response(Value::Null, modern::INVALID_REQUEST, "Invalid Request"))],
        }
    }

    fn request(&mut self, msg: Value, method: &str, id: Value) -> Vec<Out> {
        // What the bridge answers or shapes itself is read here; any other request is read
        // once, in `forward`, after its `_meta` is added (a message is read as its type once).
        let object_params = msg.get("params").is_none_or(Value::is_object);
        if object_params && !ANSWERED_OWN.contains(&method) {
            return self.forward(msg, method, id);
        }
        let request: legacy::ClientRequest = match crate::read_as(&msg) {
            Ok(r) => r,
            Err(e) => return vec![Out::client(error_response(id, modern::INVALID_PARAMS, e))],
        };
        match self.answer_own(request, method, id.clone()) {
            Some(out) => out,
            None => self.forward(msg, method, id),
        }
    }

    /// A request the bridge answers or shapes itself (`initialize`, `ping`,
    /// `logging/setLevel`, `resources/subscribe` and `unsubscribe`), read as
    /// its type; `None` for any other.
    fn answer_own(&mut self, request: legacy::ClientRequest, method: &str, id: Value) -> Option<Vec<Out>> {
        Some(match request {
            legacy::ClientRequest::InitializeRequest(init) => {
                let offered = Offer::Initialize(&init.params.protocol_version);
                let version = negotiate(offered, LEGACY_VERSIONS).unwrap_or(LEGACY_VERSION);
                let d = &self.discovered;
                let info = d.meta.as_ref().and_then(|m| m.io_modelcontextprotocol_server_info.clone());
                let info = legacy::Implementation::from(info.unwrap_or_else(crate::bridge_info));
                let mut result = legacy::InitializeResult::new(
                    version,
                    legacy::ServerCapabilities::from(d.capabilities.clone()),
                    info,
                );
                result.instructions = d.instructions.clone();
                let result = written(&result);
                if let Err(e) = reads_text(version, Sent::InitializeResult, result.get()) {
                    return Some(vec![Out::client(error_response(id, modern::INTERNAL_ERROR, e))]);
                }
                // The session is the client's only once initialize is answered.
                self.version = version;
                let capabilities = modern::ClientCapabilities::from(init.params.capabilities);
                self.client = Some((capabilities, Some(init.params.client_info.into())));
                self.bridge_meta = None;
                let mut out = vec![Out::written(To::Client, result_response_line(&id, &result))];
                // The list changes the server announces, on a stream opened for the client.
                out.extend(self.relisten());
                out
            }
            legacy::ClientRequest::PingRequest(_) => vec![Out::client(result_response(id, json!({})))],
            legacy::ClientRequest::SetLevelRequest(set) => {
                self.log_level = Some(modern::LoggingLevel::from(set.params.level));
                self.bridge_meta = None;
                vec![Out::client(result_response(id, json!({})))]
            }
            legacy::ClientRequest::SubscribeRequest(r) => self.subscription(method, id, r.params.uri),
            legacy::ClientRequest::UnsubscribeRequest(r) => self.subscription(method, id, r.params.uri),
            _ => return None,
        })
    }

    /// `resources/subscribe` or `unsubscribe` of `uri`: answered once a listen
    /// stream with the client's new set is acknowledged.
    fn subscription(&mut self, method: &str, id: Value, uri: String) -> Vec<Out> {
        let subscribes = self.discovered.capabilities.resources.as_ref().and_then(|r| r.subscribe) == Some(true);
        if !subscribes {
            let why = format!("{method}: the server does not offer resource subscriptions");
            return vec![Out::client(error_response(id, modern::METHOD_NOT_FOUND, why))];
        }
        if method == method::SUBSCRIBE {
            self.listening.wanted.insert(uri);
        } else {
            self.listening.wanted.remove(&uri);
        }
        self.listening.awaiting.push(id);
        self.relisten()
    }

    /// The `_meta` 2026-07-28 requires of every request, built as its type:
    /// the version, the client's capabilities and info (none declared before
    /// `initialize`), the level it set.
    fn request_meta(&self) -> modern::RequestMetaObject {
        let (capabilities, info) = match &self.client {
            Some((capabilities, info)) => (capabilities.clone(), info.clone()),
            None => (modern::ClientCapabilities::new(), None),
        };
        let mut meta = modern::RequestMetaObject::new(MODERN_VERSION, capabilities);
        if let Some(info) = info {
            meta = meta.with_io_modelcontextprotocol_client_info(info);
        }
        if let Some(level) = &self.log_level {
            meta = meta.with_io_modelcontextprotocol_log_level(level.clone());
        }
        meta
    }

    /// Opens a `subscriptions/listen` stream for what the client should hear
    /// now (any stream still unacknowledged cancelled); with nothing to listen
    /// for, ends the current one and answers the waiting client at once.
    fn relisten(&mut self) -> Vec<Out> {
        let mut out = Vec::new();
        if let Some((superseded, _)) = self.listening.opening.take() {
            out.push(Out::server(cancel(superseded, "superseded")));
        }
        let caps = &self.discovered.capabilities;
        let mut filter = modern::SubscriptionFilter::new();
        if caps.tools.as_ref().and_then(|t| t.list_changed) == Some(true) {
            filter = filter.with_tools_list_changed(true);
        }
        if caps.prompts.as_ref().and_then(|t| t.list_changed) == Some(true) {
            filter = filter.with_prompts_list_changed(true);
        }
        if caps.resources.as_ref().and_then(|t| t.list_changed) == Some(true) {
            filter = filter.with_resources_list_changed(true);
        }
        if !self.listening.wanted.is_empty() {
            filter = filter.with_resource_subscriptions(self.listening.wanted.iter().cloned().collect());
        }
        if filter == modern::SubscriptionFilter::new() {
            if let Some(current) = self.listening.current.take() {
                out.push(Out::server(cancel(current, "nothing to listen for")));
            }
            self.listening.in_effect.clear();
            out.extend(self.listening.awaiting.drain(..).map(|id| Out::client(result_response(id, json!({})))));
            return out;
        }
        let own = self.next_id();
        let id = json!(own);
        self.own.insert(key(&id));
        self.listening.opening = Some((id, self.listening.wanted.clone()));
        let params = modern::SubscriptionsListenRequestParams::new(self.request_meta(), filter);
        out.push(Out::written(To::Server, to_line(&modern::SubscriptionsListenRequest::new(own, params))));
        out
    }

    /// The stream being opened acknowledged: it replaces the current one, and
    /// the client's (un)subscribe requests are answered.
    fn acknowledged(&mut self, stream: &Value) -> Vec<Out> {
        let Some((opening, _)) = &self.listening.opening else { return Vec::new() };
        if opening != stream {
            return Vec::new();
        }
        let (id, resources) = self.listening.opening.take().expect("checked above");
        let mut out = Vec::new();
        if let Some(old) = self.listening.current.replace(id) {
            out.push(Out::server(cancel(old, "resubscribed")));
        }
        self.listening.in_effect = resources;
        out.extend(self.listening.awaiting.drain(..).map(|id| Out::client(result_response(id, json!({})))));
        out
    }

    /// One of the bridge's streams answered, which ends it. A stream ended
    /// before its acknowledgement fails the (un)subscribe requests waiting on
    /// it, and the client's set goes back to the one in effect.
    fn stream_ended(&mut self, msg: &Value, id: &Value) -> Vec<Out> {
        let why = match msg.pointer("/error/message").and_then(Value::as_str) {
            Some(error) => format!("the server ended the subscriptions/listen stream: {error}"),
            None => "the server ended the subscriptions/listen stream".to_string(),
        };
        if self.listening.opening.as_ref().is_some_and(|(opening, _)| opening == id) {
            self.listening.opening = None;
            self.listening.wanted = self.listening.in_effect.clone();
            self.notes.push(why.clone());
            let awaiting = self.listening.awaiting.drain(..);
            return awaiting.map(|id| Out::client(error_response(id, modern::INTERNAL_ERROR, why.clone()))).collect();
        }
        if self.listening.current.as_ref() == Some(id) {
            self.listening.current = None;
            // The client still wants what it had: the stream opened again, a few times.
            if self.listening.reopened < REOPEN {
                self.listening.reopened += 1;
                self.notes.push(format!("{why}; opened again"));
                return self.relisten();
            }
            self.notes.push(format!("{why}; the client hears of no more changes"));
        }
        // Otherwise a stream the bridge cancelled.
        Vec::new()
    }

    /// The `_meta` members every request gets, written once for each state of
    /// what they hold.
    fn bridge_meta(&mut self) -> &Members<'static> {
        if self.bridge_meta.is_none() {
            let meta = written(&self.request_meta());
            self.bridge_meta = Some(Members::read(meta.get()).map(Members::into_owned).unwrap_or_default());
        }
        self.bridge_meta.as_ref().expect("written above")
    }

    /// A request sent on with the `_meta` 2026-07-28 requires.
    fn forward(&mut self, mut msg: Value, method: &str, id: Value) -> Vec<Out> {
        if self.client.is_none() {
            let why = format!("{method} before initialize");
            return vec![Out::client(error_response(id, modern::INVALID_REQUEST, why))];
        }
        let meta = serde_json::to_value(self.request_meta()).unwrap_or_default();
        crate::merge_meta(&mut msg, &meta);
        let converted = crate::read_as::<legacy::ClientRequest>(&msg)
            .and_then(|r| modern::ClientRequest::try_from(r).map_err(|e| e.to_string()));
        match converted {
            Ok(request) => vec![self.send_call(method, id, to_line(&request))],
            Err(e) => vec![Out::client(error_response(id, modern::INVALID_PARAMS, e))],
        }
    }

    /// A legacy client's line read straight as its type (a message is read
    /// as its type once, with no `Value` between): a request the bridge sends
    /// on, one it answers itself (`initialize`, `ping`, `logging/setLevel`,
    /// the subscriptions), or an answer to a server's question
    /// ([`ToModern::answer_line`]). `None`, and nothing changed, for any other
    /// message and for one that does not read or convert (which
    /// [`ToModern::from_client`] takes, for its error).
    pub(crate) fn client_line(&mut self, line: &str) -> Option<Vec<Out>> {
        let msg = Members::read(line).ok()?;
        let Some(method) = msg.text("method") else { return self.answer_line(&msg) };
        let id = id_of(&msg)?;
        if is_own_id(&id) {
            return None;
        }
        if ANSWERED_OWN.contains(&method.as_ref()) {
            let request: legacy::ClientRequest = mcp_spec_types::from_str(line).ok()?;
            return self.answer_own(request, &method, id);
        }
        // Before initialize: refused, with why, by `forward`.
        self.client.as_ref()?;
        let params = match msg.get("params") {
            Some(params) => Members::read(params.get()).ok()?,
            None => Members::default(),
        };
        // The client's `_meta` keeps what the bridge's does not set (a progress token).
        let mut meta = params.object("_meta");
        for (key, value) in self.bridge_meta().iter() {
            meta.set(key.as_ref(), Cow::Borrowed(value));
        }
        let params = Replaced { members: &params, key: "_meta", value: &meta };
        let merged = to_line(&Replaced { members: &msg, key: "params", value: &params });
        let request: legacy::ClientRequest = mcp_spec_types::from_str(&merged).ok()?;
        let request = modern::ClientRequest::try_from(request).ok()?;
        Some(vec![self.send_call(&method, id, to_line(&request))])
    }

    /// A client's call sent to the server, kept for its answer.
    fn send_call(&mut self, method: &str, id: Value, request: String) -> Out {
        let kept = may_ask_for_input(method).then(|| request.clone());
        let out = Out::written(To::Server, request);
        let call = Call { method: method.to_string(), request: kept, round: None, rounds: 0, sent_as: id.clone() };
        self.calls.insert(key(&id), call);
        out
    }

    fn client_notification(&mut self, msg: Value, method: &str) -> Vec<Out> {
        match method {
            // No handshake on the other side, and roots are asked per request.
            method::INITIALIZED | method::ROOTS_CHANGED => return Vec::new(),
            method::CANCELLED => {
                if let Some(id) = msg.pointer("/params/requestId") {
                    let call_key = key(id);
                    let mut msg = msg.clone();
                    if let Some(call) = self.calls.remove(&call_key) {
                        // The server is told the id of the request it has in flight: a retry's, maybe.
                        self.retries.remove(&key(&call.sent_as));
                        msg["params"]["requestId"] = call.sent_as;
                    }
                    // The bridge's questions for it, still open with the client, are withdrawn.
                    let mut out = Vec::new();
                    let mut open: Vec<String> =
                        self.asks.iter().filter(|(_, a)| a.call == call_key).map(|(a, _)| a.clone()).collect();
                    open.sort();
                    for ask in open {
                        self.asks.remove(&ask);
                        let ask_id: Value = serde_json::from_str(&ask).unwrap_or(Value::Null);
                        let reason = "the request this was asked for was cancelled";
                        let cancel = json!({"jsonrpc": "2.0", "method": method::CANCELLED, "params": {"requestId": ask_id, "reason": reason}});
                        out.push(Out::client(cancel));
                    }
                    out.extend(self.sent_on(msg));
                    return out;
                }
            }
            _ => {}
        }
        self.sent_on(msg)
    }

    /// A client's notification, converted and sent on.
    fn sent_on(&mut self, msg: Value) -> Vec<Out> {
        let converted = crate::read_as::<legacy::ClientNotification>(&msg)
            .and_then(|n| modern::ClientNotification::try_from(n).map_err(|e| e.to_string()));
        match converted {
            Ok(n) => vec![Out::server(to_value(&n))],
            Err(e) => {
                self.notes.push(format!("a notification from the client not sent on: {e}"));
                Vec::new()
            }
        }
    }

    /// The client's answer to one of the bridge's input requests.
    fn answer(&mut self, msg: Value, id: Value) -> Vec<Out> {
        let Some(ask) = self.asks.get(&key(&id)) else {
            self.notes.push(format!("a response from the client to no request of the bridge: {msg}"));
            return Vec::new();
        };
        let answer = match msg.get("result") {
            Some(result) => match cross_result_text(&ask.method, Way::Up, &written(result)) {
                Ok(converted) => Answer::Given(converted),
                Err(why) => Answer::Unfit(why),
            },
            None => Answer::Refused(msg.get("error").cloned().unwrap_or(Value::Null)),
        };
        self.answered(&id, answer)
    }

    /// [`ToModern::answer`], read straight from the client's line: `None`,
    /// and nothing changed, for an answer to nothing or one whose result does
    /// not convert (which `answer` takes).
    fn answer_line(&mut self, msg: &Members<'_>) -> Option<Vec<Out>> {
        let id = id_of(msg)?;
        let ask = self.asks.get(&key(&id))?;
        let answer = cross_result_text(&ask.method, Way::Up, msg.get("result")?).ok()?;
        Some(self.answered(&id, Answer::Given(answer)))
    }

    /// An answer to the ask `id` taken: the call's round goes on, and is sent
    /// again when all are in; a refusal or an answer that does not convert
    /// fails the call.
    fn answered(&mut self, id: &Value, answer: Answer) -> Vec<Out> {
        let Some(Ask { call: call_key, input_key, method }) = self.asks.remove(&key(id)) else { return Vec::new() };
        let Some(call) = self.calls.get_mut(&call_key) else { return Vec::new() };
        let why = match answer {
            Answer::Given(response) => Ok(response),
            Answer::Refused(error) => Err(format!("the client refused the server's {method} ({input_key}): {error}")),
            Answer::Unfit(e) => Err(format!("the client's answer to {method} ({input_key}): {e}")),
        };
        let response = match why {
            Ok(response) => response,
            Err(why) => {
                let call_id: Value = serde_json::from_str(&call_key).unwrap_or(Value::Null);
                self.calls.remove(&call_key);
                self.asks.retain(|_, a| a.call != call_key);
                return vec![Out::client(error_response(call_id, modern::INTERNAL_ERROR, why))];
            }
        };
        let Some(round) = call.round.as_mut() else { return Vec::new() };
        round.responses.insert(input_key, response);
        round.waiting -= 1;
        if round.waiting > 0 {
            return Vec::new();
        }
        let round = call.round.take().expect("checked above");
        self.send_retry(&call_key, &round.responses, round.state.as_deref())
    }

    /// The call's request sent again under a new id of the bridge's, with the
    /// answers and the state as it came, its answer to go to the call.
    fn send_retry(
        &mut self,
        call_key: &str,
        responses: &BTreeMap<String, Box<RawValue>>,
        state: Option<&str>,
    ) -> Vec<Out> {
        let fresh = json!(self.next_id());
        let Some(call) = self.calls.get_mut(call_key) else { return Vec::new() };
        // Every call in a round kept its request (`round` ends one that did not).
        let Some(request) = call.request.as_deref() else { return Vec::new() };
        let again = with_answers(request, &fresh, responses, state);
        call.sent_as = fresh.clone();
        self.retries.insert(key(&fresh), call_key.to_string());
        vec![Out::written(To::Server, again)]
    }

    pub fn from_server(&mut self, msg: Value) -> Vec<Out> {
        let id = msg.get("id").cloned();
        match (msg.get("method").and_then(Value::as_str), id) {
            (Some(method), Some(id)) => {
                let why = format!("{method}: a {MODERN_VERSION} client takes no requests");
                vec![Out::server(error_response(id, modern::METHOD_NOT_FOUND, why))]
            }
            (Some(method), None) => self.server_notification(msg.clone(), method),
            (None, Some(id)) => self.response(msg, id),
            (None, None) => {
                self.notes.push(format!("a message from the server that is nothing: {msg}"));
                Vec::new()
            }
        }
    }

    /// A server's notification sent on, read straight from its line: `None`,
    /// and nothing changed, for a request, a cancel, an acknowledgement, and
    /// one that does not read or convert (which `server_notification` takes).
    fn notification_line(&mut self, mut msg: Members<'_>) -> Option<Vec<Out>> {
        let method = msg.text("method")?;
        if msg.get("id").is_some() || method == method::CANCELLED {
            return None;
        }
        if method == modern::SubscriptionsAcknowledgedNotification::METHOD {
            let params = msg.object("params");
            let meta = params.object("_meta");
            return Some(match meta.read_member::<Value>(SUBSCRIPTION_ID) {
                Some(stream) => self.acknowledged(&stream),
                None => Vec::new(),
            });
        }
        // A list change on a listen stream carries only the stream's id.
        let mut emptied = false;
        msg.edit("params", |params| {
            crate::drop_reserved_meta_in(params);
            emptied = params.is_empty();
        });
        if emptied {
            msg.remove("params");
        }
        let notification: modern::ServerNotification = mcp_spec_types::from_str(msg.write().get()).ok()?;
        let notification = legacy::ServerNotification::try_from(notification).ok()?;
        Some(vec![Out::written(To::Client, to_line(&notification))])
    }

    fn server_notification(&mut self, mut msg: Value, method: &str) -> Vec<Out> {
        if method == method::CANCELLED {
            // On stdio a 2026-07-28 server ends a listen stream so; it asks a
            // client nothing else it could cancel.
            let id = msg.pointer("/params/requestId").cloned().unwrap_or(Value::Null);
            if self.own.remove(&key(&id)) {
                let reason = msg.pointer("/params/reason").and_then(Value::as_str).unwrap_or("cancelled");
                return self.stream_ended(&json!({"error": {"message": reason}}), &id);
            }
            self.notes.push(format!("the server cancelled {id}, which is no stream of the bridge's"));
            return Vec::new();
        }
        if method == modern::SubscriptionsAcknowledgedNotification::METHOD {
            return match meta_member(&msg, SUBSCRIPTION_ID).cloned() {
                Some(stream) => self.acknowledged(&stream),
                None => Vec::new(),
            };
        }
        if let Some(params) = msg.get_mut("params") {
            drop_reserved_meta(params);
            // A list change on a listen stream carries only the stream's id.
            if params.as_object().is_some_and(Map::is_empty)
                && let Some(o) = msg.as_object_mut()
            {
                o.remove("params");
            }
        }
        let converted = crate::read_as::<modern::ServerNotification>(&msg)
            .and_then(|n| legacy::ServerNotification::try_from(n).map_err(|e| e.to_string()))
            .map(|n| to_value(&n))
            .and_then(|n| reads(self.version, Sent::ServerNotification, &n).map(|()| n));
        match converted {
            Ok(n) => vec![Out::client(n)],
            Err(e) => {
                self.notes.push(format!("a notification from the server not sent on: {e}"));
                Vec::new()
            }
        }
    }

    /// A modern server's line read straight as its type (see
    /// [`ToModern::client_line`]): a call's result, an `input_required` round
    /// of it, or a notification. `None`, and nothing changed, for any other
    /// message, one that does not read, or a client of an older version (whose
    /// every message is checked as its version's type).
    pub(crate) fn server_line(&mut self, line: &str) -> Option<Vec<Out>> {
        if self.version != LEGACY_VERSION {
            return None;
        }
        let msg = Members::read(line).ok()?;
        if msg.get("method").is_some() {
            return self.notification_line(msg);
        }
        let result = msg.get("result")?;
        let id = id_of(&msg)?;
        let server_key = key(&id);
        if self.own.contains(&server_key) {
            return None;
        }
        let retry_of = self.retries.get(&server_key).cloned();
        let call_key = retry_of.clone().unwrap_or_else(|| server_key.clone());
        let call = self.calls.get(&call_key)?;
        // Only a request that may ask for input has its result's kind looked at (as `response` does).
        let asking = may_ask_for_input(&call.method) && {
            let kind = crate::members::string_member(result.get(), "resultType").ok()?;
            kind.as_deref() == Some("input_required")
        };
        let more: Option<modern::InputRequiredResult> = match asking {
            true => Some(mcp_spec_types::from_str(result.get()).ok()?),
            false => None,
        };
        let client_id = match retry_of {
            Some(call_key) => {
                self.retries.remove(&server_key);
                serde_json::from_str(&call_key).unwrap_or(id)
            }
            None => id,
        };
        if let Some(more) = more {
            return Some(self.round(call_key, client_id, more));
        }
        let call = self.calls.remove(&call_key).expect("looked up above");
        Some(vec![match down_result_text(&call.method, result) {
            Ok(r) => Out::written(To::Client, result_response_line(&client_id, &r)),
            Err(e) => Out::client(error_response(client_id, modern::INTERNAL_ERROR, e)),
        }])
    }

    fn response(&mut self, msg: Value, id: Value) -> Vec<Out> {
        let server_key = key(&id);
        if self.own.remove(&server_key) {
            return self.stream_ended(&msg, &id);
        }
        // An answer to a retry is the call's: to the client under its own id.
        let (call_key, id) = match self.retries.remove(&server_key) {
            Some(call_key) => {
                let client_id = serde_json::from_str(&call_key).unwrap_or(id);
                (call_key, client_id)
            }
            None => (server_key, id),
        };
        let Some(call) = self.calls.get_mut(&call_key) else {
            self.notes.push(format!("a response from the server to no request: {msg}"));
            return Vec::new();
        };
        let Some(result) = msg.get("result") else {
            self.calls.remove(&call_key);
            return vec![Out::client(error_passed_on(id, &msg))];
        };
        let asking = result.get("resultType").and_then(Value::as_str) == Some("input_required");
        if !(asking && may_ask_for_input(&call.method)) {
            let method = call.method.clone();
            self.calls.remove(&call_key);
            let checked =
                down_result(&method, result).and_then(|r| reads(self.version, Sent::Result(&method), &r).map(|()| r));
            return match checked {
                Ok(r) => vec![Out::client(result_response(id, r))],
                Err(e) => vec![Out::client(error_response(id, modern::INTERNAL_ERROR, e))],
            };
        }
        let more: modern::InputRequiredResult = match crate::read_as(result) {
            Ok(m) => m,
            Err(e) => {
                self.calls.remove(&call_key);
                return vec![Out::client(error_response(id, modern::INTERNAL_ERROR, e))];
            }
        };
        self.round(call_key, id, more)
    }

    /// An `input_required` round of the call `call_key` (the client's `id`):
    /// each input request asked of the client, as its version's request; the
    /// call sent again at once when nothing is asked.
    fn round(&mut self, call_key: String, id: Value, more: modern::InputRequiredResult) -> Vec<Out> {
        let Some(call) = self.calls.get_mut(&call_key) else { return Vec::new() };
        if call.request.is_none() {
            // Kept for every request whose answer may be input_required: never so.
            self.calls.remove(&call_key);
            let why = "an input_required answer to a request that cannot take one";
            return vec![Out::client(error_response(id, modern::INTERNAL_ERROR, why))];
        }
        call.rounds += 1;
        if call.rounds > MAX_ROUNDS {
            self.calls.remove(&call_key);
            let why = format!("the server asked for more input {MAX_ROUNDS} times; the bridge gives up the call");
            return vec![Out::client(error_response(id, modern::INTERNAL_ERROR, why))];
        }
        let requests: BTreeMap<String, modern::InputRequest> =
            more.input_requests.unwrap_or_default().into_iter().collect();
        if requests.is_empty() {
            // Nothing to ask: the retry carries the state alone.
            return self.send_retry(&call_key, &BTreeMap::new(), more.request_state.as_deref());
        }
        let mut out = Vec::new();
        let mut asks = Vec::new();
        for (input_key, ask) in &requests {
            let ask_id = self.next_id();
            let asked = written(ask);
            let mut message = Members::read(asked.get()).unwrap_or_default();
            message.set("jsonrpc", constant("\"2.0\""));
            message.set("id", Cow::Owned(written(&ask_id)));
            let method: String = message.read_member("method").unwrap_or_default();
            let message = to_line(&message);
            // As the client reads it: a server request of its version.
            let fit = crate::read_text_as::<legacy::ServerRequest>(&message)
                .and_then(|_| reads_text(self.version, Sent::ServerRequest, &message));
            if let Err(e) = fit {
                self.calls.remove(&call_key);
                self.asks.retain(|_, a| a.call != call_key);
                let why = format!("the server's input request {input_key} is no {} request: {e}", self.version);
                return vec![Out::client(error_response(id, modern::INTERNAL_ERROR, why))];
            }
            asks.push((ask_id, input_key.clone(), method));
            out.push(Out::written(To::Client, message));
        }
        let call = self.calls.get_mut(&call_key).expect("looked up above");
        call.round = Some(Round { state: more.request_state, waiting: requests.len(), responses: BTreeMap::new() });
        for (ask_id, input_key, method) in asks {
            self.asks.insert(key(&json!(ask_id)), Ask { call: call_key.clone(), input_key, method });
        }
        out
    }
}

/// A call's request as sent again: under the id `fresh`, with the answers and
/// the state as it came (the request the bridge wrote has object params:
/// 2026-07-28's carry `_meta`).
fn with_answers(
    request: &str,
    fresh: &Value,
    responses: &BTreeMap<String, Box<RawValue>>,
    state: Option<&str>,
) -> String {
    let mut again = Members::read(request).unwrap_or_default();
    again.set("id", Cow::Owned(written(fresh)));
    let Some(mut params) = again.get("params").and_then(|p| Members::read(p.get()).ok()) else {
        return to_line(&again);
    };
    params.remove("inputResponses");
    params.remove("requestState");
    let responses = (!responses.is_empty()).then(|| written(responses));
    if let Some(responses) = &responses {
        params.set("inputResponses", Cow::Borrowed(responses.as_ref()));
    }
    let state = state.map(written);
    if let Some(state) = &state {
        params.set("requestState", Cow::Borrowed(state.as_ref()));
    }
    to_line(&Replaced { members: &again, key: "params", value: &params })
}

/// The client's answer to a question the bridge asked it.
enum Answer {
    /// Its result, as the modern server reads it.
    Given(Box<RawValue>),
    /// Its error.
    Refused(Value),
    /// A result that does not convert: why.
    Unfit(String),
}

/// A modern server's result as the legacy client reads it: converted with the
/// generated conversion of its method's result type, then without what
/// 2025-11-25 does not name (`resultType`, the cache hints, reserved `_meta` keys).
fn down_result(method: &str, result: &Value) -> Result<Value, String> {
    let converted = down_result_text(method, &written(result))?;
    Ok(serde_json::from_str(converted.get()).unwrap_or_default())
}

/// [`down_result`] on the result's text: the converted result rid of those
/// members as its type (no text read again), or, for a method one of the
/// revisions has no request for, as its text's members.
fn down_result_text(method: &str, result: &RawValue) -> Result<Box<RawValue>, String> {
    let unread = |e: mcp_spec_types::ReadError| format!("the {method} result: {e}");
    if crate::crosses(method)
        && let Some(read) = modern::AnyResult::read(method, result.get())
    {
        let mut converted = legacy::AnyResult::try_from(read.map_err(unread)?).map_err(|e| e.to_string())?;
        let (meta, extra) = crate::result_members(&mut converted);
        for modern_only in MODERN_ONLY_RESULT_MEMBERS {
            extra.remove(modern_only);
        }
        if let Some(m) = meta {
            let reserved: Vec<String> = m.keys().filter(|k| crate::is_reserved_meta(k)).cloned().collect();
            for key in reserved {
                m.remove(&key);
            }
            if m.is_empty() {
                *meta = None;
            }
        }
        return Ok(written(&converted));
    }
    // A result no conversion carries (no such method in both eras): only its members change.
    let Ok(mut members) = Members::read(result.get()) else { return Ok(result.to_owned()) };
    members.retain(|k| !MODERN_ONLY_RESULT_MEMBERS.contains(&k));
    crate::drop_reserved_meta_in(&mut members);
    Ok(members.write())
}

/// What a 2026-07-28 result has that no 2025-11-25 result names.
const MODERN_ONLY_RESULT_MEMBERS: [&str; 3] = ["resultType", "ttlMs", "cacheScope"];

/// A `notifications/cancelled` for one of the bridge's own requests.
fn cancel(request: Value, reason: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": method::CANCELLED, "params": {"requestId": request, "reason": reason}})
}
