/*
 * clients.c - the database client libraries' function tables and loaders (clients.h).
 */
#include "connect/clients.h"

#include "base/dynlib.h"

PqLib pqlib;
LiteLib litelib;
MyLib mylib;

#define RX_CLIENT_NAME(f) #f,
static const char *const pq_names[] = {PQ_FNS(RX_CLIENT_NAME)};
static const char *const lite_names[] = {LITE_FNS(RX_CLIENT_NAME)};
static const char *const my_names[] = {MY_FNS(RX_CLIENT_NAME)};
#undef RX_CLIENT_NAME

_Static_assert(sizeof(PqLib) == RX_ARRAY_LEN(pq_names) * sizeof(void *), "PqLib: one pointer per name");
_Static_assert(sizeof(LiteLib) == RX_ARRAY_LEN(lite_names) * sizeof(void *), "LiteLib: one pointer per name");
_Static_assert(sizeof(MyLib) == RX_ARRAY_LEN(my_names) * sizeof(void *), "MyLib: one pointer per name");

static RxDynLib pg_dl = {"PostgreSQL and H2 support", "libpq.so.5", "libpq5", pq_names, RX_ARRAY_LEN(pq_names),
                         &pqlib, 0, ""};
static RxDynLib lite_dl = {"SQLite support", "libsqlite3.so.0", "libsqlite3-0", lite_names,
                           RX_ARRAY_LEN(lite_names), &litelib, 0, ""};
static RxDynLib my_dl = {"MariaDB and MySQL support", "libmariadb.so.3", "libmariadb3", my_names,
                         RX_ARRAY_LEN(my_names), &mylib, 0, ""};

int pg_load(RxError *err) { return rx_dynlib_load(&pg_dl, err); }
int lite_load(RxError *err) { return rx_dynlib_load(&lite_dl, err); }
int my_load(RxError *err) { return rx_dynlib_load(&my_dl, err); }
bool lite_loaded(void) { return rx_dynlib_loaded(&lite_dl); }
