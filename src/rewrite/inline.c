/*
 * inline.c - INLINE-001: a view reference is replaced by the view's body under a rename to the
 * view's name (so that View.column still resolves in what the body produces). The references
 * are visited in preorder, left input before right, which is the order the log lists them.
 *
 * Inlining is where views nested in views become one plan, so it is where the plan is bounded
 * (docs/grammar.md, "Limits"): no path may hold more than PARSE_MAX_REL_DEPTH operators (the
 * stages after this one recurse per level), and the plan no more than INLINE_MAX_NODES
 * operators in all (a view used twice is copied twice, so views of views can double the plan
 * at every level). The walk stops descending at the bound, so it never recurses deeper.
 */
#include "rewrite/rewrite.h"


#define INLINE_MAX_NODES 100000

typedef struct {
    Arena *a;
    RewriteLog *log;
    int rc;               /* 0, -1 out of memory, -2 a bound exceeded */
    size_t nodes;         /* operators visited so far */
    bool too_deep;        /* which bound: depth, else size */
    const LPlan *at;      /* the outermost view reference on the path where the bound was hit */
} Inliner;

/* Returns the rewritten node: a fresh copy wherever something below changed. depth counts the
 * operators above p. */
static LPlan *inline_plan(Inliner *in, LPlan *p, int depth) {
    if (!p || in->rc < 0) return p;
    bool leaf = !p->in[0] && !p->in[1];
    if (++in->nodes > INLINE_MAX_NODES || (!leaf && depth >= PARSE_MAX_REL_DEPTH)) {
        in->too_deep = in->nodes <= INLINE_MAX_NODES;
        in->rc = -2;
        in->at = NULL;
        return p;
    }
    if (p->kind == LP_VIEW) {
        LPlan *r = arena_alloc(in->a, sizeof *r);
        if (!r || rw_log(in->a, in->log, "INLINE-001", "View body inlined into the referencing query",
                         arena_printf(in->a, "view '%s' inlined", p->view_name)) < 0) {
            in->rc = -1;
            return p;
        }
        *r = *p;
        r->kind = LP_RENAME;
        r->in[0] = inline_plan(in, p->in[0], depth + 1);
        if (in->rc == -2) in->at = p; /* unwinding: the last view passed is the outermost */
        return r;
    }
    LPlan *in0 = inline_plan(in, p->in[0], depth + 1);
    LPlan *in1 = inline_plan(in, p->in[1], depth + 1);
    if (in0 == p->in[0] && in1 == p->in[1]) return p;
    LPlan *r = arena_alloc(in->a, sizeof *r);
    if (!r) {
        in->rc = -1;
        return p;
    }
    *r = *p;
    r->in[0] = in0;
    r->in[1] = in1;
    return r;
}

int rw_apply(Arena *a, LPlan **root, const RewriteOptions *opt, RewriteLog *log, RxError *err) {
    Inliner in = {.a = a, .log = log};
    *root = inline_plan(&in, *root, 0);
    if (in.rc == -2) {
        const LPlan *v = in.at;
        const LPlan *at = v ? v : *root;
        if (in.too_deep && v)
            return rx_error(err, RX_ELIMIT, at->src, at->span,
                            "query too deep once views are inlined: view '%s' and the views it "
                            "uses nest more than %d operators", v->view_name, PARSE_MAX_REL_DEPTH);
        if (in.too_deep)
            return rx_error(err, RX_ELIMIT, at->src, at->span,
                            "query too deep: more than %d nested operators", PARSE_MAX_REL_DEPTH);
        if (v)
            return rx_error(err, RX_ELIMIT, at->src, at->span,
                            "query too large once views are inlined: view '%s' expands to more "
                            "than %d operators (a view is copied at every use)", v->view_name,
                            INLINE_MAX_NODES);
        return rx_error(err, RX_ELIMIT, at->src, at->span,
                        "query too large: more than %d operators", INLINE_MAX_NODES);
    }
    int rc = in.rc;
    if (rc == 0 && !(opt && opt->no_optimize)) *root = rw_optimize(a, *root, log, &rc);
    if (rc == 0 && !(opt && opt->no_pushdown)) *root = rw_pushsql(a, *root, opt && opt->no_optimize, opt, log, &rc);
    if (rc < 0) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    return 0;
}
