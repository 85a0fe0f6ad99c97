/*
 * session_report.c - what the HTML report shows of each query (session_report.h), taken from
 * the stages' own records so that the page never tells a different story than --explain:
 *
 *   1. While the query runs, the executor hands every interval and AS-OF join's inputs and
 *      matches to srep_on_join, which keeps the inputs (sharing their columns: no copy) and the
 *      first REPORT_PAIRS matches (for AS-OF, of the first REPORT_PAIRS probes); under a
 *      focus (srep_focus), the first REPORT_PAIRS interval-join pairs in it, and their count.
 *   2. Once it has run, srep_query walks the plan: its scans give the data flow's input tables
 *      (each relation once, with the columns the query reads), the result follows, then the
 *      rewrite log as --explain prints it, the plan's lines from plan_lines (EXPLAIN's own
 *      walk) with what each operator did (ExecNodeStats), the run notes, and a timeline for each
 *      join node in plan order.
 *   3. The kept inputs are released after the section is written, or by srep_error when the
 *      query failed.
 */
#include "api/session_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/number.h"
#include "types/temporal.h"

typedef struct {
    const PNode *node;
    Table *l, *r;          /* shared copies of the join's inputs */
    uint32_t *pl, *pr;     /* IJOIN: the first pairs; AS-OF: pr is the first probes' matches */
    size_t n_shown, n_total, n_matched;
    size_t n_all;          /* IJOIN under a focus: all its pairs (n_total: those in focus) */
    bool probes_focused;   /* AS-OF under a focus: pl holds the drawn probes' rows */
    size_t n_focus;        /* AS-OF under a focus: the probes in it */
    char *focus_error;     /* the focus does not apply to this join, and why; NULL: it does */
} JoinTrace;

struct SessionReport {
    RxSink sink;
    HtmlReport *h;
    JoinTrace *traces;
    size_t n_traces, cap_traces;
    char *key;             /* srep_focus: the left partition key's text, or NULL */
    char *from, *to;       /* srep_focus: the window's bounds as given, or NULL */
    char *focus;           /* how the page describes the focus, or NULL */
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
        free(t->focus_error);
    }
    sr->n_traces = 0;
}

static void free_focus(SessionReport *sr) {
    free(sr->key), free(sr->from), free(sr->to), free(sr->focus);
    sr->key = sr->from = sr->to = sr->focus = NULL;
}

int srep_focus(SessionReport *sr, const char *key, const char *window) {
    free_focus(sr);
    if (window) {
        const char *comma = strchr(window, ',');
        if (!comma || comma == window || !comma[1]) return -1;
        sr->from = strndup(window, (size_t)(comma - window));
        sr->to = strdup(comma + 1);
        if (!sr->from || !sr->to) {
            free_focus(sr);
            return -1;
        }
    }
    if (key && !(sr->key = strdup(key))) {
        free_focus(sr);
        return -1;
    }
    if (!key && !window) return 0;
    StrBuf b;
    sb_init(&b);
    if (key) sb_printf(&b, "the left key %s", key);
    if (window) sb_printf(&b, "%sthe window [%s, %s]", key ? " and " : "", sr->from, sr->to);
    sr->focus = b.p ? b.p : strdup("");
    if (!sr->focus) free_focus(sr);
    return sr->focus ? 0 : -1;
}

/* ---- the focus of interval-join timelines ---------------------------------------------------- */

/* A window bound or an endpoint, comparable with the other values of its column's type. */
typedef struct {
    bool text;
    double v;
    RxStr s;
} Point;

/* Value i of endpoint column c; false when NULL or of a type without an order here. */
static bool endpoint(const Column *c, size_t i, Point *p) {
    if (col_is_null(c, i)) return false;
    p->text = false;
    switch (c->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: p->v = (double)col_i64(c)[i]; return true;
    case TY_FLOAT: p->v = col_f64(c)[i]; return true;
    case TY_DATE: p->v = (double)col_i32(c)[i]; return true;
    case TY_TEXT: p->text = true, p->s = col_text(c, i); return true;
    default: return false;
    }
}

/* text as a value of type t (a window bound); false when it is not one. */
static bool bound(RxType t, const char *text, Point *p) {
    size_t n = strlen(text);
    const char *why;
    int64_t i;
    int32_t d;
    p->text = false;
    switch (t) {
    case TY_INT: case TY_FLOAT:
        if (num_parse_float(text, n, &p->v) < 0) return false;
        return true;
    case TY_TIMESTAMP: if (tm_parse_timestamp(text, n, &i, &why) < 0) return false; p->v = (double)i; return true;
    case TY_TIME: if (tm_parse_time(text, n, &i, &why) < 0) return false; p->v = (double)i; return true;
    case TY_DATE: if (tm_parse_date(text, n, &d, &why) < 0) return false; p->v = d; return true;
    case TY_TEXT: p->text = true, p->s = (RxStr){text, n}; return true;
    default: return false;
    }
}

