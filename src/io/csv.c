/*
 * csv.c - reads an RFC 4180 CSV file into a Table (io.h), the data source of `csv('path')`.
 *
 * It sits at the bottom of the pipeline beside the connectors: exec's scan hands the columns it
 * returns to the operators unchanged. It relies on column.h for storage, number.h and
 * temporal.h for the text forms of values, base.h for errors at a file position, and pthreads.
 *
 * A regular, uncompressed file is never held whole (reserve_input): each pass reads it from
 * disk again a window at a time (pread into a buffer each thread reuses, so memory touched for
 * the first time is the columns' alone), and "the mapping" below is then address space
 * reserved for the file's bytes with no memory behind it, in which pointers keep meaning file
 * offsets. Its pages are filled from the file only where bytes are read in place: the first
 * record (the header), a record longer than a window, and all of them before an error is
 * reported (whole_for_error), since the message counts lines from the file's start and quotes
 * the line. TEXT cells are then copied (copy_text) into heaps that pass 1 sized: each chunk
 * counts the bytes of each column's cells. A file changed between csv_open and a later
 * csv_load is an error there (its size or time of change differs), not other values.
 *
 * Any other input (input.h: standard input, a pipe, gzip or zstd; and any file with
 * CsvOptions.hold_input) is read a block at a time into an anonymous mapping of the reader's
 * own (read_input; a large plain file in parts on threads at once, input_read_parallel), never
 * a mapping of the file, which another program could truncate under it (SIGBUS); "the mapping"
 * below is that copy. It holds the TEXT slices that point into it, the lines that errors
 * quote, and the header.
 *
 * A NUL byte anywhere is an error (binary data), reported before any other. The rest is cut
 * into chunks of 4-32 MB (CsvOptions.chunk_bytes; 16 a thread where the file is large enough),
 * each starting just after a newline, which threads take in turn (CsvOptions.threads, by default one per online processor, never
 * more than there are chunks). A thread parses its chunk of an input held whole in the mapping
 * itself (Load.direct) when 64 bytes follow the input's end in its last page (the fast paths
 * read up to 64 bytes past a field); otherwise (always for a file read in windows, and for a
 * block of a file read by blocks) through windows: 256 KB at a time copied into its own buffer
 * (window_fill: pread from the file, or from the mapping), 64 zero bytes after. A record cut by a
 * window's end is read again from the next window; one longer
 * than a window is read from the mapping. Two passes read every chunk:
 *
 *   1. csv_open: each chunk on its own validates its UTF-8, splits records and fields, checks
 *      every record has the header's field count, counts rows and escaped bytes, notes which
 *      columns have NULL cells, and (without a schema) narrows each column's kind by each
 *      non-NULL cell: a column is INT, FLOAT, BOOL, DATE, TIMESTAMP or TIME when every cell is,
 *      FLOAT when it mixes INT and FLOAT, and TEXT for any other mix (a DATE column with one
 *      timestamp is TEXT: no silent coercion). Shapes decide, not values: 99999999999999999999
 *      is an INT cell, so a column of integers with one past 64 bits is an error there rather
 *      than FLOAT or TEXT. The detection reads every row, not a sample. The kinds of the
 *      chunks combine in file order into the column's type; the combination is a join (NULL
 *      below everything, INT below FLOAT, TEXT above all), so the type does not depend on
 *      where the chunks fall.
 *
 *      A chunk's start is a guess: the newline before it may sit inside a quoted field. The
 *      chunks are verified in file order once all are scanned: chunk k is right when chunk
 *      k-1, itself right, ended exactly where k starts (a chunk reads on past its end to
 *      finish the record it is in); otherwise k is scanned again from where k-1 ended, on the
 *      calling thread. So a file of multi-line quoted fields costs at most one more scan of
 *      the chunks that guessed wrong. The error reported is the first of the first right
 *      chunk that has one: the earliest in the file, whatever the threads' timing.
 *   2. csv_load: the chunks again, now knowing every chunk's first row and the types, each
 *      converting its cells straight into the typed columns at its own rows. A cell with the
 *      shape of its column's type that is not a valid value (2026-02-30), or, under a schema,
 *      any cell that does not parse, is an RX_EVALUE error at that cell; again the first
 *      chunk in file order with an error is the one reported.
 *
 * Storage (of an input held whole; a file read in windows copies every TEXT cell, see above):
 * an unquoted TEXT cell, and a quoted one without "" escapes, is a slice into the mapping,
 * which a StrHeap (heap_from_map) keeps alive for as long as any column uses it. A quoted cell
 * with escapes is unescaped into a malloc'd heap that the load makes for its chunk,
 * sized by pass 1 for the escaped cells of every column there, so it never grows and slices
 * into it stay valid as they are written. TEXT columns
 * with few distinct values get a dictionary (column.h: codes in order of first appearance):
 * each chunk collects its own distinct values in order, and they merge in chunk order, which
 * is the order of first appearance in the file; the dictionary's strings are copied into a heap
 * of the column's own (own_dict_bytes). A cell that gets a code gets no slice (a coded column
 * is lazy, column.h: its slice array is never written and goes at the end); a column that ends
 * up without a dictionary has those rows' slices made from its chunks' dictionaries
 * (fill_slices). NULL cells clear their bit in a validity
 * bitmap allocated before pass 2 for the columns pass 1 saw NULLs in (atomically: two chunks
 * may share a word of it), and dropped again when no cell was NULL after all ("" in TEXT).
 *
 * Memory: a load holds the column data, a window per thread, and the input when it is held
 * whole. Column arrays of several megabytes ask for transparent huge pages, which cuts their
 * page faults 512-fold.
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
 *   - A number written as an identifier is (a leading zero before a digit, 02139 or 007.5; a
 *     leading '+') is a TEXT cell when detecting, so that the file reads back as written; "0",
 *     "-0" and "0.5" are numbers. CsvOptions.type_names force some columns' types.
 *   - Header names are taken verbatim (no trimming). Without a header and without a schema the
 *     columns are named c1, c2, ...
 *   - With a schema and a header, the header must have the schema's field count; when the
 *     schema also names the columns, each header name must equal the schema's name (a file
 *     whose columns are in another order is an error, not a silent mismatch).
 *
 * Speed (optimisations, not needed for correctness): fields are found 64 bytes at a time (SSE2
 * where there is one) as a bit mask of delimiters and newlines, walked with count-trailing-
 * zeros; quoted fields take memchr; UTF-8 is checked 64 bytes at a time while ASCII, just
 * ahead of the scan. Integers read eight digits at a time (fewer too, where the bytes after a
 * field may be read: a window, or the mapping read in place); plain decimals, decimals with a
 * small exponent, and ISO dates and timestamps in their common forms (a timestamp with or
 * without a zone: Z, +HH, +HHMM, +HH:MM; 'T', 't' or ' ' before the clock) take inline fast
 * paths that decide only values they are sure of (a float only when one IEEE multiplication or
 * division of exact operands gives it, so correctly rounded) and hand everything else to
 * number.c and temporal.c, so both paths agree. Line numbers are never tracked while scanning:
 * an error computes its line by counting newlines up to its offset, and only for the error
 * reported (Pending).
 *
 * Longer than the ~1,200 lines a file should hold: the reader is being rewritten; splitting it
 * (chunking and threads, field parsing, type inference) belongs to that rewrite.
 */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/hmap.h"
#include "io/csv_int.h"
#include "io/input.h"
#include "types/number.h"
#include "types/temporal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RX_LE 1
#else
#define RX_LE 0
#endif

enum {
    CHUNK_BYTES = 4 << 20,      /* the default chunk size, at least */
    CHUNK_MAX = 32 << 20,       /* ... and at most: a large file gets CHUNKS_PER_THREAD chunks
                                   per thread between the two */
    CHUNKS_PER_THREAD = 16,
    MAX_CHUNKS = 65536,
    MAX_CHUNK_CELLS = 1 << 18,  /* chunks x columns: bounds the per-chunk state */
    MAX_THREADS = 64,
};

void csv_options_default(CsvOptions *o) {
    memset(o, 0, sizeof *o);
    o->delimiter = ',';
    o->header = true;
}

/* The error of a file read in windows (Load.res) that ends before bytes it had when opened. */
#define SHRANK "'%s' shrank while it was read (another program truncated or rewrote it meanwhile)"

/* ---- scanning ------------------------------------------------------------------------------- */

/* An error found by a chunk's scan, kept without its line number (which costs a count of the
 * newlines before it) until it is the one reported: the first in the file. */
typedef struct {
    RxErrCode code;      /* RX_OK: none yet */
    const char *at;      /* NULL: no file position (out of memory) */
    size_t caret;
    const char *rec;     /* not NULL: the message follows "line N ", N being rec's line */
    char msg[800];
} Pending;

/* What every scan of one file shares (read-only while threads run; each thread works on a
 * copy that records its errors in its own Pending). The copy may be a view: a window of the
 * file copied into a buffer, whose end is then the window's, and whose pointers become the
 * mapping's by adding to_map (error positions, TEXT slices). */
typedef struct {
    const char *path;
    const char *base;       /* the mapping */
    const char *data;       /* after a UTF-8 byte order mark */
    const char *end;        /* of the file, or of the view */
    uint32_t line0;         /* lines of the file before base (a block of a file read by blocks) */
    uintptr_t to_map;       /* 0, or what turns a pointer into the view into one into the file */
    bool whole;             /* end is the end of the file (or, in pass 2, of verified records) */
    bool pad;               /* a view: 64 readable bytes follow end */
    char delim;
    const char *null_text;
    size_t null_len;
    uint8_t stop[256];      /* 1 for the delimiter and '\n' */
    bool copy;              /* TEXT cells are copied (the file is read in windows: no bytes of
                               it stay in memory to point into) */
    struct Load *owner;     /* not NULL: base..end is a reservation that holds only some of the
                               file's bytes (Load.res), read whole before an error is reported */
    RxError *err;
    Pending *pend;          /* not NULL: errors are recorded here, for report() */
} Reader;

/* One field: its content s[0..n) (between the quotes when quoted, "" still doubled) and its
 * raw extent [start, end) in the file. quoted: 0 no, 1 yes, 2 yes and it contains "". */
typedef struct {
    const char *s;
    size_t n;
    const char *start, *end;
    int quoted;
} Field;

/* The field ended at a delimiter / ended its record / ran into the end of a view that is not
 * the whole file (so it may go on: the record is read again from a later window). */
enum { F_MORE = 0, F_LAST = 1, F_CUT = 2 };

static inline const char *in_map(const Reader *r, const char *p) {
    return (const char *)((uintptr_t)p + r->to_map);
}

/* Records an error at byte at of the file: line counted from the start (quoted newlines
 * count, they are physical lines), column in characters from the line start. */
static int whole_for_error(Reader *r, RxErrCode code);

