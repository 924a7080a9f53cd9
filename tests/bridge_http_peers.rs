//! The bridge's upstream over Streamable HTTP (`--connect URL`) between real
//! SDKs and real HTTP servers of both eras and both shapes of the transport.
//! The client's side is recorded by a proxy that is not ours (`tee_proxy.py`)
//! and checked against the bridge's `--record`; the server's side is the
//! bridge's record of what it POSTed and what came back (no stdio proxy can sit
//! on HTTP). Each side is judged with the generated types of its own revision.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_spec_tests::{peers, transcript};

use crate::bridge_peers::{bridge_bin, judged, node, python, recorded, session_ended};

/// A peer server on Streamable HTTP at a free loopback port, stopped when dropped.
pub(crate) struct HttpPeer {
    child: Child,
    pub url: String,
}

impl Drop for HttpPeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The Python SDK's server (tests/peers/python/server.py) on Streamable HTTP: both eras, each in its shape.
pub(crate) fn python_http_server(name: &str) -> HttpPeer {
    let mut program = python("server.py", &[]);
    program.push("--http".into());
    let port = free_port();
    program.push(port.to_string());
    http_peer(name, port, "/mcp", Command::new(&program[0]).args(&program[1..]))
}

/// `cmd`, serving on `port`, once it listens there.
pub(crate) fn http_peer(name: &str, port: u16, path: &str, cmd: &mut Command) -> HttpPeer {
    cmd.stdin(Stdio::null()).stdout(Stdio::null());
    let log = peers::transcript_path(&format!("{name}.server-log"));
    cmd.stderr(std::fs::File::create(&log).unwrap());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("{name}: {:?}: {e}", cmd.get_program()));
    let until = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{name}: the server exited ({status}) before listening; its log: {}", log.display());
        }
        assert!(Instant::now() < until, "{name}: the server did not listen on {port} in 30 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    HttpPeer { child, url: format!("http://127.0.0.1:{port}{path}") }
}

/// The reference server (`server-everything`) started with `streamableHttp`: a 2025-11-25 server with sessions.
pub(crate) fn everything_http_server(name: &str) -> HttpPeer {
    let program = node("node_modules/@modelcontextprotocol/server-everything/dist/index.js", &["streamableHttp"]);
    let port = free_port();
    http_peer(name, port, "/mcp", Command::new(&program[0]).args(&program[1..]).env("PORT", port.to_string()))
}

/// Runs `client` against the server at `url` through `mcp-era-bridge --connect`,
/// the client's side teed; the client's side and the server's side (from the
/// bridge's record) as transcripts, and the record.
pub(crate) fn bridged_http(name: &str, client: &[String], url: &str) -> (PathBuf, PathBuf, PathBuf) {
    let client_side = peers::transcript_path(&format!("{name}.client-side"));
    let server_side = peers::transcript_path(&format!("{name}.server-side"));
    let record = client_side.with_file_name(format!("{name}.bridge-record.jsonl"));
    let _ = std::fs::remove_file(&record);
    let bridge = vec![
        bridge_bin().display().to_string(),
        "--record".to_string(),
        record.display().to_string(),
        "--connect".to_string(),
        url.to_string(),
    ];
    let mut cmd = client.to_vec();
    cmd.push("--".into());
    cmd.extend(peers::teed(&client_side, &bridge));
    let out = Command::new(&cmd[0]).args(&cmd[1..]).output().unwrap_or_else(|e| panic!("{name}: {:?}: {e}", cmd[0]));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    println!("{stdout}");
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "{name}: the client failed ({}):\n{stdout}\n{stderr}\ntranscript: {}, record: {}",
        out.status,
        client_side.display(),
        record.display()
    );
    assert!(
        !stderr.contains("not sent on") && !stderr.contains("to no request"),
        "{name}: the bridge dropped something:\n{stderr}"
    );
    session_ended(&record);
    write_side(&record, "server", &server_side);
    // The record's client side is what the proxy saw.
    let teed = transcript::read(&client_side);
    let ours = recorded(&record, "client");
    for dir in ["c2s", "s2c"] {
        let a: Vec<_> = ours.iter().filter(|(d, _)| d == dir).map(|(_, m)| m).collect();
        let b: Vec<_> = teed.iter().filter(|(d, _)| d == dir).map(|(_, m)| m).collect();
        assert_eq!(a, b, "{name}: client side, {dir}: the record and the proxy differ");
    }
    (client_side, server_side, record)
}

