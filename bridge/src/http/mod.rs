//! Streamable HTTP's protocol, without I/O: the server's side as a state
//! machine ([`upstream`]), one HTTP client's session on the client's side
//! ([`downstream`]: which stream each message goes on, under which id), and
//! the tool headers both sides learn ([`tools`]). The binary's `--connect` and
//! `--listen` drive them over reqwest and axum; another front can drive them
//! over its own.

pub mod downstream;
pub mod tools;
pub mod upstream;

use crate::modern;

/// The HTTP status a 2026-07-28 server answers a request with when its answer
/// is the JSON-RPC error `code` (the transport's text: a request it refuses for
/// its headers, its version or a capability the client lacks is `400`; a method
/// it does not have, `404`); any other answer is `200`.
pub fn modern_status_of_error(code: i64) -> u16 {
    match code {
        modern::HEADER_MISMATCH | modern::MISSING_REQUIRED_CLIENT_CAPABILITY | modern::UNSUPPORTED_PROTOCOL_VERSION => {
            400
        }
        modern::METHOD_NOT_FOUND => 404,
        _ => 200,
    }
}

pub use downstream::{HttpDownstream, Route, client_identity};
pub use tools::{Invalid, ToolBook};
pub use upstream::{
    AuthReason, Credentials, DEFAULT_RETRY, End, HttpMethod, HttpRequest, HttpUpstream, MAX_QUIET_RESUMES, Shape,
    Status, StreamId, TimerId, Transport, UpstreamAction, UpstreamInput,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_of_the_error_to_status_table() {
        let rows = [
            (modern::HEADER_MISMATCH, 400),
            (modern::MISSING_REQUIRED_CLIENT_CAPABILITY, 400),
            (modern::UNSUPPORTED_PROTOCOL_VERSION, 400),
            (modern::METHOD_NOT_FOUND, 404),
            (modern::INVALID_PARAMS, 200),
            (modern::INTERNAL_ERROR, 200),
            (-32000, 200),
        ];
        for (code, status) in rows {
            assert_eq!(modern_status_of_error(code), status, "{code}");
        }
    }
}
