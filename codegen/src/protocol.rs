//! The protocol's methods, read off a revision's model: every request and
//! notification type (an object type with a fixed `method` member), with its
//! params type and, for requests, its result type. The diff compares these
//! tables; the generated `Request` and `Notification` impls come from them.
//!
//! Pairing rule, from the schema's naming: `FooRequest` is answered by
//! `FooResult` when the revision declares it, otherwise by `EmptyResult` (the
//! schema's own name for "a result with nothing of its own"). Where the revision
//! declares `FooResultResponse` (2026-07-28 on), that is the response envelope.

use crate::model::{Item, ItemKind, LiteralValue, Origin, Revision, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MethodKind {
    Request,
    Notification,
}

impl MethodKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MethodKind::Request => "request",
            MethodKind::Notification => "notification",
        }
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
    /// For requests: the result type (`CallToolResult`, else `EmptyResult`).
    pub result: Option<String>,
    /// For requests, where declared: the response envelope (`CallToolResultResponse`).
    pub response: Option<String>,
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

fn method_of(rev: &Revision, item: &Item) -> Option<Method> {
    let ItemKind::Struct(s) = &item.kind else { return None };
    let (_, lit) = s.fixed().find(|(f, _)| f.wire == "method")?;
    let LiteralValue::Str(name) = &lit.value else { return None };
    let kind = if item.name.ends_with("Notification") {
        MethodKind::Notification
    } else if item.name.ends_with("Request") || s.field("id").is_some() {
        MethodKind::Request
    } else {
        MethodKind::Notification
    };
    let params = s.field("params");
    let declared = |n: &str| rev.item(n).filter(|i| i.origin == Origin::Declared).map(|i| i.name.clone());
    let (result, response) = match (kind, item.name.strip_suffix("Request")) {
        (MethodKind::Request, Some(stem)) => (
            declared(&format!("{stem}Result")).or_else(|| declared("EmptyResult")),
            declared(&format!("{stem}ResultResponse")),
        ),
        (MethodKind::Request, None) => (declared("EmptyResult"), None),
        _ => (None, None),
    };
    Some(Method {
        name: name.clone(),
        kind,
        message: item.name.clone(),
        params: params.map(|f| f.ty.clone()),
        params_required: params.is_some_and(|f| f.is_required()),
        result,
        response,
    })
}
