# rx_interrupt from another thread stops a statement its session pushed down, on the server
# (PostgreSQL's cancel request), and only that session's: a program over the library runs two
# sessions in two threads against a throwaway cluster (scripts/pg.sh), one reading a view that
# takes 30 seconds, the other one that takes 4; once both statements run, it interrupts the
# first. The first fails with "interrupted" within seconds and its statement is gone from
# pg_stat_activity, while the second finishes with its rows.
set -u
root=$PWD
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
build=$(dirname "$RELIX")
san=
case "$build" in *san*) san="-fsanitize=address,undefined" ;; esac
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
uri="postgresql://postgres@127.0.0.1:$port/postgres"
psql -q -v ON_ERROR_STOP=1 "$uri" <<'SQL'
CREATE VIEW slow AS SELECT g AS id FROM generate_series(1, 3) AS g WHERE pg_sleep(30) IS NOT NULL;
CREATE VIEW quick AS SELECT g AS id FROM generate_series(1, 3) AS g CROSS JOIN (SELECT pg_sleep(4)) AS z;
SQL
cat >"$tmp/intr.c" <<'C'
#define _POSIX_C_SOURCE 200809L
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "relix.h"

typedef struct { RxSession *s; const char *script; int rc; size_t rows; char err[256]; double secs; } Run;

static void nap(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int on_result(void *ud, const RxResult *r) {
    ((Run *)ud)->rows += rx_result_rows(r);
    return 0;
}

static void *run(void *arg) {
    Run *x = arg;
    double t0 = now();
    x->rc = rx_exec(x->s, x->script, strlen(x->script), "t.rx", on_result, x);
    x->secs = now() - t0;
    if (x->rc) snprintf(x->err, sizeof x->err, "%s", rx_errmsg(x->s));
    return NULL;
}

/* the number of statements reading view `name` that run on the server */
static int running(PGconn *pg, const char *name) {
    char q[256];
    snprintf(q, sizeof q, "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%%\"%s\"%%' "
             "AND pid <> pg_backend_pid()", name);
    PGresult *r = PQexec(pg, q);
    int n = PQresultStatus(r) == PGRES_TUPLES_OK ? atoi(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return n;
}

int main(int argc, char **argv) {
    const char *uri = argv[1];
    (void)argc;
    PGconn *pg = PQconnectdb(uri);
    if (PQstatus(pg) != CONNECTION_OK) return 2;
    char sa[512], sb[512];
    snprintf(sa, sizeof sa, "PG := connect('%s'); query { PG.slow };", uri);
    snprintf(sb, sizeof sb, "PG := connect('%s'); query { PG.quick };", uri);
    Run a = {rx_open(), sa, 0, 0, "", 0}, b = {rx_open(), sb, 0, 0, "", 0};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, run, &a);
    pthread_create(&tb, NULL, run, &b);
    int i;
    for (i = 0; i < 200 && (running(pg, "slow") != 1 || running(pg, "quick") != 1); i++) nap(50);
    printf("both running: %s\n", i < 200 ? "yes" : "no");
    rx_interrupt(a.s);
    pthread_join(ta, NULL);
    printf("interrupted session: rc %s, %zu rows, %s within 10 s\n", a.rc ? "non-zero" : "0", a.rows,
           a.secs < 10 ? "ended" : "did NOT end");
    printf("  %s", a.err);
    int n = -1;
    for (i = 0; i < 50 && (n = running(pg, "slow")) != 0; i++) nap(100);
    printf("slow statements still running on the server: %d\n", n);
    pthread_join(tb, NULL);
    printf("other session: rc %d, %zu rows%s\n", b.rc, b.rows, b.rc ? b.err : "");
    rx_close(a.s);
    rx_close(b.s);
    PQfinish(pg);
    return 0;
}
C
pgi=$(pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
cc -std=c11 -Wall -Wextra $san -Iinclude -I"$pgi" -o "$tmp/intr" "$tmp/intr.c" "$build/librelix.a" \
  $(make -s --no-print-directory print-libs) -lpq || exit 1 # -lpq: the program's own calls
"$tmp/intr" "$uri" | sed "s/127.0.0.1:[0-9]*/127.0.0.1:PORT/g"
echo "exit ${PIPESTATUS[0]}"
