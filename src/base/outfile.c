/*
 * outfile.c - the one way Relix writes a file: whole or not at all (base.h, docs/files.md).
 *
 * Every file the engine or the command writes (query ... into csv(...), -o, --report) goes
 * through here:
 *
 *   1. rx_outfile_open resolves the target (a symbolic link is followed, so that the file it
 *      names is replaced and the link stays) and creates a temporary in the target's folder:
 *      an unnamed O_TMPFILE where the file system has one, else a hidden name
 *      ".NAME.relix-PID-N.tmp" created with O_EXCL and listed for the signal handler. Its mode
 *      is the old file's when it replaces one, else 0666 less the umask.
 *   2. rx_outfile_write appends; the first failure (ENOSPC, EFBIG, EIO) is kept, later writes
 *      do nothing. Once a file has grown by SYNC_STEP bytes, a thread of its own flushes what
 *      is written so far to the disk (fdatasync) while the writer goes on, and again after each
 *      further SYNC_STEP (an optimisation: the commit's fsync then waits for the last step
 *      only, instead of for the whole file after every byte is formatted). A failed background
 *      flush is kept as a failed write is: the commit reports it, since the fsync after it
 *      might not (the kernel reports a lost page once).
 *   3. rx_outfile_commit writes nothing on a failed file; otherwise fsyncs it, gives it a name
 *      (the unnamed one is linked under a hidden name first), renames it over the target and
 *      fsyncs the folder. Until the rename the old target is untouched; a reader that has the
 *      old file open or mapped keeps the old bytes (the old inode lives on).
 *   4. rx_outfile_abort (and a failed commit) removes the temporary.
 *
 * A target that exists and is not a regular file (/dev/null, /dev/stdout, a FIFO) cannot be
 * replaced by rename: it is opened and written in place, as a shell's > would; so is a
 * symbolic link that realpath cannot resolve (a magic /proc link, a dangling link), so that a
 * link is never replaced.
 *
 * rx_outfile_signal_cleanup, for a SIGINT or SIGTERM handler, unlinks every named temporary
 * listed at the time with nothing but unlink(2), so it is async-signal-safe. Unnamed
 * temporaries need no cleanup: the kernel drops them when the process ends, even by SIGKILL.
 */
#define _GNU_SOURCE   /* O_TMPFILE, linkat */
#include "base/base.h"
#include "base/tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct RxOutFile {
    char *target;     /* the path renamed over (a symbolic link resolved) */
    char *dir;        /* its folder, for the temporary and the folder's fsync */
    char *temp;       /* the named temporary, or NULL (unnamed, or written in place) */
    int fd;
    int slot;         /* the signal list's slot of temp, or -1 */
    int err;          /* the first errno of a failed write, or 0 */
    bool in_place;    /* not a regular file: written directly, nothing renamed */
    bool unnamed;     /* an O_TMPFILE that still needs a name */
    bool keep_mode;   /* replaces a file whose mode is mode */
    mode_t mode;
    /* The background flush (sync_main): started once written reaches sync_every. */
    size_t sync_every;   /* 0: never */
    uint64_t written;    /* bytes written so far (the writer's) */
    uint64_t asked;      /* written when the writer last asked for a flush (under mu) */
    uint64_t synced;     /* bytes known flushed by the thread (under mu) */
    int sync_err;        /* the first errno of a failed flush, or 0 (under mu) */
    bool syncing;        /* the thread runs */
    bool sync_stop;      /* under mu: the thread ends after its current flush */
    pthread_t sync_thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

/* Bytes between two background flushes (an optimisation, see step 2 above). */
#define SYNC_STEP ((size_t)32 << 20)

/* ---- the temporaries a signal handler removes ----------------------------------------------- */

#define MAX_TEMPS 64

static char *temp_list[MAX_TEMPS];   /* read by the handler with atomic loads */
static pthread_mutex_t temp_lock = PTHREAD_MUTEX_INITIALIZER;

/* Lists path (which the caller keeps alive until unlist) and returns its slot, or -1 when the
 * list is full. */
static int list_temp(char *path) {
    int slot = -1;
    pthread_mutex_lock(&temp_lock);
    for (int i = 0; i < MAX_TEMPS && slot < 0; i++)
        if (!__atomic_load_n(&temp_list[i], __ATOMIC_ACQUIRE)) {
            __atomic_store_n(&temp_list[i], path, __ATOMIC_RELEASE);
            slot = i;
        }
    pthread_mutex_unlock(&temp_lock);
    return slot;
}

static void unlist_temp(int slot) {
    if (slot >= 0) __atomic_store_n(&temp_list[slot], NULL, __ATOMIC_RELEASE);
}

void rx_outfile_signal_cleanup(void) {
    for (int i = 0; i < MAX_TEMPS; i++) {
        char *p = __atomic_load_n(&temp_list[i], __ATOMIC_ACQUIRE);
        if (p) unlink(p);
    }
    rx_tempdir_signal_cleanup();   /* the spilling operators' directories (tempfile.h) */
}

/* ---- helpers -------------------------------------------------------------------------------- */

