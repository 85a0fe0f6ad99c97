/*
 * parquet_write.c - the Parquet writer (parquet.h).
 *
 * A file is "PAR1", row groups, the footer (Thrift compact FileMetaData), its length and
 * "PAR1". A row group holds one column chunk per column, each written whole before the next:
 * an optional dictionary page (TEXT with repeated values), then data pages (version 1) of up to
 * PAGE_ROWS rows, each with RLE definition levels and PLAIN or RLE_DICTIONARY values,
 * compressed with the chosen codec. Each chunk's min, max and null count go into its
 * statistics, with TypeDefinedOrder column orders so that readers trust min_value/max_value.
 * Memory: one column chunk's pages at a time besides the table.
 */
#include "io/parquet_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define PAGE_ROWS ((size_t)1 << 17)

struct PqWriter {
    RxSink sink;
    uint64_t off;             /* bytes written so far */
    int n_cols;
    char **names;
    RxType *types;
    PqWriteOptions o;
    StrBuf groups;            /* the row groups' serialized structs, one after another */
    uint32_t n_groups;
    uint64_t rows;
    bool failed;
};

void pq_write_options_default(PqWriteOptions *o) {
    memset(o, 0, sizeof *o);
    o->codec = PQ_CODEC_ZSTD;
}

int pq_codec_from_name(const char *name, PqCodec *out) {
    if (!strcmp(name, "none") || !strcmp(name, "uncompressed")) *out = PQ_CODEC_NONE;
    else if (!strcmp(name, "snappy")) *out = PQ_CODEC_SNAPPY;
    else if (!strcmp(name, "gzip")) *out = PQ_CODEC_GZIP;
    else if (!strcmp(name, "zstd") || !strcmp(name, "zstandard")) *out = PQ_CODEC_ZSTD;
    else return -1;
    return 0;
}

static int emit(PqWriter *w, const void *p, size_t n, RxError *err) {
    if (w->failed) return -1;
    if (n && w->sink.write(w->sink.ud, p, n) < 0) {
        w->failed = true;
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot write the Parquet file");
    }
    w->off += n;
    return 0;
}

static int oom(RxError *err) { return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory"); }

static int phys_type(RxType t) {
    switch (t) {
    case TY_BOOL: return PT_BOOLEAN;
    case TY_DATE: return PT_INT32;
    case TY_FLOAT: return PT_DOUBLE;
    case TY_TEXT: return PT_BYTE_ARRAY;
    default: return PT_INT64;
    }
}

PqWriter *pq_writer_open(const RxSink *sink, int n_cols, char *const *names, const RxType *types,
                         const PqWriteOptions *opt, RxError *err) {
    for (int j = 0; j < n_cols; j++)
        if (types[j] == TY_DURATION) {
            rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0),
                     "column '%s' is a DURATION, which Parquet cannot hold exactly: convert it "
                     "(e.g. to seconds as a FLOAT) before writing", names[j]);
            return NULL;
        }
    if (opt && opt->codec == PQ_CODEC_SNAPPY && pq_snappy_load(err) < 0) return NULL;
    PqWriter *w = calloc(1, sizeof *w);
    if (!w) {
        oom(err);
        return NULL;
    }
    w->sink = *sink;
    w->n_cols = n_cols;
    if (opt) w->o = *opt;
    else pq_write_options_default(&w->o);
    if (w->o.row_group_rows == 0) w->o.row_group_rows = (size_t)1 << 20;
    w->names = calloc((size_t)n_cols + 1, sizeof *w->names);
    w->types = calloc((size_t)n_cols + 1, sizeof *w->types);
    if (!w->names || !w->types) goto fail;
    for (int j = 0; j < n_cols; j++) {
        w->types[j] = types[j] == TY_NULL ? TY_TEXT : types[j];
        if (!(w->names[j] = strdup(names[j]))) goto fail;
    }
    sb_init(&w->groups);
    if (emit(w, "PAR1", 4, err) < 0) {
        pq_writer_free(w);
        return NULL;
    }
    return w;
