#!/usr/bin/python3
"""End-to-end tests of wallgo-gui in a real browser: Debian's chromium driven
by chromium-driver through python3-selenium, headless, on a free port.

  browser_test.py TEST --bin DIR --shots DIR [--docs-image FILE]

TEST is one of: first_page, full_game, three_players, record, analysis, recover, games, timer,
review, languages, two_machines. Each
starts its own wallgo-gui (and engines), drives the page only by clicks and
keys like a person, checks what the page shows, and saves screenshots.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.support.ui import Select

from browser_support import (PLANTED, Gui, catalogue_problems, check, english_left, engine_score,
                             load_records, mock, page_scores, planted_records, run, wait, wallgo,
                             UNTRANSLATED)


def test_full_game(args):
    """A whole 2-player game, the person (red) against wallgo at level 1, by
    clicks only; the final score on the page is the engine's `score`."""
    gui = Gui(args, [wallgo(args)], args.shots)
    try:
        print(f"page load: {gui.js('return window.wallgoMetrics.loadMs'):.0f} ms from navigation start to the "
              f"first board drawn ({gui.load_s * 1000:.0f} ms around driver.get)")
        s = gui.state()
        check([x["kind"] for x in s["seats"]] == ["human", "engine"], "default seats: you red, wallgo blue")
        check(len(gui.css("[data-cell]")) >= 49, "every cell has data-cell")
        # A hint: wallgo's move for the person, drawn on the board.
        gui.click("[data-action=hint]")
        hint = wait("the hint", lambda: gui.css("[data-hint]")[0].get_attribute("data-hint"), 10)
        check(hint in gui.state()["board"]["legal"], f"the hint {hint} is a legal move")
        check(gui.css(f"[data-hint-move='{hint}']"), "the hint is drawn")
        moves = 0
        while gui.state()["board"]["phase"] != "finished":
            wait("red's turn or the end", lambda: gui.human_to_move() or gui.state()["board"]["phase"] == "finished", 30)
            if gui.state()["board"]["phase"] == "finished":
                break
            gui.play_by_clicks()
            moves += 1
            if moves == 6:
                gui.shot("full_game_middle.png")
            check(moves < 120, "the game does not end")
        s = gui.state()
        listed = [e.get_attribute("data-move") for e in gui.css("[data-move]")]
        check(listed == [m["move"] for m in s["moves"]], "the move list shows every move with data-move")
        final = gui.position()
        check(final == s["board"]["position"], "data-position is the position")
        expected = engine_score(args, final)
        check(page_scores(gui) == expected, f"page scores {page_scores(gui)} != engine's {expected}")
        check("game over" in gui.css("[data-status]")[0].text, "the status says the game is over")
        delays = gui.js("return window.wallgoMetrics.clickToDrawn")
        if delays:
            delays.sort()
            print(f"click-to-drawn minus think time: median {delays[len(delays) // 2]:.1f} ms, "
                  f"max {delays[-1]:.1f} ms over {len(delays)} engine replies")
        print(f"{len(s['moves'])} plies, {moves} by clicks; final {expected}")
        gui.shot("full_game_final.png")
        svg = gui.js("return window.wallgo.svgText()")
        check("data-edge" in svg and "<style>" in svg, "the SVG export has the walls and styles")
        # Readable on a phone: the board above the panels, full width.
        gui.driver.set_window_size(390, 844)
        time.sleep(0.3)
        width = gui.js("return document.getElementById('board').getBoundingClientRect().width")
        check(width >= 340, f"the board is {width} px wide on a phone")
        gui.shot("full_game_phone.png")
    finally:
        gui.close()


