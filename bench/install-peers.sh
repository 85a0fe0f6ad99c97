#!/bin/sh
# install-peers.sh - installs the peer engines the hand-run benchmarks compare Relix with:
# PostgreSQL 15, bedtools and python3-pandas from Debian, and DuckDB's and Polars' Node packages
# (versions pinned in bench/package.json) into bench/node_modules. Idempotent: apt-get runs
# (after one apt-get update) only when a package is missing, npm only when a module is.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

missing=""
for pkg in postgresql-15 bedtools python3-pandas; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $pkg"
done
# Node may come from Debian (nodejs + npm) or from a vendor package that bundles npm.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
# A PostgreSQL 15 server already on the machine (outside Debian's package) is enough.
if [ -n "$missing" ] && echo "$missing" | grep -q postgresql-15 &&
   { command -v pg_ctl >/dev/null 2>&1 || [ -x /usr/lib/postgresql/15/bin/pg_ctl ]; }; then
    missing=$(echo "$missing" | sed 's/postgresql-15//')
fi
case "$missing" in *[a-z]*)
    echo "install-peers: apt-get install$missing"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
    ;;
esac

if [ ! -d "$here/node_modules/@duckdb/node-api" ] ||
   [ ! -d "$here/node_modules/nodejs-polars" ] ||
   [ ! -d "$here/node_modules/nodejs-polars-linux-x64-gnu" ]; then
    echo "install-peers: npm install in $here"
    (cd "$here" && npm install --no-audit --no-fund)
fi
echo "install-peers: all peers present"
