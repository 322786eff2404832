"""The story of a finished live game (issue 22): the score over the game, its decisive moments,
and the table as it stood after any move.

The story follows the game as it was finally played: the moves in effect at the table's
current version, in log order (a move taken back is not part of it). It is built in one pass
over that line and kept per (table, version) in a small cache, with a snapshot of the state
every :data:`SNAPSHOT_EVERY` moves, so the state after any move is at most that many moves
from a snapshot: a request never replays the game from its start once the story is built.

What it reads of a game is the seam's (``chapter``, ``moments``, ``score``, ``view``:
:mod:`companion.rules.story`); the one moment it adds itself is a change of leader at the end
of a chapter. Only a finished table has a story, so nothing of a game in progress is told.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from sqlmodel import Session

from ..models import GameTable, TableStatus
from ..rules import get_ruleset
from ..rules.base import N_, Moment
from ..rules.story import told
from .live_tables import TableProblem, in_effect, move_log, starting_state

SNAPSHOT_EVERY = 16          # the most moves a request applies to show a step of the replay
MAX_POINTS = 40              # points of the score chart when a game counts no chapters
_CACHE_SIZE = 32

LEAD = N_("%(player)s takes the lead")
WIN = N_("%(player)s wins with %(points)d points")


@dataclass(frozen=True)
class Step:
    """One move of the game as played: the version it made, who made it, and the move."""

    version: int
    seat: int
    move: Mapping[str, Any]


@dataclass
class Story:
    """What the story page and the report show of one finished game."""

    names: list[str]                               # the Scoresheet's lines (seats, a rival)
    chapters: list[tuple[int | None, int]]         # (chapter or None, step) of each point
    totals: list[list[int]]                        # per point, each line's total so far
    # (step, the table version shown beside it or None, moment), in game order
    moments: list[tuple[int, int | None, Moment]]
    steps: list[Step]                              # step n is the state after n moves
    snapshots: dict[int, Any] = field(default_factory=dict)   # step -> state

    @property
    def last(self) -> int:
        return len(self.steps)


_CACHE: "OrderedDict[tuple[str, int], Story]" = OrderedDict()
_LOCK = threading.Lock()


def _played(session: Session, table: GameTable) -> list[Step]:
    return [Step(m.version, m.seat, m.move) for m in move_log(session, table)
            if in_effect(m, table.version)]


def _leaders(totals: Sequence[int]) -> set[int]:
    best = max(totals, default=None)
    return {i for i, total in enumerate(totals) if total == best}


def build(session: Session, table: GameTable) -> Story:
    """The story of ``table`` at its current version (one pass over the moves it played)."""
    ruleset = get_ruleset(table.game)
    steps = _played(session, table)
    state = starting_state(session, table, ruleset)
    snapshots = {0: state}
    chapters: list[tuple[int | None, int]] = []
    totals: list[list[int]] = []
    moments: list[tuple[int, int, Moment]] = []
    counted = ruleset.chapter(state) is not None
    every = max(1, -(-len(steps) // MAX_POINTS))

    def point(at_state: Any, step: int) -> None:
        sheet = ruleset.score(at_state)
        line = [player.total for player in sheet.players]
        if totals and step > 0:
            before, now = _leaders(totals[-1]), _leaders(line)
            if len(now) == 1 and now != before and any(line):
                leader = next(iter(now))
                version = steps[step - 1].version
                moments.append((step, version, Moment(LEAD, {"player": sheet.players[leader]
                                                             .name}, kind="lead")))
        chapters.append((ruleset.chapter(at_state) if counted else None, step))
        totals.append(line)

    point(state, 0)
    for number, step in enumerate(steps, start=1):
        after = ruleset.apply(state, step.seat, step.move)
        for moment in ruleset.moments(state, after, step.seat, step.move):
            moments.append((number, step.version, moment))
        if counted and ruleset.chapter(after) != ruleset.chapter(state):
            point(state, number - 1)          # the chapter ended with the move before
        elif not counted and number % every == 0 and number < len(steps):
            point(after, number)
        if number % SNAPSHOT_EVERY == 0:
            snapshots[number] = after
        state = after
    point(state, len(steps))
    sheet = ruleset.score(state)
    for player in sheet.players:
        if player.rank == 1 and steps:
            moments.append((len(steps), steps[-1].version,
                            Moment(WIN, {"player": player.name, "points": player.total},
                                   kind="win")))
    return Story(names=[player.name for player in sheet.players], chapters=chapters,
                 totals=totals, steps=steps, snapshots=snapshots,
                 moments=[(at, shown_version(at, version), moment)
                          for at, version, moment in told(moments)])


def shown_version(step: int, version: int) -> int | None:
    """The table version worth showing beside move ``step`` (story page, replay bar, report):
    only where an undo made it differ from the move's number, so that an uncorrected game
    reads "Move 37", not "Move 37 (version 37)"."""
    return version if version != step else None


def story_of(session: Session, table: GameTable) -> Story:
    """The story of a finished table, built once per version (TableProblem 404 when the table
    is not finished: a game in progress has no story yet)."""
    if table.status != TableStatus.FINISHED.value:
        raise TableProblem(404, "story.not_finished",
                           N_("The story of a game is told once the game is over."))
    key = (table.id, table.version)
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    story = build(session, table)
    with _LOCK:
        _CACHE[key] = story
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return story


def state_after(story: Story, table: GameTable, step: int) -> Any:
    """The state after ``step`` moves (0: the set-up), from the nearest snapshot."""
    ruleset = get_ruleset(table.game)
    base = step - step % SNAPSHOT_EVERY
    state = story.snapshots[base]
    for entry in story.steps[base:step]:
        state = ruleset.apply(state, entry.seat, entry.move)
    return state


def forget() -> None:
    """Empty the cache (tests)."""
    with _LOCK:
        _CACHE.clear()
