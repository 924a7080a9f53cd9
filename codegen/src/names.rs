//! Turning schema names into Rust names: snake_case fields, PascalCase variants,
//! raw identifiers for keywords.

/// Words split at case humps and at every non-alphanumeric character:
/// `io.modelcontextprotocol/protocolVersion` → io, modelcontextprotocol, protocol, Version.
pub fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = if i > 0 { chars[i - 1] } else { ' ' };
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        let hump = c.is_uppercase()
            && !cur.is_empty()
            && (prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next.is_lowercase()));
        if hump {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `protocolVersion` → `protocol_version`, `_meta` → `meta`, `$schema` → `schema`.
/// A leading digit gets an `n` in front; never empty.
pub fn snake_case(s: &str) -> String {
    let w = words(s);
    let mut out = w.iter().map(|w| w.to_lowercase()).collect::<Vec<_>>().join("_");
    if out.is_empty() {
        out = "field".into();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'n');
    }
    out
}

/// `thisServer` → `ThisServer`, `date-time` → `DateTime`, `2.0` → `V2_0`.
pub fn pascal_case(s: &str) -> String {
    let w = words(s);
    let mut out = String::new();
    for (i, word) in w.iter().enumerate() {
        // Keep digits apart from digits: `2.0` → `2_0`, not `20`.
        if i > 0 && out.ends_with(|c: char| c.is_ascii_digit()) && word.starts_with(|c: char| c.is_ascii_digit()) {
            out.push('_');
        }
        let mut cs = word.chars();
        if let Some(f) = cs.next() {
            out.extend(f.to_uppercase());
            out.push_str(&cs.as_str().to_lowercase_if_all_caps());
        }
    }
    if out.is_empty() {
        out = "Empty".into();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    // `self` would become `Self`, the one PascalCase keyword.
    if is_keyword(&out) {
        out.push('_');
    }
    out
}

trait LowerIfAllCaps {
    fn to_lowercase_if_all_caps(&self) -> String;
}
impl LowerIfAllCaps for str {
    /// `URL` → `Url` but `Server` stays; keeps existing humps inside a word.
    fn to_lowercase_if_all_caps(&self) -> String {
        if self.chars().all(|c| !c.is_lowercase()) { self.to_lowercase() } else { self.to_string() }
    }
}

/// True for names that need `r#` (or cannot be raw at all, see [`field_ident`]).
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "Self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

/// The Rust field name for a snake_case name: keywords become raw identifiers,
/// except those that cannot be raw (`self`, `super`, `crate`), which get a `_`.
pub fn field_ident(snake: &str) -> String {
    match snake {
        "self" | "super" | "crate" | "Self" => format!("{snake}_"),
        s if is_keyword(s) => format!("r#{s}"),
        s => s.to_string(),
    }
}

/// The Levenshtein distance between two names, in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Up to `n` of `candidates`, nearest to `name` first (edit distance, case
/// aside; then by name): what a "did you mean" lists.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>, n: usize) -> Vec<&'a str> {
    let lower = name.to_lowercase();
    let mut ranked: Vec<(usize, &str)> =
        candidates.into_iter().map(|c| (edit_distance(&lower, &c.to_lowercase()), c)).collect();
    ranked.sort();
    ranked.dedup();
    ranked.into_iter().take(n).map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake() {
        assert_eq!(snake_case("_meta"), "meta");
        assert_eq!(snake_case("isError"), "is_error");
        assert_eq!(snake_case("io.modelcontextprotocol/protocolVersion"), "io_modelcontextprotocol_protocol_version");
        assert_eq!(snake_case("$schema"), "schema");
        assert_eq!(snake_case("mimeType"), "mime_type");
        assert_eq!(snake_case("URL"), "url");
        assert_eq!(snake_case("listChanged"), "list_changed");
    }

    #[test]
    fn pascal() {
        assert_eq!(pascal_case("thisServer"), "ThisServer");
        assert_eq!(pascal_case("date-time"), "DateTime");
        assert_eq!(pascal_case("input_required"), "InputRequired");
        assert_eq!(pascal_case("2.0"), "V2_0");
        assert_eq!(pascal_case("sampling"), "Sampling");
        assert_eq!(pascal_case("endTurn"), "EndTurn");
        assert_eq!(pascal_case(""), "Empty");
        assert_eq!(pascal_case("self"), "Self_");
    }
}
