/*
 * number.c - text for INT and FLOAT values (number.h): strict parsers, the cheap shape tests
 * CSV type detection runs on every cell, and the printers every output writer uses.
 *
 * A FLOAT prints as the shortest decimal that reads back as the same double, laid out the way
 * JavaScript's Number.prototype.toString does (ECMA-262, Number::toString). The digits come
 * from the C library: try 1, 2, ... 17 significant digits with snprintf("%.*e") and keep the
 * first that strtod returns to exactly the same double (17 always do). That is slower than
 * Ryu or Grisu but plainly correct; two shortcuts, each argued where it is made, keep the
 * common cases (integers, values with up to 15 significant digits) out of the C library.
 * It relies on the C locale's '.' as the decimal point, as the rest of Relix does.
 */
#include "types/number.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- printing --------------------------------------------------------------------------- */

/* The two digits of 0..99, for printing two digits at a time. */
static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* 10^0 .. 10^19, every power of ten a uint64_t holds. */
static const uint64_t U10[20] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                 100000000, 1000000000, UINT64_C(10000000000),
                                 UINT64_C(100000000000), UINT64_C(1000000000000),
                                 UINT64_C(10000000000000), UINT64_C(100000000000000),
                                 UINT64_C(1000000000000000), UINT64_C(10000000000000000),
                                 UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
                                 UINT64_C(10000000000000000000)};

/* The number of decimal digits of v (1 for 0), without a loop (an optimisation): the bit
 * length times log10(2) (1233 / 4096, exact for every bit length up to 64) is the digit count
 * of v or one less, and the comparison with U10 adds the one. */
static inline int digit_count(uint64_t v) {
    v |= 1;   /* 0 has one digit; setting bit 0 changes no other count (10^k, k >= 1, is even) */
    int bits = 64 - __builtin_clzll(v);
    int t = (bits * 1233) >> 12;   /* floor(log10(2^(bits-1))) or one more: <= 19 */
    return t + (t < 20 && v >= U10[t]);
}