static int error_at(Reader *r, RxErrCode code, const char *at, size_t caret, const char *msg) {
    if (r->owner && whole_for_error(r, code) < 0) return -1;
    uint32_t line = 1 + r->line0;
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

/* Pending errors keep only the first. */
static bool pend_first(Reader *r, RxErrCode code, const char *at, size_t caret) {
    Pending *p = r->pend;
    if (p->code != RX_OK) return false;
    p->code = code;
    p->at = at ? in_map(r, at) : NULL;
    p->caret = caret;
    p->rec = NULL;
    return true;
}

/* An error at byte at: reported now, or recorded in r->pend. Returns -1. */
static int fail_at(Reader *r, RxErrCode code, const char *at, size_t caret, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail_at(Reader *r, RxErrCode code, const char *at, size_t caret, const char *fmt, ...) {
    char msg[800];
    va_list ap;
    va_start(ap, fmt);
    if (r->pend) {
        if (pend_first(r, code, at, caret)) vsnprintf(r->pend->msg, sizeof r->pend->msg, fmt, ap);
        va_end(ap);
        return -1;
    }
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return error_at(r, code, at, caret, msg);
}

/* An error without a file position (out of memory). */
static int fail_nopos(Reader *r, RxErrCode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_nopos(Reader *r, RxErrCode code, const char *fmt, ...) {
    char msg[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->pend) {
        if (pend_first(r, code, NULL, 0)) snprintf(r->pend->msg, sizeof r->pend->msg, "%s", msg);
        return -1;
    }
    return rx_error(r->err, code, NULL, rx_span(0, 0), "%s", msg);
}

static uint32_t line_of(const Reader *r, const char *at) {
    uint32_t line = 1 + r->line0;
    for (const char *q = r->base; q < at;) {
        const char *nl = memchr(q, '\n', (size_t)(at - q));
        if (!nl) break;
        line++;
        q = nl + 1;
    }
    return line;
}

/* Reports pending error p through r (which reports rather than records). Returns -1. */
static int report(Reader *r, const Pending *p) {
    if (!p->at) return rx_error(r->err, p->code, NULL, rx_span(0, 0), "%s", p->msg);
    if (r->owner && whole_for_error(r, p->code) < 0) return -1;
    if (!p->rec) return error_at(r, p->code, p->at, p->caret, p->msg);
    char msg[840];
    snprintf(msg, sizeof msg, "line %u %s", line_of(r, p->rec), p->msg);
    return error_at(r, p->code, p->at, p->caret, msg);
}

/* The quoted field at *pp (**pp is '"'), advancing *pp past its delimiter or line end; F_MORE,
 * F_LAST, F_CUT, or -1 with the error recorded (an unterminated quote, text after a closing
 * quote). */
static __attribute__((noinline)) int scan_quoted(Reader *r, const char **pp, Field *f) {
    const char *p = *pp, *end = r->end;
    const char *q = p + 1;
    int quoted = 1;
    const char *close;
    f->start = p;
    for (;;) {
        close = memchr(q, '"', (size_t)(end - q));
        if (!close && !r->whole) return F_CUT;
        if (!close)
            return fail_at(r, RX_ECSV, p, 1,
                           "unterminated quoted field: no closing '\"' before the end of the "
                           "file");
        if (close + 1 == end && !r->whole) return F_CUT;
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
    if (*q == '\r' && q + 1 == end && !r->whole) return F_CUT;
    if (*q == '\r' && (q + 1 == end || q[1] == '\n')) {
        *pp = q + 1 == end ? end : q + 2;
        return F_LAST;
    }
    return fail_at(r, RX_ECSV, q, 1,
                   "text after the closing quote of a field (a quote inside a quoted field is "
                   "written \"\")");
}

/* The unquoted field from p up to q (the delimiter, '\n' or end), advancing *pp. */
static inline int end_plain(const Reader *r, const char **pp, const char *q, Field *f) {
    const char *p = *pp;
    if (q == r->end && !r->whole) return F_CUT;
    f->start = f->s = p;
    f->quoted = 0;
    f->end = q;
    size_t n = (size_t)(q - p);
    if (q < r->end && *q == r->delim) {
        f->n = n;
        *pp = q + 1;
        return F_MORE;
    }
    if (n && p[n - 1] == '\r') n--;
    f->n = n;
    *pp = q < r->end ? q + 1 : q;
    return F_LAST;
}

/* Splits the field at *pp and advances *pp past its delimiter or line end. Returns F_MORE,
 * F_LAST, or -1 with the error recorded. At the end of the input it returns an empty last
 * field. The header's scanner; records use scan_plain's block masks. */
static int scan_field(Reader *r, const char **pp, Field *f) {
    const char *p = *pp, *end = r->end;
    if (p < end && *p == '"') return scan_quoted(r, pp, f);
    while (p < end && !r->stop[(unsigned char)*p]) p++;
    return end_plain(r, pp, p, f);
}

/* ---- block scanning (an optimisation: 64 bytes at a time) ----------------------------------- */

/* Bit i set when blk[i] is the delimiter or '\n', for the 64-byte aligned block at blk; bits at
 * and past the end of the file are clear. An aligned block never crosses a page and the
 * mapping covers whole pages, so reading a block that holds the last byte is safe. */
static inline uint64_t block_mask(const Reader *r, const char *blk) {
    uint64_t m = 0;
#if defined(__SSE2__)
    const __m128i d = _mm_set1_epi8(r->delim), nl = _mm_set1_epi8('\n');
    for (int i = 0; i < 4; i++) {
        __m128i x = _mm_load_si128((const __m128i *)(const void *)(blk + 16 * i));
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(x, d), _mm_cmpeq_epi8(x, nl));
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(hit) << (16 * i);
    }
#elif RX_LE
    /* Eight bytes at a time: 0x80 in each byte equal to the delimiter or '\n' (exact: no
     * borrows between bytes), then one bit per such byte. */
    const uint64_t ones = UINT64_C(0x0101010101010101), l7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    const uint64_t dm = ones * (unsigned char)r->delim, nm = ones * '\n';
    for (int i = 0; i < 8; i++) {
        uint64_t w;
        memcpy(&w, blk + 8 * i, 8);
        uint64_t x = w ^ dm, y = w ^ nm;
        uint64_t t = ~(((x & l7) + l7) | x | l7) | ~(((y & l7) + l7) | y | l7);
        while (t) {
            m |= UINT64_C(1) << (8 * i + (__builtin_ctzll(t) >> 3));
            t &= t - 1;
        }
    }
#else
    for (int i = 0; i < 64; i++) m |= (uint64_t)r->stop[(unsigned char)blk[i]] << i;
#endif
    if (r->end - blk < 64) m &= (UINT64_C(1) << (r->end - blk)) - 1;
    return m;
}

/* A position in the file's 64-byte blocks: the block at blk and its mask. */
typedef struct {
    uintptr_t blk;  /* 0 before the first use */
    uint64_t mask;
} Cursor;

/* The first delimiter or '\n' at or after p, or the end of the file. */
static inline const char *next_stop(const Reader *r, Cursor *c, const char *p) {
    const char *end = r->end;
    if (p >= end) return end;
    uintptr_t off = (uintptr_t)p - c->blk;
    if (off >= 64) {
        c->blk = (uintptr_t)p & ~(uintptr_t)63;
        c->mask = block_mask(r, (const char *)c->blk);
        off = (uintptr_t)p - c->blk;
    }
    uint64_t m = c->mask >> off;
    if (m) return p + __builtin_ctzll(m);
    for (;;) {
        c->blk += 64;
        if (c->blk >= (uintptr_t)end) return end;
        c->mask = block_mask(r, (const char *)c->blk);
        if (c->mask) return (const char *)c->blk + __builtin_ctzll(c->mask);
    }
}

/* scan_field for a record: the same fields, found through c. */
static inline __attribute__((always_inline)) int scan_fast(Reader *r, Cursor *c,
                                                           const char **pp, Field *f) {
    const char *p = *pp;
    if (p < r->end && *p == '"') return scan_quoted(r, pp, f);
    return end_plain(r, pp, next_stop(r, c, p), f);
}

/* ---- UTF-8 ---------------------------------------------------------------------------------- */

/* Offset of the first invalid UTF-8 byte in [p, end), or end. p must start a character. */
static const char *find_bad_utf8(const char *p, const char *end) {
    const unsigned char *u = (const unsigned char *)p, *e = (const unsigned char *)end;
    while (u < e) {
#if defined(__SSE2__)
        while (e - u >= 64) {
            const __m128i *v = (const __m128i *)(const void *)u;
            __m128i x = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(v), _mm_loadu_si128(v + 1)),
                                     _mm_or_si128(_mm_loadu_si128(v + 2), _mm_loadu_si128(v + 3)));
            if (_mm_movemask_epi8(x)) break;
            u += 64;
        }
#endif
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

/* How far a scan has checked UTF-8: [from, chk) is checked and bad is the first invalid byte
 * in it (end when none). A field ending past watch = min(chk, bad) needs utf8_reached, which
 * checks on in windows of about 64 KB ending after a newline (a character boundary however the
 * bytes before it decode), just ahead of the scan that then reads them from the cache. In a
 * view that is not the whole file, checking stops at its last newline. */
typedef struct {
    const char *bad, *chk, *watch, *end;
    const char *last_nl;    /* just after the view's last newline (not whole), found once */
    bool whole;
} Utf8Scan;

enum { UTF8_WINDOW = 64 << 10 };

static void utf8_init(Utf8Scan *u, const Reader *r, const char *from) {
    u->bad = u->end = r->end;
    u->chk = u->watch = from;
    u->whole = r->whole;
    /* Found once here rather than by walking back from the end at every check, which on a
     * line longer than the view would cost a walk per field: quadratic in the line. */
    const char *q = r->end;
    if (!r->whole)
        while (q > from && q[-1] != '\n') q--;
    u->last_nl = q;
}

/* True when the field ending at fend (a character boundary) holds or follows the first
 * invalid byte. */
static bool utf8_reached(Utf8Scan *u, const char *fend) {
    if (fend > u->chk) {
        if (u->bad == u->end) {
            const char *to = u->end, *nl = NULL;
            size_t rest = (size_t)(to - fend);
            if (rest > UTF8_WINDOW) nl = memchr(fend + UTF8_WINDOW, '\n', rest - UTF8_WINDOW);
            if (nl) {
                to = nl + 1;
            } else if (!u->whole) {
                to = u->last_nl > fend ? u->last_nl : fend;
            }
            const char *b = find_bad_utf8(u->chk, to);
            if (b < to) u->bad = b;
            u->chk = to > fend ? to : fend;
        } else {
            u->chk = fend;
        }
        u->watch = u->bad < u->chk ? u->bad : u->chk;
    }
    return fend > u->bad;
}

static inline bool is_null(const Reader *r, const Field *f) {
    if (f->n == 0) return true;
    if (__builtin_expect(r->null_len == 0, 1)) return false;   /* no null_text: the usual */
    return !f->quoted && f->n == r->null_len && memcmp(f->s, r->null_text, f->n) == 0;
}

/* The cell text for a message: at most 60 bytes, cut at a character boundary. */
static int quote_len(const Field *f) {
    size_t n = f->n;
    if (n <= 60) return (int)n;
    n = 57;
    while (n > 0 && ((unsigned char)f->s[n] & 0xC0) == 0x80) n--;
    return (int)n;
}

/* ---- fast paths (an optimisation: each decides only what it is sure of) --------------------- */

static inline bool is_digit(char c) { return (unsigned)(c - '0') < 10; }

static inline int dig2(const char *s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

#if !RX_LE
static bool all_digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!is_digit(s[i])) return false;
    return true;
}
#endif

static inline uint64_t load64(const char *s) {
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

static inline uint32_t load32(const char *s) {
    uint32_t w;
    memcpy(&w, s, 4);
    return w;
}

#if RX_LE
/* True when the eight bytes of w are ASCII digits (exact: the high nibble test has no carries,
 * and when every high nibble is 3 adding 6 carries out of no byte). */
static inline bool eight_digits(uint64_t w) {
    return ((w & UINT64_C(0xF0F0F0F0F0F0F0F0)) |
            (((w + UINT64_C(0x0606060606060606)) & UINT64_C(0xF0F0F0F0F0F0F0F0)) >> 4)) ==
           UINT64_C(0x3333333333333333);
}

/* The value of eight ASCII digits loaded little-endian (the first digit in the lowest byte):
 * pairs, then quadruples, then the whole, by multiplications that keep the lanes apart. */
static inline __attribute__((always_inline)) uint32_t parse_eight(uint64_t w) {
    w -= UINT64_C(0x3030303030303030);
    w = w * 10 + (w >> 8);
    w = (((w & UINT64_C(0x000000FF000000FF)) * (100 + (UINT64_C(1000000) << 32))) +
         (((w >> 16) & UINT64_C(0x000000FF000000FF)) * (1 + (UINT64_C(10000) << 32)))) >> 32;
    return (uint32_t)w;
}

/* How many ASCII digits w starts with (in its lowest bytes), 0..8: exact for the first byte
 * that is not one, as a carry out of that byte can only change the bytes after it. */
static inline __attribute__((always_inline)) int lead_digits(uint64_t w) {
    const uint64_t hi = UINT64_C(0xF0F0F0F0F0F0F0F0), th = UINT64_C(0x3030303030303030);
    uint64_t nd = ((w & hi) ^ th) | (((w + UINT64_C(0x0606060606060606)) & hi) ^ th);
    return nd ? __builtin_ctzll(nd) >> 3 : 8;
}

/* The value of the first k (1..8) ASCII digits of w: shifted to the top, zeros below. */
static inline __attribute__((always_inline)) uint32_t parse_digits(uint64_t w, int k) {
    if (k < 8) w = (w << (8 * (8 - k))) | (UINT64_C(0x3030303030303030) >> (8 * k));
    return parse_eight(w);
}
#endif

/* Appends the digits from p (up to e) to *m, counting them in *count; returns the first byte
 * that is not a digit (or e), or NULL when there would be more than limit digits (limit <= 19
 * keeps *m below 2^64). pad: the 8 bytes from any p up to e may be read (a view's buffer),
 * so digits go eight at a time however few there are. */
static inline const char *eat_digits(const char *p, const char *e, uint64_t *m, int *count,
                                     int limit, bool pad) {
    uint64_t v = *m;
    int k = *count;
#if RX_LE
    static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                    100000000};
    while (e - p >= 8) {
        uint64_t w = load64(p);
        if (!eight_digits(w)) break;
        if (k + 8 > limit) return NULL;
        v = v * 100000000 + parse_eight(w);
        p += 8;
        k += 8;
    }
    if (pad && p < e) {
        /* fewer than eight digits left (or a non-digit among the next eight) */
        uint64_t w = load64(p);
        int d = lead_digits(w);
        if (d > e - p) d = (int)(e - p);
        if (k + d > limit) return NULL;
        if (d) v = v * p10[d] + parse_digits(w, d);
        *m = v;
        *count = k + d;
        return p + d;
    }
#endif
    for (; p < e; p++) {
        unsigned d = (unsigned)(unsigned char)*p - '0';
        if (d > 9) break;
        if (k == limit) return NULL;
        v = v * 10 + d;
        k++;
    }
    *m = v;
    *count = k;
    return p;
}

/* The first byte from p (up to e) that is not a digit; pad as for eat_digits. */
static inline const char *skip_digits(const char *p, const char *e, bool pad) {
#if RX_LE
    if (pad) {
        for (;;) {
            int d = lead_digits(load64(p));
            if (d > e - p) d = (int)(e - p);
            p += d;
            if (d < 8) return p;
        }
    }
#endif
    (void)pad;
    while (p < e && is_digit(*p)) p++;
    return p;
}

/* -?[0-9]{1,18}: always a valid INT. */
static inline __attribute__((always_inline)) bool fast_int(const char *s, size_t n, bool pad,
                                                           int64_t *out) {
    const char *e = s + n;
    bool neg = n && s[0] == '-';
    const char *p = s + neg;
    uint64_t m = 0;
    int k = 0;
    const char *q = eat_digits(p, e, &m, &k, 18, pad);
    if (q != e || k == 0) return false;
    *out = neg ? -(int64_t)m : (int64_t)m;
    return true;
}

/* -?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?: an INT or FLOAT cell (num_shape_float holds), so a
 * FLOAT column stays FLOAT. */
static inline bool fast_decimal_shape(const char *s, size_t n, bool pad) {
    const char *e = s + n, *p = s + (n && s[0] == '-');
    const char *q = skip_digits(p, e, pad);
    if (q == p) return false;
    if (q == e) return true;
    if (*q == '.') {
        p = q + 1;
        q = skip_digits(p, e, pad);
        if (q == p) return false;
        if (q == e) return true;
    }
    if ((*q | 0x20) != 'e') return false;
    q++;
    if (q < e && (*q == '+' || *q == '-')) q++;
    p = q;
    q = skip_digits(p, e, pad);
    return q == e && q > p;
}

/* Clinger's fast path: -?digits[.digits][e[+-]digits] whose digits form an integer m < 2^53
 * and whose decimal exponent k (the exponent less the fraction digits) has |k| <= 22; then m
 * and 10^|k| are exact doubles and m * 10^k or m / 10^-k is one correctly rounded IEEE
 * operation: the value strtod gives. Needs arithmetic in double precision (FLT_EVAL_METHOD 0);
 * elsewhere everything goes to strtod. */
static inline bool fast_float(const char *s, size_t n, bool pad, double *out) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *e = s + n;
    bool neg = n && s[0] == '-';
    const char *p = s + neg;
#if RX_LE
    if (pad && e - p >= 1 && e - p <= 8) {
        /* A short plain decimal (d+ or d+.d+, at most eight bytes, the common shape of prices)
         * at once: the point found and taken out, the digits left checked and parsed as one
         * word; m and k as the general path below finds them. Anything else goes there. */
        int len = (int)(e - p);
        uint64_t w = load64(p);
        if (len < 8) w &= (UINT64_C(1) << (8 * len)) - 1;
        uint64_t x = w ^ UINT64_C(0x2E2E2E2E2E2E2E2E);   /* '.' bytes become zero */
        uint64_t dots = (x - UINT64_C(0x0101010101010101)) & ~x & UINT64_C(0x8080808080808080);
        if (len < 8) dots &= (UINT64_C(1) << (8 * len)) - 1;
        int i = dots ? __builtin_ctzll(dots) >> 3 : len;   /* the first '.', or none */
        if (i < len) {
            uint64_t low = i ? w & ((UINT64_C(1) << (8 * i)) - 1) : 0;
            w = low | ((w >> 8) & ~((UINT64_C(1) << (8 * i)) - 1));
        }
        int nd = i < len ? len - 1 : len;
        if (i > 0 && (i == len || i < len - 1) && lead_digits(w) == nd) {
            double v = (double)parse_digits(w, nd);
            int frac = nd - i;
            v = frac ? v / pow10[frac] : v;
            *out = neg ? -v : v;
            return true;
        }
    }
#endif
    uint64_t m = 0;
    int digits = 0;
    const char *q = eat_digits(p, e, &m, &digits, 19, pad);
    if (!q || q == p) return false;
    int k = 0;
    if (q < e && *q == '.') {
        const char *f0 = q + 1;
        int before = digits;
        q = eat_digits(f0, e, &m, &digits, 19, pad);
        if (!q || q == f0) return false;
        k = before - digits;
    }
    if (q < e) {
        if ((*q | 0x20) != 'e') return false;
        q++;
        bool eneg = q < e && *q == '-';
        if (q < e && (*q == '+' || *q == '-')) q++;
        if (q == e || e - q > 3) return false;
        int x = 0;
        for (; q < e; q++) {
            unsigned d = (unsigned)(unsigned char)*q - '0';
            if (d > 9) return false;
            x = x * 10 + (int)d;
        }
        k += eneg ? -x : x;
    }
    if (m >= (UINT64_C(1) << 53) || k < -22 || k > 22) return false;
    double v = (double)m;
    v = k < 0 ? v / pow10[-k] : v * pow10[k];
    *out = neg ? -v : v;
    return true;
#else
    (void)s, (void)n, (void)pad, (void)out;
    return false;
#endif
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
    uint64_t key8;       /* the date's 10 bytes, as 8 + 2 */
    uint16_t key2;
    bool ok;
    int32_t days;
} DateCache;

static bool date_days_miss(DateCache *dc, const char *s, size_t n, uint64_t k8, uint16_t k2,
                           int32_t *days);

static inline __attribute__((always_inline)) bool fast_date_days(DateCache *dc, const char *s,
                                                                 size_t n, int32_t *days) {
    if (n < 10) return false;
    uint64_t k8 = load64(s);
    uint16_t k2;
    memcpy(&k2, s + 8, 2);
    if (dc->ok && k8 == dc->key8 && k2 == dc->key2) {
        *days = dc->days;
        return true;
    }
    return date_days_miss(dc, s, n, k8, k2, days);
}

/* fast_date_days for a date other than the cached one (kept out of line: the rare case). */
static __attribute__((noinline)) bool date_days_miss(DateCache *dc, const char *s, size_t n,
                                                     uint64_t k8, uint16_t k2, int32_t *days) {
    int y, m, d;
    if (!fast_date(s, n, &y, &m, &d)) return false;
    dc->key8 = k8;
    dc->key2 = k2;
    dc->ok = true;
    dc->days = (int32_t)tm_days_from_civil(y, m, d);
    *days = dc->days;
    return true;
}

/* HH:MM:SS[.f{1,6}] with valid fields; *us set. */
static inline __attribute__((always_inline)) bool fast_time(const char *s, size_t n, int64_t *us) {
    if (n < 8) return false;
    int h, mi, sec;
#if RX_LE
    /* the eight bytes at once: ':' at 2 and 5, digits elsewhere */
    const uint64_t colons = UINT64_C(0x00003A00003A0000), zeros = UINT64_C(0x0000300000300000);
    const uint64_t digits = UINT64_C(0xFFFF00FFFF00FFFF);
    uint64_t w = load64(s);
    if ((w & ~digits) != colons || !eight_digits((w & digits) | zeros)) return false;
    uint64_t d = w - UINT64_C(0x3030303030303030);
    h = (int)(d & 0xFF) * 10 + (int)(d >> 8 & 0xFF);
    mi = (int)(d >> 24 & 0xFF) * 10 + (int)(d >> 32 & 0xFF);
    sec = (int)(d >> 48 & 0xFF) * 10 + (int)(d >> 56 & 0xFF);
#else
    if (s[2] != ':' || s[5] != ':') return false;
    unsigned bad = 0;
    for (int k = 0; k < 8; k++)
        if (k != 2 && k != 5) bad |= (unsigned)(unsigned char)s[k] - '0' > 9;
    if (bad) return false;
    h = dig2(s), mi = dig2(s + 3), sec = dig2(s + 6);
#endif
    if (h > 23 || mi > 59 || sec > 59) return false;
    int64_t f = 0;
    if (n > 8) {
        if (s[8] != '.' || n == 9 || n > 15) return false;
#if RX_LE
        /* the 1-6 digits of the fraction at once: the field's last eight bytes (n >= 10), the
         * fraction's shifted down to the lowest bytes, zeros above (which are not digits) */
        static const int32_t scale[7] = {1000000, 100000, 10000, 1000, 100, 10, 1};
        int k = (int)n - 9;
        uint64_t fw = load64(s + n - 8) >> (8 * (8 - k));
        if (lead_digits(fw) != k) return false;
        f = (int64_t)parse_digits(fw, k) * scale[k];
#else
        if (!all_digits(s + 9, n - 9)) return false;
        size_t k = 9;
        for (; k < n; k++) f = f * 10 + (s[k] - '0');
        for (; k < 15; k++) f *= 10;
#endif
    }
    *us = h * US_PER_HOUR + mi * US_PER_MIN + sec * US_PER_SEC + f;
    return true;
}

/* YYYY-MM-DD(T|t| )HH:MM:SS[.f{1,6}][zone] with valid fields and a result in range, zone
 * being nothing, Z, z, +HH, +HHMM or +HH:MM (or '-'): the value tm_parse_timestamp gives. */
static inline __attribute__((always_inline)) bool fast_timestamp(DateCache *dc, const char *s,
                                                                 size_t n, int64_t *us) {
    int32_t days;
    int64_t t, off = 0;
    if (n < 19 || (s[10] != 'T' && s[10] != 't' && s[10] != ' ')) return false;
    size_t clock_end = n;
    char z = s[n - 1];
    if (z == 'Z' || z == 'z') {
        clock_end = n - 1;
    } else if (!is_digit(z)) {
        return false;
    } else if (n >= 22) {
        /* a sign three, five or six bytes from the end starts a zone: the clock has none */
        size_t k = 0;
        if (s[n - 6] == '+' || s[n - 6] == '-') k = 6;
        else if (s[n - 5] == '+' || s[n - 5] == '-') k = 5;
        else if (s[n - 3] == '+' || s[n - 3] == '-') k = 3;
        if (k) {
            const char *q = s + n - k;
            if (!is_digit(q[1]) || !is_digit(q[2])) return false;
            int h = dig2(q + 1), m = 0;
            if (k == 6 && q[3] != ':') return false;
            if (k > 3) {
                if (!is_digit(q[k - 2]) || !is_digit(q[k - 1])) return false;
                m = dig2(q + k - 2);
            }
            if (h > 23 || m > 59) return false;
            off = h * US_PER_HOUR + m * US_PER_MIN;
            if (q[0] == '-') off = -off;
            clock_end = n - k;
        }
    }
    if (!fast_time(s + 11, clock_end - 11, &t) || !fast_date_days(dc, s, 10, &days)) return false;
    int64_t v = days * US_PER_DAY + t - off;
    if (v < TM_TS_MIN || v > TM_TS_MAX) return false;
    *us = v;
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

/* True for a number-shaped cell written the way an identifier is: a leading
 * '+' (+14155550100) or a leading zero before another digit (02139, 007.5, -00). Reading it as
 * a number would write it back changed, so such a cell is TEXT when detecting. "0", "-0",
 * "0.5" and "0e3" are numbers. */
static inline bool id_shaped(const char *s, size_t n) {
    if (n == 0) return false;
    if (s[0] == '+') return true;
    size_t i = s[0] == '-';
    return n >= i + 2 && s[i] == '0' && is_digit(s[i + 1]);
}

/* A cell's kind, one of the detected types; TY_NULL for a column with no value yet. */
static RxType classify(const char *s, size_t n) {
    int64_t i;
    uint8_t b;
    if (fast_int(s, n, false, &i)) return id_shaped(s, n) ? TY_TEXT : TY_INT;
    /* An integer too large for 64 bits still has the INT shape: in an INT column it is an
     * error at its cell, never a silent FLOAT that loses digits or a TEXT column. */
    if (num_shape_int(s, n)) return id_shaped(s, n) ? TY_TEXT : TY_INT;
    if (num_shape_float(s, n)) return id_shaped(s, n) ? TY_TEXT : TY_FLOAT;
    if (is_bool(s, n, &b)) return TY_BOOL;
    if (tm_shape_date(s, n)) return TY_DATE;
    if (tm_shape_timestamp(s, n)) return TY_TIMESTAMP;
    if (tm_shape_time(s, n)) return TY_TIME;
    return TY_TEXT;
}

/* The join of two kinds: TY_NULL is below every kind, INT below FLOAT, TEXT above all. */
static inline RxType combine(RxType col, RxType cell) {
    if (col == TY_NULL || col == cell) return cell;
    if (cell == TY_NULL) return col;
    if ((col == TY_INT && cell == TY_FLOAT) || (col == TY_FLOAT && cell == TY_INT))
        return TY_FLOAT;
    return TY_TEXT;
}

/* Narrows *kind by one non-NULL cell. The switch is the fast path for a cell of the column's
 * current kind; everything else goes through classify. */
static inline void detect_cell(RxType *kind, DateCache *dc, const Field *f, bool pad) {
    const char *s = f->s;
    size_t n = f->n;
    int64_t i;
    int32_t days;
    uint8_t b;
    switch (*kind) {
    case TY_TEXT: return;
    case TY_INT: if (fast_int(s, n, pad, &i) && !id_shaped(s, n)) return; break;
    case TY_FLOAT: if (fast_decimal_shape(s, n, pad) && !id_shaped(s, n)) return; break;
    case TY_BOOL: if (is_bool(s, n, &b)) return; break;
    case TY_DATE: if (n == 10 && fast_date_days(dc, s, n, &days)) return; break;
    case TY_TIMESTAMP: if (fast_timestamp(dc, s, n, &i)) return; break;
    case TY_TIME: if (fast_time(s, n, &i)) return; break;
    case TY_NULL: case TY_DURATION: break;
    }
    *kind = combine(*kind, classify(s, n));
}

/* ---- dictionaries --------------------------------------------------------------------------- */

/* A distinct string: its hash and, when at most 16 bytes long, its bytes as two words (the
 * first and last eight, or four, overlapping), which with the length decide equality. */
typedef struct {
    uint64_t h, a, b;
    RxStr s;
} DictEnt;

/* Distinct strings in order of first appearance, found through a hash index. */
typedef struct {
    RxHMap map;         /* hash of a string -> its entry; no slots before the first string */
    DictEnt *ents;
    uint32_t n, cap, max;
    bool over;          /* more than max distinct values (or out of memory): no dictionary */
} Dict;

static inline void dict_key(DictEnt *k, const char *p, size_t n) {
    uint64_t a = 0, b = 0;
    if (n >= 8 && n <= 16) {
        a = load64(p);
        b = load64(p + n - 8);
    } else if (n >= 4 && n < 8) {
        a = (uint64_t)load32(p) | (uint64_t)load32(p + n - 4) << 32;
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++) a |= (uint64_t)(unsigned char)p[i] << (8 * i);
    }
    k->a = a;
    k->b = b;
    k->h = n > 16 ? rx_hash_bytes(p, n)
                  : rx_hash64(a ^ (b * UINT64_C(0x9E3779B97F4A7C15)) ^ ((uint64_t)n << 56));
    k->s.ptr = p;
    k->s.len = n;
}

/* Writes entry e's string to dst (e->s.len bytes), the inverse of dict_key: up to 16 bytes from
 * its words, so that the bytes behind e->s need not be read; longer strings from e->s. */
static inline void dict_ent_bytes(const DictEnt *e, char *dst) {
    size_t n = e->s.len;
    if (n >= 8 && n <= 16) {
        memcpy(dst, &e->a, 8);
        memcpy(dst + n - 8, &e->b, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t first = (uint32_t)e->a, last = (uint32_t)(e->a >> 32);
        memcpy(dst, &first, 4);
        memcpy(dst + n - 4, &last, 4);
    } else if (n < 4) {
        for (size_t k = 0; k < n; k++) dst[k] = (char)(e->a >> (8 * k));
    } else {
        memcpy(dst, e->s.ptr, n);
    }
}

/* Whether entry x holds the string of key k, whose bytes are at kb. */
static inline bool dict_eq(const DictEnt *x, const DictEnt *k, const char *kb) {
    if (x->h != k->h || x->s.len != k->s.len) return false;
    if (k->s.len <= 16) return x->a == k->a && x->b == k->b;
    return memcmp(x->s.ptr, kb, k->s.len) == 0;
}

static void dict_free(Dict *d) {
    hmap_free(&d->map);
    free(d->ents);
    d->ents = NULL;
}

/* hash_of for a dictionary's index (ctx: the Dict). */
static uint64_t dict_hash_of(const void *ctx, uint32_t e) { return ((const Dict *)ctx)->ents[e].h; }

static uint32_t dict_add(Dict *d, const DictEnt *k, const RxHProbe *at);

/* The index of k's string (its bytes at kb) in d, adding k after the others when new;
 * UINT32_MAX once d has more than d->max strings (d->over, and d keeps no more; its entries
 * stay until dict_free). */
static inline uint32_t dict_put(Dict *d, const DictEnt *k, const char *kb) {
    if (d->over || !d->map.slot) return dict_add(d, k, NULL);
    RxHProbe p = hmap_probe(&d->map, k->h);
    uint32_t e;
    while (hmap_next(&d->map, &p, &e))
        if (dict_eq(&d->ents[e], k, kb)) return e;
    return dict_add(d, k, &p);
}

/* dict_put for a string not in d, whose probe stopped at *at (NULL when d has no slots yet). */
static __attribute__((noinline)) uint32_t dict_add(Dict *d, const DictEnt *k, const RxHProbe *at) {
    if (d->over) return UINT32_MAX;
    RxHProbe p;
    if (!d->map.slot) {
        if (hmap_init(&d->map, 8) < 0) goto over;
        p = hmap_probe(&d->map, k->h);   /* an empty map: the home slot is free */
    } else {
        p = *at;
    }
    if (d->n == d->max) goto over;
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 8;
        DictEnt *e = realloc(d->ents, (size_t)cap * sizeof *e);
        if (!e) goto over;
        d->ents = e;
        d->cap = cap;
    }
    d->ents[d->n] = *k;
    if (hmap_insert(&d->map, &p, d->n++, dict_hash_of, d) < 0) goto over;
    return d->n - 1;
over:
    /* the entries stay: rows coded so far get their slices from them (fill_slices) */
    d->over = true;
    hmap_free(&d->map);
    return UINT32_MAX;
}

/* ---- conversion ----------------------------------------------------------------------------- */

/* n bytes of zeroed memory at a cache-line boundary (free() frees it), or NULL. */
static void *calloc_lines(size_t n) {
    n = (n + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, n ? n : 64);
    if (p) memset(p, 0, n ? n : 64);
    return p;
}

/* The chunks' counters of waiting bytes, one per cache line. */
enum { ESC_STRIDE = 64 / sizeof(size_t) };

/* How many short TEXT cells of a column wait for their dictionary lookup (a power of two). */
enum { DICT_AHEAD = 8 };

/* One column over one chunk in pass 2. Aligned to a cache line, as every array of them is: two
 * threads convert neighbouring chunks at once, and states sharing a line would pass it back and
 * forth on every cell. */
typedef struct {
    _Alignas(64) Column *col;
    RxType type;         /* col's, and its data: read for every cell */
    void *data;
    const char *name;
    bool sorted;         /* non-decreasing with no NULL within the chunk */
    bool have;           /* first/last hold a value */
    bool uses_esc;       /* TEXT: some cell is in the chunk's escape heap */
    DateCache dc;
    int64_t first_i, last_i;
    double first_f, last_f;
    uint32_t *codes;     /* TEXT with a dictionary: the column's codes (local index + 1) */
    Dict dict;           /* ... and this chunk's distinct values */
    size_t lazy_to;      /* rows of the chunk before this one got a code and no slice (a
                            coded column has none, column.h; fill_slices makes them if the
                            column ends up without a dictionary) */
    bool oom;            /* text_slots failed: the chunk fails with out of memory */
    atomic_bool *no_dict;  /* set by any chunk over its limit: the column gets none */
    /* A file read in windows: TEXT cells of up to 16 bytes whose dictionary lookup waits
     * (copy_text) until DICT_AHEAD more have come, so that the index's memory they probe is
     * fetched meanwhile; looked up in file order (dict_settle), so the codes are the same. */
    DictEnt ahead[DICT_AHEAD];
    size_t ahead_row[DICT_AHEAD];
    unsigned n_ahead, first_ahead;
    size_t *esc_ahead;   /* the chunk's: bytes its waiting cells (every column's) will take in
                            its heap when new, which a cell's copy must leave room for */
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

static inline void track_i(ColState *cs, int64_t v) {
    if (!cs->have) {
        cs->have = true;
        cs->first_i = v;
    } else if (v < cs->last_i) {
        cs->sorted = false;
    }
    cs->last_i = v;
}

static inline void track_f(ColState *cs, double v) {
    if (!cs->have) {
        cs->have = true;
        cs->first_f = v;
    } else if (!(v >= cs->last_f)) {
        cs->sorted = false;
    }
    cs->last_f = v;
}

/* The slice array of cs's TEXT column, which a column with a dictionary gets only when a
 * chunk first needs it (a cell that gets no code): made once, whichever chunk asks first, by an
 * atomic compare-and-swap on the column's data. NULL (and cs->oom set) when out of memory. */
static RxStr *text_slots(ColState *cs) {
    if (cs->data) return cs->data;
    void *d = __atomic_load_n(&cs->col->data, __ATOMIC_ACQUIRE);
    if (!d) {
        void *mine = rx_malloc((cs->col->n ? cs->col->n : 1) * sizeof(RxStr));
        if (!mine) {
            cs->oom = true;
            return NULL;
        }
        void *want = NULL;
        if (__atomic_compare_exchange_n(&cs->col->data, &want, mine, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            d = mine;
        } else {
            rx_free(mine);
            d = want;
        }
    }
    cs->data = d;
    return d;
}

/* Stores slice v at row of cs's TEXT column (text_slots). */
static inline void put_slice(ColState *cs, size_t row, RxStr v) {
    RxStr *d = text_slots(cs);
    if (d) d[row] = v;
}

/* Gives the TEXT value v at row its dictionary code; its bytes are read at `bytes` (the view:
 * v points into the mapping). */
static inline void text_code(ColState *cs, size_t row, const char *bytes, const RxStr *v) {
    if (atomic_load_explicit(cs->no_dict, memory_order_relaxed)) {
        cs->codes = NULL;
        return;
    }
    DictEnt k;
    dict_key(&k, bytes, v->len);
    k.s = *v;
    uint32_t code = dict_put(&cs->dict, &k, bytes);
    if (code == UINT32_MAX) {
        atomic_store_explicit(cs->no_dict, true, memory_order_relaxed);
        cs->codes = NULL;
        return;
    }
    cs->codes[row] = code + 1;
}

/* Looks up the oldest waiting cell of cs (copy_text; there is one) in the chunk's dictionary and
 * stores it: its code, and its slice, which is the dictionary's copy of its bytes when it has
 * one, or else a copy made now in esc (room for which copy_text left). */
static inline void dict_settle(ColState *cs, StrHeap *esc) {
    unsigned i = cs->first_ahead;
    DictEnt *k = &cs->ahead[i];
    size_t row = cs->ahead_row[i], n = k->s.len;
    cs->first_ahead = (i + 1) & (DICT_AHEAD - 1);
    cs->n_ahead--;
    *cs->esc_ahead -= n;
    Dict *d = &cs->dict;
    if (cs->n_ahead >= DICT_AHEAD / 2 && d->map.slot) {
        /* a later cell's entry, its slot having been fetched since it came */
        const DictEnt *later = &cs->ahead[(i + DICT_AHEAD / 2) & (DICT_AHEAD - 1)];
        uint32_t sl = d->map.slot[later->h & d->map.mask];
        if (sl) __builtin_prefetch(&d->ents[sl - 1]);
    }
    char *o = esc->data + esc->len;
    if (cs->codes && atomic_load_explicit(cs->no_dict, memory_order_relaxed)) cs->codes = NULL;
    if (cs->codes) {
        RxHProbe p;
        bool probed = !d->over && d->map.slot;
        if (probed) {
            p = hmap_probe(&d->map, k->h);
            uint32_t e;
            while (hmap_next(&d->map, &p, &e))
                if (d->ents[e].h == k->h && d->ents[e].s.len == n && d->ents[e].a == k->a &&
                    d->ents[e].b == k->b) {   /* dict_eq of up to 16 bytes: their words */
                    cs->codes[row] = e + 1;
                    cs->lazy_to = row + 1;   /* no slice: the code says it */
                    return;
                }
        }
        dict_ent_bytes(k, o);
        k->s.ptr = o;
        uint32_t code = dict_add(d, k, probed ? &p : NULL);
        if (code == UINT32_MAX) {
            atomic_store_explicit(cs->no_dict, true, memory_order_relaxed);
            cs->codes = NULL;
        } else {
            cs->codes[row] = code + 1;
            cs->lazy_to = row + 1;
        }
    } else {
        dict_ent_bytes(k, o);
    }
    esc->len += n;
    cs->uses_esc = true;
    if (!cs->codes) put_slice(cs, row, (RxStr){o, n});
}

/* Writes field f's text to o (f->n bytes at most), "" escapes undone; returns its length. */
static inline __attribute__((always_inline)) size_t put_cell(char *o, const Field *f) {
    if (f->quoted != 2) {
        memcpy(o, f->s, f->n);
        return f->n;
    }
    size_t k = 0;
    for (size_t j = 0; j < f->n; j++) {
        o[k++] = f->s[j];
        if (f->s[j] == '"') j++;
    }
    return k;
}

/* convert for a non-NULL TEXT cell of a file read in windows (Reader.copy), whose bytes do not
 * stay in memory: they are copied (unescaped) into the chunk's heap esc, which pass 1 sized for
 * every non-NULL cell of the chunk's TEXT columns, so it never grows and never runs out unless
 * the file changed since. A value already in the chunk's dictionary takes that value's copy
 * instead, so a column of few distinct values keeps one copy of each per chunk. */
static int copy_text(Reader *r, ColState *cs, size_t row, const Field *f, StrHeap *esc) {
    const char *s = f->s;
    size_t n = f->n, k = n;
    if (!esc || esc->cap - esc->len - *cs->esc_ahead < n)
        return fail_at(r, RX_EIO, f->start, 1, "'%s' changed while it was read", r->path);
    if (cs->codes && atomic_load_explicit(cs->no_dict, memory_order_relaxed)) cs->codes = NULL;
    if (cs->codes && n <= 16) {
        /* waits for its lookup: its bytes go after those the waiting cells may take */
        if (cs->n_ahead == DICT_AHEAD) dict_settle(cs, esc);
        char *o = esc->data + esc->len + *cs->esc_ahead;
        k = put_cell(o, f);
        unsigned i = (cs->first_ahead + cs->n_ahead++) & (DICT_AHEAD - 1);
        DictEnt *e = &cs->ahead[i];
        /* the key's words from the field itself where it has no escapes: loads from the copy
         * just stored would wait for the stores to drain */
        dict_key(e, f->quoted == 2 ? o : s, k);
        e->s.ptr = o;
        cs->ahead_row[i] = row;
        *cs->esc_ahead += k;
        if (cs->dict.map.slot) __builtin_prefetch(&cs->dict.map.slot[e->h & cs->dict.map.mask]);
        return 0;
    }
    while (cs->n_ahead) dict_settle(cs, esc);
    char *o = esc->data + esc->len;
    k = put_cell(o, f);
    RxStr v = {o, k};
    if (cs->codes) {
        DictEnt key;
        dict_key(&key, o, k);
        key.s = v;
        uint32_t had = cs->dict.n, code = dict_put(&cs->dict, &key, o);
        if (code == UINT32_MAX) {
            atomic_store_explicit(cs->no_dict, true, memory_order_relaxed);
            cs->codes = NULL;
        } else {
            cs->codes[row] = code + 1;
            cs->lazy_to = row + 1;   /* no slice: the code says it */
            if (cs->dict.n == had) return 0;   /* the copy made when it was new serves */
        }
    }
    esc->len += k;
    cs->uses_esc = true;
    if (!cs->codes) put_slice(cs, row, v);
    return 0;
}

/* Stores field f at row of cs's column. esc is the chunk's heap for unescaped quoted text (and
 * with Reader.copy for every TEXT cell). */
static inline int convert(Reader *r, ColState *cs, size_t row, const Field *f, StrHeap *esc) {
    const char *s = f->s;
    size_t n = f->n;
    const char *why = NULL;
    if (cs->type == TY_TEXT) {
        RxStr v;
        if (n == 0 && f->quoted) {
            while (cs->n_ahead) dict_settle(cs, esc);   /* the lookups in file order */
            v.ptr = r->copy ? "" : in_map(r, s);
            v.len = 0;
        } else if (is_null(r, f)) {
            goto null;
        } else if (r->copy) {
            return copy_text(r, cs, row, f, esc);
        } else if (f->quoted == 2) {
            /* esc was sized in pass 1 for every escaped cell, so it never grows here. */
            char *o = esc->data + esc->len;
            size_t k = put_cell(o, f);
            esc->len += k;
            v.ptr = o;
            v.len = k;
            cs->uses_esc = true;
        } else {
            v.ptr = in_map(r, s);
            v.len = n;
        }
        if (cs->codes) text_code(cs, row, f->quoted == 2 ? v.ptr : s, &v);
        if (cs->codes) cs->lazy_to = row + 1;   /* no slice: the code says it */
        else put_slice(cs, row, v);
        return 0;
    }
    if (is_null(r, f)) goto null;
    switch (cs->type) {
    case TY_INT: {
        int64_t v;
        if (!fast_int(s, n, r->pad, &v)) {
            int rc = num_parse_int(s, n, &v);
            if (rc) return fail_value(r, cs, f, rc == -2 ? "out of range for a 64-bit INT"
                                                         : "not an integer");
        }
        ((int64_t *)cs->data)[row] = v;
        track_i(cs, v);
        return 0;
    }
    case TY_FLOAT: {
        double v;
        if (!fast_float(s, n, r->pad, &v)) {
            int rc = num_parse_float(s, n, &v);
            if (rc) return fail_value(r, cs, f, rc == -2 ? "out of range" : "not a number");
        }
        ((double *)cs->data)[row] = v;
        track_f(cs, v);
        return 0;
    }
    case TY_BOOL: {
        uint8_t v;
        if (!is_bool(s, n, &v)) return fail_value(r, cs, f, "expected true or false");
        ((uint8_t *)cs->data)[row] = v;
        return 0;
    }
    case TY_DATE: {
        int32_t v;
        if (!(n == 10 && fast_date_days(&cs->dc, s, n, &v)) && tm_parse_date(s, n, &v, &why))
            return fail_value(r, cs, f, why);
        ((int32_t *)cs->data)[row] = v;
        track_i(cs, v);
        return 0;
    }
    case TY_TIMESTAMP: {
        int64_t v;
        if (!fast_timestamp(&cs->dc, s, n, &v) && tm_parse_timestamp(s, n, &v, &why))
            return fail_value(r, cs, f, why);
        ((int64_t *)cs->data)[row] = v;
        track_i(cs, v);
        return 0;
    }
    case TY_TIME: {
        int64_t v;
        if (!fast_time(s, n, &v) && tm_parse_time(s, n, &v, &why))
            return fail_value(r, cs, f, why);
        ((int64_t *)cs->data)[row] = v;
        track_i(cs, v);
        return 0;
    }
    case TY_DURATION: {
        RxDuration v;
        if (tm_parse_duration(s, n, &v, &why)) return fail_value(r, cs, f, why);
        ((RxDuration *)cs->data)[row] = v;
        return 0;
    }
    case TY_TEXT: case TY_NULL: break;
    }
    return fail_value(r, cs, f, "unsupported column type");
null:
    cs->sorted = false;
    while (cs->n_ahead) dict_settle(cs, esc);   /* the rows before settle first, in file order */
    if (cs->codes) {
        cs->codes[row] = 0;
        cs->lazy_to = row + 1;
    } else if (cs->type == TY_TEXT) {
        put_slice(cs, row, (RxStr){0});
    } else {
        memset((char *)cs->data + row * type_width(cs->type), 0, type_width(cs->type));
    }
    /* Pass 1 saw this NULL, so the bitmap exists; two chunks may share its word. */
    if (!cs->col->valid)
        return fail_nopos(r, RX_EIO, "'%s' changed while it was read", r->path);
    __atomic_fetch_and(&cs->col->valid[row >> 6], ~(UINT64_C(1) << (row & 63)), __ATOMIC_RELAXED);
    return 0;
}

/* ---- the reader ----------------------------------------------------------------------------- */

/* A run of whole records, [start, stop) once verified. */
typedef struct {
    const char *start;   /* the first record: a guess until verify_chunks */
    const char *lim;     /* the next chunk's start: the records beginning before it are ours */
    const char *stop;    /* just after the last record */
    size_t row0, rows;
    size_t esc;          /* bytes of quoted cells with "" escapes, in every column */
    bool scanned, failed, row_limit;
    Pending *err;        /* the first error (malloc'd); NULL with failed when out of memory */
} Chunk;

typedef struct Load {
    Reader r;
    StrHeap *map;        /* the mapping; NULL for an empty file or a reservation (res) */
    int n_cols;
    char **names;        /* malloc'd, n_cols */
    RxType *types;       /* n_cols */
    RxType *forced;      /* n_cols, or NULL: a type from CsvOptions.type_names, TY_NULL if none */
    uint8_t *may_null;   /* n_cols: pass 1 saw a NULL cell */
    Field *fields;       /* the header's fields (growable scratch) */
    size_t cap_fields;
    int fd;              /* the file, open for pread; -1 when not open */
    size_t window;       /* bytes: WINDOW, or the chunk or the file when smaller (at least 64) */
    Chunk *chunks;
    int n_chunks, threads;
    RxType *ck_kinds;    /* pass 1 only: n_chunks x n_cols kinds and NULL flags */
    uint8_t *ck_nulls;
    bool direct;         /* the passes read the mapping itself, not windows: a whole input
                            read by read_input with 64 zero bytes after its end (adopt_input) */
    const CsvBlock *blk; /* not NULL: the input is one block of a file read by blocks */
    uint64_t byte0;      /* the input's offset in the file (a block's), for the progress meter */
    bool in_block;       /* the input is one block of a file read by blocks: its reader's
                            progress step (csv_stream.c) runs on, none is begun or ended here */
    /* A regular uncompressed file read from disk (fd) a window at a time, never held whole
     * (reserve_input): r.base..r.end is then address space reserved for its bytes, without
     * memory behind it, whose pages are filled from the file (res_fill) only where the bytes
     * are read in place: the header, a record longer than a window, and all of them before an
     * error is reported. TEXT cells are copied (Reader.copy). */
    char *res;           /* the reservation (res_len bytes), or NULL */
    size_t res_len;
    uint8_t *res_done;   /* a bit per page of res: filled */
    pthread_mutex_t res_lock;
    bool res_lock_live;
    struct stat st;      /* the file's when opened: a later load checks it is unchanged */
    const char *res_end; /* with res: the end of the file's bytes in it */
    const char *res_pre; /* with res: the end of the filled prefix that holds the first record */
    size_t ck_stride;    /* entries from one chunk's to the next's in ck_kinds, ck_nulls, ck_text */
    size_t *ck_text;     /* with res: n_chunks x n_cols, bytes of each column's non-NULL cells in
                            each chunk (pass 1), which size the chunk's copies of TEXT cells */
} Load;

static void load_free(Load *L) {
    if (L->names)
        for (int j = 0; j < L->n_cols; j++) free(L->names[j]);
    free(L->names);
    free(L->types);
    free(L->forced);
    free(L->may_null);
    free(L->fields);
    for (int k = 0; k < L->n_chunks; k++) free(L->chunks[k].err);
    free(L->chunks);
    free(L->ck_kinds);
    free(L->ck_nulls);
    heap_release(L->map);
    if (L->fd >= 0) close(L->fd);
    if (L->res) munmap(L->res, L->res_len);
    free(L->res_done);
    free(L->ck_text);
    if (L->res_lock_live) pthread_mutex_destroy(&L->res_lock);
}

static int oom(Load *L) {
    return rx_error(L->r.err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'",
                    L->r.path);
}

static Pending *pending_dup(const Pending *p) {
    Pending *d = malloc(sizeof *d);
    if (d) *d = *p;
    return d;
}

/* Column arrays are written once, front to back: transparent huge pages (where the system
 * gives them on request) take one page fault per 2 MB instead of one per 4 KB. */
static void advise_huge(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (n < 2 * huge) return;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), b = ((uintptr_t)p + n) & ~(huge - 1);
    if (b > a) madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)p, (void)n;
#endif
}

/* ---- a file read in windows ---------------------------------------------------------------- */

/* Fills the pages of L's reservation that hold [from, to) with the file's bytes, each page
 * once (zeros after the file's end); safe on several threads. -1 when the file cannot be read
 * there or ends before it (it changed since it was opened). */
static int res_fill(Load *L, const char *from, const char *to) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = (size_t)(L->res_end - L->res);
    size_t a = (size_t)(from - L->res) / page, b = ((size_t)(to - L->res) + page - 1) / page;
    if (b > L->res_len / page) b = L->res_len / page;
    int rc = 0;
    pthread_mutex_lock(&L->res_lock);
    for (size_t i = a; i < b && rc == 0;) {
        if (L->res_done[i >> 3] & (1u << (i & 7))) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < b && !(L->res_done[j >> 3] & (1u << (j & 7)))) j++;
        char *p = L->res + i * page;
        size_t off = i * page, len = (j - i) * page, done = 0;
        size_t want = off >= size ? 0 : size - off < len ? size - off : len;
        if (mprotect(p, len, PROT_READ | PROT_WRITE) < 0) {
            rc = -1;
            break;
        }
        while (done < want) {
            ssize_t k = pread(L->fd, p + done, want - done, (off_t)(off + done));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) break;
            done += (size_t)k;
        }
        if (done < want) {
            rc = -1;
            break;
        }
        for (size_t k = i; k < j; k++) L->res_done[k >> 3] |= (uint8_t)(1u << (k & 7));
        i = j;
    }
    pthread_mutex_unlock(&L->res_lock);
    return rc;
}

