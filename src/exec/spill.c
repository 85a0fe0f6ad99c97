/*
 * spill.c - see spill.h.
 *
 * A record: a 24-byte header (magic "RXS1", whether the body is zstd-compressed, the body's
 * size uncompressed and as stored), then the body. The body: the row count (u64), then per
 * column a flag byte (1: has a validity bitmap) and, unless the file's column is a pruned
 * placeholder, its values: the validity words when flagged, then fixed-width elements as they
 * are in memory, or for TEXT each element's length (u32), the total (u64) and the bytes.
 */
#include "exec/spill.h"

#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#define SPILL_MAGIC 0x31535852u   /* "RXS1" */
#define HEADER_BYTES 24

struct SpillFile {
    RxTempDir *dir;
    int fd;
    uint64_t size, rows, raw;
    bool compress;
    size_t record_bytes;   /* a record's size to aim at */
    int n_cols;
    RxType *types;
    bool *pruned;
    char **names;
};

/* Whether compressing is faster, learnt as the process spills: the nanoseconds a byte takes to
 * compress (per input byte) and to write (per byte written), and the ratio compression gets,
 * each a moving average. A record is compressed when compressing it and writing the smaller
 * result is expected to take less time than writing it as it is: with the writes landing in
 * the page cache they are cheaper than zstd's level 1 (about 4 times on 1M rows of tick data:
 * 33 MB written in 0.07 s, compressed to 10 MB in 0.24 s), while a disk that cannot keep up
 * makes them dearer. Every 16th record tries the other choice, so that both costs stay
 * current. Process-wide and approximate (threads may race on an update; any value is safe). */
static struct {
    double compress_ns, write_ns, ratio;
    unsigned long records;
} cost;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void learn(double *avg, double x) { *avg = *avg > 0 ? 0.75 * *avg + 0.25 * x : x; }

static int forced = -1;
void spill_force_compress(int mode) { forced = mode; }

static bool choose_compress(void) {
    if (forced >= 0) return forced == 1;
    unsigned long k = cost.records++;
    if (cost.compress_ns <= 0) return true;     /* measure both first */
    if (cost.write_ns <= 0) return false;
    bool zip = cost.compress_ns + cost.ratio * cost.write_ns < cost.write_ns;
    return k % 16 == 15 ? !zip : zip;
}

/* Buffers reused from record to record (the write's body and its compressed form, the read's
 * stored and decompressed bytes): fresh memory for each record costs its page faults again.
 * Per thread; spill_release_buffers frees them. */
typedef struct {
    char *p;
    size_t cap;
} Scratch;
static __thread Scratch scratch[4];
enum { S_BODY, S_ZIP, S_IN, S_RAW };

static char *scratch_get(int which, size_t n) {
    Scratch *b = &scratch[which];
    if (b->cap < n) {
        rx_free(b->p);
        size_t cap = n < 65536 ? 65536 : n + n / 4;
        b->p = rx_malloc(cap);
        b->cap = b->p ? cap : 0;
    }
    return b->p;
}

void spill_release_buffers(void) {
    for (int i = 0; i < 4; i++) {
        rx_free(scratch[i].p);
        scratch[i].p = NULL;
        scratch[i].cap = 0;
    }
}

/* Rows from..from+n of table t: a record's part. */
typedef struct {
    const Table *t;
    size_t from, n;
} Seg;

#define SPILL_RECORD_BYTES ((size_t)1 << 20)

