"""What a phone is shown: the payment proposal and the declarations it could make, the
prompts of an awaited seat, the candidates for its legal moves, and the view of the state.

Spec shared/rules/pharaon.md §4.2 (payments; issue 14: the phone proposes the cheapest legal
declaration and lets the player change it), design.md §2 (prompts, legal moves).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from . import printed as t
from .edition import arrow_tracks
from .payment import area_pattern, declarable_kinds, entry_kinds, propose_payment
from .actions import pay_context
from .draws import chance
from .exchanges import exchange_cards
from .passing import rewards_in_reach
from .state import (CHANCE_STEPS, MoveKind, NileMode, Phase, Status, awaiting, facing, free_spots,
                    full_area_noble, holdings, nile_mode, owns, pending_head, phase_of,
                    player_status, tomb_length, tomb_space, usable_spots)
from .values import missing_values


def propose(state: Mapping[str, Any], actor: int, area: str, *, bonus: bool = False,
            nile_action: int | None = None, cost: Sequence[str] | None = None
            ) -> dict[str, Any] | None:
    """The cheapest legal declaration ``{"entry", "pay"}`` for ``actor``'s action in
    ``area`` (issue 14: the phone proposes it and lets the player change it); ``bonus`` for
    the Offerings bonus, ``nile_action`` for a Nile action of the group's copy, ``cost`` for
    a printed cost the player declares (Nile in confirm mode, tomb costs not entered)."""
    if area == "NIL":
        if nile_action is not None:
            cost = state["rules"]["nile_actions"][nile_action]["cost"]
        if cost is None:
            return None
        pattern = area_pattern("NIL", fixed=cost)
    elif area == "TMB":
        player = state["players"][actor]
        if player["tomb"] >= tomb_length(state):
            return None
        printed = tomb_space(state, player["tomb"] + 1)["cost"]
        cost = printed if printed is not None else cost
        if cost is None:
            return None
        pattern = area_pattern("TMB", fixed=cost)
    else:
        pattern = area_pattern(area, bonus=bonus, judge=owns(state, actor, t.JUDGE))
    return propose_payment(holdings(state, actor), pay_context(state, actor, area), pattern)


def payment_choices(state: Mapping[str, Any], actor: int, area: str) -> dict[str, Any]:
    """Every declaration ``actor`` could make while paying in ``area`` with what they hold:
    the entry's (``{"token", "as"}`` laid on the wheel, spec §4.2) and each token's for the
    action cost, so the phone can offer them beside the proposal (issue 14)."""
    ctx = pay_context(state, actor, area)
    held = holdings(state, actor)
    entry = [{"token": token, "as": kind} for token in sorted(held, key=_token_order)
             for kind in entry_kinds(token, ctx)]
    pay = [{"token": token, "as": kind} for token in sorted(held, key=_token_order)
           for kind in declarable_kinds(token, ctx)]
    return {"entry": entry, "pay": pay, "entry_colour": ctx.entry_colour}


def _token_order(token: str) -> int:
    """Basic kinds first (board order), silver, then the offerings as the box lists them."""
    return t.TOKENS.index(token)


def pay_rows(state: Mapping[str, Any], actor: int, area: str, *, bonus: bool = False,
             cost: Sequence[str] | None = None) -> int:
    """How many action-cost units the phone offers to declare: the whole cost (the entry's
    deduction may leave one row unused): OFF 1 (2 with the bonus), NOB 5, ART 3, the
    printed cost of a Nile action or tomb space, or its most when it is declared."""
    if area == "OFF":
        return 2 if bonus else 1
    if area == "NOB":
        return 5
    if area == "ART":
        return 3
    if cost is not None:
        return len(cost)
    if area == "TMB":
        player = state["players"][actor]
        if player["tomb"] < tomb_length(state):
            printed = tomb_space(state, player["tomb"] + 1)["cost"]
            if printed is not None:
                return len(printed)
        return t.TOMB_COST_UNITS[1]
    return t.NILE_CONFIRM_LIMITS["cost"][1]


def area_view(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The wheel this round: per area (board order) the entry colour, each spot (None free,
    "closed" for the unused 4+ spot, else the occupant's actor index or "blocked"), and the
    free usable spots."""
    usable = set(usable_spots(state))
    colours = facing(state)
    view = []
    for area, colour in zip(state["board"]["areas"], colours):
        spots = []
        for index, spot in enumerate(state["wheel"][colour]):
            if index not in usable:
                spots.append("closed")
            elif spot is None:
                spots.append(None)
            else:
                spots.append("blocked" if spot["actor"] is None else spot["actor"])
        view.append({"area": area, "colour": colour, "spots": spots,
                     "free": free_spots(state, colour)})
    return view


