/*
 * csv_stream.c - a CSV file read by blocks, so that neither checking it nor reading its rows
 * holds more of it than a block (io.h: CsvOptions.stream_above, csv_chunks_open).
 *
 * A block is a run of whole records: bytes are read from the file (input.h) into a fresh
 * anonymous mapping of about CsvOptions.block_bytes, and cut after the last record that ends in
 * it; what follows (the start of a record) begins the next block. Where records end is found
 * by a scan of the bytes (csv_block_cut), which knows what the reader knows of
 * quotes: a quote opens a quoted field only at a field's start, "" inside one is a quote, and a
 * line end inside one is data. A record longer than a block makes its block grow until the
 * record ends, so memory is a block or the longest record, whichever is larger. Each block is
 * then read by csv.c's reader as if it were a small file (csv_open_block), told the line it
 * starts at, so that errors name the file's line and column as a reading of the whole file
 * does, and told the file's columns, so that its first record is not taken for a header.
 *
 *   csv_open_blocks (pass 1, io.h's csv_open for a large file): every block is checked and its
 *     kinds detected; the kinds join in file order (csv_kind_join: the join of csv.c, so the
 *     types equal a whole reading's). The block's INT, FLOAT, DATE, TIMESTAMP and TIME columns
 *     are also converted, to learn whether each column is sorted: the rule is "no NULL, each
 *     value not below the one before it", block by block and across block boundaries, an INT
 *     block compared with a FLOAT one as doubles (exact order-preserving: the conversion is
 *     monotone). A bad value found by that conversion is not reported here (csv_open reports
 *     none); the column's order is then unknown. The blocks are released as they are read.
 *   csv_chunks_* (pass 2): the blocks again, each converted under the types found (a schema),
 *     its table handed out as a chunk; its TEXT cells point into the block's mapping, which the
 *     chunk's columns keep alive.
 *
 * Standard input stays in memory (it cannot be read twice); a compressed file is checked in
 * memory (csv_open_blocks declines it) but can be read by blocks (decompressed again).
 */
#include "io/csv_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/input.h"

enum { BLOCK_BYTES = 8 << 20, STREAM_ABOVE_NO_LIMIT = 256 << 20 };

/* ---- blocks --------------------------------------------------------------------------------- */

typedef struct {
    Input *in;
    const char *path;
    char delim;
    size_t block;        /* bytes a block aims at */
    char *rest;          /* the bytes after the last cut, which start the next block (malloc'd) */
    size_t n_rest, cap_rest;
    bool eof, first;
    uint32_t line;       /* lines before the next block */
    uint64_t byte;       /* bytes before the next block */
} Blocks;

/* Where the records in p[0..n) that end in it end (csv_int.h). The bytes between quotes are
 * searched with memchr, and a line end is looked for backwards in each stretch outside quotes:
 * a quote opens a quoted field only at a field's start (the block's start, or after a delimiter
 * or a line end); inside one, "" is a quote and the first lone quote closes it. Whatever follows
 * a closing quote up to the next line end is the same record, as the reader sees it. */
size_t csv_block_cut(const char *p, size_t n, char delim) {
    size_t cut = 0, i = 0;  /* i: the start of a stretch outside quotes */
    for (;;) {
        const char *q = memchr(p + i, '"', n - i);
        size_t end = q ? (size_t)(q - p) : n;
        for (size_t k = end; k > i; k--)
            if (p[k - 1] == '\n') {
                cut = k;
                break;
            }
        if (!q) return cut;
        i = end + 1;
        if (end > 0 && p[end - 1] != delim && p[end - 1] != '\n') continue;  /* data in a field */
        for (;;) {  /* a quoted field: up to its closing quote */
            const char *c = memchr(p + i, '"', n - i);
            if (!c) return cut;
            i = (size_t)(c - p) + 1;
            if (i < n && p[i] == '"') {
                i++;
                continue;
            }
            if (i == n) return cut;  /* a quote ending the bytes: closing, or the first of "" */
            break;
        }
    }
}

/* The line ends in p[0..n), eight bytes at a time. */
static size_t lines_in(const char *p, size_t n) {
    const uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    size_t k = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        uint64_t x = w ^ (ones * (uint64_t)'\n');       /* zero bytes where p has a line end */
        uint64_t z = ~(((x & low7) + low7) | x | low7);  /* their high bits, exactly */
        k += (size_t)(((z >> 7) * ones) >> 56);          /* summed in the top byte */
    }
    for (; i < n; i++) k += p[i] == '\n';
    return k;
}

static void unmap(char *m, size_t cap) {
    if (m) munmap(m, cap);
}

/* The next block: 1 with *map (cap bytes mapped, *len used) and its first line, 0 at the end
 * of the file, -1 with err. */
