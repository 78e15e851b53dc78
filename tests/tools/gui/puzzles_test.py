#!/usr/bin/python3
"""The Puzzles page (tools/gui/web/puzzles.html, docs/gui.md "Puzzles") in a
real browser, in wallgo-gui (--host gui) and in the static site (--host
site, served as site_test.py serves it): a puzzle solved and one failed by
clicks like a person's, in English and in Korean; the player's Glicko-2
rating changes after an attempt and survives a reload; a puzzle's link
opens that puzzle; on a phone (390x844, touches) a puzzle is solved by taps.

  puzzles_test.py TEST --host gui|site --bin DIR --shots DIR [--site DIR]

The puzzles are the page's own puzzles.json, read from the server.
"""
import argparse
import json
import os
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import browser_support as gui  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "..", "web"))

check, wait = gui.check, gui.wait


def open_page(args, fragment="", lang="en", phone=None):
    """The Puzzles page of a fresh server (wallgo-gui with the engine, or
    the static site) at #`fragment`, waited on until a puzzle is set up."""
    query = f"?lang={lang}#{fragment}" if fragment else f"?lang={lang}"
    if args.host == "gui":
        page = gui.Gui(args, [gui.wallgo(args)], args.shots, game=None)
    else:
        import site_test  # noqa: E402  (the static site's server and browser)
        page = site_test.Site(args, path=None, phone=phone)
    page.open(f"/puzzles.html{query}" if args.host == "gui" else f"puzzles.html{query}")
    wait_state(page, "solving")
    return page


def wait_state(page, state, timeout=30):
    wait(f"the puzzle to be {state}", lambda: page.js("return document.body.dataset.puzzleState") == state, timeout)


def puzzles(page):
    """The puzzles the server serves, by id."""
    url = page.js("return new URL('puzzles.json', location.href).href")
    return {p["id"]: p for p in json.load(urllib.request.urlopen(url))["puzzles"]}


def shown(page):
    return page.js("return window.wallgo.puzzle()")


def rating(page):
    return float(page.css("[data-player-rating]")[0].get_attribute("data-player-rating"))


def play_by_clicks(page, token):
    """Clicks a move as a person does: its stone, its destination, its wall."""
    stone, dest = token[:2], token[2:4]
    page.click(f".stone-choice[data-cell='{stone}']")
    # A stone that stays has its own cell among the destinations.
    wait("destinations", lambda: page.css(f".dest-choice[data-cell='{dest}']"), 5)
    page.click(f".dest-choice[data-cell='{dest}']")
    wait("wall choices", lambda: page.css(f".wall-choice[data-token='{token}']"), 5)
    page.click(f".wall-choice[data-token='{token}']")


def catalogue(lang):
    return gui.catalogue_problems()[0][lang]


