#!/usr/bin/python3
"""The puzzle tools (tools/puzzles): the theme rules on positions built for
each theme, and the checker failing on files broken in each way it checks.

    puzzles_test.py BUILD_BIN_DIR SOURCE_DIR
"""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

BIN, SOURCE = sys.argv[1], sys.argv[2]
TOOLS = os.path.join(SOURCE, "tools", "puzzles")
sys.path.insert(0, TOOLS)
from themes import theme  # noqa: E402
from puzzle_moves import alike  # noqa: E402

BASE = "players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0 turn=red"

# A 4-player position (the puzzle 4p-4012e2) whose only optimal move, g4g4s,
# ends the game: blue and yellow share the draw on 5, green loses on 3.
SHARED_DRAW = (
    "players=4 setup=empty stay=always wall-limit=unlimited breakers=1 "
    "turn=green red=g3,a4 blue=a3,b7 green=c3,g4 yellow=g1,d6 "
    "red-walls=c2n,e2n,a3n,b3e,d3e,e3n,e3e,f3e,a4n,a4e,b4n,c4n,d4e,e4n,a5e,b5e,c5e,a6n,d6e "
    "blue-walls=a1n,a1e,b1e,c1n,c1e,d1e,a2n,a2e,b2e,c5n,d5e,a6e,b6n,b6e,c6n,a7e,b7e,c7e "
    "green-walls=g2n,b3n,c3n,d3n,f3n,b4e,e4e,f4n,f4e,g4n,b5n,f5e,g5n,e6e,f6n,f6e,g6n,e7e,f7e "
    "yellow-walls=d1n,f1n,g1n,c2e,d2n,d2e,e2e,f2n,f2e,c4e,d4n,d5n,e5e,f5n,c6e,d6n,e6n,d7e "
    "red-breakers=0 blue-breakers=0 green-breakers=0 yellow-breakers=0")


class Themes(unittest.TestCase):
    def test_a_wall_closing_a_corner_seals(self):
        position = f"{BASE} red=a1,d4,e4,f4 blue=g7,g6,g5,f7 red-walls=a1e blue-walls="
        self.assertEqual(theme(position, "a1a1n"), "seal")

    def test_a_wall_cutting_a_stones_moves_traps(self):
        position = f"{BASE} red=e5,a7,b7,a6 blue=c3,g1,g2,f1 red-walls= blue-walls="
        self.assertEqual(theme(position, "e5d4s"), "trap")

    def test_a_wall_shutting_a_stone_into_a_pocket_traps(self):
        # Blue's a1 is walled on the east; red's wall on a2's south shuts it in.
        position = f"{BASE} red=b3,d4,e4,f4 blue=a1,g6,g5,f7 red-walls=a1e blue-walls="
        self.assertEqual(theme(position, "b3a2s"), "trap")

    def test_a_wall_splitting_a_region_with_room_left_seals(self):
        # A wall line from a4 to f4 and red's wall on g4n close the board in two.
        position = (f"{BASE} red=g3,a1,b1,c1 blue=a7,b7,c7,d7 "
                    "red-walls=a4n,b4n,c4n,d4n,e4n,f4n blue-walls=")
        self.assertEqual(theme(position, "g3g4n"), "seal")

    def test_a_quiet_move_at_home_is_tempo(self):
        # a1, b1, a2, b2 walled off from the rest, red alone there.
        position = (f"{BASE} red=a1,d4,e4,f4 blue=g7,g6,g5,f7 "
                    "red-walls=a2n,b2n,b1e,b2e blue-walls=")
        self.assertEqual(theme(position, "a1b1w"), "tempo")

    def test_a_quiet_move_among_others_is_a_race(self):
        position = f"{BASE} red=d4,a1,a2,a3 blue=g7,g6,g5,f7 red-walls= blue-walls="
        self.assertEqual(theme(position, "d4d5n"), "race")

    def test_a_removed_wall_is_a_breaker(self):
        position = ("players=3 setup=fourstone stay=always wall-limit=unlimited "
                    "breakers=1 turn=red red=c3,f6 blue=b4,e2 green=e5,a1 "
                    "red-walls=c4n blue-walls=b4e green-walls=c4e "
                    "red-breakers=1 blue-breakers=1 green-breakers=1")
        self.assertEqual(theme(position, "c3c4xw"), "breaker")

    def test_alike_means_one_stone_one_destination_at_most_three(self):
        self.assertTrue(alike(["c3c5n", "c3c5e"]))
        self.assertFalse(alike(["c3c5n", "c3c4e"]))
        self.assertFalse(alike(["c3c5n", "c3c5e", "c3c5s", "c3c5w"]))
        self.assertFalse(alike(["pass"]))


