//! The typed diff of two revisions: every difference between their models, each
//! with a stable id and two verdicts, in the spirit of `buf breaking` and
//! cargo-semver-checks. Read from the models, never from emitted code.
//!
//! # Change ids
//!
//! | id | what changed | wire | api |
//! |---|---|---|---|
//! | `type-added` | a declared type is new | none | none |
//! | `type-removed` | a declared type is gone | none (its uses are changes of their own) | breaks |
//! | `type-renamed` | a removed and an added type whose shapes mostly match (rule below) | none | breaks |
//! | `type-kind-changed` | object ↔ union ↔ enum ↔ alias | judged | breaks |
//! | `type-bases-changed` | the `extends` list | the worst of the members it brings (each listed as a change of the type, "through" the base) | breaks struct literals when the members it brings add or remove fields (a member retyped is its own change) |
//! | `alias-changed` | what an alias stands for | judged | breaks |
//! | `union-rule-changed` | discriminator ↔ by shape | none | none |
//! | `enum-opened` / `enum-closed` | `\| string` added / removed | old readers / old writers | breaks |
//! | `const-added` / `const-removed` | an exported const | none | none / breaks |
//! | `const-value-changed` | a const's value (an error code renumbered) | both | none, unless its type changed |
//! | `field-added-optional` | a new optional member, own or through a base | none | breaks struct literals (and `new`, which takes an optional member that may be `null`) |
//! | `field-added-required` | a new required member, own or through a base | old writers | breaks `new` and struct literals |
//! | `field-removed` | a member is gone | old readers when it was required | breaks (a fixed member: its const is gone) |
//! | `field-made-required` / `field-made-optional` | `?` removed / added | old writers / old readers | breaks |
//! | `field-type-changed` | a member's type | judged | breaks |
//! | `fixed-value-changed` | a member fixed by a literal (`method`, `type`) has another value | both | none |
//! | `field-inherited` / `field-redeclared` | a member the type keeps now comes from a base / is declared by the type again | none (its type's change, if any, is a change of its own) | none |
//! | `value-added` / `value-removed` | a string enum's value | old readers / old writers, none for open enums | breaks |
//! | `variant-added` / `variant-removed` / `variant-changed` | a union's member (changed: its type or its tag) | judged | breaks (changed: when the Rust type it holds does) |
//! | `method-added` / `method-removed` / `method-changed` | a request or notification by wire method name, or its result type | old readers / old writers / both | none |
//! | `method-result-changed` | the same method and result type, but the result gained, lost or retyped a required member (derived from those changes: it edits no fact) | as its members' | none |
//! | `deprecated` / `undeprecated` / `deprecation-changed` | a `@deprecated` tag | none | none (a warning) |
//! | `docs-changed` | the doc text of a type or member | none | none |
//!
//! # Verdicts
//!
//! **wire** says which direction breaks: *old readers* (a peer built on OLD rejects
//! what a NEW peer sends), *old writers* (a NEW peer rejects what an OLD peer
//! sends), or both. "Judged" means it is computed from the two types
//! ([`compat`]): unknown members are kept, a missing required member is an
//! error, a closed enum rejects unlisted values.
//!
//! **api** gives the reason code compiled against OLD's generated module fails to
//! compile against NEW's, or nothing. The generated structs are not
//! `#[non_exhaustive]`, so any new field breaks code that builds the struct with
//! a literal (one that `new` takes breaks `new` too: `rust::new_takes`, the
//! builders' own rule), and any new variant breaks exhaustive matches. A member
//! fixed by a literal is no field but a const of its struct
//! (`CreateMessageRequest::JSONRPC`): when it goes, the const goes.
//!
//! # Members as the struct has them
//!
//! A type's members are compared as its generated struct has them: its own and
//! those it inherits (after `Omit`, intersections and narrowing). A member gained
//! or lost through a base is a change of the type (`field-added-required
//! ListToolsResult.ttlMs`, "through CacheableResult"), and the base's own change
//! (`type-bases-changed`) is as bad as the worst of what it brings.
//!
//! A change is **breaking** when either verdict says so.
//!
//! Both verdicts are held to behaviour by `tests/oracle.rs`, for every pair of
//! revisions: values of every type read with the other revision's generated
//! types (wire), and a use of OLD's item for each change compiled against NEW's
//! module (api).
//!
//! # The rename rule
//!
//! A declared type present only in OLD and one present only in NEW, of the same
//! kind (object, union or enum; aliases and consts are never renamed), are one
//! renamed type when their members mostly match: every member name both have
//! scores 1 when its type and requiredness agree and ½ when they differ, and the
//! score over the number of distinct member names must reach ½; a member fixed
//! by a literal in both (`method`, `type`) with different values means two
//! different messages, never a rename. Their names must be alike too: the
//! CamelCase words they share in order (`JSONRPC`, `Error`), counted twice, must
//! be at least half of all their words (a Dice coefficient of ½; this keeps
//! `URLElicitationRequiredError` from becoming `HeaderMismatchError`). Pairs are
//! taken greedily, closest names first, then closest shapes, ties by name. The renamed type's own changes are
//! then reported under its new name (`JSONRPCError` → `JSONRPCErrorResponse`
//! in 2025-11-25: `id` made optional, `error` now the named `Error`).

