/*
 * test_keys.c - the join-key encoder (src/exec/keys.c), on the properties every equality rule
 * keeps: keys_encode_ordered preserves order and equality within and across columns for INT,
 * TIMESTAMP, DATE beside TIMESTAMP, and TEXT (whose keys are ranks); INT and TIMESTAMP keys are
 * the values themselves (the round trip); NULL rows are reported by keys_validity; and
 * keys_partition gives equal key tuples equal ids on both sides and unmatched left rows
 * ROW_NONE. Random inputs from a fixed seed. keys_group that runs out of memory part-way
 * (under a memory limit) frees everything it took, its string dictionary included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exec/keys.h"
#include "types/temporal.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int sign64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }
static int sign_cmp(int c) { return c < 0 ? -1 : c > 0; }

static Column *int_col(RxType t, const int64_t *v, size_t n) {
    Column *c = col_new(t, n);
    if (c) memcpy(c->data, v, n * sizeof *v);
    return c;
}

static Column *text_col(const char *const *v, size_t n) {
    ColBuilder b;
    colb_init(&b, TY_TEXT, n);
    for (size_t i = 0; i < n; i++) {
        if (!v[i]) {
            colb_push_null(&b);
            continue;
        }
        Value x = {.type = TY_TEXT};
        x.v.s.ptr = v[i];
        x.v.s.len = strlen(v[i]);
        colb_push(&b, &x);
    }
    return colb_finish(&b);
}

/* Keys of two INT (or TIMESTAMP) columns: the values themselves, order kept across columns. */
static void test_ints(RxType t) {
    enum { N = 300 };
    int64_t a[N], b[N];
    for (size_t i = 0; i < N; i++) {
        a[i] = (int64_t)(rnd() % 2001) - 1000;
        b[i] = (int64_t)(rnd() % 2001) - 1000;
    }
    a[0] = INT64_MIN;
    b[0] = INT64_MAX;
    if (t == TY_TIMESTAMP) a[0] = -62135596800000000, b[0] = 253402300799999999;
    Column *ca = int_col(t, a, N), *cb = int_col(t, b, N);
    const Column *cols[2] = {ca, cb};
    KeySet ks;
    RxError err;
    rx_error_clear(&err);
    CHECK(keys_encode_ordered(cols, 2, &ks, &err) == 0);
    CHECK(ks.n == 2);
    int bad = 0;
    for (size_t i = 0; i < N; i++) {
        bad += ks.keys[0][i] != a[i] || ks.keys[1][i] != b[i];
        for (size_t j = 0; j < N; j += 7) {
            bad += sign64(ks.keys[0][i], ks.keys[1][j]) != sign64(a[i], b[j]);
            bad += sign64(ks.keys[0][i], ks.keys[0][j]) != sign64(a[i], a[j]);
        }
    }
    CHECK(bad == 0);
    keys_free(&ks);
    col_release(ca);
    col_release(cb);
}

/* A DATE beside a TIMESTAMP: the date's key is its midnight's, so order and equality hold
 * across the two. */
static void test_date_timestamp(void) {
    enum { N = 200 };
    int64_t ts[N];
    Column *cd = col_new(TY_DATE, N);
    for (size_t i = 0; i < N; i++) {
        int32_t d = (int32_t)(rnd() % 4000) - 2000;
        col_i32(cd)[i] = d;
        /* half the timestamps fall on a midnight of a date in the same range */
        ts[i] = (int64_t)((int32_t)(rnd() % 4000) - 2000) * US_PER_DAY +
                (rnd() & 1 ? (int64_t)(rnd() % US_PER_DAY) : 0);
    }
    ts[1] = (int64_t)col_i32(cd)[1] * US_PER_DAY; /* one equal pair at least */
    Column *ct = int_col(TY_TIMESTAMP, ts, N);
    const Column *cols[2] = {cd, ct};
    KeySet ks;
    RxError err;
    rx_error_clear(&err);
    CHECK(keys_encode_ordered(cols, 2, &ks, &err) == 0);
    int bad = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            int64_t day_us = (int64_t)col_i32(cd)[i] * US_PER_DAY;
            bad += sign64(ks.keys[0][i], ks.keys[1][j]) != sign64(day_us, ts[j]);
        }
    CHECK(bad == 0);
    CHECK(ks.keys[0][1] == ks.keys[1][1]);
    keys_free(&ks);
    col_release(cd);
    col_release(ct);
}

