/*
 * parse.c - recursive-descent parser: tokens -> Script (syntax.h).
 *
 * Each parse function starts with its grammar rule; docs/grammar.md collects them. Words are
 * keywords only where the grammar expects one (docs/design.md), matched case-insensitively. Nesting
 * is bounded by PARSE_MAX_DEPTH so that hostile input cannot overflow the stack.
 *
 * Longer than the ~1,200 lines a file should hold: one recursive-descent parser, its scalar and
 * relational halves calling each other; its messages (with hints) are being extended, so the
 * split into expression and relation files waits.
 */
#include "syntax/syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/number.h"

typedef struct {
    Arena *a;
    const RxSource *src;
    const Token *t;
    size_t n, pos;
    int depth;
    RxError *err;
    bool bare;      /* a relational expression on its own is a query statement */
    ScriptParam *params;   /* the parameters met so far, by slot (in the arena) */
    int n_params, cap_params;
} Parser;

/* ---- token helpers -------------------------------------------------------------------------- */

/* The token k ahead of the current one, the end-of-input token past the last: never out of
 * range. peek is the current token, advance moves past it (never past the end) and returns
 * it. */
static const Token *peek_at(Parser *p, size_t k) {
    size_t i = p->pos + k;
    return &p->t[i < p->n ? i : p->n - 1];
}
static const Token *peek(Parser *p) { return peek_at(p, 0); }
static TokKind peek_kind(Parser *p) { return peek(p)->kind; }
static const Token *advance(Parser *p) {
    const Token *t = peek(p);
    if (p->pos < p->n - 1) p->pos++;
    return t;
}
static const char *tok_text(Parser *p, const Token *t) { return p->src->text + t->span.start; }
static size_t tok_len(const Token *t) { return t->span.end - t->span.start; }

/* Whether t is the identifier kw in any case of ASCII letters (keywords that are no token
 * kind of their own: JOIN, UNION, PER ...). */
static bool word_is(Parser *p, const Token *t, const char *kw) {
    if (t->kind != TK_IDENT) return false;
    size_t n = strlen(kw);
    if (tok_len(t) != n) return false;
    const char *s = tok_text(p, t);
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'a' && c <= 'z') c = (char)(c - 32);
        char k = kw[i];
        if (k >= 'a' && k <= 'z') k = (char)(k - 32);
        if (c != k) return false;
    }
    return true;
}
static bool at_word(Parser *p, const char *kw) { return word_is(p, peek(p), kw); }

/* How a message names token t ("end of input", "the string '…'", "'x'"), into buf of cap
 * bytes; long strings and words are cut at 40 bytes. */
static void describe(Parser *p, const Token *t, char *buf, size_t cap) {
    if (t->kind == TK_EOF) {
        snprintf(buf, cap, "end of input");
    } else if (t->kind == TK_TABLE) {
        snprintf(buf, cap, "an inline table");
    } else if (t->kind == TK_STRING) {
        size_t n = tok_len(t);
        if (n > 40) snprintf(buf, cap, "the string %.*s…'", 38, tok_text(p, t));
        else snprintf(buf, cap, "the string %.*s", (int)n, tok_text(p, t));
    } else {
        size_t n = tok_len(t);
        if (n > 40) n = 40;
        snprintf(buf, cap, "'%.*s'", (int)n, tok_text(p, t));
    }
}

