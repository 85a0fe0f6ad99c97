/*
 * tz.c - time zones from TZif files (RFC 8536) and POSIX TZ rules (tz.h).
 *
 * A file is read whole and checked: every count against the file's length, every type index
 * and abbreviation index against its table. Only the version 2+ block (64-bit times) is used
 * when there is one; a version 1 file has no footer rule and keeps its last offset forever.
 * Transition times are clamped to +-10^12 s (beyond years 1..9999 both ways) so that the
 * "big bang" sentinel some files carry cannot overflow when scaled to microseconds.
 *
 * Local to UTC looks at every offset in effect within 26 hours either side of the local
 * time (more than any zone's offset) and keeps the readings that round-trip; tz.h says which
 * one wins when there are two or none.
 */
#include "io/tz.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "types/temporal.h"

#define TZ_CLAMP INT64_C(1000000000000)
#define TZ_SPAN (26 * 3600)            /* seconds: more than any UTC offset */
#define TZ_ABBR 16

/* A POSIX TZ transition rule: Jn (day 1..365, February 29 never counted), n (day 0..365) or
 * Mm.w.d (day d of week w of month m, week 5 the last), at secs after local midnight (may be
 * negative or past 24 h, as TZif version 3 allows). */
typedef struct {
    char kind;                         /* 'J', 'N' or 'M' */
    int m, w, d, n;
    int32_t secs;
} TzRule;

struct TzZone {
    char *key;                         /* the name asked for (cache key) */
    char *name;                        /* the database's spelling */
    int n_trans, n_types;
    int64_t *trans;                    /* seconds, ascending */
    uint8_t *trans_type;
    int32_t *type_off;
    char (*type_abbr)[TZ_ABBR];
    bool has_rule, rule_dst;           /* a footer rule; with daylight saving time */
    int32_t std_off, dst_off;          /* seconds east */
    char std_abbr[TZ_ABBR], dst_abbr[TZ_ABBR];
    TzRule start, end;
    TzZone *next;                      /* the cache's list */
};

static pthread_mutex_t tz_lock = PTHREAD_MUTEX_INITIALIZER;
static TzZone *tz_cache;

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* ---- POSIX TZ rules ------------------------------------------------------------------------- */

/* A zone abbreviation: <...> or three or more letters. Advances *p; false on bad syntax. */
static bool rule_abbr(const char **p, char out[TZ_ABBR]) {
    const char *s = *p;
    size_t n = 0;
    if (*s == '<') {
        s++;
        while (*s && *s != '>') {
            if (n + 1 < TZ_ABBR) out[n++] = *s;
            s++;
        }
        if (*s != '>') return false;
        s++;
    } else {
        while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')) {
            if (n + 1 < TZ_ABBR) out[n++] = *s;
            s++;
        }
        if (n < 3) return false;
    }
    out[n] = 0;
    *p = s;
    return true;
}

/* [+-]h[hh][:mm[:ss]] into seconds (as written: POSIX offsets are west-positive). */
static bool rule_hms(const char **p, int32_t *out, int max_h) {
    const char *s = *p;
    int sign = 1;
    if (*s == '+' || *s == '-') sign = *s++ == '-' ? -1 : 1;
    if (*s < '0' || *s > '9') return false;
    int v[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (k > 0) {
            if (*s != ':') break;
            s++;
        }
        if (*s < '0' || *s > '9') return false;
        int x = 0, digits = 0;
        while (*s >= '0' && *s <= '9' && digits < 3) x = x * 10 + (*s++ - '0'), digits++;
        v[k] = x;
    }
    if (v[0] > max_h || v[1] > 59 || v[2] > 59) return false;
    *out = sign * (v[0] * 3600 + v[1] * 60 + v[2]);
    *p = s;
    return true;
}

static bool rule_num(const char **p, int *out, int lo, int hi) {
    const char *s = *p;
    if (*s < '0' || *s > '9') return false;
    int x = 0;
    while (*s >= '0' && *s <= '9' && x <= hi) x = x * 10 + (*s++ - '0');
    if (x < lo || x > hi) return false;
    *out = x;
    *p = s;
    return true;
}

