/*
 * input.c - reads an input file block by block, decompressing gzip and zstd (input.h).
 *
 * The raw bytes come from read() on the file descriptor, after the few bytes read ahead to
 * recognise the format (head). A decoder keeps one block of compressed bytes (IN_BLOCK) and
 * writes what it decodes straight into the caller's buffer, so memory does not depend on the
 * size of the file.
 */
#include "io/input.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

enum { IN_BLOCK = 256 << 10, HEAD = 6 };

struct Input {
    char *path;              /* for messages */
    int fd;
    bool is_stdin;
    bool regular;            /* a regular file: it must deliver size bytes */
    size_t size;             /* fstat's size of a regular file */
    uint64_t raw_read;       /* bytes read from fd (the head included) */
    bool raw_eof;
    unsigned char head[HEAD];
    size_t head_len, head_pos;
    InputCodec codec;
    bool done;               /* the decoded data has ended */
    unsigned char *ibuf;     /* compressed bytes [ipos, ilen) not yet decoded */
    size_t ipos, ilen;
    z_stream z;
    bool z_live;             /* inflateInit2 succeeded */
    bool z_member_end;       /* the last gzip member ended: more data must start a new one */
    ZSTD_DStream *zs;
    size_t zs_last;          /* the last ZSTD_decompressStream result: 0 when a frame ended */
};

static const char *stdin_taken_by;
static bool stdin_opened;

void input_stdin_taken(const char *by) { stdin_taken_by = by; }

static int in_error(const Input *in, RxError *err, const char *fmt, const char *detail) {
    return rx_error(err, RX_EIO, NULL, rx_span(0, 0), fmt, in->path, detail);
}

/* Reads up to cap raw bytes: the head first, then the file. 0 at its end; -1 with err. A
 * regular file that ends before its size when opened has shrunk: an error, since the bytes
 * read so far may end anywhere in a record. */
static long raw_read(Input *in, unsigned char *buf, size_t cap, RxError *err) {
    if (in->head_pos < in->head_len) {
        size_t n = in->head_len - in->head_pos;
        if (n > cap) n = cap;
        memcpy(buf, in->head + in->head_pos, n);
        in->head_pos += n;
        return (long)n;
    }
    if (in->raw_eof) return 0;
    for (;;) {
        ssize_t k = read(in->fd, buf, cap);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return in_error(in, err, "cannot read '%s': %s", strerror(errno));
        if (k == 0) {
            in->raw_eof = true;
            if (in->regular && in->raw_read < in->size) {
                char detail[160];
                snprintf(detail, sizeof detail,
                         "it ended after %llu of its %llu bytes (another program truncated or "
                         "rewrote it while it was read)",
                         (unsigned long long)in->raw_read, (unsigned long long)in->size);
                return in_error(in, err, "'%s' shrank while it was read: %s", detail);
            }
            return 0;
        }
        in->raw_read += (uint64_t)k;
        return (long)k;
    }
}

