/*
 * output.c - the result writers (io.h): the spec's text table, CSV, TSV, JSON and Markdown.
 *
 * The last stage of the pipeline: exec hands over a result Table, and the CLI or the embedding
 * API supplies the sink. Values are printed by number.c (shortest round-trip FLOAT) and
 * temporal.c (ISO-8601), in the forms docs/design.md ("Table output") fixes.
 *
 * Every writer appends to one StrBuf and hands it to the sink whenever it holds 64 KiB, always
 * at the end of a line, so that a large result never sits whole in memory. CSV and TSV format
 * rows straight into the buffer (format_rows), and a result of PAR_MIN_ROWS rows or more in
 * blocks of about 1 MB on threads, handed to the sink in order (format_parallel); the bytes are
 * those of value_text and put_csv_field/put_tsv_field one value at a time. The table format
 * needs its column widths first: it formats every value once to measure it (into a stack
 * buffer, TEXT is measured in place) and again to write it.
 *
 * Choices per format:
 *   table     a TEXT value's newline, carriage return and tab print as \n, \r and \t so that
 *             the grid stays one line per row; every other control character (C0 as \xHH,
 *             DEL as \x7f, C1 U+0080..U+009F as \u00HH) and every byte that is not UTF-8
 *             (as \xHH) is escaped too, so that no value can drive the terminal, and column
 *             widths count the escapes. The table is for reading, not for reading back (a
 *             backslash is not escaped, use csv or json for exact text).
 *   csv       RFC 4180 with \n line ends (not CRLF: the files are read on Unix as often as
 *             not, and every CSV reader accepts \n). A field is quoted only when it contains
 *             the delimiter, a quote, CR or LF, has a leading or trailing space, starts with
 *             U+FEFF (which would read back as a byte order mark), or is the empty string,
 *             so that "" (empty text) and an empty field (NULL) differ.
 *             A table without columns prints nothing.
 *   tsv       PostgreSQL's text format: \t \n \r \\ escaped with a backslash, NULL as \N.
 *   json      an array of objects, one row per line; NaN and infinities are null; strings
 *             escaped as JSON.stringify does (\" \\ \b \f \n \r \t, other control characters
 *             as \u00XX), invalid UTF-8 bytes replaced by U+FFFD. INT, FLOAT and BOOL are
 *             JSON numbers and booleans; temporal values are ISO-8601 strings (a DURATION as
 *             "P1M2DT3H", exact with its months, which seconds would lose).
 *   jsonl     the same objects, one per line and nothing else (JSON Lines); with
 *             OutOptions.query each is wrapped as {"query":N,"row":{...}}.
 *   markdown  a GitHub table; | in a value is \|, control characters and bytes that are not
 *             UTF-8 escaped as in the table format, NULL as NULL. A table without columns prints nothing.
 */
#include "io/io.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/number.h"
#include "types/temporal.h"

int out_format_from_name(const char *name, OutFormat *out) {
    static const struct { const char *name; OutFormat f; } names[] = {
        {"table", OUT_TABLE}, {"csv", OUT_CSV}, {"tsv", OUT_TSV},
        {"json", OUT_JSON},   {"jsonl", OUT_JSONL}, {"markdown", OUT_MARKDOWN}, {"md", OUT_MARKDOWN},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(names); i++)
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].f;
            return 0;
        }
    return -1;
}

/* ---- values --------------------------------------------------------------------------------- */

#define VAL_BUF (TM_BUF > NUM_BUF ? TM_BUF : NUM_BUF)

/* The text of a non-NULL value: TEXT points into the column's heap, anything else is formatted
 * into buf (VAL_BUF bytes). */
static RxStr value_text(const Column *c, size_t row, char *buf) {
    RxStr s = {buf, 0};
    switch (c->type) {
    case TY_TEXT: return col_text(c, row);
    case TY_INT: s.len = num_format_int(col_i64(c)[row], buf); break;
    case TY_FLOAT: s.len = num_format_double(col_f64(c)[row], buf); break;
    case TY_BOOL: s.ptr = col_u8(c)[row] ? "true" : "false"; s.len = col_u8(c)[row] ? 4 : 5; break;
    case TY_TIMESTAMP: s.len = tm_format_timestamp(col_i64(c)[row], buf); break;
    case TY_DATE: s.len = tm_format_date(col_i32(c)[row], buf); break;
    case TY_TIME: s.len = tm_format_time(col_i64(c)[row], buf); break;
    case TY_DURATION: s.len = tm_format_duration(col_dur(c)[row], buf); break;
    case TY_NULL: s.ptr = "NULL"; s.len = 4; break;
    }
    return s;
}

void out_value_text(const Column *c, size_t row, const char *null_text, StrBuf *b) {
    if (col_is_null(c, row) || c->type == TY_NULL) {
        if (null_text) sb_puts(b, null_text);
        return;
    }
    char buf[VAL_BUF];
    RxStr s = value_text(c, row, buf);
    sb_append(b, s.ptr, s.len);
}

