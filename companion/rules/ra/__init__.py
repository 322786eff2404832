"""Ra (Reiner Knizia; alea/Ravensburger 1999): the game package registered with the seam.

Spec: shared/rules/ra.md. Score-only mode lives in :mod:`.final`, the scoring rules in
:mod:`.scoring`, the printed numbers in :mod:`.printed`. Live play: the state, its phases and
tile kinds in :mod:`.state`, the set-up in :mod:`.setup`, the moves by family in :mod:`.turn`,
:mod:`.auction` and :mod:`.disasters`, the epoch's end and the live score in :mod:`.epochs`,
what a phone may do in :mod:`.prompts`, the move table in :mod:`.referee`; :mod:`.ui` holds
what only Ra's templates read.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..base import (BoolField, Capability, Catalogue, ChoiceField, Edition, GameRules,
                    Labels, ListField, N_, ObjectField, SEAT_LABEL, ScoreForm, register)
from . import epochs, final, printed, ui
from . import story
from .referee import REFEREE
from .setup import setup as setup_game
from .state import is_over
from .turn import chance


class RaRuleset(GameRules):
    """Ra as the seam sees it (design.md §2)."""

    id = "ra"
    catalogue = Catalogue(
        names=MappingProxyType({"en": "Ra", "cs": "Ra", "hu": "Ra"}),
        player_counts=final.PLAYER_COUNTS,
        live_player_counts=(2, 3, 4, 5),          # 2 only with the two_player option (§6.1)
        capabilities=frozenset({Capability.SCORE, Capability.LIVE, Capability.PRINT}),
        # the BGG link in the README of https://github.com/nbogie/ra-haskell
        bgg_id=12, bgg_source="https://boardgamegeek.com/boardgame/12/ra",
        default_players=4, order=1)
    labels = Labels(categories=printed.CATEGORY_LABELS, reasons=printed.REASON_LABELS,
                    tiebreaks={"ra.highest_sun": N_("highest sun")},
                    stage=N_("Epoch %(stage)d"))
    score_form = ScoreForm(
        stage_key="epochs", stages=printed.EPOCHS,
        add_stage_label=N_("Add the next epoch"), remove_stage_label=N_("Remove the last epoch"),
        stage_hint=N_("What each player holds when the epoch is scored, after disasters. "
                      "Empty boxes count as 0."),
        final_label=N_("After the third epoch"),
        final_hint=N_("Monuments collected over the whole game, and every sun each player "
                      "holds, face up or face down."))
    final_schema = final.FINAL_SCHEMA
    options = (                                 # spec §6.2, with the seed edition's defaults
        BoolField("two_player", N_("Two players (2008 English rules)"), default=False),
        BoolField("god_may_take_disaster", N_("A God may take a disaster"), default=True),
        BoolField("fame_floor_zero", N_("Fame cannot go below 0"), default=True),
        BoolField("epoch3_single_net", N_("Epoch 3 scored as one net figure"), default=True),
        BoolField("hide_fame_during_play", N_("Keep fame hidden until the end"), default=True),
        BoolField("show_bag_counts", N_("Show how many tiles are left in the bag"),
                  default=False),
    )
    out_of_turn_codes = frozenset({"ra.not_your_turn", "ra.not_bidders_turn"})

    def form_sizes(self, players: int, stages: int) -> dict[str, int]:
        """How many entries each list of the final-state form has (suns depend on players)."""
        suns = printed.suns_per_player(players) if players in printed.SUN_GROUPS else 3
        return {"players": players, "players.*.epochs": stages, "players.*.suns": suns}

    def score_final(self, document):
        """Validate a Ra final-state document and score it (raises InvalidDocument)."""
        return final.score_final(document)

    # ---- live play (design.md §2, spec ra.md §3–§4) ----------------------------------------

    def setup_schema(self, players: int) -> ObjectField:
        """§3 step 5: which sun group each seat received."""
        groups = printed.SUN_GROUPS.get(players, ())
        choice = ChoiceField("group", N_("Suns"), tuple(
            (list(group), " · ".join(map(str, group))) for group in groups))
        return ObjectField("setup", N_("Set-up"), (
            ListField("sun_groups", N_("Sun groups dealt"), choice, min_items=players,
                      max_items=players, required=True, item_label=SEAT_LABEL),))

    def default_setup(self, players: int) -> dict[str, Any]:
        """The groups in the printed order; the table says what was really dealt."""
        return {"sun_groups": [list(g) for g in printed.SUN_GROUPS.get(players, ())]}

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any], edition: Edition) -> dict[str, Any]:
        """A fresh game; raises RuleViolation for a wrong player count or sun deal."""
        return setup_game(options, names, setup.get("sun_groups"))

    referee = REFEREE
    story = story                                # the story of a game (rules/story.py)
    ui = ui
    chance = staticmethod(chance)
    score = staticmethod(epochs.score)
    final_document = staticmethod(epochs.final_document)

    def scores_visible(self, state: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
        """Fame is public at the end, or throughout if the table chose so (§8 E11)."""
        return is_over(state) or not options.get("hide_fame_during_play", True)

    def view(self, state: Mapping[str, Any], seat: int | None,
             options: Mapping[str, Any]) -> dict[str, Any]:
        """What a phone may see (§8 E11): fame hidden until the end unless the table chose
        otherwise; bag counts only with ``show_bag_counts``."""
        shown = dict(state)
        if options.get("hide_fame_during_play", True) and not is_over(state):
            # tablets lie face down: each player knows only their own fame
            shown["fame"] = [fame if index == seat else None
                             for index, fame in enumerate(state["fame"])]
        if not options.get("show_bag_counts", False):
            shown["bag"] = None
            shown["removed"] = None
        return shown


RA = register(RaRuleset())
