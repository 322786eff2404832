"""Benchmark over the wire: live tables against ``python -m companion serve`` (issue 9).

Run on demand (not a test; it takes a few minutes and both cores):

    python benchmarks/bench_live_load.py [--backend sqlite|pg|both] [--tables 20] ... [--smoke]

Every request goes to 127.0.0.1. For each backend (SQLite, the default deployment; and
PostgreSQL + Redis, the scaled one: database ``scribe_bench``, created if missing, never
``test``) it starts:
  * Scribe: ``python -m companion serve --local`` (default workers and threads; the access
    log goes to a file, as a service's would);
  * the bare baselines (benchmarks/bare_app.py) under the same server stack (gunicorn,
    companion.asgi.ScribeWorker, a2wsgi, 2 workers x 8 threads), and under plain gunicorn
    gthread (2 workers x 8 threads), for honesty;
and measures, with an asyncio HTTP client (aiohttp). Every Scribe request goes through its
Flask app, as every request does (design.md §3: one path per request); the bare endpoints are
Flask views too, as the issue that asked for this benchmark defined them.

What it measures:

 1. moves: K tables played concurrently, each by a seeded script (a random Ra game of 3-5
    players: benchmarks/games.py), one move after the other's answer; the same requests go to
    the bare insert endpoint. Moves/s, p50/p99, the ratio (target >= 0.6), and the fan-out to
    N listening streams per table: the time from sending a move to each stream hearing it,
    and how many versions a stream never heard.
 2. score: ``POST /api/v1/score`` with a 3 KB document (5-player Ra) against the bare JSON
    endpoint, C requests in flight (target >= 0.5).
 3. streams: S tables x P phones = 500 open streams while every table makes a move every
    ``--interval`` seconds (jittered, seeded): move p50/p99 (target p99 < 100 ms) and the
    time until every stream of the table heard each move (target < 500 ms), none lost.

Each measurement is repeated ``--repeat`` times, alternating Scribe and the bare endpoints,
and every run is printed (the machine is shared: compare ranges). The load average before
each run is printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from games import ra_game  # noqa: E402
from postgres import PG_SERVER, empty_database  # noqa: E402
from tests.factories import ra_document  # noqa: E402

PG_BENCH = f"{PG_SERVER}/scribe_bench"
REDIS = "redis://127.0.0.1:6379/0"
Log = list[tuple[int, dict[str, Any]]]


# ---- servers -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [part.replace("{port}", str(self.port)) for part in self.command]
        self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=open(self.log, "wb"),
                                        stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, path: str) -> None:
        import urllib.request
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.base + path, timeout=2).read()
                return
            except OSError as error:
                if getattr(error, "code", None):      # an HTTP answer: it is up
                    return
                assert self.process.poll() is None and time.monotonic() < deadline, \
                    self.log.read_text()[-3000:]
                time.sleep(0.2)

    def cpu_seconds(self) -> float:
        """CPU time used so far by this server's processes (gunicorn master and workers)."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, ppid = int(stat.parent.name), int(fields[1])
            if self.process and self.process.pid in (pid, ppid):
                total += int(fields[11]) + int(fields[12])       # utime + stime
        return total / tick

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)     # the group this script started
                self.process.wait(timeout=10)


def _reset_pg() -> None:
    empty_database("scribe_bench")


