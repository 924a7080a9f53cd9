//! Support code for the generated types, in the crate so that the types need no
//! proc-macro: the declarative macros each generated type calls (`object!`,
//! `union!`, `string_enum!`), the reading of keys, fixed values and numbers, the
//! kept unknown members and open objects ([`Extra`]), the union rule's first
//! look, and the reading of a union of objects from its members (`pairs`).
//! Public for the generated modules only.
//!
//! # One worked expansion
//!
//! For the schema's
//!
//! ```text
//! interface ProgressNotification { jsonrpc: "2.0"; method: "notifications/progress"; params: ProgressNotificationParams }
//! ```
//!
//! the generator writes a plain struct (`params` and `extra`) and
//!
//! ```text
//! crate::rt::object! {
//!     ProgressNotification {
//!         0 "jsonrpc" fixed JSONRPC: &str = "2.0",
//!         1 "method" fixed METHOD: &str = "notifications/progress",
//!         2 "params": required params: ProgressNotificationParams,
//!     }
//! }
//! ```
//!
//! which expands to the consts `ProgressNotification::JSONRPC` and `::METHOD`; a
//! `Serialize` that writes `jsonrpc`, `method` and `params` in that order, then the
//! kept members (through [`Writer`]); a `Deserialize` through the shared
//! [`ObjectVisitor`] and the type's [`ReadObject`] body, which reads the keys in
//! one pass (a fixed member's value is checked where it stands, so the error names
//! it; a repeated key is an error; an unknown key is kept as its JSON text), then
//! fails on a missing required member; and the [`Shape`] a union asks of its
//! members. A member line is `N "wire": KIND field: Type`, where N is the member's
//! position in the list (the `ReadObject` body matches on it: integer arms build
//! faster than string ones) and KIND is `required`, `optional` (the field is an `Option` of the type, left out
//! when `None`) or `defaulted` (with `= value`, read when the member is absent);
//! `as float` (or `nullable_float`, `float_seq`) writes a whole `f64` without a
//! fraction, `as int` (or `nullable_int`) reads any JSON number with no fractional
//! part into an `i64`. `object! { Name (extra: other) { .. } }` names the field
//! that keeps unknown members when `extra` is taken.

mod choose;
mod enums;
mod extra;
mod fixed;
#[cfg(feature = "unknown-members-log")]
pub mod log;
mod number;
mod object;
mod pairs;
mod read;
mod table;
mod union;

pub use enums::UnknownValue;

pub use choose::*;
pub use extra::{Extra, ExtraIter, Member};
pub use fixed::{Fixed, read_fixed};
pub use number::{Float, FloatSeq, Int, NullableFloat, NullableInt};
pub use object::{
    Key, ObjectVisitor, ReadObject, Shape, Writer, member_index, missing, next_member, read_extra, read_field,
    read_field_as, read_unnamed_of_notification,
};
pub use pairs::{FromPairs, PairsVisitor};
pub use read::{ReadError, from_str, reread};
pub use table::{ChooseMember, ChooseRead, TypeEntry, read, roundtrip};
pub use union::{
    Input, MemberTable, Reader, Scanned, TagRule, UnionOf, number_or_skip, position, raw_of, read_as, read_plain,
    scan_fast, shape_from_pairs, shape_from_text, skip_seq, tag_from_pairs, tag_from_text, tag_kind_error, to_raw,
    union_error, union_error_of,
};

pub use crate::__mcp_object as object;
pub use crate::__mcp_string_enum as string_enum;
pub use crate::__mcp_type_table as type_table;
pub use crate::__mcp_union as union;