fail:
    pq_writer_free(w);
    oom(err);
    return NULL;
}

void pq_writer_free(PqWriter *w) {
    if (!w) return;
    if (w->names)
        for (int j = 0; j < w->n_cols; j++) free(w->names[j]);
    free(w->names);
    free(w->types);
    sb_free(&w->groups);
    free(w);
}

/* ---- encoding ------------------------------------------------------------------------------- */

static void put_uvarint(StrBuf *b, uint64_t v) {
    char tmp[10];
    int n = 0;
    while (v >= 0x80) {
        tmp[n++] = (char)(0x80 | (v & 0x7f));
        v >>= 7;
    }
    tmp[n++] = (char)v;
    sb_append(b, tmp, (size_t)n);
}

/* Definition levels of rows [r0, r1) of c as RLE runs (bit width 1). */
static void def_levels(const Column *c, size_t r0, size_t r1, StrBuf *b) {
    size_t i = r0;
    while (i < r1) {
        bool v = !col_is_null(c, i);
        size_t k = i + 1;
        while (k < r1 && !col_is_null(c, k) == v) k++;
        put_uvarint(b, (uint64_t)(k - i) << 1);
        sb_putc(b, v ? 1 : 0);
        i = k;
    }
}

static void put_le(StrBuf *b, uint64_t v, int n) {
    char t[8];
    for (int i = 0; i < n; i++) t[i] = (char)(v >> (8 * i));
    sb_append(b, t, (size_t)n);
}

/* PLAIN values of the non-NULL rows [r0, r1) of c. */
static void plain_values(const Column *c, size_t r0, size_t r1, StrBuf *b) {
    switch (c->type) {
    case TY_BOOL: {
        uint8_t acc = 0;
        int nb = 0;
        for (size_t i = r0; i < r1; i++) {
            if (col_is_null(c, i)) continue;
            acc |= (uint8_t)((col_u8(c)[i] ? 1 : 0) << nb);
            if (++nb == 8) {
                sb_putc(b, (char)acc);
                acc = 0;
                nb = 0;
            }
        }
        if (nb) sb_putc(b, (char)acc);
        break;
    }
    case TY_DATE:
        for (size_t i = r0; i < r1; i++)
            if (!col_is_null(c, i)) put_le(b, (uint32_t)col_i32(c)[i], 4);
        break;
    case TY_TEXT:
        for (size_t i = r0; i < r1; i++) {
            if (col_is_null(c, i)) continue;
            RxStr s = col_text(c, i);
            put_le(b, s.len, 4);
            sb_append(b, s.ptr, s.len);
        }
        break;
    default:
        if (!c->valid) {
            sb_append(b, (const char *)c->data + r0 * 8, (r1 - r0) * 8);
        } else {
            for (size_t i = r0; i < r1; i++)
                if (!col_is_null(c, i)) sb_append(b, (const char *)c->data + i * 8, 8);
        }
        break;
    }
}

/* A dictionary of the TEXT rows [r0, r1): each row's code (NULL rows: 0) and the distinct
 * strings in order of first appearance. Returns false when the dictionary does not pay (too
 * many distinct values) or memory runs out. */
typedef struct {
    uint32_t *codes;
    RxStr *dict;
    uint32_t n_dict;
    uint64_t dict_bytes;
} Dict;

