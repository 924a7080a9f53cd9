//! Every example message of the spec, read as the type its folder names, judged
//! by what it means and not only by its bytes:
//!
//! - the member each union chose on the way down, listed per revision in a
//!   reviewed golden file (`tests/fixtures/members/<revision>.txt`), and checked
//!   against upstream's schema.json: a chosen member's definition must accept the
//!   value it was chosen for;
//! - nothing is kept as an unknown member: the schema describes every example
//!   fully, so a member read into `extra` is a misread;
//! - it writes back equal;
//! - an example that upstream's own schema.json rejects must be rejected too,
//!   with an error naming the member and the path (upstream has such examples).
//!
//! And its near misses: each required member dropped in turn at the top, and the
//! first required member of every object below; each must be an error that says
//! what was missing, in which member of each union on the way, and where, unless
//! schema.json accepts the result as well (then it is no near miss).

use mcp_spec_codegen::model::{ItemKind, Revision, Type};
use mcp_spec_tests::{self as support, SchemaJson, reading};
use serde_json::Value;

fn spec() -> mcp_spec_codegen::Spec {
    mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render())).0
}

fn relative(file: &std::path::Path) -> String {
    let n = file.components().count();
    file.components().skip(n.saturating_sub(2)).map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[test]
fn every_example_reads_as_what_it_means() {
    let spec = spec();
    let revisions = support::example_revisions();
    assert!(!revisions.is_empty(), "no revision of the spec inputs has examples");
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    let mut seen_texts: Vec<(String, Vec<String>)> = Vec::new();
    for (revision, dir) in &revisions {
        let rev = spec.revision(revision).unwrap_or_else(|| panic!("{revision} has examples but no schema"));
        let schema = SchemaJson::load(rev);
        let types = support::types_of(revision);
        let examples = support::examples_of(dir);
        let (mut read, mut rejected, mut choices) = (0, Vec::new(), 0);
        let mut golden = String::new();
        let mut failed_files = 0;
        for (type_name, file, value) in &examples {
            let before = failures.len();
            check_example(
                rev,
                &schema,
                types,
                type_name,
                file,
                value,
                &mut failures,
                &mut golden,
                &mut read,
                &mut rejected,
                &mut choices,
            );
            if failures.len() > before {
                failed_files += 1;
            }
        }
        support::assert_golden(&format!("members/{revision}.txt"), &golden);
        let texts: Vec<String> = examples.iter().map(|(_, _, v)| v.to_string()).collect();
        let same_as = seen_texts.iter().find(|(_, t)| *t == texts).map(|(r, _)| r.clone());
        seen_texts.push((revision.clone(), texts));
        summary.push(format!(
            "{revision}: {} examples, {read} read ({choices} union choices checked), {} rejected as upstream's schema.json rejects them: {rejected:?}{}",
            examples.len(),
            rejected.len(),
            same_as.map(|r| format!(" (the same messages as {r}'s)")).unwrap_or_default()
        ));
        assert_eq!(
            read + rejected.len() + failed_files,
            examples.len(),
            "{revision}: every example is read, rejected or failed"
        );
    }
    eprintln!("{}", summary.join("\n"));
    assert!(failures.is_empty(), "{} of the examples failed:\n{}", failures.len(), failures.join("\n"));
    // How many examples each revision has, and which ones repeat another's: pinned,
    // so an example that goes missing is a change to review.
    support::assert_golden("members/summary.txt", &(summary.join("\n") + "\n"));
    assert!(
        KEPT_LOGGED.load(std::sync::atomic::Ordering::Relaxed) > 0,
        "the examples have extension and index-signature members: the log must have seen some"
    );
}

/// Members the generated code kept as unknown over every example: not zero, or
/// the comparison with the model walk would prove nothing.
static KEPT_LOGGED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[allow(clippy::too_many_arguments)]
fn check_example(
    rev: &Revision,
    schema: &SchemaJson,
    types: &[mcp_spec_types::rt::TypeEntry],
    type_name: &str,
    file: &std::path::Path,
    value: &Value,
    failures: &mut Vec<String>,
    golden: &mut String,
    read: &mut usize,
    rejected: &mut Vec<String>,
    choices: &mut usize,
) {
    let revision = &rev.name;
    {
        {
            let rel = relative(file);
            let Some(entry) = types.iter().find(|t| t.name == type_name) else {
                failures.push(format!("{revision} {rel}: no generated type `{type_name}`"));
                return;
            };
            let upstream = if schema.defines(type_name) { schema.errors(type_name, value) } else { Vec::new() };
            let text = value.to_string();
            let (result, kept) = support::roundtrip_logged(entry, &text);
            match result {
                Ok(back) => {
                    let before = failures.len();
                    if !upstream.is_empty() {
                        failures.push(format!(
                            "{revision} {rel}: reads, but upstream's schema.json rejects it: {upstream:?}"
                        ));
                    }
                    if back != *value {
                        failures.push(format!(
                            "{revision} {rel}: written back differently\n  read:    {value}\n  written: {back}"
                        ));
                    }
                    let r = reading(rev, &Type::Named(type_name.to_string()), value);
                    // A member kept as unknown is a misread, unless upstream's schema
                    // does not know it either (an example's extension member).
                    let misread: Vec<&String> = r
                        .extras
                        .iter()
                        .filter(|(_, owner, key)| schema.owner_declares(rev, owner, key).unwrap_or(true))
                        .map(|(path, _, _)| path)
                        .collect();
                    if !misread.is_empty() {
                        failures.push(format!("{revision} {rel}: members kept as unknown, so misread: {misread:?}"));
                    }
                    // The generated code, not only the model, kept exactly those
                    // (and what index signatures admit) as unknown.
                    let mut expected: Vec<&str> =
                        r.extras.iter().chain(&r.indexed).map(|(_, _, key)| key.as_str()).collect();
                    KEPT_LOGGED.fetch_add(kept.len(), std::sync::atomic::Ordering::Relaxed);
                    let mut logged: Vec<&str> = kept.iter().map(String::as_str).collect();
                    expected.sort_unstable();
                    logged.sort_unstable();
                    if logged != expected {
                        failures.push(format!(
                            "{revision} {rel}: the generated code kept {logged:?} as unknown, the model walk expects {expected:?}"
                        ));
                    }
                    for (path, owner, _) in
                        r.extras.iter().filter(|(_, owner, key)| schema.defines(owner) && !schema.declares(owner, key))
                    {
                        golden.push_str(&format!(
                            "{rel}: {path} is an extension member: neither `{owner}` nor schema.json's names it\n"
                        ));
                    }
                    for (path, union, member, at) in &r.choices {
                        *choices += 1;
                        let chosen = member_type(rev, union, member);
                        if let Some(def) = chosen.filter(|d| schema.defines(d)) {
                            let errors = schema.errors(&def, at);
                            if !errors.is_empty() {
                                failures.push(format!("{revision} {rel}: `{union}` at `{path}` chose `{member}`, which schema.json says it is not: {errors:?}"));
                            }
                        }
                    }
                    for line in r.member_lines() {
                        golden.push_str(&format!("{rel}: {line}\n"));
                    }
                    if failures.len() == before {
                        *read += 1;
                    }
                }
                Err(e) if !upstream.is_empty() => {
                    // Upstream's example breaks upstream's schema: reading it must
                    // fail, and say where.
                    let tracked = (entry.read)(&text).unwrap_err();
                    golden.push_str(&format!("{rel}: rejected, as schema.json does: {tracked}\n"));
                    rejected.push(rel.clone());
                    let _ = e;
                }
                Err(e) => failures.push(format!("{revision} {rel}: schema.json accepts it, our types reject it: {e}")),
            }
        }
    }
}

/// The declared type a union's member stands for, by name.
fn member_type(rev: &Revision, union: &str, member: &str) -> Option<String> {
    let ItemKind::Union(u) = &rev.item(union)?.kind else { return None };
    match &u.variants.iter().find(|v| v.name == member)?.ty {
        Type::Named(n) => Some(n.clone()),
        _ => None,
    }
}

/// One near miss: the example with one member dropped at `path`.
struct NearMiss {
    /// Where the dropped member was: `result.content[0]`.
    parent: String,
    key: String,
    value: Value,
}

/// The members every object of `value` must have, read as `ty`: at the top all
/// of them, below the first of each object.
fn near_misses(rev: &Revision, ty: &Type, value: &Value) -> Vec<NearMiss> {
    let mut out = Vec::new();
    let r = reading(rev, ty, value);
    // The struct each object position is read as: from the type, through the
    // unions' choices.
    let mut objects: Vec<(String, String)> = Vec::new();
    collect_objects(rev, ty, value, "", &r, &mut objects, 0);
    for (path, struct_name) in objects {
        let Some(s) = rev.struct_of(&struct_name) else { continue };
        let required: Vec<&str> = s.fields.iter().filter(|f| f.must_be_present()).map(|f| f.wire.as_str()).collect();
        let take = if path.is_empty() { required.len() } else { required.len().min(1) };
        for key in required.into_iter().take(take) {
            let mut mutated = value.clone();
            if remove_at(&mut mutated, &path, key) {
                out.push(NearMiss { parent: path.clone(), key: key.to_string(), value: mutated });
            }
        }
    }
    out
}

fn collect_objects(
    rev: &Revision,
    ty: &Type,
    v: &Value,
    path: &str,
    r: &support::Reading,
    out: &mut Vec<(String, String)>,
    depth: usize,
) {
    if depth > 32 {
        return;
    }
    let join = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match ty {
        Type::Nullable(t) => collect_objects(rev, t, v, path, r, out, depth + 1),
        Type::Array(t) => {
            for (i, item) in v.as_array().into_iter().flatten().enumerate() {
                collect_objects(rev, t, item, &format!("{path}[{i}]"), r, out, depth + 1);
            }
        }
        Type::Map(t) => {
            for (k, item) in v.as_object().into_iter().flatten() {
                collect_objects(rev, t, item, &join(k), r, out, depth + 1);
            }
        }
        Type::Named(n) => match rev.item(n).map(|i| &i.kind) {
            Some(ItemKind::Alias(t)) => collect_objects(rev, t, v, path, r, out, depth + 1),
            Some(ItemKind::Struct(s)) => {
                if v.is_object() {
                    out.push((path.to_string(), n.clone()));
                }
                for (k, item) in v.as_object().into_iter().flatten() {
                    if let Some(f) = s.field(k).filter(|f| f.role.fixed().is_none()) {
                        collect_objects(rev, &f.ty, item, &join(k), r, out, depth + 1);
                    }
                }
            }
            Some(ItemKind::Union(u)) => {
                let chosen = r.choices.iter().find(|(p, un, _, _)| p == path && un == n).map(|(_, _, m, _)| m.clone());
                if let Some(var) = chosen.and_then(|m| u.variants.iter().find(|var| var.name == m)) {
                    collect_objects(rev, &var.ty, v, path, r, out, depth + 1);
                }
            }
            _ => {}
        },
        _ => {}
    }
}

/// Removes `key` from the object at `path` (`a.b[2].c`).
fn remove_at(v: &mut Value, path: &str, key: &str) -> bool {
    let mut cur = v;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (name, indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            cur = match cur.get_mut(name) {
                Some(c) => c,
                None => return false,
            };
        }
        for idx in indices.split('[').filter(|s| !s.is_empty()) {
            let i: usize = idx.trim_end_matches(']').parse().unwrap();
            cur = match cur.get_mut(i) {
                Some(c) => c,
                None => return false,
            };
        }
    }
    cur.as_object_mut().and_then(|m| m.shift_remove(key)).is_some()
}

