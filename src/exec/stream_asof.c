/*
 * stream_asof.c - the AS-OF join over inputs sorted by their match columns, in one pass
 * (stream_join.h): a merge of the two streams in time order.
 *
 * Every row's equality-key tuple gets a dense slot (SjKeyMap). The merge takes right rows
 * before a left row at time t while their time x is below t, or equal to it when the
 * direction keeps equal times (BACKWARD, FORWARD_STRICT), so that when a left row is taken
 * exactly the right rows that may precede it have been seen.
 *
 *   backward  each slot keeps the last right row taken (the first of equal times under
 *             TIES FIRST): the left row's answer at once, subject to WITHIN.
 *   forward   a left row waits in its slot's list until the slot's next right row arrives;
 *             under TIES LAST the waiting rows then hold it as a candidate that later rows of
 *             the same time replace, settled when the right input moves past that time (or
 *             ends). With WITHIN, a waiting row is settled unmatched as soon as the right
 *             input has moved past its time plus the bound.
 *
 * The kept right row of a slot is read from the current right chunk while that chunk lasts,
 * and copied into a store of one row per slot (TEXT into heaps of its own, compacted when
 * mostly garbage) before the chunk is freed: memory is proportional to the number of keys,
 * plus, going forward, the left chunks that still have a waiting row. Each left chunk gets a
 * table of the right values it matched (sj_right_table), and its output is gathered exactly as
 * the in-memory operator gathers (ops_gather_join), in left order.
 */
#include "exec/stream_join_int.h"

#include <string.h>

#include "exec/keys.h"
#include "exec/ops.h"

/* A left chunk and the right values its rows matched. */
typedef struct {
    Table *l;
    Table *rk;          /* sj_right_table: row i holds left row i's match */
    uint32_t *ri;       /* ROW_NONE or i */
    size_t unresolved;  /* rows still waiting (forward) */
    uint64_t store_gen, rchunk_gen;  /* whose heaps rk's TEXT columns already hold */
} Pend;

/* A waiting left row (forward). */
typedef struct {
    int64_t t;
    Pend *c;
    uint32_t row, slot, next;
    uint8_t state;      /* 0 free, 1 waiting for a right row, 2 holding a candidate */
    uint64_t seq;
} Rec;

typedef struct {
    uint32_t idx;
    uint64_t seq;
} RecRef;

typedef struct {
    ChunkSrc base;
    ExecCtx *x;
    const PNode *p;
    const LPlan *lp;
    ChunkSrc *l, *r;
    bool forward, upper, ties_first, has_within, inner;
    uint64_t within;
    int nk, r_n;
    SjEnc lke[16], rke[16], lme, rme;
    SjKeyMap km;
    SjOrder lord, rord;
    /* per slot */
    uint32_t n_slots, scap;
    int64_t *st_t;
    uint32_t *st_rrow;    /* the kept row in the current right chunk, or ROW_NONE: in the store */
    uint8_t *st_has;
    uint64_t *st_touch;   /* the right chunk that last set the kept row */
    uint32_t *b_head, *b_tail, *a_head, *a_tail;
    /* the store: one row per slot, per right column the output reads (NULL otherwise) */
    Column **store;
    int *rcols, n_rcols;  /* the right columns the output reads */
    size_t live, total;
    uint64_t store_gen;
    /* the right cursor */
    Table *rc;
    size_t rn, rpos;
    const int64_t *rt;
    int64_t *rt_buf;
    uint32_t *rslot;      /* per row: its slot, ROW_NONE when its time or a key is NULL */
    uint64_t rgen;
    bool r_eof;
    uint32_t *touched;
    size_t n_touched, cap_touched;
    /* left chunks in order, waiting to be output */
    Pend **q;
    size_t qh, qn, qcap;
    bool l_eof;
    /* waiting rows */
    Rec *rec;
    uint32_t n_rec, cap_rec, free_rec;
    size_t pending;
    uint64_t seq;
    RecRef *ex;           /* waiting rows in left order, for WITHIN */
    size_t ex_h, ex_n, ex_cap;
    uint32_t *af;         /* slots holding candidates, in order of their time */
    size_t af_h, af_n, af_cap;
} AsofSrc;

/* ---- slots and the store -------------------------------------------------------------------- */

