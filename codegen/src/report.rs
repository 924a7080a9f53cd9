//! What the reports of every stage share: the formats they print in, and the
//! frame of their HTML pages.

/// How a report is printed: for a terminal, as markdown, as JSON for tools, or
/// as one self-contained HTML page (no network, no external assets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Json,
    Html,
}

/// Escapes text for HTML, in content and in attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: `title`, the page's own CSS and body, and a script that runs
/// once the page is loaded. Everything is inline.
pub fn page(title: &str, css: &str, body: &str, script: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1f24; background: #fff; }}
h1 {{ font-size: 1.4em; margin: 0 0 .3em; }}
p.lead {{ margin: 0 0 1em; color: #57606a; }}
.controls {{ display: flex; gap: 1em; align-items: center; margin: .8em 0; flex-wrap: wrap; }}
.controls label {{ color: #57606a; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #d0d7de; padding: 2px 8px; text-align: left; vertical-align: top; }}
th {{ background: #f6f8fa; position: sticky; top: 0; }}
td.path, td.id {{ font-family: ui-monospace, monospace; white-space: nowrap; }}
.legend span {{ display: inline-block; padding: 1px 8px; margin-right: .4em; border: 1px solid #d0d7de; }}
{css}
</style>
</head>
<body>
{body}
<script>
"use strict";
{script}
</script>
</body>
</html>
"#,
        title = escape(title)
    )
}
