//! Extensions that are not laid out like the core, described by a manifest
//! (`codegen/extensions.toml` by default): an extension shipped as an npm
//! package's declaration file, importing its core types from a package path
//! rather than from a vendored `spec.types.ts`.
//!
//! ```toml
//! [[extension]]
//! name = "apps"                               # the Rust module: ext::apps
//! id = "io.modelcontextprotocol/ui"           # its identifier
//! capability = "McpUiClientCapabilities"      # the item declaring its capability (optional)
//! core-packages = ["@modelcontextprotocol/client"]   # import paths that mean the core schema
//!
//! [[extension.revision]]
//! name = "2026-01-26"                         # the module: ext::apps::v2026_01_26
//! file = "../spec/packages/ext-apps/dist/src/spec.types.d.ts"   # from the manifest's folder
//! core = "2025-11-25"                         # the core revision its imports name
//! ```

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics};

/// The environment variable that names a manifest.
pub const MANIFEST_ENV: &str = "MCP_EXT_MANIFEST";

/// The manifest found when none is named, from the workspace root.
pub const DEFAULT_MANIFEST: &str = "codegen/extensions.toml";

/// A manifest file and how it was found (named: its errors are errors; found
/// by default: an extension of it that does not generate is skipped with a
/// warning, as for an extensions folder found by default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestFile {
    pub path: PathBuf,
    pub named: bool,
}

/// One extension of a manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestExtension {
    pub name: String,
    pub id: Option<String>,
    pub capability: Option<String>,
    /// Where the capability's name is written in the manifest (for an error about it).
    pub capability_span: Option<crate::diag::Span>,
    /// Its place in the manifest: `extension[0]`.
    pub key: String,
    /// The import paths that mean the core schema (`@modelcontextprotocol/client`).
    pub core_packages: Vec<String>,
    pub revisions: Vec<ManifestRevision>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestRevision {
    pub name: String,
    /// The declaration file, resolved from the manifest's folder.
    pub file: PathBuf,
    /// The core revision its imports name.
    pub core: String,
}

/// Where the manifest is: `explicit` (`--ext-manifest`), else
/// `$MCP_EXT_MANIFEST`, else [`DEFAULT_MANIFEST`] when it exists. A named one
/// that is not a file is an error.
pub fn locate_manifest(explicit: Option<&Path>, workspace_root: &Path) -> Result<Option<ManifestFile>, Diagnostics> {
    let env = std::env::var_os(MANIFEST_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let (chosen, how) = match (explicit, env) {
        (Some(p), _) => (p.to_path_buf(), "--ext-manifest"),
        (None, Some(p)) => (p, MANIFEST_ENV),
        (None, None) => {
            let default = workspace_root.join(DEFAULT_MANIFEST);
            return Ok(default.is_file().then_some(ManifestFile { path: default, named: false }));
        }
    };
    if chosen.is_file() {
        return Ok(Some(ManifestFile { path: chosen, named: true }));
    }
    Err(Diagnostic::error(format!("no extensions manifest: {} ({how}) is not a file", chosen.display())).into())
}

/// The extensions `file` describes. Every problem is reported, each naming
/// the manifest and the key at fault.
pub fn read_manifest(file: &Path) -> Result<Vec<ManifestExtension>, Diagnostics> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", file.display())).in_file(file))?;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        Diagnostic::error(format!("{} is not TOML: {e}", file.display())).in_file(file)
    })?;
    let base = file.parent().unwrap_or(Path::new("."));
    let mut diags = Diagnostics::default();
    let mut out = Vec::new();
    let bad = |key: String, why: &str| Diagnostic::error(format!("{}: `{key}` {why}", file.display())).in_file(file);
    for key in table.keys().filter(|k| *k != "extension") {
        diags.push(bad(key.clone(), "is not a key of an extensions manifest (it has `[[extension]]` tables)"));
    }
    let extensions = match table.get("extension") {
        None => &Vec::new(),
        Some(toml::Value::Array(a)) => a,
        Some(_) => return Err(bad("extension".into(), "is not an array of tables (`[[extension]]`)").into()),
    };
    for (i, ext) in extensions.iter().enumerate() {
        let at = format!("extension[{i}]");
        let Some(ext) = ext.as_table() else {
            diags.push(bad(at, "is not a table"));
            continue;
        };
        let text_of = |key: &str, diags: &mut Diagnostics| -> Option<String> {
            match ext.get(key) {
                None => None,
                Some(toml::Value::String(s)) => Some(s.clone()),
                Some(_) => {
                    diags.push(bad(format!("{at}.{key}"), "is not a string"));
                    None
                }
            }
        };
        for key in ext.keys() {
            if !["name", "id", "capability", "core-packages", "revision"].contains(&key.as_str()) {
                diags.push(bad(
                    format!("{at}.{key}"),
                    "is not a key of an extension (name, id, capability, core-packages, revision)",
                ));
            }
        }
        let Some(name) = text_of("name", &mut diags) else {
            diags.push(bad(format!("{at}.name"), "is missing: the extension's name (its Rust module under `ext::`)"));
            continue;
        };
        let id = text_of("id", &mut diags);
        let capability = text_of("capability", &mut diags);
        let core_packages = match ext.get("core-packages") {
            None => Vec::new(),
            Some(toml::Value::Array(a)) => a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
            Some(_) => {
                diags.push(bad(format!("{at}.core-packages"), "is not an array of strings"));
                Vec::new()
            }
        };
        let mut revisions = Vec::new();
        let listed = match ext.get("revision") {
            Some(toml::Value::Array(a)) => a.as_slice(),
            _ => {
                diags.push(bad(format!("{at}.revision"), "is missing: one `[[extension.revision]]` per revision"));
                &[]
            }
        };
        for (j, rev) in listed.iter().enumerate() {
            let at = format!("{at}.revision[{j}]");
            let field = |key: &str, diags: &mut Diagnostics| match rev.get(key) {
                Some(toml::Value::String(s)) => Some(s.clone()),
                _ => {
                    diags.push(bad(format!("{at}.{key}"), "is missing or not a string"));
                    None
                }
            };
            let (Some(rev_name), Some(rev_file), Some(core)) =
                (field("name", &mut diags), field("file", &mut diags), field("core", &mut diags))
            else {
                continue;
            };
            revisions.push(ManifestRevision { name: rev_name, file: base.join(rev_file), core });
        }
        let capability_span = capability.as_ref().and_then(|_| value_span(&text, i, "capability"));
        out.push(ManifestExtension { name, id, capability, capability_span, key: at, core_packages, revisions });
    }
    if diags.has_errors() { Err(diags) } else { Ok(out) }
}

