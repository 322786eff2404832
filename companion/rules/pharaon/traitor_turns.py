"""The Traitor's turns (spec shared/rules/pharaon.md §7.2-§7.5), run by the app, and the
choices the rules give the human during them: moves ``traitor_colours`` (Q9, silver on his
jar), ``traitor_board`` (§7.2, which top token goes on the wheel) and ``traitor_reward`` (§7.4,
Q5, his pyramid reward).

His tiles and what they say are in :mod:`.traitor`; his jars are drawn in :mod:`.draws`. Each
step of his turn is logged (``traitor_log``) for the phone.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Mapping, Sequence

from ..base import ChoiceField, ListField, N_, Term
from ..referee import Draft, MoveRule
from . import printed as t
from . import traitor as tr
from .edition import parse_symbol
from .gains import acquire_noble, raise_nile, refill_artisan, refill_noble, tomb_step_free
from .passing import pass_round
from .state import (REWARD_CHOICES, DrawTo, MoveKind, Phase, Step, basic_kind, facing, free_spot,
                    gain, lay_on_wheel, offering_drawable, pending_head, pop_head, push_back,
                    push_front, pyramid_row, violation)


class TraitorEvent(StrEnum):
    """What a line of the Traitor's log says he did (the phone shows it step by step)."""

    JAR = "jar"                    # §7.2 he flips his top jar: TL, TR, B
    SILVER = "silver"              # Q9 the colours the human picked for silver on it
    COLUMN = "column"              # placeOnColumn: token, column, space, symbol (wrapped?)
    COLUMNS_FULL = "columns_full"  # Q6 every column full: the token is not placed
    WHEEL = "wheel"                # a top token on the wheel (why: only / chosen)
    NO_WHEEL = "no_wheel"          # neither top token's segment has a free spot
    TOMB = "tomb"                  # §7.3 symbols and their effects
    GOD = "god"
    MULTIPLIER = "multiplier"
    TAKE_NOBLE = "take_noble"
    DISCARD_NOBLE = "discard_noble"
    TAKE_ARTISAN = "take_artisan"
    DISCARD_ARTISAN = "discard_artisan"
    PAIR = "pair"
    BONUS = "bonus"
    NILE = "nile"
    NOTHING = "nothing"            # a symbol that finds nothing (an empty slot, a full track)
    PASS = "pass"                  # §7.4 his stack is empty
    STEP = "step"                  # §7.4 a pyramid step and its reward


def _log(d: Draft, event: str, **data: Any) -> None:
    """One line of what the Traitor did and why, numbered by his turn (§7.2-§7.4)."""
    entry = {"round": d["round"], "turn": d["traitor_board"]["turns"], "event": str(event),
             **data}
    d["traitor_log"] = list(d["traitor_log"]) + [entry]


def auto_traitor_turn(d: Draft, step: Mapping[str, Any]) -> None:
    """§7.2: a pyramid step once he has passed; a pass when his stack is empty (Q4);
    otherwise the human flips his top jar (a chance input)."""
    traitor = d["traitor"]
    me = d["players"][traitor]
    d.own("traitor_board")["turns"] += 1
    if me["passed"]:
        _traitor_step(d)
        push_back(d, {"kind": Step.END_TURN})
        return
    if d["traitor_board"]["stack"] == 0:
        _traitor_pass(d, "empty_stack")
        push_back(d, {"kind": Step.END_TURN})
        return
    push_front(d, {"kind": Phase.DRAW_JARS, "seat": 0, "count": 1, "to": DrawTo.TRAITOR},
               {"kind": Step.TRAITOR_AFTER}, {"kind": Step.END_TURN})


def auto_traitor_after(d: Draft, step: Mapping[str, Any]) -> None:
    """Q4 option "after_last_jar": he passes in the turn his last jar was played."""
    traitor = d["traitor"]
    if (d["options"]["traitor_pass_timing"] == "after_last_jar"
            and d["traitor_board"]["stack"] == 0 and not d["players"][traitor]["passed"]):
        _traitor_pass(d, "last_jar")


def _traitor_pass(d: Draft, why: str) -> None:
    """§7.4: he passes (no face-up jar for him); his cylinder goes to the pyramid."""
    traitor = d["traitor"]
    last = pass_round(d, traitor)
    _log(d, TraitorEvent.PASS, why=why, row=d["players"][traitor]["row"], last=last)


