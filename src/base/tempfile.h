/*
 * tempfile.h - temporary files for data that does not fit the memory budget (docs/memory.md,
 * "What spills, where temporary files go").
 *
 * A temporary directory is made per operator that spills, under the directory the user chose
 * (--temp-dir; else $TMPDIR; else /tmp), named relix-XXXXXX and created 0700. Files in it have
 * no name from the moment they exist (O_TMPFILE, or created and unlinked at once), so the
 * kernel frees them when they are closed or the process ends, however it ends (SIGKILL
 * included); the directory itself is removed by rx_tempdir_close, by
 * rx_tempdir_signal_cleanup (which rx_outfile_signal_cleanup calls, so every signal handler
 * that removes output temporaries removes these too) and at process exit.
 *
 * Errors are values: a write that fails for want of space (ENOSPC, EDQUOT), for the file size
 * limit (EFBIG, `ulimit -f`) or for the device (EIO) is an RX_EIO error naming the directory
 * and how much had been written.
 */
#ifndef RX_TEMPFILE_H
#define RX_TEMPFILE_H

#include <stdint.h>
#include <sys/types.h>

#include "base/base.h"

typedef struct RxTempDir RxTempDir;

/* The directory temporary files go under when the caller names none: $TMPDIR when set and not
 * empty, else /tmp. */
const char *rx_temp_base_default(void);

/* A new directory base/relix-XXXXXX (base NULL or "": rx_temp_base_default()), mode 0700,
 * listed for removal on a signal and at exit. NULL with err (RX_EIO naming base, RX_ENOMEM)
 * when it cannot be made. The caller ends it with rx_tempdir_close. */
RxTempDir *rx_tempdir_open(const char *base, RxError *err);
/* Closes nothing it did not open: removes the directory (its files have no names, so it is
 * empty) and frees d. NULL-safe. Files still open stay readable until closed. */
void rx_tempdir_close(RxTempDir *d);
/* The directory's path, for messages. */
const char *rx_tempdir_path(const RxTempDir *d);
/* Bytes written through rx_temp_write into d's files so far. */
uint64_t rx_tempdir_written(const RxTempDir *d);

/* A new file in d with no name, open for reading and writing: its descriptor, which the caller
 * closes with close(2). -1 with err (RX_EIO naming the directory) on failure. */
int rx_tempfile_open(RxTempDir *d, RxError *err);
/* Writes all n bytes of p at offset off of fd (a file of d). 0, or -1 with err: "the temporary
 * directory D is full (wrote 1.2 GB): free space or choose another with --temp-dir" for
 * ENOSPC and EDQUOT, the file size limit for EFBIG, the OS error otherwise. */
int rx_temp_write(RxTempDir *d, int fd, off_t off, const void *p, size_t n, RxError *err);
/* Reads exactly n bytes at offset off of fd into p. 0, or -1 with err (RX_EIO). */
int rx_temp_read(RxTempDir *d, int fd, off_t off, void *p, size_t n, RxError *err);

/* Removes every directory now listed, with nothing but rmdir(2): async-signal-safe. */
void rx_tempdir_signal_cleanup(void);

/* For tests: from now on, a write that would take the bytes written to all temporary files
 * of the process past `bytes` fails with errno e, as a full disk would (e 0: off). */
void rx_temp_fail_after(uint64_t bytes, int e);

#endif
