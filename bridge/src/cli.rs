//! The command line: every option with one line of help and an environment
//! variable a host's config can set instead, the server's command after `--` or
//! as the first argument that is not an option (launchers that parse their own
//! arguments drop a `--`), and errors that name the option (clap's, exit 2).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use mcp_era_bridge::ServerEraChoice;
use mcp_era_bridge::http::Transport;

use crate::{Options, Upstream, connect, listen};

/// The default bound on one message: 32 MiB, room for a large resource in
/// Base64, small enough that a runaway peer cannot take the machine's memory.
pub(crate) const MAX_MESSAGE: usize = 32 * 1024 * 1024;

const EXAMPLES: &str = "\
Examples:
  mcp-era-bridge python server.py                       a stdio host to a stdio server of either era
  mcp-era-bridge -- npx -y @modelcontextprotocol/server-everything
  mcp-era-bridge --connect https://example.com/mcp      a stdio host to a remote server of either era
                                                        (OAuth when it asks: your browser opens once)
  mcp-era-bridge --connect https://example.com/mcp --header 'Authorization: Bearer ${TOKEN}'
  mcp-era-bridge --listen 8080 python server.py         HTTP clients of both eras, on 127.0.0.1:8080/mcp
  mcp-era-bridge --listen 8080 --connect https://example.com/mcp

Every option can also be set by its environment variable (shown with it), for hosts whose
configuration passes an environment more easily than arguments. Logs go to stderr; stdout
carries the protocol only.";

#[derive(Parser, Debug)]
#[command(
    name = "mcp-era-bridge",
    version,
    about = "Lets MCP clients and servers of the 2026-07-28 era and of the initialize era talk to each other, \
             over stdio and Streamable HTTP, both ways",
    after_help = EXAMPLES
)]
pub(crate) struct Cli {
    /// The server's era: learn it (auto: a legacy client's initialize, else server/discover), or take it as given
    #[arg(long, value_enum, default_value_t = Era::Auto, env = "MCP_ERA_BRIDGE_SERVER_ERA", value_name = "ERA")]
    server_era: Era,

    /// How long the server has, from its start, to answer what tells its era before it is taken for legacy
    #[arg(long, default_value = "20", env = "MCP_ERA_BRIDGE_PROBE_TIMEOUT", value_name = "SECONDS", value_parser = seconds)]
    probe_timeout: Duration,

    /// A tool the client neither sees nor calls, by name; `*` matches any run of characters (repeatable; comma-separated in the variable)
    #[arg(long, env = "MCP_ERA_BRIDGE_IGNORE_TOOL", value_delimiter = ',', value_name = "PATTERN")]
    ignore_tool: Vec<String>,

    /// Append every message, both sides, to FILE as JSON lines
    #[arg(long, env = "MCP_ERA_BRIDGE_RECORD", value_name = "FILE")]
    record: Option<PathBuf>,

    /// The largest message taken on any side (a stdio line, an HTTP body, an SSE event) [default: 32 MiB]
    #[arg(long, env = "MCP_ERA_BRIDGE_MAX_MESSAGE", value_name = "BYTES")]
    max_message: Option<usize>,

    /// Serve HTTP clients of both eras at [ADDR:]PORT[/PATH] instead of one client on stdio (127.0.0.1 and /mcp unless given)
    #[arg(long, env = "MCP_ERA_BRIDGE_LISTEN", value_name = "[ADDR:]PORT[/PATH]", value_parser = listen::parse_listen)]
    listen: Option<(SocketAddr, String)>,

