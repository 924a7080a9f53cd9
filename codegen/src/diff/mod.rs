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
//! | `type-bases-changed` | the `extends` list | the worst of the members it brings (each listed as a change of the type, "through" the base) | the same |
//! | `alias-changed` | what an alias stands for | judged | breaks |
//! | `union-rule-changed` | discriminator ↔ by shape | none | none |
//! | `enum-opened` / `enum-closed` | `\| string` added / removed | old readers / old writers | breaks |
//! | `const-added` / `const-removed` | an exported const | none | none / breaks |
//! | `const-value-changed` | a const's value (an error code renumbered) | both | none, unless its type changed |
//! | `field-added-optional` | a new optional member, own or through a base | none | breaks struct literals |
//! | `field-added-required` | a new required member, own or through a base | old writers | breaks `new` and struct literals |
//! | `field-removed` | a member is gone | old readers when it was required | breaks |
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
//! a literal (a new required one breaks `new` too), and any new variant breaks
//! exhaustive matches.
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

pub mod compat;
pub mod facts;
pub mod html;
mod rename;
pub mod report;

use std::collections::{BTreeMap, BTreeSet};

use compat::Compat;
use facts::{Edit, FactKind, FactSet, Facts, fact_set, is_below};

use crate::model::{Field, Item, ItemKind, Revision, Target, Type};
use crate::rust::RustTypes;

/// Which side of a conversation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wire {
    None,
    /// A peer built on OLD rejects what a peer built on NEW sends.
    OldReaders,
    /// A peer built on NEW rejects what a peer built on OLD sends.
    OldWriters,
    Both,
}

impl Wire {
    pub fn from_breaks(old_readers: bool, old_writers: bool) -> Wire {
        match (old_readers, old_writers) {
            (false, false) => Wire::None,
            (true, false) => Wire::OldReaders,
            (false, true) => Wire::OldWriters,
            (true, true) => Wire::Both,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Wire::None => "none",
            Wire::OldReaders => "old-readers",
            Wire::OldWriters => "old-writers",
            Wire::Both => "both",
        }
    }
    pub fn explain(self) -> &'static str {
        match self {
            Wire::None => "compatible",
            Wire::OldReaders => "breaks old readers (an OLD peer rejects what a NEW peer sends)",
            Wire::OldWriters => "breaks old writers (a NEW peer rejects what an OLD peer sends)",
            Wire::Both => "breaks both directions",
        }
    }
}

/// The kind of a change: one variant per row of the table in the module docs
/// (a test checks that the two agree), printed as the row's kebab-case id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeId {
    TypeAdded,
    TypeRemoved,
    TypeRenamed,
    TypeKindChanged,
    TypeBasesChanged,
    AliasChanged,
    UnionRuleChanged,
    EnumOpened,
    EnumClosed,
    ConstAdded,
    ConstRemoved,
    ConstValueChanged,
    FieldAddedOptional,
    FieldAddedRequired,
    FieldRemoved,
    FieldMadeRequired,
    FieldMadeOptional,
    FieldTypeChanged,
    FixedValueChanged,
    FieldInherited,
    FieldRedeclared,
    ValueAdded,
    ValueRemoved,
    VariantAdded,
    VariantRemoved,
    VariantChanged,
    MethodAdded,
    MethodRemoved,
    MethodChanged,
    MethodResultChanged,
    Deprecated,
    Undeprecated,
    DeprecationChanged,
    DocsChanged,
}

impl ChangeId {
    /// Every id, in the order of the table.
    pub const ALL: &[ChangeId] = &[
        ChangeId::TypeAdded,
        ChangeId::TypeRemoved,
        ChangeId::TypeRenamed,
        ChangeId::TypeKindChanged,
        ChangeId::TypeBasesChanged,
        ChangeId::AliasChanged,
        ChangeId::UnionRuleChanged,
        ChangeId::EnumOpened,
        ChangeId::EnumClosed,
        ChangeId::ConstAdded,
        ChangeId::ConstRemoved,
        ChangeId::ConstValueChanged,
        ChangeId::FieldAddedOptional,
        ChangeId::FieldAddedRequired,
        ChangeId::FieldRemoved,
        ChangeId::FieldMadeRequired,
        ChangeId::FieldMadeOptional,
        ChangeId::FieldTypeChanged,
        ChangeId::FixedValueChanged,
        ChangeId::FieldInherited,
        ChangeId::FieldRedeclared,
        ChangeId::ValueAdded,
        ChangeId::ValueRemoved,
        ChangeId::VariantAdded,
        ChangeId::VariantRemoved,
        ChangeId::VariantChanged,
        ChangeId::MethodAdded,
        ChangeId::MethodRemoved,
        ChangeId::MethodChanged,
        ChangeId::MethodResultChanged,
        ChangeId::Deprecated,
        ChangeId::Undeprecated,
        ChangeId::DeprecationChanged,
        ChangeId::DocsChanged,
    ];

