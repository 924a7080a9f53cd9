//! `cargo xtask conformance`: the official MCP conformance suite, run by its own
//! runner (`@modelcontextprotocol/conformance`, pinned) at both revisions'
//! frozen requirement lists, against the suite's reference server directly (the
//! baseline every other run is read beside). Each run is scored against its
//! expected-failures file (`expected/<run>.yaml`, the suite's own ratchet: a
//! listed failure that passes fails the run too), and the scores are counted
//! again here from the checks the runner saved, so the runner's exit code is
//! never the only word.
//!
//! It needs what `cargo test` does not: the suite's source (`--suite-dir`,
//! default `../shared/conformance`), whose reference server is that project's
//! own, and the npm registry for the runner and Node 22 (installed under
//! `target/peers/`, pinned by `package-lock.json` here).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Parser;
use mcp_spec_testkit::{peers, workspace_root};

#[derive(Parser)]
#[command(
    name = "cargo xtask conformance",
    bin_name = "cargo xtask conformance",
    about = "Run the official MCP conformance suite against the reference server"
)]
struct Cli {
    /// The conformance suite's source (modelcontextprotocol/conformance at the
    /// commit of its npm package 0.2.0-alpha.11). Default: ../shared/conformance.
    #[arg(long)]
    suite_dir: Option<PathBuf>,
    /// Only the runs whose name contains this (`reference`, `2026-07-28`).
    #[arg(long)]
    only: Option<String>,
    /// How long the server under test may take to say it is listening.
    #[arg(long, default_value_t = 60)]
    start_timeout_secs: u64,
}

/// The revisions whose requirement lists the suite freezes.
const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// One run: a requirement list against one server or client under test.
struct Run {
    /// `reference-server-2026-07-28`: the expected-failures file's name too.
    name: String,
    revision: &'static str,
    /// What is tested, as the README's table says it.
    what: String,
    leg: Leg,
}

/// Which of the suite's legs a run is, and what it runs against.
enum Leg {
    /// `conformance server`: the era bridge in front of the reference server,
    /// with these arguments besides `--listen` and `--connect`; none: the
    /// reference server directly.
    Server { bridge: Option<&'static [&'static str]> },
    /// `conformance client`: a scenario client of ours (a script under
    /// `tests/conformance/clients/`) on stdio through `mcp-era-bridge --connect`
    /// to each scenario's mock server; none: the suite's reference client
    /// (`examples/clients/typescript/everything-client.ts`), directly.
    Client { script: Option<&'static str> },
}

impl Leg {
    /// The runner's subcommand, the requirement lists' section, the expected-failures file's key.
    fn name(&self) -> &'static str {
        match self {
            Leg::Server { .. } => "server",
            Leg::Client { .. } => "client",
        }
    }
}