/* ,Jn / ,n / ,Mm.w.d then an optional /time (default 02:00). */
static bool rule_date(const char **p, TzRule *r) {
    const char *s = *p;
    if (*s != ',') return false;
    s++;
    memset(r, 0, sizeof *r);
    if (*s == 'J') {
        s++;
        r->kind = 'J';
        if (!rule_num(&s, &r->n, 1, 365)) return false;
    } else if (*s == 'M') {
        s++;
        r->kind = 'M';
        if (!rule_num(&s, &r->m, 1, 12) || *s++ != '.' || !rule_num(&s, &r->w, 1, 5) || *s++ != '.' ||
            !rule_num(&s, &r->d, 0, 6))
            return false;
    } else {
        r->kind = 'N';
        if (!rule_num(&s, &r->n, 0, 365)) return false;
    }
    r->secs = 2 * 3600;
    if (*s == '/' && (s++, !rule_hms(&s, &r->secs, 167))) return false;
    *p = s;
    return true;
}

/* Parses a footer "STDoff[DST[off][,start[/t],end[/t]]]" into z; false when it is not one. */
static bool parse_rule(TzZone *z, const char *s) {
    int32_t off;
    if (!rule_abbr(&s, z->std_abbr) || !rule_hms(&s, &off, 24)) return false;
    z->std_off = -off;
    z->has_rule = true;
    if (!*s) return true;
    if (!rule_abbr(&s, z->dst_abbr)) return false;
    z->dst_off = z->std_off + 3600;
    if (*s && *s != ',') {
        if (!rule_hms(&s, &off, 24)) return false;
        z->dst_off = -off;
    }
    if (!*s) {
        /* POSIX leaves the default rules to the implementation: the US ones, as glibc */
        s = ",M3.2.0,M11.1.0";
    }
    if (!rule_date(&s, &z->start) || !rule_date(&s, &z->end) || *s) return false;
    z->rule_dst = true;
    return true;
}

/* Days since 1970 of rule r's date in year y. */
static int64_t rule_day(const TzRule *r, int64_t y) {
    int64_t jan1 = tm_days_from_civil(y, 1, 1);
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (r->kind == 'J') return jan1 + r->n - 1 + (leap && r->n >= 60);
    if (r->kind == 'N') return jan1 + r->n;
    int64_t first = tm_days_from_civil(y, r->m, 1);
    int dow = (int)(((first + 4) % 7 + 7) % 7); /* 1970-01-01 was a Thursday */
    int64_t day = first + (r->d - dow + 7) % 7 + (int64_t)(r->w - 1) * 7;
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t last = first + mdays[r->m - 1] + (r->m == 2 && leap) - 1;
    while (day > last) day -= 7;
    return day;
}

/* The instants (seconds) at which year y's daylight saving time starts and ends. */
static void rule_year(const TzZone *z, int64_t y, int64_t *start, int64_t *end) {
    *start = rule_day(&z->start, y) * 86400 + z->start.secs - z->std_off;
    *end = rule_day(&z->end, y) * 86400 + z->end.secs - z->dst_off;
}

/* The rule's offset at instant t (seconds), and the next instant after t at which the
 * offset may change (*until, INT64_MAX when it never does). */
static int32_t rule_offset(const TzZone *z, int64_t t, bool *dst, int64_t *until) {
    if (!z->rule_dst) {
        *dst = false;
        *until = INT64_MAX;
        return z->std_off;
    }
    int64_t y;
    int mo, d;
    tm_civil_from_days(floor_div(t + z->std_off, 86400), &y, &mo, &d);
    int64_t s, e;
    rule_year(z, y, &s, &e);
    bool in = s < e ? (t >= s && t < e) : !(t >= e && t < s);
    /* the next change: the smallest of this and the next year's instants after t */
    int64_t next = INT64_MAX;
    for (int64_t k = y; k <= y + 1; k++) {
        int64_t ks, ke;
        rule_year(z, k, &ks, &ke);
        if (ks > t && ks < next) next = ks;
        if (ke > t && ke < next) next = ke;
    }
    *dst = in;
    *until = next;
    return in ? z->dst_off : z->std_off;
}

/* ---- offsets -------------------------------------------------------------------------------- */