    /// The kebab-case id: `field-added-required`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeId::TypeAdded => "type-added",
            ChangeId::TypeRemoved => "type-removed",
            ChangeId::TypeRenamed => "type-renamed",
            ChangeId::TypeKindChanged => "type-kind-changed",
            ChangeId::TypeBasesChanged => "type-bases-changed",
            ChangeId::AliasChanged => "alias-changed",
            ChangeId::UnionRuleChanged => "union-rule-changed",
            ChangeId::EnumOpened => "enum-opened",
            ChangeId::EnumClosed => "enum-closed",
            ChangeId::ConstAdded => "const-added",
            ChangeId::ConstRemoved => "const-removed",
            ChangeId::ConstValueChanged => "const-value-changed",
            ChangeId::FieldAddedOptional => "field-added-optional",
            ChangeId::FieldAddedRequired => "field-added-required",
            ChangeId::FieldRemoved => "field-removed",
            ChangeId::FieldMadeRequired => "field-made-required",
            ChangeId::FieldMadeOptional => "field-made-optional",
            ChangeId::FieldTypeChanged => "field-type-changed",
            ChangeId::FixedValueChanged => "fixed-value-changed",
            ChangeId::FieldInherited => "field-inherited",
            ChangeId::FieldRedeclared => "field-redeclared",
            ChangeId::ValueAdded => "value-added",
            ChangeId::ValueRemoved => "value-removed",
            ChangeId::VariantAdded => "variant-added",
            ChangeId::VariantRemoved => "variant-removed",
            ChangeId::VariantChanged => "variant-changed",
            ChangeId::MethodAdded => "method-added",
            ChangeId::MethodRemoved => "method-removed",
            ChangeId::MethodChanged => "method-changed",
            ChangeId::MethodResultChanged => "method-result-changed",
            ChangeId::Deprecated => "deprecated",
            ChangeId::Undeprecated => "undeprecated",
            ChangeId::DeprecationChanged => "deprecation-changed",
            ChangeId::DocsChanged => "docs-changed",
        }
    }
}

impl std::fmt::Display for ChangeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub id: ChangeId,
    /// The item's path in NEW (in OLD for what NEW no longer has).
    pub path: String,
    pub old: Option<String>,
    pub new: Option<String>,
    pub wire: Wire,
    /// Why code built against OLD's types fails to compile against NEW's.
    pub api: Option<String>,
    /// Context: the types that inherit a member, the type a member moved to.
    pub detail: Option<String>,
    /// How the change edits OLD's facts on the way to NEW's ([`facts::apply`]).
    pub edits: Vec<Edit>,
}

impl Change {
    pub fn is_breaking(&self) -> bool {
        self.wire != Wire::None || self.api.is_some()
    }
    pub fn is_docs(&self) -> bool {
        self.id == ChangeId::DocsChanged
    }
}