/* The error for a NUL byte at nul, the first in the input (first: the input starts the file). */
static int nul_error(Reader *r, const char *nul, bool first) {
    size_t len = (size_t)(r->end - r->base);
    bool utf16 = first && len >= 2 &&
                 (memcmp(r->base, "\xFF\xFE", 2) == 0 || memcmp(r->base, "\xFE\xFF", 2) == 0);
    return fail_at(r, RX_ECSV, nul, 1,
                   utf16 ? "NUL byte: this is UTF-16 text; Relix reads UTF-8 (convert the file)"
                         : "NUL byte: this is binary data, not CSV text");
}

/* Reads all of the bytes of the file that reader r reads in windows into the reservation (of
 * r->owner, L), so that errors can count lines and quote them; r and L's reader need nothing
 * more after (their owner is cleared). *nul: the file's first NUL byte, or NULL. -1 when the
 * file shrank. */
static int res_whole(Reader *r, Load **L, const char **nul) {
    *L = r->owner;
    r->owner = NULL;
    (*L)->r.owner = NULL;
    *nul = NULL;
    if (res_fill(*L, (*L)->res, (*L)->res + (*L)->res_len) < 0) return -1;
    *nul = memchr((*L)->res, '\0', (size_t)((*L)->res_end - (*L)->res));
    return 0;
}