def test_first_page(args):
    """The address wallgo-gui prints opens a board ready to play: a new game,
    the person (red) against wallgo, where one click on a cell places a
    stone. Opening it again gives the same board until someone plays in it,
    then a new one; the games list is one click away and lists just those
    two, and its own link leads back to a board."""
    gui = Gui(args, [wallgo(args)], args.shots, game=None)
    try:
        def open_printed():
            gui.driver.get(gui.url)
            wait("a board", lambda: gui.js("return document.body.dataset.ready === 'true'"))
            return gui.js("return window.wallgo.game")
        first = open_printed()
        check(re.search(r"/game/[\w-]+$", gui.driver.current_url), f"a game's page: {gui.driver.current_url}")
        s = gui.state()
        check([x.get("engine", x["kind"]) for x in s["seats"]] == ["human", "wallgo"], f"seats {s['seats']}")
        check(s["moves"] == [] and s["board"]["phase"] == "setup", "a new game")
        check(open_printed() == first, "the same board while nobody has played in it")
        gui.shot("first_page.png")
        gui.play_by_clicks()
        move = gui.state()["moves"][0]
        check(move["colour"] == "red" and re.fullmatch(r"[a-g][1-7]", move["move"]), f"a placement: {move}")
        second = open_printed()
        check(second != first and gui.state()["moves"] == [], f"a new board once {first} is played: {second}")
        gui.click("[data-games-link]")
        wait("the games list", lambda: gui.driver.current_url.endswith("/games") and gui.css("[data-game]"), 10)
        listed = sorted(e.get_attribute("data-game") for e in gui.css("[data-game]"))
        check(listed == sorted([first, second]), f"listed {listed}")
        gui.click("[data-play-link]")
        wait("a board again", lambda: gui.js("return window.wallgo && window.wallgo.game") == second, 10)
    finally:
        gui.close()


def test_three_players(args):
    """A 3-player game set up on the page: red wallgo, blue a person, green
    the mock engine; breakers are shown and everyone moves in turn."""
    gui = Gui(args, [wallgo(args), mock(args, "--seed 3")], args.shots)
    try:
        gui.css("#new-game-panel summary")[0].click()
        Select(gui.css("select[name=players]")[0]).select_by_visible_text("3")
        wait("three seat rows", lambda: len(gui.css(".seat-row")) == 3, 5)
        Select(gui.css("select[name=seat-red]")[0]).select_by_value("engine:wallgo")
        Select(gui.css("select[name=seat-blue]")[0]).select_by_value("human")
        Select(gui.css("select[name=seat-green]")[0]).select_by_value("engine:mock")
        # The picker's labels come with levels.json, which may load later.
        wait("the levels' Elo", lambda: "about" in gui.css("select[name=level-red] option")[6].text, 10)
        level = Select(gui.css("select[name=level-red]")[0])
        label = level.options[6].text
        check(re.fullmatch(r"level 6 · about \d+\+?", label), f"the level picker says {label}")
        level.select_by_value("1")
        gui.css("input[name=clock-red]")[0].send_keys("30")
        gui.css("input[name=increment-red]")[0].send_keys("1")
        before = gui.version()
        gui.click("[data-action=new-game]")
        gui.wait_change(before, "the new game")
        s = gui.state()
        check(s["rules"].startswith("players=3 setup=empty"), f"rules {s['rules']}")
        check([x.get("engine", "human") for x in s["seats"]] == ["wallgo", "human", "mock"], f"seats {s['seats']}")
        check(s["seats"][0].get("level") == 1, "the level reached the seat")
        check(s["seats"][0].get("clock") == 30 and s["seats"][0].get("increment") == 1, "red's clock")
        human_turns = 0
        while len(gui.state()["moves"]) < 18:
            wait("blue's turn", lambda: gui.human_to_move() or gui.state()["board"]["phase"] == "finished", 30)
            if gui.state()["board"]["phase"] == "finished":
                break
            gui.play_by_clicks()
            human_turns += 1
        s = gui.state()
        colours = [m["colour"] for m in s["moves"][:12]]
        check(set(colours) == {"red", "blue", "green"}, "all three seats moved")
        check(s["board"]["breakersLeft"] == {"red": 1, "blue": 1, "green": 1} or s["board"]["phase"] != "setup",
              "breakers are shown")
        check(len(gui.css("[data-score=green]")) == 1, "green's score row")
        clock = gui.css("[data-clock=red]")[0].text
        left = s["seats"][0]["clockLeft"]
        expected = 30 + sum(1 - m["ms"] / 1000 for m in s["moves"] if m["colour"] == "red")
        check(abs(left - expected) < 1e-6 and "clock" in clock, f"red's clock shows {clock}, {left} s left")
        check(gui.state()["engines"][0]["state"] != "failed", "wallgo took the clock commands")
        print(f"3 players: {len(s['moves'])} plies, {human_turns} by clicks")
        gui.shot("three_players.png")
    finally:
        gui.close()


