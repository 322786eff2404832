"""Valley of the Kings: what the table knows about the cards, and the copy limits (spec §2.7,
§11.1, §13).

A card the table names is *located*: one more copy of its title is known outside the supply,
which must fit the pool (``VK_COPY_LIMIT``: no more copies of a title than the pool holds, no
more different titles of a set than printed, no more uniques than in play, and — uniques mixed
from both boxes — one unique per cost). Printed values (cost, capital, a unique's VP, the set
of a card the catalogue cannot place) come from the catalogue and the group's edition data;
where unknown, a move types them and the table remembers them (``printed``): a later move must
agree. Every function here writes through a :class:`~companion.rules.referee.Draft`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import N_, RuleViolation, Term
from ..referee import Draft
from . import names
from . import printed as t
from .pools import UNIQUES_CHOSEN, PoolId, UniqueBox, placement_choices
from .state import COPY_LIMIT, UNKNOWN, card_set, fail, printed_value

VALUE_WORDS = {"cost": N_("cost"), "capital": N_("capital"), "vp": N_("victory points")}


def title_limit(pool: Mapping[str, Any], placements: Mapping[str, str], title_id: str,
                players: int) -> int | None:
    """Copies of ``title_id`` in this pool (§13), None when it is not in the pool."""
    title = t.TITLES[title_id]
    if title.kind is t.Kind.STARTER:
        return t.STARTERS_PER_PLAYER[title_id] * players
    placed = placements.get(title_id) or (title.set_id if title.kind is t.Kind.SET else
                                          t.UNIQUE if title.kind is t.Kind.UNIQUE else None)
    if placed == t.UNIQUE:
        return t.UNIQUE_COPIES if title.box.value in pool["unique_boxes"] else None
    if placed is not None:
        return pool["copies"] if placed in pool["sets"] else None
    # A name whose set no source states: possible wherever an Afterlife slot is open.
    afterlife_open = any(t.SETS[s].box is t.Box.AFTERLIFE for s in pool["sets"]) or (
        t.Box.AFTERLIFE.value in pool["unique_boxes"])
    return pool["copies"] if afterlife_open else None


def not_in_pool(card: str, field: str) -> RuleViolation:
    """``card`` cannot be in this game's pool."""
    return fail("valley.not_in_pool", N_("“%(title)s” is not among the cards of this pool."),
                field, title=names.term(card))


def locate(d: Draft, card: str, field: str) -> None:
    """One more copy of ``card`` is known outside the supply: it must fit the pool (§13)."""
    limit = d["limits"].get(card)
    if limit is None:
        raise not_in_pool(card, field)
    located = d["located"].get(card, 0) + 1
    if located > limit:
        raise fail(COPY_LIMIT, N_("The pool holds only %(limit)d of “%(title)s”."), field,
                   limit=limit, title=names.term(card))
    d.own("located")[card] = located
    if located == 1:
        _check_distinct(d, card, field)


def locate_dealt(d: Draft, card: str, field: str) -> None:
    """Locate a card that came from the supply, named (a pyramid card, a refill, Brain Hook's
    card, a supply card taken): never a starter, and it must fit the pool; "a card" stays
    unnamed."""
    if card == UNKNOWN:
        return
    if t.TITLES[card].kind is t.Kind.STARTER:
        raise not_in_pool(card, field)
    locate(d, card, field)


def distinct_limit(state: Mapping[str, Any], set_id: str | None) -> int | None:
    """§13: the most different titles ``set_id`` can show: the number printed for a set, the
    uniques in play for "unique"; None for a set not known yet."""
    if set_id in t.SETS:
        return t.SETS[set_id].size
    if set_id == t.UNIQUE:
        return state["pool"]["uniques"]
    return None


def has_room(state: Mapping[str, Any], set_id: str | None) -> bool:
    """Whether a title not seen yet may still turn out to be of ``set_id`` (§13)."""
    limit = distinct_limit(state, set_id)
    return limit is None or state["titles_seen"].get(set_id, 0) < limit


