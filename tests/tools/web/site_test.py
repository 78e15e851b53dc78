#!/usr/bin/python3
"""The players' board as a static site (tools/web/build.sh's index.html: the
GUI's bridge and the engine in a Web Worker, docs/web.md) in a real browser:
Debian's chromium via chromium-driver and python3-selenium, headless, the
site served on loopback by tools/web/serve.py on a thread here, with the
COOP/COEP headers or without them (as `python3 -m http.server` serves it).

  site_test.py TEST --site DIR --bin DIR --shots DIR

The page is wallgo-gui's, so the GUI's browser tests' page driver
(tests/tools/gui/browser_support.py: clicks like a person) drives it here too.
Exits 77 (CTest: skipped), saying why, when the wasm build is missing.
"""
import argparse
import json
import os
import sys
import tempfile
import threading
import time

from selenium.webdriver.support.ui import Select

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "web"))
import serve  # noqa: E402  (tools/web/serve.py: the COOP/COEP static server)
sys.path.insert(0, os.path.join(HERE, "..", "gui"))
import browser_support as gui  # noqa: E402  (the GUI's browser tests' page driver)


check, wait = gui.check, gui.wait


class Site(gui.Gui):
    """The static site on 127.0.0.1 (a free port, a thread of this process)
    and a headless chromium on its index.html."""

    def __init__(self, args, isolate=True, path="index.html", host=None, phone=None, site=None,
                 flags=()):
        """`host`: a name for the page's address instead of 127.0.0.1,
        which the browser resolves to 127.0.0.1 (an origin that is not
        loopback's, so not a secure context over http). `phone`: (width,
        height) of an emulated touch screen. `site`: the folder served
        (default --site); `served` lists the paths the server sent."""
        self.args = args
        self.shots = args.shots
        self.site = site or args.site
        self.served = []
        self.isolate = isolate
        self.start_server()
        self.root = f"http://{host or '127.0.0.1'}:{self.port}/"
        self.driver = gui.start_chromium(
            [*flags, *([f"--host-resolver-rules=MAP {host} 127.0.0.1"] if host else [])], phone)
        started = time.time()
        if path:
            self.open(path)
        self.load_s = time.time() - started

    def start_server(self, port=0):
        self.httpd = serve.make_server(self.site, port, self.isolate, served=self.served)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop_server(self):
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.stop_server()

    def send(self, message):
        before = self.version()
        self.js("window.wallgo.socket().send(arguments[0])", json.dumps(message))
        self.wait_change(before, f"the answer to {message['type']}")


def play_and_wait(site, move=None):
    """Plays `move` (else the first legal one) for the person and waits
    until it is the person's turn again (the engine may place twice)."""
    move = move or site.state()["board"]["legal"][0]
    site.send({"type": "move", "move": move})
    wait("the engine's reply", site.human_to_move, 30)


def level_seats(level, movetime=None):
    engine = {"kind": "engine", "engine": "wallgo", "level": level}
    if movetime is not None:
        engine["movetime"] = movetime
    return [{"kind": "human"}, engine]


def new_game_against_level(site, level):
    """Blue at `level` through the New game form; then a hint, which must
    be a legal move."""
    site.css("#new-game-panel summary")[0].click()
    Select(site.css("select[name=level-blue]")[0]).select_by_value(str(level))
    before = site.version()
    site.click("[data-action=new-game]")
    site.wait_change(before, "the new game")
    check(site.state()["seats"][1].get("level") == level, f"level {level}: {site.state()['seats']}")
    site.click("[data-action=hint]")
    hint = wait("the hint", lambda: site.css("[data-hint]")[0].get_attribute("data-hint"), 20)
    check(hint in site.state()["board"]["legal"], f"the hint {hint} is a legal move")


