/*
 * cli.h - what main.c and repl.c share.
 */
#ifndef RX_CLI_H
#define RX_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "relix.h"

#include <stdio.h>

typedef struct {
    int format;       /* RxFormat */
    bool explain;
    bool explain_analyze;  /* --explain analyze: the plan with the run's figures */
    bool timing;
    bool stream;      /* --stream, \stream on: every query that can streams */
    bool count_only;  /* print each result's row count only (benchmarks) */
    int n_printed;    /* results printed so far (a blank line separates them) */
    size_t max_rows;  /* table rows shown on a terminal (first and last half); 0: all */
    bool repl;        /* the REPL runs: hints name \set, an input without queries prints nothing */
    FILE *out;        /* where results go (the REPL's \o FILE); NULL: standard output */
    bool json_open;   /* a JSON array of several results has been opened and not closed */
    size_t part_rows; /* a result in parts (rx_result_part): the rows of its parts so far */
} CliOptions;

/* The default of max_rows: 20 first and 20 last rows, as the DuckDB shell shows. */
#define CLI_MAX_ROWS 40

/* Prints one result to o->out (or standard output) in o->format: results of a script with
 * several queries form one JSON array in json, carry their index in jsonl, are separated by a
 * blank line otherwise. A table on a terminal shows at most o->max_rows rows. */
int cli_print_result(void *ud, const RxResult *r);
int cli_run_text(RxSession *s, CliOptions *o, const char *text, size_t len, const char *name);
/* The interactive loop: statements end with ';'; an error leaves the session intact. */
int cli_repl(RxSession *s, CliOptions *o);


#endif
