#!/usr/bin/python3
"""The WebAssembly engine (tools/web, docs/web.md) against the native one.

Run by CTest after the `web_build` test has built this checkout for wasm
(tools/web/build.sh into --web-build); exits 77 (CTest: skipped), saying
why, when that build is missing. Both engines get the same protocol lines
and must print the same bytes: perft counts, and with one thread, a seed
and a fixed number of visits, the moves the search plays; and the network's
values and priors, printed as exact hexadecimal floats, must be equal to
the bit. The single-threaded build (its threads are fibers, for pages
without cross-origin isolation) passes the same checks.
"""
import argparse
import os
import subprocess
import sys
import time
import unittest

ARGS = None  # the command line, parsed before unittest runs

# Node 20 and emscripten's output (docs/web.md).
NODE_ENV = dict(os.environ, NODE_PATH="/usr/share/nodejs")
# The Node runner with the single-threaded build (tools/web/engine).
SINGLE_ENV = dict(NODE_ENV, WALLGO_SINGLE_THREADED="1")


def node_runner():
    return os.path.join(ARGS.web_build, "site", "engine", "wallgo-node.js")


def run(command, text, timeout=240, env=NODE_ENV):
    done = subprocess.run(command, input=text, capture_output=True,
                          text=True, timeout=timeout, env=env)
    return done.returncode, done.stdout, done.stderr


def converse(command, lines, env=NODE_ENV):
    """What `command` answers to `lines`, sent one at a time, each after
    the answer to the one before (an answer ends with an empty line), so
    that no search is cut short by input arriving while it runs."""
    engine = subprocess.Popen(command, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, env=env)
    answers = converse_more(engine, lines)
    engine.stdin.close()
    assert engine.wait(timeout=60) == 0
    engine.stdout.close()
    return answers


def converse_more(engine, lines):
    """The answers of a running `engine` to `lines`, one at a time."""
    answers = []
    for line in lines:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        answer = []
        while True:
            out = engine.stdout.readline()
            assert out, f"the engine ended at {line!r}"
            if out == "\n":
                break
            answer.append(out)
        answers.append("".join(answer))
    return answers


def run_read_late(command, text, env=NODE_ENV):
    """(status, stdout) of `command` given `text`, its output read only two
    seconds after: it must wait for the reader, not end and lose what the
    pipe (64 KB) could not hold."""
    program = subprocess.Popen(command, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, env=env)
    program.stdin.write(text)
    program.stdin.close()
    time.sleep(2)
    out = program.stdout.read()
    program.stdout.close()
    return program.wait(timeout=60), out


def both(flags, text, env=NODE_ENV):
    """(native answers, wasm answers) to the same flags and protocol lines."""
    lines = text.splitlines()
    return (converse([ARGS.wallgo] + flags, lines),
            converse(["node", node_runner()] + flags, lines, env))


# A few turns of games of 2, 3 and 4 players, each searched, then counted.
SEARCH_AND_PERFT = """\
newgame
perft 4
genmove red
genmove blue
genmove blue
genmove red
genmove red
genmove blue
perft 3
newgame players=3
genmove red
genmove blue
genmove green
perft 3
newgame players=4 wall-limit=2
genmove red
genmove blue
perft 3
"""


