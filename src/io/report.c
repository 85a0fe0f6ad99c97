/*
 * report.c - the HTML report writer (report.h): "What the engine did", one section per query.
 *
 * An output writer like output.c, fed by the session: it relies on column.h for the data,
 * output.c (out_value_text) for the text of every value, so that a cell reads as it does in
 * the table format, and number.c and temporal.c for axis labels in each type's own form.
 *
 * Page layout, per query: the statement, "Data flow" (each input table, then the result, as
 * HTML tables of at most REPORT_ROWS rows), "Rewrites applied" (the optimizer's own log),
 * "Physical plan" (EXPLAIN's lines with an estimated and an actual row count per operator),
 * "Run notes", then a timeline per interval or AS-OF join.
 *
 * Timelines (inline SVG, one horizontal axis in the endpoint's own unit):
 *   1. The axis: INT and FLOAT are numbers; TIMESTAMP and DATE microseconds when any endpoint
 *      is a TIMESTAMP (a DATE is its midnight, as the join compares them), days otherwise;
 *      TIME and DURATION microseconds. TEXT orders but has no distance, so it has no axis: the
 *      page says so instead of drawing. Ticks fall on round steps (1-2-5 for numbers and
 *      days, the clock's own steps for time), labelled as the column's type prints.
 *   2. Interval join: each interval is a bar [start, end) on its own row, left rows in blue,
 *      right rows in orange, grouped by the partition key when the join has one. Each drawn
 *      pair is a connector between its two bars, at the middle of their shared time (or of
 *      the gap between them, for PRECEDES and MEETS); the bars of drawn pairs are solid, the
 *      others pale. Inputs of at most IJ_ALL_ROWS rows are drawn whole; from bigger ones, only
 *      the rows of the drawn pairs.
 *   3. AS-OF join: per partition, a lane of the right side's points above a lane of probes;
 *      a matched probe is a triangle with a line to its match, an unmatched one a red cross.
 *      The WITHIN bound, when there is one, is a pale band behind each probe.
 * Every bar, point and probe has an SVG <title> (a tooltip) with its row's values.
 *
 * Longer than the ~1,200 lines a file should hold: one self-contained HTML page (its styles,
 * script and every section's markup) written in one pass; splitting it per section is left
 * for later.
 */
#include "io/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/number.h"
#include "types/temporal.h"

#define FLUSH_AT (64 * 1024)
#define IJ_ALL_ROWS 40       /* an interval join's side of at most this many rows is drawn whole */
#define ASOF_POINTS_MAX 200  /* right points drawn at most */
#define ASOF_SCAN_MAX 5000   /* a bigger right side draws only its matched points */

enum { SEC_NONE, SEC_FLOW, SEC_REWRITES, SEC_PLAN, SEC_NOTES, SEC_TIMELINE };

struct HtmlReport {
    const RxSink *sink;
    StrBuf b;
    bool failed;
    bool in_query;
    int section;
    int n_queries;
};

/* ---- output --------------------------------------------------------------------------------- */

static void flush(HtmlReport *r) {
    if (r->failed || r->b.n == 0) return;
    if (r->b.oom || r->sink->write(r->sink->ud, r->b.p, r->b.n) != 0) r->failed = true;
    r->b.n = 0;
}

static void put(HtmlReport *r, const char *s) {
    sb_puts(&r->b, s);
    if (r->b.n >= FLUSH_AT) flush(r);
}

static void putf(HtmlReport *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(HtmlReport *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&r->b, fmt, ap);
    va_end(ap);
    if (r->b.n >= FLUSH_AT) flush(r);
}

/* Appends s[0..n) escaped for HTML text and attribute values, at most max_chars characters
 * (0: no limit; a cut text ends with …). Invalid UTF-8 and control characters other than tab
 * and newline become U+FFFD. */
static void esc_n(StrBuf *b, const char *s, size_t n, size_t max_chars) {
    size_t chars = 0;
    for (size_t i = 0; i < n;) {
        if (max_chars && chars == max_chars) {
            sb_puts(b, "…");
            return;
        }
        unsigned char c = (unsigned char)s[i];
        chars++;
        if (c < 0x80) {
            switch (c) {
            case '&': sb_puts(b, "&amp;"); break;
            case '<': sb_puts(b, "&lt;"); break;
            case '>': sb_puts(b, "&gt;"); break;
            case '"': sb_puts(b, "&quot;"); break;
            case '\'': sb_puts(b, "&#39;"); break;
            default:
                if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) sb_puts(b, "\xEF\xBF\xBD");
                else sb_putc(b, (char)c);
            }
            i++;
            continue;
        }
        int k = utf8_seq_len((const unsigned char *)s + i, n - i);
        if (k <= 0) {
            sb_puts(b, "\xEF\xBF\xBD");
            i++;
            continue;
        }
        /* C1 controls (U+0080..U+009F) too */
        if (k == 2 && c == 0xC2 && (unsigned char)s[i + 1] < 0xA0) sb_puts(b, "\xEF\xBF\xBD");
        else sb_append(b, s + i, (size_t)k);
        i += (size_t)k;
    }
}

static void esc(HtmlReport *r, const char *s) {
    if (s) esc_n(&r->b, s, strlen(s), 0);
    if (r->b.n >= FLUSH_AT) flush(r);
}

/* ---- page ----------------------------------------------------------------------------------- */

