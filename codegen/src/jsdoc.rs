//! Reads a JSDoc block into [`Docs`]: the description lines and the tags the
//! generator understands (`@deprecated`, `@internal`, `@category`, `@example`,
//! `@see`, `@TJS-type`, and constraint tags such as `@format`).

use crate::model::{Deprecation, Docs, Example};

/// Splits a raw comment body (the text between `/*` and `*/`) into lines without
/// the leading ` * ` decoration.
pub fn comment_lines(raw: &str) -> Vec<String> {
    let body = raw.strip_prefix('*').unwrap_or(raw);
    let mut lines: Vec<String> = body
        .lines()
        .map(|l| {
            let t = l.trim_start();
            let t = t.strip_prefix('*').map(|r| r.strip_prefix(' ').unwrap_or(r)).unwrap_or(t);
            t.trim_end().to_string()
        })
        .collect();
    while lines.first().is_some_and(|l| l.trim().is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    // A one-line `/** text */` keeps its text; drop a common indentation otherwise.
    let indent =
        lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    lines.into_iter().map(|l| if l.len() >= indent { l[indent..].to_string() } else { l.trim().to_string() }).collect()
}

/// Parses a JSDoc block. Example file contents are filled in by the caller.
pub fn parse_docs(raw: &str) -> Docs {
    let lines = comment_lines(raw);
    let mut docs = Docs::default();
    let mut tags: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_fence = false;
    for line in lines {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
        }
        if !in_fence && trimmed.starts_with('@') && trimmed.len() > 1 && trimmed.as_bytes()[1].is_ascii_alphabetic() {
            let (name, rest) = trimmed[1..].split_once(char::is_whitespace).unwrap_or((&trimmed[1..], ""));
            tags.push((name.to_string(), vec![rest.trim().to_string()]));
        } else if let Some((_, body)) = tags.last_mut() {
            body.push(line);
        } else {
            docs.text.push(line);
        }
    }
    while docs.text.last().is_some_and(|l| l.trim().is_empty()) {
        docs.text.pop();
    }
    for (name, body) in tags {
        // `@description` (the tag ts-to-zod and `.d.ts` files write their prose
        // under) is the description itself, a paragraph of the text.
        if name == "description" {
            if !docs.text.is_empty() {
                docs.text.push(String::new());
            }
            docs.text.extend(body.into_iter().map(|l| l.trim_end().to_string()));
            while docs.text.last().is_some_and(|l| l.trim().is_empty()) {
                docs.text.pop();
            }
            continue;
        }
        let joined = normalise_ws(&body.join("\n"));
        match name.as_str() {
            "deprecated" => docs.deprecated = Some(parse_deprecation(&joined)),
            "internal" => docs.internal = true,
            "category" => docs.category = Some(joined),
            "see" => docs.see.push(joined),
            "example" => docs.examples.push(parse_example(&body)),
            "TJS-type" if joined == "number" => docs.tjs_number = true,
            _ => docs.constraints.push((name, joined)),
        }
    }
    docs
}

fn normalise_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn parse_example(body: &[String]) -> Example {
    let title = body.first().map(|t| t.trim().to_string()).unwrap_or_default();
    let rest = body[1.min(body.len())..].join("\n");
    match rest.find("{@includeCode") {
        Some(start) => {
            let after = &rest[start + "{@includeCode".len()..];
            let path = after[..after.find('}').unwrap_or(after.len())].trim().to_string();
            Example { title, path, content: None }
        }
        None => Example { title, path: String::new(), content: Some(rest.trim().to_string()) },
    }
}

