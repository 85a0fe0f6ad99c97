/*
 * dynlib.c - client libraries loaded on first use (dynlib.h).
 */
#include "base/dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* One lock for every library: a load happens once per library and process. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

/* Loads lib under load_lock; sets lib->state last, so that a reader that sees 1 sees the table. */
static void load(RxDynLib *lib) {
    void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(lib->why, sizeof lib->why, "%s", e ? e : "not found");
        __atomic_store_n(&lib->state, 2, __ATOMIC_RELEASE);
        return;
    }
    void **table = lib->table;
    for (size_t i = 0; i < lib->n_names; i++) {
        void *p = dlsym(h, lib->names[i]);
        if (!p) {
            snprintf(lib->why, sizeof lib->why, "it has no function %s (too old a version?)", lib->names[i]);
            dlclose(h);
            memset(table, 0, lib->n_names * sizeof *table);
            __atomic_store_n(&lib->state, 2, __ATOMIC_RELEASE);
            return;
        }
        table[i] = p;
    }
    __atomic_store_n(&lib->state, 1, __ATOMIC_RELEASE);
}

bool rx_dynlib_ready(RxDynLib *lib) {
    int s = __atomic_load_n(&lib->state, __ATOMIC_ACQUIRE);
    if (s == 0) {
        pthread_mutex_lock(&load_lock);
        if (__atomic_load_n(&lib->state, __ATOMIC_ACQUIRE) == 0) load(lib);
        pthread_mutex_unlock(&load_lock);
        s = __atomic_load_n(&lib->state, __ATOMIC_ACQUIRE);
    }
    return s == 1;
}

bool rx_dynlib_loaded(const RxDynLib *lib) { return __atomic_load_n(&lib->state, __ATOMIC_ACQUIRE) == 1; }

void rx_dynlib_message(const RxDynLib *lib, char *buf, size_t n) {
    snprintf(buf, n, "%s needs %s (apt install %s): %s", lib->what, lib->soname, lib->package,
             lib->why[0] ? lib->why : "not loaded");
}

int rx_dynlib_load(RxDynLib *lib, RxError *err) {
    if (rx_dynlib_ready(lib)) return 0;
    char msg[640];
    rx_dynlib_message(lib, msg, sizeof msg);
    return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "%s", msg);
}
