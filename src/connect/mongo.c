/*
 * mongo.c - MongoDB connections through libmongoc (connect.h, "MongoDB"): the connection
 * string and its credentials, a collection's columns inferred from a sample of its documents
 * (connect/mongo_flatten.h), and the documents read with one find per load, in _id order, in
 * batches. Nothing is pushed to the server but the projection of the top-level fields read.
 */
#include <dlfcn.h>
#include <mongoc/mongoc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "connect/connect.h"
#include "connect/mongo_flatten.h"

#define MONGO_SAMPLE 1000        /* documents the schema is inferred from, by default */
#define MONGO_BATCH 1000         /* documents per round trip of a find */
#define MONGO_TIMEOUT_MS 3000    /* server selection and connect timeouts unless the URI sets them */

typedef struct {
    char *name;
    MfSchema schema;
} MongoColl;

struct MongoConn {
    mongoc_client_t *client;
    char *db;                /* the URI's database */
    char *password;          /* MONGODB_PASSWORD, masked in messages; NULL when none */
    long sample;             /* documents the schema comes from; 0: all */
    MongoColl *colls;        /* schemas inferred so far */
    int n_colls;
    int stop;                /* set by mongo_cancel (atomically): the read in progress ends */
};

void mongo_cancel(MongoConn *m) {
    if (m) __atomic_store_n(&m->stop, 1, __ATOMIC_SEQ_CST);
}

/* libmongoc's functions, from the library loaded at run time: linked into every program, its
 * constructor would run libmongoc's global initialisation (a shared-memory segment per process,
 * and a warning on standard error when that fails) in programs that never connect to MongoDB.
 * libbson, which the flattening uses, is loaded on first use as well (mongo_flatten.h). */
#define MONGO_FNS(X) \
    X(mongoc_client_command_simple) X(mongoc_client_destroy) X(mongoc_client_get_collection) \
    X(mongoc_client_get_database) X(mongoc_client_new_from_uri_with_error) X(mongoc_client_set_appname) \
    X(mongoc_client_set_error_api) X(mongoc_collection_destroy) X(mongoc_collection_estimated_document_count) \
    X(mongoc_collection_find_with_opts) X(mongoc_cursor_destroy) X(mongoc_cursor_error) X(mongoc_cursor_next) \
    X(mongoc_database_destroy) X(mongoc_database_has_collection) X(mongoc_init) X(mongoc_log_set_handler) \
    X(mongoc_uri_destroy) X(mongoc_uri_get_database) X(mongoc_uri_get_option_as_int32) \
    X(mongoc_uri_get_option_as_utf8) X(mongoc_uri_get_password) X(mongoc_uri_get_username) \
    X(mongoc_uri_new_with_error) X(mongoc_uri_set_option_as_int32) X(mongoc_uri_set_password)

static struct {
#define X(f) __typeof__(f) *f;
    MONGO_FNS(X)
#undef X
} api;

static pthread_once_t mongo_once = PTHREAD_ONCE_INIT;
static bool mongo_loaded;
static char mongo_load_error[512];


/* libmongoc's log goes nowhere: a library never prints (errors come back as values). */
static void quiet_log(mongoc_log_level_t level, const char *domain, const char *message, void *ud) {
    (void)level, (void)domain, (void)message, (void)ud;
}

/* Loads libmongoc (RELIX_LIBMONGOC, else libmongoc-1.0.so.0) and initialises it, once per
 * process; on failure mongo_load_error says why. Its shared-memory counters are turned off
 * (MONGOC_DISABLE_SHM, unless the environment sets it) before its constructor runs. */
static void mongo_global_init(void) {
    const char *env = getenv("RELIX_LIBMONGOC");
    const char *name = env && *env ? env : "libmongoc-1.0.so.0";
    setenv("MONGOC_DISABLE_SHM", "1", 0);
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(mongo_load_error, sizeof mongo_load_error,
                 "MongoDB's client library %s cannot be loaded (%s): install libmongoc-1.0-0 (apt), or set "
                 "RELIX_LIBMONGOC to its path", name, why ? why : "not found");
        return;
    }
    static const struct { const char *sym; size_t off; } fns[] = {
#define X(f) {#f, offsetof(__typeof__(api), f)},
        MONGO_FNS(X)
#undef X
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(fns); i++) {
        void *p = dlsym(h, fns[i].sym);
        if (!p) {
            snprintf(mongo_load_error, sizeof mongo_load_error, "%s is no libmongoc 1.x: it has no %s", name,
                     fns[i].sym);
            dlclose(h);
            return;
        }
        memcpy((char *)&api + fns[i].off, &p, sizeof p);
    }
    api.mongoc_log_set_handler(quiet_log, NULL);
    api.mongoc_init();
    mongo_loaded = true;
}

