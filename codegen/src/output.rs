//! Writing a generated crate all at once, and checking a committed one.
//!
//! Output is built completely in memory, written to a temporary folder beside the
//! target, and swapped into place only when every file is written, so a failed or
//! interrupted run leaves the previous crate as it was.

use std::io;
use std::path::{Path, PathBuf};

use crate::emit::Files;

/// A file whose committed content differs from the freshly generated one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stale {
    Changed(PathBuf),
    Missing(PathBuf),
    /// A `.rs` file anywhere under `src/` that generation would not produce
    /// (`src/shared/` and any other folder included).
    Extra(PathBuf),
}

impl std::fmt::Display for Stale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stale::Changed(p) => write!(f, "changed: {}", p.display()),
            Stale::Missing(p) => write!(f, "missing: {}", p.display()),
            Stale::Extra(p) => write!(f, "not generated any more: {}", p.display()),
        }
    }
}

/// Compares `files` with what is in `out`; never writes.
pub fn check_crate(out: &Path, files: &Files) -> Vec<Stale> {
    let mut stale = Vec::new();
    for (rel, content) in files {
        match std::fs::read(out.join(rel)) {
            Ok(existing) if existing == content.as_bytes() => {}
            Ok(_) => stale.push(Stale::Changed(out.join(rel))),
            Err(_) => stale.push(Stale::Missing(out.join(rel))),
        }
    }
    for extra in files_under(out) {
        let rel = extra.strip_prefix(out).unwrap_or(&extra).to_path_buf();
        if !files.contains_key(&rel) {
            stale.push(Stale::Extra(extra));
        }
    }
    stale
}

/// Every file under `out`, in every folder below it, but a build's `target/`
/// (what `write_crate` keeps): the generator owns the rest, so any file it
/// would not write is stale.
fn files_under(out: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![out.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path != out.join("target") {
                    folders.push(path);
                }
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Writes `files` as the whole content of `out` (a folder this generator owns).
/// Files in `out` that are not in `files` are removed, except `target/`.
pub fn write_crate(out: &Path, files: &Files) -> io::Result<()> {
    write_crate_with(out, files, |_| Ok(()))
}

/// [`write_crate`] with a hook called after each file is written to the temporary
/// folder; an error from the hook aborts the run (tests use it to fail mid-way).
pub fn write_crate_with(
    out: &Path,
    files: &Files,
    mut after_each: impl FnMut(&Path) -> io::Result<()>,
) -> io::Result<()> {
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "generated".into());
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = (|| {
        for (rel, content) in files {
            let p = tmp.join(rel);
            if let Some(dir) = p.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&p, content)?;
            after_each(&p)?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    // Keep a build folder that may live inside the target.
    if out.join("target").is_dir() {
        std::fs::rename(out.join("target"), tmp.join("target"))?;
    }
    if out.exists() {
        std::fs::rename(out, &old)?;
    }
    if let Err(e) = std::fs::rename(&tmp, out) {
        // Put the previous crate back.
        let _ = std::fs::rename(&old, out);
        return Err(e);
    }
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}
