//! The era bridge over Streamable HTTP beside mcp-remote, on loopback, in
//! paired rounds (`cargo bench -p mcp-spec-bench --bench bridge_http`): a
//! legacy stdio client's sequential `tools/call echo` to one modern HTTP server
//! (the Python SDK 2.3's, `tests/peers/python/server.py --http`) through
//! `mcp-era-bridge --connect` (release, as `cargo install` builds it) and
//! through `mcp-remote` 0.15.1 `--protocol auto`, and a modern client calling
//! the same server directly over HTTP (reqwest, the transport's headers). Each
//! round, every contender makes `CALLS` calls in turn, the order rotating; each
//! answer must be the text its call sent. Printed: calls per second (the median
//! of the rounds), the latency's p50 and p99 over every call, what each proxy
//! adds to the direct p50 and p99, and the goals' ratios. With
//! `BENCH_BRIDGE_BEFORE=path/to/mcp-era-bridge`, another build runs in the same
//! rounds (a change's before and after, side by side). Nothing here asserts a
//! speed.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_spec_testkit::peers;
use serde_json::{Value, json};

const CALLS: usize = 20;

/// A process killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The Python SDK's server on Streamable HTTP; its URL.
fn server() -> (Running, String) {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(peers::python())
        .arg(peers::python_script("server.py"))
        .args(["--http", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < until, "the Python SDK's HTTP server did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    (Running(child), format!("http://127.0.0.1:{port}/mcp"))
}

/// A legacy stdio client's side of a proxy: initialized, then calls one at a time.
struct StdioProxy {
    _child: Running,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: i64,
}

impl StdioProxy {
    fn start(command: &[String]) -> StdioProxy {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{:?}: {e}", command[0]));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut proxy = StdioProxy { _child: Running(child), stdin, stdout, next: 1 };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}});
        let answer = proxy.ask(&init, 0);
        assert!(answer.get("result").is_some(), "{command:?}: initialize: {answer}");
        proxy.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        proxy
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends `message` and reads until the answer to `id` (notifications passed over).
    fn ask(&mut self, message: &Value, id: i64) -> Value {
        self.send(message);
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the proxy closed its output");
            let m: Value = serde_json::from_str(&line).unwrap();
            if m["id"] == id && m.get("method").is_none() {
                return m;
            }
        }
    }

    fn echo(&mut self, text: &str) -> Value {
        let id = self.next;
        self.next += 1;
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": text}}});
        self.ask(&call, id)
    }
}

/// A modern client over HTTP, straight to the server.
struct Direct {
    http: reqwest::blocking::Client,
    url: String,
    next: i64,
}

impl Direct {
    fn echo(&mut self, text: &str) -> Value {
        let id = self.next;
        self.next += 1;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"text": text},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"}}}});
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        for (name, value) in mcp_spec_types::http::request_headers(&body, None).unwrap() {
            request = request.header(name, value);
        }
        let text = request.body(body.to_string()).send().unwrap().text().unwrap();
        let data = text.lines().filter_map(|l| l.strip_prefix("data:")).next_back().map(str::trim).unwrap_or(&text);
        serde_json::from_str(data).unwrap()
    }
}

/// A legacy client over HTTP, straight to the server: its session (2025-11-25's
/// shape), what a legacy client connected directly pays.
struct LegacyDirect {
    http: reqwest::blocking::Client,
    url: String,
    session: String,
    next: i64,
}

impl LegacyDirect {
    fn start(url: &str) -> LegacyDirect {
        let http = reqwest::blocking::Client::new();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}});
        let response = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(init.to_string())
            .send()
            .unwrap();
        let session = response.headers()["mcp-session-id"].to_str().unwrap().to_string();
        let answer = last_message(&response.text().unwrap());
        assert!(answer.get("result").is_some(), "initialize: {answer}");
        let client = LegacyDirect { http, url: url.to_string(), session, next: 1 };
        client.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    fn post(&self, body: &Value) -> String {
        self.http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &self.session)
            .header("mcp-protocol-version", "2025-11-25")
            .body(body.to_string())
            .send()
            .unwrap()
            .text()
            .unwrap()
    }

    fn echo(&mut self, text: &str) -> Value {
        let id = self.next;
        self.next += 1;
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": text}}});
        last_message(&self.post(&call))
    }
}

/// The last message of an answer: a JSON body, or the last `data:` of an event stream.
fn last_message(text: &str) -> Value {
    let data = text.lines().filter_map(|l| l.strip_prefix("data:")).next_back().map(str::trim).unwrap_or(text);
    serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}: {text}"))
}

enum Contender {
    Direct(Direct),
    LegacyDirect(LegacyDirect),
    Proxy(StdioProxy),
}

impl Contender {
    fn echo(&mut self, text: &str) -> Value {
        match self {
            Contender::Direct(d) => d.echo(text),
            Contender::LegacyDirect(d) => d.echo(text),
            Contender::Proxy(p) => p.echo(text),
        }
    }
}