def play_to_the_end(site, args):
    """Plays red by clicks until the game ends; checks the page's final
    score against the native engine's `score`. Returns (moves clicked,
    seconds from the first click to the engine's first reply, the score)."""
    moves = 0
    first_reply = None
    while site.state()["board"]["phase"] != "finished":
        wait("red's turn or the end", lambda: site.human_to_move() or
             site.state()["board"]["phase"] == "finished", 60)
        if site.state()["board"]["phase"] == "finished":
            break
        site.play_by_clicks()
        moves += 1
        if first_reply is None:
            started = time.time()
            wait("the engine's reply", lambda: len(site.state()["moves"]) >= 2, 30)
            first_reply = time.time() - started
        check(moves < 120, "the game does not end")
    expected = gui.engine_score(args, site.position())
    check(gui.page_scores(site) == expected, f"page scores {gui.page_scores(site)} != engine's {expected}")
    return moves, first_reply, expected


def test_full_game(args):
    """A whole game against level 3, chosen in the New game form and played
    by clicks; the final score on the page is the native engine's `score`;
    the first engine move's time after page load is printed."""
    site = Site(args)
    try:
        check(site.js("return crossOriginIsolated") and site.js("return window.wallgo.threads") == 2,
              "isolated: the engine gets two threads")
        new_game_against_level(site, 3)
        moves, first_reply, expected = play_to_the_end(site, args)
        site.shot("site_full_game.png")
        print(f"page load to first board: {site.js('return window.wallgoMetrics.loadMs'):.0f} ms; "
              f"first engine reply {first_reply:.2f} s after the click; "
              f"{len(site.state()['moves'])} plies, {moves} by clicks; final {expected}")
    finally:
        site.close()


def test_single_thread(args):
    """Where the page cannot be isolated (plain http on a name that is not
    loopback's: no secure context, so no service worker and no shared
    memory) the worker runs the single-threaded build, and the page says
    so: a hint, a whole game against level 3, and a review of it."""
    site = Site(args, isolate=False, host="wallgo.test")
    try:
        check(not site.js("return isSecureContext || crossOriginIsolated"),
              "an insecure page, not isolated")
        check(site.js("return window.wallgo.threads") == 1, "one thread")
        wait("the notice", lambda: "one thread" in site.css("#event")[0].text, 5)
        new_game_against_level(site, 3)
        moves, first_reply, expected = play_to_the_end(site, args)
        site.send({"type": "review", "visits": 200})
        wait("the review", lambda: site.state()["review"]["state"] == "done", 120)
        print(f"single-threaded: first engine reply {first_reply:.2f} s after the click; "
              f"{len(site.state()['moves'])} plies, {moves} by clicks; final {expected}; reviewed")
    finally:
        site.close()


def test_plain_host(args):
    """Served without COOP/COEP (as python3 -m http.server serves it): the
    page isolates itself with its service worker and the engine plays with
    two threads."""
    site = Site(args, isolate=False)
    try:
        check(site.js("return crossOriginIsolated"), "the service worker isolated the page")
        check(site.js("return window.wallgo.threads") == 2, "two threads")
        play_and_wait(site)
    finally:
        site.close()


def test_timer(args):
    """The rules' turn timer: a person's turn runs out and the bridge plays
    a random turn for them."""
    site = Site(args)
    try:
        site.send({"type": "new", "seats": [{"kind": "human", "turn": 2, "timeout": "random"},
                                            {"kind": "human"}]})
        wait("red's countdown warning", lambda: site.css("[data-turn-clock=red][data-warning]"), 5)
        wait("the timeout's random turn", lambda: len(site.state()["moves"]) == 1, 8)
        s = site.state()
        check(s["moves"][0]["colour"] == "red" and s["moves"][0].get("random"), f"the penalty: {s['moves']}")
        check("red" in site.css("[data-event]")[0].text, "the page says who ran out of time")
    finally:
        site.close()


def test_review(args):
    """A loaded record's planted blunder is marked as `wallgo-referee
    annotate` marks it (the same code, compiled to wasm)."""
    with tempfile.TemporaryDirectory() as tmp:
        records = gui.planted_records(tmp)
        site = Site(args)
        try:
            gui.load_records(site, records, 60)
            Select(site.css("[data-review-time]")[0]).select_by_value("0.1")
            site.click("[data-action=review]")
            wait("the review", lambda: site.state()["review"]["state"] in ("done", "failed"), 90)
            review = site.state()["review"]
            check(review["state"] == "done", f"review: {review['error']}")
            ply = len(site.state()["moves"])
            last = site.css(f"#moves li[data-ply='{ply}']")[0]
            check(last.get_attribute("data-judgement") == "blunder",
                  f"the planted move is {last.get_attribute('data-judgement')}")
            site.shot("site_review.png")
        finally:
            site.close()


