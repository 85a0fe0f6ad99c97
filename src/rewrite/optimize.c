/*
 * optimize.c - the logical rewrites after view inlining (rewrite.h lists their IDs).
 *
 * One top-down pass. A selection is split into its conjuncts (constant-folded first); each
 * conjunct moves as far down as it can:
 *   below a rename (PUSH-001) or a projection of plain columns (PUSH-002), by remapping its
 *   column numbers; into the left or right input of a join when it reads only that side
 *   (PUSH-003: every side of an inner join or interval join, only the preserved side of an
 *   outer or AS-OF join); into the join itself when it reads both sides (FUSE-001 makes an
 *   equality between plain columns an interval join's partition key; FUSE-002 makes it a
 *   theta join's hash key, anything else its residual, and a product a join).
 * What cannot move stays in a selection above. Nodes that change are copies: view bodies are
 * shared between queries.
 */
#include "rewrite/rewrite.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "types/compare.h"

typedef struct {
    Arena *a;
    RewriteLog *log;
    int rc;
} Opt;

static void *nalloc(Opt *o, size_t n) {
    void *p = arena_alloc(o->a, n);
    if (!p) o->rc = -1;
    return p;
}

static void note(Opt *o, const char *id, const char *what, const char *detail) {
    if (rw_log(o->a, o->log, id, what, detail) < 0) o->rc = -1;
}

/* The source text of an expression, whitespace collapsed, for log details. */
static const char *text_of(Opt *o, const Expr *e) { return rx_source_text(o->a, e->src, e->span); }

static LPlan *copy_plan(Opt *o, const LPlan *p) {
    LPlan *c = nalloc(o, sizeof *c);
    if (c) *c = *p;
    return c;
}

/* ---- expressions ---------------------------------------------------------------------------- */

/* Which inputs e reads when the first nl columns are the left side: bit 0 left, bit 1 right. */
static int sides(const Expr *e, int nl) {
    if (e->kind == EX_COL) return e->col < nl ? 1 : 2;
    int m = 0;
    for (int i = 0; i < e->n_args; i++) m |= sides(e->args[i], nl);
    return m;
}

/* A copy of e with column c renumbered map[c] (map == NULL: c + shift). NULL if a column maps
 * to -1. */
static Expr *remap(Opt *o, const Expr *e, const int *map, int shift) {
    Expr *c = nalloc(o, sizeof *c);
    if (!c) return NULL;
    *c = *e;
    if (e->kind == EX_COL) {
        c->col = map ? map[e->col] : e->col + shift;
        return c->col < 0 ? NULL : c;
    }
    if (e->n_args) {
        c->args = nalloc(o, (size_t)e->n_args * sizeof *c->args);
        if (!c->args) return NULL;
        for (int i = 0; i < e->n_args; i++)
            if (!(c->args[i] = remap(o, e->args[i], map, shift))) return NULL;
    }
    return c;
}

static bool is_bool_const(const Expr *e, bool v) {
    return e->kind == EX_CONST && e->type == TY_BOOL && !e->value.null && e->value.v.b == v;
}

/* FOLD-001: constant arithmetic and comparisons on INT, FLOAT and BOOL constants, and the
 * identities of ∧ ∨ ¬ with TRUE and FALSE. Anything that could fail at run time (overflow,
 * division by zero) is left for the run to report. */
