/*
 * test_borrow.c - col_borrow (types/column.h): an aligned host array is read in place; one at an
 * odd offset (a view into a host buffer, as a Dask partition of a pandas frame can hand over) is
 * copied once into aligned memory, so that typed loads never read a misaligned address (UBSan
 * reported such loads in the gather of a join over a borrowed column).
 */
#include "types/column.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    int64_t vals[4] = {1, -2, 3, INT64_MAX};
    _Alignas(8) unsigned char buf[8 * 4 + 8];
    memcpy(buf + 2, vals, sizeof vals);
    Column *c = col_borrow(TY_INT, 4, buf + 2);
    CHECK(c != NULL);
    if (c) {
        CHECK(((uintptr_t)c->data & 7) == 0);
        CHECK(!c->borrowed);
        for (int i = 0; i < 4; i++) CHECK(col_i64(c)[i] == vals[i]);
        col_release(c);
    }
    double f[3] = {0.5, -1e300, 2.25};
    _Alignas(8) unsigned char fb[8 * 3 + 8];
    memcpy(fb + 4, f, sizeof f);
    Column *g = col_borrow(TY_FLOAT, 3, fb + 4);
    CHECK(g && ((uintptr_t)g->data & 7) == 0 && col_f64(g)[1] == -1e300);
    if (g) col_release(g);
    Column *d = col_borrow(TY_INT, 4, vals);
    CHECK(d && d->borrowed && d->data == (void *)vals);
    if (d) col_release(d);
    return check_report("borrow");
}
