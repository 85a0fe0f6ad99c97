"""relix.dask - Relix's AS-OF and interval joins, and whole Relix scripts, over Dask DataFrames.

    import relix.dask as rxd
    out = rxd.asof(trades, quotes, on="ts", by="sym")                  # a dask DataFrame
    out = rxd.ijoin(stays, bookings, "INTERSECTS", ("s", "e"), by="room")
    out = rxd.query(script, by="sym", trades=trades, quotes=quotes)

Dask moves the rows; Relix joins them. Every join runs Relix's own kernel (relix.query) once
per partition, so its semantics (directions, strictness, WITHIN, INNER, TIES, NULLs, the
interval relations) are Relix's, and the rows of the result are those of relix.query on the
whole inputs (as a set: the order of rows across partitions is not Relix's left order).

How rows are placed (docs/dask.md says why each is exact):

- by key (strategy "hash"): both sides are hash-partitioned on the join key with one function
  and one partition count, in one exchange without a time sort; each partition holds every row
  of its keys, so the per-partition join is the whole join of those keys.
- by time (strategy "time", the default for a keyless or hot-key ASOF): both sides are
  range-partitioned on the match column with the same boundaries, and each partition also gets,
  per key, the right rows of the nearest k distinct times before it (backward, NEAREST) and
  after it (forward, NEAREST): the only rows outside its time range that can be a match.
- IJOIN by (key, time bin): an interval is copied into every bin from its start's to its end's,
  and a pair is kept only in the bin of max(l.start, r.start), so each pair comes once. Rows
  with start > end (which some relations still match) are joined against the other whole side
  instead; PRECEDES and PRECEDED_BY are not local in time and partition on the key alone (or
  broadcast the right side when there is none). IJOIN LEFT, SEMI and ANTI (kind=) list the
  inner pairs with a left row id and decide each left row once: in its key's partition, or,
  by bins, in its own input partition from the ids that found a partner in any bin.
- inputs already partitioned alike (by relix.dask.partition with the same keys and count, or
  with the key as an index with known divisions) are used as they are.

report=dict() runs the join at once (persisted on the cluster) and fills the dict with how the
time and the rows split between the exchange and the kernels.
"""
import os
import re
import time as _time

import numpy as np
import pandas as pd
import dask
import dask.dataframe as dd
from dask import delayed

from . import query as _rx_query, RelixError

__all__ = ["asof", "ijoin", "query", "partition", "read_csv", "RelixError"]

_REGISTRY = {}           # dask collection name -> (key columns, partition count): relix.dask.partition's output
_PIECES = {}             # dask collection name -> its split tasks (n pieces and stats each), likewise
_LOCAL = {"INTERSECTS", "MEETS", "MET_BY", "OVERLAPS", "OVERLAPPED_BY", "STARTS", "STARTED_BY", "DURING",
          "CONTAINS", "FINISHES", "FINISHED_BY", "EQUALS", "COVERS", "COVERED_BY", "AT"}
_BAND = {"PRECEDES", "PRECEDED_BY"}


# ---------------------------------------------------------------------------------------------
# names and keys

def _q(name):
    """A column or relation name quoted for a Relix script."""
    return '"' + str(name).replace('"', '""') + '"'


def _pairs(by, what="by"):
    """by as a list of (left column, right column): a name, a list of names, or of pairs."""
    if by is None:
        return []
    if isinstance(by, str):
        return [(by, by)]
    out = []
    for b in by:
        if isinstance(b, str):
            out.append((b, b))
        elif isinstance(b, (tuple, list)) and len(b) == 2:
            out.append((str(b[0]), str(b[1])))
        else:
            raise RelixError(f"{what}: {b!r} is neither a column name nor a (left, right) pair")
    return out


def _hash_column(s):
    """(uint64 hash per row, NULL mask) of a key column, equal for values Relix finds equal:
    numbers (INT and FLOAT alike) by their float64 value, timestamps by their UTC instant, text
    by its characters (a Categorical by its categories' text)."""
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype):
        codes = s.cat.codes.to_numpy()
        cats = pd.util.hash_array(np.asarray(dt.categories.astype(str), dtype=object), categorize=False)
        cats = np.append(cats, np.uint64(0))
        return cats[np.where(codes < 0, len(cats) - 1, codes)], codes < 0
    if isinstance(dt, pd.DatetimeTZDtype) or (isinstance(dt, np.dtype) and dt.kind == "M"):
        null = s.isna().to_numpy()
        v = (s.dt.tz_convert("UTC") if isinstance(dt, pd.DatetimeTZDtype) else s).to_numpy("datetime64[ns]")
        return pd.util.hash_array(v.view(np.int64), categorize=False), null
    if dt == object or isinstance(dt, pd.StringDtype):
        null = s.isna().to_numpy()
        v = s.to_numpy(object)
        if null.any():
            v = np.where(null, "", v)
        return pd.util.hash_array(v.astype(str).astype(object) if v.size and not isinstance(v[0], str) else v,
                                  categorize=True), null
    null = s.isna().to_numpy()
    v = s.to_numpy(np.float64, na_value=0.0) + 0.0       # -0.0 and 0.0 alike; 1 and 1.0 alike
    return pd.util.hash_array(v.view(np.uint64), categorize=False), null


def _key_hash(frame, cols):
    """(uint64 hash of the key columns per row, mask of rows with a NULL key); (zeros, none) for
    no key."""
    n = len(frame)
    h = np.zeros(n, np.uint64)
    null = np.zeros(n, bool)
    for c in cols:
        hc, nc = _hash_column(frame[c])
        h = (h * np.uint64(0x9E3779B97F4A7C15)) ^ hc
        null |= nc
    return h, null


def _order_values(s, what):
    """(values that order as Relix orders the column, validity) for a match or endpoint
    column: int64 UTC nanoseconds for timestamps (exact), float64 for numbers (INT and FLOAT
    alike; monotone, so equal values stay together). Raises RelixError for text (which has no
    bins)."""
    dt = s.dtype
    valid = ~s.isna().to_numpy()
    if isinstance(dt, pd.DatetimeTZDtype):
        return s.dt.tz_convert("UTC").to_numpy("datetime64[ns]").view(np.int64), valid
    if isinstance(dt, np.dtype) and dt.kind == "M":
        return s.to_numpy("datetime64[ns]").view(np.int64), valid
    if isinstance(dt, np.dtype) and dt.kind in "iufb" or isinstance(dt, (pd.Int64Dtype, pd.Float64Dtype,
                                                                       pd.BooleanDtype)):
        return s.to_numpy(np.float64, na_value=np.nan), valid
    raise RelixError(f"{what}: column '{s.name}' of type {dt} cannot be range-partitioned "
                     "(timestamps and numbers can); partition on a key instead")


# ---------------------------------------------------------------------------------------------
# the exchange: split each input partition into pieces, one per output partition; concatenate

def _compact(frame, keep):
    """The columns keep of frame, each text column of few distinct values as a Categorical:
    cheaper to split, ship and join (Relix reads a Categorical by its codes)."""
    out = {}
    for c in keep:
        s = frame[c]
        if s.dtype == object and len(s) > 64:
            codes, uniq = pd.factorize(s.to_numpy(object))
            if len(uniq) * 2 <= len(s) and all(isinstance(u, str) for u in uniq[:16]):
                s = pd.Series(pd.Categorical.from_codes(codes, pd.Index(uniq, dtype=object)), name=c,
                              index=s.index)
        out[c] = s
    return pd.DataFrame(out, index=frame.index, copy=False)


def _pieces(frame, part, n, rows=None):
    """Splits frame into n frames by the output partition of each row (rows: the row of each
    copy when rows are replicated), keeping the rows' order within each piece."""
    # stable; on 16-bit ids numpy's stable sort is a radix sort
    order = np.argsort(part.astype(np.int16) if n < 32768 else part, kind="stable")
    counts = np.bincount(part, minlength=n)
    take = order if rows is None else rows[order]
    whole = frame.take(take) if len(take) != len(frame) or np.any(take[1:] < take[:-1]) else frame
    ends = np.cumsum(counts)
    return [whole.iloc[e - c:e] for c, e in zip(counts, ends)]


