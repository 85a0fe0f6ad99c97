/*
 * csv.c - reads an RFC 4180 CSV file into a Table (io.h), the data source of `csv('path')`.
 *
 * It sits at the bottom of the pipeline beside the connectors: exec's scan hands the columns it
 * returns to the operators unchanged. It relies on column.h for storage, number.h and
 * temporal.h for the text forms of values, and base.h for errors at a file position.
 *
 * The file is mapped read-only and read in two passes over the mapping:
 *
 *   0. Validate UTF-8 over the whole mapping (eight ASCII bytes at a time) and remember the
 *      first bad byte; the pass that reaches the cell holding it reports the error there.
 *   1. Split records and fields, check every record has the header's field count, count rows,
 *      and (without a schema) narrow each column's type by each non-NULL cell: a column is INT,
 *      FLOAT, BOOL, DATE, TIMESTAMP or TIME when every cell is, FLOAT when it mixes INT and
 *      FLOAT, and TEXT for any other mix (a DATE column with one timestamp is TEXT: no silent
 *      coercion). Shapes decide, not values: 99999999999999999999 is an INT cell, so a column
 *      of integers with one past 64 bits is an error there rather than FLOAT or TEXT. The
 *      detection reads every row, not a sample.
 *   2. Split again, now knowing the row count and the types, and convert each cell straight
 *      into its typed column. A cell with the shape of its column's type that is not a valid
 *      value (2026-02-30), or, under a schema, any cell that does not parse, is an RX_EVALUE
 *      error at that cell.
 *
 * Storage: an unquoted TEXT cell, and a quoted one without "" escapes, is a slice into the
 * mapping, which a StrHeap (heap_from_map) keeps alive for as long as any column uses it. A
 * quoted cell with escapes is unescaped into one malloc'd heap that pass 1 sizes exactly, so it
 * never grows and slices into it stay valid as they are written.
 *
 * Decisions where RFC 4180 leaves room:
 *   - Records end at \n or \r\n; a lone \r inside an unquoted field is data. A final record
 *     without a line end is fine.
 *   - A quote inside an unquoted field (ab"c) is data; after a closing quote only the
 *     delimiter or a line end may follow.
 *   - An empty line is a record of one empty field: a NULL in a one-column file, a field-count
 *     error otherwise.
 *   - An empty field is NULL in every type; a quoted empty field "" is the empty string in a
 *     TEXT column and NULL in any other. A field equal to null_text is NULL only unquoted, so
 *     that "NULL" written with quotes stays text (PostgreSQL's CSV rule).
 *   - Quoting does not change a cell's type: "123" counts as an INT cell.
 *   - Header names are taken verbatim (no trimming). Without a header and without a schema the
 *     columns are named c1, c2, ...
 *   - With a schema and a header, the header must have the schema's field count; when the
 *     schema also names the columns, each header name must equal the schema's name (a file
 *     whose columns are in another order is an error, not a silent mismatch).
 *
 * Speed (an optimisation, not needed for correctness): field scanning is a table lookup per
 * byte and memchr for quotes; integers, plain decimals, and ISO dates and timestamps in their
 * common forms take inline fast paths that decide only values they are sure of and hand
 * everything else to number.c and temporal.c, so both paths agree. Line numbers are never
 * tracked while scanning: an error computes its line by counting newlines up to its offset.
 */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "types/number.h"
#include "types/temporal.h"

void csv_options_default(CsvOptions *o) {
    memset(o, 0, sizeof *o);
    o->delimiter = ',';
    o->header = true;
}

/* ---- scanning ------------------------------------------------------------------------------- */

typedef struct {
    const char *path;
    const char *base;       /* the mapping */
    const char *data;       /* after a UTF-8 byte order mark */
    const char *end;
    const char *bad_utf8;   /* first byte of invalid UTF-8, or end */
    char delim;
    const char *null_text;
    size_t null_len;
    uint8_t stop[256];      /* 1 for the delimiter and '\n' */
    RxError *err;
} Reader;

/* One field: its content s[0..n) (between the quotes when quoted, "" still doubled) and its
 * raw extent [start, end) in the file. quoted: 0 no, 1 yes, 2 yes and it contains "". */
typedef struct {
    const char *s;
    size_t n;
    const char *start, *end;
    int quoted;
} Field;

enum { F_MORE = 0, F_LAST = 1 };  /* the field ended at a delimiter / ended its record */

