/*
 * temporal.c - ISO-8601 text for TIMESTAMP, DATE, TIME and DURATION, and the calendar
 * arithmetic behind them (temporal.h). It sits in the types layer: the analysis stage reads
 * literals with it, the CSV reader detects and reads columns with it, exec uses its arithmetic,
 * extract() and date_trunc(), and the output writers print with it.
 *
 * All calendar work goes through Howard Hinnant's days_from_civil / civil_from_days over the
 * proleptic Gregorian calendar ("chrono-Compatible Low-Level Date Algorithms"). Timestamps are
 * microseconds since the epoch, so every split into days and time of day is a floor division:
 * -1 us is 1969-12-31T23:59:59.999999Z. Parsers never normalize: 2026-02-30 is an error, not
 * March 2nd. Reasons for errors are static strings, so the ones that name a two-digit field
 * value come from tables built by the preprocessor; only the year cannot be tabled, which is
 * why tm_explain exists.
 */
#include "types/temporal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "types/number.h"

/* ---- static reasons --------------------------------------------------------------------- */

/* "pre" N "post" for N = 0..99, indexed by N. */
#define D10(pre, tens, post)                                                                  \
    pre tens "0" post, pre tens "1" post, pre tens "2" post, pre tens "3" post,                \
    pre tens "4" post, pre tens "5" post, pre tens "6" post, pre tens "7" post,                \
    pre tens "8" post, pre tens "9" post
#define D100(pre, post)                                                                       \
    { D10(pre, "", post), D10(pre, "1", post), D10(pre, "2", post), D10(pre, "3", post),      \
      D10(pre, "4", post), D10(pre, "5", post), D10(pre, "6", post), D10(pre, "7", post),     \
      D10(pre, "8", post), D10(pre, "9", post) }

static const char *const MONTH_WHY[100] = D100("month ", " is out of range");
static const char *const DAY_WHY[100] = D100("day ", " is out of range");
static const char *const HOUR_WHY[100] = D100("hour ", " is out of range");
static const char *const MINUTE_WHY[100] = D100("minute ", " is out of range");
static const char *const SECOND_WHY[100] = D100("second ", " is out of range");
static const char *const ZONE_HOUR_WHY[100] = D100("time zone hour ", " is out of range");
static const char *const ZONE_MINUTE_WHY[100] = D100("time zone minute ", " is out of range");

/* Indexed by month; February has its own two reasons below. */
static const char *const MONTH_DAYS_WHY[13] = {
    "", "January has 31 days", "", "March has 31 days", "April has 30 days",
    "May has 31 days", "June has 30 days", "July has 31 days", "August has 31 days",
    "September has 30 days", "October has 31 days", "November has 30 days",
    "December has 31 days",
};
static const char FEB_COMMON_WHY[] = "February has 28 days in a common year";
static const char FEB_LEAP_WHY[] = "February has 29 days in a leap year";

static const char OUT_OF_RANGE[] = "out of range";
static const char YEAR_ZERO_WHY[] = "year 0000 is out of range";
static const char LEAP_SECOND_WHY[] = "second 60 is out of range (leap seconds are not supported)";
static const char FINE_FRACTION_WHY[] = "fraction finer than a microsecond";
static const char LONG_FRACTION_WHY[] = "more than 9 fraction digits";

