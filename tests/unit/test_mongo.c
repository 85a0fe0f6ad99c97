/*
 * test_mongo.c - MongoDB documents flattened to columns (connect/mongo_flatten.h), without a
 * server: documents built with libbson, the inferred columns and types, and every value read
 * back, checked exactly; then thousands of random documents against a reference flattening
 * written here over bson_iter.
 */
#include "connect/mongo_flatten.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/number.h"

/* One cell as text: NULL, an integer, a FLOAT (%.17g), true/false, a TIMESTAMP's microseconds
 * as "@us", a TEXT as it is. */
static void cell(const Column *c, size_t i, StrBuf *out) {
    Value v = col_get(c, i);
    if (v.null) {
        sb_puts(out, "NULL");
        return;
    }
    switch (c->type) {
    case TY_INT: sb_printf(out, "%lld", (long long)v.v.i); break;
    case TY_FLOAT: sb_printf(out, "%.17g", v.v.f); break;
    case TY_BOOL: sb_puts(out, v.v.b ? "true" : "false"); break;
    case TY_TIMESTAMP: sb_printf(out, "@%lld", (long long)v.v.i); break;
    case TY_TEXT: sb_append(out, v.v.s.ptr, (size_t)v.v.s.len); break;
    default: sb_puts(out, "?"); break;
    }
}

/* The schema of docs (all observed), then every document read with every column, as
 * "name:TYPE,name:TYPE|cell,cell|cell,cell": the whole table in one string. NULL and *err set
 * on an error. */
static char *flatten(bson_t **docs, int n, bool strict, int n_sample, RxError *err) {
    MfSchema s;
    mf_init(&s);
    StrBuf out;
    sb_init(&out);
    char *res = NULL;
    ColBuilder *b = NULL;
    int *slot = NULL;
    if (n_sample < 0) n_sample = n;
    for (int i = 0; i < n_sample; i++)
        if (mf_observe(&s, docs[i], err) < 0) goto done;
    mf_finish(&s);
    b = calloc((size_t)s.n_cols + 1, sizeof *b);
    slot = calloc((size_t)s.n_cols + 1, sizeof *slot);
    for (int c = 0; c < s.n_cols; c++) {
        slot[c] = c;
        colb_init(&b[c], s.cols[c].type, 16);
        sb_printf(&out, "%s%s:%s", c ? "," : "", s.cols[c].name, type_name(s.cols[c].type));
    }
    for (int i = 0; i < n; i++)
        if (mf_read(&s, docs[i], (size_t)i, slot, s.n_cols, b, strict, err) < 0) goto done;
    Column **cols = calloc((size_t)s.n_cols + 1, sizeof *cols);
    for (int c = 0; c < s.n_cols; c++) cols[c] = colb_finish(&b[c]);
    for (int i = 0; i < n; i++) {
        sb_putc(&out, '|');
        for (int c = 0; c < s.n_cols; c++) {
            if (c) sb_putc(&out, ',');
            cell(cols[c], (size_t)i, &out);
        }
    }
    for (int c = 0; c < s.n_cols; c++) col_release(cols[c]);
    free(cols);
    res = strdup(out.p ? out.p : "");
done:
    for (int c = 0; b && c < s.n_cols; c++)
        if (b[c].col) colb_free(&b[c]);
    free(b);
    free(slot);
    sb_free(&out);
    mf_free(&s);
    return res;
}

static void free_docs(bson_t **docs, int n) {
    for (int i = 0; i < n; i++) bson_destroy(docs[i]);
}

/* flatten() of docs compared with want; the error's text when want starts with "error: ". */
static void expect(bson_t **docs, int n, bool strict, int n_sample, const char *want, int line) {
    RxError err;
    rx_error_clear(&err);
    char *got = flatten(docs, n, strict, n_sample, &err);
    char buf[1200];
    if (!got) snprintf(buf, sizeof buf, "error: %s", err.msg);
    const char *g = got ? got : buf;
    bool ok = strcmp(g, want) == 0;
    CHECK(ok);
    if (!ok) fprintf(stderr, "  line %d:\n  got  %s\n  want %s\n", line, g, want);
    free(got);
    free_docs(docs, n);
}
#define EXPECT(docs, n, want) expect(docs, n, true, -1, want, __LINE__)

