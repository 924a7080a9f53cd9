//! The protocol half of `mcp-spec-types`' runtime: what its crate-level API
//! calls, beside `mcp-spec-runtime`, which its types call to read and write
//! themselves.
//!
//! The two are apart so that they build side by side: this crate depends on
//! neither the other nor the generated code, and the types crate, which needs
//! both, starts when the longer of the two is checked (see BENCHMARKS.md,
//! Compile time). Nothing here knows a type of the schema: it works on any
//! serde type, on JSON values, and on the tables the generated crate writes.
//!
//! # Its surface
//!
//! The root holds what users call, and the types crate re-exports each of them
//! at its own root: reading with the path of what failed ([`from_str`],
//! [`reread`], [`ReadError`]), the method traits ([`Request`], [`Notification`],
//! [`InputRequest`], [`HasResponse`], [`MethodInfo`], [`MethodKind`]), the error
//! of conversions between revisions ([`ConvertError`]), and the tables for tests
//! and tools ([`TypeEntry`], [`Conversion`], [`ChooseMember`], [`ChooseRead`]);
//! then the module `http` (feature `http`). What the generated code calls
//! besides (the `conversions!` and `type_table!` macros, the registry's and
//! version negotiation's lookups, which the types crate documents as its
//! `registry` and `negotiate` modules) is in the hidden module `__private`, which
//! the generated crate names `rt` together with the runtime's: it is not part of
//! the semver promise, as serde's `__private` is not.
//!
//! # Its modules, each using only those above it
//!
//! - `read`: [`from_str`] with the JSON path of what did not read;
//! - `convert`: a value of one revision's type as another's of the same name
//!   ([`ConvertError`], the `conversions!` macro);
//! - `table`: a module's `SCHEMA_TYPES` (the `type_table!` macro);
//! - `protocol`: the [`Request`], [`Notification`] and [`InputRequest`] traits;
//! - `registry`, `negotiate`: the lifecycle registry's types and lookups, and
//!   the version rule over it (the data is the generated crate's);
//! - `http` (feature `http`): the header rules of the Streamable HTTP transport.
//!
//! A test of the suite (`runtime_crates`) fails when a module uses one below
//! it, or when this crate comes to depend on `mcp-spec-runtime`.

#![forbid(unsafe_code)]

mod convert;
#[cfg(feature = "http")]
pub mod http;
#[doc(hidden)]
pub mod negotiate;
mod protocol;
mod read;
#[doc(hidden)]
pub mod registry;
mod table;

// What users call: the types crate re-exports these at its root.
pub use convert::ConvertError;
pub use protocol::{HasResponse, InputRequest, MethodInfo, MethodKind, Notification, Request};
pub use read::{ReadError, from_str, reread};
// For tests and tools: the types crate's `schema_types` and `convert::conversions` tables.
pub use convert::Conversion;
pub use table::{ChooseMember, ChooseRead, TypeEntry};

/// What the generated code calls, and nothing a user should: the macros and
/// the functions and traits they expand to. The generated crate names this
/// module and the runtime's `__private` together `rt`. Not covered by semver, as
/// serde's `__private` is not.
#[doc(hidden)]
pub mod __private {
    pub use crate::convert::{Conversion, ConvertError, convert, convert_lossless, convert_step, convert_text};
    #[cfg(feature = "http")]
    pub use crate::http;
    pub use crate::protocol::{HasResponse, InputRequest, MethodInfo, MethodKind, Notification, Request};
    pub use crate::read::{ReadError, from_str, reread};
    pub use crate::table::{ChooseMember, ChooseRead, TypeEntry, read, roundtrip};
    pub use crate::{negotiate, registry};

    pub use crate::__mcp_conversions as conversions;
    pub use crate::__mcp_type_table as type_table;
}
