/*
 * stream.h - operators that move data a chunk at a time, so that a query over more data than
 * the memory budget holds can still run (docs/memory.md).
 *
 * A ChunkSrc hands out a relation as a sequence of tables ("chunks") of any size, in the
 * relation's order: concatenating the chunks gives exactly the table the in-memory operator
 * would have built, row for row. Every streaming operator is a ChunkSrc that owns the ChunkSrcs
 * it reads from, so a streaming plan is a tree of them, pulled from the root.
 *
 * Sources: a CSV file read block by block (stream_csv.c), a table already in memory cut into
 * slices (stream_table_src, for small inputs and for tests). Operators: σ and π over each chunk,
 * the AS-OF and interval joins over inputs sorted by time (stream_join.c), and the out-of-core
 * joins that partition unsorted inputs to temporary files (ooc.c). Sinks pull from the root
 * and write each chunk (a result writer appending) or fold it (γ without groups).
 */
#ifndef RX_STREAM_H
#define RX_STREAM_H

#include "base/base.h"
#include "plan/plan.h"
#include "types/column.h"

/* Rows a source aims to put in one chunk: big enough that per-chunk costs vanish, small
 * enough that a chunk of a wide table stays a few MB. A source may give fewer (the last chunk,
 * a block boundary) or, rarely, more; consumers accept any size >= 1. */
#define STREAM_CHUNK_ROWS 65536

typedef struct ChunkSrc ChunkSrc;
struct ChunkSrc {
    /* The next chunk: 1 with *out a new table the caller frees with table_free (its column
     * names are the relation's display names, its columns of the relation's types, never a
     * pruned placeholder for a column the consumer reads), 0 at the end (*out NULL), -1 with
     * err set. After 0 or -1, next is not called again. */
    int (*next)(ChunkSrc *s, Table **out, RxError *err);
    /* Frees s and everything it holds, the sources it reads from included. NULL-safe through
     * chunk_src_close. */
    void (*close)(ChunkSrc *s);
};

static inline int chunk_src_next(ChunkSrc *s, Table **out, RxError *err) {
    return s->next(s, out, err);
}
static inline void chunk_src_close(ChunkSrc *s) {
    if (s) s->close(s);
}

/* A source over table t (borrowed: t must outlive the source) in chunks of `rows` rows (0:
 * STREAM_CHUNK_ROWS); each chunk shares t's columns' heaps and copies its slice of the
 * values. NULL on OOM. Tests cut inputs into random sizes with stream_table_src_sizes: sizes[i]
 * rows for chunk i, cycling (each >= 1). */
ChunkSrc *stream_table_src(const Table *t, size_t rows);
ChunkSrc *stream_table_src_sizes(const Table *t, const size_t *sizes, size_t n_sizes);

/* A source over CSV file f (borrowed: f must outlive the source): the chunks of csv_chunks_*
 * (io.h), a block of the file each, with f's column names; columns not marked in want (NULL:
 * all) are placeholders. The bytes of the blocks read are added to *done (NULL: not counted;
 * csv_chunks_count_bytes). Standard input, which cannot be read again, is loaded (want's
 * columns) and cut into slices. NULL with err. */
struct CsvFile;
ChunkSrc *stream_csv_src(struct CsvFile *f, const uint8_t *want, uint64_t *done, RxError *err);

/* ---- a plan run as a stream (stream_ops.c) ---------------------------------------------------- */

typedef struct ExecCtx ExecCtx;

/* Whether plan p can run chunk by chunk: every operator is a scan of a CSV file, σ, ρ, an
 * AS-OF or interval join with a streaming or out-of-core form (stream_join.h, ooc.h), or, at
 * the root only, γ without groups of count(*) and count(x). */
bool stream_plan_ok(const PNode *p);

/* Whether streaming p pays: one of its CSV files is too large to hold (csv_streamed). */
bool stream_plan_pays(const PNode *p);

/* The chunk source of p's output (p streamable, not a γ); NULL with err. The caller closes it. */
ChunkSrc *stream_open(ExecCtx *x, const PNode *p, RxError *err);

/* Receives one chunk of the output (borrowed for the call); -1 with err stops the run. */
typedef int (*StreamSink)(void *ud, const Table *chunk, RxError *err);

/* Runs streamable plan p. A γ at the root: *out is its one-row table. Otherwise each chunk
 * goes to sink when there is one (*out is then an empty table of p's schema, for a writer to
 * write a header from when no chunk came), or the chunks are concatenated into *out (the
 * output is held, not the inputs). -1 with err (chunks already given to the sink stay given:
 * the caller makes its output all-or-nothing). */
int stream_run(ExecCtx *x, const PNode *p, StreamSink sink, void *ud, Table **out, RxError *err);

#endif
