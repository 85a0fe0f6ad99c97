/*
 * catalog.c - the names a session defines, and the relations behind them.
 *
 * Inline tables are converted to columns when their statement is registered (docs/design.md's
 * inference: every non-empty cell an integer gives INT, every one numeric FLOAT, otherwise
 * TEXT; a quoted cell is TEXT; a column with no value at all is TEXT, as in CSV files; a
 * number that does not fit its type is an error). CSV sources are read on first use through
 * io/csv.c, once per session, with the options of their statement.
 */
#include "analysis/analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "connect/connect.h"
#include "io/io.h"
#include "io/parquet.h"
#include "types/number.h"

void catalog_init(Catalog *c, Arena *a) {
    memset(c, 0, sizeof *c);
    c->arena = a;
}

static int add_def(Catalog *c, RelDef *d, RxError *err);

void catalog_release_def(RelDef *d) {
    if (d->csv) csv_close(d->csv);
    else if (d->pq) pq_close(d->pq);
    else table_free(d->table);
    for (int i = 0; i < d->n_pq_parts; i++) pq_close(d->pq_parts[i]);
    free(d->pq_parts);
    d->pq_parts = NULL;
    d->n_pq_parts = 0;
    if (d->conn) db_close(d->conn);
    if (d->db_schema) {
        db_schema_free(d->db_schema);
        free(d->db_schema);
    }
    free(d->db_loaded);
    d->csv = NULL;
    d->pq = NULL;
    d->table = NULL;
    d->conn = NULL;
    d->db_schema = NULL;
    d->db_loaded = NULL;
}

RelDef *catalog_db_table(Catalog *c, const RelDef *conn, const char *table, RxSpan where,
                         const RxSource *src, RxError *err) {
    const char *name = arena_printf(c->arena, "%s.%s", conn->name, table);
    RelDef *d = catalog_find(c, name);
    if (d) return d;
    DbSchema *sc = calloc(1, sizeof *sc);
    if (!sc) {
        rx_error(err, RX_ENOMEM, NULL, where, "out of memory");
        return NULL;
    }
    if (db_table_schema(conn->conn, table, sc, err) < 0) {
        free(sc);
        /* point the message at the table's name in the script */
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        RxErrCode code = err->code;
        rx_error_clear(err);
        rx_error(err, code, src, where, "%s", msg);
        return NULL;
    }
    d = arena_alloc(c->arena, sizeof *d);
    Table *t = table_new(sc->n_cols, 0);
    bool *loaded = calloc((size_t)sc->n_cols + 1, sizeof *loaded);
    if (!d || !t || !loaded) {
        db_schema_free(sc);
        free(sc);
        table_free(t);
        free(loaded);
        rx_error(err, RX_ENOMEM, NULL, where, "out of memory");
        return NULL;
    }
    for (int i = 0; i < sc->n_cols; i++) {
        Column *ph = col_placeholder(sc->types[i], 0);
        if (!ph || table_set(t, i, ph, sc->names[i]) < 0) {
            col_release(ph);
            rx_error(err, RX_ENOMEM, NULL, where, "out of memory");
            db_schema_free(sc);
            free(sc);
            table_free(t);
            free(loaded);
            return NULL;
        }
    }
    d->name = name;
    d->stmt = conn->stmt;
    d->src = conn->src;
    d->db = (RelDef *)conn;
    d->db_table = arena_strdup(c->arena, table);
    d->db_schema = sc;
    d->db_loaded = loaded;
    d->table = t;
    d->state = 2;
    if (add_def(c, d, err) < 0) {
        catalog_release_def(d);
        return NULL;
    }
    return d;
}

/* Fetches the wanted columns of a database table that are not fetched yet, in the table's
 * order, and puts them in place of their placeholders. */