/* The driver's message with the password in use masked (should the driver ever quote it). */
static void message(const MongoConn *m, const char *msg, char *buf, size_t n) {
    snprintf(buf, n, "%s", msg && *msg ? msg : "unknown error");
    const char *pw = m ? m->password : NULL;
    size_t k = pw ? strlen(pw) : 0;
    if (k < 4) return;
    for (char *at; (at = strstr(buf, pw)) != NULL;) {
        memcpy(at, "***", 3);
        memmove(at + 3, at + k, strlen(at + k) + 1);
    }
}

void mongo_close(MongoConn *m) {
    if (!m) return;
    if (m->client) api.mongoc_client_destroy(m->client);
    for (int i = 0; i < m->n_colls; i++) {
        free(m->colls[i].name);
        mf_free(&m->colls[i].schema);
    }
    free(m->colls);
    free(m->db);
    if (m->password) {
        memset(m->password, 0, strlen(m->password));
        free(m->password);
    }
    free(m);
}

/* uri without Relix's own option sample=N|all, into out; *sample set from it (MONGO_SAMPLE
 * when absent). -1 for a value that is neither a positive number nor all. */
static int take_sample(const char *uri, StrBuf *out, long *sample) {
    *sample = MONGO_SAMPLE;
    const char *q = strchr(uri, '?');
    if (!q) {
        sb_puts(out, uri);
        return 0;
    }
    sb_append(out, uri, (size_t)(q - uri));
    int kept = 0;
    for (const char *p = q + 1; *p;) {
        const char *e = p + strcspn(p, "&;");
        if ((size_t)(e - p) > 7 && strncasecmp(p, "sample=", 7) == 0) {
            char v[32];
            snprintf(v, sizeof v, "%.*s", (int)(e - p - 7), p + 7);
            char *end;
            long n = strtol(v, &end, 10);
            if (strcasecmp(v, "all") == 0) *sample = 0;
            else if (*v && !*end && n > 0) *sample = n;
            else return -1;
        } else if (e > p) {
            sb_putc(out, kept++ ? '&' : '?');
            sb_append(out, p, (size_t)(e - p));
        }
        p = *e ? e + 1 : e;
    }
    return 0;
}

static const char MONGO_SECRET_HINT[] =
    "a connection string must not hold a password (it is not shown here): name the user in it "
    "(mongodb://user@host/db) and put the password in MONGODB_PASSWORD";