static int blocks_next(Blocks *b, char **map, size_t *len, uint32_t *line0, uint64_t *byte0,
                       bool *first, RxError *err) {
    *map = NULL;
    if (b->eof && !b->n_rest) return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    /* lim: the bytes the block reads up to (at least one past what it starts with) */
    size_t lim = b->block > b->n_rest ? b->block : b->n_rest + 1;
    size_t cap = (lim + page - 1) / page * page;
    char *m = csv_block_map(cap);
    if (!m) goto oom;
    size_t n = b->n_rest, cut = 0;
    if (n) memcpy(m, b->rest, n);
    size_t skip = b->first && n >= 3 && memcmp(m, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (;;) {
        while (!b->eof && n < lim) {
            long k = input_read(b->in, m + n, lim - n, err);
            if (k < 0) {
                unmap(m, cap);
                return -1;
            }
            if (k == 0) b->eof = true;
            n += (size_t)k;
        }
        if (b->first && !skip && n >= 3 && memcmp(m, "\xEF\xBB\xBF", 3) == 0) skip = 3;
        if (b->eof) {
            cut = n;
            break;
        }
        /* the state machine starts at the block's start, where a record begins */
        size_t c = csv_block_cut(m + skip, n - skip, b->delim);
        if (c) {
            cut = skip + c;
            break;
        }
        /* no record ends in the block: it grows until one does */
        lim *= 2;
        if (lim <= cap) continue;
        size_t bigger_cap = (lim + page - 1) / page * page;
        char *bigger = csv_block_map(bigger_cap);
        if (!bigger) {
            unmap(m, cap);
            goto oom;
        }
        memcpy(bigger, m, n);
        unmap(m, cap);
        m = bigger;
        cap = bigger_cap;
    }
    size_t rest = n - cut;
    if (rest > b->cap_rest) {
        char *r = realloc(b->rest, rest);
        if (!r) {
            unmap(m, cap);
            goto oom;
        }
        b->rest = r;
        b->cap_rest = rest;
    }
    if (rest) memcpy(b->rest, m + cut, rest);
    b->n_rest = rest;
    /* the mapping keeps only the block's pages */
    size_t used = (cut + page - 1) / page * page;
    if (used < cap) munmap(m + used, cap - used);
    if (cut == 0) return 0;  /* the end of the file, just after the last cut */
    *map = m;
    *len = cut;
    *line0 = b->line;
    *byte0 = b->byte;
    *first = b->first;
    b->line += (uint32_t)lines_in(m, cut);
    b->byte += cut;
    b->first = false;
    return 1;
oom:
    return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'", b->path);
}

static int blocks_open(Blocks *b, const char *path, const CsvOptions *opt, RxError *err) {
    memset(b, 0, sizeof *b);
    b->path = path;
    b->delim = opt->delimiter;
    b->block = opt->block_bytes ? opt->block_bytes : BLOCK_BYTES;
    b->first = true;
    return input_open(path, &b->in, err);
}

static void blocks_close(Blocks *b) {
    input_close(b->in);
    free(b->rest);
    b->in = NULL;
    b->rest = NULL;
}

/* ---- pass 1 --------------------------------------------------------------------------------- */

static bool orderable(RxType t) {
    return t == TY_INT || t == TY_FLOAT || t == TY_DATE || t == TY_TIMESTAMP || t == TY_TIME;
}

/* What pass 1 knows of one column's order so far. */
typedef struct {
    int8_t sorted;       /* 1 so far, 0 not, -1 unknown */
    bool have;           /* a last value */
    bool last_float;
    int64_t last_i;
    double last_f;
} Order;

/* Whether value i of c (no NULL) is not below o's last value; makes it the last. */
static bool order_step(Order *o, const Column *c, size_t i) {
    bool fl = c->type == TY_FLOAT;
    int64_t vi = 0;
    double vf = 0;
    if (fl) vf = col_f64(c)[i];
    else if (c->type == TY_DATE) vi = col_i32(c)[i];
    else vi = col_i64(c)[i];
    bool ok = true;
    if (o->have) {
        if (fl || o->last_float) {
            double a = o->last_float ? o->last_f : (double)o->last_i;
            double v = fl ? vf : (double)vi;
            ok = v >= a;
        } else {
            ok = vi >= o->last_i;
        }
    }
    o->have = true;
    o->last_float = fl;
    o->last_i = vi;
    o->last_f = vf;
    return ok;
}

/* Learns the order of block f's orderable columns (kinds: the block's). */
static int block_order(CsvFile *f, int n_cols, const RxType *kinds, Order *ord, RxError *err) {
    uint8_t *want = calloc((size_t)n_cols + 1, 1);
    if (!want) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    size_t rows = csv_table(f)->n_rows;
    int n = 0;
    for (int j = 0; j < n_cols; j++) {
        if (ord[j].sorted == 0 || rows == 0) continue;
        if (!orderable(kinds[j])) {
            ord[j].sorted = 0;  /* NULLs only, or TEXT, BOOL */
            continue;
        }
        want[j] = 1;
        n++;
    }
    if (n) {
        RxError e;
        rx_error_clear(&e);
        if (csv_load(f, want, &e) < 0) {
            bool oom = e.code == RX_ENOMEM;
            if (oom) *err = e;
            else rx_error_clear(&e);
            for (int j = 0; j < n_cols; j++)
                if (want[j] && ord[j].sorted != 0) ord[j].sorted = -1;
            free(want);
            return oom ? -1 : 0;
        }
        const Table *t = csv_table(f);
        for (int j = 0; j < n_cols; j++) {
            if (!want[j]) continue;
            const Column *c = t->cols[j];
            if (!c->sorted) {
                ord[j].sorted = 0;
                continue;
            }
            /* sorted within the block: its first value against the last before it */
            if (!order_step(&ord[j], c, 0)) ord[j].sorted = 0;
            else order_step(&ord[j], c, c->n - 1);
        }
    }
    free(want);
    return 0;
}

/* After block errors at err: a reading of the whole file checks for NUL bytes (binary data)
 * before anything else, so a NUL in a later block is the error reported instead. Reads the
 * rest of the file (on this error path only). */
static void nul_first(Blocks *b, const char *path, const CsvOptions *opt, RxError *err) {
    if (err->code != RX_ECSV && err->code != RX_EVALUE && err->code != RX_ELIMIT) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    RxError e;
    rx_error_clear(&e);
    for (;;) {
        char *map;
        size_t len;
        uint32_t line0;
        uint64_t byte0;
        bool first;
        if (blocks_next(b, &map, &len, &line0, &byte0, &first, &e) <= 0) return;
        if (memchr(map, '\0', len)) {
            CsvBlock blk = {.line0 = line0, .byte0 = byte0, .first = first};
            CsvFile *f = NULL;
            rx_error_clear(err);
            csv_open_block(path, &blk, map, len, opt, &f, err); /* fails at the NUL */
            csv_close(f);
            return;
        }
        munmap(map, (len + page - 1) / page * page);
    }
}

/* The size above which a file is read by blocks: an eighth of the memory limit, or without a
 * limit an eighth of the machine's memory (a file held whole costs several times its size once
 * its columns are converted, and a query reads several). */
static size_t stream_threshold(const CsvOptions *opt) {
    if (opt->stream_above) return opt->stream_above;
    size_t lim = rx_memory_limit();
    if (lim) return lim / 8;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages / 8 * (size_t)page : (size_t)STREAM_ABOVE_NO_LIMIT;
}

int csv_open_blocks(const char *path, const CsvOptions *opt, CsvFile **out, RxError *err) {
    CsvOptions defaults;
    if (!opt) {
        csv_options_default(&defaults);
        opt = &defaults;
    }
    *out = NULL;
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
        (size_t)st.st_size <= stream_threshold(opt) || opt->stream_above == SIZE_MAX)
        return 0;
    Blocks b;
    if (blocks_open(&b, path, opt, err) < 0) return -1;
    if (input_codec(b.in) != INPUT_PLAIN) {
        blocks_close(&b);
        return 0;
    }
    progress_begin("B", (uint64_t)st.st_size, "reading %s", progress_file_name(path));
    CsvFile *head = NULL;
    RxType *kinds = NULL, *forced = NULL;
    Order *ord = NULL;
    int8_t *sorted = NULL;
    int n_cols = 0;
    size_t rows = 0;
    for (;;) {
        char *map;
        size_t len;
        uint32_t line0;
        uint64_t byte0;
        bool first;
        int rc = blocks_next(&b, &map, &len, &line0, &byte0, &first, err);
        if (rc < 0) goto fail;
        if (rc == 0) break;
        CsvFile *f;
        if (first) {
            if (csv_open_block(path, &(CsvBlock){.line0 = line0, .byte0 = byte0, .first = true},
                               map, len, opt, &f, err) < 0) {
                nul_first(&b, path, opt, err);
                goto fail;
            }
            head = f;
            n_cols = csv_table(f)->n_cols;
            kinds = calloc((size_t)n_cols + 1, sizeof *kinds);
            ord = calloc((size_t)n_cols + 1, sizeof *ord);
            forced = calloc((size_t)n_cols + 1, sizeof *forced);
            if (!kinds || !ord || !forced) goto oom;
            for (int j = 0; j < n_cols; j++) {
                ord[j].sorted = 1;
                kinds[j] = TY_NULL;
                for (int i = 0; i < opt->n_types; i++)
                    if (strcmp(csv_names(f)[j], opt->type_names[i]) == 0) forced[j] = opt->type_types[i];
            }
        } else {
            CsvBlock blk = {.line0 = line0,
                            .byte0 = byte0,
                            .n_cols = n_cols,
                            .names = csv_names(head),
                            .types = opt->n_schema > 0 ? opt->schema_types : NULL,
                            .forced = opt->n_types > 0 ? forced : NULL};
            if (csv_open_block(path, &blk, map, len, opt, &f, err) < 0) {
                nul_first(&b, path, opt, err);
                goto fail;
            }
        }
        const RxType *bk = csv_meta(f)->kinds;
        for (int j = 0; j < n_cols; j++) kinds[j] = csv_kind_join(kinds[j], bk[j]);
        rows += csv_table(f)->n_rows;
        int orc = block_order(f, n_cols, bk, ord, err);
        if (f != head) csv_close(f);
        if (orc < 0) goto fail;
    }
    blocks_close(&b);
    progress_end();
    if (!head) return 0;  /* nothing read after all: the whole reading says why */
    sorted = malloc((size_t)n_cols + 1);
    if (!sorted) goto oom;
    for (int j = 0; j < n_cols; j++) {
        RxType t = kinds[j] == TY_NULL ? TY_TEXT : kinds[j];
        sorted[j] = orderable(t) ? ord[j].sorted : 0;
    }
    if (csv_become_streamed(head, kinds, rows, (size_t)st.st_size, sorted) < 0) goto fail;
    sorted = NULL;
    free(kinds);
    free(forced);
    free(ord);
    *out = head;
    return 1;
oom:
    rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'", path);
fail:
    progress_end();
    blocks_close(&b);
    csv_close(head);
    free(kinds);
    free(forced);
    free(ord);
    free(sorted);
    return -1;
}