static int load_db_columns(Catalog *c, RelDef *d, const uint8_t *want, RxError *err) {
    DbSchema *sc = d->db_schema;
    Table *t = d->table;
    int k = 0;
    int *cols = malloc((size_t)(sc->n_cols + 1) * sizeof *cols);
    if (!cols) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    bool none_yet = true;
    for (int i = 0; i < sc->n_cols; i++) {
        none_yet &= !d->db_loaded[i];
        if (!d->db_loaded[i] && (!want || want[i])) cols[k++] = i;
    }
    /* a query that reads no column (count(*)) still needs the row count: fetch one column */
    if (k == 0 && none_yet && sc->n_cols > 0) cols[k++] = 0;
    if (k == 0) {
        free(cols);
        return 0;
    }
    StrBuf q;
    sb_init(&q);
    sb_puts(&q, "SELECT ");
    bool mongo = db_kind(d->db->conn) == DB_MONGO;   /* a collection: read by a find, not SQL */
    const char **names = malloc((size_t)k * sizeof *names);
    RxType *types = malloc((size_t)k * sizeof *types);
    if (!names || !types) {
        free(cols), free(names), free(types);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    for (int j = 0; j < k; j++) {
        if (j) sb_puts(&q, ", ");
        db_quote_ident(&q, sc->names[cols[j]]);
        names[j] = sc->names[cols[j]];
        types[j] = sc->types[cols[j]];
    }
    sb_puts(&q, " FROM ");
    db_quote_ident(&q, d->db_table);
    sb_puts(&q, " ORDER BY ");
    db_order_sql(&q, sc, NULL, "");
    Table *got = NULL;
    int rc = mongo ? db_collection_read(d->db->conn, d->db_table, k, types, names, &got, err)
                   : db_query(d->db->conn, q.p, k, types, names, &got, err);
    sb_free(&q);
    if (rc == 0 && t->n_rows != got->n_rows && k < sc->n_cols) {
        bool first = true;
        for (int i = 0; i < sc->n_cols; i++) first &= !d->db_loaded[i];
        if (!first) {
            rc = rx_error(err, RX_EIO, NULL, rx_span(0, 0),
                          "table '%s' changed while this session read it (%zu rows, then %zu)",
                          d->db_table, t->n_rows, got->n_rows);
        }
    }
    if (rc == 0) {
        if (t->n_rows != got->n_rows) {
            /* the first fetch fixes the row count: resize the placeholders */
            for (int i = 0; i < sc->n_cols; i++)
                if (!d->db_loaded[i]) t->cols[i]->n = got->n_rows;
            t->n_rows = got->n_rows;
        }
        for (int j = 0; j < k; j++) {
            Column *col = got->cols[j];
            col_retain(col);
            table_set(t, cols[j], col, sc->names[cols[j]]);
            d->db_loaded[cols[j]] = true;
        }
    }
    table_free(got);
    free(cols), free(names), free(types);
    RX_UNUSED(c);
    return rc;
}

void catalog_free(Catalog *c) {
    for (size_t i = 0; i < c->n; i++) catalog_release_def(c->defs[i]);
    free(c->defs);
    c->defs = NULL;
    c->n = c->cap = 0;
}

RelDef *catalog_find(const Catalog *c, const char *name) {
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->defs[i]->name, name) == 0) return c->defs[i];
    return NULL;
}

static int add_def(Catalog *c, RelDef *d, RxError *err) {
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        RelDef **p = realloc(c->defs, cap * sizeof *p);
        if (!p) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        c->defs = p;
        c->cap = cap;
    }
    c->defs[c->n++] = d;
    return 0;
}

/* ---- inline tables -------------------------------------------------------------------------- */

/* A number cell's text for a message, in buf: as written when short, else its ends and its
 * length (400 digits are not worth quoting whole). */
static const char *cell_quote(const Cell *cell, char buf[80]) {
    if (cell->len <= 40) snprintf(buf, 80, "%.*s", (int)cell->len, cell->text);
    else snprintf(buf, 80, "%.12s…%s (%zu characters)", cell->text, cell->text + cell->len - 12, cell->len);
    return buf;
}

