#!/usr/bin/env bash
# Builds relix (installing the compiler and make if missing) and runs the example scripts of
# examples/, each after a line that says what it shows. Everything they read is in
# examples/data/. They run from inside examples/, so their relative csv() paths hold whether
# they are taken from the script's folder (as relix does) or from the current directory.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh build
make -s -j2

# show FILE WHAT: prints "== examples/FILE: WHAT", then what relix prints for it.
show() {
  printf '== examples/%s: %s\n' "$1" "$2"
  (cd examples && ../build/relix "$1")
  echo
}
show hotel.rx "hotel bookings: which requests clash with a confirmed stay (IJOIN INTERSECTS), which only touch one (MEETS)"
show slippage.rx "trades against quotes: each fill beside the quote in force (ASOF), slippage and quote age; then quotes at most 5 minutes old"
show genes.rx "genomics: UCSC genes on chr21 (+ strand) lying inside lamina-associated domains (IJOIN DURING on 828 x 1,344 BED rows)"
show gaps.rx "maintenance windows: pairs with unscheduled time between them (IJOIN PRECEDES) and the gap's length"

# Any other script in examples/: its first line says what it is.
for f in examples/*.rx; do
  case "$(basename "$f")" in hotel.rx | slippage.rx | genes.rx | gaps.rx) continue ;; esac
  show "$(basename "$f")" "$(head -n 1 "$f" | sed 's/^-- *//')"
done
