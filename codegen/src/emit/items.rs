//! Model items → Rust: one emitter per shape (struct, string enum, union, alias,
//! const). Each item is its Rust definition, as tokens that prettyplease lays out;
//! for structs and unions, its builders and `From` impls (`build.rs`), as text
//! laid out there; and, for structs, enums and unions, one call of a runtime macro
//! (`codegen/runtime`, crate `mcp-spec-runtime`) that writes its serde impls, laid out here by hand, one
//! member per line, so that a one-member change in the schema is a one-line
//! change in the macro call (a struct's lines also carry each member's position,
//! which its `read_object` matches on: a member added or removed renumbers the
//! lines after it, the price of a cheaper build).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::calls::{Call, MemberKind, ObjectMember, Tags, UnionCallRule, UnionMember};
use super::docs::{Links, inline_origin, render};
use crate::model::*;
use crate::rust::{NumberWrap, RustType, RustTypes, member_name, union_derives};

/// Extra doc lines for items and fields, keyed by `Type` or `Type.field`
/// (the registry's look-ahead notes: "Removed in 2026-07-28").
pub type Notes = BTreeMap<String, Vec<String>>;

pub struct Cx<'a> {
    pub rev: &'a Revision,
    pub notes: &'a Notes,
    /// The values unions' selectors pick structs by (see `build`).
    pub picked: super::build::Picked,
}

impl<'a> Cx<'a> {
    pub fn new(rev: &'a Revision, notes: &'a Notes) -> Cx<'a> {
        Cx { rev, notes, picked: super::build::picked_values(rev) }
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

