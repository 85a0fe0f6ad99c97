/*
 * stream_join_int.h - what the streaming AS-OF (stream_asof.c) and interval (stream_ijoin.c)
 * joins share (internal to src/exec): values as int64 codes with the order and equality of
 * types/compare.h, a hash map from equality-key tuples to dense slots, the order check of an
 * input, and the per-chunk right-hand table the output is gathered from.
 */
#ifndef RX_STREAM_JOIN_INT_H
#define RX_STREAM_JOIN_INT_H

#include "exec/exec.h"
#include "exec/stream.h"

/* How a column's values become int64 codes: exactly as keys_encode_ordered maps a column
 * beside the other columns of its comparison (INT as a FLOAT's order key when a FLOAT is among
 * them, DATE in microseconds when a TIMESTAMP is), so that equal values get equal codes and
 * order is kept across the two inputs. TEXT has no code (compared as bytes). */
typedef enum { SJ_I64, SJ_FLOAT_OF_INT, SJ_FLOAT, SJ_DATE, SJ_DATE_US, SJ_BOOL, SJ_DUR, SJ_TEXT } SjEnc;

/* The encoding of a column of type t among columns where any_float / any_ts say whether a
 * FLOAT / TIMESTAMP is present. */
SjEnc sj_enc(RxType t, bool any_float, bool any_ts);
/* The encodings of join p's equality keys, each pair under the rule of its two types:
 * lke[k] and rke[k] for k < lp->n_keys (at most 16); text[k] (NULL: not wanted) whether the
 * left key is TEXT. */
void sj_key_encs(const LPlan *lp, SjEnc *lke, SjEnc *rke, bool *text);

/* Codes of rows [0, c->n) of c: *out points at c's own data (INT, TIMESTAMP, TIME) or at buf,
 * which has room for c->n codes. NULL rows get an unspecified code. -1 with err (RX_ELIMIT) for
 * a duration whose span does not fit 64 bits, as the in-memory join refuses it. */
int sj_codes(const Column *c, SjEnc e, int64_t *buf, const int64_t **out, RxError *err);

/* Whether column type t can be a streaming match or endpoint column, or an equality key. */
bool sj_type_ok(RxType t, bool key);

/* ---- equality keys -------------------------------------------------------------------------- */

/* The equality keys of one chunk: per key a code array or (TEXT) the column's strings, and the
 * column for its NULLs. */
typedef struct {
    int nk;
    const Column *col[16];
    const int64_t *code[16];
    int64_t *buf[16];
} SjKeys;

/* Dense slots for distinct key tuples (both inputs' tuples, compared under the equality rule
 * of types/compare.h through their codes; TEXT by bytes, copied into the map's own arena).
 * Memory: proportional to the number of distinct tuples. */
typedef struct {
    int nk;
    bool text[16];
    uint32_t *tab;      /* slot + 1, 0 empty */
    size_t mask;
    uint64_t *hash;     /* per slot */
    int64_t *code;      /* slot * nk + k (non-TEXT keys) */
    RxStr *str;         /* slot * nk + k (TEXT keys) */
    uint32_t n, cap;
    Arena *bytes;
} SjKeyMap;

int sj_keymap_init(SjKeyMap *m, int nk, const bool *text);
void sj_keymap_free(SjKeyMap *m);

/* Codes of a chunk's key columns cols (the equality keys of one input); encs per key. Free
 * with sj_keys_free. -1 with err. */
int sj_keys_load(SjKeys *k, const Table *t, const int *cols, int nk, const SjEnc *encs, RxError *err);
void sj_keys_free(SjKeys *k);

/* Row i's tuple: its hash (equal for equal tuples), whether a key is NULL, whether it equals
 * row j of b's tuple (a and b: the two inputs' keys, coded alike). */
uint64_t sj_keys_hash(const SjKeys *k, size_t i);
bool sj_keys_null(const SjKeys *k, size_t i);
bool sj_keys_equal(const SjKeys *a, size_t i, const SjKeys *b, size_t j);

/* slot[i] = the slot of row i's key tuple, inserted when new; ROW_NONE when a key is NULL.
 * -1 on OOM (err set). */
int sj_keymap_slots(SjKeyMap *m, const SjKeys *k, size_t n, uint32_t *slot, RxError *err);

/* ---- order ---------------------------------------------------------------------------------- */

/* The running order check of one input: each non-NULL value of the column must be >= the
 * previous one. */
typedef struct {
    const char *side;      /* "left", "right" */
    const char *op;        /* "ASOF", "IJOIN" */
    const char *col;       /* the column's name */
    RxType type;
    SjEnc enc;
    bool have;
    int64_t last;
    uint64_t rows;         /* rows of the input seen before this chunk */
} SjOrder;

/* Checks rows [0, c->n) of a chunk whose codes are codes; -1 with an error naming the input,
 * the column, the row (1-based, counting every row of the input) and both values. */
int sj_check_order(SjOrder *o, const Column *c, const int64_t *codes, const LPlan *lp, RxError *err);

/* ---- output --------------------------------------------------------------------------------- */

/* Whether output column c of join p is read above (p->needed). */
static inline bool sj_needed(const PNode *p, int c) { return !p->needed || p->needed[c]; }

/* A table shaped as p's right input (its schema's types), n rows: the columns p's output reads
 * allocated, with every row NULL until sj_copy_cell fills it; the others placeholders. NULL on
 * OOM. */
Table *sj_right_table(const PNode *p, size_t n);

/* Row di of dst = row si of src (same type; src's validity is read; TEXT shares the slice, so
 * the caller makes dst hold src's heaps: sj_share_heaps). dst has a validity bitmap. */
static inline void sj_copy_cell(Column *dst, size_t di, const Column *src, size_t si) {
    if (col_is_null(src, si)) {
        bitmap_set(dst->valid, di, false);
        return;
    }
    switch (dst->type) {
    case TY_BOOL: case TY_NULL: col_u8(dst)[di] = col_u8(src)[si]; break;
    case TY_DATE: col_i32(dst)[di] = col_i32(src)[si]; break;
    case TY_TEXT: col_str(dst)[di] = col_str(src)[si]; break;
    case TY_DURATION: col_dur(dst)[di] = col_dur(src)[si]; break;
    default: col_i64(dst)[di] = col_i64(src)[si]; break;  /* INT, FLOAT (its bits), TIMESTAMP, TIME */
    }
    bitmap_set(dst->valid, di, true);
}

/* dst holds every heap src's strings point into (TEXT; nothing for other types). -1 on OOM. */
int sj_share_heaps(Column *dst, const Column *src);

int sj_oom(RxError *err);

/* The two operators (stream_join_open's contract; p already checked supported). */
ChunkSrc *sj_asof_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err);
ChunkSrc *sj_ijoin_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err);
bool sj_ijoin_relation_ok(IjRelation rel);

#endif
