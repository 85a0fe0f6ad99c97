/*
 * inline.c - INLINE-001: a view reference is replaced by the view's body under a rename to the
 * view's name (so that View.column still resolves in what the body produces). The references
 * are visited in preorder, left input before right, which is the order the log lists them.
 */
#include "rewrite/rewrite.h"

#include <string.h>

int rw_log(Arena *a, RewriteLog *log, const char *id, const char *what, const char *detail) {
    if (log->n == log->cap) {
        size_t cap = log->cap ? log->cap * 2 : 8;
        RewriteEntry *p = arena_alloc(a, cap * sizeof *p);
        if (!p) return -1;
        if (log->n) memcpy(p, log->items, log->n * sizeof *p);
        log->items = p;
        log->cap = cap;
    }
    log->items[log->n].id = id;
    log->items[log->n].what = what;
    log->items[log->n].detail = detail;
    log->n++;
    return 0;
}

/* Returns the rewritten node: a fresh copy wherever something below changed. */
LPlan *rw_inline(Arena *a, LPlan *p, RewriteLog *log, int *rc) {
    if (!p || *rc < 0) return p;
    if (p->kind == LP_VIEW) {
        LPlan *r = arena_alloc(a, sizeof *r);
        if (!r || rw_log(a, log, "INLINE-001", "View body inlined into the referencing query",
                          arena_printf(a, "view '%s' inlined", p->view_name)) < 0) {
            *rc = -1;
            return p;
        }
        *r = *p;
        r->kind = LP_RENAME;
        r->in[0] = rw_inline(a, p->in[0], log, rc);
        return r;
    }
    LPlan *in0 = rw_inline(a, p->in[0], log, rc);
    LPlan *in1 = rw_inline(a, p->in[1], log, rc);
    if (in0 == p->in[0] && in1 == p->in[1]) return p;
    LPlan *r = arena_alloc(a, sizeof *r);
    if (!r) {
        *rc = -1;
        return p;
    }
    *r = *p;
    r->in[0] = in0;
    r->in[1] = in1;
    return r;
}

int rw_apply(Arena *a, LPlan **root, const RewriteOptions *opt, RewriteLog *log, RxError *err) {
    int rc = 0;
    *root = rw_inline(a, *root, log, &rc);
    if (rc == 0 && !(opt && opt->no_optimize)) *root = rw_optimize(a, *root, log, &rc);
    if (rc == 0 && !(opt && opt->no_pushdown)) *root = rw_pushsql(a, *root, opt && opt->no_optimize, log, &rc);
    if (rc < 0) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    return 0;
}