static Expr *fold(Opt *o, Expr *e) {
    if (e->kind != EX_BINARY && e->kind != EX_UNARY) return e;
    Expr *args[2] = {NULL, NULL};
    bool changed = false;
    for (int i = 0; i < e->n_args; i++) {
        args[i] = fold(o, e->args[i]);
        changed |= args[i] != e->args[i];
    }
    Expr *x = e;
    if (changed) {
        x = nalloc(o, sizeof *x);
        if (!x) return e;
        *x = *e;
        x->args = nalloc(o, (size_t)e->n_args * sizeof *x->args);
        if (!x->args) return e;
        for (int i = 0; i < e->n_args; i++) x->args[i] = args[i];
    }
    Expr *a = x->args[0], *b = x->n_args > 1 ? x->args[1] : NULL;
    if (x->kind == EX_UNARY && x->op == OP_NOT && a->kind == EX_CONST && a->type == TY_BOOL && !a->value.null) {
        Expr *r = nalloc(o, sizeof *r);
        if (!r) return x;
        *r = *a;
        r->span = x->span;
        r->value.v.b = !a->value.v.b;
        note(o, "FOLD-001", "Constant expression folded", text_of(o, x));
        return r;
    }
    if (x->kind == EX_BINARY && (x->op == OP_AND || x->op == OP_OR)) {
        bool and_ = x->op == OP_AND;
        for (int k = 0; k < 2; k++) {
            Expr *c = x->args[k], *other = x->args[1 - k];
            if (is_bool_const(c, and_)) {            /* x ∧ TRUE = x, x ∨ FALSE = x */
                note(o, "FOLD-001", "Constant expression folded", text_of(o, x));
                return other;
            }
            if (is_bool_const(c, !and_)) {           /* x ∧ FALSE = FALSE, x ∨ TRUE = TRUE */
                note(o, "FOLD-001", "Constant expression folded", text_of(o, x));
                return c;
            }
        }
        return x;
    }
    if (x->kind != EX_BINARY || a->kind != EX_CONST || b->kind != EX_CONST || a->value.null ||
        b->value.null || a->type == TY_NULL || b->type == TY_NULL)
        return x;
    bool num = type_is_numeric(a->type) && type_is_numeric(b->type);
    if (!num) return x;
    Value v = {.type = x->type};
    if (a->type == TY_INT && b->type == TY_INT && x->type == TY_INT) {
        int64_t p = a->value.v.i, q = b->value.v.i, r;
        switch (x->op) {
        case OP_ADD: if (__builtin_add_overflow(p, q, &r)) return x; break;
        case OP_SUB: if (__builtin_sub_overflow(p, q, &r)) return x; break;
        case OP_MUL: if (__builtin_mul_overflow(p, q, &r)) return x; break;
        case OP_MOD: if (q == 0) return x; r = q == -1 ? 0 : p % q; break;
        default: return x;
        }
        v.v.i = r;
    } else {
        double p = a->type == TY_INT ? (double)a->value.v.i : a->value.v.f;
        double q = b->type == TY_INT ? (double)b->value.v.i : b->value.v.f;
        switch (x->op) {
        case OP_ADD: v.v.f = p + q; break;
        case OP_SUB: v.v.f = p - q; break;
        case OP_MUL: v.v.f = p * q; break;
        case OP_DIV: if (q == 0) return x; v.v.f = p / q; break;
        case OP_EQ: v.v.b = rx_float_cmp(p, q) == 0; break;
        case OP_NE: v.v.b = rx_float_cmp(p, q) != 0; break;
        case OP_LT: v.v.b = rx_float_cmp(p, q) < 0; break;
        case OP_LE: v.v.b = rx_float_cmp(p, q) <= 0; break;
        case OP_GT: v.v.b = rx_float_cmp(p, q) > 0; break;
        case OP_GE: v.v.b = rx_float_cmp(p, q) >= 0; break;
        default: return x;
        }
        if (x->type == TY_INT) return x;
        if (x->type == TY_FLOAT && !isfinite(v.v.f)) return x;
    }
    Expr *r = nalloc(o, sizeof *r);
    if (!r) return x;
    memset(r, 0, sizeof *r);
    r->kind = EX_CONST;
    r->type = x->type;
    r->span = x->span;
    r->src = x->src;
    r->value = v;
    note(o, "FOLD-001", "Constant expression folded", text_of(o, x));
    return r;
}

/* ---- conjuncts ------------------------------------------------------------------------------ */

typedef struct {
    Expr **items;
    int n, cap;
} Conj;

static void conj_push(Opt *o, Conj *c, Expr *e) {
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 8;
        Expr **p = nalloc(o, (size_t)cap * sizeof *p);
        if (!p) return;
        if (c->n) memcpy(p, c->items, (size_t)c->n * sizeof *p);
        c->items = p;
        c->cap = cap;
    }
    c->items[c->n++] = e;
}

static void split(Opt *o, Expr *e, Conj *out) {
    if (e->kind == EX_BINARY && e->op == OP_AND) {
        split(o, e->args[0], out);
        split(o, e->args[1], out);
        return;
    }
    conj_push(o, out, e);
}

