"""A puzzle's theme, from what its answer (the line's first move) does.

In order, the first that holds (docs/puzzles.md#themes):
- breaker: the answer removes a wall (a wall breaker, 3-4 players);
- trap: its wall shuts another player's stone into a region of at most
  POCKET cells, or, splitting nothing, some other player's stone can reach
  fewer cells in one move after it;
- seal: its wall splits a region in two (it completes a region's
  boundary), leaving every other player's stone room;
- tempo: none of those, and the moved stone's region holds no other
  player's stone: a harmless move in its own settled region, so that the
  others must move first ("passing");
- race: anything else (reaching contested cells first).
"""

COLUMNS = "abcdefg"
SIDES = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0)}
POCKET = 3


def cell(name):
    return COLUMNS.index(name[0]), int(name[1]) - 1


def neighbour(c, side):
    dx, dy = SIDES[side]
    x, y = c[0] + dx, c[1] + dy
    return (x, y) if 0 <= x < 7 and 0 <= y < 7 else None


def edge(c, side):
    other = neighbour(c, side)
    return frozenset((c, other)) if other else None


class Board:
    """Stones and walls of a position string, enough for the themes."""

    def __init__(self, position):
        self.stones = {}
        self.walls = set()
        for word in position.split():
            key, _, value = word.partition("=")
            if not value:
                continue
            if key.endswith("-walls"):
                for w in value.split(","):
                    self.walls.add(edge(cell(w[0:2]), w[2]))
            elif key in ("red", "blue", "green", "yellow"):
                for s in value.split(","):
                    self.stones[cell(s)] = key

    def play(self, move):
        """The board after a move (c3c5n, c3c4xw)."""
        after = Board("")
        after.stones = dict(self.stones)
        after.walls = set(self.walls)
        start, end = cell(move[0:2]), cell(move[2:4])
        after.stones[end] = after.stones.pop(start)
        if move[4] == "x":
            after.walls.discard(edge(end, move[5]))
        else:
            after.walls.add(edge(end, move[4]))
        return after

    def steps(self, c):
        for side in SIDES:
            other = neighbour(c, side)
            if other and edge(c, side) not in self.walls:
                yield other

    def regions(self):
        """Cell -> region number (stones ignored: walls and the rim only)."""
        label = {}
        for x in range(7):
            for y in range(7):
                if (x, y) in label:
                    continue
                number, todo = len(set(label.values())), [(x, y)]
                label[(x, y)] = number
                while todo:
                    for other in self.steps(todo.pop()):
                        if other not in label:
                            label[other] = number
                            todo.append(other)
        return label

    def reach(self, c):
        """Cells a stone on c can move to in 0 to 2 steps."""
        cells, frontier = {c}, [c]
        for _ in range(2):
            frontier = [o for f in frontier for o in self.steps(f)
                        if o not in self.stones and o not in cells]
            cells.update(frontier)
        return cells


def region_sizes(board):
    """Cell -> the number of cells of its region."""
    label = board.regions()
    count = {}
    for number in label.values():
        count[number] = count.get(number, 0) + 1
    return {c: count[number] for c, number in label.items()}


def theme(position, move):
    if len(move) > 5 and move[4] == "x":
        return "breaker"
    before = Board(position)
    mover = before.stones[cell(move[0:2])]
    after = before.play(move)
    others = [c for c, colour in before.stones.items() if colour != mover]
    if len(set(after.regions().values())) > len(set(before.regions().values())):
        sizes_before, sizes_after = region_sizes(before), region_sizes(after)
        if any(sizes_after[c] <= POCKET and sizes_after[c] < sizes_before[c]
               for c in others):
            return "trap"
        return "seal"
    if any(len(after.reach(c)) < len(before.reach(c)) for c in others):
        return "trap"
    region = before.regions()
    home = region[cell(move[0:2])]
    if all(colour == mover for c, colour in before.stones.items()
           if region[c] == home):
        return "tempo"
    return "race"
