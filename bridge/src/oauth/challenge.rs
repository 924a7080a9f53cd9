//! What a server's `WWW-Authenticate` says (RFC 6750 §3, RFC 9728 §5.1):
//! where its Protected Resource Metadata is, the scopes it asks for, and
//! whether it refused for want of scope. Read with `http-auth`'s challenge parser.

/// The `Bearer` challenge of a `WWW-Authenticate` header, its parameters unescaped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Challenge {
    /// `resource_metadata`: the Protected Resource Metadata's URL.
    pub resource_metadata: Option<String>,
    /// `scope`, split on spaces.
    pub scope: Option<Vec<String>>,
    /// `error` (`invalid_token`, `insufficient_scope`, ...).
    pub error: Option<String>,
}

impl Challenge {
    /// The `Bearer` challenge of `header`; none when the header has no Bearer
    /// challenge or cannot be read (a malformed header is as good as none: the
    /// well-known URLs are tried then).
    pub fn parse(header: &str) -> Option<Challenge> {
        let challenges = http_auth::parse_challenges(header).ok()?;
        let bearer = challenges.into_iter().find(|c| c.scheme.eq_ignore_ascii_case("bearer"))?;
        let mut out = Challenge::default();
        for (name, value) in bearer.params {
            let value = value.to_unescaped();
            match name.to_ascii_lowercase().as_str() {
                "resource_metadata" => out.resource_metadata = Some(value),
                "scope" => out.scope = Some(value.split_whitespace().map(String::from).collect()),
                "error" => out.error = Some(value),
                _ => {}
            }
        }
        Some(out)
    }

    /// A `403` for want of scope: step-up authorization, not a new login.
    pub fn insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_challenge_is_read_among_others_with_quoted_and_plain_values() {
        let c = Challenge::parse(
            r#"Basic realm="x", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#,
        )
        .unwrap();
        assert_eq!(c.scope.as_deref(), Some(&["files:read".to_string(), "files:write".to_string()][..]));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource/mcp")
        );
        assert!(c.insufficient_scope());
        let plain = Challenge::parse("bearer error=invalid_token").unwrap();
        assert!(!plain.insufficient_scope());
        assert_eq!((plain.error.as_deref(), plain.scope, plain.resource_metadata), (Some("invalid_token"), None, None));
        assert_eq!(Challenge::parse("Bearer").unwrap(), Challenge::default());
        assert_eq!(Challenge::parse(r#"Basic realm="x""#), None, "no Bearer challenge");
        assert_eq!(Challenge::parse(r#"Bearer scope="open"#), None, "an unclosed quote");
    }
}
