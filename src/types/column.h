/*
 * column.h - columnar tables: the data model every stage shares (docs/design.md, "Data model").
 *
 * A Column is one attribute's values: a typed array of n elements (see value.h for the element
 * types) and, only when the column has NULLs, a validity bitmap (bit set = valid). TEXT elements
 * are RxStr slices into byte heaps that the column holds references to, so that selections and
 * joins gather 16-byte slices without copying bytes.
 *
 * Ownership: columns and heaps are reference counted. A Table holds one reference to each of its
 * columns; operators that pass a column through unchanged (scan, rename, projection of a column)
 * share it with col_retain instead of copying. col_release frees at zero.
 *
 * Row indices are uint32_t; ROW_NONE marks "no row" in a gather (the result is NULL there), as
 * outer joins need. A table holds fewer than 2^32 - 1 rows.
 */
#ifndef RX_COLUMN_H
#define RX_COLUMN_H

#include "base/base.h"
#include "types/value.h"

#define ROW_NONE UINT32_MAX
#define RX_MAX_ROWS (UINT32_MAX - 1)

typedef struct StrHeap {
    int refcnt;
    char *data;
    size_t len, cap;
    bool mapped;   /* data is an mmap of a file (length len), unmapped on release */
    bool borrowed; /* data belongs to the host program (heap_borrow): never freed here */
} StrHeap;

/* A malloc'd heap with capacity cap; NULL on OOM. */
StrHeap *heap_new(size_t cap);
/* A heap over an mmapped region, which it unmaps when released. */
StrHeap *heap_from_map(char *data, size_t len);
/* A heap over len bytes the caller owns and keeps unchanged while the heap lives (a host
 * program's text, rx_register_columns); never written or freed. NULL on OOM. */
StrHeap *heap_borrow(const char *data, size_t len);
void heap_retain(StrHeap *h);
void heap_release(StrHeap *h);
/* Appends n bytes to a malloc'd heap, growing it; returns the offset of the copy, or -1 on
 * OOM. Growing moves data, so a writer records offsets and turns them into slices once the
 * heap stops growing (ColBuilder does this). */
int64_t heap_append(StrHeap *h, const char *s, size_t n);

typedef struct Column {
    int refcnt;
    RxType type;
    size_t n;
    void *data;          /* n elements of type_width(type) bytes */
    uint64_t *valid;     /* NULL when every row is valid */
    StrHeap **heaps;     /* TEXT: the heaps the slices point into */
    uint32_t n_heaps, cap_heaps;
    bool sorted;         /* known non-decreasing (NULLs absent); a hint, false when unknown */
    double ndv;          /* distinct values, estimated by the planner on first use; 0 unknown */
    bool pruned;         /* a placeholder for a column no operator above reads: no data */
    int8_t range_known;  /* planner statistics: 0 not computed, 1 min/max below, -1 none */
    double min_est, max_est;
    /* TEXT with few distinct values (CSV columns, host columns registered dictionary-coded,
     * gathers of those): the distinct strings (slices into the column's heaps; a CSV column's
     * in order of first appearance, a host column's in its dictionary's order, possibly with
     * strings no row has) and each row's index among them. No two entries are equal, so that
     * two rows hold equal strings exactly when their codes are equal (π and grouping compare
     * codes); every producer keeps this (the CSV reader's merged dictionaries, host
     * registration, which merges repeated dictionary values, γ's key columns, gathers and
     * views, which copy or share one). NULL rows have code 0; their validity bit says they
     * are NULL. Both NULL when absent.
     *
     * A coded column may lack per-row slices: data is then NULL (a "lazy" column, col_lazy)
     * and dict[codes[i]] is row i's value. Code that reads col_str(c) must first make the
     * slices exist with col_need_str (or table_need_str), which builds them once and installs
     * them with an atomic compare-and-swap, so two threads may ask at once; it fails (-1) only
     * when out of memory, which the caller reports. col_get, col_gather, col_gather_range and
     * the writers that format dict[code] read a lazy column as it is. */
    uint32_t *codes;
    RxStr *dict;
    uint32_t n_dict;
    /* A view (col_view): data, codes and dict are base's, which the view holds a reference
     * to; its validity is its own. NULL for a column that owns its data. */
    struct Column *base;
    /* data belongs to the host program (col_borrow): read in place, never written or freed */
    bool borrowed;
} Column;

/* A placeholder of n rows for a column that nothing reads (projection pruning): no data. */
Column *col_placeholder(RxType type, size_t n);
/* A column with base's values where valid has its bit set and NULL elsewhere, sharing base's
 * data instead of copying it. Takes valid (a bitmap of base->n bits, already including base's
 * own NULLs; NULL: every row valid); NULL on OOM (valid is freed then). */
Column *col_view(Column *base, uint64_t *valid);
/* A column of n elements over data the caller owns and keeps unchanged while the column lives
 * (a host program's array, rx_register_columns): no copy, never freed here; no validity
 * bitmap. Data not aligned to the element's width is copied once instead (typed loads need
 * the alignment). NULL on OOM. */