/* The error for the first NUL byte of a file read in windows and now read whole (res_whole),
 * through r (which may be the header's reader, which ends after the first record). */
static int res_nul_error(const Load *L, const Reader *r, const char *nul) {
    Reader full = *r;
    full.end = L->res_end;
    full.whole = true;
    full.pend = NULL;
    return nul_error(&full, nul, true);
}

/* Before reader r of a file read in windows reports an error (code): reads the whole file
 * (res_whole); a NUL byte anywhere is then the error reported instead, as a reading of the
 * whole file reports it before any other. 0 to go on with the error, -1 when another was
 * reported. */
static int whole_for_error(Reader *r, RxErrCode code) {
    Load *L;
    const char *nul;
    if (res_whole(r, &L, &nul) < 0)
        return rx_error(r->err, RX_EIO, NULL, rx_span(0, 0), SHRANK, r->path);
    if (!nul || code == RX_ENOMEM || code == RX_EINTERRUPT) return 0;
    return res_nul_error(L, r, nul);
}

/* The first '\n' at or after at in a file read in windows (read from disk in pieces), or NULL. */
static const char *res_newline(const Load *L, const char *at) {
    char buf[16 << 10];
    const char *end = L->r.end;
    while (at < end) {
        size_t want = (size_t)(end - at) < sizeof buf ? (size_t)(end - at) : sizeof buf;
        ssize_t k = pread(L->fd, buf, want, (off_t)(at - L->r.base));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return NULL;
        const char *nl = memchr(buf, '\n', (size_t)k);
        if (nl) return at + (nl - buf);
        at += k;
    }
    return NULL;
}

