/*
 * repl.c - the interactive loop of relix on a terminal, with line editing by libedit.
 *
 * Lines accumulate until every statement is closed by a ';' outside an inline table, a string,
 * a quoted name and any '{ }' or '( )' (so γ's "keys; aggregates" does not end a statement),
 * then run in the same session, so definitions persist; an error is printed and the session
 * goes on. A relational expression on its own is a query (rx_set_bare_queries). Backslash
 * commands: \q quits, \explain and \timing toggle (or take on|off; \explain analyze), \format NAME, \set maxrows N,
 * \i FILE runs a script into the session, \o FILE sends results to a file (written whole when
 * \o ends it) and \o alone back to the terminal, \d lists the relations (and connections)
 * defined here, \d NAME shows one's columns and types (also of a connection's table,
 * \d Conn.table), \help.
 *
 * Editing: libedit in emacs mode; history in $RELIX_HISTORY, else ~/.relix_history, one entry
 * per statement (a statement typed over several lines is one entry) or command, with
 * connection-string secrets masked (rx_redact_secrets); Tab completes keywords, functions, relation names and column names (after
 * "R." only R's columns). Ctrl-C at the prompt discards the line and the statement being typed
 * (ISIG is off while editing, so it arrives as a key); during a query the terminal is back in
 * its own mode and main.c's SIGINT handler interrupts the run, which fails with "interrupted".
 *
 * The REPL sees the session only through include/relix.h: it remembers the names that
 * statements it ran defined, and learns a relation's schema by running
 * "query { sigma FALSE (NAME) };", which yields no row but every column with its type. Schemas
 * are cached (a name cannot be redefined in a session).
 */
#include <errno.h>
#include <histedit.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>
#include <unistd.h>

#include "base/base.h"
#include "base/dynlib.h"
#include "cli/cli.h"

/* libedit, loaded when the prompt starts (base/dynlib.h): a script run never maps it nor
 * libtinfo and libbsd behind it. */
#define EDIT_FNS(X) \
    X(el_cursor) X(el_end) X(el_get) X(el_gets) X(el_init) X(el_insertstr) X(el_line) X(el_push) X(el_set) \
    X(el_source) X(el_wset) X(history) X(history_end) X(history_init)
#define EDIT_FN(f) __typeof__(f) *f;
static struct { EDIT_FNS(EDIT_FN) } edlib;
#undef EDIT_FN
#define EDIT_NAME(f) #f,
static const char *const edit_names[] = {EDIT_FNS(EDIT_NAME)};
#undef EDIT_NAME
_Static_assert(sizeof edlib == RX_ARRAY_LEN(edit_names) * sizeof(void *), "edlib: one pointer per name");
static RxDynLib edit_dl = {"the interactive prompt", "libedit.so.2", "libedit2", edit_names,
                           RX_ARRAY_LEN(edit_names), &edlib, 0, ""};

/* A relation defined in this session, and its schema once a probe has run. */
typedef struct {
    char *name;         /* as written, with its quotes if quoted */
    const char *kind;   /* "table", "view", "csv", "connection" (no schema of its own) or "relation" */
    bool probed;
    int n_cols;         /* -1 when the probe failed */
    char **cols;
    RxColType *types;
} Rel;

typedef struct {
    RxSession *s;
    CliOptions *o;
    EditLine *el;
    History *hist;
    char *hist_path;    /* NULL: no history file */
    Rel *rels;
    size_t n_rels, cap_rels;
    size_t n_pending;   /* bytes of the statement being typed (selects the prompt) */
    bool cancelled;     /* Ctrl-C was pressed on the line el_gets returned */
    char *out_path;     /* \o FILE: the file results go to, written whole when \o ends */
    RxOutFile *out_file; /* its temporary (o->out writes to it) */
} Repl;

/* ---- scanning statements -------------------------------------------------------------------- */