/* ---- calendar --------------------------------------------------------------------------- */

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int days_in_month(int64_t y, int m) {
    static const int DAYS[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : DAYS[m];
}

int64_t tm_days_from_civil(int64_t y, int m, int d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void tm_civil_from_days(int64_t days, int64_t *y, int *m, int *d) {
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

bool tm_valid_date(int64_t y, int m, int d) {
    return y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t floor_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}

/* ---- parsing helpers -------------------------------------------------------------------- */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool digits_at(const char *s, size_t k) {
    for (size_t i = 0; i < k; i++)
        if (!is_digit(s[i])) return false;
    return true;
}

static int two(const char *s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

/* Checks and converts the ten characters YYYY-MM-DD at s into days since the epoch. */
static int read_date(const char *s, size_t n, int64_t *days, const char **why) {
    if (n < 10 || !tm_shape_date(s, 10)) {
        *why = "expected YYYY-MM-DD";
        return -1;
    }
    int y = two(s) * 100 + two(s + 2), m = two(s + 5), d = two(s + 8);
    if (y == 0) {
        *why = YEAR_ZERO_WHY;
        return -1;
    }
    if (m < 1 || m > 12) {
        *why = MONTH_WHY[m];
        return -1;
    }
    if (d < 1 || d > 31) {
        *why = DAY_WHY[d];
        return -1;
    }
    if (d > days_in_month(y, m)) {
        *why = m != 2 ? MONTH_DAYS_WHY[m] : is_leap(y) ? FEB_LEAP_WHY : FEB_COMMON_WHY;
        return -1;
    }
    *days = tm_days_from_civil(y, m, d);
    return 0;
}

/* Fraction digits [s, s+k) after the '.', as microseconds. */
static int read_fraction(const char *s, size_t k, int64_t *us, const char **why) {
    if (k > 9) {
        *why = LONG_FRACTION_WHY;
        return -1;
    }
    int64_t f = 0;
    for (size_t i = 0; i < 6; i++) f = f * 10 + (i < k ? s[i] - '0' : 0);
    for (size_t i = 6; i < k; i++) {
        if (s[i] != '0') {
            *why = FINE_FRACTION_WHY;
            return -1;
        }
    }
    *us = f;
    return 0;
}

/*
 * clock := HH ':' MM [':' SS ['.' digit{1,9}]]
 * Reads a clock at the start of [s, s+n) into microseconds since midnight and sets *used to
 * its length; the caller decides what may follow.
 */
static int read_clock(const char *s, size_t n, size_t *used, int64_t *us, const char **why) {
    if (n < 5 || !digits_at(s, 2) || s[2] != ':' || !digits_at(s + 3, 2)) {
        *why = "expected HH:MM";
        return -1;
    }
    int h = two(s), mi = two(s + 3), sec = 0;
    int64_t frac = 0;
    size_t i = 5;
    if (i < n && s[i] == ':') {
        if (n - i < 3 || !digits_at(s + i + 1, 2)) {
            *why = "expected two digits of seconds";
            return -1;
        }
        sec = two(s + i + 1);
        i += 3;
        if (i < n && s[i] == '.') {
            size_t start = ++i;
            while (i < n && is_digit(s[i])) i++;
            if (i == start) {
                *why = "expected fraction digits after '.'";
                return -1;
            }
            if (read_fraction(s + start, i - start, &frac, why) != 0) return -1;
        }
    }
    if (h > 23) {
        *why = HOUR_WHY[h];
        return -1;
    }
    if (mi > 59) {
        *why = MINUTE_WHY[mi];
        return -1;
    }
    if (sec > 59) {
        *why = sec == 60 ? LEAP_SECOND_WHY : SECOND_WHY[sec];
        return -1;
    }
    *used = i;
    *us = h * US_PER_HOUR + mi * US_PER_MIN + sec * US_PER_SEC + frac;
    return 0;
}

/*
 * zone := 'Z' | 'z' | ('+' | '-') HH [[':'] MM]
 * The whole of [s, s+n) must be the zone; *offset_us is what to subtract to get UTC.
 */
static int read_zone(const char *s, size_t n, int64_t *offset_us, const char **why) {
    if (n == 1 && (s[0] == 'Z' || s[0] == 'z')) {
        *offset_us = 0;
        return 0;
    }
    bool shaped = n >= 3 && (s[0] == '+' || s[0] == '-') && digits_at(s + 1, 2) &&
                  (n == 3 || (n == 5 && digits_at(s + 3, 2)) ||
                   (n == 6 && s[3] == ':' && digits_at(s + 4, 2)));
    if (!shaped) {
        *why = "expected a time zone (Z, +hh:mm or -hh:mm) or the end";
        return -1;
    }
    int h = two(s + 1), m = n == 3 ? 0 : two(s + n - 2);
    if (h > 23) {
        *why = ZONE_HOUR_WHY[h];
        return -1;
    }
    if (m > 59) {
        *why = ZONE_MINUTE_WHY[m];
        return -1;
    }
    int64_t off = h * US_PER_HOUR + m * US_PER_MIN;
    *offset_us = s[0] == '-' ? -off : off;
    return 0;
}

/* ---- parsers ---------------------------------------------------------------------------- */

/* timestamp := date [('T' | 't' | ' ') clock [zone]] */
int tm_parse_timestamp(const char *s, size_t n, int64_t *out_us, const char **why) {
    int64_t days, clock = 0, offset = 0;
    if (read_date(s, n, &days, why) != 0) return -1;
    if (n > 10) {
        if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') {
            *why = "expected 'T' or a space after the date";
            return -1;
        }
        size_t used;
        if (read_clock(s + 11, n - 11, &used, &clock, why) != 0) return -1;
        size_t rest = 11 + used;
        if (rest < n && read_zone(s + rest, n - rest, &offset, why) != 0) return -1;
    }
    int64_t ts = days * US_PER_DAY + clock - offset;
    if (ts < TM_TS_MIN || ts > TM_TS_MAX) {
        *why = OUT_OF_RANGE;
        return -1;
    }
    *out_us = ts;
    return 0;
}

int tm_parse_date(const char *s, size_t n, int32_t *out_days, const char **why) {
    int64_t days;
    if (read_date(s, n, &days, why) != 0) return -1;
    if (n != 10) {
        *why = "unexpected text after the date";
        return -1;
    }
    *out_days = (int32_t)days;
    return 0;
}

int tm_parse_time(const char *s, size_t n, int64_t *out_us, const char **why) {
    size_t used;
    int64_t us;
    if (read_clock(s, n, &used, &us, why) != 0) return -1;
    if (used != n) {
        *why = "unexpected text after the time";
        return -1;
    }
    *out_us = us;
    return 0;
}

static char upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c; }

/*
 * duration := ['-'] 'P' [n 'Y'] [n 'M'] [n 'W'] [n 'D'] ['T' [n 'H'] [n 'M'] [n ['.' f] 'S']]
 * n := ['-'] digit+     (a per-component '-' only without the leading one, as PostgreSQL
 *                        prints mixed signs: P1MT-1H)
 * Designators are accepted in either case. Ranks 0..6 are Y M W D H M S; each component must
 * rank above the one before it, which rules out repeats and disorder alike.
 */
int tm_parse_duration(const char *s, size_t n, RxDuration *out, const char **why) {
    static const int64_t UNIT_US[7] = {0, 0, 7 * US_PER_DAY, US_PER_DAY, US_PER_HOUR,
                                       US_PER_MIN, US_PER_SEC};
    size_t i = 0;
    bool negate = false;
    if (i < n && s[i] == '-') {
        negate = true;
        i++;
    }
    if (i >= n || upper(s[i]) != 'P') {
        *why = "expected 'P' to start the duration";
        return -1;
    }
    i++;
    int64_t months = 0, us = 0;
    int last_rank = -1;
    bool in_time = false, any = false, any_in_time = false;
    while (i < n) {
        if (upper(s[i]) == 'T') {
            if (in_time) {
                *why = "'T' appears twice";
                return -1;
            }
            in_time = true;
            i++;
            continue;
        }
        bool minus = false;
        if (s[i] == '-' && !negate) {
            minus = true;
            i++;
        }
        size_t start = i;
        int64_t v = 0;
        while (i < n && is_digit(s[i])) {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[i] - '0', &v)) {
                *why = OUT_OF_RANGE;
                return -1;
            }
            i++;
        }
        if (i == start) {
            *why = "expected a number";
            return -1;
        }
        int64_t frac = 0;
        bool has_frac = false;
        if (i < n && s[i] == '.') {
            size_t fstart = ++i;
            while (i < n && is_digit(s[i])) i++;
            if (i == fstart) {
                *why = "expected fraction digits after '.'";
                return -1;
            }
            if (read_fraction(s + fstart, i - fstart, &frac, why) != 0) return -1;
            has_frac = true;
        }
        if (i >= n) {
            *why = "number without a unit (Y, M, W, D, H, M or S)";
            return -1;
        }
        char c = upper(s[i++]);
        int rank;
        switch (c) {
        case 'Y': rank = 0; break;
        case 'M': rank = in_time ? 5 : 1; break;
        case 'W': rank = 2; break;
        case 'D': rank = 3; break;
        case 'H': rank = 4; break;
        case 'S': rank = 6; break;
        default:
            *why = "unknown unit (expected Y, M, W, D, H, M or S)";
            return -1;
        }
        if (!in_time && rank >= 4) {
            *why = "hours, minutes and seconds need a 'T' before them (PT1H)";
            return -1;
        }
        if (in_time && rank < 4) {
            *why = "years, months, weeks and days go before the 'T'";
            return -1;
        }
        if (has_frac && rank != 6) {
            *why = "only seconds may have a fraction";
            return -1;
        }
        if (rank <= last_rank) {
            *why = "components out of order (expected Y M W D T H M S, each at most once)";
            return -1;
        }
        last_rank = rank;
        any = true;
        any_in_time |= in_time;
        /* Negative parts are subtracted rather than negated at the end, so that the most
         * negative value (which tm_format_duration writes for INT64_MIN) reads back. */
        int64_t part, *acc = rank <= 1 ? &months : &us;
        bool ovf = rank <= 1 ? __builtin_mul_overflow(v, rank == 0 ? 12 : 1, &part)
                             : __builtin_mul_overflow(v, UNIT_US[rank], &part) ||
                                   __builtin_add_overflow(part, frac, &part);
        if (!ovf)
            ovf = negate || minus ? __builtin_sub_overflow(*acc, part, acc)
                                  : __builtin_add_overflow(*acc, part, acc);
        if (ovf) {
            *why = OUT_OF_RANGE;
            return -1;
        }
    }
    if (!any) {
        *why = in_time ? "expected a component after 'T'" : "expected at least one component";
        return -1;
    }
    if (in_time && !any_in_time) {
        *why = "expected a component after 'T'";
        return -1;
    }
    out->months = months;
    out->us = us;
    return 0;
}

