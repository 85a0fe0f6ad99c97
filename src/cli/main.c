/*
 * main.c - the relix command: runs a script file, a -e text or standard input, or a REPL
 * when standard input is a terminal; a thin shell over include/relix.h.
 *
 * Exit status: 0 success, 1 an error in the script or its data, 2 a usage error, 130 stopped by
 * Ctrl-C. Files written (-o, --report, into csv) replace their targets only when complete
 * (docs/files.md). Results go to
 * standard output in the chosen format (queries separated by a blank line); errors to standard
 * error as FILE:LINE:COL: error: message, the source line and a caret.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "relix.h"

#include "base/base.h"
#include "io/input.h"
#include "cli/cli.h"

static const char usage_text[] =
    "usage: relix [options] [FILE.rx]\n"
    "       relix [options] -e 'SCRIPT'\n"
    "       relix [options] < FILE.rx\n"
    "\n"
    "Runs a Relix script: inline tables, csv('file') sources, views and query { ... }\n"
    "statements. With no script and a terminal on standard input, starts a REPL.\n"
    "The REPL and -e also run an expression on its own as a query: -e 'T ⨝ S'.\n"
    "\n"
    "options:\n"
    "  -e, --eval TEXT        run TEXT as the script\n"
    "  -f, --format FORMAT    table (default), csv, tsv, json, jsonl or markdown; json\n"
    "                         prints one document (a script of several queries: an\n"
    "                         array with one array of rows per query), jsonl one\n"
    "                         object per row and line (docs/cli.md)\n"
    "      --max-rows N       on a terminal, show a table's first and last N/2 rows only\n"
    "                         (default 40; 0 shows all; files and pipes get every row)\n"
    "  -o, --output FILE      write the results to FILE instead of standard output\n"
    "      --explain          after each result, print the rewrites applied and the\n"
    "                         physical plan with row estimates\n"
    "      --explain analyze  the same with what each operator did: actual rows, time\n"
    "                         (inclusive and self) and peak memory\n"
    "      --memory-limit SIZE  stop with an error instead of allocating more than SIZE\n"
    "                         (bytes, or with K, M, G, T, or a share of the machine's\n"
    "                         memory like 50%; default: 80%; 0 or none: no limit).\n"
    "                         Counts what the engine allocates, not mapped input files\n"
    "                         (docs/memory.md)\n"
    "      --temp-dir DIR     where joins over more data than the memory limit holds put\n"
    "                         their temporary files (default: $TMPDIR, else /tmp)\n"
    "      --report FILE      write a self-contained HTML page of what the engine did for\n"
    "                         each query: input tables and result, rewrites, the plan\n"
    "                         with estimated and actual rows, and a timeline of every\n"
    "                         interval and AS-OF join\n"    "      --report-key KEY   draw only the interval-join pairs whose left partition\n"
    "                         key is KEY (several key columns: \"a, b\")\n"
    "      --report-window FROM,TO  draw only the interval-join pairs whose intervals\n"
    "                         both meet [FROM, TO] (in the endpoints' type)\n"
    "      --no-progress      never show the progress line of long steps (shown on a\n"
    "                         terminal after a second; RELIX_PROGRESS=0 does the same)\n"
    "      --threads N        run at most N threads (N >= 1; default: the RELIX_THREADS\n"
    "                         environment variable, else the number of online CPUs); 1\n"
    "                         never starts a thread. Results are the same for every N\n"
    "      --timing           print load, analysis, run and join times to standard error\n"
    "      --count            print only each result's row count (for benchmarks)\n"
    "      --ijoin-algo ALGO  auto (default), nested-loop or fast: force the interval join's\n"
    "                         algorithm (for checking one against the other)\n"
    "      --asof-algo ALGO   auto (default), nested-loop, binary-search or merge\n"
    "      --no-optimize      apply no rewrite but view inlining\n"
    "      --no-hashjoin      run equi-joins as nested loops\n"
    "      --no-pushdown      run every operator in the engine, none in a database\n"
    "      --pushdown FORM    auto (default), window, lateral, binned, plain or off: the\n"
    "                         SQL form of pushed AS-OF and interval joins (docs/connect.md);\n"
    "                         off is --no-pushdown\n"
    "      --sql-dialect NAME with --explain, also show each pushed statement as it would\n"
    "                         be written for NAME: postgresql, sqlite, duckdb, mariadb,\n"
    "                         mysql, h2 (or generic), citus, greenplum, redshift, spark,\n"
    "                         trino, sqlserver (or mssql), db2\n"

    "      --stream           run every query that can chunk by chunk, reading its CSV\n"
    "                         files a block at a time (by default only when a file is\n"
    "                         too large to hold; docs/memory.md)\n"
    "      --no-stream        never run a query chunk by chunk\n"
    "  -h, --help             show this help\n"
    "  -V, --version          show the version\n"
    "\n"
    "Exit status: 0 success, 1 error in the script or its data, 2 usage error,\n"
    "130 interrupted (Ctrl-C). Files are replaced only when completely written.\n"
    "Documentation: docs/grammar.md, docs/functions.md, man relix.\n";

static volatile sig_atomic_t *interrupt_flag;
static long long memory_limit_bytes;   /* in force, for the message when memory runs out */
static RxSession *current_session;
static const char *output_name;        /* -o FILE, for messages; NULL: standard output */
static bool script_run;                /* a script, not the REPL: Ctrl-C ends it, exit 130 */

