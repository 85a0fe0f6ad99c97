/*
 * test_lex.c - the lexer (src/syntax/lex.c): token kinds and spans of every token class, the
 * Unicode operators and their ASCII spellings, comments and white space, and errors with their
 * positions (an unterminated string, a stray character).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "syntax/syntax.h"

/* Lexes text; returns the token count (EOF included) or -1 with *err set. */
static int lex(Arena *a, const char *text, TokenList *tl, RxError *err) {
    RxSource *src = arena_alloc(a, sizeof *src);
    src->name = "<test>";
    src->text = text;
    src->len = strlen(text);
    src->first_line = 1;
    rx_error_clear(err);
    if (lex_script(a, src, tl, err) != 0) return -1;
    return (int)tl->n;
}

/* The kinds of text's tokens are want[0..n) followed by EOF. */
static void check_kinds(const char *text, const TokKind *want, size_t n) {
    Arena *a = arena_new();
    TokenList tl;
    RxError err;
    int got = lex(a, text, &tl, &err);
    CHECK(got == (int)n + 1);
    if (got == (int)n + 1) {
        for (size_t i = 0; i < n; i++) {
            if (tl.toks[i].kind != want[i])
                fprintf(stderr, "  '%s': token %zu is kind %d, want %d\n", text, i,
                        (int)tl.toks[i].kind, (int)want[i]);
            CHECK(tl.toks[i].kind == want[i]);
        }
        CHECK(tl.toks[n].kind == TK_EOF);
    } else {
        fprintf(stderr, "  '%s': %d tokens, want %zu\n", text, got, n + 1);
    }
    arena_free(a);
}

/* The text of token i. */
static int tok_is(const char *text, const Token *t, const char *want) {
    size_t n = t->span.end - t->span.start;
    return n == strlen(want) && memcmp(text + t->span.start, want, n) == 0;
}

static void test_words_numbers_strings(void) {
    const char *text = "query  Trades_2 \"Quoted id\" 42 3.5 1e3 'it''s'";
    Arena *a = arena_new();
    TokenList tl;
    RxError err;
    CHECK(lex(a, text, &tl, &err) == 8);
    TokKind want[] = {TK_IDENT, TK_IDENT, TK_QIDENT, TK_INT, TK_FLOAT, TK_FLOAT, TK_STRING, TK_EOF};
    for (size_t i = 0; i < 8 && i < tl.n; i++) CHECK(tl.toks[i].kind == want[i]);
    if (tl.n >= 7) {
        CHECK(tok_is(text, &tl.toks[0], "query"));
        CHECK(tok_is(text, &tl.toks[1], "Trades_2"));
        CHECK(tok_is(text, &tl.toks[3], "42"));
        CHECK(tok_is(text, &tl.toks[4], "3.5"));
        /* spans are byte offsets into the text, quotes included */
        CHECK(tl.toks[6].span.start == (uint32_t)(strchr(text, '\'') - text));
        CHECK(tl.toks[6].span.end == (uint32_t)strlen(text));
        CHECK(tl.toks[7].span.start == (uint32_t)strlen(text));
    }
    arena_free(a);
}

