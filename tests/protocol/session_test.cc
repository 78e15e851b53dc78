// The command loop, in-process, over string streams and the fake searcher.
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "protocol/gtp.h"
#include "protocol/input.h"
#include "protocol/options.h"
#include "search/time_plan.h"
#include "tests/protocol/fake_searcher.h"

namespace wallgo::protocol {
namespace {

using ::testing::ElementsAre;
using testing::FakeFactory;
using testing::FakeRecord;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

// An input that delivers its parts with pauses, as a person typing does:
// each part, and the end of input, arrives `pause` after the previous part.
class TypedInput : public std::streambuf {
 public:
  TypedInput(std::vector<std::string> parts, absl::Duration pause)
      : parts_(std::move(parts)), pause_(pause) {}

 protected:
  int_type underflow() override {
    if (next_ > 0) absl::SleepFor(pause_);  // the end of input pauses too
    if (next_ == parts_.size()) return traits_type::eof();
    std::string& part = parts_[next_++];
    setg(part.data(), part.data(), part.data() + part.size());
    return traits_type::to_int_type(part[0]);
  }

 private:
  std::vector<std::string> parts_;
  absl::Duration pause_;
  size_t next_ = 0;
};

// Runs the session over `in` and returns its standard output.
std::string RunInput(std::istream& in, std::shared_ptr<FakeRecord> record) {
  search::SearchOptions options = DefaultOptions();
  options.visits = 10;
  Engine engine(FakeFactory(record), options);
  std::ostringstream out;
  Log log(nullptr, nullptr);
  GtpSession session(engine, out, log, "9.9.9");
  session.Run(in);
  return out.str();
}

// Runs `script` (all of it available at once) through a fresh session.
std::string RunScript(
    const std::string& script,
    std::shared_ptr<FakeRecord> record = std::make_shared<FakeRecord>()) {
  std::istringstream in(script);
  return RunInput(in, std::move(record));
}

// Runs `parts` typed with pauses of `pause` through a fresh session.
std::string RunTyped(std::vector<std::string> parts, absl::Duration pause) {
  TypedInput typed(std::move(parts), pause);
  std::istream in(&typed);
  return RunInput(in, std::make_shared<FakeRecord>());
}

// The answers of a transcript: every answer ends with an empty line.
std::vector<std::string> Answers(const std::string& output) {
  std::vector<std::string> answers = absl::StrSplit(output, "\n\n");
  EXPECT_TRUE(answers.back().empty()) << "output must end with an empty line";
  answers.pop_back();
  return answers;
}

TEST(CleanLineTest, DropsControlsCutsCommentsAndTurnsTabsIntoSpaces) {
  EXPECT_EQ(CleanLine("play\tred d4\r"), "play red d4");
  EXPECT_EQ(CleanLine(std::string("na\0me\x07\x7f", 8)), "name");
  EXPECT_EQ(CleanLine("showboard # and a # comment"), "showboard ");
  EXPECT_EQ(CleanLine("# only a comment"), "");
  EXPECT_EQ(CleanLine("\xc3\xa9t\xc3\xa9"),
            "\xc3\xa9t\xc3\xa9");  // bytes >= 0x80 stay
}

TEST(CleanLineTest, SplitsIdNameAndArguments) {
  const CommandLine c = SplitCommandLine("  12  play   red d4 ");
  EXPECT_EQ(c.id, "12");
  EXPECT_EQ(c.name, "play");
  EXPECT_THAT(c.args, ElementsAre("red", "d4"));
  EXPECT_TRUE(IsQuitLine("7 quit"));
  EXPECT_FALSE(IsQuitLine("quitx"));
}

TEST(SessionTest, AnswersEveryCommandOnceWithItsId) {
  const std::string out = RunScript(
      "1 protocol_version\r\n"
      "\n"
      "   \t \n"
      "# a comment line\n"
      "2\tname # trailing comment\n"
      "version\n"
      "33 no_such_command\n"
      "44\n"
      "5 known_command genmove\n"
      "6 known_command frobnicate\n");
  EXPECT_THAT(Answers(out),
              ElementsAre("=1 2", "=2 wallgo", "= 9.9.9", "?33 unknown command",
                          "?44 unknown command", "=5 true", "=6 false"));
}

TEST(SessionTest, ListCommandsNamesExactlyTheKnownCommands) {
  const std::vector<std::string> answers =
      Answers(RunScript("list_commands\n"));
  ASSERT_EQ(answers.size(), 1u);
  std::vector<std::string> names = absl::StrSplit(answers[0].substr(2), '\n');
  EXPECT_EQ(names.size(), GtpSession::CommandNames().size());
  for (const std::string& name : names) {
    EXPECT_TRUE(name.find('-') == std::string::npos ||
                absl::StartsWith(name, "wallgo-"))
        << name << ": extra commands need the wallgo- prefix";
    EXPECT_THAT(RunScript("known_command " + name + "\n"),
                StartsWith("= true"));
  }
  for (const char* required : {"protocol_version",
                               "name",
                               "version",
                               "known_command",
                               "list_commands",
                               "quit",
                               "newgame",
                               "clear_board",
                               "rules",
                               "play",
                               "genmove",
                               "undo",
                               "legal_moves",
                               "setup",
                               "position",
                               "score",
                               "showboard",
                               "set_option",
                               "get_option",
                               "list_options",
                               "time_settings",
                               "time_left",
                               "analyze",
                               "genmove_analyze",
                               "perft"}) {
    EXPECT_THAT(names, ::testing::Contains(required));
  }
}

TEST(SessionTest, QuitEndsTheSessionAndNothingAfterItIsAnswered) {
  EXPECT_THAT(Answers(RunScript("1 name\n2 quit\n3 name\n")),
              ElementsAre("=1 wallgo", "=2"));
}

TEST(SessionTest, IllegalMovesSayWhyAndChangeNothing) {
  const std::vector<std::string> answers =
      Answers(RunScript("position\n"
                        "play blue d4\n"    // red places first
                        "play red b2\n"     // occupied
                        "play red zz9\n"    // not a move
                        "play purple d4\n"  // not a colour
                        "play red\n"        // missing argument
                        "position\n"));
  ASSERT_EQ(answers.size(), 7u);
  EXPECT_THAT(answers[1], StartsWith("? illegal move: d4: "));
  EXPECT_THAT(answers[2], StartsWith("? illegal move: b2: "));
  EXPECT_EQ(answers[3], "? syntax error: not a move: zz9");
  EXPECT_EQ(answers[4], "? syntax error: not a colour: purple");
  EXPECT_EQ(answers[5], "? syntax error: usage: play COLOUR MOVE");
  EXPECT_EQ(answers[6], answers[0]);
}

TEST(SessionTest, GenMoveAnswersTheSearchersMoveAndUndoTakesItBack) {
  const std::vector<std::string> answers = Answers(
      RunScript("position\ngenmove red\nlegal_moves\nundo\nposition\nundo\n"));
  ASSERT_EQ(answers.size(), 6u);
  // The fake answers the last legal move: g7 is the last empty cell.
  EXPECT_EQ(answers[1], "= g7");
  EXPECT_THAT(answers[2], Not(HasSubstr("g7")));
  EXPECT_EQ(answers[3], "=");
  EXPECT_EQ(answers[4], answers[0]);
  EXPECT_EQ(answers[5], "? cannot undo");
}

TEST(SessionTest, ScoreAndRulesOfANewGame) {
  EXPECT_THAT(
      Answers(RunScript("newgame players=3\nrules\nscore\nnewgame players=9\n"
                        "rules\nclear_board\nplayers\n")),
      ElementsAre("=",
                  "= players=3 setup=empty stay=always wall-limit=unlimited "
                  "breakers=1",
                  "= red=0 blue=0 green=0 status=ongoing",
                  StartsWith("? syntax error: "),
                  "= players=3 setup=empty stay=always wall-limit=unlimited "
                  "breakers=1",
                  "=", "? unknown command"));
}

TEST(SessionTest, OptionsAreListedSetAndRangeChecked) {
  auto record = std::make_shared<FakeRecord>();
  const std::vector<std::string> answers = Answers(RunScript(
      "set_option threads 4\nget_option threads\nset_option threads 0\n"
      "set_option threads four\nset_option nope 1\nget_option threads\n"
      "set_option movetime 0.5\nget_option movetime\nlist_options\n"
      "genmove red\n",
      record));
  ASSERT_EQ(answers.size(), 10u);
  EXPECT_EQ(answers[0], "=");
  EXPECT_EQ(answers[1], "= 4");
  EXPECT_EQ(answers[2], "? syntax error: threads must be in 1..256, not 0");
  EXPECT_EQ(answers[3],
            "? syntax error: threads must be an integer, not 'four'");
  EXPECT_EQ(answers[4], "? syntax error: unknown option nope");
  EXPECT_EQ(answers[5], "= 4");
  EXPECT_EQ(answers[7], "= 0.5");
  EXPECT_THAT(answers[8],
              HasSubstr("threads type=int min=1 max=256 default=1 value=4\n"));
  EXPECT_THAT(
      answers[8],
      HasSubstr("movetime type=float min=0 max=86400 default=1 value=0.5\n"));
  for (const char* name : {"visits", "hash", "seed", "level"}) {
    EXPECT_THAT(answers[8], HasSubstr(std::string("\n") + name + " type=int"));
  }
  EXPECT_EQ(record->last_options.threads, 4);
  EXPECT_DOUBLE_EQ(record->last_options.movetime_s, 0.5);
}

TEST(SessionTest, TimeSettingsReachTheSearcher) {
  auto record = std::make_shared<FakeRecord>();
  const std::vector<std::string> answers = Answers(RunScript(
      "time_settings 600 30 5\ntime_left red 12 3\ntime_settings -1 0 0\n"
      "time_left red x 0\ngenmove red\n",
      record));
  EXPECT_THAT(answers, ElementsAre("=", "=", StartsWith("? syntax error"),
                                   StartsWith("? syntax error"), "= g7"));
  EXPECT_TRUE(record->last_limits.clock.in_byo);
  EXPECT_DOUBLE_EQ(record->last_limits.clock.byo_s, 12);
  EXPECT_EQ(record->last_limits.clock.byo_stones_left, 3);
}

// The time plan the engine's searcher makes for the first genmove of
// `script` (run from a new game): the options and clock it was given, fed to
// the real planner, so that the whole chain from the command to the seconds
// is pinned without timing anything.
search::TimePlan FirstMovePlan(const std::string& script) {
  auto record = std::make_shared<FakeRecord>();
  RunScript(script, record);
  EXPECT_EQ(record->searches, 1) << script;
  return search::PlanTime(record->last_options, record->last_limits,
                          Game::New(Rules{}).value().position(), 1.0);
}

// The precedence table of docs/search.md: a clock governs unless the user
// set movetime (then the shorter wins); no clock: movetime, default 1 s.
TEST(TimePrecedenceTest, WithoutAClockTheMoveTakesTheDefaultSecond) {
  const search::TimePlan plan = FirstMovePlan("genmove red\n");
  EXPECT_DOUBLE_EQ(plan.soft_s, 0.97);
  EXPECT_DOUBLE_EQ(plan.hard_s, 0.97);
}

TEST(TimePrecedenceTest, AClockIsNotCappedByTheDefaultMoveTime) {
  const search::TimePlan main_time =
      FirstMovePlan("time_settings 60 0 0\ntime_left red 60 0\ngenmove red\n");
  EXPECT_GT(main_time.soft_s, 1.5);  // 60 s over the turns left
  EXPECT_TRUE(main_time.flexible);
  EXPECT_GT(main_time.hard_s, main_time.soft_s);
  // The referee's --movetime 8: one stone per 8-second byo-yomi period,
  // as `movetime 8`.
  const search::TimePlan byo_yomi =
      FirstMovePlan("time_settings 0 8 1\ngenmove red\n");
  EXPECT_NEAR(byo_yomi.soft_s, 8 - 0.03, 1e-9);
}

TEST(TimePrecedenceTest, AMoveTimeTheUserSetCapsTheClock) {
  // Set explicitly to the default's value: still the user's choice.
  const search::TimePlan capped = FirstMovePlan(
      "set_option movetime 1\ntime_settings 0 8 1\ngenmove red\n");
  EXPECT_DOUBLE_EQ(capped.soft_s, 0.97);
  EXPECT_DOUBLE_EQ(capped.hard_s, 0.97);
  // Longer than the clock allows: the clock still wins.
  const search::TimePlan clock = FirstMovePlan(
      "set_option movetime 30\ntime_settings 0 8 1\ngenmove red\n");
  EXPECT_NEAR(clock.soft_s, 8 - 0.03, 1e-9);
  // movetime 0 set by the user: no fixed move time, the clock governs.
  const search::TimePlan none = FirstMovePlan(
      "set_option movetime 0\ntime_settings 0 8 1\ngenmove red\n");
  EXPECT_NEAR(none.soft_s, 8 - 0.03, 1e-9);
}

TEST(TimePrecedenceTest, WithoutAClockTheUsersMoveTimeRules) {
  const search::TimePlan plan =
      FirstMovePlan("set_option movetime 3\ngenmove red\n");
  EXPECT_DOUBLE_EQ(plan.soft_s, 2.97);
  EXPECT_FALSE(plan.flexible);
  // A clock switched off again (time_settings 0 0 0): back to the move time.
  const search::TimePlan off = FirstMovePlan(
      "set_option movetime 3\ntime_settings 0 8 1\ntime_settings 0 0 0\n"
      "genmove red\n");
  EXPECT_DOUBLE_EQ(off.soft_s, 2.97);
}

TEST(TimePrecedenceTest, OnlySettingMoveTimeMarksItAsTheUsers) {
  EXPECT_FALSE(DefaultOptions().movetime_set);
  search::SearchOptions options = DefaultOptions();
  ASSERT_TRUE(
      SetOptionFromText(options, *FindOption("threads"), "2").ok());
  EXPECT_FALSE(options.movetime_set);
  ASSERT_FALSE(
      SetOptionFromText(options, *FindOption("movetime"), "-1").ok());
  EXPECT_FALSE(options.movetime_set);  // a refused value changes nothing
  ASSERT_TRUE(
      SetOptionFromText(options, *FindOption("movetime"), "1").ok());
  EXPECT_TRUE(options.movetime_set);
}

TEST(SessionTest, AnalyzeStreamsInfoUntilTheNextLineWhichIsThenHandled) {
  const std::vector<std::string> answers =
      Answers(RunTyped({"5 analyze 1\n", "6 name\n"}, absl::Milliseconds(300)));
  ASSERT_EQ(answers.size(), 2u);
  std::vector<std::string> lines = absl::StrSplit(answers[0], '\n');
  EXPECT_EQ(lines[0], "=5");
  // Every 10 ms for 300 ms: more than one report of two candidates.
  ASSERT_GE(lines.size(), 5u);
  for (size_t i = 1; i < lines.size(); ++i) {
    EXPECT_THAT(lines[i],
                MatchesRegex(
                    "info move [a-g][1-7] visits [0-9]+ winrate "
                    "0\\.[0-9]{4} score -?[0-9]+\\.[0-9]{2} pv( [a-g][1-7])+"));
  }
  EXPECT_THAT(lines[1], StartsWith("info move g7 visits "));  // best first
  EXPECT_EQ(answers[1], "=6 wallgo");
}

TEST(SessionTest, AnalyzeEndsAtTheEndOfInput) {
  const std::vector<std::string> answers =
      Answers(RunTyped({"analyze\n"}, absl::Milliseconds(100)));
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_THAT(answers[0], StartsWith("=\ninfo move g7 "));
}

TEST(SessionTest, AnalyzeWithTheNextCommandAlreadyWaitingEndsAtOnce) {
  const std::vector<std::string> answers =
      Answers(RunScript("analyze\nname\n"));
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_THAT(answers[0], StartsWith("="));
  EXPECT_EQ(answers[1], "= wallgo");
}

TEST(SessionTest, GenMoveAnalyzeStreamsInfoAndEndsWithPlay) {
  const std::vector<std::string> answers = Answers(
      RunScript("genmove_analyze blue\n3 genmove_analyze red 10\nposition\n"));
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0], "? illegal move: it is red's turn, not blue's");
  std::vector<std::string> lines = absl::StrSplit(answers[1], '\n');
  EXPECT_EQ(lines.front(), "=3");
  EXPECT_THAT(lines[1], StartsWith("info move g7 visits 30 "));
  EXPECT_EQ(lines.back(), "play g7");
  EXPECT_THAT(answers[2], HasSubstr("red=b2,f6,g7 "));
}

