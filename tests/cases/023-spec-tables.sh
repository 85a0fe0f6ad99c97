# Every result table printed in the spec's worked examples appears byte for byte in what relix
# prints for the same scripts (020-spec-hotel, 022-spec-asof). The spec pages are the
# repository's copy in docs/spec/.
spec=docs/spec
[ -f "$spec/interval-join.md" ] && [ -f "$spec/asof-join.md" ] || { echo "no $spec/interval-join.md or asof-join.md"; exit 1; }
out=$( "$RELIX" tests/cases/020-spec-hotel.rx; "$RELIX" tests/cases/022-spec-asof.rx )
python3 - "$spec" "$out" <<'PY'
import sys
spec, got = sys.argv[1], sys.argv[2]
n = 0
for page in ("interval-join.md", "asof-join.md"):
    lines = open(f"{spec}/{page}", encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "Result" and i + 1 < len(lines) and lines[i + 1].startswith(" "):
            j = i + 1
            block = []
            while not lines[j].startswith("("):
                block.append(lines[j]); j += 1
            block.append(lines[j])
            text = "\n".join(block)
            n += 1
            print(("same   " if text in got else "DIFFERS"), page, block[0].split()[0], block[-1])
            i = j
        i += 1
print(n, "spec tables checked")
PY
