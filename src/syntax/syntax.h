/*
 * syntax.h - the first pipeline stage: script text -> AST with source spans.
 *
 * The lexer (lex.c) turns UTF-8 text into tokens; words are always TK_IDENT and the parser
 * decides where a word is a keyword (docs/design.md: keywords are contextual). An inline table's
 * body after `:=` is one TK_TABLE token whose rows parse.c splits into cells. The parser
 * (parse.c) is recursive descent; docs/grammar.md is its grammar in EBNF, and each parse
 * function starts with its rule.
 *
 * All AST memory comes from the arena passed to parse_script; spans are byte offsets into the
 * source text.
 */
#ifndef RX_SYNTAX_H
#define RX_SYNTAX_H

#include "base/base.h"
#include "types/lang.h"
#include "types/value.h"

/* ---- tokens --------------------------------------------------------------------------------- */

typedef enum {
    TK_EOF,
    TK_IDENT,     /* a word (keywords included) */
    TK_QIDENT,    /* "quoted identifier" */
    TK_INT,
    TK_FLOAT,
    TK_STRING,    /* 'text' */
    TK_PARAM,     /* $N or :name, a parameter of a prepared query */
    TK_TABLE,     /* the raw body of an inline table, '[' to ']' */
    TK_ASSIGN,    /* := */
    TK_LBRACE, TK_RBRACE, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_SEMI, TK_DOT,
    TK_ARROW,     /* -> or → */
    TK_LARROW,    /* <- or ← */
    TK_FATARROW,  /* => */
    TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE,
    TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT, TK_CONCAT,
    TK_AND, TK_OR, TK_NOT,          /* ∧ ∨ ¬ (the words and/or/not are TK_IDENT) */
    TK_SIGMA, TK_PI, TK_RHO,        /* σ π ρ */
    TK_JOIN,      /* ⨝ or >< */
    TK_CROSS,     /* × */
    TK_UNION, TK_INTERSECT, TK_DIFF, /* ∪ ∩ − (− is also subtraction in scalar context) */
    TK_LJOIN, TK_RJOIN, TK_FJOIN,   /* ⟕ ⟖ ⟗ */
    TK_LSEMI, TK_RSEMI, TK_ANTI,    /* ⋉ ⋊ ▷ */
    TK_DELTA, TK_TAU, TK_GAMMA,     /* δ τ γ */
    TK_OMEGA,     /* ω */
    TK_DCOLON,    /* :: (a cast, x::INT) */
    TK_BAR        /* a single '|': between the relations of IJOIN (R1 | R2) */
} TokKind;

typedef struct {
    TokKind kind;
    RxSpan span;
} Token;

typedef struct {
    Token *toks;
    size_t n;
} TokenList;

/* Tokenizes src into *out (tokens in the arena; the last is TK_EOF). -1 with err on a lexical
 * error (unterminated string, stray character, invalid UTF-8, unclosed inline table). */
int lex_script(Arena *a, const RxSource *src, TokenList *out, RxError *err);
const char *tok_kind_name(TokKind k);

/* ---- AST ------------------------------------------------------------------------------------ */

typedef enum {
    /* relational */
    AST_REL,        /* name, optional alias; qual set for a database table Conn.table */
    AST_SELECT,     /* σ a (b) */
    AST_PROJECT,    /* π items (b); items are AST_ITEM */
    AST_RENAME,     /* ρ name (b) */
    AST_RENAME_COLS,/* ρ items (b); items are AST_ITEM {a = AST_COLREF old, name = new} */
    AST_IJOIN,      /* a IJOIN [kind] relation (items: 4 AST_COLREF; AT: 3) b */
    AST_ASOF,       /* a ASOF cond WITHIN within TIES(...) b */
    AST_WJOIN,      /* a WJOIN [PREVAILING] cond WITH items2 b: the window join */
    AST_JOIN,       /* a ⨝ [cond] b and the other joins: join_kind; cond NULL = natural */
    AST_SETOP,      /* a ∪ b, a ∩ b, a − b: set_op */
    AST_DISTINCT,   /* δ (b) */
    AST_SORT,       /* τ items (b); items are AST_ITEM with desc / nulls */
    AST_TOP,        /* TOP ival [PER items] [BY items2] (b) */
    AST_GROUP,      /* γ [items ;] items2 (b): keys, then aggregates (AST_ITEM) */
    AST_ISET,       /* interval-set operator iset_op: PACK/GAPS/NORMALIZE (s, e) BY keys ... (b),
                     * or a IMINUS/IINTERSECT/NORMALIZE (4 endpoints) [ON cond] b */
    AST_WINDOW,     /* ω [PER items] BY sort ; items2 (b): sort keys in `sort`, window items */
    AST_FILL,       /* FILL a EVERY within [PER items] [FROM sort[0] TO sort[1]] [USING items2]
                     * (b): items2 are AST_ITEM {a = AST_COLREF, name = the rule word} */
    /* scalar */
    AST_COLREF,     /* qual.name or name */
    AST_INT, AST_FLOAT, AST_STRING, AST_BOOL, AST_NULL,
    AST_TYPED,      /* TIMESTAMP 'text' etc.: lit_type, str */
    AST_PARAM,      /* $N or :name: ival is its slot in Script.params (from 0) */
    AST_UNARY,      /* op a */
    AST_BINARY,     /* a op b */
    AST_ISNULL,     /* a IS [NOT] NULL (negated) */
    AST_CASE,       /* CASE WHEN items[0] THEN items[1] ... [ELSE a] END */
    AST_IN,         /* a [NOT] IN (items) */
    AST_BETWEEN,    /* a [NOT] BETWEEN items[0] AND items[1] */
    AST_CALL,       /* name(items) */
    AST_ITEM        /* a [→ name] */
} AstKind;

