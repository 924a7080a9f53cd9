//! One bridged session's lifecycle, without I/O: how the server's era is
//! learnt, the client's lines that come before it is known, the pass-through
//! when both eras meet, the translation when they cannot ([`Bridge`]), and the end.
//!
//! A bridge is never worse than a direct connection, so the client's own
//! first message decides where it can, and the session passes through
//! whenever the server speaks the client's era:
//! - a legacy client's `initialize` goes to the server first, as it came: a
//!   server that answers it (legacy, or dual-era) gets the whole session
//!   passed through; only a refusal (a modern-only server) makes the bridge
//!   ask `server/discover`, and a modern answer to that means translation;
//! - a modern client (or any other first message) waits for the probe: a
//!   modern server gets the session passed through, a legacy one translated.
//!   A server that exits on the probe (some legacy servers exit on a first
//!   message that is not `initialize`) is started again, once, and spoken to
//!   as legacy;
//! - whenever it cannot go on, every request it holds is answered with an
//!   error saying why before it finishes.
//!
//! A front (the stdio proxy, an HTTP front, a test) feeds each thing that
//! happens as an [`Input`] and carries out the [`Action`]s it gets back, as
//! quinn-proto's and rustls's connections are driven: the session reads no
//! clock (time comes in [`Input::Tick`], and [`Action::WakeAt`] asks for it),
//! touches no pipe, and starts no process.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::ignore::IgnoredTools;
use crate::{
    Bridge, Era, LEGACY_VERSIONS, MODERN_VERSION, PROBE_ID, ProbeFault, ServerEra, To, client_era, discover_probe,
    error_response, method, modern, server_era,
};

/// How long a server may take, from its start, to answer the probe (or a
/// legacy client's `initialize`) before it is taken for legacy (`--probe-timeout`).
/// Measured here, from start to the answer to `initialize`, on a loaded 2-core
/// machine: the Python SDK 2.3's server 0.66-1.19 s, `server-everything`
/// 0.33-0.43 s, the TypeScript SDK v2's 0.27-0.41 s; servers importing a heavy
/// Python framework take 2-10 s in the field. Twice the worst of those.
pub const PROBE_WAIT: Duration = Duration::from_secs(20);

/// The least time a server is given to answer once asked, however late the
/// client spoke after the server started.
const LEAST_WAIT: Duration = Duration::from_secs(2);

/// What the user said of the server's era (`--server-era`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ServerEraChoice {
    /// Learn it: from the server's answer to a legacy client's `initialize`,
    /// else with `server/discover`, as the stdio binding says a client does.
    #[default]
    Auto,
    /// Probe at once, and end the session if the server is not modern.
    Modern,
    /// No probe: the server speaks the `initialize` handshake.
    Legacy,
}

/// Something that happened, for [`Session::handle`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line the client sent.
    FromClient(String),
    /// A line the server sent.
    FromServer(String),
    /// The client has gone (its input closed, or the front was told to stop).
    ClientGone,
    /// The server has gone (its output closed).
    ServerGone,
    /// The time is `now`: a deadline asked for with [`Action::WakeAt`] may have passed.
    Tick(Instant),
}

/// What the front is to do, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send this line (one JSON-RPC message) to a side.
    Send(To, String),
    /// Feed [`Input::Tick`] at this time, or soon after.
    WakeAt(Instant),
    /// Something for the log (never for the protocol stream).
    Log(String),
    /// The server exited on the probe: start it again (once), for the lines
    /// that follow. Its end was fed as [`Input::ServerGone`]; the new one's
    /// lines come as [`Input::FromServer`].
    RestartServer,
    /// The client has gone: end the server as a stdio client does (its input
    /// closed first). What it says from now on is for no one; the session
    /// finishes when [`Input::ServerGone`] comes.
    EndServer,
    /// The session is over: `Ok` as sessions end (the server has gone),
    /// `Err(why)` when it could not go on. Nothing more is to be sent.
    Finish(Result<(), String>),
}

/// A legacy client's `initialize`, offered to the server as it came.
#[derive(Debug)]
struct Offered {
    line: String,
    id: Value,
    /// The server's refusal of it, once it came.
    refusal: Option<String>,
}

