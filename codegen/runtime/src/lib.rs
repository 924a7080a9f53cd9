//! The runtime of `mcp-spec-types`: the code its generated types call, written
//! and tested here once, as prost is to prost-build.
//!
//! # Its surface
//!
//! The root holds what users call, and the types crate re-exports each of them
//! at its own root: reading ([`from_str`], [`reread`], [`ReadError`]), the members
//! a type does not name ([`Extra`], [`ExtraIter`]), the method traits
//! ([`Request`], [`Notification`], [`InputRequest`], [`HasResponse`],
//! [`MethodInfo`], [`MethodKind`]), the errors of conversions and closed enums
//! ([`ConvertError`], [`UnknownValue`]), and the tables for tests and tools
//! ([`TypeEntry`], [`Conversion`], [`ChooseMember`], [`ChooseRead`]); then the
//! module `http` (feature `http`). Everything the generated code calls besides
//! (macros, visitors, the union rule, the registry's and version negotiation's
//! lookups, which the types crate documents as its `registry` and `negotiate`
//! modules) is in the hidden module
//! `__private`, which the generated crate names `rt`: it is not part of the
//! semver promise, as serde's `__private` is not.
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
//! - `object`, `union`: the `object!` and `union!` macros and what they call;
//! - `read`, `table`: [`from_str`] with its path, and a module's `SCHEMA_TYPES`;
//! - `convert`: a value of one revision's type as another's of the same name
//!   ([`ConvertError`], the `conversions!` macro);
//! - `protocol`: the [`Request`], [`Notification`] and [`InputRequest`] traits;
//! - `registry`, `negotiate`: the lifecycle registry's types and lookups,
//!   and the version rule over it (the data is the generated crate's);
//! - `http` (feature `http`): the header rules of the Streamable HTTP transport.
//!
//! A unit test (`layering`) fails when a module uses one below it.
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
mod convert;
mod de;
mod enums;
mod extra;
mod fixed;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "unknown-members-log")]
pub mod log;
mod member;
#[doc(hidden)]
pub mod negotiate;
mod number;
mod object;
mod pairs;
mod protocol;
mod read;
#[doc(hidden)]
pub mod registry;
mod scan;
mod shape;
mod slots;
mod table;
mod text;
mod union;

// What users call: the types crate re-exports these at its root.
pub use convert::ConvertError;
pub use enums::UnknownValue;
pub use extra::{Extra, ExtraIter};
pub use protocol::{HasResponse, InputRequest, MethodInfo, MethodKind, Notification, Request};
pub use read::{ReadError, from_str, reread};
// For tests and tools: the types crate's `schema_types` and `convert::conversions` tables.
pub use convert::Conversion;
pub use table::{ChooseMember, ChooseRead, TypeEntry};

/// What the generated code calls, and nothing a user should: the macros and
/// the functions and traits they expand to. The generated crate names this
/// module `rt`. Not covered by semver, as serde's `__private` is not.
#[doc(hidden)]
pub mod __private {
    pub use crate::choose::{self, *};
    pub use crate::convert::{Conversion, ConvertError, convert, convert_lossless, convert_step, convert_text};
    pub use crate::de::{Key, number_or_skip, raw_of, skip_seq};
    pub use crate::enums::UnknownValue;
    pub use crate::extra::{Extra, ExtraIter, Member};
    pub use crate::fixed::{Fixed, FixedOf, read_fixed};
    #[cfg(feature = "http")]
    pub use crate::http;
    #[cfg(feature = "unknown-members-log")]
    pub use crate::log;
    pub use crate::number::{Float, FloatSeq, Int, NullableFloat, NullableInt};
    pub use crate::object::{
        ObjectVisitor, Put, PutAs, PutFixed, PutSome, PutSomeAs, ReadObject, WriteMember, Writer, deserialize_object,
        write_object,
    };
    pub use crate::pairs::{FromPairs, PairsVisitor};
    pub use crate::protocol::{HasResponse, InputRequest, MethodInfo, MethodKind, Notification, Request};
    pub use crate::read::{ReadError, from_str, reread};
    pub use crate::scan::{Scanned, scan_fast};
    pub use crate::shape::{Shape, declares, requirement, union_requirement};
    pub use crate::slots::{
        FixedSlot, Groups, MAX_OBJECT_MEMBERS, Optional, Required, SLOTS_PER_GROUP, Slot, SlotValue, SlotValues, Slots,
        member_index, missing, next_member, read_extra, read_members, read_unnamed_of_notification,
    };
    pub use crate::table::{ChooseMember, ChooseRead, TypeEntry, read, roundtrip};
    pub use crate::union::{
        Input, MemberTable, Reader, TagRule, UnionOf, position, read_as, read_plain, shape_from_pairs, shape_from_text,
        tag_from_pairs, tag_from_text, tag_kind_error, to_raw, union_error, union_error_of,
    };
    pub use crate::{negotiate, registry};