def _concat(pieces):
    """The pieces as one frame, in order; Categoricals with differing categories are united
    (their codes remapped), not turned into strings."""
    pieces = [p for p in pieces if p is not None]
    if not pieces:
        raise RelixError("nothing to concatenate")
    pieces = [p for p in pieces if len(p)] or pieces[:1]
    if len(pieces) == 1:
        return pieces[0]
    cols = {}
    for c in pieces[0].columns:
        parts = [p[c] for p in pieces]
        cats = [isinstance(s.dtype, pd.CategoricalDtype) for s in parts]
        if all(cats):
            cols[c] = pd.Series(pd.api.types.union_categoricals([s.array for s in parts], ignore_order=True), name=c)
        else:
            if any(cats):
                parts = [s.astype(object) if k else s for s, k in zip(parts, cats)]
            cols[c] = pd.concat(parts, ignore_index=True)
    return pd.DataFrame(cols, copy=False)


def _hash_split(frame, n, cols, drop_null, keep):
    """Pieces of frame by hash of its key columns: (n pieces, stats). Rows with a NULL key are
    dropped when drop_null (they match nothing), else placed by the hash of the rest."""
    t0 = _time.perf_counter()
    frame = _compact(frame, keep)
    h, null = _key_hash(frame, cols)
    if drop_null and null.any():
        frame = frame[~null]
        h = h[~null]
    part = (h % np.uint64(n)).astype(np.int64)
    pieces = _pieces(frame, part, n)
    return pieces, {"split_s": _time.perf_counter() - t0, "rows": len(frame),
                    "bytes": int(frame.memory_usage(index=False, deep=False).sum())}


def _split(frame, how, n, args):
    """One input partition's split task: (piece 0, ..., piece n-1, stats)."""
    if isinstance(frame.index, pd.Index) and frame.index.name is not None and frame.index.name not in frame.columns:
        frame = frame.reset_index()
    pieces, stats = how(frame, n, *args)
    return tuple(pieces) + (stats,)


def _delayed_split(ddf, how, n, args, nout=None):
    """Per input partition, a delayed tuple (pieces..., stats): n pieces, or nout when the
    split gives more than one per output partition."""
    return [delayed(_split, nout=(nout or n) + 1, pure=True)(p, how, n, args) for p in ddf.to_delayed()]


# ---------------------------------------------------------------------------------------------
# the kernel task and the result

def _as_dtype(s, dt):
    """The Series s as dtype dt; int64 to Int64 and bool to boolean wrap the values with an
    all-valid mask (pandas' astype checks every value for a missing one first)."""
    if s.dtype == np.int64 and dt == "Int64":
        return pd.Series(pd.arrays.IntegerArray(s.to_numpy(), np.zeros(len(s), bool)), name=s.name,
                         index=s.index, copy=False)
    if s.dtype == bool and dt == "boolean":
        return pd.Series(pd.arrays.BooleanArray(s.to_numpy(), np.zeros(len(s), bool)), name=s.name,
                         index=s.index, copy=False)
    return s.astype(dt)


def _normalize(out, meta):
    """out with meta's columns and dtypes (a partition's INT column without NULLs comes back as
    int64; the result's is Int64 throughout)."""
    cols = {}
    for c, dt in meta.dtypes.items():
        s = out[c]
        if s.dtype != dt:
            s = _as_dtype(s, dt)
        cols[c] = s
    return pd.DataFrame(cols, copy=False)


def _run(script, frames, meta, post=None):
    """relix.query(script) over frames (name -> DataFrame) with post applied to its result and
    meta's columns and dtypes (as it comes, for meta None); (result, seconds in relix.query)."""
    t0 = _time.perf_counter()
    out = _rx_query(script, **{k: {c: f[c] for c in f.columns} for k, f in frames.items()})
    t1 = _time.perf_counter()
    if post is not None:
        out = post(out)
    return (out if meta is None else _normalize(out, meta)), t1 - t0


def _where():
    """The name of the Dask worker running the calling task, or "local"."""
    try:
        from distributed import get_worker
        return str(get_worker().address)
    except (ImportError, ValueError):
        return "local"


def _kernel(script, meta, post, left_pieces, right_pieces, extra_right=None):
    """One output partition: concatenates its pieces of each side (and the rows carried in from
    other partitions), runs the script over them as L and R; (result, stats)."""
    t0 = _time.perf_counter()
    L = _concat(left_pieces)
    R = _concat((extra_right[0] if extra_right else []) + list(right_pieces) +
                (extra_right[1] if extra_right else []))
    t1 = _time.perf_counter()
    out, k = _run(script, {"L": L, "R": R}, meta, post)
    t2 = _time.perf_counter()
    return out, {"concat_s": t1 - t0, "kernel_s": k, "post_s": t2 - t1 - k, "left_rows": len(L),
                 "right_rows": len(R), "rows_out": len(out), "worker": _where()}


def _result_meta(script, frames):
    """The result's empty frame, from running the script on the inputs' empty frames (which
    also reports a wrong script or column at once, with Relix's message); INT and BOOL
    columns nullable."""
    out = _rx_query(script, **{k: {c: f[c] for c in f.columns} for k, f in frames.items()})
    cols = {}
    for c in out.columns:
        s = out[c]
        if s.dtype == np.int64:
            s = s.astype("Int64")
        elif s.dtype == bool:
            s = s.astype("boolean")
        cols[c] = s
    return pd.DataFrame(cols)


def _finish(results, stats, meta, report, info, t_start):
    """The dask DataFrame of the result parts; with report a dict, runs it at once (persisted on
    the cluster) in two phases, the splits (reading the inputs) then the exchange and the
    kernels, and fills the report."""
    split_tasks = info.pop("_split_stats")
    out = dd.from_delayed(results, meta=meta, verify_meta=False)
    if report is None:
        return out
    splits = [s for s, _ in split_tasks]
    split_stats = [s[i] for s, i in split_tasks]
    try:
        from distributed import wait, default_client
        client = default_client()
    except (ImportError, ValueError):
        client = None
    t0 = _time.perf_counter()
    if client is not None:
        held = client.persist(splits)             # the pieces stay on the workers for phase 2
        wait(held)
        s_stats = client.gather(client.compute(split_stats))
        t1 = _time.perf_counter()
        (out,) = client.persist([out])
        wait(out)
        k_stats = client.gather(client.compute(stats))
        del held
    else:
        parts, k_stats, s_stats = dask.compute(results, stats, split_stats)
        t1 = t0
        out = dd.from_delayed([delayed(p) for p in parts], meta=meta, verify_meta=False)
    t2 = _time.perf_counter()
    report.clear()
    report.update(info)
    report.update({
        "read_split_s": t1 - t0,
        "exchange_kernel_s": t2 - t1,
        "read_s": sum(s.get("read_s", 0.0) for s in s_stats),
        "split_s": sum(s.get("split_s", 0.0) for s in s_stats),
        "concat_s": sum(s["concat_s"] for s in k_stats),
        "kernel_s": sum(s["kernel_s"] for s in k_stats),
        "kernel_max_s": max([s["kernel_s"] for s in k_stats] + [0.0]),
        "post_s": sum(s["post_s"] for s in k_stats),
        "rows_exchanged": sum(s.get("rows", 0) for s in s_stats),
        "bytes_exchanged": sum(s.get("bytes", 0) for s in s_stats),
        "carried_rows": sum(s.get("carried", 0) for s in k_stats),
        "replicated_rows": sum(s.get("replicated", 0) for s in s_stats),
        "partition_rows": [s["left_rows"] + s["right_rows"] for s in k_stats],
        "rows_out": sum(s["rows_out"] for s in k_stats),
        "total_s": t2 - t_start,
    })
    # the kernels' wall time: the busiest worker's sum (workers run side by side); the shuffle:
    # the rest of the run (reading and splitting, shipping and concatenating)
    per_worker = {}
    for st in k_stats:
        per_worker[st.get("worker", "local")] = per_worker.get(st.get("worker", "local"), 0.0) + st["kernel_s"]
    report["kernel_wall_s"] = max(per_worker.values(), default=0.0)
    report["shuffle_s"] = max(report["total_s"] - report["kernel_wall_s"], 0.0)
    return out


def _registered(ddf):
    return _REGISTRY.get(getattr(ddf, "_name", None))


def _aligned(left, right, lkeys, rkeys, n):
    """True when both inputs are partitioned alike on these keys already: both by
    relix.dask.partition on them with one count (n, when given), or both indexed by a single
    key with equal known divisions."""
    a, b = _registered(left), _registered(right)
    if a and b and a[0] == tuple(lkeys) and b[0] == tuple(rkeys) and a[1] == b[1] and (n is None or n == a[1]):
        return True
    if len(lkeys) == 1 and left.index.name == lkeys[0] and right.index.name == rkeys[0] and \
            left.known_divisions and right.known_divisions and left.divisions == right.divisions and \
            (n is None or n == left.npartitions):
        return True
    return False


