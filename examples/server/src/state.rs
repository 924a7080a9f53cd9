//! `requestState`: what a multi-round tool call remembers between rounds, handed
//! to the client and back. The client must treat it as opaque; the server must
//! not trust it. Sealed here with a keyed hash (SipHash with keys drawn at random
//! when the process starts), so a state this process did not make, or one bound
//! to another tool or other arguments, is refused. An example's seal: a real
//! server would use a MAC from a cryptography crate and an expiry.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

use serde_json::{Map, Value};

fn keys() -> &'static RandomState {
    static KEYS: OnceLock<RandomState> = OnceLock::new();
    KEYS.get_or_init(RandomState::new)
}

fn tag(payload: &str) -> String {
    let mut h = keys().build_hasher();
    h.write(payload.as_bytes());
    let first = h.finish();
    h.write_u8(0xff);
    format!("{first:016x}{:016x}", h.finish())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

/// The state of a tool call in progress: the tool, its arguments, the answers so far.
#[derive(Clone, Debug, PartialEq)]
pub struct CallState {
    pub tool: String,
    pub arguments: Value,
    pub answers: Map<String, Value>,
}

impl CallState {
    pub fn seal(&self) -> String {
        let payload =
            serde_json::json!({"tool": self.tool, "arguments": self.arguments, "answers": self.answers}).to_string();
        let payload = hex(payload.as_bytes());
        format!("v1.{payload}.{}", tag(&payload))
    }

    /// The state a sealed text stands for, when this process sealed it for this
    /// tool and these arguments.
    pub fn open(sealed: &str, tool: &str, arguments: &Value) -> Result<CallState, &'static str> {
        let rest = sealed.strip_prefix("v1.").ok_or("not a state this server makes")?;
        let (payload, mac) = rest.split_once('.').ok_or("not a state this server makes")?;
        if tag(payload) != mac {
            return Err("the state was not sealed by this server, or was changed");
        }
        let bytes = unhex(payload).ok_or("not a state this server makes")?;
        let value: Value = serde_json::from_slice(&bytes).map_err(|_| "not a state this server makes")?;
        let state = CallState {
            tool: value["tool"].as_str().unwrap_or_default().to_string(),
            arguments: value["arguments"].clone(),
            answers: value["answers"].as_object().cloned().unwrap_or_default(),
        };
        if state.tool != tool || state.arguments != *arguments {
            return Err("the state belongs to another call");
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_state_opens_only_for_its_own_call_and_unchanged() {
        let s =
            CallState { tool: "book_table".into(), arguments: serde_json::json!({"date": "d"}), answers: Map::new() };
        let sealed = s.seal();
        assert_eq!(CallState::open(&sealed, "book_table", &serde_json::json!({"date": "d"})), Ok(s.clone()));
        assert!(CallState::open(&sealed, "other", &serde_json::json!({"date": "d"})).is_err());
        assert!(CallState::open(&sealed, "book_table", &serde_json::json!({"date": "e"})).is_err());
        let mut forged = sealed.clone();
        forged.replace_range(5..7, "00");
        assert!(CallState::open(&forged, "book_table", &serde_json::json!({"date": "d"})).is_err());
    }
}