/* TEXT: keys are ranks over both columns' strings, in byte order; equal strings, equal keys. */
static void test_text(void) {
    enum { N = 120 };
    static char buf[2][N][8];
    const char *va[N], *vb[N];
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < N; i++) {
            size_t len = rnd() % 4;
            for (size_t k = 0; k < len; k++) buf[s][i][k] = (char)('a' + rnd() % 3);
            buf[s][i][len] = 0;
            (s ? vb : va)[i] = buf[s][i];
        }
    va[5] = "\xc3\xa9t\xc3\xa9"; /* UTF-8 bytes order after ASCII */
    vb[6] = "";
    Column *ca = text_col(va, N), *cb = text_col(vb, N);
    CHECK(ca && cb);
    if (!ca || !cb) return;
    const Column *cols[2] = {ca, cb};
    KeySet ks;
    RxError err;
    rx_error_clear(&err);
    CHECK(keys_encode_ordered(cols, 2, &ks, &err) == 0);
    int bad = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            RxStr x = {va[i], strlen(va[i])}, y = {vb[j], strlen(vb[j])}, z = {va[j], strlen(va[j])};
            bad += sign64(ks.keys[0][i], ks.keys[1][j]) != sign_cmp(rx_str_cmp(&x, &y));
            bad += sign64(ks.keys[0][i], ks.keys[0][j]) != sign_cmp(rx_str_cmp(&x, &z));
        }
    CHECK(bad == 0);
    keys_free(&ks);
    col_release(ca);
    col_release(cb);
}

/* keys_validity: bits clear exactly where some column is NULL. */
static void test_validity(void) {
    const char *v[5] = {"a", NULL, "b", "c", NULL};
    int64_t w[5] = {1, 2, 3, 4, 5};
    Column *ct = text_col(v, 5), *ci = int_col(TY_INT, w, 5);
    uint64_t *valid = col_valid(ci);
    if (valid) valid[0] &= ~(UINT64_C(1) << 3); /* row 3 NULL in the INT column */
    const Column *cols[2] = {ct, ci};
    uint64_t *bits = NULL;
    CHECK(keys_validity(cols, 2, 5, &bits) == 0);
    CHECK(bits != NULL);
    if (bits) CHECK((bits[0] & 0x1f) == 0x05); /* rows 0 and 2 */
    free(bits);
    col_release(ct);
    col_release(ci);
}

/* keys_partition: equal tuples (INT, TEXT) get equal ids on both sides, different tuples
 * different ids; a left tuple absent on the right gets ROW_NONE. */
static void test_partition(void) {
    enum { NL = 60, NR = 40 };
    int64_t li[NL], ri[NR];
    const char *ls[NL], *rs[NR];
    static const char *const words[] = {"x", "y", "zz"};
    for (size_t i = 0; i < NL; i++) li[i] = (int64_t)(rnd() % 4), ls[i] = words[rnd() % 3];
    for (size_t i = 0; i < NR; i++) ri[i] = (int64_t)(rnd() % 3), rs[i] = words[rnd() % 3];
    Column *cli = int_col(TY_INT, li, NL), *cls = text_col(ls, NL);
    Column *cri = int_col(TY_INT, ri, NR), *crs = text_col(rs, NR);
    const Column *lk[2] = {cli, cls}, *rk[2] = {cri, crs};
    KeyParts kp;
    memset(&kp, 0, sizeof kp);
    RxError err;
    rx_error_clear(&err);
    CHECK(keys_partition(lk, NL, rk, NR, 2, &kp, &err) == 0);
    int bad = 0;
    for (size_t i = 0; i < NL; i++) {
        bool found = false;
        for (size_t j = 0; j < NR; j++) {
            bool same = li[i] == ri[j] && strcmp(ls[i], rs[j]) == 0;
            found |= same;
            bad += same != (kp.l[i] == kp.r[j]);
        }
        bad += found != (kp.l[i] != ROW_NONE);
        if (found) bad += kp.l[i] >= kp.n_parts;
    }
    for (size_t a = 0; a < NR; a++)
        for (size_t b = 0; b < NR; b++)
            bad += (ri[a] == ri[b] && strcmp(rs[a], rs[b]) == 0) != (kp.r[a] == kp.r[b]);
    CHECK(bad == 0);
    keys_parts_free(&kp);
    col_release(cli);
    col_release(cls);
    col_release(cri);
    col_release(crs);
}

