//! Conversions between adjacent revision modules → `src/convert.rs` and one
//! file per pair (`src/convert/v2025_11_25_and_v2026_07_28.rs`).
//!
//! Decided here, from the model, per type name the two revisions both declare
//! as a struct, union or enum, and do not share (a shared item is one Rust type
//! in both: nothing to convert):
//!
//! - `From` one way when every value of the one revision's type is a valid value
//!   of the other's, as the diff's wire verdicts judge it ([`Compat`]); the wire
//!   oracle in `tests/oracle.rs` checks those judgments against the types;
//! - `TryFrom` otherwise, whose error names the type, the revisions and where
//!   the value does not fit.
//!
//! Only adjacent revisions with modules of their own get conversions: further
//! apart, a type may be gone or renamed in between, and a chain of adjacent
//! conversions says which step a value does not survive. A type renamed between
//! two revisions (`JSONRPCError` → `JSONRPCErrorResponse`) gets none: the
//! conversion goes by name.

use std::fmt::Write;

use proc_macro2::TokenStream;
use quote::quote;

use super::cx::ident;
use super::format::format_file;
use super::header::{COMMAND, lib_header};
use super::items::inner_doc_attrs;
use super::krate::Files;
use super::share::SharedItems;
use crate::diag::Diagnostics;
use crate::diff::compat::Compat;
use crate::model::{ItemKind, Revision, Spec, Type};

/// The conversions between two adjacent revision modules.
pub struct Pair<'a> {
    pub old: &'a Revision,
    pub new: &'a Revision,
    /// Old to new with `From`, and with `TryFrom`.
    pub up: Vec<String>,
    pub up_try: Vec<String>,
    /// New to old with `From`, and with `TryFrom`.
    pub down: Vec<String>,
    pub down_try: Vec<String>,
}

impl Pair<'_> {
    fn module(&self) -> String {
        format!("{}_and_{}", self.old.module, self.new.module)
    }
}

/// Whether an item is a type of its own in the generated module (not an alias
/// or a const).
fn is_type(rev: &Revision, name: &str) -> bool {
    matches!(rev.item(name).map(|i| &i.kind), Some(ItemKind::Struct(_) | ItemKind::Union(_) | ItemKind::Enum(_)))
}

/// The conversions between each two adjacent `modules` (the revisions with
/// modules of their own, oldest first), leaving out the items they share.
pub fn pairs<'a>(modules: &[&'a Revision], shared: &SharedItems) -> Vec<Pair<'a>> {
    let none = Default::default();
    let mut pairs: Vec<Pair<'a>> = modules
        .windows(2)
        .map(|w| Pair {
            old: w[0],
            new: w[1],
            up: Vec::new(),
            up_try: Vec::new(),
            down: Vec::new(),
            down_try: Vec::new(),
        })
        .collect();
    // Every type two adjacent revisions both have and do not share, judged each
    // way: one job per type, on every core (a pair's types vary by a hundred).
    let mut jobs: Vec<(usize, &String)> = Vec::new();
    for (at, pair) in pairs.iter().enumerate() {
        let (old, new) = (pair.old, pair.new);
        let old_shares = shared.reexports.get(&old.module).unwrap_or(&none);
        let new_shares = shared.reexports.get(&new.module).unwrap_or(&none);
        for name in old.items.keys() {
            if !is_type(old, name) || !is_type(new, name) {
                continue;
            }
            if old_shares.get(name).is_some_and(|s| new_shares.get(name) == Some(s)) {
                continue;
            }
            jobs.push((at, name));
        }
    }
    let judged = crate::par::map(&jobs, |&(at, name)| {
        let (old, new) = (pairs[at].old, pairs[at].new);
        let ty = Type::Named(name.clone());
        // A fresh judgment each: a recursive type's assumptions hold within one.
        (Compat::new(new, old).accepts(&ty, &ty), Compat::new(old, new).accepts(&ty, &ty))
    });
    for (&(at, name), (up, down)) in jobs.iter().zip(judged) {
        let pair = &mut pairs[at];
        (if up { &mut pair.up } else { &mut pair.up_try }).push(name.clone());
        (if down { &mut pair.down } else { &mut pair.down_try }).push(name.clone());
    }
    pairs
}

