// wallgo-referee annotate: the pure parts (reading genmove_analyze answers,
// judgements, accuracy, notes, records with notes) and, with the real
// engine, a planted blunder (a move that throws away a won position), resume
// and shards.
#include "tools/records/annotate.h"

#include <filesystem>
#include <random>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "tests/temp_file.h"
#include "tools/records/records.h"

namespace wallgo::records {
namespace {

TEST(AnnotateTest, TheLastReportOfAnAnswerCounts) {
  const absl::StatusOr<EngineView> view = ParseAnalyzeAnswer(
      "info move a1a2n visits 5 winrate 0.4000 score -1.00 pv a1a2n\n"
      "info move b1b2n visits 3 winrate 0.3000 score -2.00 pv b1b2n\n"
      "info move b1b2n visits 50 winrate 0.6100 score 1.50 pv b1b2n a7a6s\n"
      "info move a1a2n visits 20 winrate 0.5000 score 0.00 pv a1a2n\n"
      "play b1b2n");
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->best, "b1b2n");
  EXPECT_DOUBLE_EQ(view->winrate, 0.61);
  ASSERT_EQ(view->candidates.size(), 2u);
  EXPECT_EQ(view->candidates[1].first, "a1a2n");
  EXPECT_FALSE(ParseAnalyzeAnswer("play a1a2n").ok());
  EXPECT_FALSE(ParseAnalyzeAnswer("info move x winrate 7 pv x").ok());
}

TEST(AnnotateTest, JudgementsFollowTheThresholds) {
  EXPECT_EQ(Judge(0.0), "");
  EXPECT_EQ(Judge(kInaccuracyLoss - 0.001), "");
  EXPECT_EQ(Judge(kInaccuracyLoss), "inaccuracy");
  EXPECT_EQ(Judge(kMistakeLoss), "mistake");
  EXPECT_EQ(Judge(kBlunderLoss), "blunder");
  EXPECT_EQ(Judge(1.0), "blunder");
  EXPECT_NEAR(MoveAccuracy(0), 100, 0.01);
  EXPECT_GT(MoveAccuracy(0.05), MoveAccuracy(0.2));
  EXPECT_EQ(MoveAccuracy(1.0), 0);
}

GameRecord TwoMoveGame() {
  GameRecord r;
  r.game = 1;
  r.seats = {{"red", "a"}, {"blue", "b"}};
  r.rules = "players=2";
  r.moves = {{"red", "m1", 5, false, std::nullopt},
             {"blue", "m2", 5, false, std::nullopt}};
  r.winner = "red";
  r.winners = {"red"};
  r.reason = "finished";
  r.final_position = "x";
  return r;
}

TEST(AnnotateTest, NotesFromWinRatesTwoPlayers) {
  GameRecord r = TwoMoveGame();
  AnnotateOptions o;
  o.engine.command = "engine";
  o.visits = 100;
  // Red 0.6 before m1, blue 0.3 after it (red 0.7); blue's m2 drops blue
  // from 0.3 to 0.0 (red's exact win).
  std::vector<WinRates> rates(3);
  rates[0] = {0.6, 0.4, NAN, NAN};
  rates[1] = {0.7, 0.3, NAN, NAN};
  rates[2] = {1.0, 0.0, NAN, NAN};
  std::vector<std::optional<EngineView>> views(3);
  views[0] = EngineView{"m1", 0.6, {{"m1", 0.6}}};
  views[1] = EngineView{"other", 0.3, {{"other", 0.3}}};
  AddNotes(r, rates, views, o);
  ASSERT_TRUE(r.moves[0].note && r.moves[1].note);
  EXPECT_EQ(r.moves[0].note->loss, 0);  // the engine's own best
  EXPECT_EQ(r.moves[0].note->judgement, "");
  EXPECT_DOUBLE_EQ(r.moves[1].note->loss, 0.3);
  EXPECT_EQ(r.moves[1].note->judgement, "blunder");
  EXPECT_EQ(r.moves[1].note->best, "other");
  ASSERT_TRUE(r.annotation.has_value());
  EXPECT_EQ(r.annotation->turning_point, 2);  // the loser's blunder
  EXPECT_EQ(r.annotation->budget, "visits 100");
  ASSERT_EQ(r.annotation->accuracy.size(), 2u);
  EXPECT_EQ(r.annotation->accuracy[0].first, "red");
  EXPECT_EQ(r.annotation->accuracy[0].second, 100);
  EXPECT_LT(r.annotation->accuracy[1].second, 30);

  // Notes survive the records file.
  const std::string line = RecordToJson(r);
  absl::StatusOr<GameRecord> back = RecordFromJson(line);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(RecordToJson(*back), line);
}

// Integers of a record that are fractions or out of range are refused by
// name (nlohmann's own conversion is undefined behaviour for 3e23).
TEST(AnnotateTest, RecordIntegersMustBeIntegersInRange) {
  const std::string line = RecordToJson(TwoMoveGame());
  ASSERT_TRUE(RecordFromJson(line).ok());
  const auto with = [&line](const std::string& from, const std::string& to) {
    std::string changed = line;
    const size_t at = changed.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) changed.replace(at, from.size(), to);
    return RecordFromJson(changed).status();
  };
  EXPECT_TRUE(absl::StrContains(with("\"game\":1", "\"game\":3.3e23").message(),
                                "'game' must be an integer"));
  EXPECT_TRUE(
      absl::StrContains(with("\"game\":1", "\"game\":4294967296").message(),
                        "'game' must be an integer"));
  EXPECT_TRUE(absl::StrContains(with("\"game\":1", "\"game\":0").message(),
                                "'game' must be an integer in 1.."));
  EXPECT_TRUE(absl::StrContains(with("\"set\":0", "\"set\":-1").message(),
                                "'set' must be an integer in 0.."));
  EXPECT_TRUE(
      absl::StrContains(with("\"ms\":", "\"ms\":3.33e23,\"x\":").message(),
                        "'ms' must be an integer"));
  EXPECT_TRUE(absl::StrContains(with("\"ms\":", "\"ms\":1.5,\"x\":").message(),
                                "'ms' must be an integer"));
}

