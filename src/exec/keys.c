/*
 * keys.c - order-preserving int64 keys and partition ids for the join kernels (keys.h).
 */
#include "exec/keys.h"

#include "base/hmap.h"
#include "types/compare.h"
#include "types/temporal.h"

#include <stdlib.h>
#include <string.h>

static int oom(RxError *err) { return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory"); }

/* A FLOAT as an int64 with the order and equality of the FLOAT rule (types/compare.h). */
static int64_t float_key(double d) { return rx_float_order_key(d); }

/* ---- a string dictionary -------------------------------------------------------------------- */

typedef struct {
    RxStr *strs;       /* distinct strings, by id */
    uint64_t *words;   /* per id: the bytes of a string of at most 8 bytes, zero-padded */
    uint64_t *hashes;  /* per id */
    uint32_t n, cap;
    RxHMap map;        /* hash of a string -> its id */
} Dict;

/* hash_of for a dictionary's index (ctx: the Dict). */
static uint64_t dict_hash_of(const void *ctx, uint32_t id) { return ((const Dict *)ctx)->hashes[id]; }

/* An empty dictionary with room for hint strings before it grows; 0, or -1 when out of memory
 * (dict_free accepts the dictionary either way). */
static int dict_init(Dict *d, size_t hint) {
    memset(d, 0, sizeof *d);
    return hmap_init(&d->map, hint < 512 ? 512 : hint);
}

static void dict_free(Dict *d) {
    rx_free(d->strs);
    rx_free(d->words);
    rx_free(d->hashes);
    hmap_free(&d->map);
}

/* AddressSanitizer reports the in-page read past a string below, as it should: GCC says it is
 * on with __SANITIZE_ADDRESS__, clang with __has_feature(address_sanitizer). */
#if defined(__SANITIZE_ADDRESS__)
#define KEYS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KEYS_ASAN 1
#endif
#endif

/* A string of at most 8 bytes as one zero-padded word, so that short strings (symbols, codes)
 * hash and compare without a memcmp call. */
static inline uint64_t short_word(RxStr s) {
    uint64_t w = 0;
    if (s.len == 0) return 0;
#if !defined(KEYS_ASAN) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (((uintptr_t)s.ptr & 4095) <= 4088) {
        /* the 8 bytes stay within one page, so reading past the string is safe: mask it off */
        memcpy(&w, s.ptr, 8);
        if (s.len < 8) w &= (UINT64_C(1) << (8 * s.len)) - 1;
        return w;
    }
#endif
    memcpy(&w, s.ptr, s.len);
    return w;
}

/* The id of s, inserting it when insert is set; UINT32_MAX when absent (or on OOM, *oom_flag). */
static uint32_t dict_id(Dict *d, RxStr s, bool insert, bool *oom_flag) {
    bool small = s.len <= 8;
    uint64_t w = small ? short_word(s) : 0;
    uint64_t h = small ? rx_hash64(w * 0x9e3779b97f4a7c15ULL + s.len) : rx_hash_bytes(s.ptr, s.len);
    RxHProbe p = hmap_probe(&d->map, h);
    uint32_t id;
    while (hmap_next(&d->map, &p, &id)) {
        if (d->hashes[id] != h) continue;
        RxStr t = d->strs[id];
        if (t.len == s.len && (small ? d->words[id] == w : memcmp(t.ptr, s.ptr, s.len) == 0))
            return id;
    }
    if (!insert || *oom_flag) return UINT32_MAX;
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 256;
        RxStr *st = rx_realloc(d->strs, cap * sizeof *st);
        if (st) d->strs = st;
        uint64_t *hs = st ? rx_realloc(d->hashes, cap * sizeof *hs) : NULL;
        if (hs) d->hashes = hs;
        uint64_t *ws = hs ? rx_realloc(d->words, cap * sizeof *ws) : NULL;
        if (ws) d->words = ws;
        if (!st || !hs || !ws) {
            *oom_flag = true;
            return UINT32_MAX;
        }
        d->cap = cap;
    }
    id = d->n++;
    d->strs[id] = s;
    d->hashes[id] = h;
    d->words[id] = w;
    if (hmap_insert(&d->map, &p, id, dict_hash_of, d) < 0) *oom_flag = true;
    return id;
}


typedef struct {
    RxStr s;
    uint32_t id;
} RankItem;

static int cmp_rank_item(const void *a, const void *b) { return rx_str_cmp(&((const RankItem *)a)->s, &((const RankItem *)b)->s); }

/* ---- ordered keys --------------------------------------------------------------------------- */

