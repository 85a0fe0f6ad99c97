# Scripts that are not UTF-8: a sequence cut short by the end of the text or by the next byte,
# a stray continuation byte, an overlong encoding, a surrogate and a byte that never appears in
# UTF-8, in code, in a string, in a quoted name, in an inline table and in a comment. Each is
# an error at the bad byte (exit 1); the byte order mark alone is fine.
P='T := [
| a |
|---|
| 1 |
];
'
run() { echo "== $1"; printf '%s' "$2" | "$RELIX" 2>&1; echo "exit $?"; }
run 'σ cut short at the end of the text' "$P$(printf 'query { \317')"
run '→ cut short inside a query' "${P}query { π a $(printf '\342\206') x (T) };"
run 'string cut short at the end of the text' "${P}query { π 'x$(printf '\303')"
run 'string with a sequence cut short by the quote' "${P}query { π 'x$(printf '\303')' (T) };"
run 'stray continuation byte in a string' "${P}query { π '$(printf '\200')' (T) };"
run 'overlong encoding of /' "${P}query { π '$(printf '\300\257')' (T) };"
run 'UTF-16 surrogate' "${P}query { π '$(printf '\355\240\200')' (T) };"
run 'byte 0xFF in a quoted name' "${P}query { π a → \"x$(printf '\377')\" (T) };"
run 'Latin-1 byte in an inline table cell' "$(printf 'T := [\n| a |\n|---|\n| caf\351 |\n];\nquery { T };')"
run 'Latin-1 byte in an inline table header' "$(printf 'T := [\n| caf\351 |\n|---|\n| 1 |\n];\nquery { T };')"
run 'invalid byte in a comment' "$(printf -- '-- r\351sum\351\nquery { T };')"
run '4-byte sequence cut short at the end of a comment' "$P$(printf -- 'query { T }; -- \360\237\230')"
run 'byte order mark, then a valid script' "$(printf '\357\273\277')${P}query { T };"
run 'byte order mark cut short' "$(printf '\357\273')${P}query { T };"
