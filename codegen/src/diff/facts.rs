//! A revision as a flat list of facts: one line per thing the diff can see, keyed
//! by path. Keys:
//!
//! - `Name@type`: a type's shape (`object extends Result`, `enum`, `open enum`,
//!   `union (by shape)`, `alias of string`, `const -32602`); also `Parent.field@type`
//!   for the anonymous type of a member;
//! - `Name.field`: a member as the generated struct has it, own or inherited
//!   (`required string`, `optional {object}`), and `Name.field@from`: the base it
//!   comes from, for an inherited one;
//! - `Name."value"`: a value of a string enum;
//! - `Name|Member`: a member of a union (`CallToolResult`);
//! - `…@deprecated`, `…@docs`: a deprecation and the doc text of a type or member;
//! - `method:tools/call`: a method (`request CallToolRequest -> CallToolResult (results::CallTool)`).
//!
//! The diff reports every difference between two revisions' facts, and each of
//! its changes says how it edits the facts ([`apply`]), so a test can check that
//! the changes turn OLD's facts into NEW's exactly.

use std::collections::BTreeMap;

use crate::model::{Docs, Field, Item, ItemKind, Origin, Revision, Type, UnionRule, member_segment, value_segment};
use crate::protocol::methods;

/// Path → summary.
pub type Facts = BTreeMap<String, String>;

/// What a fact's key names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactKind {
    /// `Name@type`: the shape of a type; `declared` when it is a named type.
    Type {
        declared: bool,
    },
    Field,
    Value,
    Variant,
    /// `Name.field@from`: the base an inherited member comes from.
    Origin,
    Deprecation,
    Docs,
    Method,
}

/// The facts of a revision, with what each key names.
#[derive(Clone, Debug, Default)]
pub struct FactSet {
    pub facts: Facts,
    pub kinds: BTreeMap<String, FactKind>,
    /// An inline type's `@type` key → the key of the fact whose type names it
    /// (the member, union member or alias it is written in): an inline type that
    /// comes or goes is its owner's change.
    pub owners: BTreeMap<String, String>,
}

impl FactSet {
    fn put(&mut self, key: String, kind: FactKind, summary: String) {
        self.kinds.insert(key.clone(), kind);
        self.facts.insert(key, summary);
    }
}

/// How a change edits the facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Removes a key and every key below it (`key.`, `key[`, `key{`, `key|`, `key@`).
    RemoveTree(String),
    Remove(String),
    Insert(String, String),
    /// Moves every key at or below `from` to the same place below `to` (a rename).
    Rekey {
        from: String,
        to: String,
    },
}

