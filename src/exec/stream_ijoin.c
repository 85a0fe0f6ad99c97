/*
 * stream_ijoin.c - the interval join over inputs sorted by their start columns, in one pass
 * (stream_join.h): the sweep bedtools -sorted does.
 *
 * The right rows read so far and still able to match are "alive", in right input order. For
 * each left row (in order, so its start ls never decreases) the right input is read as far as
 * a match can reach (rs < le for INTERSECTS), alive rows that no later left row can match are
 * dropped (re <= ls for INTERSECTS), and every alive row is tested with ij_holds, the
 * relation's own predicate, and the equality keys: a left row's pairs come out in right input
 * order, and left rows in left order, as the in-memory operator gives them. Each relation has
 * its own reading and dropping rule (see RULES); for some of them the rules only hold when an
 * interval does not end before it starts, so such a row is an error there, never a wrong
 * answer. Memory: the alive rows, and the right chunks they are in (a chunk is freed once none
 * of its rows is alive or waiting to be output).
 */
#include "exec/stream_join_int.h"

#include <string.h>

#include "exec/ops.h"

/* Per relation: read right rows while rs < B (or <= with read_le), B the left row's end
 * (read_end) or start; drop an alive row once E < ls (or <= with drop_le) for the current left
 * start ls, E its end (drop_end) or start; left_fwd / right_fwd: the rules need that side's
 * intervals not to end before they start. */
typedef struct {
    bool read_end, read_le, drop_end, drop_le, left_fwd, right_fwd;
} Rule;

static Rule rule_of(IjRelation rel) {
    switch (rel) {
    case IJ_INTERSECTS: return (Rule){true, false, true, true, false, false};
    case IJ_OVERLAPS: return (Rule){true, false, false, true, false, false};
    case IJ_OVERLAPPED_BY: return (Rule){false, false, true, true, false, false};
    case IJ_STARTS: case IJ_STARTED_BY: case IJ_EQUALS: return (Rule){false, true, false, false, false, false};
    case IJ_DURING: return (Rule){false, false, true, true, true, false};
    case IJ_CONTAINS: return (Rule){true, false, false, true, false, true};
    case IJ_FINISHES: return (Rule){false, false, true, false, true, false};
    case IJ_FINISHED_BY: return (Rule){true, true, false, true, false, true};
    case IJ_MEETS: return (Rule){true, true, false, false, true, false};
    case IJ_MET_BY: return (Rule){false, true, true, false, false, true};
    default: return (Rule){0};
    }
}

/* A right chunk, kept while a row of it is alive or waits to be output. */
typedef struct {
    Table *t;
    SjKeys keys;
    int64_t *sbuf, *ebuf;
    const int64_t *s, *e;
    size_t refs;
    bool current;
    uint64_t shared;    /* the last share_id that gave its heaps to an output column */
} RChunk;

typedef struct {
    int64_t s, e;
    uint64_t h;
    RChunk *c;
    uint32_t row;
} Alive;

typedef struct {
    ChunkSrc base;
    ExecCtx *x;
    const PNode *p;
    const LPlan *lp;
    ChunkSrc *l, *r;
    IjRelation rel;
    Rule rule;
    SjEnc enc[4];
    int nk;
    SjEnc lke[16], rke[16];
    SjOrder lord, rord;
    /* right cursor */
    RChunk *rc;
    size_t rpos;
    bool r_eof;
    uint64_t r_rows;    /* rows of the right input before rc */
    Alive *al;
    size_t n_al, cap_al, n_dead;
    /* the left chunk being joined */
    Table *lc;
    SjKeys lkeys;
    int64_t *lsbuf, *lebuf;
    const int64_t *ls, *le;
    size_t lpos;
    uint64_t l_rows;    /* rows of the left input before lc */
    bool l_eof;
    /* pairs not yet output: left row, right chunk and row */
    uint32_t *pl, *pr;
    RChunk **pc;
    size_t n_pairs, cap_pairs;
    uint64_t share_id;   /* marks the chunks whose heaps one right column already holds */
} IjSrc;

static void rchunk_free(RChunk *c) {
    if (!c) return;
    table_free(c->t);
    sj_keys_free(&c->keys);
    rx_free(c->sbuf), rx_free(c->ebuf);
    rx_free(c);
}

