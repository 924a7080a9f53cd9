//! Streamable HTTP's protocol, without I/O: the server's side as a state
//! machine ([`upstream`]), and the tool headers both sides learn ([`tools`]).
//! The binary's `--connect` drives the machine over reqwest; another front can
//! drive it over its own client.

pub mod tools;
pub mod upstream;

pub use tools::{Invalid, ToolBook};
pub use upstream::{HttpMethod, HttpRequest, HttpUpstream, Shape, Status, StreamId, UpstreamAction, UpstreamInput};