size_t tm_explain(RxType t, const char *s, size_t n, char *buf) {
    const char *why = NULL;
    int rc = -1;
    union {
        int64_t i;
        int32_t d;
        RxDuration dur;
    } v;
    switch (t) {
    case TY_TIMESTAMP: rc = tm_parse_timestamp(s, n, &v.i, &why); break;
    case TY_DATE: rc = tm_parse_date(s, n, &v.d, &why); break;
    case TY_TIME: rc = tm_parse_time(s, n, &v.i, &why); break;
    case TY_DURATION: rc = tm_parse_duration(s, n, &v.dur, &why); break;
    case TY_NULL:
    case TY_INT:
    case TY_FLOAT:
    case TY_BOOL:
    case TY_TEXT:
        why = "not a temporal type";
        break;
    }
    if (rc == 0) {
        buf[0] = '\0';
        return 0;
    }
    if (why == FEB_COMMON_WHY || why == FEB_LEAP_WHY) {
        /* Only read_date gives these, and only after checking the date's shape at s. */
        int y = two(s) * 100 + two(s + 2);
        return (size_t)snprintf(buf, TM_BUF, "February %04d has %d days", y,
                                why == FEB_LEAP_WHY ? 29 : 28);
    }
    size_t len = strlen(why);
    if (len >= TM_BUF) len = TM_BUF - 1;
    memcpy(buf, why, len);
    buf[len] = '\0';
    return len;
}

