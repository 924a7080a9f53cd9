//! Any text as a schema.ts: the generator must end in code or diagnostics,
//! never a panic (libFuzzer reports one as a crash).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = mcp_spec_codegen::generate_module(std::path::Path::new("fuzz/schema.ts"), text);
    }
});