    /// An Origin allowed to call --listen besides loopback ones, e.g. https://app.example (repeatable; comma-separated in the variable)
    #[arg(
        long,
        requires = "listen",
        env = "MCP_ERA_BRIDGE_ALLOW_ORIGIN",
        value_delimiter = ',',
        value_name = "ORIGIN"
    )]
    allow_origin: Vec<String>,

    /// Reach the server over Streamable HTTP at URL instead of starting its command
    #[arg(long, env = "MCP_ERA_BRIDGE_CONNECT", value_name = "URL", value_parser = http_url)]
    connect: Option<reqwest::Url>,

    /// A header sent with every request to the server, e.g. 'Authorization: Bearer ${TOKEN}' (${VAR} read from the environment; repeatable)
    #[arg(long, requires = "connect", value_name = "'NAME: VALUE'", value_parser = connect::header)]
    header: Vec<(reqwest::header::HeaderName, reqwest::header::HeaderValue)>,

    /// A file of headers for --connect, one 'Name: value' a line ('#' starts a comment)
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_HEADER_FILE", value_name = "FILE")]
    header_file: Option<PathBuf>,

    /// How long --connect waits for the server's TCP and TLS connection
    #[arg(long, default_value = "10", env = "MCP_ERA_BRIDGE_CONNECT_TIMEOUT", value_name = "SECONDS", value_parser = seconds)]
    connect_timeout: Duration,

    /// How long --connect waits for an answer's status and headers
    #[arg(long, default_value = "60", env = "MCP_ERA_BRIDGE_HEADERS_TIMEOUT", value_name = "SECONDS", value_parser = seconds)]
    headers_timeout: Duration,

    /// The transport --connect speaks: Streamable HTTP, falling back to 2024-11-05's HTTP+SSE when an initialize POST gets a 4xx (auto)
    #[arg(long, value_enum, default_value_t = TransportChoice::Auto, requires = "connect", env = "MCP_ERA_BRIDGE_TRANSPORT", value_name = "TRANSPORT")]
    transport: TransportChoice,

    /// The longest silence --connect takes within an answer's body (streams meant to stay open aside)
    #[arg(long, default_value = "300", env = "MCP_ERA_BRIDGE_BODY_TIMEOUT", value_name = "SECONDS", value_parser = seconds)]
    body_timeout: Duration,

    /// Never run OAuth: a server that asks for authorization gets the --header token or an error quoting its challenge
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_NO_OAUTH")]
    no_oauth: bool,

    /// The OAuth client id registered for the bridge at the server's authorization server (else a metadata document or dynamic registration)
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_CLIENT_ID", value_name = "ID")]
    client_id: Option<String>,

    /// The secret of --client-id, for a confidential client
    #[arg(
        long,
        requires = "client_id",
        env = "MCP_ERA_BRIDGE_CLIENT_SECRET",
        value_name = "SECRET",
        hide_env_values = true
    )]
    client_secret: Option<String>,

    /// The HTTPS URL of the bridge's OAuth Client ID Metadata Document, used as its client id where the authorization server takes one
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_CLIENT_METADATA_URL", value_name = "URL", value_parser = https_url)]
    client_metadata_url: Option<String>,

    /// The loopback port the OAuth redirect comes back to, for servers that registered an exact redirect URI [default: a free one]
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_OAUTH_CALLBACK_PORT", value_name = "PORT")]
    oauth_callback_port: Option<u16>,

    /// Run CMD with the authorization URL as its last argument instead of opening the default browser (`sh -c`)
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_OAUTH_BROWSER", value_name = "CMD")]
    oauth_browser: Option<String>,

    /// How long the user has to authorize; each request waiting meanwhile then gets an error
    #[arg(long, default_value = "300", env = "MCP_ERA_BRIDGE_OAUTH_TIMEOUT", value_name = "SECONDS", value_parser = seconds)]
    oauth_timeout: Duration,

    /// mcp-remote's form of --client-id and --client-secret: JSON {"client_id", "client_secret"}, or @FILE holding it (${VAR} read from the environment)
    #[arg(
        long,
        requires = "connect",
        conflicts_with = "client_id",
        env = "MCP_ERA_BRIDGE_STATIC_OAUTH_CLIENT_INFO",
        value_name = "JSON|@FILE",
        hide_env_values = true
    )]
    static_oauth_client_info: Option<String>,

    /// Client metadata merged over what dynamic registration sends (its redirect URIs aside), JSON or @FILE; its `scope` is what is asked for
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_STATIC_OAUTH_CLIENT_METADATA", value_name = "JSON|@FILE")]
    static_oauth_client_metadata: Option<String>,

    /// The RFC 8707 resource tokens are asked for, instead of the one the server's metadata names (tokens kept apart)
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_RESOURCE", value_name = "URL")]
    resource: Option<String>,

    /// Send no `resource` parameter (for authorization servers that refuse it)
    #[arg(long, requires = "connect", conflicts_with = "resource", env = "MCP_ERA_BRIDGE_DISABLE_RESOURCE_PARAMETER")]
    disable_resource_parameter: bool,

    /// A parameter added to the authorization request, e.g. prompt=consent (repeatable; tokens kept apart)
    #[arg(long, requires = "connect", value_name = "KEY=VALUE", value_parser = authorize_param)]
    authorize_param: Vec<(String, String)>,

    /// Take authorization server endpoints over plain HTTP off loopback (a trusted private network only)
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_ALLOW_HTTP")]
    allow_http: bool,

    /// The loopback name in the redirect URI: 127.0.0.1, localhost or [::1] (for a client registered with one)
    #[arg(long, requires = "connect", default_value = "127.0.0.1", env = "MCP_ERA_BRIDGE_OAUTH_CALLBACK_HOST", value_name = "HOST", value_parser = crate::oauth::Loopback::parse)]
    oauth_callback_host: crate::oauth::Loopback,

    /// The path the OAuth redirect comes back to
    #[arg(long, requires = "connect", default_value = crate::oauth::DEFAULT_CALLBACK_PATH, env = "MCP_ERA_BRIDGE_OAUTH_CALLBACK_PATH", value_name = "PATH", value_parser = callback_path)]
    oauth_callback_path: String,

    /// Sign in as the client itself (the client credentials grant: no user, no browser), with --client-id and --client-secret
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_CLIENT_CREDENTIALS")]
    client_credentials: bool,

    /// With --client-credentials: the token endpoint, without discovery
    #[arg(long, requires = "client_credentials", env = "MCP_ERA_BRIDGE_TOKEN_ENDPOINT", value_name = "URL", value_parser = http_url)]
    token_endpoint: Option<reqwest::Url>,

    /// Sign in with a code entered on any machine (the device authorization grant): no browser or redirect here
    #[arg(long, requires = "connect", conflicts_with = "client_credentials", env = "MCP_ERA_BRIDGE_DEVICE_CODE")]
    device_code: bool,

    /// Connect over IPv4 only (for hosts whose IPv6 routes swallow connections)
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_IPV4")]
    ipv4: bool,

    /// Neither keep nor send the cookies the server sets (kept in memory for the session by default, for sticky load balancers)
    #[arg(long, requires = "connect", env = "MCP_ERA_BRIDGE_DISABLE_COOKIES")]
    disable_cookies: bool,

    /// Where OAuth tokens and client registrations are kept, per server (0600) [default: the user's config folder]
    #[arg(long, env = "MCP_ERA_BRIDGE_OAUTH_STORE", value_name = "DIR")]
    oauth_store: Option<PathBuf>,

    /// Forget the tokens and registrations kept for the server at URL, and exit
    #[arg(long, value_name = "URL", value_parser = http_url, conflicts_with_all = ["connect", "listen", "server"])]
    oauth_logout: Option<reqwest::Url>,

    /// The server's command and its arguments: after `--`, or from the first argument that is not an option
    #[arg(trailing_var_arg = true, value_name = "SERVER COMMAND")]
    server: Vec<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TransportChoice {
    /// Streamable HTTP, and HTTP+SSE when the server answers an initialize POST with a 4xx
    Auto,
    /// Streamable HTTP only
    StreamableHttp,
    /// 2024-11-05's HTTP+SSE only (a GET stream and its endpoint)
    Sse,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Era {
    /// Pass through when the server takes the client's era; else probe with server/discover
    Auto,
    /// The server speaks 2026-07-28 (probe at once; a legacy client's session is always translated)
    Modern,
    /// The server speaks the initialize handshake
    Legacy,
}

fn seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text.parse().map_err(|_| format!("not a number of seconds: {text:?}"))?;
    Duration::try_from_secs_f64(s).map_err(|_| format!("not a number of seconds: {text:?}"))
}

