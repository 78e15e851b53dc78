// The settled-region reduction of the two-player solver (docs/solver.md):
// what it keeps of the moves, that the cells it charges a passer are cells
// the walls must really cut off, and that the solver with it proves the same
// values and optimal moves as without it, in every two-player variant
// (stay=mobile and wall limits included).
#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "search/solver/solver.h"
#include "search/solver/solver_table.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

using solver_internal::BoundedUtilities;
using solver_internal::ReduceSettledMoves;
using solver_internal::Reduction;
using testing::Variant;

// Red owns six regions, blue a few; one region of 12 cells is contested.
constexpr char kTempoFight[] =
    "players=2 turn=red red=a2,a5,d5,g6 blue=d1,c4,g4,c5 "
    "red-walls=a1e,b1n,f1n,g1n,a2n,d2n,e2e,f2n,a3n,a3e,f3n,a4n,a4e,b4e,c4e,"
    "b5n,b5e,c5n,c5e,d5e,e5e,g5n,c6e,e6n,e7e "
    "blue-walls=b1e,c1n,c1e,e1n,e1e,b2n,c2n,c2e,e2n,g2n,b3n,b3e,c3n,c3e,e3n,"
    "c4n,d4e,e4n,e4e,g4n,e5n,f5e,d6n,f6n,f6e";

// The cells of the regions `pos`'s mover owns alone.
Bitboard OwnedByMover(const Position& pos) {
  const Regions regions = FindRegions(pos.walls());
  Bitboard owned = 0;
  for (int i = 0; i < regions.count; ++i) {
    if (RegionOwner(pos, regions.masks[i]) == Index(pos.to_move())) {
      owned |= regions.masks[i];
    }
  }
  return owned;
}

std::vector<Move> Legal(const Position& pos) {
  MoveList moves;
  GenerateMoves(pos, moves);
  return {moves.begin(), moves.end()};
}

TEST(SettledReductionTest, RestrictedMoverKeepsFightAndWholeRegionMoves) {
  const Position pos = testing::Parse(kTempoFight);
  const Bitboard owned = OwnedByMover(pos);
  ASSERT_NE(owned, 0u);
  const std::vector<Move> legal = Legal(pos);
  std::vector<Move> kept = legal;
  ASSERT_EQ(ReduceSettledMoves(pos, true, kept), Reduction::kRestricted);
  const Regions regions = FindRegions(pos.walls());
  for (const Move& m : legal) {
    const bool inside = (CellBit(m.from) & owned) != 0;
    const bool was_kept = std::find(kept.begin(), kept.end(), m) != kept.end();
    if (!inside) {
      EXPECT_TRUE(was_kept) << MoveName(m);
    }
  }
  // Per owned region: at most two moves, each leaving the region whole;
  // or, where no move does, all of them.
  for (int i = 0; i < regions.count; ++i) {
    const Bitboard region = regions.masks[i];
    if (!(region & owned)) continue;
    int in_region = 0, whole = 0, legal_in_region = 0;
    for (const Move& m : legal)
      legal_in_region += (CellBit(m.from) & region) != 0;
    for (const Move& m : kept) {
      if (!(CellBit(m.from) & region)) continue;
      ++in_region;
      Position child = pos;
      child.Play(m);
      whole += FloodFill(CellBit(m.to), child.walls()) == region;
    }
    if (whole > 0) {
      EXPECT_EQ(whole, in_region);
      EXPECT_LE(in_region, 2);
    } else {
      EXPECT_EQ(in_region, legal_in_region);
    }
  }
  EXPECT_LT(kept.size(), legal.size());
}

TEST(SettledReductionTest, IdealizedMoverPassesInsteadOfOwnRegionMoves) {
  const Position red = testing::Parse(kTempoFight);
  Position pos = red;
  pos.Play(Move::Pass());  // blue to move, nothing else changed
  const Bitboard owned = OwnedByMover(pos);
  ASSERT_NE(owned, 0u);
  std::vector<Move> kept = Legal(pos);
  ASSERT_EQ(ReduceSettledMoves(pos, false, kept), Reduction::kPass);
  EXPECT_EQ(std::count(kept.begin(), kept.end(), Move::Pass()), 1);
  for (const Move& m : kept) {
    if (m.kind == MoveKind::kPass) continue;
    EXPECT_EQ(CellBit(m.from) & owned, 0u) << MoveName(m);
  }
}

