/*
 * base.h - the pieces every stage uses: arenas, growable byte buffers, error records and hashing.
 *
 * Nothing here knows about relations or syntax. Arenas own everything a phase allocates (AST,
 * names, plans) and are freed whole by their owner; StrBuf is a growable byte buffer whose owner
 * frees it with sb_free. Errors are values: a function that can fail takes an RxError *, fills it
 * through rx_error() and returns -1; it never prints or exits. A failed allocation is sticky: the
 * arena or buffer remembers it and the phase checks at its boundary.
 */
#ifndef RX_BASE_H
#define RX_BASE_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RX_UNUSED(x) ((void)(x))
#define RX_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- arena ---------------------------------------------------------------------------------- */

typedef struct Arena Arena;

/* A new empty arena, or NULL when out of memory. The caller frees it with arena_free. Its blocks
 * count against the memory limit (rx_malloc). */
Arena *arena_new(void);
/* Frees the arena and everything allocated from it. Accepts NULL. */
void arena_free(Arena *a);
/* n zeroed bytes aligned for any type, owned by the arena; NULL (and arena_failed) on OOM. */
void *arena_alloc(Arena *a, size_t n);
/* A NUL-terminated copy of s[0..n) owned by the arena. */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
/* printf into the arena. */
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True once any allocation from this arena has failed. */
bool arena_failed(const Arena *a);

/* Arena-backed growable array of pointers (AST lists, plan children). */
typedef struct {
    void **items;
    size_t n, cap;
} PtrVec;
void ptrvec_push(Arena *a, PtrVec *v, void *item);

/* ---- byte buffer ---------------------------------------------------------------------------- */

typedef struct {
    char *p;       /* malloc'd, NUL-terminated whenever n < cap */
    size_t n, cap;
    bool oom;
} StrBuf;

void sb_init(StrBuf *b);
void sb_free(StrBuf *b);
void sb_reserve(StrBuf *b, size_t extra);
void sb_append(StrBuf *b, const char *s, size_t n);
void sb_puts(StrBuf *b, const char *s);
void sb_putc(StrBuf *b, char c);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
/* Repeats the string s (of byte length n) count times. */
void sb_repeat(StrBuf *b, const char *s, size_t n, size_t count);

/* ---- errors --------------------------------------------------------------------------------- */

typedef enum {
    RX_OK = 0,
    RX_ESYNTAX,   /* the script does not parse */
    RX_ENAME,     /* unknown, ambiguous or duplicate name */
    RX_ETYPE,     /* operand types do not fit the operator */
    RX_EVALUE,    /* a literal or cell that is not a valid value (2026-02-30) */
    RX_ERUNTIME,  /* overflow, division by zero, conversion failure while running */
    RX_EIO,       /* a file could not be read or written */
    RX_ECSV,      /* malformed CSV */
    RX_ENOMEM,    /* out of memory, or over the memory limit */
    RX_EUNSUPPORTED, /* parsed, but not implemented */
    RX_ELIMIT,    /* a bound of the engine (nesting depth, row count) was exceeded */
    RX_EINTERRUPT /* stopped by the user */
} RxErrCode;

/* Byte offsets [start, end) into a source text. */
typedef struct {
    uint32_t start, end;
} RxSpan;

/* A text that spans point into: the script, or one line of a data file that an error quotes. */
typedef struct {
    const char *name;   /* file name, "<command line>", "<stdin>" */
    const char *text;
    size_t len;
    uint32_t first_line; /* line number of text[0]; 1 for a whole file */
    uint32_t first_col;  /* column of text[0] within that line (a window into a long line);
                          * 0 or 1 when text starts the line */
} RxSource;

typedef struct {
    RxErrCode code;
    RxSpan span;
    const RxSource *src;  /* NULL: the error has no position */
    char msg[1024];
    char hint[512];       /* "" or one line printed after the caret: how to write it instead */
    /* Storage for an error that quotes a data file: the source then points here. */
    RxSource own_src;
    char own_name[512];
    char own_text[1024];
} RxError;

/* Records an error and returns -1, so that callers can write `return rx_error(...)`.
 * A second error does not overwrite the first: the first cause is the one reported. */
