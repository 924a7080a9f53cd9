use std::time::Instant;
fn main() {
    let dir = std::path::Path::new("../shared/mcp-spec");
    let (spec, _) = mcp_spec_codegen::spec::load_spec(dir).unwrap();
    for _ in 0..3 {
    let t = Instant::now();
    let reg = mcp_spec_codegen::registry::build(&spec);
    let notes = reg.look_ahead_notes(&spec);
    let t_reg = t.elapsed();
    let t = Instant::now();
    let data = mcp_spec_codegen::emit::registry::registry_data(&reg);
    let f = syn::parse2::<syn::File>(data).unwrap();
    let n = prettyplease::unparse(&f).len();
    let t_regfmt = t.elapsed();
    let t = Instant::now();
    let _ = mcp_spec_codegen::emit::emit_crate(&spec, &reg, &notes).unwrap();
    let t_crate = t.elapsed();
    let t = Instant::now();
    for r in &spec.revisions { let _ = mcp_spec_codegen::emit::emit_module(r, notes.get(&r.module).unwrap_or(&Default::default())).unwrap(); }
    let t_seq = t.elapsed();
    eprintln!("registry build {t_reg:?}, registry format {t_regfmt:?} ({n} bytes), emit_crate {t_crate:?}, revisions sequential {t_seq:?}");
    }
}
