/*
 * test_number.c - unit tests for types/number.c: the shortest round-trip FLOAT printer in
 * JavaScript's layout, INT printing, the strict INT and FLOAT parsers and the shape tests CSV
 * detection uses. Table-driven, plus a sweep that checks every printed double reads back
 * exactly and no shorter digit string would have.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "types/number.h"

static void test_format_double(void) {
    static const struct { double v; const char *text; } cases[] = {
        {0.0, "0"},
        {-0.0, "-0"},
        {1.0, "1"},
        {-1.0, "-1"},
        {10.0, "10"},
        {10.25, "10.25"},
        {10.4, "10.4"},
        {0.1, "0.1"},
        {0.1 + 0.2, "0.30000000000000004"},
        {0.3, "0.3"},
        {1.0 / 3.0, "0.3333333333333333"},
        {2.0 / 3.0, "0.6666666666666666"},
        {123.456, "123.456"},
        {-123.456, "-123.456"},
        {100.0, "100"},
        {1e20, "100000000000000000000"},
        {123456789012345680000.0, "123456789012345680000"},
        {1e21, "1e+21"},
        {-1e21, "-1e+21"},
        {1.5e21, "1.5e+21"},
        {1e-6, "0.000001"},
        {0.000001, "0.000001"},
        {1.5e-6, "0.0000015"},
        {1e-7, "1e-7"},
        {1.5e-7, "1.5e-7"},
        {-1.5e-7, "-1.5e-7"},
        {9007199254740992.0, "9007199254740992"},
        {9007199254740993.0, "9007199254740992"},
        {9007199254740994.0, "9007199254740994"},
        {18014398509481984.0, "18014398509481984"},
        {2251799813685248.5, "2251799813685248.5"},
        {DBL_MAX, "1.7976931348623157e+308"},
        {-DBL_MAX, "-1.7976931348623157e+308"},
        {DBL_MIN, "2.2250738585072014e-308"},
        {5e-324, "5e-324"},
        {-5e-324, "-5e-324"},
        {DBL_EPSILON, "2.220446049250313e-16"},
        {1e23, "1e+23"},
        {9.5, "9.5"},
        {0.5, "0.5"},
        {1234.5678, "1234.5678"},
        {3.14159, "3.14159"},
        {299792458.0, "299792458"},
        {1e15, "1000000000000000"},
        {1e16, "10000000000000000"},
        {123e-20, "1.23e-18"},
        {0.000123, "0.000123"},
        {6.02214076e23, "6.02214076e+23"},
        {(double)INT64_MAX, "9223372036854776000"},
        {(double)INT64_MIN, "-9223372036854776000"},
        /* Powers of two, where the doubles below are denser than above, need the rounded-up
         * digits (a plain "round to n digits" search would print 17 digits). */
        {7.854549544476363e-90, "7.854549544476363e-90"},
        {6.256509672447191e-148, "6.256509672447191e-148"},
        {NAN, "NaN"},
        {INFINITY, "Infinity"},
        {-INFINITY, "-Infinity"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[NUM_BUF];
        size_t len = num_format_double(cases[i].v, buf);
        CHECK_STR(buf, cases[i].text);
        CHECK(len == strlen(buf));
    }
}

/* Reads back to the same bits, and no text with fewer digits would. */
static bool shortest_round_trip(double v) {
    char buf[NUM_BUF];
    size_t len = num_format_double(v, buf);
    if (len >= NUM_BUF) return false;
    double back = strtod(buf, NULL);
    if (memcmp(&back, &v, sizeof v) != 0) return false;
    /* Significant digits: those before any exponent, less leading and trailing zeros. */
    char sig[NUM_BUF];
    int k = 0;
    for (const char *p = buf; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && (k > 0 || *p != '0')) sig[k++] = *p;
    while (k > 0 && sig[k - 1] == '0') k--;
    if (k <= 1) return true;
    char shorter[NUM_BUF];
    snprintf(shorter, sizeof shorter, "%.*e", k - 2, v);
    return strtod(shorter, NULL) != v;
}

static void test_format_sweep(void) {
    int bad = 0;
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v;
        memcpy(&v, &x, sizeof v);
        if (isnan(v) || isinf(v)) continue;
        if (!shortest_round_trip(v)) bad++;
    }
    for (int e = -1074; e <= 1023; e++)
        if (!shortest_round_trip(ldexp(1.0, e))) bad++;
    for (int k = 0; k < 10000; k++)
        if (!shortest_round_trip(k / 100.0) || !shortest_round_trip(-k * 0.001)) bad++;
    CHECK(bad == 0);
}

