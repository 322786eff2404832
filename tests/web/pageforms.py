"""The forms of a page as a browser without JavaScript sends them: hidden and typed inputs,
ticked checkboxes, the selected option of each select (the first when none is selected), and
the buttons. Not a test module; the page tests parse the live pages' own forms with it."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

from werkzeug.datastructures import MultiDict


class Form:
    """One <form>: its fields (name, value, kind), its checkboxes (name, value, checked,
    label), the options of each select (value, text) and its buttons (name, value, text)."""

    def __init__(self, attrs: list[tuple[str, str | None]]):
        self.attrs = dict(attrs)
        self.fields: list[Any] = []
        self.checkboxes: list[tuple[str, str, bool, str]] = []
        self.options: dict[str, list[tuple[str, str]]] = {}
        self.buttons: list[tuple[str | None, str | None, str]] = []

    @property
    def action(self) -> str:
        return self.attrs.get("action") or ""

    @property
    def move(self) -> dict[str, Any]:
        """The move of a live page's move form (its hidden ``move``), or {}."""
        text = dict((field[0], field[1]) for field in self.fields).get("move")
        return json.loads(text) if text else {}

    def values(self, ticked: list[str] | None = None, **changes: Any) -> MultiDict:
        """What a submit sends: the inputs (``changes`` replace values by name; a list gives
        several), and the boxes ticked on the page, or those whose value is in ``ticked``."""
        sent = MultiDict()
        for name, value, _kind in self.fields:
            if name not in changes:
                sent.add(name, value)
        for name, value in changes.items():
            for one in value if isinstance(value, list) else [value]:
                sent.add(name, one)
        for name, value, checked, _label in self.checkboxes:
            if checked if ticked is None else value in ticked:
                sent.add(name, value)
        return sent


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.option: list[Any] | None = None
        self.button: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self.form = Form(attrs)
            self.forms.append(self.form)
        if self.form is None:
            return
        if tag == "input":
            kind = found.get("type") or "text"
            if kind == "checkbox":
                self.form.checkboxes.append((found.get("name"), found.get("value") or "on",
                                             "checked" in found, found.get("aria-label") or ""))
            elif kind == "submit":
                self.form.buttons.append((found.get("name"), found.get("value"),
                                          found.get("value") or ""))
            elif found.get("name"):
                self.form.fields.append((found["name"], found.get("value") or "", kind))
        elif tag == "select":
            self.select = found.get("name")
            self.form.options[self.select] = []
            self.form.fields.append([self.select, None, "select"])
        elif tag == "option" and self.select:
            self.option = [found.get("value") or "", "", "selected" in found]
        elif tag == "textarea":
            self.form.fields.append((found.get("name"), "", "textarea"))
        elif tag == "button":
            self.button = [found.get("name"), found.get("value"), ""]

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option[1] += data
        if self.button is not None:
            self.button[2] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "option" and self.option is not None and self.form is not None:
            value, text, selected = self.option
            self.form.options[self.select].append((value, text.strip()))
            field = next(f for f in reversed(self.form.fields) if f[0] == self.select)
            if selected or field[1] is None:
                field[1] = value
            self.option = None
        elif tag == "select":
            self.select = None
        elif tag == "button" and self.button is not None and self.form is not None:
            self.form.buttons.append((self.button[0], self.button[1], self.button[2].strip()))
            self.button = None


def forms(html: str) -> list[Form]:
    """Every form of the page, in order."""
    parser = _Parser()
    parser.feed(html)
    for form in parser.forms:
        form.fields = [tuple(field) for field in form.fields]
    return parser.forms
