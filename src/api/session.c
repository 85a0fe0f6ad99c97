/*
 * session.c - the library's public face (include/relix.h): drives a script through the whole
 * pipeline, statement by statement.
 *
 *   parse (syntax) -> define and check every statement (analysis) -> for each query in order:
 *   analyze into the run's arena, rewrite, plan, execute, hand the result to the caller.
 *
 * A session owns the catalog (its definitions and their tables) and one arena per rx_exec
 * call, kept alive as long as the session because views defined in one call are used by the
 * next. Each query's plan, rewrites and result live only for its callback.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "relix.h"
#include "base/hmap.h"

#include "analysis/analysis.h"
#include "connect/connect.h"
#include "connect/sqlgen.h"
#include "exec/exec.h"
#include "exec/stream.h"
#include "api/session_arrow.h"
#include "api/session_report.h"
#include "io/io.h"
#include "io/parquet.h"
#include "plan/plan.h"
#include "rewrite/rewrite.h"
#include "syntax/syntax.h"

/* A file a query wrote (query ... into csv(...)), waiting in its temporary until the whole
 * script has run: then every one is renamed into place; an error or an interrupt removes them
 * all and leaves every target as it was. */
typedef struct {
    RxOutFile *f;
    const RxSource *src;
    RxSpan span;
} PendingFile;

struct RxSession {
    Catalog cat;
    Arena *defs;          /* the catalog's arena */
    Arena **scripts;      /* one per rx_exec call: sources, ASTs */
    size_t n_scripts, cap_scripts;
    RxError err;
    StrBuf errmsg;
    PlanOptions popt;
    RewriteOptions ropt;
    volatile sig_atomic_t interrupt;
    RxTiming timing;
    StrBuf timing_mem;      /* rx_timing_memory's lines for the last rx_exec */
    SessionReport *report;  /* an open HTML report (rx_report_begin), or NULL */
    Progress *progress;     /* the progress meter (rx_set_progress), or NULL */
    bool bare;              /* rx_set_bare_queries */
    int stream;             /* rx_set_stream */
    bool parts;             /* rx_set_result_parts */
    PendingFile *pending;   /* `into` files written, put in place when the script succeeds */
    size_t n_pending, cap_pending;
    char *temp_dir;         /* rx_set_temp_dir, or NULL */
    size_t n_parses;        /* scripts parsed since rx_open (rx_parse_count) */
    bool keep;              /* rx_execute: run_query keeps each result in *keep_at instead of
                               calling back (freeing the one before) */
    RxResult **keep_at;
    RxStmt *stmts;          /* the prepared statements not yet finalized, linked by next */
    struct ArrowArray *arrow;  /* arrays of rx_register_arrow, released when the session closes */
    size_t n_arrow, cap_arrow;
};

struct RxResult {
    Table *t;
    StrBuf explain;
    StrBuf explain_analyze;
    Arena *a;             /* for text values handed out by rx_result_text */
    StrBuf cell;
    int index, count;     /* rx_result_index, rx_result_count */
    int part;             /* rx_result_part */
    bool last;            /* rx_result_last_part */
};

/* A prepared statement (rx_prepare): its script, parsed once, and the values bound to its
 * parameters, by slot. */
struct RxStmt {
    RxSession *s;
    RxStmt *next;              /* the session's list of statements */
    Script sc;                 /* in a script arena of the session */
    const char *base_dir;      /* the script's folder, for its relative paths */
    int n;                     /* parameter slots */
    Value *values;             /* n each, malloc'd */
    bool *bound;
    char **texts;              /* a TEXT value's bytes (malloc'd), else NULL */
    RxType *hint;              /* the type each parameter is compared with (QueryParams) */
    RxSpan *hint_span;
    RxResult *res;             /* the last rx_execute's result, or NULL */
};