int keys_encode_ordered(const Column *const *cols, int n, KeySet *out, RxError *err) {
    memset(out, 0, sizeof *out);
    out->n = n;
    bool any_float = false, any_ts = false, text = false;
    for (int i = 0; i < n; i++) {
        any_float |= cols[i]->type == TY_FLOAT;
        any_ts |= cols[i]->type == TY_TIMESTAMP;
        text |= cols[i]->type == TY_TEXT;
    }
    for (int i = 0; i < n; i++) {
        RxType t = cols[i]->type;
        if (!text && cols[i]->n > 0 && (t == TY_TIMESTAMP || t == TY_TIME || (t == TY_INT && !any_float))) {
            /* already order-preserving int64: use the column's own array */
            out->keys[i] = (int64_t *)cols[i]->data;
            out->borrowed[i] = true;
            continue;
        }
        out->keys[i] = rx_malloc((cols[i]->n ? cols[i]->n : 1) * sizeof(int64_t));
        if (!out->keys[i]) {
            keys_free(out);
            return oom(err);
        }
    }
    if (text) {
        size_t total = 0;
        for (int i = 0; i < n; i++) total += cols[i]->n;
        for (int i = 0; i < n; i++)
            if (col_need_str(cols[i]) < 0) {
                keys_free(out);
                return oom(err);
            }
        Dict d;
        if (dict_init(&d, total < 1024 ? total : 1024) < 0) {
            keys_free(out);
            return oom(err);
        }
        bool failed = false;
        for (int i = 0; i < n && !failed; i++) {
            const Column *c = cols[i];
            int64_t *k = out->keys[i];
            for (size_t r = 0; r < c->n; r++)
                k[r] = col_is_null(c, r) ? 0 : (int64_t)dict_id(&d, col_str(c)[r], true, &failed);
        }
        /* Rank the distinct strings: id -> rank. */
        RankItem *items = failed ? NULL : rx_malloc((d.n ? d.n : 1) * sizeof *items);
        uint32_t *rank = failed ? NULL : rx_malloc((d.n ? d.n : 1) * sizeof *rank);
        if (failed || !items || !rank) {
            rx_free(items), rx_free(rank);
            dict_free(&d);
            keys_free(out);
            return oom(err);
        }
        for (uint32_t id = 0; id < d.n; id++) items[id].s = d.strs[id], items[id].id = id;
        qsort(items, d.n, sizeof *items, cmp_rank_item);
        for (uint32_t r = 0; r < d.n; r++) rank[items[r].id] = r;
        for (int i = 0; i < n; i++) {
            const Column *c = cols[i];
            int64_t *k = out->keys[i];
            for (size_t r = 0; r < c->n; r++)
                if (!col_is_null(c, r)) k[r] = rank[k[r]];
        }
        rx_free(items);
        rx_free(rank);
        dict_free(&d);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (out->borrowed[i]) continue;
        const Column *c = cols[i];
        int64_t *k = out->keys[i];
        size_t m = c->n;
        switch (c->type) {
        case TY_INT:
            if (any_float) for (size_t r = 0; r < m; r++) k[r] = float_key((double)col_i64(c)[r]);
            else if (m) memcpy(k, c->data, m * sizeof *k);   /* an empty column may have no buffer */
            break;
        case TY_FLOAT:
            for (size_t r = 0; r < m; r++) k[r] = float_key(col_f64(c)[r]);
            break;
        case TY_DATE:
            for (size_t r = 0; r < m; r++)
                k[r] = any_ts ? (int64_t)col_i32(c)[r] * US_PER_DAY : col_i32(c)[r];
            break;
        case TY_BOOL:
            for (size_t r = 0; r < m; r++) k[r] = col_u8(c)[r];
            break;
        case TY_DURATION:
            for (size_t r = 0; r < m; r++) {
                if (col_is_null(c, r)) {
                    k[r] = 0;
                } else if (!rx_dur_span64(col_dur(c)[r], &k[r])) {
                    /* a 64-bit key cannot hold this span: clamping would make two different
                     * durations equal, so the operator refuses instead */
                    keys_free(out);
                    return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                                    "a duration of more than 290,000 years cannot be a join, group or sort key");
                }
            }
            break;
        case TY_NULL:
            memset(k, 0, m * sizeof *k);
            break;
        default:
            memcpy(k, c->data, m * sizeof *k);
            break;
        }
    }
    return 0;
}

void keys_free(KeySet *ks) {
    for (int i = 0; i < 4; i++) {
        if (!ks->borrowed[i]) rx_free(ks->keys[i]);
        ks->keys[i] = NULL;
        ks->borrowed[i] = false;
    }
}