static const char css[] =
    ":root{--fg:#1d2330;--dim:#667085;--line:#d0d5dd;--soft:#eaecf0;--left:#2f6fb3;"
    "--right:#dd7a1c;--pair:#b42318}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:#f4f5f7;color:var(--fg);"
    "font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}\n"
    "main{max-width:1120px;margin:0 auto;padding:20px 24px 40px}\n"
    "header.page h1{font-size:22px;margin:0 0 2px}\n"
    "header.page p{margin:0;color:var(--dim)}\n"
    "section.query{background:#fff;border:1px solid var(--line);border-radius:8px;"
    "padding:14px 20px 18px;margin:18px 0}\n"
    "h2{font-size:17px;margin:0 0 8px}\n"
    "h2 .where{font-weight:400;color:var(--dim);font-size:13px;margin-left:6px}\n"
    "h3{font-size:14px;margin:18px 0 8px;padding-bottom:3px;border-bottom:1px solid var(--soft);"
    "color:#344054}\n"
    "pre,code,.mono,table.data td,table.data th,table.plan td{font-family:ui-monospace,"
    "SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:12.5px}\n"
    "pre.src{background:#f2f4f7;border-radius:6px;padding:8px 12px;margin:0;overflow:auto;"
    "white-space:pre-wrap}\n"
    "pre.error{background:#fef3f2;color:#912018;border:1px solid #fecdca;border-radius:6px;"
    "padding:8px 12px;overflow:auto}\n"
    ".inputs{display:flex;flex-wrap:wrap;gap:14px 18px;align-items:flex-start}\n"
    ".down{color:var(--dim);margin:8px 0 6px;font-size:13px}\n"
    "figure{margin:0;max-width:100%}\n"
    "figcaption{font-size:13px;margin:0 0 4px}\n"
    "figcaption .dim,.dim{color:var(--dim);font-weight:400}\n"
    ".tw{display:inline-block;vertical-align:top;overflow:auto;max-width:100%;"
    "border:1px solid var(--line);border-radius:6px}\n"
    "table{border-collapse:collapse}\n"
    "table.data th,table.data td{padding:3px 9px;border-bottom:1px solid var(--soft);"
    "text-align:left;white-space:pre;vertical-align:top}\n"
    "table.data th{background:#f9fafb;font-weight:600}\n"
    "table.data th .ty{display:block;font-weight:400;font-size:10.5px;color:var(--dim)}\n"
    "table.data td.num{text-align:right}\n"
    "table.data tr:last-child td{border-bottom:0}\n"
    ".null{color:#98a2b3;font-style:italic}\n"
    "tr.more td{color:var(--dim);font-style:italic;font-family:inherit}\n"
    "figure.result figcaption b{color:#067647}\n"
    "ul.rewrites{margin:0;padding-left:20px}\n"
    "ul.rewrites li{margin:2px 0}\n"
    "ul.rewrites code{background:#eef4ff;color:#2b4c9b;border-radius:4px;padding:0 4px}\n"
    ".pw{overflow-x:auto;max-width:100%}\n"
    "table.plan th{font-size:12px;color:var(--dim);font-weight:600;text-align:right;"
    "padding:2px 10px;border-bottom:1px solid var(--line)}\n"
    "table.plan th.op{text-align:left}\n"
    "table.plan td{padding:1px 10px;white-space:pre}\n"
    "table.plan td.est,table.plan td.act,table.plan td.t{text-align:right;color:#344054}\n"
    "table.plan td.act.off{color:#b54708;font-weight:600}\n"
    "table.plan .tree{color:#98a2b3}\n"
    ".none{color:var(--dim);font-style:italic;margin:0}\n"
    "figure.timeline{margin:6px 0 14px}\n"
    "figure.timeline figcaption{color:var(--dim);margin:4px 0 0;max-width:980px}\n"
    "svg.timeline{max-width:100%;height:auto;background:#fff;border:1px solid var(--soft);"
    "border-radius:6px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',"
    "sans-serif}\n"
    "svg text{font-size:11px;fill:#344054}\n"
    "svg text.group{font-weight:600;fill:#1d2330}\n"
    "svg text.tick{fill:#667085}\n"
    "svg text.lab-left{fill:#1f4e85}\n"
    "svg text.lab-right{fill:#9a4f0b}\n"
    "svg .grid{stroke:#eaecf0}\n"
    "svg .axis{stroke:#98a2b3}\n"
    "svg.density{max-width:100%;height:auto;background:#fff;border:1px solid var(--soft);"
    "border-top:0;border-radius:0 0 6px 6px;display:block}\n"
    "svg rect.dens.left{fill:var(--left);opacity:.75}\n"
    "svg rect.dens.right{fill:var(--right);opacity:.75}\n"
    "svg rect.bar.left{fill:var(--left)}\n"
    "svg rect.bar.right{fill:var(--right)}\n"
    "svg rect.bar{opacity:.3}\n"
    "svg rect.bar.matched{opacity:1}\n"
    "svg rect.bar.inverted{fill:#fff;stroke-dasharray:3 2;stroke-width:1.5}\n"
    "svg rect.bar.left.inverted{stroke:var(--left)}\n"
    "svg rect.bar.right.inverted{stroke:var(--right)}\n"
    "svg path.pair{fill:none;stroke:var(--pair);stroke-width:1.6}\n"
    "svg circle.end{fill:var(--pair)}\n"
    "svg circle.point{fill:var(--right);stroke:#9a4f0b}\n"
    "svg circle.point.idle{fill:#fff;stroke:#98a2b3}\n"
    "svg path.probe.matched{fill:var(--left)}\n"
    "svg path.probe.unmatched{fill:none;stroke:#d92d20;stroke-width:2.2}\n"
    "svg line.link{stroke:#344054;stroke-width:1.3}\n"
    "svg rect.window{fill:#2f6fb3;opacity:.09}\n"
    "svg .lane{stroke:#d0d5dd;stroke-dasharray:2 3}\n";

HtmlReport *report_new(const RxSink *sink, const char *title) {
    HtmlReport *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->sink = sink;
    sb_init(&r->b);
    put(r, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    esc(r, title);
    put(r, " · Relix report</title>\n<style>\n");
    put(r, css);
    put(r, "</style>\n</head>\n<body>\n<main>\n<header class=\"page\"><h1>What the engine did</h1>"
           "<p>");
    esc(r, title);
    put(r, "</p></header>\n");
    flush(r);
    return r;
}

static void close_section(HtmlReport *r) {
    if (r->section == SEC_FLOW) put(r, "</div>\n");
    if (r->section == SEC_PLAN) put(r, "</tbody></table></div>\n");
    r->section = SEC_NONE;
}

/* Opens section s of the current query (after closing the one before). */
static void open_section(HtmlReport *r, int s) {
    if (r->section == s) return;
    close_section(r);
    r->section = s;
    switch (s) {
    case SEC_FLOW: put(r, "<h3>Data flow</h3>\n<div class=\"flow\">\n"); break;
    case SEC_REWRITES: put(r, "<h3>Rewrites applied</h3>\n"); break;
    case SEC_PLAN:
        put(r, "<h3>Physical plan</h3>\n<div class=\"pw\"><table class=\"plan\"><thead><tr><th class=\"op\">operator"
               "</th><th>estimated</th><th>actual</th><th>time</th><th>self</th><th>peak memory</th>"
               "</tr></thead><tbody>\n");
        break;
    case SEC_NOTES: put(r, "<h3>Run notes</h3>\n"); break;
    case SEC_TIMELINE: put(r, "<h3>Timeline</h3>\n"); break;
    }
}

int report_finish(HtmlReport *r) {
    if (!r) return -1;
    if (r->in_query) report_query_end(r);
    if (r->n_queries == 0) put(r, "<p class=\"none\">The script ran no query.</p>\n");
    put(r, "</main>\n</body>\n</html>\n");
    flush(r);
    int rc = r->failed ? -1 : 0;
    sb_free(&r->b);
    free(r);
    return rc;
}

void report_discard(HtmlReport *r) {
    if (!r) return;
    sb_free(&r->b);
    free(r);
}

void report_query_begin(HtmlReport *r, const char *where, const char *text, size_t len) {
    if (r->in_query) report_query_end(r);
    r->in_query = true;
    r->section = SEC_NONE;
    r->n_queries++;
    putf(r, "<section class=\"query\" id=\"q%d\">\n<h2>Query %d<span class=\"where\">", r->n_queries,
         r->n_queries);
    esc(r, where);
    put(r, "</span></h2>\n<pre class=\"src\">");
    esc_n(&r->b, text, len, 4000);
    put(r, "</pre>\n");
}

void report_query_end(HtmlReport *r) {
    if (!r->in_query) return;
    close_section(r);
    put(r, "</section>\n");
    r->in_query = false;
    flush(r);
}

void report_error(HtmlReport *r, const char *msg) {
    if (r->in_query) close_section(r);
    if (r->in_query) put(r, "<h3>Error</h3>\n");
    put(r, "<pre class=\"error\">");
    esc(r, msg);
    put(r, "</pre>\n");
    flush(r);
}

/* ---- tables --------------------------------------------------------------------------------- */

static void cell(HtmlReport *r, const Column *c, size_t row, StrBuf *tmp) {
    bool num = c->type == TY_INT || c->type == TY_FLOAT;
    put(r, num ? "<td class=\"num\">" : "<td>");
    if (col_is_null(c, row) || c->type == TY_NULL) {
        put(r, "<span class=\"null\">NULL</span></td>");
        return;
    }
    tmp->n = 0;
    out_value_text(c, row, "NULL", tmp);
    esc_n(&r->b, tmp->p ? tmp->p : "", tmp->n, REPORT_CELL_MAX);
    put(r, "</td>");
}

static void data_table(HtmlReport *r, const char *cls, const char *name, const Table *t,
                       const uint8_t *show) {
    int n_show = 0;
    for (int c = 0; c < t->n_cols; c++) n_show += (!show || show[c]) && !t->cols[c]->pruned;
    putf(r, "<figure class=\"%s\"><figcaption><b>", cls);
    esc(r, name);
    putf(r, "</b> <span class=\"dim\">%zu row%s", t->n_rows, t->n_rows == 1 ? "" : "s");
    if (n_show < t->n_cols) putf(r, ", %d of %d columns read", n_show, t->n_cols);
    put(r, "</span></figcaption>\n<div class=\"tw\"><table class=\"data\"><thead><tr>");
    for (int c = 0; c < t->n_cols; c++) {
        if ((show && !show[c]) || t->cols[c]->pruned) continue;
        put(r, "<th>");
        esc(r, t->names[c]);
        putf(r, "<span class=\"ty\">%s</span></th>", type_name(t->cols[c]->type));
    }
    put(r, "</tr></thead>\n<tbody>\n");
    size_t shown = t->n_rows < REPORT_ROWS ? t->n_rows : REPORT_ROWS;
    StrBuf tmp;
    sb_init(&tmp);
    for (size_t i = 0; i < shown; i++) {
        put(r, "<tr>");
        for (int c = 0; c < t->n_cols; c++)
            if ((!show || show[c]) && !t->cols[c]->pruned) cell(r, t->cols[c], i, &tmp);
        put(r, "</tr>\n");
    }
    sb_free(&tmp);
    if (shown < t->n_rows)
        putf(r, "<tr class=\"more\"><td colspan=\"%d\">… %zu more row%s</td></tr>\n", n_show ? n_show : 1,
             t->n_rows - shown, t->n_rows - shown == 1 ? "" : "s");
    if (n_show == 0) put(r, "<tr class=\"more\"><td>(no columns)</td></tr>\n");
    put(r, "</tbody></table></div></figure>\n");
}

void report_input(HtmlReport *r, const char *name, const Table *t, const uint8_t *show) {
    if (r->section != SEC_FLOW) {
        open_section(r, SEC_FLOW);
        put(r, "<div class=\"inputs\">\n");
    }
    data_table(r, "rel input", name, t, show);
}

void report_result(HtmlReport *r, const Table *t) {
    if (r->section != SEC_FLOW) {
        open_section(r, SEC_FLOW);
        put(r, "<div class=\"inputs\">\n");
    }
    put(r, "</div>\n<div class=\"down\">↓ the query</div>\n");
    data_table(r, "rel result", "Result", t, NULL);
}

void report_rewrites(HtmlReport *r, const RepRewrite *items, size_t n) {
    open_section(r, SEC_REWRITES);
    if (n == 0) {
        put(r, "<p class=\"none\">(none)</p>\n");
        return;
    }
    put(r, "<ul class=\"rewrites\">\n");
    for (size_t i = 0; i < n; i++) {
        put(r, "<li><code>");
        esc(r, items[i].id);
        put(r, "</code> ");
        esc(r, items[i].what);
        put(r, " <span class=\"dim\">");
        esc(r, items[i].detail);
        put(r, "</span></li>\n");
    }
    put(r, "</ul>\n");
}

void report_plan_line(HtmlReport *r, const char *tree, const char *label, long long est,
                      const RepActual *act) {
    open_section(r, SEC_PLAN);
    put(r, "<tr><td class=\"op\"><span class=\"tree\">");
    esc(r, tree);
    put(r, "</span>");
    esc(r, label);
    putf(r, "</td><td class=\"est\">~%lld</td>", est);
    if (!act->ran) {
        put(r, "<td class=\"act\">—</td><td class=\"t\">—</td><td class=\"t\">—</td>"
               "<td class=\"t\">—</td></tr>\n");
        return;
    }
    /* an estimate off by more than a factor of ten stands out */
    double actual = act->rows;
    double e = est > 0 ? (double)est : 0.5, a = actual > 0 ? actual : 0.5;
    bool off = e / a > 10 || a / e > 10;
    char peak[32], share[48] = "";
    rx_format_bytes(peak, sizeof peak, act->peak_bytes);
    if (act->limit_bytes) {
        char f[40];
        rx_format_share(f, sizeof f, act->peak_bytes, act->limit_bytes);
        snprintf(share, sizeof share, " (%s)", f);
    }
    putf(r, "<td class=\"act%s\">%.0f</td><td class=\"t\">%.3f ms</td><td class=\"t\">%.3f ms</td>"
            "<td class=\"t\">%s", off ? " off" : "", actual, act->time_s * 1e3, act->self_s * 1e3, peak);
    esc(r, share);   /* "<1% of ..." */
    put(r, "</td></tr>\n");
}

void report_run_notes(HtmlReport *r, const char *text) {
    if (!text || !*text) return;
    open_section(r, SEC_NOTES);
    put(r, "<ul class=\"rewrites\">\n");
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *s = p;
        while (n && *s == ' ') s++, n--;
        if (n) {
            put(r, "<li>");
            esc_n(&r->b, s, n, 0);
            put(r, "</li>\n");
        }
        p = nl ? nl + 1 : p + strlen(p);
    }
    put(r, "</ul>\n");
}