/* Frees what a result kept by rx_execute holds, and the result. Accepts NULL. */
static void result_free(RxResult *r) {
    if (!r) return;
    sb_free(&r->explain);
    sb_free(&r->explain_analyze);
    sb_free(&r->cell);
    table_free(r->t);
    arena_free(r->a);
    free(r);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

RxSession *rx_open(void) {
    RxSession *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->defs = arena_new();
    if (!s->defs) {
        free(s);
        return NULL;
    }
    catalog_init(&s->cat, s->defs);
    sb_init(&s->errmsg);
    /* a meter that only checks the interrupt, so that Ctrl-C stops a long CSV load too */
    s->progress = progress_new((ProgressSink){NULL, NULL}, &s->interrupt);
    if (!s->progress) {
        arena_free(s->defs);
        free(s);
        return NULL;
    }
    return s;
}

/* Removes every pending file's temporary. */
static void abort_pending(RxSession *s) {
    for (size_t i = 0; i < s->n_pending; i++) rx_outfile_abort(s->pending[i].f);
    s->n_pending = 0;
}

/* Puts every pending file in place, in the order the queries wrote them; at the first failure
 * the error names that file at its `into`, and the files not yet placed are removed. */
static int commit_pending(RxSession *s) {
    int rc = 0;
    for (size_t i = 0; i < s->n_pending; i++) {
        PendingFile *p = &s->pending[i];
        if (rc < 0) {
            rx_outfile_abort(p->f);
            continue;
        }
        RxError e;
        rx_error_clear(&e);
        if (rx_outfile_commit(p->f, &e) < 0) rc = rx_error(&s->err, e.code, p->src, p->span, "%s", e.msg);
    }
    s->n_pending = 0;
    return rc;
}

void rx_close(RxSession *s) {
    if (!s) return;
    while (s->stmts) rx_finalize(s->stmts);
    abort_pending(s);
    free(s->pending);
    srep_free(s->report);
    progress_free(s->progress);
    catalog_free(&s->cat);
    arena_free(s->defs);
    for (size_t i = 0; i < s->n_scripts; i++) arena_free(s->scripts[i]);
    free(s->scripts);
    /* after the catalog: its tables read these arrays' buffers */
    for (size_t i = 0; i < s->n_arrow; i++)
        if (s->arrow[i].release) s->arrow[i].release(&s->arrow[i]);
    free(s->arrow);
    sb_free(&s->errmsg);
    sb_free(&s->timing_mem);
    free(s->temp_dir);
    free(s);
}

void rx_set_ijoin_algo(RxSession *s, int algo) { s->popt.ijoin_algo = (IjAlgo)algo; }
void rx_set_asof_algo(RxSession *s, int algo) { s->popt.asof_algo = (AsofAlgo)algo; }
void rx_set_optimize(RxSession *s, int on) { s->ropt.no_optimize = !on; }
void rx_set_hashjoin(RxSession *s, int on) { s->popt.no_hashjoin = !on; }
void rx_set_stream(RxSession *s, int mode) { s->stream = mode; }
void rx_set_result_parts(RxSession *s, int on) { s->parts = on != 0; }
void rx_set_pushdown(RxSession *s, int on) { s->ropt.no_pushdown = !on; }
void rx_set_pushdown_form(RxSession *s, int form) {
    s->ropt.push_form = form >= PUSH_AUTO && form <= PUSH_PLAIN ? (PushForm)form : PUSH_AUTO;
}
void rx_interrupt(RxSession *s) {
    s->interrupt = 1;
    db_cancel_owned(&s->cat);   /* a statement pushed down by this session stops on the server */
}
void rx_cancel_statements(void) { db_cancel_running(); }

int rx_set_sql_dialect(RxSession *s, const char *name) {
    if (!name || !*name) {
        s->ropt.show_dialect = NULL;
        return 0;
    }
    const SqlDialect *d = sql_dialect_named(name);
    if (!d) return -1;
    s->ropt.show_dialect = d->name;
    return 0;
}

int rx_set_temp_dir(RxSession *s, const char *dir) {
    char *copy = dir && *dir ? strdup(dir) : NULL;
    if (dir && *dir && !copy) return -1;
    free(s->temp_dir);
    s->temp_dir = copy;
    return 0;
}

void rx_set_progress(RxSession *s, int (*write)(void *ud, const char *p, size_t n), void *ud) {
    Progress *p = progress_new((ProgressSink){write, ud}, &s->interrupt);
    if (!p) return;  /* out of memory: the old meter stays */
    progress_free(s->progress);
    s->progress = p;
}

int rx_report_begin(RxSession *s, const char *title, int (*write)(void *ud, const char *p, size_t n),
                    void *ud) {
    if (s->report || !write) return 1;
    s->report = srep_new(title, write, ud);
    return s->report ? 0 : 1;
}

int rx_report_focus(RxSession *s, const char *key, const char *window) {
    if (!s->report) return 1;
    return srep_focus(s->report, key, window) == 0 ? 0 : 1;
}

int rx_report_end(RxSession *s) {
    if (!s->report) return 1;
    int rc = srep_finish(s->report);
    s->report = NULL;
    return rc == 0 ? 0 : 1;
}

const char *rx_errmsg(const RxSession *s) { return s->errmsg.p ? s->errmsg.p : ""; }
int rx_errcode(const RxSession *s) { return (int)s->err.code; }

char *rx_redact_secrets(const char *text, size_t len) {
    StrBuf b;
    sb_init(&b);
    rx_redact(text, len, &b, NULL, 0);
    sb_putc(&b, 0);
    if (b.oom) {
        sb_free(&b);
        return NULL;
    }
    return b.p;
}
RxTiming rx_timing(const RxSession *s) { return s->timing; }
const char *rx_timing_memory(const RxSession *s) { return s->timing_mem.p ? s->timing_mem.p : ""; }

static int fail(RxSession *s) {
    if (s->err.code == RX_ENOMEM && rx_memory_limit_hit(true) && rx_memory_limit() > 0 &&
        strncmp(s->err.msg, "memory limit of", 15) != 0) {
        /* "out of memory joining ..." -> "memory limit of N MB exceeded while joining ..." */
        const char *what = s->err.msg;
        if (strncmp(what, "out of memory", 13) == 0) what += 13;
        while (*what == ' ' || *what == ':' || *what == ',') what++;
        if (strncmp(what, "while ", 6) == 0) what += 6;
        char msg[sizeof s->err.msg];
        char lim[32];
        rx_format_size(lim, sizeof lim, rx_memory_limit());
        snprintf(msg, sizeof msg, "memory limit of %s exceeded while %.900s", lim,
                 *what ? what : "running this statement");
        snprintf(s->err.msg, sizeof s->err.msg, "%s", msg);
    }
    sb_free(&s->errmsg);
    rx_error_format(&s->err, &s->errmsg);
    return s->err.code ? (int)s->err.code : 1;
}

/* --explain's text, or with analyze --explain analyze's (the plan with the run's figures). */
static void explain_text(const RewriteLog *log, const PNode *plan, const ExecNodeStats *stats,
                         bool analyze, bool streamed, StrBuf *out) {
    sb_puts(out, "Rewrites applied\n");
    if (log->n == 0) sb_puts(out, "  (none)\n");
    for (size_t i = 0; i < log->n; i++)
        sb_printf(out, "  • %s %s %s\n", log->items[i].id, log->items[i].what, log->items[i].detail);
    sb_puts(out, "\nPhysical plan\n");
    if (analyze) exec_explain_analyze(plan, stats, out);
    else plan_explain(plan, out);
    StrBuf notes;
    sb_init(&notes);
    if (streamed)
        sb_puts(&notes, "  Stream: the query ran chunk by chunk, its CSV files read a block at a time "
                        "(docs/memory.md); an operator's time and peak memory include its inputs', which ran "
                        "inside its calls\n");
    exec_run_notes(plan, stats, &notes);
    if (notes.n) {
        sb_puts(out, "\nRun notes\n");
        sb_append(out, notes.p, notes.n);
    }
    sb_free(&notes);
}

/* The folder of a script's file name, for relative CSV paths; "" for <stdin> and the like. */
static const char *dir_of(Arena *a, const char *name) {
    if (!name || name[0] == '<') return "";
    const char *slash = strrchr(name, '/');
    if (!slash) return "";
    return arena_strndup(a, name, (size_t)(slash - name));
}

/* Gives an error that has no position the position of the statement part that caused it. */
static void locate(RxError *err, const RxSource *src, RxSpan span) {
    if (err->code == RX_OK || err->src || !src) return;
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    RxErrCode code = err->code;
    rx_error_clear(err);
    rx_error(err, code, src, span, "%s", msg);
}

static int load_columns(void *ud, const LPlan *scan, const uint8_t *needed, RxError *err) {
    RxSession *s = ud;
    if (!scan->source) return 0;
    int rc = catalog_load_scan(&s->cat, scan, needed, err);
    if (rc < 0) locate(err, scan->src, scan->span);
    return rc;
}

/* The sink of an `into` file: stops (fails) once the run is interrupted. */
typedef struct {
    RxOutFile *f;
    volatile sig_atomic_t *interrupt;
} IntoSink;

static int write_into(void *ud, const char *p, size_t n) {
    IntoSink *w = ud;
    if (*w->interrupt) return -1;
    return rx_outfile_write(w->f, p, n);
}

/* Opens the temporary of statement st's `into` file (taken from the script's folder when
 * relative), with room kept in the pending list for it; NULL with the error at the `into`. */
static RxOutFile *open_into(RxSession *s, const Script *sc, const Stmt *st) {
    char path[4096];
    const char *dir = s->cat.base_dir;
    if (st->into_path[0] != '/' && dir && dir[0]) snprintf(path, sizeof path, "%s/%s", dir, st->into_path);
    else snprintf(path, sizeof path, "%s", st->into_path);
    if (s->n_pending == s->cap_pending) {
        size_t cap = s->cap_pending ? 2 * s->cap_pending : 4;
        PendingFile *v = realloc(s->pending, cap * sizeof *v);
        if (!v) {
            rx_error(&s->err, RX_ENOMEM, sc->src, st->into_span, "out of memory");
            return NULL;
        }
        s->pending = v;
        s->cap_pending = cap;
    }
    RxError werr;
    rx_error_clear(&werr);
    RxOutFile *f = rx_outfile_open(path, &werr);
    if (!f) rx_error(&s->err, werr.code, sc->src, st->into_span, "%s", werr.msg);
    return f;
}

/* The options of `into parquet('file', compression => 'zstd', row_group_size => N)` into *o;
 * -1 with the error at the offending option. */
static int parquet_into_options(RxSession *s, const Script *sc, const Stmt *st, PqWriteOptions *o) {
    pq_write_options_default(o);
    for (int i = 0; i < st->n_into_options; i++) {
        const CsvOption *op = &st->into_options[i];
        const AstNode *v = op->value;
        if (strcmp(op->name, "compression") == 0) {
            if (v->kind != AST_STRING || pq_codec_from_name(v->str, &o->codec) < 0)
                return rx_error(&s->err, RX_EVALUE, sc->src, v->span,
                                "compression must be 'zstd', 'snappy', 'gzip' or 'none'");
        } else if (strcmp(op->name, "row_group_size") == 0) {
            if (v->kind != AST_INT || v->ival < 1 || v->ival > (int64_t)RX_MAX_ROWS)
                return rx_error(&s->err, RX_EVALUE, sc->src, v->span,
                                "row_group_size must be a whole number of rows from 1 to %u", RX_MAX_ROWS);
            o->row_group_rows = (size_t)v->ival;
        } else {
            return rx_error(&s->err, RX_ENAME, sc->src, op->name_span,
                            "unknown parquet option '%s' (options: compression, row_group_size)", op->name);
        }
    }
    return 0;
}

/* Writes a result as CSV (RFC 4180, the --format csv writer) or Parquet (into parquet(...)) to
 * a temporary for the statement's file (taken from the script's folder when relative), which
 * joins the pending files; -1 with the error at the `into`, the temporary removed. */
static int write_csv_file(RxSession *s, const Script *sc, const Stmt *st, const Table *t) {
    PqWriteOptions po;
    if (st->into_parquet && parquet_into_options(s, sc, st, &po) < 0) return -1;
    RxOutFile *f = open_into(s, sc, st);
    if (!f) return -1;
    RxError werr;
    rx_error_clear(&werr);
    IntoSink w = {f, &s->interrupt};
    RxSink sink = {write_into, &w};
    int wrc = st->into_parquet ? pq_write(t, &po, &sink, &werr) : out_write(t, OUT_CSV, &sink, &werr);
    if (wrc < 0 && st->into_parquet && werr.code != RX_EIO && !s->interrupt) {
        /* not the file's fault (a DURATION column): the message as it is, at the `into` */
        rx_outfile_abort(f);
        return rx_error(&s->err, werr.code, sc->src, st->into_span, "%s", werr.msg);
    }
    if (wrc < 0) {
        if (s->interrupt || werr.code == RX_ENOMEM) {
            rx_outfile_abort(f);
            if (werr.code == RX_ENOMEM) return rx_error(&s->err, RX_ENOMEM, sc->src, st->into_span, "%s", werr.msg);
            return rx_error(&s->err, RX_EINTERRUPT, NULL, rx_span(0, 0), "interrupted");
        }
        rx_error_clear(&werr);
        rx_outfile_fail(f, 0);   /* keeps the errno of a failed write, if that was the cause */
        rx_outfile_commit(f, &werr);
        return rx_error(&s->err, werr.code ? werr.code : RX_EIO, sc->src, st->into_span, "%s", werr.msg);
    }
    s->pending[s->n_pending++] = (PendingFile){f, sc->src, st->into_span};
    return 0;
}

typedef struct {
    StrBuf *out;
    const ExecNodeStats *stats;
    const char *where;
} MemLines;

static void mem_line(void *ud, const PlanLine *line) {
    const MemLines *m = ud;
    const ExecNodeStats *st = &m->stats[line->node->id];
    if (!st->ran) return;
    char peak[32], share[48] = "";
    rx_format_bytes(peak, sizeof peak, st->peak_bytes);
    if (rx_memory_limit()) {
        char f[40];
        rx_format_share(f, sizeof f, st->peak_bytes, rx_memory_limit());
        snprintf(share, sizeof share, " (%s)", f);
    }
    sb_printf(m->out, "  %s  %s%s  peak=%s%s\n", m->where, line->tree, line->label, peak, share);
}

/* Appends the peak memory of every operator of plan that ran to the session's --timing lines,
 * each headed by the query's file and line. */
static void timing_memory(RxSession *s, const Script *sc, const Stmt *st, const PNode *plan,
                          const ExecNodeStats *stats) {
    char where[256];
    uint32_t line = 0, col = 0;
    if (sc->src) rx_source_position(sc->src, st->span.start, &line, &col);
    snprintf(where, sizeof where, "%s:%u", sc->src && sc->src->name ? sc->src->name : "?", line);
    MemLines m = {&s->timing_mem, stats, where};
    plan_lines(plan, mem_line, &m);
}

/* A streamed `into csv(...)`: the sink writing each chunk to the pending file. */
typedef struct {
    IntoSink w;
    bool header_done;
    const PqWriteOptions *pq;   /* into parquet(...): its options; the writer opens on the first chunk */
    PqWriter *pw;
    RxSink pq_sink;
} StreamInto;

static int write_chunk(void *ud, const Table *chunk, RxError *err) {
    StreamInto *si = ud;
    RxSink sink = {write_into, &si->w};
    if (si->pq) {
        if (!si->pw) {
            RxType *types = malloc(((size_t)chunk->n_cols + 1) * sizeof *types);
            if (!types) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            for (int j = 0; j < chunk->n_cols; j++) types[j] = chunk->cols[j]->type;
            si->pq_sink = sink;
            si->pw = pq_writer_open(&si->pq_sink, chunk->n_cols, chunk->names, types, si->pq, err);
            free(types);
            if (!si->pw) return -1;
        }
        si->header_done = true;
        return pq_writer_add(si->pw, chunk, err);
    }
    OutOptions o = {0, NULL, 0, si->header_done};
    si->header_done = true;
    return out_write_opts(chunk, OUT_CSV, &o, &sink, err);
}

/* Runs streamable plan p into the statement's `into` file chunk by chunk: the file is
 * all-or-nothing as write_csv_file's (a temporary, put in place when the script succeeds,
 * removed on error or interrupt). A γ at the root gives one row: *t is it, for the caller to
 * write with write_csv_file. -1 with the error in s->err. */
static int stream_into(RxSession *s, const Script *sc, const Stmt *st, ExecCtx *x, const PNode *p,
                       Table **t) {
    *t = NULL;
    if (p->kind == PN_GROUP) return stream_run(x, p, NULL, NULL, t, &s->err);
    PqWriteOptions po;
    if (st->into_parquet && parquet_into_options(s, sc, st, &po) < 0) return -1;
    RxOutFile *f = open_into(s, sc, st);
    if (!f) return -1;
    StreamInto si = {{f, &s->interrupt}, false, st->into_parquet ? &po : NULL, NULL, {0}};
    Table *rest = NULL;
    int rc = stream_run(x, p, write_chunk, &si, &rest, &s->err);
    if (rc == 0 && !si.header_done) {
        /* no row: the header alone, from the empty table of the result's schema */
        rc = rest ? write_chunk(&si, rest, &s->err) : rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    if (rc == 0 && si.pw) rc = pq_writer_finish(si.pw, &s->err);
    pq_writer_free(si.pw);
    table_free(rest);
    if (rc < 0) {
        rx_outfile_abort(f);
        if (s->interrupt) {
            rx_error_clear(&s->err);
            return rx_error(&s->err, RX_EINTERRUPT, NULL, rx_span(0, 0), "interrupted");
        }
        if (!s->err.src) locate(&s->err, sc->src, st->into_span);
        return -1;
    }
    s->pending[s->n_pending++] = (PendingFile){f, sc->src, st->into_span};
    return 0;
}

/* A streamed result handed to the caller's callback in parts (rx_set_result_parts). */
typedef struct {
    RxResult *r;
    RxResultFn fn;
    void *ud;
    int cb;               /* the callback's non-zero return, which stops the run */
} Parts;

static int give_part(void *ud, const Table *chunk, RxError *err) {
    Parts *p = ud;
    p->r->t = (Table *)chunk;
    p->r->part++;
    p->cb = p->fn(p->ud, p->r);
    p->r->t = NULL;
    if (p->cb) return rx_error(err, RX_EINTERRUPT, NULL, rx_span(0, 0), "stopped by the result's reader");
    return 0;
}

/* Whether a CSV file of the catalog is read by blocks (too large to hold): only then does a
 * query in the default mode look for a streaming plan. */
static bool any_streamed(const Catalog *c) {
    for (size_t i = 0; i < c->n; i++)
        if (c->defs[i]->csv && csv_streamed(c->defs[i]->csv)) return true;
    return false;
}

/* The end of run_query for a streamed result handed to fn in parts: each chunk a part, then
 * an empty last part (after which the caller prints what follows a result). Frees the query's
 * arena qa (plan, log and stats live there). */
static int run_parts(RxSession *s, const Script *sc, const Stmt *st, Arena *qa,
                     const RewriteLog *log, const PNode *plan, ExecNodeStats *stats, ExecCtx *x,
                     double t1, int index, int count, RxResultFn fn, void *ud) {
    RxResult r = {.a = qa, .index = index, .count = count};
    sb_init(&r.explain);
    sb_init(&r.explain_analyze);
    sb_init(&r.cell);
    explain_text(log, plan, stats, false, true, &r.explain);
    explain_text(log, plan, stats, true, true, &r.explain_analyze);
    Parts P = {&r, fn, ud, 0};
    Table *rest = NULL;
    int rc = stream_run(x, plan, give_part, &P, &rest, &s->err);
    if (rc == 0) {
        r.last = true;
        rc = give_part(&P, rest, &s->err);
    }
    table_free(rest);
    s->timing.streamed++;
    s->timing.run_s += now_s() - t1;
    s->timing.join_s += x->t_join_s;
    sb_free(&r.explain);
    sb_free(&r.explain_analyze);
    sb_free(&r.cell);
    arena_free(qa);
    if (P.cb) {
        rx_error_clear(&s->err);
        return P.cb;
    }
    if (rc < 0) locate(&s->err, sc->src, st->span);
    return rc;
}

/* Runs one query statement and hands its result to fn as result index of count. */
static int run_query(RxSession *s, const Script *sc, const Stmt *st, int index, int count, RxResultFn fn,
                     void *ud) {
    Arena *qa = arena_new();
    if (!qa) return rx_error(&s->err, RX_ENOMEM, NULL, st->span, "out of memory");
    double t0 = now_s();
    double load0 = s->cat.load_s;
    rx_memory_peak_mark();   /* the query's peak includes loading its columns */
    LPlan *lp = sema_query(&s->cat, qa, sc, st, &s->err);
    RewriteLog log = {0};
    const PNode *plan = NULL;   /* read-only once built */
    int pruned = 0;
    s->popt.no_prune = s->ropt.no_optimize;
    s->popt.load_columns = load_columns;
    s->popt.load_ud = s;
    bool streamed = false;
    if (lp && rw_apply(qa, &lp, &s->ropt, &log, &s->err) == 0 &&
        (lp = catalog_skip_row_groups(&s->cat, qa, lp, &s->err)) != NULL) {
        if (s->stream > 0 || (s->stream == 0 && any_streamed(&s->cat))) {
            /* planned without loading any column: a plan that streams reads its files itself */
            PlanOptions po = s->popt;
            po.load_columns = NULL;
            plan = plan_build(qa, lp, &po, &pruned, &s->err);
            streamed = plan && stream_plan_ok(plan) && (s->stream > 0 || stream_plan_pays(plan));
            if (!streamed) plan = NULL;
        }
        if (!streamed && !s->err.code) plan = plan_build(qa, lp, &s->popt, &pruned, &s->err);
    }
    if (plan && pruned && rw_log(qa, &log, "PRUNE-001", "Columns no operator above reads are not carried",
                                 arena_printf(qa, "%d operator%s only the columns used above", pruned, pruned == 1 ? " carries" : "s carry")) < 0)
        plan = NULL;
    double t1 = now_s();
    s->timing.load_s += s->cat.load_s - load0;
    s->timing.analyze_s += (t1 - t0) - (s->cat.load_s - load0);
    if (rx_memory_peak() > s->timing.peak_bytes) s->timing.peak_bytes = rx_memory_peak();
    if (!plan) {
        locate(&s->err, sc->src, st->span);
        arena_free(qa);
        return -1;
    }
    /* the run-time state of each operator, beside the read-only plan */
    ExecNodeStats *stats = arena_alloc(qa, (size_t)plan_nodes(plan) * sizeof *stats);
    if (!stats) {
        rx_error(&s->err, RX_ENOMEM, NULL, st->span, "out of memory");
        arena_free(qa);
        return -1;
    }
    ExecCtx x = {.interrupt = &s->interrupt, .stats = stats, .temp_dir = s->temp_dir};
    if (s->report) {
        x.on_join = srep_on_join;
        x.join_ud = s->report;
    }
    Table *t = NULL;
    int rc;
    if (streamed && !st->into_path && s->parts && fn && plan->kind != PN_GROUP)
        return run_parts(s, sc, st, qa, &log, plan, stats, &x, t1, index, count, fn, ud);
    if (!streamed) rc = exec_run(&x, plan, &t, &s->err);
    else if (st->into_path) rc = stream_into(s, sc, st, &x, plan, &t);
    else rc = stream_run(&x, plan, NULL, NULL, &t, &s->err);
    s->timing.streamed += streamed;
    s->timing.run_s += now_s() - t1;
    s->timing.join_s += x.t_join_s;
    if (x.peak_bytes > s->timing.peak_bytes) s->timing.peak_bytes = x.peak_bytes;
    timing_memory(s, sc, st, plan, stats);
    if (rc < 0) {
        locate(&s->err, sc->src, st->span);
        arena_free(qa);
        return -1;
    }
    RxResult r = {.t = t, .a = qa, .index = index, .count = count};
    sb_init(&r.explain);
    sb_init(&r.explain_analyze);
    sb_init(&r.cell);
    explain_text(&log, plan, stats, false, streamed, &r.explain);
    explain_text(&log, plan, stats, true, streamed, &r.explain_analyze);
    if (s->report && t) srep_query(s->report, sc->src, st->span, &log, plan, stats, t);
    if (st->into_path) {
        /* query { ... } into csv('file'): the result goes to the file, not to the caller
         * (a streamed run wrote it already, but for a γ's one row) */
        int wrc = streamed && !t ? 0 : write_csv_file(s, sc, st, t);
        sb_free(&r.explain);
        sb_free(&r.explain_analyze);
        sb_free(&r.cell);
        table_free(t);
        arena_free(qa);
        return wrc;
    }
    if (s->keep) {
        /* rx_execute: the last result stays with the statement until its next run */
        RxResult *k = malloc(sizeof *k);
        if (!k) {
            sb_free(&r.explain);
            sb_free(&r.explain_analyze);
            table_free(t);
            arena_free(qa);
            return rx_error(&s->err, RX_ENOMEM, NULL, st->span, "out of memory");
        }
        *k = r;
        result_free(*s->keep_at);
        *s->keep_at = k;
        return 0;
    }
    int cb = fn ? fn(ud, &r) : 0;
    sb_free(&r.explain);
    sb_free(&r.explain_analyze);
    sb_free(&r.cell);
    table_free(t);
    arena_free(qa);
    return cb;
}

/* An error of the script as a whole (before any query ran) in the report too. */
static int fail_script(RxSession *s) {
    int rc = fail(s);
    if (s->report) srep_error(s->report, NULL, rx_span(0, 0), rx_errmsg(s));
    return rc;
}

/* Runs the query statements of checked script sc in order, handing their results to fn;
 * 0, the callback's non-zero return, or the failure's code with the error formatted. */
static int run_queries(RxSession *s, const Script *sc, RxResultFn fn, void *ud) {
    int count = 0, index = 0;
    for (size_t i = 0; i < sc->n; i++)
        if (sc->stmts[i]->kind == ST_QUERY && !sc->stmts[i]->into_path) count++;
    for (size_t i = 0; i < sc->n; i++) {
        const Stmt *st = sc->stmts[i];
        if (st->kind != ST_QUERY) continue;
        int rc = run_query(s, sc, st, st->into_path ? 0 : ++index, count, fn, ud);
        if (rc < 0) {
            rc = fail(s);
            if (s->report) srep_error(s->report, sc->src, st->span, rx_errmsg(s));
            return rc;
        }
        if (rc > 0) return rc;
    }
    return 0;
}

/* Clears the error, the pending files and the timings before a run. */
static void run_begin(RxSession *s) {
    rx_error_clear(&s->err);
    sb_free(&s->errmsg);
    s->interrupt = 0;
    abort_pending(s);
    rx_memory_limit_hit(true);
    memset(&s->timing, 0, sizeof s->timing);
    s->timing.limit_bytes = rx_memory_limit();
    sb_free(&s->timing_mem);
}

/* Ends a run that returned rc: an interrupt is an error, and the pending `into` files are put
 * in place when the run succeeded, else removed. The final return code. */
static int run_end(RxSession *s, int rc) {
    if (s->interrupt && (rc == 0 || (s->err.code && s->err.code != RX_EINTERRUPT))) {
        /* a pushed statement the interrupt cancelled failed with the database's message */
        rx_error_clear(&s->err);
        sb_free(&s->errmsg);
        rx_error(&s->err, RX_EINTERRUPT, NULL, rx_span(0, 0), "interrupted");
        rc = fail(s);
    }
    if (rc != 0) abort_pending(s);
    else if (commit_pending(s) < 0) rc = fail(s);
    return rc;
}

/* Keeps text[0..len) under name as a new script of the session (its own arena, which lives as
 * long as the session); NULL with s->err on out of memory. */
static RxSource *keep_source(RxSession *s, const char *text, size_t len, const char *name, Arena **arena) {
    if (s->n_scripts == s->cap_scripts) {
        size_t cap = s->cap_scripts ? s->cap_scripts * 2 : 4;
        Arena **p = realloc(s->scripts, cap * sizeof *p);
        if (!p) {
            rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            return NULL;
        }
        s->scripts = p;
        s->cap_scripts = cap;
    }
    Arena *a = arena_new();
    if (!a) {
        rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return NULL;
    }
    s->scripts[s->n_scripts++] = a;
    RxSource *src = arena_alloc(a, sizeof *src);
    char *copy = arena_strndup(a, text ? text : "", text ? len : 0);
    if (!src || !copy) {
        rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return NULL;
    }
    src->name = arena_strdup(a, name ? name : "<input>");
    src->text = copy;
    src->len = text ? len : 0;
    src->first_line = 1;
    *arena = a;
    return src;
}

static int exec_script(RxSession *s, const char *text, size_t len, const char *name, RxResultFn fn, void *ud) {
    run_begin(s);
    Arena *a = NULL;
    RxSource *src = keep_source(s, text, len, name, &a);
    if (!src) return fail_script(s);
    Script sc;
    double t0 = now_s();
    s->n_parses++;
    if (parse_script_opts(a, src, s->bare, &sc, &s->err) < 0) return fail_script(s);
    s->cat.base_dir = dir_of(a, name);
    double load0 = s->cat.load_s;
    if (sema_define_script(&s->cat, &sc, &s->err) < 0) return fail_script(s);
    s->timing.load_s += s->cat.load_s - load0;
    s->timing.analyze_s += now_s() - t0 - (s->cat.load_s - load0);
    for (size_t i = 0; i < sc.n; i++) {
        /* a bad into parquet(...) option is an error before anything runs */
        PqWriteOptions po;
        if (sc.stmts[i]->into_parquet && parquet_into_options(s, &sc, sc.stmts[i], &po) < 0) return fail_script(s);
    }
    return run_queries(s, &sc, fn, ud);
}

void rx_set_bare_queries(RxSession *s, int on) { s->bare = on != 0; }

int rx_exec(RxSession *s, const char *text, size_t len, const char *name, RxResultFn fn, void *ud) {
    /* the progress hooks of the stages below report to this session's meter while it runs */
    Progress *prev = progress_attach(s->progress);
    int rc = exec_script(s, text, len, name, fn, ud);
    rc = run_end(s, rc);
    progress_attach(prev);
    return rc;
}

/* ---- results -------------------------------------------------------------------------------- */

size_t rx_result_rows(const RxResult *r) { return r->t->n_rows; }
int rx_result_cols(const RxResult *r) { return r->t->n_cols; }
const char *rx_result_colname(const RxResult *r, int col) {
    return col >= 0 && col < r->t->n_cols ? r->t->names[col] : NULL;
}
RxColType rx_result_coltype(const RxResult *r, int col) {
    return col >= 0 && col < r->t->n_cols ? (RxColType)r->t->cols[col]->type : RX_TYPE_NULL;
}

static const Column *cell_col(const RxResult *r, size_t row, int col) {
    if (col < 0 || col >= r->t->n_cols || row >= r->t->n_rows) return NULL;
    return r->t->cols[col];
}

int rx_result_is_null(const RxResult *r, size_t row, int col) {
    const Column *c = cell_col(r, row, col);
    return !c || c->type == TY_NULL || col_is_null(c, row);
}

int64_t rx_result_int(const RxResult *r, size_t row, int col) {
    const Column *c = cell_col(r, row, col);
    if (!c || col_is_null(c, row)) return 0;
    Value v = col_get(c, row);
    switch (c->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: return v.v.i;
    case TY_DATE: return v.v.date;
    case TY_BOOL: return v.v.b;
    case TY_FLOAT: {
        /* Converting a double outside the int64 range (or NaN) is undefined in C: clamp, and
         * give NaN as 0 (relix.h). */
        double f = v.v.f;
        if (isnan(f)) return 0;
        if (f >= 9223372036854775808.0) return INT64_MAX;
        if (f < -9223372036854775808.0) return INT64_MIN;
        return (int64_t)f;
    }
    case TY_DURATION: return v.v.d.us;
    default: return 0;
    }
}

double rx_result_float(const RxResult *r, size_t row, int col) {
    const Column *c = cell_col(r, row, col);
    if (!c || col_is_null(c, row)) return 0;
    if (c->type == TY_FLOAT) return col_f64(c)[row];
    return (double)rx_result_int(r, row, col);
}

const char *rx_result_text(const RxResult *r, size_t row, int col) {
    const Column *c = cell_col(r, row, col);
    if (!c) return NULL;
    StrBuf b;
    sb_init(&b);
    out_value_text(c, row, "NULL", &b);
    const char *p = arena_strndup(r->a, b.p ? b.p : "", b.n);
    sb_free(&b);
    return p;
}

const char *rx_result_explain(const RxResult *r) { return r->explain.p ? r->explain.p : ""; }
const char *rx_result_explain_analyze(const RxResult *r) {
    return r->explain_analyze.p ? r->explain_analyze.p : "";
}

int rx_result_write(const RxResult *r, RxFormat f, int (*write)(void *ud, const char *p, size_t n), void *ud) {
    return rx_result_write_opts(r, f, 0, NULL, 0, write, ud);
}

int rx_result_write_opts(const RxResult *r, RxFormat f, size_t max_rows, const char *hint, int query,
                         int (*write)(void *ud, const char *p, size_t n), void *ud) {
    RxSink sink = {write, ud};
    RxError err;
    rx_error_clear(&err);
    OutOptions opt = {max_rows, hint, query, r->part > 1};
    return out_write_opts(r->t, (OutFormat)f, &opt, &sink, &err) < 0 ? 1 : 0;
}

int rx_result_index(const RxResult *r) { return r->index; }
int rx_result_part(const RxResult *r) { return r->part; }
int rx_result_last_part(const RxResult *r) { return r->part == 0 || r->last; }
int rx_result_count(const RxResult *r) { return r->count; }

/* ---- versions and a host program's columns -------------------------------------------------- */

const char *rx_version(void) { return RELIX_VERSION; }
int rx_version_number(void) { return RELIX_VERSION_NUMBER; }

/* Whether p[0..n) is valid UTF-8. */
static bool utf8_ok(const char *p, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        int k = utf8_seq_len((const unsigned char *)p + i, n - i);
        if (k <= 0) return false;
        i += (size_t)k;
    }
    return true;
}

/* The validity words of an Arrow bitmap of n rows (copied), or NULL when every bit is set
 * (*oom set when the copy cannot be made). */
static uint64_t *host_validity(const uint8_t *valid, size_t n, bool *oom) {
    *oom = false;
    if (!valid) return NULL;
    size_t words = bitmap_words(n);
    uint64_t *w = rx_calloc(words ? words : 1, sizeof *w);
    if (!w) {
        *oom = true;
        return NULL;
    }
    memcpy(w, valid, (n + 7) / 8);
    if (n % 64) w[n / 64] &= (UINT64_C(1) << (n % 64)) - 1;   /* bits past the end are not rows */
    size_t set = 0;
    for (size_t i = 0; i < words; i++) set += (size_t)__builtin_popcountll(w[i]);
    if (set == n) {
        rx_free(w);
        return NULL;
    }
    return w;
}

/* A dictionary-coded TEXT column of a host relation (RxColumnIn.codes): the dictionary's
 * bytes read in place, each row a slice of its value, and the column's codes and dict (column.h)
 * over the dictionary's distinct values, so that repeated values in the host's dictionary
 * become one. NULL with s->err set (bad offsets, invalid UTF-8, a code past the dictionary,
 * out of memory). */
static Column *host_text_coded(RxSession *s, const char *rel, const RxColumnIn *c, size_t n) {
    const char *nm = c->name;
    size_t nd = c->n_dict;
    if (!c->offsets && c->width == 0) {
        rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "TEXT column '%s' of '%s' needs offsets or a width", nm, rel);
        return NULL;
    }
    if (nd > 0 && !c->data) {
        rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "column '%s' of '%s' has a dictionary without data", nm, rel);
        return NULL;
    }
    if (nd >= UINT32_MAX) {
        rx_error(&s->err, RX_ELIMIT, NULL, rx_span(0, 0), "column '%s' of '%s' has %zu dictionary values; at most %u",
                 nm, rel, nd, UINT32_MAX - 1);
        return NULL;
    }
    size_t bytes = c->offsets ? (size_t)(nd ? c->offsets[nd] : 0) : nd * c->width;
    RxStr *vals = rx_malloc((nd ? nd : 1) * sizeof *vals);      /* the host's values */
    uint32_t *remap = rx_malloc((nd ? nd : 1) * sizeof *remap);  /* host index -> distinct index */
    uint64_t *hash = rx_malloc((nd ? nd : 1) * sizeof *hash);    /* each distinct value's hash */
    RxStr *dict = rx_malloc((nd ? nd : 1) * sizeof *dict);       /* the distinct values */
    uint32_t *codes = rx_malloc((n ? n : 1) * sizeof *codes);
    StrHeap *h = heap_borrow(c->data ? c->data : "", bytes);
    /* coded and lazy (column.h): no per-row slices unless every row is NULL (below) */
    Column *col = rx_calloc(1, sizeof *col);
    if (col) col->refcnt = 1, col->type = TY_TEXT, col->n = n;
    RxHMap m = {0};
    const char *why = NULL;
    size_t bad_at = 0;
    if (!vals || !remap || !hash || !dict || !codes || !h || !col || col_add_heap(col, h) < 0 ||
        hmap_init(&m, nd) < 0)
        goto oom;
    const char *d = c->data;
    uint32_t nu = 0;
    for (size_t k = 0; k < nd; k++) {
        const char *p;
        size_t len;
        if (c->offsets) {
            int64_t a = c->offsets[k], b = c->offsets[k + 1];
            if (a < 0 || b < a || (size_t)b > bytes) {
                why = "has dictionary offsets out of order at value";
                bad_at = k + 1;
                goto bad;
            }
            p = d + a;
            len = (size_t)(b - a);
        } else {
            p = d + k * c->width;
            const char *z = memchr(p, '\0', c->width);
            len = z ? (size_t)(z - p) : c->width;
        }
        if (!utf8_ok(p, len)) {
            why = "has invalid UTF-8 in dictionary value";
            bad_at = k + 1;
            goto bad;
        }
        vals[k] = (RxStr){p, len};
        uint64_t hv = rx_hash_bytes(p, len);
        RxHProbe pr = hmap_probe(&m, hv);
        uint32_t v;
        bool found = false;
        while (hmap_next(&m, &pr, &v))
            if (hash[v] == hv && dict[v].len == len && memcmp(dict[v].ptr, p, len) == 0) {
                found = true;
                break;
            }
        if (!found) {
            v = nu;
            dict[nu] = vals[k];
            hash[nu++] = hv;
            if (hmap_insert(&m, &pr, v, hmap_hash_array, hash) < 0) goto oom;
        }
        remap[k] = v;
    }
    const int32_t *in = c->codes;
    uint64_t *valid = NULL;
    for (size_t i = 0; i < n; i++) {
        int32_t k = in[i];
        bool null = k < 0 || (c->valid && !(c->valid[i / 8] >> (i % 8) & 1));
        if (!null && (size_t)k >= nd) {
            why = "has a code past its dictionary at row";
            bad_at = i + 1;
            goto bad;
        }
        if (null) {
            if (!valid && !(valid = col_valid(col))) goto oom;
            bitmap_set(valid, i, false);
            codes[i] = 0;   /* column.h: a NULL row's code is 0 */
            continue;
        }
        codes[i] = remap[k];
    }
    hmap_free(&m);
    rx_free(vals), rx_free(remap), rx_free(hash);
    heap_release(h);   /* the column holds it now */
    if (nu == 0) {
        /* every row NULL: plain (empty) slices, no dictionary for code 0 to name */
        rx_free(dict), rx_free(codes);
        RxStr *sl = rx_malloc((n ? n : 1) * sizeof *sl);
        if (!sl) {
            col_release(col);
            rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory registering '%s'", rel);
            return NULL;
        }
        for (size_t i = 0; i < n; i++) sl[i] = (RxStr){"", 0};
        col->data = sl;
        return col;
    }
    col->codes = codes;
    col->dict = dict;
    col->n_dict = nu;
    return col;