/* ---- formatting ------------------------------------------------------------------------- */

static char *put2(char *p, int64_t v) {
    p[0] = (char)('0' + v / 10);
    p[1] = (char)('0' + v % 10);
    return p + 2;
}

/* '.' and the six digits of f (1..999999), trailing zeros trimmed; nothing when f is 0. */
static char *put_fraction(char *p, int64_t f) {
    if (f == 0) return p;
    *p++ = '.';
    for (int64_t scale = 100000; f != 0; scale /= 10) {
        *p++ = (char)('0' + f / scale);
        f %= scale;
    }
    return p;
}

/* YYYY-MM-DD; a year outside 0..9999 (not a valid value, but printable) gets its own width. */
static char *put_date(char *p, int64_t days) {
    int64_t y;
    int m, d;
    tm_civil_from_days(days, &y, &m, &d);
    if (y >= 0 && y <= 9999) {
        p = put2(p, y / 100);
        p = put2(p, y % 100);
    } else {
        if (y < 0) *p++ = '-';
        p = num_put_u64(p, y < 0 ? (uint64_t)0 - (uint64_t)y : (uint64_t)y);
    }
    *p++ = '-';
    p = put2(p, m);
    *p++ = '-';
    return put2(p, d);
}

/* HH:MM:SS[.f] for us in [0, US_PER_DAY). */
static char *put_clock(char *p, int64_t us) {
    p = put2(p, us / US_PER_HOUR);
    *p++ = ':';
    p = put2(p, us / US_PER_MIN % 60);
    *p++ = ':';
    p = put2(p, us / US_PER_SEC % 60);
    return put_fraction(p, us % US_PER_SEC);
}

size_t tm_format_timestamp(int64_t us, char *buf) {
    char *p = put_date(buf, floor_div(us, US_PER_DAY));
    *p++ = 'T';
    p = put_clock(p, floor_mod(us, US_PER_DAY));
    *p++ = 'Z';
    *p = '\0';
    return (size_t)(p - buf);
}

size_t tm_format_date(int32_t days, char *buf) {
    char *p = put_date(buf, days);
    *p = '\0';
    return (size_t)(p - buf);
}