static bool is_word(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static size_t skip_blank(const char *b, size_t n, size_t i) {
    for (;;) {
        while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
        if (i + 1 < n && b[i] == '-' && b[i + 1] == '-') {
            while (i < n && b[i] != '\n') i++;
            continue;
        }
        return i;
    }
}

/* The end of the name (identifier or "quoted") at i, or i when none starts there. */
static size_t scan_name(const char *b, size_t n, size_t i) {
    if (i < n && b[i] == '"') {
        for (size_t j = i + 1; j < n; j++) {
            if (b[j] == '\n') return i;
            if (b[j] == '"') {
                if (j + 1 < n && b[j + 1] == '"') j++;
                else return j + 1;
            }
        }
        return i;
    }
    if (i < n && is_word((unsigned char)b[i]) && !(b[i] >= '0' && b[i] <= '9')) {
        size_t j = i;
        while (j < n && is_word((unsigned char)b[j])) j++;
        return j;
    }
    return i;
}

/* The offset just past the ';' that ends the statement whose body starts at i, or n + 1 when
 * the text ends first. `table` says an inline table opens at i. */
static size_t statement_end(const char *b, size_t n, size_t i, bool table) {
    if (table) {
        /* the table ends at the first later line whose first non-blank character is ']' */
        for (;;) {
            while (i < n && b[i] != '\n') i++;
            if (i >= n) return n + 1;
            i++;
            while (i < n && (b[i] == ' ' || b[i] == '\t')) i++;
            if (i < n && b[i] == ']') {
                i++;
                break;
            }
        }
    }
    int depth = 0;
    for (; i < n; i++) {
        char c = b[i];
        if (c == '\'' || c == '"') {
            size_t j = i + 1;
            while (j < n && b[j] != c) j++;
            if (j >= n) return n + 1;
            i = j;
        } else if (c == '-' && i + 1 < n && b[i + 1] == '-') {
            while (i < n && b[i] != '\n') i++;
            if (i >= n) return n + 1;
        } else if (c == '{' || c == '(' || c == '[') {
            depth++;
        } else if (c == '}' || c == ')' || c == ']') {
            if (depth > 0) depth--;
        } else if (c == ';' && depth == 0) {
            return i + 1;
        }
    }
    return n + 1;
}

/* True when the word w (any case) stands at b[i]. */
static bool word_at(const char *b, size_t n, size_t i, const char *w) {
    size_t k = strlen(w);
    return i + k <= n && strncasecmp(b + i, w, k) == 0 && (i + k == n || !is_word((unsigned char)b[i + k]));
}

static void note_definition(Repl *r, const char *name, size_t len, const char *kind, bool ran_ok);

/* True when b holds only complete statements (and blanks or comments after the last). With r,
 * records the relations the statements define ("Name := ..."); ran_ok says whether rx_exec
 * succeeded on them (when not, each is checked, as a failed script may have defined some). */
static bool scan_statements(const char *b, size_t n, Repl *r, bool ran_ok) {
    size_t i = skip_blank(b, n, 0);
    while (i < n) {
        size_t ne = scan_name(b, n, i);
        const char *kind = NULL;
        size_t body = i;
        bool table = false;
        if (ne > i) {
            size_t j = skip_blank(b, n, ne);
            body = ne;
            if (j + 1 < n && b[j] == ':' && b[j + 1] == '=') {
                j = skip_blank(b, n, j + 2);
                body = j;
                if (j < n && b[j] == '[') kind = "table", table = true, body = j + 1;
                else if (j < n && b[j] == '{') kind = "view";
                else if (word_at(b, n, j, "csv")) kind = "csv";
                else if (word_at(b, n, j, "connect")) kind = "connection";
                else kind = "?";
            }
        }
        size_t end = statement_end(b, n, body, table);
        if (end > n) return false;
        if (r && kind) note_definition(r, b + i, ne - i, kind, ran_ok);
        i = skip_blank(b, n, end);
    }
    return true;
}

/* ---- relations and their schemas ------------------------------------------------------------ */

typedef struct {
    int n_cols;
    char **cols;
    RxColType *types;
    bool failed;
} Schema;

static int take_schema(void *ud, const RxResult *res) {
    Schema *sc = ud;
    int n = rx_result_cols(res);
    sc->cols = calloc((size_t)(n > 0 ? n : 1), sizeof *sc->cols);
    sc->types = calloc((size_t)(n > 0 ? n : 1), sizeof *sc->types);
    if (!sc->cols || !sc->types) {
        sc->failed = true;
        return 1;
    }
    for (int c = 0; c < n; c++) {
        sc->cols[c] = strdup(rx_result_colname(res, c));
        sc->types[c] = rx_result_coltype(res, c);
        if (!sc->cols[c]) sc->failed = true;
        sc->n_cols = c + 1;
    }
    return sc->failed ? 1 : 0;
}

static void free_schema(Schema *sc) {
    for (int c = 0; c < sc->n_cols; c++) free(sc->cols[c]);
    free(sc->cols);
    free(sc->types);
    memset(sc, 0, sizeof *sc);
}

/* Runs the schema probe on `name` (as written). Returns 0 with *sc filled (the caller frees it
 * with free_schema), or -1 with the error in rx_errmsg and *sc empty. */
static int probe(RxSession *s, const char *name, size_t len, Schema *sc) {
    memset(sc, 0, sizeof *sc);
    static const char head[] = "query { sigma FALSE (", tail[] = ") };";
    size_t n = sizeof head - 1 + len + sizeof tail - 1;
    char *text = malloc(n + 1);
    if (!text) return -1;
    memcpy(text, head, sizeof head - 1);
    memcpy(text + sizeof head - 1, name, len);
    memcpy(text + sizeof head - 1 + len, tail, sizeof tail);
    rx_set_result_parts(s, 0); /* the schema is taken from one whole (empty) result */
    int rc = rx_exec(s, text, n, "<\\d>", take_schema, sc);
    free(text);
    if (rc != 0 || sc->failed || !sc->cols) {
        free_schema(sc);
        return -1;
    }
    return 0;
}

static Rel *find_rel(Repl *r, const char *name, size_t len) {
    for (size_t i = 0; i < r->n_rels; i++)
        if (strlen(r->rels[i].name) == len && memcmp(r->rels[i].name, name, len) == 0) return &r->rels[i];
    return NULL;
}

/* The schema of a listed relation, probing it the first time. False when the probe fails. */
static bool rel_schema(Repl *r, Rel *rel) {
    if (!rel->probed && strcmp(rel->kind, "connection") == 0) {
        rel->probed = true;
        rel->n_cols = -1;
    }
    if (!rel->probed) {
        Schema sc;
        rel->probed = true;
        if (probe(r->s, rel->name, strlen(rel->name), &sc) == 0) {
            rel->n_cols = sc.n_cols;
            rel->cols = sc.cols;
            rel->types = sc.types;
        } else {
            rel->n_cols = -1;
        }
    }
    return rel->n_cols >= 0;
}

static void note_definition(Repl *r, const char *name, size_t len, const char *kind, bool ran_ok) {
    if (len == 0 || find_rel(r, name, len)) return;
    Schema sc = {0};
    bool connection = strcmp(kind, "connection") == 0;
    if (!ran_ok && (connection || probe(r->s, name, len, &sc) != 0)) return;
    if (r->n_rels == r->cap_rels) {
        size_t cap = r->cap_rels ? r->cap_rels * 2 : 16;
        Rel *p = realloc(r->rels, cap * sizeof *p);
        if (!p) {
            free_schema(&sc);
            return;
        }
        r->rels = p;
        r->cap_rels = cap;
    }
    Rel *rel = &r->rels[r->n_rels];
    memset(rel, 0, sizeof *rel);
    rel->name = strndup(name, len);
    if (!rel->name) {
        free_schema(&sc);
        return;
    }
    rel->kind = strcmp(kind, "?") == 0 ? "relation" : kind;
    if (!ran_ok) {
        rel->probed = true;
        rel->n_cols = sc.n_cols;
        rel->cols = sc.cols;
        rel->types = sc.types;
    }
    r->n_rels++;
}

static const char *type_name(RxColType t) {
    switch (t) {
    case RX_TYPE_NULL: return "NULL";
    case RX_TYPE_INT: return "INT";
    case RX_TYPE_FLOAT: return "FLOAT";
    case RX_TYPE_BOOL: return "BOOL";
    case RX_TYPE_TEXT: return "TEXT";
    case RX_TYPE_TIMESTAMP: return "TIMESTAMP";
    case RX_TYPE_DATE: return "DATE";
    case RX_TYPE_TIME: return "TIME";
    case RX_TYPE_DURATION: return "DURATION";
    }
    return "?";
}

static void print_rule(int width) {
    for (int i = 0; i < width; i++) fputs("─", stdout);
}

/* \d: every relation defined in this session, in definition order. */
static void list_relations(Repl *r) {
    if (r->n_rels == 0) {
        puts("(no relations defined)");
        return;
    }
    int wn = 4, wk = 4;
    for (size_t i = 0; i < r->n_rels; i++) {
        int a = (int)strlen(r->rels[i].name), b = (int)strlen(r->rels[i].kind);
        if (a > wn) wn = a;
        if (b > wk) wk = b;
    }
    printf(" %-*s  %-*s  columns\n ", wn, "name", wk, "kind");
    print_rule(wn);
    fputs("  ", stdout);
    print_rule(wk);
    fputs("  ", stdout);
    print_rule(7);
    fputc('\n', stdout);
    for (size_t i = 0; i < r->n_rels; i++) {
        Rel *rel = &r->rels[i];
        if (rel_schema(r, rel)) printf(" %-*s  %-*s  %7d\n", wn, rel->name, wk, rel->kind, rel->n_cols);
        else printf(" %-*s  %-*s  %7s\n", wn, rel->name, wk, rel->kind, strcmp(rel->kind, "connection") == 0 ? "-" : "?");
    }
    printf("(%zu relation%s)\n", r->n_rels, r->n_rels == 1 ? "" : "s");
}

/* \d NAME: the columns of one relation and their types. */
static void describe_relation(Repl *r, const char *name) {
    size_t len = strlen(name);
    size_t e = scan_name(name, len, 0);
    if (e > 0 && e < len && name[e] == '.') e = scan_name(name, len, e + 1);
    if (e == 0 || e != len) {
        fprintf(stderr, "\\d: '%s' is not a relation name\n", name);
        return;
    }
    Schema own = {0};
    Rel *rel = find_rel(r, name, len);
    int n_cols;
    char **cols;
    RxColType *types;
    if (rel && strcmp(rel->kind, "connection") == 0) {
        fprintf(stderr, "\\d: %s is a connection; \\d %s.TABLE shows one of its tables\n", name, name);
        return;
    }
    if (rel && rel_schema(r, rel)) {
        n_cols = rel->n_cols, cols = rel->cols, types = rel->types;
    } else if (probe(r->s, name, len, &own) == 0) {
        n_cols = own.n_cols, cols = own.cols, types = own.types;
    } else {
        if (rx_errcode(r->s) == RX_ERR_NAME) fprintf(stderr, "\\d: no relation named %s\n", name);
        else fputs(rx_errmsg(r->s), stderr);
        return;
    }
    int wc = 6, wt = 4;
    for (int c = 0; c < n_cols; c++) {
        int a = (int)strlen(cols[c]), b = (int)strlen(type_name(types[c]));
        if (a > wc) wc = a;
        if (b > wt) wt = b;
    }
    printf(" %-*s  type\n ", wc, "column");
    print_rule(wc);
    fputs("  ", stdout);
    print_rule(wt);
    fputc('\n', stdout);
    for (int c = 0; c < n_cols; c++) printf(" %-*s  %s\n", wc, cols[c], type_name(types[c]));
    printf("(%s: %s, %d column%s)\n", name, rel ? rel->kind : "relation", n_cols, n_cols == 1 ? "" : "s");
    free_schema(&own);
}

/* ---- completion ----------------------------------------------------------------------------- */

static const char *const keywords[] = {
    "query", "into", "csv", "connect", "sigma", "pi", "rho", "delta", "tau", "gamma", "TOP", "PER", "BY", "ASC", "DESC",
    "NULLS", "FIRST", "LAST", "JOIN", "LJOIN", "RJOIN", "FJOIN", "SEMIJOIN", "RSEMIJOIN", "ANTIJOIN",
    "CROSS", "UNION", "INTERSECT", "EXCEPT", "MINUS", "IJOIN", "ASOF", "WJOIN", "PREVAILING", "INNER", "WITHIN", "TIES",
    "INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS", "MET_BY", "OVERLAPS", "OVERLAPPED_BY",
    "STARTS", "STARTED_BY", "DURING", "CONTAINS", "FINISHES", "FINISHED_BY", "EQUALS",
    "TIMESTAMP", "DATE", "TIME", "DURATION", "TRUE", "FALSE", "NULL", "and", "or", "not", "IS", "IN",
    "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT",
    "PACK", "GAPS", "NORMALIZE", "IMINUS", "IINTERSECT", "WITH", "ON",
    /* docs/functions.md */
    "to_timestamp", "to_date", "to_time", "to_duration", "to_text", "to_int", "to_float",
    "coalesce", "abs", "round", "floor", "ceil", "lower", "upper", "length", "substr", "extract",
    "date_trunc", "trim", "ltrim", "rtrim", "replace", "concat", "starts_with", "contains",
    "split_part", "sqrt", "power", "exp", "ln", "log10", "sign", "mod", "div", "greatest", "least",
    "nullif", "epoch", "to_seconds", "seconds", "make_timestamp", "now", "count", "sum", "avg",
    "min", "max", "first", "last", "stddev", "stddev_pop", "variance", "var_pop", "median",
    "quantile", "string_agg", "arg_min", "arg_max", "bool_and", "bool_or", "LIKE", "ILIKE",
    "ESCAPE", "CAST", "AS", "regexp_like", "regexp_replace", "strftime", "strptime",
};

typedef struct {
    const char **v;
    size_t n, cap;
} Cands;

static void add_cand(Cands *c, const char *word, const char *prefix, size_t len) {
    if (strncmp(word, prefix, len) != 0) return;
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->v[i], word) == 0) return;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 32;
        const char **p = realloc(c->v, cap * sizeof *p);
        if (!p) return;
        c->v = p;
        c->cap = cap;
    }
    c->v[c->n++] = word;
}

