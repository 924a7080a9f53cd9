#!/usr/bin/env bash
# How much code one pass over the mixed stream runs: the distinct 64-byte lines
# of machine code executed, ours and `serde_json::Value` side by side, split by
# whose functions they are (by symbol name: a function of this crate, of serde
# or serde_json, or anything else: std, the allocator, memcpy). It is the
# working set the first-level instruction cache (32 KiB here) must hold; where
# it is several times larger, each message fetches its code again, which is
# what `callgrind.sh`'s "I1 misses" counts. Deterministic, like callgrind.sh.
#
#   bash tests/bench/code-touched.sh           # read, client, write
#   bash tests/bench/code-touched.sh client    # one pair
set -euo pipefail
command -v python3 >/dev/null || { echo "error: python3 is not installed" >&2; exit 1; }
source "$(dirname "$0")/passes-build.sh"

printf '%-14s %10s %10s %14s %10s\n' mode "code KiB" "ours KiB" "serde(_json)" "other"
for pair in $pairs; do
  for mode in "$pair" "$pair-value"; do
    # One pass, counted only inside `measured_passes` (the setup is not).
    if ! MODE=$mode N=1 valgrind --tool=callgrind --dump-instr=yes --dump-line=no \
      --collect-atstart=no --toggle-collect='*measured_passes*' \
      --callgrind-out-file="$out/cg.$mode" "$bin" >"$out/log.$mode" 2>&1; then
      echo "error: MODE=$mode $bin failed:" >&2
      cat "$out/log.$mode" >&2
      exit 1
    fi
    python3 - "$out/cg.$mode" "$mode" <<'PY'
import re, sys

path, mode = sys.argv[1], sys.argv[2]
names = {}  # callgrind's compressed names: "(id) name" once, "(id)" after
lines = {"ours": set(), "serde": set(), "other": set()}
current, last = None, 0

def owner(name):
    if "mcp_spec_types" in name:
        return "ours"
    if "serde" in name:
        return "serde"
    return "other"

for line in open(path):
    if line.startswith(("fn=", "cfn=")):
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        if line.startswith("fn="):
            current = owner(names[m.group(1)])
        continue
    m = re.match(r"(0x[0-9a-fA-F]+|[+-]\d+|\*)\s", line)
    if not m or current is None:
        continue  # headers, cfn=/calls= lines (their cost line follows, with the call's address)
    token = m.group(1)
    last = int(token, 16) if token.startswith("0x") else last if token == "*" else last + int(token)
    lines[current].add(last >> 6)

every = lines["ours"] | lines["serde"] | lines["other"]
if not every:
    sys.exit(f"error: no code counted for MODE={mode} (is measured_passes still in passes.rs?)")
kib = lambda s: len(s) * 64 / 1024
print(f"{mode:<14} {kib(every):10.1f} {kib(lines['ours']):10.1f} {kib(lines['serde']):14.1f} {kib(lines['other']):10.1f}")
PY
  done
done