/* num_put_u64, inlined into this file's printers (an optimisation). */
static inline char *put_u64(char *p, uint64_t v) {
    /* The digit count first, then two digits at a time from the last (an optimisation). */
    int n = digit_count(v);
    char *end = p + n, *q = end;
    while (v >= 100) {
        q -= 2;
        memcpy(q, pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) memcpy(q - 2, pairs + 2 * v, 2);
    else q[-1] = (char)('0' + v);
    return end;
}

char *num_put_u64(char *p, uint64_t v) { return put_u64(p, v); }

size_t num_format_int(int64_t v, char *buf) {
    char *p = buf;
    if (v < 0) *p++ = '-';
    p = num_put_u64(p, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
    *p = '\0';
    return (size_t)(p - buf);
}

/* Splits snprintf's "d.ddde+XX" into its k digits and decimal exponent; returns k. */
static int split_e(const char *t, char *digits, int *exp10) {
    int k = 0, sign = 1, e = 0;
    for (; *t && *t != 'e'; t++)
        if (*t >= '0' && *t <= '9') digits[k++] = *t;
    if (*t == 'e') t++;
    if (*t == '-' || *t == '+') sign = *t++ == '-' ? -1 : 1;
    for (; *t >= '0' && *t <= '9'; t++) e = e * 10 + (*t - '0');
    *exp10 = sign * e;
    return k;
}

/* The k digits and exponent back as text strtod reads. */
static void join_e(const char *digits, int k, int exp10, char *t, size_t cap) {
    snprintf(t, cap, "%c.%.*se%d", digits[0], k - 1, digits + 1, exp10);
}

/*
 * The shortest significant digits of a finite v > 0: writes them (no trailing zeros, at most
 * 17) into digits and returns how many; *exp10 is the decimal exponent of the first digit,
 * so v is about d.ddd * 10^exp10.
 *
 * For each length the nearest decimal is the best candidate, except when v is a power of two:
 * the doubles below it are twice as dense as those above, so the nearest decimal may sit just
 * outside the narrow lower half-gap while the next one up is inside the wide upper one
 * (ECMA-262 asks for the shortest digits that round-trip, whichever side they are on).
 *
 * Optimisation, not needed for correctness: a normal double starts at 15 digits. Any decimal
 * of at most DBL_DIG (15) significant digits survives decimal -> double -> decimal, so if some
 * k <= 15 digits D read back as v, the 15-digit rounding of v is D padded with zeros, and
 * trimming its zeros finds D. Subnormals carry fewer digits and take the full search.
 */
/* memcpy of n <= 24 bytes without a call (an optimisation for the digit strings below): fixed
 * sizes, overlapping where n is not one, never outside [0, n). */
static inline void copy_small(char *dst, const char *src, size_t n) {
    if (n >= 8) {
        memcpy(dst, src, 8);
        if (n > 16) memcpy(dst + 8, src + 8, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        memcpy(dst, src, 4);
        memcpy(dst + n - 4, src + n - 4, 4);
    } else if (n >= 2) {
        memcpy(dst, src, 2);
        memcpy(dst + n - 2, src + n - 2, 2);
    } else if (n == 1) {
        dst[0] = src[0];
    }
}

/* nearbyint(x) for 0 <= x < 2^52, without the call into the C library (an optimisation): the
 * sum with 2^52, where doubles are one apart, rounds x to an integer in the current rounding
 * mode as nearbyint does, and taking 2^52 away again is exact. Needs arithmetic in double
 * precision (FLT_EVAL_METHOD 0); elsewhere it is nearbyint. */
static inline double round_small(double x) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    const double big = 4503599627370496.0;   /* 2^52 */
    return (x + big) - big;
#else
    return nearbyint(x);
#endif
}

/* 10^0 .. 10^22, every power of ten a double holds exactly. */
static const double D10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/*
 * Optimisation, not needed for correctness: by the DBL_DIG argument above, a normal v has at
 * most one decimal of at most 15 significant digits (up to trailing zeros) that reads back as
 * v, and it is the shortest. n * 10^-k with n < 10^15 is checked without the C library: n and
 * 10^k (k <= 22) are exact doubles, and IEEE division rounds n / 10^k correctly, which is
 * exactly the double strtod would give for the text.
 *
 * Whether k decimals are enough is monotone in k while v * 10^k < 10^15: if n / 10^k reads
 * back as v, so does 10n / 10^(k+1) (the same real number, so the same rounded double), and
 * 10n is what the next step finds (x is then within 10^(k+1) ulp(v) / 2 < 1/4 of 10n). So the
 * search may start at any k0 (a caller's guess, such as the previous value's): it finds the
 * same decimal, up to trailing zeros, as a search from 0, unless no k at all works.
 *
 * For finite v with DBL_MIN <= v < 1e15: the smallest k >= k0 (k0 taken as 0 when v * 10^k0
 * is out of range) at which n = round(v * 10^k) reads back as v; *n_out = n. -1 when none.
 */
static inline int fixed_point(double v, int k0, uint64_t *n_out) {
    if (k0 < 0 || k0 > 22 || !(v * D10[k0] < 1e15)) k0 = 0;
    for (int k = k0; k <= 22 && v * D10[k] < 1e15; k++) {
        double x = v * D10[k], scaled = round_small(x);   /* x < 1e15 < 2^52 */
        /* Optimisation: a division that must fail is skipped. If scaled / 10^k rounds to
         * v, then |scaled - 10^k v| <= 10^k ulp(v) / 2 <= x 2^-53 (about) and x is within
         * ulp(x) / 2 <= x 2^-53 of 10^k v, so |x - scaled| <= x 2^-52 (about); the test
         * allows four times that. x - scaled is exact (Sterbenz: scaled >= 1 lies within
         * a factor of two of x), and so is the scaling by a power of two. */
        if (scaled < 1 || fabs(x - scaled) > x * 0x1p-50 || scaled / D10[k] != v) continue;
        *n_out = (uint64_t)scaled;
        return k;
    }
    return -1;
}

static int shortest_digits(double v, char *digits, int *exp10) {
    uint64_t whole_n;
    int places;
    if (v >= DBL_MIN && v < 1e15 && (places = fixed_point(v, 0, &whole_n)) >= 0) {
        char whole[20];
        int len = (int)(num_put_u64(whole, whole_n) - whole), n = len;
        while (n > 1 && whole[n - 1] == '0') n--;
        copy_small(digits, whole, (size_t)n);
        *exp10 = len - 1 - places;
        return n;
    }
    char tmp[48];
    int e2;
    bool pow2 = frexp(v, &e2) == 0.5 && e2 > -1021;
    for (int prec = v >= DBL_MIN ? DBL_DIG - 1 : 0; prec < 16; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec, v);
        if (strtod(tmp, NULL) == v) break;
        if (pow2) {
            int k = split_e(tmp, digits, exp10), i = k - 1;
            while (i >= 0 && digits[i] == '9') digits[i--] = '0';
            if (i >= 0) {
                digits[i]++;
            } else {
                digits[0] = '1';
                ++*exp10;
            }
            join_e(digits, k, *exp10, tmp, sizeof tmp);
            if (strtod(tmp, NULL) == v) break;
        }
        if (prec == 15) snprintf(tmp, sizeof tmp, "%.16e", v);
    }
    int k = split_e(tmp, digits, exp10);
    while (k > 1 && digits[k - 1] == '0') k--;
    return k;
}

/* The plain decimal layout of n / 10^k (k >= 1, n not a multiple of 10^k) at p when it is
 * Number::toString's (n has more than k - 6 digits, so that the first significant digit is
 * at most six places after the point): the integer part, '.', exactly k fraction digits.
 * NULL when the exponent form applies instead. */
static char *put_fixed(char *p, uint64_t n, int k) {
    int len = digit_count(n);
    if (len - k <= -6) return NULL;
    uint64_t ip = 0, fp = n;   /* k >= 16: n < 10^15 is all fraction */
    switch (k) {   /* the usual places by constants, which compile to multiplications */
    case 1: ip = n / 10; break;
    case 2: ip = n / 100; break;
    case 3: ip = n / 1000; break;
    case 4: ip = n / 10000; break;
    default: ip = k < 16 ? n / U10[k] : 0; break;
    }
    if (k < 16) fp = n - ip * U10[k];
    p = put_u64(p, ip);
    *p++ = '.';
    char *e = p + k, *q = e;
    while (q - p >= 2) {
        q -= 2;
        memcpy(q, pairs + 2 * (fp % 100), 2);
        fp /= 100;
    }
    if (q > p) q[-1] = (char)('0' + fp);
    return e;
}

/*
 * Number::toString's layout, with k digits d1..dk and n = exp10 + 1 (so v = 0.d1..dk * 10^n):
 *   k <= n <= 21     digits then n - k zeros              123456789012345680000
 *   0 < n <= 21      first n digits '.' the rest           10.25
 *   -6 < n <= 0      "0." then -n zeros then the digits    0.000001
 *   otherwise        d1 ['.' d2..dk] 'e' sign (n - 1)      1e+21, 1.5e-7
 */
char *num_put_double(char *p, double v, int *hint) {
    if (isnan(v)) {
        memcpy(p, "NaN", 3);
        return p + 3;
    }
    if (signbit(v)) {
        *p++ = '-';
        v = -v;
    }
    if (isinf(v)) {
        memcpy(p, "Infinity", 8);
        return p + 8;
    }
    if (v == 0) {
        *p++ = '0';
        return p;
    }
    /* Optimisation, not needed for correctness: integers below 2^53 print as themselves. */
    if (v < 9007199254740992.0 && v == (double)(int64_t)v) return put_u64(p, (uint64_t)v);
    /* Optimisation: the decimal of fixed_point printed straight from its integer (no digit
     * string in between, whose copies stalled on store forwarding), starting the search at
     * the caller's hint. v is not an integer here, so k >= 1 and stays so once n's trailing
     * zeros are dropped. */
    if (v >= DBL_MIN && v < 1e15) {
        uint64_t n;
        int k = fixed_point(v, hint ? *hint : 0, &n);
        if (k >= 0) {
            if (hint) *hint = k;
            while (k > 1 && n % 10 == 0) {
                n /= 10;
                k--;
            }
            char *e = put_fixed(p, n, k);
            if (e) return e;
        }
    }
    char d[20];
    int exp10;
    int k = shortest_digits(v, d, &exp10);
    int n = exp10 + 1;
    if (k <= n && n <= 21) {
        copy_small(p, d, (size_t)k);
        p += k;
        for (int i = k; i < n; i++) *p++ = '0';
    } else if (0 < n && n <= 21) {
        copy_small(p, d, (size_t)n);
        p += n;
        *p++ = '.';
        copy_small(p, d + n, (size_t)(k - n));
        p += k - n;
    } else if (-6 < n && n <= 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -n; i++) *p++ = '0';
        copy_small(p, d, (size_t)k);
        p += k;
    } else {
        *p++ = d[0];
        if (k > 1) {
            *p++ = '.';
            copy_small(p, d + 1, (size_t)(k - 1));
            p += k - 1;
        }
        *p++ = 'e';
        *p++ = n - 1 < 0 ? '-' : '+';
        p = num_put_u64(p, (uint64_t)(n - 1 < 0 ? 1 - n : n - 1));
    }
    return p;
}

