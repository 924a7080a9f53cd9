#!/usr/bin/env bash
# Generation time and compile time, ours and theirs side by side in one run,
# with ratios; and the size of what we generate. Prints a report for BENCHMARKS.md.
#
#   bash tests/bench/compare.sh            # ROUNDS=5 by default
#
# Installs cargo-typify 0.8 (the peer for generation) under target/bench-tools
# and builds scratch crates under target/bench-compile. Needs the spec inputs
# (MCP_SPEC_DIR, else the repository's pinned copy, spec/mcp).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
spec="${MCP_SPEC_DIR:-$root/spec/mcp}"
[ -d "$spec/schema" ] || { echo "error: the MCP spec inputs are missing: looked for $spec/schema (set MCP_SPEC_DIR)" >&2; exit 1; }
spec=$(cd "$spec" && pwd)
rounds="${ROUNDS:-5}"
work="$root/target/bench-compile"
tools="$root/target/bench-tools"
mkdir -p "$work" "$tools"

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { awk -v n="$1" 'BEGIN {printf "%.0f", n/1e6}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a/b}'; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(rustc --version)"
echo "rounds: $rounds (medians; contenders interleaved round by round)"

# --- generation -------------------------------------------------------------
echo; echo "== generation: all six revisions, whole process, release build, writing to a temporary folder"
cargo build --locked --quiet --release -p xtask
if [ ! -x "$tools/bin/cargo-typify" ]; then
  cargo install --quiet --locked --version 0.8.0 --root "$tools" cargo-typify || echo "note: cargo-typify could not be installed; compare with the absolute figures in the issue"
fi
revs=$(ls "$spec/schema")
ours_gen=(); typify_gen=()
typify_failed=""
for r in $(seq "$rounds"); do
  out=$(mktemp -d)
  t0=$(now); "$root/target/release/xtask" codegen --spec-dir "$spec" --out "$out/generated" 2>/dev/null; t1=$(now)
  ours_gen+=($((t1 - t0)))
  if [ -x "$tools/bin/cargo-typify" ]; then
    t0=$(now)
    for rev in $revs; do
      "$tools/bin/cargo-typify" typify "$spec/schema/$rev/schema.json" --output "$out/$rev.rs" >/dev/null 2>&1 || typify_failed="$typify_failed $rev"
    done
    t1=$(now)
    typify_gen+=($((t1 - t0)))
  fi
  rm -rf "$out"
done
og=$(printf '%s\n' "${ours_gen[@]}" | median)
echo "mcp-spec (cargo xtask codegen):  $(ms "$og") ms"
if [ ${#typify_gen[@]} -gt 0 ]; then
  tg=$(printf '%s\n' "${typify_gen[@]}" | median)
  echo "typify 0.8 (six schema.json):    $(ms "$tg") ms$( [ -n "$typify_failed" ] && echo "  (failed on:$(echo "$typify_failed" | tr ' ' '\n' | sort -u | tr '\n' ' '))")"
  gr=$(paste -d' ' <(printf '%s\n' "${ours_gen[@]}") <(printf '%s\n' "${typify_gen[@]}") | awk '{printf "%.6f\n", $1/$2}' | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}')
  echo "ratio ours / typify:             $gr (paired; of medians $(ratio "$og" "$tg"))  (goal: at most 0.100)"
fi

# --- compile time -----------------------------------------------------------
# Without incremental compilation, for every crate: a dependency from crates.io is
# never built incrementally, but a path dependency (ours, here) is by default, and
# writing the incremental cache costs about a third more. Measured as a user gets both.
export CARGO_INCREMENTAL=0
echo; echo "== compile time: the types crate with its two runtime crates (theirs: the one crate), debug, other dependencies already built, CARGO_INCREMENTAL=0"
mk() { # name, dependency line
  mkdir -p "$work/$1/src"
  printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n%s\n\n[workspace]\n' "$1" "$2" > "$work/$1/Cargo.toml"
  echo "" > "$work/$1/src/lib.rs"
  cp "$root/Cargo.lock" "$work/$1/Cargo.lock" 2>/dev/null || true
}
mk ours-all "mcp-spec-types = { path = \"$root/generated\", default-features = false, features = [\"v2024_11_05\", \"v2025_03_26\", \"v2025_06_18\", \"v2025_11_25\", \"v2026_07_28\", \"draft\"] }"
for rev in v2025_11_25 v2026_07_28; do
  mk "ours-$rev" "mcp-spec-types = { path = \"$root/generated\", default-features = false, features = [\"$rev\"] }"
  mk "theirs-$rev" "rust-mcp-schema = { version = \"=2.0.0\", default-features = false, features = [\"${rev#v}\"] }"
done
# A user's crate: reads one generic JSON-RPC message of 2026-07-28 and writes it
# back. Serde's code for the message compiles here (ours: the unions' inline
# readers too), so this is where a crate's cost moves when the types crate
# itself leaves it to its users; timed alone and with the types crate.
user() { # name, dependency line, message type
  mk "$1" "$2
serde_json = \"1\""
  printf 'pub fn round_trip(text: &str) -> Option<String> {\n    let message: %s = serde_json::from_str(text).ok()?;\n    serde_json::to_string(&message).ok()\n}\n' "$3" > "$work/$1/src/lib.rs"
}
user user-ours "mcp-spec-types = { path = \"$root/generated\", default-features = false, features = [\"v2026_07_28\"] }" mcp_spec_types::v2026_07_28::JSONRPCMessage
user user-theirs "rust-mcp-schema = { version = \"=2.0.0\", default-features = false, features = [\"2026_07_28\"] }" rust_mcp_schema::mcp_2026_07_28::JsonrpcMessage
build() { # crate, packages to rebuild (ours: the types crate and its runtime crates, all built from scratch)
  (cd "$work/$1" && cargo build --quiet 2>/dev/null && cargo clean --quiet $2 && t0=$(now) && cargo build --quiet && t1=$(now) && echo $((t1 - t0)))
}
ours="-p mcp-spec-types -p mcp-spec-runtime -p mcp-spec-protocol"
crates="ours-v2025_11_25 theirs-v2025_11_25 ours-v2026_07_28 theirs-v2026_07_28 ours-all"
for c in $crates user-ours user-theirs; do (cd "$work/$c" && cargo build --quiet); done
declare -A times
for r in $(seq "$rounds"); do
  for c in $crates; do
    case $c in ours-*) p=$ours ;; *) p="-p rust-mcp-schema" ;; esac
    times[$c]="${times[$c]:-} $(build "$c" "$p")"
  done
  times[user-ours]="${times[user-ours]:-} $(build user-ours "-p user-ours")"
  times[user-theirs]="${times[user-theirs]:-} $(build user-theirs "-p user-theirs")"
  times[user-ours+]="${times[user-ours+]:-} $(build user-ours "$ours")"
  times[user-theirs+]="${times[user-theirs+]:-} $(build user-theirs "-p rust-mcp-schema")"
done
med() { printf '%s\n' ${times[$1]} | median; }
# The median of the per-round ratios of two crates' times: this machine's speed
# drifts by a third within minutes, and two builds of one round see the same.
paired() { paste -d' ' <(printf '%s\n' ${times[$1]}) <(printf '%s\n' ${times[$2]}) | awk '{printf "%.6f\n", $1/$2}' | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }
for rev in v2025_11_25 v2026_07_28; do
  o=$(med "ours-$rev"); t=$(med "theirs-$rev")
  echo "$rev: mcp-spec-types $(ms "$o") ms, rust-mcp-schema 2.0.0 $(ms "$t") ms, ratio $(paired "ours-$rev" "theirs-$rev") (paired; of medians $(ratio "$o" "$t"))  (goal: at most 0.5)"
done
a=$(med ours-all)
echo "all six revisions, conversions included: $(ms "$a") ms; over rust-mcp-schema's one revision (2026_07_28) $(paired ours-all theirs-v2026_07_28) (paired; of medians $(ratio "$a" "$(med theirs-v2026_07_28)"))  (goal: at most 1.5)"
echo "  over our v2025_11_25 alone $(paired ours-all ours-v2025_11_25), over v2026_07_28 (the default) alone $(paired ours-all ours-v2026_07_28) (paired; of medians $(ratio "$a" "$(med ours-v2026_07_28)"))"
uo=$(med user-ours); ut=$(med user-theirs); uo2=$(med user-ours+); ut2=$(med user-theirs+)
echo "a user's crate reading and writing the generic message (2026-07-28): alone ours $(ms "$uo") ms, theirs $(ms "$ut") ms, ratio $(paired user-ours user-theirs);"
echo "  with the types crate: ours $(ms "$uo2") ms, theirs $(ms "$ut2") ms, ratio $(paired user-ours+ user-theirs+)"

# --- size -------------------------------------------------------------------
echo; echo "== size"
for f in "$root"/generated/src/*.rs; do printf '  %-16s %7d lines\n' "$(basename "$f")" "$(wc -l < "$f")"; done
for c in ours-v2026_07_28 ours-all; do
  rlib=$(ls -S "$work/$c/target/debug/deps/"libmcp_spec_types-*.rlib | head -1)
  printf '  rlib (%s, debug): %s KiB\n' "$c" "$(( $(stat -c %s "$rlib") / 1024 ))"
done
