"""Where sweep rows go as they arrive: a CSV file, or SQLite for a .db path.

(Debian has no pyarrow, so no Parquet.) Each row is written and flushed (or
committed) on arrival, so an interrupted sweep keeps every finished point and
``resume=True`` can skip them. A store opened on an existing file whose columns
differ (a newer warptlm added a statistic) keeps the old rows under the union
of both column sets.
"""

import csv
import os
import sqlite3

import pandas as pd

__all__ = ["open_store", "read_results"]

_TABLE = "results"


def read_results(path):
    """The rows stored at ``path`` (CSV or .db) as a DataFrame."""
    if _is_sqlite(path):
        with sqlite3.connect(path) as conn:
            return pd.read_sql_query(f"SELECT * FROM {_TABLE}", conn)
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def _is_sqlite(path):
    return os.fspath(path).endswith((".db", ".sqlite", ".sqlite3"))


def open_store(path, columns, resume):
    """A store at ``path`` with ``columns``; with resume=False an existing file is replaced.
    A store that cannot be opened leaves no new file behind."""
    columns = list(columns)
    twice = sorted({c for c in columns if columns.count(c) > 1})
    if twice:
        raise ValueError(f"{path}: columns named twice: {', '.join(twice)}")
    path = os.fspath(path)
    existed = os.path.exists(path)
    try:
        return (SqliteStore if _is_sqlite(path) else CsvStore)(path, columns, resume)
    except BaseException:
        if not existed and os.path.exists(path):
            os.remove(path)
        raise


class CsvStore:
    def __init__(self, path, columns, resume):
        self.path = path
        self.columns = columns
        existing = None
        if resume and os.path.exists(path) and os.path.getsize(path) > 0:
            _drop_partial_last_line(path)
            existing = pd.read_csv(path, keep_default_na=False, na_values=[""])
        if existing is not None and list(existing.columns) != columns:
            # Rewrite under the union of the columns, ours first.
            self.columns = columns + [c for c in existing.columns if c not in columns]
            existing.reindex(columns=self.columns).to_csv(path, index=False)
        self.existing = existing if existing is not None else pd.DataFrame(columns=self.columns)
        fresh = existing is None
        self._file = open(path, "w" if fresh else "a", newline="", encoding="utf-8")
        self._writer = csv.DictWriter(self._file, fieldnames=self.columns, restval="", extrasaction="raise")
        if fresh:
            self._writer.writeheader()
            self._file.flush()

    def append(self, row):
        self._writer.writerow({k: "" if v is None else v for k, v in row.items()})
        self._file.flush()

    def close(self):
        self._file.close()


def _drop_partial_last_line(path):
    """A writer killed mid-row leaves a line without its newline: drop it."""
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


class SqliteStore:
    def __init__(self, path, columns, resume):
        self.path = path
        if not resume and os.path.exists(path):
            os.remove(path)
        self._conn = sqlite3.connect(path)
        have = [r[1] for r in self._conn.execute(f"PRAGMA table_info({_TABLE})")]
        if not have:
            self._conn.execute(f"CREATE TABLE {_TABLE} ({', '.join(_quote(c) for c in columns)})")
        for c in columns:
            if have and c not in have:
                self._conn.execute(f"ALTER TABLE {_TABLE} ADD COLUMN {_quote(c)}")
        self._conn.commit()
        self.columns = columns + [c for c in have if c not in columns]
        self.existing = pd.read_sql_query(f"SELECT * FROM {_TABLE}", self._conn)

    def append(self, row):
        names = list(row)
        self._conn.execute(
            f"INSERT INTO {_TABLE} ({', '.join(_quote(n) for n in names)}) VALUES ({', '.join('?' * len(names))})",
            [_sqlite_value(row[n]) for n in names])
        self._conn.commit()

    def close(self):
        self._conn.close()


def _sqlite_value(value):
    if hasattr(value, "item"):  # numpy scalar
        value = value.item()
    return value
