#!/usr/bin/env python3
"""ddb.py - runs SQL on a DuckDB database file through libduckdb's C API (ctypes), for the tests
that build DuckDB tables: the same library Relix loads (RELIX_LIBDUCKDB names it).

  tests/duckdb/ddb.py FILE [--print] < statements.sql

Statements are separated by lines that end in ';'. With --print, the rows of each result are
printed tab-separated (NULL as \\N). Exits 1 with DuckDB's message on the first failing statement.
"""
import ctypes
import os
import sys


class Result(ctypes.Structure):
    _fields_ = [("column_count", ctypes.c_uint64), ("row_count", ctypes.c_uint64),
                ("rows_changed", ctypes.c_uint64), ("columns", ctypes.c_void_p),
                ("error", ctypes.c_char_p), ("internal", ctypes.c_void_p)]


def main():
    lib = ctypes.CDLL(os.environ["RELIX_LIBDUCKDB"])
    lib.duckdb_result_error.restype = ctypes.c_char_p
    lib.duckdb_value_varchar.restype = ctypes.c_void_p
    lib.duckdb_value_is_null.restype = ctypes.c_bool
    lib.duckdb_column_count.restype = ctypes.c_uint64
    lib.duckdb_row_count.restype = ctypes.c_uint64
    db, conn = ctypes.c_void_p(), ctypes.c_void_p()
    if lib.duckdb_open(sys.argv[1].encode(), ctypes.byref(db)) != 0:
        sys.exit(f"cannot open {sys.argv[1]}")
    lib.duckdb_connect(db, ctypes.byref(conn))
    show = "--print" in sys.argv[2:]
    text, stmts = "", []
    for line in sys.stdin.read().splitlines(keepends=True):
        text += line
        if line.rstrip().endswith(";"):
            stmts.append(text)
            text = ""
    if text.strip():
        stmts.append(text)
    rc = 0
    for sql in stmts:
        res = Result()
        if lib.duckdb_query(conn, sql.encode(), ctypes.byref(res)) != 0:
            print(f"duckdb: {lib.duckdb_result_error(ctypes.byref(res)).decode()}", file=sys.stderr)
            rc = 1
            lib.duckdb_destroy_result(ctypes.byref(res))
            break
        if show:
            nc, nr = lib.duckdb_column_count(ctypes.byref(res)), lib.duckdb_row_count(ctypes.byref(res))
            for r in range(nr):
                cells = []
                for c in range(nc):
                    if lib.duckdb_value_is_null(ctypes.byref(res), ctypes.c_uint64(c), ctypes.c_uint64(r)):
                        cells.append("\\N")
                        continue
                    p = lib.duckdb_value_varchar(ctypes.byref(res), ctypes.c_uint64(c), ctypes.c_uint64(r))
                    cells.append(ctypes.string_at(p).decode())
                    lib.duckdb_free(ctypes.c_void_p(p))
                print("\t".join(cells))
        lib.duckdb_destroy_result(ctypes.byref(res))
    lib.duckdb_disconnect(ctypes.byref(conn))
    lib.duckdb_close(ctypes.byref(db))
    sys.exit(rc)


main()
