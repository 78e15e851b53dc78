#!/usr/bin/python3
"""What browser_test.py's tests share, and the site's tests too
(tests/tools/web/site_test.py, phone_test.py): Debian's chromium started
headless through chromium-driver and python3-selenium, a wallgo-gui process
with its page (Gui: clicks and keys like a person), the engine's own scores,
the planted game's records file, the page's message catalogue, and running
one test to an exit status.
"""
import json
import os
import re
import signal
import subprocess
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains


class Failure(Exception):
    pass


def wait(what, predicate, timeout=20.0, interval=0.05):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise Failure(f"timed out waiting for {what}")


def check(condition, message):
    if not condition:
        raise Failure(message)


def start_chromium(flags=(), phone=None):
    """Debian's chromium, headless, through chromium-driver, with `flags`
    added to its command line; `phone` (width, height) emulates a phone's
    screen of that many CSS pixels, with touch (Chromium's mobile
    emulation)."""
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
                 "--disable-dev-shm-usage", *flags):
        options.add_argument(flag)
    if phone:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": phone[0], "height": phone[1], "pixelRatio": 2.0, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                         "(KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36"})
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Gui:
    """A wallgo-gui process and a headless chromium on its page."""

    def __init__(self, args, engines, shots, game="test", flags=()):
        self.args = args
        self.shots = shots
        command = [os.path.join(args.bin, "wallgo-gui"), "--port", "0", *flags]
        for engine in engines:
            command += ["--engine", engine]
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"(http://\S+)", line)
        if not match:
            self.process.kill()
            raise Failure(f"wallgo-gui printed no URL: {line!r}")
        self.url = match.group(1)
        self.root = re.match(r"http://[^/]+", self.url).group(0)
        self.driver = start_chromium()
        started = time.time()
        if game:
            self.open(f"/game/{game}")
        self.load_s = time.time() - started

    def open(self, path):
        """Opens a page of this server (a game's or the games list) in the
        current tab and waits until it has drawn its first state."""
        self.driver.get(self.root + path)
        wait(f"the page {path}", lambda: self.js("return document.body.dataset.ready === 'true'"))

    def close(self):
        try:
            self.driver.quit()
        finally:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(10)
                except subprocess.TimeoutExpired:
                    self.process.kill()

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def state(self):
        return self.js("return window.wallgo.state()")

    def css(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def mouse(self, selector, click):
        """Moves the mouse to the first match (a real pointer event at its
        centre, as SVG elements need) and clicks it if asked. The page
        redraws the board and tables on every message, so an element just
        found may be gone: find it again."""
        for _ in range(20):
            try:
                actions = ActionChains(self.driver).move_to_element(self.css(selector)[0])
                (actions.click() if click else actions).perform()
                return
            except (StaleElementReferenceException, IndexError):
                time.sleep(0.05)
        raise Failure(f"nothing to {'click' if click else 'hover'} at {selector}")

    def click(self, selector):
        self.mouse(selector, click=True)

    def hover(self, selector):
        self.mouse(selector, click=False)

    def shot(self, name):
        path = os.path.join(self.shots, name)
        self.driver.save_screenshot(path)
        print(f"screenshot {path}")
        return path

    def position(self):
        # Folded away under "Technical details": the text, shown or not.
        return self.css("[data-position]")[0].get_attribute("textContent")

    def version(self):
        return int(self.js("return Number(document.body.dataset.version)"))

    def wait_change(self, before, what, timeout=20):
        wait(what, lambda: self.version() != before, timeout)

    def human_to_move(self):
        s = self.state()
        if s["board"]["phase"] == "finished":
            return False
        seat = next(x for x in s["seats"] if x["colour"] == s["board"]["turn"])
        return seat["kind"] == "human" and s["cursor"] == len(s["moves"])

    def play_by_clicks(self):
        """One move of the human to move, by clicking like a person: a
        placement, or a stone, a highlighted destination and a wall side."""
        before = self.version()
        if self.css(".place-choice"):
            self.click(".place-choice")
        elif self.css("#pass:not([hidden])"):
            self.click("#pass")
        else:
            self.click(".stone-choice")
            wait("destinations", lambda: self.css(".dest-choice"), 5)
            check(self.css(".selected"), "the stone is not shown selected")
            self.click(".dest-choice")
            wait("wall choices", lambda: self.css(".wall-choice"), 5)
            edge = self.css(".wall-choice")[0].get_attribute("data-edge")
            check(re.fullmatch(r"[a-g][1-7][ne]", edge), f"bad data-edge {edge}")
            self.click(".wall-choice")
        self.wait_change(before, "the move to be played")


def engine_score(args, position):
    """The engine's own `score` of a position, e.g. {'red': 19, 'blue': 13}."""
    out = subprocess.run([os.path.join(args.bin, "wallgo")], input=f"setup {position}\nscore\nquit\n",
                         capture_output=True, text=True, timeout=20).stdout
    line = next(l for l in out.splitlines() if l.startswith("=") and "status=" in l)
    return {k: int(v) for k, v in re.findall(r"(red|blue|green|yellow)=(\d+)", line)}


def page_scores(gui):
    return {e.get_attribute("data-score-value"): int(e.text) for e in gui.css("[data-score-value]")}


def wallgo(args, flags="--level 1 --movetime 0.05 --hash 16"):
    return f"name=wallgo:{os.path.join(args.bin, 'wallgo')} {flags}"


def mock(args, flags=""):
    return f"name=mock:{os.path.join(args.bin, 'wallgo-mock-engine')} {flags}"



# A game level 8 won against level 2 (wallgo-referee, 0.2 s a move), cut at
# a position red wins (its win rate 0.99 to wallgo at 800 visits) and ended
# with a planted blunder: d3e2w throws the win away (0.16 after it).
PLANTED_RULES = "players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0"
PLANTED = ("b:f5 r:c6 r:g1g3n b:c4c2w r:b2c3n b:f5e6e r:f6e5w b:f2f4e r:e5f5e b:f4f2w r:g3f3s b:c2c2n "
           "r:f3e2n b:c2d3w r:e2d2w b:f2e1n r:d2d1e b:e6f7s r:c3b4e b:e1g1w r:f5f3e b:d3e4s r:f3f4s "
           "b:e4d4w r:d1d3n b:d4e4e r:f4e5n b:e4d5n r:b4b4n b:d5c5n r:b4a5s b:b6b6e r:d3e2w")


def planted_records(folder, games=1):
    """A records file in `folder` of `games` copies of the planted game."""
    colours = {"r": "red", "b": "blue"}
    moves = [{"colour": colours[t[0]], "move": t[2:], "ms": 100} for t in PLANTED.split()]
    path = os.path.join(folder, "planted.jsonl")
    with open(path, "w") as f:
        for game in range(1, games + 1):
            record = {"game": game, "set": 0, "seats": {"red": "planted", "blue": "level2"},
                      "rules": PLANTED_RULES, "opening": "g1 c4", "moves": moves,
                      "scores": {"red": 0, "blue": 0}, "winner": "draw", "winners": ["red", "blue"],
                      "reason": "unfinished", "final": ""}
            f.write(json.dumps(record) + "\n")
    return path


def load_records(page, path, timeout=20):
    """Loads a records file through the page's file input, as a person does."""
    page.css("#io-panel summary")[0].click()
    before = page.version()
    page.css("[data-records-file]")[0].send_keys(path)
    page.wait_change(before, "the records to load", timeout)



WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "gui", "web")