static Expr *and_all(Opt *o, Expr **items, int n) {
    if (n == 0) return NULL;
    Expr *r = items[0];
    for (int i = 1; i < n; i++) {
        Expr *e = nalloc(o, sizeof *e);
        Expr **args = nalloc(o, 2 * sizeof *args);
        if (!e || !args) return r;
        memset(e, 0, sizeof *e);
        e->kind = EX_BINARY;
        e->op = OP_AND;
        e->type = TY_BOOL;
        e->src = items[i]->src;
        e->span = rx_span_join(r->span, items[i]->span);
        args[0] = r;
        args[1] = items[i];
        e->args = args;
        e->n_args = 2;
        r = e;
    }
    return r;
}

static LPlan *optimize(Opt *o, LPlan *p);

/* σ conjuncts over p (which is already optimized); returns the new subtree. */
static LPlan *select_over(Opt *o, LPlan *p, Expr **conj, int n, const LPlan *orig_select) {
    if (n == 0) return p;
    LPlan *s = nalloc(o, sizeof *s);
    if (!s) return p;
    if (orig_select) *s = *orig_select;
    else memset(s, 0, sizeof *s);
    s->kind = LP_SELECT;
    s->in[0] = p;
    s->in[1] = NULL;
    s->schema = p->schema;
    s->pred = and_all(o, conj, n);
    s->src = conj[0]->src;
    if (!orig_select) s->span = conj[0]->span;
    return s;
}

static LPlan *push_into(Opt *o, LPlan *p, Conj *in, Conj *rest);

/* The conjuncts moved as far into p as they go, the rest in a selection over it. p is already
 * optimized and the conjuncts folded and split, so this is optimize()'s σ case without
 * optimizing p again: a conjunct costs one step per level it moves down, where optimizing
 * every subtree it passes anew would cost time and copies cubic in the depth of a chain of
 * views with a σ each. */
static LPlan *sink(Opt *o, LPlan *p, Expr **conj, int n) {
    if (n == 0) return p;
    LPlan *tmpl = select_over(o, p, conj, n, NULL);
    Conj in = {.items = conj, .n = n, .cap = n}, rest = {0};
    LPlan *below = push_into(o, p, &in, &rest);
    if (rest.n == 0) return below;
    return select_over(o, below, rest.items, rest.n, tmpl);
}