static int grow_store_col(Column *c, size_t old, size_t cap) {
    void *d = rx_realloc(c->data, cap * type_width(c->type));
    if (!d) return -1;
    c->data = d;
    uint64_t *v = rx_realloc(c->valid, bitmap_words(cap) * sizeof *v);
    if (!v) return -1;
    size_t ow = bitmap_words(old);
    memset(v + ow, 0, (bitmap_words(cap) - ow) * sizeof *v);
    c->valid = v;
    c->n = cap;
    return 0;
}

/* Room for n slots in every per-slot array and the store. -1 on OOM. */
static int ensure_slots(AsofSrc *s, uint32_t n) {
    if (n <= s->scap) {
        s->n_slots = n > s->n_slots ? n : s->n_slots;
        return 0;
    }
    uint32_t cap = s->scap ? s->scap : 256;
    while (cap < n) cap *= 2;
#define GROW(a)                                                           \
    do {                                                                  \
        void *q_ = rx_realloc(s->a, (size_t)cap * sizeof *s->a);          \
        if (!q_) return -1;                                               \
        s->a = q_;                                                        \
    } while (0)
    GROW(st_t); GROW(st_rrow); GROW(st_has); GROW(st_touch);
    GROW(b_head); GROW(b_tail); GROW(a_head); GROW(a_tail);
#undef GROW
    for (uint32_t i = s->scap; i < cap; i++) {
        s->st_t[i] = 0;
        s->st_rrow[i] = ROW_NONE;
        s->st_has[i] = 0;
        s->st_touch[i] = 0;
        s->b_head[i] = s->b_tail[i] = s->a_head[i] = s->a_tail[i] = ROW_NONE;
    }
    for (int c = 0; c < s->r_n; c++)
        if (s->store[c] && grow_store_col(s->store[c], s->scap, cap) < 0) return -1;
    s->scap = cap;
    s->n_slots = n;
    return 0;
}

/* A copy of string v in the store column's own heaps (never moved: a full heap is followed by
 * a new one). */
static int store_text(AsofSrc *s, Column *c, RxStr v, RxStr *out) {
    if (v.len == 0) {
        *out = (RxStr){"", 0};
        return 0;
    }
    StrHeap *h = c->n_heaps ? c->heaps[c->n_heaps - 1] : NULL;
    if (!h || h->len + v.len > h->cap) {
        size_t cap = v.len > ((size_t)1 << 20) ? v.len : (size_t)1 << 20;
        h = heap_new(cap);
        if (!h) return -1;
        int rc = col_add_heap(c, h);
        heap_release(h);
        if (rc < 0) return -1;
        s->store_gen++;
    }
    memcpy(h->data + h->len, v.ptr, v.len);
    *out = (RxStr){h->data + h->len, v.len};
    h->len += v.len;
    s->total += v.len;
    return 0;
}

/* Rewrites the store's TEXT columns into fresh heaps holding only the kept strings. */
static int store_compact(AsofSrc *s) {
    s->total = 0;
    for (int c = 0; c < s->r_n; c++) {
        Column *col = s->store[c];
        if (!col || col->type != TY_TEXT) continue;
        StrHeap **old = col->heaps;
        uint32_t n_old = col->n_heaps;
        col->heaps = NULL;
        col->n_heaps = col->cap_heaps = 0;
        int rc = 0;
        for (uint32_t i = 0; i < s->n_slots && rc == 0; i++)
            if (bitmap_get(col->valid, i)) rc = store_text(s, col, col_str(col)[i], &col_str(col)[i]);
        for (uint32_t i = 0; i < n_old; i++) heap_release(old[i]);
        rx_free(old);
        if (rc < 0) return -1;
    }
    s->store_gen++;
    return 0;
}

/* Copies the kept rows that are still in the current right chunk into the store, before the
 * chunk goes. */