@contextmanager
def servers(backend: str, tmp: Path, serve_args: list[str], workers: int | None,
            threads: int | None) -> Iterator[dict[str, Server]]:
    """Scribe, bare (same stack) and bare (gthread) for ``backend``, started and stopped."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bare_app import create_table

    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "PUBLIC_URL", "LIVE_POLL_SECONDS")}
    env["PYTHONPATH"] = f"{ROOT}:{ROOT / 'benchmarks'}"
    env["RATE_LIMIT_OPEN_TABLE"] = "100000 per minute"     # one client opens every table
    # one client scores thousands of documents: the limit is still checked and counted (its
    # cost is part of the figure), it is only set above what the run sends
    env["RATE_LIMIT_SCORE"] = "10000000 per minute"
    if backend == "pg":
        _reset_pg()
        scribe_env = dict(env, DATABASE_URL=PG_BENCH, REDIS_URL=REDIS)
        bare_url = PG_BENCH
    else:
        scribe_env = dict(env, SCRIBE_INSTANCE=str(tmp / "scribe"))
        bare_url = f"sqlite:///{tmp / 'bare.db'}"
    create_table(bare_url)
    # The bare endpoints get the same workers and threads as Scribe (serve's defaults unless
    # given), so that the ratio compares the endpoints and not the server settings.
    from companion.__main__ import DEFAULT_THREADS, DEFAULT_WORKERS
    workers, threads = workers or DEFAULT_WORKERS, threads or DEFAULT_THREADS
    serve_args = [*serve_args, f"--workers={workers}", f"--threads={threads}"]
    bare_env = dict(env, BARE_DATABASE_URL=bare_url, BARE_THREADS=str(threads))
    python = sys.executable
    started = {
        "scribe": Server("scribe", [python, "-m", "companion", "serve", "--local", "--port",
                                    "{port}", *serve_args], scribe_env,
                         tmp / f"scribe-{backend}.log"),
        "bare": Server("bare", [python, "-m", "gunicorn", "--workers", str(workers),
                                "--worker-class",
                                "companion.asgi.ScribeWorker", "--bind", "127.0.0.1:{port}",
                                "--no-control-socket", "bare_app:asgi"], bare_env,
                       tmp / f"bare-{backend}.log"),
        "gthread": Server("gthread", [python, "-m", "gunicorn", "--workers", str(workers),
                                      "--worker-class", "gthread", "--threads", str(threads),
                                      "--bind",
                                      "127.0.0.1:{port}", "--no-control-socket",
                                      "bare_app:wsgi"], bare_env,
                          tmp / f"gthread-{backend}.log"),
    }
    try:
        started["scribe"].start()
        started["scribe"].wait_ready("/api/v1/games")          # migrated before the rest
        for name in ("bare", "gthread"):
            started[name].start()
        for name in ("bare", "gthread"):
            started[name].wait_ready("/echo")
        yield started
    finally:
        for server in started.values():
            server.stop()


# ---- figures -------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f}"


def load() -> str:
    return "load %.2f %.2f %.2f" % os.getloadavg()


# ---- the clients ---------------------------------------------------------------------------


async def open_table(http: aiohttp.ClientSession, base: str, game) -> tuple[str, list[str]]:
    name, options, names, setup, _log = game
    async with http.post(f"{base}/api/v1/tables", json={
            "game": name, "options": options, "players": names, "setup": setup}) as response:
        assert response.status == 201, await response.text()
        table = (await response.json())["id"]
    tokens = []
    for seat in range(len(names)):
        async with http.post(f"{base}/api/v1/tables/{table}/seats/{seat}/claim") as response:
            tokens.append((await response.json())["seat_token"])
    return table, tokens


class Listener:
    """One phone's stream: the time each version arrived."""

    def __init__(self, http: aiohttp.ClientSession, base: str, table: str):
        self.http, self.url = http, f"{base}/api/v1/tables/{table}/events"
        self.heard: dict[int, float] = {}
        self.ready = asyncio.Event()
        self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        async with self.http.get(self.url) as response:
            assert response.status == 200, await response.text()
            event = None
            while True:
                line = await response.content.readline()
                if not line:
                    return
                line = line.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "version":
                    self.heard[json.loads(line[6:])["version"]] = time.perf_counter()
                    self.ready.set()

    async def close(self) -> None:
        self.task.cancel()
        try:
            await self.task
        except (asyncio.CancelledError, aiohttp.ClientError):
            pass


async def post_move(http, url: str, token: str | None, seat_move, version: int, key: str):
    seat, move = seat_move
    body = json.dumps({"move": move, "version": version, "idempotency_key": key})
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    started = time.perf_counter()
    async with http.post(url, data=body, headers=headers) as response:
        text = await response.read()
        assert response.status == 200, text[:300]
    return started, time.perf_counter() - started


@dataclass
class MoveRun:
    moves: int
    seconds: float
    latencies: list[float]
    fanout: list[float]
    missing: int
    cpu: float                    # the server's CPU seconds while the moves were played

    @property
    def cpu_per_move(self) -> float:
        return self.cpu / self.moves

    @property
    def rate(self) -> float:
        return self.moves / self.seconds