def test_record(args):
    """A wallgo-referee records file loaded from the page: pick a game, step
    through it, and see the referee's reason and every move's time."""
    with tempfile.TemporaryDirectory() as tmp:
        records = os.path.join(tmp, "match.jsonl")
        subprocess.run([os.path.join(args.bin, "wallgo-referee"), "--engine",
                        f"name=one:{os.path.join(args.bin, 'wallgo-mock-engine')} --seed 1",
                        "--engine", f"name=two:{os.path.join(args.bin, 'wallgo-mock-engine')} --seed 2",
                        "--games", "2", "--movetime", "1", "--records", records, "--quiet"],
                       check=True, capture_output=True, timeout=60)
        lines = [json.loads(l) for l in open(records) if l.strip()]
        gui = Gui(args, [mock(args)], args.shots)
        try:
            gui.css("#io-panel summary")[0].click()
            before = gui.version()
            gui.css("[data-records-file]")[0].send_keys(records)
            gui.wait_change(before, "the records to load")
            options = gui.css("[data-record-select] option")
            check(len(options) == 2, f"{len(options)} games listed")
            before = gui.version()
            Select(gui.css("[data-record-select]")[0]).select_by_index(1)
            gui.wait_change(before, "game 2")
            record = lines[1]
            info = gui.css("#record-info")[0].text
            check(f"game {record['game']}" in info and record["reason"] in info, f"record info: {info}")
            s = gui.state()
            check(s["cursor"] == 0, "a record opens at its start")
            check(all("ms" in m for m in s["moves"][-len(record["moves"]):]), "every recorded move has its time")
            for step in range(3):
                before = gui.version()
                gui.click("[data-nav=forward]")
                gui.wait_change(before, "a step forward")
            check(gui.state()["cursor"] == 3, "three steps forward")
            check(gui.css("#moves li.current")[0].get_attribute("data-ply") == "3", "the move list follows")
            before = gui.version()
            gui.click("[data-nav=last]")
            gui.wait_change(before, "the end")
            check(gui.position() == record["final"], "the last position is the record's final position")
            gui.shot("record.png")
        finally:
            gui.close()


