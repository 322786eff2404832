"""Valley of the Kings: cards moving between zones (spec §5-§8), written on a draft.

A hand card played, set aside, discarded or given; a card received onto a discard pile; a
card sealed into a tomb (§5.3), sacrificed onto the boneyard, taken from the pyramid (with its
crumble, §4) or turned up from the supply. Each step checks what the table can see: a hand card
named for a use must be one the player can hold (a card the table entered as "a card" becomes
known when it is named; a card known to lie in the discard pile is not in the hand, SEED
l.165: see ``state.DISCARD_PILE_RULE``), and the copies known outside the supply never exceed
the pool.

Writing to the draft: nested containers go through ``d.own`` (copied on first write, so the
old state is never touched); top-level scalars and freshly built lists are written straight
into the draft's own shallow copy, ``d.state`` (nothing there is shared with the old state,
and it spares Draft.__setitem__'s bookkeeping on the hot path).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import N_, RuleViolation
from ..referee import Draft
from . import names
from . import printed as t
from . import pyramid as pyr
from .arguments import BadArgument
from .knowledge import learn, learn_set, locate, locate_dealt, value_for_use
from .state import (ACTION_IMPOSSIBLE, CARD_ALREADY_USED, UNKNOWN, Phase, Use, card_set, fail,
                    in_hand_copies, on_discard, on_table, unknown_cards, unnamed_in_hand)


def own_player(d: Draft, seat: int) -> dict[str, Any]:
    """``seat``'s player record, ready to be changed."""
    return d.own("players", seat)


def claim(d: Draft, seat: int, card: str, field: str, *, pile: str = "hand") -> None:
    """``seat`` can hold a card ``card`` besides those of that title already on the table;
    an unnamed card of theirs may turn out to be it (and is known from then on).

    From the hand (or the deck), a card known to lie in the discard pile does not count
    (:data:`~.state.DISCARD_PILE_RULE`); from the discard pile (``pile="discard"``: Offering
    Chapel's top card) it does, and it leaves what is known to lie there."""
    if card == UNKNOWN:
        return
    record = d["players"][seat]
    known = record["known"].get(card, 0)
    if pile == "discard":
        if on_discard(record, card):
            _off_discard(d, seat, card)
            return
        if known - on_table(d.state, seat, card) >= 1:
            return
        if unknown_cards(record) <= 0:
            raise _not_owned(d, seat, card, field)
        if unnamed_in_hand(record) <= 0:        # it is one of the unnamed cards lying there
            _off_discard(d, seat, UNKNOWN)
    elif in_hand_copies(d.state, seat, card) < 1:
        if unnamed_in_hand(record) <= 0:         # DISCARD_PILE_RULE refuses it
            if on_discard(record, card) or on_discard(record, UNKNOWN):
                raise fail("valley.card_in_discard",
                           N_("“%(title)s” of %(player)s lies on the discard pile: a card "
                              "bought, gained or discarded stays there until the pile is "
                              "shuffled into a new deck or an effect takes it back."), field,
                           player=d["names"][seat], title=names.term(card))
            raise _not_owned(d, seat, card, field)
    else:
        return
    locate(d, card, field)
    own_player(d, seat)
    d.own("players", seat, "known")[card] = known + 1


def _not_owned(d: Draft, seat: int, card: str, field: str) -> RuleViolation:
    return fail("valley.card_not_owned",
                N_("%(player)s has no “%(title)s” that could be used now."), field,
                player=d["names"][seat], title=names.term(card))


def _off_discard(d: Draft, seat: int, card: str) -> None:
    """One card ``card`` (a title or "?") known to lie in the discard pile leaves it."""
    own_player(d, seat)
    lying = d.own("players", seat, "discard_known")
    lying[card] -= 1
    if not lying[card]:
        del lying[card]


