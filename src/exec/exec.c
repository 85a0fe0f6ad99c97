/*
 * exec.c - the operators: scan, select, project, rename, interval join, AS-OF join (exec.h).
 *
 * Every operator materializes its result as a Table. Columns that pass through unchanged are
 * shared (scan, rename, a projected column); σ gathers the selected rows; π evaluates its items
 * then removes duplicate rows with a hash set, keeping first occurrences (docs/design.md). The joins
 * turn their key columns into order-preserving int64 keys (keys.c) and hand them to the
 * kernels in ijoin.c and asof.c, then gather both sides' columns by the matched row indices.
 */
#include "exec/exec.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/hmap.h"
#include "connect/connect.h"
#include "exec/asof.h"
#include "exec/ijoin.h"
#include "exec/keys.h"
#include "exec/ops.h"
#include "types/compare.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int ops_oom(RxError *err) { return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory"); }

int ops_budget_error(const PNode *p, size_t held, const char *hint, RxError *err) {
    size_t limit = rx_memory_limit();
    if (err->code != RX_ENOMEM || !limit || !rx_memory_limit_hit(false)) return -1;
    if (strncmp(err->msg, "memory limit of", 15) == 0) return -1;   /* said already, maybe with a hint */
    StrBuf label;
    sb_init(&label);
    plan_label(p, &label);
    char lim[32], own[32], ask[32], all[32];
    rx_format_size(lim, sizeof lim, limit);
    rx_format_bytes(own, sizeof own, held);
    rx_format_bytes(ask, sizeof ask, rx_memory_refused());
    rx_format_bytes(all, sizeof all, rx_memory_peak());
    rx_error_clear(err);
    rx_error(err, RX_ENOMEM, p->lp->src, p->lp->span,
             "memory limit of %s reached in %s: it held %s of its own and asked for %s more "
             "(the run held %s at most)%s%s",
             lim, label.p && !label.oom ? label.p : "this operator", own, ask, all, hint ? "; " : "", hint ? hint : "");
    sb_free(&label);
    return -1;
}

int ops_check_interrupt(ExecCtx *x, RxError *err) {
    if (x->interrupt && *x->interrupt)
        return rx_error(err, RX_EINTERRUPT, NULL, rx_span(0, 0), "interrupted");
    return 0;
}

Table *ops_shared_table(const Table *in, const Schema *sc) {
    Table *t = table_new(in->n_cols, in->n_rows);
    if (!t) return NULL;
    for (int i = 0; i < in->n_cols; i++) {
        col_retain(in->cols[i]);
        if (table_set(t, i, in->cols[i], sc->cols[i].name) < 0) {
            table_free(t);
            return NULL;
        }
    }
    return t;
}

/* ---- σ -------------------------------------------------------------------------------------- */

static Table *run_select(ExecCtx *x, const PNode *p, Table *in, RxError *err) {
    const Expr *pred = p->lp->pred;
    size_t n = in->n_rows;
    uint32_t *idx = rx_malloc((n ? n : 1) * sizeof *idx);
    if (!idx) {
        ops_oom(err);
        return NULL;
    }
    size_t k = 0;
    Arena *a = arena_new();
    for (size_t off = 0; off < n; off += EXEC_BATCH) {
        size_t m = n - off < EXEC_BATCH ? n - off : EXEC_BATCH;
        Vec v;
        if (!a || eval_batch(pred, in, off, m, a, &v, err) < 0 || ops_check_interrupt(x, err) < 0) {
            if (!a) ops_oom(err);
            arena_free(a);
            rx_free(idx);
            return NULL;
        }
        const uint8_t *b = v.data;
        if (v.type == TY_NULL) continue;
        if (v.nulls) {
            for (size_t i = 0; i < m; i++) {
                idx[k] = (uint32_t)(off + i);
                k += b[i] & !v.nulls[i];
            }
        } else {
            for (size_t i = 0; i < m; i++) {
                idx[k] = (uint32_t)(off + i);
                k += b[i];
            }
        }
        arena_free(a);
        a = arena_new();
    }
    arena_free(a);
    Table *t;
    if (k == n) {
        t = ops_shared_table(in, &p->lp->schema);
    } else {
        t = table_new(in->n_cols, k);
        for (int c = 0; t && c < in->n_cols; c++) {
            bool used = !p->needed || p->needed[c];
            Column *g = used ? col_gather(in->cols[c], idx, k) : col_placeholder(in->cols[c]->type, k);
            if (!g || table_set(t, c, g, p->lp->schema.cols[c].name) < 0) {
                col_release(g);
                table_free(t);
                t = NULL;
            }
        }
    }
    rx_free(idx);
    if (!t) ops_oom(err);
    return t;
}

Table *ops_select(ExecCtx *x, const PNode *p, Table *in, RxError *err) { return run_select(x, p, in, err); }

/* ---- π -------------------------------------------------------------------------------------- */

bool ops_cell_equal(const Column *c, size_t i, size_t j) {
    bool ni = col_is_null(c, i), nj = col_is_null(c, j);
    if (ni || nj) return ni == nj;
    switch (c->type) {
    case TY_TEXT: {
        if (c->codes) return c->codes[i] == c->codes[j];   /* a dictionary's strings are distinct */
        RxStr a = col_str(c)[i], b = col_str(c)[j];
        return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
    }
    case TY_FLOAT: return rx_float_cmp(col_f64(c)[i], col_f64(c)[j]) == 0;
    case TY_BOOL: return col_u8(c)[i] == col_u8(c)[j];
    case TY_DATE: return col_i32(c)[i] == col_i32(c)[j];
    case TY_DURATION: return rx_dur_cmp(col_dur(c)[i], col_dur(c)[j]) == 0;
    case TY_NULL: return true;
    default: return col_i64(c)[i] == col_i64(c)[j];
    }
}

/* Whether every row of c holds a value no other row holds (two NULLs count as equal), decided
 * without hashing where that is cheap: integer-like values whose range is at most a few times
 * the row count (row ids, dense keys), through a bitmap over the range, and dictionary-coded
 * TEXT, through its codes. false when unknown. An optimisation of π: one such column makes
 * every row distinct, so the hash pass is skipped. */
static bool column_all_distinct(const Column *c) {
    size_t n = c->n;
    if (c->pruned || n < 2) return false;
    if (c->valid) {
        size_t nulls = 0;
        for (size_t i = 0; i < n && nulls < 2; i++) nulls += col_is_null(c, i);
        if (nulls > 1) return false;
    }
    bool wide = c->type == TY_INT || c->type == TY_TIMESTAMP || c->type == TY_TIME;
    bool coded = c->type == TY_TEXT && c->codes;
    if (!wide && c->type != TY_DATE && !coded) return false;
    if (coded && c->n_dict < n - (c->valid ? 1 : 0)) return false;
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        if (col_is_null(c, i)) continue;
        int64_t v = wide ? col_i64(c)[i] : coded ? (int64_t)c->codes[i] : col_i32(c)[i];
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    if (mn > mx) return false;
    uint64_t range = (uint64_t)mx - (uint64_t)mn;
    if (range >= (uint64_t)n * 8) return false;
    uint64_t *seen = rx_calloc(bitmap_words((size_t)range + 1), sizeof *seen);
    if (!seen) return false;
    bool distinct = true;
    for (size_t i = 0; i < n && distinct; i++) {
        if (col_is_null(c, i)) continue;
        int64_t v = wide ? col_i64(c)[i] : coded ? (int64_t)c->codes[i] : col_i32(c)[i];
        size_t b = (size_t)((uint64_t)v - (uint64_t)mn);
        distinct = !bitmap_get(seen, b);
        bitmap_set(seen, b, true);
    }
    rx_free(seen);
    return distinct;
}

