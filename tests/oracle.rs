//! The diff's verdicts, proven by behaviour: for every pair of revisions (not
//! only adjacent ones), values of each type read with the other revision's
//! generated types (wire), and uses of OLD's items compiled against NEW's module
//! (api, `api_verdicts_match_what_compiles`). A verdict the behaviour contradicts
//! is a disagreement, listed with the change, the value or code, and the error.

use std::collections::{BTreeMap, BTreeSet};

use mcp_spec_codegen::Spec;
use mcp_spec_codegen::diff::{Change, ChangeId, Diff, Wire, diff};
use mcp_spec_codegen::model::{ItemKind, Origin, Revision, Type};
use mcp_spec_codegen::sample::{Fill, sample_turn};
use mcp_spec_tests as support;
use mcp_spec_types::rt::TypeEntry;
use serde_json::Value;

fn real_spec() -> Spec {
    mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render())).0
}

/// Every pair of revisions, older first; a revision whose model is an earlier
/// one's (`draft` today: no change between them, checked here) stands for
/// that one, so its pairs are that one's and are not checked twice.
fn pairs(spec: &Spec) -> Vec<(&Revision, &Revision)> {
    let mut r: Vec<&Revision> = Vec::new();
    for rev in &spec.revisions {
        match r.iter().find(|earlier| diff(earlier, rev).changes.is_empty()) {
            Some(same) => eprintln!("{} has {}'s model: its pairs are {}'s", rev.name, same.name, same.name),
            None => r.push(rev),
        }
    }
    (0..r.len()).flat_map(|i| (i + 1..r.len()).map(|j| (r[i], r[j])).collect::<Vec<_>>()).collect()
}

/// The named type a change is about: its path's first segment.
fn root_of(path: &str) -> &str {
    path.split(['.', '|', '@']).next().unwrap_or(path)
}