static int oom(RxError *err) { return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory"); }

SpillFile *spill_create(RxTempDir *d, const Table *like, bool compress, RxError *err) {
    SpillFile *f = rx_calloc(1, sizeof *f);
    if (!f) {
        oom(err);
        return NULL;
    }
    f->fd = -1;
    f->dir = d;
    f->compress = compress;
    f->record_bytes = SPILL_RECORD_BYTES;
    f->n_cols = like->n_cols;
    size_t nc = like->n_cols ? (size_t)like->n_cols : 1;
    f->types = rx_calloc(nc, sizeof *f->types);
    f->pruned = rx_calloc(nc, sizeof *f->pruned);
    f->names = rx_calloc(nc, sizeof *f->names);
    if (!f->types || !f->pruned || !f->names) goto oom;
    for (int i = 0; i < like->n_cols; i++) {
        f->types[i] = like->cols[i]->type;
        f->pruned[i] = like->cols[i]->pruned;
        const char *nm = like->names[i] ? like->names[i] : "";
        size_t len = strlen(nm);
        f->names[i] = rx_malloc(len + 1);
        if (!f->names[i]) goto oom;
        memcpy(f->names[i], nm, len + 1);
    }
    f->fd = rx_tempfile_open(d, err);
    if (f->fd < 0) {
        spill_close(f);
        return NULL;
    }
    return f;
oom:
    spill_close(f);
    oom(err);
    return NULL;
}

SpillFile *spill_create_as(const SpillFile *like, RxError *err) {
    Table t = {.n_rows = 0, .n_cols = like->n_cols, .cols = NULL, .names = like->names};
    Column **cols = rx_calloc(like->n_cols ? (size_t)like->n_cols : 1, sizeof *cols);
    Column *shape = rx_calloc(like->n_cols ? (size_t)like->n_cols : 1, sizeof *shape);
    if (!cols || !shape) {
        rx_free(cols), rx_free(shape);
        oom(err);
        return NULL;
    }
    for (int i = 0; i < like->n_cols; i++) {
        shape[i].type = like->types[i];
        shape[i].pruned = like->pruned[i];
        cols[i] = &shape[i];
    }
    t.cols = cols;
    SpillFile *f = spill_create(like->dir, &t, like->compress, err);
    rx_free(cols), rx_free(shape);
    return f;
}

void spill_close(SpillFile *f) {
    if (!f) return;
    if (f->fd >= 0) close(f->fd);
    for (int i = 0; f->names && i < f->n_cols; i++) rx_free(f->names[i]);
    rx_free(f->names);
    rx_free(f->types);
    rx_free(f->pruned);
    rx_free(f);
}

uint64_t spill_rows(const SpillFile *f) { return f->rows; }
uint64_t spill_size(const SpillFile *f) { return f->size; }
void spill_set_record_bytes(SpillFile *f, size_t bytes) { f->record_bytes = bytes ? bytes : 1; }
uint64_t spill_raw_bytes(const SpillFile *f) { return f->raw; }

static void put(char **w, const void *p, size_t n) {
    memcpy(*w, p, n);
    *w += n;
}

/* Writes one record of the rows of segs[0..n_parts), one after the other. */
static int write_record(SpillFile *f, const Seg *parts, int n_parts, RxError *err) {
    uint64_t n = 0;
    for (int k = 0; k < n_parts; k++) n += parts[k].n;
    if (n == 0) return 0;
    /* the body's size */
    size_t raw = 8;
    for (int c = 0; c < f->n_cols; c++) {
        raw += 1;
        if (f->pruned[c]) continue;
        bool nulls = false;
        for (int k = 0; k < n_parts; k++) nulls |= parts[k].t->cols[c]->valid != NULL;
        if (nulls) raw += bitmap_words(n) * 8;
        if (f->types[c] == TY_TEXT) {
            raw += n * 4 + 8;
            for (int k = 0; k < n_parts; k++) {
                const Column *col = parts[k].t->cols[c];
                for (size_t i = parts[k].from; i < parts[k].from + parts[k].n; i++)
                    if (!col_is_null(col, i)) raw += col_str(col)[i].len;
            }
        } else {
            raw += n * type_width(f->types[c]);
        }
    }
    char *body = scratch_get(S_BODY, HEADER_BYTES + raw);
    if (!body) return oom(err);
    char *w = body + HEADER_BYTES;
    put(&w, &n, 8);
    for (int c = 0; c < f->n_cols; c++) {
        bool nulls = false;
        for (int k = 0; k < n_parts; k++) nulls |= !f->pruned[c] && parts[k].t->cols[c]->valid != NULL;
        uint8_t flag = nulls;
        put(&w, &flag, 1);
        if (f->pruned[c]) continue;
        if (nulls) {
            /* the concatenated rows' bitmap, a word at a time (the body is not 8-aligned) */
            uint64_t word = 0;
            size_t row = 0;
            for (int k = 0; k < n_parts; k++) {
                const Column *col = parts[k].t->cols[c];
                for (size_t i = parts[k].from; i < parts[k].from + parts[k].n; i++, row++) {
                    if (!col_is_null(col, i)) word |= UINT64_C(1) << (row & 63);
                    if ((row & 63) == 63) {
                        put(&w, &word, 8);
                        word = 0;
                    }
                }
            }
            if (row & 63) put(&w, &word, 8);
        }
        if (f->types[c] == TY_TEXT) {
            uint64_t total = 0;
            for (int k = 0; k < n_parts; k++) {
                const Column *col = parts[k].t->cols[c];
                for (size_t i = parts[k].from; i < parts[k].from + parts[k].n; i++) {
                    uint64_t len = col_is_null(col, i) ? 0 : col_str(col)[i].len;
                    if (len > UINT32_MAX) {
                        return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                                        "a TEXT value of more than 4 GB cannot be written to a temporary file");
                    }
                    uint32_t l32 = (uint32_t)len;
                    put(&w, &l32, 4);
                    total += len;
                }
            }
            put(&w, &total, 8);
            for (int k = 0; k < n_parts; k++) {
                const Column *col = parts[k].t->cols[c];
                for (size_t i = parts[k].from; i < parts[k].from + parts[k].n; i++)
                    if (!col_is_null(col, i) && col_str(col)[i].len) put(&w, col_str(col)[i].ptr, col_str(col)[i].len);
            }
        } else {
            size_t wd = type_width(f->types[c]);
            for (int k = 0; k < n_parts; k++)
                put(&w, (const char *)parts[k].t->cols[c]->data + parts[k].from * wd, parts[k].n * wd);
        }
    }
    char *rec = body;
    uint64_t stored = raw;
    uint32_t zflag = 0;
    char *z = NULL;
    double t0 = now_s();
    bool zip = f->compress && choose_compress();
    if (zip) {
        size_t bound = ZSTD_compressBound(raw);
        z = scratch_get(S_ZIP, HEADER_BYTES + bound);
        if (!z) {
            return oom(err);
        }
        size_t got = ZSTD_compress(z + HEADER_BYTES, bound, body + HEADER_BYTES, raw, 1);
        if (!ZSTD_isError(got) && got < raw) {
            rec = z;
            stored = got;
            zflag = 1;
        }
        learn(&cost.compress_ns, (now_s() - t0) * 1e9 / (double)raw);
        learn(&cost.ratio, (double)stored / (double)raw);
    }
    uint32_t magic = SPILL_MAGIC;
    uint64_t raw64 = raw;
    memcpy(rec, &magic, 4);
    memcpy(rec + 4, &zflag, 4);
    memcpy(rec + 8, &raw64, 8);
    memcpy(rec + 16, &stored, 8);
    double t1 = now_s();
    int rc = rx_temp_write(f->dir, f->fd, (off_t)f->size, rec, HEADER_BYTES + stored, err);
    learn(&cost.write_ns, (now_s() - t1) * 1e9 / (double)(HEADER_BYTES + stored));
    if (rc < 0) return -1;
    f->size += HEADER_BYTES + stored;
    f->rows += n;
    f->raw += raw;
    return 0;
}