async def run_moves(server: Server, games, listeners: int, bare: bool, tag: str) -> MoveRun:
    """Every game on its own table, all at once, each move after the previous one's answer."""
    base = server.base
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http, \
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                  timeout=aiohttp.ClientTimeout(total=None)) as streams:
        tables = []
        for number, game in enumerate(games):
            if bare:
                tables.append((f"{tag}{number}", [None] * len(game[2])))
            else:
                tables.append(await open_table(http, base, game))
        phones = {table: [Listener(streams, base, table) for _ in range(listeners)]
                  for table, _ in tables} if not bare else {}
        for phone_list in phones.values():
            for phone in phone_list:
                await asyncio.wait_for(phone.ready.wait(), 30)
        sent: dict[tuple[str, int], float] = {}
        latencies: list[float] = []

        async def play(table: str, tokens, log: Log) -> None:
            url = f"{base}/api/v1/tables/{table}/moves"
            for version, seat_move in enumerate(log):
                started, took = await post_move(http, url, tokens[seat_move[0]], seat_move,
                                                version, f"{tag}-{version}")
                sent[(table, version + 1)] = started
                latencies.append(took)

        cpu = server.cpu_seconds()
        began = time.perf_counter()
        await asyncio.gather(*(play(table, tokens, game[-1])
                               for (table, tokens), game in zip(tables, games)))
        seconds = time.perf_counter() - began
        cpu = server.cpu_seconds() - cpu
        await asyncio.sleep(1.0)                 # the last fan-out
        fanout, missing = [], 0
        for (table, version), at in sent.items():
            for phone in phones.get(table, ()):
                if version in phone.heard:
                    fanout.append(phone.heard[version] - at)
                else:
                    missing += 1
        for phone_list in phones.values():
            for phone in phone_list:
                await phone.close()
    return MoveRun(len(latencies), seconds, latencies, fanout, missing, cpu)


async def run_score(server: Server, path: str, body: bytes, seconds: float,
                    in_flight: int) -> tuple[float, list[float], float]:
    """``in_flight`` clients POST ``body`` to ``path`` for ``seconds``: (req/s, latencies,
    server CPU seconds per request)."""
    base = server.base
    latencies: list[float] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        async def client(deadline: float) -> None:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                async with http.post(base + path, data=body,
                                     headers={"Content-Type": "application/json"}) as response:
                    await response.read()
                    assert response.status == 200
                latencies.append(time.perf_counter() - started)

        await asyncio.gather(*(client(time.perf_counter() + 0.5) for _ in range(in_flight)))
        latencies.clear()                                          # warmed up
        cpu = server.cpu_seconds()
        began = time.perf_counter()
        await asyncio.gather(*(client(began + seconds) for _ in range(in_flight)))
        cpu = server.cpu_seconds() - cpu
        return len(latencies) / (time.perf_counter() - began), latencies, cpu / len(latencies)


@dataclass
class StreamRun:
    streams: int
    moves: int
    latencies: list[float]
    all_heard: list[float]        # per move: until the last of its table's streams heard it
    missing: int
    opened_in: float