def onto_discard(d: Draft, seat: int, card: str) -> None:
    """A card of ``seat``'s goes onto their discard pile (:data:`~.state.DISCARD_PILE_RULE`):
    a named one is known to lie there (a hand card discarded as "?" may be any of theirs)."""
    own_player(d, seat)["discard"] += 1
    if card != UNKNOWN:
        _lies_on_discard(d, seat, card)


def _lies_on_discard(d: Draft, seat: int, card: str) -> None:
    lying = d.own("players", seat, "discard_known")
    lying[card] = lying.get(card, 0) + 1


def shuffle_discard(record: dict[str, Any]) -> None:
    """The discard pile becomes the new deck (SEED turn step 4): nothing lies on it now."""
    record["deck"], record["discard"] = record["discard"], 0
    record["discard_known"] = {}


def from_hand(d: Draft, seat: int, card: str, field: str) -> None:
    """A card leaves ``seat``'s hand (it stays theirs: played, set aside or discarded)."""
    if d["players"][seat]["hand"] <= 0:
        raise fail("valley.hand_empty", N_("%(player)s has no card left in hand."), field,
                   player=d["names"][seat])
    claim(d, seat, card, field)
    own_player(d, seat)["hand"] -= 1


def release(d: Draft, seat: int, card: str, field: str) -> None:
    """A card stops being ``seat``'s (sealed, sacrificed, given): its title leaves what they
    own. A card the table did not name can leave only while some of theirs are unnamed."""
    record = own_player(d, seat)
    if card == UNKNOWN:
        if unnamed_in_hand(record) <= 0:
            raise fail("valley.title_needed",
                       N_("Every card of %(player)s is known: name this one."), field,
                       player=d["names"][seat])
    else:
        known = d.own("players", seat, "known")
        known[card] -= 1
        if not known[card]:
            del known[card]
    record["cards"] -= 1


def receive(d: Draft, seat: int, card: str, pile: str = "discard") -> None:
    """A card becomes ``seat``'s, on top of their discard pile (or into their hand); there it
    is known to lie (an unnamed one as "?"), :data:`~.state.DISCARD_PILE_RULE`."""
    record = own_player(d, seat)
    record["cards"] += 1
    record[pile] += 1
    if card != UNKNOWN:
        known = d.own("players", seat, "known")
        known[card] = known.get(card, 0) + 1
    if pile == "discard":
        _lies_on_discard(d, seat, card)


def draw(record: dict[str, Any], count: int) -> int:
    """Draw up to ``count`` cards, shuffling the discard pile into a new deck when the deck
    runs out (SEED turn step 4); with both empty, draw what exists (§16 #14)."""
    drawn = 0
    while drawn < count:
        if record["deck"] == 0:
            if record["discard"] == 0:
                break
            shuffle_discard(record)
        take = min(count - drawn, record["deck"])
        record["deck"] -= take
        record["hand"] += take
        drawn += take
    return drawn


def top_of_deck(d: Draft, seat: int, field: str) -> None:
    """The top card of the deck leaves it (Necklace), reshuffling first if needed."""
    record = own_player(d, seat)
    if record["deck"] == 0:
        if record["discard"] == 0:
            raise fail(ACTION_IMPOSSIBLE, N_("The deck and the discard pile are empty."),
                       field)
        shuffle_discard(record)
    record["deck"] -= 1


def entomb(d: Draft, seat: int, card: str, info: Mapping[str, Any], field: str) -> None:
    """Put a card face up into ``seat``'s tomb (§5.3); the tomb needs its title, its set
    when the catalogue cannot place it, and a unique's printed VP (§2.7), which ``info``
    (the move's ``set`` and ``vp``) may type."""
    if card == UNKNOWN:
        raise fail("valley.title_needed", N_("A sealed card lies face up: name it."), field)
    learn_set(d, card, info.get("set"), field)
    placed = card_set(d.state, card)
    if placed is None:
        raise fail("valley.set_needed", N_("Say which set “%(title)s” belongs to (its "
                                           "colour), or that it is unique."), field,
                   title=names.term(card))
    if placed == t.UNIQUE:
        value_for_use(d, "vp", card, info.get("vp"), field)
    else:
        learn(d, "vp", card, info.get("vp"), field)
    own_player(d, seat)
    d.own("players", seat, "tomb").append(card)


