//! The header rules of the Streamable HTTP transport of 2026-07-28, for any
//! Rust HTTP implementation (no HTTP crate is assumed: headers go in and come
//! out as names and values).
//!
//! Every POST carries `MCP-Protocol-Version` (the body's
//! `io.modelcontextprotocol/protocolVersion`) and `Mcp-Method`; `tools/call`,
//! `prompts/get` and `resources/read` carry `Mcp-Name` (`params.name` or
//! `params.uri`, [`name_member`]); a tool's `inputSchema` may mirror arguments
//! into `Mcp-Param-{Name}` headers with `x-mcp-header` ([`ToolHeaders`]). A
//! value that is not plain header text travels in the Base64 sentinel
//! `=?base64?…?=` ([`encode_value`], [`decode_value`]). A server checks every
//! header against the body and answers a disagreement with `400 Bad Request`
//! and a [`HeaderMismatch`] (`-32020`).
//!
//! ```
//! use mcp_spec_protocol::http::{ToolHeaders, request_headers, validate_headers};
//! use serde_json::json;
//!
//! let tool = ToolHeaders::of(&json!({
//!     "type": "object",
//!     "properties": { "region": { "type": "string", "x-mcp-header": "Region" } }
//! })).unwrap();
//! let body = json!({
//!     "jsonrpc": "2.0", "id": 1, "method": "tools/call",
//!     "params": {
//!         "name": "execute_sql",
//!         "arguments": { "region": "us-west1" },
//!         "_meta": { "io.modelcontextprotocol/protocolVersion": "2026-07-28" }
//!     }
//! });
//! let headers = request_headers(&body, Some(&tool)).unwrap();
//! assert_eq!(headers, [
//!     ("MCP-Protocol-Version".to_string(), "2026-07-28".to_string()),
//!     ("Mcp-Method".to_string(), "tools/call".to_string()),
//!     ("Mcp-Name".to_string(), "execute_sql".to_string()),
//!     ("Mcp-Param-Region".to_string(), "us-west1".to_string()),
//! ]);
//! let sent = headers.iter().map(|(n, v)| (n.as_str(), v.as_bytes()));
//! assert!(validate_headers(sent, &body, Some(&tool)).is_ok());
//! ```

use std::borrow::Cow;
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};

/// The protocol version a request speaks; equal to its body's `_meta` member [`PROTOCOL_VERSION_META`].
pub const PROTOCOL_VERSION_HEADER: &str = "MCP-Protocol-Version";
/// The request's `method`.
pub const METHOD_HEADER: &str = "Mcp-Method";
/// `params.name` or `params.uri` of the methods [`name_member`] names.
pub const NAME_HEADER: &str = "Mcp-Name";
/// The prefix of a tool argument mirrored by `x-mcp-header`.
pub const PARAM_HEADER_PREFIX: &str = "Mcp-Param-";
/// The `_meta` member of a request that names its protocol version.
pub const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";
/// The annotation of a property of a tool's `inputSchema` that mirrors it into a header.
pub const HEADER_ANNOTATION: &str = "x-mcp-header";
/// The JSON-RPC error code of a header that disagrees with the body (`HeaderMismatchError`).
pub const HEADER_MISMATCH: i64 = -32020;
/// The session header of the earlier shape of the transport (2025-03-26 to
/// 2025-11-25), minted by the server in its answer to `initialize`.
pub const SESSION_ID_HEADER: &str = "Mcp-Session-Id";

/// The methods whose requests carry `Mcp-Name`, each with the member of
/// `params` it mirrors (the transport's "Standard Request Headers" table).
pub const NAMED_METHODS: [(&str, &str); 3] =
    [("prompts/get", "name"), ("resources/read", "uri"), ("tools/call", "name")];

/// The member of `params` that `Mcp-Name` mirrors for `method`, if it has one.
pub fn name_member(method: &str) -> Option<&'static str> {
    NAMED_METHODS.iter().find(|(m, _)| *m == method).map(|(_, member)| *member)
}

