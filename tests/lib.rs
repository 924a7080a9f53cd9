//! Integration tests of mcp-spec (see the `[[test]]` targets in Cargo.toml), and
//! what they share: where the spec inputs are, loudly, and the type tables.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mcp_spec_codegen::model::{ItemKind, Origin, Revision, Type};
use serde_json::Value;

/// The spec folder, found as the tools find it (`MCP_SPEC_DIR`, then the
/// repository's pinned copy, `spec/mcp`). Panics with what was looked for
/// when it is missing: tests that need the inputs never skip silently.
pub fn spec_dir() -> PathBuf {
    match mcp_spec_codegen::spec::locate_spec_dir(None, &workspace_root()) {
        Ok(d) => d,
        Err(d) => panic!("the MCP spec inputs are missing; these tests need them\n{}", d.render()),
    }
}

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// The type table of a revision module, by revision name.
pub fn types_of(revision: &str) -> &'static [mcp_spec_types::rt::TypeEntry] {
    mcp_spec_types::schema_types(revision)
        .unwrap_or_else(|| panic!("no module for revision {revision}: regenerate with `cargo xtask codegen` (the tests enable every revision feature)"))
}

/// A schema.json error our types do not raise, by design: a place the override
/// table (`codegen/src/lower/overrides.rs`) corrects (a form's answer may be any
/// number, an error response's `id` may be `null`), or a constraint the types
/// document but do not check (`@format`, `@minimum`, `@maximum`: a peer's
/// slightly-off value is read, as the SDKs read it).
pub fn not_checked_by_design(type_name: &str, error: &str) -> bool {
    // `ElicitResult.content{}`: a form's answer may be any number (the override).
    (type_name == "ElicitResult" && error.starts_with("/content/") && content_number(error))
        || (error.starts_with("/id:") && error.contains("null"))
        || error.contains(" is not a \"")
        // The const `SchemaJson` gives a selected member for choosing in unions
        // (`InputRequiredResult` alone takes any `ResultType`, an open enum).
        || error.contains("/resultType: \"input_required\" was expected")
        || error.contains("than the maximum of")
        || error.contains("than the minimum of")
}

/// A schema.json error about a form answer that is a number (`/content/key:
/// 0.5 is not ...`, however the revision words it): what the override allows.
fn content_number(error: &str) -> bool {
    error
        .split_once(": ")
        .and_then(|(_, rest)| rest.split_once(" is not"))
        .is_some_and(|(value, _)| value.parse::<f64>().is_ok())
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
mod readme {}

/// The docs' examples, compiled and run as doctests as the README's are.
#[doc = include_str!("../docs/types.md")]
mod docs_types {}
#[doc = include_str!("../docs/extensions.md")]
mod docs_extensions {}
#[doc = include_str!("../docs/registry-and-diff.md")]
mod docs_registry_and_diff {}
#[doc = include_str!("../docs/architecture.md")]
mod docs_architecture {}
#[doc = include_str!("../docs/testing.md")]
mod docs_testing {}

/// Reads `text` with a type-table entry and writes it back, and says which
/// members the generated code kept as unknown on the way, at any depth (the
/// `unknown-members-log` feature records them): the strict round trip. Input the
/// schema fully describes keeps none; a misnamed member, or a union that chose
/// the wrong member, shows up here though the JSON written back is equal.
pub fn roundtrip_logged(
    entry: &mcp_spec_types::rt::TypeEntry,
    text: &str,
) -> (Result<serde_json::Value, String>, Vec<String>) {
    let _ = mcp_spec_types::rt::log::take_unknown_members();
    let result = (entry.roundtrip)(text);
    (result, mcp_spec_types::rt::log::take_unknown_members())
}

/// The strict round trip of a value the schema fully describes: it must read,
/// write back equal and keep no member as unknown.
pub fn roundtrip_strict(entry: &mcp_spec_types::rt::TypeEntry, value: &serde_json::Value) -> Result<(), String> {
    match roundtrip_logged(entry, &value.to_string()) {
        (Ok(back), kept) if back == *value && kept.is_empty() => Ok(()),
        (Ok(back), kept) if back == *value => Err(format!("{}: members kept as unknown: {kept:?}", entry.name)),
        (Ok(back), _) => Err(format!("{}: written back differently: {back}", entry.name)),
        (Err(e), _) => Err(format!("{}: {e}", entry.name)),
    }
}

/// The small spec folder of `tests/fixtures/spec`, for golden reports.
pub fn fixture_spec() -> mcp_spec_codegen::Spec {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/spec");
    match mcp_spec_codegen::spec::load_spec(&dir) {
        Ok((spec, _warnings)) => spec,
        Err(d) => panic!("tests/fixtures/spec does not load:\n{}", d.render()),
    }
}

/// Compares `actual` with the golden file `tests/fixtures/<rel>`. With
/// `UPDATE_GOLDEN=1` a file that differs is rewritten, and the test still fails
/// once, so an update is never taken for a pass (run again to see it pass).
pub fn assert_golden(rel: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(rel);
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected == actual {
        return;
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&path, actual).unwrap();
        panic!("updated {}: it differed; run the test again without UPDATE_GOLDEN to see it pass", path.display());
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    panic!(
        "{} differs from the golden file at line {}:\n- {}\n+ {}\nrun with UPDATE_GOLDEN=1 to accept the new output",
        path.display(),
        first + 1,
        a.get(first).unwrap_or(&"<end>"),
        b.get(first).unwrap_or(&"<end>")
    );
}

/// The stems of the `.ts` files in `dir`, sorted.
pub fn ts_stems(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names
}

/// xorshift64*: small, seeded, the same everywhere, for the tests that make inputs.
pub struct Rng(pub u64);

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }
}