static int flush_touched(AsofSrc *s, RxError *err) {
    for (size_t k = 0; k < s->n_touched; k++) {
        uint32_t slot = s->touched[k];
        uint32_t j = s->st_rrow[slot];
        if (!s->st_has[slot] || j == ROW_NONE) continue;
        for (int c = 0; c < s->r_n; c++) {
            Column *st = s->store[c];
            if (!st) continue;
            const Column *src = s->rc->cols[c];
            if (st->type == TY_TEXT) {
                if (bitmap_get(st->valid, slot)) s->live -= col_str(st)[slot].len;
                if (col_is_null(src, j)) {
                    bitmap_set(st->valid, slot, false);
                    continue;
                }
                RxStr v = col_str(src)[j];
                if (store_text(s, st, v, &col_str(st)[slot]) < 0) return sj_oom(err);
                s->live += v.len;
                bitmap_set(st->valid, slot, true);
            } else {
                sj_copy_cell(st, slot, src, j);
            }
        }
        s->st_rrow[slot] = ROW_NONE;
    }
    s->n_touched = 0;
    if (s->total > 2 * s->live + ((size_t)8 << 20) && store_compact(s) < 0) return sj_oom(err);
    return 0;
}

static int touch(AsofSrc *s, uint32_t slot) {
    if (s->st_touch[slot] == s->rgen) return 0;
    s->st_touch[slot] = s->rgen;
    if (s->n_touched == s->cap_touched) {
        size_t cap = s->cap_touched ? s->cap_touched * 2 : 1024;
        uint32_t *t = rx_realloc(s->touched, cap * sizeof *t);
        if (!t) return -1;
        s->touched = t;
        s->cap_touched = cap;
    }
    s->touched[s->n_touched++] = slot;
    return 0;
}

/* Row i of pc matched the kept row of slot. */
static int copy_from_slot(AsofSrc *s, Pend *pc, uint32_t i, uint32_t slot) {
    uint32_t j = s->st_rrow[slot];
    bool in_chunk = j != ROW_NONE;
    if (in_chunk && pc->rchunk_gen != s->rgen) {
        for (int c = 0; c < s->r_n; c++)
            if (s->store[c] && sj_share_heaps(pc->rk->cols[c], s->rc->cols[c]) < 0) return -1;
        pc->rchunk_gen = s->rgen;
    } else if (!in_chunk && pc->store_gen != s->store_gen) {
        for (int c = 0; c < s->r_n; c++)
            if (s->store[c] && sj_share_heaps(pc->rk->cols[c], s->store[c]) < 0) return -1;
        pc->store_gen = s->store_gen;
    }
    Column **dst = pc->rk->cols;
    if (in_chunk) {
        Column **src = s->rc->cols;
        for (int k = 0; k < s->n_rcols; k++) sj_copy_cell(dst[s->rcols[k]], i, src[s->rcols[k]], j);
    } else {
        for (int k = 0; k < s->n_rcols; k++) sj_copy_cell(dst[s->rcols[k]], i, s->store[s->rcols[k]], slot);
    }
    pc->ri[i] = i;
    return 0;
}

/* Row i of pc matched row j of the current right chunk. */
static int copy_from_chunk(AsofSrc *s, Pend *pc, uint32_t i, size_t j) {
    if (pc->rchunk_gen != s->rgen) {
        for (int c = 0; c < s->r_n; c++)
            if (s->store[c] && sj_share_heaps(pc->rk->cols[c], s->rc->cols[c]) < 0) return -1;
        pc->rchunk_gen = s->rgen;
    }
    for (int k = 0; k < s->n_rcols; k++) sj_copy_cell(pc->rk->cols[s->rcols[k]], i, s->rc->cols[s->rcols[k]], j);
    pc->ri[i] = i;
    return 0;
}

/* ---- waiting rows (forward) ----------------------------------------------------------------- */

static uint32_t rec_new(AsofSrc *s) {
    if (s->free_rec != ROW_NONE) {
        uint32_t r = s->free_rec;
        s->free_rec = s->rec[r].next;
        return r;
    }
    if (s->n_rec == s->cap_rec) {
        uint32_t cap = s->cap_rec ? s->cap_rec * 2 : 1024;
        Rec *r = rx_realloc(s->rec, (size_t)cap * sizeof *r);
        if (!r) return ROW_NONE;
        s->rec = r;
        s->cap_rec = cap;
    }
    return s->n_rec++;
}

/* Row r is settled (its match, if any, already copied): it stops waiting. */
static void rec_done(AsofSrc *s, uint32_t r) {
    Rec *e = &s->rec[r];
    e->c->unresolved--;
    s->pending--;
    e->state = 0;
    e->next = s->free_rec;
    s->free_rec = r;
}

static bool beyond(const AsofSrc *s, int64_t t, int64_t x) {
    return s->has_within && (uint64_t)x - (uint64_t)t > s->within;
}