/// The named types reachable from `name` in `rev`, itself included, with the
/// bases of each struct (whose members it has) and, for an inline type, the
/// declared type it sits in (the diff names its changes by that one's path).
fn closure(rev: &Revision, name: &str) -> BTreeSet<String> {
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

/// Values of `name` in `rev`: only its required members and all of them, each
/// with the unions and enums below taking each of their members and values in
/// turn; and the spec's examples of the type, where the revision has them.
fn values_of(rev: &Revision, name: &str, examples: &BTreeMap<String, Vec<Value>>) -> Vec<Value> {
    let ty = Type::Named(name.to_string());
    let mut out: Vec<Value> = Vec::new();
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

fn examples(rev: &Revision) -> BTreeMap<String, Vec<Value>> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (name, dir) in support::example_revisions() {
        if name != rev.name {
            continue;
        }
        for (type_name, _, value) in support::examples_of(&dir) {
            out.entry(type_name).or_default().push(value);
        }
    }
    out
}

/// What one pair's wire check found.
#[derive(Default)]
struct WireTally {
    /// Types read both ways.
    types: usize,
    /// Changes whose breaking verdict was tried against values.
    breaking_checked: usize,
    disagreements: Vec<String>,
}

fn reads(entry: &TypeEntry, v: &Value) -> Result<(), String> {
    (entry.read)(&v.to_string())
}

/// Every member name a struct that a value of `name` may hold declares.
fn declared_names(rev: &Revision, name: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for held in closure(rev, name) {
        if let Some(ItemKind::Struct(s)) = rev.item(&held).map(|i| &i.kind) {
            out.extend(s.fields.iter().map(|f| f.wire.clone()));
        }
    }
    out
}

/// A value of each JSON kind.
fn kinds() -> [Value; 6] {
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
fn probes(v: &Value, names: &BTreeSet<String>) -> Vec<Value> {
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
            for k in kinds() {
                let member = format!("{p}/{}", key.replace('~', "~0").replace('/', "~1"));
                put(&mut |w: &mut Value| {
                    if let Some(slot) = w.pointer_mut(&member) {
                        *slot = k.clone();
                    }
                });
            }
        }
        for name in names.iter().filter(|n| !m.contains_key(*n)) {
            for k in kinds() {
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

/// A value `writer` reads and `reader` rejects, among `values` and their probes.
fn shown_break(writer: &TypeEntry, reader: &TypeEntry, values: &[Value], names: &BTreeSet<String>) -> Option<Value> {
    values.iter().flat_map(|v| probes(v, names)).find(|p| reads(writer, p).is_ok() && reads(reader, p).is_err())
}

fn wire_check(old: &Revision, new: &Revision, d: &Diff) -> WireTally {
    let mut tally = WireTally::default();
    let (old_types, new_types) = (support::types_of(&old.name), support::types_of(&new.name));
    let entry = |types: &'static [TypeEntry], name: &str| types.iter().find(|e| e.name == name);
    let renamed: BTreeMap<&str, &str> = d
        .changes
        .iter()
        .filter(|c| c.id == ChangeId::TypeRenamed)
        .filter_map(|c| Some((c.path.as_str(), c.old.as_deref()?)))
        .collect();
    let old_name = |new_name: &str| renamed.get(new_name).copied().unwrap_or(new_name).to_string();
    let (old_examples, new_examples) = (examples(old), examples(new));
    // The types of each side the changes are about, under NEW's names.
    let breaking = |c: &Change, side: Wire| c.wire == side || c.wire == Wire::Both;
    for item in new.items.values() {
        let (Some(new_entry), Some(old_entry)) =
            (entry(new_types, &item.name), entry(old_types, &old_name(&item.name)))
        else {
            continue;
        };
        tally.types += 1;
        // The changes that touch any type this one holds, on either side.
        let mut held = closure(new, &item.name);
        held.extend(closure(old, &old_name(&item.name)));
        let touching: Vec<&Change> = d
            .changes
            .iter()
            .filter(|c| held.contains(root_of(&c.path)) || held.contains(&old_name(root_of(&c.path))))
            .collect();
        let claims_old_readers = touching.iter().any(|c| breaking(c, Wire::OldReaders));
        let claims_old_writers = touching.iter().any(|c| breaking(c, Wire::OldWriters));
        // NEW's values, each one its own revision reads, read by OLD; and back.
        let new_values: Vec<Value> =
            values_of(new, &item.name, &new_examples).into_iter().filter(|v| reads(new_entry, v).is_ok()).collect();
        let old_values: Vec<Value> = values_of(old, &old_name(&item.name), &old_examples)
            .into_iter()
            .filter(|v| reads(old_entry, v).is_ok())
            .collect();
        let old_rejects: Vec<(Value, String)> =
            new_values.iter().filter_map(|v| reads(old_entry, v).err().map(|e| (v.clone(), e))).collect();
        let new_rejects: Vec<(Value, String)> =
            old_values.iter().filter_map(|v| reads(new_entry, v).err().map(|e| (v.clone(), e))).collect();
        let pair = format!("{} -> {}", old.name, new.name);
        if let (false, Some((v, e))) = (claims_old_readers, old_rejects.first()) {
            tally.disagreements.push(format!(
                "{pair} {}: no change it holds breaks old readers, yet {} rejects {v}: {e}",
                item.name, old.name
            ));
        }
        if let (false, Some((v, e))) = (claims_old_writers, new_rejects.first()) {
            tally.disagreements.push(format!(
                "{pair} {}: no change it holds breaks old writers, yet {} rejects {v}: {e}",
                item.name, new.name
            ));
        }
        // Each change of this very type that breaks a side: some value shows it,
        // a sample or a probe near one.
        let mut shown_old_readers = None;
        let mut shown_old_writers = None;
        for c in d.changes.iter().filter(|c| root_of(&c.path) == item.name && c.wire != Wire::None) {
            tally.breaking_checked += 1;
            if breaking(c, Wire::OldReaders) && old_rejects.is_empty() && !new_values.is_empty() {
                let shown = shown_old_readers.get_or_insert_with(|| {
                    shown_break(new_entry, old_entry, &new_values, &declared_names(old, &old_name(&item.name)))
                        .is_some()
                });
                if *shown {
                    continue;
                }
                tally.disagreements.push(format!(
                    "{pair} `{}` {}: called breaking for old readers, but {} reads all {} values of {} made by {}",
                    c.id,
                    c.path,
                    old.name,
                    new_values.len(),
                    item.name,
                    new.name
                ));
            }
            if breaking(c, Wire::OldWriters) && new_rejects.is_empty() && !old_values.is_empty() {
                let shown = shown_old_writers.get_or_insert_with(|| {
                    shown_break(old_entry, new_entry, &old_values, &declared_names(new, &item.name)).is_some()
                });
                if *shown {
                    continue;
                }
                tally.disagreements.push(format!(
                    "{pair} `{}` {}: called breaking for old writers, but {} reads all {} values of {} made by {}",
                    c.id,
                    c.path,
                    new.name,
                    old_values.len(),
                    old_name(&item.name),
                    old.name
                ));
            }
        }
    }
    tally
}

#[test]
fn wire_verdicts_match_what_the_other_revisions_types_read() {
    let spec = real_spec();
    let mut report = String::new();
    let mut disagreements = Vec::new();
    for (old, new) in pairs(&spec) {
        let d = diff(old, new);
        let tally = wire_check(old, new, &d);
        report.push_str(&format!(
            "{} -> {}: {} changes, {} types read both ways, {} breaking changes tried, {} disagreements\n",
            old.name,
            new.name,
            d.changes.len(),
            tally.types,
            tally.breaking_checked,
            tally.disagreements.len()
        ));
        disagreements.extend(tally.disagreements);
    }
    eprintln!("{report}");
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
}
