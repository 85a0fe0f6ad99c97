# Secrets never leak (tests/data_safety_secrets.sh): a password in PGPASSWORD and in every
# spelling of a connection string, checked on stdout, stderr, the report, the -o file, the
# REPL's history file and terminal, and against a live server that requires a password.
bash tests/data_safety_secrets.sh
