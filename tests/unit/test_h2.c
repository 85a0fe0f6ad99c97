/*
 * test_h2.c - unit tests of what an H2 connection does without a server (src/connect/h2.c,
 * the H2 dialect of src/connect/sqlgen.c): H2's INTERVAL texts as DURATIONs, every qualifier,
 * signs, fractions and the limits; the h2:// string as libpq's URI; the dialect's quoting,
 * parameters, types and the bytewise order of text.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "connect/connect.h"
#include "connect/sqlgen.h"

/* Whether text s reads as months m and microseconds us. */
static int iv(const char *s, int64_t m, int64_t us) {
    RxDuration d = {-99, -99};
    const char *why = NULL;
    if (h2_interval_value(s, strlen(s), &d, &why) < 0) {
        fprintf(stderr, "'%s' refused: %s\n", s, why ? why : "?");
        return 0;
    }
    if (d.months != m || d.us != us) fprintf(stderr, "'%s' read as %lld months %lld us\n", s, (long long)d.months, (long long)d.us);
    return d.months == m && d.us == us;
}

/* Whether text s is refused, with the reason `want` (NULL: any). */
static int refused(const char *s, const char *want) {
    RxDuration d;
    const char *why = NULL;
    if (h2_interval_value(s, strlen(s), &d, &why) == 0) return 0;
    return !want || (why && strcmp(why, want) == 0);
}

static void test_intervals(void) {
    const int64_t S = 1000000, M = 60 * S, H = 60 * M, D = 24 * H;
    CHECK(iv("INTERVAL '1' YEAR", 12, 0));
    CHECK(iv("INTERVAL '-3' MONTH", -3, 0));
    CHECK(iv("INTERVAL '1-6' YEAR TO MONTH", 18, 0));
    CHECK(iv("INTERVAL '-1-6' YEAR TO MONTH", -18, 0));
    CHECK(iv("INTERVAL '2' DAY", 0, 2 * D));
    CHECK(iv("INTERVAL '100' HOUR", 0, 100 * H));
    CHECK(iv("INTERVAL '90' MINUTE", 0, 90 * M));
    CHECK(iv("INTERVAL '5' SECOND", 0, 5 * S));
    CHECK(iv("INTERVAL '5.5' SECOND", 0, 5 * S + 500000));
    CHECK(iv("INTERVAL '-0.000001' SECOND", 0, -1));
    CHECK(iv("INTERVAL '1 02' DAY TO HOUR", 0, D + 2 * H));
    CHECK(iv("INTERVAL '1 02:03' DAY TO MINUTE", 0, D + 2 * H + 3 * M));
    CHECK(iv("INTERVAL '1 02:03:04.123456' DAY TO SECOND", 0, D + 2 * H + 3 * M + 4 * S + 123456));
    CHECK(iv("INTERVAL '-1 02:03:04.5' DAY TO SECOND", 0, -(D + 2 * H + 3 * M + 4 * S + 500000)));
    CHECK(iv("INTERVAL '10:20' HOUR TO MINUTE", 0, 10 * H + 20 * M));
    CHECK(iv("INTERVAL '10:20:30' HOUR TO SECOND", 0, 10 * H + 20 * M + 30 * S));
    CHECK(iv("INTERVAL '20:30.25' MINUTE TO SECOND", 0, 20 * M + 30 * S + 250000));
    /* nanoseconds that are whole microseconds are kept; finer ones are refused, not rounded */
    CHECK(iv("INTERVAL '1.123456000' SECOND", 0, S + 123456));
    CHECK(refused("INTERVAL '1.1234567' SECOND", "finer than a microsecond"));
    CHECK(refused("INTERVAL '9223372036854775807' DAY", "out of range"));
    CHECK(refused("INTERVAL '99999999999999999999' SECOND", "out of range"));
    /* not H2's form */
    CHECK(refused("P1D", NULL));
    CHECK(refused("INTERVAL '1' FORTNIGHT", NULL));
    CHECK(refused("INTERVAL '1' DAY TO YEAR", NULL));
    CHECK(refused("INTERVAL '1-2' YEAR TO DAY", NULL));
    CHECK(refused("INTERVAL '1 02' DAY TO MINUTE", NULL));
    CHECK(refused("INTERVAL '1.5' MINUTE", NULL));
    CHECK(refused("INTERVAL '' DAY", NULL));
    CHECK(refused("INTERVAL '1' DAY ", NULL));
    CHECK(refused("INTERVAL '1 DAY", NULL));
}

static void test_uri(void) {
    StrBuf b;
    sb_init(&b);
    CHECK(h2_pg_uri("h2://sa@127.0.0.1:5435/test?connect_timeout=5", &b) == 0);
    sb_putc(&b, 0);
    CHECK_STR(b.p, "postgresql://sa@127.0.0.1:5435/test?connect_timeout=5");
    sb_free(&b);
    sb_init(&b);
    CHECK(h2_pg_uri("postgresql://sa@h/db", &b) < 0);
    sb_free(&b);
}

static void test_dialect(void) {
    const SqlDialect *d = sql_dialect(DB_H2);
    CHECK(d == sql_dialect_named("h2") && d == sql_dialect_named("GENERIC"));
    CHECK_STR(d->name, "H2");
    CHECK(d->lateral == NULL && d->no_full_join && d->series == SERIES_NONE);
    StrBuf b;
    sb_init(&b);
    sql_quote_ident(&b, d, "we\"ird");
    sb_putc(&b, 0);
    CHECK_STR(b.p, "\"we\"\"ird\"");
    sb_free(&b);
    sb_init(&b);
    sql_param(&b, d, 3);
    sb_putc(&b, 0);
    CHECK_STR(b.p, "$3");
    sb_free(&b);
    /* text orders by its UTF-8 bytes; other types as they are */
    sb_init(&b);
    sql_order_item(&b, d, "t1.\"k\"", true, false, true, false);
    sb_puts(&b, " | ");
    sql_order_item(&b, d, "t1.\"n\"", false, false, false, true);
    sb_putc(&b, 0);
    CHECK_STR(b.p, "CAST(t1.\"k\" AS VARBINARY) DESC NULLS LAST | t1.\"n\" ASC NULLS FIRST");
    sb_free(&b);
    CHECK_STR(sql_type_name(d, TY_TIME), "TIME(6)");
    CHECK_STR(sql_type_name(d, TY_TIMESTAMP), "TIMESTAMP(6) WITH TIME ZONE");
    CHECK(sql_type_name(d, TY_DURATION) == NULL);
}

int main(void) {
    test_intervals();
    test_uri();
    test_dialect();
    return check_report("test_h2");
}
