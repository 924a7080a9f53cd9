//! Conversions between two revisions' types of the same name, through the JSON
//! the one writes and the other reads: what a peer of the other revision would
//! make of the value on the wire, with its unknown members kept. The generated
//! crate implements `From` where the generator judged that every value of the
//! one is a valid value of the other, and `TryFrom` (with [`ConvertError`])
//! where some may not be (the `conversions!` macro below).

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::read::{ReadError, reread};

/// A value of one revision's type that the other revision's type of the same
/// name cannot hold: which type, which way, and where the value did not fit
/// (`CallToolRequestParams (2025-11-25 to 2026-07-28): params._meta: missing
/// field ...`).
///
/// ```
/// use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};
///
/// // A 2025-11-25 request's params lack the `_meta` 2026-07-28 requires.
/// let params = old::CallToolRequestParams::new("get_weather");
/// let error: mcp_spec_types::ConvertError = new::CallToolRequestParams::try_from(params).unwrap_err();
/// assert_eq!(error.type_name(), "CallToolRequestParams");
/// assert_eq!(error.to_string(), "CallToolRequestParams (2025-11-25 to 2026-07-28): missing field `_meta`");
/// ```
#[derive(Debug)]
pub struct ConvertError {
    type_name: &'static str,
    from: &'static str,
    to: &'static str,
    why: Why,
}

#[derive(Debug)]
enum Why {
    /// The other revision's type does not read the value.
    Unread(ReadError),
    /// The other revision has no such type (a result of a method it lacks).
    Absent,
}

impl ConvertError {
    /// The schema name of the type converted (`CallToolRequestParams`).
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// The revisions, from and to (`"2025-11-25"`, `"2026-07-28"`).
    pub fn revisions(&self) -> (&'static str, &'static str) {
        (self.from, self.to)
    }

    /// The JSON path, within the value, of what did not fit (`.` for the value
    /// itself: a union none of whose members takes it, or a type the other
    /// revision does not have).
    pub fn path(&self) -> &str {
        match &self.why {
            Why::Unread(error) => error.path(),
            Why::Absent => ".",
        }
    }

    /// Why, as the target type's reader says it, without the position in a text
    /// nobody wrote.
    pub fn reason(&self) -> String {
        let Why::Unread(error) = &self.why else { return format!("{} has no such type", self.to) };
        let inner = error.inner();
        let text = inner.to_string();
        let at = format!(" at line {} column {}", inner.line(), inner.column());
        text.strip_suffix(&at).map(str::to_string).unwrap_or(text)
    }

    /// A value of a type that revision `to` does not have: `AnyResult`'s
    /// conversions give it for a result of a method `to` lacks.
    pub fn absent(type_name: &'static str, from: &'static str, to: &'static str) -> ConvertError {
        ConvertError { type_name, from, to, why: Why::Absent }
    }
}

/// A conversion that cannot fail (a `From`, or a type two revisions share)
/// has no error to give.
impl From<std::convert::Infallible> for ConvertError {
    fn from(never: std::convert::Infallible) -> ConvertError {
        match never {}
    }
}

/// One step of a conversion by method (`AnyResult`'s): `B` from `A` through
/// whichever of `From` and `TryFrom` the generated crate has for them.
#[doc(hidden)]
pub fn convert_step<A, B>(value: A) -> Result<B, ConvertError>
where
    B: TryFrom<A>,
    ConvertError: From<B::Error>,
{
    B::try_from(value).map_err(ConvertError::from)
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} to {}): ", self.type_name, self.from, self.to)?;
        match self.path() {
            "." => write!(f, "{}", self.reason()),
            path => write!(f, "{path}: {}", self.reason()),
        }
    }
}

impl std::error::Error for ConvertError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.why {
            Why::Unread(error) => Some(error),
            Why::Absent => None,
        }
    }
}

