/*
 * ooc.h - the AS-OF and interval joins over inputs in any order and larger than the memory
 * budget: both inputs are partitioned to temporary files (docs/memory.md), each partition is
 * joined in memory, and the output is given back in the in-memory operator's order.
 */
#ifndef RX_OOC_H
#define RX_OOC_H

#include "exec/exec.h"
#include "exec/stream.h"

/* Whether join p (PN_ASOF or PN_IJOIN) has an out-of-core form. */
bool ooc_join_supported(const PNode *p);

/* A source giving p's output, row for row what the in-memory operator gives (same rows, same
 * order), reading l and r once each. Takes ownership of l and r (closed on failure too). NULL
 * with err on failure (RX_ENOMEM, RX_EIO for the temporary files, or an unsupported variant:
 * check ooc_join_supported first). Temporary files are removed on every exit path. */
ChunkSrc *ooc_join_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err);

/* For tests: the estimated bytes a partition may take in memory (0: half of what the memory
 * budget has left when the join starts, rx_memory_limit; no limit: unbounded). A small value
 * forces many partitions. */
void ooc_set_partition_bytes(size_t bytes);

#endif