size_t num_format_double(double v, char *buf) {
    char *e = num_put_double(buf, v, NULL);
    *e = '\0';
    return (size_t)(e - buf);
}

/* ---- parsing ---------------------------------------------------------------------------- */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool num_shape_int(const char *s, size_t n) {
    size_t i = n > 0 && (s[0] == '+' || s[0] == '-');
    if (i == n) return false;
    for (; i < n; i++)
        if (!is_digit(s[i])) return false;
    return true;
}

int num_parse_int(const char *s, size_t n, int64_t *out) {
    if (!num_shape_int(s, n)) return -1;
    bool neg = s[0] == '-';
    size_t i = s[0] == '+' || s[0] == '-';
    /* Accumulated negatively, so INT64_MIN is reachable. */
    int64_t v = 0;
    for (; i < n; i++)
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, s[i] - '0', &v))
            return -2;
    if (!neg && v == INT64_MIN) return -2;
    *out = neg ? v : -v;
    return 0;
}

/* Case-insensitive equality of [s, s+n) and the lower-case word w. */
static bool word_is(const char *s, size_t n, const char *w) {
    size_t i = 0;
    for (; i < n && w[i]; i++)
        if ((s[i] | 0x20) != w[i]) return false;
    return i == n && w[i] == '\0';
}

