//! One revision's module: its items emitted (each on its own, as tokens and
//! laid-out text) and formatted, then put together with its docs, the items it
//! shares with other revisions, and its tail (`AnyResult`, `results`,
//! `METHODS`, `SCHEMA_TYPES`), and each method's trait impl.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::cx::{Cx, DocTexts, ItemText, Notes, ident, item_module_allows};
use super::format::{check_laid_out, format_file, format_file_with};
use super::header::revision_header;
use super::items::{emit_item, inner_doc_attrs};
use super::{build, calls, share};
use crate::diag::Diagnostics;
use crate::model::{Item, ItemKind, Origin, Revision};

/// A revision's items as formatted text, each on its own, before the crate
/// decides which of them it shares with other revisions (`share`).
pub struct ModuleText {
    pub items: Vec<ItemText>,
    /// `METHODS` and `SCHEMA_TYPES`.
    pub tail: String,
}

/// Formats each item of a revision on its own, so that one item's change leaves
/// the others' text alone and an item can be moved whole.
pub(crate) fn format_items(rev: &Revision, notes: &Notes, path: &str, diags: &mut Diagnostics) -> ModuleText {
    let module = revision_module(rev, notes);
    let items = module
        .items
        .into_iter()
        .map(|piece| {
            let mut text = format_file_with(&piece.tokens, "", path, &module.docs, diags);
            // Text of a few fixed shapes is not parsed back in a release build (that
            // was most of its cost); a debug build, every test run, checks it as it
            // checks the macro calls.
            if cfg!(debug_assertions) && !piece.impls.is_empty() {
                check_laid_out(&piece.impls, path, diags);
            }
            text.push_str(&piece.impls);
            if let Some(call) = piece.call {
                let call = call.render();
                check_laid_out(&call, path, diags);
                text.push_str(&call);
            }
            if let Some(method) = piece.method {
                if cfg!(debug_assertions) {
                    check_laid_out(&method, path, diags);
                }
                text.push('\n');
                text.push_str(&method);
            }
            ItemText { name: piece.name, text }
        })
        .collect();
    let tail = format_file_with(&module.tail, "", path, &module.docs, diags);
    ModuleText { items, tail }
}

/// A revision's module file: its header and docs, then each item (or, for one it
/// shares, the re-export of its shared module, consecutive re-exports together),
/// a blank line between items, then the tail.
pub(super) fn module_file(
    rev: &Revision,
    module: &ModuleText,
    reexports: &share::Reexports,
    path: &str,
    diags: &mut Diagnostics,
) -> String {
    let mut out = format_file(&module_head(rev, reexports), &revision_header(rev), path, diags);
    let mut last_was_reexport = false;
    for item in &module.items {
        match reexports.get(&item.name) {
            Some(shared) => {
                if !last_was_reexport {
                    out.push('\n');
                }
                out.push_str(&format!("pub use crate::shared::{}::{};\n", shared.module, item.name));
                last_was_reexport = true;
            }
            None => {
                out.push('\n');
                out.push_str(&item.text);
                last_was_reexport = false;
            }
        }
    }
    if !module.tail.is_empty() {
        out.push('\n');
        out.push_str(&module.tail);
    }
    out
}

/// The `Request` (and `HasResponse`), `InputRequest` or `Notification` impl of
/// one method, laid out as text (one shape for all).
fn method_impl(rev: &Revision, cx: &Cx<'_>, m: &crate::protocol::Method) -> String {
    use crate::protocol::MethodKind;
    let message = &m.message;
    let method = &m.name;
    let (params_ty, params_expr) = match rev.item(&m.message).map(|i| &i.kind) {
        Some(ItemKind::Struct(s)) => match s.field("params") {
            Some(f) if f.role.has_rust_field() => {
                let ty = cx.types().field(f).map(|t| t.to_string()).unwrap_or_default();
                (ty, format!("&self.{}", crate::rust::member_name(f)))
            }
            _ => ("()".to_string(), "&()".to_string()),
        },
        _ => ("()".to_string(), "&()".to_string()),
    };
    let result = m.result.clone().unwrap_or_else(|| "::serde_json::Value".to_string());
    let (trait_name, result) = match m.kind {
        MethodKind::Request => ("Request", Some(result)),
        MethodKind::InputRequest => ("InputRequest", Some(result)),
        MethodKind::Notification => ("Notification", None),
    };
    let mut out = format!("impl crate::{trait_name} for {message} {{\n    const METHOD: &'static str = {method:?};\n");
    out.push_str(&format!("    type Params = {params_ty};\n"));
    if let Some(result) = result {
        out.push_str(&format!("    type Result = {result};\n"));
    }
    out.push_str(&format!("    fn params(&self) -> &Self::Params {{\n        {params_expr}\n    }}\n}}\n"));
    if let (MethodKind::Request, Some(response)) = (&m.kind, &m.response) {
        out.push_str(&format!("impl crate::HasResponse for {message} {{\n    type Response = {response};\n}}\n"));
    }
    out
}

