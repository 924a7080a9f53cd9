//! Stage 3: the model → the files of the `mcp-spec-types` crate, formatted with
//! prettyplease. Everything is produced in memory; writing is `output`'s job.

pub mod build;
pub mod docs;
pub mod items;
pub mod registry;

use std::collections::BTreeMap;
use std::path::PathBuf;

use proc_macro2::TokenStream;
use quote::quote;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Item, ItemKind, Origin, Revision, Spec};
use crate::registry::Registry;
use items::{Cx, Notes, emit_item, ident, inner_doc_attrs};

/// The command named in every generated file's header.
pub const COMMAND: &str = "cargo xtask codegen";

/// The support module copied into every generated crate, file by file.
pub const RUNTIME: &[(&str, &str)] = &[
    ("src/rt/mod.rs", include_str!("../../runtime/rt/mod.rs")),
    ("src/rt/choose.rs", include_str!("../../runtime/rt/choose.rs")),
    ("src/rt/enums.rs", include_str!("../../runtime/rt/enums.rs")),
    ("src/rt/extra.rs", include_str!("../../runtime/rt/extra.rs")),
    ("src/rt/fixed.rs", include_str!("../../runtime/rt/fixed.rs")),
    ("src/rt/number.rs", include_str!("../../runtime/rt/number.rs")),
    ("src/rt/object.rs", include_str!("../../runtime/rt/object.rs")),
    ("src/rt/table.rs", include_str!("../../runtime/rt/table.rs")),
    ("src/rt/union.rs", include_str!("../../runtime/rt/union.rs")),
];

/// Files of the generated crate, keyed by their path relative to the crate root.
pub type Files = BTreeMap<PathBuf, String>;

/// Extra doc lines per revision module (keyed by module name), e.g. look-ahead
/// notes from the deprecation registry.
pub type RevisionNotes = BTreeMap<String, Notes>;

/// Generates the whole crate: one module per revision (with `notes` added to the
/// docs of the items they name), the registry module and the support module.
pub fn emit_crate(spec: &Spec, registry: &Registry, notes: &RevisionNotes) -> Result<Files, Diagnostics> {
    let mut files = Files::new();
    let mut diags = Diagnostics::default();
    files.insert("Cargo.toml".into(), cargo_toml(spec));
    for (path, text) in RUNTIME {
        files.insert(path.into(), format!("{}{text}", runtime_header(path)));
    }
    // Every Rust file is independent: emitted and formatted on every core, the
    // biggest revisions first so the cores finish together.
    enum Job<'a> {
        Lib,
        Registry,
        Module(&'a Revision),
    }
    let mut jobs: Vec<Job<'_>> = spec.revisions.iter().map(Job::Module).collect();
    jobs.sort_by_key(|j| match j {
        Job::Module(r) => std::cmp::Reverse(r.items.len()),
        _ => std::cmp::Reverse(0),
    });
    jobs.extend([Job::Registry, Job::Lib]);
    let empty = Notes::new();
    let outputs = crate::par::map(&jobs, |job| {
        let mut d = Diagnostics::default();
        let (path, text) = match job {
            Job::Lib => ("src/lib.rs".to_string(), format_file(&lib_rs(spec), &lib_header(spec), "src/lib.rs", &mut d)),
            Job::Registry => {
                let data = format_file(&registry::registry_data(registry), "", "src/registry.rs", &mut d);
                ("src/registry.rs".to_string(), format!("{}{}\n{data}", lib_header(spec), registry::API))
            }
            Job::Module(rev) => {
                let path = format!("src/{}.rs", rev.module);
                let text = format_module(rev, notes.get(&rev.module).unwrap_or(&empty), &path, &mut d);
                (path, text)
            }
        };
        (path, text, d)
    });
    for (path, text, d) in outputs {
        files.insert(path.into(), text);
        diags.extend(d);
    }
    if diags.has_errors() { Err(diags) } else { Ok(files) }
}

/// One revision's module file, formatted, with its header.
pub fn emit_module(rev: &Revision, notes: &Notes) -> Result<String, Diagnostics> {
    let mut diags = Diagnostics::default();
    let path = format!("src/{}.rs", rev.module);
    let text = format_module(rev, notes, &path, &mut diags);
    if diags.has_errors() { Err(diags) } else { Ok(text) }
}