static void rchunk_unref(RChunk *c) {
    if (--c->refs == 0 && !c->current) rchunk_free(c);
}

/* An interval that ends before it starts, where the relation's rules cannot hold it. */
static int inverted(IjSrc *s, bool left, uint64_t row, RxError *err) {
    return rx_error(err, RX_EUNSUPPORTED, s->lp->src, s->lp->span,
                    "the one-pass interval join %s needs intervals that do not end before they "
                    "start, but row %llu of the %s input does; run without declaring the inputs "
                    "sorted",
                    ij_relation_name(s->rel), (unsigned long long)row, left ? "left" : "right");
}

/* Codes of a chunk's start and end, and its keys; checks the order of the starts. */
static int load_side(IjSrc *s, const Table *t, bool left, int64_t **sbuf, int64_t **ebuf, const int64_t **sc,
                     const int64_t **ec, SjKeys *keys, RxError *err) {
    const LPlan *lp = s->lp;
    size_t n = t->n_rows;
    const Column *cs = t->cols[lp->ends[left ? 0 : 2]], *ce = t->cols[lp->ends[left ? 1 : 3]];
    *sbuf = rx_malloc(n * sizeof **sbuf);
    *ebuf = rx_malloc(n * sizeof **ebuf);
    if (!*sbuf || !*ebuf) return sj_oom(err);
    if (sj_codes(cs, s->enc[left ? 0 : 2], *sbuf, sc, err) < 0 || sj_codes(ce, s->enc[left ? 1 : 3], *ebuf, ec, err) < 0)
        return -1;
    if (sj_check_order(left ? &s->lord : &s->rord, cs, *sc, lp, err) < 0) return -1;
    if (s->nk && sj_keys_load(keys, t, left ? lp->lkeys : lp->rkeys, s->nk, left ? s->lke : s->rke, err) < 0)
        return -1;
    return 0;
}

/* The next right chunk as rc: 1, 0 at the end, -1 with err. */
static int r_next(IjSrc *s, RxError *err) {
    if (s->rc) {
        s->r_rows += s->rc->t->n_rows;
        s->rc->current = false;
        if (s->rc->refs == 0) rchunk_free(s->rc);
        s->rc = NULL;
    }
    s->rpos = 0;
    if (s->x && ops_check_interrupt(s->x, err) < 0) return -1;
    Table *t = NULL;
    for (;;) {
        int rc = chunk_src_next(s->r, &t, err);
        if (rc <= 0) return rc;
        if (t->n_rows) break;
        table_free(t);
    }
    RChunk *c = rx_calloc(1, sizeof *c);
    if (!c) {
        table_free(t);
        return sj_oom(err);
    }
    c->t = t;
    c->current = true;
    s->rc = c;
    return load_side(s, t, false, &c->sbuf, &c->ebuf, &c->s, &c->e, &c->keys, err) < 0 ? -1 : 1;
}

/* Reads right rows into the alive set while their start is below b (or equal, with le). */
static int read_right(IjSrc *s, int64_t b, bool le, RxError *err) {
    for (;;) {
        if (!s->rc || s->rpos == s->rc->t->n_rows) {
            if (s->r_eof) return 0;
            int rc = r_next(s, err);
            if (rc < 0) return -1;
            if (rc == 0) {
                s->r_eof = true;
                return 0;
            }
            continue;
        }
        RChunk *c = s->rc;
        size_t j = s->rpos;
        const Column *cs = c->t->cols[s->lp->ends[2]], *ce = c->t->cols[s->lp->ends[3]];
        if (!col_is_null(cs, j)) {
            int64_t rs = c->s[j];
            if (rs > b || (rs == b && !le)) return 0;
            if (!col_is_null(ce, j) && !(s->nk && sj_keys_null(&c->keys, j))) {
                int64_t re = c->e[j];
                if (s->rule.right_fwd && rs > re) return inverted(s, false, s->r_rows + j + 1, err);
                if (s->n_al == s->cap_al) {
                    size_t cap = s->cap_al ? s->cap_al * 2 : 1024;
                    Alive *a = rx_realloc(s->al, cap * sizeof *a);
                    if (!a) return sj_oom(err);
                    s->al = a;
                    s->cap_al = cap;
                }
                s->al[s->n_al++] = (Alive){rs, re, s->nk ? sj_keys_hash(&c->keys, j) : 0, c, (uint32_t)j};
                c->refs++;
            }
        }
        s->rpos++;
    }
}