static void test_types(void) {
    bson_oid_t oid;
    bson_oid_init_from_string(&oid, "65a1b2c3d4e5f60718293a4b");
    bson_t *d[3];
    d[0] = bson_new();
    BSON_APPEND_OID(d[0], "_id", &oid);
    BSON_APPEND_INT32(d[0], "i32", -7);
    BSON_APPEND_INT64(d[0], "i64", INT64_MAX);
    BSON_APPEND_DOUBLE(d[0], "f", 2.5);
    BSON_APPEND_UTF8(d[0], "s", "héllo");
    BSON_APPEND_BOOL(d[0], "b", true);
    BSON_APPEND_DATE_TIME(d[0], "t", 1700000000123);
    BSON_APPEND_NULL(d[0], "n");
    bson_decimal128_t dec;
    bson_decimal128_from_string("1.10", &dec);
    BSON_APPEND_DECIMAL128(d[0], "dec", &dec);
    d[1] = bson_new();
    BSON_APPEND_INT64(d[1], "i32", 5);
    BSON_APPEND_DOUBLE(d[1], "dec", -0.25);
    BSON_APPEND_DATE_TIME(d[1], "t", -1);
    BSON_APPEND_BOOL(d[1], "b", false);
    d[2] = bson_new(); /* every field missing */
    EXPECT(d, 3,
           "_id:TEXT,i32:INT,i64:INT,f:FLOAT,s:TEXT,b:BOOL,t:TIMESTAMP,n:TEXT,dec:FLOAT"
           "|65a1b2c3d4e5f60718293a4b,-7,9223372036854775807,2.5,héllo,true,@1700000000123000,NULL,1.1000000000000001"
           "|NULL,5,NULL,NULL,NULL,false,@-1000,NULL,-0.25"
           "|NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL");
}

static void test_nested_and_arrays(void) {
    bson_t *d[2];
    d[0] = BCON_NEW("a", "{", "b", BCON_INT32(1), "c", "{", "d", BCON_UTF8("x"), "}", "}", "arr", "[",
                    BCON_INT32(1), BCON_UTF8("t\"wo"), "{", "x", BCON_NULL, "}", "[", BCON_BOOL(true), "]", "]",
                    "e", "{", "}");
    d[1] = BCON_NEW("a", "{", "c", "{", "d", BCON_UTF8("y"), "z", BCON_DOUBLE(1.5), "}", "}", "arr", "[", "]");
    EXPECT(d, 2,
           "a.b:INT,a.c.d:TEXT,arr:TEXT,a.c.z:FLOAT"
           "|1,x,[1, \"t\\\"wo\", {\"x\": null}, [true]],NULL"
           "|NULL,y,[],1.5");
    /* an array of Dates, ObjectIds, decimals and a regex */
    bson_t *e[1];
    bson_oid_t oid;
    bson_oid_init_from_string(&oid, "000000000000000000000001");
    bson_decimal128_t dec;
    bson_decimal128_from_string("-12.500", &dec);
    e[0] = BCON_NEW("v", "[", BCON_DATE_TIME(0), BCON_OID(&oid), BCON_DECIMAL128(&dec), BCON_REGEX("^a", "i"),
                    BCON_DOUBLE(0.1), BCON_INT64(-3), "]");
    EXPECT(e, 1,
           "v:TEXT|[\"1970-01-01T00:00:00Z\", \"000000000000000000000001\", \"-12.500\", "
           "{ \"$regularExpression\" : { \"pattern\" : \"^a\", \"options\" : \"i\" } }, 0.1, -3]");
}

static void test_conflicts(void) {
    bson_t *d[3];
    d[0] = BCON_NEW("x", BCON_INT32(1), "y", BCON_INT32(2), "z", BCON_BOOL(true), "w", BCON_DATE_TIME(86400000),
                    "v", BCON_INT64(9007199254740993), "o", BCON_INT32(4));
    d[1] = BCON_NEW("x", BCON_UTF8("s"), "y", BCON_DOUBLE(0.5), "z", BCON_INT32(3), "w", BCON_UTF8("later"), "v",
                    BCON_UTF8("t"), "o", "{", "p", BCON_INT32(5), "}");
    d[2] = BCON_NEW("x", BCON_DOUBLE(1e300), "o", BCON_NULL);
    /* mixes widen to TEXT (numbers, bools, Dates as Relix writes them), INT and FLOAT to FLOAT;
     * a field that is a document in one and a value in another is both columns */
    EXPECT(d, 3,
           "x:TEXT,y:FLOAT,z:TEXT,w:TEXT,v:TEXT,o:INT,o.p:INT"
           "|1,2,true,1970-01-02T00:00:00Z,9007199254740993,4,NULL"
           "|s,0.5,3,later,t,NULL,5"
           "|1e+300,NULL,NULL,NULL,NULL,NULL,NULL");
    /* an int64 that a double would round is an error, never a rounded FLOAT */
    bson_t *e[2];
    e[0] = BCON_NEW("y", BCON_DOUBLE(0.5));
    e[1] = BCON_NEW("y", BCON_INT64(9007199254740993));
    EXPECT(e, 2, "error: column 'y' (FLOAT), document 2: the int64 9007199254740993 is not exact as a FLOAT");
    bson_t *f[2];
    f[0] = BCON_NEW("y", BCON_DOUBLE(0.5));
    f[1] = BCON_NEW("y", BCON_INT64(9007199254740992));
    EXPECT(f, 2, "y:FLOAT|0.5|9007199254740992");
}

