//! What a legacy peer of a version older than 2025-11-25 reads. The bridge
//! translates at 2025-11-25; each message it sends such a peer must also read
//! as that version's type. The generated conversions go through JSON and keep
//! what a revision does not name, so a message that reads is the conversion's
//! output byte for byte: reading is the conversion, and its error is the
//! refusal.
//!
//! Only the messages the bridge sends are read, each as its own type (a
//! request or notification as the member of its method in the revision's
//! union, where the fallback member `Other` means the revision has no such
//! method; a result as its method's complete result, by the revision's
//! generated `AnyResult`): the revisions' whole type tables would cost a
//! release build of the bridge 80 s more.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::LEGACY_VERSION;

/// Every version with the `initialize` handshake the bridge speaks, oldest
/// first (the handshake ended with 2025-11-25, so this list is complete).
pub const LEGACY_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// A message the bridge sends a legacy peer.
#[derive(Clone, Copy)]
pub(crate) enum Sent<'a> {
    InitializeResult,
    ServerRequest,
    ServerNotification,
    ClientRequest,
    /// The result of a request of this method.
    Result(&'a str),
}

/// Whether the peer of `version` reads `value` as what it is, and if not, why.
pub(crate) fn reads(version: &str, sent: Sent<'_>, value: &Value) -> Result<(), String> {
    let read = match version {
        LEGACY_VERSION => return Ok(()),
        "2025-06-18" => v2025_06_18(sent, value),
        "2025-03-26" => v2025_03_26(sent, value),
        "2024-11-05" => v2024_11_05(sent, value),
        other => return Err(format!("{other}: a version the bridge does not speak")),
    };
    read.map_err(|e| format!("not a {version} {e}"))
}

/// As [`reads`], for a message as its text: the version the bridge speaks
/// with its own types is not read again.
pub(crate) fn reads_text(version: &str, sent: Sent<'_>, text: &str) -> Result<(), String> {
    if version == LEGACY_VERSION {
        return Ok(());
    }
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    reads(version, sent, &value)
}

fn typed<T: DeserializeOwned>(value: &Value) -> Result<(), String> {
    crate::read_as::<T>(value).map(drop)
}

/// A union read by method: `Other` is a method the revision does not have.
fn member(chosen: Result<&'static str, String>, union: &str, value: &Value) -> Result<(), String> {
    match chosen {
        Ok("Other") => {
            let method = value.get("method").and_then(Value::as_str).unwrap_or_default();
            Err(format!("{union}: the revision has no {method}"))
        }
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{union}: {e}")),
    }
}

/// A revision's reader: the unions every legacy revision has, and the
/// complete result of each of its requests by method (its generated
/// `AnyResult`: a method the revision has no request for is not a result the
/// bridge sends it).
macro_rules! reader {
    ($($revision:ident),* $(,)?) => {$(
        fn $revision(sent: Sent<'_>, value: &Value) -> Result<(), String> {
            use mcp_spec_types::$revision as r;
            let union = |chosen: Result<&'static str, String>, name| member(chosen, name, value);
            match sent {
                Sent::InitializeResult => typed::<r::InitializeResult>(value),
                Sent::ServerRequest => {
                    union(r::ServerRequest::from_json(value.clone()).map(|u| u.member_name()), crate::type_label::<r::ServerRequest>())
                }
                Sent::ServerNotification => union(
                    r::ServerNotification::from_json(value.clone()).map(|u| u.member_name()),
                    crate::type_label::<r::ServerNotification>(),
                ),
                Sent::ClientRequest => {
                    union(r::ClientRequest::from_json(value.clone()).map(|u| u.member_name()), crate::type_label::<r::ClientRequest>())
                }
                Sent::Result(method) => match r::AnyResult::read(method, &value.to_string()) {
                    Some(Ok(_)) | None => Ok(()),
                    Some(Err(e)) => {
                        let name = r::METHODS.iter().find(|m| m.method == method).and_then(|m| m.complete).unwrap_or("result");
                        Err(format!("{name}: {e}"))
                    }
                },
            }
        }
    )*};
}

reader!(v2025_06_18, v2025_03_26, v2024_11_05);
