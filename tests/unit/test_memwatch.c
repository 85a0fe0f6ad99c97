/*
 * test_memwatch.c - the memory watch behind EXPLAIN ANALYZE's peak (util.c): a large buffer
 * allocated and freed while the watch is on raises the peak by at least its size, though the
 * live count is back down when the watch ends; a watch over nothing reports no more than what
 * is live; rx_format_bytes prints the units EXPLAIN ANALYZE shows.
 */
#include "base/base.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MB ((size_t)1 << 20)

int main(void) {
    char buf[32];
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

#if !defined(__SANITIZE_ADDRESS__)
    /* The sanitizer's allocator is invisible to mallinfo2 (base.h): only without it do the
     * counts move. */
    for (int kind = 0; kind < 3; kind++) {
        size_t before = rx_mem_watch_begin();
        size_t bytes = kind == 0 ? 8 * MB : kind == 1 ? 300 << 10 : 5 * MB;
        char *p = kind == 0 ? rx_malloc(bytes) : kind == 1 ? rx_calloc(bytes, 1) : rx_map_alloc(bytes);
        CHECK(p != NULL);
        if (p) memset(p, 1, bytes);
        CHECK(rx_mem_live() >= before + bytes);
        if (kind == 2) rx_map_free(p);
        else free(p);
        size_t after = rx_mem_live();
        size_t peak = rx_mem_watch_end();
        CHECK(after < before + bytes);
        CHECK(peak >= before + bytes);
    }
    /* small allocations do not sample: the peak is the larger of the two ends */
    size_t before = rx_mem_watch_begin();
    size_t peak = rx_mem_watch_end();
    size_t now = rx_mem_live();
    CHECK(peak >= before && peak <= (now > before ? now : before) + 4096);
#endif
    return check_report("memwatch");
}
