/*
 * error.c - error records and their printed form.
 *
 * An error carries a code, a message and a span into a source. Line and column are computed
 * only when the error is printed. The printed form is the one of docs/design.md:
 *   FILE:LINE:COL: error: MESSAGE
 *     <the source line>
 *     <spaces>^~~~
 */
#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest source line printed whole, in characters; a longer one is shown as a window around
 * the span, cut at both ends with '…' (a 1 MB literal is not echoed back). */
#define LINE_WINDOW 160
#define LINE_BEFORE 60

/* Formats the message into dst (cap bytes). A message that does not fit keeps its beginning
 * and its end with " … " between, so that the reason, which messages give last, survives a
 * huge quoted literal; the cut falls on character boundaries. */
static void set_msg(char *dst, size_t cap, const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(dst, cap, fmt, ap);
    char *full = n >= 0 && (size_t)n >= cap ? malloc((size_t)n + 1) : NULL;
    if (full) {
        static const char gap[] = " … ";
        vsnprintf(full, (size_t)n + 1, fmt, again);
        size_t keep = (cap - sizeof gap) / 2, head = keep, tail = (size_t)n - keep;
        while (head > 0 && ((unsigned char)full[head] & 0xC0) == 0x80) head--;
        while (tail < (size_t)n && ((unsigned char)full[tail] & 0xC0) == 0x80) tail++;
        memcpy(dst, full, head);
        memcpy(dst + head, gap, sizeof gap - 1);
        memcpy(dst + head + sizeof gap - 1, full + tail, (size_t)n - tail);
        dst[head + sizeof gap - 1 + (size_t)n - tail] = 0;
        free(full);
    }
    va_end(again);
}

/* The byte offset k characters after (k > 0) or before (k < 0) offset i, within [lo, hi]. */
static size_t skip_chars(const char *t, size_t i, size_t lo, size_t hi, long k) {
    for (; k > 0 && i < hi; k--)
        do i++; while (i < hi && ((unsigned char)t[i] & 0xC0) == 0x80);
    for (; k < 0 && i > lo; k++)
        do i--; while (i > lo && ((unsigned char)t[i] & 0xC0) == 0x80);
    return i;
}

/* Columns that t[0..n) takes as rx_error_format prints it: one per UTF-8 character and one per
 * byte that is not UTF-8 (each prints as U+FFFD). */
static size_t shown_width(const char *t, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; w++) {
        int k = (unsigned char)t[i] < 0x80 ? 1 : utf8_seq_len((const unsigned char *)t + i, n - i);
        i += k ? (size_t)k : 1;
    }
    return w;
}

void rx_error_clear(RxError *e) {
    e->code = RX_OK;
    e->msg[0] = 0;
    e->hint[0] = 0;
    e->src = NULL;
}

void rx_error_hint(RxError *e, const char *fmt, ...) {
    if (!e || e->code == RX_OK || e->hint[0]) return;
    va_list ap;
    va_start(ap, fmt);
    set_msg(e->hint, sizeof e->hint, fmt, ap);
    va_end(ap);
}

int rx_verror(RxError *e, RxErrCode code, const RxSource *src, RxSpan span, const char *fmt,
              va_list ap) {
    if (!e || e->code != RX_OK) return -1;
    e->code = code;
    e->src = src;
    e->span = span;
    e->hint[0] = 0;
    set_msg(e->msg, sizeof e->msg, fmt, ap);
    return -1;
}

int rx_error(RxError *e, RxErrCode code, const RxSource *src, RxSpan span, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rx_verror(e, code, src, span, fmt, ap);
    va_end(ap);
    return -1;
}

int rx_error_at_file(RxError *e, RxErrCode code, const char *path, uint32_t line, uint32_t col,
                     const char *line_text, size_t line_len, uint32_t caret_len,
                     const char *fmt, ...) {
    if (!e || e->code != RX_OK) return -1;
    e->code = code;
    e->hint[0] = 0;
    snprintf(e->own_name, sizeof e->own_name, "%s", path);
    /* col is 1-based in characters; convert to a byte offset within the line. */
    size_t off = 0;
    for (uint32_t c = 1; c < col && off < line_len; c++) {
        int k = utf8_seq_len((const unsigned char *)line_text + off, line_len - off);
        off += k ? (size_t)k : 1;
    }
    /* A line longer than the copy keeps a window around the position, marked with '…' at
     * each cut, so that the caret and the column stay right past the first kilobyte. */
    static const char ell[] = "…";
    const size_t room = sizeof e->own_text - 1, el = sizeof ell - 1;
    size_t from = 0, n = line_len, pre = 0;
    if (line_len > room) {
        from = off > room / 4 ? off - room / 4 : 0;
        while (from > 0 && ((unsigned char)line_text[from] & 0xC0) == 0x80) from--;
        pre = from > 0 ? el : 0;
        n = line_len - from;
        if (pre + n > room) {
            n = room - pre - el;
            while (n > 0 && ((unsigned char)line_text[from + n] & 0xC0) == 0x80) n--;
        }
    }
    memcpy(e->own_text, ell, pre);
    memcpy(e->own_text + pre, line_text + from, n);
    size_t len = pre + n;
    if (from + n < line_len) memcpy(e->own_text + len, ell, el), len += el;
    e->own_text[len] = 0;
    e->own_src.name = e->own_name;
    e->own_src.text = e->own_text;
    e->own_src.len = len;
    e->own_src.first_line = line;
    e->own_src.first_col = from > 0 ? (uint32_t)(col - utf8_width(line_text + from, off - from) - 1) : 1;
    uint32_t at = (uint32_t)(off - from + pre);
    e->span = rx_span(at, at + (caret_len ? caret_len : 1));
    e->src = &e->own_src;
    va_list ap;
    va_start(ap, fmt);
    set_msg(e->msg, sizeof e->msg, fmt, ap);
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
    if (line_start == 0 && src->first_col > 1) *col += src->first_col - 1;
}

