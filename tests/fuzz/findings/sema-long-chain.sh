#!/usr/bin/env bash
# Prints a script whose query is one flat chain of 100,000 '+' terms (or, with "union", of
# 50,000 '∪'). Not nested, so the parser's depth limit does not apply; relix dies of a stack
# overflow (SIGSEGV, exit 139) in sema_expr / sema_rel. Usage:
#   tests/fuzz/findings/sema-long-chain.sh | build/relix; echo $?
#   tests/fuzz/findings/sema-long-chain.sh union | build/relix; echo $?
printf 'T := [\n| a |\n|---|\n| 1 |\n];\n'
if [ "${1:-}" = union ]; then
  python3 -c "import sys; sys.stdout.write('query { T' + ' ∪ T' * 50000 + ' };\n')"
else
  python3 -c "import sys; sys.stdout.write('query { π 1' + ' + 1' * 100000 + ' → x (T) };\n')"
fi
