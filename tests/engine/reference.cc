#include "tests/engine/reference.h"

#include <deque>

namespace wallgo::reference {
namespace {

bool OnBoard(int col, int row) {
  return col >= 0 && col < kSize && row >= 0 && row < kSize;
}

// The slot holding the builder of the wall on side `dir` of (col,row), or
// nullptr for the rim.
const int* WallSlot(const Board& b, Cell c, int dir) {
  const int col = c.col + kDirCol[dir], row = c.row + kDirRow[dir];
  if (!OnBoard(col, row)) return nullptr;
  switch (dir) {
    case 0:
      return &b.north_wall[c.col][c.row];
    case 1:
      return &b.east_wall[c.col][c.row];
    case 2:
      return &b.north_wall[col][row];
    default:
      return &b.east_wall[col][row];
  }
}

int* WallSlot(Board& b, Cell c, int dir) {
  return const_cast<int*>(WallSlot(static_cast<const Board&>(b), c, dir));
}

bool Walled(const Board& b, Cell c, int dir) {
  const int* slot = WallSlot(b, c, dir);
  return slot == nullptr || *slot != kNoOne;
}

Cell Neighbour(Cell c, int dir) {
  return {c.col + kDirCol[dir], c.row + kDirRow[dir]};
}

int WallsBuilt(const Board& b, int player) {
  int n = 0;
  for (int col = 0; col < kSize; ++col) {
    for (int row = 0; row < kSize; ++row) {
      n += b.north_wall[col][row] == player;
      n += b.east_wall[col][row] == player;
    }
  }
  return n;
}

bool MayBuild(const Board& b, int player) {
  return b.wall_limit < 0 || WallsBuilt(b, player) < b.wall_limit;
}

// Marks in `reach` every cell a stone that left `start` reaches with
// `steps` more steps from `at`. The start cell is empty once the stone left.
void Walk(const Board& b, Cell start, Cell at, int steps,
          std::array<std::array<bool, kSize>, kSize>& reach) {
  if (steps == 0) return;
  for (int dir = 0; dir < 4; ++dir) {
    if (Walled(b, at, dir)) continue;
    const Cell next = Neighbour(at, dir);
    if (b.stone[next.col][next.row] != kNoOne && !(next == start)) continue;
    reach[next.col][next.row] = true;
    Walk(b, start, next, steps - 1, reach);
  }
}

bool HasSingleStep(const Board& b, Cell from) {
  for (int dir = 0; dir < 4; ++dir) {
    if (Walled(b, from, dir)) continue;
    const Cell next = Neighbour(from, dir);
    if (b.stone[next.col][next.row] == kNoOne) return true;
  }
  return false;
}

std::vector<Cell> DestinationsOf(const Board& b, Cell from) {
  std::array<std::array<bool, kSize>, kSize> reach{};
  Walk(b, from, from, 2, reach);
  if (!b.stay_mobile || HasSingleStep(b, from)) {
    reach[from.col][from.row] = true;
  }
  std::vector<Cell> out;
  for (int col = 0; col < kSize; ++col) {
    for (int row = 0; row < kSize; ++row) {
      if (reach[col][row]) out.push_back({col, row});
    }
  }
  return out;
}

std::vector<Turn> TurnsOf(const Board& b, int player) {
  std::vector<Turn> out;
  const bool may_build = MayBuild(b, player);
  const bool may_break = b.breakers[player] > 0;
  for (int col = 0; col < kSize; ++col) {
    for (int row = 0; row < kSize; ++row) {
      if (b.stone[col][row] != player) continue;
      const Cell from{col, row};
      for (const Cell to : DestinationsOf(b, from)) {
        for (int dir = 0; dir < 4; ++dir) {
          const int* slot = WallSlot(b, to, dir);
          if (slot == nullptr) continue;
          if (*slot == kNoOne && may_build) {
            out.push_back({Kind::kBuild, from, to, dir});
          }
          if (*slot != kNoOne && may_break) {
            out.push_back({Kind::kBreak, from, to, dir});
          }
        }
      }
    }
  }
  return out;
}

int StonesOnBoard(const Board& b) {
  int n = 0;
  for (const auto& column : b.stone) {
    for (int s : column) n += s != kNoOne;
  }
  return n;
}

// The regions, each a list of cells, found by breadth-first search.
std::vector<std::vector<Cell>> Regions(const Board& b) {
  std::array<std::array<bool, kSize>, kSize> seen{};
  std::vector<std::vector<Cell>> regions;
  for (int col = 0; col < kSize; ++col) {
    for (int row = 0; row < kSize; ++row) {
      if (seen[col][row]) continue;
      std::vector<Cell> region;
      std::deque<Cell> queue = {{col, row}};
      seen[col][row] = true;
      while (!queue.empty()) {
        const Cell c = queue.front();
        queue.pop_front();
        region.push_back(c);
        for (int dir = 0; dir < 4; ++dir) {
          if (Walled(b, c, dir)) continue;
          const Cell n = Neighbour(c, dir);
          if (seen[n.col][n.row]) continue;
          seen[n.col][n.row] = true;
          queue.push_back(n);
        }
      }
      regions.push_back(region);
    }
  }
  return regions;
}

// kNoOne for a region without stones, -2 for a shared one, else the owner.
int OwnerOf(const Board& b, const std::vector<Cell>& region) {
  int owner = kNoOne;
  for (const Cell c : region) {
    const int s = b.stone[c.col][c.row];
    if (s == kNoOne) continue;
    if (owner == kNoOne) {
      owner = s;
    } else if (owner != s) {
      return -2;
    }
  }
  return owner;
}

bool AllRegionsOwned(const Board& b) {
  for (const auto& region : Regions(b)) {
    if (OwnerOf(b, region) == -2) return false;
  }
  return true;
}

}  // namespace

Board FromPosition(const Position& pos) {
  const Position::Parts parts = pos.ToParts();
  Board b;
  b.players = parts.rules.players;
  b.fourstone =
      parts.rules.players == 2 && parts.rules.setup == SetupRule::kFourStone;
  b.stay_mobile = parts.rules.stay == StayRule::kMobile;
  b.wall_limit = parts.rules.wall_limit;
  for (auto& column : b.stone) column.fill(kNoOne);
  for (auto& column : b.north_wall) column.fill(kNoOne);
  for (auto& column : b.east_wall) column.fill(kNoOne);
  for (int p = 0; p < b.players; ++p) {
    for (int cell = 0; cell < kSize * kSize; ++cell) {
      const int col = cell % kSize, row = cell / kSize;
      const Bitboard bit = Bitboard{1} << cell;
      if (parts.stones[p] & bit) b.stone[col][row] = p;
      if (parts.walls[p].north & bit) b.north_wall[col][row] = p;
      if (parts.walls[p].east & bit) b.east_wall[col][row] = p;
    }
    b.breakers[p] = parts.breakers_left[p];
  }
  b.placements_done = StonesOnBoard(b) - (b.fourstone ? 4 : 0);
  b.to_move = Index(parts.to_move);
  return b;
}

std::vector<int> PlacementOrder(const Board& b) {
  switch (b.players) {
    case 2:
      if (b.fourstone) return {0, 1, 1, 0};
      return {0, 1, 1, 0, 0, 1, 1, 0};
    case 3:
      return {0, 1, 2, 2, 1, 0};
    default:
      return {0, 1, 2, 3, 3, 2, 1, 0};
  }
}

std::vector<std::vector<Cell>> RegionsOf(const Board& b) { return Regions(b); }

bool InSetup(const Board& b) {
  return b.placements_done < static_cast<int>(PlacementOrder(b).size());
}

bool HasTurn(const Board& b, int player) { return !TurnsOf(b, player).empty(); }

bool GameOver(const Board& b) {
  if (InSetup(b)) return false;
  if (AllRegionsOwned(b)) return true;
  for (int p = 0; p < b.players; ++p) {
    if (HasTurn(b, p)) return false;
  }
  return true;
}

std::vector<Turn> LegalMoves(const Board& b) {
  std::vector<Turn> out;
  if (InSetup(b)) {
    for (int col = 0; col < kSize; ++col) {
      for (int row = 0; row < kSize; ++row) {
        if (b.stone[col][row] == kNoOne) {
          out.push_back({Kind::kPlace, {}, {col, row}, 0});
        }
      }
    }
    return out;
  }
  if (GameOver(b)) return out;
  out = TurnsOf(b, b.to_move);
  if (out.empty()) out.push_back({Kind::kPass, {}, {}, 0});
  return out;
}

Board Apply(const Board& board, const Turn& t) {
  Board b = board;
  switch (t.kind) {
    case Kind::kPlace:
      b.stone[t.to.col][t.to.row] = b.to_move;
      ++b.placements_done;
      b.to_move = InSetup(b) ? PlacementOrder(b)[b.placements_done] : 0;
      return b;
    case Kind::kBuild:
      b.stone[t.from.col][t.from.row] = kNoOne;
      b.stone[t.to.col][t.to.row] = b.to_move;
      *WallSlot(b, t.to, t.dir) = b.to_move;
      break;
    case Kind::kBreak:
      b.stone[t.from.col][t.from.row] = kNoOne;
      b.stone[t.to.col][t.to.row] = b.to_move;
      *WallSlot(b, t.to, t.dir) = kNoOne;
      --b.breakers[b.to_move];
      break;
    case Kind::kPass:
      break;
  }
  b.to_move = (b.to_move + 1) % b.players;
  return b;
}

std::string CellText(Cell c) {
  return {static_cast<char>('a' + c.col), static_cast<char>('1' + c.row)};
}

std::string MoveText(const Turn& t) {
  switch (t.kind) {
    case Kind::kPlace:
      return CellText(t.to);
    case Kind::kBuild:
      return CellText(t.from) + CellText(t.to) + kDirLetter[t.dir];
    case Kind::kBreak:
      return CellText(t.from) + CellText(t.to) + "x" + kDirLetter[t.dir];
    case Kind::kPass:
      return "pass";
  }
  return "?";
}

Outcome Score(const Board& b) {
  Outcome o;
  for (const auto& region : Regions(b)) {
    const int owner = OwnerOf(b, region);
    if (owner < 0) continue;
    const int size = static_cast<int>(region.size());
    o.score[owner] += size;
    if (size > o.largest[owner]) o.largest[owner] = size;
  }
  int best = 0;
  for (int p = 1; p < b.players; ++p) {
    const bool better =
        o.score[p] > o.score[best] ||
        (o.score[p] == o.score[best] && o.largest[p] > o.largest[best]);
    if (better) best = p;
  }
  for (int p = 0; p < b.players; ++p) {
    if (o.score[p] == o.score[best] && o.largest[p] == o.largest[best]) {
      o.winners |= 1u << p;
    }
  }
  return o;
}

uint64_t Perft(const Board& b, int depth) {
  if (depth == 0) return 1;
  const std::vector<Turn> moves = LegalMoves(b);
  if (depth == 1) return moves.size();
  uint64_t total = 0;
  for (const Turn& t : moves) total += Perft(Apply(b, t), depth - 1);
  return total;
}

}  // namespace wallgo::reference
