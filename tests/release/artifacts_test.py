#!/usr/bin/python3
"""Every release artifact installed and used as its users would
(docs/release.md). tools/release.sh's steps pack this build's trees (the
native build BUILD, the site tools/web/build.sh made), then:
- the .deb, unpacked with dpkg-deb -x: its programs answer, its engine
  plays, `import wallgo` works from its files, its copyright is DEP-5;
- the npm tarball, `npm install`ed into an empty folder: the Node engine
  plays (threaded and single-threaded), and a page on the installed package
  plays with and without isolation (tests/tools/web/browser_test.py);
- the site zip, unzipped: it holds the board's two builds and no other (the
  engine's package is the npm tarball's), and the board plays served as
  `python3 -m http.server` serves it (tests/tools/web/site_test.py
  plain_host).

  artifacts_test.py --source DIR --build DIR --site DIR

Exits 77 (skipped), saying why, without the wasm build.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

ARGS = None
TMP = None  # this run's folder, removed at the end


def version():
    with open(os.path.join(ARGS.source, "CMakeLists.txt")) as f:
        return re.search(r"project\(wallgo VERSION (\S+)", f.read()).group(1)


def run(command, stdin="", env=None, cwd=None, timeout=300):
    done = subprocess.run(command, input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"{command} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def release_step(*args):
    return run([os.path.join(ARGS.source, "tools", "release.sh"), *args])


def answers(transcript):
    """The protocol's answer lines ('=' or '?'), in order."""
    return [line for line in transcript.split("\n") if line.startswith(("=", "?"))]


