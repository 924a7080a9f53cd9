//! Stage 3: the model → the files of the `mcp-spec-types` crate. Each item is
//! written one way per part: its definition as tokens that prettyplease lays
//! out (`items`, then `format`), its builders and impls of a few fixed shapes as
//! text laid out by `build`, its serde impls as one runtime macro call, a typed
//! [`calls::Call`] rendered in the macros' grammar. Around the modules, the
//! crate's own files (`krate`), the registry's data (`registry`) and what
//! revisions share (`share`). Everything is produced in memory; writing is
//! `output`'s job.

pub mod build;
pub mod calls;
pub mod convert;
pub mod cx;
pub mod docs;
pub mod ext;
mod format;
mod header;
pub mod items;
mod krate;
pub mod module;
pub mod registry;
pub mod share;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Revision, Spec};
use crate::registry::Registry;
pub use cx::{ItemText, Notes, RevisionNotes};
pub use format::{expand_docs, format_file, format_file_with};
pub use header::COMMAND;
use header::{lib_header, revision_header, template_header};
pub use krate::{CRATE_README, Files, NEGOTIATE, Settings};
use krate::{cargo_toml, crate_readme, lib_rs, shared_header, shared_index};
pub use module::{ItemPiece, ModuleText, RevisionModule, revision_module};
use module::{format_items, module_file};

/// Generates the whole crate: one module per revision (with `notes` added to the
/// docs of the items they name), the registry module, and the manifest that
/// names the runtime where `settings` says.
pub fn emit_crate(
    spec: &Spec,
    extensions: &[crate::extension::Extension],
    registry: &Registry,
    notes: &RevisionNotes,
    settings: &Settings,
) -> Result<Files, Diagnostics> {
    let mut files = Files::new();
    let mut diags = Diagnostics::default();
    files.insert("src/negotiate.rs".into(), format!("{}{NEGOTIATE}", template_header("negotiate.rs")));
    // A revision with an earlier one's items is that module re-exported.
    let shared = share::shared_revisions(&spec.revisions);
    // Every Rust file is independent: emitted and formatted on every core, the
    // biggest jobs first (by items) so the cores finish together. The extensions'
    // files are one job: run alone before the rest, they were a sixth of a run.
    enum Job<'a> {
        Lib,
        Registry,
        Extensions,
        Reexport(&'a Revision, &'a Revision),
        Module(usize, &'a Revision),
    }
    enum Output {
        File(String, String),
        Files(Files),
        Module(usize, ModuleText),
    }
    let own: Vec<&Revision> = spec.revisions.iter().filter(|r| !shared.contains_key(&r.module)).collect();
    let mut jobs: Vec<Job<'_>> = own.iter().enumerate().map(|(i, r)| Job::Module(i, r)).collect();
    jobs.extend([Job::Extensions, Job::Registry, Job::Lib]);
    for (module, of) in &shared {
        if let Some(rev) = spec.revisions.iter().find(|r| &r.module == module) {
            jobs.push(Job::Reexport(rev, of));
        }
    }
    jobs.sort_by_key(|j| {
        std::cmp::Reverse(match j {
            Job::Module(_, r) => r.items.len(),
            Job::Extensions => extensions.iter().flat_map(|e| &e.revisions).map(|r| r.rev.items.len()).sum(),
            Job::Registry | Job::Lib | Job::Reexport(..) => 0,
        })
    });
    let outputs = crate::par::map(&jobs, |job| {
        let mut d = Diagnostics::default();
        let out = match job {
            Job::Lib => Output::File(
                "src/lib.rs".to_string(),
                format_file(&lib_rs(spec, !extensions.is_empty()), &lib_header(spec), "src/lib.rs", &mut d),
            ),
            Job::Registry => {
                let data = format_file(&registry::registry_data(registry), "", "src/registry.rs", &mut d);
                Output::File("src/registry.rs".to_string(), format!("{}{}\n{data}", lib_header(spec), registry::API))
            }
            Job::Reexport(rev, of) => {
                let path = format!("src/{}.rs", rev.module);
                let text = format_file(&share::reexport_module(rev, of), &revision_header(rev), &path, &mut d);
                Output::File(path, text)
            }
            Job::Extensions => {
                let mut ext_files = Files::new();
                ext::extension_files(extensions, &mut ext_files, &mut d);
                Output::Files(ext_files)
            }
            Job::Module(i, rev) => {
                let path = format!("src/{}.rs", rev.module);
                let empty = Notes::new();
                Output::Module(*i, format_items(rev, notes.get(&rev.module).unwrap_or(&empty), &path, &mut d))
            }
        };
        (out, d)
    });
    let mut modules: Vec<Option<ModuleText>> = own.iter().map(|_| None).collect();
    for (out, d) in outputs {
        match out {
            Output::File(path, text) => {
                files.insert(path.into(), text);
            }
            Output::Files(more) => files.extend(more),
            Output::Module(i, text) => modules[i] = Some(text),
        }
        diags.extend(d);
    }
    let modules: Vec<(&Revision, ModuleText)> = own.iter().zip(modules).filter_map(|(r, m)| Some((*r, m?))).collect();
    // Then the items that adjacent revisions share, decided from that text.
    let pieces: Vec<(&Revision, &[ItemText])> = modules.iter().map(|(r, m)| (*r, &m.items[..])).collect();
    let items_shared = share::shared_items(&pieces);
    // The conversions between adjacent revisions, for the types they do not share.
    let own_revisions: Vec<&Revision> = modules.iter().map(|(r, _)| *r).collect();
    convert::convert_files(spec, &convert::pairs(&own_revisions, &items_shared), &mut files, &mut diags);
    let none = share::Reexports::new();
    for (rev, module) in &modules {
        let path = format!("src/{}.rs", rev.module);
        let reexports = items_shared.reexports.get(&rev.module).unwrap_or(&none);
        files.insert(path.clone().into(), module_file(rev, module, reexports, &path, &mut diags));
    }
    for (shared_module, names) in &items_shared.modules {
        let path = format!("src/shared/{}.rs", shared_module.module);
        let first = shared_module.revisions.first().map(|(_, module)| module);
        let text = match modules.iter().find(|(r, _)| Some(&r.module) == first) {
            Some((rev, module)) => {
                let reexports = items_shared.reexports.get(&rev.module).unwrap_or(&none);
                share::shared_module_text(shared_module, names, rev, &module.items, reexports)
            }
            None => Err(format!("no module for {}", shared_module.span())),
        };
        match text {
            Ok(text) => {
                let head = format_file(&text.head, &shared_header(spec, shared_module), &path, &mut diags);
                files.insert(path.into(), format!("{head}{}", text.body));
            }
            Err(e) => diags.push(
                Diagnostic::error(format!("internal error: shared items of {path}: {e}"))
                    .hint("this is a bug in mcp-spec-codegen; please report it with the schema that caused it"),
            ),
        }
    }
    files.insert(
        "src/shared.rs".into(),
        format_file(&shared_index(&items_shared), &lib_header(spec), "src/shared.rs", &mut diags),
    );
    files.insert("Cargo.toml".into(), cargo_toml(spec, &shared, settings, &ext::features(extensions)));
    files.insert("README.md".into(), crate_readme(spec, &shared));
    krate::mark_all_unformatted(&mut files);
    if diags.has_errors() { Err(diags) } else { Ok(files) }
}

