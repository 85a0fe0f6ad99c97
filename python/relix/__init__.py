"""relix - Relix queries over pandas DataFrames and numpy arrays.

    import relix
    out = relix.query('''
        query { trades ASOF trades.sym = quotes.sym ∧ trades.ts >= quotes.ts quotes };
    ''', trades=df_trades, quotes=df_quotes)

Each keyword names a relation of the script: a pandas DataFrame, or a dict of equal-length
numpy arrays. Columns go to the engine without per-row Python work, read in place where their
layout is Relix's (int64, float64, bool, microsecond timestamps, numpy 'S' text; other text as
codes into its distinct values, encoded once each: a Categorical's own codes), and the last
query's result comes back as a DataFrame (a dict of numpy arrays when pandas is missing or
as_numpy=True; INT and BOOL columns with NULLs are then numpy masked arrays). The engine is librelix.so, loaded with ctypes: $RELIX_LIB, else the library
installed beside this package, else the repository's build/, else the system's.

Types, in and out:
    int64 (other integer widths are widened)  <-> INT; pandas' nullable Int64 keeps NULLs
    float64, float32                          <-> FLOAT; NaN is NULL (pandas' missing value)
    bool, pandas' boolean                     <-> BOOL
    str / object / category                   <-> TEXT; None and NaN are NULL
    datetime64[ns] (naive: UTC) or with a tz   -> TIMESTAMP, an instant; NaT is NULL; results
                                                  are datetime64[ns, UTC]
    TIME, DATE                                 -> timedelta64[ns] since midnight, datetime64[ns]
A timestamp with nanoseconds that are not a whole microsecond is an error (Relix keeps
microseconds): nothing is rounded silently.
"""
import ctypes
import ctypes.util
import datetime as _dt
import os

import numpy as np

try:
    import pandas as pd
except ImportError:  # numpy alone: results are dicts of arrays
    pd = None
try:
    from pandas._libs.hashtable import PyObjectHashTable as _ObjectTable
    from pandas._libs.hashtable import Int64HashTable as _RefTable
except ImportError:   # pandas missing, or laid out otherwise: pd.factorize does the same
    _ObjectTable = None

__all__ = ["query", "prepare", "Prepared", "version", "RelixError"]

INT, FLOAT, BOOL, TEXT, TIMESTAMP, DATE, TIME, DURATION = 1, 2, 3, 4, 5, 6, 7, 8


class RelixError(Exception):
    """A Relix error: the message names the file, line and column, as the command line does."""


class _ColIn(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_int), ("data", ctypes.c_void_p),
                ("valid", ctypes.c_void_p), ("unit", ctypes.c_int64), ("offsets", ctypes.c_void_p),
                ("width", ctypes.c_size_t), ("codes", ctypes.c_void_p), ("n_dict", ctypes.c_size_t)]


class _ColOut(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("n", ctypes.c_size_t), ("data", ctypes.c_void_p),
                ("valid", ctypes.c_void_p), ("unit", ctypes.c_int64), ("offsets", ctypes.c_void_p)]


class _TextDict(ctypes.Structure):
    _fields_ = [("n", ctypes.c_size_t), ("codes", ctypes.c_void_p), ("n_dict", ctypes.c_size_t),
                ("dict_offsets", ctypes.c_void_p), ("dict_data", ctypes.c_void_p)]


_RESULT_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    tries = [os.environ.get("RELIX_LIB"), os.path.join(here, "librelix.so.0"),
             os.path.join(here, "..", "..", "build", "librelix.so.0"), ctypes.util.find_library("relix"),
             "librelix.so.0"]
    errors = []
    for p in tries:
        if not p:
            continue
        try:
            return ctypes.CDLL(p)
        except OSError as e:
            errors.append(str(e))
    raise RelixError("librelix.so not found (set RELIX_LIB): " + "; ".join(errors))


_lib = _load()
_lib.rx_open.restype = ctypes.c_void_p
_lib.rx_close.argtypes = [ctypes.c_void_p]
_lib.rx_exec.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, _RESULT_FN,
                         ctypes.c_void_p]