def _traitor_step(d: Draft) -> None:
    """§7.4: his cylinder steps like a human's; the reward is the space reached (Q5), the
    human choosing the resource for him, or any reward with the option "human_picks"."""
    traitor = d["traitor"]
    me = d.own("players", traitor)
    me["space"] += 1
    row = pyramid_row(d.state, me["row"])
    if me["space"] >= len(row) - 1:
        me["done"] = True
    if d["options"]["traitor_pyramid_reward"] == "human_picks":
        reached = row[:me["space"] + 1]
        choices = list(t.REWARDS) if None in reached else [r for r in t.REWARDS if r in reached]
    else:
        reward = row[me["space"]]
        choices = list(t.REWARDS) if reward is None else [reward]
    space = {"row": me["row"], "space": me["space"], "done": me["done"]}
    if choices == [t.Reward.SILVER.value]:
        gain(d, traitor, t.SILVER)
        _log(d, TraitorEvent.STEP, reward=choices[0], **space)
    elif choices == [t.Reward.FIRST_PLAYER.value]:
        d["first_player"] = traitor
        _log(d, TraitorEvent.STEP, reward=choices[0], **space)
    elif choices == [t.Reward.OFFERING.value]:
        push_front(d, {"kind": Step.NEED_OFFERING, "seat": 0, "actor": traitor})
        _log(d, TraitorEvent.STEP, reward=choices[0], **space)
    else:
        push_front(d, {"kind": Phase.TRAITOR_REWARD, "seat": 0, "choices": choices, **space})


def traitor_jar(d: Draft, jar: Sequence[str]) -> None:
    """The jar's bottom B, top-left TL, top-right TR; silver asks the human for a colour (Q9)."""
    _log(d, TraitorEvent.JAR, jar=list(jar), left=d["traitor_board"]["stack"])
    silver = [i for i, kind in enumerate(jar) if kind == t.SILVER]
    if silver:
        push_front(d, {"kind": Phase.TRAITOR_COLOURS, "seat": 0, "jar": list(jar),
                       "silver": silver})
        return
    _traitor_resolve(d, jar, list(jar))


def _traitor_resolve(d: Draft, jar: Sequence[str], colours: Sequence[str]) -> None:
    """placeOnColumn(B), then the top tokens (§7.2)."""
    push_front(d, {"kind": Step.TRAITOR_PLACE, "token": jar[2], "colour": colours[2]},
               {"kind": Step.TRAITOR_TOP, "jar": list(jar), "colours": list(colours)})


def auto_traitor_top(d: Draft, step: Mapping[str, Any]) -> None:
    """§7.2: the top tokens whose segment has a free usable spot are eligible; none: both on
    columns, TL first; one: it goes on the wheel; two: the human picks."""
    jar, colours = step["jar"], step["colours"]
    eligible = [i for i in (0, 1) if free_spot(d.state, colours[i]) is not None]
    if not eligible:
        _log(d, TraitorEvent.NO_WHEEL, colours=list(colours[:2]))
        push_front(d, {"kind": Step.TRAITOR_PLACE, "token": jar[0], "colour": colours[0]},
                   {"kind": Step.TRAITOR_PLACE, "token": jar[1], "colour": colours[1]})
    elif len(eligible) == 1:
        chosen = eligible[0]
        _traitor_wheel(d, jar[chosen], colours[chosen], "only")
        push_front(d, {"kind": Step.TRAITOR_PLACE, "token": jar[1 - chosen],
                       "colour": colours[1 - chosen]})
    else:
        push_front(d, {"kind": Phase.TRAITOR_BOARD, "seat": 0, "jar": list(jar),
                       "colours": list(colours), "eligible": eligible})


def _traitor_wheel(d: Draft, token: str, colour: str, why: str) -> None:
    """His token on the first free usable spot of its colour's segment, for the round."""
    spot = free_spot(d.state, colour)
    lay_on_wheel(d, d["traitor"], token, colour, spot, from_bank=True)
    area = d["board"]["areas"][facing(d.state).index(colour)]
    _log(d, TraitorEvent.WHEEL, token=token, colour=colour, area=area, spot=spot, why=why,
         closes=free_spot(d.state, colour) is None)


def auto_traitor_place(d: Draft, step: Mapping[str, Any]) -> None:
    """placeOnColumn (§7.2): the lowest free space of the column of the colour (wrapping to
    the right past full columns), and the space's symbol resolves at once (§7.3)."""
    board = d["traitor_board"]
    tiles = d["rules"]["traitor_tiles"]
    position = tr.placement_column(board, tiles, step["colour"])
    if position is None:
        _log(d, TraitorEvent.COLUMNS_FULL, token=step["token"], colour=step["colour"])
        return                                   # Q6: every column full, the token stays
    token = step["token"]
    stand_in = d["bank"][token] == 0             # Q10: a stand-in when the bank is empty
    if stand_in:
        d.own("stand_ins")[token] += 1
    else:
        d.own("bank")[token] -= 1
    d.own("traitor_board", "columns", position).append({"token": token, "stand_in": stand_in})
    space = len(d["traitor_board"]["columns"][position]) - 1
    symbol = tr.column_spaces(board, tiles, position)[space]
    _log(d, TraitorEvent.COLUMN, token=token, colour=step["colour"], position=position,
         tile=board["tiles"][position] + 1, column=board["colours"][position],
         wrapped=board["colours"][position] != step["colour"], space=space, symbol=symbol)
    if symbol:
        _traitor_symbol(d, symbol)


