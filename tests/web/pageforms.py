"""The forms of a page as a browser without JavaScript sends them: hidden and typed inputs,
ticked checkboxes, the selected option of each select, and the buttons."""
from __future__ import annotations

import json
from html.parser import HTMLParser

from werkzeug.datastructures import MultiDict


class Form:
    """One <form>: its fields (name, value, kind), checkboxes (name, value, checked, label),
    the options of each select, and its buttons (name, value, text)."""

    def __init__(self, attrs):
        self.attrs = dict(attrs)
        self.fields = []     # [name, value, kind, extra]
        self.buttons = []    # (name, value, text)
        self.options = {}    # select name -> [(value, text)]
        self.checkboxes = [] # (name, value, checked, aria)
        self.html = ""
    @property
    def action(self):
        return self.attrs.get("action", "")

    @property
    def move(self) -> dict:
        """The move of a live page's move form (its hidden ``move``), or {}."""
        text = dict((f[0], f[1]) for f in self.fields).get("move")
        return json.loads(text) if text else {}

    def values(self, ticked=None, **changes) -> MultiDict:
        """What a submit sends: the inputs (``changes`` replace values by name), the boxes
        ticked on the page, or those whose value is in ``ticked`` when given."""
        out = MultiDict()
        for name, value, _kind in self.fields:
            if name not in changes:
                out.add(name, value)
        for name, value in changes.items():
            for one in value if isinstance(value, list) else [value]:
                out.add(name, one)
        for name, value, checked, _label in self.checkboxes:
            if (checked if ticked is None else value in ticked):
                out.add(name, value)
        return out

class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self.form = None
        self.select = None
        self.option = None
        self.button = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.form = Form(attrs); self.forms.append(self.form)
        if self.form is None:
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind == "checkbox":
                self.form.checkboxes.append((a.get("name"), a.get("value", "on"), "checked" in a, a.get("aria-label", "")))
            elif kind == "submit":
                self.form.buttons.append((a.get("name"), a.get("value"), a.get("value", "")))
            elif a.get("name"):
                self.form.fields.append((a["name"], a.get("value", ""), kind))
        elif tag == "select":
            self.select = a.get("name"); self.form.options[self.select] = []
            self.form.fields.append([self.select, None, "select"])
        elif tag == "option" and self.select:
            self.option = [a.get("value", ""), "", "selected" in a]
        elif tag == "textarea":
            self.form.fields.append((a.get("name"), "", "textarea"))
        elif tag == "button":
            self.button = [a.get("name"), a.get("value"), ""]
    def handle_data(self, data):
        if self.option is not None:
            self.option[1] += data
        if self.button is not None:
            self.button[2] += data
    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "option" and self.option is not None:
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
        form.fields = [tuple(f) for f in form.fields]
    return parser.forms