def _check_distinct(d: Draft, card: str, field: str) -> None:
    """A title newly seen: its set has no more different titles than printed, and no more
    uniques than are in play (§13). ``titles_seen`` counts the different titles per set."""
    set_id = card_set(d.state, card)
    limit = distinct_limit(d.state, set_id)
    if limit is None:
        return                          # set not known yet: checked once it is (learn_set)
    seen = d.own("titles_seen")
    seen[set_id] = seen.get(set_id, 0) + 1
    if seen[set_id] > limit:
        if set_id == t.UNIQUE:
            raise fail(COPY_LIMIT, N_("Only %(limit)d unique artifacts are in play."), field,
                       limit=limit)
        raise fail(COPY_LIMIT, N_("The set %(set)s has only %(size)d different titles."),
                   field, set=names.term(set_id), size=limit)
    if set_id == t.UNIQUE and one_unique_per_cost(d.state):
        _check_unique_cost(d, card, field)


def one_unique_per_cost(state: Mapping[str, Any]) -> bool:
    """§11.1: uniques mixed from both boxes take only one unique per cost value."""
    return (state["options"]["uniques"] == UniqueBox.MIXED
            and PoolId(state["pool"]["id"]) in UNIQUES_CHOSEN)


def _check_unique_cost(d: Draft, card: str, field: str) -> None:
    """Enforced when both costs are known (§11.1, §16 #19); unknown costs cannot be checked."""
    cost = printed_value(d.state, "cost", card)
    if cost is None:
        return
    for other, count in d["located"].items():
        if count and other != card and card_set(d.state, other) == t.UNIQUE and printed_value(
                d.state, "cost", other) == cost:
            raise fail("valley.unique_cost_taken",
                       N_("Mixed uniques take one per cost: “%(other)s” already costs "
                          "%(cost)d."), field, other=names.term(other), cost=cost)


def learn(d: Draft, key: str, card: str, value: int | None, field: str) -> None:
    """Remember a printed number typed for ``card`` (§2.7); it must agree with one known."""
    if value is None or card == UNKNOWN:
        return
    store = "unique_vp" if key == "vp" else key
    known = printed_value(d.state, key, card)
    if known is not None:
        if known != value:
            raise fail("valley.printed_value_mismatch",
                       N_("“%(title)s” has %(value)d printed here, not %(typed)d."), field,
                       title=names.term(card), value=known, typed=value)
        return
    d.own("printed", store)[card] = value
    if (key == "cost" and d["located"].get(card) and card_set(d.state, card) == t.UNIQUE
            and one_unique_per_cost(d.state)):
        _check_unique_cost(d, card, field)


def learn_set(d: Draft, card: str, placed: str | None, field: str) -> None:
    """The set (or "unique") of a card the catalogue cannot place, as the table sees it."""
    if placed is None or card == UNKNOWN:
        return
    known = card_set(d.state, card)
    if known is not None:
        if known != placed:
            raise fail("valley.printed_value_mismatch",
                       N_("“%(title)s” belongs to %(value)s, not %(typed)s."), field,
                       title=names.term(card), value=names.term(known), typed=names.term(placed))
        return
    if placed not in placement_choices(card):
        raise fail("valley.unknown_set",
                   N_("“%(set)s” is not a set of this card's box, nor “unique”."), field,
                   set=names.term(str(placed)[:40]))
    d.own("printed", "card_set")[card] = placed
    limit = title_limit(d["pool"], d["printed"]["card_set"], card, len(d["names"]))
    if limit is None:
        raise not_in_pool(card, field)
    d.own("limits")[card] = limit
    if d["located"].get(card, 0) > limit:
        raise fail(COPY_LIMIT, N_("The pool holds only %(limit)d of “%(title)s”."), field,
                   limit=limit, title=names.term(card))
    if d["located"].get(card, 0):
        _check_distinct(d, card, field)


def value_for_use(d: Draft, key: str, card: str, typed: int | None, field: str) -> int:
    """A printed number for a use: known, or typed in the move (and then remembered)."""
    learn(d, key, card, typed, field)
    value = printed_value(d.state, key, card)
    if value is None:
        value = typed
    if value is None:
        raise fail("valley.value_needed", N_("Type the %(what)s printed on this card."), field,
                   what=Term(VALUE_WORDS[key]))
    return value
