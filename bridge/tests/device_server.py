"""An MCP server that wants OAuth and whose authorization server offers only
the device authorization grant (RFC 8628), for the bridge's `--device-code`
test (Python's standard library only). Usage: python3 device_server.py PORT_FILE

One origin serves all of it: the Protected Resource Metadata, the
authorization server's metadata (a device authorization endpoint, dynamic
registration, no browser flow the test uses), `/register`, `/device` (a device
code and the user code `WDJB-MJHT`, polled every second), `/activate` (the
user's page: visiting it approves), `/token` (`authorization_pending` until
then), and `/mcp`, a 2026-07-28 server that answers `server/discover` and
`tools/call` only with `Authorization: Bearer at-device`, else `401`.
It writes the port it bound to PORT_FILE, and every request to PORT_FILE + ".log".
"""

import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = {"approved": False}
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def base(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def record(self, what):
        with LOCK, open(sys.argv[1] + ".log", "a") as log:
            log.write(json.dumps({"at": time.time(), **what}) + "\n")

    def send_json(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        self.record({"GET": path, "query": query})
        base = self.base()
        if path == "/.well-known/oauth-protected-resource/mcp":
            return self.send_json(200, {"resource": f"{base}/mcp", "authorization_servers": [base]})
        if path == "/.well-known/oauth-authorization-server":
            return self.send_json(200, {
                "issuer": base,
                "authorization_endpoint": f"{base}/authorize",
                "token_endpoint": f"{base}/token",
                "device_authorization_endpoint": f"{base}/device",
                "registration_endpoint": f"{base}/register",
                "code_challenge_methods_supported": ["S256"],
                "grant_types_supported": ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
            })
        if path == "/activate" and urllib.parse.parse_qs(query).get("user_code") == ["WDJB-MJHT"]:
            STATE["approved"] = True
            return self.send_json(200, {"approved": True})
        return self.send_json(404, {"error": "not_found"})

    def do_POST(self):
        path = self.path.partition("?")[0]
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        base = self.base()
        if path == "/register":
            self.record({"POST": path, "body": json.loads(body)})
            return self.send_json(201, {"client_id": "device-client", "token_endpoint_auth_method": "none"})
        form = {k: v[0] for k, v in urllib.parse.parse_qs(body).items()}
        if path == "/device":
            self.record({"POST": path, "form": form})
            return self.send_json(200, {
                "device_code": "dc-" + "s3cret",
                "user_code": "WDJB-MJHT",
                "verification_uri": f"{base}/activate",
                "verification_uri_complete": f"{base}/activate?user_code=WDJB-MJHT",
                "expires_in": 60,
                "interval": 1,
            })
        if path == "/token":
            self.record({"POST": path, "form": form, "approved": STATE["approved"]})
            if not STATE["approved"]:
                return self.send_json(400, {"error": "authorization_pending"})
            return self.send_json(200, {"access_token": "at-device", "token_type": "Bearer", "expires_in": 3600})
        if path == "/mcp":
            msg = json.loads(body)
            self.record({"POST": path, "method": msg.get("method"), "authorization": self.headers.get("Authorization")})
            if self.headers.get("Authorization") != "Bearer at-device":
                challenge = f'Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"'
                return self.send_json(401, {"error": "unauthorized"}, [("WWW-Authenticate", challenge)])
            if msg.get("method") == "server/discover":
                return self.send_json(200, {"jsonrpc": "2.0", "id": msg["id"], "result": {
                    "resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                    "ttlMs": 0, "cacheScope": "private",
                    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "device-server", "version": "0.1.0"}}}})
            return self.send_json(200, {"jsonrpc": "2.0", "id": msg["id"], "result": {
                "resultType": "complete", "content": [{"type": "text", "text": "authorized"}]}})
        return self.send_json(404, {"error": "not_found"})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
