/*
 * check.h - the unit tests' ten-line check macro (after Redis's testhelp.h). Each test binary
 * calls CHECK for every assertion and ends with `return check_report("name");`, which prints
 * "name: N passed, M failed" and exits non-zero when anything failed. check_splitmix is the
 * randomized tests' generator (SplitMix64: the next value of the sequence *state walks).
 */
#ifndef RX_CHECK_H
#define RX_CHECK_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
static int check_passed, check_failed;
#define CHECK(cond) do { if (cond) check_passed++; else { check_failed++; \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_STR(got, want) do { const char *g_ = (got), *w_ = (want); \
    if (g_ && w_ && strcmp(g_, w_) == 0) check_passed++; else { check_failed++; \
    fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__, g_ ? g_ : "(null)", w_); } } while (0)
static inline uint64_t check_splitmix(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static inline int check_report(const char *name) {
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}
#endif
