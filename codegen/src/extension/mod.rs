//! Extensions: an official MCP extension's own schema, laid out as the core's
//! (`<ext-dir>/<name>/schema/<revision>/schema.ts`), whose `import`s name core
//! types from `./spec.types.js`, the extension's vendored copy of a core
//! revision's schema. Each extension revision is lowered on top of the core
//! revision that copy equals: its imported names are the core's items (never
//! copies), and its own items are a revision of their own, [`Revision::core`]
//! set, which emit writes as `ext::<name>::<revision>`.
//!
//! What an extension adds to the core's unions is typed, without changing the
//! core's types: a result of the extension's with a fixed `resultType` value
//! (Tasks' `CreateTaskResult`, `"task"`) joins every core union read by
//! `resultType` first (`CallToolResultResponseResult`, ...), as a union of the
//! same name in the extension's module, and a core struct holding such a union
//! (`CallToolResultResponse`) is declared there again to hold it. The schema
//! does not say which requests a server may answer so (Tasks' spec text says
//! `tools/call`); every union that reads `resultType` takes it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::lower::{LowerInput, lower_revision};
use crate::model::{Revision, Spec};
use crate::parse::parse_module;
use crate::syntax::{Decl, ImportedName};

pub mod manifest;

pub use manifest::{ManifestFile, locate_manifest};

/// The environment variable that names an extensions folder.
pub const EXT_DIR_ENV: &str = "MCP_EXT_DIR";

/// The files an extension's schema may import core types from: the vendored core schema.
pub const CORE_IMPORTS: &[&str] = &["./spec.types.js", "./spec.types", "./spec.types.ts"];

/// One extension: its folder's name and its revisions.
#[derive(Clone, Debug)]
pub struct Extension {
    /// The folder name: `tasks`.
    pub name: String,
    /// The Rust module: `tasks`.
    pub module: String,
    pub revisions: Vec<ExtensionRevision>,
}

/// One revision of an extension, lowered on its core revision.
#[derive(Clone, Debug)]
pub struct ExtensionRevision {
    /// The extension's own items; `rev.core` is the core revision it extends.
    pub rev: Revision,
    /// The core revision's name (`draft`) and Rust module (`draft`).
    pub core_name: String,
    pub core_module: String,
    /// `io.modelcontextprotocol/tasks`, from the schema's header (`Extension Identifier: …`).
    pub id: Option<String>,
    /// The item that declares the extension's capability (`TasksExtensionCapability`).
    pub capability: Option<String>,
    /// The cargo feature: `ext-tasks-draft`.
    pub feature: String,
    /// Where it comes from, as the generated file's header says it (no
    /// machine's paths): `tasks/schema/draft/schema.ts`, or a manifest's file.
    pub source: String,
}

/// An extensions folder and how it was found. One the user named (`--ext-dir`,
/// `$MCP_EXT_DIR`) is part of the job: its errors stop generation. One found
/// by default is not: an extension of it that fails (most often one written
/// against a core revision the spec inputs in use do not have) is skipped with
/// a warning saying why, and the core generates as before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtDir {
    pub path: PathBuf,
    pub named: bool,
}

impl ExtDir {
    /// A folder the user named: its errors are errors.
    pub fn named(path: impl Into<PathBuf>) -> ExtDir {
        ExtDir { path: path.into(), named: true }
    }
}

/// The repository's own pinned copy of the extensions, from the workspace root.
pub const DEFAULT_EXT_DIR: &str = "spec/ext";