/* The offset at instant t (seconds), its abbreviation, and when it may next change. */
static int32_t offset_piece(const TzZone *z, int64_t t, const char **abbr, int64_t *until) {
    int n = z->n_trans;
    if (n == 0 || t < z->trans[0]) {
        if (n == 0 && z->has_rule) {
            bool dst;
            int32_t off = rule_offset(z, t, &dst, until);
            if (abbr) *abbr = dst ? z->dst_abbr : z->std_abbr;
            return off;
        }
        *until = n ? z->trans[0] : INT64_MAX;
        if (abbr) *abbr = z->type_abbr[0];
        return z->type_off[0];
    }
    /* the last transition at or before t */
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (z->trans[mid] <= t) lo = mid;
        else hi = mid - 1;
    }
    if (lo == n - 1 && z->has_rule) {
        bool dst;
        int32_t off = rule_offset(z, t, &dst, until);
        if (abbr) *abbr = dst ? z->dst_abbr : z->std_abbr;
        return off;
    }
    *until = lo + 1 < n ? z->trans[lo + 1] : INT64_MAX;
    int ty = z->trans_type[lo];
    if (abbr) *abbr = z->type_abbr[ty];
    return z->type_off[ty];
}

int32_t tz_offset_at(const TzZone *z, int64_t us, const char **abbr) {
    int64_t until;
    return offset_piece(z, floor_div(us, US_PER_SEC), abbr, &until);
}

int64_t tz_to_local(const TzZone *z, int64_t us) {
    return us + (int64_t)tz_offset_at(z, us, NULL) * US_PER_SEC;
}

int64_t tz_from_local(const TzZone *z, int64_t local) {
    int64_t l = floor_div(local, US_PER_SEC);
    int64_t t = l - TZ_SPAN, hi = l + TZ_SPAN;
    bool found = false;
    int64_t best = 0;
    int32_t prev_off = 0;
    bool have_prev = false;
    for (int guard = 0; guard < 64 && t <= hi; guard++) {
        int64_t until;
        int32_t off = offset_piece(z, t, NULL, &until);
        int64_t u = local - (int64_t)off * US_PER_SEC; /* the reading with this offset */
        int64_t us_lo = t * US_PER_SEC;
        int64_t us_hi = until > hi ? INT64_MAX : until * US_PER_SEC;
        if (u >= us_lo && u < us_hi) {
            if (!found || u > best) best = u;
            found = true;
        } else if (have_prev && off > prev_off && !found) {
            /* a gap at t: local falls between t + prev_off and t + off */
            int64_t g0 = t * US_PER_SEC + (int64_t)prev_off * US_PER_SEC;
            int64_t g1 = t * US_PER_SEC + (int64_t)off * US_PER_SEC;
            if (local >= g0 && local < g1) {
                best = local - (int64_t)prev_off * US_PER_SEC;
                found = true;
            }
        }
        prev_off = off;
        have_prev = true;
        if (until == INT64_MAX || until > hi) break;
        t = until;
    }
    if (!found) best = local - (int64_t)tz_offset_at(z, local, NULL) * US_PER_SEC;
    return best;
}

const char *tz_name(const TzZone *z) { return z->name; }

/* ---- TZif files ----------------------------------------------------------------------------- */

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static int64_t be64(const uint8_t *p) { return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4)); }

