"""The machine instructions of a move: a figure the machine's load does not change.

    .venv/bin/python -m bench.instructions [--moves 200] [--games 40] [--runs 2] [--ends]

Times on a shared machine move by a fifth from one run to the next; the instructions a
move executes move by up to 3% (each run's games draw other dice). This runs the moves
of ``bench.web`` (made in this process through the site's WSGI application: every
middleware, the session from Redis, the view, the service; players without an address,
so no mail) under Valgrind's callgrind, which counts the instructions of the requests
alone: the count is switched on as each request starts and off as it ends, and off while
a game ends (the result, the ratings, the event's table: rare in a real game, frequent
in these random ones, and so left out, and counted apart). Before the counted moves, 80
uncounted ones fill the caches as a running server has them. Each run prints the
instructions of a move and how many of its moves ended a game. With ``--ends`` the count
is the other way round: only the games' ends (``finish_game`` with everything it runs:
the finishing order, the seats' ranks, the game's row, the ratings, the ladder's and the
event's part), and each run prints the instructions of a game's end.

Needs Valgrind and a C compiler with Valgrind's headers (Debian: ``apt-get install
valgrind gcc``): a small library of three functions lets Python switch the count. Runs
against the local PostgreSQL database ``ww5_bench`` (``BENCH_DATABASE_URL``), like
``bench.web``, with sessions in Redis (``CACHE_URL``); Valgrind runs the moves some 50
times slower than the machine, so a run of 200 moves takes a minute or two.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import web

SWITCH = r"""
#include <valgrind/callgrind.h>
void count_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void count_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
"""
WARM_UP = 80


def build_switch(folder: Path) -> Path:
    """The library whose functions start callgrind's instrumentation and switch its
    count (Valgrind's client requests, which only C can make)."""
    source, library = folder / "switch.c", folder / "libswitch.so"
    source.write_text(SWITCH)
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O1", str(source), "-o", str(library)],
        check=True,
    )
    return library


def measure(library: str, games: int, moves: int, ends_only: bool = False) -> str:
    """Inside Valgrind: the moves, counted. Prints what the parent reads."""
    import contextlib
    import ctypes

    os.environ.update(web.server_env(web.DATABASE_URL))
    prepared = web.prepare(games)
    from games.services import core

    switch = ctypes.CDLL(library)
    counting = [False]
    ends = [0]
    finish_game = core.finish_game

    def finish_uncounted(*args: Any, **kwargs: Any) -> Any:
        ends[0] += 1
        if counting[0]:  # a counted move's end: out of the count; a counted end: into it
            switch.count_toggle()
        try:
            return finish_game(*args, **kwargs)
        finally:
            if counting[0]:
                switch.count_toggle()

    @contextlib.contextmanager
    def counted() -> Any:
        counting[0] = True
        if not ends_only:
            switch.count_toggle()
        try:
            yield
        finally:
            if not ends_only:
                switch.count_toggle()
            counting[0] = False

    core.finish_game = finish_uncounted
    mover = web.Mover(list(prepared))
    made = 0
    while made < WARM_UP and mover.playing:
        made += mover.move(contextlib.nullcontext) is not None
    switch.count_start()
    ends[0] = made = 0
    while made < moves and mover.playing:
        made += mover.move(counted) is not None
    return f"moves {made} ended {ends[0]}"


def run_once(library: Path, games: int, moves: int, ends: bool = False) -> tuple[int, int, int]:
    """One run under callgrind: (moves, games ended among them, instructions counted)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                "--collect-atstart=no",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-m",
                "bench.instructions",
                "--inside",
                str(library),
                "--games",
                str(games),
                "--moves",
                str(moves),
                *(["--ends"] if ends else []),
            ],
            cwd=web.ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
    said = re.search(r"moves (\d+) ended (\d+)", done.stdout)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or said is None or collected is None:
        raise RuntimeError(f"the run failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    return int(said[1]), int(said[2]), int(collected[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument(
        "--ends", action="store_true", help="count the games' ends instead of the moves"
    )
    parser.add_argument("--inside", metavar="LIBRARY", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        print(measure(args.inside, args.games, args.moves, args.ends), flush=True)
        return
    for tool in ("valgrind", "gcc"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed: apt-get install valgrind gcc")
    web.create_database(web.DATABASE_URL)
    env = web.server_env(web.DATABASE_URL)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=web.ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    print(
        f"{args.moves} moves a run through the WSGI application, under callgrind, "
        f"{args.games} games of 2 players, {WARM_UP} uncounted moves first"
    )
    with tempfile.TemporaryDirectory() as folder:
        library = build_switch(Path(folder))
        for run in range(1, args.runs + 1):
            moves, ended, collected = run_once(library, args.games, args.moves, args.ends)
            if args.ends:
                print(
                    f"run {run}: {collected / max(ended, 1):,.0f} instructions a game's end "
                    f"({ended} games ended in {moves} moves, the moves not counted)",
                    flush=True,
                )
                continue
            print(
                f"run {run}: {collected / max(moves, 1):,.0f} instructions a move "
                f"({moves} moves; {ended} ended a game, its end not counted)",
                flush=True,
            )


if __name__ == "__main__":
    main()
