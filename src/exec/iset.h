/*
 * iset.h - the interval-set kernels behind PACK, GAPS, NORMALIZE, IMINUS and IINTERSECT
 * (docs/operators.md, "Interval sets").
 *
 * Every kernel works on int64 endpoints (keys_encode_ordered's order-keeping codes, or the
 * caller's own) and partition ids, and treats an interval [s, e) as the set of points
 * s <= x < e: a row with s >= e holds no point and takes no part (the caller gives a row with a
 * NULL endpoint s = e = 0). Each is one sort of the intervals followed by one pass, and its
 * output is in a fixed order that the comment of each function gives. Results are malloc'd
 * lists freed with iset_list_free, also after a failure; -1 means out of memory.
 */
#ifndef RX_ISET_H
#define RX_ISET_H

#include "types/column.h"

typedef struct {
    int64_t s, e;
    uint32_t part;   /* the partition (key) of the interval */
    uint32_t row;    /* NORMALIZE: the left row */
} IsetIv;

typedef struct {
    IsetIv *v;
    size_t n, cap;
} IsetList;

void iset_list_free(IsetList *l);

/* Intervals as columns, so that they become the result's columns without a copy: interval k
 * is [s[k], e[k]) of row row[k] (what the row is, each kernel says). The arrays are
 * rx_malloc'd with room for cap pieces (an owner may take one and set it NULL); freed with
 * iset_cols_free, also after a failure. */
typedef struct {
    uint32_t *row;
    int64_t *s, *e;
    size_t n, cap;
} IsetCols;

void iset_cols_free(IsetCols *c);

/* PACK: the maximal intervals of each partition's union, where intervals that overlap or
 * touch (one's end is the other's start) merge; in order of partition id, then start.
 * part[i] < n_parts for every row. packs (empty on entry) gets them as columns: .row is the
 * first row merged into the pack in (partition, start, end, row) order, whose partition is the
 * pack's. *count (NULL: not wanted) gets the number of rows merged into each pack (malloc'd,
 * packs->n entries). *order gets the rows that hold a point, sorted by (partition, start,
 * end, row); *pack_of[k] is the pack of row order[k] (both malloc'd, *n_order entries; NULL
 * when not wanted). *order is NULL also when it would be 0, 1, …, n-1 (every row holds a
 * point and the rows come sorted): the rows are then read in place. Rows already in
 * (partition, start, end) order are not sorted again (the sweep finds out as it goes), and
 * every array is sized once, for all n rows. */
int iset_pack(const uint32_t *part, const int64_t *s, const int64_t *e, size_t n, IsetCols *packs,
              int64_t **count, uint32_t **order, uint32_t **pack_of, size_t *n_order);

/* GAPS from PACK's packs (part: the rows' partitions that iset_pack was given): for every
 * partition 0..n_parts-1 in order, the intervals between consecutive packs; with a range, the
 * parts of [lo, hi) that no pack covers (the whole range for a partition without packs), in
 * start order. out (empty on entry) gets them with .row the gap's partition. */
int iset_gaps(const IsetCols *packs, const uint32_t *part, uint32_t n_parts, bool has_range, int64_t lo,
              int64_t hi, IsetCols *out);

/* IMINUS (intersect false) and IINTERSECT (true): for each left row in row order, the parts of
 * its interval that the union of the right intervals of its partition does not cover (IMINUS)
 * or covers (IINTERSECT), in start order, into out (empty on entry; .row the left row). A left row whose partition is ROW_NONE (no right
 * row has its key) keeps its whole interval under IMINUS and nothing under IINTERSECT; right
 * rows with ROW_NONE are ignored. Partition ids are below n_parts. */
int iset_minus(const uint32_t *lpart, const int64_t *ls, const int64_t *le, size_t nl,
               const uint32_t *rpart, const int64_t *rs, const int64_t *re, size_t nr, uint32_t n_parts,
               bool intersect, IsetCols *out);

/* NORMALIZE: for each left row in row order, its interval cut at every start and end of the
 * right intervals of its partition that lies strictly inside it, pieces in start order (a
 * left row with partition ROW_NONE is one piece). The unary form passes one side twice. */
int iset_normalize(const uint32_t *lpart, const int64_t *ls, const int64_t *le, size_t nl,
                   const uint32_t *rpart, const int64_t *rs, const int64_t *re, size_t nr,
                   uint32_t n_parts, IsetList *out);

#endif
