//! Reading one member of a union from its text, with the error that says where
//! it went wrong, or quietly: while a union tries its members, a member that does
//! not read fails without saying why (saying why means reading it again).

use std::cell::Cell;

use serde::de::DeserializeOwned;

use crate::text::without_position;

thread_local! {
    /// Set while a union tries its members (and so in every union read inside
    /// them): a member that does not read then fails without saying why. Saying
    /// why means reading it again, tracking where, and formatting the message,
    /// and only the union's own error needs it, when no member reads; a member
    /// that fails before the one that reads (a schema of `"type": "integer"`
    /// tried as a `StringSchema` first) would pay it on the way to a value.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Whether a member that does not read may fail without saying why.
#[inline]
pub(crate) fn quiet() -> bool {
    QUIET.with(Cell::get)
}

/// Makes failures quiet until dropped, then puts back what was (also when a
/// reader panics).
pub(crate) struct Quiet(pub(crate) bool);

impl Quiet {
    #[inline]
    pub(crate) fn start() -> Quiet {
        Quiet(QUIET.with(|q| q.replace(true)))
    }
}

impl Drop for Quiet {
    #[inline]
    fn drop(&mut self) {
        QUIET.with(|q| q.set(self.0));
    }
}

/// Reads a union's member from the union's input text. On failure the text is
/// read again, tracking where, so the error says the path inside the member
/// (`content[0]: missing field \`mimeType\``); unless a union is trying its
/// members quietly, when the error is empty (see `QUIET`).
#[inline]
pub fn read_member<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    read_or_explain(|| serde_json::from_str(text), || member_error::<T>(text))
}

/// Reads a union's member; when it does not read, the error `explain` gives
/// (reading again, tracking where), or none while a union tries its members
/// quietly. (The first reading is not made quiet itself, though its error is
/// never shown: a guard in every member's inline reader costs the generic read
/// more instruction-cache misses than it saves, for a gain on errors alone.) A member
/// that does not read keeps nothing: what it recorded in the unknown-members
/// log, and what the second reading recorded, is forgotten.
#[inline]
pub(crate) fn read_or_explain<T, E>(
    read: impl FnOnce() -> Result<T, E>,
    explain: impl FnOnce() -> String,
) -> Result<T, String> {
    #[cfg(feature = "unknown-members-log")]
    let mark = crate::log::mark();
    read().map_err(|_| {
        let e = if quiet() { String::new() } else { explain() };
        #[cfg(feature = "unknown-members-log")]
        crate::log::rewind(mark);
        e
    })
}

/// The error of reading `text` as `T`, with its JSON path.
#[cold]
pub fn member_error<T: DeserializeOwned>(text: &str) -> String {
    let mut d = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, T>(&mut d) {
        // What follows the value (`serde_json::from_str` checks it, `deserialize` does not).
        Ok(_) => match d.end() {
            Err(e) => without_position(&e),
            Ok(()) => "the value reads only when tracked".into(),
        },
        Err(e) => {
            let path = e.path().to_string();
            let inner = without_position(e.inner());
            if path == "." || path.is_empty() { inner } else { format!("{path}: {inner}") }
        }
    }
}
