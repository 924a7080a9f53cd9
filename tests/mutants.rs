//! The generator never panics and never hangs on a broken schema: seeded mutants
//! of every real schema.ts (a token or a line deleted, a member duplicated, two
//! names swapped, the file truncated, an odd construct inserted) each end in
//! generated code or in diagnostics that say where.
//!
//! `MCP_MUTANTS=N` sets how many mutants to try (default 3000, spread over the
//! revisions). Each run starts at a seed of its own, drawn from the clock and
//! printed; `MCP_MUTANTS_SEED=S` starts there instead. A failure names its
//! mutant's seed, so `MCP_MUTANTS=1 MCP_MUTANTS_SEED=<seed>` replays it. A few
//! of the mutants that go through every stage have their crate compiled too
//! (`MCP_MUTANTS_COMPILED=N`: that many; by default 5, each one whose model changed).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use mcp_spec_tests as support;
use support::Rng;

/// Constructs the generator does not support, and some it must take in its stride.
const ODD: &[&str] = &[
    "  generic?: Array<Map<string, number>>;",
    "  pair: [string, number];",
    "  cond: T extends string ? A : B;",
    "  bounded: number & { readonly minimum: 0 };",
    "  keys?: keyof Tool;",
    "  $dollar: string;",
    "  \"quoted key\"?: { [key: string]: unknown };",
    "  fn(): void;",
    "  [n: number]: string;",
    "export interface Generic<T> { value: T }",
    "export type Mapped = { [K in keyof Tool]: string };",
    "export type Tpl = `prefix-${string}`;",
    "export interface Self { type: Self }",
    "export interface Loop extends Loop { x: string }",
    "export type A1 = B1; export type B1 = A1;",
    "export interface Boxed { inner: Boxed | null }",
    "export const BIG = 123456789012345678901234567890;",
    "export const WEIRD = `tpl`;",
    "export interface Émoji { ünïcode: \"ü\" | \"🎉\" }",
    "export type Deep = ((((((((((((((((((((string))))))))))))))))))));",
    "/** @deprecated */",
    "/** @example {@includeCode ./examples/Nope/missing.json} */",
    "/** {@link NoSuchThing} [a](/specification/x) @category */",
    "import { X } from './x';",
    "export * from './other';",
    "declare module 'm' {}",
    "enum Color { Red }",
    "export function f() {}",
    "export type E = \"\" | \" \" | \"a-b\" | \"A_B\" | \"ab\";",
    "export type N = 1 | 2.5 | -3 | true;",
    "export type Keywords = \"self\" | \"Self\" | \"crate\" | \"type\";",
    "export interface Fields { self: string; type: string; crate?: number; \"\": boolean; Self: string }",
];

