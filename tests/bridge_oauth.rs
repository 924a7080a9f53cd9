//! OAuth 2.1 on `--connect` against a real authorization server: the Python
//! SDK 2.3's `mcp.server.auth` (tests/peers/python/oauth_server.py, its own
//! authorization server with an in-memory provider that approves at once and
//! logs each step). A legacy client (this test, speaking the initialize
//! handshake on the bridge's stdio) authorizes once, calls a tool, starts
//! again and calls without a second authorization (the kept token), calls
//! after the token expired (a refresh at start) and after it expires within a
//! session (a refresh before it does), and after `--oauth-logout` authorizes
//! again. Every secret the server issued is then looked for in the bridge's
//! log and record: none may be there.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mcp_spec_tests::peers;
use serde_json::{Value, json};

use crate::bridge_http_peers::{free_port, http_peer};
use crate::bridge_peers::{bridge_bin, python};

/// A token lives this long: long enough for two sessions, short enough to wait out.
const LIFETIME: u64 = 6;

/// The bridge with this test as its legacy client on stdio, its stderr in a file.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    /// What came and was not yet asked for.
    seen: Vec<Value>,
    log: PathBuf,
}

impl Session {
    fn start(args: &[String], log: PathBuf) -> Session {
        let mut child = Command::new(bridge_bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(serde_json::from_str(&line).unwrap_or(Value::String(line)));
            }
        });
        Session { child, stdin, lines, seen: Vec::new(), log }
    }

    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends request `id` and waits for its answer (the bridge asks nothing of this client).
    fn call(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.answer(id)
    }

    /// The answer to request `id`, sent earlier, within 30 s.
    fn answer(&mut self, id: i64) -> Value {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(at) = self.seen.iter().position(|m| m["id"] == id && m.get("method").is_none()) {
                return self.seen.remove(at);
            }
            match self.lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(m) => self.seen.push(m),
                Err(_) => panic!("no answer to {id} in 30 s; the bridge's log: {}", read(&self.log)),
            }
        }
    }

    /// The handshake and one call of `whoami`: who the server says is calling.
    fn whoami(&mut self) -> String {
        let init = self.call(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "oauth-legacy-client", "version": "0"}}),
        );
        assert_eq!(init.pointer("/result/protocolVersion"), Some(&json!("2025-11-25")), "{init}");
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        self.call_whoami(2)
    }

    fn call_whoami(&mut self, id: i64) -> String {
        let answer = self.call(id, "tools/call", json!({"name": "whoami", "arguments": {}}));
        let text = answer.pointer("/result/content/0/text").and_then(Value::as_str);
        text.unwrap_or_else(|| panic!("{answer}; the bridge's log: {}", read(&self.log))).to_string()
    }

    fn finish(mut self) {
        drop(self.stdin.take());
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "the bridge exited {status}; its log: {}", read(&self.log));
                return;
            }
            assert!(Instant::now() < until, "the bridge did not exit in 20 s after its client left");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The provider's steps so far, of one kind.
fn events(path: &Path, kind: &str) -> Vec<Value> {
    read(path).lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).filter(|e| e["event"] == kind).collect()
}

fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64()
}