/* ---- timeline axis -------------------------------------------------------------------------- */

typedef enum { AX_NONE, AX_NUM, AX_TS, AX_DATE, AX_TIME, AX_DUR } AxisKind;

typedef struct {
    AxisKind kind;
    bool ints;            /* AX_NUM over INT columns only: integer ticks */
    double lo, hi;        /* the drawn range */
    double x0, width;     /* its pixels */
    double svg_w;         /* the drawing's width: labels stay inside it */
} Axis;


typedef struct {
    RxStr s;
    int64_t v;
} TextTime;

static int cmp_text_time(const void *a, const void *b) {
    return rx_str_cmp(&((const TextTime *)a)->s, &((const TextTime *)b)->s);
}

/* TEXT endpoints have an axis only when every value is ISO-8601 text (all dates, or all
 * timestamps) whose text order, the order the join compares in (bytes, as keys.c ranks
 * them), is also its time order, so that the drawing agrees with the matches; otherwise
 * AX_NONE and why. At most TEXT_AXIS_MAX values are read. */
#define TEXT_AXIS_MAX 400000
static AxisKind text_axis(const Column *const *cols, int n, const char **why) {
    static const char *const no_distance =
        "the columns are TEXT: text has an order but no distance, so it has no place on an "
        "axis (to_timestamp, to_date, to_time or to_int converts it)";
    size_t total = 0;
    for (int i = 0; i < n; i++) total += cols[i]->n;
    if (total > TEXT_AXIS_MAX) {
        *why = "the columns are TEXT, and too long to read every value as a time (to_timestamp or "
               "to_date converts them)";
        return AX_NONE;
    }
    TextTime *tt = malloc((total + 1) * sizeof *tt);
    if (!tt) {
        *why = "out of memory";
        return AX_NONE;
    }
    size_t k = 0;
    bool dates = true;
    for (int i = 0; i < n; i++)
        for (size_t r = 0; r < cols[i]->n; r++)
            if (!col_is_null(cols[i], r)) {
                tt[k].s = col_text(cols[i], r);
                dates &= tt[k].s.len == 10;
                k++;
            }
    AxisKind kind = dates ? AX_DATE : AX_TS;
    for (size_t i = 0; i < k && kind != AX_NONE; i++) {
        const char *w;
        int32_t d;
        if (kind == AX_DATE ? tm_parse_date(tt[i].s.ptr, tt[i].s.len, &d, &w) != 0
                            : tm_parse_timestamp(tt[i].s.ptr, tt[i].s.len, &tt[i].v, &w) != 0)
            kind = AX_NONE;
        else if (kind == AX_DATE)
            tt[i].v = d;
    }
    if (kind == AX_NONE) {
        *why = no_distance;
    } else {
        qsort(tt, k, sizeof *tt, cmp_text_time);
        for (size_t i = 1; i < k && kind != AX_NONE; i++)
            if (rx_str_cmp(&tt[i - 1].s, &tt[i].s) != 0 && tt[i - 1].v >= tt[i].v) {
                kind = AX_NONE;
                *why = "the columns are TEXT holding ISO-8601 times whose text order (the join's) "
                       "is not their time order (mixed forms or zone offsets), so no axis can show "
                       "both; to_timestamp converts them";
            }
    }
    free(tt);
    return kind;
}

/* The axis for columns of these types, or AX_NONE with the reason in *why. */
static AxisKind axis_for(const Column *const *cols, int n, bool *ints, const char **why) {
    bool num = true, tsd = true, any_ts = false, tim = true, dur = true;
    *ints = true;
    for (int i = 0; i < n; i++) {
        RxType t = cols[i]->type;
        if (cols[i]->pruned) {
            *why = "its columns were not loaded";
            return AX_NONE;
        }
        if (t == TY_TEXT) return text_axis(cols, n, why);
        num &= t == TY_INT || t == TY_FLOAT;
        *ints &= t == TY_INT;
        tsd &= t == TY_TIMESTAMP || t == TY_DATE;
        any_ts |= t == TY_TIMESTAMP;
        tim &= t == TY_TIME;
        dur &= t == TY_DURATION;
    }
    if (num) return AX_NUM;
    if (tsd) return any_ts ? AX_TS : AX_DATE;
    if (tim) return AX_TIME;
    if (dur) {
        for (int i = 0; i < n; i++)
            for (size_t k = 0; k < cols[i]->n; k++)
                if (!col_is_null(cols[i], k) && col_dur(cols[i])[k].months != 0) {
                    *why = "a DURATION with months has no fixed length to place on an axis";
                    return AX_NONE;
                }
        return AX_DUR;
    }
    *why = "its columns have no common axis";
    return AX_NONE;
}

