//! What revisions share: a whole module, or single items.
//!
//! **A whole module.** Between releases `draft` is the newest dated revision
//! with other links in its docs. Emitting it again would compile every type
//! twice and make a draft value a different type from the same release value;
//! instead its module re-exports the earlier revision's, and its feature turns
//! that revision's feature on. Decided from the model, before anything is
//! emitted (a shared module costs nothing to generate); `tests/codegen.rs`
//! checks each decision against the two modules emitted in full, docs aside,
//! and against the typed diff.
//!
//! **Single items.** An item whose text (definition, impls and docs, byte for
//! byte) is the same in adjacent revisions, and whose every mention of another
//! item is of one shared the same way, is defined once, in a module of
//! `src/shared/` named for the revisions it spans (`v2024_11_05_to_v2025_03_26`,
//! compiled when any of their features is on), and each revision module
//! re-exports it. So a type unchanged since an earlier revision is one type in
//! both: a proxy passes a `TextContent` between them as it is, and an
//! all-revisions build compiles it once. Docs are part of the text on purpose: a
//! shared type shows one set of docs, so only types whose docs agree are shared.
//!
//! A mention is any word of the code that names another item of either
//! revision (a member's type, a union's member, the result type in a request's
//! `Request` impl, so a request whose result type changed is not shared; but
//! also a name in a string), and any word of what rustdoc may read as a link in
//! the docs (`[...]`, `](...)`); a name in prose is not one. Counting too many
//! only keeps apart what could have been shared; counting too few would not
//! compile (or would break a doc link), so the rule errs that way. Decided from the text each item would have in its own
//! module; `tests/codegen.rs` checks the decisions, and compiles a crate made
//! for them one revision feature at a time.

use std::collections::{BTreeMap, BTreeSet};

use quote::quote;

use super::cx::ItemText;
use super::cx::ident;
use super::items::inner_doc_attrs;
use crate::diag::Span;
use crate::model::{Docs, ItemKind, Revision};

/// What of a revision's model reaches its Rust items: every item, with its docs
/// and its members' reduced to their deprecation (the one part of docs that is
/// code: `#[deprecated]`) and without source spans. The emitter reads nothing
/// else of docs outside the doc text (see `emit::docs::render`).
fn code_fingerprint(rev: &Revision) -> String {
    fn code_only(docs: &mut Docs) {
        *docs = Docs { deprecated: docs.deprecated.take(), ..Docs::default() };
    }
    let mut items = rev.items.clone();
    for item in items.values_mut() {
        code_only(&mut item.docs);
        item.span = Span::default();
        if let ItemKind::Struct(s) = &mut item.kind {
            for f in &mut s.fields {
                code_only(&mut f.docs);
                f.span = Span::default();
            }
        }
    }
    format!("{items:?}")
}

/// For each revision (by module name) whose items are an earlier revision's,
/// that earlier revision. A revision is shared with the first one it equals, and
/// a shared revision is never the one shared with, so a chain of equal revisions
/// all point at its oldest.
pub fn shared_revisions(revisions: &[Revision]) -> BTreeMap<String, &Revision> {
    // Only revisions with the same item names can be the same; the fingerprint,
    // which formats the whole model, is made for those alone.
    let prints: Vec<Option<String>> = revisions
        .iter()
        .map(|r| {
            let twin = revisions.iter().any(|o| !std::ptr::eq(o, r) && o.items.keys().eq(r.items.keys()));
            twin.then(|| code_fingerprint(r))
        })
        .collect();
    let mut shared: BTreeMap<String, &Revision> = BTreeMap::new();
    for (i, rev) in revisions.iter().enumerate() {
        let same = (0..i)
            .find(|&e| !shared.contains_key(&revisions[e].module) && prints[i].is_some() && prints[e] == prints[i]);
        if let Some(e) = same {
            shared.insert(rev.module.clone(), &revisions[e]);
        }
    }
    shared
}

/// The module of `rev` when it holds `of`'s items: its docs, and a re-export.
pub fn reexport_module(rev: &Revision, of: &Revision) -> proc_macro2::TokenStream {
    let docs = [
        format!("Types of MCP revision {}, generated from `schema/{}/schema.ts`.", rev.name, rev.name),
        String::new(),
        format!(
            "This revision's schema declares the same types, members and values as {}'s \
             (only their docs differ), so its items are [those of {}](crate::{}), re-exported: \
             one set of types, compiled once, and a value of one revision is a value of the \
             other. The docs shown are {}'s. The feature `{}` turns on `{}`; when the two \
             revisions part, this module gets types of its own.",
            of.name, of.name, of.module, of.name, rev.module, of.module
        ),
    ];
    let doc = inner_doc_attrs(&docs);
    let of_module = ident(&of.module);
    quote! {
        #doc
        pub use crate::#of_module::*;
    }
}

