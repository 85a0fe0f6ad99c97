/*
 * sema.c - name binding and type checking: AST -> typed logical plan (analysis.h).
 *
 * Every check that needs no data happens here, before anything runs: unknown and ambiguous
 * names, type mismatches, function arities, the shape of IJOIN endpoints and ASOF conditions,
 * views that reach themselves. Messages name what was expected and point at the offending
 * token.
 *
 * Longer than the ~1,200 lines a file should hold: the binding of names (scopes, schemas,
 * suggestions) and the checks of each operator share the Sema context and its helpers; the
 * natural seam (name resolution / operator checks) needs that context in a private header,
 * left for a later pass.
 */
#include "analysis/analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <regex.h>
#include <string.h>
#include <time.h>
#include <strings.h>

#include "base/hmap.h"
#include "io/tz.h"
#include "types/compare.h"
#include "types/number.h"
#include "types/temporal.h"


typedef struct {
    Catalog *cat;
    Arena *a;             /* where this plan lives */
    const RxSource *src;  /* the source of the statement being analyzed */
    RxError *err;
    PtrVec view_stack;    /* RelDef * of the views being analyzed, for cycle messages */
    struct GroupCtx *gc;  /* while typing a γ output expression: its keys and aggregates */
    bool have_now;        /* now_us holds the statement time (the first now() read it) */
    int64_t now_us;
} Sema;

/* The output items of one γ being typed: an aggregate call becomes a column after the keys, a
 * column reference must name a key. */
typedef struct GroupCtx {
    const Schema *in;     /* the γ's operand */
    Schema keys;          /* the grouping keys as the γ outputs them */
    AggSpec *aggs;        /* the distinct aggregate calls so far (by source text) */
    const char **texts;
    int n_aggs, cap_aggs;
} GroupCtx;

static int group_aggregate(Sema *s, GroupCtx *g, const AstNode *c);

static LPlan *sema_rel(Sema *s, const AstNode *n);

