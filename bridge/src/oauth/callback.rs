//! The authorization's redirect, caught on loopback (RFC 8252 §7.3): a
//! listener on 127.0.0.1 that takes the one redirect whose `state` is the
//! flow's, refuses any other (the flow goes on waiting), and is closed when
//! the flow is over (dropped).

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Html;
use axum::routing::get;
use tokio::sync::{mpsc, oneshot};

#[cfg(test)]
use std::time::Duration;

/// The path the redirect comes to unless `--oauth-callback-path` says another.
pub const DEFAULT_PATH: &str = "/callback";

/// What the authorization server sent back through the browser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Redirect {
    pub code: Option<String>,
    pub iss: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

/// A listener waiting for one flow's redirect.
pub struct Callback {
    redirect_uri: String,
    redirects: mpsc::Receiver<Redirect>,
    _stop: oneshot::Sender<()>,
}

impl Callback {
    /// Listens on loopback at `port` (a free one when `None`) for the
    /// redirect to `path` carrying `state`; the redirect URI names `host`
    /// (`127.0.0.1`, `localhost` or `[::1]`: loopback, whatever the name).
    pub async fn listen(host: &Loopback, port: Option<u16>, path: &str, state: String) -> Result<Callback, String> {
        let listener = tokio::net::TcpListener::bind((host.address(), port.unwrap_or(0))).await.map_err(|e| {
            format!("cannot listen for the authorization's redirect on {}:{}: {e}", host.name(), port.unwrap_or(0))
        })?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let (send, redirects) = mpsc::channel(1);
        let (stop, stopped) = oneshot::channel::<()>();
        let app = Router::new().route(path, get(redirected)).with_state((state, send));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .await;
        });
        Ok(Callback { redirect_uri: format!("http://{}:{port}{path}", host.name()), redirects, _stop: stop })
    }

    /// `http://127.0.0.1:PORT/callback`: the only redirect URI the bridge registers and sends.
    /// (`--oauth-callback-host` and `--oauth-callback-path` change the name and the path, never the machine.)
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// The redirect with the flow's `state`.
    pub async fn redirect(&mut self) -> Result<Redirect, String> {
        self.redirects.recv().await.ok_or_else(|| "the redirect listener stopped".to_string())
    }
}

/// The loopback name the redirect URI uses (`--oauth-callback-host`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Loopback {
    /// `127.0.0.1`, as RFC 8252 §7.3 recommends.
    #[default]
    Ipv4,
    /// `localhost`, for servers that registered it (mcp-remote's default); listened on at 127.0.0.1.
    Localhost,
    /// `[::1]`.
    Ipv6,
}

impl Loopback {
    pub fn parse(text: &str) -> Result<Loopback, String> {
        match text {
            "127.0.0.1" => Ok(Loopback::Ipv4),
            "localhost" => Ok(Loopback::Localhost),
            "::1" | "[::1]" => Ok(Loopback::Ipv6),
            other => Err(format!(
                "{other:?} is not loopback: 127.0.0.1, localhost or [::1] (the redirect never leaves this machine)"
            )),
        }
    }

    fn address(&self) -> std::net::IpAddr {
        match self {
            Loopback::Ipv4 | Loopback::Localhost => std::net::Ipv4Addr::LOCALHOST.into(),
            Loopback::Ipv6 => std::net::Ipv6Addr::LOCALHOST.into(),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Loopback::Ipv4 => "127.0.0.1",
            Loopback::Localhost => "localhost",
            Loopback::Ipv6 => "[::1]",
        }
    }
}

type Shared = (String, mpsc::Sender<Redirect>);

async fn redirected(
    State((state, send)): State<Shared>,
    RawQuery(query): RawQuery,
) -> (StatusCode, Html<&'static str>) {
    let mut redirect = Redirect::default();
    let mut came_with = None;
    for (name, value) in url::form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        let value = Some(value.into_owned());
        match &*name {
            "code" => redirect.code = value,
            "state" => came_with = value,
            "iss" => redirect.iss = value,
            "error" => redirect.error = value,
            "error_description" => redirect.error_description = value,
            _ => {}
        }
    }
    if came_with.as_deref() != Some(state.as_str()) {
        return (
            StatusCode::BAD_REQUEST,
            Html(
                "<p>This is not the authorization mcp-era-bridge is waiting for (its state differs). Nothing was done.</p>",
            ),
        );
    }
    if send.try_send(redirect).is_err() {
        return (StatusCode::CONFLICT, Html("<p>mcp-era-bridge has already taken this authorization.</p>"));
    }
    (StatusCode::OK, Html("<p>mcp-era-bridge has the authorization's answer. You can close this window.</p>"))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn get(url: &str) -> Result<u16, String> {
        crate::connect::install_crypto();
        reqwest::get(url).await.map(|r| r.status().as_u16()).map_err(|e| e.to_string())
    }

    #[tokio::test]
    async fn only_the_flows_state_is_taken_on_loopback_and_the_listener_closes_after() {
        let mut callback = Callback::listen(&Loopback::Ipv4, None, DEFAULT_PATH, "the-state".into()).await.unwrap();
        let uri = callback.redirect_uri().to_string();
        let url = reqwest::Url::parse(&uri).unwrap();
        assert_eq!((url.scheme(), url.host_str(), url.path()), ("http", Some("127.0.0.1"), DEFAULT_PATH));
        // Another flow's redirect (or a forged one) is refused, and the flow goes on waiting.
        assert_eq!(get(&format!("{uri}?code=stolen&state=other")).await, Ok(400));
        assert_eq!(get(&format!("{uri}?code=stolen")).await, Ok(400));
        let waiting = tokio::time::timeout(Duration::from_millis(100), callback.redirect()).await;
        assert!(waiting.is_err(), "nothing was taken: {waiting:?}");
        assert_eq!(get(&format!("{uri}?code=c0de&state=the-state&iss=https%3A%2F%2Fas.example")).await, Ok(200));
        let redirect = callback.redirect().await.unwrap();
        assert_eq!(
            redirect,
            Redirect { code: Some("c0de".into()), iss: Some("https://as.example".into()), ..Redirect::default() }
        );
        drop(callback);
        // Closed with the flow: nothing answers on its port any more.
        let until = std::time::Instant::now() + Duration::from_secs(5);
        while get(&uri).await.is_ok() {
            assert!(std::time::Instant::now() < until, "the listener is still open");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

#[cfg(test)]
mod names {
    use super::*;

    #[test]
    fn the_callback_host_is_a_loopback_name_or_refused() {
        assert_eq!(Loopback::parse("localhost"), Ok(Loopback::Localhost));
        assert_eq!(Loopback::parse("[::1]"), Ok(Loopback::Ipv6));
        for no in ["0.0.0.0", "example.com", "192.168.1.2", ""] {
            assert!(Loopback::parse(no).unwrap_err().contains("not loopback"), "{no}");
        }
        assert!(Loopback::Localhost.address().is_loopback() && Loopback::Ipv6.address().is_loopback());
    }
}