def test_analysis(args):
    """Analysis on: wallgo's candidates drawn on the board, the principal
    variation on hover, analysis following navigation and the graph filling."""
    gui = Gui(args, [wallgo(args, "--hash 16 --threads 1")], args.shots)
    try:
        before = gui.version()
        gui.js("window.wallgo.socket().send(JSON.stringify({type: 'new', seats: [{kind: 'human'}, {kind: 'human'}]}))")
        gui.wait_change(before, "a human-vs-human game")
        for token in ["d4", "c3", "e5", "a1", "b2b3n", "c3c4w"]:
            before = gui.version()
            box = gui.css("[data-move-input]")[0]
            box.send_keys(token + "\n")
            gui.wait_change(before, f"move {token}")
        check(len(gui.css("[data-move]")) == 6, "six moves typed")
        gui.click("[data-analysis-toggle]")
        wait("candidates on the board", lambda: len(gui.css("svg .candidate")) >= 2, 20)
        wait("candidate rows", lambda: gui.css("[data-candidate-row]"), 5)
        gui.hover("[data-candidate-row]")
        wait("the principal variation preview", lambda: gui.css(".pv-preview .pv-dot"), 5)
        time.sleep(0.6)
        gui.shot("analysis.png")
        for ply in (5, 4):
            before = gui.version()
            gui.click("[data-nav=back]")
            gui.wait_change(before, "a step back")
            wait(f"analysis of ply {ply}", lambda: gui.state()["analysis"]["ply"] == ply and
                 gui.state()["analysis"]["candidates"], 20)
        graph = gui.state()["graph"]
        check({p["ply"] for p in graph} >= {4, 5, 6}, f"graph points {graph}")
        check(len(gui.css("#graph .graph-point")) >= 3, "graph points drawn")
        gui.hover("[data-candidate-row]")
        wait("the preview again", lambda: gui.css(".pv-preview .pv-dot"), 5)
        gui.shot("analysis_review.png")
        if args.docs_image:
            gui.driver.save_screenshot(args.docs_image)
        gui.click("[data-analysis-toggle]")
        wait("analysis off", lambda: not gui.state()["analysis"]["on"], 5)
        wait("the engine idle", lambda: gui.state()["engines"][0]["state"] == "ready", 10)
    finally:
        gui.close()


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_recover(args):
    """The engine is killed while it thinks: the page says so and keeps the
    game; Restart brings it back and it plays on. A dropped connection comes
    back to the same game; stopping the server leaves no engine behind."""
    gui = Gui(args, [wallgo(args, "--movetime 1.5 --hash 16")], args.shots)
    try:
        gui.play_by_clicks()  # red places; wallgo thinks 1.5 s for blue
        wait("the engine thinking", lambda: gui.state()["engines"][0]["state"] == "thinking", 10)
        pid = gui.state()["engines"][0]["pid"]
        moves_before = [m["move"] for m in gui.state()["moves"]]
        os.killpg(pid, signal.SIGKILL)
        wait("the engine failure shown", lambda: gui.css("[data-engine][data-state=failed]"), 10)
        event = gui.css("[data-event]")[0].text
        check("crashed" in event and "restart" in event, f"event text: {event}")
        check([m["move"] for m in gui.state()["moves"]] == moves_before, "the game is kept")
        gui.shot("recover_failed.png")
        gui.click("[data-restart=wallgo]")
        wait("the engine's move after the restart", lambda: len(gui.state()["moves"]) > len(moves_before), 20)
        new_pid = gui.state()["engines"][0]["pid"]
        check(new_pid != pid, "a new engine process")
        # The browser loses its connection and comes back to the same game.
        position = gui.position()
        gui.js("window.wallgo.socket().close()")
        wait("the reconnection", lambda: gui.js(
            "return window.wallgo.socket().readyState === 1 && document.querySelector('[data-connection]').dataset.connection === 'open'"), 10)
        check(gui.position() == position, "the same game after reconnecting")
        wait("red's turn", gui.human_to_move, 20)
        gui.play_by_clicks()
        gui.shot("recover_continued.png")
        engine_pid = gui.state()["engines"][0]["pid"]
    finally:
        gui.close()
    wait("no engine left after the server stops", lambda: not pid_alive(engine_pid), 10)


