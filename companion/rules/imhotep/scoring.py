"""Imhotep scoring: the site rules that score, the final scoring and the winner.

Implements spec shared/rules/imhotep.md:

* §2.5 Pyramid A placement points (:func:`pyramid_a_points`), Temple A visibility
  (:func:`temple_visible`) and round scoring (:func:`temple_round_points`, §5.2), Burial
  Chamber A groups (:func:`burial_chamber_groups`, :func:`group_points`);
* §5.3 final scoring in its order: burial chamber, obelisks (:func:`obelisk_a_points` with
  :func:`rank_points`: "at least one stone" to take part, ties share the sum rounded down),
  decorations (:func:`decoration_points`, 1 per 3 stones), statues (:func:`statue_points`),
  unused blue cards (:func:`blue_card_points`), Wrath of the Pharaoh (§6.4,
  :func:`wrath_penalty`);
* §6.1 B sides: Burial Chamber B row majorities (:func:`burial_chamber_b_points`), Obelisks B
  single stones and, with the option ``obelisks_b_score_at_end``, towers
  (:func:`obelisk_b_points`);
* §5.4 the winner: most points, then most stones on the sled, then shared
  (:data:`TIEBREAK_MOST_SLED_STONES`).

Both score-only mode (final.py) and the live referee (tally.py) build a :class:`GameTally`
and call :func:`score_game`, so the same rules produce every Scoresheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Mapping, Sequence, TypeVar

from ..base import Assumption, Category, PlayerScore, Scoresheet, TieBreak, competition_ranks
from . import printed as t

T = TypeVar("T", bound=Hashable)

# Reasons attached to categories (stable ids; the web layer labels them, printed.REASON_LABELS).
SHARED = "shared"                       # §5.3 step 2: tied ranks share, rounded down
NO_STONES = "no_stones"                 # §5.3 step 2: "at least one stone" to take part
MISSING_MONUMENT = "missing_monument"   # §6.4 Wrath of the Pharaoh
TIEBREAK_MOST_SLED_STONES = "imhotep.most_sled_stones"   # §5.4


# --------------------------------------------------------------------------------------------
# Site rules
# --------------------------------------------------------------------------------------------


def group_points(size: int) -> int:
    """Points of a connected group of ``size`` stones (§2.5): 1, 3, 6, 10, 15, then +2 each."""
    if size <= 5:
        return t.GROUP_POINTS[size]
    return t.GROUP_POINTS[5] + t.GROUP_POINTS_BEYOND * (size - 5)


def pyramid_a_points(placement: int) -> int:
    """Points of the ``placement``-th stone (1-based) on Pyramid A; beside the board 1 (§2.5)."""
    if placement <= len(t.PYRAMID_A_VALUES):
        return t.PYRAMID_A_VALUES[placement - 1]
    return t.PYRAMID_OVERFLOW_POINTS


def temple_visible(stones: Sequence[T], width: int) -> list[T]:
    """The top stone of each Temple position, left to right (§2.5): stone n lies at position
    n mod width, so the visible ones are the last min(n, width) placed."""
    count = len(stones)
    visible = []
    for position in range(min(count, width)):
        # the last stone index ≡ position (mod width)
        last = position + ((count - 1 - position) // width) * width
        visible.append(stones[last])
    return visible


def temple_round_points(stones: Sequence[T], width: int) -> dict[T, int]:
    """Temple A at the end of every round (§5.2): 1 point per visible stone to its owner."""
    points: dict[T, int] = {}
    for owner in temple_visible(stones, width):
        points[owner] = points.get(owner, 0) + t.TEMPLE_POINTS_PER_VISIBLE_STONE
    return points


def burial_chamber_groups(stones: Sequence[T]) -> list[tuple[T, int]]:
    """Every orthogonally connected same-owner group as (owner, size), in the order of each
    group's first stone (§2.5, §5.3 step 1). Stone n lies in row n mod 3, column n div 3;
    diagonal contact does not connect."""
    rows = t.BURIAL_CHAMBER_ROWS
    seen = [False] * len(stones)
    groups = []
    for start, owner in enumerate(stones):
        if seen[start]:
            continue
        seen[start] = True
        size, todo = 0, [start]
        while todo:
            index = todo.pop()
            size += 1
            row = index % rows
            neighbours = [index - rows, index + rows]          # left and right
            if row > 0:
                neighbours.append(index - 1)                  # above
            if row < rows - 1:
                neighbours.append(index + 1)                  # below
            for other in neighbours:
                if 0 <= other < len(stones) and not seen[other] and stones[other] == owner:
                    seen[other] = True
                    todo.append(other)
        groups.append((owner, size))
    return groups


def burial_chamber_a_points(stones: Sequence[T], owners: Sequence[T]
                            ) -> list[tuple[int, list[int]]]:
    """Burial Chamber A per owner (§5.3 step 1): every group scores group_points(size).
    Returns (points, group sizes largest first) in the order of ``owners``."""
    sizes: dict[T, list[int]] = {owner: [] for owner in owners}
    for owner, size in burial_chamber_groups(stones):
        if owner in sizes:
            sizes[owner].append(size)
    return [(sum(group_points(s) for s in sizes[owner]), sorted(sizes[owner], reverse=True))
            for owner in owners]


def rank_points(values: Sequence[int], points: Sequence[int]) -> list[tuple[int, str | None]]:
    """Rank points for ``values`` (higher is better), as (points, reason) per value.

    §5.3 step 2 (Obelisks A) and §6.1 (Burial Chamber B rows): only values of at least 1 take
    part (reason NO_STONES otherwise); a group of g tied values on ranks r..r+g-1 shares
    floor(sum(points[r..r+g-1]) / g) each (reason SHARED); ranks beyond the table score 0.
    """
    taking = sorted((v for v in values if v > 0), reverse=True)
    result: list[tuple[int, str | None]] = []
    for value in values:
        if value <= 0:
            result.append((0, NO_STONES))
            continue
        rank = sum(1 for other in taking if other > value)
        tied = taking.count(value)
        total = sum(points[r] for r in range(rank, rank + tied) if r < len(points))
        result.append((total // tied, SHARED if tied > 1 else None))
    return result


def obelisk_a_points(heights: Sequence[int]) -> list[tuple[int, str | None]]:
    """Obelisks A (§5.3 step 2) with the rank points of the player count (§2.4)."""
    return rank_points(heights, t.OBELISK_A_RANK_POINTS[len(heights)])


def burial_chamber_rows(stones: Sequence[T]) -> list[list[T]]:
    """The stones of each of the three rows (placement index mod 3, §2.5)."""
    return [list(stones[row::t.BURIAL_CHAMBER_ROWS]) for row in range(t.BURIAL_CHAMBER_ROWS)]


def burial_chamber_b_points(stones: Sequence[T], owners: Sequence[T],
                            row_points: Sequence[int]) -> list[tuple[int, list[int], bool]]:
    """Burial Chamber B (§6.1): each row scores separately by majority of stones (adjacency
    irrelevant), rank points ``row_points`` shared as on Obelisks A. Returns per owner
    (points, points per row, whether a tie was shared)."""
    per_owner: list[list[int]] = [[] for _ in owners]
    shared = [False] * len(owners)
    for row in burial_chamber_rows(stones):
        counts = [row.count(owner) for owner in owners]
        for index, (points, reason) in enumerate(rank_points(counts, row_points)):
            per_owner[index].append(points)
            shared[index] = shared[index] or reason == SHARED
    return [(sum(rows), rows, tie) for rows, tie in zip(per_owner, shared)]


def obelisk_b_points(singles: int, towers: Sequence[int], score_at_end: bool) -> int:
    """Obelisks B at game end (§6.1): 1 point per stone not in a tower; the towers scored at
    once during play, unless option ``obelisks_b_score_at_end`` (§6.5) defers them to here."""
    return singles * t.OBELISK_B_SINGLE_POINTS + (sum(towers) if score_at_end else 0)


def decoration_points(stones_at_site: int) -> int:
    """One decoration card (§2.6, §5.3 step 3): 1 point per 3 stones of every colour at its
    site, rounded down (E12: covered, beside-the-board and waiting stones all count)."""
    return stones_at_site // t.STONES_PER_DECORATION_POINT


def statue_points(cards: int) -> int:
    """Statues held (§2.6): 1, 3, 6, 10, 15, then +2 per card beyond 5."""
    return group_points(cards)


def blue_card_points(cards: int) -> int:
    """Unused blue cards (§5.3 step 4): 1 point each."""
    return cards * t.BLUE_CARD_POINTS


def missing_monuments(delivered_to: frozenset[str] | set[str]) -> list[str]:
    """The monuments (Market excluded) a player never delivered a stone to (§6.4)."""
    return [site for site in t.MONUMENTS if site not in delivered_to]


def wrath_penalty(missing: Sequence[str]) -> int:
    """Wrath of the Pharaoh (§6.4): -5 once if any monument is missing; no floor at 0."""
    return -t.WRATH_PENALTY if missing else 0


# --------------------------------------------------------------------------------------------
# The whole game
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerTally:
    """What one player has when the game ends (the score-only document's player entry)."""

    name: str
    colour: str
    track: int                               # the scoring track before final scoring
    obelisk: int                             # A: tower height; B: stones not in a tower
    cards: Mapping[str, int]                 # kept cards by kind (printed.KEPT_CARDS)
    sled: int                                # stones left on the sled (tie-break)
    delivered_to: frozenset[str]             # monuments this player delivered a stone to
    obelisk_towers: tuple[int, ...] = ()     # B: the values of this player's towers


@dataclass(frozen=True)
class GameTally:
    """Everything final scoring reads (§5.3)."""

    players: tuple[PlayerTally, ...]
    burial_chamber: tuple[str, ...]          # colours in placement order
    site_stones: Mapping[str, int]           # stones of every colour at each monument
    sides: Mapping[str, str]
    wrath_of_pharaoh: bool = False
    obelisks_b_score_at_end: bool = False
    b_values: Mapping[str, Any] = field(default_factory=t.default_b_values)


def final_categories(tally: GameTally) -> list[list[Category]]:
    """The categories of §5.3 per player, in seat order and in the order they are scored."""
    players = tally.players
    colours = [p.colour for p in players]
    if tally.sides.get("burial_chamber") == "B":
        burial = [(points, None, {"rows": rows}, SHARED if tie else None)
                  for points, rows, tie in burial_chamber_b_points(
                      tally.burial_chamber, colours, tally.b_values["burial_chamber_b"])]
    else:
        burial = [(points, None, {"groups": sizes}, None)
                  for points, sizes in burial_chamber_a_points(tally.burial_chamber, colours)]
    if tally.sides.get("obelisks") == "B":
        obelisks = [(obelisk_b_points(p.obelisk, p.obelisk_towers,
                                      tally.obelisks_b_score_at_end), None,
                     {"singles": p.obelisk, "towers": list(p.obelisk_towers)})
                    for p in players]
    else:
        obelisks = [(points, reason, {"height": p.obelisk})
                    for p, (points, reason) in zip(players, obelisk_a_points(
                        [p.obelisk for p in players]))]
    result = []
    for index, player in enumerate(players):
        cards = player.cards
        categories = [Category("track", player.track)]
        b_points, _, b_detail, b_reason = burial[index]
        categories.append(Category("burial_chamber", b_points, reason=b_reason,
                                   detail=b_detail))
        o_points, o_reason, o_detail = obelisks[index]
        categories.append(Category("obelisks", o_points, reason=o_reason, detail=o_detail))
        for card in t.DECORATION_CARDS:          # E13: each card scores separately
            stones = tally.site_stones.get(t.DECORATION_SITE[card], 0)
            held = cards.get(card, 0)
            categories.append(Category(card, held * decoration_points(stones),
                                       detail={"cards": held, "stones": stones}))
        statues = cards.get("statue", 0)
        categories.append(Category("statues", statue_points(statues),
                                   detail={"cards": statues}))
        blue = sum(cards.get(card, 0) for card in t.BLUE_CARDS)
        categories.append(Category("blue_cards", blue_card_points(blue), detail={"cards": blue}))
        if tally.wrath_of_pharaoh:
            missing = missing_monuments(player.delivered_to)
            categories.append(Category("wrath", wrath_penalty(missing),
                                       reason=MISSING_MONUMENT if missing else None,
                                       detail={"missing": missing}))
        result.append(categories)
    return result


def rank_players(names: Sequence[str], categories: Sequence[Sequence[Category]],
                 sleds: Sequence[int], complete: bool,
                 assumed: Sequence[Assumption] = ()) -> Scoresheet:
    """Totals and ranks (§5.4): most points; a tie goes to the most stones on the sled; if
    that ties too, the players share the rank. ``assumed``: the unverified defaults the
    result relied on (printed.score_assumptions)."""
    totals = [sum(c.points for c in player) for player in categories]
    ranks = competition_ranks([(totals[p], sleds[p]) for p in range(len(names))])
    players = []
    for p, name in enumerate(names):
        tied = any(totals[q] == totals[p] for q in range(len(names)) if q != p)
        players.append(PlayerScore(
            name=name, categories=tuple(categories[p]), total=totals[p], rank=ranks[p],
            tiebreak=TieBreak(TIEBREAK_MOST_SLED_STONES, sleds[p]) if tied else None))
    return Scoresheet("imhotep", tuple(players), complete, tuple(assumed))


def score_game(tally: GameTally, assumed: Sequence[Assumption] = ()) -> Scoresheet:
    """Score a finished game (§5.3, §5.4)."""
    return rank_players([p.name for p in tally.players], final_categories(tally),
                        [p.sled for p in tally.players], complete=True, assumed=assumed)


def score_track_only(names: Sequence[str], tracks: Sequence[int], sleds: Sequence[int],
                     assumed: Sequence[Assumption] = ()) -> Scoresheet:
    """A game in progress: only the scoring track so far (leaders ranked as at the end)."""
    return rank_players(names, [[Category("track", track)] for track in tracks], sleds,
                        complete=False, assumed=assumed)