/* π's duplicate removal (an optimisation; the rows kept are those of comparing every pair):
 *  1. every row gets a 64-bit hash of its values (dedup_hash_block), equal for rows that
 *     ops_cell_equal calls equal;
 *  2. from DEDUP_FILTER_ROWS rows on, a filter of DEDUP_SLOTS_PER_ROW slots per row, 2 bits each,
 *     indexed by the hash's high bits: pass one (dedup_mark_job) marks every row's slot seen,
 *     and seen twice when it was seen already; a row alone in its slot equals no other row, so
 *     pass two (dedup_collect_job) keeps as candidates only the rows of slots seen twice (about
 *     12% of the rows when they are distinct); below DEDUP_FILTER_ROWS every row is one.
 *     Pass one counts the rows that found their slot seen; the candidates are at most twice
 *     as many, which sizes their arrays once. It also counts the slots seen twice: the distinct
 *     candidates are about twice as many when rows are distinct, and as few when each row
 *     repeats, which sizes step 3's map;
 *  3. the candidates, in row order, are compared exactly through a hash map (dedup_exact_job),
 *     each thread owning the candidates whose hash falls in its part (by the hash's high bits),
 *     so that the first of equal rows is the one kept. The map holds the distinct candidates
 *     only; it starts at the size pass one's count predicts and grows when that was short, so
 *     that a few distinct rows repeated many times get a map that fits in cache, not one sized
 *     for every candidate.
 * Passes one and two run on row ranges, step 3 on parts, on rx_threads() threads from
 * DEDUP_PARALLEL_ROWS rows on (the filter's words are then set atomically); the rows kept do
 * not depend on the thread count. Memory: the filter and the candidates' rows and hashes; no
 * array of a hash per row. */
enum {
    DEDUP_PARALLEL_ROWS = 1 << 16,
    DEDUP_FILTER_ROWS = 1 << 12,
    DEDUP_SLOTS_PER_ROW = 8,
    DEDUP_MAX_PARTS = 8,
    DEDUP_BLOCK = 256,   /* rows hashed at once, column by column */
    DEDUP_PF = 16,       /* how many rows ahead the filter's word is prefetched */
};

#define DEDUP_SEED UINT64_C(0x9e3779b97f4a7c15)
#define DEDUP_NULL UINT64_C(0x6e756c6c)

/* One step of a row hash: h with the word w of the next column mixed in (a 128-bit product
 * folded, as in wyhash). */