int keys_validity(const Column *const *cols, int n_cols, size_t n, uint64_t **out) {
    *out = NULL;
    bool any = n_cols == 0;
    for (int i = 0; i < n_cols; i++) any |= cols[i]->valid != NULL || cols[i]->type == TY_NULL;
    if (!any) return 0;
    size_t w = bitmap_words(n ? n : 1);
    uint64_t *v = rx_malloc(w * sizeof *v);
    if (!v) return -1;
    memset(v, 0xff, w * sizeof *v);
    for (int i = 0; i < n_cols; i++) {
        if (cols[i]->type == TY_NULL) {
            memset(v, 0, w * sizeof *v);
            break;
        }
        if (cols[i]->valid)
            for (size_t k = 0; k < w; k++) v[k] &= cols[i]->valid[k];
    }
    *out = v;
    return 0;
}

/* ---- partitions ----------------------------------------------------------------------------- */

/* Equality codes of one key column pair: same code for equal values across the sides. */
static int equality_codes(const Column *l, const Column *r, int64_t *lc, int64_t *rc, RxError *err) {
    if (l->type == TY_TEXT || r->type == TY_TEXT) {
        Dict d;
        if (col_need_str(l) < 0 || col_need_str(r) < 0 || dict_init(&d, 1024) < 0) return oom(err);
        bool failed = false;
        for (size_t i = 0; i < r->n; i++)
            rc[i] = col_is_null(r, i) ? -1 : (int64_t)dict_id(&d, col_str(r)[i], true, &failed);
        for (size_t i = 0; i < l->n; i++) {
            uint32_t id = col_is_null(l, i) ? UINT32_MAX : dict_id(&d, col_str(l)[i], false, &failed);
            lc[i] = id == UINT32_MAX ? -1 : (int64_t)id;
        }
        dict_free(&d);
        return failed ? oom(err) : 0;
    }
    const Column *pair[2] = {l, r};
    KeySet ks;
    if (keys_encode_ordered(pair, 2, &ks, err) < 0) return -1;
    memcpy(lc, ks.keys[0], l->n * sizeof *lc);
    memcpy(rc, ks.keys[1], r->n * sizeof *rc);
    keys_free(&ks);
    return 0;
}

/* One TEXT key on both sides: the dictionary of the right side's strings numbers them densely
 * in order of first appearance, which is exactly a partition id (an optimisation of the
 * general path below, which hashes the codes a second time). */
static int partition_text(const Column *l, size_t nl, const Column *r, size_t nr, KeyParts *kp,
                          RxError *err) {
    if (l->codes && r->codes) {
        /* Both columns carry dictionaries: the right codes are the partition ids, and each
         * distinct left string is looked up once (an optimisation of the loop below). When
         * the left strings map onto the right codes one to one, in order, and neither side
         * has a NULL, the codes themselves are the ids. */
        Dict d;
        if (dict_init(&d, r->n_dict) < 0) return oom(err);
        bool failed = false;
        for (uint32_t k = 0; k < r->n_dict && !failed; k++) dict_id(&d, r->dict[k], true, &failed);
        uint32_t *lmap = failed ? NULL : rx_malloc((l->n_dict ? l->n_dict : 1) * sizeof *lmap);
        if (!lmap) {
            dict_free(&d);
            return oom(err);
        }
        bool same = !l->valid;
        for (uint32_t k = 0; k < l->n_dict; k++) {
            lmap[k] = dict_id(&d, l->dict[k], false, &failed);
            same = same && lmap[k] == k;
        }
        dict_free(&d);
        if (r->valid || nr == 0) {
            if (!(kp->r_own = rx_malloc((nr ? nr : 1) * sizeof *kp->r_own))) goto oom;
            for (size_t i = 0; i < nr; i++) kp->r_own[i] = col_is_null(r, i) ? ROW_NONE : r->codes[i];
            kp->r = kp->r_own;
        } else {
            kp->r = r->codes;
        }
        if (!same || nl == 0) {
            if (!(kp->l_own = rx_malloc((nl ? nl : 1) * sizeof *kp->l_own))) goto oom;
            for (size_t i = 0; i < nl; i++) kp->l_own[i] = col_is_null(l, i) ? ROW_NONE : lmap[l->codes[i]];
            kp->l = kp->l_own;
        } else {
            kp->l = l->codes;
        }
        kp->n_parts = r->n_dict ? r->n_dict : 1;
        rx_free(lmap);
        return 0;
    oom:
        rx_free(lmap);
        return oom(err);
    }
    kp->l = kp->l_own = rx_malloc((nl ? nl : 1) * sizeof *kp->l_own);
    kp->r = kp->r_own = rx_malloc((nr ? nr : 1) * sizeof *kp->r_own);
    Dict d;
    if (!kp->l_own || !kp->r_own || col_need_str(l) < 0 || col_need_str(r) < 0 || dict_init(&d, 1024) < 0)
        return oom(err);
    uint32_t *lp = kp->l_own, *rp = kp->r_own;
    bool failed = false;
    for (size_t i = 0; i < nr && !failed; i++)
        rp[i] = col_is_null(r, i) ? ROW_NONE : dict_id(&d, col_str(r)[i], true, &failed);
    for (size_t i = 0; i < nl && !failed; i++)
        lp[i] = col_is_null(l, i) ? ROW_NONE : dict_id(&d, col_str(l)[i], false, &failed);
    kp->n_parts = d.n ? d.n : 1;
    dict_free(&d);
    return failed ? oom(err) : 0;
}

