#!/usr/bin/env bash
# Mutation testing of the suite itself (issue #17): cargo-mutants mutates one
# file of the generator and runs the tests that should notice. Not part of CI
# (a file takes one to two hours on two cores); the last results, and why each
# surviving mutant survives, are in docs/testing.md (Mutation testing of the suite).
#
#   bash tests/mutants.sh FILE [SHARD/SHARDS] [-- cargo-mutants flags...]
#   bash tests/mutants.sh codegen/src/rule.rs 3/8
#
# It runs in a scratch clone under target/mutants (cargo-mutants edits the
# tree in place there), with cargo-mutants 27.1 installed under target/ when
# missing. The tests live in mcp-spec-tests, not in the mutated package, so a
# `cargo` wrapper sends cargo-mutants' `--package=mcp-spec-codegen` there.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
file=${1:?usage: tests/mutants.sh FILE [SHARD/SHARDS] [-- flags]}
shift
shard=()
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  shard=(--shard "$1")
  shift
fi
[ "${1:-}" = "--" ] && shift
case "$file" in
  codegen/src/rule.rs) filters="the_models_account unions meaning codegen fixture diff hostile" ;;
  codegen/src/diff/*) filters="diff fixture registry html codegen" ;;
  codegen/src/lower/*) filters="codegen fixture diagnostics negative examples the_models_account registry diff" ;;
  *) filters="" ;;
esac

tools="$root/target/mutants-tools"
if [ ! -x "$tools/bin/cargo-mutants" ]; then
  cargo install --quiet --locked --version 27.1.0 --root "$tools" cargo-mutants
fi
wrapper="$root/target/mutants-wrapper"
mkdir -p "$wrapper"
real_cargo=$(command -v cargo)
cat > "$wrapper/cargo" <<EOF
#!/usr/bin/env bash
args=()
for a in "\$@"; do
  case "\$a" in
    --package=mcp-spec-types@*|--package=mcp-spec-codegen@*) args+=("--package=mcp-spec-tests") ;;
    *) args+=("\$a") ;;
  esac
done
exec "$real_cargo" "\${args[@]}"
EOF
chmod +x "$wrapper/cargo"

scratch="$root/target/mutants/tree"
rm -rf "$scratch"
mkdir -p "$(dirname "$scratch")"
git clone --quiet "$root" "$scratch"
# The spec inputs are the scratch tree's own pinned copy (spec/), unless MCP_SPEC_DIR names others.
name=$(echo "$file" | sed 's,codegen/src/,,; s,/,_,g; s,\.rs$,,')${shard[1]:+-${shard[1]//\//of}}
cd "$scratch"
PATH="$wrapper:$PATH" "$tools/bin/cargo-mutants" mutants --in-place -f "$file" "${shard[@]}" --all-features \
  --baseline skip --timeout 240 --build-timeout 400 -o "$root/target/mutants/$name" "$@" \
  -- --test all --test golden -- $filters