size_t tm_format_time(int64_t us, char *buf) {
    char *p = buf;
    if (us >= 0 && us < US_PER_DAY) {
        p = put_clock(p, us);
    } else {
        /* Not a valid TIME; printed as a signed hour count so the bug shows rather than wraps. */
        uint64_t mag = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;
        if (us < 0) *p++ = '-';
        p = num_put_u64(p, mag / (uint64_t)US_PER_HOUR);
        *p++ = ':';
        p = put2(p, (int64_t)(mag / (uint64_t)US_PER_MIN % 60));
        *p++ = ':';
        p = put2(p, (int64_t)(mag / (uint64_t)US_PER_SEC % 60));
        p = put_fraction(p, (int64_t)(mag % (uint64_t)US_PER_SEC));
    }
    *p = '\0';
    return (size_t)(p - buf);
}

/* One component: [sign] magnitude unit, skipped when the magnitude is zero. */
static char *put_part(char *p, bool minus, uint64_t mag, char unit) {
    if (mag == 0) return p;
    if (minus) *p++ = '-';
    p = num_put_u64(p, mag);
    *p++ = unit;
    return p;
}

size_t tm_format_duration(RxDuration d, char *buf) {
    char *p = buf;
    if (d.months == 0 && d.us == 0) {
        memcpy(buf, "PT0S", 5);
        return 4;
    }
    /* One leading '-' when nothing is positive; otherwise each part carries its own sign. */
    bool all_neg = d.months <= 0 && d.us <= 0;
    bool m_minus = !all_neg && d.months < 0, u_minus = !all_neg && d.us < 0;
    uint64_t months = d.months < 0 ? (uint64_t)0 - (uint64_t)d.months : (uint64_t)d.months;
    uint64_t us = d.us < 0 ? (uint64_t)0 - (uint64_t)d.us : (uint64_t)d.us;
    if (all_neg) *p++ = '-';
    *p++ = 'P';
    p = put_part(p, m_minus, months / 12, 'Y');
    p = put_part(p, m_minus, months % 12, 'M');
    p = put_part(p, u_minus, us / (uint64_t)US_PER_DAY, 'D');
    uint64_t rest = us % (uint64_t)US_PER_DAY;
    if (rest != 0) {
        *p++ = 'T';
        p = put_part(p, u_minus, rest / (uint64_t)US_PER_HOUR, 'H');
        p = put_part(p, u_minus, rest / (uint64_t)US_PER_MIN % 60, 'M');
        uint64_t sec_us = rest % (uint64_t)US_PER_MIN;
        if (sec_us != 0) {
            if (u_minus) *p++ = '-';
            p = num_put_u64(p, sec_us / (uint64_t)US_PER_SEC);
            p = put_fraction(p, (int64_t)(sec_us % (uint64_t)US_PER_SEC));
            *p++ = 'S';
        }
    }
    *p = '\0';
    return (size_t)(p - buf);
}

/* ---- arithmetic ------------------------------------------------------------------------- */

int tm_ts_add(int64_t ts, RxDuration d, int64_t *out) {
    if (ts < TM_TS_MIN || ts > TM_TS_MAX) return -1;
    int64_t r = ts;
    if (d.months != 0) {
        int64_t days = floor_div(ts, US_PER_DAY), tod = floor_mod(ts, US_PER_DAY), y, idx;
        int m, day;
        tm_civil_from_days(days, &y, &m, &day);
        if (__builtin_add_overflow(y * 12 + (m - 1), d.months, &idx)) return -1;
        y = floor_div(idx, 12);
        m = (int)floor_mod(idx, 12) + 1;
        if (y < 1 || y > 9999) return -1;
        if (day > days_in_month(y, m)) day = days_in_month(y, m);
        r = tm_days_from_civil(y, m, day) * US_PER_DAY + tod;
    }
    if (__builtin_add_overflow(r, d.us, &r) || r < TM_TS_MIN || r > TM_TS_MAX) return -1;
    *out = r;
    return 0;
}

