# A fresh clone stands on its own: the committed HEAD of this repository (uncommitted changes are
# not in it; RELIX_CLONE_REV=REV tries another commit) is cloned into an empty temporary folder,
# and ./scripts/example.sh runs there under strace. Every file a process of the run opened
# successfully, or executed, must lie in the clone, in a system folder (/usr, /lib, /etc, /proc,
# /sys, /dev, dpkg's database), in a dotfile of $HOME, or in /tmp, but not beside the clone in
# the temporary folder. Failed opens (the compiler's and loader's probes) do not count. Then the
# clone's own 023-spec-tables runs, which reads the spec pages from the clone. Prints the
# examples' headings and row counts, and each offending path with the program that opened it.
set -u
for t in git strace python3 make cc; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "$t is not installed (scripts/deps.sh test installs it)"
    exit 1
  fi
done
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)
rev=${RELIX_CLONE_REV:-HEAD}
sha=$(git rev-parse --verify -q "$rev^{commit}") || { echo "no commit $rev"; exit 1; }
git clone -q --no-checkout "$PWD" "$tmp/clone" || exit 1
git -C "$tmp/clone" checkout -q --detach "$sha" || exit 1
mkdir "$tmp/trace"

echo "== ./scripts/example.sh in a fresh clone"
(
  cd "$tmp/clone" &&
  env -u BUILD -u SAN -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u RELIX \
    strace -f -ff -y -qq -e trace=%file -o "$tmp/trace/t" ./scripts/example.sh
) > "$tmp/out" 2> "$tmp/err"
rc=$?
grep -E '^(== examples/|\([0-9]+ rows?\)$)' "$tmp/out"
if [ "$rc" -ne 0 ]; then
  echo "example.sh exited with $rc"
  tail -n 5 "$tmp/err"
fi

echo "== files opened outside the clone"
python3 - "$tmp" "$HOME" <<'PY' || rc=1
import glob, os, re, sys
tmp, home = sys.argv[1], os.path.realpath(sys.argv[2])
clone = tmp + "/clone"
system = ("/usr/", "/lib/", "/lib64/", "/lib32/", "/bin/", "/sbin/", "/etc/", "/proc/", "/sys/",
          "/dev/", "/var/lib/dpkg/")
opened = re.compile(r'^(?:open|openat|openat2|creat)\(.*\) = \d+<(.*)>$')
execd = re.compile(r'^execve(?:at)?\((?:\d+<[^>]*>, )?"(/[^"]*)", .*\) = 0$')

def allowed(p):
    if p == clone or p.startswith(clone + "/"): return True
    if p == tmp or p.startswith(tmp + "/"): return False      # beside the clone
    if p in ("/", "/tmp") or p.startswith("/tmp/"): return True
    if p.startswith(system) or p in ("/usr", "/lib", "/etc", "/proc", "/sys", "/dev"): return True
    if p.startswith(home + "/."): return True                 # dotfiles that tools read
    return False

bad = {}
for f in glob.glob(tmp + "/trace/t.*"):
    prog = "?"
    for line in open(f, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = execd.match(line)
        if m:
            prog = os.path.basename(m.group(1))
            path = m.group(1)
        else:
            m = opened.match(line)
            if not m: continue
            path = m.group(1)
        if path.startswith(("pipe:", "socket:", "anon_inode:")): continue
        if not allowed(path): bad.setdefault(path, set()).add(prog)
for p in sorted(bad):
    print(p.replace(tmp, "$TMP"), "(" + ", ".join(sorted(bad[p])) + ")")
print("none" if not bad else f"{len(bad)} file(s) outside the clone")
sys.exit(1 if bad else 0)
PY

echo "== 023-spec-tables in the clone"
(cd "$tmp/clone" && env -u BUILD -u RELIX tests/run.sh 023-spec-tables 2>&1 | tail -n 3) || rc=1
exit "$rc"