/// The types that complete the revision's requests, each once, by name:
/// `AnyResult`'s members.
pub(crate) fn complete_results(methods: &[crate::protocol::Method]) -> Vec<String> {
    let mut names: Vec<String> = methods.iter().filter_map(|m| m.complete.clone()).collect();
    names.sort();
    names.dedup();
    names
}

/// `AnyResult`: the complete result of any request of the revision, read by
/// method (the dispatch a proxy or a tool needs to handle results it did not
/// ask for itself), and written as the type it holds.
fn any_result(methods: &[crate::protocol::Method]) -> TokenStream {
    let names = complete_results(methods);
    if names.is_empty() {
        return TokenStream::new();
    }
    let variants: Vec<_> = names.iter().map(|n| ident(n)).collect();
    let arms = methods.iter().filter_map(|m| {
        let v = ident(m.complete.as_ref()?);
        let method = &m.name;
        Some(quote! { #method => crate::from_str::<#v>(json).map(AnyResult::#v), })
    });
    let names_of = names.iter().zip(&variants).map(|(n, v)| quote! { AnyResult::#v(_) => #n, });
    quote! {
        /// The complete result of any request of this revision, as the type its
        /// method completes with (`METHODS`' `complete`: `CallToolResult` for
        /// `tools/call`): results read by method with [`AnyResult::read`], written
        /// as the type held, and converted by method to an adjacent revision's
        /// `AnyResult` (`TryFrom`, where both revisions' features are on).
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyResult {
            #( #variants(#variants), )*
        }

        impl AnyResult {
            /// Reads `json` as the complete result of `method`; `None` when this
            /// revision has no request `method`.
            // `#[inline]`: it instantiates every result's reader; compiled in the
            // crates that call it, as serde's generic code is, not in this one.
            #[inline]
            pub fn read(method: &str, json: &str) -> ::std::option::Option<::std::result::Result<AnyResult, crate::ReadError>> {
                ::std::option::Option::Some(match method {
                    #(#arms)*
                    _ => return ::std::option::Option::None,
                })
            }

            /// The schema name of the type held.
            pub fn type_name(&self) -> &'static str {
                match self {
                    #(#names_of)*
                }
            }
        }

        impl ::serde::Serialize for AnyResult {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    #( AnyResult::#variants(value) => ::serde::Serialize::serialize(value, serializer), )*
                }
            }
        }
    }
}

/// `results`: each request's result type by the request's name without
/// `Request` (`results::CallTool` for `tools/call`, whatever the schema names
/// it), and, in an extension's module, each core request's whose result the
/// extension widens.
fn results_module(rev: &Revision, methods: &[crate::protocol::Method]) -> TokenStream {
    let core_methods = rev.core.as_deref().map(crate::protocol::methods).unwrap_or_default();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let asked = methods.iter().filter(|m| m.kind != crate::protocol::MethodKind::Notification);
    for m in asked {
        let Some(result) = m.result.as_ref().filter(|r| rev.item(r).is_some()) else { continue };
        names.entry(m.results_name().to_string()).or_insert_with(|| result.clone());
    }
    for m in &core_methods {
        let Some(own) = m.result.as_ref().and_then(|r| rev.widened.get(r)) else { continue };
        names.entry(m.results_name().to_string()).or_insert_with(|| own.clone());
    }
    if names.is_empty() {
        return TokenStream::new();
    }
    let uses = names.iter().map(|(name, result)| {
        let (name, ty) = (ident(name), ident(result));
        // A core type an extension's module only imports is re-exported from the core's.
        match rev.core.as_deref().filter(|_| !rev.owns(result)) {
            Some(core) => {
                let core = ident(&core.module);
                quote! { pub use crate::#core::#ty as #name; }
            }
            None => quote! { pub use super::#ty as #name; },
        }
    });
    let example = names.keys().next().map(|n| format!("`results::{n}`")).unwrap_or_default();
    let doc = inner_doc_attrs(&[
        format!("What each request of this module answers with, by the request's name without `Request` ({example}):"),
        "the type of a successful response's `result`, as [`Request::Result`](crate::Request::Result) says, under a"
            .into(),
        "name to guess. Each is the schema's type (or the generator's name for an inline one), re-exported.".into(),
    ]);
    quote! {
        pub mod results {
            #doc
            #(#uses)*
        }
    }
}

/// A revision's items and the tail of its module, as tokens (`format_items`
/// formats them).
pub struct RevisionModule {
    pub items: Vec<ItemPiece>,
    /// `METHODS` and `SCHEMA_TYPES`.
    pub tail: TokenStream,
    /// The texts of the items' doc placeholders.
    pub docs: DocTexts,
}

/// One item as tokens: what [`ItemText`] is made from.
pub struct ItemPiece {
    pub name: String,
    pub tokens: TokenStream,
    /// Builders and other impls, laid out (see [`super::items::Emitted`]).
    pub impls: String,
    /// The runtime macro call that writes its serde impls.
    pub call: Option<calls::Call>,
    /// The method impl of a request or notification type, laid out.
    pub method: Option<String>,
}

/// A revision module's docs and inner attributes: what it is, the schema's
/// `@category` index, and the items it shares with other revisions.
fn module_head(rev: &Revision, reexports: &share::Reexports) -> TokenStream {
    let mut docs = vec![format!("Types of MCP revision {}, generated from `schema/{}/schema.ts`.", rev.name, rev.name)];
    // The schema's `@category` tags, as an index.
    let mut categories: BTreeMap<&str, Vec<&Item>> = BTreeMap::new();
    let mut uncategorised = Vec::new();
    for item in rev.items.values() {
        match (&item.origin, &item.docs.category) {
            (Origin::Declared, Some(c)) => categories.entry(c.as_str()).or_default().push(item),
            (Origin::Declared, None) => uncategorised.push(item),
            _ => {}
        }
    }
    if !categories.is_empty() {
        docs.push(String::new());
        docs.push("# Categories".into());
        docs.push(String::new());
        for (cat, items) in &categories {
            let list: Vec<String> = items.iter().map(|i| format!("[`{}`]", i.name)).collect();
            docs.push(format!("- **{}**: {}", cat.replace('`', ""), list.join(", ")));
        }
        if !uncategorised.is_empty() {
            let list: Vec<String> = uncategorised.iter().map(|i| format!("[`{}`]", i.name)).collect();
            docs.push(format!("- *No category*: {}", list.join(", ")));
        }
    }
    docs.extend(share::shared_docs(reexports));
    let doc = inner_doc_attrs(&docs);
    let allows = item_module_allows();
    quote! {
        #doc
        #allows
    }
}

pub fn revision_module(rev: &Revision, notes: &Notes) -> RevisionModule {
    let cx = Cx::new(rev, notes);
    let methods = crate::protocol::methods(rev);
    let items = rev
        .items
        .values()
        .map(|item| {
            let emitted = emit_item(item, &cx);
            let method = methods.iter().find(|m| m.message == item.name).map(|m| method_impl(rev, &cx, m));
            ItemPiece {
                name: item.name.clone(),
                tokens: emitted.tokens,
                impls: emitted.impls,
                call: emitted.call,
                method,
            }
        })
        .collect();
    let core_name_of: BTreeMap<&str, &str> = rev.widened.iter().map(|(c, own)| (own.as_str(), c.as_str())).collect();
    let entries = rev.items.values().filter(|i| !matches!(i.kind, ItemKind::Const(_))).map(|i| {
        let id = ident(&i.name);
        let kind = match &i.kind {
            ItemKind::Union(_) => quote!(union),
            ItemKind::Struct(s) if build::has_default(s) => quote!(default),
            _ => quote!(plain),
        };
        match core_name_of.get(i.name.as_str()) {
            Some(core) => quote! { #kind #id as #core, },
            None => quote! { #kind #id, },
        }
    });
    let results = results_module(rev, &methods);
    let infos = methods.iter().map(|m| {
        let (method, message) = (&m.name, &m.message);
        let kind = match m.kind {
            crate::protocol::MethodKind::Request => quote!(crate::MethodKind::Request),
            crate::protocol::MethodKind::InputRequest => quote!(crate::MethodKind::InputRequest),
            crate::protocol::MethodKind::Notification => quote!(crate::MethodKind::Notification),
        };
        let opt = |s: Option<String>| match s {
            Some(s) => quote!(::std::option::Option::Some(#s)),
            None => quote!(::std::option::Option::None),
        };
        let params = opt(m.params.as_ref().map(|t| t.describe()));
        let (result, response, complete) = (opt(m.result.clone()), opt(m.response.clone()), opt(m.complete.clone()));
        let (may_ask_for_input, cacheable) = (m.may_ask_for_input, m.cacheable);
        quote! {
            crate::MethodInfo {
                method: #method, kind: #kind, message: #message, params: #params, result: #result, response: #response,
                complete: #complete, may_ask_for_input: #may_ask_for_input, cacheable: #cacheable,
            },
        }
    });
    let any_result = if rev.core.is_none() { any_result(&methods) } else { TokenStream::new() };
    let tail = quote! {
        #any_result

        #results

        /// Every request, input request and notification of this revision by wire
        /// method name, with its params and result types (the `Request`,
        /// `InputRequest` and `Notification` impls, as data).
        pub const METHODS: &[crate::MethodInfo] = &[#(#infos)*];

        /// Every type of this revision by its schema name (inline types by their
        /// generated name), with functions that read JSON text into the type and
        /// write it back: for tests and tools that handle messages by type name.
        /// Behind the `type-table` feature: it instantiates the serde code of every
        /// type, which a crate that names its types does not need to compile.
        #[cfg(feature = "type-table")]
        pub const SCHEMA_TYPES: &[crate::rt::TypeEntry] = crate::rt::type_table![#(#entries)*];
    };
    RevisionModule { items, tail, docs: cx.docs }
}
