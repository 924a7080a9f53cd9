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
pub mod jsdoc;
pub mod lower;
pub mod model;
pub mod names;
pub mod output;
pub mod par;
pub mod parse;
pub mod protocol;
pub mod registry;
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
    pub files: Files,
    pub warnings: Diagnostics,
    /// How long each stage took: `load` (parse, lower, check), `emit` (registry,
    /// tokens, formatting).
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

/// Loads a spec folder and generates the `mcp-spec-types` crate in memory.
pub fn generate(spec_dir: &Path) -> Result<Generated, Diagnostics> {
    let started = std::time::Instant::now();
    let (spec, warnings) = spec::load_spec(spec_dir)?;
    let loaded = started.elapsed();
    let files = generate_from(&spec)?;
    let timings = vec![("load", loaded), ("emit", started.elapsed() - loaded)];
    Ok(Generated { spec, files, warnings, timings })
}

/// Generates the crate's files from a loaded spec: the types, the registry, and
/// the registry's look-ahead notes in the docs of older revisions.
pub fn generate_from(spec: &Spec) -> Result<Files, Diagnostics> {
    let registry = registry::build(spec);
    let notes = registry.look_ahead_notes(spec);
    emit::emit_crate(spec, &registry, &notes)
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