static int fail_at(Reader *r, RxErrCode code, const char *at, size_t caret, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Records an error at byte at of the file: line counted from the start (quoted newlines
 * count, they are physical lines), column in characters from the line start. */
static int fail_at(Reader *r, RxErrCode code, const char *at, size_t caret, const char *fmt, ...) {
    char msg[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint32_t line = 1;
    const char *ls = r->data, *q = r->base;
    while (q < at) {
        const char *nl = memchr(q, '\n', (size_t)(at - q));
        if (!nl) break;
        line++;
        ls = q = nl + 1;
    }
    if (ls < r->data) ls = r->data;
    const char *le = memchr(at, '\n', (size_t)(r->end - at));
    if (!le) le = r->end;
    if (le > ls && le[-1] == '\r') le--;
    if (le < at) le = at;
    uint32_t col = (uint32_t)utf8_width(ls, (size_t)(at - ls)) + 1;
    if (caret > (size_t)(le - at)) caret = (size_t)(le - at);
    return rx_error_at_file(r->err, code, r->path, line, col, ls, (size_t)(le - ls),
                            (uint32_t)caret, "%s", msg);
}

static uint32_t line_of(const Reader *r, const char *at) {
    uint32_t line = 1;
    for (const char *q = r->base; q < at;) {
        const char *nl = memchr(q, '\n', (size_t)(at - q));
        if (!nl) break;
        line++;
        q = nl + 1;
    }
    return line;
}

/* The quoted field at p (*p is '"'): the cold path of scan_field, with its errors. */
static __attribute__((noinline)) int scan_quoted(Reader *r, const char **pp, Field *f) {
    const char *p = *pp, *end = r->end;
    const char *q = p + 1;
    int quoted = 1;
    const char *close;
    for (;;) {
        close = memchr(q, '"', (size_t)(end - q));
        if (!close)
            return fail_at(r, RX_ECSV, p, 1,
                           "unterminated quoted field: no closing '\"' before the end of the "
                           "file");
        if (close + 1 < end && close[1] == '"') {
            quoted = 2;
            q = close + 2;
            continue;
        }
        break;
    }
    f->s = p + 1;
    f->n = (size_t)(close - (p + 1));
    f->quoted = quoted;
    q = close + 1;
    f->end = q;
    if (q == end) {
        *pp = q;
        return F_LAST;
    }
    if (*q == r->delim) {
        *pp = q + 1;
        return F_MORE;
    }
    if (*q == '\n') {
        *pp = q + 1;
        return F_LAST;
    }
    if (*q == '\r' && (q + 1 == end || q[1] == '\n')) {
        *pp = q + 1 == end ? end : q + 2;
        return F_LAST;
    }
    return fail_at(r, RX_ECSV, q, 1,
                   "text after the closing quote of a field (a quote inside a quoted field is "
                   "written \"\")");
}

/* Splits the field at *pp and advances *pp past its delimiter or line end. Returns F_MORE,
 * F_LAST, or -1 with the error recorded (an unterminated quote, text after a closing quote).
 * At the end of the input it returns an empty last field. */
static inline __attribute__((always_inline)) int scan_field(Reader *r, const char **pp,
                                                            Field *f) {
    const char *p = *pp, *end = r->end;
    f->start = p;
    if (p < end && *p == '"') return scan_quoted(r, pp, f);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* An optimisation: eight bytes at a time, finding the first delimiter or '\n' with the
     * has-zero-byte trick (exact for the lowest matching byte, which is the one taken). */
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    const uint64_t dmask = ones * (unsigned char)r->delim, nmask = ones * '\n';
    while (end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t x = w ^ dmask, y = w ^ nmask;
        uint64_t hit = (((x - ones) & ~x) | ((y - ones) & ~y)) & highs;
        if (hit) {
            p += __builtin_ctzll(hit) >> 3;
            goto found;
        }
        p += 8;
    }
#endif
    {
        const uint8_t *stop = r->stop;
        while (p < end && !stop[(unsigned char)*p]) p++;
    }
    goto found;
found:
    f->s = f->start;
    f->quoted = 0;
    f->end = p;
    size_t n = (size_t)(p - f->start);
    if (p < end && *p == r->delim) {
        f->n = n;
        *pp = p + 1;
        return F_MORE;
    }
    if (n && f->s[n - 1] == '\r') n--;
    f->n = n;
    *pp = p < end ? p + 1 : p;
    return F_LAST;
}

/* Offset of the first invalid UTF-8 byte in [p, end), or end. */
static const char *find_bad_utf8(const char *p, const char *end) {
    const unsigned char *u = (const unsigned char *)p, *e = (const unsigned char *)end;
    while (u < e) {
        while (e - u >= 8) {
            uint64_t w;
            memcpy(&w, u, 8);
            if (w & UINT64_C(0x8080808080808080)) break;
            u += 8;
        }
        if (u >= e) break;
        if (*u < 0x80) {
            u++;
            continue;
        }
        int k = utf8_seq_len(u, (size_t)(e - u));
        if (!k) return (const char *)u;
        u += k;
    }
    return end;
}

static bool is_null(const Reader *r, const Field *f) {
    if (f->n == 0) return true;
    return !f->quoted && r->null_len && f->n == r->null_len &&
           memcmp(f->s, r->null_text, f->n) == 0;
}

/* The cell text for a message: at most 60 bytes, cut at a character boundary. */
static int quote_len(const Field *f) {
    size_t n = f->n;
    if (n <= 60) return (int)n;
    n = 57;
    while (n > 0 && ((unsigned char)f->s[n] & 0xC0) == 0x80) n--;
    return (int)n;
}

/* ---- fast paths (an optimisation: each decides only what it is sure of) ----------------------- */

static inline bool is_digit(char c) { return (unsigned)(c - '0') < 10; }

static inline int dig2(const char *s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

static bool all_digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!is_digit(s[i])) return false;
    return true;
}

/* -?[0-9]{1,18}: always a valid INT. */
static inline bool fast_int(const char *s, size_t n, int64_t *out) {
    size_t i = 0;
    bool neg = false;
    if (n && s[0] == '-') {
        neg = true;
        i = 1;
    }
    if (n - i == 0 || n - i > 18) return false;
    int64_t v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9) return false;
        v = v * 10 + (int64_t)d;
    }
    *out = neg ? -v : v;
    return true;
}

