/*
 * redact.c - the one place that decides what of a connection string may be shown (base.h,
 * rx_redact): a password never reaches a message, EXPLAIN, the report or the REPL history.
 *
 * The rule works on any text (a connection string, a script line, a REPL line), because a
 * secret can sit in a string literal of a line that an error quotes:
 *   - a URI's userinfo, scheme://user:SECRET@host: the part after the first ':' before '@'
 *     (a blank, '/', '?' or '#' before any '@' means there is none);
 *   - a key that names a secret (password, sslpassword, passwd, MongoDB's
 *     tlsCertificateKeyFilePassword, and after '?' or '&' also
 *     SQLite's key, hexkey, textkey), matched case-insensitively and after percent-decoding,
 *     followed by '=' (blanks around it allowed): its value, which is either quoted (up to the
 *     next quote character, so "''my secret''" in a Relix literal is covered) or bare (up to a
 *     blank, '&', ';', ')', a quote that is not doubled, or the end).
 * Each secret is replaced by "***"; everything else is copied unchanged. Over-redacting
 * (a query comparing a column named password with '=') is accepted: it only hides text.
 */
#include "base/base.h"

#include <string.h>

static const char MASK[] = "***";

static bool key_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '%';
}

static int hexval(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Whether t[0..n), percent-decoded and lower-cased, names a secret; after_sep: the key follows
 * '?' or '&' (a URI query), where SQLite's encryption keys count too. */
static bool secret_key(const char *t, size_t n, bool after_sep) {
    char k[32];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)t[i];
        if (c == '%') {
            int h = i + 1 < n ? hexval((unsigned char)t[i + 1]) : -1;
            int l = i + 2 < n ? hexval((unsigned char)t[i + 2]) : -1;
            if (h < 0 || l < 0) return false;
            c = h * 16 + l;
            i += 2;
        }
        if (m + 1 >= sizeof k) return false;
        k[m++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    k[m] = 0;
    if (strcmp(k, "password") == 0 || strcmp(k, "sslpassword") == 0 || strcmp(k, "passwd") == 0 ||
        strcmp(k, "tlscertificatekeyfilepassword") == 0)
        return true;
    return after_sep && (strcmp(k, "key") == 0 || strcmp(k, "hexkey") == 0 || strcmp(k, "textkey") == 0);
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static bool is_quote(char c) { return c == '\'' || c == '"'; }

/* Length of the secret that starts at t[i] (0: none starts there); *from is where the masked
 * part begins (>= i). */
static size_t secret_at(const char *t, size_t n, size_t i, size_t *from) {
    /* scheme://user:SECRET@ */
    if (i + 3 <= n && memcmp(t + i, "://", 3) == 0) {
        size_t j = i + 3, colon = 0;
        for (; j < n && t[j] != '@' && t[j] != '/' && t[j] != '?' && t[j] != '#' && !is_blank(t[j]); j++)
            if (t[j] == ':' && !colon) colon = j;
        if (j < n && t[j] == '@' && colon) {
            *from = colon + 1;
            return j - (colon + 1);
        }
        return 0;
    }
    /* key = value, where key starts a word */
    if (!key_char((unsigned char)t[i]) || (i > 0 && key_char((unsigned char)t[i - 1]))) return 0;
    size_t e = i;
    while (e < n && key_char((unsigned char)t[e])) e++;
    bool after_sep = i > 0 && (t[i - 1] == '?' || t[i - 1] == '&');
    if (!secret_key(t + i, e - i, after_sep)) return 0;
    size_t j = e;
    while (j < n && is_blank(t[j])) j++;
    if (j >= n || t[j] != '=') return 0;
    j++;
    while (j < n && is_blank(t[j])) j++;
    size_t q = j;
    while (j < n && (is_quote(t[j]) || t[j] == '\\')) j++;
    size_t v = j;
    if (j > q) {
        while (j < n && !(is_quote(t[j]) && t[j - 1] != '\\')) j++;
    } else {
        /* a doubled quote is a quote inside a Relix literal, not its end */
        while (j < n && !is_blank(t[j]) && t[j] != '&' && t[j] != ';' && t[j] != ')') {
            if (is_quote(t[j]) && !(j + 1 < n && t[j + 1] == t[j])) break;
            j += is_quote(t[j]) ? 2 : 1;
        }
    }
    if (j == v) return 0;
    *from = v;
    return j - v;
}

bool rx_redact(const char *t, size_t n, StrBuf *out, size_t *offs, int n_offs) {
    size_t run = 0;
    long long delta = 0; /* output position minus input position after the last secret */
    bool any = false;
    uint64_t mapped = 0; /* bit k: offs[k] already holds its output position */
    if (n_offs > 64) n_offs = 64;
    for (size_t i = 0; i < n;) {
        size_t from, len = secret_at(t, n, i, &from);
        if (!len) {
            i++;
            continue;
        }
        any = true;
        for (int k = 0; k < n_offs; k++) {
            if (mapped >> k & 1 || offs[k] >= from + len) continue;
            offs[k] = offs[k] < from ? (size_t)((long long)offs[k] + delta) : (size_t)((long long)from + delta);
            mapped |= (uint64_t)1 << k;
        }
        sb_append(out, t + run, from - run);
        sb_puts(out, MASK);
        delta += (long long)(sizeof MASK - 1) - (long long)len;
        run = from + len;
        i = run;
    }
    sb_append(out, t + run, n - run);
    for (int k = 0; k < n_offs; k++)
        if (!(mapped >> k & 1)) offs[k] = (size_t)((long long)offs[k] + delta);
    return any;
}
