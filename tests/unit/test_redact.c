/*
 * test_redact.c - unit tests of rx_redact (src/base/redact.c), the one function that decides
 * what of a connection string may be shown: every spelling of a password is masked, the rest
 * is kept byte for byte, and offsets into the text map onto the masked copy.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "check.h"

static char *got;

/* t redacted; valid until the next call. */
static const char *red(const char *t) {
    free(got);
    StrBuf b;
    sb_init(&b);
    rx_redact(t, strlen(t), &b, NULL, 0);
    sb_putc(&b, 0);
    got = b.p;
    return got;
}

static void test_spellings(void) {
    CHECK_STR(red("postgresql://u:s3cret@h/db"), "postgresql://u:***@h/db");
    CHECK_STR(red("postgres://u:s3cret@h:5432/db?sslmode=require"), "postgres://u:***@h:5432/db?sslmode=require");
    CHECK_STR(red("postgresql://u@h/db?password=s3cret"), "postgresql://u@h/db?password=***");
    CHECK_STR(red("postgresql://u@h/db?a=1&password=s3cret&b=2"), "postgresql://u@h/db?a=1&password=***&b=2");
    CHECK_STR(red("postgresql://u@h/db?pass%77ord=s3cret"), "postgresql://u@h/db?pass%77ord=***");
    CHECK_STR(red("postgresql://u@h/db?password=s%33cret"), "postgresql://u@h/db?password=***");
    CHECK_STR(red("host=h password=s3cret dbname=d"), "host=h password=*** dbname=d");
    CHECK_STR(red("host=h password = 'my s3cret' dbname=d"), "host=h password = '***' dbname=d");
    CHECK_STR(red("connect('host=h password = ''my s3cret'' dbname=d');"),
              "connect('host=h password = ''***'' dbname=d');");
    CHECK_STR(red("host=h PASSWORD=s3cret"), "host=h PASSWORD=***");
    CHECK_STR(red("host=h sslpassword=s3cret"), "host=h sslpassword=***");
    /* MongoDB's password of a TLS client key, in any case */
    CHECK_STR(red("mongodb://h/db?tls=true&tlsCertificateKeyFilePassword=s3cret&x=1"),
              "mongodb://h/db?tls=true&tlsCertificateKeyFilePassword=***&x=1");
    CHECK_STR(red("mongodb://u:pw1@h1,h2:27018/db"), "mongodb://u:***@h1,h2:27018/db");
    CHECK_STR(red("sqlite:x.db?key=s3cret"), "sqlite:x.db?key=***");
    CHECK_STR(red("PG := connect('postgresql://u:s3cret@h/db'); query { PG.t };"),
              "PG := connect('postgresql://u:***@h/db'); query { PG.t };");
    /* a quote inside the secret, doubled in a Relix literal */
    CHECK_STR(red("connect('postgresql://u:pa''ss@h/db')"), "connect('postgresql://u:***@h/db')");
    CHECK_STR(red("connect('host=h password=pa''ss dbname=d')"), "connect('host=h password=*** dbname=d')");
    CHECK_STR(red("connect('host=h password=s3cret')"), "connect('host=h password=***')");
    /* nothing secret: unchanged */
    CHECK_STR(red("postgresql://u@h:5432/db?sslmode=disable"), "postgresql://u@h:5432/db?sslmode=disable");
    CHECK_STR(red("host=h user=password dbname=key"), "host=h user=password dbname=key");
    CHECK_STR(red("σ mykey = 1 (T); keypassword=1"), "σ mykey = 1 (T); keypassword=1");
    CHECK_STR(red("http://h/x:y@z"), "http://h/x:y@z");
    StrBuf b;
    sb_init(&b);
    CHECK(!rx_redact("host=h", 6, &b, NULL, 0));
    CHECK(rx_redact("password=x", 10, &b, NULL, 0));
    sb_free(&b);
}

static void test_offsets(void) {
    /* offsets before, inside and after a secret */
    const char *t = "c('pg://u:longsecret@h') x";
    size_t offs[4] = {2, 12, 20, 25}; /* the quote, inside the secret, '@', 'x' */
    StrBuf b;
    sb_init(&b);
    rx_redact(t, strlen(t), &b, offs, 4);
    sb_putc(&b, 0);
    CHECK_STR(b.p, "c('pg://u:***@h') x");
    CHECK(offs[0] == 2);
    CHECK(offs[1] == 10);
    CHECK(offs[2] == 13 && b.p[offs[2]] == '@');
    CHECK(offs[3] == 18 && b.p[offs[3]] == 'x');
    sb_free(&b);
}

/* An error whose span is a string holding a password prints its line masked, the caret under
 * the masked string. */
static void test_error_line(void) {
    const char *text = "PG := connect('postgresql://u:s3cret@h/db');";
    RxSource src = {"s.rx", text, strlen(text), 1, 1};
    RxError e;
    memset(&e, 0, sizeof e);
    rx_error(&e, RX_EVALUE, &src, rx_span(14, 43), "a connection string must not hold a password");
    StrBuf b;
    sb_init(&b);
    rx_error_format(&e, &b);
    CHECK_STR(b.p, "s.rx:1:15: error: a connection string must not hold a password\n"
                   "  PG := connect('postgresql://u:***@h/db');\n"
                   "                ^~~~~~~~~~~~~~~~~~~~~~~~~~\n");
    sb_free(&b);
}

int main(void) {
    test_spellings();
    test_offsets();
    test_error_line();
    free(got);
    return check_report("redact");
}