fn mutate(text: &str, rng: &mut Rng) -> (String, &'static str) {
    let lines: Vec<&str> = text.lines().collect();
    let op = rng.below(8);
    let out = match op {
        0 => {
            // Delete one token: an identifier, a number or one punctuation mark.
            let bytes = text.as_bytes();
            let mut i = rng.below(bytes.len());
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
            let mut j = i + 1;
            if i < bytes.len() && word(bytes[i]) {
                while i > 0 && word(bytes[i - 1]) {
                    i -= 1;
                }
                while j < bytes.len() && word(bytes[j]) {
                    j += 1;
                }
            }
            let (mut i, mut j) = (i.min(bytes.len()), j.min(bytes.len()));
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            while !text.is_char_boundary(j) {
                j += 1;
            }
            splice(text, i, j, "")
        }
        1 => {
            let k = rng.below(lines.len());
            join(lines.iter().enumerate().filter(|(i, _)| *i != k).map(|(_, l)| *l))
        }
        2 => {
            let k = rng.below(lines.len());
            join(lines.iter().take(k + 1).chain(lines.iter().skip(k)).copied())
        }
        3 => {
            // Swap two identifiers everywhere they occur as whole words.
            let names: Vec<&str> = text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| w.len() > 2 && w.starts_with(|c: char| c.is_ascii_uppercase()))
                .collect();
            if names.len() < 2 {
                text.to_string()
            } else {
                let (a, b) = (names[rng.below(names.len())], names[rng.below(names.len())]);
                swap_words(text, a, b)
            }
        }
        4 => {
            let mut at = rng.below(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text[..at].to_string()
        }
        5 => {
            let k = rng.below(lines.len());
            let odd = ODD[rng.below(ODD.len())];
            join(lines.iter().take(k).copied().chain([odd]).chain(lines.iter().skip(k).copied()))
        }
        6 => {
            // Overwrite one character with something hostile.
            const CHARS: &[&str] = &[
                "{", "}", "\"", "'", "`", "<", ">", "|", "&", "?", ":", ";", "*/", "/*", "é", "\u{0}", "\u{feff}",
                "🎉", "-", "9",
            ];
            let mut at = rng.below(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let end = text[at..].chars().next().map(|c| at + c.len_utf8()).unwrap_or(at);
            splice(text, at, end, CHARS[rng.below(CHARS.len())])
        }
        _ => {
            // Two mutations at once.
            let (once, _) = mutate(text, rng);
            mutate(&once, rng).0
        }
    };
    let name = [
        "delete-token",
        "delete-line",
        "duplicate-line",
        "swap-names",
        "truncate",
        "insert-odd",
        "overwrite-char",
        "twice",
    ][op];
    (out, name)
}

fn splice(text: &str, from: usize, to: usize, with: &str) -> String {
    format!("{}{with}{}", &text[..from], &text[to..])
}

fn join<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut s = lines.collect::<Vec<_>>().join("\n");
    s.push('\n');
    s
}