/* Tries to move the conjuncts into p (already optimized); what stays is returned in *rest. */
static LPlan *push_into(Opt *o, LPlan *p, Conj *in, Conj *rest) {
    switch (p->kind) {
    case LP_RENAME: {
        LPlan *c = copy_plan(o, p);
        if (!c) return p;
        for (int i = 0; i < in->n; i++)
            note(o, "PUSH-001", "Selection pushed below a rename", text_of(o, in->items[i]));
        c->in[0] = sink(o, p->in[0], in->items, in->n);
        return c;
    }
    case LP_PROJECT: {
        int *map = nalloc(o, (size_t)(p->n_items + 1) * sizeof *map);
        if (!map) return p;
        for (int i = 0; i < p->n_items; i++) map[i] = p->items[i]->kind == EX_COL ? p->items[i]->col : -1;
        Conj down = {0};
        for (int i = 0; i < in->n; i++) {
            Expr *r = remap(o, in->items[i], map, 0);
            if (r) {
                conj_push(o, &down, r);
                note(o, "PUSH-002", "Selection pushed below a projection", text_of(o, in->items[i]));
            } else {
                conj_push(o, rest, in->items[i]);
            }
        }
        if (down.n == 0) return p;
        LPlan *c = copy_plan(o, p);
        if (!c) return p;
        c->in[0] = sink(o, p->in[0], down.items, down.n);
        return c;
    }
    case LP_JOIN: case LP_IJOIN: case LP_ASOF: {
        int nl = p->in[0]->schema.n;
        int kind = p->kind != LP_ASOF ? p->join_kind : JOIN_INNER;   /* IJOIN: INNER, LEFT, SEMI, ANTI */
        bool semi_like = p->kind != LP_ASOF && (kind == JOIN_SEMI || kind == JOIN_ANTI || kind == JOIN_RSEMI);
        bool left_ok = p->kind == LP_ASOF || kind == JOIN_INNER || kind == JOIN_CROSS || kind == JOIN_LEFT ||
                       kind == JOIN_SEMI || kind == JOIN_ANTI;
        bool right_ok = p->kind != LP_ASOF && (kind == JOIN_INNER || kind == JOIN_CROSS || kind == JOIN_RIGHT);
        bool fuse_ok = p->kind != LP_ASOF && (kind == JOIN_INNER || kind == JOIN_CROSS);
        if (kind == JOIN_RSEMI) {
            /* the output is the right input: everything pushes right */
            LPlan *c = copy_plan(o, p);
            if (!c) return p;
            for (int i = 0; i < in->n; i++)
                note(o, "PUSH-003", "Selection pushed into a join input", text_of(o, in->items[i]));
            c->in[1] = sink(o, p->in[1], in->items, in->n);
            return c;
        }
        Conj left = {0}, right = {0}, both = {0};
        int *rmap = NULL;
        if (!semi_like) {
            /* output column k >= nl is right input column (right_out ? right_out[k-nl] : k-nl) */
            int nout = p->schema.n;
            rmap = nalloc(o, (size_t)(nout + 1) * sizeof *rmap);
            if (!rmap) return p;
            for (int k = 0; k < nout; k++)
                rmap[k] = k < nl ? -1 : (p->kind == LP_JOIN && p->right_out ? p->right_out[k - nl] : k - nl);
        }
        for (int i = 0; i < in->n; i++) {
            Expr *e = in->items[i];
            int sd = semi_like ? 1 : sides(e, nl);
            if (sd == 1 && left_ok) conj_push(o, &left, e);
            else if (sd == 2 && right_ok) {
                Expr *r = remap(o, e, rmap, 0);
                if (r) conj_push(o, &right, r);
                else conj_push(o, rest, e);
            } else if (sd == 3 && fuse_ok && !(p->kind == LP_JOIN && p->right_out)) {
                conj_push(o, &both, e);
            } else {
                conj_push(o, rest, e);
            }
        }
        if (left.n == 0 && right.n == 0 && both.n == 0) return p;
        LPlan *c = copy_plan(o, p);
        if (!c) return p;
        for (int i = 0; i < left.n; i++)
            note(o, "PUSH-003", "Selection pushed into a join input", text_of(o, left.items[i]));
        for (int i = 0; i < right.n; i++)
            note(o, "PUSH-003", "Selection pushed into a join input", text_of(o, right.items[i]));
        if (left.n) c->in[0] = sink(o, p->in[0], left.items, left.n);
        if (right.n) c->in[1] = sink(o, p->in[1], right.items, right.n);
        if (both.n) {
            int cap = c->n_keys + both.n;
            int *lk = nalloc(o, (size_t)cap * sizeof *lk), *rk = nalloc(o, (size_t)cap * sizeof *rk);
            if (!lk || !rk) return c;
            for (int k = 0; k < c->n_keys; k++) lk[k] = c->lkeys[k], rk[k] = c->rkeys[k];
            c->lkeys = lk;
            c->rkeys = rk;
            Conj resid = {0};
            for (int i = 0; i < both.n; i++) {
                Expr *e = both.items[i];
                if (e->kind == EX_BINARY && e->op == OP_EQ && e->args[0]->kind == EX_COL &&
                    e->args[1]->kind == EX_COL && sides(e->args[0], nl) != sides(e->args[1], nl)) {
                    int x = e->args[0]->col, y = e->args[1]->col;
                    if (x >= nl) {
                        int t = x;
                        x = y;
                        y = t;
                    }
                    c->lkeys[c->n_keys] = x;
                    c->rkeys[c->n_keys] = y - nl;
                    c->n_keys++;
                    if (p->kind == LP_IJOIN)
                        note(o, "FUSE-001", "Equality fused into the interval join as a partition key", text_of(o, e));
                    else
                        note(o, "FUSE-002", "Condition fused into the join", text_of(o, e));
                    continue;
                }
                if (p->kind == LP_IJOIN) {
                    conj_push(o, rest, e);
                    continue;
                }
                conj_push(o, &resid, e);
                note(o, "FUSE-002", "Condition fused into the join", text_of(o, e));
            }
            if (p->kind == LP_JOIN) {
                if (resid.n) {
                    Expr **all = nalloc(o, (size_t)(resid.n + 1) * sizeof *all);
                    if (!all) return c;
                    int k = 0;
                    if (c->residual) all[k++] = c->residual;
                    for (int i = 0; i < resid.n; i++) all[k++] = resid.items[i];
                    c->residual = and_all(o, all, k);
                }
                if (c->join_kind == JOIN_CROSS) c->join_kind = JOIN_INNER;
            }
        }
        return c;
    }
    case LP_WJOIN: {
        /* a WJOIN keeps each left row with aggregates of its own window: a condition on the
         * left columns alone filters the left input as well */
        int nl = p->in[0]->schema.n;
        Conj left = {0};
        for (int i = 0; i < in->n; i++) {
            if (sides(in->items[i], nl) == 1) conj_push(o, &left, in->items[i]);
            else conj_push(o, rest, in->items[i]);
        }
        if (left.n == 0) return p;
        LPlan *c = copy_plan(o, p);
        if (!c) return p;
        for (int i = 0; i < left.n; i++)
            note(o, "PUSH-003", "Selection pushed into a join input", text_of(o, left.items[i]));
        c->in[0] = sink(o, p->in[0], left.items, left.n);
        return c;
    }
    default:
        for (int i = 0; i < in->n; i++) conj_push(o, rest, in->items[i]);
        return p;
    }
}

