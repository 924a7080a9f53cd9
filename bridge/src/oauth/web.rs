//! The flow's own HTTP: metadata documents, registration, and the token
//! endpoint through `oauth2`. Redirects are never followed (a redirect is how
//! a token request would be sent somewhere else), every exchange is bounded in
//! time, and an authorization server's URL over plain HTTP is refused unless it
//! is on loopback (every authorization server endpoint over HTTPS, as the spec's
//! communication security says).

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reqwest::{Client, StatusCode, Url};
use serde::de::DeserializeOwned;

/// The flow's HTTP client.
#[derive(Clone)]
pub struct Web {
    /// Made on first use: most runs never authorize, and making it reads the
    /// system's certificates.
    client: Arc<OnceLock<Result<Client, String>>>,
    timeout: Duration,
    ipv4: bool,
    /// `--allow-http`: an authorization server over plain HTTP anywhere (a trusted private network).
    allow_http: bool,
}

/// An HTTP fault, for `oauth2`'s client trait.
#[derive(Debug)]
pub struct WebError(pub String);

impl std::fmt::Display for WebError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WebError {}

/// `oauth2`'s requests (token, refresh, device code) go through the flow's client.
impl<'c> oauth2::AsyncHttpClient<'c> for Web {
    type Error = WebError;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<oauth2::HttpResponse, WebError>> + Send + 'c>>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(self.exchange(request))
    }
}

/// The largest metadata document or token answer read, in bytes.
const MAX_DOCUMENT: usize = 1024 * 1024;

impl Web {
    pub fn new(timeout: Duration, allow_http: bool, ipv4: bool) -> Web {
        Web { client: Arc::default(), timeout, ipv4, allow_http }
    }

    fn client(&self) -> Result<&Client, String> {
        let made = self.client.get_or_init(|| {
            crate::connect::install_crypto();
            let mut client = Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(self.timeout);
            if self.ipv4 {
                client = client.local_address(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
            }
            client.build().map_err(|e| format!("cannot make the authorization HTTP client: {e}"))
        });
        made.as_ref().map_err(Clone::clone)
    }

    /// Refuses `url` for `what` unless it is HTTPS, or HTTP on loopback.
    pub fn require_secure(&self, url: &Url, what: &str) -> Result<(), String> {
        match url.scheme() {
            "https" => Ok(()),
            "http" if is_loopback(url) || self.allow_http => Ok(()),
            _ => Err(format!(
                "{what} {url} is not HTTPS: refused (only loopback may be plain HTTP; --allow-http for a trusted network)"
            )),
        }
    }

    /// The JSON document at `url`: `Err` when it cannot be asked (the
    /// connection), `Ok(Err(why))` when it is not there (a status but 2xx, or
    /// something that is not the document: a catch-all page), for the next URL to be tried.
    pub async fn get_json<T: DeserializeOwned>(&self, url: &Url) -> Result<Result<T, String>, String> {
        let response = self
            .client()?
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| format!("GET {url}: {}", crate::connect::error_chain(&e)))?;
        if !response.status().is_success() {
            return Ok(Err(format!("HTTP {}", response.status())));
        }
        let body = read(response).await.map_err(|e| format!("GET {url}: {e}"))?;
        Ok(serde_json::from_slice(&body).map_err(|e| format!("not the document: {e}")))
    }

    /// POSTs `body` as JSON; the answer's status and JSON body.
    pub async fn post_json(&self, url: &Url, body: &serde_json::Value) -> Result<(StatusCode, Vec<u8>), String> {
        let response = self
            .client()?
            .post(url.clone())
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| format!("POST {url}: {}", crate::connect::error_chain(&e)))?;
        let status = response.status();
        Ok((status, read(response).await.map_err(|e| format!("POST {url}: {e}"))?))
    }

    /// One exchange for `oauth2` (token and refresh requests).
    pub async fn exchange(&self, request: oauth2::HttpRequest) -> Result<oauth2::HttpResponse, WebError> {
        let (parts, body) = request.into_parts();
        let url = Url::parse(&parts.uri.to_string()).map_err(|e| WebError(format!("{}: {e}", parts.uri)))?;
        self.require_secure(&url, "the token endpoint").map_err(WebError)?;
        let response = self
            .client()
            .map_err(WebError)?
            .request(parts.method, url.clone())
            .headers(parts.headers)
            .body(body)
            .send()
            .await
            .map_err(|e| WebError(format!("{} {url}: {}", "POST", crate::connect::error_chain(&e))))?;
        let mut answer = oauth2::http::Response::builder().status(response.status());
        for (name, value) in response.headers() {
            answer = answer.header(name, value);
        }
        let body = read(response).await.map_err(WebError)?;
        answer.body(body).map_err(|e| WebError(e.to_string()))
    }
}

async fn read(mut response: reqwest::Response) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| crate::connect::error_chain(&e))? {
        if body.len() + chunk.len() > MAX_DOCUMENT {
            return Err(format!("the answer is over {MAX_DOCUMENT} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Is `url`'s host this machine (`localhost`, 127.0.0.0/8, ::1)?
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_is_refused_unless_on_loopback() {
        let web = Web::new(Duration::from_secs(1), false, false);
        let check = |u: &str| web.require_secure(&Url::parse(u).unwrap(), "the token endpoint");
        for ok in
            ["https://auth.example.com/token", "http://127.0.0.1:9/token", "http://localhost/t", "http://[::1]:8/t"]
        {
            assert!(check(ok).is_ok(), "{ok}");
        }
        for no in ["http://auth.example.com/token", "http://10.0.0.1/token", "ftp://127.0.0.1/x"] {
            let e = check(no).unwrap_err();
            assert!(e.contains("not HTTPS") && e.contains(no), "{e}");
        }
        let trusting = Web::new(Duration::from_secs(1), true, false);
        assert!(trusting.require_secure(&Url::parse("http://auth.internal/token").unwrap(), "it").is_ok());
    }
}