static int fail_errno(RxError *err, const char *path, int e) {
    return rx_error(err, e == ENOMEM ? RX_ENOMEM : RX_EIO, NULL, rx_span(0, 0), "cannot write '%s': %s",
                    path, strerror(e));
}

/* A new hidden name beside the target: DIR/.BASE.relix-PID-N.tmp (malloc'd). */
static char *temp_name(const RxOutFile *f) {
    static unsigned long counter;
    unsigned long n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
    const char *slash = strrchr(f->target, '/');
    const char *base = slash ? slash + 1 : f->target;
    size_t cap = strlen(f->dir) + strlen(base) + 64;
    char *p = malloc(cap);
    if (p) snprintf(p, cap, "%s/.%s.relix-%ld-%lu.tmp", f->dir, base, (long)getpid(), n);
    return p;
}

static void free_outfile(RxOutFile *f) {
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv);
    free(f->target);
    free(f->dir);
    free(f->temp);
    free(f);
}

/* Removes a named temporary (listed or not) and forgets it. */
static void drop_temp(RxOutFile *f) {
    if (!f->temp) return;
    unlink(f->temp);
    unlist_temp(f->slot);
    f->slot = -1;
    free(f->temp);
    f->temp = NULL;
}

/* Creates a hidden named temporary with O_EXCL, listed for the signal handler. -1 with errno. */
static int create_named(RxOutFile *f) {
    for (int tries = 0; tries < 100; tries++) {
        char *name = temp_name(f);
        if (!name) {
            errno = ENOMEM;
            return -1;
        }
        int slot = list_temp(name);
        if (slot < 0) {
            free(name);
            errno = EMFILE;
            return -1;
        }
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            f->fd = fd;
            f->temp = name;
            f->slot = slot;
            return 0;
        }
        int e = errno;
        unlist_temp(slot);
        free(name);
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

/* ---- the background flush ------------------------------------------------------------------- */

/* The flushing thread: fdatasyncs f whenever the writer has asked for more than is flushed,
 * until told to stop; the first failure is kept in sync_err and ends the flushing. */
static void *sync_main(void *arg) {
    RxOutFile *f = arg;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        while (!f->sync_stop && f->asked <= f->synced) pthread_cond_wait(&f->cv, &f->mu);
        if (f->sync_stop) break;
        uint64_t upto = f->asked;
        pthread_mutex_unlock(&f->mu);
        int e = fdatasync(f->fd) == 0 ? 0 : errno;
        pthread_mutex_lock(&f->mu);
        if (e) {
            __atomic_store_n(&f->sync_err, e, __ATOMIC_RELAXED);   /* the writer peeks at it */
            break;
        }
        f->synced = upto;
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* After a write: asks the flushing thread (started on first need) to flush once another
 * sync_every bytes are written. A thread that cannot be started only means no early flush. */
static void ask_sync(RxOutFile *f) {
    if (!f->sync_every || f->in_place || f->written - f->asked < f->sync_every) return;
    pthread_mutex_lock(&f->mu);
    f->asked = f->written;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
    if (!f->syncing) {
        if (pthread_create(&f->sync_thread, NULL, sync_main, f) == 0) f->syncing = true;
        else f->sync_every = 0;
    }
}

/* Ends the flushing thread (waiting for its current flush); returns its failure's errno or 0. */
static int stop_sync(RxOutFile *f) {
    if (!f->syncing) return 0;
    pthread_mutex_lock(&f->mu);
    f->sync_stop = true;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->sync_thread, NULL);
    f->syncing = false;
    return f->sync_err;
}

void rx_outfile_sync_every(RxOutFile *f, size_t bytes) {
    if (f) f->sync_every = bytes;
}

uint64_t rx_outfile_synced(RxOutFile *f) {
    if (!f) return 0;
    pthread_mutex_lock(&f->mu);
    uint64_t n = f->synced;
    pthread_mutex_unlock(&f->mu);
    return n;
}

/* ---- the interface -------------------------------------------------------------------------- */

RxOutFile *rx_outfile_open(const char *path, RxError *err) {
    if (!path || !*path) {
        rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot write a file without a name");
        return NULL;
    }
    RxOutFile *f = calloc(1, sizeof *f);
    if (!f) {
        fail_errno(err, path, ENOMEM);
        return NULL;
    }
    f->fd = -1;
    f->slot = -1;
    f->sync_every = SYNC_STEP;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
    struct stat st;
    bool unresolved = false;   /* a link realpath cannot follow (/dev/stdout to a pipe, dangling) */
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        f->target = realpath(path, NULL);
        unresolved = !f->target;
    }
    if (!f->target) f->target = strdup(path);
    if (!f->target) goto oom;
    if (unresolved) {
        /* never rename over a link: write through it, as a shell's > would */
        f->in_place = true;
        f->fd = open(f->target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (f->fd < 0) {
            fail_errno(err, path, errno);
            free_outfile(f);
            return NULL;
        }
        return f;
    }
    if (stat(f->target, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fail_errno(err, path, EISDIR);
            free_outfile(f);
            return NULL;
        }
        if (!S_ISREG(st.st_mode)) {
            f->in_place = true;
            f->fd = open(f->target, O_WRONLY | O_TRUNC | O_CLOEXEC);
            if (f->fd < 0) {
                fail_errno(err, path, errno);
                free_outfile(f);
                return NULL;
            }
            return f;
        }
        f->keep_mode = true;
        f->mode = st.st_mode & 07777;
    }
    const char *slash = strrchr(f->target, '/');
    if (!slash) f->dir = strdup(".");
    else if (slash == f->target) f->dir = strdup("/");
    else f->dir = strndup(f->target, (size_t)(slash - f->target));
    if (!f->dir) goto oom;
#ifdef O_TMPFILE
    /* the unnamed temporary needs /proc to be given a name at commit */
    if (access("/proc/self/fd", X_OK) == 0) {
        f->fd = open(f->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
        if (f->fd >= 0) f->unnamed = true;
    }
#endif
    if (f->fd < 0 && create_named(f) < 0) {
        fail_errno(err, path, errno);
        free_outfile(f);
        return NULL;
    }
    if (f->keep_mode && fchmod(f->fd, f->mode) != 0) {
        /* not the owner: the new file keeps the umask's mode, which is still safe */
    }
    return f;
oom:
    fail_errno(err, path, ENOMEM);
    free_outfile(f);
    return NULL;
}

int rx_outfile_fd(const RxOutFile *f) { return f->fd; }

int rx_outfile_write(void *ud, const char *p, size_t n) {
    RxOutFile *f = ud;
    if (f->err) return -1;
    while (n > 0) {
        ssize_t k = write(f->fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            f->err = errno;
            return -1;
        }
        if (k == 0) {
            f->err = EIO;
            return -1;
        }
        p += k;
        n -= (size_t)k;
        f->written += (uint64_t)k;
    }
    ask_sync(f);
    if (f->syncing && __atomic_load_n(&f->sync_err, __ATOMIC_RELAXED)) {
        f->err = stop_sync(f);
        return -1;
    }
    return 0;
}

void rx_outfile_fail(RxOutFile *f, int e) {
    if (f && !f->err) f->err = e ? e : EIO;
}

void rx_outfile_abort(RxOutFile *f) {
    if (!f) return;
    stop_sync(f);
    if (f->fd >= 0) close(f->fd);
    drop_temp(f);
    free_outfile(f);
}

/* Makes the folder's new entry durable; folders that cannot be fsync'ed (EINVAL) are fine. */
static int sync_dir(const char *dir) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno == EACCES ? 0 : -1;
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    if (rc != 0 && e != EINVAL) {
        errno = e;
        return -1;
    }
    return 0;
}

int rx_outfile_commit(RxOutFile *f, RxError *err) {
    if (!f) return 0;
    int e = f->err;
    int se = stop_sync(f);
    if (!e) e = se;
    if (f->in_place) {
        if (!e && close(f->fd) != 0) e = errno;
        else if (e) close(f->fd);
        f->fd = -1;
    } else {
        if (!e && fsync(f->fd) != 0) e = errno;
        if (!e && f->unnamed) {
            /* an unnamed file gets a hidden name first: linkat cannot replace the target */
            char proc[64];
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", f->fd);
            for (int tries = 0; !e; tries++) {
                char *name = temp_name(f);
                int slot = name ? list_temp(name) : -1;
                if (slot < 0) {
                    free(name);
                    e = name ? EMFILE : ENOMEM;
                    break;
                }
                if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) {
                    f->temp = name;
                    f->slot = slot;
                    break;
                }
                int le = errno;
                unlist_temp(slot);
                free(name);
                if (le != EEXIST || tries >= 100) e = le;
            }
        }
        if (close(f->fd) != 0 && !e) e = errno;
        f->fd = -1;
        if (!e && rename(f->temp, f->target) != 0) e = errno;
        if (!e) {
            unlist_temp(f->slot);
            f->slot = -1;
            free(f->temp);
            f->temp = NULL;
            if (sync_dir(f->dir) != 0) e = errno;
        }
    }
    if (e) {
        fail_errno(err, f->target, e);
        rx_outfile_abort(f);
        return -1;
    }
    free_outfile(f);
    return 0;
}

int rx_same_file(const char *a, const char *b) {
    if (!a || !b) return 0;
    if (strcmp(a, b) == 0) return 1;
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* one does not exist yet: the same folder entry under two spellings ("x", "./x") */
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
    int same = 0;
    if (!ra && !rb) {
        /* neither exists: compare their folders and last names */
        const char *na = strrchr(a, '/'), *nb = strrchr(b, '/');
        const char *ba = na ? na + 1 : a, *bb = nb ? nb + 1 : b;
        if (strcmp(ba, bb) == 0) {
            char *da = na ? strndup(a, (size_t)(na - a + 1)) : strdup(".");
            char *db = nb ? strndup(b, (size_t)(nb - b + 1)) : strdup(".");
            char *rda = da ? realpath(da, NULL) : NULL, *rdb = db ? realpath(db, NULL) : NULL;
            same = rda && rdb && strcmp(rda, rdb) == 0;
            free(da), free(db), free(rda), free(rdb);
        }
    }
    free(ra), free(rb);
    return same;
}
