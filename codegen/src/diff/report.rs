//! A diff as text (a terminal: breaking changes first), markdown (a release note
//! or PR comment) or JSON (tools).
//!
//! # The JSON shape (`"format": "mcp-spec-diff/1"`)
//!
//! ```json
//! {
//!   "format": "mcp-spec-diff/1",
//!   "old": "2025-11-25",
//!   "new": "2026-07-28",
//!   "summary": { "changes": 120, "breaking": 80, "wire": 40, "api": 70, "docs": 30 },
//!   "changes": [
//!     {
//!       "id": "field-added-required",
//!       "path": "Result.resultType",
//!       "old": null,
//!       "new": "required {enum}",
//!       "breaking": true,
//!       "wire": "old-writers",
//!       "api": "struct literals must name the new field",
//!       "detail": "inherited by 31 other types"
//!     }
//!   ]
//! }
//! ```
//!
//! `wire` is `none`, `old-readers`, `old-writers` or `both`; `api`, `old`, `new`
//! and `detail` are strings or `null`. `summary` counts every change, docs
//! included; `changes` holds docs changes only when asked for (`--docs`).
//! Changes are sorted by path, then id. New members may be added to objects;
//! existing ones keep their meaning while the format string stays the same.

use serde_json::{Value, json};

use super::{Change, Diff, Wire};

pub const JSON_FORMAT: &str = "mcp-spec-diff/1";

pub use crate::report::Format;

/// Counts over a diff.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub changes: usize,
    pub breaking: usize,
    pub wire: usize,
    pub api: usize,
    pub docs: usize,
}

pub fn summary(d: &Diff) -> Summary {
    let mut s = Summary { changes: d.changes.len(), ..Summary::default() };
    for c in &d.changes {
        s.breaking += usize::from(c.is_breaking());
        s.wire += usize::from(c.wire != Wire::None);
        s.api += usize::from(c.api.is_some());
        s.docs += usize::from(c.is_docs());
    }
    s
}

/// Renders a diff; docs changes are counted always and listed with `docs`.
pub fn render(d: &Diff, format: Format, docs: bool) -> String {
    let listed: Vec<&Change> = d.changes.iter().filter(|c| docs || !c.is_docs()).collect();
    match format {
        Format::Text => text(d, &listed, docs),
        Format::Markdown => markdown(d, &listed, docs),
        Format::Json => json_report(d, &listed),
        Format::Html => super::html::html(d, &listed),
    }
}

fn arrow(c: &Change) -> String {
    match (&c.old, &c.new) {
        (Some(a), Some(b)) => format!("{a} -> {b}"),
        (None, Some(b)) => b.clone(),
        (Some(a), None) => format!("was {a}"),
        (None, None) => String::new(),
    }
}

fn headline(d: &Diff, docs: bool) -> String {
    let s = summary(d);
    let hidden = if docs || s.docs == 0 { String::new() } else { " (--docs lists them)".into() };
    format!(
        "{} -> {}: {} changes, {} breaking ({} on the wire, {} in the Rust API), {} docs changes{hidden}",
        d.old,
        d.new,
        s.changes - s.docs,
        s.breaking,
        s.wire,
        s.api,
        s.docs
    )
}

fn text(d: &Diff, listed: &[&Change], docs: bool) -> String {
    let mut out = headline(d, docs);
    out.push('\n');
    let width = listed.iter().map(|c| c.id.as_str().len()).max().unwrap_or(0);
    for (title, breaking) in [("Breaking", true), ("Compatible", false)] {
        let group: Vec<&&Change> = listed.iter().filter(|c| c.is_breaking() == breaking).collect();
        if group.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{title} ({})\n", group.len()));
        for c in group {
            let what = arrow(c);
            let what = if what.is_empty() { String::new() } else { format!("  {what}") };
            out.push_str(&format!("  {:width$}  {}{what}\n", c.id, c.path));
            let mut notes = Vec::new();
            if c.wire != Wire::None {
                notes.push(format!("wire: {}", c.wire.explain()));
            }
            if let Some(api) = &c.api {
                notes.push(format!("api: {api}"));
            }
            if let Some(detail) = &c.detail {
                notes.push(detail.clone());
            }
            if !notes.is_empty() {
                out.push_str(&format!("  {:width$}    {}\n", "", notes.join("; ")));
            }
        }
    }
    out
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn markdown(d: &Diff, listed: &[&Change], docs: bool) -> String {
    let mut out = format!("## MCP schema changes: {} → {}\n\n{}\n", d.old, d.new, headline(d, docs));
    for (title, breaking) in [("Breaking", true), ("Compatible", false)] {
        let group: Vec<&&Change> = listed.iter().filter(|c| c.is_breaking() == breaking).collect();
        if group.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\n### {title} ({})\n\n| Change | Item | Old | New | Wire | API |\n|---|---|---|---|---|---|\n",
            group.len()
        ));
        for c in group {
            let code = |s: &Option<String>| s.as_deref().map(|v| format!("`{}`", cell(v))).unwrap_or_default();
            out.push_str(&format!(
                "| `{}` | `{}` | {} | {} | {} | {} |\n",
                c.id,
                cell(&c.path),
                code(&c.old),
                code(&c.new),
                if c.wire == Wire::None { String::new() } else { c.wire.as_str().to_string() },
                c.api.as_deref().map(cell).unwrap_or_default()
            ));
        }
    }
    out
}

fn json_report(d: &Diff, listed: &[&Change]) -> String {
    let s = summary(d);
    let changes: Vec<Value> = listed
        .iter()
        .map(|c| {
            json!({
                "id": c.id.as_str(),
                "path": c.path,
                "old": c.old,
                "new": c.new,
                "breaking": c.is_breaking(),
                "wire": c.wire.as_str(),
                "api": c.api,
                "detail": c.detail,
            })
        })
        .collect();
    let doc = json!({
        "format": JSON_FORMAT,
        "old": d.old,
        "new": d.new,
        "summary": { "changes": s.changes, "breaking": s.breaking, "wire": s.wire, "api": s.api, "docs": s.docs },
        "changes": changes,
    });
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}
