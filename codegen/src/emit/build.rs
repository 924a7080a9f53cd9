//! What builds a value, emitted beside each type: `new(required members…)`,
//! `Default` where nothing is required, `with_<member>` setters for optional
//! members, `From` each member type into its union, and `From` a struct into the
//! base it extends. All from the model's member roles; nothing per type.
//! Constructor arguments are the required members in schema order, except that a
//! JSON-RPC `id` comes first.
//!
//! A constructor names no deprecated member it does not have to (its body is in
//! the generated module, which allows them), so calling it raises no warning; a
//! member a union's selector picks by value starts at that value
//! (`InputRequiredResult::new()` has `resultType: "input_required"`, never the
//! base's `"complete"`, which would read back as a complete result).

use super::cx::{Cx, deprecated_text, literal_text};
use crate::model::{Field, Item, ItemKind, LiteralValue, Role, Struct, Type, Union};
use crate::rust::{RustType, member_name, new_params, new_takes};

/// How a value is passed to a constructor or setter: `impl Into<T>` where that
/// reads naturally (strings, open objects from a `serde_json::Map` or an
/// `IndexMap`, and the schema's types), else `T` itself.
fn param(cx: &Cx<'_>, t: &Type) -> (String, bool) {
    let ty = cx.types().of(t).to_string();
    let into = match cx.rev.canonical(t) {
        Type::String => true,
        Type::Map(value) => **value == Type::Json,
        Type::Named(n) => matches!(
            cx.rev.item(n).map(|i| &i.kind),
            Some(ItemKind::Struct(_) | ItemKind::Union(_) | ItemKind::Enum(_))
        ),
        _ => false,
    };
    if into { (format!("impl ::std::convert::Into<{ty}>"), true) } else { (ty, false) }
}

/// The value stored for a passed argument: converted, boxed when the member is.
fn stored(arg: &str, into: bool, boxed: bool) -> String {
    let value = if into { format!("{arg}.into()") } else { arg.to_string() };
    if boxed { format!("::std::boxed::Box::new({value})") } else { value }
}

/// The struct's `new` takes no arguments, so it has `Default`.
pub fn has_default(s: &Struct) -> bool {
    new_params(s).is_empty()
}

/// The widest line a signature is written on before its parameters go one per
/// line (rustfmt's default; generated files are not run through rustfmt).
const WIDTH: usize = 100;

/// A function's signature, `{indent}{head}(params){tail}`: on one line when it
/// fits in [`WIDTH`] columns, else one parameter per line, as rustfmt lays it out.
fn signature(out: &mut String, indent: &str, head: &str, params: &[String], tail: &str) {
    let line = format!("{indent}{head}({}){tail}\n", params.join(", "));
    if line.len() <= WIDTH + 1 || params.is_empty() {
        out.push_str(&line);
        return;
    }
    out.push_str(&format!("{indent}{head}(\n"));
    for p in params {
        out.push_str(&format!("{indent}    {p},\n"));
    }
    out.push_str(&format!("{indent}){tail}\n"));
}

/// One line of docs: a `///` comment, or a `#[doc]` attribute when the text has a
/// character that would end or break a comment (a member's wire name may be any
/// string).
fn doc_line(indent: &str, text: &str) -> String {
    if text.chars().any(char::is_control) {
        format!("{indent}#[doc = {:?}]\n", format!(" {text}"))
    } else {
        format!("{indent}/// {text}\n")
    }
}

