//! The MCP Apps extension (`io.modelcontextprotocol/ui`), generated from the
//! `.d.ts` its npm package ships (named in `codegen/extensions.toml`): its
//! methods and constants, and messages built from the examples of its
//! specification, each read as its member and written back equal, and near
//! misses refused naming the member.
//!
//! The examples are those of `specification/2026-01-26/apps.mdx` in
//! `modelcontextprotocol/ext-apps` (commit 1f84764639507b943a67471a192d163fb4a7d89f), as
//! messages without the JSON-RPC envelope (the `.d.ts` declares each request and
//! notification as `method` and `params`), and without the placeholders the text
//! writes (`...`, `/* ... */`, `string`).

use mcp_spec_types::ext::apps::v2026_01_26 as apps;
use mcp_spec_types::{MethodKind, Notification, Request};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// `value` read as `T` and written back: equal.
fn reads_back<T: DeserializeOwned + Serialize>(value: &Value) -> T {
    let read: T = mcp_spec_types::from_str(&value.to_string())
        .unwrap_or_else(|e| panic!("{} does not read {value}: {e}", std::any::type_name::<T>()));
    assert_eq!(&serde_json::to_value(&read).unwrap(), value, "{}", std::any::type_name::<T>());
    read
}

fn refused<T: DeserializeOwned + std::fmt::Debug>(value: &Value) -> String {
    match mcp_spec_types::from_str::<T>(&value.to_string()) {
        Ok(read) => panic!("{} read a near miss {value} as {read:?}", std::any::type_name::<T>()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_apps_methods_are_its_requests_and_notifications_with_the_constants_the_file_declares() {
    let methods: Vec<(&str, MethodKind)> = apps::METHODS.iter().map(|m| (m.method, m.kind)).collect();
    let requests: Vec<&str> = methods.iter().filter(|(_, k)| *k == MethodKind::Request).map(|(m, _)| *m).collect();
    assert_eq!(
        requests,
        [
            "ui/download-file",
            "ui/initialize",
            "ui/message",
            "ui/open-link",
            "ui/request-display-mode",
            "ui/resource-teardown",
            "ui/update-model-context"
        ]
    );
    let notifications: Vec<&str> =
        methods.iter().filter(|(_, k)| *k == MethodKind::Notification).map(|(m, _)| *m).collect();
    assert_eq!(
        notifications,
        [
            "ui/notifications/host-context-changed",
            "ui/notifications/initialized",
            "ui/notifications/request-teardown",
            "ui/notifications/sandbox-proxy-ready",
            "ui/notifications/sandbox-resource-ready",
            "ui/notifications/size-changed",
            "ui/notifications/tool-cancelled",
            "ui/notifications/tool-input",
            "ui/notifications/tool-input-partial",
            "ui/notifications/tool-result"
        ]
    );
    assert!(methods.iter().all(|(_, k)| *k != MethodKind::InputRequest), "{methods:?}");
    // The file's `declare const X: T["method"]` are the types' methods.
    assert_eq!(apps::OPEN_LINK_METHOD, <apps::McpUiOpenLinkRequest as Request>::METHOD);
    assert_eq!(apps::INITIALIZE_METHOD, <apps::McpUiInitializeRequest as Request>::METHOD);
    assert_eq!(apps::SIZE_CHANGED_METHOD, <apps::McpUiSizeChangedNotification as Notification>::METHOD);
    assert_eq!(apps::TOOL_RESULT_METHOD, "ui/notifications/tool-result");
    assert_eq!(apps::EXTENSION_ID, "io.modelcontextprotocol/ui");
    // Where its capability sits (the manifest names it): a host's declaration reads as it.
    let declared: apps::Capability = reads_back(&json!({"mimeTypes": ["text/html;profile=mcp-app"]}));
    let _: &apps::McpUiClientCapabilities = &declared;
    // A request's result is the file's `…Result`.
    let open = apps::METHODS.iter().find(|m| m.method == "ui/open-link").unwrap();
    assert_eq!(open.result, Some("McpUiOpenLinkResult"));
}

#[test]
fn messages_of_the_apps_specification_read_as_their_members_and_write_back_equal() {
    let open = json!({"method": "ui/open-link", "params": {"url": "https://example.com/docs"}});
    let open: apps::McpUiOpenLinkRequest = reads_back(&open);
    assert_eq!(open.params.url, "https://example.com/docs");
    reads_back::<apps::McpUiMessageRequest>(
        &json!({"method": "ui/message", "params": {"role": "user", "content": [{"type": "text", "text": "Book it"}]}}),
    );
    let mode: apps::McpUiRequestDisplayModeRequest =
        reads_back(&json!({"method": "ui/request-display-mode", "params": {"mode": "fullscreen"}}));
    assert_eq!(serde_json::to_value(mode.params.mode).unwrap(), "fullscreen");
    reads_back::<apps::McpUiRequestDisplayModeResult>(&json!({"mode": "inline"}));
    reads_back::<apps::McpUiUpdateModelContextRequest>(&json!({"method": "ui/update-model-context", "params": {
        "content": [{"type": "text", "text": "72°F in SF"}], "structuredContent": {"temperature": 72}}}));
    reads_back::<apps::McpUiToolInputNotification>(&json!({"method": "ui/notifications/tool-input",
        "params": {"arguments": {"location": "San Francisco"}}}));
    // The tool result is the core's `CallToolResult` (2025-11-25).
    let result: apps::McpUiToolResultNotification =
        reads_back(&json!({"method": "ui/notifications/tool-result", "params": {
        "content": [{"type": "text", "text": "Current weather: Sunny, 72°F"}],
        "structuredContent": {"temperature": 72, "conditions": "sunny", "humidity": 45},
        "_meta": {"timestamp": "2025-11-10T15:30:00Z", "source": "weather-api"}}}));
    let _: &mcp_spec_types::v2025_11_25::CallToolResult = &result.params;
    reads_back::<apps::McpUiSizeChangedNotification>(&json!({"method": "ui/notifications/size-changed",
        "params": {"width": 400, "height": 300}}));
    reads_back::<apps::McpUiSandboxResourceReadyNotification>(
        &json!({"method": "ui/notifications/sandbox-resource-ready",
        "params": {"html": "<!DOCTYPE html><html></html>", "csp": {"connectDomains": ["https://api.openweathermap.org"]},
        "permissions": {"camera": {}}}}),
    );
    reads_back::<apps::McpUiResourceTeardownRequest>(
        &json!({"method": "ui/resource-teardown", "params": {"reason": "closed"}}),
    );
    reads_back::<apps::McpUiInitializeRequest>(&json!({"method": "ui/initialize", "params": {
        "appCapabilities": {}, "appInfo": {"name": "My UI", "version": "1.0.0"}, "protocolVersion": "2026-01-26"}}));
}

#[test]
fn the_host_context_of_the_initialize_example_reads_each_member_as_its_type() {
    let result = json!({
        "protocolVersion": "2026-01-26",
        "hostCapabilities": {},
        "hostInfo": {"name": "claude-desktop", "version": "1.0.0"},
        "hostContext": {
            "theme": "dark",
            "styles": {
                "variables": {
                    "--color-background-primary": "light-dark(#ffffff, #171717)",
                    "--color-text-primary": "light-dark(#171717, #fafafa)",
                    "--font-sans": "Anthropic Sans, sans-serif"
                },
                "css": {"fonts": "@font-face { font-family: \"Custom Font Name\"; src: url(\"https://example.com/f.otf\"); }"}
            },
            "displayMode": "inline",
            "containerDimensions": {"width": 400, "maxHeight": 600}
        }
    });
    let read: apps::McpUiInitializeResult = reads_back(&result);
    // `Record<McpUiStyleVariableKey, string | undefined>`: a struct of optional members, one per key.
    let variables = read.host_context.styles.as_ref().and_then(|s| s.variables.as_ref()).expect("variables");
    assert_eq!(variables.font_sans.as_deref(), Some("Anthropic Sans, sans-serif"));
    assert_eq!(variables.color_text_primary.as_deref(), Some("light-dark(#171717, #fafafa)"));
    assert!(variables.shadow_lg.is_none());
    // `({height} | {maxHeight?}) & ({width} | {maxWidth?})`: a fixed width and a maximum height.
    match read.host_context.container_dimensions.expect("containerDimensions") {
        apps::McpUiHostContextContainerDimensions::McpUiHostContextContainerDimensionsVariant3(d) => {
            assert_eq!((d.width, d.max_height), (400, Some(600)));
        }
        other => panic!("containerDimensions read as {other:?}"),
    }
    // A fixed height and width is the first pairing; nothing at all, the last.
    let both: apps::McpUiHostContextContainerDimensions = reads_back(&json!({"height": 300, "width": 400}));
    assert!(
        matches!(both, apps::McpUiHostContextContainerDimensions::McpUiHostContextContainerDimensionsVariant1(_)),
        "{both:?}"
    );
    let open: apps::McpUiHostContextContainerDimensions = reads_back(&json!({}));
    assert!(
        matches!(open, apps::McpUiHostContextContainerDimensions::McpUiHostContextContainerDimensionsVariant4(_)),
        "{open:?}"
    );
}

#[test]
fn near_misses_of_the_apps_messages_are_refused_naming_the_member() {
    let e = refused::<apps::McpUiOpenLinkRequest>(&json!({"method": "ui/open-link", "params": {}}));
    assert!(e.contains("url"), "{e}");
    let e = refused::<apps::McpUiOpenLinkRequest>(&json!({"method": "ui/open-lnk", "params": {"url": "x"}}));
    assert!(e.contains("method") && e.contains("ui/open-link"), "{e}");
    let e = refused::<apps::McpUiSizeChangedNotification>(&json!({"method": "ui/notifications/size-changed",
        "params": {"width": "400px", "height": 300}}));
    assert!(e.contains("width"), "{e}");
    let e = refused::<apps::McpUiRequestDisplayModeRequest>(&json!({"method": "ui/request-display-mode",
        "params": {"mode": 3}}));
    assert!(e.contains("mode"), "{e}");
    let e = refused::<apps::McpUiStyles>(&json!({"--font-sans": 12}));
    assert!(e.contains("--font-sans"), "{e}");
}

/// `ui/download-file`'s contents are the core's `EmbeddedResource` and
/// `ResourceLink`, which fix `type`: the extension's union is decided where the
/// core's types are seen, so it reads by `type` as the core's `ContentBlock`
/// does. Each value reads as its member; a `type` neither has is refused, the
/// known values listed; a link without its `uri` is refused naming it, not
/// taken for the other member.
#[test]
fn download_file_contents_read_each_member_by_its_type() {
    use apps::McpUiDownloadFileRequestParamsContentsItem as Item;
    let link = json!({"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt"});
    let embedded = json!({"type": "resource", "resource": {"uri": "file:///b.txt", "text": "b"}});
    assert!(matches!(reads_back::<Item>(&link), Item::ResourceLink(_)));
    assert!(matches!(reads_back::<Item>(&embedded), Item::EmbeddedResource(_)));
    let request = reads_back::<apps::McpUiDownloadFileRequest>(&json!({
        "method": "ui/download-file",
        "params": {"contents": [link.clone(), embedded.clone()]}
    }));
    let read: Vec<&str> = request.params.contents.iter().map(Item::member_name).collect();
    assert_eq!(read, ["ResourceLink", "EmbeddedResource"]);
    let e = refused::<Item>(&json!({"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}));
    assert!(e.contains("type") && e.contains("\"resource\"") && e.contains("\"resource_link\""), "{e}");
    let e = refused::<Item>(&json!({"type": "resource_link", "name": "a.txt"}));
    assert!(e.contains("uri"), "{e}");
}
