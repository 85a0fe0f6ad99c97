# The README's sessions are what relix prints: every code block of README.md that starts with
# "$ build/relix <<'EOF'" holds a script (up to the line "EOF") and then its output, byte for
# byte. Each script runs from the repository's root, on standard input, as the README shows.
# Prints one line per session (its first script line and whether the output is the same); a
# difference is shown as a diff.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$RELIX" "$tmp" <<'PY'
import subprocess, sys
relix, tmp = sys.argv[1], sys.argv[2]
lines = open("README.md", encoding="utf-8").read().split("\n")
n = bad = 0
i = 0
while i < len(lines):
    if lines[i] == "```" and i + 1 < len(lines) and lines[i + 1] == "$ build/relix <<'EOF'":
        j = i + 2
        script = []
        while lines[j] != "EOF":
            script.append(lines[j]); j += 1
        k = j + 1
        want = []
        while lines[k] != "```":
            want.append(lines[k]); k += 1
        r = subprocess.run([relix], input="\n".join(script) + "\n", capture_output=True, text=True)
        got = r.stdout + (r.stderr and "--- stderr\n" + r.stderr) + ("" if r.returncode == 0 else f"--- exit {r.returncode}\n")
        exp = "\n".join(want) + "\n"
        n += 1
        if got == exp:
            print("same   ", script[0])
        else:
            bad += 1
            print("DIFFERS", f"README.md:{i + 2}", script[0])
            open(f"{tmp}/want", "w").write(exp); open(f"{tmp}/got", "w").write(got)
            sys.stdout.flush()
            subprocess.run(["diff", f"{tmp}/want", f"{tmp}/got"])
        i = k
    i += 1
print(n, "README sessions checked")
sys.exit(1 if bad or n == 0 else 0)
PY