/* The key of row i in shape sh of the growth tests (keys_partition's right rows, keys_group's
 * rows), as a number: 0, a few keys (5,000); 1, many from the first rows on (200,000 values);
 * 2, a few (3,000) in the first 80,000 rows, then every other row a new key and the others one
 * seen before. */
static uint32_t growth_key(int sh, size_t i) {
    if (sh == 0) return (uint32_t)(rnd() % 5000);
    if (sh == 1) return (uint32_t)(rnd() % 200000);
    if (i < 80000) return (uint32_t)(rnd() % 3000);
    if (i % 2 == 0) return (uint32_t)(3000 + (i - 80000) / 2);
    return (uint32_t)(rnd() % (3000 + (i - 80000) / 2));
}

/* keys_partition over two INT keys and many right rows, where its map of right keys starts
 * small: keys that stay few, keys that are many from the first rows on, and keys few at first
 * and many later (the map grows), a NULL in some keys; left rows of present, absent and NULL
 * keys. The ids must be the right keys' order of first appearance, ROW_NONE for a NULL key or
 * (on the left) a key the right does not have. */
static void test_partition_growth(void) {
    enum { NR = 300000, NL = 100000, ABSENT = 50000000 };
    int64_t *ra = malloc(NR * sizeof *ra), *rb = malloc(NR * sizeof *rb);
    int64_t *la = malloc(NL * sizeof *la), *lb = malloc(NL * sizeof *lb);
    uint32_t *rg = malloc(NR * sizeof *rg), *lg = malloc(NL * sizeof *lg);
    uint32_t *id_of = malloc((NR + 1) * sizeof *id_of);
    CHECK(ra && rb && la && lb && rg && lg && id_of);
    if (!ra || !rb || !la || !lb || !rg || !lg || !id_of) return;
    for (int sh = 0; sh < 3; sh++) {
        uint32_t top = 0;
        for (size_t i = 0; i < NR; i++) {
            uint32_t g = growth_key(sh, i);
            rg[i] = g;
            if (g > top) top = g;
        }
        for (size_t i = 0; i < NL; i++) lg[i] = rnd() % 8 == 0 ? ABSENT + (uint32_t)(rnd() % 1000) : (uint32_t)(rnd() % (top + 1));
        for (size_t i = 0; i < NR; i++) ra[i] = (int64_t)(rg[i] % 997) * -31, rb[i] = (int64_t)(rg[i] / 997);
        for (size_t i = 0; i < NL; i++) la[i] = (int64_t)(lg[i] % 997) * -31, lb[i] = (int64_t)(lg[i] / 997);
        Column *cra = int_col(TY_INT, ra, NR), *crb = int_col(TY_INT, rb, NR);
        Column *cla = int_col(TY_INT, la, NL), *clb = int_col(TY_INT, lb, NL);
        CHECK(cra && crb && cla && clb);
        if (!cra || !crb || !cla || !clb) break;
        for (size_t i = 0; i < NR; i++)
            if (rg[i] % 11 == 5) CHECK(col_set_null(crb, i) == 0);
        for (size_t i = 0; i < NL; i++)
            if (lg[i] % 11 == 5) CHECK(col_set_null(clb, i) == 0);
        /* the expected ids: right keys in order of first appearance, NULL keys none */
        for (size_t g = 0; g <= NR; g++) id_of[g] = ROW_NONE;
        uint32_t next = 0;
        for (size_t i = 0; i < NR; i++)
            if (rg[i] % 11 != 5 && id_of[rg[i]] == ROW_NONE) id_of[rg[i]] = next++;
        const Column *lk[2] = {cla, clb}, *rk[2] = {cra, crb};
        KeyParts kp;
        RxError err;
        rx_error_clear(&err);
        int rc = keys_partition(lk, NL, rk, NR, 2, &kp, &err);
        CHECK(rc == 0);
        if (rc == 0) {
            size_t bad = 0;
            for (size_t i = 0; i < NR; i++) bad += kp.r[i] != (rg[i] % 11 == 5 ? ROW_NONE : id_of[rg[i]]);
            for (size_t i = 0; i < NL; i++) {
                uint32_t want = lg[i] >= ABSENT || lg[i] % 11 == 5 ? ROW_NONE : id_of[lg[i]];
                bad += kp.l[i] != want;
            }
            if (bad || kp.n_parts != (next ? next : 1))
                fprintf(stderr, "partition shape %d: %zu rows with other ids, %u parts for %u\n", sh, bad,
                        kp.n_parts, next);
            CHECK(bad == 0 && kp.n_parts == (next ? next : 1));
            keys_parts_free(&kp);
        }
        col_release(cra), col_release(crb), col_release(cla), col_release(clb);
    }
    free(ra), free(rb), free(la), free(lb), free(rg), free(lg), free(id_of);
}