mod change;
pub mod compat;
pub mod facts;
pub mod html;
mod rename;
pub mod report;
mod verdict;

use std::collections::{BTreeMap, BTreeSet};

use compat::Compat;
use facts::{Edit, FactKind, FactSet, Facts, fact_set, is_below};

use crate::model::{Field, Item, ItemKind, Revision, Target, Type};
use crate::rust::{RustTypes, const_name, new_takes};
pub use change::{Change, ChangeId, Diff, Wire};
use verdict::{first_line, type_part};

/// Diffs two revisions.
pub fn diff(old: &Revision, new: &Revision) -> Diff {
    let old_set = fact_set(old);
    let new_set = fact_set(new);
    let mut cx = Cx { old, new, old_set: &old_set, new_set: &new_set, renames: BTreeMap::new(), changes: Vec::new() };
    let mut working = old_set.facts.clone();
    for (from, to) in cx.find_renames() {
        let edit = Edit::Rekey { from: from.clone(), to: to.clone() };
        facts::apply(&mut working, [&edit]);
        cx.changes.push(Change {
            id: ChangeId::TypeRenamed,
            path: to.clone(),
            old: Some(from.clone()),
            new: Some(to.clone()),
            wire: Wire::None,
            api: Some("the type's name changed".into()),
            detail: None,
            edits: vec![edit],
        });
        cx.renames.insert(to, from);
    }
    cx.classify(&working);
    cx.summarise_bases();
    cx.method_results();
    let mut changes = cx.changes;
    changes.sort_by(|a, b| (&a.path, a.id.as_str()).cmp(&(&b.path, b.id.as_str())));
    Diff { old: old.name.clone(), new: new.name.clone(), changes }
}

struct Cx<'a> {
    old: &'a Revision,
    new: &'a Revision,
    old_set: &'a FactSet,
    new_set: &'a FactSet,
    /// New name → old name.
    renames: BTreeMap<String, String>,
    changes: Vec<Change>,
}

fn kind_word(summary: &str) -> &str {
    let w = summary.split_whitespace().next().unwrap_or("");
    if w == "open" { "enum" } else { w }
}

