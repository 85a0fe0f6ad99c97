#!/usr/bin/env bash
# Installs Relix under a prefix; `make install PREFIX=DIR` runs it after building.
#   scripts/install.sh PREFIX
# PREFIX/bin/relix, PREFIX/lib/librelix.a, PREFIX/lib/librelix.so.0 (and librelix.so),
# PREFIX/include/relix.h, PREFIX/lib/pkgconfig/relix.pc and PREFIX/share/man/man1/relix.1, taken
# from $BUILD (build/ by default, as make sets it). An embedding program then builds with
#   cc prog.c $(PKG_CONFIG_PATH=PREFIX/lib/pkgconfig pkg-config --cflags --libs relix)
# (the shared library), or with --static added, against the static one.
set -eu
if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: scripts/install.sh PREFIX" >&2
  exit 2
fi
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
build=${BUILD:-build}
for f in "$build/relix" "$build/librelix.a" "$build/librelix.so.0" include/relix.h docs/relix.1; do
  if [ ! -f "$f" ]; then
    echo "install: $f is missing (run make first)" >&2
    exit 1
  fi
done
install -d "$prefix/bin" "$prefix/lib/pkgconfig" "$prefix/include" "$prefix/share/man/man1"
install -m 755 "$build/relix" "$prefix/bin/relix"
install -m 644 "$build/librelix.a" "$prefix/lib/librelix.a"
install -m 755 "$build/librelix.so.0" "$prefix/lib/librelix.so.0"
ln -sf librelix.so.0 "$prefix/lib/librelix.so"
install -m 644 include/relix.h "$prefix/include/relix.h"
install -m 644 docs/relix.1 "$prefix/share/man/man1/relix.1"

version=$(sed -n 's/^#define RELIX_VERSION "\(.*\)"$/\1/p' include/relix.h)
# Linked statically (pkg-config --static), a program links what the library calls: the
# database clients only when the archive refers to them.
libs=""
undefined=$(nm -u "$build/librelix.a" 2>/dev/null || true)
if printf '%s\n' "$undefined" | grep -q ' sqlite3_'; then libs="$libs -lsqlite3"; fi
if printf '%s\n' "$undefined" | grep -q ' PQ[a-z]'; then libs="$libs -lpq"; fi
if printf '%s\n' "$undefined" | grep -q ' mysql_'; then libs="$libs -lmariadb"; fi
if printf '%s\n' "$undefined" | grep -q ' bson_'; then libs="$libs -lbson-1.0"; fi
if printf '%s\n' "$undefined" | grep -q ' inflate'; then libs="$libs -lz"; fi
if printf '%s\n' "$undefined" | grep -q ' ZSTD_'; then libs="$libs -lzstd"; fi
if printf '%s\n' "$undefined" | grep -q ' snappy_'; then libs="$libs -lsnappy"; fi
cat > "$prefix/lib/pkgconfig/relix.pc" <<EOF
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: relix
Description: Relational-algebra query engine for temporal data (interval and AS-OF joins)
Version: $version
Libs: -L\${libdir} -lrelix
Libs.private:$libs -lm -lpthread
Cflags: -I\${includedir}
EOF
