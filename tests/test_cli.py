"""python -m companion score: the API's answer on stdout, exit 2 and the error for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.rules.ra.final import score_final
from tests.factories import ra_document

ROOT = Path(__file__).resolve().parents[1]


def run(args, stdin=None, tmp_path=None):
    env = {"SCRIBE_INSTANCE": str(tmp_path), "SECRET_KEY": "cli-test", "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, env=env)


def test_score_file_prints_the_scoresheet(tmp_path):
    document = ra_document(players=4)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    result = run(["score", str(path)], tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == score_final(document).as_dict()


def test_score_stdin_and_bad_documents_exit_2(tmp_path):
    document = ra_document(players=3)
    document["players"][0]["epochs"][0]["gods"] = -1
    result = run(["score", "-", "--lang", "cs"], stdin=json.dumps(document), tmp_path=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    error = json.loads(result.stderr)
    assert (error["error"], error["field"]) == ("schema.negative", "players.0.epochs.0.gods")
    assert error["message"] != "This must not be negative."      # Czech
    result = run(["score", "-"], stdin="{oops", tmp_path=tmp_path)
    assert result.returncode == 2 and json.loads(result.stderr)["error"] == "bad_json"
    result = run(["score", str(tmp_path / "missing.json")], tmp_path=tmp_path)
    assert result.returncode == 2 and json.loads(result.stderr)["error"] == "cannot_read"


def test_table_ids_never_look_like_options():
    from companion.models import new_table_id

    assert not any(new_table_id().startswith("-") for _ in range(5000))