int tm_bucket_ts(RxDuration width, int64_t ts, int64_t origin, int64_t *out, const char **why) {
    if (width.months != 0 && width.us != 0) {
        *why = "a bucket width is whole months or a fixed length, not both";
        return -1;
    }
    if (width.months < 0 || width.us < 0 || (width.months == 0 && width.us == 0)) {
        *why = "a bucket width must be greater than zero";
        return -1;
    }
    *why = "the bucket is out of range";
    if (ts < TM_TS_MIN || ts > TM_TS_MAX || origin < TM_TS_MIN || origin > TM_TS_MAX) return -1;
    if (width.months == 0) {
        /* both within the range: the difference fits in 64 bits */
        int64_t k = floor_div(ts - origin, width.us), r;
        if (__builtin_mul_overflow(k, width.us, &r) || __builtin_add_overflow(r, origin, &r) ||
            r < TM_TS_MIN || r > TM_TS_MAX)
            return -1;
        *out = r;
        return 0;
    }
    /* months: count calendar months from the origin's month, then step back one width when
     * the origin's day and time of day put that start after ts */
    int64_t ty, oy;
    int tm, td, om, od;
    tm_civil_from_days(floor_div(ts, US_PER_DAY), &ty, &tm, &td);
    tm_civil_from_days(floor_div(origin, US_PER_DAY), &oy, &om, &od);
    int64_t diff = (ty * 12 + tm) - (oy * 12 + om);
    int64_t k = floor_div(diff, width.months) * width.months, r;
    for (int step = 0; step < 3; step++) {
        if (tm_ts_add(origin, (RxDuration){k, 0}, &r) < 0) return -1;
        if (r <= ts) {
            *out = r;
            return 0;
        }
        k -= width.months;
    }
    return -1;
}

int tm_date_add_days(int32_t date, int64_t days, int32_t *out) {
    int64_t r;
    if (__builtin_add_overflow((int64_t)date, days, &r) || r < TM_DATE_MIN || r > TM_DATE_MAX)
        return -1;
    *out = (int32_t)r;
    return 0;
}

/* ---- extract and date_trunc ------------------------------------------------------------- */

static const char *const FIELD_NAME[TF_INVALID + 1] = {
    [TF_YEAR] = "year", [TF_QUARTER] = "quarter", [TF_MONTH] = "month", [TF_WEEK] = "week",
    [TF_DAY] = "day", [TF_HOUR] = "hour", [TF_MINUTE] = "minute", [TF_SECOND] = "second",
    [TF_MILLISECOND] = "millisecond", [TF_MICROSECOND] = "microsecond", [TF_DOW] = "dow",
    [TF_ISODOW] = "isodow", [TF_DOY] = "doy", [TF_EPOCH] = "epoch", [TF_INVALID] = "invalid",
};

TmField tm_field_from_name(const char *s, size_t n) {
    for (int f = 0; f < TF_INVALID; f++) {
        const char *name = FIELD_NAME[f];
        if (strlen(name) != n) continue;
        size_t i = 0;
        while (i < n && (s[i] | 0x20) == name[i]) i++;
        if (i == n) return (TmField)f;
    }
    return TF_INVALID;
}

const char *tm_field_name(TmField f) {
    return f >= TF_YEAR && f <= TF_INVALID ? FIELD_NAME[f] : FIELD_NAME[TF_INVALID];
}

/* ISO day of week of a day number: 1 = Monday .. 7 = Sunday (1970-01-01 was a Thursday). */
static int iso_dow(int64_t days) { return (int)floor_mod(days + 3, 7) + 1; }

/* ISO 8601 week: the week belongs to the year of its Thursday. */
static int iso_week(int64_t days) {
    int64_t thursday = days - iso_dow(days) + 4, y;
    int m, d;
    tm_civil_from_days(thursday, &y, &m, &d);
    return (int)((thursday - tm_days_from_civil(y, 1, 1)) / 7 + 1);
}

int64_t tm_extract_ts(TmField f, int64_t ts) {
    int64_t days = floor_div(ts, US_PER_DAY), tod = floor_mod(ts, US_PER_DAY), y;
    int m, d;
    tm_civil_from_days(days, &y, &m, &d);
    switch (f) {
    case TF_YEAR: return y;
    case TF_QUARTER: return (m - 1) / 3 + 1;
    case TF_MONTH: return m;
    case TF_WEEK: return iso_week(days);
    case TF_DAY: return d;
    case TF_HOUR: return tod / US_PER_HOUR;
    case TF_MINUTE: return tod / US_PER_MIN % 60;
    case TF_SECOND: return tod / US_PER_SEC % 60;
    case TF_MILLISECOND: return tod % US_PER_MIN / 1000;
    case TF_MICROSECOND: return tod % US_PER_MIN;
    case TF_DOW: return iso_dow(days) % 7;
    case TF_ISODOW: return iso_dow(days);
    case TF_DOY: return days - tm_days_from_civil(y, 1, 1) + 1;
    case TF_EPOCH: return floor_div(ts, US_PER_SEC);
    case TF_INVALID: return 0;
    }
    return 0;
}