typedef enum {
    JOIN_INNER, JOIN_LEFT, JOIN_RIGHT, JOIN_FULL, JOIN_SEMI, JOIN_RSEMI, JOIN_ANTI, JOIN_CROSS
} JoinKind;

typedef enum { SET_UNION, SET_INTERSECT, SET_EXCEPT } SetOp;

/* The interval-set operators (docs/operators.md): PACK merges, GAPS complements, NORMALIZE
 * splits, IMINUS and IINTERSECT take the parts of one side's intervals outside / inside the
 * other side's. */
typedef enum { ISET_PACK, ISET_GAPS, ISET_NORMALIZE, ISET_MINUS, ISET_INTERSECT } IsetOp;

typedef struct AstNode AstNode;
struct AstNode {
    AstKind kind;
    RxSpan span;
    AstOp op;
    const char *name;     /* relation, column, function or alias name */
    RxSpan name_span;
    const char *qual;     /* column qualifier, or NULL */
    RxSpan qual_span;
    const char *alias;    /* AST_REL: the alias shorthand (R Alias) */
    RxSpan alias_span;
    int64_t ival;         /* AST_INT, AST_BOOL */
    double fval;          /* AST_FLOAT */
    const char *str;      /* AST_STRING, AST_TYPED: unescaped text */
    size_t str_len;
    RxType lit_type;      /* AST_TYPED */
    bool negated;         /* AST_ISNULL: IS NOT NULL */
    AstNode *a, *b;       /* operands: scalar children; SELECT a=cond b=input; joins a=left b=right */
    AstNode *cond;        /* ASOF condition */
    AstNode *within;      /* ASOF WITHIN bound */
    int ties;             /* ASOF: 0 none given (LAST), 1 FIRST, 2 LAST, 3 ALL */
    bool inner;           /* ASOF INNER */
    bool nearest;         /* ASOF NEAREST */
    int64_t asof_k;       /* ASOF k: the k nearest rows (0: not given) */
    RxSpan asof_k_span;
    IjRelation relation;  /* IJOIN */
    IjRelSet relset;      /* IJOIN (R1 | R2 | ...): the set, two members or more; 0 none */
    bool point;           /* IJOIN AT: items are the left point, the right start and end */
    bool prevailing;      /* WJOIN PREVAILING: the row in force at the window's start too */
    RxSpan relation_span;
    int join_kind;        /* AST_JOIN: JoinKind; AST_IJOIN: JOIN_INNER, LEFT, SEMI or ANTI */
    int set_op;           /* AST_SETOP: SetOp */
    bool desc;            /* sort item: DESC */
    int nulls;            /* sort item: 0 default (NULLS LAST for ASC, FIRST for DESC), 1 FIRST, 2 LAST */
    bool star;            /* AST_CALL: count(*) */
    bool distinct;        /* AST_CALL: count(DISTINCT x) */
    int iset_op;          /* AST_ISET: IsetOp; a is NULL for the unary forms */
    PtrVec keys;          /* AST_ISET unary forms: the BY columns (AST_COLREF) */
    AstNode *within_hi;   /* AST_ISET GAPS WITHIN lo TO hi: hi (within is lo) */
    PtrVec items2;        /* AST_TOP sort keys, AST_GROUP aggregates, AST_WINDOW items,
                           * AST_ISET PACK's and AST_WJOIN's aggregates */
    PtrVec sort;          /* AST_WINDOW: the order (AST_ITEM with desc / nulls) */
    int frame;            /* AST_WINDOW item: 0 running, 1 OVER ival ROWS PRECEDING, 2 OVER
                           * within PRECEDING (a range of order values) */
    PtrVec items;         /* PROJECT/RENAME_COLS items, CALL arguments, IJOIN endpoints; AST_REL:
                           * the arguments of series(from, to, step) (none for a named relation) */
};