/// Where the session stands.
enum State {
    /// Nothing asked yet: the client's first line decides how.
    Waiting,
    /// A legacy client's `initialize` is out; its answer decides. What the client
    /// says meanwhile waits, in order.
    /// `until` is the deadline for the answer, once armed (see [`Session::arm`]).
    Offering { offered: Offered, until: Option<Instant>, early: Vec<Input> },
    /// The probe is out; what the client says meanwhile waits, in order.
    Probing { until: Option<Instant>, early: Vec<Input>, offered: Option<Offered> },
    /// The server's era is known, the client has not spoken yet: what the
    /// server says passes to the client unchanged.
    Ready(ServerEra),
    /// Both speak the same era: every line passes unchanged.
    Passing,
    /// The eras differ: every message is translated.
    Bridging(Box<Bridge>),
    /// The client has gone; the server is being ended.
    Closing,
    /// Finished.
    Over,
}

/// One session between one client and one server.
pub struct Session {
    choice: ServerEraChoice,
    state: State,
    /// The server's start, and how long it has to answer from then.
    started: Instant,
    wait: Duration,
    /// The server was started again after exiting on the probe.
    restarted: bool,
    /// The probe was sent again after the server named the version it takes.
    probe_retried: bool,
    /// The probe's answer may still come while lines pass: it is not passed on.
    probe_outstanding: bool,
    /// `--ignore-tool`: tools the client neither sees nor calls.
    ignored: IgnoredTools,
}

impl Session {
    /// A session whose server started at `now`, with [`PROBE_WAIT`], and its first actions.
    pub fn new(choice: ServerEraChoice, now: Instant) -> (Session, Vec<Action>) {
        Session::with_probe_wait(choice, PROBE_WAIT, now)
    }

    /// A session whose server started at `now` and has `wait` from then to
    /// answer what tells its era (`--probe-timeout`), and its first actions (the
    /// probe, with [`ServerEraChoice::Modern`]).
    pub fn with_probe_wait(choice: ServerEraChoice, wait: Duration, now: Instant) -> (Session, Vec<Action>) {
        let mut session = Session {
            choice,
            state: State::Waiting,
            started: now,
            wait,
            restarted: false,
            probe_retried: false,
            probe_outstanding: false,
            ignored: IgnoredTools::default(),
        };
        let mut out = Vec::new();
        match choice {
            ServerEraChoice::Legacy => {
                session.state = State::Ready(ServerEra::Legacy);
                out.push(Action::Log(format!("the server is {} (as told)", Era::Legacy)));
            }
            ServerEraChoice::Modern => session.probe(Vec::new(), None, Some(now + wait), &mut out),
            ServerEraChoice::Auto => {}
        }
        (session, out)
    }

    /// Tools the client is to neither see nor call, by name patterns (`*`
    /// any run of characters), as mcp-remote's `--ignore-tool`.
    pub fn ignore_tools(&mut self, patterns: Vec<String>) {
        self.ignored = IgnoredTools::new(patterns);
    }

    /// Whether the session is over ([`Action::Finish`] was given).
    pub fn is_over(&self) -> bool {
        matches!(self.state, State::Over)
    }

    /// What to do about `input`.
    pub fn handle(&mut self, input: Input) -> Vec<Action> {
        let mut out = Vec::new();
        if let Input::FromClient(line) = &input
            && !matches!(self.state, State::Over | State::Closing)
            && let Err(refusal) = self.ignored.check_client_line(line)
        {
            return vec![Action::Send(To::Client, refusal)];
        }
        self.step(input, &mut out);
        if !self.ignored.is_empty() {
            for action in &mut out {
                if let Action::Send(To::Client, line) = action {
                    *line = self.ignored.filter_client_line(std::mem::take(line));
                }
            }
        }
        out
    }

    /// The deadline for an answer asked for at `now`: counted from the server's
    /// start, never less than [`LEAST_WAIT`] (or the whole wait, if shorter) from now.
    fn deadline(&self, now: Instant) -> Instant {
        (self.started + self.wait).max(now + LEAST_WAIT.min(self.wait))
    }

    /// Asks for a tick at once (an instant already past), which arms a
    /// deadline not yet set: an input carries no time, a tick does.
    fn arm(&self, out: &mut Vec<Action>) {
        out.push(Action::WakeAt(self.started));
    }

    /// A tick while an answer is awaited: the deadline armed if it was not,
    /// else whether it has passed.
    fn passed(&mut self, now: Instant, out: &mut Vec<Action>) -> bool {
        let deadline = self.deadline(now);
        let (State::Offering { until, .. } | State::Probing { until, .. }) = &mut self.state else { return false };
        let at = *until.get_or_insert(deadline);
        if now < at {
            out.push(Action::WakeAt(at));
            return false;
        }
        true
    }