static LPlan *optimize(Opt *o, LPlan *p) {
    if (!p || o->rc < 0) return p;
    if (p->kind == LP_SELECT) {
        Expr *pred = fold(o, p->pred);
        LPlan *child = optimize(o, p->in[0]);
        Conj all = {0}, rest = {0};
        split(o, pred, &all);
        Conj keep = {0};
        for (int i = 0; i < all.n; i++) {
            if (is_bool_const(all.items[i], true)) {
                note(o, "FOLD-002", "Condition that is always true removed", text_of(o, all.items[i]));
                continue;
            }
            conj_push(o, &keep, all.items[i]);
        }
        LPlan *below = keep.n ? push_into(o, child, &keep, &rest) : child;
        if (rest.n == 0) return below;
        return select_over(o, below, rest.items, rest.n, p);
    }
    LPlan *in0 = optimize(o, p->in[0]);
    LPlan *in1 = optimize(o, p->in[1]);
    if (in0 == p->in[0] && in1 == p->in[1]) return p;
    LPlan *c = copy_plan(o, p);
    if (!c) return p;
    c->in[0] = in0;
    c->in[1] = in1;
    return c;
}

/* ---- interval joins written by hand (IJOIN-001) ---------------------------------------------- */

/* One comparison of the join condition between a left column l and a right column r (its index
 * in the right input), normalized to "l op r". */
typedef struct {
    int l, r;
    AstOp op;
    int conj;            /* its index among the residual's conjuncts */
} Atom;

/* The relations a conjunction of endpoint inequalities can stand for, most comparisons first:
 * each comparison as (left role, op, right role), roles 0 ls, 1 le, 2 rs, 3 re. Those with an
 * equality (MEETS, STARTS, ...) are hash joins already. A lone inequality (PRECEDES' shape) is
 * left to the theta join: its output is a large share of the product whichever way it runs,
 * and the nested loop stops at Ctrl-C and under the memory limit as it goes. Two relations
 * with the same shape
 * (INTERSECTS and DURING, COVERS and COVERED_BY) are the same predicate under another naming
 * of the columns, so the first is taken. */
static const struct {
    IjRelation rel;
    int n;
    struct { int lr; AstOp op; int rr; } a[3];
} IJ_SHAPES[] = {
    {IJ_OVERLAPS, 3, {{0, OP_LT, 2}, {1, OP_GT, 2}, {1, OP_LT, 3}}},
    {IJ_OVERLAPPED_BY, 3, {{0, OP_GT, 2}, {0, OP_LT, 3}, {1, OP_GT, 3}}},
    {IJ_INTERSECTS, 2, {{0, OP_LT, 3}, {1, OP_GT, 2}}},
    {IJ_COVERS, 2, {{0, OP_LE, 2}, {1, OP_GE, 3}}},
};

