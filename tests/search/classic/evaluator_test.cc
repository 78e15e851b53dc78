// The classic evaluation behind the Evaluator interface: values, and the
// priors of every kind (the grouped one must really share evaluations).
#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "search/bench.h"
#include "search/classic/classic_evaluator.h"

namespace wallgo::search {
namespace {

struct Priors {
  Value value;
  std::vector<Move> moves;
  std::vector<float> priors;
};

Priors Ask(const ClassicEvaluator& evaluator, const Position& pos) {
  MoveList list;
  GenerateMoves(pos, list);
  Priors p;
  p.moves.assign(list.begin(), list.end());
  p.priors.assign(list.size(), -1.0f);
  p.value = evaluator.Evaluate(pos, p.moves, p.priors);
  return p;
}

const Position& Middle() {
  static const Position pos = BenchStart(BenchPositions()[5]);
  return pos;
}

TEST(ClassicEvaluatorTest, PriorsOfEveryKindAreAProbability) {
  for (PriorKind kind :
       {PriorKind::kGrouped, PriorKind::kChildEval, PriorKind::kUniform}) {
    ClassicEvaluatorConfig config;
    config.prior = kind;
    const Priors p = Ask(ClassicEvaluator(config), Middle());
    ASSERT_GT(p.moves.size(), 10u);
    for (float x : p.priors) EXPECT_GT(x, 0.0f);
    EXPECT_NEAR(std::accumulate(p.priors.begin(), p.priors.end(), 0.0), 1.0,
                1e-4);
  }
}

TEST(ClassicEvaluatorTest, AValueIsTheSameWithOrWithoutMovesAndEveryTime) {
  const ClassicEvaluator evaluator;
  const Value alone = evaluator.Evaluate(Middle(), {}, {});
  const Priors with = Ask(evaluator, Middle());
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ(alone.win[p], with.value.win[p]);
    EXPECT_EQ(alone.margin[p], with.value.margin[p]);
  }
  EXPECT_NEAR(alone.win[0] + alone.win[1], 1.0f, 1e-5);
}

// Games of 3 or 4 players take their own number of random moves before a
// leaf is evaluated; 2-player games keep theirs.
TEST(ClassicEvaluatorTest, EachPlayerCountTakesItsOwnPlayoutMoves) {
  const Position four = BenchStart(BenchPositions()[9]);  // a middle game
  ASSERT_EQ(four.num_players(), 4);
  auto value_of = [](const Position& pos, int two, int more) {
    ClassicEvaluatorConfig config;
    config.playout_moves = two;
    config.multi_player_playout_moves = more;
    return ClassicEvaluator(config).Evaluate(pos, {}, {});
  };
  auto same = [](const Value& a, const Value& b) {
    return a.win == b.win && a.margin == b.margin;
  };
  const Value static_four = ValueOf(Evaluate(four), 4);
  EXPECT_TRUE(same(value_of(four, 12, 0), static_four));
  EXPECT_FALSE(same(value_of(four, 0, 12), static_four));
  const Value static_two = ValueOf(Evaluate(Middle()), 2);
  EXPECT_TRUE(same(value_of(Middle(), 0, 12), static_two));
  EXPECT_FALSE(same(value_of(Middle(), 12, 0), static_two));
}

TEST(ClassicEvaluatorTest, AFinishedGameIsValuedByTheRules) {
  Position pos = Middle();
  MoveList moves;
  while (!IsGameOver(pos)) {
    GenerateMoves(pos, moves);
    pos.Play(moves[0]);
  }
  const Value v = ClassicEvaluator().Evaluate(pos, {}, {});
  const Value exact = FinishedValue(pos);
  const unsigned winners = ComputeResult(pos).winners;
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ(v.win[p], exact.win[p]);
    EXPECT_EQ(v.win[p],
              (winners >> p & 1) ? 1.0f / std::popcount(winners) : 0.0f);
  }
}

// The child-evaluation priors take every child's utility from
// EvaluateChildren at once; they must be, to the bit, the softmax of each
// child played and evaluated on its own (positions of every bench variant,
// setup and breakers included, and random continuations of them).
TEST(ClassicEvaluatorTest, ChildEvalPriorsAreThoseOfEachChildPlayed) {
  const ClassicEvaluator evaluator;
  std::mt19937_64 rng(7);
  for (const BenchPosition& bench : BenchPositions()) {
    Position pos = BenchStart(bench);
    for (int ply = 0; ply < 12 && !IsGameOver(pos); ++ply) {
      const Priors p = Ask(evaluator, pos);
      std::vector<float> utility;
      for (const Move m : p.moves) {
        Position child = pos;
        child.Play(m);
        utility.push_back(ValueOf(Evaluate(child), pos.num_players())
                              .Utility(Index(pos.to_move())));
      }
      const float best = *std::max_element(utility.begin(), utility.end());
      std::vector<float> expected;
      float sum = 0;
      for (const float u : utility) {
        expected.push_back(std::exp((u - best) / 0.2f));
        sum += expected.back();
      }
      for (size_t i = 0; i < p.moves.size(); ++i) {
        EXPECT_EQ(p.priors[i], expected[i] / sum) << MoveName(p.moves[i]);
      }
      pos.Play(p.moves[rng() % p.moves.size()]);
    }
  }
}

TEST(ClassicEvaluatorTest, GroupedPriorsShareOneEvaluationPerDestination) {
  ClassicEvaluatorConfig grouped;
  grouped.prior = PriorKind::kGrouped;
  grouped.refined_groups = 2;
  const Priors p = Ask(ClassicEvaluator(grouped), Middle());
  ClassicEvaluatorConfig child;
  child.prior = PriorKind::kChildEval;
  const Priors exact = Ask(ClassicEvaluator(child), Middle());
  // Moves of one stone to one cell: one prior, unless the group is one of
  // the two refined (best) ones, whose walls were all evaluated.
  std::map<std::tuple<int, int, int>, std::vector<int>> groups;
  for (size_t i = 0; i < p.moves.size(); ++i) {
    const Move m = p.moves[i];
    groups[{static_cast<int>(m.kind), m.from, m.to}].push_back(i);
  }
  ASSERT_LT(groups.size(), p.moves.size());  // some groups have several walls
  int shared = 0, refined = 0;
  for (const auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    bool all_equal = true;
    for (int i : members) all_equal &= p.priors[i] == p.priors[members[0]];
    // A refined group's priors are the full evaluation's, rescaled.
    const float scale = p.priors[members[0]] / exact.priors[members[0]];
    bool all_exact = true;
    for (int i : members) {
      all_exact &=
          std::abs(p.priors[i] / exact.priors[i] - scale) < 1e-3 * scale;
    }
    if (all_equal) ++shared;
    if (all_exact && !all_equal) ++refined;
    EXPECT_TRUE(all_equal || all_exact);
  }
  EXPECT_GT(shared, 0);
  EXPECT_LE(refined, 2);
}

}  // namespace
}  // namespace wallgo::search
