//! Integration tests of mcp-spec; see the `[[test]]` targets in Cargo.toml.