def test_big_records(args):
    """A records file of several megabytes (more than the wasm stack) loads
    whole into the worker's bridge."""
    with tempfile.TemporaryDirectory() as tmp:
        records = gui.planted_records(tmp, 4000)
        megabytes = os.path.getsize(records) / 1e6
        site = Site(args)
        try:
            gui.load_records(site, records, 60)
            games = site.state()["records"]["games"]
            check(len(games) == 4000, f"{len(games)} games of 4000 loaded")
            print(f"{megabytes:.1f} MB of records loaded")
        finally:
            site.close()


def test_korean(args):
    """The Korean page has no English left (the GUI test's check)."""
    catalogue, problems = gui.catalogue_problems()
    check(not problems, "catalogue: " + "; ".join(problems))
    site = Site(args, path="index.html?lang=ko")
    try:
        check(site.js("return document.documentElement.lang") == "ko", "<html lang=ko>")
        site.css("#rules-panel summary")[0].click()
        texts = site.js(gui.UNTRANSLATED)
        left = gui.english_left(catalogue, "ko", texts)
        check(not left, f"English left on the Korean page: {left}")
        site.shot("site_korean.png")
    finally:
        site.close()


def test_reload(args):
    """A reload keeps the game (moves with their times, seats, the ply
    shown) and the turn's running time: it gives a person no time back.
    Stored state that is not a game starts a fresh one, and the page says
    so; a saved board that cannot be drawn is skipped."""
    site = Site(args)
    try:
        seats = level_seats(1, 0.05)
        seats[0].update({"turn": 90, "clock": 600})
        site.send({"type": "new", "seats": seats})
        play_and_wait(site)
        play_and_wait(site)
        time.sleep(3)  # red's turn runs
        before = site.state()
        site.driver.refresh()
        wait("the restored game", lambda: site.js("return document.body.dataset.ready === 'true'") and
             len(site.state()["moves"]) == len(before["moves"]), 20)
        after = site.state()
        check([m["move"] for m in after["moves"]] == [m["move"] for m in before["moves"]], "the same moves")
        check([m.get("ms") for m in after["moves"]] == [m.get("ms") for m in before["moves"]],
              "the same move times")
        check(after["seats"][1].get("level") == 1 and after["seats"][1]["kind"] == "engine", "the same seats")
        # `before` was published as red's turn began; 3 s ran before the
        # reload.
        check(after["seats"][0]["turnLeft"] < before["seats"][0]["turnLeft"] - 2.5,
              f"the turn's time goes on: {before['seats'][0]['turnLeft']:.1f} s left before the reload, "
              f"{after['seats'][0]['turnLeft']:.1f} after")
        check(after["seats"][0]["clockLeft"] < before["seats"][0]["clockLeft"] - 2.5, "red's clock goes on")
        site.js("localStorage.setItem('wallgo-site-game', '{not a game')")
        # A saved board another version drew (it cannot be drawn here).
        site.js("localStorage.setItem('wallgo-site-board', '{\"type\": \"state\", \"board\": {}, \"seats\": []}')")
        site.driver.refresh()
        wait("a fresh game", lambda: site.js("return document.body.dataset.ready === 'true'") and
             site.state()["moves"] == [], 20)
        wait("the message", lambda: "saved game" in site.css("[data-event]")[0].text, 5)
        check(site.js("return JSON.parse(localStorage.getItem('wallgo-site-game')).played.length") == 0,
              "the fresh game is stored")
    finally:
        site.close()


def test_responsive(args):
    """The page keeps drawing (requestAnimationFrame) while the engine
    thinks 5 s on its move."""
    site = Site(args)
    try:
        site.send({"type": "new", "seats": [{"kind": "human"},
                                            {"kind": "engine", "engine": "wallgo", "movetime": 5}]})
        site.js("window.framesDrawn = 0; const tick = () => { window.framesDrawn++; "
                "requestAnimationFrame(tick); }; requestAnimationFrame(tick);")
        site.send({"type": "move", "move": site.state()["board"]["legal"][0]})
        started = time.time()
        time.sleep(1)
        drawn = site.js("return window.framesDrawn")
        time.sleep(3)
        later = site.js("return window.framesDrawn")
        check(len(site.state()["moves"]) == 1, "the engine is still thinking")
        wait("the engine's move", lambda: len(site.state()["moves"]) == 2, 20)
        print(f"{later - drawn} frames drawn in 3 s of the engine's 5 s move; "
              f"its move came {time.time() - started:.1f} s after the click")
        check(later > drawn + 30, f"the page froze: {drawn} then {later} frames")
    finally:
        site.close()