/* The value of row i of an integer-like column, widened to int64. */
static inline int64_t int_key(const Column *c, size_t i) {
    return c->type == TY_INT ? col_i64(c)[i] : c->type == TY_DATE ? col_i32(c)[i] : col_u8(c)[i];
}

/* One integer-like key of the same type on both sides whose right values span a small range:
 * a direct table from value to partition id replaces hashing (an optimisation of the general
 * path). Returns 1 when it applied, 0 when it does not, -1 on OOM. */
static int partition_small_range(const Column *l, size_t nl, const Column *r, size_t nr,
                                 uint32_t *lp, uint32_t *rp, uint32_t *n_parts) {
    RxType t = l->type;
    if (t != r->type || (t != TY_INT && t != TY_DATE && t != TY_BOOL)) return 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < nr; i++) {
        if (col_is_null(r, i)) continue;
        int64_t v = int_key(r, i);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    if (lo > hi) {
        for (size_t i = 0; i < nr; i++) rp[i] = ROW_NONE;
        for (size_t i = 0; i < nl; i++) lp[i] = ROW_NONE;
        *n_parts = 1;
        return 1;
    }
    uint64_t range = (uint64_t)hi - (uint64_t)lo + 1;
    if (range > ((uint64_t)1 << 26) || range > 4 * (uint64_t)nr + 1024) return 0;
    uint32_t *slot = rx_malloc((size_t)range * sizeof *slot);
    if (!slot) return -1;
    memset(slot, 0xff, (size_t)range * sizeof *slot);
    uint32_t next = 0;
    for (size_t i = 0; i < nr; i++) {
        if (col_is_null(r, i)) {
            rp[i] = ROW_NONE;
            continue;
        }
        size_t k = (size_t)((uint64_t)int_key(r, i) - (uint64_t)lo);
        if (slot[k] == UINT32_MAX) slot[k] = next++;
        rp[i] = slot[k];
    }
    for (size_t i = 0; i < nl; i++) {
        lp[i] = ROW_NONE;
        if (col_is_null(l, i)) continue;
        int64_t v = int_key(l, i);
        if (v < lo || v > hi) continue;
        lp[i] = slot[(size_t)((uint64_t)v - (uint64_t)lo)];
    }
    rx_free(slot);
    *n_parts = next ? next : 1;
    return 1;
}

void keys_parts_free(KeyParts *kp) {
    rx_free(kp->l_own), rx_free(kp->r_own);
    memset(kp, 0, sizeof *kp);
}

/* The maps of distinct keys (keys_partition's right keys, keys_group's groups) start with room
 * for this many keys (or every row, when fewer) and grow while the keys are few against the
 * rows, so that a few keys over many rows probe a map that fits in cache; when the first
 * GROUP_PROBE_ROWS rows are more than 1/8 distinct keys, the map is sized for every row at once
 * (no growth, as for distinct rows). */
enum { GROUP_MAP_START = 1 << 14, GROUP_PROBE_ROWS = 1 << 16 };

/* The room such a map starts with for n rows. */
static size_t key_map_start(size_t n) {
    return n < GROUP_MAP_START ? (n < 512 ? 512 : n) : GROUP_MAP_START;
}

/* Whether, before row i with `keys` distinct keys found so far, the map is to be sized for every
 * row at once. */
static bool key_map_all_rows(size_t i, uint32_t keys) {
    return i == GROUP_PROBE_ROWS && keys > GROUP_PROBE_ROWS / 8;
}