/* The candidate group of slot is settled with the slot's kept row. */
static int settle_candidates(AsofSrc *s, uint32_t slot) {
    for (uint32_t r = s->a_head[slot], nx; r != ROW_NONE; r = nx) {
        nx = s->rec[r].next;
        if (copy_from_slot(s, s->rec[r].c, s->rec[r].row, slot) < 0) return -1;
        rec_done(s, r);
    }
    s->a_head[slot] = s->a_tail[slot] = ROW_NONE;
    s->st_has[slot] = 0;
    s->st_rrow[slot] = ROW_NONE;
    return 0;
}

static int push_u32(uint32_t **a, size_t *h, size_t *n, size_t *cap, uint32_t v) {
    if (*h + *n == *cap) {
        if (*h > 0) {
            memmove(*a, *a + *h, *n * sizeof **a);
            *h = 0;
        }
        if (*n == *cap) {
            size_t c = *cap ? *cap * 2 : 1024;
            uint32_t *p = rx_realloc(*a, c * sizeof *p);
            if (!p) return -1;
            *a = p;
            *cap = c;
        }
    }
    (*a)[*h + (*n)++] = v;
    return 0;
}

/* Before a right row at time x: settles the candidates of earlier times, and (WITHIN) the
 * waiting rows x is too far from. */
static int fwd_advance(AsofSrc *s, int64_t x, bool all) {
    while (s->af_n && (all || s->st_t[s->af[s->af_h]] < x)) {
        uint32_t slot = s->af[s->af_h++];
        s->af_n--;
        if (settle_candidates(s, slot) < 0) return -1;
    }
    if (!s->has_within || all) return 0;
    while (s->ex_n) {
        RecRef f = s->ex[s->ex_h];
        Rec *e = &s->rec[f.idx];
        if (e->seq != f.seq || e->state != 1) {
            s->ex_h++, s->ex_n--;
            continue;
        }
        if (!beyond(s, e->t, x)) break;
        /* it heads its slot's waiting list: every earlier row of the slot is further still */
        uint32_t slot = e->slot, prev = ROW_NONE;
        for (uint32_t r = s->b_head[slot]; r != f.idx; r = s->rec[r].next) prev = r;
        if (prev == ROW_NONE) s->b_head[slot] = e->next;
        else s->rec[prev].next = e->next;
        if (s->b_tail[slot] == f.idx) s->b_tail[slot] = prev;
        rec_done(s, f.idx);
        s->ex_h++, s->ex_n--;
    }
    return 0;
}

/* Right row j (time x, slot) arrives. */
static int fwd_absorb(AsofSrc *s, size_t j, uint32_t slot, int64_t x) {
    if (fwd_advance(s, x, false) < 0) return -1;
    if (s->a_head[slot] != ROW_NONE) {
        /* another row of the candidates' time: the last one wins (TIES LAST) */
        s->st_rrow[slot] = (uint32_t)j;
        return touch(s, slot);
    }
    uint32_t r = s->b_head[slot];
    if (r == ROW_NONE) return 0;
    s->b_head[slot] = s->b_tail[slot] = ROW_NONE;
    for (uint32_t nx; r != ROW_NONE; r = nx) {
        Rec *e = &s->rec[r];
        nx = e->next;
        if (beyond(s, e->t, x)) {
            rec_done(s, r);
        } else if (s->ties_first) {
            if (copy_from_chunk(s, e->c, e->row, j) < 0) return -1;
            rec_done(s, r);
        } else {
            e->state = 2;
            e->next = ROW_NONE;
            if (s->a_tail[slot] == ROW_NONE) s->a_head[slot] = r;
            else s->rec[s->a_tail[slot]].next = r;
            s->a_tail[slot] = r;
        }
    }
    if (s->a_head[slot] != ROW_NONE) {
        s->st_has[slot] = 1;
        s->st_t[slot] = x;
        s->st_rrow[slot] = (uint32_t)j;
        if (touch(s, slot) < 0 || push_u32(&s->af, &s->af_h, &s->af_n, &s->af_cap, slot) < 0) return -1;
    }
    return 0;
}

