//! What revisions share: a whole module, or single items.
//!
//! **A whole module.** Between releases `draft` is the newest dated revision with other links in its
//! docs. Emitting it again would compile every type twice and make a draft value
//! a different type from the same release value; instead its module re-exports
//! the earlier revision's, and its feature turns that revision's feature on.
//! Decided from the model, before anything is emitted (a shared module costs
//! nothing to generate); `tests/codegen.rs` checks each decision against the two
//! modules emitted in full, docs aside, and against the typed diff.
//!
//! **Single items.** An item whose text (definition, impls and docs, byte for
//! byte) is the same in adjacent revisions, and whose every mention of another
//! item (in code or in a doc link) is to an item shared the same way, is defined
//! once, in a module of `src/shared/` named for the revisions it spans
//! (`v2024_11_05_to_v2025_03_26`, compiled when any of their features is on), and
//! each revision module re-exports it. So a type unchanged since an earlier
//! revision is one type in both: a proxy passes a `TextContent` between them as
//! it is, and an all-revisions build compiles it once. Docs are part of the text
//! on purpose: a shared type shows one set of docs, so only types whose docs
//! agree are shared. Mentions decide the rest: a request shares its
//! `Request` impl, which names its result type, so a request whose result type
//! changed is not shared even when its own text is the same. Decided from the
//! text each item would have in its own module, so what is shared is exactly
//! what would have been emitted twice; `tests/codegen.rs` checks it.

use std::collections::{BTreeMap, BTreeSet};

use quote::quote;

use super::ItemText;
use super::items::{ident, inner_doc_attrs};
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

/// The other items of `rev` that `text` mentions: every identifier in it that
/// names one, in code or in docs (a doc link must resolve where the item is
/// defined). A word that names an item without referring to it only makes
/// sharing more cautious.
pub fn mentions(text: &str, rev: &Revision, own: &str) -> BTreeSet<String> {
    // Item names begin with a capital (types, consts): most words are looked up
    // no further.
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_uppercase()) && *w != own && rev.items.contains_key(*w))
        .map(str::to_string)
        .collect()
}

/// Decides which items adjacent revision modules share (see the module docs).
/// `modules` are the revisions with modules of their own, oldest first, each
/// with its items' text as it would be emitted in its own module.
pub fn shared_items(modules: &[(&Revision, &[ItemText])]) -> SharedItems {
    let texts: Vec<BTreeMap<&str, &str>> =
        modules.iter().map(|(_, items)| items.iter().map(|i| (i.name.as_str(), i.text.as_str())).collect()).collect();
    // same[k]: the items module k shares with module k - 1. The largest set of
    // equal items closed under mentions: drop an item mentioning one outside,
    // until none does.
    let mut same: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); modules.len()];
    for k in 1..modules.len() {
        let equal: BTreeMap<&str, BTreeSet<String>> = texts[k]
            .iter()
            .filter(|(name, text)| texts[k - 1].get(*name) == Some(*text))
            .map(|(name, text)| (*name, mentions(text, modules[k].0, name)))
            .collect();
        let mut set: BTreeSet<&str> = equal.keys().copied().collect();
        loop {
            let closed: BTreeSet<&str> =
                set.iter().copied().filter(|n| equal[n].iter().all(|m| set.contains(m.as_str()))).collect();
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
        let starts = texts[k].keys().map(|n| (*n, if same[k].contains(n) { first[k - 1][n] } else { k })).collect();
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
        "These items are the same, docs included, in the revisions named, and so are \
         the items they name: each is one Rust type in all of them (a value of one \
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

/// The text of a shared module: its docs, imports of the shared items its items
/// mention from other shared modules, and its items' text as `revisions[first]`
/// emitted it. Each import is of the one module that holds the item for all of
/// this module's revisions (an item is shared only with what it mentions).
pub fn shared_module_text(
    shared: &SharedModule,
    names: &[String],
    rev: &Revision,
    items: &[ItemText],
    reexports: &Reexports,
) -> (proc_macro2::TokenStream, String) {
    let docs = [format!(
        "Items revisions {} declare the same way, docs included; each revision \
             module re-exports them.",
        shared.span()
    )];
    let doc = inner_doc_attrs(&docs);
    let head = quote! {
        #doc
        #![allow(deprecated)]
        #![allow(clippy::large_enum_variant, clippy::enum_variant_names, clippy::deprecated_semver)]
    };
    let here: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    let mut imports: BTreeMap<(String, String), bool> = BTreeMap::new();
    let mut body = String::new();
    for item in items.iter().filter(|i| here.contains(i.name.as_str())) {
        let code: String =
            item.text.lines().filter(|l| !l.trim_start().starts_with("///")).flat_map(|l| [l, "\n"]).collect();
        let in_code = mentions(&code, rev, &item.name);
        for m in mentions(&item.text, rev, &item.name) {
            if here.contains(m.as_str()) {
                continue;
            }
            let Some(from) = reexports.get(&m) else { continue };
            *imports.entry((from.module.clone(), m.clone())).or_default() |= in_code.contains(&m);
        }
        body.push('\n');
        body.push_str(&item.text);
    }
    let mut uses = String::new();
    for ((module, name), in_code) in &imports {
        // A mention in doc links alone is no use to the compiler.
        let allow = if *in_code { "" } else { "#[allow(unused_imports)]\n" };
        uses.push_str(&format!("{allow}use super::{module}::{name};\n"));
    }
    if !uses.is_empty() {
        uses.insert(0, '\n');
    }
    (head, format!("{uses}{body}"))
}
