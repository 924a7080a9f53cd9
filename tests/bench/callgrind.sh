#!/usr/bin/env bash
# Counts, not times: what one pass over the mixed stream costs ours and
# `serde_json::Value` (reading as the generic message, a client's typed
# reading, writing), as instructions, simulated first-level cache misses and
# branch mispredictions (valgrind's callgrind). The counts do not move with the
# load of a shared machine (hash seeds and addresses vary them by well under a
# percent), so a change's effect shows in one run, where a time needs many
# rounds. Each figure is per pass: a run of 11 passes less a run of 1, over 10.
#
#   bash tests/bench/callgrind.sh              # every mode
#   bash tests/bench/callgrind.sh client       # one pair: read, client or write
set -euo pipefail
source "$(dirname "$0")/passes-build.sh"

# The counters of one run, into a file: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim.
counts() {
  if ! MODE=$1 N=$2 valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes \
    --callgrind-out-file="$out/cg.$1.$2" "$bin" >"$out/log.$1.$2" 2>&1; then
    echo "error: MODE=$1 N=$2 $bin failed:" >&2
    cat "$out/log.$1.$2" >&2
    exit 1
  fi
  sed -n 's/.*Collected : //p' "$out/log.$1.$2" | tr ' ' '\n' >"$out/counts.$1.$2"
  [ "$(wc -l <"$out/counts.$1.$2")" -eq 13 ] || { echo "error: no counts from valgrind for MODE=$1 N=$2" >&2; exit 1; }
}

# The counters of one pass (the two runs one after the other: two cores).
per_pass() {
  counts "$1" 1
  counts "$1" 11
  paste "$out/counts.$1.1" "$out/counts.$1.11" | awk '{d = ($2 - $1) / 10; printf "%.0f ", (d > 0 ? d : 0)}'
}

declare -A instructions
printf '%-14s %12s %10s %10s %10s %10s\n' mode instructions "I1 misses" "D1 misses" "branch mp" "indirect mp"
for pair in $pairs; do
  for mode in "$pair" "$pair-value"; do
    read -r ir _ _ i1 d1r d1w _ _ _ _ bcm _ bim <<<"$(per_pass "$mode")"
    printf '%-14s %12d %10d %10d %10d %10d\n' "$mode" "$ir" "$i1" $((d1r + d1w)) "$bcm" "$bim"
    instructions[$mode]=$ir
  done
  awk -v a="${instructions[$pair]}" -v b="${instructions[$pair-value]}" -v p="$pair" \
    'BEGIN {printf "  %s: Value executes %.2fx ours'"'"' instructions\n", p, b / a}'
done