def catalogue_problems():
    """Keys a language lacks or has too many of, and keys the page's files
    use that the catalogue lacks."""
    catalogue = json.load(open(os.path.join(WEB, "messages.json")))
    english = set(catalogue["en"])
    problems = [f"{lang}: missing {sorted(english - set(keys))}, extra {sorted(set(keys) - english)}"
                for lang, keys in catalogue.items() if set(keys) != english]
    for name in os.listdir(WEB):
        if name.endswith((".js", ".html")):
            text = open(os.path.join(WEB, name)).read()
            used = set(re.findall(r"\bt\('([\w.]+)'", text)) | set(
                re.findall(r'data-i18n(?:-title|-placeholder)?="([\w.]+)"', text))
            problems += [f"{name} uses {key}, not in the catalogue" for key in sorted(used - english)]
    return catalogue, problems


UNTRANSLATED = """
const texts = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  if (n.parentElement.closest('code, script, style, [data-move], #board, #game-name')) continue;
  if (n.textContent.trim()) texts.push(n.textContent.trim());
}
for (const e of document.querySelectorAll('[title], [placeholder]')) {
  if (e.title) texts.push(e.title.trim());
  if (e.placeholder) texts.push(e.placeholder.trim());
}
return texts;
"""


def english_left(catalogue, lang, texts):
    """The English strings of the catalogue that `lang` translates but that
    are still among the page's `texts` (UNTRANSLATED's result)."""
    english = catalogue["en"]
    return sorted({value for key, value in english.items()
                   if key != "lang.name" and value != catalogue[lang][key] and re.search(r"[A-Za-z]{3}", value) and
                   any(text == value or (" " in value and value in text) for text in texts)})



def run(test, args):
    """Runs one test function; its exit status (0 passed, 1 failed)."""
    os.makedirs(args.shots, exist_ok=True)
    started = time.time()
    try:
        test(args)
    except Failure as failure:
        print(f"FAILED {args.test}: {failure}")
        return 1
    print(f"PASSED {args.test} in {time.time() - started:.1f} s")
    return 0
