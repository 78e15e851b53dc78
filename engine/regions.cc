#include "engine/regions.h"

#include <algorithm>

#include "engine/movegen.h"

namespace wallgo {
namespace {

// Calls visit(region) once for each region holding a cell of `seeds`.
template <typename Visit>
void ForEachRegionOf(Bitboard seeds, const WallMasks& walls, Visit&& visit) {
  for (Bitboard left = seeds; left;) {
    const Bitboard region = FloodFill(CellBit(LowestCell(left)), walls);
    left &= ~region;
    visit(region);
  }
}

}  // namespace

Regions FindRegions(const WallMasks& walls) {
  Regions regions;
  ForEachRegionOf(kAllCells, walls, [&regions](Bitboard region) {
    regions.masks[regions.count++] = region;
  });
  return regions;
}

int RegionOwner(const Position& pos, Bitboard region) {
  int owner = -1;
  for (int p = 0; p < pos.num_players(); ++p) {
    if (!(pos.stones(ColourAt(p)) & region)) continue;
    if (owner != -1) return -2;
    owner = p;
  }
  return owner;
}

bool AllRegionsSettled(const Position& pos) {
  return RegionsSettledAt(pos, pos.occupied());
}

bool RegionsSettledAt(const Position& pos, Bitboard cells) {
  const WallMasks& walls = pos.walls();
  for (Bitboard left = pos.occupied() & cells; left;) {
    const Bitboard seed = CellBit(LowestCell(left));
    int owner = 0;
    while (!(pos.stones(ColourAt(owner)) & seed)) ++owner;
    // Any other colour's stone reached during the fill settles the question.
    const Bitboard others = pos.occupied() & ~pos.stones(ColourAt(owner));
    Bitboard region = seed;
    for (;;) {
      const Bitboard next = region | Step(region, walls);
      if (next & others) return false;
      if (next == region) break;
      region = next;
    }
    left &= ~region;
  }
  return true;
}

ContestedRegions FindContestedRegions(const Position& pos, Bitboard cells) {
  ContestedRegions contested;
  ForEachRegionOf(pos.occupied() & cells, pos.walls(), [&](Bitboard region) {
    if (RegionOwner(pos, region) != -2) return;
    contested.cells |= region;
    ++contested.count;
    if ((region & ~pos.occupied()) == 0) contested.full |= region;
  });
  return contested;
}

bool ContestsStayFrozen(const Position& pos) {
  const Rules& rules = pos.rules();
  if (rules.stay != StayRule::kMobile || rules.wall_limit != kUnlimitedWalls ||
      pos.in_setup()) {
    return false;
  }
  for (int p = 0; p < pos.num_players(); ++p) {
    if (pos.breakers_left(ColourAt(p)) > 0) return false;
  }
  return true;
}

namespace {

// End condition (b): no player has a legal turn.
bool NoLegalTurn(const Position& pos) {
  for (int p = 0; p < pos.num_players(); ++p)
    if (HasLegalTurn(pos, ColourAt(p))) return false;
  return true;
}

}  // namespace

bool IsGameOver(const Position& pos) {
  if (pos.in_setup()) return false;
  return AllRegionsSettled(pos) || NoLegalTurn(pos);
}

bool IsGameOverWith(const Position& pos, const ContestedRegions& contested) {
  if (pos.in_setup()) return false;
  return contested.count == 0 || NoLegalTurn(pos);
}

void ScoreSheet::Add(const ScoreSheet& other) {
  for (int p = 0; p < kMaxPlayers; ++p) {
    score[p] += other.score[p];
    largest_region[p] = std::max(largest_region[p], other.largest_region[p]);
  }
}

ScoreSheet ComputeScores(const Position& pos) {
  return ComputeScoresAt(pos, kAllCells);
}

ScoreSheet ComputeScoresAt(const Position& pos, Bitboard cells) {
  ScoreSheet sheet;
  ForEachRegionOf(pos.occupied() & cells, pos.walls(), [&](Bitboard region) {
    const int owner = RegionOwner(pos, region);
    if (owner < 0) return;
    const int size = PopCount(region);
    sheet.score[owner] += size;
    if (size > sheet.largest_region[owner]) sheet.largest_region[owner] = size;
  });
  return sheet;
}

}  // namespace wallgo
