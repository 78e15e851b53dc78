// Pieces the fixed-depth players share: how long a move may take, and how a
// chosen move is reported through the Searcher interface.
#pragma once

#include <limits>
#include <vector>

#include "engine/position.h"
#include "search/search.h"

namespace wallgo::search {

inline constexpr double kNoTimeLimit = std::numeric_limits<double>::infinity();

// What a move may think of a fixed `movetime_s`: the time less
// min(30 ms, 5%) for the protocol's round trip.
double MoveTimeLessMargin(double movetime_s);

// Own turns `pos`'s side to move is still likely to play: every turn builds a
// wall, so the edges still open (less those a game typically ends with)
// and the placements left, shared among the players, measure the game.
int ExpectedTurnsLeft(const Position& pos);

// The fixed move time in force under `limits` (0 = none): movetime, except
// that a clock governs alone unless the user set movetime explicitly
// (options.movetime_set). docs/search.md has the whole precedence table.
double EffectiveMoveTime(const SearchOptions& options, const Limits& limits);

// Seconds the side to move may think: the shorter of EffectiveMoveTime and
// a share of the clock (when active: main time spread over ExpectedTurnsLeft,
// plus most of a byo-yomi period, less a safety margin; the last stone of a
// period gets all of it, as a fixed move time); else kNoTimeLimit
// (infinite analysis, a visit cap, or no limit given at all: the caller picks
// its default).
double MoveTimeBudget(const SearchOptions& options, const Limits& limits,
                      const Position& pos);

// A result with `best` as its only candidate.
SearchResult SingleCandidateResult(Move best, double winrate,
                                   double score_margin, std::vector<Move> pv,
                                   int64_t nodes, double elapsed_s);

}  // namespace wallgo::search
