/*
 * util.c - byte hashing, UTF-8 helpers and large-buffer allocation shared by every stage.
 */
#define _GNU_SOURCE   /* mremap */
#include "base/base.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

uint64_t rx_hash_bytes(const void *p, size_t n) {
    const unsigned char *s = p;
    uint64_t h = 0x243f6a8885a308d3ULL ^ (n * 0x9e3779b97f4a7c15ULL);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ rx_hash64(w)) * 0x100000001b3ULL;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h ^= rx_hash64(w ^ n);
    return rx_hash64(h);
}

int utf8_seq_len(const unsigned char *s, size_t n) {
    if (n == 0) return 0;
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int len;
    unsigned min;
    if ((c & 0xE0) == 0xC0) { len = 2; min = 0x80; c &= 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; min = 0x800; c &= 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; min = 0x10000; c &= 0x07; }
    else return 0;
    if ((size_t)len > n) return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    return len;
}

size_t utf8_width(const char *s, size_t n) {
    size_t w = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++)
        if ((u[i] & 0xC0) != 0x80) w++;
    return w;
}

/* ---- the memory accountant -------------------------------------------------------------------
 *
 * Every buffer of the rx_malloc and rx_map families is charged to one process-wide counter when
 * it is allocated and credited when rx_free or rx_map_free releases it, by its usable size
 * (malloc_usable_size, or the mapping's length), so that the amount charged is known again at
 * the free without a header. An allocation that would take the counter past the limit fails
 * (NULL, as out of memory) and is remembered, so that the error can say the limit was the
 * cause. The counter's high-water mark since the last rx_memory_peak_mark is kept beside it,
 * for EXPLAIN ANALYZE's peak per operator. One atomic add per allocation, and a compare-and-
 * swap only when the count passes its mark: the buffers are large and few. */

static int64_t mem_used;           /* bytes charged now (atomic) */
static int64_t mem_peak;           /* the highest mem_used since the last mark (atomic) */
static int64_t mem_limit_bytes;    /* 0: no limit */
static int mem_limit_hit;          /* an allocation failed at the limit (atomic) */
static int64_t mem_refused;        /* the bytes of the last allocation refused (atomic) */

void rx_set_memory_limit(size_t bytes) {
    __atomic_store_n(&mem_limit_bytes, (int64_t)(bytes > INT64_MAX ? INT64_MAX : bytes), __ATOMIC_RELAXED);
    __atomic_store_n(&mem_limit_hit, 0, __ATOMIC_RELAXED);
}

size_t rx_memory_limit(void) { return (size_t)__atomic_load_n(&mem_limit_bytes, __ATOMIC_RELAXED); }

size_t rx_memory_used(void) {
    int64_t u = __atomic_load_n(&mem_used, __ATOMIC_RELAXED);
    return u > 0 ? (size_t)u : 0;
}

size_t rx_memory_refused(void) { return (size_t)__atomic_load_n(&mem_refused, __ATOMIC_RELAXED); }

/* Remembers that an allocation of n bytes failed at the limit. */
static void refuse(size_t n) {
    __atomic_store_n(&mem_refused, (int64_t)(n > INT64_MAX ? INT64_MAX : n), __ATOMIC_RELAXED);
    __atomic_store_n(&mem_limit_hit, 1, __ATOMIC_RELAXED);
}

bool rx_memory_limit_hit(bool clear) {
    return clear ? __atomic_exchange_n(&mem_limit_hit, 0, __ATOMIC_RELAXED) != 0
                 : __atomic_load_n(&mem_limit_hit, __ATOMIC_RELAXED) != 0;
}

size_t rx_memory_peak_mark(void) {
    int64_t u = __atomic_load_n(&mem_used, __ATOMIC_RELAXED);
    __atomic_store_n(&mem_peak, u, __ATOMIC_RELAXED);
    return u > 0 ? (size_t)u : 0;
}

size_t rx_memory_peak(void) {
    int64_t p = __atomic_load_n(&mem_peak, __ATOMIC_RELAXED);
    return p > 0 ? (size_t)p : 0;
}

size_t rx_memory_peak_since(size_t mark) {
    size_t p = rx_memory_peak();
    return p > mark ? p - mark : 0;
}

