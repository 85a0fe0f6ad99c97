/*
 * fuzz_temporal.c - libFuzzer target: the text forms of values (src/types/temporal.h,
 * number.h) on arbitrary bytes, with round-trip oracles.
 *
 * The whole input is given to every parser. Each value a parser accepts is formatted and
 * parsed back, and must come back identical (a FLOAT bit for bit, NaN as any NaN):
 *   parse(format(parse(s))) == parse(s)
 * and each accepted text must also be accepted by its shape test (the CSV detector relies on
 * shapes: a value whose text has no shape would silently become TEXT); for numbers the shape
 * tests are exact (true iff the parser does not return -1). tm_explain must agree with the
 * parsers (0 exactly when the text parses). The first 16 bytes, read as raw integers and a
 * double, also drive the formatters, calendar arithmetic and extract/date_trunc on any value,
 * with the same round trip where the value is in range. Any mismatch aborts.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "types/number.h"
#include "types/temporal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static void check_timestamp(const char *s, size_t n) {
    int64_t v = 0, w = 0;
    const char *why = NULL;
    char buf[TM_BUF];
    int rc = tm_parse_timestamp(s, n, &v, &why);
    CHECK((rc == 0) == (tm_explain(TY_TIMESTAMP, s, n, buf) == 0));
    if (rc < 0) {
        CHECK(why && why[0]);
        return;
    }
    CHECK(v >= TM_TS_MIN && v <= TM_TS_MAX);
    CHECK(tm_shape_timestamp(s, n) || tm_shape_date(s, n));
    size_t len = tm_format_timestamp(v, buf);
    CHECK(len < TM_BUF && strlen(buf) == len);
    CHECK(tm_parse_timestamp(buf, len, &w, &why) == 0 && w == v);
    CHECK(tm_shape_timestamp(buf, len));
}

static void check_date(const char *s, size_t n) {
    int32_t v = 0, w = 0;
    const char *why = NULL;
    char buf[TM_BUF];
    int rc = tm_parse_date(s, n, &v, &why);
    CHECK((rc == 0) == (tm_explain(TY_DATE, s, n, buf) == 0));
    if (rc < 0) {
        CHECK(why && why[0]);
        return;
    }
    CHECK(v >= TM_DATE_MIN && v <= TM_DATE_MAX);
    CHECK(tm_shape_date(s, n));
    size_t len = tm_format_date(v, buf);
    CHECK(len < TM_BUF && strlen(buf) == len);
    CHECK(tm_parse_date(buf, len, &w, &why) == 0 && w == v);
    int64_t ts = 0;
    CHECK(tm_parse_timestamp(s, n, &ts, &why) == 0 && ts == (int64_t)v * US_PER_DAY);
}

static void check_time(const char *s, size_t n) {
    int64_t v = 0, w = 0;
    const char *why = NULL;
    char buf[TM_BUF];
    int rc = tm_parse_time(s, n, &v, &why);
    CHECK((rc == 0) == (tm_explain(TY_TIME, s, n, buf) == 0));
    if (rc < 0) {
        CHECK(why && why[0]);
        return;
    }
    CHECK(v >= 0 && v < US_PER_DAY);
    CHECK(tm_shape_time(s, n));
    size_t len = tm_format_time(v, buf);
    CHECK(len < TM_BUF && strlen(buf) == len);
    CHECK(tm_parse_time(buf, len, &w, &why) == 0 && w == v);
}

static void check_duration(const char *s, size_t n) {
    RxDuration v = {0, 0}, w = {0, 0};
    const char *why = NULL;
    char buf[TM_BUF];
    int rc = tm_parse_duration(s, n, &v, &why);
    CHECK((rc == 0) == (tm_explain(TY_DURATION, s, n, buf) == 0));
    if (rc < 0) {
        CHECK(why && why[0]);
        return;
    }
    size_t len = tm_format_duration(v, buf);
    CHECK(len < TM_BUF && strlen(buf) == len);
    CHECK(tm_parse_duration(buf, len, &w, &why) == 0 && w.months == v.months && w.us == v.us);
}

static void check_int(const char *s, size_t n) {
    int64_t v = 0, w = 0;
    char buf[NUM_BUF];
    int rc = num_parse_int(s, n, &v);
    CHECK(rc == 0 || rc == -1 || rc == -2);
    CHECK(num_shape_int(s, n) == (rc != -1));
    if (rc != 0) return;
    size_t len = num_format_int(v, buf);
    CHECK(len < NUM_BUF && strlen(buf) == len);
    CHECK(num_parse_int(buf, len, &w) == 0 && w == v);
    /* An integer is also a FLOAT, and reads as the nearest double. */
    double f = 0;
    CHECK(num_parse_float(s, n, &f) == 0 && f == (double)v);
}

