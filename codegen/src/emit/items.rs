//! Model items → Rust: one emitter per shape (struct, string enum, union, alias,
//! const). Each item is its Rust definition, as tokens that prettyplease lays out;
//! for structs and unions, its builders and `From` impls (`build.rs`), as text
//! laid out there; and, for structs, enums and unions, one call of a runtime macro
//! (`codegen/runtime`, crate `mcp-spec-runtime`) that writes its serde impls, laid out here by hand, one
//! member per line, so that a one-member change in the schema is a one-line
//! change in the macro call.

use proc_macro2::TokenStream;
use quote::quote;

use super::calls::{Call, MemberKind, ObjectMember, Tags, UnionCallRule, UnionMember};
use super::cx::{Cx, deprecated_text, ident, literal_text, type_tokens};
use super::docs::inline_origin;
use crate::model::*;
use crate::rust::{NumberWrap, member_name, union_derives};

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

/// One model item as Rust. Its doc attributes hold placeholders whose text is
/// in `cx.docs`: format the tokens with `format::format_file_with` and those texts.
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
            let docs = cx.docs.attrs(&lines);
            let dep = deprecated_attr(&item.docs.deprecated);
            let name = ident(&item.name);
            let ty = cx.rust_type(t);
            Emitted::tokens(quote! { #docs #dep pub type #name = #ty; })
        }
        ItemKind::Const(l) => {
            let docs = cx.docs.attrs(&lines);
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
    let docs = cx.docs.attrs(&lines);

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
        let fdocs = cx.docs.attrs(&flines);
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
    let docs = cx.docs.attrs(&lines);
    let variants = e.values.iter().map(|v| {
        let vname = ident(&v.rust);
        let mut vlines = vec![format!("`{}`", serde_json::to_string(&v.value).unwrap_or_default())];
        for note in cx.notes.get(&crate::registry::value_key(&item.name, &v.value)).into_iter().flatten() {
            push_paragraph(&mut vlines, note.clone());
        }
        let doc = cx.docs.attrs(&vlines);
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
    for (i, line) in super::docs::describe(u).into_iter().enumerate() {
        if i == 0 {
            push_paragraph(&mut lines, line);
        } else {
            lines.push(line);
        }
    }
    let docs = cx.docs.attrs(&lines);
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
