// The endgame solver against a plain exhaustive search written here (no
// table, no pruning, its own reading of the result), on positions near the
// end of seeded random games of every variant; the proven values' agreement
// with their children; and budgets too small to prove anything.
#include "search/solver/solver.h"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

using Utilities = std::array<int, kMaxPlayers>;
using testing::Variant;

// The result of a finished game as the solver's docs define it: 100 x the
// win share in twelfths + own score minus the best other's.
Utilities ReferenceUtilities(const Position& pos) {
  const Result r = ComputeResult(pos);
  const int n = pos.num_players();
  const int winners = std::popcount(r.winners);
  Utilities u{};
  for (int p = 0; p < n; ++p) {
    int other = -100;
    for (int q = 0; q < n; ++q) {
      if (q != p) other = std::max(other, r.sheet.score[q]);
    }
    u[p] =
        ((r.winners >> p) & 1 ? 1200 / winners : 0) + r.sheet.score[p] - other;
  }
  return u;
}

// The tie rule of docs/solver.md, written again: own utility, then the lower
// sum of the others', then the lower vector.
bool Prefers(const Utilities& a, const Utilities& b, int mover, int n) {
  if (a[mover] != b[mover]) return a[mover] > b[mover];
  int sa = 0, sb = 0;
  for (int p = 0; p < n; ++p) {
    if (p != mover) sa += a[p], sb += b[p];
  }
  if (sa != sb) return sa < sb;
  for (int p = 0; p < n; ++p) {
    if (a[p] != b[p]) return a[p] < b[p];
  }
  return false;
}

// Plain max^n over the whole tree; nullopt past `budget` nodes.
std::optional<Utilities> Exhaustive(const Position& pos, int64_t& budget) {
  if (--budget < 0) return std::nullopt;
  MoveList moves;
  GenerateMoves(pos, moves);
  if (moves.empty()) return ReferenceUtilities(pos);
  std::optional<Utilities> best;
  for (const Move& m : moves) {
    Position child = pos;
    child.Play(m);
    const std::optional<Utilities> v = Exhaustive(child, budget);
    if (!v) return std::nullopt;
    if (!best || Prefers(*v, *best, Index(pos.to_move()), pos.num_players())) {
      best = v;
    }
  }
  return best;
}

// Positions 1 to 6 plies before the end of seeded random games whose whole
// tree has at most `max_nodes` nodes, each with its exhaustive value.
struct Sample {
  Position pos;
  Utilities value;
};
std::vector<Sample> SmallTrees(const Rules& rules, uint64_t seed, int wanted,
                               int64_t max_nodes) {
  std::mt19937_64 rng(seed);
  std::vector<Sample> out;
  for (int game = 0; game < 400 && static_cast<int>(out.size()) < wanted;
       ++game) {
    std::vector<Position> line;
    testing::PlayRandomGame(rules, rng, 200,
                            [&](const Position& p) { line.push_back(p); });
    for (int back = 1; back <= 6 && back < static_cast<int>(line.size());
         ++back) {
      const Position& pos = line[line.size() - 1 - back];
      int64_t budget = max_nodes;
      if (const auto v = Exhaustive(pos, budget)) {
        out.push_back({pos, *v});
      } else {
        break;  // earlier positions have larger trees
      }
    }
  }
  return out;
}

SolverLimits Generous() {
  SolverLimits limits;
  limits.seconds = 0;
  limits.nodes = 2'000'000;
  limits.hash_mb = 4;
  return limits;
}

class SolverVariantTest : public ::testing::TestWithParam<Variant> {};

TEST_P(SolverVariantTest, ProvenValueEqualsExhaustiveSearch) {
  const Rules rules = GetParam().rules;
  const std::vector<Sample> samples =
      SmallTrees(rules, testing::SeedFor(GetParam().name), 30, 20000);
  ASSERT_GE(samples.size(), 20u) << "too few small trees to compare";
  for (const Sample& s : samples) {
    const SolveResult r = Solve(s.pos, Generous());
    SCOPED_TRACE(PositionString(s.pos));
    ASSERT_TRUE(r.proven);
    const int mover = Index(s.pos.to_move());
    EXPECT_EQ(r.utility, s.value);  // with 3-4 players, the same tie rule
    // The optimal moves are exactly those whose child is worth the best.
    if (r.game_over) continue;
    ASSERT_TRUE(r.all_optimal_known);
    std::set<uint32_t> expected, got;
    MoveList moves;
    GenerateMoves(s.pos, moves);
    for (const Move& m : moves) {
      Position child = s.pos;
      child.Play(m);
      int64_t budget = 1'000'000;
      const auto v = Exhaustive(child, budget);
      ASSERT_TRUE(v.has_value());
      if ((*v)[mover] == s.value[mover]) expected.insert(m.Code());
    }
    for (const Move& m : r.optimal) got.insert(m.Code());
    EXPECT_EQ(got, expected);
  }
}