/* The value at row i on axis kind; false for NULL (and NaN or infinite). */
static bool ax_value(const Column *c, size_t i, AxisKind kind, double *out) {
    if (col_is_null(c, i)) return false;
    switch (c->type) {
    case TY_INT: *out = (double)col_i64(c)[i]; return true;
    case TY_FLOAT: *out = col_f64(c)[i]; return isfinite(*out);
    case TY_TIMESTAMP: case TY_TIME: *out = (double)col_i64(c)[i]; return true;
    case TY_DATE: *out = (double)col_i32(c)[i] * (kind == AX_TS ? (double)US_PER_DAY : 1.0); return true;
    case TY_DURATION: *out = (double)col_dur(c)[i].us; return true;
    case TY_TEXT: {
        /* ISO-8601 text, which text_axis has checked */
        RxStr s = col_text(c, i);
        const char *why;
        int64_t us;
        int32_t d;
        if (kind == AX_DATE && tm_parse_date(s.ptr, s.len, &d, &why) == 0) {
            *out = d;
            return true;
        }
        if (kind == AX_TS && tm_parse_timestamp(s.ptr, s.len, &us, &why) == 0) {
            *out = (double)us;
            return true;
        }
        return false;
    }
    default: return false;
    }
}

/* A value of the axis as its type prints. */
static size_t ax_label(const Axis *ax, double v, char *buf) {
    switch (ax->kind) {
    case AX_NUM:
        if (ax->ints) return num_format_int((int64_t)llround(v), buf);
        return num_format_double(v, buf);
    case AX_TS: return tm_format_timestamp((int64_t)llround(v), buf);
    case AX_DATE: return tm_format_date((int32_t)llround(v), buf);
    case AX_TIME: return tm_format_time((int64_t)llround(v), buf);
    case AX_DUR: return tm_format_duration((RxDuration){0, (int64_t)llround(v)}, buf);
    case AX_NONE: break;
    }
    buf[0] = 0;
    return 0;
}

/* Sets the drawn range from the data's [lo, hi]: a single value gets a unit around it, and
 * the range is padded by 4% on each side so that no bar touches the frame. */
static void ax_range(Axis *ax, double lo, double hi) {
    if (hi <= lo) {
        double unit = ax->kind == AX_TS ? (double)US_PER_HOUR
                    : ax->kind == AX_TIME || ax->kind == AX_DUR ? (double)US_PER_MIN
                    : 1.0;
        if (ax->kind == AX_NUM && !ax->ints && fabs(lo) > 0) unit = fabs(lo) * 0.1;
        lo -= unit;
        hi += unit;
    }
    double pad = (hi - lo) * 0.04;
    ax->lo = lo - pad;
    ax->hi = hi + pad;
}

static double ax_x(const Axis *ax, double v) {
    return ax->x0 + (v - ax->lo) / (ax->hi - ax->lo) * ax->width;
}

/* The tick step: the smallest round step that gives at most max_ticks ticks. For numbers and
 * days 1-2-5 times a power of ten as (mantissa, exponent); for microseconds the clock's steps. */
typedef struct {
    double step;
    int mant, exp10;      /* AX_NUM and AX_DATE: step = mant * 10^exp10 */
} Step;

static Step choose_step(const Axis *ax, int max_ticks) {
    double range = ax->hi - ax->lo;
    Step s = {0, 1, 0};
    if ((ax->kind == AX_TS || ax->kind == AX_TIME || ax->kind == AX_DUR) && range >= 2e6) {
        /* seconds: the clock's steps, then days, weeks, 30-day months and 365-day years */
        static const double secs[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
                                      7200, 10800, 21600, 43200, 86400, 172800, 259200, 604800,
                                      1209600, 2592000, 5184000, 7776000, 15552000, 31536000,
                                      63072000, 157680000, 315360000, 630720000, 1576800000,
                                      3153600000.0, 6307200000.0, 15768000000.0, 31536000000.0};
        for (size_t i = 0; i < RX_ARRAY_LEN(secs); i++) {
            s.step = secs[i] * 1e6;
            if (range / s.step <= max_ticks) return s;
        }
        /* past a thousand years: 1-2-5 steps below */
    }
    /* numbers and days; microseconds when a time axis spans less than two seconds */
    double raw = range / max_ticks;
    int e = (int)floor(log10(raw > 0 ? raw : 1));
    static const int mants[] = {1, 2, 5, 10};
    for (int k = 0; k < 4; k++) {
        double st = mants[k] * pow(10, e);
        if (st >= raw) {
            s.mant = mants[k] == 10 ? 1 : mants[k];
            s.exp10 = mants[k] == 10 ? e + 1 : e;
            s.step = st;
            break;
        }
    }
    if ((ax->ints || ax->kind != AX_NUM) && s.step < 1) {  /* whole units: integers, days, µs */
        s.step = 1, s.mant = 1, s.exp10 = 0;
    }
    return s;
}

/* Tick k of step s: k * mant * 10^exp, computed so that decimal steps print exactly (0.3, not
 * 0.30000000000000004). */
static double tick_value(Step s, double k) {
    if (s.exp10 < 0 && s.step < 1) return k * s.mant / pow(10, -s.exp10);
    return k * s.step;
}

/* The step to draw: the densest (eight ticks at most) whose labels, as they print, fit side
 * by side. */
static Step fit_step(const Axis *ax) {
    Step best = choose_step(ax, 2);
    for (int mt = 2; mt <= 12; mt++) {
        Step s = choose_step(ax, mt);
        double k0 = ceil(ax->lo / s.step), k1 = floor(ax->hi / s.step);
        if (k1 - k0 > 40) break;
        size_t widest = 0;
        int n = 0;
        for (double k = k0; k <= k1; k++, n++) {
            char t[TM_BUF + NUM_BUF];
            size_t w = ax_label(ax, tick_value(s, k), t);
            if (w > widest) widest = w;
        }
        if (n > 8 || (double)n * ((double)widest * 6.3 + 16) > ax->width) break;
        best = s;
    }
    return best;
}

/* The axis at y: a line, ticks, their labels and grid lines up to y_top. */
static void draw_axis(HtmlReport *r, const Axis *ax, double y_top, double y) {
    Step s = fit_step(ax);
    putf(r, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ax->x0, y,
         ax->x0 + ax->width, y);
    double k0 = ceil(ax->lo / s.step), k1 = floor(ax->hi / s.step);
    for (double k = k0; k <= k1 && k - k0 < 40; k++) {
        double v = tick_value(s, k), x = ax_x(ax, v);
        char t[TM_BUF + NUM_BUF];
        double half = (double)ax_label(ax, v, t) * 3.2 + 2;
        double xt = x + half > ax->svg_w ? ax->svg_w - half : x;
        putf(r, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
             x, y_top, x, y, x, y, x, y + 4, xt, y + 16);
        esc(r, t);
        put(r, "</text>\n");
    }
}

/* ---- row labels and partitions -------------------------------------------------------------- */

/* The column that names a side's rows in a drawing: its first loaded TEXT column that is not
 * one of skip[0..n_skip), else its first loaded such column of any type; -1: none. */
static int label_column(const Table *t, const int *skip, int n_skip, bool text_first) {
    for (int pass = text_first ? 0 : 1; pass < 2; pass++)
        for (int c = 0; c < t->n_cols; c++) {
            bool skipped = false;
            for (int k = 0; k < n_skip; k++) skipped |= skip[k] == c;
            if (skipped || t->cols[c]->pruned || t->cols[c]->type == TY_NULL) continue;
            if (pass == 0 && t->cols[c]->type != TY_TEXT) continue;
            return c;
        }
    return -1;
}

/* Appends the label of row i (at most 22 characters, escaped); "row N" without a column. */
static void row_label(StrBuf *out, const Table *t, int col, size_t i, StrBuf *tmp) {
    if (col < 0) {
        sb_printf(out, "row %zu", i + 1);
        return;
    }
    tmp->n = 0;
    out_value_text(t->cols[col], i, "NULL", tmp);
    esc_n(out, tmp->p ? tmp->p : "", tmp->n, 22);
}

