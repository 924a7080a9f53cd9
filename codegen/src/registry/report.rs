//! The registry as a report: text for a terminal, markdown laid out like the
//! spec's own registry page (`docs/specification/<rev>/deprecated.mdx`), and JSON
//! for tools.
//!
//! # The JSON shape (`"format": "mcp-spec-registry/1"`)
//!
//! ```json
//! {
//!   "format": "mcp-spec-registry/1",
//!   "revisions": ["2025-11-25", "2026-07-28"],
//!   "protocol_versions": { "2025-11-25": "2025-11-25", "2026-07-28": "2026-07-28" },
//!   "entries": [
//!     {
//!       "path": "ClientCapabilities.sampling",
//!       "kind": "field",
//!       "parent": "ClientCapabilities",
//!       "states": {
//!         "2025-11-25": { "state": "active" },
//!         "2026-07-28": { "state": "deprecated", "since": "2026-07-28", "sep": "SEP-2577", "note": "..." }
//!       }
//!     }
//!   ]
//! }
//! ```
//!
//! `kind` is `type`, `field`, `value` or `const`; `parent` is `null` for types and
//! consts; `state` is `absent` (not in this revision nor any earlier one), `active`,
//! `deprecated` (with `since`, `sep` (a string or `null`) and `note`) or `removed`
//! (with `last_seen`) or `unnamed` (with `last_named`: a member no longer named
//! but still allowed by its parent's index signature). A present state may add `same_as`: the path under which
//! that revision declares the item (`CallToolRequest.params.name` is
//! `CallToolRequestParams.name` from 2025-11-25 on). Entries are sorted by path; `states` follows `revisions`.
//! With a revision chosen, `revisions` holds just it and entries absent from it
//! are left out. New members may be added to objects; existing ones keep their
//! meaning while the format string stays the same.

use serde_json::{Map, Value, json};

use super::{Entry, Registry, State};

/// The JSON format's identifier.
pub const JSON_FORMAT: &str = "mcp-spec-registry/1";

pub use crate::report::Format;

/// Renders the registry, for one revision or (with `None`) for all.
pub fn render(reg: &Registry, revision: Option<usize>, format: Format) -> String {
    match format {
        Format::Text => text(reg, revision),
        Format::Markdown => markdown(reg, revision),
        Format::Json => json(reg, revision),
        // The matrix is every revision side by side: a revision chosen is not a column less.
        Format::Html => super::html::html(reg),
    }
}

fn chosen(reg: &Registry, revision: Option<usize>) -> Vec<usize> {
    match revision {
        Some(i) => vec![i],
        None => (0..reg.revisions.len()).collect(),
    }
}

/// Entries removed by revision `i` (present in the one before), listed once:
/// the members of a removed type or field go with it.
fn removed_in(reg: &Registry, i: usize) -> Vec<&Entry> {
    if i == 0 {
        return Vec::new();
    }
    reg.entries
        .iter()
        .filter(|e| e.states[i - 1].is_present() && matches!(e.states[i], State::Removed { .. }))
        .filter(|e| !reg.parent_also_gone(e, i))
        .collect()
}

/// Members revision `i` stops naming while their parent still admits them.
fn unnamed_in(reg: &Registry, i: usize) -> Vec<&Entry> {
    if i == 0 {
        return Vec::new();
    }
    reg.entries
        .iter()
        .filter(|e| e.states[i - 1].is_present() && matches!(e.states[i], State::Unnamed { .. }))
        .collect()
}

/// Every entry Removed in revision `i`, however long ago, listed once.
fn removed_by(reg: &Registry, i: usize) -> Vec<(&Entry, &str)> {
    reg.entries
        .iter()
        .filter_map(|e| match &e.states[i] {
            State::Removed { last_seen } if !reg.parent_also_gone(e, i) => Some((e, last_seen.as_str())),
            _ => None,
        })
        .collect()
}

fn next_revision<'a>(reg: &'a Registry, last_seen: &str) -> &'a str {
    reg.revision_index(last_seen).and_then(|i| reg.revisions.get(i + 1)).map(String::as_str).unwrap_or("?")
}