/* The right input ended: candidates are final, rows still waiting have no match. */
static int fwd_end(AsofSrc *s) {
    if (fwd_advance(s, 0, true) < 0) return -1;
    for (uint32_t slot = 0; slot < s->n_slots; slot++) {
        for (uint32_t r = s->b_head[slot], nx; r != ROW_NONE; r = nx) {
            nx = s->rec[r].next;
            rec_done(s, r);
        }
        s->b_head[slot] = s->b_tail[slot] = ROW_NONE;
    }
    s->ex_n = s->ex_h = 0;
    return 0;
}

/* ---- the inputs ----------------------------------------------------------------------------- */

/* Slots of chunk t's rows (ROW_NONE where the match value or a key is NULL) into slot, and the
 * match codes into *codes (buf has room for t's rows). Checks the order. */
static int load_chunk(AsofSrc *s, const Table *t, bool left, int64_t *buf, const int64_t **codes,
                      uint32_t *slot, RxError *err) {
    const LPlan *lp = s->lp;
    const Column *m = t->cols[left ? lp->lmatch : lp->rmatch];
    if (sj_codes(m, left ? s->lme : s->rme, buf, codes, err) < 0) return -1;
    if (sj_check_order(left ? &s->lord : &s->rord, m, *codes, lp, err) < 0) return -1;
    size_t n = t->n_rows;
    if (s->nk == 0) {
        for (size_t i = 0; i < n; i++) slot[i] = 0;
    } else {
        SjKeys k;
        if (sj_keys_load(&k, t, left ? lp->lkeys : lp->rkeys, s->nk, left ? s->lke : s->rke, err) < 0) return -1;
        int rc = sj_keymap_slots(&s->km, &k, n, slot, err);
        sj_keys_free(&k);
        if (rc < 0) return -1;
    }
    if (m->valid)
        for (size_t i = 0; i < n; i++)
            if (!bitmap_get(m->valid, i)) slot[i] = ROW_NONE;
    if (ensure_slots(s, s->nk ? s->km.n : 1) < 0) return sj_oom(err);
    return 0;
}

/* The next right chunk: 1, 0 at the end of the right input, -1 with err. */
static int r_next(AsofSrc *s, RxError *err) {
    if (s->rc && flush_touched(s, err) < 0) return -1;
    table_free(s->rc);
    rx_free(s->rt_buf), rx_free(s->rslot);
    s->rc = NULL, s->rt_buf = NULL, s->rslot = NULL, s->rt = NULL;
    s->rn = s->rpos = 0;
    s->rgen++;
    if (s->x && ops_check_interrupt(s->x, err) < 0) return -1;
    Table *t = NULL;
    for (;;) {
        int rc = chunk_src_next(s->r, &t, err);
        if (rc <= 0) return rc;
        if (t->n_rows) break;
        table_free(t);
    }
    s->rc = t;
    s->rn = t->n_rows;
    s->rt_buf = rx_malloc(t->n_rows * sizeof *s->rt_buf);
    s->rslot = rx_malloc(t->n_rows * sizeof *s->rslot);
    if (!s->rt_buf || !s->rslot) return sj_oom(err);
    return load_chunk(s, t, false, s->rt_buf, &s->rt, s->rslot, err) < 0 ? -1 : 1;
}

static bool head_ready(const AsofSrc *s) { return s->qn && s->q[s->qh]->unresolved == 0; }

/* Takes right rows in order: bounded, those that come before a left row at time t; unbounded
 * (the left input has ended), until no left row waits or the oldest left chunk is complete. */
static int absorb(AsofSrc *s, bool bounded, int64_t t, RxError *err) {
    for (;;) {
        if (s->rpos == s->rn) {
            if (s->r_eof) return 0;
            int rc = r_next(s, err);
            if (rc < 0) return -1;
            if (rc == 0) {
                s->r_eof = true;
                if (s->forward && fwd_end(s) < 0) return sj_oom(err);
                return 0;
            }
            continue;
        }
        size_t j = s->rpos;
        uint32_t slot = s->rslot[j];
        if (slot != ROW_NONE) {
            int64_t x = s->rt[j];
            if (bounded && (x > t || (x == t && !s->upper))) return 0;
            if (s->forward) {
                if (fwd_absorb(s, j, slot, x) < 0) return sj_oom(err);
            } else if (!(s->ties_first && s->st_has[slot] && s->st_t[slot] == x)) {
                s->st_has[slot] = 1;
                s->st_t[slot] = x;
                s->st_rrow[slot] = (uint32_t)j;
                if (touch(s, slot) < 0) return sj_oom(err);
            }
        }
        s->rpos++;
        if (!bounded && (s->pending == 0 || head_ready(s))) return 0;
    }
}

