"""Row-set comparison for the relix.dask cluster tests (test_dask.py, test_dask_kinds.py): a
distributed result and its single-machine reference agree when they
hold the same rows in any order."""
import pandas as pd


def canon(df):
    """The rows of df as a sorted frame of strings (NULL, NaN and NaT alike), dtypes aside."""
    d = {}
    for c in df.columns:
        s = df[c]
        v = s.astype(str).to_numpy(object)
        v[s.isna().to_numpy()] = "NULL"
        d[c] = v
    out = pd.DataFrame(d)
    return out.sort_values(list(out.columns)).reset_index(drop=True)


def same(got, exp):
    return list(got.columns) == list(exp.columns) and canon(got).equals(canon(exp))
