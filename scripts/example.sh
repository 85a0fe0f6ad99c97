#!/usr/bin/env bash
# Builds relix (installing the compiler and make if missing) and runs the example scripts.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh build
make -s -j2
for f in examples/*.rx; do
  echo "== $f"
  build/relix "$f"
  echo
done
