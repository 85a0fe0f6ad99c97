/*
 * report.h - the HTML report of a run (--report, rx_report_begin): one self-contained page that
 * shows, for every query, what the engine did, as the spec's "What the engine did" panels do.
 *
 * This is an output writer beside output.c: it knows tables and text, not plans. The session
 * (src/api/session_report.c) walks each query's plan and hands over what the page shows, in
 * page order: the query's text, its input tables and result (data flow), the rewrites applied,
 * the physical plan's lines with estimated and actual rows, time and peak memory, the run
 * notes, and for every interval or AS-OF join the join's inputs and matches, which the page
 * draws as a timeline in inline SVG (an interval join of big inputs also as a density strip
 * of all their rows, bounded in size by its bins).
 *
 * The page: inline CSS and SVG only, no script, no external font, image or link, so that it
 * opens the same offline and from a mail attachment. Every text that comes from the script or
 * the data is escaped (& < > " '), invalid UTF-8 and control characters become U+FFFD, and a
 * cell longer than REPORT_CELL_MAX characters is cut with …. Tables show REPORT_ROWS rows and
 * say how many more there are; a timeline draws at most REPORT_PAIRS pairs (or probes) and
 * says so when there are more. Nothing on the page depends on addresses, and only the plan's
 * time and memory columns (class "t") depend on the clock and the allocator: the same run
 * gives the same bytes elsewhere.
 *
 * Writing is streamed: the page's head goes out in report_new, each query's section as it is
 * given, the end in report_finish. A failing sink makes the report stop writing; report_finish
 * then returns -1.
 */
#ifndef RX_REPORT_H
#define RX_REPORT_H

#include "io/io.h"

#define REPORT_ROWS 20
#define REPORT_PAIRS 30
#define REPORT_CELL_MAX 120

typedef struct HtmlReport HtmlReport;

/* A report written to sink (borrowed until report_finish), its page titled by title (the
 * script's name). Writes the page's head. NULL when out of memory. */
HtmlReport *report_new(const RxSink *sink, const char *title);
/* Writes the end of the page and frees the report. 0, or -1 when a write failed. */
int report_finish(HtmlReport *r);
/* Frees the report without writing anything more (the page stays unfinished). */
void report_discard(HtmlReport *r);

/* A query's section: where names it ("hotel.rx:38"), text[0..len) is the statement. */
void report_query_begin(HtmlReport *r, const char *where, const char *text, size_t len);
/* Data flow: an input relation, then the result. show marks the columns to show (the ones the
 * query reads; NULL: all); a column that was never loaded is left out either way, and the
 * caption says how many of the table's columns are shown. */
void report_input(HtmlReport *r, const char *name, const Table *t, const uint8_t *show);
void report_result(HtmlReport *r, const Table *t);

typedef struct {
    const char *id, *what, *detail;
} RepRewrite;
void report_rewrites(HtmlReport *r, const RepRewrite *items, size_t n);
/* What one operator did in the run, as EXPLAIN ANALYZE prints it (ExecNodeStats in
 * exec.h): the rows it produced, its time inclusive of its inputs' and its own, and its peak
 * memory (with its share of the memory limit when one is set). ran false: it did not run. */
typedef struct {
    bool ran;
    double rows;
    double time_s, self_s;
    size_t peak_bytes;
    size_t limit_bytes;   /* the memory limit in force (0: none), which the peak is a share of */
} RepActual;
/* One operator of the physical plan, as plan_lines gives it, with what it did. */
void report_plan_line(HtmlReport *r, const char *tree, const char *label, long long est,
                      const RepActual *act);
/* The run notes, as plan_run_notes writes them (lines, each indented by two spaces). */
void report_run_notes(HtmlReport *r, const char *text);

/* An interval join, for its timeline: the inputs (l, r) with their endpoint columns, the
 * partition keys, and the first n_shown of its n_pairs matches (pl[i], pr[i]: rows of l, r). */
typedef struct {
    const char *title;        /* "IntervalJoin INTERSECTS" */
    const char *relation;     /* "INTERSECTS" */
    const char *left_name, *right_name;
    const Table *l, *r;
    int ends[4];              /* ls, le in l; rs, re in r */
    int n_keys;
    const int *lkeys, *rkeys;
    const char *const *key_names;
    const uint32_t *pl, *pr;
    size_t n_shown, n_pairs;
    const char *focus;        /* the pairs are those in this focus ("the left key 3"); NULL: all */
    size_t n_all;             /* with a focus: the join's pairs in all (n_pairs: in focus) */
} RepIJoin;
void report_ijoin(HtmlReport *r, const RepIJoin *j);

/* An AS-OF join, for its timeline: the inputs, the match columns, the partition keys, and the
 * matches of n_shown of its n_probes left rows (match[i]: a row of r, or ROW_NONE), the first
 * ones or, under a focus, the first in it (probe[i]). */
typedef struct {
    const char *title;        /* "AsOfJoin backward/inner/within PT5M" */
    const char *left_name, *right_name;
    const Table *l, *r;
    int lmatch, rmatch;
    int n_keys;
    const int *lkeys, *rkeys;
    const char *const *key_names;
    bool backward;            /* L >= R or L > R: a probe looks back in time */
    bool has_within;
    RxDuration within;
    const uint32_t *match;
    size_t n_shown, n_probes, n_matched;
    const uint32_t *probe;    /* the drawn probes' rows of l (match[i] is probe[i]'s); NULL: 0.. */
    const char *focus;        /* the probes are those in this focus; NULL: the first ones */
    size_t n_focus;           /* with a focus: the probes in it */
} RepAsof;
void report_asof(HtmlReport *r, const RepAsof *j);
/* A join that has no timeline, and why ("it ran in the database"). */
void report_no_timeline(HtmlReport *r, const char *title, const char *why);

/* An error: in the current query's section, or on its own when no query is open. */
void report_error(HtmlReport *r, const char *msg);
void report_query_end(HtmlReport *r);

#endif