int keys_partition(const Column *const *lk, size_t nl, const Column *const *rk, size_t nr,
                   int n_keys, KeyParts *kp, RxError *err) {
    memset(kp, 0, sizeof *kp);
    if (n_keys == 1 && lk[0]->type == TY_TEXT && rk[0]->type == TY_TEXT) {
        if (partition_text(lk[0], nl, rk[0], nr, kp, err) == 0) return 0;
        keys_parts_free(kp);
        return -1;
    }
    kp->l = kp->l_own = rx_malloc((nl ? nl : 1) * sizeof *kp->l_own);
    kp->r = kp->r_own = rx_malloc((nr ? nr : 1) * sizeof *kp->r_own);
    uint32_t **lpart = &kp->l_own, **rpart = &kp->r_own, *n_parts = &kp->n_parts;
    if (n_keys == 1 && *lpart && *rpart) {
        int fast = partition_small_range(lk[0], nl, rk[0], nr, *lpart, *rpart, n_parts);
        if (fast > 0) return 0;
        if (fast < 0) {
            keys_parts_free(kp);
            return oom(err);
        }
    }
    int64_t *lc = rx_malloc((nl ? nl : 1) * (size_t)n_keys * sizeof *lc);
    int64_t *rc = rx_malloc((nr ? nr : 1) * (size_t)n_keys * sizeof *rc);
    uint8_t *lnull = rx_calloc(nl ? nl : 1, 1), *rnull = rx_calloc(nr ? nr : 1, 1);
    int64_t *tl = rx_malloc((nl ? nl : 1) * sizeof *tl), *tr = rx_malloc((nr ? nr : 1) * sizeof *tr);
    RxHMap map;   /* hash of a right key -> its first right row */
    bool map_ok = hmap_init(&map, key_map_start(nr)) == 0;
    uint32_t *ids = rx_malloc((nr ? nr : 1) * sizeof *ids);
    uint64_t *rh = rx_malloc((nr ? nr : 1) * sizeof *rh);
    int ret = -1;
    if (!*lpart || !*rpart || !lc || !rc || !lnull || !rnull || !tl || !tr || !map_ok || !ids || !rh) {
        oom(err);
        goto out;
    }
    /* Codes, key-major: lc[k * nl + i]. A NULL key (code -1 from the text dictionary, or a
     * NULL bit) marks the row. */
    for (int k = 0; k < n_keys; k++) {
        if (equality_codes(lk[k], rk[k], tl, tr, err) < 0) goto out;
        bool text = lk[k]->type == TY_TEXT || rk[k]->type == TY_TEXT;
        for (size_t i = 0; i < nl; i++) {
            lc[(size_t)k * nl + i] = tl[i];
            if (col_is_null(lk[k], i) || (text && tl[i] < 0)) lnull[i] = 1;
        }
        for (size_t i = 0; i < nr; i++) {
            rc[(size_t)k * nr + i] = tr[i];
            if (col_is_null(rk[k], i)) rnull[i] = 1;
        }
    }
    uint32_t next = 0;
    for (size_t i = 0; i < nr; i++) {
        if (key_map_all_rows(i, next) && hmap_reserve(&map, nr, hmap_hash_array, rh) < 0) {
            oom(err);
            goto out;
        }
        if (rnull[i]) {
            (*rpart)[i] = ROW_NONE;
            continue;
        }
        uint64_t h = 0x51ed2701a3b9c4d5ULL;
        for (int k = 0; k < n_keys; k++) h = rx_hash_combine(h, (uint64_t)rc[(size_t)k * nr + i]);
        rh[i] = h;
        RxHProbe pr = hmap_probe(&map, h);
        uint32_t o;
        bool found = false;
        while (!found && hmap_next(&map, &pr, &o)) {
            found = rh[o] == h;
            for (int k = 0; k < n_keys && found; k++) found = rc[(size_t)k * nr + o] == rc[(size_t)k * nr + i];
        }
        if (found) {
            ids[i] = ids[o];
        } else {
            ids[i] = next++;
            if (hmap_insert(&map, &pr, (uint32_t)i, hmap_hash_array, rh) < 0) {
                oom(err);
                goto out;
            }
        }
        (*rpart)[i] = ids[i];
    }
    for (size_t i = 0; i < nl; i++) {
        (*lpart)[i] = ROW_NONE;
        if (lnull[i]) continue;
        uint64_t h = 0x51ed2701a3b9c4d5ULL;
        for (int k = 0; k < n_keys; k++) h = rx_hash_combine(h, (uint64_t)lc[(size_t)k * nl + i]);
        RxHProbe pr = hmap_probe(&map, h);
        uint32_t o;
        while (hmap_next(&map, &pr, &o)) {
            bool eq = rh[o] == h;
            for (int k = 0; k < n_keys && eq; k++) eq = rc[(size_t)k * nr + o] == lc[(size_t)k * nl + i];
            if (eq) {
                (*lpart)[i] = ids[o];
                break;
            }
        }
    }
    *n_parts = next ? next : 1;
    ret = 0;
out:
    rx_free(lc), rx_free(rc), rx_free(lnull), rx_free(rnull), rx_free(tl), rx_free(tr), rx_free(ids), rx_free(rh);
    hmap_free(&map);
    if (ret < 0) keys_parts_free(kp);
    return ret;
}