static void test_format_int(void) {
    static const struct { int64_t v; const char *text; } cases[] = {
        {0, "0"}, {7, "7"}, {-7, "-7"}, {1000, "1000"},
        {INT64_MAX, "9223372036854775807"}, {INT64_MIN, "-9223372036854775808"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[NUM_BUF];
        size_t len = num_format_int(cases[i].v, buf);
        CHECK_STR(buf, cases[i].text);
        CHECK(len == strlen(buf));
    }
}

static void test_parse_int(void) {
    static const struct { const char *text; int rc; int64_t v; } cases[] = {
        {"0", 0, 0},
        {"42", 0, 42},
        {"+42", 0, 42},
        {"-42", 0, -42},
        {"007", 0, 7},
        {"-0", 0, 0},
        {"9223372036854775807", 0, INT64_MAX},
        {"-9223372036854775808", 0, INT64_MIN},
        {"+9223372036854775807", 0, INT64_MAX},
        {"00000000000000000000009223372036854775807", 0, INT64_MAX},
        {"9223372036854775808", -2, 0},
        {"-9223372036854775809", -2, 0},
        {"99999999999999999999", -2, 0},
        {"-99999999999999999999999999", -2, 0},
        {"", -1, 0},
        {"+", -1, 0},
        {"-", -1, 0},
        {" 1", -1, 0},
        {"1 ", -1, 0},
        {"1.0", -1, 0},
        {"1e3", -1, 0},
        {"0x10", -1, 0},
        {"--1", -1, 0},
        {"+-1", -1, 0},
        {"1_000", -1, 0},
        {"12a", -1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = 123;
        const char *s = cases[i].text;
        int rc = num_parse_int(s, strlen(s), &v);
        CHECK(rc == cases[i].rc);
        CHECK(v == (rc == 0 ? cases[i].v : 123));
        CHECK(num_shape_int(s, strlen(s)) == (cases[i].rc != -1));
    }
    int64_t v;
    CHECK(num_parse_int("123456", 3, &v) == 0 && v == 123);
}

static void test_parse_float(void) {
    static const struct { const char *text; int rc; double v; } cases[] = {
        {"0", 0, 0.0},
        {"1", 0, 1.0},
        {"-1", 0, -1.0},
        {"+1.5", 0, 1.5},
        {"10.25", 0, 10.25},
        {".5", 0, 0.5},
        {"5.", 0, 5.0},
        {"-.5", 0, -0.5},
        {"1e3", 0, 1000.0},
        {"1E3", 0, 1000.0},
        {"1e+3", 0, 1000.0},
        {"-2.5E-3", 0, -0.0025},
        {".5e1", 0, 5.0},
        {"5.e1", 0, 50.0},
        {"0.1", 0, 0.1},
        {"0.30000000000000004", 0, 0.1 + 0.2},
        {"1.7976931348623157e308", 0, DBL_MAX},
        {"2.2250738585072014e-308", 0, DBL_MIN},
        {"5e-324", 0, 5e-324},
        {"1e-400", 0, 0.0},
        {"9007199254740993", 0, 9007199254740992.0},
        {"Infinity", 0, INFINITY},
        {"-Infinity", 0, -INFINITY},
        {"+inf", 0, INFINITY},
        {"INF", 0, INFINITY},
        {"-iNfInItY", 0, -INFINITY},
        {"1e309", -2, 0},
        {"-1e309", -2, 0},
        {"1.8e308", -2, 0},
        {"", -1, 0},
        {".", -1, 0},
        {"-", -1, 0},
        {"+.", -1, 0},
        {"e3", -1, 0},
        {"1e", -1, 0},
        {"1e+", -1, 0},
        {"1.2.3", -1, 0},
        {" 1", -1, 0},
        {"1 ", -1, 0},
        {"0x1p3", -1, 0},
        {"infinit", -1, 0},
        {"infinityy", -1, 0},
        {"nan(1)", -1, 0},
        {"1,5", -1, 0},
        {"1..", -1, 0},
        {"--1", -1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = 123.0;
        const char *s = cases[i].text;
        int rc = num_parse_float(s, strlen(s), &v);
        CHECK(rc == cases[i].rc);
        CHECK(rc != 0 ? v == 123.0 : v == cases[i].v);
        CHECK(num_shape_float(s, strlen(s)) == (cases[i].rc != -1));
    }
    static const char *const nans[] = {"NaN", "nan", "NAN", "-NaN", "+nan"};
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
        double v = 0;
        CHECK(num_parse_float(nans[i], strlen(nans[i]), &v) == 0 && isnan(v));
    }
    double v;
    CHECK(num_parse_float("-0", 2, &v) == 0 && v == 0 && signbit(v));
    CHECK(num_parse_float("2.5junk", 3, &v) == 0 && v == 2.5);
    /* A text past the stack buffer: 300 digits then an exponent. */
    char longtext[320];
    memset(longtext, '1', 300);
    memcpy(longtext + 300, "e-291", 6);
    CHECK(num_parse_float(longtext, strlen(longtext), &v) == 0);
    CHECK(fabs(v - 111111111.11111111) < 1e-6);
    memcpy(longtext + 300, "e+10", 5);
    CHECK(num_parse_float(longtext, strlen(longtext), &v) == -2);
}

/* Printing then parsing gives the same bits, for values of every kind. */
static void test_round_trip(void) {
    static const double values[] = {
        0.0, -0.0, 0.1, 0.1 + 0.2, 1e21, 1e-7, 123.456, 9007199254740992.0, DBL_MAX, DBL_MIN,
        5e-324, -5e-324, 1.0 / 3.0, 1e300, -2.5e-300, INFINITY, -INFINITY,
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char buf[NUM_BUF];
        size_t len = num_format_double(values[i], buf);
        double back = 42;
        CHECK(num_parse_float(buf, len, &back) == 0);
        CHECK(memcmp(&back, &values[i], sizeof back) == 0);
    }
}

int main(void) {
    test_format_double();
    test_format_sweep();
    test_format_int();
    test_parse_int();
    test_parse_float();
    test_round_trip();
    return check_report("number");
}
