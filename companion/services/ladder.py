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
* **Rebuild.** The ladder is never edited in place: it is the history rated from the start, so
  a void, an unvoid, a correction, a merge or an import of older plays always gives the same
  ladder as if history had been that way from the start. Plays added after the last one rated
  continue the rating where it was (:class:`LadderBuilder`; the same numbers). What is
  computed is kept per group and history version (:mod:`.group_cache`).
* **Arithmetic.** :func:`rate_singles` is openskill's update for one-player teams, operation
  for operation (the tests compare the numbers with ``==``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Sequence

from openskill.models import PlackettLuce
from ..collation import sort_key
from .history import Play

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


def rate_singles(mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[int],
                 model: PlackettLuce | None = None) -> tuple[list[float], list[float]]:
    """One play of one-player teams through openskill's Plackett-Luce update, to the last bit.

    ``model.rate([[r] for r in ratings], ranks=ranks)`` gives the same numbers (the tests
    compare them with ``==``), but copies every rating, draws a uuid for each and checks its
    arguments, which made it cost four times the arithmetic. This is that arithmetic, in
    openskill's order of operations (Weng and Lin 2011, algorithm 4): sigma widened by tau,
    teams sorted by rank (stable), ``c``, the sums over teams ranked no better, then each
    team's omega and delta; a one-player team's mu and sigma are its player's."""
    model = model or MODEL
    count = len(mus)
    order = sorted(range(count), key=ranks.__getitem__)
    tau = model.tau
    tau_squared = tau * tau
    kappa = model.kappa
    beta_squared = model.beta ** 2
    sigma = [math.sqrt(sigmas[i] * sigmas[i] + tau_squared) for i in order]
    mu = [0.0 + mus[i] * 1.0 for i in order]
    rank = [int(ranks[i]) for i in order]
    sigma_squared = [0.0 + (s * 1.0) ** 2 for s in sigma]
    collective = 0.0
    for value in sigma_squared:
        collective += value + beta_squared
    c = math.sqrt(collective)
    exps = [math.exp(m / c) for m in mu]
    sum_q = [0.0] * count
    for q in range(count):
        first = True
        for i in range(count):
            if rank[i] >= rank[q]:
                if first:
                    sum_q[q] = exps[i]
                    first = False
                else:
                    sum_q[q] += exps[i]
    tied = [rank.count(r) for r in rank]
    new_mu = [0.0] * count
    new_sigma = [0.0] * count
    for i in range(count):
        omega = 0.0
        delta = 0.0
        e = exps[i]
        rank_i = rank[i]
        for q in range(count):
            share = e / sum_q[q]
            if rank[q] <= rank_i:
                delta += share * (1 - share) / tied[q]
                if q == i:
                    omega += (1 - share) / tied[q]
                else:
                    omega -= share / tied[q]
        variance = sigma_squared[i]
        omega *= variance / c
        delta *= variance / c**2
        delta *= math.sqrt(variance) / c
        s = sigma[i]
        ratio = s**2 / variance
        new_mu[order[i]] = mu[i] + ratio * omega
        new_sigma[order[i]] = s * math.sqrt(max(1 - ratio * delta, kappa))
    return new_mu, new_sigma


class LadderBuilder:
    """The ladders of a history, built play by play: :meth:`extend` with the next plays (oldest
    first), :meth:`ladders` for the result so far. Extending with later plays gives exactly
    what a rebuild of the whole history gives (the update only reads ratings before it)."""

    def __init__(self, model: PlackettLuce | None = None):
        self.model = model or MODEL
        if self.model.balance or self.model.limit_sigma:
            raise ValueError("the ladder uses Plackett-Luce without balance or limit_sigma")
        self.plays: list[Play] = []
        self.overall: dict[int, tuple[float, float]] = {}
        self.games: dict[str, dict[int, tuple[float, float]]] = {}
        self.raw_timeline: dict[int, list] = {}
        self.game_counts: dict[tuple[str, int], int] = {}
        self.rated = 0

    def extend(self, plays: Sequence[Play]) -> "LadderBuilder":
        model = self.model
        fresh = (model.mu, model.sigma)
        overall, games, raw_timeline = self.overall, self.games, self.raw_timeline
        game_counts = self.game_counts
        index = len(self.plays)
        self.plays.extend(plays)
        for index, one in enumerate(plays, index):
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
            before = [overall.get(p, fresh) for p in ids]
            after_mu, after_sigma = rate_singles([b[0] for b in before], [b[1] for b in before],
                                                 ranks, model)
            before = [in_game.get(p, fresh) for p in ids]
            game_mu, game_sigma = rate_singles([b[0] for b in before], [b[1] for b in before],
                                               ranks, model)
            for p, mu, sigma, g_mu, g_sigma in zip(ids, after_mu, after_sigma, game_mu,
                                                   game_sigma):
                overall[p] = (mu, sigma)
                in_game[p] = (g_mu, g_sigma)
                steps = raw_timeline.get(p)
                if steps is None:
                    steps = raw_timeline[p] = []
                # plain numbers only: tuples of atoms leave the garbage collector's lists,
                # which keeps a 100 000-play rebuild from slowing down as the history grows
                steps.append((index, mu, sigma, g_mu, g_sigma))
                key = (one.game, p)
                game_counts[key] = game_counts.get(key, 0) + 1
            self.rated += 1
        return self

    def ladders(self) -> Ladders:
        """The ladders so far (a snapshot: later :meth:`extend` calls do not change it)."""
        counts = self.game_counts
        raw = self.raw_timeline
        return Ladders(
            overall={p: Rating(mu, sigma, len(raw[p])) for p, (mu, sigma) in self.overall.items()},
            games={game: {p: Rating(mu, sigma, counts[(game, p)])
                          for p, (mu, sigma) in table.items()}
                   for game, table in self.games.items()},
            timeline=Timeline(self.plays, raw, len(self.plays)),
            rated_plays=self.rated)


def rebuild(plays: Sequence[Play], model: PlackettLuce | None = None) -> Ladders:
    """Rate ``plays`` (oldest first) from scratch: the overall ladder and one per game."""
    return LadderBuilder(model).extend(plays).ladders()


class Timeline(Mapping[int, Sequence[Step]]):
    """Each player's Steps, built when first asked for (a page wants one player's, and building
    all of them would cost a 100 000-play rebuild a third of its time)."""

    def __init__(self, plays: Sequence[Play], raw: dict[int, list], count: int):
        self._plays = plays         # the builder's lists, which later plays only lengthen:
        self._raw = raw             # a step is shown when its play is one of the first count
        self._count = count
        self._built: dict[int, list[Step]] = {}
        self._players = [p for p, steps in raw.items() if steps and steps[0][0] < count]

    def __getitem__(self, player_id: int) -> Sequence[Step]:
        if player_id not in self._built:
            steps = self._raw[player_id]          # KeyError for a player never rated
            if not steps or steps[0][0] >= self._count:
                raise KeyError(player_id)
            if steps[-1][0] >= self._count:
                steps = [step for step in steps if step[0] < self._count]
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
        return iter(self._players)

    def __len__(self) -> int:
        return len(self._players)


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