/* Opens the file at path for reading in windows when it is a regular, uncompressed, non-empty
 * file and the options allow (CsvOptions.hold_input): reserves address space for its bytes
 * (Load.res) and fills the pages of its first record (the header), which must hold no NUL
 * byte. 1 when done, 0 when the input is to be read whole (read_input), -1 with the error. */
static int reserve_input(Load *L, const char *path, const CsvOptions *opt) {
    struct stat pre_st;
    /* not even opened otherwise: a pipe's bytes read to look at them would be lost */
    if (opt->hold_input || strcmp(path, "-") == 0 || stat(path, &pre_st) < 0 ||
        !S_ISREG(pre_st.st_mode) || pre_st.st_size <= 0)
        return 0;
    Input *in;
    if (input_open(path, &in, L->r.err) < 0) return -1;
    bool plain = input_codec(in) == INPUT_PLAIN && input_size_hint(in) > 0;
    input_close(in);
    if (!plain) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;   /* read_input says why */
    if (fstat(fd, &L->st) < 0 || !S_ISREG(L->st.st_mode) || L->st.st_size <= 0) {
        close(fd);
        return 0;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE), size = (size_t)L->st.st_size;
    size_t len = (size + 64 + page - 1) / page * page;
    void *m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        close(fd);
        return 0;
    }
    L->fd = fd;
    L->res = m;
    L->res_len = len;
    L->res_done = calloc(len / page / 8 + 1, 1);
    if (!L->res_done || pthread_mutex_init(&L->res_lock, NULL) != 0) return oom(L);
    L->res_lock_live = true;
    Reader *r = &L->r;
    r->base = r->data = L->res;
    r->end = L->res_end = r->base + size;
    r->copy = true;
    r->owner = L;
    /* 64 KB at first, doubled until the first record ends in it; less with small chunks
     * (CsvOptions.chunk_bytes: tests), so that the doubling happens */
    size_t pre = opt->chunk_bytes && opt->chunk_bytes < (64 << 10) ? opt->chunk_bytes : 64 << 10;
    for (;;) {
        if (pre > size) pre = size;
        if (res_fill(L, r->base, r->base + pre) < 0)
            return rx_error(r->err, RX_EIO, NULL, rx_span(0, 0), SHRANK, r->path);
        size_t skip = pre >= 3 && memcmp(r->base, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
        if (pre == size || csv_block_cut(r->base + skip, pre - skip, r->delim) > 0) break;
        pre *= 2;
    }
    if (size >= 3 && memcmp(r->base, "\xEF\xBB\xBF", 3) == 0) r->data += 3;
    L->res_pre = r->base + pre;
    const char *nul = memchr(r->base, '\0', pre);
    if (nul) return nul_error(r, nul, true);
    return 1;
}

/* ---- chunks on threads ---------------------------------------------------------------------- */

/* A worker thread's scratch: its pending error and its window of the file (window_fill). */
typedef struct Worker {
    Pending pend;
    char *win;           /* 64-byte aligned, window + 64 bytes; NULL until needed */
    Field *fields;       /* pass 2: a record's fields (n_cols); NULL until needed */
} Worker;

enum {
    WINDOW = 256 << 10,       /* fits a core's cache along with what is parsed from it */
    WINDOW_OVER = 4 << 10,    /* how far pass 1 reads past a chunk's end at first */
};

/* Chunks 0..n-1 handed out in order to the threads that ask; with skip_after_failure a chunk
 * after one that failed is not started (its error could not be the first). The outcome never
 * depends on which thread ran what. */
typedef struct Jobs Jobs;
struct Jobs {
    void (*run)(Jobs *j, int k, Worker *w);
    void *ctx;
    int n;
    bool skip_after_failure;
    atomic_int next;
    atomic_int first_failed;
};

static void *jobs_main(void *arg) {
    Jobs *j = arg;
    Worker w = {.win = NULL};
    for (;;) {
        int k = atomic_fetch_add(&j->next, 1);
        if (k >= j->n) break;
        if (j->skip_after_failure && k > atomic_load(&j->first_failed)) continue;
        w.pend.code = RX_OK;
        j->run(j, k, &w);
    }
    free(w.win);
    free(w.fields);
    return NULL;
}

static void jobs_failed(Jobs *j, int k) {
    int cur = atomic_load(&j->first_failed);
    while (k < cur && !atomic_compare_exchange_weak(&j->first_failed, &cur, k)) {
    }
}

/* Runs j on up to `threads` threads, this one included; fewer when threads cannot start. */
static void run_jobs(int threads, Jobs *j) {
    atomic_init(&j->next, 0);
    atomic_init(&j->first_failed, j->n);
    if (threads > j->n) threads = j->n;
    pthread_t th[MAX_THREADS];
    int started = 0;
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&th[started], NULL, jobs_main, j) != 0) break;
        started++;
    }
    jobs_main(j);
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
}

/* ---- the header ----------------------------------------------------------------------------- */

/* Splits the first record into L->fields; returns the field count or -1. A data record's
 * UTF-8 is left to pass 1, which reports it with its column's name. */
static int split_first(Load *L, const char **pp, bool is_header) {
    Reader *r = &L->r;
    Utf8Scan u;
    utf8_init(&u, r, *pp);
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
        if (is_header && utf8_reached(&u, f->end))
            return fail_at(r, RX_ECSV, f->start, (size_t)(f->end - f->start),
                           "invalid UTF-8 in the header (byte 0x%02X)", (unsigned char)*u.bad);
        n++;
        if (n > 1000000)
            return fail_at(r, RX_ELIMIT, f->start, 1, "more than 1000000 columns");
        if (k == F_LAST) return n;
    }
}

static char *unescape_dup(const Field *f) {
    char *s = malloc(f->n + 1);
    if (!s) return NULL;
    s[put_cell(s, f)] = 0;
    return s;
}

/* Fails at the second of two equal header names, in one pass over the names through a hash
 * index (linear in the header, however many columns). */
static int check_unique_names(Load *L) {
    RxHMap names;   /* hash of a name -> its column index */
    if (hmap_init(&names, (size_t)L->n_cols) < 0) return oom(L);
    for (int j = 0; j < L->n_cols; j++) {
        RxHProbe p = hmap_probe(&names, rx_hash_bytes(L->names[j], strlen(L->names[j])));
        uint32_t k;
        while (hmap_next(&names, &p, &k)) {
            if (strcmp(L->names[k], L->names[j]) == 0) {
                const Field *f = &L->fields[j];
                hmap_free(&names);
                return fail_at(&L->r, RX_ECSV, f->start, (size_t)(f->end - f->start),
                               "duplicate column name '%s' (columns %u and %d)", L->names[j],
                               k + 1, j + 1);
            }
        }
        hmap_insert(&names, &p, (uint32_t)j, NULL, NULL);   /* reserved: never grows */
    }
    hmap_free(&names);
    return 0;
}

/* Looks up the columns that CsvOptions.type_names names (after the names are set) and notes
 * their types in L->forced. A name the file has no column for is an RX_ENAME error without a
 * position (the caller knows where the option was written). */
static int set_forced(Load *L, const CsvOptions *opt) {
    if (opt->n_schema > 0)
        return rx_error(L->r.err, RX_EVALUE, NULL, rx_span(0, 0),
                        "types and schema together for '%s': schema gives every type already",
                        L->r.path);
    L->forced = calloc((size_t)L->n_cols + 1, sizeof *L->forced);
    if (!L->forced) return oom(L);
    for (int i = 0; i < opt->n_types; i++) {
        int j = 0;
        while (j < L->n_cols && strcmp(L->names[j], opt->type_names[i]) != 0) j++;
        if (j == L->n_cols) {
            StrBuf cols;
            sb_init(&cols);
            for (int k = 0; k < L->n_cols && k < 10; k++)
                sb_printf(&cols, "%s%s", k ? ", " : "", L->names[k]);
            if (L->n_cols > 10) sb_puts(&cols, ", ...");
            int rc = rx_error(L->r.err, RX_ENAME, NULL, rx_span(0, 0),
                              "types names column '%s', which '%s' does not have (columns: %s)",
                              opt->type_names[i], L->r.path, cols.p ? cols.p : "");
            sb_free(&cols);
            return rc;
        }
        L->forced[j] = opt->type_types[i];
    }
    return 0;
}

/* A block after a file's first: the file's columns, from the block's description. */
static int block_columns(Load *L) {
    const CsvBlock *b = L->blk;
    int n_cols = L->n_cols = b->n_cols;
    L->names = calloc((size_t)n_cols + 1, sizeof *L->names);
    L->types = calloc((size_t)n_cols + 1, sizeof *L->types);
    L->may_null = calloc((size_t)n_cols + 1, sizeof *L->may_null);
    if (!L->names || !L->types || !L->may_null) return oom(L);
    if (b->forced && !(L->forced = calloc((size_t)n_cols + 1, sizeof *L->forced))) return oom(L);
    for (int j = 0; j < n_cols; j++) {
        if (!(L->names[j] = strdup(b->names[j]))) return oom(L);
        L->types[j] = b->types ? b->types[j] : TY_NULL;
        if (b->forced) L->forced[j] = b->forced[j];
    }
    return 0;
}

/* Sets names and types from the header (when there is one) and the options. *pp is left at
 * the first data record. */
static int read_header(Load *L, const CsvOptions *opt, const char **pp) {
    Reader *r = &L->r;
    int n = 0;
    if (L->blk && !L->blk->first) return block_columns(L);
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
    L->may_null = calloc((size_t)n_cols + 1, sizeof *L->may_null);
    if (!L->names || !L->types || !L->may_null) return oom(L);
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
    if (opt->n_types > 0 && set_forced(L, opt) < 0) return -1;
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
    }
    return check_unique_names(L);
}

/* ---- pass 1 --------------------------------------------------------------------------------- */

/* The default chunk size for body bytes on `threads` threads: CHUNKS_PER_THREAD chunks per
 * thread, none below CHUNK_BYTES or above CHUNK_MAX. Fewer, larger chunks of a large file mean
 * fewer per-chunk dictionaries, each built again from nothing (the distinct values of every
 * chunk inserted anew, their memory touched anew), while the threads still share the work
 * evenly. */
static size_t chunk_size(size_t body, long threads) {
    size_t want = body / ((size_t)threads * CHUNKS_PER_THREAD);
    return want < CHUNK_BYTES ? CHUNK_BYTES : want > CHUNK_MAX ? CHUNK_MAX : want;
}

/* Cuts the records from p0 on into chunks of about opt->chunk_bytes (0: chunk_size's), each
 * starting just after a newline (a guess, which verify_chunks checks), and sizes the thread
 * count. */