/* Fills z from the TZif image buf[0..len); false when it is not a well-formed one. */
static bool parse_tzif(TzZone *z, const uint8_t *buf, size_t len) {
    if (len < 44 || memcmp(buf, "TZif", 4) != 0) return false;
    int version = buf[4];
    const uint8_t *h = buf;
    size_t pos = 0;
    int tsize = 4;
    for (int pass = 0; pass < 2; pass++) {
        if (pos + 44 > len || memcmp(h, "TZif", 4) != 0) return false;
        uint64_t isut = be32(h + 20), isstd = be32(h + 24), leap = be32(h + 28), timecnt = be32(h + 32),
                 typecnt = be32(h + 36), charcnt = be32(h + 40);
        if (timecnt > 100000 || typecnt == 0 || typecnt > 256 || charcnt > 100000 || leap > 100000 ||
            (isut != 0 && isut != typecnt) || (isstd != 0 && isstd != typecnt))
            return false;
        uint64_t body = timecnt * (uint64_t)tsize + timecnt + typecnt * 6 + charcnt +
                        leap * (uint64_t)(tsize + 4) + isstd + isut;
        if (pos + 44 + body > len) return false;
        if (pass == 0 && version >= '2') {
            pos += 44 + body;
            h = buf + pos;
            tsize = 8;
            continue;
        }
        const uint8_t *p = h + 44;
        z->n_trans = (int)timecnt;
        z->n_types = (int)typecnt;
        z->trans = malloc((timecnt ? timecnt : 1) * sizeof *z->trans);
        z->trans_type = malloc(timecnt ? timecnt : 1);
        z->type_off = malloc(typecnt * sizeof *z->type_off);
        z->type_abbr = malloc(typecnt * sizeof *z->type_abbr);
        if (!z->trans || !z->trans_type || !z->type_off || !z->type_abbr) return false;
        for (uint64_t i = 0; i < timecnt; i++) {
            int64_t t = tsize == 8 ? be64(p + i * 8) : (int64_t)(int32_t)be32(p + i * 4);
            if (t < -TZ_CLAMP) t = -TZ_CLAMP;
            if (t > TZ_CLAMP) t = TZ_CLAMP;
            if (i > 0 && t < z->trans[i - 1]) return false;
            z->trans[i] = t;
        }
        p += timecnt * (uint64_t)tsize;
        for (uint64_t i = 0; i < timecnt; i++) {
            if (p[i] >= typecnt) return false;
            z->trans_type[i] = p[i];
        }
        p += timecnt;
        const uint8_t *types = p, *chars = p + typecnt * 6;
        for (uint64_t i = 0; i < typecnt; i++) {
            int32_t off = (int32_t)be32(types + i * 6);
            unsigned ai = types[i * 6 + 5];
            if (off < -25 * 3600 || off > 26 * 3600 || ai >= charcnt) return false;
            z->type_off[i] = off;
            size_t k = 0;
            while (ai + k < charcnt && chars[ai + k] && k + 1 < TZ_ABBR) {
                z->type_abbr[i][k] = (char)chars[ai + k];
                k++;
            }
            z->type_abbr[i][k] = 0;
        }
        pos += 44 + body;
        break;
    }
    /* the footer: \n rule \n (version 2+) */
    if (version >= '2' && pos < len && buf[pos] == '\n') {
        const uint8_t *e = memchr(buf + pos + 1, '\n', len - pos - 1);
        size_t rn = e ? (size_t)(e - (buf + pos + 1)) : 0;
        if (e && rn > 0 && rn < 200) {
            char rule[200];
            memcpy(rule, buf + pos + 1, rn);
            rule[rn] = 0;
            if (!parse_rule(z, rule)) z->has_rule = false; /* an unreadable rule: keep the last offset */
        }
    }
    return true;
}

/* A fixed-offset zone: UTC, Z, GMT, or [+-]hh[[:]mm]. false when name is none of these. */
static bool fixed_zone(TzZone *z, const char *s, size_t n) {
    int32_t off = 0;
    if ((n == 3 && (strncasecmp(s, "UTC", 3) == 0 || strncasecmp(s, "GMT", 3) == 0)) ||
        (n == 1 && (s[0] == 'Z' || s[0] == 'z'))) {
        off = 0;
    } else if (n >= 3 && (s[0] == '+' || s[0] == '-')) {
        int d[4], nd = 0;
        for (size_t i = 1; i < n; i++) {
            if (s[i] == ':' && i == 3 && n == 6) continue;
            if (s[i] < '0' || s[i] > '9' || nd == 4) return false;
            d[nd++] = s[i] - '0';
        }
        if (nd != 2 && nd != 4) return false;
        int hh = d[0] * 10 + d[1], mm = nd == 4 ? d[2] * 10 + d[3] : 0;
        if (hh > 18 || mm > 59 || (hh == 18 && mm > 0)) return false;
        off = (s[0] == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
    } else {
        return false;
    }
    z->n_types = 1;
    z->type_off = malloc(sizeof *z->type_off);
    z->type_abbr = malloc(sizeof *z->type_abbr);
    if (!z->type_off || !z->type_abbr) return false;
    z->type_off[0] = off;
    if (off == 0) snprintf(z->type_abbr[0], TZ_ABBR, "UTC");
    else snprintf(z->type_abbr[0], TZ_ABBR, "%c%02d%02d", off < 0 ? '-' : '+', abs(off) / 3600, abs(off) / 60 % 60);
    return true;
}

/* Whether name is a safe relative path inside the database: letters, digits, '_', '-', '+',
 * '.', components separated by '/', none empty, none "." or "..". */
static bool safe_name(const char *s, size_t n) {
    if (n == 0 || n > 200 || s[0] == '/') return false;
    size_t comp = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '/') {
            size_t len = i - comp;
            if (len == 0 || (len == 1 && s[comp] == '.') || (len == 2 && s[comp] == '.' && s[comp + 1] == '.'))
                return false;
            comp = i + 1;
            continue;
        }
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-' || c == '+' || c == '.'))
            return false;
    }
    return true;
}