def test_games(args):
    """Two tabs on two game URLs play two different games at once; each
    follows only its own game, which survives a reload; the games list shows
    both; past --max-games a new name gets a clear message."""
    gui = Gui(args, [wallgo(args)], args.shots, game="alpha", flags=["--max-games", "2"])
    try:
        first = gui.driver.current_window_handle
        gui.play_by_clicks()
        wait("wallgo's reply in alpha", lambda: len(gui.state()["moves"]) >= 3, 20)
        gui.driver.switch_to.new_window("tab")
        gui.open("/game/beta")
        check(gui.js("return window.wallgo.game") == "beta", "the second tab is on beta")
        check(gui.state()["moves"] == [], "beta is a new game")
        before = gui.version()
        gui.css("[data-move-input]")[0].send_keys("a7\n")
        gui.wait_change(before, "a move in beta")
        beta = gui.state()
        check(beta["moves"][0]["move"] == "a7", "beta's own move")
        gui.driver.switch_to.window(first)
        alpha = gui.state()
        check(alpha["moves"][0]["move"] != "a7", "alpha did not get beta's move")
        check(all(m["move"] != "a7" or i > 0 for i, m in enumerate(alpha["moves"])), "alpha kept its moves")
        moves = [m["move"] for m in alpha["moves"]]
        gui.driver.refresh()
        wait("alpha again after a reload", lambda: gui.js("return document.body.dataset.ready === 'true'"))
        check([m["move"] for m in gui.state()["moves"]][:len(moves)] == moves, "alpha survives a reload")
        # The games list.
        gui.open("/games")
        wait("both games listed", lambda: len(gui.css("[data-game]")) == 2, 10)
        rows = {e.get_attribute("data-game"): e.text for e in gui.css("[data-game]")}
        check(set(rows) == {"alpha", "beta"}, f"listed {rows}")
        gui.shot("games_list.png")
        if args.docs_image:
            gui.driver.save_screenshot(args.docs_image)
        # A third game is one too many.
        gui.driver.get(gui.root + "/game/gamma")
        wait("the refusal", lambda: gui.js("return document.body.dataset.refused === 'refused'"), 10)
        text = gui.css("[data-event]")[0].text
        check("--max-games 2" in text, f"the limit is explained: {text}")
        # No room for a board ready to play either: / shows the games list.
        gui.open("/")
        check(gui.driver.current_url.endswith("/games"), f"/ when full: {gui.driver.current_url}")
        # Closing beta from the games list makes room.
        wait("the rows", lambda: gui.css("button[data-close=beta]"), 10)
        gui.js("window.confirm = () => true")
        gui.click("button[data-close=beta]")
        wait("beta closed", lambda: len(gui.css("[data-game]")) == 1, 10)
        gui.open("/game/gamma")
        check(gui.state()["moves"] == [], "gamma opens once there is room")
    finally:
        gui.close()


def test_timer(args):
    """A person's turn runs out: the countdown warns in its last 10 s, a
    reload does not give the time back, and the server plays the rule's
    penalty (a random turn) for the late player."""
    gui = Gui(args, [wallgo(args)], args.shots)
    try:
        gui.css("#new-game-panel summary")[0].click()
        Select(gui.css("select[name=seat-blue]")[0]).select_by_value("human")
        gui.click("[data-action=show-rules]")
        check(gui.css("input[name=turn-blue]")[0].get_attribute("value") == "90", "show rules sets 90 s")
        turn = gui.css("input[name=turn-red]")[0]
        turn.clear()
        turn.send_keys("4")
        gui.css("input[name=clock-red]")[0].send_keys("300")
        before = gui.version()
        gui.click("[data-action=new-game]")
        gui.wait_change(before, "the timed game")
        s = gui.state()
        check(s["seats"][0]["turn"] == 4 and s["seats"][1]["turn"] == 90, f"turns {s['seats']}")
        wait("red's countdown warning", lambda: gui.css("[data-turn-clock=red][data-warning]"), 5)
        check(gui.css("[data-clock=red]"), "red's main clock beside the turn clock")
        check(not gui.css("[data-turn-clock=blue][data-warning]"), "blue is not warned")
        time.sleep(1)
        gui.driver.refresh()
        wait("the page again", lambda: gui.js("return document.body.dataset.ready === 'true'"))
        left = gui.state()["seats"][0]["turnLeft"]
        check(left < 3.2, f"the reload gave the time back: {left} s left of 4")
        shown = gui.css("[data-turn-clock=red]")[0].text
        gui.shot("timer_running.png")
        wait("the timeout's random turn", lambda: len(gui.state()["moves"]) == 1, 8)
        s = gui.state()
        check(s["moves"][0]["colour"] == "red" and s["moves"][0].get("random"), f"the penalty: {s['moves']}")
        check("red" in gui.css("[data-event]")[0].text, "the page says who ran out of time")
        check(s["seats"][1]["running"] and not gui.css("[data-turn-clock=red][data-warning]"), "blue's turn now")
        print(f"turn clock after a reload: {shown}; penalty {s['moves'][0]['move']}")
    finally:
        gui.close()



