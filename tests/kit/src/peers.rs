//! The real MCP peers the tests talk to, installed by the tests themselves the
//! first time one needs them, pinned, under `target/peers/`:
//!
//! - `venv/`: the official Python SDK, `mcp` 2.3.0, from PyPI, every package
//!   pinned with its hashes (`tests/peers/python/requirements.txt`);
//! - `node/`: the official TypeScript SDK, `@modelcontextprotocol/sdk` 1.32.2,
//!   and the reference server `@modelcontextprotocol/server-everything` 2026.8.31,
//!   from the npm registry with `npm ci` (`tests/peers/node/package-lock.json`);
//! - `haproxy/`: Debian 12's HAProxy 2.6.12, unpacked from its archive's packages.
//!
//! An install is done once: a stamp records what it was made from, and a file
//! lock keeps test binaries running at the same time from installing twice. When
//! an install cannot be done, the test fails with the registry, the package and
//! what the installer said.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace_root;

/// Where the peers' sources are: `tests/peers`.
pub fn sources() -> PathBuf {
    workspace_root().join("tests/peers")
}

/// Where they are installed: `target/peers`.
pub fn installed() -> PathBuf {
    workspace_root().join("target/peers")
}

/// Runs `install` unless `dir/.installed` says it was done from `inputs`; under
/// a lock held across processes.
fn once(dir: &Path, inputs: &str, what: &str, install: impl FnOnce(&Path) -> Result<(), String>) -> PathBuf {
    std::fs::create_dir_all(installed()).unwrap_or_else(|e| panic!("{}: {e}", installed().display()));
    let lock_path = installed().join(format!(".{}.lock", dir.file_name().unwrap().to_string_lossy()));
    let lock = std::fs::File::create(&lock_path).unwrap_or_else(|e| panic!("{}: {e}", lock_path.display()));
    lock.lock().unwrap_or_else(|e| panic!("cannot lock {}: {e}", lock_path.display()));
    let stamp = dir.join(".installed");
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == inputs) {
        return dir.to_path_buf();
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).unwrap_or_else(|e| panic!("cannot remove the old {}: {e}", dir.display()));
    }
    eprintln!("installing {what} into {} (once)", dir.display());
    if let Err(why) = install(dir) {
        panic!("cannot install {what}:\n{why}");
    }
    std::fs::write(&stamp, inputs).unwrap_or_else(|e| panic!("{}: {e}", stamp.display()));
    drop(lock);
    dir.to_path_buf()
}

fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let out = command.output().map_err(|e| format!("{what}: cannot run {:?}: {e}", command.get_program()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The Python of a venv with the Python SDK (`mcp` 2.3.0) installed.
pub fn python() -> PathBuf {
    let requirements = sources().join("python/requirements.txt");
    let pinned = std::fs::read_to_string(&requirements).unwrap_or_else(|e| panic!("{}: {e}", requirements.display()));
    let dir =
        once(&installed().join("venv"), &pinned, "the Python SDK `mcp` 2.3.0 from PyPI (https://pypi.org)", |dir| {
            let python3 = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
            run(Command::new(&python3).arg("-m").arg("venv").arg(dir), &format!("`{python3} -m venv`"))?;
            run(
                Command::new(dir.join("bin/python"))
                    .args([
                        "-m",
                        "pip",
                        "install",
                        "--quiet",
                        "--disable-pip-version-check",
                        "--no-input",
                        "--require-hashes",
                        "-r",
                    ])
                    .arg(&requirements),
                "pip install --require-hashes -r tests/peers/python/requirements.txt (from https://pypi.org)",
            )
        });
    dir.join("bin/python")
}

/// The folder with the TypeScript SDK and the reference server installed, and
/// the peers' scripts beside them (`client.mjs` finds the SDK from there).
pub fn node() -> PathBuf {
    let src = sources().join("node");
    let lock = std::fs::read_to_string(src.join("package-lock.json"))
        .unwrap_or_else(|e| panic!("{}/package-lock.json: {e}", src.display()));
    let dir = once(
        &installed().join("node"),
        &lock,
        "@modelcontextprotocol/sdk 1.32.2 and 1.12.3, @modelcontextprotocol/client and /server 2.4.0 and @modelcontextprotocol/server-everything 2026.8.31 from the npm registry (https://registry.npmjs.org)",
        |dir| {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            for f in ["package.json", "package-lock.json"] {
                std::fs::copy(src.join(f), dir.join(f)).map_err(|e| format!("{f}: {e}"))?;
            }
            run(
                Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(dir),
                "npm ci (tests/peers/node/package-lock.json)",
            )
        },
    );
    // The scripts are copied every time: they are sources, not part of the install. Tests run
    // in parallel, and a node started while another test rewrites its script in place would read
    // it half-written (an empty script runs nothing and exits 0): each changed script is written
    // beside its place and renamed into it, which is atomic.
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "mjs") {
            let text = std::fs::read(&path).unwrap();
            let to = dir.join(entry.file_name());
            if std::fs::read(&to).is_ok_and(|there| there == text) {
                continue;
            }
            let staged = dir.join(format!(".{}.{}", entry.file_name().to_string_lossy(), std::process::id()));
            std::fs::write(&staged, &text).unwrap();
            std::fs::rename(&staged, &to).unwrap();
        }
    }
    dir
}

