//! mcp-spec-codegen: reads the Model Context Protocol's normative `schema.ts` files,
//! lowers them into a model of our own, and emits versioned serde types from it.

pub mod diag;
pub mod parse;
pub mod syntax;
