//! What the tests of mcp-spec's crates share, without the generator or the
//! types crate: a crate under test (the era bridge, the example client and
//! server) dev-depends on this alone, so what its tests build is what a user
//! builds. The transcript judge stays in `mcp-spec-tests`: it judges with the
//! generator's model, an oracle independent of the generated code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

pub mod peers;

/// The workspace root (two folders above this crate's).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root exists")
}

/// The spec folder as the tools find it (`MCP_SPEC_DIR`, then the repository's
/// pinned copy, `spec/mcp`; the generator's `DEFAULT_SPEC_DIR`). Panics with what was looked for
/// when it is missing: tests that need the inputs never skip silently.
pub fn spec_dir() -> PathBuf {
    let env = std::env::var_os("MCP_SPEC_DIR").filter(|v| !v.is_empty()).map(PathBuf::from);
    let dir = env.clone().unwrap_or_else(|| workspace_root().join("spec/mcp"));
    if !dir.join("schema").is_dir() {
        panic!(
            "the MCP spec inputs are missing; these tests need them: {} has no schema/ folder ({})",
            dir.display(),
            if env.is_some() { "MCP_SPEC_DIR" } else { "the default path; set MCP_SPEC_DIR to another" }
        );
    }
    dir
}

/// Every example message in `dir` (a revision's `examples/`, one folder per
/// type): (the type the folder names, the file, its value), sorted by path.
pub fn examples_of(dir: &Path) -> Vec<(String, PathBuf, serde_json::Value)> {
    let mut out = Vec::new();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    folders.sort();
    for folder in folders {
        let type_name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            out.push((type_name.clone(), file, value));
        }
    }
    out
}

/// A binary of the workspace built as `cargo install --path <its folder>`
/// builds it: the package alone, with its default features and the
/// workspace's lock file, in `target/as-installed/`. A workspace-wide test run
/// unifies the features of every member (`--all-features` turns on the test
/// crate's type tables in the types crate), so `CARGO_BIN_EXE_*` is not the
/// binary a user gets; this is. Built once per test process; cargo's own lock
/// orders test processes that build at the same time.
pub fn as_installed(package: &str, bin: &str) -> PathBuf {
    built_alone(package, bin, false)
}

/// The same, optimised as `cargo install` builds it (for benchmarks).
pub fn as_installed_release(package: &str, bin: &str) -> PathBuf {
    built_alone(package, bin, true)
}

fn built_alone(package: &str, bin: &str, release: bool) -> PathBuf {
    static BUILT: OnceLock<Mutex<BTreeMap<(String, bool), PathBuf>>> = OnceLock::new();
    let mut built = BUILT.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(path) = built.get(&(bin.to_string(), release)) {
        return path.clone();
    }
    let target = workspace_root().join("target/as-installed");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let profile: &[&str] = if release { &["--release"] } else { &[] };
    let out = std::process::Command::new(cargo)
        .args(["build", "--locked", "--quiet", "--package", package, "--bin", bin])
        .args(profile)
        .current_dir(workspace_root())
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo runs");
    if !out.status.success() {
        panic!("cannot build {bin} of {package} as a user installs it:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    let dir = if release { "release" } else { "debug" };
    let path = target.join(dir).join(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.is_file(), "{} was not built", path.display());
    built.insert((bin.to_string(), release), path.clone());
    path
}