/* Bytes of row i of t as a record holds it (about). */
static size_t row_bytes(const SpillFile *f, const Table *t, size_t i) {
    size_t b = 0;
    for (int c = 0; c < f->n_cols; c++) {
        if (f->pruned[c]) continue;
        if (f->types[c] == TY_TEXT) b += 4 + (col_is_null(t->cols[c], i) ? 0 : col_str(t->cols[c])[i].len);
        else b += type_width(f->types[c]);
    }
    return b;
}

int spill_write(SpillFile *f, Table *const *parts, int n_parts, RxError *err) {
    for (int k = 0; k < n_parts; k++)
        for (int c = 0; c < f->n_cols; c++)
            if (parts[k]->cols[c]->pruned && !f->pruned[c] && parts[k]->n_rows)
                return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0),
                                "column '%s' has no values in a chunk after having them in the first",
                                f->names[c]);
    /* records of about f->record_bytes: the buffers that write and read them stay small */
    Seg seg[64];
    int n_seg = 0;
    size_t bytes = 0;
    for (int k = 0; k < n_parts; k++) {
        const Table *t = parts[k];
        size_t from = 0;
        for (size_t i = 0; i < t->n_rows; i++) {
            bytes += row_bytes(f, t, i);
            if (bytes >= f->record_bytes || i + 1 == t->n_rows) {
                seg[n_seg++] = (Seg){t, from, i + 1 - from};
                from = i + 1;
            }
            if (bytes >= f->record_bytes || n_seg == 64) {
                if (write_record(f, seg, n_seg, err) < 0) return -1;
                n_seg = 0;
                bytes = 0;
            }
        }
    }
    return n_seg ? write_record(f, seg, n_seg, err) : 0;
}

