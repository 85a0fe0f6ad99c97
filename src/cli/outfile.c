/*
 * outfile.c - files that appear whole or not at all (the REPL's \o FILE).
 *
 * The output is written to a temporary file in the target's folder (so that the rename stays
 * on one file system), synced, and renamed over the target only when everything was written:
 * a failed write, a full disk or an interrupted session leaves an earlier file as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

FILE *cli_file_open(const char *path, char **tmp_path) {
    *tmp_path = NULL;
    size_t n = strlen(path) + sizeof ".relix-XXXXXX";
    char *tmp = malloc(n);
    if (!tmp) {
        errno = ENOMEM;
        return NULL;
    }
    snprintf(tmp, n, "%s.relix-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        errno = e;
        return NULL;
    }
    /* mkstemp creates the file for its owner only; the result gets the usual permissions */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        errno = e;
        return NULL;
    }
    *tmp_path = tmp;
    return f;
}

int cli_file_commit(FILE *f, char *tmp_path, const char *path) {
    int ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
    int e = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (ok && rename(tmp_path, path) != 0) {
        ok = 0;
        e = errno;
    }
    if (!ok) unlink(tmp_path);
    free(tmp_path);
    errno = e;
    return ok ? 0 : -1;
}

void cli_file_abort(FILE *f, char *tmp_path) {
    fclose(f);
    unlink(tmp_path);
    free(tmp_path);
}
