/*
 * duckdb_capi.h - the few types and functions of DuckDB's C API (duckdb.h, stable since 1.0)
 * that connect/duckdb.c uses, declared here so that building Relix needs no DuckDB: the
 * library is loaded at run time (dlopen) and each function looked up by name. The layouts
 * below are those of duckdb.h; DuckDB keeps them fixed across its 1.x releases.
 */
#ifndef RX_DUCKDB_CAPI_H
#define RX_DUCKDB_CAPI_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t duckdb_idx;
typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;

/* duckdb_type: the values Relix reads (others are refused by name) */
enum {
    DDB_BOOLEAN = 1, DDB_TINYINT = 2, DDB_SMALLINT = 3, DDB_INTEGER = 4, DDB_BIGINT = 5,
    DDB_UTINYINT = 6, DDB_USMALLINT = 7, DDB_UINTEGER = 8, DDB_UBIGINT = 9, DDB_FLOAT = 10,
    DDB_DOUBLE = 11, DDB_TIMESTAMP = 12, DDB_DATE = 13, DDB_TIME = 14, DDB_INTERVAL = 15,
    DDB_HUGEINT = 16, DDB_VARCHAR = 17, DDB_BLOB = 18, DDB_DECIMAL = 19, DDB_TIMESTAMP_S = 20,
    DDB_TIMESTAMP_MS = 21, DDB_TIMESTAMP_NS = 22, DDB_ENUM = 23, DDB_LIST = 24, DDB_STRUCT = 25,
    DDB_MAP = 26, DDB_UUID = 27, DDB_UNION = 28, DDB_BIT = 29, DDB_TIME_TZ = 30,
    DDB_TIMESTAMP_TZ = 31, DDB_UHUGEINT = 32, DDB_ARRAY = 33,
};

typedef struct { void *internal_ptr; } *duckdb_database;
typedef struct { void *internal_ptr; } *duckdb_connection;
typedef struct { void *internal_ptr; } *duckdb_prepared_statement;
typedef struct { void *internal_ptr; } *duckdb_config;
typedef struct { void *internal_ptr; } *duckdb_data_chunk;
typedef struct { void *internal_ptr; } *duckdb_vector;
typedef struct { void *internal_ptr; } *duckdb_logical_type;

/* a query's result (duckdb.h's duckdb_result: its deprecated fields, then the internal data) */
typedef struct {
    duckdb_idx deprecated_column_count;
    duckdb_idx deprecated_row_count;
    duckdb_idx deprecated_rows_changed;
    void *deprecated_columns;
    char *deprecated_error_message;
    void *internal_data;
} duckdb_result;

typedef struct { int32_t days; } duckdb_date;
typedef struct { int64_t micros; } duckdb_time;
typedef struct { int64_t micros; } duckdb_timestamp;
typedef struct { int32_t months; int32_t days; int64_t micros; } duckdb_interval;
typedef struct { uint64_t lower; int64_t upper; } duckdb_hugeint;
typedef struct { uint64_t lower; uint64_t upper; } duckdb_uhugeint;

/* a VARCHAR in a vector: up to 12 bytes inline, else a pointer */
typedef struct {
    union {
        struct { uint32_t length; char prefix[4]; char *ptr; } pointer;
        struct { uint32_t length; char inlined[12]; } inlined;
    } value;
} duckdb_string_t;

/* The functions, as a table of pointers filled by dlsym (duckdb.c). */
typedef struct {
    const char *(*library_version)(void);
    duckdb_state (*create_config)(duckdb_config *config);
    duckdb_state (*set_config)(duckdb_config config, const char *name, const char *option);
    void (*destroy_config)(duckdb_config *config);
    duckdb_state (*open_ext)(const char *path, duckdb_database *out, duckdb_config config, char **out_error);
    void (*close)(duckdb_database *db);
    duckdb_state (*connect)(duckdb_database db, duckdb_connection *out);
    void (*disconnect)(duckdb_connection *conn);
    void (*interrupt)(duckdb_connection conn);
    void (*free)(void *ptr);
    duckdb_state (*query)(duckdb_connection conn, const char *sql, duckdb_result *out);
    duckdb_state (*prepare)(duckdb_connection conn, const char *sql, duckdb_prepared_statement *out);
    const char *(*prepare_error)(duckdb_prepared_statement st);
    void (*destroy_prepare)(duckdb_prepared_statement *st);
    duckdb_state (*bind_int64)(duckdb_prepared_statement st, duckdb_idx i, int64_t v);
    duckdb_state (*bind_double)(duckdb_prepared_statement st, duckdb_idx i, double v);
    duckdb_state (*bind_boolean)(duckdb_prepared_statement st, duckdb_idx i, bool v);
    duckdb_state (*bind_varchar_length)(duckdb_prepared_statement st, duckdb_idx i, const char *v, duckdb_idx n);
    duckdb_state (*bind_timestamp)(duckdb_prepared_statement st, duckdb_idx i, duckdb_timestamp v);
    duckdb_state (*bind_date)(duckdb_prepared_statement st, duckdb_idx i, duckdb_date v);
    duckdb_state (*bind_time)(duckdb_prepared_statement st, duckdb_idx i, duckdb_time v);
    duckdb_state (*bind_interval)(duckdb_prepared_statement st, duckdb_idx i, duckdb_interval v);
    duckdb_state (*execute_prepared)(duckdb_prepared_statement st, duckdb_result *out);
    const char *(*result_error)(duckdb_result *r);
    void (*destroy_result)(duckdb_result *r);
    duckdb_idx (*column_count)(duckdb_result *r);
    int (*column_type)(duckdb_result *r, duckdb_idx col);
    duckdb_logical_type (*column_logical_type)(duckdb_result *r, duckdb_idx col);
    void (*destroy_logical_type)(duckdb_logical_type *t);
    uint8_t (*decimal_scale)(duckdb_logical_type t);
    int (*decimal_internal_type)(duckdb_logical_type t);
    int (*enum_internal_type)(duckdb_logical_type t);
    char *(*enum_dictionary_value)(duckdb_logical_type t, duckdb_idx i);
    duckdb_data_chunk (*fetch_chunk)(duckdb_result r);
    duckdb_idx (*data_chunk_get_size)(duckdb_data_chunk c);
    duckdb_vector (*data_chunk_get_vector)(duckdb_data_chunk c, duckdb_idx col);
    void (*destroy_data_chunk)(duckdb_data_chunk *c);
    void *(*vector_get_data)(duckdb_vector v);
    uint64_t *(*vector_get_validity)(duckdb_vector v);
} DuckApi;

#endif
