#!/usr/bin/env bash
# The generator over upstream's whole schema history: every commit of a checkout of
# modelcontextprotocol/modelcontextprotocol where a `schema/<rev>/schema.ts`, or the
# early single-file `schema/schema.ts`, was added or changed. Each is checked out as
# its whole folder (so `@includeCode` finds its examples) into a spec folder of its
# own (the early layout as `schema/early/`) and generated alone, without extensions.
# One line per (commit, file): `ok`, or the first error with its place; then the counts.
#
#   bash tests/history.sh UPSTREAM [BASE]
#
# With BASE (a commit of this repository), the same with that commit's generator,
# side by side, and the regressions: files BASE generated that this tree does not.
# Builds the generator(s) optimised under target/history/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
upstream=$(cd "${1:?usage: bash tests/history.sh UPSTREAM [BASE]}" && pwd)
base="${2:-}"
work="$root/target/history"
mkdir -p "$work"
: > "$work/no-extensions.toml"
mkdir -p "$work/no-extensions"

build() { # $1: a folder with the workspace; $2: its target folder
  CARGO_TARGET_DIR="$2" cargo build --quiet --locked --release -p xtask --manifest-path "$1/Cargo.toml"
  echo "$2/release/xtask"
}
ours=$(build "$root" "$work/target")
theirs=""
if [ -n "$base" ]; then
  rm -rf "$work/base"
  git -C "$root" worktree add --force --detach "$work/base" "$base" > /dev/null
  theirs=$(build "$work/base" "$work/base-target")
fi

# (commit, file) pairs, oldest first; renames count as additions.
git -C "$upstream" log --reverse --no-renames --diff-filter=AM --format='C %H' --name-only -- \
  'schema/*/schema.ts' 'schema/schema.ts' |
  awk '/^C /{c=$2; next} /schema\.ts$/{print c, $0}' > "$work/pairs.txt"

generate() { # $1: xtask, $2: spec folder, $3: out folder; prints ok or the first error
  if out=$("$1" codegen --spec-dir "$2" --out "$3" --ext-dir "$work/no-extensions" \
      --ext-manifest "$work/no-extensions.toml" 2>&1); then
    echo ok
  else
    echo "$out" | grep -m1 -A1 '^error' | tr '\n' ' ' | cut -c1-300
  fi
}

total=0; ok=0; base_ok=0; regressions=0
while read -r commit file; do
  total=$((total + 1))
  spec="$work/spec"; rm -rf "$spec" "$work/out"; mkdir -p "$spec/schema"
  if [ "$file" = schema/schema.ts ]; then
    folder=schema; rev=early
  else
    folder=$(dirname "$file"); rev=$(basename "$folder")
  fi
  mkdir -p "$spec/stage"
  git -C "$upstream" archive "$commit" "$folder" | tar -x -C "$spec/stage"
  if [ "$rev" = early ]; then
    mkdir -p "$spec/schema/early"
    find "$spec/stage/schema" -maxdepth 1 -type f -exec cp {} "$spec/schema/early/" \;
  else
    mv "$spec/stage/$folder" "$spec/schema/$rev"
  fi
  rm -rf "$spec/stage"
  mine=$(generate "$ours" "$spec" "$work/out")
  [ "$mine" = ok ] && ok=$((ok + 1))
  line="${commit:0:10} $file: $mine"
  if [ -n "$theirs" ]; then
    rm -rf "$work/out"
    was=$(generate "$theirs" "$spec" "$work/out")
    [ "$was" = ok ] && base_ok=$((base_ok + 1))
    if [ "$was" = ok ] && [ "$mine" != ok ]; then regressions=$((regressions + 1)); line="$line  [REGRESSION: $base generated it]"; fi
    [ "$was" != ok ] && [ "$mine" = ok ] && line="$line  [$base did not: $was]"
  fi
  echo "$line"
done < "$work/pairs.txt"
echo
echo "$ok of $total generate$([ -n "$theirs" ] && echo "; $base_ok with $base; $regressions regressions")"
[ -n "$base" ] && git -C "$root" worktree remove --force "$work/base"
[ "$regressions" -eq 0 ]
