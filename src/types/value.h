/*
 * value.h - Relix's scalar types and their in-memory representation (docs/design.md, "Data model").
 *
 *   INT        int64_t
 *   FLOAT      double
 *   BOOL       uint8_t (0 or 1)
 *   TEXT       RxStr: a slice into a StrHeap that the column holds a reference to
 *   TIMESTAMP  int64_t microseconds since 1970-01-01T00:00:00Z
 *   DATE       int32_t days since 1970-01-01
 *   TIME       int64_t microseconds since midnight, [0, 86400000000)
 *   DURATION   RxDuration: months (only from calendar units) and microseconds
 *
 * TY_NULL is the type of a bare NULL literal before analysis gives it a context.
 */
#ifndef RX_VALUE_H
#define RX_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum {
    TY_NULL = 0,
    TY_INT,
    TY_FLOAT,
    TY_BOOL,
    TY_TEXT,
    TY_TIMESTAMP,
    TY_DATE,
    TY_TIME,
    TY_DURATION
} RxType;

typedef struct {
    const char *ptr;
    uint64_t len;
} RxStr;

/* Bytewise order of two strings, a shorter prefix first (TEXT's order everywhere); a qsort
 * comparator over RxStr. */
static inline int rx_str_cmp(const void *a, const void *b) {
    const RxStr *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->ptr, y->ptr, n) : 0;
    if (c) return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

typedef struct {
    int64_t months;
    int64_t us;
} RxDuration;

typedef struct {
    RxType type;
    bool null;
    union {
        int64_t i;      /* INT, TIMESTAMP, TIME */
        int32_t date;   /* DATE */
        double f;       /* FLOAT */
        bool b;         /* BOOL */
        RxStr s;        /* TEXT */
        RxDuration d;   /* DURATION */
    } v;
} Value;

#define US_PER_SEC INT64_C(1000000)
#define US_PER_MIN (INT64_C(60) * US_PER_SEC)
#define US_PER_HOUR (INT64_C(60) * US_PER_MIN)
#define US_PER_DAY (INT64_C(24) * US_PER_HOUR)

/* "INT", "FLOAT", ... ; "NULL" for TY_NULL. */
const char *type_name(RxType t);
/* Parses a type name (case-insensitive); returns 0 and sets *out, or -1. */
int type_from_name(const char *s, size_t n, RxType *out);
/* Bytes per element in a column of type t. */
size_t type_width(RxType t);
static inline bool type_is_numeric(RxType t) { return t == TY_INT || t == TY_FLOAT; }
/* Which family of orderable values a type belongs to (0: none), the one rule for ASOF keys and
 * match columns and IJOIN endpoints: values of one family order against each other (INT with
 * FLOAT, TIMESTAMP with DATE); 1 numeric, 2 TEXT, 3 TIMESTAMP and DATE, 4 TIME, 5 DURATION,
 * 6 BOOL. */
static inline int type_order_family(RxType t) {
    switch (t) {
    case TY_INT: case TY_FLOAT: return 1;
    case TY_TEXT: return 2;
    case TY_TIMESTAMP: case TY_DATE: return 3;
    case TY_TIME: return 4;
    case TY_DURATION: return 5;
    case TY_BOOL: return 6;
    default: return 0;
    }
}
/* The family of an interval endpoint: type_order_family's, BOOL excluded (0: not an endpoint). */
static inline int type_endpoint_family(RxType t) {
    int f = type_order_family(t);
    return f == 6 ? 0 : f;
}
static inline bool type_is_temporal(RxType t) {
    return t == TY_TIMESTAMP || t == TY_DATE || t == TY_TIME || t == TY_DURATION;
}

#endif
