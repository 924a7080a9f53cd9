//! `mcp-era-bridge [OPTIONS] [--] <SERVER COMMAND>...` or `mcp-era-bridge [OPTIONS] --connect URL`
//! (`src/cli.rs` has every option; `mcp-era-bridge --help` lists them).
//!
//! A stdio MCP proxy: the client talks to it on stdin and stdout, it runs the
//! server and talks to it on the server's, or reaches it over Streamable HTTP
//! (`--connect`, in `connect.rs`). It learns the server's era as the
//! spec's stdio binding says (a `server/discover` probe: a `DiscoverResult` is
//! modern, an error that no modern server gives is legacy), the client's from
//! its first message, and translates between them with `mcp_era_bridge`; when
//! both speak the same era every line passes unchanged. Logs go to stderr only.
//! `--record FILE` appends every message, both sides, as JSON lines
//! `{"session": PID, "side": "client" | "server", "dir": "c2s" | "s2c", "msg": ...}`,
//! with `{"session": PID, "closing": why}` when the client has gone (the
//! server's last words after it are recorded, not translated) and
//! `{"session": PID, "end": why}` last:
//! appended, each line whole and naming its bridge process, because one client
//! may start the same command twice at once (the TypeScript SDK v2 probes a
//! stdio server's era on a sibling process) and no session may overwrite
//! another's lines.
//!
//! One message (a line, a body, an SSE event) over `--max-message` bytes
//! (default [`cli::MAX_MESSAGE`]) is refused, with an error to the side that waits
//! for it when its id can be read, and the session goes on.
//!
//! It ends its server as a stdio client does: the server's stdin closed, then
//! SIGTERM, then SIGKILL, each after two seconds, recording what the server
//! says meanwhile. It does so when the client closes its stdin, and on SIGTERM
//! or SIGINT.

mod cli;
mod connect;
mod driver;
mod listen;
mod oauth;
mod stdio;

use std::process::ExitCode;

use mcp_era_bridge::ServerEraChoice;
use serde_json::json;

use crate::driver::{Recorder, Settings};

/// Where the server is.
pub(crate) enum Upstream {
    /// `-- CMD`: a process on stdio.
    Command(Vec<String>),
    /// `--connect URL`: over Streamable HTTP.
    Http(Box<connect::Config>),
}

pub(crate) struct Options {
    /// `--listen`: serve HTTP clients instead of one on stdio.
    pub(crate) listen: Option<(std::net::SocketAddr, String)>,
    pub(crate) allowed_origins: Vec<String>,
    pub(crate) server_era: ServerEraChoice,
    /// `--probe-timeout`.
    pub(crate) probe_timeout: std::time::Duration,
    /// `--ignore-tool`.
    pub(crate) ignored_tools: Vec<String>,
    pub(crate) record: Option<std::path::PathBuf>,
    pub(crate) max_message: usize,
    pub(crate) upstream: Upstream,
}

/// Runs one session with the client on stdio: the driver's, until it ends; on
/// SIGTERM or SIGINT it ends as if the client had closed.
fn run(o: Options) -> Result<(), String> {
    // The record first: a file that cannot be opened stops the bridge before any server runs.
    let recorder = match &o.record {
        Some(path) => Recorder::open(path, json!(std::process::id()))?,
        None => Recorder::none(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let (feed, inbox) = tokio::sync::mpsc::unbounded_channel();
        let stopped = feed.clone();
        tokio::spawn(async move {
            stdio::signals::stopped().await;
            let _ = stopped.send(driver::In::Gone("stopped by a signal"));
        });
        let mut front = stdio::StdioFront::start(o.max_message, feed.clone());
        let settings = Settings {
            upstream: &o.upstream,
            server_era: o.server_era,
            probe_timeout: o.probe_timeout,
            ignored_tools: &o.ignored_tools,
            max_message: o.max_message,
            recorder,
            log_prefix: "mcp-era-bridge".into(),
        };
        driver::drive(&mut front, settings, feed, inbox).await
    })
}

fn main() -> ExitCode {
    use clap::Parser;
    let mut o = match cli::Cli::parse().job() {
        Ok(cli::Job::Proxy(o)) => o,
        Ok(cli::Job::Logout(store, server)) => {
            return match oauth::Authorizer::logout(&store, &server) {
                Ok(files) if files > 0 => {
                    eprintln!(
                        "mcp-era-bridge: forgot the tokens and registrations kept for {server} ({files} file(s))"
                    );
                    ExitCode::SUCCESS
                }
                Ok(_) => {
                    eprintln!("mcp-era-bridge: nothing was kept for {server} (in {})", store.dir().display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("mcp-era-bridge: {e}");
                    ExitCode::from(1)
                }
            };
        }
        Err(e) => e.exit(),
    };
    let result = match o.listen.take() {
        Some((addr, path)) => listen::serve(listen::Config {
            addr,
            path,
            upstream: o.upstream,
            server_era: o.server_era,
            probe_timeout: o.probe_timeout,
            ignored_tools: o.ignored_tools,
            max_message: o.max_message,
            allowed_origins: o.allowed_origins,
            record: o.record,
        }),
        None => run(o),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-era-bridge: {e}");
            ExitCode::from(1)
        }
    }
}
