"""Silver & Gold – Pyramids (Phil Walker-Harding; NSV): the game package registered with the seam.

Spec: shared/rules/silver-gold-pyramids.md; default edition: the Czech rules sheet (seed 001).
Our print-and-play edition is :mod:`.ours` (48 card layouts, 8 expedition cards, the scoring
card's skull penalties), generated once by :mod:`.generate`. The printed numbers live in
:mod:`.printed`, the group's edition data ("our copy") in :mod:`.edition`, shape placement in
:mod:`.placement`, scoring in :mod:`.scoring`, score-only mode in :mod:`.final` (and the sibling
original *Silver & Gold* in :mod:`.sibling`).

The live game: its state and phases in :mod:`.state`, the set-up in :mod:`.setup`, the moves
by family (:mod:`.deal`, :mod:`.reveal`, :mod:`.marking`, :mod:`.replacement`; closing a turn
in :mod:`.turns`), the table that assembles them in :mod:`.referee`, what phones are offered
and see in :mod:`.phones`, the result in :mod:`.result`. What only the templates read is in
:mod:`.ui`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..base import (BoolField, Capability, Catalogue, ChoiceField, Edition, GameRules, Labels,
                    N_, ObjectField, ScoreForm, register)
from . import final, phones, result, sibling
from . import ui as ui_module
from . import printed as t
from . import setup as set_up
from .edition import EDITION_VALUES
from . import story
from .referee import REFEREE
from .state import CardsMode


class PyramidsRuleset(GameRules):
    """Silver & Gold – Pyramids as the seam sees it (design.md §2)."""

    id = "pyramids"
    catalogue = Catalogue(
        # spec §1: no separate Czech or Hungarian title is known; the box title stays the same
        names=MappingProxyType({"en": "Silver & Gold – Pyramids",
                                "cs": "Silver & Gold – Pyramids",
                                "hu": "Silver & Gold – Pyramids"}),
        player_counts=t.PLAYER_COUNTS,
        live_player_counts=t.PLAYER_COUNTS,
        capabilities=frozenset({Capability.SCORE, Capability.LIVE, Capability.PRINT}),
        bgg_id=None,
        bgg_source="unverified: the stored sources (spec §15 reviews and shops) give no "
                   "BoardGameGeek link for the Pyramids edition, and a guessed id could name "
                   "the 2019 Silver & Gold instead",
        aliases=("silver_gold_pyramids", "Silver & Gold: Pyramids", "Silver&Gold – Pyramids",
                 "Silver & Gold Pyramids", "Silver&Gold Pyramids", "Silver and Gold Pyramids",
                 "Silver & Gold - Pyramids"),
        default_players=4, order=5)
    labels = Labels(categories=t.CATEGORY_LABELS, reasons=t.REASON_LABELS,
                    tiebreaks=t.TIEBREAK_LABELS, stage=N_("Round %(stage)d"))
    score_form = ScoreForm(
        stage_key=None, stages=1,
        final_label=N_("After the fourth round"),
        final_hint=N_("Each player's scoring card and completed pyramid cards (number and "
                      "colour)."),
        variants=(("pyramids", N_("Silver & Gold – Pyramids")),
                  ("silver_gold", N_("Silver & Gold (2019), the original"))))
    final_schema = final.FINAL_SCHEMA
    options = (
        ChoiceField("cards", N_("Pyramid cards"), (
            (CardsMode.OURS.value, N_("Our print-and-play cards: every mark refereed")),
            (CardsMode.PUBLISHED.value, N_("The published cards: report what you mark")),
        ), default=CardsMode.OURS.value),
        # spec §14 #4: a skull and a potion in one marking; a move may choose the other order
        BoolField("skulls_before_potion",
                  N_("A skull and a potion marked together: the skull counts first"),
                  default=True),
    )
    edition = EDITION_VALUES
    out_of_turn_codes = frozenset({"pyramids.not_your_turn", "pyramids.already_marked",
                                   "pyramids.already_kept"})

    referee = REFEREE
    story = story                                # the story of a game (rules/story.py)
    ui = ui_module

    def form_sizes(self, players: int, stages: int) -> dict[str, int]:
        """Inputs the final-state form offers (blank ones are ignored)."""
        sizes = {"players": players, "players.*.completed": final.COMPLETED_FORM_SIZE,
                 "players.*.torches": t.TORCH_BOXES,
                 # the Silver & Gold form (variant)
                 "players.*.trophies": t.SG_COIN_BOXES // t.SG_COINS_PER_ROW,
                 "players.*.palms": t.SG_PALM_BOXES}
        sizes.update({f"players.*.race.{colour}": len(t.RACE_BOXES)
                      for colour in t.COLOURS})
        return sizes

    def form_schema(self, variant: str | None, players: int | None = None) -> ObjectField:
        """The phone form: optional skull count and the minimal variant included (§11), or
        the Silver & Gold form (§13)."""
        return sibling.FORM_SCHEMA if variant == "silver_gold" else final.FORM_SCHEMA

    def score_final(self, document):
        """Validate a final-state document (or a Silver & Gold one) and score it."""
        return final.score_final(document)

    # ---- live play (spec §3-§9) -------------------------------------------------------------

    def setup_schema(self, players: int) -> ObjectField:
        return set_up.setup_schema(players)

    def default_setup(self, players: int) -> dict[str, Any]:
        return set_up.default_setup(players)

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any], edition: Edition) -> dict[str, Any]:
        """A fresh game; raises RuleViolation for a wrong player count or deal."""
        return set_up.setup(options, names, setup, edition)

    chance = staticmethod(phones.chance)
    score = staticmethod(result.score)
    final_document = staticmethod(result.final_document)

    def view(self, state: Mapping[str, Any], seat: int | None,
             options: Mapping[str, Any]) -> dict[str, Any]:
        return phones.view(state, seat)

    def scores_visible(self, state: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
        """Scoring cards lie open on the table."""
        return True


PYRAMIDS = register(PyramidsRuleset())