/* Resolves name under dir into path (PATH_BUF bytes), each component matched exactly or,
 * failing that, without regard to case; rel receives the database's spelling. */
#define PATH_BUF 1024
static bool resolve(const char *dir, const char *name, char *path, char *rel) {
    int w = snprintf(path, PATH_BUF, "%s", dir);
    size_t rl = 0;
    rel[0] = 0;
    const char *c = name;
    while (*c) {
        const char *slash = strchr(c, '/');
        size_t len = slash ? (size_t)(slash - c) : strlen(c);
        char comp[256];
        memcpy(comp, c, len);
        comp[len] = 0;
        struct stat st;
        char cand[PATH_BUF];
        if (snprintf(cand, sizeof cand, "%s/%s", path, comp) >= (int)sizeof cand) return false;
        if (stat(cand, &st) != 0) {
            DIR *d = opendir(path);
            if (!d) return false;
            struct dirent *de;
            bool hit = false;
            while ((de = readdir(d)) != NULL) {
                if (strlen(de->d_name) == len && strcasecmp(de->d_name, comp) == 0) {
                    memcpy(comp, de->d_name, len);
                    hit = true;
                    break;
                }
            }
            closedir(d);
            if (!hit) return false;
        }
        w = snprintf(path + w, PATH_BUF - (size_t)w, "/%s", comp) + w;
        if (w >= PATH_BUF - 1) return false;
        rl += (size_t)snprintf(rel + rl, PATH_BUF - rl, "%s%s", rl ? "/" : "", comp);
        c += len;
        if (*c == '/') c++;
    }
    return true;
}

static void free_zone(TzZone *z) {
    if (!z) return;
    free(z->key);
    free(z->name);
    free(z->trans);
    free(z->trans_type);
    free(z->type_off);
    free(z->type_abbr);
    free(z);
}

/* Loads the zone named key (NUL-terminated); NULL with *why. */
static TzZone *load_zone(const char *key, size_t n, const char **why) {
    TzZone *z = calloc(1, sizeof *z);
    if (!z || !(z->key = malloc(n + 1))) {
        free(z);
        *why = "out of memory";
        return NULL;
    }
    memcpy(z->key, key, n);
    z->key[n] = 0;
    if (fixed_zone(z, key, n)) {
        z->name = malloc(n + 1);
        if (!z->name) goto oom;
        memcpy(z->name, key, n + 1);
        if (n == 1 || strncasecmp(key, "utc", 3) == 0 || strncasecmp(key, "gmt", 3) == 0) {
            for (size_t i = 0; i < n; i++) z->name[i] = (char)(key[i] >= 'a' && key[i] <= 'z' ? key[i] - 32 : key[i]);
        }
        return z;
    }
    if (!safe_name(key, n)) {
        free_zone(z);
        *why = TZ_NO_SUCH_ZONE;
        return NULL;
    }
    const char *dir = getenv("TZDIR");
    if (!dir || !*dir) dir = "/usr/share/zoneinfo";
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free_zone(z);
        *why = "no tz database found (install the tzdata package, or set TZDIR to its directory)";
        return NULL;
    }
    char path[PATH_BUF], rel[PATH_BUF];
    if (!resolve(dir, z->key, path, rel) || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        free_zone(z);
        *why = TZ_NO_SUCH_ZONE;
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        free_zone(z);
        *why = "its tz database file cannot be read";
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    uint8_t *buf = cap < (size_t)16 << 20 ? malloc(cap) : NULL;
    if (buf) len = fread(buf, 1, cap, f);
    fclose(f);
    bool ok = buf && len < cap && parse_tzif(z, buf, len);
    free(buf);
    if (!ok) {
        free_zone(z);
        *why = "its file in the tz database is not a TZif file";
        return NULL;
    }
    z->name = strdup(rel);
    if (!z->name) goto oom;
    return z;
oom:
    free_zone(z);
    *why = "out of memory";
    return NULL;
}

