/*
 * session_report.c - what the HTML report shows of each query (session_report.h), taken from
 * the stages' own records so that the page never tells a different story than --explain:
 *
 *   1. While the query runs, the executor hands every interval and AS-OF join's inputs and
 *      matches to srep_on_join, which keeps the inputs (sharing their columns: no copy) and the
 *      first REPORT_PAIRS matches (for AS-OF, of the first REPORT_PAIRS probes).
 *   2. Once it has run, srep_query walks the plan: its scans give the data flow's input tables
 *      (each relation once, with the columns the query reads), the result follows, then the
 *      rewrite log as --explain prints it, the plan's lines from plan_lines (EXPLAIN's own
 *      walk) with each operator's actual row count, the run notes, and a timeline for each
 *      join node in plan order.
 *   3. The kept inputs are released after the section is written, or by srep_error when the
 *      query failed.
 */
#include "exec/session_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const PNode *node;
    Table *l, *r;          /* shared copies of the join's inputs */
    uint32_t *pl, *pr;     /* IJOIN: the first pairs; AS-OF: pr is the first probes' matches */
    size_t n_shown, n_total, n_matched;
} JoinTrace;

struct SessionReport {
    RxSink sink;
    HtmlReport *h;
    JoinTrace *traces;
    size_t n_traces, cap_traces;
};

SessionReport *srep_new(const char *title, int (*write)(void *ud, const char *p, size_t n), void *ud) {
    SessionReport *sr = calloc(1, sizeof *sr);
    if (!sr) return NULL;
    sr->sink.write = write;
    sr->sink.ud = ud;
    sr->h = report_new(&sr->sink, title ? title : "Relix");
    if (!sr->h) {
        free(sr);
        return NULL;
    }
    return sr;
}

static void drop_traces(SessionReport *sr) {
    for (size_t i = 0; i < sr->n_traces; i++) {
        JoinTrace *t = &sr->traces[i];
        table_free(t->l);
        table_free(t->r);
        free(t->pl);
        free(t->pr);
    }
    sr->n_traces = 0;
}

int srep_finish(SessionReport *sr) {
    if (!sr) return -1;
    drop_traces(sr);
    free(sr->traces);
    int rc = report_finish(sr->h);
    free(sr);
    return rc;
}

void srep_free(SessionReport *sr) {
    if (!sr) return;
    drop_traces(sr);
    free(sr->traces);
    report_discard(sr->h);
    free(sr);
}

/* A table sharing t's columns (placeholders stay placeholders). */
static Table *share(const Table *t) {
    Table *c = table_new(t->n_cols, t->n_rows);
    if (!c) return NULL;
    for (int i = 0; i < t->n_cols; i++) {
        col_retain(t->cols[i]);
        if (table_set(c, i, t->cols[i], t->names[i]) < 0) {
            table_free(c);
            return NULL;
        }
    }
    return c;
}

void srep_on_join(void *ud, const PNode *p, const Table *l, const Table *r, const uint32_t *li,
                  const uint32_t *ri, size_t n) {
    SessionReport *sr = ud;
    if (sr->n_traces == sr->cap_traces) {
        size_t cap = sr->cap_traces ? sr->cap_traces * 2 : 4;
        JoinTrace *t = realloc(sr->traces, cap * sizeof *t);
        if (!t) return;
        sr->traces = t;
        sr->cap_traces = cap;
    }
    JoinTrace t = {.node = p, .n_total = n};
    t.n_shown = n < REPORT_PAIRS ? n : REPORT_PAIRS;
    t.l = share(l);
    t.r = share(r);
    t.pl = malloc((t.n_shown + 1) * sizeof *t.pl);
    t.pr = malloc((t.n_shown + 1) * sizeof *t.pr);
    if (!t.l || !t.r || !t.pl || !t.pr) {
        table_free(t.l), table_free(t.r), free(t.pl), free(t.pr);
        return;
    }
    for (size_t i = 0; i < t.n_shown; i++) {
        t.pl[i] = li ? li[i] : (uint32_t)i;
        t.pr[i] = ri[i];
    }
    for (size_t i = 0; i < n; i++) t.n_matched += ri[i] != ROW_NONE;
    sr->traces[sr->n_traces++] = t;
}

static const JoinTrace *find_trace(const SessionReport *sr, const PNode *p) {
    for (size_t i = 0; i < sr->n_traces; i++)
        if (sr->traces[i].node == p) return &sr->traces[i];
    return NULL;
}

/* ---- data flow ------------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    const Table *t;
    uint8_t *show;        /* OR of the scans' needed columns; NULL: all */
} Input;

/* The relations the query scans; one that finds no memory is left out of the page. */
typedef struct {
    Input *items;
    size_t n, cap;
} Inputs;

static void collect_inputs(const PNode *p, Inputs *in) {
    if (!p) return;
    if (p->kind == PN_SCAN && p->lp->table) {
        const Table *t = p->lp->table;
        Input *it = NULL;
        for (size_t i = 0; i < in->n; i++)
            if (in->items[i].t == t) it = &in->items[i];
        if (!it) {
            if (in->n == in->cap) {
                size_t cap = in->cap ? in->cap * 2 : 4;
                Input *x = realloc(in->items, cap * sizeof *x);
                if (!x) return;
                in->items = x;
                in->cap = cap;
            }
            it = &in->items[in->n++];
            it->name = p->lp->rel_name;
            it->t = t;
            it->show = p->needed ? calloc((size_t)t->n_cols + 1, 1) : NULL;
        } else if (!p->needed) {
            free(it->show);
            it->show = NULL;
        }
        if (it->show && p->needed)
            for (int c = 0; c < t->n_cols && c < p->lp->schema.n; c++) it->show[c] |= p->needed[c];
    }
    collect_inputs(p->in[0], in);
    collect_inputs(p->in[1], in);
}

