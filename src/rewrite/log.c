/*
 * log.c - the rewrite log (rewrite.h): every rewrite that fired, with its ID (INLINE-001,
 * PRUNE-001, ...), what it does and where, in the order the rewrites ran. --explain prints it.
 * The entries live in the arena given.
 */
#include "rewrite/rewrite.h"

#include <string.h>

int rw_log(Arena *a, RewriteLog *log, const char *id, const char *what, const char *detail) {
    if (log->n == log->cap) {
        size_t cap = log->cap ? log->cap * 2 : 8;
        RewriteEntry *p = arena_alloc(a, cap * sizeof *p);
        if (!p) return -1;
        if (log->n) memcpy(p, log->items, log->n * sizeof *p);
        log->items = p;
        log->cap = cap;
    }
    log->items[log->n].id = id;
    log->items[log->n].what = what;
    log->items[log->n].detail = detail;
    log->n++;
    return 0;
}
