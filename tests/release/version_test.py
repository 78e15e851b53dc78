#!/usr/bin/python3
"""One version everywhere: CMakeLists.txt's project(VERSION) is what every
program's --version (with one commit for them all, this checkout's; every
--help lists it), the
protocol's `version`, wallgo.__version__, the .deb (CPack), the engine's
package.json, the board's version.json and the WebAssembly engine's
`version` say, and CHANGELOG.md has a section for it.

  version_test.py --source DIR --build DIR [--python DIR] [--site DIR]

--site: the site tools/web/build.sh made (the wasm build); without its
files the test exits 77 (skipped), saying why.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import unittest

ARGS = None
PROGRAMS = ["wallgo", "wallgo-referee", "wallgo-gui", "wallgo-net",
            "wallgo-selfplay", "players_match", "eval_calibrate", "solver_bench"]


def program_path(program):
    """A built program, or the cluster script (a script, not built)."""
    if program == "wallgo-cluster":
        return os.path.join(ARGS.source, "tools", "cluster", program)
    return os.path.join(ARGS.build, "bin", program)


def cmake_version():
    with open(os.path.join(ARGS.source, "CMakeLists.txt")) as f:
        found = re.search(r"project\(wallgo VERSION (\d+\.\d+\.\d+)", f.read())
    assert found, "no project(wallgo VERSION X.Y.Z) in CMakeLists.txt"
    return found.group(1)


def run(command, stdin="", env=None):
    done = subprocess.run(command, input=stdin, capture_output=True, text=True,
                          timeout=120, env=env)
    if done.returncode != 0:
        raise AssertionError(f"{command} exited {done.returncode}: {done.stderr}")
    return done.stdout


class Native(unittest.TestCase):
    def test_every_program_names_the_version_and_one_commit(self):
        version = cmake_version()
        commits = set()
        for program in PROGRAMS:
            line = run([program_path(program), "--version"])
            found = re.fullmatch(rf"{re.escape(program)} (\S+) \(commit (\S+)\)\n", line)
            self.assertTrue(found, f"{program} --version: {line!r}")
            self.assertEqual(found.group(1), version, program)
            commits.add(found.group(2))
        self.assertEqual(len(commits), 1, f"the programs name several commits: {commits}")
        head = subprocess.run(["git", "-C", ARGS.source, "rev-parse", "HEAD"],
                              capture_output=True, text=True)
        if head.returncode == 0:  # a checkout (a source tarball has no .git)
            commit = commits.pop()
            self.assertTrue(head.stdout.startswith(commit.removesuffix("-dirty")),
                            f"the programs were built from {commit}, the checkout is at "
                            f"{head.stdout.strip()}: rebuild")

    def test_every_program_lists_version_in_its_help(self):
        env = dict(os.environ, WALLGO_BIN=os.path.join(ARGS.build, "bin"))
        for program in PROGRAMS + ["wallgo-cluster"]:
            help_text = run([program_path(program), "--help"], env=env)
            self.assertRegex(help_text, r"(?m)^ +(\S+ )?--version +\S",
                             f"{program} --help lists no --version:\n{help_text}")

    def test_version_wins_over_other_options(self):
        # As GNU programs do: wallgo-gui would otherwise start its server.
        line = run([program_path("wallgo-gui"), "--port", "0", "--version"])
        self.assertRegex(line, rf"^wallgo-gui {re.escape(cmake_version())} \(commit ")

    def test_the_cluster_script_names_the_programs_version(self):
        env = dict(os.environ, WALLGO_BIN=os.path.join(ARGS.build, "bin"))
        line = run([program_path("wallgo-cluster"), "--version"], env=env)
        engine = run([program_path("wallgo"), "--version"])
        self.assertEqual(line, "wallgo-cluster " + engine.removeprefix("wallgo "))

    def test_the_protocol_answers_the_version(self):
        answer = run([os.path.join(ARGS.build, "bin", "wallgo")], "version\nquit\n")
        self.assertEqual(answer.split("\n")[0], f"= {cmake_version()}")

    def test_the_deb_has_the_version(self):
        with open(os.path.join(ARGS.build, "CPackConfig.cmake")) as f:
            found = re.search(r'set\(CPACK_PACKAGE_VERSION "([^"]*)"\)', f.read())
        self.assertTrue(found)
        self.assertEqual(found.group(1), cmake_version())

    def test_the_changelog_has_the_version(self):
        with open(os.path.join(ARGS.source, "CHANGELOG.md")) as f:
            self.assertRegex(f.read(), rf"\n## \[{re.escape(cmake_version())}\] - \d{{4}}-\d\d-\d\d\n")

    def test_no_document_names_another_version_s_package(self):
        # A versioned file name written by hand goes stale at the next release.
        for name in ("README.md", "docs/release.md"):
            with open(os.path.join(ARGS.source, name)) as f:
                for stale in re.findall(r"wallgo[_-]\d+\.\d+\.\d+", f.read()):
                    self.fail(f"{name} names {stale}: write the version as a variable")


class Python(unittest.TestCase):
    def test_the_python_module_has_the_version(self):
        env = dict(os.environ, PYTHONPATH=ARGS.python,
                   PYTHONDONTWRITEBYTECODE="1")
        out = run([sys.executable, "-c", "import wallgo; print(wallgo.__version__)"],
                  env=env)
        self.assertEqual(out, cmake_version() + "\n")


class Web(unittest.TestCase):
    def test_the_engine_package_has_the_version(self):
        with open(os.path.join(ARGS.site, "engine", "package.json")) as f:
            package = json.load(f)
        self.assertEqual(package["version"], cmake_version())
        self.assertEqual(package["license"], "MIT")

    def test_the_board_has_the_version(self):
        # tools/web/build.sh writes version.json (what the board's about
        # panel shows) from CMakeLists.txt's project(VERSION).
        path = os.path.join(ARGS.site, "version.json")
        self.assertTrue(os.path.exists(path), f"no {path}: tools/web/build.sh writes it")
        with open(path) as f:
            board = json.load(f)
        self.assertEqual(board["version"], cmake_version())
        native = run([os.path.join(ARGS.build, "bin", "wallgo"), "--version"])
        commit = re.search(r"\(commit (\S+)\)", native).group(1).removesuffix("-dirty")
        self.assertTrue(board["commit"].startswith(commit) or commit.startswith(board["commit"]),
                        f"version.json's commit {board['commit']}, the programs' {commit}")

    def test_the_wasm_engine_answers_the_version(self):
        env = dict(os.environ, NODE_PATH="/usr/share/nodejs")
        answer = run(["node", os.path.join(ARGS.site, "engine", "wallgo-node.js")],
                     "version\nquit\n", env=env)
        self.assertEqual(answer.split("\n")[0], f"= {cmake_version()}")


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--python", help="the built package's folder (WALLGO_PYTHON)")
    parser.add_argument("--site")
    ARGS, rest = parser.parse_known_args()
    tests = unittest.TestSuite()
    loader = unittest.defaultTestLoader
    tests.addTests(loader.loadTestsFromTestCase(Native))
    if ARGS.python:
        tests.addTests(loader.loadTestsFromTestCase(Python))
    if ARGS.site:
        if not os.path.exists(os.path.join(ARGS.site, "engine", "wallgo-web.wasm")):
            print(f"skipped: no wasm build in {ARGS.site} (the web_build test makes it)")
            return 77
        tests.addTests(loader.loadTestsFromTestCase(Web))
    result = unittest.TextTestRunner(verbosity=2).run(tests)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
