//! The pinned inputs (`spec/`): which upstream each folder copies, at which
//! commit or package version, and exactly which of its files
//! (`spec/sources.toml`); refreshing a folder from a checkout, and comparing
//! one with it. The generator and the tests read these folders; nothing else
//! of upstream is kept.
//!
//! A file list is a set of patterns over paths relative to the upstream
//! folder: `*` stands for any part of one path segment (`schema/*/schema.ts`),
//! every other character for itself. Each pattern must take at least one file,
//! so a checkout of the wrong repository is refused rather than half-copied.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::diag::{Diagnostic, Diagnostics};

/// The pinned folder, from the workspace root.
pub const DEFAULT_PINNED_DIR: &str = "spec";

/// The manifest's name inside the pinned folder.
pub const SOURCES_FILE: &str = "sources.toml";

/// The file each copied folder holds beside upstream's, naming where it comes from.
/// No pattern may take a file of this name at a folder's top.
pub const FOLDER_README: &str = "README.md";

/// One upstream copied into a folder of `spec/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The name `spec-sync --source` takes: `mcp`, `tasks`, `ext-apps`.
    pub name: String,
    /// The folder, relative to the pinned folder: `mcp`, `ext/tasks`.
    pub folder: String,
    /// One sentence: what it is and what of it the project reads.
    pub about: String,
    /// Upstream's licence, as its LICENSE file (copied with the rest) says it.
    pub license: String,
    pub origin: Origin,
    /// What is taken: patterns over upstream's paths (see the module's docs).
    pub files: Vec<String>,
}

/// Where a source comes from, and the version pinned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A git repository at a commit (with its committer date, `YYYY-MM-DD`).
    Git { repository: String, commit: String, date: String },
    /// An npm package at a version, as its tarball unpacks (`package/`).
    Npm { package: String, version: String },
}

impl Origin {
    /// The version, as the manifest and a report say it.
    pub fn pin(&self) -> String {
        match self {
            Origin::Git { commit, date, .. } => format!("commit {commit} ({date})"),
            Origin::Npm { package, version } => format!("{package}@{version}"),
        }
    }
}

/// What a source folder's upstream is at, as read from the folder itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The pin read (a git checkout's HEAD, a package's `package.json`).
    Pinned(Origin),
    /// The folder does not say (not the top of a git checkout); `why` says so.
    Unknown { why: String },
}

/// How a pinned folder differs from what its source's upstream would give it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Differences {
    /// Files upstream has (by the patterns) that the copy lacks.
    pub added: Vec<String>,
    /// Files the copy has that upstream (by the patterns) does not.
    pub removed: Vec<String>,
    /// Files in both, with other bytes.
    pub changed: Vec<String>,
    /// The pin recorded and the one found, when they differ.
    pub pin: Option<(String, String)>,
    /// The folder's README is not the one the source would write.
    pub readme_stale: bool,
}

impl Differences {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.pin.is_none()
            && !self.readme_stale
    }

    /// One line per difference, sorted by kind then path.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if let Some((recorded, found)) = &self.pin {
            let _ = writeln!(out, "pin: recorded {recorded}, upstream at {found}");
        }
        for (kind, paths) in [("added", &self.added), ("removed", &self.removed), ("changed", &self.changed)] {
            for p in paths {
                let _ = writeln!(out, "{kind}: {p}");
            }
        }
        if self.readme_stale {
            let _ = writeln!(out, "changed: {FOLDER_README} (the folder's own, written from {SOURCES_FILE})");
        }
        out
    }
}

/// The sources a pinned folder's manifest lists, in its order.
pub fn read_sources(pinned: &Path) -> Result<Vec<Source>, Diagnostics> {
    let file = pinned.join(SOURCES_FILE);
    let text = std::fs::read_to_string(&file)
        .map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", file.display())).in_file(&file))?;
    parse_sources(&text, &file)
}