int rx_error(RxError *e, RxErrCode code, const RxSource *src, RxSpan span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* rx_error with the message's arguments as a va_list, for a stage's own error helper (the
 * parser's syntax_error, the evaluator's run_error). Does not va_end ap. */
int rx_verror(RxError *e, RxErrCode code, const RxSource *src, RxSpan span, const char *fmt,
              va_list ap) __attribute__((format(printf, 5, 0)));
/* As rx_error, for a position in a data file: the line's text is copied into the error. */
int rx_error_at_file(RxError *e, RxErrCode code, const char *path, uint32_t line, uint32_t col,
                     const char *line_text, size_t line_len, uint32_t caret_len,
                     const char *fmt, ...) __attribute__((format(printf, 9, 10)));
void rx_error_clear(RxError *e);
/* Adds a one-line hint to the error recorded in e (how the user probably meant to write it),
 * printed as "  hint: ..." after the caret line. Does nothing when e holds no error or
 * already has a hint. */
void rx_error_hint(RxError *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends "FILE:LINE:COL: error: MSG\n" plus the source line and a caret line when the error
 * has a position, then "  hint: HINT\n" when it has a hint. */
void rx_error_format(const RxError *e, StrBuf *out);
/* The text of span in src with runs of white space folded into one space, in arena a (the
 * name of an unnamed column, the detail of a rewrite). "?" when there is none. */
const char *rx_source_text(Arena *a, const RxSource *src, RxSpan span);
/* 1-based line and column (in characters) of byte offset off in src. */
void rx_source_position(const RxSource *src, uint32_t off, uint32_t *line, uint32_t *col);

/* Appends t[0..n) to out with every secret of a connection string replaced by "***": a URI's
 * user:PASSWORD@, and the value of password=, sslpassword=, tlsCertificateKeyFilePassword=
 * (and SQLite's key= in a URI query), quoted or bare, in any case and percent-encoding
 * (redact.c gives the rule). It works on any text, so that a script line quoting a connection
 * string is redacted too. offs[0..n_offs)
 * (at most 64) are byte offsets into t, rewritten to the matching offsets into what was
 * appended (an offset inside a secret moves to its mask). True when something was redacted.
 * This is the only function that decides what of a connection string may be shown. */
bool rx_redact(const char *t, size_t n, StrBuf *out, size_t *offs, int n_offs);

static inline RxSpan rx_span(uint32_t start, uint32_t end) {
    RxSpan s = {start, end};
    return s;
}
static inline RxSpan rx_span_join(RxSpan a, RxSpan b) {
    RxSpan s = {a.start < b.start ? a.start : b.start, a.end > b.end ? a.end : b.end};
    return s;
}

/* ---- hashing -------------------------------------------------------------------------------- */

static inline uint64_t rx_hash64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}
static inline uint64_t rx_hash_combine(uint64_t h, uint64_t v) {
    return rx_hash64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}
uint64_t rx_hash_bytes(const void *p, size_t n);

/* ---- large buffers ------------------------------------------------------------------------ */

/* malloc, calloc and realloc for the engine's data (columns, keys, join results, hash tables),
 * freed with rx_free (never free(): the memory accountant below credits the buffer back there).
 * From RX_HUGE_MIN bytes on, the memory is a mapping of its own in transparent huge pages
 * (below: "Large buffers"), an optimisation: the first touch of fresh memory costs far less in
 * 2 MiB pages than in 4 KiB pages, and a freed mapping is kept for reuse (bench/RESULTS.md).
 * NULL when out of memory or past the memory limit. rx_free accepts NULL. */
#define RX_HUGE_MIN ((size_t)2 << 20)
void *rx_malloc(size_t bytes);
void *rx_calloc(size_t n, size_t size);
void *rx_realloc(void *p, size_t bytes);
void rx_free(void *p);

/* The memory accountant (util.c): every buffer of rx_malloc's and rx_map_alloc's families is
 * charged to one process-wide count while it lives (file mappings of the inputs are not: they
 * are the operating system's cache). rx_set_memory_limit: an allocation that would take the
 * count past bytes fails (0: no limit); thread-safe, meant to be set once before a run.
 * rx_memory_used: bytes charged now. rx_memory_limit_hit: whether an allocation failed at the
 * limit since the last clear (clear: reset it), so that an out-of-memory error can name the
 * limit as its cause. */
void rx_set_memory_limit(size_t bytes);
size_t rx_memory_limit(void);
size_t rx_memory_used(void);
bool rx_memory_limit_hit(bool clear);
/* The size of the last allocation the limit refused (0: none yet), for the error to say what
 * was asked for. */
size_t rx_memory_refused(void);
/* The count's high-water mark, for the peak memory of each operator (EXPLAIN ANALYZE):
 * rx_memory_peak_mark lowers the mark to the bytes charged now and returns them;
 * rx_memory_peak is the highest count since that mark, and rx_memory_peak_since(mark) how far
 * it rose above mark (0 if not). Exact, not sampled: every charge raises the mark. One mark,
 * process-wide (other threads' charges count too); thread-safe. */
size_t rx_memory_peak_mark(void);
size_t rx_memory_peak(void);
size_t rx_memory_peak_since(size_t mark);
/* Raises the mark to bytes when it is below: restores an enclosing measurement's mark after a
 * nested one lowered it (the streamed operators, whose calls nest). */
void rx_memory_peak_raise(size_t bytes);

/* Large buffers (util.c): every request of RX_HUGE_MIN bytes and more, from rx_malloc,
 * rx_calloc and rx_map_alloc alike, is a mapping of its own, whole 2 MiB huge pages at a
 * huge-page boundary; smaller ones are malloc's. rx_free returns a mapping to a reserve of
 * freed mappings (at most 512 MiB, or a quarter of the memory limit) that later rx_malloc and
 * rx_calloc requests take back before mapping anew: memory the process holds is far cheaper to
 * touch than memory it has not touched yet (bench/memtouch.c). The rx_map_* family is the join
 * kernels' (kernel.h): never a kept mapping (a kept one is resident whole, where a result
 * sized for the most it can hold is touched in part), and unmapped by rx_map_free. The reserve
 * is not charged to the accountant, and is unmapped whenever an allocation is refused.
 * rx_map_realloc (=
 * rx_realloc) moves a mapping that grows without copying (mremap). Thread-safe; NULL when out of
 * memory. rx_map_live: the bytes of live mappings; rx_map_kept: the bytes in the reserve;
 * rx_map_drop_kept unmaps the reserve. Under AddressSanitizer every buffer is malloc's (exact
 * bounds, use after free caught), and there is no reserve. */
void *rx_map_alloc(size_t bytes);
void *rx_map_calloc(size_t n, size_t size);
void *rx_map_realloc(void *p, size_t bytes);
void rx_map_free(void *p);
size_t rx_map_live(void);
size_t rx_map_kept(void);
void rx_map_drop_kept(void);

/* Bytes in decimal units with one decimal, as EXPLAIN ANALYZE prints them: "512 B", "3.4 kB",
 * "12.3 MB", "1.5 GB"; into buf (cap bytes, 16 are enough). */
void rx_format_bytes(char *buf, size_t cap, uint64_t n);
/* A size in binary units, as --memory-limit takes them: "256 MiB", "1.5 GiB", "512 B" (whole
 * numbers when exact, else one decimal); into buf (cap bytes, 16 are enough). */
void rx_format_size(char *buf, size_t cap, uint64_t n);
/* part as a share of whole, for a peak against the memory limit: "47% of 256 MiB", "<1% of
 * 8 GiB" (more than nothing, under half a percent); into buf (cap bytes, 32 are enough). */
void rx_format_share(char *buf, size_t cap, uint64_t part, uint64_t whole);

/* ---- files written whole (outfile.c) ------------------------------------------------------ */

/* Every file Relix writes goes through an RxOutFile: the bytes go to a temporary in the target's
 * folder, and only rx_outfile_commit puts them in place (fsync, rename over the target, fsync of
 * the folder). Until then the old target is untouched, and an error, rx_outfile_abort or a
 * signal (rx_outfile_signal_cleanup) leaves no temporary behind. A target that is a symbolic
 * link replaces the file it names; one that exists and is not a regular file (/dev/null, a
 * FIFO) is written in place. The new file keeps the mode of the file it replaces.
 *
 * rx_outfile_open: NULL with err ("cannot write 'PATH': REASON") when the temporary cannot be
 * created (no such folder, no permission). The caller owns the result and ends it with exactly
 * one of rx_outfile_commit or rx_outfile_abort, which free it.
 * rx_outfile_write: an RxSink-shaped writer (ud is the RxOutFile): 0, or -1 once any write has
 * failed (the errno is kept for the commit's message).
 * rx_outfile_fail: marks the file failed (errno e), so that the commit only removes it.
 * rx_outfile_commit: 0, or -1 with err naming the target and the OS error of the first failure
 * (a write's, fsync's or rename's); the temporary is then removed and the target untouched.
 * rx_outfile_fd: the descriptor written to (for a caller that writes through stdio).
 * rx_outfile_sync_every: how many bytes written start a flush to disk in the background
 * (fdatasync on a thread of the file's own, again after each further step; 0: never, for
 * in-place targets never). The default is 32 MiB; the bytes and the commit's promises are the
 * same for every setting, a failed background flush fails the commit with its errno.
 * rx_outfile_synced: how many bytes the background flushes have made durable so far.
 * rx_outfile_signal_cleanup: unlinks every named temporary now open, and removes every
 * temporary directory of tempfile.h now listed; async-signal-safe.
 * rx_same_file: 1 when paths a and b name the same file (same device and inode when both
 * exist; the same folder and name when neither does), else 0. */
typedef struct RxOutFile RxOutFile;
RxOutFile *rx_outfile_open(const char *path, RxError *err);
int rx_outfile_write(void *ud, const char *p, size_t n);
void rx_outfile_fail(RxOutFile *f, int e);
int rx_outfile_commit(RxOutFile *f, RxError *err);
void rx_outfile_abort(RxOutFile *f);
int rx_outfile_fd(const RxOutFile *f);
void rx_outfile_sync_every(RxOutFile *f, size_t bytes);
uint64_t rx_outfile_synced(RxOutFile *f);
void rx_outfile_signal_cleanup(void);
int rx_same_file(const char *a, const char *b);

/* ---- threads -------------------------------------------------------------------------------- */

/* How many threads an operator may use, process-wide (threads.c): the join kernels and the
 * large gathers run two halves at once only when this is more than 1, and with 1 never start a
 * thread. Results do not depend on it (tests/cases/032-determinism). The first call settles
 * the default: the RELIX_THREADS environment variable when it is a whole number of 1 or more,
 * else the number of online CPUs. Safe to call from any thread. */
int rx_threads(void);
/* Sets it (n >= 1; 0 goes back to the default). The CLI's --threads. */
void rx_set_threads(int n);
/* n parsed from text as a thread count (a whole number from 1 to RX_MAX_THREADS); 0 ok, -1 not
 * one. For RELIX_THREADS and --threads alike. */
int rx_parse_threads(const char *text, int *n);
#define RX_MAX_THREADS 1024

/* ---- utf-8 ---------------------------------------------------------------------------------- */

/* Number of code points in s[0..n) (invalid bytes count one each). */
size_t utf8_width(const char *s, size_t n);
/* Length of the valid UTF-8 sequence at s (1..4), or 0 if s[0..n) does not start with one. */
int utf8_seq_len(const unsigned char *s, size_t n);

/* ---- progress (progress.c) ------------------------------------------------------------------ */

/* A one-line display of a long step ("loading trades.csv 45% (210 MB of 444 MB) 3.2 s",
 * "IJOIN INTERSECTS (2000 × 3000 rows) 1.2M pairs 2.0 s") for a terminal. A meter draws
 * through its sink from a thread of its own, ten times a second at most, and only once the
 * run has been busy for a second (and the step for 0.3 s); progress_end blanks the line out. Nothing here prints by itself: the
 * sink decides where the bytes go (the CLI: standard error, when it is a terminal). */
typedef struct {
    int (*write)(void *ud, const char *p, size_t n);  /* called from the meter's thread */
    void *ud;
} ProgressSink;
typedef struct Progress Progress;

/* A meter that draws through sink and reads the interrupt flag (may be NULL) to say a step is
 * stopping and to stop it (progress_update). With sink.write NULL it never draws, and only
 * the interrupt is checked. NULL when out of memory. The caller frees it with progress_free,
 * which stops its thread and blanks a line still shown. */
Progress *progress_new(ProgressSink sink, volatile sig_atomic_t *interrupt);
void progress_free(Progress *p);
/* Makes p (NULL: none) the calling thread's meter, which the hooks below report to, and
 * starts its run's clock; returns the previous one, so that a caller can restore it.
 * Detaching ends a step still running. */
Progress *progress_attach(Progress *p);
/* How many lines p has drawn (tests). */
unsigned long progress_draws(Progress *p);

/* The hooks, no-ops when the calling thread has no meter. progress_begin starts a step named by
 * fmt: unit "B" counts bytes, another unit ("pairs") counts things, NULL shows no amount;
 * total 0 is unknown (no percentage). A new step replaces a running one. */
void progress_begin(const char *unit, uint64_t total, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* How much of the step is done. Returns -1, with RX_EINTERRUPT in err when err is not NULL,
 * once the interrupt flag is set: the caller stops. Cheap enough to call every few thousand
 * rows. */
int progress_update(uint64_t done, RxError *err);
void progress_end(void);
/* The last component of a path, which is how a step names a file. */
const char *progress_file_name(const char *path);
/* The line itself, without control characters, into buf (cap bytes): what, then the amount
 * ("45% (210 MB of 444 MB)", "1.2M pairs"), then the elapsed time and, when stopping, that
 * Ctrl-C is stopping it; at most 78 characters, the name cut with … first. Returns the
 * length. */
size_t progress_format(char *buf, size_t cap, const char *what, const char *unit, uint64_t done,
                       uint64_t total, double elapsed_s, bool stopping);

#endif
