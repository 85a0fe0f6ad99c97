/*
 * session_arrow.h - the Arrow C data interface (relix.h: rx_register_arrow, rx_result_arrow):
 * Arrow arrays in as a table, read in place where their layout is Relix's, and tables out as
 * Arrow arrays that own copies of their buffers.
 */
#ifndef RX_SESSION_ARROW_H
#define RX_SESSION_ARROW_H

#include "relix.h"
#include "types/column.h"

/* The table of record batch (schema, array): a struct array ("+s") whose children are the
 * columns. Numbers, dates, microsecond timestamps and times, and text bytes point into the
 * array's buffers, which the caller keeps alive as long as the table (and what shares its
 * columns). NULL with err (RX_EVALUE naming the column of rel and what is wrong with it,
 * RX_EUNSUPPORTED for a type Relix has not, RX_ELIMIT, RX_ENOMEM). Neither struct is released
 * or changed. */
Table *arrow_import(const struct ArrowSchema *schema, const struct ArrowArray *array, const char *rel,
                    RxError *err);

/* Fills *schema and *array with column col of t (col -1: every column, as a struct array):
 * buffers, schema strings and children malloc'd, freed by the release callbacks, which outlive
 * t. 0, or -1 (out of memory, a DURATION with months, a column out of range) with both left
 * released (release NULL). */
int arrow_export(const Table *t, int col, struct ArrowSchema *schema, struct ArrowArray *array);

#endif
