# The pushed forms of ASOF and IJOIN on MariaDB against the engine: tests/diff/forms.py loads its
# random tables, heavy in ties and NULLs (keys that differ only in case or by a trailing space,
# which MariaDB's default collation calls equal), into a throwaway server (scripts/mariadb.sh)
# and runs every ASOF case (each direction, strict or not, INNER, TIES) and every IJOIN relation
# on INT and DATETIME/DATE endpoints in the engine and pushed under each --pushdown form: every way
# must print the same rows and push every query.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/mariadb.sh stop "$tmp/my"; rm -rf "$tmp"' EXIT
port=$(scripts/mariadb.sh start "$tmp/my") || { echo "cannot start MariaDB"; exit 1; }
mariadb --no-defaults -h 127.0.0.1 -P "$port" -u root -e "CREATE DATABASE forms" || exit 1
python3 "$root/tests/diff/forms.py" "$RELIX" "$tmp" "" 1 30 --mariadb "mysql://root@127.0.0.1:$port/forms" --only
