"""Valley of the Kings: how a card title or a set is named to a reader.

:func:`name` is THE naming function (pure): every screen and printout that names a Valley card
or set calls it — the live page, the move prompts, the refusals, the Scoresheet, the score
form (valley-rules) and the printouts (``pdfgen/valley.py``). :func:`term` is the same name as
a message parameter, rendered at render time in the reader's language (a refusal keeps it,
not an English or Czech word, nor a raw id).

The reader's name comes first; the name printed on the group's copy follows in parentheses
when it differs, so a player finds the card on the table::

    cs "Sfinga"     en "Sphinx (Sfinga)"     hu "Szfinx (Sfinga)"

Where each name comes from:

* the **printed** names are data with their source: ``printed.Title.name_cs`` and
  ``printed.CardSet.name_cs`` (the seed, "SEED l.N"). A name no source gives (Linen Bandages,
  the original box's titles, a stand-in) has no printed name: the reader's name stands alone.
* the **reader's** names are translations (source: :data:`READER_NAME_SOURCE`), not printed
  values: msgids in English (``printed.Title.name_en``, marked ``N_``; ``printed.SET_LABELS``)
  translated into Czech and Hungarian in the catalogues. The Czech catalogue says what the
  seed prints (a test holds them together), so a Czech reader of a Czech copy reads one name.
* the group's copy is the Czech seed edition (printed.py: the seed is the default edition).
  No edition value lets a group say its copy is in another language (edition.py), so every
  caller uses :data:`COPY_LANGUAGE`; ``copy="en"`` names the cards as an English copy prints
  them, for the day a group can say so.

``gettext`` is the reader's language: ``flask_babel.gettext`` on a page (templates use the
``term`` filter on :func:`term`), ``pdfgen``'s ``Translator`` on paper, identity for English.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Mapping

from ..base import N_, Term, render_param
from . import printed as t

COPY_LANGUAGE = "cs"              # the seed edition (printed.py); no edition value changes it
READER_NAME_SOURCE = "translation"    # a reader's name in cs/hu/en is a translation

UNIQUE_GROUP = N_("Unique artifacts")
STARTER_GROUP = N_("Starter cards")
NO_SET = N_("Set not known yet")

# What ``term`` accepts besides title and set ids: a tomb's other groups (spec §10, §11)
_GROUPS: Mapping[str, str] = MappingProxyType({
    t.UNIQUE: UNIQUE_GROUP, "uniques": UNIQUE_GROUP, "starter": STARTER_GROUP, "": NO_SET,
    **{str(colour): label for colour, label in t.COLOUR_LABELS.items()},
    "solo_goal": t.CATEGORY_LABELS["solo_goal"]})

assert not set(t.TITLES) & set(t.SETS) and not set(t.TITLES) & set(_GROUPS)


def printed_name(key: str, copy: str = COPY_LANGUAGE) -> str | None:
    """The name of a title or a set as the group's copy prints it (None where no source
    gives it, or for a stand-in)."""
    found = t.TITLES.get(key) or t.SETS.get(key)
    if found is None:
        return None
    return found.name_cs if copy == "cs" else found.name_en


def term(key: str | None, copy: str = COPY_LANGUAGE) -> Term | str:
    """``key`` (a title id, "?" for a card the table did not name, a set id, "unique",
    "starter", a colour group, None or "" for a set not known yet) as a message parameter:
    the reader's name, then the printed one. An id nobody knows stays as it is."""
    key = key or ""
    if key == t.UNKNOWN_CARD:
        return Term(t.UNKNOWN_CARD_LABEL)
    title = t.TITLES.get(key)
    if title is not None:
        if title.placeholder is None:
            return Term(title.name_en or title.name_cs or key, printed_name(key, copy))
        owner, number = title.placeholder
        if owner in t.SETS:
            return Term(t.PLACEHOLDER_LABEL, set=Term(t.SET_LABELS[owner]), number=number)
        return Term(t.UNIQUE_PLACEHOLDER_LABEL, number=number)
    if key in t.SETS:
        return Term(t.SET_LABELS[key], printed_name(key, copy))
    if key in _GROUPS:
        return Term(_GROUPS[key])
    return key


def name(key: str | None, gettext: Callable[[str], str] = lambda s: s,
         copy: str = COPY_LANGUAGE) -> str:
    """The name of a title or a set (see :func:`term` for what ``key`` may be) in the reader's
    language (``gettext``), then the name printed on the group's copy in parentheses when it
    differs: "Sfinga" (cs), "Sphinx (Sfinga)" (en), "Szfinx (Sfinga)" (hu)."""
    return str(render_param(term(key, copy), gettext))
