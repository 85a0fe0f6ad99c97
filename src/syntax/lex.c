/*
 * lex.c - the lexer: UTF-8 script text -> tokens (syntax.h).
 *
 * Words become TK_IDENT whatever they spell; the parser decides where a word is a keyword.
 * Every Unicode operator has an ASCII spelling (-> for →, <= for ≤, >< for ⨝ ...; the words
 * and, or, not, sigma, pi, rho are recognized by the parser). `--` starts a comment to the end
 * of the line. After `:=`, a `[` opens an inline table whose body is taken raw, up to the first
 * line whose first non-blank character is `]`, as one TK_TABLE token.
 */
#include "syntax/syntax.h"

#include <string.h>

typedef struct {
    Arena *arena;
    const RxSource *src;
    const char *s;
    size_t n, pos;
    Token *toks;
    size_t n_toks, cap_toks;
    RxError *err;
} Lexer;

static int push(Lexer *lx, TokKind k, size_t start, size_t end) {
    if (lx->n_toks == lx->cap_toks) {
        size_t cap = lx->cap_toks ? lx->cap_toks * 2 : 256;
        Token *t = arena_alloc(lx->arena, cap * sizeof *t);
        if (!t) return rx_error(lx->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        if (lx->n_toks) memcpy(t, lx->toks, lx->n_toks * sizeof *t);
        lx->toks = t;
        lx->cap_toks = cap;
    }
    lx->toks[lx->n_toks].kind = k;
    lx->toks[lx->n_toks].span = rx_span((uint32_t)start, (uint32_t)end);
    lx->n_toks++;
    return 0;
}

static bool is_ident_start(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_ident_char(unsigned char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Multi-byte operator symbols. */
static const struct {
    const char *utf8;
    TokKind kind;
} symbols[] = {
    {"→", TK_ARROW}, {"←", TK_LARROW}, {"≠", TK_NE}, {"≤", TK_LE}, {"≥", TK_GE},
    {"∧", TK_AND}, {"∨", TK_OR}, {"¬", TK_NOT}, {"σ", TK_SIGMA}, {"π", TK_PI}, {"ρ", TK_RHO},
    {"⨝", TK_JOIN}, {"⋈", TK_JOIN}, {"×", TK_CROSS}, {"∪", TK_UNION}, {"∩", TK_INTERSECT},
    {"−", TK_DIFF}, {"⟕", TK_LJOIN}, {"⟖", TK_RJOIN}, {"⟗", TK_FJOIN}, {"⋉", TK_LSEMI},
    {"⋊", TK_RSEMI}, {"▷", TK_ANTI}, {"δ", TK_DELTA}, {"τ", TK_TAU}, {"γ", TK_GAMMA},
    {"ω", TK_OMEGA},
};

/* The raw body of an inline table: from '[' at lx->pos to the ']' that is the first non-blank
 * character of a line (or the first ']' on the opening line after only blanks). */
static int lex_table(Lexer *lx) {
    size_t start = lx->pos;
    size_t i = lx->pos + 1;
    bool line_start = false; /* the opening line: ']' right after '[' (blanks only) closes too */
    bool only_blank = true;
    while (i < lx->n) {
        char c = lx->s[i];
        if (c == '\n') {
            line_start = true;
            only_blank = true;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        if (c == ']' && (line_start || only_blank)) {
            lx->pos = i + 1;
            return push(lx, TK_TABLE, start, i + 1);
        }
        only_blank = false;
        line_start = false;
        /* skip the rest of this line */
        while (i < lx->n && lx->s[i] != '\n') i++;
    }
    return rx_error(lx->err, RX_ESYNTAX, lx->src, rx_span((uint32_t)start, (uint32_t)start + 1),
                    "inline table is not closed: expected a line starting with ']'");
}

static int lex_string(Lexer *lx, char quote, TokKind kind) {
    size_t start = lx->pos;
    size_t i = lx->pos + 1;
    for (;;) {
        if (i >= lx->n)
            return rx_error(lx->err, RX_ESYNTAX, lx->src,
                            rx_span((uint32_t)start, (uint32_t)start + 1),
                            kind == TK_STRING ? "unterminated string literal"
                                              : "unterminated quoted identifier");
        if (lx->s[i] == quote) {
            if (i + 1 < lx->n && lx->s[i + 1] == quote) {
                i += 2;
                continue;
            }
            break;
        }
        i++;
    }
    lx->pos = i + 1;
    return push(lx, kind, start, i + 1);
}

static int lex_number(Lexer *lx) {
    size_t start = lx->pos, i = lx->pos;
    TokKind k = TK_INT;
    while (i < lx->n && is_digit((unsigned char)lx->s[i])) i++;
    if (i + 1 < lx->n && lx->s[i] == '.' && is_digit((unsigned char)lx->s[i + 1])) {
        k = TK_FLOAT;
        i++;
        while (i < lx->n && is_digit((unsigned char)lx->s[i])) i++;
    }
    if (i < lx->n && (lx->s[i] == 'e' || lx->s[i] == 'E')) {
        size_t j = i + 1;
        if (j < lx->n && (lx->s[j] == '+' || lx->s[j] == '-')) j++;
        if (j < lx->n && is_digit((unsigned char)lx->s[j])) {
            k = TK_FLOAT;
            i = j;
            while (i < lx->n && is_digit((unsigned char)lx->s[i])) i++;
        }
    }
    if (i < lx->n && is_ident_char((unsigned char)lx->s[i])) {
        size_t e = i;
        while (e < lx->n && is_ident_char((unsigned char)lx->s[e])) e++;
        return rx_error(lx->err, RX_ESYNTAX, lx->src, rx_span((uint32_t)start, (uint32_t)e),
                        "invalid number '%.*s'", (int)(e - start), lx->s + start);
    }
    lx->pos = i;
    return push(lx, k, start, i);
}

/* The whole text must be UTF-8, strings, comments and inline tables included: a bad byte
 * inside a string would otherwise reach the results (and JSON output) as it is. Reports the
 * first bad byte; a sequence cut short (at the end of the text, or by an ASCII byte) says so. */
static int check_utf8(const RxSource *src, RxError *err) {
    const unsigned char *u = (const unsigned char *)src->text;
    size_t n = src->len;
    for (size_t i = 0; i < n;) {
        if (u[i] < 0x80) {
            i++;
            continue;
        }
        int len = utf8_seq_len(u + i, n - i);
        if (len > 0) {
            i += (size_t)len;
            continue;
        }
        int want = (u[i] & 0xE0) == 0xC0 ? 2 : (u[i] & 0xF0) == 0xE0 ? 3 : (u[i] & 0xF8) == 0xF0 ? 4 : 0;
        size_t got = 1;
        while (want && got < (size_t)want && i + got < n && (u[i + got] & 0xC0) == 0x80) got++;
        if (want && got < (size_t)want)
            return rx_error(err, RX_ESYNTAX, src, rx_span((uint32_t)i, (uint32_t)(i + got)),
                            "invalid UTF-8: byte 0x%02X starts a %d-byte sequence, but %s",
                            u[i], want, i + got == n ? "the text ends" : "it is cut short");
        return rx_error(err, RX_ESYNTAX, src, rx_span((uint32_t)i, (uint32_t)i + 1),
                        "invalid UTF-8 byte 0x%02X", u[i]);
    }
    return 0;
}

int lex_script(Arena *a, const RxSource *src, TokenList *out, RxError *err) {
    Lexer lx = {.arena = a, .src = src, .s = src->text, .n = src->len, .err = err};
    bool after_assign = false;
    if (check_utf8(src, err) < 0) return -1;
    /* A UTF-8 byte order mark at the start is not part of the script. */
    if (lx.n >= 3 && memcmp(lx.s, "\xEF\xBB\xBF", 3) == 0) lx.pos = 3;
    while (lx.pos < lx.n) {
        unsigned char c = (unsigned char)lx.s[lx.pos];
        size_t p = lx.pos;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            lx.pos++;
            continue;
        }
        if (c == '-' && p + 1 < lx.n && lx.s[p + 1] == '-') {
            while (lx.pos < lx.n && lx.s[lx.pos] != '\n') lx.pos++;
            continue;
        }
        bool was_assign = after_assign;
        after_assign = false;
        int rc = 0;
        if (c == '[' && was_assign) {
            rc = lex_table(&lx);
        } else if (is_ident_start(c)) {
            size_t i = p;
            while (i < lx.n && is_ident_char((unsigned char)lx.s[i])) i++;
            lx.pos = i;
            rc = push(&lx, TK_IDENT, p, i);
        } else if (is_digit(c)) {
            rc = lex_number(&lx);
        } else if (c == '\'') {
            rc = lex_string(&lx, '\'', TK_STRING);
        } else if (c == '"') {
            rc = lex_string(&lx, '"', TK_QIDENT);
        } else if (c >= 0x80) {
            int len = utf8_seq_len((const unsigned char *)lx.s + p, lx.n - p);
            if (len == 0)
                return rx_error(err, RX_ESYNTAX, src, rx_span((uint32_t)p, (uint32_t)p + 1),
                                "invalid UTF-8 byte 0x%02X", c);
            TokKind k = TK_EOF;
            for (size_t s = 0; s < RX_ARRAY_LEN(symbols); s++)
                if (strlen(symbols[s].utf8) == (size_t)len &&
                    memcmp(symbols[s].utf8, lx.s + p, (size_t)len) == 0)
                    k = symbols[s].kind;
            if (k == TK_EOF)
                return rx_error(err, RX_ESYNTAX, src, rx_span((uint32_t)p, (uint32_t)(p + len)),
                                "unexpected character '%.*s'", len, lx.s + p);
            lx.pos += (size_t)len;
            rc = push(&lx, k, p, p + (size_t)len);
        } else {
            char d = p + 1 < lx.n ? lx.s[p + 1] : 0;
            TokKind k;
            size_t len = 1;
            switch (c) {
            case ':':
                if (d == ':') {
                    k = TK_DCOLON, len = 2;
                    break;
                }
                if (is_ident_start((unsigned char)d)) {
                    /* :name, a named parameter of a prepared query */
                    k = TK_PARAM;
                    while (p + len < lx.n && is_ident_char((unsigned char)lx.s[p + len])) len++;
                    break;
                }
                if (d != '=')
                    return rx_error(err, RX_ESYNTAX, src, rx_span((uint32_t)p, (uint32_t)p + 1),
                                    "unexpected ':' (did you mean ':='?)");
                k = TK_ASSIGN, len = 2;
                after_assign = true;
                break;
            case '$':
                /* $N, a numbered parameter of a prepared query */
                if (d < '1' || d > '9')
                    return rx_error(err, RX_ESYNTAX, src, rx_span((uint32_t)p, (uint32_t)p + 1),
                                    "'$' starts a parameter: $1, $2, ...");
                k = TK_PARAM;
                while (p + len < lx.n && lx.s[p + len] >= '0' && lx.s[p + len] <= '9') len++;
                break;
            case '{': k = TK_LBRACE; break;
            case '}': k = TK_RBRACE; break;
            case '(': k = TK_LPAREN; break;
            case ')': k = TK_RPAREN; break;
            case ',': k = TK_COMMA; break;
            case ';': k = TK_SEMI; break;
            case '.': k = TK_DOT; break;
            case '+': k = TK_PLUS; break;
            case '*': k = TK_STAR; break;
            case '/': k = TK_SLASH; break;
            case '%': k = TK_PERCENT; break;
            case '-':
                if (d == '>') k = TK_ARROW, len = 2;
                else k = TK_MINUS;
                break;
            case '=':
                if (d == '>') k = TK_FATARROW, len = 2;
                else if (d == '=') k = TK_EQ, len = 2;
                else k = TK_EQ;
                break;
            case '!':
                if (d != '=')
                    return rx_error(err, RX_ESYNTAX, src, rx_span((uint32_t)p, (uint32_t)p + 1),
                                    "unexpected '!' (use 'not' or '¬' for negation, '!=' for "
                                    "inequality)");
                k = TK_NE, len = 2;
                break;
            case '<':
                if (d == '=') k = TK_LE, len = 2;
                else if (d == '>') k = TK_NE, len = 2;
                else if (d == '-') k = TK_LARROW, len = 2;
                else k = TK_LT;
                break;
            case '>':
                if (d == '=') k = TK_GE, len = 2;
                else if (d == '<') k = TK_JOIN, len = 2;
                else k = TK_GT;
                break;
            case '|':
                /* A single '|' separates IJOIN's relations; the parser reports it elsewhere. */
                if (d != '|') k = TK_BAR;
                else k = TK_CONCAT, len = 2;
                break;
            default:
                return rx_error(err, RX_ESYNTAX, src, rx_span((uint32_t)p, (uint32_t)p + 1),
                                c < 0x20 ? "unexpected control character 0x%02X"
                                         : "unexpected character '%c'", c);
            }
            lx.pos += len;
            rc = push(&lx, k, p, p + len);
        }
        if (rc < 0) return -1;
    }
    if (push(&lx, TK_EOF, lx.n, lx.n) < 0) return -1;
    out->toks = lx.toks;
    out->n = lx.n_toks;
    return 0;
}

const char *tok_kind_name(TokKind k) {
    switch (k) {
    case TK_EOF: return "end of input";
    case TK_IDENT: return "name";
    case TK_QIDENT: return "quoted name";
    case TK_INT: return "integer";
    case TK_FLOAT: return "number";
    case TK_STRING: return "string";
    case TK_PARAM: return "parameter";
    case TK_TABLE: return "inline table";
    case TK_ASSIGN: return "':='";
    case TK_LBRACE: return "'{'";
    case TK_RBRACE: return "'}'";
    case TK_LPAREN: return "'('";
    case TK_RPAREN: return "')'";
    case TK_COMMA: return "','";
    case TK_SEMI: return "';'";
    case TK_DOT: return "'.'";
    case TK_ARROW: return "'→'";
    case TK_LARROW: return "'←'";
    case TK_FATARROW: return "'=>'";
    case TK_EQ: return "'='";
    case TK_NE: return "'≠'";
    case TK_LT: return "'<'";
    case TK_LE: return "'≤'";
    case TK_GT: return "'>'";
    case TK_GE: return "'≥'";
    case TK_PLUS: return "'+'";
    case TK_MINUS: return "'-'";
    case TK_STAR: return "'*'";
    case TK_SLASH: return "'/'";
    case TK_PERCENT: return "'%'";
    case TK_CONCAT: return "'||'";
    case TK_DCOLON: return "'::'";
    case TK_BAR: return "'|'";
    case TK_AND: return "'∧'";
    case TK_OR: return "'∨'";
    case TK_NOT: return "'¬'";
    case TK_SIGMA: return "'σ'";
    case TK_PI: return "'π'";
    case TK_RHO: return "'ρ'";
    case TK_JOIN: return "'⨝'";
    case TK_CROSS: return "'×'";
    case TK_UNION: return "'∪'";
    case TK_INTERSECT: return "'∩'";
    case TK_DIFF: return "'−'";
    case TK_LJOIN: return "'⟕'";
    case TK_RJOIN: return "'⟖'";
    case TK_FJOIN: return "'⟗'";
    case TK_LSEMI: return "'⋉'";
    case TK_RSEMI: return "'⋊'";
    case TK_ANTI: return "'▷'";
    case TK_DELTA: return "'δ'";
    case TK_TAU: return "'τ'";
    case TK_GAMMA: return "'γ'";
    case TK_OMEGA: return "'ω'";
    }
    return "token";
}
