"""wallgo.Engine: the same answers as `wallgo analysis`, stop() from another
thread, the protocol's option checks."""

import json
import random
import subprocess
import threading
import time

import pytest

import wallgo
from conftest import engine_path

def protocol_analysis(query, *flags):
    out = subprocess.run(
        [engine_path(), "analysis", *flags], input=json.dumps(query) + "\n",
        capture_output=True, text=True, check=True, timeout=60).stdout
    return json.loads(out.splitlines()[0])


@pytest.mark.parametrize("rules,moves", [
    ("players=2", ["c4", "e4", "c2", "e6"]),
    ("players=3", ["d4", "c3", "e5", "b2", "f6", "a1", "d4d5n"]),
])
def test_analyze_equals_the_protocols_answer(rules, moves):
    game = wallgo.Game(rules)
    for move in moves:
        game.play(move)
    ours = wallgo.Engine(seed=5, threads=1).analyze(
        game, visits=300, ownership=True, id="q")
    theirs = protocol_analysis(
        {"id": "q", "position": game.position(), "maxVisits": 300,
         "includeOwnership": True}, "--seed", "5", "--threads", "1")
    assert ours["moveInfos"] and ours == theirs


def test_analyze_of_a_finished_game_is_exact():
    game = wallgo.Game()
    rng = random.Random(4)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    answer = wallgo.Engine().analyze(game, visits=10)
    assert answer["rootInfo"]["exact"] and not answer["moveInfos"]


def test_stop_from_another_thread_ends_the_search():
    game = wallgo.Game()
    engine = wallgo.Engine(threads=1)
    threading.Timer(0.3, engine.stop).start()
    start = time.monotonic()
    answer = engine.analyze(game, seconds=60)
    assert time.monotonic() - start < 20
    assert answer["moveInfos"]


def test_analyze_releases_the_gil():
    engine = wallgo.Engine(threads=1)
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    engine.analyze(wallgo.Game(), seconds=0.5)
    done.set()
    counter.join()
    assert len(ticks) > 50  # the counter ran while the engine searched


def test_options_are_the_protocols():
    engine = wallgo.Engine(threads=2, level=7, seed=3)
    assert engine.options["threads"] == "2" and engine.options["level"] == "7"
    assert "threads" in wallgo.list_options()
    with pytest.raises(ValueError, match="threads"):
        wallgo.Engine(threads=0)
    with pytest.raises(TypeError, match="no option 'speed'"):
        wallgo.Engine(speed=3)
    with pytest.raises(ValueError):
        wallgo.Engine(weights="/nonexistent.wgn")
    with pytest.raises(TypeError):
        engine.analyze("players=2", visits=10)
    with pytest.raises(ValueError):
        engine.analyze(wallgo.Game(), visits=0)