int tm_trunc_ts(TmField f, int64_t ts, int64_t *out) {
    int64_t days = floor_div(ts, US_PER_DAY), y, unit = 1;
    int m, d;
    if (ts < TM_TS_MIN || ts > TM_TS_MAX) return -1;
    switch (f) {
    case TF_YEAR:
    case TF_QUARTER:
    case TF_MONTH:
        tm_civil_from_days(days, &y, &m, &d);
        if (f == TF_YEAR) m = 1;
        if (f == TF_QUARTER) m = (m - 1) / 3 * 3 + 1;
        *out = tm_days_from_civil(y, m, 1) * US_PER_DAY;
        return 0;
    case TF_WEEK: *out = (days - iso_dow(days) + 1) * US_PER_DAY; return 0;
    case TF_DAY: unit = US_PER_DAY; break;
    case TF_HOUR: unit = US_PER_HOUR; break;
    case TF_MINUTE: unit = US_PER_MIN; break;
    case TF_SECOND: unit = US_PER_SEC; break;
    case TF_MILLISECOND: unit = 1000; break;
    case TF_MICROSECOND: unit = 1; break;
    case TF_DOW:
    case TF_ISODOW:
    case TF_DOY:
    case TF_EPOCH:
    case TF_INVALID:
        return -1;
    }
    *out = floor_div(ts, unit) * unit;
    return 0;
}

/* ---- shapes ----------------------------------------------------------------------------- */

bool tm_shape_date(const char *s, size_t n) {
    return n == 10 && digits_at(s, 4) && s[4] == '-' && digits_at(s + 5, 2) && s[7] == '-' &&
           digits_at(s + 8, 2);
}

/* Length of the clock shape dd:dd[:dd[.d+]] at the start of [s, s+n), or 0. */
static size_t clock_shape(const char *s, size_t n) {
    if (n < 5 || !digits_at(s, 2) || s[2] != ':' || !digits_at(s + 3, 2)) return 0;
    size_t i = 5;
    if (n - i >= 3 && s[i] == ':' && digits_at(s + i + 1, 2)) {
        i += 3;
        if (n - i >= 2 && s[i] == '.' && is_digit(s[i + 1])) {
            i += 2;
            while (i < n && is_digit(s[i])) i++;
        }
    }
    return i;
}

bool tm_shape_time(const char *s, size_t n) { return n >= 5 && clock_shape(s, n) == n; }

bool tm_shape_timestamp(const char *s, size_t n) {
    if (n < 16 || !tm_shape_date(s, 10) || (s[10] != 'T' && s[10] != 't' && s[10] != ' '))
        return false;
    size_t used = clock_shape(s + 11, n - 11);
    if (used == 0) return false;
    const char *z = s + 11 + used;
    size_t k = n - 11 - used;
    if (k == 0) return true;
    if (k == 1) return z[0] == 'Z' || z[0] == 'z';
    return (z[0] == '+' || z[0] == '-') && digits_at(z + 1, 2) &&
           (k == 3 || (k == 5 && digits_at(z + 3, 2)) ||
            (k == 6 && z[3] == ':' && digits_at(z + 4, 2)));
}

/* ---- informal durations (error hints) -------------------------------------------------------- */

const char tm_duration_forms[] =
    "a DURATION is ISO-8601, P[nY][nM][nW][nD][T[nH][nM][n[.f]S]], e.g. 'PT5M', 'PT1H30M', 'P1D'";

/* The unit a word names: 's', 'm' (minutes), 'h', 'd', 'w', 'M' (months), 'y', 'u' (milli-
 * seconds), or 0. */
static char duration_unit(const char *w, size_t n) {
    static const struct { const char *word; char unit; } units[] = {
        {"s", 's'}, {"sec", 's'}, {"secs", 's'}, {"second", 's'}, {"seconds", 's'},
        {"m", 'm'}, {"min", 'm'}, {"mins", 'm'}, {"minute", 'm'}, {"minutes", 'm'},
        {"h", 'h'}, {"hr", 'h'}, {"hrs", 'h'}, {"hour", 'h'}, {"hours", 'h'},
        {"d", 'd'}, {"day", 'd'}, {"days", 'd'}, {"w", 'w'}, {"wk", 'w'}, {"week", 'w'},
        {"weeks", 'w'}, {"mo", 'M'}, {"mon", 'M'}, {"month", 'M'}, {"months", 'M'},
        {"y", 'y'}, {"yr", 'y'}, {"yrs", 'y'}, {"year", 'y'}, {"years", 'y'},
        {"ms", 'u'}, {"msec", 'u'}, {"millisecond", 'u'}, {"milliseconds", 'u'},
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t k = strlen(units[i].word);
        if (k != n) continue;
        size_t j = 0;
        while (j < n && (w[j] | 0x20) == units[i].word[j]) j++;
        if (j == n) return units[i].unit;
    }
    return 0;
}

