/*
 * parquet.h - Parquet input and output for flat schemas (docs/files.md, "Parquet files").
 *
 * The reader takes files whose columns are all leaves of the root (no groups, no repeated
 * fields), with the encodings PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY, RLE (booleans and
 * levels), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
 * BYTE_STREAM_SPLIT, in data pages of version 1 and 2, uncompressed or compressed with Snappy,
 * gzip or Zstandard. Types map as:
 *   INT32, INT64 (plain or INTEGER / INT_8 ... UINT_32)        INT
 *   FLOAT, DOUBLE, DECIMAL (any physical type), FLOAT16        FLOAT (nearest double)
 *   BOOLEAN                                                    BOOL
 *   BYTE_ARRAY (STRING, ENUM, JSON, or none), UUID             TEXT (UUID as 8-4-4-4-12 hex)
 *   DATE                                                       DATE
 *   TIMESTAMP millis / micros / nanos, INT96                    TIMESTAMP (nanoseconds floored)
 *   TIME millis / micros / nanos                                TIME (nanoseconds floored)
 * Anything else (nested or repeated fields, encryption, INTERVAL, LZ4, Brotli, LZO, columns in
 * other files) is an error naming the feature.
 *
 * pq_open reads and checks the footer only and gives a table whose columns are placeholders
 * (column.h: pruned); pq_load decodes the columns marked in want, row group by row group, on
 * several threads. The file is mapped, not read whole; the decoded columns are the memory
 * used, and uncompressed strings point into the mapping. Every length and offset read from the
 * file is checked against the file before it is used; a count (rows, values) that would need
 * more memory than the memory limit allows fails with RX_ENOMEM. A corrupt file is an error
 * (RX_EIO, "corrupt Parquet file: ..."), never a crash.
 *
 * The writer produces a file that the reader and other Parquet readers read back identically:
 * one OPTIONAL column per result column, INT as INT64, FLOAT as DOUBLE, BOOL as BOOLEAN, TEXT
 * as BYTE_ARRAY STRING (dictionary-encoded when that is smaller), TIMESTAMP as INT64
 * TIMESTAMP(MICROS, UTC), DATE as INT32 DATE, TIME as INT64 TIME(MICROS); min/max/null_count
 * statistics per column chunk. DURATION has no Parquet type that holds it exactly: an error.
 */
#ifndef RX_PARQUET_H
#define RX_PARQUET_H

#include "base/base.h"
#include "io/io.h"
#include "types/column.h"

typedef struct PqFile PqFile;

/* Opens the Parquet file at path and reads its footer. *out's table has a placeholder for
 * every column and the file's row count. -1 with err: RX_EIO (cannot open or read, or
 * corrupt: the message names the path and what is wrong), RX_EUNSUPPORTED (a feature this
 * reader does not have, named), RX_ELIMIT (more rows than a table holds). threads: decoding
 * threads for pq_load (0: rx_threads()). */
int pq_open(const char *path, int threads, PqFile **out, RxError *err);
/* The same over n bytes in memory (copied), named name in messages (the fuzz target). */
int pq_open_mem(const void *data, size_t n, const char *name, int threads, PqFile **out, RxError *err);
const Table *pq_table(const PqFile *f);
Table *pq_table_mut(PqFile *f);
/* Decodes the columns marked in want (NULL: all) that are not loaded yet, in place. -1 with
 * err (RX_EIO corrupt data, RX_EUNSUPPORTED, RX_ENOMEM); the table is unchanged then. */
int pq_load(PqFile *f, const uint8_t *want, RxError *err);
/* Frees f and its table. */
void pq_close(PqFile *f);

/* Row-group statistics, for skipping row groups that a condition proves empty. */
int pq_row_groups(const PqFile *f);
/* Rows of row group g. */
size_t pq_row_group_rows(const PqFile *f, int g);
/* The min and max of column j in row group g as values of the column's type (TEXT borrowed
 * from the file); 0 when known, -1 when the file has no usable statistics for it. *nulls: the
 * null count (-1 unknown). */
int pq_stats(const PqFile *f, int g, int j, Value *min, Value *max, int64_t *nulls);
/* Restricts pq_load to the row groups marked in keep (NULL: all): the table then has only
 * their rows. Only before the first pq_load; -1 otherwise. */
int pq_keep_row_groups(PqFile *f, const uint8_t *keep);
/* How many row groups f reads (all, or those pq_keep_row_groups kept); whether it keeps
 * exactly those marked in keep. */
int pq_row_groups_kept(const PqFile *f);
bool pq_keeps(const PqFile *f, const uint8_t *keep);

/* ---- writer --------------------------------------------------------------------------------- */

typedef enum { PQ_CODEC_NONE = 0, PQ_CODEC_SNAPPY = 1, PQ_CODEC_GZIP = 2, PQ_CODEC_ZSTD = 6 } PqCodec;

typedef struct {
    PqCodec codec;          /* default Zstandard */
    int level;              /* 0: the codec's default */
    size_t row_group_rows;  /* rows per row group; 0: 1,048,576 */
} PqWriteOptions;

void pq_write_options_default(PqWriteOptions *o);
/* "none", "snappy", "gzip", "zstd" (also "uncompressed", "zstandard"); -1 if unknown. */
int pq_codec_from_name(const char *name, PqCodec *out);

/* A file written a table (or chunk) at a time: pq_writer_open writes the header for a result
 * of these names and types, pq_writer_add writes t's rows as row groups, pq_writer_finish the
 * footer; pq_writer_free releases it (after finish or instead of it). -1 with err: RX_EIO when
 * the sink fails, RX_EUNSUPPORTED for a DURATION column (named), RX_ENOMEM. */
typedef struct PqWriter PqWriter;
PqWriter *pq_writer_open(const RxSink *sink, int n_cols, char *const *names, const RxType *types,
                         const PqWriteOptions *opt, RxError *err);
int pq_writer_add(PqWriter *w, const Table *t, RxError *err);
int pq_writer_finish(PqWriter *w, RxError *err);
void pq_writer_free(PqWriter *w);

/* The whole of table t as one Parquet file onto sink. */
int pq_write(const Table *t, const PqWriteOptions *opt, const RxSink *sink, RxError *err);

#endif
