#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.c) and runs each for a bounded time.
#
#   tests/fuzz/run.sh                 every target, FUZZ_SECONDS (default 60) each
#   tests/fuzz/run.sh csv temporal    only the targets whose names contain these words
#   FUZZ_SECONDS=600 tests/fuzz/run.sh
#
# Targets are built with clang -g -O1 -fsanitize=fuzzer,address,undefined into build-fuzz/,
# linking the library sources directly (every stage but src/cli), so a sanitizer report is a
# crash. Each target starts from its seed corpus tests/fuzz/corpus/<target>/ and keeps what
# it learns in build-fuzz/corpus/<target>/ (never in the repository). A crash, a hang past
# -timeout=5 s or memory past -rss_limit_mb=2048 leaves its input in
# build-fuzz/artifacts/<target>/; minimize one with
#   build-fuzz/<target> -minimize_crash=1 -runs=10000 build-fuzz/artifacts/<target>/crash-...
# and add it as a regression test (tests/fuzz/README.md).
#
# Prints one line per target: executions run (libFuzzer's final stats) and the outcome. The
# exit status is non-zero when any target crashed or failed to build. clang and libFuzzer's
# runtime are installed with apt-get only when missing.
set -u
cd "$(dirname "$0")/../.." || exit 2
SECONDS_PER=${FUZZ_SECONDS:-60}
OUT=build-fuzz
CC=${FUZZ_CC:-clang}

install_pkgs() {
  local sudo=
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "installing: $*" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq && $sudo apt-get install -y -qq "$@" >&2
}

# clang itself, then the runtime that provides -fsanitize=fuzzer (libclang-rt-N-dev on Debian
# 12, N clang's major version).
if ! command -v "$CC" >/dev/null 2>&1; then
  install_pkgs clang || { echo "fuzz: cannot install clang"; exit 1; }
fi
mkdir -p "$OUT/obj" "$OUT/artifacts" "$OUT/corpus"
probe="$OUT/probe.c"
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$probe"
if ! "$CC" -fsanitize=fuzzer "$probe" -o "$OUT/probe" 2>/dev/null; then
  major=$("$CC" -dumpversion | cut -d. -f1)
  install_pkgs "libclang-rt-$major-dev" || { echo "fuzz: cannot install libFuzzer"; exit 1; }
  "$CC" -fsanitize=fuzzer "$probe" -o "$OUT/probe" || { echo "fuzz: -fsanitize=fuzzer does not link"; exit 1; }
fi

# Sources, include paths and libraries come from the Makefile, so that a stage or a library
# added there is fuzzed too.
make_var() {
  printf 'fuzz-print-var: ; @echo %s\n' "$1" |
    make -s --no-print-directory -f Makefile -f - fuzz-print-var
}
lib_src=()
read -r -a lib_src <<< "$(make_var '$(LIB_SRC)')"
read -r -a mk_flags <<< "$(make_var '$(filter -I% -D% -std=%,$(CFLAGS))')"
read -r -a mk_libs <<< "$(make_var '$(LDLIBS)')"
if [ "${#lib_src[@]}" -eq 0 ]; then echo "fuzz: no library sources from the Makefile"; exit 1; fi

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
CFLAGS="${mk_flags[*]} -g -O1 -fno-omit-frame-pointer
        -Wall -Wextra -Wshadow -Wmissing-prototypes -Wno-unused-parameter"

# The library: every stage but the CLI, compiled with coverage instrumentation
# (fuzzer-no-link) and rebuilt when a source or header is newer than its object.
newest_header=$(ls -t include/*.h src/*/*.h | head -n 1)
objs=()
build_failed=0
pids=()
for f in "${lib_src[@]}"; do
  o="$OUT/obj/$(echo "${f%.c}" | tr / _).o"
  objs+=("$o")
  if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ "$newest_header" -nt "$o" ]; then
    # shellcheck disable=SC2086
    $CC $CFLAGS -fsanitize=fuzzer-no-link $SAN -c "$f" -o "$o" &
    pids+=($!)
    if [ "${#pids[@]}" -ge 2 ]; then wait "${pids[0]}" || build_failed=1; pids=("${pids[@]:1}"); fi
  fi
done
for p in "${pids[@]}"; do wait "$p" || build_failed=1; done
if [ "$build_failed" -ne 0 ]; then echo "fuzz: library build failed"; exit 1; fi

targets=()
for t in tests/fuzz/fuzz_*.c; do
  name=$(basename "$t" .c)
  if [ "$#" -gt 0 ]; then
    keep=0
    for w in "$@"; do [[ "$name" == *"$w"* ]] && keep=1; done
    [ "$keep" -eq 1 ] || continue
  fi
  targets+=("$name")
done

crashed=0
for name in "${targets[@]}"; do
  # shellcheck disable=SC2086
  if ! $CC $CFLAGS -fsanitize=fuzzer $SAN "tests/fuzz/$name.c" "${objs[@]}" "${mk_libs[@]}" -o "$OUT/$name"; then
    printf '%-20s build failed\n' "$name"
    crashed=1
    continue
  fi
  seeds="tests/fuzz/corpus/$name"
  work="$OUT/corpus/$name"
  art="$OUT/artifacts/$name"
  mkdir -p "$work" "$art" "$seeds"
  log="$OUT/$name.log"
  dict=()
  case "$name" in
    fuzz_script|fuzz_lexer_parser) dict=(-dict=tests/fuzz/script.dict) ;;
  esac
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$OUT/$name" -max_total_time="$SECONDS_PER" -timeout=5 -rss_limit_mb=2048 \
      -print_final_stats=1 "${dict[@]}" -artifact_prefix="$art/" "$work" "$seeds" > "$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  [ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
  artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
  if [ "$rc" -eq 0 ]; then
    outcome="no crash"
  else
    crashed=1
    kind=crash
    grep -q 'ERROR: libFuzzer: timeout' "$log" && kind=hang
    grep -q 'ERROR: libFuzzer: out-of-memory' "$log" && kind="out of memory"
    outcome="$kind: ${artifact:-see $log} (log $log)"
  fi
  printf '%-20s %10s executions in %ss  %s\n' "$name" "${execs:-?}" "$SECONDS_PER" "$outcome"
done
exit "$crashed"
