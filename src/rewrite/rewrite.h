/*
 * rewrite.h - the third stage: logical plan -> logical plan, plus the list of rewrites applied.
 *
 * Each rewrite has an ID and a one-line description, printed by --explain under "Rewrites
 * applied" in the order they were applied. A rewrite never mutates a node it did not create:
 * view bodies are shared between every query that references the view.
 */
#ifndef RX_REWRITE_H
#define RX_REWRITE_H

#include "analysis/analysis.h"

typedef struct {
    const char *id;       /* "INLINE-001" */
    const char *what;     /* "View body inlined into the referencing query" */
    const char *detail;   /* "view 'Conflicts' inlined" */
} RewriteEntry;

typedef struct {
    RewriteEntry *items;
    size_t n, cap;
} RewriteLog;

/* Applies every rewrite to *root (new nodes come from arena a) and appends what it did to log
 * (entries in the arena). -1 with err only when out of memory. */
int rw_apply(Arena *a, LPlan **root, RewriteLog *log, RxError *err);

#endif
