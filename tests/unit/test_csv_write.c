/*
 * test_csv_write.c - the CSV and TSV writers (src/io/output.c) and the number printers under
 * them (src/types/number.c) against reference copies of the straightforward code they
 * replaced: digit by digit integers, nearbyint in the shortest-digits search, every value
 * through value_text and a StrBuf a byte at a time. Random values of every type (INT64_MIN,
 * negative zero, NaN, infinities, subnormals, huge and tiny exponents, timestamps before 1970
 * and past year 9999, NULLs, text that needs quotes or escapes, dictionary-coded text) must
 * print byte for byte as the reference prints them, on one thread and on several, and every
 * chunk the sink gets must end at a line end.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "io/io.h"
#include "types/number.h"
#include "types/temporal.h"

static uint64_t rng_state = 1;
static uint64_t rnd(void) { return check_splitmix(&rng_state); }
static unsigned rnd_below(unsigned n) { return (unsigned)(rnd() % n); }

/* ---- the reference: the printers as they were, kept verbatim --------------------------------- */

static char *ref_put_u64(char *p, uint64_t v) {
    char tmp[20];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k) *p++ = tmp[--k];
    return p;
}

static size_t ref_format_int(int64_t v, char *buf) {
    char *p = buf;
    if (v < 0) *p++ = '-';
    p = ref_put_u64(p, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
    *p = '\0';
    return (size_t)(p - buf);
}

static int ref_split_e(const char *t, char *digits, int *exp10) {
    int k = 0, sign = 1, e = 0;
    for (; *t && *t != 'e'; t++)
        if (*t >= '0' && *t <= '9') digits[k++] = *t;
    if (*t == 'e') t++;
    if (*t == '-' || *t == '+') sign = *t++ == '-' ? -1 : 1;
    for (; *t >= '0' && *t <= '9'; t++) e = e * 10 + (*t - '0');
    *exp10 = sign * e;
    return k;
}

static void ref_join_e(const char *digits, int k, int exp10, char *t, size_t cap) {
    snprintf(t, cap, "%c.%.*se%d", digits[0], k - 1, digits + 1, exp10);
}

static int ref_shortest_digits(double v, char *digits, int *exp10) {
    static const double P10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (v >= DBL_MIN && v < 1e15) {
        for (int k = 0; k <= 22 && v * P10[k] < 1e15; k++) {
            double scaled = nearbyint(v * P10[k]);
            if (scaled < 1 || scaled / P10[k] != v) continue;
            char whole[20];
            int len = (int)(ref_put_u64(whole, (uint64_t)scaled) - whole), n = len;
            while (n > 1 && whole[n - 1] == '0') n--;
            memcpy(digits, whole, (size_t)n);
            *exp10 = len - 1 - k;
            return n;
        }
    }
    char tmp[48];
    int e2;
    bool pow2 = frexp(v, &e2) == 0.5 && e2 > -1021;
    for (int prec = v >= DBL_MIN ? DBL_DIG - 1 : 0; prec < 16; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec, v);
        if (strtod(tmp, NULL) == v) break;
        if (pow2) {
            int k = ref_split_e(tmp, digits, exp10), i = k - 1;
            while (i >= 0 && digits[i] == '9') digits[i--] = '0';
            if (i >= 0) {
                digits[i]++;
            } else {
                digits[0] = '1';
                ++*exp10;
            }
            ref_join_e(digits, k, *exp10, tmp, sizeof tmp);
            if (strtod(tmp, NULL) == v) break;
        }
        if (prec == 15) snprintf(tmp, sizeof tmp, "%.16e", v);
    }
    int k = ref_split_e(tmp, digits, exp10);
    while (k > 1 && digits[k - 1] == '0') k--;
    return k;
}