static void add_columns(Repl *r, Rel *rel, Cands *c, const char *prefix, size_t len) {
    if (!rel_schema(r, rel)) return;
    for (int k = 0; k < rel->n_cols; k++) add_cand(c, rel->cols[k], prefix, len);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Tab: completes the word before the cursor to the candidates' longest common prefix; when that
 * adds nothing and there are several, lists them. */
static unsigned char complete_word(EditLine *el, int ch) {
    (void)ch;
    Repl *r = NULL;
    edlib.el_get(el, EL_CLIENTDATA, &r);
    const LineInfo *li = edlib.el_line(el);
    const char *p = li->cursor;
    while (p > li->buffer && is_word((unsigned char)p[-1])) p--;
    size_t len = (size_t)(li->cursor - p);
    Cands c = {0};
    bool qualified = false;
    if (p > li->buffer && p[-1] == '.') {
        const char *q = p - 1;
        while (q > li->buffer && is_word((unsigned char)q[-1])) q--;
        Rel *rel = find_rel(r, q, (size_t)(p - 1 - q));
        if (rel) {
            add_columns(r, rel, &c, p, len);
            qualified = true;
        }
    }
    if (!qualified) {
        bool command = li->buffer[0] == '\\' && r->n_pending == 0;
        for (size_t i = 0; i < r->n_rels; i++) add_cand(&c, r->rels[i].name, p, len);
        if (!command) {
            for (size_t i = 0; i < r->n_rels; i++) add_columns(r, &r->rels[i], &c, p, len);
            for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++) add_cand(&c, keywords[i], p, len);
        }
    }
    unsigned char ret = CC_REFRESH;
    if (c.n == 0) {
        ret = CC_REFRESH_BEEP;
    } else {
        size_t common = strlen(c.v[0]);
        for (size_t i = 1; i < c.n; i++) {
            size_t k = 0;
            while (k < common && c.v[i][k] == c.v[0][k]) k++;
            common = k;
        }
        if (common > len) {
            char *add = strndup(c.v[0] + len, common - len);
            if (add) edlib.el_insertstr(el, add);
            free(add);
        } else if (c.n > 1) {
            qsort(c.v, c.n, sizeof *c.v, cmp_str);
            FILE *out = NULL;
            edlib.el_get(el, EL_GETFP, 1, &out);
            if (!out) out = stderr;
            fputc('\n', out);
            size_t col = 0;
            for (size_t i = 0; i < c.n; i++) {
                size_t w = strlen(c.v[i]);
                if (col > 0 && col + 2 + w > 78) fputc('\n', out), col = 0;
                if (col > 0) fputs("  ", out), col += 2;
                fputs(c.v[i], out);
                col += w;
            }
            fputc('\n', out);
            fflush(out);
            ret = CC_REDISPLAY;
        }
    }
    free(c.v);
    return ret;
}

