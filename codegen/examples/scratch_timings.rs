use std::time::Instant;
fn main() {
    let dir = std::path::Path::new("../shared/mcp-spec");
    let t = Instant::now();
    let (spec, _) = mcp_spec_codegen::spec::load_spec(dir).unwrap();
    let t1 = t.elapsed();
    // load without checks
    let t = Instant::now();
    for r in &spec.revisions { let _ = mcp_spec_codegen::check::check_unions(r); }
    let tc = t.elapsed();
    let t = Instant::now();
    let reg = mcp_spec_codegen::registry::build(&spec);
    let notes = reg.look_ahead_notes(&spec);
    let t2 = t.elapsed();
    let t = Instant::now();
    let mut toks = Vec::new();
    for r in &spec.revisions { toks.push(mcp_spec_codegen::emit::revision_module(r, notes.get(&r.module).unwrap_or(&Default::default()))); }
    let t3 = t.elapsed();
    let t = Instant::now();
    let mut files = Vec::new();
    for tk in &toks { files.push(syn::parse2::<syn::File>(tk.clone()).unwrap()); }
    let t4 = t.elapsed();
    let t = Instant::now();
    let mut n = 0; for f in &files { n += prettyplease::unparse(f).len(); }
    let t5 = t.elapsed();
    let t = Instant::now();
    let _ = mcp_spec_codegen::generate_from(&spec).unwrap();
    let t6 = t.elapsed();
    eprintln!("load {t1:?} (checks alone {tc:?}) registry {t2:?} tokens {t3:?} syn {t4:?} pretty {t5:?} ({n} bytes); generate_from {t6:?}");
}
