//! Model items → Rust tokens: one emitter per shape (struct, string enum, union,
//! alias, const), each with hand-written serde impls (no derive, no `flatten`
//! buffering) and a `Fit` impl (see `codegen/runtime/rt.rs`) used to decide unions.
//!
//! The non-generic functions (`fit`, a union's `from_json`) are `#[inline]`: they
//! instantiate the serde code of every member, and inline functions are compiled
//! only in the crates that use them, so the types crate itself stays quick to build.

use std::collections::BTreeMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use super::docs::{Links, inline_origin, render};
use crate::model::*;
use crate::rust::{RustType, RustTypes, WriteAs, const_name, holds_objects, member_name};

/// Extra doc lines for items and fields, keyed by `Type` or `Type.field`
/// (the registry's look-ahead notes: "Removed in 2026-07-28").
pub type Notes = BTreeMap<String, Vec<String>>;

pub struct Cx<'a> {
    pub rev: &'a Revision,
    pub notes: &'a Notes,
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

    /// The Rust expression for a field's default value (checked in `lower`).
    fn default_expr(&self, ty: &Type, v: &LiteralValue) -> Option<TokenStream> {
        match (ty, v) {
            (Type::String, LiteralValue::Str(s)) => Some(quote!(::std::string::String::from(#s))),
            (Type::Integer, LiteralValue::Int(i)) => Some(quote!(#i)),
            (Type::Number, LiteralValue::Int(i)) => {
                let f = *i as f64;
                Some(quote!(#f))
            }
            (Type::Number, LiteralValue::Float(f)) => Some(quote!(#f)),
            (Type::Boolean, LiteralValue::Bool(b)) => Some(quote!(#b)),
            (Type::Named(n), LiteralValue::Str(s)) => match self.rev.item(n).map(|i| &i.kind) {
                Some(ItemKind::Enum(e)) => {
                    let name = ident(n);
                    match e.values.iter().find(|v| &v.value == s) {
                        Some(v) => {
                            let variant = ident(&v.rust);
                            Some(quote!(#name::#variant))
                        }
                        None if e.open => Some(quote!(#name::Other(::std::string::String::from(#s)))),
                        None => None,
                    }
                }
                Some(ItemKind::Alias(t)) => self.default_expr(t, v),
                _ => None,
            },
            _ => None,
        }
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

/// Doc lines as one `#[doc]` attribute: prettyplease prints it as a `/** */`
/// block, which `super::expand_doc_blocks` turns into `///` lines after
/// formatting. One attribute per item instead of one per line halves the tokens
/// the generator builds, parses and prints; the output is the same.
pub fn doc_attrs(lines: &[String]) -> TokenStream {
    if lines.is_empty() {
        return TokenStream::new();
    }
    let text: Vec<String> = lines.iter().map(|l| if l.is_empty() { String::new() } else { format!(" {l}") }).collect();
    let text = text.join("\n");
    quote!(#[doc = #text])
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
    let note = &dep.note;
    match &dep.since {
        Some(since) => quote!(#[deprecated(since = #since, note = #note)]),
        None => quote!(#[deprecated(note = #note)]),
    }
}

fn fixed_expr(l: &Literal) -> TokenStream {
    match &l.value {
        LiteralValue::Str(s) => quote!(crate::rt::Fixed::Str(#s)),
        LiteralValue::Int(i) => quote!(crate::rt::Fixed::Int(#i)),
        LiteralValue::Float(f) => quote!(crate::rt::Fixed::Float(#f)),
        LiteralValue::Bool(b) => quote!(crate::rt::Fixed::Bool(#b)),
    }
}

/// How the runtime's macros write a value of `t`: floats keep `50` as `50`.
fn wrap_of(t: &Type) -> Ident {
    format_ident!("{}", WriteAs::of(t).as_str())
}

pub fn emit_item(item: &Item, cx: &Cx<'_>) -> TokenStream {
    let mut lines = cx.doc_lines(&item.docs, &item.name);
    if let Origin::Inline { parent, field, role } = &item.origin {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(inline_origin(item, parent, field, *role));
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
            quote! { #docs #dep pub type #name = #ty; }
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
            quote! { #docs #dep pub const #name: #ty = #value; }
        }
    }
}

fn emit_struct(item: &Item, s: &Struct, mut lines: Vec<String>, cx: &Cx<'_>) -> TokenStream {
    let name = ident(&item.name);
    let name_str = item.name.as_str();
    let dep = deprecated_attr(&item.docs.deprecated);
    let extra = ident(&s.extra);

    let fixed: Vec<(&Field, &Literal)> = s.fixed().collect();
    if !fixed.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        let list: Vec<String> = fixed.iter().map(|(f, l)| format!("`{}`: `{}`", f.wire, l.value.to_json())).collect();
        lines.push(format!(
            "Fixed members, always written and checked when read (no Rust field): {}.",
            list.join(", ")
        ));
    }
    let docs = doc_attrs(&lines);

    let field_defs = s.stored().map(|f| {
        let fname = ident(&member_name(f));
        let ty = cx.types().field(f).map(|t| type_tokens(&t)).unwrap_or_default();
        let key = format!("{}.{}", item.name, f.wire);
        let mut flines = cx.doc_lines(&f.docs, &key);
        if f.rust != f.wire {
            if !flines.is_empty() {
                flines.push(String::new());
            }
            flines.push(format!("Wire name: `{}`.", f.wire));
        }
        if !f.is_required() {
            if !flines.is_empty() {
                flines.push(String::new());
            }
            flines.push("Optional: `None` is left out of the JSON.".into());
        }
        if let Some(d) = f.role.default() {
            if !flines.is_empty() {
                flines.push(String::new());
            }
            flines.push(format!("When absent on the wire it is read as `{}`; it is always written.", d.value.to_json()));
        }
        let fdocs = doc_attrs(&flines);
        let fdep = deprecated_attr(&f.docs.deprecated);
        quote! { #fdocs #fdep pub #fname: #ty, }
    });
    let extra_doc = " Members this revision of the schema does not name, kept as read (see [`Extra`](crate::Extra)) and written back, so a message passes through unchanged.";

    let consts = fixed.iter().map(|(f, l)| {
        let cname = format_ident!("{}", const_name(&f.wire));
        let doc = format!(" The fixed value of `{}`.", f.wire);
        let (ty, value) = match &l.value {
            LiteralValue::Str(v) => (quote!(&'static str), quote!(#v)),
            LiteralValue::Int(v) => (quote!(i64), quote!(#v)),
            LiteralValue::Float(v) => (quote!(f64), quote!(#v)),
            LiteralValue::Bool(v) => (quote!(bool), quote!(#v)),
        };
        quote! { #[doc = #doc] pub const #cname: #ty = #value; }
    });

    // The serde and `Fit` impls come from the runtime's `object!` macro: one line
    // per member here, in schema order (`codegen/runtime/rt.rs` documents the form).
    let members = s.fields.iter().enumerate().map(|(i, f)| {
        let wire = &f.wire;
        if let Some(l) = f.role.fixed() {
            let fx = fixed_expr(l);
            let slot = format_ident!("fixed{}", i);
            return quote! { [fixed #wire #slot (#fx)] };
        }
        let slot = ident(&member_name(f));
        let t = cx.member_type(&f.ty, f.boxed);
        let wrap = wrap_of(&f.ty);
        let fname = ident(&member_name(f));
        match (&f.role, f.role.default().and_then(|d| cx.default_expr(&f.ty, &d.value))) {
            (Role::Optional, _) => quote! { [optional #wire #slot (#t) #wrap #fname] },
            (_, Some(default)) => quote! { [defaulted #wire #slot (#t) #wrap #fname (#default)] },
            _ => quote! { [required #wire #slot (#t) #wrap #fname] },
        }
    });
    let inits = s.stored().map(|f| ident(&member_name(f)));
    let expecting = format!("an object of type {name_str}");
    let consts_block = if fixed.is_empty() {
        TokenStream::new()
    } else {
        quote! { impl #name { #(#consts)* } }
    };

    quote! {
        #docs
        #dep
        #[derive(Clone, Debug, PartialEq)]
        pub struct #name {
            #(#field_defs)*
            #[doc = #extra_doc]
            pub #extra: crate::Extra,
        }

        #consts_block

        crate::rt::object! {
            #name, #expecting, #extra,
            fields: [ #(#members)* ],
            inits: [ #(#inits)* ]
        }
    }
}

fn emit_enum(item: &Item, e: &StringEnum, mut lines: Vec<String>, cx: &Cx<'_>) -> TokenStream {
    let name = ident(&item.name);
    let dep = deprecated_attr(&item.docs.deprecated);
    if e.open {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push("Open: a value not listed here is kept in `Other` and written back as it came.".into());
    }
    let docs = doc_attrs(&lines);
    let variants = e.values.iter().map(|v| {
        let vname = ident(&v.rust);
        let mut vlines = vec![format!("`{}`", serde_json::to_string(&v.value).unwrap_or_default())];
        for note in cx.notes.get(&crate::registry::value_key(&item.name, &v.value)).into_iter().flatten() {
            vlines.push(String::new());
            vlines.push(note.clone());
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
    let pairs = e.values.iter().map(|v| {
        let vname = ident(&v.rust);
        let s = &v.value;
        quote! { #vname #s }
    });
    let openness = if e.open { format_ident!("open") } else { format_ident!("closed") };
    let expecting = format!("a {} value", item.name);
    let derives = quote!(#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]);
    quote! {
        #docs
        #dep
        #derives
        pub enum #name {
            #(#variants)*
            #other
        }

        crate::rt::string_enum! { #name, #expecting, #openness, [ #(#pairs)* ] }
    }
}

fn emit_union(item: &Item, u: &Union, mut lines: Vec<String>, cx: &Cx<'_>) -> TokenStream {
    let name = ident(&item.name);
    let name_str = item.name.as_str();
    let dep = deprecated_attr(&item.docs.deprecated);
    if !lines.is_empty() {
        lines.push(String::new());
    }
    match (&u.discriminator, u.fallback) {
        (Some(field), Some(k)) => lines.push(format!(
            "Reading: the member is chosen by the value of `{field}`; any other value is read as `{}`, so messages this revision does not know pass through.",
            u.variants[k].name
        )),
        (Some(field), None) => lines.push(format!(
            "Reading: the member is chosen by the value of `{field}`; an unknown value is an error that lists the known ones."
        )),
        (None, _) => lines.push(
            "Reading: the member is chosen from the schema, never by trying members in order. A member fits when \
             every required member is present, every fixed value matches and every known member's value fits its \
             type (recursively). Of the members that fit, the one that names the most of the object's members wins; \
             on a tie, the earlier member in the schema's order."
                .to_string(),
        ),
    }
    if let Some(sel) = &u.selector {
        let picks: Vec<String> =
            sel.tags.iter().map(|(value, k)| format!("`\"{value}\"` reads `{}`", u.variants[*k].name)).collect();
        lines.push(String::new());
        lines.push(format!(
            "`{}` is looked at first: {}; any other value, or none, leaves the choice to the rule above among the other members (among all of them, if none of the others fits).",
            sel.field,
            picks.join(", ")
        ));
    }
    let docs = doc_attrs(&lines);
    let variants = u.variants.iter().enumerate().map(|(i, v)| {
        let vname = ident(&v.name);
        let t = cx.member_type(&v.ty, v.boxed);
        if u.fallback == Some(i) {
            quote! {
                /// A message with any other value: kept whole, as the generic type.
                #vname(#t),
            }
        } else {
            quote! { #vname(#t), }
        }
    });
    // A discriminated union whose members hold objects is read from its input
    // as text: only the discriminator is parsed to choose, and the member is read
    // from the text, so the members it keeps stay text. Other unions need the
    // whole value for the shape rule, so they go through a `Value`.
    let as_text = u.discriminator.is_some() && u.variants.iter().any(|v| holds_objects(cx.rev, &v.ty));
    let members = u.variants.iter().enumerate().map(|(i, v)| {
        let vname = ident(&v.name);
        let t = cx.member_type(&v.ty, v.boxed);
        let wrap = wrap_of(&v.ty);
        quote! { [#i #vname (#t) #wrap] }
    });
    let choice = match &u.discriminator {
        Some(field) => {
            let tags = u.variants.iter().map(|v| {
                let fx = v.tags.iter().map(fixed_expr);
                quote! { [#(#fx),*] }
            });
            let fallback = match u.fallback {
                Some(k) => quote!(::std::option::Option::Some(#k)),
                None => quote!(::std::option::Option::None),
            };
            let how = if as_text { format_ident!("text") } else { format_ident!("value") };
            quote! { tag #how #field [ #(#tags)* ] (#fallback) }
        }
        None => {
            let selector = match &u.selector {
                Some(sel) => {
                    let field = &sel.field;
                    let tags = sel.tags.iter().map(|(v, k)| quote! { (#v, #k) });
                    quote! { ::std::option::Option::Some((#field, &[#(#tags),*])) }
                }
                None => quote!(::std::option::Option::None),
            };
            quote! { shape (#selector) }
        }
    };
    quote! {
        #docs
        #dep
        #[derive(Clone, Debug, PartialEq)]
        pub enum #name {
            #(#variants)*
        }

        crate::rt::union! { #name, #name_str, [ #(#members)* ], #choice }
    }
}
