/*
 * embed.c - Relix inside a C program, through include/relix.h alone.
 *
 * Opens a session, defines two inline tables and a view, asks an AS-OF query (each trade with
 * the quote in force when it happened), and walks the result cell by cell with the typed
 * accessors; then runs a script with a mistake and prints the error Relix reports. Build it
 * against an installed Relix:
 *
 *   make install PREFIX=$HOME/.local
 *   cc examples/embed.c $(PKG_CONFIG_PATH=$HOME/.local/lib/pkgconfig pkg-config --cflags --libs relix)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <relix.h>

static const char script[] =
    "Quotes := [\n"
    "| sym  | ts                   | price |\n"
    "|------|----------------------|-------|\n"
    "| ACME | 2026-01-02T09:00:00Z | 10.00 |\n"
    "| ACME | 2026-01-02T09:05:00Z | 10.25 |\n"
    "| INIT | 2026-01-02T09:01:00Z | 55.10 |\n"
    "];\n"
    "Trades := [\n"
    "| sym  | ts                   | qty |\n"
    "|------|----------------------|-----|\n"
    "| ACME | 2026-01-02T09:03:00Z | 100 |\n"
    "| ACME | 2026-01-02T09:07:00Z | 50  |\n"
    "| INIT | 2026-01-02T09:00:30Z | 20  |\n"
    "];\n"
    "Q := { pi sym, to_timestamp(ts) -> ts, price (Quotes) };\n"
    "T := { pi sym, to_timestamp(ts) -> ts, qty (Trades) };\n"
    "query { pi sym, ts, qty, price, ts - ts_r -> age (T ASOF T.sym = Q.sym and T.ts >= Q.ts Q) };\n";

static const char *type_name(RxColType t) {
    static const char *const names[] = {"NULL", "INT", "FLOAT", "BOOL", "TEXT", "TIMESTAMP", "DATE", "TIME", "DURATION"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}

/* Called once per query: prints the schema, then every row, reading INT and FLOAT columns as
 * numbers and the rest as the text the table format shows. */
static int print_rows(void *ud, const RxResult *r) {
    int *n_results = ud;
    int cols = rx_result_cols(r);
    size_t rows = rx_result_rows(r);
    (*n_results)++;
    printf("result %d: %zu rows\n", *n_results, rows);
    for (int c = 0; c < cols; c++) printf("  column %d: %s %s\n", c, rx_result_colname(r, c), type_name(rx_result_coltype(r, c)));
    for (size_t i = 0; i < rows; i++) {
        printf("  row %zu:", i);
        for (int c = 0; c < cols; c++) {
            if (rx_result_is_null(r, i, c)) {
                printf(" %s=NULL", rx_result_colname(r, c));
                continue;
            }
            switch (rx_result_coltype(r, c)) {
            case RX_TYPE_INT: printf(" %s=%" PRId64, rx_result_colname(r, c), rx_result_int(r, i, c)); break;
            case RX_TYPE_FLOAT: printf(" %s=%.2f", rx_result_colname(r, c), rx_result_float(r, i, c)); break;
            default: printf(" %s=%s", rx_result_colname(r, c), rx_result_text(r, i, c)); break;
            }
        }
        printf("\n");
    }
    return 0;
}

int main(void) {
    RxSession *s = rx_open();
    if (!s) {
        fprintf(stderr, "embed: out of memory\n");
        return 1;
    }
    int n_results = 0;
    if (rx_exec(s, script, strlen(script), "embed.rx", print_rows, &n_results) != 0) {
        fprintf(stderr, "%s", rx_errmsg(s));
        rx_close(s);
        return 1;
    }
    /* The definitions stay in the session; a failing script leaves them intact. */
    static const char bad[] = "query { pi sym, volume (T) };\n";
    if (rx_exec(s, bad, strlen(bad), "bad.rx", print_rows, &n_results) != 0)
        printf("expected error (code %d):\n%s", rx_errcode(s), rx_errmsg(s));
    static const char again[] = "query { pi sym, qty (T) };\n";
    if (rx_exec(s, again, strlen(again), "again.rx", print_rows, &n_results) != 0) {
        fprintf(stderr, "%s", rx_errmsg(s));
        rx_close(s);
        return 1;
    }
    rx_close(s);
    return 0;
}