/* Ctrl-C while editing: shows ^C at the end of the line and ends it; the loop discards it. */
static unsigned char cancel_line(EditLine *el, int ch) {
    (void)ch;
    Repl *r = NULL;
    edlib.el_get(el, EL_CLIENTDATA, &r);
    r->cancelled = true;
    const LineInfo *li = edlib.el_line(el);
    edlib.el_cursor(el, (int)(li->lastchar - li->cursor));
    edlib.el_insertstr(el, "^C");
    edlib.el_push(el, "\n");
    return CC_REFRESH;
}

static char *prompt(EditLine *el) {
    Repl *r = NULL;
    edlib.el_get(el, EL_CLIENTDATA, &r);
    return r->n_pending ? "  ...> " : "relix> ";
}

/* ---- the loop ------------------------------------------------------------------------------- */

static char *history_path(void) {
    const char *env = getenv("RELIX_HISTORY");
    if (env) return env[0] ? strdup(env) : NULL;
    const char *home = getenv("HOME");
    if (!home || !home[0]) return NULL;
    size_t n = strlen(home) + sizeof "/.relix_history";
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/.relix_history", home);
    return p;
}

static void remember(Repl *r, const char *line, size_t len) {
    if (!r->hist) return;
    size_t e = len;
    while (e > 0 && (line[e - 1] == '\n' || line[e - 1] == '\r')) e--;
    size_t b = 0;
    while (b < e && (line[b] == ' ' || line[b] == '\t')) b++;
    if (b == e) return;
    char *entry = rx_redact_secrets(line, e); /* a password typed in a string is not kept */
    if (!entry) return;
    HistEvent ev;
    edlib.history(r->hist, &ev, H_ENTER, entry);
    free(entry);
    if (r->hist_path) edlib.history(r->hist, &ev, H_SAVE, r->hist_path);
}