TEST(AnnotateTest, UnknownAfterValuesGiveNoNote) {
  GameRecord r = TwoMoveGame();
  std::vector<WinRates> rates(3);
  rates[0] = {0.5, NAN, NAN, NAN};  // a 3-4 player game: the mover only
  rates[1] = {NAN, 0.4, NAN, NAN};
  rates[2] = {NAN, NAN, NAN, NAN};
  std::vector<std::optional<EngineView>> views(3);
  views[0] = EngineView{"best", 0.5, {{"best", 0.5}, {"m1", 0.45}}};
  views[1] = EngineView{"best", 0.4, {{"best", 0.4}}};
  AddNotes(r, rates, views, AnnotateOptions{});
  ASSERT_TRUE(r.moves[0].note.has_value());  // m1 was among the candidates
  EXPECT_DOUBLE_EQ(r.moves[0].note->after, 0.45);
  EXPECT_FALSE(r.moves[1].note.has_value());
}

#ifdef WALLGO
// A position whose mover can end the game winning with one move and losing
// with another: found in seeded random games.
struct Fork {
  Position pos;
  Move win;
  Move lose;
};

std::optional<Fork> FindFork() {
  std::mt19937_64 rng(11);
  for (int game = 0; game < 500; ++game) {
    Game g = Game::New(Rules{}).value();
    while (!g.is_over()) {
      const Position& pos = g.position();
      MoveList moves;
      GenerateMoves(pos, moves);
      std::optional<Move> win, lose;
      for (Move m : moves) {
        Position after = pos;
        after.Play(m);
        if (!IsGameOver(after)) continue;
        const unsigned winners = ComputeResult(after).winners;
        if (winners == (1u << Index(pos.to_move()))) win = m;
        if ((winners & (1u << Index(pos.to_move()))) == 0) lose = m;
      }
      if (win && lose) return Fork{pos, *win, *lose};
      (void)g.Play(pos.to_move(), moves[rng() % moves.size()]);
    }
  }
  return std::nullopt;
}