static int point_cmp(const Point *a, const Point *b) {
    if (a->text) return rx_str_cmp(&a->s, &b->s);
    return a->v < b->v ? -1 : a->v > b->v;
}

/* Whether row i's interval [cs, ce] (either order) meets the window [lo, hi]. */
static bool meets(const Column *cs, const Column *ce, size_t i, const Point *lo, const Point *hi) {
    Point a, b;
    if (!endpoint(cs, i, &a) || !endpoint(ce, i, &b)) return false;
    if (point_cmp(&a, &b) > 0) {
        Point x = a;
        a = b, b = x;
    }
    return point_cmp(&a, hi) <= 0 && point_cmp(&b, lo) >= 0;
}

/* Whether left row a's partition key prints as sr->key; key_ok caches the answer per row
 * (0 not known yet, 1 yes, 2 no), kt is scratch. */
static bool key_in_focus(const SessionReport *sr, const Table *l, const LPlan *lp, size_t a,
                         uint8_t *key_ok, StrBuf *kt) {
    if (!key_ok[a]) {
        kt->n = 0;
        for (int k = 0; k < lp->n_keys; k++) {
            if (k) sb_puts(kt, ", ");
            out_value_text(l->cols[lp->lkeys[k]], a, "NULL", kt);
        }
        key_ok[a] = kt->n == strlen(sr->key) && memcmp(kt->p ? kt->p : "", sr->key, kt->n) == 0 ? 1 : 2;
    }
    return key_ok[a] == 1;
}

/* Keeps in t the first REPORT_PAIRS probes of an AS-OF join (match[i]: left row i's match)
 * whose left key is sr->key and whose match value lies in the window, with their matches;
 * counts them all in t->n_focus; or sets t->focus_error when the focus cannot apply. 0, or -1
 * when out of memory. */
static int focus_probes(SessionReport *sr, JoinTrace *t, const LPlan *lp, const uint32_t *match, size_t n) {
    const Table *l = t->l;
    const Column *mc = l->cols[lp->lmatch];
    Point lo, hi;
    char why[300];
    why[0] = 0;
    if (sr->key && lp->n_keys == 0) snprintf(why, sizeof why, "the join has no partition key, so the key %s picks nothing", sr->key);
    if (sr->from && !why[0] && (!bound(mc->type, sr->from, &lo) || !bound(mc->type, sr->to, &hi)))
        snprintf(why, sizeof why, "the window [%s, %s] is not of the match column's type, %s", sr->from, sr->to, type_name(mc->type));
    if (why[0]) return (t->focus_error = strdup(why)) ? 0 : -1;
    uint8_t *key_ok = NULL;
    if (sr->key && !(key_ok = calloc(l->n_rows + 1, 1))) return -1;
    StrBuf kt;
    sb_init(&kt);
    t->probes_focused = true;
    t->n_focus = 0;
    for (size_t a = 0; a < n; a++) {
        if (key_ok && !key_in_focus(sr, l, lp, a, key_ok, &kt)) continue;
        Point v;
        if (sr->from && (!endpoint(mc, a, &v) || point_cmp(&v, &lo) < 0 || point_cmp(&v, &hi) > 0)) continue;
        if (t->n_focus < REPORT_PAIRS) {
            t->pl[t->n_focus] = (uint32_t)a;
            t->pr[t->n_focus] = match[a];
        }
        t->n_focus++;
    }
    t->n_shown = t->n_focus < REPORT_PAIRS ? t->n_focus : REPORT_PAIRS;
    sb_free(&kt);
    free(key_ok);
    return 0;
}

/* Keeps in t the first REPORT_PAIRS pairs of an interval join that are in sr's focus, counts
 * them all in t->n_total; or sets t->focus_error when the focus cannot apply. 0, or -1 when
 * out of memory. */
