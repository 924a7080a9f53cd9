# Sourced by callgrind.sh and code-touched.sh: from the repository root, checks
# valgrind and the modes asked for (`$1`: read, client or write; all three by
# default, in `pairs`), builds `examples/passes` (`bin`) and makes a scratch
# folder (`out`), removed on exit.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 1; }
pairs="${1:-read client write}"
for pair in $pairs; do
  case "$pair" in read | client | write) ;; *) echo "error: unknown mode $pair (read, client or write)" >&2; exit 1 ;; esac
done
cargo build --locked --quiet --release -p mcp-spec-bench --example passes
bin="${CARGO_TARGET_DIR:-target}/release/examples/passes"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
