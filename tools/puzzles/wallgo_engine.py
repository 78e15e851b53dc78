"""The engine as the puzzle tools use it: the text protocol for the game and
the solver, the JSON analysis engine for the policy and the search.

Both are child processes of build/bin/wallgo; every answer is read in full
before the next command goes out (a `solve` is stopped by any input line).
"""

import json
import subprocess

RESULT_RANK = {"loss": 0, "draw": 1, "win": 2}


class EngineError(RuntimeError):
    pass


class Protocol:
    """`wallgo` speaking the text protocol: setup, play, legal moves, solve."""

    def __init__(self, wallgo, hash_mb=64):
        self.proc = subprocess.Popen(
            [wallgo, "--hash", str(hash_mb)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, bufsize=1)

    def command(self, line):
        """The answer's lines (the `=` line's text first); EngineError on `?`."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise EngineError(f"engine exited during {line!r}")
            out = out.rstrip("\n")
            if out == "":
                break
            lines.append(out)
        if not lines or lines[0][:1] not in "=?":
            raise EngineError(f"{line!r}: no answer")
        if lines[0].startswith("?"):
            raise EngineError(f"{line!r}: {lines[0][1:].strip()}")
        lines[0] = lines[0][1:].strip()
        return lines

    def setup(self, position, moves=()):
        self.command("setup " + position)
        for move in moves:
            self.play(move)

    def play(self, move):
        self.command(f"play {self.to_move()} {move}")

    def position(self):
        return self.command("position")[0]

    def to_move(self):
        return field(self.position(), "turn")

    def legal_moves(self):
        return self.command("legal_moves")[0].split()

    def is_over(self):
        return "status=final" in self.command("score")[0]

    def solve(self, seconds):
        """The solver's answer as a dict (see parse_solve)."""
        return parse_solve(self.command(f"solve {seconds:g}"))

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
        except OSError:
            pass
        self.proc.wait(timeout=10)


def parse_solve(lines):
    """{"proven", "result", "margin", "values": {colour: (result, margin)},
    "optimal", "all_optimal", "pv"} from `solve`'s answer lines."""
    answer = {"proven": False, "optimal": [], "all_optimal": False, "pv": []}
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
    return answer


class Analysis:
    """`wallgo analysis`: one query at a time, one thread, a fixed seed."""

    def __init__(self, wallgo, seed=1, hash_mb=64):
        self.seed = seed
        self.proc = subprocess.Popen(
            [wallgo, "analysis", "--analysis-threads", "1",
             "--search-threads", "1", "--hash", str(hash_mb),
             "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            bufsize=1)
        self.count = 0

    def query(self, **fields):
        self.count += 1
        fields["id"] = f"q{self.count}"
        self.proc.stdin.write(json.dumps(fields) + "\n")
        self.proc.stdin.flush()
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise EngineError("analysis engine exited")
            answer = json.loads(out)
            if answer.get("id") != fields["id"]:
                continue
            if "error" in answer:
                raise EngineError(f"analysis: {answer}")
            if "warning" in answer:
                continue
            return answer

    def policy_top(self, position):
        """The root move with the highest prior (the search's first instinct)."""
        answer = self.query(position=position, maxVisits=1, includePolicy=True)
        policy = answer.get("policy", {})
        if not policy:
            return None
        return max(sorted(policy), key=lambda move: policy[move])

    def best_move(self, position, visits):
        answer = self.query(position=position, maxVisits=visits,
                            overrideOptions={"seed": self.seed})
        infos = answer.get("moveInfos", [])
        return infos[0]["move"] if infos else None

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def field(position, key):
    """A `key=value` field of a position string ('' when absent)."""
    for word in position.split():
        if word.startswith(key + "="):
            return word[len(key) + 1:]
    return ""


def stone_and_destination(move):
    """('c3', 'c5') for c3c5n or c3c4xw; None for placements and passes."""
    if len(move) < 5:
        return None
    return move[0:2], move[2:4]


def alike(moves):
    """At most 3 moves, all of the same stone to the same destination."""
    if not moves or len(moves) > 3:
        return False
    ends = {stone_and_destination(m) for m in moves}
    return len(ends) == 1 and None not in ends


def final_values(score):
    """Each colour's (result, margin) from a finished game's `score` answer
    (`red=2 blue=5 green=3 yellow=5 status=final winner=draw`), None for a
    colour the answer cannot decide. The margin is the colour's score minus
    the best other's. `winner=draw` does not name who shares the draw: only
    players with the top score can, and with two of them both do; with three
    or four, the tie-break by the largest region may leave some of them out
    (a loss by margin 0), which `score` does not show."""
    words = dict(w.split("=") for w in score.split())
    scores = {c: int(v) for c, v in words.items()
              if c not in ("status", "winner")}
    top = max(scores.values())
    sharing = sum(1 for v in scores.values() if v == top)
    values = {}
    for colour, mine in scores.items():
        margin = mine - max(v for c, v in scores.items() if c != colour)
        if words["winner"] == colour:
            values[colour] = ("win", margin)
        elif words["winner"] != "draw" or mine < top:
            values[colour] = ("loss", margin)
        else:
            values[colour] = ("draw", margin) if sharing == 2 else None
    return values


def value_key(result, margin):
    return RESULT_RANK[result], margin