def check_words(page, lang, key, **params):
    """The status line is the catalogue's `key` in `lang`, and no key the
    page asked for is missing."""
    text = catalogue(lang)[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    got = page.css("[data-puzzle-status]")[0].text
    check(got == text, f"status {got!r}, expected {text!r}")
    check(page.js("return [...window.wallgoMissingKeys]") == [], "keys missing from the catalogue")


def solve_and_reload(args, lang):
    """A puzzle with a reply solved by clicks; the board's proven reply is
    played; the rating rises and survives a reload, which opens the same
    puzzle (its link); a second attempt is not rated."""
    page = open_page(args, lang=lang)
    try:
        all_puzzles = puzzles(page)
        target = next(p for p in all_puzzles.values() if p["steps"][-1]["replies"] and len(p["steps"]) == 1)
        page.driver.get(page.driver.current_url.split("#")[0] + "#" + target["id"])
        wait("the linked puzzle", lambda: (shown(page) or {}).get("id") == target["id"])
        wait_state(page, "solving")
        state = page.state()
        check(state["start"] == target["position"], f"the board shows {state['start']}")
        colour = catalogue(lang)[f"colour.{state['board']['turn']}"]
        check_words(page, lang, "puzzle.find", colour=colour)
        check(len(page.css("[data-stone]")) == sum(len(v) for v in state["board"]["stones"].values()),
              "every stone drawn")
        before = rating(page)
        step = target["steps"][0]
        play_by_clicks(page, step["accept"][0])
        wait_state(page, "solved")
        wait("the board's proven reply", lambda: [m["move"] for m in page.state()["moves"]] ==
             [step["accept"][0], *step["replies"]], 10)
        check_words(page, lang, "puzzle.solved")
        if lang != "en":
            left = gui.english_left(gui.catalogue_problems()[0], lang, page.js(gui.UNTRANSLATED))
            check(not left, f"English left on the {lang} page: {left}")
        after = rating(page)
        check(after > before, f"solving rated {before} -> {after}")
        page.shot(f"puzzles_{args.host}_{lang}_solved.png")
        link = page.css("[data-puzzle-link]")[0].get_attribute("href")
        check(link.endswith(f"puzzles.html?lang={lang}#{target['id']}"), f"the link {link}")
        page.driver.get("about:blank")
        page.driver.get(link)
        wait("the page again", lambda: page.js("return document.body.dataset.puzzleState") == "solving", 30)
        check(shown(page)["id"] == target["id"], "the link opens its puzzle")
        check(abs(rating(page) - after) < 1e-6, f"the rating after a reload {rating(page)} != {after}")
        play_by_clicks(page, step["accept"][0])
        wait_state(page, "solved")
        check(abs(rating(page) - after) < 1e-6, "a second attempt at a puzzle is not rated")
        check(page.css("[data-rating-change]")[0].text == catalogue(lang)["puzzle.unrated"], "says so")
        print(f"{args.host} {lang}: solved {target['id']}, rating {before:.1f} -> {after:.1f}, kept over a reload")
    finally:
        page.close()


def fail(args, lang):
    """A legal move the puzzle does not accept fails it: the page says so with
    the answer, draws the answer, plays nothing, and the rating drops."""
    page = open_page(args, lang=lang)
    try:
        puzzle = shown(page)
        accept = puzzle["steps"][0]["accept"]
        legal = page.state()["board"]["legal"]
        wrong = next(m for m in legal if m not in accept and len(m) == 5)
        before = rating(page)
        play_by_clicks(page, wrong)
        wait_state(page, "failed")
        check_words(page, lang, "puzzle.failed", move=wrong, answer=accept[0])
        check(page.css(f"[data-better-move='{accept[0]}']"), "the answer drawn on the board")
        check(page.state()["moves"] == [], "the wrong move is not played")
        check(rating(page) < before, f"failing rated {before} -> {rating(page)}")
        page.shot(f"puzzles_{args.host}_{lang}_failed.png")
        # The next puzzle is another one, set up and ready.
        page.click("[data-action=next-puzzle]")
        wait("another puzzle", lambda: (shown(page) or {}).get("id") != puzzle["id"])
        wait_state(page, "solving")
        print(f"{args.host} {lang}: failed {puzzle['id']} with {wrong}, rating {before:.1f} -> {rating(page):.1f}")
    finally:
        page.close()


def test_solve(args):
    solve_and_reload(args, "en")


def test_solve_korean(args):
    solve_and_reload(args, "ko")


def test_fail(args):
    fail(args, "en")


def test_fail_korean(args):
    fail(args, "ko")


def test_links(args):
    """Every puzzle's link opens it (a sample of a large file); an unknown
    one says so and shows another."""
    page = open_page(args)
    try:
        base = page.driver.current_url.split("#")[0]
        for pid in [p["id"] for p in sample(list(puzzles(page).values()), 12)]:
            page.driver.get("about:blank")
            page.driver.get(f"{base}#{pid}")
            wait(f"puzzle {pid}", lambda: page.js("return document.body.dataset.puzzleState") == "solving" and
                 shown(page)["id"] == pid, 30)
            check(page.state()["start"] == shown(page)["position"], f"{pid}: the board is its position")
        page.driver.get("about:blank")
        page.driver.get(f"{base}#no-such-puzzle")
        wait_state(page, "solving")
        check("no-such-puzzle" in page.css("[data-event]")[0].text, "an unknown puzzle is named")
    finally:
        page.close()


# A proven line of a 2-player game (solve: blue wins by 10 after b6c5s
# c7d6s c5c7e), as a two-step puzzle: blue's move, red's reply, blue's
# move. For the page's steps only: whether b6c5s is blue's one optimal move
# the solver did not finish proving, so it is no puzzle to ship.
TWO_STEPS = {
    "id": "two-steps", "theme": "race", "rating": 1500, "playouts": 0, "value": {"result": "win", "margin": 10},
    "position": "players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0 turn=blue "
                "red=c2,e3,c7,g7 blue=g3,d5,e5,b6 red-walls=b1e,c1n,e1n,a2e,c2e,e2e,a3n,c3n,c3e,e3n,e3e,f3n,b4n,d4e,"
                "d5e,b6n,b6e,c6e,g6n,b7e blue-walls=a1e,b1n,d1e,b2e,d2n,f2n,b3n,d3n,d3e,g3n,e4n,e4e,c5e,e5n,f5n,d6e,"
                "e6e,f6n,e7e",
    "steps": [{"accept": ["b6c5s"], "replies": ["c7d6s"]}, {"accept": ["c5c7e"], "replies": []}]}


def test_steps(args):
    """A puzzle of two steps (a site whose puzzles.json holds TWO_STEPS):
    the first move, the board's reply, then the second move solves it. A
    puzzle whose position the rules refuse stops with the bridge's reason."""
    import shutil
    import tempfile
    import site_test  # noqa: E402
    with tempfile.TemporaryDirectory() as folder:
        site = os.path.join(folder, "site")
        shutil.copytree(args.site, site)
        with open(os.path.join(site, "puzzles.json"), "w") as f:
            broken = {**TWO_STEPS, "id": "bad-position", "position": TWO_STEPS["position"].replace("g7", "g8")}
            json.dump({"format": "wallgo-puzzles", "version": 1, "puzzles": [TWO_STEPS, broken]}, f)
        page = site_test.Site(args, path=None, site=site)
        try:
            page.open("puzzles.html#two-steps")
            wait_state(page, "solving")
            play_by_clicks(page, "b6c5s")
            wait("the reply, then blue to move again", lambda: page.js(
                "return document.body.dataset.puzzleState") == "solving" and len(page.state()["moves"]) == 2, 10)
            check([m["move"] for m in page.state()["moves"]] == ["b6c5s", "c7d6s"], "the step's reply played")
            check_words(page, "en", "puzzle.findNext", colour="blue")
            play_by_clicks(page, "c5c7e")
            wait_state(page, "solved")
            page.js("location.hash = 'bad-position'")
            wait_state(page, "done")
            reason = page.css("[data-event]")[0].text
            check("g8" in reason, f"the bridge's reason shown: {reason!r}")
            check(not page.css(".stone-choice") and not page.css("[data-stone]"), "no board, no move offered")
        finally:
            page.close()


def test_two_tabs(args):
    """wallgo-gui: a second tab sets up another puzzle on the same game; the
    first says so and waits, and Try again takes the game back."""
    page = open_page(args)
    try:
        first = page.driver.current_window_handle
        mine = shown(page)["id"]
        other = next(pid for pid in puzzles(page) if pid != mine)
        page.driver.switch_to.new_window("tab")
        page.driver.get(page.root + f"/puzzles.html#{other}")
        wait_state(page, "solving")
        page.driver.switch_to.window(first)
        wait("the first tab to see its game taken", lambda: page.js(
            "return document.body.dataset.puzzleState") == "done", 10)
        check(page.css("[data-event]")[0].text == catalogue("en")["puzzle.taken"], "the first tab says why")
        page.click("[data-action=retry-puzzle]")
        wait_state(page, "solving")
        check(page.state()["start"] == shown(page)["position"] and shown(page)["id"] == mine, "its puzzle back")
        check(page.css("[data-event]")[0].get_attribute("hidden") is not None, "the notice gone")
    finally:
        page.close()


def sample(all_puzzles, most=30):
    """At most `most` puzzles: the first of each kind (players, steps, and
    whether the answer breaks a wall), then others evenly spread over the
    file."""
    kinds, chosen = set(), []
    for p in all_puzzles:
        kind = (p["position"].split()[0], len(p["steps"]),
                "x" in p["steps"][0]["accept"][0])
        if kind not in kinds:
            kinds.add(kind)
            chosen.append(p)
    rest = [p for p in all_puzzles if p not in chosen]
    room = max(0, most - len(chosen))
    chosen += rest[::max(1, -(-len(rest) // room))][:room] if room else []
    return chosen


def test_every_puzzle(args):
    """The puzzles the server serves (all of a small file, a sample of a
    large one), each opened by its address (#ID) and played through its
    line by clicks (each step's first accepted move, the board's replies
    between): the board is the puzzle's position, every move is legal, and
    the line ends solved. Checks the puzzle data against the rules as much
    as the page."""
    page = open_page(args)
    try:
        played = sample(list(puzzles(page).values()))
        for puzzle in played:
            pid = puzzle["id"]
            page.js("location.hash = arguments[0]", pid)
            wait(f"puzzle {pid}", lambda: page.js("return document.body.dataset.puzzleState") == "solving" and
                 shown(page)["id"] == pid, 30)
            check(page.state()["start"] == puzzle["position"], f"{pid}: the board is its position")
            for i, step in enumerate(puzzle["steps"]):
                move = step["accept"][0]
                check(move in page.state()["board"]["legal"], f"{pid} step {i + 1}: {move} is not legal")
                plies = len(page.state()["moves"]) + 1 + len(step["replies"])
                play_by_clicks(page, move)
                if i + 1 < len(puzzle["steps"]):
                    wait(f"{pid} step {i + 1}'s replies", lambda: page.js(
                        "return document.body.dataset.puzzleState") == "solving" and
                        len(page.state()["moves"]) == plies, 20)
            wait_state(page, "solved")
            wait(f"{pid}: the last replies", lambda: [m["move"] for m in page.state()["moves"]][-1:] ==
                 ([*puzzle["steps"][-1]["replies"]] or [puzzle["steps"][-1]["accept"][0]])[-1:], 10)
        print(f"{len(played)} of {len(puzzles(page))} puzzles played through")
    finally:
        page.close()


def test_phone(args):
    """At 390x844 with touches: no sideways scroll, the board first, and a
    puzzle solved by taps."""
    import phone_test  # noqa: E402  (taps like a thumb's)
    page = open_page(args, phone=phone_test.PORTRAIT)
    try:
        check(page.js("return document.documentElement.scrollWidth <= innerWidth"), "no sideways scroll")
        board = phone_test.box(page, "#board")
        check(board["width"] >= 370, f"the board is {board['width']} px wide")
        token = shown(page)["steps"][0]["accept"][0]
        phone_test.tap_element(page, f".stone-choice[data-cell='{token[:2]}']")
        wait("destinations", lambda: page.css(f".dest-choice[data-cell='{token[2:4]}']"), 5)
        phone_test.tap(page, phone_test.cell_point(page, token[2:4], 0.5, 0.5))
        wait("wall choices", lambda: page.css(f"[data-wall-hit][data-token='{token}']"), 5)
        phone_test.tap(page, phone_test.wall_point(page, token[2:4], token[-1], 12, 0))
        wait_state(page, "solved")
        page.shot("puzzles_phone_solved.png")
    finally:
        page.close()


def main():
    tests = {name[5:]: f for name, f in globals().items() if name.startswith("test_")}
    parser = argparse.ArgumentParser()
    parser.add_argument("test", choices=sorted(tests))
    parser.add_argument("--host", choices=["gui", "site"], required=True)
    parser.add_argument("--bin", required=True, help="folder with wallgo-gui and wallgo")
    parser.add_argument("--site", help="the site tools/web/build.sh made (--host site)")
    parser.add_argument("--shots", required=True, help="folder for screenshots")
    args = parser.parse_args()
    if args.host == "site" and not os.path.exists(os.path.join(args.site or "", "wallgo-site.wasm")):
        print(f"skipped: no wasm build in {args.site} (the web_build test makes it)")
        return 77
    return gui.run(tests[args.test], args)


if __name__ == "__main__":
    sys.exit(main())
