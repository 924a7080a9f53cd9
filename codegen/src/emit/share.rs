//! Revisions that declare the same Rust items share one module.
//!
//! Between releases `draft` is the newest dated revision with other links in its
//! docs. Emitting it again would compile every type twice and make a draft value
//! a different type from the same release value; instead its module re-exports
//! the earlier revision's, and its feature turns that revision's feature on. The
//! test is on the emitted text, so it cannot miss a difference that reaches the
//! Rust items: everything but comments and docs must be byte-identical.

use std::collections::BTreeMap;

use quote::quote;

use super::items::{ident, inner_doc_attrs};
use crate::model::Revision;

/// A module's text without what two revisions with the same types may differ in:
/// the header, comments and docs (every such line starts with `//`).
fn items_only(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim_start().starts_with("//"))
}

/// For each revision whose module (`texts`, by module name) holds the same items
/// as an earlier revision's, that earlier revision. A revision is shared with the
/// first one it equals, and a shared revision is never the one shared with, so a
/// chain of equal revisions all point at its oldest.
pub(super) fn shared_revisions<'a>(
    revisions: &'a [Revision],
    texts: &BTreeMap<String, String>,
) -> BTreeMap<String, &'a Revision> {
    let mut shared: BTreeMap<String, &Revision> = BTreeMap::new();
    for (i, rev) in revisions.iter().enumerate() {
        let Some(text) = texts.get(&rev.module) else { continue };
        let same = revisions[..i].iter().find(|earlier| {
            !shared.contains_key(&earlier.module)
                && texts.get(&earlier.module).is_some_and(|t| items_only(t).eq(items_only(text)))
        });
        if let Some(earlier) = same {
            shared.insert(rev.module.clone(), earlier);
        }
    }
    shared
}

/// The module of `rev` when it holds `of`'s items: its docs, and a re-export.
pub(super) fn reexport_module(rev: &Revision, of: &Revision) -> proc_macro2::TokenStream {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rev(name: &str) -> Revision {
        Revision {
            name: name.into(),
            module: name.replace('-', "_"),
            dated: name != "draft",
            schema_path: Default::default(),
            schema_sha256: String::new(),
            items: BTreeMap::new(),
        }
    }

    fn texts(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(m, t)| (m.to_string(), t.to_string())).collect()
    }

    fn shared_names(revisions: &[Revision], texts: &BTreeMap<String, String>) -> Vec<(String, String)> {
        shared_revisions(revisions, texts).into_iter().map(|(m, of)| (m, of.module.clone())).collect()
    }

    #[test]
    fn a_revision_with_the_same_items_docs_aside_shares_the_earlier_module() {
        let revisions = [rev("a"), rev("b"), rev("draft")];
        let t = texts(&[
            ("a", "// Revision: a\n//! Types of a.\npub struct X;\n"),
            ("b", "// Revision: b\n/// X, a link to /b.\npub struct X;\npub struct Y;\n"),
            (
                "draft",
                "// Revision: draft\n//! Types of draft.\n    /// docs of /draft\npub struct X;\npub struct Y;\n",
            ),
        ]);
        assert_eq!(shared_names(&revisions, &t), [("draft".to_string(), "b".to_string())]);
    }

    #[test]
    fn any_difference_outside_comments_keeps_a_module_of_its_own() {
        let revisions = [rev("a"), rev("b")];
        for other in ["pub struct X ;\n", "pub struct X;\n#[deprecated]\n", "pub struct X; // a comment\n"] {
            let t = texts(&[("a", "pub struct X;\n"), ("b", other)]);
            assert!(shared_revisions(&revisions, &t).is_empty(), "{other:?}");
        }
    }

    #[test]
    fn a_chain_of_equal_revisions_points_at_its_oldest() {
        let revisions = [rev("a"), rev("b"), rev("c"), rev("d")];
        let t = texts(&[
            ("a", "pub struct X;\n"),
            ("b", "pub struct X;\n"),
            ("c", "pub struct Z;\n"),
            ("d", "pub struct X;\n"),
        ]);
        let got = shared_names(&revisions, &t);
        assert_eq!(got, [("b".to_string(), "a".to_string()), ("d".to_string(), "a".to_string())]);
    }
}
