//! Where the server's authorization comes from: its Protected Resource
//! Metadata (RFC 9728), then its authorization server's metadata (RFC 8414,
//! or OpenID Connect Discovery), each tried at the URLs and in the order the
//! MCP authorization texts give, each checked as they say before it is used.

use reqwest::Url;
use serde::{Deserialize, Serialize};

use super::web::Web;

/// The server's Protected Resource Metadata, what the bridge reads of it.
#[derive(Clone, Debug, Deserialize)]
pub struct ResourceMetadata {
    /// The resource the metadata is for: the `resource` parameter sent to the
    /// authorization server, once checked against the server's URL.
    pub resource: String,
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Option<Vec<String>>,
}

/// An authorization server's metadata (RFC 8414 §2), what the bridge reads of it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct ServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_endpoint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes_supported: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id_metadata_document_supported: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_response_iss_parameter_supported: Option<bool>,
    /// RFC 8628's device authorization endpoint (`--device-code`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_authorization_endpoint: Option<String>,
}

/// The server's canonical URI (RFC 8707 §2): its URL without a fragment, and
/// without the trailing slash of an empty path.
pub fn canonical_resource(server: &Url) -> String {
    let mut url = server.clone();
    url.set_fragment(None);
    let text = url.to_string();
    if url.path() == "/" && url.query().is_none() { text.trim_end_matches('/').to_string() } else { text }
}

/// The Protected Resource Metadata's URLs, in the order the spec gives: the
/// challenge's `resource_metadata`, else the well-known URL at the server's
/// path, then at its root.
pub fn resource_metadata_urls(server: &Url, from_challenge: Option<&str>) -> Result<Vec<Url>, String> {
    if let Some(url) = from_challenge {
        let url = server.join(url).map_err(|e| format!("the challenge's resource_metadata {url:?}: {e}"))?;
        return Ok(vec![url]);
    }
    let mut urls = Vec::new();
    let path = server.path().trim_end_matches('/');
    if !path.is_empty() {
        urls.push(well_known(server, "oauth-protected-resource", path));
    }
    urls.push(well_known(server, "oauth-protected-resource", ""));
    Ok(urls)
}

/// An authorization server's metadata URLs for its issuer, in the order the spec gives.
pub fn server_metadata_urls(issuer: &Url) -> Vec<Url> {
    let path = issuer.path().trim_end_matches('/');
    if path.is_empty() {
        vec![well_known(issuer, "oauth-authorization-server", ""), well_known(issuer, "openid-configuration", "")]
    } else {
        let mut appended = issuer.clone();
        appended.set_path(&format!("{path}/.well-known/openid-configuration"));
        appended.set_query(None);
        vec![
            well_known(issuer, "oauth-authorization-server", path),
            well_known(issuer, "openid-configuration", path),
            appended,
        ]
    }
}

/// `/.well-known/{name}{path}` at `base`'s origin.
fn well_known(base: &Url, name: &str, path: &str) -> Url {
    let mut url = base.clone();
    url.set_path(&format!("/.well-known/{name}{path}"));
    url.set_query(None);
    url.set_fragment(None);
    url
}

/// Is `resource` (the metadata's) the server at `server`, or a resource above
/// it on the same origin? (RFC 9728 §3.3: a client must not use metadata that
/// names another resource.)
pub fn resource_covers(resource: &str, server: &Url) -> bool {
    let Ok(resource) = Url::parse(resource) else { return false };
    if resource.origin() != server.origin() || resource.fragment().is_some() {
        return false;
    }
    let above = resource.path().trim_end_matches('/');
    let path = server.path();
    path == above || path.starts_with(&format!("{above}/")) || above.is_empty()
}

/// The Protected Resource Metadata, from the first of its URLs that serves it.
pub async fn resource_metadata(
    web: &Web,
    server: &Url,
    from_challenge: Option<&str>,
) -> Result<ResourceMetadata, String> {
    let mut tried = Vec::new();
    for url in resource_metadata_urls(server, from_challenge)? {
        // Metadata that names the authorization server is as trusted as the server's own URL.
        if server.scheme() == "https" {
            web.require_secure(&url, "the protected resource metadata")?;
        }
        match web.get_json::<ResourceMetadata>(&url).await? {
            Ok(metadata) => {
                if !resource_covers(&metadata.resource, server) {
                    return Err(format!(
                        "the protected resource metadata at {url} is for {:?}, not for {server}: refused (RFC 9728 §3.3)",
                        metadata.resource
                    ));
                }
                if metadata.authorization_servers.is_empty() {
                    return Err(format!("the protected resource metadata at {url} names no authorization server"));
                }
                return Ok(metadata);
            }
            Err(why) => tried.push(format!("{url} ({why})")),
        }
    }
    Err(format!("the server's protected resource metadata is not at {}", tried.join(" nor at ")))
}