#[test]
fn near_misses_of_every_example_are_errors_naming_the_member_and_where() {
    let spec = spec();
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for (revision, dir) in &support::example_revisions() {
        let rev = spec.revision(revision).unwrap();
        let schema = SchemaJson::load(rev);
        let types = support::types_of(revision);
        let (mut tried, mut errors, mut still_valid) = (0, 0, 0);
        let failed_before = failures.len();
        for (type_name, file, value) in support::examples_of(dir) {
            let Some(entry) = types.iter().find(|t| t.name == type_name) else { continue };
            if schema.defines(&type_name) && !schema.errors(&type_name, &value).is_empty() {
                continue; // upstream's own near miss, checked above
            }
            let ty = Type::Named(type_name.clone());
            let original = reading(rev, &ty, &value);
            for miss in near_misses(rev, &ty, &value) {
                tried += 1;
                if schema.defines(&type_name) && schema.errors(&type_name, &miss.value).is_empty() {
                    still_valid += 1;
                    continue;
                }
                let rel = relative(&file);
                match (entry.read)(&miss.value.to_string()) {
                    Ok(()) => {
                        let now = reading(rev, &ty, &miss.value).member_lines();
                        failures.push(format!(
                            "{revision} {rel}: without `{}` at `{}` it still reads, as {now:?}",
                            miss.key, miss.parent
                        ));
                    }
                    Err(e) => {
                        errors += 1;
                        // It says what is missing, the member each union on the way
                        // was read as, and the last step of the path.
                        let mut wanted = vec![format!("missing field `{}`", miss.key)];
                        for (path, union, member, _) in &original.choices {
                            if is_prefix(path, &miss.parent) {
                                // Without its discriminator a union cannot know the
                                // member: it names itself.
                                let decided_by_key =
                                    path == &miss.parent && discriminator(rev, union) == Some(miss.key.as_str());
                                wanted.push(if decided_by_key { union.clone() } else { member.clone() });
                            }
                        }
                        wanted.extend(last_steps(&miss.parent));
                        let missing: Vec<&String> = wanted.iter().filter(|w| !e.contains(w.as_str())).collect();
                        if !missing.is_empty() {
                            failures.push(format!(
                                "{revision} {rel}: without `{}` at `{}`, the error does not say {missing:?}: {e}",
                                miss.key, miss.parent
                            ));
                        }
                    }
                }
            }
        }
        assert_eq!(
            tried,
            errors + still_valid + failures.len() - failed_before,
            "{revision}: every near miss is accounted for"
        );
        summary.push(format!(
            "{revision}: {tried} near misses, {errors} errors as expected, {still_valid} valid for schema.json too"
        ));
        let examples = support::examples_of(dir).len();
        assert!(errors >= examples, "{revision}: only {errors} near misses checked, for {examples} examples");
    }
    eprintln!("{}", summary.join("\n"));
    assert!(failures.is_empty(), "{} near misses failed:\n{}", failures.len(), failures.join("\n"));
    // The counts, pinned: fewer near misses, or fewer errors among them, is a
    // change to review, not a pass.
    support::assert_golden("members/near-misses.txt", &(summary.join("\n") + "\n"));
}