/// True when `key` is `root` or lies below it.
pub fn is_below(key: &str, root: &str) -> bool {
    key.strip_prefix(root).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[', '{', '|', '@']))
}

/// Applies edits in order.
pub fn apply<'a>(facts: &mut Facts, edits: impl IntoIterator<Item = &'a Edit>) {
    for edit in edits {
        match edit {
            Edit::RemoveTree(root) => facts.retain(|k, _| !is_below(k, root)),
            Edit::Remove(k) => {
                facts.remove(k);
            }
            Edit::Insert(k, v) => {
                facts.insert(k.clone(), v.clone());
            }
            Edit::Rekey { from, to } => {
                let moved: Vec<(String, String)> = facts
                    .iter()
                    .filter(|(k, _)| is_below(k, from))
                    .map(|(k, v)| (format!("{to}{}", &k[from.len()..]), v.clone()))
                    .collect();
                facts.retain(|k, _| !is_below(k, from));
                facts.extend(moved);
            }
        }
    }
}

/// Every fact of a revision.
pub fn facts(rev: &Revision) -> Facts {
    fact_set(rev).facts
}

/// Every fact of a revision, with the kind of each.
pub fn fact_set(rev: &Revision) -> FactSet {
    let mut out = FactSet::default();
    for item in rev.items.values() {
        let path = rev.path_of(item);
        let declared = item.origin == Origin::Declared;
        out.put(format!("{path}@type"), FactKind::Type { declared }, type_summary(rev, item));
        if declared {
            docs_facts(&mut out, &path, &item.docs);
        }
        match &item.kind {
            ItemKind::Struct(s) => {
                // Every member the struct has, as a user of the type sees it; the
                // docs and deprecations where the member is declared.
                for f in &s.fields {
                    let fpath = format!("{path}.{}", member_segment(&f.wire));
                    out.put(fpath.clone(), FactKind::Field, field_summary(rev, f));
                    own_inline_types(&mut out, rev, &f.ty, &fpath);
                    if f.declared_in == item.name {
                        docs_facts(&mut out, &fpath, &f.docs);
                    } else {
                        out.put(format!("{fpath}@from"), FactKind::Origin, f.declared_in.clone());
                    }
                }
            }
            ItemKind::Enum(e) => {
                for v in &e.values {
                    let vpath = format!("{path}.{}", value_segment(&v.value));
                    out.put(vpath.clone(), FactKind::Value, "value".into());
                    if let Some(d) = &v.deprecated {
                        out.put(format!("{vpath}@deprecated"), FactKind::Deprecation, deprecation_summary(d));
                    }
                }
            }
            ItemKind::Union(u) => {
                for (i, v) in u.variants.iter().enumerate() {
                    let mut tags: Vec<String> = v.tags.iter().map(|t| t.value.to_json()).collect();
                    if let Some(sel) = u.selector() {
                        tags.extend(
                            sel.tags.iter().filter(|(_, k)| *k == i).map(|(t, _)| format!("{}: {t:?}", sel.field)),
                        );
                        if sel.other == Some(i) {
                            tags.push(format!("{}: unlisted", sel.field));
                        }
                    }
                    if u.fallback() == Some(i) {
                        tags.push("any other".into());
                    }
                    let tags = if tags.is_empty() { String::new() } else { format!(" when {}", tags.join(" | ")) };
                    let vpath = format!("{path}|{}", v.name);
                    out.put(vpath.clone(), FactKind::Variant, format!("{}{tags}", type_text(rev, &v.ty)));
                    own_inline_types(&mut out, rev, &v.ty, &vpath);
                }
            }
            ItemKind::Alias(t) => own_inline_types(&mut out, rev, t, &format!("{path}@type")),
            ItemKind::Const(_) => {}
        }
    }
    for m in methods(rev) {
        out.put(format!("method:{}", m.name), FactKind::Method, method_summary(&m));
    }
    out
}

/// Records `owner` as the owner of the inline types `ty` names.
fn own_inline_types(out: &mut FactSet, rev: &Revision, ty: &Type, owner: &str) {
    match ty {
        Type::Array(t) | Type::Map(t) | Type::Nullable(t) => own_inline_types(out, rev, t, owner),
        Type::Named(n) => {
            if let Some(item) = rev.item(n).filter(|i| matches!(i.origin, Origin::Inline { .. })) {
                out.owners.insert(format!("{}@type", rev.path_of(item)), owner.to_string());
            }
        }
        _ => {}
    }
}

pub fn method_summary(m: &crate::protocol::Method) -> String {
    match (m.kind, &m.result) {
        // The result by its type's name and by the name the generated crate also
        // gives it (`results::CallTool`), so either finds the change.
        (kind, Some(r)) if kind.is_request() => {
            format!("{} {} -> {r} (results::{})", kind.as_str(), m.message, m.results_name())
        }
        (kind, _) => format!("{} {}", kind.as_str(), m.message),
    }
}

fn docs_facts(out: &mut FactSet, path: &str, docs: &Docs) {
    if !docs.text.is_empty() {
        out.put(format!("{path}@docs"), FactKind::Docs, docs.text.join("\n"));
    }
    if let Some(d) = &docs.deprecated {
        out.put(format!("{path}@deprecated"), FactKind::Deprecation, deprecation_summary(d));
    }
}

pub fn deprecation_summary(d: &crate::model::Deprecation) -> String {
    let mut s = String::from("deprecated");
    if let Some(since) = &d.since {
        s.push_str(&format!(" since {since}"));
    }
    if let Some(sep) = &d.sep {
        s.push_str(&format!(" ({sep})"));
    }
    s
}

/// The shape of an item, without its members.
pub fn type_summary(rev: &Revision, item: &Item) -> String {
    match &item.kind {
        ItemKind::Struct(s) => {
            let mut t = String::from("object");
            if !s.bases.is_empty() {
                t.push_str(&format!(" extends {}", s.bases.join(", ")));
            }
            if let Some(ix) = &s.index {
                t.push_str(&format!(" with [key: string]: {}", type_text(rev, ix)));
            }
            t
        }
        ItemKind::Union(u) => match &u.rule {
            UnionRule::Tagged { field, .. } => format!("union (by `{field}`)"),
            UnionRule::Selected(sel) => format!("union (by `{}`, then by shape)", sel.field),
            UnionRule::Shape | UnionRule::Kind => "union (by shape)".into(),
        },
        ItemKind::Enum(e) if e.open => "open enum".into(),
        ItemKind::Enum(_) => "enum".into(),
        ItemKind::Alias(t) => format!("alias of {}", type_text(rev, t)),
        ItemKind::Const(l) => format!("const {}", l.value.to_json()),
    }
}

/// `required string`, `optional {object}`, `required "tools/call"`.
pub fn field_summary(rev: &Revision, f: &Field) -> String {
    let default = f.role.default().map(|d| format!(" (absent: {})", d.value.to_json())).unwrap_or_default();
    format!("{} {}{default}", if f.is_required() { "required" } else { "optional" }, type_text(rev, &f.ty))
}

/// A type as text, with anonymous types shown by their kind (`{object}`,
/// `{enum}`): their members are facts of their own.
pub fn type_text(rev: &Revision, t: &Type) -> String {
    match t {
        Type::Named(n) => match rev.item(n) {
            Some(i) if i.origin != Origin::Declared => match &i.kind {
                ItemKind::Enum(_) => "{enum}".into(),
                ItemKind::Union(_) => "{union}".into(),
                ItemKind::Struct(_) => "{object}".into(),
                ItemKind::Alias(_) => match rev.canonical(t) {
                    Type::Named(m) if m == n => n.clone(),
                    other => type_text(rev, other),
                },
                ItemKind::Const(_) => "{const}".into(),
            },
            _ => n.clone(),
        },
        Type::Array(t) => format!("{}[]", type_text(rev, t)),
        Type::Map(t) => format!("{{[key: string]: {}}}", type_text(rev, t)),
        Type::Nullable(t) => format!("{} | null", type_text(rev, t)),
        other => other.describe(),
    }
}
