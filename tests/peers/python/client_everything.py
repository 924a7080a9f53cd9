"""The official Python SDK's client (mcp==2.3.0) in the 2026-07-28 era, against
the reference server `@modelcontextprotocol/server-everything` 2026.8.31 (which
speaks the 2025-11-25 handshake only) behind mcp-era-bridge. The server's
questions (sampling, elicitation, roots) reach this client as `input_required`
rounds that the SDK answers with its callbacks.

  venv/bin/python python/client_everything.py --mode pinned -- mcp-era-bridge -- node .../server-everything/dist/index.js

Exits 0 when every check passes; prints one line per step.
"""

from __future__ import annotations

import argparse
import os
import sys

import anyio
import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcp import Client, StdioServerParameters
from mcp.client.session import ClientRequestContext
from peer_common import SEEN, all_passed, check, on_roots, on_sample, text_of

MODES = {"modern": "auto", "pinned": "2026-07-28", "legacy": "legacy"}


async def on_elicit(ctx: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
    SEEN.append("elicit")
    return types.ElicitResult(action="accept", content={"name": "Ada Lovelace", "check": True, "integer": 7})


async def run(mode: str, command: list[str], url: str | None = None) -> None:
    # `--url URL`: the server over Streamable HTTP (the SDK takes a URL for that transport).
    params = url or StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with Client(
        params,
        mode=MODES[mode],
        client_info=types.Implementation(name="peers-py-client", version="0.1.0"),
        elicitation_callback=on_elicit,
        sampling_callback=on_sample,
        list_roots_callback=on_roots,
        read_timeout_seconds=30,
        cache=None,
    ) as client:
        print(f"negotiated {client.protocol_version} with {client.server_info}", flush=True)
        # `--mode legacy` is a handshake-era client: it must have negotiated one.
        modern = client.protocol_version in MODERN_PROTOCOL_VERSIONS
        check(modern != (mode == "legacy"), f"{'legacy' if mode == 'legacy' else 'modern'} era negotiated")

        tools = await client.list_tools()
        names = sorted(t.name for t in tools.tools)
        # Registered after initialize for a client that declared sampling, elicitation, roots.
        wanted = {"echo", "get-sum", "trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"}
        check(wanted <= set(names), f"tools/list -> {len(names)} tools, with {sorted(wanted)}")

        r = await client.call_tool("echo", {"message": "hello through the bridge"})
        check(text_of(r) == "Echo: hello through the bridge" and not r.is_error, f"tools/call echo: {text_of(r)!r}")
        r = await client.call_tool("get-sum", {"a": 2, "b": 3})
        check("5" in text_of(r), f"tools/call get-sum: {text_of(r)!r}")

        # What the server asked, counted by kind over the session: the reference
        # server asks for the roots once, 350 ms after initialization or for
        # `get-roots-list`, whichever comes first, so on a slow machine its timer's
        # question rides on whichever call is in flight then.
        r = await client.call_tool("trigger-sampling-request", {"prompt": "a haiku", "maxTokens": 20})
        check("an old silent pond" in text_of(r) and SEEN.count("sample") == 1, f"sampling, asked through the bridge: {SEEN}")

        r = await client.call_tool("trigger-elicitation-request", {})
        check("Ada Lovelace" in text_of(r) and SEEN.count("elicit") == 1, f"elicitation, asked through the bridge: {text_of(r)[:60]!r}")

        r = await client.call_tool("get-roots-list", {})
        check("file:///tmp/peers-research" in text_of(r) and SEEN.count("roots") == 1, f"roots, asked through the bridge once: {SEEN}")

        prompts = await client.list_prompts()
        check("simple-prompt" in [p.name for p in prompts.prompts], f"prompts/list -> {[p.name for p in prompts.prompts]}")
        p = await client.get_prompt("simple-prompt", {})
        check(len(p.messages) >= 1, "prompts/get simple-prompt")

        res = await client.list_resources()
        check(len(res.resources) > 0, f"resources/list -> {len(res.resources)}")
        rd = await client.read_resource(str(res.resources[0].uri))
        check(len(rd.contents) >= 1, f"resources/read {res.resources[0].uri}")
    all_passed()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=sorted(MODES), default="pinned")
    ap.add_argument("--url", help="the server over Streamable HTTP instead of a command")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd and not a.url:
        ap.error("give --url, or the server command after --")
    anyio.run(run, a.mode, cmd, a.url)


if __name__ == "__main__":
    sys.exit(main())
