/*
 * test_input.c - unit tests of the input layer (src/io/input.c): blocks of every size give the
 * file's bytes; gzip (one member or several) and zstd decompress to them; cut-short and
 * corrupt compressed data, other compressed formats, and a regular file that shrinks between
 * opening and reading are errors naming the file; standard input once taken cannot be read.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "check.h"
#include "io/input.h"

static char dir[64];

static const char *put(const char *name, const void *data, size_t n) {
    static char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return path;
    fwrite(data, 1, n, f);
    fclose(f);
    return path;
}

/* Reads all of path in blocks of cap bytes into *out (malloc'd); its length, or -1 with err. */
static long slurp(const char *path, size_t cap, char **out, RxError *err) {
    Input *in;
    *out = NULL;
    memset(err, 0, sizeof *err);
    if (input_open(path, &in, err) < 0) return -1;
    size_t len = 0, size = 1 << 16;
    char *buf = malloc(size);
    for (;;) {
        while (size - len < cap) buf = realloc(buf, size *= 2);
        long k = input_read(in, buf + len, cap, err);
        if (k < 0) {
            free(buf);
            input_close(in);
            return -1;
        }
        if (k == 0) break;
        len += (size_t)k;
    }
    input_close(in);
    *out = buf;
    return (long)len;
}

static size_t gzip_of(const char *src, size_t n, unsigned char *dst, size_t cap) {
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)(uintptr_t)src;
    z.avail_in = (unsigned)n;
    z.next_out = dst;
    z.avail_out = (unsigned)cap;
    deflate(&z, Z_FINISH);
    size_t out = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* Text of n bytes: CSV rows with numbers, so it compresses but not to nothing. */
static char *sample(size_t n) {
    char *s = malloc(n + 1);
    size_t k = 0;
    for (unsigned i = 0; k < n; i++) {
        char row[64];
        int m = snprintf(row, sizeof row, "%u,name-%u,%u.%u\n", i, i * 7919u % 1000, i, i % 97);
        for (int j = 0; j < m && k < n; j++) s[k++] = row[j];
    }
    s[n] = 0;
    return s;
}

static void test_plain_blocks(void) {
    char *text = sample(300000);
    const char *path = put("plain.csv", text, 300000);
    size_t caps[] = {1, 2, 7, 64, 4096, 1 << 20};
    for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
        char *got;
        RxError e;
        long n = slurp(path, caps[i], &got, &e);
        CHECK(n == 300000);
        CHECK(n == 300000 && memcmp(got, text, 300000) == 0);
        free(got);
    }
    /* an empty file and a file shorter than the bytes read ahead to recognise it */
    char *got;
    RxError e;
    CHECK(slurp(put("empty.csv", "", 0), 16, &got, &e) == 0);
    free(got);
    CHECK(slurp(put("short.csv", "a\n", 2), 16, &got, &e) == 2 && memcmp(got, "a\n", 2) == 0);
    free(got);
    free(text);
}

static void test_gzip(void) {
    size_t n = 500000;
    char *text = sample(n);
    size_t cap = n + 1024;
    unsigned char *gz = malloc(2 * cap);
    size_t g = gzip_of(text, n / 2, gz, cap);
    size_t g2 = gzip_of(text + n / 2, n - n / 2, gz + g, cap);  /* a second member */
    const char *path = put("t.csv.gz", gz, g + g2);
    size_t caps[] = {1, 3, 4096, 1 << 20};
    for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
        char *got;
        RxError e;
        long k = slurp(path, caps[i], &got, &e);
        CHECK(k == (long)n && memcmp(got, text, n) == 0);
        free(got);
    }
    /* by its bytes, whatever its name */
    char *got;
    RxError e;
    CHECK(slurp(put("gz-named-plain.csv", gz, g + g2), 4096, &got, &e) == (long)n);
    free(got);
    /* cut short: an error naming the file */
    CHECK(slurp(put("cut.csv.gz", gz, g / 2), 4096, &got, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "cut.csv.gz") && strstr(e.msg, "cut short"));
    /* corrupt in the middle */
    gz[g / 2] ^= 0x55;
    gz[g / 2 + 1] ^= 0xAA;
    CHECK(slurp(put("bad.csv.gz", gz, g), 4096, &got, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "bad.csv.gz") &&
          (strstr(e.msg, "corrupt gzip") || strstr(e.msg, "cut short")));
    free(gz);
    free(text);
}

static void test_zstd(void) {
    size_t n = 700000;
    char *text = sample(n);
    size_t cap = ZSTD_compressBound(n);
    char *z = malloc(2 * cap);
    size_t c1 = ZSTD_compress(z, cap, text, n, 3);
    CHECK(!ZSTD_isError(c1));
    size_t c2 = ZSTD_compress(z + c1, cap, text, 1000, 3);  /* a second frame */
    const char *path = put("t.csv.zst", z, c1 + c2);
    size_t caps[] = {1, 5, 4096, 1 << 20};
    for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
        char *got;
        RxError e;
        long k = slurp(path, caps[i], &got, &e);
        CHECK(k == (long)(n + 1000) && memcmp(got, text, n) == 0 &&
              memcmp(got + n, text, 1000) == 0);
        free(got);
    }
    char *got;
    RxError e;
    CHECK(slurp(put("cut.csv.zst", z, c1 - 10), 4096, &got, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "cut.csv.zst") && strstr(e.msg, "cut short"));
    z[c1 / 2] ^= 0x5A;
    CHECK(slurp(put("bad.csv.zst", z, c1), 4096, &got, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "bad.csv.zst") &&
          (strstr(e.msg, "corrupt zstd") || strstr(e.msg, "cut short")));
    free(z);
    free(text);
}

