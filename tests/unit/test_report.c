/*
 * test_report.c - the HTML report through the public API (rx_report_begin, rx_report_end): a
 * script with an interval join and an AS-OF join gives one page with both timelines, text from
 * the data escaped; the same run gives the same bytes; a failing sink makes rx_report_end fail;
 * the calls in the wrong order are refused; a script error lands on the page.
 */
#include <stdlib.h>
#include <string.h>

#include "relix.h"
#include "check.h"

typedef struct {
    char *p;
    size_t n, cap;
    int fail_after;   /* writes that succeed before the sink fails; < 0: never */
} Buf;

static int buf_write(void *ud, const char *p, size_t n) {
    Buf *b = ud;
    if (b->fail_after == 0) return 1;
    if (b->fail_after > 0) b->fail_after--;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *q = realloc(b->p, cap);
        if (!q) return 1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
    b->p[b->n] = 0;
    return 0;
}

static const char script[] =
    "L := [\n"
    "| id     | s  | e  |\n"
    "|--------|----|----|\n"
    "| <a&b>  | 1  | 5  |\n"
    "| plain  | 6  | 9  |\n"
    "];\n"
    "R := [\n"
    "| id | s | e  |\n"
    "|----|---|----|\n"
    "| r1 | 4 | 7  |\n"
    "];\n"
    "query { L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R };\n"
    "query { L ASOF L.s >= R.s R };\n";

static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

static char *report_of(const char *text, int fail_after, int *end_rc) {
    RxSession *s = rx_open();
    Buf b = {NULL, 0, 0, fail_after};
    CHECK(rx_report_begin(s, "unit <test>", buf_write, &b) == 0);
    CHECK(rx_report_begin(s, "again", buf_write, &b) != 0);  /* one report at a time */
    rx_exec(s, text, strlen(text), "unit.rx", NULL, NULL);
    *end_rc = rx_report_end(s);
    CHECK(rx_report_end(s) != 0);  /* none open any more */
    rx_close(s);
    return b.p;
}

/* Empties every <td class="t"> cell of page (in place): the plan's time and memory, which
 * vary from run to run. Returns page. */
static char *mask_figures(char *page) {
    static const char open[] = "<td class=\"t\">";
    char *w = page;
    for (const char *p = page; p && *p;) {
        const char *t = strstr(p, open);
        const char *e = t ? strstr(t, "</td>") : NULL;
        size_t keep = t && e ? (size_t)(t - p) + sizeof open - 1 : strlen(p);
        memmove(w, p, keep);
        w += keep;
        p = t && e ? e : p + keep;
    }
    if (page) *w = 0;
    return page;
}

int main(void) {
    int rc;
    char *a = report_of(script, -1, &rc);
    CHECK(rc == 0);
    CHECK(a && strncmp(a, "<!DOCTYPE html>", 15) == 0);
    CHECK(a && strstr(a, "</html>\n") && strcmp(strstr(a, "</html>\n"), "</html>\n") == 0);
    CHECK(count(a, "<section class=\"query\"") == 2);
    CHECK(count(a, "<svg class=\"timeline ijoin\"") == 1);
    CHECK(count(a, "<svg class=\"timeline asof\"") == 1);
    CHECK(count(a, "<rect class=\"bar left") == 2 && count(a, "<rect class=\"bar right") == 1);
    CHECK(count(a, "<path class=\"pair\"") == 2);          /* <a&b> and plain both meet r1 */
    /* L.s 1 has no R.s at or before it, 6 has 4 */
    CHECK(count(a, "<path class=\"probe matched\"") == 1 && count(a, "<path class=\"probe unmatched\"") == 1);
    CHECK(count(a, "<line class=\"link\"") == 1);
    CHECK(strstr(a, "&lt;a&amp;b&gt;") != NULL);
    CHECK(strstr(a, "<a&b>") == NULL);
    CHECK(strstr(a, "unit &lt;test&gt;") != NULL);
    CHECK(strstr(a, "<script") == NULL && strstr(a, "http") == NULL);
    /* every plan line shows its time, self time and peak memory */
    CHECK(count(a, "<td class=\"t\">") == 3 * count(a, "<td class=\"act"));
    CHECK(count(a, "<td class=\"act") > 0 && count(a, " ms</td>") == 2 * count(a, "<td class=\"act"));
    /* the same run, the same bytes, but for those figures */
    char *b = report_of(script, -1, &rc);
    CHECK(rc == 0 && a && b && strcmp(mask_figures(a), mask_figures(b)) == 0);
    free(b);
    /* a sink that fails after the page's head */
    b = report_of(script, 1, &rc);
    CHECK(rc != 0);
    free(b);
    /* a script that does not parse: the page says why */
    b = report_of("query { nope ", -1, &rc);
    CHECK(rc == 0 && b && strstr(b, "<pre class=\"error\">") != NULL);
    CHECK(b && strstr(b, "The script ran no query.") != NULL);
    free(b);
    free(a);
    return check_report("test_report");
}
