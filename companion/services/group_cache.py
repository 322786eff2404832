"""What a group's pages are computed from, computed once per change of its history.

Every group page (home, ladders, players, games, head-to-head, charts) reads the group's whole
counted history and its ladders. Read on every request, that cost grows with the history: a
20 000-play group took seconds a page (issue 21). So the history, the ladders and the values
derived from them (titles, each player's statistics…) are kept per group in a
:class:`Summary`, keyed by the group's ``history_version``, which every change to the history
raises in its own transaction (:func:`.group_audit.history_changed`). A request compares the
version of the group row it already read (to check the token) with the cached one: equal, it
reuses everything; different, the history is read again and

* when the changes since the cached version only added plays (recorded or imported: their
  tables carry the version that added them, ``game_table.group_version``) or members, and
  every play added is later than the last one cached, only the plays added are read and the
  ladders go on from where they were (:class:`.ladder.LadderBuilder`, the same numbers);
* otherwise (a void, a correction, a merge, a rename, a play older than the last one) the
  whole history is read and rated again.

A stale answer is impossible: a summary is only ever used for the version it was made for,
and the history it holds is at least as new as that version (the version is read first).
The cache lives in each process (one per server worker), per database engine, for the
:data:`CACHE_SIZE` most recently used groups.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from sqlalchemy.engine import Engine
from sqlmodel import Session

from ..models import Group
from .history import Play, load_plays, member_names, names_for
from .ladder import LadderBuilder, Ladders
from .tallies import Tally

CACHE_SIZE = 32
T = TypeVar("T")


@dataclass
class Summary:
    """A group's counted plays (oldest first), their ladders and everyone's name, as of one
    ``version``; :meth:`memo` keeps what the pages derive from them."""

    version: int
    plays: list[Play]
    ladders: Ladders
    name_of: dict[int, str]
    builder: LadderBuilder
    tally: Tally
    champions: dict[str, Any] = field(init=False)     # game → the Champion title (or None)
    nemeses: dict[int, Any] = field(init=False)       # player → their Nemesis
    _memo: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Taken now, while the tally counts exactly these plays (a later version goes on
        # from the same tally).
        self.champions = {game: self.tally.champion(game, self.name_of)
                          for game in self.tally.wins}
        self.nemeses = self.tally.nemeses(self.name_of)

    def memo(self, key: Any, compute: Callable[[], T]) -> T:
        """``compute()`` once for this summary (two racing requests may both compute it; the
        answers are equal)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = compute()
            return value


_CACHES: "weakref.WeakKeyDictionary[Engine, OrderedDict[int, Summary]]" = \
    weakref.WeakKeyDictionary()
_LOCK = threading.Lock()
_BUILDING: "weakref.WeakKeyDictionary[Engine, dict[int, threading.Lock]]" = \
    weakref.WeakKeyDictionary()


def _cached(engine: Engine, group_id: int) -> Summary | None:
    with _LOCK:
        return _CACHES.get(engine, {}).get(group_id)


def _keep(engine: Engine, group_id: int, summary: Summary) -> None:
    with _LOCK:
        cache = _CACHES.setdefault(engine, OrderedDict())
        cache[group_id] = summary
        cache.move_to_end(group_id)
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)


def _builder_lock(engine: Engine, group_id: int) -> threading.Lock:
    with _LOCK:
        return _BUILDING.setdefault(engine, {}).setdefault(group_id, threading.Lock())


def summary(session: Session, group: Group) -> Summary:
    """The group's Summary for the history version of ``group`` (the row the request read)."""
    engine = session.get_bind()
    version = group.history_version or 0
    found = _cached(engine, group.id)
    if found is not None and found.version == version:
        return found
    with _builder_lock(engine, group.id):          # one rebuild at a time per group
        found = _cached(engine, group.id)
        if found is not None and found.version == version:
            return found
        made = None
        if found is not None and found.version < version \
                and (group.history_rewritten or 0) <= found.version:
            made = _added(session, group, version, found)
        if made is None:
            plays = load_plays(session, group.id)
            builder = LadderBuilder().extend(plays)
            made = Summary(version, plays, builder.ladders(),
                           names_for(plays, member_names(session, group.id)), builder,
                           Tally().extend(plays))
        if found is None or version >= found.version:
            _keep(engine, group.id, made)
        return made


def _added(session: Session, group: Group, version: int, found: Summary) -> Summary | None:
    """``found`` with the plays added since its version, when there were only additions and
    every play added is later than the last play of ``found``; else None."""
    added = load_plays(session, group.id, added_after=found.version)
    last = found.plays[-1].order_key if found.plays else None
    if last is not None and added and added[0].order_key <= last:
        return None
    builder, tally = found.builder, found.tally
    if len(builder.plays) != len(found.plays) or tally.count != len(found.plays):
        return None                                # another request went on from them
    plays = found.plays + added
    builder.extend(added)
    tally.extend(added)
    name_of = {**found.name_of, **member_names(session, group.id)}
    for one in added:
        for line in one.lines:
            name_of.setdefault(line.player_id, line.name)
    return Summary(version, plays, builder.ladders(), name_of, builder, tally)


def forget(engine: Engine | None = None) -> None:
    """Drop every cached summary (of one engine, or all): for tests and benchmarks."""
    with _LOCK:
        if engine is None:
            _CACHES.clear()
        else:
            _CACHES.pop(engine, None)
