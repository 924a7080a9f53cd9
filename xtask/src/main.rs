//! `cargo xtask`: a thin command line over mcp-spec-codegen.
//!
//! Exit codes: 0 success, 1 problems in the input (or stale output with `--check`),
//! 2 usage errors (clap's own, and unknown revisions), 3 `diff --fail-on` found
//! such a change.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use mcp_spec_codegen::registry::{self, report};
use mcp_spec_codegen::{Diagnostics, output, spec};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Generate and inspect the MCP spec bindings")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate the `generated` crate from every revision's schema.ts.
    Codegen {
        /// The spec folder (holds `schema/<revision>/schema.ts`). Default: $MCP_SPEC_DIR, then spec/mcp.
        #[arg(long)]
        spec_dir: Option<PathBuf>,
        /// The extensions folder (holds `<name>/schema/<revision>/schema.ts`). Default: $MCP_EXT_DIR, then spec/ext.
        #[arg(long)]
        ext_dir: Option<PathBuf>,
        /// The extensions manifest (extensions shipped as files anywhere, such as an npm
        /// package's `.d.ts`). Default: $MCP_EXT_MANIFEST, then codegen/extensions.toml.
        #[arg(long)]
        ext_manifest: Option<PathBuf>,
        /// Where to write the crate. Default: the workspace's generated/ folder.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write nothing; exit 1 naming the files that are out of date.
        #[arg(long)]
        check: bool,
        /// Print how long each stage took.
        #[arg(long)]
        timings: bool,
        /// Print each warning about the schema in full (excerpt, labels, hint)
        /// instead of one line each.
        #[arg(long)]
        verbose: bool,
    },
    /// Print the deprecation registry: every item's state (Active, Deprecated, Removed) per revision.
    Registry {
        /// Only this revision (`2026-07-28`, `draft`). Default: all.
        #[arg(long)]
        revision: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[arg(long)]
        spec_dir: Option<PathBuf>,
        /// An extension's registry (`tasks`) instead of the core's.
        #[arg(long)]
        ext: Option<String>,
        #[arg(long)]
        ext_dir: Option<PathBuf>,
    },
    /// Diff two revisions' models: every change, with wire and API verdicts.
    Diff {
        /// The old revision (`2025-11-25`).
        old: String,
        /// The new revision (`2026-07-28`, `draft`).
        new: String,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Exit with code 3 when a change of this kind is found.
        #[arg(long, value_enum, default_value_t = FailOn::None)]
        fail_on: FailOn,
        /// List documentation changes too (they are always counted).
        #[arg(long)]
        docs: bool,
        #[arg(long)]
        spec_dir: Option<PathBuf>,
        /// Diff two revisions of an extension (`tasks`) instead of the core's.
        #[arg(long)]
        ext: Option<String>,
        #[arg(long)]
        ext_dir: Option<PathBuf>,
    },
    /// Refresh a folder of the pinned inputs (spec/) from a checkout of its upstream,
    /// exactly the files spec/sources.toml lists, and record the commit; or compare.
    SpecSync {
        /// The top of a checkout of the source's upstream (a git work tree, or an
        /// unpacked npm package's `package/`).
        #[arg(long)]
        from: PathBuf,
        /// Which source of spec/sources.toml: `mcp`, `tasks`, `ext-apps`.
        #[arg(long, default_value = "mcp")]
        source: String,
        /// Write nothing; exit 1 listing each file added, removed or changed upstream, and the pin.
        #[arg(long)]
        check: bool,
        /// The commit a folder that is not a git checkout holds (a copy of one).
        #[arg(long, requires = "date")]
        commit: Option<String>,
        /// That commit's date, `YYYY-MM-DD`.
        #[arg(long, requires = "commit")]
        date: Option<String>,
        /// The pinned folder. Default: the workspace's spec/.
        #[arg(long)]
        into: Option<PathBuf>,
    },
    /// Run the official MCP conformance suite (tests/conformance): needs the suite's
    /// source (`--suite-dir DIR`, default ../shared/conformance) and the npm registry.
    /// Every argument goes to it; `cargo xtask conformance --help` lists them.
    #[command(disable_help_flag = true)]
    Conformance {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Print the model of one revision (items, fields, union rules), for inspection.
    Model {
        /// The revision: `2025-11-25`, `draft`.
        revision: String,
        #[arg(long)]
        spec_dir: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Markdown,
    Json,
    /// One self-contained page (no network, no external assets).
    Html,
}

impl From<Format> for report::Format {
    fn from(f: Format) -> Self {
        match f {
            Format::Text => report::Format::Text,
            Format::Markdown => report::Format::Markdown,
            Format::Json => report::Format::Json,
            Format::Html => report::Format::Html,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    /// Any change that breaks the wire or the Rust API.
    Breaking,
    Wire,
    Api,
    None,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Codegen { spec_dir, ext_dir, ext_manifest, out, check, timings, verbose } => {
            codegen(spec_dir, ext_dir, ext_manifest, out, check, timings, verbose)
        }
        Command::Model { revision, spec_dir } => model(&revision, spec_dir),
        Command::Conformance { args } => conformance(&args),
        Command::SpecSync { from, source, check, commit, date, into } => {
            let pinned = into.unwrap_or_else(|| workspace_root().join(mcp_spec_codegen::pinned::DEFAULT_PINNED_DIR));
            spec_sync(&pinned, &from, &source, check, commit.as_deref().zip(date.as_deref()))
        }
        Command::Registry { revision, format, spec_dir, ext, ext_dir } => {
            let ext = ext.map(|name| (name, ext_dir));
            registry_report(revision.as_deref(), format, spec_dir, ext)
        }
        Command::Diff { old, new, format, fail_on, docs, spec_dir, ext, ext_dir } => {
            let ext = ext.map(|name| (name, ext_dir));
            diff(&old, &new, format, fail_on, docs, spec_dir, ext)
        }
    }
}

/// Writes a report to stdout; a closed pipe (`| head`) ends quietly.
fn print_out(text: &str) -> ExitCode {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the report: {e}");
            ExitCode::from(1)
        }
    }
}

