//! JSDoc markdown → rustdoc markdown: `{@link}` to intra-doc links, spec-relative
//! links to absolute ones, examples inlined as JSON blocks, and escaping so that
//! rustdoc with `-D warnings` has nothing to say.

use crate::model::{Docs, InlineRole, Item, ItemKind, Revision, Type, Union, UnionRule};
use crate::names::field_ident;

const SITE: &str = "https://modelcontextprotocol.io";

/// Resolves `{@link X}` targets against one revision.
pub struct Links<'a> {
    pub rev: &'a Revision,
}

impl Links<'_> {
    /// The rustdoc path for a schema reference: `Tool` → `Tool`,
    /// `ClientCapabilities.sampling.context` → `ClientCapabilitiesSampling::context`.
    pub fn resolve(&self, target: &str) -> Option<String> {
        let mut parts = target.split('.');
        let first = parts.next()?;
        let mut item = self.rev.item(first)?;
        let mut path = first.to_string();
        let rest: Vec<&str> = parts.collect();
        for (i, part) in rest.iter().enumerate() {
            let ItemKind::Struct(s) = &item.kind else { return None };
            let f = s.field(part)?;
            if !f.role.has_rust_field() {
                return None; // fixed fields have no Rust field to link to
            }
            if i + 1 == rest.len() {
                return Some(format!("{}::{}", item.name, field_ident(&f.rust)));
            }
            let Type::Named(next) = inner_named(&f.ty)? else { return None };
            item = self.rev.item(next)?;
            path = next.clone();
        }
        let _ = path;
        Some(item.name.clone())
    }
}

fn inner_named(t: &Type) -> Option<&Type> {
    match t {
        Type::Named(_) => Some(t),
        Type::Nullable(t) | Type::Array(t) => inner_named(t),
        _ => None,
    }
}

/// The rustdoc lines for an item's or field's docs.
pub fn render(docs: &Docs, links: &Links<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in &docs.text {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            if !in_fence && trimmed.trim() == "```" {
                out.push(format!("{}```text", &line[..line.len() - trimmed.len()]));
            } else {
                out.push(line.clone());
            }
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.push(line.clone());
        } else {
            out.push(convert_line(&cap_indent(line), links));
        }
    }
    if in_fence {
        out.push("```".into());
    }
    let mut extra = Vec::new();
    for o in &docs.overrides {
        extra.push(format!("**Corrected by the generator:** {}", convert_line(o, links)));
    }
    if docs.internal {
        extra.push(
            "*Internal* in the schema (`@internal`: [protocol machinery](crate#conventions-the-same-in-every-module))."
                .to_string(),
        );
    }
    for (tag, value) in &docs.constraints {
        let label = match tag.as_str() {
            "format" => "Format".to_string(),
            "minimum" => "Minimum".to_string(),
            "maximum" => "Maximum".to_string(),
            "maxItems" => "At most this many items".to_string(),
            "minItems" => "At least this many items".to_string(),
            "nullable" => "Nullable".to_string(),
            "template" => "Matches the template literal type".to_string(),
            "const" => "Always".to_string(),
            "exclusiveMinimum" => "Greater than".to_string(),
            "exclusiveMaximum" => "Less than".to_string(),
            "minLength" => "At least this many characters".to_string(),
            "maxLength" => "At most this many characters".to_string(),
            "pattern" => "Pattern".to_string(),
            "enum" => "One of".to_string(),
            "__brand" => "Brand".to_string(),
            other => format!("`@{other}`"),
        };
        if value.is_empty() {
            extra.push(format!("{label}."));
        } else {
            extra.push(format!("{label}: `{}`", value.replace('`', "'")));
        }
    }
    for see in &docs.see {
        extra.push(format!("See also: {}", convert_line(see, links)));
    }
    if !extra.is_empty() {
        if !out.is_empty() {
            out.push(String::new());
        }
        for (i, e) in extra.into_iter().enumerate() {
            if i > 0 {
                out.push(String::new());
            }
            out.push(e);
        }
    }
    for ex in &docs.examples {
        let Some(content) = &ex.content else { continue };
        if !out.is_empty() {
            out.push(String::new());
        }
        let title = if ex.title.is_empty() {
            "Example".to_string()
        } else {
            format!("Example: {}", convert_line(&ex.title, links))
        };
        out.push(format!("**{title}**"));
        out.push(String::new());
        if content.trim_start().starts_with("```") {
            // Already fenced in the source (a `.d.ts`'s ```ts block): kept as it is.
            out.extend(content.trim().lines().map(str::to_string));
        } else {
            out.push("```json".into());
            out.extend(content.lines().map(str::to_string));
            out.push("```".into());
        }
    }
    out
}

