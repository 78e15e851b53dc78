// The bridge's parts alone, each without the others: the clock (on a clock
// the test moves), the analysis and hints, the seats and access, the
// state's JSON, and a review by the mock engine in its own thread.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tools/gui/analysis_state.h"
#include "tools/gui/game_review.h"
#include "tools/gui/record_game.h"
#include "tools/gui/seating.h"
#include "tools/gui/state_json.h"
#include "tools/gui/turn_clock.h"

namespace wallgo::gui {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;
using TimePoint = std::chrono::steady_clock::time_point;

GuiGame Game(const std::string& moves) {
  GuiGame game(*Position::Start(Rules::Default(2)));
  for (const absl::string_view token :
       absl::StrSplit(moves, ' ', absl::SkipEmpty())) {
    EXPECT_TRUE(game.Play(*ParseMove(std::string(token))).ok()) << token;
  }
  return game;
}

// A clock that moves only when the test says so.
struct FakeTime {
  TimePoint now = TimePoint() + std::chrono::hours(1);
  TurnClock::Now Source() {
    return [this] { return now; };
  }
};

Seat Person(double clock = 0, double increment = 0, double turn = 0) {
  Seat seat;
  seat.settings.clock = clock;
  seat.settings.increment = increment;
  seat.turn = turn;
  return seat;
}

TEST(TurnClockTest, ClockLeftIsMainTimePlusIncrementsLessTheMovesTime) {
  // Placements go red, blue, blue, red.
  GuiGame game(*Position::Start(Rules::Default(2)));
  ASSERT_TRUE(game.Play(*ParseMove("d4"), 4000).ok());   // red, 4 s
  ASSERT_TRUE(game.Play(*ParseMove("c3"), 1000).ok());   // blue, 1 s
  ASSERT_TRUE(game.Play(*ParseMove("e5"), 12000).ok());  // blue, 12 s
  const SeatSettings settings = Person(10, 2).settings;
  EXPECT_DOUBLE_EQ(ClockLeft(game, settings, Colour::kRed), 10 + 2 - 4);
  EXPECT_DOUBLE_EQ(ClockLeft(game, settings, Colour::kBlue),
                   10 + 2 - 1 + 2 - 12);
  // At an earlier ply only the moves before it count.
  ASSERT_TRUE(game.Goto(2).ok());
  EXPECT_DOUBLE_EQ(ClockLeft(game, settings, Colour::kBlue), 10 + 2 - 1);
  // A random turn played after the clock ran out starts it at the increment.
  PlayedMove late;
  late.move = *ParseMove("a1");
  late.ms = 30000;
  late.random = true;
  ASSERT_TRUE(game.Goto(3).ok());
  ASSERT_TRUE(game.Play(late).ok());  // red's
  EXPECT_DOUBLE_EQ(ClockLeft(game, settings, Colour::kRed), 2);
}

TEST(TurnClockTest, TheTurnRunsFromTheChangeThatBeganIt) {
  FakeTime time;
  TurnClock clock(time.Source(), 1);
  GuiGame game = Game("d4");
  EXPECT_FALSE(clock.Running(game));  // untimed until a change
  EXPECT_EQ(clock.MoveMs(game), -1);
  clock.Changed(game);
  EXPECT_TRUE(clock.Running(game));
  time.now += milliseconds(2500);
  EXPECT_DOUBLE_EQ(clock.TurnElapsed(), 2.5);
  EXPECT_EQ(clock.MoveMs(game), 2500);
  // A change that is no new turn (the same moves) keeps the turn's start.
  clock.Changed(game);
  EXPECT_DOUBLE_EQ(clock.TurnElapsed(), 2.5);
  // An earlier ply shown: the clocks stop.
  ASSERT_TRUE(game.Goto(0).ok());
  EXPECT_FALSE(clock.Running(game));
  ASSERT_TRUE(game.Goto(1).ok());
  ASSERT_TRUE(game.Play(*ParseMove("c3")).ok());
  clock.Changed(game);
  EXPECT_DOUBLE_EQ(clock.TurnElapsed(), 0);
  clock.Stop();
  EXPECT_FALSE(clock.Running(game));
  // Resumed: the turn began `elapsed` seconds ago.
  clock.Resume(game, 7);
  EXPECT_TRUE(clock.Running(game));
  EXPECT_DOUBLE_EQ(clock.TurnElapsed(), 7);
  clock.Resume(game, 0);
  EXPECT_FALSE(clock.Running(game));
}

TEST(TurnClockTest, TheDeadlineIsTheSoonerOfTheTurnAndTheClock) {
  FakeTime time;
  TurnClock clock(time.Source(), 1);
  GuiGame game = Game("");
  clock.Changed(game);
  const TimePoint start = time.now;
  EXPECT_FALSE(clock.Deadline(game, {Person(), Person()}).has_value());
  EXPECT_EQ(clock.Deadline(game, {Person(0, 0, 5), Person()}),
            start + std::chrono::seconds(5));
  EXPECT_EQ(clock.Deadline(game, {Person(3, 1, 5), Person()}),
            start + std::chrono::seconds(3));
  // Blue's limits do not matter while red is to move.
  EXPECT_FALSE(clock.Deadline(game, {Person(), Person(1)}).has_value());
  clock.Stop();
  EXPECT_FALSE(clock.Deadline(game, {Person(3), Person()}).has_value());
}

TEST(TurnClockTest, TheTimeoutRuleResignsOrPlaysARandomLegalMove) {
  FakeTime time;
  TurnClock clock(time.Source(), 7);
  const GuiGame game = Game("d4 c3 e5 a1");
  clock.Changed(game);
  time.now += milliseconds(1200);
  Seat forfeit = Person(0, 0, 1);
  forfeit.timeout = TimeoutRule::kForfeit;
  const PlayedMove resigned = clock.TimeoutMove(game, forfeit);
  EXPECT_EQ(resigned.move.kind, MoveKind::kResign);
  EXPECT_TRUE(resigned.timeout);
  EXPECT_EQ(resigned.ms, 1200);
  MoveList legal;
  GenerateMoves(game.shown().position(), legal);
  std::set<uint32_t> codes;
  for (const Move& m : legal) codes.insert(m.Code());
  std::set<uint32_t> played;
  for (int i = 0; i < 20; ++i) {
    const PlayedMove random = clock.TimeoutMove(game, Person(0, 0, 1));
    EXPECT_TRUE(random.random);
    EXPECT_FALSE(random.timeout);
    EXPECT_TRUE(codes.count(random.move.Code())) << MoveName(random.move);
    played.insert(random.move.Code());
  }
  EXPECT_GT(played.size(), 1u);  // random, not one fixed move
}

TEST(TurnClockTest, OnlyTheMoversTimeCountsDownInTheState) {
  FakeTime time;
  TurnClock clock(time.Source(), 1);
  const GuiGame game = Game("d4");  // blue to move
  clock.Changed(game);
  time.now += milliseconds(1500);
  const json red = clock.SeatTimes(game, Person(60, 0, 10), Colour::kRed);
  EXPECT_EQ(red["running"], false);
  EXPECT_DOUBLE_EQ(red["clockLeft"].get<double>(), 60);
  EXPECT_DOUBLE_EQ(red["turnLeft"].get<double>(), 10);
  EXPECT_EQ(red["timeout"], "random");
  const json blue = clock.SeatTimes(game, Person(60, 0, 10), Colour::kBlue);
  EXPECT_EQ(blue["running"], true);
  EXPECT_DOUBLE_EQ(blue["clockLeft"].get<double>(), 58.5);
  EXPECT_DOUBLE_EQ(blue["turnLeft"].get<double>(), 8.5);
  const json untimed = clock.SeatTimes(game, Person(), Colour::kBlue);
  EXPECT_FALSE(untimed.contains("clockLeft"));
  EXPECT_FALSE(untimed.contains("turnLeft"));
}

Candidate Cand(const std::string& move, double winrate) {
  Candidate c;
  c.move = move;
  c.winrate = winrate;
  c.visits = 100;
  return c;
}

TEST(AnalysisStateTest, TheGraphKeepsTheBestCandidateByPly) {
  AnalysisState analysis;
  analysis.Set(true, 1);
  for (int ply = 0; ply < 4; ++ply) {
    analysis.Take({Cand("d4", 0.1 * ply), Cand("c3", 0)});
    analysis.Graph(ply, ply % 2 ? "blue" : "red");
  }
  json state = analysis.Json("mock", 3);
  EXPECT_EQ(state["analysis"]["on"], true);
  EXPECT_EQ(state["analysis"]["engine"], "mock");
  EXPECT_EQ(state["analysis"]["candidates"].size(), 2u);
  ASSERT_EQ(state["graph"].size(), 4u);
  EXPECT_EQ(state["graph"][3]["turn"], "blue");
  EXPECT_DOUBLE_EQ(state["graph"][3]["winrate"].get<double>(), 0.3);
  analysis.ForgetAfter(1);  // the moves after ply 1 changed
  state = analysis.Json("mock", 1);
  EXPECT_EQ(state["graph"].size(), 2u);
  analysis.Set(false, 0);  // another engine: its candidates are to come
  EXPECT_TRUE(analysis.candidates().empty());
  analysis.Take({Cand("d4", 0.5)});
  analysis.Clear();  // another game
  state = analysis.Json("mock", 0);
  EXPECT_TRUE(state["graph"].empty());
  EXPECT_TRUE(state["analysis"]["candidates"].empty());
}

TEST(AnalysisStateTest, AHintIsTheBestMoveOnceItsSecondHasPassed) {
  AnalysisState analysis;
  const TimePoint asked = TimePoint() + std::chrono::hours(1);
  EXPECT_FALSE(analysis.HintDue().has_value());
  analysis.AskHint(1, 4, asked);
  EXPECT_TRUE(analysis.hint_pending());
  EXPECT_EQ(analysis.hint_engine(), 1);
  EXPECT_EQ(analysis.HintDue(), asked + AnalysisState::kHintSearch);
  const TimePoint due = asked + AnalysisState::kHintSearch;
  EXPECT_FALSE(analysis.HintReady(due));  // no candidates yet
  analysis.Take({Cand("e5", 0.6), Cand("d4", 0.4)});
  EXPECT_FALSE(analysis.HintReady(due - milliseconds(1)));
  EXPECT_TRUE(analysis.HintReady(due));
  analysis.TakeHint();
  EXPECT_FALSE(analysis.hint_pending());
  EXPECT_EQ(analysis.HintJson(),
            json({{"pending", false}, {"ply", 4}, {"move", "e5"}}));
  analysis.KeepHintOnlyAt(4);  // the same position: the hint stays
  EXPECT_EQ(analysis.HintJson()["move"], "e5");
  analysis.KeepHintOnlyAt(5);
  EXPECT_EQ(analysis.HintJson(),
            json({{"pending", false}, {"ply", -1}, {"move", ""}}));
}

std::vector<EngineSpec> Engines() {
  return {{"mock", std::string(MOCK_ENGINE)},
          {"mock2", std::string(MOCK_ENGINE)}};
}

TEST(SeatingTest, TokensGiveTheirColourAndOthersWatch) {
  const Seating seating({Seat{}, Seat{}});
  ASSERT_EQ(seating.tokens().size(), static_cast<size_t>(kMaxPlayers));
  const std::set<std::string> distinct(seating.tokens().begin(),
                                       seating.tokens().end());
  EXPECT_EQ(distinct.size(), seating.tokens().size());
  EXPECT_EQ(seating.SeatOfToken(seating.tokens()[1]), 1);
  EXPECT_EQ(seating.SeatOfToken("guess"), Access::kWatch);
  const GuiGame game = Game("");  // red to move
  EXPECT_TRUE(Seating::Check("move", Access{0}, game).ok());
  EXPECT_FALSE(Seating::Check("move", Access{1}, game).ok());
  EXPECT_FALSE(Seating::Check("move", Access{Access::kWatch}, game).ok());
  EXPECT_TRUE(Seating::Check("new", Access{}, game).ok());
}

TEST(SeatingTest, SeatsSayWhoPlaysAndShowTheirSettings) {
  Seat engine;
  engine.engine = 1;
  engine.settings.level = 3;
  Seating seating({Person(300, 5), engine});
  const GuiGame game = Game("d4");  // blue to move
  EXPECT_TRUE(seating.EngineToMove(game));
  EXPECT_FALSE(seating.EngineToMove(Game("")));
  EXPECT_TRUE(seating.AnyPerson());
  EXPECT_EQ(seating.of(Colour::kBlue).engine, 1);
  const json person = seating.StateJson(0, Engines());
  EXPECT_EQ(person["kind"], "human");
  EXPECT_EQ(person["clock"], 300);
  EXPECT_EQ(person["increment"], 5);
  EXPECT_FALSE(seating.SummaryJson(0, Engines()).contains("clock"));
  const json machine = seating.SummaryJson(1, Engines());
  EXPECT_EQ(machine["kind"], "engine");
  EXPECT_EQ(machine["engine"], "mock2");
  EXPECT_EQ(machine["level"], 3);
  seating.Set({engine, engine});
  EXPECT_FALSE(seating.AnyPerson());
}

// A view of parts made by the test, as a bridge would show them.
struct Parts {
  std::vector<EngineSpec> engines = Engines();
  GuiGame game = Game("");
  Seating seating{{Person(), Person()}};
  FakeTime time;
  TurnClock clock{time.Source(), 1};
  AnalysisState analysis;
  EngineEvents events{{EngineStatus{}, EngineStatus{}}};
  std::vector<records::GameRecord> records;
  BridgeView View() const {
    return {3,        engines, game,   seating, clock,
            analysis, events,  json(), records, -1};
  }
};

TEST(StateJsonTest, AnEngineFailureIsShownWithItsEvent) {
  Parts parts;
  EngineStatus failed;
  failed.state = EngineState::kFailed;
  failed.detail = "crashed";
  parts.events.Update(1, "mock2", failed);
  json state = StateJson(parts.View());
  EXPECT_EQ(state["type"], "state");
  EXPECT_EQ(state["version"], 3);
  EXPECT_EQ(state["engines"][1]["state"], "failed");
  EXPECT_EQ(state["engines"][1]["name"], "mock2");
  EXPECT_TRUE(absl::StartsWith(state["event"].get<std::string>(),
                               "mock2 crashed; the game is kept"));
  EXPECT_TRUE(state["eventCode"].is_null());
  parts.events.Clear();
  EXPECT_EQ(StateJson(parts.View())["event"], "");
  parts.events.Say("red ran out of time: the game is lost");
  EXPECT_EQ(StateJson(parts.View())["event"],
            "red ran out of time: the game is lost");
}

TEST(StateJsonTest, TheStateShowsTheGameTheSeatsTimeAndTheResult) {
  Parts parts;
  parts.seating.Set({Person(60), Person()});
  parts.clock.Changed(parts.game);
  parts.time.now += milliseconds(500);
  json state = StateJson(parts.View());
  EXPECT_EQ(state["moves"].size(), 0u);
  EXPECT_EQ(state["cursor"], 0);
  EXPECT_DOUBLE_EQ(state["turnElapsed"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(state["seats"][0]["clockLeft"].get<double>(), 59.5);
  EXPECT_EQ(state["seats"][0]["running"], true);
  EXPECT_TRUE(state["recordLine"].is_null());
  EXPECT_TRUE(state["records"].is_null());
  EXPECT_EQ(RecordLine(parts.View()), "");
  json summary = SummaryJson(parts.View());
  EXPECT_EQ(summary["over"], false);
  EXPECT_EQ(summary["turn"], "red");
  // Red resigns: the game is over, with a record line and blue the winner.
  ASSERT_TRUE(parts.game.Play(Move::Resign()).ok());
  state = StateJson(parts.View());
  EXPECT_DOUBLE_EQ(state["turnElapsed"].get<double>(), 0);
  ASSERT_TRUE(state["recordLine"].is_string());
  const auto record =
      records::RecordFromJson(state["recordLine"].get<std::string>());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->winner, "blue");
  summary = SummaryJson(parts.View());
  EXPECT_EQ(summary["over"], true);
  EXPECT_EQ(summary["winners"], json({"blue"}));
  // Records loaded for review are listed with the one shown.
  parts.records = {*record, *record};
  BridgeView view = parts.View();
  view.record_shown = 1;
  state = StateJson(view);
  EXPECT_EQ(state["records"]["games"].size(), 2u);
  EXPECT_EQ(state["records"]["shown"], 1);
}

TEST(RecordsTextTest, IsCheckedLineByLine) {
  const GuiGame game = Game("d4 c3 e5 a1");
  const std::string line = records::RecordToJson(
      GameToRecord(game, {Person(), Person()}, Engines()));
  const auto two = ParseRecordsText(line + "\n\n" + line + "\n");
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->size(), 2u);
  const auto bad = ParseRecordsText(line + "\n{\"game\":1}\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "records line 2"));
  EXPECT_FALSE(ParseRecordsText("\n").ok());
}

// A review's owner: the mutex that guards it and the changes it reported.
class GameReviewTest : public ::testing::Test {
 protected:
  // Waits (up to 20 s) until the review's state is not `state`.
  json WaitUntilNot(const std::string& state) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(20),
                      [&] { return review_.Json()["state"] != state; });
    return review_.Json();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  int changes_ = 0;  // guarded by mutex_, as the review is
  GameReview review_{mutex_, nullptr, [this] {
                       ++changes_;
                       changed_.notify_all();
                     }};
  const GuiGame game_ = Game("d4 c3 e5 a1");
};

std::vector<std::string> Tokens() { return {"d4", "c3", "e5", "a1"}; }

records::AnnotateOptions Options(const std::string& flags = "") {
  records::AnnotateOptions options;
  options.engine = {"mock", absl::StrCat(MOCK_ENGINE, " ", flags)};
  options.movetime_s = 0.05;
  return options;
}

TEST_F(GameReviewTest, AReviewRunsInItsThreadAndReportsHowItEnded) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    review_.Start(GameToRecord(game_, {Person(), Person()}, Engines()),
                  Tokens(), Options());
    const json running = review_.Json();
    EXPECT_EQ(running["state"], "running");
    EXPECT_EQ(running["engine"], "mock");
    EXPECT_EQ(running["total"], 5);
    EXPECT_EQ(running["moves"], json(Tokens()));
  }
  // The mock engine knows no genmove_analyze: the review ends failed, with
  // the engine's answer, as a real engine's error would be shown.
  const json ended = WaitUntilNot("running");
  EXPECT_EQ(ended["state"], "failed") << ended.dump();
  EXPECT_TRUE(
      absl::StrContains(ended["error"].get<std::string>(), "genmove_analyze"))
      << ended.dump();
  EXPECT_EQ(ended["engine"], "mock");
  std::lock_guard<std::mutex> lock(mutex_);
  EXPECT_GE(changes_, 1);
}

TEST_F(GameReviewTest, AResetReviewIsForgottenAndClosingJoinsItsThread) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Reset at once: whatever its thread finds, it is no longer wanted.
    review_.Start(GameToRecord(game_, {Person(), Person()}, Engines()),
                  Tokens(), Options("--delay-ms 200"));
    review_.Reset();
    EXPECT_EQ(review_.Json()["state"], "");
    // A record without notes is no review.
    review_.FromRecord(GameToRecord(game_, {Person(), Person()}, Engines()),
                       Tokens());
    EXPECT_EQ(review_.Json()["state"], "");
  }
  review_.Close();  // returns: the thread has ended
  std::lock_guard<std::mutex> lock(mutex_);
  EXPECT_EQ(review_.Json()["state"], "");
  EXPECT_EQ(changes_, 0);  // the stale thread reported nothing
}

}  // namespace
}  // namespace wallgo::gui
