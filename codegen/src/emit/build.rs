//! What builds a value, emitted beside each type: `new(required members…)`,
//! `Default` where nothing is required, `with_<member>` setters for optional
//! members, `From` each member type into its union, and `From` a struct into the
//! base it extends. All from the model's member roles; nothing per type.
//! Constructor arguments are the required members in schema order, except that a
//! JSON-RPC `id` comes first.
//!
//! A constructor names no deprecated member it does not have to (its body is in
//! the generated module, which allows them), so calling it raises no warning; a
//! member a union's selector picks by value starts at that value
//! (`InputRequiredResult::new()` has `resultType: "input_required"`, never the
//! base's `"complete"`, which would read back as a complete result).

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::items::{Cx, ident, type_tokens};
use crate::model::{Field, Item, ItemKind, LiteralValue, Revision, Role, Struct, Type, Union};
use crate::rust::{RustType, member_name};

/// For each struct and field, the value a union's selector picks it by:
/// `(InputRequiredResult, resultType)` → `input_required`.
pub type Picked = BTreeMap<(String, String), String>;

pub fn picked_values(rev: &Revision) -> Picked {
    let mut out = Picked::new();
    for item in rev.items.values() {
        let ItemKind::Union(u) = &item.kind else { continue };
        let Some(sel) = &u.selector else { continue };
        for (value, k) in &sel.tags {
            if let Type::Named(n) = rev.canonical(&u.variants[*k].ty) {
                out.insert((n.clone(), sel.field.clone()), value.clone());
            }
        }
    }
    out
}

