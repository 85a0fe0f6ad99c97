# Random queries over random tables print the same bytes with the optimizer on, off
# (--no-optimize) and with equi-joins as nested loops (--no-hashjoin).
python3 tests/diff/optimizer.py "$RELIX" 150