// Plays `passer`'s moves inside the regions it owns in `start`, the opponent
// passing in between, for as long as it has such moves and at most `moves`;
// every step, the utilities BoundedUtilities gives `start` after that many
// passes are at least the real ones for the passer.
int CheckCharges(const Position& start, int moves, std::mt19937_64& rng) {
  const Colour passer = start.to_move();
  const Bitboard owned = OwnedByMover(start);
  const int me = Index(passer);
  const int unpenalized = FinishedUtilities(start)[me];
  int charged = 0;
  Position real = start;
  for (int k = 1; k <= moves; ++k) {
    std::vector<Move> inside;
    for (const Move& m : Legal(real)) {
      if (m.kind == MoveKind::kTurn && (CellBit(m.from) & owned)) {
        inside.push_back(m);
      }
    }
    if (!inside.empty()) {
      real.Play(inside[rng() % inside.size()]);
      real.Play(Move::Pass());
    }
    const int bounded = BoundedUtilities(start, passer, k)[me];
    EXPECT_GE(bounded, FinishedUtilities(real)[me])
        << k << " passes, " << PositionString(real);
    charged = std::max(charged, unpenalized - bounded);
  }
  return charged;
}

TEST(SettledReductionTest, ChargedCellsAreCellsTheWallsMustCutOff) {
  for (const Variant& v : testing::Variants()) {
    if (v.rules.players != 2) continue;
    SCOPED_TRACE(v.name);
    std::mt19937_64 rng(testing::SeedFor(v.name) + 7);
    int charged = 0, checked = 0;
    for (int game = 0; game < 40; ++game) {
      std::vector<Position> line;
      testing::PlayRandomGame(v.rules, rng, 200,
                              [&](const Position& p) { line.push_back(p); });
      for (size_t back = 2; back < std::min<size_t>(line.size(), 12); ++back) {
        const Position& pos = line[line.size() - 1 - back];
        if (pos.in_setup() || IsGameOver(pos) || !OwnedByMover(pos)) continue;
        charged = std::max(charged, CheckCharges(pos, 40, rng));
        ++checked;
      }
    }
    if (v.rules.wall_limit == kUnlimitedWalls) {
      EXPECT_GT(checked, 20);
      EXPECT_GT(charged, 0) << "no position was charged anything";
    } else {
      EXPECT_EQ(charged, 0) << "a wall limit charges nothing";
    }
  }
}

SolverLimits NodeBudget(bool reduction) {
  SolverLimits limits;
  limits.seconds = 0;
  limits.nodes = 100'000;
  limits.hash_mb = 4;
  limits.settled_reduction = reduction;
  return limits;
}

// Positions further from the end than the exhaustive search reaches: where
// the solver proves a value both with and without the reduction, the values
// and the optimal moves agree.
TEST(SettledReductionTest, ProvesWhatTheUnreducedSolverProves) {
  for (const Variant& v : testing::Variants()) {
    if (v.rules.players != 2) continue;
    SCOPED_TRACE(v.name);
    std::mt19937_64 rng(testing::SeedFor(v.name) + 11);
    int both = 0, reduced_at_root = 0;
    for (int game = 0; game < 5; ++game) {
      std::vector<Position> line;
      testing::PlayRandomGame(v.rules, rng, 200,
                              [&](const Position& p) { line.push_back(p); });
      for (size_t back = 3; back < std::min<size_t>(line.size(), 10);
           back += 2) {
        const Position& pos = line[line.size() - 1 - back];
        SCOPED_TRACE(PositionString(pos));
        std::vector<Move> moves = Legal(pos);
        reduced_at_root +=
            ReduceSettledMoves(pos, false, moves) != Reduction::kNone;
        const SolveResult with = Solve(pos, NodeBudget(true));
        const SolveResult without = Solve(pos, NodeBudget(false));
        if (!with.proven || !without.proven) continue;
        ++both;
        EXPECT_EQ(with.utility, without.utility);
        if (with.all_optimal_known && without.all_optimal_known) {
          std::set<uint32_t> a, b;
          for (const Move& m : with.optimal) a.insert(m.Code());
          for (const Move& m : without.optimal) b.insert(m.Code());
          EXPECT_EQ(a, b);
        }
      }
    }
    EXPECT_GE(both, 5);
    // Short games under a small wall limit leave no region settled.
    if (v.rules.wall_limit == kUnlimitedWalls) {
      EXPECT_GT(reduced_at_root, 0);
    }
  }
}