/// More than three spaces of indentation would make an indented code block.
fn cap_indent(line: &str) -> String {
    let indent = line.len() - line.trim_start().len();
    if indent >= 4 { format!("   {}", line.trim_start()) } else { line.to_string() }
}

#[derive(Debug)]
enum Seg {
    Code(String),
    Text(String),
}

/// Converts one line outside code fences.
pub fn convert_line(line: &str, links: &Links<'_>) -> String {
    // `{@link Target | label}` tags whose label holds a code span, likewise.
    if let Some((start, end)) = link_tag_with_code(line) {
        let inner = &line[start + 1..end - 1];
        let body =
            inner.trim_start_matches("@linkcode").trim_start_matches("@linkplain").trim_start_matches("@link").trim();
        return format!(
            "{}{}{}",
            convert_line(&line[..start], links),
            render_link(body, links),
            convert_line(&line[end..], links)
        );
    }
    // Markdown links whose label holds a code span (`[the `_meta` field](/specification/...)`)
    // are found on the whole line first: splitting at code spans would cut them.
    if let Some((start, end, target)) = md_link_with_code(line) {
        let label = &line[start + 1..end - target.len() - 3];
        return format!(
            "{}[{}]({}){}",
            convert_line(&line[..start], links),
            convert_line(label, links),
            absolute(target),
            convert_line(&line[end..], links)
        );
    }
    let mut segs = Vec::new();
    let mut rest = line;
    // Code spans first: nothing inside them is touched.
    while let Some(start) = rest.find('`') {
        let ticks = rest[start..].chars().take_while(|c| *c == '`').count();
        let fence = &rest[start..start + ticks];
        match rest[start + ticks..].find(fence) {
            Some(len) => {
                segs.push(Seg::Text(rest[..start].to_string()));
                let end = start + ticks + len + ticks;
                segs.push(Seg::Code(rest[start..end].to_string()));
                rest = &rest[end..];
            }
            None => break,
        }
    }
    segs.push(Seg::Text(rest.to_string()));
    let mut out = String::new();
    for seg in segs {
        match seg {
            Seg::Code(c) => out.push_str(&c),
            Seg::Text(t) => out.push_str(&convert_text(&t, links)),
        }
    }
    out
}

fn convert_text(text: &str, links: &Links<'_>) -> String {
    let mut out = String::new();
    let mut rest = text;
    loop {
        let next_link = rest.find("{@link");
        let next_md = find_md_link(rest);
        let take_md = match (next_link, &next_md) {
            (Some(a), Some((b, _, _))) => *b < a,
            (None, Some(_)) => true,
            _ => false,
        };
        if take_md {
            let (start, end, rendered) = next_md.unwrap_or_default();
            out.push_str(&escape(&rest[..start]));
            out.push_str(&rendered);
            rest = &rest[end..];
            continue;
        }
        match next_link {
            Some(start) => {
                let Some(close) = rest[start..].find('}') else {
                    out.push_str(&escape(rest));
                    break;
                };
                out.push_str(&escape(&rest[..start]));
                let inner = &rest[start + 1..start + close];
                let body = inner
                    .trim_start_matches("@linkcode")
                    .trim_start_matches("@linkplain")
                    .trim_start_matches("@link")
                    .trim();
                out.push_str(&render_link(body, links));
                rest = &rest[start + close + 1..];
            }
            None => {
                out.push_str(&escape(rest));
                break;
            }
        }
    }
    out
}