fn runs() -> Vec<Run> {
    let mut runs: Vec<Run> = REVISIONS
        .iter()
        .map(|&revision| Run {
            name: format!("reference-server-{revision}"),
            revision,
            what: "the reference server, directly".into(),
            leg: Leg::Server { bridge: None },
        })
        .collect();
    runs.extend([
        Run {
            name: "bridge-as-modern-server-2026-07-28".into(),
            revision: "2026-07-28",
            what: "the bridge (`--listen --server-era legacy`) translating onto the reference server's legacy side"
                .into(),
            leg: Leg::Server { bridge: Some(&["--server-era", "legacy"]) },
        },
        Run {
            name: "bridge-as-legacy-server-2025-11-25".into(),
            revision: "2025-11-25",
            what: "the bridge (`--listen --server-era modern`) translating onto the reference server's modern side"
                .into(),
            leg: Leg::Server { bridge: Some(&["--server-era", "modern"]) },
        },
        Run {
            name: "bridge-pass-through-2026-07-28".into(),
            revision: "2026-07-28",
            what: "the bridge (`--listen`, eras found) passing the reference server's modern side through".into(),
            leg: Leg::Server { bridge: Some(&[]) },
        },
        Run {
            name: "bridge-as-modern-client-2025-11-25".into(),
            revision: "2025-11-25",
            what: "a 2026-07-28 client (`clients/modern.mjs`) through the bridge (`--connect`) to each 2025-11-25 client scenario's mock server".into(),
            leg: Leg::Client { script: Some("modern.mjs") },
        },
        Run {
            name: "bridge-as-legacy-client-2026-07-28".into(),
            revision: "2026-07-28",
            what: "a 2025-11-25 client (`clients/legacy.mjs`, on the TypeScript SDK 1.x) through the bridge (`--connect`) to each 2026-07-28 client scenario's mock server".into(),
            leg: Leg::Client { script: Some("legacy.mjs") },
        },
        Run {
            name: "bridge-passing-legacy-client-2025-11-25".into(),
            revision: "2025-11-25",
            what: "a 2025-11-25 client (`clients/legacy.mjs`) through the bridge (`--connect`), passed through to each 2025-11-25 client scenario's mock server".into(),
            leg: Leg::Client { script: Some("legacy.mjs") },
        },
        Run {
            name: "bridge-passing-modern-client-2026-07-28".into(),
            revision: "2026-07-28",
            what: "a 2026-07-28 client (`clients/modern.mjs`) through the bridge (`--connect`), passed through to each 2026-07-28 client scenario's mock server".into(),
            leg: Leg::Client { script: Some("modern.mjs") },
        },
    ]);
    runs.extend(REVISIONS.iter().map(|&revision| Run {
        name: format!("reference-client-{revision}"),
        revision,
        what: "the suite's reference client (`everything-client.ts`, TypeScript SDK 1.x), directly".into(),
        leg: Leg::Client { script: None },
    }));
    runs
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = workspace_root();
    let suite = cli.suite_dir.clone().unwrap_or_else(|| root.join("../shared/conformance"));
    if !suite.join("requirements").is_dir() || !suite.join("examples/servers/typescript").is_dir() {
        eprintln!(
            "error: {} is not the conformance suite's source (no requirements/ or examples/servers/typescript/)\n\
             hint: --suite-dir names a checkout of github.com/modelcontextprotocol/conformance at the commit of \
             its npm package 0.2.0-alpha.11",
            suite.display()
        );
        return ExitCode::from(2);
    }
    let runner = Runner::install(&suite);
    let selected: Vec<Run> =
        runs().into_iter().filter(|r| cli.only.as_deref().is_none_or(|o| r.name.contains(o))).collect();
    if selected.is_empty() {
        eprintln!("error: no run's name contains {:?}; runs: {}", cli.only, names(&runs()));
        return ExitCode::from(2);
    }
    let mut rows = Vec::new();
    let mut failed = Vec::new();
    for run in &selected {
        eprintln!("\n== {} ({}) ==", run.name, run.what);
        match runner.run(run, Duration::from_secs(cli.start_timeout_secs)) {
            Ok(score) => {
                eprintln!("{}", score.summary());
                if !score.problems.is_empty() {
                    failed.push(run.name.clone());
                    for p in &score.problems {
                        eprintln!("error: {p}");
                    }
                }
                rows.push((run, score));
            }
            Err(why) => {
                eprintln!("error: {}: {why}", run.name);
                failed.push(run.name.clone());
            }
        }
    }
    println!("{}", table(&rows));
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: {} of {} runs failed: {}", failed.len(), selected.len(), failed.join(", "));
        ExitCode::from(1)
    }
}