// A puzzle's position after a4b4w (red) and d6c5w (blue): a contested
// region of 6 cells, five settled ones. The reduced pair proves its value
// at the horizon of 5 plies; the tests of the optimal moves then searched
// one root move's child to the end of the game and ran past 100 million
// nodes, where the unreduced solver needs about 6,000 in all.
constexpr char kPuzzleAfterTwoMoves[] =
    "players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0 "
    "turn=red red=b1,b4,c6,e6 blue=c2,c5,e5,b6 "
    "red-walls=b1n,c1e,d1e,b2n,b2e,d2e,a3n,a3e,c3e,f3e,a4e,e4n,a5n,d5e,f5e,"
    "b6e,c6n,d6e,f6e,d7e "
    "blue-walls=c1n,e1n,d2n,f2e,b3n,c3n,f3n,b4n,c4e,d4n,f4e,g4n,a5e,b5n,b5e,"
    "c5n,e5n,f5n,d6n,e6e";

std::set<std::string> Names(const std::vector<Move>& moves) {
  std::set<std::string> names;
  for (const Move& m : moves) names.insert(MoveName(m));
  return names;
}

// Both solvers prove the value and every optimal move within 200,000 nodes
// (each takes under 10,000), and agree.
TEST(SettledReductionTest, OptimalMovesAfterAReducedProofStayCheap) {
  const Position pos = testing::Parse(kPuzzleAfterTwoMoves);
  SolverLimits limits = NodeBudget(true);
  limits.nodes = 200'000;
  const SolveResult with = Solve(pos, limits);
  limits.settled_reduction = false;
  const SolveResult without = Solve(pos, limits);
  for (const SolveResult* r : {&with, &without}) {
    ASSERT_TRUE(r->proven);
    EXPECT_TRUE(r->all_optimal_known) << r->nodes << " nodes";
  }
  EXPECT_EQ(with.utility, without.utility);
  EXPECT_EQ(Names(with.optimal), Names(without.optimal));
}

// The root move c6d6w's child, blue to move, solved on its own: there the
// unreduced solver's own proof left a root move whose test to the end of
// the game ran past 13 million nodes. Searching its tests with a deepening
// horizon, both solvers finish within 200,000 nodes.
TEST(SettledReductionTest, OptimalMoveTestsDeepenTheirHorizon) {
  Position pos = testing::Parse(kPuzzleAfterTwoMoves);
  pos.Play(*ParseMove("c6d6w"));
  for (const bool reduction : {false, true}) {
    SCOPED_TRACE(reduction ? "reduced" : "unreduced");
    SolverLimits limits = NodeBudget(reduction);
    limits.nodes = 200'000;
    const SolveResult r = Solve(pos, limits);
    ASSERT_TRUE(r.proven);
    EXPECT_TRUE(r.all_optimal_known) << r.nodes << " nodes";
  }
}

// Budgets that end inside the tests of the optimal moves: a list reported
// complete is the list a generous unreduced solve finds. (A reduced test
// once read the value of a search the budget had stopped, which counts as
// a draw, and listed every move left as optimal in a lost position.)
// With the bounds at the horizon, a wall limit of 3 proves the value within
// 100 nodes and lists the optimal moves only past 10,000: hence 30,000.
TEST(SettledReductionTest, SmallBudgetsNeverClaimWrongOptimalMoves) {
  for (const Variant& v : testing::Variants()) {
    if (v.rules.players != 2) continue;
    SCOPED_TRACE(v.name);
    std::mt19937_64 rng(testing::SeedFor(v.name) + 12);
    int compared = 0;
    for (int game = 0; game < 4; ++game) {
      std::vector<Position> line;
      testing::PlayRandomGame(v.rules, rng, 200,
                              [&](const Position& p) { line.push_back(p); });
      for (size_t back = 2; back < std::min<size_t>(line.size(), 8); ++back) {
        const Position& pos = line[line.size() - 1 - back];
        SCOPED_TRACE(PositionString(pos));
        const SolveResult reference = Solve(pos, NodeBudget(false));
        if (!reference.all_optimal_known || reference.game_over) continue;
        for (const int64_t nodes : {100, 300, 1000, 3000, 10000, 30000}) {
          SolverLimits limits = NodeBudget(true);
          limits.nodes = nodes;
          const SolveResult r = Solve(pos, limits);
          if (r.proven) {
            EXPECT_EQ(r.utility, reference.utility) << nodes;
          }
          if (!r.all_optimal_known) continue;
          ++compared;
          EXPECT_EQ(Names(r.optimal), Names(reference.optimal)) << nodes;
        }
      }
    }
    EXPECT_GT(compared, 0);
  }
}

}  // namespace
}  // namespace wallgo::search
