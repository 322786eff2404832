"""Ra score-only mode: the final-state document, its validation, and its scoring.

The document is a contract (issue 2): per player the holdings at each epoch's scoring (after
disasters; pharaohs and niles are running holdings), the monuments and the suns at the end.
Besides its shape we check what the box makes impossible (spec ra.md §2.2, §2.3), so that a
typing error is caught before it becomes a result.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator, Mapping, Sequence

from ..base import (BoolField, IntField, InvalidDocument, ListField, Listing, N_,
                    ObjectField,
                    RuleViolation, Scoresheet, TextField, check_document)
from . import printed as t
from .scoring import EpochHoldings, ScoringOptions, score_game

EPOCH_SCHEMA = ObjectField("epoch", N_("Epoch"), (
    IntField("gods", N_("Gods")),
    IntField("pharaohs", N_("Pharaohs")),
    IntField("niles", N_("Niles")),
    IntField("floods", N_("Floods")),
    IntField("gold", N_("Gold")),
    ObjectField("civilizations", N_("Civilizations"), tuple(
        IntField(kind, str(t.TILE_LABELS[f"civ_{kind}"])) for kind in t.CIVILIZATION_KINDS)),
))

PLAYER_SCHEMA = ObjectField("player", N_("Player"), (
    TextField("name", N_("Name"), max_length=40),
    ListField("epochs", N_("Epochs"), EPOCH_SCHEMA, min_items=1, max_items=t.EPOCHS,
              required=True, item_label=N_("Epoch %(n)d")),
    ObjectField("monuments", N_("Monuments"), tuple(
        IntField(kind, str(t.TILE_LABELS[f"mon_{kind}"])) for kind in t.MONUMENT_KINDS)),
    ListField("suns", N_("Suns"), IntField("sun", N_("Sun"), default=None),
              item_label=N_("Sun %(n)d")),
))

FINAL_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    ObjectField("options", N_("Options"), (
        BoolField("fame_floor_zero", N_("Fame cannot go below 0"), default=True),
        BoolField("epoch3_single_net", N_("Epoch 3 scored as one net figure"), default=True),
    )),
    ListField("players", N_("Players"), PLAYER_SCHEMA, required=True,
              item_label=N_("Player %(n)d")),
))

PLAYER_COUNTS = (2, 3, 4, 5)


KEPT = ("pharaohs", "niles")    # kinds held from one epoch to the next (each rise: new tiles)


def _player_name(players: Sequence[Mapping[str, Any]], index: int) -> str:
    return players[index]["name"] or f"#{index + 1}"


def _too_many(tile: str, path: str, players: Sequence[Mapping[str, Any]],
              contributions: list[tuple[str, int]]) -> RuleViolation:
    """The box limit, said in what the person typed (issue 10): every player's entries and
    what they add up to — not the running count where the limit is first passed, which
    nobody typed. ``path`` is where that happens, so the message sits beside that input."""
    count = sum(amount for _path, amount in contributions)
    key = path.rsplit(".", 1)[-1]
    typed: dict[int, list[int]] = {}
    for where, _amount in contributions:
        parts = where.split(".")
        player = players[int(parts[1])]
        value = player["epochs"][int(parts[3])][key] if key in KEPT else (
            player["monuments"][key] if parts[2] == "monuments" else
            _at(player, parts[2:]))
        typed.setdefault(int(parts[1]), []).append(value)
    if key in KEPT:
        entries = Listing((_player_name(players, p), " → ".join(map(str, values)))
                          for p, values in typed.items() if any(values))
        message = N_("The box holds only %(limit)d %(tile)s tiles, but the counts entered "
                     "need %(count)d (each rise from one epoch to the next is new tiles): "
                     "%(entries)s.")
    else:
        entries = Listing((_player_name(players, p), sum(values))
                          for p, values in typed.items())
        message = N_("The box holds only %(limit)d %(tile)s tiles, but %(count)d are entered: "
                     "%(entries)s.")
    return RuleViolation("ra.too_many_tiles", message, path, tile=t.TILE_LABELS[tile],
                         limit=t.BOX[tile], count=count, entries=entries)


def _at(node: Any, parts: Sequence[str]) -> int:
    for part in parts:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _over_box(tile: str, contributions: Iterator[tuple[str, int]],
              players: Sequence[Mapping[str, Any]]) -> RuleViolation | None:
    """The box limit of ``tile``, refused at the first place where the running total passes
    it (the field), in the words of :func:`_too_many`."""
    running, place, seen = 0, None, []
    for path, amount in contributions:
        seen.append((path, amount))
        running += amount
        if place is None and running > t.BOX[tile]:
            place = path
    return _too_many(tile, place, players, seen) if place is not None else None


def _epoch_values(players: Sequence[Mapping[str, Any]], epochs: int,
                  get) -> Iterator[tuple[str, int]]:
    """(field path, value) for every player and epoch, epoch by epoch."""
    for e in range(epochs):
        for p, player in enumerate(players):
            yield from get(player["epochs"][e], f"players.{p}.epochs.{e}")


def _drawn(players: Sequence[Mapping[str, Any]], epochs: int,
           key: str) -> Iterator[tuple[str, int]]:
    """Lower bound of tiles drawn for a kept kind (Pharaohs, Niles): the first holding and
    every later increase must be new tiles; decreases are disasters and never come back."""
    for e in range(epochs):
        for p, player in enumerate(players):
            now = player["epochs"][e][key]
            before = player["epochs"][e - 1][key] if e else 0
            yield f"players.{p}.epochs.{e}.{key}", max(0, now - before)


def box_violations(players: Sequence[Mapping[str, Any]], epochs: int) -> list[RuleViolation]:
    """More tiles of a kind than the box holds (spec §2.2), over the whole game.

    Every contribution is a count >= 0 (the clean copy), so the running total passes the box
    count somewhere exactly when the whole total does: the totals are summed first, and the
    place is looked for only for a kind that is over."""
    checks: list[RuleViolation | None] = []
    for tile, key in (("god", "gods"), ("gold", "gold"), ("flood", "floods")):
        if _epoch_total(players, epochs, lambda ep, key=key: ep[key]) > t.BOX[tile]:
            checks.append(_over_box(tile, _epoch_values(
                players, epochs, lambda ep, path, key=key: [(f"{path}.{key}", ep[key])]),
                players))
    for kind in t.CIVILIZATION_KINDS:
        if _epoch_total(players, epochs,
                        lambda ep, kind=kind: ep["civilizations"][kind]) > t.BOX[f"civ_{kind}"]:
            checks.append(_over_box(f"civ_{kind}", _epoch_values(
                players, epochs, lambda ep, path, kind=kind: [
                    (f"{path}.civilizations.{kind}", ep["civilizations"][kind])]), players))
    for tile, key in (("pharaoh", "pharaohs"), ("nile", "niles")):
        if _drawn_total(players, epochs, key) > t.BOX[tile]:
            checks.append(_over_box(tile, _drawn(players, epochs, key), players))
    for kind in t.MONUMENT_KINDS:
        if sum(player["monuments"][kind] for player in players) > t.BOX[f"mon_{kind}"]:
            checks.append(_over_box(f"mon_{kind}", (
                (f"players.{p}.monuments.{kind}", player["monuments"][kind])
                for p, player in enumerate(players)), players))
    return [v for v in checks if v is not None]


def _epoch_total(players: Sequence[Mapping[str, Any]], epochs: int, get) -> int:
    """The sum of ``get(epoch)`` over every player's first ``epochs`` epochs."""
    total = 0
    for player in players:
        for holdings in player["epochs"][:epochs]:
            total += get(holdings)
    return total