/* n zeroed bytes from the query's arena; NULL with an RX_ENOMEM error recorded. */
static void *alloc(Sema *s, size_t n) {
    void *p = arena_alloc(s->a, n);
    if (!p) rx_error(s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    return p;
}

const char *sema_col_label(Arena *a, const ColInfo *ci) {
    if (ci->qual) return arena_printf(a, "%s.%s", ci->qual, ci->base ? ci->base : ci->name);
    return ci->name;
}

/* ---- suggestions ---------------------------------------------------------------------------- */

/* Levenshtein distance between x and y, ASCII letters compared without case, for suggestions;
 * names longer than 64 bytes count as far (99). */
static size_t edit_distance(const char *x, const char *y) {
    size_t n = strlen(x), m = strlen(y);
    if (n > 64 || m > 64) return 99;
    size_t row[65];
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t cost = (x[i - 1] | 0x20) == (y[j - 1] | 0x20) ? 0 : 1;
            size_t best = diag + cost;
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* " (did you mean 'x'?)" for the closest candidate within distance 2, or "". */
static const char *suggest(Sema *s, const char *name, const char *const *cands, size_t n) {
    const char *best = NULL;
    size_t bd = 3;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(name, cands[i]);
        if (d < bd && strcmp(name, cands[i]) != 0) {
            bd = d;
            best = cands[i];
        }
    }
    return best ? arena_printf(s->a, " (did you mean '%s'?)", best) : "";
}

/* ---- schemas -------------------------------------------------------------------------------- */

/* out: a copy of in's columns in the query's arena (the names are shared); -1 on OOM. */
static int schema_copy(Sema *s, const Schema *in, Schema *out) {
    out->n = in->n;
    out->cols = alloc(s, (size_t)(in->n ? in->n : 1) * sizeof *out->cols);
    if (!out->cols) return -1;
    memcpy(out->cols, in->cols, (size_t)in->n * sizeof *out->cols);
    return 0;
}

/* Whether name[0..len) is among the display names of cols that map indexes (a hash set of the
 * names of a schema being built: a join of many inputs that share names, T × T × … × T, would
 * otherwise compare every candidate suffix with every column). */
static bool name_taken(const RxHMap *map, const ColInfo *cols, const char *name, size_t len) {
    RxHProbe p = hmap_probe(map, rx_hash_bytes(name, len));
    uint32_t i;
    while (hmap_next(map, &p, &i))
        if (strlen(cols[i].name) == len && memcmp(cols[i].name, name, len) == 0) return true;
    return false;
}

/* Left columns, then right columns with _r, _r2 ... where a name is taken. */
static int schema_join(Sema *s, const Schema *l, const Schema *r, Schema *out) {
    out->n = l->n + r->n;
    out->cols = alloc(s, (size_t)(out->n ? out->n : 1) * sizeof *out->cols);
    if (!out->cols) return -1;
    memcpy(out->cols, l->cols, (size_t)l->n * sizeof *out->cols);
    RxHMap names;   /* hash of a name -> its index in out->cols; room for every column */
    if (hmap_init(&names, (size_t)out->n) < 0)
        return rx_error(s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    for (int i = 0; i < l->n; i++) {
        const char *nm = l->cols[i].name;
        hmap_add(&names, rx_hash_bytes(nm, strlen(nm)), (uint32_t)i, NULL, NULL);   /* reserved */
    }
    StrBuf cand;
    sb_init(&cand);
    int rc = 0;
    for (int i = 0; i < r->n && rc == 0; i++) {
        ColInfo ci = r->cols[i];
        if (name_taken(&names, out->cols, ci.name, strlen(ci.name))) {
            for (int k = 1; k == 1 || name_taken(&names, out->cols, cand.p, cand.n); k++) {
                cand.n = 0;
                if (k == 1) sb_printf(&cand, "%s_r", ci.name);
                else sb_printf(&cand, "%s_r%d", ci.name, k);
                if (cand.oom) break;
            }
            if (!ci.base) ci.base = ci.name;
            ci.name = cand.oom ? NULL : arena_strndup(s->a, cand.p, cand.n);
            if (!ci.name) rc = rx_error(s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        }
        out->cols[l->n + i] = ci;
        if (rc == 0) hmap_add(&names, rx_hash_bytes(ci.name, strlen(ci.name)), (uint32_t)(l->n + i), NULL, NULL);
    }
    sb_free(&cand);
    hmap_free(&names);
    return rc;
}

/* "a, b, c" naming the schema's first 12 columns, for messages; in the arena. */
static const char *schema_list(Sema *s, const Schema *sc) {
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < sc->n && i < 12; i++) {
        if (i) sb_puts(&b, ", ");
        sb_puts(&b, sc->cols[i].name);
    }
    if (sc->n > 12) sb_printf(&b, ", ... (%d in all)", sc->n);
    const char *r = arena_strdup(s->a, b.p ? b.p : "");
    sb_free(&b);
    return r;
}

/* Resolves a column reference in one schema. Returns the index, -1 if not found (no error
 * recorded), -2 after recording an ambiguity error. */
static int lookup_col(Sema *s, const Schema *sc, const AstNode *ref) {
    int found = -1, count = 0;
    if (ref->qual) {
        for (int pass = 0; pass < 2 && count == 0; pass++)
            for (int i = 0; i < sc->n; i++) {
                const ColInfo *ci = &sc->cols[i];
                if (!ci->qual || strcmp(ci->qual, ref->qual) != 0) continue;
                const char *nm = pass == 0 ? (ci->base ? ci->base : ci->name) : ci->name;
                if (strcmp(nm, ref->name) == 0) {
                    if (count == 1) {
                        rx_error(s->err, RX_ENAME, s->src, ref->span,
                                 "'%s.%s' is ambiguous: it names both '%s' and '%s' (give one "
                                 "side another name with ρ, or the alias shorthand 'R Alias')",
                                 ref->qual, ref->name, sc->cols[found].name, ci->name);
                        return -2;
                    }
                    found = i;
                    count++;
                }
            }
        return found;
    }
    for (int i = 0; i < sc->n; i++)
        if (strcmp(sc->cols[i].name, ref->name) == 0) return i;
    for (int i = 0; i < sc->n; i++) {
        const ColInfo *ci = &sc->cols[i];
        if (ci->base && strcmp(ci->base, ref->name) == 0) {
            if (count == 1) {
                rx_error(s->err, RX_ENAME, s->src, ref->span,
                         "column '%s' is ambiguous: it could be %s or %s", ref->name,
                         sema_col_label(s->a, &sc->cols[found]), sema_col_label(s->a, ci));
                return -2;
            }
            found = i;
            count++;
        }
    }
    return found;
}

/* Records the error for a column reference that names nothing in sc (with a suggestion and
 * the columns in scope; `where` names the operator); returns -1. */
static int unknown_column(Sema *s, const Schema *sc, const AstNode *ref, const char *where) {
    const char **cands = alloc(s, (size_t)(sc->n + 1) * sizeof *cands);
    if (!cands) return -1;
    for (int i = 0; i < sc->n; i++) cands[i] = sc->cols[i].base ? sc->cols[i].base : sc->cols[i].name;
    if (ref->qual) {
        bool qual_known = false;
        for (int i = 0; i < sc->n; i++)
            if (sc->cols[i].qual && strcmp(sc->cols[i].qual, ref->qual) == 0) qual_known = true;
        if (!qual_known) {
            const char **quals = alloc(s, (size_t)(sc->n + 1) * sizeof *quals);
            size_t nq = 0;
            StrBuf b;
            sb_init(&b);
            for (int i = 0; i < sc->n; i++) {
                const char *q = sc->cols[i].qual;
                if (!q) continue;
                bool seen = false;
                for (size_t k = 0; k < nq; k++) seen |= strcmp(quals[k], q) == 0;
                if (seen) continue;
                quals[nq++] = q;
                sb_printf(&b, "%s%s", nq > 1 ? ", " : "", q);
            }
            const char *list = arena_strdup(s->a, b.p ? b.p : "none");
            sb_free(&b);
            return rx_error(s->err, RX_ENAME, s->src, ref->qual_span,
                            "no relation named '%s' here%s%s (relations in scope: %s)", ref->qual,
                            where, suggest(s, ref->qual, quals, nq), list);
        }
        return rx_error(s->err, RX_ENAME, s->src, ref->name_span,
                        "'%s' has no column '%s'%s%s (columns: %s)", ref->qual, ref->name, where,
                        suggest(s, ref->name, cands, (size_t)sc->n), schema_list(s, sc));
    }
    return rx_error(s->err, RX_ENAME, s->src, ref->span, "unknown column '%s'%s%s (columns: %s)",
                    ref->name, where, suggest(s, ref->name, cands, (size_t)sc->n),
                    schema_list(s, sc));
}

/* ---- scalar expressions --------------------------------------------------------------------- */

/* A new zeroed expression of kind k and type t over span in the query's source, in the arena;
 * NULL with RX_ENOMEM recorded. */
static Expr *new_expr(Sema *s, ExprKind k, RxType t, RxSpan span) {
    Expr *e = alloc(s, sizeof *e);
    if (!e) return NULL;
    e->kind = k;
    e->type = t;
    e->span = span;
    e->src = s->src;
    return e;
}

/* Whether values of types a and b may be compared with = < and the like. */
static bool comparable(RxType a, RxType b) {
    if (a == TY_NULL || b == TY_NULL) return true;
    if (a == b) return true;
    if (type_is_numeric(a) && type_is_numeric(b)) return true;
    if ((a == TY_DATE && b == TY_TIMESTAMP) || (a == TY_TIMESTAMP && b == TY_DATE)) return true;
    return false;
}

/* A hint for a message, " (convert the text with to_date(...))", that turns a `from` value
 * into a `to` one; "" when there is none. Static or arena text. */
static const char *conversion_hint(Sema *s, RxType from, RxType to) {
    if (from == TY_TEXT) {
        switch (to) {
        case TY_TIMESTAMP: return " (convert the text with to_timestamp(...))";
        case TY_DATE: return " (convert the text with to_date(...))";
        case TY_TIME: return " (convert the text with to_time(...))";
        case TY_DURATION: return " (convert the text with to_duration(...))";
        case TY_INT: return " (convert the text with to_int(...))";
        case TY_FLOAT: return " (convert the text with to_float(...))";
        default: break;
        }
    }
    if (to == TY_TEXT && from != TY_TEXT) return conversion_hint(s, to, from);
    return "";
}

static Expr *sema_expr(Sema *s, const AstNode *n, const Schema *sc);
static Expr *make_binary(Sema *s, AstOp op, RxType t, RxSpan span, Expr *a, Expr *b);
static void param_hint(Sema *s, const AstNode *n, const Expr *other);

/* Records the error for binary operator n applied to types a and b; returns -1. */
static int type_error_binary(Sema *s, const AstNode *n, RxType a, RxType b) {
    return rx_error(s->err, RX_ETYPE, s->src, n->span, "cannot apply '%s' to %s and %s%s",
                    op_text(n->op), type_name(a), type_name(b), conversion_hint(s, a, b));
}

/* The result type of arithmetic op over a and b, or TY_NULL when the operands do not fit. */
static RxType arith_type(AstOp op, RxType a, RxType b) {
    if (a == TY_NULL && b == TY_NULL) return TY_NULL;
    if (a == TY_NULL) a = b;
    if (b == TY_NULL) b = a;
    bool num = type_is_numeric(a) && type_is_numeric(b);
    switch (op) {
    case OP_ADD:
        if (num) return (a == TY_INT && b == TY_INT) ? TY_INT : TY_FLOAT;
        if (a == TY_TIMESTAMP && b == TY_DURATION) return TY_TIMESTAMP;
        if (a == TY_DURATION && b == TY_TIMESTAMP) return TY_TIMESTAMP;
        if (a == TY_DATE && b == TY_INT) return TY_DATE;
        if (a == TY_INT && b == TY_DATE) return TY_DATE;
        if (a == TY_DATE && b == TY_DURATION) return TY_TIMESTAMP;
        if (a == TY_DURATION && b == TY_DATE) return TY_TIMESTAMP;
        if (a == TY_TIME && b == TY_DURATION) return TY_TIME;
        if (a == TY_DURATION && b == TY_TIME) return TY_TIME;
        if (a == TY_DURATION && b == TY_DURATION) return TY_DURATION;
        return TY_NULL;
    case OP_SUB:
        if (num) return (a == TY_INT && b == TY_INT) ? TY_INT : TY_FLOAT;
        if (a == TY_TIMESTAMP && b == TY_TIMESTAMP) return TY_DURATION;
        if (a == TY_TIMESTAMP && b == TY_DURATION) return TY_TIMESTAMP;
        if (a == TY_DATE && b == TY_DATE) return TY_DURATION;
        if (a == TY_DATE && b == TY_INT) return TY_DATE;
        if (a == TY_DATE && b == TY_DURATION) return TY_TIMESTAMP;
        if (a == TY_TIME && b == TY_TIME) return TY_DURATION;
        if (a == TY_TIME && b == TY_DURATION) return TY_TIME;
        if (a == TY_DURATION && b == TY_DURATION) return TY_DURATION;
        return TY_NULL;
    case OP_MUL:
        if (num) return (a == TY_INT && b == TY_INT) ? TY_INT : TY_FLOAT;
        if (a == TY_DURATION && type_is_numeric(b)) return TY_DURATION;
        if (type_is_numeric(a) && b == TY_DURATION) return TY_DURATION;
        return TY_NULL;
    case OP_DIV:
        if (num) return TY_FLOAT;
        if (a == TY_DURATION && type_is_numeric(b)) return TY_DURATION;
        return TY_NULL;
    case OP_MOD:
        if (a == TY_INT && b == TY_INT) return TY_INT;
        if (num) return TY_FLOAT;
        return TY_NULL;
    default:
        return TY_NULL;
    }
}

/* A scalar function's arity; its name is lang_function_name(id). */
typedef struct {
    FuncId id;
    int min_args, max_args;
} FuncSig;

static const FuncSig funcs[FN_N_FUNCTIONS] = {
    [FN_TO_TIMESTAMP] = {FN_TO_TIMESTAMP, 1, 1}, [FN_TO_DATE] = {FN_TO_DATE, 1, 1},
    [FN_TO_TIME] = {FN_TO_TIME, 1, 1},           [FN_TO_DURATION] = {FN_TO_DURATION, 1, 1},
    [FN_TO_TEXT] = {FN_TO_TEXT, 1, 1},           [FN_TO_INT] = {FN_TO_INT, 1, 1},
    [FN_TO_FLOAT] = {FN_TO_FLOAT, 1, 1},         [FN_COALESCE] = {FN_COALESCE, 1, 64},
    [FN_ABS] = {FN_ABS, 1, 1},                   [FN_ROUND] = {FN_ROUND, 1, 2},
    [FN_FLOOR] = {FN_FLOOR, 1, 1},               [FN_CEIL] = {FN_CEIL, 1, 1},
    [FN_LOWER] = {FN_LOWER, 1, 1},               [FN_UPPER] = {FN_UPPER, 1, 1},
    [FN_LENGTH] = {FN_LENGTH, 1, 1},             [FN_SUBSTR] = {FN_SUBSTR, 2, 3},
    [FN_EXTRACT] = {FN_EXTRACT, 2, 2},           [FN_DATE_TRUNC] = {FN_DATE_TRUNC, 2, 3},
    [FN_TIME_BUCKET] = {FN_TIME_BUCKET, 2, 4},   [FN_DATE_BIN] = {FN_DATE_BIN, 3, 3},
    [FN_TRIM] = {FN_TRIM, 1, 2},                 [FN_LTRIM] = {FN_LTRIM, 1, 2},
    [FN_RTRIM] = {FN_RTRIM, 1, 2},               [FN_REPLACE] = {FN_REPLACE, 3, 3},
    [FN_CONCAT] = {FN_CONCAT, 1, 64},            [FN_STARTS_WITH] = {FN_STARTS_WITH, 2, 2},
    [FN_CONTAINS] = {FN_CONTAINS, 2, 2},         [FN_SPLIT_PART] = {FN_SPLIT_PART, 3, 3},
    [FN_SQRT] = {FN_SQRT, 1, 1},                 [FN_POWER] = {FN_POWER, 2, 2},
    [FN_EXP] = {FN_EXP, 1, 1},                   [FN_LN] = {FN_LN, 1, 1},
    [FN_LOG10] = {FN_LOG10, 1, 1},               [FN_SIGN] = {FN_SIGN, 1, 1},
    [FN_MOD] = {FN_MOD, 2, 2},                   [FN_DIV] = {FN_DIV, 2, 2},
    [FN_GREATEST] = {FN_GREATEST, 1, 64},        [FN_LEAST] = {FN_LEAST, 1, 64},
    [FN_NULLIF] = {FN_NULLIF, 2, 2},             [FN_EPOCH] = {FN_EPOCH, 1, 1},
    [FN_TO_SECONDS] = {FN_TO_SECONDS, 1, 1},     [FN_SECONDS] = {FN_SECONDS, 1, 1},
    [FN_MAKE_TIMESTAMP] = {FN_MAKE_TIMESTAMP, 6, 6}, [FN_NOW] = {FN_NOW, 0, 0},
    [FN_LIKE] = {FN_LIKE, 2, 3},                 [FN_ILIKE] = {FN_ILIKE, 2, 3},
    [FN_REGEXP_LIKE] = {FN_REGEXP_LIKE, 2, 3},   [FN_REGEXP_REPLACE] = {FN_REGEXP_REPLACE, 3, 4},
    [FN_STRFTIME] = {FN_STRFTIME, 2, 3},         [FN_STRPTIME] = {FN_STRPTIME, 2, 2},
    [FN_AT_TIME_ZONE] = {FN_AT_TIME_ZONE, 2, 2}, [FN_TO_UTC_TIMESTAMP] = {FN_TO_UTC_TIMESTAMP, 2, 2},
};

/* Checks a constant regular expression argument (POSIX extended, flags 'i' and, for
 * regexp_replace, 'g') by compiling it; -1 with the error at the literal. The executor compiles
 * it again for each batch of rows (regex_t cannot live in the plan's arena). */
static int check_regex(Sema *s, const Expr *pat, const Expr *flags, bool global_ok) {
    int cflags = REG_EXTENDED;
    if (flags) {
        if (flags->kind != EX_CONST || flags->type != TY_TEXT) {
            return rx_error(s->err, RX_EVALUE, s->src, flags->span,
                            "the flags of a regular expression are a constant: 'i'%s",
                            global_ok ? ", 'g' or 'gi'" : "");
        }
        for (size_t i = 0; i < flags->value.v.s.len; i++) {
            char c = flags->value.v.s.ptr[i];
            if (c == 'i') cflags |= REG_ICASE;
            else if (!(c == 'g' && global_ok))
                return rx_error(s->err, RX_EVALUE, s->src, flags->span,
                                "unknown regular expression flag '%c' (flags: i%s)", c,
                                global_ok ? ", g" : "");
        }
    }
    if (pat->kind != EX_CONST || pat->type != TY_TEXT) return 0;
    char *z = arena_strndup(s->a, pat->value.v.s.ptr, pat->value.v.s.len);
    if (!z) return rx_error(s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    regex_t re;
    int rc = regcomp(&re, z, cflags | REG_NOSUB);
    if (rc != 0) {
        char msg[200];
        regerror(rc, &re, msg, sizeof msg);
        return rx_error(s->err, RX_EVALUE, s->src, pat->span, "invalid regular expression: %s", msg);
    }
    regfree(&re);
    return 0;
}

/* The statement time that now() stands for: RELIX_NOW (an ISO-8601 timestamp, to pin it in
 * tests) when set, else the clock, read once per statement so that every now() of a query is
 * one value. 0 with *us set, or -1 with the error at the call. */
static int statement_time(Sema *s, const AstNode *call, int64_t *us) {
    if (s->have_now) {
        *us = s->now_us;
        return 0;
    }
    const char *pin = getenv("RELIX_NOW");
    if (pin && *pin) {
        const char *why = NULL;
        if (tm_parse_timestamp(pin, strlen(pin), us, &why) < 0)
            return rx_error(s->err, RX_EVALUE, s->src, call->span,
                            "RELIX_NOW='%.40s' is not a timestamp: %s", pin, why ? why : "");
        return 0;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    *us = (int64_t)ts.tv_sec * US_PER_SEC + ts.tv_nsec / 1000;
    s->have_now = true;
    s->now_us = *us;
    return 0;
}

/* Whether t is a type of the "one type, INT and FLOAT mixing" family that coalesce, greatest
 * and least take: sets *acc to the common type; false when t does not fit *acc. */
static bool unify_type(RxType *acc, RxType t) {
    if (t == TY_NULL || t == *acc) return true;
    if (*acc == TY_NULL) {
        *acc = t;
        return true;
    }
    if (type_is_numeric(*acc) && type_is_numeric(t)) {
        *acc = TY_FLOAT;
        return true;
    }
    return false;
}

/* Records the error for argument i of call, which must be `want`; returns -1. */
static int arg_type_error(Sema *s, const AstNode *call, int i, const Expr *arg, const char *want) {
    return rx_error(s->err, RX_ETYPE, s->src, arg->span,
                    "argument %d of %s must be %s, found %s", i + 1, call->name, want,
                    type_name(arg->type));
}

/* Argument i of call is a time zone: TEXT, and when it is a constant, a zone that exists
 * (io/tz.h), so that a misspelt name is an error at its literal before anything runs.
 * 0, or -1 with the error recorded. */
static int check_zone(Sema *s, const AstNode *call, int i, const Expr *z) {
    if (z->type != TY_TEXT && z->type != TY_NULL)
        return arg_type_error(s, call, i, z, "TEXT (a time zone, e.g. 'Europe/Berlin')");
    if (z->kind != EX_CONST || z->type != TY_TEXT) return 0;
    const TzZone *tz;
    const char *why;
    if (tz_find(z->value.v.s.ptr, z->value.v.s.len, &tz, &why) == 0) return 0;
    rx_error(s->err, RX_EVALUE, s->src, z->span, "unknown time zone '%.*s': %s",
             (int)(z->value.v.s.len > 80 ? 80 : z->value.v.s.len), z->value.v.s.ptr, why);
    char near[128];
    if (strcmp(why, TZ_NO_SUCH_ZONE) != 0) return -1; /* the database itself is the problem */
    if (tz_nearest(z->value.v.s.ptr, z->value.v.s.len, near, sizeof near) > 0)
        rx_error_hint(s->err, "did you mean '%s'?", near);
    else
        rx_error_hint(s->err, "a zone is a tz database name such as 'Europe/Berlin' or "
                              "'America/New_York', 'UTC', or an offset such as '+05:30'");
    return -1;
}

/* The aggregate's index in lang_aggregate_index's order (count, sum, ...), or -1. */
static int agg_index(const char *name) { return lang_aggregate_index(name, strlen(name)); }

/* A call of a built-in scalar function: arity and argument types checked, the result typed.
 * NULL with the error recorded (an aggregate outside γ, an unknown function). */
static Expr *sema_call(Sema *s, const AstNode *n, const Schema *sc) {
    if (agg_index(n->name) >= 0 && s->gc) {
        GroupCtx *g = s->gc;
        int k = group_aggregate(s, g, n);
        if (k < 0) return NULL;
        Expr *col = new_expr(s, EX_COL, g->aggs[k].type, n->span);
        if (col) col->col = g->keys.n + k;
        return col;
    }
    if (agg_index(n->name) >= 0) {
        rx_error(s->err, RX_ETYPE, s->src, n->span,
                 "the aggregate %s(...) can only stand in a γ list: γ keys; %s(...) → name (R)",
                 n->name, n->name);
        return NULL;
    }
    FuncId id;
    const FuncSig *f = lang_function_from_name(n->name, strlen(n->name), &id) == 0 ? &funcs[id] : NULL;
    WinFn wf;
    if (!f && lang_window_from_name(n->name, strlen(n->name), &wf) == 0) {
        rx_error(s->err, RX_ETYPE, s->src, n->span,
                 "the window function %s(...) can only stand in an ω list: ω [PER keys] BY key; "
                 "%s(...) → name (R)", n->name, n->name);
        return NULL;
    }
    if (!f) {
        rx_error(s->err, RX_ENAME, s->src, n->name_span, "unknown function '%s'", n->name);
        const char *near = syntax_nearest_function(n->name, strlen(n->name));
        if (near) rx_error_hint(s->err, "did you mean %s(...)?", near);
        return NULL;
    }
    int na = (int)n->items.n;
    if (na < f->min_args || na > f->max_args) {
        if (f->min_args == f->max_args)
            rx_error(s->err, RX_ETYPE, s->src, n->span, "%s takes %d argument%s, given %d",
                     lang_function_name(f->id), f->min_args, f->min_args == 1 ? "" : "s", na);
        else
            rx_error(s->err, RX_ETYPE, s->src, n->span, "%s takes %d to %d arguments, given %d",
                     lang_function_name(f->id), f->min_args, f->max_args, na);
        return NULL;
    }
    Expr *e = new_expr(s, EX_CALL, TY_NULL, n->span);
    if (!e) return NULL;
    e->fn = f->id;
    e->n_args = na;
    e->args = alloc(s, (size_t)(na ? na : 1) * sizeof *e->args);
    if (!e->args) return NULL;
    for (int i = 0; i < na; i++) {
        e->args[i] = sema_expr(s, n->items.items[i], sc);
        if (!e->args[i]) return NULL;
    }
    Expr **a = e->args;
    RxType t0 = na ? a[0]->type : TY_NULL;
    switch (f->id) {
    case FN_TO_TIMESTAMP:
        if (t0 != TY_TEXT && t0 != TY_DATE && t0 != TY_TIMESTAMP && t0 != TY_INT && t0 != TY_FLOAT && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT, DATE, TIMESTAMP or a number of seconds since 1970");
            return NULL;
        }
        e->type = TY_TIMESTAMP;
        break;
    case FN_TO_DATE:
        if (t0 != TY_TEXT && t0 != TY_DATE && t0 != TY_TIMESTAMP && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT, DATE or TIMESTAMP");
            return NULL;
        }
        e->type = TY_DATE;
        break;
    case FN_TO_TIME:
        if (t0 != TY_TEXT && t0 != TY_TIME && t0 != TY_TIMESTAMP && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT, TIME or TIMESTAMP");
            return NULL;
        }
        e->type = TY_TIME;
        break;
    case FN_TO_DURATION:
        if (t0 != TY_TEXT && t0 != TY_DURATION && t0 != TY_INT && t0 != TY_FLOAT && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT, DURATION or a number of seconds");
            return NULL;
        }
        e->type = TY_DURATION;
        break;
    case FN_TO_TEXT: e->type = TY_TEXT; break;
    case FN_TO_INT:
        if (t0 != TY_TEXT && t0 != TY_INT && t0 != TY_FLOAT && t0 != TY_BOOL && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT, INT, FLOAT or BOOL");
            return NULL;
        }
        e->type = TY_INT;
        break;
    case FN_TO_FLOAT:
        if (t0 != TY_TEXT && t0 != TY_INT && t0 != TY_FLOAT && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT, INT or FLOAT");
            return NULL;
        }
        e->type = TY_FLOAT;
        break;
    case FN_COALESCE: {
        RxType t = TY_NULL;
        for (int i = 0; i < na; i++) {
            RxType ti = a[i]->type;
            if (ti == TY_NULL) continue;
            if (t == TY_NULL) t = ti;
            else if (t != ti) {
                if (type_is_numeric(t) && type_is_numeric(ti)) t = TY_FLOAT;
                else {
                    rx_error(s->err, RX_ETYPE, s->src, a[i]->span,
                             "coalesce arguments must have one type: %s and %s", type_name(t),
                             type_name(ti));
                    return NULL;
                }
            }
        }
        e->type = t;
        break;
    }
    case FN_ABS:
        if (!type_is_numeric(t0) && t0 != TY_DURATION && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "a number or DURATION");
            return NULL;
        }
        e->type = t0;
        break;
    case FN_ROUND: case FN_FLOOR: case FN_CEIL:
        if (!type_is_numeric(t0) && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "a number");
            return NULL;
        }
        if (na == 2 && a[1]->type != TY_INT) {
            arg_type_error(s, n, 1, a[1], "INT (the number of decimal places)");
            return NULL;
        }
        e->type = t0 == TY_NULL ? TY_FLOAT : t0;
        break;
    case FN_LOWER: case FN_UPPER:
        if (t0 != TY_TEXT && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT");
            return NULL;
        }
        e->type = TY_TEXT;
        break;
    case FN_LENGTH:
        if (t0 != TY_TEXT && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT");
            return NULL;
        }
        e->type = TY_INT;
        break;
    case FN_SUBSTR:
        if (t0 != TY_TEXT && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TEXT");
            return NULL;
        }
        for (int i = 1; i < na; i++)
            if (a[i]->type != TY_INT && a[i]->type != TY_NULL) {
                arg_type_error(s, n, i, a[i], "INT");
                return NULL;
            }
        e->type = TY_TEXT;
        break;
    case FN_EXTRACT: case FN_DATE_TRUNC: {
        if (a[0]->kind != EX_CONST || a[0]->type != TY_TEXT) {
            rx_error(s->err, RX_ETYPE, s->src, a[0]->span,
                     "the first argument of %s is a field name in quotes, e.g. %s('hour', ts)",
                     lang_function_name(f->id), lang_function_name(f->id));
            return NULL;
        }
        e->field = tm_field_from_name(a[0]->value.v.s.ptr, a[0]->value.v.s.len);
        if (e->field == TF_INVALID) {
            rx_error(s->err, RX_EVALUE, s->src, a[0]->span,
                     "unknown field '%.*s' (fields: year, quarter, month, week, day, hour, minute, "
                     "second, millisecond, microsecond, dow, isodow, doy, epoch)",
                     (int)a[0]->value.v.s.len, a[0]->value.v.s.ptr);
            return NULL;
        }
        RxType t1 = a[1]->type;
        if (t1 != TY_TIMESTAMP && t1 != TY_DATE && t1 != TY_NULL && !(f->id == FN_EXTRACT && t1 == TY_TIME)) {
            arg_type_error(s, n, 1, a[1], f->id == FN_EXTRACT ? "TIMESTAMP, DATE or TIME" : "TIMESTAMP or DATE");
            return NULL;
        }
        if (na == 3) {
            /* date_trunc(field, ts, zone): truncated on the zone's wall clock */
            if (t1 == TY_DATE) {
                arg_type_error(s, n, 1, a[1], "a TIMESTAMP when a time zone is given");
                return NULL;
            }
            if (check_zone(s, n, 2, a[2]) < 0) return NULL;
        }
        if (f->id == FN_DATE_TRUNC) {
            if (e->field == TF_DOW || e->field == TF_ISODOW || e->field == TF_DOY ||
                e->field == TF_EPOCH || e->field == TF_MICROSECOND ||
                (t1 == TY_DATE && e->field > TF_DAY)) {
                rx_error(s->err, RX_EVALUE, s->src, a[0]->span,
                         "date_trunc cannot truncate to '%s'", tm_field_name(e->field));
                return NULL;
            }
            e->type = t1 == TY_DATE ? TY_DATE : TY_TIMESTAMP;
        } else {
            if (t1 == TY_TIME && e->field != TF_HOUR && e->field != TF_MINUTE &&
                e->field != TF_SECOND && e->field != TF_MILLISECOND &&
                e->field != TF_MICROSECOND && e->field != TF_EPOCH) {
                rx_error(s->err, RX_EVALUE, s->src, a[0]->span, "a TIME has no '%s'",
                         tm_field_name(e->field));
                return NULL;
            }
            if (t1 == TY_DATE && e->field >= TF_HOUR && e->field <= TF_MICROSECOND) {
                rx_error(s->err, RX_EVALUE, s->src, a[0]->span, "a DATE has no '%s'",
                         tm_field_name(e->field));
                return NULL;
            }
            e->type = TY_INT;
        }
        break;
    }
    case FN_TRIM: case FN_LTRIM: case FN_RTRIM: case FN_REPLACE: case FN_STARTS_WITH:
    case FN_CONTAINS: case FN_SPLIT_PART:
        for (int i = 0; i < na; i++) {
            bool want_int = f->id == FN_SPLIT_PART && i == 2;
            RxType ti = a[i]->type;
            if (ti != TY_NULL && ti != (want_int ? TY_INT : TY_TEXT)) {
                arg_type_error(s, n, i, a[i], want_int ? "INT" : "TEXT");
                return NULL;
            }
        }
        e->type = f->id == FN_STARTS_WITH || f->id == FN_CONTAINS ? TY_BOOL : TY_TEXT;
        break;
    case FN_CONCAT: e->type = TY_TEXT; break;
    case FN_SQRT: case FN_EXP: case FN_LN: case FN_LOG10: case FN_POWER:
        for (int i = 0; i < na; i++)
            if (!type_is_numeric(a[i]->type) && a[i]->type != TY_NULL) {
                arg_type_error(s, n, i, a[i], "a number");
                return NULL;
            }
        e->type = TY_FLOAT;
        break;
    case FN_SIGN:
        if (!type_is_numeric(t0) && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "a number");
            return NULL;
        }
        e->type = t0 == TY_NULL ? TY_INT : t0;
        break;
    case FN_MOD: case FN_DIV:
        for (int i = 0; i < na; i++)
            if (!type_is_numeric(a[i]->type) && a[i]->type != TY_NULL) {
                arg_type_error(s, n, i, a[i], "a number");
                return NULL;
            }
        if (f->id == FN_MOD) {
            /* mod(a, b) is a % b: one operator, one rule */
            RxType t = arith_type(OP_MOD, a[0]->type, a[1]->type);
            return make_binary(s, OP_MOD, t == TY_NULL ? TY_INT : t, n->span, a[0], a[1]);
        }
        e->type = a[0]->type == TY_FLOAT || a[1]->type == TY_FLOAT ? TY_FLOAT : TY_INT;
        break;
    case FN_GREATEST: case FN_LEAST: {
        RxType t = TY_NULL;
        for (int i = 0; i < na; i++) {
            if (!unify_type(&t, a[i]->type)) {
                rx_error(s->err, RX_ETYPE, s->src, a[i]->span,
                         "%s arguments must have one type: %s and %s", lang_function_name(f->id),
                         type_name(t), type_name(a[i]->type));
                return NULL;
            }
        }
        e->type = t;
        break;
    }
    case FN_NULLIF: {
        /* nullif(a, b) is CASE WHEN a = b THEN NULL ELSE a END: the comparison rule of '=' */
        if (!comparable(a[0]->type, a[1]->type)) {
            rx_error(s->err, RX_ETYPE, s->src, a[1]->span, "cannot compare %s with %s%s",
                     type_name(a[0]->type), type_name(a[1]->type),
                     conversion_hint(s, a[0]->type, a[1]->type));
            return NULL;
        }
        Expr *eq = make_binary(s, OP_EQ, TY_BOOL, n->span, a[0], a[1]);
        Expr *nul = new_expr(s, EX_CONST, TY_NULL, n->span);
        if (!eq || !nul) return NULL;
        nul->value.null = true;
        e->kind = EX_CASE;
        e->n_args = 3;
        e->args = alloc(s, 3 * sizeof *e->args);
        if (!e->args) return NULL;
        e->args[0] = eq;
        e->args[1] = nul;
        e->args[2] = a[0];
        e->type = a[0]->type;
        break;
    }
    case FN_EPOCH:
        if (t0 != TY_TIMESTAMP && t0 != TY_DATE && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "TIMESTAMP or DATE");
            return NULL;
        }
        e->type = TY_FLOAT;
        break;
    case FN_TO_SECONDS:
        if (t0 != TY_DURATION && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "DURATION");
            return NULL;
        }
        e->type = TY_FLOAT;
        break;
    case FN_SECONDS:
        if (!type_is_numeric(t0) && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "a number of seconds");
            return NULL;
        }
        e->fn = FN_TO_DURATION;
        e->type = TY_DURATION;
        break;
    case FN_MAKE_TIMESTAMP:
        for (int i = 0; i < na; i++) {
            RxType ti = a[i]->type;
            if (ti != TY_NULL && ti != TY_INT && !(i == 5 && ti == TY_FLOAT)) {
                arg_type_error(s, n, i, a[i], i == 5 ? "a number (seconds)" : "INT");
                return NULL;
            }
        }
        e->type = TY_TIMESTAMP;
        break;
    case FN_LIKE: case FN_ILIKE: {
        for (int i = 0; i < na; i++)
            if (a[i]->type != TY_TEXT && a[i]->type != TY_NULL) {
                rx_error(s->err, RX_ETYPE, s->src, a[i]->span, "%s matches TEXT, found %s",
                         f->id == FN_LIKE ? "LIKE" : "ILIKE", type_name(a[i]->type));
                return NULL;
            }
        RxStr esc = {"\\", 1};
        if (na == 3) {
            const Expr *x = a[2];
            if (x->kind != EX_CONST || x->type != TY_TEXT || utf8_width(x->value.v.s.ptr, x->value.v.s.len) > 1) {
                rx_error(s->err, RX_EVALUE, s->src, x->span,
                         "the ESCAPE of LIKE is one character in quotes, or '' for none");
                return NULL;
            }
            esc = x->value.v.s;
        }
        const Expr *pat = a[1];
        if (pat->kind == EX_CONST && pat->type == TY_TEXT && esc.len) {
            /* a constant pattern is checked once, here */
            RxStr ps = pat->value.v.s;
            for (size_t i = 0; i < ps.len; i++)
                if ((size_t)(ps.len - i) >= esc.len && memcmp(ps.ptr + i, esc.ptr, esc.len) == 0) {
                    if (i + esc.len >= ps.len) {
                        rx_error(s->err, RX_EVALUE, s->src, pat->span,
                                 "a LIKE pattern must not end with its escape character '%.*s'",
                                 (int)esc.len, esc.ptr);
                        return NULL;
                    }
                    i += esc.len;
                    while (i + 1 < ps.len && ((unsigned char)ps.ptr[i + 1] & 0xC0) == 0x80) i++;
                }
        }
        e->type = TY_BOOL;
        break;
    }
    case FN_REGEXP_LIKE: case FN_REGEXP_REPLACE: {
        int nt = f->id == FN_REGEXP_LIKE ? 2 : 3; /* text arguments before the flags */
        for (int i = 0; i < na; i++)
            if (a[i]->type != TY_TEXT && a[i]->type != TY_NULL) {
                arg_type_error(s, n, i, a[i], "TEXT");
                return NULL;
            }
        if (check_regex(s, a[1], na > nt ? a[nt] : NULL, f->id == FN_REGEXP_REPLACE) < 0) return NULL;
        e->type = f->id == FN_REGEXP_LIKE ? TY_BOOL : TY_TEXT;
        break;
    }
    case FN_STRFTIME: case FN_STRPTIME: {
        bool fmt_out = f->id == FN_STRFTIME;
        if (fmt_out ? (t0 != TY_TIMESTAMP && t0 != TY_DATE && t0 != TY_NULL) : (t0 != TY_TEXT && t0 != TY_NULL)) {
            arg_type_error(s, n, 0, a[0], fmt_out ? "TIMESTAMP or DATE" : "TEXT");
            return NULL;
        }
        if (a[1]->type != TY_TEXT && a[1]->type != TY_NULL) {
            arg_type_error(s, n, 1, a[1], "TEXT (the format)");
            return NULL;
        }
        if (na == 3) {
            /* strftime(ts, format, zone): the zone's wall clock, %z and %Z its offset and name */
            if (t0 == TY_DATE) {
                arg_type_error(s, n, 0, a[0], "a TIMESTAMP when a time zone is given");
                return NULL;
            }
            if (check_zone(s, n, 2, a[2]) < 0) return NULL;
        }
        if (a[1]->kind == EX_CONST && a[1]->type == TY_TEXT) {
            /* a constant format is checked here: every directive must be one we know */
            RxStr fs = a[1]->value.v.s;
            const char *known = fmt_out ? "YmdHMSfjuwaAbBFTszZ%" : "YmdHMSfFT%";
            for (size_t i = 0; i < fs.len; i++) {
                if (fs.ptr[i] != '%') continue;
                if (i + 1 >= fs.len || !strchr(known, fs.ptr[i + 1]) || fs.ptr[i + 1] == 0) {
                    rx_error(s->err, RX_EVALUE, s->src, a[1]->span,
                             "unknown directive '%.*s' in the format of %s (directives: %s)",
                             i + 1 < fs.len ? 2 : 1, fs.ptr + i, lang_function_name(f->id),
                             fmt_out ? "%Y %m %d %H %M %S %f %j %u %w %a %A %b %B %F %T %s %z %Z %%"
                                     : "%Y %m %d %H %M %S %f %F %T %%");
                    return NULL;
                }
                i++;
            }
        }
        e->type = fmt_out ? TY_TEXT : TY_TIMESTAMP;
        break;
    }
    case FN_NOW: {
        int64_t us;
        if (statement_time(s, n, &us) < 0) return NULL;
        e->kind = EX_CONST;
        e->type = TY_TIMESTAMP;
        e->value.type = TY_TIMESTAMP;
        e->value.v.i = us;
        e->n_args = 0;
        break;
    }
    case FN_TIME_BUCKET: case FN_DATE_BIN: {
        if (t0 != TY_DURATION && t0 != TY_NULL) {
            arg_type_error(s, n, 0, a[0], "a DURATION (the bucket width, e.g. DURATION 'PT5M')");
            return NULL;
        }
        if (a[0]->kind == EX_CONST && t0 == TY_DURATION) {
            const char *why;
            int64_t probe;
            RxDuration w = a[0]->value.v.d;
            if (f->id == FN_DATE_BIN && w.months != 0) {
                rx_error(s->err, RX_EVALUE, s->src, a[0]->span,
                         "date_bin takes a fixed width (weeks, days, hours …), not months; "
                         "time_bucket counts months");
                return NULL;
            }
            if (tm_bucket_ts(w, 0, 0, &probe, &why) < 0) {
                rx_error(s->err, RX_EVALUE, s->src, a[0]->span, "%s", why);
                return NULL;
            }
        }
        RxType t1 = a[1]->type;
        if (t1 != TY_TIMESTAMP && t1 != TY_DATE && t1 != TY_NULL) {
            arg_type_error(s, n, 1, a[1], "TIMESTAMP or DATE");
            return NULL;
        }
        /* time_bucket(width, ts [, origin] [, zone]): a TEXT third argument is the zone */
        int zi = f->id == FN_TIME_BUCKET && na == 4 ? 3 : f->id == FN_TIME_BUCKET && na == 3 && a[2]->type == TY_TEXT ? 2 : -1;
        if (na >= 3 && zi != 2 && a[2]->type != TY_TIMESTAMP && a[2]->type != TY_DATE && a[2]->type != TY_NULL) {
            arg_type_error(s, n, 2, a[2], f->id == FN_TIME_BUCKET ? "a TIMESTAMP or DATE (the origin) or TEXT (a time zone)"
                                                                  : "a TIMESTAMP or DATE (the origin)");
            return NULL;
        }
        if (zi > 0) {
            if (t1 == TY_DATE) {
                arg_type_error(s, n, 1, a[1], "a TIMESTAMP when a time zone is given");
                return NULL;
            }
            if (check_zone(s, n, zi, a[zi]) < 0) return NULL;
        }
        e->type = t1 == TY_DATE ? TY_DATE : TY_TIMESTAMP;
        break;
    }
    case FN_AT_TIME_ZONE: case FN_TO_UTC_TIMESTAMP:
        /* at_time_zone: an instant to the zone's wall clock; to_utc_timestamp: back */
        if (t0 != TY_TIMESTAMP && t0 != TY_NULL && !(f->id == FN_TO_UTC_TIMESTAMP && t0 == TY_DATE)) {
            arg_type_error(s, n, 0, a[0], f->id == FN_AT_TIME_ZONE ? "TIMESTAMP" : "TIMESTAMP or DATE (a wall-clock time)");
            return NULL;
        }
        if (check_zone(s, n, 1, a[1]) < 0) return NULL;
        e->type = TY_TIMESTAMP;
        break;
    }
    return e;
}

