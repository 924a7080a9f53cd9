//! The registry → the generated crate's `registry` module: its docs and thin
//! wrappers over the runtime's lookups (`codegen/templates/registry.rs`)
//! followed by the data, one static table.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::Spec;
use crate::registry::{EntryKind, Later, Registry, State};

use super::cx::RevisionNotes;

/// Doc lines for older modules about what later revisions do to an item:
/// "**Later revisions:** Deprecated in 2026-07-28 (SEP-2577). Removed in ...".
pub fn look_ahead_notes(spec: &Spec, reg: &Registry) -> RevisionNotes {
    let mut notes = RevisionNotes::new();
    for (rev, keys) in spec.revisions.iter().zip(reg.look_ahead()) {
        for (key, later) in keys {
            let said: Vec<String> = later
                .iter()
                .map(|l| match l {
                    Later::Deprecated { revision, state } => {
                        let sep = state.sep.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
                        let dated = if &state.since != revision {
                            format!(", where the tag dates it to {}", state.since)
                        } else {
                            String::new()
                        };
                        format!("Deprecated in {revision}{sep}{dated}.")
                    }
                    Later::Removed { revision } => format!("Removed in {revision}."),
                    Later::Unnamed { revision } => {
                        format!("No longer named in {revision}, but still allowed there by the parent's `[key: string]` index signature (kept as an unknown member).")
                    }
                })
                .collect();
            notes
                .entry(rev.module.clone())
                .or_default()
                .entry(key)
                .or_default()
                .push(format!("**Later revisions:** {}", said.join(" ")));
        }
    }
    notes
}

/// The module's docs and its functions over the data (the runtime's lookups).
pub const API: &str = include_str!("../../templates/registry.rs");

/// The data half: `ENTRIES`, a line of text per entry (see the runtime's
/// `Registry`), the state and same-as lists they index (most items have one of
/// a few dozen histories), and `PROTOCOL_VERSIONS`. Text, not a static of
/// structs, which cost the crate's build about 2%.
pub fn registry_data(reg: &Registry) -> TokenStream {
    let states = numbered(reg.entries.iter().map(|e| e.states.as_slice()));
    let same_as = numbered(reg.entries.iter().map(|e| e.same_as.as_slice()));
    let state_consts = states.in_order.iter().enumerate().map(|(i, list)| {
        let name = format_ident!("S{}", i);
        let list = list.iter().map(state_tokens);
        quote! { const #name: &[State] = &[#(#list),*]; }
    });
    let same_as_consts = same_as.in_order.iter().enumerate().map(|(i, list)| {
        let name = format_ident!("A{}", i);
        let items = list.iter().map(|a| match a {
            Some(p) => quote!(::std::option::Option::Some(#p)),
            None => quote!(::std::option::Option::None),
        });
        quote! { const #name: &[::std::option::Option<&str>] = &[#(#items),*]; }
    });
    let state_names = (0..states.in_order.len()).map(|i| format_ident!("S{}", i));
    let same_as_names = (0..same_as.in_order.len()).map(|i| format_ident!("A{}", i));
    let lines: Vec<String> = reg
        .entries
        .iter()
        .map(|e| {
            let kind = match e.kind {
                EntryKind::Type => 'T',
                EntryKind::Field => 'F',
                EntryKind::Value => 'V',
                EntryKind::Const => 'C',
            };
            let states = states.index[e.states.as_slice()];
            let same_as = same_as.index[e.same_as.as_slice()];
            format!("{kind} {states} {same_as} {}", e.path)
        })
        .collect();
    let table = raw_string(&lines.join("\n"));
    let versions = reg.protocol_versions.iter().map(|(v, r)| quote! { (#v, #r), });
    quote! {
        #(#state_consts)*
        const STATE_LISTS: &[&[State]] = &[#(#state_names),*];
        #(#same_as_consts)*
        const SAME_AS_LISTS: &[&[::std::option::Option<&str>]] = &[#(#same_as_names),*];

        /// Every entry, sorted by path, a line each: `KIND STATES SAME_AS PATH`
        /// (`T`ype, `F`ield, `V`alue or `C`onst; an index into `STATE_LISTS`;
        /// one into `SAME_AS_LISTS`; the path, its odd segments JSON-quoted).
        static ENTRIES: &str = #table;

        /// Protocol version strings, sorted, with their revisions.
        static PROTOCOL_VERSIONS: &[(&str, &str)] = &[#(#versions)*];
    }
}

/// Distinct lists, numbered in order of first use.
struct Numbered<'a, T> {
    in_order: Vec<&'a [T]>,
    index: BTreeMap<&'a [T], usize>,
}

fn numbered<'a, T: Ord>(lists: impl Iterator<Item = &'a [T]>) -> Numbered<'a, T> {
    let mut out = Numbered { in_order: Vec::new(), index: BTreeMap::new() };
    for list in lists {
        if !out.index.contains_key(list) {
            out.index.insert(list, out.in_order.len());
            out.in_order.push(list);
        }
    }
    out
}

/// `text` as a raw string literal, its lines the file's: `r#"..."#`, with as
/// many `#` as it takes for no `"#...` inside to end it.
fn raw_string(text: &str) -> TokenStream {
    let mut hashes = String::new();
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}").parse().unwrap_or_else(|_| quote!(#text))
}

fn state_tokens(s: &State) -> TokenStream {
    match s {
        State::Absent => quote!(State::Absent),
        State::Active => quote!(State::Active),
        State::Deprecated(d) => {
            let since = &d.since;
            let note = &d.note;
            let sep = match &d.sep {
                Some(s) => quote!(::std::option::Option::Some(#s)),
                None => quote!(::std::option::Option::None),
            };
            quote!(State::Deprecated { since: #since, sep: #sep, note: #note })
        }
        State::Removed { last_seen } => quote!(State::Removed { last_seen: #last_seen }),
        State::Unnamed { last_named } => quote!(State::Unnamed { last_named: #last_named }),
    }
}
