"""The print registry: every game that prints registers its own content, shared print code
names no game, a made-up game gets its pad, aids, own printouts and CLI choices without any
shared file knowing it, and every printout carries its QR code on every page."""

from __future__ import annotations

import ast
import re
import sys
import time
from pathlib import Path

import pytest

import pdfgen
from companion.__main__ import main
from companion.rules import Capability, all_rulesets
from companion.rules.base import register, unregister
from pdfgen.aids import play_aids
from pdfgen.errors import LayoutError, PrintError
from pdfgen.pads import player_counts, score_pad
from pdfgen.registry import MissingPrintModule, PadRow, game_print, printing_games
from tests.pdfgen.pdfcheck import (needs_decoder, needs_pdftoppm, page_sizes, qr_texts_per_page,
                                   text)
from tests.pdfgen.toygame import free_pad, rows_pad, toy_game, toy_rules

ROOT = Path(__file__).resolve().parents[2]
URL = "http://127.0.0.1:8000/score/somewhere"


# ---- the registry --------------------------------------------------------------------------


def test_the_registry_lists_exactly_the_games_that_print():
    printing = [r.id for r in all_rulesets(Capability.PRINT)]
    assert printing and [content.game for content in printing_games()] == printing
    with toy_game("toy_print"):
        register(toy_rules("toy_scores", frozenset({Capability.SCORE})))   # prints nothing
        try:
            listed = [content.game for content in printing_games()]
            assert listed == printing + ["toy_print"]
            with pytest.raises(PrintError) as caught:
                game_print("toy_scores")
            assert caught.value.code == "print.unknown_game"
        finally:
            unregister("toy_scores")
    assert [content.game for content in printing_games()] == printing


def test_every_printing_game_registers_its_own_module():
    for ruleset in all_rulesets(Capability.PRINT):
        content = game_print(ruleset.id)
        assert content.game == ruleset.id
        assert f"pdfgen.{ruleset.id}" in sys.modules             # discovered by its id


def test_a_game_that_prints_without_a_print_module_is_an_error():
    register(toy_rules("toy_without_module"))
    try:
        with pytest.raises(MissingPrintModule, match="pdfgen.toy_without_module"):
            printing_games()
    finally:
        unregister("toy_without_module")


def test_print_modules_are_discovered_by_game_id(tmp_path, monkeypatch):
    (tmp_path / "toy_found.py").write_text(
        "from pdfgen.registry import register\n"
        "from tests.pdfgen.toygame import toy_print\n"
        "CONTENT = register(toy_print('toy_found'))\n", encoding="utf-8")
    monkeypatch.setattr(pdfgen, "__path__", [*pdfgen.__path__, str(tmp_path)])
    register(toy_rules("toy_found"))
    try:
        assert game_print("toy_found").game == "toy_found"
        assert "Coins in the jar" in text(score_pad("toy_found", qr_url=URL))
    finally:
        unregister("toy_found")
        from pdfgen import registry
        registry.unregister("toy_found")
        sys.modules.pop("pdfgen.toy_found", None)


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a file that are code: comments, and a Python file's docstrings, left out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    skip: set[int] = set()
    if path.suffix == ".py":
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body \
                    and isinstance(node.body[0], ast.Expr) \
                    and isinstance(node.body[0].value, ast.Constant) \
                    and isinstance(node.body[0].value.value, str):
                skip.update(range(node.body[0].lineno, node.body[0].end_lineno + 1))
    return [(n, line.split("#")[0] if path.suffix == ".py" else line)
            for n, line in enumerate(lines, 1) if n not in skip]


SHARED = ["pdfgen/registry.py", "pdfgen/pads.py", "pdfgen/aids.py", "pdfgen/cards.py",
          "pdfgen/cardface.py", "pdfgen/document.py", "pdfgen/report.py",
          "companion/services/printing.py", "companion/web/printing.py",
          "companion/__main__.py", "templates/print/menu.html"]


@pytest.mark.parametrize("name", SHARED)
def test_shared_print_code_names_no_game(name):
    games = [r.id for r in all_rulesets()]
    pattern = re.compile("|".join(rf"(?<![a-z_]){re.escape(g)}(?![a-z_])" for g in games),
                         re.IGNORECASE)
    found = [(n, line) for n, line in _code_lines(ROOT / name) if pattern.search(line)]
    assert found == []


# ---- a made-up game ------------------------------------------------------------------------


