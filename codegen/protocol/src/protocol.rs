//! What every revision's messages have in common, as traits the generated types
//! implement: a request's method, params and result, a notification's method
//! and params, and each module's `METHODS` as data.

/// A request type of some revision, sent as a JSON-RPC request: its wire
/// method, the type of its `params` and the type of its result.
/// Implemented by every such request type of every revision module.
///
/// ```
/// use mcp_spec_types::Request;
/// use mcp_spec_types::v2026_07_28 as m;
///
/// // A client's send, typed by its request: the result type comes with it.
/// fn method_of<R: Request>(_: &R) -> &'static str {
///     R::METHOD
/// }
/// let meta = m::RequestMetaObject::new(m::LATEST_PROTOCOL_VERSION, m::ClientCapabilities::default());
/// let call = m::CallToolRequest::new(1, m::CallToolRequestParams::new(meta, "get_weather"));
/// assert_eq!((method_of(&call), call.params().name.as_str()), ("tools/call", "get_weather"));
///
/// let answer = r#"{"content":[{"type":"text","text":"72F"}]}"#;
/// let result: <m::CallToolRequest as Request>::Result = mcp_spec_types::from_str(answer).unwrap();
/// assert_eq!(result.member_name(), "CallToolResult");
/// ```
pub trait Request {
    /// The wire method name: `tools/call`.
    const METHOD: &'static str;
    /// The type of `params`: an `Option` when the schema makes it optional,
    /// `()` when the request has none.
    type Params;
    /// What a successful response carries: the `result` of the response the
    /// revision declares for it (2026-07-28: `CallToolResultResponse`'s, a
    /// `CallToolResult` or an `InputRequiredResult`), else `FooResult` for
    /// `FooRequest`, else the revision's `EmptyResult` (`serde_json::Value`
    /// if it has neither).
    type Result;
    /// The request's params.
    fn params(&self) -> &Self::Params;
}

/// A request a server asks of the client inside a result, not on its own
/// (2026-07-28: `sampling/createMessage`, `roots/list`, `elicitation/create`
/// in an `InputRequiredResult`'s `inputRequests`, answered in the retried
/// request's `inputResponses`). It has no `id` and is never sent as a
/// JSON-RPC request, so it does not implement [`Request`].
///
/// ```
/// use mcp_spec_types::InputRequest;
/// use mcp_spec_types::v2026_07_28 as m;
///
/// assert_eq!(<m::ElicitRequest as InputRequest>::METHOD, "elicitation/create");
/// let answer = r#"{"action":"accept","content":{"name":"Ada"}}"#;
/// let result: <m::ElicitRequest as InputRequest>::Result = mcp_spec_types::from_str(answer).unwrap();
/// assert_eq!(result.action, m::ElicitResultAction::Accept);
/// ```
pub trait InputRequest {
    /// The method name: `elicitation/create`.
    const METHOD: &'static str;
    /// The type of `params`, as for [`Request::Params`].
    type Params;
    /// What the client answers with, in `inputResponses`.
    type Result;
    /// The request's params.
    fn params(&self) -> &Self::Params;
}

/// A request whose revision declares its response envelope
/// (`CallToolResultResponse`, from 2026-07-28 on).
///
/// ```
/// use mcp_spec_types::HasResponse;
/// use mcp_spec_types::v2026_07_28 as m;
///
/// let text = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"72F"}]}}"#;
/// let response: <m::CallToolRequest as HasResponse>::Response = mcp_spec_types::from_str(text).unwrap();
/// assert_eq!(response.result.member_name(), "CallToolResult");
/// ```
pub trait HasResponse: Request {
    /// The response envelope type.
    type Response;
}

/// A notification type of some revision: its wire method and the type of its `params`.
///
/// ```
/// use mcp_spec_types::Notification;
/// use mcp_spec_types::v2026_07_28 as m;
///
/// fn method_of<N: Notification>(_: &N) -> &'static str {
///     N::METHOD
/// }
/// let text = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5}}"#;
/// let progress: m::ProgressNotification = mcp_spec_types::from_str(text).unwrap();
/// assert_eq!((method_of(&progress), progress.params().progress), ("notifications/progress", 0.5));
/// ```
pub trait Notification {
    /// The wire method name: `notifications/progress`.
    const METHOD: &'static str;
    /// The type of `params`, as for [`Request::Params`].
    type Params;
    /// The notification's params.
    fn params(&self) -> &Self::Params;
}

/// How a method is sent.
///
/// ```
/// use mcp_spec_types::MethodKind;
/// use mcp_spec_types::v2026_07_28 as m;
///
/// // The three requests a 2026-07-28 server asks inside a result.
/// let mut asked: Vec<&str> =
///     m::METHODS.iter().filter(|i| i.kind == MethodKind::InputRequest).map(|i| i.method).collect();
/// asked.sort();
/// assert_eq!(asked, ["elicitation/create", "roots/list", "sampling/createMessage"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MethodKind {
    /// A JSON-RPC request, answered by a response with the same `id`.
    Request,
    /// A request carried in a result's `inputRequests` (see [`InputRequest`]).
    InputRequest,
    /// A JSON-RPC notification, not answered.
    Notification,
}

/// One method of a revision, as data: see each module's `METHODS`.
///
/// ```
/// use mcp_spec_types::{MethodInfo, MethodKind};
/// use mcp_spec_types::v2026_07_28 as m;
///
/// let call: &MethodInfo = m::METHODS.iter().find(|i| i.method == "tools/call").unwrap();
/// assert_eq!((call.kind, call.message), (MethodKind::Request, "CallToolRequest"));
/// assert_eq!((call.result, call.complete), (Some("CallToolResultResponseResult"), Some("CallToolResult")));
/// assert!(call.may_ask_for_input);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MethodInfo {
    /// The wire method name.
    pub method: &'static str,
    /// How it is sent.
    pub kind: MethodKind,
    /// The request or notification type.
    pub message: &'static str,
    /// The type of `params` (its schema name), when there is one.
    pub params: Option<&'static str>,
    /// For requests: the result type.
    pub result: Option<&'static str>,
    /// For requests, where declared: the response envelope type.
    pub response: Option<&'static str>,
    /// For requests: the result that completes it (`CallToolResult`, where
    /// `result` is `CallToolResult | InputRequiredResult`); the type the
    /// module's `AnyResult` reads for this method.
    pub complete: Option<&'static str>,
    /// For requests: the server may answer with something other than the
    /// complete result (2026-07-28: an `InputRequiredResult`, which the client
    /// answers by sending the request again).
    pub may_ask_for_input: bool,
    /// For requests: the complete result carries cache hints (`ttlMs` and
    /// `cacheScope`, required).
    pub cacheable: bool,
}
