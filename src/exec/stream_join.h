/*
 * stream_join.h - the AS-OF and interval joins over inputs that arrive sorted by time, in one
 * pass (docs/memory.md): AS-OF in memory proportional to the number of keys, the interval join
 * in memory proportional to the intervals alive at once.
 */
#ifndef RX_STREAM_JOIN_H
#define RX_STREAM_JOIN_H

#include "exec/exec.h"
#include "exec/stream.h"

/* Whether join p (PN_ASOF or PN_IJOIN) has a streaming form for inputs sorted as
 * stream_join_open requires: its variant (direction, relation, keys, types) is supported. */
bool stream_join_supported(const PNode *p);

/* A source giving p's output, row for row what the in-memory operator gives (same rows, same
 * order), from l and r, which must arrive sorted non-decreasing by the match column (AS-OF) or
 * the start column (interval join); rows whose column is NULL may appear anywhere. A row out
 * of that order is an error naming the input and the row, never a wrong answer. Takes
 * ownership of l and r (closed on failure too). NULL with err on failure (RX_ENOMEM, or an
 * unsupported variant: check stream_join_supported first). */
ChunkSrc *stream_join_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err);

#endif