#[derive(Clone, Debug)]
pub struct Diff {
    pub old: String,
    pub new: String,
    /// By path, then id.
    pub changes: Vec<Change>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

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
                crate::rule::ancestors(&rev.items, name).into_iter().collect()
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
            if brought.iter().any(|b| b.2.is_some()) {
                c.api = Some("the members it brings change the struct".into());
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

    fn simple(&self, path: &str, id: ChangeId, o: Option<&String>, n: Option<&String>, edits: Vec<Edit>) -> Change {
        Change {
            id,
            path: path.to_string(),
            old: o.cloned(),
            new: n.cloned(),
            wire: Wire::None,
            api: None,
            detail: None,
            edits,
        }
    }

    fn item_in<'r>(rev: &'r Revision, path: &str) -> Option<&'r Item> {
        match rev.resolve_path(path)?.target {
            Target::Item(i) => Some(i),
            Target::Field(_, f) => match inner_named(&f.ty) {
                Some(n) => rev.item(n),
                None => None,
            },
            _ => None,
        }
    }

    fn field_in<'r>(rev: &'r Revision, path: &str) -> Option<&'r Field> {
        match rev.resolve_path(path)?.target {
            Target::Field(_, f) => Some(f),
            _ => None,
        }
    }

    fn type_change(&self, root: &str, o: Option<&String>, n: Option<&String>, edits: Vec<Edit>) -> Change {
        let is_const = |s: Option<&String>| s.is_some_and(|s| s.starts_with("const "));
        let id = match (o, n) {
            (None, _) if is_const(n) => ChangeId::ConstAdded,
            (None, _) => ChangeId::TypeAdded,
            (_, None) if is_const(o) => ChangeId::ConstRemoved,
            (_, None) => ChangeId::TypeRemoved,
            (Some(a), Some(b)) => match (kind_word(a), kind_word(b)) {
                ("const", "const") => ChangeId::ConstValueChanged,
                ("enum", "enum") if b.starts_with("open") => ChangeId::EnumOpened,
                ("enum", "enum") => ChangeId::EnumClosed,
                ("union", "union") => ChangeId::UnionRuleChanged,
                ("object", "object") => ChangeId::TypeBasesChanged,
                ("alias", "alias") => ChangeId::AliasChanged,
                _ => ChangeId::TypeKindChanged,
            },
        };
        let mut c = self.simple(root, id, o, n, edits);
        match id {
            ChangeId::TypeRemoved => c.api = Some("the type is gone".into()),
            ChangeId::ConstRemoved => c.api = Some("the const is gone".into()),
            ChangeId::ConstValueChanged => {
                c.wire = Wire::Both;
                let lit_kind = |s: &str| s.split_whitespace().nth(1).map(|v| v.starts_with('"'));
                if o.map(|s| lit_kind(s)) != n.map(|s| lit_kind(s)) {
                    c.api = Some("the const's type changed".into());
                }
            }
            ChangeId::EnumOpened => {
                c.wire = Wire::OldReaders;
                c.api = Some("the catch-all variant `Other` is new".into());
            }
            ChangeId::EnumClosed => {
                c.wire = Wire::OldWriters;
                c.api = Some("the catch-all variant `Other` is gone".into());
            }
            ChangeId::AliasChanged | ChangeId::TypeKindChanged => {
                c.api = Some("the type changed".into());
                if let (Some(oi), Some(ni)) =
                    (Self::item_in(self.old, &self.old_path(root)), Self::item_in(self.new, root))
                {
                    let (ot, nt) = (Type::Named(oi.name.clone()), Type::Named(ni.name.clone()));
                    c.wire = Wire::from_breaks(
                        !Compat::new(self.old, self.new).accepts(&ot, &nt),
                        !Compat::new(self.new, self.old).accepts(&nt, &ot),
                    );
                } else {
                    c.wire = Wire::Both;
                }
            }
            _ => {}
        }
        c
    }

    fn field_change(&self, path: &str, o: Option<&String>, n: Option<&String>, edits: Vec<Edit>) -> Change {
        let of = Self::field_in(self.old, &self.old_path(path));
        let nf = Self::field_in(self.new, path);
        // Every member a struct has, inherited or its own, is a field fact: a fact
        // that comes or goes is a member that does. A member that moves to or from a
        // base keeps its fact, and the move is its `@from` fact's change (`classify`).
        let id = match (o, n) {
            (None, _) if nf.is_some_and(|f| f.is_required()) => ChangeId::FieldAddedRequired,
            (None, _) => ChangeId::FieldAddedOptional,
            (_, None) => ChangeId::FieldRemoved,
            (Some(a), Some(b)) if type_part(a) == type_part(b) => {
                if b.starts_with("required") {
                    ChangeId::FieldMadeRequired
                } else {
                    ChangeId::FieldMadeOptional
                }
            }
            _ if of.is_some_and(is_fixed) && nf.is_some_and(is_fixed) => ChangeId::FixedValueChanged,
            _ => ChangeId::FieldTypeChanged,
        };
        let mut c = self.simple(path, id, o, n, edits);
        c.wire = Wire::from_breaks(
            !Compat::new(self.old, self.new).field_accepts(of, nf),
            !Compat::new(self.new, self.old).field_accepts(nf, of),
        );
        let rust = |f: Option<&Field>| f.is_some_and(|f| !is_fixed(f));
        c.api = match id {
            ChangeId::FieldAddedRequired if rust(nf) && nf.is_some_and(|f| f.role.default().is_some()) => {
                Some("struct literals must name the new field (`new` sets its default)".into())
            }
            ChangeId::FieldAddedRequired if rust(nf) => {
                Some("`new` takes the new member, and struct literals must name it".into())
            }
            ChangeId::FieldAddedOptional if rust(nf) => Some("struct literals must name the new field".into()),
            ChangeId::FieldRemoved if rust(of) => Some("the field is gone".into()),
            ChangeId::FieldMadeRequired if rust(nf) => Some("`Option<T>` became `T`".into()),
            ChangeId::FieldMadeOptional if rust(nf) => Some("`T` became `Option<T>`".into()),
            ChangeId::FieldTypeChanged if rust(of) || rust(nf) => {
                let same = of
                    .zip(nf)
                    .is_some_and(|(a, b)| RustTypes::api(self.old).field(a) == RustTypes::api(self.new).field(b));
                (!same).then(|| "the field's type changed".to_string())
            }
            _ => None,
        };
        let owner = path.rsplit_once('.').map(|(o, _)| o).unwrap_or(path);
        let through = |f: Option<&Field>, rev: &Revision| {
            f.filter(|f| {
                rev.resolve_path(owner).is_some_and(|r| matches!(r.target, Target::Item(i) if i.name != f.declared_in))
            })
            .map(|f| format!("through {}", f.declared_in))
        };
        // Where the member comes from: the new revision's base, else (a member that
        // is gone) the old one's.
        c.detail = through(nf, self.new).or_else(|| through(of, self.old));
        c
    }

    fn value_change(&self, path: &str, added: bool, edits: Vec<Edit>) -> Change {
        let root = path.rsplit_once(".\"").map(|(r, _)| r).unwrap_or(path);
        let open =
            |set: &FactSet, root: &str| set.facts.get(&format!("{root}@type")).is_some_and(|s| s.starts_with("open"));
        let (id, wire, api) = if added {
            let wire = if open(self.old_set, &self.old_path(root)) { Wire::None } else { Wire::OldReaders };
            (ChangeId::ValueAdded, wire, "exhaustive matches must handle the new variant")
        } else {
            let wire = if open(self.new_set, root) { Wire::None } else { Wire::OldWriters };
            (ChangeId::ValueRemoved, wire, "the variant is gone")
        };
        Change { wire, api: Some(api.into()), ..self.simple(path, id, None, None, edits) }
    }

    fn variant_change(&self, path: &str, o: Option<&String>, n: Option<&String>, edits: Vec<Edit>) -> Change {
        let (root, name) = path.rsplit_once('|').unwrap_or((path, ""));
        let old_union = Self::item_in(self.old, &self.old_path(root));
        let new_union = Self::item_in(self.new, root);
        let variant = |u: Option<&Item>| match u.map(|i| &i.kind) {
            Some(ItemKind::Union(u)) => u.variants.iter().find(|v| v.name == name).cloned(),
            _ => None,
        };
        let (ov, nv) = (variant(old_union), variant(new_union));
        let (om, nm) = (ov.as_ref().map(|v| v.ty.clone()), nv.as_ref().map(|v| v.ty.clone()));
        let union_accepts = |reader: &Revision, writer: &Revision, u: Option<&Item>, t: &Option<Type>| match (u, t) {
            (Some(u), Some(t)) => Compat::new(reader, writer).accepts(&Type::Named(u.name.clone()), t),
            _ => false,
        };
        let (id, wire, api) = match (o, n) {
            (None, _) => (
                ChangeId::VariantAdded,
                Wire::from_breaks(!union_accepts(self.old, self.new, old_union, &nm), false),
                "exhaustive matches must handle the new member",
            ),
            (_, None) => (
                ChangeId::VariantRemoved,
                Wire::from_breaks(false, !union_accepts(self.new, self.old, new_union, &om)),
                "the member is gone",
            ),
            _ => {
                let (a, b) = (om.clone().unwrap_or(Type::Json), nm.clone().unwrap_or(Type::Json));
                // The summary also says what tags the member (`Dot when "dot"`): a new
                // tag changes what is read, not the Rust type the variant holds.
                let rust = |rev: &Revision, v: &Option<crate::model::Variant>, t: &Type| {
                    RustTypes::api(rev).boxed(t, v.as_ref().is_some_and(|v| v.boxed))
                };
                let same = rust(self.old, &ov, &a) == rust(self.new, &nv, &b);
                (
                    ChangeId::VariantChanged,
                    Wire::from_breaks(
                        !Compat::new(self.old, self.new).accepts(&a, &b),
                        !Compat::new(self.new, self.old).accepts(&b, &a),
                    ),
                    if same { "" } else { "the member's type changed" },
                )
            }
        };
        let api = (!api.is_empty()).then(|| api.to_string());
        Change { wire, api, ..self.simple(path, id, o, n, edits) }
    }
}

/// `required string` → `string`.
fn type_part(summary: &str) -> &str {
    summary.split_once(' ').map(|(_, t)| t).unwrap_or(summary)
}

fn first_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if line.chars().count() > 80 {
        format!("{}…", line.chars().take(79).collect::<String>())
    } else {
        line.to_string()
    }
}

fn is_fixed(f: &Field) -> bool {
    f.role.fixed().is_some()
}

fn inner_named(t: &Type) -> Option<&str> {
    match t {
        Type::Named(n) => Some(n),
        Type::Nullable(t) | Type::Array(t) | Type::Map(t) => inner_named(t),
        _ => None,
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
