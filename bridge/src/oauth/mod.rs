//! OAuth 2.1 for `--connect`, as the MCP authorization texts of 2025-11-25 and
//! 2026-07-28 say: the driver's answer to [`UpstreamAction::Authorize`]
//! (`mcp_era_bridge::http`), whose machine holds every request meanwhile.
//!
//! A challenge (`401`, or `403 insufficient_scope`) starts it: the server's
//! Protected Resource Metadata (`discovery`), its authorization server's
//! metadata, the bridge identified (a pre-registered client, a Client ID
//! Metadata Document URL, or dynamic registration, in the spec's order), an
//! authorization code with PKCE (S256) and the `resource` parameter, the
//! redirect caught on loopback (`callback`) with its `state` and `iss`
//! checked, and the tokens kept per server and issuer (`store`). Tokens are
//! refreshed before they expire (the machine's timer) and when the server
//! refuses one; a step-up asks for the scopes it had and the new ones, a few
//! times at most. No secret (token, code, verifier, client secret) is ever
//! written to the log.
//!
//! [`UpstreamAction::Authorize`]: mcp_era_bridge::http::UpstreamAction::Authorize

mod browser;
mod callback;
mod challenge;
mod discovery;
mod store;
mod web;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_era_bridge::http::{AuthReason, Credentials};
use oauth2::basic::{BasicClient, BasicTokenResponse};
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge, RedirectUrl,
    RefreshToken, RequestTokenError, Scope, TokenResponse, TokenUrl,
};
use reqwest::Url;
use tokio::sync::Mutex;

pub use browser::Browser;
pub use callback::{DEFAULT_PATH as DEFAULT_CALLBACK_PATH, Loopback};
pub use store::Store;

use challenge::Challenge;
use discovery::ServerMetadata;
use store::{Client, Entry, Grant, Tokens};
use web::Web;

/// What `--connect`'s OAuth options say.
#[derive(Clone, Debug)]
pub struct Config {
    /// The server (`--connect`).
    pub server: Url,
    pub store: Store,
    /// `--client-id` and `--client-secret`: a client registered beforehand.
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    /// `--client-metadata-url`: the bridge's Client ID Metadata Document.
    pub client_metadata_url: Option<String>,
    /// `--oauth-callback-port`; a free one when `None`.
    pub callback_port: Option<u16>,
    pub browser: Browser,
    /// `--oauth-timeout`: how long the user has to authorize; each request
    /// waiting meanwhile is answered with an error naming it after this.
    pub timeout: Duration,
    /// Each metadata, registration and token exchange.
    pub http_timeout: Duration,
    /// `--resource`: the RFC 8707 resource tokens are asked for instead of the
    /// one the server's metadata names (tokens kept apart from the server's others).
    pub resource: Option<String>,
    /// `--disable-resource-parameter`: no `resource` sent at all (some
    /// authorization servers refuse it).
    pub no_resource_parameter: bool,
    /// `--authorize-param KEY=VALUE`: more parameters on the authorization request.
    pub authorize_params: Vec<(String, String)>,
    /// `--static-oauth-client-metadata`: fields merged over the registration's
    /// (its redirect URIs aside); its `scope` is what is asked for.
    pub client_metadata: serde_json::Map<String, serde_json::Value>,
    /// `--allow-http`: authorization server endpoints over plain HTTP off loopback.
    pub allow_http: bool,
    /// `--ipv4`: connect over IPv4 only.
    pub ipv4: bool,
    /// `--oauth-callback-host` and `--oauth-callback-path`.
    pub callback_host: Loopback,
    pub callback_path: String,
    /// `--client-credentials`: the client's own token (RFC 6749 §4.4), no user.
    pub client_credentials: bool,
    /// `--token-endpoint`: with client credentials, where to ask, without discovery.
    pub token_endpoint: Option<String>,
    /// `--device-code`: the device authorization grant (RFC 8628): a code to
    /// enter on any machine, no browser or redirect here.
    pub device_code: bool,
}

impl Config {
    /// What tells this configuration's tokens from the server's others: the
    /// options that change what a token is for.
    fn variant(&self) -> String {
        let mut parts = Vec::new();
        if let Some(resource) = &self.resource {
            parts.push(format!("resource={resource}"));
        }
        if self.no_resource_parameter {
            parts.push("no-resource".into());
        }
        for (key, value) in &self.authorize_params {
            parts.push(format!("authorize:{key}={value}"));
        }
        if self.client_credentials {
            parts.push("grant=client_credentials".into());
        }
        if self.device_code {
            parts.push("grant=device_code".into());
        }
        parts.join("\n")
    }

    /// The scopes `--static-oauth-client-metadata` names, if it does.
    fn static_scopes(&self) -> Option<Vec<String>> {
        let scope = self.client_metadata.get("scope")?.as_str()?;
        Some(scope.split_whitespace().map(String::from).collect())
    }
}

/// At most this many authorizations in a row without a request getting
/// through (step-ups and new logins alike): then the server's refusal is final.
const MAX_ATTEMPTS: u32 = 3;

/// The device authorization grant's type (RFC 8628 §3.4).
const DEVICE_CODE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// The soonest a renewal is asked after the last.
const MIN_RENEWAL: Duration = Duration::from_secs(5);

/// The client name the bridge registers with.
const CLIENT_NAME: &str = "mcp-era-bridge";