bad:
    rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "TEXT column '%s' of '%s' %s %zu", nm, rel, why, bad_at);
    goto out;
oom:
    rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory registering '%s'", rel);
out:
    hmap_free(&m);
    rx_free(vals), rx_free(remap), rx_free(hash), rx_free(dict), rx_free(codes);
    heap_release(h);
    col_release(col);
    return NULL;
}

/* Column c of a host relation as a Relix column (data read in place where the layout is
 * Relix's), or NULL with s->err set. */
static Column *host_column(RxSession *s, const char *rel, const RxColumnIn *c, size_t n) {
    RxType t = (RxType)c->type;
    const char *nm = c->name;
    Column *col = NULL;
    if (!c->data && n > 0) {
        rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "column '%s' of '%s' has no data", nm, rel);
        return NULL;
    }
    switch (c->type) {
    case RX_TYPE_INT: case RX_TYPE_FLOAT: case RX_TYPE_DATE:
        col = col_borrow(t, n, c->data);
        break;
    case RX_TYPE_BOOL: {
        const uint8_t *b = c->data;
        for (size_t i = 0; i < n; i++)
            if (b[i] > 1 && (!c->valid || (c->valid[i / 8] >> (i % 8) & 1))) {
                rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0),
                         "BOOL column '%s' of '%s' has %u at row %zu (0 or 1 expected)", nm, rel, b[i], i + 1);
                return NULL;
            }
        col = col_borrow(t, n, c->data);
        break;
    }
    case RX_TYPE_TIMESTAMP: case RX_TYPE_TIME: {
        int64_t u = c->unit;
        if (u == 1000000) {
            col = col_borrow(t, n, c->data);
            break;
        }
        if (u != 1 && u != 1000 && u != 1000000000) {
            rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0),
                     "column '%s' of '%s' has unit %lld per second (1, 1000, 1000000 or 1000000000 expected)",
                     nm, rel, (long long)u);
            return NULL;
        }
        if (!(col = col_new(t, n))) break;
        const int64_t *v = c->data;
        int64_t *o = col_i64(col);
        if (u == 1000000000 && !c->valid) {
            /* nanoseconds without NULLs (pandas' timestamps): a branch-free pass that notes any
             * remainder; the loop below then finds the row it is at */
            int64_t rem = 0;
            for (size_t i = 0; i < n; i++) {
                int64_t q = v[i] / 1000;
                rem |= v[i] - q * 1000;
                o[i] = q;
            }
            if (!rem) break;
        }
        for (size_t i = 0; i < n; i++) {
            bool valid = !c->valid || (c->valid[i / 8] >> (i % 8) & 1);
            if (!valid) {
                o[i] = 0;
            } else if (u == 1000000000) {
                if (v[i] % 1000 != 0) {
                    col_release(col);
                    rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0),
                             "column '%s' of '%s' has %lld ns at row %zu, not a whole microsecond "
                             "(Relix keeps microseconds)", nm, rel, (long long)v[i], i + 1);
                    return NULL;
                }
                o[i] = v[i] / 1000;
            } else {
                int64_t m = 1000000 / u;
                if (__builtin_mul_overflow(v[i], m, &o[i])) {
                    col_release(col);
                    rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0),
                             "column '%s' of '%s' overflows at row %zu in microseconds", nm, rel, i + 1);
                    return NULL;
                }
            }
        }
        break;
    }
    case RX_TYPE_TEXT: {
        if (c->codes) return host_text_coded(s, rel, c, n);
        if (!c->offsets && c->width == 0) {
            rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0),
                     "TEXT column '%s' of '%s' needs offsets or a width", nm, rel);
            return NULL;
        }
        size_t bytes = c->offsets ? (size_t)(n ? c->offsets[n] : 0) : n * c->width;
        StrHeap *h = heap_borrow(c->data, bytes);
        if (!h || !(col = col_new(TY_TEXT, n)) || col_add_heap(col, h) < 0) {
            heap_release(h);
            col_release(col);
            col = NULL;
            break;
        }
        heap_release(h);   /* the column holds it now */
        RxStr *sl = col_str(col);
        const char *d = c->data;
        for (size_t i = 0; i < n; i++) {
            const char *p;
            size_t len;
            if (c->offsets) {
                int64_t a = c->offsets[i], b = c->offsets[i + 1];
                if (a < 0 || b < a || (size_t)b > bytes) {
                    col_release(col);
                    rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0),
                             "TEXT column '%s' of '%s' has offsets out of order at row %zu", nm, rel, i + 1);
                    return NULL;
                }
                p = d + a;
                len = (size_t)(b - a);
            } else {
                p = d + i * c->width;
                const char *z = memchr(p, '\0', c->width);
                len = z ? (size_t)(z - p) : c->width;
            }
            if (!utf8_ok(p, len)) {
                col_release(col);
                rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0),
                         "TEXT column '%s' of '%s' has invalid UTF-8 at row %zu", nm, rel, i + 1);
                return NULL;
            }
            sl[i].ptr = p;
            sl[i].len = len;
        }
        break;
    }
    default:
        rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "column '%s' of '%s' has type %d, which cannot be registered",
                 nm, rel, (int)c->type);
        return NULL;
    }
    if (!col) {
        rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory registering '%s'", rel);
        return NULL;
    }
    bool oom;
    uint64_t *w = host_validity(c->valid, n, &oom);
    if (oom) {
        col_release(col);
        rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory registering '%s'", rel);
        return NULL;
    }
    if (w) {
        col->valid = w;
        /* a NULL row reads as 0 or empty to code that looks at values without the bitmap */
        if (t == TY_TEXT)
            for (size_t i = 0; i < n; i++)
                if (!bitmap_get(w, i)) col_str(col)[i] = (RxStr){"", 0};
    }
    return col;
}

