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
use crate::names::{field_ident, snake_case};

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

    /// True when `t` is `serde_json::Value`, directly or through aliases.
    fn is_json(&self, t: &Type) -> bool {
        let mut t = t;
        for _ in 0..32 {
            match t {
                Type::Json => return true,
                Type::Named(n) => match self.rev.item(n).map(|i| &i.kind) {
                    Some(ItemKind::Alias(inner)) => t = inner,
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    }

    pub fn rust_type(&self, t: &Type) -> TokenStream {
        match t {
            Type::String => self.string(),
            Type::Integer => quote!(i64),
            Type::Number => quote!(f64),
            Type::Boolean => quote!(bool),
            Type::Json => quote!(::serde_json::Value),
            Type::Named(n) => {
                let id = ident(n);
                quote!(#id)
            }
            Type::Array(t) => {
                let inner = self.rust_type(t);
                let vec = self.prelude("Vec", quote!(::std::vec::Vec));
                quote!(#vec<#inner>)
            }
            Type::Map(t) => {
                let string = self.string();
                if self.is_json(t) {
                    quote!(::serde_json::Map<#string, ::serde_json::Value>)
                } else {
                    let inner = self.rust_type(t);
                    quote!(::std::collections::BTreeMap<#string, #inner>)
                }
            }
            Type::Nullable(t) => {
                let inner = self.rust_type(t);
                let option = self.option();
                quote!(#option<#inner>)
            }
            // A literal outside a field of its own (in a union or an array) is read as
            // its base type.
            Type::Literal(l) => match l.value {
                LiteralValue::Str(_) => self.string(),
                LiteralValue::Int(_) => quote!(i64),
                LiteralValue::Float(_) => quote!(f64),
                LiteralValue::Bool(_) => quote!(bool),
            },
        }
    }

    /// The Rust type of a member: its type, in a `Box` when the member closes a
    /// cycle of by-value containment (`Option<Box<T>>` for `T | null`).
    pub fn member_type(&self, t: &Type, boxed: bool) -> TokenStream {
        if !boxed {
            return self.rust_type(t);
        }
        let boxed_ty = self.prelude("Box", quote!(::std::boxed::Box));
        match t {
            Type::Nullable(inner) => {
                let inner = self.member_type(inner, true);
                let option = self.option();
                quote!(#option<#inner>)
            }
            other => {
                let inner = self.rust_type(other);
                quote!(#boxed_ty<#inner>)
            }
        }
    }

    /// A prelude name (`Option`, `String`, `Vec`) as written, unless this revision
    /// declares a type of that name, which would shadow it: then the full path.
    fn prelude(&self, name: &str, full: TokenStream) -> TokenStream {
        if self.rev.item(name).is_some() {
            full
        } else {
            let id = ident(name);
            quote!(#id)
        }
    }

    pub fn option(&self) -> TokenStream {
        self.prelude("Option", quote!(::std::option::Option))
    }

    fn string(&self) -> TokenStream {
        self.prelude("String", quote!(::std::string::String))
    }

    /// True when a value of `t` can hold an object (whose kept members are text).
    fn holds_objects(&self, t: &Type, depth: usize) -> bool {
        if depth > 16 {
            return true;
        }
        match t {
            Type::Named(n) => match self.rev.item(n).map(|i| &i.kind) {
                Some(ItemKind::Struct(_)) => true,
                Some(ItemKind::Union(u)) => u.variants.iter().any(|v| self.holds_objects(&v.ty, depth + 1)),
                Some(ItemKind::Alias(a)) => self.holds_objects(a, depth + 1),
                _ => false,
            },
            Type::Array(t) | Type::Map(t) | Type::Nullable(t) => self.holds_objects(t, depth + 1),
            _ => false,
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
    match t {
        Type::Number => format_ident!("float"),
        Type::Nullable(inner) if **inner == Type::Number => format_ident!("nullable_float"),
        Type::Array(inner) if **inner == Type::Number => format_ident!("float_seq"),
        _ => format_ident!("plain"),
    }
}

pub fn emit_item(item: &Item, cx: &Cx<'_>) -> TokenStream {
    let mut lines = cx.doc_lines(&item.docs, &item.name);
    if let Origin::Inline { parent, field, suffix } = &item.origin {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(inline_origin(item, parent, field, *suffix));
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

/// The name of the field that keeps unknown members: `extra`, unless the schema
/// already has a field of that name.
pub fn extra_field_name(s: &Struct) -> &'static str {
    ["extra", "extra_members", "unknown_members"]
        .into_iter()
        .find(|n| !s.fields.iter().any(|f| f.rust == *n))
        .unwrap_or("__extra")
}

fn emit_struct(item: &Item, s: &Struct, mut lines: Vec<String>, cx: &Cx<'_>) -> TokenStream {
    let name = ident(&item.name);
    let name_str = item.name.as_str();
    let dep = deprecated_attr(&item.docs.deprecated);
    let extra = ident(extra_field_name(s));

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

    let stored: Vec<&Field> = s.fields.iter().filter(|f| !(f.required && matches!(f.ty, Type::Literal(_)))).collect();
    let field_defs = stored.iter().map(|f| {
        let fname = ident(&field_ident(&f.rust));
        let inner = cx.member_type(&f.ty, f.boxed);
        let option = cx.option();
        let ty = if f.required { inner } else { quote!(#option<#inner>) };
        let key = format!("{}.{}", item.name, f.wire);
        let mut flines = cx.doc_lines(&f.docs, &key);
        if f.rust != f.wire {
            if !flines.is_empty() {
                flines.push(String::new());
            }
            flines.push(format!("Wire name: `{}`.", f.wire));
        }
        if !f.required {
            if !flines.is_empty() {
                flines.push(String::new());
            }
            flines.push("Optional: `None` is left out of the JSON.".into());
        }
        if let Some(d) = &f.default {
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
        let cname = format_ident!("{}", snake_case(&f.wire).to_uppercase());
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
        if let (Type::Literal(l), true) = (&f.ty, f.required) {
            let fx = fixed_expr(l);
            let slot = format_ident!("fixed{}", i);
            return quote! { [fixed #wire #slot (#fx)] };
        }
        let slot = ident(&field_ident(&f.rust));
        let t = cx.member_type(&f.ty, f.boxed);
        let wrap = wrap_of(&f.ty);
        let fname = ident(&field_ident(&f.rust));
        match (f.required, f.default.as_ref().and_then(|d| cx.default_expr(&f.ty, &d.value))) {
            (false, _) => quote! { [optional #wire #slot (#t) #wrap #fname] },
            (true, Some(default)) => quote! { [defaulted #wire #slot (#t) #wrap #fname (#default)] },
            (true, None) => quote! { [required #wire #slot (#t) #wrap #fname] },
        }
    });
    let inits = s.fields.iter().filter(|f| !(f.required && matches!(f.ty, Type::Literal(_)))).map(|f| ident(&field_ident(&f.rust)));
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
    let as_text = u.discriminator.is_some() && u.variants.iter().any(|v| cx.holds_objects(&v.ty, 0));
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
