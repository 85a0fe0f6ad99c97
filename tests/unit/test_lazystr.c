/*
 * test_lazystr.c - dictionary-coded TEXT columns without per-row slices (column.h: lazy
 * columns). A randomized differential test: the same random rows as plain text columns
 * (registered with offsets), as dictionary-coded host columns (registered with codes: lazy),
 * as a CSV file (whose coded columns the reader leaves lazy), and coded on one side of a join
 * only, go through σ, π, joins, γ, AS-OF, set operations, ordering and every output format;
 * every output must be byte for byte the plain one's. Then: two threads asking for the slices
 * of one lazy column at once, and a memory limit too low for the slices, which must be an
 * out-of-memory error and no crash.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "check.h"
#include "relix.h"
#include "types/column.h"

static uint64_t rng_state = 1;
static uint32_t rnd(void) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}
static uint32_t rnd_below(uint32_t n) { return rnd() % n; }

/* Text values: short and long, empty, with quotes, commas, tabs, newlines and non-ASCII, so
 * that every writer's escaping is exercised. */
static const char *const WORDS[] = {"AB", "CD", "EFG", "", "x", "a,b", "q\"uote", "tab\there",
                                    "line\nbreak", "caf\xc3\xa9", "a much longer value past sixteen bytes",
                                    "zz", "  padded ", "ABCDEFGHIJKLMNOP", "x%y", "AAPL", "MSFT", "0123"};
#define N_WORDS ((int)(sizeof WORDS / sizeof WORDS[0]))

/* One text column of n rows: word index per row (-1 NULL). */
typedef struct {
    int *w;
} TextCol;

/* Host buffers of one text column in both layouts; kept until the session closes. */
typedef struct {
    char *bytes;        /* plain: the rows' bytes */
    int64_t *off;       /* plain: n + 1 offsets */
    char *dbytes;       /* coded: the dictionary's bytes */
    int64_t *doff;      /* coded: n_dict + 1 offsets */
    int32_t *codes;     /* coded: n codes, -1 NULL */
    uint8_t *valid;     /* both: validity, bit set = valid */
    size_t n_dict;
} HostText;

/* Builds both layouts of column t. The coded dictionary lists the words in a random order,
 * some twice (a row picks either copy) and some that no row has. */
static void host_text(const TextCol *t, size_t n, HostText *h) {
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) bytes += t->w[i] < 0 ? 0 : strlen(WORDS[t->w[i]]);
    h->bytes = malloc(bytes + 1);
    h->off = malloc((n + 1) * sizeof *h->off);
    h->valid = calloc((n + 7) / 8 + 1, 1);
    h->codes = malloc(n * sizeof *h->codes);
    int order[2 * N_WORDS];
    int k = 0;
    for (int i = 0; i < N_WORDS; i++) order[k++] = i;
    for (int i = 0; i < N_WORDS / 2; i++) order[k++] = (int)rnd_below(N_WORDS);   /* repeats */
    for (int i = k - 1; i > 0; i--) {
        int j = (int)rnd_below((uint32_t)i + 1), x = order[i];
        order[i] = order[j], order[j] = x;
    }
    h->n_dict = (size_t)k;
    size_t dbytes = 0;
    for (int i = 0; i < k; i++) dbytes += strlen(WORDS[order[i]]);
    h->dbytes = malloc(dbytes + 1);
    h->doff = malloc(((size_t)k + 1) * sizeof *h->doff);
    size_t at = 0;
    for (int i = 0; i < k; i++) {
        h->doff[i] = (int64_t)at;
        memcpy(h->dbytes + at, WORDS[order[i]], strlen(WORDS[order[i]]));
        at += strlen(WORDS[order[i]]);
    }
    h->doff[k] = (int64_t)at;
    at = 0;
    for (size_t i = 0; i < n; i++) {
        h->off[i] = (int64_t)at;
        int w = t->w[i];
        if (w < 0) {
            h->codes[i] = -1;
            continue;
        }
        h->valid[i / 8] |= (uint8_t)(1u << (i % 8));
        memcpy(h->bytes + at, WORDS[w], strlen(WORDS[w]));
        at += strlen(WORDS[w]);
        int copies[2 * N_WORDS], m = 0;
        for (int j = 0; j < k; j++)
            if (order[j] == w) copies[m++] = j;
        h->codes[i] = m ? copies[rnd_below((uint32_t)m)] : -1;
    }
    h->off[n] = (int64_t)at;
}

