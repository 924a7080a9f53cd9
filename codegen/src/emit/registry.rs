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

/// The data half: `ENTRIES` and `PROTOCOL_VERSIONS`. Entries share their state
/// lists (most items have one of a few dozen histories), which keeps the crate
/// small and quick to compile.
pub fn registry_data(reg: &Registry) -> TokenStream {
    let mut lists: BTreeMap<&[State], usize> = BTreeMap::new();
    for e in &reg.entries {
        let next = lists.len();
        lists.entry(e.states.as_slice()).or_insert(next);
    }
    let mut by_index: Vec<(&[State], usize)> = lists.iter().map(|(k, v)| (*k, *v)).collect();
    by_index.sort_by_key(|(_, i)| *i);
    let consts = by_index.iter().map(|(states, i)| {
        let name = format_ident!("S{}", i);
        let states = states.iter().map(state_tokens);
        quote! { const #name: &[State] = &[#(#states),*]; }
    });
    let mut aliases: BTreeMap<&[Option<String>], usize> = BTreeMap::new();
    for e in &reg.entries {
        let next = aliases.len();
        aliases.entry(e.same_as.as_slice()).or_insert(next);
    }
    let mut alias_lists: Vec<(&[Option<String>], usize)> = aliases.iter().map(|(k, v)| (*k, *v)).collect();
    alias_lists.sort_by_key(|(_, i)| *i);
    let alias_consts = alias_lists.iter().map(|(list, i)| {
        let name = format_ident!("A{}", i);
        let items = list.iter().map(|a| match a {
            Some(p) => quote!(::std::option::Option::Some(#p)),
            None => quote!(::std::option::Option::None),
        });
        quote! { const #name: &[::std::option::Option<&str>] = &[#(#items),*]; }
    });
    let entries = reg.entries.iter().map(|e| {
        let path = &e.path;
        let kind = match e.kind {
            EntryKind::Type => format_ident!("Type"),
            EntryKind::Field => format_ident!("Field"),
            EntryKind::Value => format_ident!("Value"),
            EntryKind::Const => format_ident!("Const"),
        };
        let states = format_ident!("S{}", lists[e.states.as_slice()]);
        let same_as = format_ident!("A{}", aliases[e.same_as.as_slice()]);
        quote! { #path #kind #states #same_as, }
    });
    let versions = reg.protocol_versions.iter().map(|(v, r)| quote! { (#v, #r), });
    quote! {
        #(#consts)*
        #(#alias_consts)*

        static ENTRIES: &[Entry] = crate::rt::registry_entries![crate::REVISIONS; #(#entries)*];

        /// Protocol version strings, sorted, with their revisions.
        static PROTOCOL_VERSIONS: &[(&str, &str)] = &[#(#versions)*];
    }
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
