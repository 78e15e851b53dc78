#!/usr/bin/python3
"""The players' site on a phone (docs/web.md): Chromium's mobile emulation
(a touch screen of 390x844 or 844x390 CSS pixels), driven by touches, on the
site tools/web/build.sh made, served on loopback as site_test.py serves it.

  phone_test.py TEST --site DIR --bin DIR --shots DIR

Exits 77 (CTest: skipped), saying why, when the wasm build is missing.
"""
import gzip
import json
import os
import shutil
import sys
import tempfile
import time

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import site_test  # noqa: E402  (the site's server, browser and page driver)

gui = site_test.gui
check, wait = gui.check, gui.wait
PORTRAIT, LANDSCAPE = (390, 844), (844, 390)


def tap(site, point):
    """A finger's tap at (x, y), CSS pixels of the viewport."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(site.driver, mouse=finger)
    actions.pointer_action.move_to_location(round(point[0]), round(point[1])).pointer_down().pointer_up()
    actions.perform()


def tap_element(site, selector):
    """Scrolls the first match into view, as a thumb would, and taps it."""
    site.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", selector)
    tap(site, center(box(site, selector)))


def box(site, selector):
    """The first match's box in the viewport (CSS pixels), or None."""
    return site.js("const e = document.querySelector(arguments[0]); if (!e) return null;"
                   "const r = e.getBoundingClientRect();"
                   "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,"
                   " width: r.width, height: r.height};", selector)


def cell_point(site, cell, fx, fy):
    """The point at fractions (fx, fy) across and down `cell`."""
    b = box(site, f".cells [data-cell='{cell}']")
    return (b["left"] + fx * b["width"], b["top"] + fy * b["height"])


def wall_point(site, dest, side, depth, along):
    """A point `depth` CSS px from `dest`'s `side` toward its centre
    (negative: beyond the side), `along` px along the side from its middle."""
    b = box(site, f".cells [data-cell='{dest}']")
    cx, cy = (b["left"] + b["right"]) / 2, (b["top"] + b["bottom"]) / 2
    half = b["width"] / 2
    direction = {"n": (0, -1), "s": (0, 1), "e": (1, 0), "w": (-1, 0)}[side]
    mx, my = cx + direction[0] * half, cy + direction[1] * half
    ax, ay = -direction[1], direction[0]
    return (mx - direction[0] * depth + ax * along, my - direction[1] * depth + ay * along)


# Where in its cell (or wall area) each tap lands, turn after turn: corners,
# edges and centre of cells; for walls (depth from the line, offset along).
CELL_POINTS = [(0.5, 0.5), (0.1, 0.1), (0.9, 0.12), (0.12, 0.9), (0.88, 0.88), (0.5, 0.08), (0.93, 0.5)]
WALL_POINTS = [(20, 0), (10, 0), (3, 12), (0, -8), (-3, 0), (15, 2), (6, -10)]


def play_by_taps(site, turn):
    """One move of the person to move, by touches like a thumb's at the
    `turn`-th points of the lists above; checks the move played is the one
    aimed at. Returns its token."""
    legal = site.state()["board"]["legal"]
    before = len(site.state()["moves"])
    fx, fy = CELL_POINTS[turn % len(CELL_POINTS)]
    placements = [m for m in legal if len(m) == 2]
    turns = [m for m in legal if len(m) >= 5]
    if placements:
        token = placements[turn * 7 % len(placements)]
        tap(site, cell_point(site, token, fx, fy))
    elif not turns:
        token = "pass"
        tap_element(site, "#pass")
    else:
        token = turns[turn * 13 % len(turns)]
        origin, dest, side = token[:2], token[2:4], token[-1]
        tap(site, cell_point(site, origin, fx, fy))
        wait("the stone selected", lambda: box(site, ".choices .selected"), 5)
        gx, gy = CELL_POINTS[(turn + 3) % len(CELL_POINTS)]
        tap(site, cell_point(site, dest, gx, gy))
        wait("the destination selected", lambda: box(site, ".choices .selected-dest"), 5)
        depth, along = WALL_POINTS[turn % len(WALL_POINTS)]
        half = box(site, f".cells [data-cell='{dest}']")["width"] / 2
        check(half >= 20, f"a cell is {2 * half:.1f} CSS px: a tap 20 px from a wall would leave it")
        tap(site, wall_point(site, dest, side, depth, along))
    wait(f"the move {token}", lambda: len(site.state()["moves"]) > before, 10)
    played = site.state()["moves"][before]["move"]
    check(played == token, f"aimed at {token}, played {played}")
    return token


