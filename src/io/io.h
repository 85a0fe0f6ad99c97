/*
 * io.h - CSV input and the result writers (table, csv, tsv, json, markdown).
 *
 * csv_read turns a file into a Table, detecting column types from the data (docs/design.md: INT,
 * FLOAT, BOOL, DATE, TIMESTAMP, TIME, TEXT) unless the options give a schema. Errors name the
 * file, line and column of the offending cell and quote its line. Large files are parsed in
 * chunks on several threads; the result and the error reported (the first in the file) do not
 * depend on how the work was split.
 *
 * The writers format a result table onto a sink. They never print by themselves: the caller's
 * sink decides where bytes go (stdout in the CLI, a buffer in tests and the embedding API).
 */
#ifndef RX_IO_H
#define RX_IO_H

#include "base/base.h"
#include "types/column.h"

/* ---- CSV input ------------------------------------------------------------------------------ */

typedef struct {
    char delimiter;          /* ',' by default */
    bool header;             /* true by default: the first record names the columns */
    const char *null_text;   /* a field equal to this is NULL (an empty field always is) */
    int n_schema;            /* 0: detect; otherwise names and types of every column */
    const char *const *schema_names;
    const RxType *schema_types;
    int n_types;             /* without a schema: these columns' types are given, not detected */
    const char *const *type_names;
    const RxType *type_types;
    /* How the reader splits the work (csv.c): the file is cut into chunks of about
     * chunk_bytes (0: 4 MB) that up to `threads` threads parse (0: one per online
     * processor). The table and any error are the same for every choice. */
    size_t chunk_bytes;
    int threads;
    /* A regular, uncompressed file larger than stream_above bytes (0: an eighth of the memory
     * limit, or of the machine's memory without one; SIZE_MAX: never) is never held whole by csv_open: it is
     * checked block by block, blocks of about block_bytes (0: 8 MB) read from disk and released
     * in turn (csv_stream.c). The table, the types and any error are the same as when it is
     * read whole. */
    size_t stream_above;
    size_t block_bytes;
    /* A regular, uncompressed file is read from disk a window at a time by each pass, never
     * held whole; hold_input reads it whole into memory first instead, as a stream or a
     * compressed file always is. The table and any error are the same either way. */
    bool hold_input;
} CsvOptions;

void csv_options_default(CsvOptions *o);

/* Reads the CSV file at path into *out (a new table the caller frees with table_free). The
 * returned TEXT columns may point into the reader's copy of the input, which the table keeps
 * alive. path "-" is standard input; gzip and zstd input is decompressed (input.h). On failure
 * returns -1 with err filled:
 *   RX_EIO   the file cannot be opened or read (message names the path and strerror), its
 *            compressed data is corrupt or cut short, or it shrank while it was read
 *   RX_ENAME a name in type_names that is not a column of the file (no position: the caller
 *            knows where the option was written)
 *   RX_ECSV  a record with the wrong number of fields, an unterminated quote, a bad header,
 *            a NUL byte (binary data)
 *   RX_EVALUE a cell that has the shape of the column's type but is not a valid value
 *            (2026-02-30 in a DATE column), or a cell that does not parse under a given schema
 * CSV errors are reported at the file position (rx_error_at_file). */
int csv_read(const char *path, const CsvOptions *opt, Table **out, RxError *err);

/* The same in two steps, so that a query reads only the columns it uses: csv_open checks the
 * whole file (every record's shape, and the types when detecting) and gives the table with
 * every column a placeholder (column.h: pruned); csv_load converts the columns marked in want
 * (NULL: all) that are not loaded yet, in place. The input's copy (or, for a regular file
 * read from disk again by csv_load, its open descriptor) stays until every column is loaded or
 * csv_close, which frees the table too; csv_load fails (RX_EIO) when such a file changed since
 * csv_open. Errors as csv_read's; a bad value in a column that is never loaded is
 * never reported, because it is never read. */
typedef struct CsvFile CsvFile;
int csv_open(const char *path, const CsvOptions *opt, CsvFile **out, RxError *err);
const Table *csv_table(const CsvFile *f);
Table *csv_table_mut(CsvFile *f);
int csv_load(CsvFile *f, const uint8_t *want, RxError *err);
void csv_close(CsvFile *f);