async def run_streams(base: str, tables: int, phones: int, seconds: float, interval: float,
                      seed: int) -> StreamRun:
    """``tables`` x ``phones`` open streams; each table moves every ``interval`` s."""
    rng = random.Random(seed)
    games = [ra_game(seed * 1000 + n, players=3 + n % 3) for n in range(tables)]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http, \
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                  timeout=aiohttp.ClientTimeout(total=None)) as streams:
        opened = [await open_table(http, base, game) for game in games]
        began = time.perf_counter()
        listeners = {table: [Listener(streams, base, table) for _ in range(phones)]
                     for table, _ in opened}
        for phone_list in listeners.values():
            for phone in phone_list:
                await asyncio.wait_for(phone.ready.wait(), 60)
        opened_in = time.perf_counter() - began
        sent: dict[tuple[str, int], float] = {}
        latencies: list[float] = []

        async def table_script(table: str, tokens, log: Log, delay: random.Random) -> None:
            url = f"{base}/api/v1/tables/{table}/moves"
            deadline = time.perf_counter() + seconds
            await asyncio.sleep(delay.uniform(0, interval))
            for version, seat_move in enumerate(log):
                if time.perf_counter() > deadline:
                    return
                started, took = await post_move(http, url, tokens[seat_move[0]], seat_move,
                                                version, f"s-{version}")
                sent[(table, version + 1)] = started
                latencies.append(took)
                await asyncio.sleep(delay.uniform(0.5 * interval, 1.5 * interval))

        await asyncio.gather(*(table_script(table, tokens, game[-1],
                                            random.Random(rng.random()))
                               for (table, tokens), game in zip(opened, games)))
        await asyncio.sleep(1.0)
        all_heard, missing = [], 0
        for (table, version), at in sent.items():
            heard = [phone.heard.get(version) for phone in listeners[table]]
            missing += sum(1 for h in heard if h is None)
            if all(h is not None for h in heard):
                all_heard.append(max(heard) - at)
        for phone_list in listeners.values():
            for phone in phone_list:
                await phone.close()
    return StreamRun(tables * phones, len(latencies), latencies, all_heard, missing, opened_in)


# ---- the report ----------------------------------------------------------------------------