/// A revision's module as text: the module's docs and attributes, then each item
/// formatted on its own (prettyplease for the definition, the macro call as laid
/// out), a blank line between items, so that one item's change leaves the others'
/// text alone.
fn format_module(rev: &Revision, notes: &Notes, path: &str, diags: &mut Diagnostics) -> String {
    let module = revision_module(rev, notes);
    let mut out = format_file(&module.head, &revision_header(rev), path, diags);
    for piece in module.items {
        out.push('\n');
        out.push_str(&format_file(&piece.tokens, "", path, diags));
        if let Some(call) = piece.call {
            check_call(&call, path, diags);
            out.push_str(&call);
        }
    }
    if !module.tail.is_empty() {
        out.push('\n');
        out.push_str(&format_file(&module.tail, "", path, diags));
    }
    out
}

/// A macro call laid out by hand must still be Rust: an internal error otherwise.
fn check_call(call: &str, path: &str, diags: &mut Diagnostics) {
    if let Err(e) = syn::parse_str::<syn::File>(call) {
        diags.push(
            Diagnostic::error(format!("internal error: a generated macro call in {path} does not parse: {e}"))
                .note(call.lines().next().unwrap_or_default().to_string())
                .hint("this is a bug in mcp-spec-codegen; please report it with the schema that caused it"),
        );
    }
}

/// Formats tokens as a file; tokens that do not parse are an internal error
/// reported as a diagnostic (the generator never panics on a schema).
pub fn format_file(tokens: &TokenStream, header: &str, path: &str, diags: &mut Diagnostics) -> String {
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => format!("{header}{}", expand_doc_blocks(&prettyplease::unparse(&file))),
        Err(e) => {
            diags.push(Diagnostic::error(format!("internal error: generated {path} does not parse: {e}")).hint(
                "this is a bug in mcp-spec-codegen; please report it with the schema that caused it",
            ));
            String::new()
        }
    }
}

