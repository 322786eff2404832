"""The README's run command: `python -m companion serve` migrates and serves with gunicorn."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.liveserver import ROOT, Server, free_port

__all__ = ["free_port"]          # tests/api import it from here


def test_serve_migrates_sqlite_in_instance_and_answers(tmp_path):
    port = free_port()
    env = dict(os.environ, SCRIBE_INSTANCE=str(tmp_path))
    env.pop("DATABASE_URL", None)
    env.pop("PUBLIC_URL", None)
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
        # the address it printed is kept for printouts made later (issue 20 §7)
        assert (tmp_path / "serving_url").read_text().strip().endswith(f":{port}")
    finally:
        server.terminate()
        server.wait(timeout=10)


def _listening_on(port: int) -> set[str]:
    """The addresses (dotted IPv4) that sockets in LISTEN state bind on ``port``, from
    /proc/net/tcp (the kernel's own word; nothing is sent anywhere)."""
    addresses = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        address, hex_port = fields[1].split(":")
        if int(hex_port, 16) == port and fields[3] == "0A":           # 0A: LISTEN
            addresses.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return addresses


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
@pytest.mark.parametrize("args, bound", [((), "0.0.0.0"), (("--local",), "127.0.0.1")])
def test_serve_listens_on_the_lan_by_default_and_on_loopback_with_local(tmp_path, args, bound):
    server = Server("bind", tmp_path, ("--workers", "1", *args))
    try:
        server.wait_ready()
        assert _listening_on(server.port) == {bound}       # 0.0.0.0: every address, the LAN's too
    finally:
        server.stop()


@pytest.mark.parametrize("url", ["postgresql+psycopg://scribe:s3cret@127.0.0.1:1/nowhere",
                                 "nonsense://x"])
def test_a_wrong_database_url_is_one_clear_line_and_exit_2(tmp_path, url):
    """Issue 21 §4: no traceback, the password never printed, a non-zero exit."""
    env = dict(os.environ, SCRIBE_INSTANCE=str(tmp_path), DATABASE_URL=url)
    result = subprocess.run([sys.executable, "-m", "companion", "serve", "--local", "--port",
                             str(free_port())], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Scribe cannot use the database"), lines
    assert "s3cret" not in result.stderr and "Traceback" not in result.stderr