/* Refills ibuf when every compressed byte in it is decoded. 0 at the end of the file. */
static long refill(Input *in, RxError *err) {
    if (in->ipos < in->ilen) return (long)(in->ilen - in->ipos);
    long k = raw_read(in, in->ibuf, IN_BLOCK, err);
    if (k < 0) return -1;
    in->ipos = 0;
    in->ilen = (size_t)k;
    return k;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

void input_close(Input *in) {
    if (!in) return;
    if (in->fd >= 0 && !in->is_stdin) close(in->fd);
    if (in->z_live) inflateEnd(&in->z);
    if (in->zs) ZSTD_freeDStream(in->zs);
    free(in->ibuf);
    free(in->path);
    free(in);
}

int input_open(const char *path, Input **out, RxError *err) {
    *out = NULL;
    bool is_stdin = strcmp(path, "-") == 0;
    if (is_stdin && stdin_taken_by)
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0),
                        "cannot read '-' (standard input): it holds %s", stdin_taken_by);
    if (is_stdin && stdin_opened)
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0),
                        "cannot read '-' (standard input) twice: an earlier csv('-') read it");
    Input *in = calloc(1, sizeof *in);
    if (!in || !(in->path = strdup(is_stdin ? "-" : path))) {
        free(in);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'", path);
    }
    in->is_stdin = is_stdin;
    in->fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (in->fd < 0) {
        int e = errno;
        input_close(in);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot open '%s': %s", path,
                        strerror(e));
    }
    if (is_stdin) stdin_opened = true;
    struct stat st;
    if (fstat(in->fd, &st) < 0) {
        int e = errno;
        in_error(in, err, "cannot read '%s': %s", strerror(e));
        input_close(in);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        in_error(in, err, "cannot read '%s': %s", "it is a directory");
        input_close(in);
        return -1;
    }
    /* Only a regular file's size is the size of its data (a /proc file says 0). */
    in->regular = S_ISREG(st.st_mode) && st.st_size > 0;
    in->size = in->regular ? (size_t)st.st_size : 0;
    while (in->head_len < HEAD && !in->raw_eof) {
        size_t had = in->head_len;
        in->head_len = HEAD; /* raw_read reads the file, not the head, while head_pos == len */
        in->head_pos = HEAD;
        long k = raw_read(in, in->head + had, HEAD - had, err);
        in->head_pos = 0;
        if (k < 0) {
            input_close(in);
            return -1;
        }
        in->head_len = had + (size_t)k;
    }
    const unsigned char *h = in->head;
    size_t hn = in->head_len;
    const char *what = NULL;
    if (hn >= 2 && h[0] == 0x1F && h[1] == 0x8B) in->codec = INPUT_GZIP;
    else if (hn >= 4 && memcmp(h, "\x28\xB5\x2F\xFD", 4) == 0) in->codec = INPUT_ZSTD;
    else if (hn >= 3 && memcmp(h, "BZh", 3) == 0) what = "bzip2-compressed";
    else if (hn >= 6 && memcmp(h, "\xFD" "7zXZ\0", 6) == 0) what = "xz-compressed";
    else if (hn >= 4 && memcmp(h, "PK\x03\x04", 4) == 0) what = "a zip archive";
    else if (ends_with(path, ".gz") || ends_with(path, ".zst"))
        what = "named as compressed but does not start as gzip or zstd data does (corrupt?)";
    if (what) {
        char detail[200];
        snprintf(detail, sizeof detail, "%s; Relix reads plain text, gzip (.gz) and zstd (.zst)",
                 what);
        in_error(in, err, "cannot read '%s': it is %s", detail);
        input_close(in);
        return -1;
    }
    if (in->codec != INPUT_PLAIN) {
        in->ibuf = malloc(IN_BLOCK);
        if (!in->ibuf) {
            input_close(in);
            return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'",
                            path);
        }
    }
    if (in->codec == INPUT_GZIP) {
        if (inflateInit2(&in->z, 15 + 16) != Z_OK) {
            input_close(in);
            return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'",
                            path);
        }
        in->z_live = true;
    } else if (in->codec == INPUT_ZSTD) {
        in->zs = ZSTD_createDStream();
        if (!in->zs || ZSTD_isError(ZSTD_initDStream(in->zs))) {
            input_close(in);
            return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'",
                            path);
        }
    }
    *out = in;
    return 0;
}

static long read_gzip(Input *in, char *buf, size_t cap, RxError *err) {
    z_stream *z = &in->z;
    z->next_out = (unsigned char *)buf;
    z->avail_out = cap > UINT32_MAX ? UINT32_MAX : (unsigned)cap;
    unsigned want = z->avail_out;
    while (z->avail_out == want) {
        long k = refill(in, err);
        if (k < 0) return -1;
        if (k == 0) {
            if (in->z_member_end) {
                in->done = true;
                return 0;
            }
            return in_error(in, err, "cannot read '%s': %s",
                            "the gzip data is cut short (the file is truncated)");
        }
        if (in->z_member_end) {
            /* another member follows (as `cat a.gz b.gz` writes) */
            inflateReset(z);
            in->z_member_end = false;
        }
        z->next_in = in->ibuf + in->ipos;
        z->avail_in = (unsigned)(in->ilen - in->ipos);
        int rc = inflate(z, Z_NO_FLUSH);
        in->ipos = in->ilen - z->avail_in;
        if (rc == Z_STREAM_END) {
            in->z_member_end = true;
        } else if (rc == Z_MEM_ERROR) {
            return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s'",
                            in->path);
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            char detail[160];
            snprintf(detail, sizeof detail, "corrupt gzip data (%s) after %llu compressed bytes",
                     z->msg ? z->msg : "inflate failed",
                     (unsigned long long)(in->raw_read - (in->ilen - in->ipos)));
            return in_error(in, err, "cannot read '%s': %s", detail);
        }
    }
    return (long)(want - z->avail_out);
}

