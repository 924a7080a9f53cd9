"""A 2026-07-28 server, in plain JSON lines (no SDK), whose prompts/get and
resources/read ask the user for input before they answer: an `input_required`
result with an elicitation, then, when the request comes again with the answer
and the requestState as given, the result. What a 2026-07-28 server may do for
any request whose result union holds InputRequiredResult, and what a client must
answer. The example client's test (tests/client_peers.rs) runs it.

Refuses a retry whose requestState is not the one it gave, or whose answer is
missing, with -32602 naming why: a client that does not answer fails loudly.
"""
import json
import sys

META = {"io.modelcontextprotocol/serverInfo": {"name": "asking-server", "version": "1.0.0"}}
ASK = {
    "method": "elicitation/create",
    "params": {
        "message": "What is the passphrase?",
        "requestedSchema": {"type": "object", "properties": {"passphrase": {"type": "string"}}, "required": ["passphrase"]},
    },
}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def asked(params, state):
    """None when the request must ask first; else the answer given, or an error text."""
    if "requestState" not in params and "inputResponses" not in params:
        return None
    if params.get("requestState") != state:
        return ValueError(f"requestState {params.get('requestState')!r} is not the one given ({state!r})")
    answer = (params.get("inputResponses") or {}).get("passphrase", {})
    content = answer.get("content") or {}
    if answer.get("action") != "accept" or "passphrase" not in content:
        return ValueError(f"no accepted passphrase in inputResponses: {params.get('inputResponses')!r}")
    return content["passphrase"]


def answer(request):
    method, params = request["method"], request.get("params") or {}
    complete = {"resultType": "complete", "_meta": META}
    listed = {**complete, "ttlMs": 0, "cacheScope": "private"}
    if method == "server/discover":
        return {**listed, "supportedVersions": ["2026-07-28"],
                "capabilities": {"prompts": {}, "resources": {"subscribe": True}, "tools": {}}}
    if method == "tools/list":
        return {**listed, "tools": []}
    if method == "prompts/list":
        return {**listed, "prompts": [{"name": "secret_greeting", "description": "Greets, once told the passphrase"}]}
    if method == "resources/list":
        return {**listed, "resources": [{"uri": "demo://vault", "name": "vault", "mimeType": "text/plain"}]}
    if method == "resources/templates/list":
        return {**listed, "resourceTemplates": []}
    if method in ("prompts/get", "resources/read"):
        state = f"asked:{method}"
        given = asked(params, state)
        if given is None:
            return {"resultType": "input_required", "inputRequests": {"passphrase": ASK}, "requestState": state,
                    "_meta": META}
        if isinstance(given, ValueError):
            raise given
        if method == "prompts/get":
            text = f"Greet the one who said {given}."
            return {**complete, "messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
        return {**listed, "contents": [{"uri": params["uri"], "mimeType": "text/plain", "text": f"opened with {given}"}]}
    raise LookupError(method)


for line in sys.stdin:
    request = json.loads(line)
    if "id" not in request:
        continue
    if request.get("method") == "subscriptions/listen":
        notifications = request["params"]["notifications"]
        send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
              "params": {"notifications": notifications, "_meta": {"io.modelcontextprotocol/subscriptionId": request["id"]}}})
        continue
    try:
        send({"jsonrpc": "2.0", "id": request["id"], "result": answer(request)})
    except LookupError as e:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {e}"}})
    except ValueError as e:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32602, "message": str(e)}})
