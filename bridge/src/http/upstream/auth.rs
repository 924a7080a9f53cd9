//! Authorization as states of [`HttpUpstream`]: a challenge parks the exchanges
//! until the driver tells the credentials, or why there are none.

use super::*;

impl HttpUpstream {
    /// The server refused an exchange for its credentials: it waits, with
    /// every exchange after it, for the driver to authorize.
    pub(super) fn challenged(
        &mut self,
        stream: StreamId,
        status: Status,
        www_authenticate: Option<String>,
        out: &mut Vec<UpstreamAction>,
    ) {
        let Some(exchange) = self.exchanges.remove(&stream) else { return };
        out.push(UpstreamAction::Stop(stream));
        // Refused for credentials that have since been replaced (it was out when they
        // were): sent again with the new ones, nothing asked.
        let sent = exchange.request.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(AUTHORIZATION)).map(|(_, v)| v);
        if self.asking == Asking::No && self.authorization.is_some() && sent != self.authorization.as_ref() {
            return self.start(exchange, out);
        }
        out.push(UpstreamAction::Log(format!("the server asks for authorization (HTTP {status})")));
        self.parked.push(exchange);
        let reason = AuthReason::Challenged { status, www_authenticate };
        match self.asking {
            Asking::No => {
                self.asking = Asking::Challenge;
                out.push(UpstreamAction::Authorize(reason));
            }
            // One question at a time: the refresh's answer may do; if not, this is asked then.
            Asking::Refresh => {
                self.asking = Asking::Challenge;
                self.challenge_after_refresh = Some(reason);
            }
            Asking::Challenge => {}
        }
    }

    /// What came of authorizing: the parked exchanges go out again with the
    /// credentials, or end with why there are none.
    pub(super) fn authorized(&mut self, answer: Result<Credentials, String>, out: &mut Vec<UpstreamAction>) {
        let was = std::mem::replace(&mut self.asking, Asking::No);
        let after_refresh = self.challenge_after_refresh.take();
        if let (Err(why), Some(reason)) = (&answer, after_refresh) {
            // The refresh failed and requests wait: the challenge they met is asked now.
            out.push(UpstreamAction::Log(format!("the credentials could not be refreshed: {why}")));
            self.asking = Asking::Challenge;
            return out.push(UpstreamAction::Authorize(reason));
        }
        let parked = std::mem::take(&mut self.parked);
        match answer {
            Ok(credentials) => {
                self.authorization = Some(credentials.authorization);
                if let Some(after) = credentials.refresh_after {
                    self.timers.retain(|_, t| !matches!(t, Timer::Refresh));
                    let timer = self.timer_id();
                    self.timers.insert(timer, Timer::Refresh);
                    out.push(UpstreamAction::Wake { timer, after });
                }
                for exchange in parked {
                    self.start(exchange, out);
                }
            }
            Err(why) => {
                if was == Asking::Refresh {
                    out.push(UpstreamAction::Log(format!("the credentials could not be refreshed: {why}")));
                }
                for exchange in parked {
                    let stream = self.stream();
                    self.exchanges.insert(stream, exchange);
                    self.ended(stream, End::Failed(format!("the server asks for authorization: {why}")), out);
                }
            }
        }
    }
}