static void test_nulls_only(void) {
    bson_t *d[2];
    d[0] = BCON_NEW("n", BCON_NULL, "u", BCON_UNDEFINED);
    d[1] = BCON_NEW("n", BCON_NULL);
    EXPECT(d, 2, "n:TEXT,u:TEXT|NULL,NULL|NULL,NULL");
}

static void test_names(void) {
    bson_t *d[1];
    d[0] = bson_new();
    BSON_APPEND_INT32(d[0], "a.b", 1);
    BSON_APPEND_INT32(d[0], "q\"uote", 2);
    BSON_APPEND_INT32(d[0], "sp ace", 3);
    BSON_APPEND_INT32(d[0], "it's", 4);
    BSON_APPEND_INT32(d[0], "$x", 5);
    EXPECT(d, 1, "a.b:INT,q\"uote:INT,sp ace:INT,it's:INT,$x:INT|1,2,3,4,5");
    /* the key "a.b" and the field b of a spell one name: an error, never one column of both */
    bson_t *e[2];
    e[0] = bson_new();
    BSON_APPEND_INT32(e[0], "a.b", 1);
    e[1] = BCON_NEW("a", "{", "b", BCON_INT32(2), "}");
    EXPECT(e, 2, "error: two fields spell the column name 'a.b' (a key with a '.' in it and a nested field)");
    /* a field repeated in one document */
    bson_t *f[1];
    f[0] = bson_new();
    BSON_APPEND_INT32(f[0], "k", 1);
    BSON_APPEND_INT32(f[0], "k", 2);
    EXPECT(f, 1, "error: document 1 has the field 'k' twice");
}

static void test_deep_and_wide(void) {
    /* 60 levels: one column k.k.....k */
    bson_t *levels[61];
    levels[60] = bson_new();
    BSON_APPEND_INT32(levels[60], "k", 42);
    for (int i = 59; i >= 0; i--) {
        levels[i] = bson_new();
        BSON_APPEND_DOCUMENT(levels[i], "k", levels[i + 1]);
    }
    StrBuf want;
    sb_init(&want);
    for (int i = 0; i < 61; i++) sb_puts(&want, i ? ".k" : "k");
    sb_puts(&want, ":INT|42");
    bson_t *d[1] = {bson_copy(levels[0])};
    expect(d, 1, true, -1, want.p, __LINE__);
    sb_free(&want);
    for (int i = 0; i < 61; i++) bson_destroy(levels[i]);
    /* 150 levels: an error, not a stack overflow */
    bson_t *deep = bson_new();
    BSON_APPEND_INT32(deep, "k", 1);
    for (int i = 0; i < 150; i++) {
        bson_t *up = bson_new();
        BSON_APPEND_DOCUMENT(up, "k", deep);
        bson_destroy(deep);
        deep = up;
    }
    bson_t *e[1] = {deep};
    RxError err;
    rx_error_clear(&err);
    char *got = flatten(e, 1, true, -1, &err);
    CHECK(got == NULL && strstr(err.msg, "nests deeper than 100 levels") != NULL);
    free(got);
    free_docs(e, 1);
    /* 3000 fields */
    bson_t *w[2];
    w[0] = bson_new();
    w[1] = bson_new();
    for (int i = 0; i < 3000; i++) {
        char k[16];
        snprintf(k, sizeof k, "f%d", i);
        BSON_APPEND_INT32(w[0], k, i);
        if (i % 2) BSON_APPEND_UTF8(w[1], k, "s");
    }
    rx_error_clear(&err);
    got = flatten(w, 2, true, -1, &err);
    CHECK(got != NULL);
    if (got) {
        CHECK(strncmp(got, "f0:INT,f1:TEXT,f2:INT,", 22) == 0);
        CHECK(strstr(got, ",f2999:TEXT|0,1,2,") != NULL);
        CHECK(strstr(got, ",2998,2999|NULL,s,NULL,s,") != NULL);
        size_t len = strlen(got);
        CHECK(len > 6 && strcmp(got + len - 6, "NULL,s") == 0);
    }
    free(got);
    free_docs(w, 2);
}