/* Ends \o FILE: the file replaces FILE now, whole (rx_outfile_commit); on failure FILE is left
 * as it was. */
static void end_output(Repl *r) {
    if (!r->out_path) return;
    FILE *f = r->o->out;
    bool bad = fflush(f) != 0 || ferror(f);
    int e = errno;
    fclose(f);
    if (bad) rx_outfile_fail(r->out_file, e);
    RxError err;
    rx_error_clear(&err);
    if (rx_outfile_commit(r->out_file, &err) != 0) fprintf(stderr, "\\o: %s (the file is unchanged)\n", err.msg);
    r->o->out = NULL;
    r->out_file = NULL;
    free(r->out_path);
    r->out_path = NULL;
}

/* \o [FILE]: results go to a temporary beside FILE (rx_outfile_open), written through its own
 * stdio stream on a duplicate of the temporary's descriptor, until \o ends it. */
static void set_output(Repl *r, const char *path) {
    end_output(r);
    if (!path[0]) return;
    RxError err;
    rx_error_clear(&err);
    RxOutFile *of = rx_outfile_open(path, &err);
    if (!of) {
        fprintf(stderr, "\\o: %s\n", err.msg);
        return;
    }
    int fd = dup(rx_outfile_fd(of));
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    char *copy = f ? strdup(path) : NULL;
    if (!f || !copy) {
        fprintf(stderr, "\\o: cannot write '%s': %s\n", path, strerror(f ? ENOMEM : errno));
        if (f) fclose(f);
        else if (fd >= 0) close(fd);
        rx_outfile_abort(of);
        return;
    }
    r->o->out = f;
    r->o->n_printed = 0;
    r->out_file = of;
    r->out_path = copy;
}