fn names(runs: &[Run]) -> String {
    runs.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// The installed runner and reference server.
struct Runner {
    node: PathBuf,
    cli: PathBuf,
    server: PathBuf,
    /// The suite's source (the reference client is installed from it when a run needs it).
    suite: PathBuf,
}

impl Runner {
    fn install(suite: &Path) -> Runner {
        let runner = peers::conformance_runner();
        let server = peers::conformance_reference_server(suite);
        Runner {
            node: runner.join("node_modules/node/bin/node"),
            cli: runner.join("node_modules/@modelcontextprotocol/conformance/dist/index.js"),
            server,
            suite: suite.to_path_buf(),
        }
    }

    /// The requirement list of `revision`, as the runner ships it, read by its
    /// own YAML parser: (scored, not scored) scenarios of the `leg`.
    fn requirements(&self, revision: &str, leg: &str) -> Result<(BTreeSet<String>, BTreeSet<String>), String> {
        let package = self.cli.parent().and_then(Path::parent).ok_or("the runner's package folder")?;
        let file = package.join(format!("requirements/{revision}.yaml"));
        let script = "const y=require('yaml');process.stdout.write(JSON.stringify(y.parse(require('fs').readFileSync(process.argv[1],'utf8'))))";
        let out = Command::new(&self.node)
            .args(["-e", script])
            .arg(&file)
            .current_dir(package)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.node.display()))?;
        if !out.status.success() {
            return Err(format!("cannot read {}: {}", file.display(), String::from_utf8_lossy(&out.stderr)));
        }
        let doc: serde_json::Value =
            serde_json::from_slice(&out.stdout).map_err(|e| format!("{}: {e}", file.display()))?;
        let scored: BTreeSet<String> =
            doc[leg].as_array().into_iter().flatten().filter_map(|s| s.as_str().map(String::from)).collect();
        let not_scored: BTreeSet<String> = doc["not_scored"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["leg"] == leg)
            .filter_map(|e| e["scenario"].as_str().map(String::from))
            .collect();
        if scored.is_empty() {
            return Err(format!("{} lists no {leg} scenario", file.display()));
        }
        Ok((scored, not_scored))
    }

    fn run(&self, run: &Run, start_timeout: Duration) -> Result<Score, String> {
        let leg = run.leg.name();
        let (scored, not_scored) = self.requirements(run.revision, leg)?;
        let expected_file = workspace_root().join(format!("tests/conformance/expected/{}.yaml", run.name));
        let expected = Expected::read(&expected_file, leg)?;
        let out = workspace_root().join("target/conformance").join(&run.name);
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        let mut runner = Command::new(&self.node);
        runner.arg(&self.cli).arg(leg);
        // What the run needs running meanwhile (the reference server, a bridge), stopped after it.
        let mut running: (Option<Server>, Option<Bridge>) = (None, None);
        match run.leg {
            Leg::Server { bridge } => {
                let server = Server::start(&self.node, &self.server, &out.join("server.log"), start_timeout)?;
                let bridge = match bridge {
                    Some(args) => Some(Bridge::start(&server.url, args, &out.join("bridge.log"), start_timeout)?),
                    None => None,
                };
                let url = bridge.as_ref().map_or(&server.url, |b| &b.url).clone();
                runner.args(["--url", &url]);
                running = (Some(server), bridge);
            }
            Leg::Client { script: Some(script) } => {
                // The suite runs it with each scenario's URL last, all scenarios at once; each
                // starts a bridge of its own (stdio), so nothing is shared between them.
                let script = workspace_root().join("tests/conformance/clients").join(script);
                let bridge = mcp_spec_testkit::as_installed("mcp-era-bridge", "mcp-era-bridge");
                // The TypeScript SDK the runner brings (1.x, pinned by its lock), for clients built on it.
                let sdk =
                    self.cli.parent().and_then(Path::parent).and_then(Path::parent).ok_or("the runner's folder")?;
                let sdk = sdk.join("sdk");
                let command = [self.node.as_path(), &script, Path::new("--sdk"), &sdk, Path::new("--bridge"), &bridge]
                    .map(|p| p.display().to_string());
                runner.args(["--command", &one_line(&command)?]);
            }
            Leg::Client { script: None } => {
                let client = peers::conformance_reference_client(&self.suite);
                let command = [
                    self.node.clone(),
                    client.join("node_modules/.bin/tsx"),
                    client.join("examples/clients/typescript/everything-client.ts"),
                ]
                .map(|p| p.display().to_string());
                runner.args(["--command", &one_line(&command)?]);
            }
        }
        let started = Instant::now();
        let suite = runner
            .args(["--requirements", run.revision, "--expected-failures"])
            .arg(&expected_file)
            .arg("-o")
            .arg(out.join("results"))
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run the conformance runner: {e}"))?;
        let took = started.elapsed();
        drop(running);
        std::fs::write(out.join("runner.log"), [&suite.stdout[..], &suite.stderr[..]].concat())
            .map_err(|e| format!("{}: {e}", out.display()))?;
        let results = read_results(&out.join("results"), leg)?;
        let mut score = Score::of(&results, &scored, &not_scored, &expected, took);
        // The runner's verdict and ours must agree: each is the other's check.
        let ours_ok = score.problems.is_empty();
        let theirs_ok = suite.status.success();
        if ours_ok != theirs_ok {
            score.problems.push(format!(
                "the runner exited {} where the checks it saved say the run {} (its output: {})",
                suite.status,
                if ours_ok { "passes" } else { "fails" },
                out.join("runner.log").display()
            ));
        }
        Ok(score)
    }
}

