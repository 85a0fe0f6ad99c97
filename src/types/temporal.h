/*
 * temporal.h - ISO-8601 parsing and printing, and calendar arithmetic, for TIMESTAMP, DATE,
 * TIME and DURATION (representations in value.h).
 *
 * Parsers are strict: the whole input [s, s+n) must be the value, with no surrounding space.
 * Each returns 0 on success, or -1 with *why set to a static English phrase naming the problem
 * ("month 13 is out of range", "April has 30 days"), suitable after "invalid DATE: ", and the
 * output untouched. A static phrase cannot name the input's year; tm_explain writes the same
 * reason with it ("February 2026 has 28 days"). Years are 0001..9999; anything outside
 * (including after a zone offset) is "out of range". Values are never normalized: 2026-02-30
 * is an error, not March 2nd.
 *
 * Formatters write into buf (at least TM_BUF bytes), NUL-terminate and return the length.
 */
#ifndef RX_TEMPORAL_H
#define RX_TEMPORAL_H

#include "types/value.h"

#define TM_BUF 64

/* Smallest and largest TIMESTAMP: 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z. */
#define TM_TS_MIN INT64_C(-62135596800000000)
#define TM_TS_MAX INT64_C(253402300799999999)
#define TM_DATE_MIN (-719162)
#define TM_DATE_MAX 2932896

/* YYYY-MM-DD, then optionally [T, t or space]HH:MM[:SS[.f{1,9}]], then optionally Z, z,
 * +hh:mm, -hh:mm, +hhmm, +hh (hh 00..23, mm 00..59). No zone means UTC. An offset is normalized:
 * 2026-01-02T10:00:00+02:00 is 08:00:00Z. Fraction digits past the sixth must be zeros (a
 * finer fraction is an error, never a silent truncation). A date alone is its midnight. */
int tm_parse_timestamp(const char *s, size_t n, int64_t *out_us, const char **why);
/* YYYY-MM-DD */
int tm_parse_date(const char *s, size_t n, int32_t *out_days, const char **why);
/* HH:MM[:SS[.f{1,9}]] (the same fraction rule); 24:00:00 is rejected. */
int tm_parse_time(const char *s, size_t n, int64_t *out_us, const char **why);
/* ISO-8601 duration: [-]P[nY][nM][nW][nD][T[nH][nM][n[.f]S]], at least one component, each n a
 * non-negative integer (seconds may have up to 6 fraction digits). Y and M give months (Y = 12);
 * W = 7 days, D = 24 hours, H, M, S exact microseconds. A leading '-' negates the whole.
 * Without the leading '-', any number may carry its own '-', so that the mixed-sign form
 * tm_format_duration writes (P1MT-1H) reads back. Designators may be lower case. */
int tm_parse_duration(const char *s, size_t n, RxDuration *out, const char **why);
/* The parsers' *why is static text, so a day past the end of February can only be blamed on
 * "February has 28 days in a common year". tm_explain re-parses [s, s+n) as type t (TIMESTAMP,
 * DATE, TIME or DURATION), writes the reason with the input's own year into buf (TM_BUF bytes:
 * "February 2026 has 28 days"; any other reason is *why itself) and returns its length, or 0
 * (buf "") when the text parses. */
size_t tm_explain(RxType t, const char *s, size_t n, char *buf);
/* The forms a DURATION text takes, for error messages: "ISO-8601 ... e.g. 'PT5M'". */
extern const char tm_duration_forms[];
/* The ISO-8601 spelling of an informal duration that tm_parse_duration rejects: '2 minutes',
 * '5m', '1h30m', '2 hours, 10 sec', '1 day', '90s', '250ms', '00:02:30' -> PT2M, PT5M, PT1H30M,
 * PT2H10S, P1D, PT90S, PT0.25S, PT2M30S (numbers with units s, m, h, d, w, mo, y in short or
 * long English forms, or H:MM[:SS]). Writes it into buf (TM_BUF bytes) and returns its
 * length, or 0 (buf "") when the text is no such duration. */
size_t tm_guess_duration(const char *s, size_t n, char *buf);

/* YYYY-MM-DDTHH:MM:SSZ, with .ffffff trimmed of trailing zeros when there is a fraction.
 * Days and time of day are floor divisions: -1 is 1969-12-31T23:59:59.999999Z. A value outside
 * the valid range still prints (its year with as many digits as it needs). */
size_t tm_format_timestamp(int64_t us, char *buf);
size_t tm_format_date(int32_t days, char *buf);
/* HH:MM:SS[.ffffff trimmed]. A value outside [0, 24 h) is not a TIME; it prints as a signed
 * count of hours (-1:00:00, 25:00:00) rather than wrapping. */