/* Removes the dropped rows from the alive set, keeping the order. */
static void compact(IjSrc *s) {
    size_t k = 0;
    for (size_t i = 0; i < s->n_al; i++)
        if (s->al[i].c) s->al[k++] = s->al[i];
    s->n_al = k;
    s->n_dead = 0;
}

static int add_pair(IjSrc *s, uint32_t li, RChunk *c, uint32_t ri) {
    if (s->n_pairs == s->cap_pairs) {
        size_t cap = s->cap_pairs ? s->cap_pairs * 2 : 4096;
        uint32_t *a = rx_realloc(s->pl, cap * sizeof *a);
        if (a) s->pl = a;
        uint32_t *b = a ? rx_realloc(s->pr, cap * sizeof *b) : NULL;
        if (b) s->pr = b;
        RChunk **q = b ? rx_realloc(s->pc, cap * sizeof *q) : NULL;
        if (!q) return -1;
        s->pc = q;
        s->cap_pairs = cap;
    }
    s->pl[s->n_pairs] = li;
    s->pr[s->n_pairs] = ri;
    s->pc[s->n_pairs++] = c;
    c->refs++;
    return 0;
}

/* Joins left row i of lc: its pairs are appended. */
static int join_row(IjSrc *s, size_t i, RxError *err) {
    const LPlan *lp = s->lp;
    const Column *cs = s->lc->cols[lp->ends[0]], *ce = s->lc->cols[lp->ends[1]];
    if (col_is_null(cs, i) || col_is_null(ce, i) || (s->nk && sj_keys_null(&s->lkeys, i))) return 0;
    int64_t ls = s->ls[i], le = s->le[i];
    const Rule *ru = &s->rule;
    if (ru->left_fwd && ls > le) return inverted(s, true, s->l_rows + i + 1, err);
    int64_t b = ru->read_end ? le : ls;
    if (read_right(s, b, ru->read_le, err) < 0) return -1;
    uint64_t h = s->nk ? sj_keys_hash(&s->lkeys, i) : 0;
    for (size_t k = 0; k < s->n_al; k++) {
        Alive *a = &s->al[k];
        if (!a->c) continue;
        /* the kept rows are in right input order, so by start: from the first one past what
         * this left row reads, none can match it (an optimisation; ij_holds decides below) */
        if (a->s > b || (a->s == b && !ru->read_le)) break;
        int64_t e = ru->drop_end ? a->e : a->s;
        if (e < ls || (e == ls && ru->drop_le)) {
            rchunk_unref(a->c);
            a->c = NULL;
            s->n_dead++;
            continue;
        }
        if (s->nk && (a->h != h || !sj_keys_equal(&s->lkeys, i, &a->c->keys, a->row))) continue;
        if (ij_holds(s->rel, ls, le, a->s, a->e) && add_pair(s, (uint32_t)i, a->c, a->row) < 0) return sj_oom(err);
    }
    if (s->n_dead > 64 && s->n_dead * 2 > s->n_al) compact(s);
    return 0;
}

/* The pairs so far as an output chunk of lc's rows (NULL with err on failure). */
static Table *flush(IjSrc *s, RxError *err) {
    size_t n = s->n_pairs;
    Table *rk = sj_right_table(s->p, n);
    uint32_t *ri = rx_malloc((n ? n : 1) * sizeof *ri);
    Table *out = NULL;
    if (!rk || !ri) {
        sj_oom(err);
        goto done;
    }
    int l_n = s->lp->in[0]->schema.n;
    for (int c = 0; c < rk->n_cols; c++) {
        Column *dst = rk->cols[c];
        if (!sj_needed(s->p, l_n + c)) continue;
        if (dst->type == TY_TEXT) {
            s->share_id++;
            for (size_t k = 0; k < n; k++) {
                RChunk *rc = s->pc[k];
                if (rc->shared == s->share_id) continue;
                rc->shared = s->share_id;
                if (sj_share_heaps(dst, rc->t->cols[c]) < 0) {
                    sj_oom(err);
                    goto done;
                }
            }
        }
        for (size_t k = 0; k < n; k++) sj_copy_cell(dst, k, s->pc[k]->t->cols[c], s->pr[k]);
    }
    for (size_t k = 0; k < n; k++) ri[k] = (uint32_t)k;
    out = ops_gather_join(s->p, s->lc, rk, s->pl, ri, n, err);
done:
    for (size_t k = 0; k < n; k++) rchunk_unref(s->pc[k]);
    s->n_pairs = 0;
    table_free(rk);
    rx_free(ri);
    return out;
}