/// A command as the runner takes it: one string, which it splits at spaces.
fn one_line(command: &[String]) -> Result<String, String> {
    if command.iter().any(|part| part.contains(char::is_whitespace)) {
        return Err(format!("the runner splits its --command at spaces: {command:?} has one"));
    }
    Ok(command.join(" "))
}

/// The server under test, listening; killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    /// Starts the reference server on a free loopback port and waits for its
    /// "running on" line (it has no health endpoint), its output kept in `log`.
    fn start(node: &Path, dir: &Path, log: &Path, timeout: Duration) -> Result<Server, String> {
        let port = free_port()?;
        let mut child = Command::new(node)
            .arg(dir.join("node_modules/tsx/dist/cli.mjs"))
            .arg("everything-server.ts")
            .current_dir(dir)
            .env("PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the reference server: {e}"))?;
        let (tx, rx) = mpsc::channel();
        for stream in [
            child.stdout.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
            child.stderr.take().map(|s| Box::new(s) as _),
        ]
        .into_iter()
        .flatten()
        {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        let mut server = Server { child, url: format!("http://127.0.0.1:{port}/mcp") };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    let ready = line.contains("running on");
                    seen.push(line);
                    if ready {
                        break;
                    }
                }
                Err(e) => {
                    let _ = std::fs::write(log, seen.join("\n"));
                    let why = match e {
                        mpsc::RecvTimeoutError::Timeout => format!("did not say it was running within {timeout:?}"),
                        mpsc::RecvTimeoutError::Disconnected => {
                            format!("exited before it was running ({:?})", server.child.wait().ok())
                        }
                    };
                    return Err(format!("the reference server {why}; its output:\n{}", seen.join("\n")));
                }
            }
        }
        // The rest of its output goes to the log as it comes.
        let log = log.to_path_buf();
        std::thread::spawn(move || {
            use std::io::Write;
            if let Ok(mut f) = std::fs::File::create(&log) {
                for line in seen.into_iter().chain(rx) {
                    let _ = writeln!(f, "{line}");
                }
            }
        });
        Ok(server)
    }
}

/// The era bridge as a user installs it, listening on a free loopback port in
/// front of `upstream`; stopped (SIGTERM, as a service manager does) when dropped.
struct Bridge {
    child: Child,
    url: String,
}