/* -?[0-9]+(\.[0-9]+)? of at most 30 bytes: an INT or FLOAT cell (with a finite value), so a
 * FLOAT column stays FLOAT. */
static inline bool fast_decimal_shape(const char *s, size_t n) {
    size_t i = 0;
    if (n > 30) return false;
    if (i < n && s[i] == '-') i++;
    size_t d0 = i;
    while (i < n && is_digit(s[i])) i++;
    if (i == d0) return false;
    if (i == n) return true;
    if (s[i] != '.') return false;
    size_t f0 = ++i;
    while (i < n && is_digit(s[i])) i++;
    return i == n && i > f0;
}

/* Clinger's fast path: -?digits[.digits] whose digits form an integer m < 2^53 with at most
 * 22 fraction digits; then m / 10^k is one correctly rounded IEEE division, the exact result. */
static inline bool fast_float(const char *s, size_t n, double *out) {
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    bool neg = false;
    if (n && s[0] == '-') {
        neg = true;
        i = 1;
    }
    uint64_t m = 0;
    int digits = 0, frac = 0;
    size_t d0 = i;
    for (; i < n && is_digit(s[i]); i++, digits++) m = m * 10 + (uint64_t)(s[i] - '0');
    if (i == d0 || digits > 19) return false;
    if (i < n) {
        if (s[i] != '.') return false;
        size_t f0 = ++i;
        for (; i < n && is_digit(s[i]); i++, digits++, frac++) {
            if (digits >= 19) return false;
            m = m * 10 + (uint64_t)(s[i] - '0');
        }
        if (i != n || i == f0) return false;
    }
    if (m >= (UINT64_C(1) << 53) || frac > 22) return false;
    double v = (double)m / pow10[frac];
    *out = neg ? -v : v;
    return true;
}

static inline int days_in_month(int y, int m) {
    static const int dim[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))) return 29;
    return dim[m];
}

/* YYYY-MM-DD with a valid date (year 0001..9999). */
static inline bool fast_date(const char *s, size_t n, int *y, int *m, int *d) {
    if (n < 10 || s[4] != '-' || s[7] != '-') return false;
    unsigned bad = 0;
    for (int k = 0; k < 10; k++)
        if (k != 4 && k != 7) bad |= (unsigned)(unsigned char)s[k] - '0' > 9;
    if (bad) return false;
    *y = dig2(s) * 100 + dig2(s + 2);
    *m = dig2(s + 5);
    *d = dig2(s + 8);
    return *y >= 1 && *m >= 1 && *m <= 12 && *d >= 1 && *d <= days_in_month(*y, *m);
}

/* The last date a column read, so that rows of one day (the common case in time series)
 * skip the date's checks and calendar arithmetic. An optimisation. */
typedef struct {
    char key[10];
    bool ok;
    int32_t days;
} DateCache;

static inline bool fast_date_days(DateCache *dc, const char *s, size_t n, int32_t *days) {
    if (n < 10) return false;
    if (dc->ok && memcmp(s, dc->key, 10) == 0) {
        *days = dc->days;
        return true;
    }
    int y, m, d;
    if (!fast_date(s, n, &y, &m, &d)) return false;
    memcpy(dc->key, s, 10);
    dc->ok = true;
    dc->days = (int32_t)tm_days_from_civil(y, m, d);
    *days = dc->days;
    return true;
}

/* HH:MM:SS[.f{1,6}] with valid fields; *us set. */
static inline bool fast_time(const char *s, size_t n, int64_t *us) {
    if (n < 8 || s[2] != ':' || s[5] != ':') return false;
    unsigned bad = 0;
    for (int k = 0; k < 8; k++)
        if (k != 2 && k != 5) bad |= (unsigned)(unsigned char)s[k] - '0' > 9;
    if (bad) return false;
    int h = dig2(s), mi = dig2(s + 3), sec = dig2(s + 6);
    if (h > 23 || mi > 59 || sec > 59) return false;
    int64_t f = 0;
    if (n > 8) {
        if (s[8] != '.' || n == 9 || n > 15 || !all_digits(s + 9, n - 9)) return false;
        size_t k = 9;
        for (; k < n; k++) f = f * 10 + (s[k] - '0');
        for (; k < 15; k++) f *= 10;
    }
    *us = h * US_PER_HOUR + mi * US_PER_MIN + sec * US_PER_SEC + f;
    return true;
}

