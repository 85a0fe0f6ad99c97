# Regression, issue #7 (fuzzing finding session-result-int-float, src/exec/session.c):
# rx_result_int on a FLOAT converted with a plain cast, undefined behaviour for values outside
# the int64 range and NaN (clang's UBSan stopped there; on x86-64 1e300 came out as INT64_MIN).
# relix.h now defines it: truncation toward zero, clamped to the int64 range, NaN as 0. A C
# program against the library of the build under test (with the sanitizers in the sanitizer
# build).
set -u
build=$(dirname "$RELIX")
flags=()
case "$build" in *san*) flags=(-fsanitize=address,undefined -fno-sanitize-recover=all) ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/p.c" <<'C'
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "relix.h"

static int on_result(void *ud, const RxResult *r) {
    (void)ud;
    for (size_t i = 0; i < rx_result_rows(r); i++)
        printf("%-22s -> %" PRId64 "\n", rx_result_text(r, i, 0), rx_result_int(r, i, 0));
    return 0;
}

int main(void) {
    RxSession *s = rx_open();
    const char *q = "T := [\n| x |\n|---|\n| 1e300 |\n| -1e300 |\n| Infinity |\n| -Infinity |\n"
                    "| NaN |\n| 9223372036854775807.0 |\n| -9223372036854775808.0 |\n"
                    "| 9.2233720368547748e18 |\n| 2.9 |\n| -2.9 |\n| -0.5 |\n| |\n];\n"
                    "query { T };\n";
    int rc = rx_exec(s, q, strlen(q), "<t>", on_result, NULL);
    if (rc) fputs(rx_errmsg(s), stderr);
    rx_close(s);
    return rc;
}
C
cc -std=c11 -g "${flags[@]}" -Iinclude -o "$tmp/p" "$tmp/p.c" "$build/librelix.a" $(make -s --no-print-directory print-libs) || exit 1
"$tmp/p"; echo "exit $?"