/* A TIMESTAMP/DATE/TIME/DURATION literal parsed into a constant; NULL with an RX_EVALUE error. */
static Expr *sema_typed_literal(Sema *s, const AstNode *n) {
    Expr *e = new_expr(s, EX_CONST, n->lit_type, n->span);
    if (!e) return NULL;
    e->value.type = n->lit_type;
    const char *why = "invalid";
    int rc = -1;
    switch (n->lit_type) {
    case TY_TIMESTAMP: rc = tm_parse_timestamp(n->str, n->str_len, &e->value.v.i, &why); break;
    case TY_DATE: rc = tm_parse_date(n->str, n->str_len, &e->value.v.date, &why); break;
    case TY_TIME: rc = tm_parse_time(n->str, n->str_len, &e->value.v.i, &why); break;
    case TY_DURATION: rc = tm_parse_duration(n->str, n->str_len, &e->value.v.d, &why); break;
    default: break;
    }
    if (rc < 0 && n->lit_type == TY_DURATION) {
        char iso[TM_BUF];
        bool guessed = tm_guess_duration(n->str, n->str_len, iso) > 0;
        if (guessed || n->str_len == 0 || (n->str[0] | 0x20) != 'p') {
            rx_error(s->err, RX_EVALUE, s->src, n->span, "invalid DURATION literal '%.*s': %s",
                     (int)n->str_len, n->str, tm_duration_forms);
            if (guessed) rx_error_hint(s->err, "did you mean DURATION '%s'?", iso);
            return NULL;
        }
    }
    if (rc < 0) {
        char buf[256];
        tm_explain(n->lit_type, n->str, n->str_len, buf);
        rx_error(s->err, RX_EVALUE, s->src, n->span, "invalid %s literal '%.*s': %s",
                 type_name(n->lit_type), (int)n->str_len, n->str, buf[0] ? buf : why);
        return NULL;
    }
    return e;
}

/* A new binary expression of type t over a and b; NULL on OOM. */
static Expr *make_binary(Sema *s, AstOp op, RxType t, RxSpan span, Expr *a, Expr *b) {
    Expr *e = new_expr(s, EX_BINARY, t, span);
    if (!e) return NULL;
    e->op = op;
    e->n_args = 2;
    e->args = alloc(s, 2 * sizeof *e->args);
    if (!e->args) return NULL;
    e->args[0] = a;
    e->args[1] = b;
    return e;
}

/* ¬a as a BOOL expression; NULL on OOM. */
static Expr *make_not(Sema *s, RxSpan span, Expr *a) {
    Expr *e = new_expr(s, EX_UNARY, TY_BOOL, span);
    if (!e) return NULL;
    e->op = OP_NOT;
    e->n_args = 1;
    e->args = alloc(s, sizeof *e->args);
    if (!e->args) return NULL;
    e->args[0] = a;
    return e;
}

/* The ∨ of terms[0..n), as a balanced tree: an IN list of any length is then only log n deep
 * for the stages that walk expressions recursively (∨ is associative and commutative in
 * three-valued logic, so the shape does not change the value). Reuses terms. */
static Expr *or_balanced(Sema *s, RxSpan span, Expr **terms, size_t n) {
    while (n > 1) {
        size_t k = 0;
        for (size_t i = 0; i < n; i += 2) {
            terms[k] = i + 1 < n ? make_binary(s, OP_OR, TY_BOOL, span, terms[i], terms[i + 1]) : terms[i];
            if (!terms[k++]) return NULL;
        }
        n = k;
    }
    return terms[0];
}

/* x IN (a, b) is x = a ∨ x = b; x BETWEEN lo AND hi is x >= lo ∧ x <= hi (SQL's NULL rules
 * follow from the rewriting). */
static Expr *sema_in_between(Sema *s, const AstNode *n, const Schema *sc) {
    Expr *x = sema_expr(s, n->a, sc);
    if (!x) return NULL;
    Expr *r = NULL;
    Expr **terms = NULL;
    if (n->kind == AST_IN && !(terms = alloc(s, n->items.n * sizeof *terms))) return NULL;
    for (size_t i = 0; i < n->items.n; i++) {
        const AstNode *it = n->items.items[i];
        Expr *v = sema_expr(s, it, sc);
        if (!v) return NULL;
        param_hint(s, n->a, v);
        param_hint(s, it, x);
        if (!comparable(x->type, v->type)) {
            rx_error(s->err, RX_ETYPE, s->src, it->span, "cannot compare %s with %s%s",
                     type_name(x->type), type_name(v->type), conversion_hint(s, x->type, v->type));
            return NULL;
        }
        if (n->kind == AST_IN) {
            if (!(terms[i] = make_binary(s, OP_EQ, TY_BOOL, n->span, x, v))) return NULL;
            continue;
        }
        Expr *c = make_binary(s, i == 0 ? OP_GE : OP_LE, TY_BOOL, n->span, x, v);
        r = r ? make_binary(s, OP_AND, TY_BOOL, n->span, r, c) : c;
        if (!r) return NULL;
    }
    if (n->kind == AST_IN && !(r = or_balanced(s, n->span, terms, n->items.n))) return NULL;
    return n->negated ? make_not(s, n->span, r) : r;
}

/* CASE WHEN ... END: conditions BOOL, branches of one common type; NULL with the error. */
static Expr *sema_case(Sema *s, const AstNode *n, const Schema *sc) {
    int nw = (int)n->items.n;
    Expr *e = new_expr(s, EX_CASE, TY_NULL, n->span);
    if (!e) return NULL;
    e->n_args = nw + 1;
    e->args = alloc(s, (size_t)(nw + 1) * sizeof *e->args);
    if (!e->args) return NULL;
    RxType t = TY_NULL;
    for (int i = 0; i <= nw; i++) {
        const AstNode *an = i < nw ? n->items.items[i] : n->a;
        Expr *a;
        if (!an) {
            a = new_expr(s, EX_CONST, TY_NULL, n->span);
            if (!a) return NULL;
            a->value.null = true;
        } else {
            a = sema_expr(s, an, sc);
            if (!a) return NULL;
        }
        e->args[i] = a;
        if (i < nw && i % 2 == 0) {
            if (a->type != TY_BOOL && a->type != TY_NULL) {
                rx_error(s->err, RX_ETYPE, s->src, a->span, "a WHEN condition must be BOOL, found %s",
                         type_name(a->type));
                return NULL;
            }
            continue;
        }
        if (a->type == TY_NULL || a->type == t) continue;
        if (t == TY_NULL) t = a->type;
        else if (type_is_numeric(t) && type_is_numeric(a->type)) t = TY_FLOAT;
        else {
            rx_error(s->err, RX_ETYPE, s->src, a->span,
                     "the branches of CASE have different types: %s and %s", type_name(t),
                     type_name(a->type));
            return NULL;
        }
    }
    e->type = t;
    return e;
}

/* A parameter ($1, :name) of a prepared query: the constant bound to it, or while the query is
 * prepared an untyped NULL. NULL with the error at the parameter when the statement is no
 * prepared query, the parameter sits in a view (analyzed once for every later query) or is
 * not bound. */
static Expr *sema_param(Sema *s, const AstNode *n) {
    const QueryParams *qp = s->cat->params;
    int k = (int)n->ival;
    if (!qp || k >= qp->n) {
        rx_error(s->err, RX_ESYNTAX, s->src, n->span,
                 "a parameter can only stand in a prepared query (rx_prepare, relix.query(params=...))");
        return NULL;
    }
    if (s->view_stack.n > 0) {
        rx_error(s->err, RX_ESYNTAX, s->src, n->span,
                 "a view cannot take a parameter (views are analyzed once); use it in the query");
        return NULL;
    }
    Expr *e;
    if (!qp->values) {
        e = new_expr(s, EX_CONST, TY_NULL, n->span);
        if (e) e->value.type = TY_NULL, e->value.null = true;
        return e;
    }
    if (!qp->bound[k]) {
        rx_error(s->err, RX_EVALUE, s->src, n->span, "parameter %.*s is not bound",
                 (int)(n->span.end - n->span.start), s->src->text + n->span.start);
        return NULL;
    }
    const Value *v = &qp->values[k];
    e = new_expr(s, EX_CONST, v->null ? TY_NULL : v->type, n->span);
    if (e) e->value = *v;
    return e;
}

/* While a query is prepared: when n is a parameter, the type the expression other gives it
 * (the first one seen stays). */
static void param_hint(Sema *s, const AstNode *n, const Expr *other) {
    const QueryParams *qp = s->cat->params;
    if (n->kind != AST_PARAM || !qp || qp->values || !qp->hint || other->type == TY_NULL) return;
    int k = (int)n->ival;
    if (k < qp->n && qp->hint[k] == TY_NULL) {
        qp->hint[k] = other->type;
        qp->hint_span[k] = other->span;
    }
}

/* Binds and types the scalar expression n over schema sc, into the arena; NULL with the error
 * recorded at the offending token. */