fn report(d: &Diagnostics) {
    if !d.is_empty() {
        eprint!("{}", d.render());
    }
}

fn codegen(
    spec_dir: Option<PathBuf>,
    ext_dir: Option<PathBuf>,
    ext_manifest: Option<PathBuf>,
    out: Option<PathBuf>,
    check: bool,
    timings: bool,
    verbose: bool,
) -> ExitCode {
    let started = std::time::Instant::now();
    let root = workspace_root();
    let dir = match spec::locate_spec_dir(spec_dir.as_deref(), &root) {
        Ok(d) => d,
        Err(d) => {
            report(&d);
            return ExitCode::from(1);
        }
    };
    let ext_dir = match mcp_spec_codegen::extension::locate_ext_dir(ext_dir.as_deref(), &root) {
        Ok(d) => d,
        Err(d) => {
            report(&d);
            return ExitCode::from(1);
        }
    };
    let out = out.unwrap_or_else(|| root.join("generated"));
    let mut settings = mcp_spec_codegen::emit::Settings::writing_to(&out);
    if let Some(ext_dir) = &ext_dir {
        settings = settings.with_extensions(ext_dir);
    }
    match mcp_spec_codegen::extension::locate_manifest(ext_manifest.as_deref(), &root) {
        Ok(Some(manifest)) => settings = settings.with_manifest(&manifest),
        Ok(None) => {}
        Err(d) => {
            report(&d);
            return ExitCode::from(1);
        }
    }
    let generated = match mcp_spec_codegen::generate_with(&dir, &settings) {
        Ok(g) => g,
        Err(d) => {
            report(&d);
            eprintln!("error: generation failed; nothing was written");
            return ExitCode::from(1);
        }
    };
    if verbose {
        report(&generated.warnings);
    } else if !generated.warnings.is_empty() {
        eprint!("{}", generated.warnings.render_brief());
        let n = generated.warnings.items.len();
        eprintln!("{n} warning{} about the schema (`--verbose` shows each in full)", if n == 1 { "" } else { "s" });
    }
    if check {
        let stale = output::check_crate(&out, &generated.files);
        if stale.is_empty() {
            eprintln!("{} is up to date ({} revisions)", out.display(), generated.spec.revisions.len());
            return ExitCode::SUCCESS;
        }
        for s in &stale {
            eprintln!("stale: {s}");
        }
        eprintln!("error: the generated crate is out of date; run `cargo xtask codegen` and commit the result");
        return ExitCode::from(1);
    }
    let before_write = started.elapsed();
    if let Err(e) = output::write_crate(&out, &generated.files) {
        eprintln!("error: cannot write {}: {e}; the previous crate is unchanged", out.display());
        return ExitCode::from(1);
    }
    if timings {
        for (stage, t) in &generated.timings {
            eprintln!("{stage:>8}: {:6.1} ms", t.as_secs_f64() * 1e3);
        }
        eprintln!("{:>8}: {:6.1} ms", "write", (started.elapsed() - before_write).as_secs_f64() * 1e3);
        eprintln!("{:>8}: {:6.1} ms", "total", started.elapsed().as_secs_f64() * 1e3);
    }
    eprintln!(
        "wrote {} files for {} revisions to {}",
        generated.files.len(),
        generated.spec.revisions.len(),
        out.display()
    );
    // The model and the files are freed with the process, all at once, not
    // piece by piece first (2% of a run, paired).
    std::mem::forget(generated);
    ExitCode::SUCCESS
}