def center(b):
    return ((b["left"] + b["right"]) / 2, (b["top"] + b["bottom"]) / 2)


def check_layout(site, name):
    """No sideways scroll; the board, the status line (whose turn) and the
    turn's clock in the first screen; the position string folded away."""
    width = site.js("return document.documentElement.scrollWidth")
    inner, height = site.js("return innerWidth"), site.js("return innerHeight")
    check(width <= inner, f"{name}: the page is {width} px wide in a {inner} px screen")
    for selector in ("#board", "#status", "[data-turn-clock]"):
        b = box(site, selector)
        check(b and b["top"] >= 0 and b["bottom"] <= height + 0.5 and b["right"] <= inner + 0.5,
              f"{name}: {selector} is not in the first screen: {b}")
    check(not site.js("return document.querySelector('[data-position]').checkVisibility()"),
          f"{name}: the position string is shown")
    board = box(site, "#board")
    print(f"{name}: board {board['width']:.0f}x{board['height']:.0f} CSS px in {inner}x{height}, "
          f"a cell {board['width'] * 60 / 480:.1f} px")


def new_game_by_taps(site, level):
    """The New game form by touches: the rules' timing (90 s a turn) and
    blue the engine at `level`."""
    tap_element(site, "#new-game-panel summary")
    tap_element(site, "[data-action=show-rules]")
    Select(site.css("select[name=seat-blue]")[0]).select_by_value("engine:wallgo")
    Select(site.css("select[name=level-blue]")[0]).select_by_value(str(level))
    before = site.version()
    tap_element(site, "[data-action=new-game]")
    site.wait_change(before, "the new game")
    site.js("window.scrollTo(0, 0)")
    seats = site.state()["seats"]
    check(seats[1].get("level") == level and seats[0].get("turn") == 90, f"the new game's seats: {seats}")


def test_full_game(args):
    """A whole game against level 3 by touches on a 390x844 phone; the final
    score is the native engine's; the layout (no sideways scroll, board,
    turn and clock in the first screen) in both orientations."""
    site = site_test.Site(args, phone=PORTRAIT)
    try:
        check(site.js("return matchMedia('(pointer: coarse)').matches"), "a touch screen")
        new_game_by_taps(site, 3)
        check_layout(site, "portrait")
        site.shot("phone_game.png")
        turn = 0
        while site.state()["board"]["phase"] != "finished":
            wait("red's turn or the end", lambda: site.human_to_move() or
                 site.state()["board"]["phase"] == "finished", 60)
            if site.state()["board"]["phase"] == "finished":
                break
            play_by_taps(site, turn)
            turn += 1
            check(turn < 120, "the game does not end")
        expected = gui.engine_score(args, site.position())
        check(gui.page_scores(site) == expected, f"page {gui.page_scores(site)} != engine {expected}")
        site.shot("phone_final.png")
        print(f"a game against level 3 by {turn} taps-moves: {len(site.state()['moves'])} plies, final {expected}; "
              f"engine threads {site.js('return window.wallgo.threads')}, hash {site.js('return window.wallgo.hash')} MB")
    finally:
        site.close()