static void test_beyond_sample(void) {
    /* the schema from the first document: a field only in the second is an error when strict */
    bson_t *d[2];
    d[0] = BCON_NEW("a", BCON_INT32(1));
    d[1] = BCON_NEW("a", BCON_INT32(2), "extra", BCON_UTF8("x"));
    expect(d, 2, true, 1, "error: document 2 has the field 'extra', which the documents the schema was inferred "
                          "from lack (infer it from more of them: ?sample=N or ?sample=all)", __LINE__);
    d[0] = BCON_NEW("a", BCON_INT32(1));
    d[1] = BCON_NEW("a", BCON_INT32(2), "extra", BCON_UTF8("x"));
    expect(d, 2, false, 1, "a:INT|1|2", __LINE__);
    /* a value its column cannot hold: an error naming column, document and BSON type */
    d[0] = BCON_NEW("a", BCON_INT32(1));
    d[1] = BCON_NEW("a", BCON_UTF8("two"));
    expect(d, 2, true, 1, "error: column 'a' (INT), document 2: a string value (the sample held only integers here)",
           __LINE__);
    d[0] = BCON_NEW("t", BCON_DATE_TIME(5));
    d[1] = BCON_NEW("t", BCON_INT32(5));
    expect(d, 2, true, 1, "error: column 't' (TIMESTAMP), document 2: a int32 value (the sample held only Dates here)",
           __LINE__);
    /* a TEXT column takes any value in its text form */
    d[0] = BCON_NEW("s", BCON_UTF8("x"));
    d[1] = BCON_NEW("s", "{", "q", BCON_INT32(1), "}");
    expect(d, 2, true, 1, "error: document 2 has the field 's.q', which the documents the schema was inferred "
                          "from lack (infer it from more of them: ?sample=N or ?sample=all)", __LINE__);
    d[0] = BCON_NEW("s", BCON_UTF8("x"));
    d[1] = BCON_NEW("s", "[", BCON_INT32(1), "]");
    expect(d, 2, true, 1, "s:TEXT|x|[1]", __LINE__);
}

/* Reading some columns only: the others are not touched, and a field beyond the sample under a
 * top-level field that is not read is no error. */
static void test_slots(void) {
    bson_t *d = BCON_NEW("a", BCON_INT32(1), "b", "{", "c", BCON_UTF8("x"), "}", "d", BCON_BOOL(false));
    bson_t *e = BCON_NEW("a", BCON_INT32(2), "d", BCON_BOOL(true), "b", "{", "new", BCON_INT32(0), "}");
    MfSchema s;
    mf_init(&s);
    RxError err;
    rx_error_clear(&err);
    CHECK(mf_observe(&s, d, &err) == 0);
    mf_finish(&s);
    CHECK(s.n_cols == 3 && mf_find(&s, "b.c") == 1 && mf_find(&s, "b") == -1);
    int slot[3] = {-1, -1, 0};
    ColBuilder b[1];
    colb_init(&b[0], TY_BOOL, 4);
    CHECK(mf_read(&s, d, 0, slot, 1, b, true, &err) == 0);
    CHECK(mf_read(&s, e, 1, slot, 1, b, true, &err) == 0);
    Column *got = colb_finish(&b[0]);
    CHECK(got && got->n == 2 && !col_get(got, 0).v.b && col_get(got, 1).v.b);
    col_release(got);
    int slot2[3] = {-1, 0, -1};
    ColBuilder c[1];
    colb_init(&c[0], TY_TEXT, 4);
    CHECK(mf_read(&s, e, 1, slot2, 1, c, true, &err) < 0 && strstr(err.msg, "'b.new'") != NULL);
    colb_free(&c[0]);
    mf_free(&s);
    bson_destroy(d);
    bson_destroy(e);
}

/* ---- randomized: the flattening against a reference written over bson_iter --------------------- */

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const KEYS[] = {"a", "b", "c", "x y", "q\"", "é"};