static inline uint64_t dedup_mix(uint64_t h, uint64_t w) {
    unsigned __int128 p = (unsigned __int128)(h ^ UINT64_C(0xa0761d6478bd642f)) * (w ^ UINT64_C(0xe7037ed1a0b428db));
    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/* Mixes one word per row of rows [from, from + cnt) of col into h, DEDUP_NULL for NULL rows;
 * WORD(r) gives row r's word (evaluated only for rows that are not NULL). */
#define DEDUP_MIX_COLUMN(WORD)                                                                 \
    do {                                                                                       \
        if (col->valid && !dedup_block_valid(col, from, cnt))                                  \
            for (size_t i = 0; i < cnt; i++) {                                                 \
                size_t r = from + i;                                                           \
                h[i] = dedup_mix(h[i], col_is_null(col, r) ? DEDUP_NULL : (WORD));             \
            }                                                                                  \
        else                                                                                   \
            for (size_t i = 0; i < cnt; i++) {                                                 \
                size_t r = from + i;                                                           \
                h[i] = dedup_mix(h[i], (WORD));                                                \
            }                                                                                  \
    } while (0)

/* Whether rows [from, from + cnt) of col are all valid, read by whole bitmap words: only for a
 * full block that starts on a word (false otherwise, so the caller tests row by row). */
static inline bool dedup_block_valid(const Column *col, size_t from, size_t cnt) {
    if (cnt != DEDUP_BLOCK || from % 64) return false;
    uint64_t all = UINT64_MAX;
    for (size_t w = from / 64; w < (from + cnt) / 64; w++) all &= col->valid[w];
    return all == UINT64_MAX;
}

static inline uint64_t dedup_float_word(double d) {
    d = rx_float_canon(d);   /* -0 and 0 are one value, every NaN one (compare.h) */
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* The hashes of rows [from, from + cnt) of t (cnt <= DEDUP_BLOCK) into h: one word per value,
 * equal for values ops_cell_equal calls equal (a dictionary-coded TEXT value's word is its
 * code, since a dictionary's strings are distinct, column.h; never its slice), mixed column by
 * column. */
static void dedup_hash_block(const Table *t, size_t from, size_t cnt, uint64_t *h) {
    for (size_t i = 0; i < cnt; i++) h[i] = DEDUP_SEED;
    for (int c = 0; c < t->n_cols; c++) {
        const Column *col = t->cols[c];
        switch (col->type) {
        case TY_NULL:
            for (size_t i = 0; i < cnt; i++) h[i] = dedup_mix(h[i], DEDUP_NULL);
            break;
        case TY_FLOAT: DEDUP_MIX_COLUMN(dedup_float_word(col_f64(col)[r])); break;
        case TY_BOOL: DEDUP_MIX_COLUMN((uint64_t)col_u8(col)[r]); break;
        case TY_DATE: DEDUP_MIX_COLUMN((uint64_t)(int64_t)col_i32(col)[r]); break;
        case TY_DURATION: DEDUP_MIX_COLUMN(col_hash_value(col, r)); break;
        case TY_TEXT:
            if (col->codes) DEDUP_MIX_COLUMN((uint64_t)col->codes[r]);
            else DEDUP_MIX_COLUMN(rx_hash_bytes(col_str(col)[r].ptr, col_str(col)[r].len));
            break;
        default: DEDUP_MIX_COLUMN((uint64_t)col_i64(col)[r]); break;
        }
    }
    for (size_t i = 0; i < cnt; i++) h[i] = rx_hash64(h[i]);
}

typedef struct {
    const Table *t;
    size_t n;
    int part, parts;
    size_t from, to;                 /* the rows this thread hashes (passes one and two) */
    _Atomic uint64_t *filter;        /* 2 bits a slot (seen, seen twice); NULL: no filter */
    uint64_t n_slots;
    size_t repeats;                  /* pass one: rows whose slot was seen already */
    size_t twice;                    /* pass one: slots this thread marked seen twice */
    size_t map_room;                 /* step 3: the distinct candidates its map expects */
    /* pass two's candidates of rows [from, to), in row order, at most cap (room the caller
     * made: every slot seen twice holds at most twice as many rows as it had repeats); then
     * (step 3) every thread's, shared by all jobs */
    uint32_t *crow;
    uint64_t *ch;
    size_t nc, cap;
    uint8_t *cdup;                   /* step 3: 1 where a candidate equals an earlier one */
    bool oom;
} DedupJob;

/* The filter slot of hash h: its high bits scaled to n_slots. */
static inline uint64_t dedup_slot(uint64_t h, uint64_t n_slots) {
    return (uint64_t)(((unsigned __int128)h * n_slots) >> 64);
}

/* Pass one: marks the slots of rows [from, to) and counts the repeats. With several threads
 * the words are shared, so the bits are set by atomic or (exactly one row of a slot finds it
 * unseen); one thread writes plain (relaxed) stores. */
static void *dedup_mark_job(void *arg) {
    DedupJob *j = arg;
    _Atomic uint64_t *f = j->filter;
    bool shared = j->parts > 1;
    uint64_t h[DEDUP_BLOCK];
    size_t repeats = 0, n_twice = 0;
    for (size_t b = j->from; b < j->to; b += DEDUP_BLOCK) {
        size_t cnt = j->to - b < DEDUP_BLOCK ? j->to - b : DEDUP_BLOCK;
        dedup_hash_block(j->t, b, cnt, h);
        for (size_t i = 0; i < cnt && i < DEDUP_PF; i++) __builtin_prefetch(&f[dedup_slot(h[i], j->n_slots) >> 5], 1);
        for (size_t i = 0; i < cnt; i++) {
            if (i + DEDUP_PF < cnt) __builtin_prefetch(&f[dedup_slot(h[i + DEDUP_PF], j->n_slots) >> 5], 1);
            uint64_t s = dedup_slot(h[i], j->n_slots);
            _Atomic uint64_t *w = &f[s >> 5];
            uint64_t seen = UINT64_C(1) << ((s & 31) * 2), twice = seen << 1;
            uint64_t cur = atomic_load_explicit(w, memory_order_relaxed);
            if (cur & twice) {
                repeats++;
                continue;
            }
            if (!(cur & seen)) {
                if (!shared) {
                    atomic_store_explicit(w, cur | seen, memory_order_relaxed);
                    continue;
                }
                if (!(atomic_fetch_or_explicit(w, seen, memory_order_relaxed) & seen)) continue;
            }
            repeats++;
            if (!shared) {
                atomic_store_explicit(w, cur | twice, memory_order_relaxed);
                n_twice++;
            } else if (!(atomic_fetch_or_explicit(w, twice, memory_order_relaxed) & twice)) {
                n_twice++;
            }
        }
    }
    j->repeats = repeats;
    j->twice = n_twice;
    return NULL;
}

/* Pass two: the rows of [from, to) whose slot was seen twice (every row without a filter),
 * with their hashes, in row order. */
static void *dedup_collect_job(void *arg) {
    DedupJob *j = arg;
    const _Atomic uint64_t *f = j->filter;
    uint64_t h[DEDUP_BLOCK];
    for (size_t b = j->from; b < j->to && !j->oom; b += DEDUP_BLOCK) {
        size_t cnt = j->to - b < DEDUP_BLOCK ? j->to - b : DEDUP_BLOCK;
        dedup_hash_block(j->t, b, cnt, h);
        if (f) {
            for (size_t i = 0; i < cnt && i < DEDUP_PF; i++) __builtin_prefetch(&f[dedup_slot(h[i], j->n_slots) >> 5]);
            for (size_t i = 0; i < cnt; i++) {
                if (i + DEDUP_PF < cnt) __builtin_prefetch(&f[dedup_slot(h[i + DEDUP_PF], j->n_slots) >> 5]);
                uint64_t s = dedup_slot(h[i], j->n_slots);
                uint64_t w = atomic_load_explicit(&f[s >> 5], memory_order_relaxed);
                if (!((w >> ((s & 31) * 2 + 1)) & 1)) continue;
                if (j->nc == j->cap) {   /* beyond the bound: cannot happen */
                    j->oom = true;
                    break;
                }
                j->crow[j->nc] = (uint32_t)(b + i);
                j->ch[j->nc++] = h[i];
            }
        } else {
            for (size_t i = 0; i < cnt; i++) {
                j->crow[j->nc] = (uint32_t)(b + i);
                j->ch[j->nc++] = h[i];
            }
        }
    }
    return NULL;
}

/* The part of the rows hash h belongs to, of parts. */
static inline int dedup_part(uint64_t h, int parts) {
    return (int)(((h >> 32) * (uint64_t)parts) >> 32);
}

/* Step 3: every candidate of this part, in row order, against the earlier ones of equal hash. */
static void *dedup_exact_job(void *arg) {
    DedupJob *j = arg;
    const uint64_t *ch = j->ch;
    const uint32_t *crow = j->crow;
    const Table *t = j->t;
    RxHMap map;   /* hash of a row -> the candidates of this part kept so far */
    if (hmap_init(&map, j->map_room) != 0) {
        j->oom = true;
        return NULL;
    }
    for (size_t i = 0; i < j->nc; i++) {
        if (j->parts > 1 && dedup_part(ch[i], j->parts) != j->part) continue;
        RxHProbe p = hmap_probe(&map, ch[i]);
        uint32_t r;
        bool same = false;
        while (!same && hmap_next(&map, &p, &r)) {
            same = ch[r] == ch[i];
            for (int c = 0; c < t->n_cols && same; c++) same = ops_cell_equal(t->cols[c], crow[r], crow[i]);
        }
        j->cdup[i] = same;
        if (!same && hmap_insert(&map, &p, (uint32_t)i, hmap_hash_array, ch) < 0) {
            j->oom = true;
            break;
        }
    }
    hmap_free(&map);
    return NULL;
}

/* Runs fn on every job: the first on this thread, the others on threads of their own (on this
 * one when a thread cannot be started). */
static void dedup_run(DedupJob *job, int parts, void *(*fn)(void *)) {
    pthread_t th[DEDUP_MAX_PARTS];
    bool started[DEDUP_MAX_PARTS] = {false};
    for (int q = 1; q < parts; q++) started[q] = pthread_create(&th[q], NULL, fn, &job[q]) == 0;
    fn(&job[0]);
    for (int q = 1; q < parts; q++) {
        if (started[q]) pthread_join(th[q], NULL);
        else fn(&job[q]);
    }
}

/* Row indices of the first occurrence of every distinct row, in order; *n_out of them.
 * Returns NULL with *n_out = n when every row is distinct (nothing to gather). */
static int distinct_rows(const Table *t, uint32_t **keep_out, size_t *n_out, RxError *err) {
    size_t n = t->n_rows;
    *keep_out = NULL;
    *n_out = n;
    if (n < 2 || t->n_cols == 0) {
        if (t->n_cols == 0 && n > 1) {
            /* rows of no columns are all equal */
            *keep_out = rx_malloc(sizeof **keep_out);
            if (!*keep_out) return ops_oom(err);
            (*keep_out)[0] = 0;
            *n_out = 1;
        }
        return 0;
    }
    for (int c = 0; c < t->n_cols; c++)
        if (column_all_distinct(t->cols[c])) return 0;
    int parts = n >= DEDUP_PARALLEL_ROWS ? rx_threads() : 1;
    if (parts > DEDUP_MAX_PARTS) parts = DEDUP_MAX_PARTS;
    if (parts < 1) parts = 1;
    uint64_t n_slots = n >= DEDUP_FILTER_ROWS ? (uint64_t)n * DEDUP_SLOTS_PER_ROW : 0;
    _Atomic uint64_t *filter = n_slots ? rx_calloc((size_t)(n_slots + 31) / 32, sizeof *filter) : NULL;
    if (n_slots && !filter) return ops_oom(err);
    DedupJob job[DEDUP_MAX_PARTS];
    for (int q = 0; q < parts; q++) {
        /* ranges of whole blocks, so that blocks start on a validity word */
        size_t from = n / (size_t)parts / DEDUP_BLOCK * DEDUP_BLOCK * (size_t)q;
        size_t to = q + 1 < parts ? n / (size_t)parts / DEDUP_BLOCK * DEDUP_BLOCK * (size_t)(q + 1) : n;
        job[q] = (DedupJob){.t = t, .n = n, .part = q, .parts = parts, .from = from, .to = to,
                            .filter = filter, .n_slots = n_slots};
    }
    /* room for the candidates: at most twice the repeats */
    size_t repeats = 0, twice = 0, room = 0;
    if (filter) {
        dedup_run(job, parts, dedup_mark_job);
        for (int q = 0; q < parts; q++) repeats += job[q].repeats, twice += job[q].twice;
    }
    for (int q = 0; q < parts; q++) {
        size_t rows = job[q].to - job[q].from;
        job[q].cap = filter && repeats * 2 < rows ? repeats * 2 : rows;
        room += job[q].cap;
    }
    uint32_t *crow = rx_malloc((room ? room : 1) * sizeof *crow);
    uint64_t *ch = rx_malloc((room ? room : 1) * sizeof *ch);
    bool oom = !crow || !ch;
    size_t at = 0;
    for (int q = 0; q < parts; q++) {
        job[q].crow = crow ? crow + at : NULL;
        job[q].ch = ch ? ch + at : NULL;
        at += job[q].cap;
    }
    if (!oom) dedup_run(job, parts, dedup_collect_job);
    rx_free(filter);
    /* the threads' candidates one after the other, so in row order */
    size_t nc = 0;
    for (int q = 0; q < parts && !oom; q++) {
        oom |= job[q].oom;
        memmove(crow + nc, job[q].crow, job[q].nc * sizeof *crow);
        memmove(ch + nc, job[q].ch, job[q].nc * sizeof *ch);
        nc += job[q].nc;
    }
    uint8_t *cdup = oom ? NULL : rx_malloc(nc ? nc : 1);
    if (!cdup) {
        rx_free(crow), rx_free(ch);
        return ops_oom(err);
    }
    int xparts = nc >= DEDUP_PARALLEL_ROWS / 4 ? parts : 1;
    /* each part's map: a twice-seen slot holds one distinct row or (rarely) more; with rows
     * mostly distinct, about two. Without the filter every candidate may be distinct. */
    size_t expect = filter && twice * 2 < nc ? twice * 2 : nc;
    for (int q = 0; q < xparts; q++) {
        job[q].crow = crow, job[q].ch = ch, job[q].nc = nc, job[q].cdup = cdup;
        job[q].part = q, job[q].parts = xparts, job[q].oom = false;
        job[q].map_room = expect / (size_t)xparts + expect / 16 + 16;
    }
    dedup_run(job, xparts, dedup_exact_job);
    rx_free(ch);
    size_t ndup = 0;
    for (int q = 0; q < xparts; q++) oom |= job[q].oom;
    for (size_t i = 0; i < nc && !oom; i++) ndup += cdup[i];
    if (oom || ndup == 0) {
        rx_free(crow), rx_free(cdup);
        return oom ? ops_oom(err) : 0;
    }
    size_t k = n - ndup;
    uint32_t *keep = rx_malloc((k ? k : 1) * sizeof *keep);
    if (!keep) {
        rx_free(crow), rx_free(cdup);
        return ops_oom(err);
    }
    /* every row but the duplicate candidates (crow is in row order) */
    size_t o = 0, ci = 0;
    for (size_t i = 0; i < n; i++) {
        while (ci < nc && crow[ci] < i) ci++;
        if (ci < nc && crow[ci] == i && cdup[ci]) continue;
        keep[o++] = (uint32_t)i;
    }
    rx_free(crow), rx_free(cdup);
    *keep_out = keep;
    *n_out = k;
    return 0;
}

Table *ops_dedup(Table *t, RxError *err) {
    uint32_t *keep;
    size_t k;
    if (distinct_rows(t, &keep, &k, err) < 0) {
        table_free(t);
        return NULL;
    }
    if (!keep) return t;
    Table *out = table_new(t->n_cols, k);
    for (int c = 0; out && c < t->n_cols; c++) {
        Column *g = col_gather(t->cols[c], keep, k);
        if (!g || table_set(out, c, g, t->names[c]) < 0) {
            col_release(g);
            table_free(out);
            out = NULL;
        }
    }
    rx_free(keep);
    table_free(t);
    if (!out) ops_oom(err);
    return out;
}

static Table *run_project(ExecCtx *x, const PNode *p, Table *in, RxError *err) {
    const LPlan *lp = p->lp;
    Table *t = table_new(lp->n_items, in->n_rows);
    if (!t) {
        ops_oom(err);
        return NULL;
    }
    for (int i = 0; i < lp->n_items; i++) {
        const Expr *e = lp->items[i];
        Column *c;
        if (e->kind == EX_COL) {
            c = in->cols[e->col];
            col_retain(c);
        } else {
            c = eval_column(e, in, err);
            if (!c) {
                table_free(t);
                return NULL;
            }
        }
        if (table_set(t, i, c, lp->schema.cols[i].name) < 0) {
            table_free(t);
            ops_oom(err);
            return NULL;
        }
        if (ops_check_interrupt(x, err) < 0) {
            table_free(t);
            return NULL;
        }
    }
    /* duplicate removal compares and hashes a coded column by its codes: no slices needed */
    return ops_dedup(t, err);
}

/* ---- joins ---------------------------------------------------------------------------------- */

/* The output of a join: left columns gathered by li, right columns by ri (ROW_NONE = NULL). */
/* Large gathers run on two threads, each filling half of every column's rows (an
 * optimisation: random reads into the inputs dominate a big join's output, and the second
 * core hides half of their latency). */
#define PARALLEL_GATHER_ROWS (1u << 20)

typedef struct {
    Column **out;
    const Column **src;
    const uint32_t **idx;
    int n_cols;
    size_t from, to;
} GatherJob;

static void *gather_job(void *arg) {
    GatherJob *j = arg;
    for (int c = 0; c < j->n_cols; c++)
        if (j->idx[c]) col_gather_range(j->out[c], j->src[c], j->idx[c], j->from, j->to);
    return NULL;
}

/* Gathers several columns at once; out[c] is NULL when idx[c] is NULL (the column is shared).
 * -1 on OOM (out freed). */
static int gather_columns(Column **out, const Column **src, const uint32_t **idx, int n_cols, size_t n) {
    bool any_none = false;
    for (int c = 0; c < n_cols; c++) out[c] = NULL;
    for (int c = 0; c < n_cols; c++) {
        if (!idx[c]) continue;
        out[c] = col_new_gather(src[c], n);
        if (!out[c]) goto oom;
        if (!src[c]->valid) {
            /* a ROW_NONE needs a bitmap too: look once per index array */
            bool none = false;
            for (int k = 0; k < c && !none; k++) none = idx[k] == idx[c] && out[k] && out[k]->valid;
            if (!none) {
                for (size_t i = 0; i < n && !none; i++) none = idx[c][i] == ROW_NONE;
            }
            any_none = none;
        }
        if ((src[c]->valid || any_none) && !col_valid(out[c])) goto oom;
    }
    if (n >= PARALLEL_GATHER_ROWS && rx_threads() > 1) {
        size_t mid = (n / 2) & ~(size_t)63;
        GatherJob a = {out, src, idx, n_cols, 0, mid}, b = {out, src, idx, n_cols, mid, n};
        pthread_t t;
        if (pthread_create(&t, NULL, gather_job, &b) == 0) {
            gather_job(&a);
            pthread_join(t, NULL);
        } else {
            a.to = n;
            gather_job(&a);
        }
    } else {
        GatherJob a = {out, src, idx, n_cols, 0, n};
        gather_job(&a);
    }
    for (int c = 0; c < n_cols; c++)
        if (out[c]) col_compact_validity(out[c]);
    return 0;
oom:
    for (int c = 0; c < n_cols; c++) col_release(out[c]);
    return -1;
}

/* Column k of the left side as a view: its values where ri has a right row, NULL elsewhere. */
static Column *view_matched(const Column *k, const uint32_t *ri, size_t n) {
    uint64_t *valid = NULL;
    bool all = !k->valid;
    for (size_t i = 0; i < n && all; i++) all = ri[i] != ROW_NONE;
    if (!all) {
        size_t w = bitmap_words(n ? n : 1);
        if (!(valid = rx_malloc(w * sizeof *valid))) return NULL;
        for (size_t i = 0; i < w; i++) {
            uint64_t bits = 0;
            for (size_t b = 0; b < 64 && i * 64 + b < n; b++)
                bits |= (uint64_t)(ri[i * 64 + b] != ROW_NONE) << b;
            valid[i] = k->valid ? bits & k->valid[i] : bits;
        }
    }
    return col_view((Column *)k, valid);
}

Table *ops_gather_join(const PNode *p, const Table *l, const Table *r, const uint32_t *li,
                       const uint32_t *ri, size_t n, RxError *err) {
    /* No pair at all: a join without matches may pass no index arrays, which below would mean
     * "every row of the side, in order". */
    static const uint32_t no_row = 0;
    if (n == 0) li = ri = &no_row;
    const Schema *sc = &p->lp->schema;
    const int *right_out = p->lp->kind == LP_JOIN ? p->lp->right_out : NULL;
    const Column **view = NULL;  /* per output column: the left key column it is a view of */
    Table *t = table_new(sc->n, n);
    const Column **src = rx_malloc((size_t)(sc->n + 1) * sizeof *src);
    const uint32_t **idx = rx_malloc((size_t)(sc->n + 1) * sizeof *idx);
    Column **out = rx_malloc((size_t)(sc->n + 1) * sizeof *out);
    if (!t || !src || !idx || !out) goto oom;
    uint32_t *lsel = NULL;
    bool left_complete = true;   /* every row with a right row also has a left row */
    if (li && ri)
        for (size_t i = 0; i < n && left_complete; i++) left_complete = li[i] != ROW_NONE || ri[i] == ROW_NONE;
    for (int c = 0; c < sc->n; c++) {
        int rc = c - l->n_cols;
        if (c >= l->n_cols && right_out) rc = right_out[rc];
        src[c] = c < l->n_cols ? l->cols[c] : r->cols[rc];
        idx[c] = c < l->n_cols ? li : ri;
        if (p->needed && !p->needed[c]) {
            idx[c] = NULL;
            src[c] = NULL;  /* a placeholder below */
            continue;
        }
        if (c < l->n_cols || !ri || !left_complete) continue;
        /* A right equality-key column holds, in every matched row, the value of the left key
         * it matched: read it from the left column in left order instead of at random from
         * the right one (an optimisation; FLOAT and DURATION keys are excluded: -0 equals 0,
         * and P1M equals P30D, but each prints differently). */
        for (int k = 0; k < p->lp->n_keys; k++) {
            const Column *lk = l->cols[p->lp->lkeys[k]];
            if (p->lp->rkeys[k] != rc || lk->type != src[c]->type || lk->type == TY_FLOAT || lk->type == TY_DURATION ||
                lk->type == TY_NULL)
                continue;
            if (!li && lk->n == n && !lk->pruned) {
                /* The left side in its own order (AS-OF): the left key column itself, NULL
                 * where no right row matched, shares its data (an optimisation: no copy, and
                 * no fresh memory for a column that may be wide, as TEXT is). */
                if (!view) {
                    view = rx_calloc((size_t)sc->n, sizeof *view);
                    if (!view) goto oom;
                }
                view[c] = lk;
                src[c] = NULL;
                idx[c] = NULL;
                break;
            }
            if (!lsel) {
                lsel = rx_malloc((n ? n : 1) * sizeof *lsel);
                if (!lsel) goto oom;
                for (size_t i = 0; i < n; i++) lsel[i] = ri[i] == ROW_NONE ? ROW_NONE : li ? li[i] : (uint32_t)i;
            }
            src[c] = lk;
            idx[c] = lsel;
            break;
        }
    }
    int grc = gather_columns(out, src, idx, sc->n, n);
    rx_free(lsel);
    if (grc < 0) goto oom;
    for (int c = 0; c < sc->n; c++) {
        Column *g = out[c];
        if (view && view[c]) {
            g = view_matched(view[c], ri, n);
            if (!g) {
                for (int k = c + 1; k < sc->n; k++) col_release(out[k]);
                goto oom;
            }
        } else if (!g && !src[c]) {
            g = col_placeholder(sc->cols[c].type, n);
            if (!g) {
                for (int k = c + 1; k < sc->n; k++) col_release(out[k]);
                goto oom;
            }
        } else if (!g) {
            /* identity: the side's rows in order, one each (AS-OF's left side) */
            g = (Column *)src[c];
            col_retain(g);
        }
        if (table_set(t, c, g, sc->cols[c].name) < 0) {
            for (int k = c + 1; k < sc->n; k++) col_release(out[k]);
            goto oom;
        }
    }
    rx_free(src), rx_free(idx), rx_free(out), rx_free(view);
    return t;
oom:
    rx_free(src), rx_free(idx), rx_free(out), rx_free(view);
    table_free(t);
    ops_oom(err);
    return NULL;
}

/* exec_ijoin_pairs, or with hit (l->n_rows bytes) whether each left row has a partner
 * (ij_exists: SEMI and ANTI, no pair listed; pairs unused). */
static int ijoin_kernel(ExecCtx *x, const PNode *p, const Table *l, const Table *r, IjPairs *pairs,
                        uint8_t *hit, RxError *err) {
    const LPlan *lp = p->lp;
    const Column *ends[4] = {l->cols[lp->ends[0]], l->cols[lp->ends[1]], r->cols[lp->ends[2]],
                             r->cols[lp->ends[3]]};
    KeySet ks;
    if (keys_encode_ordered(ends, 4, &ks, err) < 0) return -1;
    IjSide ls = {.s = ks.keys[0], .e = ks.keys[1], .n = l->n_rows};
    IjSide rs = {.s = ks.keys[2], .e = ks.keys[3], .n = r->n_rows};
    uint64_t *lv = NULL, *rv = NULL;
    if (keys_validity(&ends[0], 2, l->n_rows, &lv) < 0 || keys_validity(&ends[2], 2, r->n_rows, &rv) < 0) {
        rx_free(lv);
        keys_free(&ks);
        return ops_oom(err);
    }
    ls.valid = lv;
    rs.valid = rv;
    int64_t *pe = NULL;
    if (lp->point) {
        /* AT: rs <= t < re is INTERSECTS with [t, t+1) on the order-preserving keys, which are
         * integers; a point at the greatest key lies in no interval. */
        pe = rx_malloc((l->n_rows ? l->n_rows : 1) * sizeof *pe);
        if (!pe || (!lv && keys_validity(NULL, 0, l->n_rows, &lv) < 0)) {
            rx_free(pe), rx_free(lv), rx_free(rv);
            keys_free(&ks);
            return ops_oom(err);
        }
        for (size_t i = 0; i < l->n_rows; i++) {
            int64_t t = ls.s[i];
            pe[i] = t == INT64_MAX ? t : t + 1;
            if (t == INT64_MAX) bitmap_set(lv, i, false);
        }
        ls.e = pe;
        ls.valid = lv;
    }
    IjOptions opt = {.algo = p->ij_algo, .set = lp->relset};
    KeyParts kp = {0};
    if (lp->n_keys > 0) {
        /* fused equality keys: one sweep per partition; rows whose key has no partner never match */
        const Column *lk[16], *rk[16];
        int nk = lp->n_keys < 16 ? lp->n_keys : 16;
        for (int i = 0; i < nk; i++) {
            lk[i] = l->cols[lp->lkeys[i]];
            rk[i] = r->cols[lp->rkeys[i]];
        }
        if (keys_partition(lk, l->n_rows, rk, r->n_rows, nk, &kp, err) < 0) {
            rx_free(lv), rx_free(rv);
            keys_free(&ks);
            return -1;
        }
        if ((!lv && keys_validity(NULL, 0, l->n_rows, &lv) < 0) || (!rv && keys_validity(NULL, 0, r->n_rows, &rv) < 0)) {
            rx_free(lv), rx_free(rv);
            keys_parts_free(&kp);
            keys_free(&ks);
            return ops_oom(err);
        }
        /* Only an array of its own can hold ROW_NONE (keys.h). */
        for (size_t i = 0; kp.l_own && i < l->n_rows; i++)
            if (kp.l_own[i] == ROW_NONE) bitmap_set(lv, i, false), kp.l_own[i] = 0;
        for (size_t i = 0; kp.r_own && i < r->n_rows; i++)
            if (kp.r_own[i] == ROW_NONE) bitmap_set(rv, i, false), kp.r_own[i] = 0;
        ls.valid = lv;
        rs.valid = rv;
        ls.part = kp.l;
        rs.part = kp.r;
        opt.n_parts = kp.n_parts;
    }
    double t0 = now_s();
    char setname[256];
    progress_begin("pairs", 0, "IJOIN %s (%zu × %zu rows)",
                   lp->relset ? ij_set_name(lp->relset, setname, sizeof setname) : ij_relation_name(lp->relation),
                   l->n_rows, r->n_rows);
    int rc = hit ? ij_exists(lp->relation, &ls, &rs, &opt, hit, err)
                 : ij_join(lp->relation, &ls, &rs, &opt, pairs, err);
    x->t_join_s += now_s() - t0;
    if (!hit) progress_update(pairs->n, NULL);
    rx_free(pe);
    rx_free(lv);
    rx_free(rv);
    keys_parts_free(&kp);
    keys_free(&ks);
    return rc;
}

int exec_ijoin_pairs(ExecCtx *x, const PNode *p, const Table *l, const Table *r, IjPairs *pairs,
                     RxError *err) {
    return ijoin_kernel(x, p, l, r, pairs, NULL, err);
}

/* IJOIN SEMI and ANTI without a report to feed: the left rows with some / with no partner, once
 * each, in left order, each decided by the existence test (ij_exists), not by listing pairs.
 * NULL with err set. */
static Table *ijoin_semi_exists(ExecCtx *x, const PNode *p, const Table *l, const Table *r, RxError *err) {
    size_t nl = l->n_rows;
    uint8_t *hit = rx_malloc(nl ? nl : 1);
    uint32_t *idx = rx_malloc((nl ? nl : 1) * sizeof *idx);
    if (!hit || !idx) {
        rx_free(hit), rx_free(idx);
        ops_oom(err);
        return NULL;
    }
    IjPairs none = {0};
    Table *t = NULL;
    if (ijoin_kernel(x, p, l, r, &none, hit, err) == 0) {
        bool semi = p->lp->join_kind == JOIN_SEMI;
        size_t k = 0;
        for (size_t i = 0; i < nl; i++)
            if ((hit[i] != 0) == semi) idx[k++] = (uint32_t)i;
        t = ops_gather_join(p, l, r, idx, NULL, k, err);
    }
    rx_free(hit), rx_free(idx);
    progress_end();
    return t;
}

/* IJOIN LEFT, SEMI and ANTI from the kernel's pairs (sorted by left row): every left row with
 * its pairs or one NULL-padded row (LEFT), or the left rows with some / with no pair, once
 * each, in left order. NULL on OOM. */
static Table *ijoin_outer_or_semi(const PNode *p, const Table *l, const Table *r, const IjPairs *pairs,
                                  RxError *err) {
    int kind = p->lp->join_kind;
    size_t nl = l->n_rows;
    if (kind == JOIN_SEMI || kind == JOIN_ANTI) {
        uint32_t *idx = rx_malloc((nl ? nl : 1) * sizeof *idx);
        if (!idx) {
            ops_oom(err);
            return NULL;
        }
        size_t k = 0, j = 0;
        for (size_t i = 0; i < nl; i++) {
            bool any = j < pairs->n && pairs->left[j] == i;
            while (j < pairs->n && pairs->left[j] == i) j++;
            if (any == (kind == JOIN_SEMI)) idx[k++] = (uint32_t)i;
        }
        Table *t = ops_gather_join(p, l, r, idx, NULL, k, err);
        rx_free(idx);
        return t;
    }
    /* LEFT: at most pairs + left rows */
    size_t cap = pairs->n + nl;
    if (cap > UINT32_MAX) {
        rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0), "the interval join's result exceeds %u rows",
                 (unsigned)UINT32_MAX);
        return NULL;
    }
    uint32_t *li = rx_malloc((cap ? cap : 1) * sizeof *li), *ri = rx_malloc((cap ? cap : 1) * sizeof *ri);
    if (!li || !ri) {
        rx_free(li), rx_free(ri);
        ops_oom(err);
        return NULL;
    }
    size_t k = 0, j = 0;
    for (size_t i = 0; i < nl; i++) {
        if (j >= pairs->n || pairs->left[j] != i) {
            li[k] = (uint32_t)i;
            ri[k++] = ROW_NONE;
            continue;
        }
        for (; j < pairs->n && pairs->left[j] == i; j++) {
            li[k] = (uint32_t)i;
            ri[k++] = pairs->right[j];
        }
    }
    Table *t = ops_gather_join(p, l, r, li, ri, k, err);
    rx_free(li), rx_free(ri);
    return t;
}

static Table *run_ijoin(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err) {
    int kind = p->lp->join_kind;
    /* the report's timeline (on_join) draws the pairs: only then do SEMI and ANTI list them */
    if ((kind == JOIN_SEMI || kind == JOIN_ANTI) && !x->on_join) return ijoin_semi_exists(x, p, l, r, err);
    IjPairs pairs = {0};
    int rc = exec_ijoin_pairs(x, p, l, r, &pairs, err);
    if (rc == 0 && x->on_join) x->on_join(x->join_ud, p, l, r, pairs.left, pairs.right, pairs.n);
    if (rc < 0) {
        ij_pairs_free(&pairs);
        return NULL;
    }
    Table *t = p->lp->join_kind == JOIN_INNER ? ops_gather_join(p, l, r, pairs.left, pairs.right, pairs.n, err)
                                                : ijoin_outer_or_semi(p, l, r, &pairs, err);
    ij_pairs_free(&pairs);
    progress_end();
    return t;
}

int ops_match_keys(const LPlan *lp, const Table *l, const Table *r, KeyParts *kp, KeySet *ks,
                   uint64_t **lv, uint64_t **rv, RxError *err) {
    size_t nl = l->n_rows, nr = r->n_rows;
    if (lp->n_keys > 0) {
        const Column **lk = rx_malloc((size_t)lp->n_keys * sizeof *lk);
        const Column **rk = rx_malloc((size_t)lp->n_keys * sizeof *rk);
        if (!lk || !rk) {
            rx_free(lk), rx_free(rk);
            return ops_oom(err);
        }
        for (int i = 0; i < lp->n_keys; i++) {
            lk[i] = l->cols[lp->lkeys[i]];
            rk[i] = r->cols[lp->rkeys[i]];
        }
        int rc = keys_partition(lk, nl, rk, nr, lp->n_keys, kp, err);
        rx_free(lk), rx_free(rk);
        if (rc < 0) return -1;
    }
    const Column *m[2] = {l->cols[lp->lmatch], r->cols[lp->rmatch]};
    if (keys_encode_ordered(m, 2, ks, err) < 0) return -1;
    if (keys_validity(&m[0], 1, nl, lv) < 0 || keys_validity(&m[1], 1, nr, rv) < 0) return ops_oom(err);
    return 0;
}

/* exec_asof_match, or with kout the k-nearest matches into *kout (match unused). */
static int asof_match(ExecCtx *x, const PNode *p, const Table *l, const Table *r, uint32_t *match,
                      AsofKOut *kout, RxError *err) {
    const LPlan *lp = p->lp;
    size_t nl = l->n_rows, nr = r->n_rows;
    /* Partition ids from the equality keys, then order-preserving keys of the match column. */
    KeyParts kp = {0};
    uint64_t *lv = NULL, *rv = NULL;
    KeySet ks = {0};
    int ret = -1;
    if (ops_match_keys(lp, l, r, &kp, &ks, &lv, &rv, err) < 0) goto out;
    /* Rows whose keys found no partition on the other side, or are NULL, never match. */
    /* Only an array of its own can hold ROW_NONE (keys.h). */
    if (kp.l_own) {
        if (!lv && keys_validity(NULL, 0, nl, &lv) < 0) { ops_oom(err); goto out; }
        for (size_t i = 0; i < nl; i++)
            if (kp.l_own[i] == ROW_NONE) bitmap_set(lv, i, false), kp.l_own[i] = 0;
    }
    if (kp.r_own) {
        if (!rv && keys_validity(NULL, 0, nr, &rv) < 0) { ops_oom(err); goto out; }
        for (size_t i = 0; i < nr; i++)
            if (kp.r_own[i] == ROW_NONE) bitmap_set(rv, i, false), kp.r_own[i] = 0;
    }
    AsofSide as_l = {.val = ks.keys[0], .n = nl, .valid = lv, .part = kp.l};
    AsofSide as_r = {.val = ks.keys[1], .n = nr, .valid = rv, .part = kp.r};
    AsofOptions opt = {.dir = lp->dir, .ties_first = lp->ties_first,
                       .has_within = lp->has_within, .n_parts = kp.n_parts ? kp.n_parts : 1,
                       .algo = p->asof_algo, .nearest = lp->nearest};
    if (lp->has_within)
        opt.within = keys_distance_bound(l->cols[lp->lmatch]->type, r->cols[lp->rmatch]->type, lp->within);
    AsofStats st = {0};
    double t0 = now_s();
    progress_begin(NULL, 0, "ASOF (%zu × %zu rows)", nl, nr);
    int rc;
    if (kout) {
        AsofKOptions ko = {.base = opt, .k = (uint32_t)lp->asof_k, .ties_all = lp->ties_all};
        rc = asof_k_join(&as_l, &as_r, &ko, kout, err);
    } else {
        rc = asof_join(&as_l, &as_r, &opt, match, &st, err);
    }
    x->t_join_s += now_s() - t0;
    if (rc < 0) goto out;
    if (x->stats) {
        x->stats[p->id].left_presorted = st.left_sorted;
        x->stats[p->id].right_presorted = st.right_sorted;
    }
    ret = 0;
out:
    keys_parts_free(&kp);
    rx_free(lv);
    rx_free(rv);
    keys_free(&ks);
    return ret;
}

int exec_asof_match(ExecCtx *x, const PNode *p, const Table *l, const Table *r, uint32_t *match,
                    RxError *err) {
    return asof_match(x, p, l, r, match, NULL, err);
}

/* ASOF k: the k-nearest matches gathered as the join's columns (a left row without a match is
 * padded with NULLs unless INNER), then the rank column. NULL with err. */
static Table *run_asof_k(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err) {
    const LPlan *lp = p->lp;
    AsofKOut ko = {0};
    Table *t = NULL, *g = NULL;
    uint32_t *li = NULL, *ri = NULL, *rk = NULL;
    if (asof_match(x, p, l, r, NULL, &ko, err) < 0) goto out;
    if (x->on_join) {
        /* the report's timeline draws each left row's nearest match (rank 1) */
        uint32_t *m = rx_malloc((l->n_rows ? l->n_rows : 1) * sizeof *m);
        if (m) {
            for (size_t i = 0; i < l->n_rows; i++) m[i] = ROW_NONE;
            for (size_t q = 0; q < ko.n; q++)
                if (ko.rank[q] == 1 && m[ko.left[q]] == ROW_NONE) m[ko.left[q]] = ko.right[q];
            x->on_join(x->join_ud, p, l, r, NULL, m, l->n_rows);
            rx_free(m);
        }
    }
    size_t cap = ko.n + (lp->inner ? 0 : l->n_rows), k = 0, j = 0;
    if (cap > RX_MAX_ROWS) {
        rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0), "the AS-OF join's result exceeds %u rows", (unsigned)RX_MAX_ROWS);
        goto out;
    }
    li = rx_malloc((cap ? cap : 1) * sizeof *li);
    ri = rx_malloc((cap ? cap : 1) * sizeof *ri);
    rk = rx_malloc((cap ? cap : 1) * sizeof *rk);
    if (!li || !ri || !rk) {
        ops_oom(err);
        goto out;
    }
    for (size_t i = 0; i < l->n_rows; i++) {
        if ((j >= ko.n || ko.left[j] != i) && !lp->inner) {
            li[k] = (uint32_t)i, ri[k] = ROW_NONE, rk[k++] = 0;
            continue;
        }
        for (; j < ko.n && ko.left[j] == i; j++) li[k] = (uint32_t)i, ri[k] = ko.right[j], rk[k++] = ko.rank[j];
    }
    /* the join's columns through a plan node without the rank column */
    LPlan lp2 = *lp;
    lp2.schema.n--;
    PNode p2 = *p;
    p2.lp = &lp2;
    if (!(g = ops_gather_join(&p2, l, r, li, ri, k, err))) goto out;
    Column *rc = col_new(TY_INT, k);
    if (!rc || !(t = table_new(lp->schema.n, k))) {
        col_release(rc);
        ops_oom(err);
        goto out;
    }
    int64_t *rv = rc->data;
    for (size_t i = 0; i < k; i++) {
        rv[i] = rk[i];
        if (!rk[i] && col_set_null(rc, i) < 0) {
            col_release(rc);
            table_free(t);
            t = NULL;
            ops_oom(err);
            goto out;
        }
    }
    for (int c = 0; c < g->n_cols; c++) {
        col_retain(g->cols[c]);
        if (table_set(t, c, g->cols[c], lp->schema.cols[c].name) < 0) {
            col_release(rc);
            table_free(t);
            t = NULL;
            ops_oom(err);
            goto out;
        }
    }
    if (table_set(t, lp->schema.n - 1, rc, lp->schema.cols[lp->schema.n - 1].name) < 0) {
        table_free(t);
        t = NULL;
        ops_oom(err);
    }
