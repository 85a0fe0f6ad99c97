/*
 * prepared_arrow.c - a program that hands Relix an Arrow record batch (the Arrow C data
 * interface's two structs, filled by hand as any Arrow producer fills them), prepares one
 * query with a parameter, runs it for several values without parsing it again, and takes each
 * result back as Arrow. docs/embedding.md walks through it; tests/cases/582-prepared-arrow.sh
 * builds and runs it, also under valgrind.
 *
 *   cc prepared_arrow.c $(pkg-config --cflags --libs relix)
 */
#include <stdio.h>
#include <string.h>

#include "relix.h"

/* The producer's side: the buffers are static, so its release callbacks only mark the structs
 * released (a real producer frees its buffers there). */
static void release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void release_array(struct ArrowArray *a) { a->release = NULL; }

static const char sym_bytes[] = "AAPLMSFTAAPLMSFT";
static const int32_t sym_offsets[] = {0, 4, 8, 12, 16};
static const int64_t ts_us[] = {1767258000000000, 1767258060000000, 1767258120000000, 1767258180000000};
static const double px[] = {187.5, 402.25, 188.0, 401.75};
static const void *sym_buffers[] = {NULL, sym_offsets, sym_bytes};
static const void *ts_buffers[] = {NULL, ts_us};
static const void *px_buffers[] = {NULL, px};
static const void *batch_buffers[] = {NULL};

int main(void) {
    struct ArrowSchema sym_s = {.format = "u", .name = "sym", .release = release_schema};
    struct ArrowSchema ts_s = {.format = "tsu:UTC", .name = "ts", .release = release_schema};
    struct ArrowSchema px_s = {.format = "g", .name = "px", .release = release_schema};
    struct ArrowSchema *schema_children[] = {&sym_s, &ts_s, &px_s};
    struct ArrowSchema schema = {.format = "+s", .name = "", .n_children = 3, .children = schema_children,
                                 .release = release_schema};
    struct ArrowArray sym_a = {.length = 4, .n_buffers = 3, .buffers = sym_buffers, .release = release_array};
    struct ArrowArray ts_a = {.length = 4, .n_buffers = 2, .buffers = ts_buffers, .release = release_array};
    struct ArrowArray px_a = {.length = 4, .n_buffers = 2, .buffers = px_buffers, .release = release_array};
    struct ArrowArray *array_children[] = {&sym_a, &ts_a, &px_a};
    struct ArrowArray array = {.length = 4, .n_buffers = 1, .n_children = 3, .buffers = batch_buffers,
                               .children = array_children, .release = release_array};

    RxSession *s = rx_open();
    if (!s) return 1;
    /* Relix takes the batch over: it reads the buffers in place and releases the array when
     * the session closes */
    if (rx_register_arrow(s, "Trades", &schema, &array) != 0) {
        fprintf(stderr, "%s", rx_errmsg(s));
        rx_close(s);
        return 1;
    }
    const char *q = "query { π ts, px (σ sym = :sym ∧ px > $2 (Trades)) };";
    RxStmt *st;
    if (rx_prepare(s, q, strlen(q), "prepared_arrow", &st) != 0) {
        fprintf(stderr, "%s", rx_errmsg(s));
        rx_close(s);
        return 1;
    }
    const char *syms[] = {"AAPL", "MSFT", "IBM"};
    for (int k = 0; k < 3; k++) {
        rx_bind_text(st, rx_bind_parameter_index(st, ":sym"), syms[k], strlen(syms[k]));
        rx_bind_double(st, 2, 100.0);
        const RxResult *r;
        struct ArrowSchema out_s;
        struct ArrowArray out_a;
        if (rx_execute(st, &r) != 0 || rx_result_arrow(r, -1, &out_s, &out_a) != 0) {
            fprintf(stderr, "%s", rx_errmsg(s));
            break;
        }
        /* the export is the program's now: a record batch of (ts, px) */
        const int64_t *ts = out_a.children[0]->buffers[1];
        const double *p = out_a.children[1]->buffers[1];
        printf("%s: %lld rows (%s %s, %s %s)\n", syms[k], (long long)out_a.length, out_s.children[0]->name,
               out_s.children[0]->format, out_s.children[1]->name, out_s.children[1]->format);
        for (int64_t i = 0; i < out_a.length; i++) printf("  %lld us  %.2f\n", (long long)ts[i], p[i]);
        out_a.release(&out_a);
        out_s.release(&out_s);
    }
    /* binding text where a FLOAT is compared is an error at the parameter */
    if (rx_bind_text(st, 2, "cheap", 5) != 0) fprintf(stdout, "%s", rx_errmsg(s));
    printf("parsed %zu time(s)\n", rx_parse_count(s));
    rx_finalize(st);
    rx_close(s);
    return 0;
}