static void host_text_free(HostText *h) {
    free(h->bytes), free(h->off), free(h->dbytes), free(h->doff), free(h->codes), free(h->valid);
}

/* The rows of one relation: id, sym (few values), ts, qty, note. */
typedef struct {
    size_t n;
    int64_t *id, *ts, *qty;
    TextCol sym, note;
    HostText hs, hn;
} Rel;

static void rel_make(Rel *r, size_t n, int n_syms, int null_pct) {
    r->n = n;
    r->id = malloc(n * sizeof *r->id);
    r->ts = malloc(n * sizeof *r->ts);
    r->qty = malloc(n * sizeof *r->qty);
    r->sym.w = malloc(n * sizeof *r->sym.w);
    r->note.w = malloc(n * sizeof *r->note.w);
    for (size_t i = 0; i < n; i++) {
        r->id[i] = (int64_t)i;
        r->ts[i] = (int64_t)rnd_below(100000);
        r->qty[i] = (int64_t)rnd_below(50);
        r->sym.w[i] = (int)rnd_below(100) < null_pct ? -1 : (int)rnd_below((uint32_t)n_syms);
        r->note.w[i] = (int)rnd_below(100) < null_pct ? -1 : (int)rnd_below(N_WORDS);
    }
    host_text(&r->sym, n, &r->hs);
    host_text(&r->note, n, &r->hn);
}

static void rel_free(Rel *r) {
    free(r->id), free(r->ts), free(r->qty), free(r->sym.w), free(r->note.w);
    host_text_free(&r->hs);
    host_text_free(&r->hn);
}

static int reg(RxSession *s, const char *name, const Rel *r, bool coded) {
    RxColumnIn c[5] = {
        {.name = "id", .type = RX_TYPE_INT, .data = r->id},
        {.name = "sym", .type = RX_TYPE_TEXT, .valid = r->hs.valid},
        {.name = "ts", .type = RX_TYPE_INT, .data = r->ts},
        {.name = "qty", .type = RX_TYPE_INT, .data = r->qty},
        {.name = "note", .type = RX_TYPE_TEXT, .valid = r->hn.valid},
    };
    const HostText *h[2] = {&r->hs, &r->hn};
    for (int k = 0; k < 2; k++) {
        RxColumnIn *x = &c[k ? 4 : 1];
        if (coded) {
            x->data = h[k]->dbytes, x->offsets = h[k]->doff, x->codes = h[k]->codes, x->n_dict = h[k]->n_dict;
        } else {
            x->data = h[k]->bytes, x->offsets = h[k]->off;
        }
    }
    int rc = rx_register_columns(s, name, 5, c, r->n);
    if (rc) fprintf(stderr, "register %s: %s\n", name, rx_errmsg(s));
    return rc;
}

static void put_csv_text(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* r as a CSV file: NULL an empty field, every text quoted (so "" is the empty string). */
static void rel_csv(const Rel *r, const char *path) {
    FILE *f = fopen(path, "w");
    fputs("id,sym,ts,qty,note\n", f);
    for (size_t i = 0; i < r->n; i++) {
        fprintf(f, "%lld,", (long long)r->id[i]);
        if (r->sym.w[i] >= 0) put_csv_text(f, WORDS[r->sym.w[i]]);
        fprintf(f, ",%lld,%lld,", (long long)r->ts[i], (long long)r->qty[i]);
        if (r->note.w[i] >= 0) put_csv_text(f, WORDS[r->note.w[i]]);
        fputc('\n', f);
    }
    fclose(f);
}

static int append(void *ud, const char *p, size_t n) {
    sb_append((StrBuf *)ud, p, n);
    return 0;
}

/* Every result of a script in every format, one after another. */
static int collect(void *ud, const RxResult *r) {
    StrBuf *b = ud;
    static const RxFormat fmts[] = {RX_FORMAT_TABLE, RX_FORMAT_CSV, RX_FORMAT_TSV, RX_FORMAT_JSON,
                                    RX_FORMAT_MARKDOWN, RX_FORMAT_JSONL};
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        sb_printf(b, "== format %d\n", (int)fmts[f]);
        if (rx_result_write_opts(r, fmts[f], SIZE_MAX, NULL, 0, append, b) != 0) sb_puts(b, "(write failed)\n");
    }
    /* the C export of text columns */
    for (int j = 0; j < rx_result_cols(r); j++) {
        RxColumnOut c;
        if (rx_result_column(r, j, &c) != 0 || c.type != RX_TYPE_TEXT) continue;
        sb_printf(b, "== column %d\n", j);
        for (size_t i = 0; i < c.n; i++) {
            if (c.valid && !(c.valid[i / 8] >> (i % 8) & 1)) sb_puts(b, "<NULL>|");
            else sb_append(b, (const char *)c.data + c.offsets[i], (size_t)(c.offsets[i + 1] - c.offsets[i])), sb_putc(b, '|');
        }
        sb_putc(b, '\n');
        /* ... and its Arrow export */
        struct ArrowSchema sc;
        struct ArrowArray ar;
        if (rx_result_arrow(r, j, &sc, &ar) != 0) {
            sb_puts(b, "(arrow failed)\n");
            continue;
        }
        const uint8_t *valid = ar.buffers[0];
        const int32_t *off = ar.buffers[1];
        const char *data = ar.buffers[2];
        sb_printf(b, "== arrow %d %s %lld\n", j, sc.format, (long long)ar.null_count);
        for (int64_t i = 0; sc.format[0] == 'u' && i < ar.length; i++) {
            if (valid && !(valid[i / 8] >> (i % 8) & 1)) sb_puts(b, "<NULL>|");
            else sb_append(b, data + off[i], (size_t)(off[i + 1] - off[i])), sb_putc(b, '|');
        }
        sb_putc(b, '\n');
        ar.release(&ar);
        sc.release(&sc);
    }
    return 0;
}

