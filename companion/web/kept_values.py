"""A live page answering a refused move keeps what the player entered (issue 20).

The page is rendered afresh from the table, so a form would come back with its starting values
and the refusal only above it. :func:`keep_posted` rewrites the one form that was posted (a
move form names itself with a hidden ``form`` input and carries ``id="form-<name>"``): every
box and choice shows the value sent, and the inputs of the argument the refusal names
(``move.gods.0.a`` → ``m.gods.0.a.*``) are marked ``aria-invalid`` with the message right after
the first of them (the page's own alert beside the form stays, for a refusal of no input). Nothing here knows a game; a page without such a form is left as it is.
"""

from __future__ import annotations

import re
from html import escape, unescape
from werkzeug.datastructures import MultiDict

_ATTR = re.compile(r"""([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")
_CONTROL = re.compile(r"<input\b[^>]*>|<select\b[^>]*>.*?</select>|<textarea\b[^>]*>.*?</textarea>",
                      re.S)
_OPTION = re.compile(r"<option\b[^>]*>", re.S)
_SELECTED = re.compile(r"\sselected(?:=\"[^\"]*\")?")
MESSAGE_ID = "refused-field"


def _attrs(tag: str) -> dict[str, str]:
    inside = re.match(r"<\w+\s*(.*?)/?>", tag, re.S)
    found: dict[str, str] = {}
    for name, value in _ATTR.findall(inside.group(1) if inside else ""):
        found[name.lower()] = unescape(value[1:-1] if value[:1] in "\"'" else value)
    return found


def _set_attr(tag: str, name: str, value: str | None) -> str:
    """``tag`` with attribute ``name`` set to ``value`` (None: removed)."""
    tag = re.sub(r"\s%s(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+))?(?=[\s/>])" % re.escape(name),
                 "", tag, count=1)
    if value is None:
        return tag
    end = len(tag) - (2 if tag.endswith("/>") else 1)
    return f'{tag[:end]} {name}="{escape(value)}"{tag[end:]}'


def _matches(name: str, prefix: str | None) -> bool:
    bare = name.removesuffix("[]")
    return prefix is not None and (bare == prefix or bare.startswith(prefix + "."))


def _keep(control: str, posted: MultiDict) -> str:
    """One control showing the value posted for it."""
    opening = re.match(r"<\w+\b[^>]*>", control).group(0)
    attrs = _attrs(opening)
    name = attrs.get("name")
    if not name or name not in posted:
        return control
    if control.startswith("<select"):
        chosen = posted.getlist(name)
        inner = control[len(opening):]

        def option(match: re.Match) -> str:
            tag = _SELECTED.sub("", match.group(0))
            value = _attrs(tag).get("value")
            return _set_attr(tag, "selected", "") if value in chosen else tag

        return opening + _OPTION.sub(option, inner)
    if control.startswith("<textarea"):
        return f"{opening}{escape(posted[name])}</textarea>"
    kind = attrs.get("type", "text").lower()
    if kind in ("hidden", "submit", "button", "image", "reset", "file"):
        return control
    if kind in ("checkbox", "radio"):
        ticked = attrs.get("value", "on") in posted.getlist(name)
        return _set_attr(control, "checked", "" if ticked else None)
    return _set_attr(control, "value", posted.getlist(name)[-1])


def _mark(control: str) -> str:
    opening = re.match(r"<\w+\b[^>]*>", control).group(0)
    marked = _set_attr(_set_attr(opening, "aria-invalid", "true"), "aria-describedby",
                       MESSAGE_ID)
    return marked + control[len(opening):]


def keep_posted(html: str, posted: MultiDict, field: str | None, message: str | None) -> str:
    """``html`` with the posted form (see the module) showing what was sent and the refused
    argument marked; unchanged when the page has no form of that name."""
    name = posted.get("form")
    if not name:
        return html
    start = re.search(r'<form\b[^>]*\bid="form-%s"[^>]*>' % re.escape(name), html)
    if not start:
        return html
    end = html.find("</form>", start.end())
    if end < 0:
        return html
    prefix = "m." + field[len("move."):] if field and field.startswith("move.") else None
    placed = False

    def control(match: re.Match) -> str:
        nonlocal placed
        kept = _keep(match.group(0), posted)
        attrs = _attrs(re.match(r"<\w+\b[^>]*>", kept).group(0))
        if attrs.get("type") == "hidden" or not _matches(attrs.get("name", ""), prefix):
            return kept
        kept = _mark(kept)
        if not placed and message:
            placed = True
            kept += f'<p class="field-error" id="{MESSAGE_ID}">{escape(message)}</p>'
        return kept

    body = _CONTROL.sub(control, html[start.end():end])
    return html[:start.end()] + body + html[end:]

