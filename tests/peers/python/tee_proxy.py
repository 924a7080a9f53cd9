"""stdio tee proxy: run a server command, forward stdin/stdout unchanged, log every line.

  python tee_proxy.py LOG.jsonl -- server-cmd args...

Each JSONL record: {"t": seconds_since_start, "dir": "c2s"|"s2c", "msg": <parsed JSON or raw string>}.
Use it as the *server command* of any client, e.g.
  client.py --mode legacy -- python tee_proxy.py legacy.jsonl -- python server.py
The child's stderr is passed through. Stdlib only.
"""

import json
import subprocess
import sys
import threading
import time


def main() -> int:
    log_path, rest = sys.argv[1], sys.argv[2:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    child = subprocess.Popen(rest, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    log = open(log_path, "w", buffering=1)
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
        for line in iter(src.readline, b""):
            record(direction, line)
            dst.write(line)
            dst.flush()
        dst.close()

    up = threading.Thread(target=pump, args=(sys.stdin.buffer, child.stdin, "c2s"), daemon=True)
    up.start()
    pump(child.stdout, sys.stdout.buffer, "s2c")  # ends when the server closes stdout
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