const SENTINEL_START: &str = "=?base64?";
const SENTINEL_END: &str = "?=";

/// Whether `value` may travel as it is: visible ASCII, space and tab, no space
/// or tab at either end, and not shaped like the sentinel.
fn is_plain(value: &str) -> bool {
    let safe = value.bytes().all(|b| b == b'\t' || (0x20..=0x7e).contains(&b));
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let sentinel = value.starts_with(SENTINEL_START) && value.ends_with(SENTINEL_END);
    safe && !padded && !sentinel
}

/// A header value for `value`: itself when plain, else the Base64 sentinel of its UTF-8.
pub fn encode_value(value: &str) -> Cow<'_, str> {
    if is_plain(value) {
        Cow::Borrowed(value)
    } else {
        Cow::Owned(format!("{SENTINEL_START}{}{SENTINEL_END}", STANDARD.encode(value)))
    }
}

/// What a received header value stands for: the sentinel decoded, a plain
/// value as it is. Bytes outside visible ASCII, space and tab, a sentinel that
/// is not Base64, or one that is not UTF-8 are refused.
pub fn decode_value(header: &[u8]) -> Result<String, String> {
    if let Some(bad) = header.iter().find(|b| **b != b'\t' && !(0x20..=0x7e).contains(*b)) {
        return Err(format!("contains the byte 0x{bad:02x}, not allowed in a header value"));
    }
    // Checked above: every byte is ASCII.
    let text = String::from_utf8_lossy(header);
    let Some(inner) = text.strip_prefix(SENTINEL_START).and_then(|t| t.strip_suffix(SENTINEL_END)) else {
        return Ok(text.into_owned());
    };
    let bytes = STANDARD
        .decode(inner)
        .map_err(|e| format!("is not valid Base64 inside {SENTINEL_START}…{SENTINEL_END}: {e}"))?;
    String::from_utf8(bytes).map_err(|_| "decodes to bytes that are not UTF-8".to_string())
}

/// The JSON type a mirrored argument is declared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    String,
    Integer,
    Boolean,
}

/// One argument a tool mirrors into a header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MirroredParam {
    /// The `x-mcp-header` value: the header is `Mcp-Param-{header}`.
    pub header: String,
    /// The chain of `properties` keys from the schema's root to the argument.
    pub path: Vec<String>,
    pub kind: ParamKind,
}

impl MirroredParam {
    /// The full header name.
    pub fn header_name(&self) -> String {
        format!("{PARAM_HEADER_PREFIX}{}", self.header)
    }

    /// The argument's value in `arguments`, if present and not `null`.
    fn value_in<'a>(&self, arguments: Option<&'a Value>) -> Option<&'a Value> {
        let mut at = arguments?;
        for key in &self.path {
            at = at.as_object()?.get(key)?;
        }
        (!at.is_null()).then_some(at)
    }
}

/// Why a tool's `x-mcp-header` annotations make it invalid: where (a JSON
/// pointer into its `inputSchema`) and what rule they break. A client on
/// Streamable HTTP leaves such a tool out of what `tools/list` gives its user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidAnnotation {
    pub at: String,
    pub why: String,
}

impl fmt::Display for InvalidAnnotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "inputSchema{}: {}", self.at, self.why)
    }
}

impl std::error::Error for InvalidAnnotation {}

/// The arguments a tool mirrors into headers, read from its `inputSchema`
/// with the transport's rules: each annotation a non-empty HTTP token, unique
/// regardless of case, on a property of type string, integer or boolean that is
/// reached from the root through `properties` keys only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolHeaders {
    pub params: Vec<MirroredParam>,
}

/// Keywords whose values are data, not schemas: an `x-mcp-header` key inside them is not an annotation.
const DATA_KEYWORDS: [&str; 4] = ["const", "default", "enum", "examples"];

