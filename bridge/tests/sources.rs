//! The bridge's own sources, read as Rust: no method name typed by hand (every
//! one comes from the generated `Request`/`Notification` impls, through
//! `mcp_era_bridge::method`), outside `#[cfg(test)]` code.

use std::path::Path;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

/// Every method name any revision has (the generated `METHODS` tables).
fn method_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
        .iter()
        .flat_map(|r| mcp_spec_types::methods(r).unwrap_or_else(|| panic!("no methods for {r}")))
        .map(|m| m.method)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The string literals among `tokens`, inside groups and macros' arguments too.
fn string_literals(tokens: TokenStream, out: &mut Vec<String>) {
    for t in tokens {
        match t {
            TokenTree::Group(g) => string_literals(g.stream(), out),
            TokenTree::Literal(lit) => {
                if let Ok(s) = syn::parse2::<syn::LitStr>(TokenTree::Literal(lit).into()) {
                    out.push(s.value());
                }
            }
            _ => {}
        }
    }
}

/// Whether an item is compiled only for tests (`#[cfg(test)]`).
fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.meta.to_token_stream().to_string().replace(' ', "") == "cfg(test)")
}

/// The string literals of a file's items, leaving out test-only ones (and
/// test-only modules inside).
fn literals_outside_tests(items: &[syn::Item], out: &mut Vec<String>) {
    for item in items {
        match item {
            syn::Item::Mod(m) if test_only(&m.attrs) => {}
            syn::Item::Mod(syn::ItemMod { content: Some((_, inner)), .. }) => literals_outside_tests(inner, out),
            syn::Item::Fn(f) if test_only(&f.attrs) => {}
            other => string_literals(other.to_token_stream(), out),
        }
    }
}

#[test]
fn no_method_name_is_typed_by_hand_outside_tests() {
    let methods = method_names();
    assert!(methods.len() >= 30 && methods.contains(&"tools/call"), "{methods:?}");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut folders = vec![src];
    while let Some(folder) = folders.pop() {
        for path in std::fs::read_dir(&folder).unwrap().flatten().map(|e| e.path()) {
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    let (mut found, mut literals) = (Vec::new(), 0);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut strings = Vec::new();
        literals_outside_tests(&parsed.items, &mut strings);
        literals += strings.len();
        for s in strings.iter().filter(|s| methods.contains(&s.as_str())) {
            found.push(format!("{}: {s:?}", file.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(files.len() >= 12 && literals > 100, "{} files, {literals} string literals read", files.len());
    assert!(found.is_empty(), "method names typed by hand (use mcp_era_bridge::method):\n{}", found.join("\n"));
}

/// The check finds what it looks for: a planted name in code, in a macro's
/// arguments and in a nested module counts; in a test module or a comment, not.
#[test]
fn a_planted_method_name_is_found() {
    let text = r#"
        fn f() -> bool { m == "tools/list" }
        fn g() -> serde_json::Value { json!({"method": "notifications/cancelled"}) }
        mod inner { const X: &str = "ping"; }
        // "tools/call" in a comment
        #[cfg(test)]
        mod tests { const Y: &str = "initialize"; }
    "#;
    let mut strings = Vec::new();
    literals_outside_tests(&syn::parse_file(text).unwrap().items, &mut strings);
    let methods = method_names();
    let found: Vec<&String> = strings.iter().filter(|s| methods.contains(&s.as_str())).collect();
    assert_eq!(found, ["tools/list", "notifications/cancelled", "ping"]);
}
