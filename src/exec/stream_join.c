/*
 * stream_join.c - see stream_join.h: which joins stream, and what the two streaming joins
 * share (stream_join_int.h). The operators are stream_asof.c and stream_ijoin.c.
 */
#include "exec/stream_join.h"
#include "exec/stream_join_int.h"

#include <stdio.h>
#include <string.h>

#include "exec/ops.h"
#include "types/compare.h"
#include "types/temporal.h"

void sj_key_encs(const LPlan *lp, SjEnc *lke, SjEnc *rke, bool *text) {
    const Schema *ls = &lp->in[0]->schema, *rs = &lp->in[1]->schema;
    for (int k = 0; k < lp->n_keys; k++) {
        RxType a = ls->cols[lp->lkeys[k]].type, b = rs->cols[lp->rkeys[k]].type;
        bool kf = a == TY_FLOAT || b == TY_FLOAT, kt = a == TY_TIMESTAMP || b == TY_TIMESTAMP;
        lke[k] = sj_enc(a, kf, kt);
        rke[k] = sj_enc(b, kf, kt);
        if (text) text[k] = a == TY_TEXT;
    }
}

int sj_oom(RxError *err) { return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory"); }

/* ---- codes ---------------------------------------------------------------------------------- */

SjEnc sj_enc(RxType t, bool any_float, bool any_ts) {
    switch (t) {
    case TY_INT: return any_float ? SJ_FLOAT_OF_INT : SJ_I64;
    case TY_FLOAT: return SJ_FLOAT;
    case TY_DATE: return any_ts ? SJ_DATE_US : SJ_DATE;
    case TY_BOOL: return SJ_BOOL;
    case TY_DURATION: return SJ_DUR;
    case TY_TEXT: return SJ_TEXT;
    default: return SJ_I64;  /* TIMESTAMP, TIME */
    }
}

bool sj_type_ok(RxType t, bool key) {
    switch (t) {
    case TY_INT: case TY_FLOAT: case TY_TIMESTAMP: case TY_DATE: case TY_TIME: case TY_DURATION:
        return true;
    case TY_BOOL: case TY_TEXT: return key;
    default: return false;
    }
}

int sj_codes(const Column *c, SjEnc e, int64_t *buf, const int64_t **out, RxError *err) {
    size_t n = c->n;
    switch (e) {
    case SJ_I64: *out = (const int64_t *)c->data; return 0;
    case SJ_TEXT: *out = NULL; return 0;
    case SJ_FLOAT_OF_INT:
        for (size_t i = 0; i < n; i++) buf[i] = rx_float_order_key((double)col_i64(c)[i]);
        break;
    case SJ_FLOAT:
        for (size_t i = 0; i < n; i++) buf[i] = rx_float_order_key(col_f64(c)[i]);
        break;
    case SJ_DATE:
        for (size_t i = 0; i < n; i++) buf[i] = col_i32(c)[i];
        break;
    case SJ_DATE_US:
        for (size_t i = 0; i < n; i++) buf[i] = (int64_t)col_i32(c)[i] * US_PER_DAY;
        break;
    case SJ_BOOL:
        for (size_t i = 0; i < n; i++) buf[i] = col_u8(c)[i];
        break;
    case SJ_DUR:
        for (size_t i = 0; i < n; i++) {
            if (col_is_null(c, i)) {
                buf[i] = 0;
            } else if (!rx_dur_span64(col_dur(c)[i], &buf[i])) {
                return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                                "a duration of more than 290,000 years cannot be a join, group or sort key");
            }
        }
        break;
    }
    *out = buf;
    return 0;
}

/* ---- equality keys -------------------------------------------------------------------------- */

int sj_keymap_init(SjKeyMap *m, int nk, const bool *text) {
    memset(m, 0, sizeof *m);
    m->nk = nk;
    for (int k = 0; k < nk; k++) m->text[k] = text[k];
    m->mask = 1023;
    m->tab = rx_calloc(m->mask + 1, sizeof *m->tab);
    m->bytes = arena_new();
    return m->tab && m->bytes ? 0 : -1;
}