/// Reads "Deprecated as of protocol version 2026-07-28 (SEP-2577). ..." into its
/// revision, its first SEP and the full note. Quoted values (`"thisServer"`) in the
/// first sentence that says "deprecated" are candidates for value deprecations;
/// `lower` keeps those that are values of the field's type.
pub fn parse_deprecation(text: &str) -> Deprecation {
    let since = find_date(text);
    let sep = text
        .find("SEP-")
        .map(|i| {
            let digits: String = text[i + 4..].chars().take_while(char::is_ascii_digit).collect();
            format!("SEP-{digits}")
        })
        .filter(|s| s.len() > 4);
    let sentence = first_sentence_with(text, "deprecated");
    let mut values = Vec::new();
    let mut rest = sentence;
    while let Some(i) = rest.find('"') {
        let after = &rest[i + 1..];
        let Some(j) = after.find('"') else { break };
        values.push(after[..j].to_string());
        rest = &after[j + 1..];
    }
    Deprecation { since, sep, note: text.to_string(), values }
}

fn first_sentence_with<'a>(text: &'a str, word: &str) -> &'a str {
    let lower = text.to_ascii_lowercase();
    let at = lower.find(word).unwrap_or(0);
    let start = text[..at].rfind(". ").map(|i| i + 2).unwrap_or(0);
    let end = text[at..].find(". ").map(|i| at + i + 1).unwrap_or(text.len());
    &text[start..end]
}

/// The first `YYYY-MM-DD` in `text`.
pub fn find_date(text: &str) -> Option<String> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let w = &b[i..i + 10];
        let shape = w.iter().enumerate().all(|(k, c)| if k == 4 || k == 7 { *c == b'-' } else { c.is_ascii_digit() });
        let bounded = (i == 0 || !b[i - 1].is_ascii_digit()) && b.get(i + 10).is_none_or(|c| !c.is_ascii_digit());
        (shape && bounded).then(|| text[i..i + 10].to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deprecation_of_a_feature() {
        let d =
            parse_deprecation("Deprecated as of protocol version 2026-07-28 (SEP-2577). Remains in the specification.");
        assert_eq!(d.since.as_deref(), Some("2026-07-28"));
        assert_eq!(d.sep.as_deref(), Some("SEP-2577"));
        assert!(d.values.is_empty());
    }

    #[test]
    fn deprecation_of_values() {
        let d = parse_deprecation(
            "The `\"thisServer\"` and `\"allServers\"` values are deprecated as of protocol version 2025-11-25 (SEP-2596) and will be removed no later than the Sampling feature itself (SEP-2577). Omit this field or use `\"none\"`.",
        );
        assert_eq!(d.since.as_deref(), Some("2025-11-25"));
        assert_eq!(d.sep.as_deref(), Some("SEP-2596"));
        assert_eq!(d.values, vec!["thisServer", "allServers"]);
    }

    #[test]
    fn a_description_tag_is_the_description() {
        let docs = parse_docs("*\n * @description Display mode for UI\n *   presentation.\n * @see {@link X `X`}\n ");
        assert_eq!(docs.text, vec!["Display mode for UI", "  presentation."]);
        assert!(docs.constraints.is_empty(), "{:?}", docs.constraints);
        assert_eq!(docs.see, vec!["{@link X `X`}"]);
        let docs = parse_docs("*\n * Lead.\n * @description More.\n ");
        assert_eq!(docs.text, vec!["Lead.", "", "More."]);
    }

    #[test]
    fn tags_and_lines() {
        let docs = parse_docs(
            "*\n * Hello {@link X}.\n *\n * @example Title\n * {@includeCode ./examples/A/b.json}\n * @category Common Types\n * @TJS-type number\n * @format uri\n ",
        );
        assert_eq!(docs.text, vec!["Hello {@link X}."]);
        assert_eq!(docs.examples[0].path, "./examples/A/b.json");
        assert_eq!(docs.examples[0].title, "Title");
        assert_eq!(docs.category.as_deref(), Some("Common Types"));
        assert!(docs.tjs_number);
        assert_eq!(docs.constraints, vec![("format".to_string(), "uri".to_string())]);
        assert!(parse_docs("* @internal ").internal);
    }
}
