/*
 * keys.h - join keys as 64-bit integers, for the interval and AS-OF kernels.
 *
 * keys_encode_ordered maps several columns of one comparable family onto int64 keys that keep
 * order and equality across all of them: INT, TIMESTAMP and TIME as they are; DATE as days, or
 * as microseconds when a TIMESTAMP is among the columns; FLOAT (or INT mixed with FLOAT) through
 * the order-preserving bit pattern of the double (types/compare.h: -0 = 0, every NaN one value
 * above +Infinity); DURATION as its span, months·30 days plus microseconds (a span that does not
 * fit 64 bits is an RX_ELIMIT error, never clamped); BOOL as 0/1; TEXT as ranks among the
 * distinct strings of all the columns (hashing finds them, only the distinct ones are sorted).
 *
 * keys_partition gives each row a dense partition id from its equality keys, equal ids for
 * equal key tuples across the two sides; a left row whose tuple has no right counterpart, and
 * any row with a NULL key, gets ROW_NONE. The ids may be a column's own dictionary codes,
 * borrowed rather than copied.
 */
#ifndef RX_KEYS_H
#define RX_KEYS_H

#include "types/column.h"

typedef struct {
    int64_t *keys[4];   /* one array per column: read only; free with keys_free */
    bool borrowed[4];   /* the array is the column's own data (INT, TIMESTAMP, TIME) */
    int n;
} KeySet;

int keys_encode_ordered(const Column *const *cols, int n, KeySet *out, RxError *err);
void keys_free(KeySet *ks);

/* *out = a validity bitmap of n rows, clear where any of cols has a NULL; NULL when no row
 * has one (and n_cols > 0). With n_cols = 0, an all-valid bitmap. -1 on OOM. */
int keys_validity(const Column *const *cols, int n_cols, size_t n, uint64_t **out);

/* Partition ids of both sides. l and r are read only: either the arrays l_own and r_own
 * (malloc'd, writable) or, when a side's ids are exactly the dictionary codes of its one TEXT
 * key (no NULLs, every left string found on the right, in the right's code order), those
 * codes (an optimisation: no copy, no fresh memory). A side that has a ROW_NONE id always has
 * its own array. Free with keys_parts_free. */
typedef struct {
    const uint32_t *l, *r;
    uint32_t *l_own, *r_own;
    uint32_t n_parts;
} KeyParts;

int keys_partition(const Column *const *lk, size_t nl, const Column *const *rk, size_t nr,
                   int n_keys, KeyParts *out, RxError *err);
void keys_parts_free(KeyParts *kp);

/* Group ids: rows with equal values in every column (NULL equal to NULL) get one id; ids are
 * dense and numbered in order of first appearance. *ids is malloc'd (n entries). */
int keys_group(const Column *const *cols, int n_cols, size_t n, uint32_t **ids, uint32_t *n_groups,
               RxError *err);

/* keys_group over cols followed by one more key, time_bucket(width, ts) from origin (width in
 * microseconds), without the buckets as a column: when ts is a TIMESTAMP column without NULLs
 * whose values never decrease, every bucket is in range and there are at most 8 other columns,
 * the same ids as keys_group over (cols..., the buckets) and 1; 0 when it does not apply (nothing
 * allocated); -1 on failure (err set). */
int keys_group_buckets(const Column *const *cols, int n_cols, const Column *ts, int64_t width, int64_t origin,
                       size_t n, uint32_t **ids, uint32_t *n_groups, RxError *err);

/* A WITHIN bound in the unit of the keys keys_encode_ordered gives two columns of these types. */
int64_t keys_distance_bound(RxType l, RxType r, RxDuration bound);

#endif