class Deb(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dist = os.path.join(TMP, "deb-dist")
        release_step("deb", ARGS.build, cls.dist)
        (cls.deb,) = glob.glob(os.path.join(cls.dist, "wallgo_*.deb"))
        cls.root = os.path.join(TMP, "deb-root")
        run(["dpkg-deb", "-x", cls.deb, cls.root])

    def test_named_and_versioned_from_cmake(self):
        self.assertEqual(run(["dpkg-deb", "-f", self.deb, "Version"]).strip(), version())
        self.assertTrue(os.path.basename(self.deb).startswith(f"wallgo_{version()}_"))

    def test_its_programs_answer_and_its_engine_plays(self):
        bin_dir = os.path.join(self.root, "usr", "bin")
        for program in ("wallgo", "wallgo-referee", "wallgo-gui", "wallgo-net"):
            line = run([os.path.join(bin_dir, program), "--version"])
            self.assertRegex(line, rf"^{program} {re.escape(version())} \(commit ")
        transcript = run([os.path.join(bin_dir, "wallgo"), "--visits", "50"],
                         "newgame\ngenmove red\nquit\n")
        self.assertRegex(answers(transcript)[1], r"^= [a-g][1-7]", transcript)
        self.assertIn("wallgo-cluster match", run([os.path.join(bin_dir, "wallgo-cluster"), "--help"]))

    def test_the_python_module_imports_from_its_files(self):
        (site_packages,) = glob.glob(os.path.join(self.root, "usr", "lib", "python3*", "dist-packages"))
        env = dict(os.environ, PYTHONPATH=site_packages, PYTHONDONTWRITEBYTECODE="1")
        out = run([sys.executable, "-c",
                   "import wallgo; print(wallgo.__version__, wallgo.__file__);"
                   "g = wallgo.Game('players=2'); print(len(g.legal_moves()))"], env=env)
        module_version, path, moves = out.split()
        self.assertEqual(module_version, version())
        self.assertTrue(path.startswith(site_packages), path)
        self.assertGreater(int(moves), 0)

    def test_lintian_finds_no_error(self):
        # Nothing suppressed: the maintainer (WALLGO_MAINTAINER's default
        # included) must be a well-formed address on a real-looking host.
        done = subprocess.run(["lintian", "--fail-on", "error", "--tag-display-limit", "0",
                               self.deb], capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertNotIn("E: ", done.stdout)
        maintainer = run(["dpkg-deb", "-f", self.deb, "Maintainer"]).strip()
        self.assertRegex(maintainer, r"^[^<>@]+ <[^<>@\s]+@[^<>@\s]+\.[a-z]+>$")
        self.assertNotIn("localhost", maintainer)

    def test_the_copyright_is_dep5_and_mit(self):
        with open(os.path.join(self.root, "usr", "share", "doc", "wallgo", "copyright")) as f:
            text = f.read()
        self.assertTrue(text.startswith(
            "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        self.assertIn("License: Expat", text)


class NpmPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dist = os.path.join(TMP, "npm-dist")
        release_step("npm", ARGS.site, cls.dist)
        (cls.tarball,) = glob.glob(os.path.join(cls.dist, "wallgo-engine-*.tgz"))
        cls.app = os.path.join(TMP, "app")
        os.makedirs(cls.app)
        env = dict(os.environ, npm_config_cache=os.path.join(TMP, "npm-cache"),
                   npm_config_update_notifier="false")
        run(["npm", "install", "--offline", "--no-audit", "--no-fund",
             "--ignore-scripts", cls.tarball], cwd=cls.app, env=env)
        cls.package = os.path.join(cls.app, "node_modules", "wallgo-engine")

    def test_it_holds_both_builds_the_types_and_the_licence(self):
        self.assertEqual(os.path.basename(self.tarball), f"wallgo-engine-{version()}.tgz")
        with tarfile.open(self.tarball) as tar:
            names = set(tar.getnames())
        for name in ("wallgo.mjs", "wallgo.d.mts", "wallgo-node.js", "wallgo-worker.js",
                     "wallgo-web.js", "wallgo-web.wasm", "wallgo-web.worker.js",
                     "wallgo-web-st.js", "wallgo-web-st.wasm", "console.html", "README.md",
                     "LICENSE", "package.json"):
            self.assertIn(f"package/{name}", names)

    def test_node_plays_a_move_threaded_and_single_threaded(self):
        for single in ("0", "1"):
            env = dict(os.environ, NODE_PATH="/usr/share/nodejs", WALLGO_SINGLE_THREADED=single)
            transcript = run(["node", os.path.join(self.app, "node_modules", ".bin", "wallgo-node")],
                             "set_option visits 50\nnewgame\ngenmove red\nquit\n", env=env)
            self.assertRegex(answers(transcript)[2], r"^= [a-g][1-7]", transcript)

    def test_a_page_plays_with_and_without_isolation(self):
        # The package's own protocol console, served from the installed
        # package (as engine/, where browser_test.py looks for it).
        page = os.path.join(TMP, "npm-page")
        os.makedirs(page)
        os.symlink(self.package, os.path.join(page, "engine"))
        run([sys.executable, os.path.join(ARGS.source, "tests", "tools", "web", "browser_test.py"),
             "--site", page], timeout=400)


class SiteZip(unittest.TestCase):
    def test_the_unzipped_board_plays_from_a_plain_static_server(self):
        dist = os.path.join(TMP, "site-dist")
        release_step("site", ARGS.site, dist)
        archive = os.path.join(dist, f"wallgo-site-{version()}.zip")
        site = os.path.join(TMP, "site")
        with zipfile.ZipFile(archive) as z:
            names = z.namelist()
            self.assertEqual(names, sorted(names))
            for name in ("index.html", "_headers", "LICENSE", "wallgo-site.wasm",
                         "wallgo-site-st.wasm"):
                self.assertIn(name, names)
            # Each build once: the board's two; the engine's package
            # (engine/) is the npm tarball's, not the site's.
            self.assertEqual([n for n in names if n.endswith(".wasm")],
                             ["wallgo-site-st.wasm", "wallgo-site.wasm"])
            self.assertEqual([n for n in names if n.startswith("engine/")], [])
            z.extractall(site)
        run([sys.executable, os.path.join(ARGS.source, "tests", "tools", "web", "site_test.py"),
             "plain_host", "--site", site, "--bin", os.path.join(ARGS.build, "bin"),
             "--shots", os.path.join(TMP, "shots")], timeout=300)


def main():
    global ARGS, TMP
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--site", required=True)
    ARGS, rest = parser.parse_known_args()
    if not os.path.exists(os.path.join(ARGS.site, "engine", "wallgo-web.wasm")):
        print(f"skipped: no wasm build in {ARGS.site} (the web_build test makes it)")
        return 77
    with tempfile.TemporaryDirectory(prefix="wallgo-release-") as TMP:
        program = unittest.main(argv=[sys.argv[0]] + rest, exit=False)
        return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