/* Binds the comparisons k.. of shape s to unused atoms, role by role; true when all are. */
static bool shape_bind(int s, int k, const Atom *at, int na, bool *used, int role[4], int pick[3]) {
    if (k == IJ_SHAPES[s].n) return true;
    int lr = IJ_SHAPES[s].a[k].lr, rr = IJ_SHAPES[s].a[k].rr;
    for (int i = 0; i < na; i++) {
        if (used[i] || at[i].op != IJ_SHAPES[s].a[k].op) continue;
        if ((role[lr] >= 0 && role[lr] != at[i].l) || (role[rr] >= 0 && role[rr] != at[i].r)) continue;
        int ol = role[lr], or_ = role[rr];
        role[lr] = at[i].l;
        role[rr] = at[i].r;
        used[i] = true;
        pick[k] = i;
        if (shape_bind(s, k + 1, at, na, used, role, pick)) return true;
        used[i] = false;
        role[lr] = ol;
        role[rr] = or_;
    }
    return false;
}

/* A join p (inner, left outer, semi or anti, not natural) whose residual condition holds
 * endpoint inequalities of one of IJ_SHAPES becomes that interval join, with p's equality keys
 * as partition keys; the inequalities it absorbs leave the condition. For an inner join what
 * remains is a σ above; the other kinds are rewritten only when nothing remains. p itself when
 * nothing applies. The result is the same: the interval join applies the same comparisons
 * literally, and a NULL endpoint matches nothing as a NULL comparison does. */
static LPlan *ijoin_written(Opt *o, LPlan *p) {
    int kind = p->join_kind;
    if (p->kind != LP_JOIN || !p->residual || p->right_out ||
        (kind != JOIN_INNER && kind != JOIN_LEFT && kind != JOIN_SEMI && kind != JOIN_ANTI))
        return p;
    int nl = p->in[0]->schema.n;
    Conj all = {0};
    split(o, p->residual, &all);
    Atom *at = nalloc(o, (size_t)(all.n + 1) * sizeof *at);
    bool *used = nalloc(o, (size_t)(all.n + 1) * sizeof *used);
    if (!at || !used) return p;
    int na = 0;
    for (int i = 0; i < all.n; i++) {
        const Expr *e = all.items[i];
        if (e->kind != EX_BINARY || (e->op != OP_LT && e->op != OP_LE && e->op != OP_GT && e->op != OP_GE) ||
            e->args[0]->kind != EX_COL || e->args[1]->kind != EX_COL)
            continue;
        int a = e->args[0]->col, b = e->args[1]->col;
        if ((a < nl) == (b < nl)) continue;
        AstOp op = e->op;
        if (a >= nl) {
            int t = a;
            a = b;
            b = t;
            op = op == OP_LT ? OP_GT : op == OP_LE ? OP_GE : op == OP_GT ? OP_LT : OP_LE;
        }
        at[na++] = (Atom){a, b - nl, op, i};
    }
    for (size_t s = 0; s < RX_ARRAY_LEN(IJ_SHAPES); s++) {
        int role[4] = {-1, -1, -1, -1}, pick[3] = {0};
        memset(used, 0, (size_t)(all.n + 1) * sizeof *used);
        if (!shape_bind((int)s, 0, at, na, used, role, pick)) continue;
        RxType t[4] = {p->in[0]->schema.cols[role[0]].type, p->in[0]->schema.cols[role[1]].type,
                       p->in[1]->schema.cols[role[2]].type, p->in[1]->schema.cols[role[3]].type};
        bool same = type_endpoint_family(t[0]) != 0;
        for (int k = 1; k < 4; k++) same = same && type_endpoint_family(t[k]) == type_endpoint_family(t[0]);
        if (!same) continue;
        Conj rest = {0};
        bool *gone = nalloc(o, (size_t)(all.n + 1) * sizeof *gone);
        if (!gone) return p;
        memset(gone, 0, (size_t)(all.n + 1) * sizeof *gone);
        for (int k = 0; k < IJ_SHAPES[s].n; k++) gone[at[pick[k]].conj] = true;
        for (int i = 0; i < all.n; i++)
            if (!gone[i]) conj_push(o, &rest, all.items[i]);
        if (rest.n && kind != JOIN_INNER) continue;
        LPlan *c = copy_plan(o, p);
        if (!c) return p;
        c->kind = LP_IJOIN;
        c->relation = IJ_SHAPES[s].rel;
        c->point = false;
        c->residual = NULL;
        for (int k = 0; k < 4; k++) c->ends[k] = role[k];
        const ColInfo *ci[4] = {&p->in[0]->schema.cols[role[0]], &p->in[0]->schema.cols[role[1]],
                                &p->in[1]->schema.cols[role[2]], &p->in[1]->schema.cols[role[3]]};
        const char *nm[4];
        for (int k = 0; k < 4; k++)
            nm[k] = ci[k]->qual ? arena_printf(o->a, "%s.%s", ci[k]->qual, ci[k]->base ? ci[k]->base : ci[k]->name)
                                : ci[k]->name;
        note(o, "IJOIN-001", "Range join written by hand runs as an interval join",
             arena_printf(o->a, "IJOIN %s%s (%s, %s, %s, %s)",
                          kind == JOIN_LEFT ? "LEFT " : kind == JOIN_SEMI ? "SEMI " : kind == JOIN_ANTI ? "ANTI " : "",
                          ij_relation_name(c->relation), nm[0], nm[1], nm[2], nm[3]));
        return rest.n ? select_over(o, c, rest.items, rest.n, NULL) : c;
    }
    return p;
}

