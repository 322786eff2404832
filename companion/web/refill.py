"""A refused form comes back as it was sent, with the refusal beside the field it names.

A live page's move forms are drawn by each game's own template; when a move is refused the
page is drawn again from the table (:func:`.table_page.render_table`), which knows nothing of
what the phone had typed. :func:`entered_again` finds, in that page, the form that was sent
(its address, its ``move`` and the names of its fields), puts back every value, choice and
tick as the person left them (each marked ``data-entered``, which live.js treats as touched),
opens the sections around it, and puts the refusal beside the field it names as well as at
the top (``aria-invalid`` on the field, which is found from the refusal's dotted path,
``move.pay.0.card`` → ``m.pay.0.card``, or the ``[]`` list it belongs to). A refusal that
names no field of the form stays at the top only. Works without JavaScript: it is the page
itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from html import escape
from html.parser import HTMLParser
from typing import Iterable, Mapping

# fields of every move form that carry the page's state, never the person's input
_STATE = frozenset({"csrf_token", "version", "idempotency_key", "move"})
_BUTTONS = frozenset({"submit", "button", "reset", "image", "hidden"})
ANCHOR = "refusal"


@dataclass
class _Tag:
    name: str
    attrs: dict[str, str | None]
    start: int                  # offset of "<"
    end: int                    # offset after ">"
    close: int | None = None    # offset of its end tag, for select and textarea
    options: list["_Tag"] = dc_field(default_factory=list)
    within: list["_Tag"] = dc_field(default_factory=list)    # the sections around it


@dataclass
class _Form:
    tag: _Tag
    fields: list[_Tag] = dc_field(default_factory=list)
    details: list[_Tag] = dc_field(default_factory=list)   # the sections around it


class _Scanner(HTMLParser):
    """Where the forms and their fields sit in the page."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.html = html
        self.lines = [0]
        for index, char in enumerate(html):
            if char == "\n":
                self.lines.append(index + 1)
        self.forms: list[_Form] = []
        self._form: _Form | None = None
        self._details: list[_Tag] = []
        self._open: list[_Tag] = []          # select, textarea
        self.feed(html)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        text = self.get_starttag_text() or ""
        element = _Tag(tag, dict(attrs), start, start + len(text))
        if tag == "details":
            self._details.append(element)
        elif tag == "form":
            self._form = _Form(element, details=list(self._details))
            self.forms.append(self._form)
        elif tag in ("input", "select", "textarea", "button") and self._form is not None:
            element.within = list(self._details)
            self._form.fields.append(element)
            if tag in ("select", "textarea"):
                self._open.append(element)
        elif tag == "option" and self._open and self._open[-1].name == "select":
            self._open[-1].options.append(element)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "details" and self._details:
            self._details.pop()
        elif self._open and self._open[-1].name == tag:
            self._open.pop().close = self._offset()


def _chosen(forms: Iterable[_Form], action: str, sent: Mapping[str, list[str]]) -> _Form | None:
    """The form that was sent: same address and ``move`` (and ``form``, where a page names its
    forms), the most of the sent field names among its own."""
    best, best_score = None, -1
    names = {name for name in sent if name not in _STATE}
    for form in forms:
        if (form.tag.attrs.get("action") or "") != action:
            continue
        own = {f.attrs.get("name"): f.attrs.get("value") for f in form.fields
               if f.attrs.get("type") == "hidden"}
        if any(own.get(key) != (sent.get(key) or [None])[0]
               for key in ("move", "form") if key in own or key in sent):
            continue
        mine = {f.attrs.get("name") for f in form.fields}
        score = len(names & mine) - len(names - mine)
        if score > best_score:
            best, best_score = form, score
    return best


def _target(form: _Form, path: str | None) -> _Tag | None:
    """The field a refusal's dotted path names (``move.a.0.b``): ``m.a.0.b``, or entry 0 of
    ``m.a.0.b[]`` / ``m.a[]``, or the first field under it (``m.a.0.b.c``), else the same for
    a shorter path."""
    if not path:
        return None
    parts = path.split(".")
    if parts[0] == "move":
        parts = parts[1:]
    fields = [f for f in form.fields if f.name != "button"
              and (f.attrs.get("type") or "text") not in _BUTTONS]
    for length in range(len(parts), 0, -1):
        here = ".".join(parts[:length])
        for f in fields:
            if f.attrs.get("name") in (f"m.{here}", f"m.{here}[]"):
                return f
        if length >= 2 and parts[length - 1].isdigit():
            listed = [f for f in fields
                      if f.attrs.get("name") == f"m.{'.'.join(parts[:length - 1])}[]"]
            index = int(parts[length - 1])
            if index < len(listed):
                return listed[index]
        under = [f for f in fields if (f.attrs.get("name") or "").startswith(f"m.{here}.")]
        if under:                  # a group (an object, a list): its first field
            return under[0]
    return None