int mongo_open(const char *uri, const char *display, bool secret, MongoConn **out, RxError *err) {
    *out = NULL;
    if (secret) return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s", MONGO_SECRET_HINT);
    if (mf_bson_load(err) < 0) return -1;
    pthread_once(&mongo_once, mongo_global_init);
    if (!mongo_loaded) return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s", mongo_load_error);
    MongoConn *m = calloc(1, sizeof *m);
    if (!m) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    StrBuf plain;
    sb_init(&plain);
    if (take_sample(uri, &plain, &m->sample) < 0) {
        sb_free(&plain);
        mongo_close(m);
        return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                        "%s: sample= takes a number of documents or all", display);
    }
    if (plain.oom) {
        sb_free(&plain);
        mongo_close(m);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    bson_error_t e;
    mongoc_uri_t *u = api.mongoc_uri_new_with_error(plain.p, &e);
    sb_free(&plain);
    if (!u) {
        mongo_close(m);
        return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "malformed MongoDB connection string %s: %s", display,
                        e.message);
    }
    int rc = -1;
    if (api.mongoc_uri_get_password(u) || api.mongoc_uri_get_option_as_utf8(u, MONGOC_URI_TLSCERTIFICATEKEYFILEPASSWORD, NULL)) {
        rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s", MONGO_SECRET_HINT);
        goto out;
    }
    const char *db = api.mongoc_uri_get_database(u);
    if (!db || !*db) {
        rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s names no database (mongodb://host:port/db)", display);
        goto out;
    }
    if (!(m->db = strdup(db))) goto oom;
    const char *pw = getenv("MONGODB_PASSWORD");
    if (pw && *pw && api.mongoc_uri_get_username(u)) {
        if (!(m->password = strdup(pw))) goto oom;
        api.mongoc_uri_set_password(u, pw);
    }
    if (api.mongoc_uri_get_option_as_int32(u, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 0) == 0)
        api.mongoc_uri_set_option_as_int32(u, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, MONGO_TIMEOUT_MS);
    if (api.mongoc_uri_get_option_as_int32(u, MONGOC_URI_CONNECTTIMEOUTMS, 0) == 0)
        api.mongoc_uri_set_option_as_int32(u, MONGOC_URI_CONNECTTIMEOUTMS, MONGO_TIMEOUT_MS);
    m->client = api.mongoc_client_new_from_uri_with_error(u, &e);
    if (!m->client) {
        char msg[512];
        message(m, e.message, msg, sizeof msg);
        rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "cannot connect to %s: %s", display, msg);
        goto out;
    }
    api.mongoc_client_set_error_api(m->client, MONGOC_ERROR_API_VERSION_2);
    api.mongoc_client_set_appname(m->client, "relix");
    /* a ping: the server is selected (and the login made) now, so that a wrong address or
     * password is an error of the connect statement */
    bson_t ping = BSON_INITIALIZER, reply;
    bsonlib.bson_append_int32(&ping, "ping", -1, 1);
    bool ok = api.mongoc_client_command_simple(m->client, m->db, &ping, NULL, &reply, &e);
    bsonlib.bson_destroy(&ping);
    bsonlib.bson_destroy(&reply);
    if (!ok) {
        char msg[512];
        message(m, e.message, msg, sizeof msg);
        rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot connect to %s: %s", display, msg);
        goto out;
    }
    *out = m;
    m = NULL;
    rc = 0;
    goto out;
oom:
    rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
out:
    api.mongoc_uri_destroy(u);
    mongo_close(m);
    return rc;
}

static MongoColl *find_coll(MongoConn *m, const char *name) {
    for (int i = 0; i < m->n_colls; i++)
        if (strcmp(m->colls[i].name, name) == 0) return &m->colls[i];
    return NULL;
}

/* A find on the collection: every document (filter {}) in _id order, in batches, with the
 * projection (NULL: whole documents) and at most limit documents (0: all). */
static mongoc_cursor_t *find(MongoConn *m, const char *coll, const bson_t *projection, long limit,
                             mongoc_collection_t **c) {
    *c = api.mongoc_client_get_collection(m->client, m->db, coll);
    bson_t filter = BSON_INITIALIZER, opts = BSON_INITIALIZER, sort;
    bsonlib.bson_append_document_begin(&opts, "sort", -1, &sort);
    bsonlib.bson_append_int32(&sort, "_id", -1, 1);
    bsonlib.bson_append_document_end(&opts, &sort);
    bsonlib.bson_append_int32(&opts, "batchSize", -1, MONGO_BATCH);
    if (limit > 0) bsonlib.bson_append_int64(&opts, "limit", -1, limit);
    if (projection) bsonlib.bson_append_document(&opts, "projection", -1, projection);
    mongoc_cursor_t *cur = api.mongoc_collection_find_with_opts(*c, &filter, &opts, NULL);
    bsonlib.bson_destroy(&filter);
    bsonlib.bson_destroy(&opts);
    return cur;
}

/* Whether the database has the collection (listCollections); an error answers true, so that
 * the find's own error is the one reported. */
static bool has_collection(MongoConn *m, const char *coll) {
    mongoc_database_t *db = api.mongoc_client_get_database(m->client, m->db);
    bson_error_t e;
    bool has = api.mongoc_database_has_collection(db, coll, &e);
    if (!has && e.code) has = true;
    api.mongoc_database_destroy(db);
    return has;
}

