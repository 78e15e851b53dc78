// The search's regression signature (Stockfish's `bench`): a fixed set of
// positions (start positions of several variants and middle games reached by
// fixed move strings) each searched from an empty graph with one thread and
// a fixed playout budget. The total node count changes exactly when the
// search's behaviour changes; nodes per second measures its speed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/position.h"
#include "search/search.h"

namespace wallgo::search {

inline constexpr int64_t kBenchVisits = 60000;  // playouts per position
inline constexpr int kBenchMinHashMb = 128;

struct BenchPosition {
  std::string rules;  // ParseRules text
  std::string moves;  // space-separated, played from the start
};

// The fixed positions, in the order they are searched.
const std::vector<BenchPosition>& BenchPositions();

// The position of `bench` (throws std::logic_error if its strings are bad:
// they are fixed, so that is a bug).
Position BenchStart(const BenchPosition& bench);

struct BenchReport {
  int64_t nodes = 0;   // total nodes passed by the playouts: the signature
  int64_t visits = 0;  // total playouts
  double seconds = 0;
  double nodes_per_second = 0;
  double visits_per_second = 0;
  int positions = 0;
};

// Searches every bench position with `options` (level and seed kept; threads
// forced to 1; hash at least kBenchMinHashMb; visits = options.visits, or
// kBenchVisits when 0).
BenchReport RunBench(const SearchOptions& options);

}  // namespace wallgo::search
