/*
 * test_tz.c - unit tests for io/tz.c: offsets and abbreviations of tz database zones against
 * the C library's localtime_r reading the same files (random instants from 1850 to 2200, so
 * both the transition tables and the POSIX footer rules are covered), the local-to-UTC rules
 * at DST gaps and overlaps (PostgreSQL's, with its documented examples), round trips, fixed
 * offsets, and the errors for unknown or unsafe names.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "io/tz.h"
#include "types/temporal.h"

#define S(lit) lit, sizeof(lit) - 1
#define SEC INT64_C(1000000)

static const char *const zones[] = {
    "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo",
    "Pacific/Auckland", "Africa/Casablanca", "Europe/Dublin", "America/St_Johns", "Asia/Tehran",
    "Pacific/Chatham", "Antarctica/Troll", "Europe/Moscow", "Pacific/Apia", "Asia/Gaza",
    "America/Santiago", "Australia/Lord_Howe", "Europe/London", "America/Los_Angeles", "Asia/Tokyo",
};

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const TzZone *zone(const char *name) {
    const TzZone *z = NULL;
    const char *why = NULL;
    if (tz_find(name, strlen(name), &z, &why) < 0) {
        fprintf(stderr, "zone %s: %s\n", name, why);
        return NULL;
    }
    return z;
}

static int64_t ts(const char *iso) {
    int64_t us = 0;
    const char *why;
    if (tm_parse_timestamp(iso, strlen(iso), &us, &why) < 0) fprintf(stderr, "bad literal %s\n", iso);
    return us;
}

/* Offsets and abbreviations agree with glibc's localtime_r for every zone. */
static void test_against_libc(void) {
    for (size_t k = 0; k < sizeof zones / sizeof *zones; k++) {
        const TzZone *z = zone(zones[k]);
        CHECK(z != NULL);
        if (!z) continue;
        char env[128];
        snprintf(env, sizeof env, ":%s", zones[k]);
        setenv("TZ", env, 1);
        tzset();
        int bad = 0;
        for (int i = 0; i < 20000; i++) {
            /* 1850-01-01 .. 2200-01-01 */
            int64_t lo = INT64_C(-3786825600), hi = INT64_C(7258118400);
            int64_t t = lo + (int64_t)(next_rand() % (uint64_t)(hi - lo));
            time_t tt = (time_t)t;
            struct tm tm;
            if (!localtime_r(&tt, &tm)) continue;
            const char *abbr = NULL;
            int32_t off = tz_offset_at(z, t * SEC, &abbr);
            if (off != tm.tm_gmtoff || strcmp(abbr, tm.tm_zone) != 0) {
                if (bad++ < 3)
                    fprintf(stderr, "%s at %" PRId64 ": %d %s, libc %ld %s\n", zones[k], t, off, abbr,
                            tm.tm_gmtoff, tm.tm_zone);
            }
            /* the round trip through wall time comes back to t, or to the later reading */
            int64_t l = tz_to_local(z, t * SEC), back = tz_from_local(z, l);
            if (!(back == t * SEC || (back > t * SEC && tz_to_local(z, back) == l))) bad++;
        }
        CHECK(bad == 0);
    }
    setenv("TZ", "UTC", 1);
    tzset();
}