static int same_double(double a, double b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_double_text(double v) {
    char buf[NUM_BUF];
    double w = 0;
    size_t len = num_format_double(v, buf);
    CHECK(len < NUM_BUF && strlen(buf) == len);
    CHECK(num_parse_float(buf, len, &w) == 0 && same_double(v, w));
}

static void check_float(const char *s, size_t n) {
    double v = 0;
    int rc = num_parse_float(s, n, &v);
    CHECK(rc == 0 || rc == -1 || rc == -2);
    CHECK(num_shape_float(s, n) == (rc != -1));
    if (rc != 0) return;
    check_double_text(v);
}

/* Formatters and calendar arithmetic on raw values. */
static void check_raw(const uint8_t *d, size_t n) {
    if (n < 16) return;
    int64_t a, b;
    double f;
    memcpy(&a, d, 8);
    memcpy(&b, d + 8, 8);
    memcpy(&f, d, 8);
    char buf[TM_BUF];
    const char *why = NULL;

    check_double_text(f);
    char nb[NUM_BUF];
    int64_t back = 0;
    size_t len = num_format_int(a, nb);
    CHECK(num_parse_int(nb, len, &back) == 0 && back == a);

    /* Any value prints; a value in range reads back. */
    len = tm_format_timestamp(a, buf);
    CHECK(len < TM_BUF && strlen(buf) == len);
    if (a >= TM_TS_MIN && a <= TM_TS_MAX)
        CHECK(tm_parse_timestamp(buf, len, &back, &why) == 0 && back == a);
    int32_t day = (int32_t)a, dback = 0;
    len = tm_format_date(day, buf);
    CHECK(len < TM_BUF && strlen(buf) == len);
    if (day >= TM_DATE_MIN && day <= TM_DATE_MAX)
        CHECK(tm_parse_date(buf, len, &dback, &why) == 0 && dback == day);
    len = tm_format_time(b, buf);
    CHECK(len < TM_BUF && strlen(buf) == len);
    if (b >= 0 && b < US_PER_DAY) CHECK(tm_parse_time(buf, len, &back, &why) == 0 && back == b);
    RxDuration dur = {a % 1200000, b}, dur_back = {0, 0};
    len = tm_format_duration(dur, buf);
    CHECK(len < TM_BUF && strlen(buf) == len);
    CHECK(tm_parse_duration(buf, len, &dur_back, &why) == 0 && dur_back.months == dur.months &&
          dur_back.us == dur.us);

    /* Calendar arithmetic stays in range or fails. */
    int64_t ts = a % (TM_TS_MAX + 1), out = 0;
    if (tm_ts_add(ts, dur, &out) == 0) CHECK(out >= TM_TS_MIN && out <= TM_TS_MAX);
    int32_t dout = 0;
    if (tm_date_add_days(day, b, &dout) == 0) CHECK(dout >= TM_DATE_MIN && dout <= TM_DATE_MAX);
    int64_t y = 0;
    int m = 0, dd = 0;
    tm_civil_from_days(a % INT64_C(10000000000000), &y, &m, &dd);
    CHECK(m >= 1 && m <= 12 && dd >= 1 && dd <= 31);
    CHECK(tm_days_from_civil(y, m, dd) == a % INT64_C(10000000000000));
    if (ts >= TM_TS_MIN) {
        for (int fld = TF_YEAR; fld < TF_INVALID; fld++) {
            (void)tm_extract_ts((TmField)fld, ts);
            if (tm_trunc_ts((TmField)fld, ts, &out) == 0) CHECK(out <= ts && out >= TM_TS_MIN);
            (void)tm_field_name((TmField)fld);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return -1;
    char *s = malloc(size ? size : 1);
    if (!s) return 0;
    memcpy(s, data, size);
    check_timestamp(s, size);
    check_date(s, size);
    check_time(s, size);
    check_duration(s, size);
    check_int(s, size);
    check_float(s, size);
    (void)tm_field_from_name(s, size);
    char buf[TM_BUF];
    (void)tm_explain(TY_TIMESTAMP, s, size, buf);
    check_raw(data, size);
    free(s);
    return 0;
}