int tz_find(const char *name, size_t n, const TzZone **out, const char **why) {
    pthread_mutex_lock(&tz_lock);
    for (TzZone *z = tz_cache; z; z = z->next)
        if (strlen(z->key) == n && memcmp(z->key, name, n) == 0) {
            pthread_mutex_unlock(&tz_lock);
            *out = z;
            return 0;
        }
    TzZone *z = NULL;
    if (n > 0 && !memchr(name, 0, n)) z = load_zone(name, n, why);
    else *why = TZ_NO_SUCH_ZONE;
    if (z) {
        z->next = tz_cache;
        tz_cache = z;
    }
    pthread_mutex_unlock(&tz_lock);
    if (!z) return -1;
    *out = z;
    return 0;
}

/* ---- suggestions ---------------------------------------------------------------------------- */

/* Optimal string alignment distance, ASCII letters compared without case; 99 past 64 bytes. */
static int name_distance(const char *x, size_t n, const char *y, size_t m) {
    if (n > 64 || m > 64) return 99;
    int d[65][65];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int a = x[i - 1] >= 'A' && x[i - 1] <= 'Z' ? x[i - 1] | 0x20 : x[i - 1];
            int b = y[j - 1] >= 'A' && y[j - 1] <= 'Z' ? y[j - 1] | 0x20 : y[j - 1];
            int best = d[i - 1][j - 1] + (a != b);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1) {
                int pa = x[i - 2] >= 'A' && x[i - 2] <= 'Z' ? x[i - 2] | 0x20 : x[i - 2];
                int pb = y[j - 2] >= 'A' && y[j - 2] <= 'Z' ? y[j - 2] | 0x20 : y[j - 2];
                if (a == pb && pa == b && d[i - 2][j - 2] + 1 < best) best = d[i - 2][j - 2] + 1;
            }
            d[i][j] = best;
        }
    return d[n][m];
}

typedef struct {
    const char *name;
    size_t n;
    bool bare;          /* the name has no '/': also compared with a zone's last component */
    int best;
    char found[PATH_BUF];
} Nearest;

/* Visits the zone files under dir (rel their relative path so far), depth at most 3. */
static void nearest_walk(Nearest *s, const char *dir, const char *rel, int depth) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *nm = de->d_name;
        if (nm[0] == '.' || strchr(nm, '.')) continue;
        /* top level: zone names start with a capital; posix/ and right/ are copies */
        if (depth == 0 && (!(nm[0] >= 'A' && nm[0] <= 'Z') || strcmp(nm, "SECURITY") == 0)) continue;
        char path[PATH_BUF], r[PATH_BUF];
        if (snprintf(path, sizeof path, "%s/%s", dir, nm) >= (int)sizeof path) continue;
        if (snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", nm) >= (int)sizeof r) continue;
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth < 3) nearest_walk(s, path, r, depth + 1);
            continue;
        }
        int dist = name_distance(s->name, s->n, r, strlen(r));
        if (s->bare && depth > 0) {
            int dl = name_distance(s->name, s->n, nm, strlen(nm));
            if (dl < dist) dist = dl;
        }
        if (dist < s->best || (dist == s->best && strcmp(r, s->found) < 0)) {
            s->best = dist;
            snprintf(s->found, sizeof s->found, "%s", r);
        }
    }
    closedir(d);
}

size_t tz_nearest(const char *name, size_t n, char *buf, size_t size) {
    if (size) buf[0] = 0;
    if (n == 0 || n > 64 || size == 0) return 0;
    const char *dir = getenv("TZDIR");
    if (!dir || !*dir) dir = "/usr/share/zoneinfo";
    Nearest s = {name, n, memchr(name, '/', n) == NULL, n <= 4 ? 2 : 3, ""};
    nearest_walk(&s, dir, "", 0);
    if (!s.found[0]) return 0;
    return (size_t)snprintf(buf, size, "%s", s.found);
}