static int build_inline_table(Catalog *c, RelDef *d, RxError *err) {
    const Stmt *st = d->stmt;
    const RxSource *src = d->src;
    size_t nr = st->n_rows;
    int nc = st->n_cols;
    for (int i = 0; i < nc; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(st->col_names[i], st->col_names[j]) == 0) {
                uint32_t line, col;
                rx_source_position(src, st->col_spans[j].start, &line, &col);
                return rx_error(err, RX_ENAME, src, st->col_spans[i],
                                "column '%s' appears twice in the header (first at %u:%u)",
                                st->col_names[i], line, col);
            }
    Table *t = table_new(nc, nr);
    if (!t) return rx_error(err, RX_ENOMEM, NULL, st->span, "out of memory");
    for (int j = 0; j < nc; j++) {
        /* Infer the type: INT if every non-empty cell is an integer, FLOAT if every one is
         * numeric, TEXT otherwise. A number too large for its type (an integer past 64 bits in
         * a FLOAT column, 1e999) still has a number's shape: it is an error at the cell, as in
         * the CSV reader, not a reason to read the column as TEXT. */
        bool all_int = true, all_num = true;
        const Cell *overflow = NULL, *out_of_range = NULL;
        for (size_t i = 0; i < nr; i++) {
            const Cell *cell = &st->cells[i * (size_t)nc + (size_t)j];
            if (!cell->text || cell->null_word) continue;
            if (cell->quoted) {
                all_int = all_num = false;
                break;
            }
            int64_t iv;
            double fv;
            int rc = num_parse_int(cell->text, cell->len, &iv);
            if (rc == -2 && !overflow) overflow = cell;
            if (rc != 0) all_int = false;
            int frc = rc != 0 ? num_parse_float(cell->text, cell->len, &fv) : 0;
            if (frc == -2 && !out_of_range) out_of_range = cell;
            if (frc == -1) all_num = false;
        }
        bool any = false;
        for (size_t i = 0; i < nr && !any; i++) {
            const Cell *cell = &st->cells[i * (size_t)nc + (size_t)j];
            any = cell->text && !(cell->null_word && !cell->quoted);
        }
        /* A column with no value at all is TEXT, as the CSV reader decides too. */
        RxType ty = !any ? TY_TEXT : all_int ? TY_INT : all_num ? TY_FLOAT : TY_TEXT;
        char quoted[80];
        if (ty == TY_FLOAT && overflow) {
            table_free(t);
            return rx_error(err, RX_EVALUE, src, overflow->span, "integer %s does not fit in 64 bits",
                            cell_quote(overflow, quoted));
        }
        if (ty == TY_FLOAT && out_of_range) {
            table_free(t);
            return rx_error(err, RX_EVALUE, src, out_of_range->span,
                            "number %s is out of range (a FLOAT holds up to about 1.8e308)",
                            cell_quote(out_of_range, quoted));
        }
        Column *col = col_new(ty, nr);
        if (!col) {
            table_free(t);
            return rx_error(err, RX_ENOMEM, NULL, st->span, "out of memory");
        }
        StrHeap *heap = NULL;
        if (ty == TY_TEXT) {
            size_t bytes = 0;
            for (size_t i = 0; i < nr; i++) bytes += st->cells[i * (size_t)nc + (size_t)j].len;
            heap = heap_new(bytes + 1);
            if (!heap || col_add_heap(col, heap) < 0) {
                heap_release(heap);
                col_release(col);
                table_free(t);
                return rx_error(err, RX_ENOMEM, NULL, st->span, "out of memory");
            }
            heap_release(heap); /* the column holds it now */
        }
        /* Text is copied first (the heap may move while growing), then slices are taken. */
        size_t *offs = ty == TY_TEXT ? calloc(nr ? nr : 1, sizeof *offs) : NULL;
        for (size_t i = 0; i < nr; i++) {
            const Cell *cell = &st->cells[i * (size_t)nc + (size_t)j];
            bool null = !cell->text || (cell->null_word && !cell->quoted);
            if (null) {
                if (col_set_null(col, i) < 0) {
                    free(offs);
                    table_free(t);
                    col_release(col);
                    return rx_error(err, RX_ENOMEM, NULL, st->span, "out of memory");
                }
                if (ty == TY_TEXT) offs[i] = 0, col_str(col)[i].len = 0;
                else memset((char *)col->data + i * type_width(ty), 0, type_width(ty));
                continue;
            }
            switch (ty) {
            case TY_INT: num_parse_int(cell->text, cell->len, &col_i64(col)[i]); break;
            case TY_FLOAT: {
                int64_t iv;
                if (num_parse_int(cell->text, cell->len, &iv) == 0) col_f64(col)[i] = (double)iv;
                else num_parse_float(cell->text, cell->len, &col_f64(col)[i]);
                break;
            }
            default: {
                int64_t off = heap_append(heap, cell->text, cell->len);
                if (off < 0) {
                    free(offs);
                    table_free(t);
                    col_release(col);
                    return rx_error(err, RX_ENOMEM, NULL, st->span, "out of memory");
                }
                offs[i] = (size_t)off;
                col_str(col)[i].len = cell->len;
                break;
            }
            }
        }
        if (ty == TY_TEXT)
            for (size_t i = 0; i < nr; i++) col_str(col)[i].ptr = heap->data + offs[i];
        free(offs);
        if (table_set(t, j, col, st->col_names[j]) < 0) {
            table_free(t);
            return rx_error(err, RX_ENOMEM, NULL, st->span, "out of memory");
        }
    }
    d->table = t;
    return 0;
}