/// `a` is `b` or a path above it (`result` above `result.content[0]`).
fn is_prefix(a: &str, b: &str) -> bool {
    a.is_empty() || b == a || b.strip_prefix(a).is_some_and(|rest| rest.starts_with(['.', '[']))
}

/// What an error must show of a path's last step: its key and its index
/// (`content` and `[0]` of `result.content[0]`; a union may stand between them).
fn last_steps(path: &str) -> Vec<String> {
    let Some(last) = path.rsplit('.').next().filter(|s| !s.is_empty()) else { return Vec::new() };
    let (key, index) = match last.find('[') {
        Some(i) => (&last[..i], Some(&last[i..])),
        None => (last, None),
    };
    let mut out: Vec<String> = [key].iter().filter(|k| !k.is_empty()).map(|k| k.to_string()).collect();
    if let Some(index) = index.and_then(|i| i.rsplit('[').next()) {
        out.push(format!("[{index}"));
    }
    out
}

/// The field a union is discriminated by.
fn discriminator<'a>(rev: &'a Revision, union: &str) -> Option<&'a str> {
    match &rev.item(union)?.kind {
        ItemKind::Union(u) => u.tag_field(),
        _ => None,
    }
}

/// A proxy reads a message generically and writes it on: the open objects it did
/// not look at go out as the text they came as, but on one line (a line break,
/// which JSON has only as whitespace, kept as a space), as MCP's stdio transport
/// needs, also when the input was pretty-printed (every spec example is).
#[test]
fn a_message_passed_through_is_written_on_one_line() {
    use mcp_spec_types::v2026_07_28 as m;
    let dir = support::spec_dir().join("schema/2026-07-28/examples");
    let (mut passed, mut with_breaks) = (0, 0);
    for (name, file, value) in support::examples_of(&dir) {
        if value.get("jsonrpc").is_none() {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let message: m::JSONRPCMessage = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = serde_json::to_string(&message).unwrap();
        assert!(!written.contains('\n') && !written.contains('\r'), "{name}: written over several lines:\n{written}");
        assert_eq!(serde_json::from_str::<Value>(&written).unwrap(), value, "{name}: the same message");
        // The text kept is still the text as received.
        let params = match &message {
            m::JSONRPCMessage::JSONRPCRequest(r) => r.params.as_ref(),
            m::JSONRPCMessage::JSONRPCNotification(n) => n.params.as_ref(),
            m::JSONRPCMessage::JSONRPCResponse(_) => None,
        };
        if let Some(raw) = params.and_then(|p| p.as_raw()) {
            // The text as received, each line break a space, written as kept.
            let one_line = text.replace(['\n', '\r'], " ");
            assert!(one_line.contains(raw) && written.contains(raw), "{name}: {raw}\n{written}");
            with_breaks += usize::from(!text.contains(raw));
        }
        passed += 1;
    }
    assert_eq!((passed, with_breaks), (32, 18), "messages, and of them with pretty-printed params");

    // A member the type does not name, pretty-printed, is kept on one line too; a
    // line break escaped inside a string is a string's content and stays.
    let text = "{\"resultType\": \"complete\", \"content\": [],\r\n \"x-vendor\": {\n  \"note\": \"a\\nb\",\n  \"n\": [1,\n 2]\n}}";
    let result: m::CallToolResult = serde_json::from_str(text).unwrap();
    assert_eq!(result.extra.get_raw("x-vendor"), Some("{   \"note\": \"a\\nb\",   \"n\": [1,  2] }"));
    assert_eq!(result.extra["x-vendor"]["note"], "a\nb");
    let written = serde_json::to_string(&result).unwrap();
    assert!(!written.contains('\n'), "{written}");
    assert_eq!(serde_json::from_str::<Value>(&written).unwrap(), serde_json::from_str::<Value>(text).unwrap());
}