/* \i FILE: runs the script in the session as a script file runs (bare expressions are an
 * error there too); its definitions stay, its errors point into FILE. */
static void include_file(Repl *r, const char *path) {
    if (!path[0]) {
        fputs("\\i needs a file name: \\i script.rx\n", stderr);
        return;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "\\i: cannot open '%s': %s\n", path, strerror(errno));
        return;
    }
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 1 << 16;
            char *p = realloc(text, ncap);
            if (!p) break;
            text = p;
            cap = ncap;
        }
        size_t k = fread(text + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    bool bad = ferror(f) || !text || n == cap;
    fclose(f);
    if (bad) {
        fprintf(stderr, "\\i: cannot read '%s'\n", path);
        free(text);
        return;
    }
    rx_set_bare_queries(r->s, 0);
    if (!r->o->out) r->o->n_printed = 0;
    int rc = cli_run_text(r->s, r->o, text, n, path);
    rx_set_bare_queries(r->s, 1);
    scan_statements(text, n, r, rc == 0);
    free(text);
}

/* on|off for \explain and \timing; no argument toggles. */
static void toggle(bool *flag, const char *cmd, const char *arg) {
    if (!arg[0]) *flag = !*flag;
    else if (strcmp(arg, "on") == 0) *flag = true;
    else if (strcmp(arg, "off") == 0) *flag = false;
    else {
        fprintf(stderr, "\\%s takes on or off, not '%s'\n", cmd, arg);
        return;
    }
    fprintf(stderr, "%s is %s\n", cmd, *flag ? "on" : "off");
}

