//! Revisions that declare the same Rust items share one module.
//!
//! Between releases `draft` is the newest dated revision with other links in its
//! docs. Emitting it again would compile every type twice and make a draft value
//! a different type from the same release value; instead its module re-exports
//! the earlier revision's, and its feature turns that revision's feature on.
//! Decided from the model, before anything is emitted (a shared module costs
//! nothing to generate); `tests/codegen.rs` checks each decision against the two
//! modules emitted in full, docs aside, and against the typed diff.

use std::collections::BTreeMap;

use quote::quote;

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
    let prints: Vec<String> = revisions.iter().map(code_fingerprint).collect();
    let mut shared: BTreeMap<String, &Revision> = BTreeMap::new();
    for (i, rev) in revisions.iter().enumerate() {
        let same = (0..i).find(|&e| !shared.contains_key(&revisions[e].module) && prints[e] == prints[i]);
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