static uint64_t str_hash(RxStr s) {
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < s.len; i++) h = (h ^ (uint8_t)s.ptr[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static bool build_dict(const Column *c, size_t r0, size_t r1, Dict *d) {
    memset(d, 0, sizeof *d);
    size_t n = r1 - r0;
    uint32_t limit = n / 2 < 65536 ? (uint32_t)(n / 2) : 65536;
    if (limit < 1) return false;
    size_t cap = 1;
    while (cap < (size_t)limit * 2) cap <<= 1;
    uint32_t *slots = malloc(cap * sizeof *slots);   /* code + 1; 0 empty */
    d->codes = malloc(n * sizeof *d->codes);
    d->dict = malloc((size_t)limit * sizeof *d->dict);
    if (!slots || !d->codes || !d->dict) goto no;
    memset(slots, 0, cap * sizeof *slots);
    for (size_t i = r0; i < r1; i++) {
        if (col_is_null(c, i)) {
            d->codes[i - r0] = 0;
            continue;
        }
        RxStr s = col_text(c, i);
        size_t k = str_hash(s) & (cap - 1);
        for (;;) {
            uint32_t e = slots[k];
            if (e == 0) {
                if (d->n_dict == limit) goto no;
                d->dict[d->n_dict] = s;
                d->dict_bytes += s.len + 4;
                slots[k] = ++d->n_dict;
                d->codes[i - r0] = d->n_dict - 1;
                break;
            }
            if (rx_str_cmp(&d->dict[e - 1], &s) == 0) {
                d->codes[i - r0] = e - 1;
                break;
            }
            k = (k + 1) & (cap - 1);
        }
    }
    free(slots);
    if (d->n_dict == 0) goto no2;
    return true;
no:
    free(slots);
no2:
    free(d->codes);
    free(d->dict);
    memset(d, 0, sizeof *d);
    return false;
}

static int bit_width(uint32_t max) {
    int bw = 0;
    while (bw < 32 && (max >> bw)) bw++;
    return bw;
}

/* RLE_DICTIONARY data of the non-NULL rows [r0, r1) (codes relative to base): the bit width,
 * then one bit-packed run. */
static void dict_indices(const Column *c, const Dict *d, size_t base, size_t r0, size_t r1, StrBuf *b) {
    int bw = bit_width(d->n_dict - 1);
    sb_putc(b, (char)bw);
    size_t nn = 0;
    for (size_t i = r0; i < r1; i++) nn += !col_is_null(c, i);
    if (nn == 0) return;
    if (bw == 0) {
        put_uvarint(b, (uint64_t)nn << 1);
        return;
    }
    size_t groups = (nn + 7) / 8;
    put_uvarint(b, ((uint64_t)groups << 1) | 1);
    uint64_t acc = 0;
    int nbits = 0;
    size_t written = 0;
    for (size_t i = r0; i < r1; i++) {
        if (col_is_null(c, i)) continue;
        acc |= (uint64_t)d->codes[i - base] << nbits;
        nbits += bw;
        while (nbits >= 8) {
            sb_putc(b, (char)(acc & 0xff));
            acc >>= 8;
            nbits -= 8;
        }
        written++;
    }
    /* pad the last group of 8 with zero codes */
    size_t pad_bits = (groups * 8 - written) * (size_t)bw + (size_t)nbits;
    while (pad_bits > 0) {
        sb_putc(b, (char)(acc & 0xff));
        acc >>= 8;
        pad_bits = pad_bits > 8 ? pad_bits - 8 : 0;
    }
}

/* Compresses src (n bytes) with the writer's codec into out (cleared first). */
static int compress_page(const PqWriter *w, const char *src, size_t n, StrBuf *out, RxError *err) {
    out->n = 0;
    switch (w->o.codec) {
    case PQ_CODEC_NONE:
        sb_append(out, src, n);
        break;
    case PQ_CODEC_SNAPPY: {
        size_t cap = pq_snappy.snappy_max_compressed_length(n);
        sb_reserve(out, cap + 1);
        if (out->oom) return oom(err);
        size_t len = cap;
        if (pq_snappy.snappy_compress(src, n, out->p, &len) != SNAPPY_OK)
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "Snappy compression failed");
        out->n = len;
        break;
    }
    case PQ_CODEC_ZSTD: {
        size_t cap = ZSTD_compressBound(n);
        sb_reserve(out, cap + 1);
        if (out->oom) return oom(err);
        size_t r = ZSTD_compress(out->p, cap, src, n, w->o.level ? w->o.level : 3);
        if (ZSTD_isError(r)) return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "Zstandard compression failed");
        out->n = r;
        break;
    }
    case PQ_CODEC_GZIP: {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, w->o.level ? w->o.level : 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            return oom(err);
        size_t cap = deflateBound(&z, (uLong)n) + 32;
        sb_reserve(out, cap + 1);
        if (out->oom) {
            deflateEnd(&z);
            return oom(err);
        }
        z.next_in = (Bytef *)src;
        z.avail_in = (uInt)n;
        z.next_out = (Bytef *)out->p;
        z.avail_out = (uInt)cap;
        int r = deflate(&z, Z_FINISH);
        out->n = z.total_out;
        deflateEnd(&z);
        if (r != Z_STREAM_END) return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "gzip compression failed");
        break;
    }
    }
    return out->oom ? oom(err) : 0;
}