/// The constructor, `Default` and setters of a struct, as text laid out here
/// rather than tokens for prettyplease: they are a fifth of the generated lines
/// and are all of one shape, and building their tokens and having syn parse them
/// back took a fifth of a generation run.
pub fn struct_builders(item: &Item, s: &Struct, cx: &Cx<'_>) -> String {
    let name = &item.name;
    let mut params = Vec::new();
    let mut inits = Vec::new();
    let mut setters = String::new();
    // Its parameters first, in their order (`rust::new_params`), then the members
    // that start at `None` or their default.
    // The members in schema order, but a JSON-RPC `id` first (the order of
    // `rust::new_params`, which decides which of them `new` takes).
    let mut order: Vec<&Field> = s.stored().collect();
    order.sort_by_key(|f| f.wire != "id");
    for f in order {
        let field = member_name(f);
        if new_takes(f) {
            // A nullable member is passed as the `Option` it is: absent and `null`
            // differ (an error's `id`), and the caller says which.
            let (ty, into) = match &f.ty {
                Type::Nullable(_) => (cx.types().boxed(&f.ty, f.boxed).to_string(), false),
                t => param(cx, t),
            };
            params.push(format!("{field}: {ty}"));
            let boxed = f.boxed && !matches!(f.ty, Type::Nullable(_));
            if matches!(f.role, Role::Optional) {
                inits.push(format!("{field}: ::std::option::Option::Some({field})"));
            } else if into || boxed {
                inits.push(format!("{field}: {}", stored(&field, into, boxed)));
            } else {
                inits.push(field);
            }
            continue;
        }
        match &f.role {
            Role::Defaulted(d) => {
                let picked = cx.picked.get(&(item.name.clone(), f.wire.clone()));
                let value = match picked {
                    Some(v) => cx.default_text(&f.ty, &LiteralValue::Str(v.clone())),
                    None => cx.default_text(&f.ty, &d.value),
                };
                let value = value.unwrap_or_else(|| "::std::default::Default::default()".to_string());
                inits.push(format!("{field}: {value}"));
            }
            Role::Optional => {
                inits.push(format!("{field}: ::std::option::Option::None"));
                setter(&mut setters, f, &f.ty, cx);
            }
            Role::Required | Role::Fixed(_) => {}
        }
    }
    let mut out = format!("impl {name} {{\n");
    // What `new` and the setters do is said once, in the crate docs.
    out.push_str("    /// With the members it requires ([building messages](crate#building-messages)).\n");
    out.push_str("    #[inline]\n");
    signature(&mut out, "    ", "pub fn new", &params, " -> Self {");
    out.push_str(&format!("        {name} {{\n"));
    for init in &inits {
        out.push_str(&format!("            {init},\n"));
    }
    out.push_str(&format!("            {}: crate::Extra::new(),\n        }}\n    }}\n", s.extra));
    out.push_str(&setters);
    // An object the schema leaves open (`[key: string]: unknown`: a 2026-07-28
    // tool's `inputSchema`) is built with the members it does not name too:
    // `with_member`, unless a field's own setter has that name.
    let open = s.index.as_ref().is_some_and(|t| *cx.rev.canonical(t) == Type::Json);
    if open && !s.stored().any(|f| member_name(f).trim_start_matches("r#") == "member") {
        out.push_str(&doc_line(
            "    ",
            "Sets a member the schema leaves open (kept in `extra`, written after the named ones).",
        ));
        out.push_str(&format!(
            "    ///\n    /// # Panics\n    ///\n    /// When `key` is a member the type names (set that with its own setter): it would be written twice.\n    #[inline]\n    pub fn with_member(mut self, key: impl ::std::convert::Into<::std::string::String>, value: impl ::std::convert::Into<::serde_json::Value>) -> Self {{\n        let key = key.into();\n        ::std::assert!(!<Self as crate::rt::Shape>::declares(&key), \"`{{key}}` is a member `{name}` names: set it with its own setter\");\n        self.{}.insert(key, value.into());\n        self\n    }}\n",
            s.extra
        ));
    }
    out.push_str("}\n");
    if params.is_empty() {
        out.push_str(&format!(
            "impl ::std::default::Default for {name} {{\n    fn default() -> Self {{\n        {name}::new()\n    }}\n}}\n"
        ));
    }
    out
}

/// `with_<member>`: sets an optional member.
fn setter(out: &mut String, f: &Field, t: &Type, cx: &Cx<'_>) {
    let field = member_name(f);
    let (ty, into) = param(cx, t);
    out.push_str(&doc_line("    ", &format!("Sets `{}`.", f.wire)));
    if let Some(d) = &f.docs.deprecated {
        out.push_str(&format!("    {}\n", deprecated_text(d)));
    }
    out.push_str("    #[inline]\n");
    let head = format!("pub fn with_{}", field.trim_start_matches("r#"));
    signature(out, "    ", &head, &["mut self".to_string(), format!("value: {ty}")], " -> Self {");
    out.push_str(&format!(
        "        self.{field} = ::std::option::Option::Some({});\n        self\n    }}\n",
        stored("value", into, f.boxed)
    ));
}