static void random_doc(bson_t *d, int depth) {
    int n = (int)(next() % 5);
    for (int i = 0; i < n; i++) {
        const char *k = KEYS[next() % 6];
        bson_iter_t it;
        if (bson_iter_init_find(&it, d, k)) continue; /* no repeated key */
        switch (next() % (depth < 3 ? 10 : 9)) {
        case 0: BSON_APPEND_INT32(d, k, (int32_t)(next() % 2001) - 1000); break;
        case 1: BSON_APPEND_INT64(d, k, (int64_t)(next() % 4000001) - 2000000); break;
        case 2: BSON_APPEND_DOUBLE(d, k, (double)(int64_t)(next() % 20001 - 10000) / 8); break;
        case 3: {
            char s[8];
            snprintf(s, sizeof s, "s%d", (int)(next() % 100));
            BSON_APPEND_UTF8(d, k, s);
            break;
        }
        case 4: BSON_APPEND_BOOL(d, k, next() % 2); break;
        case 5: BSON_APPEND_NULL(d, k); break;
        case 6: BSON_APPEND_DATE_TIME(d, k, (int64_t)(next() % 2000000000000ULL)); break;
        case 7: {
            bson_t arr;
            BSON_APPEND_ARRAY_BEGIN(d, k, &arr);
            int m = (int)(next() % 3);
            for (int j = 0; j < m; j++) {
                char idx[16];
                snprintf(idx, sizeof idx, "%d", j);
                BSON_APPEND_INT32(&arr, idx, (int32_t)(next() % 10));
            }
            bson_append_array_end(d, &arr);
            break;
        }
        case 8: BSON_APPEND_INT32(d, k, (int32_t)(next() % 3)); break;
        default: {
            bson_t sub;
            BSON_APPEND_DOCUMENT_BEGIN(d, k, &sub);
            random_doc(&sub, depth + 1);
            bson_append_document_end(d, &sub);
        }
        }
    }
}

/* The reference: each leaf of a document as (name, type, value), by plain recursion. */
typedef struct {
    char name[64];
    bson_type_t t;
    bson_iter_t it;
} Leaf;

static void leaves(bson_iter_t *it, const char *prefix, Leaf *out, int *n) {
    while (bson_iter_next(it)) {
        char name[64];
        snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "", bson_iter_key(it));
        if (BSON_ITER_HOLDS_DOCUMENT(it)) {
            bson_iter_t child;
            bson_iter_recurse(it, &child);
            leaves(&child, name, out, n);
        } else {
            snprintf(out[*n].name, sizeof out[*n].name, "%s", name);
            out[*n].t = bson_iter_type(it);
            out[*n].it = *it;
            (*n)++;
        }
    }
}

/* The reference's type of a column from the BSON types of its non-null values. */
static RxType ref_type(bool any_int, bool any_double, bool any_bool, bool any_date, bool any_other) {
    int kinds = any_int + any_double + any_bool + any_date + any_other;
    if (kinds == 0) return TY_TEXT;
    if (any_int && kinds == 1) return TY_INT;
    if (any_double && !any_bool && !any_date && !any_other) return TY_FLOAT;
    if (any_bool && kinds == 1) return TY_BOOL;
    if (any_date && kinds == 1) return TY_TIMESTAMP;
    return TY_TEXT;
}