static void pend_free(Pend *pc) {
    if (!pc) return;
    table_free(pc->l);
    table_free(pc->rk);
    rx_free(pc->ri);
    rx_free(pc);
}

/* Reads and joins the next left chunk into the queue: 1, 0 at the end of the left input, -1. */
static int l_next(AsofSrc *s, RxError *err) {
    Table *t = NULL;
    for (;;) {
        int rc = chunk_src_next(s->l, &t, err);
        if (rc <= 0) return rc;
        if (t->n_rows) break;
        table_free(t);
    }
    size_t n = t->n_rows;
    Pend *pc = rx_calloc(1, sizeof *pc);
    int64_t *buf = rx_malloc(n * sizeof *buf);
    uint32_t *slot = rx_malloc(n * sizeof *slot);
    const int64_t *lt = NULL;
    int ret = -1;
    if (!pc || !buf || !slot) {
        table_free(t);
        sj_oom(err);
        goto out;
    }
    pc->l = t;
    pc->rk = sj_right_table(s->p, n);
    pc->ri = rx_malloc(n * sizeof *pc->ri);
    if (!pc->rk || !pc->ri) {
        sj_oom(err);
        goto out;
    }
    for (size_t i = 0; i < n; i++) pc->ri[i] = ROW_NONE;
    if (load_chunk(s, t, true, buf, &lt, slot, err) < 0) goto out;
    for (size_t i = 0; i < n; i++) {
        uint32_t sl = slot[i];
        if (sl == ROW_NONE) continue;
        int64_t v = lt[i];
        if (absorb(s, true, v, err) < 0) goto out;
        if (!s->forward) {
            if (s->st_has[sl] && !beyond(s, s->st_t[sl], v) && copy_from_slot(s, pc, (uint32_t)i, sl) < 0) {
                sj_oom(err);
                goto out;
            }
            continue;
        }
        if (s->r_eof) continue;  /* no right row is left to match it */
        uint32_t r = rec_new(s);
        if (r == ROW_NONE) {
            sj_oom(err);
            goto out;
        }
        Rec *e = &s->rec[r];
        *e = (Rec){.t = v, .c = pc, .row = (uint32_t)i, .slot = sl, .next = ROW_NONE, .state = 1, .seq = ++s->seq};
        if (s->b_tail[sl] == ROW_NONE) s->b_head[sl] = r;
        else s->rec[s->b_tail[sl]].next = r;
        s->b_tail[sl] = r;
        pc->unresolved++;
        s->pending++;
        if (s->has_within) {
            if (s->ex_h + s->ex_n == s->ex_cap) {
                if (s->ex_h) {
                    memmove(s->ex, s->ex + s->ex_h, s->ex_n * sizeof *s->ex);
                    s->ex_h = 0;
                } else {
                    size_t cap = s->ex_cap ? s->ex_cap * 2 : 1024;
                    RecRef *q = rx_realloc(s->ex, cap * sizeof *q);
                    if (!q) {
                        sj_oom(err);
                        goto out;
                    }
                    s->ex = q;
                    s->ex_cap = cap;
                }
            }
            s->ex[s->ex_h + s->ex_n++] = (RecRef){r, e->seq};
        }
    }
    if (s->qh + s->qn == s->qcap) {
        if (s->qh) {
            memmove(s->q, s->q + s->qh, s->qn * sizeof *s->q);
            s->qh = 0;
        } else {
            size_t cap = s->qcap ? s->qcap * 2 : 16;
            Pend **q = rx_realloc(s->q, cap * sizeof *q);
            if (!q) {
                sj_oom(err);
                goto out;
            }
            s->q = q;
            s->qcap = cap;
        }
    }
    s->q[s->qh + s->qn++] = pc;
    pc = NULL;
    ret = 1;
out:
    rx_free(buf);
    rx_free(slot);
    /* on failure, rows of pc may still be listed as waiting: the source is failing and is
     * only closed now, which frees the records without reading them */
    pend_free(pc);
    return ret;
}