static int plan_chunks(Load *L, const char *p0, const CsvOptions *opt) {
    const char *end = L->r.end;
    size_t body = (size_t)(end - p0);
    long t = opt->threads > 0 ? opt->threads : rx_threads();
    if (t < 1) t = 1;
    if (t > MAX_THREADS) t = MAX_THREADS;
    size_t want = opt->chunk_bytes ? opt->chunk_bytes : chunk_size(body, t);
    size_t win = want < body ? want : body;  /* no bigger than the chunk, nor the file */
    L->window = win < WINDOW ? (win < 64 ? 64 : (win + 63) / 64 * 64) : WINDOW;
    size_t n = body / want + (body % want != 0);
    size_t cap = MAX_CHUNK_CELLS / (size_t)(L->n_cols > 0 ? L->n_cols : 1);
    if (cap > MAX_CHUNKS) cap = MAX_CHUNKS;
    if (n > cap) n = cap;
    if (n < 1) n = 1;
    L->chunks = calloc(n, sizeof *L->chunks);
    if (!L->chunks) return oom(L);
    int m = 0;
    L->chunks[m++].start = p0;
    const char *nl = NULL;
    for (size_t k = 1; k < n; k++) {
        /* body >= n here, so at > p0; (body % n) * k stays below n * n <= 2^32. */
        const char *at = p0 + body / n * k + (body % n) * k / n;
        if (nl && nl >= at - 1) continue;  /* the newline found last time is this one too */
        nl = L->res ? res_newline(L, at - 1) : memchr(at - 1, '\n', (size_t)(end - (at - 1)));
        if (!nl || nl + 1 >= end) break;
        L->chunks[m++].start = nl + 1;
    }
    for (int k = 0; k < m; k++) L->chunks[k].lim = k + 1 < m ? L->chunks[k + 1].start : end;
    L->n_chunks = m;
    if (t > m) t = m;
    L->threads = (int)t;
    /* each chunk's entries on cache lines of their own: two threads scan neighbouring chunks
     * and write their entries on every cell */
    L->ck_stride = ((size_t)L->n_cols + 63) & ~(size_t)63;
    size_t cells = (size_t)m * L->ck_stride + 1;
    L->ck_kinds = calloc_lines(cells * sizeof *L->ck_kinds);
    L->ck_nulls = calloc_lines(cells);
    if (!L->ck_kinds || !L->ck_nulls) return oom(L);
    if (L->res && !(L->ck_text = calloc_lines(cells * sizeof *L->ck_text))) return oom(L);
    return 0;
}

/* Pass 1's state over one chunk. */
typedef struct {
    Load *L;
    RxType *kinds;       /* n_cols, when detecting */
    uint8_t *nulls;      /* n_cols */
    DateCache *dc;       /* n_cols, when detecting */
    size_t *text;        /* n_cols, or NULL: bytes of the non-NULL cells (Load.ck_text) */
    size_t rows, esc, max_rows;
    bool row_limit;
} Scan1;

/* Pass 1 over the record at *pp of view v: 1 when scanned (*pp after it), 0 when the view ends
 * inside it (nothing counted: it is scanned again from a later window), -1 on an error. */
static int scan_record(Scan1 *S, Reader *v, Cursor *cur, Utf8Scan *u, const char **pp) {
    const Load *L = S->L;
    const int n_cols = L->n_cols;
    const char *p = *pp, *rec = p, *extra = NULL, *last_end = p;
    size_t esc = 0;
    int j = 0;
    for (;;) {
        Field f;
        int k = scan_fast(v, cur, &p, &f);
        if (k < 0) return -1;
        if (k == F_CUT) return 0;
        if (f.end > u->watch && utf8_reached(u, f.end))
            return fail_at(v, RX_ECSV, f.start, (size_t)(f.end - f.start),
                           "invalid UTF-8 (byte 0x%02X) in column '%s'",
                           (unsigned char)*u->bad, j < n_cols ? L->names[j] : "(extra field)");
        if (j < n_cols) {
            if (f.quoted == 2) esc += f.n;
            if (is_null(v, &f)) {
                S->nulls[j] = 1;
            } else {
                if (S->kinds) detect_cell(&S->kinds[j], &S->dc[j], &f, v->pad);
                if (S->text) S->text[j] += f.n;
            }
        } else if (!extra) {
            extra = f.start;
        }
        last_end = f.end;
        j++;
        if (k == F_LAST) break;
    }
    if (j != n_cols) {
        const char *at = extra ? extra : last_end;
        fail_at(v, RX_ECSV, at, extra ? (size_t)(last_end - extra) : 1,
                "has %d field%s, the header has %d", j, j == 1 ? "" : "s", n_cols);
        v->pend->rec = in_map(v, rec); /* "line N has ...": N is counted if it is reported */
        return -1;
    }
    if (++S->rows > S->max_rows) {
        S->row_limit = true;
        return fail_at(v, RX_ELIMIT, rec, 1, "more than %u rows", (unsigned)RX_MAX_ROWS);
    }
    S->esc += esc;
    *pp = p;
    return 1;
}

/* Makes *v a view of the file bytes [from, from + len), len <= L->window, copied into the
 * worker's buffer (from the mapping; with pread when L->fd is open); whole when they run to
 * the end of the file, or to the end of verified records (pass 2). -1 when out of memory. */