size_t tm_guess_duration(const char *s, size_t n, char *buf) {
    int64_t years = 0, months = 0, days = 0, hours = 0, minutes = 0, ms = 0;
    const int64_t cap = 1000000000;
    size_t i = 0, parts = 0;
    buf[0] = 0;
    /* H:MM or H:MM:SS */
    int64_t hms[3] = {0, 0, 0};
    int k = 0;
    for (; k < 3; k++) {
        size_t d = i;
        while (i < n && s[i] >= '0' && s[i] <= '9' && i - d < 9) hms[k] = hms[k] * 10 + (s[i++] - '0');
        if (i == d) break;
        if (i == n || s[i] != ':') {
            k++;
            break;
        }
        i++;
    }
    if (k >= 2 && i == n && hms[1] < 60 && hms[2] < 60) {
        hours = hms[0], minutes = hms[1], ms = hms[2] * 1000;
        parts = 1;
    } else {
        i = 0;
        for (;;) {
            while (i < n && (s[i] == ' ' || s[i] == ',' || s[i] == '\t')) i++;
            if (parts > 0 && i + 3 <= n && strncasecmp(s + i, "and", 3) == 0 && (i + 3 == n || s[i + 3] == ' ')) {
                i += 3;
                continue;
            }
            if (i == n) break;
            int64_t v = 0, frac = 0, scale = 1;
            size_t d = i;
            while (i < n && s[i] >= '0' && s[i] <= '9' && v < cap) v = v * 10 + (s[i++] - '0');
            if (i == d || v >= cap) return 0;
            if (i < n && s[i] == '.') {
                i++;
                while (i < n && s[i] >= '0' && s[i] <= '9' && scale < 1000) frac = frac * 10 + (s[i++] - '0'), scale *= 10;
            }
            while (i < n && s[i] == ' ') i++;
            size_t w = i;
            while (i < n && ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')) i++;
            char u = duration_unit(s + w, i - w);
            if (!u) return 0;
            /* a fraction only where it converts exactly to milliseconds */
            int64_t whole_ms = 0;
            switch (u) {
            case 's': whole_ms = 1000; break;
            case 'm': whole_ms = 60000; break;
            case 'h': whole_ms = 3600000; break;
            case 'u': whole_ms = 1; break;
            default: if (frac) return 0;
            }
            if (whole_ms) {
                ms += v * whole_ms + frac * whole_ms / scale;
            } else if (u == 'd') {
                days += v;
            } else if (u == 'w') {
                days += 7 * v;
            } else if (u == 'M') {
                months += v;
            } else {
                years += v;
            }
            parts++;
        }
    }
    if (parts == 0) return 0;
    ms += hours * 3600000 + minutes * 60000;
    /* ms splits into H, M and S only as far as the text named the larger units: '90s' stays
     * PT90S, '1h30m' is PT1H30M */
    int64_t h = 0, m = 0;
    bool used_h = false, used_m = false;
    {
        size_t j = 0;
        while (j < n) {
            while (j < n && !((s[j] | 0x20) >= 'a' && (s[j] | 0x20) <= 'z')) j++;
            size_t w = j;
            while (j < n && ((s[j] | 0x20) >= 'a' && (s[j] | 0x20) <= 'z')) j++;
            char u = duration_unit(s + w, j - w);
            if (u == 'h') used_h = true;
            if (u == 'm') used_m = true;
        }
        if (k >= 2) used_h = used_m = true;
    }
    if (used_h) h = ms / 3600000, ms -= h * 3600000;
    if (used_m || used_h) m = ms / 60000, ms -= m * 60000;
    char *p = buf;
    p += sprintf(p, "P");
    if (years) p += sprintf(p, "%lldY", (long long)years);
    if (months) p += sprintf(p, "%lldM", (long long)months);
    if (days) p += sprintf(p, "%lldD", (long long)days);
    if (h || m || ms || p == buf + 1) {
        p += sprintf(p, "T");
        if (h) p += sprintf(p, "%lldH", (long long)h);
        if (m) p += sprintf(p, "%lldM", (long long)m);
        if (ms || (!h && !m)) {
            if (ms % 1000) {
                p += sprintf(p, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
                while (p[-1] == '0') p--;
                p += sprintf(p, "S");
            } else {
                p += sprintf(p, "%lldS", (long long)(ms / 1000));
            }
        }
    }
    return (size_t)(p - buf);
}
