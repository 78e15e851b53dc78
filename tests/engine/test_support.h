// Shared helpers of the engine tests: positions from text, move-name sets,
// the rule variants the random games cover, and a seeded random game driver.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "gtest/gtest.h"
#include "tests/engine/reference.h"

namespace wallgo::testing {

// Random-game counts are divided by this under the sanitizers, which run the
// suite several times slower.
#ifdef WALLGO_ENGINE_TESTS_SHORT
inline constexpr int kWorkDivisor = 8;
#else
inline constexpr int kWorkDivisor = 1;
#endif

// The position of a protocol position string; fails the test if invalid.
Position Parse(absl::string_view text);
Position StartOf(const Rules& rules);

std::set<std::string> EngineMoveNames(const Position& pos);
std::set<std::string> ReferenceMoveNames(const reference::Board& board);

// The variants random games cover, each with a printable name.
struct Variant {
  std::string name;
  Rules rules;
};
std::vector<Variant> Variants();
inline void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }
// The variant's name in letters and digits only, as GoogleTest wants it.
std::string VariantTestName(const ::testing::TestParamInfo<Variant>& info);

// Plays one game of uniformly random legal moves from the start of `rules`,
// calling `visit` on every position including the final one. Stops after
// `max_moves` moves and returns the number of moves played.
int PlayRandomGame(const Rules& rules, std::mt19937_64& rng, int max_moves,
                   const std::function<void(const Position&)>& visit);

// A random play-phase position under `rules`, not necessarily reachable by
// play: every stone placed at random, up to `max_walls` walls on random edges
// by random builders within the wall limit, random breakers left and side to
// move.
Position RandomPlayPosition(const Rules& rules, int max_walls,
                            std::mt19937_64& rng);

// A fixed seed per name (FNV-1a), so each variant's games reproduce.
uint64_t SeedFor(absl::string_view name);

// A uniformly random legal move (the position must not be over).
Move RandomMove(const Position& pos, std::mt19937_64& rng);

// The cell called `name` ("d4"); fails the test if it is not one.
int CellAt(absl::string_view name);
// Walls along the north edges of whole rows, e.g. "a1n,b1n,...,g1n".
std::string RowWalls(std::initializer_list<int> rows);

}  // namespace wallgo::testing
