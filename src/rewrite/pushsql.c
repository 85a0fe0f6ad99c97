/*
 * pushsql.c - SQL pushdown (PUSH-SQL-001, PUSH-SQL-002): a join over two bare tables of one
 * database connection becomes one SQL statement run by the database, as
 * spec/interval-join.md and spec/asof-join.md describe.
 *
 *   IJOIN over tables a, b (any dialect):
 *     SELECT l.*, r.* FROM a AS l JOIN b AS r ON <the relation's endpoint predicate>
 *            [AND l.k = r.k ...]  [AND l.x IS NOT NULL ...]  ORDER BY l.<order>, r.<order>
 *   ASOF (PostgreSQL; LEFT JOIN for the outer form, JOIN for INNER):
 *     SELECT l.*, r.* FROM a AS l LEFT JOIN LATERAL (SELECT * FROM b AS r WHERE r.k = l.k ...
 *            AND r.m <= l.m ORDER BY r.m DESC, <r's order> DESC LIMIT 1) AS r ON TRUE
 *            ORDER BY l.<order>
 *
 * The endpoint predicate is the spec's, applied literally, plus IS NOT NULL for the endpoints it
 * does not read (DESIGN.md: NULL endpoints never match). ORDER BY each table's order (its
 * primary key, rowid or ctid, connect.h) gives the rows in the order the engine would, and the
 * tie-break on the right table's order makes LIMIT 1 pick the row TIES(FIRST|LAST) picks, so
 * the spec's documented tie divergence does not arise. Text compares bytewise (COLLATE "C" on
 * PostgreSQL). What falls back to the engine: SQLite ASOF (no LATERAL), WITHIN (no portable
 * distance), two connections, other sources, and on SQLite endpoints that are not INT, FLOAT
 * or TEXT (SQLite keeps timestamps as text or numbers of its own choosing). Every identifier is
 * quoted; no value is ever spliced into the statement.
 */
#include <string.h>

#include "connect/connect.h"
#include "exec/asof.h"
#include "exec/ijoin.h"
#include "rewrite/rewrite.h"

/* The database table under p: a scan, or a scan under renames (aliases). */
static const RelDef *bare_table(const LPlan *p) {
    while (p->kind == LP_RENAME) p = p->in[0];
    if (p->kind != LP_SCAN || !p->source) return NULL;
    const RelDef *d = p->source;
    return d->db ? d : NULL;
}

typedef struct {
    StrBuf *b;
    bool pg;
    const LPlan *lp;
} Gen;

/* alias."column" of input side (0 left, 1 right), with COLLATE "C" for text on PostgreSQL. */
static void col(Gen *g, int side, int c, bool collate) {
    const RelDef *d = bare_table(g->lp->in[side]);
    const DbSchema *sc = d->db_schema;
    sb_puts(g->b, side == 0 ? "l." : "r.");
    db_quote_ident(g->b, sc->names[c]);
    if (collate && g->pg && sc->types[c] == TY_TEXT) sb_puts(g->b, " COLLATE \"C\"");
}

static void cmp(Gen *g, int ls, int lc, const char *op, int rs, int rc) {
    col(g, ls, lc, true);
    sb_printf(g->b, " %s ", op);
    col(g, rs, rc, true);
}

static void select_list(Gen *g) {
    for (int side = 0; side < 2; side++) {
        const DbSchema *sc = bare_table(g->lp->in[side])->db_schema;
        for (int i = 0; i < sc->n_cols; i++) {
            if (side || i) sb_puts(g->b, ", ");
            col(g, side, i, false);
        }
    }
}

static void ijoin_predicate(Gen *g) {
    const int *e = g->lp->ends;
    int L = 0, R = 1;
    int ls = e[0], le = e[1], rs = e[2], re = e[3];
    bool reads[4] = {true, true, true, true};
#define AND sb_puts(g->b, " AND ")
    switch ((IjRelation)g->lp->relation) {
    case IJ_INTERSECTS: cmp(g, L, ls, "<", R, re); AND; cmp(g, R, rs, "<", L, le); break;
    case IJ_PRECEDES: cmp(g, L, le, "<", R, rs); reads[0] = reads[3] = false; break;
    case IJ_PRECEDED_BY: cmp(g, L, ls, ">", R, re); reads[1] = reads[2] = false; break;
    case IJ_MEETS: cmp(g, L, le, "=", R, rs); reads[0] = reads[3] = false; break;
    case IJ_MET_BY: cmp(g, L, ls, "=", R, re); reads[1] = reads[2] = false; break;
    case IJ_OVERLAPS: cmp(g, L, ls, "<", R, rs); AND; cmp(g, L, le, ">", R, rs); AND; cmp(g, L, le, "<", R, re); break;
    case IJ_OVERLAPPED_BY: cmp(g, R, rs, "<", L, ls); AND; cmp(g, R, re, ">", L, ls); AND; cmp(g, R, re, "<", L, le); break;
    case IJ_STARTS: cmp(g, L, ls, "=", R, rs); AND; cmp(g, L, le, "<", R, re); break;
    case IJ_STARTED_BY: cmp(g, L, ls, "=", R, rs); AND; cmp(g, R, re, "<", L, le); break;
    case IJ_DURING: cmp(g, R, rs, "<", L, ls); AND; cmp(g, L, le, "<", R, re); break;
    case IJ_CONTAINS: cmp(g, L, ls, "<", R, rs); AND; cmp(g, R, re, "<", L, le); break;
    case IJ_FINISHES: cmp(g, L, le, "=", R, re); AND; cmp(g, R, rs, "<", L, ls); break;
    case IJ_FINISHED_BY: cmp(g, L, le, "=", R, re); AND; cmp(g, L, ls, "<", R, rs); break;
    case IJ_EQUALS: cmp(g, L, ls, "=", R, rs); AND; cmp(g, L, le, "=", R, re); break;
    case IJ_N_RELATIONS: break;
    }
    static const int side_of[4] = {0, 0, 1, 1};
    for (int k = 0; k < 4; k++)
        if (!reads[k]) {
            AND;
            col(g, side_of[k], e[k], false);
            sb_puts(g->b, " IS NOT NULL");
        }
    for (int k = 0; k < g->lp->n_keys; k++) {
        AND;
        cmp(g, L, g->lp->lkeys[k], "=", R, g->lp->rkeys[k]);
    }
#undef AND
}

