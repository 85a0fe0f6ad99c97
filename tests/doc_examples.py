#!/usr/bin/env python3
"""Runs every example of the documentation and checks that the documentation covers the language.

An example in docs/*.md is a fenced block whose info string is `relix` (optionally followed by
command-line options: ```relix --format csv), followed right away by the blocks that state what
it does; only blank lines may stand between them:

  ```output          its standard output, byte for byte
  ```error [exit=N]  its standard error, byte for byte; the exit status is N (1 when not given)
  ```written NAME    after the run, the file NAME holds exactly this text

An example with no ```output block prints nothing on standard output; one with no ```error block
prints nothing on standard error and exits 0; at least one of the three must follow. Blocks that
prepare the files an example reads may stand anywhere before it:

  ```file NAME       writes the text to NAME
  ```sqlite NAME     creates the SQLite database NAME by running the SQL text (Python's sqlite3)

The examples of one document run in order, in one fresh temporary folder, each as the script
`example.rx` (so messages say `example.rx:LINE:COL`), with `relix OPTIONS example.rx`. Other
fenced blocks (plain ```, ```ebnf, ...) are not run.

Checking all of docs/ (no FILE given) also checks coverage, counting only the examples that
succeed (an error shows no operator at work), and fails when something is missing:
  - every operator, keyword and symbol of the grammar in docs/grammar.md (the OPERATORS list
    below, which must match the grammar's terminals) appears in at least one example;
  - every function and aggregate of docs/functions.md is called in at least one example;
  - every entry of FEATURES (ASOF directions and clauses, csv options, into csv, connect, output
    formats) has an example;
  - every option src/cli/main.c accepts is listed by `relix --help` and in docs/relix.1.

  tests/doc_examples.py [--relix PATH] [--update] [FILE.md ...]

--update rewrites the output, error and written blocks from what relix does (read the diff: the
documentation promises it). Failures name the document and the line of the example's block.
The exit status is 1 when anything failed.
"""
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULT_KINDS = ("output", "error", "written")

# The grammar's operators, keywords and symbols (the quoted terminals of docs/grammar.md's EBNF),
# each of which some example must use. Keywords are matched without regard to case.
OPERATORS = [
    # statements and sources
    ":=", "query", "csv", "parquet", "connect", "into", "=>",
    # relational operators
    "σ", "sigma", "π", "pi", "ρ", "rho", "δ", "delta", "τ", "tau", "γ", "gamma",
    "ω", "omega", "OVER", "ROWS", "PRECEDING", "FILL", "EVERY", "FROM", "TO", "USING", "series",
    "TOP", "PER", "BY", "ASC", "DESC", "NULLS", "FIRST", "LAST",
    "⨝", "⋈", "><", "JOIN", "⟕", "LJOIN", "⟖", "RJOIN", "⟗", "FJOIN",
    "⋉", "SEMIJOIN", "⋊", "RSEMIJOIN", "▷", "ANTIJOIN", "×", "CROSS",
    "∪", "UNION", "∩", "INTERSECT", "−", "-", "EXCEPT", "MINUS", "→", "->",
    # interval join and its fourteen relations
    "IJOIN", "INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS", "MET_BY", "OVERLAPS",
    "OVERLAPPED_BY", "STARTS", "STARTED_BY", "DURING", "CONTAINS", "FINISHES", "FINISHED_BY",
    "EQUALS", "COVERS", "COVERED_BY", "LEFT", "SEMI", "ANTI", "AT",
    # AS-OF join
    "ASOF", "INNER", "WITHIN", "TIES", "NEAREST", "ALL",
    # window join
    "WJOIN", "PREVAILING",
    # interval sets
    "PACK", "GAPS", "NORMALIZE", "WITH", "TO", "IMINUS", "IINTERSECT", "ON",
    # scalar expressions
    "∨", "or", "∧", "and", "¬", "not", "IS", "NULL", "IN", "BETWEEN",
    "=", "==", "≠", "!=", "<>", "<", "≤", "<=", ">", "≥", ">=",
    "+", "||", "*", "/", "%", "TRUE", "FALSE", "TIMESTAMP", "DATE", "TIME", "DURATION",
    "CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT", "LIKE", "ILIKE", "ESCAPE", "CAST", "AS", "::",
    # lexical forms: a comment, a quoted name and its doubled quote, a doubled quote in a
    # string, an exponent, a name with an underscore
    "--", '"', '""', "''", "e", "E", "_",
]
# Terminals of the grammar that are punctuation every script has, not operators to exemplify.
PUNCTUATION = {";", "{", "}", "(", ")", ",", ".", "[", "]", "|", "'"}
# The marks of a prepared query's parameters ($1, :name): only the C API and the Python module
# run such a query (a script run whole rejects them), so no example here can show them at work;
# tests/unit/test_prepare.c, tests/python/test_relix.py and case 581 check them instead.
PREPARED_ONLY = {"$", ":"}