/// How a value is passed to a constructor or setter: `impl Into<T>` where that
/// reads naturally (strings and the schema's types), else `T` itself.
fn param(cx: &Cx<'_>, t: &Type) -> (TokenStream, bool) {
    let ty = type_tokens(&cx.types().of(t));
    let into = match cx.rev.canonical(t) {
        Type::String => true,
        Type::Named(n) => matches!(
            cx.rev.item(n).map(|i| &i.kind),
            Some(ItemKind::Struct(_) | ItemKind::Union(_) | ItemKind::Enum(_))
        ),
        _ => false,
    };
    if into { (quote!(impl ::std::convert::Into<#ty>), true) } else { (ty, false) }
}

/// The value stored for a passed argument: converted, boxed when the member is.
fn stored(arg: TokenStream, into: bool, boxed: bool) -> TokenStream {
    let value = if into { quote!(#arg.into()) } else { arg };
    if boxed { quote!(::std::boxed::Box::new(#value)) } else { value }
}

/// The struct's `new` takes no arguments, so it has `Default`.
pub fn has_default(s: &Struct) -> bool {
    s.stored().all(|f| match &f.role {
        Role::Required => false,
        Role::Optional => !matches!(f.ty, Type::Nullable(_)),
        _ => true,
    })
}

/// The constructor, `Default` and setters of a struct.
pub fn struct_builders(item: &Item, s: &Struct, cx: &Cx<'_>) -> TokenStream {
    let name = ident(&item.name);
    let extra = ident(&s.extra);
    let mut params = Vec::new();
    let mut inits = Vec::new();
    let mut setters = Vec::new();
    // Arguments in schema order, but a JSON-RPC `id` first, as envelopes are read:
    // `ListToolsRequest::new(id, params)`, `JSONRPCErrorResponse::new(id, error)`.
    let mut order: Vec<&Field> = s.stored().collect();
    order.sort_by_key(|f| f.wire != "id");
    for f in order {
        let field = ident(&member_name(f));
        match &f.role {
            Role::Required => {
                let arg = ident(&member_name(f));
                // A nullable member is passed as the `Option` it is.
                let (ty, into) = match &f.ty {
                    Type::Nullable(_) => (type_tokens(&cx.types().boxed(&f.ty, f.boxed)), false),
                    t => param(cx, t),
                };
                params.push(quote!(#arg: #ty));
                let boxed = f.boxed && !matches!(f.ty, Type::Nullable(_));
                if into || boxed {
                    let value = stored(quote!(#arg), into, boxed);
                    inits.push(quote!(#field: #value));
                } else {
                    inits.push(quote!(#field));
                }
            }
            Role::Defaulted(d) => {
                let picked = cx.picked.get(&(item.name.clone(), f.wire.clone()));
                let value = match picked {
                    Some(v) => cx.default_text(&f.ty, &LiteralValue::Str(v.clone())),
                    None => cx.default_text(&f.ty, &d.value),
                };
                let value: TokenStream =
                    value.and_then(|v| v.parse().ok()).unwrap_or_else(|| quote!(::std::default::Default::default()));
                inits.push(quote!(#field: #value));
            }
            Role::Optional => match &f.ty {
                // Absent and `null` differ here (an error's `id`): the caller says which.
                Type::Nullable(inner) => {
                    let arg = ident(&member_name(f));
                    let ty = type_tokens(&cx.types().option(cx.types().of(inner)));
                    params.push(quote!(#arg: #ty));
                    inits.push(quote!(#field: ::std::option::Option::Some(#arg)));
                }
                t => {
                    inits.push(quote!(#field: ::std::option::Option::None));
                    setters.push(setter(f, t, cx));
                }
            },
            Role::Fixed(_) => {}
        }
    }
    let doc = format!(
        " A `{}` with the members it requires; optional ones start `None`, defaulted ones at their default.",
        item.name
    );
    let default = params.is_empty().then(|| {
        quote! {
            impl ::std::default::Default for #name {
                fn default() -> Self {
                    #name::new()
                }
            }
        }
    });
    quote! {
        impl #name {
            #[doc = #doc]
            #[inline]
            #[allow(clippy::new_without_default, clippy::too_many_arguments)]
            pub fn new(#(#params),*) -> Self {
                #name { #(#inits,)* #extra: crate::Extra::new() }
            }
            #(#setters)*
        }
        #default
    }
}

fn setter(f: &Field, t: &Type, cx: &Cx<'_>) -> TokenStream {
    let field = ident(&member_name(f));
    let method = format_ident!("with_{}", member_name(f).trim_start_matches("r#"));
    let (ty, into) = param(cx, t);
    let value = stored(quote!(value), into, f.boxed);
    let doc = format!(" Sets `{}`.", f.wire);
    let dep = f.docs.deprecated.as_ref().map(|d| {
        let note = &d.note;
        match &d.since {
            Some(since) => quote!(#[deprecated(since = #since, note = #note)]),
            None => quote!(#[deprecated(note = #note)]),
        }
    });
    quote! {
        #[doc = #doc]
        #dep
        #[inline]
        pub fn #method(mut self, value: #ty) -> Self {
            self.#field = ::std::option::Option::Some(#value);
            self
        }
    }
}

/// `From` each member type into the union, when no two members have one type;
/// `From<&str>` too when a member is a string.
pub fn union_froms(item: &Item, u: &Union, cx: &Cx<'_>) -> TokenStream {
    let name = ident(&item.name);
    // Two members are one type when their types are, aliases seen through.
    let api: Vec<RustType> = u.variants.iter().map(|v| crate::rust::RustTypes::api(cx.rev).of(&v.ty)).collect();
    let mut out = TokenStream::new();
    for (i, v) in u.variants.iter().enumerate() {
        if api.iter().filter(|t| **t == api[i]).count() > 1 {
            continue;
        }
        let ty = type_tokens(&cx.types().of(&v.ty));
        let variant = ident(&v.name);
        let value = if v.boxed { quote!(::std::boxed::Box::new(value)) } else { quote!(value) };
        out.extend(quote! {
            impl ::std::convert::From<#ty> for #name {
                fn from(value: #ty) -> Self {
                    #name::#variant(#value)
                }
            }
        });
        if cx.rev.canonical(&v.ty) == &Type::String {
            out.extend(quote! {
                impl ::std::convert::From<&str> for #name {
                    fn from(value: &str) -> Self {
                        #name::#variant(::std::string::String::from(value))
                    }
                }
            });
        }
    }
    out
}

/// `From` a struct into each base it extends, directly or not, when every member of the base is
/// one of its own (a fixed member of it goes into the base's field of that type):
/// `MethodNotFoundError` into `Error`, `CallToolResult` into `Result`. What the
/// base does not name goes into its `extra`, so nothing is lost.
pub fn base_froms(item: &Item, s: &Struct, cx: &Cx<'_>) -> TokenStream {
    let mut out = TokenStream::new();
    for base in &crate::rule::ancestors(&cx.rev.items, &item.name) {
        let Some(b) = cx.rev.item(base).and_then(|i| match &i.kind {
            ItemKind::Struct(b) => Some(b),
            _ => None,
        }) else {
            continue;
        };
        let Some(body) = upcast(item, s, base, b, cx) else { continue };
        let (from, to) = (ident(&item.name), ident(base));
        // `#[inline]`: the members kept in `extra` go through `serde_json::to_value`,
        // which instantiates their serde code; inline, that is compiled only where
        // a conversion is used, not in this crate (its build took 8% less, A/B).
        out.extend(quote! {
            impl ::std::convert::From<#from> for #to {
                #[inline]
                fn from(value: #from) -> Self {
                    #body
                }
            }
        });
    }
    out
}

fn upcast(item: &Item, s: &Struct, base_name: &str, b: &Struct, cx: &Cx<'_>) -> Option<TokenStream> {
    let types = cx.types();
    let mut inits = Vec::new();
    for bf in b.stored() {
        let sf = s.field(&bf.wire)?;
        let field = ident(&member_name(bf));
        match (&sf.role, types.field(sf), types.field(bf)) {
            (Role::Fixed(l), None, Some(bt)) => {
                let v = literal_tokens(&l.value)?;
                let ty_ok = matches!(
                    (&l.value, bt.to_string().as_str()),
                    (LiteralValue::Str(_), "String")
                        | (LiteralValue::Int(_), "i64")
                        | (LiteralValue::Float(_), "f64")
                        | (LiteralValue::Bool(_), "bool")
                );
                if !ty_ok {
                    return None;
                }
                let v =
                    if matches!(l.value, LiteralValue::Str(_)) { quote!(::std::string::String::from(#v)) } else { v };
                inits.push(quote!(#field: #v));
            }
            (_, Some(st), Some(bt)) if st == bt => {
                let sfield = ident(&member_name(sf));
                inits.push(quote!(#field: value.#sfield));
            }
            // Required in the struct, optional in its base.
            (_, Some(st), Some(bt)) if bt == types.option(st.clone()) => {
                let sfield = ident(&member_name(sf));
                inits.push(quote!(#field: ::std::option::Option::Some(value.#sfield)));
            }
            _ => return None,
        }
    }
    // The struct's own members the base does not name, kept in the base's `extra`.
    let own: Vec<&Field> = s.stored().filter(|f| b.field(&f.wire).is_none()).collect();
    let keep = own.iter().map(|f| {
        let wire = &f.wire;
        let field = ident(&member_name(f));
        if f.is_required() {
            quote! { kept.insert(#wire, ::serde_json::to_value(value.#field).unwrap_or_default()); }
        } else {
            quote! {
                if let ::std::option::Option::Some(v) = value.#field {
                    kept.insert(#wire, ::serde_json::to_value(v).unwrap_or_default());
                }
            }
        }
    });
    let fixed_own: Vec<TokenStream> = s
        .fields
        .iter()
        .filter(|f| f.role.fixed().is_some() && b.field(&f.wire).is_none())
        .filter_map(|f| {
            let wire = &f.wire;
            let v = literal_tokens(&f.role.fixed()?.value)?;
            Some(quote! { kept.insert(#wire, ::serde_json::json!(#v)); })
        })
        .collect();
    let (to, sextra, bextra) = (ident(base_name), ident(&s.extra), ident(&b.extra));
    let _ = item;
    Some(quote! {
        let mut kept = crate::Extra::new();
        #(#fixed_own)*
        #(#keep)*
        for (key, member) in value.#sextra.iter() {
            kept.insert(key.clone(), member.clone());
        }
        #to { #(#inits,)* #bextra: kept }
    })
}

fn literal_tokens(v: &LiteralValue) -> Option<TokenStream> {
    Some(match v {
        LiteralValue::Str(s) => quote!(#s),
        LiteralValue::Int(i) => quote!(#i),
        LiteralValue::Float(f) => quote!(#f),
        LiteralValue::Bool(b) => quote!(#b),
    })
}

/// `Display` and `std::error::Error` for an error object: a struct with an
/// integer `code` and a string `message` (the schema's `Error` and the coded
/// errors built on it). Shown as `message (code)`.
pub fn error_impls(item: &Item, s: &Struct, cx: &Cx<'_>) -> TokenStream {
    let (Some(code), Some(message)) = (s.field("code"), s.field("message")) else { return TokenStream::new() };
    let is_int = |f: &Field| match &f.role {
        Role::Fixed(l) => matches!(l.value, LiteralValue::Int(_)),
        Role::Required => cx.rev.canonical(&f.ty) == &Type::Integer,
        _ => false,
    };
    if !is_int(code) || message.role != Role::Required || cx.rev.canonical(&message.ty) != &Type::String {
        return TokenStream::new();
    }
    let name = ident(&item.name);
    let message = ident(&member_name(message));
    let code = match code.role {
        Role::Fixed(_) => {
            let c = ident(&member_name(code));
            quote!(#name::#c)
        }
        _ => {
            let c = ident(&member_name(code));
            quote!(self.#c)
        }
    };
    quote! {
        impl ::std::fmt::Display for #name {
            /// The message, then the code: `Method not found (-32601)`.
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{} ({})", self.#message, #code)
            }
        }
        impl ::std::error::Error for #name {}
    }
}