_lib.rx_errmsg.argtypes = [ctypes.c_void_p]
_lib.rx_errmsg.restype = ctypes.c_char_p
_lib.rx_version.restype = ctypes.c_char_p
_lib.rx_register_columns.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(_ColIn),
                                     ctypes.c_size_t]
_lib.rx_factorize_u64.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p]
_lib.rx_factorize_u64.restype = ctypes.c_int64
_lib.rx_result_cols.argtypes = [ctypes.c_void_p]
_lib.rx_result_rows.argtypes = [ctypes.c_void_p]
_lib.rx_result_rows.restype = ctypes.c_size_t
_lib.rx_result_colname.argtypes = [ctypes.c_void_p, ctypes.c_int]
_lib.rx_result_colname.restype = ctypes.c_char_p
_lib.rx_result_column.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_ColOut)]
_lib.rx_result_coltype.argtypes = [ctypes.c_void_p, ctypes.c_int]
_lib.rx_result_text_dict.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_TextDict)]
_lib.rx_result_text.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_lib.rx_result_text.restype = ctypes.c_char_p
_lib.rx_result_is_null.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_lib.rx_prepare.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                            ctypes.POINTER(ctypes.c_void_p)]
_lib.rx_bind_parameter_index.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_lib.rx_bind_int.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64]
_lib.rx_bind_double.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_double]
_lib.rx_bind_bool.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
_lib.rx_bind_text.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
_lib.rx_bind_timestamp.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64]
_lib.rx_bind_date.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int32]
_lib.rx_bind_null.argtypes = [ctypes.c_void_p, ctypes.c_int]
_lib.rx_execute.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
_lib.rx_reset.argtypes = [ctypes.c_void_p]


def version():
    """The library's version, "0.1.0"."""
    return _lib.rx_version().decode()


def _bitmap(valid):
    """An Arrow validity bitmap of a boolean mask (True = a value), or None when all are set."""
    if valid is None or valid.all():
        return None
    return np.packbits(valid.astype(np.uint8), bitorder="little")


def _factorize(arr):
    """(codes, distinct values) of an array, codes -1 for None and NaN; in C (pandas' hash
    table, or numpy's sort without pandas)."""
    if pd is not None:
        if _ObjectTable is not None and isinstance(arr, np.ndarray) and arr.dtype == object:
            # pandas' object hash table itself: pd.factorize would first infer the values'
            # type and then hash each str's UTF-8 again, where this one uses the hash a str
            # caches (about twice as fast); the same codes and values, NA as -1
            try:
                return _factorize_objects(arr)
            except (TypeError, ValueError):   # another pandas' signature: the public call
                pass
        return pd.factorize(arr, use_na_sentinel=True)
    obj = np.asarray(arr, dtype=object)
    nulls = np.equal(obj, None) | np.not_equal(obj, obj)   # None, and NaN (not equal to itself)
    uniq, inv = np.unique(np.where(nulls, "", obj).astype(str), return_inverse=True)
    return np.where(nulls, -1, inv), uniq


def _factorize_objects(arr):
    """(codes, distinct values) of a 1-D object array, as pandas' object hash table gives them
    (values in order of first appearance, Python equality, NA as -1), hashing each row's object
    reference instead of its value: the rows of a column mostly share their str objects, so the
    table over the values then sees one object per distinct reference, not one per row. Equal
    values behind different references are merged there, so the result is the same."""
    n = len(arr)
    if n == 0 or arr.ndim != 1 or not arr.flags.c_contiguous or arr.itemsize != ctypes.sizeof(ctypes.c_void_p):
        uniq, codes = _ObjectTable(1024).factorize(arr, na_sentinel=-1)
        return codes, uniq
    # the array's references as integers: a view of its buffer, valid while arr lives
    refs = np.ctypeslib.as_array((ctypes.c_int64 * n).from_address(arr.ctypes.data))
    # a small first size: a table sized for every row would miss the cache on each probe
    _, rcodes = _RefTable(min(n, 16384)).factorize(refs, na_sentinel=-1)
    # the first row of each distinct reference (the reversed scatter leaves the smallest row)
    first = np.empty(int(rcodes.max()) + 1, dtype=np.int64)
    first[rcodes[::-1]] = np.arange(n - 1, -1, -1, dtype=np.int64)
    uniq, vcodes = _ObjectTable(len(first)).factorize(arr[first], na_sentinel=-1)
    return vcodes[rcodes], uniq