    fn step(&mut self, input: Input, out: &mut Vec<Action>) {
        match (&mut self.state, input) {
            (State::Over, _) => {}
            (State::Waiting, Input::FromClient(line)) => self.first_line(line, out),
            (
                State::Offering { early, .. } | State::Probing { early, .. },
                input @ (Input::FromClient(_) | Input::ClientGone),
            ) => early.push(input),
            (State::Offering { .. }, Input::FromServer(line)) => self.offer_answer(line, out),
            (State::Offering { .. }, Input::ServerGone) => {
                self.finish(Err("the server exited before answering the client's initialize".into()), out)
            }
            (State::Offering { .. }, Input::Tick(now)) => {
                if !self.passed(now, out) {
                    return;
                }
                let State::Offering { offered, early, .. } = std::mem::replace(&mut self.state, State::Waiting) else {
                    unreachable!()
                };
                out.push(Action::Log(format!(
                    "no answer to the client's initialize in {:?}: asking server/discover",
                    self.wait
                )));
                // A full window of its own: the server has shown no sign of being up yet.
                self.probe(early, Some(offered), Some(now + self.wait), out);
            }
            (State::Probing { .. }, Input::FromServer(line)) => self.probe_answer(line, out),
            (State::Probing { .. }, Input::ServerGone) => self.gone_while_probing(out),
            (State::Probing { .. }, Input::Tick(now)) => {
                if !self.passed(now, out) {
                    return;
                }
                if self.choice == ServerEraChoice::Modern {
                    let why = format!(
                        "--server-era modern, but the server did not answer server/discover in {:?}",
                        self.wait
                    );
                    self.finish(Err(why), out)
                } else {
                    out.push(Action::Log(format!("no answer to server/discover in {:?}: taken for legacy", self.wait)));
                    self.known(ServerEra::Legacy, out);
                }
            }
            (State::Ready(server), Input::FromClient(line)) => {
                let first = serde_json::from_str::<Value>(&line).unwrap_or(Value::Null);
                let client = client_era(&first);
                out.push(Action::Log(format!("the client is {client}")));
                let server = std::mem::replace(server, ServerEra::Legacy);
                self.state = match Bridge::between(client, server) {
                    Some(bridge) => State::Bridging(Box::new(bridge)),
                    None => {
                        out.push(Action::Log("both speak the same era: the session passes through".into()));
                        State::Passing
                    }
                };
                self.step(Input::FromClient(line), out);
            }
            (State::Waiting | State::Ready(_) | State::Passing, Input::FromServer(line)) => {
                if self.probe_outstanding && is_answer_to(&line, &Value::from(PROBE_ID)) {
                    self.probe_outstanding = false;
                    return out.push(Action::Log(format!("the probe's late answer, not passed on: {line}")));
                }
                out.push(Action::Send(To::Client, line))
            }
            (State::Passing, Input::FromClient(line)) => out.push(Action::Send(To::Server, line)),
            (State::Bridging(bridge), Input::FromClient(line)) => {
                let sent = bridge.from_client(&line);
                Self::send(bridge, sent, out);
            }
            (State::Bridging(bridge), Input::FromServer(line)) => {
                let sent = bridge.from_server(&line);
                Self::send(bridge, sent, out);
            }
            (State::Waiting | State::Ready(_) | State::Passing | State::Bridging(_), Input::ClientGone) => {
                self.state = State::Closing;
                out.push(Action::EndServer);
            }
            (State::Bridging(bridge), Input::ServerGone) if !bridge.unanswered().is_empty() => {
                // What the client still waits for is answered: the bridge held it.
                self.finish(Err("the server exited before answering".into()), out);
            }
            (State::Waiting | State::Ready(_) | State::Passing | State::Bridging(_), Input::ServerGone) => {
                out.push(Action::Log("the server exited".into()));
                self.finish(Ok(()), out);
            }
            (State::Closing, Input::ServerGone) => self.finish(Ok(()), out),
            // The client has gone: nothing more is sent to either side.
            (State::Closing, Input::FromServer(_) | Input::FromClient(_) | Input::ClientGone) => {}
            (_, Input::Tick(_)) => {}
        }
    }

    /// The client's first line: a legacy client's `initialize` is offered to
    /// the server; anything else waits for the probe.
    fn first_line(&mut self, line: String, out: &mut Vec<Action>) {
        let first = serde_json::from_str::<Value>(&line).unwrap_or(Value::Null);
        let initialize = first.get("method").and_then(Value::as_str) == Some(method::INITIALIZE);
        match first.get("id").filter(|_| initialize) {
            Some(id) => {
                out.push(Action::Log(
                    "the client is legacy: its initialize goes to the server as it came, and the answer tells the server's era"
                        .into(),
                ));
                out.push(Action::Send(To::Server, line.clone()));
                self.arm(out);
                let offered = Offered { line, id: id.clone(), refusal: None };
                self.state = State::Offering { offered, until: None, early: Vec::new() };
            }
            None => self.probe(vec![Input::FromClient(line)], None, None, out),
        }
    }

