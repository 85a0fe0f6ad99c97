/*
 * needed.c - projection pruning's rule (PRUNE-001): which columns of an operator's input the
 * operator reads or passes up. The planner (prunes what each node carries) and the SQL pushdown
 * (fetches only what is read above) both ask this one function.
 */
#include <string.h>

#include "rewrite/rewrite.h"

/* Sets need[e->col - offset] for every column e reads whose index is in [lo, hi). */
static void mark_expr(const Expr *e, uint8_t *need, int offset, int lo, int hi) {
    if (!e) return;
    if (e->kind == EX_COL) {
        if (e->col >= lo && e->col < hi) need[e->col - offset] = 1;
        return;
    }
    for (int i = 0; i < e->n_args; i++) mark_expr(e->args[i], need, offset, lo, hi);
}

uint8_t *rw_input_need(Arena *a, const LPlan *p, int side, const uint8_t *out) {
    const LPlan *in = p->in[side];
    int n = in->schema.n, nl = p->in[0]->schema.n;
    uint8_t *need = arena_alloc(a, (size_t)(n ? n : 1));
    if (!need) return NULL;
    switch (p->kind) {
    case LP_SELECT: case LP_RENAME: case LP_VIEW: case LP_SORT: case LP_TOP:
        for (int i = 0; i < n; i++) need[i] = out ? out[i] : 1;
        mark_expr(p->pred, need, 0, 0, n);
        for (int k = 0; k < p->n_sort; k++) mark_expr(p->sort[k].e, need, 0, 0, n);
        for (int k = 0; k < p->n_group; k++) mark_expr(p->group[k], need, 0, 0, n);
        break;
    case LP_PROJECT:
        for (int k = 0; k < p->n_items; k++) mark_expr(p->items[k], need, 0, 0, n);
        break;
    case LP_GROUP:
        for (int k = 0; k < p->n_group; k++) mark_expr(p->group[k], need, 0, 0, n);
        for (int k = 0; k < p->n_aggs; k++) {
            mark_expr(p->aggs[k].arg, need, 0, 0, n);
            mark_expr(p->aggs[k].arg2, need, 0, 0, n);
        }
        break;
    case LP_ISET:
        /* PACK and GAPS read the keys, the interval and the aggregates' arguments; the forms
         * that keep their left input's rows carry all of it, and read the right one's interval
         * and keys */
        if (side == 1) {
            memset(need, 0, (size_t)n);
            need[p->ends[2]] = need[p->ends[3]] = 1;
            for (int k = 0; k < p->n_keys; k++) need[p->rkeys[k]] = 1;
        } else if (p->iset_op == ISET_PACK || p->iset_op == ISET_GAPS) {
            memset(need, 0, (size_t)n);
            need[p->ends[0]] = need[p->ends[1]] = 1;
            for (int k = 0; k < p->n_group; k++) mark_expr(p->group[k], need, 0, 0, n);
            for (int k = 0; k < p->n_aggs; k++) mark_expr(p->aggs[k].arg, need, 0, 0, n);
        } else {
            memset(need, 1, (size_t)n);
        }
        break;
    case LP_WJOIN:
        /* the left rows pass up; the right input is read for its keys, time and arguments */
        if (side == 0) {
            for (int i = 0; i < n; i++) need[i] = out ? out[i] : 1;
            for (int k = 0; k < p->n_keys; k++) need[p->lkeys[k]] = 1;
            need[p->lmatch] = 1;
        } else {
            memset(need, 0, (size_t)n);
            for (int k = 0; k < p->n_keys; k++) need[p->rkeys[k]] = 1;
            need[p->rmatch] = 1;
            for (int k = 0; k < p->n_aggs; k++) mark_expr(p->aggs[k].arg, need, 0, 0, n);
        }
        break;
    case LP_WINDOW:
        /* the operand's columns pass up; keys, order and arguments are read */
        for (int i = 0; i < n; i++) need[i] = out ? out[i] : 1;
        for (int k = 0; k < p->n_group; k++) mark_expr(p->group[k], need, 0, 0, n);
        for (int k = 0; k < p->n_sort; k++) mark_expr(p->sort[k].e, need, 0, 0, n);
        for (int k = 0; k < p->n_wins; k++) {
            mark_expr(p->wins[k].arg, need, 0, 0, n);
            mark_expr(p->wins[k].def, need, 0, 0, n);
        }
        break;
    case LP_FILL:
        /* every column: a filled row takes each column's rule */
        for (int i = 0; i < n; i++) need[i] = out ? out[i] : 1;
        need[p->fill_col] = 1;
        for (int k = 0; k < p->n_group; k++) mark_expr(p->group[k], need, 0, 0, n);
        break;
    case LP_SETOP: case LP_DISTINCT: case LP_SCAN: case LP_SQL:
        memset(need, 1, (size_t)n);
        break;
    case LP_JOIN: case LP_IJOIN: case LP_ASOF: {
        bool semi = p->kind != LP_ASOF && (p->join_kind == JOIN_SEMI || p->join_kind == JOIN_ANTI);
        bool rsemi = p->kind == LP_JOIN && p->join_kind == JOIN_RSEMI;
        if (semi || rsemi) {
            bool output_side = (side == 0) == semi;
            for (int i = 0; i < n; i++) need[i] = output_side ? (out ? out[i] : 1) : 0;
        } else if (side == 0) {
            for (int i = 0; i < n; i++) need[i] = out ? out[i] : 1;
        } else {
            const int *ro = p->kind == LP_JOIN ? p->right_out : NULL;
            int end = p->kind == LP_ASOF && p->asof_k ? p->schema.n - 1 : p->schema.n;   /* not the rank */
            for (int k = nl; k < end; k++) need[ro ? ro[k - nl] : k - nl] |= out ? out[k] : 1;
        }
        /* keys, endpoints, match columns and the residual condition */
        for (int k = 0; k < p->n_keys; k++) need[side == 0 ? p->lkeys[k] : p->rkeys[k]] = 1;
        if (p->kind == LP_IJOIN) {
            need[p->ends[side * 2]] = 1;
            need[p->ends[side * 2 + 1]] = 1;
        }
        if (p->kind == LP_ASOF) need[side == 0 ? p->lmatch : p->rmatch] = 1;
        if (p->kind == LP_JOIN && p->residual) {
            if (side == 0) mark_expr(p->residual, need, 0, 0, nl);
            else mark_expr(p->residual, need, nl, nl, nl + n);
        }
        break;
    }
    }
    return need;
}
