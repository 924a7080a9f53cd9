"""The official Python SDK's client (mcp==2.3.0, `mcp.Client`) as a test peer:
it drives a server that has the surface of `server.py` beside it (the example
server in examples/server has) and checks every answer.

Spawns the server command given after `--` and exercises it.

  venv/bin/python python/client.py --mode modern -- venv/bin/python python/server.py
  venv/bin/python python/client.py --mode legacy -- ./target/debug/some-server --stdio

--mode modern  : Client(mode="auto") -> sends `server/discover`; fails unless the
                 server answered with 2026-07-28 (no silent fallback to initialize).
--mode pinned  : Client(mode="2026-07-28") -> no discover; every request carries the
                 2026 `_meta` envelope from the first one.
--mode legacy  : Client(mode="legacy") -> `initialize` handshake at 2025-11-25.
--mode auto    : SDK default: discover, fall back to initialize on any error.
--bridged      : the server is a legacy one behind mcp-era-bridge, whose list results
                 carry `ttlMs` 0 and `cacheScope` "private".

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

MODES = {"modern": "auto", "auto": "auto", "pinned": "2026-07-28", "legacy": "legacy"}


async def on_elicit(ctx: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
    SEEN.append(f"elicit:{params.message}")
    props = (getattr(params, "requested_schema", None) or {}).get("properties", {})
    canned = {"string": "Ada", "integer": 4, "number": 4, "boolean": True}
    content = {k: canned.get(v.get("type"), "x") for k, v in props.items()}
    return types.ElicitResult(action="accept", content=content)


async def run(mode: str, bridged: bool, command: list[str]) -> None:
    # env: by default the SDK forwards only HOME, LOGNAME, PATH, SHELL, TERM, USER to the child.
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with Client(
        params,
        mode=MODES[mode],
        client_info=types.Implementation(name="peers-py-client", version="0.1.0"),
        elicitation_callback=on_elicit,
        sampling_callback=on_sample,
        list_roots_callback=on_roots,
        read_timeout_seconds=30,
        cache=None,  # no client-side response cache: every call goes on the wire
    ) as client:
        print(f"negotiated {client.protocol_version} with {client.server_info}", flush=True)
        if mode in ("modern", "pinned"):
            check(client.protocol_version in MODERN_PROTOCOL_VERSIONS, "modern era negotiated")
        if mode == "legacy":
            check(client.protocol_version == "2025-11-25", "legacy era negotiated")
        modern = client.protocol_version in MODERN_PROTOCOL_VERSIONS

        tools = await client.list_tools()
        names = sorted(t.name for t in tools.tools)
        check({"echo", "add", "count", "book_table"} <= set(names), f"tools/list -> {names}")
        if modern and bridged:
            # A legacy server behind mcp-era-bridge: nothing says its list may be kept.
            check(tools.ttl_ms == 0 and tools.cache_scope == "private",
                  f"tools/list through the bridge ttlMs={tools.ttl_ms} cacheScope={tools.cache_scope}")
        elif modern:
            # The server under test caches its tool list for a minute, for anyone.
            check(tools.ttl_ms == 60000 and tools.cache_scope == "public",
                  f"tools/list ttlMs={tools.ttl_ms} cacheScope={tools.cache_scope}")

        r = await client.call_tool("echo", {"text": "hi"})
        check(text_of(r) == "hi" and not r.is_error, "tools/call echo")
        r = await client.call_tool("add", {"a": 2, "b": 3})
        check(r.structured_content == {"result": 5}, f"tools/call add structured={r.structured_content}")

        progress: list[tuple[float, float | None, str | None]] = []

        async def on_progress(p: float, total: float | None, message: str | None) -> None:
            progress.append((p, total, message))

        r = await client.call_tool("count", {"n": 2}, progress_callback=on_progress)
        check(r.structured_content == {"result": 2} and len(progress) == 2, f"progress notifications {progress}")

        SEEN.clear()
        r = await client.call_tool("book_table", {"date": "2026-08-01"})
        check(text_of(r) == "Booked 2026-08-01 for Ada, party of 4", f"two-round elicitation: {text_of(r)!r}")
        check(len([s for s in SEEN if s.startswith("elicit")]) == 2, f"elicitation handler ran twice {SEEN}")

        SEEN.clear()
        r = await client.call_tool("haiku_with_roots", {"topic": "frogs"})
        check("an old silent pond" in text_of(r) and "file:///tmp/peers-research" in text_of(r),
              f"sampling+roots: {text_of(r)!r}")

        r = await client.call_tool("nope", {})
        check(r.is_error, "unknown tool -> isError result")

        prompts = await client.list_prompts()
        check([p.name for p in prompts.prompts] == ["greet"], "prompts/list")
        p = await client.get_prompt("greet", {"name": "Bob", "style": "formal"})
        check("formal greeting for Bob" in p.messages[0].content.text, "prompts/get")

        res = await client.list_resources()
        check([str(x.uri) for x in res.resources] == ["demo://readme"], "resources/list")
        tmpl = await client.list_resource_templates()
        check([t.uri_template for t in tmpl.resource_templates] == ["demo://users/{user_id}"],
              "resources/templates/list")
        rd = await client.read_resource("demo://readme")
        check(rd.contents[0].text.startswith("Hello from "), "resources/read static")
        rd = await client.read_resource("demo://users/42")
        check('"id": "42"' in rd.contents[0].text, "resources/read template")

        c = await client.complete(types.PromptReference(type="ref/prompt", name="greet"),
                                  {"name": "style", "value": "f"})
        check(c.completion.values == ["friendly", "formal"], f"completion/complete prompt -> {c.completion.values}")
        c = await client.complete(types.ResourceTemplateReference(type="ref/resource", uri="demo://users/{user_id}"),
                                  {"name": "user_id", "value": "4"})
        check(c.completion.values == ["42"], "completion/complete template")

        if modern and bridged:
            # The legacy side of the server behind the bridge announces no list changes
            # and no subscriptions: the stream is acknowledged, honoring none.
            async with client.listen(tools_list_changed=True, resource_subscriptions=["demo://readme"]) as sub:
                check(not sub.honored.tools_list_changed and not sub.honored.resource_subscriptions,
                      f"subscriptions/listen through the bridge: acknowledged, honored={sub.honored}")
        elif modern:
            async with client.listen(tools_list_changed=True, resource_subscriptions=["demo://readme"]) as sub:
                check(sub.honored.tools_list_changed is True, f"subscriptions/listen ack honored={sub.honored}")
                await client.call_tool("touch", {})
                events = []
                with anyio.fail_after(5):
                    async for ev in sub:
                        events.append(ev)
                        if len(events) == 2:
                            break
                check(len(events) == 2, f"listen events {events}")
    all_passed()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=sorted(MODES), default="modern")
    ap.add_argument("--bridged", action="store_true",
                    help="the server is a legacy one behind mcp-era-bridge (its lists carry ttlMs 0, private)")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("give the server command after --")
    anyio.run(run, a.mode, a.bridged, cmd)


if __name__ == "__main__":
    sys.exit(main())