    /// Sends the probe; `early` waits for its answer, until a deadline (armed
    /// at the next tick when `None`).
    fn probe(&mut self, early: Vec<Input>, offered: Option<Offered>, until: Option<Instant>, out: &mut Vec<Action>) {
        out.push(Action::Send(To::Server, discover_probe().to_string()));
        match until {
            Some(at) => out.push(Action::WakeAt(at)),
            None => self.arm(out),
        }
        self.probe_outstanding = true;
        self.state = State::Probing { until, early, offered };
    }

    /// A line from the server while a legacy client's `initialize` is out:
    /// accepted, the session passes through; refused, the probe asks.
    fn offer_answer(&mut self, line: String, out: &mut Vec<Action>) {
        let State::Offering { offered, .. } = &self.state else { return };
        if !is_answer_to(&line, &offered.id) {
            // What a server says before its answer passes, as it would directly.
            return out.push(Action::Send(To::Client, line));
        }
        let State::Offering { mut offered, early, .. } = std::mem::replace(&mut self.state, State::Waiting) else {
            return;
        };
        if accepts_handshake(&line) {
            out.push(Action::Log("the server accepted the client's initialize: the session passes through".into()));
            out.push(Action::Send(To::Client, line));
            self.state = State::Passing;
            return self.replay(early, out);
        }
        out.push(Action::Log(format!(
            "the server did not take the client's initialize at a legacy version ({line}): asking server/discover"
        )));
        offered.refusal = Some(line);
        // The probe's own deadline, armed at the next tick.
        self.probe(early, Some(offered), None, out);
    }

    /// A line from the server while probing: the probe's answer decides the
    /// server's era; a late answer to the offered `initialize` is kept; anything
    /// else before it is not passed on.
    fn probe_answer(&mut self, line: String, out: &mut Vec<Action>) {
        if let State::Probing { offered: Some(offered), .. } = &mut self.state
            && offered.refusal.is_none()
            && is_answer_to(&line, &offered.id)
        {
            if accepts_handshake(&line) {
                // It answered after all: the server takes the client's era.
                out.push(Action::Log("the server accepted the client's initialize: the session passes through".into()));
                out.push(Action::Send(To::Client, line));
                let State::Probing { early, .. } = std::mem::replace(&mut self.state, State::Passing) else { return };
                return self.replay(early, out);
            }
            offered.refusal = Some(line);
            return;
        }
        let answer = serde_json::from_str::<Value>(&line)
            .ok()
            .filter(|msg| msg.get("id").and_then(Value::as_str) == Some(PROBE_ID) && msg.get("method").is_none());
        let Some(answer) = answer else {
            out.push(Action::Log(format!("before the probe's answer the server sent {line} (not passed on)")));
            return;
        };
        self.probe_outstanding = false;
        // Version negotiation (2026-07-28's `UnsupportedProtocolVersion`): a server that
        // refuses the probe's version but names it among those it takes is asked once again,
        // as a client retries with a version from `supported`.
        let supported = answer.pointer("/error/data/supported").and_then(Value::as_array);
        if !self.probe_retried
            && answer.pointer("/error/code").and_then(Value::as_i64) == Some(modern::UNSUPPORTED_PROTOCOL_VERSION)
            && supported.is_some_and(|s| s.iter().any(|v| v == MODERN_VERSION))
        {
            self.probe_retried = true;
            out.push(Action::Log(format!(
                "the server refused server/discover's version but names {MODERN_VERSION} among those it takes: asked again"
            )));
            out.push(Action::Send(To::Server, discover_probe().to_string()));
            self.probe_outstanding = true;
            return;
        }
        match server_era(&answer) {
            // A result that is no DiscoverResult (`{}`): what a legacy server that answers
            // every method gives; taken for legacy, unless the user said the server is modern.
            Err(ProbeFault::NotADiscoverResult(why)) if self.choice == ServerEraChoice::Auto => {
                out.push(Action::Log(format!(
                    "the server answered server/discover with a result that is not a DiscoverResult ({why}): taken for legacy"
                )));
                self.known(ServerEra::Legacy, out)
            }
            Err(why) => self.finish(Err(why.to_string()), out),
            Ok(ServerEra::Legacy) if self.choice == ServerEraChoice::Modern => {
                self.finish(Err("--server-era modern, but the server did not answer server/discover".into()), out)
            }
            Ok(server) => self.known(server, out),
        }
    }

