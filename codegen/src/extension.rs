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

use crate::diag::{Diagnostic, Diagnostics};
use crate::lower::{LowerInput, lower_revision};
use crate::model::{Item, ItemKind, LiteralValue, Revision, Spec, Type, UnionRule, Variant};
use crate::parse::parse_module;

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
}

/// Where the extensions are: `explicit` (`--ext-dir`), else `$MCP_EXT_DIR`, else
/// `../shared/mcp-ext` beside the workspace root. The error says what was tried.
pub fn locate_ext_dir(explicit: Option<&Path>, workspace_root: &Path) -> Result<PathBuf, Diagnostics> {
    let env = std::env::var_os(EXT_DIR_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let default = workspace_root.join("../shared/mcp-ext");
    let (chosen, how) = match (explicit, &env) {
        (Some(p), _) => (p.to_path_buf(), "--ext-dir"),
        (None, Some(p)) => (p.clone(), EXT_DIR_ENV),
        (None, None) => (default.clone(), "the default path"),
    };
    if chosen.is_dir() {
        return Ok(chosen);
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
/// each revision lowered on the core revision of `spec` its vendored copy equals.
/// Problems of every extension are reported together.
pub fn load_extensions(dir: &Path, spec: &Spec) -> Result<(Vec<Extension>, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut folders: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.flatten().map(|e| e.path()).filter(|p| p.join("schema").is_dir()).collect(),
        Err(e) => return Err(Diagnostic::error(format!("cannot read {}: {e}", dir.display())).into()),
    };
    folders.sort();
    let mut out = Vec::new();
    for folder in folders {
        let name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let module = crate::spec::module_name(&name);
        let revisions = match crate::spec::discover_revisions(&folder) {
            Ok(r) => r,
            Err(d) => {
                diags.extend(d);
                continue;
            }
        };
        let mut ext = Extension { name: name.clone(), module: module.clone(), revisions: Vec::new() };
        for source in revisions {
            match load_revision(&name, &module, &source, spec) {
                Ok((rev, d)) => {
                    diags.extend(d);
                    ext.revisions.push(rev);
                }
                Err(d) => diags.extend(d),
            }
        }
        out.push(ext);
    }
    if diags.has_errors() { Err(diags) } else { Ok((out, diags)) }
}

fn read_text(path: &Path) -> Result<String, Diagnostics> {
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| Diagnostic::error(format!("{} is not UTF-8: {e}", path.display())).in_file(path))?;
    Ok(crate::spec::normalized(&text).into_owned())
}

fn load_revision(
    ext: &str,
    ext_module: &str,
    source: &crate::spec::RevisionSource,
    spec: &Spec,
) -> Result<(ExtensionRevision, Diagnostics), Diagnostics> {
    let path = &source.schema_path;
    let text = read_text(path)?;
    let vendored_path = path.with_file_name("spec.types.ts");
    let core = core_revision(&vendored_path, spec)?;
    let (decls, imports, mut diags) = parse_module(path, &text);
    // Every import is of the vendored core schema, and every name it takes is a core type.
    let mut names = BTreeMap::new();
    for import in &imports {
        if !CORE_IMPORTS.contains(&import.source.as_str()) {
            diags.push(
                Diagnostic::error(format!("an import from `{}`", import.source))
                    .at(path, import.span)
                    .label("not the vendored core schema")
                    .hint("an extension imports core types from `./spec.types.js`, its copy of the core schema.ts beside it; vendor the core schema there and import from it"),
            );
            continue;
        }
        for n in &import.names {
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
    }
    if diags.has_errors() {
        return Err(diags);
    }
    let (mut rev, lower_diags) = lower_revision(LowerInput {
        name: source.name.clone(),
        module: source.module.clone(),
        dated: source.dated,
        schema_path: path,
        schema_sha256: crate::spec::sha256_hex(&text),
        decls,
        core: Some(core),
        imports: names,
    });
    let lowered_ok = !lower_diags.has_errors();
    diags.extend(lower_diags);
    if lowered_ok {
        diags.extend(crate::check::check_revision(&rev));
    }
    if diags.has_errors() {
        return Err(diags);
    }
    add_to_core_unions(&mut rev);
    let capability = rev.items.keys().find(|n| n.ends_with("ExtensionCapability")).cloned();
    let id = text.lines().find_map(|l| l.split_once("Extension Identifier:")).map(|(_, id)| id.trim().to_string());
    let _ = ext_module;
    Ok((
        ExtensionRevision {
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

/// The core revision whose schema.ts the extension's vendored `spec.types.ts`
/// is, once its vendoring header (a leading comment) is set aside; when none
/// is, an error naming the closest revision and the first line that differs.
fn core_revision<'s>(vendored_path: &Path, spec: &'s Spec) -> Result<&'s Revision, Diagnostics> {
    if !vendored_path.is_file() {
        return Err(Diagnostic::error(format!("no vendored core schema: {} is missing", vendored_path.display()))
            .hint("an extension carries its copy of the core schema.ts as `spec.types.ts` beside its schema.ts")
            .into());
    }
    let vendored = read_text(vendored_path)?;
    let body = strip_header(&vendored);
    let mut closest: Option<(usize, &Revision, String)> = None;
    for rev in &spec.revisions {
        let core = read_text(&rev.schema_path)?;
        if body == strip_header(&core) || vendored.ends_with(&core) {
            // The oldest revision with this text: `draft` may equal a dated one's.
            return Ok(rev);
        }
        let (same, first) = compare_lines(body, strip_header(&core));
        if closest.as_ref().is_none_or(|(n, ..)| same > *n) {
            closest = Some((same, rev, first));
        }
    }
    let mut d = Diagnostic::error(format!(
        "{} is not the schema.ts of any core revision of the spec inputs",
        vendored_path.display()
    ))
    .in_file(vendored_path);
    if let Some((_, rev, first)) = closest {
        d = d.note(format!("closest: {} ({}); {first}", rev.name, rev.schema_path.display()));
    }
    Err(d
        .hint("vendor the core schema the extension is written against, or add that core revision to the spec inputs")
        .into())
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

/// How many lines two texts share in place, and the first that differs.
fn compare_lines(a: &str, b: &str) -> (usize, String) {
    let (al, bl): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let same = al.iter().zip(&bl).filter(|(x, y)| x == y).count();
    let first = al.iter().zip(&bl).position(|(x, y)| x != y).map(|i| {
        format!(
            "the first difference is at line {} of the copy: `{}` where the core has `{}`",
            i + 1,
            al[i].trim(),
            bl[i].trim()
        )
    });
    (same, first.unwrap_or_else(|| format!("one is {} lines, the other {}", al.len(), bl.len())))
}

/// What an extension adds to the core's unions read by `resultType`: each of
/// its own results with a fixed `resultType` value joins them, as unions of the
/// same names in the extension's module, and each core struct that holds such
/// a union is declared there again (see the module docs).
fn add_to_core_unions(rev: &mut Revision) {
    let Some(core) = rev.core.clone() else { return };
    let results: Vec<(String, String)> = rev
        .items
        .values()
        .filter_map(|i| {
            let ItemKind::Struct(s) = &i.kind else { return None };
            let f = s.field("resultType")?;
            match f.role.fixed().map(|l| &l.value) {
                Some(LiteralValue::Str(v)) => Some((i.name.clone(), v.clone())),
                _ => None,
            }
        })
        .collect();
    if results.is_empty() {
        return;
    }
    let mut widened = Vec::new();
    for item in core.items.values() {
        let ItemKind::Union(u) = &item.kind else { continue };
        let UnionRule::Selected(sel) = &u.rule else { continue };
        if sel.field != "resultType" || rev.items.contains_key(&item.name) {
            continue;
        }
        // The values the core's enum lists (`complete`, `input_required`) are
        // the core's to read; a value it does not list is the extension's.
        let listed: Vec<&str> = match core.item(&sel.values_of).map(|i| &i.kind) {
            Some(ItemKind::Enum(e)) => e.values.iter().map(|v| v.value.as_str()).collect(),
            _ => Vec::new(),
        };
        let joining: Vec<&(String, String)> = results.iter().filter(|(_, v)| !listed.contains(&v.as_str())).collect();
        if joining.is_empty() {
            continue;
        }
        let mut u = u.clone();
        let mut sel = sel.clone();
        for (name, value) in joining.iter().copied() {
            if sel.tags.iter().any(|(v, _)| v == value) {
                continue;
            }
            // Before the catch-all member, which stays last.
            let at = sel.other.unwrap_or(u.variants.len());
            u.variants.insert(
                at,
                Variant { name: name.clone(), ty: Type::Named(name.clone()), tags: Vec::new(), boxed: false },
            );
            for (_, k) in sel.tags.iter_mut() {
                if *k >= at {
                    *k += 1;
                }
            }
            if let Some(o) = sel.other.as_mut() {
                *o += 1;
            }
            sel.tags.push((value.clone(), at));
        }
        u.rule = UnionRule::Selected(sel);
        let mut docs = item.docs.clone();
        docs.text = vec![format!(
            "`{}` of core revision {}, with what this extension answers in its place: {}.",
            item.name,
            core.name,
            joining.iter().map(|(n, v)| format!("`{n}` (`resultType: \"{v}\"`)")).collect::<Vec<_>>().join(", ")
        )];
        widened.push(Item { kind: ItemKind::Union(u), docs, ..item.clone() });
    }
    let unions: Vec<String> = widened.iter().map(|i| i.name.clone()).collect();
    for item in core.items.values() {
        let ItemKind::Struct(s) = &item.kind else { continue };
        let holds = s.fields.iter().any(|f| matches!(&f.ty, Type::Named(n) if unions.contains(n)));
        if holds && !rev.items.contains_key(&item.name) {
            let mut docs = item.docs.clone();
            docs.text = vec![format!(
                "`{}` of core revision {}, holding this extension's union of the same name.",
                item.name, core.name
            )];
            widened.push(Item { docs, ..item.clone() });
        }
    }
    for item in widened {
        rev.items.insert(item.name.clone(), item);
    }
}