def _drawn_total(players: Sequence[Mapping[str, Any]], epochs: int, key: str) -> int:
    """The sum of :func:`_drawn`'s amounts, without their paths."""
    total = 0
    for player in players:
        before = 0
        for holdings in player["epochs"][:epochs]:
            now = holdings[key]
            total += max(0, now - before)
            before = now
    return total


def sun_violations(players: Sequence[Mapping[str, Any]], epochs: int) -> list[RuleViolation]:
    """Suns must be this player count's set: the right number each, in range, no repeats."""
    count = len(players)
    allowed, per_player = t.suns_in_play(count), t.suns_per_player(count)
    seen: dict[int, str] = {}
    found: list[RuleViolation] = []
    for p, player in enumerate(players):
        path = f"players.{p}.suns"
        suns = player.get("suns")
        if suns is None:
            if epochs == t.EPOCHS:
                found.append(RuleViolation(
                    "ra.suns_required", N_("After the third epoch every player's suns are "
                                           "needed."), path))
            continue
        if len(suns) != per_player:
            found.append(RuleViolation(
                "ra.sun_count", N_("With %(players)d players each player holds %(per)d suns."),
                path, players=count, per=per_player))
        for i, sun in enumerate(suns):
            if sun not in allowed:
                found.append(RuleViolation(
                    "ra.sun_out_of_range",
                    N_("With %(players)d players the suns are numbered 1 to %(high)d."),
                    f"{path}.{i}", players=count, high=max(allowed)))
            elif sun in seen:
                found.append(RuleViolation(
                    "ra.duplicate_sun",
                    N_("Sun %(sun)d is entered twice for this player.") if seen[sun] == path
                    else N_("Sun %(sun)d is already held by another player."),
                    f"{path}.{i}", sun=sun))
            else:
                seen[sun] = path
    return found