static size_t ref_format_double(double v, char *buf) {
    char *p = buf;
    if (isnan(v)) {
        memcpy(buf, "NaN", 4);
        return 3;
    }
    if (signbit(v)) {
        *p++ = '-';
        v = -v;
    }
    if (isinf(v)) {
        memcpy(p, "Infinity", 9);
        return (size_t)(p - buf) + 8;
    }
    if (v == 0) {
        memcpy(p, "0", 2);
        return (size_t)(p - buf) + 1;
    }
    if (v < 9007199254740992.0 && v == (double)(int64_t)v) {
        p = ref_put_u64(p, (uint64_t)v);
        *p = '\0';
        return (size_t)(p - buf);
    }
    char d[20];
    int exp10;
    int k = ref_shortest_digits(v, d, &exp10);
    int n = exp10 + 1;
    if (k <= n && n <= 21) {
        memcpy(p, d, (size_t)k);
        p += k;
        for (int i = k; i < n; i++) *p++ = '0';
    } else if (0 < n && n <= 21) {
        memcpy(p, d, (size_t)n);
        p += n;
        *p++ = '.';
        memcpy(p, d + n, (size_t)(k - n));
        p += k - n;
    } else if (-6 < n && n <= 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -n; i++) *p++ = '0';
        memcpy(p, d, (size_t)k);
        p += k;
    } else {
        *p++ = d[0];
        if (k > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)(k - 1));
            p += k - 1;
        }
        *p++ = 'e';
        *p++ = n - 1 < 0 ? '-' : '+';
        p = ref_put_u64(p, (uint64_t)(n - 1 < 0 ? 1 - n : n - 1));
    }
    *p = '\0';
    return (size_t)(p - buf);
}

static int64_t ref_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t ref_floor_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}

static char *ref_put2(char *p, int64_t v) {
    p[0] = (char)('0' + v / 10);
    p[1] = (char)('0' + v % 10);
    return p + 2;
}

static char *ref_put_fraction(char *p, int64_t f) {
    if (f == 0) return p;
    *p++ = '.';
    for (int64_t scale = 100000; f != 0; scale /= 10) {
        *p++ = (char)('0' + f / scale);
        f %= scale;
    }
    return p;
}

static char *ref_put_date(char *p, int64_t days) {
    int64_t y;
    int m, d;
    tm_civil_from_days(days, &y, &m, &d);
    if (y >= 0 && y <= 9999) {
        p = ref_put2(p, y / 100);
        p = ref_put2(p, y % 100);
    } else {
        if (y < 0) *p++ = '-';
        p = ref_put_u64(p, y < 0 ? (uint64_t)0 - (uint64_t)y : (uint64_t)y);
    }
    *p++ = '-';
    p = ref_put2(p, m);
    *p++ = '-';
    return ref_put2(p, d);
}

static size_t ref_format_timestamp(int64_t us, char *buf) {
    char *p = ref_put_date(buf, ref_floor_div(us, US_PER_DAY));
    *p++ = 'T';
    int64_t c = ref_floor_mod(us, US_PER_DAY);
    p = ref_put2(p, c / US_PER_HOUR);
    *p++ = ':';
    p = ref_put2(p, c / US_PER_MIN % 60);
    *p++ = ':';
    p = ref_put2(p, c / US_PER_SEC % 60);
    p = ref_put_fraction(p, c % US_PER_SEC);
    *p++ = 'Z';
    *p = '\0';
    return (size_t)(p - buf);
}

static size_t ref_format_date(int32_t days, char *buf) {
    char *p = ref_put_date(buf, days);
    *p = '\0';
    return (size_t)(p - buf);
}

static void ref_put_csv_field(StrBuf *b, RxStr s) {
    bool quote = s.len == 0 || s.ptr[0] == ' ' || s.ptr[s.len - 1] == ' ' ||
                 (s.len >= 3 && memcmp(s.ptr, "\xEF\xBB\xBF", 3) == 0);
    for (size_t i = 0; i < s.len && !quote; i++) {
        char c = s.ptr[i];
        quote = c == ',' || c == '"' || c == '\n' || c == '\r';
    }
    if (!quote) {
        sb_append(b, s.ptr, s.len);
        return;
    }
    sb_putc(b, '"');
    const char *run = s.ptr, *e = s.ptr + s.len;
    for (const char *p = s.ptr; p < e; p++)
        if (*p == '"') {
            sb_append(b, run, (size_t)(p + 1 - run));
            sb_putc(b, '"');
            run = p + 1;
        }
    sb_append(b, run, (size_t)(e - run));
    sb_putc(b, '"');
}

