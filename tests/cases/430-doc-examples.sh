# The documentation's examples (issue #8): every ```relix block of docs/*.md runs through relix
# and must print exactly its ```output / ```error / ```written blocks; every operator of the
# grammar, every function, every ASOF clause and csv option has an example; every option of
# src/cli/main.c is in --help and docs/relix.1. tests/doc_examples.py says how; a failure names
# the document and line.
python3 tests/doc_examples.py --relix "$RELIX"