/// Where the value of `extension[index].key` is written in the manifest's text.
fn value_span(text: &str, index: usize, key: &str) -> Option<crate::diag::Span> {
    use toml::de::{DeTable, DeValue};
    let root = DeTable::parse(text).ok()?;
    let DeValue::Array(extensions) = root.get_ref().get("extension")?.get_ref() else { return None };
    let DeValue::Table(extension) = extensions.get(index)?.get_ref() else { return None };
    let at = extension.get(key)?.span();
    Some(crate::diag::Span::new(u32::try_from(at.start).ok()?, u32::try_from(at.end).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(text: &str) -> Result<Vec<ManifestExtension>, Diagnostics> {
        let dir = std::env::temp_dir().join(format!("mcp-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("m{}.toml", text.len()));
        std::fs::write(&file, text).unwrap();
        read_manifest(&file)
    }

    #[test]
    fn a_manifest_gives_each_extension_its_files_from_its_own_folder() {
        let exts = manifest(
            r#"
[[extension]]
name = "apps"
id = "io.modelcontextprotocol/ui"
core-packages = ["@modelcontextprotocol/client"]
[[extension.revision]]
name = "2026-01-26"
file = "pkg/spec.types.d.ts"
core = "2025-11-25"
"#,
        )
        .unwrap();
        assert_eq!(exts.len(), 1);
        assert_eq!(exts[0].core_packages, ["@modelcontextprotocol/client"]);
        assert!(exts[0].revisions[0].file.ends_with("pkg/spec.types.d.ts"));
        assert_eq!(exts[0].revisions[0].core, "2025-11-25");
    }

    #[test]
    fn each_mistake_names_the_key() {
        let e = manifest("[[extension]]\nnam = \"apps\"\n").unwrap_err().render_brief();
        assert!(e.contains("`extension[0].nam` is not a key"), "{e}");
        assert!(e.contains("`extension[0].name` is missing"), "{e}");
        let e = manifest("[[extension]]\nname = \"a\"\n[[extension.revision]]\nname = \"x\"\nfile = 3\n")
            .unwrap_err()
            .render_brief();
        assert!(e.contains("`extension[0].revision[0].file` is missing or not a string"), "{e}");
        assert!(e.contains("`extension[0].revision[0].core`"), "{e}");
        let e = manifest("extension = [").unwrap_err().render_brief();
        assert!(e.contains("is not TOML"), "{e}");
    }
}