/// Converts `value` of revision `from`'s type `type_name` into revision `to`'s.
pub fn convert<A: Serialize, B: DeserializeOwned>(
    value: &A,
    type_name: &'static str,
    from: &'static str,
    to: &'static str,
) -> Result<B, ConvertError> {
    reread(value).map_err(|error| ConvertError { type_name, from, to, why: Why::Unread(error) })
}

/// [`convert`] where the generator judged that every value fits (a `From`).
///
/// The judgment is over the members `from` names. A member it does not name,
/// kept as unknown, may be one that `to` names with a type it does not fit
/// (2025-11-25's capabilities carrying an `extensions` of another shape, which
/// 2026-07-28 names): such a member is left out, the deepest object member the
/// reading stopped at, as often as it takes, so that a `From` never fails on a
/// peer's value. A value that still does not fit is a bug in the judgment
/// (the generated crate's tests hold each against the types), and panics.
#[track_caller]
pub fn convert_lossless<A: Serialize, B: DeserializeOwned>(
    value: &A,
    type_name: &'static str,
    from: &'static str,
    to: &'static str,
) -> B {
    let first = match convert(value, type_name, from, to) {
        Ok(converted) => return converted,
        Err(e) => e,
    };
    let bug = |e: &dyn fmt::Display| -> ! {
        panic!("{e}: mcp-spec-codegen judged that every {from} value fits; please report this")
    };
    let Ok(mut json) = serde_json::to_value(value) else { bug(&first) };
    // Each round leaves out one member; a value has no more members than bytes.
    for _ in 0..=json.to_string().len() {
        let text = json.to_string();
        let mut reader = serde_json::Deserializer::from_str(&text);
        match serde_path_to_error::deserialize::<_, B>(&mut reader) {
            Ok(converted) => return converted,
            Err(e) => {
                if !leave_out(&mut json, e.path()) {
                    bug(&first)
                }
            }
        }
    }
    bug(&first)
}

/// Removes the deepest object member on `path` from `json`; false when the
/// path names none (the value itself did not fit).
fn leave_out(json: &mut serde_json::Value, path: &serde_path_to_error::Path) -> bool {
    use serde_path_to_error::Segment;
    let segments: Vec<&Segment> = path.iter().collect();
    let Some(last_key) = segments.iter().rposition(|s| matches!(s, Segment::Map { .. })) else { return false };
    let mut at = &mut *json;
    for segment in &segments[..last_key] {
        at = match (segment, at) {
            (Segment::Map { key }, serde_json::Value::Object(o)) => match o.get_mut(key.as_str()) {
                Some(v) => v,
                None => return false,
            },
            (Segment::Seq { index }, serde_json::Value::Array(a)) => match a.get_mut(*index) {
                Some(v) => v,
                None => return false,
            },
            _ => return false,
        };
    }
    match (segments[last_key], at) {
        (Segment::Map { key }, serde_json::Value::Object(o)) => o.remove(key.as_str()).is_some(),
        _ => false,
    }
}

/// One conversion of a generated crate, for tests and tools: what
/// `mcp_spec_types::convert::conversions` lists.
///
/// ```
/// // Behind the types crate's `type-table` feature.
/// let up = mcp_spec_types::convert::conversions("2025-11-25", "2026-07-28").unwrap();
/// let tool = up.iter().find(|c| c.type_name == "Tool" && c.from == "2025-11-25").unwrap();
/// assert!(tool.lossless);
/// let modern = (tool.convert)(r#"{"name":"get_weather","inputSchema":{"type":"object"}}"#).unwrap();
/// assert_eq!(modern["name"], "get_weather");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Conversion {
    /// The schema name of the type, the same in both revisions.
    pub type_name: &'static str,
    /// The revision converted from.
    pub from: &'static str,
    /// The revision converted to.
    pub to: &'static str,
    /// A `From` (every value fits), else a `TryFrom`.
    pub lossless: bool,
    /// Reads JSON text as the `from` revision's type, converts it with the
    /// trait impl, and writes the `to` revision's value.
    pub convert: fn(&str) -> Result<serde_json::Value, String>,
}