static void ref_put_tsv_field(StrBuf *b, RxStr s) {
    const char *run = s.ptr, *e = s.ptr + s.len;
    for (const char *p = s.ptr; p < e; p++) {
        char c = *p, rep;
        if (c == '\t') rep = 't';
        else if (c == '\n') rep = 'n';
        else if (c == '\r') rep = 'r';
        else if (c == '\\') rep = '\\';
        else continue;
        sb_append(b, run, (size_t)(p - run));
        sb_putc(b, '\\');
        sb_putc(b, rep);
        run = p + 1;
    }
    sb_append(b, run, (size_t)(e - run));
}

/* The reference text of a non-NULL value (TIME, DURATION and BOOL through out_value_text,
 * whose printers this change left alone but for num_put_u64, checked on its own). */
static RxStr ref_value(const Column *c, size_t i, char *buf, StrBuf *scratch) {
    RxStr s = {buf, 0};
    switch (c->type) {
    case TY_TEXT: return col_text(c, i);
    case TY_INT: s.len = ref_format_int(col_i64(c)[i], buf); break;
    case TY_FLOAT: s.len = ref_format_double(col_f64(c)[i], buf); break;
    case TY_TIMESTAMP: s.len = ref_format_timestamp(col_i64(c)[i], buf); break;
    case TY_DATE: s.len = ref_format_date(col_i32(c)[i], buf); break;
    default:
        scratch->n = 0;
        out_value_text(c, i, NULL, scratch);
        s.ptr = scratch->p;
        s.len = scratch->n;
        break;
    }
    return s;
}

static void ref_write(const Table *t, bool tsv, StrBuf *b) {
    char buf[128];
    StrBuf scratch;
    sb_init(&scratch);
    for (int j = 0; j < t->n_cols; j++) {
        RxStr h = {t->names[j], strlen(t->names[j])};
        if (j) sb_putc(b, tsv ? '\t' : ',');
        if (tsv) ref_put_tsv_field(b, h);
        else ref_put_csv_field(b, h);
    }
    sb_putc(b, '\n');
    for (size_t i = 0; i < t->n_rows; i++) {
        for (int j = 0; j < t->n_cols; j++) {
            const Column *c = t->cols[j];
            if (j) sb_putc(b, tsv ? '\t' : ',');
            if (col_is_null(c, i)) {
                if (tsv) sb_append(b, "\\N", 2);
                continue;
            }
            RxStr s = ref_value(c, i, buf, &scratch);
            if (tsv) ref_put_tsv_field(b, s);
            else if (c->type == TY_TEXT) ref_put_csv_field(b, s);
            else sb_append(b, s.ptr, s.len);
        }
        sb_putc(b, '\n');
    }
    sb_free(&scratch);
}

/* ---- random values --------------------------------------------------------------------------- */

