//! 2024-11-05's HTTP+SSE transport as a shape of [`HttpUpstream`]: one GET
//! stream carries everything the server says; messages are POSTed to the
//! endpoint its `endpoint` event names; `auto` falls back to it.

use super::*;

/// A 2024-11-05 HTTP+SSE session.
#[derive(Clone, Debug, Default)]
pub struct SseSession {
    /// The message endpoint, once the stream named it.
    pub(super) endpoint: Option<String>,
    /// Why the stream is over, once it is: nothing more can be said.
    pub(super) over: Option<String>,
    /// The requests whose answers are awaited on the stream: by id, the id,
    /// the method and the timer that bounds the wait.
    pub(super) pending: BTreeMap<String, (Value, String, Option<TimerId>)>,
}

impl HttpUpstream {
    /// The HTTP+SSE transport's stream: a GET of the server's URL, whose
    /// `endpoint` event names where messages go; they wait for it.
    pub(super) fn open_sse(&mut self, out: &mut Vec<UpstreamAction>) {
        self.shape = Shape::Sse(Box::default());
        let request = HttpRequest::event_stream(Vec::new(), true);
        self.start(Exchange::new(Purpose::SseStream, request), out);
    }

    /// `auto`: the `initialize` POST was answered with a 4xx status, so the
    /// server may speak 2024-11-05's HTTP+SSE: it is sent again there.
    pub(super) fn fall_back_to_sse(&mut self, stream: StreamId, status: &Status, out: &mut Vec<UpstreamAction>) {
        let Some(exchange) = self.exchanges.get(&stream) else { return };
        let text = exchange.request.body.clone().unwrap_or_default();
        self.stop(stream, out);
        out.push(UpstreamAction::Log(format!(
            "the initialize POST was answered HTTP {status}: trying the 2024-11-05 HTTP+SSE transport (a GET for its endpoint)"
        )));
        let held: Vec<_> = self.held.drain(..).collect();
        self.open_sse(out);
        let Ok(initialize) = serde_json::from_str::<Value>(&text) else { return };
        self.send_sse(initialize, Some(text), out);
        for (message, text) in held {
            self.send_sse(message, text, out);
        }
    }

    /// A message over HTTP+SSE: POSTed to the endpoint, or held until the stream names it.
    pub(super) fn send_sse(&mut self, message: Value, text: Option<String>, out: &mut Vec<UpstreamAction>) {
        if let Some(why) = self.sse().and_then(|s| s.over.clone()) {
            return match (message.get("id"), message.get("method")) {
                (Some(id), Some(_)) => out.push(fault(id, why)),
                _ => out.push(UpstreamAction::Log(format!("not sent to the server: {why}"))),
            };
        }
        let Some(endpoint) = self.sse().and_then(|s| s.endpoint.clone()) else {
            return self.held.push_back((message, text));
        };
        let request = match (message.get("id"), message.get("method").and_then(Value::as_str)) {
            (Some(id), Some(method)) => Some((id.clone(), method.to_string())),
            _ => None,
        };
        if let Some((id, method)) = &request {
            let timer = self.answer_wait.map(|after| {
                let timer = self.timer_id();
                self.timers.insert(timer, Timer::Answer(key_of(id)));
                out.push(UpstreamAction::Wake { timer, after });
                timer
            });
            if let Some(sse) = self.sse() {
                sse.pending.insert(key_of(id), (id.clone(), method.clone(), timer));
            }
        }
        let headers = vec![("Content-Type".to_string(), "application/json".to_string())];
        let body = Some(text.unwrap_or_else(|| message.to_string()));
        let post = HttpRequest {
            stream: StreamId(0),
            url: Some(endpoint),
            method: HttpMethod::Post,
            headers,
            body,
            long_lived: false,
        };
        self.start(Exchange::new(Purpose::SsePost { request }, post), out);
    }

    /// An event of the HTTP+SSE stream: the endpoint, or a message of the server's.
    pub(super) fn sse_event(&mut self, stream: StreamId, data: String, event: &str, out: &mut Vec<UpstreamAction>) {
        if !self.exchanges.get(&stream).is_some_and(|e| matches!(e.purpose, Purpose::SseStream)) {
            return;
        }
        if event == "endpoint" {
            let endpoint = data.trim().to_string();
            out.push(UpstreamAction::Log(format!("the server's HTTP+SSE endpoint: {endpoint}")));
            if let Some(sse) = self.sse() {
                sse.endpoint = Some(endpoint);
            }
            let held: Vec<_> = self.held.drain(..).collect();
            return held.into_iter().for_each(|(message, text)| self.send_sse(message, text, out));
        }
        if data.trim().is_empty() {
            return;
        }
        let message: Value = match serde_json::from_str(&data) {
            Ok(m) => m,
            Err(e) => {
                return out
                    .push(UpstreamAction::Log(format!("an event of the server's stream is not JSON ({e}): {data}")));
            }
        };
        if message.get("method").is_none()
            && let Some(id) = message.get("id")
        {
            let known = self.sse().and_then(|s| s.pending.remove(&key_of(id)));
            if let Some((_, _, Some(timer))) = known {
                self.timers.remove(&timer);
            }
        }
        self.pass(message, Some(&data), "", out);
    }

    /// An HTTP+SSE request is over: answered by the bridge with `error`, if given.
    pub(super) fn sse_answered(&mut self, id: &Value, error: Option<String>, out: &mut Vec<UpstreamAction>) {
        let Some((_, _, timer)) = self.sse().and_then(|s| s.pending.remove(&key_of(id))) else { return };
        if let Some(timer) = timer {
            self.timers.remove(&timer);
        }
        if let Some(why) = error {
            out.push(UpstreamAction::Log(why.clone()));
            out.push(fault(id, why));
        }
    }

    /// The HTTP+SSE stream is gone: every request awaiting its answer there,
    /// and every message waiting for the endpoint, is answered with why.
    pub(super) fn sse_over(&mut self, why: String, out: &mut Vec<UpstreamAction>) {
        out.push(UpstreamAction::Log(why.clone()));
        let pending: Vec<Value> =
            self.sse().map(|s| s.pending.values().map(|(id, _, _)| id.clone()).collect()).unwrap_or_default();
        for id in pending {
            self.sse_answered(&id, Some(why.clone()), out);
        }
        for (message, _) in self.held.drain(..).collect::<Vec<_>>() {
            if let (Some(id), Some(_)) = (message.get("id"), message.get("method")) {
                out.push(fault(id, why.clone()));
            }
        }
        if let Some(sse) = self.sse() {
            sse.endpoint = None;
            sse.over = Some(why);
        }
    }
}
