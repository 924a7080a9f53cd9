//! A plain-text outline of a model, for `cargo xtask model` and tests.

use super::*;

/// A plain-text outline of a revision's model: one line per item, indented lines
/// for fields, variants and values. Used by `cargo xtask model` and in tests.
pub fn outline(rev: &Revision) -> String {
    let mut out = String::new();
    for item in rev.items.values() {
        let dep = if item.docs.deprecated.is_some() { " [deprecated]" } else { "" };
        match &item.kind {
            ItemKind::Struct(s) => {
                let bases = if s.bases.is_empty() { String::new() } else { format!(" extends {}", s.bases.join(", ")) };
                out.push_str(&format!("struct {}{bases}{dep}\n", item.name));
                for f in &s.fields {
                    let opt = if f.is_required() { "" } else { "?" };
                    let default =
                        f.role.default().map(|d| format!(" (absent: {})", d.value.to_json())).unwrap_or_default();
                    let fdep = if f.docs.deprecated.is_some() { " [deprecated]" } else { "" };
                    out.push_str(&format!("  {}{opt}: {}{default}{fdep}\n", f.wire, f.ty.describe()));
                    for o in &f.docs.overrides {
                        out.push_str(&format!("    (corrected: {o})\n"));
                    }
                }
                if let Some(ix) = &s.index {
                    out.push_str(&format!("  [key: string]: {}\n", ix.describe()));
                }
            }
            ItemKind::Union(u) => {
                let rule = match &u.rule {
                    UnionRule::Tagged { field, .. } => format!("by `{field}`"),
                    UnionRule::Shape | UnionRule::Kind => "by shape".into(),
                    UnionRule::Selected(sel) => format!("by shape, `{}` first", sel.field),
                };
                out.push_str(&format!("union {} ({rule}){dep}\n", item.name));
                for (i, v) in u.variants.iter().enumerate() {
                    let mut tags: Vec<String> = v.tags.iter().map(|t| t.value.to_json()).collect();
                    if let Some(sel) = u.selector() {
                        tags.extend(sel.tags.iter().filter(|(_, k)| *k == i).map(|(t, _)| format!("{t:?}")));
                        if sel.other == Some(i) {
                            tags.push(format!("unlisted `{}`", sel.field));
                        }
                    }
                    if u.fallback() == Some(i) {
                        tags.push("any other".into());
                    }
                    let tags = if tags.is_empty() { String::new() } else { format!(" = {}", tags.join(" | ")) };
                    out.push_str(&format!("  {}: {}{tags}\n", v.name, v.ty.describe()));
                }
            }
            ItemKind::Enum(e) => {
                let open = if e.open { " (open)" } else { "" };
                out.push_str(&format!("enum {}{open}{dep}\n", item.name));
                for v in &e.values {
                    let vdep = if v.deprecated.is_some() { " [deprecated]" } else { "" };
                    out.push_str(&format!("  {} = {:?}{vdep}\n", v.rust, v.value));
                }
            }
            ItemKind::Alias(t) => out.push_str(&format!("type {} = {}{dep}\n", item.name, t.describe())),
            ItemKind::Const(l) => out.push_str(&format!("const {} = {}{dep}\n", item.name, l.value.to_json())),
        }
    }
    out
}