static double rnd_double(void) {
    static const double special[] = {0.0, -0.0, NAN, -NAN, INFINITY, -INFINITY, DBL_MIN,
                                     DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN, 1e21, 1e-7,
                                     1e-6, 123456789012345678.0, 0.1, 0.5, 9007199254740992.0,
                                     9007199254740993.0, 1e15, 999999999999999.9, 5e-324, 2.0,
                                     4503599627370495.5, 0.30000000000000004, 1e22, 1e23};
    uint64_t r = rnd();
    double v;
    switch (r % 8) {
    case 0: return special[rnd_below(RX_ARRAY_LEN(special))];
    case 1: { /* any bit pattern: NaNs, subnormals, huge and tiny exponents */
        uint64_t bits = rnd();
        memcpy(&v, &bits, 8);
        return v;
    }
    case 2: /* prices */
        return (double)(rnd() % 10000000) / 100.0 * (r & 8 ? -1 : 1);
    case 3: /* a decimal of up to 17 digits scaled by a power of ten */
        return (double)(rnd() % 100000000000000000) * pow(10, (int)rnd_below(60) - 40);
    case 4: /* powers of two and neighbours (the asymmetric gap) */
        v = ldexp(1.0, (int)rnd_below(2100) - 1074);
        return r & 16 ? nextafter(v, 0) : r & 32 ? nextafter(v, INFINITY) : v;
    case 5: /* subnormals */
        v = ldexp((double)(rnd() >> 12), -1074);
        return r & 8 ? -v : v;
    case 6: /* integers around 2^53 and below */
        return (double)(int64_t)(rnd() >> (r % 64)) * (r & 8 ? -1 : 1);
    default: /* moderate values in full precision */
        return (double)(int64_t)(rnd() >> 11) / (double)(1 + (rnd() & 0xFFFFF));
    }
}

static int64_t rnd_int(void) {
    static const int64_t special[] = {0, -1, 1, 9, 10, 99, 100, INT64_MIN, INT64_MAX,
                                      INT64_MIN + 1, 999999999999999999, -1000000000000000000};
    uint64_t r = rnd();
    if (r % 8 == 0) return special[rnd_below(RX_ARRAY_LEN(special))];
    return (int64_t)rnd() >> (r % 64);
}

static int64_t rnd_ts(void) {
    uint64_t r = rnd();
    switch (r % 5) {
    case 0: return (int64_t)rnd();                                   /* any, years far out */
    case 1: return TM_TS_MIN + (int64_t)(rnd() % (uint64_t)(TM_TS_MAX - TM_TS_MIN));
    case 2: return -(int64_t)(rnd() % (UINT64_C(100) * 365 * 86400000000));   /* before 1970 */
    case 3: return (int64_t)(rnd() % 1000) * 86400000000 / 7 * (r & 8 ? -1 : 1);
    default: /* one trading day, microseconds, many with trailing zeros */
        return 1772443800000000 + (int64_t)(rnd() % 23400000000) / (int64_t)(1 + rnd_below(4) * 333);
    }
}

static void test_numbers_vs_reference(void) {
    rng_state = 11;
    size_t bad = 0;
    for (int i = 0; i < 1000000; i++) {
        char want[64], got[64];
        double v = rnd_double();
        size_t wn = ref_format_double(v, want), gn = num_format_double(v, got);
        if ((wn != gn || memcmp(want, got, wn + 1) != 0) && bad++ < 5)
            fprintf(stderr, "double %a: got '%s', want '%s'\n", v, got, want);
        /* num_put_double from any hint: the one a column carries from value to value, and a
         * random one (out of range too) */
        static int carried;
        int hint = rnd_below(4) ? carried : (int)rnd_below(40) - 8;
        char *he = num_put_double(got, v, rnd_below(4) ? &carried : &hint);
        if (((size_t)(he - got) != wn || memcmp(want, got, wn) != 0) && bad++ < 5)
            fprintf(stderr, "double %a with a hint: got '%.*s', want '%s'\n", v, (int)(he - got), got, want);
        int64_t k = rnd_int();
        wn = ref_format_int(k, want);
        gn = num_format_int(k, got);
        if ((wn != gn || memcmp(want, got, wn + 1) != 0) && bad++ < 5)
            fprintf(stderr, "int %lld: got '%s', want '%s'\n", (long long)k, got, want);
        uint64_t u = rnd() >> rnd_below(64);
        char *we = ref_put_u64(want, u), *ge = num_put_u64(got, u);
        if ((we - want != ge - got || memcmp(want, got, (size_t)(we - want)) != 0) && bad++ < 5)
            fprintf(stderr, "u64 %llu differs\n", (unsigned long long)u);
    }
    CHECK(bad == 0);
}

/* ---- whole tables ---------------------------------------------------------------------------- */