/* YYYY-MM-DDTHH:MM:SS[.f{1,6}]Z with valid fields. */
static inline bool fast_timestamp(DateCache *dc, const char *s, size_t n, int64_t *us) {
    int32_t days;
    int64_t t;
    if (n < 20 || s[10] != 'T' || s[n - 1] != 'Z' || !fast_time(s + 11, n - 12, &t) ||
        !fast_date_days(dc, s, 10, &days))
        return false;
    *us = days * US_PER_DAY + t;
    return true;
}

static inline bool is_bool(const char *s, size_t n, uint8_t *out) {
    if (n == 4 && (s[0] | 0x20) == 't' && (s[1] | 0x20) == 'r' && (s[2] | 0x20) == 'u' &&
        (s[3] | 0x20) == 'e') {
        *out = 1;
        return true;
    }
    if (n == 5 && (s[0] | 0x20) == 'f' && (s[1] | 0x20) == 'a' && (s[2] | 0x20) == 'l' &&
        (s[3] | 0x20) == 's' && (s[4] | 0x20) == 'e') {
        *out = 0;
        return true;
    }
    return false;
}

/* ---- type detection ------------------------------------------------------------------------- */

/* A cell's kind, one of the detected types; TY_NULL for a column with no value yet. */
static RxType classify(const char *s, size_t n) {
    int64_t i;
    uint8_t b;
    if (fast_int(s, n, &i)) return TY_INT;
    /* An integer too large for 64 bits still has the INT shape: in an INT column it is an
     * error at its cell, never a silent FLOAT that loses digits or a TEXT column. */
    if (num_shape_int(s, n)) return TY_INT;
    if (num_shape_float(s, n)) return TY_FLOAT;
    if (is_bool(s, n, &b)) return TY_BOOL;
    if (tm_shape_date(s, n)) return TY_DATE;
    if (tm_shape_timestamp(s, n)) return TY_TIMESTAMP;
    if (tm_shape_time(s, n)) return TY_TIME;
    return TY_TEXT;
}

static inline RxType combine(RxType col, RxType cell) {
    if (col == TY_NULL || col == cell) return cell;
    if ((col == TY_INT && cell == TY_FLOAT) || (col == TY_FLOAT && cell == TY_INT))
        return TY_FLOAT;
    return TY_TEXT;
}

/* Narrows *kind by one cell. The switch is the fast path for a cell of the column's current
 * kind; everything else goes through classify. */
static inline void detect_cell(const Reader *r, RxType *kind, DateCache *dc, const Field *f) {
    if (*kind == TY_TEXT || is_null(r, f)) return;
    const char *s = f->s;
    size_t n = f->n;
    int64_t i;
    int32_t days;
    uint8_t b;
    switch (*kind) {
    case TY_INT: if (fast_int(s, n, &i)) return; break;
    case TY_FLOAT: if (fast_decimal_shape(s, n)) return; break;
    case TY_BOOL: if (is_bool(s, n, &b)) return; break;
    case TY_DATE: if (n == 10 && fast_date_days(dc, s, n, &days)) return; break;
    case TY_TIMESTAMP: if (fast_timestamp(dc, s, n, &i)) return; break;
    case TY_TIME: if (fast_time(s, n, &i)) return; break;
    case TY_NULL: case TY_TEXT: case TY_DURATION: break;
    }
    *kind = combine(*kind, classify(s, n));
}

/* ---- conversion ----------------------------------------------------------------------------- */

typedef struct {
    Column *col;
    const char *name;
    bool sorted;         /* non-decreasing with no NULL so far */
    bool uses_esc;       /* TEXT: some cell is in the escape heap */
    DateCache dc;
    int64_t last_i;
    double last_f;
} ColState;

/* The error for a cell that is not a valid value of its column's type. For temporal types the
 * reason comes from tm_explain, which names the year ("February 2026 has 28 days"). */
static int fail_value(Reader *r, const ColState *cs, const Field *f, const char *why) {
    char buf[TM_BUF];
    if (type_is_temporal(cs->col->type) && tm_explain(cs->col->type, f->s, f->n, buf) > 0)
        why = buf;
    /* The cell as quoted: control bytes (a NUL would end the quote early) become U+FFFD. */
    char cell[61 * 3];
    size_t k = 0;
    for (int i = 0; i < quote_len(f); i++) {
        unsigned char c = (unsigned char)f->s[i];
        if (c < 0x20 || c == 0x7F) memcpy(cell + k, "\xEF\xBF\xBD", 3), k += 3;
        else cell[k++] = (char)c;
    }
    return fail_at(r, RX_EVALUE, f->start, (size_t)(f->end - f->start),
                   "invalid %s '%.*s%s' in column '%s': %s", type_name(cs->col->type),
                   (int)k, cell, (size_t)quote_len(f) < f->n ? "..." : "", cs->name, why);
}

static inline void track_i(ColState *cs, size_t row, int64_t v) {
    if (row && v < cs->last_i) cs->sorted = false;
    cs->last_i = v;
}