/* keys_group over tuples that include a nondecreasing column (a time series' bucket), alone or
 * beside TEXT and INT columns with NULLs, in every position, and the same with that column made
 * unsorted or NULL in one row (the hashing path): the ids must be the oracle's, dense and in
 * order of first appearance, NULL equal to NULL. */
static bool tuple_eq(const Column *const *cols, int n_cols, size_t i, size_t j) {
    for (int k = 0; k < n_cols; k++) {
        const Column *c = cols[k];
        bool a = col_is_null(c, i), b = col_is_null(c, j);
        if (a != b) return false;
        if (a) continue;
        if (c->type == TY_TEXT) {
            RxStr x = col_str(c)[i], y = col_str(c)[j];
            if (x.len != y.len || memcmp(x.ptr, y.ptr, x.len) != 0) return false;
        } else if (c->type == TY_DATE) {
            if (col_i32(c)[i] != col_i32(c)[j]) return false;
        } else if (col_i64(c)[i] != col_i64(c)[j]) {
            return false;
        }
    }
    return true;
}

static void test_group_sorted_runs(void) {
    enum { MAXN = 200 };
    static const char *const names[] = {"a", "b", "c", NULL};
    int bad = 0, cases = 0;
    for (int round = 0; round < 400; round++) {
        size_t n = (size_t)(rnd() % MAXN);
        int64_t t[MAXN], h[MAXN];
        const char *g[MAXN];
        int64_t cur = (int64_t)(rnd() % 5) - 2;
        for (size_t i = 0; i < n; i++) {
            if (rnd() % 3 == 0) cur += (int64_t)(rnd() % 3);
            t[i] = cur;
            g[i] = names[rnd() % 4];
            h[i] = (int64_t)(rnd() % 3);
        }
        int variant = (int)(rnd() % 4);   /* 0, 1: sorted; 2: one row out of order; 3: one NULL */
        if (variant == 2 && n > 2) t[n / 2] = t[n - 1] + 1;
        bool is_date = rnd() % 4 == 0;
        Column *ct;
        if (is_date) {
            ct = col_new(TY_DATE, n);
            for (size_t i = 0; ct && i < n; i++) col_i32(ct)[i] = (int32_t)t[i];
        } else {
            ct = int_col(TY_TIMESTAMP, t, n);
        }
        Column *cg = text_col(g, n), *ch = int_col(TY_INT, h, n);
        CHECK(ct && cg && ch);
        if (!ct || !cg || !ch) return;
        for (size_t i = 0; i < n; i++)
            if (rnd() % 7 == 0) CHECK(col_set_null(ch, i) == 0);
        if (variant == 3 && n > 0) CHECK(col_set_null(ct, rnd() % n) == 0);
        const Column *shapes[5][3] = {{ct}, {cg, ct}, {ct, cg}, {cg, ct, ch}, {ch, cg, ct}};
        const int widths[5] = {1, 2, 2, 3, 3};
        for (int sh = 0; sh < 5; sh++) {
            RxError err;
            rx_error_clear(&err);
            uint32_t *ids = NULL, ng = 0;
            if (keys_group(shapes[sh], widths[sh], n, &ids, &ng, &err) < 0) {
                bad++;
                continue;
            }
            cases++;
            uint32_t want[MAXN], next = 0;
            for (size_t i = 0; i < n; i++) {
                size_t j = 0;
                while (j < i && !tuple_eq(shapes[sh], widths[sh], i, j)) j++;
                want[i] = j < i ? want[j] : next++;
                bad += ids[i] != want[i];
            }
            bad += n > 0 && ng != next;
            rx_free(ids);
        }
        col_release(ct);
        col_release(cg);
        col_release(ch);
    }
    CHECK(bad == 0);
    CHECK(cases == 400 * 5);
}

