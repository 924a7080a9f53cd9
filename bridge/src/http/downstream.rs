//! One HTTP client's session seen from `--listen`, as a state machine: which
//! stream each message for the client goes on, and under which id. It owns no
//! socket: the front hands it each request as it comes, each stream the client
//! opens or closes, and each line for the client, and does what it says.
//!
//! - A request is sent on under an id of the bridge's (`h1`, `h2`, …), so two
//!   connections of one client cannot collide; what comes back names the
//!   client's own id again: the answer, and a notification about the request
//!   (its progress token, its `requestId`, a listen stream's `subscriptionId`).
//! - A message for the client goes to the stream of the request it answers or
//!   is about; the rest to a legacy client's GET stream, else its newest open
//!   request's stream, else (legacy) it waits for a GET stream, a bounded
//!   number, or (modern) goes nowhere, said.
//! - A modern client that closes a request's stream before its answer has
//!   cancelled it: the server is told (`notifications/cancelled`).

use std::collections::{BTreeMap, VecDeque};

use serde_json::{Value, json};

use crate::method;

/// How many messages wait for a legacy client's GET stream before the oldest is dropped.
pub const QUEUE: usize = 256;

/// Where a message for the client goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    /// The answer to the request `front_id`, whose `method` it names: its
    /// stream ends with it, and the request is forgotten.
    Answer { front_id: String, method: String, line: String },
    /// On the stream of the open request `front_id`.
    Request { front_id: String, line: String },
    /// On a legacy client's GET stream.
    Listen { stream: u64, line: String },
    /// Kept for the GET stream a legacy client has not opened yet; `dropped`
    /// is the oldest kept one, let go when the queue was full.
    Queued { dropped: Option<String> },
    /// Nowhere: a modern client with no request open; why, for the log.
    Nowhere(String),
}

#[derive(Clone, Debug)]
struct Waiting {
    /// The id the client gave the request.
    client_id: Value,
    method: String,
    progress: Option<Value>,
}

/// One HTTP client's session. See the module's docs.
#[derive(Debug)]
pub struct HttpDownstream {
    modern: bool,
    waiting: BTreeMap<String, Waiting>,
    /// Front ids in the order their requests came.
    order: Vec<String>,
    /// Open GET streams, oldest first.
    listens: Vec<u64>,
    next_listen: u64,
    queued: VecDeque<String>,
}

impl HttpDownstream {
    /// The session of a modern client (`modern`), or of a legacy one.
    pub fn new(modern: bool) -> HttpDownstream {
        HttpDownstream {
            modern,
            waiting: BTreeMap::new(),
            order: Vec::new(),
            listens: Vec::new(),
            next_listen: 1,
            queued: VecDeque::new(),
        }
    }

    /// The requests waiting for their answers.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// A request of the client's, to go on under `front_id` (the front's, unique
    /// among all its sessions'): the message to send on.
    pub fn request(&mut self, front_id: &str, mut message: Value) -> Value {
        let front_id = front_id.to_string();
        let waiting = Waiting {
            client_id: message.get("id").cloned().unwrap_or(Value::Null),
            method: message.get("method").and_then(Value::as_str).unwrap_or_default().to_string(),
            progress: message.pointer("/params/_meta/progressToken").cloned(),
        };
        message["id"] = Value::String(front_id.clone());
        self.waiting.insert(front_id.clone(), waiting);
        self.order.push(front_id);
        message
    }

    /// The client closed a request's stream before its answer: forgotten, and
    /// for a modern client the cancellation to send on (how its shape cancels).
    pub fn closed(&mut self, front_id: &str) -> Option<Value> {
        self.waiting.remove(front_id)?;
        self.modern.then(|| {
            json!({"jsonrpc": "2.0", "method": method::CANCELLED,
                "params": {"requestId": front_id, "reason": "the client closed the request's stream"}})
        })
    }

    /// The session ended: every request still waiting, by front id, to be told why.
    pub fn ended(&mut self) -> Vec<String> {
        self.order.clear();
        std::mem::take(&mut self.waiting).into_keys().collect()
    }

    /// A legacy client opened a GET stream: its number, and what waited for it.
    pub fn listen_opened(&mut self) -> (u64, Vec<String>) {
        let stream = self.next_listen;
        self.next_listen += 1;
        self.listens.push(stream);
        (stream, self.queued.drain(..).collect())
    }

    /// A GET stream closed.
    pub fn listen_closed(&mut self, stream: u64) {
        self.listens.retain(|s| *s != stream);
    }

    /// Where a line for the client goes, as the client must read it.
    pub fn route(&mut self, line: String) -> Route {
        let Ok(mut message) = serde_json::from_str::<Value>(&line) else {
            return Route::Nowhere(format!("not JSON: {line}"));
        };
        let is_answer = message.get("method").is_none();
        if is_answer
            && let Some(front_id) = message.get("id").and_then(Value::as_str).map(str::to_string)
            && let Some(w) = self.waiting.remove(&front_id)
        {
            message["id"] = w.client_id;
            return Route::Answer { front_id, method: w.method, line: message.to_string() };
        }
        // A notification about a request: on its stream, naming the client's id.
        if let Some(front_id) = self.about(&message) {
            let client_id = self.waiting[&front_id].client_id.clone();
            for pointer in ["/params/requestId", "/params/_meta/io.modelcontextprotocol~1subscriptionId"] {
                if let Some(id) = message.pointer_mut(pointer).filter(|id| id.as_str() == Some(front_id.as_str())) {
                    *id = client_id.clone();
                }
            }
            return Route::Request { front_id, line: message.to_string() };
        }
        if !self.modern
            && let Some(&stream) = self.listens.first()
        {
            return Route::Listen { stream, line };
        }
        self.order.retain(|id| self.waiting.contains_key(id));
        if let Some(front_id) = self.order.last() {
            return Route::Request { front_id: front_id.clone(), line };
        }
        if self.modern {
            return Route::Nowhere(format!("no request of the client's is open for: {line}"));
        }
        let dropped = (self.queued.len() == QUEUE).then(|| self.queued.pop_front()).flatten();
        self.queued.push_back(line);
        Route::Queued { dropped }
    }

    /// The request a notification is about: its progress token, its listen
    /// stream (`subscriptionId`), or its `requestId`.
    fn about(&self, message: &Value) -> Option<String> {
        let by_progress = message
            .pointer("/params/progressToken")
            .and_then(|t| self.waiting.iter().find(|(_, w)| w.progress.as_ref() == Some(t)).map(|(id, _)| id.clone()));
        let by_id = |pointer: &str| {
            message
                .pointer(pointer)
                .and_then(Value::as_str)
                .filter(|id| self.waiting.contains_key(*id))
                .map(String::from)
        };
        by_progress
            .or_else(|| by_id("/params/_meta/io.modelcontextprotocol~1subscriptionId"))
            .or_else(|| by_id("/params/requestId"))
    }
}

/// A modern client's identity, which its requests share a session by: its
/// `Authorization` header with its `clientInfo` (name and version). Two clients
/// with one `clientInfo` and two credentials are two identities.
pub fn client_identity(authorization: Option<&[u8]>, message: &Value) -> String {
    let auth = authorization.map(|a| String::from_utf8_lossy(a).into_owned()).unwrap_or_default();
    let info = message.pointer("/params/_meta/io.modelcontextprotocol~1clientInfo").cloned().unwrap_or(Value::Null);
    format!("{auth}\u{0}{}\u{0}{}", info["name"], info["version"])
}