/* 'n' for NaN, 'i' for an infinity, 'd' for a decimal, 0 for none; after an optional sign. */
static char float_kind(const char *s, size_t n) {
    size_t i = n > 0 && (s[0] == '+' || s[0] == '-');
    const char *t = s + i;
    size_t m = n - i;
    if (word_is(t, m, "nan")) return 'n';
    if (word_is(t, m, "inf") || word_is(t, m, "infinity")) return 'i';
    /* decimal := digit* ['.' digit*] [('e' | 'E') ['+' | '-'] digit+], with a digit in the mantissa */
    size_t j = 0, mant = 0;
    while (j < m && is_digit(t[j])) j++, mant++;
    if (j < m && t[j] == '.') {
        j++;
        while (j < m && is_digit(t[j])) j++, mant++;
    }
    if (mant == 0) return 0;
    if (j < m && (t[j] == 'e' || t[j] == 'E')) {
        j++;
        if (j < m && (t[j] == '+' || t[j] == '-')) j++;
        size_t start = j;
        while (j < m && is_digit(t[j])) j++;
        if (j == start) return 0;
    }
    return j == m ? 'd' : 0;
}

bool num_shape_float(const char *s, size_t n) { return float_kind(s, n) != 0; }

int num_parse_float(const char *s, size_t n, double *out) {
    char kind = float_kind(s, n);
    if (kind == 0) return -1;
    bool neg = s[0] == '-';
    if (kind == 'n') {
        *out = neg ? -NAN : NAN;
        return 0;
    }
    if (kind == 'i') {
        *out = neg ? -INFINITY : INFINITY;
        return 0;
    }
    /* strtod needs a terminated copy; long texts (hundreds of digits) get a temporary one. */
    char small[128];
    char *text = n < sizeof small ? small : malloc(n + 1);
    if (!text) return -1;
    memcpy(text, s, n);
    text[n] = '\0';
    double v = strtod(text, NULL);
    if (text != small) free(text);
    if (isinf(v)) return -2;
    *out = v;
    return 0;
}