static Expr *sema_expr(Sema *s, const AstNode *n, const Schema *sc) {
    switch (n->kind) {
    case AST_COLREF: {
        if (s->gc) {
            int k = lookup_col(s, &s->gc->keys, n);
            if (k == -2) return NULL;
            if (k < 0) {
                if (lookup_col(s, s->gc->in, n) >= 0)
                    rx_error(s->err, RX_ETYPE, s->src, n->span,
                             "'%s' is not a grouping key: after the ';' of γ a column stands inside "
                             "an aggregate (count, sum, avg, min, max, …) or is a key before the ';'",
                             n->name);
                else
                    unknown_column(s, &s->gc->keys, n, " among the keys of γ");
                return NULL;
            }
            Expr *e = new_expr(s, EX_COL, s->gc->keys.cols[k].type, n->span);
            if (e) e->col = k;
            return e;
        }
        int i = lookup_col(s, sc, n);
        if (i == -2) return NULL;
        if (i < 0) {
            unknown_column(s, sc, n, "");
            return NULL;
        }
        Expr *e = new_expr(s, EX_COL, sc->cols[i].type, n->span);
        if (e) e->col = i;
        return e;
    }
    case AST_INT: {
        Expr *e = new_expr(s, EX_CONST, TY_INT, n->span);
        if (e) e->value.type = TY_INT, e->value.v.i = n->ival;
        return e;
    }
    case AST_FLOAT: {
        Expr *e = new_expr(s, EX_CONST, TY_FLOAT, n->span);
        if (e) e->value.type = TY_FLOAT, e->value.v.f = n->fval;
        return e;
    }
    case AST_STRING: {
        Expr *e = new_expr(s, EX_CONST, TY_TEXT, n->span);
        if (e) {
            e->value.type = TY_TEXT;
            e->value.v.s.ptr = n->str;
            e->value.v.s.len = n->str_len;
        }
        return e;
    }
    case AST_BOOL: {
        Expr *e = new_expr(s, EX_CONST, TY_BOOL, n->span);
        if (e) e->value.type = TY_BOOL, e->value.v.b = n->ival != 0;
        return e;
    }
    case AST_NULL: {
        Expr *e = new_expr(s, EX_CONST, TY_NULL, n->span);
        if (e) e->value.type = TY_NULL, e->value.null = true;
        return e;
    }
    case AST_TYPED:
        return sema_typed_literal(s, n);
    case AST_PARAM:
        return sema_param(s, n);
    case AST_UNARY: {
        Expr *a = sema_expr(s, n->a, sc);
        if (!a) return NULL;
        RxType t;
        if (n->op == OP_NOT) {
            if (a->type != TY_BOOL && a->type != TY_NULL) {
                rx_error(s->err, RX_ETYPE, s->src, n->span, "'¬' needs a BOOL operand, found %s",
                         type_name(a->type));
                return NULL;
            }
            t = TY_BOOL;
        } else {
            if (!type_is_numeric(a->type) && a->type != TY_DURATION && a->type != TY_NULL) {
                rx_error(s->err, RX_ETYPE, s->src, n->span, "cannot negate %s", type_name(a->type));
                return NULL;
            }
            t = a->type;
        }
        Expr *e = new_expr(s, EX_UNARY, t, n->span);
        if (!e) return NULL;
        e->op = n->op;
        e->n_args = 1;
        e->args = alloc(s, sizeof *e->args);
        if (!e->args) return NULL;
        e->args[0] = a;
        return e;
    }
    case AST_ISNULL: {
        Expr *a = sema_expr(s, n->a, sc);
        if (!a) return NULL;
        Expr *e = new_expr(s, EX_ISNULL, TY_BOOL, n->span);
        if (!e) return NULL;
        e->negated = n->negated;
        e->n_args = 1;
        e->args = alloc(s, sizeof *e->args);
        if (!e->args) return NULL;
        e->args[0] = a;
        return e;
    }
    case AST_BINARY: {
        Expr *a = sema_expr(s, n->a, sc);
        if (!a) return NULL;
        Expr *b = sema_expr(s, n->b, sc);
        if (!b) return NULL;
        if (n->op >= OP_EQ) {   /* comparisons, ∧ and ∨: the operands have one type */
            param_hint(s, n->a, b);
            param_hint(s, n->b, a);
        }
        RxType ta = a->type, tb = b->type, t;
        switch (n->op) {
        case OP_AND: case OP_OR:
            if ((ta != TY_BOOL && ta != TY_NULL) || (tb != TY_BOOL && tb != TY_NULL)) {
                const Expr *bad = (ta != TY_BOOL && ta != TY_NULL) ? a : b;
                rx_error(s->err, RX_ETYPE, s->src, bad->span, "'%s' needs BOOL operands, found %s",
                         op_text(n->op), type_name(bad->type));
                return NULL;
            }
            t = TY_BOOL;
            break;
        case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
            if (!comparable(ta, tb)) {
                rx_error(s->err, RX_ETYPE, s->src, n->span, "cannot compare %s with %s%s",
                         type_name(ta), type_name(tb), conversion_hint(s, ta, tb));
                return NULL;
            }
            t = TY_BOOL;
            break;
        case OP_CONCAT:
            if (ta != TY_TEXT && tb != TY_TEXT && !(ta == TY_NULL || tb == TY_NULL)) {
                rx_error(s->err, RX_ETYPE, s->src, n->span,
                         "'||' joins text: at least one operand must be TEXT, found %s and %s",
                         type_name(ta), type_name(tb));
                return NULL;
            }
            t = TY_TEXT;
            break;
        default:
            t = arith_type(n->op, ta, tb);
            if (t == TY_NULL && !(ta == TY_NULL && tb == TY_NULL)) {
                type_error_binary(s, n, ta, tb);
                return NULL;
            }
            break;
        }
        Expr *e = new_expr(s, EX_BINARY, t, n->span);
        if (!e) return NULL;
        e->op = n->op;
        e->n_args = 2;
        e->args = alloc(s, 2 * sizeof *e->args);
        if (!e->args) return NULL;
        e->args[0] = a;
        e->args[1] = b;
        return e;
    }
    case AST_CALL:
        return sema_call(s, n, sc);
    case AST_CASE:
        return sema_case(s, n, sc);
    case AST_IN: case AST_BETWEEN:
        return sema_in_between(s, n, sc);
    default:
        rx_error(s->err, RX_ESYNTAX, s->src, n->span, "a relation cannot stand here; a scalar "
                 "expression was expected");
        return NULL;
    }
}

/* ---- relations ------------------------------------------------------------------------------ */

/* A new zeroed plan node of kind k over span in the query's source, in the arena; NULL with
 * RX_ENOMEM recorded. */
static LPlan *new_plan(Sema *s, LpKind k, RxSpan span) {
    LPlan *p = alloc(s, sizeof *p);
    if (!p) return NULL;
    p->kind = k;
    p->span = span;
    p->src = s->src;
    return p;
}

/* The schema of table t, its columns qualified by qual; -1 on OOM. */
static int table_schema(Sema *s, const char *qual, const Table *t, Schema *out) {
    out->n = t->n_cols;
    out->cols = alloc(s, (size_t)(t->n_cols ? t->n_cols : 1) * sizeof *out->cols);
    if (!out->cols) return -1;
    for (int i = 0; i < t->n_cols; i++) {
        out->cols[i].name = arena_strdup(s->a, t->names[i]);
        out->cols[i].base = out->cols[i].name;
        out->cols[i].qual = qual;
        out->cols[i].type = t->cols[i]->type;
    }
    return 0;
}

/* ρ qual (in): every column of in requalified by qual; NULL on OOM. */
static LPlan *rename_rel(Sema *s, LPlan *in, const char *qual, RxSpan span) {
    LPlan *p = new_plan(s, LP_RENAME, span);
    if (!p) return NULL;
    p->in[0] = in;
    if (schema_copy(s, &in->schema, &p->schema) < 0) return NULL;
    for (int i = 0; i < p->schema.n; i++) {
        p->schema.cols[i].qual = qual;
        p->schema.cols[i].base = p->schema.cols[i].name;
    }
    return p;
}

static LPlan *analyze_view(Sema *s, RelDef *d, const AstNode *ref);

/* A relation named in a query: an inline table, a CSV source, a view or a connection's table,
 * as a scan (or a view reference); NULL with the error (unknown names with suggestions). */
static const char *expr_text(Sema *s, RxSpan span);

/* A constant argument of series(): a literal, or '-' before a numeric literal. false when e is
 * neither. */
static bool series_const(const Expr *e, Value *out) {
    if (e->kind == EX_CONST) {
        *out = e->value;
        return !e->value.null;
    }
    if (e->kind == EX_UNARY && e->op == OP_NEG && e->args[0]->kind == EX_CONST && !e->args[0]->value.null &&
        e->args[0]->type == TY_INT && e->args[0]->value.v.i != INT64_MIN) {
        *out = e->args[0]->value;
        out->v.i = -out->v.i;
        return true;
    }
    return false;
}

/* The most rows a series() may have. */
#define SERIES_MAX_ROWS (INT64_C(1) << 31)

/* series(from, to, step): the closed range from, from + step, … up to to (down to it for a
 * negative step), as a table of one column x that the catalog keeps under the call's text (one
 * table for every use of the same text). INT with an INT step, DATE or TIMESTAMP with a
 * DURATION step (months are calendar months). NULL with the error. */
static LPlan *sema_series(Sema *s, const AstNode *n) {
    Value v[3];
    Expr *e[3];
    for (int i = 0; i < 3; i++) {
        if (!(e[i] = sema_expr(s, n->items.items[i], &(Schema){0}))) return NULL;
        if (!series_const(e[i], &v[i])) {
            rx_error(s->err, RX_ETYPE, s->src, e[i]->span, "series takes constants (a NULL or a column is none)");
            return NULL;
        }
    }
    RxType t = v[0].type;
    bool time = t == TY_TIMESTAMP || t == TY_DATE;
    if ((t != TY_INT && !time) || v[1].type != t || v[2].type != (time ? TY_DURATION : TY_INT)) {
        rx_error(s->err, RX_ETYPE, s->src, n->span,
                 "series takes (INT, INT, INT step), (DATE, DATE, DURATION step) or (TIMESTAMP, "
                 "TIMESTAMP, DURATION step); found (%s, %s, %s)", type_name(v[0].type),
                 type_name(v[1].type), type_name(v[2].type));
        return NULL;
    }
    const char *text = expr_text(s, n->span);
    RelDef *d = text ? catalog_find(s->cat, text) : NULL;
    if (!d) {
        int sign = 0;
        if (t == TY_INT) sign = (v[2].v.i > 0) - (v[2].v.i < 0);
        else sign = (rx_dur_span(v[2].v.d) > 0) - (rx_dur_span(v[2].v.d) < 0);
        if (t == TY_DATE && v[2].v.d.us % US_PER_DAY != 0) {
            rx_error(s->err, RX_EVALUE, s->src, e[2]->span, "a series of DATEs steps by whole days or months");
            return NULL;
        }
        if (sign == 0 || (v[2].v.d.months != 0 && v[2].v.d.us != 0 && t != TY_INT &&
                          (v[2].v.d.months > 0) != (v[2].v.d.us > 0))) {
            rx_error(s->err, RX_EVALUE, s->src, e[2]->span,
                     "the step of series must move one way: not zero, nor months and days of opposite signs");
            return NULL;
        }
        int64_t from = t == TY_DATE ? (int64_t)v[0].v.date * US_PER_DAY : v[0].v.i;
        int64_t to = t == TY_DATE ? (int64_t)v[1].v.date * US_PER_DAY : v[1].v.i;
        ColBuilder b;
        colb_init(&b, t, 16);
        int64_t cur = from, count = 0;
        while (sign > 0 ? cur <= to : cur >= to) {
            if (++count > SERIES_MAX_ROWS) {
                colb_free(&b);
                rx_error(s->err, RX_ELIMIT, s->src, n->span, "series would make more than %lld rows",
                         (long long)SERIES_MAX_ROWS);
                return NULL;
            }
            Value x = {.type = t};
            if (t == TY_DATE) x.v.date = (int32_t)(cur / US_PER_DAY);
            else x.v.i = cur;
            colb_push(&b, &x);
            int64_t nx;
            if (t == TY_INT) {
                if (__builtin_add_overflow(cur, v[2].v.i, &nx)) break;
            } else {
                /* months from the start, so that a month step keeps the start's day */
                RxDuration k = {v[2].v.d.months * count, v[2].v.d.us * count};
                if ((v[2].v.d.months && k.months / count != v[2].v.d.months) ||
                    (v[2].v.d.us && k.us / count != v[2].v.d.us) || tm_ts_add(from, k, &nx) < 0)
                    break;
            }
            cur = nx;
        }
        Column *c = colb_finish(&b);
        Table *tb = c ? table_new(1, (size_t)count) : NULL;
        if (!c || !tb || table_set(tb, 0, c, "x") < 0) {
            if (!tb) col_release(c);
            table_free(tb);
            rx_error(s->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            return NULL;
        }
        if (catalog_define_table(s->cat, text, tb, s->err) < 0) return NULL;
        d = catalog_find(s->cat, text);
        if (!d) return NULL;
    }
    LPlan *p = new_plan(s, LP_SCAN, n->span);
    if (!p) return NULL;
    p->rel_name = d->name;
    p->table = d->table;
    p->source = d;
    if (table_schema(s, "series", d->table, &p->schema) < 0) return NULL;
    return p;
}

static LPlan *sema_relname(Sema *s, const AstNode *n) {
    if (n->items.n) return sema_series(s, n);
    if (n->qual) {
        RelDef *conn = catalog_find(s->cat, n->qual);
        if (!conn || conn->stmt->kind != ST_CONNECT) {
            rx_error(s->err, RX_ENAME, s->src, n->qual_span,
                     conn ? "'%s' is not a connection, so '%s.%s' names no table"
                          : "unknown connection '%s' in '%s.%s' (declare it with %s := connect('uri');)",
                     n->qual, n->qual, n->name, n->qual);
            return NULL;
        }
        RelDef *d = catalog_db_table(s->cat, conn, n->name, n->name_span, s->src, s->err);
        if (!d) return NULL;
        LPlan *p = new_plan(s, LP_SCAN, n->span);
        if (!p) return NULL;
        p->rel_name = d->name;
        p->table = d->table;
        p->source = d;
        if (table_schema(s, n->name, d->table, &p->schema) < 0) return NULL;
        if (n->alias) return rename_rel(s, p, n->alias, n->span);
        return p;
    }
    RelDef *d = catalog_find(s->cat, n->name);
    if (!d) {
        const char **cands = alloc(s, (s->cat->n + 1) * sizeof *cands);
        if (!cands) return NULL;
        for (size_t i = 0; i < s->cat->n; i++) cands[i] = s->cat->defs[i]->name;
        rx_error(s->err, RX_ENAME, s->src, n->name_span, "unknown relation '%s'%s", n->name,
                 suggest(s, n->name, cands, s->cat->n));
        return NULL;
    }
    LPlan *p;
    if (d->stmt->kind == ST_CONNECT && !d->db) {
        rx_error(s->err, RX_ENAME, s->src, n->name_span,
                 "'%s' is a connection, not a relation: name one of its tables, %s.table",
                 n->name, n->name);
        return NULL;
    }
    if (d->stmt->kind == ST_VIEW) {
        LPlan *body = analyze_view(s, d, n);
        if (!body) return NULL;
        p = new_plan(s, LP_VIEW, n->name_span);
        if (!p) return NULL;
        p->view_name = d->name;
        p->in[0] = body;
        if (schema_copy(s, &body->schema, &p->schema) < 0) return NULL;
        for (int i = 0; i < p->schema.n; i++) {
            p->schema.cols[i].qual = d->name;
            p->schema.cols[i].base = p->schema.cols[i].name;
        }
    } else {
        if ((d->stmt->kind == ST_CSV || d->stmt->kind == ST_PARQUET) && !d->table &&
            catalog_load_csv(s->cat, d, s->err) < 0)
            return NULL;
        p = new_plan(s, LP_SCAN, n->name_span);
        if (!p) return NULL;
        p->rel_name = d->name;
        p->table = d->table;
        p->source = d;
        if (table_schema(s, d->name, d->table, &p->schema) < 0) return NULL;
    }
    if (n->alias) return rename_rel(s, p, n->alias, n->span);
    return p;
}

/* Resolves an endpoint or key column that must come from `side` (0 left, 1 right). */
static int side_column(Sema *s, const AstNode *ref, const Schema *want, const Schema *other,
                       const char *what, const char *side_name) {
    int i = lookup_col(s, want, ref);
    if (i == -2) return -1;
    if (i >= 0) return i;
    int j = lookup_col(s, other, ref);
    if (j == -2) return -1;
    if (j >= 0) {
        rx_error(s->err, RX_ENAME, s->src, ref->span,
                 "'%s' is a column of the %s input, but the %s must come from the %s input",
                 ref->qual ? arena_printf(s->a, "%s.%s", ref->qual, ref->name) : ref->name,
                 side_name[0] == 'l' ? "right" : "left", what, side_name);
        return -1;
    }
    unknown_column(s, want, ref, arena_printf(s->a, " in the %s input", side_name));
    return -1;
}

/* IJOIN: four endpoint columns of one orderable family, two from each side (AT: the left
 * point and the right interval); LEFT, SEMI and ANTI forms; NULL with the error. */
static LPlan *sema_ijoin(Sema *s, const AstNode *n) {
    LPlan *l = sema_rel(s, n->a);
    if (!l) return NULL;
    LPlan *r = sema_rel(s, n->b);
    if (!r) return NULL;
    LPlan *p = new_plan(s, LP_IJOIN, n->span);
    if (!p) return NULL;
    p->in[0] = l;
    p->in[1] = r;
    p->relation = n->relation;
    p->relset = n->relset;
    p->point = n->point;
    p->join_kind = n->join_kind;
    static const char *const what[4] = {"left start", "left end", "right start", "right end"};
    RxType types[4];
    int n_items = n->point ? 3 : 4;
    for (int k = 0; k < n_items; k++) {
        const AstNode *ref = n->items.items[k];
        int i = n->point && k > 0 ? k + 1 : k;
        bool left = i < 2;
        const char *name = n->point && i == 0 ? "left point" : what[i];
        int c = side_column(s, ref, left ? &l->schema : &r->schema,
                            left ? &r->schema : &l->schema, name, left ? "left" : "right");
        if (c < 0) return NULL;
        p->ends[i] = c;
        types[i] = (left ? &l->schema : &r->schema)->cols[c].type;
        int fam = type_order_family(types[i]);
        if (fam == 0 || fam == 6) {
            rx_error(s->err, RX_ETYPE, s->src, ref->span,
                     n->point ? "the %s is %s; a point and interval endpoints must be temporal, "
                                "numeric or TEXT"
                              : "the %s endpoint is %s; interval endpoints must be temporal, numeric or "
                                "TEXT", name, type_name(types[i]));
            return NULL;
        }
        if (k > 0 && fam != type_order_family(types[0])) {
            rx_error(s->err, RX_ETYPE, s->src, ref->span,
                     "endpoint types cannot be compared: the %s is %s but the %s is "
                     "%s%s", n->point ? "left point" : "left start", type_name(types[0]), what[i],
                     type_name(types[i]), conversion_hint(s, types[i], types[0]));
            return NULL;
        }
        if (n->point && i == 0) {
            p->ends[1] = c;
            types[1] = types[0];
        }
    }
    if (p->join_kind == JOIN_SEMI || p->join_kind == JOIN_ANTI) {
        if (schema_copy(s, &l->schema, &p->schema) < 0) return NULL;
    } else if (schema_join(s, &l->schema, &r->schema, &p->schema) < 0) {
        return NULL;
    }
    return p;
}

/* Flattens an ∧ tree of an operator's condition into conjuncts; ∨ and ¬ are errors, which
 * name the operator as `op` says ("an ASOF"). */
static int flatten_and(Sema *s, const AstNode *n, PtrVec *out, const char *op) {
    if (n->kind == AST_BINARY && n->op == OP_AND) {
        if (flatten_and(s, n->a, out, op) < 0) return -1;
        return flatten_and(s, n->b, out, op);
    }
    if ((n->kind == AST_BINARY && n->op == OP_OR) || (n->kind == AST_UNARY && n->op == OP_NOT))
        return rx_error(s->err, RX_ETYPE, s->src, n->span,
                        "%s condition is a conjunction (∧) of comparisons; '%s' is not "
                        "allowed", op, op_text(n->op));
    ptrvec_push(s->a, out, (void *)n);
    return 0;
}

/* Which input a column reference of the ASOF condition belongs to: 0 left, 1 right, -1 error. */
static int asof_side(Sema *s, const AstNode *ref, const Schema *l, const Schema *r, int *col) {
    if (ref->kind != AST_COLREF)
        return rx_error(s->err, RX_ETYPE, s->src, ref->span,
                        "an ASOF comparison relates a column of the left input to a column of "
                        "the right input; this is not a column");
    int li = lookup_col(s, l, ref);
    if (li == -2) return -1;
    int ri = lookup_col(s, r, ref);
    if (ri == -2) return -1;
    if (li >= 0 && ri >= 0)
        return rx_error(s->err, RX_ENAME, s->src, ref->span,
                        "column '%s' is in both inputs; qualify it (Left.%s or Right.%s)",
                        ref->name, ref->name, ref->name);
    if (li >= 0) {
        *col = li;
        return 0;
    }
    if (ri >= 0) {
        *col = ri;
        return 1;
    }
    Schema both;
    if (schema_join(s, l, r, &both) < 0) return -1;
    return unknown_column(s, &both, ref, " in either input");
}

/* The comparison with its operands swapped (< to >); other operators unchanged. */
static AstOp flip(AstOp op) {
    switch (op) {
    case OP_LT: return OP_GT;
    case OP_LE: return OP_GE;
    case OP_GT: return OP_LT;
    case OP_GE: return OP_LE;
    default: return op;
    }
}

/* ASOF: equality keys and one match comparison (its direction), WITHIN and TIES checked;
 * NULL with the error. */
static LPlan *sema_asof(Sema *s, const AstNode *n) {
    LPlan *l = sema_rel(s, n->a);
    if (!l) return NULL;
    LPlan *r = sema_rel(s, n->b);
    if (!r) return NULL;
    LPlan *p = new_plan(s, LP_ASOF, n->span);
    if (!p) return NULL;
    p->in[0] = l;
    p->in[1] = r;
    p->inner = n->inner;
    p->ties_first = n->ties == 1;
    p->nearest = n->nearest;
    p->ties_all = n->ties == 3;
    p->asof_k = n->asof_k ? (int)n->asof_k : p->ties_all ? 1 : 0;
    PtrVec conj = {0};
    if (flatten_and(s, n->cond, &conj, "an ASOF") < 0) return NULL;
    p->lkeys = alloc(s, (conj.n + 1) * sizeof(int));
    p->rkeys = alloc(s, (conj.n + 1) * sizeof(int));
    if (!p->lkeys || !p->rkeys) return NULL;
    const AstNode *ineq = NULL;
    for (size_t i = 0; i < conj.n; i++) {
        const AstNode *c = conj.items[i];
        if (c->kind != AST_BINARY || c->op < OP_EQ || c->op > OP_GE) {
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "an ASOF condition is a conjunction of comparisons (= keys and one of "
                     "< <= > >=); this is not a comparison");
            return NULL;
        }
        if (c->op == OP_NE) {
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "'≠' cannot stand in an ASOF condition: use = for keys and one of < <= > >= "
                     "for the match column");
            return NULL;
        }
        int ca, cb;
        int sa = asof_side(s, c->a, &l->schema, &r->schema, &ca);
        if (sa < 0) return NULL;
        int sb = asof_side(s, c->b, &l->schema, &r->schema, &cb);
        if (sb < 0) return NULL;
        if (sa == sb) {
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "this comparison does not relate the two inputs: both columns are from the "
                     "%s input (filter one input with σ instead)", sa == 0 ? "left" : "right");
            return NULL;
        }
        AstOp op = c->op;
        if (sa == 1) {
            int t = ca;
            ca = cb;
            cb = t;
            op = flip(op);
        }
        RxType lt = l->schema.cols[ca].type, rt = r->schema.cols[cb].type;
        if (type_order_family(lt) != type_order_family(rt) || type_order_family(lt) == 0) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "cannot compare %s with %s%s",
                     type_name(lt), type_name(rt), conversion_hint(s, lt, rt));
            return NULL;
        }
        if (op == OP_EQ) {
            p->lkeys[p->n_keys] = ca;
            p->rkeys[p->n_keys] = cb;
            p->n_keys++;
            continue;
        }
        if (ineq) {
            uint32_t line, col;
            rx_source_position(s->src, ineq->span.start, &line, &col);
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "an ASOF condition has exactly one ordering comparison; this is a second "
                     "one (the first is at %u:%u)", line, col);
            return NULL;
        }
        if (type_order_family(lt) == 6) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "an ASOF match column cannot be BOOL");
            return NULL;
        }
        ineq = c;
        p->lmatch = ca;
        p->rmatch = cb;
        p->dir = op == OP_GE ? ASOF_BACKWARD : op == OP_GT ? ASOF_BACKWARD_STRICT
               : op == OP_LE ? ASOF_FORWARD : ASOF_FORWARD_STRICT;
    }
    if (!ineq) {
        rx_error(s->err, RX_ETYPE, s->src, n->cond->span,
                 "an ASOF condition needs exactly one ordering comparison (<, <=, > or >=) "
                 "between a left and a right column; found only equalities");
        return NULL;
    }
    if (n->within) {
        const AstNode *w = n->within;
        bool neg = false;
        if (w->kind == AST_UNARY && w->op == OP_NEG) {
            neg = true;
            w = w->a;
        }
        if (w->kind != AST_TYPED || w->lit_type != TY_DURATION) {
            char iso[TM_BUF];
            if (w->kind == AST_STRING && tm_guess_duration(w->str, w->str_len, iso) > 0) {
                rx_error(s->err, RX_ETYPE, s->src, n->within->span,
                         "WITHIN takes a DURATION literal, not text; %s", tm_duration_forms);
                rx_error_hint(s->err, "did you mean WITHIN DURATION '%s'?", iso);
            } else {
                rx_error(s->err, RX_ETYPE, s->src, n->within->span,
                         "WITHIN takes a DURATION literal, e.g. WITHIN DURATION 'PT5M'");
            }
            return NULL;
        }
        Expr *we = sema_typed_literal(s, w);
        if (!we) return NULL;
        RxDuration d = we->value.v.d;
        if (neg || d.us < 0 || d.months < 0) {
            rx_error(s->err, RX_EVALUE, s->src, n->within->span,
                     "a WITHIN bound cannot be negative");
            return NULL;
        }
        if (d.months != 0) {
            rx_error(s->err, RX_EVALUE, s->src, n->within->span,
                     "a WITHIN bound needs an exact length, but '%.*s' has calendar units "
                     "(months or years, whose length varies); write days or hours instead",
                     (int)w->str_len, w->str);
            return NULL;
        }
        const ColInfo *lm = &l->schema.cols[p->lmatch];
        const ColInfo *rm = &r->schema.cols[p->rmatch];
        const ColInfo *bad = NULL;
        if (lm->type != TY_TIMESTAMP && lm->type != TY_DATE && lm->type != TY_DURATION) bad = lm;
        else if (rm->type != lm->type) bad = rm;
        if (bad) {
            const char *label = sema_col_label(s->a, bad);
            if (bad->type == TY_TEXT)
                rx_error(s->err, RX_ETYPE, s->src, n->within->span,
                         "WITHIN needs a match column with a distance (TIMESTAMP, DATE or "
                         "DURATION), but %s is TEXT; text orders but has no distance, so convert "
                         "it first: π to_timestamp(%s) → %s (…)",
                         label, bad->base ? bad->base : bad->name, bad->base ? bad->base : bad->name);
            else
                rx_error(s->err, RX_ETYPE, s->src, n->within->span,
                         "WITHIN needs a match column with a distance (TIMESTAMP, DATE or "
                         "DURATION on both sides), but %s is %s%s", label, type_name(bad->type),
                         bad->type == TY_TIME ? " (a TIME's difference wraps at midnight; use a "
                                                "TIMESTAMP)" : "");
            return NULL;
        }
        p->has_within = true;
        p->within = d;
    }
    if (schema_join(s, &l->schema, &r->schema, &p->schema) < 0) return NULL;
    if (p->asof_k) {
        /* k nearest: the rank column last (named rank, rank_r, ... when the name is taken) */
        Schema joined = p->schema;
        ColInfo *rc = alloc(s, sizeof *rc);
        if (!rc) return NULL;
        *rc = (ColInfo){.name = "rank", .base = NULL, .qual = NULL, .type = TY_INT};
        Schema rank = {1, rc};
        if (schema_join(s, &joined, &rank, &p->schema) < 0) return NULL;
    }
    return p;
}

