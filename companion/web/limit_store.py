"""Rate-limit counters every server process shares without Redis (issue 21 §6).

``serve`` runs several processes; counters kept in each process's memory would give each of
them the whole budget (two workers: 20 join-code guesses a minute where 10 are promised). So
without ``REDIS_URL`` the counters live in a small SQLite file of the instance folder
(``rate_limits.sqlite3``), which every process of the machine opens: one statement counts a
hit and reads the total, atomically (SQLite locks the file for it). Nothing in it needs to
survive a crash, so it is written without waiting for the disk.

A busy limit is not written on every hit: a process takes a *lease* of several hits at once
(one statement adds them all to the shared counter) and hands them out from memory until
they are spent or the window is over. Every hit still gets its own place in the shared count
(the lease's first place plus how many came before it in this process), and a hit passes only
if that place is within the limit, so the processes together never let through more than the
limit: a lease a process does not spend only holds back a few hits from the others (a lease is
at most 2 % of the limit, and a limit under 100 is counted hit by hit, exactly as before).
The size comes from the limit, which the limiter writes into the key
(``LIMITER/<client>/<scope>/<amount>/<multiples>/<granularity>``); a key of another shape is
counted hit by hit.

A :class:`limits.storage.Storage` for the fixed-window strategy (:mod:`.limits` counts with it),
registered as ``scribe+sqlite:///<absolute path>``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

from limits.storage import Storage

SCHEME = "scribe+sqlite"
FILE_NAME = "rate_limits.sqlite3"
_SWEEP_EVERY = 200               # hits between two deletions of the windows that are over
_LEASE_SHARE = 50                # a lease is at most 1/50 of its limit...
_LEASE_MAX = 100                 # ...and at most this many hits


def lease_size(key: str) -> int:
    """How many hits of ``key`` a process takes at once: 1 unless the key names a limit of
    100 or more."""
    parts = key.split("/")
    if len(parts) < 5 or parts[0] != "LIMITER" or not parts[-3].isdigit():
        return 1
    return max(1, min(int(parts[-3]) // _LEASE_SHARE, _LEASE_MAX))


class _Lease:
    """Places ``next`` .. ``last`` of a window's shared count, this process's to hand out."""

    __slots__ = ("next", "last", "ends")

    def __init__(self, first: int, last: int, ends: float) -> None:
        self.next, self.last, self.ends = first, last, ends


def storage_uri(instance_path: str | Path) -> str:
    """The URI of the shared counters of the instance folder."""
    return f"{SCHEME}://{Path(instance_path).resolve() / FILE_NAME}"


class SQLiteCounters(Storage):
    """Fixed-window counters in one SQLite file, shared by every process that opens it."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False,
                 **options: float | str | bool) -> None:
        self.path = (uri or "").split("://", 1)[1]
        self._local = threading.local()
        self._hits = 0
        self._leases: dict[str, _Lease] = {}
        self._lease_lock = threading.Lock()
        self._lease_pid = os.getpid()
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _db(self) -> sqlite3.Connection:
        """This thread's connection (one per thread and process; made on first use)."""
        local = self._local
        if getattr(local, "pid", None) != os.getpid():
            connection = sqlite3.connect(self.path, timeout=5, isolation_level=None,
                                         check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=OFF")
            connection.execute("CREATE TABLE IF NOT EXISTS counter (key TEXT PRIMARY KEY, "
                               "hits INTEGER NOT NULL, ends REAL NOT NULL)")
            local.connection, local.pid = connection, os.getpid()
        return local.connection

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        size = lease_size(key)
        if size == 1 or amount != 1:
            return self._add(key, expiry, amount)[0]
        now = time.time()
        with self._lease_lock:
            if self._lease_pid != os.getpid():          # a forked process holds no lease
                self._leases, self._lease_pid = {}, os.getpid()
            lease = self._leases.get(key)
            if lease is None or lease.next > lease.last or lease.ends <= now:
                hits, ends = self._add(key, expiry, size)
                lease = self._leases[key] = _Lease(hits - size + 1, hits, ends)
            place = lease.next
            lease.next += 1
            return place

    def _add(self, key: str, expiry: float, amount: int) -> tuple[int, float]:
        """Add ``amount`` hits to the shared count: (the count after them, the window's end)."""
        now = time.time()
        db = self._db()
        hits, ends = db.execute(
            "INSERT INTO counter (key, hits, ends) VALUES (?1, ?2, ?3) "
            "ON CONFLICT (key) DO UPDATE SET "
            "hits = CASE WHEN ends <= ?4 THEN ?2 ELSE hits + ?2 END, "
            "ends = CASE WHEN ends <= ?4 THEN ?3 ELSE ends END "
            "RETURNING hits, ends", (key, amount, now + expiry, now)).fetchone()
        self._hits += 1
        if self._hits % _SWEEP_EVERY == 0:
            db.execute("DELETE FROM counter WHERE ends <= ?", (now,))
        return int(hits), float(ends)

    def get(self, key: str) -> int:
        row = self._db().execute("SELECT hits FROM counter WHERE key = ? AND ends > ?",
                                 (key, time.time())).fetchone()
        return int(row[0]) if row else 0

    def window(self, key: str) -> tuple[int, float]:
        """The hits counted in ``key``'s window and when it ends, in one read (what
        :meth:`get` and :meth:`get_expiry` answer: 0 and now when no window is open)."""
        now = time.time()
        row = self._db().execute("SELECT hits, ends FROM counter WHERE key = ? AND ends > ?",
                                 (key, now)).fetchone()
        return (int(row[0]), float(row[1])) if row else (0, now)

    def get_expiry(self, key: str) -> float:
        row = self._db().execute("SELECT ends FROM counter WHERE key = ? AND ends > ?",
                                 (key, time.time())).fetchone()
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            self._db().execute("SELECT 1 FROM counter LIMIT 1").fetchall()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        with self._lease_lock:
            self._leases.clear()
        return self._db().execute("DELETE FROM counter").rowcount

    def clear(self, key: str) -> None:
        with self._lease_lock:
            self._leases.pop(key, None)
        self._db().execute("DELETE FROM counter WHERE key = ?", (key,))