/* Whether column j of f is known sorted: 1 non-decreasing with no NULL, 0 not, -1 unknown.
 * A file read by blocks knows it for its INT, FLOAT, DATE, TIMESTAMP and TIME columns from
 * csv_open on (pass 1 converts those columns' cells block by block and compares each value
 * with the one before it); a file read whole knows it for the columns loaded. */
int csv_column_sorted(const CsvFile *f, int j);

/* Whether csv_open read f by blocks (CsvOptions.stream_above): it holds nothing of the input,
 * and csv_load reads the whole file into memory after all. */
bool csv_streamed(const CsvFile *f);
/* The size of a file csv_open read by blocks, in bytes; 0 for any other. */
size_t csv_streamed_bytes(const CsvFile *f);

/* The rows of a CSV file a block at a time, in bounded memory (csv_stream.c): the file is
 * read again from disk in blocks of whole records (CsvOptions.block_bytes), each converted
 * into one chunk, a table of the file's column names and types whose TEXT cells point into a
 * heap holding that block, so that freeing the chunk releases the block. The chunks'
 * concatenation is cell for cell the table csv_load gives; columns not marked in want (NULL:
 * all) are placeholders (column.h: pruned). Errors are csv_load's, at the same line and
 * column. Memory: a block and its chunk, whatever the file's size (and the longest record).
 * Standard input cannot be read again: csv_chunks_open fails with RX_EUNSUPPORTED for it (the
 * caller loads it into memory instead). A compressed file is decompressed again.
 * csv_chunks_next: 1 with *out a new table (the caller's, table_free; its TEXT columns have
 * their slices, none is lazy, column.h), 0 at the end, -1 with err. f must outlive the
 * reader. */
typedef struct CsvChunks CsvChunks;
int csv_chunks_open(const CsvFile *f, const uint8_t *want, CsvChunks **out, RxError *err);
int csv_chunks_next(CsvChunks *c, Table **out, RxError *err);
void csv_chunks_close(CsvChunks *c);
/* Counts the bytes of each block c reads into *done (shared by every reader of one run, NULL:
 * none), and has the progress meter's updates while a block is read start from *done: one
 * meter over several files read in turn, its step begun by the caller with their total. */
void csv_chunks_count_bytes(CsvChunks *c, uint64_t *done);

/* ---- result writers ------------------------------------------------------------------------- */

typedef struct {
    int (*write)(void *ud, const char *p, size_t n);  /* returns 0, or -1 on failure */
    void *ud;
} RxSink;

typedef enum { OUT_TABLE, OUT_CSV, OUT_TSV, OUT_JSON, OUT_MARKDOWN, OUT_JSONL } OutFormat;

/* "table", "csv", "tsv", "json", "jsonl", "markdown" (also "md"); -1 if unknown. */
int out_format_from_name(const char *name, OutFormat *out);

/* Writes table t in format f to sink. Column names are t->names, types the columns' types.
 * -1 with err (RX_EIO) if the sink fails. */
int out_write(const Table *t, OutFormat f, const RxSink *sink, RxError *err);

/* What out_write_opts may change about a result's text.
 *   max_rows  table format only: when the result has more rows, print the first
 *             ceil(max_rows / 2) and the last floor(max_rows / 2) with one line between
 *             them, "… 999,960 rows not shown" followed by "; " and hint when hint is set.
 *             0: every row.
 *   query     jsonl only: 0 prints each row as its object; N >= 1 wraps it as
 *             {"query":N,"row":{...}} (a script with several queries).
 *   no_header csv and tsv only: the rows without the header line, so that a result written
 *             chunk by chunk (the header with the first) is byte for byte the whole one's. */
typedef struct {
    size_t max_rows;
    const char *hint;
    int query;
    bool no_header;
} OutOptions;

/* As out_write, with options (NULL: none). */
int out_write_opts(const Table *t, OutFormat f, const OutOptions *opt, const RxSink *sink, RxError *err);

/* Appends the text of one value as the table and CSV writers print it (no quoting): numbers in
 * shortest round-trip form, temporal values in ISO-8601, BOOL true/false; NULL appends
 * null_text. */
void out_value_text(const Column *c, size_t row, const char *null_text, StrBuf *b);

#endif
