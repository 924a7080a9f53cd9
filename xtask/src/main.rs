//! `cargo xtask`: a thin command line over mcp-spec-codegen.
//!
//! Exit codes: 0 success, 1 problems in the input (or stale output with `--check`),
//! 2 usage errors (clap's own).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
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
        /// The spec folder (holds `schema/<revision>/schema.ts`). Default: $MCP_SPEC_DIR, then ../shared/mcp-spec.
        #[arg(long)]
        spec_dir: Option<PathBuf>,
        /// Where to write the crate. Default: the workspace's generated/ folder.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write nothing; exit 1 naming the files that are out of date.
        #[arg(long)]
        check: bool,
    },
    /// Print the model of one revision (items, fields, union rules), for inspection.
    Model {
        /// The revision: `2025-11-25`, `draft`.
        revision: String,
        #[arg(long)]
        spec_dir: Option<PathBuf>,
    },
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Codegen { spec_dir, out, check } => codegen(spec_dir, out, check),
        Command::Model { revision, spec_dir } => model(&revision, spec_dir),
    }
}

fn report(d: &Diagnostics) {
    if !d.is_empty() {
        eprint!("{}", d.render());
    }
}

fn codegen(spec_dir: Option<PathBuf>, out: Option<PathBuf>, check: bool) -> ExitCode {
    let root = workspace_root();
    let dir = match spec::locate_spec_dir(spec_dir.as_deref(), &root) {
        Ok(d) => d,
        Err(d) => {
            report(&d);
            return ExitCode::from(1);
        }
    };
    let generated = match mcp_spec_codegen::generate(&dir) {
        Ok(g) => g,
        Err(d) => {
            report(&d);
            eprintln!("error: generation failed; nothing was written");
            return ExitCode::from(1);
        }
    };
    report(&generated.warnings);
    let out = out.unwrap_or_else(|| root.join("generated"));
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
    if let Err(e) = output::write_crate(&out, &generated.files) {
        eprintln!("error: cannot write {}: {e}; the previous crate is unchanged", out.display());
        return ExitCode::from(1);
    }
    eprintln!(
        "wrote {} files for {} revisions to {}",
        generated.files.len(),
        generated.spec.revisions.len(),
        out.display()
    );
    ExitCode::SUCCESS
}

fn load(spec_dir: Option<PathBuf>) -> Result<mcp_spec_codegen::Spec, ExitCode> {
    let dir = spec::locate_spec_dir(spec_dir.as_deref(), &workspace_root()).map_err(|d| {
        report(&d);
        ExitCode::from(1)
    })?;
    match spec::load_spec(&dir) {
        Ok((spec, warnings)) => {
            report(&warnings);
            Ok(spec)
        }
        Err(d) => {
            report(&d);
            Err(ExitCode::from(1))
        }
    }
}

fn model(revision: &str, spec_dir: Option<PathBuf>) -> ExitCode {
    let spec = match load(spec_dir) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let Some(rev) = spec.revision(revision) else {
        let names: Vec<&str> = spec.revisions.iter().map(|r| r.name.as_str()).collect();
        eprintln!("error: unknown revision `{revision}`; available: {}", names.join(", "));
        return ExitCode::from(2);
    };
    print!("{}", mcp_spec_codegen::model::outline(rev));
    ExitCode::SUCCESS
}
