/*
 * repl.c - the interactive loop of relix on a terminal.
 *
 * Lines accumulate until the input ends with ';' outside an inline table, then run in the
 * same session, so definitions persist; an error is printed and the session goes on.
 * Backslash commands: \q quits, \explain on|off, \format NAME, \timing, \help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* True when buf holds complete statements: it ends with ';' and no inline table is open. */
static bool complete(const char *buf, size_t n) {
    size_t e = n;
    while (e > 0 && (buf[e - 1] == ' ' || buf[e - 1] == '\t' || buf[e - 1] == '\n' || buf[e - 1] == '\r')) e--;
    if (e == 0 || buf[e - 1] != ';') return false;
    /* an inline table is open when a ':= [' has no closing line starting with ']' */
    bool open = false;
    for (size_t i = 0; i + 1 < e; i++) {
        if (!open && buf[i] == ':' && buf[i + 1] == '=') {
            size_t j = i + 2;
            while (j < e && (buf[j] == ' ' || buf[j] == '\t' || buf[j] == '\n')) j++;
            if (j < e && buf[j] == '[') open = true, i = j;
        } else if (open && buf[i] == '\n') {
            size_t j = i + 1;
            while (j < e && (buf[j] == ' ' || buf[j] == '\t')) j++;
            if (j < e && buf[j] == ']') open = false;
        }
    }
    return !open;
}

int cli_repl(RxSession *s, CliOptions *o) {
    char line[65536];
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int last = 0;
    fprintf(stderr, "relix %s — statements end with ';', \\help for commands, \\q to quit\n", RELIX_VERSION);
    for (;;) {
        fputs(n ? "  ...> " : "relix> ", stderr);
        fflush(stderr);
        if (!fgets(line, sizeof line, stdin)) break;
        if (n == 0 && line[0] == '\\') {
            char cmd[64] = {0}, arg[64] = {0};
            sscanf(line, "\\%63s %63s", cmd, arg);
            if (strcmp(cmd, "q") == 0 || strcmp(cmd, "quit") == 0) break;
            if (strcmp(cmd, "explain") == 0) o->explain = strcmp(arg, "off") != 0;
            else if (strcmp(cmd, "timing") == 0) o->timing = !o->timing;
            else if (strcmp(cmd, "format") == 0) {
                static const char *const f[] = {"table", "csv", "tsv", "json", "markdown"};
                int k = -1;
                for (int i = 0; i < 5; i++)
                    if (strcmp(arg, f[i]) == 0) k = i;
                if (k < 0) fprintf(stderr, "unknown format '%s' (table, csv, tsv, json, markdown)\n", arg);
                else o->format = k;
            } else {
                fputs("\\q quit   \\explain on|off   \\format table|csv|tsv|json|markdown   \\timing\n", stderr);
            }
            continue;
        }
        size_t k = strlen(line);
        if (n + k + 1 > cap) {
            cap = (n + k + 1) * 2;
            char *p = realloc(buf, cap);
            if (!p) break;
            buf = p;
        }
        memcpy(buf + n, line, k + 1);
        n += k;
        if (!complete(buf, n)) continue;
        o->n_printed = 0;
        last = cli_run_text(s, o, buf, n, "<stdin>");
        n = 0;
    }
    free(buf);
    fputc('\n', stderr);
    return last;
}
