/*
 * session_report.h - the session's side of the HTML report (rx_report_begin in relix.h): what
 * of each query the page shows, taken from its plan, its rewrite log, its result and what the
 * joins matched (io/report.h draws it).
 *
 * Internal to src/exec: session.c owns one SessionReport per open report, plugs
 * srep_on_join into the executor (ExecCtx.on_join) while a query runs, and hands each query
 * to srep_query once it has run, or to srep_error when it failed.
 */
#ifndef RX_SESSION_REPORT_H
#define RX_SESSION_REPORT_H

#include "exec/exec.h"
#include "io/report.h"
#include "rewrite/rewrite.h"

typedef struct SessionReport SessionReport;

/* A report written through write(ud, p, n), titled title; NULL when out of memory. */
SessionReport *srep_new(const char *title, int (*write)(void *ud, const char *p, size_t n), void *ud);
/* Ends the page and frees; 0, or -1 when a write failed. */
int srep_finish(SessionReport *sr);
/* Frees without writing the end (the session closed with a report open). */
void srep_free(SessionReport *sr);

/* From now on, timelines draw only the interval-join pairs and AS-OF probes whose left row's
 * partition key prints as key (NULL: any; the values of several key columns joined by ", ")
 * and, for the window "FROM,TO" (NULL: all; in the columns' own type), the pairs whose two
 * intervals both meet it and the probes whose match value lies in it; a join the focus
 * cannot apply to says why instead of drawing. 0, or -1 when window has no comma
 * or memory ran out (the focus is off then). */
int srep_focus(SessionReport *sr, const char *key, const char *window);

/* ExecCtx.on_join: keeps the join's inputs (sharing their columns) and its first matches for
 * the query's timelines. A failed allocation only loses the timeline. */
void srep_on_join(void *ud, const PNode *p, const Table *l, const Table *r, const uint32_t *li,
                  const uint32_t *ri, size_t n);
/* The section of a query that ran: statement span in src, its rewrites, plan, what each
 * operator did (the run's ExecCtx.stats) and result. */
void srep_query(SessionReport *sr, const RxSource *src, RxSpan span, const RewriteLog *log,
                const PNode *plan, const ExecNodeStats *stats, const Table *result);
/* An error: in the section of the statement at span (src NULL: the script's, on its own).
 * Drops what the failed query's joins kept. */
void srep_error(SessionReport *sr, const RxSource *src, RxSpan span, const char *msg);

#endif