/* rx_factorize_u64 where the values lie close together: when every value is min + a multiple of
 * 2^shift and (max - min) >> shift is below max(n, 2^16) (the references of a binding's string
 * objects, allocated near each other, usually are), a value's number is found by indexing a
 * table by (v - min) >> shift: one load a row, no hashing. -2 when the values are too spread
 * (the caller hashes; *shift_out is then the values' common zero low bits), -1 when out of
 * memory, else the number of distinct values. */
static int64_t factorize_dense(const uint64_t *v, size_t n, int32_t *codes, int64_t *first,
                               int *shift_out) {
    uint64_t mn = UINT64_MAX, mx = 0, bits = 0;
    for (size_t i = 0; i < n; i++) {
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
        bits |= v[i];
    }
    if (!n) return 0;
    int shift = 0;
    while (shift < 16 && !((bits >> shift) & 1) && !(((mn >> shift) & 1))) shift++;
    /* every value shares mn's zero low bits: (v - mn) >> shift is exact */
    uint64_t span = (mx - mn) >> shift;
    *shift_out = shift;
    if (span >= (n > 65536 ? n : 65536)) return -2;
    uint32_t *slot = rx_calloc((size_t)span + 1, sizeof *slot);   /* number + 1, 0: not seen */
    if (!slot) return -1;
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t *s = &slot[(v[i] - mn) >> shift];
        if (!*s) {
            first[k] = (int64_t)i;
            *s = ++k;
        }
        codes[i] = (int32_t)(*s - 1);
    }
    rx_free(slot);
    return k;
}