/* ---- pass 2: chunks ------------------------------------------------------------------------- */

struct CsvChunks {
    Blocks b;
    const CsvFile *f;
    uint8_t *want;       /* n_cols, or NULL: all */
    CsvOptions first;    /* the first block: the file's header as the options say */
    CsvOptions later;    /* every other block */
    CsvBlock blk;
    uint64_t *done;      /* csv_chunks_count_bytes's counter, or NULL */
};

int csv_chunks_open(const CsvFile *f, const uint8_t *want, CsvChunks **out, RxError *err) {
    *out = NULL;
    const char *path = csv_path(f);
    if (strcmp(path, "-") == 0)
        return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0),
                        "standard input cannot be read again by blocks");
    CsvChunks *c = calloc(1, sizeof *c);
    int n_cols = csv_table(f)->n_cols;
    if (!c || (want && !(c->want = malloc((size_t)n_cols + 1)))) {
        free(c);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    if (want) memcpy(c->want, want, (size_t)n_cols);
    c->f = f;
    const CsvOptions *o = &csv_meta(f)->opt;
    c->first = *o;
    c->first.n_schema = n_cols;
    c->first.schema_names = csv_names(f);
    c->first.schema_types = csv_types(f);
    c->first.n_types = 0;
    c->later = c->first;
    c->blk = (CsvBlock){.n_cols = n_cols, .names = csv_names(f), .types = csv_types(f)};
    if (blocks_open(&c->b, path, o, err) < 0) {
        csv_chunks_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

int csv_chunks_next(CsvChunks *c, Table **out, RxError *err) {
    *out = NULL;
    for (;;) {
        char *map;
        size_t len;
        uint32_t line0;
        uint64_t byte0;
        bool first;
        int rc = blocks_next(&c->b, &map, &len, &line0, &byte0, &first, err);
        if (rc <= 0) return rc;
        CsvFile *f;
        CsvBlock blk = c->blk;
        blk.line0 = line0;
        blk.byte0 = c->done ? *c->done : byte0;
        blk.first = first;
        if (csv_open_block(csv_path(c->f), &blk, map, len, first ? &c->first : &c->later, &f,
                           err) < 0)
            return -1;
        if (csv_load(f, c->want, err) < 0) {
            csv_close(f);
            return -1;
        }
        if (c->done) {
            *c->done += len;
            if (progress_update(*c->done, err) < 0) {
                csv_close(f);
                return -1;
            }
        }
        Table *t = csv_take_table(f);
        csv_close(f);
        if (t->n_rows == 0) {
            table_free(t);
            continue;
        }
        /* the streaming operators read slices: a coded column's are made here (column.h) */
        if (table_need_str(t) < 0) {
            table_free(t);
            return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        }
        *out = t;
        return 1;
    }
}

void csv_chunks_count_bytes(CsvChunks *c, uint64_t *done) { c->done = done; }

void csv_chunks_close(CsvChunks *c) {
    if (!c) return;
    blocks_close(&c->b);
    free(c->want);
    free(c);
}