static const char *const TEXTS[] = {"plain", "", " lead", "trail ", "a,b", "say \"hi\"", "two\nlines",
                                    "cr\r", "tab\there", "back\\slash", "\xEF\xBB\xBF" "bom", "é日本",
                                    "\\N", "NULL", "1,2,3", "\"", "a long enough text to pass sixteen bytes"};

/* A dictionary-coded TEXT column of n rows without slices (column.h's lazy column, as the
 * CSV reader makes them), with nulls about one value in 20 NULL (code 0). Its dictionary
 * cycles through TEXTS (strings that print as they are and strings that need quotes or
 * escapes) from a random start: kind 0 all but the last, long one (the writers keep every
 * entry's printed text: all fit in 15 bytes), kind 1 all of them and 3000 quotes (a flag per
 * entry), kind 2 n + 1 entries, more than the rows (read row by row). */
static Column *coded_column(size_t n, int kind, bool nulls) {
    size_t n_dict = kind == 2 ? n + 1 : RX_ARRAY_LEN(TEXTS) - (kind == 0);
    Column *c = rx_calloc(1, sizeof *c);
    c->refcnt = 1;
    c->type = TY_TEXT;
    c->n = n;
    c->codes = rx_malloc((n ? n : 1) * sizeof *c->codes);
    c->dict = rx_malloc(n_dict * sizeof *c->dict);
    c->n_dict = (uint32_t)n_dict;
    size_t shift = rnd_below(RX_ARRAY_LEN(TEXTS));
    for (size_t k = 0; k < n_dict; k++) {
        const char *s = TEXTS[(k + shift) % (RX_ARRAY_LEN(TEXTS) - (kind == 0))];
        c->dict[k] = (RxStr){s, strlen(s)};
    }
    if (kind == 1) {   /* one entry far longer than a row's slack: 3000 quotes, doubled */
        static char quotes[3000];
        memset(quotes, '"', sizeof quotes);
        c->dict[n_dict - 1] = (RxStr){quotes, sizeof quotes};
    }
    for (size_t i = 0; i < n; i++) {
        c->codes[i] = (uint32_t)(rnd() % n_dict);
        if (nulls && rnd_below(20) == 0) {
            col_set_null(c, i);
            c->codes[i] = 0;
        }
    }
    return c;
}

/* A table of n rows of every type, about one value in 20 NULL when nulls is set, else none
 * (and no validity bitmap: the writers skip the NULL tests then). */
static Table *random_table(size_t n, bool nulls) {
    static const RxType types[] = {TY_INT, TY_FLOAT, TY_TEXT, TY_TIMESTAMP, TY_DATE,
                                   TY_TIME, TY_BOOL, TY_DURATION, TY_TIMESTAMP, TY_TEXT,
                                   TY_TEXT, TY_TEXT, TY_TEXT};
    static const char *const names[] = {"i", "f", "t,x", "ts", "d", "tm", "b", "du", "ts2", "sym",
                                        "short", "code", "wide"};
    Table *t = table_new((int)RX_ARRAY_LEN(types), n);
    for (size_t j = 0; j < RX_ARRAY_LEN(types); j++) {
        if (j >= 10) {
            table_set(t, (int)j, coded_column(n, (int)j - 10, nulls), names[j]);
            continue;
        }
        Column *c = col_new(types[j], n);
        int64_t run_ts = 1772443800000000;
        for (size_t i = 0; i < n; i++) {
            switch (types[j]) {
            case TY_INT: col_i64(c)[i] = rnd_int(); break;
            case TY_FLOAT: col_f64(c)[i] = rnd_double(); break;
            case TY_TEXT: {
                const char *s = j == 2 ? TEXTS[rnd_below(RX_ARRAY_LEN(TEXTS))]
                                       : TEXTS[rnd_below(3)];
                col_str(c)[i] = (RxStr){s, strlen(s)};
                break;
            }
            case TY_TIMESTAMP:
                /* ts2: a sorted series within few days, as the date cache sees them */
                if (j == 8) col_i64(c)[i] = run_ts += (int64_t)(rnd() % 20000000000);
                else col_i64(c)[i] = rnd_ts();
                break;
            case TY_DATE: col_i32(c)[i] = (int32_t)rnd(); break;
            case TY_TIME: col_i64(c)[i] = (int64_t)(rnd() % (uint64_t)US_PER_DAY); break;
            case TY_BOOL: col_u8(c)[i] = rnd() & 1; break;
            case TY_DURATION:
                col_dur(c)[i] = (RxDuration){(int64_t)rnd_below(100) - 50, rnd_int() % 1000000000000};
                break;
            default: break;
            }
            if (nulls && rnd_below(20) == 0) col_set_null(c, i);
        }
        table_set(t, (int)j, c, names[j]);
    }
    return t;
}