void sj_keymap_free(SjKeyMap *m) {
    rx_free(m->tab), rx_free(m->hash), rx_free(m->code), rx_free(m->str);
    arena_free(m->bytes);
    memset(m, 0, sizeof *m);
}

void sj_keys_free(SjKeys *k) {
    for (int i = 0; i < k->nk; i++) rx_free(k->buf[i]);
    memset(k, 0, sizeof *k);
}

int sj_keys_load(SjKeys *k, const Table *t, const int *cols, int nk, const SjEnc *encs, RxError *err) {
    memset(k, 0, sizeof *k);
    k->nk = nk;
    for (int i = 0; i < nk; i++) {
        const Column *c = t->cols[cols[i]];
        k->col[i] = c;
        if (encs[i] != SJ_I64 && encs[i] != SJ_TEXT &&
            !(k->buf[i] = rx_malloc((c->n ? c->n : 1) * sizeof(int64_t)))) {
            sj_keys_free(k);
            return sj_oom(err);
        }
        if (sj_codes(c, encs[i], k->buf[i], &k->code[i], err) < 0) {
            sj_keys_free(k);
            return -1;
        }
    }
    return 0;
}

uint64_t sj_keys_hash(const SjKeys *k, size_t i) {
    uint64_t h = 0x51ed2701a3b9c4d5ULL;
    for (int j = 0; j < k->nk; j++) {
        uint64_t v;
        if (!k->code[j]) {
            RxStr s = col_str(k->col[j])[i];
            v = rx_hash_bytes(s.ptr, s.len);
        } else {
            v = rx_hash64((uint64_t)k->code[j][i]);
        }
        h = rx_hash_combine(h, v);
    }
    return h;
}

bool sj_keys_equal(const SjKeys *a, size_t i, const SjKeys *b, size_t j) {
    for (int q = 0; q < a->nk; q++) {
        if (!a->code[q]) {
            RxStr x = col_str(a->col[q])[i], y = col_str(b->col[q])[j];
            if (x.len != y.len || (x.len && memcmp(x.ptr, y.ptr, x.len) != 0)) return false;
        } else if (a->code[q][i] != b->code[q][j]) {
            return false;
        }
    }
    return true;
}

static uint64_t row_hash(const SjKeyMap *m, const SjKeys *k, size_t i) {
    (void)m;
    return sj_keys_hash(k, i);
}

static bool row_equal(const SjKeyMap *m, uint32_t slot, const SjKeys *k, size_t i) {
    for (int j = 0; j < m->nk; j++) {
        if (m->text[j]) {
            RxStr a = m->str[(size_t)slot * m->nk + j], b = col_str(k->col[j])[i];
            if (a.len != b.len || (a.len && memcmp(a.ptr, b.ptr, a.len) != 0)) return false;
        } else if (m->code[(size_t)slot * m->nk + j] != k->code[j][i]) {
            return false;
        }
    }
    return true;
}

static int map_grow(SjKeyMap *m) {
    size_t cap = (m->mask + 1) * 2;
    uint32_t *tab = rx_calloc(cap, sizeof *tab);
    if (!tab) return -1;
    for (uint32_t s = 0; s < m->n; s++) {
        size_t j = m->hash[s] & (cap - 1);
        while (tab[j]) j = (j + 1) & (cap - 1);
        tab[j] = s + 1;
    }
    rx_free(m->tab);
    m->tab = tab;
    m->mask = cap - 1;
    return 0;
}