/// A peer's script in `tests/peers/python`.
pub fn python_script(name: &str) -> PathBuf {
    sources().join("python").join(name)
}

/// A command that runs `server` with every line on its stdio written to
/// `transcript` (JSON lines `{"t", "dir": "c2s" | "s2c", "msg"}`), by a proxy
/// that is not ours (`tee_proxy.py`, the standard library only).
pub fn teed(transcript: &Path, server: &[String]) -> Vec<String> {
    let mut cmd = vec![
        python().display().to_string(),
        python_script("tee_proxy.py").display().to_string(),
        transcript.display().to_string(),
        "--".into(),
    ];
    cmd.extend(server.iter().cloned());
    cmd
}

/// A fresh transcript path under `target/peers/transcripts/` for a session name
/// (the last run's transcripts of that name removed, earlier sessions' too).
pub fn transcript_path(name: &str) -> PathBuf {
    let dir = installed().join("transcripts");
    std::fs::create_dir_all(&dir).unwrap();
    for earlier in earlier_sessions(&dir.join(format!("{name}.jsonl"))) {
        let _ = std::fs::remove_file(earlier);
    }
    let path = dir.join(format!("{name}.jsonl"));
    let _ = std::fs::remove_file(&path);
    path
}

/// The transcripts `tee_proxy.py` moved aside for earlier sessions of the same
/// command (`NAME.earlier-N.jsonl`: the TypeScript SDK v2 probes a stdio
/// server's era on a sibling process first), in order.
pub fn earlier_sessions(transcript: &Path) -> Vec<PathBuf> {
    let stem = transcript.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    (1..).map(|n| transcript.with_file_name(format!("{stem}.earlier-{n}.jsonl"))).take_while(|p| p.exists()).collect()
}

/// The official conformance suite's runner, `@modelcontextprotocol/conformance`
/// 0.2.0-alpha.11 exactly (its `latest` tag is older), and the Node 22 it needs
/// (npm's `node` package; the machine's Node 20 stops on `fs.globSync`), from
/// `tests/conformance/package-lock.json`: the folder they are installed in.
pub fn conformance_runner() -> PathBuf {
    let src = workspace_root().join("tests/conformance");
    let lock = std::fs::read_to_string(src.join("package-lock.json"))
        .unwrap_or_else(|e| panic!("{}/package-lock.json: {e}", src.display()));
    once(
        &installed().join("conformance-runner"),
        &lock,
        "@modelcontextprotocol/conformance 0.2.0-alpha.11 and node 22 from the npm registry (https://registry.npmjs.org)",
        |dir| npm_ci(&src, dir, "tests/conformance/package-lock.json"),
    )
}

