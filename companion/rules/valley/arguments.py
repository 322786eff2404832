"""Valley of the Kings: the argument declarations the move families share (design.md §2).

A card is named by its title id, or ``"?"`` for "a card" the table does not name; a pyramid
card by its slot (``B1 B2 B3 M1 M2 T``), with the card that drops into the gap where two could
(§4) and the printed values the move may have to type (§2.7: cost, a unique's VP, the set of a
card the catalogue cannot place). The referee parses each move against its family's
declaration (labels included), so a malformed move is refused in the player's words.

A requirement a declaration cannot express (an argument one action needs and another does
not, a number that must name a card played this turn) is raised as :class:`BadArgument` by the
move's check or change; the game's referee (:mod:`.referee`) refuses it as a malformed move,
naming the argument by its labels, exactly as a declared argument is refused.
"""

from __future__ import annotations

from ..base import N_, ChoiceField, Field, IntField, ObjectField, Term
from . import names
from . import printed as t
from . import pyramid as pyr
from .edition import MAX_PRINTED
from .state import STARTER, UNKNOWN
from ..referee import BadArgument  # noqa: F401  (the families raise it as a.BadArgument)


SLOT_LABELS = {"B1": N_("B1: base, left"), "B2": N_("B2: base, middle"),
               "B3": N_("B3: base, right"), "M1": N_("M1: middle row, left"),
               "M2": N_("M2: middle row, right"), "T": N_("T: top")}
SLOT_CHOICES = tuple((slot, SLOT_LABELS[slot]) for slot in pyr.SLOTS)


def card_label(title: str) -> Term | str:
    """A title in the reader's language, then as the group's copy prints it (names.term)."""
    return names.term(title)


def card_choices(starters: bool = True) -> tuple[tuple[str, str], ...]:
    """Every title (the starters too, unless ``starters`` is False), and "a card" (``"?"``)."""
    return ((UNKNOWN, t.UNKNOWN_CARD_LABEL),) + tuple(
        (title, card_label(title)) for title, x in t.TITLES.items()
        if starters or x.kind is not t.Kind.STARTER)


CARD_CHOICES = card_choices()
TITLE_CHOICES = CARD_CHOICES[1:]                     # a card the move must name
SET_CHOICES = tuple((s, names.term(s)) for s in t.SETS) + ((t.UNIQUE, N_("Unique artifact")),
                                              (STARTER, N_("Starter card")))


def card(key: str, label: str, *, optional: bool = True, named: bool = False) -> ChoiceField:
    """A card by its title, or "a card" (``"?"``) unless it must be ``named``."""
    return ChoiceField(key, label, TITLE_CHOICES if named else CARD_CHOICES, optional=optional)


def slot(key: str = "slot", label: str = N_("Pyramid slot"), *,
         optional: bool = False) -> ChoiceField:
    """A slot of the pyramid (§4)."""
    return ChoiceField(key, label, SLOT_CHOICES, optional=optional)


def played() -> IntField:
    """A card on the table this turn, by its number in the order played."""
    return IntField("played", N_("Card played earlier this turn"), optional=True,
                    help=N_("Its number in the order the cards were played this turn, from 0."))


def seat(key: str, label: str) -> IntField:
    """A player, by seat number (from 0); whether the seat exists is checked by the move."""
    return IntField(key, label, optional=True, help=N_("A seat number, from 0."))


def printed_fields() -> tuple[Field, ...]:
    """What a move may type about a card it seals (§2.7): its VP and its set."""
    return (IntField("vp", N_("Victory points printed on it"), max=MAX_PRINTED, optional=True),
            ChoiceField("set", N_("Its set (colour), or unique"), SET_CHOICES, optional=True))


def pick_fields(*, slot_optional: bool = False) -> tuple[Field, ...]:
    """A pyramid card: its slot, its title if the table entered it as "a card", the card
    that drops into the gap, and the printed values the move may have to type."""
    return (slot(optional=slot_optional),
            card("card", N_("Which card it is")),
            slot("drop", N_("The card that drops into the gap"), optional=True),
            IntField("cost", N_("Cost printed on it"), max=MAX_PRINTED, optional=True),
            *printed_fields())


def pick(key: str, label: str) -> ObjectField:
    """A pyramid card (see :func:`pick_fields`), left out when the move does not take one."""
    return ObjectField(key, label, pick_fields(), optional=True)

