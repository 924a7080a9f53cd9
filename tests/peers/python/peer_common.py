"""What the Python SDK client scripts share: the canned answers to a server's
sampling and roots questions (each noted in SEEN), a check that prints and
stops the script, and a result's text. Imported from beside them."""

from __future__ import annotations

import mcp_types as types
from mcp.client.session import ClientRequestContext

SEEN: list[str] = []  # which server->client requests were answered (either era)


async def on_sample(ctx: ClientRequestContext, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    SEEN.append("sample")
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="an old silent pond"), model="fake-llm",
        stop_reason="endTurn",
    )


async def on_roots(ctx: ClientRequestContext) -> types.ListRootsResult:
    SEEN.append("roots")
    return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/peers-research", name="work")])


PASSED = [0]  # checks passed
SKIPPED: list[str] = []  # checks not run, each with why


def check(cond: bool, what: str) -> None:
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        raise SystemExit(1)
    PASSED[0] += 1


def skip(what: str) -> None:
    """A check not run, and why: named in the last lines, so a test that expects it fails."""
    print("skip " + what, flush=True)
    SKIPPED.append(what)


def all_passed() -> None:
    """The last lines of a run: the checks counted, then that every one passed."""
    listed = ": " + "; ".join(SKIPPED) if SKIPPED else ""
    print(f"checks: {PASSED[0]} passed, {len(SKIPPED)} skipped{listed}")
    print("all checks passed", flush=True)


def text_of(result: types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, types.TextContent))