static long read_zstd(Input *in, char *buf, size_t cap, RxError *err) {
    ZSTD_outBuffer o = {buf, cap, 0};
    while (o.pos == 0) {
        long k = refill(in, err);
        if (k < 0) return -1;
        if (k == 0 && in->zs_last == 0) {
            /* the last frame ended and was flushed: a new call would await another frame */
            in->done = true;
            return 0;
        }
        ZSTD_inBuffer i = {in->ibuf + in->ipos, in->ilen - in->ipos, 0};
        size_t rc = ZSTD_decompressStream(in->zs, &o, &i);
        in->ipos += i.pos;
        if (ZSTD_isError(rc)) {
            char detail[160];
            snprintf(detail, sizeof detail, "corrupt zstd data (%s)", ZSTD_getErrorName(rc));
            return in_error(in, err, "cannot read '%s': %s", detail);
        }
        in->zs_last = rc;
        if (k == 0 && o.pos == 0) {
            if (rc != 0)
                return in_error(in, err, "cannot read '%s': %s",
                                "the zstd data is cut short (the file is truncated)");
            in->done = true;
            return 0;
        }
    }
    return (long)o.pos;
}

long input_read(Input *in, char *buf, size_t cap, RxError *err) {
    if (in->done || cap == 0) return 0;
    if (cap > (size_t)1 << 30) cap = (size_t)1 << 30;
    switch (in->codec) {
    case INPUT_GZIP: return read_gzip(in, buf, cap, err);
    case INPUT_ZSTD: return read_zstd(in, buf, cap, err);
    case INPUT_PLAIN: break;
    }
    long k = raw_read(in, (unsigned char *)buf, cap, err);
    if (k == 0) in->done = true;
    return k;
}

/* One part of input_read_parallel: buf[0..len) from the file at offset off. */
typedef struct {
    int fd;
    char *buf;
    size_t off, len;
    size_t got;          /* bytes read: len, or fewer at the file's end */
    int err;             /* errno of a failed read, 0 if none */
} ReadPart;

static void *read_part(void *arg) {
    ReadPart *p = arg;
    while (p->got < p->len) {
        ssize_t k = pread(p->fd, p->buf + p->got, p->len - p->got, (off_t)(p->off + p->got));
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            p->err = errno;
            break;
        }
        if (k == 0) break;
        p->got += (size_t)k;
    }
    return NULL;
}

long input_read_parallel(Input *in, char *buf, size_t cap, int threads, RxError *err) {
    enum { MIN_PART = 8 << 20, MAX_PARTS = 16 };
    if (in->codec != INPUT_PLAIN || !in->regular || in->is_stdin || in->done ||
        in->head_pos != 0 || in->raw_read != in->head_len || in->size < 2 * (size_t)MIN_PART ||
        cap < in->size || threads < 2)
        return 0;
    size_t h = in->head_len, rest = in->size - h;
    memcpy(buf, in->head, h);
    int n = threads < MAX_PARTS ? threads : MAX_PARTS;
    if ((size_t)n > rest / MIN_PART) n = (int)(rest / MIN_PART);
    ReadPart part[MAX_PARTS];
    pthread_t th[MAX_PARTS];
    bool started[MAX_PARTS] = {false};
    for (int i = 0; i < n; i++) {
        size_t a = rest / (size_t)n * (size_t)i, b = i + 1 < n ? rest / (size_t)n * (size_t)(i + 1) : rest;
        part[i] = (ReadPart){in->fd, buf + h + a, h + a, b - a, 0, 0};
        /* part 0 on this thread, after the others have started */
        if (i > 0) started[i] = pthread_create(&th[i], NULL, read_part, &part[i]) == 0;
    }
    read_part(&part[0]);
    for (int i = 1; i < n; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else read_part(&part[i]);
    }
    /* the bytes up to the first part that came back short are the file's (it shrank there) */
    size_t got = h;
    for (int i = 0; i < n; i++) {
        if (part[i].err) {
            in_error(in, err, "cannot read '%s': %s", strerror(part[i].err));
            return -1;
        }
        got += part[i].got;
        if (part[i].got < part[i].len) break;
    }
    in->head_pos = h;
    in->raw_read = got;
    /* raw_read goes on after these bytes: more if the file grew, its end otherwise (and the
     * error of a file that shrank) */
    if (lseek(in->fd, (off_t)got, SEEK_SET) < 0) {
        in_error(in, err, "cannot read '%s': %s", strerror(errno));
        return -1;
    }
    if (got < in->size) {
        long k = raw_read(in, (unsigned char *)buf + got, 1, err);
        if (k <= 0) return -1;   /* the shrink error, or a read error */
        got += (size_t)k;        /* grew back meanwhile: the caller reads on */
    }
    return (long)got;
}

size_t input_size_hint(const Input *in) { return in->codec == INPUT_PLAIN ? in->size : 0; }

InputCodec input_codec(const Input *in) { return in->codec; }