// On proven positions, a position's value is the best of its children's
// values for the mover (every child solved on its own).
TEST_P(SolverVariantTest, ProvenValueIsTheBestChild) {
  const Rules rules = GetParam().rules;
  const std::vector<Sample> samples =
      SmallTrees(rules, testing::SeedFor(GetParam().name) + 1, 10, 20000);
  for (const Sample& s : samples) {
    const SolveResult r = Solve(s.pos, Generous());
    if (!r.proven || r.game_over) continue;
    SCOPED_TRACE(PositionString(s.pos));
    const int mover = Index(s.pos.to_move());
    MoveList moves;
    GenerateMoves(s.pos, moves);
    int best = -100000;
    for (const Move& m : moves) {
      Position child = s.pos;
      child.Play(m);
      const SolveResult c = Solve(child, Generous());
      ASSERT_TRUE(c.proven);
      best = std::max(best, c.utility[mover]);
    }
    EXPECT_EQ(r.utility[mover], best);
  }
}

// Budgets from a handful of nodes up: whatever is reported proven is the
// exhaustive value, and a budget of a few nodes proves nothing deep; an
// unproven two-player answer's range holds the exhaustive value.
TEST_P(SolverVariantTest, SmallBudgetsNeverClaimAProof) {
  const Rules rules = GetParam().rules;
  const std::vector<Sample> samples =
      SmallTrees(rules, testing::SeedFor(GetParam().name) + 2, 10, 20000);
  for (const Sample& s : samples) {
    SCOPED_TRACE(PositionString(s.pos));
    for (const int64_t nodes : {1, 30, 300, 3000}) {
      SolverLimits limits = Generous();
      limits.nodes = nodes;
      const SolveResult r = Solve(s.pos, limits);
      if (r.proven) {
        EXPECT_EQ(r.utility, s.value) << nodes << " nodes";
      }
      if (!r.proven) {
        EXPECT_TRUE(r.optimal.empty());
        // What it did prove, with two players, holds the exhaustive value.
        EXPECT_EQ(r.range.has_value(),
                  s.pos.num_players() == 2 && r.depth > 0)
            << nodes << " nodes";
        if (r.range) {
          const int mover = Index(s.pos.to_move());
          EXPECT_LE(r.range->least.Utility(), s.value[mover]) << nodes;
          EXPECT_GE(r.range->most.Utility(), s.value[mover]) << nodes;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, SolverVariantTest,
                         ::testing::ValuesIn(testing::Variants()),
                         testing::VariantTestName);

// Farther from the end, in every two-player variant: an unproven answer's
// range holds the value a larger budget proves (the exhaustive tests above
// vouch for those), some ranges already know the result, the moves it
// refutes are worth less than the range's least value and its line's first
// move is not.
TEST(SolverTest, UnprovenRangeHoldsTheProvenValue) {
  int results_known = 0, refuted = 0;
  for (const Variant& variant : testing::Variants()) {
    if (variant.rules.players != 2) continue;
    SCOPED_TRACE(variant.name);
    std::mt19937_64 rng(testing::SeedFor(variant.name) + 3);
    int ranges = 0;
    for (int game = 0; game < 40 && ranges < 6; ++game) {
      std::vector<Position> line;
      testing::PlayRandomGame(variant.rules, rng, 200,
                              [&](const Position& p) { line.push_back(p); });
      for (int back = 3; back <= 6 && back < static_cast<int>(line.size());
           ++back) {
        const Position& pos = line[line.size() - 1 - back];
        if (pos.in_setup()) continue;
        SolverLimits small = Generous();
        small.nodes = 1024;  // the first check of the budget
        const SolveResult r = Solve(pos, small);
        if (r.proven || !r.range) continue;
        SolverLimits larger = Generous();
        larger.nodes = 100'000;
        const SolveResult proof = Solve(pos, larger);
        if (!proof.proven) break;  // earlier positions are harder still
        SCOPED_TRACE(PositionString(pos));
        const int value = proof.utility[Index(pos.to_move())];
        EXPECT_LE(r.range->least.Utility(), value);
        EXPECT_GE(r.range->most.Utility(), value);
        ++ranges;
        results_known += r.range->result_known();
        // The refuted moves fall short of the least value; the line's first
        // move reaches it.
        auto through = [&](Move m) -> std::optional<int> {
          Position child = pos;
          child.Play(m);
          const SolveResult c = Solve(child, larger);
          if (!c.proven) return std::nullopt;
          return c.utility[Index(pos.to_move())];
        };
        for (const Move& m : r.refuted) {
          if (const std::optional<int> v = through(m)) {
            EXPECT_LT(*v, r.range->least.Utility()) << MoveName(m);
            ++refuted;
          }
        }
        ASSERT_FALSE(r.pv.empty());
        if (const std::optional<int> v = through(r.pv.front())) {
          EXPECT_GE(*v, r.range->least.Utility());
        }
      }
    }
    EXPECT_GE(ranges, 3) << "too few unproven positions with a proof";
  }
  EXPECT_GT(results_known, 0);
  EXPECT_GT(refuted, 0);
}

// A stop request ends the search unproven, however large the budget.
TEST(SolverTest, StopsWhenAsked) {
  const Position start =
      testing::Parse("players=2 turn=red red=c3,f6,g1,a7 blue=b6,f2,e6,e2");
  SolverLimits limits;
  limits.seconds = 0;
  limits.should_stop = [] { return true; };
  const SolveResult r = Solve(start, limits);
  EXPECT_FALSE(r.proven);
  EXPECT_TRUE(r.optimal.empty());
  EXPECT_LE(r.nodes, 2048);
}

// The finished game of docs/rules.md: red wins 27 to 21.
TEST(SolverTest, FinishedGameIsItsResult) {
  const Position pos = testing::Parse(
      "players=2 turn=blue red=e2,f6,g4,e5 blue=a1,b2,b6,c4 "
      "red-walls=c1e,c2e,c3e,c4e,f7e blue-walls=c5e,c6e,c7e,g7s");
  const SolveResult r = Solve(pos, Generous());
  EXPECT_TRUE(r.game_over);
  EXPECT_TRUE(r.proven);
  EXPECT_EQ(PlayerValue::FromUtility(r.utility[0]).share12, 12);
  EXPECT_EQ(PlayerValue::FromUtility(r.utility[0]).margin, 6);
  EXPECT_EQ(PlayerValue::FromUtility(r.utility[1]).margin, -6);
}

// A 4-player answer that ends the game (puzzle 4p-4012e2): green's only
// optimal move ends it with blue and yellow sharing the top score, 5 each,
// green third on 3. A draw is shared only by the players tied at the top,
// so green loses by 2 (not "draws by -2", which its puzzle checker once read
// from `score`'s bare winner=draw). The root's value is its best child's,
// and that child's is the finished game's.
TEST(SolverTest, FourPlayerRootIsTheBestChildBehindASharedDraw) {
  const Position root = testing::Parse(
      "players=4 setup=empty stay=always wall-limit=unlimited breakers=1 "
      "turn=green red=g3,a4 blue=a3,b7 green=c3,g4 yellow=g1,d6 "
      "red-walls=c2n,e2n,a3n,b3e,d3e,e3n,e3e,f3e,a4n,a4e,b4n,c4n,d4e,e4n,a5e,"
      "b5e,c5e,a6n,d6e "
      "blue-walls=a1n,a1e,b1e,c1n,c1e,d1e,a2n,a2e,b2e,c5n,d5e,a6e,b6n,b6e,c6n,"
      "a7e,b7e,c7e "
      "green-walls=g2n,b3n,c3n,d3n,f3n,b4e,e4e,f4n,f4e,g4n,b5n,f5e,g5n,e6e,f6n,"
      "f6e,g6n,e7e,f7e "
      "yellow-walls=d1n,f1n,g1n,c2e,d2n,d2e,e2e,f2n,f2e,c4e,d4n,d5n,e5e,f5n,"
      "c6e,d6n,e6n,d7e "
      "red-breakers=0 blue-breakers=0 green-breakers=0 yellow-breakers=0");
  const SolveResult r = Solve(root, Generous());
  ASSERT_TRUE(r.proven);
  const int green = Index(Colour::kGreen);
  EXPECT_EQ(r.utility, (Utilities{-3, 600, -2, 600}));
  EXPECT_EQ(ResultWord(r.mover_value(root).share12), "loss");
  EXPECT_EQ(r.mover_value(root).margin, -2);
  MoveList moves;
  GenerateMoves(root, moves);
  std::optional<Utilities> best;
  std::set<std::string> best_moves;
  for (const Move& m : moves) {
    Position child = root;
    child.Play(m);
    const SolveResult c = Solve(child, Generous());
    ASSERT_TRUE(c.proven) << MoveName(m);
    if (!best || c.utility[green] > (*best)[green]) best_moves.clear();
    if (!best || Prefers(c.utility, *best, green, 4)) best = c.utility;
    if (c.utility[green] == (*best)[green]) best_moves.insert(MoveName(m));
  }
  EXPECT_EQ(r.utility, best);
  std::set<std::string> optimal;
  for (const Move& m : r.optimal) optimal.insert(MoveName(m));
  EXPECT_EQ(optimal, best_moves);
  EXPECT_EQ(optimal, std::set<std::string>{"g4g4s"});

  Position child = root;
  child.Play(*ParseMove("g4g4s"));
  ASSERT_TRUE(IsGameOver(child));
  const Result result = ComputeResult(child);
  EXPECT_EQ(result.winners,
            1u << Index(Colour::kBlue) | 1u << Index(Colour::kYellow));
  EXPECT_EQ(result.margin(green), -2);
  EXPECT_EQ(ReferenceUtilities(child), r.utility);
  EXPECT_EQ(Solve(child, Generous()).utility, r.utility);
  int64_t budget = 20000;
  EXPECT_EQ(Exhaustive(root, budget), r.utility);
}

TEST(SolverTest, RegionSplitSaysWhyNot) {
  const Position pos =
      testing::Parse("players=3 turn=red red=c3,f6 blue=b4,e2 green=e5,a1");
  const RegionSplit split = AnalyzeRegions(pos);
  EXPECT_FALSE(split.independent);
  EXPECT_EQ(split.reason, "a wall breaker left can reopen a region");
  EXPECT_EQ(split.contested_regions, 1);
}

}  // namespace
}  // namespace wallgo::search