/// A revision's `schema.json`, upstream's, for validating values independently
/// of our types, with the one rule of the schema it cannot express: where the
/// schema's docs make a field decide between a union's members (`resultType`:
/// "input_required" means an `InputRequiredResult`), the member that value picks
/// is given that value as a `const`. Without it schema.json reads a broken
/// complete result as an `InputRequiredResult`, which accepts almost anything.
/// And `JSONValue` is schema.ts's (schema.json leaves out `null` and floats), and
/// an absent `resultType` is allowed, as the spec's prose says.
pub struct SchemaJson {
    root: serde_json::Value,
    defs_key: &'static str,
    validators: std::cell::RefCell<std::collections::HashMap<String, std::rc::Rc<jsonschema::Validator>>>,
}

impl SchemaJson {
    /// Loads `schema/<revision>/schema.json` from the spec inputs (panics when
    /// missing), with the selectors of `rev`'s unions.
    pub fn load(rev: &mcp_spec_codegen::model::Revision) -> SchemaJson {
        use mcp_spec_codegen::model::{ItemKind, Type};
        let path = spec_dir().join("schema").join(&rev.name).join("schema.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut root: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let defs_key = if root.get("$defs").is_some() { "$defs" } else { "definitions" };
        // An absent `resultType` reads as "complete": the spec's prose ("treat the
        // absent field as `complete`"), which the types follow; 2026-07-28's
        // schema.json makes it required.
        if let Some(defs) = root[defs_key].as_object_mut() {
            for def in defs.values_mut() {
                if let Some(required) = def.get_mut("required").and_then(serde_json::Value::as_array_mut) {
                    required.retain(|r| r != "resultType");
                }
            }
        }
        for item in rev.items.values() {
            let ItemKind::Union(u) = &item.kind else { continue };
            let Some(sel) = u.selector() else { continue };
            for (value, k) in &sel.tags {
                let Type::Named(member) = &u.variants[*k].ty else { continue };
                if let Some(def) = root[defs_key].get_mut(member.as_str()) {
                    let original = def.take();
                    *def = serde_json::json!({ "allOf": [original, { "properties": { sel.field.clone(): { "const": value } } }] });
                }
            }
        }
        // schema.json's `JSONValue` drops two of schema.ts's members (`null`, and
        // `number` becomes `integer`): schema.ts wins, as everywhere here.
        if let Some(def) = root[defs_key].get_mut("JSONValue")
            && def.get("anyOf").is_some()
        {
            *def = serde_json::json!({ "anyOf": [
                { "$ref": format!("#/{defs_key}/JSONObject") },
                { "type": "array", "items": { "$ref": format!("#/{defs_key}/JSONValue") } },
                { "type": ["string", "number", "boolean", "null"] }
            ] });
        }
        SchemaJson { root, defs_key, validators: Default::default() }
    }

    /// True when the definition `name` (its `allOf` parts and `$ref`s followed)
    /// lists the property `key`.
    pub fn declares(&self, name: &str, key: &str) -> bool {
        fn has(root: &serde_json::Value, defs_key: &str, schema: &serde_json::Value, key: &str, depth: usize) -> bool {
            if depth > 16 {
                return false;
            }
            if let Some(r) = schema.get("$ref").and_then(serde_json::Value::as_str) {
                let name = r.rsplit('/').next().unwrap_or("");
                return root[defs_key].get(name).is_some_and(|d| has(root, defs_key, d, key, depth + 1));
            }
            schema.get("properties").and_then(|p| p.get(key)).is_some()
                || ["allOf", "anyOf", "oneOf"].iter().any(|k| {
                    schema
                        .get(*k)
                        .and_then(serde_json::Value::as_array)
                        .is_some_and(|parts| parts.iter().any(|p| has(root, defs_key, p, key, depth + 1)))
                })
        }
        self.root[self.defs_key].get(name).is_some_and(|d| has(&self.root, self.defs_key, d, key, 0))
    }

    /// True when the schema.json part that types the item `owner` of `rev` (a
    /// definition, or for an inline type the place in its parent's definition)
    /// lists the property `key`; `None` when there is no such part.
    pub fn owner_declares(&self, rev: &mcp_spec_codegen::model::Revision, owner: &str, key: &str) -> Option<bool> {
        use mcp_spec_codegen::model::{PathStep, parse_path};
        if self.defines(owner) {
            return Some(self.declares(owner, key));
        }
        let item = rev.item(owner)?;
        let (head, steps) = parse_path(&rev.path_of(item))?;
        let mut schema = self.root[self.defs_key].get(&head)?.clone();
        for step in steps {
            schema = self.flatten(&schema);
            schema = match step {
                PathStep::Member(m) => schema.get("properties")?.get(&m)?.clone(),
                PathStep::Items => schema.get("items")?.clone(),
                PathStep::Values => schema.get("additionalProperties")?.clone(),
                PathStep::Variant(_) => return None,
            };
        }
        let schema = self.flatten(&schema);
        Some(schema.get("properties").and_then(|p| p.get(key)).is_some())
    }

    /// A schema with its `$ref` followed and the properties of its `allOf` parts merged.
    fn flatten(&self, schema: &serde_json::Value) -> serde_json::Value {
        let mut s = schema.clone();
        for _ in 0..16 {
            match s.get("$ref").and_then(serde_json::Value::as_str) {
                Some(r) => {
                    s = self.root[self.defs_key].get(r.rsplit('/').next().unwrap_or("")).cloned().unwrap_or_default()
                }
                None => break,
            }
        }
        if let Some(parts) = s.get("allOf").and_then(serde_json::Value::as_array).cloned() {
            let mut props = serde_json::Map::new();
            for p in parts {
                if let Some(ps) = self.flatten(&p).get("properties").and_then(serde_json::Value::as_object) {
                    props.extend(ps.clone());
                }
            }
            return serde_json::json!({"properties": props});
        }
        s
    }

    /// True when schema.json defines `name`.
    pub fn defines(&self, name: &str) -> bool {
        self.root[self.defs_key].get(name).is_some()
    }

    /// The validation errors of `value` as an instance of the definition `name`
    /// (empty when valid).
    pub fn errors(&self, name: &str, value: &serde_json::Value) -> Vec<String> {
        let validator = self
            .validators
            .borrow_mut()
            .entry(name.to_string())
            .or_insert_with(|| {
                let mut root = self.root.clone();
                let r = format!("#/{}/{name}", self.defs_key);
                root.as_object_mut().unwrap().insert("allOf".into(), serde_json::json!([{ "$ref": r }]));
                std::rc::Rc::new(
                    jsonschema::validator_for(&root)
                        .unwrap_or_else(|e| panic!("schema.json does not compile for {name}: {e}")),
                )
            })
            .clone();
        validator.iter_errors(value).map(|e| format!("{}: {e}", e.instance_path())).collect()
    }
}

/// What a value read as a type is made of, as our types read it: the member each
/// union chose on the way down, and the members no type names (kept in `extra`).
#[derive(Debug, Default)]
pub struct Reading {
    /// `(path, union, member, the value there)`, in document order.
    pub choices: Vec<(String, String, String, serde_json::Value)>,
    /// Members kept as unknown, at any depth: (path, the struct read there, key).
    pub extras: Vec<(String, String, String)>,
    /// Members a struct admits through its index signature (`[key: string]: T`):
    /// the generated code keeps them with the unknown ones. (path, struct, key).
    pub indexed: Vec<(String, String, String)>,
    /// Unions that could not choose, with their error.
    pub errors: Vec<(String, String)>,
}

impl Reading {
    /// The member chosen at each union, one line each: `result = CallToolResult`.
    pub fn member_lines(&self) -> Vec<String> {
        self.choices
            .iter()
            .map(|(path, _, member, _)| format!("{} = {member}", if path.is_empty() { "." } else { path }))
            .collect()
    }
}

/// Walks `value` as `ty` of `rev` the way the generated types read it: each union
/// chooses with the generated code (its `SCHEMA_TYPES` entry), each object's keys
/// are matched to its members.
pub fn reading(
    rev: &mcp_spec_codegen::model::Revision,
    ty: &mcp_spec_codegen::model::Type,
    value: &serde_json::Value,
) -> Reading {
    let mut out = Reading::default();
    walk(rev, types_of(&rev.name), ty, value, "", &mut out, 0);
    out
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

fn walk(
    rev: &mcp_spec_codegen::model::Revision,
    table: &[mcp_spec_types::rt::TypeEntry],
    ty: &mcp_spec_codegen::model::Type,
    v: &serde_json::Value,
    path: &str,
    out: &mut Reading,
    depth: usize,
) {
    use mcp_spec_codegen::model::{ItemKind, Type};
    if depth > 64 {
        return;
    }
    match ty {
        Type::Nullable(t) if !v.is_null() => walk(rev, table, t, v, path, out, depth + 1),
        Type::Array(t) => {
            for (i, item) in v.as_array().into_iter().flatten().enumerate() {
                walk(rev, table, t, item, &format!("{path}[{i}]"), out, depth + 1);
            }
        }
        Type::Map(t) => {
            for (k, item) in v.as_object().into_iter().flatten() {
                walk(rev, table, t, item, &join(path, k), out, depth + 1);
            }
        }
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Alias(t)) => walk(rev, table, t, v, path, out, depth + 1),
            Some(ItemKind::Struct(s)) => {
                for (k, item) in v.as_object().into_iter().flatten() {
                    match (s.field(k), &s.index) {
                        (Some(f), _) if f.role.fixed().is_none() => {
                            walk(rev, table, &f.ty, item, &join(path, k), out, depth + 1)
                        }
                        (Some(_), _) => {}
                        (None, Some(index)) => {
                            out.indexed.push((join(path, k), n.clone(), k.clone()));
                            walk(rev, table, index, item, &join(path, k), out, depth + 1)
                        }
                        (None, None) => out.extras.push((join(path, k), n.clone(), k.clone())),
                    }
                }
            }
            Some(ItemKind::Union(u)) => {
                let choose = table
                    .iter()
                    .find(|t| t.name == n)
                    .and_then(|t| t.choose)
                    .unwrap_or_else(|| panic!("{n} has no chooser"));
                match choose(v.clone()) {
                    Ok(member) => {
                        out.choices.push((path.to_string(), n.clone(), member.to_string(), v.clone()));
                        if let Some(var) = u.variants.iter().find(|var| var.name == member) {
                            walk(rev, table, &var.ty, v, path, out, depth + 1);
                        }
                    }
                    Err(e) => out.errors.push((path.to_string(), e)),
                }
            }
            _ => {}
        },
        _ => {}
    }
}