/* Stores field f at row of cs's column. esc is the heap for unescaped quoted text. */
static inline int convert(Reader *r, ColState *cs, size_t row, const Field *f, StrHeap *esc) {
    Column *c = cs->col;
    const char *s = f->s;
    size_t n = f->n;
    const char *why = NULL;
    if (c->type == TY_TEXT) {
        RxStr *dst = col_str(c) + row;
        if (n == 0 && f->quoted) {
            dst->ptr = s;
            dst->len = 0;
            return 0;
        }
        if (is_null(r, f)) goto null;
        if (f->quoted == 2) {
            /* esc was sized in pass 1 for every escaped cell, so it never grows here. */
            char *o = esc->data + esc->len;
            size_t k = 0;
            for (size_t j = 0; j < n; j++) {
                o[k++] = s[j];
                if (s[j] == '"') j++;
            }
            esc->len += k;
            dst->ptr = o;
            dst->len = k;
            cs->uses_esc = true;
            return 0;
        }
        dst->ptr = s;
        dst->len = n;
        return 0;
    }
    if (is_null(r, f)) goto null;
    switch (c->type) {
    case TY_INT: {
        int64_t v;
        if (!fast_int(s, n, &v)) {
            int rc = num_parse_int(s, n, &v);
            if (rc) return fail_value(r, cs, f, rc == -2 ? "out of range for a 64-bit INT"
                                                         : "not an integer");
        }
        col_i64(c)[row] = v;
        track_i(cs, row, v);
        return 0;
    }
    case TY_FLOAT: {
        double v;
        if (!fast_float(s, n, &v)) {
            int rc = num_parse_float(s, n, &v);
            if (rc) return fail_value(r, cs, f, rc == -2 ? "out of range" : "not a number");
        }
        col_f64(c)[row] = v;
        if (row && !(v >= cs->last_f)) cs->sorted = false;
        cs->last_f = v;
        return 0;
    }
    case TY_BOOL: {
        uint8_t v;
        if (!is_bool(s, n, &v)) return fail_value(r, cs, f, "expected true or false");
        col_u8(c)[row] = v;
        return 0;
    }
    case TY_DATE: {
        int32_t v;
        if (!(n == 10 && fast_date_days(&cs->dc, s, n, &v)) && tm_parse_date(s, n, &v, &why))
            return fail_value(r, cs, f, why);
        col_i32(c)[row] = v;
        track_i(cs, row, v);
        return 0;
    }
    case TY_TIMESTAMP: {
        int64_t v;
        if (!fast_timestamp(&cs->dc, s, n, &v) && tm_parse_timestamp(s, n, &v, &why))
            return fail_value(r, cs, f, why);
        col_i64(c)[row] = v;
        track_i(cs, row, v);
        return 0;
    }
    case TY_TIME: {
        int64_t v;
        if (!fast_time(s, n, &v) && tm_parse_time(s, n, &v, &why))
            return fail_value(r, cs, f, why);
        col_i64(c)[row] = v;
        track_i(cs, row, v);
        return 0;
    }
    case TY_DURATION: {
        RxDuration v;
        if (tm_parse_duration(s, n, &v, &why)) return fail_value(r, cs, f, why);
        col_dur(c)[row] = v;
        return 0;
    }
    case TY_TEXT: case TY_NULL: break;
    }
    return fail_value(r, cs, f, "unsupported column type");
null:
    memset((char *)c->data + row * type_width(c->type), 0, type_width(c->type));
    cs->sorted = false;
    if (col_set_null(c, row) < 0)
        return rx_error(r->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'",
                        r->path);
    return 0;
}

/* ---- the reader ----------------------------------------------------------------------------- */

typedef struct {
    Reader r;
    StrHeap *map;        /* the mapping; NULL for an empty file */
    StrHeap *esc;
    int n_cols;
    char **names;        /* malloc'd, n_cols */
    RxType *types;       /* n_cols */
    ColState *cs;        /* n_cols */
    Field *fields;       /* the header's fields (growable scratch) */
    size_t cap_fields;
} Load;

static void load_free(Load *L) {
    if (L->names)
        for (int j = 0; j < L->n_cols; j++) free(L->names[j]);
    free(L->names);
    free(L->types);
    if (L->cs)
        for (int j = 0; j < L->n_cols; j++) col_release(L->cs[j].col);
    free(L->cs);
    free(L->fields);
    heap_release(L->esc);
    heap_release(L->map);
}

static int oom(Load *L) {
    return rx_error(L->r.err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'",
                    L->r.path);
}

/* Splits the first record into L->fields; returns the field count or -1. A data record's
 * UTF-8 is left to pass 1, which reports it with its column's name. */
static int split_first(Load *L, const char **pp, bool is_header) {
    Reader *r = &L->r;
    int n = 0;
    for (;;) {
        if ((size_t)n == L->cap_fields) {
            size_t cap = L->cap_fields ? L->cap_fields * 2 : 16;
            Field *p = realloc(L->fields, cap * sizeof *p);
            if (!p) return oom(L);
            L->fields = p;
            L->cap_fields = cap;
        }
        Field *f = &L->fields[n];
        int k = scan_field(r, pp, f);
        if (k < 0) return -1;
        if (is_header && f->end > r->bad_utf8)
            return fail_at(r, RX_ECSV, f->start, (size_t)(f->end - f->start),
                           "invalid UTF-8 in the header (byte 0x%02X)",
                           (unsigned char)*r->bad_utf8);
        n++;
        if (n > 1000000)
            return fail_at(r, RX_ELIMIT, f->start, 1, "more than 1000000 columns");
        if (k == F_LAST) return n;
    }
}