/* A cell of an inline table, as written. */
typedef struct {
    const char *text;     /* trimmed, unescaped; NULL for an empty cell */
    size_t len;
    RxSpan span;
    bool quoted;          /* written as 'text' */
    bool null_word;       /* written as NULL */
} Cell;

typedef enum { ST_TABLE, ST_VIEW, ST_CSV, ST_QUERY, ST_CONNECT, ST_PARQUET } StmtKind;

typedef struct {
    const char *name;
    RxSpan name_span;
    AstNode *value;
} CsvOption;

typedef struct {
    StmtKind kind;
    RxSpan span;
    const char *name;          /* defined name; NULL for a query */
    RxSpan name_span;
    AstNode *expr;             /* view body or query */
    /* inline table */
    int n_cols;
    const char **col_names;
    RxSpan *col_spans;
    size_t n_rows;
    Cell *cells;               /* n_rows * n_cols, row-major */
    RxSpan *row_spans;
    /* query { ... } into csv('path') or into parquet('path', option => value, ...): the result
     * goes to that file */
    const char *into_path;
    RxSpan into_span;
    bool into_parquet;
    CsvOption *into_options;
    int n_into_options;
    /* csv('path', option => value, ...) and parquet('path', ...); connect('uri') keeps the URI
     * in path */
    const char *path;
    RxSpan path_span;
    CsvOption *options;
    int n_options;
} Stmt;

/* A parameter of a prepared query: $N is slot N - 1; :name takes, at its first use, the slot
 * after the highest so far (as SQLite numbers them), and every use of the name shares it. */
typedef struct {
    const char *name;          /* "$3" or ":name" as written */
    RxSpan span;               /* its first use */
    bool used;                 /* written in the script (a $3 alone leaves $1 and $2 unused) */
} ScriptParam;

typedef struct {
    Stmt **stmts;
    size_t n;
    const RxSource *src;
    ScriptParam *params;       /* n_params slots; NULL when the script has none */
    int n_params;
} Script;

/* The most parameters a script may have ($N with N at most this). */
#define PARSE_MAX_PARAMS 999

/* Bounds that keep every recursive stage within the stack (docs/grammar.md, "Limits"): the
 * nesting of parentheses, calls, CASE, IN lists and prefix operators that the parser itself
 * recurses on, and the number of scalar and relational operators on one path from the root of
 * a statement's tree (a chain a + b + c nests nothing but is as deep as it is long). The tree
 * limits hold in the sanitizer build too, whose stack frames are the largest (tests/cases/303). */
#define PARSE_MAX_DEPTH 200
#define PARSE_MAX_EXPR_DEPTH 1000
#define PARSE_MAX_REL_DEPTH 1000

/* Parses the whole script. The AST lives in arena a and points into src (which must outlive
 * it). -1 with err (RX_ESYNTAX; RX_ELIMIT for nesting deeper than PARSE_MAX_DEPTH or a tree
 * deeper than PARSE_MAX_EXPR_DEPTH / PARSE_MAX_REL_DEPTH) on the first error. */
int parse_script(Arena *a, const RxSource *src, Script *out, RxError *err);
/* As parse_script; with bare, a relational expression on its own ("R ⨝ S;") is a query
 * statement, as if in query { ... }, and the last statement may omit its ';' (the REPL and
 * relix -e). Without, such a statement is an error with a hint to wrap it. */
int parse_script_opts(Arena *a, const RxSource *src, bool bare, Script *out, RxError *err);

/* True if name is a built-in function (an identifier followed by '(' is then a call). */
bool syntax_is_function(const char *name, size_t n);
/* The built-in function whose name is closest to name[0..n) (Damerau-Levenshtein, without
 * case), when it is close: one edit away for a name of up to 4 characters, two beyond; else
 * NULL. */
const char *syntax_nearest_function(const char *name, size_t n);

#endif