int64_t rx_factorize_u64(const uint64_t *v, size_t n, int32_t *codes, int64_t *first) {
    if (n > INT32_MAX || (n && (!v || !codes || !first))) return -1;
    int shift = 0;
    int64_t dense = factorize_dense(v, n, codes, first, &shift);
    if (dense != -2) return dense;
    /* the one hash index over the distinct values' hashes; a small first size, grown as values
     * come, so that a column of few values probes a table that stays in the cache. In front of
     * it a direct-mapped cache of 2^16 (value, number) slots indexed by the value's bits above
     * its common zero ones: one load and one compare for a value seen before, unless another
     * value took its slot since */
    enum { CACHE_BITS = 16 };
    struct { uint64_t v; uint64_t code1; } *cache = rx_calloc((size_t)1 << CACHE_BITS, sizeof *cache);
    RxHMap m = {0};
    size_t cap = 1024;
    uint64_t *hash = rx_malloc(cap * sizeof *hash);   /* each distinct value's hash */
    uint64_t *val = rx_malloc(cap * sizeof *val);     /* each distinct value */
    int64_t nd = -1;
    if (!cache || !hash || !val || hmap_init(&m, cap) < 0) goto done;
    const size_t cmask = ((size_t)1 << CACHE_BITS) - 1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        size_t ci = (size_t)(x >> shift) & cmask;
        if (cache[ci].code1 && cache[ci].v == x) {
            codes[i] = (int32_t)(cache[ci].code1 - 1);
            continue;
        }
        uint64_t h = rx_hash64(x);
        RxHProbe p = hmap_probe(&m, h);
        uint32_t d;
        bool found = false;
        while (hmap_next(&m, &p, &d))
            if (val[d] == x) {
                found = true;
                break;
            }
        if (!found) {
            if (k == cap) {
                uint64_t *h2 = rx_realloc(hash, 2 * cap * sizeof *hash);
                if (h2) hash = h2;
                uint64_t *v2 = h2 ? rx_realloc(val, 2 * cap * sizeof *val) : NULL;
                if (!v2) goto done;
                val = v2;
                cap *= 2;
            }
            d = (uint32_t)k;
            hash[k] = h;   /* before the insert, where a growth rehashes from */
            val[k] = x;
            first[k++] = (int64_t)i;
            if (hmap_insert(&m, &p, d, hmap_hash_array, hash) < 0) goto done;
        }
        cache[ci].v = x;
        cache[ci].code1 = (uint64_t)d + 1;
        codes[i] = (int32_t)d;
    }
    nd = (int64_t)k;