/// Clients at once in the concurrent row.
const CONCURRENT: usize = 32;

/// `CONCURRENT` clients at once, each making `CALLS` calls, in paired rounds:
/// modern and legacy clients straight to the server, against legacy stdio
/// clients each through a bridge of its own (`--connect`, as a host runs one
/// per server), passing through and translating; the median calls per second
/// of each, and each bridge's against the direct clients on the same path.
fn concurrent(bridge: &std::path::Path, url: &str, rounds: usize) {
    let mut direct: Vec<Direct> = (0..CONCURRENT)
        .map(|_| Direct { http: reqwest::blocking::Client::new(), url: url.to_string(), next: 1 })
        .collect();
    let mut bridged: Vec<StdioProxy> = (0..CONCURRENT)
        .map(|_| StdioProxy::start(&[bridge.display().to_string(), "--connect".into(), url.to_string()]))
        .collect();
    let mut legacy: Vec<LegacyDirect> = (0..CONCURRENT).map(|_| LegacyDirect::start(url)).collect();
    let translating = [bridge.display().to_string(), "--server-era".into(), "modern".into(), "--connect".into()];
    let mut translated: Vec<StdioProxy> =
        (0..CONCURRENT).map(|_| StdioProxy::start(&[&translating[..], &[url.to_string()]].concat())).collect();
    let mut rates = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for round in 0..rounds.max(1) + 1 {
        for k in 0..4 {
            let which = (round + k) % 4;
            let started = Instant::now();
            std::thread::scope(|scope| {
                let run = |text: String, echo: &mut dyn FnMut(&str) -> Value| {
                    for call in 0..CALLS {
                        let text = format!("{text} call {call}");
                        let answer = echo(&text);
                        assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!(text)), "{answer}");
                    }
                };
                if which == 0 {
                    for (n, d) in direct.iter_mut().enumerate() {
                        scope.spawn(move || run(format!("direct {n} round {round}"), &mut |t| d.echo(t)));
                    }
                } else if which == 1 {
                    for (n, d) in legacy.iter_mut().enumerate() {
                        scope.spawn(move || run(format!("legacy {n} round {round}"), &mut |t| d.echo(t)));
                    }
                } else if which == 3 {
                    for (n, p) in translated.iter_mut().enumerate() {
                        scope.spawn(move || run(format!("translated {n} round {round}"), &mut |t| p.echo(t)));
                    }
                } else {
                    for (n, p) in bridged.iter_mut().enumerate() {
                        scope.spawn(move || run(format!("bridged {n} round {round}"), &mut |t| p.echo(t)));
                    }
                }
            });
            // The first round warms up (connections, the bridges' sessions): not counted.
            if round > 0 {
                rates[which].push((CONCURRENT * CALLS) as f64 / started.elapsed().as_secs_f64());
            }
        }
    }
    for r in &mut rates {
        r.sort_by(f64::total_cmp);
    }
    let median = |r: &Vec<f64>| r[r.len() / 2];
    let (d, l, b, t) = (median(&rates[0]), median(&rates[1]), median(&rates[2]), median(&rates[3]));
    println!("\n{CONCURRENT} clients at once, {CALLS} calls each, {} paired rounds (median calls/s)", rates[0].len());
    println!("  {:62} {:>9.0}", "direct (modern clients, HTTP)", d);
    println!("  {:62} {:>9.0}", "direct (legacy clients, HTTP sessions)", l);
    println!("  {:62} {:>9.0}", "legacy stdio clients, each through mcp-era-bridge --connect", b);
    println!("  {:62} {:>9.0}", "  translating (--server-era modern)", t);
    println!(
        "  goals (at least 0.8x): passing through / the same legacy sessions direct {:.2}x; translating / modern direct {:.2}x",
        b / l,
        t / d
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let rounds: usize = std::env::var("BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(31);
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
    let (_server, url) = server();
    // Optimised as a user gets it; under `cargo test --benches` (a check of what
    // the bench reads, not a measurement) the debug build the tests use.
    let bridge = if cfg!(debug_assertions) {
        mcp_spec_testkit::as_installed("mcp-era-bridge", "mcp-era-bridge")
    } else {
        mcp_spec_testkit::as_installed_release("mcp-era-bridge", "mcp-era-bridge")
    };
    let node = peers::node();
    let mcp_remote = node.join("node_modules/mcp-remote/dist/proxy.js");
    let mut contenders: Vec<(&str, Contender)> = vec![
        (
            "direct (modern client, HTTP)",
            Contender::Direct(Direct { http: reqwest::blocking::Client::new(), url: url.clone(), next: 1 }),
        ),
        ("direct (legacy client, HTTP session)", Contender::LegacyDirect(LegacyDirect::start(&url))),
        // The server speaks both eras: the bridge passes a legacy client's session through
        // (as mcp-remote does), or translates it when told the server is modern.
        (
            "mcp-era-bridge --connect",
            Contender::Proxy(StdioProxy::start(&[bridge.display().to_string(), "--connect".into(), url.clone()])),
        ),
        (
            "  translating (--server-era modern)",
            Contender::Proxy(StdioProxy::start(&[
                bridge.display().to_string(),
                "--server-era".into(),
                "modern".into(),
                "--connect".into(),
                url.clone(),
            ])),
        ),
        (
            "mcp-remote 0.15.1 --protocol auto",
            Contender::Proxy(StdioProxy::start(&[
                "node".into(),
                mcp_remote.display().to_string(),
                url.clone(),
                "--protocol".into(),
                "auto".into(),
            ])),
        ),
    ];
    // Another build of the bridge (`BENCH_BRIDGE_BEFORE=path`) in the same paired rounds: a
    // change's before and after, measured side by side.
    let before = std::env::var("BENCH_BRIDGE_BEFORE").ok();
    if let Some(before) = &before {
        let connect = [before.clone(), "--connect".into(), url.clone()];
        contenders.push(("before: --connect", Contender::Proxy(StdioProxy::start(&connect))));
        let translate = [before.clone(), "--server-era".into(), "modern".into(), "--connect".into(), url.clone()];
        contenders.push(("  before: translating", Contender::Proxy(StdioProxy::start(&translate))));
    }
    // Warm each up (connections, JIT), then the paired rounds.
    for (name, c) in contenders.iter_mut() {
        for i in 0..CALLS {
            let text = format!("warm {i}");
            let answer = c.echo(&text);
            assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!(text)), "{name}: {answer}");
        }
    }
    let n = contenders.len();
    let mut latencies: Vec<Vec<Duration>> = vec![Vec::new(); n];
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); n];
    for round in 0..rounds {
        for k in 0..n {
            let i = (round + k) % n;
            let (name, c) = &mut contenders[i];
            let started = Instant::now();
            for call in 0..CALLS {
                let text = format!("round {round} call {call}");
                let t = Instant::now();
                let answer = c.echo(&text);
                latencies[i].push(t.elapsed());
                assert_eq!(answer.pointer("/result/content/0/text"), Some(&json!(text)), "{name}: {answer}");
            }
            rates[i].push(CALLS as f64 / started.elapsed().as_secs_f64());
        }
    }
    println!(
        "\nsequential tools/call echo to the Python SDK's HTTP server, {rounds} paired rounds of {CALLS} calls each"
    );
    println!("  {:36} {:>9} {:>9} {:>9} {:>11} {:>11}", "", "calls/s", "p50 ms", "p99 ms", "+p50 ms", "+p99 ms");
    let mut summary = Vec::new();
    for (i, (name, _)) in contenders.iter().enumerate() {
        latencies[i].sort();
        rates[i].sort_by(f64::total_cmp);
        let (p50, p99) = (percentile(&latencies[i], 0.5), percentile(&latencies[i], 0.99));
        let rate = rates[i][rates[i].len() / 2];
        summary.push((p50, p99, rate));
        let (d50, d99) = (ms(summary[0].0), ms(summary[0].1));
        println!(
            "  {:36} {:>9.0} {:>9.2} {:>9.2} {:>11.2} {:>11.2}",
            name,
            rate,
            ms(p50),
            ms(p99),
            ms(p50) - d50,
            ms(p99) - d99
        );
    }
    let [direct, legacy_direct, ours, translating, theirs] =
        [summary[0], summary[1], summary[2], summary[3], summary[4]];
    let added = |s: (Duration, Duration, f64)| ms(s.0) - ms(direct.0);
    println!(
        "  passing through, beside the same legacy session direct: +{:.2} ms p50 (goal: at most 0.1), {:.2}x its calls/s",
        ms(ours.0) - ms(legacy_direct.0),
        ours.2 / legacy_direct.2
    );
    for (what, ours) in [("passing through", ours), ("translating", translating)] {
        println!(
            "  goals, {what}: our added p50 / mcp-remote's {:.2} (at most 0.33); our p99 / mcp-remote's p50 {:.2} (under 1); our calls/s / mcp-remote's {:.2}x (at least 1.5x)",
            added(ours) / added(theirs),
            ms(ours.1) / ms(theirs.0),
            ours.2 / theirs.2
        );
    }
    if let [.., before_ours, before_translating] = summary[..]
        && before.is_some()
    {
        println!(
            "  before and now: passing through +{:.2} and +{:.2} ms p50 over the legacy session direct, translating +{:.2} and +{:.2} over modern direct",
            ms(before_ours.0) - ms(legacy_direct.0),
            ms(ours.0) - ms(legacy_direct.0),
            added(before_translating),
            added(translating)
        );
    }
    concurrent(&bridge, &url, rounds.div_ceil(4));
}
