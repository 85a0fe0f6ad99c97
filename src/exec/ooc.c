/*
 * ooc.c - see ooc.h. Not written yet: nothing is supported, so callers keep the in-memory
 * operator.
 */
#include "exec/ooc.h"

bool ooc_join_supported(const PNode *p) {
    (void)p;
    return false;
}

ChunkSrc *ooc_join_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err) {
    (void)x;
    (void)p;
    chunk_src_close(l);
    chunk_src_close(r);
    rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "this join has no out-of-core form");
    return NULL;
}
