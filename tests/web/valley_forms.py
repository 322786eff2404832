"""The forms of a rendered page as a phone would fill them: inputs, selects with their
options (value and label), radios, checkboxes and submit buttons. Not a test module; used by
tests/web/test_valley_pages.py."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any


@dataclass
class Select:
    name: str
    options: list[tuple[str, str, bool, bool]] = field(default_factory=list)  # value, label,
    required: bool = False                                                 # selected, disabled

    def default(self) -> str:
        enabled = [o for o in self.options if not o[3]]
        chosen = [o for o in self.options if o[2]]
        return (chosen or enabled or [("", "", False, False)])[0][0]

    def value_of(self, label: str) -> str:
        """The value of the option whose label starts with ``label``."""
        for value, text, _selected, disabled in self.options:
            if text.startswith(label) and not disabled:
                return value
        raise AssertionError(f"no option {label!r} in {self.name}: "
                             f"{[o[1] for o in self.options]}")

    @property
    def labels(self) -> list[str]:
        return [o[1] for o in self.options]


@dataclass
class Form:
    action: str
    classes: str
    hidden: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)          # name -> type
    radios: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    selects: dict[str, Select] = field(default_factory=dict)
    buttons: list[tuple[str | None, str, str]] = field(default_factory=list)   # name, value, text
    checked: list[tuple[str, str]] = field(default_factory=list)   # boxes ticked by default

    @property
    def move(self) -> dict[str, Any]:
        return json.loads(self.hidden.get("move", "{}"))

    def button(self, text: str) -> tuple[str | None, str, str]:
        for button in self.buttons:
            if button[2].startswith(text):
                return button
        raise AssertionError(f"no button {text!r}: {[b[2] for b in self.buttons]}")

    def data(self, choose: dict[str, str] | None = None, button: str | None = None,
             **typed: str) -> dict[str, Any]:
        """What the browser sends: hidden fields, each select at its default unless
        ``choose`` names an option label for it (the second select of a name is
        ``name#1``), typed inputs (``typed`` with ``__`` for
        dots), the radio or checkbox values given in ``choose`` by label, and the button."""
        choose = dict(choose or {})
        data: dict[str, Any] = dict(self.hidden)
        for key, select in self.selects.items():
            value = select.value_of(choose.pop(key)) if key in choose else select.default()
            name = select.name
            if name.endswith("[]"):
                data.setdefault(name, []).append(value)
            else:
                data[name] = value
        for name in self.inputs:
            data[name] = ""
        for key, value in typed.items():
            name = key.replace("__", ".")
            assert name in self.inputs, f"no input {name}: {list(self.inputs)}"
            data[name] = str(value)
        for name, value in self.checked:
            if name not in choose:
                data[name] = [data[name], value] if name in data else value
        for name, label in choose.items():
            options = self.radios.get(name)
            assert options, f"no select or radio {name}"
            data[name] = next(v for v, text in options if text.startswith(label))
        if button is not None:
            name, value, _text = self.button(button)
            if name:
                data[name] = value
        return data


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: Select | None = None
        self.option: list[Any] | None = None
        self.label: list[str] | None = None        # text of the label around a radio
        self.radio: tuple[str, str] | None = None
        self.button: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            self.form = Form(a.get("action", ""), a.get("class", ""))
            self.forms.append(self.form)
        if self.form is None:
            return
        if tag == "input":
            kind, name = a.get("type", "text"), a.get("name")
            if not name:
                return
            if kind == "hidden":
                self.form.hidden[name] = a.get("value", "")
            elif kind in ("radio", "checkbox"):
                self.radio = (name, a.get("value", ""))
                if "checked" in a:
                    self.form.checked.append((name, a.get("value", "")))
                self.label = []
            else:
                self.form.inputs[name] = kind
        elif tag == "select":
            self.select = Select(a["name"], required="required" in a)
            key, n = a["name"], 1
            while key in self.form.selects:      # repeated names: "m.cards[]#1", "#2", …
                key, n = f"{a['name']}#{n}", n + 1
            self.form.selects[key] = self.select
        elif tag == "option" and self.select is not None:
            self.option = [a.get("value", ""), "", "selected" in a, "disabled" in a]
        elif tag == "button":
            self.button = [a.get("name"), a.get("value", ""), ""]

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option[1] += data
        if self.button is not None:
            self.button[2] += data
        if self.label is not None:
            self.label.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self.option is not None and self.select is not None:
            self.select.options.append((self.option[0], " ".join(self.option[1].split()),
                                        self.option[2], self.option[3]))
            self.option = None
        elif tag == "select":
            self.select = None
        elif tag == "button" and self.button is not None and self.form is not None:
            self.form.buttons.append((self.button[0], self.button[1],
                                      " ".join(self.button[2].split())))
            self.button = None
        elif tag == "label" and self.radio is not None and self.form is not None:
            name, value = self.radio
            self.form.radios.setdefault(name, []).append(
                (value, " ".join("".join(self.label or []).split())))
            self.radio, self.label = None, None
        elif tag == "form":
            self.form = None


def forms(html: str) -> list[Form]:
    parser = _Parser()
    parser.feed(html)
    return parser.forms


def move_form(html: str, move_type: str, card: str | None = None,
              classes: str | None = None) -> Form:
    """The page's first move form of ``move_type`` (an action's ``card``; a form class)."""
    for form in forms(html):
        if not form.action.endswith("/moves"):
            continue
        move = form.move
        if move.get("type") != move_type or (card is not None and move.get("card") != card):
            continue
        if classes is not None and classes not in form.classes.split():
            continue
        return form
    raise AssertionError(f"no {move_type} form ({card or classes or ''}) on the page")
