"""stdio tee proxy: run a server command, forward stdin/stdout unchanged, log every line.

  python tee_proxy.py LOG.jsonl -- server-cmd args...

Each JSONL record: {"t": seconds_since_start, "dir": "c2s"|"s2c", "msg": <parsed JSON or raw string>}.
Use it as the *server command* of any client, e.g.
  client.py --mode legacy -- python tee_proxy.py legacy.jsonl -- python server.py
The child's stderr is passed through. Stdlib only.

A client may start the same command more than once: the TypeScript SDK v2
probes a stdio server's era on a disposable sibling process before it starts
the session's own. LOG.jsonl is always the latest session; an earlier one
still running keeps its file, renamed to LOG.earlier-N.jsonl (a rename keeps
the open file), so no session's lines overwrite another's.

SIGTERM is passed on to the child as a stdio client ends a server (its stdin
closed first), and the proxy exits when the child's stdout ends.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time


def open_log(path: str):
    """A fresh LOG.jsonl, any earlier session's file moved aside first."""
    stem = path[:-len(".jsonl")] if path.endswith(".jsonl") else path
    n = 1
    while os.path.exists(path):
        earlier = f"{stem}.earlier-{n}.jsonl"
        if not os.path.exists(earlier):
            os.rename(path, earlier)
            break
        n += 1
    return open(path, "x", buffering=1)


def main() -> int:
    log_path, rest = sys.argv[1], sys.argv[2:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    log = open_log(log_path)
    child = subprocess.Popen(rest, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()
    t0 = time.monotonic()

    def record(direction: str, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\n")
        try:
            msg = json.loads(text)
        except ValueError:
            msg = text
        with lock:
            log.write(json.dumps({"t": round(time.monotonic() - t0, 4), "dir": direction, "msg": msg}) + "\n")

    def pump(src, dst, direction: str) -> None:
        try:
            for line in iter(src.readline, b""):
                record(direction, line)
                dst.write(line)
                dst.flush()
        except (BrokenPipeError, ValueError):
            pass
        try:
            dst.close()
        except (BrokenPipeError, ValueError):
            pass

    def terminate(_signum, _frame) -> None:
        try:
            child.stdin.close()
        except (BrokenPipeError, ValueError):
            pass
        child.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, terminate)
    up = threading.Thread(target=pump, args=(sys.stdin.buffer, child.stdin, "c2s"), daemon=True)
    up.start()
    pump(child.stdout, sys.stdout.buffer, "s2c")  # ends when the server closes stdout
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
