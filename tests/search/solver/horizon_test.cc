// The two-player solver's bounds at the horizon (docs/solver.md, "Bounds at
// the horizon"): on positions near the end of random games of every
// two-player variant they bracket the value a plain minimax written here
// finds, and they let the solver prove positions that the old horizon (a
// loss or a win) cannot within the same number of nodes.
#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "gtest/gtest.h"
#include "search/solver/solver.h"
#include "search/solver/solver_table.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

using solver_internal::BoundsAtHorizon;
using solver_internal::HorizonBounds;

// A finished game's value for the mover, relative to a draw: 600 + margin
// for a sole win, 0 for a draw, -600 + margin for a loss.
int FinishedValue(const Position& pos) {
  const Result r = ComputeResult(pos);
  const int me = Index(pos.to_move());
  const int margin = r.margin(me);
  if (!r.won(me)) return -600 + margin;
  return r.is_draw() ? 0 : 600 + margin;
}

// Plain negamax over the whole tree; nullopt past `budget` nodes.
std::optional<int> Minimax(const Position& pos, int64_t& budget) {
  if (--budget < 0) return std::nullopt;
  MoveList moves;
  GenerateMoves(pos, moves);
  if (moves.empty()) return FinishedValue(pos);
  int best = -100000;
  for (const Move& m : moves) {
    Position child = pos;
    child.Play(m);
    const std::optional<int> v = Minimax(child, budget);
    if (!v) return std::nullopt;
    best = std::max(best, -*v);
  }
  return best;
}

std::vector<testing::Variant> TwoPlayerVariants() {
  std::vector<testing::Variant> out;
  for (const testing::Variant& v : testing::Variants()) {
    if (v.rules.players == 2) out.push_back(v);
  }
  return out;
}

// The positions of `games` seeded random games from `min_back` to
// `max_back` plies before their ends.
std::vector<Position> NearTheEnd(const Rules& rules, uint64_t seed, int games,
                                 int min_back, int max_back) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  for (int game = 0; game < games; ++game) {
    std::vector<Position> line;
    testing::PlayRandomGame(rules, rng, 200,
                            [&](const Position& p) { line.push_back(p); });
    for (int back = min_back;
         back <= max_back && back < static_cast<int>(line.size()); ++back) {
      const Position& pos = line[line.size() - 1 - back];
      if (!pos.in_setup()) out.push_back(pos);
    }
  }
  return out;
}

// Every sampled position whose tree the plain minimax searches within its
// budget has bounds around its value; and the bounds are not the trivial
// ones (some decide the result, some are exact).
TEST(HorizonBoundsTest, BracketTheExhaustiveValue) {
  int decided = 0, exact = 0;
  for (const testing::Variant& variant : TwoPlayerVariants()) {
    SCOPED_TRACE(variant.name);
    int checked = 0;
    for (const Position& pos :
         NearTheEnd(variant.rules, testing::SeedFor(variant.name), 60, 1, 8)) {
      int64_t budget = 30'000;
      const std::optional<int> value = Minimax(pos, budget);
      if (!value) continue;
      const std::optional<HorizonBounds> b = BoundsAtHorizon(pos);
      ASSERT_TRUE(b.has_value()) << PositionString(pos);
      EXPECT_LE(b->lower, *value) << PositionString(pos);
      EXPECT_GE(b->upper, *value) << PositionString(pos);
      ++checked;
      decided += b->lower > 0 || b->upper < 0;
      exact += b->lower == b->upper;
    }
    EXPECT_GE(checked, 30) << "too few small trees";
  }
  EXPECT_GT(decided, 0);
  EXPECT_GT(exact, 0);
}

// No bounds where a wall breaker is left (three or four players).
TEST(HorizonBoundsTest, NoneWithMorePlayers) {
  for (const testing::Variant& variant : testing::Variants()) {
    if (variant.rules.players == 2) continue;
    for (const Position& pos :
         NearTheEnd(variant.rules, testing::SeedFor(variant.name), 3, 1, 3)) {
      EXPECT_FALSE(BoundsAtHorizon(pos).has_value()) << PositionString(pos);
    }
  }
}

// Within the same number of nodes, the solver with the bounds proves some
// positions that it cannot prove with a lost or won horizon, and where both
// prove, the values and the optimal moves are the same.
TEST(HorizonBoundsTest, ProveWhatTheOldHorizonCannotInTheSameNodes) {
  int only_new = 0, both = 0;
  for (const testing::Variant& variant : TwoPlayerVariants()) {
    SCOPED_TRACE(variant.name);
    for (const Position& pos : NearTheEnd(
             variant.rules, testing::SeedFor(variant.name) + 1, 8, 3, 8)) {
      SolverLimits limits;
      limits.seconds = 0;
      limits.nodes = 20'000;
      limits.hash_mb = 4;
      const SolveResult with = Solve(pos, limits);
      limits.horizon_bounds = false;
      const SolveResult without = Solve(pos, limits);
      if (with.proven && without.proven) {
        ++both;
        EXPECT_EQ(with.utility, without.utility) << PositionString(pos);
        if (with.all_optimal_known && without.all_optimal_known) {
          EXPECT_EQ(with.optimal, without.optimal) << PositionString(pos);
        }
      }
      only_new += with.proven && !without.proven;
    }
  }
  EXPECT_GT(both, 0);
  EXPECT_GT(only_new, 0);
}

}  // namespace
}  // namespace wallgo::search