/// A module of `src/shared/`: items that revisions `first` to `last` (adjacent
/// modules of their own) declare the same way.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SharedModule {
    /// `v2024_11_05_to_v2025_03_26`.
    pub module: String,
    /// The revisions it serves, oldest first, by name and by module.
    pub revisions: Vec<(String, String)>,
}

impl SharedModule {
    /// `2024-11-05 to 2025-03-26`.
    pub fn span(&self) -> String {
        match (self.revisions.first(), self.revisions.last()) {
            (Some(first), Some(last)) => format!("{} to {}", first.0, last.0),
            _ => String::new(),
        }
    }
}

/// The items of one revision module that it re-exports from a shared module.
pub type Reexports = BTreeMap<String, SharedModule>;

/// What the revision modules share item by item.
#[derive(Debug, Default)]
pub struct SharedItems {
    /// For each revision module, the items it re-exports.
    pub reexports: BTreeMap<String, Reexports>,
    /// Each shared module and its items, by name (their text is that of its
    /// first revision's, the same as every other's).
    pub modules: BTreeMap<SharedModule, Vec<String>>,
}

/// Item names, for finding mentions: a word is looked up only if an item's name
/// starts with its first byte (most words of prose are not).
pub struct Names<'a> {
    rev: &'a Revision,
    starts: [bool; 256],
}

impl<'a> Names<'a> {
    pub fn of(rev: &'a Revision) -> Names<'a> {
        let mut starts = [false; 256];
        for name in rev.items.keys() {
            if let Some(b) = name.bytes().next() {
                starts[b as usize] = true;
            }
        }
        Names { rev, starts }
    }

    /// The other items `text` mentions (see the module docs), but `own`.
    pub fn mentions(&self, text: &str, own: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for line in text.lines() {
            match line.trim_start().strip_prefix("///") {
                // In docs, what rustdoc resolves: the targets of links.
                Some(doc) => {
                    for target in link_targets(doc) {
                        self.add_words(target, own, &mut out);
                    }
                }
                None => self.add_words(line, own, &mut out),
            }
        }
        out
    }

    fn add_words(&self, text: &str, own: &str, out: &mut BTreeSet<String>) {
        let words = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.bytes().next().is_some_and(|b| self.starts[b as usize]))
            .filter(|w| *w != own && self.rev.items.contains_key(*w));
        out.extend(words.map(str::to_string));
    }
}

/// What rustdoc may read as a link in a line of docs: the text of every
/// `[...]`, the target of every `](...)` and of every reference definition
/// (`[label]: target`), as they are (a word of them names an item or does not).
/// A link never spans lines here: `docs::render` converts line by line and
/// escapes a bracket that opens no link.
fn link_targets(doc: &str) -> impl Iterator<Item = &str> {
    let brackets = doc.split('[').skip(1).filter_map(|rest| rest.split_once(']').map(|(inside, _)| inside));
    let targets = doc.split("](").skip(1).filter_map(|rest| rest.split_once(')').map(|(inside, _)| inside));
    let definitions = doc.split("]:").skip(1).filter_map(|rest| rest.split_whitespace().next());
    brackets.chain(targets).chain(definitions)
}

/// The other items of `rev` that `text` mentions (see [`Names::mentions`]).
pub fn mentions(text: &str, rev: &Revision, own: &str) -> BTreeSet<String> {
    Names::of(rev).mentions(text, own)
}

