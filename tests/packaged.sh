#!/usr/bin/env bash
# The types crate as users get it from crates.io: the packaged .crate files of
# mcp-spec-runtime, mcp-spec-protocol and mcp-spec-types (what `cargo package`
# makes), unpacked into a workspace of their own, the runtime crates found through [patch.crates-io]
# as crates.io would serve it. Checked there:
#   - each revision feature alone, and all of them, builds;
#   - the doctests (the crate's README and item docs) run;
#   - the types crate builds for wasm32-unknown-unknown (a types-only crate
#     usable from wasm), its target installed by rustup if it is missing;
#   - the era bridge (mcp-era-bridge) builds from its .crate with the features a
#     user gets, its doctests run, and the binary bridges a modern client and a
#     stand-in legacy server.
# Run by .ci/run after `cargo package`; alone: bash tests/packaged.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' generated/Cargo.toml | head -1)
# cargo verifies the bridge's package against the other two through a local
# registry under target/package, and extracts their .crate files once into
# $CARGO_HOME/registry/src/-<hash of that path>/, reusing the extraction ever
# after: a checkout packaged before would verify against its old sources. The
# extractions of local registries (their folder names start with "-") go first.
for stale in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/mcp-spec-{runtime,protocol,types}-"$version"; do
  [ -e "$stale" ] && rm -rf "$stale"
done
cargo package --locked --quiet -p mcp-spec-runtime -p mcp-spec-protocol -p mcp-spec-types -p mcp-era-bridge
work="$root/target/packaged"
rm -rf "$work"
mkdir -p "$work"
for crate in mcp-spec-runtime mcp-spec-protocol mcp-spec-types mcp-era-bridge; do
  tar -xzf "target/package/$crate-$version.crate" -C "$work"
done
cat > "$work/Cargo.toml" <<EOF
[workspace]
resolver = "3"
members = ["mcp-spec-types-$version", "mcp-era-bridge-$version"]

[patch.crates-io]
mcp-spec-runtime = { path = "mcp-spec-runtime-$version" }
mcp-spec-protocol = { path = "mcp-spec-protocol-$version" }
mcp-spec-types = { path = "mcp-spec-types-$version" }
EOF
cp Cargo.lock "$work/Cargo.lock"
export CARGO_TARGET_DIR="$work/target"
cd "$work"
# The root lock lists members this workspace lacks: cargo drops their entries
# once, offline (nothing fetched, nothing upgraded), and every call after is
# --locked to the result, which must hold only versions the root lock pins.
cargo metadata --offline --quiet --format-version 1 > /dev/null
python3 - "$root/Cargo.lock" Cargo.lock <<'PY'
import sys, tomllib
root, here = ({(p["name"], p["version"]) for p in tomllib.load(open(f, "rb"))["package"]} for f in sys.argv[1:])
if len(here) < 50 or not here <= root:
    sys.exit(f"error: the packaged lock ({len(here)} packages) is not the root lock's: {sorted(here - root)}")
print(f"packaged: {len(here)} locked packages, each at the root lock's version")
PY

# The revision features, from the normalised manifest (one per line there).
features=$(sed -n '/^all-revisions = \[/,/\]/p' "mcp-spec-types-$version/Cargo.toml" | grep -o '"[a-z0-9_]*"' | tr -d '"')
if [ -z "$features" ]; then
  echo "error: the packaged manifest lists no revision features" >&2
  exit 1
fi
for feature in $features all-revisions all-extensions; do
  echo "packaged: cargo check --features $feature"
  cargo check --locked --quiet -p mcp-spec-types --no-default-features --features "$feature"
done

echo "packaged: doctests, every revision"
cargo test --locked --quiet -p mcp-spec-types --all-features --doc

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "packaged: installing the wasm32-unknown-unknown target (rustup)"
  if ! rustup target add wasm32-unknown-unknown; then
    echo "error: rustup could not install wasm32-unknown-unknown for $(rustc --version)" >&2
    exit 1
  fi
fi
echo "packaged: cargo check --target wasm32-unknown-unknown, default and every revision"
cargo check --locked --quiet -p mcp-spec-types --target wasm32-unknown-unknown
cargo check --locked --quiet -p mcp-spec-types --target wasm32-unknown-unknown --features all-revisions
echo "packaged: the era bridge, built from its .crate with a user's features, its doctests"
cargo build --locked --quiet -p mcp-era-bridge
cargo test --locked --quiet -p mcp-era-bridge --doc
echo "packaged: the era bridge between a modern client and a stand-in legacy server"
python3 - "$CARGO_TARGET_DIR/debug/mcp-era-bridge" <<'PY'
import json, subprocess, sys, threading
server = r"""
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m or "method" not in m:
        continue
    if m["method"] == "initialize":
        r = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "stand-in", "version": "1"}}
    elif m["method"] == "tools/list":
        r = {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "Method not found"}}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}), flush=True)
"""
bridge = subprocess.Popen([sys.argv[1], "--", sys.executable, "-c", server], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
timer = threading.Timer(30, bridge.kill)
timer.start()
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
bridge.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}) + "\n")
bridge.stdin.flush()
answer = json.loads(bridge.stdout.readline() or "null")
bridge.stdin.close()
code = bridge.wait()
timer.cancel()
if not answer or answer.get("id") != 1 or answer["result"].get("resultType") != "complete" or answer["result"]["tools"][0]["name"] != "t" or code != 0:
    sys.exit(f"error: the packaged bridge answered {answer!r}, exit {code}")
print("packaged: the bridge answered tools/list as 2026-07-28 from a 2025-11-25 server")
PY
echo "packaged: ok"
