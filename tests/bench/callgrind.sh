#!/usr/bin/env bash
# Counts, not times: what one pass over the mixed stream costs ours and
# `serde_json::Value` (reading as the generic message, a client's typed
# reading, writing), as instructions, simulated first-level cache misses and
# branch mispredictions (valgrind's callgrind). The counts do not move with the
# load of a shared machine; a change's effect on them is exact, where a time
# needs many rounds. Each figure is per pass: a run of 11 passes less a run of 1,
# over 10.
#
#   bash tests/bench/callgrind.sh              # every mode
#   bash tests/bench/callgrind.sh client       # one pair
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 1; }
cargo build --quiet --release -p mcp-spec-bench --example passes
bin=target/release/examples/passes
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The counters of one run: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim.
counts() {
  MODE=$1 N=$2 valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes \
    --callgrind-out-file="$out/cg.$1.$2" "$bin" 2>&1 | sed -n 's/.*Collected : //p'
}
per_pass() {
  paste <(counts "$1" 1 | tr ' ' '\n') <(counts "$1" 11 | tr ' ' '\n') | awk '{d = ($2 - $1) / 10; printf "%d ", (d > 0 ? d : 0)}'
}

printf '%-14s %12s %10s %10s %10s %10s\n' mode instructions "I1 misses" "D1 misses" "branch mp" "indirect mp"
for pair in ${1:-read client write}; do
  for mode in "$pair" "$pair-value"; do
    read -r ir _ _ i1 d1r d1w _ _ _ _ bcm _ bim <<<"$(per_pass "$mode")"
    printf '%-14s %12d %10d %10d %10d %10d\n' "$mode" "$ir" "$i1" $((d1r + d1w)) "$bcm" "$bim"
    eval "${mode//-/_}=$ir"
  done
  value="${pair}_value"
  awk -v a="${!pair}" -v b="${!value}" -v p="$pair" 'BEGIN {printf "  %s: Value executes %.2fx ours'"'"' instructions\n", p, b / a}'
done
