//! Formatting: tokens → prettyplease → text, with each doc placeholder
//! replaced by its `///` lines, and the check that text laid out by hand parses.

use proc_macro2::TokenStream;

use super::cx::{DOC_PLACEHOLDER, DocTexts};
use crate::diag::{Diagnostic, Diagnostics};

/// Rust laid out by hand (a macro call, builders) must still be Rust: an internal
/// error otherwise.
pub(super) fn check_laid_out(text: &str, path: &str, diags: &mut Diagnostics) {
    if let Err(e) = syn::parse_str::<syn::File>(text) {
        diags.push(
            Diagnostic::error(format!("internal error: generated code laid out by hand in {path} does not parse: {e}"))
                .note(text.lines().next().unwrap_or_default().to_string())
                .hint("this is a bug in mcp-spec-codegen; please report it with the schema that caused it"),
        );
    }
}

/// Formats tokens as a file; tokens that do not parse are an internal error
/// reported as a diagnostic (the generator never panics on a schema).
pub fn format_file(tokens: &TokenStream, header: &str, path: &str, diags: &mut Diagnostics) -> String {
    format_file_with(tokens, header, path, &DocTexts::default(), diags)
}

/// [`format_file`] for tokens whose doc placeholders' texts are in `docs`.
pub fn format_file_with(
    tokens: &TokenStream,
    header: &str,
    path: &str,
    docs: &DocTexts,
    diags: &mut Diagnostics,
) -> String {
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => {
            let (text, unresolved) = expand_docs(&prettyplease::unparse(&file), docs);
            if unresolved > 0 {
                diags.push(
                    Diagnostic::error(format!("internal error: a doc placeholder in {path} has no text in its store"))
                        .hint("this is a bug in mcp-spec-codegen; please report it with the schema that caused it"),
                );
            }
            format!("{header}{text}")
        }
        Err(e) => {
            diags.push(
                Diagnostic::error(format!("internal error: generated {path} does not parse: {e}"))
                    .hint("this is a bug in mcp-spec-codegen; please report it with the schema that caused it"),
            );
            String::new()
        }
    }
}

/// Writes the doc text of each placeholder [`DocTexts::attrs`] made as `///`
/// lines at the placeholder's indentation, and turns the `/** ... */` blocks
/// prettyplease prints for other multi-line `#[doc]`s into `///` lines the same
/// way. Returns the text and how many placeholders had no text in `docs` (left
/// as they are: a bug to report). prettyplease writes such a block only
/// when the text has no `*/`, starts it on a line of its own and ends it at the
/// first `*/`; its continuation lines are not indented.
pub fn expand_docs(text: &str, docs: &DocTexts) -> (String, usize) {
    let mut unresolved = 0;
    let mut out = String::with_capacity(text.len() * 2);
    let push_doc_line = |out: &mut String, indent: &str, content: &str| {
        out.push_str(indent);
        out.push_str("///");
        out.push_str(content);
        out.push('\n');
    };
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        if let Some(id) = body.strip_prefix("///").and_then(|b| b.trim_end().strip_prefix(DOC_PLACEHOLDER)) {
            let written = docs.with_text(id.parse().unwrap_or(0), |text| {
                for doc in text?.split('\n') {
                    push_doc_line(&mut out, indent, doc);
                }
                Some(())
            });
            if written.is_none() {
                unresolved += 1;
                out.push_str(line);
            }
            continue;
        }
        let Some(first) = body.strip_prefix("/**") else {
            out.push_str(line);
            continue;
        };
        let mut part = first.trim_end_matches('\n');
        loop {
            let (content, done) = match part.strip_suffix("*/") {
                Some(c) => (c, true),
                None => (part, false),
            };
            push_doc_line(&mut out, indent, content);
            if done {
                break;
            }
            match lines.next() {
                Some(next) => part = next.trim_end_matches('\n'),
                None => break,
            }
        }
    }
    (out, unresolved)
}

/// Marks a Rust file to be left as written by `cargo fmt`: the mark goes after
/// the file's leading `//` comments, first of its inner attributes. Each file
/// says it for itself because the crate root's skip does not reach out-of-line
/// modules, and `rustfmt.toml`'s `ignore` is unstable.
pub(super) fn mark_unformatted(text: &mut String) {
    let head: usize = text
        .lines()
        .take_while(|l| (l.starts_with("//") && !l.starts_with("//!")) || l.is_empty())
        .map(|l| l.len() + 1)
        .sum();
    text.insert_str(head.min(text.len()), "#![cfg_attr(rustfmt, rustfmt::skip)]\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn doc_text_becomes_line_comments_exactly_as_one_attribute_per_line_would() {
        let lines: Vec<String> =
            ["First.", "", "  indented `code`", "trailing spaces  ", "   "].map(String::from).to_vec();
        let docs = DocTexts::default();
        let one = docs.attrs(&lines);
        let per_line = lines.iter().map(|l| {
            let t = if l.is_empty() { String::new() } else { format!(" {l}") };
            quote!(#[doc = #t])
        });
        let wrap = |docs: TokenStream| quote! { #docs pub struct A { #docs pub x: u8 } };
        let mut d = Diagnostics::default();
        let combined = format_file_with(&wrap(one), "", "a.rs", &docs, &mut d);
        let separate = format_file(&wrap(quote!(#(#per_line)*)), "", "a.rs", &mut d);
        assert!(!d.has_errors());
        assert_eq!(combined, separate);
        assert!(combined.contains("    ///   indented `code`\n    /// trailing spaces\n    ///\n"), "{combined}");
        // Text that would end a block comment is a line like any other.
        let tricky = docs.attrs(&["a */ b".to_string(), "c".to_string()]);
        let out = format_file_with(&quote! { #tricky pub struct B; }, "", "b.rs", &docs, &mut d);
        assert_eq!(out, "/// a */ b\n/// c\npub struct B;\n");
        assert!(!d.has_errors());
        // A placeholder formatted without its store is an error, not a silent comment.
        let gone = docs.attrs(&["gone".to_string()]);
        format_file(&quote! { #gone pub struct C; }, "", "c.rs", &mut d);
        assert!(d.has_errors());
    }
}