def report_moves(label: str, run: MoveRun) -> str:
    text = (f"    {label:<34} {run.rate:7.0f} moves/s  p50 {ms(percentile(run.latencies, .5))}"
            f" ms  p99 {ms(percentile(run.latencies, .99))} ms  server CPU "
            f"{run.cpu_per_move * 1000:.2f} ms/move  ({run.moves} moves, {run.seconds:.1f} s)")
    if run.fanout or run.missing:
        text += (f"\n    {'':<34} fan-out p50 {ms(percentile(run.fanout, .5))} ms  p99 "
                 f"{ms(percentile(run.fanout, .99))} ms  max {ms(max(run.fanout))} ms  "
                 f"unheard {run.missing}")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("sqlite", "pg", "both"), default="both")
    parser.add_argument("--tables", type=int, default=20, help="tables played at once (1.)")
    parser.add_argument("--listeners", type=int, default=3,
                        help="streams per table while moves are timed (1.)")
    parser.add_argument("--score-seconds", type=float, default=5.0)
    parser.add_argument("--in-flight", type=int, default=16, help="score requests at once")
    parser.add_argument("--stream-tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=5, help="streams per table (3.)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of 3.")
    parser.add_argument("--interval", type=float, default=1.0,
                        help="seconds between a table's moves in 3.")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--workers", type=int, help="server processes of every server "
                                                     "(default: serve's)")
    parser.add_argument("--threads", type=int, help="threads per process of every server "
                                                     "(default: serve's)")
    parser.add_argument("--serve-arg", action="append", default=[],
                        help="an extra argument of `serve` (e.g. --serve-arg=--no-access-log)")
    parser.add_argument("--skip", action="append", default=[],
                        choices=("moves", "score", "streams"))
    parser.add_argument("--smoke", action="store_true",
                        help="SQLite, a few requests of each kind: proves the benchmark runs")
    args = parser.parse_args()
    if args.smoke:
        args.backend, args.tables, args.listeners, args.repeat = "sqlite", 2, 1, 1
        args.score_seconds, args.in_flight = 0.3, 2
        args.stream_tables, args.phones, args.seconds, args.interval = 2, 1, 1.0, 0.5
    backends = ("sqlite", "pg") if args.backend == "both" else (args.backend,)
    score_body = json.dumps(ra_document(players=5)).encode()
    print(f"machine: {os.cpu_count()} cores, {load()} at the start; client and servers share "
          f"them")
    for backend in backends:
        title = "SQLite (default)" if backend == "sqlite" else "PostgreSQL + Redis"
        print(f"\n== {title} ==")
        with tempfile.TemporaryDirectory() as tmp, servers(backend, Path(tmp), args.serve_arg, args.workers,
                                                       args.threads) as up:
            if "moves" not in args.skip:
                print(f"1. moves: {args.tables} tables at once (random Ra games, seeds "
                      f"{args.seed}..); then again with {args.listeners} streams per table")
                for attempt in range(args.repeat):
                    games = [ra_game(args.seed + attempt * 100 + n, players=3 + n % 3)
                             for n in range(args.tables)]
                    if args.smoke:                  # the first moves of each game only
                        games = [(*game[:-1], game[-1][:12]) for game in games]
                    print(f"  run {attempt + 1} ({load()})")
                    bare = asyncio.run(run_moves(up["bare"], games, 0, True,
                                                 f"b{attempt}"))
                    print(report_moves("bare insert, same stack", bare))
                    scribe = asyncio.run(run_moves(up["scribe"], games, 0, False,
                                                   f"s{attempt}"))
                    print(report_moves("Scribe POST .../moves", scribe))
                    gthread = asyncio.run(run_moves(up["gthread"], games, 0, True,
                                                    f"g{attempt}"))
                    print(report_moves("bare insert, gunicorn gthread", gthread))
                    print(f"    ratio Scribe/bare (same stack): {scribe.rate / bare.rate:.2f}"
                          f" (target >= 0.6); by server CPU per move: "
                          f"{bare.cpu_per_move / scribe.cpu_per_move:.2f}; Scribe/bare "
                          f"gthread: {scribe.rate / gthread.rate:.2f}")
                    if args.listeners:
                        heard = asyncio.run(run_moves(up["scribe"], games, args.listeners,
                                                      False, f"l{attempt}"))
                        print(report_moves(f"Scribe, {args.listeners} streams per table",
                                           heard))
            if "score" not in args.skip:
                print(f"2. POST /api/v1/score, {len(score_body)}-byte document, "
                      f"{args.in_flight} in flight, {args.score_seconds:.0f} s each")
                for attempt in range(args.repeat):
                    print(f"  run {attempt + 1} ({load()})")
                    figures, cpus = {}, {}
                    for name, server, path in (("bare JSON, same stack", "bare", "/echo"),
                                               ("Scribe /api/v1/score", "scribe",
                                                "/api/v1/score"),
                                               ("bare JSON, gunicorn gthread", "gthread",
                                                "/echo")):
                        rate, latencies, cpu = asyncio.run(run_score(
                            up[server], path, score_body, args.score_seconds,
                            args.in_flight))
                        figures[name], cpus[name] = rate, cpu
                        print(f"    {name:<34} {rate:7.0f} req/s    p50 "
                              f"{ms(percentile(latencies, .5))} ms  p99 "
                              f"{ms(percentile(latencies, .99))} ms  server CPU "
                              f"{cpu * 1000:.2f} ms/request")
                    print(f"    ratio score/bare (same stack): "
                          f"{figures['Scribe /api/v1/score'] / figures['bare JSON, same stack']:.2f}"
                          f" (target >= 0.5); by server CPU per request: "
                          f"{cpus['bare JSON, same stack'] / cpus['Scribe /api/v1/score']:.2f}"
                          f"; score/bare gthread: "
                          f"{figures['Scribe /api/v1/score'] / figures['bare JSON, gunicorn gthread']:.2f}")
            if "streams" not in args.skip:
                print(f"3. {args.stream_tables} tables x {args.phones} phones = "
                      f"{args.stream_tables * args.phones} open streams, a move per table "
                      f"every ~{args.interval:g} s for {args.seconds:g} s")
                for attempt in range(args.repeat):
                    print(f"  run {attempt + 1} ({load()})")
                    run = asyncio.run(run_streams(up["scribe"].base, args.stream_tables,
                                                  args.phones, args.seconds, args.interval,
                                                  args.seed + attempt))
                    print(f"    {run.streams} streams open in {run.opened_in:.1f} s; "
                          f"{run.moves} moves: p50 {ms(percentile(run.latencies, .5))} ms, "
                          f"p99 {ms(percentile(run.latencies, .99))} ms (target < 100)")
                    print(f"    every stream of the table heard the move: p50 "
                          f"{ms(percentile(run.all_heard, .5))} ms, p99 "
                          f"{ms(percentile(run.all_heard, .99))} ms, max "
                          f"{ms(max(run.all_heard or [0]))} ms (target < 500); "
                          f"unheard {run.missing}")
    print(f"\nmachine at the end: {load()}")


if __name__ == "__main__":
    main()