/* ---- CSV sources ---------------------------------------------------------------------------- */

static int csv_option_text(const RxSource *src, const CsvOption *o, const char **out, size_t *len,
                           RxError *err) {
    if (o->value->kind != AST_STRING)
        return rx_error(err, RX_ETYPE, src, o->value->span, "option '%s' takes a string", o->name);
    *out = o->value->str;
    *len = o->value->str_len;
    return 0;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* schema => 'name TYPE, name TYPE, ...' (every column), or types => the same for some columns
 * (the rest detected): the pairs into *n_out, *names_out, *types_out (arena memory). */
static int parse_schema_option(Arena *a, const RxSource *src, const CsvOption *o, int *n_out,
                               const char *const **names_out, const RxType **types_out,
                               RxError *err) {
    const char *s = NULL;
    size_t n = 0;
    if (csv_option_text(src, o, &s, &n, err) < 0) return -1;
    const char **names = arena_alloc(a, (n + 1) * sizeof *names);
    RxType *types = arena_alloc(a, (n + 1) * sizeof *types);
    if (!names || !types) return rx_error(err, RX_ENOMEM, NULL, o->value->span, "out of memory");
    int k = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && is_space(s[i])) i++;
        size_t ns = i;
        while (i < n && !is_space(s[i]) && s[i] != ',') i++;
        size_t ne = i;
        while (i < n && is_space(s[i])) i++;
        size_t ts = i;
        while (i < n && !is_space(s[i]) && s[i] != ',') i++;
        size_t te = i;
        while (i < n && is_space(s[i])) i++;
        RxType ty;
        if (ne == ns || te == ts || type_from_name(s + ts, te - ts, &ty) < 0)
            return rx_error(err, RX_ESYNTAX, src, o->value->span,
                            "%s must read 'name TYPE, name TYPE, ...' with types INT, FLOAT, "
                            "BOOL, TEXT, TIMESTAMP, DATE, TIME, DURATION (column %d)", o->name,
                            k + 1);
        names[k] = arena_strndup(a, s + ns, ne - ns);
        types[k] = ty;
        k++;
        if (i < n) {
            if (s[i] != ',')
                return rx_error(err, RX_ESYNTAX, src, o->value->span,
                                "%s columns are separated by ','", o->name);
            i++;
        }
    }
    *n_out = k;
    *names_out = names;
    *types_out = types;
    return 0;
}