/* Output column rc (a right column) of a complete left chunk with every left row, exactly as
 * ops_gather_join makes it for ri (row i matched or ROW_NONE): for a right equality-key column
 * of the left key's type (not FLOAT or DURATION, whose equal values may print differently), a
 * view of the left key, NULL where nothing matched; otherwise rk's column itself, which already
 * holds row i's match at row i and NULL elsewhere (an optimisation: no second copy). */
static Column *right_out(AsofSrc *s, Pend *pc, int rc) {
    const LPlan *lp = s->lp;
    Column *rcol = pc->rk->cols[rc];
    size_t n = pc->l->n_rows;
    for (int k = 0; k < lp->n_keys; k++) {
        Column *lk = pc->l->cols[lp->lkeys[k]];
        if (lp->rkeys[k] != rc || lk->type != rcol->type || lk->type == TY_FLOAT || lk->type == TY_DURATION ||
            lk->type == TY_NULL)
            continue;
        if (lk->pruned || lk->n != n) break;
        uint64_t *valid = NULL;
        bool all = !lk->valid;
        for (size_t i = 0; i < n && all; i++) all = pc->ri[i] != ROW_NONE;
        if (!all) {
            size_t w = bitmap_words(n);
            if (!(valid = rx_calloc(w, sizeof *valid))) return NULL;
            for (size_t i = 0; i < n; i++)
                if (pc->ri[i] != ROW_NONE && !col_is_null(lk, i)) valid[i >> 6] |= UINT64_C(1) << (i & 63);
        }
        return col_view(lk, valid);
    }
    col_compact_validity(rcol);
    col_retain(rcol);
    return rcol;
}

/* The output of a complete left chunk with every left row: its columns themselves, and the
 * right values beside them (right_out); what ops_gather_join(p, l, rk, NULL, ri, n) gives. */
static Table *emit_all(AsofSrc *s, Pend *pc, RxError *err) {
    const Schema *sc = &s->lp->schema;
    size_t n = pc->l->n_rows;
    int l_n = pc->l->n_cols;
    Table *t = table_new(sc->n, n);
    if (!t) {
        sj_oom(err);
        return NULL;
    }
    for (int c = 0; c < sc->n; c++) {
        Column *g;
        if (!sj_needed(s->p, c)) {
            g = col_placeholder(sc->cols[c].type, n);
        } else if (c < l_n) {
            g = pc->l->cols[c];
            col_retain(g);
        } else {
            g = right_out(s, pc, c - l_n);
        }
        if (!g || table_set(t, c, g, sc->cols[c].name) < 0) {
            col_release(g);
            table_free(t);
            sj_oom(err);
            return NULL;
        }
    }
    return t;
}

/* The output of a complete left chunk (NULL with *skip when INNER kept no row of it). */
static Table *emit(AsofSrc *s, Pend *pc, bool *skip, RxError *err) {
    size_t n = pc->l->n_rows;
    *skip = false;
    if (!s->inner) return emit_all(s, pc, err);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (pc->ri[i] != ROW_NONE) pc->ri[k++] = (uint32_t)i;
    if (k == 0) {
        *skip = true;
        return NULL;
    }
    return ops_gather_join(s->p, pc->l, pc->rk, pc->ri, pc->ri, k, err);
}

static int asof_step(AsofSrc *s, Table **out, RxError *err);

static int asof_next(ChunkSrc *base, Table **out, RxError *err) {
    AsofSrc *s = (AsofSrc *)base;
    int rc = asof_step(s, out, err);
    if (rc < 0 && err->code == RX_ENOMEM && s->forward && s->pending > 0) {
        /* what holds the memory, and what bounds it */
        size_t held = 0;
        for (size_t i = 0; i < s->qn; i++) held += s->q[s->qh + i]->l->n_rows;
        rx_error_clear(err);
        rx_error(err, RX_ENOMEM, s->lp->src, s->lp->span,
                 "out of memory in the one-pass AS-OF join: going forward, %zu left rows wait for a later "
                 "right row of their key, and %zu left rows are held so that the output keeps left order "
                 "(a key that does not appear again in the right input keeps its rows waiting until that "
                 "input ends); WITHIN bounds the wait",
                 s->pending, held);
    }
    return rc;
}