/* The text of a row's partition key ("101", "ACME, X"), in the arena-less StrBuf out. */
static void key_text(StrBuf *out, const Table *t, const int *keys, int n_keys, size_t i) {
    out->n = 0;
    for (int k = 0; k < n_keys; k++) {
        if (k) sb_puts(out, ", ");
        out_value_text(t->cols[keys[k]], i, "NULL", out);
    }
    sb_putc(out, 0);
    out->n--;
}

/* A list of distinct partition texts in order of first appearance. */
typedef struct {
    char **s;
    size_t n, cap;
} Groups;

static int group_of(Groups *g, const char *text) {
    for (size_t i = 0; i < g->n; i++)
        if (strcmp(g->s[i], text) == 0) return (int)i;
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 8;
        char **p = realloc(g->s, cap * sizeof *p);
        if (!p) return -1;
        g->s = p;
        g->cap = cap;
    }
    g->s[g->n] = strdup(text);
    if (!g->s[g->n]) return -1;
    return (int)g->n++;
}

static int find_group(const Groups *g, const char *text) {
    for (size_t i = 0; i < g->n; i++)
        if (strcmp(g->s[i], text) == 0) return (int)i;
    return -1;
}

static void groups_free(Groups *g) {
    for (size_t i = 0; i < g->n; i++) free(g->s[i]);
    free(g->s);
}

static void group_heading(HtmlReport *r, const char *const *names, int n_keys, const char *text,
                          double x, double y) {
    putf(r, "<text class=\"group\" x=\"%.1f\" y=\"%.1f\">", x, y);
    for (int k = 0; k < n_keys; k++) {
        if (k) put(r, ", ");
        esc(r, names[k]);
    }
    put(r, " = ");
    esc(r, text);
    put(r, "</text>\n");
}

/* A legend entry: a swatch (a bar, a point, a probe or a connector) and its text. */
static void legend_item(HtmlReport *r, double x, double y, const char *swatch, const char *name,
                        const char *side) {
    putf(r, "<g class=\"legend\" transform=\"translate(%.1f %.1f)\">%s<text x=\"20\" y=\"4\">", x, y,
         swatch);
    esc(r, name);
    if (side) putf(r, " <tspan class=\"tick\">(%s)</tspan>", side);
    put(r, "</text></g>\n");
}

/* ---- the interval join's timeline ----------------------------------------------------------- */

/* The density of both inputs over the range of all their intervals, drawn under a timeline
 * whose bars show only some rows: for each of DENSITY_BINS equal bins, how many of a side's
 * intervals cover it (left bars up from the middle line, right bars down), each bin with a
 * tooltip. Reads every row once; what it writes is bounded by the bins, not by the rows. */
#define DENSITY_BINS 120
static void draw_density(HtmlReport *r, const RepIJoin *j, const Column *const *ec, AxisKind kind,
                         bool ints) {
    double lo = INFINITY, hi = -INFINITY;
    for (int side = 0; side < 2; side++) {
        const Table *t = side ? j->r : j->l;
        for (size_t i = 0; i < t->n_rows; i++) {
            double a, b;
            if (!ax_value(ec[side * 2], i, kind, &a) || !ax_value(ec[side * 2 + 1], i, kind, &b)) continue;
            lo = fmin(lo, fmin(a, b));
            hi = fmax(hi, fmax(a, b));
        }
    }
    if (!(lo <= hi)) return;
    const double W = 1000, ML = 180, MR = 24, HB = 40, TOP = 26;
    Axis ax = {.kind = kind, .ints = ints, .x0 = ML, .width = W - ML - MR, .svg_w = W};
    ax_range(&ax, lo, hi);
    double bw = (ax.hi - ax.lo) / DENSITY_BINS;
    long long cover[2][DENSITY_BINS + 1];
    memset(cover, 0, sizeof cover);
    size_t rows[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        const Table *t = side ? j->r : j->l;
        for (size_t i = 0; i < t->n_rows; i++) {
            double a, b;
            if (!ax_value(ec[side * 2], i, kind, &a) || !ax_value(ec[side * 2 + 1], i, kind, &b)) continue;
            if (a > b) { double x = a; a = b; b = x; }
            int b0 = (int)floor((a - ax.lo) / bw), b1 = (int)floor((b - ax.lo) / bw);
            b0 = b0 < 0 ? 0 : b0 >= DENSITY_BINS ? DENSITY_BINS - 1 : b0;
            b1 = b1 < b0 ? b0 : b1 >= DENSITY_BINS ? DENSITY_BINS - 1 : b1;
            cover[side][b0]++;
            cover[side][b1 + 1]--;
            rows[side]++;
        }
        for (int k = 1; k <= DENSITY_BINS; k++) cover[side][k] += cover[side][k - 1];
    }
    long long top = 1;
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < DENSITY_BINS; k++) top = cover[side][k] > top ? cover[side][k] : top;
    double mid = TOP + HB, axis_y = mid + HB + 8, H = axis_y + 24;
    putf(r, "<svg class=\"density\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\">\n",
         W, H, W, H);
    putf(r, "<text class=\"tick\" x=\"%.1f\" y=\"16\">density of all %zu left and %zu right intervals: "
            "how many cover each of %d bins (at most %lld)</text>\n", ML, rows[0], rows[1], DENSITY_BINS, top);
    putf(r, "<text class=\"lab-left\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ML - 10, mid - 6);
    esc(r, j->left_name);
    putf(r, "</text>\n<text class=\"lab-right\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ML - 10, mid + 14);
    esc(r, j->right_name);
    put(r, "</text>\n");
    draw_axis(r, &ax, TOP, axis_y);
    double px = ax.width / DENSITY_BINS;
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < DENSITY_BINS; k++) {
            long long c = cover[side][k];
            if (c <= 0) continue;
            double h = HB * (double)c / (double)top;
            if (h < 1) h = 1;
            double x = ax.x0 + k * px;
            putf(r, "<rect class=\"dens %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>%lld ",
                 side ? "right" : "left", x, side ? mid : mid - h, px, h, c);
            esc(r, side ? j->right_name : j->left_name);
            char t0[TM_BUF + NUM_BUF], t1[TM_BUF + NUM_BUF];
            ax_label(&ax, ax.lo + k * bw, t0);
            ax_label(&ax, ax.lo + (k + 1) * bw, t1);
            put(r, " intervals cover [");
            esc(r, t0);
            put(r, ", ");
            esc(r, t1);
            put(r, ")</title></rect>\n");
        }
    putf(r, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ax.x0, mid,
         ax.x0 + ax.width, mid);
    put(r, "</svg>\n");
}

typedef struct {
    int side;         /* 0 left, 1 right */
    uint32_t row;
    int group;
    double s, e;      /* endpoints on the axis */
    bool matched;     /* in a drawn pair */
    double y;
} Bar;