int mongo_table_schema(MongoConn *m, const char *display, const char *coll, DbSchema *out, RxError *err) {
    memset(out, 0, sizeof *out);
    out->rows_est = -1;
    MongoColl *known = find_coll(m, coll);
    MfSchema fresh;
    mf_init(&fresh);
    MfSchema *s = known ? &known->schema : &fresh;
    if (!known) {
        mongoc_collection_t *c;
        mongoc_cursor_t *cur = find(m, coll, NULL, m->sample, &c);
        const bson_t *doc;
        int rc = 0;
        while (rc == 0 && api.mongoc_cursor_next(cur, &doc)) rc = mf_observe(s, doc, err);
        bson_error_t e;
        if (rc == 0 && api.mongoc_cursor_error(cur, &e)) {
            char msg[512];
            message(m, e.message, msg, sizeof msg);
            rc = rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: find on '%s': %s", display, coll, msg);
        }
        api.mongoc_cursor_destroy(cur);
        api.mongoc_collection_destroy(c);
        if (rc == 0 && s->n_docs == 0)
            rc = has_collection(m, coll)
                     ? rx_error(err, RX_ENAME, NULL, rx_span(0, 0),
                                "collection '%s' of %s is empty: it has no documents to infer columns from", coll, display)
                     : rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s has no collection '%s'", display, coll);
        if (rc < 0) {
            /* the message names the collection; a field's error says which */
            if (err->code == RX_ETYPE || err->code == RX_EVALUE) {
                char msg[sizeof err->msg];
                snprintf(msg, sizeof msg, "%s", err->msg);
                RxErrCode code = err->code;
                rx_error_clear(err);
                rx_error(err, code, NULL, rx_span(0, 0), "collection '%s': %s", coll, msg);
            }
            mf_free(&fresh);
            return -1;
        }
        mf_finish(s);
        MongoColl *grown = realloc(m->colls, (size_t)(m->n_colls + 1) * sizeof *grown);
        char *name = strdup(coll);
        if (!grown || !name) {
            if (grown) m->colls = grown;
            free(name);
            mf_free(&fresh);
            return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        }
        m->colls = grown;
        known = &m->colls[m->n_colls++];
        known->name = name;
        known->schema = fresh;
        s = &known->schema;
    }
    for (int i = 0; i < s->n_cols; i++)
        if (db_schema_add(out, s->cols[i].name, s->cols[i].type, DBN_OPAQUE) < 0) goto oom;
    if (db_schema_order_add(out, "_id") < 0 || !(out->order_by = strdup("_id"))) goto oom;
    return 0;
oom:
    db_schema_free(out);
    return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
}

/* Whether a top-level key can stand in a projection (a '.' would mean a path, a leading '$' an
 * operator). */
static bool projectable(const char *key) { return key[0] != '$' && !strchr(key, '.'); }

/* The projection of the top-level fields holding the columns marked in want (NULL: all, and
 * then no projection): into proj, true when there is one. */
static bool projection(const MfSchema *s, const uint8_t *want, bson_t *proj) {
    if (!want) return false;
    bool id = false;
    for (int c = 0; c < s->n_cols; c++)
        if (want[c] && !projectable(s->cols[c].keys[0])) return false;
    for (int c = 0; c < s->n_cols; c++) {
        if (!want[c]) continue;
        const char *k = s->cols[c].keys[0];
        bool dup = false;
        for (int d = 0; d < c && !dup; d++) dup = want[d] && strcmp(s->cols[d].keys[0], k) == 0;
        if (dup) continue;
        bsonlib.bson_append_int32(proj, k, -1, 1);
        id |= strcmp(k, "_id") == 0;
    }
    if (!id) bsonlib.bson_append_int32(proj, "_id", -1, 0);
    return true;
}

/* The want mask (per column of s) of the columns named in names; NULL when they are all. */
static uint8_t *want_of(const MfSchema *s, int k, const char *const *names, int *slot) {
    uint8_t *want = calloc((size_t)s->n_cols + 1, 1);
    if (!want) return NULL;
    for (int c = 0; c < s->n_cols; c++) slot[c] = -1;
    for (int j = 0; j < k; j++) {
        int c = mf_find(s, names[j]);
        if (c >= 0) want[c] = 1, slot[c] = j;
    }
    return want;
}