fn text(reg: &Registry, revision: Option<usize>) -> String {
    let mut out = format!(
        "MCP deprecation registry: {} revisions, {} entries (types, fields, consts, enum values)\n",
        reg.revisions.len(),
        reg.entries.len()
    );
    for i in chosen(reg, revision) {
        let rev = &reg.revisions[i];
        let present = reg.entries.iter().filter(|e| e.states[i].is_present() && e.same_as[i].is_none()).count();
        let deprecated = reg.deprecated_in(rev);
        let removed = removed_in(reg, i);
        let since = if i > 0 { format!(" since {}", reg.revisions[i - 1]) } else { String::new() };
        out.push_str(&format!(
            "\n{rev}: {present} present, {} deprecated, {} removed{since}\n",
            deprecated.len(),
            removed.len()
        ));
        let width = deprecated.iter().map(|(e, _)| e).chain(&removed).map(|e| e.path.len()).max().unwrap_or(0);
        for (e, d) in &deprecated {
            let sep = d.sep.as_deref().unwrap_or("no SEP");
            out.push_str(&format!(
                "  deprecated  {:width$}  {:5}  {sep}, since {}\n",
                e.path,
                e.kind.as_str(),
                d.since
            ));
        }
        for e in &removed {
            out.push_str(&format!(
                "  removed     {:width$}  {:5}  last in {}\n",
                e.path,
                e.kind.as_str(),
                reg.revisions[i - 1]
            ));
        }
        for e in unnamed_in(reg, i) {
            out.push_str(&format!(
                "  unnamed     {:width$}  {:5}  last named in {}; still allowed by its parent's index signature\n",
                e.path,
                e.kind.as_str(),
                reg.revisions[i - 1]
            ));
        }
    }
    out
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn markdown(reg: &Registry, revision: Option<usize>) -> String {
    let mut out = String::from("# Deprecated and removed schema items\n\n");
    out.push_str(
        "Generated by `cargo xtask registry` from each revision's `schema.ts`. Features without schema \
         items (transports, authorization, client registration) are not listed.\n",
    );
    for i in chosen(reg, revision) {
        let rev = &reg.revisions[i];
        out.push_str(&format!("\n## {rev}\n\n### Deprecated\n\n"));
        let deprecated = reg.deprecated_in(rev);
        if deprecated.is_empty() {
            out.push_str("No schema items are deprecated in this revision.\n");
        } else {
            out.push_str("| Item | Kind | Deprecation SEP | Deprecated in | Note |\n|---|---|---|---|---|\n");
            for (e, d) in deprecated {
                out.push_str(&format!(
                    "| `{}` | {} | {} | `{}` | {} |\n",
                    cell(&e.path),
                    e.kind.as_str(),
                    d.sep.as_deref().unwrap_or("—"),
                    d.since,
                    cell(&d.note)
                ));
            }
        }
        out.push_str("\n### Removed\n\n");
        let removed = removed_by(reg, i);
        if removed.is_empty() {
            out.push_str("No schema items have been removed by this revision.\n");
        } else {
            out.push_str("| Item | Kind | Last in | Removed in |\n|---|---|---|---|\n");
            for (e, last) in removed {
                out.push_str(&format!(
                    "| `{}` | {} | `{last}` | `{}` |\n",
                    cell(&e.path),
                    e.kind.as_str(),
                    next_revision(reg, last)
                ));
            }
        }
        let unnamed: Vec<(&Entry, &str)> = reg
            .entries
            .iter()
            .filter_map(|e| match &e.states[i] {
                State::Unnamed { last_named } => Some((e, last_named.as_str())),
                _ => None,
            })
            .collect();
        if !unnamed.is_empty() {
            out.push_str("\n### No longer named, still allowed\n\n");
            out.push_str("Members the schema stopped naming that their parent's index signature (`[key: string]: unknown`) still admits: not removed from the protocol.\n\n");
            out.push_str("| Item | Kind | Last named in |\n|---|---|---|\n");
            for (e, last) in unnamed {
                out.push_str(&format!("| `{}` | {} | `{last}` |\n", cell(&e.path), e.kind.as_str()));
            }
        }
    }
    out
}

fn state_json(s: &State) -> Value {
    match s {
        State::Absent => json!({ "state": "absent" }),
        State::Active => json!({ "state": "active" }),
        State::Deprecated(d) => json!({ "state": "deprecated", "since": d.since, "sep": d.sep, "note": d.note }),
        State::Removed { last_seen } => json!({ "state": "removed", "last_seen": last_seen }),
        State::Unnamed { last_named } => json!({ "state": "unnamed", "last_named": last_named }),
    }
}

fn json(reg: &Registry, revision: Option<usize>) -> String {
    let revs = chosen(reg, revision);
    let entries: Vec<Value> = reg
        .entries
        .iter()
        .filter(|e| revision.is_none_or(|i| e.states[i] != State::Absent))
        .map(|e| {
            let mut states = Map::new();
            for &i in &revs {
                let mut state = state_json(&e.states[i]);
                if let (Some(other), Value::Object(m)) = (&e.same_as[i], &mut state) {
                    m.insert("same_as".into(), json!(other));
                }
                states.insert(reg.revisions[i].clone(), state);
            }
            json!({ "path": e.path, "kind": e.kind.as_str(), "parent": e.parent, "states": states })
        })
        .collect();
    let names: Vec<&str> = revs.iter().map(|&i| reg.revisions[i].as_str()).collect();
    let doc = json!({
        "format": JSON_FORMAT,
        "revisions": names,
        "protocol_versions": reg.protocol_versions,
        "entries": entries,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