/* Writes one page (header and compressed body); adds its sizes to *usize and *csize. */
static int write_page(PqWriter *w, int type, const StrBuf *body, size_t nv, int enc, StrBuf *zbuf,
                      uint64_t *usize, uint64_t *csize, RxError *err) {
    if (body->n > INT32_MAX) return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0), "a Parquet page over 2 GB");
    if (compress_page(w, body->p ? body->p : "", body->n, zbuf, err) < 0) return -1;
    StrBuf hb;
    sb_init(&hb);
    TWriter t;
    tw_init(&t, &hb);
    tw_i32(&t, 1, type);
    tw_i32(&t, 2, (int32_t)body->n);
    tw_i32(&t, 3, (int32_t)zbuf->n);
    if (type == PG_DICT) {
        tw_struct(&t, 7);
        tw_i32(&t, 1, (int32_t)nv);
        tw_i32(&t, 2, ENC_PLAIN);
        tw_end(&t);
    } else {
        tw_struct(&t, 5);
        tw_i32(&t, 1, (int32_t)nv);
        tw_i32(&t, 2, enc);
        tw_i32(&t, 3, ENC_RLE);
        tw_i32(&t, 4, ENC_RLE);
        tw_end(&t);
    }
    sb_putc(&hb, 0);
    if (hb.oom) {
        sb_free(&hb);
        return oom(err);
    }
    int rc = emit(w, hb.p, hb.n, err);
    if (rc == 0) rc = emit(w, zbuf->p ? zbuf->p : "", zbuf->n, err);
    *usize += hb.n + body->n;
    *csize += hb.n + zbuf->n;
    sb_free(&hb);
    return rc;
}

/* The PLAIN bytes of one value (statistics). */
static void stat_bytes(const Column *c, size_t i, StrBuf *b) {
    b->n = 0;
    switch (c->type) {
    case TY_BOOL: sb_putc(b, col_u8(c)[i] ? 1 : 0); break;
    case TY_DATE: put_le(b, (uint32_t)col_i32(c)[i], 4); break;
    case TY_TEXT: {
        RxStr v = col_text(c, i);
        sb_append(b, v.ptr, v.len);
        break;
    }
    default: sb_append(b, (const char *)c->data + i * 8, 8); break;
    }
}