static void test_other_formats(void) {
    char *got;
    RxError e;
    CHECK(slurp(put("t.csv.bz2", "BZh91AY&SY", 10), 4096, &got, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "t.csv.bz2") && strstr(e.msg, "bzip2"));
    CHECK(slurp(put("t.csv.xz", "\xFD" "7zXZ\0\0\0", 8), 4096, &got, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "xz-compressed"));
    CHECK(slurp(put("plain.gz", "id\n1\n", 5), 4096, &got, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "plain.gz") && strstr(e.msg, "corrupt"));
    CHECK(slurp(dir, 4096, &got, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "directory"));
}

/* A regular file truncated after it was opened: an error naming the file, never the bytes
 * that are left passed on as if they were all. */
static void test_shrinks(void) {
    char *text = sample(100000);
    const char *path = put("shrinks.csv", text, 100000);
    Input *in;
    RxError e;
    memset(&e, 0, sizeof e);
    CHECK(input_open(path, &in, &e) == 0);
    CHECK(input_size_hint(in) == 100000);
    CHECK(truncate(path, 5000) == 0);
    char *buf = malloc(200000);
    size_t len = 0;
    long k;
    while ((k = input_read(in, buf + len, 4096, &e)) > 0) len += (size_t)k;
    CHECK(k == -1 && len == 5000);
    CHECK(e.code == RX_EIO && strstr(e.msg, "shrinks.csv") && strstr(e.msg, "shrank"));
    input_close(in);
    free(buf);
    free(text);
}

/* A plain file of 20 MB read in parts on threads: its bytes, then input_read goes on after
 * them (nothing, or what was appended since it was opened); one truncated after it was opened
 * is the same error as input_read's; other inputs are left to input_read (0). */
static void test_parallel(void) {
    const size_t n = 20 << 20;
    char *text = sample(n);
    char *buf = malloc(n + 4096);
    RxError e;
    for (int threads = 2; threads <= 5; threads += 3) {
        for (int change = 0; change < 3; change++) {   /* none, appended, truncated */
            const char *path = put("par.csv", text, n);
            Input *in;
            memset(&e, 0, sizeof e);
            CHECK(input_open(path, &in, &e) == 0);
            if (change == 1) {
                FILE *f = fopen(path, "ab");
                fputs("more,rows\n", f);
                fclose(f);
            }
            if (change == 2) CHECK(truncate(path, 12345678) == 0);
            memset(buf, 0, n);
            long k = input_read_parallel(in, buf, n + 4096, threads, &e);
            if (change == 2) {
                CHECK(k == -1 && e.code == RX_EIO && strstr(e.msg, "par.csv") &&
                      strstr(e.msg, "shrank") && strstr(e.msg, "ended after 12345678 of"));
            } else {
                CHECK(k == (long)n && memcmp(buf, text, n) == 0);
                size_t len = (size_t)k;
                while ((k = input_read(in, buf + len, n + 4096 - len, &e)) > 0) len += (size_t)k;
                CHECK(k == 0);
                CHECK(len == n + (change == 1 ? 10 : 0));
                if (change == 1) CHECK(memcmp(buf + n, "more,rows\n", 10) == 0);
            }
            input_close(in);
        }
    }
    /* not for it: one thread, a buffer too small, a small file, compressed data */
    Input *in;
    const char *path = put("par.csv", text, n);
    CHECK(input_open(path, &in, &e) == 0);
    CHECK(input_read_parallel(in, buf, n + 4096, 1, &e) == 0);
    CHECK(input_read_parallel(in, buf, n - 1, 2, &e) == 0);
    input_close(in);
    path = put("small.csv", text, 1 << 20);
    CHECK(input_open(path, &in, &e) == 0);
    CHECK(input_read_parallel(in, buf, n, 2, &e) == 0);
    input_close(in);
    free(buf);
    free(text);
}

static void test_stdin_taken(void) {
    Input *in;
    RxError e;
    memset(&e, 0, sizeof e);
    input_stdin_taken("the script");
    CHECK(input_open("-", &in, &e) == -1);
    CHECK(e.code == RX_EIO && strstr(e.msg, "standard input") && strstr(e.msg, "the script"));
    input_stdin_taken(NULL);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/rx_input_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_plain_blocks();
    test_gzip();
    test_zstd();
    test_other_formats();
    test_shrinks();
    test_parallel();
    test_stdin_taken();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
    return check_report("input");
}