/* keys_group_buckets against keys_group over the same keys with the buckets materialized (the
 * general path γ takes otherwise): random times with ties in runs that cross bucket edges,
 * widths from 1 to 7 units, origins on and off the data, no other key or TEXT and INT keys with
 * NULLs; where the times are unsorted, have a NULL, or are fewer than two it must decline (0),
 * and everywhere else apply (1) with exactly the general path's ids and group count. */
static void test_group_buckets(void) {
    enum { MAXN = 300 };
    static const char *const names[] = {"a", "b", "c", NULL};
    int bad = 0, applied = 0, declined = 0;
    for (int round = 0; round < 600; round++) {
        size_t n = (size_t)(rnd() % MAXN);
        if (round % 50 == 0) n = round % 100 == 0 ? 0 : 1;
        int64_t t[MAXN], h[MAXN], bk[MAXN];
        const char *g[MAXN];
        int64_t width = 1 + (int64_t)(rnd() % 7), origin = (int64_t)(rnd() % 11) - 5;
        int64_t cur = (int64_t)(rnd() % 40) - 20;
        for (size_t i = 0; i < n; i++) {
            if (rnd() % 2 == 0) cur += (int64_t)(rnd() % 4);
            t[i] = cur;
            g[i] = names[rnd() % (round % 7 == 0 ? 1 : 4)];   /* some rounds: one other group */
            h[i] = (int64_t)(rnd() % 3);
        }
        int variant = (int)(rnd() % 5);   /* 0-2: sorted; 3: one row out of order; 4: one NULL */
        if (variant == 3 && n > 2) t[n / 2] = t[n - 1] + 1;
        bool unsorted = false;
        for (size_t i = 1; i < n; i++) unsorted |= t[i] < t[i - 1];
        const char *why;
        for (size_t i = 0; i < n; i++)
            if (tm_bucket_ts((RxDuration){0, width}, t[i], origin, &bk[i], &why) < 0) bad++;
        Column *ct = int_col(TY_TIMESTAMP, t, n), *cb = int_col(TY_TIMESTAMP, bk, n);
        Column *cg = text_col(g, n), *ch = int_col(TY_INT, h, n);
        CHECK(ct && cb && cg && ch);
        if (!ct || !cb || !cg || !ch) return;
        for (size_t i = 0; i < n; i++)
            if (rnd() % 7 == 0) CHECK(col_set_null(ch, i) == 0);
        bool has_null = variant == 4 && n > 0;
        if (has_null) {
            size_t at = rnd() % n;
            CHECK(col_set_null(ct, at) == 0);
            CHECK(col_set_null(cb, at) == 0);
        }
        const Column *rest[3][2] = {{NULL}, {cg}, {ch, cg}};
        const Column *full[3][3] = {{cb}, {cg, cb}, {ch, cg, cb}};
        for (int sh = 0; sh < 3; sh++) {
            RxError err;
            rx_error_clear(&err);
            uint32_t *ids = NULL, ng = 0, *want = NULL, wng = 0;
            int rc = keys_group_buckets(rest[sh], sh, ct, width, origin, n, &ids, &ng, &err);
            if (rc < 0) {
                bad++;
                continue;
            }
            if (rc == 0) {
                declined++;
                bad += !(n < 2 || unsorted || has_null);
                continue;
            }
            applied++;
            bad += n < 2 || unsorted || has_null;
            if (keys_group(full[sh], sh + 1, n, &want, &wng, &err) < 0) {
                bad++;
                rx_free(ids);
                continue;
            }
            bad += ng != wng;
            for (size_t i = 0; i < n; i++) bad += ids[i] != want[i];
            /* and the brute-force oracle: ids in order of first appearance */
            uint32_t next = 0;
            for (size_t i = 0; i < n; i++) {
                size_t j = 0;
                while (j < i && !tuple_eq(full[sh], sh + 1, i, j)) j++;
                bad += ids[i] != (j < i ? ids[j] : next++);
            }
            bad += ng != next;
            rx_free(ids), rx_free(want);
        }
        col_release(ct), col_release(cb), col_release(cg), col_release(ch);
    }
    CHECK(bad == 0);
    CHECK(applied > 600);
    CHECK(declined > 200);
}

/* keys_group's hashing path over many rows, where its map starts small: groups that stay few,
 * groups that are many from the first rows on (the map sized for every row at once), and groups
 * that are few at first and many later (the map grows, rehashing the groups' first rows), with
 * NULLs, against ids computed from the group each row was made from (two INT columns and a
 * third that is NULL in every row of some groups). */
