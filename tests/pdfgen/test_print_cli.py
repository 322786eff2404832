"""python -m companion print …: the files it writes, exit 2 with a reason for bad input, and
pdfgen's place in the layers (no Flask, no web layer)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pdfgen.builders import finished_live_table, open_live_table, session_for
from tests.pdfgen.pdfcheck import SIZES, page_sizes, text

ROOT = Path(__file__).resolve().parents[2]


def run(args, tmp_path, database_url=None, extra_env=None):
    env = {"SCRIBE_INSTANCE": str(tmp_path), "SECRET_KEY": "cli-test",
           "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "PUBLIC_URL": "http://scribe.test:8000",     # the QR codes' default base
           **(extra_env or {})}
    if database_url:
        env["DATABASE_URL"] = database_url
    return subprocess.run([sys.executable, "-m", "companion", "print", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def test_print_pad_writes_a_named_pad(tmp_path):
    out = tmp_path / "pad.pdf"
    result = run(["pad", "--game", "ra", "--names", "Ana,Řehoř,Ödön", "--page", "letter",
                  "--lang", "hu", "--sheets", "2", "-o", str(out)], tmp_path)
    assert result.returncode == 0, result.stderr
    pdf = out.read_bytes()
    assert page_sizes(pdf) == [SIZES["letter"]] * 2
    words = text(pdf, 0)
    assert "Řehoř" in words and "Ödön" in words
    assert "http://scribe.test:8000/score/ra?_players=3" in "".join(words.split())
    again = tmp_path / "again.pdf"                 # another process, another hash seed
    run(["pad", "--game", "ra", "--names", "Ana,Řehoř,Ödön", "--page", "letter", "--lang", "hu",
         "--sheets", "2", "-o", str(again)], tmp_path)
    assert again.read_bytes() == pdf


def test_print_aids_and_bad_input_exit_2(tmp_path):
    out = tmp_path / "aids.pdf"
    result = run(["aids", "--game", "imhotep", "--sides", "duplex", "--bleed", "3",
                  "-o", str(out)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert len(page_sizes(out.read_bytes())) == 2
    bad = run(["pad", "--game", "imhotep", "--names", "A,B,C,D,E", "-o",
               str(tmp_path / "x.pdf")], tmp_path)
    assert bad.returncode == 2 and "2 to 4 players" in bad.stderr
    assert "print.bad_player_count" in bad.stderr and not (tmp_path / "x.pdf").exists()
    rtl = run(["pad", "--game", "ra", "--names", "Ana,שרה", "-o", str(tmp_path / "y.pdf")],
              tmp_path)
    assert rtl.returncode == 2 and "right to left" in rtl.stderr
    page = run(["pad", "--game", "ra", "--page", "a3", "-o", str(tmp_path / "z.pdf")],
               tmp_path)
    assert page.returncode == 2 and "invalid choice" in page.stderr
    bleed = run(["aids", "--game", "ra", "--bleed", "20", "-o", str(tmp_path / "w.pdf")],
                tmp_path)
    assert bleed.returncode == 2 and "bleed" in bleed.stderr


@pytest.mark.db
def test_print_report_and_cards_from_the_database(app, tmp_path):
    url = app.config["DATABASE_URL"]
    with session_for(app) as session:
        finished = finished_live_table(session)
        opened = open_live_table(session).id
    report = tmp_path / "report.pdf"
    result = run(["report", finished, "--lang", "cs", "-o", str(report)], tmp_path, url)
    assert result.returncode == 0, result.stderr
    assert "Řehoř" in text(report.read_bytes())
    cards = tmp_path / "cards.pdf"
    result = run(["cards", opened, "--base-url", "https://scribe.example", "-o", str(cards)],
                 tmp_path, url)
    assert result.returncode == 0, result.stderr
    assert "Ödön" in text(cards.read_bytes())
    missing = run(["report", "no-such-table", "-o", str(tmp_path / "r.pdf")], tmp_path, url)
    assert missing.returncode == 2 and "no-such-table" in missing.stderr
    unfinished = run(["report", opened, "-o", str(tmp_path / "r.pdf")], tmp_path, url)
    assert unfinished.returncode == 2 and "not finished" in unfinished.stderr


def test_pdfgen_imports_neither_flask_nor_the_web_layer():
    code = ("import sys, pdfgen.pads, pdfgen.aids, pdfgen.cards, pdfgen.report, pdfgen.geometry;"
            "bad = [m for m in sys.modules if m == 'flask' or m.startswith('flask.') "
            "or m.startswith('companion.web') or m.startswith('companion.api') "
            "or m.startswith('companion.services') or m == 'sqlmodel'];"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_print_choices_come_from_the_registry(tmp_path):
    from pdfgen.registry import printing_games

    games = [content.game for content in printing_games()]
    unknown = run(["pad", "--game", "chess", "-o", str(tmp_path / "c.pdf")], tmp_path)
    assert unknown.returncode == 2
    assert all(f"'{game}'" in unknown.stderr for game in games)        # the choices offered
    blank = run(["pad", "-o", str(tmp_path / "b.pdf")], tmp_path)
    assert blank.returncode == 2 and "needs --game" in blank.stderr
    assert not (tmp_path / "b.pdf").exists()
    huge = run(["pad", "--game", games[0], "--players", str(10 ** 12), "-o",
                str(tmp_path / "h.pdf")], tmp_path)
    assert huge.returncode == 2 and "print.bad_player_count" in huge.stderr


def test_printouts_link_to_the_address_serve_last_printed(tmp_path):
    """Issue 20 §7: `serve --port 23000` then `print pad` (no PUBLIC_URL): every QR code leads to
    the port the server really listens on; never served: the LAN default and a warning."""
    from companion.config import remember_served_url
    from tests.pdfgen.pdfcheck import qr_texts

    env_without_public_url = {"PUBLIC_URL": ""}
    out = tmp_path / "pad.pdf"
    result = run(["pad", "--game", "ra", "--sheets", "1", "-o", str(out)], tmp_path,
                 extra_env=env_without_public_url)
    assert result.returncode == 0, result.stderr
    assert "has not been served" in result.stderr and ":8000" in result.stderr
    remember_served_url(tmp_path, "http://192.168.7.20:23000")   # what `serve` does
    result = run(["pad", "--game", "ra", "--sheets", "1", "-o", str(out)], tmp_path,
                 extra_env=env_without_public_url)
    assert result.returncode == 0 and "has not been served" not in result.stderr, result.stderr
    assert qr_texts(out.read_bytes(), 1) == ["http://192.168.7.20:23000/score/ra"]