/* The text of an expression's source, whitespace collapsed: the name of an unnamed π item. */
static const char *expr_text(Sema *s, RxSpan span) { return rx_source_text(s->a, s->src, span); }

/* π items (R): each item typed and named; NULL with the error. */
static LPlan *sema_project(Sema *s, const AstNode *n) {
    LPlan *in = sema_rel(s, n->b);
    if (!in) return NULL;
    LPlan *p = new_plan(s, LP_PROJECT, n->span);
    if (!p) return NULL;
    p->in[0] = in;
    int ni = (int)n->items.n;
    p->n_items = ni;
    p->items = alloc(s, (size_t)ni * sizeof *p->items);
    p->schema.n = ni;
    p->schema.cols = alloc(s, (size_t)ni * sizeof *p->schema.cols);
    if (!p->items || !p->schema.cols) return NULL;
    for (int i = 0; i < ni; i++) {
        const AstNode *it = n->items.items[i];
        Expr *e = sema_expr(s, it->a, &in->schema);
        if (!e) return NULL;
        p->items[i] = e;
        ColInfo *ci = &p->schema.cols[i];
        ci->type = e->type;
        if (it->name) {
            ci->name = it->name;
            ci->qual = e->kind == EX_COL ? in->schema.cols[e->col].qual : NULL;
        } else if (e->kind == EX_COL) {
            ci->name = it->a->name;
            ci->qual = in->schema.cols[e->col].qual;
        } else {
            ci->name = expr_text(s, it->a->span);
        }
        ci->base = ci->name;
        for (int j = 0; j < i; j++)
            if (strcmp(p->schema.cols[j].name, ci->name) == 0) {
                rx_error(s->err, RX_ENAME, s->src, it->span,
                         "two columns of this π are named '%s': rename one with '→ name'",
                         ci->name);
                return NULL;
            }
    }
    return p;
}

/* ρ a → b (R): every renamed column exists and the new names are unique; NULL with the error. */
static LPlan *sema_rename_cols(Sema *s, const AstNode *n) {
    LPlan *in = sema_rel(s, n->b);
    if (!in) return NULL;
    LPlan *p = new_plan(s, LP_RENAME, n->span);
    if (!p) return NULL;
    p->in[0] = in;
    if (schema_copy(s, &in->schema, &p->schema) < 0) return NULL;
    for (size_t k = 0; k < n->items.n; k++) {
        const AstNode *it = n->items.items[k];
        int i = lookup_col(s, &in->schema, it->a);
        if (i == -2) return NULL;
        if (i < 0) {
            unknown_column(s, &in->schema, it->a, "");
            return NULL;
        }
        p->schema.cols[i].name = it->name;
        p->schema.cols[i].base = it->name;
    }
    for (int i = 0; i < p->schema.n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(p->schema.cols[i].name, p->schema.cols[j].name) == 0) {
                rx_error(s->err, RX_ENAME, s->src, n->span,
                         "after this ρ two columns are named '%s'", p->schema.cols[i].name);
                return NULL;
            }
    return p;
}

/* ---- joins, set operations, sorting, grouping ----------------------------------------------- */

/* Splits a join condition into equality keys between plain columns of the two sides (for the
 * hash join) and a residual over the joined row. */
static int split_join_condition(Sema *s, LPlan *p, Expr *cond, int nl, Expr **residual) {
    if (cond->kind == EX_BINARY && cond->op == OP_AND) {
        Expr *ra = NULL, *rb = NULL;
        if (split_join_condition(s, p, cond->args[0], nl, &ra) < 0) return -1;
        if (split_join_condition(s, p, cond->args[1], nl, &rb) < 0) return -1;
        if (ra && rb) *residual = make_binary(s, OP_AND, TY_BOOL, cond->span, ra, rb);
        else *residual = ra ? ra : rb;
        return 0;
    }
    if (cond->kind == EX_BINARY && cond->op == OP_EQ && cond->args[0]->kind == EX_COL &&
        cond->args[1]->kind == EX_COL) {
        int a = cond->args[0]->col, b = cond->args[1]->col;
        if ((a < nl) != (b < nl)) {
            if (a >= nl) {
                int t = a;
                a = b;
                b = t;
            }
            p->lkeys[p->n_keys] = a;
            p->rkeys[p->n_keys] = b - nl;
            p->n_keys++;
            *residual = NULL;
            return 0;
        }
    }
    *residual = cond;
    return 0;
}

/* The number of conjuncts of e (1 when it is no ∧). */
static int count_conjuncts(const Expr *e) {
    if (e->kind == EX_BINARY && e->op == OP_AND) return count_conjuncts(e->args[0]) + count_conjuncts(e->args[1]);
    return 1;
}

/* The joins (⨝ and its outer, semi and anti forms, ×): the condition typed BOOL over both
 * sides, equality keys found; NULL with the error. */
static LPlan *sema_join(Sema *s, const AstNode *n) {
    LPlan *l = sema_rel(s, n->a);
    if (!l) return NULL;
    LPlan *r = sema_rel(s, n->b);
    if (!r) return NULL;
    LPlan *p = new_plan(s, LP_JOIN, n->span);
    if (!p) return NULL;
    p->in[0] = l;
    p->in[1] = r;
    p->join_kind = n->join_kind;
    Schema joined;
    if (schema_join(s, &l->schema, &r->schema, &joined) < 0) return NULL;
    int nl = l->schema.n;
    if (n->cond) {
        Expr *cond = sema_expr(s, n->cond, &joined);
        if (!cond) return NULL;
        if (cond->type != TY_BOOL && cond->type != TY_NULL) {
            rx_error(s->err, RX_ETYPE, s->src, n->cond->span, "a join condition must be BOOL, found %s",
                     type_name(cond->type));
            return NULL;
        }
        int k = count_conjuncts(cond);
        p->lkeys = alloc(s, (size_t)k * sizeof(int));
        p->rkeys = alloc(s, (size_t)k * sizeof(int));
        if (!p->lkeys || !p->rkeys) return NULL;
        if (split_join_condition(s, p, cond, nl, &p->residual) < 0) return NULL;
    } else if (n->join_kind != JOIN_CROSS) {
        /* natural join: equal display names are the keys; the right copies are not output */
        p->lkeys = alloc(s, (size_t)(r->schema.n + 1) * sizeof(int));
        p->rkeys = alloc(s, (size_t)(r->schema.n + 1) * sizeof(int));
        p->right_out = alloc(s, (size_t)(r->schema.n + 1) * sizeof(int));
        if (!p->lkeys || !p->rkeys || !p->right_out) return NULL;
        int k = 0;
        for (int j = 0; j < r->schema.n; j++) {
            int hit = -1;
            for (int i = 0; i < nl; i++)
                if (strcmp(l->schema.cols[i].name, r->schema.cols[j].name) == 0) hit = i;
            if (hit < 0) {
                p->right_out[k++] = j;
                continue;
            }
            RxType a = l->schema.cols[hit].type, b = r->schema.cols[j].type;
            if (!comparable(a, b) || a == TY_NULL) {
                rx_error(s->err, RX_ETYPE, s->src, n->span,
                         "the natural join compares the columns named '%s', but they are %s and %s",
                         r->schema.cols[j].name, type_name(a), type_name(b));
                return NULL;
            }
            p->lkeys[p->n_keys] = hit;
            p->rkeys[p->n_keys] = j;
            p->n_keys++;
        }
        p->right_out[k] = -1; /* with no common names this is a cross product */
    }
    switch (n->join_kind) {
    case JOIN_SEMI: case JOIN_ANTI:
        if (schema_copy(s, &l->schema, &p->schema) < 0) return NULL;
        break;
    case JOIN_RSEMI:
        if (schema_copy(s, &r->schema, &p->schema) < 0) return NULL;
        break;
    default:
        if (p->right_out) {
            /* natural join: left columns, then the right ones that are not keys */
            int k = 0;
            while (p->right_out[k] >= 0) k++;
            Schema rs = {.n = k, .cols = alloc(s, (size_t)(k + 1) * sizeof(ColInfo))};
            if (!rs.cols) return NULL;
            for (int i = 0; i < k; i++) rs.cols[i] = r->schema.cols[p->right_out[i]];
            if (schema_join(s, &l->schema, &rs, &p->schema) < 0) return NULL;
        } else {
            p->schema = joined;
        }
        break;
    }
    return p;
}

/* ∪ ∩ −: both sides of one arity with column types that fit; NULL with the error. */
static LPlan *sema_setop(Sema *s, const AstNode *n) {
    LPlan *l = sema_rel(s, n->a);
    if (!l) return NULL;
    LPlan *r = sema_rel(s, n->b);
    if (!r) return NULL;
    static const char *const names[] = {"∪", "∩", "−"};
    if (l->schema.n != r->schema.n) {
        rx_error(s->err, RX_ETYPE, s->src, n->span,
                 "%s needs inputs with the same number of columns: %d and %d", names[n->set_op],
                 l->schema.n, r->schema.n);
        return NULL;
    }
    LPlan *p = new_plan(s, LP_SETOP, n->span);
    if (!p) return NULL;
    p->in[0] = l;
    p->in[1] = r;
    p->set_op = n->set_op;
    if (schema_copy(s, &l->schema, &p->schema) < 0) return NULL;
    for (int i = 0; i < l->schema.n; i++) {
        RxType a = l->schema.cols[i].type, b = r->schema.cols[i].type;
        if (a == b || b == TY_NULL) continue;
        if (a == TY_NULL) {
            p->schema.cols[i].type = b;
            continue;
        }
        if (type_is_numeric(a) && type_is_numeric(b)) {
            p->schema.cols[i].type = TY_FLOAT;
            continue;
        }
        rx_error(s->err, RX_ETYPE, s->src, n->span,
                 "column %d of %s is %s on the left ('%s') but %s on the right ('%s')", i + 1,
                 names[n->set_op], type_name(a), l->schema.cols[i].name, type_name(b),
                 r->schema.cols[i].name);
        return NULL;
    }
    return p;
}

/* Whether τ and TOP can order by a value of type t. */
static bool orderable(RxType t) { return t != TY_NULL; }

