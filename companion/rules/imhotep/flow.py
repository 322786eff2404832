"""What happens between the moves (spec imhotep.md §4.1 round flow, §5.2 and §6.1 Temple scoring,
E3, E4, E15, E16): the queued steps that need no input, the next turn, the round's end.

After every move the referee calls :func:`run`: it carries out the queue's steps until one
needs a player's input (phase "choice"), then what follows the action. :func:`action` and
:func:`choice` wrap the changes of the turn actions and of the queued choices.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..referee import Args, Draft
from . import printed
from .delivery import deliver, resolve_red
from .scoring import temple_round_points, temple_visible
from .state import (QUEUE, Phase, PyramidBonus, Task, Then, can_draw, free_slots, takeable)


def action(change: Callable[[Draft, int, Args], Any]) -> Callable[[Draft, int, Args], None]:
    """A turn action (§4.2–§4.5): passes start again from 0 and the turn ends after it."""
    def act(d: Draft, seat: int, args: Args) -> None:
        d["passes"] = 0
        d["then"] = Then.END_ACTION.value
        change(d, seat, args)
    return act


def choice(change: Callable[[Draft, int, Args, Mapping[str, Any]], Any]
           ) -> Callable[[Draft, int, Args], None]:
    """A queued choice (§4.6, §6.1): the step leaves the queue and ``change`` carries it out."""
    def choose(d: Draft, seat: int, args: Args) -> None:
        change(d, seat, args, QUEUE.pop(d))
    return choose


def run(d: Draft) -> None:
    """After every move: carry out queued steps until one needs a player's input, then what
    follows the action (the next turn, the round end, the next round)."""
    while True:
        task = QUEUE.head(d.state)
        if task is not None:
            if _waits_for_input(d, task):
                d["phase"] = Phase.CHOICE.value
                return
            continue
        then = d["then"]
        if then is None:
            return
        d["then"] = None
        if then == Then.END_ACTION:
            _end_action(d)
        elif then == Then.ROUND_END:
            _temple_end(d)
            d["then"] = Then.NEXT_ROUND.value
        else:
            _next_round(d)


def bonus_possible(state: Mapping[str, Any], seat: int, bonus: str) -> bool:
    """A Pyramids B bonus (§6.1) that could be used now; an impossible one is skipped."""
    if bonus == PyramidBonus.CARD:
        return can_draw(state)
    if bonus == PyramidBonus.STONES:
        return takeable(state, seat, printed.PYRAMID_B_BONUS_STONES) > 0
    return state["sled"][seat] > 0 and bool(free_slots(state))


def _waits_for_input(d: Draft, task: Mapping[str, Any]) -> bool:
    """Carry out ``task`` if it needs nobody's input (popping it); True if it waits."""
    kind, seat = task["kind"], task["seat"]
    if kind == Task.DELIVER:
        return deliver(d, task)
    if kind == Task.ORDER:
        return True
    if kind == Task.BONUS and bonus_possible(d.state, seat, task["bonus"]):
        return True
    if kind == Task.TEMPLE_CHOICE and takeable(d.state, seat, printed.TEMPLE_B_CHOICE_STONES):
        return True
    if kind == Task.DRAW and can_draw(d.state):
        return True
    QUEUE.pop(d)
    if kind == Task.TEMPLE_CHOICE:          # E16: no stone can be taken, so the point
        d.add(("score", seat), printed.TEMPLE_B_CHOICE_POINTS)
    elif kind == Task.RED:
        resolve_red(d, seat, task["card"])
    # BONUS impossible: skipped (§6.1: optional); DRAW with no card anywhere: nothing (E4)
    return False


def _end_action(d: Draft) -> None:
    """§4.1: the next player's turn, or the round end once the fourth ship has unloaded."""
    count = len(d["names"])
    if all(ship["site"] is not None for ship in d["ships"]):
        d["next_start"] = (d["last_sailor"] + 1) % count     # left of the fourth ship's sailor
        d["then"] = Then.ROUND_END.value
        return
    d["current"] = (d["current"] + 1) % count
    d["phase"] = Phase.TURN.value


def _temple_width(state: Mapping[str, Any]) -> int:
    """Positions per Temple level (§2.4; Temple B with 2 players: b_values)."""
    count = len(state["names"])
    if state["options"]["sides"]["temple"] == "B" and count == 2:
        return state["b_values"]["temple_b_width_2p"]
    return printed.TEMPLE_A_WIDTH[count]


def _temple_end(d: Draft) -> None:
    """§5.2 Temple A: 1 point per visible stone. §6.1 Temple B: each visible stone's space
    bonus, left to right (E15); TWO scores at once, CHOICE and CARD ask their owner."""
    width = _temple_width(d.state)
    if d["options"]["sides"]["temple"] == "A":
        for seat, points in temple_round_points(d["temple"], width).items():
            d.add(("score", seat), points)
        return
    spaces = d["b_values"]["temple_b"]
    for position, seat in enumerate(temple_visible(d["temple"], width)):
        bonus = spaces[position]
        if bonus == "two":          # needs no input, and points change nothing else
            d.add(("score", seat), printed.TEMPLE_B_TWO_POINTS)
        else:
            QUEUE.push(d, seat, (Task.TEMPLE_CHOICE if bonus == "choice" else Task.DRAW).value)


def _next_round(d: Draft) -> None:
    """§4.1 steps 3-5: ships back, leftover market cards discarded, next round or the end."""
    if d["display"]:
        discard = d.own("discard")
        for card in d["display"]:
            discard[card] += 1
    d["display"] = []
    if d["pair"]:
        d["discard_unknown"] += d["pair"]      # E5: discarded unseen
        d["pair"] = 0
    d["ships"] = []
    d["passes"] = 0
    if d["round"] == printed.ROUNDS:
        d["phase"] = Phase.OVER.value
        return
    d["round"] += 1
    d["start_player"] = d["current"] = d["next_start"]
    d["phase"] = Phase.ROUND_CARD.value