class WasmEqualsNative(unittest.TestCase):
    ENV = NODE_ENV  # the threaded build

    def test_perft_and_fixed_visit_moves_are_equal(self):
        flags = ["--threads", "1", "--visits", "300", "--movetime", "0",
                 "--seed", "11", "--hash", "32"]
        native, wasm = both(flags, SEARCH_AND_PERFT, self.ENV)
        self.assertEqual(native[1], "= 3575880\n")  # perft 4 of the start
        self.assertFalse([a for a in native if a.startswith("?")], native)
        self.assertEqual(native, wasm)

    def test_the_network_values_are_equal_to_the_bit(self):
        for flags in (["--eval", "net"], ["--eval", "hybrid"]):
            native, wasm = both(
                ["--threads", "1", "--visits", "400", "--movetime", "0",
                 "--seed", "5", "--hash", "32"] + flags,
                "genmove red\ngenmove blue\ngenmove blue\ngenmove red\n",
                self.ENV)
            self.assertEqual(native, wasm, flags)

    def test_the_network_program_s_values_are_equal_to_the_bit(self):
        code, native, err = run([ARGS.net_values, "3", "7"], "")
        self.assertEqual(code, 0, err)
        # The single-threaded build's (tools/web/build.sh): the same SIMD
        # code as the threaded one's.
        wasm_program = os.path.join(ARGS.web_build, "engine-st", "bin",
                                    "wallgo-net-values.js")
        # Read late: the whole output (138 KB) comes even so.
        self.assertGreater(len(native), 1 << 17)
        self.assertEqual(run_read_late(["node", "--no-experimental-fetch",
                                        wasm_program, "3", "7"], ""),
                         (0, native))

    def test_the_basics_transcript_is_native_s_but_for_the_hash_limit(self):
        # tests/protocol/golden/basics.in (web_protocol_test runs the other
        # transcripts): the whole input at once, as that test sends it.
        golden = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "..", "..", "protocol", "golden", "basics.in")
        with open(golden) as transcript:
            text = transcript.read()
        flags = ["--threads", "1", "--visits", "40", "--movetime", "0",
                 "--seed", "7", "--hash", "16"]
        code, native, err = run([ARGS.wallgo] + flags, text)
        self.assertEqual(code, 0, err)
        code, wasm, err = run(["node", node_runner()] + flags, text, env=self.ENV)
        self.assertEqual(code, 0, err)
        native_limit = "hash type=int min=1 max=65536 "
        self.assertIn(native_limit, native)
        self.assertEqual(native.replace(native_limit, "hash type=int min=1 max=1024 "), wasm)

    def test_a_slow_reader_gets_all_of_the_output(self):
        # 200 boards, 138 KB, then quit: the exit waits for stdout to drain.
        text = "showboard\n" * 200 + "quit\n"
        code, native, err = run([ARGS.wallgo], text)
        self.assertEqual(code, 0, err)
        self.assertGreater(len(native), 1 << 17)
        self.assertEqual(run_read_late(["node", node_runner()], text, self.ENV),
                         (0, native))

    def test_a_reader_that_closes_stdout_ends_the_engine_quietly(self):
        # As SIGPIPE ends the native engine: status 141, no stack trace.
        engine = subprocess.Popen(["node", node_runner()],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=self.ENV)
        engine.stdin.write(b"showboard\n" * 300 + b"quit\n")
        engine.stdin.close()
        self.assertEqual(engine.stdout.readline(), b"=\n")
        engine.stdout.close()
        self.assertEqual(engine.wait(timeout=60), 141)
        self.assertEqual(engine.stderr.read(), b"")
        engine.stderr.close()

    def test_bad_input_is_answered_not_fatal(self):
        code, out, err = run(["node", node_runner()],
                             "bogus\n7 play z9\nset_option hash 999999\n"
                             "set_option hash 2048\n8 name\nquit\n",
                             env=self.ENV)
        self.assertEqual(code, 0, err)
        answers = out.split("\n\n")
        self.assertTrue(answers[0].startswith("? "), out)
        self.assertTrue(answers[1].startswith("?7 "), out)
        self.assertTrue(answers[2].startswith("? "), out)
        # More than the browser's memory can hold: refused, not fatal.
        self.assertTrue(answers[3].startswith("? "), out)
        self.assertIn("1024", answers[3])
        self.assertEqual(answers[4], "=8 wallgo")

    def test_a_hash_beyond_the_memory_to_be_had_is_refused(self):
        # The engine's memory ends at 2 GB: with a 1024 MB graph in use
        # (the genmove builds it), 1023 MB more cannot be had, as on a phone
        # that gives the page less. Refused with a message; the engine plays
        # on with its graph. The same value again is no change.
        answers = converse(
            ["node", node_runner(), "--threads", "1", "--visits", "50",
             "--movetime", "0"],
            ["set_option hash 1024", "genmove red", "set_option hash 1023",
             "set_option hash 1024", "get_option hash", "genmove blue",
             "quit"], self.ENV)
        self.assertEqual(answers[0], "=\n")
        self.assertEqual(answers[2], "? hash 1023 MB is more memory than this "
                         "engine can get here, beside what it holds; the hash "
                         "is unchanged\n")
        self.assertEqual(answers[3], "=\n")
        self.assertEqual(answers[4], "= 1024\n")
        self.assertRegex(answers[5], r"^= [a-g][1-7]")

    def test_a_bad_flag_is_a_usage_error(self):
        code, _, err = run(["node", node_runner(), "--bogus", "1"], "",
                           env=self.ENV)
        self.assertEqual(code, 2)
        self.assertIn("--bogus", err)


    def test_a_new_line_ends_a_two_thread_analysis(self):
        # Two search threads (fibers in the single-threaded build) analyse
        # until a new line comes; then a fixed-visit move, and quit.
        engine = subprocess.Popen(
            ["node", node_runner(), "--threads", "2", "--hash", "32"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, env=self.ENV)
        engine.stdin.write("1 analyze 25\n")
        engine.stdin.flush()
        infos = 0
        while infos < 3:  # a few reports: the search runs
            line = engine.stdout.readline()
            self.assertTrue(line, "the engine ended while analysing")
            infos += line.startswith("info ")
        # Any new line ends the analysis (docs/protocol.md) and is then
        # answered.
        asked = time.monotonic()
        engine.stdin.write("3 name\n")
        engine.stdin.flush()
        while engine.stdout.readline() != "=3 wallgo\n":
            pass
        self.assertEqual(engine.stdout.readline(), "\n")  # the answer's end
        print(f"a new line ended analyze, answered in "
              f"{(time.monotonic() - asked) * 1000:.0f} ms "
              f"({'single' if self.ENV is SINGLE_ENV else 'threaded'})")
        answers = converse_more(engine, ["set_option visits 200",
                                         "2 genmove red", "quit"])
        self.assertTrue(answers[1].startswith("=2 "), answers)
        self.assertEqual(engine.wait(timeout=30), 0)
        engine.stdin.close()
        engine.stdout.close()


class SingleThreadedEqualsNative(WasmEqualsNative):
    ENV = SINGLE_ENV
    # The values program is one build (single-threaded), run once above; not
    # a test here (a skipped test would fail CI, which counts skips).
    test_the_network_program_s_values_are_equal_to_the_bit = None


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--web-build", required=True)
    parser.add_argument("--wallgo", required=True)
    parser.add_argument("--net-values", required=True)
    ARGS, rest = parser.parse_known_args()
    if not os.path.exists(node_runner()):
        print(f"skipped: no wasm build in {ARGS.web_build} "
              "(the web_build test makes it; see its output)")
        sys.exit(77)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