static bool sqlite_comparable(const DbSchema *sc, int c) {
    RxType t = sc->types[c];
    return t == TY_INT || t == TY_FLOAT || t == TY_TEXT;
}

static LPlan *push(Arena *a, LPlan *p, RewriteLog *log, int *rc) {
    if (!p || *rc < 0) return p;
    LPlan *in0 = push(a, p->in[0], log, rc), *in1 = push(a, p->in[1], log, rc);
    if (in0 != p->in[0] || in1 != p->in[1]) {
        LPlan *c = arena_alloc(a, sizeof *c);
        if (!c) {
            *rc = -1;
            return p;
        }
        *c = *p;
        c->in[0] = in0;
        c->in[1] = in1;
        p = c;
    }
    if (p->kind != LP_IJOIN && p->kind != LP_ASOF) return p;
    const RelDef *l = bare_table(p->in[0]), *r = bare_table(p->in[1]);
    if (!l || !r || l->db != r->db) return p;
    bool pg = db_kind(l->db->conn) == DB_POSTGRES;
    const DbSchema *ls = l->db_schema, *rs = r->db_schema;
    if (p->kind == LP_ASOF && (!pg || p->has_within)) return p;
    if (!pg) {
        for (int k = 0; k < 4; k++)
            if (!sqlite_comparable(k < 2 ? ls : rs, p->ends[k])) return p;
        for (int k = 0; k < p->n_keys; k++)
            if (!sqlite_comparable(ls, p->lkeys[k]) || !sqlite_comparable(rs, p->rkeys[k])) return p;
    }
    StrBuf b;
    sb_init(&b);
    Gen g = {&b, pg, p};
    sb_puts(&b, "SELECT ");
    select_list(&g);
    sb_puts(&b, " FROM ");
    db_quote_ident(&b, l->db_table);
    sb_puts(&b, " AS l ");
    if (p->kind == LP_IJOIN) {
        sb_puts(&b, "JOIN ");
        db_quote_ident(&b, r->db_table);
        sb_puts(&b, " AS r ON ");
        ijoin_predicate(&g);
        sb_puts(&b, " ORDER BY ");
        db_order_sql(&b, ls, "l", "");
        sb_puts(&b, ", ");
        db_order_sql(&b, rs, "r", "");
    } else {
        bool backward = p->dir == ASOF_BACKWARD || p->dir == ASOF_BACKWARD_STRICT;
        bool strict = p->dir == ASOF_BACKWARD_STRICT || p->dir == ASOF_FORWARD_STRICT;
        sb_puts(&b, p->inner ? "JOIN LATERAL (SELECT " : "LEFT JOIN LATERAL (SELECT ");
        for (int i = 0; i < rs->n_cols; i++) {
            if (i) sb_puts(&b, ", ");
            sb_puts(&b, "r.");
            db_quote_ident(&b, rs->names[i]);
        }
        sb_puts(&b, " FROM ");
        db_quote_ident(&b, r->db_table);
        sb_puts(&b, " AS r WHERE ");
        for (int k = 0; k < p->n_keys; k++) {
            cmp(&g, 1, p->rkeys[k], "=", 0, p->lkeys[k]);
            sb_puts(&b, " AND ");
        }
        cmp(&g, 1, p->rmatch, backward ? (strict ? "<" : "<=") : (strict ? ">" : ">="), 0, p->lmatch);
        sb_puts(&b, " ORDER BY ");
        col(&g, 1, p->rmatch, true);
        sb_puts(&b, backward ? " DESC, " : " ASC, ");
        db_order_sql(&b, rs, "r", p->ties_first ? " ASC" : " DESC");
        sb_puts(&b, " LIMIT 1) AS r ON TRUE ORDER BY ");
        db_order_sql(&b, ls, "l", "");
    }
    LPlan *q = arena_alloc(a, sizeof *q);
    const char *sql = b.p ? arena_strdup(a, b.p) : NULL;
    sb_free(&b);
    if (!q || !sql) {
        *rc = -1;
        return p;
    }
    q->kind = LP_SQL;
    q->schema = p->schema;
    q->span = p->span;
    q->src = p->src;
    q->conn_def = l->db;
    q->sql = sql;
    /* keep what EXPLAIN and estimates want to know about the join it replaces */
    q->relation = p->relation;
    if (rw_log(a, log, p->kind == LP_IJOIN ? "PUSH-SQL-001" : "PUSH-SQL-002",
               p->kind == LP_IJOIN ? "Interval join pushed down to the database as one JOIN"
                                   : "AS-OF join pushed down to the database as one LATERAL join",
               db_display(l->db->conn)) < 0)
        *rc = -1;
    return q;
}

LPlan *rw_pushsql(Arena *a, LPlan *p, RewriteLog *log, int *rc) { return push(a, p, log, rc); }