static char *unescape_dup(const Field *f) {
    char *s = malloc(f->n + 1);
    if (!s) return NULL;
    size_t k = 0;
    for (size_t j = 0; j < f->n; j++) {
        s[k++] = f->s[j];
        if (f->quoted == 2 && f->s[j] == '"') j++;
    }
    s[k] = 0;
    return s;
}

/* Sets names and types from the header (when there is one) and the options. *pp is left at
 * the first data record. */
static int read_header(Load *L, const CsvOptions *opt, const char **pp) {
    Reader *r = &L->r;
    int n = 0;
    if (opt->header || opt->n_schema == 0) {
        const char *p = *pp;
        n = split_first(L, &p, opt->header);
        if (n < 0) return -1;
        if (opt->header) *pp = p;
    }
    int n_cols = opt->n_schema > 0 ? opt->n_schema : n;
    if (opt->header && opt->n_schema > 0 && n != opt->n_schema)
        return fail_at(r, RX_ECSV, L->fields[0].start, 1,
                       "the header has %d field%s, the schema has %d column%s", n,
                       n == 1 ? "" : "s", opt->n_schema, opt->n_schema == 1 ? "" : "s");
    L->n_cols = n_cols;
    L->names = calloc((size_t)n_cols + 1, sizeof *L->names);
    L->types = calloc((size_t)n_cols + 1, sizeof *L->types);
    L->cs = calloc((size_t)n_cols + 1, sizeof *L->cs);
    if (!L->names || !L->types || !L->cs) return oom(L);
    for (int j = 0; j < n_cols; j++) {
        if (opt->header) {
            L->names[j] = unescape_dup(&L->fields[j]);
        } else if (opt->n_schema > 0 && opt->schema_names) {
            L->names[j] = strdup(opt->schema_names[j]);
        } else {
            char buf[24];
            snprintf(buf, sizeof buf, "c%d", j + 1);
            L->names[j] = strdup(buf);
        }
        if (!L->names[j]) return oom(L);
        L->types[j] = opt->n_schema > 0 ? opt->schema_types[j] : TY_NULL;
        if (opt->n_schema > 0 && L->types[j] == TY_NULL)
            return rx_error(r->err, RX_ETYPE, NULL, rx_span(0, 0),
                            "column '%s' of the schema for '%s' has no type", L->names[j],
                            r->path);
    }
    if (!opt->header) return 0;
    for (int j = 0; j < n_cols; j++) {
        const Field *f = &L->fields[j];
        if (f->n == 0)
            return fail_at(r, RX_ECSV, f->start, 1, "column %d has an empty name in the header",
                           j + 1);
        /* Names are C strings: a NUL would cut one short (or empty it) without a word. */
        const char *nul = memchr(f->s, '\0', f->n);
        if (nul)
            return fail_at(r, RX_ECSV, nul, 1, "NUL byte in the name of column %d", j + 1);
        /* A lone \r is data, so a file with old Mac line ends would read as one header line
         * and no rows at all: say so instead. */
        const char *cr = f->quoted ? NULL : memchr(f->s, '\r', f->n);
        if (cr)
            return fail_at(r, RX_ECSV, cr, 1,
                           "carriage return inside the name of column %d: lines that end in "
                           "\\r alone are not line ends (use \\n or \\r\\n)", j + 1);
        if (opt->n_schema > 0 && opt->schema_names && strcmp(L->names[j], opt->schema_names[j]))
            return fail_at(r, RX_ECSV, f->start, (size_t)(f->end - f->start),
                           "column %d is '%s' in the header but '%s' in the schema", j + 1,
                           L->names[j], opt->schema_names[j]);
        for (int k = 0; k < j; k++)
            if (strcmp(L->names[k], L->names[j]) == 0)
                return fail_at(r, RX_ECSV, f->start, (size_t)(f->end - f->start),
                               "duplicate column name '%s' (columns %d and %d)", L->names[j],
                               k + 1, j + 1);
    }
    return 0;
}