fn parse_sources(text: &str, file: &Path) -> Result<Vec<Source>, Diagnostics> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        Diagnostic::error(format!("{} is not TOML: {e}", file.display())).in_file(file)
    })?;
    let bad = |key: String, why: &str| Diagnostic::error(format!("{}: `{key}` {why}", file.display())).in_file(file);
    let mut diags = Diagnostics::default();
    for key in table.keys().filter(|k| *k != "source") {
        diags.push(bad(key.clone(), "is not a key of a sources manifest (it has `[[source]]` tables)"));
    }
    let Some(toml::Value::Array(entries)) = table.get("source") else {
        diags.push(bad("source".into(), "is missing or not an array of tables (`[[source]]`)"));
        return Err(diags);
    };
    const KEYS: &[&str] =
        &["name", "folder", "about", "license", "repository", "commit", "date", "package", "version", "files"];
    let mut out: Vec<Source> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("source[{i}]");
        let Some(entry) = entry.as_table() else {
            diags.push(bad(at, "is not a table"));
            continue;
        };
        for key in entry.keys().filter(|k| !KEYS.contains(&k.as_str())) {
            diags.push(bad(format!("{at}.{key}"), &format!("is not a key of a source ({})", KEYS.join(", "))));
        }
        let mut text_of = |key: &str| -> Option<String> {
            match entry.get(key) {
                Some(toml::Value::String(s)) if !s.is_empty() => Some(s.clone()),
                Some(_) => {
                    diags.push(bad(format!("{at}.{key}"), "is not a non-empty string"));
                    None
                }
                None => None,
            }
        };
        let (name, folder, about, license) = (text_of("name"), text_of("folder"), text_of("about"), text_of("license"));
        let git = (text_of("repository"), text_of("commit"), text_of("date"));
        let npm = (text_of("package"), text_of("version"));
        let origin = match (git, npm) {
            ((Some(repository), Some(commit), Some(date)), (None, None)) => {
                Some(Origin::Git { repository, commit, date })
            }
            ((None, None, None), (Some(package), Some(version))) => Some(Origin::Npm { package, version }),
            _ => {
                diags.push(bad(
                    at.clone(),
                    "needs either `repository`, `commit` and `date`, or `package` and `version`",
                ));
                None
            }
        };
        let files: Vec<String> = match entry.get("files") {
            Some(toml::Value::Array(a)) if !a.is_empty() && a.iter().all(|v| v.is_str()) => {
                a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect()
            }
            _ => {
                diags.push(bad(format!("{at}.files"), "is not a non-empty array of patterns"));
                Vec::new()
            }
        };
        for pattern in &files {
            if let Err(why) = check_pattern(pattern) {
                diags.push(bad(format!("{at}.files"), &format!("has `{pattern}`: {why}")));
            }
        }
        let missing: Vec<&str> = [("name", &name), ("folder", &folder), ("about", &about), ("license", &license)]
            .into_iter()
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| k)
            .collect();
        if !missing.is_empty() {
            diags.push(bad(at.clone(), &format!("lacks {}", missing.join(", "))));
        }
        if let (Some(name), Some(folder), Some(about), Some(license), Some(origin)) =
            (name, folder, about, license, origin)
        {
            if out.iter().any(|s| s.name == name || s.folder == folder) {
                diags.push(bad(at, &format!("repeats the name `{name}` or the folder `{folder}` of another source")));
            } else if Path::new(&folder).is_absolute()
                || folder.split('/').any(|p| p == ".." || p == "." || p.is_empty())
            {
                diags.push(bad(format!("{at}.folder"), "is not a plain relative path inside the pinned folder"));
            } else {
                out.push(Source { name, folder, about, license, origin, files });
            }
        }
    }
    if diags.has_errors() { Err(diags) } else { Ok(out) }
}

fn check_pattern(pattern: &str) -> Result<(), &'static str> {
    if pattern.is_empty() || pattern.starts_with('/') || pattern.ends_with('/') {
        return Err("a pattern is a relative path to files");
    }
    if pattern.split('/').any(|s| s.is_empty() || s == "." || s == ".." || s == "**") {
        return Err("its segments are names or `*` patterns (no `.`, `..`, `**` or empty segment)");
    }
    if pattern == FOLDER_README {
        return Err("the folder's README.md is the project's own, written from the manifest");
    }
    Ok(())
}

/// Whether `path` (relative, `/`-separated) is one `pattern` takes.
pub fn matches(pattern: &str, path: &str) -> bool {
    let (mut ps, mut xs) = (pattern.split('/'), path.split('/'));
    loop {
        match (ps.next(), xs.next()) {
            (None, None) => return true,
            (Some(p), Some(x)) if segment_matches(p.as_bytes(), x.as_bytes()) => {}
            _ => return false,
        }
    }
}

/// `*` for any run of characters (none included), the rest literally.
fn segment_matches(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|skip| segment_matches(rest, &name[skip..])),
        Some((c, rest)) => name.first() == Some(c) && segment_matches(rest, &name[1..]),
    }
}