GameRecord OneMoveRecord(int number, const Position& start, Move move) {
  Position after = start;
  after.Play(move);
  const Result result = ComputeResult(after);
  GameRecord r;
  r.game = number;
  r.seats = {{"red", "x"}, {"blue", "y"}};
  r.rules = RulesString(start.rules());
  r.opening = PositionString(start);
  r.moves = {
      {ColourName(start.to_move()), MoveName(move), 10, false, std::nullopt}};
  for (int p = 0; p < 2; ++p) {
    r.scores.emplace_back(ColourName(ColourAt(p)), result.sheet.score[p]);
    if ((result.winners >> p) & 1) r.winners.push_back(ColourName(ColourAt(p)));
  }
  r.winner = r.winners.size() == 1 ? r.winners[0] : "draw";
  r.reason = "finished";
  r.final_position = PositionString(after);
  return r;
}

class AnnotateEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.records = dir_ / "games.jsonl";
    options_.output = dir_ / "games.annotated.jsonl";
    options_.engine = {"wallgo", absl::StrCat(WALLGO, " --hash 16")};
    options_.visits = 400;
    options_.command_timeout_s = 30;
  }
  void WriteRecords(const std::vector<GameRecord>& records) {
    absl::StatusOr<std::unique_ptr<RecordWriter>> writer =
        RecordWriter::Open(options_.records, false);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (const GameRecord& r : records) ASSERT_TRUE((*writer)->Append(r).ok());
  }

  std::vector<GameRecord> Annotate(std::string* progress = nullptr) {
    std::ostringstream out, err;
    const absl::Status s = RunAnnotate(options_, out, err);
    EXPECT_TRUE(s.ok()) << s << err.str();
    if (progress != nullptr) *progress = out.str();
    absl::StatusOr<std::vector<GameRecord>> annotated =
        ReadRecords(options_.output);
    EXPECT_TRUE(annotated.ok()) << annotated.status();
    return annotated.ok() ? *annotated : std::vector<GameRecord>{};
  }

  const wallgo::testing::TempDir dir_{"wallgo-annotate-test"};
  AnnotateOptions options_;
};

TEST_F(AnnotateEngineTest, APlantedBlunderIsMarkedABlunder) {
  const std::optional<Fork> fork = FindFork();
  ASSERT_TRUE(fork.has_value());
  WriteRecords({OneMoveRecord(1, fork->pos, fork->lose),
                OneMoveRecord(2, fork->pos, fork->win)});
  const std::vector<GameRecord> games = Annotate();
  ASSERT_EQ(games.size(), 2u);
  const MoveNote& thrown = *games[0].moves[0].note;
  EXPECT_EQ(thrown.judgement, "blunder") << RecordToJson(games[0]);
  EXPECT_EQ(thrown.before, 1.0);  // the engine saw the win
  EXPECT_EQ(thrown.after, 0.0);
  EXPECT_EQ(games[0].annotation->turning_point, 1);
  const MoveNote& kept = *games[1].moves[0].note;
  EXPECT_EQ(kept.judgement, "") << RecordToJson(games[1]);
  EXPECT_EQ(kept.loss, 0);
}

TEST_F(AnnotateEngineTest, ResumeAndShardsAnnotateEachGameOnce) {
  const std::optional<Fork> fork = FindFork();
  ASSERT_TRUE(fork.has_value());
  WriteRecords({OneMoveRecord(1, fork->pos, fork->lose),
                OneMoveRecord(2, fork->pos, fork->win),
                OneMoveRecord(3, fork->pos, fork->lose)});
  options_.shard_index = 1;  // --shard 2/2: game 2 only
  options_.shard_count = 2;
  std::vector<GameRecord> games = Annotate();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].game, 2);
  options_.shard_index = 0;
  options_.shard_count = 1;
  options_.resume = true;
  std::string progress;
  games = Annotate(&progress);
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(progress.find("game 2:"), std::string::npos) << progress;
  EXPECT_NE(progress.find("[2/2] game 3:"), std::string::npos) << progress;
  // Without --resume a non-empty output is refused.
  options_.resume = false;
  std::ostringstream out, err;
  EXPECT_FALSE(RunAnnotate(options_, out, err).ok());
}
#endif

}  // namespace
}  // namespace wallgo::records
