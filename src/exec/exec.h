/*
 * exec.h - the fifth stage: runs a physical plan over columnar tables.
 *
 * Operators materialize column at a time (docs/design.md): each returns a new Table whose columns
 * are shared with its input where they pass through unchanged. Expressions are evaluated in
 * batches of EXEC_BATCH rows (eval.c). Run-time state lives here, beside the read-only plan.
 */
#ifndef RX_EXEC_H
#define RX_EXEC_H

#include <signal.h>

#include "plan/plan.h"

#define EXEC_BATCH 1024

/* What one operator did in a run (EXPLAIN ANALYZE), kept in run-time state beside the plan:
 * ExecCtx.stats[p->id]. Time is inclusive (the operator with everything below it, as
 * PostgreSQL counts it), self_s the operator's own part. peak_bytes is what the operator
 * allocated at its highest while it ran: the memory accountant's high-water mark
 * (rx_memory_peak_since) over what was charged when it started (its inputs already built),
 * and never less than the bytes of the output columns it made itself (out_bytes; columns it
 * passes through from an input are not counted). */
typedef struct {
    bool ran;
    double rows;          /* the rows it produced (PushedSQL: the rows the database returned) */
    double time_s, self_s;
    size_t peak_bytes, out_bytes;
    bool left_presorted, right_presorted;  /* AS-OF: the input arrived ordered, no sort ran */
} ExecNodeStats;

typedef struct ExecCtx {
    volatile sig_atomic_t *interrupt;  /* set asynchronously (Ctrl-C): the run stops; may be NULL */
    double t_join_s;                   /* time spent inside join operators, for --timing */
    /* For reports (NULL: not called): after an interval or AS-OF join's kernel, its inputs and
     * its n matches, left row li[i] (li NULL: row i, as AS-OF gives one per probe) with right
     * row ri[i] (ROW_NONE: none). Everything is borrowed for the call only. */
    void (*on_join)(void *ud, const PNode *p, const Table *l, const Table *r, const uint32_t *li,
                    const uint32_t *ri, size_t n);
    void *join_ud;
    /* Where operators that spill make their temporary directory (base/tempfile.h): --temp-dir;
     * NULL: $TMPDIR, else /tmp. Borrowed. */
    const char *temp_dir;
    /* plan_nodes(p) entries, zeroed by the caller, filled as operators run; NULL: not kept. */
    ExecNodeStats *stats;
    /* The most memory charged at once while the run's operators ran (rx_memory_used's units),
     * raised by the run: the caller sets it to 0 first. */
    size_t peak_bytes;
    /* A streamed run (stream_run): the bytes charged when it began, below each streamed
     * operator's peak. Set by stream_run. */
    size_t stream_base_bytes;
    /* A streamed run: the bytes of its CSV files read so far, for the progress meter. */
    uint64_t stream_bytes;
} ExecCtx;

/* Runs plan p, which it only reads (run-time state goes into x); *out is a new table (names = p's schema display names) that the caller frees
 * with table_free. -1 with err on a run-time error (overflow, division by zero, a value that
 * does not convert, out of memory, interrupted). */
int exec_run(ExecCtx *x, const PNode *p, Table **out, RxError *err);

/* After a run: what the operators found about their inputs ("AsOfJoin: the left input arrived
 * sorted by its keys and match column; its sort was skipped"), one line each; nothing when
 * there is nothing to say. stats: the run's ExecCtx.stats. */
void exec_run_notes(const PNode *p, const ExecNodeStats *stats, StrBuf *out);

/* The plan as plan_explain prints it, each line followed by what the operator did in the run:
 * "  (actual rows=87 time=1.234 ms self=0.200 ms peak=12.3 MB)", or "  (never ran)"; under a
 * memory limit the peak is also a share of it: "peak=12.3 MB (5% of 256 MiB)". */
void exec_explain_analyze(const PNode *p, const ExecNodeStats *stats, StrBuf *out);

/* ---- expression evaluation (eval.c) --------------------------------------------------------- */

/* A batch of values: n elements of the type's width; nulls is a byte per row (1 = NULL) or
 * NULL when no row is NULL. Data may point into a column (read only) or into scratch. */
typedef struct {
    RxType type;
    size_t n;
    void *data;
    uint8_t *nulls;
} Vec;

/* Evaluates e over rows [off, off+n) of table in; memory for results comes from scratch. */
int eval_batch(const Expr *e, const Table *in, size_t off, size_t n, Arena *scratch, Vec *out,
               RxError *err);

/* Evaluates e over every row of in into a new column. */
Column *eval_column(const Expr *e, const Table *in, RxError *err);

/* Text form of value i of v (as the table writer prints it), into the arena. */
RxStr vec_text(Arena *a, const Vec *v, size_t i);

#endif
