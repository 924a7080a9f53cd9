//! The protocol's methods, read off a revision's model: every request and
//! notification type (an object type with a fixed `method` member), with its
//! params type and, for requests, its result type. The diff compares these
//! tables; the generated `Request` and `Notification` impls come from them.
//!
//! Pairing rule, from the schema's naming: where the revision declares the
//! response envelope `FooResultResponse` (2026-07-28 on), `FooRequest` is answered
//! by the type of its `result` (`CallToolResult | InputRequiredResult` for
//! `tools/call`); otherwise by `FooResult` when the revision declares it, else by
//! `EmptyResult` (the schema's own name for "a result with nothing of its own").
//!
//! A request is sent as a JSON-RPC request when it has an `id` member or is a
//! member of the revision's `ClientRequest` or `ServerRequest` union (revisions
//! before 2025-06-18 add the `id` in `JSONRPCRequest`). A request that is neither
//! is an *input request* (2026-07-28: `sampling/createMessage`, `roots/list`,
//! `elicitation/create`): carried in an `InputRequiredResult`'s `inputRequests`
//! and answered in the retried request's `inputResponses`, never sent on its own.

use crate::model::{Item, ItemKind, LiteralValue, Origin, Revision, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MethodKind {
    Request,
    Notification,
    /// A request carried in a result's `inputRequests`, not sent on its own.
    InputRequest,
}

impl MethodKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MethodKind::Request => "request",
            MethodKind::Notification => "notification",
            MethodKind::InputRequest => "input request",
        }
    }
    /// It is answered: a request or an input request.
    pub fn is_request(self) -> bool {
        !matches!(self, MethodKind::Notification)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Method {
    /// The wire name: `tools/call`.
    pub name: String,
    pub kind: MethodKind,
    /// The request or notification type: `CallToolRequest`.
    pub message: String,
    /// The type of its `params` member, when it has one.
    pub params: Option<Type>,
    /// Whether `params` is required.
    pub params_required: bool,
    /// For requests: the result type (the declared response's `result`, else
    /// `FooResult`, else `EmptyResult`).
    pub result: Option<String>,
    /// For requests, where declared: the response envelope (`CallToolResultResponse`).
    pub response: Option<String>,
    /// For requests: the result that completes it, as opposed to a result that
    /// asks for more (`CallToolResult` where `result` is
    /// `CallToolResult | InputRequiredResult`): `FooResult` when declared,
    /// else `result`.
    pub complete: Option<String>,
    /// For requests: the response's result may be other than the complete
    /// result (a union with other members: 2026-07-28's `InputRequiredResult`).
    pub may_ask_for_input: bool,
    /// For requests: the complete result carries cache hints a peer must honor
    /// (it requires `ttlMs` and `cacheScope`, 2026-07-28's `CacheableResult`).
    pub cacheable: bool,
}

impl Method {
    /// The name the generated crate's `results` module gives this request's
    /// result: the request's type name without `Request` (`CallTool` for
    /// `CallToolRequest`), whatever the schema names the result; a request
    /// type named `Request` alone keeps its name (nothing would be left).
    pub fn results_name(&self) -> &str {
        self.message.strip_suffix("Request").filter(|n| !n.is_empty()).unwrap_or(&self.message)
    }
}

/// The methods of a revision, by wire name. When two declared types fix the same
/// method (none do today), the first by name is kept.
pub fn methods(rev: &Revision) -> Vec<Method> {
    let mut out: Vec<Method> = Vec::new();
    for item in rev.items.values().filter(|i| i.origin == Origin::Declared) {
        let Some(m) = method_of(rev, item) else { continue };
        if !out.iter().any(|o| o.name == m.name) {
            out.push(m);
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A notification type: an object type named `…Notification` with a `method`
/// member and no `id`. MCP's base protocol says notifications MUST NOT include
/// an ID (a message with one is a request), which the schema cannot say, so its
/// reading refuses an `id` member rather than keep it as unknown: a request with
/// a broken `id` is then an error naming the request, not a notification.
pub fn refuses_id(item: &Item) -> bool {
    let ItemKind::Struct(s) = &item.kind else { return false };
    item.name.ends_with("Notification") && s.field("method").is_some() && s.field("id").is_none()
}

fn method_of(rev: &Revision, item: &Item) -> Option<Method> {
    let ItemKind::Struct(s) = &item.kind else { return None };
    let (_, lit) = s.fixed().find(|(f, _)| f.wire == "method")?;
    let LiteralValue::Str(name) = &lit.value else { return None };
    let kind = if item.name.ends_with("Notification") {
        MethodKind::Notification
    } else if s.field("id").is_some() || in_message_union(rev, &item.name) {
        MethodKind::Request
    } else if item.name.ends_with("Request") && rev.item("InputRequest").is_some() {
        // 2026-07-28 and on: a request a result embeds (no `id`, in no message union).
        MethodKind::InputRequest
    } else if item.name.ends_with("Request") {
        // A revision without input requests (an extension on an older core, as
        // Apps on 2025-11-25, declares its requests without the JSON-RPC envelope).
        MethodKind::Request
    } else {
        MethodKind::Notification
    };
    let params = s.field("params");
    let declared = |n: &str| rev.item(n).filter(|i| i.origin == Origin::Declared).map(|i| i.name.clone());
    let (result, response) = match (kind.is_request(), item.name.strip_suffix("Request")) {
        (true, Some(stem)) => {
            let response = declared(&format!("{stem}ResultResponse"));
            let from_response = response.as_deref().and_then(|r| result_of(rev, r));
            (from_response.or_else(|| declared(&format!("{stem}Result"))).or_else(|| declared("EmptyResult")), response)
        }
        (true, None) => (declared("EmptyResult"), None),
        _ => (None, None),
    };
    let complete = match (kind.is_request(), item.name.strip_suffix("Request")) {
        (true, Some(stem)) => declared(&format!("{stem}Result")).or_else(|| result.clone()),
        (true, None) => result.clone(),
        _ => None,
    };
    let may_ask_for_input = match (&result, &complete) {
        (Some(r), Some(c)) if r != c => match rev.item(r).map(|i| &i.kind) {
            Some(ItemKind::Union(u)) => u.variants.iter().any(|v| !matches!(&v.ty, Type::Named(n) if n == c)),
            _ => false,
        },
        _ => false,
    };
    let cacheable = complete.as_deref().and_then(|c| rev.struct_of(c)).is_some_and(|s| {
        ["ttlMs", "cacheScope"].iter().all(|w| s.fields.iter().any(|f| f.wire == *w && f.is_required()))
    });
    Some(Method {
        name: name.clone(),
        kind,
        message: item.name.clone(),
        params: params.map(|f| f.ty.clone()),
        params_required: params.is_some_and(|f| f.is_required()),
        result,
        response,
        complete,
        may_ask_for_input,
        cacheable,
    })
}

/// The type of a response envelope's `result` member, when it names a type.
fn result_of(rev: &Revision, response: &str) -> Option<String> {
    match &rev.struct_of(response)?.field("result")?.ty {
        Type::Named(n) => Some(n.clone()),
        _ => None,
    }
}

/// `name` is a member, at any depth, of the revision's `ClientRequest` or
/// `ServerRequest` union.
fn in_message_union(rev: &Revision, name: &str) -> bool {
    fn holds(rev: &Revision, t: &Type, name: &str, depth: usize) -> bool {
        match rev.canonical(t) {
            Type::Named(n) if n == name => true,
            Type::Named(n) if depth < crate::model::ALIAS_DEPTH => match rev.item(n).map(|i| &i.kind) {
                Some(ItemKind::Union(u)) => u.variants.iter().any(|v| holds(rev, &v.ty, name, depth + 1)),
                _ => false,
            },
            _ => false,
        }
    }
    ["ClientRequest", "ServerRequest"].iter().any(|u| holds(rev, &Type::Named(u.to_string()), name, 0))
}
