// Which engines play which games, from which openings. The schedule is a
// pure function of the options, so every shard and every resumed run
// computes the same one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/position.h"
#include "tools/records/opening.h"
#include "tools/referee/options.h"

namespace wallgo::referee {

// Openings are shared with the records library (tools/records).
using records::Opening;
using records::ResolveOpening;

// A game of the match. Games come in sets: the same engines and opening,
// seats rotated so that each engine plays each colour once (for two players
// a set is a game pair with the seats swapped).
struct GameSpec {
  int game = 0;            // 1-based, unique in the whole match
  int set = 0;             // 0-based
  int opening_round = 0;   // sets of one round share an opening
  std::vector<int> seats;  // engine index per colour index
};

// Engine groups (one engine per colour) in a fixed order: every combination
// of `players` engines (round robin), or with `gauntlet` the first engine
// with every combination of the others.
std::vector<std::vector<int>> EngineGroups(int engines, int players,
                                           bool gauntlet);

// All `games` games of the match, in order.
std::vector<GameSpec> BuildSchedule(int engines, int players, int games,
                                    bool gauntlet);

// Whether a set belongs to shard `index` of `count` (sets dealt in turn).
inline bool InShard(int set, int index, int count) {
  return set % count == index;
}

// `plies` random legal moves from the start, reproducible from
// (seed, round) alone.
Opening RandomOpening(const Rules& rules, uint64_t seed, int round, int plies);

// The openings file: one opening per line; empty lines and lines starting
// with '#' are skipped.
absl::StatusOr<std::vector<Opening>> LoadOpenings(const Rules& rules,
                                                  const std::string& path);

// A small reproducible generator (splitmix64), used for random openings and
// random turns after a timeout.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  int Below(int n) { return static_cast<int>(Next() % uint64_t(n)); }

 private:
  uint64_t state_;
};

}  // namespace wallgo::referee
