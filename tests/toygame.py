"""A toy game used only by the tests (issue 11): it proves the seam by existing nowhere else.

*Coin guess*, for two players: a set-up choice (the seat that starts with a bonus coin), an
option (how many rounds), each round a chance draw (a card 1–3 from a small deck, entered by
either seat or drawn by the app), then a **simultaneous** step in which both seats guess at the
same time whether the card is high (2 or 3); a right guess scores the card's value. It has a
score-only document, a one-page pad and an edition value ("our copy": the bonus coin's worth).

No shared file names it: :func:`register_toy` adds it to the registry (and its print content,
when a print registry is given) and :func:`unregister_toy` takes it away again.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.rules import base
from companion.rules.base import (SEAT_LABEL, Assumption, Awaiting, BoolField, Capability,
                                  Catalogue, Category, Chance, ChoiceField, Edition, EditionValue,
                                  GameRules, IntField, InvalidDocument, Labels, ListField, N_,
                                  ObjectField, PlayerScore, RuleViolation, Scoresheet, Term,
                                  TextField, check_document, competition_ranks, resolve_edition)
from companion.rules.referee import MoveRule, Referee
from pdfgen import registry

GAME = "toyguess"
DECK = {1: 2, 2: 2, 3: 2}
HIGH = 2                      # a card of 2 or more is "high"
PLAYERS = (2,)


def _phase(state: Mapping[str, Any]) -> str:
    return state["phase"]


def _awaited(state: Mapping[str, Any]) -> Awaiting:
    if state["phase"] == "draw":
        return Awaiting(frozenset({0, 1}))
    if state["phase"] == "guess":
        waiting = frozenset(seat for seat, guess in enumerate(state["guesses"]) if guess is None)
        return Awaiting(waiting, step=f"guess{state['round']}")
    return Awaiting()


def _check_draw(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    if not state["deck"].get(str(args["card"])):
        raise RuleViolation(f"{GAME}.card_gone", N_("No such card is left in the deck."),
                            "move.card")


def _draw(draft, seat: int, args: Mapping[str, Any]) -> None:
    draft.own("deck")[str(args["card"])] -= 1
    draft["card"] = args["card"]
    draft["phase"] = "guess"


def _guess(draft, seat: int, args: Mapping[str, Any]) -> None:
    draft.own("guesses")[seat] = args["high"]


def _settle(draft) -> None:
    """After both guesses: score the round, then the next round or the end."""
    if draft["phase"] != "guess" or None in draft["guesses"]:
        return
    high = draft["card"] >= HIGH
    points = [draft["card"] if guess == high else 0 for guess in draft["guesses"]]
    draft["rounds_scored"] = draft["rounds_scored"] + [points]
    draft["guesses"] = [None, None]
    draft["card"] = None
    draft["phase"] = "over" if draft["round"] == draft["rounds"] else "draw"
    draft["round"] = draft["round"] + (0 if draft["phase"] == "over" else 1)


def _prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    return {"moves": ["draw"] if state["phase"] == "draw" else ["guess"]}


def _legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    if state["phase"] == "draw":
        return [{"type": "draw", "card": int(k)} for k, n in state["deck"].items() if n]
    return [{"type": "guess", "high": True}, {"type": "guess", "high": False}]


# Each move is declared once: its arguments (labelled), its check and its change.
REFEREE = Referee(
    GAME,
    (MoveRule("draw", Term(N_("draw a card")), frozenset({"draw"}),
              args=(ChoiceField("card", N_("Card"), tuple(DECK)),),
              check=_check_draw, change=_draw),
     MoveRule("guess", Term(N_("guess")), frozenset({"guess"}),
              args=(BoolField("high", N_("High"), default=None),), change=_guess)),
    phase_of=_phase, awaited=_awaited, over=lambda s: s["phase"] == "over",
    phase_labels={"draw": Term(N_("a card")), "guess": Term(N_("the guesses"))},
    after=_settle, prompts=_prompts, legal_moves=_legal_moves)

PLAYER_DOC = ObjectField("player", N_("Player"), (
    TextField("name", N_("Name")),
    IntField("bonus", N_("Bonus coin"), max=1),
    ListField("rounds", N_("Rounds"), IntField("points", N_("Points"), max=3), min_items=1,
              max_items=3, required=True, item_label=N_("Round %(n)d")),
))
FINAL_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    ListField("players", N_("Players"), PLAYER_DOC, min_items=2, max_items=2, required=True),
))
EDITION = (EditionValue("bonus_worth", N_("Bonus coin"), IntField("bonus_worth",
                                                                  N_("Bonus coin"), max=9),
                        default=1, source="made up for the tests"),)


def _sheet(names: Sequence[str], bonus: Sequence[int], rounds: Sequence[Sequence[int]],
           edition: Edition, complete: bool) -> Scoresheet:
    worth = edition.values["bonus_worth"]
    totals, lines = [], []
    for seat, name in enumerate(names):
        cats = [Category("bonus", bonus[seat] * worth)] + [
            Category("guess", points[seat], stage=index + 1)
            for index, points in enumerate(rounds)]
        totals.append(sum(c.points for c in cats))
        lines.append(cats)
    ranks = competition_ranks([(t,) for t in totals])
    assumed = tuple(Assumption(key, v.label, edition.values[key]) for key in edition.defaults
                    for v in EDITION if v.key == key and any(bonus))
    return Scoresheet(GAME, tuple(PlayerScore(name, tuple(lines[i]), totals[i], ranks[i])
                                  for i, name in enumerate(names)), complete, assumed)


class ToyGuess(GameRules):
    id = GAME
    catalogue = Catalogue(names={"en": "Coin guess", "cs": "Hádání mincí",
                                 "hu": "Érmetippelés"},
                          player_counts=PLAYERS, live_player_counts=PLAYERS,
                          capabilities=frozenset({Capability.SCORE, Capability.LIVE,
                                                  Capability.PRINT}),
                          bgg_id=None, bgg_source="a test fixture", default_players=2,
                          order=99)
    labels = Labels(categories={"bonus": N_("Bonus coin"), "guess": N_("Guess")},
                    stage=N_("Round %(stage)d"))
    options = (ChoiceField("rounds", N_("Rounds"), (2, 3), default=2),)
    edition = EDITION
    final_schema = FINAL_SCHEMA
    referee = REFEREE
    out_of_turn_codes = frozenset({f"{GAME}.not_your_turn"})

    def setup_schema(self, players: int) -> ObjectField:
        return ObjectField("setup", N_("Set-up"), (
            ChoiceField("bonus_seat", N_("Bonus coin"), tuple(range(players)), default=0,
                        seat_choice=True),
            ListField("marks", N_("Marks"), TextField("mark", N_("Mark"), required=False,
                                                      max_length=3),
                      min_items=players, max_items=players, item_label=SEAT_LABEL),
        ))

    def default_setup(self, players: int) -> dict[str, Any]:
        return {"bonus_seat": 0, "marks": [""] * players}

    def setup(self, options, names, setup, edition) -> dict[str, Any]:
        if len(names) != 2:
            raise RuleViolation(f"{GAME}.bad_player_count", N_("Two players."), "players")
        return {"names": list(names), "rounds": options["rounds"], "round": 1,
                "phase": "draw", "deck": {str(k): v for k, v in DECK.items()}, "card": None,
                "guesses": [None, None], "rounds_scored": [],
                "bonus": [1 if seat == setup["bonus_seat"] else 0 for seat in range(2)],
                "bonus_worth": edition.values["bonus_worth"],
                "defaults": list(edition.defaults)}

    def chance(self, state) -> Chance | None:
        if state["phase"] != "draw":
            return None
        return Chance({"type": "draw"}, "card",
                      tuple((int(k), n) for k, n in state["deck"].items() if n),
                      frozenset({0, 1}))

    def _edition(self, state) -> Edition:
        return Edition({"bonus_worth": state["bonus_worth"]}, tuple(state["defaults"]))

    def score(self, state) -> Scoresheet:
        return _sheet(state["names"], state["bonus"], state["rounds_scored"],
                      self._edition(state), REFEREE.over(state))

    def final_document(self, state) -> dict[str, Any]:
        document = {"game": GAME, "players": [
            {"name": name, "bonus": state["bonus"][seat],
             "rounds": [points[seat] for points in state["rounds_scored"]]}
            for seat, name in enumerate(state["names"])]}
        if "bonus_worth" not in state["defaults"]:
            document["edition"] = {"bonus_worth": state["bonus_worth"]}
        return document

    def score_final(self, document) -> Scoresheet:
        document = dict(document) if isinstance(document, Mapping) else document
        given = document.pop("edition", None) if isinstance(document, dict) else None
        clean, violations = check_document(FINAL_SCHEMA, document)
        if not violations and len({len(p["rounds"]) for p in clean["players"]}) != 1:
            violations.append(RuleViolation(f"{GAME}.rounds_differ",
                                            N_("Every player needs the same rounds."),
                                            "players.1.rounds"))
        if violations:
            raise InvalidDocument(violations)
        edition = resolve_edition(EDITION, given if isinstance(given, Mapping) else None)
        players = clean["players"]
        rounds = [[p["rounds"][i] for p in players] for i in range(len(players[0]["rounds"]))]
        return _sheet([p["name"] for p in players], [p["bonus"] for p in players], rounds,
                      edition, True)


TOY = ToyGuess()


# Its one-page pad, registered with the print registry as pdfgen/<game>.py would.
PRINT = registry.GamePrint(GAME, registry.PadSpec(N_("Coin guess · score pad"), (
    registry.PadRow("entry", N_("Bonus coin")),
    registry.PadRow("entry", N_("Round %(stage)d"), params={"stage": 1}),
    registry.PadRow("entry", N_("Round %(stage)d"), params={"stage": 2}),
    registry.PadRow("entry", N_("Round %(stage)d"), params={"stage": 3}),
    registry.PadRow("result", N_("Total"))), N_("A right guess scores the card.")))


def register_toy() -> ToyGuess:
    base.register(TOY)
    registry.register(PRINT)
    return TOY


def unregister_toy() -> None:
    registry.unregister(GAME)
    base.unregister(GAME)
