"""Valley of the Kings: opening a table (spec §3, §11, §12, §16).

The options choose the pool of cards (§11), the solo level (§12) and the open questions' rule
options (§16); the set-up names the start player, the six pyramid cards (B1 B2 B3, M1 M2, T)
and the boneyard card, each a title or just "a card" (``"?"``). Hands and decks are hidden: the
state counts them (:mod:`.state` has the layout).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import N_, Edition, RuleViolation
from ..referee import Draft, is_int
from . import printed as t
from . import pyramid as pyr
from .edition import no_edition, printed_values
from .knowledge import locate_dealt, title_limit
from .pools import CHOSEN_SIZES, Pool, PoolId, Solo, UniqueBox, build_pool
from .state import GAME, UNKNOWN, Phase, fail

# Rule options (spec §16 open questions) with the recommended defaults.
RULE_OPTIONS: Mapping[str, Any] = {
    "dagger_to": "discard",              # §16 #4: where a card taken by Dagger goes
    "bow_scope": "group",                # §16 #8: Bow's "set" is the scoring group
    "opponent_change_counts": True,      # §16 #2: an opponent's gain changes the pyramid too
    "ring_lost_on_action": True,         # §16 #5: an action use consumes Ring's doubling
}


def _bad_option(option: str) -> RuleViolation:
    return fail("valley.bad_option", N_("The option “%(option)s” is not valid."),
                f"options.{option}", option=option)


def normalise_options(options: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """The table's options with defaults (pool, solo level, set choices, rule options)."""
    options = dict(options or {})
    clean: dict[str, Any] = dict(RULE_OPTIONS)
    for key, value in options.items():
        if key in RULE_OPTIONS:
            if type(value) is not type(RULE_OPTIONS[key]):
                raise _bad_option(key)
            clean[key] = value
    if clean["dagger_to"] not in ("discard", "hand"):
        raise _bad_option("dagger_to")
    if clean["bow_scope"] not in ("group", "printed"):
        raise _bad_option("bow_scope")
    pool = options.get("pool") or PoolId.AFTERLIFE.value
    if pool not in {p.value for p in PoolId}:
        raise _bad_option("pool")
    solo = options.get("solo") or Solo.NONE.value
    if solo not in {s.value for s in Solo}:
        raise _bad_option("solo")
    if players == 1 and solo == Solo.NONE:
        solo = Solo.BEGINNER.value          # one player plays the solo rules (§12)
    uniques = options.get("uniques") or UniqueBox.AFTERLIFE.value
    if uniques not in {u.value for u in UniqueBox}:
        raise _bad_option("uniques")
    clean.update(pool=pool, solo=solo, uniques=uniques)
    for size in t.SIZE_PAIRS:
        value = options.get(f"set_{size}") or t.SIZE_PAIRS[size][0]
        if value not in t.SIZE_PAIRS[size]:
            raise _bad_option(f"set_{size}")
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


def setup(options: Mapping[str, Any] | None, names: Sequence[str],
          table: Mapping[str, Any] | None, edition: Edition | None = None) -> dict[str, Any]:
    """A fresh game (§3). ``table``: ``{"start_player": 0, "pyramid": {"B1": card, …, "T":
    card} (or the six cards as a list B1..T), "boneyard": card}``, each card a title id or
    "?" ("a card"). Raises RuleViolation (with its field) for an impossible start."""
    count = len(names)
    if count not in t.PLAYER_COUNTS:
        raise fail("valley.bad_player_count",
                   N_("Valley of the Kings is played by 1 to 6 players, not %(count)d."),
                   "players", count=count)
    opts = normalise_options(options, count)
    if count > 1 and opts["solo"] != Solo.NONE:
        raise fail("valley.solo_alone", N_("A solo game has exactly one player."),
                   "options.solo")
    pool = pool_of(opts)
    if count > pool.starter_decks:          # "…player_count": a count this option refuses
        raise fail("valley.pool_player_count",
                   N_("This pool has starter cards for %(decks)d players only; five or six "
                      "players need both boxes: choose “Five players” or “Six players” in the "
                      "cards in play."),
                   "options.pool", decks=pool.starter_decks)
    printed = printed_values(edition or no_edition())
    pool_data = _pool_data(pool)
    limits = {title: limit for title in t.TITLES
              if (limit := title_limit(pool_data, printed["card_set"], title, count))
              is not None}
    table = table or {}
    start = table.get("start_player", 0)
    if not is_int(start) or not 0 <= start < count:
        raise fail("valley.bad_start_player",
                   N_("The start player must be one of the %(count)d seats."), "start_player",
                   count=count)
    dealt = table.get("pyramid")
    if isinstance(dealt, Mapping) and set(dealt) == set(pyr.SLOTS):
        dealt = [dealt[slot] for slot in pyr.SLOTS]      # the set-up form names the slots
    if not isinstance(dealt, list) or len(dealt) != t.PYRAMID_CARDS:
        raise fail("valley.bad_pyramid", N_("The pyramid needs its six cards, B1 to T."),
                   "pyramid")
    boneyard = table.get("boneyard", UNKNOWN)
    starters = pool.starter_copies(count)
    state: dict[str, Any] = {
        "game": GAME,
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
        "phase": Phase.PLAY.value,
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
    draft["pyramid"] = [_opening_card(draft, card, f"pyramid.{index}")
                        for index, card in enumerate(dealt)]
    draft["boneyard"] = [_opening_card(draft, boneyard, "boneyard")]
    return draft.state


def _new_player() -> dict[str, Any]:
    deck = t.STARTER_CARDS_PER_PLAYER
    return {"tomb": [], "cards": deck, "known": dict(t.STARTERS_PER_PLAYER),
            "hand": t.HAND_SIZE, "deck": deck - t.HAND_SIZE, "discard": 0, "aside": 0,
            "discard_known": {}}


def _opening_card(draft: Draft, card: Any, field: str) -> str:
    """A card dealt at the start (§3): a title of the pool that is not a starter, or "?"."""
    if card is None or card == "":
        card = UNKNOWN
    if not isinstance(card, str) or (card != UNKNOWN and card not in t.TITLES):
        raise fail("valley.unknown_title", N_("“%(title)s” is not a card title."), field,
                   title=str(card)[:40])
    locate_dealt(draft, card, field)
    return card
