/*
 * error.c - error records and their printed form.
 *
 * An error carries a code, a message and a span into a source. Line and column are computed
 * only when the error is printed. The printed form is the one of DESIGN.md:
 *   FILE:LINE:COL: error: MESSAGE
 *     <the source line>
 *     <spaces>^~~~
 */
#include "base/base.h"

#include <stdio.h>
#include <string.h>

void rx_error_clear(RxError *e) {
    e->code = RX_OK;
    e->msg[0] = 0;
    e->src = NULL;
}

int rx_error(RxError *e, RxErrCode code, const RxSource *src, RxSpan span, const char *fmt, ...) {
    if (!e || e->code != RX_OK) return -1;
    e->code = code;
    e->src = src;
    e->span = span;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int rx_error_at_file(RxError *e, RxErrCode code, const char *path, uint32_t line, uint32_t col,
                     const char *line_text, size_t line_len, uint32_t caret_len,
                     const char *fmt, ...) {
    if (!e || e->code != RX_OK) return -1;
    e->code = code;
    snprintf(e->own_name, sizeof e->own_name, "%s", path);
    if (line_len >= sizeof e->own_text) line_len = sizeof e->own_text - 1;
    memcpy(e->own_text, line_text, line_len);
    e->own_text[line_len] = 0;
    e->own_src.name = e->own_name;
    e->own_src.text = e->own_text;
    e->own_src.len = line_len;
    e->own_src.first_line = line;
    /* col is 1-based in characters; convert to a byte offset within the copied line. */
    uint32_t off = 0, c = 1;
    while (c < col && off < line_len) {
        int k = utf8_seq_len((const unsigned char *)line_text + off, line_len - off);
        off += k ? (uint32_t)k : 1;
        c++;
    }
    e->span = rx_span(off, off + (caret_len ? caret_len : 1));
    e->src = &e->own_src;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

void rx_source_position(const RxSource *src, uint32_t off, uint32_t *line, uint32_t *col) {
    uint32_t l = src->first_line ? src->first_line : 1;
    size_t line_start = 0;
    if (off > src->len) off = (uint32_t)src->len;
    for (size_t i = 0; i < off; i++)
        if (src->text[i] == '\n') {
            l++;
            line_start = i + 1;
        }
    *line = l;
    *col = (uint32_t)utf8_width(src->text + line_start, off - line_start) + 1;
}

void rx_error_format(const RxError *e, StrBuf *out) {
    if (!e->src) {
        sb_printf(out, "error: %s\n", e->msg);
        return;
    }
    const RxSource *src = e->src;
    uint32_t line, col;
    rx_source_position(src, e->span.start, &line, &col);
    sb_printf(out, "%s:%u:%u: error: %s\n", src->name, line, col, e->msg);
    /* The line holding the span's start, then a caret under the span (within that line). */
    size_t s = e->span.start > src->len ? src->len : e->span.start;
    size_t ls = s, le = s;
    while (ls > 0 && src->text[ls - 1] != '\n') ls--;
    while (le < src->len && src->text[le] != '\n' && src->text[le] != '\r') le++;
    sb_puts(out, "  ");
    for (size_t i = ls; i < le; i++) sb_putc(out, src->text[i] == '\t' ? ' ' : src->text[i]);
    sb_puts(out, "\n  ");
    size_t pad = utf8_width(src->text + ls, s - ls);
    sb_repeat(out, " ", 1, pad);
    size_t end = e->span.end > le ? le : e->span.end;
    size_t w = end > s ? utf8_width(src->text + s, end - s) : 1;
    sb_putc(out, '^');
    if (w > 1) sb_repeat(out, "~", 1, w - 1);
    sb_putc(out, '\n');
}