/// Loads the spec; warnings (which concern the generated types) are printed only
/// when `show_warnings`, so reports stay readable.
fn load(spec_dir: Option<PathBuf>, show_warnings: bool) -> Result<mcp_spec_codegen::Spec, ExitCode> {
    let dir = spec::locate_spec_dir(spec_dir.as_deref(), &workspace_root()).map_err(|d| {
        report(&d);
        ExitCode::from(1)
    })?;
    match spec::load_spec(&dir) {
        Ok((spec, warnings)) => {
            if show_warnings {
                report(&warnings);
            }
            Ok(spec)
        }
        Err(d) => {
            report(&d);
            Err(ExitCode::from(1))
        }
    }
}

/// The revision named on the command line, or a usage error listing the known ones.
fn find_revision<'a>(
    spec: &'a mcp_spec_codegen::Spec,
    name: &str,
) -> Result<&'a mcp_spec_codegen::model::Revision, ExitCode> {
    spec.revision(name).ok_or_else(|| {
        let names: Vec<&str> = spec.revisions.iter().map(|r| r.name.as_str()).collect();
        eprintln!("error: unknown revision `{name}`; available: {}", names.join(", "));
        ExitCode::from(2)
    })
}

fn model(revision: &str, spec_dir: Option<PathBuf>) -> ExitCode {
    let spec = match load(spec_dir, true) {
        Ok(s) => s,
        Err(code) => return code,
    };
    match find_revision(&spec, revision) {
        Ok(rev) => print_out(&mcp_spec_codegen::model::outline(rev)),
        Err(code) => code,
    }
}

/// The revisions of an extension (`--ext tasks`, `--ext apps`), as a spec of
/// their own: its items, each revision on its core revision. It is looked for
/// in the extensions folder, then in the extensions manifest.
fn load_ext(
    spec_dir: Option<PathBuf>,
    name: &str,
    ext_dir: Option<PathBuf>,
) -> Result<mcp_spec_codegen::Spec, ExitCode> {
    use mcp_spec_codegen::extension::{self, ExtDir, ManifestFile};
    let spec = load(spec_dir, false)?;
    let failed = |d: mcp_spec_codegen::Diagnostics| {
        report(&d);
        ExitCode::from(1)
    };
    let root = workspace_root();
    // `--ext NAME` asks for this extension: its problems are errors, wherever it was found.
    let dir = extension::locate_ext_dir(ext_dir.as_deref(), &root).map_err(failed)?.map(|d| ExtDir::named(d.path));
    let manifest = extension::locate_manifest(None, &root).map_err(failed)?.map(|m| ManifestFile { named: true, ..m });
    let mut looked = Vec::new();
    if let Some(dir) = &dir {
        looked.push(dir.path.display().to_string());
        let (extensions, _) = extension::load_extensions(dir, &spec).map_err(failed)?;
        if let Some(ext) = extensions.into_iter().find(|e| e.name == name) {
            return Ok(mcp_spec_codegen::Spec {
                dir: dir.path.join(name),
                revisions: ext.revisions.into_iter().map(|r| r.rev).collect(),
            });
        }
    }
    if let Some(manifest) = &manifest {
        looked.push(manifest.path.display().to_string());
        let (extensions, _) = extension::load_manifest_extensions(manifest, &spec).map_err(failed)?;
        if let Some(ext) = extensions.into_iter().find(|e| e.name == name) {
            let dir = manifest.path.parent().unwrap_or(&root).to_path_buf();
            return Ok(mcp_spec_codegen::Spec { dir, revisions: ext.revisions.into_iter().map(|r| r.rev).collect() });
        }
    }
    if looked.is_empty() {
        eprintln!(
            "error: no extensions: none was named (--ext-dir, MCP_EXT_DIR), {} is not there, and there is no {}",
            extension::DEFAULT_EXT_DIR,
            extension::manifest::DEFAULT_MANIFEST
        );
    } else {
        eprintln!("error: unknown extension `{name}` in {}", looked.join(" or "));
    }
    Err(ExitCode::from(2))
}

