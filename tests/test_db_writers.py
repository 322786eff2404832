"""Writers to one SQLite file take turns across threads and server processes (db.WriterQueue):
a move's write section never overlaps another's, and nothing queues for other databases."""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path

import pytest
from sqlmodel import Session

from companion.db import make_engine, writing

TURNS = 15


def _take_turns(url: str, log: str, who: str) -> None:
    """Two threads of this process each write ``TURNS`` times, logging entry and exit."""
    engine = make_engine(url)

    def writer(name: str) -> None:
        with Session(engine) as session:
            for _ in range(TURNS):
                with writing(session):
                    with open(log, "a") as handle:
                        handle.write(f"in {name}\n")
                    time.sleep(0.002)           # long enough for another writer to barge in
                    with open(log, "a") as handle:
                        handle.write(f"out {name}\n")

    threads = [threading.Thread(target=writer, args=(f"{who}.{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_writers_of_one_sqlite_file_take_turns_across_threads_and_processes(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'table.db'}"
    log = tmp_path / "turns.log"
    log.touch()
    context = multiprocessing.get_context("fork")   # as gunicorn makes its workers
    processes = [context.Process(target=_take_turns, args=(url, str(log), f"p{n}"))
                 for n in range(2)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    lines = log.read_text().split()
    entries = list(zip(lines[0::2], lines[1::2]))
    assert len(entries) == 2 * 2 * 2 * TURNS            # in/out, name: 2 processes x 2 threads
    for (went_in, name_in), (came_out, name_out) in zip(entries[0::2], entries[1::2]):
        assert (went_in, came_out) == ("in", "out") and name_in == name_out, lines
    assert {name for _, name in entries} == {"p0.0", "p0.1", "p1.0", "p1.1"}


def test_other_databases_never_queue(tmp_path: Path):
    engine = make_engine("sqlite://")                   # in memory: nobody else can write
    with Session(engine) as session:
        done = threading.Event()

        def hold() -> None:
            with writing(session):
                done.wait(5)

        holder = threading.Thread(target=hold)
        holder.start()
        started = time.monotonic()
        with writing(session):                          # not kept waiting by the holder
            pass
        assert time.monotonic() - started < 1
        done.set()
        holder.join()
    assert not list(tmp_path.iterdir())