def _coded_refs(arr):
    """(data, offsets, int32 codes) of a dictionary-coded text column for a 1-D object array whose
    values are all str, or None when some value is not a str (None, NaN, a number, a str
    subclass: the caller then takes pandas' table, whose equality rules those follow). The rows'
    object references are numbered in C without touching the strings, and each distinct
    reference's str is encoded once; equal strings behind different references are separate
    dictionary entries, which rx_register_columns takes as one value."""
    n = len(arr)
    if n == 0 or arr.ndim != 1 or not arr.flags.c_contiguous or arr.itemsize != 8 or n > 2**31 - 1:
        return None
    codes = np.empty(n, dtype=np.int32)
    first = np.empty(n, dtype=np.int64)   # only the first entries are written, the rest never touched
    k = _lib.rx_factorize_u64(arr.ctypes.data, n, codes.ctypes.data, first.ctypes.data)
    if k < 0:
        raise MemoryError("relix: out of memory numbering a text column")
    objs = arr[first[:k]]
    if not all(type(o) is str for o in objs):
        return None
    data, offsets = _dictionary(objs)
    return data, offsets, codes


def _dictionary(values):
    """The UTF-8 bytes of each of values (str, or another object by its str()) as (a uint8
    array of them all, int64 offsets): Python work per distinct value, none per row."""
    enc = [v.encode() if isinstance(v, str) else str(v).encode() for v in values]
    offsets = np.zeros(len(enc) + 1, dtype=np.int64)
    if enc:
        np.cumsum([len(e) for e in enc], out=offsets[1:])
    data = np.frombuffer(b"".join(enc) or b"\0", dtype=np.uint8)
    return data, offsets


def _coded(codes, values):
    """(data, offsets, codes as int32) of a dictionary-coded text column: codes index values,
    negative for NULL."""
    if len(values) >= 2**31 - 1:
        raise RelixError(f"{len(values)} distinct text values; at most {2**31 - 2} in one column")
    data, offsets = _dictionary(values)
    return data, offsets, np.ascontiguousarray(codes, dtype=np.int32)


def _encode(arr):
    """Text values as a numpy 'S' array of their UTF-8 bytes (NUL-padded), and the NULL mask:
    each distinct value is encoded once."""
    codes, uniq = _factorize(arr)
    enc = [v.encode() if isinstance(v, str) else str(v).encode() for v in uniq]
    width = max([len(e) for e in enc] + [1])
    table = np.array(enc + [b""], dtype=f"S{width}")
    codes = np.asarray(codes)
    nulls = codes < 0
    return table[np.where(nulls, len(enc), codes)], nulls