/// `src/convert.rs` and the file of each pair.
pub fn convert_files(spec: &Spec, pairs: &[Pair<'_>], files: &mut Files, diags: &mut Diagnostics) {
    let mut docs: Vec<String> = [
        "Conversions between the types of adjacent revisions: `From` where every value of the one",
        "revision's type is a valid value of the other's, `TryFrom` where some may not be, its",
        "[`ConvertError`](crate::ConvertError) naming the type, the revisions and where the value does",
        "not fit. A value goes through the JSON it writes, as a peer of the other revision would read it,",
        "its unknown members kept (in `extra`). Each pair's conversions compile when both revisions'",
        "features are on.",
        "",
        "```",
        "# #[cfg(all(feature = \"v2025_11_25\", feature = \"v2026_07_28\"))] {",
        "use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};",
        "",
        "// Every 2025-11-25 `Tool` is a 2026-07-28 one...",
        "let tool = old::Tool::new(\"get_weather\", old::ToolInputSchema::new());",
        "let modern: new::Tool = tool.into();",
        "assert_eq!(modern.name, \"get_weather\");",
        "// ...but a request's params lack the `_meta` 2026-07-28 requires.",
        "let params = old::CallToolRequestParams::new(\"get_weather\");",
        "let error = new::CallToolRequestParams::try_from(params).unwrap_err();",
        "assert_eq!(error.to_string(), \"CallToolRequestParams (2025-11-25 to 2026-07-28): missing field `_meta`\");",
        "# }",
        "```",
        "",
        "Only adjacent revisions with modules of their own are converted (a revision that shares a whole",
        "module with another needs none): further apart a type may be gone or renamed in between, and",
        "a chain of adjacent conversions says which step a value does not survive. A type shared by two",
        "revisions is one Rust type in both (nothing to convert); a type renamed between them",
        "(`JSONRPCError` to `JSONRPCErrorResponse`) is not converted: conversions go by name.",
        "",
        "| revisions | `From` up | `TryFrom` up | `From` down | `TryFrom` down |",
        "|---|---|---|---|---|",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for p in pairs {
        docs.push(format!(
            // No links: a module is there only with its feature on.
            "| `{}` to `{}` | {} | {} | {} | {} |",
            p.old.module,
            p.new.module,
            p.up.len(),
            p.up_try.len(),
            p.down.len(),
            p.down_try.len()
        ));
    }
    let docs = inner_doc_attrs(&docs);
    let mods = pairs.iter().map(|p| {
        let m = ident(&p.module());
        let (a, b) = (&p.old.module, &p.new.module);
        quote! {
            #[cfg(all(feature = #a, feature = #b))]
            mod #m;
        }
    });
    let arms = pairs.iter().map(|p| {
        let m = ident(&p.module());
        let (a, b) = (&p.old.module, &p.new.module);
        let (old, new) = (&p.old.name, &p.new.name);
        quote! {
            #[cfg(all(feature = #a, feature = #b))]
            (#old, #new) => ::std::option::Option::Some(#m::CONVERSIONS),
        }
    });
    let index: TokenStream = quote! {
        #docs

        #(#mods)*

        /// Every conversion between two adjacent revisions (by name, older first),
        /// each direction, for tests and tools: the type, whether it is a `From`,
        /// and a function that reads JSON text as the one revision's type and
        /// writes the other's, through the trait impl.
        /// Behind the `type-table` feature, as each module's `SCHEMA_TYPES` is.
        #[doc(hidden)]
        #[cfg(feature = "type-table")]
        pub fn conversions(old: &str, new: &str) -> ::std::option::Option<&'static [crate::rt::Conversion]> {
            match (old, new) {
                #(#arms)*
                _ => ::std::option::Option::None,
            }
        }
    };
    files.insert("src/convert.rs".into(), format_file(&index, &lib_header(spec), "src/convert.rs", diags));
    for p in pairs {
        let path = format!("src/convert/{}.rs", p.module());
        files.insert(path.into(), pair_file(p));
    }
}

/// One pair's file: the `conversions!` call, laid out one type a line.
fn pair_file(p: &Pair<'_>) -> String {
    let mut s = format!(
        "// @generated by `{}`. Do not edit by hand.\n// Revisions: {} (sha256 {}), {} (sha256 {})\n\n",
        COMMAND, p.old.name, p.old.schema_sha256, p.new.name, p.new.schema_sha256
    );
    let _ = writeln!(
        s,
        "//! Conversions between [`{}`](crate::{}) and [`{}`](crate::{}).",
        p.old.name, p.old.module, p.new.name, p.new.module
    );
    let _ = writeln!(s, "//!");
    let _ = writeln!(
        s,
        "//! `up` converts {} to {}, `down` the other way; `_try` ones are `TryFrom`.",
        p.old.name, p.new.name
    );
    // Converting a deprecated type is not using it.
    let _ = writeln!(s, "\n#![allow(deprecated)]\n");
    if !(p.up.is_empty() && p.up_try.is_empty()) {
        let _ = writeln!(s, "use crate::{{{}, {}}};\n", p.old.module, p.new.module);
    }
    let _ = writeln!(s, "crate::rt::conversions! {{");
    let _ = writeln!(s, "    {} {:?} => {} {:?};", p.old.module, p.old.name, p.new.module, p.new.name);
    for (label, names) in [("up", &p.up), ("up_try", &p.up_try), ("down", &p.down), ("down_try", &p.down_try)] {
        if names.is_empty() {
            let _ = writeln!(s, "    {label}: [];");
            continue;
        }
        let _ = writeln!(s, "    {label}: [");
        for n in names {
            let _ = writeln!(s, "        {},", ident(n));
        }
        let _ = writeln!(s, "    ];");
    }
    s.push_str("}\n");
    any_result_conversions(p, &mut s);
    s
}

/// `TryFrom` between the two revisions' `AnyResult`s, each way: a result held
/// as a type both revisions have (the same name, once aliases are seen
/// through) converts as that type does; any other is a `ConvertError` saying
/// the other revision has no such type (a result of a method it lacks).
fn any_result_conversions(p: &Pair<'_>, s: &mut String) {
    let (old, new) = (
        super::module::complete_results(&crate::protocol::methods(p.old)),
        super::module::complete_results(&crate::protocol::methods(p.new)),
    );
    if old.is_empty() || new.is_empty() {
        return;
    }
    for (from, to, names, others) in [(p.old, p.new, &old, &new), (p.new, p.old, &new, &old)] {
        let _ = writeln!(
            s,
            "\nimpl ::std::convert::TryFrom<crate::{}::AnyResult> for crate::{}::AnyResult {{",
            from.module, to.module
        );
        let _ = writeln!(s, "    type Error = crate::ConvertError;");
        // `#[inline]`, as every conversion: compiled where used, not in this crate.
        let _ = writeln!(s, "    #[inline]");
        let _ = writeln!(
            s,
            "    fn try_from(value: crate::{}::AnyResult) -> ::std::result::Result<Self, crate::ConvertError> {{",
            from.module
        );
        let _ = writeln!(s, "        use crate::{}::AnyResult as Before;", from.module);
        let _ = writeln!(s, "        use crate::{}::AnyResult as After;", to.module);
        let _ = writeln!(s, "        ::std::result::Result::Ok(match value {{");
        for name in names {
            let v = ident(name);
            if others.contains(name) && converts(from, to, name) {
                let _ = writeln!(s, "            Before::{v}(value) => After::{v}(crate::rt::convert_step(value)?),");
            } else {
                let _ = writeln!(
                    s,
                    "            Before::{v}(_) => return ::std::result::Result::Err(crate::ConvertError::absent({name:?}, {:?}, {:?})),",
                    from.name, to.name
                );
            }
        }
        let _ = writeln!(s, "        }})\n    }}\n}}");
    }
}

/// Both revisions' `name` are the same type by name once aliases are seen
/// through, and a type of its own in each: one the pair converts, or one they
/// share (one Rust type).
fn converts(a: &Revision, b: &Revision, name: &str) -> bool {
    let named = Type::Named(name.to_string());
    match (a.canonical(&named), b.canonical(&named)) {
        (Type::Named(x), Type::Named(y)) => x == y && is_type(a, x) && is_type(b, y),
        _ => false,
    }
}