/// `From` each member type into the union, when no two members have one type;
/// `From<&str>` too when a member is a string. Text, as the builders are.
pub fn union_froms(item: &Item, u: &Union, cx: &Cx<'_>) -> String {
    let name = &item.name;
    // Two members are one type when their types are, aliases seen through.
    let api: Vec<RustType> = u.variants.iter().map(|v| crate::rust::RustTypes::api(cx.rev).of(&v.ty)).collect();
    let mut out = String::new();
    for (i, v) in u.variants.iter().enumerate() {
        if api.iter().filter(|t| **t == api[i]).count() > 1 {
            continue;
        }
        let ty = cx.types().of(&v.ty);
        let variant = &v.name;
        let value = if v.boxed { "::std::boxed::Box::new(value)" } else { "value" };
        out.push_str(&format!(
            "impl ::std::convert::From<{ty}> for {name} {{\n    fn from(value: {ty}) -> Self {{\n        {name}::{variant}({value})\n    }}\n}}\n"
        ));
        if cx.rev.canonical(&v.ty) == &Type::String {
            out.push_str(&format!(
                "impl ::std::convert::From<&str> for {name} {{\n    fn from(value: &str) -> Self {{\n        {name}::{variant}(::std::string::String::from(value))\n    }}\n}}\n"
            ));
        }
    }
    out
}

/// `From` a struct into each base it extends, directly or not, when every member of the base is
/// one of its own (a fixed member of it goes into the base's field of that type):
/// `MethodNotFoundError` into `Error`, `CallToolResult` into `Result`. What the
/// base does not name goes into its `extra`, so nothing is lost.
pub fn base_froms(item: &Item, s: &Struct, cx: &Cx<'_>) -> String {
    let mut out = String::new();
    for base in &crate::model::ancestors(&cx.rev.items, &item.name) {
        let Some(b) = cx.rev.item(base).and_then(|i| match &i.kind {
            ItemKind::Struct(b) => Some(b),
            _ => None,
        }) else {
            continue;
        };
        let Some(body) = upcast(s, base, b, cx) else { continue };
        let from = &item.name;
        // `#[inline]`: the members kept in `extra` are written through serde,
        // which instantiates their serde code; inline, that is compiled only where
        // a conversion is used, not in this crate.
        out.push_str(&format!(
            "impl ::std::convert::From<{from}> for {base} {{\n    #[inline]\n    fn from(value: {from}) -> Self {{\n{body}    }}\n}}\n"
        ));
    }
    out
}