/* Records an RX_ESYNTAX error at token t (the first error is kept); returns -1. */
static int syntax_error(Parser *p, const Token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int syntax_error(Parser *p, const Token *t, const char *fmt, ...) {
    if (t->kind == TK_BAR)
        /* A single '|' has one place, between IJOIN's relations: elsewhere say what it is not. */
        return rx_error(p->err, RX_ESYNTAX, p->src, t->span,
                        "unexpected '|' (inline table rows go inside 'Name := [ ... ];', "
                        "concatenation is '||')");
    va_list ap;
    va_start(ap, fmt);
    rx_verror(p->err, RX_ESYNTAX, p->src, t->span, fmt, ap);
    va_end(ap);
    return -1;
}

/* "expected X, found Y" at the current token. */
static int expected(Parser *p, const char *what) {
    char found[64];
    describe(p, peek(p), found, sizeof found);
    return syntax_error(p, peek(p), "%s expected, found %s", what, found);
}

/* Consumes a closing token, or reports it with the position of its opener (Lua's check_match). */
static int expect_close(Parser *p, TokKind k, const Token *open) {
    if (peek_kind(p) == k) {
        advance(p);
        return 0;
    }
    uint32_t line, col;
    rx_source_position(p->src, open->span.start, &line, &col);
    char found[64], what[96];
    describe(p, peek(p), found, sizeof found);
    snprintf(what, sizeof what, "%s", tok_kind_name(k));
    return syntax_error(p, peek(p), "%s expected (to close %s at %u:%u), found %s", what,
                        tok_kind_name(open->kind), line, col, found);
}

/* Consumes a token of kind k, or records "expected K CONTEXT, found ..." at the current token
 * and returns -1 (context: NULL, or what the token closes or introduces). */
static int expect(Parser *p, TokKind k, const char *context) {
    if (peek_kind(p) == k) {
        advance(p);
        return 0;
    }
    char what[128];
    snprintf(what, sizeof what, "%s%s%s", tok_kind_name(k), context ? " " : "", context ? context : "");
    return expected(p, what);
}

/* One more level of nesting, opened by token `at` (Lua's enterlevel): the parser recurses per
 * level, so the levels are bounded. */
static int enter(Parser *p, const Token *at) {
    if (++p->depth > PARSE_MAX_DEPTH)
        return rx_error(p->err, RX_ELIMIT, p->src, at->span,
                        "expression nested too deeply (more than %d levels)", PARSE_MAX_DEPTH);
    return 0;
}
static void leave(Parser *p) { p->depth--; }

/* A new zeroed AST node of kind k over span, in the script's arena; NULL with RX_ENOMEM. */
static AstNode *node(Parser *p, AstKind k, RxSpan span) {
    AstNode *n = arena_alloc(p->a, sizeof *n);
    if (!n) {
        rx_error(p->err, RX_ENOMEM, NULL, span, "out of memory");
        return NULL;
    }
    n->kind = k;
    n->span = span;
    return n;
}

/* The text between a quoted token's quotes, with each doubled quote taken as one. */
static char *unescape_quoted(Parser *p, const Token *t, size_t *len) {
    const char *s = tok_text(p, t);
    char quote = s[0];
    size_t n = tok_len(t) - 2;
    char *out = arena_alloc(p->a, n + 1);
    if (!out) return NULL;
    size_t j = 0;
    for (size_t i = 1; i <= n; i++) {
        out[j++] = s[i];
        if (s[i] == quote) i++;
    }
    out[j] = 0;
    *len = j;
    return out;
}

/* A name token (word or "quoted") as an arena string. */
static const char *name_text(Parser *p, const Token *t) {
    size_t len;
    if (t->kind == TK_QIDENT) return unescape_quoted(p, t, &len);
    return arena_strndup(p->a, tok_text(p, t), tok_len(t));
}

static bool is_name(const Token *t) { return t->kind == TK_IDENT || t->kind == TK_QIDENT; }

/* ---- keyword classes -------------------------------------------------------------------------- */

/* Words that continue a relational expression after an operand, so never an alias. */
static const char *const rel_binop_words[] = {
    "IJOIN", "ASOF", "WJOIN", "IMINUS", "IINTERSECT", "NORMALIZE", "JOIN", "NATURAL", "CROSS", "UNION", "INTERSECT", "EXCEPT", "MINUS",
    "LJOIN", "RJOIN", "FJOIN", "SEMIJOIN", "RSEMIJOIN", "ANTIJOIN", "WITHIN", "TIES", "INNER", "NEAREST",
    "ASC", "DESC", "NULLS", "PER", "BY",
};
/* Whether t is one of rel_binop_words. */
static bool is_rel_binop_word(Parser *p, const Token *t) {
    for (size_t i = 0; i < RX_ARRAY_LEN(rel_binop_words); i++)
        if (word_is(p, t, rel_binop_words[i])) return true;
    return false;
}

bool syntax_is_function(const char *name, size_t n) { return lang_is_function(name, n); }

/* Damerau-Levenshtein distance (optimal string alignment; ASCII letters compared without
 * case) between x[0..n) and the NUL-terminated y; names longer than 32 bytes count as far. */
static size_t name_distance(const char *x, size_t n, const char *y) {
    size_t m = strlen(y);
    if (n > 32 || m > 32) return 99;
    size_t d[33][33];
    for (size_t i = 0; i <= n; i++) d[i][0] = i;
    for (size_t j = 0; j <= m; j++) d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            char a = (char)((x[i - 1] >= 'A' && x[i - 1] <= 'Z') ? x[i - 1] | 0x20 : x[i - 1]);
            char b = (char)((y[j - 1] >= 'A' && y[j - 1] <= 'Z') ? y[j - 1] | 0x20 : y[j - 1]);
            size_t best = d[i - 1][j - 1] + (a != b);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a == (y[j - 2] | 0x20) && (x[i - 2] | 0x20) == b && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *syntax_nearest_function(const char *name, size_t n) {
    const char *best = NULL;
    /* close: one edit for names of up to 4 characters, two beyond */
    size_t bd = n <= 4 ? 2 : 3;
    for (int i = 0; i < LANG_N_NAMES; i++) {
        size_t d = name_distance(name, n, lang_name_at(i));
        if (d < bd) {
            bd = d;
            best = lang_name_at(i);
        }
    }
    return best;
}

/* ---- scalar expressions --------------------------------------------------------------------- */

static AstNode *parse_expr(Parser *p);

/* l op r as a node spanning both; NULL when either operand is NULL (its error is recorded)
 * or out of memory. */
static AstNode *binary(Parser *p, AstOp op, AstNode *l, AstNode *r) {
    if (!l || !r) return NULL;
    AstNode *n = node(p, AST_BINARY, rx_span_join(l->span, r->span));
    if (n) {
        n->op = op;
        n->a = l;
        n->b = r;
    }
    return n;
}

/* If the '(' at offset k from the current token opens a parenthesized group, the offset of the
 * token after its matching ')', or 0 when unbalanced. */
static size_t after_group(Parser *p, size_t k) {
    int depth = 0;
    for (size_t i = p->pos + k; i < p->n; i++) {
        if (p->t[i].kind == TK_LPAREN) depth++;
        else if (p->t[i].kind == TK_RPAREN && --depth == 0) return i + 1 - p->pos;
        else if (p->t[i].kind == TK_EOF || p->t[i].kind == TK_SEMI) return 0;
    }
    return 0;
}

/* Whether a token of kind k can follow a scalar operand inside an expression (an operator,
 * ',', '→', '('): after name(...) it marks a call, not a relation. */
static bool continues_scalar(TokKind k) {
    switch (k) {
    case TK_ARROW: case TK_COMMA: case TK_EQ: case TK_NE: case TK_LT: case TK_LE: case TK_GT:
    case TK_GE: case TK_PLUS: case TK_MINUS: case TK_STAR: case TK_SLASH: case TK_PERCENT:
    case TK_CONCAT: case TK_AND: case TK_OR: case TK_LPAREN:
        return true;
    default:
        return false;
    }
}

static AstNode *parse_call_args(Parser *p, AstNode *n, const Token *nt, const Token *open);

/* call = name '(' [ '*' | 'DISTINCT' expr | expr { ',' expr } ] ')' */
static AstNode *parse_call(Parser *p) {
    const Token *nt = advance(p);
    AstNode *n = node(p, AST_CALL, nt->span);
    if (!n) return NULL;
    n->name = name_text(p, nt);
    n->name_span = nt->span;
    const Token *open = advance(p); /* '(' */
    if (enter(p, open) < 0) return NULL;
    AstNode *r = parse_call_args(p, n, nt, open);
    leave(p);
    return r;
}

/* The arguments of call n after its '(' (open), through the closing ')'. */
static AstNode *parse_call_args(Parser *p, AstNode *n, const Token *nt, const Token *open) {
    if (peek_kind(p) == TK_STAR && (peek_at(p, 1)->kind == TK_RPAREN || word_is(p, nt, "count"))) {
        /* count(*: only ')' may follow the star */
        advance(p);
        n->star = true;
    } else if (at_word(p, "DISTINCT") && peek_at(p, 1)->kind != TK_RPAREN && peek_at(p, 1)->kind != TK_COMMA) {
        advance(p);
        n->distinct = true;
    }
    if (!n->star && peek_kind(p) != TK_RPAREN) {
        for (;;) {
            AstNode *arg = parse_expr(p);
            if (!arg) return NULL;
            ptrvec_push(p->a, &n->items, arg);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
    }
    RxSpan close = peek(p)->span;
    if (expect_close(p, TK_RPAREN, open) < 0) return NULL;
    n->span = rx_span_join(nt->span, close);
    return n;
}

static bool at_case_start(Parser *p) { return word_is(p, peek_at(p, 1), "WHEN"); }

/* CASE followed by what shows a CASE without WHEN rather than a column named case: a literal,
 * THEN, ELSE or END, or a value followed by one of those words. */
static bool case_without_when(Parser *p) {
    const Token *n = peek_at(p, 1), *n2 = peek_at(p, 2);
    if (n->kind == TK_INT || n->kind == TK_FLOAT || n->kind == TK_STRING) return true;
    if (word_is(p, n, "THEN") || word_is(p, n, "ELSE") || word_is(p, n, "END")) return true;
    return is_name(n) && (word_is(p, n2, "THEN") || word_is(p, n2, "ELSE") || word_is(p, n2, "END"));
}

/* case = 'CASE' 'WHEN' expr 'THEN' expr { 'WHEN' expr 'THEN' expr } [ 'ELSE' expr ] 'END' */
static AstNode *parse_case_body(Parser *p, const Token *kw, AstNode *n);

/* case = CASE { WHEN expr THEN expr } [ ELSE expr ] END ; one nesting level (enter). */
static AstNode *parse_case(Parser *p) {
    const Token *kw = advance(p);
    AstNode *n = node(p, AST_CASE, kw->span);
    if (!n) return NULL;
    if (enter(p, kw) < 0) return NULL;
    AstNode *r = parse_case_body(p, kw, n);
    leave(p);
    return r;
}

/* What follows CASE, through END. */
static AstNode *parse_case_body(Parser *p, const Token *kw, AstNode *n) {
    while (at_word(p, "WHEN")) {
        advance(p);
        if (at_word(p, "THEN")) {
            expected(p, "a condition after WHEN");
            return NULL;
        }
        AstNode *c = parse_expr(p);
        if (!c) return NULL;
        if (!at_word(p, "THEN")) {
            expected(p, "THEN");
            return NULL;
        }
        advance(p);
        AstNode *v = parse_expr(p);
        if (!v) return NULL;
        ptrvec_push(p->a, &n->items, c);
        ptrvec_push(p->a, &n->items, v);
    }
    if (at_word(p, "ELSE")) {
        advance(p);
        if (at_word(p, "END")) {
            expected(p, "a value after ELSE");
            return NULL;
        }
        n->a = parse_expr(p);
        if (!n->a) return NULL;
    }
    if (!at_word(p, "END")) {
        uint32_t line, col;
        rx_source_position(p->src, kw->span.start, &line, &col);
        char what[96];
        snprintf(what, sizeof what, "WHEN, ELSE or END (to close CASE at %u:%u)", line, col);
        expected(p, what);
        return NULL;
    }
    n->span = rx_span_join(kw->span, advance(p)->span);
    return n;
}

/* The conversion function that CAST(x AS T) and x::T call for the type named by token t:
 * "to_int" ...; NULL with the error recorded when t names no type a value converts to. */
static const char *cast_function(Parser *p, const Token *t) {
    RxType ty;
    if (!is_name(t) || type_from_name(tok_text(p, t), tok_len(t), &ty) < 0) {
        char found[64];
        describe(p, t, found, sizeof found);
        syntax_error(p, t, "a type expected after %s, found %s (INT, FLOAT, TEXT, TIMESTAMP, DATE, TIME, DURATION)",
                     p->pos > 0 && p->t[p->pos - 1].kind == TK_DCOLON ? "'::'" : "AS", found);
        return NULL;
    }
    switch (ty) {
    case TY_INT: return "to_int";
    case TY_FLOAT: return "to_float";
    case TY_TEXT: return "to_text";
    case TY_TIMESTAMP: return "to_timestamp";
    case TY_DATE: return "to_date";
    case TY_TIME: return "to_time";
    case TY_DURATION: return "to_duration";
    default: break;
    }
    syntax_error(p, t, "a value cannot be cast to %s: compare it instead (x = 'true', x <> 0)", type_name(ty));
    return NULL;
}

/* A call of conversion function fn on x over span: the AST of a cast. */
static AstNode *cast_node(Parser *p, const char *fn, AstNode *x, RxSpan span, RxSpan name_span) {
    AstNode *n = node(p, AST_CALL, span);
    if (!n) return NULL;
    n->name = fn;
    n->name_span = name_span;
    ptrvec_push(p->a, &n->items, x);
    return n;
}

/* cast = 'CAST' '(' expr 'AS' type ')' */
static AstNode *parse_cast(Parser *p) {
    const Token *kw = advance(p);
    const Token *open = advance(p); /* '(' */
    if (enter(p, open) < 0) return NULL;
    AstNode *x = parse_expr(p);
    if (!x) return NULL;
    if (!at_word(p, "AS")) {
        leave(p);
        expected(p, "AS in CAST(x AS type)");
        return NULL;
    }
    advance(p);
    const Token *tt = peek(p);
    const char *fn = cast_function(p, tt);
    if (!fn) return NULL;
    advance(p);
    leave(p);
    RxSpan close = peek(p)->span;
    if (expect_close(p, TK_RPAREN, open) < 0) return NULL;
    return cast_node(p, fn, x, rx_span_join(kw->span, close), kw->span);
}

/* postfix = primary { '::' type } */
static AstNode *parse_postfix(Parser *p, AstNode *x) {
    while (x && peek_kind(p) == TK_DCOLON) {
        const Token *op = advance(p);
        const Token *tt = peek(p);
        const char *fn = cast_function(p, tt);
        if (!fn) return NULL;
        advance(p);
        x = cast_node(p, fn, x, rx_span_join(x->span, tt->span), op->span);
    }
    return x;
}

/* The slot of parameter token t ($N or :name), made on its first use; -1 with the error at t
 * ($0, a number past PARSE_MAX_PARAMS, out of memory). */
static int param_slot(Parser *p, const Token *t) {
    const char *txt = tok_text(p, t);
    size_t len = tok_len(t);
    int slot = -1;
    if (txt[0] == '$') {
        long v = 0;
        for (size_t i = 1; i < len && v <= PARSE_MAX_PARAMS; i++) v = v * 10 + (txt[i] - '0');
        if (v < 1 || v > PARSE_MAX_PARAMS) {
            syntax_error(p, t, "parameter numbers go from $1 to $%d", PARSE_MAX_PARAMS);
            return -1;
        }
        slot = (int)v - 1;
    } else {
        for (int i = 0; i < p->n_params; i++)
            if (p->params[i].used && strlen(p->params[i].name) == len && memcmp(p->params[i].name, txt, len) == 0)
                return i;
        slot = p->n_params;
        if (slot >= PARSE_MAX_PARAMS) {
            syntax_error(p, t, "a script has at most %d parameters", PARSE_MAX_PARAMS);
            return -1;
        }
    }
    if (slot < p->n_params && p->params[slot].used) {
        if (txt[0] == '$') return slot;
    }
    if (slot >= p->cap_params) {
        int cap = p->cap_params ? p->cap_params * 2 : 8;
        while (cap <= slot) cap *= 2;
        ScriptParam *v = arena_alloc(p->a, (size_t)cap * sizeof *v);
        if (!v) {
            rx_error(p->err, RX_ENOMEM, NULL, t->span, "out of memory");
            return -1;
        }
        if (p->n_params) memcpy(v, p->params, (size_t)p->n_params * sizeof *v);
        p->params = v;
        p->cap_params = cap;
    }
    for (int i = p->n_params; i <= slot; i++) {
        p->params[i].used = false;
        p->params[i].name = arena_printf(p->a, "$%d", i + 1);
        p->params[i].span = t->span;
    }
    if (slot >= p->n_params) p->n_params = slot + 1;
    p->params[slot].used = true;
    p->params[slot].span = t->span;
    p->params[slot].name = arena_strndup(p->a, txt, len);
    if (!p->params[slot].name) {
        rx_error(p->err, RX_ENOMEM, NULL, t->span, "out of memory");
        return -1;
    }
    return slot;
}

/* primary = INT | FLOAT | STRING | PARAM | TRUE | FALSE | NULL | type STRING | call | case
 *         | name [ '.' name ] | '(' expr ')' */
static AstNode *parse_primary(Parser *p) {
    const Token *t = peek(p);
    switch (t->kind) {
    case TK_INT: {
        advance(p);
        AstNode *n = node(p, AST_INT, t->span);
        if (!n) return NULL;
        int rc = num_parse_int(tok_text(p, t), tok_len(t), &n->ival);
        if (rc == -2) {
            /* Too large for INT: a FLOAT literal, stated rather than silently. */
            rx_error(p->err, RX_EVALUE, p->src, t->span,
                     "integer literal %.*s does not fit in 64 bits (write %.*s.0 for a FLOAT)",
                     (int)tok_len(t), tok_text(p, t), (int)tok_len(t), tok_text(p, t));
            return NULL;
        }
        return n;
    }
    case TK_FLOAT: {
        advance(p);
        if (peek_kind(p) == TK_DOT && peek(p)->span.start == t->span.end) {
            rx_error(p->err, RX_ESYNTAX, p->src, rx_span_join(t->span, peek_at(p, 1)->span),
                     "a number has one decimal point at most");
            return NULL;
        }
        AstNode *n = node(p, AST_FLOAT, t->span);
        if (!n) return NULL;
        if (num_parse_float(tok_text(p, t), tok_len(t), &n->fval) != 0) {
            rx_error(p->err, RX_EVALUE, p->src, t->span, "number %.*s is out of range",
                     (int)tok_len(t), tok_text(p, t));
            return NULL;
        }
        return n;
    }
    case TK_STRING: {
        advance(p);
        AstNode *n = node(p, AST_STRING, t->span);
        if (!n) return NULL;
        n->str = unescape_quoted(p, t, &n->str_len);
        return n;
    }
    case TK_PARAM: {
        advance(p);
        int slot = param_slot(p, t);
        if (slot < 0) return NULL;
        AstNode *n = node(p, AST_PARAM, t->span);
        if (n) n->ival = slot;
        return n;
    }
    case TK_LPAREN: {
        advance(p);
        if (enter(p, t) < 0) return NULL;
        AstNode *e = parse_expr(p);
        leave(p);
        if (!e) return NULL;
        if (expect_close(p, TK_RPAREN, t) < 0) return NULL;
        return e;
    }
    case TK_IDENT: case TK_QIDENT: {
        if (t->kind == TK_IDENT) {
            if (word_is(p, t, "TRUE") || word_is(p, t, "FALSE")) {
                advance(p);
                AstNode *n = node(p, AST_BOOL, t->span);
                if (n) n->ival = word_is(p, t, "TRUE");
                return n;
            }
            if (word_is(p, t, "NULL")) {
                advance(p);
                return node(p, AST_NULL, t->span);
            }
            RxType ty;
            if (peek_at(p, 1)->kind == TK_STRING &&
                type_from_name(tok_text(p, t), tok_len(t), &ty) == 0 &&
                (ty == TY_TIMESTAMP || ty == TY_DATE || ty == TY_TIME || ty == TY_DURATION)) {
                advance(p);
                const Token *s = advance(p);
                AstNode *n = node(p, AST_TYPED, rx_span_join(t->span, s->span));
                if (!n) return NULL;
                n->lit_type = ty;
                n->str = unescape_quoted(p, s, &n->str_len);
                return n;
            }
        }
        RxType ty;
        if (t->kind == TK_IDENT && type_from_name(tok_text(p, t), tok_len(t), &ty) == 0 &&
            (ty == TY_TIMESTAMP || ty == TY_DATE || ty == TY_TIME || ty == TY_DURATION) &&
            (peek_at(p, 1)->kind == TK_INT || peek_at(p, 1)->kind == TK_FLOAT)) {
            syntax_error(p, peek_at(p, 1), "%s takes its value as a string, as in %s", type_name(ty),
                         ty == TY_TIMESTAMP ? "TIMESTAMP '2026-01-01T10:00:00Z'"
                         : ty == TY_DATE    ? "DATE '2026-01-01'"
                         : ty == TY_TIME    ? "TIME '10:00:00'"
                                            : "DURATION 'PT5M'");
            return NULL;
        }
        if (t->kind == TK_IDENT && word_is(p, t, "CAST") && peek_at(p, 1)->kind == TK_LPAREN)
            return parse_cast(p);
        if (t->kind == TK_IDENT && word_is(p, t, "CASE") && at_case_start(p)) return parse_case(p);
        if (t->kind == TK_IDENT && word_is(p, t, "CASE") && case_without_when(p)) {
            syntax_error(p, peek_at(p, 1), "WHEN expected after CASE: CASE WHEN condition THEN value … END");
            return NULL;
        }
        if (peek_at(p, 1)->kind == TK_LPAREN) {
            if (t->kind == TK_IDENT && syntax_is_function(tok_text(p, t), tok_len(t)))
                return parse_call(p);
            size_t k = after_group(p, 1);
            /* After '-', a name, an operator word or '(' may begin a relation: `π dept (D) -
             * π dept (E)` is a difference of relations, not a call of an unknown 'dept'. */
            const Token *next = k ? peek_at(p, k + 1) : NULL;
            bool rel_minus = k && peek_at(p, k)->kind == TK_MINUS &&
                             (is_name(next) || next->kind == TK_LPAREN ||
                              next->kind == TK_PI || next->kind == TK_SIGMA ||
                              next->kind == TK_RHO || next->kind == TK_DELTA ||
                              next->kind == TK_TAU || next->kind == TK_GAMMA);
            WinFn wf;
            if (k && continues_scalar(peek_at(p, k)->kind) && !rel_minus &&
                lang_window_from_name(tok_text(p, t), tok_len(t), &wf) == 0) {
                syntax_error(p, t, "the window function %s(...) can only stand in an ω list: "
                             "ω [PER keys] BY key; %s(...) → name (R)", lang_window_name(wf),
                             lang_window_name(wf));
                return NULL;
            }
            if (k && continues_scalar(peek_at(p, k)->kind) && !rel_minus) {
                syntax_error(p, t, "unknown function '%.*s' (docs/functions.md lists them)",
                             (int)tok_len(t), tok_text(p, t));
                const char *near = syntax_nearest_function(tok_text(p, t), tok_len(t));
                if (near) rx_error_hint(p->err, "did you mean %s(...)?", near);
                return NULL;
            }
        }
        advance(p);
        AstNode *n = node(p, AST_COLREF, t->span);
        if (!n) return NULL;
        if (peek_kind(p) == TK_DOT) {
            advance(p);
            const Token *c = peek(p);
            if (!is_name(c)) {
                expected(p, "column name after '.'");
                return NULL;
            }
            advance(p);
            n->qual = name_text(p, t);
            n->qual_span = t->span;
            n->name = name_text(p, c);
            n->name_span = c->span;
            n->span = rx_span_join(t->span, c->span);
            if (peek_kind(p) == TK_DOT) {
                syntax_error(p, peek(p), "a column is named by at most two parts, Relation.column");
                return NULL;
            }
        } else {
            n->name = name_text(p, t);
            n->name_span = t->span;
        }
        return n;
    }
    default:
        expected(p, "expression");
        return NULL;
    }
}

/* unary = ( '-' | '+' ) unary | primary */
static AstNode *parse_unary(Parser *p) {
    const Token *t = peek(p);
    if (t->kind == TK_MINUS || t->kind == TK_DIFF || t->kind == TK_PLUS) {
        advance(p);
        if (enter(p, t) < 0) return NULL;
        AstNode *e = parse_unary(p);
        leave(p);
        if (!e) return NULL;
        if (t->kind == TK_PLUS) return e;
        /* Fold a negative numeric literal so that -9223372036854775808 is representable. */
        if (e->kind == AST_INT && e->ival == INT64_MIN) {
            /* -9223372036854775808: the literal after the sign was read as INT64_MIN already */
            e->span = rx_span_join(t->span, e->span);
            return e;
        }
        if (e->kind == AST_FLOAT) {
            e->fval = -e->fval;
            e->span = rx_span_join(t->span, e->span);
            return e;
        }
        AstNode *n = node(p, AST_UNARY, rx_span_join(t->span, e->span));
        if (!n) return NULL;
        n->op = OP_NEG;
        n->a = e;
        return n;
    }
    if (t->kind == TK_INT && tok_len(t) == 19 &&
        memcmp(tok_text(p, t), "9223372036854775808", 19) == 0 && p->pos > 0 &&
        (p->t[p->pos - 1].kind == TK_MINUS || p->t[p->pos - 1].kind == TK_DIFF)) {
        /* |INT64_MIN| after a minus sign: the caller negates it. */
        advance(p);
        AstNode *n = node(p, AST_INT, t->span);
        if (n) n->ival = INT64_MIN;
        return n;
    }
    return parse_postfix(p, parse_primary(p));
}

/* mul = unary { ( '*' | '/' | '%' ) unary } */
static AstNode *parse_mul(Parser *p) {
    AstNode *l = parse_unary(p);
    while (l) {
        TokKind k = peek_kind(p);
        AstOp op = k == TK_STAR ? OP_MUL : k == TK_SLASH ? OP_DIV : k == TK_PERCENT ? OP_MOD : -1;
        if ((int)op < 0) break;
        advance(p);
        l = binary(p, op, l, parse_unary(p));
    }
    return l;
}

/* add = mul { ( '+' | '-' | '−' | '||' ) mul } */
static AstNode *parse_add(Parser *p) {
    AstNode *l = parse_mul(p);
    while (l) {
        TokKind k = peek_kind(p);
        AstOp op = k == TK_PLUS ? OP_ADD
                 : (k == TK_MINUS || k == TK_DIFF) ? OP_SUB
                 : k == TK_CONCAT ? OP_CONCAT : -1;
        if ((int)op < 0) break;
        advance(p);
        l = binary(p, op, l, parse_mul(p));
    }
    return l;
}

/* The comparison operator of token kind k, or -1 when k is no comparison. */
static int cmp_op(TokKind k) {
    switch (k) {
    case TK_EQ: return OP_EQ;
    case TK_NE: return OP_NE;
    case TK_LT: return OP_LT;
    case TK_LE: return OP_LE;
    case TK_GT: return OP_GT;
    case TK_GE: return OP_GE;
    default: return -1;
    }
}

/* A literal or a '(': what cannot follow an operand whose name is a keyword. */
static bool starts_value(const Token *t) {
    return t->kind == TK_INT || t->kind == TK_FLOAT || t->kind == TK_STRING || t->kind == TK_PARAM ||
           t->kind == TK_LPAREN;
}

/* cmp = add [ cmpop add | IS [NOT] NULL | [NOT] IN '(' expr { ',' expr } ')'
 *           | [NOT] BETWEEN add AND add | [NOT] ( LIKE | ILIKE ) add [ ESCAPE add ] ] */
static AstNode *parse_cmp(Parser *p) {
    AstNode *l = parse_add(p);
    if (!l) return NULL;
    bool neg = at_word(p, "NOT") && (word_is(p, peek_at(p, 1), "IN") || word_is(p, peek_at(p, 1), "BETWEEN") ||
                                     word_is(p, peek_at(p, 1), "LIKE") || word_is(p, peek_at(p, 1), "ILIKE"));
    if (!neg && at_word(p, "NOT") && starts_value(peek_at(p, 1))) {
        /* not a relation named NOT: a value or a group follows */
        advance(p);
        char found[64];
        describe(p, peek(p), found, sizeof found);
        syntax_error(p, peek(p), "IN or BETWEEN expected after NOT, found %s", found);
        return NULL;
    }
    if (neg) advance(p);
    if (at_word(p, "IN") && starts_value(peek_at(p, 1)) && peek_at(p, 1)->kind != TK_LPAREN) {
        syntax_error(p, peek_at(p, 1), "'(' expected after IN: x IN (v, …)");
        return NULL;
    }
    if (at_word(p, "IN") && peek_at(p, 1)->kind == TK_LPAREN) {
        advance(p);
        const Token *open = advance(p);
        AstNode *n = node(p, AST_IN, l->span);
        if (!n) return NULL;
        n->a = l;
        n->negated = neg;
        if (enter(p, open) < 0) return NULL;
        for (;;) {
            AstNode *e = parse_expr(p);
            if (!e) return NULL;
            ptrvec_push(p->a, &n->items, e);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
        leave(p);
        RxSpan close = peek(p)->span;
        if (expect_close(p, TK_RPAREN, open) < 0) return NULL;
        n->span = rx_span_join(l->span, close);
        return n;
    }
    if (at_word(p, "BETWEEN")) {
        advance(p);
        AstNode *lo = parse_add(p);
        if (!lo) return NULL;
        if (!at_word(p, "AND") && peek_kind(p) != TK_AND) {
            expected(p, "AND in BETWEEN ... AND ...");
            return NULL;
        }
        advance(p);
        AstNode *hi = parse_add(p);
        if (!hi) return NULL;
        AstNode *n = node(p, AST_BETWEEN, rx_span_join(l->span, hi->span));
        if (!n) return NULL;
        n->a = l;
        n->negated = neg;
        ptrvec_push(p->a, &n->items, lo);
        ptrvec_push(p->a, &n->items, hi);
        return n;
    }
    if (at_word(p, "LIKE") || at_word(p, "ILIKE")) {
        /* s [NOT] LIKE pattern [ESCAPE c]: the call like(s, pattern [, c]) */
        const Token *kw = advance(p);
        AstNode *pat = parse_add(p);
        if (!pat) return NULL;
        AstNode *n = node(p, AST_CALL, rx_span_join(l->span, pat->span));
        if (!n) return NULL;
        n->name = word_is(p, kw, "LIKE") ? "like" : "ilike";
        n->name_span = kw->span;
        ptrvec_push(p->a, &n->items, l);
        ptrvec_push(p->a, &n->items, pat);
        if (at_word(p, "ESCAPE")) {
            advance(p);
            AstNode *esc = parse_add(p);
            if (!esc) return NULL;
            ptrvec_push(p->a, &n->items, esc);
            n->span = rx_span_join(n->span, esc->span);
        }
        if (!neg) return n;
        AstNode *m = node(p, AST_UNARY, n->span);
        if (!m) return NULL;
        m->op = OP_NOT;
        m->a = n;
        return m;
    }
    if (neg) {
        expected(p, "IN, BETWEEN or LIKE after NOT");
        return NULL;
    }
    int op = cmp_op(peek_kind(p));
    if (op >= 0) {
        advance(p);
        l = binary(p, (AstOp)op, l, parse_add(p));
        if (l && cmp_op(peek_kind(p)) >= 0) {
            syntax_error(p, peek(p), "comparisons do not chain: write 'a < b ∧ b < c'");
            return NULL;
        }
        return l;
    }
    if (at_word(p, "IS")) {
        advance(p);
        bool is_not = false;
        if (at_word(p, "NOT")) {
            advance(p);
            is_not = true;
        }
        if (!at_word(p, "NULL")) {
            expected(p, "NULL after IS");
            return NULL;
        }
        const Token *nt = advance(p);
        AstNode *n = node(p, AST_ISNULL, rx_span_join(l->span, nt->span));
        if (!n) return NULL;
        n->a = l;
        n->negated = is_not;
        return n;
    }
    return l;
}

/* not = ( '¬' | NOT ) not | cmp */
static AstNode *parse_not(Parser *p) {
    const Token *t = peek(p);
    if (t->kind == TK_NOT || word_is(p, t, "NOT")) {
        advance(p);
        if (enter(p, t) < 0) return NULL;
        AstNode *e = parse_not(p);
        leave(p);
        if (!e) return NULL;
        AstNode *n = node(p, AST_UNARY, rx_span_join(t->span, e->span));
        if (!n) return NULL;
        n->op = OP_NOT;
        n->a = e;
        return n;
    }
    return parse_cmp(p);
}

/* and = not { ( '∧' | AND ) not } */
static AstNode *parse_and(Parser *p) {
    AstNode *l = parse_not(p);
    while (l && (peek_kind(p) == TK_AND || at_word(p, "AND"))) {
        advance(p);
        l = binary(p, OP_AND, l, parse_not(p));
    }
    return l;
}

/* expr = and { ( '∨' | OR ) and } */
static AstNode *parse_expr(Parser *p) {
    AstNode *l = parse_and(p);
    while (l && (peek_kind(p) == TK_OR || at_word(p, "OR"))) {
        advance(p);
        l = binary(p, OP_OR, l, parse_and(p));
    }
    return l;
}

/* ---- relational expressions ----------------------------------------------------------------- */

static AstNode *parse_rel(Parser *p);
static void bare_expression_error(Parser *p);
static AstNode *parse_rel_unary(Parser *p);
static AstNode *parse_iset_unary(Parser *p);

/* operand = '(' rel ')' | name [ alias ] */
static AstNode *parse_operand(Parser *p) {
    const Token *t = peek(p);
    if (t->kind == TK_LPAREN) {
        advance(p);
        if (enter(p, t) < 0) return NULL;
        AstNode *r = parse_rel(p);
        leave(p);
        if (!r) return NULL;
        if (expect_close(p, TK_RPAREN, t) < 0) return NULL;
        return r;
    }
    if (!is_name(t)) {
        expected(p, "relation (a name or a parenthesized expression)");
        return NULL;
    }
    if (t->kind == TK_IDENT && word_is(p, t, "SERIES") && peek_at(p, 1)->kind == TK_LPAREN) {
        /* series(from, to, step): a relation of one column x */
        advance(p);
        AstNode *call = node(p, AST_CALL, t->span);
        if (!call) return NULL;
        const Token *open = advance(p);
        if (enter(p, open) < 0) return NULL;
        call = parse_call_args(p, call, t, open);
        leave(p);
        if (!call) return NULL;
        if (call->items.n != 3) {
            rx_error(p->err, RX_ESYNTAX, p->src, call->span,
                     "series takes from, to and step: series(1, 10, 1), series(TIMESTAMP '…', "
                     "TIMESTAMP '…', DURATION 'PT1M'); given %zu", call->items.n);
            return NULL;
        }
        call->kind = AST_REL;
        call->name = "series";
        call->name_span = t->span;
        return call;
    }
    advance(p);
    AstNode *n = node(p, AST_REL, t->span);
    if (!n) return NULL;
    n->name = name_text(p, t);
    n->name_span = t->span;
    if (peek_kind(p) == TK_DOT && !is_name(peek_at(p, 1))) {
        advance(p);
        expected(p, "a table name after '.' (Connection.table)");
        return NULL;
    }
    if (peek_kind(p) == TK_DOT && is_name(peek_at(p, 1))) {
        /* Conn.table: a table of a database connection */
        advance(p);
        const Token *tt = advance(p);
        n->qual = n->name;
        n->qual_span = n->name_span;
        n->name = name_text(p, tt);
        n->name_span = tt->span;
        n->span = rx_span_join(t->span, tt->span);
    }
    const Token *al = peek(p);
    if (is_name(al) && !is_rel_binop_word(p, al) && peek_at(p, 1)->kind != TK_DOT) {
        advance(p);
        n->alias = name_text(p, al);
        n->alias_span = al->span;
        n->span = rx_span_join(t->span, al->span);
        const Token *more = peek(p);
        if (is_name(more) && !is_rel_binop_word(p, more)) {
            syntax_error(p, more, "a relation takes one alias: '%.*s' follows the alias '%.*s'",
                         (int)tok_len(more), tok_text(p, more), (int)tok_len(al), tok_text(p, al));
            return NULL;
        }
    }
    return n;
}

static bool starts_operand(Parser *p);

/* The index of the '(' that the ')' at token i closes, or SIZE_MAX. */
static size_t group_start(Parser *p, size_t i) {
    int depth = 0;
    for (size_t k = i + 1; k-- > 0;) {
        if (p->t[k].kind == TK_RPAREN) depth++;
        else if (p->t[k].kind == TK_LPAREN && --depth == 0) return k;
    }
    return SIZE_MAX;
}

/* A token after which an operand must follow: a scalar operator (words included). */
static bool wants_operand(Parser *p, const Token *t) {
    switch (t->kind) {
    case TK_PLUS: case TK_MINUS: case TK_DIFF: case TK_STAR: case TK_SLASH: case TK_PERCENT:
    case TK_CONCAT: case TK_EQ: case TK_NE: case TK_LT: case TK_LE: case TK_GT: case TK_GE:
    case TK_AND: case TK_OR: case TK_NOT:
        return true;
    default:
        return word_is(p, t, "AND") || word_is(p, t, "OR") || word_is(p, t, "NOT");
    }
}

/* An operator's operand is missing, and the last condition, item or key it parsed (from token
 * `from` on) ends with a parenthesized group: σ (T) reads (T) as the condition, π a + (T) as
 * the right side of '+'. That group was meant as the operand, and the error says what is
 * missing: `what` when the group is the whole condition or item, else that the scalar operator
 * before it has no right side (op names the relational operator). Returns -1 with that error,
 * 0 when it does not apply. */
static int operand_taken(Parser *p, size_t from, const char *op, const char *what) {
    if (starts_operand(p) || p->pos <= from || p->t[p->pos - 1].kind != TK_RPAREN) return 0;
    size_t g = group_start(p, p->pos - 1);
    if (g == SIZE_MAX || g < from) return 0;
    RxSpan span = rx_span_join(p->t[g].span, p->t[p->pos - 1].span);
    if (g == from) return rx_error(p->err, RX_ESYNTAX, p->src, span, "%s", what);
    const Token *before = &p->t[g - 1];
    if (!wants_operand(p, before)) return 0;
    uint32_t glen = span.end - span.start;
    return rx_error(p->err, RX_ESYNTAX, p->src, span, "'%.*s' has no right side: %.*s%s is the operand of %s",
                    (int)tok_len(before), tok_text(p, before), (int)(glen > 40 ? 40 : glen),
                    p->src->text + span.start, glen > 40 ? "…" : "", op);
}

/* Whether the current token is k or its spelled-out word (σ or SIGMA). */
static bool is_word_tok(Parser *p, TokKind k, const char *word) {
    return peek_kind(p) == k || at_word(p, word);
}

/* item = expr [ '→' name ] */
static AstNode *parse_item(Parser *p) {
    AstNode *e = parse_expr(p);
    if (!e) return NULL;
    AstNode *it = node(p, AST_ITEM, e->span);
    if (!it) return NULL;
    it->a = e;
    if (peek_kind(p) == TK_ARROW) {
        advance(p);
        const Token *nt = peek(p);
        if (!is_name(nt)) {
            expected(p, "a column name after '→'");
            return NULL;
        }
        advance(p);
        it->name = name_text(p, nt);
        it->name_span = nt->span;
        it->span = rx_span_join(e->span, nt->span);
    }
    return it;
}

/* sort_item = expr [ ASC | DESC ] [ NULLS ( FIRST | LAST ) ]; *last is the index of the last
 * item's first token. */
static int parse_sort_items(Parser *p, PtrVec *out, size_t *last) {
    for (;;) {
        *last = p->pos;
        AstNode *e = parse_expr(p);
        if (!e) return -1;
        AstNode *it = node(p, AST_ITEM, e->span);
        if (!it) return -1;
        it->a = e;
        if (at_word(p, "ASC")) {
            it->span = rx_span_join(it->span, advance(p)->span);
        } else if (at_word(p, "DESC")) {
            it->span = rx_span_join(it->span, advance(p)->span);
            it->desc = true;
        }
        if ((at_word(p, "ASC") || at_word(p, "DESC")) && peek_at(p, 1)->kind != TK_DOT)
            return syntax_error(p, peek(p), "a sort key takes ASC or DESC once");
        if (at_word(p, "NULLS")) {
            advance(p);
            if (at_word(p, "FIRST")) it->nulls = 1;
            else if (at_word(p, "LAST")) it->nulls = 2;
            else return expected(p, "FIRST or LAST after NULLS");
            it->span = rx_span_join(it->span, advance(p)->span);
        }
        ptrvec_push(p->a, out, it);
        if (peek_kind(p) != TK_COMMA) return 0;
        advance(p);
    }
}

/* TOP followed by what cannot be a row count, nor continue a relation named TOP: '(' (TOP (R)),
 * a fraction, a sign. True after recording the error. */
static bool top_count_missing(Parser *p) {
    const Token *n = peek_at(p, 1);
    const Token *after = peek_at(p, 2);
    if (n->kind == TK_FLOAT) {
        syntax_error(p, n, "TOP takes a whole number of rows, found '%.*s'", (int)tok_len(n), tok_text(p, n));
        return true;
    }
    if ((n->kind == TK_MINUS || n->kind == TK_DIFF) && (after->kind == TK_INT || after->kind == TK_FLOAT)) {
        RxSpan sp = rx_span_join(n->span, after->span);
        rx_error(p->err, RX_ESYNTAX, p->src, sp, "TOP takes a row count of 0 or more, found '%.*s'",
                 (int)(sp.end - sp.start > 40 ? 40 : sp.end - sp.start), p->src->text + sp.start);
        return true;
    }
    if (n->kind == TK_LPAREN) {
        syntax_error(p, n, "a row count expected after TOP, found '(': TOP n (R)");
        return true;
    }
    return false;
}

/* The endpoint columns of an interval-set operator: '(' colref { ',' colref } ')' with exactly
 * n_ends names, pushed onto n->items. -1 with the error. */
static int parse_iset_ends(Parser *p, AstNode *n, int n_ends, const char *op) {
    static const char *const what[4] = {"start column", "end column", "right start column", "right end column"};
    const Token *open = peek(p);
    if (expect(p, TK_LPAREN, n_ends == 2 ? "before the interval's two endpoint columns"
                                         : "before the four endpoint columns") < 0)
        return -1;
    for (int i = 0; i < n_ends; i++) {
        const Token *ct = peek(p);
        if (!is_name(ct)) return expected(p, n_ends == 4 && i < 2 ? (i ? "left end column" : "left start column") : what[i]);
        AstNode *c = parse_primary(p);
        if (!c) return -1;
        if (c->kind != AST_COLREF)
            return syntax_error(p, ct, "interval endpoints must be column names");
        ptrvec_push(p->a, &n->items, c);
        if (i < n_ends - 1) {
            if (peek_kind(p) != TK_COMMA)
                return expected(p, n_ends == 2 ? arena_printf(p->a, "',' (%s takes two endpoint columns: start, end)", op)
                                               : arena_printf(p->a, "',' (%s takes four endpoint columns: lStart, lEnd, rStart, rEnd)", op));
            advance(p);
        }
    }
    if (peek_kind(p) == TK_COMMA)
        return syntax_error(p, peek(p), n_ends == 2 ? "%s takes exactly two endpoint columns: start, end"
                                                    : "%s takes exactly four endpoint columns", op);
    return expect_close(p, TK_RPAREN, open);
}

/* iset_unary = ( 'PACK' | 'GAPS' | 'NORMALIZE' ) '(' colref ',' colref ')'
 *              [ 'BY' colref { ',' colref } ] [ 'WITH' item { ',' item } ] [ 'WITHIN' add 'TO' add ]
 *              operand
 * (WITH only after PACK, WITHIN only after GAPS) */
static AstNode *parse_iset_unary(Parser *p) {
    const Token *t = advance(p);
    AstNode *n = node(p, AST_ISET, t->span);
    if (!n) return NULL;
    n->iset_op = word_is(p, t, "PACK") ? ISET_PACK : word_is(p, t, "GAPS") ? ISET_GAPS : ISET_NORMALIZE;
    const char *op = n->iset_op == ISET_PACK ? "PACK" : n->iset_op == ISET_GAPS ? "GAPS" : "NORMALIZE";
    if (parse_iset_ends(p, n, 2, op) < 0) return NULL;
    if (at_word(p, "BY")) {
        advance(p);
        for (;;) {
            const Token *kt = peek(p);
            if (!is_name(kt)) {
                expected(p, "a key column after BY");
                return NULL;
            }
            AstNode *c = parse_primary(p);
            if (!c) return NULL;
            if (c->kind != AST_COLREF) {
                syntax_error(p, kt, "the keys after BY must be column names");
                return NULL;
            }
            ptrvec_push(p->a, &n->keys, c);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
    }
    if (at_word(p, "WITH") && peek_at(p, 1)->kind != TK_DOT) {
        const Token *wt = advance(p);
        if (n->iset_op != ISET_PACK) {
            syntax_error(p, wt, "WITH aggregates belong to PACK; %s has none", op);
            return NULL;
        }
        size_t from;
        for (;;) {
            from = p->pos;
            AstNode *it = parse_item(p);
            if (!it) return NULL;
            ptrvec_push(p->a, &n->items2, it);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
        if (operand_taken(p, from, "PACK", "an aggregate expected after WITH: PACK (s, e) WITH aggregate → name, … (R)") < 0)
            return NULL;
    }
    if (at_word(p, "WITHIN") && peek_at(p, 1)->kind != TK_DOT) {
        const Token *wt = advance(p);
        if (n->iset_op != ISET_GAPS) {
            syntax_error(p, wt, "WITHIN (an outer range) belongs to GAPS; %s has none", op);
            return NULL;
        }
        if (!(n->within = parse_add(p))) return NULL;
        if (!at_word(p, "TO")) {
            expected(p, "TO after the lower bound (WITHIN lo TO hi)");
            return NULL;
        }
        advance(p);
        if (!(n->within_hi = parse_add(p))) return NULL;
    }
    AstNode *in = parse_operand(p);
    if (!in) return NULL;
    n->b = in;
    n->span = rx_span_join(t->span, in->span);
    return n;
}

/* iset_binary = ( 'IMINUS' | 'IINTERSECT' | 'NORMALIZE' )
 *               '(' colref ',' colref ',' colref ',' colref ')' [ 'ON' expr ] rel_unary */
static AstNode *parse_iset_binary(Parser *p, AstNode *left, const Token *kw) {
    AstNode *n = node(p, AST_ISET, kw->span);
    if (!n) return NULL;
    n->a = left;
    n->iset_op = word_is(p, kw, "IMINUS") ? ISET_MINUS : word_is(p, kw, "IINTERSECT") ? ISET_INTERSECT : ISET_NORMALIZE;
    const char *op = n->iset_op == ISET_MINUS ? "IMINUS" : n->iset_op == ISET_INTERSECT ? "IINTERSECT" : "NORMALIZE";
    if (parse_iset_ends(p, n, 4, op) < 0) return NULL;
    if (at_word(p, "ON") && peek_at(p, 1)->kind != TK_DOT) {
        advance(p);
        if (!(n->cond = parse_expr(p))) return NULL;
    }
    AstNode *right = parse_rel_unary(p);
    if (!right) return NULL;
    n->b = right;
    n->span = rx_span_join(left->span, right->span);
    return n;
}



/* fill = 'FILL' colref 'EVERY' expr [ 'PER' expr { ',' expr } ] [ 'FROM' expr 'TO' expr ]
 *        [ 'USING' colref '=>' name { ',' colref '=>' name } ] rel_unary */
static AstNode *parse_fill(Parser *p) {
    const Token *t = advance(p);
    AstNode *result = node(p, AST_FILL, t->span);
    if (!result) return NULL;
    if (!(result->a = parse_expr(p))) return NULL;
    if (!at_word(p, "EVERY")) {
        expected(p, "EVERY and the bucket width: FILL ts EVERY DURATION 'PT1M' [PER keys] (R)");
        return NULL;
    }
    advance(p);
    if (!(result->within = parse_expr(p))) return NULL;
    if (at_word(p, "PER")) {
        advance(p);
        for (;;) {
            AstNode *k = parse_expr(p);
            if (!k) return NULL;
            ptrvec_push(p->a, &result->items, k);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
    }
    if (at_word(p, "FROM")) {
        advance(p);
        AstNode *f = parse_expr(p);
        if (!f) return NULL;
        if (!at_word(p, "TO")) {
            expected(p, "TO after FROM …: FILL ts EVERY w FROM TIMESTAMP '…' TO TIMESTAMP '…' (R)");
            return NULL;
        }
        advance(p);
        AstNode *to = parse_expr(p);
        if (!to) return NULL;
        ptrvec_push(p->a, &result->sort, f);
        ptrvec_push(p->a, &result->sort, to);
    }
    if (at_word(p, "USING")) {
        advance(p);
        for (;;) {
            AstNode *col = parse_expr(p);
            if (!col) return NULL;
            if (peek_kind(p) != TK_FATARROW) {
                expected(p, "'=>' and a rule after the column: USING price => previous, qty => linear");
                return NULL;
            }
            advance(p);
            const Token *rt = peek(p);
            if (rt->kind != TK_IDENT) {
                expected(p, "a fill rule (NULL, previous or linear)");
                return NULL;
            }
            advance(p);
            AstNode *it = node(p, AST_ITEM, rx_span_join(col->span, rt->span));
            if (!it) return NULL;
            it->a = col;
            it->name = name_text(p, rt);
            it->name_span = rt->span;
            ptrvec_push(p->a, &result->items2, it);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
    }
    AstNode *in = parse_operand(p);
    if (!in) return NULL;
    result->b = in;
    result->span = rx_span_join(t->span, in->span);
    return result;
}

/* window_item = expr [ 'OVER' ( INT 'ROWS' | expr ) 'PRECEDING' ] '→' name
 * A frame-less item is running: its frame is the partition's rows up to the current one. */
static AstNode *parse_window_item(Parser *p) {
    WinFn wf;
    const Token *t = peek(p);
    bool call = t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_LPAREN &&
                lang_window_from_name(tok_text(p, t), tok_len(t), &wf) == 0;
    AstNode *e = call ? parse_call(p) : parse_expr(p);
    if (!e) return NULL;
    AstNode *it = node(p, AST_ITEM, e->span);
    if (!it) return NULL;
    it->a = e;
    if (at_word(p, "OVER")) {
        const Token *ov = advance(p);
        if (peek_kind(p) == TK_INT && word_is(p, peek_at(p, 1), "ROWS")) {
            const Token *nt = advance(p);
            if (num_parse_int(tok_text(p, nt), tok_len(nt), &it->ival) < 0) {
                syntax_error(p, nt, "a row count that fits in 64 bits expected after OVER");
                return NULL;
            }
            advance(p);
            it->frame = 1;
        } else {
            if (!(it->within = parse_expr(p))) return NULL;
            it->frame = 2;
        }
        if (!at_word(p, "PRECEDING")) {
            expected(p, "PRECEDING after the frame (OVER n ROWS PRECEDING, OVER DURATION 'PT5M' "
                        "PRECEDING)");
            return NULL;
        }
        it->span = rx_span_join(it->span, advance(p)->span);
        (void)ov;
    }
    if (peek_kind(p) != TK_ARROW) {
        expected(p, "'→ name' after a window function: ω … ; lag(x) → prev (R)");
        return NULL;
    }
    advance(p);
    const Token *nt = peek(p);
    if (!is_name(nt)) {
        expected(p, "a column name after '→'");
        return NULL;
    }
    advance(p);
    it->name = name_text(p, nt);
    it->name_span = nt->span;
    it->span = rx_span_join(it->span, nt->span);
    return it;
}

/* window = ( 'ω' | 'omega' ) [ 'PER' expr { ',' expr } ] 'BY' sort_item { ',' sort_item } ';'
 *          window_item { ',' window_item } rel_unary */
static AstNode *parse_window(Parser *p) {
    const Token *t = advance(p);
    AstNode *result = node(p, AST_WINDOW, t->span);
    if (!result) return NULL;
    if (at_word(p, "PER")) {
        advance(p);
        for (;;) {
            AstNode *k = parse_expr(p);
            if (!k) return NULL;
            ptrvec_push(p->a, &result->items, k);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
    }
    if (!at_word(p, "BY")) {
        expected(p, "BY and the order of the rows: ω [PER keys] BY key; lag(x) → prev, … (R)");
        return NULL;
    }
    advance(p);
    size_t from;
    if (parse_sort_items(p, &result->sort, &from) < 0) return NULL;
    if (peek_kind(p) != TK_SEMI) {
        expected(p, "';' after the order of ω: ω [PER keys] BY key; lag(x) → prev, … (R)");
        return NULL;
    }
    advance(p);
    for (;;) {
        from = p->pos;
        AstNode *it = parse_window_item(p);
        if (!it) return NULL;
        ptrvec_push(p->a, &result->items2, it);
        if (peek_kind(p) != TK_COMMA) break;
        advance(p);
    }
    AstNode *in = parse_operand(p);
    if (!in) return NULL;
    result->b = in;
    result->span = rx_span_join(t->span, in->span);
    return result;
}

/* rel_unary = ( 'σ' | SIGMA ) expr operand
 *           | ( 'π' | PI ) item { ',' item } operand
 *           | ( 'ρ' | RHO ) ( name | name '→' name { ',' name '→' name } ) operand
 *           | operand */
static AstNode *parse_rel_unary(Parser *p) {
    const Token *t = peek(p);
    AstNode *result = NULL;
    if (is_word_tok(p, TK_SIGMA, "SIGMA") && !(t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_DOT)) {
        advance(p);
        size_t from = p->pos;
        AstNode *cond = parse_expr(p);
        if (!cond) goto out;
        if (operand_taken(p, from, "σ", "a condition expected before the operand of σ: σ condition (R)") < 0)
            goto out;
        AstNode *in = parse_operand(p);
        if (!in) goto out;
        result = node(p, AST_SELECT, rx_span_join(t->span, in->span));
        if (result) {
            result->a = cond;
            result->b = in;
        }
    } else if (is_word_tok(p, TK_PI, "PI") && !(t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_DOT)) {
        advance(p);
        result = node(p, AST_PROJECT, t->span);
        if (!result) goto out;
        size_t from = p->pos;
        for (;;) {
            from = p->pos;
            AstNode *it = parse_item(p);
            if (!it) {
                result = NULL;
                goto out;
            }
            ptrvec_push(p->a, &result->items, it);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
        if (operand_taken(p, from, "π", result->items.n > 1
                ? "an item expected after ',': π item, … (R) has no ',' before the operand"
                : "an item expected before the operand of π: π item, … (R)") < 0) {
            result = NULL;
            goto out;
        }
        AstNode *in = parse_operand(p);
        if (!in) {
            result = NULL;
            goto out;
        }
        result->b = in;
        result->span = rx_span_join(t->span, in->span);
    } else if (is_word_tok(p, TK_RHO, "RHO") && !(t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_DOT)) {
        advance(p);
        const Token *nt = peek(p);
        if (!is_name(nt)) {
            expected(p, "a new name after 'ρ'");
            goto out;
        }
        if (peek_at(p, 1)->kind == TK_ARROW || peek_at(p, 1)->kind == TK_DOT) {
            result = node(p, AST_RENAME_COLS, t->span);
            if (!result) goto out;
            for (;;) {
                const Token *old = peek(p);
                if (!is_name(old)) {
                    expected(p, "a column name");
                    result = NULL;
                    goto out;
                }
                AstNode *col = parse_primary(p);
                if (!col || col->kind != AST_COLREF) {
                    if (col) syntax_error(p, old, "a column name expected before '→'");
                    result = NULL;
                    goto out;
                }
                if (expect(p, TK_ARROW, "after the column to rename") < 0) {
                    result = NULL;
                    goto out;
                }
                const Token *nn = peek(p);
                if (!is_name(nn)) {
                    expected(p, "a new column name after '→'");
                    result = NULL;
                    goto out;
                }
                advance(p);
                AstNode *it = node(p, AST_ITEM, rx_span_join(col->span, nn->span));
                if (!it) {
                    result = NULL;
                    goto out;
                }
                it->a = col;
                it->name = name_text(p, nn);
                it->name_span = nn->span;
                ptrvec_push(p->a, &result->items, it);
                if (peek_kind(p) != TK_COMMA) break;
                advance(p);
            }
        } else {
            advance(p);
            if (is_name(peek(p)) && peek_at(p, 1)->kind == TK_LPAREN) {
                syntax_error(p, peek(p), "'→' expected between the old and the new column name "
                             "(ρ a → b (R)); a relation is renamed with one name (ρ Name (R))");
                goto out;
            }
            result = node(p, AST_RENAME, t->span);
            if (!result) goto out;
            result->name = name_text(p, nt);
            result->name_span = nt->span;
        }
        AstNode *in = parse_operand(p);
        if (!in) {
            result = NULL;
            goto out;
        }
        result->b = in;
        result->span = rx_span_join(t->span, in->span);
    } else if (is_word_tok(p, TK_DELTA, "DELTA") && !(t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_DOT)) {
        advance(p);
        AstNode *in = parse_operand(p);
        if (!in) goto out;
        result = node(p, AST_DISTINCT, rx_span_join(t->span, in->span));
        if (result) result->b = in;
    } else if (is_word_tok(p, TK_TAU, "TAU") && !(t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_DOT)) {
        advance(p);
        result = node(p, AST_SORT, t->span);
        size_t from;
        if (!result || parse_sort_items(p, &result->items, &from) < 0) {
            result = NULL;
            goto out;
        }
        if (operand_taken(p, from, "τ", result->items.n > 1
                ? "a sort key expected after ',': τ key, … (R) has no ',' before the operand"
                : "a sort key expected before the operand of τ: τ key [ASC|DESC], … (R)") < 0) {
            result = NULL;
            goto out;
        }
        AstNode *in = parse_operand(p);
        if (!in) {
            result = NULL;
            goto out;
        }
        result->b = in;
        result->span = rx_span_join(t->span, in->span);
    } else if (at_word(p, "TOP") && top_count_missing(p)) {
        goto out;
    } else if (at_word(p, "TOP") && peek_at(p, 1)->kind == TK_INT) {
        advance(p);
        const Token *nt = advance(p);
        result = node(p, AST_TOP, t->span);
        if (!result) goto out;
        if (num_parse_int(tok_text(p, nt), tok_len(nt), &result->ival) < 0) {
            syntax_error(p, nt, "TOP takes a row count that fits in 64 bits");
            result = NULL;
            goto out;
        }
        size_t from = p->pos;
        const char *missing = NULL;
        if (at_word(p, "PER")) {
            advance(p);
            for (;;) {
                from = p->pos;
                AstNode *k = parse_expr(p);
                if (!k) {
                    result = NULL;
                    goto out;
                }
                ptrvec_push(p->a, &result->items, k);
                if (peek_kind(p) != TK_COMMA) break;
                advance(p);
            }
            missing = result->items.n > 1
                ? "a key expected after ',': TOP n PER key, … (R) has no ',' before the operand"
                : "a key expected after PER: TOP n PER key, … (R)";
        }
        if (at_word(p, "BY")) {
            advance(p);
            if (parse_sort_items(p, &result->items2, &from) < 0) {
                result = NULL;
                goto out;
            }
            missing = result->items2.n > 1
                ? "a sort key expected after ',': TOP n BY key, … (R) has no ',' before the operand"
                : "a sort key expected after BY: TOP n BY key [ASC|DESC], … (R)";
        }
        if (missing && operand_taken(p, from, "TOP", missing) < 0) {
            result = NULL;
            goto out;
        }
        AstNode *in = parse_operand(p);
        if (!in) {
            result = NULL;
            goto out;
        }
        result->b = in;
        result->span = rx_span_join(t->span, in->span);
    } else if (is_word_tok(p, TK_GAMMA, "GAMMA") && !(t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_DOT)) {
        advance(p);
        result = node(p, AST_GROUP, t->span);
        if (!result) goto out;
        PtrVec first = {0};
        size_t from = p->pos;
        const char *missing = NULL;
        for (;;) {
            from = p->pos;
            AstNode *it = parse_item(p);
            if (!it) {
                result = NULL;
                goto out;
            }
            ptrvec_push(p->a, &first, it);
            if (peek_kind(p) != TK_COMMA) break;
            advance(p);
        }
        if (peek_kind(p) == TK_SEMI) {
            advance(p);
            result->items = first;
            for (;;) {
                from = p->pos;
                AstNode *it = parse_item(p);
                if (!it) {
                    result = NULL;
                    goto out;
                }
                ptrvec_push(p->a, &result->items2, it);
                if (peek_kind(p) != TK_COMMA) break;
                advance(p);
            }
            missing = result->items2.n > 1
                ? "an aggregate expected after ',': γ keys; aggregate, … (R) has no ',' before the operand"
                : "an aggregate expected after ';': γ keys; aggregate → name, … (R)";
        } else {
            result->items2 = first;
            missing = first.n > 1
                ? "an aggregate expected after ',': γ aggregate, … (R) has no ',' before the operand"
                : "an aggregate expected before the operand of γ: γ [keys;] aggregate → name, … (R)";
        }
        if (operand_taken(p, from, "γ", missing) < 0) {
            result = NULL;
            goto out;
        }
        AstNode *in = parse_operand(p);
        if (!in) {
            result = NULL;
            goto out;
        }
        result->b = in;
        result->span = rx_span_join(t->span, in->span);
    } else if (is_word_tok(p, TK_OMEGA, "OMEGA") && !(t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_DOT)) {
        result = parse_window(p);
    } else if (at_word(p, "FILL") && is_name(peek_at(p, 1)) &&
               (word_is(p, peek_at(p, 2), "EVERY") ||
                (peek_at(p, 2)->kind == TK_DOT && word_is(p, peek_at(p, 4), "EVERY")))) {
        result = parse_fill(p);
    } else if ((at_word(p, "PACK") || at_word(p, "GAPS") || at_word(p, "NORMALIZE")) &&
               peek_at(p, 1)->kind == TK_LPAREN) {
        result = parse_iset_unary(p);
    } else {
        result = parse_operand(p);
    }
out:
    return result;
}

/* relation_set = '(' relation { '|' relation } ')': the relations of IJOIN (R1 | R2), into *set
 * (at the '('; past the ')' after). A relation named twice is an error at its second mention.
 * 0, or -1 with the error. */
static int parse_relation_set(Parser *p, IjRelSet *set) {
    const Token *open = advance(p);
    *set = 0;
    for (;;) {
        const Token *t = peek(p);
        IjRelation r;
        if (t->kind != TK_IDENT || ij_relation_from_name(tok_text(p, t), tok_len(t), &r) < 0)
            return expected(p, "an interval relation of the set (INTERSECTS, PRECEDES, PRECEDED_BY, "
                               "MEETS, MET_BY, OVERLAPS, OVERLAPPED_BY, STARTS, STARTED_BY, DURING, "
                               "CONTAINS, FINISHES, FINISHED_BY, EQUALS, COVERS, COVERED_BY)");
        if (*set & IJ_SET_OF(r))
            return syntax_error(p, t, "%s is named twice in the set of relations", ij_relation_name(r));
        *set |= IJ_SET_OF(r);
        advance(p);
        if (peek_kind(p) != TK_BAR) break;
        advance(p);
    }
    if (peek_kind(p) != TK_RPAREN)
        return expected(p, "'|' (between two relations) or ')' (closing the set)");
    return expect_close(p, TK_RPAREN, open);
}

/* ijoin = 'IJOIN' [ 'LEFT' | 'SEMI' | 'ANTI' ]
 *         ( ( relation | relation_set ) '(' colref ',' colref ',' colref ',' colref ')'
 *         | 'AT' '(' colref ',' colref ',' colref ')' ) rel_unary */
static AstNode *parse_ijoin(Parser *p, AstNode *left, const Token *kw) {
    int kind = JOIN_INNER;
    const Token *kt = peek(p);
    if (at_word(p, "LEFT") || at_word(p, "SEMI") || at_word(p, "ANTI")) {
        kind = at_word(p, "LEFT") ? JOIN_LEFT : at_word(p, "SEMI") ? JOIN_SEMI : JOIN_ANTI;
        advance(p);
    }
    const Token *rt = peek(p);
    IjRelation rel = IJ_INTERSECTS;
    IjRelSet set = 0;
    const Token *set_open = rt, *first = peek_at(p, 1);
    IjRelation first_rel;
    /* '(' opens a set when a relation, or a word followed by '|' or ')', follows; otherwise the
     * relation was left out before the endpoints: IJOIN (L.s, ...) */
    if (rt->kind == TK_LPAREN && first->kind == TK_IDENT &&
        (ij_relation_from_name(tok_text(p, first), tok_len(first), &first_rel) == 0 ||
         peek_at(p, 2)->kind == TK_BAR || peek_at(p, 2)->kind == TK_RPAREN)) {
        if (parse_relation_set(p, &set) < 0) return NULL;
        rel = ij_set_relation(set);
        rt = &p->t[p->pos - 1];
    }
    bool point = !set && rt->kind == TK_IDENT && word_is(p, rt, "AT");
    if (!set && !point && (rt->kind != TK_IDENT || ij_relation_from_name(tok_text(p, rt), tok_len(rt), &rel) < 0)) {
        expected(p, kind == JOIN_INNER && kt == rt
                        ? "an interval relation (INTERSECTS, PRECEDES, PRECEDED_BY, MEETS, MET_BY, "
                          "OVERLAPS, OVERLAPPED_BY, STARTS, STARTED_BY, DURING, CONTAINS, FINISHES, "
                          "FINISHED_BY, EQUALS, COVERS, COVERED_BY), AT for a point in an interval, or LEFT, SEMI or ANTI"
                        : "an interval relation (INTERSECTS, PRECEDES, PRECEDED_BY, MEETS, MET_BY, "
                          "OVERLAPS, OVERLAPPED_BY, STARTS, STARTED_BY, DURING, CONTAINS, FINISHES, "
                          "FINISHED_BY, EQUALS, COVERS, COVERED_BY) or AT for a point in an interval");
        return NULL;
    }
    if (!set) advance(p);
    AstNode *n = node(p, AST_IJOIN, kw->span);
    if (!n) return NULL;
    n->a = left;
    n->relation = rel;
    n->relset = rel == IJ_N_RELATIONS ? set : 0;
    n->relation_span = set ? rx_span_join(set_open->span, rt->span) : rt->span;
    n->join_kind = kind;
    n->point = point;
    int n_ends = point ? 3 : 4;
    const Token *open = peek(p);
    if (expect(p, TK_LPAREN, point ? "before the three columns: the left point, the right start and end"
                                   : "before the four endpoint columns") < 0)
        return NULL;
    for (int i = 0; i < n_ends; i++) {
        const Token *ct = peek(p);
        int what = point && i > 0 ? i + 1 : i;
        if (!is_name(ct)) {
            expected(p, point && i == 0 ? "left point column"
                      : what == 0 ? "left start column" : what == 1 ? "left end column"
                      : what == 2 ? "right start column" : "right end column");
            return NULL;
        }
        AstNode *c = parse_primary(p);
        if (!c) return NULL;
        if (c->kind != AST_COLREF) {
            syntax_error(p, ct, point ? "the point and the interval's endpoints must be column names"
                                      : "interval endpoints must be column names");
            return NULL;
        }
        ptrvec_push(p->a, &n->items, c);
        if (i < n_ends - 1) {
            if (peek_kind(p) != TK_COMMA) {
                expected(p, point ? "',' (IJOIN AT takes three columns: lPoint, rStart, rEnd)"
                                  : "',' (IJOIN takes four endpoint columns: lStart, lEnd, rStart, rEnd)");
                return NULL;
            }
            advance(p);
        }
    }
    if (peek_kind(p) == TK_COMMA) {
        syntax_error(p, peek(p), point ? "IJOIN AT takes exactly three columns: lPoint, rStart, rEnd"
                                       : "IJOIN takes exactly four endpoint columns");
        return NULL;
    }
    if (expect_close(p, TK_RPAREN, open) < 0) return NULL;
    AstNode *right = parse_rel_unary(p);
    if (!right) return NULL;
    n->b = right;
    n->span = rx_span_join(left->span, right->span);
    return n;
}

/* asof = 'ASOF' { 'INNER' | 'NEAREST' | integer } expr [ 'WITHIN' add ]
 *        [ 'TIES' '(' ( 'FIRST' | 'LAST' | 'ALL' ) ')' ] rel_unary */
static AstNode *parse_asof(Parser *p, AstNode *left, const Token *kw) {
    AstNode *n = node(p, AST_ASOF, kw->span);
    if (!n) return NULL;
    n->a = left;
    for (;;) {
        if (peek_kind(p) == TK_INT) {
            const Token *kt = peek(p);
            if (n->asof_k) {
                syntax_error(p, kt, "the number of rows is already given for this ASOF");
                return NULL;
            }
            AstNode *kn = parse_primary(p);
            if (!kn) return NULL;
            if (kn->kind != AST_INT || kn->ival < 1 || kn->ival > 1000000) {
                syntax_error(p, kt, "ASOF k takes the number of nearest rows, from 1 to 1000000");
                return NULL;
            }
            n->asof_k = kn->ival;
            n->asof_k_span = kt->span;
            continue;
        }
        bool *flag = at_word(p, "INNER") ? &n->inner : at_word(p, "NEAREST") ? &n->nearest : NULL;
        if (!flag || peek_at(p, 1)->kind == TK_DOT) break;
        if (*flag) {
            syntax_error(p, peek(p), "%s is already given for this ASOF", flag == &n->inner ? "INNER" : "NEAREST");
            return NULL;
        }
        advance(p);
        *flag = true;
    }
    n->cond = parse_expr(p);
    if (!n->cond) return NULL;
    if (n->cond->kind == AST_COLREF && !starts_operand(p) && !at_word(p, "WITHIN") && !at_word(p, "TIES")) {
        syntax_error(p, &(Token){TK_IDENT, n->cond->span},
                     "a condition expected before the right operand of ASOF: L ASOF [INNER] condition R");
        return NULL;
    }
    if (at_word(p, "WITHIN")) {
        advance(p);
        n->within = parse_add(p);
        if (!n->within) return NULL;
        if (n->within->kind == AST_COLREF && !starts_operand(p) && !at_word(p, "TIES")) {
            syntax_error(p, &(Token){TK_IDENT, n->within->span},
                         "a bound expected after WITHIN, before the right operand: WITHIN DURATION 'PT5M' R");
            return NULL;
        }
    }
    if (at_word(p, "TIES") && (word_is(p, peek_at(p, 1), "FIRST") || word_is(p, peek_at(p, 1), "LAST") ||
                               word_is(p, peek_at(p, 1), "ALL"))) {
        syntax_error(p, peek_at(p, 1), "'(' expected after TIES: TIES (FIRST), TIES (LAST) or TIES (ALL)");
        return NULL;
    }
    if (at_word(p, "TIES") && peek_at(p, 1)->kind == TK_LPAREN) {
        advance(p);
        const Token *open = advance(p);
        if (at_word(p, "FIRST")) n->ties = 1;
        else if (at_word(p, "LAST")) n->ties = 2;
        else if (at_word(p, "ALL")) n->ties = 3;
        else {
            expected(p, "FIRST, LAST or ALL in TIES(...)");
            return NULL;
        }
        advance(p);
        if (expect_close(p, TK_RPAREN, open) < 0) return NULL;
    }
    if (at_word(p, "WITHIN")) {
        syntax_error(p, peek(p), "WITHIN comes before TIES(...)");
        return NULL;
    }
    AstNode *right = parse_rel_unary(p);
    if (!right) return NULL;
    n->b = right;
    n->span = rx_span_join(left->span, right->span);
    return n;
}

/* wjoin = 'WJOIN' [ 'PREVAILING' ] expr 'WITH' item { ',' item } rel_unary
 * The condition's form (keys and one BETWEEN) is checked by the analysis. */
static AstNode *parse_wjoin(Parser *p, AstNode *left, const Token *kw) {
    AstNode *n = node(p, AST_WJOIN, kw->span);
    if (!n) return NULL;
    n->a = left;
    if (at_word(p, "PREVAILING") && peek_at(p, 1)->kind != TK_DOT) {
        advance(p);
        n->prevailing = true;
    }
    n->cond = parse_expr(p);
    if (!n->cond) return NULL;
    if (!at_word(p, "WITH")) {
        expected(p, "WITH and the aggregates after the WJOIN condition: L WJOIN cond WITH count(*) → n, … R");
        return NULL;
    }
    advance(p);
    size_t from;
    for (;;) {
        from = p->pos;
        AstNode *it = parse_item(p);
        if (!it) return NULL;
        ptrvec_push(p->a, &n->items2, it);
        if (peek_kind(p) != TK_COMMA) break;
        advance(p);
    }
    if (operand_taken(p, from, "WJOIN", "an aggregate expected after WITH: L WJOIN cond WITH aggregate → name, … R") < 0)
        return NULL;
    AstNode *right = parse_rel_unary(p);
    if (!right) return NULL;
    n->b = right;
    n->span = rx_span_join(left->span, right->span);
    return n;
}

/* The join kind a token or word names, or -1. */
static int join_kind_at(Parser *p, const Token *t) {
    switch (t->kind) {
    case TK_JOIN: return JOIN_INNER;
    case TK_CROSS: return JOIN_CROSS;
    case TK_LJOIN: return JOIN_LEFT;
    case TK_RJOIN: return JOIN_RIGHT;
    case TK_FJOIN: return JOIN_FULL;
    case TK_LSEMI: return JOIN_SEMI;
    case TK_RSEMI: return JOIN_RSEMI;
    case TK_ANTI: return JOIN_ANTI;
    default: break;
    }
    if (word_is(p, t, "JOIN")) return JOIN_INNER;
    if (word_is(p, t, "CROSS")) return JOIN_CROSS;
    if (word_is(p, t, "LJOIN")) return JOIN_LEFT;
    if (word_is(p, t, "RJOIN")) return JOIN_RIGHT;
    if (word_is(p, t, "FJOIN")) return JOIN_FULL;
    if (word_is(p, t, "SEMIJOIN")) return JOIN_SEMI;
    if (word_is(p, t, "RSEMIJOIN")) return JOIN_RSEMI;
    if (word_is(p, t, "ANTIJOIN")) return JOIN_ANTI;
    return -1;
}

/* The set operation token t writes (∪ UNION, ∩ INTERSECT, − - EXCEPT MINUS), or -1. */
static int set_op_at(Parser *p, const Token *t) {
    if (t->kind == TK_UNION || word_is(p, t, "UNION")) return SET_UNION;
    if (t->kind == TK_INTERSECT || word_is(p, t, "INTERSECT")) return SET_INTERSECT;
    if (t->kind == TK_DIFF || t->kind == TK_MINUS || word_is(p, t, "EXCEPT") || word_is(p, t, "MINUS"))
        return SET_EXCEPT;
    return -1;
}

/* Runs before the depth check, on a condition that may be a chain of any length: it loops down
 * left operands (the chain) and recurses only into right ones, which nest through parentheses
 * and precedence levels, both bounded. */
static bool has_comparison(const AstNode *n) {
    for (; n; n = n->a) {
        switch (n->kind) {
        case AST_BINARY:
            if (n->op >= OP_EQ && n->op <= OP_GE) return true;
            if (has_comparison(n->b)) return true;
            break;
        case AST_UNARY: break;
        case AST_ISNULL: case AST_IN: case AST_BETWEEN: return true;
        default: return false;
        }
    }
    return false;
}

/* True if a comparison stands outside parentheses between token `from` and byte offset `end`. */
static bool comparison_before(Parser *p, size_t from, uint32_t end) {
    int depth = 0;
    for (size_t i = from; i < p->n && p->t[i].span.start < end; i++) {
        TokKind k = p->t[i].kind;
        if (k == TK_LPAREN) depth++;
        else if (k == TK_RPAREN) depth--;
        else if (depth == 0 && k >= TK_EQ && k <= TK_GE) return true;
    }
    return false;
}

/* Whether the current token can begin a relational operand: a name, '(' or a unary
 * operator. */
static bool starts_operand(Parser *p) {
    const Token *t = peek(p);
    return t->kind == TK_LPAREN || is_name(t) || t->kind == TK_SIGMA || t->kind == TK_PI ||
           t->kind == TK_RHO || t->kind == TK_DELTA || t->kind == TK_TAU || t->kind == TK_GAMMA;
}

/* join = joinop [ expr ] rel_unary : the condition is there when what follows the operator
 * parses as an expression that contains a comparison and is followed by an operand (docs/design.md:
 * a bare boolean column is written flag = TRUE). */
static AstNode *parse_join(Parser *p, AstNode *left, const Token *kw, int kind) {
    AstNode *n = node(p, AST_JOIN, kw->span);
    if (!n) return NULL;
    n->a = left;
    n->join_kind = kind;
    size_t save = p->pos;
    int depth = p->depth;
    RxError *real = p->err, scratch;
    rx_error_clear(&scratch);
    p->err = &scratch;
    AstNode *cond = parse_expr(p);
    p->err = real;
    bool operand_next = starts_operand(p);
    if (kind == JOIN_CROSS) {
        if (cond && has_comparison(cond) && operand_next) {
            syntax_error(p, &(Token){TK_IDENT, cond->span},
                         "× takes no condition; a join with one is L ⨝ condition R");
            return NULL;
        }
        p->pos = save;
        p->depth = depth;
    } else if (cond && has_comparison(cond) && operand_next) {
        n->cond = cond;
    } else if (cond && !has_comparison(cond) && cond->kind != AST_COLREF && operand_next) {
        syntax_error(p, &(Token){TK_IDENT, cond->span},
                     "a join condition needs a comparison (for a BOOL column write flag = TRUE)");
        return NULL;
    } else if (cond && has_comparison(cond)) {
        /* a condition with no right operand after it: the operand may have been read as the
         * last part of the condition, L ⨝ a = (R) */
        const char *op = arena_printf(p->a, "%.*s", (int)tok_len(kw), tok_text(p, kw));
        if (operand_taken(p, save, op ? op : "the join",
                          "the join's right operand expected after its condition") < 0)
            return NULL;
        char found[64];
        describe(p, peek(p), found, sizeof found);
        syntax_error(p, peek(p), "the join's right operand expected after its condition, found %s", found);
        return NULL;
    } else if (!cond && comparison_before(p, save, scratch.span.start)) {
        /* a condition that does not parse, L ⨝ a = R: its own error is the one to report */
        *real = scratch;
        return NULL;
    } else {
        p->pos = save;
        p->depth = depth;
    }
    AstNode *right = parse_rel_unary(p);
    if (!right) return NULL;
    n->b = right;
    n->span = rx_span_join(left->span, right->span);
    return n;
}

/* rel = rel_unary { ijoin | asof | wjoin | join | setop rel_unary } */
static AstNode *parse_rel(Parser *p) {
    AstNode *l = parse_rel_unary(p);
    while (l) {
        const Token *t = peek(p);
        if (word_is(p, t, "IJOIN")) {
            advance(p);
            l = parse_ijoin(p, l, t);
        } else if (word_is(p, t, "ASOF")) {
            advance(p);
            l = parse_asof(p, l, t);
        } else if (word_is(p, t, "WJOIN")) {
            advance(p);
            l = parse_wjoin(p, l, t);
        } else if (word_is(p, t, "IMINUS") || word_is(p, t, "IINTERSECT") ||
                   (word_is(p, t, "NORMALIZE") && peek_at(p, 1)->kind == TK_LPAREN)) {
            advance(p);
            l = parse_iset_binary(p, l, t);
        } else if (join_kind_at(p, t) >= 0) {
            advance(p);
            l = parse_join(p, l, t, join_kind_at(p, t));
        } else if (set_op_at(p, t) >= 0) {
            advance(p);
            AstNode *r = parse_rel_unary(p);
            if (!r) {
                l = NULL;
                break;
            }
            AstNode *n = node(p, AST_SETOP, rx_span_join(l->span, r->span));
            if (n) {
                n->set_op = set_op_at(p, t);
                n->a = l;
                n->b = r;
            }
            l = n;
        } else {
            break;
        }
    }
    return l;
}

/* ---- inline tables -------------------------------------------------------------------------- */

typedef struct {
    Cell *cells;
    size_t n, cap;
} CellVec;

/* Appends c to v, growing it in the arena; 0, or -1 with RX_ENOMEM. */
static int push_cell(Parser *p, CellVec *v, Cell c) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 32;
        Cell *nc = arena_alloc(p->a, cap * sizeof *nc);
        if (!nc) return rx_error(p->err, RX_ENOMEM, NULL, c.span, "out of memory");
        if (v->n) memcpy(nc, v->cells, v->n * sizeof *nc);
        v->cells = nc;
        v->cap = cap;
    }
    v->cells[v->n++] = c;
    return 0;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Splits one row line [ls, le) into cells. */
static int split_row(Parser *p, size_t ls, size_t le, CellVec *out) {
    const char *s = p->src->text;
    size_t i = ls;
    while (i < le && is_blank(s[i])) i++;
    /* i is at '|' (checked by the caller) */
    i++;
    for (;;) {
        size_t cs = i;
        /* find the next unescaped '|' (a quoted cell may contain '|') */
        bool in_quote = false;
        size_t j = i;
        while (j < le) {
            if (s[j] == '\'' ) {
                /* a quote starts a quoted cell only at the cell's first non-blank position */
                size_t k = cs;
                while (k < j && is_blank(s[k])) k++;
                if (k == j || in_quote) {
                    if (in_quote && j + 1 < le && s[j + 1] == '\'') { j += 2; continue; }
                    in_quote = !in_quote;
                }
            } else if (s[j] == '\\' && j + 1 < le && s[j + 1] == '|' && !in_quote) {
                j += 2;
                continue;
            } else if (s[j] == '|' && !in_quote) {
                break;
            }
            j++;
        }
        if (j >= le) {
            /* after the last '|': only blanks or a -- comment may follow */
            size_t k = cs;
            while (k < le && is_blank(s[k])) k++;
            if (k < le && !(k + 1 < le && s[k] == '-' && s[k + 1] == '-'))
                return rx_error(p->err, RX_ESYNTAX, p->src, rx_span((uint32_t)k, (uint32_t)le),
                                in_quote ? "unterminated quoted cell"
                                         : "a table row must end with '|' (text after the "
                                           "last '|' must be a -- comment)");
            return 0;
        }
        size_t a = cs, b = j;
        while (a < b && is_blank(s[a])) a++;
        while (b > a && is_blank(s[b - 1])) b--;
        Cell c = {0};
        c.span = rx_span((uint32_t)a, (uint32_t)(b > a ? b : a + 1));
        if (b > a && s[a] == '\'' && b - a >= 2 && s[b - 1] == '\'') {
            char *t = arena_alloc(p->a, b - a);
            if (!t) return rx_error(p->err, RX_ENOMEM, NULL, c.span, "out of memory");
            size_t n = 0;
            for (size_t k = a + 1; k < b - 1; k++) {
                t[n++] = s[k];
                if (s[k] == '\'') k++;
            }
            c.text = t;
            c.len = n;
            c.quoted = true;
        } else if (b > a) {
            char *t = arena_alloc(p->a, b - a + 1);
            if (!t) return rx_error(p->err, RX_ENOMEM, NULL, c.span, "out of memory");
            size_t n = 0;
            for (size_t k = a; k < b; k++) {
                if (s[k] == '\\' && k + 1 < b && s[k + 1] == '|') k++;
                t[n++] = s[k];
            }
            t[n] = 0;
            c.text = t;
            c.len = n;
            c.null_word = n == 4 && (t[0] | 0x20) == 'n' && (t[1] | 0x20) == 'u' &&
                          (t[2] | 0x20) == 'l' && (t[3] | 0x20) == 'l';
        }
        if (push_cell(p, out, c) < 0) return -1;
        i = j + 1;
    }
}

/* Whether the row of n cells is a table's separator (| --- | :-: |): every cell unquoted,
 * of dashes and colons with at least one dash. */
static bool is_separator_row(const Cell *cells, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const Cell *c = &cells[i];
        if (!c->text || c->quoted) return false;
        size_t dashes = 0;
        for (size_t k = 0; k < c->len; k++) {
            if (c->text[k] == '-') dashes++;
            else if (c->text[k] != ':') return false;
        }
        if (dashes == 0) return false;
    }
    return n > 0;
}

/* table = '[' header_row separator_row { row } ']' ; rows are lines '| cell | ... |' */
static int parse_table_body(Parser *p, const Token *t, Stmt *st) {
    const char *s = p->src->text;
    size_t pos = t->span.start + 1, end = t->span.end - 1;
    int line_no = 0;
    PtrVec rows = {0};
    CellVec cells = {0};
    size_t header_n = 0;
    RxSpan *row_spans = NULL;
    size_t n_data = 0, cap_spans = 0;
    while (pos < end) {
        size_t ls = pos, le = pos;
        while (le < end && s[le] != '\n') le++;
        pos = le + 1;
        size_t k = ls;
        while (k < le && is_blank(s[k])) k++;
        if (k == le) continue;
        if (k + 1 < le && s[k] == '-' && s[k + 1] == '-') continue;
        if (s[k] != '|')
            return rx_error(p->err, RX_ESYNTAX, p->src, rx_span((uint32_t)k, (uint32_t)k + 1),
                            "a table row must start with '|'");
        size_t before = cells.n;
        if (split_row(p, ls, le, &cells) < 0) return -1;
        size_t got = cells.n - before;
        line_no++;
        size_t re = le;
        while (re > k && is_blank(s[re - 1])) re--;
        RxSpan rspan = rx_span((uint32_t)k, (uint32_t)re);
        if (line_no == 1) {
            header_n = got;
            if (got == 0)
                return rx_error(p->err, RX_ESYNTAX, p->src, rspan, "the header row names no columns");
            continue;
        }
        if (line_no == 2) {
            if (got != header_n || !is_separator_row(cells.cells + before, got))
                return rx_error(p->err, RX_ESYNTAX, p->src, rspan,
                                "expected a separator row like |---|---| after the header "
                                "(%zu column%s)", header_n, header_n == 1 ? "" : "s");
            cells.n = before; /* the separator holds no data */
            continue;
        }
        if (got != header_n)
            return rx_error(p->err, RX_ESYNTAX, p->src, rspan,
                            "this row has %zu cell%s, the header has %zu", got,
                            got == 1 ? "" : "s", header_n);
        if (n_data == cap_spans) {
            size_t cap = cap_spans ? cap_spans * 2 : 16;
            RxSpan *ns = arena_alloc(p->a, cap * sizeof *ns);
            if (!ns) return rx_error(p->err, RX_ENOMEM, NULL, rspan, "out of memory");
            if (n_data) memcpy(ns, row_spans, n_data * sizeof *ns);
            row_spans = ns;
            cap_spans = cap;
        }
        row_spans[n_data++] = rspan;
    }
    RX_UNUSED(rows);
    if (line_no == 0)
        return rx_error(p->err, RX_ESYNTAX, p->src, t->span,
                        "an inline table needs a header row, e.g. | a | b |");
    if (line_no == 1)
        return rx_error(p->err, RX_ESYNTAX, p->src, rx_span(t->span.end - 1, t->span.end),
                        "expected a separator row like |---|---| after the header");
    st->n_cols = (int)header_n;
    st->col_names = arena_alloc(p->a, header_n * sizeof *st->col_names);
    st->col_spans = arena_alloc(p->a, header_n * sizeof *st->col_spans);
    if (!st->col_names || !st->col_spans) return rx_error(p->err, RX_ENOMEM, NULL, t->span, "out of memory");
    for (size_t i = 0; i < header_n; i++) {
        const Cell *c = &cells.cells[i];
        if (!c->text || c->len == 0)
            return rx_error(p->err, RX_ESYNTAX, p->src, c->span, "column %zu has no name", i + 1);
        st->col_names[i] = c->text;
        st->col_spans[i] = c->span;
    }
    st->n_rows = n_data;
    st->cells = cells.cells + header_n;
    st->row_spans = row_spans;
    return 0;
}

/* ---- statements ----------------------------------------------------------------------------- */

/* file_source = ( 'csv' | 'parquet' ) '(' STRING { ',' name '=>' expr } ')'
 * The same form follows `into`: with into set, the path and options go to the statement's
 * into_path and into_options, and the kind is not changed. */
static int parse_file_source(Parser *p, Stmt *st, bool into) {
    bool parquet = at_word(p, "parquet");
    advance(p); /* csv or parquet */
    const Token *open = peek(p);
    if (expect(p, TK_LPAREN, parquet ? "after parquet" : "after csv") < 0) return -1;
    const Token *path = peek(p);
    if (path->kind != TK_STRING)
        return expected(p, into ? (parquet ? "a file path in quotes, into parquet('out.parquet')"
                                           : "a file path in quotes, into csv('out.csv')")
                                : (parquet ? "a file path in quotes, parquet('file.parquet')"
                                           : "a file path in quotes, csv('file.csv')"));
    advance(p);
    size_t n;
    const char *text = unescape_quoted(p, path, &n);
    if (into) {
        st->into_path = text;
        st->into_span = path->span;
        st->into_parquet = parquet;
    } else {
        st->path = text;
        st->path_span = path->span;
    }
    PtrVec opts = {0};
    while (peek_kind(p) == TK_COMMA) {
        advance(p);
        const Token *on = peek(p);
        if (!is_name(on))
            return expected(p, parquet ? (into ? "an option name (compression, row_group_size)" : "an option name")
                                       : "an option name (delimiter, header, null, schema, types)");
        advance(p);
        if (expect(p, TK_FATARROW, "after the option name") < 0) return -1;
        AstNode *v = parse_expr(p);
        if (!v) return -1;
        CsvOption *o = arena_alloc(p->a, sizeof *o);
        if (!o) return rx_error(p->err, RX_ENOMEM, NULL, on->span, "out of memory");
        o->name = name_text(p, on);
        o->name_span = on->span;
        o->value = v;
        ptrvec_push(p->a, &opts, o);
    }
    if (expect_close(p, TK_RPAREN, open) < 0) return -1;
    CsvOption *o = arena_alloc(p->a, (opts.n ? opts.n : 1) * sizeof *o);
    if (!o) return rx_error(p->err, RX_ENOMEM, NULL, open->span, "out of memory");
    for (size_t i = 0; i < opts.n; i++) o[i] = *(CsvOption *)opts.items[i];
    if (into) {
        st->n_into_options = (int)opts.n;
        st->into_options = o;
    } else {
        st->n_options = (int)opts.n;
        st->options = o;
        st->kind = parquet ? ST_PARQUET : ST_CSV;
    }
    return 0;
}

/* word '(' STRING ')' with the current token at word: the string's text and span. */
static int parse_quoted_arg(Parser *p, const char *what, const char **text, RxSpan *span) {
    advance(p);
    const Token *open = advance(p);
    const Token *t = peek(p);
    if (t->kind != TK_STRING) return expected(p, what);
    advance(p);
    size_t n;
    *text = unescape_quoted(p, t, &n);
    *span = t->span;
    return expect_close(p, TK_RPAREN, open);
}

/* statement = name ':=' ( TABLE | '{' rel '}' | file_source ) ';'
 *           | 'query' '{' rel '}' ';' */
static Stmt *parse_statement(Parser *p) {
    const Token *t = peek(p);
    Stmt *st = arena_alloc(p->a, sizeof *st);
    if (!st) {
        rx_error(p->err, RX_ENOMEM, NULL, t->span, "out of memory");
        return NULL;
    }
    if (word_is(p, t, "query") && peek_at(p, 1)->kind == TK_LBRACE) {
        advance(p);
        const Token *open = advance(p);
        st->kind = ST_QUERY;
        st->expr = parse_rel(p);
        if (!st->expr) return NULL;
        if (expect_close(p, TK_RBRACE, open) < 0) return NULL;
        /* into = 'into' ( 'csv' '(' STRING ')' | 'parquet' '(' STRING { ',' name '=>' expr } ')' ) */
        if (at_word(p, "into")) {
            advance(p);
            bool pq = at_word(p, "parquet");
            if ((!at_word(p, "csv") && !pq) || peek_at(p, 1)->kind != TK_LPAREN) {
                expected(p, "csv('file.csv') or parquet('file.parquet') after into");
                return NULL;
            }
            if (pq) {
                if (parse_file_source(p, st, true) < 0) return NULL;
            } else if (parse_quoted_arg(p, "a file path in quotes, into csv('out.csv')", &st->into_path,
                                        &st->into_span) < 0) {
                return NULL;
            }
        }
    } else if (is_name(t) && peek_at(p, 1)->kind == TK_ASSIGN) {
        advance(p);
        advance(p);
        st->name = name_text(p, t);
        st->name_span = t->span;
        const Token *v = peek(p);
        if (v->kind == TK_TABLE) {
            advance(p);
            st->kind = ST_TABLE;
            if (parse_table_body(p, v, st) < 0) return NULL;
        } else if (v->kind == TK_LBRACE) {
            advance(p);
            st->kind = ST_VIEW;
            st->expr = parse_rel(p);
            if (!st->expr) return NULL;
            if (expect_close(p, TK_RBRACE, v) < 0) return NULL;
        } else if ((word_is(p, v, "csv") || word_is(p, v, "parquet")) && peek_at(p, 1)->kind == TK_LPAREN) {
            if (parse_file_source(p, st, false) < 0) return NULL;
        } else if (word_is(p, v, "connect") && peek_at(p, 1)->kind == TK_LPAREN) {
            /* connect = 'connect' '(' STRING ')' */
            if (parse_quoted_arg(p, "a connection URI in quotes, connect('sqlite:file.db')",
                                 &st->path, &st->path_span) < 0)
                return NULL;
            st->kind = ST_CONNECT;
        } else {
            expected(p, "an inline table '[ ... ]', a view '{ ... }', csv('file'), parquet('file') or connect('uri') after ':='");
            return NULL;
        }
    } else if (is_name(t) && peek_at(p, 1)->kind == TK_EQ) {
        syntax_error(p, peek_at(p, 1), "definitions use ':=', not '='");
        return NULL;
    } else if (p->bare && !word_is(p, t, "query")) {
        st->kind = ST_QUERY;
        size_t start = p->pos;
        st->expr = parse_rel(p);
        if (!st->expr && p->pos == start && p->err->code == RX_ESYNTAX) {
            /* nothing here starts an expression either: say what a statement is */
            rx_error_clear(p->err);
            expected(p, "a statement ('Name := ...;' or 'query { ... };')");
        }
        if (!st->expr) return NULL;
        /* the last statement may end without its ';' */
        if (peek_kind(p) == TK_EOF) {
            st->span = rx_span_join(t->span, st->expr->span);
            return st;
        }
    } else if (p->bare) {
        expected(p, "a statement ('Name := ...;' or 'query { ... };')");
        return NULL;
    } else {
        bare_expression_error(p);
        return NULL;
    }
    const Token *semi = peek(p);
    if (semi->kind != TK_SEMI) {
        char found[64];
        describe(p, semi, found, sizeof found);
        syntax_error(p, semi, "';' expected after the statement, found %s", found);
        return NULL;
    }
    advance(p);
    st->span = rx_span_join(t->span, semi->span);
    return st;
}

/* ---- hints ------------------------------------------------------------------------------------- */

/* The statement at the current token is neither a definition nor a query: reports it, and
 * when it parses as a relational expression ended by ';' (or the end), says that a script
 * runs an expression only inside query { ... } (the REPL and -e take it bare). */
static void bare_expression_error(Parser *p) {
    size_t at = p->pos;
    int depth = p->depth;
    RxError scratch;
    rx_error_clear(&scratch);
    RxError *err = p->err;
    p->err = &scratch;
    AstNode *e = peek_kind(p) != TK_EOF && !at_word(p, "query") ? parse_rel(p) : NULL;
    bool whole = e && (peek_kind(p) == TK_SEMI || peek_kind(p) == TK_EOF) && p->pos > at;
    size_t end = p->pos;
    p->err = err;
    p->pos = at;
    p->depth = depth;
    if (whole) {
        /* from the first token to the last before the ';' (a node's span may leave out its
         * closing parenthesis) */
        RxSpan span = rx_span_join(peek(p)->span, p->t[end - 1].span);
        rx_error(p->err, RX_ESYNTAX, p->src, span, "an expression on its own is not a statement in a script");
        rx_error_hint(p->err, "run it as a query: query { %s };", rx_source_text(p->a, p->src, span));
        return;
    }
    expected(p, "a statement ('Name := ...;' or 'query { ... };')");
}

/* A hint for a syntax error in a statement written the SQL way: the first SQL word among the
 * statement's tokens [from, to] and the Relix spelling of what it does. */
static void sql_hint(Parser *p, size_t from, size_t to) {
    bool join = false;
    for (size_t i = from; i <= to && i < p->n; i++) {
        const Token *t = &p->t[i];
        const Token *next = i + 1 < p->n ? &p->t[i + 1] : t;
        if (word_is(p, t, "JOIN")) join = true;
        if (word_is(p, t, "SELECT")) {
            rx_error_hint(p->err, "Relix has no SELECT: π a, b (R) keeps columns (ASCII: pi), "
                                  "σ cond (R) keeps rows (ASCII: sigma), inside query { ... }");
            return;
        }
        if (word_is(p, t, "FROM")) {
            rx_error_hint(p->err, "Relix has no FROM: the input follows the operator in "
                                  "parentheses, π a, b (R) or σ cond (R)");
            return;
        }
        if (word_is(p, t, "WHERE")) {
            rx_error_hint(p->err, "Relix has no WHERE: σ cond (R) keeps the rows where cond "
                                  "holds (ASCII: sigma cond (R))");
            return;
        }
        if (word_is(p, t, "GROUP") && word_is(p, next, "BY")) {
            rx_error_hint(p->err, "Relix has no GROUP BY: γ keys; aggregates (R) groups, "
                                  "e.g. γ sym; count(*) → n (R) (ASCII: gamma, ->)");
            return;
        }
        if (word_is(p, t, "ORDER") && word_is(p, next, "BY")) {
            rx_error_hint(p->err, "Relix has no ORDER BY: τ col [DESC] (R) sorts (ASCII: tau), "
                                  "TOP n BY col (R) keeps the first n");
            return;
        }
        if (word_is(p, t, "HAVING")) {
            rx_error_hint(p->err, "Relix has no HAVING: select on the grouped result, "
                                  "σ n > 1 (γ k; count(*) → n (R))");
            return;
        }
        if (word_is(p, t, "LIMIT")) {
            rx_error_hint(p->err, "Relix has no LIMIT: TOP n (R) keeps the first n rows");
            return;
        }
        if (join && word_is(p, t, "ON")) {
            rx_error_hint(p->err, "a join's condition goes between its operands, without ON: "
                                  "R ⨝ R.k = S.k S (ASCII: R JOIN R.k = S.k S)");
            return;
        }
    }
}

/* ---- depth of a statement's tree ---------------------------------------------------------- */

/* The stages after the parser (analysis, rewrites, planning, execution, evaluation) walk the
 * tree recursively, a stack frame or more per level, and a chain such as a + b + c or
 * R ∪ S ∪ T is a left-deep tree as deep as it is long, without any nesting. So a statement's
 * tree is bounded too: no path from its root holds more than PARSE_MAX_EXPR_DEPTH scalar
 * operators or PARSE_MAX_REL_DEPTH relational ones (an alias counts as a rename). Leaves and
 * items count nothing. The walk keeps its own stack, so it never recurses. */

typedef struct {
    const AstNode *n;
    int rel, expr;        /* operators above n, n excluded */
    const AstNode *head;  /* the topmost operator of the chain n continues (n itself if none) */
    const AstNode *up;    /* the head of the chain n's parent belongs to (NULL at the root) */
} DepthEntry;

static bool is_rel_kind(AstKind k) { return k <= AST_FILL; }

/* Whether n is an operator with a left operand that a chain can continue through. */
static bool is_binary_like(const AstNode *n) {
    return n && n->a && (n->kind == AST_BINARY || n->kind == AST_SETOP || n->kind == AST_JOIN ||
                         n->kind == AST_IJOIN || n->kind == AST_ASOF || n->kind == AST_WJOIN || (n->kind == AST_ISET && n->a));
}

/* The binding strength of a binary scalar operator (OR 1 up to * / % 5); 0 for unary ones. */
static int precedence(AstOp op) {
    switch (op) {
    case OP_OR: return 1;
    case OP_AND: return 2;
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: return 3;
    case OP_ADD: case OP_SUB: case OP_CONCAT: return 4;
    case OP_MUL: case OP_DIV: case OP_MOD: return 5;
    case OP_NEG: case OP_NOT: break;
    }
    return 0;
}

/* True if c, n's left operand, continues n's left-associative chain (a + b + c, R ∪ S ⨝ T:
 * the parser's loops build these), parentheses or not. */
static bool continues_chain(const AstNode *n, const AstNode *c) {
    if (!is_binary_like(n) || !is_binary_like(c) || c != n->a) return false;
    if (is_rel_kind(n->kind)) return is_rel_kind(c->kind);
    return c->kind == AST_BINARY && precedence(c->op) == precedence(n->op);
}

/* Where a tree too deep is reported: at the first operator of the chain that made it so (its
 * start, whatever its length): the token after the left operand of the chain's lowest link,
 * past closing parentheses; the node's first token when it is no chain. */
static RxSpan operator_span(Parser *p, const AstNode *n) {
    while (continues_chain(n, n->a)) n = n->a;
    bool binary_like = is_binary_like(n);
    uint32_t at = binary_like ? n->a->span.end : n->span.start;
    size_t lo = 0, hi = p->n - 1; /* the first token starting at or after `at` */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->t[mid].span.start < at) lo = mid + 1;
        else hi = mid;
    }
    if (binary_like)
        while (lo + 1 < p->n && p->t[lo].kind == TK_RPAREN) lo++;
    return p->t[lo].kind == TK_EOF ? n->span : p->t[lo].span;
}

/* Checks the tree under root against the bounds above; 0, or -1 with RX_ELIMIT at the
 * operator that passed one (operator_span), or RX_ENOMEM. */
static int check_depth(Parser *p, const AstNode *root) {
    if (!root) return 0;
    size_t cap = 64, n = 0;
    DepthEntry *stack = malloc(cap * sizeof *stack);
    if (!stack) return rx_error(p->err, RX_ENOMEM, NULL, root->span, "out of memory");
    stack[n++] = (DepthEntry){root, 0, 0, root, NULL};
    int rc = 0;
    while (n > 0) {
        DepthEntry e = stack[--n];
        const AstNode *x = e.n;
        if (is_rel_kind(x->kind)) {
            if (x->kind != AST_REL || x->alias) e.rel++;
            e.expr = 0;
        } else if (x->kind != AST_ITEM && (x->a || x->b || x->items.n)) {
            e.expr++; /* an operator, a call, CASE, IN, BETWEEN; not an item (→ name) */
        }
        if (e.rel > PARSE_MAX_REL_DEPTH || e.expr > PARSE_MAX_EXPR_DEPTH) {
            /* The chain to blame is the one above x: x itself may be a leaf of it. */
            RxSpan at = operator_span(p, e.up ? e.up : x);
            if (e.rel > PARSE_MAX_REL_DEPTH)
                rc = rx_error(p->err, RX_ELIMIT, p->src, at,
                              "relational expression too deep: more than %d nested operators "
                              "(each operator of a chain like R ∪ S ∪ T is one level)",
                              PARSE_MAX_REL_DEPTH);
            else
                rc = rx_error(p->err, RX_ELIMIT, p->src, at,
                              "expression too deep: more than %d nested operators (each "
                              "operator of a chain like a + b + c is one level)",
                              PARSE_MAX_EXPR_DEPTH);
            break;
        }
        const AstNode *kids[5] = {x->a, x->b, x->cond, x->within, x->within_hi};
        size_t need = n + 5 + x->items.n + x->items2.n + x->sort.n;
        if (need > cap) {
            while (cap < need) cap *= 2;
            DepthEntry *grown = realloc(stack, cap * sizeof *stack);
            if (!grown) {
                rc = rx_error(p->err, RX_ENOMEM, NULL, root->span, "out of memory");
                break;
            }
            stack = grown;
        }
        for (int i = 0; i < 5; i++)
            if (kids[i])
                stack[n++] = (DepthEntry){kids[i], e.rel, e.expr,
                                          continues_chain(x, kids[i]) ? e.head : kids[i], e.head};
        for (size_t i = 0; i < x->items.n; i++)
            stack[n++] = (DepthEntry){x->items.items[i], e.rel, e.expr, x->items.items[i], e.head};
        for (size_t i = 0; i < x->items2.n; i++)
            stack[n++] = (DepthEntry){x->items2.items[i], e.rel, e.expr, x->items2.items[i], e.head};
        for (size_t i = 0; i < x->sort.n; i++)
            stack[n++] = (DepthEntry){x->sort.items[i], e.rel, e.expr, x->sort.items[i], e.head};
    }
    free(stack);
    return rc;
}

/* check_depth over a statement's expression and its options' values. */
static int check_statement_depth(Parser *p, const Stmt *st) {
    if (check_depth(p, st->expr) < 0) return -1;
    for (int i = 0; i < st->n_options; i++)
        if (check_depth(p, st->options[i].value) < 0) return -1;
    return 0;
}

int parse_script(Arena *a, const RxSource *src, Script *out, RxError *err) {
    return parse_script_opts(a, src, false, out, err);
}

/* script = { statement } EOF */
int parse_script_opts(Arena *a, const RxSource *src, bool bare, Script *out, RxError *err) {
    TokenList tl;
    if (lex_script(a, src, &tl, err) < 0) return -1;
    Parser p = {.a = a, .src = src, .t = tl.toks, .n = tl.n, .err = err, .bare = bare};
    PtrVec stmts = {0};
    while (peek_kind(&p) != TK_EOF) {
        if (peek_kind(&p) == TK_SEMI) return expected(&p, "a statement");
        size_t start = p.pos;
        Stmt *st = parse_statement(&p);
        if (!st && err->code == RX_ESYNTAX) sql_hint(&p, start, p.pos + 1);
        if (!st || check_statement_depth(&p, st) < 0) return -1;
        ptrvec_push(a, &stmts, st);
    }
    if (arena_failed(a)) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    out->stmts = (Stmt **)stmts.items;
    out->n = stmts.n;
    out->src = src;
    out->params = p.params;
    out->n_params = p.n_params;
    return 0;
}
