#!/usr/bin/env bash
# Installs the Python module: python/relix and the shared library it loads, copied into
# Python's site-packages as relix/ (no network, no build step). `make install-python` runs it.
#   PYTHON       the interpreter to install for (default /usr/bin/python3, else python3)
#   PYTHON_SITE  the folder to install into (default: that interpreter's purelib)
#   BUILD        where the library was built (default build)
set -eu
cd "$(dirname "$0")/.."
py=${PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=$(command -v python3)
build=${BUILD:-build}
[ -f "$build/librelix.so.0" ] || { echo "install-python: $build/librelix.so.0 is missing (run make first)" >&2; exit 1; }
site=${PYTHON_SITE:-$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')}
install -d "$site/relix"
install -m 644 python/relix/__init__.py "$site/relix/__init__.py"
install -m 644 python/relix/dask.py "$site/relix/dask.py"
install -m 755 "$build/librelix.so.0" "$site/relix/librelix.so.0"
echo "installed relix into $site/relix"
