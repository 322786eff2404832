"""A phone that plays Pharaon only through the page's own forms (no JSON moves), for the page
tests and the browser test's shorter sibling: the forms are parsed from the HTML as a browser
would submit them (hidden fields, the selected option, the checked radio and boxes), some
inputs set as a person would set them, and the form posted to its own action.

Not a test module (pytest collects test_*.py only).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

from werkzeug.datastructures import MultiDict

from companion.rules.pharaon import PHARAON

CHANCE = ("draw_jars", "draw_nobles", "draw_artisans", "draw_offerings", "draw_traitor_tiles",
          "draw_traitor_colours")


@dataclass
class Control:
    tag: str
    type: str
    name: str
    value: str = ""
    checked: bool = False
    options: list[tuple[str, str, bool]] = field(default_factory=list)   # value, text, selected


@dataclass
class Form:
    action: str
    method: str
    id: str
    cls: str
    controls: list[Control] = field(default_factory=list)
    text: str = ""

    def names(self) -> set[str]:
        return {c.name for c in self.controls}

    def control(self, name: str) -> Control:
        return next(c for c in self.controls if c.name == name)

    def choices(self, name: str) -> list[str]:
        """The values a person could pick for ``name`` (select options, or radio values)."""
        found = [c for c in self.controls if c.name == name]
        if found and found[0].tag == "select":
            return [value for value, _text, _selected in found[0].options]
        return [c.value for c in found]

    def data(self, **chosen: Any) -> MultiDict:
        """What the browser sends, with ``chosen`` inputs set (a name → value)."""
        out: list[tuple[str, str]] = []
        radios_done: set[str] = set()
        for c in self.controls:
            if c.name in chosen:
                if c.type == "radio" or c.type == "checkbox":
                    if c.name not in radios_done and chosen[c.name] is not None:
                        out.append((c.name, chosen[c.name]))
                        radios_done.add(c.name)
                elif c.name not in radios_done:
                    out.append((c.name, chosen[c.name]))
                    radios_done.add(c.name)
                continue
            if c.tag == "select":
                selected = [v for v, _t, s in c.options if s] or [c.options[0][0]] if c.options \
                    else []
                out += [(c.name, v) for v in selected[:1]]
            elif c.type in ("radio", "checkbox"):
                if c.checked:
                    out.append((c.name, c.value))
            elif c.type not in ("submit", "button"):
                out.append((c.name, c.value))
        names = self.names()
        out += [(name, value) for name, value in chosen.items()
                if name not in names and value is not None]       # a button's name and value
        return MultiDict(out)


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Control | None = None
        self._option: list[Any] | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = Form(a.get("action", ""), a.get("method", "get").lower(),
                              a.get("id", ""), a.get("class", ""))
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and "name" in a:
            self._form.controls.append(Control("input", a.get("type", "text"), a["name"],
                                               a.get("value", ""), "checked" in a))
        elif tag == "select":
            self._select = Control("select", "select", a.get("name", ""))
            self._form.controls.append(self._select)
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), "", "selected" in a]

    def handle_data(self, data):
        if self._option is not None:
            self._option[1] += data
        if self._form is not None:
            self._form.text += data

    def handle_endtag(self, tag):
        if tag == "option" and self._option is not None and self._select is not None:
            value, text, selected = self._option
            self._select.options.append((text.strip() if value is None else value,
                                         " ".join(text.split()), selected))
            self._option = None
        elif tag == "select":
            self._select = None
        elif tag == "form":
            self._form = None


def forms_of(html: str) -> list[Form]:
    parser = _Parser()
    parser.feed(html)
    return parser.forms


def j(value: Any) -> str:
    """A value as the page's options carry it (JSON)."""
    return json.dumps(value)


