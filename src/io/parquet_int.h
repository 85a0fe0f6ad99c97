/*
 * parquet_int.h - internals shared by the Parquet reader and writer: the Thrift compact
 * protocol (parquet_thrift.c) and the footer's structures as this implementation keeps them.
 */
#ifndef RX_PARQUET_INT_H
#define RX_PARQUET_INT_H

#include <snappy-c.h>

#include "io/parquet.h"

/* Physical types */
enum { PT_BOOLEAN = 0, PT_INT32, PT_INT64, PT_INT96, PT_FLOAT, PT_DOUBLE, PT_BYTE_ARRAY, PT_FIXED };
/* Encodings */
enum { ENC_PLAIN = 0, ENC_PLAIN_DICT = 2, ENC_RLE = 3, ENC_BIT_PACKED = 4, ENC_DELTA_BINARY = 5,
       ENC_DELTA_LENGTH = 6, ENC_DELTA_BYTE_ARRAY = 7, ENC_RLE_DICT = 8, ENC_BYTE_STREAM_SPLIT = 9 };
/* Page types */
enum { PG_DATA = 0, PG_INDEX = 1, PG_DICT = 2, PG_DATA_V2 = 3 };
/* Converted types (the legacy annotations) */
enum { CT_UTF8 = 0, CT_MAP = 1, CT_MAP_KV = 2, CT_LIST = 3, CT_ENUM = 4, CT_DECIMAL = 5,
       CT_DATE = 6, CT_TIME_MILLIS = 7, CT_TIME_MICROS = 8, CT_TS_MILLIS = 9, CT_TS_MICROS = 10,
       CT_UINT_8 = 11, CT_UINT_16 = 12, CT_UINT_32 = 13, CT_UINT_64 = 14, CT_INT_8 = 15,
       CT_INT_16 = 16, CT_INT_32 = 17, CT_INT_64 = 18, CT_JSON = 19, CT_BSON = 20,
       CT_INTERVAL = 21 };
/* Logical types (the union's field ids) */
enum { LT_NONE = 0, LT_STRING = 1, LT_MAP = 2, LT_LIST = 3, LT_ENUM = 4, LT_DECIMAL = 5,
       LT_DATE = 6, LT_TIME = 7, LT_TIMESTAMP = 8, LT_INTEGER = 10, LT_NULL = 11, LT_JSON = 12,
       LT_BSON = 13, LT_UUID = 14, LT_FLOAT16 = 15 };
/* Time units */
enum { TU_MILLIS = 1, TU_MICROS = 2, TU_NANOS = 3 };

/* ---- compact protocol: reading ---------------------------------------------------------------- */

/* A cursor over Thrift compact bytes. Every read checks the bounds; the first problem sets bad
 * (and what), after which reads return zeros. */
typedef struct {
    const uint8_t *p, *end;
    int depth;
    bool bad;
    const char *what;
} TReader;

/* Compact types */
enum { TT_STOP = 0, TT_TRUE = 1, TT_FALSE = 2, TT_BYTE = 3, TT_I16 = 4, TT_I32 = 5, TT_I64 = 6,
       TT_DOUBLE = 7, TT_BINARY = 8, TT_LIST = 9, TT_SET = 10, TT_MAP = 11, TT_STRUCT = 12 };

uint64_t tr_varint(TReader *r);
/* The next field of the struct being read (*last: the previous field's id, 0 at the start):
 * false at its end (or on a bad input). */
bool tr_field(TReader *r, int *last, int *id, int *type);
/* An integer field's value (BYTE, I16, I32, I64); a bool field's is type == TT_TRUE. */
int64_t tr_int(TReader *r, int type);
/* A binary field: the bytes (into the input) and their count. */
const uint8_t *tr_binary(TReader *r, size_t *n);
/* A list or set header: the element type and count (count <= the bytes left). */
uint32_t tr_list(TReader *r, int *etype);
/* Skips a value of the given type (nesting bounded). */
void tr_skip(TReader *r, int type);
/* Entering and leaving a nested struct (bounds the depth). */
bool tr_enter(TReader *r);
void tr_leave(TReader *r);
void tr_fail(TReader *r, const char *what);

/* ---- compact protocol: writing ---------------------------------------------------------------- */

typedef struct {
    StrBuf *b;
    int last[32];   /* per open struct: the id of its previous field */
    int depth;
} TWriter;

void tw_init(TWriter *w, StrBuf *b);
void tw_i32(TWriter *w, int id, int32_t v);
void tw_i64(TWriter *w, int id, int64_t v);
void tw_bool(TWriter *w, int id, bool v);
void tw_binary(TWriter *w, int id, const void *p, size_t n);
/* A struct field (id > 0) or a list element (id 0): then its fields, then tw_end. */
void tw_struct(TWriter *w, int id);
void tw_end(TWriter *w);
/* A list field of n elements of type etype; the elements follow (structs with tw_struct(w, 0),
 * i32 with tw_list_i32, binaries with tw_list_binary). */
void tw_list(TWriter *w, int id, int etype, uint32_t n);
void tw_list_i32(TWriter *w, int32_t v);
void tw_list_binary(TWriter *w, const void *p, size_t n);

/* libsnappy's C API, loaded on first use (base/dynlib.h; it pulls in the C++ runtime, which a
 * run without Snappy pages should not map). Usable once pq_snappy_load returned 0. */
typedef struct {
    __typeof__(snappy_compress) *snappy_compress;
    __typeof__(snappy_uncompress) *snappy_uncompress;
    __typeof__(snappy_max_compressed_length) *snappy_max_compressed_length;
    __typeof__(snappy_uncompressed_length) *snappy_uncompressed_length;
} PqSnappy;
extern PqSnappy pq_snappy;

/* Loads libsnappy.so.1 once per process: 0, or -1 with an RX_EUNSUPPORTED error naming the
 * library and its Debian package (span 0..0). */
int pq_snappy_load(RxError *err);

#endif
