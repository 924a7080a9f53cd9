//! What every revision's messages have in common, as traits the generated types
//! implement: a request's method, params and result, a notification's method
//! and params, and each module's `METHODS` as data.

/// A request type of some revision, sent as a JSON-RPC request: its wire
/// method, the type of its `params` and the type of its result.
/// Implemented by every such request type of every revision module.
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
pub trait HasResponse: Request {
    /// The response envelope type.
    type Response;
}

/// A notification type of some revision: its wire method and the type of its `params`.
pub trait Notification {
    /// The wire method name: `notifications/progress`.
    const METHOD: &'static str;
    /// The type of `params`, as for [`Request::Params`].
    type Params;
    /// The notification's params.
    fn params(&self) -> &Self::Params;
}

/// How a method is sent.
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