/* The sort keys of τ or TOP over sc, into *out (the arena); -1 with the error. */
static int sema_sort_keys(Sema *s, const PtrVec *items, const Schema *sc, SortKey **out, int *n_out) {
    int n = (int)items->n;
    *out = alloc(s, (size_t)(n ? n : 1) * sizeof **out);
    if (!*out) return -1;
    for (int i = 0; i < n; i++) {
        const AstNode *it = items->items[i];
        Expr *e = sema_expr(s, it->a, sc);
        if (!e) return -1;
        if (!orderable(e->type) && e->kind != EX_CONST) {
            rx_error(s->err, RX_ETYPE, s->src, it->span, "cannot sort by a %s", type_name(e->type));
            return -1;
        }
        (*out)[i].e = e;
        (*out)[i].desc = it->desc;
        (*out)[i].nulls_first = it->nulls == 1 || (it->nulls == 0 && it->desc);
    }
    *n_out = n;
    return 0;
}

/* τ and TOP n [PER keys]: keys orderable, the count a non-negative integer; NULL with the error. */
static LPlan *sema_sort_top(Sema *s, const AstNode *n) {
    LPlan *in = sema_rel(s, n->b);
    if (!in) return NULL;
    LPlan *p = new_plan(s, n->kind == AST_SORT ? LP_SORT : LP_TOP, n->span);
    if (!p) return NULL;
    p->in[0] = in;
    if (schema_copy(s, &in->schema, &p->schema) < 0) return NULL;
    const PtrVec *keys = n->kind == AST_SORT ? &n->items : &n->items2;
    if (sema_sort_keys(s, keys, &in->schema, &p->sort, &p->n_sort) < 0) return NULL;
    if (n->kind == AST_TOP) {
        if (n->ival < 0) {
            rx_error(s->err, RX_EVALUE, s->src, n->span, "TOP takes a row count of 0 or more");
            return NULL;
        }
        p->top_n = n->ival;
        p->n_group = (int)n->items.n;
        p->group = alloc(s, (size_t)(p->n_group ? p->n_group : 1) * sizeof *p->group);
        if (!p->group) return NULL;
        for (int i = 0; i < p->n_group; i++) {
            p->group[i] = sema_expr(s, n->items.items[i], &in->schema);
            if (!p->group[i]) return NULL;
        }
    }
    return p;
}

/* The constant bound of a RANGE frame over an order key of type ot into w; -1 with the error. */
static int window_range(Sema *s, const AstNode *it, RxType ot, WinSpec *w, const Schema *sc) {
    Expr *b = sema_expr(s, it->within, sc);
    if (!b) return -1;
    if (b->kind != EX_CONST || b->value.null) {
        return rx_error(s->err, RX_ETYPE, s->src, b->span,
                        "the frame of OVER … PRECEDING is a constant of zero or more (DURATION "
                        "'PT5M', or a number for a numeric order)");
    }
    if (ot == TY_TIMESTAMP || ot == TY_DATE) {
        if (b->type != TY_DURATION)
            return rx_error(s->err, RX_ETYPE, s->src, b->span,
                            "the order is of type %s: its frame is a DURATION (OVER DURATION "
                            "'PT5M' PRECEDING), found %s", type_name(ot), type_name(b->type));
        RxDuration d = b->value.v.d;
        if (d.months != 0 || d.us < 0)
            return rx_error(s->err, RX_EVALUE, s->src, b->span,
                            "a frame is a fixed length of zero or more (weeks, days, hours …), "
                            "not months or a negative length");
        w->range = d.us;
        return 0;
    }
    if (ot == TY_INT || ot == TY_FLOAT) {
        double f = b->type == TY_INT ? (double)b->value.v.i : b->type == TY_FLOAT ? b->value.v.f : -1;
        if ((b->type != TY_INT && b->type != TY_FLOAT) || (ot == TY_INT && b->type != TY_INT))
            return rx_error(s->err, RX_ETYPE, s->src, b->span,
                            "the order is of type %s: its frame is %s, found %s", type_name(ot),
                            ot == TY_INT ? "an INT" : "a number", type_name(b->type));
        if (!(f >= 0))
            return rx_error(s->err, RX_EVALUE, s->src, b->span, "a frame reaches back zero or more");
        w->range = b->type == TY_INT ? b->value.v.i : 0;
        w->range_f = f;
        return 0;
    }
    return rx_error(s->err, RX_ETYPE, s->src, it->within->span,
                    "a frame of values needs an order by a TIMESTAMP, DATE, INT or FLOAT, not %s",
                    type_name(ot));
}

/* ω [PER keys] BY order; items (R): the functions typed, their frames checked against the
 * order; NULL with the error. */
static LPlan *sema_window(Sema *s, const AstNode *n) {
    LPlan *in = sema_rel(s, n->b);
    if (!in) return NULL;
    LPlan *p = new_plan(s, LP_WINDOW, n->span);
    if (!p) return NULL;
    p->in[0] = in;
    int nk = (int)n->items.n, nw = (int)n->items2.n, nin = in->schema.n;
    p->n_group = nk;
    p->group = alloc(s, (size_t)(nk + 1) * sizeof *p->group);
    p->wins = alloc(s, (size_t)(nw + 1) * sizeof *p->wins);
    p->n_wins = nw;
    p->schema.n = nin + nw;
    p->schema.cols = alloc(s, (size_t)(nin + nw + 1) * sizeof *p->schema.cols);
    if (!p->group || !p->wins || !p->schema.cols) return NULL;
    memcpy(p->schema.cols, in->schema.cols, (size_t)nin * sizeof *p->schema.cols);
    for (int i = 0; i < nk; i++)
        if (!(p->group[i] = sema_expr(s, n->items.items[i], &in->schema))) return NULL;
    if (sema_sort_keys(s, &n->sort, &in->schema, &p->sort, &p->n_sort) < 0) return NULL;
    for (int i = 0; i < nw; i++) {
        const AstNode *it = n->items2.items[i];
        const AstNode *c = it->a;
        WinSpec *w = &p->wins[i];
        if (c->kind != AST_CALL || lang_window_from_name(c->name, strlen(c->name), &w->fn) < 0) {
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "after the ';' of ω come window functions (row_number, rank, dense_rank, "
                     "lag, lead, first_value, last_value, count, sum, avg, min, max)");
            return NULL;
        }
        const char *name = lang_window_name(w->fn);
        int na = (int)c->items.n, lo = 1, hi = 1;
        bool framed = w->fn >= WIN_FIRST_VALUE;
        switch (w->fn) {
        case WIN_ROW_NUMBER: case WIN_RANK: case WIN_DENSE_RANK: lo = hi = 0; break;
        case WIN_LAG: case WIN_LEAD: hi = 3; break;
        default: break;
        }
        if (c->star) {
            if (w->fn != WIN_COUNT) {
                rx_error(s->err, RX_ETYPE, s->src, c->span, "only count takes *");
                return NULL;
            }
            w->star = true;
            lo = hi = 0;
        }
        if (c->distinct) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "DISTINCT is not supported in a window function");
            return NULL;
        }
        if (na < lo || na > hi) {
            if (lo == hi)
                rx_error(s->err, RX_ETYPE, s->src, c->span, "%s takes %d argument%s, given %d", name,
                         lo, lo == 1 ? "" : "s", na);
            else
                rx_error(s->err, RX_ETYPE, s->src, c->span, "%s takes %d to %d arguments, given %d",
                         name, lo, hi, na);
            return NULL;
        }
        if (it->frame && !framed) {
            rx_error(s->err, RX_ETYPE, s->src, it->span,
                     "%s has no frame: OVER … PRECEDING goes with first_value, last_value, count, "
                     "sum, avg, min and max", name);
            return NULL;
        }
        for (int k = 0; k < na; k++) {
            const AstNode *argn = c->items.items[k];
            if (argn->kind == AST_CALL && (agg_index(argn->name) >= 0 ||
                lang_window_from_name(argn->name, strlen(argn->name), &(WinFn){0}) == 0)) {
                rx_error(s->err, RX_ETYPE, s->src, argn->span, "window functions do not nest");
                return NULL;
            }
        }
        if (na >= 1 && !(w->arg = sema_expr(s, c->items.items[0], &in->schema))) return NULL;
        RxType at = w->arg ? w->arg->type : TY_INT;
        switch (w->fn) {
        case WIN_ROW_NUMBER: case WIN_RANK: case WIN_DENSE_RANK: case WIN_COUNT:
            w->type = TY_INT;
            break;
        case WIN_LAG: case WIN_LEAD: {
            w->offset = 1;
            if (na >= 2) {
                Expr *o = sema_expr(s, c->items.items[1], &in->schema);
                if (!o) return NULL;
                if (o->kind != EX_CONST || o->type != TY_INT || o->value.v.i < 0) {
                    rx_error(s->err, RX_ETYPE, s->src, o->span,
                             "the offset of %s is a constant INT of 0 or more", name);
                    return NULL;
                }
                w->offset = o->value.v.i;
            }
            if (na == 3) {
                if (!(w->def = sema_expr(s, c->items.items[2], &in->schema))) return NULL;
                RxType dt = w->def->type;
                if (dt != TY_NULL && at != TY_NULL && dt != at && !(at == TY_FLOAT && dt == TY_INT)) {
                    rx_error(s->err, RX_ETYPE, s->src, w->def->span,
                             "the default of %s must be of type %s like its value, found %s", name,
                             type_name(at), type_name(dt));
                    return NULL;
                }
                if (at == TY_NULL) at = dt;
            }
            w->type = at;
            break;
        }
        case WIN_SUM: case WIN_AVG:
            if (!type_is_numeric(at) && at != TY_DURATION && at != TY_NULL) {
                rx_error(s->err, RX_ETYPE, s->src, c->span, "%s needs numbers or DURATIONs, found %s",
                         name, type_name(at));
                return NULL;
            }
            w->type = w->fn == WIN_SUM ? (at == TY_NULL ? TY_INT : at) : at == TY_DURATION ? TY_DURATION : TY_FLOAT;
            break;
        default:
            w->type = at;
            break;
        }
        w->frame = it->frame == 1 ? WF_ROWS : it->frame == 2 ? WF_RANGE : WF_RUNNING;
        if (w->frame == WF_ROWS) {
            if (it->ival < 0) {
                rx_error(s->err, RX_EVALUE, s->src, it->span, "a frame counts 0 rows or more");
                return NULL;
            }
            w->rows = it->ival;
        }
        if (w->frame == WF_RANGE) {
            if (p->n_sort != 1 || p->sort[0].desc) {
                rx_error(s->err, RX_ETYPE, s->src, it->within->span,
                         "a frame of values (OVER … PRECEDING) needs one ascending order key "
                         "(ω … BY ts; …), found %s", p->n_sort != 1 ? "several" : "DESC");
                return NULL;
            }
            if (window_range(s, it, p->sort[0].e->type, w, &in->schema) < 0) return NULL;
        }
        ColInfo *ci = &p->schema.cols[nin + i];
        ci->type = w->type;
        ci->name = it->name;
        ci->base = it->name;
        ci->qual = NULL;
        for (int k = 0; k < nin + i; k++)
            if (strcmp(p->schema.cols[k].name, it->name) == 0) {
                rx_error(s->err, RX_ENAME, s->src, it->name_span,
                         "the column name '%s' is taken: ω adds columns to its operand's", it->name);
                return NULL;
            }
    }
    return p;
}

/* FILL ts EVERY width [PER keys] [USING col => rule, …] (R): ts a TIMESTAMP column, the width a
 * constant fixed length, the keys and filled columns R's columns; a linear column is a number
 * (INT becomes FLOAT). NULL with the error. */
static LPlan *sema_fill(Sema *s, const AstNode *n) {
    LPlan *in = sema_rel(s, n->b);
    if (!in) return NULL;
    LPlan *p = new_plan(s, LP_FILL, n->span);
    if (!p) return NULL;
    p->in[0] = in;
    if (schema_copy(s, &in->schema, &p->schema) < 0) return NULL;
    int nin = in->schema.n, nk = (int)n->items.n;
    Expr *ts = sema_expr(s, n->a, &in->schema);
    if (!ts) return NULL;
    if (ts->kind != EX_COL || ts->type != TY_TIMESTAMP) {
        rx_error(s->err, RX_ETYPE, s->src, ts->span,
                 "FILL buckets a TIMESTAMP column of its operand, found %s",
                 ts->kind != EX_COL ? "an expression (compute it with π first)" : type_name(ts->type));
        return NULL;
    }
    p->fill_col = ts->col;
    Expr *w = sema_expr(s, n->within, &in->schema);
    if (!w) return NULL;
    if (w->kind != EX_CONST || w->type != TY_DURATION || w->value.null || w->value.v.d.months != 0 ||
        w->value.v.d.us <= 0) {
        rx_error(s->err, RX_ETYPE, s->src, w->span,
                 "EVERY takes a constant fixed length greater than zero (DURATION 'PT1M', 'P1D'; "
                 "not months)");
        return NULL;
    }
    p->has_within = true;
    p->within = w->value.v.d;
    if (n->sort.n == 2) {
        Expr *f = sema_expr(s, n->sort.items[0], &in->schema);
        Expr *t = f ? sema_expr(s, n->sort.items[1], &in->schema) : NULL;
        if (!f || !t) return NULL;
        Expr *bad = f->kind != EX_CONST || f->type != TY_TIMESTAMP || f->value.null ? f
                  : t->kind != EX_CONST || t->type != TY_TIMESTAMP || t->value.null ? t : NULL;
        if (bad) {
            rx_error(s->err, RX_ETYPE, s->src, bad->span, "FROM and TO take constant TIMESTAMPs, found %s",
                     bad->kind != EX_CONST ? "an expression" : type_name(bad->type));
            return NULL;
        }
        p->fill_range = true;
        p->fill_from = f->value.v.i;
        p->fill_to = t->value.v.i;
    }
    p->n_group = nk;
    p->group = alloc(s, (size_t)(nk + 1) * sizeof *p->group);
    p->fill_rule = alloc(s, (size_t)(nin + 1));
    if (!p->group || !p->fill_rule) return NULL;
    memset(p->fill_rule, FILL_NULL, (size_t)nin);
    for (int i = 0; i < nk; i++) {
        Expr *k = sema_expr(s, n->items.items[i], &in->schema);
        if (!k) return NULL;
        if (k->kind != EX_COL || k->col == p->fill_col) {
            rx_error(s->err, RX_ETYPE, s->src, k->span,
                     "PER takes columns of FILL's operand other than the time column");
            return NULL;
        }
        p->group[i] = k;
    }
    for (size_t i = 0; i < n->items2.n; i++) {
        const AstNode *it = n->items2.items[i];
        Expr *c = sema_expr(s, it->a, &in->schema);
        if (!c) return NULL;
        bool key = c->kind == EX_COL && c->col == p->fill_col;
        for (int k = 0; k < nk && c->kind == EX_COL; k++) key |= p->group[k]->col == c->col;
        if (c->kind != EX_COL || key) {
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "USING names a column of FILL's operand that is neither the time nor a key");
            return NULL;
        }
        int rule;
        if (strcasecmp(it->name, "null") == 0) rule = FILL_NULL;
        else if (strcasecmp(it->name, "previous") == 0) rule = FILL_PREVIOUS;
        else if (strcasecmp(it->name, "linear") == 0) rule = FILL_LINEAR;
        else {
            rx_error(s->err, RX_EVALUE, s->src, it->name_span,
                     "unknown fill rule '%s' (NULL, previous or linear)", it->name);
            return NULL;
        }
        if (rule == FILL_LINEAR && c->type != TY_INT && c->type != TY_FLOAT) {
            rx_error(s->err, RX_ETYPE, s->src, it->span,
                     "linear fills numbers (INT or FLOAT), and %s is %s",
                     in->schema.cols[c->col].name, type_name(c->type));
            return NULL;
        }
        p->fill_rule[c->col] = (uint8_t)rule;
        if (rule == FILL_LINEAR) p->schema.cols[c->col].type = TY_FLOAT;
    }
    return p;
}

/* One aggregate item of PACK's WITH list (any aggregate γ takes, over an expression of sc)
 * into *ag, its output column into *ci; op names the operator for the message when the item is
 * not an aggregate. -1 with the error. */
static int sema_agg(Sema *s, const AstNode *it, const Schema *sc, const char *op, AggSpec *ag, ColInfo *ci) {
    const AstNode *c = it->a;
    if (c->kind != AST_CALL || agg_index(c->name) < 0)
        return rx_error(s->err, RX_ETYPE, s->src, c->span,
                        "after WITH of %s come aggregates (count, sum, avg, min, max, first, last, …)", op);
    GroupCtx g = {.in = sc};
    int k = group_aggregate(s, &g, c);
    if (k < 0) return -1;
    *ag = g.aggs[k];
    ci->type = ag->type;
    ci->name = it->name ? it->name : expr_text(s, c->span);
    ci->base = ci->name;
    ci->qual = NULL;
    return 0;
}

/* ---- the window join ------------------------------------------------------------------------- */

/* One end of a WJOIN window, bound, over the left input: a left column c alone, c + k or c - k
 * for a constant k (a DURATION of fixed length for a TIMESTAMP or DATE column, whole days for a
 * DATE, an INT for an INT). *col = the column, *off = the signed offset in the column's unit.
 * -1 with the error. */
static int wjoin_bound(Sema *s, const AstNode *bound, const Schema *l, const Schema *r, int *col, int64_t *off) {
    const AstNode *ref = bound, *k = NULL;
    bool minus = false;
    if (bound->kind == AST_BINARY && (bound->op == OP_ADD || bound->op == OP_SUB)) {
        ref = bound->a;
        k = bound->b;
        minus = bound->op == OP_SUB;
    }
    if (ref->kind != AST_COLREF)
        return rx_error(s->err, RX_ETYPE, s->src, bound->span,
                        "a WJOIN window's end is a left column, plus or minus a constant: "
                        "R.t BETWEEN L.t - DURATION 'PT1M' AND L.t");
    int side = asof_side(s, ref, l, r, col);
    if (side < 0) return -1;
    if (side != 0)
        return rx_error(s->err, RX_ETYPE, s->src, ref->span,
                        "a WJOIN window's end is measured from a column of the left input; this "
                        "one is of the right input");
    RxType t = l->cols[*col].type;
    if (t != TY_TIMESTAMP && t != TY_DATE && t != TY_INT)
        return rx_error(s->err, RX_ETYPE, s->src, ref->span,
                        "a WJOIN window needs a TIMESTAMP, DATE or INT time, but %s is %s",
                        sema_col_label(s->a, &l->cols[*col]), type_name(t));
    *off = 0;
    if (!k) return 0;
    Schema none = {0, NULL};
    Expr *e = sema_expr(s, k, &none);
    if (!e) return -1;
    if (e->kind != EX_CONST || e->value.null)
        return rx_error(s->err, RX_ETYPE, s->src, k->span,
                        "a WJOIN window's width is a constant (DURATION 'PT5M', or an INT for an "
                        "INT column)");
    if (t == TY_TIMESTAMP || t == TY_DATE) {
        if (e->type != TY_DURATION)
            return rx_error(s->err, RX_ETYPE, s->src, k->span,
                            "%s is %s: its window is measured in a DURATION (DURATION 'PT5M'), "
                            "found %s", sema_col_label(s->a, &l->cols[*col]), type_name(t), type_name(e->type));
        RxDuration d = e->value.v.d;
        if (d.months != 0)
            return rx_error(s->err, RX_EVALUE, s->src, k->span,
                            "a WJOIN window needs an exact length, but this one has calendar units "
                            "(months or years, whose length varies); write days or hours instead");
        int64_t day = INT64_C(86400000000);
        if (t == TY_DATE && d.us % day != 0)
            return rx_error(s->err, RX_EVALUE, s->src, k->span,
                            "%s is a DATE: its window is whole days, not a part of one",
                            sema_col_label(s->a, &l->cols[*col]));
        *off = t == TY_DATE ? d.us / day : d.us;
    } else {
        if (e->type != TY_INT)
            return rx_error(s->err, RX_ETYPE, s->src, k->span,
                            "%s is INT: its window is an INT, found %s",
                            sema_col_label(s->a, &l->cols[*col]), type_name(e->type));
        *off = e->value.v.i;
    }
    if (*off == INT64_MIN)
        return rx_error(s->err, RX_EVALUE, s->src, k->span, "this window width is out of range");
    if (minus) *off = -*off;
    return 0;
}