static const char *const QUERIES[] = {
    "query { T };",
    "query { σ sym = 'AB' ∨ note = 'x' (T) };",
    "query { σ note LIKE '%a%' (T) };",
    "query { π sym, note (T) };",
    "query { π sym (T) };",
    "query { π upper(sym) → u, length(note) → len, note (T) };",
    "query { γ sym; count(*) → n, min(note) → lo, max(note) → hi, first(note) → f, count(DISTINCT note) → d (T) };",
    "query { γ note; sum(qty) → q (T) };",
    "query { γ sym, note; count(*) → n, sum(qty) → q (T) };",
    "query { γ sym; string_agg(note, '|') → s, arg_max(note, id) → a, min(sym) → m (T) };",
    "query { γ upper(sym) → u, note; count(*) → n (T) };",
    "query { γ id, sym; first(note) → f, count(*) → n (T) };",
    "query { σ n > 1 (γ sym; count(*) → n (T)) };",
    "query { ω PER sym BY id; lag(note) → p, row_number() → n, max(note) OVER 2 ROWS PRECEDING → m (T) };",
    "query { ω PER sym, note BY id; sum(qty) → s, lead(sym, 1, note) → l (T) };",
    "query { ω BY note, id; first_value(sym) → f (T) };",
    "query { PACK (id, ts) BY sym WITH count(*) → n, min(note) → m, string_agg(note, ',') → s (T) };",
    "query { GAPS (id, ts) BY sym, note (T) };",
    "query { T IMINUS (T.id, T.ts, Q.id, Q.ts) ON T.sym = Q.sym Q };",
    "query { T IINTERSECT (T.id, T.ts, Q.id, Q.ts) ON T.note = Q.note ∧ T.sym = Q.sym Q };",
    "query { τ sym, note DESC, id (T) };",
    "query { TOP 2 PER sym BY id DESC (T) };",
    "query { π T.id, Q.id → qid, Q.note → qn (T ⨝ T.sym = Q.sym (σ qty = 1 (Q))) };",
    "query { π T.id, Q.id → qid (T ⨝ T.note = Q.note (σ qty = 2 (Q))) };",
    "query { T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q };",
    "query { π sym, ts, qty, ts_r → qts, note_r → qn (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };",
    "query { π T.id, Q.note → qn (T ASOF INNER T.note = Q.note ∧ T.ts <= Q.ts Q) };",
    "query { π T.id, Q.id → qid (T ASOF T.sym = Q.sym ∧ T.note = Q.note ∧ T.ts >= Q.ts Q) };",
    "query { π sym (T) ∪ π sym (Q) };",
    "query { π note (T) − π note (Q) };",
    "query { π sym, note (T) ∩ π sym, note (Q) };",
    "query { T SEMIJOIN T.sym = Q.sym Q };",
    "query { T ANTIJOIN T.note = Q.note Q };",
    "query { π sym, note (σ qty < 10 (T)) };",
};