/* Pass 1: checks the structure from p on, counts rows and escaped bytes, detects types. */
static int pass1(Load *L, const char *p, bool detect, size_t *out_rows, size_t *out_esc) {
    Reader *r = &L->r;
    const int n_cols = L->n_cols;
    RxType *kinds = L->types;
    ColState *cs = L->cs;
    size_t rows = 0, esc = 0;
    const char *end = r->end;
    while (p < end) {
        const char *rec = p, *extra = NULL, *last_end = p;
        int j = 0;
        for (;;) {
            Field f;
            int k = scan_field(r, &p, &f);
            if (k < 0) return -1;
            if (f.end > r->bad_utf8)
                return fail_at(r, RX_ECSV, f.start, (size_t)(f.end - f.start),
                               "invalid UTF-8 (byte 0x%02X) in column '%s'",
                               (unsigned char)*r->bad_utf8,
                               j < n_cols ? L->names[j] : "(extra field)");
            if (j < n_cols) {
                if (f.quoted == 2) esc += f.n;
                if (detect) detect_cell(r, &kinds[j], &cs[j].dc, &f);
            } else if (!extra) {
                extra = f.start;
            }
            last_end = f.end;
            j++;
            if (k == F_LAST) break;
        }
        if (j != n_cols) {
            const char *at = extra ? extra : last_end;
            return fail_at(r, RX_ECSV, at, extra ? (size_t)(last_end - extra) : 1,
                           "line %u has %d field%s, the header has %d", line_of(r, rec), j,
                           j == 1 ? "" : "s", n_cols);
        }
        if (++rows > RX_MAX_ROWS)
            return fail_at(r, RX_ELIMIT, rec, 1, "more than %u rows", (unsigned)RX_MAX_ROWS);
        if ((rows & 4095) == 0 && progress_update((uint64_t)(p - r->base), r->err) < 0) return -1;
    }
    *out_rows = rows;
    *out_esc = esc;
    return 0;
}

/* Pass 2: converts rows [0, n_rows) starting at p into the columns whose ColState has a
 * column to fill (cs->col set); the other fields are only stepped over. */
static int pass2(Load *L, const char *p, size_t n_rows) {
    Reader *r = &L->r;
    const int n_cols = L->n_cols;
    ColState *cs = L->cs;
    for (size_t row = 0; row < n_rows; row++) {
        if ((row & 4095) == 4095 && progress_update((uint64_t)(p - r->base), r->err) < 0) return -1;
        for (int j = 0; j < n_cols; j++) {
            Field f;
            scan_field(r, &p, &f); /* cannot fail: pass 1 checked the same bytes */
            if (cs[j].col && convert(r, &cs[j], row, &f, L->esc) < 0) return -1;
        }
    }
    return 0;
}

static int map_file(Load *L, const char *path) {
    RxError *err = L->r.err;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot open '%s': %s", path,
                        strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot read '%s': %s", path,
                        strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot read '%s': it is a directory",
                        path);
    }
    size_t size = (size_t)st.st_size;
    char *base = NULL;
    if (size > 0) {
        int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
        flags |= MAP_POPULATE; /* an optimisation: fault the pages in ahead of pass 1 */
#endif
        void *m = mmap(NULL, size, PROT_READ, flags, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            if (e == ENOMEM)
                return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0),
                                "out of memory mapping '%s' (%zu bytes)", path, size);
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot map '%s': %s", path,
                            strerror(e));
        }
        base = m;
        L->map = heap_from_map(base, size);
        if (!L->map) {
            munmap(m, size);
            close(fd);
            return oom(L);
        }
    }
    close(fd);
    static const char empty[1] = "";
    L->r.base = base ? base : empty;
    L->r.end = L->r.base + size;
    L->r.data = L->r.base;
    if (size >= 3 && memcmp(base, "\xEF\xBB\xBF", 3) == 0) L->r.data += 3;
    return 0;
}

struct CsvFile {
    Load L;
    char *path;          /* a copy: the reader's messages name it */
    char *null_text;
    const char *data;    /* the first data record */
    size_t n_rows;
    Table *table;        /* columns not loaded yet are placeholders */
    bool *loaded;
};

void csv_close(CsvFile *f) {
    if (!f) return;
    load_free(&f->L);
    table_free(f->table);
    free(f->loaded);
    free(f->path);
    free(f->null_text);
    free(f);
}

