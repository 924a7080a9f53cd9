//! What every emitter of a revision's items shares: the context of the
//! revision being emitted ([`Cx`]: its model, the registry's notes, the values
//! unions pick structs by), and the small pieces of Rust they all spell (a type's
//! tokens, a name, a literal, a `#[deprecated]`). Below `build` and `items`,
//! which both use it: neither imports the other's helpers.

use std::cell::RefCell;
use std::collections::BTreeMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::docs::{Links, render};
use crate::model::{Deprecation, Docs, ItemKind, LiteralValue, Revision, Type};
use crate::rust::{RustType, RustTypes};

/// Extra doc lines for items and fields, keyed by `Type` or `Type.field`
/// (the registry's look-ahead notes: "Removed in 2026-07-28").
pub type Notes = BTreeMap<String, Vec<String>>;

/// Extra doc lines per revision module (keyed by module name), e.g. look-ahead
/// notes from the deprecation registry.
pub type RevisionNotes = BTreeMap<String, Notes>;

pub struct Cx<'a> {
    pub rev: &'a Revision,
    pub notes: &'a Notes,
    /// The values unions' selectors pick structs by (see `build`).
    pub picked: Picked,
    /// The text of each doc attribute made for this revision's items.
    pub docs: DocTexts,
}

impl<'a> Cx<'a> {
    pub fn new(rev: &'a Revision, notes: &'a Notes) -> Cx<'a> {
        Cx { rev, notes, picked: picked_values(rev), docs: DocTexts::default() }
    }
}

impl Cx<'_> {
    fn links(&self) -> Links<'_> {
        Links { rev: self.rev }
    }

    pub fn types(&self) -> RustTypes<'_> {
        RustTypes::module(self.rev)
    }

    /// The tokens of a model type's Rust type.
    pub fn rust_type(&self, t: &Type) -> TokenStream {
        type_tokens(&self.types().of(t))
    }

    /// The tokens of a member's value type, boxed when it closes a cycle.
    pub fn member_type(&self, t: &Type, boxed: bool) -> TokenStream {
        type_tokens(&self.types().boxed(t, boxed))
    }

    pub fn option(&self) -> TokenStream {
        match self.types().option(RustType::Path(String::new())) {
            RustType::Generic(p, _) => path_tokens(&p),
            other => type_tokens(&other),
        }
    }

    /// The Rust expression for a member's default value (`rust::default_expr`;
    /// `lower` has dropped every default it has none for).
    pub(crate) fn default_text(&self, ty: &Type, v: &LiteralValue) -> Option<String> {
        crate::rust::default_expr(|n| self.rev.item(n), ty, v)
    }

    pub(super) fn doc_lines(&self, docs: &Docs, key: &str) -> Vec<String> {
        let mut lines = render(docs, &self.links());
        if let Some(notes) = self.notes.get(key) {
            for n in notes {
                if !lines.is_empty() {
                    lines.push(String::new());
                }
                lines.push(n.clone());
            }
        }
        lines
    }
}