/* ---- the chunked sink ----------------------------------------------------------------------- */

#define FLUSH_AT (64 * 1024)

typedef struct {
    StrBuf b;
    const RxSink *sink;
    RxError *err;
    bool failed;
} Out;

static void flush(Out *o) {
    if (o->failed || o->b.n == 0) return;
    if (o->b.oom) {
        o->failed = true;
        rx_error(o->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory writing the result");
        return;
    }
    if (o->sink->write(o->sink->ud, o->b.p, o->b.n) != 0) {
        o->failed = true;
        rx_error(o->err, RX_EIO, NULL, rx_span(0, 0), "cannot write the result");
    }
    o->b.n = 0;
}

/* Called at the end of each line. */
static inline void maybe_flush(Out *o) {
    if (o->b.n >= FLUSH_AT || o->b.oom) flush(o);
}

static bool is_null_at(const Column *c, size_t row) {
    return c->type == TY_NULL || col_is_null(c, row);
}

static bool right_aligned(RxType t) { return t == TY_INT || t == TY_FLOAT; }

/* How put_display writes the character at s[i..]: *len bytes of it are consumed; the result is
 * 0 when they print as they are, else the escape's kind: 'n', 'r', 't' (two-character
 * escapes), 'x' (\xHH for a C0 control, DEL or a byte that is not UTF-8), 'u' (\u00HH for a
 * C1 control, U+0080..U+009F, which a terminal would obey as well). */
static char display_kind(const unsigned char *p, size_t n, size_t *len) {
    unsigned c = p[0];
    *len = 1;
    if (c == '\n') return 'n';
    if (c == '\r') return 'r';
    if (c == '\t') return 't';
    if (c < 0x20 || c == 0x7F) return 'x';
    if (c < 0x80) return 0;
    int k = utf8_seq_len(p, n);
    if (!k) return 'x';
    *len = (size_t)k;
    return k == 2 && c == 0xC2 && p[1] < 0xA0 ? 'u' : 0;
}

/* Appends s for a terminal (table and markdown): \n, \r and \t as two-character escapes,
 * other control characters (C0, DEL, C1) and bytes that are not UTF-8 as \xHH or \u00HH
 * (display_kind), so that no value can drive the terminal; | as \| when pipe is set. */
static void put_display(StrBuf *b, RxStr s, bool pipe) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s.ptr, *e = p + s.len, *run = p;
    while (p < e) {
        size_t len;
        char k = display_kind(p, (size_t)(e - p), &len);
        if (!k && !(pipe && *p == '|')) {
            p += len;
            continue;
        }
        sb_append(b, (const char *)run, (size_t)(p - run));
        if (!k) {
            sb_append(b, "\\|", 2);
        } else if (k == 'x') {
            char esc[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};
            sb_append(b, esc, 4);
        } else if (k == 'u') {
            char esc[6] = {'\\', 'u', '0', '0', hex[p[1] >> 4], hex[p[1] & 15]};
            sb_append(b, esc, 6);
        } else {
            char esc[2] = {'\\', k};
            sb_append(b, esc, 2);
        }
        p += len;
        run = p;
    }
    sb_append(b, (const char *)run, (size_t)(e - run));
}

/* Width in code points of s as put_display writes it (without pipe escapes). */
static size_t display_width(RxStr s) {
    const unsigned char *p = (const unsigned char *)s.ptr, *e = p + s.len;
    size_t w = 0;
    while (p < e) {
        size_t len;
        char k = display_kind(p, (size_t)(e - p), &len);
        w += !k ? 1 : k == 'x' ? 4 : k == 'u' ? 6 : 2;
        p += len;
    }
    return w;
}

/* ---- table ---------------------------------------------------------------------------------- */

static void trim_line(Out *o, size_t line_start) {
    while (o->b.n > line_start && o->b.p[o->b.n - 1] == ' ') o->b.n--;
    if (o->b.p) o->b.p[o->b.n] = 0;
    sb_putc(&o->b, '\n');
    maybe_flush(o);
}

static void put_cell(StrBuf *b, RxStr s, size_t w, size_t width, bool right) {
    if (right) sb_repeat(b, " ", 1, width - w);
    put_display(b, s, false);
    if (!right) sb_repeat(b, " ", 1, width - w);
}

static const char NULL_TEXT[] = "NULL";

/* n with a comma between groups of three digits: 999,960. */
static void put_grouped(StrBuf *b, size_t n) {
    char d[32];
    int k = snprintf(d, sizeof d, "%zu", n);
    for (int i = 0; i < k; i++) {
        if (i > 0 && (k - i) % 3 == 0) sb_putc(b, ',');
        sb_putc(b, d[i]);
    }
}

/* The table, every row or (max_rows > 0 and fewer than the rows) the first and last ones with
 * a line saying how many are not shown, then hint after "; " when set. Widths are measured
 * over the rows shown only. */
