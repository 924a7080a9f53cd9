//! mcp-spec-codegen: reads the Model Context Protocol's normative `schema.ts` files,
//! lowers them into a model of our own, and emits versioned serde types from it.
//!
//! The pipeline is `parse` (swc → [`syntax`]) → `lower` (→ [`model`]) → `emit`
//! (→ tokens → prettyplease). [`spec::load_spec`] runs the first two for every
//! revision of a spec folder; [`generate`] runs all three.

pub mod check;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod extension;
pub mod jsdoc;
pub mod lower;
pub mod model;
pub mod names;
pub mod output;
pub mod par;
pub mod parse;
pub mod pinned;
pub mod protocol;
pub mod registry;
pub mod report;
pub mod rule;
pub mod rust;
pub mod sample;
pub mod spec;
pub mod syntax;

use std::path::Path;

pub use diag::{Diagnostic, Diagnostics};
pub use emit::Files;
pub use model::Spec;

/// Everything a codegen run produces: the crate's files and the warnings met.
pub struct Generated {
    pub spec: Spec,
    /// The extensions generated, when the settings named a folder of them.
    pub extensions: Vec<extension::Extension>,
    pub files: Files,
    pub warnings: Diagnostics,
    /// How long each stage took: `load` (parse, lower, check), `emit` (registry,
    /// tokens, formatting).
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

/// Loads a spec folder and generates the `mcp-spec-types` crate in memory, for
/// the committed place (`generated/`).
pub fn generate(spec_dir: &Path) -> Result<Generated, Diagnostics> {
    generate_with(spec_dir, &emit::Settings::default())
}

/// [`generate`], for a crate that `settings` places (see [`emit::Settings::writing_to`]).
pub fn generate_with(spec_dir: &Path, settings: &emit::Settings) -> Result<Generated, Diagnostics> {
    let started = std::time::Instant::now();
    let (spec, mut warnings) = spec::load_spec(spec_dir)?;
    // The extensions, those of the folder and those the manifest describes, and
    // the registry each need only the spec: on every core.
    let (from_dir, from_manifest, registry) = std::thread::scope(|scope| {
        let from_dir = scope.spawn(|| settings.ext_dir.as_ref().map(|dir| extension::load_extensions(dir, &spec)));
        let registry = scope.spawn(|| registry::build(&spec));
        let from_manifest =
            settings.ext_manifest.as_ref().map(|manifest| extension::load_manifest_extensions(manifest, &spec));
        (par::joined(from_dir), from_manifest, par::joined(registry))
    });
    let mut extensions = match from_dir {
        Some(loaded) => {
            let (extensions, ext_warnings) = loaded?;
            warnings.extend(ext_warnings);
            extensions
        }
        None => Vec::new(),
    };
    if let (Some(manifest), Some(loaded)) = (&settings.ext_manifest, from_manifest) {
        let (described, ext_warnings) = loaded?;
        warnings.extend(ext_warnings);
        for ext in described {
            if extensions.iter().any(|e| e.module == ext.module) {
                return Err(Diagnostic::error(format!(
                    "extension `{}` of {} is also an extension of the extensions folder: one module, one source",
                    ext.name,
                    manifest.path.display()
                ))
                .into());
            }
            extensions.push(ext);
        }
        extensions.sort_by(|a, b| a.module.cmp(&b.module));
    }
    // `load`: the spec, the extensions and the registry beside them.
    let loaded = started.elapsed();
    let notes = emit::registry::look_ahead_notes(&spec, &registry);
    let files = emit::emit_crate(&spec, &extensions, &registry, &notes, settings)?;
    let timings = vec![("load", loaded), ("emit", started.elapsed() - loaded)];
    Ok(Generated { spec, extensions, files, warnings, timings })
}

/// Generates the crate's files from a loaded spec: the types, the registry, and
/// the registry's look-ahead notes in the docs of older revisions.
pub fn generate_from(spec: &Spec) -> Result<Files, Diagnostics> {
    generate_from_with(spec, &emit::Settings::default())
}

/// [`generate_from`], for a crate that `settings` places.
pub fn generate_from_with(spec: &Spec, settings: &emit::Settings) -> Result<Files, Diagnostics> {
    let registry = registry::build(spec);
    let notes = emit::registry::look_ahead_notes(spec, &registry);
    emit::emit_crate(spec, &[], &registry, &notes, settings)
}

/// Generates one module from one schema text, as for a revision named after the
/// file's stem: what the golden fixtures use. Returns the module's text and the
/// warnings met.
pub fn generate_module(path: &Path, text: &str) -> Result<(String, Diagnostics), Diagnostics> {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "schema".into());
    let (rev, diags) = spec::read_revision(stem.clone(), spec::module_name(&stem), false, path, text);
    if diags.has_errors() {
        return Err(diags);
    }
    let module = emit::emit_module(&rev, &Default::default())?;
    Ok((module, diags))
}

#[cfg(test)]
pub(crate) mod layering {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// Each top-level module of this crate and the other top-level modules its
    /// source names through `crate::`.
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut stack = vec![src.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let rel = path.strip_prefix(&src).unwrap();
                let module =
                    rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
                if module == "lib" {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let names = graph.entry(module.clone()).or_default();
                for (i, _) in text.match_indices("crate::") {
                    let name: String = text[i + 7..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if name != module && !name.is_empty() && name.chars().next().is_some_and(|c| c.is_lowercase()) {
                        names.insert(name);
                    }
                }
                // `use crate::{a, b}` lists.
                for (i, _) in text.match_indices("use crate::{") {
                    let list: String = text[i + 12..].chars().take_while(|c| *c != '}').collect();
                    for part in list.split(',') {
                        let name: String =
                            part.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        if name != module && !name.is_empty() {
                            names.insert(name);
                        }
                    }
                }
            }
        }
        graph
    }

    /// Panics naming the first cycle in `graph` (module → the modules it names).
    pub(crate) fn assert_acyclic(graph: &BTreeMap<String, BTreeSet<String>>, what: &str) {
        fn visit(
            n: &str,
            g: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
            what: &str,
        ) {
            if let Some(at) = path.iter().position(|p| p == n) {
                panic!("import cycle in {what}: {} -> {n}", path[at..].join(" -> "));
            }
            if !done.insert(n.to_string()) {
                return;
            }
            path.push(n.to_string());
            for m in g.get(n).into_iter().flatten() {
                visit(m, g, path, done, what);
            }
            path.pop();
        }
        let mut done = BTreeSet::new();
        for n in graph.keys() {
            visit(n, graph, &mut Vec::new(), &mut done, what);
        }
    }

    /// Stages import downward only: the modules of `codegen/src` form no cycle.
    #[test]
    fn no_module_imports_one_that_imports_it_back() {
        let graph = imports();
        assert!(graph.contains_key("emit") && graph.contains_key("model"), "{graph:?}");
        assert_acyclic(&graph, "codegen/src");
    }
}