/// The body of a `From` impl into a base, indented for it.
fn upcast(s: &Struct, base_name: &str, b: &Struct, cx: &Cx<'_>) -> Option<String> {
    let types = cx.types();
    let mut inits = Vec::new();
    for bf in b.stored() {
        let sf = s.field(&bf.wire)?;
        let field = member_name(bf);
        match (&sf.role, types.field(sf), types.field(bf)) {
            (Role::Fixed(l), None, Some(bt)) => {
                let ty_ok = matches!(
                    (&l.value, bt.to_string().as_str()),
                    (LiteralValue::Str(_), "String")
                        | (LiteralValue::Int(_), "i64")
                        | (LiteralValue::Float(_), "f64")
                        | (LiteralValue::Bool(_), "bool")
                );
                if !ty_ok {
                    return None;
                }
                let v = typed_literal(&l.value);
                let v = if matches!(l.value, LiteralValue::Str(_)) {
                    format!("::std::string::String::from({v})")
                } else {
                    v
                };
                inits.push(format!("{field}: {v}"));
            }
            (_, Some(st), Some(bt)) if st == bt => inits.push(format!("{field}: value.{}", member_name(sf))),
            // Required in the struct, optional in its base.
            (_, Some(st), Some(bt)) if bt == types.option(st.clone()) => {
                inits.push(format!("{field}: ::std::option::Option::Some(value.{})", member_name(sf)));
            }
            _ => return None,
        }
    }
    let mut out = String::from("        let mut kept = crate::Extra::new();\n");
    // The struct's members the base does not name, in the struct's order, kept in
    // the base's `extra` as the struct writes them (a whole `f64` without a fraction).
    for f in s.fields.iter().filter(|f| b.field(&f.wire).is_none()) {
        let (wire, field) = (&f.wire, member_name(f));
        let wrap = crate::rust::NumberWrap::of(cx.rev, &f.ty);
        if let Some(l) = f.role.fixed() {
            out.push_str(&format!("        kept.insert_written({wire:?}, &{});\n", typed_literal(&l.value)));
        } else if f.is_required() {
            let written = written_as(&format!("value.{field}"), wrap, false);
            out.push_str(&format!("        kept.insert_written({wire:?}, {written});\n"));
        } else {
            let written = written_as("v", wrap, true);
            out.push_str(&format!(
                "        if let ::std::option::Option::Some(v) = &value.{field} {{\n            kept.insert_written({wire:?}, {written});\n        }}\n"
            ));
        }
    }
    out.push_str(&format!("        kept.append(value.{});\n", s.extra));
    out.push_str(&format!("        {base_name} {{\n"));
    for init in &inits {
        out.push_str(&format!("            {init},\n"));
    }
    out.push_str(&format!("            {}: kept,\n        }}\n", b.extra));
    Some(out)
}

/// A member's value as the struct's `Serialize` writes it (see the `object!`
/// macro's `@wrap`): `place` is the field (`value.total`), or a reference to its
/// value (`v`, `by_ref`).
fn written_as(place: &str, wrap: crate::rust::NumberWrap, by_ref: bool) -> String {
    use crate::rust::NumberWrap as W;
    let (copied, borrowed) =
        if by_ref { (format!("*{place}"), place.to_string()) } else { (place.to_string(), format!("&{place}")) };
    match wrap {
        W::Float => format!("&crate::rt::Float({copied})"),
        W::NullableFloat => format!("&crate::rt::NullableFloat({copied})"),
        W::FloatSeq => format!("&crate::rt::FloatSeq({borrowed})"),
        W::Plain | W::Int | W::NullableInt => borrowed,
    }
}

/// A literal as Rust text, a number suffixed with the type the model gives it
/// (`-32601i64`, `1.5f64`).
fn typed_literal(v: &LiteralValue) -> String {
    let (text, ty) = literal_text(v);
    match v {
        LiteralValue::Int(_) | LiteralValue::Float(_) => format!("{text}{ty}"),
        LiteralValue::Str(_) | LiteralValue::Bool(_) => text,
    }
}

/// `Display` and `std::error::Error` for an error object: a struct with an
/// integer `code` and a string `message` (the schema's `Error` and the coded
/// errors built on it). Shown as `message (code)`.
pub fn error_impls(item: &Item, s: &Struct, cx: &Cx<'_>) -> String {
    let (Some(code), Some(message)) = (s.field("code"), s.field("message")) else { return String::new() };
    let is_int = |f: &Field| match &f.role {
        Role::Fixed(l) => matches!(l.value, LiteralValue::Int(_)),
        Role::Required => cx.rev.canonical(&f.ty) == &Type::Integer,
        _ => false,
    };
    if !is_int(code) || message.role != Role::Required || cx.rev.canonical(&message.ty) != &Type::String {
        return String::new();
    }
    let name = &item.name;
    let message = member_name(message);
    let code = match code.role {
        Role::Fixed(_) => format!("{name}::{}", member_name(code)),
        _ => format!("self.{}", member_name(code)),
    };
    format!(
        "impl ::std::fmt::Display for {name} {{\n    /// The message, then the code: `Method not found (-32601)`.\n    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {{\n        write!(f, \"{{}} ({{}})\", self.{message}, {code})\n    }}\n}}\nimpl ::std::error::Error for {name} {{}}\n"
    )
}