/* Fills *opt from the relation's csv(...) options; *types_at is the span of the types
 * option's string (when there is one), where an error about one of its names points. */
static int csv_options(Catalog *c, const RelDef *d, CsvOptions *opt, RxSpan *types_at,
                       RxError *err) {
    csv_options_default(opt);
    const Stmt *st = d->stmt;
    for (int i = 0; i < st->n_options; i++) {
        const CsvOption *o = &st->options[i];
        const char *s = NULL;
        size_t n = 0;
        if (strcmp(o->name, "delimiter") == 0) {
            if (csv_option_text(d->src, o, &s, &n, err) < 0) return -1;
            if (n == 2 && s[0] == '\\' && s[1] == 't') s = "\t", n = 1;
            if (n != 1 || s[0] == '"' || s[0] == '\n' || s[0] == '\r')
                return rx_error(err, RX_EVALUE, d->src, o->value->span,
                                "delimiter must be one character other than a quote or newline");
            opt->delimiter = s[0];
        } else if (strcmp(o->name, "header") == 0) {
            if (o->value->kind != AST_BOOL)
                return rx_error(err, RX_ETYPE, d->src, o->value->span,
                                "option 'header' takes TRUE or FALSE");
            opt->header = o->value->ival != 0;
        } else if (strcmp(o->name, "null") == 0) {
            if (csv_option_text(d->src, o, &s, &n, err) < 0) return -1;
            opt->null_text = arena_strndup(c->arena, s, n);
        } else if (strcmp(o->name, "schema") == 0) {
            if (parse_schema_option(c->arena, d->src, o, &opt->n_schema, &opt->schema_names,
                                    &opt->schema_types, err) < 0)
                return -1;
        } else if (strcmp(o->name, "types") == 0) {
            if (parse_schema_option(c->arena, d->src, o, &opt->n_types, &opt->type_names,
                                    &opt->type_types, err) < 0)
                return -1;
            *types_at = o->value->span;
        } else {
            return rx_error(err, RX_ENAME, d->src, o->name_span,
                            "unknown csv option '%s' (options: delimiter, header, null, schema, "
                            "types)", o->name);
        }
    }
    if (opt->n_schema > 0 && opt->n_types > 0)
        return rx_error(err, RX_EVALUE, d->src, *types_at,
                        "types and schema together: schema gives every column's type already");
    return 0;
}

static const char *resolve_path(Catalog *c, const char *path) {
    if (strcmp(path, "-") == 0) return path; /* standard input */
    if (path[0] == '/' || !c->base_dir || !c->base_dir[0]) return path;
    return arena_printf(c->arena, "%s/%s", c->base_dir, path);
}

