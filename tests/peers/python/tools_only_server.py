"""A server on the official Python SDK's low-level `Server` (mcp==2.3.0) with tools
and nothing else: it declares only the `tools` capability (the SDK derives each
capability from the handlers it has), on both eras, so a client that asks for
prompts, resources or subscriptions asks for what was never offered.

Run:  venv/bin/python python/tools_only_server.py
"""

from __future__ import annotations

import anyio
import mcp_types as types

from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

ECHO = types.Tool(
    name="echo",
    description="Echo the text back.",
    input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
)


async def list_tools(ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[ECHO])


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    text = str((params.arguments or {}).get("text", ""))
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


server = Server("tools-only-server", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
