// Priors from a shortlist: the policy picks which moves the classic
// evaluation values, the classic utilities order them, and every other move
// keeps the policy's odds below them.
#include "search/classic/shortlist_evaluator.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "engine/movegen.h"
#include "gtest/gtest.h"
#include "search/bench.h"

namespace wallgo::search {
namespace {

// A policy that ranks moves by a given score each, and a value of its own
// so that a test sees which evaluator answered.
class ScoredPolicy : public Evaluator {
 public:
  explicit ScoredPolicy(std::vector<float> scores)
      : scores_(std::move(scores)) {}
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override {
    if (!moves.empty()) {
      std::vector<float> s(moves.size());
      LogPriors(pos, moves, s);
      SoftmaxOfUtilities(s, 1.0, priors);
    }
    Value v;
    v.win = {0.25f, 0.75f};
    return v;
  }
  void LogPriors(const Position&, std::span<const Move> moves,
                 std::span<float> scores) const override {
    for (size_t i = 0; i < moves.size(); ++i) scores[i] = scores_[i];
  }

 private:
  std::vector<float> scores_;
};

struct Asked {
  std::vector<Move> moves;
  std::vector<float> priors;
};

Asked AskPriors(const Evaluator& evaluator, const Position& pos,
                int edges = 0) {
  MoveList list;
  GenerateMoves(pos, list);
  Asked a;
  a.moves.assign(list.begin(), list.end());
  a.priors.assign(list.size(), -1.0f);
  evaluator.ChunkPriors(pos, a.moves, a.priors, edges);
  return a;
}

const Position& Middle() {
  static const Position pos = BenchStart(BenchPositions()[5]);
  return pos;
}

// Scores that rank the moves in an order unrelated to the generator's.
std::vector<float> MixedScores(int count) {
  std::vector<float> scores(count);
  for (int i = 0; i < count; ++i) {
    scores[i] = 0.05f * static_cast<float>((i * 37) % 101);
  }
  return scores;
}

TEST(ShortlistEvaluatorTest, TheShortlistIsOrderedByTheClassicUtilities) {
  const auto classic = std::make_shared<ClassicEvaluator>();
  const Asked all = AskPriors(*classic, Middle());
  const int count = static_cast<int>(all.moves.size());
  ASSERT_GT(count, 40);
  const std::vector<float> scores = MixedScores(count);
  constexpr int kSize = 12;
  const auto policy = std::make_shared<ScoredPolicy>(scores);
  const ShortlistEvaluator shortlist(policy, classic, kSize);
  const Asked got = AskPriors(shortlist, Middle());

  std::vector<int> by_score(count);
  std::iota(by_score.begin(), by_score.end(), 0);
  std::stable_sort(by_score.begin(), by_score.end(),
                   [&](int a, int b) { return scores[a] > scores[b]; });
  const std::vector<int> listed(by_score.begin(), by_score.begin() + kSize);
  float lowest_listed = 1;
  for (int i : listed) lowest_listed = std::min(lowest_listed, got.priors[i]);
  // Between two listed moves, the classic priors' odds.
  for (int i : listed) {
    EXPECT_NEAR(std::log(got.priors[i] / got.priors[listed[0]]),
                std::log(all.priors[i] / all.priors[listed[0]]), 1e-3);
  }
  // Every other move below the shortlist, in the policy's odds.
  const int last = listed.back();
  for (int r = kSize; r < count; ++r) {
    const int i = by_score[r];
    EXPECT_LE(got.priors[i], lowest_listed);
    EXPECT_NEAR(std::log(got.priors[i] / got.priors[by_score[kSize]]),
                scores[i] - scores[by_score[kSize]], 1e-3);
  }
  EXPECT_GT(got.priors[last], 0.0f);
  EXPECT_NEAR(std::accumulate(got.priors.begin(), got.priors.end(), 0.0), 1.0,
              1e-4);
}

TEST(ShortlistEvaluatorTest, TiesGoToTheEarlierMove) {
  const auto classic = std::make_shared<ClassicEvaluator>();
  const Asked all = AskPriors(*classic, Middle());
  const int count = static_cast<int>(all.moves.size());
  const auto policy =
      std::make_shared<ScoredPolicy>(std::vector<float>(count, 0.0f));
  const ShortlistEvaluator shortlist(policy, classic, 5);
  const Asked got = AskPriors(shortlist, Middle());
  // The first five moves are listed: classic odds among them, and all the
  // others alike, below them.
  for (int i = 1; i < 5; ++i) {
    EXPECT_NEAR(std::log(got.priors[i] / got.priors[0]),
                std::log(all.priors[i] / all.priors[0]), 1e-3);
  }
  for (int i = 6; i < count; ++i) EXPECT_EQ(got.priors[i], got.priors[5]);
}

TEST(ShortlistEvaluatorTest, ShortListsAndLaterChunksGetTheClassicPriors) {
  const auto classic = std::make_shared<ClassicEvaluator>();
  const Asked all = AskPriors(*classic, Middle());
  const int count = static_cast<int>(all.moves.size());
  const auto policy = std::make_shared<ScoredPolicy>(MixedScores(count));
  // A node with edges already: every move evaluated.
  const ShortlistEvaluator small(policy, classic, 8);
  EXPECT_EQ(AskPriors(small, Middle(), 4).priors, all.priors);
  // A shortlist as long as the moves: nothing to leave out.
  const ShortlistEvaluator whole(policy, classic, count);
  EXPECT_EQ(AskPriors(whole, Middle()).priors, all.priors);
}

// policy_weight w: a listed move's log prior is the classic one plus w
// times the policy's score; the moves left out keep the policy's odds
// below them; a node's later chunks blend every move the same way.
TEST(ShortlistEvaluatorTest, ThePolicyWeightAddsThePolicysOddsToTheClassic) {
  const auto classic = std::make_shared<ClassicEvaluator>();
  const Asked all = AskPriors(*classic, Middle());
  const int count = static_cast<int>(all.moves.size());
  const std::vector<float> scores = MixedScores(count);
  constexpr int kSize = 12;
  constexpr float kWeight = 0.5f;
  const auto policy = std::make_shared<ScoredPolicy>(scores);
  const ShortlistEvaluator blended(policy, classic, kSize, kWeight);
  const Asked got = AskPriors(blended, Middle());
  std::vector<int> by_score(count);
  std::iota(by_score.begin(), by_score.end(), 0);
  std::stable_sort(by_score.begin(), by_score.end(),
                   [&](int a, int b) { return scores[a] > scores[b]; });
  const int first = by_score[0];
  float lowest_listed = 1;
  for (int r = 0; r < kSize; ++r) {
    const int i = by_score[r];
    lowest_listed = std::min(lowest_listed, got.priors[i]);
    EXPECT_NEAR(std::log(got.priors[i] / got.priors[first]),
                std::log(all.priors[i] / all.priors[first]) +
                    kWeight * (scores[i] - scores[first]),
                1e-3);
  }
  for (int r = kSize; r < count; ++r) {
    const int i = by_score[r];
    EXPECT_LE(got.priors[i], lowest_listed);
    EXPECT_NEAR(std::log(got.priors[i] / got.priors[by_score[kSize]]),
                scores[i] - scores[by_score[kSize]], 1e-3);
  }
  const Asked later = AskPriors(blended, Middle(), 4);
  for (int i = 1; i < count; ++i) {
    EXPECT_NEAR(std::log(later.priors[i] / later.priors[0]),
                std::log(all.priors[i] / all.priors[0]) +
                    kWeight * (scores[i] - scores[0]),
                1e-3);
  }
  EXPECT_NEAR(std::accumulate(later.priors.begin(), later.priors.end(), 0.0),
              1.0, 1e-4);
}

// eval=hybrid's pairing: values from the network (here the scored
// policy's), priors from the shortlist, whose own values are classic.
TEST(ShortlistEvaluatorTest, ValuesComeFromTheValueEvaluator) {
  const auto classic = std::make_shared<ClassicEvaluator>();
  const auto policy = std::make_shared<ScoredPolicy>(MixedScores(256));
  const auto shortlist =
      std::make_shared<ShortlistEvaluator>(policy, classic, 8);
  const CompositeEvaluator hybrid(policy, shortlist);
  const Value v = hybrid.Evaluate(Middle(), {}, {});
  EXPECT_EQ(v.win[0], 0.25f);
  EXPECT_EQ(v.win[1], 0.75f);
  const Value own = shortlist->Evaluate(Middle(), {}, {});
  EXPECT_EQ(own.win[0], classic->Evaluate(Middle(), {}, {}).win[0]);
  EXPECT_EQ(AskPriors(hybrid, Middle()).priors,
            AskPriors(*shortlist, Middle()).priors);
}

// SetupPriorsEvaluator (search/evaluator.h): the policy's priors while
// stones are placed, the rest's after; values always the rest's.
TEST(SetupPriorsEvaluatorTest, PlacementsTakeThePolicysPriors) {
  const Position start = *Position::Start(Rules{});
  ASSERT_TRUE(start.in_setup());
  MoveList list;
  GenerateMoves(start, list);
  const auto policy = std::make_shared<ScoredPolicy>(
      MixedScores(static_cast<int>(list.size())));
  const auto classic = std::make_shared<ClassicEvaluator>();
  const SetupPriorsEvaluator setup(policy, classic);
  for (const int edges : {0, 4}) {
    EXPECT_EQ(AskPriors(setup, start, edges).priors,
              AskPriors(*policy, start, edges).priors);
  }
  EXPECT_NE(AskPriors(setup, start).priors, AskPriors(*classic, start).priors);
  std::vector<float> priors(list.size());
  const Value value = setup.Evaluate(
      start, std::span<const Move>(list.begin(), list.size()), priors);
  EXPECT_EQ(value.win, classic->Evaluate(start, {}, {}).win);
  EXPECT_EQ(priors, AskPriors(*policy, start).priors);
}

TEST(SetupPriorsEvaluatorTest, AfterThePlacementsEverythingIsTheRests) {
  ASSERT_FALSE(Middle().in_setup());
  const auto policy =
      std::make_shared<ScoredPolicy>(MixedScores(MoveList::kCapacity));
  const auto classic = std::make_shared<ClassicEvaluator>();
  const SetupPriorsEvaluator setup(policy, classic);
  for (const int edges : {0, 4}) {
    EXPECT_EQ(AskPriors(setup, Middle(), edges).priors,
              AskPriors(*classic, Middle(), edges).priors);
  }
  EXPECT_EQ(setup.Evaluate(Middle(), {}, {}).win,
            classic->Evaluate(Middle(), {}, {}).win);
}

}  // namespace
}  // namespace wallgo::search