enum { V_PLAIN, V_CODED, V_CSV, V_MIXED, N_VARIANTS };

/* The outputs of every query over one variant of the data. Each query has a session of its
 * own: an operator that needs slices makes them on the relation's column, which keeps them. */
static void run_variant(int v, const Rel *t, const Rel *q, const char *tcsv, const char *qcsv, StrBuf *out) {
    for (size_t i = 0; i < sizeof QUERIES / sizeof QUERIES[0]; i++) {
        RxSession *s = rx_open();
        if (v == V_CSV) {
            char script[1024];
            snprintf(script, sizeof script, "T := csv('%s'); Q := csv('%s');", tcsv, qcsv);
            CHECK(rx_exec(s, script, strlen(script), "<test>", NULL, NULL) == 0);
        } else {
            CHECK(reg(s, "T", t, v != V_PLAIN) == 0);
            CHECK(reg(s, "Q", q, v == V_CODED) == 0);
        }
        sb_printf(out, "### %s\n", QUERIES[i]);
        if (rx_exec(s, QUERIES[i], strlen(QUERIES[i]), "<test>", collect, out) != 0)
            sb_printf(out, "error: %s\n", rx_errmsg(s));
        rx_close(s);
    }
}

/* Where two outputs first differ, for the failure message. */
static void show_diff(const char *what, const StrBuf *a, const StrBuf *b) {
    size_t i = 0;
    while (i < a->n && i < b->n && a->p[i] == b->p[i]) i++;
    size_t from = i > 200 ? i - 200 : 0;
    fprintf(stderr, "%s differs at byte %zu:\n--- plain\n%.*s\n--- other\n%.*s\n", what, i,
            (int)((a->n < i + 100 ? a->n : i + 100) - from), a->p + from,
            (int)((b->n < i + 100 ? b->n : i + 100) - from), b->p + from);
}

static void test_differential(void) {
    char dir[] = "/tmp/rx_lazy_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char tcsv[256], qcsv[256];
    snprintf(tcsv, sizeof tcsv, "%s/t.csv", dir);
    snprintf(qcsv, sizeof qcsv, "%s/q.csv", dir);
    for (int round = 0; round < 2; round++) {
        rng_state = 1000 + (uint64_t)round;
        Rel t, q;
        /* the reader codes a column of 4096 rows or more (csv.c) */
        rel_make(&t, 4096 + rnd_below(3000), 6 + round * 4, round == 1 ? 0 : 5);
        rel_make(&q, 4096 + rnd_below(500), 8 + round * 3, 5);
        rel_csv(&t, tcsv);
        rel_csv(&q, qcsv);
        StrBuf out[N_VARIANTS];
        for (int v = 0; v < N_VARIANTS; v++) {
            sb_init(&out[v]);
            run_variant(v, &t, &q, tcsv, qcsv, &out[v]);
        }
        CHECK(!strstr(out[V_PLAIN].p, "error:") && out[V_PLAIN].n > 100000);
        for (int v = 1; v < N_VARIANTS; v++) {
            bool same = out[v].n == out[V_PLAIN].n && memcmp(out[v].p, out[V_PLAIN].p, out[v].n) == 0;
            CHECK(same);
            if (!same) show_diff(v == V_CODED ? "coded" : v == V_CSV ? "csv" : "mixed", &out[V_PLAIN], &out[v]);
        }
        for (int v = 0; v < N_VARIANTS; v++) sb_free(&out[v]);
        rel_free(&t);
        rel_free(&q);
    }
    unlink(tcsv);
    unlink(qcsv);
    rmdir(dir);
}

/* A lazy column built by hand: n rows over a dictionary of 3 strings, every 7th row NULL. */
static Column *lazy_column(size_t n) {
    static const RxStr dict[] = {{"one", 3}, {"two", 3}, {"three", 5}};
    Column *c = rx_calloc(1, sizeof *c);
    c->refcnt = 1;
    c->type = TY_TEXT;
    c->n = n;
    c->codes = rx_malloc(n * sizeof *c->codes);
    c->dict = rx_malloc(sizeof dict);
    memcpy(c->dict, dict, sizeof dict);
    c->n_dict = 3;
    for (size_t i = 0; i < n; i++) {
        c->codes[i] = (uint32_t)(i % 3);
        if (i % 7 == 0) {
            col_set_null(c, i);
            c->codes[i] = 0;
        }
    }
    return c;
}

static void *need_job(void *arg) {
    return (void *)(intptr_t)col_need_str(arg);
}