static void test_operators(void) {
    TokKind sym[] = {TK_SIGMA, TK_PI, TK_RHO, TK_JOIN, TK_CROSS, TK_UNION, TK_INTERSECT,
                     TK_DIFF, TK_DELTA, TK_TAU, TK_GAMMA};
    check_kinds("σ π ρ ⨝ × ∪ ∩ − δ τ γ", sym, RX_ARRAY_LEN(sym));
    TokKind outer[] = {TK_LJOIN, TK_RJOIN, TK_FJOIN, TK_LSEMI, TK_RSEMI, TK_ANTI};
    check_kinds("⟕ ⟖ ⟗ ⋉ ⋊ ▷", outer, RX_ARRAY_LEN(outer));
    TokKind cmp[] = {TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE};
    check_kinds("= ≠ < ≤ > ≥", cmp, RX_ARRAY_LEN(cmp));
    check_kinds("= != < <= > >=", cmp, RX_ARRAY_LEN(cmp));
    TokKind arrows[] = {TK_ARROW, TK_ARROW, TK_LARROW, TK_LARROW, TK_FATARROW, TK_ASSIGN};
    check_kinds("→ -> ← <- => :=", arrows, RX_ARRAY_LEN(arrows));
    TokKind logic[] = {TK_AND, TK_OR, TK_NOT, TK_IDENT, TK_IDENT, TK_IDENT};
    check_kinds("∧ ∨ ¬ and or not", logic, RX_ARRAY_LEN(logic));
    TokKind arith[] = {TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT, TK_CONCAT};
    check_kinds("+ - * / % ||", arith, RX_ARRAY_LEN(arith));
    TokKind punct[] = {TK_LBRACE, TK_RBRACE, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_SEMI, TK_DOT};
    check_kinds("{ } ( ) , ; .", punct, RX_ARRAY_LEN(punct));
}

static void test_adjacent_and_comments(void) {
    /* No space needed between a word and an operator; comments and newlines are skipped. */
    TokKind want[] = {TK_SIGMA, TK_IDENT, TK_GT, TK_INT, TK_LPAREN, TK_IDENT, TK_RPAREN, TK_SEMI};
    check_kinds("σ x>1(T); ", want, RX_ARRAY_LEN(want));
    check_kinds("-- a comment\nσ x>1 -- another\n(T)\n;", want, RX_ARRAY_LEN(want));
    TokKind none[] = {TK_EOF};
    check_kinds("", none, 0);
    check_kinds("   \n\t-- only a comment", none, 0);
}

static void test_table_body(void) {
    /* The body of an inline table is one token, '[' to the line that starts with ']', whatever
     * it holds (']' inside a line does not close it). */
    const char *text = "T := [\n  a, b\n  1, 'x]'\n];";
    Arena *a = arena_new();
    TokenList tl;
    RxError err;
    CHECK(lex(a, text, &tl, &err) == 5);
    if (tl.n == 5) {
        CHECK(tl.toks[0].kind == TK_IDENT);
        CHECK(tl.toks[1].kind == TK_ASSIGN);
        CHECK(tl.toks[2].kind == TK_TABLE);
        CHECK(tok_is(text, &tl.toks[2], "[\n  a, b\n  1, 'x]'\n]"));
        CHECK(tl.toks[3].kind == TK_SEMI);
    }
    /* never closed: an error at the '[' */
    const char *open = "T := [\n 1, 2\n";
    CHECK(lex(a, open, &tl, &err) == -1);
    CHECK(err.code == RX_ESYNTAX);
    CHECK(err.span.start == (uint32_t)(strchr(open, '[') - open));
    arena_free(a);
}

static void test_errors(void) {
    Arena *a = arena_new();
    TokenList tl;
    RxError err;
    /* an unterminated string: an error at the opening quote, with a message */
    const char *s1 = "σ x = 'abc (T)";
    CHECK(lex(a, s1, &tl, &err) == -1);
    CHECK(err.code == RX_ESYNTAX);
    CHECK(err.src != NULL);
    CHECK(err.span.start == (uint32_t)(strchr(s1, '\'') - s1));
    CHECK(err.msg[0] != 0);
    /* a character the language does not use */
    const char *s2 = "π a (T) @";
    CHECK(lex(a, s2, &tl, &err) == -1);
    CHECK(err.code == RX_ESYNTAX);
    CHECK(err.span.start == (uint32_t)(strchr(s2, '@') - s2));
    arena_free(a);
}

int main(void) {
    test_words_numbers_strings();
    test_operators();
    test_adjacent_and_comments();
    test_table_body();
    test_errors();
    return check_report("lex");
}
