//! Integration tests of mcp-spec (see the `[[test]]` targets in Cargo.toml), and
//! what they share: where the spec inputs are, loudly, and the type tables.

use std::path::{Path, PathBuf};

/// The spec folder, found as the tools find it (`MCP_SPEC_DIR`, then
/// `../shared/mcp-spec` beside the workspace). Panics with what was looked for
/// when it is missing: tests that need the inputs never skip silently.
pub fn spec_dir() -> PathBuf {
    match mcp_spec_codegen::spec::locate_spec_dir(None, &workspace_root()) {
        Ok(d) => d,
        Err(d) => panic!("the MCP spec inputs are missing; these tests need them\n{}", d.render()),
    }
}

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// The type table of a revision module, by revision name.
pub fn types_of(revision: &str) -> &'static [mcp_spec_types::rt::TypeEntry] {
    match revision {
        "2024-11-05" => mcp_spec_types::v2024_11_05::SCHEMA_TYPES,
        "2025-03-26" => mcp_spec_types::v2025_03_26::SCHEMA_TYPES,
        "2025-06-18" => mcp_spec_types::v2025_06_18::SCHEMA_TYPES,
        "2025-11-25" => mcp_spec_types::v2025_11_25::SCHEMA_TYPES,
        "2026-07-28" => mcp_spec_types::v2026_07_28::SCHEMA_TYPES,
        "draft" => mcp_spec_types::draft::SCHEMA_TYPES,
        other => panic!("no module for revision {other}: add it to tests/lib.rs"),
    }
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
mod readme {}

/// The small spec folder of `tests/fixtures/spec`, for golden reports.
pub fn fixture_spec() -> mcp_spec_codegen::Spec {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/spec");
    match mcp_spec_codegen::spec::load_spec(&dir) {
        Ok((spec, _warnings)) => spec,
        Err(d) => panic!("tests/fixtures/spec does not load:\n{}", d.render()),
    }
}

/// Compares `actual` with the golden file `tests/fixtures/<rel>`; with
/// `UPDATE_GOLDEN=1` in the environment, writes it instead.
pub fn assert_golden(rel: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(rel);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let (a, b): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
        let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        panic!(
            "{} differs from the golden file at line {}:\n- {}\n+ {}\nrun with UPDATE_GOLDEN=1 to accept the new output",
            path.display(),
            first + 1,
            a.get(first).unwrap_or(&"<end>"),
            b.get(first).unwrap_or(&"<end>")
        );
    }
}

/// The stems of the `.ts` files in `dir`, sorted.
pub fn ts_stems(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names
}

/// xorshift64*: small, seeded, the same everywhere, for the tests that make inputs.
pub struct Rng(pub u64);

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }
}
