#include "search/eval/children.h"

#include <array>
#include <optional>

#include "engine/bitboard.h"
#include "engine/regions.h"
#include "search/eval/eval.h"
#include "search/eval/race.h"

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

ParentRegions FindParentRegions(const RaceBoard& board) {
  ParentRegions parent;
  ForEachStoneRegion(board, [&parent, &board](Bitboard region, int colour) {
    parent.masks[parent.count++] = region;
    parent.split.Add(region, colour, board.in_setup);
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

// A placement that leaves the setup phase running (the last one turns every
// region's status over: nullopt, for the slow path). During setup every
// region holding stones is contested, the new stone's too.
std::optional<Child> Place(const Position& pos, const RaceBoard& parent,
                           const ParentRegions& regions, int to) {
  const int placed = pos.placements_done() + 1;
  if (placed == Position::TotalPlacements(pos.rules())) return std::nullopt;
  Child child{parent, regions.split};
  child.board.stones[parent.mover] |= CellBit(to);
  child.board.occupied |= CellBit(to);
  child.board.mover = Index(Position::PlacerAt(pos.rules(), placed));
  const Bitboard region = FloodFill(CellBit(to), parent.walls);
  child.split.Add(region, RegionColour(child.board, region), parent.in_setup);
  return child;
}

// A turn: the stone moves within its region, so only the wall at its
// destination redraws regions. A new wall can only cut the stone's region
// in two; a broken wall can only merge that region with its neighbour.
Child Turn(const RaceBoard& parent, const ParentRegions& regions, Move move) {
  Child child{parent, regions.split};
  RaceBoard& board = child.board;
  const Bitboard moved = CellBit(move.from) ^ CellBit(move.to);
  board.stones[parent.mover] ^= moved;
  board.occupied ^= moved;
  board.mover = (parent.mover + 1) % parent.players;
  const Edge edge = EdgeAt(move.to, move.side).edge;
  const Bitboard near = CellBit(edge.cell);
  const Bitboard far = edge.east ? near << 1 : near << 7;
  Bitboard& walled = edge.east ? board.walls.east : board.walls.north;
  if (move.kind == MoveKind::kTurn) {
    walled |= near;
    const Bitboard region = regions.RegionOf(move.from);
    const std::array<Bitboard, 2> parts =
        CutByWall(region, near, far, board.walls);
    if (parts[1] == 0) return child;
    child.split.Remove(region);
    for (const Bitboard part : parts) {
      child.split.Add(part, RegionColour(board, part), board.in_setup);
    }
    return child;
  }
  walled &= ~near;
  const Bitboard merged = FloodFill(near, board.walls);
  child.split.Remove(merged);
  child.split.Add(merged, RegionColour(board, merged), board.in_setup);
  return child;
}

// The child of `move`, or nullopt for a pass (the slow path's).
std::optional<Child> MakeChild(const Position& pos, const RaceBoard& parent,
                               const ParentRegions& regions, Move move) {
  switch (move.kind) {
    case MoveKind::kPlace:
      return Place(pos, parent, regions, move.to);
    case MoveKind::kTurn:
    case MoveKind::kBreak:
      return Turn(parent, regions, move);
    default:
      return std::nullopt;
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

// EstimateTerritory's scores of an unfinished child, then Evaluate's win
// probability for `player`.
ChildOutlook Outlook(const Child& child, int player) {
  const int players = child.board.players;
  std::array<float, kMaxPlayers> score{};
  for (int p = 0; p < players; ++p) {
    // Whole cells sum exactly in any order: the same float as adding the
    // owned regions one by one.
    score[p] = static_cast<float>(PopCount(child.split.owned[p]));
  }
  ScoreContested(child.board, child.split.contested, EvalOptions{}, score);
  const float scale = WinScale(PopCount(child.split.contested));
  return {WinOf(score, players, scale, player),
          ScoreMargin(score, players, ColourAt(player))};
}

}  // namespace

void EvaluateChildren(const Position& pos, std::span<const Move> moves,
                      std::span<ChildOutlook> out) {
  const RaceBoard parent = RaceBoardOf(pos);
  const ParentRegions regions = FindParentRegions(parent);
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::optional<Child> child =
        MakeChild(pos, parent, regions, moves[i]);
    out[i] = child && !IsFinished(pos, moves[i], *child)
                 ? Outlook(*child, parent.mover)
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