/// Every file under `dir` (relative, `/`-separated, sorted), leaving out the
/// folders a checkout or a package install adds (`.git`, `node_modules`).
fn files_under(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for entry in std::fs::read_dir(dir.join(&rel))? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = rel.join(&name);
            if entry.file_type()?.is_dir() {
                if name != ".git" && name != "node_modules" {
                    stack.push(path);
                }
            } else {
                out.push(path.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The files of `upstream` the source takes, with their bytes. Each pattern
/// must take one at least.
pub fn take(source: &Source, upstream: &Path) -> Result<BTreeMap<String, Vec<u8>>, Diagnostics> {
    let all =
        files_under(upstream).map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", upstream.display())))?;
    let mut diags = Diagnostics::default();
    let mut out = BTreeMap::new();
    for pattern in &source.files {
        let taken: Vec<&String> = all.iter().filter(|p| matches(pattern, p)).collect();
        if taken.is_empty() {
            diags.push(
                Diagnostic::error(format!("{} has no file `{pattern}` (source `{}`)", upstream.display(), source.name))
                    .hint(format!("--from names the top of a checkout of {}", source.origin_name())),
            );
        }
        for path in taken {
            if out.contains_key(path) {
                continue;
            }
            match std::fs::read(upstream.join(path)) {
                Ok(bytes) => {
                    out.insert(path.clone(), bytes);
                }
                Err(e) => diags.push(Diagnostic::error(format!("cannot read {}/{path}: {e}", upstream.display()))),
            }
        }
    }
    if diags.has_errors() { Err(diags) } else { Ok(out) }
}

impl Source {
    fn origin_name(&self) -> String {
        match &self.origin {
            Origin::Git { repository, .. } => repository.clone(),
            Origin::Npm { package, .. } => format!("the npm package {package} (its tarball's `package/`)"),
        }
    }

    /// The README this source's folder holds: where its files come from.
    pub fn readme(&self) -> String {
        let mut out = format!("# {}\n\n", self.about);
        let from = match &self.origin {
            Origin::Git { repository, commit, date } => {
                format!("A copy of part of the repository {repository} at commit `{commit}` ({date}),")
            }
            Origin::Npm { package, version } => {
                format!("A copy of part of the npm package `{package}` at version {version} (as its tarball unpacks),")
            }
        };
        let _ = writeln!(out, "{from} laid out as upstream.");
        let _ = writeln!(out, "Exactly these of its files are kept, byte for byte, and nothing else:\n");
        for pattern in &self.files {
            let _ = writeln!(out, "- `{pattern}`");
        }
        let _ = writeln!(
            out,
            "\nLicence: {} (`LICENSE`, upstream's). This file is written by `cargo xtask spec-sync` from\n\
             `spec/{SOURCES_FILE}` (source `{}`); refresh the folder with\n\
             `cargo xtask spec-sync --source {} --from <a checkout>`, not by hand.",
            self.license, self.name, self.name
        );
        out
    }

    /// What `upstream` is at: a git checkout's HEAD when `upstream` is the top of
    /// one (the repository must be this source's), a package's version.
    pub fn found_at(&self, upstream: &Path) -> Found {
        match &self.origin {
            Origin::Git { .. } => git_head(upstream),
            Origin::Npm { package, .. } => npm_version(upstream, package),
        }
    }
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn git_head(dir: &Path) -> Found {
    let top = git(dir, &["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b);
    match top {
        Some(top) if same(&top, dir) => {
            match (git(dir, &["rev-parse", "HEAD"]), git(dir, &["log", "-1", "--format=%cs"])) {
                (Some(commit), Some(date)) => {
                    let repository = git(dir, &["remote", "get-url", "origin"]).unwrap_or_default();
                    Found::Pinned(Origin::Git { repository, commit, date })
                }
                _ => Found::Unknown { why: format!("{} is a git checkout without a commit", dir.display()) },
            }
        }
        Some(top) => Found::Unknown {
            why: format!("{} is inside the git checkout {}, not the top of one", dir.display(), top.display()),
        },
        None => Found::Unknown { why: format!("{} is not a git checkout", dir.display()) },
    }
}

fn npm_version(dir: &Path, package: &str) -> Found {
    let file = dir.join("package.json");
    let Ok(text) = std::fs::read_to_string(&file) else {
        return Found::Unknown { why: format!("{} has no package.json", dir.display()) };
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Found::Unknown { why: format!("{} is not JSON", file.display()) };
    };
    match (json["name"].as_str(), json["version"].as_str()) {
        (Some(name), Some(version)) if name == package => {
            Found::Pinned(Origin::Npm { package: name.into(), version: version.into() })
        }
        (name, _) => Found::Unknown {
            why: format!("{} names the package {:?}, not {package}", file.display(), name.unwrap_or("(none)")),
        },
    }
}

/// Where a sync or a check stands: the files upstream gives, and what the pin is.
pub struct Upstream {
    pub files: BTreeMap<String, Vec<u8>>,
    pub found: Found,
}

/// Reads `upstream` as `source` takes it; `commit` stands for a git pin the
/// folder cannot tell (a copy that is not a checkout).
pub fn read_upstream(source: &Source, upstream: &Path, commit: Option<(&str, &str)>) -> Result<Upstream, Diagnostics> {
    let files = take(source, upstream)?;
    let found = match (source.found_at(upstream), commit, &source.origin) {
        (Found::Unknown { .. }, Some((commit, date)), Origin::Git { repository, .. }) => {
            Found::Pinned(Origin::Git { repository: repository.clone(), commit: commit.into(), date: date.into() })
        }
        (found, _, _) => found,
    };
    Ok(Upstream { files, found })
}

/// How `folder` (a source's pinned copy) differs from `upstream`.
pub fn compare(source: &Source, folder: &Path, upstream: &Upstream) -> Result<Differences, Diagnostics> {
    let mut d = Differences::default();
    let mine: Vec<String> = if folder.is_dir() {
        files_under(folder).map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", folder.display())))?
    } else {
        Vec::new()
    };
    for path in mine.iter().filter(|p| *p != FOLDER_README) {
        match upstream.files.get(path) {
            None => d.removed.push(path.clone()),
            Some(bytes) if std::fs::read(folder.join(path)).ok().as_ref() != Some(bytes) => {
                d.changed.push(path.clone())
            }
            Some(_) => {}
        }
    }
    d.added = upstream.files.keys().filter(|p| !mine.contains(p)).cloned().collect();
    if let Found::Pinned(found) = &upstream.found
        && !same_pin(&source.origin, found)
    {
        d.pin = Some((source.origin.pin(), found.pin()));
    }
    d.readme_stale = std::fs::read_to_string(folder.join(FOLDER_README)).ok() != Some(source.readme());
    Ok(d)
}

/// The same version of the same upstream; a git checkout's remote may be named
/// otherwise (a mirror, a fork), so only the commit counts.
fn same_pin(recorded: &Origin, found: &Origin) -> bool {
    match (recorded, found) {
        (Origin::Git { commit: a, .. }, Origin::Git { commit: b, .. }) => a == b,
        (a, b) => a == b,
    }
}

/// Writes `upstream`'s files as the whole of the source's folder under
/// `pinned` (swapped in complete, as the generated crate is), the folder's
/// README, and the pin into the manifest. `sources` is the whole manifest.
pub fn sync(pinned: &Path, sources: &[Source], name: &str, upstream: Upstream) -> Result<Source, Diagnostics> {
    let mut sources = sources.to_vec();
    let index = sources
        .iter()
        .position(|s| s.name == name)
        .ok_or_else(|| Diagnostic::error(format!("no source `{name}` in {}", pinned.join(SOURCES_FILE).display())))?;
    let source = &mut sources[index];
    let found = match upstream.found {
        Found::Pinned(found) => found,
        Found::Unknown { why } => {
            return Err(Diagnostic::error(format!("cannot tell which version of `{name}` to record: {why}"))
                .hint("sync from the top of a git checkout, or give --commit SHA --date YYYY-MM-DD")
                .into());
        }
    };
    // The repository recorded stays: a checkout's remote may be a mirror's.
    source.origin = match (&source.origin, found) {
        (Origin::Git { repository, .. }, Origin::Git { commit, date, .. }) => {
            Origin::Git { repository: repository.clone(), commit, date }
        }
        (_, found) => found,
    };
    let mut files = crate::Files::new();
    for (path, bytes) in upstream.files {
        let text = String::from_utf8(bytes).map_err(|_| {
            Diagnostic::error(format!("{path} of `{name}` is not UTF-8 text; the pinned inputs are text"))
        })?;
        files.insert(PathBuf::from(path), text);
    }
    files.insert(PathBuf::from(FOLDER_README), source.readme());
    let source = source.clone();
    let folder = pinned.join(&source.folder);
    crate::output::write_crate(&folder, &files)
        .map_err(|e| Diagnostic::error(format!("cannot write {}: {e}; it is unchanged", folder.display())))?;
    let manifest = pinned.join(SOURCES_FILE);
    std::fs::write(&manifest, render_sources(&sources))
        .map_err(|e| Diagnostic::error(format!("cannot write {}: {e}", manifest.display())))?;
    Ok(source)
}

/// The manifest as `spec-sync` writes it back (a pin changed): the same
/// sources, each key in a fixed order.
pub fn render_sources(sources: &[Source]) -> String {
    // A JSON string is a TOML basic string: the same escapes, `\uXXXX` for the rest.
    let quote = |s: &str| serde_json::Value::from(s).to_string();
    let mut out = String::from(
        "# The pinned spec inputs: for each folder of spec/, the upstream it copies, the version\n\
         # pinned, and exactly the files taken (`*` is any part of one path segment).\n\
         # `cargo xtask spec-sync --source NAME --from DIR` refreshes a folder and its pin here;\n\
         # add `--check` to compare without writing. Patterns are edited by hand; pins by spec-sync.\n",
    );
    for s in sources {
        let _ = write!(
            out,
            "\n[[source]]\nname = {}\nfolder = {}\nabout = {}\nlicense = {}\n",
            quote(&s.name),
            quote(&s.folder),
            quote(&s.about),
            quote(&s.license)
        );
        match &s.origin {
            Origin::Git { repository, commit, date } => {
                let _ = write!(
                    out,
                    "repository = {}\ncommit = {}\ndate = {}\n",
                    quote(repository),
                    quote(commit),
                    quote(date)
                );
            }
            Origin::Npm { package, version } => {
                let _ = write!(out, "package = {}\nversion = {}\n", quote(package), quote(version));
            }
        }
        out.push_str("files = [\n");
        for f in &s.files {
            let _ = writeln!(out, "  {},", quote(f));
        }
        out.push_str("]\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_star_stands_for_part_of_one_segment_only() {
        assert!(matches("schema/*/schema.ts", "schema/2025-11-25/schema.ts"));
        assert!(matches("schema/*/examples/*/*.json", "schema/draft/examples/Tool/tool-1.json"));
        assert!(matches("LICENSE", "LICENSE"));
        assert!(matches("a*b", "ab") && matches("a*b", "a-x-b"));
        // A star never crosses a `/`, and the whole path must be taken.
        assert!(!matches("schema/*/schema.ts", "schema/a/b/schema.ts"));
        assert!(!matches("schema/*/schema.ts", "schema/draft/schema.tsx"));
        assert!(!matches("schema/*/schema.ts", "schema/draft/schema.ts/x"));
        assert!(!matches("schema/*/examples/*/*.json", "schema/draft/examples/Tool/tool-1.json5"));
        assert!(!matches("LICENSE", "docs/LICENSE"));
    }

    #[test]
    fn the_manifest_written_back_reads_as_it_was() {
        let file = Path::new("spec/sources.toml");
        let sources = vec![
            Source {
                name: "mcp".into(),
                folder: "mcp".into(),
                about: "The \"spec\"".into(),
                license: "Apache-2.0".into(),
                origin: Origin::Git {
                    repository: "https://x/y".into(),
                    commit: "abc".into(),
                    date: "2026-01-02".into(),
                },
                files: vec!["LICENSE".into(), "schema/*/schema.ts".into()],
            },
            Source {
                name: "apps".into(),
                folder: "packages/apps".into(),
                about: "Apps".into(),
                license: "MIT".into(),
                origin: Origin::Npm { package: "@x/apps".into(), version: "2.0.4".into() },
                files: vec!["dist/src/spec.types.d.ts".into()],
            },
        ];
        assert_eq!(parse_sources(&render_sources(&sources), file).unwrap(), sources);
    }

    #[test]
    fn a_bad_manifest_names_each_key_at_fault() {
        let text = r#"
[[source]]
name = "a"
folder = "../out"
about = "A"
license = "MIT"
repository = "r"
commit = "c"
package = "p"
files = ["schema/**/x", "README.md"]
colour = "red"
"#;
        let err = parse_sources(text, Path::new("s.toml")).unwrap_err().render();
        for needle in [
            "`source[0].colour` is not a key of a source",
            "`source[0]` needs either `repository`, `commit` and `date`, or `package` and `version`",
            "`source[0].files` has `schema/**/x`",
            "`source[0].files` has `README.md`",
        ] {
            assert!(err.contains(needle), "{needle:?} not in:\n{err}");
        }
    }
}