/* Applies ijoin_written to every join of p, bottom up (changed nodes are copies). */
static LPlan *ijoin_rewrite(Opt *o, LPlan *p) {
    if (!p || o->rc < 0) return p;
    LPlan *in0 = ijoin_rewrite(o, p->in[0]);
    LPlan *in1 = ijoin_rewrite(o, p->in[1]);
    LPlan *c = p;
    if (in0 != p->in[0] || in1 != p->in[1]) {
        if (!(c = copy_plan(o, p))) return p;
        c->in[0] = in0;
        c->in[1] = in1;
    }
    return c->kind == LP_JOIN ? ijoin_written(o, c) : c;
}

/* ---- AS-OF joins written by hand (ASOF-001) ---------------------------------------------- */

/* A γ over an inner join whose condition is equality keys and one inequality between a left
 * column lt and a right column rt (say lt >= rt), with the greatest rt as its aggregate (the
 * least, for lt <= rt): the join pairs each left row with every right row at or before it, and
 * the greatest of those is the one row an AS-OF join picks. So the join becomes ASOF INNER with
 * the same keys and comparison, and the γ stays above it. The two are equal, rows and order,
 * when every γ key is a left column and every aggregate is that max (min) of rt, or min, max,
 * first or last of a left column:
 *   - a group is there iff one of its left rows has a partner, in both (INNER; a NULL key or
 *     time matches nothing in either);
 *   - the max over a group of the pairs' rt is the max over its left rows of each row's own
 *     greatest rt, which is that row's AS-OF match;
 *   - a left column's min and max do not depend on how often each row repeats, and its first
 *     and last come from the group's first and last left row with a partner in both (a join's
 *     rows come in left order);
 *   - groups come in the order of their first row, the same left row in both.
 * Right rows tied at the greatest rt hold one value: the rewrite applies only to match columns
 * whose equal keys are equal values (INT, TIMESTAMP, DATE, TIME: not FLOAT, where -0 = 0, nor
 * TEXT), of one type on both sides, and to keys of one type on both sides that hash alike in both
 * joins (not FLOAT or DURATION). g itself otherwise. */