/// [`Conversion::convert`] for `A` into `B`, through `B`'s `TryFrom<A>` (which a
/// `From` gives too).
pub fn convert_text<A, B>(text: &str) -> Result<serde_json::Value, String>
where
    A: DeserializeOwned,
    B: TryFrom<A> + Serialize,
    B::Error: fmt::Display,
{
    let a: A = crate::read::from_str(text).map_err(|e| format!("does not read: {e}"))?;
    let b = B::try_from(a).map_err(|e| e.to_string())?;
    serde_json::to_value(&b).map_err(|e| e.to_string())
}

/// The conversions between two revision modules (`old`, `new`: module paths in
/// scope where this is called), each list a set of type names in both:
/// `up` converts old to new with `From`, `up_try` with `TryFrom`; `down` and
/// `down_try` the other way.
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_conversions {
    (
        $old:ident $old_name:literal => $new:ident $new_name:literal;
        up: [$($up:ident),* $(,)?];
        up_try: [$($up_try:ident),* $(,)?];
        down: [$($down:ident),* $(,)?];
        down_try: [$($down_try:ident),* $(,)?];
    ) => {
        $( $crate::__mcp_conversions!(@from $old $old_name => $new $new_name, $up); )*
        $( $crate::__mcp_conversions!(@try_from $old $old_name => $new $new_name, $up_try); )*
        $( $crate::__mcp_conversions!(@from $new $new_name => $old $old_name, $down); )*
        $( $crate::__mcp_conversions!(@try_from $new $new_name => $old $old_name, $down_try); )*

        /// Every conversion of this pair, each direction (see `crate::convert::conversions`).
        /// Behind the `type-table` feature: it instantiates the serde code of
        /// every conversion, which a build that uses few of them need not compile.
        #[cfg(feature = "type-table")]
        pub const CONVERSIONS: &[$crate::__private::Conversion] = &[
            $( $crate::__mcp_conversions!(@entry $old $old_name => $new $new_name, $up, true), )*
            $( $crate::__mcp_conversions!(@entry $old $old_name => $new $new_name, $up_try, false), )*
            $( $crate::__mcp_conversions!(@entry $new $new_name => $old $old_name, $down, true), )*
            $( $crate::__mcp_conversions!(@entry $new $new_name => $old $old_name, $down_try, false), )*
        ];
    };
    (@entry $a:ident $a_name:literal => $b:ident $b_name:literal, $t:ident, $lossless:literal) => {
        $crate::__private::Conversion {
            type_name: stringify!($t),
            from: $a_name,
            to: $b_name,
            lossless: $lossless,
            convert: $crate::__private::convert_text::<$a::$t, $b::$t>,
        }
    };
    (@from $a:ident $a_name:literal => $b:ident $b_name:literal, $t:ident) => {
        impl ::std::convert::From<$a::$t> for $b::$t {
            /// Every value of this type in the one revision is one in the other:
            /// converted through the JSON it writes, unknown members kept.
            #[inline]
            fn from(value: $a::$t) -> Self {
                $crate::__private::convert_lossless(&value, stringify!($t), $a_name, $b_name)
            }
        }
    };
    (@try_from $a:ident $a_name:literal => $b:ident $b_name:literal, $t:ident) => {
        impl ::std::convert::TryFrom<$a::$t> for $b::$t {
            type Error = $crate::__private::ConvertError;
            /// Converted through the JSON it writes, unknown members kept; an
            /// error names where the value does not fit the other revision.
            #[inline]
            fn try_from(value: $a::$t) -> ::std::result::Result<Self, $crate::__private::ConvertError> {
                $crate::__private::convert(&value, stringify!($t), $a_name, $b_name)
            }
        }
    };
}
