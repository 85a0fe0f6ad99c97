/*
 * tempfile.c - see tempfile.h. The directories are listed in a fixed array of path strings that
 * a signal handler reads with atomic loads (as outfile.c lists its temporaries), so that the
 * handler needs nothing but rmdir(2).
 */
#define _GNU_SOURCE   /* O_TMPFILE */
#include "base/tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct RxTempDir {
    char *path;
    int slot;            /* the signal list's slot, or -1 */
    uint64_t written;    /* bytes written into its files */
};

#define MAX_DIRS 64
static char *dir_list[MAX_DIRS];   /* read by the handler with atomic loads */
static pthread_mutex_t dir_lock = PTHREAD_MUTEX_INITIALIZER;
static bool exit_hooked;
static uint64_t fail_after, total_written;   /* the test hook; bytes written by the process */
static int fail_errno;

void rx_tempdir_signal_cleanup(void) {
    for (int i = 0; i < MAX_DIRS; i++) {
        char *p = __atomic_load_n(&dir_list[i], __ATOMIC_ACQUIRE);
        if (p) rmdir(p);
    }
}

static void at_exit(void) { rx_tempdir_signal_cleanup(); }

static int list_dir(char *path) {
    pthread_mutex_lock(&dir_lock);
    if (!exit_hooked) exit_hooked = atexit(at_exit) == 0;
    int slot = -1;
    for (int i = 0; i < MAX_DIRS && slot < 0; i++)
        if (!__atomic_load_n(&dir_list[i], __ATOMIC_ACQUIRE)) {
            __atomic_store_n(&dir_list[i], path, __ATOMIC_RELEASE);
            slot = i;
        }
    pthread_mutex_unlock(&dir_lock);
    return slot;
}

const char *rx_temp_base_default(void) {
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

RxTempDir *rx_tempdir_open(const char *base, RxError *err) {
    if (!base || !*base) base = rx_temp_base_default();
    RxTempDir *d = calloc(1, sizeof *d);
    size_t cap = strlen(base) + 32;
    char *path = malloc(cap);
    if (!d || !path) {
        free(d), free(path);
        rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return NULL;
    }
    snprintf(path, cap, "%s%srelix-XXXXXX", base, base[strlen(base) - 1] == '/' ? "" : "/");
    if (!mkdtemp(path)) {   /* mkdtemp creates it 0700 */
        int e = errno;
        free(d), free(path);
        rx_error(err, e == ENOMEM ? RX_ENOMEM : RX_EIO, NULL, rx_span(0, 0),
                 "cannot make a temporary directory in '%s': %s", base, strerror(e));
        rx_error_hint(err, "choose a writable directory with --temp-dir DIR");
        return NULL;
    }
    d->path = path;
    d->slot = list_dir(path);
    return d;
}

void rx_tempdir_close(RxTempDir *d) {
    if (!d) return;
    if (d->slot >= 0) __atomic_store_n(&dir_list[d->slot], NULL, __ATOMIC_RELEASE);
    rmdir(d->path);
    free(d->path);
    free(d);
}

const char *rx_tempdir_path(const RxTempDir *d) { return d->path; }
uint64_t rx_tempdir_written(const RxTempDir *d) { return d->written; }

int rx_tempfile_open(RxTempDir *d, RxError *err) {
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(d->path, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) {
        /* no O_TMPFILE here (the file system or the kernel): a name, removed at once */
        static unsigned long counter;
        char name[4096];
        unsigned long n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
        snprintf(name, sizeof name, "%s/spill-%lu", d->path, n);
        fd = open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
        if (fd >= 0) unlink(name);
    }
    if (fd < 0)
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot create a temporary file in '%s': %s", d->path,
                        strerror(errno));
    return fd;
}

static int write_error(RxTempDir *d, int e, RxError *err) {
    char amount[16];
    rx_format_bytes(amount, sizeof amount, d->written);
    if (e == ENOSPC || e == EDQUOT)
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0),
                        "the temporary directory %s is full (wrote %s): free space or choose another with --temp-dir",
                        d->path, amount);
    if (e == EFBIG)
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0),
                        "a temporary file in %s reached the file size limit (wrote %s): raise it (ulimit -f) or give the join more memory",
                        d->path, amount);
    return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot write a temporary file in %s (wrote %s): %s", d->path,
                    amount, strerror(e));
}

int rx_temp_write(RxTempDir *d, int fd, off_t off, const void *p, size_t n, RxError *err) {
    const char *c = p;
    while (n > 0) {
        size_t part = n > ((size_t)1 << 30) ? (size_t)1 << 30 : n;
        uint64_t limit = __atomic_load_n(&fail_after, __ATOMIC_RELAXED);
        if (limit && __atomic_load_n(&total_written, __ATOMIC_RELAXED) + part > limit)
            return write_error(d, fail_errno, err);
        ssize_t w = pwrite(fd, c, part, off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return write_error(d, w < 0 ? errno : ENOSPC, err);
        c += w, n -= (size_t)w, off += w;
        d->written += (uint64_t)w;
        __atomic_add_fetch(&total_written, (uint64_t)w, __ATOMIC_RELAXED);
    }
    return 0;
}

int rx_temp_read(RxTempDir *d, int fd, off_t off, void *p, size_t n, RxError *err) {
    char *c = p;
    while (n > 0) {
        ssize_t r = pread(fd, c, n, off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot read a temporary file in %s: %s", d->path,
                            r < 0 ? strerror(errno) : "it is shorter than what was written");
        c += r, n -= (size_t)r, off += r;
    }
    return 0;
}

void rx_temp_fail_after(uint64_t bytes, int e) {
    __atomic_store_n(&total_written, 0, __ATOMIC_RELAXED);
    fail_errno = e;
    __atomic_store_n(&fail_after, e ? bytes : 0, __ATOMIC_RELAXED);
}