/// The `Request` (and `HasResponse`), `InputRequest` or `Notification` impl of one method.
fn method_impl(rev: &Revision, cx: &Cx<'_>, m: &crate::protocol::Method) -> TokenStream {
    use crate::protocol::MethodKind;
    let message = ident(&m.message);
    let method = &m.name;
    let (params_ty, params_expr) = match rev.item(&m.message).map(|i| &i.kind) {
        Some(ItemKind::Struct(s)) => match s.field("params") {
            Some(f) if f.role.has_rust_field() => {
                let ty = cx.types().field(f).map(|t| items::type_tokens(&t)).unwrap_or_default();
                let fname = ident(&crate::rust::member_name(f));
                (ty, quote!(&self.#fname))
            }
            Some(_) => (quote!(()), quote!(&())),
            None => (quote!(()), quote!(&())),
        },
        _ => (quote!(()), quote!(&())),
    };
    let result = match &m.result {
        Some(r) => {
            let r = ident(r);
            quote!(#r)
        }
        None => quote!(::serde_json::Value),
    };
    match m.kind {
        MethodKind::Request => {
            let response = m.response.as_ref().map(|r| {
                let r = ident(r);
                quote! { impl crate::HasResponse for #message { type Response = #r; } }
            });
            quote! {
                impl crate::Request for #message {
                    const METHOD: &'static str = #method;
                    type Params = #params_ty;
                    type Result = #result;
                    fn params(&self) -> &Self::Params { #params_expr }
                }
                #response
            }
        }
        MethodKind::InputRequest => quote! {
            impl crate::InputRequest for #message {
                const METHOD: &'static str = #method;
                type Params = #params_ty;
                type Result = #result;
                fn params(&self) -> &Self::Params { #params_expr }
            }
        },
        MethodKind::Notification => quote! {
            impl crate::Notification for #message {
                const METHOD: &'static str = #method;
                type Params = #params_ty;
                fn params(&self) -> &Self::Params { #params_expr }
            }
        },
    }
}

/// Turns the `/** ... */` blocks prettyplease prints for a multi-line `#[doc]`
/// into `///` lines at the block's indentation. prettyplease writes such a block
/// only when the text has no `*/`, starts it on a line of its own and ends it at
/// the first `*/`; its continuation lines are not indented.
pub fn expand_doc_blocks(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let Some(first) = body.strip_prefix("/**") else {
            out.push_str(line);
            continue;
        };
        let mut part = first.trim_end_matches('\n');
        loop {
            let (content, done) = match part.strip_suffix("*/") {
                Some(c) => (c, true),
                None => (part, false),
            };
            out.push_str(indent);
            out.push_str("///");
            out.push_str(content);
            out.push('\n');
            if done {
                break;
            }
            match lines.next() {
                Some(next) => part = next.trim_end_matches('\n'),
                None => break,
            }
        }
    }
    out
}

fn revision_header(rev: &Revision) -> String {
    format!(
        "// @generated by `{COMMAND}`. Do not edit by hand.\n// Revision: {}\n// Source: schema/{}/schema.ts (sha256 {})\n\n",
        rev.name, rev.name, rev.schema_sha256
    )
}

fn lib_header(spec: &Spec) -> String {
    let mut s = format!("// @generated by `{COMMAND}`. Do not edit by hand.\n// Revisions:\n");
    for r in &spec.revisions {
        s.push_str(&format!("//   {}: schema/{}/schema.ts (sha256 {})\n", r.name, r.name, r.schema_sha256));
    }
    s.push('\n');
    s
}

fn runtime_header(path: &str) -> String {
    let source = path.trim_start_matches("src/");
    format!(
        "// @generated by `{COMMAND}` from codegen/runtime/{source}. Do not edit by hand.\n// Revisions: all (this file does not depend on a schema).\n\n"
    )
}

fn cargo_toml(spec: &Spec) -> String {
    let mut s = format!("# @generated by `{COMMAND}`. Do not edit by hand.\n# Revisions:\n");
    for r in &spec.revisions {
        s.push_str(&format!("#   {}: schema/{}/schema.ts (sha256 {})\n", r.name, r.name, r.schema_sha256));
    }
    s.push_str(
        r#"
[package]
name = "mcp-spec-types"
version = "0.1.0"
edition = "2024"
license = "MIT OR Apache-2.0"
description = "Serde types for every revision of the Model Context Protocol, generated from its normative schema.ts."
publish = false

[lib]
doctest = false

[package.metadata.docs.rs]
all-features = true

[features]
"#,
    );
    let default: Vec<String> = spec.latest_dated().map(|r| format!("\"{}\"", r.module)).into_iter().collect();
    s.push_str(&format!("default = [{}]\n", default.join(", ")));
    s.push_str("# Each module's SCHEMA_TYPES: every type by name, for tests and tools.\ntype-table = []\n");
    let all: Vec<String> = spec.revisions.iter().map(|r| format!("\"{}\"", r.module)).collect();
    s.push_str(&format!("# Every revision.\nall-revisions = [{}]\n", all.join(", ")));
    for r in &spec.revisions {
        s.push_str(&format!("{} = []\n", r.module));
    }
    s.push_str(
        r#"
[dependencies]
serde = { version = "1.0.229", default-features = false, features = ["std"] }
serde_json = { version = "1.0.154", features = ["raw_value"] }
# Map-typed members keep their order whatever features the build gives serde_json.
indexmap = { version = "2.14.2", default-features = false, features = ["std", "serde"] }
# The JSON path inside a union's member when it does not read (on errors only).
serde_path_to_error = "0.1.20"
"#,
    );
    s
}

fn lib_rs(spec: &Spec) -> TokenStream {
    let mut docs = vec![
        "Serde types for the Model Context Protocol, one module per revision of the spec, generated from the"
            .to_string(),
        "revision's normative `schema.ts` by `cargo xtask codegen` (crate `mcp-spec-codegen`).".into(),
        String::new(),
        "| module | revision | feature |".into(),
        "|---|---|---|".into(),
    ];
    for r in &spec.revisions {
        docs.push(format!("| `{}` | {} | `{}` |", r.module, r.name, r.module));
    }
    docs.push(String::new());
    if let Some(l) = spec.latest_dated() {
        docs.push(format!(
            "The default feature is the newest dated revision, `{}`, which `latest` re-exports. All features build together.",
            l.module
        ));
        docs.push(String::new());
    }
    docs.extend(
        [
            "Conventions, the same in every module:",
            "",
            "- Type names are the schema's names; anonymous object types, unions and enums are named from their",
            "  parent and field (`ClientCapabilities.sampling` → `ClientCapabilitiesSampling`).",
            "- Fields are snake_case, with the wire name kept; optional fields are `Option` and left out when `None`.",
            "- Members fixed by a literal type (`jsonrpc`, `method`, `type`, an error's `code`) have no Rust field:",
            "  they are always written, checked when read (a wrong value is an error naming the member and the",
            "  expected value), and available as associated consts (`CallToolRequest::METHOD`).",
            "- Every object type keeps the members it does not know in `extra` (an [`Extra`]: kept as the JSON",
            "  text they came as, parsed on first look) and writes them back as they came.",
            "- A TypeScript `number` is `i64` unless the schema tags it `@TJS-type number`, then `f64`; a whole `f64`",
            "  is written without a fraction, so `50` stays `50`.",
            "- Unions are decided from the schema (see each union's docs), never by trying members in order.",
        ]
        .map(String::from),
    );
    let doc = inner_doc_attrs(&docs);
    let mods = spec.revisions.iter().map(|r| {
        let m = ident(&r.module);
        let feature = &r.module;
        quote! {
            #[cfg(feature = #feature)]
            pub mod #m;
        }
    });
    let latest = spec.latest_dated().map(|r| {
        let m = ident(&r.module);
        let feature = &r.module;
        let d = format!(" The newest dated revision, {}.", r.name);
        quote! {
            #[cfg(feature = #feature)]
            #[doc = #d]
            pub use #m as latest;
        }
    });
    let names: Vec<&str> = spec.revisions.iter().map(|r| r.name.as_str()).collect();
    let method_arms = spec.revisions.iter().map(|r| {
        let (m, feature, name) = (ident(&r.module), &r.module, &r.name);
        quote! {
            #[cfg(feature = #feature)]
            #name => ::std::option::Option::Some(#m::METHODS),
        }
    });
    let table_arms = spec.revisions.iter().map(|r| {
        let (m, feature, name) = (ident(&r.module), &r.module, &r.name);
        quote! {
            #[cfg(feature = #feature)]
            #name => ::std::option::Option::Some(#m::SCHEMA_TYPES),
        }
    });
    quote! {
        #doc
        #![forbid(unsafe_code)]

        #[doc(hidden)]
        pub mod rt;

        pub use rt::Extra;
        /// The ordered map of every map-typed member: members keep the order they
        /// came in, whatever features the build gives `serde_json`.
        pub use indexmap::IndexMap;

        pub mod registry;

        #(#mods)*
        #latest

        /// Every revision this crate was generated from, oldest first (each is a
        /// module behind a feature of the module's name).
        pub const REVISIONS: &[&str] = &[#(#names),*];

        /// The `METHODS` of a revision by its name (`"2026-07-28"`), when its
        /// feature is on.
        pub fn methods(revision: &str) -> ::std::option::Option<&'static [MethodInfo]> {
            match revision {
                #(#method_arms)*
                _ => ::std::option::Option::None,
            }
        }

        /// The `SCHEMA_TYPES` of a revision by its name, when its feature and
        /// `type-table` are on.
        #[cfg(feature = "type-table")]
        pub fn schema_types(revision: &str) -> ::std::option::Option<&'static [rt::TypeEntry]> {
            match revision {
                #(#table_arms)*
                _ => ::std::option::Option::None,
            }
        }

        /// A request type of some revision, sent as a JSON-RPC request: its wire
        /// method, the type of its `params` and the type of its result.
        /// Implemented by every such request type of every revision module.
        pub trait Request {
            /// The wire method name: `tools/call`.
            const METHOD: &'static str;
            /// The type of `params`: an `Option` when the schema makes it optional,
            /// `()` when the request has none.
            type Params;
            /// What a successful response carries: the `result` of the response the
            /// revision declares for it (2026-07-28: `CallToolResultResponse`'s, a
            /// `CallToolResult` or an `InputRequiredResult`), else `FooResult` for
            /// `FooRequest`, else the revision's `EmptyResult` (`serde_json::Value`
            /// if it has neither).
            type Result;
            /// The request's params.
            fn params(&self) -> &Self::Params;
        }

        /// A request a server asks of the client inside a result, not on its own
        /// (2026-07-28: `sampling/createMessage`, `roots/list`, `elicitation/create`
        /// in an `InputRequiredResult`'s `inputRequests`, answered in the retried
        /// request's `inputResponses`). It has no `id` and is never sent as a
        /// JSON-RPC request, so it does not implement [`Request`].
        pub trait InputRequest {
            /// The method name: `elicitation/create`.
            const METHOD: &'static str;
            /// The type of `params`, as for [`Request::Params`].
            type Params;
            /// What the client answers with, in `inputResponses`.
            type Result;
            /// The request's params.
            fn params(&self) -> &Self::Params;
        }

        /// A request whose revision declares its response envelope
        /// (`CallToolResultResponse`, from 2026-07-28 on).
        pub trait HasResponse: Request {
            type Response;
        }

        /// A notification type of some revision: its wire method and the type of its `params`.
        pub trait Notification {
            /// The wire method name: `notifications/progress`.
            const METHOD: &'static str;
            /// The type of `params`, as for [`Request::Params`].
            type Params;
            /// The notification's params.
            fn params(&self) -> &Self::Params;
        }

        /// How a method is sent.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum MethodKind {
            /// A JSON-RPC request, answered by a response with the same `id`.
            Request,
            /// A request carried in a result's `inputRequests` (see [`InputRequest`]).
            InputRequest,
            /// A JSON-RPC notification, not answered.
            Notification,
        }

        /// One method of a revision, as data: see each module's `METHODS`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct MethodInfo {
            /// The wire method name.
            pub method: &'static str,
            /// How it is sent.
            pub kind: MethodKind,
            /// The request or notification type.
            pub message: &'static str,
            /// The type of `params` (its schema name), when there is one.
            pub params: ::std::option::Option<&'static str>,
            /// For requests: the result type.
            pub result: ::std::option::Option<&'static str>,
            /// For requests, where declared: the response envelope type.
            pub response: ::std::option::Option<&'static str>,
        }
    }
}