def cpu_seconds_of_tree(root):
    """CPU seconds used so far by `root` and every process below it (this
    test's chromedriver: its chromium, the renderers, the GPU process), not
    by other tests' browsers running beside it."""
    ticks = os.sysconf("SC_CLK_TCK")
    stats = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            stats[int(pid)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
    tree, grown = {root}, True
    while grown:
        below = {pid for pid, (parent, _) in stats.items() if parent in tree} - tree
        tree |= below
        grown = bool(below)
    return sum(stats[pid][1] for pid in tree if pid in stats)


def cpu_over(root, seconds):
    start = cpu_seconds_of_tree(root)
    time.sleep(seconds)
    return cpu_seconds_of_tree(root) - start


def until_quiet(root, most=6):
    """Waits until `root`'s processes have a quiet half second (at most
    `most` seconds): a terminated worker's threads (17 V8 isolates) are torn
    down first, which Chromium 156 on an idle machine lets take 2.5-3.5 s.
    Returns the CPU seconds used meanwhile and how long it took."""
    used, waited = 0.0, 0.0
    while waited < most:
        step = cpu_over(root, 0.5)
        used, waited = used + step, waited + 0.5
        if step <= 0.0125:
            break
    return used, waited


def test_closed_tab(args):
    """Closing the tab while the engine thinks leaves nothing running: the
    browser's processes go back to idle at once (the worker, its threads and
    the engine die with the page)."""
    site = Site(args, path=None)
    try:
        first = site.driver.current_window_handle
        site.driver.switch_to.new_window("tab")
        site.open("index.html")
        site.send({"type": "new", "seats": [{"kind": "human"},
                                            {"kind": "engine", "engine": "wallgo", "movetime": 30}]})
        site.send({"type": "move", "move": site.state()["board"]["legal"][0]})
        wait("the engine thinking", lambda: site.state()["engines"][0]["state"] == "thinking", 10)
        browser = site.driver.service.process.pid
        busy = cpu_over(browser, 2)
        site.driver.close()
        site.driver.switch_to.window(first)
        # The renderer outlives the tab when it hosts the site's service
        # worker, and then tears the worker's 17 threads down itself.
        teardown, teardown_s = until_quiet(browser)
        idle = cpu_over(browser, 2)
        print(f"chromium CPU: {busy:.2f} s in 2 s while the engine thought, {teardown:.2f} s in the "
              f"{teardown_s:.1f} s of the teardown, then {idle:.2f} s in 2 s after the tab closed")
        check(busy > 0.5, f"the engine was not searching ({busy:.2f} CPU s in 2 s)")
        check(teardown_s < 6, f"the worker still ran {teardown_s:.1f} s after the tab closed")
        check(idle < 0.3, f"something still runs after the tab closed ({idle:.2f} CPU s in 2 s)")
    finally:
        site.close()


TESTS = {name[5:]: f for name, f in globals().items() if name.startswith("test_")}


def main(tests=None):
    """The command line of a site test script: TEST --site --bin --shots.
    phone_test.py runs its own tests through it."""
    tests = TESTS if tests is None else tests
    parser = argparse.ArgumentParser()
    parser.add_argument("test", choices=sorted(tests))
    parser.add_argument("--site", required=True, help="the site tools/web/build.sh made")
    parser.add_argument("--bin", required=True, help="folder with the native wallgo")
    parser.add_argument("--shots", required=True, help="folder for screenshots")
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.site, "wallgo-site.wasm")):
        print(f"skipped: no wasm build in {args.site} (the web_build test makes it)")
        return 77
    return gui.run(tests[args.test], args)


if __name__ == "__main__":
    sys.exit(main())
