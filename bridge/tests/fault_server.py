"""A Streamable HTTP server that misbehaves on purpose, for the bridge's fault
tests (Python's standard library only). Usage: python3 fault_server.py PORT_FILE

It serves both shapes of the transport at one endpoint:
- modern (2026-07-28): `server/discover` answered; `tools/call` does what its
  tool's name says (see FAULTS), `echo` answers;
- legacy (2025-11-25): `initialize` opens a session (`Mcp-Session-Id`
  `s1`, `s2`, ...); the tool `expire` ends it, so the next request gets 404;
  the tool `poll` answers with a priming event (an id, `retry: 300`) and
  closes the connection, and its answer comes on the GET that resumes it with
  `Last-Event-ID` (2025-11-25's polling);
- either: the tool `private` wants `Authorization: Bearer let-me-in`, else 401
  with a `WWW-Authenticate` challenge; the tool `linger` answers in an event
  stream sent in chunks and keeps it 0.35 s after its answer before it ends
  (recording `aborted` when the client cut it meanwhile);
- 2024-11-05's HTTP+SSE at `/foreign/sse`, whose `endpoint` event names
  another origin (where no message may go).
It writes the port it bound (loopback, chosen by the system) to PORT_FILE, and
every request it receives, one JSON line each, to PORT_FILE + ".log".
"""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG_LOCK = threading.Lock()
SESSIONS = {"live": set(), "next": 1}
# Calls answered after a reconnection: event id -> (request id, when the stream was closed).
POLLED = {}


