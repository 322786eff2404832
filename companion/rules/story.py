"""The story of a game (issue 22): the chapters it is counted in and its decisive moments.

Part of the seam (design.md §2), re-exported by :mod:`.base`. A game says, through its ruleset's ``story`` module (two functions), how its story reads:

- ``chapter(state)``: the number of the round, epoch or turn a state belongs to (the score
  chart has one point per chapter, after its last move), or None where the game does not count
  in chapters (the chart then has one point per move);
- ``moments(before, after, seat, move)``: what a move did that players will remember, as
  :class:`Moment` lines (an English msgid and its parameters, rendered in the reader's language
  like a refusal).

Pure: no Flask, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .messages import render_param


@dataclass(frozen=True)
class Moment:
    """One decisive moment: ``message`` (an English msgid with ``%(name)s`` parameters) and its
    ``params`` (Terms are translated when rendered). ``kind`` groups moments of one sort; with
    ``best`` set, only the moment of its kind with the largest ``size`` is told (the biggest
    auction of a game, say), the earliest of equals."""

    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    kind: str = ""
    size: int = 0
    best: bool = False

    def render(self, gettext: Callable[[str], str] = lambda s: s) -> str:
        params = {key: render_param(value, gettext) for key, value in self.params.items()}
        return gettext(self.message) % params if params else gettext(self.message)


def told(entries: list[tuple]) -> list[tuple]:
    """The moments a story tells, in game order: every entry (a tuple whose last item is a
    :class:`Moment`), except that of each ``best`` kind only the largest moment (the earliest
    of equals) is kept."""
    largest: dict[str, tuple[int, int]] = {}
    for index, entry in enumerate(entries):
        moment = entry[-1]
        if moment.best and (moment.kind not in largest or moment.size > largest[moment.kind][0]):
            largest[moment.kind] = (moment.size, index)
    keep = {index for _size, index in largest.values()}
    return [entry for index, entry in enumerate(entries) if not entry[-1].best or index in keep]