/* Group ids of one integer-like column whose values span a small range: a direct table from
 * value to id instead of hashing (an optimisation; the general path gives the same ids).
 * Returns 1 when it applied, 0 when the range is too wide, -1 on OOM. */
static int group_small_range(const Column *c, size_t n, uint32_t **ids_out, uint32_t *n_groups) {
    if (c->type == TY_TEXT && c->codes) {
        /* a dictionary-coded TEXT column: group by code (slot n_dict is NULL) */
        uint32_t *slot = rx_malloc(((size_t)c->n_dict + 1) * sizeof *slot);
        uint32_t *ids = rx_malloc((n ? n : 1) * sizeof *ids);
        if (!slot || !ids) {
            rx_free(slot), rx_free(ids);
            return -1;
        }
        memset(slot, 0xff, ((size_t)c->n_dict + 1) * sizeof *slot);
        uint32_t next = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t k = col_is_null(c, i) ? c->n_dict : c->codes[i];
            if (slot[k] == UINT32_MAX) slot[k] = next++;
            ids[i] = slot[k];
        }
        rx_free(slot);
        *ids_out = ids;
        *n_groups = next;
        return 1;
    }
    if (c->type != TY_INT && c->type != TY_DATE && c->type != TY_BOOL) return 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        if (col_is_null(c, i)) continue;
        int64_t v = c->type == TY_INT ? col_i64(c)[i] : c->type == TY_DATE ? col_i32(c)[i] : col_u8(c)[i];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    uint64_t range = lo > hi ? 0 : (uint64_t)hi - (uint64_t)lo + 1;
    if (range > ((uint64_t)1 << 24) || range > 4 * (uint64_t)n + 1024) return 0;
    uint32_t *slot = rx_malloc((size_t)(range + 1) * sizeof *slot);  /* last entry: NULL */
    uint32_t *ids = rx_malloc((n ? n : 1) * sizeof *ids);
    if (!slot || !ids) {
        rx_free(slot), rx_free(ids);
        return -1;
    }
    memset(slot, 0xff, (size_t)(range + 1) * sizeof *slot);
    uint32_t next = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k;
        if (col_is_null(c, i)) k = (size_t)range;
        else {
            int64_t v = c->type == TY_INT ? col_i64(c)[i] : c->type == TY_DATE ? col_i32(c)[i] : col_u8(c)[i];
            k = (size_t)((uint64_t)v - (uint64_t)lo);
        }
        if (slot[k] == UINT32_MAX) slot[k] = next++;
        ids[i] = slot[k];
    }
    rx_free(slot);
    *ids_out = ids;
    *n_groups = next;
    return 1;
}

/* Whether c is an integer-like column (INT, TIMESTAMP, TIME, DATE) without NULLs whose values
 * never decrease, as a time series' times and their buckets come: its equal values are then
 * one run each. */
static bool nondecreasing(const Column *c, size_t n) {
    if (c->pruned || (c->type != TY_INT && c->type != TY_TIMESTAMP && c->type != TY_TIME && c->type != TY_DATE))
        return false;
    /* both loops stop at the first row out of order, which unsorted data soon has */
    if (c->type == TY_DATE) {
        const int32_t *v = col_i32(c);
        for (size_t i = 1; i < n; i++)
            if (v[i] < v[i - 1]) return false;
    } else {
        const int64_t *v = col_i64(c);
        for (size_t i = 1; i < n; i++)
            if (v[i] < v[i - 1]) return false;
    }
    if (c->valid)
        for (size_t w = 0; w < (n + 63) / 64; w++) {
            uint64_t want = w < n / 64 ? ~UINT64_C(0) : (UINT64_C(1) << (n % 64)) - 1;
            if ((c->valid[w] & want) != want) return false;
        }
    return true;
}

/* Group ids of (run, group of the other keys) pairs, numbered in order of first appearance as
 * the rows go by run after run: for each of the n_sub groups, the run it was last seen in and
 * its id there. */
typedef struct {
    uint32_t *seen, *id_in_run;
    uint32_t next;
} RunIds;