def test_review(args):
    """A records file is loaded and reviewed by wallgo with the classification
    of `wallgo-referee annotate`: the planted blunder is marked, both players
    get an accuracy, and stepping to the mistake shows the better move."""
    moves = PLANTED.split()
    with tempfile.TemporaryDirectory() as tmp:
        records = planted_records(tmp)
        gui = Gui(args, [wallgo(args, "--hash 16 --threads 1")], args.shots)
        try:
            load_records(gui, records)
            Select(gui.css("[data-review-time]")[0]).select_by_value("0.1")
            gui.click("[data-action=review]")
            wait("the progress bar", lambda: gui.css("[data-review-progress]:not([hidden])") or
                 gui.state()["review"]["state"] == "done", 10)
            wait("the review", lambda: gui.state()["review"]["state"] in ("done", "failed"), 40)
            review = gui.state()["review"]
            check(review["state"] == "done", f"review: {review['error']}")
            ply = len(gui.state()["moves"])
            last = gui.css(f"#moves li[data-ply='{ply}']")[0]
            check(last.get_attribute("data-judgement") == "blunder", f"the planted move is {last.get_attribute('data-judgement')}")
            check("??" in last.text, f"the blunder's symbol: {last.text}")
            accuracy = {e.get_attribute("data-accuracy"): float(e.text) for e in gui.css("[data-accuracy]")}
            check(set(accuracy) == {"red", "blue"}, f"accuracy {accuracy}")
            # Step from mistake to mistake up to the planted one.
            for _ in range(40):
                if gui.state()["cursor"] == ply - 1:
                    break
                before = gui.version()
                gui.click("[data-action=next-mistake]")
                gui.wait_change(before, "the next mistake")
            check(gui.state()["cursor"] == ply - 1, "next-mistake reaches the blunder")
            best = review["notes"][ply - 1]["best"]
            wait("the better move drawn", lambda: gui.css(f"[data-better-move='{best}']"), 5)
            check(best in gui.css("[data-review-note]")[0].text, "the note names the better move")
            gui.shot("review.png")
            if args.docs_image:
                gui.driver.save_screenshot(args.docs_image)
            print(f"review: accuracy {accuracy}; blunder {moves[-1][2:]}, better {best}")
        finally:
            gui.close()


def test_languages(args):
    """Every language of the catalogue: no key missing anywhere, no English
    left on the page, <html lang> and the choice kept; a screenshot each (the
    Korean one with a person's turn clock running)."""
    catalogue, problems = catalogue_problems()
    check(not problems, "catalogue: " + "; ".join(problems))
    gui = Gui(args, [wallgo(args)], args.shots, game="languages")
    try:
        before = gui.version()
        gui.js("window.wallgo.socket().send(JSON.stringify({type: 'new', seats: ["
               "{kind: 'human', turn: 90, timeout: 'random', clock: 600, increment: 5},"
               "{kind: 'engine', engine: 'wallgo', turn: 90, timeout: 'random'}]}))")
        gui.wait_change(before, "a timed game")
        check(gui.js("return document.documentElement.lang") == "en", "English for an English browser")
        english = catalogue["en"]
        for lang in catalogue:
            gui.open(f"/game/languages?lang={lang}")
            gui.css("#rules-panel summary")[0].click()
            check(gui.js("return document.documentElement.lang") == lang, f"<html lang> is not {lang}")
            missing = gui.js("return [...window.wallgoMissingKeys]")
            check(not missing, f"{lang}: keys missing at run time: {missing}")
            texts = gui.js(UNTRANSLATED)
            if lang != "en":
                left = english_left(catalogue, lang, texts)
                check(not left, f"{lang}: English left on the page: {left}")
            status = gui.css("[data-status]")[0].text
            check(status and status == status.strip(), f"{lang}: a status line")
            wait(f"{lang}: the turn clock", lambda: gui.css("[data-turn-clock=red][data-running=true]"), 5)
            gui.shot(f"language_{lang}.png")
            if lang == "ko" and args.docs_image:
                gui.driver.set_window_size(1280, 1250)  # the rules' pictures too
                time.sleep(0.3)
                gui.driver.save_screenshot(args.docs_image)
                gui.driver.set_window_size(1280, 1000)
        # The switcher, remembered without ?lang; the browser's tags mapped.
        gui.open("/game/languages")
        Select(gui.css("[data-language-select]")[0]).select_by_value("ja")
        wait("Japanese", lambda: gui.js("return document.documentElement.lang") == "ja", 5)
        check(gui.css("[data-action=review]")[0].text == catalogue["ja"]["review.button"], "the page follows the switch")
        gui.open("/game/languages")
        check(gui.js("return document.documentElement.lang") == "ja", "the choice is remembered")
        gui.open("/games")
        check(gui.js("return document.documentElement.lang") == "ja", "the games list speaks it too")
        mapped = gui.driver.execute_async_script(
            "const done = arguments[0]; import('/i18n.js').then((m) => done("
            "['ko-KR', 'zh-TW', 'zh-HK', 'zh-CN', 'zh', 'ja-JP', 'es-419', 'fr-FR'].map(m.matchLanguage)));")
        check(mapped == ["ko", "zh-Hant", "zh-Hant", "zh-Hans", "zh-Hans", "ja", "es", None], f"mapped {mapped}")
        print(f"{len(catalogue)} languages, {len(english)} keys each")
    finally:
        gui.close()


