/*
 * tz.h - time zones from the system's tz database (TZif files under $TZDIR, by default
 * /usr/share/zoneinfo), for at_time_zone, to_utc_timestamp and the zoned forms of date_trunc,
 * time_bucket and strftime (docs/functions.md, "Time zones").
 *
 * A zone is its transitions (instant, UTC offset, abbreviation) from the file's 64-bit block,
 * and for instants after the last one the POSIX TZ rule of the file's footer
 * ("CET-1CEST,M3.5.0,M10.5.0/3"). Besides database names, "UTC" (also "Z", "GMT") and ISO
 * offsets ("+05:30", "-08", "+0530": east of Greenwich is positive) are zones of one fixed
 * offset that need no database.
 *
 * Loaded zones are kept for the life of the process (tz_find is safe on several threads and
 * returns the same zone for the same name), so a zone pointer never dangles.
 */
#ifndef RX_TZ_H
#define RX_TZ_H

#include "base/base.h"

typedef struct TzZone TzZone;

/* The zone named name[0..n): its database name (matched exactly, or else without regard to
 * case), "UTC", "Z", "GMT" or an ISO offset. 0 with *out set, or -1 with *why a static phrase
 * that completes "unknown time zone 'X': " ("no such zone in the tz database", "not a TZif
 * file", "no tz database at /usr/share/zoneinfo (install tzdata or set TZDIR)"). Never
 * prints; out of memory is a reason too. */
int tz_find(const char *name, size_t n, const TzZone **out, const char **why);
/* The reason tz_find gives when the database is there but has no such zone (the one reason
 * after which a nearest name is worth suggesting). */
#define TZ_NO_SUCH_ZONE "no such zone in the tz database"

/* The name the zone was found by, as the database spells it (a case-folded lookup returns the
 * file's own spelling). */
const char *tz_name(const TzZone *z);

/* The UTC offset, in seconds east of Greenwich, in effect at instant us (microseconds since
 * 1970 UTC); *abbr (when abbr is not NULL) its abbreviation ("CET", "+0530"), a string that
 * lives as long as the zone. */
int32_t tz_offset_at(const TzZone *z, int64_t us, const char **abbr);

/* The wall-clock time in z at instant us: us plus the offset in effect. */
int64_t tz_to_local(const TzZone *z, int64_t us);

/* The instant whose wall-clock time in z is local (microseconds, as a TIMESTAMP's value
 * read as a local date and time). A local time that happens twice (the hour repeated when
 * clocks go back) is the later instant, the offset after the transition; one that never
 * happens (the hour skipped when clocks go forward) is read with the offset before the
 * transition, so 02:30 on a day that jumps from 02:00 to 03:00 is 03:30. These are
 * PostgreSQL's rules; both pick the later of the two readings. */
int64_t tz_from_local(const TzZone *z, int64_t local);

/* The database's zone name nearest to the unknown name[0..n) (at most two edits, one for names
 * of up to four letters, case aside; a name without '/' is also compared with the last part
 * of each zone's, so "Berln" finds "Europe/Berlin"), written into buf (size bytes); its
 * length, or 0 (buf "") when nothing is that close. Reads the database's directories: for
 * error messages only. */
size_t tz_nearest(const char *name, size_t n, char *buf, size_t size);

#endif