static int run_ids_init(RunIds *r, uint32_t n_sub) {
    r->seen = rx_malloc(((size_t)n_sub + 1) * sizeof *r->seen);
    r->id_in_run = rx_malloc(((size_t)n_sub + 1) * sizeof *r->id_in_run);
    r->next = 0;
    if (!r->seen || !r->id_in_run) {
        rx_free(r->seen), rx_free(r->id_in_run);
        return -1;
    }
    memset(r->seen, 0xff, ((size_t)n_sub + 1) * sizeof *r->seen);
    return 0;
}

/* The id of group g's rows in run `run` (runs numbered from 0 in row order). */
static inline uint32_t run_id(RunIds *r, uint32_t g, uint32_t run) {
    if (r->seen[g] != run) {
        r->seen[g] = run;
        r->id_in_run[g] = r->next++;
    }
    return r->id_in_run[g];
}

/* Frees r; returns the number of ids given. */
static uint32_t run_ids_done(RunIds *r) {
    rx_free(r->seen), rx_free(r->id_in_run);
    return r->next;
}

/* Whether rows i - 1 and i of a nondecreasing column differ (i >= 1). */
static inline bool run_ends(const Column *c, size_t i) {
    return c->type == TY_DATE ? col_i32(c)[i] != col_i32(c)[i - 1] : col_i64(c)[i] != col_i64(c)[i - 1];
}

/* keys_group when column cols[s] is nondecreasing (an optimisation; the same ids as the hash):
 * a tuple's rows then lie in one run of that column, so the other columns' group ids, each
 * stamped with the run it was last seen in, name the tuples without hashing. Returns -1 on
 * failure (err set). */
static int group_by_runs(const Column *const *cols, int n_cols, int s, size_t n, uint32_t **ids_out,
                         uint32_t *n_groups, RxError *err) {
    const Column *sc = cols[s];
    uint32_t *ids = NULL, n_sub = 1;
    if (n_cols == 1) {
        if (!(ids = rx_malloc((n ? n : 1) * sizeof *ids))) return oom(err);
        memset(ids, 0, (n ? n : 1) * sizeof *ids);
    } else {
        const Column *rest[8];
        for (int k = 0, j = 0; k < n_cols; k++)
            if (k != s) rest[j++] = cols[k];
        if (keys_group(rest, n_cols - 1, n, &ids, &n_sub, err) < 0) return -1;
    }
    RunIds r;
    if (run_ids_init(&r, n_sub) < 0) {
        rx_free(ids);
        return oom(err);
    }
    uint32_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && run_ends(sc, i)) run++;
        ids[i] = run_id(&r, ids[i], run);
    }
    *ids_out = ids;
    *n_groups = run_ids_done(&r);
    return 0;
}

int keys_group_buckets(const Column *const *cols, int n_cols, const Column *ts, int64_t width, int64_t origin,
                       size_t n, uint32_t **ids_out, uint32_t *n_groups, RxError *err) {
    if (n < 2 || n_cols > 8 || width <= 0 || ts->type != TY_TIMESTAMP || !nondecreasing(ts, n)) return 0;
    const int64_t *t = col_i64(ts);
    int64_t b, end;
    const char *why;
    /* every row's bucket is in range exactly when the first's and the last's are (monotone) */
    if (tm_bucket_ts((RxDuration){0, width}, t[n - 1], origin, &b, &why) < 0 ||
        tm_bucket_ts((RxDuration){0, width}, t[0], origin, &b, &why) < 0)
        return 0;
    uint32_t *ids = NULL, n_sub = 1;
    if (n_cols == 0) {
        if (!(ids = rx_malloc(n * sizeof *ids))) return oom(err);
        memset(ids, 0, n * sizeof *ids);
    } else if (keys_group(cols, n_cols, n, &ids, &n_sub, err) < 0) {
        return -1;
    }
    RunIds r;
    if (run_ids_init(&r, n_sub) < 0) {
        rx_free(ids);
        return oom(err);
    }
    /* a run is one bucket: the rows from b up to (not including) end, found without dividing
     * while the times stay below end */
    if (__builtin_add_overflow(b, width, &end)) end = INT64_MAX;
    uint32_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] >= end) {
            run++;
            if (tm_bucket_ts((RxDuration){0, width}, t[i], origin, &b, &why) < 0 ||
                __builtin_add_overflow(b, width, &end))
                end = INT64_MAX;   /* not reached: the range was checked above */
        }
        ids[i] = run_id(&r, ids[i], run);
    }
    *ids_out = ids;
    *n_groups = run_ids_done(&r);
    return 1;
}

/* keys_group's rows: the key columns and their codes (key-major, codes[k * n + i]). */
typedef struct {
    const Column *const *cols;
    int n_cols;
    size_t n;
    const int64_t *codes;
} GroupRows;

