#!/usr/bin/env bash
# Installs, with apt-get, the Debian packages that a step needs and the machine lacks.
#   scripts/deps.sh build   compiler and make
#   scripts/deps.sh test    build, plus what the test suite uses
# Nothing is installed when everything is present; apt-get update runs once, only when needed.
set -eu
need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
want_cmd() { have_cmd "$1" || need+=("$2"); }
want_pkg() { have_pkg "$1" || need+=("$1"); }

case "${1:-build}" in
  build)
    want_cmd cc gcc; want_cmd make make; want_pkg libsqlite3-dev; want_pkg libpq-dev; want_pkg libedit-dev
    want_pkg libmariadb-dev; want_pkg libmongoc-dev; want_pkg libbson-dev
    want_pkg zlib1g-dev; want_pkg libzstd-dev; want_pkg libsnappy-dev ;;
  test)
    want_cmd cc gcc; want_cmd make make; want_pkg libsqlite3-dev; want_pkg libpq-dev
    want_pkg zlib1g-dev; want_pkg libzstd-dev; want_pkg libsnappy-dev; want_cmd gzip gzip; want_cmd zstd zstd
    # the Parquet oracle tests (tests/parquet) run DuckDB and Polars under Node
    want_cmd node nodejs; want_cmd npm npm
    want_cmd python3 python3; want_cmd sqlite3 sqlite3
    # 579-python: the Python module over librelix.so, against pandas
    want_pkg python3-numpy; want_pkg python3-pandas
    # 820-dask: relix.dask on a dask-scheduler and two dask-worker processes
    want_pkg python3-dask; want_pkg python3-distributed
    want_pkg libedit-dev; want_cmd tmux tmux; want_cmd pkg-config pkg-config
    want_cmd diff diffutils; want_cmd strace strace
    # 748-750: time zones come from the system tz database (/usr/share/zoneinfo)
    want_pkg tzdata
    # 762-iset-bedtools: bedtools is the second oracle of the interval-set operators
    want_cmd bedtools bedtools
    # 582-prepared-arrow runs the C API's programs under valgrind
    want_cmd valgrind valgrind
    # 410-report renders the HTML report headless and looks at the screenshot
    [ -x /usr/bin/chromium ] || need+=(chromium)
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
    want_cmd psql postgresql-client
    # MariaDB (scripts/mariadb.sh)
    want_pkg libmariadb-dev; want_pkg mariadb-server; want_pkg mariadb-client
    # MongoDB's client library (no server for tests: none installs from Debian 12's packages)
    want_pkg libmongoc-dev; want_pkg libbson-dev
    # H2's PostgreSQL-protocol server (scripts/h2.sh) under Java
    want_pkg libh2-java; want_pkg default-jre-headless ;;
  *) echo "usage: scripts/deps.sh build|test" >&2; exit 2 ;;
esac
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  echo "installing: ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >&2
fi
