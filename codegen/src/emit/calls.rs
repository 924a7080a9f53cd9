//! The runtime's macro grammar, as typed values. Each struct, string enum and
//! union of a generated module is followed by one call of a macro of the
//! runtime (`mcp-spec-runtime`: `object!`, `union!`, `string_enum!`) that writes
//! its serde impls. The emitter builds a [`Call`]; [`Call::render`] is the one
//! place that knows how the macros spell it, laid out one member per line so
//! that a one-member change in the schema is a one-line change in the call.

use mcp_spec_runtime::__private::SLOTS_PER_GROUP;

use crate::rust::NumberWrap;

/// One runtime macro call.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    /// `object! { Name [(extra: field)] [notification] { members } }`.
    Object {
        name: String,
        /// The field that keeps unknown members (`extra` unless taken).
        extra: String,
        /// A notification refuses an `id` member.
        notification: bool,
        members: Vec<ObjectMember>,
    },
    /// `string_enum! { Name open|closed { Variant = "value", .. } }`.
    StringEnum { name: String, open: bool, values: Vec<(String, String)> },
    /// `union! { Name by RULE { Variant(Type) [as wrap] [= tags], .. } }`.
    Union { name: String, rule: UnionCallRule, members: Vec<UnionMember> },
}

/// A struct's member, in the struct's order (its slot's place in the tuple the
/// struct is read into).
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectMember {
    pub wire: String,
    /// The Rust field (or, for a fixed member, the const) name.
    pub field: String,
    pub kind: MemberKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MemberKind {
    /// No field: a const of the struct, always written, checked when read.
    Fixed {
        ty: &'static str,
        value: String,
    },
    Required {
        ty: String,
        wrap: NumberWrap,
    },
    /// An `Option`, left out when `None`.
    Optional {
        ty: String,
        wrap: NumberWrap,
    },
    /// Read as `default` when absent.
    Defaulted {
        ty: String,
        wrap: NumberWrap,
        default: String,
    },
}

/// How a union call says its rule.
#[derive(Clone, Debug, PartialEq)]
pub enum UnionCallRule {
    /// `by "field"`: each member with the values that select it, or `_`.
    Tagged { field: String },
    /// `by shape`.
    Shape,
    /// `by kind`.
    Kind,
    /// `by shape, "field" (Enum) picks { "value" => Variant, .. }[, unlisted Variant]`.
    Selected { field: String, values_of: String, picks: Vec<(String, String)>, unlisted: Option<String> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct UnionMember {
    pub variant: String,
    pub ty: String,
    pub wrap: NumberWrap,
    pub tags: Tags,
}

/// What selects a member of a union read by a field's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Tags {
    /// The union is not read by a field's value.
    Untagged,
    /// These values (as Rust literals).
    Values(Vec<String>),
    /// Any value no other member has (`_`).
    Any,
}

impl Call {
    /// The call's text, as the generated module has it.
    pub fn render(&self) -> String {
        let (macro_name, header, members): (&str, String, Vec<String>) = match self {
            Call::Object { name, extra, notification, members } => {
                let mut header = if extra == "extra" { name.clone() } else { format!("{name} (extra: {extra})") };
                if *notification {
                    header.push_str(" notification");
                }
                let lines: Vec<String> = members.iter().map(ObjectMember::render).collect();
                if members.len() > SLOTS_PER_GROUP {
                    return lay_out_groups(&header, &lines);
                }
                ("object", header, lines)
            }
            Call::StringEnum { name, open, values } => {
                let header = format!("{name} {}", if *open { "open" } else { "closed" });
                let lines = values.iter().map(|(rust, wire)| format!("{rust} = {wire:?}")).collect();
                ("string_enum", header, lines)
            }
            Call::Union { name, rule, members } => {
                let rule = match rule {
                    UnionCallRule::Tagged { field } => format!("by {field:?}"),
                    UnionCallRule::Shape => "by shape".to_string(),
                    UnionCallRule::Kind => "by kind".to_string(),
                    UnionCallRule::Selected { field, values_of, picks, unlisted } => {
                        let picks: Vec<String> = picks.iter().map(|(value, v)| format!("{value:?} => {v}")).collect();
                        let unlisted = unlisted.as_ref().map(|v| format!(", unlisted {v}")).unwrap_or_default();
                        format!("by shape, {field:?} ({values_of}) picks {{ {} }}{unlisted}", picks.join(", "))
                    }
                };
                let lines = members.iter().map(UnionMember::render).collect();
                ("union", format!("{name} {rule}"), lines)
            }
        };
        lay_out(macro_name, &header, &members)
    }
}

impl ObjectMember {
    /// `"wire" fixed NAME: ty = value` or `"wire": KIND field: Type [as wrap] [= default]`.
    fn render(&self) -> String {
        let head = format!("{:?}", self.wire);
        let field = &self.field;
        match &self.kind {
            MemberKind::Fixed { ty, value } => format!("{head} fixed {field}: {ty} = {value}"),
            MemberKind::Required { ty, wrap } => format!("{head}: required {field}: {ty}{}", as_wrap(*wrap)),
            MemberKind::Optional { ty, wrap } => format!("{head}: optional {field}: {ty}{}", as_wrap(*wrap)),
            MemberKind::Defaulted { ty, wrap, default } => {
                format!("{head}: defaulted {field}: {ty}{} = {default}", as_wrap(*wrap))
            }
        }
    }
}

impl UnionMember {
    /// `Variant(Type) [as wrap] [= [tags] | _]`.
    fn render(&self) -> String {
        let head = format!("{}({}){}", self.variant, self.ty, as_wrap(self.wrap));
        match &self.tags {
            Tags::Untagged => head,
            Tags::Values(tags) => format!("{head} = [{}]", tags.join(", ")),
            Tags::Any => format!("{head} = _"),
        }
    }
}

/// ` as int`, ` as float`, ... or nothing.
fn as_wrap(wrap: NumberWrap) -> String {
    wrap.word().map(|w| format!(" as {w}")).unwrap_or_default()
}

/// `crate::rt::object! {`, the header line, the member lines in groups of
/// [`SLOTS_PER_GROUP`] (`[` .. `]`: the most one tuple of slots holds), `}`.
fn lay_out_groups(header: &str, members: &[String]) -> String {
    let mut out = format!("crate::rt::object! {{\n    {header} {{\n");
    for group in members.chunks(SLOTS_PER_GROUP) {
        out.push_str("        [\n");
        for m in group {
            out.push_str("            ");
            out.push_str(m);
            out.push_str(",\n");
        }
        out.push_str("        ]\n");
    }
    out.push_str("    }\n}\n");
    out
}

/// `crate::rt::NAME! {`, the header line, the member lines, `}`.
fn lay_out(name: &str, header: &str, members: &[String]) -> String {
    if members.is_empty() {
        return format!("crate::rt::{name}! {{\n    {header} {{}}\n}}\n");
    }
    let mut out = format!("crate::rt::{name}! {{\n    {header} {{\n");
    for m in members {
        out.push_str("        ");
        out.push_str(m);
        out.push_str(",\n");
    }
    out.push_str("    }\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_call_is_written_as_the_runtime_macros_read_it() {
        let object = Call::Object {
            name: "ProgressNotification".into(),
            extra: "extra".into(),
            notification: true,
            members: vec![
                ObjectMember {
                    wire: "method".into(),
                    field: "METHOD".into(),
                    kind: MemberKind::Fixed { ty: "&str", value: "\"notifications/progress\"".into() },
                },
                ObjectMember {
                    wire: "total".into(),
                    field: "total".into(),
                    kind: MemberKind::Optional { ty: "f64".into(), wrap: NumberWrap::Float },
                },
            ],
        };
        assert_eq!(
            object.render(),
            "crate::rt::object! {\n    ProgressNotification notification {\n        \"method\" fixed METHOD: &str = \"notifications/progress\",\n        \"total\": optional total: f64 as float,\n    }\n}\n"
        );
        // More members than one tuple of slots holds: in groups of that many.
        let wide = Call::Object {
            name: "Wide".into(),
            extra: "extra".into(),
            notification: false,
            members: (0..SLOTS_PER_GROUP + 1)
                .map(|i| ObjectMember {
                    wire: format!("m{i}"),
                    field: format!("m{i}"),
                    kind: MemberKind::Optional { ty: "String".into(), wrap: NumberWrap::Plain },
                })
                .collect(),
        };
        let text = wide.render();
        assert_eq!(text.matches("        [\n").count(), 2, "{text}");
        let (last, next) = (SLOTS_PER_GROUP - 1, SLOTS_PER_GROUP);
        assert!(
            text.contains(&format!(
                "            \"m{last}\": optional m{last}: String,\n        ]\n        [\n            \"m{next}\""
            )),
            "{text}"
        );
        let union = Call::Union {
            name: "R".into(),
            rule: UnionCallRule::Selected {
                field: "resultType".into(),
                values_of: "ResultType".into(),
                picks: vec![("input_required".into(), "B".into())],
                unlisted: Some("Other".into()),
            },
            members: vec![UnionMember {
                variant: "B".into(),
                ty: "B".into(),
                wrap: NumberWrap::Plain,
                tags: Tags::Untagged,
            }],
        };
        assert_eq!(
            union.render(),
            "crate::rt::union! {\n    R by shape, \"resultType\" (ResultType) picks { \"input_required\" => B }, unlisted Other {\n        B(B),\n    }\n}\n"
        );
        let empty = Call::StringEnum { name: "E".into(), open: false, values: vec![] };
        assert_eq!(empty.render(), "crate::rt::string_enum! {\n    E closed {}\n}\n");
    }
}