/* ---- plan ----------------------------------------------------------------------------------- */

typedef struct {
    HtmlReport *h;
    const ExecNodeStats *stats;
} PlanOut;

static void plan_line(void *ud, const PlanLine *line) {
    const PlanOut *po = ud;
    const ExecNodeStats *st = &po->stats[line->node->id];
    RepActual act = {.ran = st->ran, .rows = st->rows, .time_s = st->time_s, .self_s = st->self_s,
                     .peak_bytes = st->peak_bytes};
    report_plan_line(po->h, line->tree, line->label, line->rows_est, &act);
}

static const char *side_name(const LPlan *in, int col, const char *fallback) {
    const char *q = in->schema.cols[col].qual;
    return q && *q ? q : fallback;
}

static void timelines(SessionReport *sr, const PNode *p, const ExecNodeStats *stats, bool pushed) {
    if (!p) return;
    StrBuf label;
    sb_init(&label);
    plan_label(p, &label);
    const char *title = label.p ? label.p : "";
    const LPlan *lp = p->lp;
    const JoinTrace *t = p->kind == PN_IJOIN || p->kind == PN_ASOF ? find_trace(sr, p) : NULL;
    const char *names[16];
    int nk = lp->n_keys < 16 ? lp->n_keys : 16;
    for (int k = 0; k < nk && (p->kind == PN_IJOIN || p->kind == PN_ASOF); k++)
        names[k] = lp->in[0]->schema.cols[lp->lkeys[k]].name;
    if (p->kind == PN_IJOIN && t) {
        RepIJoin j = {.title = title, .relation = ij_relation_name((IjRelation)lp->relation),
                      .left_name = side_name(lp->in[0], lp->ends[0], "left"),
                      .right_name = side_name(lp->in[1], lp->ends[2], "right"),
                      .l = t->l, .r = t->r, .n_keys = nk, .lkeys = lp->lkeys, .rkeys = lp->rkeys,
                      .key_names = names, .pl = t->pl, .pr = t->pr, .n_shown = t->n_shown,
                      .n_pairs = t->n_total};
        memcpy(j.ends, lp->ends, sizeof j.ends);
        report_ijoin(sr->h, &j);
    } else if (p->kind == PN_ASOF && t) {
        RepAsof j = {.title = title, .left_name = side_name(lp->in[0], lp->lmatch, "left"),
                     .right_name = side_name(lp->in[1], lp->rmatch, "right"), .l = t->l, .r = t->r,
                     .lmatch = lp->lmatch, .rmatch = lp->rmatch, .n_keys = nk, .lkeys = lp->lkeys,
                     .rkeys = lp->rkeys, .key_names = names,
                     .backward = lp->dir == ASOF_BACKWARD || lp->dir == ASOF_BACKWARD_STRICT,
                     .has_within = lp->has_within, .within = lp->within, .match = t->pr,
                     .n_shown = t->n_shown, .n_probes = t->n_total, .n_matched = t->n_matched};
        report_asof(sr->h, &j);
    } else if (p->kind == PN_IJOIN || p->kind == PN_ASOF) {
        report_no_timeline(sr->h, title, stats[p->id].ran ? "its matches were not kept (out of memory)"
                                                : "the join did not run");
    } else if (p->kind == PN_SQL && pushed) {
        report_no_timeline(sr->h, title, "the join ran in the database as one SQL statement, whose "
                                         "result is all Relix sees of it");
    }
    sb_free(&label);
    timelines(sr, p->in[0], stats, pushed);
    timelines(sr, p->in[1], stats, pushed);
}

static void query_begin(SessionReport *sr, const RxSource *src, RxSpan span) {
    uint32_t line = 0, col = 0;
    rx_source_position(src, span.start, &line, &col);
    char where[600];
    snprintf(where, sizeof where, "%s:%u", src->name ? src->name : "", line);
    size_t end = span.end <= src->len ? span.end : src->len;
    size_t start = span.start < end ? span.start : end;
    report_query_begin(sr->h, where, src->text + start, end - start);
}

void srep_query(SessionReport *sr, const RxSource *src, RxSpan span, const RewriteLog *log,
                const PNode *plan, const ExecNodeStats *stats, const Table *result) {
    query_begin(sr, src, span);
    Inputs in = {0};
    collect_inputs(plan, &in);
    for (size_t i = 0; i < in.n; i++) report_input(sr->h, in.items[i].name, in.items[i].t, in.items[i].show);
    report_result(sr->h, result);
    for (size_t i = 0; i < in.n; i++) free(in.items[i].show);
    free(in.items);
    bool pushed = false;
    RepRewrite *rw = malloc((log->n + 1) * sizeof *rw);
    for (size_t i = 0; rw && i < log->n; i++) {
        rw[i] = (RepRewrite){log->items[i].id, log->items[i].what, log->items[i].detail};
        pushed |= strncmp(log->items[i].id, "PUSH-SQL", 8) == 0;
    }
    report_rewrites(sr->h, rw, rw ? log->n : 0);
    free(rw);
    PlanOut po = {sr->h, stats};
    plan_lines(plan, plan_line, &po);
    StrBuf notes;
    sb_init(&notes);
    exec_run_notes(plan, stats, &notes);
    if (notes.n) report_run_notes(sr->h, notes.p);
    sb_free(&notes);
    timelines(sr, plan, stats, pushed);
    report_query_end(sr->h);
    drop_traces(sr);
}

void srep_error(SessionReport *sr, const RxSource *src, RxSpan span, const char *msg) {
    drop_traces(sr);
    if (src) query_begin(sr, src, span);
    report_error(sr->h, msg);
    if (src) report_query_end(sr->h);
}