/// The core spec, or with `--ext NAME` the extension's revisions.
fn load_for(
    spec_dir: Option<PathBuf>,
    ext: Option<(String, Option<PathBuf>)>,
) -> Result<mcp_spec_codegen::Spec, ExitCode> {
    match ext {
        Some((name, ext_dir)) => load_ext(spec_dir, &name, ext_dir),
        None => load(spec_dir, false),
    }
}

fn registry_report(
    revision: Option<&str>,
    format: Format,
    spec_dir: Option<PathBuf>,
    ext: Option<(String, Option<PathBuf>)>,
) -> ExitCode {
    let spec = match load_for(spec_dir, ext) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let index = match revision.map(|r| find_revision(&spec, r)) {
        Some(Err(code)) => return code,
        Some(Ok(rev)) => spec.revisions.iter().position(|r| r.name == rev.name),
        None => None,
    };
    print_out(&report::render(&registry::build(&spec), index, format.into()))
}

fn diff(
    old: &str,
    new: &str,
    format: Format,
    fail_on: FailOn,
    docs: bool,
    spec_dir: Option<PathBuf>,
    ext: Option<(String, Option<PathBuf>)>,
) -> ExitCode {
    let spec = match load_for(spec_dir, ext) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let (a, b) = match (find_revision(&spec, old), find_revision(&spec, new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let d = mcp_spec_codegen::diff::diff(a, b);
    let printed = print_out(&mcp_spec_codegen::diff::report::render(&d, format.into(), docs));
    let failing = d.changes.iter().any(|c| match fail_on {
        FailOn::Breaking => c.is_breaking(),
        FailOn::Wire => c.wire != mcp_spec_codegen::diff::Wire::None,
        FailOn::Api => c.api.is_some(),
        FailOn::None => false,
    });
    if failing { ExitCode::from(3) } else { printed }
}

fn spec_sync(pinned: &Path, from: &Path, name: &str, check: bool, commit: Option<(&str, &str)>) -> ExitCode {
    use mcp_spec_codegen::pinned::{self, Found};
    let failed = |d: Diagnostics| {
        report(&d);
        ExitCode::from(1)
    };
    let sources = match pinned::read_sources(pinned) {
        Ok(s) => s,
        Err(d) => return failed(d),
    };
    let Some(source) = sources.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
        eprintln!(
            "error: unknown source `{name}`; {} has: {}",
            pinned.join(pinned::SOURCES_FILE).display(),
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    let upstream = match pinned::read_upstream(source, from, commit) {
        Ok(u) => u,
        Err(d) => return failed(d),
    };
    if !check {
        let files = upstream.files.len();
        return match pinned::sync(pinned, &sources, name, upstream) {
            Ok(synced) => {
                eprintln!(
                    "wrote {files} files of `{name}` to {}, at {}",
                    pinned.join(&synced.folder).display(),
                    synced.origin.pin()
                );
                ExitCode::SUCCESS
            }
            Err(d) => failed(d),
        };
    }
    if let Found::Unknown { why } = &upstream.found {
        eprintln!("note: {why}; only the files are compared, not the pin");
    }
    let folder = pinned.join(&source.folder);
    match pinned::compare(source, &folder, &upstream) {
        Ok(d) if d.is_empty() => {
            eprintln!("{} is what {} gives ({} files)", folder.display(), from.display(), upstream.files.len());
            ExitCode::SUCCESS
        }
        Ok(d) => {
            let printed = print_out(&d.render());
            eprintln!(
                "error: {} differs from {}; `cargo xtask spec-sync --source {name} --from {}` copies it",
                folder.display(),
                from.display(),
                from.display()
            );
            if printed == ExitCode::SUCCESS { ExitCode::from(1) } else { printed }
        }
        Err(d) => failed(d),
    }
}

/// The conformance runs are a crate of their own (tests/conformance), built and
/// run here, so the xtask stays free of what they need.
fn conformance(args: &[String]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .args(["run", "--locked", "--quiet", "--package", "mcp-spec-conformance", "--"])
        .args(args)
        .current_dir(workspace_root())
        .status();
    match status {
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| u8::try_from(c).unwrap_or(1))),
        Err(e) => {
            eprintln!("error: cannot run cargo for the conformance runs: {e}");
            ExitCode::from(1)
        }
    }
}