/// Where the extensions are: `explicit` (`--ext-dir`), else `$MCP_EXT_DIR`, else
/// the repository's pinned copy ([`DEFAULT_EXT_DIR`]). A named folder that is not
/// there is an error saying what was tried; a default one that is not there
/// is `None` (no extensions).
pub fn locate_ext_dir(explicit: Option<&Path>, workspace_root: &Path) -> Result<Option<ExtDir>, Diagnostics> {
    let env = std::env::var_os(EXT_DIR_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let default = workspace_root.join(DEFAULT_EXT_DIR);
    let (chosen, how) = match (explicit, &env) {
        (Some(p), _) => (p.to_path_buf(), "--ext-dir"),
        (None, Some(p)) => (p.clone(), EXT_DIR_ENV),
        (None, None) => {
            return Ok(default.is_dir().then_some(ExtDir { path: default, named: false }));
        }
    };
    if chosen.is_dir() {
        return Ok(Some(ExtDir::named(chosen)));
    }
    let tried = |p: Option<&Path>| p.map(|p| p.display().to_string()).unwrap_or_else(|| "not given".into());
    Err(Diagnostic::error(format!("no MCP extensions folder found: {} ({how}) is not a folder", chosen.display()))
        .note(format!("--ext-dir: {}", tried(explicit)))
        .note(format!("{EXT_DIR_ENV}: {}", tried(env.as_deref())))
        .note(format!("default: {}", default.display()))
        .hint("point --ext-dir or MCP_EXT_DIR at a folder of extensions, each laid out as `<name>/schema/<revision>/schema.ts`")
        .into())
}

/// Every extension under `dir` (a folder per extension, each with `schema/`),
/// each revision lowered on the core revision of `spec` its imports fit (see
/// `core_revision`). Problems of every extension are reported together; in a
/// folder found by default, an extension revision with problems is skipped and
/// its problems come back as warnings (see [`ExtDir`]).
pub fn load_extensions(dir: &ExtDir, spec: &Spec) -> Result<(Vec<Extension>, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut folders: Vec<PathBuf> = match std::fs::read_dir(&dir.path) {
        Ok(entries) => entries.flatten().map(|e| e.path()).filter(|p| p.join("schema").is_dir()).collect(),
        Err(e) => return Err(Diagnostic::error(format!("cannot read {}: {e}", dir.path.display())).into()),
    };
    folders.sort();
    let mut out = Vec::new();
    for folder in folders {
        let name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let module = crate::spec::module_name(&name);
        let mut found = Diagnostics::default();
        let mut ext = Extension { name: name.clone(), module: module.clone(), revisions: Vec::new() };
        match crate::spec::discover_revisions(&folder) {
            Ok(revisions) => {
                for source in revisions {
                    match load_revision(&name, &source, spec, CoreFrom::Vendored) {
                        Ok((rev, d)) => {
                            found.extend(d);
                            ext.revisions.push(rev);
                        }
                        Err(d) if !dir.named => diags.extend(skipped(&name, Some(&source.name), &dir.path, d)),
                        Err(d) => found.extend(d),
                    }
                }
            }
            Err(d) if !dir.named => diags.extend(skipped(&name, None, &dir.path, d)),
            Err(d) => found.extend(d),
        }
        diags.extend(found);
        if !ext.revisions.is_empty() {
            out.push(ext);
        }
    }
    if diags.has_errors() { Err(diags) } else { Ok((out, diags)) }
}

/// Every extension a manifest describes (see [`manifest`]), each revision
/// lowered on the core revision the manifest names, its package imports taken
/// as that revision's types. In a manifest found by default, an extension
/// revision with problems (its file absent, say) is skipped with a warning.
pub fn load_manifest_extensions(
    file: &ManifestFile,
    spec: &Spec,
) -> Result<(Vec<Extension>, Diagnostics), Diagnostics> {
    let described = match manifest::read_manifest(&file.path) {
        Ok(d) => d,
        Err(d) if !file.named => return Ok((Vec::new(), skipped("(all)", None, &file.path, d))),
        Err(d) => return Err(d),
    };
    let mut diags = Diagnostics::default();
    let mut out = Vec::new();
    for described in described {
        let module = crate::spec::module_name(&described.name);
        let mut ext = Extension { name: described.name.clone(), module, revisions: Vec::new() };
        for rev in &described.revisions {
            let source = crate::spec::RevisionSource {
                name: rev.name.clone(),
                module: crate::spec::module_name(&rev.name),
                dated: crate::jsdoc::find_date(&rev.name).as_deref() == Some(rev.name.as_str()),
                schema_path: rev.file.clone(),
            };
            let core =
                CoreFrom::Packages { revision: &rev.core, packages: &described.core_packages, manifest: &file.path };
            let loaded = if rev.file.is_file() {
                load_revision(&described.name, &source, spec, core)
            } else {
                Err(Diagnostic::error(format!(
                    "revision {} of extension `{}`: {} is not a file",
                    rev.name,
                    described.name,
                    rev.file.display()
                ))
                .in_file(&file.path)
                .into())
            };
            match loaded {
                Ok((mut loaded, d)) => {
                    diags.extend(d);
                    let file_name =
                        |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    loaded.source = format!("`{}`, named in `{}`", file_name(&rev.file), file_name(&file.path));
                    loaded.id = described.id.clone().or(loaded.id);
                    match undeclared_capability(&described, &loaded, &file.path) {
                        None => {
                            loaded.capability = described.capability.clone().or(loaded.capability);
                            ext.revisions.push(loaded);
                        }
                        Some(d) if !file.named => {
                            diags.extend(skipped(&described.name, Some(&rev.name), &file.path, d.into()))
                        }
                        Some(d) => diags.push(d),
                    }
                }
                Err(d) if !file.named => diags.extend(skipped(&described.name, Some(&rev.name), &file.path, d)),
                Err(d) => diags.extend(d),
            }
        }
        if !ext.revisions.is_empty() {
            out.push(ext);
        }
    }
    if diags.has_errors() { Err(diags) } else { Ok((out, diags)) }
}

/// The manifest's `capability` when the extension's file declares no item of
/// that name: the generated alias would name nothing (the crate would not
/// compile), so it is an error at the key, with the closest names declared.
fn undeclared_capability(
    described: &manifest::ManifestExtension,
    loaded: &ExtensionRevision,
    manifest: &Path,
) -> Option<Diagnostic> {
    let name = described.capability.as_deref()?;
    if loaded.rev.items.contains_key(name) {
        return None;
    }
    let close = crate::names::closest(name, loaded.rev.items.keys().map(String::as_str), 3);
    let key = format!("{}.capability", described.key);
    let mut d = Diagnostic::error(format!(
        "`{key}` names `{name}`, which revision {} of extension `{}` does not declare",
        loaded.rev.name, described.name
    ));
    d = match described.capability_span {
        Some(span) => d.at(manifest, span).label(format!("not declared in {}", loaded.source)),
        None => d.in_file(manifest),
    };
    let list = close.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
    Some(d.hint(format!("name the item that declares the extension's capability; the closest declared: {list}")))
}

/// Where an extension revision's core types come from.
#[derive(Clone, Copy)]
enum CoreFrom<'a> {
    /// Its vendored copy of a core schema (`spec.types.ts` beside its schema):
    /// the core revision is the one its imports fit.
    Vendored,
    /// Package paths a manifest maps to the core revision it names.
    Packages { revision: &'a str, packages: &'a [String], manifest: &'a Path },
}

/// The problems of an extension (revision) found by default, as warnings
/// behind one that says it was skipped and why it is not an error.
fn skipped(ext: &str, revision: Option<&str>, dir: &Path, problems: Diagnostics) -> Diagnostics {
    let what = match revision {
        Some(r) => format!("revision {r} of extension `{ext}`"),
        None => format!("extension `{ext}`"),
    };
    let mut out = Diagnostics::default();
    out.push(
        Diagnostic::warning(format!("{what} skipped: it does not generate with these spec inputs (why follows)"))
            .note(format!(
                "{} was found by default, so its problems do not stop the core's generation; they follow as warnings",
                dir.display()
            ))
            .hint(format!("name the folder with --ext-dir or {EXT_DIR_ENV} to make them errors")),
    );
    out.items.extend(problems.items.into_iter().map(|d| Diagnostic { severity: Severity::Warning, ..d }));
    out
}

fn read_text(path: &Path) -> Result<String, Diagnostics> {
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| Diagnostic::error(format!("{} is not UTF-8: {e}", path.display())).in_file(path))?;
    Ok(crate::spec::normalized(&text).into_owned())
}

