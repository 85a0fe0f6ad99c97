/*
 * finding (src/exec/session.c): rx_result_int on a FLOAT column converts with (int64_t)v.v.f,
 * which is undefined behaviour for a value outside the int64 range or NaN (UBSan:
 * "1e+300 is outside the range of representable values of type 'long'", session.c:290).
 * Build and run (from the repository root):
 *   clang -g -fsanitize=undefined -fno-sanitize-recover=all -Iinclude -Isrc \
 *     -I/usr/include/postgresql -D_DEFAULT_SOURCE tests/fuzz/findings/session-result-int-float.c \
 *     $(ls src/*/*.c | grep -v src/cli) -lsqlite3 -lpq -lm -lpthread -o /tmp/ri && /tmp/ri
 */
#include <stdio.h>
#include <string.h>

#include "relix.h"

static int on_result(void *ud, const RxResult *r) {
    (void)ud;
    printf("%lld\n", (long long)rx_result_int(r, 0, 0));
    return 0;
}

int main(void) {
    RxSession *s = rx_open();
    const char *q = "T := [\n| x |\n|---|\n| 1e300 |\n];\nquery { T };\n";
    int rc = rx_exec(s, q, strlen(q), "<t>", on_result, NULL);
    rx_close(s);
    return rc;
}