/* parquet('path'): the footer now, the columns on first use (catalog_load_columns). */
static int load_parquet(Catalog *c, RelDef *d, RxError *err) {
    const Stmt *st = d->stmt;
    if (st->n_options > 0)
        return rx_error(err, RX_ENAME, d->src, st->options[0].name_span,
                        "unknown parquet option '%s' (parquet('file') takes no options)", st->options[0].name);
    const char *path = resolve_path(c, st->path);
    PqFile *f = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = pq_open(path, 0, &f, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    c->load_s += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (rc < 0) {
        /* every error of the file is about the file: point at its path in the script */
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        RxErrCode code = err->code;
        rx_error_clear(err);
        return rx_error(err, code, d->src, st->path_span, "%s", msg);
    }
    d->pq = f;
    d->table = pq_table_mut(f);
    return 0;
}

/* Moves an error without a position to the span (a file's errors point at its path). */
static void locate_error(RxError *err, const RxSource *src, RxSpan span) {
    if (err->src) return;
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    RxErrCode code = err->code;
    rx_error_clear(err);
    rx_error(err, code, src, span, "%s", msg);
}

int catalog_load_csv(Catalog *c, RelDef *d, RxError *err) {
    if (d->table) return 0;
    if (d->stmt->kind == ST_PARQUET) return load_parquet(c, d, err);
    CsvOptions opt;
    RxSpan types_at = rx_span(0, 0);
    if (csv_options(c, d, &opt, &types_at, err) < 0) return -1;
    const char *path = resolve_path(c, d->stmt->path);
    CsvFile *f = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = csv_open(path, &opt, &f, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    c->load_s += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (rc < 0) {
        if (err->code == RX_EIO || err->code == RX_EINTERRUPT || (err->code == RX_ENOMEM && !err->src)) {
            /* The file itself is missing or unreadable, or Ctrl-C stopped its reading: point at
             * the path in the script. */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            RxErrCode code = err->code;
            rx_error_clear(err);
            rx_error(err, code, d->src, d->stmt->path_span, "%s", msg);
        } else if (err->code == RX_ENAME && !err->src && opt.n_types > 0) {
            /* a name in types => '...' that the file has no column for: point at the string */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            rx_error_clear(err);
            rx_error(err, RX_ENAME, d->src, types_at, "%s", msg);
        }
        return -1;
    }
    d->csv = f;
    d->table = csv_table_mut(f);
    return 0;
}

int catalog_load_columns(Catalog *c, RelDef *d, const uint8_t *want, RxError *err) {
    if (d->db) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int rc = load_db_columns(c, d, want, err);
        clock_gettime(CLOCK_MONOTONIC, &b);
        c->load_s += (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
        return rc;
    }
    if (!d->csv && !d->pq) return 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = d->pq ? pq_load(d->pq, want, err) : csv_load(d->csv, want, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    c->load_s += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    return rc;
}

/* ---- Parquet row groups ---------------------------------------------------------------------- */

/* The order of a and b (-1, 0, 1), or 2 when they do not compare (other types, NaN). */
static int stat_cmp(const Value *a, const Value *b) {
    if (a->type == b->type) {
        switch (a->type) {
        case TY_INT: case TY_TIMESTAMP: case TY_TIME: return (a->v.i > b->v.i) - (a->v.i < b->v.i);
        case TY_DATE: return (a->v.date > b->v.date) - (a->v.date < b->v.date);
        case TY_BOOL: return (a->v.b > b->v.b) - (a->v.b < b->v.b);
        case TY_TEXT: {
            int c = rx_str_cmp(&a->v.s, &b->v.s);
            return (c > 0) - (c < 0);
        }
        case TY_FLOAT: break;
        default: return 2;
        }
    }
    if (!type_is_numeric(a->type) || !type_is_numeric(b->type)) return 2;
    if (a->type == TY_INT && b->type == TY_INT) return 2;
    double x = a->type == TY_INT ? (double)a->v.i : a->v.f, y = b->type == TY_INT ? (double)b->v.i : b->v.f;
    if (x != x || y != y) return 2;
    /* an INT beyond 2^53 rounds: equal as doubles is not proof */
    if ((a->type == TY_INT || b->type == TY_INT) && x == y) return 2;
    return (x > y) - (x < y);
}

/* Whether condition e is false (or NULL) for every row of row group g of f, by its statistics. */
static bool group_ruled_out(const PqFile *f, int g, const Expr *e) {
    if (e->kind != EX_BINARY || e->n_args != 2) return false;
    if (e->op == OP_AND) return group_ruled_out(f, g, e->args[0]) || group_ruled_out(f, g, e->args[1]);
    AstOp op = e->op;
    const Expr *col = e->args[0], *k = e->args[1];
    if (col->kind == EX_CONST && k->kind == EX_COL) {
        const Expr *t = col;
        col = k, k = t;
        op = op == OP_LT ? OP_GT : op == OP_LE ? OP_GE : op == OP_GT ? OP_LT : op == OP_GE ? OP_LE : op;
    }
    if (col->kind != EX_COL || k->kind != EX_CONST || k->value.null) return false;
    if (op != OP_EQ && op != OP_LT && op != OP_LE && op != OP_GT && op != OP_GE) return false;
    if (col->col < 0 || col->col >= pq_table(f)->n_cols) return false;
    Value mn, mx;
    int64_t nulls;
    if (pq_stats(f, g, col->col, &mn, &mx, &nulls) < 0)
        return nulls >= 0 && (size_t)nulls == pq_row_group_rows(f, g);   /* every row NULL */
    int lo = stat_cmp(&mn, &k->value), hi = stat_cmp(&mx, &k->value);
    if (lo == 2 || hi == 2) return false;
    /* NaN is left out of Parquet's min and max but is above every number in Relix's order:
     * a FLOAT column's max proves nothing about > and >= */
    if (mx.type == TY_FLOAT && (op == OP_GT || op == OP_GE)) return false;
    switch (op) {
    case OP_EQ: return lo > 0 || hi < 0;
    case OP_LT: return lo >= 0;
    case OP_LE: return lo > 0;
    case OP_GT: return hi <= 0;
    case OP_GE: return hi < 0;
    default: return false;
    }
}

/* The scan of the row groups of d's file that cond does not rule out: a copy of scan over a
 * table of those (opened once per set of row groups), or scan itself. */
static LPlan *skip_scan(Catalog *c, Arena *a, LPlan *scan, const Expr *cond, RxError *err) {
    RelDef *d = scan->source;
    int ng = pq_row_groups(d->pq);
    uint8_t *keep = arena_alloc(a, (size_t)(ng ? ng : 1));
    if (!keep) {
        rx_error(err, RX_ENOMEM, NULL, scan->span, "out of memory");
        return NULL;
    }
    int kept = 0;
    for (int g = 0; g < ng; g++) kept += keep[g] = !group_ruled_out(d->pq, g, cond);
    if (kept == ng) return scan;
    PqFile *part = NULL;
    for (int i = 0; i < d->n_pq_parts && !part; i++)
        if (pq_keeps(d->pq_parts[i], keep)) part = d->pq_parts[i];
    if (!part) {
        PqFile **v = realloc(d->pq_parts, ((size_t)d->n_pq_parts + 1) * sizeof *v);
        if (!v) {
            rx_error(err, RX_ENOMEM, NULL, scan->span, "out of memory");
            return NULL;
        }
        d->pq_parts = v;
        if (pq_open(resolve_path(c, d->stmt->path), 0, &part, err) < 0 || pq_keep_row_groups(part, keep) < 0) {
            if (part) pq_close(part);
            if (!err->code) rx_error(err, RX_ENOMEM, NULL, scan->span, "out of memory");
            locate_error(err, d->src, d->stmt->path_span);
            return NULL;
        }
        d->pq_parts[d->n_pq_parts++] = part;
    }
    LPlan *ns = arena_alloc(a, sizeof *ns);
    if (!ns) {
        rx_error(err, RX_ENOMEM, NULL, scan->span, "out of memory");
        return NULL;
    }
    *ns = *scan;
    ns->table = pq_table_mut(part);
    return ns;
}

LPlan *catalog_skip_row_groups(Catalog *c, Arena *a, LPlan *p, RxError *err) {
    if (!p) return p;
    LPlan *in[2] = {p->in[0], p->in[1]};
    for (int i = 0; i < 2; i++) {
        if (!in[i]) continue;
        const RelDef *d = in[i]->source;
        if (p->kind == LP_SELECT && i == 0 && in[i]->kind == LP_SCAN && d && d->pq && in[i]->table == d->table && p->pred)
            in[i] = skip_scan(c, a, in[i], p->pred, err);
        else
            in[i] = catalog_skip_row_groups(c, a, in[i], err);
        if (!in[i]) return NULL;
    }
    if (in[0] == p->in[0] && in[1] == p->in[1]) return p;
    LPlan *r = arena_alloc(a, sizeof *r);
    if (!r) {
        rx_error(err, RX_ENOMEM, NULL, p->span, "out of memory");
        return NULL;
    }
    *r = *p;
    r->in[0] = in[0];
    r->in[1] = in[1];
    return r;
}

int catalog_load_scan(Catalog *c, const LPlan *scan, const uint8_t *want, RxError *err) {
    RelDef *d = scan->source;
    if (!d) return 0;
    if (d->pq && scan->table != d->table) {
        for (int i = 0; i < d->n_pq_parts; i++)
            if (pq_table(d->pq_parts[i]) == scan->table) {
                struct timespec t0, t1;
                clock_gettime(CLOCK_MONOTONIC, &t0);
                int rc = pq_load(d->pq_parts[i], want, err);
                clock_gettime(CLOCK_MONOTONIC, &t1);
                c->load_s += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
                return rc;
            }
    }
    return catalog_load_columns(c, d, want, err);
}

/* ---- registration --------------------------------------------------------------------------- */

int catalog_define(Catalog *c, const Stmt *st, const RxSource *src, RxError *err) {
    RelDef *prev = catalog_find(c, st->name);
    if (prev) {
        uint32_t line, col;
        rx_source_position(prev->src, prev->stmt->name_span.start, &line, &col);
        if (prev->src == src)
            return rx_error(err, RX_ENAME, src, st->name_span,
                            "'%s' is already defined (at %u:%u)", st->name, line, col);
        return rx_error(err, RX_ENAME, src, st->name_span, "'%s' is already defined (at %s:%u:%u)",
                        st->name, prev->src->name, line, col);
    }
    RelDef *d = arena_alloc(c->arena, sizeof *d);
    if (!d) return rx_error(err, RX_ENOMEM, NULL, st->span, "out of memory");
    d->name = st->name;
    d->stmt = st;
    d->src = src;
    if (add_def(c, d, err) < 0) return -1;
    if (st->kind == ST_TABLE) {
        if (build_inline_table(c, d, err) < 0) {
            c->n--;
            return -1;
        }
        d->state = 2;
    }
    if (st->kind == ST_CONNECT) {
        if (db_open(st->path, c->base_dir, &d->conn, err) < 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            RxErrCode code = err->code;
            rx_error_clear(err);
            rx_error(err, code, src, st->path_span, "%s", msg);
            c->n--;
            return -1;
        }
        db_set_owner(d->conn, c);   /* the session's rx_interrupt cancels its statements */
        d->state = 2;
    }
    return 0;
}

int catalog_define_table(Catalog *c, const char *name, Table *t, RxError *err) {
    static const RxSource host = {.name = "<registered>", .text = "", .len = 0, .first_line = 1};
    RelDef *prev = catalog_find(c, name);
    if (prev) {
        table_free(t);
        return rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "'%s' is already defined", name);
    }
    Stmt *st = arena_alloc(c->arena, sizeof *st);
    RelDef *d = arena_alloc(c->arena, sizeof *d);
    char *nm = arena_strdup(c->arena, name);
    if (!st || !d || !nm) {
        table_free(t);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    memset(st, 0, sizeof *st);
    memset(d, 0, sizeof *d);
    st->kind = ST_TABLE;
    st->name = nm;
    st->n_cols = t->n_cols;
    d->name = nm;
    d->stmt = st;
    d->src = &host;
    d->table = t;
    d->state = 2;
    if (add_def(c, d, err) < 0) {
        d->table = NULL;
        table_free(t);
        return -1;
    }
    return 0;
}
