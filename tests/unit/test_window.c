/*
 * test_window.c - ω's frames (src/exec/window.c) against a brute-force oracle.
 *
 * Thousands of random inputs (0..60 rows, one to four partitions, small INT order values for
 * frequent ties, NULL order values and NULL arguments, ranges from 0 to beyond the spread) run
 * through the public API as `ω PER k BY t; … OVER d PRECEDING …` and `… OVER n ROWS PRECEDING`,
 * and every row's count, sum, min, max and first_value is compared with an oracle that scans the
 * whole partition for each row: a value range takes the rows with t in [cur - d, cur] (the NULL
 * rows are one another's frame), a row frame the n rows before the current one in (t, input
 * order) with NULLs last.
 */
#include "relix.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

static uint64_t rng_state = 26;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static int64_t rnd_below(int64_t n) { return n > 0 ? (int64_t)(rnd() % (uint64_t)n) : 0; }

#define MAXN 64
typedef struct {
    int n;
    int k[MAXN];
    int64_t t[MAXN], x[MAXN];
    int t_null[MAXN], x_null[MAXN];
} Input;

typedef struct {
    const Input *in;
    int64_t d, rows;
    int rows_seen, bad;
} Ctx;

/* Whether row j is in row i's value-range frame. */
static int in_range(const Input *in, int i, int j, int64_t d) {
    if (in->k[i] != in->k[j]) return 0;
    if (in->t_null[i] || in->t_null[j]) return in->t_null[i] && in->t_null[j];
    return in->t[j] >= in->t[i] - d && in->t[j] <= in->t[i];
}

/* Row j sorts before row i in the partition's order: t ascending, NULLs last, then input order. */
static int before(const Input *in, int j, int i) {
    if (in->t_null[j] != in->t_null[i]) return in->t_null[i];
    if (!in->t_null[j] && in->t[j] != in->t[i]) return in->t[j] < in->t[i];
    return j < i;
}

/* Whether row j is in row i's row frame: at most `rows` rows of its partition lie between. */
static int in_rows(const Input *in, int i, int j, int64_t rows) {
    if (in->k[i] != in->k[j] || (j != i && !before(in, j, i))) return 0;
    int64_t between = 0;
    for (int m = 0; m < in->n; m++)
        if (m != j && in->k[m] == in->k[i] && before(in, j, m) && before(in, m, i)) between++;
    return j == i || between < rows;
}

static int check_row(Ctx *c, const RxResult *r, int i, int frame) {
    const Input *in = c->in;
    int64_t cnt = 0, cnt_all = 0, sum = 0, mn = 0, mx = 0, first_j = -1;
    for (int j = 0; j < in->n; j++) {
        if (!(frame ? in_rows(in, i, j, c->rows) : in_range(in, i, j, c->d))) continue;
        cnt_all++;
        if (first_j < 0 || before(in, j, (int)first_j)) first_j = j;
        if (in->x_null[j]) continue;
        if (!cnt || in->x[j] < mn) mn = in->x[j];
        if (!cnt || in->x[j] > mx) mx = in->x[j];
        cnt++;
        sum += in->x[j];
    }
    int base = frame ? 9 : 4;   /* columns: id, k, t, x, the range's five, the rows' five */
    int ok = rx_result_int(r, (size_t)i, base) == cnt_all && rx_result_int(r, (size_t)i, base + 1) == cnt;
    if (cnt) {
        ok &= !rx_result_is_null(r, (size_t)i, base + 2) && rx_result_int(r, (size_t)i, base + 2) == sum;
        ok &= rx_result_int(r, (size_t)i, base + 3) == mn && rx_result_int(r, (size_t)i, base + 4) == mx;
    } else {
        ok &= rx_result_is_null(r, (size_t)i, base + 2) && rx_result_is_null(r, (size_t)i, base + 3);
    }
    if (frame && first_j >= 0) {
        /* first_value over the row frame: the frame's first row's x, NULL included */
        int fv = 14;
        ok &= in->x_null[first_j] ? rx_result_is_null(r, (size_t)i, fv)
                                  : !rx_result_is_null(r, (size_t)i, fv) && rx_result_int(r, (size_t)i, fv) == in->x[first_j];
    }
    return ok;
}

