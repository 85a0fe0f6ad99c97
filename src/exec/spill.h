/*
 * spill.h - tables written to a temporary file and read back (docs/memory.md): the format the
 * out-of-core joins (ooc.c) partition their inputs and outputs into.
 *
 * A spill file is a sequence of records, each holding consecutive rows of the tables written
 * (slices of them, so that a record stays near the file's record size), with the file's columns (the table it was created like: count, types, names, pruned placeholders).
 * Every type is kept exactly, NULLs included; TEXT bytes are copied. A record is compressed
 * with zstd (level 1) when compression is on, compressing is expected to be faster than writing
 * the bytes as they are (measured as the process spills: spill.c) and makes it smaller; it is
 * written with one large write. Reading gives the records back in order, each as one table, or the whole file
 * as one table.
 */
#ifndef RX_SPILL_H
#define RX_SPILL_H

#include "base/tempfile.h"
#include "exec/stream.h"

typedef struct SpillFile SpillFile;

/* A new empty spill file in d (borrowed: d must outlive it) with like's columns (like is read
 * only for its shape). compress: zstd level 1 per record. NULL with err on failure. */
SpillFile *spill_create(RxTempDir *d, const Table *like, bool compress, RxError *err);
/* Frees the calling thread's buffers that writes and reads reuse (they grow to the largest
 * record); a spilling operator calls it when it is done. */
void spill_release_buffers(void);
/* For tests: 1 compresses every record of a file created with compression, 0 none, -1 (the
 * default) whichever is faster as measured so far. */
void spill_force_compress(int mode);
/* A new empty spill file beside like, with like's columns and compression. */
SpillFile *spill_create_as(const SpillFile *like, RxError *err);
/* Appends the rows of parts[0], then parts[1], ... (each with the file's columns; tables of 0
 * rows are allowed), as records of about the file's record size (1 MB unless set; a record of
 * 0 rows is not written). 0, or -1 with err (a full directory, out of memory). */
void spill_set_record_bytes(SpillFile *f, size_t bytes);
int spill_write(SpillFile *f, Table *const *parts, int n_parts, RxError *err);
/* Rows written so far, and their size uncompressed (about their size in memory). */
uint64_t spill_rows(const SpillFile *f);
uint64_t spill_raw_bytes(const SpillFile *f);
/* The whole file as one new table (0 rows when nothing was written). -1 with err. */
int spill_load(SpillFile *f, Table **out, RxError *err);
/* Frees f; its file goes with it. NULL-safe. */
void spill_close(SpillFile *f);

/* The file's size: where the next record will start. */
uint64_t spill_size(const SpillFile *f);

/* Reading record by record from offset off (0: the first record; else a spill_size taken
 * before a write) up to end (0: the end of the file): each call gives the next record as a
 * new table (1), or 0 at the end, or -1 with err. */
typedef struct {
    SpillFile *f;
    uint64_t off, end;
} SpillReader;
int spill_read_next(SpillReader *r, Table **out, RxError *err);

/* A chunk source over f's records (one chunk per record); borrows f, which must outlive it. NULL
 * on OOM. */
ChunkSrc *spill_src(SpillFile *f);

#endif
