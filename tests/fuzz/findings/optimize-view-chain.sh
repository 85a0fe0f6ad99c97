#!/usr/bin/env bash
# Prints a script of 50,000 views, each the one before (V1 := { V0 }; ...), and a query of
# the last. relix dies of a stack overflow (SIGSEGV, exit 139) in optimize()
# (src/rewrite/optimize.c) after inlining. Usage:
#   tests/fuzz/findings/optimize-view-chain.sh | build/relix; echo $?
printf 'T := [\n| a |\n|---|\n| 1 |\n];\nV0 := { T };\n'
python3 -c "import sys; sys.stdout.write(''.join('V%d := { V%d };\n' % (i, i - 1) for i in range(1, 50001)) + 'query { V50000 };\n')"
