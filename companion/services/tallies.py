"""Wins and meetings counted play by play: what the Champion and Nemesis titles are chosen from.

A :class:`Tally` is extended with plays, oldest first; extending it with later plays gives the
same counts as counting the whole history again, so a group's titles follow a new play without
reading the history again (:mod:`.group_cache`). The rules are :mod:`.stats`' (its docstring
defines both titles, ties included); :func:`.stats.champion` and :func:`.stats.nemeses` are
this tally over a list of plays.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Mapping

from .history import Play

NEMESIS_MIN_WINS = 3


def holder(name_of: Mapping[int, str], player_id: int, one: Play) -> dict[str, Any]:
    """A title or record holder: who, and the play where they got it."""
    return {"player_id": player_id, "name": name_of.get(player_id, ""),
            "table_id": one.table_id, "played_at": one.played_at}


class Tally:
    """Per game and player: wins, plays, when the last win came; per player and opponent:
    plays together, times beaten by them, when last beaten."""

    def __init__(self) -> None:
        self.count = 0                     # plays counted so far (the next play's index)
        self.wins: dict[str, dict[int, list]] = {}      # [wins, plays, last win index, play]
        self.meetings: dict[int, dict[int, list]] = {}  # [together, beaten, last beaten]

    def extend(self, plays: Iterable[Play]) -> "Tally":
        wins, meetings = self.wins, self.meetings
        for one in plays:
            index = self.count
            self.count += 1
            table = wins.get(one.game)
            if table is None:
                table = wins[one.game] = {}
            lines = one.lines
            for mine in lines:
                player_id = mine.player_id
                entry = table.get(player_id)
                if entry is None:
                    entry = table[player_id] = [0, 0, -1, None]
                entry[1] += 1
                if mine.rank == 1:
                    entry[0] += 1
                    entry[2] = index
                    entry[3] = one
                against = meetings.get(player_id)
                if against is None:
                    against = meetings[player_id] = {}
                for line in lines:
                    if line.player_id == player_id:
                        continue
                    met = against.get(line.player_id)
                    if met is None:
                        met = against[line.player_id] = [0, 0, -1]
                    met[0] += 1
                    if line.rank < mine.rank:
                        met[1] += 1
                        met[2] = index
        return self

    def champion(self, game: str, name_of: Mapping[int, str]) -> dict[str, Any] | None:
        """Most wins in ``game``; ties by fewer plays, then by who reached that number of wins
        first (their last win is the earlier play); reached in the same play: shared."""
        table = self.wins.get(game, {})
        winners = [p for p, entry in table.items() if entry[0]]
        if not winners:
            return None

        def key(player_id: int):
            wins, plays, reached, _play = table[player_id]
            return (-wins, plays, reached)
        best = min(key(p) for p in winners)
        holders = sorted(p for p in winners if key(p) == best)
        return {"value": table[holders[0]][0], "plays": table[holders[0]][1],
                "holders": [holder(name_of, p, table[p][3]) for p in holders]}

    def nemesis(self, player_id: int, name_of: Mapping[int, str]) -> dict[str, Any] | None:
        """``player_id``'s Nemesis, or None (:func:`choose_nemesis`)."""
        return choose_nemesis(self.meetings.get(player_id, {}), name_of)

    def nemeses(self, name_of: Mapping[int, str]) -> dict[int, dict[str, Any]]:
        """Every player's Nemesis (those who have one), by player id."""
        out = {}
        for player_id in sorted(self.meetings):
            found = self.nemesis(player_id, name_of)
            if found is not None:
                out[player_id] = found
        return out


def choose_nemesis(against: Mapping[int, Any], name_of: Mapping[int, str]
                   ) -> dict[str, Any] | None:
    """The Nemesis among a player's opponents, ``against[opponent] = (plays together, times
    they beat the player, index of the last play they did)``: an opponent who beat the player
    at least :data:`NEMESIS_MIN_WINS` times, in more than half their plays together; several:
    most wins, then the higher share, then who beat them most recently; the same play:
    shared."""
    candidates = [p for p, (together, beaten, _last) in against.items()
                  if beaten >= NEMESIS_MIN_WINS and 2 * beaten > together]
    if not candidates:
        return None

    def key(p: int):
        together, beaten, last = against[p]
        return (beaten, Fraction(beaten, together), last)
    best = max(key(p) for p in candidates)
    holders = sorted(p for p in candidates if key(p) == best)
    together, beaten, _last = against[holders[0]]
    return {"wins": beaten, "plays": together, "share": round(beaten / together, 4),
            "holders": [{"player_id": p, "name": name_of.get(p, "")} for p in holders]}