/* Reads the record at *off: *body is its body uncompressed (*len bytes), in a buffer of this
 * thread's that the next read reuses. */
static int read_record(SpillFile *f, uint64_t *off, char **body, size_t *len, RxError *err) {
    char h[HEADER_BYTES];
    if (rx_temp_read(f->dir, f->fd, (off_t)*off, h, HEADER_BYTES, err) < 0) return -1;
    uint32_t magic, zflag;
    uint64_t raw, stored;
    memcpy(&magic, h, 4);
    memcpy(&zflag, h + 4, 4);
    memcpy(&raw, h + 8, 8);
    memcpy(&stored, h + 16, 8);
    if (magic != SPILL_MAGIC || stored > f->size - *off - HEADER_BYTES)
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "a temporary file in %s is damaged",
                        rx_tempdir_path(f->dir));
    char *in = scratch_get(S_IN, stored ? stored : 1);
    if (!in) return oom(err);
    if (rx_temp_read(f->dir, f->fd, (off_t)(*off + HEADER_BYTES), in, stored, err) < 0) return -1;
    if (zflag) {
        char *out = scratch_get(S_RAW, raw ? raw : 1);
        if (!out) return oom(err);
        size_t got = ZSTD_decompress(out, raw, in, stored);
        if (ZSTD_isError(got) || got != raw)
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "a temporary file in %s is damaged",
                            rx_tempdir_path(f->dir));
        in = out;
    }
    *off += HEADER_BYTES + stored;
    *body = in;
    *len = raw;
    return 0;
}

/* A table of f's columns, n rows, values uninitialised (placeholders for pruned columns). */
static Table *new_table(SpillFile *f, size_t n) {
    Table *t = table_new(f->n_cols, n);
    if (!t) return NULL;
    for (int c = 0; c < f->n_cols; c++) {
        Column *col = f->pruned[c] ? col_placeholder(f->types[c], n) : col_new(f->types[c], n);
        if (!col || table_set(t, c, col, f->names[c]) < 0) {
            col_release(col);
            table_free(t);
            return NULL;
        }
    }
    return t;
}