int mongo_read(MongoConn *m, const char *display, const char *coll, int k, const RxType *types,
               const char *const *names, Table **out, RxError *err) {
    *out = NULL;
    MongoColl *known = find_coll(m, coll);
    if (!known) return rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s: collection '%s' was not read", display, coll);
    const MfSchema *s = &known->schema;
    int *slot = calloc((size_t)s->n_cols + 1, sizeof *slot);
    ColBuilder *b = calloc((size_t)k + 1, sizeof *b);
    uint8_t *want = slot ? want_of(s, k, names, slot) : NULL;
    if (!slot || !b || !want) {
        free(slot), free(b), free(want);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    int rc = 0;
    for (int j = 0; j < k; j++) {
        colb_init(&b[j], types[j], 1024);
        int c = mf_find(s, names[j]);
        if (c < 0 || s->cols[c].type != types[j])
            rc = rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s: collection '%s' has no column '%s' of type %s",
                          display, coll, names[j], type_name(types[j]));
    }
    bson_t proj = BSON_INITIALIZER;
    bool projected = rc == 0 && k < s->n_cols && projection(s, want, &proj);
    mongoc_collection_t *c = NULL;
    mongoc_cursor_t *cur = rc == 0 ? find(m, coll, projected ? &proj : NULL, 0, &c) : NULL;
    size_t rows = 0;
    const bson_t *doc;
    __atomic_store_n(&m->stop, 0, __ATOMIC_SEQ_CST);
    while (rc == 0 && api.mongoc_cursor_next(cur, &doc)) {
        if (__atomic_load_n(&m->stop, __ATOMIC_SEQ_CST)) {
            rc = rx_error(err, RX_EINTERRUPT, NULL, rx_span(0, 0), "interrupted");
            break;
        }
        rc = mf_read(s, doc, rows, slot, k, b, true, err);
        if (rc < 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            RxErrCode code = err->code;
            rx_error_clear(err);
            rx_error(err, code, NULL, rx_span(0, 0), "collection '%s': %s", coll, msg);
        }
        rows++;
    }
    bson_error_t e;
    if (rc == 0 && cur && api.mongoc_cursor_error(cur, &e)) {
        char msg[512];
        message(m, e.message, msg, sizeof msg);
        rc = rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: find on '%s': %s", display, coll, msg);
    }
    if (cur) api.mongoc_cursor_destroy(cur);
    if (c) api.mongoc_collection_destroy(c);
    bsonlib.bson_destroy(&proj);
    if (rc == 0) {
        Table *t = colb_table(b, k, rows, names);
        if (!t) rc = rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        else *out = t;
    }
    for (int j = 0; j < k; j++)
        if (b[j].col) colb_free(&b[j]);
    free(b), free(slot), free(want);
    return rc;
}

int mongo_table_rows(MongoConn *m, const char *coll, double *rows) {
    mongoc_collection_t *c = api.mongoc_client_get_collection(m->client, m->db, coll);
    bson_error_t e;
    int64_t n = api.mongoc_collection_estimated_document_count(c, NULL, NULL, NULL, &e);
    api.mongoc_collection_destroy(c);
    if (n < 0) return -1;
    *rows = (double)n;
    return 0;
}

void mongo_find_text(MongoConn *m, const char *coll, const uint8_t *want, StrBuf *b) {
    MongoColl *known = find_coll(m, coll);
    if (!known) return;
    const MfSchema *s = &known->schema;
    bool all = true;
    for (int c = 0; want && c < s->n_cols; c++) all &= want[c] != 0;
    bson_t proj = BSON_INITIALIZER;
    bool projected = !all && projection(s, want, &proj);
    sb_puts(b, "db.getCollection(");
    char *name = bsonlib.bson_utf8_escape_for_json(coll, -1);
    sb_printf(b, "\"%s\").find({}, ", name ? name : "");
    bsonlib.bson_free(name);
    if (projected) {
        char *j = bsonlib.bson_as_relaxed_extended_json(&proj, NULL);
        sb_puts(b, j ? j : "{}");
        bsonlib.bson_free(j);
    } else {
        sb_puts(b, "{}");
    }
    sb_printf(b, ").sort({ \"_id\" : 1 }).batchSize(%d)", MONGO_BATCH);
    bsonlib.bson_destroy(&proj);
}
