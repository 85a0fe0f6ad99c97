/*
 * host_columns.c - a program's own arrays joined by Relix without a copy: trades and quotes held
 * as plain C arrays are registered as relations (rx_register_columns), an AS-OF join runs over
 * them, and the result is read back column at a time (rx_result_column). docs/embedding.md
 * walks through it; tests/cases/580-host-columns.sh builds and runs it.
 *
 *   cc host_columns.c $(pkg-config --cflags --libs relix)
 */
#include <stdio.h>
#include <string.h>

#include "relix.h"

static int print_result(void *ud, const RxResult *r) {
    (void)ud;
    RxColumnOut sym, ts, bid;
    if (rx_result_column(r, 0, &sym) || rx_result_column(r, 1, &ts) || rx_result_column(r, 2, &bid)) return 1;
    const int64_t *t = ts.data;
    const double *b = bid.data;
    const char *s = sym.data;
    for (size_t i = 0; i < sym.n; i++) {
        int bid_valid = !bid.valid || (bid.valid[i / 8] >> (i % 8) & 1);
        printf("%.*s at %lld us: bid %s", (int)(sym.offsets[i + 1] - sym.offsets[i]), s + sym.offsets[i],
               (long long)t[i], bid_valid ? "" : "none\n");
        if (bid_valid) printf("%.2f\n", b[i]);
    }
    return 0;
}

int main(void) {
    /* the host's data: text as offsets into one buffer, times in microseconds */
    const char trade_syms[] = "ACMEINITACME";
    int64_t trade_off[] = {0, 4, 8, 12};
    int64_t trade_ts[] = {1000000, 1500000, 3000000};
    const char quote_syms[] = "ACMEACMEINIT";
    int64_t quote_off[] = {0, 4, 8, 12};
    int64_t quote_ts[] = {900000, 2000000, 1600000};
    double quote_bid[] = {10.25, 10.5, 7.75};

    RxSession *s = rx_open();
    if (!s) return 1;
    RxColumnIn trades[] = {
        {.name = "sym", .type = RX_TYPE_TEXT, .data = trade_syms, .offsets = trade_off},
        {.name = "ts", .type = RX_TYPE_TIMESTAMP, .data = trade_ts, .unit = 1000000},
    };
    RxColumnIn quotes[] = {
        {.name = "sym", .type = RX_TYPE_TEXT, .data = quote_syms, .offsets = quote_off},
        {.name = "ts", .type = RX_TYPE_TIMESTAMP, .data = quote_ts, .unit = 1000000},
        {.name = "bid", .type = RX_TYPE_FLOAT, .data = quote_bid},
    };
    if (rx_register_columns(s, "Trades", 2, trades, 3) || rx_register_columns(s, "Quotes", 3, quotes, 3)) {
        fprintf(stderr, "%s\n", rx_errmsg(s));
        rx_close(s);
        return 1;
    }
    const char *q = "query { π sym, ts, bid (Trades ASOF Trades.sym = Quotes.sym ∧ Trades.ts >= Quotes.ts Quotes) };";
    int rc = rx_exec(s, q, strlen(q), "host_columns", print_result, NULL);
    if (rc) fprintf(stderr, "%s\n", rx_errmsg(s));
    printf("relix %s\n", rx_version());
    rx_close(s);
    return rc ? 1 : 0;
}