/// One server's authorization, shared by every session that reaches it.
pub struct Authorizer {
    config: Config,
    resource_key: String,
    web: Web,
    /// The server's file as last read or written (under its file lock).
    entry: Mutex<Entry>,
    /// One flow at a time: the sessions of `--listen` share this.
    flow: Mutex<()>,
    /// Bumped whenever the kept credentials change: a session that asks with
    /// older ones than these gets these, no new flow.
    generation: AtomicU64,
    /// Authorizations since a request last got through.
    attempts: AtomicU32,
    /// Step-ups asked per scope set, for the process's life: a server that
    /// keeps asking for scopes the authorization server never grants is not
    /// asked for them again and again.
    step_ups: std::sync::Mutex<HashMap<String, u32>>,
}

impl std::fmt::Debug for Authorizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Nothing kept (tokens, secrets) is shown.
        f.debug_struct("Authorizer").field("server", &self.resource_key).finish_non_exhaustive()
    }
}

impl Authorizer {
    pub fn new(config: Config) -> Result<Authorizer, String> {
        let resource_key = discovery::canonical_resource(&config.server);
        let entry = config.store.load(&resource_key, &config.variant())?;
        let web = Web::new(config.http_timeout, config.allow_http, config.ipv4);
        Ok(Authorizer {
            resource_key,
            web,
            entry: Mutex::new(entry),
            flow: Mutex::new(()),
            generation: AtomicU64::new(0),
            attempts: AtomicU32::new(0),
            step_ups: std::sync::Mutex::new(HashMap::new()),
            config,
        })
    }