# Constructs that the terminals alone do not show, each with a test on one example's tokens.
FEATURES = []


def feature(name):
    def register(fn):
        FEATURES.append((name, fn))
        return fn
    return register


# ---- a tokenizer close enough to src/syntax/lex.c for the coverage checks ------------------------

SYMBOLS = sorted([":=", "::", "=>", "><", "<>", "<=", ">=", "!=", "==", "||", "->", "<-",
                  "→", "←", "≠", "≤", "≥", "∧", "∨", "¬", "σ", "π", "ρ", "⨝", "⋈", "×", "∪",
                  "∩", "−", "⟕", "⟖", "⟗", "⋉", "⋊", "▷", "δ", "τ", "γ", "ω",
                  "{", "}", "(", ")", ",", ";", ".", "+", "-", "*", "/", "%", "=", "<", ">"],
                 key=len, reverse=True)
NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?(([eE])[+-]?[0-9]+)?")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def tokenize(text):
    """(kind, text) tokens: word, qname, string, number, symbol, table, other; plus ("lexical", x)
    marks for the lexical forms of OPERATORS ('--', '"', '""', "''", 'e', 'E'). A NULL cell of an
    inline table counts as the word NULL."""
    toks = []
    i, n = 0, len(text)
    after_assign = False
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if text.startswith("--", i):
            toks.append(("lexical", "--"))
            while i < n and text[i] != "\n":
                i += 1
            continue
        was_assign, after_assign = after_assign, False
        if c == "[" and was_assign:
            # an inline table: up to the line whose first non-blank character is ']'
            m = re.compile(r"\n[ \t]*\]").search(text, i)
            end = m.end() if m else n
            body = text[i:end]
            toks.append(("table", body))
            if re.search(r"\|\s*NULL\s*(?=\|)", body, re.I):
                toks.append(("word", "NULL"))
            if "--" in body:
                toks.append(("lexical", "--"))
            i = end
            continue
        if c in "'\"":
            j = i + 1
            while j < n:
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        j += 2
                        continue
                    break
                j += 1
            tok = text[i:j + 1]
            toks.append(("string" if c == "'" else "qname", tok))
            if c == '"':
                toks.append(("lexical", '"'))
            if (c * 2) in tok[1:-1]:
                toks.append(("lexical", c * 2))
            i = j + 1
            continue
        m = NUMBER.match(text, i)
        if m:
            toks.append(("number", m.group(0)))
            if m.group(3):
                toks.append(("lexical", m.group(3)))
            i = m.end()
            continue
        m = WORD.match(text, i)
        if m:
            toks.append(("word", m.group(0)))
            i = m.end()
            continue
        for s in SYMBOLS:
            if text.startswith(s, i):
                toks.append(("symbol", s))
                after_assign = s == ":="
                i += len(s)
                break
        else:
            toks.append(("other", c))
            i += 1
    return toks


def has_operator(toks, op):
    if op == "_":
        return any(k == "word" and "_" in t for k, t in toks)
    if op in ("--", '"', '""', "''", "e", "E"):
        return ("lexical", op) in toks
    if WORD.fullmatch(op):
        return any(k == "word" and t.upper() == op.upper() for k, t in toks)
    return ("symbol", op) in toks


def word_at(toks, i, *words):
    return 0 <= i < len(toks) and toks[i][0] == "word" and toks[i][1].upper() in words