    fn doc_lines(&self, docs: &Docs, key: &str) -> Vec<String> {
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

thread_local! {
    /// The text of each doc attribute [`doc_attrs`] made on this thread, by the
    /// number its placeholder carries, until [`forget_doc_texts`].
    static DOC_TEXTS: RefCell<(u64, HashMap<u64, String>)> = RefCell::default();
}

/// What a doc attribute holds in place of its text: prettyplease prints it as
/// `///@mcp-spec-doc:<n>`, and `super::expand_docs` writes the text there.
pub const DOC_PLACEHOLDER: &str = "@mcp-spec-doc:";

/// Doc lines as one `#[doc]` attribute holding a placeholder; the text itself
/// never goes through tokens, syn and prettyplease (it is most of the output,
/// and quoting it into a literal, parsing it back and printing it again was a
/// third of the emit time). The output is what one attribute per line gives.
pub fn doc_attrs(lines: &[String]) -> TokenStream {
    if lines.is_empty() {
        return TokenStream::new();
    }
    // Trailing spaces trimmed, as prettyplease trims a doc attribute's lines.
    let text: Vec<String> = lines
        .iter()
        .map(|l| l.trim_end())
        .map(|l| if l.is_empty() { String::new() } else { format!(" {l}") })
        .collect();
    let text = text.join("\n");
    let id = DOC_TEXTS.with(|t| {
        let (last, texts) = &mut *t.borrow_mut();
        *last += 1;
        texts.insert(*last, text);
        *last
    });
    let placeholder = format!("{DOC_PLACEHOLDER}{id}");
    quote!(#[doc = #placeholder])
}

/// The text of the doc attribute whose placeholder carries `id`, if it was
/// made on this thread and not forgotten since.
pub fn doc_text<R>(id: u64, f: impl FnOnce(Option<&str>) -> R) -> R {
    DOC_TEXTS.with(|t| f(t.borrow().1.get(&id).map(String::as_str)))
}

/// Drops the texts of this thread's doc attributes, once what they were made
/// for is formatted. (Tokens are not `Send`: they are formatted on the thread
/// that made them.)
pub fn forget_doc_texts() {
    DOC_TEXTS.with(|t| t.borrow_mut().1.clear());
}

/// `#![doc = " line"]`, for module and crate docs.
pub fn inner_doc_attrs(lines: &[String]) -> TokenStream {
    let attrs = lines.iter().map(|l| {
        let text = if l.is_empty() { String::new() } else { format!(" {l}") };
        quote!(#![doc = #text])
    });
    quote!(#(#attrs)*)
}

fn deprecated_attr(dep: &Option<Deprecation>) -> TokenStream {
    let Some(dep) = dep else { return TokenStream::new() };
    deprecated_text(dep).parse().unwrap_or_default()
}

/// `#[deprecated(since = "…", note = "…")]` as text, on one line: for the
/// definitions (as tokens) and for the setters `build` lays out.
pub(super) fn deprecated_text(dep: &Deprecation) -> String {
    match &dep.since {
        Some(since) => format!("#[deprecated(since = {since:?}, note = {:?})]", dep.note),
        None => format!("#[deprecated(note = {:?})]", dep.note),
    }
}

/// One item of a generated module, in the order it is written: its definition,
/// for prettyplease; its builders and other impls of a few fixed shapes (`From`,
/// `Display`), laid out by `build`; and the runtime macro call that writes its
/// serde impls, laid out here.
pub struct Emitted {
    pub tokens: TokenStream,
    pub impls: String,
    pub call: Option<Call>,
}

impl Emitted {
    fn tokens(tokens: TokenStream) -> Emitted {
        Emitted { tokens, impls: String::new(), call: None }
    }
}

/// One model item as Rust. Its doc attributes hold placeholders whose text lives
/// on this thread until [`forget_doc_texts`]: format the tokens here, with
/// `super::format_file`.
pub fn emit_item(item: &Item, cx: &Cx<'_>) -> Emitted {
    let mut lines = cx.doc_lines(&item.docs, &item.name);
    if let Origin::Inline { parent, field, role } = &item.origin {
        push_paragraph(&mut lines, inline_origin(item, parent, field, *role));
    }
    match &item.kind {
        ItemKind::Struct(s) => emit_struct(item, s, lines, cx),
        ItemKind::Enum(e) => emit_enum(item, e, lines, cx),
        ItemKind::Union(u) => emit_union(item, u, lines, cx),
        ItemKind::Alias(t) => {
            let docs = doc_attrs(&lines);
            let dep = deprecated_attr(&item.docs.deprecated);
            let name = ident(&item.name);
            let ty = cx.rust_type(t);
            Emitted::tokens(quote! { #docs #dep pub type #name = #ty; })
        }
        ItemKind::Const(l) => {
            let docs = doc_attrs(&lines);
            let dep = deprecated_attr(&item.docs.deprecated);
            let name = ident(&item.name);
            let (ty, value) = match &l.value {
                LiteralValue::Str(s) => (quote!(&str), quote!(#s)),
                LiteralValue::Int(i) => (quote!(i64), quote!(#i)),
                LiteralValue::Float(f) => (quote!(f64), quote!(#f)),
                LiteralValue::Bool(b) => (quote!(bool), quote!(#b)),
            };
            Emitted::tokens(quote! { #docs #dep pub const #name: #ty = #value; })
        }
    }
}

/// Adds a paragraph to doc lines, after a blank line when there are lines already.
fn push_paragraph(lines: &mut Vec<String>, text: impl Into<String>) {
    if !lines.is_empty() {
        lines.push(String::new());
    }
    lines.push(text.into());
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

/// A union member's doc line: the value that selects it (`"type": "text"`),
/// or what the catch-all member keeps.
fn variant_doc(u: &Union, i: usize) -> Option<String> {
    let v = &u.variants[i];
    match &u.rule {
        UnionRule::Tagged { fallback: Some(k), .. } if *k == i => {
            Some(" A message with any other value: kept whole, as the generic type.".to_string())
        }
        UnionRule::Tagged { field, .. } => {
            let tags: Vec<String> = v.tags.iter().map(|t| format!("`\"{field}\": {}`", t.value.to_json())).collect();
            (!tags.is_empty()).then(|| format!(" Read when {}.", tags.join(" or ")))
        }
        UnionRule::Selected(sel) if sel.other == Some(i) => Some(format!(
            " A result whose `{}` this revision does not list: kept whole, as the common type.",
            sel.field
        )),
        UnionRule::Selected(sel) => {
            let tags: Vec<String> =
                sel.tags.iter().filter(|(_, k)| *k == i).map(|(t, _)| format!("`\"{}\": {t:?}`", sel.field)).collect();
            (!tags.is_empty()).then(|| format!(" Read when {} (and only then).", tags.join(" or ")))
        }
        UnionRule::Shape | UnionRule::Kind => None,
    }
}

fn emit_struct(item: &Item, s: &Struct, mut lines: Vec<String>, cx: &Cx<'_>) -> Emitted {
    let name = ident(&item.name);
    let dep = deprecated_attr(&item.docs.deprecated);
    let extra = ident(&s.extra);

    let fixed: Vec<(&Field, &Literal)> = s.fixed().collect();
    if !fixed.is_empty() {
        let list: Vec<String> = fixed.iter().map(|(f, l)| format!("`{}`: `{}`", f.wire, l.value.to_json())).collect();
        push_paragraph(
            &mut lines,
            format!("Fixed members, always written and checked when read (no Rust field): {}.", list.join(", ")),
        );
    }
    if crate::protocol::refuses_id(item) {
        push_paragraph(
            &mut lines,
            "Reading refuses an `id` member: MCP notifications must not include one (a message with an `id` is a request).",
        );
    }
    let docs = doc_attrs(&lines);

    let field_defs = s.stored().map(|f| {
        let fname = ident(&member_name(f));
        let ty = cx.types().field(f).map(|t| type_tokens(&t)).unwrap_or_default();
        let key = format!("{}.{}", item.name, f.wire);
        let mut flines = cx.doc_lines(&f.docs, &key);
        if f.rust != f.wire {
            push_paragraph(&mut flines, format!("Wire name: `{}`.", f.wire));
        }
        if let Some(d) = f.role.default() {
            push_paragraph(
                &mut flines,
                format!("When absent on the wire it is read as `{}`; it is always written.", d.value.to_json()),
            );
        }
        let fdocs = doc_attrs(&flines);
        let fdep = deprecated_attr(&f.docs.deprecated);
        quote! { #fdocs #fdep pub #fname: #ty, }
    });
    // What `extra` holds is said once, in the crate docs.
    let extra_doc = " Members the schema does not name, kept as they came ([`Extra`](crate::Extra)).";
    let builders = super::build::struct_builders(item, s, cx);
    let upcasts = super::build::base_froms(item, s, cx);
    let errors = super::build::error_impls(item, s, cx);
    let tokens = quote! {
        #docs
        #dep
        #[derive(Clone, Debug, PartialEq)]
        pub struct #name {
            #(#field_defs)*
            #[doc = #extra_doc]
            pub #extra: crate::Extra,
        }
    };

    let types = cx.types();
    let members = s
        .fields
        .iter()
        .map(|f| {
            let ty = types.boxed(&f.ty, f.boxed).to_string();
            let wrap = NumberWrap::of(cx.rev, &f.ty);
            let kind = match &f.role {
                Role::Fixed(l) => {
                    let (value, ty) = literal_text(&l.value);
                    MemberKind::Fixed { ty, value }
                }
                Role::Optional => MemberKind::Optional { ty, wrap },
                Role::Defaulted(d) => match cx.default_text(&f.ty, &d.value) {
                    Some(default) => MemberKind::Defaulted { ty, wrap, default },
                    None => MemberKind::Required { ty, wrap },
                },
                Role::Required => MemberKind::Required { ty, wrap },
            };
            ObjectMember { wire: f.wire.clone(), field: member_name(f), kind }
        })
        .collect();
    let call = Call::Object {
        name: item.name.clone(),
        extra: s.extra.clone(),
        notification: crate::protocol::refuses_id(item),
        members,
    };
    Emitted { tokens, impls: builders + &upcasts + &errors, call: Some(call) }
}

fn emit_enum(item: &Item, e: &StringEnum, mut lines: Vec<String>, cx: &Cx<'_>) -> Emitted {
    let name = ident(&item.name);
    let dep = deprecated_attr(&item.docs.deprecated);
    if e.open {
        push_paragraph(&mut lines, "Open: a value not listed here is kept in `Other` and written back as it came.");
    }
    let docs = doc_attrs(&lines);
    let variants = e.values.iter().map(|v| {
        let vname = ident(&v.rust);
        let mut vlines = vec![format!("`{}`", serde_json::to_string(&v.value).unwrap_or_default())];
        for note in cx.notes.get(&crate::registry::value_key(&item.name, &v.value)).into_iter().flatten() {
            push_paragraph(&mut vlines, note.clone());
        }
        let doc = doc_attrs(&vlines);
        let vdep = deprecated_attr(&v.deprecated);
        quote! { #doc #vdep #vname, }
    });
    let other = if e.open {
        quote! {
            /// Any other value.
            Other(::std::string::String),
        }
    } else {
        TokenStream::new()
    };
    let tokens = quote! {
        #docs
        #dep
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #name {
            #(#variants)*
            #other
        }
    };
    let call = Call::StringEnum {
        name: item.name.clone(),
        open: e.open,
        values: e.values.iter().map(|v| (v.rust.clone(), v.value.clone())).collect(),
    };
    Emitted { call: Some(call), ..Emitted::tokens(tokens) }
}

fn emit_union(item: &Item, u: &Union, mut lines: Vec<String>, cx: &Cx<'_>) -> Emitted {
    let name = ident(&item.name);
    let dep = deprecated_attr(&item.docs.deprecated);
    for (i, line) in crate::rule::describe(u).into_iter().enumerate() {
        if i == 0 {
            push_paragraph(&mut lines, line);
        } else {
            lines.push(line);
        }
    }
    let docs = doc_attrs(&lines);
    let variants = u.variants.iter().enumerate().map(|(i, v)| {
        let vname = ident(&v.name);
        let t = cx.member_type(&v.ty, v.boxed);
        let doc = match variant_doc(u, i) {
            Some(text) => quote! { #[doc = #text] },
            None => TokenStream::new(),
        };
        quote! { #doc #vname(#t), }
    });
    let derives = union_derives(cx.rev, u);
    let derive = if derives.eq_hash {
        quote!(#[derive(Clone, Debug, PartialEq, Eq, Hash)])
    } else {
        quote!(#[derive(Clone, Debug, PartialEq)])
    };
    let display = derives.display.then(|| {
        let arms = u.variants.iter().map(|v| {
            let vname = ident(&v.name);
            quote! { #name::#vname(value) => ::std::fmt::Display::fmt(value, f), }
        });
        quote! {
            impl ::std::fmt::Display for #name {
                /// The member's value as is (a string without quotes).
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    match self { #(#arms)* }
                }
            }
        }
    });
    let froms = super::build::union_froms(item, u, cx);
    let tokens = quote! {
        #docs
        #dep
        #derive
        pub enum #name {
            #(#variants)*
        }
        #display
    };

    let types = cx.types();
    let members = u
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| UnionMember {
            variant: v.name.clone(),
            ty: types.boxed(&v.ty, v.boxed).to_string(),
            wrap: NumberWrap::of(cx.rev, &v.ty),
            tags: match &u.rule {
                UnionRule::Tagged { fallback, .. } if *fallback == Some(i) => Tags::Any,
                UnionRule::Tagged { .. } => Tags::Values(v.tags.iter().map(|t| literal_text(&t.value).0).collect()),
                _ => Tags::Untagged,
            },
        })
        .collect();
    let rule = match &u.rule {
        UnionRule::Tagged { field, .. } => UnionCallRule::Tagged { field: field.clone() },
        UnionRule::Shape => UnionCallRule::Shape,
        UnionRule::Kind => UnionCallRule::Kind,
        UnionRule::Selected(sel) => UnionCallRule::Selected {
            field: sel.field.clone(),
            values_of: sel.values_of.clone(),
            picks: sel.tags.iter().map(|(value, k)| (value.clone(), u.variants[*k].name.clone())).collect(),
            unlisted: sel.other.map(|k| u.variants[k].name.clone()),
        },
    };
    let call = Call::Union { name: item.name.clone(), rule, members };
    Emitted { tokens, impls: froms, call: Some(call) }
}