/// Decides which items adjacent revision modules share (see the module docs).
/// `modules` are the revisions with modules of their own, oldest first, each
/// with its items' text as it would be emitted in its own module.
pub fn shared_items(modules: &[(&Revision, &[ItemText])]) -> SharedItems {
    let texts: Vec<BTreeMap<&str, &str>> =
        modules.iter().map(|(_, items)| items.iter().map(|i| (i.name.as_str(), i.text.as_str())).collect()).collect();
    let names: Vec<Names<'_>> = modules.iter().map(|(rev, _)| Names::of(rev)).collect();
    // same[k]: the items module k shares with module k - 1. The largest set of
    // equal items closed under mentions (in either revision: a word that names
    // an item of one of them only is not shared, and keeps the item apart): drop
    // an item mentioning one outside, until none does.
    let mut same: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); modules.len()];
    for k in 1..modules.len() {
        let equal: BTreeMap<&str, BTreeSet<String>> = texts[k]
            .iter()
            .filter(|(name, text)| texts[k - 1].get(*name) == Some(*text))
            .map(|(name, text)| {
                let mut m = names[k].mentions(text, name);
                m.extend(names[k - 1].mentions(text, name));
                (*name, m)
            })
            .collect();
        let mut set: BTreeSet<&str> = equal.keys().copied().collect();
        loop {
            let closed: BTreeSet<&str> = set
                .iter()
                .copied()
                .filter(|n| equal.get(n).is_some_and(|m| m.iter().all(|m| set.contains(m.as_str()))))
                .collect();
            if closed.len() == set.len() {
                break;
            }
            set = closed;
        }
        same[k] = set;
    }
    // Each item's first module of the run of modules it is shared along.
    let mut first: Vec<BTreeMap<&str, usize>> = Vec::with_capacity(modules.len());
    for k in 0..modules.len() {
        let starts = texts[k]
            .keys()
            .map(|n| {
                let earlier = if same[k].contains(n) { first.last().and_then(|f| f.get(n)).copied() } else { None };
                (*n, earlier.unwrap_or(k))
            })
            .collect();
        first.push(starts);
    }
    // Runs of two modules or more, by (first, item): their last module.
    let mut last: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for (k, starts) in first.iter().enumerate() {
        for (n, s) in starts {
            if *s < k {
                last.insert((*s, n), k);
            }
        }
    }
    let module_of = |s: usize, e: usize| SharedModule {
        module: format!("{}_to_{}", modules[s].0.module, modules[e].0.module),
        revisions: modules[s..=e].iter().map(|(r, _)| (r.name.clone(), r.module.clone())).collect(),
    };
    let mut out = SharedItems::default();
    for (&(s, name), &e) in &last {
        let shared = module_of(s, e);
        out.modules.entry(shared.clone()).or_default().push(name.to_string());
        for (_, rev) in &shared.revisions {
            out.reexports.entry(rev.clone()).or_default().insert(name.to_string(), shared.clone());
        }
    }
    out
}

/// The lines a revision module's docs say about the items it shares.
pub fn shared_docs(reexports: &Reexports) -> Vec<String> {
    if reexports.is_empty() {
        return Vec::new();
    }
    let mut by_module: BTreeMap<&SharedModule, Vec<&str>> = BTreeMap::new();
    for (name, shared) in reexports {
        by_module.entry(shared).or_default().push(name);
    }
    let mut docs = vec![
        String::new(),
        "# Shared with other revisions".into(),
        String::new(),
        "These items are the same, docs included, in the revisions named, and so is \
         every item they name: each is one Rust type in all of them (a value of one \
         revision's is a value of the other's), compiled once."
            .into(),
        String::new(),
    ];
    for (shared, names) in by_module {
        let list: Vec<String> = names.iter().map(|n| format!("[`{n}`]")).collect();
        docs.push(format!("- {}: {}", shared.span(), list.join(", ")));
    }
    docs
}

/// A shared module, to format: its docs and attributes as tokens, and the rest,
/// already text.
pub struct SharedText {
    pub head: proc_macro2::TokenStream,
    pub body: String,
}

/// A shared module: its docs, an import of each item its items mention from
/// another shared module, and its items' text as its first revision `rev`
/// emitted it. An item mentioned is shared over at least this module's
/// revisions (`shared_items` shares nothing that mentions less), so each import
/// is of a module compiled whenever this one is. One it cannot find is an
/// internal error, returned by name.
pub fn shared_module_text(
    shared: &SharedModule,
    names: &[String],
    rev: &Revision,
    items: &[ItemText],
    reexports: &Reexports,
) -> Result<SharedText, String> {
    let docs = [
        format!("Items revisions {} declare the same way, docs included;", shared.span()),
        "each revision module re-exports them.".to_string(),
    ];
    let doc = inner_doc_attrs(&docs);
    let allows = super::cx::item_module_allows();
    // Imports follow mentions, which count names in strings too.
    let head = quote! {
        #doc
        #allows
        #![allow(unused_imports)]
    };
    let words = Names::of(rev);
    let here: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    let mut imports: BTreeSet<(&str, String)> = BTreeSet::new();
    let mut body = String::new();
    for item in items.iter().filter(|i| here.contains(i.name.as_str())) {
        for m in words.mentions(&item.text, &item.name) {
            if here.contains(m.as_str()) {
                continue;
            }
            match reexports.get(&m) {
                Some(from) if covers(from, shared) => {
                    imports.insert((from.module.as_str(), m));
                }
                _ => return Err(format!("{} mentions {m}, which is not shared over {}", item.name, shared.span())),
            }
        }
        body.push('\n');
        body.push_str(&item.text);
    }
    let mut uses = String::new();
    for (module, name) in &imports {
        uses.push_str(&format!("use super::{module}::{name};\n"));
    }
    if !uses.is_empty() {
        uses.insert(0, '\n');
    }
    Ok(SharedText { head, body: format!("{uses}{body}") })
}

/// Whether `outer` serves every revision `inner` does.
fn covers(outer: &SharedModule, inner: &SharedModule) -> bool {
    inner.revisions.iter().all(|r| outer.revisions.contains(r))
}