/* The reference's cell text of one leaf in a column of type t (cell()'s format). */
static void ref_cell(const Leaf *l, RxType t, StrBuf *out) {
    char buf[64];
    int64_t i = 0;
    bool is_int = l->t == BSON_TYPE_INT32 || l->t == BSON_TYPE_INT64;
    if (is_int) i = l->t == BSON_TYPE_INT32 ? bson_iter_int32(&l->it) : bson_iter_int64(&l->it);
    if (l->t == BSON_TYPE_NULL) sb_puts(out, "NULL");
    else if (t == TY_INT) sb_printf(out, "%lld", (long long)i);
    else if (t == TY_FLOAT) sb_printf(out, "%.17g", is_int ? (double)i : bson_iter_double(&l->it));
    else if (t == TY_BOOL) sb_puts(out, bson_iter_bool(&l->it) ? "true" : "false");
    else if (t == TY_TIMESTAMP) sb_printf(out, "@%lld", (long long)bson_iter_date_time(&l->it) * 1000);
    else if (is_int) sb_printf(out, "%lld", (long long)i);
    else if (l->t == BSON_TYPE_DOUBLE) num_format_double(bson_iter_double(&l->it), buf), sb_puts(out, buf);
    else if (l->t == BSON_TYPE_BOOL) sb_puts(out, bson_iter_bool(&l->it) ? "true" : "false");
    else if (l->t == BSON_TYPE_UTF8) sb_puts(out, bson_iter_utf8(&l->it, NULL));
    else if (l->t == BSON_TYPE_DATE_TIME) {
        int64_t ms = bson_iter_date_time(&l->it);
        time_t secs = (time_t)(ms / 1000);
        struct tm tm;
        gmtime_r(&secs, &tm);
        strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
        sb_puts(out, buf);
        if (ms % 1000) {
            snprintf(buf, sizeof buf, ".%03d", (int)(ms % 1000));
            size_t n = strlen(buf);
            while (buf[n - 1] == '0') buf[--n] = 0;
            sb_puts(out, buf);
        }
        sb_putc(out, 'Z');
    } else if (l->t == BSON_TYPE_ARRAY) {
        bson_iter_t child;
        bson_iter_recurse(&l->it, &child);
        sb_putc(out, '[');
        for (int j = 0; bson_iter_next(&child); j++) sb_printf(out, "%s%d", j ? ", " : "", bson_iter_int32(&child));
        sb_putc(out, ']');
    } else sb_puts(out, "?");
}

static void test_random(void) {
    enum { ROUNDS = 3000, DOCS = 6, MAXC = 64, MAXL = 256 };
    int mismatches = 0;
    for (int round = 0; round < ROUNDS; round++) {
        bson_t *docs[DOCS];
        int nd = 1 + (int)(next() % DOCS);
        for (int i = 0; i < nd; i++) {
            docs[i] = bson_new();
            random_doc(docs[i], 0);
        }
        /* the reference table */
        static Leaf lv[DOCS][MAXL];
        int nl[DOCS];
        char names[MAXC][64];
        int nc = 0;
        bool ai[MAXC] = {0}, af[MAXC] = {0}, ab[MAXC] = {0}, ad[MAXC] = {0}, ao[MAXC] = {0};
        for (int i = 0; i < nd; i++) {
            bson_iter_t it;
            bson_iter_init(&it, docs[i]);
            nl[i] = 0;
            leaves(&it, "", lv[i], &nl[i]);
            for (int j = 0; j < nl[i]; j++) {
                int c = 0;
                while (c < nc && strcmp(names[c], lv[i][j].name) != 0) c++;
                if (c == nc) memcpy(names[nc++], lv[i][j].name, sizeof names[0]);
                bson_type_t t = lv[i][j].t;
                if (t == BSON_TYPE_INT32 || t == BSON_TYPE_INT64) ai[c] = true;
                else if (t == BSON_TYPE_DOUBLE) af[c] = true;
                else if (t == BSON_TYPE_BOOL) ab[c] = true;
                else if (t == BSON_TYPE_DATE_TIME) ad[c] = true;
                else if (t != BSON_TYPE_NULL) ao[c] = true;
            }
        }
        StrBuf want;
        sb_init(&want);
        sb_puts(&want, "");
        RxType types[MAXC];
        for (int c = 0; c < nc; c++) {
            types[c] = ref_type(ai[c], af[c], ab[c], ad[c], ao[c]);
            sb_printf(&want, "%s%s:%s", c ? "," : "", names[c], type_name(types[c]));
        }
        for (int i = 0; i < nd; i++) {
            sb_putc(&want, '|');
            for (int c = 0; c < nc; c++) {
                if (c) sb_putc(&want, ',');
                int j = 0;
                while (j < nl[i] && strcmp(lv[i][j].name, names[c]) != 0) j++;
                if (j == nl[i]) sb_puts(&want, "NULL");
                else ref_cell(&lv[i][j], types[c], &want);
            }
        }
        RxError err;
        rx_error_clear(&err);
        char *got = flatten(docs, nd, true, -1, &err);
        bool same = got && strcmp(got, want.p) == 0;
        if (!same && mismatches++ < 3)
            fprintf(stderr, "random round %d:\n  got  %s\n  want %s\n", round, got ? got : err.msg, want.p);
        CHECK(same);
        free(got);
        sb_free(&want);
        free_docs(docs, nd);
    }
}

int main(void) {
    test_types();
    test_nested_and_arrays();
    test_conflicts();
    test_nulls_only();
    test_names();
    test_deep_and_wide();
    test_beyond_sample();
    test_slots();
    test_random();
    return check_report("mongo");
}