size_t tm_format_time(int64_t us, char *buf);
/* ISO-8601: PT2H, P1DT2H30M, PT0.5S, -PT5M, PT0S, P1Y2M, P1Y2M3DT4H. Microseconds are split
 * into days (24 h), hours, minutes and seconds with a trimmed fraction. When every nonzero part
 * is negative the whole is written once with a leading '-' (-PT5M); when months and
 * microseconds differ in sign each part carries its own sign, as PostgreSQL does (P1MT-1H). */
size_t tm_format_duration(RxDuration d, char *buf);

/* Days since 1970-01-01 of the proleptic Gregorian date y-m-d (Howard Hinnant's algorithm).
 * Any |y| below 10^12 and m in 1..12; d is not checked (day 0 is the month's eve). */
int64_t tm_days_from_civil(int64_t y, int m, int d);
/* The inverse, for any |days| below 10^14. */
void tm_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
/* True when y-m-d is a real date in years 0001..9999. */
bool tm_valid_date(int64_t y, int m, int d);

/* TIMESTAMP + DURATION: months first (the day clamped to the month's end, as PostgreSQL
 * does), then microseconds. -1 when ts or the result is out of range (also when an
 * intermediate step is: 9999-12-31 + P1M - P1D is -1, as in PostgreSQL). */
int tm_ts_add(int64_t ts, RxDuration d, int64_t *out);
/* DATE + n days, -1 out of range. */
int tm_date_add_days(int32_t date, int64_t days, int32_t *out);

/* time_bucket / date_bin: the start of the bucket of width `width` that holds ts, buckets
 * being laid from `origin` both ways: origin + k*width <= ts < origin + (k+1)*width (k rounded
 * down, so times before the origin or before 1970 land in the bucket that starts at or before
 * them). A width is either whole months (P1M, P3M, P1Y: calendar months counted from the
 * origin's month) or a positive fixed length, never both. Returns 0, or -1 with *why set to a
 * static reason: a width of zero or below, one that mixes months with days or hours, or a
 * result outside TM_TS_MIN..TM_TS_MAX. */
int tm_bucket_ts(RxDuration width, int64_t ts, int64_t origin, int64_t *out, const char **why);
/* The default origins of time_bucket: Monday 2000-01-03 for fixed widths (so that weeks start
 * on Mondays, as in TimescaleDB and DuckDB), 2000-01-01 for widths in months. */
#define TM_BUCKET_ORIGIN INT64_C(946857600000000)
#define TM_BUCKET_ORIGIN_MONTHS INT64_C(946684800000000)

/* Fields of extract() and date_trunc(). */
typedef enum {
    TF_YEAR, TF_QUARTER, TF_MONTH, TF_WEEK, TF_DAY, TF_HOUR, TF_MINUTE, TF_SECOND,
    TF_MILLISECOND, TF_MICROSECOND, TF_DOW, TF_ISODOW, TF_DOY, TF_EPOCH, TF_INVALID
} TmField;
/* Parses a field name (case-insensitive: "year", "month", ...). TF_INVALID if unknown. */
TmField tm_field_from_name(const char *s, size_t n);
/* The lower-case name of f; "invalid" for TF_INVALID or anything outside the enum. */
const char *tm_field_name(TmField f);
/* extract(field, TIMESTAMP): year, quarter 1-4, month 1-12, ISO week 1-53, day 1-31, hour,
 * minute, second (0-59, whole), millisecond (0-59999, PostgreSQL's), microsecond
 * (0-59999999), dow (0 = Sunday), isodow (7 = Sunday), doy 1-366, epoch (whole seconds,
 * rounded down like every other field: 1969-12-31T23:59:59.5Z is -1). 0 for TF_INVALID. */
int64_t tm_extract_ts(TmField f, int64_t ts);
/* date_trunc(field, TIMESTAMP) for year, quarter, month, week (ISO Monday), day, hour, minute,
 * second, millisecond, microsecond (the value itself); -1 for a field that does not truncate
 * (dow, isodow, doy, epoch, TF_INVALID) or a ts outside TM_TS_MIN..TM_TS_MAX. */
int tm_trunc_ts(TmField f, int64_t ts, int64_t *out);

/* Shapes, for CSV type detection: true when the text has the syntax of the type (digits and
 * separators in the right places), whether or not the value is valid. A shaped but invalid
 * value is then reported as an error rather than silently read as TEXT. */
/* dddd-dd-dd exactly. */
bool tm_shape_date(const char *s, size_t n);
/* A date shape, 'T', 't' or ' ', a time shape, then optionally Z, z, +dd, +dddd or +dd:dd (or
 * '-'). A date alone is not a TIMESTAMP shape: CSV detection reads it as a DATE. */
bool tm_shape_timestamp(const char *s, size_t n);
/* dd:dd[:dd[.d+]] */
bool tm_shape_time(const char *s, size_t n);

#endif
