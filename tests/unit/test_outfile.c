/*
 * test_outfile.c - files written whole (src/base/outfile.c) and the memory accountant
 * (src/base/util.c): an aborted or failed file leaves the old target and no temporary; a
 * committed one replaces it with the old mode; rx_same_file sees through spellings and links;
 * an allocation past the limit fails and is remembered, and rx_free credits memory back.
 */
#include "base/base.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static char dir[64];

static void put(const char *name, const char *text) {
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int same_text(const char *name, const char *text) {
    char p[256], buf[256] = {0};
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

static int entries(void) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    if (d) closedir(d);
    return n;
}

static void test_outfile(void) {
    char target[256], other[256];
    snprintf(target, sizeof target, "%s/t.csv", dir);
    put("t.csv", "old\n");
    chmod(target, 0640);
    RxError err;
    rx_error_clear(&err);

    /* abort: old contents, nothing else in the folder */
    RxOutFile *f = rx_outfile_open(target, &err);
    CHECK(f != NULL);
    CHECK(rx_outfile_write(f, "new\n", 4) == 0);
    CHECK(same_text("t.csv", "old\n"));
    rx_outfile_abort(f);
    CHECK(same_text("t.csv", "old\n"));
    CHECK(entries() == 1);

    /* a failed write: the commit fails, names the file and the OS error, removes the temporary */
    f = rx_outfile_open(target, &err);
    CHECK(f != NULL);
    rx_outfile_write(f, "half", 4);
    rx_outfile_fail(f, ENOSPC);
    CHECK(rx_outfile_commit(f, &err) == -1);
    CHECK(err.code == RX_EIO);
    CHECK(strstr(err.msg, "t.csv") != NULL);
    CHECK(strstr(err.msg, strerror(ENOSPC)) != NULL);
    CHECK(same_text("t.csv", "old\n"));
    CHECK(entries() == 1);

    /* commit: the new contents, the old mode, nothing else */
    rx_error_clear(&err);
    f = rx_outfile_open(target, &err);
    CHECK(f != NULL);
    CHECK(rx_outfile_write(f, "new\n", 4) == 0);
    CHECK(rx_outfile_commit(f, &err) == 0);
    CHECK(same_text("t.csv", "new\n"));
    struct stat st;
    CHECK(stat(target, &st) == 0 && (st.st_mode & 07777) == 0640);
    CHECK(entries() == 1);

    /* a missing folder: an error naming the path */
    snprintf(other, sizeof other, "%s/no/such/x.csv", dir);
    rx_error_clear(&err);
    CHECK(rx_outfile_open(other, &err) == NULL);
    CHECK(strstr(err.msg, "no/such/x.csv") != NULL);

    /* the same file under other names */
    char dot[256], hard[256], sym[256], fresh1[256], fresh2[256];
    snprintf(dot, sizeof dot, "%s/./t.csv", dir);
    snprintf(hard, sizeof hard, "%s/h.csv", dir);
    snprintf(sym, sizeof sym, "%s/s.csv", dir);
    snprintf(fresh1, sizeof fresh1, "%s/new.csv", dir);
    snprintf(fresh2, sizeof fresh2, "%s/../%s/new.csv", dir, strrchr(dir, '/') + 1);
    CHECK(link(target, hard) == 0);
    CHECK(symlink("t.csv", sym) == 0);
    CHECK(rx_same_file(target, dot) == 1);
    CHECK(rx_same_file(target, hard) == 1);
    CHECK(rx_same_file(sym, target) == 1);
    CHECK(rx_same_file(fresh1, fresh2) == 1);
    CHECK(rx_same_file(target, fresh1) == 0);

    /* through a symbolic link the file it names is replaced, and the link stays */
    f = rx_outfile_open(sym, &err);
    CHECK(f != NULL);
    rx_outfile_write(f, "via\n", 4);
    CHECK(rx_outfile_commit(f, &err) == 0);
    CHECK(same_text("t.csv", "via\n"));
    CHECK(lstat(sym, &st) == 0 && S_ISLNK(st.st_mode));
    unlink(hard);
    unlink(sym);
    unlink(target);
}

/* The flush in the background (rx_outfile_sync_every): a file written in steps is flushed
 * while it is written, and its bytes are exactly those written; with the flush off, or into a
 * target written in place, nothing is flushed early. */
static void test_background_sync(void) {
    char target[256], text[1000];
    snprintf(target, sizeof target, "%s/big.csv", dir);
    for (int i = 0; i < 1000; i++) text[i] = (char)('a' + i % 26);
    RxError err;
    rx_error_clear(&err);
    for (int on = 0; on <= 1; on++) {
        RxOutFile *f = rx_outfile_open(target, &err);
        CHECK(f != NULL);
        if (!f) return;
        rx_outfile_sync_every(f, on ? 4096 : 0);
        for (int i = 0; i < 200; i++) CHECK(rx_outfile_write(f, text, sizeof text) == 0);
        /* the thread flushes on its own time: wait for it, at most 10 s */
        uint64_t synced = rx_outfile_synced(f);
        for (int t = 0; on && synced == 0 && t < 1000; t++) {
            usleep(10000);
            synced = rx_outfile_synced(f);
        }
        CHECK(on ? synced >= 4096 && synced <= 200 * sizeof text : synced == 0);
        CHECK(rx_outfile_commit(f, &err) == 0);
        FILE *in = fopen(target, "r");
        size_t n = 0, bad = 0;
        char buf[1000];
        for (size_t k; in && (k = fread(buf, 1, sizeof buf, in)) > 0; n += k)
            bad += k != sizeof buf || memcmp(buf, text, k) != 0;
        if (in) fclose(in);
        CHECK(n == 200 * sizeof text && bad == 0);
        CHECK(entries() == 1);
    }
    unlink(target);
    /* in place (not a regular file): no flush */
    RxOutFile *f = rx_outfile_open("/dev/null", &err);
    CHECK(f != NULL);
    if (!f) return;
    rx_outfile_sync_every(f, 1);
    for (int i = 0; i < 10; i++) CHECK(rx_outfile_write(f, text, sizeof text) == 0);
    CHECK(rx_outfile_synced(f) == 0);
    CHECK(rx_outfile_commit(f, &err) == 0);
}

static void test_accountant(void) {
    size_t base = rx_memory_used();
    void *p = rx_malloc(8 << 20);
    CHECK(p != NULL);
    CHECK(rx_memory_used() >= base + (8 << 20));
    rx_free(p);
    CHECK(rx_memory_used() == base);
    void *m = rx_map_alloc(8 << 20);
    CHECK(m != NULL);
    m = rx_map_realloc(m, 16 << 20);
    CHECK(m != NULL && rx_memory_used() >= base + (16 << 20));
    rx_map_free(m);
    CHECK(rx_memory_used() == base);

    rx_set_memory_limit(base + (4 << 20));
    CHECK(!rx_memory_limit_hit(false));
    CHECK(rx_malloc(8 << 20) == NULL);
    CHECK(rx_memory_limit_hit(true));
    CHECK(!rx_memory_limit_hit(false));
    CHECK(rx_map_calloc(8 << 20, 1) == NULL);
    CHECK(rx_memory_limit_hit(true));
    void *small = rx_calloc(1 << 20, 1);
    CHECK(small != NULL);
    void *grown = rx_realloc(small, 16 << 20);
    CHECK(grown == NULL);   /* small is still valid */
    rx_free(small);
    rx_set_memory_limit(0);
    CHECK(rx_memory_used() == base);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/relix-outfile-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    test_outfile();
    test_background_sync();
    test_accountant();
    rmdir(dir);
    return check_report("test_outfile");
}