done:
    rx_free(cache);
    hmap_free(&m);
    rx_free(hash);
    rx_free(val);
    return nd;
}

int rx_register_columns(RxSession *s, const char *name, int n_cols, const RxColumnIn *cols,
                        size_t n_rows) {
    rx_error_clear(&s->err);
    if (!name || !*name || n_cols <= 0 || !cols) {
        rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "a relation needs a name and at least one column");
        return fail(s);
    }
    if (n_rows > RX_MAX_ROWS) {
        rx_error(&s->err, RX_ELIMIT, NULL, rx_span(0, 0), "'%s' has %zu rows; a relation holds at most %u",
                 name, n_rows, (unsigned)RX_MAX_ROWS);
        return fail(s);
    }
    if (catalog_find(&s->cat, name)) {
        rx_error(&s->err, RX_ENAME, NULL, rx_span(0, 0), "'%s' is already defined", name);
        return fail(s);
    }
    Table *t = table_new(n_cols, n_rows);
    if (!t) {
        rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory registering '%s'", name);
        return fail(s);
    }
    for (int j = 0; j < n_cols; j++) {
        const char *cn = cols[j].name;
        if (!cn || !*cn) {
            table_free(t);
            rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "column %d of '%s' has no name", j + 1, name);
            return fail(s);
        }
        for (int k = 0; k < j; k++)
            if (strcmp(cols[k].name, cn) == 0) {
                table_free(t);
                rx_error(&s->err, RX_ENAME, NULL, rx_span(0, 0), "'%s' has two columns named '%s'", name, cn);
                return fail(s);
            }
        Column *c = host_column(s, name, &cols[j], n_rows);
        if (!c || table_set(t, j, c, cn) < 0) {
            if (c) rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory registering '%s'", name);
            col_release(c);
            table_free(t);
            return fail(s);
        }
    }
    if (catalog_define_table(&s->cat, name, t, &s->err) < 0) return fail(s);
    return 0;
}

