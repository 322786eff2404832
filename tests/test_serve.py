"""The README's run command: `python -m companion serve` migrates and serves with gunicorn."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request

from tests.liveserver import ROOT, free_port

__all__ = ["free_port"]          # tests/api import it from here


def test_serve_migrates_sqlite_in_instance_and_answers(tmp_path):
    port = free_port()
    env = dict(os.environ, SCRIBE_INSTANCE=str(tmp_path))
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", str(port),
                               "--workers", "1"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/score/ra", timeout=2) as r:
                    body = r.read().decode()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError(server.stdout.read().decode() if server.poll()
                                         is not None else "server did not answer in 30 s")
                time.sleep(0.2)
        assert "players.0.epochs.0.gods" in body
        assert (tmp_path / "scribe.db").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)