TEST(SessionTest, QuitAndEndOfInputStopAThinkingGenMovePromptly) {
  for (const char* ending : {"quit\n", ""}) {
    // visits=0 and movetime=0: the fake thinks until it is stopped.
    const absl::Time start = absl::Now();
    const std::vector<std::string> answers = Answers(
        RunScript(std::string("set_option visits 0\nset_option movetime 0\n"
                              "genmove red\n") +
                  ending));
    EXPECT_LT(absl::Now() - start, absl::Seconds(5));
    EXPECT_EQ(answers.size(), *ending ? 4u : 3u);
    EXPECT_EQ(answers[2], "= g7");
  }
}

TEST(SessionTest, PerftCountsAndDivideSumsToTheCount) {
  const std::vector<std::string> answers = Answers(
      RunScript("perft 0\nperft 2\nwallgo-divide 2\nperft 6\nperft -1\n"));
  ASSERT_EQ(answers.size(), 5u);
  EXPECT_EQ(answers[0], "= 1");
  // Two placements on the 45 empty cells of the start: 45 * 44.
  EXPECT_EQ(answers[1], "= 1980");
  std::vector<std::string> lines = absl::StrSplit(answers[2].substr(2), '\n');
  EXPECT_EQ(lines.size(), 46u);
  EXPECT_EQ(lines.back(), "total 1980");
  EXPECT_EQ(lines.front(), "a1 44");
  EXPECT_THAT(answers[3], StartsWith("? syntax error: depth must be"));
  EXPECT_THAT(answers[4], StartsWith("? syntax error: depth must be"));
}