/// A Rust type's tokens, built from its parts (every name in it is one that
/// `check` has accepted as a Rust name).
pub fn type_tokens(t: &RustType) -> TokenStream {
    match t {
        RustType::Path(p) => path_tokens(p),
        RustType::Generic(p, args) => {
            let path = path_tokens(p);
            let args = args.iter().map(type_tokens);
            quote!(#path<#(#args),*>)
        }
    }
}

/// `::std::vec::Vec`, `Vec`, `crate::Extra` as tokens.
fn path_tokens(path: &str) -> TokenStream {
    let (leading, rest) = match path.strip_prefix("::") {
        Some(rest) => (quote!(::), rest),
        None => (TokenStream::new(), path),
    };
    let segments = rest.split("::").map(ident);
    quote!(#leading #(#segments)::*)
}

pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// For each struct and field, the value a union's selector picks it by:
/// `(InputRequiredResult, resultType)` → `input_required`.
pub type Picked = BTreeMap<(String, String), String>;

pub fn picked_values(rev: &Revision) -> Picked {
    let mut out = Picked::new();
    for item in rev.items.values() {
        let ItemKind::Union(u) = &item.kind else { continue };
        let Some(sel) = u.selector() else { continue };
        for (value, k) in &sel.tags {
            if let Type::Named(n) = rev.canonical(&u.variants[*k].ty) {
                out.insert((n.clone(), sel.field.clone()), value.clone());
            }
        }
    }
    out
}

/// `#[deprecated(since = "…", note = "…")]` as text, on one line: for the
/// definitions (as tokens) and for the setters `build` lays out.
pub(super) fn deprecated_text(dep: &Deprecation) -> String {
    match &dep.since {
        Some(since) => format!("#[deprecated(since = {since:?}, note = {:?})]", dep.note),
        None => format!("#[deprecated(note = {:?})]", dep.note),
    }
}

/// A Rust literal for a literal value: `"2.0"`, `-32602`, `0.5`, `true`, and its type.
pub(super) fn literal_text(l: &LiteralValue) -> (String, &'static str) {
    match l {
        LiteralValue::Str(s) => (format!("{s:?}"), "&str"),
        LiteralValue::Int(i) => (i.to_string(), "i64"),
        LiteralValue::Float(f) => (format!("{f:?}"), "f64"),
        LiteralValue::Bool(b) => (b.to_string(), "bool"),
    }
}

/// What a doc attribute holds in place of its text: prettyplease prints it as
/// `///@mcp-spec-doc:<n>`, and `format::expand_docs` writes the text there.
pub const DOC_PLACEHOLDER: &str = "@mcp-spec-doc:";

/// The text of each doc attribute [`DocTexts::attrs`] made, by the number its
/// placeholder carries: owned by the emission that made them (its [`Cx`], then
/// the tokens it returns), and read when those tokens are formatted.
#[derive(Default)]
pub struct DocTexts(RefCell<Vec<String>>);

impl DocTexts {
    /// Doc lines as one `#[doc]` attribute holding a placeholder; the text itself
    /// never goes through tokens, syn and prettyplease (it is most of the output,
    /// and quoting it into a literal, parsing it back and printing it again was a
    /// third of the emit time). The output is what one attribute per line gives.
    pub fn attrs(&self, lines: &[String]) -> TokenStream {
        if lines.is_empty() {
            return TokenStream::new();
        }
        // Trailing spaces trimmed, as prettyplease trims a doc attribute's lines.
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.trim_end())
            .map(|l| if l.is_empty() { String::new() } else { format!(" {l}") })
            .collect();
        let mut texts = self.0.borrow_mut();
        texts.push(text.join("\n"));
        let placeholder = format!("{DOC_PLACEHOLDER}{}", texts.len());
        quote!(#[doc = #placeholder])
    }

    /// The text of the doc attribute whose placeholder carries `id`, if this
    /// store made it.
    pub fn with_text<R>(&self, id: usize, f: impl FnOnce(Option<&str>) -> R) -> R {
        let texts = self.0.borrow();
        f(id.checked_sub(1).and_then(|i| texts.get(i)).map(String::as_str))
    }
}

/// One item's text: its definition (prettyplease), its builders and other impls
/// and the macro call that writes its serde impls (laid out by hand) and, for a
/// request or notification, its `Request`, `InputRequest` or `Notification` impl. Everything the item brings
/// into a module, so a shared item is this text moved as it is.
pub struct ItemText {
    pub name: String,
    pub text: String,
}

/// The lints every module of generated items allows: deprecated items are used
/// where the schema uses them, items keep the schema's names, whatever their
/// case, and `new` takes every required member (however many) and is not
/// `Default` where a struct requires nothing only because it has `Default` too.
pub(crate) fn item_module_allows() -> TokenStream {
    quote! {
        #![allow(deprecated, non_camel_case_types, non_upper_case_globals)]
        #![allow(clippy::large_enum_variant, clippy::enum_variant_names, clippy::deprecated_semver)]
        #![allow(clippy::new_without_default, clippy::too_many_arguments)]
    }
}