typedef struct {
    StrBuf b;
    int calls;
    bool bad_end;      /* a chunk that does not end at a line end */
    int fail_at;       /* > 0: the call that fails */
} Capture;

static int capture_write(void *ud, const char *p, size_t n) {
    Capture *c = ud;
    if (++c->calls == c->fail_at) return -1;
    if (n == 0 || p[n - 1] != '\n') c->bad_end = true;
    sb_append(&c->b, p, n);
    return 0;
}

static void test_tables_vs_reference(void) {
    rng_state = 12;
    /* small: one thread's path only; large: blocks on threads */
    static const size_t sizes[] = {0, 1, 1000, 1025, 200000, 1000, 200000};
    for (size_t k = 0; k < RX_ARRAY_LEN(sizes); k++) {
        Table *t = random_table(sizes[k], k < 5);   /* the last two without NULLs */
        for (int tsv = 0; tsv <= 1; tsv++) {
            StrBuf want;
            sb_init(&want);
            ref_write(t, tsv, &want);
            static const int threads[] = {1, 2, 3};
            for (size_t h = 0; h < RX_ARRAY_LEN(threads); h++) {
                rx_set_threads(threads[h]);
                Capture cap;
                memset(&cap, 0, sizeof cap);
                sb_init(&cap.b);
                RxSink sink = {capture_write, &cap};
                RxError e;
                memset(&e, 0, sizeof e);
                CHECK(out_write(t, tsv ? OUT_TSV : OUT_CSV, &sink, &e) == 0);
                bool same = cap.b.n == want.n && memcmp(cap.b.p, want.p, want.n) == 0;
                if (!same) {
                    size_t d = 0;
                    while (d < want.n && d < cap.b.n && want.p[d] == cap.b.p[d]) d++;
                    fprintf(stderr, "%zu rows, %s, %d threads: differs at byte %zu: '%.40s' vs '%.40s'\n",
                            sizes[k], tsv ? "tsv" : "csv", threads[h], d,
                            cap.b.p ? cap.b.p + d : "", want.p + d);
                }
                CHECK(same);
                CHECK(!cap.bad_end);
                sb_free(&cap.b);
            }
            sb_free(&want);
        }
        table_free(t);
    }
    rx_set_threads(0);
}

/* A sink that fails part way: an error, on one thread and on several (the threads stop). */
static void test_failing_sink(void) {
    rng_state = 13;
    Table *t = random_table(300000, true);
    static const int threads[] = {1, 2, 4};
    for (size_t h = 0; h < RX_ARRAY_LEN(threads); h++) {
        rx_set_threads(threads[h]);
        for (int fail_at = 1; fail_at <= 5; fail_at += 2) {
            Capture cap;
            memset(&cap, 0, sizeof cap);
            sb_init(&cap.b);
            cap.fail_at = fail_at;
            RxSink sink = {capture_write, &cap};
            RxError e;
            memset(&e, 0, sizeof e);
            CHECK(out_write(t, OUT_CSV, &sink, &e) == -1);
            CHECK(e.code == RX_EIO);
            CHECK(cap.calls == fail_at);
            sb_free(&cap.b);
        }
    }
    rx_set_threads(0);
    table_free(t);
}

int main(void) {
    test_numbers_vs_reference();
    test_tables_vs_reference();
    test_failing_sink();
    return check_report("csv_write");
}