/* The slot of row i's tuple (hash h), inserted when new; ROW_NONE on OOM. */
static uint32_t map_slot(SjKeyMap *m, const SjKeys *k, size_t i, uint64_t h) {
    size_t j = h & m->mask;
    while (m->tab[j]) {
        uint32_t s = m->tab[j] - 1;
        if (m->hash[s] == h && row_equal(m, s, k, i)) return s;
        j = (j + 1) & m->mask;
    }
    if (m->n == m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 256;
        uint64_t *hs = rx_realloc(m->hash, cap * sizeof *hs);
        if (hs) m->hash = hs;
        int64_t *cs = hs ? rx_realloc(m->code, (size_t)cap * m->nk * sizeof *cs) : NULL;
        if (cs) m->code = cs;
        RxStr *ss = cs ? rx_realloc(m->str, (size_t)cap * m->nk * sizeof *ss) : NULL;
        if (ss) m->str = ss;
        if (!ss) return ROW_NONE;
        m->cap = cap;
    }
    uint32_t s = m->n;
    for (int q = 0; q < m->nk; q++) {
        size_t at = (size_t)s * m->nk + q;
        m->code[at] = 0;
        m->str[at] = (RxStr){"", 0};
        if (m->text[q]) {
            RxStr src = col_str(k->col[q])[i];
            char *b = arena_strndup(m->bytes, src.ptr, src.len);
            if (!b) return ROW_NONE;
            m->str[at] = (RxStr){b, src.len};
        } else {
            m->code[at] = k->code[q][i];
        }
    }
    m->hash[s] = h;
    m->tab[j] = s + 1;
    m->n++;
    if ((size_t)m->n * 2 > m->mask + 1 && map_grow(m) < 0) return ROW_NONE;
    return s;
}

bool sj_keys_null(const SjKeys *k, size_t i) {
    for (int j = 0; j < k->nk; j++)
        if (col_is_null(k->col[j], i)) return true;
    return false;
}

int sj_keymap_slots(SjKeyMap *m, const SjKeys *k, size_t n, uint32_t *slot, RxError *err) {
    const Column *c0 = k->nk == 1 ? k->col[0] : NULL;
    if (c0 && m->text[0] && c0->codes && c0->dict && c0->n_dict <= 4 * (size_t)n + 1024) {
        /* one dictionary-coded TEXT key: each distinct string is looked up once per chunk (an
         * optimisation of the general path below, which hashes every row; not taken when the
         * dictionary is much larger than the chunk, as one shared by many chunks may be) */
        uint32_t *ds = rx_malloc((c0->n_dict ? c0->n_dict : 1) * sizeof *ds);
        if (!ds) return sj_oom(err);
        for (uint32_t d = 0; d < c0->n_dict; d++) ds[d] = ROW_NONE;
        SjKeys one = *k;
        for (size_t i = 0; i < n; i++) {
            if (col_is_null(c0, i)) {
                slot[i] = ROW_NONE;
                continue;
            }
            uint32_t code = c0->codes[i];
            if (ds[code] == ROW_NONE) {
                uint32_t s = map_slot(m, &one, i, row_hash(m, &one, i));
                if (s == ROW_NONE) {
                    rx_free(ds);
                    return sj_oom(err);
                }
                ds[code] = s;
            }
            slot[i] = ds[code];
        }
        rx_free(ds);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (sj_keys_null(k, i)) {
            slot[i] = ROW_NONE;
            continue;
        }
        uint32_t s = map_slot(m, k, i, row_hash(m, k, i));
        if (s == ROW_NONE) return sj_oom(err);
        slot[i] = s;
    }
    return 0;
}

/* ---- order ---------------------------------------------------------------------------------- */

/* The value a code stands for, as the table writer would print it, into buf (TM_BUF bytes). */
static void format_code(SjEnc e, RxType t, int64_t code, char *buf) {
    switch (e) {
    case SJ_FLOAT: case SJ_FLOAT_OF_INT: {
        uint64_t u = (uint64_t)code ^ UINT64_C(0x8000000000000000), bits;
        bits = (u >> 63) ? u & ~UINT64_C(0x8000000000000000) : ~u;
        double d;
        memcpy(&d, &bits, 8);
        if (e == SJ_FLOAT_OF_INT) snprintf(buf, TM_BUF, "%.0f", d);
        else snprintf(buf, TM_BUF, "%.17g", d);
        return;
    }
    case SJ_DATE: tm_format_date((int32_t)code, buf); return;
    case SJ_DATE_US: tm_format_date((int32_t)(code / US_PER_DAY), buf); return;
    case SJ_DUR: tm_format_duration((RxDuration){0, code}, buf); return;
    default: break;
    }
    if (t == TY_TIMESTAMP) tm_format_timestamp(code, buf);
    else if (t == TY_TIME) tm_format_time(code, buf);
    else snprintf(buf, TM_BUF, "%lld", (long long)code);
}