void rx_error_format(const RxError *e, StrBuf *out) {
    /* the message, too, never shows a connection string's secret */
    if (!e->src) {
        sb_puts(out, "error: ");
        rx_redact(e->msg, strlen(e->msg), out, NULL, 0);
        sb_putc(out, '\n');
        if (e->hint[0]) sb_printf(out, "  hint: %s\n", e->hint);
        return;
    }
    const RxSource *src = e->src;
    uint32_t line, col;
    rx_source_position(src, e->span.start, &line, &col);
    sb_printf(out, "%s:%u:%u: error: ", src->name, line, col);
    rx_redact(e->msg, strlen(e->msg), out, NULL, 0);
    sb_putc(out, '\n');
    /* The line holding the span's start, then a caret under the span (within that line). The
     * line is shown with any connection string's secret masked (rx_redact), the span mapped
     * onto the masked line. */
    size_t s0 = e->span.start > src->len ? src->len : e->span.start;
    size_t ls = s0, le = s0;
    while (ls > 0 && src->text[ls - 1] != '\n') ls--;
    while (le < src->len && src->text[le] != '\n' && src->text[le] != '\r') le++;
    size_t span_end = e->span.end < s0 ? s0 : e->span.end > le ? le : e->span.end;
    size_t offs[2] = {s0 - ls, span_end - ls};
    StrBuf red;
    sb_init(&red);
    rx_redact(src->text + ls, le - ls, &red, offs, 2);
    const char *text = red.p ? red.p : "";
    size_t s = offs[0], end0 = offs[1];
    ls = 0, le = red.p ? red.n : 0;
    /* A long line shows only a window that starts a little before the span. */
    size_t ws = ls, we = le;
    if (utf8_width(text + ls, le - ls) > LINE_WINDOW) {
        ws = skip_chars(text, s, ls, le, -LINE_BEFORE);
        we = skip_chars(text, ws, ls, le, LINE_WINDOW);
    }
    sb_puts(out, "  ");
    if (ws > ls) sb_puts(out, "…");
    /* A tab prints as one space and other control bytes (a NUL would end the text for a C
     * caller), C1 controls (U+0080..U+009F, which a terminal obeys) and bytes that are not
     * UTF-8 as U+FFFD, each one column wide like the character it stands for. */
    for (size_t i = ws; i < we;) {
        unsigned char c = (unsigned char)text[i];
        int k = c < 0x80 ? 1 : utf8_seq_len((const unsigned char *)text + i, we - i);
        if (c == '\t') sb_putc(out, ' ');
        else if (c < 0x20 || c == 0x7F || !k || (k == 2 && c == 0xC2 && (unsigned char)text[i + 1] < 0xA0))
            sb_puts(out, "\xEF\xBF\xBD");
        else sb_append(out, text + i, (size_t)k);
        i += k ? (size_t)k : 1;
    }
    if (we < le) sb_puts(out, "…");
    sb_puts(out, "\n  ");
    size_t pad = shown_width(text + ws, s - ws) + (ws > ls);
    sb_repeat(out, " ", 1, pad);
    size_t end = end0 > we ? we : end0;
    size_t w = end > s ? shown_width(text + s, end - s) : 1;
    sb_putc(out, '^');
    if (w > 1) sb_repeat(out, "~", 1, w - 1);
    sb_putc(out, '\n');
    if (e->hint[0]) sb_printf(out, "  hint: %s\n", e->hint);
    sb_free(&red);
}

const char *rx_source_text(Arena *a, const RxSource *src, RxSpan span) {
    if (!src) return "?";
    StrBuf b;
    sb_init(&b);
    bool space = false;
    for (uint32_t i = span.start; i < span.end && i < src->len; i++) {
        char c = src->text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = true;
            continue;
        }
        if (space && b.n) sb_putc(&b, ' ');
        space = false;
        sb_putc(&b, c);
    }
    const char *r = arena_strdup(a, b.p ? b.p : "?");
    sb_free(&b);
    return r ? r : "?";
}