def discover(id_):
    return {"jsonrpc": "2.0", "id": id_, "result": {
        "resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
        "ttlMs": 0, "cacheScope": "private",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fault-server", "version": "0.1.0"}}}}


def text_result(id_, text, modern):
    result = {"content": [{"type": "text", "text": text}]}
    if modern:
        result["resultType"] = "complete"
    return {"jsonrpc": "2.0", "id": id_, "result": result}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, body, headers=()):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_text(self, status, text):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_DELETE(self):
        sid = self.headers.get("Mcp-Session-Id")
        self.record({"DELETE": sid})
        SESSIONS["live"].discard(sid)
        self.send_json(200, None)

    def do_GET(self):
        if self.path.startswith("/foreign"):
            self.record({"GET": self.path})
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            self.wfile.write(b"event: endpoint\ndata: http://elsewhere.invalid:9/messages?s=1\n\n")
            self.wfile.flush()
            time.sleep(5)
            return
        last = self.headers.get("Last-Event-ID")
        if last not in POLLED:
            self.record({"GET": self.headers.get("Mcp-Session-Id"), "last_event_id": last})
            return self.send_json(405, None)
        id_, closed = POLLED.pop(last)
        waited_ms = (time.monotonic() - closed) * 1000
        self.record({"GET": self.headers.get("Mcp-Session-Id"), "last_event_id": last, "waited_ms": waited_ms})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        answer = text_result(id_, "answered after the reconnection", False)
        self.wfile.write(f"id: {last}-2\ndata: {json.dumps(answer)}\n\n".encode())
        self.wfile.flush()
        self.close_connection = True

    def record(self, what):
        with LOG_LOCK, open(sys.argv[1] + ".log", "a") as log:
            log.write(json.dumps(what) + "\n")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        msg = json.loads(body)
        # The connection's port: requests that share one came on one connection.
        self.record({"msg": msg, "session": self.headers.get("Mcp-Session-Id"), "port": self.client_address[1],
                     "method_header": self.headers.get("Mcp-Method"), "name_header": self.headers.get("Mcp-Name"),
                     "region_header": self.headers.get("Mcp-Param-Region")})
        method, id_ = msg.get("method"), msg.get("id")
        sid = self.headers.get("Mcp-Session-Id")
        modern = sid is None and method != "initialize"
        if method == "server/discover":
            if sys.argv[2:] == ["legacy"]:
                return self.send_json(400, {"jsonrpc": "2.0", "id": None,
                                            "error": {"code": -32000, "message": "Bad Request: Server not initialized"}})
            return self.send_json(200, discover(id_))
        if method == "initialize":
            sid = f"s{SESSIONS['next']}"
            SESSIONS["next"] += 1
            SESSIONS["live"].add(sid)
            result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "fault-server", "version": "0.1.0"}}
            return self.send_json(200, {"jsonrpc": "2.0", "id": id_, "result": result}, [("Mcp-Session-Id", sid)])
        if sid is not None and sid not in SESSIONS["live"]:
            return self.send_json(404, {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": "Session not found"}})
        if id_ is None:
            return self.send_json(202, None)
        if method == "tools/list":
            # `weather` mirrors `region` into a header (x-mcp-header); `broken`'s annotation is
            # invalid (a header on an object), so a client must leave it out.
            region = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
            bad = {"type": "object", "properties": {"region": {"type": "object", "x-mcp-header": "Region"}}}
            tools = [{"name": "echo", "inputSchema": {"type": "object"}},
                     {"name": "weather", "inputSchema": region}, {"name": "broken", "inputSchema": bad}]
            result = {"tools": tools}
            if modern:
                result.update({"resultType": "complete", "ttlMs": 0, "cacheScope": "private"})
            return self.send_json(200, {"jsonrpc": "2.0", "id": id_, "result": result})
        if method != "tools/call":
            return self.send_json(200, {"jsonrpc": "2.0", "id": id_, "result": {}})
        name = msg["params"]["name"]
        if name == "private" and self.headers.get("Authorization") != "Bearer let-me-in":
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if name == "private":
            return self.send_json(200, text_result(id_, "private", modern))
        if name == "poll":
            event_id = f"poll-{id_}"
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            self.wfile.write(f"id: {event_id}\nretry: 300\ndata: \n\n".encode())
            self.wfile.flush()
            POLLED[event_id] = (id_, time.monotonic())
            self.close_connection = True
            return
        if name == "echo":
            return self.send_json(200, text_result(id_, "echo", modern))
        if name == "linger":
            # The answer, then the stream kept a while before its end (a notification on it):
            # a client that cuts the stream once answered makes the later writes fail.
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            answer = f"event: message\ndata: {json.dumps(text_result(id_, 'lingered', modern))}\n\n".encode()
            later = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "later"}}
            later = f"event: message\ndata: {json.dumps(later)}\n\n".encode()
            try:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(answer), answer))
                self.wfile.flush()
                time.sleep(0.3)
                self.wfile.write(b"%x\r\n%s\r\n" % (len(later), later))
                self.wfile.flush()
                time.sleep(0.05)
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except OSError:
                self.record({"aborted": id_})
                self.close_connection = True
            return
        if name == "weather":
            # What the call's header said: the server reads the parameter from it.
            return self.send_json(200, text_result(id_, f"region {self.headers.get('Mcp-Param-Region')}", modern))
        if name == "status500-json":
            return self.send_json(500, {"jsonrpc": "2.0", "id": id_, "error": {"code": -32603, "message": "the tool broke"}})
        if name == "status500-plain":
            return self.send_text(500, "Internal Server Error")
        if name == "status400-plain":
            return self.send_text(400, "no")
        if name == "cut":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            progress = {"jsonrpc": "2.0", "method": "notifications/progress",
                        "params": {"progressToken": 1, "progress": 1}}
            self.wfile.write(f"data: {json.dumps(progress)}\n\n".encode())
            self.wfile.flush()
            self.close_connection = True
            return
        if name == "json-lines":
            # A 2026-07-28 handler that streams JSON values one after another in an
            # application/json body: a notification, then the answer.
            progress = {"jsonrpc": "2.0", "method": "notifications/progress",
                        "params": {"progressToken": 1, "progress": 1}}
            body = (json.dumps(progress) + "\n" + json.dumps(text_result(id_, "streamed", modern)) + "\n").encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if name == "hang":
            # A stream that never answers: a comment every 100 ms, until the client closes it.
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                for _ in range(300):
                    self.wfile.write(b": waiting\n\n")
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                self.record({"aborted": id_})
            self.close_connection = True
            return
        if name == "silent":
            time.sleep(30)
            return
        if name == "slow-body":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"jsonrpc": "2.0",')
            self.wfile.flush()
            time.sleep(30)
            return
        if name == "huge":
            return self.send_json(200, text_result(id_, "x" * 2_000_000, modern))
        if name == "expire":
            SESSIONS["live"].discard(sid)
            return self.send_json(200, text_result(id_, "expired", modern))
        return self.send_json(200, {"jsonrpc": "2.0", "id": id_, "error": {"code": -32602, "message": f"no tool {name}"}})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
server.serve_forever()
