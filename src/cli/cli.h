/*
 * cli.h - what main.c and repl.c share.
 */
#ifndef RX_CLI_H
#define RX_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "relix.h"

typedef struct {
    int format;       /* RxFormat */
    bool explain;
    bool explain_analyze;  /* --explain analyze: the plan with the run's figures */
    bool timing;
    bool count_only;  /* print each result's row count only (benchmarks) */
    int n_printed;    /* results printed so far (a blank line separates them) */
} CliOptions;

int cli_print_result(void *ud, const RxResult *r);
int cli_run_text(RxSession *s, CliOptions *o, const char *text, size_t len, const char *name);
/* The interactive loop: statements end with ';'; an error leaves the session intact. */
int cli_repl(RxSession *s, CliOptions *o);

#endif