/* The hash of row i's key (NULL apart from every code). */
static uint64_t group_hash(const GroupRows *g, size_t i) {
    uint64_t x = 0x2545f4914f6cdd1dULL;
    for (int k = 0; k < g->n_cols; k++) {
        bool null = col_is_null(g->cols[k], i);
        x = rx_hash_combine(x, null ? 0x6e756c6cULL : (uint64_t)g->codes[(size_t)k * g->n + i]);
        x = rx_hash_combine(x, null);
    }
    return x;
}

/* hash_of for keys_group's map, whose payload is a group's first row: its hash recomputed
 * (only when the map grows). */
static uint64_t group_hash_of(const void *ctx, uint32_t row) {
    return group_hash(ctx, row);
}

int keys_group(const Column *const *cols, int n_cols, size_t n, uint32_t **ids_out, uint32_t *n_groups,
               RxError *err) {
    /* a sorted column among at most 8 (a time series' time or bucket): runs instead of a hash */
    for (int k = 0; k < n_cols && n_cols <= 8 && n > 1; k++)
        if (nondecreasing(cols[k], n)) return group_by_runs(cols, n_cols, k, n, ids_out, n_groups, err);
    if (n_cols == 1) {
        int fast = group_small_range(cols[0], n, ids_out, n_groups);
        if (fast < 0) return oom(err);
        if (fast > 0) return 0;
    }
    uint32_t *ids = rx_malloc((n ? n : 1) * sizeof *ids);
    int64_t *codes = rx_malloc((n ? n : 1) * (size_t)(n_cols ? n_cols : 1) * sizeof *codes);
    RxHMap map;   /* hash of a key -> the first row of its group */
    bool map_ok = hmap_init(&map, key_map_start(n)) == 0;
    if (!ids || !codes || !map_ok) {
        rx_free(ids), rx_free(codes), hmap_free(&map);
        return oom(err);
    }
    for (int k = 0; k < n_cols; k++) {
        const Column *c = cols[k];
        int64_t *code = codes + (size_t)k * n;
        if (c->type == TY_TEXT && c->codes) {
            /* a dictionary-coded column: its codes name its distinct strings already */
            for (size_t i = 0; i < n; i++) code[i] = c->codes[i];
        } else if (c->type == TY_TEXT) {
            Dict d;
            bool failed = dict_init(&d, 1024) < 0;
            for (size_t i = 0; i < n && !failed; i++)
                code[i] = col_is_null(c, i) ? 0 : (int64_t)dict_id(&d, col_str(c)[i], true, &failed);
            dict_free(&d);
            if (failed) {
                rx_free(ids), rx_free(codes), hmap_free(&map);
                return oom(err);
            }
        } else {
            KeySet ks;
            if (keys_encode_ordered(&c, 1, &ks, err) < 0) {
                rx_free(ids), rx_free(codes), hmap_free(&map);
                return -1;
            }
            memcpy(code, ks.keys[0], n * sizeof *code);
            keys_free(&ks);
        }
    }
    const GroupRows g = {cols, n_cols, n, codes};
    uint32_t next = 0;
    for (size_t i = 0; i < n; i++) {
        if (key_map_all_rows(i, next) && hmap_reserve(&map, n, group_hash_of, &g) < 0) {
            rx_free(ids), rx_free(codes), hmap_free(&map);
            return oom(err);
        }
        uint64_t x = group_hash(&g, i);
        RxHProbe p = hmap_probe(&map, x);
        uint32_t o;
        bool found = false;
        while (!found && hmap_next(&map, &p, &o)) {
            found = true;   /* the codes decide: no hash array, one fresh array less */
            for (int k = 0; k < n_cols && found; k++) {
                bool a = col_is_null(cols[k], o), b = col_is_null(cols[k], i);
                found = a == b && (a || codes[(size_t)k * n + o] == codes[(size_t)k * n + i]);
            }
        }
        if (found) {
            ids[i] = ids[o];
            continue;
        }
        ids[i] = next++;
        if (hmap_insert(&map, &p, (uint32_t)i, group_hash_of, &g) < 0) {
            rx_free(ids), rx_free(codes), hmap_free(&map);
            return oom(err);
        }
    }
    rx_free(codes);
    hmap_free(&map);
    *ids_out = ids;
    *n_groups = next;
    return 0;
}

int64_t keys_distance_bound(RxType l, RxType r, RxDuration bound) {
    if (l == TY_DATE && r == TY_DATE) return bound.us / US_PER_DAY;
    return bound.us;
}