static void write_table(Out *o, const Table *t, size_t max_rows, const char *hint) {
    int nc = t->n_cols;
    size_t nr = t->n_rows;
    size_t head = nr, shown = nr;
    if (max_rows > 0 && nr > max_rows) {
        head = (max_rows + 1) / 2;
        shown = max_rows;
    }
#define ROW_AT(k) ((k) < head ? (k) : nr - (shown - (k)))
    char buf[VAL_BUF];
    size_t *width = malloc(((size_t)nc + 1) * sizeof *width);
    if (!width) {
        o->failed = true;
        rx_error(o->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory writing the result");
        return;
    }
    /* Pass 1: widths. */
    for (int j = 0; j < nc; j++) {
        const Column *c = t->cols[j];
        const char *name = t->names[j] ? t->names[j] : "";
        RxStr h = {name, strlen(name)};
        size_t w = display_width(h);
        for (size_t k = 0; k < shown; k++) {
            size_t i = ROW_AT(k), vw;
            if (is_null_at(c, i)) vw = 4;
            else if (c->type == TY_TEXT) vw = display_width(col_text(c, i));
            else vw = value_text(c, i, buf).len; /* ASCII */
            if (vw > w) w = vw;
        }
        width[j] = w;
    }
    /* Pass 2: header, underline, rows. */
    if (nc > 0) {
        size_t ls = o->b.n;
        for (int j = 0; j < nc; j++) {
            const char *name = t->names[j] ? t->names[j] : "";
            RxStr h = {name, strlen(name)};
            sb_append(&o->b, j ? "  " : " ", j ? 2 : 1);
            put_cell(&o->b, h, display_width(h), width[j], right_aligned(t->cols[j]->type));
        }
        trim_line(o, ls);
        ls = o->b.n;
        for (int j = 0; j < nc; j++) {
            sb_append(&o->b, j ? "  " : " ", j ? 2 : 1);
            sb_repeat(&o->b, "\xE2\x94\x80", 3, width[j]);
        }
        trim_line(o, ls);
        for (size_t k = 0; k <= shown && !o->failed; k++) {
            if (k == head && shown < nr) {
                sb_puts(&o->b, " \xE2\x80\xA6 ");
                put_grouped(&o->b, nr - shown);
                sb_puts(&o->b, " rows not shown");
                if (hint) sb_printf(&o->b, "; %s", hint);
                sb_putc(&o->b, '\n');
            }
            if (k == shown) break;
            size_t i = ROW_AT(k);
            ls = o->b.n;
            for (int j = 0; j < nc; j++) {
                const Column *c = t->cols[j];
                RxStr s = {NULL_TEXT, 4};
                size_t w = 4;
                if (!is_null_at(c, i)) {
                    s = value_text(c, i, buf);
                    w = c->type == TY_TEXT ? display_width(s) : s.len;
                }
                sb_append(&o->b, j ? "  " : " ", j ? 2 : 1);
                put_cell(&o->b, s, w, width[j], right_aligned(c->type));
            }
            trim_line(o, ls);
        }
    }
#undef ROW_AT
    sb_printf(&o->b, "(%zu row%s)\n", nr, nr == 1 ? "" : "s");
    free(width);
}

/* ---- csv and tsv ---------------------------------------------------------------------------- */

static void put_csv_field(StrBuf *b, RxStr s) {
    /* A field that starts with U+FEFF is quoted too: first in a file, it would read back as
     * a byte order mark and vanish. */
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

static void put_tsv_field(StrBuf *b, RxStr s) {
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

/* Room for one formatted non-TEXT value: what value_text writes, and the writers below. */
#define CELL_MAX VAL_BUF

/* What the delimited writers keep per column while formatting rows: the last date a TIMESTAMP
 * or DATE column printed, so that rows of one day (the common case in time series) copy its
 * text instead of converting the day count again; and a FLOAT column's num_put_double hint. */
typedef struct {
    int64_t day;           /* the day whose text date holds; valid when len > 0 */
    size_t len;
    char date[TM_BUF];
    int float_hint;
} DayCache;

/* The text of `days` as tm_format_date writes it, through the cache. */
static inline const char *cached_date(DayCache *dc, int64_t days, size_t *len) {
    if (dc->len == 0 || dc->day != days) {
        dc->day = days;
        dc->len = tm_format_date((int32_t)days, dc->date);
    }
    *len = dc->len;
    return dc->date;
}

static inline char *put2d(char *p, unsigned v) {
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    memcpy(p, pairs + 2 * v, 2);
    return p + 2;
}

/* tm_format_timestamp's text of us at p (CELL_MAX bytes there), byte for byte: the date (of
 * any year) through dc, then HH:MM:SS, '.' and the microseconds without trailing zeros when
 * there are any, and 'Z'. Returns the end; writes no NUL. */
static inline char *put_timestamp(char *p, int64_t us, DayCache *dc) {
    int64_t days = us / US_PER_DAY, tod = us % US_PER_DAY;
    if (tod < 0) {
        tod += US_PER_DAY;
        days--;
    }
    size_t dl;
    const char *d = cached_date(dc, days, &dl);
    if (dl == 10) memcpy(p, d, 10);   /* years 0..9999: a copy of fixed size, inlined */
    else memcpy(p, d, dl);
    p += dl;
    *p++ = 'T';
    uint32_t secs = (uint32_t)(tod / US_PER_SEC), frac = (uint32_t)(tod % US_PER_SEC);
    p = put2d(p, secs / 3600);
    *p++ = ':';
    p = put2d(p, secs / 60 % 60);
    *p++ = ':';
    p = put2d(p, secs % 60);
    if (frac) {
        *p++ = '.';
        p = put2d(p, frac / 10000);
        p = put2d(p, frac / 100 % 100);
        p = put2d(p, frac % 100);
        while (p[-1] == '0') p--;   /* frac > 0: a non-zero digit stops it */
    }
    *p++ = 'Z';
    return p;
}

/* num_format_int's text of v at p, without the NUL. Values 0..9999 (counts, quantities) are
 * printed here without the call (an optimisation). */
static inline char *put_int(char *p, int64_t v) {
    if (v >= 0 && v < 10000) {
        unsigned u = (unsigned)v, hi = u / 100;
        if (hi) {
            if (hi < 10) *p++ = (char)('0' + hi);
            else p = put2d(p, hi);
            return put2d(p, u % 100);
        }
        if (u < 10) *p++ = (char)('0' + u);
        else p = put2d(p, u);
        return p;
    }
    if (v < 0) *p++ = '-';
    return num_put_u64(p, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

/* The bytes put_csv_field writes for s at most: every byte a doubled quote, and two quotes. */
static inline size_t csv_field_max(RxStr s) { return 2 * s.len + 2; }

/* Whether s prints in CSV as it is, without quotes: not empty, no space at either end, no
 * leading byte order mark, no delimiter, quote or line end. */
static bool csv_plain(RxStr s) {
    if (s.len == 0 || s.ptr[0] == ' ' || s.ptr[s.len - 1] == ' ' ||
        (s.len >= 3 && memcmp(s.ptr, "\xEF\xBB\xBF", 3) == 0))
        return false;
    for (size_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        if (c == ',' || c == '"' || c == '\n' || c == '\r') return false;
    }
    return true;
}

/* The letter TSV escapes byte c as (after a backslash), or 0 when c prints as it is. */
static inline char tsv_escape(char c) {
    return c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\\' ? '\\' : 0;
}

/* Whether s prints in TSV as it is, nothing escaped. */
static bool tsv_plain(RxStr s) {
    for (size_t i = 0; i < s.len; i++)
        if (tsv_escape(s.ptr[i])) return false;
    return true;
}

/* put_csv_field's text of s at p (csv_field_max(s) bytes there); returns the end. */
static char *put_csv_text(char *p, RxStr s) {
    if (csv_plain(s)) {
        if (s.len <= 16) {
            for (size_t i = 0; i < s.len; i++) p[i] = s.ptr[i];  /* short: no call */
        } else {
            memcpy(p, s.ptr, s.len);
        }
        return p + s.len;
    }
    *p++ = '"';
    for (size_t i = 0; i < s.len; i++) {
        *p++ = s.ptr[i];
        if (s.ptr[i] == '"') *p++ = '"';
    }
    *p++ = '"';
    return p;
}

/* put_tsv_field's text of s at p (2 * s.len bytes there); returns the end. */
static char *put_tsv_text(char *p, RxStr s) {
    for (size_t i = 0; i < s.len; i++) {
        char c = s.ptr[i], rep = tsv_escape(c);
        if (rep) *p++ = '\\', *p++ = rep;
        else *p++ = c;
    }
    return p;
}

/* A dictionary entry's text as the writer prints it (quoted or escaped), when that is at
 * most 15 bytes: one 16-byte copy puts it in place (the row's room covers the extra bytes). */
typedef struct {
    char text[15];
    uint8_t len;
} ShortText;

/* What the delimited writers know about a table's columns before the first row, the same
 * for every thread (read only while rows are formatted). A dictionary-coded TEXT column
 * (column.h) has few distinct strings, so they are looked at once rather than per row: when
 * every one prints as at most 15 bytes, their printed texts are kept side by side (short,
 * one small array instead of strings scattered over the input's heap, and the row's room
 * known without reading its value); otherwise whether each prints as it is (plain: CSV needs
 * no quotes, TSV nothing escaped). */
typedef struct {
    bool nulls;        /* some column may hold a NULL (has a validity bitmap, or is TY_NULL) */
    size_t row_need;   /* a row's bytes at most, but for the TEXT columns listed in scan */
    int n_scan;
    int *scan;         /* the TEXT columns without short texts: their values' worst cases add
                        * per row */
    ShortText **short_text;   /* per column: a planned coded column's printed dict[code]... */
    uint8_t **plain;          /* ...or, when some is longer, plain[code]; else both NULL */
} RowPlan;

static void plan_free(RowPlan *rp, int nc) {
    for (int j = 0; j < nc; j++) {
        if (rp->plain) free(rp->plain[j]);
        if (rp->short_text) free(rp->short_text[j]);
    }
    free(rp->plain);
    free(rp->short_text);
    free(rp->scan);
}

/* The printed texts of c's dictionary when every one is at most 15 bytes (malloc'd, n_dict
 * entries); NULL when some is longer or out of memory (*oom set then). */
static ShortText *short_texts(const Column *c, bool tsv, bool *oom) {
    for (uint32_t k = 0; k < c->n_dict; k++)
        if (c->dict[k].len > 15) return NULL;
    ShortText *st = malloc((c->n_dict ? c->n_dict : 1) * sizeof *st);
    if (!st) {
        *oom = true;
        return NULL;
    }
    for (uint32_t k = 0; k < c->n_dict; k++) {
        char buf[2 * 15 + 2];   /* csv_field_max of 15 bytes */
        RxStr s = c->dict[k];
        size_t n = (size_t)((tsv ? put_tsv_text(buf, s) : put_csv_text(buf, s)) - buf);
        if (n > 15) {
            free(st);
            return NULL;
        }
        memset(&st[k], 0, sizeof st[k]);
        memcpy(st[k].text, buf, n);
        st[k].len = (uint8_t)n;
    }
    return st;
}

/* The largest dictionary plan_rows looks at (its short texts take 16 bytes an entry). */
#define PLAN_MAX_DICT (1u << 20)

/* Fills rp for t's columns. A coded column gets a plan only when its dictionary is no larger
 * than the table (a host column's dictionary may hold many strings no row has) nor than
 * PLAN_MAX_DICT. -1 when out of memory (rp then holds nothing to free). */
static int plan_rows(RowPlan *rp, const Table *t, bool tsv) {
    const int nc = t->n_cols;
    memset(rp, 0, sizeof *rp);
    rp->row_need = (size_t)nc * (CELL_MAX + 2) + 1;   /* CELL_MAX a value, separators, '\n' */
    rp->scan = malloc((size_t)nc * sizeof *rp->scan);
    rp->plain = calloc((size_t)nc, sizeof *rp->plain);
    rp->short_text = calloc((size_t)nc, sizeof *rp->short_text);
    if (!rp->scan || !rp->plain || !rp->short_text) goto oom;
    for (int j = 0; j < nc; j++) {
        const Column *c = t->cols[j];
        if (c->valid || c->type == TY_NULL) rp->nulls = true;
        if (c->type != TY_TEXT) continue;
        if (!c->codes || !c->dict || c->n_dict > t->n_rows || c->n_dict > PLAN_MAX_DICT) {
            rp->scan[rp->n_scan++] = j;
            continue;
        }
        bool oom = false;
        rp->short_text[j] = short_texts(c, tsv, &oom);
        if (oom) goto oom;
        if (rp->short_text[j]) {
            rp->row_need += sizeof(ShortText);
            continue;
        }
        uint8_t *plain = malloc(c->n_dict ? c->n_dict : 1);
        if (!plain) goto oom;
        for (uint32_t k = 0; k < c->n_dict; k++)
            plain[k] = tsv ? tsv_plain(c->dict[k]) : csv_plain(c->dict[k]);
        rp->plain[j] = plain;
        rp->scan[rp->n_scan++] = j;   /* a long entry no row has must not size every row */
    }
    return 0;
oom:
    plan_free(rp, nc);
    memset(rp, 0, sizeof *rp);
    return -1;
}

/* n bytes from s to p without a call for n <= 16 (an optimisation for short TEXT values):
 * fixed-size copies, overlapping where n is not a power of two, never outside [0, n). */
static inline void copy_text(char *p, const char *s, size_t n) {
    if (n > 16) memcpy(p, s, n);
    else if (n >= 8) {
        memcpy(p, s, 8);
        memcpy(p + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(p, s, 4);
        memcpy(p + n - 4, s + n - 4, 4);
    } else if (n >= 2) {
        memcpy(p, s, 2);
        memcpy(p + n - 2, s + n - 2, 2);
    } else if (n == 1) {
        p[0] = s[0];
    }
}

/* Appends rows [from, to) of t (at least one column) to b as CSV or TSV lines, exactly as
 * put_csv_field, put_tsv_field and value_text print each value. rp: plan_rows's plan of t
 * for this format. dc: one DayCache per column, the caller's. On out of memory b->oom is set
 * and the rest is dropped. */
static void format_rows(StrBuf *b, const Table *t, bool tsv, size_t from, size_t to,
                        const RowPlan *rp, DayCache *dc) {
    const int nc = t->n_cols;
    const char sep = tsv ? '\t' : ',';
    const bool nulls = rp->nulls;
    for (size_t i = from; i < to && !b->oom; i++) {
        /* room for the row: the plan's bound and the unplanned TEXT values' worst case */
        size_t need = rp->row_need;
        for (int k = 0; k < rp->n_scan; k++) {
            const Column *c = t->cols[rp->scan[k]];
            if (!nulls || !is_null_at(c, i)) need += csv_field_max(col_text(c, i));
        }
        if (b->cap - b->n <= need) {
            sb_reserve(b, need);
            if (b->oom) return;
        }
        char *p = b->p + b->n;
        for (int j = 0; j < nc; j++) {
            const Column *c = t->cols[j];
            if (j) *p++ = sep;
            if (nulls && is_null_at(c, i)) {
                if (tsv) {
                    *p++ = '\\';
                    *p++ = 'N';
                }
                continue;
            }
            switch (c->type) {
            case TY_TEXT: {
                const ShortText *st = rp->short_text[j];
                if (st) {
                    st += c->codes[i];
                    memcpy(p, st, sizeof *st);   /* the room holds all 16 */
                    p += st->len;
                    break;
                }
                const uint8_t *plain = rp->plain[j];
                if (plain) {
                    uint32_t code = c->codes[i];
                    RxStr s = c->dict[code];
                    if (plain[code]) {
                        copy_text(p, s.ptr, s.len);
                        p += s.len;
                    } else {
                        p = tsv ? put_tsv_text(p, s) : put_csv_text(p, s);
                    }
                    break;
                }
                RxStr s = col_text(c, i);
                p = tsv ? put_tsv_text(p, s) : put_csv_text(p, s);
                break;
            }
            case TY_INT: p = put_int(p, col_i64(c)[i]); break;
            case TY_FLOAT: p = num_put_double(p, col_f64(c)[i], &dc[j].float_hint); break;
            case TY_TIMESTAMP: p = put_timestamp(p, col_i64(c)[i], &dc[j]); break;
            case TY_DATE: {
                size_t dl;
                const char *d = cached_date(&dc[j], col_i32(c)[i], &dl);
                memcpy(p, d, dl);
                p += dl;
                break;
            }
            default: {
                /* TIME, DURATION, BOOL: as value_text prints them (ASCII, nothing to escape) */
                char buf[VAL_BUF];
                RxStr s = value_text(c, i, buf);
                memcpy(p, s.ptr, s.len);
                p += s.len;
                break;
            }
            }
        }
        *p++ = '\n';
        b->n = (size_t)(p - b->p);
        b->p[b->n] = '\0';
    }
}

/* A result this many rows or more is formatted on several threads (format_parallel). */
enum { PAR_MIN_ROWS = 1 << 16, PAR_BLOCK_BYTES = 1 << 20, PAR_SLOTS_PER_THREAD = 2 };

/* Rows cut into blocks that threads format into buffers of their own (slots) while this
 * thread hands the finished ones to the sink in order. */
typedef struct {
    const Table *t;
    bool tsv;
    const RowPlan *rp;
    size_t from, rows_per_block, n_blocks;
    int n_slots;
    StrBuf *buf;             /* n_slots: block k is formatted into buf[k % n_slots] */
    size_t *ready;           /* n_slots: 1 + the block the slot holds, finished; 0 none */
    size_t next;             /* the next block to format */
    size_t written;          /* blocks handed to the sink */
    bool stop;               /* the sink failed: format nothing more */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} ParWrite;

static void *par_worker(void *arg) {
    ParWrite *w = arg;
    DayCache *dc = calloc((size_t)w->t->n_cols, sizeof *dc);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        size_t k = w->next;
        if (w->stop || k >= w->n_blocks) break;
        w->next++;
        /* the slot is free once the block n_slots before this one is written */
        while (!w->stop && k >= w->written + (size_t)w->n_slots) pthread_cond_wait(&w->cv, &w->mu);
        if (w->stop) break;
        pthread_mutex_unlock(&w->mu);
        StrBuf *b = &w->buf[k % (size_t)w->n_slots];
        b->n = 0;
        size_t from = w->from + k * w->rows_per_block, to = from + w->rows_per_block;
        if (to > w->t->n_rows) to = w->t->n_rows;
        if (dc) format_rows(b, w->t, w->tsv, from, to, w->rp, dc);
        else b->oom = true;
        pthread_mutex_lock(&w->mu);
        w->ready[k % (size_t)w->n_slots] = k + 1;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    free(dc);
    return NULL;
}

/* Formats rows [from, n_rows) of t on up to `threads` threads and writes them to o's sink in
 * order: the bytes are those of one thread formatting them all. False when the threads or
 * their memory cannot be had (nothing written then: the caller formats the rows itself). */
static bool format_parallel(Out *o, const Table *t, bool tsv, const RowPlan *rp, size_t from,
                            size_t row_bytes, int threads) {
    ParWrite w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.tsv = tsv;
    w.rp = rp;
    w.from = from;
    w.rows_per_block = PAR_BLOCK_BYTES / (row_bytes ? row_bytes : 1);
    if (w.rows_per_block < 1) w.rows_per_block = 1;
    w.n_blocks = (t->n_rows - from + w.rows_per_block - 1) / w.rows_per_block;
    w.n_slots = threads * PAR_SLOTS_PER_THREAD;
    w.buf = calloc((size_t)w.n_slots, sizeof *w.buf);
    w.ready = calloc((size_t)w.n_slots, sizeof *w.ready);
    if (!w.buf || !w.ready) {
        free(w.buf);
        free(w.ready);
        return false;
    }
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    pthread_t th[64];
    int started = 0;
    for (int i = 0; i < threads && i < 64; i++) {
        if (pthread_create(&th[started], NULL, par_worker, &w) != 0) break;
        started++;
    }
    bool ok = started > 0;
    for (size_t k = 0; ok && k < w.n_blocks; k++) {
        StrBuf *b = &w.buf[k % (size_t)w.n_slots];
        pthread_mutex_lock(&w.mu);
        while (w.ready[k % (size_t)w.n_slots] != k + 1) pthread_cond_wait(&w.cv, &w.mu);
        pthread_mutex_unlock(&w.mu);
        /* hand the block over through o's own buffer's path (flush), keeping its checks */
        StrBuf keep = o->b;
        o->b = *b;
        flush(o);
        *b = o->b;
        o->b = keep;
        pthread_mutex_lock(&w.mu);
        w.written = k + 1;
        if (o->failed) w.stop = true;
        pthread_cond_broadcast(&w.cv);
        pthread_mutex_unlock(&w.mu);
        if (o->failed) break;
    }
    if (!ok) {
        pthread_mutex_lock(&w.mu);
        w.stop = true;
        pthread_cond_broadcast(&w.cv);
        pthread_mutex_unlock(&w.mu);
    }
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv);
    for (int i = 0; i < w.n_slots; i++) sb_free(&w.buf[i]);
    free(w.buf);
    free(w.ready);
    return ok;
}

static void write_delimited(Out *o, const Table *t, bool tsv, bool header) {
    int nc = t->n_cols;
    char sep = tsv ? '\t' : ',';
    if (nc == 0) return;
    for (int j = 0; j < nc && header; j++) {
        const char *name = t->names[j] ? t->names[j] : "";
        RxStr h = {name, strlen(name)};
        if (j) sb_putc(&o->b, sep);
        if (tsv) put_tsv_field(&o->b, h);
        else put_csv_field(&o->b, h);
    }
    if (header) sb_putc(&o->b, '\n');
    DayCache *dc = calloc((size_t)nc, sizeof *dc);
    RowPlan rp;
    if (!dc || plan_rows(&rp, t, tsv) != 0) {
        free(dc);
        o->failed = true;
        rx_error(o->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory writing the result");
        return;
    }
    /* A first stretch of rows on this thread, which also measures a row's bytes for sizing
     * the blocks of the rest when they go to several threads. */
    size_t first = t->n_rows < 1024 ? t->n_rows : 1024;
    size_t before = o->b.n;
    format_rows(&o->b, t, tsv, 0, first, &rp, dc);
    size_t row_bytes = first ? (o->b.n - before) / first + 1 : 1;
    maybe_flush(o);
    size_t i = first;
    int threads = rx_threads();
    if (threads > 64) threads = 64;
    if (!o->failed && threads > 1 && t->n_rows - i >= PAR_MIN_ROWS) {
        flush(o);
        if (!o->failed && format_parallel(o, t, tsv, &rp, i, row_bytes, threads)) i = t->n_rows;
    }
    while (i < t->n_rows && !o->failed) {
        size_t to = i + 256 < t->n_rows ? i + 256 : t->n_rows;
        format_rows(&o->b, t, tsv, i, to, &rp, dc);
        maybe_flush(o);
        i = to;
    }
    plan_free(&rp, nc);
    free(dc);
}

/* ---- json ----------------------------------------------------------------------------------- */

static void put_json_string(StrBuf *b, RxStr s) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s.ptr, *e = p + s.len;
    const unsigned char *run = p;
    sb_putc(b, '"');
    while (p < e) {
        unsigned c = *p;
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            p++;
            continue;
        }
        int k = 1;
        if (c >= 0x80) {
            k = utf8_seq_len(p, (size_t)(e - p));
            if (k) {
                p += k;
                continue;
            }
            k = 1;
        }
        sb_append(b, (const char *)run, (size_t)(p - run));
        switch (c) {
        case '"': sb_append(b, "\\\"", 2); break;
        case '\\': sb_append(b, "\\\\", 2); break;
        case '\b': sb_append(b, "\\b", 2); break;
        case '\f': sb_append(b, "\\f", 2); break;
        case '\n': sb_append(b, "\\n", 2); break;
        case '\r': sb_append(b, "\\r", 2); break;
        case '\t': sb_append(b, "\\t", 2); break;
        default:
            if (c >= 0x80) {
                sb_append(b, "\xEF\xBF\xBD", 3);
            } else {
                char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                sb_append(b, u, 6);
            }
        }
        p += k;
        run = p;
    }
    sb_append(b, (const char *)run, (size_t)(e - run));
    sb_putc(b, '"');
}

/* One row as a JSON object {"column":value,...}. */
static void put_json_row(StrBuf *b, const Table *t, size_t i) {
    char buf[VAL_BUF];
    sb_putc(b, '{');
    for (int j = 0; j < t->n_cols; j++) {
        const Column *c = t->cols[j];
        const char *name = t->names[j] ? t->names[j] : "";
        RxStr h = {name, strlen(name)};
        if (j) sb_putc(b, ',');
        put_json_string(b, h);
        sb_putc(b, ':');
        if (is_null_at(c, i) || (c->type == TY_FLOAT && !isfinite(col_f64(c)[i]))) {
            sb_append(b, "null", 4);
            continue;
        }
        RxStr s = value_text(c, i, buf);
        if (c->type == TY_INT || c->type == TY_FLOAT || c->type == TY_BOOL)
            sb_append(b, s.ptr, s.len);
        else
            put_json_string(b, s);
    }
    sb_putc(b, '}');
}

static void write_json(Out *o, const Table *t) {
    if (t->n_rows == 0) {
        sb_append(&o->b, "[]\n", 3);
        return;
    }
    sb_append(&o->b, "[\n", 2);
    for (size_t i = 0; i < t->n_rows && !o->failed; i++) {
        put_json_row(&o->b, t, i);
        sb_append(&o->b, i + 1 < t->n_rows ? ",\n" : "\n", i + 1 < t->n_rows ? 2 : 1);
        maybe_flush(o);
    }
    sb_append(&o->b, "]\n", 2);
}

/* One object per row and line; query >= 1 wraps each as {"query":N,"row":{...}}. */
static void write_jsonl(Out *o, const Table *t, int query) {
    for (size_t i = 0; i < t->n_rows && !o->failed; i++) {
        if (query > 0) sb_printf(&o->b, "{\"query\":%d,\"row\":", query);
        put_json_row(&o->b, t, i);
        if (query > 0) sb_putc(&o->b, '}');
        sb_putc(&o->b, '\n');
        maybe_flush(o);
    }
}

/* ---- markdown ------------------------------------------------------------------------------- */

static void write_markdown(Out *o, const Table *t) {
    int nc = t->n_cols;
    char buf[VAL_BUF];
    if (nc == 0) return;
    for (int j = 0; j < nc; j++) {
        const char *name = t->names[j] ? t->names[j] : "";
        RxStr h = {name, strlen(name)};
        sb_append(&o->b, "| ", 2);
        put_display(&o->b, h, true);
        sb_putc(&o->b, ' ');
    }
    sb_append(&o->b, "|\n", 2);
    for (int j = 0; j < nc; j++)
        sb_puts(&o->b, right_aligned(t->cols[j]->type) ? "|---:" : "|---");
    sb_append(&o->b, "|\n", 2);
    for (size_t i = 0; i < t->n_rows && !o->failed; i++) {
        for (int j = 0; j < nc; j++) {
            const Column *c = t->cols[j];
            RxStr s = {NULL_TEXT, 4};
            if (!is_null_at(c, i)) s = value_text(c, i, buf);
            sb_append(&o->b, "| ", 2);
            put_display(&o->b, s, true);
            sb_putc(&o->b, ' ');
        }
        sb_append(&o->b, "|\n", 2);
        maybe_flush(o);
    }
}

/* ---- entry ---------------------------------------------------------------------------------- */

int out_write(const Table *t, OutFormat f, const RxSink *sink, RxError *err) {
    return out_write_opts(t, f, NULL, sink, err);
}

int out_write_opts(const Table *t, OutFormat f, const OutOptions *opt, const RxSink *sink, RxError *err) {
    static const OutOptions none = {0, NULL, 0, false};
    if (!opt) opt = &none;
    Out o;
    memset(&o, 0, sizeof o);
    sb_init(&o.b);
    o.sink = sink;
    o.err = err;
    sb_reserve(&o.b, FLUSH_AT + 4096);
    switch (f) {
    case OUT_TABLE: write_table(&o, t, opt->max_rows, opt->hint); break;
    case OUT_CSV: write_delimited(&o, t, false, !opt->no_header); break;
    case OUT_TSV: write_delimited(&o, t, true, !opt->no_header); break;
    case OUT_JSON: write_json(&o, t); break;
    case OUT_JSONL: write_jsonl(&o, t, opt->query); break;
    case OUT_MARKDOWN: write_markdown(&o, t); break;
    }
    flush(&o);
    sb_free(&o.b);
    return o.failed ? -1 : 0;
}