/// Values of `name` in `rev`: only its required members and all of them, each
/// with the unions and enums below taking each of their members and values in
/// turn; and the spec's examples of the type, where the revision has them.
pub fn values_of(
    rev: &mcp_spec_codegen::model::Revision,
    name: &str,
    examples: &std::collections::BTreeMap<String, Vec<serde_json::Value>>,
) -> Vec<serde_json::Value> {
    use mcp_spec_codegen::model::{ItemKind, Type};
    use mcp_spec_codegen::sample::{Fill, sample_turn};
    let ty = Type::Named(name.to_string());
    let mut out: Vec<serde_json::Value> = Vec::new();
    // Turns enough for the top type's every member or value.
    let top = match rev.item(name).map(|i| &i.kind) {
        Some(ItemKind::Union(u)) => u.variants.len(),
        Some(ItemKind::Enum(e)) => e.values.len(),
        _ => 0,
    };
    for fill in [Fill::Required, Fill::All] {
        for turn in 0..top.max(8) {
            let v = sample_turn(rev, &ty, fill, turn);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out.extend(examples.get(name).into_iter().flatten().cloned());
    out
}

pub fn examples_by_type(
    rev: &mcp_spec_codegen::model::Revision,
) -> std::collections::BTreeMap<String, Vec<serde_json::Value>> {
    let mut out: std::collections::BTreeMap<String, Vec<serde_json::Value>> = Default::default();
    for (name, dir) in crate::example_revisions() {
        if name != rev.name {
            continue;
        }
        for (type_name, _, value) in crate::examples_of(&dir) {
            out.entry(type_name).or_default().push(value);
        }
    }
    out
}

/// The revisions of the spec inputs that have example messages, with their folder.
pub fn example_revisions() -> Vec<(String, PathBuf)> {
    let schema = spec_dir().join("schema");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&schema)
        .unwrap_or_else(|e| panic!("{}: {e}", schema.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("examples").is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p.join("examples")))
        .collect();
    out.sort();
    out
}

/// Every example of a revision: (type name from the folder, file, its value).
pub use mcp_spec_testkit::examples_of;

/// A crate outside the workspace that depends on the generated one as a user's
/// would: in `target/downstream/<name>`, with `main.rs` as given and the
/// revision features listed (no others: not `serde_json/preserve_order`). It
/// shares one target folder with the other downstream crates and the workspace's
/// lock file (so the same versions, and nothing to fetch that the workspace did
/// not). Returns cargo's output for `command` (`check`, `run`, `build`).
pub fn downstream(name: &str, features: &[&str], main_rs: &str, command: &str) -> std::process::Output {
    downstream_with(name, features, &[], main_rs, command)
}

/// [`downstream`], with `serde_json` features of the downstream crate's own (which
/// Cargo turns on for the types crate too).
pub fn downstream_with(
    name: &str,
    features: &[&str],
    serde_json_features: &[&str],
    main_rs: &str,
    command: &str,
) -> std::process::Output {
    downstream_of(&workspace_root().join("generated"), name, features, serde_json_features, main_rs, command)
}

/// Gives the crate at `dir` (a workspace of its own) the root lock, pruned to
/// what it uses: copied, then resolved offline (nothing fetched, no version
/// moved), then checked to pin only versions the root lock pins. Every cargo
/// call there after runs `--locked --offline` against it.
pub fn lock_like_root(dir: &Path) -> Result<(), String> {
    let root = workspace_root().join("Cargo.lock");
    std::fs::copy(&root, dir.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--offline", "--quiet", "--format-version", "1"])
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("cargo metadata in {}: {}", dir.display(), String::from_utf8_lossy(&out.stderr)));
    }
    let pinned = |path: &Path| -> Result<std::collections::BTreeSet<(String, String)>, String> {
        #[derive(serde::Deserialize)]
        struct Lock {
            package: Vec<Package>,
        }
        #[derive(serde::Deserialize)]
        struct Package {
            name: String,
            version: String,
            source: Option<String>,
        }
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let lock: Lock = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        // Each package fetched from a registry (a `source`), by name and version;
        // the crates of a path (this one, the workspace's) have none.
        Ok(lock.package.into_iter().filter(|p| p.source.is_some()).map(|p| (p.name, p.version)).collect())
    };
    let (here, all) = (pinned(&dir.join("Cargo.lock"))?, pinned(&root)?);
    let new: Vec<String> = here.difference(&all).map(|(n, v)| format!("{n} {v}")).collect();
    if here.len() < 10 || !new.is_empty() {
        return Err(format!(
            "the lock of {} ({} packages) pins what the root's does not: {new:?}",
            dir.display(),
            here.len()
        ));
    }
    Ok(())
}