fn load_revision(
    ext: &str,
    source: &crate::spec::RevisionSource,
    spec: &Spec,
    core_from: CoreFrom<'_>,
) -> Result<(ExtensionRevision, Diagnostics), Diagnostics> {
    let path = &source.schema_path;
    let text = read_text(path)?;
    let (decls, imports, mut diags) = parse_module(path, &text);
    // Every import is of the core schema: the vendored copy, or a package the manifest maps to it.
    for import in &imports {
        let from = import.source.as_str();
        let (core, hint) = match core_from {
            CoreFrom::Vendored if !from.starts_with('.') => (
                false,
                format!(
                    "an extension that imports its core types from a package is described by a manifest ({}): name `{from}` in its `core-packages` and the core revision it means",
                    manifest::DEFAULT_MANIFEST
                ),
            ),
            CoreFrom::Vendored => (
                CORE_IMPORTS.contains(&from),
                "an extension imports core types from `./spec.types.js`, its copy of the core schema.ts beside it; vendor the core schema there and import from it".to_string(),
            ),
            CoreFrom::Packages { packages, manifest, .. } => (
                packages.iter().any(|p| p == from),
                format!("add `{from}` to the `core-packages` of extension `{ext}` in {}", manifest.display()),
            ),
        };
        if !core {
            diags.push(
                Diagnostic::error(format!("an import from `{from}`"))
                    .at(path, import.span)
                    .label("not a source of the core schema")
                    .hint(hint),
            );
        }
    }
    if diags.has_errors() {
        return Err(diags);
    }
    let imported: Vec<&ImportedName> = imports.iter().flat_map(|i| &i.names).collect();
    let core = match core_from {
        CoreFrom::Vendored => core_revision(&path.with_file_name("spec.types.ts"), &imported, spec)?,
        CoreFrom::Packages { revision, manifest, .. } => spec.revision(revision).ok_or_else(|| {
            let have: Vec<&str> = spec.revisions.iter().map(|r| r.name.as_str()).collect();
            Diagnostics::from(
                Diagnostic::error(format!(
                    "extension `{ext}`: its core revision {revision} (from {}) is not among the spec inputs' revisions ({})",
                    manifest.display(),
                    have.join(", ")
                ))
                .in_file(manifest),
            )
        })?,
    };
    // Every name it takes is a core type.
    let mut names = BTreeMap::new();
    for n in imported {
        if core.item(&n.imported).is_none() {
            diags.push(
                Diagnostic::error(format!("`{}` is not a type of core revision {}", n.imported, core.name))
                    .at(path, n.span)
                    .label("imported here"),
            );
            continue;
        }
        names.insert(n.local.clone(), n.imported.clone());
    }
    if diags.has_errors() {
        return Err(diags);
    }
    let (rev, lower_diags) = lower_revision(LowerInput {
        name: source.name.clone(),
        module: source.module.clone(),
        dated: source.dated,
        schema_path: path,
        schema_sha256: crate::spec::sha256_hex(&text),
        decls,
        core: Some(core),
        imports: names,
        extension: Some(ext),
    });
    let lowered_ok = !lower_diags.has_errors();
    diags.extend(lower_diags);
    if lowered_ok {
        diags.extend(crate::check::check_revision(&rev));
    }
    if diags.has_errors() {
        return Err(diags);
    }
    let capability = rev.items.keys().find(|n| n.ends_with("ExtensionCapability")).cloned();
    let id = text.lines().find_map(|l| l.split_once("Extension Identifier:")).map(|(_, id)| id.trim().to_string());
    Ok((
        ExtensionRevision {
            source: format!("{ext}/schema/{}/schema.ts", source.name),
            feature: format!("ext-{ext}-{}", source.module).replace('_', "-"),
            core_name: core.name.clone(),
            core_module: core.module.clone(),
            rev,
            id,
            capability,
        },
        diags,
    ))
}