/* L WJOIN [PREVAILING] keys ∧ R.t BETWEEN L.t - a AND L.t + b WITH aggregates R: the keys,
 * the window and the aggregates checked; NULL with the error. */
static LPlan *sema_wjoin(Sema *s, const AstNode *n) {
    LPlan *l = sema_rel(s, n->a);
    if (!l) return NULL;
    LPlan *r = sema_rel(s, n->b);
    if (!r) return NULL;
    LPlan *p = new_plan(s, LP_WJOIN, n->span);
    if (!p) return NULL;
    p->in[0] = l;
    p->in[1] = r;
    p->prevailing = n->prevailing;
    PtrVec conj = {0};
    if (flatten_and(s, n->cond, &conj, "a WJOIN") < 0) return NULL;
    p->lkeys = alloc(s, (conj.n + 1) * sizeof(int));
    p->rkeys = alloc(s, (conj.n + 1) * sizeof(int));
    if (!p->lkeys || !p->rkeys) return NULL;
    const AstNode *win = NULL;
    static const char form[] = "a WJOIN condition is a conjunction of = keys and one window, "
                               "R.t BETWEEN L.t - DURATION 'PT1M' AND L.t";
    for (size_t i = 0; i < conj.n; i++) {
        const AstNode *c = conj.items[i];
        if (c->kind == AST_BETWEEN) {
            if (win) {
                uint32_t line, col;
                rx_source_position(s->src, win->span.start, &line, &col);
                rx_error(s->err, RX_ETYPE, s->src, c->span,
                         "a WJOIN condition has exactly one window (BETWEEN); this is a second "
                         "one (the first is at %u:%u)", line, col);
                return NULL;
            }
            if (c->negated) {
                rx_error(s->err, RX_ETYPE, s->src, c->span, "a WJOIN window cannot be NOT BETWEEN; %s", form);
                return NULL;
            }
            win = c;
            int rc;
            int side = asof_side(s, c->a, &l->schema, &r->schema, &rc);
            if (side < 0) return NULL;
            if (side != 1) {
                rx_error(s->err, RX_ETYPE, s->src, c->a->span,
                         "the column before BETWEEN is the right input's time; this one is of the "
                         "left input (%s)", form);
                return NULL;
            }
            int lc[2];
            int64_t off[2];
            for (int k = 0; k < 2; k++)
                if (wjoin_bound(s, c->items.items[k], &l->schema, &r->schema, &lc[k], &off[k]) < 0) return NULL;
            if (lc[0] != lc[1]) {
                rx_error(s->err, RX_ETYPE, s->src, c->span,
                         "both ends of a WJOIN window are measured from one left column; these "
                         "name %s and %s", sema_col_label(s->a, &l->schema.cols[lc[0]]),
                         sema_col_label(s->a, &l->schema.cols[lc[1]]));
                return NULL;
            }
            RxType lt = l->schema.cols[lc[0]].type, rt = r->schema.cols[rc].type;
            if (rt != lt) {
                rx_error(s->err, RX_ETYPE, s->src, c->a->span,
                         "the window is over %s %s but %s is %s; both times need one type%s",
                         type_name(lt), sema_col_label(s->a, &l->schema.cols[lc[0]]),
                         sema_col_label(s->a, &r->schema.cols[rc]), type_name(rt), conversion_hint(s, rt, lt));
                return NULL;
            }
            if (off[0] > off[1]) {
                rx_error(s->err, RX_EVALUE, s->src, c->span,
                         "this window is empty: its start lies after its end (BETWEEN takes the "
                         "earlier end first)");
                return NULL;
            }
            p->lmatch = lc[0];
            p->rmatch = rc;
            p->wj_lo = off[0];
            p->wj_hi = off[1];
            continue;
        }
        if (c->kind != AST_BINARY || c->op != OP_EQ) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "%s; this is neither", form);
            return NULL;
        }
        int ca, cb;
        int sa = asof_side(s, c->a, &l->schema, &r->schema, &ca);
        if (sa < 0) return NULL;
        int sb = asof_side(s, c->b, &l->schema, &r->schema, &cb);
        if (sb < 0) return NULL;
        if (sa == sb) {
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "this comparison does not relate the two inputs: both columns are from the "
                     "%s input (filter one input with σ instead)", sa == 0 ? "left" : "right");
            return NULL;
        }
        if (sa == 1) {
            int t = ca;
            ca = cb;
            cb = t;
        }
        RxType lt = l->schema.cols[ca].type, rt = r->schema.cols[cb].type;
        if (type_order_family(lt) != type_order_family(rt) || type_order_family(lt) == 0) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "cannot compare %s with %s%s",
                     type_name(lt), type_name(rt), conversion_hint(s, lt, rt));
            return NULL;
        }
        p->lkeys[p->n_keys] = ca;
        p->rkeys[p->n_keys] = cb;
        p->n_keys++;
    }
    if (!win) {
        rx_error(s->err, RX_ETYPE, s->src, n->cond->span, "%s; found no window", form);
        return NULL;
    }
    int nl = l->schema.n, na = (int)n->items2.n;
    p->n_aggs = na;
    p->aggs = alloc(s, (size_t)(na + 1) * sizeof *p->aggs);
    p->schema.n = nl + na;
    p->schema.cols = alloc(s, (size_t)(nl + na + 1) * sizeof *p->schema.cols);
    if (!p->aggs || !p->schema.cols) return NULL;
    for (int i = 0; i < nl; i++) p->schema.cols[i] = l->schema.cols[i];
    for (int i = 0; i < na; i++) {
        const AstNode *it = n->items2.items[i];
        if (sema_agg(s, it, &r->schema, "WJOIN", &p->aggs[i], &p->schema.cols[nl + i]) < 0) return NULL;
        const AggSpec *ag = &p->aggs[i];
        bool ok = !ag->distinct;
        switch (ag->fn) {
        case AGG_COUNT_STAR: case AGG_COUNT: case AGG_MIN: case AGG_MAX: case AGG_FIRST: case AGG_LAST: break;
        case AGG_SUM: case AGG_AVG: ok &= ag->arg->type == TY_INT || ag->arg->type == TY_FLOAT; break;
        default: ok = false; break;
        }
        if (!ok) {
            rx_error(s->err, RX_ETYPE, s->src, it->a->span,
                     "WJOIN computes count(*), count, min, max, first and last of any column and "
                     "sum and avg of INT or FLOAT over each window; not this aggregate");
            return NULL;
        }
        if (ag->fn == AGG_MIN || ag->fn == AGG_MAX) {
            int fam = type_order_family(ag->arg->type);
            if (fam == 0 && ag->arg->type != TY_NULL) {
                rx_error(s->err, RX_ETYPE, s->src, it->a->span, "%s has no order for min or max",
                         type_name(ag->arg->type));
                return NULL;
            }
        }
    }
    for (int i = nl; i < p->schema.n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(p->schema.cols[i].name, p->schema.cols[j].name) == 0) {
                const AstNode *it = n->items2.items[i - nl];
                rx_error(s->err, RX_ENAME, s->src, it->span,
                         "two columns of this WJOIN are named '%s': rename the aggregate with '→ name'",
                         p->schema.cols[i].name);
                return NULL;
            }
    return p;
}

/* ---- interval-set operators ------------------------------------------------------------------ */

static const char *iset_name(int op) {
    static const char *const names[] = {"PACK", "GAPS", "NORMALIZE", "IMINUS", "IINTERSECT"};
    return names[op];
}

/* Whether t can be an endpoint of an interval-set operator: a type whose values are points on
 * one line that the operators cut at (TEXT and DURATION are not). */
static bool iset_endpoint_type(RxType t) {
    return t == TY_INT || t == TY_FLOAT || t == TY_DATE || t == TY_TIMESTAMP || t == TY_TIME;
}

/* Checks endpoint column c of schema sc (the k-th of the operator's list) against the first
 * one's type: one of iset_endpoint_type's, and the same as first (k > 0). -1 with the error. */
static int iset_check_end(Sema *s, const AstNode *n, const AstNode *ref, const Schema *sc, int c, int k,
                          RxType first) {
    static const char *const what[2][4] = {{"start endpoint", "end endpoint", "", ""},
                                           {"left start", "left end", "right start", "right end"}};
    const char *name = what[n->a != NULL][k];
    RxType t = sc->cols[c].type;
    if (!iset_endpoint_type(t))
        return rx_error(s->err, RX_ETYPE, s->src, ref->span,
                        "the %s is %s; %s needs INT, FLOAT, DATE, TIMESTAMP or TIME endpoints",
                        name, type_name(t), iset_name(n->iset_op));
    if (k > 0 && t != first)
        return rx_error(s->err, RX_ETYPE, s->src, ref->span,
                        "the %s is %s but the %s is %s; %s needs all endpoints of "
                        "one type%s", name, type_name(t), what[n->a != NULL][0], type_name(first),
                        iset_name(n->iset_op), conversion_hint(s, t, first));
    return 0;
}

/* The unary forms: PACK (s, e) BY keys WITH aggregates, GAPS (s, e) BY keys WITHIN lo TO hi,
 * NORMALIZE (s, e) BY keys. NULL with the error. */
static LPlan *sema_iset_unary(Sema *s, const AstNode *n, LPlan *in, LPlan *p) {
    const char *op = iset_name(n->iset_op);
    for (int k = 0; k < 2; k++) {
        const AstNode *ref = n->items.items[k];
        int c = lookup_col(s, &in->schema, ref);
        if (c == -2) return NULL;
        if (c < 0) {
            unknown_column(s, &in->schema, ref, arena_printf(s->a, " in the input of %s", op));
            return NULL;
        }
        p->ends[k] = c;
        if (iset_check_end(s, n, ref, &in->schema, c, k, in->schema.cols[p->ends[0]].type) < 0) return NULL;
    }
    if (p->ends[0] == p->ends[1]) {
        rx_error(s->err, RX_ETYPE, s->src, ((const AstNode *)n->items.items[1])->span,
                 "the start and the end are the same column; %s needs two", op);
        return NULL;
    }
    int nk = (int)n->keys.n, na = (int)n->items2.n;
    p->n_group = nk;
    p->group = alloc(s, (size_t)(nk + 1) * sizeof *p->group);
    if (!p->group) return NULL;
    for (int i = 0; i < nk; i++) {
        const AstNode *ref = n->keys.items[i];
        int c = lookup_col(s, &in->schema, ref);
        if (c == -2) return NULL;
        if (c < 0) {
            unknown_column(s, &in->schema, ref, arena_printf(s->a, " in the input of %s", op));
            return NULL;
        }
        if (c == p->ends[0] || c == p->ends[1]) {
            rx_error(s->err, RX_ETYPE, s->src, ref->span, "'%s' is an endpoint of the interval; a key of %s "
                     "must be another column", ref->name, op);
            return NULL;
        }
        for (int j = 0; j < i; j++)
            if (p->group[j]->col == c) {
                rx_error(s->err, RX_ENAME, s->src, ref->span, "'%s' is already a key of this %s", ref->name, op);
                return NULL;
            }
        Expr *e = new_expr(s, EX_COL, in->schema.cols[c].type, ref->span);
        if (!e) return NULL;
        e->col = c;
        p->group[i] = e;
    }
    if (n->iset_op == ISET_NORMALIZE) {
        if (schema_copy(s, &in->schema, &p->schema) < 0) return NULL;
        return p;
    }
    p->n_aggs = na;
    p->aggs = alloc(s, (size_t)(na + 1) * sizeof *p->aggs);
    p->schema.n = nk + 2 + na;
    p->schema.cols = alloc(s, (size_t)(nk + 2 + na + 1) * sizeof *p->schema.cols);
    if (!p->aggs || !p->schema.cols) return NULL;
    for (int i = 0; i < nk; i++) p->schema.cols[i] = in->schema.cols[p->group[i]->col];
    p->schema.cols[nk] = in->schema.cols[p->ends[0]];
    p->schema.cols[nk + 1] = in->schema.cols[p->ends[1]];
    for (int i = 0; i < na; i++)
        if (sema_agg(s, n->items2.items[i], &in->schema, op, &p->aggs[i], &p->schema.cols[nk + 2 + i]) < 0)
            return NULL;
    for (int i = nk + 2; i < p->schema.n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(p->schema.cols[i].name, p->schema.cols[j].name) == 0) {
                const AstNode *it = n->items2.items[i - nk - 2];
                rx_error(s->err, RX_ENAME, s->src, it->span,
                         "two columns of this PACK are named '%s': rename the aggregate with '→ name'",
                         p->schema.cols[i].name);
                return NULL;
            }
    if (n->within) {
        RxType t = in->schema.cols[p->ends[0]].type;
        Schema none = {0, NULL};
        const AstNode *b[2] = {n->within, n->within_hi};
        Expr *e[2];
        for (int k = 0; k < 2; k++) {
            if (!(e[k] = sema_expr(s, b[k], &none))) return NULL;
            if (e[k]->type == TY_NULL || (e[k]->kind == EX_CONST && e[k]->value.null)) {
                rx_error(s->err, RX_ETYPE, s->src, b[k]->span, "a bound of WITHIN cannot be NULL");
                return NULL;
            }
            if (e[k]->type != t && !(t == TY_FLOAT && e[k]->type == TY_INT)) {
                rx_error(s->err, RX_ETYPE, s->src, b[k]->span,
                         "the %s bound of WITHIN is %s but the endpoints are %s%s", k ? "upper" : "lower",
                         type_name(e[k]->type), type_name(t), conversion_hint(s, e[k]->type, t));
                return NULL;
            }
        }
        p->has_range = true;
        p->range_lo = e[0];
        p->range_hi = e[1];
    }
    return p;
}

/* The binary forms: L IMINUS / IINTERSECT / NORMALIZE (ls, le, rs, re) [ON equalities] R.
 * NULL with the error. */
static LPlan *sema_iset_binary(Sema *s, const AstNode *n, LPlan *l, LPlan *r, LPlan *p) {
    static const char *const what[4] = {"left start", "left end", "right start", "right end"};
    const char *op = iset_name(n->iset_op);
    for (int k = 0; k < 4; k++) {
        const AstNode *ref = n->items.items[k];
        bool left = k < 2;
        const Schema *sc = left ? &l->schema : &r->schema;
        int c = side_column(s, ref, sc, left ? &r->schema : &l->schema, what[k], left ? "left" : "right");
        if (c < 0) return NULL;
        p->ends[k] = c;
        if (iset_check_end(s, n, ref, sc, c, k, l->schema.cols[p->ends[0]].type) < 0) return NULL;
    }
    for (int side = 0; side < 2; side++)
        if (p->ends[2 * side] == p->ends[2 * side + 1]) {
            rx_error(s->err, RX_ETYPE, s->src, ((const AstNode *)n->items.items[2 * side + 1])->span,
                     "the %s start and end are the same column; %s needs two", side ? "right" : "left", op);
            return NULL;
        }
    PtrVec conj = {0};
    if (n->cond) {
        PtrVec todo = {0};
        ptrvec_push(s->a, &todo, n->cond);
        while (todo.n) {
            const AstNode *c = todo.items[--todo.n];
            if (c->kind == AST_BINARY && c->op == OP_AND) {
                ptrvec_push(s->a, &todo, c->b);
                ptrvec_push(s->a, &todo, c->a);
            } else {
                ptrvec_push(s->a, &conj, (void *)c);
            }
        }
    }
    p->lkeys = alloc(s, (conj.n + 1) * sizeof(int));
    p->rkeys = alloc(s, (conj.n + 1) * sizeof(int));
    if (!p->lkeys || !p->rkeys) return NULL;
    for (size_t i = 0; i < conj.n; i++) {
        const AstNode *c = conj.items[i];
        if (c->kind != AST_BINARY || c->op != OP_EQ || c->a->kind != AST_COLREF || c->b->kind != AST_COLREF) {
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "the ON condition of %s is a conjunction (∧) of equalities between a left and a "
                     "right column (L.k = R.k)", op);
            return NULL;
        }
        int cols[2][2];
        for (int j = 0; j < 2; j++) {
            const AstNode *ref = j ? c->b : c->a;
            if ((cols[j][0] = lookup_col(s, &l->schema, ref)) == -2) return NULL;
            if ((cols[j][1] = lookup_col(s, &r->schema, ref)) == -2) return NULL;
            if (cols[j][0] < 0 && cols[j][1] < 0) {
                Schema both;
                if (schema_join(s, &l->schema, &r->schema, &both) < 0) return NULL;
                unknown_column(s, &both, ref, " in either input");
                return NULL;
            }
        }
        int lc, rc;
        if (cols[0][0] >= 0 && cols[1][1] >= 0 && !(cols[0][1] >= 0 && cols[1][0] >= 0)) {
            lc = cols[0][0];
            rc = cols[1][1];
        } else if (cols[1][0] >= 0 && cols[0][1] >= 0 && !(cols[0][0] >= 0 && cols[1][1] >= 0)) {
            lc = cols[1][0];
            rc = cols[0][1];
        } else {
            rx_error(s->err, RX_ETYPE, s->src, c->span,
                     "this equality must relate a column of the left input to one of the right input "
                     "(qualify the columns: L.k = R.k)");
            return NULL;
        }
        RxType lt = l->schema.cols[lc].type, rt = r->schema.cols[rc].type;
        if (type_order_family(lt) != type_order_family(rt) || type_order_family(lt) == 0) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "cannot compare %s with %s%s", type_name(lt),
                     type_name(rt), conversion_hint(s, lt, rt));
            return NULL;
        }
        p->lkeys[p->n_keys] = lc;
        p->rkeys[p->n_keys] = rc;
        p->n_keys++;
    }
    if (schema_copy(s, &l->schema, &p->schema) < 0) return NULL;
    return p;
}

