/*
 * dynlib.h - client libraries loaded on first use (dlopen), so that a run which never touches
 * a database, the interactive prompt or a Parquet codec maps none of them, nor what they pull
 * in (TLS, Kerberos, LDAP, the C++ runtime).
 *
 * A library is described once, statically, by an RxDynLib: its soname, the Debian package that
 * ships it, what it is needed for, and the names of the functions used. rx_dynlib_load loads
 * it once per process (thread-safe: concurrent first calls load it once, later calls cost an
 * atomic load) and fills the caller's table of function pointers, in the order of the names;
 * the table is a struct holding only function pointers, one per name. The header of the
 * library still comes from its -dev package at build time, so the pointers keep the real
 * prototypes (`__typeof__(PQclear) *PQclear;`).
 *
 * A missing library, or one without a symbol used, is an error value naming the soname and the
 * package ("PostgreSQL support needs libpq.so.5 (apt install libpq5): ..."); nothing prints.
 * The library stays loaded until the process ends.
 */
#ifndef RX_DYNLIB_H
#define RX_DYNLIB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/base.h"

typedef struct {
    const char *what;           /* what needs it, to start the message: "PostgreSQL support" */
    const char *soname;         /* loaded by this name: "libpq.so.5" */
    const char *package;        /* the Debian package that ships it: "libpq5" */
    const char *const *names;   /* the functions used, in the table's order */
    size_t n_names;
    void *table;                /* the caller's struct of n_names function pointers */
    /* filled by rx_dynlib_load */
    int state;                  /* 0 not tried, 1 loaded, 2 failed (read atomically) */
    char why[384];              /* after a failure: the loader's reason */
} RxDynLib;

/* Loads lib once per process and fills lib->table: 0 when every function is there, else -1
 * with an RX_EUNSUPPORTED error (span 0..0, for the caller's span) saying what needs which
 * library and package and why it did not load. A failure is remembered: later calls fail the
 * same way without trying again. */
int rx_dynlib_load(RxDynLib *lib, RxError *err);

/* As rx_dynlib_load without an error value: true when the library is (now) loaded. */
bool rx_dynlib_ready(RxDynLib *lib);

/* True when lib is loaded already; never loads it. */
bool rx_dynlib_loaded(const RxDynLib *lib);

/* The message of a failed load, as rx_dynlib_load words it, into buf (for callers without an
 * RxError, such as the command line's prompt). */
void rx_dynlib_message(const RxDynLib *lib, char *buf, size_t n);

#endif
