"""Valley of the Kings: Afterlife and the original (Tom Cleaver; AEG 2014/2015): the game
package registered with the seam.

Spec: shared/rules/valley-of-the-kings.md; default edition: the Czech rulebook of *Ve stínu
pyramid: Zásvětí* (seed 003). Where things are:

* printed values, each with its source: :mod:`.printed`; the pools and scoring groups of the
  optional rules: :mod:`.pools`; the group's edition data: :mod:`.edition`;
* scoring: :mod:`.scoring`; score-only mode: :mod:`.final`;
* live play, the referee of public events: the state, its phases and move kinds
  (:mod:`.state`), opening a table (:mod:`.setup`), the pyramid (:mod:`.pyramid`), what the
  table knows and the copy limits (:mod:`.knowledge`), cards moving between zones
  (:mod:`.zones`), one module per move family (:mod:`.buy`, :mod:`.action` with
  :mod:`.effects`, :mod:`.seal`, :mod:`.end_turn`, :mod:`.chance`, :mod:`.decline`) with the
  arguments they share (:mod:`.arguments`), the referee table (:mod:`.referee`), what a phone
  sees and may do (:mod:`.prompts`), the tombs and their score (:mod:`.tombs`);
* what only Valley's templates read: :mod:`.ui`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..base import (BoolField, Capability, Catalogue, Chance, ChoiceField, Edition, GameRules,
                    Labels, N_, ObjectField, ScoreForm, register)
from . import final, names, pools, pyramid, score_form, tombs
from . import printed as t
from . import ui as ui_module
from .arguments import SLOT_LABELS, card_choices
from .chance import chance as supply_chance
from .edition import EDITION_VALUES
from .prompts import view as phone_view
from . import story
from .referee import REFEREE
from .setup import setup as set_up_table


class ValleyRuleset(GameRules):
    """Valley of the Kings as the seam sees it (design.md §2)."""

    id = "valley"
    catalogue = Catalogue(
        # cs: the published Czech title (seed 003 l.15-37, "Ve stínu pyramid: Zásvětí"; the
        # original is "Ve stínu pyramid"). hu: no Hungarian edition; the Hungarian seed (002)
        # names none ("A Királyok völgyében" there is another game, by Acchittocca), so a
        # Hungarian rendering with the English name in parentheses (issue 20).
        names=MappingProxyType({"en": "Valley of the Kings: Afterlife",
                                "cs": "Ve stínu pyramid: Zásvětí",
                                "hu": "Királyok völgye: Túlvilág (Valley of the Kings: "
                                      "Afterlife)"}),
        player_counts=final.PLAYER_COUNTS,
        live_player_counts=t.PLAYER_COUNTS,
        capabilities=frozenset({Capability.SCORE, Capability.LIVE, Capability.PRINT}),
        # The Afterlife box our users own; the link appears in public board-game lists in
        # GitHub repositories (a BGG link "boardgame/175223/valley-kings-afterlife"). The
        # original box's id could not be confirmed the same way and is not used.
        bgg_id=175223,
        bgg_source="https://boardgamegeek.com/boardgame/175223/valley-kings-afterlife",
        aliases=("valley_of_the_kings", "Valley of the Kings", "Valley of the Kings: Afterlife",
                 "Valley of the Kings - Afterlife", "Ve stínu pyramid",
                 "Ve stínu pyramid: Zásvětí", "Királyok völgye", "Királyok völgye: Túlvilág"),
        default_players=4,
        order=4)
    labels = Labels(categories={key: names.term(key) for key in t.CATEGORY_LABELS},
                    reasons=t.REASON_LABELS,
                    tiebreaks=t.TIEBREAK_LABELS, stage=N_("Turn %(stage)d"))
    score_form = ScoreForm(
        stage_key=None, stages=1, final_label=N_("At the end of the game"),
        final_hint=N_("Only the tomb scores: count its cards, the starters, each unique with "
                      "the VP printed on it, and the different titles of each group (or tick "
                      "the titles)."),
        variants=tuple(pools.POOL_LABELS.items()), variant_label=N_("Cards in play"),
        variant_for_players={5: pools.PoolId.FIVE_PLAYERS.value,
                             6: pools.PoolId.SIX_PLAYERS.value})
    final_schema = final.FINAL_SCHEMA
    options = (
        ChoiceField("pool", N_("Cards in play"), tuple(pools.POOL_LABELS.items()),
                    default=pools.PoolId.AFTERLIFE.value),
        ChoiceField("solo", N_("Solo level"), tuple(pools.SOLO_LABELS.items()),
                    default=pools.Solo.NONE.value),
        *(ChoiceField(f"set_{size}", final.SET_CHOICE_LABELS[size], tuple(
            (s, names.term(s)) for s in t.SIZE_PAIRS[size]),
            default=t.SIZE_PAIRS[size][0]) for size in t.SIZE_PAIRS),
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
        """Inputs per list of the phone form: six unique lines (spec §14), three further
        titles per group."""
        return score_form.form_sizes(players)

    def form_schema(self, variant: str | None, players: int | None = None) -> ObjectField:
        """The phone form for the pool chosen at its top (``variant``): that pool's groups,
        each entered once, counted or ticked as each player chooses (:mod:`.score_form`)."""
        return score_form.form_schema(variant, final.OPTIONS_SCHEMA)

    def form_document(self, document: Mapping[str, Any]) -> dict[str, Any]:
        """A saved document in the form's shape, on the pool it was saved with
        (:func:`.score_form.to_form`)."""
        return score_form.to_form(document)

    def score_final(self, document):
        """Validate a final-state document and score it (raises InvalidDocument)."""
        return final.score_final(document)

    # ---- live play (spec §3-§9, §13) -------------------------------------------------------

    def setup_schema(self, players: int) -> ObjectField:
        """§3: the start player, the six pyramid cards by slot (B1 B2 B3, M1 M2, T) and the
        boneyard card, each a title or just "a card" ("?")."""
        choices = card_choices(starters=False)
        return ObjectField("setup", N_("Set-up"), (
            ChoiceField("start_player", N_("Start player"), tuple(range(players)), default=0,
                        seat_choice=True),
            ObjectField("pyramid", N_("The six pyramid cards"), tuple(
                ChoiceField(slot, SLOT_LABELS[slot], choices, default=t.UNKNOWN_CARD)
                for slot in pyramid.SLOTS), required=True),
            ChoiceField("boneyard", N_("Boneyard card"), choices, default=t.UNKNOWN_CARD),
        ))

    def default_setup(self, players: int) -> dict[str, Any]:
        """Seat 1 starts; six cards and the boneyard card entered as "a card"."""
        return {"start_player": 0,
                "pyramid": {slot: t.UNKNOWN_CARD for slot in pyramid.SLOTS},
                "boneyard": t.UNKNOWN_CARD}

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any], edition: Edition | None = None) -> dict[str, Any]:
        """A fresh game; raises RuleViolation (with its field) for an impossible start."""
        return set_up_table(options, names, setup, edition)

    referee = REFEREE
    story = story                                # the story of a game (rules/story.py)
    ui = ui_module
    score = staticmethod(tombs.score)
    final_document = staticmethod(tombs.final_document)

    def undo_floor(self, state: Mapping[str, Any]) -> int:
        """§7: the correction window is the undo window. The moves before ``correction_from``
        (the turns before the one whose first card play has happened) stay as they are."""
        return state["correction_from"]

    def chance(self, state: Mapping[str, Any]) -> Chance | None:
        """The refill cards or Brain Hook's card, from what the supply may still hold."""
        return supply_chance(state)

    def scores_visible(self, state: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
        """Tombs lie face up (§5.3): the running score is public."""
        return True

    def view(self, state: Mapping[str, Any], seat: int | None,
             options: Mapping[str, Any]) -> dict[str, Any]:
        """Only the boneyard's top card is visible (§7), all of it in solo (§12.1); hands and
        decks are never in the state."""
        return phone_view(state, seat)


VALLEY = register(ValleyRuleset())