def _column_in(name, values, keep):
    """(_ColIn, arrays kept alive) for one column of a DataFrame or dict."""
    if pd is not None and isinstance(values, pd.Series):
        s = values
    elif pd is not None:
        s = pd.Series(values)
    else:
        s = None
    c = _ColIn(name=name.encode())
    valid = None
    coded = None   # a dictionary-coded text column: (dictionary bytes, offsets, int32 codes)
    if s is not None:
        dt = s.dtype
        if isinstance(dt, pd.CategoricalDtype) and (len(dt.categories) == 0 or dt.categories.dtype == object):
            # the categories encoded once and handed over with the codes: no per-row work
            coded = _coded(s.cat.codes.to_numpy(), np.asarray(dt.categories, dtype=object))
            c.type = TEXT
        elif isinstance(dt, pd.CategoricalDtype):
            s = s.astype(object)
            dt = s.dtype
        if c.type:
            pass
        elif isinstance(dt, pd.DatetimeTZDtype):
            # the values are UTC nanoseconds already, NaT the smallest int64: read as they are
            arr = s.array.asi8
            nat = arr == np.iinfo(np.int64).min
            if nat.any():
                valid = ~nat
            c.type, c.unit = TIMESTAMP, 1000000000
        elif np.issubdtype(dt, np.datetime64) if isinstance(dt, np.dtype) else False:
            valid = ~s.isna().to_numpy()
            arr = s.to_numpy("datetime64[ns]").view(np.int64)
            c.type, c.unit = TIMESTAMP, 1000000000
        elif isinstance(dt, pd.BooleanDtype):
            valid = ~s.isna().to_numpy()
            arr = s.fillna(False).to_numpy(np.uint8)
            c.type = BOOL
        elif isinstance(dt, (pd.Int64Dtype, pd.Int32Dtype, pd.Int16Dtype, pd.Int8Dtype, pd.UInt32Dtype,
                             pd.UInt16Dtype, pd.UInt8Dtype)):
            valid = ~s.isna().to_numpy()
            arr = s.fillna(0).to_numpy(np.int64)
            c.type = INT
        elif dt == object or isinstance(dt, pd.StringDtype):
            # pandas' hash table numbers the distinct values (None, NaN and pd.NA: -1, NULL);
            # the engine gets the codes and each distinct value's UTF-8 once
            obj = s.to_numpy(object)
            coded = _coded_refs(obj) or _coded(*_factorize(obj))
            c.type = TEXT
        else:
            arr = s.to_numpy()
    else:
        arr = np.asarray(values)
    if c.type == 0:
        if arr.dtype == np.bool_:
            arr, c.type = arr.view(np.uint8), BOOL
        elif np.issubdtype(arr.dtype, np.integer):
            if arr.dtype == np.uint64 and arr.size and arr.max() > np.iinfo(np.int64).max:
                raise RelixError(f"column '{name}' has values past int64")
            arr, c.type = arr.astype(np.int64, copy=False), INT
        elif np.issubdtype(arr.dtype, np.floating):
            arr, c.type = arr.astype(np.float64, copy=False), FLOAT
            nan = np.isnan(arr)
            if nan.any():
                valid = ~nan
        elif np.issubdtype(arr.dtype, np.datetime64):
            nat = np.isnat(arr)
            arr = arr.astype("datetime64[ns]").view(np.int64)
            c.type, c.unit = TIMESTAMP, 1000000000
            if nat.any():
                valid = ~nat
        elif arr.dtype == object:
            coded = _coded_refs(arr) or _coded(*_factorize(arr))
            c.type = TEXT
        elif arr.dtype.kind in "US":
            c.type = TEXT
        else:
            raise RelixError(f"column '{name}' has dtype {arr.dtype}, which Relix cannot take")
    if coded is not None:
        data, offsets, codes = coded
        keep.extend(coded)
        c.data, c.offsets, c.codes, c.n_dict = data.ctypes.data, offsets.ctypes.data, codes.ctypes.data, len(offsets) - 1
        return c, len(codes)
    if c.type == TIMESTAMP and valid is not None:
        arr = np.where(valid, arr, 0)
    if c.type == TEXT:
        if arr.dtype.kind != "S":
            arr, nulls = _encode(arr)
            if nulls.any():
                valid = ~nulls if valid is None else valid & ~nulls
        arr = np.ascontiguousarray(arr)
        c.width = max(arr.dtype.itemsize, 1)
    else:
        arr = np.ascontiguousarray(arr)
    keep.append(arr)
    c.data = arr.ctypes.data if arr.size else None
    bm = _bitmap(valid)
    if bm is not None:
        keep.append(bm)
        c.valid = bm.ctypes.data
    return c, len(arr)