    /// The server exited on the probe: started again, once, and spoken to as
    /// legacy (some legacy servers exit when their first message is not
    /// `initialize`); a second exit, or one the user said cannot be, ends the session.
    fn gone_while_probing(&mut self, out: &mut Vec<Action>) {
        if self.restarted || self.choice == ServerEraChoice::Modern {
            return self.finish(Err("the server exited before answering server/discover".into()), out);
        }
        self.restarted = true;
        self.probe_outstanding = false;
        out.push(Action::Log(
            "the server exited on server/discover (some legacy servers exit on a first message that is not initialize): started again, and spoken to as legacy"
                .into(),
        ));
        out.push(Action::RestartServer);
        // The new process has heard nothing: an offered initialize goes again.
        if let State::Probing { early, offered, .. } = &mut self.state
            && let Some(offered) = offered.take()
        {
            early.insert(0, Input::FromClient(offered.line));
        }
        self.known(ServerEra::Legacy, out);
    }

    /// The server's era is known: the client's early lines are handled now, in
    /// order. A legacy server that refused the client's `initialize` has its
    /// refusal passed on, and the session passes through.
    fn known(&mut self, server: ServerEra, out: &mut Vec<Action>) {
        out.push(Action::Log(format!("the server is {}", server.era())));
        let (mut early, offered) = match std::mem::replace(&mut self.state, State::Waiting) {
            State::Probing { early, offered, .. } => (early, offered),
            _ => (Vec::new(), None),
        };
        match (offered, &server) {
            // A modern server: the client's initialize is the bridge's to answer, from the probe.
            (Some(offered), ServerEra::Modern(_)) => early.insert(0, Input::FromClient(offered.line)),
            // A legacy server had the initialize already: its answer (now, or when it comes) is the client's.
            (Some(offered), ServerEra::Legacy) => {
                out.push(Action::Log("the session passes through".into()));
                if let Some(refusal) = offered.refusal {
                    out.push(Action::Send(To::Client, refusal));
                }
                self.state = State::Passing;
                return self.replay(early, out);
            }
            (None, _) => {}
        }
        self.state = State::Ready(server);
        self.replay(early, out);
    }

    fn replay(&mut self, early: Vec<Input>, out: &mut Vec<Action>) {
        for input in early {
            self.step(input, out);
        }
    }

    fn send(bridge: &mut Bridge, sent: Vec<crate::Out>, out: &mut Vec<Action>) {
        out.extend(sent.into_iter().map(|o| Action::Send(o.to, o.line)));
        out.extend(bridge.take_notes().into_iter().map(Action::Log));
    }

    /// The session is over; when it could not go on, every request of the
    /// client's it holds is answered with why first.
    fn finish(&mut self, result: Result<(), String>, out: &mut Vec<Action>) {
        let state = std::mem::replace(&mut self.state, State::Over);
        if let Err(why) = &result {
            let (early, offered, bridged) = match state {
                State::Probing { early, offered, .. } => (early, offered, Vec::new()),
                State::Offering { early, offered, .. } => (early, Some(offered), Vec::new()),
                State::Bridging(bridge) => (Vec::new(), None, bridge.unanswered()),
                _ => (Vec::new(), None, Vec::new()),
            };
            for id in bridged {
                let error = error_response(id, modern::INTERNAL_ERROR, format!("mcp-era-bridge: {why}"));
                out.push(Action::Send(To::Client, error.to_string()));
            }
            let held = offered.map(|o| o.line).into_iter().chain(early.into_iter().filter_map(|input| match input {
                Input::FromClient(line) => Some(line),
                _ => None,
            }));
            for line in held {
                let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
                if let (Some(id), Some(_)) = (request.get("id"), request.get("method")) {
                    let error = error_response(id.clone(), modern::INTERNAL_ERROR, format!("mcp-era-bridge: {why}"));
                    out.push(Action::Send(To::Client, error.to_string()));
                }
            }
        }
        out.push(Action::Finish(result));
    }
}

/// Whether an answer to a legacy client's `initialize` takes the handshake: a
/// result at one of the legacy versions. A server that answers at 2026-07-28
/// (or any other) speaks nothing the client could take directly.
fn accepts_handshake(line: &str) -> bool {
    let answer = serde_json::from_str::<Value>(line).unwrap_or(Value::Null);
    let version = answer.pointer("/result/protocolVersion").and_then(Value::as_str);
    version.is_some_and(|v| LEGACY_VERSIONS.contains(&v))
}

/// Whether `line` is the answer (a result or an error) to request `id`.
fn is_answer_to(line: &str, id: &Value) -> bool {
    serde_json::from_str::<Value>(line).is_ok_and(|m| m.get("method").is_none() && m.get("id") == Some(id))
}
