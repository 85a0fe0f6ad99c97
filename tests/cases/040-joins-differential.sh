# Randomized differential test of IJOIN (14 relations) and ASOF (4 directions, INNER/outer,
# TIES, WITHIN) over INT, FLOAT, TEXT, DATE and TIMESTAMP columns with ties, empty and
# inverted intervals, duplicates and NULLs: every algorithm switch against a brute-force oracle.
python3 tests/diff/joins.py "$RELIX" 150