/* Rows of the min and max non-NULL value of rows [r0, r1) of c (NaN ignored); false if none. */
static bool min_max(const Column *c, size_t r0, size_t r1, size_t *mn, size_t *mx) {
    bool any = false;
    for (size_t i = r0; i < r1; i++) {
        if (col_is_null(c, i)) continue;
        if (c->type == TY_FLOAT && isnan(col_f64(c)[i])) continue;
        if (!any) {
            *mn = *mx = i;
            any = true;
            continue;
        }
        int lo, hi;
        switch (c->type) {
        case TY_BOOL: lo = col_u8(c)[i] < col_u8(c)[*mn]; hi = col_u8(c)[i] > col_u8(c)[*mx]; break;
        case TY_DATE: lo = col_i32(c)[i] < col_i32(c)[*mn]; hi = col_i32(c)[i] > col_i32(c)[*mx]; break;
        case TY_FLOAT: lo = col_f64(c)[i] < col_f64(c)[*mn]; hi = col_f64(c)[i] > col_f64(c)[*mx]; break;
        case TY_TEXT: {
            RxStr v = col_text(c, i), a = col_text(c, *mn), z = col_text(c, *mx);
            lo = rx_str_cmp(&v, &a) < 0;
            hi = rx_str_cmp(&v, &z) > 0;
            break;
        }
        default: lo = col_i64(c)[i] < col_i64(c)[*mn]; hi = col_i64(c)[i] > col_i64(c)[*mx]; break;
        }
        if (lo) *mn = i;
        if (hi) *mx = i;
    }
    return any;
}

/* Writes rows [r0, r1) of column j of t as a column chunk and its ColumnChunk struct into tw. */
static int write_chunk(PqWriter *w, const Table *t, int j, size_t r0, size_t r1, TWriter *tw, uint64_t *group_u,
                       uint64_t *group_c, RxError *err) {
    const Column *c = t->cols[j];
    bool all_null = c->type == TY_NULL;   /* a column of bare NULLs: written as TEXT (w->types) */
    uint64_t start = w->off, usize = 0, csize = 0, dict_off = 0;
    StrBuf body, zbuf;
    sb_init(&body);
    sb_init(&zbuf);
    Dict d;
    bool use_dict = c->type == TY_TEXT && build_dict(c, r0, r1, &d);
    if (use_dict) {
        uint64_t plain = 0;
        for (size_t i = r0; i < r1; i++)
            if (!col_is_null(c, i)) plain += 4 + col_text(c, i).len;
        if (d.dict_bytes + (r1 - r0) * 2 >= plain) {
            free(d.codes);
            free(d.dict);
            use_dict = false;
        }
    }
    int rc = 0;
    if (use_dict) {
        dict_off = w->off;
        for (uint32_t k = 0; k < d.n_dict; k++) {
            put_le(&body, d.dict[k].len, 4);
            sb_append(&body, d.dict[k].ptr, d.dict[k].len);
        }
        rc = body.oom ? oom(err) : write_page(w, PG_DICT, &body, d.n_dict, ENC_PLAIN, &zbuf, &usize, &csize, err);
    }
    uint64_t data_off = w->off;
    for (size_t p0 = r0; p0 < r1 && rc == 0; p0 += PAGE_ROWS) {
        size_t p1 = p0 + PAGE_ROWS < r1 ? p0 + PAGE_ROWS : r1;
        body.n = 0;
        StrBuf lv;
        sb_init(&lv);
        if (all_null) {
            put_uvarint(&lv, (uint64_t)(p1 - p0) << 1);
            sb_putc(&lv, 0);
        } else {
            def_levels(c, p0, p1, &lv);
        }
        put_le(&body, lv.n, 4);
        sb_append(&body, lv.p ? lv.p : "", lv.n);
        sb_free(&lv);
        if (use_dict) dict_indices(c, &d, r0, p0, p1, &body);
        else if (!all_null) plain_values(c, p0, p1, &body);
        rc = body.oom ? oom(err) : write_page(w, PG_DATA, &body, p1 - p0, use_dict ? ENC_RLE_DICT : ENC_PLAIN, &zbuf,
                                              &usize, &csize, err);
    }
    if (use_dict) {
        free(d.codes);
        free(d.dict);
    }
    sb_free(&zbuf);
    if (rc < 0) {
        sb_free(&body);
        return -1;
    }
    /* the ColumnChunk */
    size_t nulls = 0;
    for (size_t i = r0; i < r1; i++) nulls += all_null || col_is_null(c, i);
    tw_struct(tw, 0);
    tw_i64(tw, 2, (int64_t)start);
    tw_struct(tw, 3);
    tw_i32(tw, 1, phys_type(w->types[j]));
    if (use_dict) {
        tw_list(tw, 2, TT_I32, 3);
        tw_list_i32(tw, ENC_PLAIN);
        tw_list_i32(tw, ENC_RLE);
        tw_list_i32(tw, ENC_RLE_DICT);
    } else {
        tw_list(tw, 2, TT_I32, 2);
        tw_list_i32(tw, ENC_PLAIN);
        tw_list_i32(tw, ENC_RLE);
    }
    tw_list(tw, 3, TT_BINARY, 1);
    tw_list_binary(tw, t->names[j], strlen(t->names[j]));
    tw_i32(tw, 4, (int32_t)w->o.codec);
    tw_i64(tw, 5, (int64_t)(r1 - r0));
    tw_i64(tw, 6, (int64_t)usize);
    tw_i64(tw, 7, (int64_t)csize);
    tw_i64(tw, 9, (int64_t)data_off);
    if (use_dict) tw_i64(tw, 11, (int64_t)dict_off);
    tw_struct(tw, 12);
    tw_i64(tw, 3, (int64_t)nulls);
    size_t mn = r0, mx = r0;
    if (!all_null && min_max(c, r0, r1, &mn, &mx)) {
        StrBuf sv;
        sb_init(&sv);
        stat_bytes(c, mx, &sv);
        if (c->type == TY_FLOAT && col_f64(c)[mx] == 0) {
            double z = 0.0;
            sv.n = 0;
            sb_append(&sv, (const char *)&z, 8);
        }
        tw_binary(tw, 5, sv.p ? sv.p : "", sv.n);
        stat_bytes(c, mn, &sv);
        if (c->type == TY_FLOAT && col_f64(c)[mn] == 0) {
            double z = -0.0;
            sv.n = 0;
            sb_append(&sv, (const char *)&z, 8);
        }
        tw_binary(tw, 6, sv.p ? sv.p : "", sv.n);
        sb_free(&sv);
    }
    tw_end(tw);
    tw_end(tw);
    tw_end(tw);
    sb_free(&body);
    *group_u += usize;
    *group_c += csize;
    return 0;
}