/// The core revision an extension builds on, chosen by what it imports: a
/// revision of `spec` in which every declaration the extension imports from
/// its vendored copy (`spec.types.ts`), and every declaration those reach,
/// has the same shape as in the copy (docs and layout aside: see
/// [`Decl::shape`]). The oldest revision whose whole text equals the copy's
/// (its vendoring header set aside) is preferred; else, of the revisions that
/// fit, the one where most of the copy's declarations have the same shape
/// (the newest of equals). Byte equality alone
/// would fail the day upstream's `draft` moves on from the copy, though
/// nothing the extension uses changed. When none fits, the error names the
/// closest revision and the first imported item that differs there.
fn core_revision<'s>(
    vendored_path: &Path,
    imported: &[&ImportedName],
    spec: &'s Spec,
) -> Result<&'s Revision, Diagnostics> {
    if !vendored_path.is_file() {
        return Err(Diagnostic::error(format!("no vendored core schema: {} is missing", vendored_path.display()))
            .hint("an extension carries its copy of the core schema.ts as `spec.types.ts` beside its schema.ts")
            .into());
    }
    let vendored = read_text(vendored_path)?;
    let body = strip_header(&vendored);
    let mut cores = Vec::with_capacity(spec.revisions.len());
    for rev in &spec.revisions {
        let core = read_text(&rev.schema_path)?;
        if body == strip_header(&core) || vendored.ends_with(&core) {
            // The oldest revision with this text: `draft` may equal a dated one's.
            return Ok(rev);
        }
        cores.push((rev, core));
    }
    let (copy_decls, _, copy_diags) = parse_module(vendored_path, &vendored);
    if copy_diags.has_errors() {
        return Err(copy_diags);
    }
    let copy: BTreeMap<&str, &Decl> = copy_decls.iter().map(|d| (d.name.as_str(), d)).collect();
    let reached = reached_declarations(imported, &copy);
    let copy_shapes: BTreeMap<&str, String> = copy_decls.iter().map(|d| (d.name.as_str(), d.shape())).collect();
    // Per revision: how many reached declarations match, the first that does
    // not (with why), and how many of all the copy's declarations are the same.
    let mut judged = Vec::new();
    for (rev, core_text) in &cores {
        let (core_decls, _, core_diags) = parse_module(&rev.schema_path, core_text);
        if core_diags.has_errors() {
            continue; // reported by the core's own load
        }
        let core_shapes: BTreeMap<&str, String> = core_decls.iter().map(|d| (d.name.as_str(), d.shape())).collect();
        let mut matching = 0;
        let mut first_difference = None;
        for decl in &reached {
            let ours = &copy_shapes[decl.name.as_str()];
            match core_shapes.get(decl.name.as_str()) {
                Some(theirs) if theirs == ours => matching += 1,
                Some(theirs) => {
                    first_difference.get_or_insert_with(|| {
                        let why = {
                            let at = ours.bytes().zip(theirs.bytes()).take_while(|(a, b)| a == b).count();
                            format!(
                                "`{}` differs: the copy has `{}`, {} has `{}`",
                                decl.name,
                                excerpt(ours, at),
                                rev.name,
                                excerpt(theirs, at)
                            )
                        };
                        (decl.span, why)
                    });
                }
                None => {
                    first_difference
                        .get_or_insert_with(|| (decl.span, format!("`{}` is not declared in {}", decl.name, rev.name)));
                }
            }
        }
        let same = copy_shapes.iter().filter(|(name, shape)| core_shapes.get(*name) == Some(*shape)).count();
        judged.push((*rev, matching, first_difference, same));
    }
    // `max_by_key` keeps the last of equals: the newest revision.
    let fitting = judged.iter().filter(|j| j.2.is_none()).max_by_key(|j| j.3);
    if let Some((rev, ..)) = fitting {
        return Ok(rev);
    }
    let mut d = Diagnostic::error(format!(
        "{} fits no core revision of the spec inputs: what the extension imports differs in each",
        vendored_path.display()
    ))
    .in_file(vendored_path)
    .label("the first imported declaration that differs in the closest revision")
    .note(format!(
        "the extension imports {} declaration(s) of its copy, {} with what they reach",
        imported.len(),
        reached.len()
    ));
    if let Some((rev, matching, Some((span, why)), _)) = judged.iter().max_by_key(|j| (j.1, j.3)) {
        d = d.at(vendored_path, *span).note(format!(
            "closest: {} ({}), where {matching} of the {} match; {why}",
            rev.name,
            rev.schema_path.display(),
            reached.len()
        ));
    }
    Err(d
        .hint("vendor the core schema the extension is written against, or add that core revision to the spec inputs")
        .into())
}

