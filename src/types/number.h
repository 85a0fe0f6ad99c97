/*
 * number.h - parsing and printing of INT and FLOAT values. Parsers take the text [s, s+n)
 * (no NUL needed) and accept it only whole, with no surrounding space.
 */
#ifndef RX_NUMBER_H
#define RX_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NUM_BUF 40

/* Shortest text that reads back as exactly the same double (the JavaScript Number::toString
 * form): 10 not 10.0, 10.4, 0.1, 1e+21, 1.5e-7, -0 as "-0", NaN as "NaN", infinities as
 * "Infinity" and "-Infinity". Writes into buf (at least NUM_BUF bytes), NUL-terminates, returns
 * the length. Plain decimals for 1e-7 <= |v| < 1e21 (123456789012345680000, 0.000001), the
 * exponent form otherwise (1e-7, 5e-324). Unlike JavaScript, negative zero prints as "-0", so
 * that printing and reading back keeps the sign (1/-0 is -Infinity). */
size_t num_format_double(double v, char *buf);
/* num_format_double's text of v at p (NUM_BUF bytes there), without the NUL; returns its end.
 * hint: NULL, or an int the caller keeps per column of values, 0 at first: where the search
 * for the decimal's length starts (values of one column tend to have the same number of
 * decimals). Any hint gives the same text; it only changes how fast. */
char *num_put_double(char *p, double v, int *hint);
/* Decimal, '-' for negatives; buf at least NUM_BUF bytes, NUL-terminated; returns the length. */
size_t num_format_int(int64_t v, char *buf);
/* Writes v's decimal digits at p (at most 20 bytes, no NUL) and returns the byte after them. */
char *num_put_u64(char *p, uint64_t v);

/* Strict parse of the whole text: optional sign, digits. 0 ok; -1 not an integer; -2 an
 * integer that does not fit in 64 bits. */
int num_parse_int(const char *s, size_t n, int64_t *out);
/* Strict parse: optional sign, digits with optional '.', optional exponent; also "NaN",
 * "Infinity", "inf" (any case, after an optional sign). A digit must appear before or after the
 * '.' (.5 and 5. are numbers, '.' is not). Correctly rounded; a value too small underflows to
 * a subnormal or zero and is accepted. 0 ok, -1 not a number, -2 out of range (overflows to
 * infinity). A text of 128 bytes or more needs a temporary copy; if that allocation fails the
 * result is -1. */
int num_parse_float(const char *s, size_t n, double *out);
/* Shape tests for CSV detection (cheap, no conversion): true exactly when num_parse_int
 * (num_parse_float) would not return -1, so "1" has both shapes and "NaN" the FLOAT one. */
bool num_shape_int(const char *s, size_t n);
bool num_shape_float(const char *s, size_t n);

#endif