def _traitor_symbol(d: Draft, symbol: str) -> None:
    """§7.3: each symbol's effect, at once. Taken or discarded cards are replaced at once.
    Every effect is logged, and so is a symbol that finds nothing to act on."""
    kind, argument = parse_symbol(symbol)
    traitor = d["traitor"]
    if kind == t.Symbol.TOMB:
        before = d["players"][traitor]["tomb"]
        tomb_step_free(d, traitor)
        steps = d["players"][traitor]["tomb"]
        _log(d, TraitorEvent.TOMB if steps > before else TraitorEvent.NOTHING, symbol=symbol,
             steps=steps)
    elif kind == t.Symbol.GOD:
        # scored at the end (§7.7); the log names the board's god it stands for
        god = tr.god_index(d["board"]["areas"], argument)
        gods = d["board"]["gods"]
        _log(d, TraitorEvent.GOD, symbol=symbol, god=god,
             name=gods[god]["name"] if gods else None)
    elif kind == t.Symbol.NOBLE_MULTIPLIER:
        _log(d, TraitorEvent.MULTIPLIER, symbol=symbol, k=argument)
    elif kind in (t.Symbol.TAKE_NOBLE, t.Symbol.DISCARD_NOBLE):
        slot = argument - 1
        card = d["noble_display"][slot]
        if card is None:
            _log(d, TraitorEvent.NOTHING, symbol=symbol, slot=slot)
            return                               # an empty slot: nothing [unverified]
        d.own("noble_display")[slot] = None
        if kind == t.Symbol.TAKE_NOBLE:
            acquire_noble(d, traitor, card)     # its effect is ignored
            _log(d, TraitorEvent.TAKE_NOBLE, symbol=symbol, slot=slot, card=card)
        else:
            d["noble_discard"] = list(d["noble_discard"]) + [card]
            _log(d, TraitorEvent.DISCARD_NOBLE, symbol=symbol, slot=slot, card=card)
        refill_noble(d, slot, 0)
    elif kind in (t.Symbol.TAKE_ARTISAN, t.Symbol.TAKE_ARTISAN_2, t.Symbol.DISCARD_ARTISAN):
        rule = ("highest" if kind == t.Symbol.TAKE_ARTISAN else
                d["options"]["traitor_artisan_take_2"] if kind == t.Symbol.TAKE_ARTISAN_2 else
                d["options"]["traitor_artisan_discard"])
        slot = _artisan_by_points(d["artisan_display"], rule == "highest")
        if slot is None:
            _log(d, TraitorEvent.NOTHING, symbol=symbol)
            return
        card = d["artisan_display"][slot]
        d.own("artisan_display")[slot] = None
        if kind == t.Symbol.DISCARD_ARTISAN:
            d["artisan_discard"] = list(d["artisan_discard"]) + [card]
        else:
            d.own("players", traitor, "artisans").append(card)   # resources ignored
        _log(d, TraitorEvent.DISCARD_ARTISAN if kind == t.Symbol.DISCARD_ARTISAN
             else TraitorEvent.TAKE_ARTISAN, symbol=symbol, slot=slot, points=card["points"],
             rule=rule)
        refill_artisan(d, slot, 0)
    elif kind == t.Symbol.OFFERING_PAIR:
        index = argument - 1
        if index < len(d["pairs"]) and d["pairs"][index]:
            tokens = list(d["pairs"][index])
            for token in tokens:
                d.own("players", traitor, "off")[token] += 1
            d.own("pairs")[index] = []
            _log(d, TraitorEvent.PAIR, symbol=symbol, n=argument, tokens=tokens)
        else:
            _log(d, TraitorEvent.NOTHING, symbol=symbol, n=argument)
    elif kind == t.Symbol.BONUS_OFFERING:
        index = argument - 1
        if index < len(d["bonus"]) and d["bonus"][index] is not None:
            token = d["bonus"][index]
            d.own("players", traitor, "off")[token] += 1
            d.own("bonus")[index] = None
            _log(d, TraitorEvent.BONUS, symbol=symbol, n=argument, token=token)
        else:
            _log(d, TraitorEvent.NOTHING, symbol=symbol, n=argument)
    elif kind in (t.Symbol.NILE_FULLEST, t.Symbol.NILE_EMPTIEST):
        colour = tr.nile_column(d["traitor_board"], kind == t.Symbol.NILE_FULLEST)
        before = d["players"][traitor]["nile"][t.BASIC.index(colour)]
        raise_nile(d, traitor, colour)
        level = d["players"][traitor]["nile"][t.BASIC.index(colour)]
        _log(d, TraitorEvent.NILE if level > before else TraitorEvent.NOTHING, symbol=symbol,
             track=colour, level=level)