#[test]
fn a_legacy_client_authorizes_once_through_the_bridge_then_reuses_refreshes_and_forgets_the_kept_token() {
    let name = "oauth-python-sdk";
    let dir = peers::transcript_path(name).with_extension("d");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let events_file = dir.join("events.jsonl");
    let store = dir.join("store");
    let port = free_port();
    let server = python(
        "oauth_server.py",
        &[&port.to_string(), "--events", &events_file.display().to_string(), "--lifetime", &LIFETIME.to_string()],
    );
    let server = http_peer(name, port, "/mcp", Command::new(&server[0]).args(&server[1..]));
    let browser = python("browser.py", &[]).join(" ");
    let args = |run: &str| -> Vec<String> {
        [
            "--connect",
            &server.url,
            "--oauth-store",
            &store.display().to_string(),
            "--oauth-browser",
            &browser,
            "--record",
            &dir.join(format!("{run}.record.jsonl")).display().to_string(),
        ]
        .map(String::from)
        .to_vec()
    };
    let start = |run: &str| Session::start(&args(run), dir.join(format!("{run}.log")));

    // First run: the flow, then the call.
    let mut first = start("first");
    let caller = first.whoami();
    first.finish();
    let registered = events(&events_file, "register");
    let authorized = events(&events_file, "authorize");
    assert_eq!((registered.len(), authorized.len()), (1, 1), "one registration, one authorization");
    assert_eq!(caller, format!("client {}", registered[0]["client_id"].as_str().unwrap()));
    // The redirect URI the bridge registered and sent: its own loopback callback, nothing else.
    let redirect = authorized[0]["redirect_uri"].as_str().unwrap();
    assert!(redirect.starts_with("http://127.0.0.1:") && redirect.ends_with("/callback"), "{redirect}");
    assert_eq!(registered[0]["redirect_uris"], json!([redirect]));
    assert_eq!(registered[0]["application_type"], json!("native"));
    assert_eq!(authorized[0]["resource"], json!(server.url), "the resource parameter names the server");
    let log = read(&dir.join("first.log"));
    assert!(log.contains("to authorize the server, open http://127.0.0.1:"), "the URL is shown: {log}");

    // Second run, the token still good: no second authorization, no refresh.
    let mut second = start("second");
    assert_eq!(second.whoami(), caller);
    second.finish();
    assert_eq!(events(&events_file, "authorize").len(), 1, "the kept token was used");
    assert_eq!(events(&events_file, "refresh").len(), 0);

    // Third run after the token expired: refreshed at start; then, within the
    // session, refreshed again before the new one expires.
    let expires = events(&events_file, "tokens")[0]["expires_at"].as_f64().unwrap();
    std::thread::sleep(Duration::from_secs_f64((expires - unix_now() + 0.5).max(0.0)));
    let mut third = start("third");
    assert_eq!(third.whoami(), caller);
    assert_eq!(events(&events_file, "refresh").len(), 1, "refreshed at start");
    std::thread::sleep(Duration::from_secs(LIFETIME + 1));
    assert_eq!(third.call_whoami(3), caller);
    third.finish();
    assert_eq!(events(&events_file, "refresh").len(), 2, "refreshed within the session before expiry");
    assert_eq!(events(&events_file, "expired-token-presented").len(), 0, "no expired token was ever sent");
    assert_eq!(events(&events_file, "authorize").len(), 1, "still one authorization");

    // The rotated refresh token replaced the kept one.
    let issued = events(&events_file, "tokens");
    let kept = std::fs::read_dir(&store).unwrap().map(|e| read(&e.unwrap().path())).collect::<Vec<_>>().join("");
    let last = issued.last().unwrap()["refresh_token"].as_str().unwrap();
    assert!(kept.contains(last), "the last refresh token is kept");
    for earlier in &issued[..issued.len() - 1] {
        assert!(!kept.contains(earlier["refresh_token"].as_str().unwrap()), "a rotated refresh token is gone");
    }

    // Forgotten: the next run authorizes again.
    let logout = Command::new(bridge_bin())
        .args(["--oauth-logout", &server.url, "--oauth-store", &store.display().to_string()])
        .output()
        .unwrap();
    assert!(logout.status.success(), "{}", String::from_utf8_lossy(&logout.stderr));
    assert!(String::from_utf8_lossy(&logout.stderr).contains("forgot"), "{}", String::from_utf8_lossy(&logout.stderr));
    let mut fourth = start("fourth");
    assert!(fourth.whoami().starts_with("client "));
    fourth.finish();
    assert_eq!(events(&events_file, "authorize").len(), 2, "authorized again after --oauth-logout");

    // No secret the server issued (codes, access and refresh tokens, a client
    // secret) in any log line or record of the bridge's.
    let mut secrets: Vec<String> = Vec::new();
    for e in read(&events_file).lines().map(|l| serde_json::from_str::<Value>(l).unwrap()) {
        for key in ["code", "access_token", "refresh_token", "client_secret"] {
            if let Some(s) = e[key].as_str() {
                secrets.push(s.to_string());
            }
        }
    }
    assert!(secrets.len() >= 2 + 2 * 4, "codes and tokens collected: {}", secrets.len());
    let mut looked = 0;
    for run in ["first", "second", "third", "fourth"] {
        for file in [format!("{run}.log"), format!("{run}.record.jsonl")] {
            let text = read(&dir.join(&file));
            assert!(!text.is_empty(), "{file} is empty");
            for secret in &secrets {
                assert!(!text.contains(secret.as_str()), "{file} holds a secret the server issued");
            }
            looked += 1;
        }
    }
    assert_eq!(looked, 8);
}

/// A 2026-07-28 request's `_meta`.
fn modern(params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "oauth-modern-client", "version": "0"}
    });
    params
}

#[test]
fn requests_made_while_the_user_authorizes_wait_for_it_and_get_an_error_naming_the_timeout_when_they_do_not() {
    let name = "oauth-python-sdk-waiting";
    let dir = peers::transcript_path(name).with_extension("d");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let events_file = dir.join("events.jsonl");
    let server = python("oauth_server.py", &[&port.to_string(), "--events", &events_file.display().to_string()]);
    let server = http_peer(name, port, "/mcp", Command::new(&server[0]).args(&server[1..]));
    let browser = python("browser.py", &[]).join(" ");
    let run = |label: &str, browser: &str, timeout: &str| {
        let store = dir.join(format!("{label}.store")).display().to_string();
        let args =
            ["--connect", &server.url, "--oauth-store", &store, "--oauth-browser", browser, "--oauth-timeout", timeout];
        let mut session = Session::start(&args.map(String::from), dir.join(format!("{label}.log")));
        // Two requests at once, both made before the user has authorized (a modern client: no handshake to wait for).
        session.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": modern(json!({}))}));
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                          "params": modern(json!({"name": "whoami", "arguments": {}}))});
        session.send(call);
        let answers = [session.call(3, "tools/list", modern(json!({}))), session.answer(1), session.answer(2)];
        session.finish();
        answers
    };
    // The user takes a while (the browser opens after a second): nothing is lost meanwhile.
    let slow = format!("sleep 1; {browser}");
    let [again, list, call] = run("slow", &slow, "30");
    assert_eq!(again.pointer("/result/tools/0/name"), Some(&json!("whoami")), "{again}");
    assert_eq!(list.pointer("/result/tools/0/name"), Some(&json!("whoami")), "{list}");
    assert!(call.pointer("/result/content/0/text").and_then(Value::as_str).unwrap().starts_with("client "), "{call}");
    assert_eq!(events(&events_file, "authorize").len(), 1, "one authorization for all three");
    // The user never comes back: each waiting request gets an error naming --oauth-timeout.
    for answer in &run("never", "true", "2") {
        let message = answer.pointer("/error/message").and_then(Value::as_str).unwrap_or_else(|| panic!("{answer}"));
        assert!(message.contains("did not complete within 2s (--oauth-timeout)"), "{answer}");
    }
    assert_eq!(events(&events_file, "authorize").len(), 1, "the browser never opened the URL");
}