/// A revision's module, in the parts `format_module` lays out.
pub struct RevisionModule {
    /// The module's docs and inner attributes.
    pub head: TokenStream,
    pub items: Vec<items::Emitted>,
    /// The method impls, `METHODS` and `SCHEMA_TYPES`.
    pub tail: TokenStream,
}

pub fn revision_module(rev: &Revision, notes: &Notes) -> RevisionModule {
    let cx = Cx::new(rev, notes);
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
    let doc = inner_doc_attrs(&docs);
    let items = rev.items.values().map(|item| emit_item(item, &cx)).collect();
    let entries = rev.items.values().filter(|i| !matches!(i.kind, ItemKind::Const(_))).map(|i| {
        let id = ident(&i.name);
        let kind = match &i.kind {
            ItemKind::Union(_) => quote!(union),
            ItemKind::Struct(s) if build::has_default(s) => quote!(default),
            _ => quote!(plain),
        };
        quote! { #kind #id, }
    });
    let methods = crate::protocol::methods(rev);
    let impls = methods.iter().map(|m| method_impl(rev, &cx, m));
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
        let (result, response) = (opt(m.result.clone()), opt(m.response.clone()));
        quote! {
            crate::MethodInfo { method: #method, kind: #kind, message: #message, params: #params, result: #result, response: #response },
        }
    });
    let head = quote! {
        #doc
        #![allow(deprecated)]
        #![allow(clippy::large_enum_variant, clippy::enum_variant_names, clippy::deprecated_semver)]
    };
    let tail = quote! {
        #(#impls)*

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
    RevisionModule { head, items, tail }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_blocks_become_line_comments_exactly_as_one_attribute_per_line_would() {
        let lines: Vec<String> = ["First.", "", "  indented `code`"].map(String::from).to_vec();
        let one = items::doc_attrs(&lines);
        let per_line = lines.iter().map(|l| {
            let t = if l.is_empty() { String::new() } else { format!(" {l}") };
            quote!(#[doc = #t])
        });
        let wrap = |docs: TokenStream| quote! { #docs pub struct A { #docs pub x: u8 } };
        let mut d = Diagnostics::default();
        let combined = format_file(&wrap(one), "", "a.rs", &mut d);
        let separate = format_file(&wrap(quote!(#(#per_line)*)), "", "a.rs", &mut d);
        assert!(!d.has_errors());
        assert_eq!(combined, separate);
        assert!(combined.contains("    ///   indented `code`\n"), "{combined}");
        // Text with `*/` stays an attribute, untouched.
        let tricky = items::doc_attrs(&["a */ b".to_string(), "c".to_string()]);
        let out = format_file(&quote! { #tricky pub struct B; }, "", "b.rs", &mut d);
        assert!(out.contains("#[doc ="), "{out}");
    }
}