int csv_open(const char *path, const CsvOptions *opt, CsvFile **out, RxError *err) {
    CsvOptions defaults;
    if (!opt) {
        csv_options_default(&defaults);
        opt = &defaults;
    }
    *out = NULL;
    CsvFile *cf = calloc(1, sizeof *cf);
    if (!cf) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'", path);
    cf->path = strdup(path);
    cf->null_text = opt->null_text ? strdup(opt->null_text) : NULL;
    if (!cf->path || (opt->null_text && !cf->null_text)) {
        csv_close(cf);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'", path);
    }
    Load *L = &cf->L;
    Reader *r = &L->r;
    r->path = cf->path;
    r->err = err;
    unsigned char dl = (unsigned char)opt->delimiter;
    if (dl == 0 || dl == '"' || dl == '\n' || dl == '\r' || dl >= 0x80) {
        csv_close(cf);
        return rx_error(err, RX_ECSV, NULL, rx_span(0, 0),
                        "invalid CSV delimiter 0x%02X for '%s'", dl, path);
    }
    if (opt->n_schema > 0 && !opt->schema_types) {
        csv_close(cf);
        return rx_error(err, RX_ECSV, NULL, rx_span(0, 0), "the schema for '%s' has no types",
                        path);
    }
    r->delim = (char)dl;
    r->stop[dl] = 1;
    r->stop['\n'] = 1;
    r->null_text = cf->null_text;
    r->null_len = cf->null_text ? strlen(cf->null_text) : 0;
    if (map_file(L, cf->path) < 0) goto fail;
    r->bad_utf8 = find_bad_utf8(r->data, r->end);

    const char *p = r->data;
    if (p == r->end && (opt->header || opt->n_schema == 0)) {
        fail_at(r, RX_ECSV, p, 0, opt->header ? "file is empty (no header row)"
                                              : "file is empty (no record to count the columns of)");
        goto fail;
    }
    if (read_header(L, opt, &p) < 0) goto fail;

    size_t n_rows = 0, esc_bytes = 0;
    bool detect = opt->n_schema == 0;
    progress_begin("B", (uint64_t)(r->end - r->base), "reading %s", progress_file_name(cf->path));
    if (pass1(L, p, detect, &n_rows, &esc_bytes) < 0) goto fail;
    progress_end();
    if (esc_bytes) {
        L->esc = heap_new(esc_bytes);
        if (!L->esc) {
            oom(L);
            goto fail;
        }
    }
    cf->data = p;
    cf->n_rows = n_rows;
    cf->table = table_new(L->n_cols, n_rows);
    cf->loaded = calloc((size_t)L->n_cols + 1, sizeof *cf->loaded);
    if (!cf->table || !cf->loaded) {
        oom(L);
        goto fail;
    }
    for (int j = 0; j < L->n_cols; j++) {
        RxType t = L->types[j] == TY_NULL ? TY_TEXT : L->types[j];
        L->types[j] = t;
        Column *ph = col_placeholder(t, n_rows);
        if (!ph || table_set(cf->table, j, ph, L->names[j]) < 0) {
            col_release(ph);
            oom(L);
            goto fail;
        }
    }
    *out = cf;
    return 0;
fail:
    csv_close(cf);
    return -1;
}

const Table *csv_table(const CsvFile *f) { return f->table; }
Table *csv_table_mut(CsvFile *f) { return f->table; }

int csv_load(CsvFile *cf, const uint8_t *want, RxError *err) {
    Load *L = &cf->L;
    L->r.err = err;
    size_t n_rows = cf->n_rows;
    bool any = false;
    for (int j = 0; j < L->n_cols; j++) {
        ColState *cs = &L->cs[j];
        cs->col = NULL;
        if (cf->loaded[j] || (want && !want[j])) continue;
        cs->col = col_new(L->types[j], n_rows);
        if (!cs->col) {
            for (int k = 0; k < j; k++) {
                col_release(L->cs[k].col);
                L->cs[k].col = NULL;
            }
            return oom(L);
        }
        cs->name = L->names[j];
        cs->sorted = true;
        any = true;
    }
    if (!any) return 0;
    progress_begin("B", (uint64_t)(L->r.end - L->r.base), "loading %s", progress_file_name(cf->path));
    if (pass2(L, cf->data, n_rows) < 0) goto fail;
    progress_end();
    for (int j = 0; j < L->n_cols; j++) {
        ColState *cs = &L->cs[j];
        Column *c = cs->col;
        if (!c) continue;
        if (c->type == TY_TEXT) {
            if ((L->map && col_add_heap(c, L->map) < 0) || (cs->uses_esc && col_add_heap(c, L->esc) < 0)) {
                oom(L);
                goto fail;
            }
        }
        /* TEXT with few distinct values (symbols, codes, categories) also gets a dictionary,
         * which joins and grouping use instead of hashing every row's bytes again. */
        if (c->type == TY_TEXT && n_rows >= 4096 &&
            col_build_dict(c, n_rows / 16 < 65536 ? (uint32_t)(n_rows / 16) : 65536) < 0) {
            oom(L);
            goto fail;
        }
        bool orderable = c->type == TY_INT || c->type == TY_FLOAT || c->type == TY_TIMESTAMP ||
                         c->type == TY_DATE || c->type == TY_TIME;
        c->sorted = orderable && cs->sorted && !c->valid;
        cs->col = NULL;
        if (table_set(cf->table, j, c, L->names[j]) < 0) {
            oom(L);
            for (int k = j + 1; k < L->n_cols; k++) {
                col_release(L->cs[k].col);
                L->cs[k].col = NULL;
            }
            return -1;
        }
        cf->loaded[j] = true;
    }
#ifdef MADV_DONTNEED
    /* The converted columns hold their own data, and TEXT slices fault their pages back in
     * from the file when read: the mapping's pages need not stay resident (memory). */
    if (L->map && L->map->len) madvise(L->map->data, L->map->len, MADV_DONTNEED);
#endif
    return 0;
fail:
    for (int j = 0; j < L->n_cols; j++) {
        col_release(L->cs[j].col);
        L->cs[j].col = NULL;
    }
    return -1;
}

int csv_read(const char *path, const CsvOptions *opt, Table **out, RxError *err) {
    CsvFile *cf;
    *out = NULL;
    if (csv_open(path, opt, &cf, err) < 0) return -1;
    if (csv_load(cf, NULL, err) < 0) {
        csv_close(cf);
        return -1;
    }
    *out = cf->table;
    cf->table = NULL;
    csv_close(cf);
    return 0;
}