/* One step of asof_next. */
static int asof_step(AsofSrc *s, Table **out, RxError *err) {
    *out = NULL;
    for (;;) {
        if (head_ready(s)) {
            Pend *pc = s->q[s->qh++];
            s->qn--;
            bool skip;
            Table *t = emit(s, pc, &skip, err);
            pend_free(pc);
            if (skip) continue;
            if (!t) return -1;
            *out = t;
            return 1;
        }
        if (s->x && ops_check_interrupt(s->x, err) < 0) return -1;
        if (!s->l_eof) {
            int rc = l_next(s, err);
            if (rc < 0) return -1;
            if (rc == 0) s->l_eof = true;
            continue;
        }
        if (s->qn == 0) return 0;
        /* the left input has ended and its last chunks wait for right rows */
        if (absorb(s, false, 0, err) < 0) return -1;
    }
}

static void asof_close(ChunkSrc *base) {
    AsofSrc *s = (AsofSrc *)base;
    chunk_src_close(s->l);
    chunk_src_close(s->r);
    for (size_t i = 0; i < s->qn; i++) pend_free(s->q[s->qh + i]);
    rx_free(s->q);
    table_free(s->rc);
    rx_free(s->rt_buf), rx_free(s->rslot), rx_free(s->touched);
    rx_free(s->st_t), rx_free(s->st_rrow), rx_free(s->st_has), rx_free(s->st_touch);
    rx_free(s->b_head), rx_free(s->b_tail), rx_free(s->a_head), rx_free(s->a_tail);
    for (int c = 0; s->store && c < s->r_n; c++) col_release(s->store[c]);
    rx_free(s->store), rx_free(s->rcols);
    rx_free(s->rec), rx_free(s->ex), rx_free(s->af);
    sj_keymap_free(&s->km);
    rx_free(s);
}

ChunkSrc *sj_asof_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err) {
    const LPlan *lp = p->lp;
    const Schema *ls = &lp->in[0]->schema, *rs = &lp->in[1]->schema;
    AsofSrc *s = rx_calloc(1, sizeof *s);
    if (!s) {
        chunk_src_close(l);
        chunk_src_close(r);
        sj_oom(err);
        return NULL;
    }
    s->base.next = asof_next;
    s->base.close = asof_close;
    s->x = x, s->p = p, s->lp = lp, s->l = l, s->r = r;
    s->forward = lp->dir == ASOF_FORWARD || lp->dir == ASOF_FORWARD_STRICT;
    s->upper = lp->dir == ASOF_BACKWARD || lp->dir == ASOF_FORWARD_STRICT;
    s->ties_first = lp->ties_first;
    s->inner = lp->inner;
    s->free_rec = ROW_NONE;
    RxType lm = ls->cols[lp->lmatch].type, rm = rs->cols[lp->rmatch].type;
    if (lp->has_within) {
        int64_t b = keys_distance_bound(lm, rm, lp->within);
        s->has_within = true;
        s->within = b > 0 ? (uint64_t)b : 0;
    }
    bool f = lm == TY_FLOAT || rm == TY_FLOAT, ts = lm == TY_TIMESTAMP || rm == TY_TIMESTAMP;
    s->lme = sj_enc(lm, f, ts);
    s->rme = sj_enc(rm, f, ts);
    s->lord = (SjOrder){.side = "left", .op = "ASOF", .col = ls->cols[lp->lmatch].name, .type = lm, .enc = s->lme};
    s->rord = (SjOrder){.side = "right", .op = "ASOF", .col = rs->cols[lp->rmatch].name, .type = rm, .enc = s->rme};
    s->nk = lp->n_keys;
    bool text[16] = {0};
    sj_key_encs(lp, s->lke, s->rke, text);
    s->r_n = rs->n;
    s->store = rx_calloc((size_t)(rs->n ? rs->n : 1), sizeof *s->store);
    s->rcols = rx_calloc((size_t)(rs->n ? rs->n : 1), sizeof *s->rcols);
    bool ok = s->store && s->rcols && sj_keymap_init(&s->km, s->nk, text) == 0;
    for (int c = 0; ok && c < rs->n; c++) {
        if (!sj_needed(p, ls->n + c)) continue;
        s->rcols[s->n_rcols++] = c;
        s->store[c] = col_new(rs->cols[c].type, 0);
        ok = s->store[c] && col_valid(s->store[c]);
    }
    if (!ok || ensure_slots(s, 1) < 0) {
        asof_close(&s->base);
        sj_oom(err);
        return NULL;
    }
    return &s->base;
}