    /// A request got through: the next refusal starts counting again.
    pub fn succeeded(&self) {
        self.attempts.store(0, Ordering::Relaxed);
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed)
    }

    /// The credentials kept (by an earlier run, or another session), refreshed
    /// first when they have expired; with the generation they are of.
    pub async fn stored(&self) -> Option<(Credentials, u64)> {
        let _flow = self.flow.lock().await;
        let (issuer, grant) = self.current().await?;
        let tokens = grant.tokens.as_ref()?;
        let credentials = if !expired(tokens) {
            self.credentials(tokens)
        } else if self.config.client_credentials {
            self.client_credentials(&Challenge::default()).await.ok()?
        } else {
            self.refresh(&issuer, &grant).await.ok()?
        };
        Some((credentials, self.generation()))
    }

    /// What the machine asked, for a session whose credentials are of
    /// generation `seen`: new credentials and their generation, or why there are none.
    pub async fn authorize(&self, reason: AuthReason, seen: u64) -> Result<(Credentials, u64), String> {
        let _flow = self.flow.lock().await;
        // Renewed since this session's were (by another session, or while it waited): those.
        if self.generation() != seen
            && let Some((_, grant)) = self.current().await
            && let Some(tokens) = grant.tokens.as_ref().filter(|t| !expired(t))
        {
            return Ok((self.credentials(tokens), self.generation()));
        }
        let credentials = self.authorize_once(reason).await?;
        Ok((credentials, self.generation()))
    }

    async fn authorize_once(&self, reason: AuthReason) -> Result<Credentials, String> {
        let timeout = self.config.timeout;
        match reason {
            AuthReason::Expiring if self.config.client_credentials => {
                self.client_credentials(&Challenge::default()).await
            }
            AuthReason::Expiring => {
                let (issuer, grant) = self.current().await.ok_or("nothing to refresh")?;
                self.refresh(&issuer, &grant).await
            }
            AuthReason::Challenged { status, www_authenticate } => {
                let challenge = www_authenticate.as_deref().and_then(Challenge::parse).unwrap_or_default();
                let quoted =
                    || www_authenticate.as_deref().map(|w| format!(", WWW-Authenticate: {w}")).unwrap_or_default();
                if self.attempts.load(Ordering::Relaxed) >= MAX_ATTEMPTS {
                    return Err(format!(
                        "the server refused the credentials of {MAX_ATTEMPTS} authorizations in a row (HTTP {status}{}): giving up",
                        quoted()
                    ));
                }
                if challenge.insufficient_scope() {
                    let mut asked = challenge.scope.clone().unwrap_or_default();
                    asked.sort();
                    let mut step_ups = self.step_ups.lock().unwrap_or_else(|e| e.into_inner());
                    let n = step_ups.entry(asked.join(" ")).or_insert(0);
                    *n += 1;
                    if *n > MAX_ATTEMPTS {
                        return Err(format!(
                            "the server asked {MAX_ATTEMPTS} times already for the scopes {asked:?} (HTTP {status}{}): giving up",
                            quoted()
                        ));
                    }
                }
                // Asked for scopes the token already has: another authorization would change nothing.
                if challenge.insufficient_scope()
                    && let Some(asked) = &challenge.scope
                    && let Some((_, grant)) = self.current().await
                    && let Some(tokens) = &grant.tokens
                    && asked.iter().all(|s| tokens.scopes.contains(s))
                {
                    return Err(format!(
                        "the server refuses for want of the scopes {asked:?}, which the token was granted: giving up"
                    ));
                }
                // A token refused before its time (revoked, or the server's clock): a refresh first.
                if status.code == 401
                    && self.attempts.load(Ordering::Relaxed) == 0
                    && let Some((issuer, grant)) = self.current().await
                    && grant.tokens.as_ref().is_some_and(|t| t.refresh_token.is_some())
                    && let Ok(credentials) = self.refresh(&issuer, &grant).await
                {
                    self.attempts.fetch_add(1, Ordering::Relaxed);
                    return Ok(credentials);
                }
                let credentials = if self.config.client_credentials {
                    self.client_credentials(&challenge).await
                } else if self.config.device_code {
                    tokio::time::timeout(timeout, self.device_login(&challenge)).await.unwrap_or_else(|_| {
                        Err(format!("the authorization did not complete within {timeout:?} (--oauth-timeout)"))
                    })
                } else {
                    tokio::time::timeout(timeout, self.login(&challenge)).await.unwrap_or_else(|_| {
                        Err(format!("the authorization did not complete within {timeout:?} (--oauth-timeout)"))
                    })
                }?;
                // Counted once had: a flow that failed is no loop.
                self.attempts.fetch_add(1, Ordering::Relaxed);
                Ok(credentials)
            }
        }
    }

    async fn current(&self) -> Option<(String, Grant)> {
        let entry = self.entry.lock().await;
        let issuer = entry.current.clone()?;
        Some((issuer.clone(), entry.grants.get(&issuer)?.clone()))
    }

    /// The whole flow, from the challenge to the tokens kept.
    async fn login(&self, challenge: &Challenge) -> Result<Credentials, String> {
        let server = &self.config.server;
        let resource = discovery::resource_metadata(&self.web, server, challenge.resource_metadata.as_deref()).await?;
        // RFC 9728 §7.6 leaves the choice to the client: the first listed.
        let issuer = resource.authorization_servers[0].clone();
        self.check_binding(&issuer).await?;
        let metadata = discovery::server_metadata(&self.web, &issuer).await?;
        match &metadata.code_challenge_methods_supported {
            Some(methods) if methods.iter().any(|m| m == "S256") => {}
            Some(methods) => {
                return Err(format!(
                    "the authorization server {issuer} offers no S256 PKCE (only {methods:?}): refused"
                ));
            }
            None => {
                return Err(format!(
                    "the authorization server {issuer} does not say it supports PKCE (no code_challenge_methods_supported): refused"
                ));
            }
        }
        let grant = self.entry.lock().await.grants.get(&issuer).cloned().unwrap_or_default();
        let scopes = self.scopes(challenge, &resource, &metadata, grant.tokens.as_ref());
        let resource_parameter = self.resource_parameter(&resource);

        let state = CsrfToken::new_random();
        let stored_port = grant
            .client
            .as_ref()
            .and_then(|c| c.redirect_uri.as_deref())
            .and_then(|u| Url::parse(u).ok())
            .and_then(|u| u.port());
        let (host, path) = (&self.config.callback_host, self.config.callback_path.as_str());
        let listen = |port| callback::Callback::listen(host, port, path, state.secret().clone());
        let mut callback = match (self.config.callback_port, stored_port) {
            (Some(port), _) => listen(Some(port)).await?,
            // The port a registration was made with, when it is free: no new registration then.
            (None, Some(port)) => match listen(Some(port)).await {
                Ok(callback) => callback,
                Err(_) => listen(None).await?,
            },
            (None, None) => listen(None).await?,
        };
        let client = self.identify(&issuer, &metadata, grant.client.as_ref(), callback.redirect_uri(), &scopes).await?;

        let oauth = oauth_client(&client, &metadata, Some(callback.redirect_uri()))?;
        let (pkce, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = oauth
            .authorize_url(|| state.clone())
            .add_scopes(scopes.iter().cloned().map(Scope::new))
            .set_pkce_challenge(pkce);
        if let Some(resource) = &resource_parameter {
            request = request.add_extra_param("resource", resource);
        }
        for (key, value) in &self.config.authorize_params {
            request = request.add_extra_param(key, value);
        }
        let (url, _) = request.url();
        if let Err(why) = self.config.browser.open(url.as_str()) {
            eprintln!("mcp-era-bridge: {why}; open the URL above by hand");
        }
        eprintln!("mcp-era-bridge: waiting for the authorization's redirect to {}", callback.redirect_uri());
        let redirect = callback.redirect().await?;
        drop(callback);

        // RFC 9207 §2.4, before anything of the answer is acted on.
        let advertised = metadata.authorization_response_iss_parameter_supported == Some(true);
        match &redirect.iss {
            Some(iss) if *iss != metadata.issuer => {
                return Err(format!(
                    "the authorization's answer names the issuer {iss:?}, not {:?}: refused (RFC 9207)",
                    metadata.issuer
                ));
            }
            None if advertised => {
                return Err(format!(
                    "the authorization's answer carries no iss, though {} says it sends one: refused (RFC 9207)",
                    metadata.issuer
                ));
            }
            _ => {}
        }
        if let Some(error) = &redirect.error {
            return Err(format!(
                "the authorization server refused: {error}{}",
                redirect.error_description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default()
            ));
        }
        let code = redirect.code.ok_or("the authorization's answer carries no code")?;
        let mut request = oauth.exchange_code(AuthorizationCode::new(code)).set_pkce_verifier(verifier);
        if let Some(resource) = &resource_parameter {
            request = request.add_extra_param("resource", resource);
        }
        let token = request.request_async(&self.web).await.map_err(|e| token_error("the token request", &e))?;
        let tokens = tokens_of(&token, None, scopes);
        let credentials = self.credentials(&tokens);
        self.keep(issuer, resource_parameter, metadata, client, tokens).await?;
        Ok(credentials)
    }

    /// The device authorization grant (RFC 8628, `--device-code`): the user
    /// enters a code shown on stderr at the authorization server's page, on any
    /// machine; the token endpoint is polled at the interval it names meanwhile.
    async fn device_login(&self, challenge: &Challenge) -> Result<Credentials, String> {
        let server = &self.config.server;
        let resource = discovery::resource_metadata(&self.web, server, challenge.resource_metadata.as_deref()).await?;
        let issuer = resource.authorization_servers[0].clone();
        self.check_binding(&issuer).await?;
        let metadata = discovery::server_metadata(&self.web, &issuer).await?;
        let device_endpoint = metadata.device_authorization_endpoint.clone().ok_or_else(|| {
            format!(
                "the authorization server {issuer} offers no device authorization (--device-code): use the browser flow"
            )
        })?;
        let grant = self.entry.lock().await.grants.get(&issuer).cloned().unwrap_or_default();
        let scopes = self.scopes(challenge, &resource, &metadata, grant.tokens.as_ref());
        let resource_parameter = self.resource_parameter(&resource);
        let client = match (&self.config.client_id, grant.client.filter(|c| c.redirect_uri.is_none())) {
            (Some(client_id), _) => Client {
                client_id: client_id.clone(),
                client_secret: self.config.client_secret.clone(),
                token_endpoint_auth_method: auth_method(&metadata, self.config.client_secret.is_some()),
                redirect_uri: None,
            },
            (None, Some(registered)) => registered,
            (None, None) => match &metadata.registration_endpoint {
                Some(endpoint) => self.register(endpoint, &metadata, None, &scopes).await?,
                None => {
                    return Err(format!(
                        "the authorization server {issuer} takes no registration: give --client-id of a client registered there"
                    ));
                }
            },
        };
        let device_url = oauth2::DeviceAuthorizationUrl::new(device_endpoint.clone())
            .map_err(|e| format!("the device authorization endpoint {device_endpoint:?}: {e}"))?;
        let token_url =
            TokenUrl::new(metadata.token_endpoint.clone()).map_err(|e| format!("the token endpoint: {e}"))?;
        let oauth = BasicClient::new(ClientId::new(client.client_id.clone()))
            .set_device_authorization_url(device_url)
            .set_token_uri(token_url);
        let oauth = authenticated(oauth, &client.token_endpoint_auth_method, client.client_secret.as_ref());
        let mut request = oauth.exchange_device_code().add_scopes(scopes.iter().cloned().map(Scope::new));
        if let Some(resource) = &resource_parameter {
            request = request.add_extra_param("resource", resource);
        }
        let details: oauth2::StandardDeviceAuthorizationResponse =
            request.request_async(&self.web).await.map_err(|e| token_error("the device authorization request", &e))?;
        // The code is for the user's eyes: shown, as the grant means it to be (the device code is not).
        eprintln!(
            "mcp-era-bridge: to authorize the server, visit {} and enter the code {}",
            details.verification_uri().as_str(),
            details.user_code().secret()
        );
        if let Some(complete) = details.verification_uri_complete()
            && let Err(why) = self.config.browser.open(complete.secret())
        {
            eprintln!("mcp-era-bridge: {why}");
        }
        let mut request = oauth.exchange_device_access_token(&details);
        if let Some(resource) = &resource_parameter {
            request = request.add_extra_param("resource", resource);
        }
        let token = request
            .request_async(&self.web, tokio::time::sleep, None)
            .await
            .map_err(|e| token_error("the device access token request", &e))?;
        let tokens = tokens_of(&token, None, scopes);
        let credentials = self.credentials(&tokens);
        self.keep(issuer, resource_parameter, metadata, client, tokens).await?;
        Ok(credentials)
    }

    /// How the bridge is known to `issuer`: the pre-registered client, its
    /// metadata document's URL, the client registered before, or a new registration.
    async fn identify(
        &self,
        issuer: &str,
        metadata: &ServerMetadata,
        registered: Option<&Client>,
        redirect_uri: &str,
        scopes: &[String],
    ) -> Result<Client, String> {
        if let Some(client_id) = &self.config.client_id {
            let secret = self.config.client_secret.clone();
            let method = auth_method(metadata, secret.is_some());
            return Ok(Client {
                client_id: client_id.clone(),
                client_secret: secret,
                token_endpoint_auth_method: method,
                redirect_uri: None,
            });
        }
        if let Some(url) = &self.config.client_metadata_url
            && metadata.client_id_metadata_document_supported == Some(true)
        {
            return Ok(Client {
                client_id: url.clone(),
                client_secret: None,
                token_endpoint_auth_method: "none".into(),
                redirect_uri: None,
            });
        }
        if let Some(client) = registered
            && client.redirect_uri.as_deref() == Some(redirect_uri)
        {
            return Ok(client.clone());
        }
        let Some(endpoint) = &metadata.registration_endpoint else {
            return Err(format!(
                "the authorization server {issuer} takes no registration{}: give --client-id (and --client-secret) of a client registered there",
                if metadata.client_id_metadata_document_supported == Some(true) {
                    " but client metadata documents: give --client-metadata-url, or"
                } else {
                    ""
                }
            ));
        };
        self.register(endpoint, metadata, Some(redirect_uri), scopes).await
    }

    /// Dynamic client registration (RFC 7591): a native client with the loopback redirect.
    async fn register(
        &self,
        endpoint: &str,
        metadata: &ServerMetadata,
        redirect_uri: Option<&str>,
        scopes: &[String],
    ) -> Result<Client, String> {
        let url = Url::parse(endpoint).map_err(|e| format!("the registration endpoint {endpoint:?}: {e}"))?;
        let mut body = serde_json::json!({
            "client_name": CLIENT_NAME,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
            "application_type": "native",
        });
        if redirect_uri.is_none() {
            // The device flow: no redirect, no authorization code.
            body["grant_types"] = serde_json::json!([DEVICE_CODE_GRANT, "refresh_token"]);
            body["response_types"] = serde_json::json!([]);
        }
        if !scopes.is_empty() {
            body["scope"] = scopes.join(" ").into();
        }
        for (key, value) in &self.config.client_metadata {
            body[key] = value.clone();
        }
        // Whatever the options say, the only redirect is the bridge's own callback (none for the device flow).
        match redirect_uri {
            Some(uri) => body["redirect_uris"] = serde_json::json!([uri]),
            None => drop(body.as_object_mut().map(|b| b.remove("redirect_uris"))),
        }
        let (status, answer) = self.web.post_json(&url, &body).await?;
        #[derive(serde::Deserialize)]
        struct Registered {
            client_id: String,
            client_secret: Option<String>,
            token_endpoint_auth_method: Option<String>,
        }
        if !status.is_success() {
            return Err(format!(
                "the authorization server refused to register the bridge (HTTP {status}): {}",
                String::from_utf8_lossy(&answer).chars().take(300).collect::<String>()
            ));
        }
        let registered: Registered = serde_json::from_slice(&answer)
            .map_err(|e| format!("the registration endpoint's answer is not a registration: {e}"))?;
        let method = registered
            .token_endpoint_auth_method
            .unwrap_or_else(|| auth_method(metadata, registered.client_secret.is_some()));
        Ok(Client {
            client_id: registered.client_id,
            client_secret: registered.client_secret,
            token_endpoint_auth_method: method,
            redirect_uri: redirect_uri.map(String::from),
        })
    }

    /// New tokens from the refresh token; the rotated refresh token replaces
    /// the old one. Under the server file's lock, read again first: another
    /// process that refreshed meanwhile has rotated the refresh token, and its
    /// new tokens are taken instead.
    async fn refresh(&self, issuer: &str, grant: &Grant) -> Result<Credentials, String> {
        let _file = self.config.store.lock(&self.resource_key, &self.config.variant()).await?;
        let disk = self.config.store.load(&self.resource_key, &self.config.variant())?;
        let fresh = disk.grants.get(issuer).cloned().unwrap_or_default();
        if let Some(tokens) = &fresh.tokens
            && Some(tokens) != grant.tokens.as_ref()
            && !expired(tokens)
        {
            let credentials = self.credentials(tokens);
            *self.entry.lock().await = disk;
            self.generation.fetch_add(1, Ordering::Relaxed);
            return Ok(credentials);
        }
        let grant = if fresh.tokens.is_some() { &fresh } else { grant };
        let (Some(metadata), Some(client), Some(tokens)) = (&grant.metadata, &grant.client, &grant.tokens) else {
            return Err("nothing kept to refresh with".into());
        };
        let refresh_token = tokens.refresh_token.clone().ok_or("the authorization server gave no refresh token")?;
        let mut client = client.clone();
        if self.config.client_id.as_ref() == Some(&client.client_id) {
            // The options' secret, never kept on disk.
            client.client_secret = self.config.client_secret.clone();
        }
        let oauth = oauth_client(&client, metadata, None)?;
        let refresh = RefreshToken::new(refresh_token.clone());
        let mut request = oauth.exchange_refresh_token(&refresh);
        if let Some(resource) = &grant.resource {
            request = request.add_extra_param("resource", resource);
        }
        let token = request.request_async(&self.web).await.map_err(|e| token_error("the refresh", &e))?;
        let renewed = tokens_of(&token, Some(refresh_token), tokens.scopes.clone());
        let credentials = self.credentials(&renewed);
        let mut entry = disk;
        entry.grants.entry(issuer.to_string()).or_default().tokens = Some(renewed);
        self.config.store.save(&entry)?;
        *self.entry.lock().await = entry;
        self.generation.fetch_add(1, Ordering::Relaxed);
        Ok(credentials)
    }

    /// What a flow got, kept for `issuer`: the one whose tokens go first from now on.
    async fn keep(
        &self,
        issuer: String,
        resource: Option<String>,
        metadata: ServerMetadata,
        client: Client,
        tokens: Tokens,
    ) -> Result<(), String> {
        let client = self.to_keep(client);
        self.update(|entry| {
            entry.current = Some(issuer.clone());
            if self.config.client_id.is_some() {
                entry.client_issuer = Some(issuer.clone());
            }
            let kept = entry.grants.entry(issuer).or_default();
            kept.resource = resource;
            kept.metadata = Some(metadata);
            kept.client = Some(client);
            kept.tokens = Some(tokens);
        })
        .await
    }

    /// Changes the server's file under its lock, read again first (another
    /// process may have written it), and keeps what was written.
    async fn update(&self, change: impl FnOnce(&mut Entry)) -> Result<(), String> {
        let _file = self.config.store.lock(&self.resource_key, &self.config.variant()).await?;
        let mut entry = self.config.store.load(&self.resource_key, &self.config.variant())?;
        change(&mut entry);
        self.config.store.save(&entry)?;
        *self.entry.lock().await = entry;
        self.generation.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// A client from the options is bound to the first authorization server it
    /// was used with: its secret is never sent to another one the server's
    /// metadata names later (client registration, Authorization Server Binding).
    async fn check_binding(&self, issuer: &str) -> Result<(), String> {
        let Some(client_id) = &self.config.client_id else { return Ok(()) };
        match &self.entry.lock().await.client_issuer {
            Some(bound) if bound != issuer => Err(format!(
                "the client {client_id:?} (--client-id) was used with the authorization server {bound}, and the server \
                 now names {issuer}: refused, so that its credentials go nowhere else (if the move is meant, \
                 --oauth-logout {} first)",
                self.config.server
            )),
            _ => Ok(()),
        }
    }

    /// The client as kept on disk: a secret from the options stays in the options.
    fn to_keep(&self, mut client: Client) -> Client {
        if self.config.client_id.as_ref() == Some(&client.client_id) {
            client.client_secret = None;
        }
        client
    }

    /// `--oauth-logout`: forgets what is kept for the server (whatever the
    /// options it was kept with); how many files there were.
    pub fn logout(store: &Store, server: &Url) -> Result<usize, String> {
        store.forget(&discovery::canonical_resource(server))
    }

    /// The `resource` parameter: `--resource`, else the metadata's; none with `--disable-resource-parameter`.
    fn resource_parameter(&self, metadata: &discovery::ResourceMetadata) -> Option<String> {
        if self.config.no_resource_parameter {
            return None;
        }
        Some(self.config.resource.clone().unwrap_or_else(|| metadata.resource.clone()))
    }

    /// The scopes to ask for: `--static-oauth-client-metadata`'s, else as the
    /// spec says ([`choose_scopes`]); a step-up adds the challenge's to those had.
    fn scopes(
        &self,
        challenge: &Challenge,
        resource: &discovery::ResourceMetadata,
        metadata: &ServerMetadata,
        before: Option<&Tokens>,
    ) -> Vec<String> {
        match self.config.static_scopes() {
            Some(mut scopes) => {
                if challenge.insufficient_scope() {
                    scopes.extend(before.map(|t| t.scopes.clone()).unwrap_or_default());
                    scopes.extend(challenge.scope.clone().unwrap_or_default());
                    let mut seen = std::collections::HashSet::new();
                    scopes.retain(|s| seen.insert(s.clone()));
                }
                scopes
            }
            None => choose_scopes(challenge, resource, metadata, before),
        }
    }

    /// The client credentials grant (`--client-credentials`): the client's own
    /// token from the token endpoint, discovered as for a user's unless
    /// `--token-endpoint` names it; asked for again before it expires.
    async fn client_credentials(&self, challenge: &Challenge) -> Result<Credentials, String> {
        let client_id = self.config.client_id.clone().ok_or("--client-credentials needs --client-id")?;
        let before = self.current().await.and_then(|(_, grant)| grant.tokens);
        let (issuer, token_endpoint, methods, resource, scopes) = match &self.config.token_endpoint {
            Some(endpoint) => {
                let scopes = self
                    .config
                    .static_scopes()
                    .or_else(|| challenge.scope.clone())
                    .or_else(|| before.as_ref().map(|t| t.scopes.clone()))
                    .unwrap_or_default();
                let resource = if self.config.no_resource_parameter {
                    None
                } else {
                    Some(self.config.resource.clone().unwrap_or_else(|| self.resource_key.clone()))
                };
                (endpoint.clone(), endpoint.clone(), None, resource, scopes)
            }
            None => {
                let server = &self.config.server;
                let resource =
                    discovery::resource_metadata(&self.web, server, challenge.resource_metadata.as_deref()).await?;
                let issuer = resource.authorization_servers[0].clone();
                self.check_binding(&issuer).await?;
                let metadata = discovery::server_metadata(&self.web, &issuer).await?;
                let scopes = if challenge.scope.is_none() && before.is_some() {
                    before.as_ref().map(|t| t.scopes.clone()).unwrap_or_default()
                } else {
                    self.scopes(challenge, &resource, &metadata, before.as_ref())
                };
                let parameter = self.resource_parameter(&resource);
                (issuer, metadata.token_endpoint.clone(), Some(metadata), parameter, scopes)
            }
        };
        let url = Url::parse(&token_endpoint).map_err(|e| format!("the token endpoint {token_endpoint:?}: {e}"))?;
        self.web.require_secure(&url, "the token endpoint")?;
        let secret = self.config.client_secret.clone();
        let method = match &methods {
            Some(metadata) => auth_method(metadata, secret.is_some()),
            None if secret.is_some() => "client_secret_basic".into(),
            None => "none".into(),
        };
        let method = self
            .config
            .client_metadata
            .get("token_endpoint_auth_method")
            .and_then(|m| m.as_str())
            .map(String::from)
            .unwrap_or(method);
        let oauth = BasicClient::new(ClientId::new(client_id.clone())).set_token_uri(TokenUrl::from_url(url));
        let oauth = authenticated(oauth, &method, secret.as_ref());
        // offline_access asks for a refresh token, which this grant never has.
        let scopes: Vec<String> = scopes.into_iter().filter(|s| s != "offline_access").collect();
        let mut request = oauth.exchange_client_credentials().add_scopes(scopes.iter().cloned().map(Scope::new));
        if let Some(resource) = &resource {
            request = request.add_extra_param("resource", resource);
        }
        let token =
            request.request_async(&self.web).await.map_err(|e| token_error("the client credentials request", &e))?;
        let tokens = tokens_of(&token, None, scopes);
        let credentials = self.credentials(&tokens);
        self.update(|entry| {
            entry.current = Some(issuer.clone());
            entry.client_issuer = Some(issuer.clone());
            let kept = entry.grants.entry(issuer).or_default();
            kept.resource = resource;
            kept.metadata = methods;
            kept.client =
                Some(Client { client_id, client_secret: None, token_endpoint_auth_method: method, redirect_uri: None });
            kept.tokens = Some(tokens);
        })
        .await?;
        Ok(credentials)
    }

    /// The header, and when to renew: a tenth of the lifetime early (at most a
    /// minute), when there is a way to (a refresh token, or the client's own credentials).
    fn credentials(&self, tokens: &Tokens) -> Credentials {
        let renewable = tokens.refresh_token.is_some() || self.config.client_credentials;
        let refresh_after = match tokens.expires_at {
            Some(at) if renewable => {
                let left = Duration::from_secs(at).saturating_sub(now());
                // Never sooner than a few seconds: a server that gives tokens of no
                // lifetime is not asked again and again (a refused one is renewed then).
                Some(left.saturating_sub((left / 10).min(Duration::from_secs(60))).max(MIN_RENEWAL))
            }
            _ => None,
        };
        Credentials { authorization: format!("Bearer {}", tokens.access_token), refresh_after }
    }
}

/// The scopes to ask for, as the spec says: the challenge's (with those asked
/// for before, on a step-up), else the resource's `scopes_supported`, else
/// none; `offline_access` added when the authorization server offers it (for
/// a refresh token).
fn choose_scopes(
    challenge: &Challenge,
    resource: &discovery::ResourceMetadata,
    metadata: &ServerMetadata,
    before: Option<&Tokens>,
) -> Vec<String> {
    // Those had before first: re-authorizing never loses what was granted (the step-up union).
    let mut scopes: Vec<String> = before.map(|t| t.scopes.clone()).unwrap_or_default();
    match (&challenge.scope, &resource.scopes_supported) {
        (Some(asked), _) => scopes.extend(asked.iter().cloned()),
        (None, Some(supported)) => scopes.extend(supported.iter().cloned()),
        (None, None) => {}
    }
    if metadata.scopes_supported.as_ref().is_some_and(|s| s.iter().any(|s| s == "offline_access")) {
        scopes.push("offline_access".into());
    }
    let mut seen = std::collections::HashSet::new();
    scopes.retain(|s| seen.insert(s.clone()));
    scopes
}

/// The token endpoint's auth method for a client with or without a secret,
/// among those the server offers: basic, then post, then none (RFC 8414's
/// default, when it says nothing, is basic).
fn auth_method(metadata: &ServerMetadata, has_secret: bool) -> String {
    let Some(methods) = &metadata.token_endpoint_auth_methods_supported else {
        return if has_secret { "client_secret_basic" } else { "none" }.into();
    };
    let offered = |m: &str| methods.iter().any(|o| o == m);
    let choice = if has_secret && offered("client_secret_basic") {
        "client_secret_basic"
    } else if has_secret && offered("client_secret_post") {
        "client_secret_post"
    } else if offered("none") || !has_secret {
        "none"
    } else {
        "client_secret_basic"
    };
    choice.into()
}

type Oauth = BasicClient<
    oauth2::EndpointSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointSet,
>;

fn oauth_client(client: &Client, metadata: &ServerMetadata, redirect_uri: Option<&str>) -> Result<Oauth, String> {
    let mut oauth = BasicClient::new(ClientId::new(client.client_id.clone()))
        .set_auth_uri(
            AuthUrl::new(metadata.authorization_endpoint.clone())
                .map_err(|e| format!("the authorization endpoint: {e}"))?,
        )
        .set_token_uri(TokenUrl::new(metadata.token_endpoint.clone()).map_err(|e| format!("the token endpoint: {e}"))?);
    oauth = authenticated(oauth, &client.token_endpoint_auth_method, client.client_secret.as_ref());
    if let Some(uri) = redirect_uri {
        oauth = oauth.set_redirect_uri(RedirectUrl::new(uri.into()).map_err(|e| e.to_string())?);
    }
    Ok(oauth)
}

/// A client that authenticates at the token endpoint as `method` says
/// (`client_secret_post` in the body, else HTTP Basic; `none`: no secret sent).
fn authenticated<HA, HD, HI, HR, HT>(
    oauth: BasicClient<HA, HD, HI, HR, HT>,
    method: &str,
    secret: Option<&String>,
) -> BasicClient<HA, HD, HI, HR, HT>
where
    HA: oauth2::EndpointState,
    HD: oauth2::EndpointState,
    HI: oauth2::EndpointState,
    HR: oauth2::EndpointState,
    HT: oauth2::EndpointState,
{
    let oauth =
        oauth.set_auth_type(if method == "client_secret_post" { AuthType::RequestBody } else { AuthType::BasicAuth });
    match secret {
        Some(secret) if method != "none" => oauth.set_client_secret(ClientSecret::new(secret.clone())),
        _ => oauth,
    }
}

/// What a token endpoint's refusal says, without anything secret.
fn token_error<T: oauth2::ErrorResponseType + std::fmt::Display>(
    what: &str,
    e: &RequestTokenError<web::WebError, oauth2::StandardErrorResponse<T>>,
) -> String {
    match e {
        RequestTokenError::ServerResponse(answer) => format!(
            "{what} was refused: {}{}",
            answer.error(),
            answer.error_description().map(|d| format!(" ({d})")).unwrap_or_default()
        ),
        RequestTokenError::Request(e) => format!("{what} failed: {e}"),
        RequestTokenError::Parse(e, _) => format!("{what}'s answer is not a token: {e}"),
        RequestTokenError::Other(e) => format!("{what} failed: {e}"),
    }
}

/// Since the Unix epoch.
fn now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
}

