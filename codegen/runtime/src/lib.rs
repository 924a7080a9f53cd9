//! The runtime of `mcp-spec-types`: the code its generated types call to read
//! and write themselves, written and tested here once, as prost is to
//! prost-build. What its crate-level API calls (reading with paths, the method
//! traits, conversions between revisions, the registry, version negotiation,
//! the HTTP header rules) is the other half, `mcp-spec-protocol`: the two do not
//! depend on each other, so they build side by side.
//!
//! # Its surface
//!
//! The root holds what users call, and the types crate re-exports each of them
//! at its own root: the members a type does not name ([`Extra`],
//! [`ExtraIter`]) and the error of a closed enum's unknown value
//! ([`UnknownValue`]). Everything the generated code calls besides (macros,
//! visitors, the union rule) is in the hidden module `__private`, which the
//! generated crate names `rt` together with `mcp-spec-protocol`'s: it is not
//! part of the semver promise, as serde's `__private` is not.
//!
//! It holds the declarative macros each generated type calls (`object!`,
//! `union!`, `string_enum!`, so the types need no proc-macro), the reading of
//! keys, fixed values and numbers, the kept unknown members and open objects
//! ([`Extra`]), the union rule (`choose`, which the generator compiles too, so
//! both decide alike) and the reading of a union's chosen member. There is one
//! JSON reader, serde_json's: this crate adds only what serde cannot express
//! (members kept as their raw text, unions decided by meaning).
//!
//! # Its modules, each using only those above it
//!
//! - `choose`: the union rule, plain Rust (no serde);
//! - `text`: the byte-level look at JSON text (string ends, value ends, depth);
//! - `de`: serde plumbing (keys, skipping, serde_json's raw-text hand-over);
//! - `number`, `fixed`, `enums`, `log`: numbers, fixed members, string enums,
//!   the unknown-members log for tests;
//! - `extra`: [`Extra`], the members a type does not name, as text;
//! - `member`: reading a union's member from its text, quietly or with its error;
//! - `pairs`: a union of objects read from its input's members one by one;
//! - `shape`: `Shape`, what a union asks of each member type;
//! - `scan`: a union's first look at its input (kind, keys, one field);
//! - `slots`: a struct's members read into a tuple of slots, the loop over its keys;
//! - `object`, `union`: the `object!` and `union!` macros and what they call.
//!
//! A test of the suite (`runtime_crates`) fails when a module uses one below it.
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
//! crate::rt::object! {   // the generated crate names this crate `rt`
//!     ProgressNotification {
//!         "jsonrpc" fixed JSONRPC: &str = "2.0",
//!         "method" fixed METHOD: &str = "notifications/progress",
//!         "params": required params: ProgressNotificationParams,
//!     }
//! }
//! ```
//!
//! which expands to the consts `ProgressNotification::JSONRPC` and `::METHOD`; a
//! `Serialize` that writes `jsonrpc`, `method` and `params` in that order, then the
//! kept members (through `Writer`); a `Deserialize` through the shared
//! `ObjectVisitor`, which reads the keys in one pass into the struct's slots
//! (its `ReadObject::Slots`, here `(FixedSlot, FixedSlot, Required<ProgressNotificationParams>)`:
//! a fixed member's value is checked where it stands, so the error names it; a
//! repeated key is an error; an unknown key is kept as its JSON text), fails on
//! the first required member absent, and hands the values to the struct's
//! `ReadObject::build`; and the `Shape` a union asks of its members. A member
//! line is `"wire": KIND field: Type`, where KIND is `required`, `optional` (the field is an `Option` of the type, left out
//! when `None`) or `defaulted` (with `= value`, read when the member is absent);
//! `as float` (or `nullable_float`, `float_seq`) writes a whole `f64` without a
//! fraction, `as int` (or `nullable_int`) reads any JSON number with no fractional
//! part into an `i64`. A struct of more than `SLOTS_PER_GROUP` (8) members has
//! its lines in groups of that many, each in `[` `]`. `object! { Name (extra: other) { .. } }` names the field
//! that keeps unknown members when `extra` is taken.

#![forbid(unsafe_code)]

#[doc(hidden)]
pub mod choose;
mod de;
mod enums;
mod extra;
mod fixed;
#[cfg(feature = "unknown-members-log")]
pub mod log;
mod member;
mod number;
mod object;
mod pairs;
mod scan;
mod shape;
mod slots;
mod text;
mod union;

// What users call: the types crate re-exports these at its root.
pub use enums::UnknownValue;
pub use extra::{Extra, ExtraIter};

/// What the generated code calls, and nothing a user should: the macros and
/// the functions and traits they expand to. The generated crate names this
/// module `rt`. Not covered by semver, as serde's `__private` is not.
#[doc(hidden)]
pub mod __private {
    pub use crate::choose::{self, *};
    pub use crate::de::{Key, number_or_skip, raw_of, skip_seq};
    pub use crate::enums::UnknownValue;
    pub use crate::extra::{Extra, ExtraIter, Member};
    pub use crate::fixed::{Fixed, FixedOf, read_fixed};
    #[cfg(feature = "unknown-members-log")]
    pub use crate::log;
    pub use crate::number::{Float, FloatSeq, Int, NullableFloat, NullableInt};
    pub use crate::object::{
        ObjectVisitor, Put, PutAs, PutFixed, PutSome, PutSomeAs, ReadObject, WriteMember, Writer, deserialize_object,
        write_object,
    };
    pub use crate::pairs::{FromPairs, PairsVisitor};
    pub use crate::scan::{Scanned, scan_fast};
    pub use crate::shape::{Shape, declares, requirement, union_requirement};
    pub use crate::slots::{
        FixedSlot, Groups, MAX_OBJECT_MEMBERS, Optional, Required, SLOTS_PER_GROUP, Slot, SlotValue, SlotValues, Slots,
        member_index, missing, next_member, read_extra, read_members, read_unnamed_of_notification,
    };
    pub use crate::union::{
        Input, MemberTable, Reader, TagRule, UnionOf, position, read_as, read_plain, shape_from_pairs, shape_from_text,
        tag_from_pairs, tag_from_text, tag_kind_error, to_raw, union_error, union_error_of,
    };

    pub use crate::__mcp_object as object;
    pub use crate::__mcp_string_enum as string_enum;
    pub use crate::__mcp_union as union;
}