int pq_writer_add(PqWriter *w, const Table *t, RxError *err) {
    if (w->failed) return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot write the Parquet file");
    for (size_t r0 = 0; r0 < t->n_rows; r0 += w->o.row_group_rows) {
        size_t r1 = r0 + w->o.row_group_rows < t->n_rows ? r0 + w->o.row_group_rows : t->n_rows;
        StrBuf rg;
        sb_init(&rg);
        TWriter tw;
        tw_init(&tw, &rg);
        uint64_t first = w->off, gu = 0, gc = 0;
        tw_struct(&tw, 0);
        tw_list(&tw, 1, TT_STRUCT, (uint32_t)w->n_cols);
        for (int j = 0; j < w->n_cols; j++) {
            if (t->cols[j]->type != w->types[j] && !(t->cols[j]->type == TY_NULL)) {
                sb_free(&rg);
                return rx_error(err, RX_ETYPE, NULL, rx_span(0, 0), "column '%s' changed type while writing", w->names[j]);
            }
            if (write_chunk(w, t, j, r0, r1, &tw, &gu, &gc, err) < 0) {
                sb_free(&rg);
                return -1;
            }
        }
        tw_i64(&tw, 2, (int64_t)gu);
        tw_i64(&tw, 3, (int64_t)(r1 - r0));
        tw_i64(&tw, 5, (int64_t)first);
        tw_i64(&tw, 6, (int64_t)gc);
        tw_end(&tw);
        if (rg.oom) {
            sb_free(&rg);
            return oom(err);
        }
        sb_append(&w->groups, rg.p, rg.n);
        sb_free(&rg);
        if (w->groups.oom) return oom(err);
        w->n_groups++;
        w->rows += r1 - r0;
    }
    return 0;
}