def _artisan_by_points(display: Sequence[Any], highest: bool) -> int | None:
    """The displayed artisan with the highest (or lowest) points; a tie goes to the
    leftmost (§7.3)."""
    best = None
    for slot, card in enumerate(display):
        if card is None:
            continue
        if best is None or (card["points"] > display[best]["points"] if highest
                            else card["points"] < display[best]["points"]):
            best = slot
    return best


def _check_traitor_colours(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]
                           ) -> None:
    head = pending_head(state)
    if len(args["colours"]) != len(head["silver"]):
        raise violation("pharaon.wrong_count", N_("Pick %(count)d colours."), "colours",
                        count=len(head["silver"]))


def _change_traitor_colours(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    colours = list(head["jar"])
    for position, colour in zip(head["silver"], args["colours"]):
        colours[position] = colour
    _log(d, TraitorEvent.SILVER, jar=list(head["jar"]), colours=colours)
    _traitor_resolve(d, head["jar"], colours)


def _change_traitor_board(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    chosen = args["token"]
    jar, colours = head["jar"], head["colours"]
    _traitor_wheel(d, jar[chosen], colours[chosen], "chosen")
    push_front(d, {"kind": Step.TRAITOR_PLACE, "token": jar[1 - chosen],
                   "colour": colours[1 - chosen]})


def _check_traitor_reward(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = pending_head(state)
    choices = head["choices"]
    reward = args["reward"] if args["reward"] is not None else (
        choices[0] if len(choices) == 1 else None)
    if reward not in choices:
        raise violation("PH_E_REWARD_NOT_IN_ROW",
                        N_("That reward is not on the space reached or before it."), "reward")
    if reward == t.Reward.BASIC and args["kind"] is None:
        raise violation("pharaon.kind_needed", N_("Pick the resource for the Traitor."), "kind")


def _change_traitor_reward(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    choices = head["choices"]
    reward = args["reward"] if args["reward"] is not None else choices[0]
    traitor = d["traitor"]
    _log(d, TraitorEvent.STEP, reward=reward, kind=args["kind"] if reward == t.Reward.BASIC
         else None, chosen=True, **{k: head[k] for k in ("row", "space", "done") if k in head})
    if reward == t.Reward.FIRST_PLAYER:
        d["first_player"] = traitor
    elif reward == t.Reward.BASIC:
        gain(d, traitor, args["kind"])
    elif reward == t.Reward.SILVER:
        gain(d, traitor, t.SILVER)
    elif offering_drawable(d.state):
        # §7.4: "an offering drawn from the bag for him"
        push_front(d, {"kind": Step.NEED_OFFERING, "seat": 0, "actor": traitor})


# The human's choices during his turn, each declared once: its arguments, its check and its
# change.
RULES = (
    MoveRule(MoveKind.TRAITOR_COLOURS, Term(N_("pick the Traitor's colours")),
             frozenset({Phase.TRAITOR_COLOURS}),
             args=(ListField("colours", N_("Colours"), basic_kind("colour", N_("Colour")),
                             min_items=1, max_items=3, required=True,
                             item_label=N_("Silver %(n)d")),),
             check=_check_traitor_colours, change=_change_traitor_colours),
    # the choice arises only when both top tokens could go on the wheel (§7.2)
    MoveRule(MoveKind.TRAITOR_BOARD, Term(N_("pick the Traitor's token for the wheel")),
             frozenset({Phase.TRAITOR_BOARD}),
             args=(ChoiceField("token", N_("Top token"),
                               ((0, N_("top left")), (1, N_("top right")))),),
             change=_change_traitor_board),
    MoveRule(MoveKind.TRAITOR_REWARD, Term(N_("pick the Traitor's reward")),
             frozenset({Phase.TRAITOR_REWARD}),
             args=(ChoiceField("reward", N_("Reward"), REWARD_CHOICES, optional=True),
                   basic_kind("kind", N_("Resource"), optional=True)),     # a basic reward
             check=_check_traitor_reward, change=_change_traitor_reward),
)
