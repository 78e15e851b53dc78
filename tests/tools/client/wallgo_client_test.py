#!/usr/bin/python3
"""The scripts' Python client (tools/client/wallgo_client.py) against the
real engine: answers, refusals and a dying engine as EngineError, `solve`'s
answer parsed, a finished game's value for every seat, and analysis answers
gathered by their id.

    wallgo_client_test.py BUILD_BIN/wallgo SOURCE_DIR
"""

import os
import sys
import unittest

WALLGO, SOURCE = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SOURCE, "tools", "client"))
from wallgo_client import (Analysis, EngineError, Protocol,  # noqa: E402
                           field, final_value, final_values, parse_solve,
                           value_key)

# A puzzle's position (2p-2dde75), six plies from the end: the solver
# proves it in milliseconds.
NEAR_END = ("players=2 setup=fourstone stay=always wall-limit=unlimited "
            "breakers=0 turn=red red=b1,a4,c6,e6 blue=c2,e5,b6,d6 "
            "red-walls=b1n,c1e,d1e,b2n,b2e,d2e,a3n,a3e,c3e,f3e,e4n,a5n,d5e,"
            "f5e,b6e,c6n,d6e,f6e,d7e blue-walls=c1n,e1n,d2n,f2e,b3n,c3n,f3n,"
            "b4n,c4e,d4n,f4e,g4n,a5e,b5n,c5n,e5n,f5n,d6n,e6e")


class ProtocolClient(unittest.TestCase):
    def setUp(self):
        self.engine = Protocol([WALLGO, "--threads", "1"], hash_mb=16)

    def tearDown(self):
        self.engine.close()

    def test_answers_and_positions(self):
        self.engine.command("newgame players=3")
        self.assertEqual(field(self.engine.position(), "players"), "3")
        self.assertEqual(self.engine.to_move(), "red")
        self.assertIn("d4", self.engine.legal_moves())
        self.engine.play("d4")
        self.assertEqual(self.engine.to_move(), "blue")
        self.assertFalse(self.engine.is_over())
        self.assertEqual(field("players=2 turn=red", "absent"), "")

    def test_a_refusal_is_an_error_and_the_engine_goes_on(self):
        with self.assertRaisesRegex(EngineError, "play"):
            self.engine.command("play red z9")
        self.assertTrue(self.engine.exchange("play red z9")[0].startswith("?"))
        self.assertEqual(self.engine.to_move(), "red")

    def test_a_solve_is_parsed(self):
        self.engine.setup(NEAR_END)
        answer = self.engine.solve(20)
        self.assertTrue(answer["proven"], answer)
        result, margin = answer["values"]["red"]
        self.assertEqual((result, margin), (answer["result"], answer["margin"]))
        self.assertEqual(answer["values"]["blue"][1], -margin)
        self.assertTrue(answer["optimal"])
        self.assertIn(answer["pv"][0], answer["optimal"])

    def test_an_engine_that_ends_is_an_error(self):
        self.engine.command("quit")
        with self.assertRaisesRegex(EngineError, "ended"):
            self.engine.command("position")


class Values(unittest.TestCase):
    def test_a_player_behind_a_shared_draw_loses(self):
        values = final_values("red=2 blue=5 green=3 yellow=5 status=final "
                              "winner=draw")
        self.assertEqual(values, {"red": ("loss", -3), "blue": ("draw", 0),
                                  "green": ("loss", -2), "yellow": ("draw", 0)})
        score = "red=19 blue=13 status=final winner=red"
        self.assertEqual(final_value(score, "red"), ("win", 6))
        self.assertEqual(final_value(score, "blue"), ("loss", -6))

    def test_a_top_score_lost_on_the_tie_break_is_a_loss_by_0(self):
        values = final_values("red=4 blue=4 green=1 status=final winner=blue")
        self.assertEqual(values["red"], ("loss", 0))
        self.assertEqual(values["blue"], ("win", 0))

    def test_three_at_the_top_of_a_draw_are_undecided(self):
        # The tie-break by the largest region may leave one of them out.
        values = final_values("red=4 blue=4 green=4 yellow=1 status=final "
                              "winner=draw")
        self.assertEqual([values[c] for c in ("red", "blue", "green")],
                         [None] * 3)
        self.assertEqual(final_value("red=4 blue=4 green=4 yellow=1 "
                                     "status=final winner=draw", "yellow"),
                         ("loss", -3))

    def test_values_sort_as_a_player_prefers(self):
        self.assertLess(value_key("loss", 5), value_key("draw", -2))
        self.assertLess(value_key("win", 1), value_key("win", 3))

    def test_an_unproven_solve_has_no_value(self):
        answer = parse_solve(["", "result unproven", "nodes 1000"])
        self.assertFalse(answer["proven"])
        self.assertEqual(answer["values"], {})
        self.assertNotIn("range", answer)

    def test_an_unproven_solve_keeps_its_range(self):
        answer = parse_solve(["result unproven depth 2 nodes 1024",
                              "range win 3 win 22",
                              "regions settled 6 contested 1 cells 12 "
                              "independent"])
        self.assertFalse(answer["proven"])
        self.assertEqual(answer["range"], (("win", 3), ("win", 22)))


class AnalysisClient(unittest.TestCase):
    def test_every_turn_asked_is_answered(self):
        analysis = Analysis([WALLGO], ["--analysis-threads", "1",
                                       "--search-threads", "1", "--hash", "16"])
        try:
            answers = analysis.ask({"rules": "players=2",
                                    "moves": ["c3", "e3", "c5", "e5"],
                                    "analyzeTurns": [2, 4], "maxVisits": 20},
                                   answers=2)
            self.assertEqual(sorted(a["turnNumber"] for a in answers), [2, 4])
            with self.assertRaises(EngineError):
                analysis.ask({"rules": "players=9", "moves": []})
            self.assertTrue(analysis.ask({"rules": "players=2", "moves": [],
                                          "maxVisits": 5})[0]["moveInfos"])
        finally:
            analysis.close()


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