out:
    progress_end();
    table_free(g);
    rx_free(li), rx_free(ri), rx_free(rk);
    asof_k_free(&ko);
    return t;
}

static Table *run_asof(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err) {
    const LPlan *lp = p->lp;
    if (lp->asof_k) return run_asof_k(x, p, l, r, err);
    size_t nl = l->n_rows;
    Table *t = NULL;
    uint32_t *match = rx_malloc((nl ? nl : 1) * sizeof *match);
    if (!match) {
        ops_oom(err);
        goto out;
    }
    /* The keys and partitions are freed before the gather, whose output columns then touch
     * memory the system has just had back, which is cheaper to touch than fresh memory (an
     * optimisation; bench/RESULTS.md has the measurements). */
    if (exec_asof_match(x, p, l, r, match, err) < 0) goto out;
    if (x->on_join) x->on_join(x->join_ud, p, l, r, NULL, match, nl);
    if (lp->inner) {
        size_t k = 0;
        uint32_t *li = rx_malloc((nl ? nl : 1) * sizeof *li);
        if (!li) {
            ops_oom(err);
            goto out;
        }
        for (size_t i = 0; i < nl; i++)
            if (match[i] != ROW_NONE) {
                li[k] = (uint32_t)i;
                match[k] = match[i];
                k++;
            }
        t = ops_gather_join(p, l, r, li, match, k, err);
        rx_free(li);
    } else {
        t = ops_gather_join(p, l, r, NULL, match, nl, err);
    }
out:
    progress_end();
    rx_free(match);
    return t;
}