/* Raises the high-water mark to now when now is above it. */
static void raise_peak(int64_t now) {
    int64_t seen = __atomic_load_n(&mem_peak, __ATOMIC_RELAXED);
    while (now > seen && !__atomic_compare_exchange_n(&mem_peak, &seen, now, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

void rx_memory_peak_raise(size_t bytes) { raise_peak((int64_t)bytes); }

/* Charges n bytes; false (nothing charged, the failure remembered) past the limit. */
static bool charge(size_t n) {
    int64_t limit = __atomic_load_n(&mem_limit_bytes, __ATOMIC_RELAXED);
    int64_t now = __atomic_add_fetch(&mem_used, (int64_t)n, __ATOMIC_RELAXED);
    if (limit > 0 && now > limit) {
        __atomic_sub_fetch(&mem_used, (int64_t)n, __ATOMIC_RELAXED);
        refuse(n);
        return false;
    }
    raise_peak(now);
    return true;
}

/* Charges n bytes that are allocated already, whatever the limit (realloc's rounding). */
static void charge_allocated(size_t n) { raise_peak(__atomic_add_fetch(&mem_used, (int64_t)n, __ATOMIC_RELAXED)); }

static void credit(size_t n) { __atomic_sub_fetch(&mem_used, (int64_t)n, __ATOMIC_RELAXED); }

/* p (from malloc) charged by its usable size, or freed and NULL past the limit. */
static void *charged(void *p) {
    if (p && !charge(malloc_usable_size(p))) {
        free(p);
        return NULL;
    }
    return p;
}

/* ---- large buffers -------------------------------------------------------------------------- */

#define HUGE_PAGE ((size_t)2 << 20)

void rx_format_bytes(char *buf, size_t cap, uint64_t n) {
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
    double v = (double)n;
    int u = 0;
    while (v >= 999.95 && u < 4) {
        v /= 1000;
        u++;
    }
    if (u == 0) snprintf(buf, cap, "%llu B", (unsigned long long)n);
    else snprintf(buf, cap, "%.1f %s", v, units[u]);
}

void rx_format_size(char *buf, size_t cap, uint64_t n) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && n >= ((uint64_t)1024 << (10 * u))) u++;
    uint64_t one = (uint64_t)1 << (10 * u);
    if (n % one == 0) snprintf(buf, cap, "%llu %s", (unsigned long long)(n / one), units[u]);
    else snprintf(buf, cap, "%.1f %s", (double)n / (double)one, units[u]);
}

void rx_format_share(char *buf, size_t cap, uint64_t part, uint64_t whole) {
    char w[32];
    rx_format_size(w, sizeof w, whole);
    double pct = whole ? 100.0 * (double)part / (double)whole : 0;
    if (part > 0 && pct < 0.5) snprintf(buf, cap, "<1%% of %s", w);
    else snprintf(buf, cap, "%.0f%% of %s", pct, w);
}

/* Past the limit already, before the allocation is made (the usable size may be a little more). */
static bool over_limit(size_t bytes) {
    int64_t limit = __atomic_load_n(&mem_limit_bytes, __ATOMIC_RELAXED);
    if (limit > 0 && (bytes > (size_t)limit || __atomic_load_n(&mem_used, __ATOMIC_RELAXED) > limit - (int64_t)bytes)) {
        refuse(bytes);
        return true;
    }
    return false;
}

/* ---- large buffers are their own mappings, and freed ones are kept for reuse ----------------
 *
 * A buffer of RX_HUGE_MIN bytes or more (rx_malloc's, rx_calloc's and rx_map_alloc's alike) is a
 * mapping of its own: a whole number of huge pages at a huge-page boundary, advised into huge
 * pages, listed with its length among the live mappings, so that rx_free and rx_realloc know it
 * by its address (a huge-page-aligned pointer is looked up; the list is short: the live large
 * arrays of a run). When one is freed it is kept, unmapped only past RETAIN_CAP bytes kept in
 * all (a quarter of the memory limit when one is set), and the next large request of at most
 * its length takes it back (the excess tail kept as a smaller one): its pages are in memory
 * already, where a new mapping's are touched for the first time, which on the virtual machines
 * measured costs some thirty times more than touching memory the process holds
 * (bench/memtouch.c, bench/RESULTS.md). Repeated runs in one process (an embedding program,
 * Python) and a run's later stages (a join's output after its scratch is freed) reuse them.
 *
 * A request that no kept mapping fits first unmaps kept ones of as many bytes, so that live and
 * kept mappings together never hold more than the live ones have held at the most: the peak a
 * run has without the reserve (though a reused mapping is resident in full, where a new one is
 * only where it is touched). Kept mappings are not charged to the accountant, and all are
 * unmapped before an allocation fails (at the limit or by the system). Under AddressSanitizer
 * large buffers are malloc's, so that every buffer keeps its exact bounds and a use after free
 * is still caught. */

#if defined(__SANITIZE_ADDRESS__)
#define MAP_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAP_OFF 1
#endif
#endif

#ifdef MAP_OFF
/* Advises [p, p + bytes) into transparent huge pages when it is large, whole pages only (the
 * first page may hold malloc's header: advising it is harmless). */
static void *advise_huge(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (p && bytes >= RX_HUGE_MIN) {
        uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095;
        uintptr_t e = ((uintptr_t)p + bytes + 4095) & ~(uintptr_t)4095;
        madvise((void *)a, e - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}

/* malloc's aligned buffers: mapped by malloc itself past its threshold */
static void *big_alloc(size_t len, bool zero, bool reuse) {
    (void)reuse;
    if (over_limit(len)) return NULL;
    void *p = aligned_alloc(HUGE_PAGE, len);
    if (p && zero) memset(p, 0, len);
    return charged(advise_huge(p, len));
}
static size_t big_len(void *p) { (void)p; return 0; }
static void big_free(void *p, size_t len, bool keep_it) { (void)p, (void)len, (void)keep_it; }
static void *big_realloc(void *p, size_t len, size_t bytes) { (void)p, (void)len, (void)bytes; return NULL; }
size_t rx_map_live(void) { return 0; }
size_t rx_map_kept(void) { return 0; }
void rx_map_drop_kept(void) {}
#else
#include <pthread.h>

#define RETAIN_CAP ((size_t)512 << 20)
#define RETAIN_MAX 32

typedef struct {
    void *p;
    size_t len;
} Mapping;

static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static Mapping *maps;                   /* the live mappings */
static size_t n_maps, cap_maps, map_bytes;
static Mapping kept[RETAIN_MAX];        /* freed mappings kept for reuse */
static size_t n_kept, kept_bytes;

/* The bytes of freed mappings to keep: RETAIN_CAP, or a quarter of the memory limit. */
static size_t retain_cap(void) {
    size_t limit = rx_memory_limit();
    return limit && limit / 4 < RETAIN_CAP ? limit / 4 : RETAIN_CAP;
}

/* Unmaps every kept mapping (before an allocation is refused, and rx_map_drop_kept). */
static void drop_kept(void) {
    pthread_mutex_lock(&map_lock);
    size_t n = n_kept;
    Mapping v[RETAIN_MAX];
    memcpy(v, kept, n * sizeof *v);
    n_kept = 0;
    kept_bytes = 0;
    pthread_mutex_unlock(&map_lock);
    for (size_t i = 0; i < n; i++) munmap(v[i].p, v[i].len);
}

/* A kept mapping of at least len bytes (the smallest that fits), cut to len, or NULL. The cut
 * tail, whole huge pages at a huge-page boundary too, stays kept. */
static void *take_kept(size_t len) {
    pthread_mutex_lock(&map_lock);
    size_t best = n_kept;
    for (size_t i = 0; i < n_kept; i++)
        if (kept[i].len >= len && (best == n_kept || kept[i].len < kept[best].len)) best = i;
    void *p = NULL;
    if (best < n_kept) {
        p = kept[best].p;
        if (kept[best].len > len) {
            kept[best].p = (char *)p + len;
            kept[best].len -= len;
        } else {
            kept[best] = kept[--n_kept];
        }
        kept_bytes -= len;
    }
    pthread_mutex_unlock(&map_lock);
    return p;
}

/* Unmaps the oldest kept mapping (there is one) and returns its length. Called with map_lock
 * held, which it lets go of around the munmap. */
static size_t unmap_oldest(void) {
    Mapping old = kept[0];
    memmove(kept, kept + 1, --n_kept * sizeof *kept);
    kept_bytes -= old.len;
    pthread_mutex_unlock(&map_lock);
    munmap(old.p, old.len);
    pthread_mutex_lock(&map_lock);
    return old.len;
}

/* Before a new mapping of len bytes: unmaps kept ones of at least as many bytes (the oldest
 * first), or all of them, so that live and kept mappings together never hold more than the
 * most the live ones have held at once. */
static void make_room(size_t len) {
    size_t freed = 0;
    pthread_mutex_lock(&map_lock);
    while (freed < len && n_kept) freed += unmap_oldest();
    pthread_mutex_unlock(&map_lock);
}

/* Lists [p, p + len) as live; false (nothing listed) when the list cannot grow. */
static bool list_live(void *p, size_t len) {
    pthread_mutex_lock(&map_lock);
    bool listed = true;
    if (n_maps == cap_maps) {
        size_t cap = cap_maps ? 2 * cap_maps : 64;
        Mapping *v = realloc(maps, cap * sizeof *v);
        if (v) maps = v, cap_maps = cap;
        else listed = false;
    }
    if (listed) {
        maps[n_maps++] = (Mapping){p, len};
        map_bytes += len;
    }
    pthread_mutex_unlock(&map_lock);
    return listed;
}

/* A new mapping of len bytes (whole huge pages) at a huge-page boundary, advised into huge
 * pages; NULL when the system refuses. Zero. */
static void *map_new(size_t len) {
    size_t span = len + HUGE_PAGE;
    char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    char *a = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (a > m) munmap(m, (size_t)(a - m));
    if (m + span > a + len) munmap(a + len, (size_t)(m + span - (a + len)));
#ifdef MADV_HUGEPAGE
    madvise(a, len, MADV_HUGEPAGE);
#endif
    return a;
}

/* len bytes (whole huge pages), charged and listed as live: with reuse a kept mapping when one
 * fits, else a new one; zeroed when zero (a new mapping is zero already). NULL when out of
 * memory. */
static void *big_alloc(size_t len, bool zero, bool reuse) {
    if (!charge(len)) {
        drop_kept();   /* past the limit: memory is scarce, hold none in reserve */
        return NULL;
    }
    void *a = reuse ? take_kept(len) : NULL;
    bool fresh = !a;
    if (fresh) make_room(len);
    if (fresh && !(a = map_new(len))) {
        drop_kept();
        a = map_new(len);
    }
    if (!a) {
        credit(len);
        return NULL;
    }
    if (!list_live(a, len)) {
        munmap(a, len);
        credit(len);
        return NULL;
    }
    if (zero && !fresh) memset(a, 0, len);
    return a;
}

/* The length of live mapping p, or 0 when p is not one. */
static size_t big_len(void *p) {
    if ((uintptr_t)p & (HUGE_PAGE - 1)) return 0;
    size_t len = 0;
    pthread_mutex_lock(&map_lock);
    for (size_t i = n_maps; i-- > 0;)   /* from the end: recent buffers are freed first */
        if (maps[i].p == p) {
            len = maps[i].len;
            break;
        }
    pthread_mutex_unlock(&map_lock);
    return len;
}

/* Frees live mapping p of len bytes: unlisted, credited, and kept (when keep) or unmapped. */
static void big_free(void *p, size_t len, bool keep_it) {
    size_t cap = keep_it ? retain_cap() : 0;
    bool keep = false;
    pthread_mutex_lock(&map_lock);
    for (size_t i = n_maps; i-- > 0;)
        if (maps[i].p == p) {
            maps[i] = maps[--n_maps];
            map_bytes -= len;
            break;
        }
    if (len <= cap) {
        /* room is made by unmapping the oldest kept ones */
        while (n_kept && (n_kept == RETAIN_MAX || kept_bytes + len > cap)) unmap_oldest();
        if (n_kept < RETAIN_MAX && kept_bytes + len <= cap) {
            kept[n_kept++] = (Mapping){p, len};
            kept_bytes += len;
            keep = true;
        }
    }
    pthread_mutex_unlock(&map_lock);
    credit(len);
    if (!keep) munmap(p, len);
}

/* Live mapping p of len bytes grown to hold bytes (more than len): moved by the kernel (no
 * copy; fresh memory for the new tail only), or NULL (p unchanged) when that fails. */
static void *big_realloc(void *p, size_t len, size_t bytes) {
#ifdef MREMAP_MAYMOVE
    if (bytes > SIZE_MAX / 2) return NULL;
    size_t grown = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (!charge(grown - len)) return NULL;
    void *m = mremap(p, len, grown, MREMAP_MAYMOVE);
    if (m == MAP_FAILED) {
        credit(grown - len);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    madvise(m, grown, MADV_HUGEPAGE);
#endif
    pthread_mutex_lock(&map_lock);
    for (size_t i = n_maps; i-- > 0;) {
        if (maps[i].p != p) continue;
        maps[i] = (Mapping){m, grown};
        map_bytes += grown - len;
        break;
    }
    pthread_mutex_unlock(&map_lock);
    return m;
#else
    (void)p, (void)len, (void)bytes;
    return NULL;
#endif
}

size_t rx_map_live(void) {
    pthread_mutex_lock(&map_lock);
    size_t b = map_bytes;
    pthread_mutex_unlock(&map_lock);
    return b;
}

void rx_map_drop_kept(void) { drop_kept(); }

size_t rx_map_kept(void) {
    pthread_mutex_lock(&map_lock);
    size_t b = kept_bytes;
    pthread_mutex_unlock(&map_lock);
    return b;
}
#endif

void *rx_malloc(size_t bytes) {
    if (bytes < RX_HUGE_MIN || bytes > SIZE_MAX - HUGE_PAGE) {
        if (over_limit(bytes)) return NULL;
        return charged(malloc(bytes ? bytes : 1));
    }
    return big_alloc((bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), false, true);
}

void *rx_calloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    if (bytes < RX_HUGE_MIN || bytes > SIZE_MAX - HUGE_PAGE) {
        if (over_limit(bytes)) return NULL;
        return charged(calloc(n ? n : 1, size ? size : 1));
    }
    return big_alloc((bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), true, true);
}

void rx_free(void *p) {
    if (!p) return;
    size_t len = big_len(p);
    if (len) {
        big_free(p, len, true);
        return;
    }
    credit(malloc_usable_size(p));
    free(p);
}

void *rx_realloc(void *p, size_t bytes) {
    if (!p) return rx_malloc(bytes);
    size_t len = big_len(p);
    if (len) {
        if (bytes <= len) return p;
        void *m = big_realloc(p, len, bytes);
        if (m) return m;
        void *q = rx_malloc(bytes);
        if (!q) return NULL;
        memcpy(q, p, len);
        rx_free(p);
        return q;
    }
    size_t have = malloc_usable_size(p);
    if (bytes < RX_HUGE_MIN || have >= bytes) {
        /* in place or by realloc's copy: charged by the change of usable size */
        if (bytes > have && over_limit(bytes - have)) return NULL;
        void *q = realloc(p, bytes ? bytes : 1);
        if (!q) return NULL;
        size_t now = malloc_usable_size(q);
        if (now >= have) charge_allocated(now - have);   /* may pass the limit by a little */
        else credit(have - now);
        return q;
    }
    /* a small buffer grown large moves into a mapping */
    void *q = rx_malloc(bytes);
    if (!q) return NULL;
    memcpy(q, p, have);
    rx_free(p);
    return q;
}

/* The kernels' buffers: never a kept mapping (a result sized for the most it can hold is touched
 * only where it is filled; a kept one is resident whole, which would raise a join's peak), and
 * unmapped when freed. */
void *rx_map_alloc(size_t bytes) {
    if (bytes < RX_HUGE_MIN || bytes > SIZE_MAX - HUGE_PAGE) return rx_malloc(bytes);
    return big_alloc((bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), false, false);
}

void *rx_map_calloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    if (bytes < RX_HUGE_MIN || bytes > SIZE_MAX - HUGE_PAGE) return rx_calloc(n, size);
    return big_alloc((bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), true, false);
}

void *rx_map_realloc(void *p, size_t bytes) { return rx_realloc(p, bytes); }

void rx_map_free(void *p) {
    if (!p) return;
    size_t len = big_len(p);
    if (len) big_free(p, len, false);
    else rx_free(p);
}