impl ToolHeaders {
    /// The mirrored arguments of a tool with this `inputSchema`, or why its annotations make it invalid.
    pub fn of(input_schema: &Value) -> Result<ToolHeaders, InvalidAnnotation> {
        let mut headers = ToolHeaders::default();
        headers.walk(input_schema, &mut String::new(), Some(&mut Vec::new()))?;
        Ok(headers)
    }

    /// `schema` at pointer `at`; `path` is its chain of `properties` keys when
    /// it is statically reachable, None elsewhere.
    fn walk(
        &mut self,
        schema: &Value,
        at: &mut String,
        path: Option<&mut Vec<String>>,
    ) -> Result<(), InvalidAnnotation> {
        match schema {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = at.len();
                    at.push_str(&format!("/{i}"));
                    self.walk(item, at, None)?;
                    at.truncate(len);
                }
                Ok(())
            }
            Value::Object(members) => self.walk_object(members, at, path),
            _ => Ok(()),
        }
    }

    fn walk_object(
        &mut self,
        members: &Map<String, Value>,
        at: &mut String,
        mut path: Option<&mut Vec<String>>,
    ) -> Result<(), InvalidAnnotation> {
        if let Some(annotation) = members.get(HEADER_ANNOTATION) {
            let invalid = |why: String| InvalidAnnotation { at: format!("{at}/{HEADER_ANNOTATION}"), why };
            let path = match path.as_deref() {
                Some(path) if !path.is_empty() => path.clone(),
                Some(_) => return Err(invalid("on the schema's root, not on a property".into())),
                None => {
                    return Err(invalid(
                        "on a property not reached from the root through `properties` keys alone".into(),
                    ));
                }
            };
            self.annotation(annotation, members, path).map_err(invalid)?;
        }
        for (key, value) in members {
            if key == HEADER_ANNOTATION || DATA_KEYWORDS.contains(&key.as_str()) {
                continue;
            }
            let len = at.len();
            at.push('/');
            at.push_str(&key.replace('~', "~0").replace('/', "~1"));
            match (key.as_str(), value, path.as_deref_mut()) {
                ("properties", Value::Object(properties), mut path) => {
                    for (name, property) in properties {
                        let len = at.len();
                        at.push('/');
                        at.push_str(&name.replace('~', "~0").replace('/', "~1"));
                        match path {
                            Some(ref mut path) => {
                                path.push(name.clone());
                                let walked = self.walk(property, at, Some(path));
                                path.pop();
                                walked?;
                            }
                            None => self.walk(property, at, None)?,
                        }
                        at.truncate(len);
                    }
                }
                _ => self.walk(value, at, None)?,
            }
            at.truncate(len);
        }
        Ok(())
    }

    fn annotation(&mut self, annotation: &Value, schema: &Map<String, Value>, path: Vec<String>) -> Result<(), String> {
        let Some(header) = annotation.as_str() else {
            return Err(format!("is {annotation}, not a string"));
        };
        if header.is_empty() {
            return Err("is empty".into());
        }
        if let Some(c) = header.chars().find(|c| !is_tchar(*c)) {
            return Err(format!("{header:?} has {c:?}, not allowed in an HTTP field name"));
        }
        if let Some(other) = self.params.iter().find(|p| p.header.eq_ignore_ascii_case(header)) {
            return Err(format!(
                "{header:?} is also the header of /{} (header names ignore case)",
                other.path.join("/")
            ));
        }
        let kind = param_kind(schema.get("type")).ok_or_else(|| {
            format!(
                "is on a property of type {}, not string, integer or boolean",
                schema.get("type").map_or("(none)".to_string(), Value::to_string)
            )
        })?;
        self.params.push(MirroredParam { header: header.to_string(), path, kind });
        Ok(())
    }

    /// The `Mcp-Param-*` headers for a call with these `arguments`, encoded;
    /// an argument that is absent or `null`, or not of its declared kind (a
    /// fraction for an integer, an integer beyond JavaScript's safe range), has none.
    pub fn headers(&self, arguments: Option<&Value>) -> Vec<(String, String)> {
        self.params
            .iter()
            .filter_map(|p| {
                let value = header_text(p.kind, p.value_in(arguments)?)?;
                Some((p.header_name(), encode_value(&value).into_owned()))
            })
            .collect()
    }
}

