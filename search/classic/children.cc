#include "search/classic/children.h"

#include <array>
#include <cmath>
#include <limits>

#include "engine/bitboard.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "search/classic/eval.h"
#include "search/classic/race.h"

namespace wallgo::search {
namespace {

// Regions holding stones, sorted out as EstimateTerritory sorts them: the
// cells of contested regions, and of each player's owned regions.
struct RegionSplit {
  Bitboard contested = 0;
  std::array<Bitboard, kMaxPlayers> owned{};

  void Add(Bitboard region, int colour, bool in_setup) {
    if (IsOwned(colour, in_setup)) {
      owned[colour] |= region;
    } else if (colour != -1) {  // a region without stones counts for nobody
      contested |= region;
    }
  }
  // Forgets `cells`, whole regions of the parent that a move redraws.
  void Remove(Bitboard cells) {
    contested &= ~cells;
    for (Bitboard& cells_of_player : owned) cells_of_player &= ~cells;
  }
};

// The parent's regions holding stones, found once for all its children.
struct ParentRegions {
  RegionSplit split;
  std::array<Bitboard, kNumCells> masks{};
  int count = 0;

  // The region holding `cell`, which must be one holding stones.
  Bitboard RegionOf(int cell) const {
    int i = 0;
    while ((masks[i] & CellBit(cell)) == 0) ++i;
    return masks[i];
  }
};

ParentRegions FindParentRegions(const Position& pos) {
  ParentRegions parent;
  const bool in_setup = pos.in_setup();
  ForEachStoneRegion(pos, [&parent, in_setup](Bitboard region, int colour) {
    parent.masks[parent.count++] = region;
    parent.split.Add(region, colour, in_setup);
  });
  return parent;
}

// The parts of `region` once the wall between the cells `a` and `b` is in
// `walls`: {region, 0} when a path around the wall still joins them, else
// its two sides. Fills from both cells at once: the fills meet within a few
// steps when a path exists, and otherwise the smaller side stops first.
std::array<Bitboard, 2> CutByWall(Bitboard region, Bitboard a, Bitboard b,
                                  const WallMasks& walls) {
  for (;;) {
    const Bitboard next_a = a | Step(a, walls);
    const Bitboard next_b = b | Step(b, walls);
    if ((next_a & next_b) != 0) return {region, 0};
    if (next_a == a) return {a, region & ~a};
    if (next_b == b) return {region & ~b, b};
    a = next_a;
    b = next_b;
  }
}

// A child as the evaluation reads it, made from its parent's board and
// regions without a Position.
struct Child {
  RaceBoard board;
  RegionSplit split;
};

// The edges beside which a square of four cells is open on one side: a
// wall there cannot cut its region, the way around being three steps.
// `north` and `east` mark the cells whose north or east edge it is.
WallMasks EdgesWithAWayAround(const WallMasks& walls) {
  const Bitboard n = kAllCells & ~kRow7 & ~walls.north;  // open north edges
  const Bitboard e = kAllCells & ~kColG & ~walls.east;   // open east edges
  // c -> c+1 around by c+7, c+8, or by c-7, c-6.
  const Bitboard east = (n & e >> 7 & n >> 1) | (n << 7 & e << 7 & n << 6);
  // c -> c+7 around by c+1, c+8, or by c-1, c+6.
  const Bitboard north = (e & e >> 7 & n >> 1) | (e << 1 & e >> 6 & n << 1);
  return {north & ~kRow7, east & ~kColG};
}

// The placer of the next placement, or -1 when it is the last one (or none).
int NextPlacer(const Position& pos) {
  const int placed = pos.placements_done() + 1;
  if (placed >= Position::TotalPlacements(pos.rules())) return -1;
  return Index(Position::PlacerAt(pos.rules(), placed));
}

// What all children of one position share, worked out once.
struct Family {
  explicit Family(const Position& position)
      : pos(position),
        parent(RaceBoardOf(position)),
        regions(FindParentRegions(position)),
        uncut(EdgesWithAWayAround(parent.walls)),
        next_mover((parent.mover + 1) % parent.players),
        next_placer(NextPlacer(position)),
        contested_cells(PopCount(regions.split.contested)),
        scale(WinScale(contested_cells)) {}

