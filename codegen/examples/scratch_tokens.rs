use proc_macro2::{TokenStream, TokenTree};
fn count(ts: TokenStream) -> (usize, usize) { // (tokens, doc literal bytes)
    let mut n = 0; let mut lit = 0;
    for t in ts { match t { TokenTree::Group(g) => { let (a, b) = count(g.stream()); n += 1 + a; lit += b; } TokenTree::Literal(l) => { n += 1; lit += l.to_string().len(); } _ => n += 1 } }
    (n, lit)
}
fn main() {
    let (spec, _) = mcp_spec_codegen::spec::load_spec(std::path::Path::new("../shared/mcp-spec")).unwrap();
    let rev = spec.revision("2026-07-28").unwrap();
    let notes = Default::default();
    let cx = mcp_spec_codegen::emit::items::Cx { rev, notes: &notes };
    let mut by: std::collections::BTreeMap<&str, (usize, usize, usize)> = Default::default();
    for item in rev.items.values() {
        let (n, lit) = count(mcp_spec_codegen::emit::items::emit_item(item, &cx));
        let e = by.entry(item.kind.describe()).or_default(); e.0 += 1; e.1 += n; e.2 += lit;
    }
    let (n, lit) = count(mcp_spec_codegen::emit::revision_module(rev, &notes));
    println!("module total: {n} tokens, {lit} literal bytes");
    for (k, (c, n, l)) in by { println!("{k:10} {c:4} items {n:7} tokens {l:8} literal bytes"); }
}
