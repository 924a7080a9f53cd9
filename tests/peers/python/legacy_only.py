"""A legacy-only server made of a server that speaks both eras: a filter on its
stdio that refuses what a 2025-11-25 server refuses before `initialize` (every
request, `server/discover` with "method not found") and `server/discover` after
it, and passes everything else both ways. Standard library only.

Run:  python3 legacy_only.py SERVER COMMAND...
"""

import json
import subprocess
import sys
import threading

server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out = threading.Lock()


def write(line):
    with out:
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()


def relay_server():
    for line in server.stdout:
        write(line)


threading.Thread(target=relay_server, daemon=True).start()
initialized = False
for line in sys.stdin.buffer:
    try:
        msg = json.loads(line)
    except ValueError:
        msg = {}
    method, id_ = msg.get("method"), msg.get("id")
    if method == "initialize":
        initialized = True
    refused = None
    if method == "server/discover":
        refused = {"code": -32601, "message": "Method not found"}
    elif not initialized and method is not None:
        refused = {"code": -32600, "message": "Bad Request: Server not initialized"}
    if refused is not None:
        if id_ is not None:
            write((json.dumps({"jsonrpc": "2.0", "id": id_, "error": refused}) + "\n").encode())
        continue
    server.stdin.write(line)
    server.stdin.flush()
server.stdin.close()
sys.exit(server.wait())