def test_two_machines(args):
    """Listening beyond loopback: the host's page (the printed address with
    its key: a board ready to play) shows each seat's join link and keeps
    the key for the games list; a page without a key watches and cannot
    move, and / shows it the games list; a seat's link plays that colour
    only; foreign Origins are still refused. Another machine is played by another origin
    (localhost instead of 127.0.0.1: its own storage, no host key)."""
    gui = Gui(args, [wallgo(args)], args.shots, game=None, flags=["--listen", "0.0.0.0"])
    try:
        check("?key=" in gui.url, f"the host's address has its key: {gui.url}")
        gui.driver.get(gui.url)
        wait("the host's board", lambda: gui.js("return document.body.dataset.ready === 'true'"))
        check(gui.css(".place-choice"), "the host's board is ready to play")
        key = re.search(r"\?key=\w+", gui.url).group(0)
        wait("the games link with the key", lambda: gui.css("[data-games-link]")[0].get_attribute("href")
             == gui.root + "/games" + key, 5)
        gui.open("/game/duel")
        before = gui.version()
        gui.js("window.wallgo.socket().send(JSON.stringify({type: 'new', seats: [{kind: 'human'}, {kind: 'human'}]}))")
        gui.wait_change(before, "a game of two people")
        wait("the join links", lambda: len(gui.css("[data-join-link]")) == 2, 5)
        # Read in one script: the page may redraw the links between two WebDriver calls
        # (a stale element under ASan's slower server).
        links = gui.js("return Object.fromEntries([...document.querySelectorAll('[data-join-link]')]"
                       ".map(e => [e.dataset.joinLink, e.href]))")
        check(all(re.search(r"\?key=[0-9a-f]{32}$", l) for l in links.values()), f"unguessable keys: {links}")
        gui.shot("two_machines_host.png")
        other = gui.root.replace("127.0.0.1", "localhost")
        # A page without a key watches: / is the games list for it.
        gui.driver.get(other + "/")
        wait("the watcher's games list", lambda: gui.js("return document.body.dataset.ready === 'true'"))
        check(gui.driver.current_url == other + "/games", f"/ without a key: {gui.driver.current_url}")
        gui.driver.get(other + "/game/duel")
        wait("the watcher's page", lambda: gui.js("return document.body.dataset.ready === 'true'"))
        wait("the watcher's badge", lambda: gui.css("[data-seat-role=watch]:not([hidden])"), 5)
        check(not gui.css(".place-choice"), "a watcher is offered no move")
        gui.js("window.wallgo.socket().send(JSON.stringify({type: 'move', move: 'a7'}))")
        wait("the refusal", lambda: "only watches" in (gui.css("[data-event]")[0].text or ""), 5)
        check(gui.state()["moves"] == [], "the watcher's move was not played")
        # Red's link plays red, and only red.
        gui.driver.get(links["red"].replace(gui.root, other))
        wait("red's page", lambda: gui.js("return document.body.dataset.ready === 'true'"))
        wait("red's badge", lambda: gui.css("[data-seat-role=red]:not([hidden])"), 5)
        gui.play_by_clicks()
        check(gui.state()["moves"][0]["colour"] == "red", "red played by its link")
        gui.js("window.wallgo.socket().send(JSON.stringify({type: 'move', move: 'a7'}))")
        wait("blue's turn refused", lambda: "plays red only" in (gui.css("[data-event]")[0].text or ""), 5)
        check(len(gui.state()["moves"]) == 1, "red's page did not play blue")
        gui.js("window.wallgo.socket().send(JSON.stringify({type: 'seats', seats: [{kind: 'human'}, {kind: 'engine', engine: 'wallgo'}]}))")
        wait("seats refused", lambda: "host" in (gui.css("[data-event]")[0].text or ""), 5)
        from install_test import handshake_status
        port = int(gui.root.rsplit(":", 1)[1])
        check(" 403 " in handshake_status(port, "http://evil.example"), "a foreign Origin is refused")
    finally:
        gui.close()


