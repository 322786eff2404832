"""Valley of the Kings live referee of public events (spec §13), on the shared referee skeleton.

Hands and decks are hidden, so the engine referees what the table can see and enters:

* opening a table (§3): the pool (options), the start player, the six pyramid cards and the
  boneyard card, each a title or just "a card" (``"?"``);
* ``buy`` (§5.1): which base card, which hand cards pay and their capital (Ring doubling,
  §8); ``action`` (§5.2, §8): the card and the public consequences of its effect (gains,
  seals, sacrifices, Nut's choices, Mirror Case entering the pyramid, Brain Hook's revealed
  card, …); ``seal`` (§5.3): the free seal; ``end_turn`` (§5 steps 2-4): the rebuild
  sacrifice when, and only when, the pyramid did not change; ``refill`` (§4): the cards
  revealed bottom-up, a chance input; ``reveal`` (Brain Hook's card, a chance input when the
  action did not name it) and ``decline`` (Brain Hook's card not bought: sacrificed);
* crumbling (§4) computed here; where two cards could drop the move must say which (the
  phone asks the active player first: ``prompts()["crumble"]``), else ``VK_CRUMBLE``;
* every check and code of §13, the end of the game (§9) and scoring from the tombs (§10).

What each player owns is tracked as far as the table can see it: the number of cards in hand,
deck, discard pile and set aside (Serdab), and the titles known to be among them (the starters,
and every card gained, bought or taken with its title). A hand card named for a use must be one
the player can hold; a card the table entered as "a card" becomes known when it is named. The
copies of a title known outside the supply never exceed the pool (``VK_COPY_LIMIT``).

Printed values (cost, capital, a unique's VP, the set of a card the catalogue cannot place)
come from the catalogue and the group's edition data; where unknown, the move types them
(spec §2.7) and the table remembers them (``printed``): a later move must agree.

Correction window (§7): moves of a turn may be undone until the next player's first card
play (a card used for its capital or its action; sealing is not playing, §6).
``correction_from`` in the state is the first move index that may still be undone; the
ruleset reports it as its ``undo_floor`` and the table service keeps the highest floor it has
seen, refusing an undo below it (``table.correction_closed``, the spec's
``VK_CORRECTION_CLOSED``), so undoing the next player's card play never reopens the window.

What a phone sees and offers: :func:`view` adds the pyramid as rows, the boneyard's top card
and count and every tomb by scoring group (``tomb_view``); :func:`prompts` names the legal
move kinds and what their forms list (the titles a hand card may be, with capital; the
titles still outside for a refill or a card entered as "a card"; the crumble choices; each
action's targets; the sets and VPs a seal may have to ask for).

The module is pure (design.md §1): no I/O, no clock, no randomness. States are plain JSON.

State layout::

    names, options, solo            table; solo None | "beginner" | "master"
    pool                            {id, sets, copies, groups: [{id, sets, size}], unique_boxes,
                                     uniques, starter_decks, choices}
    limits                          {title: copies in this pool}   (§13 copy limits)
    printed                         {cost|capital|unique_vp|card_set: {title: value}}
    starter_vp, confirmed_starters  the starters' VP in force; which ones the group confirmed
    start, current, turn            start player, active seat, turns begun (1-based)
    phase                           play | reveal | brain_hook | refill | over
    pyramid                         [B1, B2, B3, M1, M2, T]: title, "?" or None
    supply                          cards left in the supply (§7: the count is public)
    boneyard                        cards bottom to top (only the top is shown, §7)
    located                         {title: copies known outside the supply}
    titles_seen                     {set id | "unique": different titles located}
    players                         [{tomb: [title], cards, known: {title: n}, hand, deck,
                                      discard, aside}]
    played                          this turn's played cards: [{card, use, out}] (out: returned
                                    to hand or sealed)
    changed, free_seals, ring       this turn: pyramid changed (§5 step 3), free seals used,
                                    Ring's doubling pending (§8)
    revealed                        Brain Hook's face-up card while the player decides
    moves, turn_started_at, correction_from, card_played   the correction window (§7)
"""

from __future__ import annotations

from enum import StrEnum
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Sequence

from ..base import (Awaiting, Chance, Edition, N_, RuleViolation, Scoresheet, Term)
from ..referee import Draft, MoveRule, Referee, is_int
from . import pyramid as pyr
from . import tables as t
from .edition import no_edition, printed_values
from .pools import (CHOSEN_SIZES, UNIQUES_CHOSEN, Pool, PoolId, Solo, UniqueBox, build_pool,
                    placement_choices)
from .scoring import PlayerTomb, distinct_titles, score_tombs, starter_assumption


class MoveKind(StrEnum):
    """The ``type`` of a move (spec §5, §13)."""

    BUY = "buy"
    ACTION = "action"
    SEAL = "seal"                # the free seal (§5.3)
    END_TURN = "end_turn"        # discard, rebuild, (refill,) draw (§5 steps 2-4)
    REFILL = "refill"            # the cards revealed into the pyramid (chance, §4)
    REVEAL = "reveal"            # Brain Hook's card (chance, §8)
    DECLINE = "decline"          # Brain Hook's card not bought: sacrificed (§8)


class Phase(StrEnum):
    PLAY = "play"                # turn step 1: buys, actions, the free seal in any order
    REVEAL = "reveal"            # Brain Hook turns up the top supply card
    BRAIN_HOOK = "brain_hook"    # the revealed card: buy it (discount 2) or sacrifice it
    REFILL = "refill"            # turn step 3: the refill cards
    OVER = "over"


# Plain strings for the state (the enum members compare equal to them).
_PLAY, _REVEAL, _BRAIN_HOOK, _REFILL, _OVER = (p.value for p in Phase)


class Use(StrEnum):
    """How a played card was used this turn (§5 step 1)."""

    CAPITAL = "capital"
    ACTION = "action"


_USE = {use: use.value for use in Use}

# Spec §13 codes.
NOT_IN_BASE = "VK_NOT_IN_BASE"
UNDERPAID = "VK_UNDERPAID"
CAPITAL_REUSED = "VK_CAPITAL_REUSED"
CARD_ALREADY_USED = "VK_CARD_ALREADY_USED"
FREE_SEAL_LIMIT = "VK_FREE_SEAL_LIMIT"
ACTION_IMPOSSIBLE = "VK_ACTION_IMPOSSIBLE"
SEAL_LIMIT = "VK_SEAL_LIMIT"
SACRIFICE_PLAYED = "VK_SACRIFICE_PLAYED"
CRUMBLE = pyr.CRUMBLE
REBUILD = "VK_REBUILD"
SOLO_OPPONENT = "VK_SOLO_OPPONENT"
COPY_LIMIT = "VK_COPY_LIMIT"

UNKNOWN = t.UNKNOWN_CARD
REVEALED = "revealed"          # the ``slot`` of Brain Hook's card in a buy
NECKLACE_MAX_SEALS = 2         # SEED l.275
FREE_SEALS_PER_TURN = 1        # SEED §5.3
OPPONENT_ACTIONS = frozenset({t.Action.NUT, t.Action.KHOPESH, t.Action.SENET})   # §12.1, §16 #11

# Rule options (spec §16 open questions) with the recommended defaults.
RULE_OPTIONS: Mapping[str, Any] = {
    "dagger_to": "discard",              # §16 #4: where a card taken by Dagger goes
    "bow_scope": "group",                # §16 #8: Bow's "set" is the scoring group
    "opponent_change_counts": True,      # §16 #2: an opponent's gain changes the pyramid too
    "ring_lost_on_action": True,         # §16 #5: an action use consumes Ring's doubling
}
TABLE_OPTIONS = ("pool", "solo", "uniques") + tuple(f"set_{n}" for n in t.SIZE_PAIRS)

MOVE_LABELS: Mapping[str, Term] = {
    MoveKind.BUY: Term(N_("buy a card")),
    MoveKind.ACTION: Term(N_("play a card's action")),
    MoveKind.SEAL: Term(N_("seal a card")),
    MoveKind.END_TURN: Term(N_("end the turn")),
    MoveKind.REFILL: Term(N_("refill the pyramid")),
    MoveKind.REVEAL: Term(N_("turn up the top supply card")),
    MoveKind.DECLINE: Term(N_("sacrifice the revealed card")),
}
ACTION_HINTS: Mapping[str, str] = {      # what each clarified action does (§8), for the phone
    t.Action.NUT: N_("An opponent may gain the cheapest pyramid card; then you gain the most "
                     "expensive one."),
    t.Action.BROOCH: N_("Seal a pyramid card, then sacrifice a set card from your tomb."),
    t.Action.DAGGER: N_("If the boneyard holds at least as many cards as there are players, "
                        "each player from you on takes its top card."),
    t.Action.BRAIN_HOOK: N_("Turn up the top supply card: buy it for 2 less, or sacrifice it."),
    t.Action.KHOPESH: N_("Gain the pyramid card the opponent on your left picks."),
    t.Action.BOW: N_("Seal from the pyramid a set card of a set you have no card of in your "
                     "tomb."),
    t.Action.NECKLACE: N_("Seal the top card of your deck; after a starter card you may seal "
                          "the next one too."),
    t.Action.OFFERING_CHAPEL: N_("Every player may seal the top card of their discard pile."),
    t.Action.JUDGEMENT: N_("Set hand cards aside, gaining the top boneyard card for each; then "
                           "sacrifice the set-aside cards."),
    t.Action.MIRROR_CASE: N_("Gain a pyramid card; then Mirror Case goes into the pyramid from "
                             "the top."),
    t.Action.RING: N_("The next card you play this turn has double capital."),
    t.Action.ANTECHAMBER: N_("Take a card from your discard pile into your hand."),
    t.Action.HOUNDS_AND_JACKALS: N_("A card you played earlier this turn returns to your hand."),
    t.Action.SENET: N_("Draw a card and put Senet on an opponent's discard pile; they put a "
                       "set card from hand on yours, or show a hand without one."),
    t.Action.SERDAB: N_("Set hand cards aside; they join your hand after you draw."),
    t.Action.VICTORY: N_("Seal a card you played earlier this turn."),
    "generic": N_("A card whose action Scribe does not know: enter what it did, step by "
                  "step."),
}
WAITING_LABELS: Mapping[str, Term] = {
    Phase.PLAY: Term(N_("the active player's cards")),
    Phase.REVEAL: Term(N_("the card Brain Hook turns up")),
    Phase.BRAIN_HOOK: Term(N_("Brain Hook: buy the revealed card or sacrifice it")),
    Phase.REFILL: Term(N_("the cards that refill the pyramid")),
}


def _fail(code: str, message: str, field: str | None = None, **params: Any) -> RuleViolation:
    return RuleViolation(code, message, field, **params)


# --------------------------------------------------------------------------------------------
# Setup (§3)
# --------------------------------------------------------------------------------------------


