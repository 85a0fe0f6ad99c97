/*
 * parquet_thrift.c - the Thrift compact protocol, as much as Parquet's footer and page headers
 * use: a bounds-checked reader that never reads past its input and bounds nesting, and a
 * writer onto a StrBuf.
 */
#include "io/parquet_int.h"

#include <string.h>

#define TR_MAX_DEPTH 32

void tr_fail(TReader *r, const char *what) {
    if (!r->bad) r->what = what;
    r->bad = true;
    r->p = r->end;
}

uint64_t tr_varint(TReader *r) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (r->p >= r->end) {
            tr_fail(r, "truncated metadata");
            return 0;
        }
        uint8_t b = *r->p++;
        if (shift == 63 && b > 1) {
            tr_fail(r, "integer too long in metadata");
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    tr_fail(r, "integer too long in metadata");
    return 0;
}

static int64_t zigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

bool tr_field(TReader *r, int *last, int *id, int *type) {
    if (r->bad || r->p >= r->end) {
        if (!r->bad) tr_fail(r, "truncated metadata");
        return false;
    }
    uint8_t b = *r->p++;
    if (b == 0) return false;
    *type = b & 0x0f;
    int delta = b >> 4;
    if (delta) *id = *last + delta;
    else *id = (int)(int16_t)zigzag(tr_varint(r));
    *last = *id;
    if (*type > TT_STRUCT) {
        tr_fail(r, "bad field type in metadata");
        return false;
    }
    return !r->bad;
}

int64_t tr_int(TReader *r, int type) {
    switch (type) {
    case TT_BYTE:
        if (r->p >= r->end) {
            tr_fail(r, "truncated metadata");
            return 0;
        }
        return (int8_t)*r->p++;
    case TT_I16: case TT_I32: case TT_I64: return zigzag(tr_varint(r));
    case TT_TRUE: return 1;
    case TT_FALSE: return 0;
    default:
        tr_skip(r, type);
        tr_fail(r, "a field of the wrong type in metadata");
        return 0;
    }
}

const uint8_t *tr_binary(TReader *r, size_t *n) {
    uint64_t len = tr_varint(r);
    if (r->bad || len > (uint64_t)(r->end - r->p)) {
        tr_fail(r, "a string past the end of the metadata");
        *n = 0;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += len;
    *n = (size_t)len;
    return p;
}

uint32_t tr_list(TReader *r, int *etype) {
    if (r->p >= r->end) {
        tr_fail(r, "truncated metadata");
        return 0;
    }
    uint8_t b = *r->p++;
    uint64_t n = b >> 4;
    *etype = b & 0x0f;
    if (n == 15) n = tr_varint(r);
    /* every element takes at least one byte (a bool in a list too) */
    if (r->bad || n > (uint64_t)(r->end - r->p)) {
        tr_fail(r, "a list longer than the metadata");
        return 0;
    }
    return (uint32_t)n;
}

bool tr_enter(TReader *r) {
    if (++r->depth > TR_MAX_DEPTH) {
        tr_fail(r, "metadata nested too deeply");
        return false;
    }
    return !r->bad;
}

void tr_leave(TReader *r) { r->depth--; }

void tr_skip(TReader *r, int type) {
    if (r->bad) return;
    switch (type) {
    case TT_TRUE: case TT_FALSE: return;
    case TT_BYTE: (void)tr_int(r, TT_BYTE); return;
    case TT_I16: case TT_I32: case TT_I64: (void)tr_varint(r); return;
    case TT_DOUBLE:
        if (r->end - r->p < 8) tr_fail(r, "truncated metadata");
        else r->p += 8;
        return;
    case TT_BINARY: {
        size_t n;
        (void)tr_binary(r, &n);
        return;
    }
    case TT_LIST: case TT_SET: {
        int et;
        uint32_t n = tr_list(r, &et);
        if (!tr_enter(r)) return;
        for (uint32_t i = 0; i < n && !r->bad; i++) {
            if (et == TT_TRUE || et == TT_FALSE) {
                if (r->p >= r->end) tr_fail(r, "truncated metadata");
                else r->p++;
            } else {
                tr_skip(r, et);
            }
        }
        tr_leave(r);
        return;
    }
    case TT_MAP: {
        uint64_t n = tr_varint(r);
        if (n == 0) return;
        if (r->bad || r->p >= r->end || n > (uint64_t)(r->end - r->p)) {
            tr_fail(r, "a map longer than the metadata");
            return;
        }
        uint8_t kv = *r->p++;
        if (!tr_enter(r)) return;
        for (uint64_t i = 0; i < n && !r->bad; i++) {
            tr_skip(r, kv >> 4);
            tr_skip(r, kv & 0x0f);
        }
        tr_leave(r);
        return;
    }
    case TT_STRUCT: {
        if (!tr_enter(r)) return;
        int last = 0, id, ty;
        while (tr_field(r, &last, &id, &ty)) tr_skip(r, ty);
        tr_leave(r);
        return;
    }
    default: tr_fail(r, "bad value type in metadata");
    }
}

/* ---- writer --------------------------------------------------------------------------------- */

void tw_init(TWriter *w, StrBuf *b) {
    memset(w, 0, sizeof *w);
    w->b = b;
}

static void put_varint(StrBuf *b, uint64_t v) {
    char tmp[10];
    int n = 0;
    while (v >= 0x80) {
        tmp[n++] = (char)(0x80 | (v & 0x7f));
        v >>= 7;
    }
    tmp[n++] = (char)v;
    sb_append(b, tmp, (size_t)n);
}

static uint64_t zz(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

static void field(TWriter *w, int id, int type) {
    int d = id - w->last[w->depth];
    if (d > 0 && d <= 15) {
        sb_putc(w->b, (char)((d << 4) | type));
    } else {
        sb_putc(w->b, (char)type);
        put_varint(w->b, zz(id));
    }
    w->last[w->depth] = id;
}

void tw_i32(TWriter *w, int id, int32_t v) {
    field(w, id, TT_I32);
    put_varint(w->b, zz(v));
}

void tw_i64(TWriter *w, int id, int64_t v) {
    field(w, id, TT_I64);
    put_varint(w->b, zz(v));
}

void tw_bool(TWriter *w, int id, bool v) { field(w, id, v ? TT_TRUE : TT_FALSE); }

void tw_binary(TWriter *w, int id, const void *p, size_t n) {
    field(w, id, TT_BINARY);
    put_varint(w->b, n);
    sb_append(w->b, p, n);
}

void tw_struct(TWriter *w, int id) {
    if (id > 0) field(w, id, TT_STRUCT);
    w->last[++w->depth] = 0;
}

void tw_end(TWriter *w) {
    sb_putc(w->b, 0);
    w->depth--;
}

void tw_list(TWriter *w, int id, int etype, uint32_t n) {
    field(w, id, TT_LIST);
    if (n < 15) {
        sb_putc(w->b, (char)((n << 4) | (uint32_t)etype));
    } else {
        sb_putc(w->b, (char)(0xf0 | etype));
        put_varint(w->b, n);
    }
}

void tw_list_i32(TWriter *w, int32_t v) { put_varint(w->b, zz(v)); }

void tw_list_binary(TWriter *w, const void *p, size_t n) {
    put_varint(w->b, n);
    sb_append(w->b, p, n);
}