def asof_conditions(toks):
    """For each ASOF: (inner, comparison operators of its condition, WITHIN, TIES word)."""
    out = []
    for i, (k, t) in enumerate(toks):
        if not word_at(toks, i, "ASOF"):
            continue
        j = i + 1
        inner = False
        while word_at(toks, j, "INNER", "NEAREST") or (j < len(toks) and toks[j][1].isdigit()):
            inner = inner or word_at(toks, j, "INNER")
            j += 1
        depth, ops = 0, []
        while j < len(toks) and not word_at(toks, j, "WITHIN", "TIES"):
            kk, tt = toks[j]
            if (kk == "symbol" and tt in ("}", ";")) or (tt == ")" and depth == 0):
                break
            depth += tt == "("
            depth -= tt == ")"
            if kk == "symbol" and tt in ("<", "<=", ">", ">=", "≤", "≥"):
                ops.append(tt)
            j += 1
        within = word_at(toks, j, "WITHIN")
        ties = None
        for m in range(j, min(j + 40, len(toks) - 2)):
            if word_at(toks, m, "TIES") and toks[m + 1][1] == "(":
                ties = toks[m + 2][1].upper()
                break
            if toks[m][1] in ("}", ";"):
                break
        out.append((inner, ops, within, ties))
    return out


def asof_direction(ops):
    norm = {"≤": "<=", "≥": ">="}
    return norm.get(ops[0], ops[0]) if len(ops) == 1 else None


for _op, _name in ((">=", "backward"), (">", "strict backward"), ("<=", "forward"),
                   ("<", "strict forward")):
    feature("ASOF %s (L.t %s R.t)" % (_name, _op))(
        lambda ex, op=_op: any(asof_direction(o) == op for _, o, _, _ in asof_conditions(ex["toks"])))


@feature("ASOF INNER")
def _(ex):
    return any(inner for inner, _, _, _ in asof_conditions(ex["toks"]))


@feature("ASOF WITHIN")
def _(ex):
    return any(w for _, _, w, _ in asof_conditions(ex["toks"]))


@feature("ASOF TIES(FIRST)")
def _(ex):
    return any(t == "FIRST" for _, _, _, t in asof_conditions(ex["toks"]))


@feature("ASOF TIES(ALL)")
def _(ex):
    return any(t == "ALL" for _, _, _, t in asof_conditions(ex["toks"]))


@feature("ASOF k (the k nearest rows)")
def _(ex):
    toks = ex["toks"]
    return any(word_at(toks, i, "ASOF") and any(toks[j][1].isdigit() for j in range(i + 1, min(i + 4, len(toks))))
               for i in range(len(toks)))


@feature("ASOF TIES(LAST)")
def _(ex):
    return any(t == "LAST" for _, _, _, t in asof_conditions(ex["toks"]))


@feature("ASOF INNER ... WITHIN ... TIES(...) together")
def _(ex):
    return any(i and w and t for i, _, w, t in asof_conditions(ex["toks"]))


JOIN_OPS = {"⨝", "⋈", "><", "JOIN"}
REL_OPS = JOIN_OPS | {"IJOIN", "ASOF", "⟕", "LJOIN", "⟖", "RJOIN", "⟗", "FJOIN", "⋉", "SEMIJOIN",
                      "⋊", "RSEMIJOIN", "▷", "ANTIJOIN", "×", "CROSS", "∪", "UNION", "∩",
                      "INTERSECT", "−", "EXCEPT", "MINUS"}
KEYWORDS = {w.upper() for w in OPERATORS if WORD.fullmatch(w)} | {"NATURAL"}


@feature("natural join (no condition)")
def _(ex):
    toks = ex["toks"]
    for i in range(len(toks) - 2):
        if toks[i][1].upper() in JOIN_OPS and toks[i + 1][0] in ("word", "qname") and \
                toks[i + 2][1] in (")", "}", ";"):
            return True
    return False


@feature("theta join (a condition)")
def _(ex):
    toks = ex["toks"]
    for i, (k, t) in enumerate(toks):
        if t.upper() not in JOIN_OPS:
            continue
        # the condition runs to the right operand; a comparison before the end of the operand
        # list (a closing bracket or another operator) makes it a theta join
        for kk, tt in toks[i + 1:]:
            if tt in (")", "}", ";") or tt.upper() in REL_OPS:
                break
            if kk == "symbol" and tt in ("=", "==", "<", ">", "<=", ">=", "≤", "≥", "≠", "!=", "<>"):
                return True
    return False


@feature("a relation under an alias (R A, Conn.table A)")
def _(ex):
    toks = ex["toks"]
    for i in range(1, len(toks) - 2):
        if toks[i - 1][1].upper() not in {"(", "{", ")"} | REL_OPS or toks[i][0] != "word":
            continue
        j = i + 3 if toks[i + 1][1] == "." else i + 1
        if j + 1 < len(toks) and toks[j][0] == "word" and toks[j][1].upper() not in KEYWORDS \
                and toks[i][1].upper() not in KEYWORDS \
                and toks[j + 1][1].upper() in {")", "}", ";"} | REL_OPS:
            return True
    return False