static int focus_pairs(SessionReport *sr, JoinTrace *t, const LPlan *lp, const uint32_t *li,
                       const uint32_t *ri, size_t n) {
    const Table *l = t->l, *r = t->r;
    Point lo[2], hi[2];
    const Column *ec[4] = {l->cols[lp->ends[0]], l->cols[lp->ends[1]], r->cols[lp->ends[2]], r->cols[lp->ends[3]]};
    char why[300];
    why[0] = 0;
    if (sr->key && lp->n_keys == 0) snprintf(why, sizeof why, "the join has no partition key, so the key %s picks nothing", sr->key);
    for (int side = 0; sr->from && !why[0] && side < 2; side++) {
        RxType ty = ec[side * 2]->type;
        if ((ty == TY_TEXT) != (ec[side * 2 + 1]->type == TY_TEXT) || !bound(ty, sr->from, &lo[side]) ||
            !bound(ty, sr->to, &hi[side]))
            snprintf(why, sizeof why, "the window [%s, %s] is not of the endpoints' type, %s", sr->from, sr->to, type_name(ty));
    }
    if (why[0]) return (t->focus_error = strdup(why)) ? 0 : -1;
    uint8_t *key_ok = NULL;   /* per left row: 0 not known yet, 1 in focus, 2 not */
    if (sr->key && !(key_ok = calloc(l->n_rows + 1, 1))) return -1;
    StrBuf kt;
    sb_init(&kt);
    t->n_all = n;
    t->n_total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t a = li[i], b = ri[i];
        if (key_ok && !key_in_focus(sr, l, lp, a, key_ok, &kt)) continue;
        if (sr->from && (!meets(ec[0], ec[1], a, &lo[0], &hi[0]) || !meets(ec[2], ec[3], b, &lo[1], &hi[1])))
            continue;
        if (t->n_total < REPORT_PAIRS) {
            t->pl[t->n_total] = (uint32_t)a;
            t->pr[t->n_total] = (uint32_t)b;
        }
        t->n_total++;
    }
    t->n_shown = t->n_total < REPORT_PAIRS ? t->n_total : REPORT_PAIRS;
    sb_free(&kt);
    free(key_ok);
    return 0;
}

int srep_finish(SessionReport *sr) {
    if (!sr) return -1;
    drop_traces(sr);
    free(sr->traces);
    free_focus(sr);
    int rc = report_finish(sr->h);
    free(sr);
    return rc;
}

void srep_free(SessionReport *sr) {
    if (!sr) return;
    drop_traces(sr);
    free(sr->traces);
    free_focus(sr);
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
    if (sr->focus) {
        for (size_t i = 0; (p->kind == PN_ASOF || p->kind == PN_WJOIN) && i < n; i++) t.n_matched += ri[i] != ROW_NONE;
        if ((p->kind == PN_IJOIN ? focus_pairs(sr, &t, p->lp, li, ri, n) : focus_probes(sr, &t, p->lp, ri, n)) < 0) {
            table_free(t.l), table_free(t.r), free(t.pl), free(t.pr);
            return;
        }
        sr->traces[sr->n_traces++] = t;
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
                     .peak_bytes = st->peak_bytes, .limit_bytes = rx_memory_limit()};
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
    /* a WJOIN is drawn as an AS-OF join: each left row to the latest right row of its window */
    bool probe = p->kind == PN_ASOF || p->kind == PN_WJOIN;
    const JoinTrace *t = p->kind == PN_IJOIN || probe ? find_trace(sr, p) : NULL;
    const char *names[16];
    int nk = lp->n_keys < 16 ? lp->n_keys : 16;
    for (int k = 0; k < nk && (p->kind == PN_IJOIN || probe); k++)
        names[k] = lp->in[0]->schema.cols[lp->lkeys[k]].name;
    if ((p->kind == PN_IJOIN || probe) && t && t->focus_error) {
        report_no_timeline(sr->h, title, t->focus_error);
    } else if (p->kind == PN_IJOIN && t) {
        char setname[256];
        RepIJoin j = {.title = title,
                      .relation = lp->relset ? ij_set_name(lp->relset, setname, sizeof setname)
                                             : ij_relation_name(lp->relation),
                      .left_name = side_name(lp->in[0], lp->ends[0], "left"),
                      .right_name = side_name(lp->in[1], lp->ends[2], "right"),
                      .l = t->l, .r = t->r, .n_keys = nk, .lkeys = lp->lkeys, .rkeys = lp->rkeys,
                      .key_names = names, .pl = t->pl, .pr = t->pr, .n_shown = t->n_shown,
                      .n_pairs = t->n_total, .focus = t->n_all ? sr->focus : NULL,
                      .n_all = t->n_all};
        memcpy(j.ends, lp->ends, sizeof j.ends);
        report_ijoin(sr->h, &j);
    } else if (probe && t) {
        RepAsof j = {.title = title, .left_name = side_name(lp->in[0], lp->lmatch, "left"),
                     .right_name = side_name(lp->in[1], lp->rmatch, "right"), .l = t->l, .r = t->r,
                     .lmatch = lp->lmatch, .rmatch = lp->rmatch, .n_keys = nk, .lkeys = lp->lkeys,
                     .rkeys = lp->rkeys, .key_names = names,
                     .backward = p->kind == PN_WJOIN || lp->dir == ASOF_BACKWARD || lp->dir == ASOF_BACKWARD_STRICT,
                     .has_within = p->kind == PN_ASOF && lp->has_within, .within = lp->within, .match = t->pr,
                     .n_shown = t->n_shown, .n_probes = t->n_total, .n_matched = t->n_matched,
                     .probe = t->probes_focused ? t->pl : NULL,
                     .focus = t->probes_focused ? sr->focus : NULL, .n_focus = t->n_focus};
        report_asof(sr->h, &j);
    } else if (p->kind == PN_IJOIN || probe) {
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