/// The tokens to keep; their scopes those granted (the answer's `scope`), else those asked for.
fn tokens_of(token: &BasicTokenResponse, old_refresh: Option<String>, asked: Vec<String>) -> Tokens {
    let scopes = token.scopes().map(|s| s.iter().map(|s| s.to_string()).collect()).unwrap_or(asked);
    Tokens {
        access_token: token.access_token().secret().clone(),
        // A rotated refresh token replaces the old; none given keeps the old.
        refresh_token: token.refresh_token().map(|r| r.secret().clone()).or(old_refresh),
        expires_at: token.expires_in().map(|d| (now() + d).as_secs()),
        scopes,
    }
}

fn expired(tokens: &Tokens) -> bool {
    tokens.expires_at.is_some_and(|at| Duration::from_secs(at) <= now())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::routing::get;

    fn config(server: Url, store: Store) -> Config {
        Config {
            server,
            store,
            client_id: None,
            client_secret: None,
            client_metadata_url: None,
            callback_port: None,
            browser: Browser::Command("true".into()),
            timeout: Duration::from_secs(5),
            http_timeout: Duration::from_secs(5),
            resource: None,
            no_resource_parameter: false,
            authorize_params: Vec::new(),
            client_metadata: serde_json::Map::new(),
            allow_http: false,
            ipv4: false,
            callback_host: Loopback::Ipv4,
            callback_path: callback::DEFAULT_PATH.into(),
            client_credentials: false,
            token_endpoint: None,
            device_code: false,
        }
    }

    #[tokio::test]
    async fn a_pre_registered_client_is_never_sent_to_another_authorization_server_than_its_own() {
        // A server whose metadata names an authorization server on loopback.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let prm =
            serde_json::json!({"resource": format!("{base}/mcp"), "authorization_servers": [format!("{base}/as")]});
        let app = Router::new()
            .route("/.well-known/oauth-protected-resource/mcp", get(move || async move { prm.to_string() }));
        tokio::spawn(async move { axum::serve(listener, app).await });
        let dir = std::env::temp_dir().join(format!("mcp-era-bridge-binding-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::new(Some(dir.clone())).unwrap();
        let server = Url::parse(&format!("{base}/mcp")).unwrap();
        // The client was used with another authorization server before.
        let mut entry = store.load(&discovery::canonical_resource(&server), "").unwrap();
        entry.client_issuer = Some("https://auth.example.com".into());
        store.save(&entry).unwrap();
        let mut config = config(server, store);
        config.client_id = Some("pre-registered".into());
        config.client_secret = Some("its-secret".into());
        let authorizer = Authorizer::new(config).unwrap();
        let challenge = AuthReason::Challenged {
            status: mcp_era_bridge::http::Status::new(401, None),
            www_authenticate: Some("Bearer".into()),
        };
        let e = authorizer.authorize(challenge, 0).await.unwrap_err();
        assert!(e.contains("was used with the authorization server https://auth.example.com"), "{e}");
        assert!(e.contains(&format!("now names {base}/as: refused")), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scopes_are_the_challenges_else_the_resources_with_those_had_before_and_offline_access_when_offered() {
        let resource = discovery::ResourceMetadata {
            resource: "https://mcp.example.com/mcp".into(),
            authorization_servers: vec!["https://as.example.com".into()],
            scopes_supported: Some(vec!["read".into()]),
        };
        let metadata = |offline: bool| ServerMetadata {
            issuer: "https://as.example.com".into(),
            authorization_endpoint: "https://as.example.com/a".into(),
            token_endpoint: "https://as.example.com/t".into(),
            registration_endpoint: None,
            scopes_supported: Some(if offline { vec!["read".into(), "offline_access".into()] } else { vec![] }),
            token_endpoint_auth_methods_supported: None,
            code_challenge_methods_supported: Some(vec!["S256".into()]),
            client_id_metadata_document_supported: None,
            authorization_response_iss_parameter_supported: None,
            device_authorization_endpoint: None,
        };
        let challenge = |header: &str| Challenge::parse(header).unwrap();
        let had =
            Tokens { access_token: "a".into(), refresh_token: None, expires_at: None, scopes: vec!["read".into()] };
        assert_eq!(choose_scopes(&challenge(r#"Bearer scope="write""#), &resource, &metadata(false), None), ["write"]);
        assert_eq!(choose_scopes(&challenge("Bearer"), &resource, &metadata(false), None), ["read"]);
        let step_up = challenge(r#"Bearer error="insufficient_scope", scope="write""#);
        assert_eq!(
            choose_scopes(&step_up, &resource, &metadata(true), Some(&had)),
            ["read", "write", "offline_access"]
        );
        let none = discovery::ResourceMetadata { scopes_supported: None, ..resource.clone() };
        assert!(choose_scopes(&challenge("Bearer"), &none, &metadata(false), None).is_empty());
    }
}
