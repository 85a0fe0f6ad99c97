#!/bin/sh
# lib.sh - prints the path of libduckdb.so for the DuckDB tests: RELIX_LIBDUCKDB when set, else
# the one npm's @duckdb/node-bindings-linux-x64 puts in bench/node_modules, installing the peers
# first when it is missing (tests/parquet/peers.sh: node, npm, then npm install in bench/).
# Exits non-zero, saying why, when there is none: a DuckDB test then fails, never skips.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${RELIX_LIBDUCKDB:-}" ] && [ -f "$RELIX_LIBDUCKDB" ]; then echo "$RELIX_LIBDUCKDB"; exit 0; fi
so="$root/bench/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so"
[ -f "$so" ] || "$root/tests/parquet/peers.sh" >&2 || { echo "lib.sh: cannot install DuckDB's npm package" >&2; exit 1; }
[ -f "$so" ] || { echo "lib.sh: npm installed no $so" >&2; exit 1; }
echo "$so"
