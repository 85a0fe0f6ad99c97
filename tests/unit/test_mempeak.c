/*
 * test_mempeak.c - the memory accountant's high-water mark behind EXPLAIN ANALYZE's peak per
 * operator (util.c): every charge raises it, however small (the sampled watch it replaced saw
 * only allocations of 256 KiB and more); a buffer freed again leaves the peak where it was and
 * the count where it began; a new mark lowers the peak to the count now; a realloc that its
 * rounding takes past the limit is charged what it holds, so that its free returns the count
 * to where it began. And the units EXPLAIN ANALYZE and the limit's share print in.
 */
#include "base/base.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MB ((size_t)1 << 20)

static void test_format(void) {
    char buf[48];
    rx_format_bytes(buf, sizeof buf, 0);
    CHECK_STR(buf, "0 B");
    rx_format_bytes(buf, sizeof buf, 999);
    CHECK_STR(buf, "999 B");
    rx_format_bytes(buf, sizeof buf, 1000);
    CHECK_STR(buf, "1.0 kB");
    rx_format_bytes(buf, sizeof buf, 12345678);
    CHECK_STR(buf, "12.3 MB");
    rx_format_bytes(buf, sizeof buf, 999999);
    CHECK_STR(buf, "1.0 MB");
    rx_format_bytes(buf, sizeof buf, (uint64_t)1500000000);
    CHECK_STR(buf, "1.5 GB");

    rx_format_size(buf, sizeof buf, 512);
    CHECK_STR(buf, "512 B");
    rx_format_size(buf, sizeof buf, 1024);
    CHECK_STR(buf, "1 KiB");
    rx_format_size(buf, sizeof buf, 256 * MB);
    CHECK_STR(buf, "256 MiB");
    rx_format_size(buf, sizeof buf, 1536 * MB);
    CHECK_STR(buf, "1.5 GiB");
    rx_format_size(buf, sizeof buf, (uint64_t)3 << 40);
    CHECK_STR(buf, "3 TiB");

    rx_format_share(buf, sizeof buf, 120 * MB, 256 * MB);
    CHECK_STR(buf, "47% of 256 MiB");
    rx_format_share(buf, sizeof buf, 120, 256 * MB);
    CHECK_STR(buf, "<1% of 256 MiB");
    rx_format_share(buf, sizeof buf, 0, 256 * MB);
    CHECK_STR(buf, "0% of 256 MiB");
    rx_format_share(buf, sizeof buf, 300 * MB, 256 * MB);
    CHECK_STR(buf, "117% of 256 MiB");
}

static void test_peak(void) {
    size_t base = rx_memory_used();
    size_t mark = rx_memory_peak_mark();
    CHECK(mark == base);
    CHECK(rx_memory_peak() == base && rx_memory_peak_since(mark) == 0);

    /* each family raises the peak by at least what it allocated; the count comes back down */
    for (int kind = 0; kind < 4; kind++) {
        mark = rx_memory_peak_mark();
        size_t bytes = kind == 0 ? 8 * MB : kind == 1 ? 1000 : kind == 2 ? 300 << 10 : 5 * MB;
        char *p = kind == 0 ? rx_malloc(bytes) : kind == 1 ? rx_malloc(bytes)
                : kind == 2 ? rx_calloc(bytes, 1) : rx_map_alloc(bytes);
        CHECK(p != NULL);
        if (p) memset(p, 1, bytes);
        if (kind == 3) rx_map_free(p);
        else rx_free(p);
        CHECK(rx_memory_used() == base);
        CHECK(rx_memory_peak_since(mark) >= bytes);
        CHECK(rx_memory_peak_since(mark) < bytes + 4 * MB);   /* a huge page's rounding at most */
    }

    /* two buffers at once: the peak is their sum, not the larger */
    mark = rx_memory_peak_mark();
    char *a = rx_malloc(3 * MB), *b = rx_malloc(3 * MB);
    CHECK(a && b);
    rx_free(a);
    char *c = rx_malloc(1 * MB);
    rx_free(b);
    rx_free(c);
    CHECK(rx_memory_peak_since(mark) >= 6 * MB);
    CHECK(rx_memory_peak_since(mark) < 10 * MB);

    /* a new mark forgets the old peak */
    mark = rx_memory_peak_mark();
    CHECK(rx_memory_peak_since(mark) == 0);
    CHECK(rx_memory_peak() == base);

    /* a grown buffer counts its new size */
    mark = rx_memory_peak_mark();
    char *g = rx_malloc(100);
    g = rx_realloc(g, 3 * MB);
    CHECK(g != NULL);
    CHECK(rx_memory_peak_since(mark) >= 3 * MB);
    rx_free(g);
    CHECK(rx_memory_used() == base);
}

/* realloc's usable size may come out above the request: past the limit by that rounding, the
 * buffer is still charged what it holds, so that its free credits no more than was charged. */
static void test_realloc_rounding(void) {
    char *anchor = rx_malloc(MB);   /* so that a count below base shows (the count is clamped at 0) */
    size_t base = rx_memory_used();
    CHECK(anchor != NULL && base >= MB);
    char *p = rx_malloc(100);
    CHECK(p != NULL);
    size_t have = malloc_usable_size(p);
    /* room for exactly 1001 - have more bytes: the request passes the check before it, and
     * malloc rounds the block up past the limit */
    rx_set_memory_limit(rx_memory_used() + (1001 - have));
    char *q = rx_realloc(p, 1001);
    CHECK(q != NULL);
    if (q) p = q;
    rx_set_memory_limit(0);
    rx_memory_limit_hit(true);
    rx_free(p);
    CHECK(rx_memory_used() == base);
    rx_free(anchor);
}

int main(void) {
    test_format();
    test_peak();
    test_realloc_rounding();
    return check_report("mempeak");
}
