// Regions, ownership, the end of the game and scores (the result and its
// readings: outcome.h).
#pragma once

#include <array>

#include "engine/position.h"

namespace wallgo {

// The regions of the board (cells connected through unwalled edges), each a
// mask, in order of their lowest cell.
struct Regions {
  std::array<Bitboard, kNumCells> masks;
  int count = 0;
};
Regions FindRegions(const WallMasks& walls);

// The owner of `region`: a colour index when every stone in it is that
// player's, -1 when it holds no stone, -2 when it holds several colours.
int RegionOwner(const Position& pos, Bitboard region);

// True when the game has ended (docs/rules.md): play phase, and either every
// region holding stones has a single owner, or no player has a legal turn.
// Never true during the setup phase.
bool IsGameOver(const Position& pos);

// True when every region that holds stones is owned by a single player
// (end condition (a), without the setup-phase or no-turn checks).
bool AllRegionsSettled(const Position& pos);

// True when every region that holds a stone on `cells` is owned by a single
// player: AllRegionsSettled where the caller knows that the regions of the
// other stones are (a move changes only the region it is played in).
bool RegionsSettledAt(const Position& pos, Bitboard cells);

// The regions holding stones of several colours, among those holding a
// stone on `cells`: their cells, how many there are, and the cells of those
// without an empty cell (where ContestsStayFrozen, frozen for good).
struct ContestedRegions {
  Bitboard cells = 0;
  int count = 0;
  Bitboard full = 0;
};
ContestedRegions FindContestedRegions(const Position& pos, Bitboard cells);

// True when a contested region without an empty cell stays contested for
// good: under stay=mobile no stone in it can step, so none can stay and
// build, and without a wall breaker or a wall limit nothing else can open it
// or end the game around it (docs/rules.md; docs/search.md, "Won games stay
// won"). The game then ends only when no player has a turn, and each
// player's score is at most its stones outside such regions.
bool ContestsStayFrozen(const Position& pos);

// IsGameOver for a caller that knows every region without a stone on the
// cells `contested` was found on to be settled (`contested`: what
// FindContestedRegions found there). A searcher passes the contested cells
// down a turn, which changes no other region.
bool IsGameOverWith(const Position& pos, const ContestedRegions& contested);

struct ScoreSheet {
  std::array<int, kMaxPlayers> score{};           // cells of owned regions
  std::array<int, kMaxPlayers> largest_region{};  // tie-break
  // Adds the regions `other` scored (other regions than this sheet's).
  void Add(const ScoreSheet& other);
};
ScoreSheet ComputeScores(const Position& pos);
// ComputeScores over the regions holding a stone on `cells` only, for a
// searcher that keeps the sheet of the others (a turn changes one region).
ScoreSheet ComputeScoresAt(const Position& pos, Bitboard cells);

}  // namespace wallgo