def _register(session, name, table, keep):
    if pd is not None and isinstance(table, pd.DataFrame):
        items = [(str(k), table[k]) for k in table.columns]
    elif isinstance(table, dict):
        items = [(str(k), v) for k, v in table.items()]
    else:
        raise RelixError(f"'{name}' must be a pandas DataFrame or a dict of arrays")
    if not items:
        raise RelixError(f"'{name}' has no columns")
    cols, n = [], None
    for k, v in items:
        c, rows = _column_in(k, v, keep)
        if n is not None and rows != n:
            raise RelixError(f"column '{k}' of '{name}' has {rows} rows, the others {n}")
        n = rows
        cols.append(c)
    arr = (_ColIn * len(cols))(*cols)
    keep.append(arr)
    if _lib.rx_register_columns(session, name.encode(), len(cols), arr, n) != 0:
        raise RelixError(_lib.rx_errmsg(session).decode())


def _array(ptr, dtype, n):
    """A copy of n elements of dtype at address ptr."""
    if n == 0 or not ptr:
        return np.zeros(n, dtype)
    return np.frombuffer((ctypes.c_char * (n * np.dtype(dtype).itemsize)).from_address(ptr), dtype).copy()


def _view(ptr, dtype, n):
    """n elements of dtype at address ptr, not copied: valid only while the result lives."""
    if n == 0 or not ptr:
        return np.zeros(n, dtype)
    return np.frombuffer((ctypes.c_char * (n * np.dtype(dtype).itemsize)).from_address(ptr), dtype)


def _check_ns_range(res, j, raw, per, valid):
    """Raises RelixError if a value (not NULL) of raw, in units of per nanoseconds, is outside
    what an int64 of nanoseconds holds (numpy's and pandas' datetime64[ns]: the years 1677 to
    2262)."""
    lim = (2**63 - 1) // per
    if len(raw) == 0 or (raw.min() >= -lim and raw.max() <= lim):
        return
    bad = (raw < -lim) | (raw > lim)
    if valid is not None:
        bad &= valid
    if bad.any():
        i = int(np.argmax(bad))
        name = _lib.rx_result_colname(res, j).decode()
        raise RelixError(f"column '{name}', row {i + 1}: {_lib.rx_result_text(res, i, j).decode()} is outside "
                         "the range of nanosecond timestamps (datetime64[ns]: the years 1677 to 2262)")