for _opt in ("delimiter", "header", "null", "schema"):
    feature("csv option %s =>" % _opt)(
        lambda ex, o=_opt: any(ex["toks"][i][0] == "word" and ex["toks"][i][1].lower() == o and
                               ex["toks"][i + 1][1] == "=>" for i in range(len(ex["toks"]) - 1)))


@feature("query { ... } into csv('...')")
def _(ex):
    toks = ex["toks"]
    return any(toks[i][1] == "}" and word_at(toks, i + 1, "INTO") and word_at(toks, i + 2, "CSV")
               for i in range(len(toks) - 2))


@feature("query { ... } into parquet('...')")
def _(ex):
    toks = ex["toks"]
    return any(toks[i][1] == "}" and word_at(toks, i + 1, "INTO") and word_at(toks, i + 2, "PARQUET")
               for i in range(len(toks) - 2))


@feature("connect('sqlite:...')")
def _(ex):
    toks = ex["toks"]
    return any(word_at(toks, i, "CONNECT") and toks[i + 1][1] == "(" and
               toks[i + 2][1].startswith("'sqlite:") for i in range(len(toks) - 2))


for _fmt in ("csv", "tsv", "json", "markdown"):
    feature("--format %s" % _fmt)(
        lambda ex, f=_fmt: re.search(r"(--format[= ]|-f )%s\b" % f, " ".join(ex["args"])))
feature("--explain")(lambda ex: "--explain" in ex["args"])


# ---- reading the documents -----------------------------------------------------------------------

class Block:
    def __init__(self, line, info, text, end_line):
        self.line = line          # line of the opening fence, 1-based
        self.end_line = end_line  # line of the closing fence
        words = info.split()
        self.kind = words[0] if words else ""
        self.args = words[1:]
        self.text = text