def hot_seat_by_taps(site, name, turns):
    site.send({"type": "new", "seats": [{"kind": "human", "turn": 90}, {"kind": "human", "turn": 90}]})
    check_layout(site, name)
    for turn in range(turns):
        if site.state()["board"]["phase"] == "finished":
            break
        play_by_taps(site, turn)
    site.shot(f"phone_{name}.png")


def test_hit_areas(args):
    """Two people on one phone, each orientation: every placement, stone,
    destination and wall chosen by touches at points all over its hit area
    (cells anywhere; walls up to 20 CSS px inside the destination from the
    line, and just beyond it), each move the one aimed at."""
    for name, screen in (("portrait", PORTRAIT), ("landscape", LANDSCAPE)):
        site = site_test.Site(args, phone=screen)
        try:
            hot_seat_by_taps(site, name, 18)
        finally:
            site.close()


def engine_clock(site):
    return site.state()["seats"][1]["clockLeft"]


def test_hidden(args):
    """A page hidden by the browser (another tab in front) while the engine
    thinks: the engine stops (the browser's processes go idle) and both
    clocks stand still; shown again, the game goes on where it was."""
    site = site_test.Site(args, path=None, phone=PORTRAIT)
    try:
        first = site.driver.current_window_handle
        site.driver.switch_to.new_window("tab")
        game_tab = site.driver.current_window_handle
        site.open("index.html")
        site.send({"type": "new", "seats": [{"kind": "human", "turn": 90, "clock": 600},
                                            {"kind": "engine", "engine": "wallgo", "movetime": 30,
                                             "clock": 600}]})
        site.send({"type": "move", "move": site.state()["board"]["legal"][0]})
        wait("the engine thinking", lambda: site.state()["engines"][0]["state"] == "thinking", 10)
        seen, elapsed_then = time.time(), site.state()["turnElapsed"]
        time.sleep(1)
        moves = [m["move"] for m in site.state()["moves"]]
        browser = site.driver.service.process.pid
        busy = site_test.cpu_over(browser, 2)
        hidden_at = time.time()
        elapsed_at_hide = elapsed_then + hidden_at - seen  # the engine's turn so far
        site.driver.switch_to.window(first)
        check(site.driver.execute_script("return document.visibilityState") == "visible", "the other tab in front")
        # The terminated worker is torn down first; then the hidden page
        # should cost next to nothing: Chromium 156's own processes (the
        # browser, the tab in front, the GPU) use 0.06-0.12 CPU s in 2 s,
        # 10-30 ms each, where a searching engine uses 2 s.
        teardown, teardown_s = site_test.until_quiet(browser)
        idle = site_test.cpu_over(browser, 2)
        hidden_for = time.time() - hidden_at
        site.driver.switch_to.window(game_tab)
        taken_up(site)
        after = site.state()
        check([m["move"] for m in after["moves"]] == moves, "the same moves after the pause")
        left = engine_clock(site)
        print(f"chromium CPU: {busy:.2f} s in 2 s while the engine thought ({site.js('return window.wallgo.threads')} "
              f"thread), hidden: {teardown:.2f} s in its first {teardown_s:.1f} s (the worker torn down), then {idle:.3f} s in 2 s; "
              f"the engine's turn {elapsed_at_hide:.1f} s old when hidden, hidden {hidden_for:.1f} s, "
              f"its clock then shows {600 - left:.1f} s used")
        check(busy > 0.25, f"the engine was not searching ({busy:.2f} CPU s in 2 s)")
        check(after["engines"][0]["state"] == "thinking", "the engine thinks again")
        check(teardown_s < 6, f"the worker still ran {teardown_s:.1f} s after the page was hidden")
        check(idle <= 0.2, f"the hidden page used {idle:.3f} CPU s in 2 s")
        check(600 - left < elapsed_at_hide + 1.5, f"the engine's clock ran while hidden: {600 - left:.1f} s "
              f"used, {elapsed_at_hide:.1f} s when hidden, then hidden {hidden_for:.1f} s")
        # The person's turn: 3 s hidden are not taken from red's clock.
        site.send({"type": "seats", "seats": [{"kind": "human", "turn": 90, "clock": 600},
                                              {"kind": "human", "turn": 90, "clock": 600}]})
        turn_before = site.state()["seats"][1]["turnLeft"]
        site.driver.switch_to.window(first)
        time.sleep(3)
        site.driver.switch_to.window(game_tab)
        taken_up(site)
        turn_after = site.state()["seats"][1]["turnLeft"]
        print(f"a person's turn: {turn_before:.1f} s left before 3 s hidden, {turn_after:.1f} s after")
        check(turn_after > turn_before - 1.5, "the person's turn clock ran while hidden")
    finally:
        site.close()


