"""The group ladder: openskill's Plackett-Luce ratings, per game and across all games.

Rules (the pages and the API show exactly this):

* **Input.** The group's counted plays (:mod:`.history`: finished, not voided), oldest first.
  Every play updates two ladders: its game's and the overall one. A play with fewer than two
  seats rates nobody. The ranks are the Results' ranks (1 = won; tied players share a rank and
  openskill treats them as a draw between them).
* **Model.** ``openskill.models.PlackettLuce()`` with its default parameters (mu 25, sigma
  25/3, beta 25/6, tau 25/300). Everyone starts at the model's default rating.
* **Shown value.** The API's ``rating`` is the *ordinal*, ``mu - 3·sigma`` (openskill's
  ``ordinal()``): a cautious estimate that rises as a player's rating becomes certain. The
  pages show :func:`points` instead (mu on a scale where everyone starts at 1000, never
  negative), settled players first and those still provisional apart, each by points
  (:func:`display_sections`): a newcomer who wins their first play leads the settling ones.
* **Provisional.** A rating is provisional while the player has fewer than
  :data:`PROVISIONAL_MIN_PLAYS` (5) rated plays in that ladder, or its sigma is above
  :data:`PROVISIONAL_MAX_SIGMA` (7.5; a newcomer starts at 8.33 and a regular 4-player group
  gets below 7.5 after about five plays). The pages mark it; the Pharaoh title ignores it.
* **Order.** Higher ordinal first; equal ordinals by higher mu, then more rated plays, then
  name (case-insensitive), then player id — so the order is total and stable.
* **Rebuild.** The ladder is never edited in place: it is recomputed from the whole history, so
  a void, an unvoid, a correction, a merge or an import of older plays always gives the same
  ladder as if history had been that way from the start. The last result is cached per group
  and reused only when the loaded history is *equal* to the one it was computed from.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Sequence

from openskill.models import PlackettLuce
from sqlmodel import Session

from ..collation import sort_key
from .history import Play, load_plays

PROVISIONAL_MIN_PLAYS = 5
PROVISIONAL_MAX_SIGMA = 7.5
OVERALL = "overall"

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one ladder after their last rated play."""

    mu: float
    sigma: float
    plays: int

    @property
    def ordinal(self) -> float:
        """mu − 3·sigma, as openskill's ``ordinal()``."""
        return self.mu - 3.0 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.plays < PROVISIONAL_MIN_PLAYS or self.sigma > PROVISIONAL_MAX_SIGMA


@dataclass(frozen=True, slots=True)
class Step:
    """A point of a player's rating history: their ratings right after one play."""

    table_id: str
    played_at: datetime
    game: str
    overall: Rating
    in_game: Rating


@dataclass(frozen=True)
class Ladders:
    """Every ladder of a history: ``overall``, ``games[game]``, and each player's ``timeline``."""

    overall: Mapping[int, Rating]
    games: Mapping[str, Mapping[int, Rating]]
    timeline: Mapping[int, Sequence[Step]]
    rated_plays: int

    def ratings(self, game: str | None = None) -> Mapping[int, Rating]:
        """The overall ladder (``game`` None or "overall") or one game's (empty if unplayed)."""
        if game is None or game == OVERALL:
            return self.overall
        return self.games.get(game, {})


def rebuild(plays: Sequence[Play], model: PlackettLuce | None = None) -> Ladders:
    """Rate ``plays`` (oldest first) from scratch: the overall ladder and one per game."""
    model = model or MODEL
    rate = model.rate
    fresh = model.rating
    overall: dict = {}
    games: dict[str, dict] = {}
    raw_timeline: dict[int, list] = {}
    rated = 0
    for index, one in enumerate(plays):
        lines = one.lines
        if len(lines) < 2:
            continue
        ids = [line.player_id for line in lines]
        if len(set(ids)) != len(ids):       # one person in two seats cannot be rated
            continue
        ranks = [line.rank for line in lines]
        in_game = games.get(one.game)
        if in_game is None:
            in_game = games[one.game] = {}
        after_overall = rate([[overall[p] if p in overall else fresh()] for p in ids],
                             ranks=ranks)
        after_game = rate([[in_game[p] if p in in_game else fresh()] for p in ids],
                          ranks=ranks)
        for p, (o,), (g,) in zip(ids, after_overall, after_game):
            overall[p] = o
            in_game[p] = g
            steps = raw_timeline.get(p)
            if steps is None:
                steps = raw_timeline[p] = []
            # plain numbers only: tuples of atoms leave the garbage collector's lists, which
            # keeps a 100 000-play rebuild from slowing down as the history grows
            steps.append((index, o.mu, o.sigma, g.mu, g.sigma))
        rated += 1
    return _finish(plays, overall, games, raw_timeline, rated)