TEST(SessionTest, SetupRejectsImpossiblePositionsAndChangesNothing) {
  const std::vector<std::string> answers = Answers(RunScript(
      "play red d4\nposition\n"
      "setup players=2 turn=red red=b2,b2 blue=b6,f2\n"
      "setup players=2 turn=red red=b2,f6,c3 blue=b6,f2 red-walls=g7n\n"
      "setup bogus=1\n"
      "position\n"));
  ASSERT_EQ(answers.size(), 6u);
  for (int i : {2, 3, 4}) {
    EXPECT_THAT(answers[i], StartsWith("? invalid position: ")) << i;
  }
  EXPECT_EQ(answers[5], answers[1]);
}

// Plays a random game of `rules` through the protocol's text, checking at
// every position that `setup` of the `position` answer gives it back.
void CheckRoundTripAlongARandomGame(const Rules& rules, uint32_t seed) {
  std::mt19937 random(seed);
  absl::StatusOr<Game> game = Game::New(rules);
  ASSERT_TRUE(game.ok());
  std::string script;
  std::vector<std::string> expected;
  while (!game->is_over()) {
    const std::string text = PositionString(game->position());
    absl::StrAppend(&script, "setup ", text, "\nposition\n");
    expected.push_back("=");
    expected.push_back("= " + text);
    MoveList moves;
    GenerateMoves(game->position(), moves);
    const Move move = moves[random() % moves.size()];
    ASSERT_TRUE(game->Play(game->position().to_move(), move).ok());
  }
  EXPECT_EQ(Answers(RunScript(script)), expected) << RulesString(rules);
}

TEST(SessionTest, SetupOfThePositionAnswerGivesTheSamePosition) {
  std::vector<Rules> variants;
  for (int players : {2, 3, 4}) {
    for (StayRule stay : {StayRule::kAlways, StayRule::kMobile}) {
      for (int wall_limit : {kUnlimitedWalls, 5}) {
        Rules rules = Rules::Default(players);
        rules.stay = stay;
        rules.wall_limit = wall_limit;
        variants.push_back(rules);
        if (players == 2) {
          rules.setup = SetupRule::kEmpty;
        } else {
          rules.breakers = 0;
        }
        variants.push_back(rules);
      }
    }
  }
  uint32_t seed = 1;
  for (const Rules& rules : variants) {
    for (int game = 0; game < 3; ++game) {
      CheckRoundTripAlongARandomGame(rules, seed++);
    }
  }
}

}  // namespace
}  // namespace wallgo::protocol
