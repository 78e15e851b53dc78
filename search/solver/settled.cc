// The settled-region reduction of the two-player solver (docs/solver.md,
// "Settled regions: bounding searches"): in a search that bounds the value
// from one side, the player whose values are bounded from below keeps only
// a few representatives of its moves inside regions it owns, and the other
// player replaces all of its own such moves by one "pass" that changes
// nothing. Both changes can only move the searched value in the bound's
// direction, so the results stay bounds on the true value.
#include <algorithm>
#include <bit>
#include <vector>

#include "engine/movegen.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "search/solver/solver_table.h"

namespace wallgo::search::solver_internal {
namespace {

// Representatives kept per owned region for the restricted player.
constexpr int kRepresentatives = 2;

// The cells of the regions owned by the side to move alone.
Bitboard OwnedCells(const Position& pos, const Regions& regions) {
  const int me = Index(pos.to_move());
  Bitboard owned = 0;
  for (int i = 0; i < regions.count; ++i) {
    if (RegionOwner(pos, regions.masks[i]) == me) owned |= regions.masks[i];
  }
  return owned;
}

// True when `move` (inside the owned region `region`) leaves the region
// whole: its wall neither cuts cells off nor splits it, so the score and
// the largest region stay as they are.
bool KeepsRegionWhole(const Position& pos, Move move, Bitboard region) {
  Position child = pos;
  child.Play(move);
  return FloodFill(CellBit(move.to), child.walls()) == region;
}

// Keeps every move outside owned regions and, per owned region, up to
// kRepresentatives moves that leave it whole; a region without such a move
// keeps all of its moves.
void KeepRepresentatives(const Position& pos, const Regions& regions,
                         Bitboard owned, std::vector<Move>& moves) {
  std::vector<Move> kept;
  std::vector<Move> region_moves;
  for (const Move& m : moves) {
    if (!(CellBit(m.from) & owned)) kept.push_back(m);
  }
  for (int i = 0; i < regions.count; ++i) {
    const Bitboard region = regions.masks[i];
    if (!(region & owned)) continue;
    region_moves.clear();
    int whole = 0;
    for (const Move& m : moves) {
      if (!(CellBit(m.from) & region)) continue;
      region_moves.push_back(m);
      if (whole < kRepresentatives && KeepsRegionWhole(pos, m, region)) {
        kept.push_back(m);
        ++whole;
      }
    }
    if (whole == 0) {
      kept.insert(kept.end(), region_moves.begin(), region_moves.end());
    }
  }
  moves = std::move(kept);
}

// Unwalled edges between cells of `cells` (a union of regions, so every
// unwalled edge leaving one of its cells stays inside it).
int OpenEdges(const WallMasks& walls, Bitboard cells) {
  return PopCount(FreeSideMask(walls, Side::kNorth) & cells) +
         PopCount(FreeSideMask(walls, Side::kEast) & cells);
}

}  // namespace

Reduction ReduceSettledMoves(const Position& pos, bool restrict_mover,
                             std::vector<Move>& moves) {
  if (pos.num_players() != 2 || pos.in_setup()) return Reduction::kNone;
  const Regions regions = FindRegions(pos.walls());
  const Bitboard owned = OwnedCells(pos, regions);
  const auto in_owned = [&](const Move& m) {
    return m.kind == MoveKind::kTurn && (CellBit(m.from) & owned) != 0;
  };
  if (std::none_of(moves.begin(), moves.end(), in_owned)) {
    return Reduction::kNone;
  }
  if (restrict_mover) {
    const size_t before = moves.size();
    KeepRepresentatives(pos, regions, owned, moves);
    return moves.size() != before ? Reduction::kRestricted : Reduction::kNone;
  }
  moves.erase(std::remove_if(moves.begin(), moves.end(), in_owned),
              moves.end());
  moves.push_back(Move::Pass());
  // With the opponent out of turns, the pass ends the game: the opponent
  // could only pass back (see docs/solver.md).
  const Colour opponent = ColourAt(1 - Index(pos.to_move()));
  return HasLegalTurn(pos, opponent) ? Reduction::kPass : Reduction::kEnd;
}

std::array<int, kMaxPlayers> BoundedUtilities(const Position& pos,
                                              Colour passer, int passes) {
  Result result;
  result.players = pos.num_players();
  result.sheet = ComputeScores(pos);
  if (passes > 0 && pos.rules().wall_limit == kUnlimitedWalls) {
    const Regions regions = FindRegions(pos.walls());
    const int p = Index(passer);
    Bitboard owned = 0;
    for (int i = 0; i < regions.count; ++i) {
      if (RegionOwner(pos, regions.masks[i]) == p) owned |= regions.masks[i];
    }
    const int open = OpenEdges(pos.walls(), owned);
    const int free =
        open - PopCount(owned) + PopCount(pos.stones(passer) & owned);
    result.sheet.score[p] -= std::max(0, std::min(passes, open) - free);
  }
  result.winners = RankWinners(result.sheet, (1u << result.players) - 1);
  const int share12 = 12 / std::max(1, std::popcount(result.winners));
  std::array<int, kMaxPlayers> utility{};
  for (int q = 0; q < result.players; ++q) {
    utility[q] = (result.won(q) ? 100 * share12 : 0) + result.margin(q);
  }
  return utility;
}

}  // namespace wallgo::search::solver_internal
