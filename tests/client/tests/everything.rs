//! The example client against the official reference server,
//! `@modelcontextprotocol/server-everything` (pinned in package-lock.json here;
//! `.ci/run` installs it with `npm ci`).

use std::path::Path;
use std::process::Command;

#[test]
fn a_session_with_the_reference_server() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let server = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        server.is_file(),
        "the reference server is not installed: run `npm ci --prefix tests/client` (looked for {})",
        server.display()
    );
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-spec-example-client"))
        .arg("node")
        .arg(&server)
        .output()
        .expect("the example client runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the session failed:\n{stderr}\n{stdout}");
    println!("{stdout}");
    let field = |name: &str| -> String {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("no `{name}` in\n{stdout}"))
    };
    assert!(field("discovery:").starts_with("method not found (-32601)"), "{stdout}");
    assert_eq!(field("protocol version:"), "2025-11-25");
    assert!(field("server:").starts_with("mcp-servers/everything"), "{stdout}");
    for name in ["tools:", "prompts:", "resource contents:", "prompt messages:"] {
        let n: usize = field(name).split_whitespace().next().unwrap().parse().unwrap();
        assert!(n > 0, "{name} {n}");
    }
    assert!(field("tool call:").contains("hello from Rust"), "{stdout}");
    let checked: usize = field("messages checked:").split_whitespace().next().unwrap().parse().unwrap();
    assert!(checked >= 8, "every answer is a checked message: {checked}");
}