/// RFC 9110's `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// The kind of a property's `type`: one primitive, alone or with `"null"`.
fn param_kind(ty: Option<&Value>) -> Option<ParamKind> {
    let one = |t: &str| match t {
        "string" => Some(ParamKind::String),
        "integer" => Some(ParamKind::Integer),
        "boolean" => Some(ParamKind::Boolean),
        _ => None,
    };
    match ty? {
        Value::String(t) => one(t),
        Value::Array(types) => {
            let named: Vec<&str> = types.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect();
            match named.as_slice() {
                [t] if types.len() <= 2 => one(t),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The largest integer JavaScript represents exactly.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The text of `value` as a header of `kind`: a string as is, an integer in
/// decimal, a boolean as `true` or `false`; None when it is not of that kind.
fn header_text(kind: ParamKind, value: &Value) -> Option<String> {
    match (kind, value) {
        (ParamKind::String, Value::String(s)) => Some(s.clone()),
        (ParamKind::Boolean, Value::Bool(b)) => Some(b.to_string()),
        (ParamKind::Integer, Value::Number(n)) => {
            let f = n.as_f64()?;
            (f.fract() == 0.0 && f.abs() <= SAFE_INTEGER).then(|| format!("{}", f as i64))
        }
        _ => None,
    }
}

/// Whether the header text `header` stands for the body's `value` of `kind`
/// (integers compared as numbers: `42.0` is `42`).
fn same_value(kind: ParamKind, header: &str, value: &Value) -> bool {
    match (kind, value) {
        (ParamKind::Integer, Value::Number(n)) => match (header.parse::<f64>(), n.as_f64()) {
            (Ok(h), Some(b)) => h == b,
            _ => false,
        },
        _ => header_text(kind, value).as_deref() == Some(header),
    }
}

/// Why a request's body cannot give its headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoHeaders(pub String);

impl fmt::Display for NoHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoHeaders {}

fn body_method(body: &Value) -> Option<&str> {
    body.get("method").and_then(Value::as_str)
}

fn body_version(body: &Value) -> Option<&str> {
    body.get("params")?.get("_meta")?.get(PROTOCOL_VERSION_META)?.as_str()
}

fn body_name<'a>(body: &'a Value, member: &str) -> Option<&'a str> {
    body.get("params")?.get(member)?.as_str()
}

/// The headers a client puts on the POST of request `body`, in this order:
/// `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` when the method has one,
/// then the `Mcp-Param-*` of `tool` (the called tool's, for `tools/call`),
/// each value encoded.
pub fn request_headers(body: &Value, tool: Option<&ToolHeaders>) -> Result<Vec<(String, String)>, NoHeaders> {
    let method = body_method(body).ok_or_else(|| NoHeaders("the message has no method".into()))?;
    let version = body_version(body)
        .ok_or_else(|| NoHeaders(format!("the {method} request has no params._meta[{PROTOCOL_VERSION_META:?}]")))?;
    let mut headers = vec![
        (PROTOCOL_VERSION_HEADER.to_string(), encode_value(version).into_owned()),
        (METHOD_HEADER.to_string(), encode_value(method).into_owned()),
    ];
    if let Some(member) = name_member(method) {
        let name = body_name(body, member)
            .ok_or_else(|| NoHeaders(format!("the {method} request has no params.{member} string")))?;
        headers.push((NAME_HEADER.to_string(), encode_value(name).into_owned()));
    }
    if let Some(tool) = tool {
        let arguments = body.get("params").and_then(|p| p.get("arguments"));
        headers.extend(tool.headers(arguments));
    }
    Ok(headers)
}

/// A request whose headers do not match its body, or that lacks one it must
/// carry: to be answered with `400 Bad Request` and [`error_response`](Self::error_response).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderMismatch {
    /// The header at fault.
    pub header: String,
    pub problem: Problem,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The header is required and absent.
    Missing,
    /// The header was sent more than once.
    Repeated,
    /// The header's value is not a valid header value (the reason).
    Invalid(String),
    /// The header (decoded) says one thing, the body another (absent: None).
    Differs { header: String, body: Option<String> },
}

impl fmt::Display for HeaderMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        match &self.problem {
            Problem::Missing => write!(f, "Header mismatch: the {h} header is required and missing"),
            Problem::Repeated => write!(f, "Header mismatch: the {h} header is sent more than once"),
            Problem::Invalid(why) => write!(f, "Header mismatch: the {h} header {why}"),
            Problem::Differs { header, body: Some(body) } => {
                write!(f, "Header mismatch: {h} header value '{header}' does not match body value '{body}'")
            }
            Problem::Differs { header, body: None } => {
                write!(f, "Header mismatch: {h} header value '{header}' has no value in the body")
            }
        }
    }
}