def read_blocks(path):
    """The fenced blocks of a Markdown file, and its lines."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        m = re.match(r"^```(.*)$", lines[i])
        if not m:
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and lines[j] != "```":
            j += 1
        if j == len(lines):
            raise SystemExit("%s:%d: the fenced block is not closed" % (path, start + 1))
        text = "".join(l + "\n" for l in lines[start + 1:j])
        blocks.append(Block(start + 1, m.group(1).strip(), text, j + 1))
        i = j + 1
    return blocks, lines


def only_blank_between(lines, a, b):
    """True when lines after block a's closing fence and before block b's opening one are blank."""
    return all(not lines[k].strip() for k in range(a.end_line, b.line - 1))


def group_examples(path, blocks, lines, errors):
    """Pairs each relix block with the result blocks that follow it right away."""
    items = []  # ("prep", block) or ("example", block, [result blocks])
    i = 0
    while i < len(blocks):
        b = blocks[i]
        if b.kind in ("file", "sqlite"):
            if len(b.args) != 1:
                errors.append("%s:%d: ```%s takes one file name" % (path, b.line, b.kind))
            items.append(("prep", b))
            i += 1
        elif b.kind == "relix":
            results = []
            j = i + 1
            while j < len(blocks) and blocks[j].kind in RESULT_KINDS and \
                    only_blank_between(lines, blocks[j - 1], blocks[j]):
                results.append(blocks[j])
                j += 1
            kinds = [r.kind for r in results]
            if not results:
                errors.append("%s:%d: the example has no ```output, ```error or ```written "
                              "block right after it" % (path, b.line))
            elif kinds.count("output") > 1 or kinds.count("error") > 1:
                errors.append("%s:%d: the example has two ```output or ```error blocks" %
                              (path, b.line))
            items.append(("example", b, results))
            i = j
        elif b.kind in RESULT_KINDS:
            errors.append("%s:%d: a ```%s block that does not follow an example" %
                          (path, b.line, b.kind))
            i += 1
        else:
            i += 1
    return items


def safe_name(path, b, errors):
    name = b.args[0] if b.args else ""
    if not name or os.path.isabs(name) or ".." in name.split("/"):
        errors.append("%s:%d: a file name inside the example folder expected, not '%s'" %
                      (path, b.line, name))
        return None
    return name


def expected_exit(block):
    for a in block.args:
        if a.startswith("exit="):
            return int(a[5:])
    return 1


# ---- running -------------------------------------------------------------------------------------

def show_diff(want, got):
    import difflib
    d = difflib.unified_diff(want.splitlines(True), got.splitlines(True), "documented", "actual",
                             n=2)
    return "".join("    " + l if l.endswith("\n") else "    " + l + "\n" for l in list(d)[:40])


def run_document(path, relix, update, examples, errors):
    rel = os.path.relpath(path, ROOT)
    blocks, lines = read_blocks(path)
    items = group_examples(rel, blocks, lines, errors)
    replacements = []  # (first line, last line, new text) in document lines, for --update
    n_run = 0
    with tempfile.TemporaryDirectory(prefix="relix-doc-") as tmp:
        for item in items:
            if item[0] == "prep":
                b = item[1]
                name = safe_name(rel, b, errors)
                if not name:
                    continue
                target = os.path.join(tmp, name)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                if b.kind == "file":
                    with open(target, "w", encoding="utf-8") as f:
                        f.write(b.text)
                else:
                    if os.path.exists(target):
                        os.remove(target)
                    db = sqlite3.connect(target)
                    try:
                        db.executescript(b.text)
                        db.commit()
                    except sqlite3.Error as e:
                        errors.append("%s:%d: the SQL fails: %s" % (rel, b.line, e))
                    finally:
                        db.close()
                continue
            _, b, results = item
            n_run += 1
            examples.append({"doc": rel, "line": b.line, "script": b.text, "args": b.args,
                             "toks": tokenize(b.text),
                             "fails": any(r.kind == "error" for r in results)})
            for w in results:
                name = safe_name(rel, w, errors) if w.kind == "written" else None
                if name and os.path.exists(os.path.join(tmp, name)):
                    os.remove(os.path.join(tmp, name))
            script = os.path.join(tmp, "example.rx")
            with open(script, "w", encoding="utf-8") as f:
                f.write(b.text)
            try:
                p = subprocess.run([relix] + b.args + ["example.rx"], cwd=tmp,
                                   stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
            except subprocess.TimeoutExpired:
                errors.append("%s:%d: the example ran for more than 60 s" % (rel, b.line))
                continue
            out = p.stdout.decode("utf-8", "replace")
            err = p.stderr.decode("utf-8", "replace")
            by_kind = {r.kind: r for r in results if r.kind != "written"}
            written = [r for r in results if r.kind == "written"]
            if update:
                new = []
                if out:
                    new.append("```output\n" + out + "```\n")
                if err or p.returncode != 0:
                    ex = "" if p.returncode == 1 else " exit=%d" % p.returncode
                    new.append("```error%s\n" % ex + err + "```\n")
                for w in written:
                    name = safe_name(rel, w, errors)
                    fp = os.path.join(tmp, name) if name else None
                    body = open(fp, encoding="utf-8").read() if fp and os.path.exists(fp) else ""
                    new.append("```written %s\n" % w.args[0] + body + "```\n")
                first = results[0].line if results else b.end_line + 1
                last = results[-1].end_line if results else b.end_line
                text = "\n".join(new) if results else "\n" + "\n".join(new)
                replacements.append((first, last, text))
                continue
            want_out = by_kind["output"].text if "output" in by_kind else ""
            if out != want_out:
                where = by_kind.get("output", b)
                errors.append("%s:%d: standard output differs from the ```output block:\n%s" %
                              (rel, where.line, show_diff(want_out, out)))
            want_err = by_kind["error"].text if "error" in by_kind else ""
            if err != want_err:
                where = by_kind.get("error", b)
                errors.append("%s:%d: standard error differs from the ```error block:\n%s" %
                              (rel, where.line, show_diff(want_err, err)))
            want_rc = expected_exit(by_kind["error"]) if "error" in by_kind else 0
            if p.returncode != want_rc:
                errors.append("%s:%d: the exit status is %d, the documentation says %d" %
                              (rel, b.line, p.returncode, want_rc))
            for w in written:
                name = safe_name(rel, w, errors)
                if not name:
                    continue
                fp = os.path.join(tmp, name)
                if not os.path.exists(fp):
                    errors.append("%s:%d: the example did not write %s" % (rel, w.line, name))
                    continue
                with open(fp, encoding="utf-8", newline="") as f:
                    got = f.read()
                if got != w.text:
                    errors.append("%s:%d: %s differs from the ```written block:\n%s" %
                                  (rel, w.line, name, show_diff(w.text, got)))
    if update and replacements:
        for first, last, text in sorted(replacements, reverse=True):
            lines[first - 1:last] = text.rstrip("\n").split("\n")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    return n_run


# ---- coverage ------------------------------------------------------------------------------------

def grammar_terminals():
    with open(os.path.join(ROOT, "docs", "grammar.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"```ebnf\n(.*?)```", text, re.S)
    if not m:
        raise SystemExit("docs/grammar.md: no ```ebnf block")
    ebnf = re.sub(r"\(\*.*?\*\)", "", m.group(1), flags=re.S)
    return {a or b for a, b in re.findall(r'"([^"]+)"|\'([^\']+)\'', ebnf)}


def documented_functions():
    """Function and aggregate names from the tables of docs/functions.md."""
    names = []
    with open(os.path.join(ROOT, "docs", "functions.md"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("| `"):
                continue
            first = line.split("|")[1]
            for name in re.findall(r"`([a-z_]+)\(", first):
                if name not in names:
                    names.append(name)
    return names


def fold(t):
    """Keywords match without regard to case; symbols and the lexical forms exactly."""
    return t.upper() if WORD.fullmatch(t) and len(t) > 1 else t


def check_coverage(examples, errors):
    examples = [ex for ex in examples if not ex["fails"]]  # an error shows no operator at work
    terms = {fold(t) for t in grammar_terminals()}
    known = {fold(t) for t in OPERATORS} | PUNCTUATION | PREPARED_ONLY
    for t in sorted(terms - known):
        errors.append("docs/grammar.md: the terminal \"%s\" is not in OPERATORS of "
                      "tests/doc_examples.py (add it, and an example that uses it)" % t)
    for op in OPERATORS:
        if fold(op) not in terms:
            errors.append("tests/doc_examples.py: OPERATORS lists \"%s\", which docs/grammar.md's "
                          "grammar does not have" % op)
        elif not any(has_operator(ex["toks"], op) for ex in examples):
            errors.append("no example uses the operator \"%s\" (docs/grammar.md)" % op)
    funcs = documented_functions()
    for fn in funcs:
        if not any(any(k == "word" and t.lower() == fn and ex["toks"][i + 1][1] == "("
                       for i, (k, t) in enumerate(ex["toks"][:-1])) for ex in examples):
            errors.append("no example calls the function %s (docs/functions.md)" % fn)
    for name, test in FEATURES:
        if not any(test(ex) for ex in examples):
            errors.append("no example shows: %s" % name)
    return len(OPERATORS), len(funcs), len(FEATURES)


def check_cli(relix, errors):
    """Every option main.c accepts is in --help and in the manual page."""
    with open(os.path.join(ROOT, "src", "cli", "main.c"), encoding="utf-8") as f:
        accepted = sorted(set(re.findall(r'strcmp\(a, "(-[^"]+)"\)', f.read())))
    help_text = subprocess.run([relix, "--help"], capture_output=True, text=True).stdout
    with open(os.path.join(ROOT, "docs", "relix.1"), encoding="utf-8") as f:
        man = f.read().replace("\\-", "-")
    for opt in accepted:
        if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt), help_text):
            errors.append("relix --help does not list %s (src/cli/main.c accepts it)" % opt)
        if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt), man):
            errors.append("docs/relix.1 does not list %s (src/cli/main.c accepts it)" % opt)
    return len(accepted)


def main(argv):
    relix = os.path.join(ROOT, "build", "relix")
    update = False
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--relix":
            relix = argv[i + 1]
            i += 1
        elif a == "--update":
            update = True
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            files.append(a)
        i += 1
    relix = os.path.abspath(relix)
    whole = not files
    if whole:
        files = sorted(os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
                       if f.endswith(".md"))
    errors, examples = [], []
    for path in files:
        n = run_document(os.path.abspath(path), relix, update, examples, errors)
        print("%s: %d example%s" % (os.path.relpath(os.path.abspath(path), ROOT), n,
                                    "" if n == 1 else "s"))
    if whole and not update:
        n_ops, n_fn, n_feat = check_coverage(examples, errors)
        n_cli = check_cli(relix, errors)
        print("coverage: %d operators, %d functions, %d features; %d command-line options" %
              (n_ops, n_fn, n_feat, n_cli))
    for e in errors:
        print("FAIL " + e)
    print("%d examples, %d failure%s" % (len(examples), len(errors), "" if len(errors) == 1 else "s"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