Column *col_borrow(RxType type, size_t n, const void *data);
/* A column of n elements with uninitialized data and no validity bitmap; NULL on OOM. */
Column *col_new(RxType type, size_t n);
void col_retain(Column *c);
void col_release(Column *c);
/* The validity bitmap, allocating it all-valid first if absent; NULL on OOM. */
uint64_t *col_valid(Column *c);
static inline bool col_is_null(const Column *c, size_t i) {
    return c->valid && !((c->valid[i >> 6] >> (i & 63)) & 1);
}
static inline void bitmap_set(uint64_t *bm, size_t i, bool v) {
    if (v) bm[i >> 6] |= UINT64_C(1) << (i & 63);
    else bm[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}
static inline bool bitmap_get(const uint64_t *bm, size_t i) { return (bm[i >> 6] >> (i & 63)) & 1; }
static inline size_t bitmap_words(size_t n) { return (n + 63) / 64; }
/* Marks row i NULL (allocating the bitmap). -1 on OOM. */
int col_set_null(Column *c, size_t i);
/* Adds a reference to heap h to TEXT column c (once). -1 on OOM. */
int col_add_heap(Column *c, StrHeap *h);
/* Shares all of src's heaps with dst. -1 on OOM. */
int col_share_heaps(Column *dst, const Column *src);
/* Drops the validity bitmap if every row is valid. */
void col_compact_validity(Column *c);

/* True when c is dictionary-coded TEXT without per-row slices (data NULL, see codes above). */
static inline bool col_lazy(const Column *c) {
    return c->codes && !__atomic_load_n(&c->data, __ATOMIC_ACQUIRE) && !c->pruned;
}
/* Makes col_str(c) valid for a lazy column (nothing to do for any other): builds the slices
 * dict[codes[i]] (NULL rows get an empty slice) and installs them in c (and in a view's base),
 * once even when several threads ask at once. 0, or -1 when out of memory (c unchanged). */
int col_need_str(const Column *c);
/* col_need_str for every column of t. 0, or -1 when out of memory. */
struct Table;
int table_need_str(const struct Table *t);
/* A column of n rows to fill with col_gather_range from c: of c's type, sharing c's heaps; a
 * coded TEXT c gives a coded lazy column (codes for n rows, a copy of c's dict, no slices).
 * No validity bitmap. NULL on OOM. */
Column *col_new_gather(const Column *c, size_t n);

/* The rows idx[0..n) of c, in that order; ROW_NONE gives NULL. TEXT shares heaps; a coded TEXT
 * column's result is coded and lazy (codes gathered, NULL rows code 0). NULL on OOM. */
Column *col_gather(const Column *c, const uint32_t *idx, size_t n);
/* Fills rows [from, to) of out (allocated with col_new_gather(c, n)) from c's rows
 * idx[from..to). ROW_NONE marks a row NULL in out's validity,
 * which the caller allocates (col_valid) beforehand when c has NULLs or idx has ROW_NONE;
 * from and to are multiples of 64 (or to = n) so that threads never share a bitmap word. */
void col_gather_range(Column *out, const Column *c, const uint32_t *idx, size_t from, size_t to);
/* A hash of the value at row i, equal for values equal under types/compare.h (-0 and 0, every
 * NaN, durations of one span such as P1D and PT24H) and for every NULL. */
uint64_t col_hash_value(const Column *c, size_t i);
/* The element at row i as a Value (TEXT borrowed from c's heaps; a lazy column's from its
 * dict). */
Value col_get(const Column *c, size_t i);

static inline int64_t *col_i64(const Column *c) { return (int64_t *)c->data; }
static inline double *col_f64(const Column *c) { return (double *)c->data; }
static inline uint8_t *col_u8(const Column *c) { return (uint8_t *)c->data; }
static inline int32_t *col_i32(const Column *c) { return (int32_t *)c->data; }
static inline RxStr *col_str(const Column *c) { return (RxStr *)c->data; }
static inline RxDuration *col_dur(const Column *c) { return (RxDuration *)c->data; }
/* The value of non-NULL row i of a TEXT column, lazy or not: dict[codes[i]] when the column is
 * coded (codes never change once made, so any thread may read them), else its slice. */
static inline RxStr col_text(const Column *c, size_t i) {
    return c->codes ? c->dict[c->codes[i]] : ((const RxStr *)c->data)[i];
}

/* Growable column for operators that do not know their output size: values are appended, then
 * colb_finish hands over a Column. TEXT bytes are copied into the builder's own heap. */
typedef struct {
    Column *col;
    size_t cap;
    StrHeap *heap;  /* TEXT only */
    bool oom;
} ColBuilder;
void colb_init(ColBuilder *b, RxType type, size_t cap_hint);
void colb_push(ColBuilder *b, const Value *v);
void colb_push_null(ColBuilder *b);
/* The finished column (the builder is empty afterwards); NULL on OOM. */
Column *colb_finish(ColBuilder *b);
void colb_free(ColBuilder *b);

/* A table: n_rows rows of n_cols columns, with a name per column. The table owns one reference
 * to each column and its names (malloc'd). */
typedef struct Table {
    size_t n_rows;
    int n_cols;
    Column **cols;
    char **names;
} Table;

/* A table with n_cols empty slots; the caller fills cols[i] and names via table_set. */
Table *table_new(int n_cols, size_t n_rows);
/* Stores column c (consuming the caller's reference) and a copy of name at slot i. */
int table_set(Table *t, int i, Column *c, const char *name);
/* A table of rows rows whose column j, named names[j], is colb_finish(&b[j]) for each of the
 * n_cols builders. NULL on OOM; every builder is then finished or still holds its column, so
 * that colb_free on each (when its col is not NULL) stays the caller's cleanup either way. */
Table *colb_table(ColBuilder *b, int n_cols, size_t rows, const char *const *names);
void table_free(Table *t);

#endif