/// The authorization server's metadata for `issuer`, from the first of its
/// URLs that serves it, refused when it names another issuer (RFC 8414 §3.3).
pub async fn server_metadata(web: &Web, issuer: &str) -> Result<ServerMetadata, String> {
    let issuer_url = Url::parse(issuer).map_err(|e| format!("the authorization server {issuer:?} is no URL: {e}"))?;
    web.require_secure(&issuer_url, "the authorization server")?;
    let mut tried = Vec::new();
    for url in server_metadata_urls(&issuer_url) {
        match web.get_json::<ServerMetadata>(&url).await? {
            Ok(metadata) => {
                if metadata.issuer != issuer {
                    return Err(format!(
                        "the authorization server metadata at {url} names the issuer {:?}, not {issuer:?}: refused (RFC 8414 §3.3)",
                        metadata.issuer
                    ));
                }
                for (what, endpoint) in
                    [("authorization", &metadata.authorization_endpoint), ("token", &metadata.token_endpoint)]
                        .into_iter()
                        .chain(metadata.registration_endpoint.as_ref().map(|e| ("registration", e)))
                        .chain(metadata.device_authorization_endpoint.as_ref().map(|e| ("device authorization", e)))
                {
                    let url = Url::parse(endpoint).map_err(|e| format!("the {what} endpoint {endpoint:?}: {e}"))?;
                    web.require_secure(&url, &format!("the {what} endpoint"))?;
                }
                return Ok(metadata);
            }
            Err(why) => tried.push(format!("{url} ({why})")),
        }
    }
    Err(format!("the authorization server {issuer}'s metadata is not at {}", tried.join(" nor at ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(list: Vec<Url>) -> Vec<String> {
        list.into_iter().map(String::from).collect()
    }

    #[test]
    fn resource_metadata_is_looked_for_where_the_challenge_says_else_at_the_path_then_the_root() {
        let server = Url::parse("https://example.com/public/mcp").unwrap();
        assert_eq!(
            urls(resource_metadata_urls(&server, None).unwrap()),
            [
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            urls(resource_metadata_urls(&server, Some("https://example.com/prm")).unwrap()),
            ["https://example.com/prm"]
        );
        let root = Url::parse("https://example.com/").unwrap();
        assert_eq!(
            urls(resource_metadata_urls(&root, None).unwrap()),
            ["https://example.com/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn server_metadata_is_looked_for_in_the_specs_order() {
        let tenant = Url::parse("https://auth.example.com/tenant1").unwrap();
        assert_eq!(
            urls(server_metadata_urls(&tenant)),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration"
            ]
        );
        let root = Url::parse("https://auth.example.com").unwrap();
        assert_eq!(
            urls(server_metadata_urls(&root)),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn the_canonical_resource_and_what_metadata_may_name() {
        let server = Url::parse("https://Mcp.Example.com/server/mcp#x").unwrap();
        assert_eq!(canonical_resource(&server), "https://mcp.example.com/server/mcp");
        assert_eq!(canonical_resource(&Url::parse("https://mcp.example.com/").unwrap()), "https://mcp.example.com");
        let server = Url::parse("https://mcp.example.com/server/mcp").unwrap();
        for ok in ["https://mcp.example.com/server/mcp", "https://mcp.example.com/server", "https://mcp.example.com"] {
            assert!(resource_covers(ok, &server), "{ok}");
        }
        for no in [
            "https://other.example.com/server/mcp",
            "https://mcp.example.com/serv",
            "https://mcp.example.com/server/mcp/deeper",
            "http://mcp.example.com/server/mcp",
            "not a url",
        ] {
            assert!(!resource_covers(no, &server), "{no}");
        }
    }
}

#[cfg(test)]
mod served {
    use super::*;
    use axum::Router;
    use axum::routing::get;

    /// `document` served at the root issuer's RFC 8414 URL on loopback; the issuer.
    async fn serve(document: impl Fn(&str) -> serde_json::Value) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let body = document(&issuer).to_string();
        let app = Router::new().route("/.well-known/oauth-authorization-server", get(move || async move { body }));
        tokio::spawn(async move { axum::serve(listener, app).await });
        issuer
    }

    fn metadata(issuer: &str, token_endpoint: &str) -> serde_json::Value {
        serde_json::json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{issuer}/authorize"),
            "token_endpoint": token_endpoint,
            "code_challenge_methods_supported": ["S256"],
        })
    }

    #[tokio::test]
    async fn server_metadata_is_refused_for_another_issuer_or_an_endpoint_over_plain_http_off_loopback() {
        let web = Web::new(std::time::Duration::from_secs(5), false, false);
        let good = serve(|issuer| metadata(issuer, &format!("{issuer}/token"))).await;
        assert_eq!(server_metadata(&web, &good).await.unwrap().token_endpoint, format!("{good}/token"));
        let plain = serve(|issuer| metadata(issuer, "http://auth.example.com/token")).await;
        let e = server_metadata(&web, &plain).await.unwrap_err();
        assert!(e.contains("the token endpoint http://auth.example.com/token is not HTTPS"), "{e}");
        let other = serve(|_| metadata("https://honest.example", "https://honest.example/token")).await;
        let e = server_metadata(&web, &other).await.unwrap_err();
        assert!(e.contains("names the issuer \"https://honest.example\"") && e.contains("refused"), "{e}");
        // An issuer over plain HTTP off loopback is not even asked.
        let e = server_metadata(&web, "http://auth.example.com").await.unwrap_err();
        assert!(e.contains("not HTTPS"), "{e}");
    }
}