def game_violations(doc: Mapping[str, Any]) -> list[RuleViolation]:
    """The game's own checks on a document whose shape is already sound."""
    players = doc.get("players", [])
    if len(players) not in PLAYER_COUNTS:
        return [RuleViolation("ra.bad_player_count", N_("Ra is played by 2 to 5 players."),
                              "players", count=len(players))]
    found: list[RuleViolation] = []
    names: dict[str, int] = {}
    for p, player in enumerate(players):
        key = player["name"].casefold()
        if key and key in names:
            found.append(RuleViolation("ra.duplicate_name",
                                       N_("Two players cannot have the same name."),
                                       f"players.{p}.name"))
        names.setdefault(key, p)
    epoch_counts = [len(player["epochs"]) for player in players]
    epochs = Counter(epoch_counts).most_common(1)[0][0]   # the odd ones out are flagged
    mismatched = [p for p, n in enumerate(epoch_counts) if n != epochs]
    for p in mismatched:
        found.append(RuleViolation(
            "ra.epoch_count_mismatch",
            N_("Every player needs the same number of epochs (%(expected)d)."),
            f"players.{p}.epochs", expected=epochs))
    if mismatched or not 1 <= epochs <= t.EPOCHS:
        return found
    return found + box_violations(players, epochs) + sun_violations(players, epochs)


def validate_final(document: Any) -> dict[str, Any]:
    """A clean copy of the document, or InvalidDocument with every violation found."""
    clean, violations = check_document(FINAL_SCHEMA, document)
    if clean.get("game", "ra") not in ("", "ra"):
        violations.insert(0, RuleViolation("score.wrong_game",
                                           N_("This document is not for this game."), "game"))
    # The game's checks run on the clean copy too (bad values read as 0); a field that
    # already has a shape error, or lies inside one, gets no second message.
    flagged = [v.field for v in violations if v.field]
    if not any(v.field is None for v in violations):       # the document itself is sound
        violations += [v for v in game_violations(clean)
                       if not any(v.field == f or v.field.startswith(f + ".")
                                  for f in flagged)]
    if violations:
        raise InvalidDocument(violations)
    return clean


def score_final(document: Any) -> Scoresheet:
    """Score a finished (or part-played) game of Ra from its final-state document."""
    doc = validate_final(document)
    players = doc["players"]
    epochs = [[EpochHoldings(**player["epochs"][e]) for player in players]
              for e in range(len(players[0]["epochs"]))]
    complete = len(epochs) == t.EPOCHS
    return score_game(
        [player["name"] for player in players], epochs,
        monuments=[player["monuments"] for player in players] if complete else None,
        suns=[player["suns"] for player in players] if complete else None,
        options=ScoringOptions(**doc["options"]))
