//! Finding the spec folder and its revisions, and loading each revision through
//! parse and lower into a [`Spec`].

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::diag::{Diagnostic, Diagnostics};
use crate::lower::{LowerInput, lower_revision};
use crate::model::Spec;
use crate::parse::parse_schema;

/// The environment variable that names a spec folder.
pub const SPEC_DIR_ENV: &str = "MCP_SPEC_DIR";

/// The repository's own pinned copy of the spec inputs, from the workspace root
/// (`spec/README.md` says where it comes from; `cargo xtask spec-sync` refreshes it).
pub const DEFAULT_SPEC_DIR: &str = "spec/mcp";

/// Where the spec inputs are: `explicit` (`--spec-dir`), else `$MCP_SPEC_DIR`, else
/// the repository's pinned copy ([`DEFAULT_SPEC_DIR`]). The error says what was tried.
pub fn locate_spec_dir(explicit: Option<&Path>, workspace_root: &Path) -> Result<PathBuf, Diagnostics> {
    let env = std::env::var_os(SPEC_DIR_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let default = workspace_root.join(DEFAULT_SPEC_DIR);
    let (chosen, how) = match (explicit, &env) {
        (Some(p), _) => (p.to_path_buf(), "--spec-dir"),
        (None, Some(p)) => (p.clone(), SPEC_DIR_ENV),
        (None, None) => (default.clone(), "the default path"),
    };
    if chosen.join("schema").is_dir() {
        return Ok(chosen);
    }
    let tried = |p: Option<&Path>| p.map(|p| p.display().to_string()).unwrap_or_else(|| "not given".into());
    let d = Diagnostic::error(format!(
        "no MCP spec folder found: {} ({}) has no `schema/` folder",
        chosen.display(),
        how
    ))
    .note(format!("--spec-dir: {}", tried(explicit)))
    .note(format!("{SPEC_DIR_ENV}: {}", tried(env.as_deref())))
    .note(format!("default: {}", default.display()))
    .hint("point --spec-dir or MCP_SPEC_DIR at a checkout of github.com/modelcontextprotocol/modelcontextprotocol (the folder that holds `schema/<revision>/schema.ts`)");
    Err(d.into())
}

/// A revision folder found under `schema/`.
#[derive(Clone, Debug)]
pub struct RevisionSource {
    pub name: String,
    pub module: String,
    pub dated: bool,
    pub schema_path: PathBuf,
}

/// `YYYY-MM-DD` → `vYYYY_MM_DD`; any other name → a snake_case module name.
pub fn module_name(rev: &str) -> String {
    if crate::jsdoc::find_date(rev).as_deref() == Some(rev) {
        format!("v{}", rev.replace('-', "_"))
    } else {
        let m = crate::names::snake_case(rev);
        match m.as_str() {
            "rt" | "latest" | "registry" => format!("{m}_revision"),
            s if crate::names::is_keyword(s) => format!("{m}_revision"),
            _ => m,
        }
    }
}

/// The revisions in `dir/schema/`, oldest first: dated ones by date, then the
/// others by name. Folders without a schema.ts are errors.
pub fn discover_revisions(dir: &Path) -> Result<Vec<RevisionSource>, Diagnostics> {
    let schema_dir = dir.join("schema");
    let mut diags = Diagnostics::default();
    let entries = match std::fs::read_dir(&schema_dir) {
        Ok(e) => e,
        Err(e) => {
            return Err(Diagnostic::error(format!("cannot read {}: {e}", schema_dir.display())).into());
        }
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let schema_path = path.join("schema.ts");
        if !schema_path.is_file() {
            diags.push(
                Diagnostic::error(format!("revision folder `{name}` has no schema.ts"))
                    .note(format!("looked for {}", schema_path.display()))
                    .hint("every folder under schema/ is a revision and needs its schema.ts; remove the folder or add the file"),
            );
            continue;
        }
        let dated = crate::jsdoc::find_date(&name).as_deref() == Some(name.as_str());
        found.push(RevisionSource { module: module_name(&name), name, dated, schema_path });
    }
    sort_revisions(&mut found);
    if found.is_empty() && !diags.has_errors() {
        diags.push(
            Diagnostic::error(format!("no revisions in {}", schema_dir.display()))
                .hint("expected folders such as schema/2025-11-25/schema.ts"),
        );
    }
    let mut modules = std::collections::HashMap::new();
    for r in &found {
        if let Some(other) = modules.insert(r.module.clone(), r.name.clone()) {
            diags.push(Diagnostic::error(format!(
                "revisions `{other}` and `{}` would both be the module `{}`",
                r.name, r.module
            )));
        }
    }
    if diags.has_errors() { Err(diags) } else { Ok(found) }
}

/// Loads every revision of a spec folder. Errors from all revisions are reported
/// together; warnings come back with the spec.
pub fn load_spec(dir: &Path) -> Result<(Spec, Diagnostics), Diagnostics> {
    let sources = discover_revisions(dir)?;
    let mut diags = Diagnostics::default();
    let mut revisions = Vec::new();
    // Each revision is read on its own core; results keep the revisions' order.
    for (rev, rev_diags) in crate::par::map(&sources, load_revision) {
        diags.extend(rev_diags);
        if let Some(rev) = rev {
            revisions.push(rev);
        }
    }
    if diags.has_errors() {
        return Err(diags);
    }
    Ok((Spec { dir: dir.to_path_buf(), revisions }, diags))
}

/// One revision folder: its schema.ts read, parsed, lowered and checked.
fn load_revision(src: &RevisionSource) -> (Option<crate::model::Revision>, Diagnostics) {
    let mut diags = Diagnostics::default();
    let bytes = match std::fs::read(&src.schema_path) {
        Ok(b) => b,
        Err(e) => {
            diags.push(Diagnostic::error(format!("cannot read {}: {e}", src.schema_path.display())));
            return (None, diags);
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            diags.push(
                Diagnostic::error(format!("{} is not UTF-8: {e}", src.schema_path.display())).in_file(&src.schema_path),
            );
            return (None, diags);
        }
    };
    let (rev, rev_diags) = read_revision(src.name.clone(), src.module.clone(), src.dated, &src.schema_path, &text);
    diags.extend(rev_diags);
    (Some(rev), diags)
}

/// One schema text through parse, lower and the checks: the revision and every
/// diagnostic met. The checks run only on a revision that lowered cleanly.
pub fn read_revision(
    name: String,
    module: String,
    dated: bool,
    path: &Path,
    text: &str,
) -> (crate::model::Revision, Diagnostics) {
    // A byte-order mark and CRLF line ends (a Windows checkout) are not part of
    // the schema: the same schema gives the same crate, hash included.
    let text = normalized(text);
    let text = text.as_ref();
    let (decls, mut diags) = parse_schema(path, text);
    let (rev, lower_diags) = lower_revision(LowerInput {
        name,
        module,
        dated,
        schema_path: path,
        schema_sha256: sha256_hex(text),
        decls,
        core: None,
        imports: Default::default(),
        extension: None,
    });
    let lowered_ok = !lower_diags.has_errors() && !diags.has_errors();
    diags.extend(lower_diags);
    if lowered_ok {
        diags.extend(crate::check::check_revision(&rev));
    }
    (rev, diags)
}

/// The revisions in the order everything lists them: dated ones by date, then the
/// others (`draft`) by name, whatever order the folder listing gave.
fn sort_revisions(found: &mut [RevisionSource]) {
    found.sort_by(|a, b| (!a.dated, &a.name).cmp(&(!b.dated, &b.name)));
}

/// `text` without a leading byte-order mark, with CRLF (and lone CR) line ends
/// as LF.
pub fn normalized(text: &str) -> std::borrow::Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// The hex sha256 of a text, as the generated files' headers name their inputs.
pub fn sha256_hex(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every order a folder listing may give comes out the same: a unit test,
    /// since on most file systems the listing order cannot be chosen.
    #[test]
    fn revisions_sort_the_same_from_every_listing_order() {
        let names = ["2025-06-18", "draft", "2024-11-05", "next", "2026-07-28"];
        let source = |name: &str| RevisionSource {
            name: name.to_string(),
            module: module_name(name),
            dated: crate::jsdoc::find_date(name).as_deref() == Some(name),
            schema_path: PathBuf::from(name),
        };
        let expected = ["2024-11-05", "2025-06-18", "2026-07-28", "draft", "next"];
        // All 120 permutations (Heap's algorithm).
        let mut order: Vec<usize> = (0..names.len()).collect();
        let mut c = vec![0; names.len()];
        let mut seen = 0;
        let mut check = |order: &[usize]| {
            let mut found: Vec<RevisionSource> = order.iter().map(|&i| source(names[i])).collect();
            sort_revisions(&mut found);
            let got: Vec<&str> = found.iter().map(|r| r.name.as_str()).collect();
            assert_eq!(got, expected, "from the listing {:?}", order.iter().map(|&i| names[i]).collect::<Vec<_>>());
            seen += 1;
        };
        check(&order);
        let mut i = 0;
        while i < names.len() {
            if c[i] < i {
                if i % 2 == 0 {
                    order.swap(0, i)
                } else {
                    order.swap(c[i], i)
                }
                check(&order);
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        assert_eq!(seen, 120);
    }
}
