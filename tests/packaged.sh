#!/usr/bin/env bash
# The types crate as users get it from crates.io: the packaged .crate files of
# mcp-spec-runtime and mcp-spec-types (what `cargo package` makes), unpacked
# into a workspace of their own, the runtime found through [patch.crates-io]
# as crates.io would serve it. Checked there:
#   - each revision feature alone, and all of them, builds;
#   - the doctests (the crate's README and item docs) run;
#   - the types crate builds for wasm32-unknown-unknown (a types-only crate
#     usable from wasm), its target installed by rustup if it is missing.
# Run by .ci/run after `cargo package`; alone: bash tests/packaged.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

cargo package --locked --quiet -p mcp-spec-runtime -p mcp-spec-types
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' generated/Cargo.toml | head -1)
work="$root/target/packaged"
rm -rf "$work"
mkdir -p "$work"
for crate in mcp-spec-runtime mcp-spec-types; do
  tar -xzf "target/package/$crate-$version.crate" -C "$work"
done
cat > "$work/Cargo.toml" <<EOF
[workspace]
resolver = "3"
members = ["mcp-spec-types-$version"]

[patch.crates-io]
mcp-spec-runtime = { path = "mcp-spec-runtime-$version" }
EOF
cp Cargo.lock "$work/Cargo.lock"
export CARGO_TARGET_DIR="$work/target"
cd "$work"

# The revision features, from the normalised manifest (one per line there).
features=$(sed -n '/^all-revisions = \[/,/\]/p' "mcp-spec-types-$version/Cargo.toml" | grep -o '"[a-z0-9_]*"' | tr -d '"')
if [ -z "$features" ]; then
  echo "error: the packaged manifest lists no revision features" >&2
  exit 1
fi
for feature in $features all-revisions all-extensions; do
  echo "packaged: cargo check --features $feature"
  cargo check --quiet -p mcp-spec-types --no-default-features --features "$feature"
done

echo "packaged: doctests, every revision"
cargo test --quiet -p mcp-spec-types --all-features --doc

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "packaged: installing the wasm32-unknown-unknown target (rustup)"
  if ! rustup target add wasm32-unknown-unknown; then
    echo "error: rustup could not install wasm32-unknown-unknown for $(rustc --version)" >&2
    exit 1
  fi
fi
echo "packaged: cargo check --target wasm32-unknown-unknown, default and every revision"
cargo check --quiet -p mcp-spec-types --target wasm32-unknown-unknown
cargo check --quiet -p mcp-spec-types --target wasm32-unknown-unknown --features all-revisions
echo "packaged: ok"