int sj_check_order(SjOrder *o, const Column *c, const int64_t *codes, const LPlan *lp, RxError *err) {
    size_t n = c->n;
    int64_t last = o->last;
    bool have = o->have;
    for (size_t i = 0; i < n; i++) {
        if (col_is_null(c, i)) continue;
        int64_t v = codes[i];
        if (have && v < last) {
            char a[TM_BUF], b[TM_BUF];
            format_code(o->enc, o->type, v, a);
            format_code(o->enc, o->type, last, b);
            return rx_error(err, RX_EVALUE, lp->src, lp->span,
                            "the %s input of %s is not sorted by %s: row %llu has %s after %s; "
                            "sort it first, or run without declaring it sorted",
                            o->side, o->op, o->col, (unsigned long long)(o->rows + i + 1), a, b);
        }
        last = v;
        have = true;
    }
    o->last = last;
    o->have = have;
    o->rows += n;
    return 0;
}

/* ---- output --------------------------------------------------------------------------------- */

Table *sj_right_table(const PNode *p, size_t n) {
    const Schema *rs = &p->lp->in[1]->schema;
    int l_n = p->lp->in[0]->schema.n;
    Table *t = table_new(rs->n, n);
    if (!t) return NULL;
    for (int c = 0; c < rs->n; c++) {
        Column *col;
        if (sj_needed(p, l_n + c)) {
            col = col_new(rs->cols[c].type, n);
            uint64_t *v = col ? col_valid(col) : NULL;
            if (v) memset(v, 0, bitmap_words(n ? n : 1) * sizeof *v);
            else col_release(col), col = NULL;
        } else {
            col = col_placeholder(rs->cols[c].type, n);
        }
        if (!col || table_set(t, c, col, rs->cols[c].name) < 0) {
            col_release(col);
            table_free(t);
            return NULL;
        }
    }
    return t;
}

int sj_share_heaps(Column *dst, const Column *src) {
    if (dst->type != TY_TEXT) return 0;
    return col_share_heaps(dst, src);
}

/* ---- entry points --------------------------------------------------------------------------- */

bool sj_ijoin_relation_ok(IjRelation rel) { return rel != IJ_PRECEDES && rel != IJ_PRECEDED_BY && rel <= IJ_EQUALS; }

/* The equality keys of p: at most 16, each of a type the key map holds. */
static bool keys_ok(const LPlan *lp) {
    if (lp->n_keys > 16) return false;
    const Schema *ls = &lp->in[0]->schema, *rs = &lp->in[1]->schema;
    for (int k = 0; k < lp->n_keys; k++)
        if (!sj_type_ok(ls->cols[lp->lkeys[k]].type, true) || !sj_type_ok(rs->cols[lp->rkeys[k]].type, true))
            return false;
    return true;
}

bool stream_join_supported(const PNode *p) {
    const LPlan *lp = p->lp;
    if (!lp || !lp->in[0] || !lp->in[1]) return false;
    const Schema *ls = &lp->in[0]->schema, *rs = &lp->in[1]->schema;
    if (p->kind == PN_ASOF && lp->kind == LP_ASOF)
        return !lp->nearest && !lp->asof_k && keys_ok(lp) && sj_type_ok(ls->cols[lp->lmatch].type, false) &&
               sj_type_ok(rs->cols[lp->rmatch].type, false);
    if (p->kind == PN_IJOIN && lp->kind == LP_IJOIN) {
        if (!sj_ijoin_relation_ok(lp->relation) || !keys_ok(lp) || lp->point || lp->join_kind != JOIN_INNER)
            return false;
        for (int i = 0; i < 4; i++)
            if (!sj_type_ok((i < 2 ? ls : rs)->cols[lp->ends[i]].type, false)) return false;
        return true;
    }
    return false;
}

ChunkSrc *stream_join_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err) {
    if (!stream_join_supported(p)) {
        chunk_src_close(l);
        chunk_src_close(r);
        rx_error(err, RX_EUNSUPPORTED, p->lp ? p->lp->src : NULL, p->lp ? p->lp->span : rx_span(0, 0),
                 "this join has no streaming form");
        return NULL;
    }
    return p->kind == PN_ASOF ? sj_asof_open(x, p, l, r, err) : sj_ijoin_open(x, p, l, r, err);
}