def _one_of_a_group(form: _Form, target: _Tag) -> bool:
    """A tick among several of the same name (cells of a card, items of a list): the refusal
    is about the group, and a note beside its first tick would sit inside its grid."""
    name = target.attrs.get("name")
    return (target.attrs.get("type") or "").lower() in ("checkbox", "radio") and sum(
        f.attrs.get("name") == name for f in form.fields) > 1


def _attrs(tag: _Tag, changes: Mapping[str, str | None]) -> str:
    """The start tag again with ``changes`` (None: the attribute goes)."""
    attrs = dict(tag.attrs)
    for key, value in changes.items():
        if value is None:
            attrs.pop(key, None)
        else:
            attrs[key] = value
    written = "".join(f" {key}" if value is None or (value == "" and key != "value")
                      else f' {key}="{escape(value)}"' for key, value in attrs.items())
    return f"<{tag.name}{written}>"


def _tick_value(tag: _Tag) -> str:
    """What a tick sends when ticked: its value (an empty one too: "does not apply"), "on"
    when it has none."""
    value = tag.attrs.get("value")
    return "on" if value is None else value


def entered_again(html: str, action: str, sent: Mapping[str, list[str]],
                  path: str | None = None, message: str | None = None) -> str:
    """``html`` with the form sent to ``action`` holding ``sent`` (every name → its values)
    again, and ``message`` beside the field at ``path``, if the form has it."""
    page = _Scanner(html)
    form = _chosen(page.forms, action, sent)
    if form is None:
        return html
    edits: list[tuple[int, int, str]] = []          # (start, end, replacement)
    seen: dict[str, int] = {}
    opened = list(form.details)                     # the sections to open
    target = _target(form, path) if message else None
    for f in form.fields:
        name = f.attrs.get("name")
        kind = (f.attrs.get("type") or "text").lower()
        if not name or name in _STATE or f.name == "button" or kind in _BUTTONS:
            continue
        values = list(sent.get(name, []))
        index = seen[name] = seen.get(name, -1) + 1
        if f is target or (index < len(values) and values[index] != ""
                           and kind not in ("checkbox", "radio")) or (
                kind in ("checkbox", "radio") and _tick_value(f) in values):
            opened.extend(f.within)
        marks: dict[str, str | None] = {"data-entered": ""}
        if f is target:
            marks.update({"aria-invalid": "true", "aria-describedby": ANCHOR})
        if f.name == "input" and kind in ("checkbox", "radio"):
            marks["checked"] = "" if _tick_value(f) in values else None
            edits.append((f.start, f.end, _attrs(f, marks)))
        elif f.name == "input":
            if index < len(values):
                marks["value"] = values[index]
            edits.append((f.start, f.end, _attrs(f, marks)))
        elif f.name == "select":
            edits.append((f.start, f.end, _attrs(f, marks)))
            chosen = values if "multiple" in f.attrs else values[index:index + 1]
            if chosen:
                for option in f.options:
                    value = option.attrs.get("value")
                    if value is None:
                        continue
                    edits.append((option.start, option.end, _attrs(
                        option, {"selected": "" if value in chosen else None})))
        elif f.name == "textarea" and f.close is not None:
            edits.append((f.start, f.end, _attrs(f, marks)))
            if index < len(values):
                edits.append((f.end, f.close, escape(values[index])))
    if message and target is not None:
        note = f'<span class="field-error" id="{ANCHOR}">{escape(message)}</span>'
        after = target.end
        if target.close is not None:
            after = page.html.index(">", target.close) + 1
        if _one_of_a_group(form, target):   # ticks laid out in a grid: above the form's fields
            after = form.tag.end
        edits.append((after, after, note))
    for details in {id(d): d for d in opened}.values():
        if "open" not in details.attrs:
            edits.append((details.start, details.end, _attrs(details, {"open": ""})))
    out, last = [], 0
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append(html[last:start])
        out.append(text)
        last = end
    out.append(html[last:])
    return "".join(out)
