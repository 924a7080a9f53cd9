//! The integration tests of mcp-spec, one binary (the golden fixtures, which are
//! compiled as modules naming `crate::rt`, are the other: `golden.rs`). Each
//! module is one concern; what they share is the `mcp_spec_tests` library.

mod apps;
mod bridge_balance;
mod bridge_http_peers;
mod bridge_matrix;
mod bridge_oauth;
mod bridge_peers;
mod building;
mod client_peers;
mod codegen;
mod conversions;
mod diagnostics;
mod diff;
mod examples;
mod extensions;
mod fixtures;
mod hostile;
mod html;
mod http_rules;
mod meaning;
mod methods;
mod mutants;
mod negative;
mod oracle;
mod oracle_methods;
mod registry;
mod runtime_crates;
mod schema_json;
mod server_peers;
mod unions;