def check(document, sample):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(document, f)
    try:
        run = subprocess.run(
            ["/usr/bin/python3", os.path.join(TOOLS, "check_puzzles.py"),
             "--build", os.path.dirname(os.path.dirname(BIN)), "--file", f.name,
             "--sample", str(sample), "--seed", "1"],
            capture_output=True, text=True, timeout=600)
    finally:
        os.unlink(f.name)
    return run.returncode, run.stdout


class Checker(unittest.TestCase):
    """Each mutation of a real puzzle is caught; the puzzle itself passes."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(TOOLS, "puzzles.json"), encoding="utf-8") as f:
            cls.shipped = json.load(f)
        # Two-player puzzles prove fastest; take two of them.
        two = [p for p in cls.shipped["puzzles"] if p["id"].startswith("2p-")]
        cls.document = dict(cls.shipped, puzzles=copy.deepcopy(two[:2]))

    def mutated(self, change):
        document = copy.deepcopy(self.document)
        change(document["puzzles"])
        return document

    def test_the_real_puzzles_pass(self):
        code, out = check(self.document, 0)
        self.assertEqual(code, 0, out)

    def test_an_answer_ending_the_game_behind_a_shared_draw_passes(self):
        puzzle = {"id": "4p-4012e2", "position": SHARED_DRAW, "theme": "trap",
                  "rating": 1000, "playouts": 50,
                  "value": {"result": "loss", "margin": -2},
                  "steps": [{"accept": ["g4g4s"], "replies": []}]}
        code, out = check(dict(self.shipped, puzzles=[puzzle]), 0)
        self.assertEqual(code, 0, out)

    def test_a_duplicate_id_fails(self):
        def same_id(ps):
            ps[1]["id"] = ps[0]["id"]
        code, out = check(self.mutated(same_id), -1)
        self.assertEqual(code, 1)
        self.assertIn("id not unique", out)

    def test_an_illegal_accepted_move_fails(self):
        def illegal(ps):
            stones = {s for word in ps[0]["position"].split()
                      if word.split("=")[0] in ("red", "blue", "green", "yellow")
                      for s in word.split("=")[1].split(",")}
            empty = next(f"{c}{r}" for c in "abcdefg" for r in range(1, 8)
                         if f"{c}{r}" not in stones)
            ps[0]["steps"][0]["accept"] = [f"{empty}{empty}n"]
        code, out = check(self.mutated(illegal), -1)
        self.assertEqual(code, 1)
        self.assertIn("not a choice among legal moves", out)

    def test_a_wrong_value_fails_the_proof(self):
        def wrong(ps):
            ps[0]["value"]["margin"] += 1
        code, out = check(self.mutated(wrong), 0)
        self.assertEqual(code, 1)
        self.assertIn("value", out)

    def test_a_dropped_optimal_move_or_wrong_instinct_fails_the_proof(self):
        def swap(ps):
            step = ps[0]["steps"][0]
            ps[0]["instinct"], step["accept"] = step["accept"][0], [ps[0]["instinct"]]
        code, out = check(self.mutated(swap), 0)
        self.assertEqual(code, 1)
        # The proof finds it, or the line already does: the old replies
        # do not follow the new answer.
        self.assertRegex(out, "optimal|illegal|stop early")

    def test_a_position_not_as_printed_fails(self):
        def reorder(ps):
            ps[0]["position"] = ps[0]["position"].replace(" breakers=0", "")
        code, out = check(self.mutated(reorder), -1)
        self.assertEqual(code, 1)
        self.assertIn("not as `position` prints it", out)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