static int on_result(void *ud, const RxResult *r) {
    Ctx *c = ud;
    if ((int)rx_result_rows(r) != c->in->n || rx_result_cols(r) != 15) {
        c->bad++;
        return 0;
    }
    for (int i = 0; i < c->in->n; i++) {
        c->rows_seen++;
        if (!check_row(c, r, i, 0) || !check_row(c, r, i, 1)) c->bad++;
    }
    return 0;
}

static void append(char **buf, size_t *len, size_t *cap, const char *s) {
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
}

int main(void) {
    RxSession *s = rx_open();
    CHECK(s != NULL);
    int cases = 0, bad = 0, rows = 0;
    for (int round = 0; round < 3000 && s; round++) {
        Input in;
        in.n = (int)rnd_below(round % 10 == 0 ? 4 : 61);
        int64_t spread = 1 + rnd_below(round % 3 == 0 ? 5 : 200);
        int parts = 1 + (int)rnd_below(4);
        char *text = NULL, line[512];
        size_t len = 0, cap = 0;
        append(&text, &len, &cap, "T := [\n| id | k | t | x |\n|---|---|---|---|\n");
        for (int i = 0; i < in.n; i++) {
            in.k[i] = (int)rnd_below(parts);
            in.t[i] = rnd_below(spread) - spread / 2;
            in.x[i] = rnd_below(2001) - 1000;
            in.t_null[i] = rnd_below(12) == 0;
            in.x_null[i] = rnd_below(8) == 0;
            char tb[32], xb[32];
            snprintf(tb, sizeof tb, "%lld", (long long)in.t[i]);
            snprintf(xb, sizeof xb, "%lld", (long long)in.x[i]);
            snprintf(line, sizeof line, "| %d | k%d | %s | %s |\n", i, in.k[i], in.t_null[i] ? "NULL" : tb,
                     in.x_null[i] ? "NULL" : xb);
            append(&text, &len, &cap, line);
        }
        Ctx c = {.in = &in, .d = rnd_below(spread + 3), .rows = rnd_below(8)};
        /* an empty table has no rows to type its columns by: give them their types */
        snprintf(line, sizeof line,
                 "];\nU := { π to_int(id) → id, k, to_int(t) → t, to_int(x) → x (T) };\n"
                 "query { ω PER k BY t; "
                 "count(*) OVER %lld PRECEDING → c, count(x) OVER %lld PRECEDING → n, ",
                 (long long)c.d, (long long)c.d);
        append(&text, &len, &cap, line);
        snprintf(line, sizeof line,
                 "sum(x) OVER %lld PRECEDING → s, min(x) OVER %lld PRECEDING → lo, max(x) OVER %lld "
                 "PRECEDING → hi, ", (long long)c.d, (long long)c.d, (long long)c.d);
        append(&text, &len, &cap, line);
        snprintf(line, sizeof line,
                 "count(*) OVER %lld ROWS PRECEDING → rc, count(x) OVER %lld ROWS PRECEDING → rn, "
                 "sum(x) OVER %lld ROWS PRECEDING → rs, ", (long long)c.rows, (long long)c.rows, (long long)c.rows);
        append(&text, &len, &cap, line);
        snprintf(line, sizeof line,
                 "min(x) OVER %lld ROWS PRECEDING → rlo, max(x) OVER %lld ROWS PRECEDING → rhi, "
                 "first_value(x) OVER %lld ROWS PRECEDING → rfv (U) };\n",
                 (long long)c.rows, (long long)c.rows, (long long)c.rows);
        append(&text, &len, &cap, line);
        RxSession *one = rx_open();
        int rc = rx_exec(one, text, len, "<window>", on_result, &c);
        if (rc != 0) fprintf(stderr, "round %d: %s\n", round, rx_errmsg(one));
        CHECK(rc == 0);
        rx_close(one);
        free(text);
        cases++;
        rows += c.rows_seen;
        bad += c.bad;
        if (c.bad) fprintf(stderr, "round %d: %d rows differ from the oracle\n", round, c.bad);
    }
    CHECK(bad == 0);
    CHECK(cases == 3000);
    CHECK(rows > 50000);
    rx_close(s);
    return check_report("test_window");
}