static void schema_el(TWriter *tw, const char *name, RxType ty) {
    tw_struct(tw, 0);
    tw_i32(tw, 1, phys_type(ty));
    tw_i32(tw, 3, 1); /* OPTIONAL */
    tw_binary(tw, 4, name, strlen(name));
    switch (ty) {
    case TY_TEXT:
        tw_i32(tw, 6, CT_UTF8);
        tw_struct(tw, 10);
        tw_struct(tw, LT_STRING);
        tw_end(tw);
        tw_end(tw);
        break;
    case TY_DATE:
        tw_i32(tw, 6, CT_DATE);
        tw_struct(tw, 10);
        tw_struct(tw, LT_DATE);
        tw_end(tw);
        tw_end(tw);
        break;
    case TY_TIMESTAMP: case TY_TIME:
        if (ty == TY_TIMESTAMP) tw_i32(tw, 6, CT_TS_MICROS);
        tw_struct(tw, 10);
        tw_struct(tw, ty == TY_TIMESTAMP ? LT_TIMESTAMP : LT_TIME);
        tw_bool(tw, 1, ty == TY_TIMESTAMP);
        tw_struct(tw, 2);
        tw_struct(tw, TU_MICROS);
        tw_end(tw);
        tw_end(tw);
        tw_end(tw);
        tw_end(tw);
        break;
    default: break;
    }
    tw_end(tw);
}

int pq_writer_finish(PqWriter *w, RxError *err) {
    if (w->failed) return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot write the Parquet file");
    StrBuf f;
    sb_init(&f);
    TWriter tw;
    tw_init(&tw, &f);
    tw_i32(&tw, 1, 1);
    tw_list(&tw, 2, TT_STRUCT, (uint32_t)w->n_cols + 1);
    tw_struct(&tw, 0);
    tw_binary(&tw, 4, "schema", 6);
    tw_i32(&tw, 5, w->n_cols);
    tw_end(&tw);
    for (int j = 0; j < w->n_cols; j++) schema_el(&tw, w->names[j], w->types[j]);
    tw_i64(&tw, 3, (int64_t)w->rows);
    tw_list(&tw, 4, TT_STRUCT, w->n_groups);
    sb_append(&f, w->groups.p ? w->groups.p : "", w->groups.n);
    tw_binary(&tw, 6, "relix", 5);
    tw_list(&tw, 7, TT_STRUCT, (uint32_t)w->n_cols);
    for (int j = 0; j < w->n_cols; j++) {
        tw_struct(&tw, 0);
        tw_struct(&tw, 1);
        tw_end(&tw);
        tw_end(&tw);
    }
    sb_putc(&f, 0);
    if (f.oom) {
        sb_free(&f);
        return oom(err);
    }
    char tail[8];
    uint32_t n = (uint32_t)f.n;
    for (int i = 0; i < 4; i++) tail[i] = (char)(n >> (8 * i));
    memcpy(tail + 4, "PAR1", 4);
    int rc = emit(w, f.p, f.n, err);
    if (rc == 0) rc = emit(w, tail, 8, err);
    sb_free(&f);
    return rc;
}

int pq_write(const Table *t, const PqWriteOptions *opt, const RxSink *sink, RxError *err) {
    RxType *types = malloc(((size_t)t->n_cols + 1) * sizeof *types);
    if (!types) return oom(err);
    for (int j = 0; j < t->n_cols; j++) types[j] = t->cols[j]->type;
    PqWriter *w = pq_writer_open(sink, t->n_cols, t->names, types, opt, err);
    free(types);
    if (!w) return -1;
    int rc = pq_writer_add(w, t, err);
    if (rc == 0) rc = pq_writer_finish(w, err);
    pq_writer_free(w);
    return rc;
}