/* Runs a backslash command line. Returns false for \q. */
static bool run_command(Repl *r, const char *line) {
    CliOptions *o = r->o;
    char cmd[64] = {0}, arg[256] = {0}, arg2[64] = {0};
    sscanf(line, "\\%63s %255s %63s", cmd, arg, arg2);
    /* the rest of the line, for a file name with spaces */
    const char *rest = line + 1 + strlen(cmd);
    while (*rest == ' ' || *rest == '\t') rest++;
    char path[4096];
    size_t pn = strlen(rest);
    while (pn > 0 && (rest[pn - 1] == '\n' || rest[pn - 1] == '\r' || rest[pn - 1] == ' ')) pn--;
    if (pn >= sizeof path) pn = sizeof path - 1;
    memcpy(path, rest, pn);
    path[pn] = 0;
    if (strcmp(cmd, "q") == 0 || strcmp(cmd, "quit") == 0) return false;
    if (strcmp(cmd, "explain") == 0) {
        if (strcmp(arg, "analyze") == 0) {
            o->explain = true;
            o->explain_analyze = true;
        } else {
            toggle(&o->explain, "explain", arg);
            o->explain_analyze = false;
        }
    } else if (strcmp(cmd, "timing") == 0) {
        toggle(&o->timing, "timing", arg);
    } else if (strcmp(cmd, "stream") == 0) {
        /* on: every query that can streams (--stream); off: only over files too large to hold */
        toggle(&o->stream, "stream", arg);
        rx_set_stream(r->s, o->stream ? 1 : 0);
    } else if (strcmp(cmd, "format") == 0) {
        static const char *const f[] = {"table", "csv", "tsv", "json", "markdown", "jsonl"};
        int k = -1;
        for (int i = 0; i < 6; i++)
            if (strcmp(arg, f[i]) == 0) k = i;
        if (k < 0) fprintf(stderr, "unknown format '%s' (table, csv, tsv, json, jsonl, markdown)\n", arg);
        else o->format = k;
    } else if (strcmp(cmd, "set") == 0) {
        char *end = NULL;
        long long v = arg2[0] ? strtoll(arg2, &end, 10) : -1;
        if (strcmp(arg, "maxrows") != 0)
            fprintf(stderr, "\\set knows maxrows N (table rows shown; 0 shows all), not '%s'\n", arg);
        else if (v < 0 || !end || *end)
            fprintf(stderr, "\\set maxrows takes a whole number (0 shows every row), not '%s'\n", arg2);
        else
            o->max_rows = (size_t)v;
    } else if (strcmp(cmd, "i") == 0 || strcmp(cmd, "include") == 0) {
        include_file(r, path);
    } else if (strcmp(cmd, "o") == 0 || strcmp(cmd, "output") == 0) {
        set_output(r, path);
    } else if (strcmp(cmd, "d") == 0) {
        if (arg[0]) describe_relation(r, arg);
        else list_relations(r);
        fflush(stdout);
    } else {
        fputs("statements end with ';'; an expression on its own runs as a query: T ⨝ S;\n"
              "\\q quit   \\i FILE run a script   \\o FILE results to a file   \\o back to the terminal\n"
              "\\explain [on|off|analyze]   \\timing [on|off]   \\stream [on|off]\n"
              "\\format table|csv|tsv|json|jsonl|markdown\n"
              "\\set maxrows N (table rows shown, 0 all)   \\d list relations   \\d NAME columns and types\n"
              "Tab completes   Ctrl-C clears the input or stops a query\n",
              stderr);
    }
    return true;
}