def to_boneyard(d: Draft, card: str) -> None:
    """Sacrifice a card: it goes face up on top of the boneyard (§7)."""
    d.own("boneyard").append(card)


def pyramid_card(d: Draft, pick: Mapping[str, Any], field: str) -> str:
    """The card in the pyramid slot ``pick["slot"]``, named by ``pick["card"]`` if the table
    had entered it as "a card" (which must then fit the pool)."""
    slot = pick["slot"]
    card = d["pyramid"][pyr.INDEX[slot]]
    if card is None:
        raise fail("valley.empty_slot", N_("There is no card in %(slot)s."), f"{field}.slot",
                   slot=slot)
    named = pick.get("card")
    if named is not None and named != card:
        if card != UNKNOWN:
            raise fail("valley.wrong_card", N_("The card in %(slot)s is “%(title)s”."),
                       f"{field}.card", slot=slot, title=names.term(card))
        locate_dealt(d, named, f"{field}.card")
        d.own("pyramid")[pyr.INDEX[slot]] = named       # the card is known from now on
        card = named
    return card


def take_from_pyramid(d: Draft, pick: Mapping[str, Any], field: str,
                      by_active: bool = True) -> str:
    """Remove a pyramid card and crumble (§4): the pyramid changed this turn (§5, §16 #2)."""
    card = pyramid_card(d, pick, field)
    d.state["pyramid"] = pyr.remove(d["pyramid"], pick["slot"], pick.get("drop"),
                                    f"{field}.drop")
    if by_active or d["options"]["opponent_change_counts"]:
        d.state["changed"] = True
    return card


def turn_up(d: Draft, card: str, field: str) -> None:
    """Turn up Brain Hook's card from the supply: it waits to be bought or sacrificed (§8)."""
    locate_dealt(d, card, field)
    d.state["revealed"] = card
    d.state["phase"] = Phase.BRAIN_HOOK.value


def _mark_card_play(d: Draft) -> None:
    """The first card played (capital or action; sealing is not playing, §6) in a turn closes
    the previous turn's correction window (§7)."""
    if not d["card_played"]:
        d.state["card_played"] = True
        d.state["correction_from"] = d["turn_started_at"]


def play(d: Draft, seat: int, card: str, use: Use, field: str) -> int:
    """A hand card is played (capital or action, §5 step 1); returns its capital multiplier:
    2 when Ring's doubling is pending and this is the next card played (§8, §16 #5)."""
    from_hand(d, seat, card, field)
    multiplier = 1
    if d["ring"]:
        if use is Use.CAPITAL:
            multiplier = 2
            d.state["ring"] = False
        elif d["options"]["ring_lost_on_action"]:
            d.state["ring"] = False
    d.own("played").append({"card": card, "use": use.value, "out": False})
    _mark_card_play(d)
    return multiplier


def played_index(played: Sequence[Mapping[str, Any]], index: int | None,
                 argument: str) -> int:
    """A card on the table this turn, by its number (``argument`` names it in the move)."""
    if index is None:
        raise BadArgument(argument)
    if index >= len(played):
        raise BadArgument(argument, N_("No card with this number was played this turn."))
    return index


def already_played(played: Sequence[Mapping[str, Any]], index: int | None,
                   argument: str = "played") -> None:
    """Refuse a card on the table this turn: it cannot be used again for anything until it
    returns to the hand (§5 step 1, VK_CARD_ALREADY_USED)."""
    if index is not None:
        played_index(played, index, argument)
        raise fail(CARD_ALREADY_USED, N_("This card was already played this turn."),
                   f"move.{argument}")