/* Two threads ask for one lazy column's slices at once: both succeed, one array is installed
 * (the other freed: ASan would report a leak or a double free), and every slice is right. A
 * view of it (what joins make) gets its base's slices. A gather of a lazy column stays lazy. */
static void test_threads(void) {
    for (int round = 0; round < 20; round++) {
        Column *c = lazy_column(100000);
        Column *v = col_view(c, NULL);
        CHECK(col_lazy(c) && col_lazy(v));
        pthread_t th;
        CHECK(pthread_create(&th, NULL, need_job, c) == 0);
        int rc = col_need_str(c);
        void *trc;
        pthread_join(th, &trc);
        CHECK(rc == 0 && (intptr_t)trc == 0 && !col_lazy(c));
        size_t bad = 0;
        for (size_t i = 0; i < c->n; i++) {
            if (col_is_null(c, i)) continue;
            RxStr a = col_str(c)[i], b = c->dict[c->codes[i]];
            bad += a.len != b.len || memcmp(a.ptr, b.ptr, a.len) != 0;
        }
        CHECK(bad == 0);
        CHECK(col_lazy(v) && col_need_str(v) == 0 && v->data == c->data);
        col_release(v);
        col_release(c);
    }
    Column *c = lazy_column(1000);
    uint32_t idx[] = {999, 0, ROW_NONE, 5, 7};
    Column *g = col_gather(c, idx, 5);
    CHECK(g && col_lazy(g) && g->n == 5);
    CHECK(g && col_is_null(g, 1) && col_is_null(g, 2) && !col_is_null(g, 0) && col_is_null(g, 4));
    CHECK(g && col_text(g, 0).len == col_text(c, 999).len && col_text(g, 3).ptr == c->dict[2].ptr);
    CHECK(g && col_need_str(g) == 0 && memcmp(col_str(g)[0].ptr, "one", 3) == 0);
    col_release(g);
    col_release(c);
}

static int count_bytes(void *ud, const char *p, size_t n) {
    (void)p;
    *(size_t *)ud += n;
    return 0;
}

static int write_csv_count(void *ud, const RxResult *r) {
    return rx_result_write(r, RX_FORMAT_CSV, count_bytes, ud);
}

/* A memory limit that holds the coded rows but not their slices: a query that needs slices
 * (σ with LIKE evaluates the text) fails with out of memory, and does not crash; the writers,
 * which read codes, need no slices. */
static void test_memory_limit(void) {
    rng_state = 77;
    Rel t, q;
    rel_make(&t, 400000, 10, 5);
    rel_make(&q, 1000, 10, 5);
    RxSession *s = rx_open();
    CHECK(reg(s, "T", &t, true) == 0);
    CHECK(reg(s, "Q", &q, true) == 0);
    size_t used = rx_memory_used();
    rx_set_memory_limit(used + 2 * 1024 * 1024);   /* the slices of one column take 6.4 MB */
    /* the writers format dict[code]: writing every row needs no slices */
    const char *scan = "query { T };";
    size_t written = 0;
    int rc = rx_exec(s, scan, strlen(scan), "<test>", write_csv_count, &written);
    CHECK(rc == 0 && written > 400000 * 10);
    if (rc) fprintf(stderr, "%s\n", rx_errmsg(s));
    /* γ groups by a coded column's codes: no slices (its aggregates read no TEXT) */
    const char *group = "query { γ sym; count(*) → n, sum(qty) → q (T) };";
    StrBuf out;
    sb_init(&out);
    rc = rx_exec(s, group, strlen(group), "<test>", collect, &out);
    CHECK(rc == 0 && out.n > 0);
    if (rc) fprintf(stderr, "%s\n", rx_errmsg(s));
    const char *need = "query { σ note LIKE '%a%' (T) };";
    rc = rx_exec(s, need, strlen(need), "<test>", collect, &out);
    CHECK(rc == RX_ERR_NOMEM);
    CHECK(strstr(rx_errmsg(s), "memory") != NULL);
    rx_set_memory_limit(0);
    rx_memory_limit_hit(true);
    rc = rx_exec(s, need, strlen(need), "<test>", collect, &out);
    CHECK(rc == 0);
    sb_free(&out);
    rx_close(s);
    rel_free(&t);
    rel_free(&q);
}

int main(void) {
    test_differential();
    test_threads();
    test_memory_limit();
    return check_report("lazystr");
}