int rx_result_column(const RxResult *r, int col, RxColumnOut *out) {
    memset(out, 0, sizeof *out);
    if (col < 0 || col >= r->t->n_cols) return -1;
    const Column *c = r->t->cols[col];
    size_t n = r->t->n_rows;
    out->type = (RxColType)c->type;
    out->n = n;
    out->valid = (const uint8_t *)c->valid;
    if (c->type == TY_TIMESTAMP || c->type == TY_TIME) out->unit = 1000000;
    if (c->type != TY_TEXT) {
        out->data = c->data;
        return 0;
    }
    /* text: offsets and the bytes gathered once, in the result's arena */
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        if (!col_is_null(c, i)) bytes += col_text(c, i).len;
    int64_t *off = arena_alloc(r->a, (n + 1) * sizeof *off);
    char *d = arena_alloc(r->a, bytes ? bytes : 1);
    if (!off || !d) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        off[i] = (int64_t)at;
        if (col_is_null(c, i)) continue;
        RxStr v = col_text(c, i);
        memcpy(d + at, v.ptr, v.len);
        at += v.len;
    }
    off[n] = (int64_t)at;
    out->data = d;
    out->offsets = off;
    return 0;
}

/* rx_result_text_dict of a column that carries a dictionary (column.h: codes, dict): its codes
 * renumbered in order of first appearance, so that the dictionary holds only the values some
 * row has, as the hashing path gives them, without hashing a row. 0, or -1 on OOM. */
static int text_dict_coded(const RxResult *r, const Column *c, RxTextDict *out) {
    size_t n = r->t->n_rows;
    int32_t *codes = arena_alloc(r->a, (n ? n : 1) * sizeof *codes);
    int32_t *map = rx_malloc(((size_t)c->n_dict ? c->n_dict : 1) * sizeof *map);   /* code -> new */
    uint32_t *first = rx_malloc(((size_t)c->n_dict ? c->n_dict : 1) * sizeof *first); /* new -> code */
    if (!codes || !map || !first) {
        rx_free(map), rx_free(first);
        return -1;
    }
    memset(map, 0xff, (size_t)c->n_dict * sizeof *map);
    size_t n_dict = 0, bytes = 0;
    for (size_t i = 0; i < n; i++) {
        if (col_is_null(c, i)) {
            codes[i] = -1;
            continue;
        }
        uint32_t k = c->codes[i];
        if (map[k] < 0) {
            map[k] = (int32_t)n_dict;
            first[n_dict++] = k;
            bytes += c->dict[k].len;
        }
        codes[i] = map[k];
    }
    int64_t *off = arena_alloc(r->a, (n_dict + 1) * sizeof *off);
    char *d = arena_alloc(r->a, bytes ? bytes : 1);
    if (!off || !d) {
        rx_free(map), rx_free(first);
        return -1;
    }
    size_t at = 0;
    for (size_t k = 0; k < n_dict; k++) {
        off[k] = (int64_t)at;
        memcpy(d + at, c->dict[first[k]].ptr, c->dict[first[k]].len);
        at += c->dict[first[k]].len;
    }
    off[n_dict] = (int64_t)at;
    *out = (RxTextDict){.n = n, .codes = codes, .n_dict = n_dict, .dict_offsets = off, .dict_data = d};
    rx_free(map), rx_free(first);
    return 0;
}

int rx_result_text_dict(const RxResult *r, int col, RxTextDict *out) {
    memset(out, 0, sizeof *out);
    if (col < 0 || col >= r->t->n_cols || r->t->cols[col]->type != TY_TEXT) return -1;
    const Column *c = r->t->cols[col];
    size_t n = r->t->n_rows;
    if (c->codes && c->dict) return text_dict_coded(r, c, out);
    const RxStr *sl = col_str(c);   /* not coded, so not lazy */
    int32_t *codes = arena_alloc(r->a, (n ? n : 1) * sizeof *codes);
    uint32_t *first = rx_malloc((n ? n : 1) * sizeof *first);   /* the row of each value */
    uint64_t *hash = rx_malloc((n ? n : 1) * sizeof *hash);     /* each value's hash */
    RxHMap m = {0};
    size_t n_dict = 0, bytes = 0;
    int rc = -1;
    if (!codes || !first || !hash || hmap_init(&m, 1024) < 0) goto done;
    for (size_t i = 0; i < n; i++) {
        if (col_is_null(c, i)) {
            codes[i] = -1;
            continue;
        }
        uint64_t h = rx_hash_bytes(sl[i].ptr, sl[i].len);
        RxHProbe p = hmap_probe(&m, h);
        uint32_t v;
        bool found = false;
        while (hmap_next(&m, &p, &v))
            if (hash[v] == h && sl[first[v]].len == sl[i].len && memcmp(sl[first[v]].ptr, sl[i].ptr, sl[i].len) == 0) {
                found = true;
                break;
            }
        if (!found) {
            v = (uint32_t)n_dict;
            first[n_dict] = (uint32_t)i;
            hash[n_dict++] = h;   /* before the insert, where a growth rehashes from */
            if (hmap_insert(&m, &p, v, hmap_hash_array, hash) < 0) goto done;
            bytes += sl[i].len;
        }
        codes[i] = (int32_t)v;
    }
    int64_t *off = arena_alloc(r->a, (n_dict + 1) * sizeof *off);
    char *d = arena_alloc(r->a, bytes ? bytes : 1);
    if (!off || !d) goto done;
    size_t at = 0;
    for (size_t k = 0; k < n_dict; k++) {
        off[k] = (int64_t)at;
        memcpy(d + at, sl[first[k]].ptr, sl[first[k]].len);
        at += sl[first[k]].len;
    }
    off[n_dict] = (int64_t)at;
    *out = (RxTextDict){.n = n, .codes = codes, .n_dict = n_dict, .dict_offsets = off, .dict_data = d};
    rc = 0;
done:
    hmap_free(&m);
    rx_free(first);
    rx_free(hash);
    return rc;
}

/* ---- prepared queries ----------------------------------------------------------------------- */

size_t rx_parse_count(const RxSession *s) { return s->n_parses; }

/* Frees a statement's bound text. */
static void stmt_clear(RxStmt *st) {
    for (int k = 0; k < st->n; k++) {
        free(st->texts[k]);
        st->texts[k] = NULL;
        st->bound[k] = false;
        st->values[k] = (Value){0};
    }
}

void rx_finalize(RxStmt *st) {
    if (!st) return;
    RxSession *s = st->s;
    for (RxStmt **p = &s->stmts; *p; p = &(*p)->next)
        if (*p == st) {
            *p = st->next;
            break;
        }
    result_free(st->res);
    if (st->texts) stmt_clear(st);
    free(st->values);
    free(st->bound);
    free(st->texts);
    free(st->hint);
    free(st->hint_span);
    free(st);
}

