# make install PREFIX=DIR, then a C program built against the installed library through
# pkg-config alone (examples/embed.c: an inline table, an AS-OF query, the typed accessors, an
# error): linked with the shared library (its soname, and only the public API exported), and
# statically with pkg-config --static. Installs from the plain build in build/, whatever build
# the suite runs on.
set -u
for t in pkg-config cc make; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "$t is not installed (scripts/deps.sh test installs it)"
    exit 1
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plain_make() { env -u BUILD -u SAN -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s "$@"; }
plain_make all || exit 1
plain_make install PREFIX="$tmp/prefix" || exit 1
echo "== installed"
(cd "$tmp/prefix" && find . -type f | LC_ALL=C sort)
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
echo "== pkg-config"
pkg-config --modversion relix | sed 's/[0-9][0-9.]*/N/'
pkg-config --cflags relix | sed "s|$tmp/prefix|PREFIX|g; s| *$||"
"$tmp/prefix/bin/relix" --version | sed 's/[0-9][0-9.]*/N/'
echo "== examples/embed.c"
cc -std=c11 -Wall -Wextra -Wshadow -Wmissing-prototypes -o "$tmp/embed" examples/embed.c \
  $(pkg-config --cflags --libs relix) || exit 1
LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/embed"; echo "exit $?"
echo "== shared"
LD_LIBRARY_PATH="$tmp/prefix/lib" ldd "$tmp/embed" | grep -o 'librelix[^ ]*' | head -n 1
objdump -p "$tmp/prefix/lib/librelix.so.0" | awk '$1 == "SONAME" { print "soname", $2 }'
# every exported function is declared in relix.h
nm -D --defined-only "$tmp/prefix/lib/librelix.so.0" | awk '$2 == "T" { print $3 }' | sort > "$tmp/exported"
missing=$(while read -r f; do grep -q "\b$f(" include/relix.h || echo "$f"; done < "$tmp/exported")
echo "exported: $(wc -l < "$tmp/exported" | tr -d ' ') functions, not in relix.h: ${missing:-none}"
echo "== static"
cc -std=c11 -o "$tmp/embed_static" examples/embed.c $(pkg-config --cflags relix) "$tmp/prefix/lib/librelix.a" \
  $(pkg-config --static --libs-only-l relix | sed 's/-lrelix//') || exit 1
"$tmp/embed_static" > "$tmp/static.out"; echo "exit $?"
LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/embed" | cmp -s - "$tmp/static.out" && echo "same output"
