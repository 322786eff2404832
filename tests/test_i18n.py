"""Every user-facing string is translated into Czech and Hungarian, and compiled."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

TRANSLATIONS = Path(__file__).resolve().parents[1] / "companion" / "translations"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


@pytest.mark.parametrize("language", ["cs", "hu"])
def test_catalog_complete_and_placeholders_kept(language):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalog = read_po(handle)
    with open(TRANSLATIONS / "messages.pot", "rb") as handle:
        template = read_po(handle)
    wanted = {m.id for m in template if m.id}
    have = {m.id for m in catalog if m.id and m.string and not m.fuzzy}
    assert wanted - have == set(), f"untranslated in {language}"
    for message in catalog:
        if message.id and isinstance(message.id, str):
            assert set(PLACEHOLDER.findall(message.id)) == set(
                PLACEHOLDER.findall(message.string)), message.id


@pytest.mark.parametrize("language", ["cs", "hu"])
def test_compiled_catalog_matches_the_po_file(language):
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as handle:
        source = {m.id: m.string for m in read_po(handle) if m.id and not m.fuzzy}
    with open(folder / "messages.mo", "rb") as handle:
        compiled = {m.id: m.string for m in read_mo(io.BytesIO(handle.read())) if m.id}
    assert compiled == source, "run scripts/i18n.sh to compile the catalogs"
