/*
 * input.h - the bytes of an input file, handed out a block at a time.
 *
 * An Input reads a regular file, a pipe, a FIFO, a character device or a file under /proc the
 * same way: with read() until the end of the data, never trusting the size that fstat gives
 * (0 for a pipe or a /proc file). "-" is standard input. Compressed input is decompressed as
 * it is read, one block at a time: gzip (also several members one after another) and zstd,
 * recognised by their magic bytes whatever the file is called. Other compressed or archived
 * formats (bzip2, xz) are errors that say what the file is, never bytes passed on as text.
 *
 * Errors are RX_EIO values that name the file: it cannot be opened or read, its compressed
 * data is corrupt or cut short, or a regular file ended before the size it had when opened
 * (another process truncated it while it was read).
 */
#ifndef RX_INPUT_H
#define RX_INPUT_H

#include "base/base.h"

typedef struct Input Input;

typedef enum { INPUT_PLAIN, INPUT_GZIP, INPUT_ZSTD } InputCodec;

/* Opens path ("-": standard input) and looks at its first bytes to choose the decoder. On
 * failure returns -1 with err filled (nothing to close). The caller closes *out with
 * input_close. */
int input_open(const char *path, Input **out, RxError *err);

/* Reads the next block of the (decompressed) data into buf[0..cap), cap > 0: returns the
 * number of bytes, 0 at the end of the data, or -1 with err filled. Blocks may be shorter than
 * cap anywhere. */
long input_read(Input *in, char *buf, size_t cap, RxError *err);

/* Reads an uncompressed regular file (not standard input) that nothing has been read from yet,
 * of at least 16 MB, into buf[0..cap) with up to `threads` threads reading parts of it at once
 * (an optimisation: the pages of a fresh buffer fault in on several cores): returns the bytes
 * read, its size when opened, after which input_read goes on (the rest of a file that grew,
 * else its end). 0 when the input is not such a file or cap is smaller (nothing read: the
 * caller reads with input_read); -1 with err when it cannot be read or shrank meanwhile
 * (the error input_read gives). */
long input_read_parallel(Input *in, char *buf, size_t cap, int threads, RxError *err);

/* The expected size of the data: the size of an uncompressed regular file, 0 when unknown (a
 * stream, or compressed). A hint for the reader's first buffer, not a promise. */
size_t input_size_hint(const Input *in);

InputCodec input_codec(const Input *in);

/* Closes the file (never standard input itself) and frees in. NULL is fine. */
void input_close(Input *in);

/* Marks standard input as taken by something other than an Input (the CLI reading the script
 * from it): input_open("-") then fails with a message naming `by`. Not thread-safe; call
 * before any query runs. NULL gives standard input back. */
void input_stdin_taken(const char *by);

#endif