def test_latency(args):
    """A measurement for docs/gui.md, not a CI test: page load, and the time
    from a click to the engine's reply drawn (less the engine's thinking),
    over a game by clicks while --games - 1 other games of two engines play
    on in other tabs."""
    gui = Gui(args, [wallgo(args)], args.shots, game="measured")
    try:
        first = gui.driver.current_window_handle
        for n in range(args.games - 1):
            gui.driver.switch_to.new_window("tab")
            gui.open(f"/game/busy{n}")
            # Two engines play on and on: a finished game starts again.
            gui.js("const again = () => window.wallgo.socket().send(JSON.stringify({type: 'new', seats: ["
                   "{kind: 'engine', engine: 'wallgo'}, {kind: 'engine', engine: 'wallgo'}]}));"
                   "again(); setInterval(() => { if (window.wallgo.state().board.phase === 'finished') again(); }, 200);")
        gui.driver.switch_to.window(first)
        gui.driver.refresh()
        wait("the page", lambda: gui.js("return document.body.dataset.ready === 'true'"))
        load = gui.js("return window.wallgoMetrics.loadMs")
        moves = 0
        while gui.state()["board"]["phase"] != "finished" and moves < 30:
            wait("red's turn", lambda: gui.human_to_move() or gui.state()["board"]["phase"] == "finished", 30)
            if gui.state()["board"]["phase"] == "finished":
                break
            gui.play_by_clicks()
            moves += 1
        delays = sorted(gui.js("return window.wallgoMetrics.clickToDrawn"))
        busy = 0
        for handle in gui.driver.window_handles[1:]:
            gui.driver.switch_to.window(handle)
            busy += len(gui.state()["moves"]) > 0
        gui.driver.switch_to.window(first)
        print(f"games {args.games} ({busy} of two engines beside): page load {load:.0f} ms; click-to-drawn less "
              f"thinking: median {delays[len(delays) // 2]:.1f} ms, 90th {delays[int(len(delays) * 0.9)]:.1f} ms, "
              f"max {delays[-1]:.1f} ms over {len(delays)} replies")
    finally:
        gui.close()


TESTS = {name[5:]: f for name, f in globals().items() if name.startswith("test_")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("test", choices=sorted(TESTS))
    parser.add_argument("--bin", required=True, help="folder with wallgo-gui, wallgo, ...")
    parser.add_argument("--shots", required=True, help="folder for screenshots")
    parser.add_argument("--docs-image", help="also save the test's main screenshot here")
    parser.add_argument("--games", type=int, default=1, help="latency: games running at once")
    args = parser.parse_args()
    return run(TESTS[args.test], args)


if __name__ == "__main__":
    sys.exit(main())
