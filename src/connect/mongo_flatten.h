/*
 * mongo_flatten.h - MongoDB documents as rows: the columns a sample of BSON documents implies
 * and one document's values in them. No server is involved (connect/mongo.c reads the
 * documents); the rules are docs/connect.md's, "MongoDB".
 *
 * Columns: each leaf of a document is one column, named by its path of keys joined with '.'
 * (a field b of the embedded document a is "a.b"); columns come in the order their fields first
 * appear in the sample. An embedded document is descended into, an array is a leaf. Two
 * different paths that spell the same name (the key "a.b" and the field b of a) are an error.
 * A field that is a document in some documents and a value in others gives both its own column
 * (the values) and its fields' columns (each NULL where it is not there).
 *
 * Types, from the BSON types a column's non-null values have in the sample:
 *   int32, int64 only                    INT
 *   int32, int64, double, decimal128     FLOAT (a decimal128 is the nearest double; an integer
 *                                        that is not exact as a double is an error on reading)
 *   bool only                            BOOL
 *   Date (UTC milliseconds) only         TIMESTAMP
 *   anything else, or a mix              TEXT: a string as it is; an ObjectId as its 24 hex
 *                                        digits; an array (and a document or a value of another
 *                                        type in a TEXT column) as JSON; a number, bool or Date
 *                                        as Relix writes it
 *   null only, or no value               TEXT (all NULL)
 * A null or missing field is NULL.
 */
#ifndef RX_MONGO_FLATTEN_H
#define RX_MONGO_FLATTEN_H

#include <bson/bson.h>

#include "base/base.h"
#include "types/column.h"

/* libbson's functions, from the library loaded on first use (base/dynlib.h): mongo_open and
 * mf_observe/mf_read load it (mf_bson_load) before anything calls through the table, so a run
 * without MongoDB never maps it. */
#define MF_BSON_FNS(X) \
    X(bson_append_document) X(bson_append_document_begin) X(bson_append_document_end) X(bson_append_int32) \
    X(bson_append_int64) X(bson_append_iter) X(bson_as_relaxed_extended_json) X(bson_decimal128_to_string) \
    X(bson_destroy) X(bson_free) X(bson_iter_bool) X(bson_iter_date_time) \
    X(bson_iter_decimal128) X(bson_iter_double) X(bson_iter_init) X(bson_iter_int32) \
    X(bson_iter_int64) X(bson_iter_key) X(bson_iter_next) X(bson_iter_oid) \
    X(bson_iter_recurse) X(bson_iter_type) X(bson_iter_utf8) X(bson_oid_to_string) \
    X(bson_utf8_escape_for_json) X(bson_utf8_validate)
#define MF_BSON_FN(f) __typeof__(f) *f;
typedef struct { MF_BSON_FNS(MF_BSON_FN) } MfBson;
#undef MF_BSON_FN
extern MfBson bsonlib;

/* Loads libbson-1.0.so.0 once per process: 0, or -1 with an RX_EUNSUPPORTED error naming the
 * library and its Debian package (span 0..0). */
int mf_bson_load(RxError *err);

/* The BSON types a column met, as bits. */
enum {
    MF_INT = 1, MF_FLOAT = 2, MF_BOOL = 4, MF_DATE = 8, MF_STRING = 16, MF_OID = 32, MF_ARRAY = 64,
    MF_OTHER = 128 /* a document where a value is expected, and every other BSON type */
};

typedef struct {
    char *name;      /* the keys joined with '.', malloc'd */
    char **keys;     /* the path, malloc'd */
    int depth;
    unsigned seen;   /* MF_* bits of the non-null values observed */
    RxType type;     /* mf_type(seen), set by mf_finish */
} MfColumn;

typedef struct {
    int n_cols, cap;
    MfColumn *cols;
    int *hash;       /* open addressing over names: column index + 1, 0 empty */
    int hash_cap;
    size_t n_docs;   /* documents observed */
} MfSchema;

void mf_init(MfSchema *s);
void mf_free(MfSchema *s);

/* Adds a column for every leaf path of doc the schema lacks, and records the BSON types of
 * doc's values. -1 with err: RX_ETYPE when two different paths spell one name (naming it),
 * RX_EVALUE for a document libbson cannot read, RX_ENOMEM. */
int mf_observe(MfSchema *s, const bson_t *doc, RxError *err);

/* The Relix type of a column by the rule above, from the types it met. */
RxType mf_type(unsigned seen);

/* Sets every column's type from what the sample met. */
void mf_finish(MfSchema *s);

/* The column named name, or -1. */
int mf_find(const MfSchema *s, const char *name);

/* Reads doc as one row into the builders: slot[c] (one per column of s) is the builder that
 * receives column c, or -1 for a column not read; n builders. row is the document's number
 * (from 0), for messages. When strict, a leaf path the schema lacks is an error naming it (a
 * schema from a sample must not drop data silently): anywhere when every column is read, else
 * under a top-level field that holds a column read. A value its column's type cannot hold exactly is an error naming the column, the
 * row and the value's BSON type. -1 with err (RX_ETYPE, RX_EVALUE, RX_ENOMEM); the builders then
 * hold a partial row, and the caller discards them. */
int mf_read(const MfSchema *s, const bson_t *doc, size_t row, const int *slot, int n, ColBuilder *b,
            bool strict, RxError *err);

/* Appends the JSON of the value at it (a document as an object, an array as an array; a Date
 * as an ISO-8601 string, an ObjectId as its hex string, a decimal128 as a string of its digits;
 * other BSON types as MongoDB's relaxed extended JSON). */
void mf_json(const bson_iter_t *it, StrBuf *out);

/* The name of the BSON type t, for messages ("string", "int32", ...). */
const char *mf_bson_type_name(bson_type_t t);

#endif