static volatile sig_atomic_t cli_interrupted;
static volatile sig_atomic_t cli_running;   /* a script runs: a second Ctrl-C ends the process */

/* Exit status of a run stopped by Ctrl-C, as a shell reports a process SIGINT ended. */
#define EXIT_INTERRUPTED 130

/* Ctrl-C stops the run at its next check (the library then removes its temporaries and the
 * command exits 130). A second Ctrl-C while it still runs, and SIGTERM or SIGHUP at any time,
 * end the process at once: the temporaries of the files being written are removed first
 * (async-signal-safe), so that no target is touched and no temporary is left. */
static void on_sigint(int sig) {
    (void)sig;
    if (cli_interrupted && cli_running) {
        rx_cancel_statements();
        rx_outfile_signal_cleanup();
        _exit(EXIT_INTERRUPTED);
    }
    cli_interrupted = 1;
    if (current_session) rx_interrupt(current_session);
    rx_cancel_statements();
}

static void on_sigterm(int sig) {
    rx_cancel_statements();
    rx_outfile_signal_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "relix: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'relix --help' for more information.\n");
    return 2;
}

/* The result sink: ud is the FILE results go to. */
static int write_stdout(void *ud, const char *p, size_t n) {
    if (cli_interrupted) return -1; /* Ctrl-C stops a long output too */
    return fwrite(p, 1, n, ud) == n ? 0 : -1;
}

static int close_output(void) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "relix: cannot write the output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

int cli_print_result(void *ud, const RxResult *r) {
    CliOptions *o = ud;
    FILE *out = o->out ? o->out : stdout;
    /* a streamed result comes in parts (csv, tsv and jsonl only): what opens a result is
     * printed with its first part, what closes it with its last */
    int part = rx_result_part(r);
    bool last = rx_result_last_part(r);
    if (o->count_only) {
        o->part_rows += rx_result_rows(r);
        if (!last) return 0;
        size_t n = o->part_rows;
        o->part_rows = 0;
        fprintf(out, "(%zu row%s)\n", n, n == 1 ? "" : "s");
        return 0;
    }
    int index = rx_result_index(r), count = rx_result_count(r);
    bool several = count > 1;
    if (part > 1) {
        /* a later part: its rows only */
    } else if (o->format == RX_FORMAT_JSON) {
        /* one document: the results of several queries as an array of arrays */
        if (several) fputs(index <= 1 ? "[\n" : ",\n", out);
        o->json_open = several;
    } else if (o->format != RX_FORMAT_JSONL && o->n_printed > 0) {
        fputc('\n', out);
    }
    if (part <= 1) o->n_printed++;
    /* a table on a terminal is cut to its first and last rows; files and pipes get all */
    size_t max_rows = o->format == RX_FORMAT_TABLE && !o->out && isatty(fileno(stdout)) ? o->max_rows : 0;
    const char *hint = o->repl ? "\\set maxrows N shows more, 0 all" : "--max-rows N shows more, 0 all";
    if (rx_result_write_opts(r, (RxFormat)o->format, max_rows, hint, several ? index : 0, write_stdout, out) != 0) {
        if (cli_interrupted) {
            fputs("\nrelix: interrupted\n", stderr);
            return EXIT_INTERRUPTED;
        }
        if (output_name) fprintf(stderr, "relix: cannot write '%s': %s\n", output_name, strerror(errno));
        else fprintf(stderr, "relix: cannot write the result: %s\n", strerror(errno));
        return 1;
    }
    if (!last) return 0;
    if (o->json_open && index >= count) {
        fputs("]\n", out);
        o->json_open = false;
    }
    if (o->explain) {
        fputc('\n', out);
        fputs(o->explain_analyze ? rx_result_explain_analyze(r) : rx_result_explain(r), out);
    }
    fflush(out);
    return 0;
}