    pub use crate::__mcp_conversions as conversions;
    pub use crate::__mcp_object as object;
    pub use crate::__mcp_string_enum as string_enum;
    pub use crate::__mcp_type_table as type_table;
    pub use crate::__mcp_union as union;
}

#[cfg(test)]
mod layering {
    use std::path::Path;

    /// The modules from the bottom up: each may use only those before it.
    const LAYERS: &[&str] = &[
        "choose",
        "text",
        "de",
        "number",
        "fixed",
        "enums",
        "log",
        "extra",
        "member",
        "pairs",
        "shape",
        "scan",
        "slots",
        "object",
        "union",
        "read",
        "convert",
        "table",
        "protocol",
        "registry",
        "negotiate",
        "http",
    ];

    #[test]
    fn each_module_uses_only_the_modules_below_it() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut found = Vec::new();
        let mut wrong = Vec::new();
        for entry in std::fs::read_dir(&src).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().trim_end_matches(".rs").to_string();
            if name == "lib" {
                continue;
            }
            let Some(level) = LAYERS.iter().position(|l| *l == name) else {
                panic!("src/{name}.rs is not in LAYERS: place it there, above what it uses");
            };
            found.push(name.clone());
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for (i, _) in text.match_indices("crate::") {
                // `$crate::` is the macros' path to this crate's root, not a use.
                if text[..i].ends_with('$') {
                    continue;
                }
                let used: String = text[i + 7..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if let Some(at) = LAYERS.iter().position(|l| *l == used)
                    && at >= level
                    && used != name
                {
                    wrong.push(format!("{name} uses {used}, which is not below it"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        assert_eq!(found.len(), LAYERS.len(), "a module of LAYERS has no file: {found:?}");
    }
}

#[cfg(test)]
mod surface {
    use std::path::Path;

    /// The names the root shows users: each must be documented with an example.
    /// A name added to the root fails here until it has one (and is counted).
    #[test]
    fn every_name_the_root_shows_has_an_example() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
        let root = &lib[lib.find("// What users call").unwrap()..lib.find("pub mod __private").unwrap()];
        let names: Vec<&str> = root
            .split("pub use ")
            .skip(1)
            .flat_map(|u| {
                let list = u.split(';').next().unwrap();
                let list =
                    list.split_once('{').map_or(list.rsplit("::").next().unwrap(), |(_, l)| l.trim_end_matches('}'));
                list.split(',').map(str::trim).filter(|n| !n.is_empty())
            })
            .collect();
        let files: Vec<String> =
            std::fs::read_dir(&src).unwrap().flatten().map(|e| std::fs::read_to_string(e.path()).unwrap()).collect();
        let mut without = Vec::new();
        for name in &names {
            let docs = files.iter().find_map(|text| {
                let at = ["struct", "enum", "trait", "fn", "type"].iter().find_map(|k| {
                    let decl = format!("pub {k} {name}");
                    text.match_indices(&decl)
                        .find(|(i, _)| !text[i + decl.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
                        .map(|(i, _)| i)
                })?;
                let above: Vec<&str> = text[..at]
                    .lines()
                    .rev()
                    .skip(1)
                    .map(str::trim)
                    .take_while(|l| l.starts_with("///") || l.starts_with("#["))
                    .collect();
                Some(above.join("\n"))
            });
            match docs {
                Some(d) if d.contains("/// ```") => {}
                Some(_) => without.push(format!("{name}: no example in its docs")),
                None => without.push(format!("{name}: no declaration found")),
            }
        }
        assert!(without.is_empty(), "{}", without.join("\n"));
        assert_eq!(names.len(), 17, "the root's names changed: {names:?}");
        // The modules the root shows, besides the hidden ones.
        let shown: Vec<&str> = lib
            .split("\npub mod ")
            .skip(1)
            .filter(|m| !lib[..lib.find(&format!("pub mod {m}")).unwrap()].trim_end().ends_with("#[doc(hidden)]"))
            .map(|m| m.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap())
            .collect();
        assert_eq!(shown, ["http", "log"], "modules the root shows");
    }
}
