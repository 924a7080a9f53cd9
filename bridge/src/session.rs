//! One bridged session's lifecycle, without I/O: the `server/discover` probe
//! and its timeout, the client's lines that come before the server's era is
//! known, the client's era from its first line, the pass-through when both
//! eras match, the translation when they do not ([`Bridge`]), and the end.
//!
//! A front (the stdio proxy in `main.rs`, an HTTP front, a test) feeds each
//! thing that happens as an [`Input`] and carries out the [`Action`]s it gets
//! back, as quinn-proto's and rustls's connections are driven: the session
//! reads no clock (time comes in [`Input::Tick`], and [`Action::WakeAt`] asks
//! for it), touches no pipe, and starts no process.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{Bridge, Era, PROBE_ID, ProbeFault, ServerEra, To, client_era, discover_probe, server_era};

/// How long a server may take to answer the probe before it is taken for legacy.
pub const PROBE_WAIT: Duration = Duration::from_secs(10);

/// What the user said of the server's era (`--server-era`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ServerEraChoice {
    /// Probe with `server/discover`, as the stdio binding says a client does.
    #[default]
    Auto,
    /// Probe, and end the session if the server is not modern.
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
    /// The client has gone: end the server as a stdio client does (its input
    /// closed first). What it says from now on is for no one; the session
    /// finishes when [`Input::ServerGone`] comes.
    EndServer,
    /// The session is over: `Ok` as sessions end (the server has gone),
    /// `Err(why)` when it could not go on. Nothing more is to be sent.
    Finish(Result<(), String>),
}

/// Where the session stands.
enum State {
    /// The probe is out; what the client says meanwhile waits, in order.
    Probing { until: Instant, early: Vec<Input> },
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
}

impl Session {
    /// A session starting at `now`, and its first actions (the probe, unless
    /// `choice` is [`ServerEraChoice::Legacy`]).
    pub fn new(choice: ServerEraChoice, now: Instant) -> (Session, Vec<Action>) {
        match choice {
            ServerEraChoice::Legacy => {
                let session = Session { choice, state: State::Ready(ServerEra::Legacy) };
                (session, vec![Action::Log(format!("the server is {} (as told)", Era::Legacy))])
            }
            ServerEraChoice::Auto | ServerEraChoice::Modern => {
                let until = now + PROBE_WAIT;
                let session = Session { choice, state: State::Probing { until, early: Vec::new() } };
                (session, vec![Action::Send(To::Server, discover_probe().to_string()), Action::WakeAt(until)])
            }
        }
    }

    /// Whether the session is over ([`Action::Finish`] was given).
    pub fn is_over(&self) -> bool {
        matches!(self.state, State::Over)
    }

    /// What to do about `input`.
    pub fn handle(&mut self, input: Input) -> Vec<Action> {
        let mut out = Vec::new();
        self.step(input, &mut out);
        out
    }

    fn step(&mut self, input: Input, out: &mut Vec<Action>) {
        match (&mut self.state, input) {
            (State::Over, _) => {}
            (State::Probing { early, .. }, input @ (Input::FromClient(_) | Input::ClientGone)) => early.push(input),
            (State::Probing { .. }, Input::FromServer(line)) => self.probe_answer(line, out),
            (State::Probing { .. }, Input::ServerGone) => {
                self.finish(Err("the server exited before answering server/discover".into()), out)
            }
            (State::Probing { until, .. }, Input::Tick(now)) => {
                if now < *until {
                    out.push(Action::WakeAt(*until));
                } else if self.choice == ServerEraChoice::Modern {
                    self.finish(
                        Err(format!(
                            "--server-era modern, but the server did not answer server/discover in {PROBE_WAIT:?}"
                        )),
                        out,
                    )
                } else {
                    out.push(Action::Log(format!("no answer to server/discover in {PROBE_WAIT:?}: taken for legacy")));
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
                    None => State::Passing,
                };
                self.step(Input::FromClient(line), out);
            }
            (State::Ready(_) | State::Passing, Input::FromServer(line)) => out.push(Action::Send(To::Client, line)),
            (State::Passing, Input::FromClient(line)) => out.push(Action::Send(To::Server, line)),
            (State::Bridging(bridge), Input::FromClient(line)) => {
                let sent = bridge.from_client(&line);
                Self::send(bridge, sent, out);
            }
            (State::Bridging(bridge), Input::FromServer(line)) => {
                let sent = bridge.from_server(&line);
                Self::send(bridge, sent, out);
            }
            (State::Ready(_) | State::Passing | State::Bridging(_), Input::ClientGone) => {
                self.state = State::Closing;
                out.push(Action::EndServer);
            }
            (State::Ready(_) | State::Passing | State::Bridging(_), Input::ServerGone) => {
                out.push(Action::Log("the server exited".into()));
                self.finish(Ok(()), out);
            }
            (State::Closing, Input::ServerGone) => self.finish(Ok(()), out),
            // The client has gone: nothing more is sent to either side.
            (State::Closing, Input::FromServer(_) | Input::FromClient(_) | Input::ClientGone) => {}
            (_, Input::Tick(_)) => {}
        }
    }

    /// A line from the server while probing: the probe's answer decides the
    /// server's era; anything before it is not passed on.
    fn probe_answer(&mut self, line: String, out: &mut Vec<Action>) {
        let answer = serde_json::from_str::<Value>(&line)
            .ok()
            .filter(|msg| msg.get("id").and_then(Value::as_str) == Some(PROBE_ID) && msg.get("method").is_none());
        let Some(answer) = answer else {
            out.push(Action::Log(format!("before the probe's answer the server sent {line} (not passed on)")));
            return;
        };
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

    /// The server's era is known: the client's early lines are handled now, in order.
    fn known(&mut self, server: ServerEra, out: &mut Vec<Action>) {
        out.push(Action::Log(format!("the server is {}", server.era())));
        let early = match std::mem::replace(&mut self.state, State::Ready(server)) {
            State::Probing { early, .. } => early,
            _ => Vec::new(),
        };
        for input in early {
            self.step(input, out);
        }
    }

    fn send(bridge: &mut Bridge, sent: Vec<crate::Out>, out: &mut Vec<Action>) {
        out.extend(sent.into_iter().map(|o| Action::Send(o.to, o.message.to_string())));
        out.extend(bridge.take_notes().into_iter().map(Action::Log));
    }

    fn finish(&mut self, result: Result<(), String>, out: &mut Vec<Action>) {
        self.state = State::Over;
        out.push(Action::Finish(result));
    }
}
