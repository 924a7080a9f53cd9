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

/// The path the redirect comes to.
const PATH: &str = "/callback";

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
    /// Listens on 127.0.0.1 at `port` (a free one when `None`) for the
    /// redirect carrying `state`.
    pub async fn listen(port: Option<u16>, state: String) -> Result<Callback, String> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port.unwrap_or(0))).await.map_err(|e| {
            format!("cannot listen for the authorization's redirect on 127.0.0.1:{}: {e}", port.unwrap_or(0))
        })?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let (send, redirects) = mpsc::channel(1);
        let (stop, stopped) = oneshot::channel::<()>();
        let app = Router::new().route(PATH, get(redirected)).with_state((state, send));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .await;
        });
        Ok(Callback { redirect_uri: format!("http://127.0.0.1:{port}{PATH}"), redirects, _stop: stop })
    }

    /// `http://127.0.0.1:PORT/callback`: the only redirect URI the bridge registers and sends.
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// The redirect with the flow's `state`.
    pub async fn redirect(&mut self) -> Result<Redirect, String> {
        self.redirects.recv().await.ok_or_else(|| "the redirect listener stopped".to_string())
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
