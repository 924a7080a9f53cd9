"""A server on the official Python SDK (mcp==2.3.0, `MCPServer`), the test peer
the example client (examples/client) talks to, and the surface the example server
(examples/server) copies so that `client.py` can drive either.

One process serves BOTH protocol eras: the SDK's stdio loop looks at the client's
first request. A request whose `params._meta` carries
`io.modelcontextprotocol/protocolVersion` (e.g. `server/discover`) locks the
connection to 2026-07-28; anything else (`initialize`) locks it to the
2025-11-25 handshake era.

Run:  venv/bin/python python/server.py
"""

from __future__ import annotations

from typing import Annotated

from mcp_types import (
    Annotations,
    Completion,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsResult,
    PromptReference,
    ResourceTemplateReference,
    SamplingMessage,
    TextContent,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel

from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resolve import Elicit, ListRoots, Resolve, Sample

mcp = MCPServer(
    "peers-demo-server",
    version="0.1.0",
    instructions="Demo server for mcp-spec interop tests.",
    # SEP-2549 cache hints: stamped as ttlMs/cacheScope on these results (2026-07-28 only;
    # the legacy sieve strips them from 2025-11-25 results).
    cache_hints={
        "tools/list": CacheHint(ttl_ms=60_000, scope="public"),
        "prompts/list": CacheHint(ttl_ms=30_000, scope="public"),
        "resources/list": CacheHint(ttl_ms=5_000, scope="private"),
        "resources/templates/list": CacheHint(ttl_ms=5_000, scope="private"),
    },
)


# --- plain tools -------------------------------------------------------------
@mcp.tool(description="Echo the text back.")
def echo(text: str) -> str:
    return text


@mcp.tool(description="Add two integers (structured output).")
def add(a: int, b: int) -> int:
    return a + b


@mcp.tool(description="Publish change events to subscriptions/listen streams.")
async def touch(ctx: Context) -> str:
    await ctx.notify_tools_changed()
    await ctx.notify_resource_updated("demo://readme")
    return "published"


@mcp.tool(description="Report progress n times, then return n.")
async def count(n: int, ctx: Context) -> int:
    for i in range(1, n + 1):
        await ctx.report_progress(i, n, f"step {i}")
    return n


# --- two-round elicitation via resolvers (works in both eras) ---------------
class Name(BaseModel):
    name: str


class Party(BaseModel):
    size: int


def ask_name() -> Elicit[Name]:
    return Elicit("What is your name?", Name)


def ask_party(name: Annotated[Name, Resolve(ask_name)]) -> Elicit[Party]:
    # Depends on the first answer, so it can only be asked in a second round.
    return Elicit(f"How many people are coming, {name.name}?", Party)


@mcp.tool(description="Book a table; asks the user twice (two input_required rounds on 2026-07-28).")
def book_table(
    date: str,
    name: Annotated[Name, Resolve(ask_name)],
    party: Annotated[Party, Resolve(ask_party)],
) -> str:
    return f"Booked {date} for {name.name}, party of {party.size}"


# --- an answer that is any number, not only an integer --------------------
class Tip(BaseModel):
    fraction: float


def ask_tip() -> Elicit[Tip]:
    return Elicit("What fraction of the bill as a tip?", Tip)


@mcp.tool(description="Asks for a tip as a fraction of the bill (a number that need not be whole).")
def tip(bill: int, tip: Annotated[Tip, Resolve(ask_tip)]) -> str:
    return f"Tip on {bill}: {bill * tip.fraction:.2f}"


# --- sampling + roots in ONE round (independent resolvers are batched) -------
def sample_haiku(topic: str) -> Sample:
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=f"Haiku about {topic}"))],
                  max_tokens=50, temperature=1)  # float field: goes on the wire as 1.0


def get_roots() -> ListRoots:
    return ListRoots()


@mcp.tool(description="Uses sampling and roots (one round with two inputRequests on 2026-07-28).")
def haiku_with_roots(
    topic: str,
    haiku: Annotated[CreateMessageResult, Resolve(sample_haiku)],
    roots: Annotated[ListRootsResult, Resolve(get_roots)],
) -> str:
    text = haiku.content.text if isinstance(haiku.content, TextContent) else "?"
    return f"{text} | roots={[str(r.uri) for r in roots.roots]}"


# --- hand-rolled InputRequiredResult (the raw 2026-07-28 API) ---------------
@mcp.tool(description="Hand-rolled input_required flow: confirm, then done.")
async def confirm_raw(action: str, ctx: Context) -> str | InputRequiredResult:
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        # 2025-11-25: no InputRequiredResult on the wire; use the elicitation/create back-channel.
        class Ok(BaseModel):
            ok: bool

        res = await ctx.elicit(f"Really {action}?", Ok)
        return f"{action}: {res.action} {getattr(res, 'data', None)}"
    answer = (ctx.input_responses or {}).get("confirm")
    if answer is None:
        return InputRequiredResult(
            input_requests={
                "confirm": ElicitRequest(
                    params=ElicitRequestFormParams(
                        message=f"Really {action}?",
                        requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}},
                                          "required": ["ok"]},
                    )
                )
            },
            # Plaintext here; the SDK's RequestStateBoundary seals it (AES-GCM) on the wire.
            request_state=f"pending:{action}",
        )
    assert isinstance(answer, ElicitResult)
    return f"{action}: {answer.action} {answer.content} (state was {ctx.request_state!r})"


# --- prompt, resources, completion ------------------------------------------
@mcp.prompt(description="Greet someone.")
def greet(name: str, style: str = "friendly") -> str:
    return f"Write a {style} greeting for {name}."


@mcp.resource("demo://readme", name="readme", mime_type="text/plain", description="Static text resource",
              annotations=Annotations(priority=1, audience=["user"]))  # priority goes on the wire as 1.0
def readme() -> str:
    return "Hello from peers-demo-server."


@mcp.resource("demo://users/{user_id}", name="user", mime_type="application/json", description="User by id")
def user(user_id: str) -> str:
    return f'{{"id": "{user_id}", "name": "User {user_id}"}}'


@mcp.completion()
async def complete(ref, argument, context):
    if isinstance(ref, PromptReference) and argument.name == "style":
        values = [v for v in ("friendly", "formal", "pirate") if v.startswith(argument.value)]
        return Completion(values=values, total=len(values), has_more=False)
    if isinstance(ref, ResourceTemplateReference) and argument.name == "user_id":
        return Completion(values=[v for v in ("1", "2", "42") if v.startswith(argument.value)])
    return None


if __name__ == "__main__":
    import sys

    # `--http PORT`: Streamable HTTP on loopback (both eras, each in its own shape); else stdio.
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        mcp.run("stdio")
