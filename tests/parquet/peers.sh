#!/bin/sh
# peers.sh - makes sure the Parquet oracle tests can run: node and npm (apt-get, as
# scripts/deps.sh test installs them) and DuckDB's and Polars' Node packages in
# bench/node_modules (npm install, versions pinned in bench/package.json, as
# bench/install-peers.sh does without the benchmark-only peers). Prints nothing when everything
# is present; exits non-zero, saying what is missing, when it cannot be installed, so that a
# test that needs the peers fails instead of skipping.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    "$root/scripts/deps.sh" test >&2 || { echo "peers: cannot install node and npm" >&2; exit 1; }
fi
b="$root/bench"
if [ ! -d "$b/node_modules/@duckdb/node-api" ] || [ ! -d "$b/node_modules/nodejs-polars" ] ||
   [ ! -d "$b/node_modules/nodejs-polars-linux-x64-gnu" ]; then
    # npm's own output (warnings included) only when the install fails: a test's stderr is
    # part of its expected output
    log=$(mktemp)
    if ! (cd "$b" && npm install --no-audit --no-fund > "$log" 2>&1); then
        cat "$log" >&2
        rm -f "$log"
        echo "peers: npm install failed in bench/" >&2
        exit 1
    fi
    rm -f "$log"
fi
node -e "const r = require('module').createRequire('$b/package.json'); r('@duckdb/node-api'); r('nodejs-polars');" ||
    { echo "peers: DuckDB or Polars does not load under node" >&2; exit 1; }
