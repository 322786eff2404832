"""Valley of the Kings: Afterlife and the original (Tom Cleaver; AEG 2014/2015): the game
package registered with the seam.

Spec: shared/rules/valley-of-the-kings.md; default edition: the Czech rulebook of *Ve stínu
pyramid: Zásvětí* (seed 003). The catalogue and every printed value with its source live in
:mod:`.tables`, the pools and scoring groups of the optional rules in :mod:`.pools`, the
group's edition data in :mod:`.edition`, scoring in :mod:`.scoring`, score-only mode in
:mod:`.final`, the pyramid in :mod:`.pyramid` and the live referee of public events in
:mod:`.engine`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..base import (Awaiting, BoolField, Capability, Catalogue, Chance, ChoiceField, Edition,
                    GameRules, Labels, N_, ObjectField, ScoreForm, register)
from . import engine, final, pools, pyramid, tables
from .edition import EDITION_VALUES


def _card_label(title: str) -> str:
    """The Czech title the cards carry, with the English one beside it where both exist."""
    names = tables.title_names(title)
    if names["cs"] and names["en"] and names["cs"] != names["en"]:
        return f"{names['cs']} ({names['en']})"
    return str(names["cs"] or names["en"] or tables.title_label(title))


def _card_choices() -> tuple:
    """Every card that can lie in the pyramid or the boneyard, or "a card" (``"?"``)."""
    return ((tables.UNKNOWN_CARD, tables.UNKNOWN_CARD_LABEL),) + tuple(
        (title, _card_label(title)) for title, x in tables.TITLES.items()
        if x.kind is not tables.Kind.STARTER)


SLOT_LABELS = {"B1": N_("B1: base, left"), "B2": N_("B2: base, middle"),
               "B3": N_("B3: base, right"), "M1": N_("M1: middle row, left"),
               "M2": N_("M2: middle row, right"), "T": N_("T: top")}


class ValleyRuleset(GameRules):
    """Valley of the Kings as the seam sees it (design.md §2)."""

    id = "valley"
    catalogue = Catalogue(
        names=MappingProxyType({"en": "Valley of the Kings: Afterlife",
                                "cs": "Ve stínu pyramid: Zásvětí",
                                "hu": "Valley of the Kings: Afterlife"}),
        player_counts=final.PLAYER_COUNTS,
        live_player_counts=tables.PLAYER_COUNTS,
        capabilities=frozenset({Capability.SCORE, Capability.LIVE, Capability.PRINT}),
        # The Afterlife box our users own; the link appears in public board-game lists in
        # GitHub repositories (a BGG link "boardgame/175223/valley-kings-afterlife"). The
        # original box's id could not be confirmed the same way and is not used.
        bgg_id=175223,
        bgg_source="https://boardgamegeek.com/boardgame/175223/valley-kings-afterlife",
        aliases=("valley_of_the_kings", "Valley of the Kings", "Valley of the Kings: Afterlife",
                 "Valley of the Kings - Afterlife", "Ve stínu pyramid",
                 "Ve stínu pyramid: Zásvětí"),
        default_players=4,
        order=4)
    labels = Labels(categories=tables.CATEGORY_LABELS, reasons=tables.REASON_LABELS,
                    tiebreaks=tables.TIEBREAK_LABELS, stage=N_("Turn %(stage)d"))
    score_form = ScoreForm(
        stage_key=None, stages=1, final_label=N_("At the end of the game"),
        final_hint=N_("Only the tomb scores: count its cards, the starters, each unique with "
                      "the VP printed on it, and the different titles of each group (or tick "
                      "the titles)."))
    final_schema = final.FINAL_SCHEMA
    options = (
        ChoiceField("pool", N_("Cards in play"), tuple(pools.POOL_LABELS.items()),
                    default=pools.PoolId.AFTERLIFE.value),
        ChoiceField("solo", N_("Solo level"), tuple(pools.SOLO_LABELS.items()),
                    default=pools.Solo.NONE.value),
        *(ChoiceField(f"set_{size}", final.SET_CHOICE_LABELS[size], tuple(
            (s, tables.SET_LABELS[s]) for s in tables.SIZE_PAIRS[size]),
            default=tables.SIZE_PAIRS[size][0]) for size in tables.SIZE_PAIRS),
        ChoiceField("uniques", N_("Unique artifacts from"), tuple(pools.UNIQUE_BOX_LABELS.items()),
                    default=pools.UniqueBox.AFTERLIFE.value),
        ChoiceField("dagger_to", N_("A card taken with Dagger goes"), (
            ("discard", N_("onto the discard pile")), ("hand", N_("into the hand"))),
            default="discard"),
        ChoiceField("bow_scope", N_("Bow: a set missing from the tomb means"), (
            ("group", N_("its scoring group (superset)")), ("printed", N_("its printed set"))),
            default="group"),
        BoolField("opponent_change_counts",
                  N_("A pyramid change caused by an opponent cancels the rebuild sacrifice"),
                  default=True),
        BoolField("ring_lost_on_action",
                  N_("Ring: a card played for its action uses up the doubling"), default=True),
    )
    edition = EDITION_VALUES
    out_of_turn_codes = frozenset({"valley.not_your_turn"})

    def form_sizes(self, players: int, stages: int) -> dict[str, int]:
        """Inputs per list of the final-state form: six unique lines (spec §14)."""
        sizes = {"players": players, "players.*.uniques": final.UNIQUE_FORM_SIZE}
        sizes.update({f"players.*.checklist.{group}.others": final.OTHERS_FORM_SIZE
                      for group in final.all_group_ids()})
        return sizes

    def score_final(self, document):
        """Validate a final-state document and score it (raises InvalidDocument)."""
        return final.score_final(document)

    # ---- live play (spec §3-§9, §13) -------------------------------------------------------

    def setup_schema(self, players: int) -> ObjectField:
        """§3: the start player, the six pyramid cards by slot (B1 B2 B3, M1 M2, T) and the
        boneyard card, each a title or just "a card" ("?")."""
        choices = _card_choices()
        return ObjectField("setup", N_("Set-up"), (
            ChoiceField("start_player", N_("Start player"), tuple(range(players)), default=0,
                        seat_choice=True),
            ObjectField("pyramid", N_("The six pyramid cards"), tuple(
                ChoiceField(slot, SLOT_LABELS[slot], choices, default=tables.UNKNOWN_CARD)
                for slot in pyramid.SLOTS), required=True),
            ChoiceField("boneyard", N_("Boneyard card"), _card_choices(),
                        default=tables.UNKNOWN_CARD),
        ))

    def default_setup(self, players: int) -> dict[str, Any]:
        """Seat 1 starts; six cards and the boneyard card entered as "a card"."""
        return {"start_player": 0,
                "pyramid": {slot: tables.UNKNOWN_CARD for slot in pyramid.SLOTS},
                "boneyard": tables.UNKNOWN_CARD}

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any], edition: Edition | None = None) -> dict[str, Any]:
        """A fresh game; raises RuleViolation (with its field) for an impossible start."""
        return engine.setup(options, names, setup, edition)

    apply = staticmethod(engine.apply)
    validate = staticmethod(engine.validate)
    prompts = staticmethod(engine.prompts)
    legal_moves = staticmethod(engine.legal_moves)
    is_over = staticmethod(engine.is_over)
    score = staticmethod(engine.score)
    final_document = staticmethod(engine.final_document)
    # For Valley's own templates and print module (shared code never uses these).
    title_label = staticmethod(tables.title_label)
    title_names = staticmethod(tables.title_names)
    card_colour = staticmethod(engine.card_colour)
    slots = pyramid.SLOTS
    base_slots = pyramid.BASE
    starters = tables.STARTERS
    set_labels = tables.SET_LABELS
    group_labels = tables.CATEGORY_LABELS
    starter_labels = tables.STARTER_LABELS
    effect_labels = engine.EFFECT_LABELS
    action_hints = engine.ACTION_HINTS
    placeholder_label = tables.PLACEHOLDER_LABEL
    unique_placeholder_label = tables.UNIQUE_PLACEHOLDER_LABEL
    unknown_card = tables.UNKNOWN_CARD

    def undo_floor(self, state: Mapping[str, Any]) -> int:
        """§7: the correction window is the undo window. The moves before ``correction_from``
        (the turns before the one whose first card play has happened) stay as they are."""
        return state["correction_from"]

    def awaiting(self, state: Mapping[str, Any]) -> Awaiting:
        return engine.awaited(state)

    def chance(self, state: Mapping[str, Any]) -> Chance | None:
        """The refill cards or Brain Hook's card, from what the supply may still hold."""
        return engine.chance(state)

    def scores_visible(self, state: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
        """Tombs lie face up (§5.3): the running score is public."""
        return True

    def view(self, state: Mapping[str, Any], seat: int | None,
             options: Mapping[str, Any]) -> dict[str, Any]:
        """Only the boneyard's top card is visible (§7), all of it in solo (§12.1); hands and
        decks are never in the state."""
        return engine.view(state, seat)


VALLEY = register(ValleyRuleset())