def normalise_options(options: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """The table's options with defaults (pool, solo level, set choices, rule options)."""
    options = dict(options or {})
    clean: dict[str, Any] = dict(RULE_OPTIONS)
    for key, value in options.items():
        if key in RULE_OPTIONS:
            if type(value) is not type(RULE_OPTIONS[key]):
                raise _fail("valley.bad_option", N_("The option “%(option)s” is not valid."),
                            f"options.{key}", option=key)
            clean[key] = value
    if clean["dagger_to"] not in ("discard", "hand"):
        raise _fail("valley.bad_option", N_("The option “%(option)s” is not valid."),
                    "options.dagger_to", option="dagger_to")
    if clean["bow_scope"] not in ("group", "printed"):
        raise _fail("valley.bad_option", N_("The option “%(option)s” is not valid."),
                    "options.bow_scope", option="bow_scope")
    pool = options.get("pool") or PoolId.AFTERLIFE.value
    if pool not in {p.value for p in PoolId}:
        raise _fail("valley.bad_option", N_("The option “%(option)s” is not valid."),
                    "options.pool", option="pool")
    solo = options.get("solo") or Solo.NONE.value
    if solo not in {s.value for s in Solo}:
        raise _fail("valley.bad_option", N_("The option “%(option)s” is not valid."),
                    "options.solo", option="solo")
    if players == 1 and solo == Solo.NONE:
        solo = Solo.BEGINNER.value          # one player plays the solo rules (§12)
    uniques = options.get("uniques") or UniqueBox.AFTERLIFE.value
    if uniques not in {u.value for u in UniqueBox}:
        raise _fail("valley.bad_option", N_("The option “%(option)s” is not valid."),
                    "options.uniques", option="uniques")
    clean.update(pool=pool, solo=solo, uniques=uniques)
    for size in t.SIZE_PAIRS:
        value = options.get(f"set_{size}") or t.SIZE_PAIRS[size][0]
        if value not in t.SIZE_PAIRS[size]:
            raise _fail("valley.bad_option", N_("The option “%(option)s” is not valid."),
                        f"options.set_{size}", option=f"set_{size}")
        clean[f"set_{size}"] = value
    return clean


def pool_of(options: Mapping[str, Any]) -> Pool:
    """The pool the options describe (§11)."""
    pool_id = PoolId(options["pool"])
    return build_pool(pool_id, {n: options[f"set_{n}"] for n in CHOSEN_SIZES.get(pool_id, ())},
                      options.get("uniques", UniqueBox.AFTERLIFE))


def _pool_data(pool: Pool) -> dict[str, Any]:
    return {"id": pool.id.value, "sets": list(pool.sets), "copies": pool.copies,
            "groups": [{"id": g.id, "sets": list(g.sets), "size": g.size} for g in pool.groups],
            "unique_boxes": [b.value for b in pool.unique_boxes], "uniques": pool.uniques,
            "starter_decks": pool.starter_decks, "choices": {str(k): v for k, v in
                                                            pool.choices.items()}}


def _title_limit(pool: Mapping[str, Any], card_set: Mapping[str, str], title_id: str,
                 players: int) -> int | None:
    """Copies of ``title_id`` in this pool (§13), None when it is not in the pool."""
    title = t.TITLES[title_id]
    if title.kind is t.Kind.STARTER:
        return t.STARTERS_PER_PLAYER[title_id] * players
    placed = card_set.get(title_id) or (title.set_id if title.kind is t.Kind.SET else
                                        t.UNIQUE if title.kind is t.Kind.UNIQUE else None)
    if placed == t.UNIQUE:
        return t.UNIQUE_COPIES if title.box.value in pool["unique_boxes"] else None
    if placed is not None:
        return pool["copies"] if placed in pool["sets"] else None
    # A name whose set no source states: possible wherever an Afterlife slot is open.
    afterlife_open = any(t.SETS[s].box is t.Box.AFTERLIFE for s in pool["sets"]) or (
        t.Box.AFTERLIFE.value in pool["unique_boxes"])
    return pool["copies"] if afterlife_open else None


def setup(options: Mapping[str, Any] | None, names: Sequence[str],
          table: Mapping[str, Any] | None, edition: Edition | None = None) -> dict[str, Any]:
    """A fresh game (§3). ``table``: ``{"start_player": 0, "pyramid": {"B1": card, …, "T":
    card} (or the six cards as a list B1..T), "boneyard": card}``, each card a title id or
    "?" ("a card")."""
    count = len(names)
    if count not in t.PLAYER_COUNTS:
        raise _fail("valley.bad_player_count",
                    N_("Valley of the Kings is played by 1 to 6 players, not %(count)d."),
                    count=count)
    opts = normalise_options(options, count)
    if count > 1 and opts["solo"] != Solo.NONE:
        raise _fail("valley.solo_alone", N_("A solo game has exactly one player."),
                    "options.solo")
    pool = pool_of(opts)
    if count > pool.starter_decks:          # "…player_count": a count this option refuses
        raise _fail("valley.pool_player_count",
                    N_("This pool has starter cards for %(decks)d players only; five and six "
                       "players need both boxes (five_players or six_players)."),
                    "options.pool", decks=pool.starter_decks)
    printed = printed_values(edition or no_edition())
    pool_data = _pool_data(pool)
    limits = {title: limit for title in t.TITLES
              if (limit := _title_limit(pool_data, printed["card_set"], title, count))
              is not None}
    table = table or {}
    start = table.get("start_player", 0)
    if not is_int(start) or not 0 <= start < count:
        raise _fail("valley.bad_start_player",
                    N_("The start player must be one of the %(count)d seats."), "start_player",
                    count=count)
    dealt = table.get("pyramid")
    if isinstance(dealt, Mapping) and set(dealt) == set(pyr.SLOTS):
        dealt = [dealt[slot] for slot in pyr.SLOTS]      # the set-up form names the slots
    if not isinstance(dealt, list) or len(dealt) != t.PYRAMID_CARDS:
        raise _fail("valley.bad_pyramid", N_("The pyramid needs its six cards, B1 to T."),
                    "pyramid")
    boneyard = table.get("boneyard", UNKNOWN)
    starters = pool.starter_copies(count)
    state: dict[str, Any] = {
        "game": "valley",
        "names": [str(name) for name in names],
        "options": opts,
        "solo": None if opts["solo"] == Solo.NONE else opts["solo"],
        "pool": pool_data,
        "limits": limits,
        "printed": {key: dict(printed[key]) for key in ("cost", "capital", "unique_vp",
                                                         "card_set")},
        "starter_vp": dict(printed["starter_vp"]),
        "confirmed_starters": list(printed["confirmed_starters"]),
        "start": start, "current": start, "turn": 1,
        "phase": _PLAY,
        "pyramid": [None] * t.PYRAMID_CARDS,
        "supply": pool.supply_after_setup,
        "boneyard": [],
        "located": dict(starters),
        "titles_seen": {},
        "players": [_new_player() for _ in range(count)],
        "played": [], "changed": False, "free_seals": 0, "ring": False, "revealed": None,
        "moves": 0, "turn_started_at": 0, "correction_from": 0, "card_played": False,
    }
    draft = Draft(state)
    cards = []
    for index, card in enumerate(dealt):
        cards.append(_opening_card(draft, card, f"pyramid.{index}"))
    draft["pyramid"] = cards
    draft["boneyard"] = [_opening_card(draft, boneyard, "boneyard")]
    return draft.state


def _new_player() -> dict[str, Any]:
    deck = t.STARTER_CARDS_PER_PLAYER
    return {"tomb": [], "cards": deck, "known": dict(t.STARTERS_PER_PLAYER),
            "hand": t.HAND_SIZE, "deck": deck - t.HAND_SIZE, "discard": 0, "aside": 0}


def _opening_card(draft: Draft, card: Any, field: str) -> str:
    if card is None or card == "":
        card = UNKNOWN
    if not isinstance(card, str) or (card != UNKNOWN and card not in t.TITLES):
        raise _fail("valley.unknown_title", N_("“%(title)s” is not a card title."), field,
                    title=str(card)[:40])
    if card != UNKNOWN:
        if t.TITLES[card].kind is t.Kind.STARTER:
            raise _fail("valley.not_in_pool", N_("“%(title)s” is not among the cards of this "
                                                 "pool."), field, title=t.title_label(card))
        _locate(draft, card, field)
    return card


# --------------------------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------------------------


def is_over(state: Mapping[str, Any]) -> bool:
    return state["phase"] == Phase.OVER


def to_act(state: Mapping[str, Any]) -> int | None:
    """The active player: every input of a turn is entered for the player whose turn it is."""
    return None if state["phase"] == Phase.OVER else state["current"]


def awaited(state: Mapping[str, Any]) -> Awaiting:
    return Awaiting.one(to_act(state))


def card_set(state: Mapping[str, Any], card: str) -> str | None:
    """A title's set id, "unique", "starter", or None while unknown."""
    if card == UNKNOWN:
        return None
    placed = state["printed"]["card_set"].get(card)
    if placed:
        return placed
    title = t.TITLES[card]
    if title.kind is t.Kind.SET:
        return title.set_id
    if title.kind is t.Kind.UNIQUE:
        return t.UNIQUE
    if title.kind is t.Kind.STARTER:
        return "starter"
    return None


def is_set_card(state: Mapping[str, Any], card: str) -> bool:
    """§6: a set card is neither a starter nor a unique."""
    return card_set(state, card) in t.SETS


def group_of(state: Mapping[str, Any], card: str) -> str | None:
    """The scoring group a set card belongs to in this pool."""
    set_id = card_set(state, card)
    for group in state["pool"]["groups"]:
        if set_id in group["sets"]:
            return group["id"]
    return None


def printed(state: Mapping[str, Any], key: str, card: str) -> int | None:
    """A printed number known to this table (edition, catalogue or typed earlier)."""
    if card == UNKNOWN:
        return None
    if key == "vp" and t.TITLES[card].kind is t.Kind.STARTER:
        return state["starter_vp"][card]
    return state["printed"]["unique_vp" if key == "vp" else key].get(card)


def table_cards(state: Mapping[str, Any]) -> int:
    """Cards of the active player still on the table this turn (played, not returned)."""
    return sum(1 for entry in state["played"] if not entry["out"])


def unknown_cards(player: Mapping[str, Any]) -> int:
    """Cards of a player whose title nobody entered (bought or gained as "a card")."""
    return player["cards"] - sum(player["known"].values())


def pyramid_cards(state: Mapping[str, Any]) -> int:
    return pyr.count(state["pyramid"])


def rebuild_needed(state: Mapping[str, Any]) -> bool:
    """§5 step 3: sacrifice exactly one card iff the pyramid did not change and is not empty."""
    return not state["changed"] and pyramid_cards(state) > 0


def last_seat(state: Mapping[str, Any]) -> int:
    """The last player of a round: right of the start player (§9)."""
    return (state["start"] - 1) % len(state["names"])


# --------------------------------------------------------------------------------------------
# Knowledge and copy limits (§13)
# --------------------------------------------------------------------------------------------


def _not_in_pool(card: str, field: str) -> RuleViolation:
    return _fail("valley.not_in_pool", N_("“%(title)s” is not among the cards of this pool."),
                 field, title=t.title_label(card))


def _locate(d: Draft, card: str, field: str) -> None:
    """One more copy of ``card`` is known outside the supply: it must fit the pool (§13)."""
    limit = d["limits"].get(card)
    if limit is None:
        raise _not_in_pool(card, field)
    located = d["located"].get(card, 0) + 1
    if located > limit:
        raise _fail(COPY_LIMIT, N_("The pool holds only %(limit)d of “%(title)s”."), field,
                    limit=limit, title=t.title_label(card))
    d.own("located")[card] = located
    if located == 1:
        _check_distinct(d, card, field)


def _check_distinct(d: Draft, card: str, field: str) -> None:
    """A title newly seen: its set has no more different titles than printed, and no more
    uniques than are in play (§13). ``titles_seen`` counts the different titles per set."""
    set_id = card_set(d.state, card)
    if set_id in t.SETS:
        limit = t.SETS[set_id].size
    elif set_id == t.UNIQUE:
        limit = d["pool"]["uniques"]
    else:
        return                          # set not known yet: checked once it is (_learn_set)
    seen = d.own("titles_seen")
    seen[set_id] = seen.get(set_id, 0) + 1
    if seen[set_id] > limit:
        if set_id == t.UNIQUE:
            raise _fail(COPY_LIMIT, N_("Only %(limit)d unique artifacts are in play."), field,
                        limit=limit)
        raise _fail(COPY_LIMIT, N_("The set %(set)s has only %(size)d different titles."),
                    field, set=Term(t.SET_LABELS[set_id]), size=limit)
    if set_id == t.UNIQUE and _one_unique_per_cost(d.state):
        _check_unique_cost(d, card, field)


def _one_unique_per_cost(state: Mapping[str, Any]) -> bool:
    """§11.1: uniques mixed from both boxes take only one unique per cost value."""
    return (state["options"]["uniques"] == UniqueBox.MIXED
            and PoolId(state["pool"]["id"]) in UNIQUES_CHOSEN)


def _cost_to_type(state: Mapping[str, Any], card: str, lowest: int) -> int:
    """A cost a legal move may type for ``card`` whose cost is unknown: ``lowest``, or, for a
    unique under the one-per-cost rule (§11.1), the lowest cost no unique in play has."""
    if card_set(state, card) != t.UNIQUE or not _one_unique_per_cost(state):
        return lowest
    taken = {printed(state, "cost", other) for other, count in state["located"].items()
             if count and other != card and card_set(state, other) == t.UNIQUE}
    cost = lowest
    while cost in taken:
        cost += 1
    return cost


def _check_unique_cost(d: Draft, card: str, field: str) -> None:
    """Enforced when both costs are known (§11.1, §16 #19); unknown costs cannot be checked."""
    cost = printed(d.state, "cost", card)
    if cost is None:
        return
    for other, count in d["located"].items():
        if count and other != card and card_set(d.state, other) == t.UNIQUE and printed(
                d.state, "cost", other) == cost:
            raise _fail("valley.unique_cost_taken",
                        N_("Mixed uniques take one per cost: “%(other)s” already costs "
                           "%(cost)d."), field, other=t.title_label(other), cost=cost)


def _learn(d: Draft, key: str, card: str, value: Any, field: str) -> None:
    """Remember a printed number typed for ``card`` (§2.7); it must agree with one known."""
    if value is None or card == UNKNOWN:
        return
    store = "unique_vp" if key == "vp" else key
    known = printed(d.state, key, card)
    if known is not None:
        if known != value:
            raise _fail("valley.printed_value_mismatch",
                        N_("“%(title)s” has %(value)d printed here, not %(typed)d."), field,
                        title=t.title_label(card), value=known, typed=value)
        return
    d.own("printed", store)[card] = value
    if (key == "cost" and d["located"].get(card) and card_set(d.state, card) == t.UNIQUE
            and _one_unique_per_cost(d.state)):
        _check_unique_cost(d, card, field)


def _learn_set(d: Draft, card: str, placed: str | None, field: str) -> None:
    """The set (or "unique") of a card the catalogue cannot place, as the table sees it."""
    if placed is None or card == UNKNOWN:
        return
    known = card_set(d.state, card)
    if known is not None:
        if known != placed:
            raise _fail("valley.printed_value_mismatch",
                        N_("“%(title)s” belongs to %(value)s, not %(typed)s."), field,
                        title=t.title_label(card), value=known, typed=placed)
        return
    if placed not in placement_choices(card):
        raise _fail("valley.unknown_set",
                    N_("“%(set)s” is not a set of this card's box, nor “unique”."), field,
                    set=str(placed)[:40])
    d.own("printed", "card_set")[card] = placed
    pool = d["pool"]
    limit = _title_limit(pool, d["printed"]["card_set"], card, len(d["names"]))
    if limit is None:
        raise _not_in_pool(card, field)
    d.own("limits")[card] = limit
    if d["located"].get(card, 0) > limit:
        raise _fail(COPY_LIMIT, N_("The pool holds only %(limit)d of “%(title)s”."), field,
                    limit=limit, title=t.title_label(card))
    if d["located"].get(card, 0):
        _check_distinct(d, card, field)


def _value(d: Draft, key: str, card: str, typed: Any, field: str) -> int:
    """A printed number for a use: known, or typed in the move (and then remembered)."""
    _learn(d, key, card, typed, field)
    value = printed(d.state, key, card)
    if value is None:
        value = typed
    if value is None:
        raise _fail("valley.value_needed",
                    N_("Type the %(what)s printed on this card."), field,
                    what=Term({"cost": N_("cost"), "capital": N_("capital"),
                               "vp": N_("victory points")}[key]))
    return value


# --------------------------------------------------------------------------------------------
# Cards moving between zones
# --------------------------------------------------------------------------------------------


# Writing to the draft: nested containers go through ``d.own`` (copied on first write, so the
# old state is never touched); top-level scalars and freshly built lists are written straight
# into the draft's own shallow copy, ``d.state`` (nothing there is shared with the old state,
# and it spares Draft.__setitem__'s bookkeeping on the hot path).


def _player(d: Draft, seat: int) -> dict[str, Any]:
    return d.own("players", seat)


def _on_table(state: Mapping[str, Any], seat: int, card: str) -> int:
    """Cards of this title the active player has on the table this turn."""
    if seat != state["current"]:
        return 0
    return sum(1 for entry in state["played"] if entry["card"] == card and not entry["out"])


def _claim(d: Draft, seat: int, card: str, field: str) -> None:
    """``seat`` can hold a card ``card`` besides those of that title already on the table;
    an unnamed card of theirs may turn out to be it (and is known from then on)."""
    if card == UNKNOWN:
        return
    player = d["players"][seat]
    known = player["known"].get(card, 0)
    if known - _on_table(d.state, seat, card) >= 1:
        return
    if unknown_cards(player) <= 0:
        raise _fail("valley.card_not_owned",
                    N_("%(player)s has no “%(title)s” that could be used now."), field,
                    player=d["names"][seat], title=t.title_label(card))
    _locate(d, card, field)
    _player(d, seat)
    d.own("players", seat, "known")[card] = known + 1


def _from_hand(d: Draft, seat: int, card: str, field: str) -> None:
    """A card leaves ``seat``'s hand (it stays theirs: played, set aside or discarded)."""
    if d["players"][seat]["hand"] <= 0:
        raise _fail("valley.hand_empty", N_("%(player)s has no card left in hand."), field,
                    player=d["names"][seat])
    _claim(d, seat, card, field)
    _player(d, seat)["hand"] -= 1


def _release(d: Draft, seat: int, card: str, field: str) -> None:
    """A card stops being ``seat``'s (sealed, sacrificed, given): its title leaves what they
    own. A card the table did not name can leave only while some of theirs are unnamed."""
    player = _player(d, seat)
    if card == UNKNOWN:
        if unknown_cards(player) <= 0:
            raise _fail("valley.title_needed",
                        N_("Every card of %(player)s is known: name this one."), field,
                        player=d["names"][seat])
    else:
        known = d.own("players", seat, "known")
        known[card] -= 1
        if not known[card]:
            del known[card]
    player["cards"] -= 1


def _receive(d: Draft, seat: int, card: str, pile: str = "discard") -> None:
    """A card becomes ``seat``'s, on top of their discard pile (or into their hand)."""
    player = _player(d, seat)
    player["cards"] += 1
    player[pile] += 1
    if card != UNKNOWN:
        known = d.own("players", seat, "known")
        known[card] = known.get(card, 0) + 1


def _draw(player: dict[str, Any], count: int) -> int:
    """Draw up to ``count`` cards, shuffling the discard pile into a new deck when the deck
    runs out (SEED turn step 4); with both empty, draw what exists (§16 #14)."""
    drawn = 0
    while drawn < count:
        if player["deck"] == 0:
            if player["discard"] == 0:
                break
            player["deck"], player["discard"] = player["discard"], 0
        take = min(count - drawn, player["deck"])
        player["deck"] -= take
        player["hand"] += take
        drawn += take
    return drawn


def _top_of_deck(d: Draft, seat: int, field: str) -> None:
    """The top card of the deck leaves it (Necklace), reshuffling first if needed."""
    player = _player(d, seat)
    if player["deck"] == 0:
        if player["discard"] == 0:
            raise _fail(ACTION_IMPOSSIBLE, N_("The deck and the discard pile are empty."),
                        field)
        player["deck"], player["discard"] = player["discard"], 0
    player["deck"] -= 1


def _entomb(d: Draft, seat: int, card: str, info: Mapping[str, Any], field: str) -> None:
    """Put a card face up into ``seat``'s tomb (§5.3); the tomb needs its title, its set
    when the catalogue cannot place it, and a unique's printed VP (§2.7)."""
    if card == UNKNOWN:
        raise _fail("valley.title_needed", N_("A sealed card lies face up: name it."), field)
    _learn_set(d, card, info.get("set"), field)
    placed = card_set(d.state, card)
    if placed is None:
        raise _fail("valley.set_needed", N_("Say which set “%(title)s” belongs to (its "
                                            "colour), or that it is unique."), field,
                    title=t.title_label(card))
    if placed == t.UNIQUE:
        _value(d, "vp", card, info.get("vp"), field)
    else:
        _learn(d, "vp", card, info.get("vp"), field)
    _player(d, seat)
    d.own("players", seat, "tomb").append(card)


def _to_boneyard(d: Draft, card: str) -> None:
    d.own("boneyard").append(card)


def _pyramid_card(d: Draft, pick: Mapping[str, Any], field: str) -> str:
    """The card in the pyramid slot ``pick["slot"]``, named by ``pick["card"]`` if the table
    had entered it as "a card" (which must then fit the pool)."""
    slot = pick["slot"]
    card = d["pyramid"][pyr.INDEX[slot]]
    if card is None:
        raise _fail("valley.empty_slot", N_("There is no card in %(slot)s."), f"{field}.slot",
                    slot=slot)
    named = pick.get("card")
    if named is not None and named != card:
        if card != UNKNOWN:
            raise _fail("valley.wrong_card", N_("The card in %(slot)s is “%(title)s”."),
                        f"{field}.card", slot=slot, title=t.title_label(card))
        if t.TITLES[named].kind is t.Kind.STARTER:
            raise _not_in_pool(named, f"{field}.card")
        _locate(d, named, f"{field}.card")
        d.own("pyramid")[pyr.INDEX[slot]] = named       # the card is known from now on
        card = named
    return card


def _take_from_pyramid(d: Draft, pick: Mapping[str, Any], field: str,
                       by_active: bool = True) -> str:
    """Remove a pyramid card and crumble (§4): the pyramid changed this turn (§5, §16 #2)."""
    card = _pyramid_card(d, pick, field)
    d.state["pyramid"] = pyr.remove(d["pyramid"], pick["slot"], pick.get("drop"), f"{field}.drop")
    if by_active or d["options"]["opponent_change_counts"]:
        d.state["changed"] = True
    return card


def _mark_card_play(d: Draft) -> None:
    """The first card played (capital or action; sealing is not playing, §6) in a turn closes
    the previous turn's correction window (§7)."""
    if not d["card_played"]:
        d.state["card_played"] = True
        d.state["correction_from"] = d["turn_started_at"]


def _play(d: Draft, seat: int, card: str, use: Use, field: str) -> int:
    """A hand card is played (capital or action, §5 step 1); returns its capital multiplier:
    2 when Ring's doubling is pending and this is the next card played (§8, §16 #5)."""
    _from_hand(d, seat, card, field)
    multiplier = 1
    if d["ring"]:
        if use is Use.CAPITAL:
            multiplier = 2
            d.state["ring"] = False
        elif d["options"]["ring_lost_on_action"]:
            d.state["ring"] = False
    d.own("played").append({"card": card, "use": _USE[use], "out": False})
    _mark_card_play(d)
    return multiplier


# --------------------------------------------------------------------------------------------
# Argument parsing (shape only; the rules are checked while the move is written)
# --------------------------------------------------------------------------------------------


def _bad(argument: str) -> RuleViolation:
    return REFEREE.bad_move(argument)


def _card(value: Any, argument: str, unknown: bool = True) -> str:
    """A title id, or "?" for a card the table does not name."""
    if isinstance(value, str) and (value in t.TITLES or (unknown and value == UNKNOWN)):
        return value
    raise _bad(argument)


def _opt_int(source: Mapping[str, Any], key: str, argument: str, low: int = 0,
             high: int | None = None) -> int | None:
    value = source.get(key)
    if value is None:
        return None
    if not is_int(value) or value < low or (high is not None and value > high):
        raise _bad(f"{argument}.{key}" if argument else key)
    return value


def _obj(value: Any, argument: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _bad(argument)
    return value


def _list(value: Any, argument: str, low: int = 0, high: int | None = None) -> list[Any]:
    if not isinstance(value, list) or len(value) < low or (high is not None and len(value) > high):
        raise _bad(argument)
    return value


def _seat(value: Any, argument: str, state: Mapping[str, Any]) -> int:
    if not is_int(value) or not 0 <= value < len(state["names"]):
        raise _bad(argument)
    return value


def _pick(value: Any, argument: str, slots: Iterable[str] = pyr.SLOTS) -> dict[str, Any]:
    """A pyramid card: ``{"slot", "card"?, "drop"?, "cost"?, "vp"?, "set"?}``."""
    pick = _obj(value, argument)
    if pick.get("slot") not in slots:
        raise _bad(f"{argument}.slot")
    clean = {"slot": pick["slot"]}
    if pick.get("card") is not None:
        clean["card"] = _card(pick["card"], f"{argument}.card")
    if pick.get("drop") is not None:
        if pick["drop"] not in pyr.SLOTS:
            raise _bad(f"{argument}.drop")
        clean["drop"] = pick["drop"]
    for key in ("cost", "vp"):
        number = _opt_int(pick, key, argument, high=99)
        if number is not None:
            clean[key] = number
    if pick.get("set") is not None:
        if not isinstance(pick["set"], str):
            raise _bad(f"{argument}.set")
        clean["set"] = pick["set"]
    return clean


def _info(value: Mapping[str, Any], argument: str) -> dict[str, Any]:
    """The printed facts a move may type for a sealed card: VP and set (§2.7)."""
    info: dict[str, Any] = {}
    vp = _opt_int(value, "vp", argument, high=99)
    if vp is not None:
        info["vp"] = vp
    if value.get("set") is not None:
        if not isinstance(value["set"], str):
            raise _bad(f"{argument}.set" if argument else "set")
        info["set"] = value["set"]
    return info


def _played_index(d: Draft, value: Any, argument: str) -> int:
    if not is_int(value) or not 0 <= value < len(d["played"]):
        raise _bad(argument)
    return value


# --------------------------------------------------------------------------------------------
# Buy (§5.1)
# --------------------------------------------------------------------------------------------


def _parse_buy(move: Mapping[str, Any]) -> dict[str, Any]:
    slot = move.get("slot")
    if slot not in pyr.SLOTS and slot != REVEALED:
        raise _bad("slot")
    args: dict[str, Any] = {"slot": slot, "pay": _list(move.get("pay", []), "pay")}
    if move.get("card") is not None:
        args["card"] = _card(move["card"], "card")
    if move.get("drop") is not None:
        if move["drop"] not in pyr.SLOTS:
            raise _bad("drop")
        args["drop"] = move["drop"]
    cost = _opt_int(move, "cost", "", high=99)
    if cost is not None:
        args["cost"] = cost
    return args


def _buy(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    slot = args["slot"]
    from_brain_hook = d["phase"] == Phase.BRAIN_HOOK
    if from_brain_hook != (slot == REVEALED):
        if from_brain_hook:
            raise _fail("valley.finish_brain_hook",
                        N_("First buy or sacrifice the card Brain Hook turned up."), "move.slot")
        raise _fail(NOT_IN_BASE, N_("Only a card Brain Hook turned up can be bought this way."),
                    "move.slot")
    if not from_brain_hook and slot not in pyr.BASE:
        raise _fail(NOT_IN_BASE, N_("Only the three cards of the base can be bought; %(slot)s "
                                    "is not in the base."), "move.slot", slot=slot)
    if from_brain_hook:
        card = d["revealed"]
        named = args.get("card")
        if named is not None and named != card:
            if card != UNKNOWN:
                raise _fail("valley.wrong_card", N_("The revealed card is “%(title)s”."),
                            "move.card", title=t.title_label(card))
            _locate(d, named, "move.card")
            card = named
    else:
        card = _pyramid_card(d, args, "move")
    cost = _value(d, "cost", card, args.get("cost"), "move.cost")
    if from_brain_hook:
        cost = max(0, cost - t.BRAIN_HOOK_DISCOUNT)     # SEED l.259; floor 0 (§16 #6)
    capital = _pay(d, seat, args["pay"])
    if capital < cost:
        raise _fail(UNDERPAID, N_("The cards put down give %(capital)d coins; the card costs "
                                  "%(cost)d."), "move.pay", capital=capital, cost=cost)
    if from_brain_hook:
        d.state["revealed"] = None
        d.state["phase"] = _PLAY
    else:
        d.state["pyramid"] = pyr.remove(d["pyramid"], slot, args.get("drop"), "move.drop")
        d.state["changed"] = True
    _receive(d, seat, card)


def _pay(d: Draft, seat: int, pay: Sequence[Any]) -> int:
    """The capital of the cards paying for one purchase (§5.1): each a hand card played now;
    a card already played cannot pay again (VK_CAPITAL_REUSED, VK_CARD_ALREADY_USED)."""
    total = 0
    for index, item in enumerate(pay):
        field = f"move.pay.{index}"
        item = _obj(item, f"pay.{index}")
        if "played" in item:
            used = _played_index(d, item["played"], f"pay.{index}.played")
            entry = d["played"][used]
            if entry["use"] == Use.CAPITAL and not entry["out"]:
                raise _fail(CAPITAL_REUSED, N_("This card's capital already paid for a "
                                               "purchase; it cannot pay for another."), field)
            raise _fail(CARD_ALREADY_USED, N_("This card was already played this turn."),
                        field)
        card = _card(item.get("card"), f"pay.{index}.card")
        typed = _opt_int(item, "capital", f"pay.{index}", high=99)
        multiplier = _play(d, seat, card, Use.CAPITAL, field)
        total += multiplier * _value(d, "capital", card, typed, f"{field}.capital")
    return total


# --------------------------------------------------------------------------------------------
# The free seal (§5.3)
# --------------------------------------------------------------------------------------------


def _parse_seal(move: Mapping[str, Any]) -> dict[str, Any]:
    if move.get("played") is not None:
        return {"played": move["played"]}
    return {"card": _card(move.get("card"), "card"), **_info(move, "")}


def _already_played(d: Draft, args: Mapping[str, Any]) -> None:
    """A card on the table this turn cannot be used again for anything until it returns to
    the hand (§5 step 1, VK_CARD_ALREADY_USED)."""
    if "played" in args:
        _played_index(d, args["played"], "played")
        raise _fail(CARD_ALREADY_USED, N_("This card was already played this turn."),
                    "move.played")


def _seal(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    _already_played(d, args)
    if d["solo"] == Solo.MASTER:
        raise _fail(FREE_SEAL_LIMIT, N_("Master embalmers have no free seal: only card actions "
                                        "seal."), "move.type")
    if d["free_seals"] >= FREE_SEALS_PER_TURN:
        raise _fail(FREE_SEAL_LIMIT, N_("The free seal was already used this turn."),
                    "move.type")
    card = args["card"]
    _from_hand(d, seat, card, "move.card")
    _release(d, seat, card, "move.card")
    _entomb(d, seat, card, args, "move.card")
    d.state["free_seals"] = d["free_seals"] + 1


# --------------------------------------------------------------------------------------------
# Actions (§5.2, §8)
# --------------------------------------------------------------------------------------------

ActionHandler = Callable[[Draft, int, str, Mapping[str, Any]], None]


def _parse_action(move: Mapping[str, Any]) -> dict[str, Any]:
    if move.get("played") is not None:
        return {"played": move["played"]}
    args = dict(move)
    args["card"] = _card(move.get("card"), "card")
    return args


def _impossible(message: str, field: str = "move.card", **params: Any) -> RuleViolation:
    return _fail(ACTION_IMPOSSIBLE, message, field, **params)


def _action(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    _already_played(d, args)
    card = args["card"]
    action = t.TITLES[card].action if card != UNKNOWN else None
    if d["phase"] == Phase.BRAIN_HOOK and action is not t.Action.RING:
        # §5.2: finish a card's action first; Ring is the sanctioned exception (§8)
        raise _fail("valley.finish_brain_hook",
                    N_("First buy or sacrifice the card Brain Hook turned up."), "move.card")
    if d["solo"] and action in OPPONENT_ACTIONS:
        raise _fail(SOLO_OPPONENT, N_("Solo: an action that refers to an opponent cannot be "
                                      "played."), "move.card")
    if action is t.Action.AXE:
        raise _impossible(N_("Axe is played only when an effect makes you discard a card."))
    ACTION_HANDLERS.get(action, _generic)(d, seat, card, args)


def _ring(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: the next card played this turn has double capital."""
    _play(d, seat, card, Use.ACTION, "move.card")
    d.state["ring"] = True


def _serdab(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: set hand cards aside; they join the hand after the end-of-turn draw."""
    count = args.get("count", 0)
    if not is_int(count) or count < 0:
        raise _bad("count")
    _play(d, seat, card, Use.ACTION, "move.card")
    player = _player(d, seat)
    if player["hand"] < count:
        raise _fail("valley.hand_empty", N_("%(player)s has no card left in hand."),
                    "move.count", player=d["names"][seat])
    player["hand"] -= count
    player["aside"] += count


def _antechamber(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: a card from the discard pile into the hand; impossible with an empty pile."""
    if d["players"][seat]["discard"] == 0:
        raise _impossible(N_("The discard pile is empty."))
    _play(d, seat, card, Use.ACTION, "move.card")
    player = _player(d, seat)
    player["discard"] -= 1
    player["hand"] += 1


def _earlier_played(d: Draft, value: Any, argument: str, own: int) -> int:
    """A card played earlier this turn and still on the table (not this action's card)."""
    index = _played_index(d, value, argument)
    if index == own:
        raise _fail(SEAL_LIMIT, N_("This card cannot take itself."), f"move.{argument}")
    if index > own or d["played"][index]["out"]:
        raise _fail("valley.not_on_table", N_("That card is no longer on the table."),
                    f"move.{argument}")
    return index


def _hounds_and_jackals(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: a card played earlier this turn returns to the hand, usable again (§16 #16)."""
    if table_cards(d.state) == 0:
        raise _impossible(N_("No card was played earlier this turn."))
    returned = _obj(args.get("return"), "return")
    _play(d, seat, card, Use.ACTION, "move.card")
    index = _earlier_played(d, returned.get("played"), "return.played", len(d["played"]) - 1)
    d.own("played", index)["out"] = True
    _player(d, seat)["hand"] += 1


def _victory(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: seal a card played earlier this turn, never Victory itself (VK_SEAL_LIMIT)."""
    if table_cards(d.state) == 0:
        raise _impossible(N_("No card was played earlier this turn."))
    sealed = _obj(args.get("seal"), "seal")
    _play(d, seat, card, Use.ACTION, "move.card")
    index = _earlier_played(d, sealed.get("played"), "seal.played", len(d["played"]) - 1)
    entry = d["played"][index]
    title = entry["card"]
    named = sealed.get("card")
    if named is not None:
        named = _card(named, "seal.card")
        if title != UNKNOWN and named != title:
            raise _fail("valley.wrong_card", N_("That card is “%(title)s”."), "move.seal.card",
                        title=t.title_label(title))
        if title == UNKNOWN and named != UNKNOWN:
            _claim(d, seat, named, "move.seal.card")
            title = named
    d.own("played", index)["out"] = True
    _release(d, seat, title, "move.seal.card")
    _entomb(d, seat, title, _info(sealed, "seal"), "move.seal.card")


def _necklace(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: seal the top card of the deck; after a starter, the next one too (at most 2)."""
    player = d["players"][seat]
    if player["deck"] + player["discard"] == 0:
        raise _impossible(N_("The deck and the discard pile are empty."))
    seals = _list(args.get("seals"), "seals", low=1)
    if len(seals) > NECKLACE_MAX_SEALS:
        raise _fail(SEAL_LIMIT, N_("Necklace seals at most two cards."), "move.seals")
    _play(d, seat, card, Use.ACTION, "move.card")
    first = None
    for index, item in enumerate(seals):
        field = f"move.seals.{index}"
        item = _obj(item, f"seals.{index}")
        title = _card(item.get("card"), f"seals.{index}.card")
        if first is not None and card_set(d.state, first) != "starter":
            raise _fail(SEAL_LIMIT, N_("Only after a starter card may Necklace seal a second "
                                       "card."), field)
        _top_of_deck(d, seat, field)
        _claim(d, seat, title, field)
        _release(d, seat, title, field)
        _entomb(d, seat, title, _info(item, f"seals.{index}"), field)
        first = title


def _offering_chapel(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: every player may seal the top card of their discard pile (action seals)."""
    seals = _list(args.get("seals", []), "seals")
    _play(d, seat, card, Use.ACTION, "move.card")
    sealed_by: set[int] = set()
    for index, item in enumerate(seals):
        field = f"move.seals.{index}"
        item = _obj(item, f"seals.{index}")
        who = _seat(item.get("seat"), f"seals.{index}.seat", d.state)
        if who in sealed_by:
            raise _bad(f"seals.{index}.seat")
        sealed_by.add(who)
        if item.get("card") is None:
            continue                             # "may": this player does not seal
        if d["players"][who]["discard"] == 0:
            raise _fail("valley.discard_empty",
                        N_("%(player)s has no card in the discard pile."), field,
                        player=d["names"][who])
        title = _card(item.get("card"), f"seals.{index}.card")
        _claim(d, who, title, field)
        _release(d, who, title, field)
        _player(d, who)["discard"] -= 1
        _entomb(d, who, title, _info(item, f"seals.{index}"), field)


def _has_set_card(d: Draft, seat: int) -> bool:
    return any(is_set_card(d.state, c) for c in d["players"][seat]["tomb"])


def _need_pyramid(d: Draft) -> None:
    if pyramid_cards(d.state) == 0:
        raise _impossible(N_("The pyramid is empty."))


def _brooch(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: seal a pyramid card, then sacrifice a set card from the tomb; without a set card in
    the tomb the action cannot be played (§16 #7: it may be the card just sealed)."""
    if not _has_set_card(d, seat):
        raise _impossible(N_("Brooch needs a set card in your tomb to sacrifice."))
    _need_pyramid(d)
    pick = _pick(args.get("seal"), "seal")
    sacrifice = _obj(args.get("sacrifice"), "sacrifice")
    victim = _card(sacrifice.get("card"), "sacrifice.card", unknown=False)
    _play(d, seat, card, Use.ACTION, "move.card")
    sealed = _take_from_pyramid(d, pick, "move.seal")
    _entomb(d, seat, sealed, pick, "move.seal.card")
    tomb = d["players"][seat]["tomb"]
    if victim not in tomb:
        raise _fail("valley.not_in_tomb", N_("“%(title)s” is not in your tomb."),
                    "move.sacrifice.card", title=t.title_label(victim))
    if not is_set_card(d.state, victim):
        raise _fail("valley.not_a_set_card", N_("Starters and uniques are not set cards."),
                    "move.sacrifice.card")
    tomb = d.own("players", seat, "tomb")
    tomb.reverse()
    tomb.remove(victim)          # the latest copy (the tomb may be rearranged at any time)
    tomb.reverse()
    _to_boneyard(d, victim)


def bow_key(state: Mapping[str, Any], card: str) -> str | None:
    """Bow's "set": the scoring group (§16 #8 default) or the printed set."""
    if state["options"]["bow_scope"] == "group":
        return group_of(state, card)
    return card_set(state, card)


def _bow(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: seal from the pyramid a set card of a set with no card in your tomb yet."""
    _need_pyramid(d)
    held = {bow_key(d.state, c) for c in d["players"][seat]["tomb"] if is_set_card(d.state, c)}
    candidates = [c for c in d["pyramid"] if c is not None]
    if UNKNOWN not in candidates and all(
            card_set(d.state, c) is not None for c in candidates) and not any(
            is_set_card(d.state, c) and bow_key(d.state, c) not in held for c in candidates):
        raise _impossible(N_("No pyramid card belongs to a set missing from your tomb."))
    pick = _pick(args.get("seal"), "seal")
    _play(d, seat, card, Use.ACTION, "move.card")
    target = _pyramid_card(d, pick, "move.seal")
    if target == UNKNOWN:
        raise _fail("valley.title_needed", N_("A sealed card lies face up: name it."),
                    "move.seal.card")
    _learn_set(d, target, pick.get("set"), "move.seal.set")
    if not is_set_card(d.state, target):
        raise _fail(SEAL_LIMIT, N_("Bow seals only set cards."), "move.seal.slot")
    if bow_key(d.state, target) in held:
        raise _fail(SEAL_LIMIT, N_("Your tomb already holds a card of this set."),
                    "move.seal.slot")
    _take_from_pyramid(d, {**pick, "card": target}, "move.seal")
    _entomb(d, seat, target, pick, "move.seal.card")


def _khopesh(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: gain the pyramid card the opponent on your left picks; you make crumble choices."""
    _need_pyramid(d)
    pick = _pick(args.get("gain"), "gain")
    _play(d, seat, card, Use.ACTION, "move.card")
    _receive(d, seat, _take_from_pyramid(d, pick, "move.gain"))


def _costs_known(d: Draft, extra: Mapping[str, int]) -> dict[str, int] | None:
    """Every pyramid card's cost by slot, or None while any is unknown."""
    costs = {}
    for slot, card in zip(pyr.SLOTS, d["pyramid"]):
        if card is None:
            continue
        cost = printed(d.state, "cost", card) if card != UNKNOWN else None
        if cost is None:
            cost = extra.get(slot)
        if cost is None:
            return None
        costs[slot] = cost
    return costs


def _nut(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: the chosen opponent may gain the cheapest pyramid card, then you gain the most
    expensive (ties: the gainer picks). Checked when every cost in the pyramid is known."""
    _need_pyramid(d)
    opponent = _seat(args.get("opponent"), "opponent", d.state)
    if opponent == seat:
        raise _fail("valley.not_an_opponent", N_("Choose an opponent."), "move.opponent")
    _play(d, seat, card, Use.ACTION, "move.card")
    for key, gainer, pick_cheapest in (("opponent_gain", opponent, True),
                                       ("gain", seat, False)):
        if args.get(key) is None:
            if key == "gain" and pyramid_cards(d.state) > 0:
                raise _bad("gain")               # your gain is not optional
            continue
        pick = _pick(args[key], key)
        target = _pyramid_card(d, pick, f"move.{key}")
        if pick.get("cost") is not None:
            _learn(d, "cost", target, pick["cost"], f"move.{key}.cost")
        costs = _costs_known(d, {pick["slot"]: pick["cost"]} if "cost" in pick else {})
        if costs is not None:
            best = min(costs.values()) if pick_cheapest else max(costs.values())
            if costs[pick["slot"]] != best:
                raise _fail("valley.nut_choice",
                            N_("Nut gives the cheapest card to the opponent and the most "
                               "expensive to you: %(slot)s is not one."), f"move.{key}.slot",
                            slot=pick["slot"])
        _take_from_pyramid(d, {**pick, "card": target}, f"move.{key}", by_active=gainer == seat)
        _receive(d, gainer, target)


def _mirror_case(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: gain a card, crumble, then Mirror Case goes on the apex and falls (the active
    player picks where two slots are open); it leaves your cards."""
    _need_pyramid(d)
    pick = _pick(args.get("gain"), "gain")
    place = args.get("place")
    if place is not None and place not in pyr.SLOTS:
        raise _bad("place")
    _play(d, seat, card, Use.ACTION, "move.card")
    _receive(d, seat, _take_from_pyramid(d, pick, "move.gain"))
    d.own("played", len(d["played"]) - 1)["out"] = True
    _release(d, seat, card, "move.card")
    d.state["pyramid"] = pyr.place_falling(d["pyramid"], card, place, "move.place")


def _dagger(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: with at least as many boneyard cards as players, each player from you on takes
    the top one (to the discard pile by default, §16 #4)."""
    _play(d, seat, card, Use.ACTION, "move.card")
    players = len(d["names"])
    if len(d["boneyard"]) < players:
        return
    pile = "hand" if d["options"]["dagger_to"] == "hand" else "discard"
    for step in range(players):
        taker = (seat + step) % players
        boneyard = d.own("boneyard")
        _receive(d, taker, boneyard.pop(), pile)


def _judgement(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: set a hand card aside, gain the top boneyard card; repeat; then sacrifice the
    set-aside cards in the order given (the last ends on top)."""
    aside = _list(args.get("set_aside"), "set_aside", low=1)
    _play(d, seat, card, Use.ACTION, "move.card")
    if not d["boneyard"]:
        raise _impossible(N_("The boneyard is empty."))
    if len(aside) > len(d["boneyard"]):
        raise _impossible(N_("The boneyard holds only %(count)d cards to gain."),
                          "move.set_aside", count=len(d["boneyard"]))
    sacrificed = []
    for index, item in enumerate(aside):
        field = f"move.set_aside.{index}"
        item = _obj(item, f"set_aside.{index}")
        if "played" in item:
            raise _fail(SACRIFICE_PLAYED, N_("A card played this turn cannot be sacrificed."),
                        field)
        title = _card(item.get("card"), f"set_aside.{index}.card")
        _from_hand(d, seat, title, field)
        _release(d, seat, title, field)
        sacrificed.append(title)
        _receive(d, seat, d.own("boneyard").pop())
    for title in sacrificed:
        _to_boneyard(d, title)


def _brain_hook(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: turn up the top supply card (named now, or the next move as a chance input); then
    buy it for 2 less or sacrifice it. Not a pyramid change; impossible with no supply."""
    if d["supply"] == 0:
        raise _impossible(N_("The supply is empty."))
    _play(d, seat, card, Use.ACTION, "move.card")
    d.state["supply"] = d["supply"] - 1
    if args.get("revealed") is None:
        d.state["phase"] = _REVEAL
        return
    _reveal_card(d, _card(args["revealed"], "revealed"), "move.revealed")


def _reveal_card(d: Draft, card: str, field: str) -> None:
    if card != UNKNOWN:
        if t.TITLES[card].kind is t.Kind.STARTER:
            raise _not_in_pool(card, field)
        _locate(d, card, field)
    d.state["revealed"] = card
    d.state["phase"] = _BRAIN_HOOK


def _senet(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: draw a card, put Senet on an opponent's discard pile; that opponent puts a set card
    from hand on yours, or shows a hand without one (``card`` null). Giving Axe may trigger
    its reaction (``reaction``: true, with every other player's ``discards``)."""
    opponent = _seat(args.get("opponent"), "opponent", d.state)
    if opponent == seat:
        raise _fail("valley.not_an_opponent", N_("Choose an opponent."), "move.opponent")
    response = _obj(args.get("response") or {}, "response")   # none: no set card in hand
    _play(d, seat, card, Use.ACTION, "move.card")
    _draw(_player(d, seat), 1)
    d.own("played", len(d["played"]) - 1)["out"] = True
    _release(d, seat, card, "move.card")
    _receive(d, opponent, card)
    if response.get("card") is None:
        return                                   # the opponent showed a hand without set cards
    _forced_discard(d, opponent, response, seat, "response", set_card=True)


def _forced_discard(d: Draft, seat: int, entry: Mapping[str, Any], onto: int, argument: str,
                    set_card: bool = False) -> None:
    """``seat`` discards a hand card because an effect says so, onto ``onto``'s discard pile
    (Senet: a set card; Axe: the highest-cost card, onto the own pile). Discarding Axe instead
    (``reaction``) makes every opponent of ``seat`` discard their highest-cost card (§8)."""
    field = f"move.{argument}"
    title = _card(entry.get("card"), f"{argument}.card")
    if set_card and title != UNKNOWN and card_set(d.state, title) is not None and not \
            is_set_card(d.state, title):
        raise _fail("valley.not_a_set_card", N_("Starters and uniques are not set cards."),
                    f"{field}.card")
    reaction = entry.get("reaction", False)
    if reaction not in (True, False) or (reaction and title != "axe"):
        raise _bad(f"{argument}.reaction")
    _from_hand(d, seat, title, f"{field}.card")
    if onto != seat:
        _release(d, seat, title, f"{field}.card")
        _receive(d, onto, title)
    else:
        _player(d, seat)["discard"] += 1
    if not reaction:
        return
    players = len(d["names"])
    discards = _list(entry.get("discards"), f"{argument}.discards")
    expected = [(seat + step) % players for step in range(1, players)]
    seats = [_seat(_obj(item, f"{argument}.discards.{i}").get("seat"),
                   f"{argument}.discards.{i}.seat", d.state) for i, item in enumerate(discards)]
    if sorted(seats) != sorted(expected):
        raise _bad(f"{argument}.discards")
    for i, item in enumerate(discards):
        if item.get("card") is None:
            if d["players"][item["seat"]]["hand"] > 0:
                raise _bad(f"{argument}.discards.{i}.card")
            continue                             # nothing in hand to discard
        _forced_discard(d, item["seat"], item, item["seat"], f"{argument}.discards.{i}")


class Effect(StrEnum):
    """Public consequences of a card whose action the catalogue does not know (generic)."""

    GAIN = "gain"                       # a pyramid card onto your discard pile
    SEAL_PYRAMID = "seal_pyramid"       # a pyramid card into your tomb
    SEAL_HAND = "seal_hand"             # an action seal from hand
    SACRIFICE_HAND = "sacrifice_hand"   # a hand card onto the boneyard
    SACRIFICE_PYRAMID = "sacrifice_pyramid"
    TAKE_BONEYARD = "take_boneyard"     # the top boneyard card onto your discard pile
    TAKE_SUPPLY = "take_supply"         # the top supply card (named) onto your discard pile
    DRAW = "draw"                       # cards drawn from your deck
    DISCARD = "discard"                 # a hand card onto your discard pile


EFFECT_KINDS = frozenset(e.value for e in Effect)
EFFECT_LABELS: Mapping[str, str] = {
    Effect.GAIN: N_("gain a pyramid card"),
    Effect.SEAL_PYRAMID: N_("seal a pyramid card"),
    Effect.SEAL_HAND: N_("seal a card from hand"),
    Effect.SACRIFICE_HAND: N_("sacrifice a card from hand"),
    Effect.SACRIFICE_PYRAMID: N_("sacrifice a pyramid card"),
    Effect.TAKE_BONEYARD: N_("take the top boneyard card"),
    Effect.TAKE_SUPPLY: N_("take the top supply card"),
    Effect.DRAW: N_("draw cards"),
    Effect.DISCARD: N_("discard a card from hand"),
}


def _generic(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """A card whose action the catalogue does not know (the original box, unnamed titles, the
    starters): the table logs its public consequences, each checked against the general
    rules (pyramid, copy limits, no sacrifice of played cards)."""
    effects = _list(args.get("effects", []), "effects")
    _play(d, seat, card, Use.ACTION, "move.card")
    for index, effect in enumerate(effects):
        argument = f"effects.{index}"
        field = f"move.{argument}"
        effect = _obj(effect, argument)
        kind = effect.get("kind")
        if kind not in EFFECT_KINDS:
            raise _bad(f"{argument}.kind")
        if kind in (Effect.GAIN, Effect.SEAL_PYRAMID, Effect.SACRIFICE_PYRAMID):
            pick = _pick(effect, argument)
            target = _take_from_pyramid(d, pick, field)
            if kind == Effect.GAIN:
                _receive(d, seat, target)
            elif kind == Effect.SEAL_PYRAMID:
                _entomb(d, seat, target, pick, f"{field}.card")
            else:
                _to_boneyard(d, target)
        elif kind in (Effect.SEAL_HAND, Effect.SACRIFICE_HAND, Effect.DISCARD):
            if "played" in effect:
                raise _fail(SACRIFICE_PLAYED if kind == Effect.SACRIFICE_HAND else
                            CARD_ALREADY_USED, N_("A card played this turn cannot be used so."),
                            field)
            title = _card(effect.get("card"), f"{argument}.card")
            _from_hand(d, seat, title, f"{field}.card")
            if kind == Effect.DISCARD:
                _player(d, seat)["discard"] += 1
                continue
            _release(d, seat, title, f"{field}.card")
            if kind == Effect.SEAL_HAND:
                _entomb(d, seat, title, _info(effect, argument), f"{field}.card")
            else:
                _to_boneyard(d, title)
        elif kind == Effect.TAKE_BONEYARD:
            if not d["boneyard"]:
                raise _impossible(N_("The boneyard is empty."), field)
            _receive(d, seat, d.own("boneyard").pop())
        elif kind == Effect.TAKE_SUPPLY:
            if d["supply"] == 0:
                raise _impossible(N_("The supply is empty."), field)
            title = _card(effect.get("card"), f"{argument}.card")
            if title != UNKNOWN:
                if t.TITLES[title].kind is t.Kind.STARTER:
                    raise _not_in_pool(title, f"{field}.card")
                _locate(d, title, f"{field}.card")
            d.state["supply"] = d["supply"] - 1
            _receive(d, seat, title)
        else:
            count = _opt_int(effect, "count", argument, low=1, high=99) or 1
            _draw(_player(d, seat), count)


ACTION_HANDLERS: Mapping[t.Action | None, ActionHandler] = {
    t.Action.RING: _ring,
    t.Action.SERDAB: _serdab,
    t.Action.ANTECHAMBER: _antechamber,
    t.Action.HOUNDS_AND_JACKALS: _hounds_and_jackals,
    t.Action.VICTORY: _victory,
    t.Action.NECKLACE: _necklace,
    t.Action.OFFERING_CHAPEL: _offering_chapel,
    t.Action.BROOCH: _brooch,
    t.Action.BOW: _bow,
    t.Action.KHOPESH: _khopesh,
    t.Action.NUT: _nut,
    t.Action.MIRROR_CASE: _mirror_case,
    t.Action.DAGGER: _dagger,
    t.Action.JUDGEMENT: _judgement,
    t.Action.BRAIN_HOOK: _brain_hook,
    t.Action.SENET: _senet,
}


# --------------------------------------------------------------------------------------------
# Brain Hook's card (§8)
# --------------------------------------------------------------------------------------------


def _parse_reveal(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"card": _card(move.get("card", UNKNOWN), "card")}


def _reveal(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    _reveal_card(d, args["card"], "move.card")


def _decline(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Brain Hook's card not bought is sacrificed (SEED l.259)."""
    _to_boneyard(d, d["revealed"])
    d.state["revealed"] = None
    d.state["phase"] = _PLAY


# --------------------------------------------------------------------------------------------
# End of turn: discard, rebuild, refill, draw (§5 steps 2-4), end of game (§9)
# --------------------------------------------------------------------------------------------


def _parse_end_turn(move: Mapping[str, Any]) -> dict[str, Any]:
    if move.get("sacrifice") is None:
        return {"sacrifice": None}
    return {"sacrifice": _pick(move["sacrifice"], "sacrifice")}


def _end_turn(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Rebuild (§5 step 3): sacrifice exactly one pyramid card, any slot, when and only when
    the pyramid did not change this turn and is not empty; then refill or end the turn."""
    needed = rebuild_needed(d.state)
    pick = args["sacrifice"]
    if needed and pick is None:
        raise _fail(REBUILD, N_("The pyramid did not change this turn: sacrifice one of its "
                                "cards."), "move.sacrifice")
    if not needed and pick is not None:
        raise _fail(REBUILD, N_("The pyramid changed this turn (or is empty): nothing is "
                                "sacrificed."), "move.sacrifice")
    if pick is not None:
        card = _pyramid_card(d, pick, "move.sacrifice")
        d.state["pyramid"] = pyr.remove(d["pyramid"], pick["slot"], pick.get("drop"),
                                  "move.sacrifice.drop")
        _to_boneyard(d, card)
    if refill_count(d.state):
        d.state["phase"] = _REFILL
    else:
        _finish_turn(d)


def refill_count(state: Mapping[str, Any]) -> int:
    """Cards the refill takes: every empty slot, while the supply lasts (§4, §16 #18)."""
    return min(len(pyr.refill_order(state["pyramid"])), state["supply"])


def _parse_refill(move: Mapping[str, Any]) -> dict[str, Any]:
    cards = move.get("cards")
    if isinstance(cards, str):
        cards = [cards]          # one card: as a Chance with one draw enters it (base.Chance)
    cards = [_card(c, f"cards.{i}") for i, c in enumerate(_list(cards, "cards"))]
    slots = move.get("slots")
    if slots is not None:
        slots = _list(slots, "slots")
        if not all(s in pyr.SLOTS for s in slots):
            raise _bad("slots")
    return {"cards": cards, "slots": slots}


def _refill(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Refill bottom-up from the supply, one card at a time into the lowest empty slot (§4)."""
    cards = args["cards"]
    wanted = refill_count(d.state)
    if len(cards) != wanted:
        raise _fail(REBUILD, N_("The refill takes %(count)d cards from the supply."),
                    "move.cards", count=wanted)
    order = args["slots"] or pyr.refill_order(d["pyramid"])[:wanted]
    if len(order) != wanted or not pyr.refill_valid(d["pyramid"], order):
        raise _fail(REBUILD, N_("Refill bottom-up: always the lowest row with an empty slot."),
                    "move.slots")
    slots = d.own("pyramid")
    for index, (slot, card) in enumerate(zip(order, cards)):
        if card != UNKNOWN:
            if t.TITLES[card].kind is t.Kind.STARTER:
                raise _not_in_pool(card, f"move.cards.{index}")
            _locate(d, card, f"move.cards.{index}")
        slots[pyr.INDEX[slot]] = card
    d.state["supply"] = d["supply"] - wanted
    _finish_turn(d)


def _finish_turn(d: Draft) -> None:
    """Discard what was played and held (step 2), draw five (step 4) and add Serdab's cards;
    then the game ends (§9) or the player to the left takes a turn."""
    seat = d["current"]
    player = _player(d, seat)
    player["discard"] += player["hand"] + table_cards(d.state)
    player["hand"] = 0
    _draw(player, t.HAND_SIZE)
    player["hand"] += player["aside"]
    player["aside"] = 0
    if d["supply"] == 0 and pyramid_cards(d.state) == 0 and seat == last_seat(d.state):
        d.state["phase"] = _OVER           # §9: all three conditions, after a full round
        return
    d.state["current"] = (seat + 1) % len(d["names"])
    d.state["turn"] = d["turn"] + 1
    d.state["phase"] = _PLAY
    d.state["played"] = []
    d.state["changed"] = False
    d.state["free_seals"] = 0
    d.state["ring"] = False                            # no carry-over (SEED Ring clarification)
    d.state["card_played"] = False
    d.state["turn_started_at"] = d["moves"] + 1        # this move's index is d["moves"]


def _after(d: Draft) -> None:
    d.state["moves"] = d["moves"] + 1


# --------------------------------------------------------------------------------------------
# The referee
# --------------------------------------------------------------------------------------------

_PLAYING = frozenset({_PLAY})
REFEREE = Referee(
    "valley",
    (
        MoveRule(MoveKind.BUY, MOVE_LABELS[MoveKind.BUY],
                 frozenset({_PLAY, _BRAIN_HOOK}), _parse_buy, None, _buy),
        MoveRule(MoveKind.ACTION, MOVE_LABELS[MoveKind.ACTION],
                 frozenset({_PLAY, _BRAIN_HOOK}), _parse_action, None,
                 _action),
        MoveRule(MoveKind.SEAL, MOVE_LABELS[MoveKind.SEAL], _PLAYING, _parse_seal, None, _seal),
        MoveRule(MoveKind.END_TURN, MOVE_LABELS[MoveKind.END_TURN], _PLAYING, _parse_end_turn,
                 None, _end_turn),
        MoveRule(MoveKind.REFILL, MOVE_LABELS[MoveKind.REFILL],
                 frozenset({_REFILL}), _parse_refill, None, _refill),
        MoveRule(MoveKind.REVEAL, MOVE_LABELS[MoveKind.REVEAL],
                 frozenset({_REVEAL}), _parse_reveal, None, _reveal),
        MoveRule(MoveKind.DECLINE, MOVE_LABELS[MoveKind.DECLINE],
                 frozenset({_BRAIN_HOOK}), None, None, _decline),
    ),
    phase_of=lambda state: state["phase"],
    awaited=awaited,
    over=is_over,
    phase_labels=WAITING_LABELS,
    after=_after,
)


def apply(state: Mapping[str, Any], seat: int, move: Any) -> dict[str, Any]:
    """Referee ``move`` by ``seat``; the new state, or RuleViolation (``state`` untouched)."""
    return REFEREE.apply(state, seat, move)


def validate(state: Mapping[str, Any], seat: int, move: Any) -> None:
    """Raise RuleViolation if ``seat`` may not make ``move``. Most rules are checked while
    the move is written on a copy-on-write draft, which is then dropped."""
    REFEREE.apply(state, seat, move)


# --------------------------------------------------------------------------------------------
# Scoring from the tombs (§10, §12)
# --------------------------------------------------------------------------------------------


def unique_name(card: str) -> str:
    """How a unique is written in the final-state document: its name, else its id."""
    title = t.TITLES[card]
    return title.name_en or title.name_cs or card


def tombs(state: Mapping[str, Any]) -> list[PlayerTomb]:
    """Every tomb as the score pad counts it (§14)."""
    solo = state["solo"] is not None
    groups = {}
    result = []
    for name, player in zip(state["names"], state["players"]):
        tomb = player["tomb"]
        for card in tomb:
            if card not in groups:
                groups[card] = group_of(state, card)
        distinct, pairs = distinct_titles(tomb, groups, solo)
        starters = {s: tomb.count(s) for s in t.STARTERS}
        uniques = tuple((unique_name(c), printed(state, "vp", c)) for c in tomb
                        if card_set(state, c) == t.UNIQUE)
        result.append(PlayerTomb(name, len(tomb), starters, uniques, distinct, pairs))
    return result


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The Scoresheet of the tombs so far (``complete`` once the game is over)."""
    players = tombs(state)
    assumed = starter_assumption(players, state["starter_vp"], state["confirmed_starters"])
    return score_tombs(players, pool_of(state["options"]), state["starter_vp"],
                       state["solo"] is not None, complete=is_over(state), assumed=assumed)


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document of this game (final.py scores it to the same Scoresheet)."""
    options = state["options"]
    pool_id = PoolId(options["pool"])
    doc_options: dict[str, Any] = {"pool": pool_id.value, "solo": state["solo"]}
    for size in CHOSEN_SIZES.get(pool_id, ()):
        doc_options[f"set_{size}"] = options[f"set_{size}"]
    doc_options["uniques"] = options["uniques"]
    players = []
    for tomb, player in zip(tombs(state), state["players"]):
        # The itemised checklist as well as the counts: it carries the solo pairs (§12.1)
        # and score_final checks that both agree.
        checklist: dict[str, dict[str, dict[str, int]]] = {}
        for card in player["tomb"]:
            group = group_of(state, card)
            if group is not None:
                titles = checklist.setdefault(group, {"titles": {}})["titles"]
                titles[card] = titles.get(card, 0) + 1
        players.append({"name": tomb.name, "tomb_cards": tomb.tomb_cards,
                        "starters": dict(tomb.starters),
                        "uniques": [{"title": title, "vp": vp} for title, vp in tomb.uniques],
                        "distinct": {g["id"]: tomb.distinct.get(g["id"], 0)
                                     for g in state["pool"]["groups"]},
                        "checklist": checklist})
    document: dict[str, Any] = {"game": "valley", "options": doc_options, "players": players}
    edition: dict[str, Any] = {}
    confirmed = {s: state["starter_vp"][s] for s in state["confirmed_starters"]}
    if confirmed:
        edition["starter_vp"] = confirmed
    placements = {c: s for c, s in state["printed"]["card_set"].items()
                  if t.EDITION_DEFAULTS["card_set"].get(c) != s}
    if placements:
        edition["card_set"] = placements
    if edition:
        document["edition"] = edition
    return document


# --------------------------------------------------------------------------------------------
# Chance: what the supply can still turn up (§3, §13)
# --------------------------------------------------------------------------------------------


def supply_outcomes(state: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The titles the supply may still hold, with copies left: for each set of the pool the
    titles already seen plus stand-ins up to the printed number of titles, and the uniques in
    play likewise, so that any draw from these counts fits the pool (§13)."""
    located = state["located"]
    limits = state["limits"]
    by_set: dict[str, list[str]] = {s: [] for s in state["pool"]["sets"]}
    uniques: list[str] = []
    for card in limits:
        placed = card_set(state, card)
        if placed in by_set:
            by_set[placed].append(card)
        elif placed == t.UNIQUE:
            uniques.append(card)
    outcomes: list[tuple[str, int]] = []
    for placed, cards in list(by_set.items()) + [(t.UNIQUE, uniques)]:
        room = t.SETS[placed].size if placed in t.SETS else state["pool"]["uniques"]
        seen = [c for c in cards if located.get(c)]
        canonical = seen + [c for c in cards if not located.get(c)][:max(0, room - len(seen))]
        outcomes += [(c, limits[c] - located.get(c, 0)) for c in canonical
                     if limits[c] > located.get(c, 0)]
    return outcomes


def chance(state: Mapping[str, Any]) -> Chance | None:
    """The refill cards (§4) or Brain Hook's card (§8) the table turns up."""
    phase = state["phase"]
    if phase == Phase.REFILL:
        return Chance({"type": MoveKind.REFILL.value}, "cards", tuple(supply_outcomes(state)),
                      frozenset({state["current"]}), draws=refill_count(state))
    if phase == Phase.REVEAL:
        return Chance({"type": MoveKind.REVEAL.value}, "card", tuple(supply_outcomes(state)),
                      frozenset({state["current"]}))
    return None


# --------------------------------------------------------------------------------------------
# What a phone sees and may do
# --------------------------------------------------------------------------------------------


def view(state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """The state without the boneyard below its top card (§7; solo: all of it, §12.1), plus
    the pyramid as rows (apex first), the boneyard's top and count, and every tomb."""
    shown = dict(state)
    boneyard = state["boneyard"]
    shown["boneyard"] = list(boneyard) if state["solo"] else None
    shown["boneyard_top"] = boneyard[-1] if boneyard else None
    shown["boneyard_count"] = len(boneyard)
    shown["pyramid_rows"] = pyr.picture(state["pyramid"])
    shown["tombs"] = [list(p["tomb"]) for p in state["players"]]
    shown["tomb_view"] = [tomb_view(state, seat) for seat in range(len(state["names"]))]
    return shown


def tomb_view(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """One tomb as the phone shows it (§5.3: tombs are public): the starters, each scoring
    group of the pool with its titles and copies and the distinct titles that count (solo:
    held once, §12.1), the uniques with their VP, and cards whose set nobody entered."""
    tomb = state["players"][seat]["tomb"]
    copies: dict[str, int] = {}
    for card in tomb:
        copies[card] = copies.get(card, 0) + 1
    solo = state["solo"] is not None
    groups = []
    for group in state["pool"]["groups"]:
        titles = [[card, n] for card, n in copies.items() if group_of(state, card) == group["id"]]
        counted = sum(1 for _card, n in titles if n == 1 or not solo)
        groups.append({"id": group["id"], "size": group["size"], "titles": titles,
                       "distinct": counted, "points": t.group_points(counted)})
    return {"cards": len(tomb),
            "starters": {s: copies.get(s, 0) for s in t.STARTERS},
            "groups": groups,
            "uniques": [[card, printed(state, "vp", card)] for card in copies
                        if card_set(state, card) == t.UNIQUE],
            "unplaced": [card for card in copies if card_set(state, card) is None]}


def card_colour(state: Mapping[str, Any], card: str | None) -> str:
    """A card's frame colour for the phone (§2.3): its set's colour, "unique" (purple),
    "starter" (grey), or "" while unknown."""
    if card is None or card == UNKNOWN:
        return ""
    placed = card_set(state, card)
    if placed in t.SETS:
        return t.SETS[placed].colour.value
    return placed or ""


def could_hold(state: Mapping[str, Any], seat: int, card: str) -> bool:
    """Whether ``seat`` can name ``card`` for a card of theirs not on the table: a title of
    theirs, or one of their unnamed cards (which may be any title still outside)."""
    player = state["players"][seat]
    if player["known"].get(card, 0) > _on_table(state, seat, card):
        return True
    return unknown_cards(player) > 0 and state["located"].get(card, 0) < state["limits"].get(
        card, 0)


def hand_choices(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The titles ``seat``'s phone offers for a card from hand (hands are hidden: every title
    of theirs not on the table, with its capital where known) and, while some of their
    cards are unnamed, every other title still outside the tables' sight."""
    player = state["players"][seat]
    own = [{"card": card, "count": count - _on_table(state, seat, card),
            "capital": printed(state, "capital", card)}
           for card, count in sorted(player["known"].items(),
                                     key=lambda kv: _title_order(state, kv[0]))
           if count > _on_table(state, seat, card)]
    unnamed = unknown_cards(player)
    others = [card for card in outside_titles(state) if card not in player["known"]]
    return {"own": own, "unnamed": unnamed, "others": grouped(state, others) if unnamed else []}


def outside_titles(state: Mapping[str, Any]) -> list[str]:
    """The titles of the pool with a copy nobody has located yet: what a card the table did
    not name (in the pyramid, the supply or a hand) may turn out to be (§13)."""
    return [card for card in sorted(state["limits"], key=lambda c: _title_order(state, c))
            if card_set(state, card) != "starter"
            and state["located"].get(card, 0) < state["limits"][card]]


def grouped(state: Mapping[str, Any], cards: Iterable[str]) -> list[dict[str, Any]]:
    """``cards`` in runs by set (``set``: a set id, "unique", "starter" or "" while unknown),
    for the phone's lists."""
    runs: list[dict[str, Any]] = []
    for card in cards:
        placed = card_set(state, card) or ""
        if not runs or runs[-1]["set"] != placed:
            runs.append({"set": placed, "cards": []})
        runs[-1]["cards"].append(card)
    return runs


_CATALOGUE_ORDER = {title: index for index, title in enumerate(t.TITLES)}
_SET_ORDER = {"starter": 0, **{s: i for i, s in enumerate(t.SETS, 1)},
              t.UNIQUE: len(t.SETS) + 1}


def _title_order(state: Mapping[str, Any], card: str) -> tuple[int, int]:
    """Starters, then each set, then uniques, then titles whose set is unknown."""
    return (_SET_ORDER.get(card_set(state, card) or "", len(_SET_ORDER)),
            _CATALOGUE_ORDER.get(card, len(_CATALOGUE_ORDER)))


def _base_offers(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"slot": slot, "card": card, "cost": printed(state, "cost", card)}
            for slot, card in zip(pyr.SLOTS, state["pyramid"]) if slot in pyr.BASE and card]


def action_offers(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """The actions whose public conditions hold now, with the titles that carry them; a
    card whose action is not known is played as ``generic`` with its effects."""
    player = state["players"][seat]
    pyramid_full = pyramid_cards(state) > 0
    possible = {
        t.Action.RING: True, t.Action.SERDAB: True,
        t.Action.ANTECHAMBER: player["discard"] > 0,
        t.Action.HOUNDS_AND_JACKALS: table_cards(state) > 0,
        t.Action.VICTORY: table_cards(state) > 0,
        t.Action.NECKLACE: player["deck"] + player["discard"] > 0,
        t.Action.OFFERING_CHAPEL: True,
        t.Action.BROOCH: pyramid_full and any(is_set_card(state, c) for c in player["tomb"]),
        t.Action.BOW: pyramid_full,
        t.Action.KHOPESH: pyramid_full and not state["solo"],
        t.Action.NUT: pyramid_full and not state["solo"],
        t.Action.MIRROR_CASE: pyramid_full,
        t.Action.DAGGER: True,
        t.Action.JUDGEMENT: bool(state["boneyard"]) and player["hand"] >= 2,
        t.Action.BRAIN_HOOK: state["supply"] > 0,
        t.Action.SENET: not state["solo"],
    }
    if state["phase"] == Phase.BRAIN_HOOK:
        possible = {t.Action.RING: True}
    offers = []
    for action, ok in possible.items():
        if ok:
            cards = [c for c, x in t.TITLES.items() if x.action is action
                     and c in state["limits"] and could_hold(state, seat, c)]
            if cards:
                offers.append({"action": action.value, "cards": cards,
                               **_action_targets(state, seat, action)})
    if state["phase"] == Phase.PLAY:
        offers.append({"action": "generic", "effects": [e.value for e in Effect]})
    return offers


def _action_targets(state: Mapping[str, Any], seat: int, action: t.Action) -> dict[str, Any]:
    """What the phone offers inside an action (§8): the slots, cards or seats it may name."""
    player = state["players"][seat]
    occupied = [s for s, c in zip(pyr.SLOTS, state["pyramid"]) if c is not None]
    if action is t.Action.NUT:
        return {"costs": {s: printed(state, "cost", state["pyramid"][pyr.INDEX[s]])
                          for s in occupied}}
    if action is t.Action.BOW:
        held = {bow_key(state, c) for c in player["tomb"] if is_set_card(state, c)}
        cards = {s: state["pyramid"][pyr.INDEX[s]] for s in occupied}
        return {"slots": [s for s, c in cards.items() if card_set(state, c) is None
                          or (is_set_card(state, c) and bow_key(state, c) not in held)]}
    if action is t.Action.BROOCH:
        return {"slots": occupied, "sacrifice": sorted({c for c in player["tomb"]
                                                         if is_set_card(state, c)})}
    if action in (t.Action.KHOPESH, t.Action.MIRROR_CASE):
        return {"slots": occupied}
    if action is t.Action.OFFERING_CHAPEL:
        seats = [s for s, p in enumerate(state["players"]) if p["discard"] > 0]
        return {"seats": seats, "choices": {str(s): hand_choices(state, s) for s in seats}}
    if action is t.Action.SENET:
        # the set card an opponent gives back, and each player's discard after an Axe
        given = {c for s in range(len(state["names"])) if s != seat
                 for c in state["players"][s]["known"] if is_set_card(state, c)}
        given |= {c for c in outside_titles(state) if card_set(state, c) not in ("starter",
                                                                                 t.UNIQUE)}
        return {"given": grouped(state, sorted(given, key=lambda c: _title_order(state, c))),
                "discards": {str(s): hand_choices(state, s) for s in range(len(state["names"]))}}
    if action in (t.Action.VICTORY, t.Action.HOUNDS_AND_JACKALS):
        return {"played": [i for i, e in enumerate(state["played"]) if not e["out"]]}
    if action is t.Action.JUDGEMENT:
        return {"most": min(player["hand"] - 1, len(state["boneyard"]))}
    if action is t.Action.SERDAB:
        return {"most": player["hand"] - 1}
    if action is t.Action.DAGGER:
        return {"takes": len(state["boneyard"]) >= len(state["names"])}
    return {}


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat``'s phone may offer now: the move kinds and the choices behind them."""
    if seat != to_act(state):
        return {"moves": []}
    phase = state["phase"]
    player = state["players"][seat]
    if phase == Phase.REFILL:
        return {"moves": [MoveKind.REFILL.value], "count": refill_count(state),
                "slots": pyr.refill_order(state["pyramid"])[:refill_count(state)],
                "cards": [c for c, _ in supply_outcomes(state)], "unknown": UNKNOWN,
                "titles": grouped(state, outside_titles(state))}
    if phase == Phase.REVEAL:
        return {"moves": [MoveKind.REVEAL.value],
                "cards": [c for c, _ in supply_outcomes(state)], "unknown": UNKNOWN,
                "titles": grouped(state, outside_titles(state))}
    common = {"hand": player["hand"], "ring": state["ring"],
              "table": [{"index": i, **entry} for i, entry in enumerate(state["played"])],
              "actions": action_offers(state, seat) if player["hand"] else [],
              "cards": hand_choices(state, seat),
              "titles": grouped(state, outside_titles(state)),
              "needs_set": sets_needed(state), "needs_vp": vp_needed(state)}
    if phase == Phase.BRAIN_HOOK:
        cost = printed(state, "cost", state["revealed"])
        return {"moves": [MoveKind.BUY.value, MoveKind.DECLINE.value]
                + ([MoveKind.ACTION.value] if player["hand"] else []),
                "revealed": state["revealed"],
                "cost": None if cost is None else max(0, cost - t.BRAIN_HOOK_DISCOUNT),
                **common}
    moves = [MoveKind.BUY.value] if _base_offers(state) else []
    if player["hand"]:
        moves.append(MoveKind.ACTION.value)
    free_seal = (state["solo"] != Solo.MASTER and state["free_seals"] < FREE_SEALS_PER_TURN
                 and player["hand"] > 0)
    if free_seal:
        moves.append(MoveKind.SEAL.value)
    moves.append(MoveKind.END_TURN.value)
    return {"moves": moves, "base": _base_offers(state),
            "crumble": pyr.choices_needed(state["pyramid"]),
            "mirror_case_fall": _fall_after_gain(state["pyramid"]),
            "free_seal": free_seal, "sacrifice_required": rebuild_needed(state),
            "opponents": [s for s in range(len(state["names"])) if s != seat],
            **common}


def sets_needed(state: Mapping[str, Any]) -> dict[str, list[str]]:
    """Titles in this pool whose set nobody has entered (spec §2.5), with the sets (or
    "unique") a phone may say they belong to when one is sealed."""
    pool_sets = state["pool"]["sets"]
    needed = {}
    for card in state["limits"]:
        if card_set(state, card) is None:
            unique_ok = t.TITLES[card].box.value in state["pool"]["unique_boxes"]
            needed[card] = [s for s in placement_choices(card)
                            if s in pool_sets or (s == t.UNIQUE and unique_ok)]
    return needed


def vp_needed(state: Mapping[str, Any]) -> list[str]:
    """Uniques in play (or titles that may be one) whose printed VP nobody has entered yet:
    sealing one asks for it (spec §2.7)."""
    return [card for card in state["limits"] if card_set(state, card) in (t.UNIQUE, None)
            and printed(state, "vp", card) is None]


def _fall_after_gain(slots: Sequence[Any]) -> dict[str, dict[str, list[str]]]:
    """Mirror Case (§8): where it may come to rest after a gain from each slot (keyed by the
    slot gained, then the card dropped where there is a choice, "" otherwise)."""
    falls: dict[str, dict[str, list[str]]] = {}
    for slot in pyr.SLOTS:
        if slots[pyr.INDEX[slot]] is None:
            continue
        emptied = [None if s == slot else c for s, c in zip(pyr.SLOTS, slots)]
        drops = pyr.drop_choices(emptied, slot)
        falls[slot] = {drop if len(drops) > 1 else "": pyr.fall_targets(
            pyr.remove(slots, slot, drop if len(drops) > 1 else None, ""))
            for drop in (drops if len(drops) > 1 else ("",))}
    return falls


def _pick_for(state: Mapping[str, Any], slot: str) -> dict[str, Any]:
    """A pyramid pick with the crumble choice a move would need (the first one offered)."""
    pick: dict[str, Any] = {"slot": slot}
    choices = pyr.drop_choices([None if s == slot else c for s, c in
                                zip(pyr.SLOTS, state["pyramid"])], slot)
    if len(choices) > 1:
        pick["drop"] = choices[0]
    return pick


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """A representative set of legal moves from the public view alone (hands are hidden):
    cards the table did not name ("?") with typed values stand in for hand cards."""
    if seat != to_act(state):
        return []
    phase = state["phase"]
    player = state["players"][seat]
    if phase == Phase.REFILL:
        return [{"type": MoveKind.REFILL.value, "cards": [UNKNOWN] * refill_count(state)}]
    if phase == Phase.REVEAL:
        return [{"type": MoveKind.REVEAL.value, "card": UNKNOWN}]
    moves: list[dict[str, Any]] = []
    if phase == Phase.BRAIN_HOOK:
        moves.append({"type": MoveKind.DECLINE.value})
        if player["hand"]:
            cost = printed(state, "cost", state["revealed"])
            typed = _cost_to_type(state, state["revealed"], 2) if cost is None else cost
            buy = {"type": MoveKind.BUY.value, "slot": REVEALED,
                   "pay": [{"card": UNKNOWN, "capital": max(0, typed - 2)}]}
            if cost is None:
                buy["cost"] = typed
            moves.append(buy)
        return moves
    if rebuild_needed(state):
        for slot, card in zip(pyr.SLOTS, state["pyramid"]):
            if card is not None:
                moves.append({"type": MoveKind.END_TURN.value, "sacrifice": _pick_for(state,
                                                                                        slot)})
    else:
        moves.append({"type": MoveKind.END_TURN.value})
    if player["hand"]:
        for slot, card in zip(pyr.SLOTS, state["pyramid"]):
            if slot in pyr.BASE and card is not None:
                cost = printed(state, "cost", card)
                typed = _cost_to_type(state, card, 1) if cost is None else cost
                buy = {"type": MoveKind.BUY.value, **_pick_for(state, slot),
                       "pay": [{"card": UNKNOWN, "capital": typed}]}
                if cost is None:
                    buy["cost"] = typed
                moves.append(buy)
        moves.append({"type": MoveKind.ACTION.value, "card": UNKNOWN})
        if state["solo"] != Solo.MASTER and state["free_seals"] < FREE_SEALS_PER_TURN:
            for card, count in player["known"].items():
                if count > _on_table(state, seat, card) and card_set(state, card) in (
                        "starter", *t.SETS) and card_set(state, card) != t.UNIQUE:
                    moves.append({"type": MoveKind.SEAL.value, "card": card})
    return moves
