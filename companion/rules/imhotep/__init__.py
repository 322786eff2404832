"""Imhotep (Phil Walker-Harding; KOSMOS 2016): the game package registered with the seam.

Spec: shared/rules/imhotep.md; default edition: the Czech rulebook (seed 004). Score-only mode
lives in :mod:`.final`, the scoring rules in :mod:`.scoring`, the printed numbers (and the
edition data of the group's copy) in :mod:`.printed`. Live play: the state, its phases and
kinds in :mod:`.state`, the set-up in :mod:`.setup`, the moves by family in
:mod:`.round_start`, :mod:`.actions`, :mod:`.cards`, :mod:`.market` and :mod:`.choices`, the
stones' deliveries in :mod:`.delivery` (ships in :mod:`.ships`), what happens between moves in
:mod:`.flow`, what a phone may do in :mod:`.prompts`, the live score in :mod:`.tally`, the
move table in :mod:`.referee`; :mod:`.ui` holds what only Imhotep's templates read.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..base import (BoolField, Capability, Catalogue, ChoiceField, Edition, GameRules, Labels,
                    ListField, N_, ObjectField, SEAT_LABEL, ScoreForm, register)
from . import final, printed, tally, ui
from .prompts import chance
from . import story
from .referee import REFEREE
from .setup import normalise_options
from .setup import setup as setup_game
from .state import pile_count


class ImhotepRuleset(GameRules):
    """Imhotep as the seam sees it (design.md §2)."""

    id = "imhotep"
    catalogue = Catalogue(
        names=MappingProxyType({"en": "Imhotep", "cs": "Imhotep", "hu": "Imhotep"}),
        player_counts=final.PLAYER_COUNTS,
        live_player_counts=printed.PLAYER_COUNTS,
        capabilities=frozenset({Capability.SCORE, Capability.LIVE, Capability.PRINT}),
        # a BGG link to Imhotep (Phil Walker-Harding, KOSMOS 2016) in a public game list
        bgg_id=191862, bgg_source="https://boardgamegeek.com/boardgame/191862/imhotep",
        aliases=("Imhotep: Builder of Egypt", "Imhotep: Baumeister Ägyptens"),
        default_players=4, order=2)
    labels = Labels(categories=printed.CATEGORY_LABELS, reasons=printed.REASON_LABELS,
                    tiebreaks={"imhotep.most_sled_stones": N_("most stones on the sled")},
                    stage=N_("Round %(stage)d"))
    # The tally has no per-stage list: one form page, no stage rows in the Scoresheet.
    score_form = ScoreForm(
        stage_key=None, stages=1,
        final_label=N_("After the sixth round"),
        final_hint=N_("The scoring track before final scoring, the cards held, the stones at "
                      "each site and on each sled."))
    final_schema = final.FINAL_SCHEMA
    options = (
        BoolField("b_market", N_("Market: side B"), default=False),
        BoolField("b_pyramids", N_("Pyramids: side B"), default=False),
        BoolField("b_temple", N_("Temple: side B"), default=False),
        BoolField("b_burial_chamber", N_("Burial chamber: side B"), default=False),
        BoolField("b_obelisks", N_("Obelisks: side B"), default=False),
        BoolField("wrath_of_pharaoh", N_("Wrath of the Pharaoh"), default=False),
        BoolField("allow_pass_when_stuck", N_("A player with no possible action passes"),
                  default=True),
        BoolField("market_pick_mandatory", N_("A stone at the Market must take a card"),
                  default=True),
        BoolField("hammer_partial_allowed", N_("The Hammer may be played when only one of its "
                                               "parts is possible"), default=True),
        BoolField("chisel_requires_two_stones", N_("The Chisel needs two stones on the sled"),
                  default=True),
        BoolField("obelisks_b_score_at_end", N_("Obelisks B: towers score at the end"),
                  default=False),
        BoolField("red_card_counts_for_wrath",
                  N_("Stones placed by red cards count for the Wrath"), default=True),
        BoolField("show_deck_counts", N_("Show which market cards are still unseen"),
                  default=False),
    )
    edition = printed.EDITION
    out_of_turn_codes = frozenset({"imhotep.not_your_turn", "imhotep.not_your_choice"})

    def form_sizes(self, players: int, stages: int) -> dict[str, int]:
        """How many inputs each list of the final-state form has (blank ones are ignored)."""
        return {"players": players, "burial_chamber": final.BURIAL_FORM_SIZE,
                "players.*.delivered_to": len(printed.MONUMENTS),
                "players.*.obelisk_towers": final.TOWER_FORM_SIZE}

    def edition_in_use(self, options: Mapping[str, Any], players: int) -> set[str]:
        """The B-side values of the sides chosen and the round cards of this player count
        (spec §6.2's notice: the 4th Burial Chamber B value only from 4 players)."""
        sides = normalise_options(options)["sides"]
        return set(printed.unverified_in_use(sides, players)) | {
            key for key in printed.VERIFIED_EDITION_DEFAULTS if key == f"round_cards_{players}p"}

    def score_final(self, document):
        """Validate an Imhotep final-state document and score it (raises InvalidDocument)."""
        return final.score_final(document)

    # ---- live play (spec §3-§6) -------------------------------------------------------------

    def setup_schema(self, players: int) -> ObjectField:
        """§3: each seat's colour, and the start player."""
        colour = ChoiceField("colour", N_("Colour"), tuple(
            (c, str(printed.COLOUR_LABELS[c])) for c in printed.COLOURS))
        return ObjectField("setup", N_("Set-up"), (
            ListField("colors", N_("Colours"), colour, min_items=players, max_items=players,
                      required=True, item_label=SEAT_LABEL),
            ChoiceField("start_player", N_("Start player"), tuple(range(players)), default=0,
                        seat_choice=True),
        ))

    def default_setup(self, players: int) -> dict[str, Any]:
        """The colours in the printed order and seat 0 to start; the table says otherwise."""
        return {"colors": list(printed.COLOURS[:players]), "start_player": 0}

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any], edition: Edition) -> dict[str, Any]:
        """A fresh game; raises RuleViolation for a wrong player count, colours or start
        player. The values of the group's copy replace the defaults."""
        return setup_game(options, names, setup, edition)

    referee = REFEREE
    story = story                                # the story of a game (rules/story.py)
    ui = ui
    chance = staticmethod(chance)
    score = staticmethod(tally.score)
    final_document = staticmethod(tally.final_document)

    def seat_colours(self, setup: Mapping[str, Any]) -> list[str | None]:
        """The stone colour each seat plays (§3)."""
        return list(setup.get("colors") or [])

    def scores_visible(self, state: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
        """The scoring track is on the table for everyone to see."""
        return True

    def view(self, state: Mapping[str, Any], seat: int | None,
             options: Mapping[str, Any]) -> dict[str, Any]:
        """What a phone may see. Every card and stone lies open in Imhotep; the referee's list
        of cards not yet seen (``deck``) is card counting the table did not ask for, so it is
        replaced by the size of the draw pile unless ``show_deck_counts`` is set."""
        shown = dict(state)
        shown["pile"] = pile_count(state)
        if not options.get("show_deck_counts", False):
            shown["deck"] = None
        return shown


IMHOTEP = register(ImhotepRuleset())