/// [`downstream_with`], depending on the types crate at `types` (one generated
/// elsewhere, with `--out`).
pub fn downstream_of(
    types: &Path,
    name: &str,
    features: &[&str],
    serde_json_features: &[&str],
    main_rs: &str,
    command: &str,
) -> std::process::Output {
    let root = workspace_root();
    let base = root.join("target/downstream");
    let dir = base.join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let quoted = |list: &[&str]| list.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>().join(", ");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nmcp-spec-types = {{ path = {:?}, default-features = false, features = [{}] }}\n\
             serde_json = {{ version = \"1\", features = [{}] }}\n\n[workspace]\n",
            types.display().to_string(),
            quoted(features),
            quoted(serde_json_features)
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), main_rs).unwrap();
    lock_like_root(&dir).unwrap_or_else(|e| panic!("{e}"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    std::process::Command::new(cargo)
        .args([command, "--locked", "--offline", "--quiet", "--message-format", "short"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", base.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

pub use mcp_spec_testkit::peers;
#[path = "support/transcript.rs"]
pub mod transcript;

/// JSON equality, numbers compared as numbers: `1.0` and `1` are one number.
/// The generated types write a whole `f64` without a fraction (so `50` stays
/// `50`); a peer that writes `1.0` gets `1` back, the same JSON number.
pub fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64().is_some_and(|x| y.as_f64() == Some(x)),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// What [`model_agreement`] found.
pub struct Agreement {
    /// Inputs tried.
    pub checked: usize,
    /// Of them, the ones the generated code rejects.
    pub rejected: usize,
    /// Each input on which the model and the generated code disagree.
    pub failures: Vec<String>,
}

/// Checks the model's account of reading (`rule::reads`, and `rule::choose` for
/// unions) against the generated code's `types` of `rev`, for every type of the
/// table: on samples of the type (both fills, three turns below the top) and on
/// near misses of each (a member dropped, or its value replaced by one of each
/// JSON kind, by numbers at the edges of what an integer is, or by its own
/// nearest wrong value; at the top and one object below), and on each of those
/// wrong values as the whole input.
pub fn model_agreement(rev: &mcp_spec_codegen::model::Revision, types: &[mcp_spec_types::rt::TypeEntry]) -> Agreement {
    use mcp_spec_codegen::model::{ItemKind, Type};
    use mcp_spec_codegen::rule;
    use mcp_spec_codegen::sample::{Fill, sample_turn};
    use serde_json::{Value, json};

    // Every JSON kind, and numbers at the edges of what an integer is: whole
    // floats, negative ones, one too large for `i64`, one that is only a `u64`.
    let wrong_values = [
        json!(null),
        json!(true),
        json!("x"),
        json!(7),
        json!(7.0),
        json!(-7.0),
        json!(1.5),
        json!(1e300),
        json!(u64::MAX),
        json!([]),
        json!({}),
    ];
    // The value `v` turned into its nearest neighbours: an integer as the same
    // number written as a float and the next one, a boolean negated, a string
    // lengthened (a fixed member's value is then one step from the right one).
    let neighbours = |v: &Value| -> Vec<Value> {
        match v {
            Value::Number(n) if n.is_i64() => {
                let i = n.as_i64().unwrap_or_default();
                vec![json!(i as f64), json!(i.wrapping_add(1))]
            }
            Value::Bool(b) => vec![json!(!b)],
            Value::String(s) => vec![json!(format!("{s}x"))],
            _ => Vec::new(),
        }
    };
    // Every variant of `v` one step away at the object `at` (a path of keys).
    let near = |v: &Value, at: &[String]| -> Vec<Value> {
        let mut out = Vec::new();
        let Some(Value::Object(m)) = at.iter().try_fold(v, |cur, k| cur.get(k.as_str())) else { return out };
        for key in m.keys() {
            let mut edits: Vec<Option<Value>> = vec![None];
            edits.extend(wrong_values.iter().cloned().map(Some));
            edits.extend(neighbours(&m[key]).into_iter().map(Some));
            for edit in edits {
                let mut copy = v.clone();
                let Some(Value::Object(target)) = at.iter().try_fold(&mut copy, |cur, k| cur.get_mut(k.as_str()))
                else {
                    continue;
                };
                match edit {
                    None => drop(target.shift_remove(key)),
                    Some(w) => drop(target.insert(key.clone(), w)),
                }
                out.push(copy);
            }
        }
        out
    };
    let mut out = Agreement { checked: 0, rejected: 0, failures: Vec::new() };
    for item in rev.items.values() {
        let Some(entry) = types.iter().find(|t| t.name == item.name) else { continue };
        let ty = Type::Named(item.name.clone());
        // One of each JSON kind as the whole input, then samples and their near misses.
        let mut inputs: std::collections::BTreeSet<String> = wrong_values.iter().map(Value::to_string).collect();
        for fill in [Fill::Required, Fill::All] {
            for turn in 0..3 {
                let sample = sample_turn(rev, &ty, fill, turn);
                inputs.insert(sample.to_string());
                let mut places = vec![Vec::new()];
                if let Value::Object(m) = &sample {
                    places.extend(m.iter().filter(|(_, v)| v.is_object()).map(|(k, _)| vec![k.clone()]));
                }
                for at in &places {
                    inputs.extend(near(&sample, at).iter().map(Value::to_string));
                }
            }
        }
        for text in &inputs {
            let value: Value = serde_json::from_str(text).unwrap();
            let generated = (entry.read)(text);
            let model = rule::reads(rev, &ty, &value);
            out.checked += 1;
            out.rejected += usize::from(generated.is_err());
            if let (ItemKind::Union(u), Some(choose)) = (&item.kind, entry.choose) {
                let by_model = rule::choose(rev, u, &value).map(|i| u.variants[i].name.as_str());
                let by_generated = choose(value.clone()).ok();
                if by_model != by_generated {
                    out.failures.push(format!(
                        "{} {}: the model chooses {by_model:?}, the generated code {by_generated:?}: {text}",
                        rev.name, item.name
                    ));
                }
            }
            if model != generated.is_ok() {
                out.failures.push(format!(
                    "{} {}: the model says {}, the generated code {}: {text}",
                    rev.name,
                    item.name,
                    if model { "it reads" } else { "it does not read" },
                    match &generated {
                        Ok(()) => "reads it".to_string(),
                        Err(e) => format!("does not ({e})"),
                    }
                ));
            }
        }
    }
    out
}

/// The extensions manifest (`codegen/extensions.toml`), named: an extension
/// of it that does not generate (its files missing) is an error in the tests.
pub fn ext_manifest() -> mcp_spec_codegen::extension::ManifestFile {
    let path = workspace_root().join(mcp_spec_codegen::extension::manifest::DEFAULT_MANIFEST);
    assert!(path.is_file(), "{} is missing", path.display());
    mcp_spec_codegen::extension::ManifestFile { path, named: true }
}

/// The extensions folder, found as the tools find it (`MCP_EXT_DIR`, then the
/// repository's pinned copy, `spec/ext`). Panics with what was looked for
/// when it is missing.
pub fn ext_dir() -> PathBuf {
    match mcp_spec_codegen::extension::locate_ext_dir(None, &workspace_root()) {
        Ok(Some(d)) => d.path,
        Ok(None) => panic!(
            "the extension inputs are missing: no MCP_EXT_DIR, and {} is not a folder",
            workspace_root().join(mcp_spec_codegen::extension::DEFAULT_EXT_DIR).display()
        ),
        Err(d) => panic!("the extension inputs are missing:\n{}", d.render()),
    }
}

/// The named types reachable from `name` in `rev`, itself included, with the
/// bases of each struct (whose members it has) and, for an inline type, the
/// declared type it sits in (the diff names its changes by that one's path).
pub fn closure(rev: &Revision, name: &str) -> BTreeSet<String> {
    fn named(t: &Type, out: &mut Vec<String>) {
        match t {
            Type::Named(n) => out.push(n.clone()),
            Type::Array(t) | Type::Map(t) | Type::Nullable(t) => named(t, out),
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(n) = todo.pop() {
        if !seen.insert(n.clone()) {
            continue;
        }
        let Some(item) = rev.item(&n) else { continue };
        let mut next = Vec::new();
        if let Origin::Inline { parent, .. } = &item.origin {
            next.push(parent.clone());
        }
        match &item.kind {
            ItemKind::Struct(s) => {
                next.extend(s.bases.iter().cloned());
                s.fields.iter().for_each(|f| named(&f.ty, &mut next));
                if let Some(ix) = &s.index {
                    named(ix, &mut next);
                }
            }
            ItemKind::Union(u) => u.variants.iter().for_each(|v| named(&v.ty, &mut next)),
            ItemKind::Alias(t) => named(t, &mut next),
            ItemKind::Enum(_) | ItemKind::Const(_) => {}
        }
        todo.extend(next);
    }
    seen
}

/// Every member name a struct that a value of `name` may hold declares.
pub fn declared_names(rev: &Revision, name: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for held in closure(rev, name) {
        if let Some(ItemKind::Struct(s)) = rev.item(&held).map(|i| &i.kind) {
            out.extend(s.fields.iter().map(|f| f.wire.clone()));
        }
    }
    out
}

/// A value of each JSON kind.
fn json_kinds() -> [Value; 6] {
    [
        Value::Null,
        Value::Bool(true),
        serde_json::json!(5),
        serde_json::json!("x"),
        serde_json::json!([]),
        serde_json::json!({}),
    ]
}

/// Values near `v`: each member's value replaced by a value of each JSON kind,
/// and each object given one member more, named as a member of the reader's
/// revision (`names`), of each kind. What a writer's types accept of them is
/// what it may send: a probe of what its open members (`{ [key: string]:
/// unknown }`, `unknown`) let through, which samples of the types alone never
/// hold.
pub fn probes(v: &Value, names: &BTreeSet<String>) -> Vec<Value> {
    let mut out = Vec::new();
    let mut put = |at: &mut dyn FnMut(&mut Value)| {
        let mut w = v.clone();
        at(&mut w);
        out.push(w);
    };
    let pointers = object_pointers(v, String::new());
    for p in &pointers {
        let Some(Value::Object(m)) = v.pointer(p) else { continue };
        for key in m.keys() {
            for k in json_kinds() {
                let member = format!("{p}/{}", key.replace('~', "~0").replace('/', "~1"));
                put(&mut |w: &mut Value| {
                    if let Some(slot) = w.pointer_mut(&member) {
                        *slot = k.clone();
                    }
                });
            }
        }
        for name in names.iter().filter(|n| !m.contains_key(*n)) {
            for k in json_kinds() {
                put(&mut |w: &mut Value| {
                    if let Some(Value::Object(m)) = w.pointer_mut(p) {
                        m.insert(name.clone(), k.clone());
                    }
                });
            }
        }
    }
    out
}

/// The JSON pointers of every object in `v`.
fn object_pointers(v: &Value, at: String) -> Vec<String> {
    let mut out = Vec::new();
    match v {
        Value::Object(m) => {
            out.push(at.clone());
            for (k, x) in m {
                out.extend(object_pointers(x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"))));
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                out.extend(object_pointers(x, format!("{at}/{i}")));
            }
        }
        _ => {}
    }
    out
}

/// What a peer client's run counted, from its `checks: N passed, M skipped: a; b`
/// line (`tests/peers/node/checks.mjs`, `tests/peers/python/peer_common.py`):
/// the checks that passed, and those it did not run, each with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checks {
    pub passed: usize,
    pub skipped: Vec<String>,
}

impl Checks {
    /// `passed` checks, none skipped.
    pub fn all(passed: usize) -> Checks {
        Checks { passed, skipped: Vec::new() }
    }

    /// `passed` checks, and those `skipped` (their names as the client prints them).
    pub fn skipping(passed: usize, skipped: &[&str]) -> Checks {
        Checks { passed, skipped: skipped.iter().map(|s| s.to_string()).collect() }
    }

    /// The counts a client printed; `None` when it printed none.
    pub fn of(stdout: &str) -> Option<Checks> {
        let line = stdout.lines().rev().find_map(|l| l.strip_prefix("checks: "))?;
        let (passed, rest) = line.split_once(" passed, ")?;
        let (count, names) = rest.split_once(" skipped").unwrap_or((rest, ""));
        let skipped: Vec<String> =
            names.strip_prefix(": ").map(|n| n.split("; ").map(str::to_string).collect()).unwrap_or_default();
        (count.parse::<usize>().ok()? == skipped.len()).then_some(Checks { passed: passed.parse().ok()?, skipped })
    }

    /// Asserts that a client's run (`stdout`) counted exactly these checks: a
    /// check skipped that should have run (a capability lost on the way) fails,
    /// as does a run that checked less.
    pub fn assert_run(&self, name: &str, stdout: &str) {
        let found =
            Checks::of(stdout).unwrap_or_else(|| panic!("{name}: the client printed no `checks:` line:\n{stdout}"));
        assert_eq!(&found, self, "{name}: the checks the client ran and skipped");
    }
}