static LPlan *sema_iset(Sema *s, const AstNode *n) {
    LPlan *l = n->a ? sema_rel(s, n->a) : NULL;
    if (n->a && !l) return NULL;
    LPlan *r = sema_rel(s, n->b);
    if (!r) return NULL;
    LPlan *p = new_plan(s, LP_ISET, n->span);
    if (!p) return NULL;
    p->iset_op = n->iset_op;
    if (!l) {
        p->in[0] = r;
        return sema_iset_unary(s, n, r, p);
    }
    p->in[0] = l;
    p->in[1] = r;
    return sema_iset_binary(s, n, l, r, p);
}

/* Types the aggregate call c over g->in and adds it to g (an identical call, by its source
 * text, is added once). Its index in g->aggs, or -1 with the error. */
static int group_aggregate(Sema *s, GroupCtx *g, const AstNode *c) {
    const char *text = expr_text(s, c->span);
    if (!text) return -1;
    for (int k = 0; k < g->n_aggs; k++)
        if (strcmp(g->texts[k], text) == 0) return k;
    if (g->n_aggs == g->cap_aggs) {
        int cap = g->cap_aggs ? 2 * g->cap_aggs : 8;
        AggSpec *na = alloc(s, (size_t)cap * sizeof *na);
        const char **nt = alloc(s, (size_t)cap * sizeof *nt);
        if (!na || !nt) return -1;
        if (g->n_aggs) {
            memcpy(na, g->aggs, (size_t)g->n_aggs * sizeof *na);
            memcpy(nt, g->texts, (size_t)g->n_aggs * sizeof *nt);
        }
        g->aggs = na, g->texts = nt, g->cap_aggs = cap;
    }
    int ai = agg_index(c->name);
    AggSpec *ag = &g->aggs[g->n_aggs];
    memset(ag, 0, sizeof *ag);
    static const AggFn fns[LANG_N_AGGREGATES] = {
        AGG_COUNT, AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX, AGG_FIRST, AGG_LAST, AGG_STDDEV,
        AGG_STDDEV_POP, AGG_VARIANCE, AGG_VAR_POP, AGG_MEDIAN, AGG_QUANTILE, AGG_STRING_AGG,
        AGG_ARG_MIN, AGG_ARG_MAX, AGG_BOOL_AND, AGG_BOOL_OR};
    ag->fn = fns[ai];
    ag->distinct = c->distinct;
    int want = ag->fn == AGG_QUANTILE || ag->fn == AGG_STRING_AGG || ag->fn == AGG_ARG_MIN ||
               ag->fn == AGG_ARG_MAX ? 2 : 1;
    GroupCtx *outer = s->gc;
    s->gc = NULL; /* aggregate arguments are typed over the operand's rows */
    if (c->star) {
        s->gc = outer;
        if (ag->fn != AGG_COUNT) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "only count takes *");
            return -1;
        }
        ag->fn = AGG_COUNT_STAR;
    } else if ((int)c->items.n != want) {
        s->gc = outer;
        rx_error(s->err, RX_ETYPE, s->src, c->span, "%s takes %s, given %zu", c->name,
                 want == 1 ? "one argument" : "two arguments", c->items.n);
        return -1;
    } else {
        Expr *args[2] = {NULL, NULL};
        for (int i = 0; i < want; i++) {
            const AstNode *argn = c->items.items[i];
            if (argn->kind == AST_CALL && agg_index(argn->name) >= 0) {
                s->gc = outer;
                rx_error(s->err, RX_ETYPE, s->src, argn->span, "aggregates do not nest");
                return -1;
            }
            args[i] = sema_expr(s, argn, g->in);
            if (!args[i]) {
                s->gc = outer;
                return -1;
            }
        }
        s->gc = outer;
        ag->arg = args[0];
        ag->arg2 = args[1];
    }
    if (ag->distinct && ag->fn != AGG_COUNT) {
        rx_error(s->err, RX_ETYPE, s->src, c->span, "DISTINCT is supported in count only");
        return -1;
    }
    RxType at = ag->arg ? ag->arg->type : TY_INT;
    switch (ag->fn) {
    case AGG_COUNT_STAR: case AGG_COUNT: ag->type = TY_INT; break;
    case AGG_SUM:
        if (!type_is_numeric(at) && at != TY_DURATION && at != TY_NULL) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "sum needs numbers or DURATIONs, found %s",
                     type_name(at));
            return -1;
        }
        ag->type = at == TY_NULL ? TY_INT : at;
        break;
    case AGG_AVG:
        if (!type_is_numeric(at) && at != TY_DURATION && at != TY_NULL) {
            rx_error(s->err, RX_ETYPE, s->src, c->span, "avg needs numbers or DURATIONs, found %s",
                     type_name(at));
            return -1;
        }
        ag->type = at == TY_DURATION ? TY_DURATION : TY_FLOAT;
        break;
    case AGG_STDDEV: case AGG_STDDEV_POP: case AGG_VARIANCE: case AGG_VAR_POP:
        if (!type_is_numeric(at) && at != TY_NULL) {
            rx_error(s->err, RX_ETYPE, s->src, ag->arg->span, "%s needs numbers, found %s", c->name,
                     type_name(at));
            return -1;
        }
        ag->type = TY_FLOAT;
        break;
    case AGG_MEDIAN: case AGG_QUANTILE:
        if (!type_is_numeric(at) && at != TY_DURATION && at != TY_NULL) {
            rx_error(s->err, RX_ETYPE, s->src, ag->arg->span, "%s needs numbers or DURATIONs, found %s",
                     c->name, type_name(at));
            return -1;
        }
        ag->q = 0.5;
        if (ag->fn == AGG_QUANTILE) {
            const Expr *q = ag->arg2;
            double qv = q->kind == EX_CONST && !q->value.null
                            ? (q->type == TY_FLOAT ? q->value.v.f : q->type == TY_INT ? (double)q->value.v.i : -1)
                            : -1;
            if (q->kind != EX_CONST || !type_is_numeric(q->type) || !(qv >= 0 && qv <= 1)) {
                rx_error(s->err, RX_EVALUE, s->src, q->span,
                         "the fraction of quantile is a constant from 0 to 1, e.g. quantile(x, 0.9)");
                return -1;
            }
            ag->q = qv;
        }
        ag->type = at == TY_DURATION ? TY_DURATION : TY_FLOAT;
        break;
    case AGG_STRING_AGG:
        if ((at != TY_TEXT && at != TY_NULL) || (ag->arg2->type != TY_TEXT && ag->arg2->type != TY_NULL)) {
            const Expr *bad = at != TY_TEXT && at != TY_NULL ? ag->arg : ag->arg2;
            rx_error(s->err, RX_ETYPE, s->src, bad->span, "string_agg joins TEXT with a TEXT separator, found %s",
                     type_name(bad->type));
            return -1;
        }
        ag->type = TY_TEXT;
        break;
    case AGG_ARG_MIN: case AGG_ARG_MAX:
        if (ag->arg2->type == TY_NULL) {
            rx_error(s->err, RX_ETYPE, s->src, ag->arg2->span, "the ordering value of %s cannot be NULL", c->name);
            return -1;
        }
        ag->type = at;
        break;
    case AGG_BOOL_AND: case AGG_BOOL_OR:
        if (at != TY_BOOL && at != TY_NULL) {
            rx_error(s->err, RX_ETYPE, s->src, ag->arg->span, "%s needs BOOL, found %s", c->name,
                     type_name(at));
            return -1;
        }
        ag->type = TY_BOOL;
        break;
    default:
        ag->type = at;
        break;
    }
    g->texts[g->n_aggs] = text;
    return g->n_aggs++;
}

/* γ keys; items (R): keys and aggregate arguments typed; NULL with the error. Each item is an
 * aggregate call, or an expression over aggregate calls and keys: then the γ computes the keys
 * and every distinct aggregate call, and a π over it computes the items (a post-projection). */
static LPlan *sema_group(Sema *s, const AstNode *n) {
    LPlan *in = sema_rel(s, n->b);
    if (!in) return NULL;
    LPlan *p = new_plan(s, LP_GROUP, n->span);
    if (!p) return NULL;
    p->in[0] = in;
    int nk = (int)n->items.n, na = (int)n->items2.n;
    GroupCtx g = {.in = &in->schema};
    p->n_group = nk;
    p->group = alloc(s, (size_t)(nk + 1) * sizeof *p->group);
    g.keys.n = nk;
    g.keys.cols = alloc(s, (size_t)(nk + 1) * sizeof *g.keys.cols);
    if (!p->group || !g.keys.cols) return NULL;
    for (int i = 0; i < nk; i++) {
        const AstNode *it = n->items.items[i];
        Expr *e = sema_expr(s, it->a, &in->schema);
        if (!e) return NULL;
        p->group[i] = e;
        ColInfo *ci = &g.keys.cols[i];
        ci->type = e->type;
        ci->name = it->name ? it->name : e->kind == EX_COL ? it->a->name : expr_text(s, it->a->span);
        ci->qual = e->kind == EX_COL && !it->name ? in->schema.cols[e->col].qual : NULL;
        ci->base = ci->name;
    }
    /* Each item: an aggregate call directly (out[i] < 0 names its aggregate as -1 - k), or an
     * expression typed over the keys and aggregates. */
    Expr **items = alloc(s, (size_t)(na + 1) * sizeof *items);
    int *direct = alloc(s, (size_t)(na + 1) * sizeof *direct);
    if (!items || !direct) return NULL;
    bool project = false;
    for (int i = 0; i < na; i++) {
        const AstNode *c = ((const AstNode *)n->items2.items[i])->a;
        direct[i] = -1;
        if (c->kind == AST_CALL && agg_index(c->name) >= 0) {
            int k = group_aggregate(s, &g, c);
            if (k < 0) return NULL;
            /* a repeated call is a second column: only the first use is the aggregate's own */
            bool used = false;
            for (int j = 0; j < i; j++) used |= direct[j] == k;
            if (used || k != i) project = true;
            direct[i] = k;
            continue;
        }
        s->gc = &g;
        items[i] = sema_expr(s, c, &in->schema);
        s->gc = NULL;
        if (!items[i]) return NULL;
        project = true;
    }
    p->aggs = g.aggs ? g.aggs : alloc(s, sizeof *p->aggs);
    p->n_aggs = g.n_aggs;
    p->schema.n = nk + g.n_aggs;
    p->schema.cols = alloc(s, (size_t)(nk + g.n_aggs + 1) * sizeof *p->schema.cols);
    if (!p->aggs || !p->schema.cols) return NULL;
    for (int i = 0; i < nk; i++) p->schema.cols[i] = g.keys.cols[i];
    for (int k = 0; k < g.n_aggs; k++) {
        ColInfo *ci = &p->schema.cols[nk + k];
        ci->type = g.aggs[k].type;
        ci->name = g.texts[k];
        ci->base = ci->name;
    }
    /* the output: the γ itself when every item is its aggregate in order, else π over it */
    LPlan *out = p;
    if (project) {
        out = new_plan(s, LP_PROJECT, n->span);
        if (!out) return NULL;
        out->in[0] = p;
        out->n_items = nk + na;
        out->items = alloc(s, (size_t)(nk + na) * sizeof *out->items);
        out->schema.n = nk + na;
        out->schema.cols = alloc(s, (size_t)(nk + na) * sizeof *out->schema.cols);
        if (!out->items || !out->schema.cols) return NULL;
        for (int i = 0; i < nk + na; i++) {
            int src = i < nk ? i : direct[i - nk] >= 0 ? nk + direct[i - nk] : -1;
            Expr *e = src >= 0 ? new_expr(s, EX_COL, p->schema.cols[src].type, n->span) : items[i - nk];
            if (!e) return NULL;
            if (src >= 0) e->col = src;
            out->items[i] = e;
            out->schema.cols[i] = i < nk ? p->schema.cols[i] : (ColInfo){0};
        }
    }
    for (int i = 0; i < na; i++) {
        const AstNode *it = n->items2.items[i];
        ColInfo *ci = &out->schema.cols[nk + i];
        ci->type = project ? out->items[nk + i]->type : p->schema.cols[nk + i].type;
        ci->name = it->name ? it->name : expr_text(s, it->a->span);
        ci->qual = NULL;
        ci->base = ci->name;
    }
    for (int i = 0; i < out->schema.n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(out->schema.cols[i].name, out->schema.cols[j].name) == 0) {
                const AstNode *it = i < nk ? n->items.items[i] : n->items2.items[i - nk];
                rx_error(s->err, RX_ENAME, s->src, it->span,
                         "two columns of this γ are named '%s': rename one with '→ name'",
                         out->schema.cols[i].name);
                return NULL;
            }
    return out;
}

/* Analyzes relational expression n into a logical plan in the arena; NULL with the error. */
static LPlan *sema_rel(Sema *s, const AstNode *n) {
    switch (n->kind) {
    case AST_REL:
        return sema_relname(s, n);
    case AST_SELECT: {
        LPlan *in = sema_rel(s, n->b);
        if (!in) return NULL;
        Expr *pred = sema_expr(s, n->a, &in->schema);
        if (!pred) return NULL;
        if (pred->type != TY_BOOL && pred->type != TY_NULL) {
            rx_error(s->err, RX_ETYPE, s->src, n->a->span,
                     "a σ condition must be BOOL, found %s", type_name(pred->type));
            return NULL;
        }
        LPlan *p = new_plan(s, LP_SELECT, n->span);
        if (!p) return NULL;
        p->in[0] = in;
        p->pred = pred;
        if (schema_copy(s, &in->schema, &p->schema) < 0) return NULL;
        return p;
    }
    case AST_PROJECT:
        return sema_project(s, n);
    case AST_RENAME: {
        LPlan *in = sema_rel(s, n->b);
        if (!in) return NULL;
        return rename_rel(s, in, n->name, n->span);
    }
    case AST_RENAME_COLS:
        return sema_rename_cols(s, n);
    case AST_IJOIN:
        return sema_ijoin(s, n);
    case AST_ASOF:
        return sema_asof(s, n);
    case AST_WJOIN:
        return sema_wjoin(s, n);
    case AST_JOIN:
        return sema_join(s, n);
    case AST_SETOP:
        return sema_setop(s, n);
    case AST_DISTINCT: {
        LPlan *in = sema_rel(s, n->b);
        if (!in) return NULL;
        LPlan *p = new_plan(s, LP_DISTINCT, n->span);
        if (!p) return NULL;
        p->in[0] = in;
        if (schema_copy(s, &in->schema, &p->schema) < 0) return NULL;
        return p;
    }
    case AST_SORT: case AST_TOP:
        return sema_sort_top(s, n);
    case AST_GROUP:
        return sema_group(s, n);
    case AST_ISET:
        return sema_iset(s, n);
    case AST_WINDOW:
        return sema_window(s, n);
    case AST_FILL:
        return sema_fill(s, n);
    default:
        rx_error(s->err, RX_ESYNTAX, s->src, n->span, "a relation was expected here");
        return NULL;
    }
}

/* The plan of view d, analyzed once and shared; a view that reaches itself is an error
 * naming the path (ref is the reference being resolved). NULL with the error. */
static LPlan *analyze_view(Sema *s, RelDef *d, const AstNode *ref) {
    if (d->state == 2) return d->plan;
    if (d->state == 1) {
        StrBuf b;
        sb_init(&b);
        size_t start = 0;
        for (size_t i = 0; i < s->view_stack.n; i++)
            if (s->view_stack.items[i] == d) start = i;
        for (size_t i = start; i < s->view_stack.n; i++)
            sb_printf(&b, "%s → ", ((RelDef *)s->view_stack.items[i])->name);
        sb_puts(&b, d->name);
        rx_error(s->err, RX_ENAME, s->src, ref->name_span, "view '%s' refers to itself (%s)",
                 d->name, b.p ? b.p : d->name);
        sb_free(&b);
        return NULL;
    }
    if (s->view_stack.n >= PARSE_MAX_REL_DEPTH) {
        /* Each view adds at least a rename to the plan, so this bounds the recursion through
         * views before the plan's depth is checked (rewrite/inline.c). Reported at the
         * outermost view, where the chain starts. */
        const RelDef *top = s->view_stack.items[0];
        const RelDef *second = s->view_stack.items[1];
        rx_error(s->err, RX_ELIMIT, top->src, top->stmt->name_span,
                 "views nested too deeply: '%s' uses '%s', which uses … '%s': more than %d views, "
                 "each using the next", top->name, second->name, d->name, PARSE_MAX_REL_DEPTH);
        return NULL;
    }
    d->state = 1;
    ptrvec_push(s->a, &s->view_stack, d);
    /* A view's plan lives as long as the catalog. */
    Sema inner = *s;
    inner.a = s->cat->arena;
    inner.src = d->src;
    LPlan *body = sema_rel(&inner, d->stmt->expr);
    s->view_stack = inner.view_stack;
    s->view_stack.n--;
    if (!body) {
        d->state = 0;
        return NULL;
    }
    d->plan = body;
    d->state = 2;
    return body;
}

/* Analyzes one statement of script sc. */
static LPlan *analyze_stmt(Catalog *c, Arena *a, const Script *sc, const Stmt *st, RxError *err) {
    Sema s = {.cat = c, .a = a, .src = sc->src, .err = err};
    if (st->kind == ST_QUERY) return sema_rel(&s, st->expr);
    RelDef *d = catalog_find(c, st->name);
    if (st->kind == ST_VIEW) {
        AstNode ref = {.kind = AST_REL, .name = st->name, .name_span = st->name_span};
        return analyze_view(&s, d, &ref);
    }
    return NULL;
}

int sema_define_script(Catalog *c, const Script *sc, RxError *err) {
    size_t before = c->n;
    for (size_t i = 0; i < sc->n; i++) {
        const Stmt *st = sc->stmts[i];
        if (st->kind == ST_QUERY) continue;
        if (catalog_define(c, st, sc->src, err) < 0) goto fail;
    }
    for (size_t i = 0; i < sc->n; i++) {
        const Stmt *st = sc->stmts[i];
        if (st->kind == ST_VIEW && !analyze_stmt(c, c->arena, sc, st, err)) goto fail;
        if (st->kind == ST_QUERY) {
            /* Queries are analyzed again, into the run's arena, when they run; this pass only
             * reports their errors before anything runs. */
            Arena *tmp = arena_new();
            if (!tmp) return rx_error(err, RX_ENOMEM, NULL, st->span, "out of memory");
            LPlan *p = analyze_stmt(c, tmp, sc, st, err);
            arena_free(tmp);
            if (!p) goto fail;
        }
    }
    return 0;
fail:
    for (size_t i = before; i < c->n; i++) {
        catalog_release_def(c->defs[i]);
    }
    c->n = before;
    /* Views analyzed before the failure may point at definitions just removed. */
    for (size_t i = 0; i < c->n; i++)
        if (c->defs[i]->stmt->kind == ST_VIEW && c->defs[i]->state != 2) c->defs[i]->state = 0;
    return -1;
}

LPlan *sema_query(Catalog *c, Arena *a, const Script *sc, const Stmt *st, RxError *err) {
    return analyze_stmt(c, a, sc, st, err);
}
