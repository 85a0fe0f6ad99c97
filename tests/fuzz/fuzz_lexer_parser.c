/*
 * fuzz_lexer_parser.c - libFuzzer target: the syntax stage alone (src/syntax/syntax.h) on
 * arbitrary bytes.
 *
 * The input is tokenized (lex_script) and parsed (parse_script) from an exact-size copy with
 * no terminating NUL, each into a fresh arena. A failure must come with an error whose span
 * lies inside the text (the printer quotes the line under it); the error is then formatted
 * as the CLI would print it, which exercises line and column computation on the same bytes.
 * A success must give statements whose spans lie inside the text. Nothing here reads files:
 * csv('path') statements are only parsed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "syntax/syntax.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const RxSource *src, const RxError *err) {
    if (err->code == RX_OK || !err->msg[0]) abort();
    if (err->src == src && (err->span.start > err->span.end || err->span.end > src->len)) abort();
    StrBuf b;
    sb_init(&b);
    rx_error_format(err, &b);
    sb_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 256 * 1024) return -1;
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    memcpy(text, data, size);
    RxSource src = {.name = "<fuzz>", .text = text, .len = size, .first_line = 1};

    Arena *a = arena_new();
    if (a) {
        TokenList toks;
        RxError err;
        rx_error_clear(&err);
        if (lex_script(a, &src, &toks, &err) < 0) {
            check_error(&src, &err);
        } else {
            if (toks.n == 0 || toks.toks[toks.n - 1].kind != TK_EOF) abort();
            for (size_t i = 0; i < toks.n; i++) {
                RxSpan sp = toks.toks[i].span;
                if (sp.start > sp.end || sp.end > size) abort();
                (void)tok_kind_name(toks.toks[i].kind);
            }
        }
        arena_free(a);
    }

    a = arena_new();
    if (a) {
        Script sc;
        RxError err;
        rx_error_clear(&err);
        if (parse_script(a, &src, &sc, &err) < 0) {
            check_error(&src, &err);
        } else {
            for (size_t i = 0; i < sc.n; i++) {
                RxSpan sp = sc.stmts[i]->span;
                if (sp.start > sp.end || sp.end > size) abort();
            }
        }
        arena_free(a);
    }
    free(text);
    return 0;
}