/* The progress line's sink: standard error, unbuffered, whole writes. */
static int write_stderr(void *ud, const char *p, size_t n) {
    (void)ud;
    while (n > 0) {
        ssize_t k = write(STDERR_FILENO, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Progress is drawn only on a terminal: standard error must be one (not TERM=dumb, which
 * may not know how to erase a line), and the results must not go into a pipe, where the
 * program reading them (less, jq, a script) may own the terminal or read our output. */
static bool want_progress(bool no_progress) {
    if (no_progress) return false;
    const char *env = getenv("RELIX_PROGRESS");
    if (env && strcmp(env, "0") == 0) return false;
    if (!isatty(STDERR_FILENO)) return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return false;
    struct stat st;
    if (fstat(STDOUT_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return false;
    return true;
}

/* A report may replace an earlier report, never anything else: `relix --report x.rx` (the
 * script forgotten, the report's name taken for it) must not overwrite the script. True when
 * path does not exist, is empty, or starts as an HTML page does. */
static bool may_overwrite(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return true;
    char head[16] = {0};
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    return n == 0 || strncmp(head, "<!DOCTYPE html", 14) == 0;
}

static char *read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    for (;;) {
        if (n == cap) {
            char *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                return NULL;
            }
            buf = p;
            cap *= 2;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int cli_run_text(RxSession *s, CliOptions *o, const char *text, size_t len, const char *name) {
    cli_interrupted = 0;
    cli_running = 1;
    /* results in parts where rows can be written one chunk after another */
    rx_set_result_parts(s, o->count_only || o->format == RX_FORMAT_CSV || o->format == RX_FORMAT_TSV ||
                               o->format == RX_FORMAT_JSONL);
    int rc = rx_exec(s, text, len, name, cli_print_result, o);
    cli_running = 0;
    if (o->timing) {
        RxTiming t = rx_timing(s);
        fprintf(stderr, "timing: load %.3f s, analyze %.3f s, run %.3f s (join %.3f s)%s\n",
                t.load_s, t.analyze_s, t.run_s, t.join_s, t.streamed ? ", streamed" : "");
        const char *ops = rx_timing_memory(s);
        if (*ops) {
            char peak[32], limit[48] = "no limit";
            rx_format_bytes(peak, sizeof peak, t.peak_bytes);
            if (t.limit_bytes) rx_format_share(limit, sizeof limit, t.peak_bytes, t.limit_bytes);
            fprintf(stderr, "memory: peak %s (%s); per operator:\n%s", peak, limit, ops);
        }
    }
    if (rc == EXIT_INTERRUPTED) return rc;  /* stopped while printing: said so already */
    /* a statement the database cancelled on Ctrl-C fails with the database's message */
    if (rc != 0 && script_run && (rx_errcode(s) == RX_ERR_INTERRUPT || cli_interrupted)) {
        fputs("relix: interrupted\n", stderr);
        return EXIT_INTERRUPTED;
    }
    FILE *out = o->out ? o->out : stdout;
    if (o->json_open) {
        /* a run stopped by an error still leaves a well-formed document (exit status 1) */
        fputs("]\n", out);
        o->json_open = false;
    }
    if (rc == 0 && o->format == RX_FORMAT_JSON && !o->repl && !o->count_only && o->n_printed == 0)
        fputs("[]\n", out);
    if (rc != 0) {
        fputs(rx_errmsg(s), stderr);
        if (rx_errcode(s) == RX_ERR_NOMEM && memory_limit_bytes > 0) {
            char lim[32];
            rx_format_size(lim, sizeof lim, (uint64_t)memory_limit_bytes);
            if (strstr(rx_errmsg(s), "memory limit of"))
                fputs("note: --memory-limit SIZE raises the limit (for example 8G or 50%; 0 or none: no limit)\n", stderr);
            else
                fprintf(stderr, "note: the memory limit is %s (--memory-limit SIZE changes it)\n", lim);
        }
        return 1;
    }
    return 0;
}

static double physical_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0;
}

/* SIZE: a number with an optional K, M, G or T suffix (powers of 1024), or a percentage of the
 * machine's physical memory ("50%"); "none" is 0 (no limit). -1 if malformed or out of range. */
static long long parse_size(const char *v) {
    if (strcmp(v, "none") == 0) return 0;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || x < 0 || x != x) return -1;
    if (*end == '%') {
        double ram = physical_memory();
        if (end[1] || x > 100 || ram <= 0) return -1;
        return (long long)(ram * x / 100);
    }
    double mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b') end++;
    if (*end || x * mul >= 9.2e18) return -1;
    return (long long)(x * mul);
}

/* The memory limit is the library's accountant (rx_set_memory_limit): it counts the buffers the
 * engine allocates, not the mappings of input files, so a file larger than the limit can still
 * be read when the columns a query loads fit. */
static void apply_memory_limit(long long bytes) {
    if (bytes <= 0) return;
    rx_set_memory_limit((size_t)bytes);
    memory_limit_bytes = bytes;
}

/* 80% of physical memory, counted as the accountant counts (what the engine allocates, not
 * address space); 0 (none) when the machine does not say. */
static long long default_memory_limit(void) { return (long long)(physical_memory() * 0.8); }

static int parse_algo(const char *v, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0) return i;
    return -1;
}

int main(int argc, char **argv) {
    CliOptions o = {.max_rows = CLI_MAX_ROWS};
    const char *eval_text = NULL, *file = NULL, *report_path = NULL, *output_path = NULL;
    const char *report_key = NULL, *report_window = NULL;  /* --report-key, --report-window */
    bool no_progress = false;
    const char *temp_dir = NULL;   /* --temp-dir */
    int ijoin_algo = 0, asof_algo = 0, stream = 0;
    bool optimize = true, hashjoin = true, pushdown = true;
    int push_form = 0;
    const char *sql_dialect = NULL;  /* --sql-dialect */
    long long mem_limit = default_memory_limit();
    int threads = 0; /* 0: RELIX_THREADS, else the CPUs (rx_set_threads) */
    static const char *const formats[] = {"table", "csv", "tsv", "json", "markdown", "jsonl"};
    static const char *const ij_algos[] = {"auto", "nested-loop", "fast"};
    static const char *const asof_algos[] = {"auto", "nested-loop", "binary-search", "merge"};
    static const char *const push_forms[] = {"auto", "window", "lateral", "binned", "plain", "off"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        /* --opt=value */
        char opt[64];
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof opt) {
            memcpy(opt, a, (size_t)(eq - a));
            opt[eq - a] = 0;
            a = opt;
            val = eq + 1;
        }
#define NEXT_VALUE()                                                                 \
    do {                                                                             \
        if (!val) {                                                                  \
            if (i + 1 >= argc) return usage_error("option '%s' needs a value", a);   \
            val = argv[++i];                                                         \
        }                                                                            \
    } while (0)
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            printf("relix %s\n", RELIX_VERSION);
            return 0;
        } else if (strcmp(a, "-e") == 0 || strcmp(a, "--eval") == 0) {
            NEXT_VALUE();
            eval_text = val;
        } else if (strcmp(a, "-f") == 0 || strcmp(a, "--format") == 0) {
            NEXT_VALUE();
            int f = parse_algo(val, formats, 6);
            if (f < 0 && strcmp(val, "md") == 0) f = 4;
            if (f < 0) return usage_error("unknown format '%s' (table, csv, tsv, json, jsonl, markdown)", val);
            o.format = f;
        } else if (strcmp(a, "--max-rows") == 0) {
            NEXT_VALUE();
            char *end;
            errno = 0;
            long long m = strtoll(val, &end, 10);
            if (errno || end == val || *end || m < 0)
                return usage_error("--max-rows takes a whole number (0 shows every row), not '%s'", val);
            o.max_rows = (size_t)m;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            NEXT_VALUE();
            if (!*val) return usage_error("-o needs a file name%s", "");
            output_path = output_name = val;
        } else if (strcmp(a, "--explain") == 0) {
            o.explain = true;
            /* --explain analyze (or =analyze): the word after it, when it is that, is its mode */
            if (!val && i + 1 < argc && strcmp(argv[i + 1], "analyze") == 0) val = argv[++i];
            if (val && strcmp(val, "analyze") != 0)
                return usage_error("unknown --explain mode '%s' (analyze)", val);
            o.explain_analyze = val != NULL;
        } else if (strcmp(a, "--report") == 0) {
            NEXT_VALUE();
            if (!*val) return usage_error("--report needs a file name%s", "");
            if (!may_overwrite(val))
                return usage_error("--report would overwrite '%s', which is not an HTML page", val);
            report_path = val;
        } else if (strcmp(a, "--report-key") == 0) {
            NEXT_VALUE();
            report_key = val;
        } else if (strcmp(a, "--report-window") == 0) {
            NEXT_VALUE();
            if (!strchr(val, ',')) return usage_error("--report-window needs FROM,TO, not '%s'", val);
            report_window = val;
        } else if (strcmp(a, "--no-progress") == 0) {
            no_progress = true;
        } else if (strcmp(a, "--timing") == 0) {
            o.timing = true;
        } else if (strcmp(a, "--stream") == 0) {
            stream = 1;
            o.stream = true;
        } else if (strcmp(a, "--no-stream") == 0) {
            stream = -1;
        } else if (strcmp(a, "--count") == 0) {
            o.count_only = true;
        } else if (strcmp(a, "--ijoin-algo") == 0) {
            NEXT_VALUE();
            ijoin_algo = parse_algo(val, ij_algos, 3);
            if (ijoin_algo < 0) return usage_error("unknown interval join algorithm '%s' (auto, nested-loop, fast)", val);
        } else if (strcmp(a, "--asof-algo") == 0) {
            NEXT_VALUE();
            asof_algo = parse_algo(val, asof_algos, 4);
            if (asof_algo < 0) return usage_error("unknown AS-OF algorithm '%s' (auto, nested-loop, binary-search, merge)", val);
        } else if (strcmp(a, "--memory-limit") == 0) {
            NEXT_VALUE();
            mem_limit = parse_size(val);
            if (mem_limit < 0) return usage_error("--memory-limit takes a size like 512M, 8G or 50%% (0 or none: no limit), not '%s'", val);
        } else if (strcmp(a, "--temp-dir") == 0) {
            NEXT_VALUE();
            struct stat st;
            if (!*val || stat(val, &st) != 0 || !S_ISDIR(st.st_mode))
                return usage_error("--temp-dir takes an existing directory, not '%s'", val);
            temp_dir = val;
        } else if (strcmp(a, "--threads") == 0) {
            NEXT_VALUE();
            if (rx_parse_threads(val, &threads) < 0)
                return usage_error("--threads takes a whole number from 1 to 1024, not '%s'", val);
        } else if (strcmp(a, "--no-optimize") == 0) {
            optimize = false;
        } else if (strcmp(a, "--no-hashjoin") == 0) {
            hashjoin = false;
        } else if (strcmp(a, "--no-pushdown") == 0) {
            pushdown = false;
        } else if (strcmp(a, "--pushdown") == 0) {
            NEXT_VALUE();
            push_form = parse_algo(val, push_forms, 6);
            if (push_form < 0) return usage_error("unknown pushdown form '%s' (auto, window, lateral, binned, plain, off)", val);
            if (push_form == 5) pushdown = false, push_form = 0;
        } else if (strcmp(a, "--sql-dialect") == 0) {
            NEXT_VALUE();
            sql_dialect = val;

        } else if (a[0] == '-' && a[1] != 0) {
            return usage_error("unknown option '%s'", a);
        } else {
            if (file) return usage_error("more than one script given ('%s')", a);
            file = a;
        }
#undef NEXT_VALUE
    }
    if (file && eval_text) return usage_error("give either a script file or -e, not both%s", "");
    /* Nothing is opened for writing before the whole command line is checked. */
    if (output_path && report_path && rx_same_file(output_path, report_path))
        return usage_error("-o and --report name the same file ('%s')", output_path);
    if (output_path && file && rx_same_file(output_path, file))
        return usage_error("-o would overwrite the script '%s'", file);
    if (report_path && file && rx_same_file(report_path, file))
        return usage_error("--report would overwrite the script '%s'", file);
    const char *env_threads = getenv("RELIX_THREADS");
    if (threads == 0 && env_threads && *env_threads && rx_parse_threads(env_threads, &threads) < 0)
        return usage_error("RELIX_THREADS must be a whole number from 1 to 1024, not '%s'", env_threads);
    apply_memory_limit(mem_limit);
    rx_set_threads(threads);
    RxSession *s = rx_open();
    if (!s) {
        fprintf(stderr, "relix: out of memory\n");
        return 1;
    }
    rx_set_ijoin_algo(s, ijoin_algo);
    rx_set_asof_algo(s, asof_algo);
    rx_set_optimize(s, optimize);
    rx_set_hashjoin(s, hashjoin);
    rx_set_pushdown(s, pushdown);
    rx_set_pushdown_form(s, push_form);
    if (sql_dialect && rx_set_sql_dialect(s, sql_dialect) < 0) {
        rx_close(s);
        return usage_error("unknown SQL dialect '%s' (postgresql, sqlite, duckdb, mariadb, mysql, h2, generic, citus, greenplum, "
                           "redshift, spark, trino, sqlserver, mssql, db2)", sql_dialect);
    }
    rx_set_stream(s, stream);
    if (rx_set_temp_dir(s, temp_dir) < 0) {
        fprintf(stderr, "relix: out of memory\n");
        rx_close(s);
        return 1;
    }
    current_session = s;
    (void)interrupt_flag;
    signal(SIGINT, on_sigint);
    signal(SIGTERM, on_sigterm);
    signal(SIGHUP, on_sigterm);
    /* over `ulimit -f` a write fails with EFBIG, reported, instead of killing the process */
    signal(SIGXFSZ, SIG_IGN);
    if (want_progress(no_progress)) rx_set_progress(s, write_stderr, NULL);
    /* the script first, so that a script that cannot be read leaves no report behind */
    char *text = NULL;
    size_t len = 0;
    const char *name = eval_text ? "<command line>" : file ? file : "<stdin>";
    bool repl = !eval_text && !file && isatty(STDIN_FILENO);
    /* an expression on its own is a query at the prompt and in -e, not in a script file */
    rx_set_bare_queries(s, repl || eval_text);
    o.repl = repl;
    /* The script or the REPL reads standard input, so csv('-') cannot. */
    if (!eval_text && !file) input_stdin_taken(repl ? "the REPL's input" : "the script");
    if (!eval_text && !repl) {
        FILE *f = file ? fopen(file, "rb") : stdin;
        if (!f) {
            fprintf(stderr, "relix: cannot open '%s': %s\n", file, strerror(errno));
            rx_close(s);
            return 1;
        }
        text = read_all(f, &len);
        if (file) fclose(f);
        if (!text) {
            fprintf(stderr, "relix: cannot read '%s': %s\n", name, strerror(errno));
            rx_close(s);
            return 1;
        }
    }
    /* The script is read: now the output files, as temporaries that replace their targets only
     * when everything is written. */
    RxError oerr;
    rx_error_clear(&oerr);
    RxOutFile *output = NULL, *report = NULL;
    if (output_path) {
        output = rx_outfile_open(output_path, &oerr);
        if (!output || dup2(rx_outfile_fd(output), STDOUT_FILENO) < 0) {
            fprintf(stderr, "relix: %s\n", output ? strerror(errno) : oerr.msg);
            rx_outfile_abort(output);
            free(text);
            rx_close(s);
            return 1;
        }
    }
    if (report_path) {
        report = rx_outfile_open(report_path, &oerr);
        if (!report || rx_report_begin(s, repl ? "REPL session" : name, rx_outfile_write, report) != 0 ||
            ((report_key || report_window) && rx_report_focus(s, report_key, report_window) != 0)) {
            if (report) fprintf(stderr, "relix: cannot write '%s': out of memory\n", report_path);
            else fprintf(stderr, "relix: %s\n", oerr.msg);
            rx_outfile_abort(report);
            rx_outfile_abort(output);
            free(text);
            rx_close(s);
            return 1;
        }
    }
    int rc;
    script_run = !repl;
    if (eval_text) rc = cli_run_text(s, &o, eval_text, strlen(eval_text), name);
    else if (!repl) rc = cli_run_text(s, &o, text, len, name);
    else rc = cli_repl(s, &o);
    free(text);
    if (script_run && cli_interrupted && rc == 0) rc = EXIT_INTERRUPTED;
    if (report) {
        /* the page also tells of an error in the script, so it is kept then; not when stopped */
        if (rx_report_end(s) != 0) rx_outfile_fail(report, 0);
        if (rc == EXIT_INTERRUPTED) rx_outfile_abort(report);
        else if (rx_outfile_commit(report, &oerr) != 0) {
            fprintf(stderr, "relix: %s\n", oerr.msg);
            if (rc == 0) rc = 1;
        }
    }
    rx_close(s);
    if (output) {
        /* the results are kept only when the whole run succeeded */
        if (fflush(stdout) != 0 || ferror(stdout)) rx_outfile_fail(output, errno);
        if (rc != 0) rx_outfile_abort(output);
        else if (rx_outfile_commit(output, &oerr) != 0) {
            fprintf(stderr, "relix: %s\n", oerr.msg);
            rc = 1;
        }
        return rc;
    }
    if (close_output() != 0 && rc == 0) rc = 1;
    return rc;
}
