"""Messages every game shares: translatable words, refusals and their parameters.

Part of the seam (design.md §2), re-exported by :mod:`.base`. Messages are English msgids
marked with :func:`N_` so that Babel extracts them; the web layer translates them
(``RuleViolation.render(gettext, ngettext)``). Parameters that are themselves words to translate
are :class:`Term`; words whose form follows a number (a plural) are :class:`Counted`, marked
with :func:`N_plural`; a list of entries is a :class:`Listing`; where a value sits is a
:class:`FieldLabel`. Pure: no Flask, no I/O.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

def N_(message: str) -> str:
    """Mark a message for translation without translating it (gettext_noop)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for translation (ngettext_noop); Babel extracts both forms."""
    return singular, plural


Gettext = Callable[..., str]


def english_ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    """ngettext without a catalog (Flask-Babel's signature: the form filled with ``num`` and
    ``params``)."""
    return (singular if num == 1 else plural) % {"num": num, **params}


SEAT_LABEL = N_("Seat %(n)d")
COUNTED = N_("%(counted)s")      # a message that is one Counted sentence (``counted=Counted(…)``)    # item label of a per-seat list: forms show the player's name


class Term(str):
    """A message parameter that is itself a translatable word (a tile or category name).

    ``printed``: the same word as printed on the group's copy of the game (a card's name in
    the copy's own language); the reader's word comes first and the printed one follows in
    parentheses when they differ ("Sphinx (Sfinga)"), so a player can find the card on the
    table. ``params``: the msgid's own parameters ("%(set)s #%(number)d"), each rendered with
    :func:`render_param` in turn. ``str(term)`` stays the bare msgid."""

    printed: str | None
    params: dict[str, Any]

    def __new__(cls, msgid: str, printed: str | None = None, **params: Any) -> "Term":
        term = super().__new__(cls, msgid)
        term.printed = printed
        term.params = params
        return term

    def render(self, gettext: Callable[[str], str]) -> str:
        """The word in the reader's language (``gettext``), then the printed word."""
        text = gettext(str(self))
        if self.params:
            text = text % {k: render_param(v, gettext) for k, v in self.params.items()}
        if self.printed and self.printed.casefold() != text.casefold():
            text = f"{text} ({self.printed})"
        return text


class Listing(tuple):
    """A message parameter listing what was entered: ``(label, amount)`` pairs shown as
    "label amount · label amount", each label translated if it is a Term (a player's name is
    not); pairs whose amount is 0 are left out."""

    def render(self, gettext: Callable[[str], str]) -> str:
        return " · ".join(f"{label.render(gettext) if isinstance(label, Term) else label} {amount}"
                          for label, amount in self if amount not in (0, "", None))


class Joined(tuple):
    """A message parameter listing words, each rendered as any parameter (a Term in the
    reader's language, a name as it is), joined with ", "."""

    def render(self, gettext: Callable[[str], str]) -> str:
        return ", ".join(str(render_param(word, gettext)) for word in self)


class Counted(tuple):
    """A message parameter whose words follow a number: ``Counted(N_plural(one, many), num,
    **params)``, rendered by ngettext in the reader's language (Czech has three forms) with
    ``%(num)d`` and its own parameters (themselves rendered as any parameter)."""

    def __new__(cls, forms: tuple[str, str], num: int, **params: Any) -> "Counted":
        return super().__new__(cls, (forms, num, params))

    def render(self, gettext: Gettext, ngettext: Gettext = english_ngettext) -> str:
        (singular, plural), num, params = self
        return ngettext(singular, plural, num, **{
            k: render_param(v, gettext, ngettext) for k, v in params.items()})


class FieldLabel(tuple):
    """Where a value sits, in the reader's words: the labels from the document's root down to
    the value, each a ``(msgid, params)`` pair (``("God %(n)d", {"n": 1})``) or a plain name
    that is not translated (an unknown key). Rendered "God 1 › Threshold A"."""

    def render(self, gettext: Callable[[str], str]) -> str:
        words = []
        for part in self:
            if isinstance(part, tuple):
                msgid, params = part
                if isinstance(msgid, Term):
                    words.append(msgid.render(gettext))
                else:
                    words.append(gettext(msgid) % params if params else gettext(msgid))
            else:
                words.append(str(part))
        return " › ".join(w for w in words if w)


def render_param(value: Any, gettext: Callable[[str], str],
                 ngettext: Gettext = english_ngettext) -> Any:
    """A message parameter as the reader sees it: a Term, a Counted, a Listing, a Joined, a
    FieldLabel or a nested RuleViolation rendered in the reader's words; anything else as it is."""
    if isinstance(value, (Counted, RuleViolation)):
        return value.render(gettext, ngettext)
    if isinstance(value, (Term, Listing, FieldLabel, Joined)):
        return value.render(gettext)
    return value


class RuleViolation(Exception):
    """A move or a document breaks a rule: stable ``code``, English msgid, parameters, field.

    ``field`` is the dotted path of the offending value in a final-state document
    (``players.2.epochs.0.pharaohs``) or a move (``move.gods.0.a``), or None. ``label`` says
    the same in the reader's words (a :class:`FieldLabel`), when a schema knows it.
    """

    def __init__(self, code: str, message: str, field: str | None = None, **params: Any):
        super().__init__(code)
        self.code = code
        self.message = message
        self.field = field
        self.params = params
        self.label: FieldLabel | None = None

    def render(self, gettext: Callable[[str], str] = lambda s: s,
               ngettext: Gettext = english_ngettext) -> str:
        """The message as a sentence, translated by ``gettext`` (identity by default) and, for
        its :class:`Counted` parameters, ``ngettext`` (English forms by default)."""
        params = {k: render_param(v, gettext, ngettext) for k, v in self.params.items()}
        return gettext(self.message) % params if params else gettext(self.message)

    def as_dict(self, gettext: Callable[[str], str] = lambda s: s,
                ngettext: Gettext = english_ngettext) -> dict[str, Any]:
        """The API's error body: ``{"error", "message", "field"}``."""
        return {"error": self.code, "message": self.render(gettext, ngettext),
                "field": self.field}

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, field={self.field!r}, params={self.params!r})"


class InvalidDocument(Exception):
    """A final-state document with one or more violations; nothing may be saved."""

    def __init__(self, violations: Sequence[RuleViolation]):
        assert violations, "InvalidDocument needs at least one violation"
        super().__init__(violations[0].code)
        self.violations = list(violations)

    @property
    def first(self) -> RuleViolation:
        return self.violations[0]