/* PostgreSQL's rules at a gap and an overlap (its documentation's New York examples). */
static void test_gap_overlap(void) {
    const TzZone *ny = zone("America/New_York"), *be = zone("Europe/Berlin");
    CHECK(ny && be);
    if (!ny || !be) return;
    /* 2018-03-11 02:30 does not exist: read with EST (before), 03:30 EDT = 07:30Z */
    CHECK(tz_from_local(ny, ts("2018-03-11T02:30:00Z")) == ts("2018-03-11T07:30:00Z"));
    /* 2018-11-04 01:30 happens twice: the later, EST = 06:30Z */
    CHECK(tz_from_local(ny, ts("2018-11-04T01:30:00Z")) == ts("2018-11-04T06:30:00Z"));
    CHECK(tz_from_local(ny, ts("2018-11-04T00:59:59Z")) == ts("2018-11-04T04:59:59Z"));
    CHECK(tz_from_local(ny, ts("2018-11-04T02:00:00Z")) == ts("2018-11-04T07:00:00Z"));
    CHECK(tz_from_local(be, ts("2026-03-29T02:00:00Z")) == ts("2026-03-29T01:00:00Z"));
    CHECK(tz_from_local(be, ts("2026-03-29T01:59:59.999999Z")) == ts("2026-03-29T00:59:59.999999Z"));
    CHECK(tz_from_local(be, ts("2026-03-29T03:00:00Z")) == ts("2026-03-29T01:00:00Z"));
    CHECK(tz_from_local(be, ts("2026-10-25T02:30:00Z")) == ts("2026-10-25T01:30:00Z"));
    CHECK(tz_from_local(be, ts("2026-10-25T01:59:00Z")) == ts("2026-10-24T23:59:00Z"));
    /* past the last transition in the file: the footer rule (2100 and 2190) */
    CHECK(tz_offset_at(be, ts("2100-07-01T00:00:00Z"), NULL) == 7200);
    CHECK(tz_offset_at(be, ts("2190-12-01T00:00:00Z"), NULL) == 3600);
    CHECK(tz_from_local(be, ts("2190-03-26T02:30:00Z")) == ts("2190-03-26T01:30:00Z"));
    /* every local time of a year of 15 minutes round trips, except the skipped hour */
    int bad = 0, skipped = 0;
    for (int64_t l = ts("2026-01-01T00:00:00Z"); l < ts("2027-01-01T00:00:00Z"); l += 900 * SEC) {
        int64_t u = tz_from_local(be, l);
        if (tz_to_local(be, u) != l) {
            skipped++;
            if (tz_to_local(be, u) != l + 3600 * SEC) bad++;
        }
    }
    CHECK(bad == 0);
    CHECK(skipped == 4);
}

static void test_fixed_and_errors(void) {
    const TzZone *z = NULL;
    const char *why = NULL;
    CHECK(tz_find(S("+05:30"), &z, &why) == 0 && tz_offset_at(z, 0, NULL) == 19800);
    CHECK(tz_find(S("-0800"), &z, &why) == 0 && tz_offset_at(z, 0, NULL) == -28800);
    CHECK(tz_find(S("-03"), &z, &why) == 0 && tz_offset_at(z, 0, NULL) == -10800);
    CHECK(tz_find(S("utc"), &z, &why) == 0 && tz_offset_at(z, ts("2026-07-01T00:00:00Z"), NULL) == 0);
    CHECK_STR(tz_name(z), "UTC");
    CHECK(tz_find(S("europe/berlin"), &z, &why) == 0);
    CHECK_STR(tz_name(z), "Europe/Berlin");
    const TzZone *again = NULL;
    CHECK(tz_find(S("europe/berlin"), &again, &why) == 0 && again == z);
    CHECK(tz_find(S("Europe/Berln"), &z, &why) < 0);
    CHECK_STR(why, "no such zone in the tz database");
    CHECK(tz_find(S("../../etc/passwd"), &z, &why) < 0);
    CHECK(tz_find(S("/etc/passwd"), &z, &why) < 0);
    CHECK(tz_find(S("Europe"), &z, &why) < 0);
    CHECK(tz_find(S("zone1970.tab"), &z, &why) < 0);
    CHECK_STR(why, "its file in the tz database is not a TZif file");
    CHECK(tz_find(S("+25:00"), &z, &why) < 0);
    CHECK(tz_find(S(""), &z, &why) < 0);
}

int main(void) {
    test_against_libc();
    test_gap_overlap();
    test_fixed_and_errors();
    return check_report("tz");
}