static int window_fill(const Load *L, Worker *w, const char *from, size_t len, bool whole,
                       Reader *v) {
    /* (-2 when a file read in windows ends before them: it changed) */
    if (!w->win && !(w->win = aligned_alloc(64, L->window + 64))) return -1;
    size_t off = (size_t)(from - L->r.base), done = 0;
    while (L->fd >= 0 && done < len) {
        ssize_t k = pread(L->fd, w->win + done, len - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        done += (size_t)k;
    }
    if (done < len) {
        if (L->res) return -2;
        memcpy(w->win + done, from + done, len - done);
    }
    memset(w->win + len, 0, 64); /* block_mask reads the rest of the last 64-byte block */
    *v = L->r;
    v->end = w->win + len;
    v->to_map = (uintptr_t)from - (uintptr_t)w->win;
    v->whole = whole;
    v->pad = true;
    v->pend = &w->pend;
    return 0;
}

/* For a record longer than a window, read from the file's bytes in place: *v becomes m, and in
 * a file read in windows one over the bytes from pos to pos + *span (filled from the file;
 * whole only when that is the file's end), *span doubled for a next try when the record goes
 * on past it. -1 when the file changed since it was opened. */
static int res_view(Load *L, const Reader *m, const char *pos, size_t *span, Reader *v) {
    *v = *m;
    if (!L->res) return 0;
    /* grown until a record ends in it (as the reader splits records: csv_block_cut), so that
     * the scan of a view that ends inside the record, which checks UTF-8 up to the view's
     * last line end once per field, never runs */
    const char *to;
    for (;;) {
        to = (size_t)(m->end - pos) > *span ? pos + *span : m->end;
        if (res_fill(L, pos, to) < 0) return -1;
        *span *= 2;
        if (to == m->end || csv_block_cut(pos, (size_t)(to - pos), m->delim) > 0) break;
    }
    v->end = to;
    v->whole = m->whole && to == m->end;
    return 0;
}

/* Pass 1 over chunk k from its start: checks the structure, counts rows (failing past
 * max_rows) and escaped bytes, notes NULLs and (when detecting) the kinds. The chunk is read
 * in windows of the file; a record longer than a window is read from the mapping. */
static int scan_chunk(Load *L, int k, bool detect, size_t max_rows, Worker *w) {
    Chunk *c = &L->chunks[k];
    const int n_cols = L->n_cols;
    Scan1 S = {L, NULL, L->ck_nulls + (size_t)k * L->ck_stride, NULL, NULL, 0, 0, max_rows,
               false};
    memset(S.nulls, 0, (size_t)n_cols);
    if (L->ck_text) {
        /* cells of a record cut by a window's end count again when it is read whole: the
         * count can only be above the bytes, which is what it sizes */
        S.text = L->ck_text + (size_t)k * L->ck_stride;
        memset(S.text, 0, (size_t)n_cols * sizeof *S.text);
    }
    free(c->err);
    c->err = NULL;
    c->scanned = true;
    c->failed = c->row_limit = false;
    c->rows = c->esc = 0;
    Reader m = L->r;
    m.pend = &w->pend;
    int rc = 0;
    if (detect) {
        S.kinds = L->ck_kinds + (size_t)k * L->ck_stride;
        for (int j = 0; j < n_cols; j++) S.kinds[j] = TY_NULL;
        if (!(S.dc = calloc((size_t)n_cols + 1, sizeof *S.dc)))
            return fail_nopos(&m, RX_ENOMEM, "out of memory reading '%s'", m.path);
    }
    const char *pos = c->start, *lim = c->lim, *end = L->r.end;
    bool full = false; /* the next window is a whole WINDOW even past lim */
    if (L->direct) {
        /* the mapping itself, a window's length at a time between progress reports */
        Reader v = m;
        v.pad = true;
        Cursor cur = {0, 0};
        Utf8Scan u;
        utf8_init(&u, &v, pos);
        while (pos < lim && rc >= 0) {
            const char *slice = (size_t)(lim - pos) > WINDOW ? pos + WINDOW : lim;
            while (pos < slice && (rc = scan_record(&S, &v, &cur, &u, &pos)) > 0) {
            }
            if (rc == 0) rc = fail_nopos(&m, RX_EIO, "'%s' changed while it was read", m.path);
            if (rc >= 0 && progress_update(L->byte0 + (uint64_t)(pos - L->r.base), NULL) < 0)
                rc = fail_nopos(&m, RX_EINTERRUPT, "interrupted");
        }
        lim = pos;  /* done: the window loop below has nothing to read */
    }
    while (pos < lim) {
        size_t len = (size_t)(end - pos) < L->window ? (size_t)(end - pos) : L->window;
        size_t most = len;
        size_t over = L->window < WINDOW_OVER ? L->window : WINDOW_OVER;
        if (!full && (size_t)(lim - pos) + over < len) len = (size_t)(lim - pos) + over;
        Reader v;
        int wf = window_fill(L, w, pos, len, pos + len == end, &v);
        if (wf < 0) {
            rc = wf == -2 ? fail_nopos(&m, RX_EIO, SHRANK, m.path)
                          : fail_nopos(&m, RX_ENOMEM, "out of memory reading '%s'", m.path);
            break;
        }
        const char *nul = L->res ? memchr(w->win, '\0', len) : NULL;
        if (nul) {
            /* the error reported is the first NUL in the file (whole_for_error) */
            rc = nul_error(&v, nul, false);
            break;
        }
        const char *p = w->win, *vlim = (size_t)(lim - pos) < len ? w->win + (lim - pos) : v.end;
        Cursor cur = {0, 0};
        Utf8Scan u;
        utf8_init(&u, &v, p);
        while (p < vlim && (rc = scan_record(&S, &v, &cur, &u, &p)) > 0) {
        }
        if (rc < 0) break;
        const char *next = in_map(&v, p);
        /* Progress and Ctrl-C (the hook is a no-op on a worker thread: the thread that runs
         * the query also takes chunks, and reports how far it got). */
        if (progress_update(L->byte0 + (uint64_t)(next - L->r.base), NULL) < 0) {
            rc = fail_nopos(&m, RX_EINTERRUPT, "interrupted");
            break;
        }
        if (next > pos) {
            pos = next;
            full = false;
        } else if (len < most) {
            full = true; /* the record goes on past the short window: try a whole one */
        } else {
            /* a record longer than a window */
            const char *from = pos;
            size_t span = 2 * L->window;
            for (;;) {
                Reader lv;
                if (res_view(L, &m, pos, &span, &lv) < 0) {
                    rc = fail_nopos(&m, RX_EIO, SHRANK, m.path);
                    break;
                }
                Cursor mc = {0, 0};
                Utf8Scan mu;
                utf8_init(&mu, &lv, pos);
                rc = scan_record(&S, &lv, &mc, &mu, &pos);
                if (rc != 0 || lv.whole) break;
            }
            if (rc < 0) break;
            const char *zero = L->res ? memchr(from, '\0', (size_t)(pos - from)) : NULL;
            if (rc == 0 || zero) {
                rc = rc == 0 ? fail_nopos(&m, RX_EIO, "'%s' changed while it was read", m.path)
                             : nul_error(&m, zero, false);
                break;
            }
        }
        rc = 0;
    }
    c->stop = pos;
    c->rows = S.rows;
    c->esc = S.esc;
    c->row_limit = S.row_limit;
    free(S.dc);
    return rc < 0 ? -1 : 0;
}

static void chunk_failed(Chunk *c, const Pending *e) {
    c->failed = true;
    c->err = pending_dup(e);
}

typedef struct {
    Load *L;
    bool detect;
} Pass1;

static void pass1_job(Jobs *j, int k, Worker *w) {
    Pass1 *P = j->ctx;
    if (scan_chunk(P->L, k, P->detect, RX_MAX_ROWS, w) < 0)
        chunk_failed(&P->L->chunks[k], &w->pend);
}

/* Checks the chunks in file order (each must start where the one before it stopped; one that
 * does not is scanned again from there), reports the first error, gives each chunk its first
 * row, and combines the chunks' kinds and NULLs into the columns'. */
static int verify_chunks(Load *L, bool detect, size_t *out_rows) {
    const int n_cols = L->n_cols;
    size_t rows = 0;
    const char *at = L->chunks[0].start;
    Worker w = {.win = NULL};
    for (int k = 0; k < L->n_chunks; k++) {
        Chunk *c = &L->chunks[k];
        if (!c->scanned || c->start != at || c->row_limit || RX_MAX_ROWS - rows < c->rows) {
            c->start = at;
            w.pend.code = RX_OK;
            if (scan_chunk(L, k, detect, RX_MAX_ROWS - rows, &w) < 0) chunk_failed(c, &w.pend);
        }
        if (c->failed) {
            free(w.win);
            if (!c->err) return oom(L);
            return report(&L->r, c->err);
        }
        c->row0 = rows;
        rows += c->rows;
        at = c->stop;
        const RxType *kinds = L->ck_kinds + (size_t)k * L->ck_stride;
        const uint8_t *nulls = L->ck_nulls + (size_t)k * L->ck_stride;
        for (int j = 0; j < n_cols; j++) {
            if (detect) L->types[j] = combine(L->types[j], kinds[j]);
            L->may_null[j] |= nulls[j];
        }
    }
    free(w.win);
    *out_rows = rows;
    return 0;
}

/* ---- pass 2 --------------------------------------------------------------------------------- */

typedef struct {
    Load *L;
    const int *slot;     /* n_cols: the column's index among those loading, or -1 */
    int n_load;
    ColState *cs;        /* n_chunks x n_load */
    Pending **errs;      /* n_chunks: each chunk's first error */
    uint8_t *failed;
    StrHeap **esc;       /* n_chunks: the heap for the chunk's unescaped cells, or NULL */
} Pass2;

/* Pass 2 over the record at *pp of view v (row `row`): 1 when converted (*pp after it), 0 when
 * the view ends inside it (nothing converted: the record is read again from a later window),
 * -1 on an error. fs: n_cols fields of scratch; the record is split whole before any cell is
 * converted. */
static int convert_record(const Load *L, Reader *v, Cursor *cur, const char **pp, size_t row,
                          const int *slot, ColState *cs, StrHeap *esc, Field *fs) {
    const int n_cols = L->n_cols;
    const char *p = *pp;
    for (int j = 0; j < n_cols; j++) {
        int k = scan_fast(v, cur, &p, &fs[j]);
        if (k < 0) return -1;
        if (k == F_CUT) return 0;
        /* Pass 1 checked these bytes; they differ only when the file changed since. */
        if ((k == F_LAST) != (j == n_cols - 1))
            return fail_at(v, RX_EIO, fs[j].start, 1, "'%s' changed while it was read", v->path);
    }
    for (int j = 0; j < n_cols; j++) {
        int s = slot[j];
        if (s >= 0 && convert(v, &cs[s], row, &fs[j], esc) < 0) return -1;
    }
    *pp = p;
    return 1;
}

/* Pass 2 over one verified chunk: converts its cells of the loading columns, reading it in
 * windows (the last ends at the chunk's end, a record boundary) or, for a record longer than
 * a window, from the mapping. */
static int convert_chunk(Load *L, const Chunk *ch, const int *slot, ColState *cs, StrHeap *esc,
                         Worker *w) {
    Reader m = L->r;
    m.pend = &w->pend;
    const char *pos = ch->start;
    size_t row = ch->row0, last = ch->row0 + ch->rows;
    if (!w->fields && !(w->fields = malloc((size_t)L->n_cols * sizeof *w->fields)))
        return fail_nopos(&m, RX_ENOMEM, "out of memory reading '%s'", m.path);
    Field *fs = w->fields;
    if (L->direct) {
        /* the mapping itself, a window's length at a time between progress reports */
        Reader v = m;
        v.pad = true;
        Cursor cur = {0, 0};
        while (row < last) {
            const char *slice = pos + WINDOW;
            int rc = 1;
            while (row < last && pos < slice &&
                   (rc = convert_record(L, &v, &cur, &pos, row, slot, cs, esc, fs)) > 0)
                row++;
            if (rc < 0) return -1;
            if (rc == 0) return fail_nopos(&m, RX_EIO, "'%s' changed while it was read", m.path);
            if (progress_update(L->byte0 + (uint64_t)(pos - L->r.base), NULL) < 0)
                return fail_nopos(&m, RX_EINTERRUPT, "interrupted");
        }
        return 0;
    }
    while (row < last) {
        size_t len = (size_t)(ch->stop - pos) < L->window ? (size_t)(ch->stop - pos) : L->window;
        Reader v;
        int wf = window_fill(L, w, pos, len, pos + len == ch->stop, &v);
        if (wf < 0)
            return wf == -2 ? fail_nopos(&m, RX_EIO, SHRANK, m.path)
                            : fail_nopos(&m, RX_ENOMEM, "out of memory reading '%s'", m.path);
        const char *p = w->win;
        Cursor cur = {0, 0};
        int rc = 1;
        while (row < last &&
               (rc = convert_record(L, &v, &cur, &p, row, slot, cs, esc, fs)) > 0)
            row++;
        if (rc < 0) return -1;
        const char *next = in_map(&v, p);
        if (progress_update(L->byte0 + (uint64_t)(next - L->r.base), NULL) < 0)
            return fail_nopos(&m, RX_EINTERRUPT, "interrupted");
        if (next == pos && row < last) {
            /* a record longer than a window */
            size_t span = 2 * L->window;
            for (;;) {
                Reader lv;
                if (res_view(L, &m, next, &span, &lv) < 0)
                    return fail_nopos(&m, RX_EIO, SHRANK, m.path);
                Cursor mc = {0, 0};
                rc = convert_record(L, &lv, &mc, &next, row, slot, cs, esc, fs);
                if (rc < 0) return -1;
                if (rc > 0) break;
                if (lv.whole)
                    return fail_nopos(&m, RX_EIO, "'%s' changed while it was read", m.path);
            }
            row++;
        }
        pos = next;
    }
    return 0;
}

static void pass2_job(Jobs *j, int k, Worker *w) {
    Pass2 *P = j->ctx;
    Load *L = P->L;
    ColState *cs = P->cs + (size_t)k * (size_t)P->n_load;
    if (convert_chunk(L, &L->chunks[k], P->slot, cs, P->esc[k], w) < 0) {
        P->failed[k] = 1;
        P->errs[k] = pending_dup(&w->pend);
        jobs_failed(j, k);
    } else {
        for (int s = 0; s < P->n_load; s++)
            while (cs[s].n_ahead) dict_settle(&cs[s], P->esc[k]);
        bool oom = false;
        for (int s = 0; s < P->n_load; s++) oom |= cs[s].oom;
        if (oom) {
            P->failed[k] = 1;   /* no message: out of memory */
            jobs_failed(j, k);
        }
    }
    /* The chunk's lookups are done: its dictionaries' indexes go now, so that the next
     * chunk's reuse their memory; finish_dicts reads the entries only. */
    for (int s = 0; s < P->n_load; s++) hmap_free(&cs[s].dict.map);
}

/* Rewrites each chunk's local dictionary codes (index + 1, 0 for NULL) as the merged ones.
 * (A coded column has no per-row slices to rewrite: column.h.) */
typedef struct {
    Load *L;
    int n_load;
    uint32_t **codes;    /* n_load: the column's codes, or NULL */
    uint32_t **maps;     /* n_chunks x n_load: local code -> merged index */
} Remap;

static void remap_job(Jobs *j, int k, Worker *w) {
    (void)w;
    Remap *R = j->ctx;
    const Chunk *ch = &R->L->chunks[k];
    for (int s = 0; s < R->n_load; s++) {
        const uint32_t *map = R->maps[(size_t)k * (size_t)R->n_load + (size_t)s];
        if (!map) continue;
        uint32_t *c = R->codes[s] + ch->row0;
        for (size_t i = 0; i < ch->rows; i++) c[i] = map[c[i]];
    }
}

/* Gives the rows of column s that got a chunk-local code and no slice (ColState.lazy_to) their
 * slices, from each chunk's dictionary (NULL rows: an empty slice): for a column that ends up
 * without a dictionary, whose rows then need slices. */
static int fill_slices(const Load *L, int n_load, int s, Column *col, const uint32_t *codes,
                       const ColState *cs) {
    if (!col->data && !(col->data = rx_malloc((col->n ? col->n : 1) * sizeof(RxStr)))) return -1;
    for (int k = 0; k < L->n_chunks; k++) {
        const ColState *x = &cs[(size_t)k * (size_t)n_load + (size_t)s];
        RxStr *v = col->data;
        for (size_t i = L->chunks[k].row0; i < x->lazy_to; i++)
            v[i] = codes[i] ? x->dict.ents[codes[i] - 1].s : (RxStr){0};
    }
    return 0;
}

/* Gives column c's dictionary (the g.n strings of dict, slices into the mapping) bytes of its
 * own, in one heap the column holds (an optimisation): a string of up to 16 bytes is rebuilt
 * from the words its entry keeps (dict_ent_bytes), so neither this nor a later reader of the dictionary (AS-OF
 * and join keys compare two sides' dictionaries) faults in a page of the file per distinct
 * value, which in a file sorted by that column means one fault every few thousand rows. False
 * (nothing done) when out of memory: the slices into the mapping stay valid. */
static bool own_dict_bytes(Column *c, const Dict *g, RxStr *dict) {
    size_t bytes = 0;
    for (uint32_t i = 0; i < g->n; i++) bytes += g->ents[i].s.len;
    StrHeap *h = heap_new(bytes);
    if (!h) return false;
    if (col_add_heap(c, h) < 0) {
        heap_release(h);
        return false;
    }
    heap_release(h);   /* the column holds it */
    for (uint32_t i = 0; i < g->n; i++) {
        char *dst = h->data + h->len;
        dict_ent_bytes(&g->ents[i], dst);
        dict[i] = (RxStr){dst, g->ents[i].s.len};
        h->len += g->ents[i].s.len;
    }
    return true;
}

/* Merges the chunks' dictionaries of every column that has codes, in chunk order (so in order
 * of first appearance in the file), and gives the column codes and dict; a column with more
 * distinct values than max gets none. own[s] is set when column s's rows are then slices of
 * its dictionary's own bytes only (none into the file's). -1 when out of memory. */
static int finish_dicts(Load *L, int n_load, Column **cols, uint32_t **codes, ColState *cs,
                        atomic_bool *no_dict, uint32_t max, bool *own) {
    const int n_ch = L->n_chunks;
    uint32_t **maps = calloc((size_t)n_ch * (size_t)n_load + 1, sizeof *maps);
    RxStr **dicts = calloc((size_t)n_load + 1, sizeof *dicts);
    uint32_t *n_dict = calloc((size_t)n_load + 1, sizeof *n_dict);
    int rc = -1;
    bool any = false;
    if (!maps || !dicts || !n_dict) goto out;
    for (int s = 0; s < n_load; s++) {
        if (!codes[s]) continue;
        if (atomic_load(&no_dict[s])) {
            if (fill_slices(L, n_load, s, cols[s], codes[s], cs) < 0) goto out;
            rx_free(codes[s]);
            codes[s] = NULL;
            continue;
        }
        Dict g = {0};
        g.max = max;
        for (int k = 0; k < n_ch && !g.over; k++) {
            const Dict *d = &cs[(size_t)k * (size_t)n_load + (size_t)s].dict;
            uint32_t *map = malloc(((size_t)d->n + 1) * sizeof *map);
            if (!map) {
                dict_free(&g);
                goto out;
            }
            maps[(size_t)k * (size_t)n_load + (size_t)s] = map;
            map[0] = 0;
            for (uint32_t i = 0; i < d->n && !g.over; i++)
                map[i + 1] = dict_put(&g, &d->ents[i], d->ents[i].s.ptr);
        }
        RxStr *dict = g.over ? NULL : rx_malloc(((size_t)g.n + 1) * sizeof *dict);
        if (!dict) {
            /* more than max distinct values, or no memory for the dictionary (an
             * optimisation, which the column does without) */
            for (int k = 0; k < n_ch; k++) {
                free(maps[(size_t)k * (size_t)n_load + (size_t)s]);
                maps[(size_t)k * (size_t)n_load + (size_t)s] = NULL;
            }
            if (fill_slices(L, n_load, s, cols[s], codes[s], cs) < 0) {
                dict_free(&g);
                goto out;
            }
            rx_free(codes[s]);
            codes[s] = NULL;
            dict_free(&g);
            continue;
        }
        for (uint32_t i = 0; i < g.n; i++) dict[i] = g.ents[i].s;
        own[s] = own_dict_bytes(cols[s], &g, dict);
        dicts[s] = dict;
        n_dict[s] = g.n;
        dict_free(&g);
        any = true;
    }
    if (any) {
        Remap R = {L, n_load, codes, maps};
        Jobs J = {.run = remap_job, .ctx = &R, .n = n_ch};
        run_jobs(L->threads, &J);
    }
    for (int s = 0; s < n_load; s++) {
        if (!codes[s]) continue;
        cols[s]->codes = codes[s];
        cols[s]->dict = dicts[s];
        cols[s]->n_dict = n_dict[s];
        /* no slices: the column is lazy (column.h) */
        codes[s] = NULL;
        dicts[s] = NULL;
    }
    rc = 0;
out:
    if (maps)
        for (size_t i = 0; i < (size_t)n_ch * (size_t)n_load; i++) free(maps[i]);
    free(maps);
    if (dicts)
        for (int s = 0; s < n_load; s++) rx_free(dicts[s]);
    free(dicts);
    free(n_dict);
    return rc;
}

/* The sorted hint of loaded column s: every chunk sorted, and each chunk's first value not
 * below the last value of the chunk before it. */
static bool merged_sorted(const Load *L, const ColState *cs, int n_load, int s, bool is_float) {
    bool have = false;
    int64_t li = 0;
    double lf = 0;
    for (int k = 0; k < L->n_chunks; k++) {
        const ColState *x = &cs[(size_t)k * (size_t)n_load + (size_t)s];
        if (!x->sorted) return false;
        if (!x->have) continue;
        if (have && (is_float ? !(x->first_f >= lf) : x->first_i < li)) return false;
        have = true;
        li = x->last_i;
        lf = x->last_f;
    }
    return true;
}

/* A fresh anonymous mapping of n bytes (a multiple of the page size), or NULL. */
static char *anon_map(size_t n) {
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    advise_huge(m, n);
    return m;
}

/* Reads the whole input at path (input.h: a file, standard input, a pipe, decompressed gzip or
 * zstd) block by block into memory of the load's own, an anonymous mapping that the TEXT
 * slices point into (L->map). Owned memory, not a mapping of the file: a file that another
 * program truncates meanwhile cannot take pages away (SIGBUS) from under the parser or the
 * table, and a stream has no pages to map. Fails with an error naming the file: it cannot be
 * read, shrank while read, is corrupt compressed data, or holds a NUL byte (binary data,
 * not text; the error is at the byte). */
static int adopt_input(Load *L, char *buf, size_t len, bool first);

static int read_input(Load *L, const char *path) {
    RxError *err = L->r.err;
    Input *in;
    if (input_open(path, &in, err) < 0) return -1;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t hint = input_size_hint(in);
    /* one byte more than a regular file's size, so that the read that sees its end fits */
    size_t cap = ((hint ? hint + 1 : (size_t)1 << 20) + page - 1) / page * page;
    size_t len = 0;
    char *buf = anon_map(cap);
    if (!buf) goto nomem;
    progress_begin("B", hint, "reading %s", progress_file_name(path));
    long first = input_read_parallel(in, buf, cap, rx_threads(), err);
    if (first < 0) {
        progress_end();
        munmap(buf, cap);
        input_close(in);
        return -1;
    }
    len = (size_t)first;
    for (;;) {
        if (len == cap) {
            if (cap > SIZE_MAX / 2) goto nomem_buf;
            char *bigger = anon_map(cap * 2);
            if (!bigger) goto nomem_buf;
            memcpy(bigger, buf, len);
            munmap(buf, cap);
            buf = bigger;
            cap *= 2;
        }
        long k = input_read(in, buf + len, cap - len, err);
        if (k < 0) {
            progress_end();
            munmap(buf, cap);
            input_close(in);
            return -1;
        }
        if (k == 0) break;
        len += (size_t)k;
        if (progress_update(len, err) < 0) {
            progress_end();
            munmap(buf, cap);
            input_close(in);
            return -1;
        }
    }
    progress_end();
    input_close(in);
    size_t used = (len + page - 1) / page * page;
    if (used < cap) munmap(buf + used, cap - used);
    return adopt_input(L, buf, len, true);
nomem_buf:
    progress_end();
    munmap(buf, cap);
nomem:
    input_close(in);
    return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0),
                    "out of memory reading '%s' (%zu bytes read)", path, len);
}

/* Makes buf[0..len) (an anonymous mapping, whole pages from buf on, consumed: unmapped on
 * failure too) the input of L: its heap, the reader's range, past a UTF-8 byte order mark
 * when it starts the file (first). Fails at a NUL byte. */
static int adopt_input(Load *L, char *buf, size_t len, bool first) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t used = (len + page - 1) / page * page;
    if (len == 0) {
        if (buf && used) munmap(buf, used);
        buf = NULL;
    } else if (!(L->map = heap_from_map(buf, len))) {
        munmap(buf, used);
        return oom(L);
    }
    static const char empty[1] = "";
    L->r.base = buf ? buf : empty;
    L->r.end = L->r.base + len;
    /* A whole input (read_input's fresh mapping, zero past len) with 64 bytes to spare in its
     * last page is read in place by both passes (Load.direct); otherwise through windows. */
    L->direct = first && !L->blk && len > 0 && used - len >= 64;
    L->r.data = L->r.base;
    if (first && len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) L->r.data += 3;
    const char *nul = len ? memchr(buf, '\0', len) : NULL;
    if (nul) {
        bool utf16 = first && len >= 2 && (memcmp(buf, "\xFF\xFE", 2) == 0 || memcmp(buf, "\xFE\xFF", 2) == 0);
        return fail_at(&L->r, RX_ECSV, nul, 1,
                       utf16 ? "NUL byte: this is UTF-16 text; Relix reads UTF-8 (convert the file)"
                             : "NUL byte: this is binary data, not CSV text");
    }
    return 0;
}

struct CsvFile {
    Load L;
    CsvMeta meta;
    char *path;          /* a copy: the reader's messages name it */
    char *null_text;
    size_t n_rows;
    Table *table;        /* columns not loaded yet are placeholders */
    bool *loaded;
};

const CsvMeta *csv_meta(const CsvFile *f) { return &f->meta; }

RxType csv_kind_join(RxType a, RxType b) { return combine(a, b); }

char *csv_block_map(size_t n) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return anon_map((n + page - 1) / page * page);
}

int csv_put_column(CsvFile *f, int j, Column *c) {
    if (table_set(f->table, j, c, f->L.names[j]) < 0) {
        col_release(c);
        return -1;
    }
    f->loaded[j] = true;
    return 0;
}

void csv_close(CsvFile *f) {
    if (!f) return;
    csv_close(f->meta.inner);
    free(f->meta.kinds);
    free(f->meta.sorted);
    load_free(&f->L);
    table_free(f->table);
    free(f->loaded);
    free(f->path);
    free(f->null_text);
    free(f);
}

