/*
 * test_compare.c - unit tests for the one rule for equality and order (types/compare.h) and
 * the helpers that must agree with it: col_hash_value, and keys.c's ordered keys, group ids
 * and partitions. Every pair of a list of special values (NaN of both signs and two payloads,
 * ±Infinity, ±0, numbers; durations of one span written differently) is checked against the
 * rule: the comparison, the order key, the hash and the group and partition ids agree.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exec/keys.h"
#include "types/compare.h"

static double nan_with(uint64_t bits) {
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* Values in the rule's order, equal ones next to each other; rank[i] is i's place. */
#define N_FLOATS 12
static double floats[N_FLOATS];
static const int rank[N_FLOATS] = {0, 1, 2, 2, 3, 4, 5, 6, 6, 6, 6, 6};

static void fill_floats(void) {
    const double v[N_FLOATS] = {-INFINITY, -1e308, -0.0, 0.0, 5e-324, 1.5, INFINITY, NAN, -NAN,
                                nan_with(UINT64_C(0x7ff0000000000001)),
                                nan_with(UINT64_C(0xfff8000000000123)), NAN};
    memcpy(floats, v, sizeof v);
}

static void test_float_rule(void) {
    Column *c = col_new(TY_FLOAT, N_FLOATS);
    CHECK(c != NULL);
    if (!c) return;
    memcpy(c->data, floats, sizeof floats);
    for (int i = 0; i < N_FLOATS; i++)
        for (int j = 0; j < N_FLOATS; j++) {
            int want = (rank[i] > rank[j]) - (rank[i] < rank[j]);
            CHECK(rx_float_cmp(floats[i], floats[j]) == want);
            int64_t ki = rx_float_order_key(floats[i]), kj = rx_float_order_key(floats[j]);
            CHECK(((ki > kj) - (ki < kj)) == want);
            if (want == 0) CHECK(col_hash_value(c, (size_t)i) == col_hash_value(c, (size_t)j));
        }
    /* γ's group ids: one per rank, numbered by first appearance */
    const Column *cols[1] = {c};
    uint32_t *ids = NULL, ng = 0;
    RxError err;
    memset(&err, 0, sizeof err);
    CHECK(keys_group(cols, 1, N_FLOATS, &ids, &ng, &err) == 0);
    CHECK(ng == 7);
    for (int i = 0; ids && i < N_FLOATS; i++) CHECK(ids[i] == (uint32_t)rank[i]);
    free(ids);
    /* a join's partitions: equal values, and only those, share an id */
    KeyParts kp;
    memset(&kp, 0, sizeof kp);
    CHECK(keys_partition(cols, N_FLOATS, cols, N_FLOATS, 1, &kp, &err) == 0);
    for (int i = 0; i < N_FLOATS; i++)
        for (int j = 0; j < N_FLOATS; j++) CHECK((kp.l[i] == kp.r[j]) == (rank[i] == rank[j]));
    keys_parts_free(&kp);
    col_release(c);
}

static void test_duration_rule(void) {
    /* P1M = P30D = PT720H, P1Y = P360D, -PT1H < 0 < PT1H */
    const RxDuration d[] = {{0, -US_PER_HOUR}, {0, 0}, {0, US_PER_HOUR}, {1, 0}, {0, 30 * US_PER_DAY},
                            {0, 720 * US_PER_HOUR}, {0, 31 * US_PER_DAY}, {12, 0}, {0, 360 * US_PER_DAY},
                            {11, 30 * US_PER_DAY}, {INT64_MAX, 0}, {INT64_MAX, INT64_MAX}};
    const int drank[] = {0, 1, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7};
    const int n = (int)(sizeof d / sizeof d[0]);
    Column *c = col_new(TY_DURATION, (size_t)n);
    CHECK(c != NULL);
    if (!c) return;
    memcpy(c->data, d, sizeof d);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int want = (drank[i] > drank[j]) - (drank[i] < drank[j]);
            CHECK(rx_dur_cmp(d[i], d[j]) == want);
            if (want == 0) CHECK(col_hash_value(c, (size_t)i) == col_hash_value(c, (size_t)j));
        }
    int64_t s;
    CHECK(rx_dur_span64(d[3], &s) && s == 30 * US_PER_DAY);
    CHECK(!rx_dur_span64(d[10], &s));
    /* keys of the durations that fit: equal spans, equal keys */
    Column *small = col_new(TY_DURATION, 10);
    CHECK(small != NULL);
    if (small) {
        memcpy(small->data, d, 10 * sizeof d[0]);
        const Column *cols[1] = {small};
        uint32_t *ids = NULL, ng = 0;
        RxError err;
        memset(&err, 0, sizeof err);
        CHECK(keys_group(cols, 1, 10, &ids, &ng, &err) == 0);
        CHECK(ng == 6);
        for (int i = 0; ids && i < 10; i++) CHECK(ids[i] == (uint32_t)drank[i]);
        free(ids);
        col_release(small);
    }
    /* a span past 64 bits is refused as a key, not clamped into another's group */
    const Column *cols[1] = {c};
    uint32_t *ids = NULL, ng = 0;
    RxError err;
    memset(&err, 0, sizeof err);
    CHECK(keys_group(cols, 1, (size_t)n, &ids, &ng, &err) < 0);
    CHECK(err.code == RX_ELIMIT);
    free(ids);
    col_release(c);
}

int main(void) {
    fill_floats();
    test_float_rule();
    test_duration_rule();
    return check_report("test_compare");
}