static int cmp_bar(const void *a, const void *b) {
    const Bar *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    if (x->side != y->side) return x->side < y->side ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static void timeline_open(HtmlReport *r, const char *title) {
    open_section(r, SEC_TIMELINE);
    put(r, "<figure class=\"timeline\">\n<figcaption style=\"margin:0 0 4px;color:inherit\"><b>");
    esc(r, title);
    put(r, "</b></figcaption>\n");
}

void report_no_timeline(HtmlReport *r, const char *title, const char *why) {
    timeline_open(r, title);
    put(r, "<p class=\"none\">No timeline: ");
    esc(r, why);
    put(r, ".</p>\n</figure>\n");
}

/* The figure of a join the focus (--report-key, --report-window) leaves nothing of: "none of
 * its N pairs has FOCUS"; thing is what the join has n of ("pair", "probe"). */
static void no_timeline_in_focus(HtmlReport *r, const char *title, size_t n, const char *thing,
                                 const char *focus) {
    StrBuf none;
    sb_init(&none);
    sb_printf(&none, "none of its %zu %s%s has %s", n, thing, n == 1 ? "" : "s", focus);
    report_no_timeline(r, title, none.p ? none.p : "nothing is in focus");
    sb_free(&none);
}

/* Picks the rows of one side to draw: every row of a small side, else only the rows of the
 * drawn pairs (padding with unrelated rows would make every connector cross them). in[i]
 * marks the rows in drawn pairs. */
static size_t pick_rows(size_t n, const uint8_t *in, uint8_t *pick) {
    size_t k = 0;
    if (n <= IJ_ALL_ROWS) {
        memset(pick, 1, n);
        return n;
    }
    for (size_t i = 0; i < n; i++) k += pick[i] = in[i];
    return k;
}

static void bar_title(StrBuf *b, const char *side, const Table *t, int lab, uint32_t row,
                      const Column *cs, const Column *ce, StrBuf *tmp) {
    sb_puts(b, "<title>");
    esc_n(b, side, strlen(side), 0);
    sb_puts(b, " ");
    row_label(b, t, lab, row, tmp);
    sb_puts(b, ": [");
    tmp->n = 0;
    out_value_text(cs, row, "NULL", tmp);
    esc_n(b, tmp->p, tmp->n, 40);
    sb_puts(b, ", ");
    tmp->n = 0;
    out_value_text(ce, row, "NULL", tmp);
    esc_n(b, tmp->p, tmp->n, 40);
    sb_puts(b, ")</title>");
}

void report_ijoin(HtmlReport *r, const RepIJoin *j) {
    const Column *ec[4] = {j->l->cols[j->ends[0]], j->l->cols[j->ends[1]], j->r->cols[j->ends[2]],
                           j->r->cols[j->ends[3]]};
    bool ints;
    const char *why = NULL;
    AxisKind kind = axis_for(ec, 4, &ints, &why);
    if (kind == AX_NONE) {
        report_no_timeline(r, j->title, why);
        return;
    }
    if (j->focus && j->n_pairs == 0) {
        no_timeline_in_focus(r, j->title, j->n_all, "pair", j->focus);
        return;
    }
    size_t nl = j->l->n_rows, nr = j->r->n_rows;
    uint8_t *inl = calloc(nl + 1, 1), *inr = calloc(nr + 1, 1);
    uint8_t *pkl = malloc(nl + 1), *pkr = malloc(nr + 1);
    Bar *bars = NULL;
    StrBuf tmp, kt;
    sb_init(&tmp);
    sb_init(&kt);
    Groups g = {0};
    if (!inl || !inr || !pkl || !pkr) goto oom;
    for (size_t i = 0; i < j->n_shown; i++) inl[j->pl[i]] = inr[j->pr[i]] = 1;
    size_t kl = pick_rows(nl, inl, pkl), kr = pick_rows(nr, inr, pkr);
    bars = calloc(kl + kr + 1, sizeof *bars);
    if (!bars) goto oom;
    size_t nb = 0, null_rows = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int side = 0; side < 2; side++) {
        const Table *t = side ? j->r : j->l;
        const uint8_t *pick = side ? pkr : pkl, *in = side ? inr : inl;
        const Column *cs = ec[side * 2], *ce = ec[side * 2 + 1];
        for (size_t i = 0; i < t->n_rows; i++) {
            if (!pick[i]) continue;
            Bar *b = &bars[nb];
            if (!ax_value(cs, i, kind, &b->s) || !ax_value(ce, i, kind, &b->e)) {
                null_rows++;
                continue;
            }
            b->side = side;
            b->row = (uint32_t)i;
            b->matched = in[i];
            b->group = 0;
            if (j->n_keys > 0) {
                key_text(&kt, t, side ? j->rkeys : j->lkeys, j->n_keys, i);
                b->group = group_of(&g, kt.p ? kt.p : "");
                if (b->group < 0) goto oom;
            }
            if (b->s < lo) lo = b->s;
            if (b->e < lo) lo = b->e;
            if (b->s > hi) hi = b->s;
            if (b->e > hi) hi = b->e;
            nb++;
        }
    }
    timeline_open(r, j->title);
    if (nb == 0) {
        put(r, "<p class=\"none\">No timeline: no row has both endpoints.</p>\n</figure>\n");
        goto done;
    }
    qsort(bars, nb, sizeof *bars, cmp_bar);
    const double W = 1000, ML = 180, MR = 24, ROW = 20, BAR = 12, GROUP = 22, TOP = 34;
    Axis ax = {.kind = kind, .ints = ints, .x0 = ML, .width = W - ML - MR, .svg_w = W};
    ax_range(&ax, lo, hi);
    double y = TOP;
    int last_group = -1;
    for (size_t i = 0; i < nb; i++) {
        if (j->n_keys > 0 && bars[i].group != last_group) {
            y += GROUP;
            last_group = bars[i].group;
        }
        bars[i].y = y;
        y += ROW;
    }
    double axis_y = y + 10, H = axis_y + 28;
    putf(r, "<svg class=\"timeline ijoin\" "
            "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\">\n",
         W, H, W, H);
    legend_item(r, ML, 14, "<rect x=\"0\" y=\"-5\" width=\"14\" height=\"10\" rx=\"2\" "
                "style=\"fill:var(--left)\"/>", j->left_name, "left");
    legend_item(r, ML + 250, 14, "<rect x=\"0\" y=\"-5\" width=\"14\" height=\"10\" rx=\"2\" "
                "style=\"fill:var(--right)\"/>", j->right_name, "right");
    char rel[96];
    snprintf(rel, sizeof rel, "a matched pair (%s)", j->relation);
    legend_item(r, ML + 500, 14, "<path d=\"M0 0 h14\" style=\"stroke:var(--pair);stroke-width:2\"/>",
                rel, NULL);
    draw_axis(r, &ax, TOP - 4, axis_y);
    last_group = -1;
    for (size_t i = 0; i < nb; i++) {
        const Bar *b = &bars[i];
        if (j->n_keys > 0 && b->group != last_group) {
            group_heading(r, j->key_names, j->n_keys, g.s[b->group], 8, b->y - 6);
            last_group = b->group;
        }
        const Table *t = b->side ? j->r : j->l;
        int skip[4 + 16];
        int n_skip = 0;
        skip[n_skip++] = j->ends[b->side * 2];
        skip[n_skip++] = j->ends[b->side * 2 + 1];
        for (int k = 0; k < j->n_keys && n_skip < 20; k++) skip[n_skip++] = b->side ? j->rkeys[k] : j->lkeys[k];
        int lab = label_column(t, skip, n_skip, true);
        sb_puts(&r->b, b->side ? "<text class=\"lab-right\"" : "<text class=\"lab-left\"");
        sb_printf(&r->b, " x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ML - 10, b->y + BAR - 2);
        row_label(&r->b, t, lab, b->row, &tmp);
        put(r, "</text>\n");
        double s = b->s, e = b->e;
        bool inverted = s > e;
        double x1 = ax_x(&ax, inverted ? e : s), x2 = ax_x(&ax, inverted ? s : e);
        double w = x2 - x1 < 2 ? 2 : x2 - x1;
        putf(r, "<rect class=\"bar %s%s%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" rx=\"2\">",
             b->side ? "right" : "left", b->matched ? " matched" : "", inverted ? " inverted" : "",
             x1, b->y, w, BAR);
        bar_title(&r->b, b->side ? j->right_name : j->left_name, t, lab, b->row,
                  ec[b->side * 2], ec[b->side * 2 + 1], &tmp);
        put(r, "</rect>\n");
    }
    /* pairs: a connector at the middle of the shared time, or of the gap */
    size_t drawn = 0;
    for (size_t i = 0; i < j->n_shown; i++) {
        const Bar *bl = NULL, *br = NULL;
        for (size_t k = 0; k < nb && (!bl || !br); k++) {
            if (bars[k].side == 0 && bars[k].row == j->pl[i]) bl = &bars[k];
            if (bars[k].side == 1 && bars[k].row == j->pr[i]) br = &bars[k];
        }
        if (!bl || !br) continue;
        double l0 = fmin(bl->s, bl->e), l1 = fmax(bl->s, bl->e);
        double r0 = fmin(br->s, br->e), r1 = fmax(br->s, br->e);
        double a = fmax(l0, r0), z = fmin(l1, r1);
        double mid = (a + z) / 2;
        double xm = ax_x(&ax, mid);
        double xl = fmin(fmax(xm, ax_x(&ax, l0)), ax_x(&ax, l1));
        double xr = fmin(fmax(xm, ax_x(&ax, r0)), ax_x(&ax, r1));
        double y1 = bl->y + BAR / 2, y2 = br->y + BAR / 2;
        putf(r, "<path class=\"pair\" d=\"M%.1f %.1f H%.1f V%.1f H%.1f\">", xl, y1, xm, y2, xr);
        put(r, "<title>pair ");
        putf(r, "%zu: ", i + 1);
        int lskip[2] = {j->ends[0], j->ends[1]}, rskip[2] = {j->ends[2], j->ends[3]};
        row_label(&r->b, j->l, label_column(j->l, lskip, 2, true), bl->row, &tmp);
        put(r, " with ");
        row_label(&r->b, j->r, label_column(j->r, rskip, 2, true), br->row, &tmp);
        put(r, "</title></path>");
        putf(r, "<circle class=\"end\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\"/><circle class=\"end\" cx=\"%.1f\" "
                "cy=\"%.1f\" r=\"2.6\"/>\n", xm, y1, xm, y2);
        drawn++;
    }
    put(r, "</svg>\n");
    if (kl < nl || kr < nr) draw_density(r, j, ec, kind, ints);
    put(r, "<figcaption>");
    size_t shown_l = 0, shown_r = 0;
    for (size_t i = 0; i < nb; i++) shown_l += bars[i].side == 0, shown_r += bars[i].side == 1;
    putf(r, "Bars: %zu of the left input's %zu interval%s (", shown_l, nl, nl == 1 ? "" : "s");
    esc(r, j->left_name);
    putf(r, ") and %zu of the right input's %zu (", shown_r, nr);
    esc(r, j->right_name);
    put(r, "), [start, end) on one axis");
    if (j->n_keys > 0) {
        put(r, ", grouped by the partition key ");
        for (int k = 0; k < j->n_keys; k++) {
            if (k) put(r, ", ");
            esc(r, j->key_names[k]);
        }
    }
    if (ec[0]->type == TY_TEXT)
        put(r, " (the endpoints are TEXT holding ISO-8601 times, drawn at those times: their text "
               "order, which the join compares, is their time order)");
    putf(r, ". Lines: %zu matched pair%s", drawn, drawn == 1 ? "" : "s");
    if (j->n_pairs > j->n_shown) putf(r, ", the first %zu of %zu", j->n_shown, j->n_pairs);
    else if (j->n_pairs == 0) put(r, j->focus ? " (none in focus)" : " (the join matched none)");
    if (j->focus) {
        put(r, " with ");
        esc(r, j->focus);
        putf(r, " (the focus; %zu pair%s in all)", j->n_all, j->n_all == 1 ? "" : "s");
    }
    put(r, "; solid bars are in a drawn pair.");
    if (null_rows) putf(r, " %zu row%s with a NULL endpoint (which never match) not drawn.", null_rows, null_rows == 1 ? "" : "s");
    if (kl < nl || kr < nr)
        put(r, " From a side of more than 40 rows, only the rows of the drawn pairs are drawn; "
               "the strip below them counts every row of both sides.");
    put(r, "</figcaption>\n</figure>\n");
done:
    free(inl), free(inr), free(pkl), free(pkr), free(bars);
    sb_free(&tmp);
    sb_free(&kt);
    groups_free(&g);
    flush(r);
    return;
oom:
    r->failed = true;
    goto done;
}

/* ---- the AS-OF join's timeline -------------------------------------------------------------- */

typedef struct {
    uint32_t row;
    uint32_t shown;   /* a probe: its index among the drawn ones (into RepAsof.match) */
    int group;
    double v;
    bool matched;     /* a point: some drawn probe matched it; a probe: it matched */
    double x;
} Mark;

static int cmp_mark(const void *a, const void *b) {
    const Mark *x = a, *y = b;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static void probe_title(HtmlReport *r, const RepAsof *j, uint32_t row, uint32_t shown, int llab,
                        int rlab, StrBuf *tmp) {
    put(r, "<title>");
    esc(r, j->left_name);
    put(r, " ");
    row_label(&r->b, j->l, llab, row, tmp);
    put(r, " at ");
    tmp->n = 0;
    out_value_text(j->l->cols[j->lmatch], row, "NULL", tmp);
    esc_n(&r->b, tmp->p, tmp->n, 40);
    uint32_t m = j->match[shown];
    if (m == ROW_NONE) {
        put(r, ": no match");
    } else {
        put(r, " matched ");
        esc(r, j->right_name);
        put(r, " ");
        row_label(&r->b, j->r, rlab, m, tmp);
        put(r, " at ");
        tmp->n = 0;
        out_value_text(j->r->cols[j->rmatch], m, "NULL", tmp);
        esc_n(&r->b, tmp->p, tmp->n, 40);
    }
    put(r, "</title>");
}

void report_asof(HtmlReport *r, const RepAsof *j) {
    if (j->focus && j->n_focus == 0) {
        no_timeline_in_focus(r, j->title, j->n_probes, "probe", j->focus);
        return;
    }
    const Column *mc[2] = {j->l->cols[j->lmatch], j->r->cols[j->rmatch]};
    bool ints;
    const char *why = NULL;
    AxisKind kind = axis_for(mc, 2, &ints, &why);
    if (kind == AX_NONE) {
        report_no_timeline(r, j->title, why);
        return;
    }
    size_t nr = j->r->n_rows;
    Mark *probes = calloc(j->n_shown + 1, sizeof *probes);
    Mark *points = calloc((nr < ASOF_POINTS_MAX ? nr : ASOF_POINTS_MAX) + 1, sizeof *points);
    uint8_t *matched = calloc(nr + 1, 1);
    StrBuf tmp, kt;
    sb_init(&tmp);
    sb_init(&kt);
    Groups g = {0};
    size_t np = 0, nq = 0, null_probes = 0, outside = 0;
    if (!probes || !points || !matched) goto oom;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < j->n_shown; i++) {
        Mark *q = &probes[nq];
        size_t row = j->probe ? j->probe[i] : i;
        if (!ax_value(mc[0], row, kind, &q->v)) {
            null_probes++;
            continue;
        }
        q->row = (uint32_t)row;
        q->shown = (uint32_t)i;
        q->group = 0;
        if (j->n_keys > 0) {
            key_text(&kt, j->l, j->lkeys, j->n_keys, row);
            if ((q->group = group_of(&g, kt.p ? kt.p : "")) < 0) goto oom;
        }
        uint32_t m = j->match[i];
        q->matched = m != ROW_NONE;
        double mv;
        if (q->matched && ax_value(mc[1], m, kind, &mv)) {
            matched[m] = 1;
            lo = fmin(lo, mv), hi = fmax(hi, mv);
        }
        lo = fmin(lo, q->v), hi = fmax(hi, q->v);
        nq++;
    }
    timeline_open(r, j->title);
    if (nq == 0) {
        put(r, "<p class=\"none\">No timeline: no probe has a match value.</p>\n</figure>\n");
        goto done;
    }
    /* the right points: matched ones first, then (from a right side small enough to scan) the
     * others of the drawn partitions inside the drawn range */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && nr > ASOF_SCAN_MAX) break;
        for (size_t i = 0; i < nr; i++) {
            if ((pass == 0) != (matched[i] != 0)) continue;
            Mark pt = {.row = (uint32_t)i, .matched = matched[i] != 0};
            if (!ax_value(mc[1], i, kind, &pt.v)) continue;
            if (j->n_keys > 0) {
                key_text(&kt, j->r, j->rkeys, j->n_keys, i);
                if ((pt.group = find_group(&g, kt.p ? kt.p : "")) < 0) continue;
            }
            if (pt.v < lo || pt.v > hi) {
                outside++;
                continue;
            }
            if (np == ASOF_POINTS_MAX) {
                outside++;
                continue;
            }
            points[np++] = pt;
        }
    }
    qsort(points, np, sizeof *points, cmp_mark);
    const double W = 1000, ML = 180, MR = 24, TOP = 34, GROUP = 22, LANE = 40, GAP = 16;
    Axis ax = {.kind = kind, .ints = ints, .x0 = ML, .width = W - ML - MR, .svg_w = W};
    ax_range(&ax, lo, hi);
    size_t n_groups = j->n_keys > 0 ? g.n : 1;
    double group_h = (j->n_keys > 0 ? GROUP : 0) + 2 * LANE + GAP;
    double axis_y = TOP + (double)n_groups * group_h, H = axis_y + 28;
    putf(r, "<svg class=\"timeline asof\" "
            "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\">\n",
         W, H, W, H);
    legend_item(r, ML, 14, "<circle cx=\"6\" cy=\"0\" r=\"5\" style=\"fill:var(--right);stroke:#9a4f0b\"/>",
                j->right_name, "right: the points");
    legend_item(r, ML + 300, 14, "<path d=\"M6 -6 L12 5 L0 5 Z\" style=\"fill:var(--left)\"/>",
                j->left_name, "left: the probes");
    legend_item(r, ML + 520, 14, "<path d=\"M1 -5 L11 5 M11 -5 L1 5\" style=\"stroke:#d92d20;stroke-width:2.2\"/>",
                "a probe with no match", NULL);
    draw_axis(r, &ax, TOP - 4, axis_y);
    int rskip[17], lskip[17], n_rskip = 0, n_lskip = 0;
    rskip[n_rskip++] = j->rmatch;
    lskip[n_lskip++] = j->lmatch;
    for (int k = 0; k < j->n_keys && k < 16; k++) rskip[n_rskip++] = j->rkeys[k], lskip[n_lskip++] = j->lkeys[k];
    int rlab = label_column(j->r, rskip, n_rskip, false), llab = label_column(j->l, lskip, n_lskip, false);
    bool within_band = j->has_within && j->within.months == 0 && (kind == AX_TS || kind == AX_DATE);
    double within = !within_band ? 0 : kind == AX_TS ? (double)j->within.us : (double)j->within.us / (double)US_PER_DAY;
    size_t links = 0, unmatched = 0;
    for (size_t gi = 0; gi < n_groups; gi++) {
        double gy = TOP + (double)gi * group_h + (j->n_keys > 0 ? GROUP : 0);
        double yp = gy + 14, yq = gy + LANE + 14;
        if (j->n_keys > 0) group_heading(r, j->key_names, j->n_keys, g.s[gi], 8, gy - 4);
        putf(r, "<line class=\"lane\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                "<line class=\"lane\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
             ML, yp, W - MR, yp, ML, yq, W - MR, yq);
        sb_printf(&r->b, "<text class=\"lab-right\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ML - 10, yp + 4);
        esc(r, j->right_name);
        sb_printf(&r->b, "</text><text class=\"lab-left\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ML - 10, yq + 4);
        esc(r, j->left_name);
        put(r, "</text>\n");
        /* WITHIN bands, then points, then links and probes on top */
        for (size_t i = 0; within_band && i < nq; i++) {
            const Mark *q = &probes[i];
            if ((size_t)q->group != gi) continue;
            double a = j->backward ? q->v - within : q->v, z = j->backward ? q->v : q->v + within;
            double xa = fmax(ax_x(&ax, a), ML), xz = fmin(ax_x(&ax, z), W - MR);
            if (xz > xa)
                putf(r, "<rect class=\"window\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                     xa, yp - 10, xz - xa, yq - yp + 20);
        }
        double last_lab = -1e9;
        for (size_t i = 0; i < np; i++) {
            Mark *pt = &points[i];
            if ((size_t)pt->group != gi) continue;
            pt->x = ax_x(&ax, pt->v);
        }
        /* labels left to right, skipping one that would touch the previous */
        for (size_t i = 0; i < np; i++) {
            const Mark *pt = &points[i];
            if ((size_t)pt->group != gi) continue;
            putf(r, "<circle class=\"point%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>", pt->matched ? "" : " idle",
                 pt->x, yp);
            esc(r, j->right_name);
            put(r, " ");
            row_label(&r->b, j->r, rlab, pt->row, &tmp);
            put(r, " at ");
            tmp.n = 0;
            out_value_text(mc[1], pt->row, "NULL", &tmp);
            esc_n(&r->b, tmp.p, tmp.n, 40);
            put(r, "</title></circle>\n");
        }
        for (size_t i = 0; i < np; i++) {
            const Mark *pt = &points[i];
            if ((size_t)pt->group != gi || rlab < 0 || pt->x - last_lab < 44) continue;
            last_lab = pt->x;
            putf(r, "<text class=\"lab-right\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", pt->x, yp - 9);
            row_label(&r->b, j->r, rlab, pt->row, &tmp);
            put(r, "</text>\n");
        }
        last_lab = -1e9;
        for (size_t i = 0; i < nq; i++) {
            const Mark *q = &probes[i];
            if ((size_t)q->group != gi) continue;
            double x = ax_x(&ax, q->v);
            uint32_t m = j->match[q->shown];
            if (q->matched) {
                double mv;
                if (ax_value(mc[1], m, kind, &mv)) {
                    putf(r, "<line class=\"link\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, yq - 6,
                         ax_x(&ax, mv), yp + 5);
                    links++;
                }
                putf(r, "<path class=\"probe matched\" d=\"M%.1f %.1f L%.1f %.1f L%.1f %.1f Z\">", x, yq - 6,
                     x + 6, yq + 5, x - 6, yq + 5);
            } else {
                putf(r, "<path class=\"probe unmatched\" d=\"M%.1f %.1f L%.1f %.1f M%.1f %.1f L%.1f %.1f\">",
                     x - 5, yq - 5, x + 5, yq + 5, x + 5, yq - 5, x - 5, yq + 5);
                unmatched++;
            }
            probe_title(r, j, q->row, q->shown, llab, rlab, &tmp);
            put(r, "</path>\n");
            if (llab >= 0 && x - last_lab >= 44) {
                last_lab = x;
                putf(r, "<text class=\"lab-left\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, yq + 19);
                row_label(&r->b, j->l, llab, q->row, &tmp);
                put(r, "</text>\n");
            }
        }
    }
    put(r, "</svg>\n<figcaption>");
    putf(r, "Probes: %zu of the left input's %zu row%s (", nq, j->n_probes, j->n_probes == 1 ? "" : "s");
    esc(r, j->left_name);
    putf(r, "), %zu matched and %zu without a match", links, unmatched);
    if (j->focus) {
        putf(r, " (the first %zu of the %zu probes with ", j->n_shown, j->n_focus);
        esc(r, j->focus);
        putf(r, " are drawn, the focus; of all %zu, %zu matched)", j->n_probes, j->n_matched);
    } else if (j->n_probes > j->n_shown) {
        putf(r, " (the first %zu probes are drawn; of all %zu, %zu matched)", j->n_shown, j->n_probes,
             j->n_matched);
    }
    putf(r, ". Points: %zu of the right input's %zu row%s (", np, nr, nr == 1 ? "" : "s");
    esc(r, j->right_name);
    put(r, ")");
    if (outside) put(r, "; those outside the drawn range are left out");
    if (nr > ASOF_SCAN_MAX) put(r, "; from a right side this large only the matched ones");
    if (mc[0]->type == TY_TEXT)
        put(r, " (the match columns are TEXT holding ISO-8601 times, drawn at those times: their "
               "text order, which the join compares, is their time order)");
    put(r, ". A line joins each probe to the row it matched");
    if (j->n_keys > 0) {
        put(r, ", within its partition (");
        for (int k = 0; k < j->n_keys; k++) {
            if (k) put(r, ", ");
            esc(r, j->key_names[k]);
        }
        put(r, ")");
    }
    put(r, ".");
    if (within_band) {
        char d[TM_BUF];
        tm_format_duration(j->within, d);
        putf(r, " The pale band behind each probe is its WITHIN %s window.", d);
    }
    if (null_probes) putf(r, " %zu probe%s with a NULL match value (which never match) not drawn.", null_probes,
                          null_probes == 1 ? "" : "s");
    put(r, "</figcaption>\n</figure>\n");
done:
    free(probes), free(points), free(matched);
    sb_free(&tmp);
    sb_free(&kt);
    groups_free(&g);
    flush(r);
    return;
oom:
    r->failed = true;
    goto done;
}