/* ---- driver --------------------------------------------------------------------------------- */

static int cmp_ptr(const void *a, const void *b) {
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

static bool has_ptr(const uintptr_t *v, size_t n, const void *p) {
    uintptr_t k = (uintptr_t)p;
    return n && bsearch(&k, v, n, sizeof *v, cmp_ptr) != NULL;
}

/* Bytes of t's columns that are not one of in0's or in1's (NULL: none): what an operator's
 * output holds that it made itself. A view counts its validity bitmap only; string heaps
 * count when no input column shares them. The inputs' columns and heaps are looked up in
 * sorted arrays, so that a table thousands of columns wide costs n log n, not n squared; when
 * those arrays cannot be had, every column counts as new (an overestimate, never a failure). */
static size_t new_bytes(const Table *t, const Table *in0, const Table *in1) {
    size_t n_in = 0, n_heaps = 0;
    for (int k = 0; k < 2; k++) {
        const Table *in = k ? in1 : in0;
        for (int j = 0; in && j < in->n_cols; j++) {
            n_in++;
            n_heaps += in->cols[j]->n_heaps;
        }
    }
    uintptr_t *cols = n_in ? malloc(n_in * sizeof *cols) : NULL;
    uintptr_t *heaps = n_heaps ? malloc(n_heaps * sizeof *heaps) : NULL;
    if ((n_in && !cols) || (n_heaps && !heaps)) n_in = n_heaps = 0;
    size_t a = 0, h = 0;
    for (int k = 0; k < 2 && (n_in || n_heaps); k++) {
        const Table *in = k ? in1 : in0;
        for (int j = 0; in && j < in->n_cols; j++) {
            const Column *ic = in->cols[j];
            if (cols) cols[a++] = (uintptr_t)ic;
            for (uint32_t i = 0; heaps && i < ic->n_heaps; i++) heaps[h++] = (uintptr_t)ic->heaps[i];
        }
    }
    if (a) qsort(cols, a, sizeof *cols, cmp_ptr);
    if (h) qsort(heaps, h, sizeof *heaps, cmp_ptr);
    size_t b = 0;
    for (int i = 0; i < t->n_cols; i++) {
        const Column *c = t->cols[i];
        if (has_ptr(cols, a, c)) continue;
        if (c->valid) b += (c->n + 63) / 64 * 8;
        if (c->base || c->pruned) continue;
        if (c->codes) b += c->n * sizeof *c->codes + c->n_dict * sizeof *c->dict;
        else if (c->data) b += c->n * type_width(c->type);
        for (uint32_t k = 0; k < c->n_heaps; k++)
            if (c->heaps[k] && !has_ptr(heaps, h, c->heaps[k])) b += c->heaps[k]->len;
    }
    free(cols);
    free(heaps);
    return b;
}

/* Whether operator p reads lazy coded columns (column.h) as they are; every other operator
 * gets inputs whose slices exist (run makes them first). A scan and ρ pass columns on; π of
 * plain columns shares them (its duplicate removal makes the slices it needs); the AS-OF join
 * keys coded columns by code (keys.c) and gathers codes. */
static bool reads_lazy(const ExecCtx *x, const PNode *p) {
    switch (p->kind) {
    case PN_SCAN: case PN_RENAME: return true;
    case PN_PROJECT:
        for (int i = 0; i < p->lp->n_items; i++)
            if (p->lp->items[i]->kind != EX_COL) return false;
        return true;
    case PN_ASOF: return !x->on_join && !p->lp->asof_k;
    default: return false;
    }
}

/* Sets used[c] for every input column c that e reads. */
static void mark_cols(const Expr *e, bool *used) {
    if (!e) return;
    if (e->kind == EX_COL) used[e->col] = true;
    for (int i = 0; i < e->n_args; i++) mark_cols(e->args[i], used);
}

/* Makes the slices (col_need_str) exist that p reads of its inputs' TEXT columns: none for the
 * operators of reads_lazy; for γ, those of the columns its aggregates or computed keys read,
 * not of those it only groups by (keys.c groups a coded column by code, and gather_key
 * gathers the codes); for ω likewise, its order and its functions' operands counting as read
 * (the columns it passes on stay as they are); for the interval-set operators, those PACK's
 * aggregates read (BY keys group by code, ON keys partition as keys.c does for any join, the
 * pieces gather codes); every column's for any other operator. 0, or -1 when out of memory. */
static int need_slices(const ExecCtx *x, const PNode *p, const Table *in0, const Table *in1) {
    if (reads_lazy(x, p)) return 0;
    if (((p->kind == PN_GROUP || p->kind == PN_WINDOW) && in0 && !in1) || (p->kind == PN_ISET && in0)) {
        const LPlan *lp = p->lp;
        bool *used = calloc((size_t)in0->n_cols + 1, sizeof *used);
        if (!used) return -1;
        for (int k = 0; k < lp->n_group; k++)
            if (lp->group[k]->kind != EX_COL) mark_cols(lp->group[k], used);
        for (int a = 0; a < lp->n_aggs; a++) {
            mark_cols(lp->aggs[a].arg, used);
            mark_cols(lp->aggs[a].arg2, used);
        }
        if (p->kind == PN_WINDOW) {
            for (int k = 0; k < lp->n_sort; k++) mark_cols(lp->sort[k].e, used);
            for (int w = 0; w < lp->n_wins; w++) {
                mark_cols(lp->wins[w].arg, used);
                mark_cols(lp->wins[w].def, used);
            }
        }
        int rc = 0;
        for (int c = 0; c < in0->n_cols && rc == 0; c++)
            if (used[c] && col_need_str(in0->cols[c]) < 0) rc = -1;
        free(used);
        return rc;
    }
    return table_need_str(in0) < 0 || table_need_str(in1) < 0 ? -1 : 0;
}

static Table *run(ExecCtx *x, const PNode *p, RxError *err) {
    if (ops_check_interrupt(x, err) < 0) return NULL;
    const LPlan *lp = p->lp;
    Table *in0 = NULL, *in1 = NULL, *out = NULL;
    double t_start = now_s();
    if (p->in[0] && !(in0 = run(x, p->in[0], err))) return NULL;
    if (p->in[1] && !(in1 = run(x, p->in[1], err))) {
        table_free(in0);
        return NULL;
    }
    /* The inputs are built: from here on, time and memory are this operator's own. */
    double t_self = now_s();
    size_t mem0 = rx_memory_peak_mark();
    if (need_slices(x, p, in0, in1) < 0) {
        ops_oom(err);
        goto done;
    }
    switch (p->kind) {
    case PN_SCAN:
        out = ops_shared_table(lp->table, &lp->schema);
        if (!out) ops_oom(err);
        break;
    case PN_SELECT: out = run_select(x, p, in0, err); break;
    case PN_PROJECT: out = run_project(x, p, in0, err); break;
    case PN_RENAME:
        out = ops_shared_table(in0, &lp->schema);
        if (!out) ops_oom(err);
        break;
    case PN_IJOIN: out = run_ijoin(x, p, in0, in1, err); break;
    case PN_ASOF: out = run_asof(x, p, in0, in1, err); break;
    case PN_HASHJOIN: case PN_LOOPJOIN: out = ops_join(x, p, in0, in1, err); break;
    case PN_SETOP: out = ops_setop(x, p, in0, in1, err); break;
    case PN_DISTINCT: {
        Table *t = ops_shared_table(in0, &lp->schema);
        out = t ? ops_dedup(t, err) : NULL;
        if (!t) ops_oom(err);
        break;
    }
    case PN_SORT: out = ops_sort(x, p, in0, err); break;
    case PN_TOP: out = ops_top(x, p, in0, err); break;
    case PN_GROUP: out = ops_group(x, p, in0, err); break;
    case PN_WINDOW: out = ops_window(x, p, in0, err); break;
    case PN_WJOIN: out = ops_wjoin(x, p, in0, in1, err); break;
    case PN_FILL: out = ops_fill(x, p, in0, err); break;
    case PN_ISET: out = ops_iset(x, p, in0, in1, err); break;
    case PN_SQL: {
        const Schema *sc = &lp->schema;
        const char **names = rx_malloc((size_t)(sc->n + 1) * sizeof *names);
        RxType *types = rx_malloc((size_t)(sc->n + 1) * sizeof *types);
        if (!names || !types) {
            ops_oom(err);
        } else {
            for (int i = 0; i < sc->n; i++) names[i] = sc->cols[i].name, types[i] = sc->cols[i].type;
            double t0 = now_s();
            if (db_run(lp->conn_def->conn, lp->stmt, sc->n, types, names, &out, err) < 0) {
                out = NULL;
                if (!err->src) {
                    char msg[sizeof err->msg];
                    snprintf(msg, sizeof msg, "%s", err->msg);
                    RxErrCode code = err->code;
                    rx_error_clear(err);
                    rx_error(err, code, lp->src, lp->span, "%s (in the statement pushed down for this part of the query)", msg);
                }
            }
            x->t_join_s += now_s() - t0;
        }
        rx_free(names);
        rx_free(types);
        break;
    }
    }
done:;
    size_t held = rx_memory_peak_since(mem0);
    if (mem0 + held > x->peak_bytes) x->peak_bytes = mem0 + held;
    if (!out) ops_budget_error(p, held, NULL, err);
    if (out && x->stats) {
        ExecNodeStats *st = &x->stats[p->id];
        double t_end = now_s();
        st->ran = true;
        st->rows = (double)out->n_rows;
        st->time_s = t_end - t_start;
        st->self_s = t_end - t_self;
        st->out_bytes = new_bytes(out, p->kind == PN_SCAN ? lp->table : in0, in1);
        st->peak_bytes = held;
        if (st->peak_bytes < st->out_bytes) st->peak_bytes = st->out_bytes;
    }
    table_free(in0);
    table_free(in1);
    return out;
}

int exec_run(ExecCtx *x, const PNode *p, Table **out, RxError *err) {
    *out = run(x, p, err);
    return *out ? 0 : -1;
}

/* ---- EXPLAIN ANALYZE ------------------------------------------------------------------------ */

void exec_run_notes(const PNode *p, const ExecNodeStats *stats, StrBuf *out) {
    if (!p || !stats) return;
    exec_run_notes(p->in[0], stats, out);
    exec_run_notes(p->in[1], stats, out);
    const ExecNodeStats *st = &stats[p->id];
    if (p->kind == PN_ASOF && st->ran && (st->left_presorted || st->right_presorted)) {
        const char *which = st->left_presorted && st->right_presorted ? "both inputs" :
                            st->left_presorted ? "the left input" : "the right input";
        sb_printf(out, "  AsOfJoin on %s: %s arrived sorted by the keys and the match column, so %s skipped\n",
                  p->lp->in[0]->schema.cols[p->lp->lmatch].name, which,
                  st->left_presorted && st->right_presorted ? "both sorts were" : "its sort was");
    }
}

typedef struct {
    const ExecNodeStats *stats;
    StrBuf *out;
} AnalyzeOut;

static void analyze_line(void *ud, const PlanLine *line) {
    AnalyzeOut *ao = ud;
    const ExecNodeStats *st = &ao->stats[line->node->id];
    sb_printf(ao->out, "%s%s  ~%lld rows", line->tree, line->label, line->rows_est);
    if (!st->ran) {
        sb_puts(ao->out, "  (never ran)\n");
        return;
    }
    char peak[32], share[48] = "";
    rx_format_bytes(peak, sizeof peak, st->peak_bytes);
    if (rx_memory_limit()) {
        char s[40];
        rx_format_share(s, sizeof s, st->peak_bytes, rx_memory_limit());
        snprintf(share, sizeof share, " (%s)", s);
    }
    sb_printf(ao->out, "  (actual rows=%.0f time=%.3f ms self=%.3f ms peak=%s%s)\n", st->rows,
              st->time_s * 1e3, st->self_s * 1e3, peak, share);
}

void exec_explain_analyze(const PNode *p, const ExecNodeStats *stats, StrBuf *out) {
    AnalyzeOut ao = {stats, out};
    plan_lines(p, analyze_line, &ao);
}