fn swap_words(text: &str, a: &str, b: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(if word == a {
            b
        } else if word == b {
            a
        } else {
            word
        });
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[derive(Debug)]
enum Outcome {
    /// Through every stage: the crate, the registry and the diff.
    Full,
    Generated,
    Diagnosed,
    Failed(String),
}

/// A model's item as text without its spans, which shift with every edit
/// above it: two items with the same key emit the same code.
fn item_key(item: &mcp_spec_codegen::model::Item) -> String {
    let text = format!("{item:?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find("Span { lo: ") {
        out.push_str(&rest[..i]);
        rest = rest[i..].split_once('}').map(|(_, r)| r).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// One revision's unmutated schema and the keys of its items.
struct Baseline {
    name: String,
    path: PathBuf,
    text: String,
    items: HashMap<String, String>,
    rev: mcp_spec_codegen::model::Revision,
}

/// The generator's stages on one mutant: parse, lower and the checks; then the
/// emission of every item the mutation changed (an unchanged item emits what it
/// emitted before), checked to be valid Rust; and for every `FULL_EVERY`th
/// mutant that gets that far, the whole entry point with formatting.
fn check_mutant(base: &Baseline, text: &str, full: bool) -> Outcome {
    let (rev, diags) = mcp_spec_codegen::spec::read_revision(base.name.clone(), "m".into(), false, &base.path, text);
    if diags.has_errors() {
        let rendered = diags.render_with(|_| Some(text.to_string()));
        // Located means a real place: a span at the very start, empty, is where a
        // diagnostic lands when its place was lost.
        let unplaced = diags.errors().any(|e| match e.span {
            None => true,
            Some(span) => e.file.is_none() || (span.lo == 0 && span.hi == 0),
        });
        return if unplaced {
            Outcome::Failed(format!("an error without a place:\n{rendered}"))
        } else {
            Outcome::Diagnosed
        };
    }
    let notes = Default::default();
    let cx = mcp_spec_codegen::emit::cx::Cx::new(&rev, &notes);
    for item in rev.items.values() {
        if base.items.get(&item.name).is_some_and(|k| *k == item_key(item)) {
            continue;
        }
        // Only parsed here: its doc placeholders' texts (in `cx.docs`) are not needed.
        let emitted = mcp_spec_codegen::emit::items::emit_item(item, &cx);
        if let Err(e) = syn::parse2::<syn::File>(emitted.tokens) {
            return Outcome::Failed(format!("the code emitted for `{}` does not parse: {e}", item.name));
        }
        if let Err(e) = syn::parse_str::<syn::File>(&emitted.impls) {
            let impls = emitted.impls;
            return Outcome::Failed(format!("the impls emitted for `{}` do not parse: {e}\n{impls}", item.name));
        }
        if let Some(call) = emitted.call.map(|c| c.render())
            && let Err(e) = syn::parse_str::<syn::File>(&call)
        {
            return Outcome::Failed(format!("the macro call emitted for `{}` does not parse: {e}\n{call}", item.name));
        }
    }
    if full {
        // The whole crate, beside the unmutated revision: emission, formatting, the
        // registry over both and the diff between them all see the mutant.
        let mut mutant = rev;
        mutant.name = "mutant".into();
        mutant.module = "mutant".into();
        let spec = mcp_spec_codegen::Spec { dir: base.path.clone(), revisions: vec![base.rev.clone(), mutant] };
        if let Err(d) = mcp_spec_codegen::generate_from(&spec) {
            return Outcome::Failed(format!("passed the checks, then failed:\n{}", d.render()));
        }
        let diff = mcp_spec_codegen::diff::diff(&spec.revisions[0], &spec.revisions[1]);
        let _ = mcp_spec_codegen::diff::report::render(&diff, mcp_spec_codegen::report::Format::Json, true);
        return Outcome::Full;
    }
    Outcome::Generated
}

const FULL_EVERY: u64 = 20;

/// The revision (its index among `revisions`) the mutant of `seed` mutates, and
/// whether it goes through every stage. Every `FULL_EVERY`th seed is a full run,
/// and full runs take the revisions in turn: of any `FULL_EVERY * revisions`
/// consecutive seeds, each revision gets one, so a run of 3,000 gives each 25
/// whatever its first seed, of which those not diagnosed go through every stage
/// (a third or more: with their revision drawn at random, some revision went
/// without in a few runs in a hundred, and the test failed). The other mutants draw their revision apart
/// from the mutation.
fn drawn(seed: u64, revisions: usize) -> (usize, bool) {
    if seed.is_multiple_of(FULL_EVERY) {
        (((seed / FULL_EVERY) % revisions as u64) as usize, true)
    } else {
        (Rng::new(seed ^ 0x5EED_F00D_CAFE_D00D).below(revisions), false)
    }
}

/// The name the mutants' worker threads start with.
const WORKER: &str = "mutant-worker-";

/// How many of a run's mutants that go through every stage have their crate
/// compiled, unless `MCP_MUTANTS_COMPILED` says: the first ones by seed whose
/// model differs from their revision's (a mutation in a comment or one the
/// lowering undoes would compile the unmutated crate again, proving nothing).
const COMPILED: usize = 5;

/// Whether the mutant of `seed` lowers to another model than its revision's:
/// an item added, gone or changed.
fn model_changed(baselines: &[Baseline], seed: u64) -> bool {
    let base = &baselines[drawn(seed, baselines.len()).0];
    let (text, _) = mutate(&base.text, &mut Rng::new(seed));
    let (rev, diags) = mcp_spec_codegen::spec::read_revision(base.name.clone(), "m".into(), false, &base.path, &text);
    !diags.has_errors()
        && (rev.items.len() != base.items.len()
            || rev.items.values().any(|i| base.items.get(&i.name).is_none_or(|k| *k != item_key(i))))
}

/// Regenerates the crate of the mutant of `seed` (beside its unmutated
/// revision), writes it under `target/downstream/` and checks it with every
/// revision on, warnings counted as errors.
fn compile_mutant(baselines: &[Baseline], seed: u64, k: usize) -> Result<(), String> {
    let base = &baselines[drawn(seed, baselines.len()).0];
    let (text, _) = mutate(&base.text, &mut Rng::new(seed));
    let (mut rev, diags) =
        mcp_spec_codegen::spec::read_revision(base.name.clone(), "m".into(), false, &base.path, &text);
    if diags.has_errors() {
        return Err("it no longer reads".into());
    }
    rev.name = "mutant".into();
    rev.module = "mutant".into();
    let spec = mcp_spec_codegen::Spec { dir: base.path.clone(), revisions: vec![base.rev.clone(), rev] };
    let dir = support::workspace_root().join(format!("target/downstream/mutant-{k}"));
    let files = mcp_spec_codegen::generate_from_with(&spec, &mcp_spec_codegen::emit::Settings::writing_to(&dir))
        .map_err(|d| d.render())?;
    mcp_spec_codegen::output::write_crate(&dir, &files).map_err(|e| e.to_string())?;
    let manifest = dir.join("Cargo.toml");
    let toml = std::fs::read_to_string(&manifest).map_err(|e| e.to_string())?;
    std::fs::write(&manifest, format!("{toml}\n[workspace]\n")).map_err(|e| e.to_string())?;
    support::lock_like_root(&dir)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["check", "--locked", "--offline", "--quiet", "--message-format", "short", "--features", "all-revisions"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", support::workspace_root().join("target/downstream/target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() && !stderr.contains("warning") {
        Ok(())
    } else {
        Err(format!("({} mutated, in {}):\n{stderr}", base.name, dir.display()))
    }
}

fn panic_text(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn mutants_of_every_schema_end_in_output_or_diagnostics() {
    let total: usize = std::env::var("MCP_MUTANTS").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    let first_seed: u64 = std::env::var("MCP_MUTANTS_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        now.as_nanos() as u64 % 1_000_000_000
    });
    eprintln!("mutants from seed {first_seed} (MCP_MUTANTS_SEED={first_seed} replays this run)");
    let dir = support::spec_dir().join("schema");
    let mut baselines: Vec<Baseline> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("schema.ts"))
        .filter(|p| p.is_file())
        .map(|path| {
            let name = path.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let (rev, diags) = mcp_spec_codegen::spec::read_revision(name.clone(), "m".into(), false, &path, &text);
            assert!(!diags.has_errors(), "{name} must generate unmutated:\n{}", diags.render());
            let items = rev.items.values().map(|i| (i.name.clone(), item_key(i))).collect();
            Baseline { name, path, text, items, rev }
        })
        .collect();
    baselines.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(baselines.len() >= 6, "expected every revision's schema.ts under {}", dir.display());
    let baselines = Arc::new(baselines);

    // A panic inside the workers is caught and reported: the hook says nothing
    // of theirs, and passes any other thread's (another test's) to the default.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !std::thread::current().name().is_some_and(|n| n.starts_with(WORKER)) {
            default_hook(info);
        }
    }));
    let started = Instant::now();
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(4);
    let running: Arc<Mutex<Vec<Option<u64>>>> = Arc::new(Mutex::new(vec![None; workers]));
    let (tx, rx) = mpsc::channel::<(u64, String, &'static str, Outcome)>();
    for w in 0..workers {
        let (tx, baselines, running) = (tx.clone(), Arc::clone(&baselines), Arc::clone(&running));
        // The stack a main thread has: the generator must fit in it.
        let spawned = std::thread::Builder::new().name(format!("{WORKER}{w}")).stack_size(8 << 20).spawn(move || {
            for n in (w..total).step_by(workers) {
                let seed = first_seed + n as u64;
                let (base, full) = drawn(seed, baselines.len());
                let base = &baselines[base];
                let mut rng = Rng::new(seed);
                running.lock().unwrap_or_else(|e| e.into_inner())[w] = Some(seed);
                let mut op = "?";
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let (mutant, name) = mutate(&base.text, &mut rng);
                    op = name;
                    check_mutant(base, &mutant, full)
                }))
                .unwrap_or_else(|p| Outcome::Failed(format!("panicked: {}", panic_text(p))));
                running.lock().unwrap_or_else(|e| e.into_inner())[w] = None;
                if tx.send((seed, base.name.clone(), op, outcome)).is_err() {
                    return;
                }
            }
        });
        spawned.expect("a worker thread starts");
    }
    drop(tx);
    let (mut generated, mut diagnosed) = (0, 0);
    let mut full_runs: std::collections::BTreeMap<String, usize> = Default::default();
    let mut failures = Vec::new();
    let mut full_seeds = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok((seed, rev, op, outcome)) => match outcome {
                Outcome::Generated => generated += 1,
                Outcome::Full => {
                    generated += 1;
                    *full_runs.entry(rev).or_default() += 1;
                    full_seeds.push(seed);
                }
                Outcome::Diagnosed => diagnosed += 1,
                Outcome::Failed(why) => failures.push(format!("seed {seed} ({rev}, {op}): {why}")),
            },
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let stuck: Vec<u64> =
                    running.lock().unwrap_or_else(|e| e.into_inner()).iter().flatten().copied().collect();
                failures.push(format!("no result within 60 s (a hang) for the mutants of seeds {stuck:?}"));
                break;
            }
        }
    }
    let _ = std::panic::take_hook();
    // A few crates of mutants that went through every stage, compiled: valid
    // Rust is not enough, the generated code must build without a warning.
    full_seeds.sort();
    let asked = std::env::var("MCP_MUTANTS_COMPILED").ok().and_then(|v| v.parse().ok());
    let to_compile: Vec<u64> = full_seeds
        .iter()
        .copied()
        .filter(|&seed| model_changed(&baselines, seed))
        .take(asked.unwrap_or(COMPILED))
        .collect();
    let compile_started = Instant::now();
    for (k, &seed) in to_compile.iter().enumerate() {
        if let Err(why) = compile_mutant(&baselines, seed, k) {
            failures.push(format!("seed {seed}: its crate does not build: {why}"));
        }
    }
    eprintln!(
        "{total} mutants in {:.1} s on {workers} threads: {generated} generated ({} through the crate, registry and diff: {full_runs:?}), {diagnosed} diagnosed, {} failed; {} crates of mutants whose model changed compiled, seeds {to_compile:?}, in {:.1} s",
        started.elapsed().as_secs_f64(),
        full_runs.values().sum::<usize>(),
        failures.len(),
        to_compile.len(),
        compile_started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} mutants broke the generator (replay one with MCP_MUTANTS=1 MCP_MUTANTS_SEED=<seed>):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert_eq!(generated + diagnosed, total, "every mutant must have an outcome");
    assert!(generated > 0 && diagnosed > 0, "the mutants should exercise both outcomes");
    if total >= 3000 {
        assert_eq!(full_runs.len(), baselines.len(), "every revision gets full runs: {full_runs:?}");
    }
    if asked.is_none() && total >= 3000 {
        assert_eq!(to_compile.len(), COMPILED, "mutants whose model changed, compiled");
    }
}

/// A mutant the random runs found (seed 843122900): `Request` and
/// `SubscribeRequest` swapped in 2025-03-26, so a request type is named
/// `Request` alone, and its `results` name (the type's name without `Request`)
/// was empty: the emitter panicked. It goes through every stage now.
#[test]
fn a_request_type_named_request_alone_goes_through_every_stage() {
    let path = support::spec_dir().join("schema/2025-03-26/schema.ts");
    let text = std::fs::read_to_string(&path).unwrap();
    let (rev, diags) = mcp_spec_codegen::spec::read_revision("2025-03-26".into(), "m".into(), false, &path, &text);
    assert!(!diags.has_errors(), "{}", diags.render());
    let items = rev.items.values().map(|i| (i.name.clone(), item_key(i))).collect();
    let base = Baseline { name: "2025-03-26".into(), path, text: text.clone(), items, rev };
    let mutant = swap_words(&text, "Request", "SubscribeRequest");
    assert!(mutant.contains("export interface Request extends SubscribeRequest"), "the swap");
    assert!(matches!(check_mutant(&base, &mutant, true), Outcome::Full), "{:?}", check_mutant(&base, &mutant, true));
}