fn https_url(text: &str) -> Result<String, String> {
    let url = reqwest::Url::parse(text).map_err(|e| e.to_string())?;
    if url.scheme() != "https" || url.path().len() <= 1 {
        return Err(
            "a client id metadata document's URL is https with a path (e.g. https://example.com/client.json)".into()
        );
    }
    Ok(text.into())
}

fn authorize_param(text: &str) -> Result<(String, String), String> {
    let (key, value) = text.split_once('=').ok_or_else(|| format!("{text:?} is not KEY=VALUE"))?;
    // What the flow sets itself: a second value would contradict it.
    const OWN: [&str; 8] = [
        "state",
        "code_challenge",
        "code_challenge_method",
        "client_id",
        "redirect_uri",
        "response_type",
        "resource",
        "scope",
    ];
    if OWN.contains(&key) {
        return Err(format!("{key} is set by the flow itself (--resource, --static-oauth-client-metadata for scope)"));
    }
    Ok((key.into(), value.into()))
}

fn callback_path(text: &str) -> Result<String, String> {
    // Plain segments only: the listener's router would read `:x`, `*x` or `{x}` as a pattern.
    if !text.starts_with('/') || text.contains(['?', '#', ':', '*', '{', '}']) {
        return Err(format!("{text:?} is not a path (it starts with / and has no query)"));
    }
    Ok(text.into())
}