static LPlan *asof_written(Opt *o, LPlan *g) {
    LPlan *j = g->in[0];
    if (g->kind != LP_GROUP || j->kind != LP_JOIN || j->join_kind != JOIN_INNER || j->right_out || !j->residual)
        return g;
    const Expr *e = j->residual;
    int nl = j->in[0]->schema.n;
    if (e->kind != EX_BINARY || (e->op != OP_LT && e->op != OP_LE && e->op != OP_GT && e->op != OP_GE) ||
        e->args[0]->kind != EX_COL || e->args[1]->kind != EX_COL)
        return g;
    int a = e->args[0]->col, b = e->args[1]->col;
    AstOp op = e->op;
    if ((a < nl) == (b < nl)) return g;
    if (a >= nl) {
        int t = a;
        a = b;
        b = t;
        op = op == OP_LT ? OP_GT : op == OP_LE ? OP_GE : op == OP_GT ? OP_LT : OP_LE;
    }
    RxType lt = j->in[0]->schema.cols[a].type, rt = j->in[1]->schema.cols[b - nl].type;
    if (lt != rt || (lt != TY_INT && lt != TY_TIMESTAMP && lt != TY_DATE && lt != TY_TIME)) return g;
    for (int k = 0; k < j->n_keys; k++) {
        RxType kt = j->in[0]->schema.cols[j->lkeys[k]].type;
        if (kt != j->in[1]->schema.cols[j->rkeys[k]].type || kt == TY_FLOAT || kt == TY_DURATION || kt == TY_NULL)
            return g;
    }
    bool backward = op == OP_GE || op == OP_GT;
    bool on_match = false;
    for (int k = 0; k < g->n_group; k++)
        if (g->group[k]->kind != EX_COL || g->group[k]->col >= nl) return g;
    for (int k = 0; k < g->n_aggs; k++) {
        const AggSpec *ag = &g->aggs[k];
        if (ag->distinct || !ag->arg || ag->arg->kind != EX_COL) return g;
        int c = ag->arg->col;
        if (c == b && ag->fn == (backward ? AGG_MAX : AGG_MIN)) {
            on_match = true;
            continue;
        }
        if (c >= nl || (ag->fn != AGG_MIN && ag->fn != AGG_MAX && ag->fn != AGG_FIRST && ag->fn != AGG_LAST))
            return g;
    }
    if (!on_match) return g;
    LPlan *as = copy_plan(o, j), *c = copy_plan(o, g);
    if (!as || !c) return g;
    as->kind = LP_ASOF;
    as->dir = op == OP_GE ? ASOF_BACKWARD : op == OP_GT ? ASOF_BACKWARD_STRICT : op == OP_LE ? ASOF_FORWARD
            : ASOF_FORWARD_STRICT;
    as->inner = true;
    as->ties_first = as->nearest = as->ties_all = as->has_within = false;
    as->asof_k = 0;
    as->lmatch = a;
    as->rmatch = b - nl;
    as->residual = NULL;
    c->in[0] = as;
    const ColInfo *ci[2] = {&j->in[0]->schema.cols[a], &j->in[1]->schema.cols[b - nl]};
    const char *nm[2];
    for (int k = 0; k < 2; k++)
        nm[k] = ci[k]->qual ? arena_printf(o->a, "%s.%s", ci[k]->qual, ci[k]->base ? ci[k]->base : ci[k]->name)
                            : ci[k]->name;
    note(o, "ASOF-001", "Nearest match per row written by hand (γ max or min over a range join) runs as an AS-OF join",
         arena_printf(o->a, "ASOF INNER %s %s %s (%d key%s)", nm[0], op_text(op), nm[1], j->n_keys,
                      j->n_keys == 1 ? "" : "s"));
    return c;
}

/* Applies asof_written to every γ of p, bottom up (changed nodes are copies). */
static LPlan *asof_rewrite(Opt *o, LPlan *p) {
    if (!p || o->rc < 0) return p;
    LPlan *in0 = asof_rewrite(o, p->in[0]);
    LPlan *in1 = asof_rewrite(o, p->in[1]);
    LPlan *c = p;
    if (in0 != p->in[0] || in1 != p->in[1]) {
        if (!(c = copy_plan(o, p))) return p;
        c->in[0] = in0;
        c->in[1] = in1;
    }
    return c->kind == LP_GROUP ? asof_written(o, c) : c;
}

LPlan *rw_optimize(Arena *a, LPlan *p, RewriteLog *log, int *rc) {
    Opt o = {.a = a, .log = log, .rc = 0};
    LPlan *r = optimize(&o, p);
    r = ijoin_rewrite(&o, r);
    r = asof_rewrite(&o, r);
    if (o.rc < 0) *rc = -1;
    return r;
}