impl std::error::Error for HeaderMismatch {}

impl HeaderMismatch {
    /// The JSON-RPC error response (`-32020`) for the request with `id` (none: `null`).
    pub fn error_response(&self, id: Option<&Value>) -> Value {
        json!({
            "jsonrpc": "2.0",
            "id": id.cloned().unwrap_or(Value::Null),
            "error": { "code": HEADER_MISMATCH, "message": self.to_string() },
        })
    }
}

/// A server's check of a request's headers against its `body`, as the
/// transport's "Server Validation" says: `MCP-Protocol-Version`, `Mcp-Method`
/// and (for the methods [`name_member`] names) `Mcp-Name` present, once, and
/// equal to the body's values; with `tool` (the called tool's, when the server
/// knows it), every mirrored argument present in the body has its header, equal
/// after decoding, and no such header stands for an absent argument. Header
/// names ignore case; `Mcp-Param-*` headers `tool` does not name are ignored.
pub fn validate_headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    body: &Value,
    tool: Option<&ToolHeaders>,
) -> Result<(), HeaderMismatch> {
    let headers: Vec<(&str, &[u8])> = headers.into_iter().collect();
    let one = |name: &str| -> Result<Option<String>, HeaderMismatch> {
        let mut found = headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name));
        let Some((_, value)) = found.next() else { return Ok(None) };
        if found.next().is_some() {
            return Err(HeaderMismatch { header: name.into(), problem: Problem::Repeated });
        }
        decode_value(value)
            .map(Some)
            .map_err(|why| HeaderMismatch { header: name.into(), problem: Problem::Invalid(why) })
    };
    let required = |name: &str, body_value: Option<&str>| -> Result<(), HeaderMismatch> {
        let Some(header) = one(name)? else {
            return Err(HeaderMismatch { header: name.into(), problem: Problem::Missing });
        };
        if body_value != Some(header.as_str()) {
            let problem = Problem::Differs { header, body: body_value.map(str::to_string) };
            return Err(HeaderMismatch { header: name.into(), problem });
        }
        Ok(())
    };
    required(PROTOCOL_VERSION_HEADER, body_version(body))?;
    let method = body_method(body);
    required(METHOD_HEADER, method)?;
    if let Some(member) = method.and_then(name_member) {
        required(NAME_HEADER, body_name(body, member))?;
    }
    let Some(tool) = tool else { return Ok(()) };
    let arguments = body.get("params").and_then(|p| p.get("arguments"));
    for param in &tool.params {
        let name = param.header_name();
        let value = param.value_in(arguments);
        match (one(&name)?, value) {
            (None, None) => {}
            (None, Some(_)) => return Err(HeaderMismatch { header: name, problem: Problem::Missing }),
            (Some(header), value) if !value.is_some_and(|v| same_value(param.kind, &header, v)) => {
                let body = value.map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
                return Err(HeaderMismatch { header: name, problem: Problem::Differs { header, body } });
            }
            (Some(_), _) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_stay_and_the_rest_take_the_sentinel() {
        assert_eq!(encode_value("us-west1"), "us-west1");
        assert_eq!(encode_value("a\tb"), "a\tb");
        assert_eq!(encode_value(""), "");
        for odd in ["\tlead", "trail ", "é", "a\u{7f}b", "=?base64?x?="] {
            let encoded = encode_value(odd);
            assert!(encoded.starts_with(SENTINEL_START), "{odd:?} -> {encoded}");
            assert_eq!(decode_value(encoded.as_bytes()).unwrap(), odd);
        }
        // Only the exact lowercase sentinel is one.
        assert_eq!(decode_value(b"=?BASE64?YQ==?=").unwrap(), "=?BASE64?YQ==?=");
        assert!(decode_value(b"=?base64?not base64?=").unwrap_err().contains("Base64"));
        assert!(decode_value(b"=?base64?/w==?=").unwrap_err().contains("UTF-8"));
        assert!(decode_value(b"a\nb").unwrap_err().contains("0x0a"));
        assert!(decode_value(&[b'a', 0xc3, 0xa9]).unwrap_err().contains("0xc3"));
    }

    fn invalid(schema: Value) -> InvalidAnnotation {
        ToolHeaders::of(&schema).expect_err("invalid")
    }

    #[test]
    fn annotations_off_the_static_path_or_breaking_a_rule_make_the_tool_invalid() {
        let e = invalid(
            json!({"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "string", "x-mcp-header": "X"}}}}),
        );
        assert_eq!(e.at, "/properties/xs/items/x-mcp-header");
        assert!(e.why.contains("through `properties`"), "{e}");
        let e = invalid(
            json!({"type": "object", "anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]}),
        );
        assert_eq!(e.at, "/anyOf/0/properties/a/x-mcp-header");
        let e = invalid(json!({"type": "object", "$defs": {"a": {"type": "string", "x-mcp-header": "A"}}}));
        assert_eq!(e.at, "/$defs/a/x-mcp-header");
        let e = invalid(json!({"type": "object", "x-mcp-header": "Root"}));
        assert!(e.why.contains("root"), "{e}");
        for (header, why) in [("", "empty"), ("Has Space", "' '"), ("Line\r\nX", "'\\r'"), ("é", "'é'")] {
            let e = invalid(json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": header}}}));
            assert!(e.why.contains(why), "{header:?}: {e}");
        }
        let e = invalid(json!({"type": "object", "properties": {"a": {"type": "number", "x-mcp-header": "A"}}}));
        assert!(e.why.contains("\"number\""), "{e}");
        let e = invalid(json!({"type": "object", "properties": {"a": {"type": "object", "x-mcp-header": "A"}}}));
        assert!(e.why.contains("\"object\""), "{e}");
        let e = invalid(json!({"type": "object", "properties": {
            "a": {"type": "string", "x-mcp-header": "Region"},
            "b": {"type": "string", "x-mcp-header": "REGION"}
        }}));
        assert!(e.why.contains("also the header of /a"), "{e}");
        let e = invalid(json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": 7}}}));
        assert!(e.why.contains("not a string"), "{e}");
    }

    #[test]
    fn nested_properties_and_data_keywords_are_read_as_the_rules_say() {
        let tool = ToolHeaders::of(&json!({
            "type": "object",
            "default": {"x-mcp-header": "not an annotation"},
            "properties": {
                "where": {"type": "object", "properties": {"zone": {"type": ["integer", "null"], "x-mcp-header": "Zone"}}},
                "x-mcp-header": {"type": "boolean", "x-mcp-header": "Flag"}
            }
        }))
        .unwrap();
        let paths: Vec<_> = tool.params.iter().map(|p| (p.header.as_str(), p.path.join("."), p.kind)).collect();
        assert_eq!(
            paths,
            [("Zone", "where.zone".into(), ParamKind::Integer), ("Flag", "x-mcp-header".into(), ParamKind::Boolean)]
        );
        let args = json!({"where": {"zone": 42.0}, "x-mcp-header": false});
        assert_eq!(
            tool.headers(Some(&args)),
            [("Mcp-Param-Zone".into(), "42".into()), ("Mcp-Param-Flag".into(), "false".into())]
        );
        // Absent, null, or not of the declared kind: no header.
        assert!(tool.headers(Some(&json!({"where": {"zone": null}, "x-mcp-header": "yes"}))).is_empty());
        assert!(tool.headers(Some(&json!({"where": {"zone": 1.5}}))).is_empty());
        assert!(tool.headers(Some(&json!({"where": {"zone": 9_007_199_254_740_993u64}}))).is_empty());
        assert!(tool.headers(None).is_empty());
    }

    fn call(args: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "t", "arguments": args,
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
        }})
    }

    fn check(headers: &[(&str, &str)], body: &Value, tool: Option<&ToolHeaders>) -> Result<(), HeaderMismatch> {
        validate_headers(headers.iter().map(|(n, v)| (*n, v.as_bytes())), body, tool)
    }

    #[test]
    fn the_server_refuses_each_way_a_header_can_disagree() {
        let tool =
            ToolHeaders::of(&json!({"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}}))
                .unwrap();
        let body = call(json!({"n": 42}));
        let base = [("mcp-protocol-version", "2026-07-28"), ("MCP-METHOD", "tools/call"), ("mcp-name", "t")];
        assert_eq!(check(&[base[0], base[1], base[2], ("mcp-param-n", "42.0")], &body, Some(&tool)), Ok(()));
        // Without the tool, its parameters are someone else's business.
        assert_eq!(check(&base, &body, None), Ok(()));
        let problem = |headers: &[(&str, &str)], body: &Value| check(headers, body, Some(&tool)).unwrap_err();
        let e = problem(&base, &body);
        assert_eq!((e.header.as_str(), &e.problem), ("Mcp-Param-N", &Problem::Missing));
        let e = problem(&[base[0], base[1], base[2], ("Mcp-Param-N", "41")], &body);
        assert_eq!(e.to_string(), "Header mismatch: Mcp-Param-N header value '41' does not match body value '42'");
        let e = problem(&[base[0], base[1], base[2], ("Mcp-Param-N", "1")], &call(json!({})));
        assert_eq!(e.problem, Problem::Differs { header: "1".into(), body: None });
        let e = problem(&[base[1], base[2]], &body);
        assert_eq!((e.header.as_str(), &e.problem), ("MCP-Protocol-Version", &Problem::Missing));
        let e = problem(&[("MCP-Protocol-Version", "2025-11-25"), base[1], base[2]], &body);
        assert!(matches!(e.problem, Problem::Differs { .. }), "{e}");
        let e = problem(&[base[0], ("Mcp-Method", "tools/list"), base[2]], &body);
        assert_eq!(e.header, "Mcp-Method");
        let e = problem(&[base[0], base[1], ("Mcp-Name", "=?base64?dQ==?=")], &body);
        assert_eq!(e.problem, Problem::Differs { header: "u".into(), body: Some("t".into()) });
        let e = problem(&[base[0], base[1], base[2], ("Mcp-Name", "t")], &body);
        assert_eq!(e.problem, Problem::Repeated);
        let e = problem(&[base[0], base[1], ("Mcp-Name", "t\u{1}")], &body);
        assert!(matches!(e.problem, Problem::Invalid(_)), "{e}");
        let response = e.error_response(Some(&json!(7)));
        assert_eq!((response["id"].clone(), response["error"]["code"].clone()), (json!(7), json!(HEADER_MISMATCH)));
    }

    #[test]
    fn a_request_without_what_its_headers_need_is_refused_before_sending() {
        let e = request_headers(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}), None).unwrap_err();
        assert!(e.0.contains("_meta"), "{e}");
        let mut body = call(json!({}));
        body["params"].as_object_mut().unwrap().remove("name");
        assert!(request_headers(&body, None).unwrap_err().0.contains("params.name"));
    }
}