def test_a_made_up_game_gets_its_own_pad():
    with toy_game("toy_print") as game:
        assert player_counts(game) == (2, 3)
        blank = text(score_pad(game, qr_url=URL))
        for label in ("Toy · score pad", "Toy round 1", "Coins in the jar", "one per coin",
                      "Beetles caught", "Toy total", "Toy footer"):
            assert label in blank, label
        assert blank.count("name") == 3                       # most players: 3 columns
        named = text(score_pad(game, ["Ana", "Řehoř"], qr_url=URL, lang="cs"))
        assert "Ana" in named and "Řehoř" in named
        with pytest.raises(PrintError) as caught:
            score_pad(game, ["Ana", "Bea", "Cyril", "Dora"], qr_url=URL)
        assert caught.value.code == "print.bad_player_count"
        assert "2 to 3 players" in str(caught.value)


def test_a_free_form_pad_draws_below_the_shared_header():
    with toy_game("toy_track", pad=free_pad()) as game:
        pdf = score_pad(game, ["Ana", "Bea"], qr_url=URL, sheets=2)
    words = text(pdf, 0)
    assert "Toy · track pad" in words and "Toy track" in words          # header, then body
    assert "Ana" in words and "Bea" in words and "Date" in words
    assert len(page_sizes(pdf)) == 2 and text(pdf, 1) == words


def test_a_made_up_game_gets_its_aids_and_own_printouts():
    with toy_game("toy_print") as game:
        aids = play_aids(game, qr_url=URL, copies=2)
        words = text(aids)
        assert "Toy · beetle checklist" in words and "Tick a beetle" in words
        assert "Beetle 10" in words
        assert words.count("Toy · rules") == 2 and words.count("Toy · the end") == 2
        extra = game_print(game).extra("dice_sheet").make(page="letter", lang="en",
                                                          qr_url=URL)
        assert len(page_sizes(extra)) == 2
        with pytest.raises(PrintError) as caught:
            game_print(game).extra("nope")
        assert caught.value.code == "print.unknown_printout"


def test_the_command_line_offers_a_made_up_game(tmp_path, capsys):
    with toy_game("toy_print") as game:
        pad = tmp_path / "pad.pdf"
        assert main(["print", "pad", "--game", game, "--players", "2", "-o", str(pad)]) == 0
        assert "Coins in the jar" in text(pad.read_bytes())
        assert "/print/toy_print" in "".join(text(pad.read_bytes()).split())   # no score form
        extra = tmp_path / "dice.pdf"
        assert main(["print", "extra", "dice_sheet", "--game", game, "-o", str(extra)]) == 0
        assert len(page_sizes(extra.read_bytes())) == 2
        aids = tmp_path / "aids.pdf"
        assert main(["print", "aids", "--game", game, "-o", str(aids)]) == 0
        assert "Toy · rules" in text(aids.read_bytes())
    with pytest.raises(SystemExit) as refused:                  # gone with the game
        main(["print", "pad", "--game", "toy_print", "-o", str(tmp_path / "x.pdf")])
    assert refused.value.code == 2
    assert "invalid choice: 'toy_print'" in capsys.readouterr().err


# ---- defects -------------------------------------------------------------------------------


def test_a_pad_with_rows_too_small_to_write_in_is_refused():
    rows = [PadRow("entry", f"Line {n}") for n in range(60)]
    with toy_game("toy_long", pad=rows_pad(rows)) as game:
        for page in ("a4", "letter"):
            with pytest.raises(LayoutError) as caught:
                score_pad(game, qr_url=URL, page=page)
            assert caught.value.code == "print.pad_too_long"
            assert caught.value.field == "page" and "%(" not in str(caught.value)


@pytest.mark.parametrize("players", [100_000_000, 10 ** 12, 0, -1, 6, True, "3"])
def test_a_pad_size_is_checked_before_anything_is_built(players):
    started = time.perf_counter()
    with pytest.raises(PrintError) as caught:
        score_pad("ra", None, players=players, qr_url=URL)
    assert caught.value.code == "print.bad_player_count" and caught.value.field == "players"
    assert time.perf_counter() - started < 0.5


# ---- a QR code on every page of every printout ---------------------------------------------


@needs_pdftoppm
@needs_decoder
@pytest.mark.parametrize("content", printing_games(), ids=lambda c: c.game)
def test_every_page_of_every_printout_carries_its_qr_code(content):
    game = content.game
    url = f"http://scribe.example:8000/score/{game}"
    printouts = {"pad": score_pad(game, qr_url=url), "aids": play_aids(game, qr_url=url,
                                                                        copies=1)}
    printouts.update({p.key: p.make(page="a4", lang="en", qr_url=url) for p in content.extras})
    for name, pdf in printouts.items():
        for number, codes in enumerate(qr_texts_per_page(pdf), 1):
            assert codes and set(codes) == {url}, (name, number, codes)


@needs_pdftoppm
@needs_decoder
def test_a_made_up_games_printouts_carry_their_qr_code_too():
    with toy_game("toy_print") as game:
        test_every_page_of_every_printout_carries_its_qr_code(game_print(game))