def _area_options(state: Mapping[str, Any], actor: int) -> list[dict[str, Any]]:
    rows = []
    for row in area_view(state):
        area = row["area"]
        full_noble = (full_area_noble(state, actor, area) if row["free"] == 0 else None)
        entry = {**row, "usable": row["free"] > 0 or full_noble is not None,
                 "full_area_noble": full_noble,
                 "choices": payment_choices(state, actor, area),
                 "rows": pay_rows(state, actor, area)}
        if area == "OFF":
            entry["proposal"] = propose(state, actor, "OFF")
            entry["proposal_bonus"] = propose(state, actor, "OFF", bonus=True)
            entry["rows_bonus"] = pay_rows(state, actor, "OFF", bonus=True)
            entry["pairs"] = state["pairs"]
            entry["bonus"] = state["bonus"]
        elif area == "NIL":
            if nile_mode(state) == NileMode.CATALOGUE:
                entry["actions"] = [{"action": i, **action,
                                     "proposal": propose(state, actor, "NIL", nile_action=i)}
                                    for i, action in enumerate(state["rules"]["nile_actions"])]
            else:
                entry["confirm_mode"] = True
        elif area == "TMB":
            player = state["players"][actor]
            entry["finished"] = player["tomb"] >= tomb_length(state)
            if not entry["finished"]:
                entry["next_space"] = dict(tomb_space(state, player["tomb"] + 1))
                entry["proposal"] = propose(state, actor, "TMB")
        else:
            entry["proposal"] = propose(state, actor, area)
            entry["display"] = state["noble_display" if area == "NOB" else "artisan_display"]
            entry["deck"] = (len(state["noble_deck"]) + len(state["noble_bottom"])
                             if area == "NOB" else state["artisan_deck"])
        rows.append(entry)
    return rows