/// Debian 12's HAProxy and the libraries it needs that a Debian machine may
/// lack, as the Debian archive serves them, pinned (an archive that serves
/// others fails the install, naming them): the packages downloaded with
/// `apt-get download` (no root, nothing installed on the machine) and
/// unpacked under `target/peers/haproxy`. The binary, and the folder its
/// libraries are in (for `LD_LIBRARY_PATH`).
pub fn haproxy() -> (PathBuf, PathBuf) {
    const PACKAGES: [&str; 4] = [
        "haproxy=2.6.12-1+deb12u3",
        "liblua5.3-0=5.3.6-2",
        "libopentracing-c-wrapper0=1.1.3-3+b1",
        "libopentracing1=1.6.0-4",
    ];
    let dir = once(
        &installed().join("haproxy"),
        &PACKAGES.join("\n"),
        "HAProxy 2.6.12 from Debian 12's archive (apt-get download)",
        |dir| {
            let debs = dir.join("debs");
            std::fs::create_dir_all(&debs).map_err(|e| format!("{}: {e}", debs.display()))?;
            run(
                Command::new("apt-get").arg("download").args(PACKAGES).current_dir(&debs),
                &format!("apt-get download {}", PACKAGES.join(" ")),
            )?;
            for deb in std::fs::read_dir(&debs).map_err(|e| e.to_string())?.flatten() {
                run(
                    Command::new("dpkg-deb").arg("-x").arg(deb.path()).arg(dir.join("root")),
                    &format!("dpkg-deb -x {}", deb.path().display()),
                )?;
            }
            Ok(())
        },
    );
    (dir.join("root/usr/sbin/haproxy"), dir.join("root/usr/lib/x86_64-linux-gnu"))
}

/// The suite's reference server (`examples/servers/typescript` of the suite's
/// source at `suite`), copied under `target/` (the suite's folder may be
/// read-only) with its own lock file's dependencies: the folder it runs in.
pub fn conformance_reference_server(suite: &Path) -> PathBuf {
    let src = suite.join("examples/servers/typescript");
    let mut inputs = String::new();
    for file in ["package-lock.json", "everything-server.ts"] {
        let text = std::fs::read_to_string(src.join(file)).unwrap_or_else(|e| {
            panic!("{}/{file}: {e} (is {} the conformance suite's source?)", src.display(), suite.display())
        });
        inputs.push_str(&text);
    }
    once(
        &installed().join("conformance-server"),
        &inputs,
        "the conformance suite's reference server's dependencies from the npm registry (https://registry.npmjs.org)",
        |dir| {
            copy_tree(&src, dir).map_err(|e| format!("copying {}: {e}", src.display()))?;
            run(
                Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(dir),
                "npm ci (the reference server's package-lock.json)",
            )
        },
    )
}

/// The conformance suite's reference client (`examples/clients/typescript/everything-client.ts`,
/// which imports the suite's `src/`): the suite's source copied under `target/peers/` and its
/// dependencies installed from its `package-lock.json` (no build: `tsx` runs the TypeScript).
/// The folder; the client runs as `node node_modules/.bin/tsx examples/clients/typescript/everything-client.ts`.
pub fn conformance_reference_client(suite: &Path) -> PathBuf {
    let mut inputs = String::new();
    for file in ["package-lock.json", "examples/clients/typescript/everything-client.ts"] {
        let text = std::fs::read_to_string(suite.join(file)).unwrap_or_else(|e| {
            panic!("{}/{file}: {e} (is {} the conformance suite's source?)", suite.display(), suite.display())
        });
        inputs.push_str(&text);
    }
    once(
        &installed().join("conformance-client"),
        &inputs,
        "the conformance suite's reference client's dependencies from the npm registry (https://registry.npmjs.org)",
        |dir| {
            copy_tree(suite, dir).map_err(|e| format!("copying {}: {e}", suite.display()))?;
            run(
                Command::new("npm")
                    .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"])
                    .current_dir(dir),
                "npm ci (the conformance suite's package-lock.json)",
            )
        },
    )
}

fn npm_ci(src: &Path, dir: &Path, what: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for f in ["package.json", "package-lock.json"] {
        std::fs::copy(src.join(f), dir.join(f)).map_err(|e| format!("{f}: {e}"))?;
    }
    run(
        Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(dir),
        &format!("npm ci ({what})"),
    )
}

/// Copies the files under `from` into `to` (made writable: a read-only source
/// stays read-only in a plain copy), leaving out `node_modules`.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            if entry.file_name() != "node_modules" {
                copy_tree(&src, &dst)?;
            }
        } else {
            std::fs::write(&dst, std::fs::read(&src)?)?;
        }
    }
    Ok(())
}
