"""Ra (Reiner Knizia; alea/Ravensburger 1999): the game package registered with the seam.

Spec: shared/rules/ra.md. Score-only mode lives in :mod:`.final`, the scoring rules in
:mod:`.scoring`, the printed numbers in :mod:`.tables`.
"""

from __future__ import annotations

from types import MappingProxyType

from typing import Any, Mapping, Sequence

from ..base import BoolField, N_, register
from . import engine, final, tables


class RaRuleset:
    """Ra as the seam sees it (design.md §2)."""

    id = "ra"
    names = MappingProxyType({"en": "Ra", "cs": "Ra", "hu": "Ra"})
    player_counts = final.PLAYER_COUNTS
    final_schema = final.FINAL_SCHEMA
    category_labels = tables.CATEGORY_LABELS
    reason_labels = tables.REASON_LABELS
    tiebreak_labels = {"ra.highest_sun": N_("highest sun")}
    stage_label = N_("Epoch %(stage)d")
    stages = tables.EPOCHS
    add_stage_label = N_("Add the next epoch")
    remove_stage_label = N_("Remove the last epoch")
    stage_key = "epochs"
    stage_hint = N_("What each player holds when the epoch is scored, after disasters. "
                    "Empty boxes count as 0.")
    final_label = N_("After the third epoch")
    final_hint = N_("Monuments collected over the whole game, and every sun each player "
                    "holds, face up or face down.")
    default_players = 4

    def form_sizes(self, players: int, stages: int) -> dict[str, int]:
        """How many entries each list of the final-state form has (suns depend on players)."""
        suns = tables.suns_per_player(players) if players in tables.SUN_GROUPS else 3
        return {"players": players, "players.*.epochs": stages, "players.*.suns": suns}

    def score_final(self, document):
        """Validate a Ra final-state document and score it (raises InvalidDocument)."""
        return final.score_final(document)

    # ---- live play (design.md §2, spec ra.md §3–§4) ----------------------------------------

    live_player_counts = (2, 3, 4, 5)          # 2 only with the two_player option (§6.1)
    live_options = (                            # spec §6.2, with the seed edition's defaults
        BoolField("two_player", N_("Two players (2008 English rules)"), default=False),
        BoolField("god_may_take_disaster", N_("A God may take a disaster"), default=True),
        BoolField("fame_floor_zero", N_("Fame cannot go below 0"), default=True),
        BoolField("epoch3_single_net", N_("Epoch 3 scored as one net figure"), default=True),
        BoolField("hide_fame_during_play", N_("Keep fame hidden until the end"), default=True),
        BoolField("show_bag_counts", N_("Show how many tiles are left in the bag"),
                  default=False),
    )
    out_of_turn_codes = frozenset({"ra.not_your_turn", "ra.not_bidders_turn"})
    validate = staticmethod(engine.validate)
    apply = staticmethod(engine.apply)
    to_act = staticmethod(engine.to_act)
    prompts = staticmethod(engine.prompts)
    is_over = staticmethod(engine.is_over)
    score = staticmethod(engine.score)
    final_document = staticmethod(engine.final_document)
    tile_label = staticmethod(engine.tile_label)
    tile_kinds = engine.ALL_KINDS

    def default_setup(self, players: int) -> dict[str, Any]:
        """Physical randomness at the start: which sun group each seat received (§3 step 5).
        This default deals them in the printed order; the table says what really happened."""
        return {"sun_groups": [list(g) for g in tables.SUN_GROUPS.get(players, ())]}

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any]) -> dict[str, Any]:
        """A fresh game; raises RuleViolation for a wrong player count or sun deal."""
        return engine.setup(options, names, setup.get("sun_groups"))

    def scores_visible(self, state: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
        """Fame is public at the end, or throughout if the table chose so (§8 E11)."""
        return engine.is_over(state) or not options.get("hide_fame_during_play", True)

    def view(self, state: Mapping[str, Any], seat: int | None,
             options: Mapping[str, Any]) -> dict[str, Any]:
        """What a phone may see (§8 E11): fame hidden until the end unless the table chose
        otherwise; bag counts only with ``show_bag_counts``."""
        shown = dict(state)
        if options.get("hide_fame_during_play", True) and not engine.is_over(state):
            # tablets lie face down: each player knows only their own fame
            shown["fame"] = [fame if index == seat else None
                             for index, fame in enumerate(state["fame"])]
        if not options.get("show_bag_counts", False):
            shown["bag"] = None
            shown["removed"] = None
        return shown


RA = register(RaRuleset())