def _column_out(res, j, as_numpy, categories=False):
    if _lib.rx_result_coltype(res, j) == TEXT:
        d = _TextDict()
        if _lib.rx_result_text_dict(res, j, ctypes.byref(d)) != 0:
            raise RelixError("out of memory reading a result column")
        n = d.n
        doff = _array(d.dict_offsets, np.int64, d.n_dict + 1)
        draw = _array(d.dict_data, np.uint8, int(doff[-1])).tobytes() if d.n_dict else b""
        dec = np.empty(d.n_dict + 1, dtype=object)   # one str per distinct value, None last
        dec[:-1] = [draw[doff[k]:doff[k + 1]].decode() for k in range(d.n_dict)]
        if categories and not as_numpy:
            # the engine's dictionary as it is: no object per row
            return pd.Categorical.from_codes(_array(d.codes, np.int32, n), categories=pd.Index(dec[:-1], dtype=object))
        # each row a reference to its value's one str (no str made per row); the codes are
        # read in place, and indexing copies the references out before the result goes away.
        # A NULL row's code, -1, indexes dec from its end: the None there.
        return dec[_view(d.codes, np.int32, n)]   # fancy indexing: numpy's take is ten times slower on objects
    c = _ColOut()
    if _lib.rx_result_column(res, j, ctypes.byref(c)) != 0:
        raise RelixError("out of memory reading a result column")
    n = c.n
    valid = None
    if c.valid:
        bits = _array(c.valid, np.uint8, (n + 7) // 8)
        valid = np.unpackbits(bits, bitorder="little")[:n].astype(bool)
    if c.type == INT:
        a = _array(c.data, np.int64, n)
        if valid is not None:
            return np.ma.array(a, mask=~valid) if as_numpy else pd.arrays.IntegerArray(a, ~valid)
        return a
    if c.type == FLOAT:
        a = _array(c.data, np.float64, n)
        if valid is not None:
            a[~valid] = np.nan
        return a
    if c.type == BOOL:
        a = _array(c.data, np.uint8, n).astype(bool)
        if valid is not None:
            return np.ma.array(a, mask=~valid) if as_numpy else pd.arrays.BooleanArray(a, ~valid)
        return a
    if c.type in (TIMESTAMP, DATE, TIME):
        # days or microseconds to nanoseconds in one multiplication, straight from the result's
        # buffer (numpy's unit cast is slower and wraps a value out of range without a word)
        if c.type == DATE:
            raw, per = _view(c.data, np.int32, n).astype(np.int64), 86_400_000_000_000
        else:
            raw, per = _view(c.data, np.int64, n), 1000
        _check_ns_range(res, j, raw, per, valid)
        a = (raw * per).view("timedelta64[ns]" if c.type == TIME else "datetime64[ns]")
        if valid is not None:
            a[~valid] = np.datetime64("NaT") if c.type != TIME else np.timedelta64("NaT")
        if c.type == TIMESTAMP and not as_numpy:
            return pd.arrays.DatetimeArray(a, dtype=pd.DatetimeTZDtype(tz="UTC"))   # wraps, no copy
        return a
    # DURATION and anything else: the engine's text form
    out = np.empty(n, dtype=object)
    for i in range(n):
        out[i] = None if _lib.rx_result_is_null(res, i, j) else _lib.rx_result_text(res, i, j).decode()
    return out


def _frame(res, as_numpy, categories=False):
    """A result as a DataFrame, or a dict of numpy arrays with as_numpy; TEXT columns as pandas
    Categoricals with categories."""
    names = [_lib.rx_result_colname(res, j).decode() for j in range(_lib.rx_result_cols(res))]
    cols = {nm: _column_out(res, j, as_numpy, categories) for j, nm in enumerate(names)}
    # a dict of Series, not of arrays with columns=: pandas would iterate the timestamps one by one
    # copy=False: pandas then keeps each column as its own block instead of copying same-typed
    # columns into one 2-D block
    return cols if as_numpy else pd.DataFrame({k: pd.Series(v, copy=False) for k, v in cols.items()}, copy=False)


def _bind(session, stmt, key, value):
    """Binds value to the statement's parameter key: a number from 1, or a name ("lo", ":lo",
    "$1"). Raises RelixError for an unknown parameter, a value of no Relix type, or the engine's
    refusal (a type the parameter's place does not take)."""
    if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        idx = int(key)
    else:
        idx = _lib.rx_bind_parameter_index(stmt, str(key).encode())
        if idx == 0:
            raise RelixError(f"the script has no parameter {key}")
    if value is None or (pd is not None and value is pd.NaT) or (isinstance(value, float) and value != value):
        rc = _lib.rx_bind_null(stmt, idx)
    elif isinstance(value, (bool, np.bool_)):
        rc = _lib.rx_bind_bool(stmt, idx, int(bool(value)))
    elif isinstance(value, (int, np.integer)):
        rc = _lib.rx_bind_int(stmt, idx, int(value))
    elif isinstance(value, (float, np.floating)):
        rc = _lib.rx_bind_double(stmt, idx, float(value))
    elif isinstance(value, str):
        b = value.encode()
        rc = _lib.rx_bind_text(stmt, idx, b, len(b))
    elif isinstance(value, (np.datetime64, _dt.datetime)) or (pd is not None and isinstance(value, pd.Timestamp)):
        if pd is not None:
            t = pd.Timestamp(value)
            t = t.tz_localize("UTC") if t.tzinfo is None else t.tz_convert("UTC")
            ns = t.value
        else:
            ns = int(np.datetime64(value, "ns").astype(np.int64))
        if ns % 1000:
            raise RelixError(f"parameter {key}: {value} is not a whole microsecond (Relix keeps microseconds)")
        rc = _lib.rx_bind_timestamp(stmt, idx, ns // 1000)
    elif isinstance(value, _dt.date):
        rc = _lib.rx_bind_date(stmt, idx, (value - _dt.date(1970, 1, 1)).days)
    else:
        raise RelixError(f"parameter {key}: a {type(value).__name__} has no Relix type")
    if rc != 0:
        raise RelixError(_lib.rx_errmsg(session).decode())


class Prepared:
    """A script parsed once over the relations given, run many times with different parameter
    values ($1, :name): relix.prepare(script, trades=df).run(lo=5). Owns a session; close() (or
    a with block) frees it."""

    def __init__(self, script, as_numpy=False, categories=False, **tables):
        self._as_numpy = as_numpy or pd is None
        self._categories = categories
        self._session = _lib.rx_open()
        if not self._session:
            raise MemoryError("relix: out of memory")
        self._keep, self._stmt = [], None
        try:
            for name, t in tables.items():
                _register(self._session, name, t, self._keep)
            text = script.encode()
            stmt = ctypes.c_void_p()
            if _lib.rx_prepare(self._session, text, len(text), b"<python>", ctypes.byref(stmt)) != 0:
                raise RelixError(_lib.rx_errmsg(self._session).decode())
            self._stmt = stmt.value
        except BaseException:
            self.close()
            raise

    def run(self, params=None, **named):
        """The last query's result with the values of params (a dict by name or number, or a
        sequence for $1, $2, ...) and the keywords bound; None when the script has no query.
        Every parameter is bound afresh: one left out is an error naming it."""
        if self._stmt is None:
            raise RelixError("the prepared script is closed")
        _lib.rx_reset(self._stmt)
        if params is not None:
            items = params.items() if isinstance(params, dict) else enumerate(params, 1)
            for k, v in items:
                _bind(self._session, self._stmt, k, v)
        for k, v in named.items():
            _bind(self._session, self._stmt, k, v)
        res = ctypes.c_void_p()
        if _lib.rx_execute(self._stmt, ctypes.byref(res)) != 0:
            raise RelixError(_lib.rx_errmsg(self._session).decode())
        return _frame(res.value, self._as_numpy, self._categories) if res.value else None

    def close(self):
        if self._session:
            _lib.rx_close(self._session)   # finalizes the statement too
        self._session, self._stmt = None, None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def prepare(script, as_numpy=False, categories=False, **tables):
    """A Prepared script over the relations given (as query's keywords)."""
    return Prepared(script, as_numpy=as_numpy, categories=categories, **tables)


def query(script, as_numpy=False, params=None, categories=False, **tables):
    """Runs a Relix script with each keyword bound as a relation of that name; returns the last
    query's result (a DataFrame, or a dict of numpy arrays with as_numpy=True or without pandas),
    None when the script has no query. params (a dict by name or number, or a sequence for $1,
    $2, ...) gives the values of the script's parameters: it is then prepared and run once.
    categories=True gives TEXT columns as pandas Categoricals of their distinct values (no
    Python string object per row; NULL is a missing category code). Raises RelixError with the engine's message."""
    as_numpy = as_numpy or pd is None
    if params is not None:
        with Prepared(script, as_numpy=as_numpy, categories=categories, **tables) as p:
            return p.run(params)
    session = _lib.rx_open()
    if not session:
        raise MemoryError("relix: out of memory")
    keep, results, failure = [], [], []

    def on_result(_ud, res):
        try:
            results.append(_frame(res, as_numpy, categories))
            return 0
        except Exception as e:  # reported after the engine returns
            failure.append(e)
            return 1

    cb = _RESULT_FN(on_result)
    try:
        for name, t in tables.items():
            _register(session, name, t, keep)
        text = script.encode()
        if _lib.rx_exec(session, text, len(text), b"<python>", cb, None) != 0:
            if failure:
                raise failure[0]
            raise RelixError(_lib.rx_errmsg(session).decode())
    finally:
        _lib.rx_close(session)
    return results[-1] if results else None