/* csv_open over the file at path read whole (blk NULL), or over block blk, map[0..len)
 * (consumed). */
static int open_input(const char *path, const CsvOptions *opt, const CsvBlock *blk, char *map,
                      size_t len, CsvFile **out, RxError *err) {
    CsvOptions defaults;
    if (!opt) {
        csv_options_default(&defaults);
        opt = &defaults;
    }
    *out = NULL;
    CsvFile *cf = calloc(1, sizeof *cf);
    if (!cf) {
        if (map) {
            size_t page = (size_t)sysconf(_SC_PAGESIZE);
            munmap(map, (len + page - 1) / page * page);
        }
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'", path);
    }
    cf->L.fd = -1;
    cf->L.blk = blk;
    Load *L = &cf->L;
    Reader *r = &L->r;
    r->err = err;
    r->whole = true;
    if (blk) {
        r->path = path;
        r->line0 = blk->line0;
        L->byte0 = blk->byte0;
        L->in_block = true;
        if (adopt_input(L, map, len, blk->first) < 0) goto fail;
    }
    cf->path = strdup(path);
    cf->null_text = opt->null_text ? strdup(opt->null_text) : NULL;
    if (!cf->path || (opt->null_text && !cf->null_text)) {
        csv_close(cf);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'", path);
    }
    r->path = cf->path;
    cf->meta.opt = *opt;
    cf->meta.opt.null_text = cf->null_text;
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
    if (!blk) {
        int rs = reserve_input(L, cf->path, opt);
        if (rs < 0 || (rs == 0 && read_input(L, cf->path) < 0)) goto fail;
    }

    const char *p = r->data;
    if (p == r->end && (!blk || blk->first) && (opt->header || opt->n_schema == 0)) {
        fail_at(r, RX_ECSV, p, 0, opt->header ? "file is empty (no header row)"
                                              : "file is empty (no record to count the columns of)");
        goto fail;
    }
    /* A file read in windows has its first record's bytes filled (reserve_input): the header
     * is read from them alone. */
    const char *file_end = r->end;
    if (L->res) {
        r->end = L->res_pre;
        r->whole = r->end == file_end;
    }
    int hrc = read_header(L, opt, &p);
    r->end = file_end;
    r->whole = true;
    if (hrc < 0) goto fail;

    bool detect = blk && !blk->first ? !blk->types : opt->n_schema == 0;
    size_t n_rows = 0;
    if (plan_chunks(L, p, opt) < 0) goto fail;
    Pass1 P = {L, detect};
    Jobs J = {.run = pass1_job, .ctx = &P, .n = L->n_chunks};
    if (!blk) progress_begin("B", (uint64_t)(r->end - r->base), "reading %s", progress_file_name(cf->path));
    run_jobs(L->threads, &J);
    int vrc = verify_chunks(L, detect, &n_rows);
    if (!blk) progress_end();
    if (vrc < 0) goto fail;
    L->blk = NULL;
    free(L->ck_kinds);
    free(L->ck_nulls);
    L->ck_kinds = NULL;
    L->ck_nulls = NULL;
    cf->n_rows = n_rows;
    cf->table = table_new(L->n_cols, n_rows);
    cf->loaded = calloc((size_t)L->n_cols + 1, sizeof *cf->loaded);
    cf->meta.kinds = malloc(((size_t)L->n_cols + 1) * sizeof *cf->meta.kinds);
    if (!cf->table || !cf->loaded || !cf->meta.kinds) {
        oom(L);
        goto fail;
    }
    for (int j = 0; j < L->n_cols; j++) {
        if (L->forced && L->forced[j] != TY_NULL) L->types[j] = L->forced[j];
        cf->meta.kinds[j] = L->types[j];
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
    /* a NUL byte anywhere in a file read in windows is the error (rather than one found
     * without reading the rows), as when read whole */
    if (r->owner && err->code != RX_ENOMEM && err->code != RX_EINTERRUPT && err->code != RX_OK) {
        Load *owner;
        const char *nul;
        if (res_whole(r, &owner, &nul) == 0 && nul) {
            rx_error_clear(err);
            res_nul_error(owner, r, nul);
        }
    }
    csv_close(cf);
    return -1;
}

int csv_open_block(const char *path, const CsvBlock *b, char *map, size_t len,
                   const CsvOptions *opt, CsvFile **out, RxError *err) {
    return open_input(path, opt, b, map, len, out, err);
}

int csv_open_whole(const char *path, const CsvOptions *opt, CsvFile **out, RxError *err) {
    return open_input(path, opt, NULL, NULL, 0, out, err);
}

int csv_open(const char *path, const CsvOptions *opt, CsvFile **out, RxError *err) {
    int rc = csv_open_blocks(path, opt, out, err);
    return rc != 0 ? (rc > 0 ? 0 : -1) : csv_open_whole(path, opt, out, err);
}

int csv_become_streamed(CsvFile *f, const RxType *kinds, size_t n_rows, size_t bytes,
                        int8_t *sorted) {
    Load *L = &f->L;
    heap_release(L->map);
    L->map = NULL;
    static const char empty[1] = "";
    L->r.base = L->r.data = L->r.end = empty;
    Table *t = table_new(L->n_cols, n_rows);
    if (!t) return oom(L);
    for (int j = 0; j < L->n_cols; j++) {
        f->meta.kinds[j] = kinds[j];
        L->types[j] = kinds[j] == TY_NULL ? TY_TEXT : kinds[j];
        Column *ph = col_placeholder(L->types[j], n_rows);
        if (!ph || table_set(t, j, ph, L->names[j]) < 0) {
            col_release(ph);
            table_free(t);
            return oom(L);
        }
        f->loaded[j] = false;
    }
    table_free(f->table);
    f->table = t;
    f->n_rows = n_rows;
    f->meta.streamed = true;
    f->meta.bytes = bytes;
    f->meta.sorted = sorted;
    return 0;
}

Table *csv_take_table(CsvFile *f) {
    Table *t = f->table;
    f->table = NULL;
    return t;
}

const char *csv_path(const CsvFile *f) { return f->path; }

const char *const *csv_names(const CsvFile *f) { return (const char *const *)f->L.names; }

const RxType *csv_types(const CsvFile *f) { return f->L.types; }

int csv_column_sorted(const CsvFile *f, int j) {
    if (f->meta.sorted) return f->meta.sorted[j];
    if (f->loaded && f->loaded[j]) return f->table->cols[j]->sorted ? 1 : 0;
    return -1;
}

bool csv_streamed(const CsvFile *f) { return f->meta.streamed; }

size_t csv_streamed_bytes(const CsvFile *f) { return f->meta.streamed ? f->meta.bytes : 0; }

const Table *csv_table(const CsvFile *f) { return f->table; }
Table *csv_table_mut(CsvFile *f) { return f->table; }

/* csv_load of a file opened by blocks: the whole file read into memory after all (once, kept
 * in meta.inner, with the types pass 1 found as its schema), its columns shared. */
static int load_whole(CsvFile *cf, const uint8_t *want, RxError *err) {
    Load *L = &cf->L;
    L->r.err = err;
    if (!cf->meta.inner) {
        CsvOptions o = cf->meta.opt;
        o.n_schema = L->n_cols;
        o.schema_names = (const char *const *)L->names;
        o.schema_types = L->types;
        o.n_types = 0;
        if (csv_open_whole(cf->path, &o, &cf->meta.inner, err) < 0) return -1;
    }
    CsvFile *in = cf->meta.inner;
    if (csv_load(in, want, err) < 0) return -1;
    for (int j = 0; j < L->n_cols; j++) {
        if (cf->loaded[j] || (want && !want[j])) continue;
        Column *c = in->table->cols[j];
        col_retain(c);
        if (csv_put_column(cf, j, c) < 0) return oom(L);
    }
    return 0;
}

/* Lets go of the file's bytes once every column is loaded: nothing reads them again, and the
 * columns that still point into them (TEXT without a dictionary of its own) hold the heap. The
 * memory then serves what the query allocates next instead of fresh pages. */
static void release_input(CsvFile *cf) {
    Load *L = &cf->L;
    for (int j = 0; j < L->n_cols; j++)
        if (!cf->loaded[j]) return;
    heap_release(L->map);
    L->map = NULL;
    if (L->res) {
        munmap(L->res, L->res_len);
        L->res = NULL;
        close(L->fd);
        L->fd = -1;
        L->r.owner = NULL;
    }
    static const char empty[1] = "";
    L->r.base = L->r.data = L->r.end = empty;
}

int csv_load(CsvFile *cf, const uint8_t *want, RxError *err) {
    if (cf->meta.streamed) return load_whole(cf, want, err);
    Load *L = &cf->L;
    L->r.err = err;
    struct stat now;
    if (L->res && (fstat(L->fd, &now) < 0 || now.st_size < L->st.st_size))
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), SHRANK, cf->path);
    if (L->res && (now.st_size != L->st.st_size || now.st_mtim.tv_sec != L->st.st_mtim.tv_sec ||
                   now.st_mtim.tv_nsec != L->st.st_mtim.tv_nsec))
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0),
                        "'%s' changed after its rows were checked (another program wrote to it "
                        "meanwhile): read it again", cf->path);
    const size_t n_rows = cf->n_rows;
    const int n_cols = L->n_cols, n_ch = L->n_chunks;
    int n_load = 0;
    for (int j = 0; j < n_cols; j++)
        if (!cf->loaded[j] && (!want || want[j])) n_load++;
    if (!n_load) return 0;
    int rc = -1;
    int *slot = malloc((size_t)n_cols * sizeof *slot);
    int *col_of = malloc((size_t)n_load * sizeof *col_of);
    Column **cols = calloc((size_t)n_load, sizeof *cols);
    uint32_t **codes = calloc((size_t)n_load, sizeof *codes);
    atomic_bool *no_dict = malloc((size_t)n_load * sizeof *no_dict);
    ColState *cs = calloc_lines((size_t)n_ch * (size_t)n_load * sizeof *cs);
    Pending **errs = calloc((size_t)n_ch, sizeof *errs);
    uint8_t *failed = calloc((size_t)n_ch, 1);
    StrHeap **esc = calloc((size_t)n_ch, sizeof *esc);
    bool *own = calloc((size_t)n_load, sizeof *own);
    /* a cache line per chunk (see ColState) */
    size_t *esc_ahead = calloc_lines(((size_t)n_ch + 1) * ESC_STRIDE * sizeof *esc_ahead);
    bool any_text = false;
    if (!slot || !col_of || !cols || !codes || !no_dict || !cs || !errs || !failed || !esc || !own ||
        !esc_ahead) {
        oom(L);
        goto out;
    }
    const uint32_t max_dict = n_rows / 16 < 65536 ? (uint32_t)(n_rows / 16) : 65536;
    int s = 0;
    for (int j = 0; j < n_cols; j++) {
        slot[j] = -1;
        if (cf->loaded[j] || (want && !want[j])) continue;
        slot[j] = s;
        col_of[s] = j;
        atomic_init(&no_dict[s], false);
        /* TEXT with few distinct values (symbols, codes, categories) also gets a dictionary,
         * which joins and grouping use instead of hashing every row's bytes again; such a
         * column gets its slice array only if a chunk needs one (text_slots). */
        bool coded = L->types[j] == TY_TEXT && n_rows >= 4096;
        Column *c = cols[s] = coded ? rx_calloc(1, sizeof *c) : col_new(L->types[j], n_rows);
        if (!c) {
            oom(L);
            goto out;
        }
        if (coded) c->refcnt = 1, c->type = TY_TEXT, c->n = n_rows;
        any_text |= c->type == TY_TEXT;
        if (c->data) advise_huge(c->data, type_width(c->type) * n_rows);
        if (L->may_null[j] && !col_valid(c)) {
            oom(L);
            goto out;
        }
        if (coded) {
            codes[s] = rx_malloc(n_rows * sizeof *codes[s]);
            if (!codes[s]) {
                oom(L);
                goto out;
            }
            advise_huge(codes[s], n_rows * sizeof *codes[s]);
        }
        s++;
    }
    for (int k = 0; k < n_ch; k++) {
        /* A heap of this load for each chunk with quoted cells with "" escapes, sized by pass 1
         * for those of every column (those loading can need no more); unused ones go. */
        size_t need = L->chunks[k].esc;
        if (L->ck_text) {
            /* a file read in windows: every TEXT cell is copied */
            need = 0;
            for (s = 0; s < n_load; s++)
                if (cols[s]->type == TY_TEXT)
                    need += L->ck_text[(size_t)k * L->ck_stride + (size_t)col_of[s]];
        }
        if (any_text && need && !(esc[k] = heap_new(need))) {
            oom(L);
            goto out;
        }
        for (s = 0; s < n_load; s++) {
            ColState *x = &cs[(size_t)k * (size_t)n_load + (size_t)s];
            x->col = cols[s];
            x->type = cols[s]->type;
            x->data = cols[s]->data;
            x->name = L->names[col_of[s]];
            x->sorted = true;
            x->codes = codes[s];
            x->dict.max = max_dict;
            x->no_dict = &no_dict[s];
            x->esc_ahead = &esc_ahead[(size_t)k * ESC_STRIDE];
        }
    }
    Pass2 P = {L, slot, n_load, cs, errs, failed, esc};
    Jobs J = {.run = pass2_job, .ctx = &P, .n = n_ch, .skip_after_failure = true};
    if (!L->in_block)
        progress_begin("B", (uint64_t)(L->r.end - L->r.base), "loading %s", progress_file_name(cf->path));
    run_jobs(L->threads, &J);
    if (!L->in_block) progress_end();
    for (int k = 0; k < n_ch; k++) {
        if (!failed[k]) continue;
        if (errs[k]) report(&L->r, errs[k]);
        else oom(L);
        goto out;
    }
    if (finish_dicts(L, n_load, cols, codes, cs, no_dict, max_dict, own) < 0) {
        oom(L);
        goto out;
    }
    for (s = 0; s < n_load; s++) {
        Column *c = cols[s];
        if (c->type == TY_TEXT && !own[s]) {
            bool ok = !L->map || col_add_heap(c, L->map) == 0;
            for (int k = 0; k < n_ch && ok; k++)
                if (cs[(size_t)k * (size_t)n_load + (size_t)s].uses_esc)
                    ok = col_add_heap(c, esc[k]) == 0;
            if (!ok) {
                oom(L);
                goto out;
            }
        }
        if (c->valid) col_compact_validity(c);
        bool orderable = c->type == TY_INT || c->type == TY_FLOAT || c->type == TY_TIMESTAMP ||
                         c->type == TY_DATE || c->type == TY_TIME;
        c->sorted = orderable && !c->valid &&
                    merged_sorted(L, cs, n_load, s, c->type == TY_FLOAT);
    }
    for (s = 0; s < n_load; s++) {
        int j = col_of[s];
        Column *c = cols[s];
        cols[s] = NULL;
        if (table_set(cf->table, j, c, L->names[j]) < 0) {
            oom(L);
            goto out;
        }
        cf->loaded[j] = true;
    }
    release_input(cf);
    rc = 0;
out:
    if (cs)
        for (size_t i = 0; i < (size_t)n_ch * (size_t)n_load; i++) dict_free(&cs[i].dict);
    if (cols)
        for (s = 0; s < n_load; s++) col_release(cols[s]);
    if (codes)
        for (s = 0; s < n_load; s++) rx_free(codes[s]);
    if (errs)
        for (int k = 0; k < n_ch; k++) free(errs[k]);
    if (esc)
        for (int k = 0; k < n_ch; k++) heap_release(esc[k]); /* the columns hold their own */
    free(slot);
    free(col_of);
    free(cols);
    free(codes);
    free(no_dict);
    free(cs);
    free(errs);
    free(failed);
    free(esc);
    free(own);
    free(esc_ahead);
    return rc;
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
