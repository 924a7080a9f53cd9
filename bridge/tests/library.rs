//! The library as a user who brings their own front gets it
//! (`default-features = false`): translation and the sans-IO session, with no
//! async runtime, no HTTP stack and no TLS among its dependencies.

use std::collections::BTreeSet;
use std::process::Command;

/// The packages `cargo tree` lists for the library without its default
/// features, normal dependencies only.
fn library_dependencies() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--locked", "-p", "mcp-era-bridge", "--no-default-features", "-e", "normal", "--prefix", "none"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.split_whitespace().next()).map(String::from).collect()
}

#[test]
fn the_library_without_its_default_features_pulls_no_runtime_http_or_tls() {
    let deps = library_dependencies();
    for needed in ["mcp-era-bridge", "mcp-spec-types", "serde", "serde_json"] {
        assert!(deps.contains(needed), "{needed} among {deps:?}");
    }
    let heavy: Vec<&String> = deps
        .iter()
        .filter(|d| {
            [
                "tokio", "hyper", "axum", "reqwest", "rustls", "ring", "h2", "tower", "clap", "futures", "mio", "uuid",
                "libc",
            ]
            .iter()
            .any(|h| d.starts_with(h))
        })
        .collect();
    assert!(heavy.is_empty(), "the library pulls {heavy:?}");
    // What it is, counted: serde, serde_json and the types crate with what they need.
    assert!(deps.len() <= 16, "{} packages: {deps:?}", deps.len());
}

/// The library's whole surface, used from a front of a test's own: a session
/// fed a client's `initialize` and a legacy server's answer, with no I/O.
#[test]
fn a_front_of_its_own_drives_a_session() {
    use mcp_era_bridge::{Action, Input, ServerEraChoice, Session, To};
    let start = std::time::Instant::now();
    let (mut session, first) = Session::new(ServerEraChoice::Legacy, start);
    assert!(first.iter().all(|a| !matches!(a, Action::Send(To::Server, _))), "told legacy: no probe: {first:?}");
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let actions = session.handle(Input::FromClient(init.to_string()));
    let sent: Vec<&String> = actions
        .iter()
        .filter_map(|a| match a {
            Action::Send(To::Server, line) => Some(line),
            _ => None,
        })
        .collect();
    assert_eq!(sent, [init], "a legacy client and a legacy server: the line passes as it came");
}