/// One side of the bridge's record as a transcript (`{"dir", "msg"}` lines).
fn write_side(record: &Path, side: &str, to: &Path) {
    let lines: String = recorded(record, side)
        .into_iter()
        .map(|(dir, msg)| serde_json::json!({"dir": dir, "msg": msg}).to_string() + "\n")
        .collect();
    std::fs::write(to, lines).unwrap();
}

#[test]
fn a_legacy_typescript_sdk_client_uses_a_modern_python_sdk_http_server_through_connect() {
    let server = python_http_server("connect-ts-legacy-to-python-http");
    let client = node("client.mjs", &[]);
    let (client_side, server_side, _) = bridged_http("connect-ts-legacy-to-python-http", &client, &server.url);
    let c = judged(&client_side);
    assert_eq!(c.revision, "2025-11-25");
    assert_eq!(c.count("c2s request initialize"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request elicitation/create"), 2, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request sampling/createMessage"), 1, "{:?}", c.kinds);
    assert_eq!(c.count("s2c request roots/list"), 1, "{:?}", c.kinds);
    // The server saw the modern shape only: no handshake, the probe, input_required rounds, listen streams.
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    assert_eq!(s.count("c2s request initialize") + s.count("c2s request ping"), 0, "{:?}", s.kinds);
    assert_eq!(s.count("c2s request server/discover"), 1, "{:?}", s.kinds);
    assert!(s.count("s2c result InputRequiredResult") >= 3, "{:?}", s.kinds);
    assert_eq!(s.count("c2s request subscriptions/listen"), 3, "{:?}", s.kinds);
    for event in ["notifications/tools/list_changed", "notifications/resources/updated"] {
        let kind = format!("s2c notification {event}");
        assert_eq!((s.count(&kind), c.count(&kind)), (1, 1), "{event}: {:?} / {:?}", s.kinds, c.kinds);
    }
}

#[test]
fn an_older_hosts_typescript_sdk_client_at_2025_03_26_uses_a_modern_python_sdk_http_server_through_connect() {
    let server = python_http_server("connect-ts-2025-03-26-to-python-http");
    let client = node("client_2025_03_26.mjs", &[]);
    let (client_side, server_side, _) = bridged_http("connect-ts-2025-03-26-to-python-http", &client, &server.url);
    let c = judged(&client_side);
    assert_eq!(c.revision, "2025-03-26");
    assert_eq!(c.count("s2c request sampling/createMessage"), 1, "{:?}", c.kinds);
    let s = judged(&server_side);
    assert_eq!(s.revision, "2026-07-28");
    assert_eq!(s.count("s2c result InputRequiredResult"), 1, "{:?}", s.kinds);
}

#[test]
fn modern_clients_use_the_legacy_reference_server_over_http_through_connect() {
    let clients = [
        ("python-modern", python("client_everything.py", &["--mode", "modern"])),
        ("ts-v2-pinned", node("client_v2.mjs", &["--negotiation", "pinned", "--surface", "everything"])),
    ];
    for (label, client) in clients {
        let name = format!("connect-{label}-to-everything-http");
        let server = everything_http_server(&name);
        let (client_side, server_side, _) = bridged_http(&name, &client, &server.url);
        let c = judged(&client_side);
        assert_eq!(c.revision, "2026-07-28", "{label}");
        assert_eq!(c.count("s2c request"), 0, "{label}: a modern client takes no requests: {:?}", c.kinds);
        assert_eq!(c.count("s2c result InputRequiredResult"), 3, "{label}: {:?}", c.kinds);
        // The server's session: one handshake, its questions asked on the call's stream and answered by POSTs.
        let s = judged(&server_side);
        assert_eq!(s.revision, "2025-11-25", "{label}");
        assert_eq!(s.count("c2s request initialize"), 1, "{label}: {:?}", s.kinds);
        for asked in ["sampling/createMessage", "elicitation/create", "roots/list"] {
            assert_eq!(s.count(&format!("s2c request {asked}")), 1, "{label}: {asked}: {:?}", s.kinds);
        }
        assert_eq!(s.count("c2s result"), 3, "{label}: each answered: {:?}", s.kinds);
    }
}
