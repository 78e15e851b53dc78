"""The pre-emption contract (docs/cluster.md), program by program: SIGTERM
mid-run makes each batch program stop within 2 s, exit with status 75, end
its engine processes and leave whole lines only; a --resume run then
completes the work with every game, game annotation or query exactly once.

Usage: preemption_test.py --bin BUILD/bin [unittest args, e.g. -k Match]
"""
import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

BIN = None
EXIT_INTERRUPTED = 75
STOP_LIMIT_S = 2.0


def engine(name, args):
    return f"name={name}:{BIN}/wallgo --hash 16 {args}"


def json_lines(path):
    """The file's lines as JSON; fails on a cut-short or bad line."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert text == "" or text.endswith("\n"), f"{path}: last line cut short"
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def engines_running(marker):
    """Processes whose command line holds `marker` (this test's engines)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


class Preemption(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = lambda name: os.path.join(self.dir.name, name)

    def tearDown(self):
        self.dir.cleanup()

    def interrupt(self, command, after_s, until_file=None, header=False):
        """Runs `command`, waits until `until_file` has a line (if given)
        and `after_s` more, sends SIGTERM; returns (status, seconds to exit,
        output)."""
        proc = subprocess.Popen(command, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        # Until the file holds something beyond what it had when first seen
        # (a data file starts with a header: a whole game must follow).
        first_size = None
        while until_file and time.monotonic() < deadline:
            size = os.path.getsize(until_file) if os.path.exists(until_file) else 0
            if size > 0 or not header:  # a header is written in a step of its own
                first_size = size if first_size is None else first_size
                if size > first_size:
                    break
            if proc.poll() is not None:
                break
            time.sleep(0.02)
        time.sleep(after_s)
        if proc.poll() is not None:
            self.fail("finished before the signal: " + proc.communicate()[0])
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=30)
        return proc.returncode, time.monotonic() - start, output

    def check_stopped(self, status, seconds, output, marker):
        self.assertEqual(status, EXIT_INTERRUPTED, output)
        self.assertLess(seconds, STOP_LIMIT_S, output)
        time.sleep(0.2)
        self.assertEqual(engines_running(marker), [], "engines left running")

    def check_resumed(self, command, path, count):
        """--resume finishes the work: games 1..count, each once."""
        done = subprocess.run(command + ["--resume"], capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        games = collections.Counter(r["game"] for r in json_lines(path))
        self.assertEqual(sorted(games), list(range(1, count + 1)))
        self.assertEqual(max(games.values()), 1)

    def test_match(self):
        records = self.path("match.jsonl")
        marker = "--seed 4242"  # marks this test's engines in ps
        command = [f"{BIN}/wallgo-referee", "-q", "--games", "16",
                   "--concurrency", "2", "--records", records,
                   "--engine", engine("a", f"--visits 3000 {marker}"),
                   "--engine", engine("b", f"--visits 1000 {marker}")]
        status, seconds, output = self.interrupt(command, 0.3, records)
        self.check_stopped(status, seconds, output, marker)
        before = [r["game"] for r in json_lines(records)]
        self.assertLess(len(before), 16)
        self.check_resumed(command, records, 16)

    def test_annotate(self):
        records = self.path("games.jsonl")
        subprocess.run([f"{BIN}/wallgo-referee", "-q", "--games", "6",
                        "--records", records,
                        "--engine", engine("a", "--visits 50"),
                        "--engine", engine("b", "--level 2")],
                       check=True, capture_output=True)
        out = self.path("annotated.jsonl")
        marker = "--seed 4343"
        command = [f"{BIN}/wallgo-referee", "annotate", records, "-q",
                   "--visits", "2000", "--output", out,
                   "--engine", f"{BIN}/wallgo --hash 16 {marker}"]
        status, seconds, output = self.interrupt(command, 0.2, out)
        self.check_stopped(status, seconds, output, marker)
        self.assertLess(len(json_lines(out)), 6)
        self.check_resumed(command, out, 6)

    def write_queries(self, count, visits):
        path = self.path("queries.jsonl")
        placements = ["c3", "e3", "c5", "e5"]  # free in the start position
        with open(path, "w", encoding="utf-8") as f:
            for i in range(count):
                moves = placements[:1 + i % 4]
                f.write(json.dumps({"id": f"q{i}", "moves": moves,
                                    "analyzeTurns": [0, len(moves)],
                                    "maxVisits": visits}) + "\n")
        return path

    def test_analysis(self):
        queries = self.write_queries(24, 6000)
        answers = self.path("answers.jsonl")
        command = [f"{BIN}/wallgo", "--hash", "16", "analysis",
                   "--queries", queries, "--answers", answers]
        status, seconds, output = self.interrupt(command, 0.2, answers)
        self.assertEqual(status, EXIT_INTERRUPTED, output)
        self.assertLess(seconds, STOP_LIMIT_S, output)
        partial = json_lines(answers)  # whole lines only
        self.assertLess(len(partial), 48)
        self.assertTrue(all("terminated" not in a for a in partial))
        done = subprocess.run(command + ["--resume"], capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        merged = subprocess.run(
            [f"{BIN}/wallgo", "analysis", "--queries", queries, "--merge",
             answers], capture_output=True, text=True)
        self.assertEqual(merged.returncode, 0, merged.stderr)
        keys = [(a["id"], a["turnNumber"])
                for a in map(json.loads, merged.stdout.splitlines())]
        with open(queries, encoding="utf-8") as f:
            expected = [(q["id"], t) for q in map(json.loads, f)
                        for t in q["analyzeTurns"]]
        self.assertEqual(keys, expected)
        # The merge checks exactly once: a turn twice, or none, is an error.
        twice = subprocess.run(
            [f"{BIN}/wallgo", "analysis", "--queries", queries, "--merge",
             answers, answers], capture_output=True, text=True)
        self.assertEqual(twice.returncode, 1)
        self.assertIn("answered twice", twice.stderr)
        short = self.path("short.jsonl")
        with open(answers, encoding="utf-8") as f:
            lines = f.readlines()
        with open(short, "w", encoding="utf-8") as f:
            f.writelines(lines[1:])
        missing = subprocess.run(
            [f"{BIN}/wallgo", "analysis", "--queries", queries, "--merge",
             short], capture_output=True, text=True)
        self.assertEqual(missing.returncode, 1)
        self.assertIn("has no answer", missing.stderr)

    def test_analysis_stream(self):
        """Queries on stdin, the input left open: SIGTERM still ends it."""
        proc = subprocess.Popen([f"{BIN}/wallgo", "--hash", "16", "analysis"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        for i in range(4):
            proc.stdin.write(json.dumps({"id": f"s{i}", "moves": ["c3"],
                                         "maxVisits": 10**7}) + "\n")
        proc.stdin.flush()
        time.sleep(0.5)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, EXIT_INTERRUPTED, err)
        self.assertLess(time.monotonic() - start, STOP_LIMIT_S)
        self.assertEqual(out, "")  # no answer cut short by the stop

    def test_generate(self):
        data = self.path("data.wgd")
        command = [f"{BIN}/wallgo-net", "generate", "--out", data, "--games",
                   "60", "--visits", "300", "--jobs", "2", "--quiet"]
        status, seconds, output = self.interrupt(command, 0.1, data, header=True)
        self.assertEqual(status, EXIT_INTERRUPTED, output)
        self.assertLess(seconds, STOP_LIMIT_S, output)
        self.assertIn("interrupted", output)
        done = subprocess.run(command, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        # "N games were there, M played": N + M == 60, nothing played twice.
        words = done.stdout.split()
        there = int(words[words.index("were") - 2])
        played = int(words[words.index("played,") - 1])
        self.assertGreater(there, 0)
        self.assertEqual(there + played, 60, done.stdout)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args, rest = parser.parse_known_args()
    BIN = os.path.abspath(args.bin)
    unittest.main(argv=[sys.argv[0]] + rest)
