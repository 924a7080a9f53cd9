//! Reading JSON text as any type of this crate, with an error that says where
//! ([`from_str`]).

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Reads JSON text as `T`, as `serde_json::from_str` does, with an error that
/// says where the input went wrong: the JSON path of the value that did not read
/// (`params._meta: missing field ...`, `content[0]: ContentBlock: ...`), besides
/// serde_json's message, line and column.
///
/// `serde_json::from_str` reads these types as well, and as fast; its errors
/// carry a path only from the first union down (a union explains which member
/// failed and where), since serde_json tracks no path. This reads the input once
/// with serde_json when it is well-formed; only a reading that fails is done
/// again, tracking the path, to build the error.
///
/// ```
/// use mcp_spec_types::v2026_07_28 as m;
///
/// let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather"}}"#;
/// let error = mcp_spec_types::from_str::<m::CallToolRequest>(text).unwrap_err();
/// assert_eq!(error.path(), "params");
/// assert!(error.to_string().starts_with("params: missing field `_meta`"));
/// ```
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, ReadError> {
    match serde_json::from_str(text) {
        Ok(value) => Ok(value),
        Err(error) => Err(explain::<T>(text, error)),
    }
}

/// Reads a value of one type as another, through its JSON text: a message read
/// as a generic type first (a `JSONRPCNotification`, a response's generic
/// `Result`, an `Error`) as the type its method or code says
/// (`ServerNotification`, `CallToolResult`, `MethodNotFoundError`), with
/// [`from_str`]'s error when it is not one.
///
/// ```
/// use mcp_spec_types::v2026_07_28 as m;
///
/// let text = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#;
/// let m::JSONRPCMessage::JSONRPCNotification(generic) = serde_json::from_str(text).unwrap() else { panic!() };
/// let typed: m::ServerNotification = mcp_spec_types::reread(&generic).unwrap();
/// assert_eq!(typed.member_name(), "ProgressNotification");
/// ```
pub fn reread<T: DeserializeOwned>(value: &impl Serialize) -> Result<T, ReadError> {
    match serde_json::to_string(value) {
        Ok(text) => from_str(&text),
        Err(inner) => Err(ReadError { path: ".".to_string(), inner }),
    }
}

/// The error of a reading that failed, read again tracking the path.
#[cold]
fn explain<T: DeserializeOwned>(text: &str, first: serde_json::Error) -> ReadError {
    let mut d = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, T>(&mut d) {
        Err(e) => {
            let path = e.path().to_string();
            // `?` alone: the input broke off before its first key was read.
            let path = if path == "?" { ".".to_string() } else { path };
            ReadError { path, inner: e.into_inner() }
        }
        // It read this time, so what failed was after the value (trailing
        // characters): serde_json's own error says so.
        Ok(_) => ReadError { path: ".".to_string(), inner: first },
    }
}

/// An error reading JSON text as a type of this crate ([`from_str`]): where in
/// the input (its JSON path), and serde_json's error (message, line and column).
/// Shown as `path: message at line L column C`, or without the path when the
/// input itself is at fault.
///
/// ```
/// use mcp_spec_types::v2026_07_28 as m;
///
/// // Deep in a member: the path says where.
/// let text = r#"{"content":[{"type":"text"}]}"#;
/// let error = mcp_spec_types::from_str::<m::CallToolResult>(text).unwrap_err();
/// assert_eq!(error.path(), "content[0]");
///
/// // A union at the root: the message names the member that failed, and where.
/// let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#;
/// let error = mcp_spec_types::from_str::<m::ClientRequest>(text).unwrap_err();
/// assert_eq!(error.path(), ".");
/// assert!(error.to_string().starts_with("ClientRequest: CallToolRequest: params"), "{error}");
/// ```
#[derive(Debug)]
pub struct ReadError {
    path: String,
    inner: serde_json::Error,
}

impl ReadError {
    /// The JSON path of the value that did not read, `.`-separated with array
    /// indexes in brackets (`params._meta`, `content[0].text`); `.` when that
    /// value is the input itself: not JSON, trailing characters, or a union
    /// read at the root (`ClientRequest`, `JSONRPCMessage`), whose message then
    /// names the member that failed and where (`ClientRequest: CallToolRequest:
    /// params._meta: missing field ...`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// serde_json's error: its message, [line](serde_json::Error::line),
    /// [column](serde_json::Error::column) and [category](serde_json::Error::classify).
    pub fn inner(&self) -> &serde_json::Error {
        &self.inner
    }

    /// serde_json's error, for code that passes a `serde_json::Error` on.
    pub fn into_inner(self) -> serde_json::Error {
        self.inner
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path == "." { write!(f, "{}", self.inner) } else { write!(f, "{}: {}", self.path, self.inner) }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.inner)
    }
}
