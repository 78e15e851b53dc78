"""The engine as Python scripts drive it: `wallgo` speaking the text
protocol (docs/protocol.md) and `wallgo analysis` speaking JSON lines
(docs/analysis.md), each a child process. The C++ tools drive engines through
this folder's engine_process.h; the benchmarks, the puzzle tools, the soaks
and their tests use this module:

    sys.path.insert(0, os.path.join(ROOT, "tools", "client"))
    from wallgo_client import Protocol

Every answer is read in full before the next command goes out: any input
line stops a running `solve` or `analyze`.
"""

import json
import shlex
import subprocess

COLOURS = ("red", "blue", "green", "yellow")
# Results in the order a player prefers them.
RESULT_RANK = {"loss": 0, "draw": 1, "win": 2}


class EngineError(RuntimeError):
    """The engine refused a command, answered out of frame, or ended."""


def command_line(engine):
    """An argv from a list or a shell-style string ("nice -n 19 wallgo")."""
    return shlex.split(engine) if isinstance(engine, str) else list(engine)


class Protocol:
    """`wallgo` speaking the text protocol, one command at a time."""

    def __init__(self, engine, hash_mb=None, stderr=None):
        argv = command_line(engine)
        if hash_mb is not None:
            argv += ["--hash", str(hash_mb)]
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr,
                                     text=True, bufsize=1)

    def exchange(self, line):
        """The answer's lines as sent (`=` or `?` line first, up to the
        empty line); EngineError when the engine ends or answers unframed."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise EngineError(f"{self.argv[0]} ended before {line!r}")
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise EngineError(f"{self.argv[0]} ended during {line!r}")
            out = out.rstrip("\n")
            if out == "" and lines:
                break
            if out:
                lines.append(out)
        if lines[0][:1] not in "=?":
            raise EngineError(f"{line!r}: unframed answer {lines}")
        return lines

    def command(self, line):
        """The answer's lines, the first without its `=`; EngineError on `?`."""
        lines = self.exchange(line)
        if lines[0].startswith("?"):
            raise EngineError(f"{line!r}: {lines[0][1:].strip()}")
        lines[0] = lines[0][1:].strip()
        return lines

    def setup(self, position, moves=()):
        self.command("setup " + position)
        for move in moves:
            self.play(move)

    def play(self, move, colour=None):
        self.command(f"play {colour or self.to_move()} {move}")

    def position(self):
        return self.command("position")[0]

    def to_move(self):
        return field(self.position(), "turn")

    def legal_moves(self):
        return self.command("legal_moves")[0].split()

    def score(self):
        """`score`'s answer: red=19 blue=13 status=final winner=red."""
        return self.command("score")[0]

    def is_over(self):
        return "status=final" in self.score()

    def solve(self, seconds):
        """The solver's answer as a dict (parse_solve)."""
        return parse_solve(self.command(f"solve {seconds:g}"))

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait(timeout=30)
        self.proc.stdout.close()


def parse_solve(lines):
    """{"proven", "result", "margin", "values": {colour: (result, margin)},
    "optimal", "all_optimal", "pv"} from `solve`'s answer lines; an unproven
    two-player answer may add "range": ((result, margin), (result, margin)),
    the least and the most the side to move's value was proven to be."""
    answer = {"proven": False, "values": {}, "optimal": [],
              "all_optimal": False, "pv": []}
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "result" and words[1] != "unproven":
            answer.update(proven=True, result=words[1], margin=int(words[3]))
        elif words[0] == "values":
            answer["values"] = {
                words[i]: (words[i + 1], int(words[i + 2]))
                for i in range(1, len(words), 3)}
        elif words[0] in ("optimal", "optimal-known"):
            answer["optimal"] = words[1:]
            answer["all_optimal"] = words[0] == "optimal"
        elif words[0] == "pv":
            answer["pv"] = words[1:]
        elif words[0] == "range":
            answer["range"] = ((words[1], int(words[2])),
                               (words[3], int(words[4])))
    return answer


def final_values(score):
    """Each colour's (result, margin) from a finished game's `score` answer
    (`red=2 blue=5 green=3 yellow=5 status=final winner=draw`), None for a
    colour the answer cannot decide. The margin is the colour's score less
    the best other player's. `winner=draw` does not name who shares the
    draw: only players at the top score can (docs/rules.md), and with two
    of them both do; with three or four, the tie-break by the largest
    region may leave some of them out (a loss by 0), which `score` does not
    show."""
    words = dict(word.split("=") for word in score.split())
    scores = {c: int(words[c]) for c in COLOURS if c in words}
    top = max(scores.values())
    sharing = sum(1 for s in scores.values() if s == top)
    values = {}
    for colour, mine in scores.items():
        margin = mine - max(s for c, s in scores.items() if c != colour)
        if words["winner"] == colour:
            values[colour] = ("win", margin)
        elif words["winner"] != "draw" or mine < top:
            values[colour] = ("loss", margin)
        else:
            values[colour] = ("draw", margin) if sharing == 2 else None
    return values


def final_value(score, colour):
    """`colour`'s value of final_values, None when `score` cannot say."""
    return final_values(score)[colour]


def value_key(result, margin):
    """A (result, margin) value as a key that sorts as the player prefers."""
    return RESULT_RANK[result], margin


def field(position, key):
    """A `key=value` field of a position string ('' when absent)."""
    for word in position.split():
        name, _, value = word.partition("=")
        if name == key:
            return value
    return ""


class Analysis:
    """`wallgo analysis`: a query in, the answers that carry its id out."""

    def __init__(self, engine, options=()):
        self.argv = command_line(engine) + ["analysis"] + list(options)
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True,
                                     bufsize=1)
        self.count = 0

    def ask(self, query, answers=1):
        """The `answers` answers to `query` (one per analysed turn), in the
        order they came; warnings are skipped, an error raises EngineError."""
        self.count += 1
        query = dict(query, id=f"q{self.count}")
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        got = []
        while len(got) < answers:
            out = self.proc.stdout.readline()
            if out == "":
                raise EngineError("wallgo analysis ended")
            answer = json.loads(out)
            if answer.get("id") != query["id"] or "warning" in answer:
                continue
            if "error" in answer:
                raise EngineError(f"wallgo analysis: {answer['error']}")
            got.append(answer)
        return got

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.proc.stdout.close()
