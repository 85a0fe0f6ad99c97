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

#include "base/hmap.h"
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
    [FN_EXTRACT] = {FN_EXTRACT, 2, 2},           [FN_DATE_TRUNC] = {FN_DATE_TRUNC, 2, 2},
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
    [FN_STRFTIME] = {FN_STRFTIME, 2, 2},         [FN_STRPTIME] = {FN_STRPTIME, 2, 2},
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
        if (a[1]->kind == EX_CONST && a[1]->type == TY_TEXT) {
            /* a constant format is checked here: every directive must be one we know */
            RxStr fs = a[1]->value.v.s;
            const char *known = fmt_out ? "YmdHMSfjuwaAbBFTs%" : "YmdHMSfFT%";
            for (size_t i = 0; i < fs.len; i++) {
                if (fs.ptr[i] != '%') continue;
                if (i + 1 >= fs.len || !strchr(known, fs.ptr[i + 1]) || fs.ptr[i + 1] == 0) {
                    rx_error(s->err, RX_EVALUE, s->src, a[1]->span,
                             "unknown directive '%.*s' in the format of %s (directives: %s)",
                             i + 1 < fs.len ? 2 : 1, fs.ptr + i, lang_function_name(f->id),
                             fmt_out ? "%Y %m %d %H %M %S %f %j %u %w %a %A %b %B %F %T %s %%"
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
static LPlan *sema_relname(Sema *s, const AstNode *n) {
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

/* Flattens an ∧ tree of the ASOF condition into conjuncts; ∨ and ¬ are errors. */
static int flatten_and(Sema *s, const AstNode *n, PtrVec *out) {
    if (n->kind == AST_BINARY && n->op == OP_AND) {
        if (flatten_and(s, n->a, out) < 0) return -1;
        return flatten_and(s, n->b, out);
    }
    if ((n->kind == AST_BINARY && n->op == OP_OR) || (n->kind == AST_UNARY && n->op == OP_NOT))
        return rx_error(s->err, RX_ETYPE, s->src, n->span,
                        "an ASOF condition is a conjunction (∧) of comparisons; '%s' is not "
                        "allowed", op_text(n->op));
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
    if (flatten_and(s, n->cond, &conj) < 0) return NULL;
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