def watching(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What every phone is shown, an awaited one or not: the phase, the round, who acts."""
    return {"phase": phase_of(state), "round": state["round"],
            "awaiting": sorted(awaiting(state).seats)}


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What the awaited ``seat``'s phone may do now, with the choices it must offer
    (design.md §2)."""
    out: dict[str, Any] = {"moves": [], **watching(state, seat)}
    phase = out["phase"]
    if phase == Phase.VALUES:
        gods_missing, steps = missing_values(state)
        out.update(moves=[MoveKind.ENTER_VALUES.value], gods_missing=gods_missing,
                   tomb_steps_missing=steps)
        return out
    if phase == Phase.TURN:
        player = state["players"][seat]
        exchange = ([MoveKind.EXCHANGE.value] if exchange_cards(state, seat) else [])
        if player_status(player) == Status.ACTIVE:
            out["moves"] = [MoveKind.ACTION.value, MoveKind.PASS.value] + exchange
            out["areas"] = _area_options(state, seat)
            out["jars"] = state["jar_display"] if state["round"] < t.ROUNDS else []
        else:
            out["moves"] = [MoveKind.STEP.value] + exchange
            out["rewards"] = rewards_in_reach(state, seat)
            out["bonus"] = state["bonus"]
        out["exchange_cards"] = exchange_cards(state, seat)
        return out
    head = pending_head(state)
    out["step"] = dict(head)
    if phase in CHANCE_STEPS:
        draw = chance(state)
        out["moves"] = [phase]
        out["chance"] = {"move": dict(draw.move), "key": draw.key, "draws": draw.draws,
                         "outcomes": [list(o) for o in draw.outcomes]}
    elif phase == Phase.GENERAL:
        out["moves"] = [MoveKind.STEP.value, MoveKind.SKIP_STEP.value]
        out["rewards"] = rewards_in_reach(state, seat)
        out["bonus"] = state["bonus"]
    else:
        out["moves"] = [phase]
        if phase == Phase.START_PICK:
            out["jars"] = state["jar_display"]
        elif phase == Phase.NOBLE_EFFECT:
            out["bonus"] = state["bonus"]
            out["artisan_display"] = state["artisan_display"]
    return out


def _action_candidates(state: Mapping[str, Any], actor: int) -> Iterable[dict[str, Any]]:
    for row in area_view(state):
        area = row["area"]
        if row["free"] == 0 and full_area_noble(state, actor, area) is None:
            continue
        if area == "OFF":
            base, bonus = propose(state, actor, "OFF"), propose(state, actor, "OFF", bonus=True)
            for pair, tokens in enumerate(state["pairs"]):
                if not tokens:
                    continue
                if base:
                    yield {"type": "action", "area": "OFF", "pair": pair, **base}
                if bonus:
                    yield {"type": "action", "area": "OFF", "pair": pair, "bonus": "bag", **bonus}
                    for slot, token in enumerate(state["bonus"]):
                        if token is not None:
                            yield {"type": "action", "area": "OFF", "pair": pair,
                                   "bonus": slot, **bonus}
        elif area in ("NOB", "ART"):
            proposal = propose(state, actor, area)
            if proposal is None:
                continue
            display = state["noble_display" if area == "NOB" else "artisan_display"]
            for slot, card in enumerate(display):
                if card is not None:
                    yield {"type": "action", "area": area, "card": slot, **proposal}
            yield {"type": "action", "area": area, "card": "top", **proposal}
        elif area == "NIL":
            if nile_mode(state) == NileMode.CATALOGUE:
                for i, action in enumerate(state["rules"]["nile_actions"]):
                    proposal = propose(state, actor, "NIL", nile_action=i)
                    if proposal is None:
                        continue
                    for tracks in _track_choices(action["arrows"]):
                        yield {"type": "action", "area": "NIL", **proposal,
                               "nile": {"action": i, "tracks": tracks}}
            else:
                colour = row["colour"]
                for other in t.BASIC:
                    cost = [colour, other] if other != colour else [colour]
                    proposal = propose(state, actor, "NIL", cost=cost)
                    if proposal is None:
                        continue
                    yield {"type": "action", "area": "NIL", **proposal,
                           "nile": {"cost": cost, "gains": {other: 1}, "jar": other == "BLK",
                                    "tracks": [other] if other == colour else [colour, other]}}
        else:
            player = state["players"][actor]
            if player["tomb"] >= tomb_length(state):
                continue
            printed = tomb_space(state, player["tomb"] + 1)["cost"]
            costs = [None] if printed is not None else [
                [row["colour"], other] for other in t.BASIC]
            for cost in costs:
                proposal = propose(state, actor, "TMB", cost=cost)
                if proposal is not None:
                    yield {"type": "action", "area": "TMB", **proposal,
                           **({"tomb": {"cost": cost}} if cost is not None else {})}


def _track_choices(arrows: Sequence[str]) -> list[list[str]]:
    """Every assignment of the arrows to tracks they allow (a few hundred at most)."""
    choices: list[list[str]] = [[]]
    for arrow in arrows:
        choices = [c + [track] for c in choices for track in arrow_tracks(arrow)]
    return choices[:50]


def _step_candidates(state: Mapping[str, Any], seat: int, kind: str = "step"
                     ) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = [{"type": kind}]       # legal only with nothing to take
    for reward in rewards_in_reach(state, seat):
        if reward == t.Reward.BASIC:
            moves += [{"type": kind, "reward": reward, "kind": k} for k in t.BASIC]
        elif reward == t.Reward.OFFERING:
            moves.append({"type": kind, "reward": reward, "source": "bag"})
            moves += [{"type": kind, "reward": reward, "source": slot}
                      for slot, token in enumerate(state["bonus"]) if token is not None]
        else:
            moves.append({"type": kind, "reward": reward})
    return moves


def _exchange_candidates(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    moves = []
    held = holdings(state, seat)
    for card in exchange_cards(state, seat):
        for give in [k for k in t.BASIC if held.get(k)][:2]:
            gets = [k for k in t.BASIC if k != give] if card == t.SEER else [t.SILVER]
            moves += [{"type": "exchange", "card": card, "give": give, "get": g}
                      for g in gets[:2]]
    return moves


def _values_candidates(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    gods_missing, steps = missing_values(state)
    move: dict[str, Any] = {"type": "enter_values"}
    if gods_missing:
        move["gods"] = [{"name": f"{g + 1}", "a": {"threshold": 2, "points": 4},
                         "b": {"threshold": 2, "points": 4}} for g in range(5)]
    if steps:
        move["tomb_points"] = [{"steps": s, "points": 5 * s} for s in steps]
    return [move]


def candidates(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Concrete moves the awaited ``seat`` could make, for the referee to keep the legal ones
    (a representative subset where the full list is huge: each area with its proposed
    payment, each target)."""
    phase = phase_of(state)
    head = pending_head(state)
    if phase == Phase.VALUES:
        return _values_candidates(state)
    if phase in CHANCE_STEPS:
        draw = chance(state)
        pool = [o for o, n in draw.outcomes for _ in range(n)]
        if draw.draws == 1:
            return [draw.as_move(o) for o, _ in draw.outcomes[:12]]
        return [draw.as_move(pool[i:i + draw.draws])
                for i in range(0, max(1, len(pool) - draw.draws + 1), draw.draws)][:6]
    if phase == Phase.TURN:
        player = state["players"][seat]
        moves: list[dict[str, Any]] = []
        if player_status(player) == Status.ACTIVE:
            display = state["jar_display"] if state["round"] < t.ROUNDS else []
            moves += ([{"type": "pass", "jar": i} for i in range(len(display))]
                      or [{"type": "pass"}])
            moves += list(_action_candidates(state, seat))
        else:
            moves += _step_candidates(state, seat)
        moves += _exchange_candidates(state, seat)
        return moves
    if phase == Phase.GENERAL:
        return [{"type": "skip_step"}] + _step_candidates(state, seat)
    if phase == Phase.START_PICK:
        return [{"type": "start_pick", "jar": j, "noble": n}
                for j in range(len(state["jar_display"])) for n in head["nobles"]]
    if phase == Phase.JAR_GAIN:
        player = state["players"][seat]
        moves = [{"type": "jar_gain"}]
        if t.TEACHER in player["nobles"]:
            moves += [{"type": "jar_gain", "teacher": k} for k in t.BASIC]
        if t.DIPLOMAT in player["nobles"]:
            moves += [{"type": "jar_gain", "diplomat": [k, k, other]}
                      for k in t.BASIC for other in t.BASIC[:2]]
        return moves
    if phase == Phase.NOBLE_EFFECT:
        return _noble_effect_candidates(state, head["card"])
    if phase == Phase.TRAITOR_COLOURS:
        silver = len(head["silver"])
        return [{"type": "traitor_colours", "colours": [c] * silver} for c in t.BASIC]
    if phase == Phase.TRAITOR_BOARD:
        return [{"type": "traitor_board", "token": i} for i in head["eligible"]]
    moves = []
    for reward in head["choices"]:
        if reward == t.Reward.BASIC:
            moves += [{"type": "traitor_reward", "reward": reward, "kind": k} for k in t.BASIC]
        else:
            moves.append({"type": "traitor_reward", "reward": reward})
    return moves


def _noble_effect_candidates(state: Mapping[str, Any], card: int) -> list[dict[str, Any]]:
    levels = t.COURT_NILE_LEVELS.get(card, 0)
    in_bag = sum(state["bag"].values()) + sum(state["offer_discard"].values())
    bonus = [slot for slot, token in enumerate(state["bonus"]) if token is not None]
    offerings = min(t.COURT_OFFERINGS.get(card, 0), in_bag + len(bonus))
    track_options = [[k] * levels for k in t.BASIC] + [list(t.BASIC[:levels])]
    source_options = [["bag"] * offerings]
    if offerings and bonus:
        source_options.append(bonus[:offerings] + ["bag"] * (offerings - len(bonus[:offerings])))
    if offerings > in_bag:
        source_options = [bonus[:offerings - in_bag] + ["bag"] * in_bag]
    artisans: list[Any] = [None]
    if card in (23, 24):
        artisans = [slot for slot, c in enumerate(state["artisan_display"]) if c is not None]
        artisans += ["top"] if state["artisan_deck"] else []
        artisans = artisans or [None]
    return [{"type": "noble_effect", "tracks": tracks, "sources": sources, "artisan": artisan}
            for tracks in track_options for sources in source_options for artisan in artisans]


def view(state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """Everything lies open in Pharaon (spec §2.2) except the two nobles a player draws for
    the starting pick; the derived wheel of this round is added for the phone."""
    shown = dict(state)
    head = pending_head(state)
    if head is not None and head["kind"] == Phase.START_PICK and head["seat"] != seat:
        shown["pending"] = [{**head, "nobles": [None] * len(head["nobles"])}] + list(
            state["pending"][1:])
    shown["table"] = {"facing": facing(state), "areas": area_view(state),
                      "usable_spots": len(usable_spots(state)),
                      "nile_mode": nile_mode(state)}
    return shown