  const Position& pos;
  RaceBoard parent;
  ParentRegions regions;
  WallMasks uncut;      // edges a new wall cannot cut a region at
  int next_mover;       // who moves after a turn
  int next_placer;      // who places after a placement; -1: setup ends
  int contested_cells;  // the parent's, which most children keep
  float scale;          // WinScale(contested_cells)
};

// A placement that leaves the setup phase running (the last one turns every
// region's status over: false, for the slow path). During setup every
// region holding stones is contested, the new stone's too.
bool Place(const Family& family, int to, Child& child) {
  if (family.next_placer < 0) return false;
  RaceBoard& board = child.board;
  board.stones[board.mover] |= CellBit(to);
  board.occupied |= CellBit(to);
  board.mover = family.next_placer;
  if (child.split.contested & CellBit(to)) return true;  // already so
  const Bitboard region = FloodFill(CellBit(to), board.walls);
  child.split.Add(region, RegionColour(board, region), board.in_setup);
  return true;
}

// A turn: the stone moves within its region, so only the wall at its
// destination redraws regions. A new wall can only cut the stone's region
// in two; a broken wall can only merge that region with its neighbour.
void Turn(const Family& family, Move move, Child& child) {
  RaceBoard& board = child.board;
  const Bitboard moved = CellBit(move.from) ^ CellBit(move.to);
  board.stones[board.mover] ^= moved;
  board.occupied ^= moved;
  board.mover = family.next_mover;
  const Edge edge = EdgeAt(move.to, move.side).edge;
  const Bitboard near = CellBit(edge.cell);
  const Bitboard far = edge.east ? near << 1 : near << 7;
  Bitboard& walled = edge.east ? board.walls.east : board.walls.north;
  if (move.kind == MoveKind::kTurn) {
    walled |= near;
    if ((edge.east ? family.uncut.east : family.uncut.north) & near) return;
    const Bitboard region = family.regions.RegionOf(move.from);
    const std::array<Bitboard, 2> parts =
        CutByWall(region, near, far, board.walls);
    if (parts[1] == 0) return;
    child.split.Remove(region);
    for (const Bitboard part : parts) {
      child.split.Add(part, RegionColour(board, part), board.in_setup);
    }
    return;
  }
  walled &= ~near;
  const Bitboard merged = FloodFill(near, board.walls);
  child.split.Remove(merged);
  child.split.Add(merged, RegionColour(board, merged), board.in_setup);
}

// Makes `child` the child of `move`; false for a move the slow path takes
// (a pass, the last placement).
bool MakeChild(const Family& family, Move move, Child& child) {
  child.board = family.parent;
  child.split = family.regions.split;
  switch (move.kind) {
    case MoveKind::kPlace:
      return Place(family, move.to, child);
    case MoveKind::kTurn:
    case MoveKind::kBreak:
      Turn(family, move, child);
      return true;
    default:
      return false;
  }
}

// Whether Evaluate scores the child as a finished game (exactly, by the
// rules: the slow path's job). Where the rules let a game end with regions
// still shared, that takes the child's Position.
bool IsFinished(const Position& pos, Move move, const Child& child) {
  if (child.board.in_setup) return false;
  if (child.split.contested == 0) return true;
  if (!CanRunOutOfTurns(pos.rules())) return false;
  Position played = pos;
  played.Play(move);
  return IsGameOver(played);
}

// The mover's win probability in two-player children at one scale,
// remembered by the mover's lead. WinOf of two players is a function of
// the lead d = score[mover] - score[other] alone: 1 / (1 + e) or
// e / (1 + e), e = exp(-|d| / scale), and 1 / 2 for d = 0; so a remembered
// value is the very float WinOf would give. Leads are whole quarter cells
// (whole cells, tied halves, the tempo of 0.75), kept by 4d (exact), so a
// node's ~150 children need a handful of exp calls and divisions.
class TwoPlayerWins {
 public:
  explicit TwoPlayerWins(float scale) : scale_(scale) {
    memo_.fill(std::numeric_limits<float>::quiet_NaN());  // not yet known
  }

  float operator()(const std::array<float, kMaxPlayers>& score, int mover,
                   float scale) {
    const float lead = 4 * (score[mover] - score[1 - mover]);  // exact
    const float slot = lead + kMaxLead;
    if (scale != scale_ || !(slot >= 0 && slot < kSlots) ||
        slot != static_cast<float>(static_cast<int>(slot))) {
      return WinOf(score, 2, scale, mover);
    }
    float& win = memo_[static_cast<int>(slot)];
    if (std::isnan(win)) win = WinOf(score, 2, scale, mover);
    return win;
  }

 private:
  static constexpr int kMaxLead = 4 * kNumCells + 4;  // quarters
  static constexpr int kSlots = 2 * kMaxLead + 1;

  float scale_;
  std::array<float, kSlots> memo_;
};

// EstimateTerritory's scores of an unfinished child, then Evaluate's win
// probability for the parent's mover (`wins` remembers those of two players
// at the parent's scale).
ChildOutlook Outlook(const Family& family, const Child& child,
                     TwoPlayerWins& wins) {
  const int players = child.board.players;
  std::array<float, kMaxPlayers> score{};
  for (int p = 0; p < players; ++p) {
    // Whole cells sum exactly in any order: the same float as adding the
    // owned regions one by one.
    score[p] = static_cast<float>(PopCount(child.split.owned[p]));
  }
  ScoreContested(child.board, child.split.contested, EvalOptions{}, score);
  const int contested_cells = PopCount(child.split.contested);
  const float scale = contested_cells == family.contested_cells
                          ? family.scale
                          : WinScale(contested_cells);
  const int player = family.parent.mover;
  return {players == 2 ? wins(score, player, scale)
                       : WinOf(score, players, scale, player),
          ScoreMargin(score, players, ColourAt(player))};
}

}  // namespace

void EvaluateChildren(const Position& pos, std::span<const Move> moves,
                      std::span<ChildOutlook> out) {
  const Family family(pos);
  TwoPlayerWins wins(family.scale);
  Child child;
  for (size_t i = 0; i < moves.size(); ++i) {
    out[i] =
        MakeChild(family, moves[i], child) && !IsFinished(pos, moves[i], child)
            ? Outlook(family, child, wins)
            : EvaluateChildSlowly(pos, moves[i]);
  }
}

ChildOutlook EvaluateChildSlowly(const Position& pos, Move move) {
  Position child = pos;
  child.Play(move);
  const Evaluation e = Evaluate(child);
  return {e.win[Index(pos.to_move())],
          ScoreMargin(e.score, pos.num_players(), pos.to_move())};
}

}  // namespace wallgo::search