/// The copy's declarations the imported names reach, the imported ones first
/// (in import order), then what they refer to, breadth first. Names the copy
/// does not declare (`Omit`, `Record`) are TypeScript's own.
fn reached_declarations<'d>(imported: &[&ImportedName], copy: &BTreeMap<&str, &'d Decl>) -> Vec<&'d Decl> {
    let mut out: Vec<&Decl> = Vec::new();
    let mut queue: std::collections::VecDeque<String> = imported.iter().map(|n| n.imported.clone()).collect();
    while let Some(name) = queue.pop_front() {
        let Some(decl) = copy.get(name.as_str()) else { continue };
        if out.iter().any(|d| d.name == decl.name) {
            continue;
        }
        out.push(decl);
        queue.extend(decl.references());
    }
    out
}

/// Where two shapes part: a window of `shape` around byte `at`.
fn excerpt(shape: &str, at: usize) -> String {
    let floor = |mut i: usize| {
        i = i.min(shape.len());
        while !shape.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (lo, hi) = (floor(at.saturating_sub(40)), floor(at + 60));
    format!("{}{}{}", if lo > 0 { "…" } else { "" }, &shape[lo..hi], if hi < shape.len() { "…" } else { "" })
}

/// The text after a leading block comment (`/** This file is automatically
/// vendored ... */`), when the text starts with one.
fn strip_header(text: &str) -> &str {
    let t = text.trim_start();
    if t.starts_with("/*")
        && let Some(end) = t.find("*/")
    {
        let rest = &t[end + 2..];
        // Only a header that is not the first declaration's JSDoc.
        if rest.trim_start().starts_with("/*") || rest.trim_start().starts_with("export") {
            return rest.trim_start_matches(['\n', ' ']);
        }
    }
    t
}