static void test_group_growth(void) {
    enum { N = 300000, SHAPES = 3 };
    int64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *z = malloc(N * sizeof *z);
    uint32_t *grp = malloc(N * sizeof *grp), *want = malloc(N * sizeof *want);
    uint32_t *first_id = malloc(N * sizeof *first_id);
    CHECK(a && b && z && grp && want && first_id);
    if (!a || !b || !z || !grp || !want || !first_id) return;
    for (int sh = 0; sh < SHAPES; sh++) {
        for (size_t i = 0; i < N; i++) {
            uint32_t g = growth_key(sh, i);
            grp[i] = g;
            a[i] = (int64_t)(g % 1000) * 1000003;
            b[i] = (int64_t)(g / 1000) - 77;
            z[i] = 5;
        }
        Column *ca = int_col(TY_INT, a, N), *cb = int_col(TY_INT, b, N), *cz = int_col(TY_INT, z, N);
        CHECK(ca && cb && cz);
        if (!ca || !cb || !cz) break;
        for (size_t i = 0; i < N; i++)
            if (grp[i] % 7 == 3) CHECK(col_set_null(cz, i) == 0);
        uint32_t next = 0;
        for (size_t i = 0; i < N; i++) first_id[i] = UINT32_MAX;
        for (size_t i = 0; i < N; i++) {
            if (first_id[grp[i]] == UINT32_MAX) first_id[grp[i]] = next++;
            want[i] = first_id[grp[i]];
        }
        const Column *cols[3] = {ca, cb, cz};
        RxError err;
        rx_error_clear(&err);
        uint32_t *ids = NULL, ng = 0;
        int rc = keys_group(cols, 3, N, &ids, &ng, &err);
        CHECK(rc == 0);
        if (rc == 0) {
            size_t bad = 0;
            for (size_t i = 0; i < N; i++) bad += ids[i] != want[i];
            if (bad || ng != next)
                fprintf(stderr, "shape %d: %zu rows with other ids, %u groups for %u\n", sh, bad, ng, next);
            CHECK(bad == 0 && ng == next);
            rx_free(ids);
        }
        col_release(ca), col_release(cb), col_release(cz);
    }
    free(a), free(b), free(z), free(grp), free(want), free(first_id);
}

/* keys_group over a TEXT column under memory limits from none to enough: wherever an
 * allocation fails (the group arrays, or the string dictionary part-way through interning), it
 * fails with RX_ENOMEM and gives back every byte; it leaked the dictionary before. */
static void test_group_out_of_memory(void) {
    enum { N = 100000 };
    static char buf[N][12];
    static const char *v[N];
    for (size_t i = 0; i < N; i++) {
        snprintf(buf[i], sizeof buf[i], "g%zu", (i * 7919) % N);
        v[i] = buf[i];
    }
    Column *c = text_col(v, N);
    CHECK(c != NULL);
    if (!c) return;
    const Column *cols[1] = {c};
    size_t before = rx_memory_used();
    int balanced = 1, failed = 0, passed = 0;
    for (size_t limit = 256 << 10; limit <= (16u << 20); limit += 256 << 10) {
        RxError err;
        memset(&err, 0, sizeof err);
        uint32_t *ids = NULL, ng = 0;
        rx_set_memory_limit(before + limit);
        int rc = keys_group(cols, 1, N, &ids, &ng, &err);
        rx_set_memory_limit(0);
        if (rc < 0) {
            failed++;
            balanced &= err.code == RX_ENOMEM && rx_memory_used() == before;
        } else {
            passed++;
            balanced &= ng == N;
            rx_free(ids);
            balanced &= rx_memory_used() == before;
        }
    }
    rx_memory_limit_hit(true);
    CHECK(balanced);
    CHECK(failed > 4);   /* some limits stop it inside the dictionary */
    CHECK(passed > 0);
    col_release(c);
}

int main(void) {
    test_ints(TY_INT);
    test_ints(TY_TIMESTAMP);
    test_date_timestamp();
    test_text();
    test_validity();
    test_partition();
    test_group_out_of_memory();
    test_group_growth();
    test_partition_growth();
    test_group_sorted_runs();
    test_group_buckets();
    return check_report("keys");
}