class PagePlayer:
    """Plays a whole Pharaon table from its phones' pages, choosing like a person: the
    engine's proposal as filled in, a target at random, sometimes the app's draw."""

    def __init__(self, client, table_id: str, phones: list, rng: random.Random, *,
                 app_draws: float = 0.5, pass_rate: float = 0.2):
        self.client = client
        self.table_id = table_id
        self.phones = phones
        self.rng = rng
        self.app_draws = app_draws
        self.pass_rate = pass_rate
        self.used: dict[str, int] = {}           # form ids (and kinds) submitted
        self.refusals: list[tuple[str, str]] = []
        self.steps = 0

    # ---- reading ---------------------------------------------------------------------------

    def table(self) -> dict:
        return self.client.get(f"/api/v1/tables/{self.table_id}").get_json()

    def page(self, phone, query: str = "") -> str:
        response = phone.get(f"/tables/{self.table_id}{query}")
        assert response.status_code == 200
        return response.get_data(as_text=True)

    # ---- acting ----------------------------------------------------------------------------

    def submit(self, phone, form: Form, label: str, **chosen: Any) -> bool:
        """Post ``form`` as the browser would; True when accepted (303)."""
        response = phone.post(form.action, data=form.data(**chosen))
        self.used[label] = self.used.get(label, 0) + 1
        if response.status_code == 303:
            return True
        html = response.get_data(as_text=True)
        assert response.status_code in (409, 422), (response.status_code, html[:500])
        if response.status_code == 422:
            assert 'class="form-errors beside"' in html, label   # shown beside its form
        message = html.split('id="move-error">')[1].split("<")[0] if 'id="move-error"' \
            in html else "?"
        self.refusals.append((label, message))
        return False

    def play(self, limit: int = 4000) -> dict:
        """Until the Scoresheet: every awaited input made on the awaited seat's phone."""
        for self.steps in range(limit):
            view = self.table()
            if view["status"] == "finished":
                return view
            seat = view["to_act"]
            state = view["state"]
            phase = PHARAON.ui.phase_of(state)
            phone = self.phones[seat]
            html = self.page(phone)
            forms = forms_of(html)
            if not self.act(phone, seat, state, phase, forms):
                self.fallback(phone, seat, phase, forms)
        raise AssertionError("the game did not end")

    def by_id(self, forms: list[Form], prefix: str) -> list[Form]:
        return [f for f in forms if f.id.startswith("form-" + prefix)]

    def act(self, phone, seat: int, state: dict, phase: str, forms: list[Form]) -> bool:
        rng = self.rng
        if phase in CHANCE:
            if rng.random() < self.app_draws:
                draw = next(f for f in forms if "draw-form" in f.cls)
                return self.submit(phone, draw, "app_draw:" + phase)
            return self.enter_draw(phone, state, phase, self.by_id(forms, "draw")[0])
        if phase == "start_pick":
            form = self.by_id(forms, "start")[0]
            return self.submit(phone, form, "start_pick",
                               **{"m.jar": rng.choice(form.choices("m.jar")),
                                  "m.noble": rng.choice(form.choices("m.noble"))})
        if phase == "turn":
            return self.turn(phone, seat, state, forms)
        if phase == "general":
            options = self.by_id(forms, "step-") + self.by_id(forms, "skip")
            return self.reward(phone, rng.choice(options))
        if phase == "jar_gain":
            form = rng.choice(self.by_id(forms, "jar-gain-"))
            chosen = {name: rng.choice(form.choices(name)) for name in form.names()
                      if name == "m.teacher" or name.startswith("m.diplomat.")}
            return self.submit(phone, form, form.id[5:], **chosen)
        if phase == "noble_effect":
            form = self.by_id(forms, "noble-effect")[0]
            chosen = {name: rng.choice(form.choices(name)) for name in form.names()
                      if name.startswith(("m.tracks.", "m.artisan"))}    # sources as preset
            return self.submit(phone, form, "noble_effect", **chosen)
        if phase == "traitor_colours":
            form = self.by_id(forms, "traitor-colours")[0]
            chosen = {name: rng.choice(form.choices(name)) for name in form.names()
                      if name.startswith("m.colours.")}
            return self.submit(phone, form, "traitor_colours", **chosen)
        if phase == "traitor_board":
            return self.submit(phone, rng.choice(self.by_id(forms, "traitor-board-")),
                               "traitor_board")
        if phase == "traitor_reward":
            return self.reward(phone, rng.choice(self.by_id(forms, "traitor-reward-")))
        if phase == "values":
            return self.values(phone, self.by_id(forms, "values")[0])
        raise AssertionError(f"no form for {phase}")

    def reward(self, phone, form: Form) -> bool:
        chosen = {name: self.rng.choice(form.choices(name)) for name in form.names()
                  if name in ("m.kind", "m.source")}
        return self.submit(phone, form, form.id[5:].rstrip("0123456789-") or form.id, **chosen)

    def enter_draw(self, phone, state: dict, phase: str, form: Form) -> bool:
        """Type in what a physical draw gave (drawn here as the bag would)."""
        chance = PHARAON.chance(state)
        move = chance.draw(self.rng)
        outcomes = move[chance.key] if chance.draws > 1 else [move[chance.key]]
        chosen: dict[str, str] = {}
        for i, outcome in enumerate(outcomes):
            if phase == "draw_jars" and f"m.jars.{i}.0" in form.names():
                chosen.update({f"m.jars.{i}.{k}": j(kind) for k, kind in enumerate(outcome)})
            elif phase == "draw_artisans" and f"m.cards.{i}.points" in form.names():
                chosen[f"m.cards.{i}.points"] = str(outcome["points"])
                chosen.update({f"m.cards.{i}.gains.{kind}": str(n)
                               for kind, n in outcome["gains"].items()})
                chosen[f"m.cards.{i}.jar"] = "true" if outcome["jar"] else None
            else:
                name = {"draw_jars": "m.jars", "draw_nobles": "m.cards",
                        "draw_artisans": "m.cards", "draw_offerings": "m.tokens",
                        "draw_traitor_tiles": "m.order",
                        "draw_traitor_colours": "m.colours"}[phase]
                chosen[f"{name}.{i}"] = j(outcome)
        return self.submit(phone, form, "enter:" + phase, **chosen)

    def turn(self, phone, seat: int, state: dict, forms: list[Form]) -> bool:
        rng = self.rng
        passing = self.by_id(forms, "pass")
        steps = self.by_id(forms, "step-")
        if steps:                                   # passed: a pyramid step
            return self.reward(phone, rng.choice(steps))
        exchange = self.by_id(forms, "exchange")
        held = [k for k in PHARAON.ui.printed.BASIC if state["players"][seat]["res"][k]]
        if exchange and held and rng.random() < 0.5:
            form = exchange[0]
            card = rng.choice(form.choices("m.card"))
            give = rng.choice(held)
            gets = [k for k in PHARAON.ui.printed.BASIC if k != give] if card == "17" else ["SIL"]
            return self.submit(phone, form, "exchange", **{
                "m.card": card, "m.give": j(give), "m.get": j(rng.choice(gets))})
        actions = [f for f in self.by_id(forms, "act-")
                   if "cannot pay for this now" not in f.text]
        builders = [f for f in forms if "builder" in f.cls]
        if passing and (rng.random() < self.pass_rate or not (actions or builders)):
            form = passing[0]
            chosen = {}
            if "m.jar" in form.names():
                chosen["m.jar"] = rng.choice(form.choices("m.jar"))
            return self.submit(phone, form, "pass", **chosen)
        if builders and (not actions or rng.random() < 0.3):
            return self.built_action(phone, seat, state, rng.choice(builders))
        form = rng.choice(actions)
        chosen = {}
        for name in ("m.pair", "m.card", "m.bonus"):
            if name in form.names():
                chosen[name] = rng.choice(form.choices(name))
        for name in form.names():
            if name.startswith("m.nile.tracks."):
                chosen[name] = rng.choice(form.choices(name))
        return self.submit(phone, form, form.id[5:], **chosen)

    def built_action(self, phone, seat: int, state: dict, builder: Form) -> bool:
        """A Nile action or tomb space of a copy whose printed values are not entered: the
        cost goes through the page's builder (a GET that proposes the payment), then the
        action form it shows is posted."""
        area = builder.control("area").value
        key = "nile_cost" if area == "NIL" else "tomb_cost"
        entry = next(row["colour"] for row in state["table"]["areas"] if row["area"] == area)
        other = self.rng.choice([k for k in PHARAON.ui.printed.BASIC if k != entry])
        cost = [entry, other]
        query = "?" + urlencode([("area", area)] + [(key, j(k)) for k in cost])
        forms = forms_of(self.page(phone, query))
        form = next(f for f in forms if f.id == f"form-act-{area}")
        if "cannot pay for this now" in form.text:
            return False
        chosen: dict[str, str] = {}
        if area == "NIL":
            chosen[f"m.nile.gains.{other}"] = "1"
            chosen["m.nile.tracks.0"] = j(entry)
            chosen["m.nile.tracks.1"] = j(other)
            if other == "BLK":
                chosen["m.nile.jar"] = "true"
        elif "m.tomb.points" in form.names():
            chosen["m.tomb.points"] = str(5 + 3 * state["players"][seat]["tomb"])
        return self.submit(phone, form, f"built:{area}", **chosen)

    def values(self, phone, form: Form) -> bool:
        chosen = {}
        for name in form.names():
            if name.endswith(".threshold"):
                chosen[name] = str(self.rng.randint(1, 3))
            elif name.endswith(".points") and name.startswith("m.gods."):
                chosen[name] = str(self.rng.randint(2, 6))
            elif name.startswith("m.tomb_points.") and name.endswith(".points"):
                chosen[name] = str(self.rng.randint(5, 40))
        return self.submit(phone, form, "values", **chosen)

    def fallback(self, phone, seat: int, phase: str, forms: list[Form]) -> None:
        """After a refusal: the plainest move there is (pass, or the first form)."""
        forms = forms_of(self.page(phone))
        for prefix in ("pass", "step-", "skip", "draw"):
            found = self.by_id(forms, prefix)
            if found:
                form = found[0]
                if prefix == "draw":
                    form = next(f for f in forms if "draw-form" in f.cls)
                assert self.submit(phone, form, "fallback:" + prefix), self.refusals[-1]
                return
        raise AssertionError(f"stuck in {phase}: {self.refusals[-3:]}")
