#include "protocol/engine.h"

#include <memory>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "protocol/options.h"
#include "tests/protocol/fake_searcher.h"

namespace wallgo::protocol {
namespace {

using testing::FakeFactory;
using testing::FakeRecord;

Move LastLegal(const Position& pos) {
  MoveList moves;
  GenerateMoves(pos, moves);
  return moves[moves.size() - 1];
}

Move FirstLegal(const Position& pos) {
  MoveList moves;
  GenerateMoves(pos, moves);
  return moves[0];
}

class EngineTest : public ::testing::Test {
 protected:
  EngineTest() : engine_(FakeFactory(record_), Options()) {}
  static search::SearchOptions Options() {
    search::SearchOptions options = DefaultOptions();
    options.visits = 100;
    return options;
  }
  std::shared_ptr<FakeRecord> record_ = std::make_shared<FakeRecord>();
  Engine engine_;
};

TEST_F(EngineTest, GenMovePlaysTheSearchersChoice) {
  const Position before = engine_.position();
  const Move expected = LastLegal(before);
  absl::StatusOr<GenMoveResult> result = engine_.GenMove(Colour::kRed, {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->move, expected);
  ASSERT_EQ(engine_.game().moves().size(), 1u);
  EXPECT_EQ(engine_.game().moves()[0], expected);
  EXPECT_EQ(result->info.total_visits, 33);
  ASSERT_TRUE(engine_.Undo().ok());
  EXPECT_EQ(engine_.position(), before);
}

TEST_F(EngineTest, GenMoveForTheWrongColourChangesNothing) {
  const std::string before = PositionString(engine_.position());
  absl::StatusOr<GenMoveResult> result = engine_.GenMove(Colour::kBlue, {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(),
            "illegal move: it is red's turn, not blue's");
  EXPECT_EQ(PositionString(engine_.position()), before);
  EXPECT_EQ(record_->searches, 0);
}

TEST_F(EngineTest, AnIllegalAnswerFallsBackToTheFirstLegalMove) {
  record_->forced_answer = Move::Turn(0, 48, Side::kNorth);  // nonsense
  const Move first = FirstLegal(engine_.position());
  absl::StatusOr<GenMoveResult> result = engine_.GenMove(Colour::kRed, {});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->move, first);
}

TEST_F(EngineTest, ResignFromTheSearcherEndsTheGame) {
  record_->forced_answer = Move::Resign();
  absl::StatusOr<GenMoveResult> result = engine_.GenMove(Colour::kRed, {});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->move, Move::Resign());
  EXPECT_TRUE(engine_.game().is_over());
  EXPECT_EQ(engine_.GenMove(Colour::kBlue, {}).status().message(), "game over");
  EXPECT_EQ(
      engine_.Play(Colour::kBlue, FirstLegal(engine_.position())).message(),
      "game over");
}

TEST_F(EngineTest, TheClockOfTheSideToMoveReachesTheSearcher) {
  ASSERT_TRUE(engine_.time_control().SetSettings(300, 0, 0).ok());
  ASSERT_TRUE(engine_.time_control().SetTimeLeft(Colour::kRed, 42, 0).ok());
  ASSERT_TRUE(engine_.GenMove(Colour::kRed, {}).ok());
  EXPECT_DOUBLE_EQ(record_->last_limits.clock.main_s, 42);
  EXPECT_FALSE(record_->last_limits.infinite);
  // Red's thinking time came off red's clock, not blue's.
  EXPECT_LT(engine_.time_control().clock(Colour::kRed).main_s, 42);
  EXPECT_DOUBLE_EQ(engine_.time_control().clock(Colour::kBlue).main_s, 300);
  ASSERT_TRUE(engine_.GenMove(Colour::kBlue, {}).ok());
  EXPECT_DOUBLE_EQ(record_->last_limits.clock.main_s, 300);
}

TEST_F(EngineTest, AnalyzeRunsUntilToldToStopAndReportsInfo) {
  int polls = 0;
  int infos = 0;
  SearchControl control;
  control.info_interval_s = 0;
  control.on_info = [&](const search::SearchInfo& info) {
    ++infos;
    EXPECT_FALSE(info.candidates.empty());
  };
  control.should_stop = [&] { return ++polls >= 5; };
  const Position before = engine_.position();
  ASSERT_TRUE(engine_.Analyze(control).ok());
  EXPECT_TRUE(record_->last_limits.infinite);
  EXPECT_GE(polls, 5);
  EXPECT_GE(infos, 1);
  EXPECT_EQ(engine_.position(), before);  // analysis plays nothing
}

TEST_F(EngineTest, GenMoveStopsWhenTheControlSaysSo) {
  search::SearchOptions endless = engine_.options();
  endless.visits = 0;
  endless.movetime_s = 0;
  engine_.SetOptions(endless);
  SearchControl control;
  control.should_stop = [] { return true; };
  absl::StatusOr<GenMoveResult> result = engine_.GenMove(Colour::kRed, control);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(engine_.game().moves().size(), 1u);
}

TEST_F(EngineTest, OptionsReachTheSearcherAndANewLevelMakesANewOne) {
  ASSERT_TRUE(engine_.GenMove(Colour::kRed, {}).ok());
  EXPECT_EQ(record_->made, 1);
  search::SearchOptions options = engine_.options();
  options.threads = 3;
  engine_.SetOptions(options);
  EXPECT_EQ(record_->last_options.threads, 3);
  EXPECT_EQ(record_->made, 1);
  options.level = 2;
  engine_.SetOptions(options);
  ASSERT_TRUE(engine_.GenMove(Colour::kBlue, {}).ok());
  EXPECT_EQ(record_->made, 2);
  EXPECT_EQ(record_->last_options.level, 2);
}

TEST_F(EngineTest, NewGameWithBadRulesChangesNothing) {
  ASSERT_TRUE(engine_.GenMove(Colour::kRed, {}).ok());
  const std::string before = PositionString(engine_.position());
  Rules bad;
  bad.players = 5;
  EXPECT_FALSE(engine_.NewGame(bad).ok());
  EXPECT_EQ(PositionString(engine_.position()), before);
  EXPECT_EQ(engine_.game().moves().size(), 1u);
  ASSERT_TRUE(engine_.NewGame(Rules::Default(3)).ok());
  EXPECT_EQ(engine_.position().num_players(), 3);
  EXPECT_TRUE(engine_.game().moves().empty());
  EXPECT_EQ(record_->clears, 1);
}

TEST_F(EngineTest, SetupReplacesTheGameWithoutHistory) {
  ASSERT_TRUE(engine_.GenMove(Colour::kRed, {}).ok());
  const Position pos = engine_.position();
  engine_.Setup(pos);
  EXPECT_EQ(engine_.position(), pos);
  EXPECT_EQ(engine_.Undo().message(), "cannot undo");
}

}  // namespace
}  // namespace wallgo::protocol