impl Cx<'_> {
    /// OLD's path for a path of NEW, through the renames.
    /// The owner of the inline type whose `@type` key is `key` (see
    /// [`FactSet::owners`]), as a key of the working facts.
    fn owner_of(&self, key: &str) -> Option<String> {
        if let Some(owner) = self.new_set.owners.get(key) {
            return Some(owner.clone());
        }
        let owner = self.old_set.owners.get(&self.old_path(key))?;
        let renamed = self.renames.iter().find(|(_, from)| is_below(owner, from));
        Some(match renamed {
            Some((to, from)) => format!("{to}{}", &owner[from.len()..]),
            None => owner.clone(),
        })
    }

    fn old_path(&self, path: &str) -> String {
        for (to, from) in &self.renames {
            if is_below(path, to) {
                return format!("{from}{}", &path[to.len()..]);
            }
        }
        path.to_string()
    }

    /// A method whose message or result type changed (renamed, or another type):
    /// judged by what each side accepts of the other's messages and results, so a
    /// rename that sends the same JSON is no wire change.
    fn method_wire(&self, name: &str) -> Wire {
        let find = |rev| crate::protocol::methods(rev).into_iter().find(|m| m.name == name);
        let (Some(o), Some(n)) = (find(self.old), find(self.new)) else { return Wire::Both };
        if o.kind != n.kind {
            return Wire::Both;
        }
        let named = |t: &String| Type::Named(t.clone());
        // Each side may be either peer, so each reads the other's messages and results.
        let reads = |reader: &Revision, writer: &Revision, r: &crate::protocol::Method, w: &crate::protocol::Method| {
            Compat::new(reader, writer).accepts(&named(&r.message), &named(&w.message))
                && match (&r.result, &w.result) {
                    (Some(rr), Some(wr)) => Compat::new(reader, writer).accepts(&named(rr), &named(wr)),
                    (None, None) => true,
                    _ => false,
                }
        };
        Wire::from_breaks(!reads(self.old, self.new, &o, &n), !reads(self.new, self.old, &n, &o))
    }

    fn kind_of(&self, key: &str) -> Option<FactKind> {
        self.new_set.kinds.get(key).or_else(|| self.old_set.kinds.get(&self.old_path(key))).copied()
    }

    fn classify(&mut self, working: &Facts) {
        let new_facts = &self.new_set.facts;
        let mut differing: BTreeSet<String> = working.keys().chain(new_facts.keys()).cloned().collect();
        differing.retain(|k| working.get(k) != new_facts.get(k));
        let mut handled: BTreeSet<String> = BTreeSet::new();
        // The edits of inline types that come or go, by the owner whose change they join.
        let mut joining: BTreeMap<String, Vec<Edit>> = BTreeMap::new();

        // Whole subtrees first, outermost first: types and members that are added,
        // removed, or whose kind changed so that their members cannot be compared
        // one by one.
        let mut outer_first: Vec<String> = differing.iter().cloned().collect();
        outer_first.sort_by_key(|k| (k.trim_end_matches("@type").len(), k.clone()));
        for key in outer_first {
            if handled.contains(&key) {
                continue;
            }
            let (o, n) = (working.get(&key), new_facts.get(&key));
            let Some(kind) = self.kind_of(&key) else { continue };
            let root = match kind {
                FactKind::Type { .. } => key.trim_end_matches("@type").to_string(),
                FactKind::Field => key.clone(),
                _ => continue,
            };
            let whole = match (kind, o, n) {
                (_, None, Some(_)) | (_, Some(_), None) => true,
                (FactKind::Type { .. }, Some(a), Some(b)) => kind_word(a) != kind_word(b),
                (FactKind::Field, Some(a), Some(b)) => type_part(a) != type_part(b),
                _ => false,
            };
            if !whole {
                continue;
            }
            let below: Vec<String> = differing.iter().filter(|k| is_below(k, &root) && **k != key).cloned().collect();
            if matches!(kind, FactKind::Field) && o.is_some() && n.is_some() && below.is_empty() {
                continue; // a type change with nothing below it: a plain field change
            }
            let mut edits = Vec::new();
            if o.is_some() || !below.is_empty() {
                edits.push(Edit::RemoveTree(root.clone()));
            }
            for (k, v) in new_facts.iter().filter(|(k, _)| is_below(k, &root)) {
                edits.push(Edit::Insert(k.clone(), v.clone()));
            }
            handled.insert(key.clone());
            handled.extend(below);
            // An inline type that comes, goes or changes kind does so because its
            // owner's type changed (a member, a union member, an alias), whose
            // summary names the inline type's kind: that is the change. (An inline
            // type with no changed owner is reported as itself, below.)
            if matches!(kind, FactKind::Type { declared: false })
                && let Some(owner) = self.owner_of(&key).filter(|k| differing.contains(k) && !handled.contains(k))
            {
                joining.entry(owner).or_default().extend(edits);
                continue;
            }
            let change = match kind {
                FactKind::Type { declared: true } => self.type_change(&root, o, n, edits),
                FactKind::Type { declared: false } => self.simple(&root, ChangeId::TypeKindChanged, o, n, edits),
                _ => self.field_change(&root, o, n, edits),
            };
            self.changes.push(change);
        }

        for key in differing {
            if handled.contains(&key) {
                continue;
            }
            let (o, n) = (working.get(&key), new_facts.get(&key));
            let edits = match n {
                Some(v) => vec![Edit::Insert(key.clone(), v.clone())],
                None => vec![Edit::Remove(key.clone())],
            };
            let change = match self.kind_of(&key) {
                Some(FactKind::Type { .. }) => {
                    let root = key.trim_end_matches("@type").to_string();
                    self.type_change(&root, o, n, edits)
                }
                Some(FactKind::Field) => self.field_change(&key, o, n, edits),
                Some(FactKind::Value) => self.value_change(&key, n.is_some(), edits),
                Some(FactKind::Variant) => self.variant_change(&key, o, n, edits),
                Some(FactKind::Method) => {
                    let (id, wire) = match (o, n) {
                        (None, _) => (ChangeId::MethodAdded, Wire::OldReaders),
                        (_, None) => (ChangeId::MethodRemoved, Wire::OldWriters),
                        _ => (ChangeId::MethodChanged, self.method_wire(key.trim_start_matches("method:"))),
                    };
                    Change { wire, ..self.simple(key.trim_start_matches("method:"), id, o, n, edits) }
                }
                Some(FactKind::Origin) => {
                    let field = key.trim_end_matches("@from");
                    let (id, detail) = match (o, n) {
                        (_, Some(base)) => (ChangeId::FieldInherited, format!("now inherited from {base}")),
                        (Some(base), None) => {
                            (ChangeId::FieldRedeclared, format!("declared here now, was inherited from {base}"))
                        }
                        (None, None) => continue,
                    };
                    Change { detail: Some(detail), ..self.simple(field, id, o, n, edits) }
                }
                Some(FactKind::Deprecation) => {
                    let id = match (o, n) {
                        (None, _) => ChangeId::Deprecated,
                        (_, None) => ChangeId::Undeprecated,
                        _ => ChangeId::DeprecationChanged,
                    };
                    self.simple(key.trim_end_matches("@deprecated"), id, o, n, edits)
                }
                Some(FactKind::Docs) => {
                    let mut c = self.simple(key.trim_end_matches("@docs"), ChangeId::DocsChanged, None, None, edits);
                    c.old = o.map(|t| first_line(t));
                    c.new = n.map(|t| first_line(t));
                    c
                }
                // Every key is in one of the two fact sets, with its kind.
                None => continue,
            };
            let mut change = change;
            change.edits.extend(joining.remove(&key).unwrap_or_default());
            self.changes.push(change);
        }
    }

    /// A change of a type's bases is as bad as what it brings: the members gained
    /// or lost through them (each reported as a change of the type).
    fn summarise_bases(&mut self) {
        let through: Vec<(String, Wire, Option<String>, ChangeId, String)> = self
            .changes
            .iter()
            .filter_map(|c| {
                let base = c.detail.as_deref()?.strip_prefix("through ")?.to_string();
                Some((
                    c.path.rsplit_once('.').map(|(o, _)| o.to_string()).unwrap_or_default(),
                    c.wire,
                    c.api.clone(),
                    c.id,
                    base,
                ))
            })
            .collect();
        let (old, new) = (self.old, self.new);
        let renames = self.renames.clone();
        for c in self.changes.iter_mut().filter(|c| c.id == ChangeId::TypeBasesChanged) {
            // The bases gained or lost, with theirs.
            let old_name = renames.get(&c.path).cloned().unwrap_or_else(|| c.path.clone());
            let lineage = |rev: &Revision, name: &str| -> BTreeSet<String> {
                crate::model::ancestors(&rev.items, name).into_iter().collect()
            };
            let (was, is) = (lineage(old, &old_name), lineage(new, &c.path));
            let changed: BTreeSet<String> = was.symmetric_difference(&is).cloned().collect();
            let brought: Vec<&(String, Wire, Option<String>, ChangeId, String)> =
                through.iter().filter(|(owner, .., base)| *owner == c.path && changed.contains(base)).collect();
            if brought.is_empty() {
                continue;
            }
            let (mut readers, mut writers) = (false, false);
            for (_, wire, ..) in brought.iter().map(|b| (&b.0, &b.1)) {
                readers |= matches!(wire, Wire::OldReaders | Wire::Both);
                writers |= matches!(wire, Wire::OldWriters | Wire::Both);
            }
            c.wire = Wire::from_breaks(readers, writers);
            // The struct's shape: a field gained or lost breaks its literals (a
            // member retyped breaks reading it, said by that member's own change).
            let reshapes = |id: ChangeId| {
                matches!(id, ChangeId::FieldAddedOptional | ChangeId::FieldAddedRequired | ChangeId::FieldRemoved)
            };
            if brought.iter().any(|b| b.2.is_some() && reshapes(b.3)) {
                c.api = Some("the members it brings add or remove fields: struct literals change".into());
            }
            let ids: BTreeSet<&str> = brought.iter().map(|b| b.3.as_str()).collect();
            c.detail = Some(format!(
                "brings {} member change(s): {}",
                brought.len(),
                ids.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
    }

    /// A method whose result type changed on the wire (a required member gained,
    /// a member retyped or lost) says so:
    /// the same wire name and result type, but what answers it changed.
    fn method_results(&mut self) {
        let mut derived = Vec::new();
        for m in crate::protocol::methods(self.new) {
            let Some(result) = &m.result else { continue };
            let key = format!("method:{}", m.name);
            if self.old_set.facts.get(&key) != self.new_set.facts.get(&key) {
                continue; // the method's own change says it
            }
            let breaking: Vec<&Change> = self
                .changes
                .iter()
                .filter(|c| {
                    c.path
                        .strip_prefix(result.as_str())
                        .is_some_and(|rest| rest.starts_with('.') && !rest[1..].contains('.'))
                })
                .filter(|c| c.wire != Wire::None)
                .collect();
            if breaking.is_empty() {
                continue;
            }
            let (mut readers, mut writers) = (false, false);
            for c in &breaking {
                readers |= matches!(c.wire, Wire::OldReaders | Wire::Both);
                writers |= matches!(c.wire, Wire::OldWriters | Wire::Both);
            }
            let what: Vec<String> = breaking
                .iter()
                .map(|c| format!("{} {}", c.id, c.path.rsplit_once('.').map(|(_, f)| f).unwrap_or("")))
                .collect();
            derived.push(Change {
                id: ChangeId::MethodResultChanged,
                path: m.name.clone(),
                old: None,
                new: None,
                wire: Wire::from_breaks(readers, writers),
                api: None,
                detail: Some(format!("its result {result}: {}", what.join(", "))),
                edits: Vec::new(),
            });
        }
        self.changes.extend(derived);
    }
}

#[cfg(test)]
mod tests {
    use super::ChangeId;

    /// The ids in the first column of the table in this module's docs.
    fn documented_ids() -> Vec<String> {
        let source = include_str!("mod.rs");
        let mut ids = Vec::new();
        for line in source.lines().filter_map(|l| l.strip_prefix("//! | `")) {
            let cell = line.split(" |").next().unwrap_or("");
            if cell == "id" {
                continue;
            }
            // `a` / `b` rows name several ids.
            for id in cell.split(" / ") {
                ids.push(id.trim_matches('`').to_string());
            }
        }
        ids
    }

    #[test]
    fn the_documented_id_table_lists_every_change_id_and_no_other() {
        let documented = documented_ids();
        let known: Vec<String> = ChangeId::ALL.iter().map(|c| c.as_str().to_string()).collect();
        let missing: Vec<&String> = known.iter().filter(|k| !documented.contains(k)).collect();
        let unknown: Vec<&String> = documented.iter().filter(|d| !known.contains(d)).collect();
        assert!(missing.is_empty(), "change ids missing from the docs table: {missing:?}");
        assert!(unknown.is_empty(), "the docs table names ids that do not exist: {unknown:?}");
        assert_eq!(documented.len(), known.len(), "an id is listed twice");
    }
}