def taken_up(site):
    """Until a paused game is back: a fresh worker, its game restored."""
    wait("the game taken up", lambda: site.js(
        "return document.querySelector('[data-connection]').dataset.connection") == "open", 20)
    wait("the saved game restored", lambda: site.js("return localStorage.getItem('wallgo-site-game')")
         and "pausedTurn" not in site.js("return localStorage.getItem('wallgo-site-game')"), 10)


def engine_reply(site):
    site.send({"type": "move", "move": site.state()["board"]["legal"][0]})
    wait("the engine's reply", lambda: len(site.state()["moves"]) >= 2 and site.human_to_move(), 30)


def wait_cached(site):
    """Until the service worker has the page and the engine build it runs."""
    build = "wallgo-site.wasm" if site.js("return crossOriginIsolated") else "wallgo-site-st.wasm"
    wait("the engine cached", lambda: site.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.keys().then(async (names) => { for (const n of names) {"
        " const c = await caches.open(n); if (await c.match(new URL(arguments[0], location.href).href)) return done(true); }"
        " done(false); });", build), 30)


def test_offline(args):
    """One visit (a host without COOP/COEP: the service worker isolates the
    page), then the server stopped: a reload shows the board and the engine
    plays, from the cache. The times and the first visit's download."""
    site = site_test.Site(args, isolate=False, phone=PORTRAIT)
    try:
        check(site.js("return crossOriginIsolated"), "the service worker isolated the page")
        wait_cached(site)
        served = list(site.served)
        manifest = site.driver.execute_cdp_cmd("Page.getAppManifest", {})
        check(not manifest.get("errors"), f"the manifest's errors: {manifest.get('errors')}")
        installable = site.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
        check(not installable["installabilityErrors"], f"not installable: {installable}")
        sizes = {}
        for path in served:
            with open(os.path.join(site.site, path.lstrip("/") or "index.html"), "rb") as f:
                sizes[path] = len(gzip.compress(f.read(), 9))
        first_visit = sum(sizes[p] for p in served)
        site.stop_server()
        started = time.time()
        site.driver.refresh()
        wait("the board offline", lambda: site.js("return document.body.dataset.ready === 'true'"), 10)
        # The saved board is drawn at once; the bridge's state once the
        # engine has started.
        board_s = site.js("return window.wallgoMetrics.boardMs") / 1000
        live_s = site.js("return window.wallgoMetrics.loadMs") / 1000
        site.send({"type": "new", "seats": site_test.level_seats(3)})
        clicked = time.time()
        engine_reply(site)
        reply_s = time.time() - clicked
        print(f"first visit: {len(served)} requests, {first_visit / 1e6:.3f} MB gzipped "
              f"({', '.join(f'{p} {s // 1000} KB' for p, s in sorted(sizes.items(), key=lambda x: -x[1])[:3])}); "
              f"offline: board drawn {board_s:.2f} s after navigation, the engine ready at {live_s:.2f} s, its first reply "
              f"{reply_s:.2f} s after the move ({time.time() - started:.2f} s from the reload)")
        engine = [p for p in served if p.endswith(".wasm")]
        check(len(engine) == 1, f"the engine builds fetched: {engine}")
        # The targets (2 s, 3 s) are reported: this shared machine's load
        # moves them (0.6-2.8 s for the board here); the bounds asserted
        # catch a page or engine that waits on the network.
        print(f"targets: board {'met' if board_s <= 2 else 'MISSED'} (<= 2 s), "
              f"engine move {'met' if reply_s <= 3 else 'MISSED'} (<= 3 s)")
        check(board_s <= 10 and reply_s <= 10, f"offline: board {board_s:.2f} s, reply {reply_s:.2f} s")
        check(first_visit <= 1.5e6, f"the first visit fetched {first_visit / 1e6:.2f} MB gzipped")
        # The Puzzles page and its puzzles count in that download, and play
        # offline: their own worker's engine comes from the cache too.
        check({"/puzzles.html", "/puzzles.json"} <= set(served), "the Puzzles page is in the first visit's download")
        print(f"puzzles.json {sizes['/puzzles.json'] / 1000:.1f} KB gzipped of the first visit")
        site.driver.get(site.root + "puzzles.html")
        wait("the Puzzles page offline", lambda: site.js("return document.body.dataset.puzzleState") == "solving", 20)
    finally:
        site.close()


def release(folder, commit):
    """Makes the site in `folder` a new release, as build.sh would: another
    commit in version.json and the service worker's cache name."""
    path = os.path.join(folder, "version.json")
    with open(path) as f:
        version = json.load(f)
    old = f"{version['version']}-{version['commit']}-{version['files']}"
    version["commit"] = commit
    with open(path, "w") as f:
        json.dump(version, f)
    worker = os.path.join(folder, "service-worker.js")
    with open(worker) as f:
        text = f.read()
    check(old in text, "the service worker names its version")
    with open(worker, "w") as f:
        f.write(text.replace(old, f"{version['version']}-{commit}-{version['files']}"))


def test_update(args):
    """A new version on the server mid-game: it installs in the background,
    the page offers it, the old page plays on meanwhile; taken, the page
    reloads into the new version with the game as it was."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "site")
        shutil.copytree(args.site, folder)
        site = site_test.Site(args, phone=PORTRAIT, site=folder)
        try:
            wait_cached(site)
            site.send({"type": "new", "seats": site_test.level_seats(1, 0.05)})
            engine_reply(site)
            release(folder, "next001")
            site.js("navigator.serviceWorker.getRegistration().then((r) => r.update())")
            wait("the update offered", lambda: site.css("[data-update]")[0].is_displayed(), 30)
            offer = site.css("[data-update]")[0].text
            check("next001" in offer, f"the offer names the new version: {offer}")
            engine_reply(site)  # the old page plays on
            site.js("window.scrollTo(0, 0)")
            site.shot("phone_update.png")
            moves = [m["move"] for m in site.state()["moves"]]
            site.js("window.oldPage = true")
            tap_element(site, "[data-update] button")
            wait("the new version", lambda: site.js(
                "return !window.oldPage && document.body.dataset.ready === 'true' && "
                "document.querySelector('[data-site-version]').textContent.includes('next001')"), 30)
            wait("the saved game", lambda: [m["move"] for m in site.state()["moves"]] == moves, 20)
            engine_reply(site)  # the new version plays on
            shown = site.css("[data-site-version]")[0].get_attribute("textContent")
            print(f"updated mid-game after {len(moves)} plies to {shown}")
        finally:
            site.close()


def test_no_wasm(args):
    """A browser without WebAssembly (V8 without its JIT, as iOS Lockdown
    Mode leaves Safari): the page says the engine cannot run here and what
    to do."""
    site = site_test.Site(args, path=None, phone=PORTRAIT, flags=["--js-flags=--jitless"])
    try:
        site.driver.get(site.root + "index.html")
        check(site.js("return typeof WebAssembly") == "undefined", "WebAssembly is off")
        wait("the message", lambda: "Use a recent Chrome" in site.css("[data-event]")[0].text, 20)
        check(site.js("return document.body.dataset.refused") == "closed", "the page gave up")
        print(f"without WebAssembly: {site.css('[data-event]')[0].text}")
    finally:
        site.close()


def test_no_memory(args):
    """A browser that cannot give the engine its memory (V8 limited to 16 MB
    a WebAssembly memory, as a phone short of memory refuses it): the page
    says so and what to do."""
    site = site_test.Site(args, path=None, phone=PORTRAIT, flags=["--js-flags=--wasm-max-mem-pages=256"])
    try:
        site.driver.get(site.root + "index.html")
        wait("the message", lambda: "Close other tabs or apps" in site.css("[data-event]")[0].text, 30)
        print(f"short of memory: {site.css('[data-event]')[0].text}")
    finally:
        site.close()


def test_broken_engine(args):
    """An engine file that is not WebAssembly (a broken download or host):
    the page says the engine could not start and what to do."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "site")
        shutil.copytree(args.site, folder)
        for name in ("wallgo-site.wasm", "wallgo-site-st.wasm"):
            with open(os.path.join(folder, name), "wb") as f:
                f.write(b"<html>not found</html>")
        site = site_test.Site(args, phone=PORTRAIT, site=folder, path=None)
        try:
            site.driver.get(site.root + "index.html")
            wait("the message", lambda: "Reload the page" in site.css("[data-event]")[0].text, 30)
            print(f"a broken engine file: {site.css('[data-event]')[0].text}")
            # The host fixed: a reload fetches the engine again (the broken
            # one left the cache) and plays.
            for name in ("wallgo-site.wasm", "wallgo-site-st.wasm"):
                if os.path.exists(os.path.join(args.site, name)):
                    shutil.copy(os.path.join(args.site, name), os.path.join(folder, name))
            site.driver.refresh()
            wait("the board", lambda: site.js("return document.body.dataset.ready === 'true'"), 30)
            site.send({"type": "new", "seats": site_test.level_seats(1, 0.05)})
            engine_reply(site)
        finally:
            site.close()


def test_resources(args):
    """Threads and hash from the device: half the cores (at most 2) on a
    touch screen, at most 4 elsewhere; the hash 1/32 of the memory, 16..64
    MB, with lichess's guess where deviceMemory is missing."""
    site = site_test.Site(args, phone=PORTRAIT)
    try:
        cases = [  # (deviceMemory, cores, touch, threaded) -> (threads, hash)
            ((None, 8, True, True), (2, 64)), ((None, None, True, False), (1, 16)),
            ((0.5, 4, True, True), (2, 16)), ((1, 2, True, True), (1, 32)),
            ((8, 16, False, True), (4, 64)), ((None, 6, False, True), (4, 64))]
        for (memory, cores, touch, threaded), expected in cases:
            got = site.driver.execute_async_script(
                "const [memory, cores, touch, threaded, done] = arguments;"
                "import('./transport.js').then((m) => { const r = m.siteResources("
                "{deviceMemory: memory ?? undefined, hardwareConcurrency: cores ?? undefined}, touch, threaded);"
                "done([r.threads, r.hash]); });", memory, cores, touch, threaded)
            check(tuple(got) == expected, f"{memory} GB, {cores} cores, touch {touch}, threaded {threaded}: "
                  f"{got}, not {expected}")
        device = site.js("return [navigator.hardwareConcurrency, navigator.deviceMemory, "
                         "window.wallgo.threads, window.wallgo.hash]")
        print(f"this emulated phone: {device[0]} cores, {device[1]} GB: {device[2]} threads, {device[3]} MB")
    finally:
        site.close()


TESTS = {name[5:]: f for name, f in globals().items() if name.startswith("test_")}


if __name__ == "__main__":
    sys.exit(site_test.main(TESTS))