/// JSON as given, or read from the file after `@`.
fn json_or_file(option: &str, text: &str) -> Result<serde_json::Value, String> {
    let text = match text.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{option} {path}: {e}"))?,
        None => text.to_string(),
    };
    serde_json::from_str(&text).map_err(|e| format!("{option}: not JSON: {e}"))
}

fn http_url(text: &str) -> Result<reqwest::Url, String> {
    let url = reqwest::Url::parse(text).map_err(|e| e.to_string())?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(format!("not an http or https URL (its scheme is {other})")),
    }
}

/// What the command line asks.
pub(crate) enum Job {
    Proxy(Options),
    /// `--oauth-logout URL`.
    Logout(crate::oauth::Store, reqwest::Url),
}

impl Cli {
    pub(crate) fn job(mut self) -> Result<Job, clap::Error> {
        use clap::CommandFactory;
        if let Some(server) = self.oauth_logout.take() {
            let store = crate::oauth::Store::new(self.oauth_store.take())
                .map_err(|e| Cli::command().error(clap::error::ErrorKind::Io, e))?;
            return Ok(Job::Logout(store, server));
        }
        self.options().map(Job::Proxy)
    }

    /// The options the proxy runs with; a usage error (exit 2, naming what is
    /// wrong) for what clap's rules cannot say.
    pub(crate) fn options(mut self) -> Result<Options, clap::Error> {
        use clap::CommandFactory;
        use clap::error::ErrorKind;
        let usage = |kind, message: String| Cli::command().error(kind, message);
        let max_message = self.max_message.unwrap_or(MAX_MESSAGE);
        let upstream = match (self.connect, self.server.is_empty()) {
            (Some(url), true) => {
                let mut headers = reqwest::header::HeaderMap::new();
                if let Some(path) = &self.header_file {
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| usage(ErrorKind::Io, format!("--header-file {}: {e}", path.display())))?;
                    for (n, line) in
                        text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
                    {
                        let (name, value) = connect::header(line).map_err(|e| {
                            usage(
                                ErrorKind::ValueValidation,
                                format!("--header-file {}:{}: {e}", path.display(), n + 1),
                            )
                        })?;
                        headers.append(name, value);
                    }
                }
                for (name, value) in self.header {
                    headers.append(name, value);
                }
                if let Some(info) = &self.static_oauth_client_info {
                    let info = json_or_file("--static-oauth-client-info", info)
                        .map_err(|e| usage(ErrorKind::ValueValidation, e))?;
                    let field = |name: &str| -> Result<Option<String>, clap::Error> {
                        info.get(name)
                            .and_then(|v| v.as_str())
                            .map(|v| {
                                connect::expand(v).map_err(|e| {
                                    usage(ErrorKind::ValueValidation, format!("--static-oauth-client-info: {e}"))
                                })
                            })
                            .transpose()
                    };
                    self.client_id = Some(field("client_id")?.ok_or_else(|| {
                        usage(ErrorKind::ValueValidation, "--static-oauth-client-info has no client_id".into())
                    })?);
                    self.client_secret = field("client_secret")?;
                }
                let client_metadata = match &self.static_oauth_client_metadata {
                    Some(text) => match json_or_file("--static-oauth-client-metadata", text)
                        .map_err(|e| usage(ErrorKind::ValueValidation, e))?
                    {
                        serde_json::Value::Object(fields) => fields,
                        _ => {
                            return Err(usage(
                                ErrorKind::ValueValidation,
                                "--static-oauth-client-metadata: not a JSON object".into(),
                            ));
                        }
                    },
                    None => serde_json::Map::new(),
                };
                if self.client_credentials && self.client_id.is_none() {
                    return Err(usage(
                        ErrorKind::MissingRequiredArgument,
                        "--client-credentials needs the client: --client-id and --client-secret (or --static-oauth-client-info)".into(),
                    ));
                }
                let oauth = if self.no_oauth {
                    None
                } else {
                    let store = crate::oauth::Store::new(self.oauth_store)
                        .map_err(|e| usage(ErrorKind::ValueValidation, format!("--oauth-store: {e}")))?;
                    let config = crate::oauth::Config {
                        server: url.clone(),
                        store,
                        client_id: self.client_id,
                        client_secret: self.client_secret,
                        client_metadata_url: self.client_metadata_url,
                        callback_port: self.oauth_callback_port,
                        browser: match self.oauth_browser {
                            Some(command) => crate::oauth::Browser::Command(command),
                            None => crate::oauth::Browser::Default,
                        },
                        timeout: self.oauth_timeout,
                        http_timeout: self.connect_timeout + self.headers_timeout,
                        resource: self.resource,
                        no_resource_parameter: self.disable_resource_parameter,
                        authorize_params: self.authorize_param,
                        client_metadata,
                        allow_http: self.allow_http,
                        ipv4: self.ipv4,
                        callback_host: self.oauth_callback_host,
                        callback_path: self.oauth_callback_path,
                        client_credentials: self.client_credentials,
                        token_endpoint: self.token_endpoint.map(String::from),
                        device_code: self.device_code,
                    };
                    let authorizer = crate::oauth::Authorizer::new(config)
                        .map_err(|e| usage(ErrorKind::Io, format!("the OAuth store: {e}")))?;
                    Some(std::sync::Arc::new(authorizer))
                };
                Upstream::Http(Box::new(connect::Config {
                    url,
                    headers,
                    connect_timeout: self.connect_timeout,
                    headers_timeout: self.headers_timeout,
                    body_timeout: self.body_timeout,
                    transport: match self.transport {
                        TransportChoice::Auto => Transport::Auto,
                        TransportChoice::StreamableHttp => Transport::StreamableHttp,
                        TransportChoice::Sse => Transport::Sse,
                    },
                    max_message,
                    oauth,
                    ipv4: self.ipv4,
                    cookies: !self.disable_cookies,
                }))
            }
            (Some(url), false) => {
                return Err(usage(
                    ErrorKind::ArgumentConflict,
                    format!("--connect {url} and a server command ({:?}): give one", self.server[0]),
                ));
            }
            (None, false) => Upstream::Command(self.server),
            (None, true) => {
                return Err(usage(
                    ErrorKind::MissingRequiredArgument,
                    "no server: give its command (after `--`, or as the first argument that is not an option), or --connect URL"
                        .into(),
                ));
            }
        };
        Ok(Options {
            listen: self.listen,
            allowed_origins: self.allow_origin,
            server_era: match self.server_era {
                Era::Auto => ServerEraChoice::Auto,
                Era::Modern => ServerEraChoice::Modern,
                Era::Legacy => ServerEraChoice::Legacy,
            },
            probe_timeout: self.probe_timeout,
            ignored_tools: self.ignore_tool,
            record: self.record,
            max_message,
            upstream,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, clap::Error> {
        Cli::try_parse_from(std::iter::once("mcp-era-bridge").chain(args.iter().copied()))?.options()
    }

    fn command_of(o: Options) -> Vec<String> {
        match o.upstream {
            Upstream::Command(c) => c,
            Upstream::Http(_) => panic!("not a command"),
        }
    }

    #[test]
    fn the_server_command_comes_after_dashes_or_as_the_first_argument_that_is_not_an_option() {
        for args in [&["--", "python", "server.py", "-v"][..], &["python", "server.py", "-v"]] {
            assert_eq!(command_of(parse(args).unwrap()), ["python", "server.py", "-v"], "{args:?}");
        }
        // Options before the command are the bridge's; after it, the server's.
        let o = parse(&["--record", "r.jsonl", "python", "--record", "x"]).unwrap();
        assert_eq!(o.record.as_deref(), Some(std::path::Path::new("r.jsonl")));
        assert_eq!(command_of(o), ["python", "--record", "x"]);
    }

    #[test]
    fn errors_name_the_option() {
        let err = |args: &[&str]| match parse(args) {
            Ok(_) => panic!("{args:?} was taken"),
            Err(e) => e.to_string(),
        };
        assert!(err(&["--server-era", "old", "x"]).contains("--server-era"));
        assert!(err(&["--connect", "ftp://x",]).contains("--connect"));
        assert!(err(&["--connect-timeout", "soon", "x"]).contains("--connect-timeout"));
        assert!(err(&["--header", "Bad", "--connect", "http://x"]).contains("--header"));
        assert!(err(&["--header", "A: b", "x"]).contains("--connect"), "--header needs --connect");
        assert!(err(&["--connect", "http://x", "python"]).contains("give one"));
        assert!(err(&[]).contains("no server"));
        let url = "http://x";
        assert!(err(&["--connect", url, "--authorize-param", "state=1"]).contains("set by the flow itself"));
        assert!(err(&["--connect", url, "--authorize-param", "novalue"]).contains("KEY=VALUE"));
        assert!(err(&["--connect", url, "--oauth-callback-host", "0.0.0.0"]).contains("not loopback"));
        assert!(err(&["--connect", url, "--oauth-callback-path", "cb"]).contains("not a path"));
        assert!(err(&["--connect", url, "--oauth-callback-path", "/:cb"]).contains("not a path"));
        assert!(err(&["--connect", url, "--client-metadata-url", "https://example.com"]).contains("with a path"));
        assert!(err(&["--connect", url, "--client-credentials"]).contains("needs the client"));
        assert!(err(&["--connect", url, "--static-oauth-client-info", "{}"]).contains("no client_id"));
        assert!(err(&["--connect", url, "--static-oauth-client-metadata", "[1]"]).contains("not a JSON object"));
        assert!(err(&["--oauth-logout", url, "--connect", url]).contains("--connect"));
    }

    #[test]
    fn mcp_remotes_static_client_info_gives_the_client_with_the_environment_read() {
        // SAFETY: a test of its own; no other thread reads this variable.
        unsafe { std::env::set_var("MCP_BRIDGE_TEST_SECRET", "s3cret") };
        let info = r#"{"client_id": "me", "client_secret": "${MCP_BRIDGE_TEST_SECRET}"}"#;
        let o = parse(&["--connect", "http://x", "--oauth-store", "/nonexistent", "--static-oauth-client-info", info]);
        let Upstream::Http(config) = o.unwrap().upstream else { panic!("not --connect") };
        let oauth = format!("{:?}", config.oauth.unwrap());
        assert!(!oauth.contains("s3cret"), "nothing kept is shown: {oauth}");
    }
}
