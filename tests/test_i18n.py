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
    def translated(message) -> bool:     # a plural entry needs every one of its forms
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        return bool(forms) and all(forms)

    have = {m.id for m in catalog if m.id and translated(m) and not m.fuzzy}
    assert wanted - have == set(), f"untranslated in {language}"
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted_names = set(PLACEHOLDER.findall(ids[-1]))
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) == wanted_names, message.id


@pytest.mark.parametrize("language", ["cs", "hu"])
def test_compiled_catalog_matches_the_po_file(language):
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    def key(value):
        return tuple(value) if isinstance(value, (list, tuple)) else value

    with open(folder / "messages.po", "rb") as handle:
        source = {key(m.id): key(m.string) for m in read_po(handle) if m.id and not m.fuzzy}
    with open(folder / "messages.mo", "rb") as handle:
        compiled = {key(m.id): key(m.string) for m in read_mo(io.BytesIO(handle.read()))
                    if m.id}
    assert compiled == source, "run scripts/i18n.sh to compile the catalogs"


def test_catalog_template_is_current(tmp_path):
    """Every marked string in the code and templates is in messages.pot (scripts/i18n.sh)."""
    from babel.messages.frontend import CommandLineInterface

    root = TRANSLATIONS.parents[1]
    fresh = tmp_path / "messages.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(root / "babel.cfg"),
                                "-k", "N_", "-k", "_", "-k", "gettext", "-k", "ngettext:1,2",
                                "-k", "N_plural:1,2",
                                "--no-location", "-o", str(fresh), str(root)])
    with open(fresh, "rb") as handle:
        extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}
    with open(TRANSLATIONS / "messages.pot", "rb") as handle:
        kept = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}
    assert extracted - kept == set(), "run scripts/i18n.sh and translate the new strings"
