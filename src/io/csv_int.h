/*
 * csv_int.h - what csv.c (the reader of a file held in memory) and csv_stream.c (the reader of
 * a file by blocks) share; private to src/io.
 *
 * csv_stream.c cuts a file into blocks of whole records and hands each block to csv.c's
 * reader as if it were a small file of its own (csv_open_block), with the line number it
 * starts at, so that errors name the file's line and column exactly as a reading of the whole
 * file does.
 */
#ifndef RX_CSV_INT_H
#define RX_CSV_INT_H

#include "io/io.h"

/* One block of a file read by blocks: whole records, starting at a record's start. */
typedef struct {
    uint32_t line0;            /* lines of the file before the block */
    uint64_t byte0;            /* bytes of the file before the block (for the progress meter) */
    bool first;                /* the block starts the file: byte order mark and header as the
                                  options say; the fields below are then unused */
    int n_cols;                /* the file's columns (from the header or the first record) */
    const char *const *names;  /* n_cols */
    const RxType *types;       /* n_cols, the types to convert to; NULL: detect */
    const RxType *forced;      /* detecting: n_cols types given by the options, TY_NULL where
                                  none; NULL: none */
} CsvBlock;

/* What a CsvFile knows beyond its table. */
typedef struct {
    CsvOptions opt;            /* the options it was opened with (strings are the file's copies) */
    bool streamed;             /* opened by blocks (csv_open_blocks): nothing of the input held */
    size_t bytes;              /* the file's size when streamed */
    RxType *kinds;             /* n_cols: the detected kinds before an all-NULL column became
                                  TEXT (TY_NULL there), or the schema's types */
    int8_t *sorted;            /* n_cols, or NULL: 1 non-decreasing without NULLs, 0 not, -1
                                  unknown (see csv_column_sorted) */
    CsvFile *inner;            /* streamed: the whole-file reading csv_load made, or NULL */
} CsvMeta;

const CsvMeta *csv_meta(const CsvFile *f);

/* csv_open over the bytes map[0..len) of one block (an anonymous mapping, whole pages from map
 * on, which the file takes over: unmapped on failure too). path names the file in errors. */
int csv_open_block(const char *path, const CsvBlock *b, char *map, size_t len,
                   const CsvOptions *opt, CsvFile **out, RxError *err);

/* csv_open checking the whole file at once, whatever its size (held in memory, or read from
 * disk in windows by each pass: csv.c). */
int csv_open_whole(const char *path, const CsvOptions *opt, CsvFile **out, RxError *err);

/* A CSV file read by blocks: pass 1 as csv_open's, over blocks of the file read from disk and
 * released in turn, also finding which columns are sorted (csv_stream.c). Errors as
 * csv_open's. 1 when done, 0 when the file cannot be read so (not a regular file, or
 * compressed: the caller reads it whole), -1 with err. */
int csv_open_blocks(const char *path, const CsvOptions *opt, CsvFile **out, RxError *err);

/* Where the records in p[0..n) that end in it end, p[0] starting a record: the offset just after
 * the last line end outside quotes, 0 when no record ends in it. Knows what the reader knows of
 * quotes: a quote opens a quoted field only at a field's start, "" inside one is a quote, and a
 * line end inside one is data. */
size_t csv_block_cut(const char *p, size_t n, char delim);

/* The join of two detected kinds (csv.c's combine). */
RxType csv_kind_join(RxType a, RxType b);

/* Column j of the file's table, put in place of its placeholder (f takes over c's
 * reference); marks it loaded. -1 when out of memory. */
int csv_put_column(CsvFile *f, int j, Column *c);

/* Turns f, the reading of a file's first block, into the file read by blocks: its input
 * released, its columns placeholders of the file's types (kinds: the detected kinds, TY_NULL
 * for a column without a value, which becomes TEXT) over n_rows rows, bytes the file's size;
 * takes sorted (n_cols, malloc'd; see csv_column_sorted). -1 when out of memory (sorted is
 * then the caller's still). */
int csv_become_streamed(CsvFile *f, const RxType *kinds, size_t n_rows, size_t bytes,
                        int8_t *sorted);

/* f's table, now the caller's (f keeps none; close f with csv_close as before). */
Table *csv_take_table(CsvFile *f);

/* The file's path, column names and types (n_cols of csv_table's). */
const char *csv_path(const CsvFile *f);
const char *const *csv_names(const CsvFile *f);
const RxType *csv_types(const CsvFile *f);

/* The bytes reserved for a block: a fresh anonymous mapping of at least n bytes, whole pages;
 * NULL when out of memory. */
char *csv_block_map(size_t n);

#endif