/* Decodes a record body into rows [at, at + its rows) of t. */
static int decode(SpillFile *f, const char *body, size_t len, Table *t, size_t at, RxError *err) {
    const char *r = body, *end = body + len;
    uint64_t n;
#define TAKE(dst, k) do { if ((size_t)(end - r) < (size_t)(k)) goto damaged; memcpy((dst), r, (k)); r += (k); } while (0)
    TAKE(&n, 8);
    if (at + n > t->n_rows) goto damaged;
    for (int c = 0; c < f->n_cols; c++) {
        uint8_t flag;
        TAKE(&flag, 1);
        if (f->pruned[c]) continue;
        Column *col = t->cols[c];
        if (flag & 1) {
            uint64_t *v = col_valid(col);
            if (!v) return oom(err);
            size_t words = bitmap_words(n);
            if ((size_t)(end - r) < words * 8) goto damaged;
            for (size_t i = 0; i < n; i++) {
                uint64_t word;
                memcpy(&word, r + (i >> 6) * 8, 8);
                if (!((word >> (i & 63)) & 1)) bitmap_set(v, at + i, false);
            }
            r += words * 8;
        }
        if (f->types[c] == TY_TEXT) {
            const char *lens = r;
            if ((size_t)(end - r) < n * 4) goto damaged;
            r += n * 4;
            uint64_t total;
            TAKE(&total, 8);
            if ((size_t)(end - r) < total) goto damaged;
            StrHeap *h = heap_new(total ? total : 1);
            if (!h) return oom(err);
            if (total && heap_append(h, r, total) < 0) {
                heap_release(h);
                return oom(err);
            }
            int rc = col_add_heap(col, h);
            heap_release(h);   /* the column holds it now */
            if (rc < 0) return oom(err);
            uint64_t o = 0;
            RxStr *s = col_str(col) + at;
            for (size_t i = 0; i < n; i++) {
                uint32_t l32;
                memcpy(&l32, lens + i * 4, 4);
                if (o + l32 > total) goto damaged;
                s[i].ptr = h->data + o;
                s[i].len = l32;
                o += l32;
            }
            r += total;
        } else {
            size_t bytes = n * type_width(f->types[c]);
            if ((size_t)(end - r) < bytes) goto damaged;
            memcpy((char *)col->data + at * type_width(f->types[c]), r, bytes);
            r += bytes;
        }
    }
#undef TAKE
    return 0;
damaged:
    return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "a temporary file in %s is damaged", rx_tempdir_path(f->dir));
}

static uint64_t record_rows(const char *body, size_t len) {
    uint64_t n = 0;
    if (len >= 8) memcpy(&n, body, 8);
    return n;
}

static void compact(Table *t) {
    for (int c = 0; c < t->n_cols; c++) col_compact_validity(t->cols[c]);
}

int spill_read_next(SpillReader *rd, Table **out, RxError *err) {
    *out = NULL;
    SpillFile *f = rd->f;
    if (rd->off >= (rd->end ? rd->end : f->size)) return 0;
    char *body;
    size_t len;
    if (read_record(f, &rd->off, &body, &len, err) < 0) return -1;
    Table *t = new_table(f, record_rows(body, len));
    if (!t) return oom(err);
    int rc = decode(f, body, len, t, 0, err);
    if (rc < 0) {
        table_free(t);
        return -1;
    }
    compact(t);
    *out = t;
    return 1;
}

int spill_load(SpillFile *f, Table **out, RxError *err) {
    *out = NULL;
    if (f->rows > RX_MAX_ROWS)
        return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0), "a partition of %llu rows is more than a table holds",
                        (unsigned long long)f->rows);
    Table *t = new_table(f, f->rows);
    if (!t) return oom(err);
    uint64_t off = 0;
    size_t at = 0;
    while (off < f->size) {
        char *body;
        size_t len;
        if (read_record(f, &off, &body, &len, err) < 0) {
            table_free(t);
            return -1;
        }
        uint64_t n = record_rows(body, len);
        int rc = decode(f, body, len, t, at, err);
        if (rc < 0) {
            table_free(t);
            return -1;
        }
        at += n;
    }
    compact(t);
    *out = t;
    return 0;
}

typedef struct {
    ChunkSrc base;
    SpillReader rd;
} SpillSrc;

static int src_next(ChunkSrc *s, Table **out, RxError *err) { return spill_read_next(&((SpillSrc *)s)->rd, out, err); }
static void src_close(ChunkSrc *s) { rx_free(s); }

ChunkSrc *spill_src(SpillFile *f) {
    SpillSrc *s = rx_calloc(1, sizeof *s);
    if (!s) return NULL;
    s->base.next = src_next;
    s->base.close = src_close;
    s->rd.f = f;
    return &s->base;
}