/// The first `{@link ...}` outside a code span whose text holds a code span:
/// (start of `{`, end after `}`).
fn link_tag_with_code(line: &str) -> Option<(usize, usize)> {
    let mut in_code = false;
    for (i, c) in line.char_indices() {
        match c {
            '`' => in_code = !in_code,
            '{' if !in_code && line[i..].starts_with("{@link") => {
                let close = line[i..].find('}')? + i;
                if line[i..close].contains('`') {
                    return Some((i, close + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// The first `[label](target)` whose label contains a code span, with its `[`
/// outside any code span: (start, end, target).
fn md_link_with_code(line: &str) -> Option<(usize, usize, &str)> {
    let bytes = line.as_bytes();
    let mut in_code = false;
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'`' => in_code = !in_code,
            b'[' if !in_code => {
                let close = line[i..].find("](")? + i;
                let label = &line[i + 1..close];
                if !label.contains('`') || label.contains('[') || !label.matches('`').count().is_multiple_of(2) {
                    continue;
                }
                let target_end = line[close + 2..].find(')')? + close + 2;
                let target = &line[close + 2..target_end];
                if target.is_empty() || target.contains(' ') {
                    continue;
                }
                return Some((i, target_end + 1, target));
            }
            _ => {}
        }
    }
    None
}

/// `[label](target)`: (start, end, rendered) with spec-relative targets made absolute.
fn find_md_link(s: &str) -> Option<(usize, usize, String)> {
    let mut from = 0;
    while let Some(i) = s[from..].find('[') {
        let start = from + i;
        if let Some(j) = s[start..].find("](") {
            let label_end = start + j;
            if let Some(k) = s[label_end + 2..].find(')') {
                let target = &s[label_end + 2..label_end + 2 + k];
                let label = &s[start + 1..label_end];
                if !label.contains('[') && !target.contains(' ') && !target.is_empty() {
                    let target = absolute(target);
                    return Some((start, label_end + 3 + k, format!("[{}]({target})", escape_label(label))));
                }
            }
        }
        from = start + 1;
    }
    None
}

fn escape_label(label: &str) -> String {
    label.replace('<', "\\<")
}

fn absolute(target: &str) -> String {
    if target.starts_with('/') { format!("{SITE}{target}") } else { target.to_string() }
}

fn render_link(body: &str, links: &Links<'_>) -> String {
    let (target, label) = match body.split_once('|') {
        Some((t, l)) => (t.trim(), Some(l.trim())),
        None => match body.split_once(' ') {
            Some((t, l)) if !t.contains("://") || !l.is_empty() => (t.trim(), Some(l.trim()).filter(|l| !l.is_empty())),
            _ => (body.trim(), None),
        },
    };
    if target.contains("://") || target.starts_with('/') {
        let url = absolute(target);
        return match label {
            Some(l) => format!("[{}]({url})", escape_label(l)),
            None => format!("<{url}>"),
        };
    }
    match (links.resolve(target), label) {
        // `{@link X `X`}`: the label is the target's own name, which rustdoc resolves alone.
        (Some(path), Some(l)) if path == target && l.trim_matches('`') == target => format!("[`{target}`]"),
        (Some(path), Some(l)) => format!("[{}]({path})", escape_label(l)),
        (Some(path), None) if path == target => format!("[`{target}`]"),
        (Some(path), None) => format!("[`{target}`]({path})"),
        (None, Some(l)) => format!("{} (`{target}`)", escape(l)),
        (None, None) => format!("`{target}`"),
    }
}

/// Escapes what rustdoc would misread in plain text: brackets (would be taken for
/// intra-doc links), angle brackets (HTML tags), and bare URLs (linted).
fn escape(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let url_at = ["https://", "http://"].iter().filter_map(|p| rest.find(p)).min();
        let (plain, url) = match url_at {
            Some(i) => {
                let end = rest[i..]
                    .find(|c: char| c.is_whitespace() || c == ')' || c == '>' || c == '"')
                    .map(|e| i + e)
                    .unwrap_or(rest.len());
                let mut url = &rest[i..end];
                while url.ends_with(['.', ',', ';', ':']) {
                    url = &url[..url.len() - 1];
                }
                (&rest[..i], Some((url, i + url.len())))
            }
            None => (rest, None),
        };
        for c in plain.chars() {
            match c {
                '[' | ']' | '<' | '>' => {
                    out.push('\\');
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        match url {
            Some((u, end)) => {
                let preceded_by_angle = out.ends_with("\\<");
                if preceded_by_angle {
                    out.truncate(out.len() - 2);
                }
                out.push('<');
                out.push_str(u);
                out.push('>');
                rest = &rest[end..];
                if preceded_by_angle && rest.starts_with('>') {
                    rest = &rest[1..];
                }
            }
            None => break,
        }
    }
    out
}

/// Docs for an inline item: where it comes from in the schema.
pub fn inline_origin(item: &Item, parent: &str, field: &str, role: InlineRole) -> String {
    let place = if field.is_empty() { format!("`{parent}`") } else { format!("`{parent}.{field}`") };
    let what = match role {
        InlineRole::Item => "the elements of",
        InlineRole::Value => "the values of",
        InlineRole::Variant(_) => "a member of the union",
        InlineRole::Member => "",
    };
    let kind = item.kind.describe();
    if what.is_empty() {
        format!("The inline {kind} type of {place} in the schema (named from its parent and field; see [`{parent}`]).")
    } else {
        format!("The inline {kind} type of {what} {place} in the schema (see [`{parent}`]).")
    }
}

/// The union's rule in words, for its docs: one paragraph per line. The rules
/// themselves are told once, in the crate docs' "How unions are read"; each
/// member's docs give the value that selects it.
pub fn describe(u: &Union) -> Vec<String> {
    const SEE: &str = "see [how unions are read](crate#how-unions-are-read)";
    let name = |k: usize| u.variants[k].name.as_str();
    let line = match &u.rule {
        UnionRule::Tagged { field, fallback: Some(k) } => format!(
            "Reading: by the value of `{field}`; any other value reads as `{}`, so messages this revision does not know pass through ({SEE}).",
            name(*k)
        ),
        UnionRule::Tagged { field, fallback: None } => {
            format!(
                "Reading: by the value of `{field}`; an unknown value is an error that lists the known ones ({SEE})."
            )
        }
        UnionRule::Selected(sel) => {
            let other = match sel.other {
                Some(k) => format!(" (a value `{}` does not list reads `{}`)", sel.values_of, name(k)),
                None => String::new(),
            };
            format!(
                "Reading: by `{}` first{other}, then by shape among the members no value selects ({SEE}).",
                sel.field
            )
        }
        UnionRule::Shape => {
            format!("Reading: by shape, the member whose keys the input has, most specific first ({SEE}).")
        }
        UnionRule::Kind => format!("Reading: by the input's JSON kind alone ({SEE})."),
    };
    vec![line]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn rev() -> Revision {
        Revision {
            name: "x".into(),
            module: "x".into(),
            dated: false,
            schema_path: Default::default(),
            schema_sha256: String::new(),
            items: BTreeMap::new(),
            core: None,
            widened: BTreeMap::new(),
        }
    }

    #[test]
    fn escapes_and_links() {
        let r = rev();
        let l = Links { rev: &r };
        assert_eq!(convert_line("a [b] <c> `[d]`", &l), "a \\[b\\] \\<c\\> `[d]`");
        assert_eq!(convert_line("see https://x.io/a.", &l), "see <https://x.io/a>.");
        assert_eq!(
            convert_line("[General](/specification/2026-07-28/basic)", &l),
            "[General](https://modelcontextprotocol.io/specification/2026-07-28/basic)"
        );
        assert_eq!(convert_line("{@link Missing}", &l), "`Missing`");
        assert_eq!(convert_line("{@link https://a.b/c | JSON-RPC}", &l), "[JSON-RPC](https://a.b/c)");
        assert_eq!(
            convert_line("Keys MUST follow the {@link https://a.b/meta | `_meta` key naming rules}, with a", &l),
            "Keys MUST follow the [`_meta` key naming rules](https://a.b/meta), with a"
        );
        assert_eq!(
            convert_line("the {@link Missing | `x` rules} and `{@link}`", &l),
            "the `x` rules (`Missing`) and `{@link}`"
        );
        assert_eq!(
            convert_line("See [General fields: `_meta`](/specification/x#meta) for <notes>.", &l),
            "See [General fields: `_meta`](https://modelcontextprotocol.io/specification/x#meta) for \\<notes\\>."
        );
    }
}