static EditLine *open_editor(Repl *r) {
    EditLine *el = edlib.el_init("relix", stdin, stderr, stderr);
    if (!el) return NULL;
    edlib.el_set(el, EL_CLIENTDATA, r);
    edlib.el_set(el, EL_EDITOR, "emacs");
    edlib.el_set(el, EL_PROMPT, prompt);
    edlib.el_set(el, EL_SETTY, "-d", "-isig", NULL);
    /* el_wset, as el_set copies the names and never frees the copies */
    edlib.el_wset(el, EL_ADDFN, L"relix-complete", L"complete a name or keyword", complete_word);
    edlib.el_wset(el, EL_ADDFN, L"relix-cancel", L"discard the input", cancel_line);
    edlib.el_set(el, EL_BIND, "^I", "relix-complete", NULL);
    edlib.el_set(el, EL_BIND, "^C", "relix-cancel", NULL);
    r->hist = edlib.history_init();
    if (r->hist) {
        HistEvent ev;
        edlib.history(r->hist, &ev, H_SETSIZE, 1000);
        edlib.history(r->hist, &ev, H_SETUNIQUE, 1);
        r->hist_path = history_path();
        if (r->hist_path) edlib.history(r->hist, &ev, H_LOAD, r->hist_path);
        edlib.el_set(el, EL_HIST, edlib.history, r->hist);
    }
    edlib.el_source(el, NULL);
    return el;
}

int cli_repl(RxSession *s, CliOptions *o) {
    Repl r = {.s = s, .o = o};
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int last = 0;
    if (!rx_dynlib_ready(&edit_dl)) {
        char msg[640];
        rx_dynlib_message(&edit_dl, msg, sizeof msg);
        fprintf(stderr, "relix: %s\n", msg);
        return 1;
    }
    setlocale(LC_CTYPE, "");
    r.el = open_editor(&r);
    if (!r.el) {
        fputs("relix: cannot start the line editor\n", stderr);
        return 1;
    }
    fprintf(stderr, "relix %s — statements end with ';', \\help for commands, \\q to quit\n", RELIX_VERSION);
    for (;;) {
        r.n_pending = n;
        r.cancelled = false;
        fflush(stdout);
        int len = 0;
        const char *line = edlib.el_gets(r.el, &len);
        if (!line || len <= 0) break;
        if (r.cancelled) {
            n = 0;
            continue;
        }
        if (n == 0 && line[0] == '\\') {
            remember(&r, line, (size_t)len);
            if (!run_command(&r, line)) break;
            continue;
        }
        size_t k = (size_t)len;
        if (n + k + 2 > cap) {
            size_t ncap = (n + k + 2) * 2;
            char *p = realloc(buf, ncap);
            if (!p) break;
            buf = p;
            cap = ncap;
        }
        memcpy(buf + n, line, k);
        n += k;
        if (buf[n - 1] != '\n') buf[n++] = '\n';
        buf[n] = 0;
        if (!scan_statements(buf, n, NULL, false)) continue;
        if (skip_blank(buf, n, 0) == n) {
            n = 0;
            continue;
        }
        /* the statement, however many lines it took, is one history entry */
        remember(&r, buf, n);
        if (!o->out) o->n_printed = 0; /* results into a \o file stay apart by a blank line */
        last = cli_run_text(s, o, buf, n, "<stdin>");
        scan_statements(buf, n, &r, last == 0);
        n = 0;
    }
    end_output(&r);
    if (r.hist) {
        HistEvent ev;
        if (r.hist_path) edlib.history(r.hist, &ev, H_SAVE, r.hist_path);
        edlib.history_end(r.hist);
    }
    edlib.el_end(r.el);
    for (size_t i = 0; i < r.n_rels; i++) {
        Schema sc = {r.rels[i].n_cols > 0 ? r.rels[i].n_cols : 0, r.rels[i].cols, r.rels[i].types, false};
        free_schema(&sc);
        free(r.rels[i].name);
    }
    free(r.rels);
    free(r.hist_path);
    free(buf);
    fputc('\n', stderr);
    return last;
}