impl Bridge {
    fn start(upstream: &str, args: &[&str], log: &Path, timeout: Duration) -> Result<Bridge, String> {
        let port = free_port()?;
        let binary = mcp_spec_testkit::as_installed("mcp-era-bridge", "mcp-era-bridge");
        let log_file = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let child = Command::new(binary)
            .args(["--listen", &port.to_string(), "--connect", upstream])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .map_err(|e| format!("cannot start the bridge: {e}"))?;
        let mut bridge = Bridge { child, url: format!("http://127.0.0.1:{port}/mcp") };
        let until = Instant::now() + timeout;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = bridge.child.try_wait() {
                return Err(format!("the bridge exited ({status}) before listening; its log: {}", log.display()));
            }
            if Instant::now() > until {
                return Err(format!("the bridge did not listen within {timeout:?}; its log: {}", log.display()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(bridge)
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    listener.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// A check's verdict as the runner's baseline reads it: a warning fails too.
fn failed(status: &str) -> bool {
    status == "FAILURE" || status == "WARNING"
}

/// Each scenario's checks, (check id, status), from the folders the runner
/// saved: `server-<scenario>-<timestamp>/checks.json` for the server leg,
/// `<scenario>-<timestamp>/` for the client leg, whose `auth/…` scenarios are
/// in an `auth/` folder.
fn read_results(dir: &Path, leg: &str) -> Result<BTreeMap<String, Vec<(String, String)>>, String> {
    let mut out = BTreeMap::new();
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("the runner saved no results in {}: {e}", dir.display()))?;
    let mut folders = Vec::new();
    for entry in entries.flatten() {
        let folder = entry.file_name().to_string_lossy().into_owned();
        if leg == "client" && folder == "auth" {
            let inner = std::fs::read_dir(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
            folders.extend(inner.flatten().map(|e| (format!("auth/{}", e.file_name().to_string_lossy()), e.path())));
        } else {
            folders.push((folder, entry.path()));
        }
    }
    let prefix = if leg == "server" { "server-" } else { "" };
    for (folder, path) in folders {
        let scenario = scenario_of(&folder, prefix).ok_or_else(|| format!("an unexpected results folder: {folder}"))?;
        let entry = path;
        let file = entry.join("checks.json");
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let checks: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let checks = checks.as_array().ok_or_else(|| format!("{}: not a list of checks", file.display()))?;
        let parsed = checks
            .iter()
            .map(|c| match (c["id"].as_str(), c["status"].as_str()) {
                (Some(id), Some(status)) => Ok((id.to_string(), status.to_string())),
                _ => Err(format!("{}: a check without an id or a status: {c}", file.display())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if out.insert(scenario.to_string(), parsed).is_some() {
            return Err(format!("two results folders for {scenario} in {}", dir.display()));
        }
    }
    Ok(out)
}

/// `server-tools-list-2026-12-06T23-05-53-186Z` → `tools-list` (the prefix `server-`).
fn scenario_of<'a>(folder: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = folder.strip_prefix(prefix)?;
    const STAMP: usize = "-2026-12-06T23-05-53-186Z".len();
    let cut = rest.len().checked_sub(STAMP)?;
    let stamp = &rest[cut..];
    (stamp.starts_with('-') && stamp.ends_with('Z') && stamp.as_bytes()[11] == b'T').then(|| &rest[..cut])
}

/// An expected-failures file: `scenario` or `scenario:check-id` entries under
/// `server:` or `client:` (the run's leg), each with the reason it is there as its line's comment.
#[derive(Debug)]
struct Expected {
    entries: Vec<(String, Option<String>)>,
}

impl Expected {
    fn read(file: &Path, leg: &str) -> Result<Expected, String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let mut entries = Vec::new();
        let mut section = None;
        for (n, line) in text.lines().enumerate() {
            let at = || format!("{}:{}", file.display(), n + 1);
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            // `server: []`: a section with nothing in it (the runner reads a bare `server:` as no list).
            let header = trimmed.strip_suffix(':').or_else(|| trimmed.strip_suffix(": []"));
            if let Some(key) = header.filter(|_| !line.starts_with(' ')) {
                section = Some(key.to_string());
                if key != leg {
                    return Err(format!("{}: this run is the {leg} leg: a `{leg}:` list, not `{key}:`", at()));
                }
                continue;
            }
            let Some(item) = trimmed.strip_prefix("- ") else {
                return Err(format!("{}: not a `- scenario[:check]  # why` entry: {line}", at()));
            };
            let (entry, why) = item.split_once('#').map(|(e, w)| (e.trim(), w.trim())).unwrap_or((item.trim(), ""));
            if section.is_none() || why.is_empty() {
                return Err(format!("{}: `{entry}` says no reason: each entry ends with `# why it fails`", at()));
            }
            let (scenario, check) = match entry.split_once(':') {
                Some((s, c)) => (s.to_string(), Some(c.to_string())),
                None => (entry.to_string(), None),
            };
            entries.push((scenario, check));
        }
        Ok(Expected { entries })
    }

    fn covers(&self, scenario: &str, check: &str) -> bool {
        self.entries.iter().any(|(s, c)| s == scenario && c.as_deref().is_none_or(|c| c == check))
    }
}

/// A run's outcome, counted from the saved checks.
struct Score {
    /// Scored scenarios: all run, and those with no failed check.
    required: usize,
    passed: usize,
    /// Of those, the `auth/*` scenarios (the client leg's OAuth): all, and those passed.
    auth_required: usize,
    auth_passed: usize,
    not_scored_run: usize,
    not_scored_passed: usize,
    checks: usize,
    expected_failures: usize,
    took: Duration,
    /// What makes the run fail: an unexpected failure, a stale entry, a
    /// required scenario that did not run, a count that does not add up.
    problems: Vec<String>,
}

impl Score {
    fn of(
        results: &BTreeMap<String, Vec<(String, String)>>,
        scored: &BTreeSet<String>,
        not_scored: &BTreeSet<String>,
        expected: &Expected,
        took: Duration,
    ) -> Score {
        let mut s = Score {
            required: scored.len(),
            passed: 0,
            auth_required: scored.iter().filter(|s| s.starts_with("auth/")).count(),
            auth_passed: 0,
            not_scored_run: 0,
            not_scored_passed: 0,
            checks: results.values().map(Vec::len).sum(),
            expected_failures: 0,
            took,
            problems: Vec::new(),
        };
        for scenario in scored {
            let Some(checks) = results.get(scenario) else {
                s.problems.push(format!("the required scenario {scenario} did not run"));
                continue;
            };
            if checks.is_empty() {
                s.problems.push(format!("{scenario} ran no check"));
            }
            let failing: Vec<&str> = checks.iter().filter(|(_, st)| failed(st)).map(|(id, _)| id.as_str()).collect();
            if failing.is_empty() {
                s.passed += 1;
                s.auth_passed += usize::from(scenario.starts_with("auth/"));
            }
            for id in &failing {
                if expected.covers(scenario, id) {
                    s.expected_failures += 1;
                } else {
                    s.problems.push(format!(
                        "{scenario}: check {id} failed, and the expected-failures file does not list it"
                    ));
                }
            }
        }
        for (scenario, check) in &expected.entries {
            let Some(checks) = results.get(scenario) else {
                s.problems.push(format!("the expected-failures file lists {scenario}, which did not run"));
                continue;
            };
            let still = checks.iter().any(|(id, st)| failed(st) && check.as_deref().is_none_or(|c| c == id));
            if !still {
                let entry = check.as_ref().map_or(scenario.clone(), |c| format!("{scenario}:{c}"));
                s.problems.push(format!("{entry} passes now: remove it from the expected-failures file"));
            }
        }
        for scenario in not_scored {
            if let Some(checks) = results.get(scenario) {
                s.not_scored_run += 1;
                s.not_scored_passed += usize::from(!checks.iter().any(|(_, st)| failed(st)));
            }
        }
        let unknown: Vec<&String> =
            results.keys().filter(|k| !scored.contains(*k) && !not_scored.contains(*k)).collect();
        if !unknown.is_empty() {
            s.problems.push(format!("scenarios ran that the requirement list does not name: {unknown:?}"));
        }
        s
    }

    fn summary(&self) -> String {
        format!(
            "{}/{} required scenarios pass (auth/*: {}/{}; {} checks, {} expected failures); not scored: {}/{} pass; {:.1} s",
            self.passed,
            self.required,
            self.auth_passed,
            self.auth_required,
            self.checks,
            self.expected_failures,
            self.not_scored_passed,
            self.not_scored_run,
            self.took.as_secs_f64()
        )
    }
}

/// The README's table: per run, required scenarios passed.
fn table(rows: &[(&Run, Score)]) -> String {
    let mut out = String::from(
        "| revision | run | required scenarios passed | of them auth/* | not scored, passed |\n|---|---|---|---|---|\n",
    );
    for (run, s) in rows {
        let auth =
            if s.auth_required == 0 { "-".to_string() } else { format!("{}/{}", s.auth_passed, s.auth_required) };
        out.push_str(&format!(
            "| {} | {} | {}/{} | {auth} | {}/{} |\n",
            run.revision, run.what, s.passed, s.required, s.not_scored_passed, s.not_scored_run
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_results_folder_names_its_scenario() {
        assert_eq!(scenario_of("server-tools-list-2026-12-06T23-05-53-186Z", "server-"), Some("tools-list"));
        assert_eq!(
            scenario_of("server-sep-2164-resource-not-found-2026-12-06T23-05-53-186Z", "server-"),
            Some("sep-2164-resource-not-found")
        );
        assert_eq!(scenario_of("client-tools-list-2026-12-06T23-05-53-186Z", "server-"), None);
        assert_eq!(scenario_of("server-tools-list", "server-"), None);
        // The client leg's folders have no prefix; `auth/` scenarios are read from their folder.
        assert_eq!(scenario_of("sse-retry-2026-12-07T02-48-23-877Z", ""), Some("sse-retry"));
        assert_eq!(scenario_of("auth/basic-cimd-2026-12-07T02-48-23-878Z", ""), Some("auth/basic-cimd"));
    }

    fn expected(text: &str) -> Result<Expected, String> {
        // One file per call: the tests run side by side.
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let file = std::env::temp_dir().join(format!("mcp-conformance-expected-{}-{n}.yaml", std::process::id()));
        std::fs::write(&file, text).unwrap();
        let leg = if text.starts_with("client") { "client" } else { "server" };
        let e = Expected::read(&file, leg);
        let _ = std::fs::remove_file(&file);
        e
    }

    #[test]
    fn every_expected_failure_says_why() {
        let e = expected("server:\n  - a:wire  # the server's own bug\n  - b  # not served\n").unwrap();
        assert_eq!(e.entries, [("a".to_string(), Some("wire".to_string())), ("b".to_string(), None)]);
        assert!(expected("server: []\n").unwrap().entries.is_empty());
        assert!(expected("server:\n  - a:wire\n").unwrap_err().contains("says no reason"));
        assert!(
            expected("client:\n  - a  # x\nserver:\n  - b  # y\n")
                .unwrap_err()
                .contains("a `client:` list, not `server:`")
        );
    }

    #[test]
    fn the_score_fails_on_an_unexpected_failure_a_stale_entry_and_a_missing_scenario() {
        let results: BTreeMap<String, Vec<(String, String)>> = [
            ("ok", vec![("ok", "SUCCESS")]),
            ("known", vec![("main", "SUCCESS"), ("wire", "FAILURE")]),
            ("new", vec![("main", "WARNING")]),
            ("fixed", vec![("main", "SUCCESS")]),
        ]
        .into_iter()
        .map(|(s, c)| (s.to_string(), c.into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()))
        .collect();
        let scored: BTreeSet<String> = ["ok", "known", "new", "fixed", "absent"].map(String::from).into();
        let e = expected("server:\n  - known:wire  # why\n  - fixed  # why\n").unwrap();
        let s = Score::of(&results, &scored, &BTreeSet::new(), &e, Duration::ZERO);
        assert_eq!((s.required, s.passed, s.expected_failures, s.checks), (5, 2, 1, 5));
        assert_eq!(s.problems.len(), 3, "{:?}", s.problems);
        assert!(s.problems[0].contains("absent did not run"));
        assert!(s.problems[1].contains("new: check main failed"));
        assert!(s.problems[2].contains("fixed passes now"));
    }
}