int rx_prepare(RxSession *s, const char *text, size_t len, const char *name, RxStmt **out) {
    *out = NULL;
    run_begin(s);
    Arena *a = NULL;
    RxSource *src = keep_source(s, text, len, name, &a);
    if (!src) return fail(s);
    RxStmt *st = calloc(1, sizeof *st);
    if (!st) {
        rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return fail(s);
    }
    st->s = s;
    s->n_parses++;
    if (parse_script_opts(a, src, s->bare, &st->sc, &s->err) < 0) {
        rx_finalize(st);
        return fail(s);
    }
    size_t n = (size_t)st->sc.n_params + 1;
    st->n = st->sc.n_params;
    st->values = calloc(n, sizeof *st->values);
    st->bound = calloc(n, sizeof *st->bound);
    st->texts = calloc(n, sizeof *st->texts);
    st->hint = calloc(n, sizeof *st->hint);
    st->hint_span = calloc(n, sizeof *st->hint_span);
    st->base_dir = dir_of(a, name);
    if (!st->values || !st->bound || !st->texts || !st->hint || !st->hint_span || (name && !st->base_dir)) {
        rx_finalize(st);
        rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return fail(s);
    }
    /* the check of every statement, with the parameters as untyped NULLs whose neighbours'
     * types are noted */
    QueryParams qp = {NULL, NULL, st->hint, st->hint_span, st->n};
    s->cat.params = &qp;
    s->cat.base_dir = st->base_dir;
    Progress *prev = progress_attach(s->progress);   /* a CSV file it defines may load now */
    int rc = sema_define_script(&s->cat, &st->sc, &s->err);
    progress_attach(prev);
    s->cat.params = NULL;
    for (size_t i = 0; rc == 0 && i < st->sc.n; i++) {
        PqWriteOptions po;
        if (st->sc.stmts[i]->into_parquet && parquet_into_options(s, &st->sc, st->sc.stmts[i], &po) < 0) rc = -1;
    }
    if (rc < 0) {
        rx_finalize(st);
        return fail(s);
    }
    st->next = s->stmts;
    s->stmts = st;
    *out = st;
    return 0;
}

int rx_bind_parameter_count(const RxStmt *st) { return st->n; }

const char *rx_bind_parameter_name(const RxStmt *st, int idx) {
    return idx >= 1 && idx <= st->n ? st->sc.params[idx - 1].name : NULL;
}

int rx_bind_parameter_index(const RxStmt *st, const char *name) {
    if (!name) return 0;
    for (int k = 0; k < st->n; k++) {
        const char *p = st->sc.params[k].name;
        if (!st->sc.params[k].used) continue;
        if (strcmp(p, name) == 0 || (p[0] == ':' && strcmp(p + 1, name) == 0)) return k + 1;
    }
    return 0;
}

/* Binds v (whose text, if any, the statement owns now: text) to slot idx; 0, or non-zero with
 * the error (text freed then). */
static int bind_value(RxStmt *st, int idx, Value v, char *text) {
    RxSession *s = st->s;
    rx_error_clear(&s->err);
    sb_free(&s->errmsg);
    if (idx < 1 || idx > st->n) {
        free(text);
        if (st->n == 0)
            rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "parameter %d does not exist: the statement has no parameter", idx);
        else
            rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "parameter %d does not exist: the statement has $1 to $%d",
                     idx, st->n);
        return fail(s);
    }
    int k = idx - 1;
    const ScriptParam *sp = &st->sc.params[k];
    RxType h = st->hint[k];
    if (!v.null && h != TY_NULL && type_order_family(v.type) != type_order_family(h)) {
        free(text);
        uint32_t line = 0, col = 0;
        rx_source_position(st->sc.src, st->hint_span[k].start, &line, &col);
        rx_error(&s->err, RX_ETYPE, st->sc.src, sp->span,
                 "parameter %s is compared with %s (at line %u, column %u); a %s value cannot be bound to it",
                 sp->name, type_name(h), line, col, type_name(v.type));
        return fail(s);
    }
    free(st->texts[k]);
    st->texts[k] = text;
    st->values[k] = v;
    st->bound[k] = true;
    return 0;
}

int rx_bind_int(RxStmt *st, int idx, int64_t v) {
    return bind_value(st, idx, (Value){.type = TY_INT, .v.i = v}, NULL);
}
int rx_bind_double(RxStmt *st, int idx, double v) {
    return bind_value(st, idx, (Value){.type = TY_FLOAT, .v.f = v}, NULL);
}
int rx_bind_bool(RxStmt *st, int idx, int v) {
    return bind_value(st, idx, (Value){.type = TY_BOOL, .v.b = v != 0}, NULL);
}
int rx_bind_timestamp(RxStmt *st, int idx, int64_t us) {
    return bind_value(st, idx, (Value){.type = TY_TIMESTAMP, .v.i = us}, NULL);
}
int rx_bind_date(RxStmt *st, int idx, int32_t days) {
    return bind_value(st, idx, (Value){.type = TY_DATE, .v.date = days}, NULL);
}
int rx_bind_null(RxStmt *st, int idx) {
    return bind_value(st, idx, (Value){.type = TY_NULL, .null = true}, NULL);
}
int rx_bind_text(RxStmt *st, int idx, const char *p, size_t len) {
    RxSession *s = st->s;
    if (!p && len) {
        rx_error_clear(&s->err);
        rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "text for parameter %d is NULL", idx);
        return fail(s);
    }
    if (!utf8_ok(p ? p : "", len)) {
        rx_error_clear(&s->err);
        rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "text for parameter %d is not valid UTF-8", idx);
        return fail(s);
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        rx_error_clear(&s->err);
        rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return fail(s);
    }
    if (len) memcpy(copy, p, len);
    copy[len] = 0;
    return bind_value(st, idx, (Value){.type = TY_TEXT, .v.s = {copy, len}}, copy);
}

int rx_reset(RxStmt *st) {
    result_free(st->res);
    st->res = NULL;
    stmt_clear(st);
    return 0;
}

int rx_execute(RxStmt *st, const RxResult **out) {
    RxSession *s = st->s;
    if (out) *out = NULL;
    result_free(st->res);
    st->res = NULL;
    run_begin(s);
    for (int k = 0; k < st->n; k++)
        if (st->sc.params[k].used && !st->bound[k]) {
            rx_error(&s->err, RX_EVALUE, st->sc.src, st->sc.params[k].span,
                     "parameter %s is not bound (rx_bind_* before rx_execute)", st->sc.params[k].name);
            return fail(s);
        }
    Progress *prev = progress_attach(s->progress);
    QueryParams qp = {st->values, st->bound, NULL, NULL, st->n};
    s->cat.params = &qp;
    s->cat.base_dir = st->base_dir;
    s->keep = true;
    s->keep_at = &st->res;
    int rc = run_queries(s, &st->sc, NULL, NULL);
    s->keep = false;
    s->keep_at = NULL;
    s->cat.params = NULL;
    rc = run_end(s, rc);
    progress_attach(prev);
    if (rc != 0) {
        result_free(st->res);
        st->res = NULL;
        return rc;
    }
    if (out) *out = st->res;
    return 0;
}

/* ---- the Arrow C data interface ------------------------------------------------------------- */

int rx_register_arrow(RxSession *s, const char *name, struct ArrowSchema *schema, struct ArrowArray *array) {
    rx_error_clear(&s->err);
    /* moved in: the caller's structs are released from here on, whatever happens */
    struct ArrowSchema sc = {0};
    struct ArrowArray ar = {0};
    if (schema) {
        sc = *schema;
        schema->release = NULL;
    }
    if (array) {
        ar = *array;
        array->release = NULL;
    }
    Table *t = NULL;
    if (!name || !*name) rx_error(&s->err, RX_EVALUE, NULL, rx_span(0, 0), "a relation needs a name");
    else if (catalog_find(&s->cat, name)) rx_error(&s->err, RX_ENAME, NULL, rx_span(0, 0), "'%s' is already defined", name);
    else if (s->n_arrow == s->cap_arrow) {
        size_t cap = s->cap_arrow ? 2 * s->cap_arrow : 4;
        struct ArrowArray *v = realloc(s->arrow, cap * sizeof *v);
        if (!v) rx_error(&s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory registering '%s'", name);
        else s->arrow = v, s->cap_arrow = cap;
    }
    if (!s->err.code) t = arrow_import(schema ? &sc : NULL, array ? &ar : NULL, name, &s->err);
    if (sc.release) sc.release(&sc);
    if (t && catalog_define_table(&s->cat, name, t, &s->err) == 0) {
        s->arrow[s->n_arrow++] = ar;
        return 0;
    }
    /* catalog_define_table freed t on failure */
    if (ar.release) ar.release(&ar);
    return fail(s);
}

int rx_result_arrow(const RxResult *r, int col, struct ArrowSchema *schema, struct ArrowArray *array) {
    return arrow_export(r->t, col, schema, array);
}
