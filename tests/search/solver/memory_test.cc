// The solver's table kept from one solve to the next (SolverMemory), as the
// engine keeps it through a game: the positions that follow a proven one are
// proven with fewer nodes and to the same values, and a change of rules
// empties it (the position's hash does not hold the rules).
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "search/solver/solver.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

SolverLimits Nodes(int64_t nodes) {
  SolverLimits limits;
  limits.seconds = 0;
  limits.nodes = nodes;
  limits.hash_mb = 4;
  return limits;
}

// The positions of a seeded random game, in order.
std::vector<Position> RandomGame(const Rules& rules, std::mt19937_64& rng) {
  std::vector<Position> line;
  testing::PlayRandomGame(rules, rng, 200,
                          [&](const Position& p) { line.push_back(p); });
  return line;
}

TEST(SolverMemoryTest, PositionsAfterAProvenOneAreProvenSoonerAlike) {
  int compared = 0;
  int64_t kept_nodes = 0, fresh_nodes = 0;
  for (const char* stay : {"always", "mobile"}) {
    Rules rules = Rules::Default(2);
    rules.stay =
        std::string(stay) == "always" ? StayRule::kAlways : StayRule::kMobile;
    std::mt19937_64 rng(testing::SeedFor(stay));
    for (int game = 0; game < 40 && compared < 12; ++game) {
      const std::vector<Position> line = RandomGame(rules, rng);
      if (line.size() < 8) continue;
      const Position& root = line[line.size() - 7];
      if (root.in_setup()) continue;
      SolverMemory memory(4);
      const SolveResult proof = Solve(root, Nodes(400'000), memory);
      if (!proof.proven || proof.pv.size() < 3) continue;
      // Two plies along the proof's line: the solver's next turn.
      Position next = root;
      next.Play(proof.pv[0]);
      next.Play(proof.pv[1]);
      const SolveResult fresh = Solve(next, Nodes(400'000));
      const SolveResult kept = Solve(next, Nodes(400'000), memory);
      SCOPED_TRACE(PositionString(next));
      ASSERT_TRUE(fresh.proven);
      ASSERT_TRUE(kept.proven);
      EXPECT_EQ(kept.utility, fresh.utility);
      if (kept.all_optimal_known && fresh.all_optimal_known) {
        EXPECT_EQ(kept.optimal, fresh.optimal);
      }
      EXPECT_LE(kept.nodes, fresh.nodes);
      kept_nodes += kept.nodes;
      fresh_nodes += fresh.nodes;
      ++compared;
    }
  }
  EXPECT_GE(compared, 10) << "too few proven positions to compare";
  EXPECT_LT(kept_nodes, fresh_nodes);
}

// A position whose value differs between stay=always and stay=mobile,
// solved under one and then the other with one table: the second answer is
// the one an empty table gives.
TEST(SolverMemoryTest, ChangedRulesEmptyTheTable) {
  std::mt19937_64 rng(testing::SeedFor("rules change"));
  for (int game = 0; game < 200; ++game) {
    const std::vector<Position> line = RandomGame(Rules::Default(2), rng);
    for (int back = 2; back <= 4 && back < static_cast<int>(line.size());
         ++back) {
      const Position& always = line[line.size() - 1 - back];
      if (always.in_setup()) continue;
      const absl::StatusOr<Position> mobile = ParsePosition(absl::StrReplaceAll(
          PositionString(always), {{"stay=always", "stay=mobile"}}));
      ASSERT_TRUE(mobile.ok());
      const SolveResult under_always = Solve(always, Nodes(200'000));
      const SolveResult under_mobile = Solve(*mobile, Nodes(200'000));
      if (!under_always.proven || !under_mobile.proven ||
          under_always.utility == under_mobile.utility) {
        continue;
      }
      SolverMemory memory(4);
      EXPECT_EQ(Solve(always, Nodes(200'000), memory).utility,
                under_always.utility);
      const SolveResult second = Solve(*mobile, Nodes(200'000), memory);
      EXPECT_TRUE(second.proven);
      EXPECT_EQ(second.utility, under_mobile.utility)
          << PositionString(*mobile);
      return;
    }
  }
  FAIL() << "no position found whose value depends on the stay rule";
}

}  // namespace
}  // namespace wallgo::search
