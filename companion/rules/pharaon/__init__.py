"""Pharaon (Catch Up Games 2019): the game package registered with the seam.

Spec: shared/rules/pharaon.md; default edition: the Czech rulebook (seed 000). The printed
numbers are in :mod:`.printed`, the group's copy of the unknown ones in :mod:`.edition`, the
payment model in :mod:`.payment`, scoring in :mod:`.scoring`, score-only mode in
:mod:`.final`, the Traitor's tiles in :mod:`.traitor`. The live referee is :mod:`.referee`,
assembled from one module per family of moves (:mod:`.state` lists them and lays out the
state).

Options are the table's variants and the spec's open questions (§9.2) with the recommended
defaults. Q17 (a gain the bank cannot pay) is the option ``bank_short``: "cut" (recommended:
the action stands, the gain is cut to what the bank holds, warning PH_W_BANK_SHORT) or
"refuse" (PH_E_BANK_EMPTY for a gain the player chooses: a Nile action's gains, a face-up jar
when another one can be paid, a basic reward's kind when the bank has another kind; gains that
come from a draw, the start, the Traitor or a noble's effect have nothing to choose instead and
are still cut with the warning).

The questions without a second reading the engine could play are fixed rules named in the
code: Q2 (the Judge's 5 units are the action cost), Q9 (silver on the Traitor's jar: the human
picks the colour), Q10 (an empty bank when placing: a stand-in for the Traitor, skipped when
blocking), Q16 (no sixth disc), and:

* Q6 (every Traitor column full: the token is not placed, back to the bank). No source gives
  another place for it: the rule only says the token goes to the next column to the right,
  and when none is left nothing says where; any "second reading" would be a rule of ours.
* Q11 (the entry token of a full area, nobles 13-16, goes to the bank). The only other place
  would be beside the wheel until the round ends, and every basic token on the wheel goes to
  the bank at the round's end anyway (§4.8 step 1; offerings go to the discard pile either
  way), so the two readings score and play alike except for the bank's count inside the
  round; a reading where no entry is paid at all contradicts §4.2 (every action pays an
  entry) rather than reading it.
* Q14 (the Pharaoh token never changes hands). The rule names only the first player to meet
  the condition (§4.7); it gives no condition under which another player would take it over,
  so there is no second rule to play.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..base import (BoolField, Capability, Catalogue, Chance, ChoiceField, Edition, GameRules,
                    IntField, Labels, ListField, N_, ObjectField, ScoreForm, TextField,
                    register)
from . import draws, final, printed, prompts, tallies, ui
from . import setup as set_up
from .edition import EDITION
from . import story
from .referee import REFEREE

_AREA_CHOICES = tuple((a, str(printed.AREA_LABELS[a])) for a in printed.AREAS)


def _setup_half(key: str, label: str) -> ObjectField:
    return ObjectField(key, label, (IntField("threshold", N_("Threshold"), max=30),
                                    IntField("points", N_("Points"), max=50)))


# The gods on the open-table form: every field may stay blank (a god left at 0 and 0 is not
# entered; the engine takes all five or none, setup._gods_from), so a table that does not
# enter them at set-up is asked after round 5.
_SETUP_GOD = ObjectField("god", N_("God"), (
    TextField("name", N_("Name"), max_length=30, required=False),
    _setup_half("a", N_("Half on the area before it (clockwise)")),
    _setup_half("b", N_("Half on the area after it"))))
_BASIC_CHOICES = tuple((k, str(printed.KIND_LABELS[k])) for k in printed.BASIC)


class PharaonRuleset(GameRules):
    """Pharaon as the seam sees it (design.md §2)."""

    id = "pharaon"
    catalogue = Catalogue(
        names=MappingProxyType({"en": "Pharaon", "cs": "Pharaon", "hu": "Pharaon"}),
        player_counts=final.PLAYER_COUNTS,
        live_player_counts=printed.PLAYER_COUNTS,
        capabilities=frozenset({Capability.SCORE, Capability.LIVE, Capability.PRINT}),
        bgg_id=None,
        bgg_source=("unverified: the stored sources (BGG news preview blogpost 95867, "
                    "reviews) name the game but none of them gives its /boardgame/ id"),
        aliases=(),                 # every edition we know of (cs, en, es, it) is "Pharaon"
        default_players=4,
        order=3)
    labels = Labels(categories=printed.CATEGORY_LABELS, reasons=printed.REASON_LABELS,
                    tiebreaks=printed.TIEBREAK_LABELS, stage=N_("Round %(stage)d"))
    score_form = ScoreForm(
        stage_key=None, stages=1, final_label=N_("After the fifth round"),
        final_hint=N_("The board's gods, then each player's nobles, artisans, Nile levels, "
                      "tomb, and what is left; the Traitor's holdings in a solo game."))
    final_schema = final.FINAL_SCHEMA
    options = (
        IntField("traitor_dark_tiles", N_("Solo: Traitor tiles dark side up (difficulty)"),
                 max=5, default=0),
        BoolField("nile_top_cumulative", N_("Nile level 3 scores 3 + 7 (not 7)"),
                  default=False),
        ChoiceField("traitor_artisan_take_2", N_("Traitor: the second artisan symbol takes"),
                    (("highest", N_("the highest")), ("lowest", N_("the lowest"))),
                    default="highest"),
        ChoiceField("traitor_artisan_discard", N_("Traitor: the discard symbol removes"),
                    (("highest", N_("the highest")), ("lowest", N_("the lowest"))),
                    default="highest"),
        ChoiceField("traitor_pass_timing", N_("Traitor: he passes"),
                    (("empty_stack_turn", N_("on his first turn with no jar left")),
                     ("after_last_jar", N_("in the turn he plays his last jar"))),
                    default="empty_stack_turn"),
        ChoiceField("traitor_pyramid_reward", N_("Traitor: his pyramid reward"),
                    (("reached", N_("the space reached")),
                     ("human_picks", N_("you pick one of the row so far"))), default="reached"),
        BoolField("traitor_start_noble_counts",
                  N_("Traitor: his starting noble counts for succession and scoring"),
                  default=True),
        BoolField("traitor_column_tokens_score",
                  N_("Traitor: the tokens on his columns score as his resources"),
                  default=False),
        BoolField("point_offerings_spendable", N_("+1/+2 offerings may be spent as any kind"),
                  default=False),
        BoolField("reject_overpayment", N_("Refuse a payment above the cost"), default=True),
        ChoiceField("starting_silver", N_("Starting silver"), (2, 1), default=2),
        ChoiceField("rejected_nobles", N_("Rejected starting nobles go"),
                    (("reshuffle", N_("back into the deck, shuffled")),
                     ("bottom", N_("under the deck")), ("discard", N_("to a discard pile"))),
                    default="reshuffle"),
        BoolField("seer_on_offerings", N_("The Seer and Treasurer may exchange a resource "
                                          "offering"), default=True),
        ChoiceField("bank_short", N_("A gain the bank cannot pay in full"),
                    (("cut", N_("is cut to what the bank holds, with a warning")),
                     ("refuse", N_("cannot be chosen (another jar, kind or action)"))),
                    default="cut"),
    )
    edition = EDITION
    out_of_turn_codes = frozenset({"PH_E_NOT_YOUR_TURN", "pharaon.not_your_turn"})

    def form_sizes(self, players: int, stages: int) -> dict[str, int]:
        """How many inputs each list of the final-state form has (blank ones are ignored)."""
        return {"players": players, "board.areas": 5, "board.gods": 5,
                "players.*.nobles": final.NOBLE_FORM_SIZE,
                "players.*.artisans": final.ARTISAN_FORM_SIZE, "players.*.nile": 5,
                "players.*.scribes": 2, "traitor.nobles": final.NOBLE_FORM_SIZE,
                "traitor.artisans": final.ARTISAN_FORM_SIZE, "traitor.nile": 5,
                "traitor.gods": 5}

    def form_schema(self, variant: str | None, players: int | None = None) -> ObjectField:
        """The phone form: the areas in the rulebook's order, the token holders a choice of
        the players (final.FORM_SCHEMA); for one player, the Traitor too
        (final.SOLO_FORM_SCHEMA)."""
        return final.SOLO_FORM_SCHEMA if players == 1 else final.FORM_SCHEMA

    def score_final(self, document):
        """Validate a Pharaon final-state document and score it (raises InvalidDocument)."""
        return final.score_final(document)

    # ---- live play ---------------------------------------------------------------------------

    def setup_schema(self, players: int) -> ObjectField:
        """§3: the board as assembled, the wheel, the first player, optional gods (all five
        or none); solo: the Traitor's tiles (order, sides, column colours), or
        ``traitor_draw`` to enter (or let the app draw) the order and colours as the first
        moves; sides left blank follow the difficulty."""
        fields: list[Any] = [
            ListField("areas", N_("Areas, clockwise"), ChoiceField("area", N_("Area"),
                                                                   _AREA_CHOICES),
                      min_items=5, max_items=5, required=True, item_label=N_("Area %(n)d")),
            ListField("entry_colours", N_("Wheel colour facing each area in round 1"),
                      ChoiceField("colour", N_("Colour"), _BASIC_CHOICES), min_items=5,
                      max_items=5, required=True, item_label=N_("Area %(n)d")),
            ChoiceField("direction", N_("The wheel turns"),
                        (("cw", N_("clockwise")), ("ccw", N_("counter-clockwise"))),
                        default="cw"),
            ChoiceField("first_player", N_("First player"), tuple(range(players)), default=0,
                        seat_choice=True),
            ListField("beginner_scribes", N_("Starts with a random Scribe (first game)"),
                      BoolField("beginner", N_("Scribe")), min_items=players,
                      max_items=players, item_label=N_("Seat %(n)d")),
            ListField("gods", N_("Gods, clockwise from the first area (or later)"),
                      _SETUP_GOD, min_items=5, max_items=5, item_label=N_("God %(n)d")),
        ]
        if players == 1:
            fields += [
                BoolField("traitor_starts", N_("The Traitor starts"), default=False),
                # the box starts with "Traitor" in the host's words, as on the score form;
                # left blank (or through the API) it is the msgid, named per reader on the page
                TextField("traitor_name", N_("The Traitor's name"), required=False,
                          prefill=printed.TRAITOR_NAME),
                BoolField("traitor_draw", N_("The app draws the Traitor's tiles and column "
                                             "colours (the fields below are then ignored)"),
                          default=False),
                ListField("traitor_order", N_("Traitor tiles, left to right"),
                          ChoiceField("tile", N_("Tile"), (1, 2, 3, 4, 5)), min_items=5,
                          max_items=5, required=True, item_label=N_("Position %(n)d")),
                ListField("traitor_sides", N_("Side up of each tile (blank: by difficulty)"),
                          ChoiceField("side", N_("Side"), (("", "–"), ("light", N_("light")),
                                                           ("dark", N_("dark")))),
                          min_items=5, max_items=5, item_label=N_("Position %(n)d")),
                ListField("traitor_colours", N_("Colour of each column"),
                          ChoiceField("colour", N_("Colour"), _BASIC_CHOICES), min_items=5,
                          max_items=5, required=True, item_label=N_("Position %(n)d")),
            ]
        return ObjectField("setup", N_("Set-up"), tuple(fields))

    def default_setup(self, players: int) -> dict[str, Any]:
        """A valid physical start: areas and colours in the printed order; the table says
        how it really lies (or the app draws it)."""
        doc: dict[str, Any] = {"areas": list(printed.AREAS), "entry_colours": list(printed.BASIC),
                               "direction": "cw", "first_player": 0}
        if players == 1:
            doc.update(traitor_starts=False, traitor_order=[1, 2, 3, 4, 5],
                       traitor_colours=list(printed.BASIC))
        return doc

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any], edition: Edition) -> dict[str, Any]:
        """A fresh game (raises RuleViolation naming the set-up field)."""
        return set_up.setup(options, names, setup, edition)

    referee = REFEREE
    story = story                                # the story of a game (rules/story.py)
    ui = ui
    score = staticmethod(tallies.score)
    final_document = staticmethod(tallies.final_document)

    def chance(self, state: Mapping[str, Any]) -> Chance | None:
        return draws.chance(state)

    def scores_visible(self, state: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
        """Everything lies open on the table (spec §2.2)."""
        return True

    def view(self, state: Mapping[str, Any], seat: int | None,
             options: Mapping[str, Any]) -> dict[str, Any]:
        return prompts.view(state, seat)


PHARAON = register(PharaonRuleset())
