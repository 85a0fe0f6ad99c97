#!/usr/bin/env python3
"""Differential test of the optimizer and the hash join: random queries over random tables must
print identical results (rows and order) with the rewrites on, with them off (--no-optimize),
and with equi-joins run as nested loops (--no-hashjoin).

  tests/diff/optimizer.py RELIX [SEEDS]
"""
import os
import random
import subprocess
import sys
import tempfile


def table(rng, name, cols, n):
    lines = [f"{name} := [", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in range(n):
        cells = []
        for c in cols:
            if row > 0 and rng.random() < 0.1:  # the first row fixes every column's type
                cells.append("NULL")
            elif c in ("s", "t"):
                cells.append(rng.choice(["x", "y", "z"]))
            else:
                cells.append(str(rng.randrange(-2, 6)))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("];")
    return "\n".join(lines)


def pred(rng, cols):
    c = rng.choice(cols)
    if c.split(".")[-1] in ("s", "t"):
        return f"{c} {rng.choice(['=', '≠', '<'])} '{rng.choice('xyz')}'"
    kind = rng.randrange(6)
    if kind == 0:
        return f"{c} IS NULL"
    if kind == 1:
        return f"{c} BETWEEN {rng.randrange(-1, 3)} AND {rng.randrange(2, 6)}"
    return f"{c} {rng.choice(['=', '<', '<=', '>', '≥', '≠'])} {rng.randrange(-2, 6)} + {rng.randrange(0, 2)}"


def conj(rng, cols, n):
    return " ∧ ".join(pred(rng, cols) for _ in range(n))


def query(rng):
    a_cols, b_cols = ["A.k", "A.v", "A.s"], ["B.k", "B.w", "B.t"]
    shape = rng.randrange(9)
    p1 = conj(rng, a_cols, rng.randrange(1, 3))
    p2 = conj(rng, b_cols, rng.randrange(1, 3))
    if shape == 0:
        return f"σ {p1} ∧ A.k = B.k ∧ {p2} (A × B)"
    if shape == 1:
        return f"σ {p1} (A ⨝ A.v = B.w B)"
    if shape == 2:
        return f"σ {p2} ∧ {p1} (A ⟕ A.k = B.k B)"
    if shape == 3:
        return f"σ {p1} (A ⋉ A.k = B.k B) ∪ σ {conj(rng, a_cols, 1)} (A)"
    if shape == 4:
        return f"σ {p1} ∧ A.k = B.k (A IJOIN {rng.choice(['INTERSECTS', 'DURING', 'MEETS', 'PRECEDES'])} (A.k, A.v, B.k, B.w) B)"
    if shape == 5:
        return f"σ {p1} (A ASOF A.s = B.t ∧ A.v >= B.w B)"
    if shape == 6:
        return f"σ {p1.replace('A.', 'X.')} (ρ X (π k, v, s (A)))"
    if shape == 7:
        return f"γ A.k; count(*) → n, sum(A.v) → sv (σ {p1} ∧ A.k = B.k (A × B))"
    return f"TOP 3 PER A.s BY A.v DESC (σ {p1} (A ▷ A.k = B.k B))"


def main():
    relix = os.path.abspath(sys.argv[1])
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(seeds):
            rng = random.Random(seed)
            script = table(rng, "A", ["k", "v", "s"], rng.randrange(1, 14)) + "\n" + \
                table(rng, "B", ["k", "w", "t"], rng.randrange(1, 14)) + "\n"
            qs = [query(rng) for _ in range(12)]
            script += "\n".join(f"query {{ {q} }};" for q in qs) + "\n"
            path = f"{tmp}/q.rx"
            with open(path, "w") as f:
                f.write(script)
            outs = []
            for flags in ([], ["--no-optimize"], ["--no-hashjoin"]):
                p = subprocess.run([relix, "--format", "csv"] + flags + [path], capture_output=True, text=True)
                outs.append((p.returncode, p.stdout, p.stderr))
            if outs[0][0] != 0:
                failed += 1
                print(f"FAIL seed {seed}: exit {outs[0][0]}\n{outs[0][2]}")
                continue
            for flags, o in zip(("--no-optimize", "--no-hashjoin"), outs[1:]):
                if o != outs[0]:
                    failed += 1
                    print(f"FAIL seed {seed} {flags}\n{script}\n--- optimized\n{outs[0][1]}\n--- {flags}\n{o[1]}{o[2]}")
                else:
                    passed += len(qs)
    print(f"optimizer: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