def _hot(ddf, cols, n, share):
    """True when one key holds more than share/n of the rows of the first partition (a sample:
    hash partitioning would make its partition the slowest)."""
    if not cols or n <= 1:
        return False
    head = ddf.get_partition(0)[list(cols)].compute()
    if len(head) == 0:
        return False
    top = head.value_counts(dropna=True)
    return len(top) > 0 and top.iloc[0] > share * len(head) / n


# ---------------------------------------------------------------------------------------------
# ASOF

_OPS = {("backward", False): ">=", ("backward", True): ">", ("forward", False): "<=", ("forward", True): "<"}


def _duration(within):
    """A WITHIN bound as Relix text: a number as it is, a timedelta as a DURATION in seconds, a
    string as a DURATION literal ('PT5M')."""
    if within is None:
        return None
    if isinstance(within, str):
        return "DURATION '" + within.replace("'", "''") + "'"
    if isinstance(within, (pd.Timedelta, np.timedelta64)) or hasattr(within, "total_seconds"):
        us = int(pd.Timedelta(within).value // 1000)
        if pd.Timedelta(within).value % 1000:
            raise RelixError(f"within: {within} is not a whole microsecond (Relix keeps microseconds)")
        sign = "-" if us < 0 else ""
        us = abs(us)
        return f"DURATION '{sign}PT{us // 1000000}.{us % 1000000:06d}S'"
    if isinstance(within, (int, float, np.integer, np.floating)) and not isinstance(within, bool):
        return repr(within.item() if hasattr(within, "item") else within)
    raise RelixError(f"within: a {type(within).__name__} is not a distance")


def _asof_script(lt, rt, keys, direction, strict, within, inner, ties, k):
    if direction not in ("backward", "forward", "nearest"):
        raise RelixError(f"direction: '{direction}' is not backward, forward or nearest")
    if ties not in ("last", "first", "all"):
        raise RelixError(f"ties: '{ties}' is not last, first or all")
    op = _OPS[("forward" if direction == "forward" else "backward", bool(strict))]
    words = ["ASOF"]
    if inner:
        words.append("INNER")
    if direction == "nearest":
        words.append("NEAREST")
    if k is not None:
        words.append(str(int(k)))
    cond = [f"L.{_q(a)} = R.{_q(b)}" for a, b in keys] + [f"L.{_q(lt)} {op} R.{_q(rt)}"]
    text = " ".join(words) + " " + " ∧ ".join(cond)
    w = _duration(within)
    if w is not None:
        text += " WITHIN " + w
    text += f" TIES({ties.upper()})"
    return f"query {{ L {text} R }};"


def _top_groups(frame, tcol, kcols, k, latest):
    """The rows of frame at the k latest (or earliest) distinct values of tcol per key, in
    frame's order: the only rows of frame an ASOF from beyond it can match."""
    if len(frame) == 0:
        return frame
    t = frame[tcol]
    if not kcols:
        u = np.unique(t.dropna().to_numpy())
        if len(u) == 0:
            return frame.iloc[:0]
        edge = u[-k] if latest and len(u) >= k else (u[0] if latest else (u[k - 1] if len(u) >= k else u[-1]))
        return frame[(t >= edge) if latest else (t <= edge)]
    g = frame.groupby(list(kcols), sort=False, dropna=True, observed=True)[tcol]
    if k == 1:
        edge = g.transform("max" if latest else "min")
        return frame[(t == edge).to_numpy()]
    r = g.rank(method="dense", ascending=not latest)
    return frame[(r <= k).to_numpy()]


def _time_split(frame, n, tcol, kcols, bounds, is_right, k, keep):
    """Pieces of frame by time range (bounds: the n-1 inner boundaries): a value goes to the
    first range whose end is above it, so equal times share a piece. Right rows with a NULL
    key or time are dropped (they match nothing); a left row with a NULL time goes to piece 0.
    For the right side, per piece also its earliest and latest k time groups per key."""
    t0 = _time.perf_counter()
    frame = _compact(frame, keep)
    v, valid = _order_values(frame[tcol], "on")
    if is_right:
        _, null = _key_hash(frame, kcols) if kcols else (None, np.zeros(len(frame), bool))
        ok = valid & ~null
        if not ok.all():
            frame, v, valid = frame[ok], v[ok], valid[ok]
    part = np.where(valid, np.searchsorted(bounds, np.where(valid, v, v.dtype.type(0)), side="right"),
                    0).astype(np.int64)
    pieces = _pieces(frame, part, n)
    stats = {"split_s": 0.0, "rows": len(frame), "bytes": int(frame.memory_usage(index=False).sum())}
    if is_right:
        heads = [_top_groups(p, tcol, kcols, k, False) for p in pieces]
        tails = [_top_groups(p, tcol, kcols, k, True) for p in pieces]
        pieces = pieces + heads + tails
    stats["split_s"] = _time.perf_counter() - t0
    return pieces, stats


def _merge_groups(frames, tcol, kcols, k, latest):
    """The k latest (earliest) time groups per key of the frames' rows, the frames taken in
    order (equal times never come from two of them: they hold disjoint time ranges)."""
    return _top_groups(_concat(frames), tcol, kcols, k, latest)


def _quantile_bounds(samples, n):
    """n-1 increasing inner boundaries from per-partition (sorted sample, row count) pairs."""
    vals, wts = [], []
    for s, c in samples:
        if len(s):
            vals.append(s)
            wts.append(np.full(len(s), c / len(s)))
    if not vals or n <= 1:
        return np.array([], np.float64)
    v = np.concatenate(vals)
    w = np.concatenate(wts)
    o = np.argsort(v, kind="stable")
    v, w = v[o], np.cumsum(w[o])
    at = np.searchsorted(w, w[-1] * np.arange(1, n) / n)
    return np.unique(v[np.minimum(at, len(v) - 1)])


def _sample(frame, col):
    """(a sorted sample of 256 values of the column, valid row count) of one partition."""
    if frame.index.name is not None and frame.index.name not in frame.columns:
        frame = frame.reset_index()
    v, valid = _order_values(frame[col], "on")
    v = np.sort(v[valid])
    if len(v) > 256:
        v = v[np.linspace(0, len(v) - 1, 256).astype(np.int64)]
    return v, int(valid.sum())


_BOUNDS = {}      # (left name, column, right name, column, count) -> boundaries: collections are immutable


def _time_bounds(left, lcol, right, rcol, n):
    """(left, right, n - 1 boundaries at quantiles of both sides' values of the columns): the
    inputs persisted first (so the sampling pass does not read them twice) unless the same
    collections were sampled before."""
    key = (left._name, lcol, right._name, rcol, n)
    if key not in _BOUNDS:
        left, right = left.persist(), right.persist()
        samples = dask.compute(*[delayed(_sample)(p, lcol) for p in left.to_delayed()] +
                               [delayed(_sample)(p, rcol) for p in right.to_delayed()])
        if len(_BOUNDS) > 64:
            _BOUNDS.clear()
        _BOUNDS[key] = _quantile_bounds(samples, n)
    return left, right, _BOUNDS[key]


def asof(left, right, on, by=None, *, direction="backward", strict=False, within=None, inner=False,
         ties="last", k=None, npartitions=None, strategy="auto", hot_share=1.0, report=None):
    """Relix's AS-OF join of two Dask DataFrames: for each left row the nearest right row with
    equal keys (by), by the match column (on), as `L ASOF ... R` in Relix.

    on         the match column, or (left column, right column); timestamps or numbers
    by         key columns: a name, a list, or (left, right) pairs; None for no key
    direction  "backward" (L.t >= R.t), "forward" (L.t <= R.t) or "nearest" (the nearer of the
               two; strict and equal distances follow Relix: backward's rule, the earlier row)
    strict     > or < instead of >= or <=
    within     a bound on the distance: a timedelta, a string ('PT5M'), or a number
    inner      drop left rows without a match
    ties       "last" (the default), "first" or "all", among right rows of the nearest time,
               in the right input's order
    k          the k nearest rows per left row, ranked (a column rank)
    strategy   "hash" (by key), "time" (by time ranges, rows carried in), or "auto": "hash"
               for inputs partitioned alike on the key already; "time" for a left indexed by
               the match column with known divisions (its ranges are used as they are),
               without a key, or when a key holds over hot_share/npartitions of a sample of
               the left's first partition; else "hash"
    report     a dict: run at once and fill it (see the module's text)

    The result's columns are Relix's (left's, then right's, a clashing name with _r); INT and
    BOOL columns are nullable. Raises RelixError at once for a script Relix rejects."""
    t_start = _time.perf_counter()
    lt, rt = (on, on) if isinstance(on, str) else (str(on[0]), str(on[1]))
    keys = _pairs(by)
    lk, rk = [a for a, _ in keys], [b for _, b in keys]
    lmeta = left._meta.reset_index() if left._meta.index.name not in (None,) and \
        left._meta.index.name not in left._meta.columns else left._meta
    rmeta = right._meta.reset_index() if right._meta.index.name not in (None,) and \
        right._meta.index.name not in right._meta.columns else right._meta
    lcols, rcols = list(lmeta.columns), list(rmeta.columns)
    for c in lk + [lt]:
        if c not in lcols:
            raise RelixError(f"the left input has no column '{c}'")
    for c in rk + [rt]:
        if c not in rcols:
            raise RelixError(f"the right input has no column '{c}'")
    script = _asof_script(lt, rt, keys, direction, strict, within, inner, ties, k)
    meta = _result_meta(script, {"L": lmeta[lcols], "R": rmeta[rcols]})
    n = npartitions or max(left.npartitions, right.npartitions)
    kk = 1 if k is None else int(k)
    if strategy == "auto":
        if keys and _aligned(left, right, lk, rk, npartitions):
            strategy = "hash"
        elif left.index.name == lt and left.known_divisions and left.npartitions > 1:
            strategy = "time"
        else:
            strategy = "hash" if keys and not _hot(left, lk, n, hot_share) else "time"
    if strategy not in ("hash", "time"):
        raise RelixError(f"strategy: '{strategy}' is not auto, hash or time")
    if strategy == "hash" and not keys:
        raise RelixError("strategy 'hash' needs a key (by)")
    info = {"join": "asof", "strategy": strategy, "npartitions": n, "script": script,
            "input_partitions": [left.npartitions, right.npartitions]}
    results, stats = [], []
    if strategy == "hash" and _aligned(left, right, lk, rk, npartitions):
        info["strategy"] = "aligned"
        (lp, ls), (rp, rs) = _parts_of(left), _parts_of(right)
        split_stats = ls + rs
        for a, b in zip(lp, rp):
            t = delayed(_kernel, nout=2, pure=True)(script, meta, None, a, b)
            results.append(t[0])
            stats.append(t[1])
    elif strategy == "hash":
        ls = _delayed_split(left, _hash_split, n, (lk, False, lcols))
        rs = _delayed_split(right, _hash_split, n, (rk, True, rcols))
        split_stats = [(s, n) for s in ls + rs]
        for p in range(n):
            t = delayed(_kernel, nout=2, pure=True)(script, meta, None, [s[p] for s in ls], [s[p] for s in rs])
            results.append(t[0])
            stats.append(t[1])
    else:
        if left.index.name == lt and left.known_divisions and left.npartitions > 1:
            # the left is in time ranges already (its index, known divisions): used as it is,
            # the right placed by the same ranges; a division value starts its range, as
            # _time_split places values
            bounds, _ = _order_values(pd.Series(list(left.divisions[1:-1])), "on")
            n = left.npartitions
            ls = [[delayed(_reset)(p)] for p in left.to_delayed()]
            info["strategy"] = "time (left by its divisions)"
            split_stats = []
        else:
            left, right, bounds = _time_bounds(left, lt, right, rt, n)
            n = len(bounds) + 1
            ls = _delayed_split(left, _time_split, n, (lt, lk, bounds, False, kk, lcols))
            split_stats = [(s, n) for s in ls]
            ls = [[s[p] for s in ls] for p in range(n)]
        info["npartitions"] = n
        rs = _delayed_split(right, _time_split, n, (rt, rk, bounds, True, kk, rcols), 3 * n)
        split_stats += [(s, 3 * n) for s in rs]
        # T_p: each output partition's earliest and latest groups, over all input partitions
        heads = [delayed(_merge_groups, pure=True)([s[n + p] for s in rs], rt, rk, kk, False) for p in range(n)]
        tails = [delayed(_merge_groups, pure=True)([s[2 * n + p] for s in rs], rt, rk, kk, True) for p in range(n)]
        back = [None] * n       # per partition: the latest groups of all partitions before it
        fwd = [None] * n        # the earliest groups of all partitions after it
        need_back = direction in ("backward", "nearest")
        need_fwd = direction in ("forward", "nearest")
        empty = rmeta[rcols].iloc[:0]
        for p in range(n):
            back[p] = empty if p == 0 or not need_back else \
                delayed(_merge_groups, pure=True)([back[p - 1], tails[p - 1]], rt, rk, kk, True)
        for p in reversed(range(n)):
            fwd[p] = empty if p == n - 1 or not need_fwd else \
                delayed(_merge_groups, pure=True)([heads[p + 1], fwd[p + 1]], rt, rk, kk, False)
        for p in range(n):
            t = delayed(_kernel_carry, nout=2, pure=True)(script, meta, ls[p], [s[p] for s in rs], back[p], fwd[p])
            results.append(t[0])
            stats.append(t[1])
        info["boundaries"] = len(bounds)
    info["_split_stats"] = split_stats
    return _finish(results, stats, meta, report, info, t_start)


def _reset(frame):
    if frame.index.name is not None and frame.index.name not in frame.columns:
        return frame.reset_index()
    return frame.reset_index(drop=True)


def _kernel_carry(script, meta, left_pieces, right_pieces, back, fwd):
    """_kernel with the rows carried in from before (back) and after (fwd) the partition."""
    out, st = _kernel(script, meta, None, left_pieces, right_pieces, ([back], [fwd]))
    st["carried"] = len(back) + len(fwd)
    return out, st


# ---------------------------------------------------------------------------------------------
# IJOIN

_LB, _LF, _RB, _RF = "__rx_lbin", "__rx_lfirst", "__rx_rbin", "__rx_rfirst"


def _relation_text(relation):
    """(Relix text of the relation or set, whether every member is local in time)."""
    members = [relation] if isinstance(relation, str) else list(relation)
    if not members:
        raise RelixError("relation: an empty set of relations")
    members = [str(m).upper() for m in members]
    for m in members:
        if m not in _LOCAL and m not in _BAND:
            raise RelixError(f"relation: '{m}' is not an interval relation")
    if "AT" in members and len(members) > 1:
        raise RelixError("relation: AT cannot be a member of a set")
    text = members[0] if len(members) == 1 else "(" + " | ".join(members) + ")"
    return text, all(m in _LOCAL for m in members)


def _ijoin_script(rel, at, lcols, rcols, keys, binned, kind="inner"):
    """The Relix script of one partition's join: L IJOIN [kind] rel (...) R under a σ of the key
    equalities (and, binned, of the pair's bin). A kind other than inner takes no keys: its
    keyed form is not one Relix operator, and relix.dask decides it from inner pairs."""
    ends = f"L.{_q(lcols[0])}, R.{_q(rcols[0])}, R.{_q(rcols[1])}" if at else \
        f"L.{_q(lcols[0])}, L.{_q(lcols[1])}, R.{_q(rcols[0])}, R.{_q(rcols[1])}"
    word = "" if kind == "inner" else kind.upper() + " "
    join = f"L IJOIN {word}{rel} ({ends}) R"
    cond = [f"L.{_q(a)} = R.{_q(b)}" for a, b in keys]
    if binned:
        cond = [f"L.{_LB} = R.{_RB}"] + cond + [f"(L.{_LF} ∨ R.{_RF})"]
    return f"query {{ σ {' ∧ '.join(cond)} ({join}) }};" if cond else f"query {{ {join} }};"


def _interval_split(frame, n, ends, kcols, bounds, keyed, left, keep):
    """One input partition of an IJOIN side, split by (key, time bin): every row whose interval
    is proper (start <= end) is copied into each bin from its start's to its end's, marked with
    the bin and whether it is the row's first copy; rows with a NULL key or endpoint are
    dropped (they match nothing). Also returns the improper rows (start > end) and the side's
    rows for the joins against the other side's improper ones: the proper ones for the left,
    every valid one for the right."""
    t0 = _time.perf_counter()
    frame = _compact(frame, keep)
    h, null = _key_hash(frame, kcols)
    s, sv = _order_values(frame[ends[0]], "interval")
    e, ev = _order_values(frame[ends[-1]], "interval")
    ok = sv & ev & ~null
    if not ok.all():
        frame, h, s, e = frame[ok].reset_index(drop=True), h[ok], s[ok], e[ok]
    proper = s <= e
    inv = frame[~proper] if not proper.all() else frame.iloc[:0]
    other = (frame[proper] if not proper.all() else frame) if left else frame
    pf, s, e, h = (frame, s, e, h) if proper.all() else (frame[proper].reset_index(drop=True), s[proper],
                                                          e[proper], h[proper])
    bs = np.searchsorted(bounds, s, side="right")
    be = np.searchsorted(bounds, e, side="right")
    nb = be - bs + 1
    rows = np.repeat(np.arange(len(pf)), nb)
    start = np.cumsum(nb) - nb
    b = bs[rows] + (np.arange(len(rows)) - start[rows])
    first = b == bs[rows]
    nbins = len(bounds) + 1
    if keyed:
        mix = (h[rows] ^ (b.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))) * np.uint64(0xBF58476D1CE4E5B9)
        part = ((mix >> np.uint64(29)) % np.uint64(n)).astype(np.int64)
    else:
        part = (b * n // nbins).astype(np.int64)
    order = np.argsort(part.astype(np.int16) if n < 32768 else part, kind="stable")
    copies = pf.take(rows[order]).reset_index(drop=True)
    copies[_LB if left else _RB] = b[order].astype(np.int64)
    copies[_LF if left else _RF] = first[order]
    counts = np.bincount(part, minlength=n)
    ends_ = np.cumsum(counts)
    pieces = [copies.iloc[x - c:x] for c, x in zip(counts, ends_)]
    stats = {"split_s": _time.perf_counter() - t0, "rows": len(copies), "replicated": len(copies) - len(pf),
             "bytes": int(copies.memory_usage(index=False).sum())}
    return pieces + [inv, other], stats


def _drop_helpers(out):
    return out.drop(columns=[c for c in (_LB, _LF, _RB, _RF) if c in out.columns])


def _side_kernel(script, meta, left_pieces, right_pieces):
    """A join of whole pieces (no carried rows) that skips Relix when a side is empty."""
    if all(len(p) == 0 for p in left_pieces) or all(len(p) == 0 for p in right_pieces):
        return meta.iloc[:0], {"concat_s": 0.0, "kernel_s": 0.0, "post_s": 0.0, "left_rows": 0,
                               "right_rows": 0, "rows_out": 0}
    return _kernel(script, meta, None, left_pieces, right_pieces)


def _bin_kernel(script, meta, left_pieces, right_pieces):
    return _kernel(script, meta, _drop_helpers, left_pieces, right_pieces)


def _drop_key_nulls(frame, kcols, keep):
    frame = _reset(frame)[keep]
    if not kcols:
        return frame
    _, null = _key_hash(frame, kcols)
    return frame[~null] if null.any() else frame


_LID = "__rx_lid"
_KINDS = ("inner", "left", "semi", "anti")


def _with_lid(frame, partition_info=None):
    """frame (its index a column, if named) with a column of left row ids, unique across the
    input: the partition's number in the high bits, the row's position in the low 40."""
    frame = _reset(frame)
    i = partition_info["number"] if partition_info else 0
    return frame.assign(**{_LID: (np.int64(i) << np.int64(40)) + np.arange(len(frame), dtype=np.int64)})


def _decide(kind, pad, meta, left, matched, empty_right):
    """The left rows' part of an IJOIN LEFT, SEMI or ANTI, given the ids of the left rows that
    have a partner (matched, int64): SEMI the matched rows, ANTI the others, LEFT the others
    padded with NULLs. Run through Relix (pad: the keyless kind script, ANTI for SEMI) over an
    empty right, so that types and padding are Relix's; left's id column is dropped."""
    hit = np.isin(left[_LID].to_numpy(), matched)
    rows = left[hit] if kind == "semi" else left[~hit]
    rows = rows.drop(columns=[_LID])
    out = _rx_query(pad, L={c: rows[c] for c in rows.columns}, R={c: empty_right[c] for c in empty_right.columns})
    return _normalize(out, meta)


def _kind_kernel(script, kind, pad, meta, left_pieces, right_pieces, right_meta):
    """One partition of IJOIN LEFT, SEMI or ANTI that holds every partner of its left rows (by
    key, aligned, or beside the whole right): the inner pairs with the left ids, then each
    left row decided once; (result, stats)."""
    t0 = _time.perf_counter()
    L = _concat(left_pieces)
    R = _concat(right_pieces)
    t1 = _time.perf_counter()
    pairs = _rx_query(script, L={c: L[c] for c in L.columns}, R={c: R[c] for c in R.columns})
    t2 = _time.perf_counter()
    matched = np.unique(pairs[_LID].to_numpy(np.int64)) if len(pairs) else np.zeros(0, np.int64)
    part = _decide(kind, pad, meta, L, matched, right_meta)
    if kind == "left" and len(pairs):
        part = _concat([_normalize(pairs.drop(columns=[_LID]), meta), part])
    return part, {"concat_s": t1 - t0, "kernel_s": t2 - t1, "post_s": _time.perf_counter() - t2,
                  "left_rows": len(L), "right_rows": len(R), "rows_out": len(part), "worker": _where()}


def _bin_pairs(script, meta, homes, keep_pairs, left_pieces, right_pieces):
    """One bin partition of IJOIN LEFT, SEMI or ANTI: its inner pairs, each once (the pairs
    themselves only for LEFT), and the ids of the left rows with a partner, split by the left
    input partition that holds the row: (pairs, stats, ids for home 0, ..., home homes-1)."""
    if all(len(p) == 0 for p in left_pieces) or all(len(p) == 0 for p in right_pieces):
        out = meta.iloc[:0]
        st = {"concat_s": 0.0, "kernel_s": 0.0, "post_s": 0.0, "left_rows": 0, "right_rows": 0, "rows_out": 0}
        return (out, st) + tuple(np.zeros(0, np.int64) for _ in range(homes))
    pairs, st = _kernel(script, None, _drop_helpers, left_pieces, right_pieces)
    ids = np.unique(pairs[_LID].to_numpy(np.int64))
    home = ids >> np.int64(40)
    cut = np.searchsorted(home, np.arange(homes + 1))
    out = _normalize(pairs.drop(columns=[_LID]), meta) if keep_pairs else meta.iloc[:0]
    st["rows_out"] = len(out)
    return (out, st) + tuple(ids[cut[i]:cut[i + 1]] for i in range(homes))


def _home_kernel(kind, pad, meta, left, id_pieces, right_meta):
    """One left input partition of IJOIN LEFT, SEMI or ANTI by bins: its rows decided once,
    over the matched ids gathered from every bin (a row copied into several bins, or matched in
    a bin other than its start's, is decided here, once)."""
    t0 = _time.perf_counter()
    matched = np.concatenate([np.asarray(p, np.int64) for p in id_pieces]) if id_pieces else np.zeros(0, np.int64)
    out = _decide(kind, pad, meta, _reset(left) if _LID not in left.columns else left, matched, right_meta)
    return out, {"concat_s": 0.0, "kernel_s": 0.0, "post_s": _time.perf_counter() - t0, "left_rows": len(left),
                 "right_rows": 0, "rows_out": len(out), "worker": _where()}


def ijoin(left, right, relation, left_on, right_on=None, by=None, *, kind="inner", npartitions=None, bins=None,
          strategy="auto", hot_share=1.0, report=None):
    """Relix's interval join of two Dask DataFrames: the pairs whose half-open intervals
    [start, end) stand in relation, as `L IJOIN relation (...) R` in Relix, with equal keys.

    relation   one of the sixteen ("INTERSECTS", "MEETS", ..., "COVERED_BY"), "AT" (left_on is
               then a point column), or a list of them (a set: any member holds)
    left_on    (start, end) of the left; right_on (start, end) of the right (default left_on's)
    by         key columns: a name, a list, or (left, right) pairs; None for no key
    kind       "inner" (the pairs), "left" (the pairs, and each left row without a partner once,
               padded with NULLs), "semi" (the left rows with a partner, each once) or "anti"
               (those without): IJOIN LEFT, SEMI and ANTI, with the key equal
    strategy   "hash" (by key alone), "bins" (by key and time bin), "broadcast" (the right side
               whole beside each left partition), or "auto": PRECEDES and PRECEDED_BY by key
               (broadcast without one); the others by key, or by key and bin without a key or
               with a hot key
    bins       with "bins": the number of time bins (default 4 per partition, at quantiles of
               the starts) or their inner boundaries (numbers, or timestamps)
    report     a dict: run at once and fill it

    Pairs come once each, and each left row of LEFT, SEMI or ANTI is decided once, over all its
    partners wherever they were joined; a row with a NULL key or endpoint matches nothing."""
    t_start = _time.perf_counter()
    kind = str(kind).lower()
    if kind not in _KINDS:
        raise RelixError(f"kind: '{kind}' is not inner, left, semi or anti")
    rel, local = _relation_text(relation)
    at = rel == "AT"
    lends = (left_on,) if isinstance(left_on, str) else tuple(left_on)
    if right_on is None:
        if at:
            raise RelixError("right_on: AT needs the right's (start, end)")
        right_on = lends
    rends = tuple(right_on)
    if len(lends) != (1 if at else 2) or len(rends) != 2:
        raise RelixError("left_on and right_on are (start, end) pairs (AT: left_on is one point column)")
    keys = _pairs(by)
    lk, rk = [a for a, _ in keys], [b for _, b in keys]
    lmeta, rmeta = _reset(left._meta), _reset(right._meta)
    lcols, rcols = list(lmeta.columns), list(rmeta.columns)
    for c in lk + list(lends):
        if c not in lcols:
            raise RelixError(f"the left input has no column '{c}'")
    for c in rk + list(rends):
        if c not in rcols:
            raise RelixError(f"the right input has no column '{c}'")
    plain = _ijoin_script(rel, at, lends, rends, keys, False)
    meta = _result_meta(plain, {"L": lmeta[lcols], "R": rmeta[rcols]})
    aligned = _aligned(left, right, lk, rk, npartitions)
    pad = rempty = None
    if kind != "inner":
        # the left rows carry ids; the joins list inner pairs with them, and each left row is
        # decided from the ids that found a partner (pad: Relix's own padding or selection)
        pad = _ijoin_script(rel, at, lends, rends, [], False, "left" if kind == "left" else "anti")
        meta = _result_meta(_ijoin_script(rel, at, lends, rends, [], False, kind),
                            {"L": lmeta[lcols], "R": rmeta[rcols]})
        rempty = rmeta[rcols].iloc[:0]
        left = left.map_partitions(_with_lid, meta=_with_lid(lmeta[lcols]))
        lcols = lcols + [_LID]
    n = npartitions or max(left.npartitions, right.npartitions)
    if strategy == "auto":
        if not local:
            strategy = "hash" if keys else "broadcast"
        else:
            strategy = "hash" if keys and (aligned or
                                           not _hot(left, lk, n, hot_share)) else "bins"
    if strategy not in ("hash", "bins", "broadcast"):
        raise RelixError(f"strategy: '{strategy}' is not auto, hash, bins or broadcast")
    if strategy == "hash" and not keys:
        raise RelixError("strategy 'hash' needs a key (by)")
    if strategy == "bins" and not local:
        raise RelixError(f"strategy 'bins': {rel} pairs rows far apart in time (not local); use hash or broadcast")
    info = {"join": "ijoin", "kind": kind, "strategy": strategy, "npartitions": n, "script": plain,
            "input_partitions": [left.npartitions, right.npartitions]}
    results, stats, split_stats = [], [], []
    if strategy == "broadcast":
        rall = delayed(_concat, pure=True)([delayed(_drop_key_nulls)(p, rk, rcols) for p in right.to_delayed()])
        for p in left.to_delayed():
            if kind != "inner":
                t = delayed(_kind_kernel, nout=2, pure=True)(plain, kind, pad, meta, [delayed(_reset)(p)], [rall],
                                                             rempty)
            else:
                t = delayed(_side_kernel, nout=2, pure=True)(plain, meta, [delayed(_reset)(p)], [rall])
            results.append(t[0])
            stats.append(t[1])
        info["npartitions"] = left.npartitions
    elif strategy == "hash" and aligned:
        info["strategy"] = "aligned"
        (lp, ls), (rp, rs) = _parts_of(left), _parts_of(right)
        split_stats = ls + rs
        for a, b in zip(lp, rp):
            if kind != "inner":
                t = delayed(_kind_kernel, nout=2, pure=True)(plain, kind, pad, meta, a, b, rempty)
            else:
                t = delayed(_kernel, nout=2, pure=True)(plain, meta, None, a, b)
            results.append(t[0])
            stats.append(t[1])
    elif strategy == "hash":
        # LEFT and ANTI keep the left rows with a NULL key: they come out unmatched
        ls = _delayed_split(left, _hash_split, n, (lk, kind in ("inner", "semi"), lcols))
        rs = _delayed_split(right, _hash_split, n, (rk, True, rcols))
        split_stats = [(s, n) for s in ls + rs]
        for p in range(n):
            if kind != "inner":
                t = delayed(_kind_kernel, nout=2, pure=True)(plain, kind, pad, meta, [s[p] for s in ls],
                                                             [s[p] for s in rs], rempty)
            else:
                t = delayed(_kernel, nout=2, pure=True)(plain, meta, None, [s[p] for s in ls], [s[p] for s in rs])
            results.append(t[0])
            stats.append(t[1])
    else:
        if bins is None or np.isscalar(bins):
            nb = int(bins) if bins is not None else 4 * n
            left, right, bounds = _time_bounds(left, lends[0], right, rends[0], nb)
        else:
            b = pd.Series(list(bins))
            bounds, _ = _order_values(b if b.dtype != object else pd.to_datetime(b), "bins")
            bounds = np.unique(bounds)
        ls = _delayed_split(left, _interval_split, n, (lends, lk, bounds, bool(keys), True, lcols), n + 2)
        rs = _delayed_split(right, _interval_split, n, (rends, rk, bounds, bool(keys), False, rcols), n + 2)
        split_stats = [(s, n + 2) for s in ls + rs]
        binned = _ijoin_script(rel, at, lends, rends, keys, True)
        info["script"] = binned
        info["bins"] = len(bounds) + 1
        linv = [s[n] for s in ls]
        rinv = [s[n] for s in rs]
        # the bins, then the improper intervals (start > end), joined with the other side whole,
        # not binned: left improper x right valid, left proper x right improper
        jobs = [(binned, [s[p] for s in ls], [s[p] for s in rs]) for p in range(n)] + \
            [(plain, linv, [s[n + 1]]) for s in rs] + [(plain, [s[n + 1]], rinv) for s in ls]
        if kind == "inner":
            for script_, lp, rp in jobs:
                fn = _bin_kernel if script_ is binned else _side_kernel
                t = delayed(fn, nout=2, pure=True)(script_, meta, lp, rp)
                results.append(t[0])
                stats.append(t[1])
        else:
            # each left row is decided in its own input partition, from the ids of the rows that
            # found a partner in any bin (a row copied into several bins is decided once)
            homes = left.npartitions
            tasks = [delayed(_bin_pairs, nout=2 + homes, pure=True)(script_, meta, homes, kind == "left", lp, rp)
                     for script_, lp, rp in jobs]
            for t in tasks:
                if kind == "left":
                    results.append(t[0])
                stats.append(t[1])
            for i, lpart in enumerate(left.to_delayed()):
                t = delayed(_home_kernel, nout=2, pure=True)(kind, pad, meta, lpart, [x[2 + i] for x in tasks], rempty)
                results.append(t[0])
                stats.append(t[1])
    info["_split_stats"] = split_stats
    return _finish(results, stats, meta, report, info, t_start)


# ---------------------------------------------------------------------------------------------
# reading CSV files in the workers, with Relix's own reader

_TYPE_NAMES = {1: "INT", 2: "FLOAT", 3: "BOOL", 4: "TEXT", 5: "TIMESTAMP", 6: "DATE", 7: "TIME", 8: "DURATION"}


def _text_literal(s):
    return "'" + str(s).replace("'", "''") + "'"


def _csv_script(path, options):
    """A script reading path with Relix's csv(...) and the options (name -> Relix literal)."""
    opts = "".join(f", {k} => {v}" for k, v in options.items())
    return f"T := csv({_text_literal(path)}{opts}); query {{ T }};"


class _Piped:
    """A buffer (typically a memory map's view of the file itself) as a path Relix's csv()
    reads: a pipe fed by a thread while Relix reads it, so there is no scratch file and no
    copy of the block in memory. `with _Piped(data) as src:`; on leaving, both ends are closed
    and the thread is joined, whatever happened (a reader that stopped early ends the thread
    with a broken pipe)."""

    def __init__(self, data):
        self.data = data

    def _feed(self):
        try:
            view = memoryview(self.data).cast("B")
            off = 0
            try:
                while off < len(view):
                    off += os.write(self.wfd, view[off:off + (1 << 20)])
            finally:
                view.release()
        except OSError:          # the reader stopped (on an error, which it reports)
            pass
        finally:
            os.close(self.wfd)

    def __enter__(self):
        import threading
        self.rfd, self.wfd = os.pipe()
        self.src = f"/proc/self/fd/{self.rfd}" if os.path.isdir("/proc/self/fd") else f"/dev/fd/{self.rfd}"
        self.thread = threading.Thread(target=self._feed, daemon=True)
        self.thread.start()
        return self.src

    def __exit__(self, *exc):
        os.close(self.rfd)
        self.thread.join()


def _relix_csv(data, options, path, line0, names):
    """Relix's csv reader over data (a buffer of whole records) through a pipe (_Piped); TEXT
    columns as Categoricals. An error names path and the line in the whole file (line0: the
    file's line of data's first byte, 1-based) instead of the pipe, and the header's column
    names (names) instead of the schema's c1, c2, ..."""
    with _Piped(data) as src:
        try:
            return _rx_query(_csv_script(src, options), categories=True)
        except RelixError as e:
            msg = str(e)
            m = re.match(re.escape(src) + r":(\d+):", msg)
            if m:
                msg = f"{path}:{int(m.group(1)) + line0() - 1}:" + msg[m.end():]
            msg = msg.replace(src, str(path))
            msg = re.sub(r"column 'c(\d+)'", lambda g: "column '" + (names[int(g.group(1)) - 1] if
                                                                     0 < int(g.group(1)) <= len(names) else
                                                                     g.group(0)) + "'", msg)
            raise RelixError(msg) from None


def _record_end(f, pos, parity, size):
    """The offset just after the first newline at or after pos that ends a record, given the
    parity of the quotes before pos (a newline inside a quoted field does not end one); size
    when there is none."""
    f.seek(pos)
    at = pos
    while at < size:
        buf = f.read(1 << 16)
        if not buf:
            break
        start = 0
        while True:
            nl = buf.find(b"\n", start)
            if nl < 0:
                parity ^= buf.count(b'"', start) & 1
                break
            parity ^= buf.count(b'"', start, nl) & 1
            if parity == 0:
                return at + nl + 1
            start = nl + 1
        at += len(buf)
    return size


def _count_byte(path, byte, a, b):
    """How many times byte occurs in bytes [a, b) of the file (counted in place over a memory
    map, 16 MB at a time)."""
    import mmap
    if b <= a:
        return 0
    n = 0
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        for x in range(a, b, 1 << 24):
            v = np.frombuffer(mm, np.uint8, count=min(b, x + (1 << 24)) - x, offset=x)
            n += int(np.count_nonzero(v == byte))
            del v
    return n


def _quote_parity(path, a, b):
    """The parity of the quote characters in bytes [a, b) of the file (a block without any,
    the usual case, is known so by one memchr-speed search)."""
    import mmap
    if b <= a:
        return 0
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        if mm.find(b'"', a, b) < 0:
            return 0
    return _count_byte(path, 34, a, b) & 1


def _read_block(path, i, offsets, parities, size, options, names, meta):
    """Block i of the file: the whole records that start in [offsets[i], offsets[i+1]) (a
    record belongs to the block holding the newline before it), parsed by Relix with the
    schema, columns renamed to the header's names and given meta's dtypes. parities: the quote
    parity of the header, then of each nominal block up to i (the parity before each cut)."""
    before = int(np.bitwise_xor.reduce(np.asarray(parities[:i + 1], np.int64)))
    with open(path, "rb") as f:
        a = offsets[0] if i == 0 else _record_end(f, offsets[i], before, size)
        if i + 1 == len(offsets):
            b = size
        else:
            b = _record_end(f, offsets[i + 1], before ^ int(parities[i + 1]), size)
        if b <= a:
            return meta.iloc[:0]
        import mmap
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            view = memoryview(mm)
            piece = view[a:b]
            try:
                out = _relix_csv(piece, options, path, lambda: _line_of(path, a), names)
            finally:
                piece.release()
                view.release()
    out.columns = names
    cols = {}
    for c, dt in meta.dtypes.items():
        s = out[c]
        if isinstance(dt, pd.CategoricalDtype) or s.dtype == dt:
            cols[c] = s          # a Categorical keeps its block's own categories (meta's are unknown)
        else:
            cols[c] = _as_dtype(s, dt)
    return pd.DataFrame(cols, copy=False)


def _read_split(path, i, offsets, parities, size, options, names, meta, keys, n):
    """Block i of the file read as _read_block reads it and hash-partitioned on the key columns
    in the same task (the function every placement by key uses; NULL keys placed by the rest):
    (piece 0, ..., piece n-1, stats), the pieces in the file's order."""
    t0 = _time.perf_counter()
    frame = _read_block(path, i, offsets, parities, size, options, names, meta)
    t1 = _time.perf_counter()
    pieces, stats = _hash_split(frame, n, keys, False, names)
    stats["read_s"] = t1 - t0
    return tuple(pieces) + (stats,)


def _line_of(path, a):
    """The 1-based line of the file at byte offset a."""
    return _count_byte(path, 10, 0, a) + 1


def _whole_records(buf):
    """buf up to the end of its last whole record (a newline outside quotes)."""
    parity, last, start = 0, 0, 0
    while True:
        nl = buf.find(b"\n", start)
        if nl < 0:
            return buf[:last]
        parity ^= buf.count(b'"', start, nl) & 1
        if parity == 0:
            last = nl + 1
        start = nl + 1


def _csv_meta(sample):
    """The dask meta of a block's frame: Relix's types as relix.query gives them, INT and BOOL
    nullable (a later block may hold a NULL), TEXT as Categoricals of unknown categories."""
    cols = {}
    for c in sample.columns:
        s = sample[c].iloc[:0]
        if s.dtype == np.int64:
            s = s.astype("Int64")
        elif s.dtype == bool:
            s = s.astype("boolean")
        elif s.dtype == object:
            s = s.astype("category")
        cols[c] = s
    return pd.DataFrame(cols)


def _types_of(path, data, options):
    """(column names, Relix type names) of a CSV sample (header and whole records) as Relix's
    reader detects them with the options."""
    from . import _lib, _RESULT_FN
    got = []

    def on_result(_ud, res):
        got.append([(_lib.rx_result_colname(res, j).decode(), _lib.rx_result_coltype(res, j))
                    for j in range(_lib.rx_result_cols(res))])
        return 0

    session = _lib.rx_open()
    if not session:
        raise MemoryError("relix: out of memory")
    try:
        with _Piped(data) as src:
            text = _csv_script(src, options).encode()
            cb = _RESULT_FN(on_result)
            if _lib.rx_exec(session, text, len(text), b"<python>", cb, None) != 0:
                raise RelixError(_lib.rx_errmsg(session).decode().replace(src, str(path)))
    finally:
        _lib.rx_close(session)
    cols = got[-1]
    return [c for c, _ in cols], [_TYPE_NAMES.get(t, "TEXT") for _, t in cols]


def read_csv(path, *, blocksize=64_000_000, sample=1 << 20, delimiter=None, null=None, types=None, by=None,
             npartitions=None):
    """A CSV file (RFC 4180, with a header row) as a dask DataFrame whose partitions are parsed
    by Relix's own CSV reader inside the workers, one per block of about blocksize bytes: each
    block holds the records that start in it, cut at record boundaries that respect quoted
    fields (the quotes before each cut are counted by a task per block). The column types are
    Relix's, detected on the first sample bytes of the file (types= gives some columns' types
    as 'name TYPE, ...', as csv()'s option does; delimiter= and null= are csv()'s options too)
    and then required of every block: a value of another type later in the file is a
    RelixError naming the file and its line. TEXT columns come as Categoricals (codes and one
    dictionary per block: compact to exchange), INT and BOOL as pandas' nullable types,
    timestamps in UTC. The file must not change while it is read.

    by (a column name or a list) reads the file hash-partitioned on those columns into
    npartitions partitions (default: one per block), as relix.dask.partition would place it
    but in the reading tasks themselves: each block is parsed and split by key in one task,
    and each partition is the concatenation of its pieces, in the file's order. asof, ijoin
    and query then join two files read with the same keys and count as they are, with no
    further exchange (each partition's pieces go straight to its kernel)."""
    path = os.path.abspath(os.fspath(path))
    size = os.path.getsize(path)
    options = {}
    if delimiter is not None:
        options["delimiter"] = _text_literal("\\t" if delimiter == "\t" else delimiter)
    if null is not None:
        options["null"] = _text_literal(null)
    with open(path, "rb") as f:
        header_end = _record_end(f, 0, 0, size)
        want = header_end + int(sample)
        while True:
            f.seek(0)
            head = f.read(min(size, want))
            if len(head) == size:
                break
            head = _whole_records(head)
            if len(head) > header_end:
                break
            want *= 2                # no whole record yet: a longer sample
    parity_head = head[:header_end].count(b'"') & 1
    head_opts = dict(options)
    if types is not None:
        head_opts["types"] = _text_literal(types)
    names, tnames = _types_of(path, head, head_opts)
    schema = ", ".join(f"c{j + 1} {t}" for j, t in enumerate(tnames))
    block_opts = dict(options, header="FALSE", schema=_text_literal(schema))
    meta = _csv_meta(_empty_of(tnames, names))
    offsets = list(range(header_end, size, max(int(blocksize), 1))) or [header_end]
    ends = offsets[1:] + [size]
    parities = [parity_head] + [delayed(_quote_parity, pure=True)(path, a, b) for a, b in zip(offsets, ends)]
    if by is None:
        parts = [delayed(_read_block, pure=True)(path, i, offsets, parities[:i + 2], size, block_opts, names, meta)
                 for i in range(len(offsets))]
        return dd.from_delayed(parts, meta=meta, verify_meta=False)
    keys = [by] if isinstance(by, str) else list(by)
    for c in keys:
        if c not in names:
            raise RelixError(f"read_csv: {path} has no column '{c}' (by=)")
    n = int(npartitions or len(offsets))
    if n < 1:
        raise RelixError(f"read_csv: npartitions {n} is not a positive count")
    sp = [delayed(_read_split, nout=n + 1, pure=True)(path, i, offsets, parities[:i + 2], size, block_opts, names,
                                                      meta, keys, n)
          for i in range(len(offsets))]
    return _partitioned(sp, n, keys, meta)


_EMPTY = {"INT": "int64", "FLOAT": "float64", "BOOL": "bool", "TEXT": "object", "TIMESTAMP": "datetime64[ns, UTC]",
          "DATE": "datetime64[ns]", "TIME": "timedelta64[ns]", "DURATION": "object"}


def _empty_of(tnames, names):
    """An empty frame with the dtypes relix.query gives for these Relix types."""
    return pd.DataFrame({nm: pd.Series([], dtype=_EMPTY[t]) for nm, t in zip(names, tnames)})

# ---------------------------------------------------------------------------------------------
# whole scripts, and partitioning ahead

def _script_kernel(script, meta, names, pieces):
    """One partition of a whole script: each relation's pieces concatenated and bound by name."""
    t0 = _time.perf_counter()
    frames = {nm: _concat(ps) for nm, ps in zip(names, pieces)}
    t1 = _time.perf_counter()
    out, k = _run(script, frames, meta)
    rows = sum(len(f) for f in frames.values())
    return out, {"concat_s": t1 - t0, "kernel_s": k, "post_s": _time.perf_counter() - t1 - k,
                 "left_rows": rows, "right_rows": 0, "rows_out": len(out), "worker": _where()}


def _keys_of(by, name, frame_cols):
    """The key columns of relation name under by (a column name every keyed relation has, or a
    dict name -> column or columns); [] when it has none (then it is broadcast)."""
    if isinstance(by, dict):
        k = by.get(name)
        return [] if k is None else ([k] if isinstance(k, str) else list(k))
    if isinstance(by, str):
        return [by] if by in frame_cols else []
    return list(by) if all(c in frame_cols for c in by) else []


def query(script, by, *, npartitions=None, report=None, **frames):
    """Runs a whole Relix script over Dask DataFrames bound as its relations (keywords, as in
    relix.query), once per partition of a shared key, and returns the union of the partitions'
    results (the last query's) as a dask DataFrame.

    by         the key: a column name (every relation that has it is partitioned on it), a
               list of names, or a dict relation -> column(s). A relation without a key is
               broadcast: each partition gets it whole (for small tables).

    The keyed relations are hash-partitioned on their keys with one function and one count, so
    each partition holds every row of its key values. The result is relix.query's exactly when
    every row of it depends on rows of one key value only: joins equate the key (ASOF and IJOIN
    with it as a key, ⨝ on it), γ groups by it, windows and FILL go PER it. Otherwise (a join
    or aggregate across keys, a keyless ASOF, TOP, a global sort) each partition answers for
    its own keys only, and the union is not the whole script's answer: split such a script into
    a keyed part here and a final step in Dask, or use asof/ijoin, which partition by time.
    NULL keys all go to one partition. Relix's errors are raised at once."""
    t_start = _time.perf_counter()
    if not frames:
        raise RelixError("query: no relations given")
    names = list(frames)
    metas = {nm: _reset(f._meta) for nm, f in frames.items()}
    keyed = {nm: _keys_of(by, nm, list(metas[nm].columns)) for nm in names}
    if not any(keyed.values()):
        raise RelixError(f"query: no relation has the key {by!r}")
    for nm, ks in keyed.items():
        for c in ks:
            if c not in metas[nm].columns:
                raise RelixError(f"query: relation '{nm}' has no column '{c}'")
    meta = _result_meta(script, metas)
    kn = [nm for nm in names if keyed[nm]]
    n = npartitions or max(frames[nm].npartitions for nm in kn)
    regs = [_registered(frames[nm]) for nm in kn]
    aligned = all(r is not None and r[0] == tuple(keyed[nm]) and r[1] == regs[0][1] for r, nm in zip(regs, kn)) \
        and (npartitions is None or regs[0][1] == npartitions)
    info = {"join": "query", "strategy": "aligned" if aligned else "hash", "npartitions": n, "script": script,
            "input_partitions": [frames[nm].npartitions for nm in names], "broadcast": [nm for nm in names
                                                                                           if not keyed[nm]]}
    split_stats, per_name = [], {}
    for nm in names:
        cols = list(metas[nm].columns)
        f = frames[nm]
        if not keyed[nm]:
            whole = delayed(_concat, pure=True)([delayed(_reset)(p) for p in f.to_delayed()])
            per_name[nm] = None, whole
        elif aligned:
            parts, sst = _parts_of(f)
            split_stats += sst
            per_name[nm] = parts, None
            n = len(parts)
        else:
            sp = _delayed_split(f, _hash_split, n, (keyed[nm], False, cols))
            split_stats += [(s, n) for s in sp]
            per_name[nm] = [[s[p] for s in sp] for p in range(n)], None
    results, stats = [], []
    for p in range(n):
        pieces = []
        for nm in names:
            parts, whole = per_name[nm]
            if whole is not None:
                pieces.append([whole])
            elif aligned:
                pieces.append(parts[p])
            else:
                pieces.append(parts[p])
        t = delayed(_script_kernel, nout=2, pure=True)(script, meta, names, pieces)
        results.append(t[0])
        stats.append(t[1])
    info["npartitions"] = n
    info["_split_stats"] = split_stats
    return _finish(results, stats, meta, report, info, t_start)


def partition(df, by, npartitions=None):
    """df hash-partitioned on the key columns by (a name or a list) with the function asof,
    ijoin and query use: two frames partitioned on their keys with one count are then joined
    as they are, without a further exchange. NULL keys go to one partition."""
    cols = [by] if isinstance(by, str) else list(by)
    m = _reset(df._meta)
    for c in cols:
        if c not in m.columns:
            raise RelixError(f"partition: no column '{c}'")
    n = npartitions or df.npartitions
    sp = _delayed_split(df, _hash_split, n, (cols, False, list(m.columns)))
    return _partitioned(sp, n, cols, m)


def _partitioned(sp, n, cols, meta):
    """The dask DataFrame of n partitions made of split tasks sp (each: n pieces, then its
    stats), registered as partitioned on cols, with the pieces kept for the joins (which take
    a partition's pieces straight into their kernel instead of concatenating them first)."""
    parts = [delayed(_concat, pure=True)([s[p] for s in sp]) for p in range(n)]
    out = dd.from_delayed(parts, meta=meta, verify_meta=False)
    if len(_PIECES) > 256:
        _PIECES.clear()
    _REGISTRY[out._name] = (tuple(cols), n)
    _PIECES[out._name] = sp
    return out


def _parts_of(ddf):
    """Per partition of ddf, the list of frames (delayed) it is made of, and the split tasks
    behind them for the report [(task, n)]: the pieces of a frame from _partitioned that is
    not persisted, so that its exchange happens once, straight into the consuming tasks; else
    each partition whole (its index a column, if named), with no split tasks."""
    sp = _PIECES.get(getattr(ddf, "_name", None))
    if sp is not None and sp[0].key not in ddf.__dask_graph__():
        sp = None                # persisted: its partitions are held, its pieces are not
    if sp is not None:
        n = len(ddf.divisions) - 1
        return [[s[p] for s in sp] for p in range(n)], [(s, n) for s in sp]
    return [[delayed(_reset)(p)] for p in ddf.to_delayed()], []