static void left_drop(IjSrc *s) {
    if (s->lc) s->l_rows += s->lc->n_rows;
    table_free(s->lc);
    sj_keys_free(&s->lkeys);
    rx_free(s->lsbuf), rx_free(s->lebuf);
    s->lc = NULL, s->lsbuf = s->lebuf = NULL;
    s->ls = s->le = NULL;
    s->lpos = 0;
}

static int ij_next(ChunkSrc *base, Table **out, RxError *err) {
    IjSrc *s = (IjSrc *)base;
    *out = NULL;
    for (;;) {
        if (!s->lc) {
            if (s->l_eof) return 0;
            if (s->x && ops_check_interrupt(s->x, err) < 0) return -1;
            Table *t = NULL;
            int rc = chunk_src_next(s->l, &t, err);
            if (rc < 0) return -1;
            if (rc == 0) {
                s->l_eof = true;
                return 0;
            }
            if (!t->n_rows) {
                table_free(t);
                continue;
            }
            s->lc = t;
            if (load_side(s, t, true, &s->lsbuf, &s->lebuf, &s->ls, &s->le, &s->lkeys, err) < 0) return -1;
        }
        while (s->lpos < s->lc->n_rows && s->n_pairs < STREAM_CHUNK_ROWS)
            if (join_row(s, s->lpos++, err) < 0) return -1;
        Table *t = NULL;
        if (s->n_pairs && !(t = flush(s, err))) return -1;
        if (s->lpos == s->lc->n_rows) left_drop(s);
        if (t) {
            *out = t;
            return 1;
        }
    }
}

static void ij_close(ChunkSrc *base) {
    IjSrc *s = (IjSrc *)base;
    chunk_src_close(s->l);
    chunk_src_close(s->r);
    for (size_t k = 0; k < s->n_pairs; k++) rchunk_unref(s->pc[k]);
    for (size_t k = 0; k < s->n_al; k++)
        if (s->al[k].c) rchunk_unref(s->al[k].c);
    if (s->rc) {
        s->rc->current = false;
        if (s->rc->refs == 0) rchunk_free(s->rc);
    }
    left_drop(s);
    rx_free(s->al), rx_free(s->pl), rx_free(s->pr), rx_free(s->pc);
    rx_free(s);
}

ChunkSrc *sj_ijoin_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err) {
    const LPlan *lp = p->lp;
    const Schema *ls = &lp->in[0]->schema, *rs = &lp->in[1]->schema;
    IjSrc *s = rx_calloc(1, sizeof *s);
    if (!s) {
        chunk_src_close(l);
        chunk_src_close(r);
        sj_oom(err);
        return NULL;
    }
    s->base.next = ij_next;
    s->base.close = ij_close;
    s->x = x, s->p = p, s->lp = lp, s->l = l, s->r = r;
    s->rel = lp->relation;
    s->rule = rule_of(lp->relation);
    RxType ty[4];
    bool f = false, ts = false;
    for (int i = 0; i < 4; i++) {
        ty[i] = (i < 2 ? ls : rs)->cols[lp->ends[i]].type;
        f |= ty[i] == TY_FLOAT;
        ts |= ty[i] == TY_TIMESTAMP;
    }
    for (int i = 0; i < 4; i++) s->enc[i] = sj_enc(ty[i], f, ts);
    s->lord = (SjOrder){.side = "left", .op = "IJOIN", .col = ls->cols[lp->ends[0]].name, .type = ty[0], .enc = s->enc[0]};
    s->rord = (SjOrder){.side = "right", .op = "IJOIN", .col = rs->cols[lp->ends[2]].name, .type = ty[2], .enc = s->enc[2]};
    s->nk = lp->n_keys;
    sj_key_encs(lp, s->lke, s->rke, NULL);
    return &s->base;
}