/// One revision's module file, formatted, with its header, as it is when the
/// revision shares no item with another (the golden fixtures are such modules).
pub fn emit_module(rev: &Revision, notes: &Notes) -> Result<String, Diagnostics> {
    let mut diags = Diagnostics::default();
    let path = format!("src/{}.rs", rev.module);
    let items = format_items(rev, notes, &path, &mut diags);
    let mut text = module_file(rev, &items, &share::Reexports::new(), &path, &mut diags);
    format::mark_unformatted(&mut text);
    if diags.has_errors() { Err(diags) } else { Ok(text) }
}

/// A revision's items as formatted text, each on its own: what the crate decides
/// sharing from (`share::shared_items`), for tests to check it against.
pub fn module_text(rev: &Revision, notes: &Notes) -> Result<ModuleText, Diagnostics> {
    let mut diags = Diagnostics::default();
    let text = format_items(rev, notes, &format!("src/{}.rs", rev.module), &mut diags);
    if diags.has_errors() { Err(diags) } else { Ok(text) }
}

#[cfg(test)]
mod layering {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// Each module of `emit` and the sibling modules it names through `super::`.
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/emit");
        let mut graph = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().trim_end_matches(".rs").to_string();
            if name == "mod" {
                continue;
            }
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let mut names = BTreeSet::new();
            for (i, _) in text.match_indices("super::") {
                // Inside a string on its line (code the generator writes): not a use.
                let line = &text[text[..i].rfind('\n').map_or(0, |l| l + 1)..i];
                if line.matches('"').count() % 2 == 1 {
                    continue;
                }
                let rest = &text[i + 7..];
                if let Some(list) = rest.strip_prefix('{') {
                    for part in list.split('}').next().unwrap_or("").split(',') {
                        names.insert(part.trim().split("::").next().unwrap_or("").to_string());
                    }
                } else {
                    names.insert(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
                }
            }
            names.retain(|n: &String| !n.is_empty());
            graph.insert(name, names);
        }
        graph
    }

    /// `mod.rs` only orchestrates: every sibling a module names is a module, never
    /// an item of `mod.rs`; and they name each other downward only, no cycle.
    #[test]
    fn emit_modules_use_each_other_downward_and_never_mod_rs() {
        let graph = imports();
        assert!(graph.len() >= 12, "{graph:?}");
        let modules: BTreeSet<&String> = graph.keys().collect();
        for (m, names) in &graph {
            for n in names {
                assert!(modules.contains(n), "emit/{m}.rs names `super::{n}`, which is not a module of emit");
            }
        }
        crate::layering::assert_acyclic(&graph, "emit");
    }
}