class Timeline(Mapping[int, Sequence[Step]]):
    """Each player's Steps, built when first asked for (a page wants one player's, and building
    all of them would cost a 100 000-play rebuild a third of its time)."""

    def __init__(self, plays: Sequence[Play], raw: dict[int, list]):
        self._plays = plays
        self._raw = raw
        self._built: dict[int, list[Step]] = {}

    def __getitem__(self, player_id: int) -> Sequence[Step]:
        if player_id not in self._built:
            steps = self._raw[player_id]          # KeyError for a player never rated
            out = []
            game_counts: dict[str, int] = {}
            for count, (index, mu, sigma, game_mu, game_sigma) in enumerate(steps, 1):
                one = self._plays[index]
                game_counts[one.game] = game_counts.get(one.game, 0) + 1
                out.append(Step(one.table_id, one.played_at, one.game, Rating(mu, sigma, count),
                                Rating(game_mu, game_sigma, game_counts[one.game])))
            self._built[player_id] = out
        return self._built[player_id]

    def __iter__(self):
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def _finish(plays: Sequence[Play], overall: dict, games: dict[str, dict],
            raw_timeline: dict[int, list], rated: int) -> Ladders:
    """Turn openskill's rating objects into Ratings with play counts."""
    game_counts: dict[tuple[str, int], int] = {}
    for player_id, steps in raw_timeline.items():
        for step in steps:
            key = (plays[step[0]].game, player_id)
            game_counts[key] = game_counts.get(key, 0) + 1
    return Ladders(
        overall={p: Rating(r.mu, r.sigma, len(raw_timeline[p])) for p, r in overall.items()},
        games={game: {p: Rating(r.mu, r.sigma, game_counts[(game, p)]) for p, r in table.items()}
               for game, table in games.items()},
        timeline=Timeline(plays, raw_timeline), rated_plays=rated)


# --------------------------------------------------------------------------------------------
# Standings: the ladder as rows for a page
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a ladder page."""

    position: int            # 1-based place in the order described in the module docstring
    player_id: int
    name: str
    ordinal: float
    mu: float
    sigma: float
    plays: int
    provisional: bool

    def as_dict(self) -> dict:
        return {"position": self.position, "player_id": self.player_id, "name": self.name,
                "rating": round(self.ordinal, 2), "mu": round(self.mu, 4),
                "sigma": round(self.sigma, 4), "plays": self.plays,
                "provisional": self.provisional}


def standings(ratings: Mapping[int, Rating], names: Mapping[int, str]) -> list[Standing]:
    """Ratings in ladder order (ordinal, mu, plays, name, id), numbered from 1."""
    def key(item: tuple[int, Rating]):
        player_id, rating = item
        return (-rating.ordinal, -rating.mu, -rating.plays,
                sort_key(names.get(player_id, "")), player_id)

    return [Standing(position, player_id, names.get(player_id, ""), rating.ordinal, rating.mu,
                     rating.sigma, rating.plays, rating.provisional)
            for position, (player_id, rating) in enumerate(sorted(ratings.items(), key=key), 1)]


# --------------------------------------------------------------------------------------------
# The ladder as players read it: points, settled players first, settling ones apart
# --------------------------------------------------------------------------------------------

POINTS_PER_MU = 40       # a newcomer's mu of 25 shows as 1000 points


def points(mu: float) -> int:
    """The rating shown on the pages: openskill's skill estimate (mu) on a 0-based scale where
    everyone starts at 1000; never negative."""
    return max(0, round(mu * POINTS_PER_MU))


def display_sections(rows: Sequence[Mapping], limit: int | None = None) -> dict[str, Any]:
    """Standing rows (``Standing.as_dict()``) split for a page: ``settled`` players (no longer
    provisional), numbered from 1, then ``settling`` ones (too few plays to be sure), each
    ordered by points (the skill estimate, so the winner of a first game leads), then more
    plays, then name. ``limit`` keeps the first rows of each section."""
    def order(row: Mapping):
        return (-row["mu"], -row["plays"], sort_key(row["name"]), row["player_id"])

    def shown(row: Mapping) -> dict:
        return {**row, "points": points(row["mu"]),
                "spread": round(3 * row["sigma"] * POINTS_PER_MU)}

    settled = sorted((r for r in rows if not r["provisional"]), key=order)[:limit]
    settling = sorted((r for r in rows if r["provisional"]), key=order)[:limit]
    return {"settled": [{**shown(r), "position": i} for i, r in enumerate(settled, 1)],
            "settling": [{**shown(r), "position": None} for r in settling],
            "min_plays": PROVISIONAL_MIN_PLAYS}


# --------------------------------------------------------------------------------------------
# Per-group cache: reused only for an identical history
# --------------------------------------------------------------------------------------------

_CACHE: "OrderedDict[int, tuple[tuple[Play, ...], Ladders]]" = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 32


def ladders_for(plays: Sequence[Play], cache_key: int | None = None) -> Ladders:
    """``rebuild(plays)``, reusing the cached result when ``plays`` is exactly what it was
    computed from (so a stale answer is impossible: any change in history misses)."""
    history = tuple(plays)
    if cache_key is not None:
        with _CACHE_LOCK:
            cached = _CACHE.get(cache_key)
        if cached is not None and cached[0] == history:
            return cached[1]
    ladders = rebuild(history)
    if cache_key is not None:
        with _CACHE_LOCK:
            _CACHE[cache_key] = (history, ladders)
            _CACHE.move_to_end(cache_key)
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return ladders


def group_ladders(session: Session, group_id: int) -> tuple[list[Play], Ladders]:
    """The group's counted plays and the ladders rebuilt from them."""
    plays = load_plays(session, group_id)
    return plays, ladders_for(plays, cache_key=group_id)
