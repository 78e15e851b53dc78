// `wallgo analysis` as a script meets it: the real binary fed through a
// pipe. 10,000 hostile lines each get exactly one error and the process goes
// on serving; solved and finished positions are answered exactly; terminate
// stops a long search; a seeded query answers the same twice. Also the
// protocol's ownership line.
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/protocol/run_binary.h"

namespace wallgo::protocol::testing {
namespace {

using Json = nlohmann::json;

constexpr char kRedClosesAndWins[] =
    "players=2 setup=empty turn=red red=c5,e5,b6,f6 blue=b2,f2,c1,e1 "
    "red-walls=a3n,b3n,c3n blue-walls=e3n,f3n,g3n";

std::vector<Json> AnswerLines(const std::string& out) {
  std::vector<Json> answers;
  for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    answers.push_back(Json::parse(line));  // throws (fails) on a bad line
  }
  return answers;
}

RunResult Analyse(const std::string& args, const std::string& input) {
  return RunWallgoPiped("analysis " + args, {{"in", input}}, "cat $D/in");
}

// The hostile lines of one kind each; `id` is set for those whose id the
// engine can read.
struct Hostile {
  std::string line;
  std::string id;  // "" = expect "id": null
};

class HostileLines {
 public:
  explicit HostileLines(uint32_t seed) : random_(seed) { PlayAGame(); }

  std::vector<Hostile> Make(int count) {
    std::vector<Hostile> lines;
    for (int n = 0; n < count; ++n) {
      const std::string id = absl::StrCat("h", n);
      switch (Below(8)) {
        case 0:
          lines.push_back({Garbage(), ""});
          break;
        case 1:
          lines.push_back({NotAnObject(), ""});
          break;
        case 2:
          lines.push_back(Huge(id));
          break;
        case 3:
          lines.push_back({WrongType(id), id});
          break;
        case 4:
        case 5:
          lines.push_back({IllegalMoveAt(Below(moves_.size()), id), id});
          break;
        case 6:
          lines.push_back({BadStart(id), id});
          break;
        default:
          lines.push_back({BadUtf8OrNesting(), ""});
          break;
      }
    }
    return lines;
  }

 private:
  int Below(size_t n) { return static_cast<int>(random_() % n); }

  // A legal game of random moves, to break at any turn.
  void PlayAGame() {
    Game game = Game::New(Rules{}).value();
    while (!game.is_over() && moves_.size() < 60) {
      MoveList legal;
      GenerateMoves(game.position(), legal);
      const Move m = legal[Below(legal.size())];
      positions_.push_back(game.position());
      moves_.push_back(MoveName(m));
      ASSERT_TRUE(game.Play(game.position().to_move(), m).ok());
    }
  }

  std::string Garbage() {
    std::string text = "~";
    const int size = 1 + Below(300);
    for (int i = 0; i < size; ++i) {
      char c = static_cast<char>(1 + Below(255));
      text += c == '\n' ? '?' : c;
    }
    return text;
  }

  std::string NotAnObject() {
    static const char* kTexts[] = {"[1,2,3]", "\"id\"",        "42",
                                   "null",    "true",          "{\"id\":\"x\"",
                                   "{}}",     "{\"id\" \"x\"}"};
    return kTexts[Below(std::size(kTexts))];
  }

  // Over the limit (no id read), or just under it with a bad field.
  Hostile Huge(const std::string& id) {
    if (++huge_ > 8) return {Garbage(), ""};  // eight megabytes are enough
    if (huge_ % 2 == 1) return {std::string((1 << 20) + 10, '{'), ""};
    return {absl::StrCat(R"({"id":")", id, R"(","rules":")",
                         std::string(1000000, 'x'), R"("})"),
            id};
  }

  std::string WrongType(const std::string& id) {
    static const char* kFields[] = {
        R"("moves":"d4")",        R"("moves":[1])",
        R"("maxVisits":"9")",     R"("maxVisits":-4)",
        R"("maxTime":[])",        R"("includeOwnership":"yes")",
        R"("includePolicy":0)",   R"("analyzeTurns":{"a":1})",
        R"("analyzeTurns":[99])", R"("priority":"high")",
        R"("overrideOptions":5)", R"("overrideOptions":{"level":0})",
        R"("rules":false)",       R"("position":12)",
        R"("action":"dance")",    R"("action":"terminate")"};
    return absl::StrCat(R"({"id":")", id, R"(",)",
                        kFields[Below(std::size(kFields))], "}");
  }

  // The game's moves up to `turn`, whose move is replaced by an illegal one.
  std::string IllegalMoveAt(int turn, const std::string& id) {
    std::vector<std::string> moves(moves_.begin(), moves_.begin() + turn);
    const Position& pos = positions_[turn];
    for (const char* token : {"pass", "b2", "a1a1n", "g7g7e", "d4d4s"}) {
      const Move m = *ParseMove(token);
      if (!CheckMove(pos, pos.to_move(), m).ok()) {
        moves.push_back(token);
        break;
      }
    }
    std::vector<std::string> quoted;
    for (const std::string& m : moves) quoted.push_back("\"" + m + "\"");
    return absl::StrCat(R"({"id":")", id, R"(","moves":[)",
                        absl::StrJoin(quoted, ","), "]}");
  }

  std::string BadStart(const std::string& id) {
    static const char* kStarts[] = {
        R"("position":"players=2 red=a1,a1")", R"("position":"turn=purple")",
        R"("rules":"players=5")", R"("rules":"wall-limit=-3")",
        R"("rules":"players=2","position":"players=2")"};
    return absl::StrCat(R"({"id":")", id, R"(",)",
                        kStarts[Below(std::size(kStarts))], "}");
  }

  std::string BadUtf8OrNesting() {
    if (Below(4) == 0) return std::string(5000, '[') + std::string(5000, ']');
    return "{\"id\":\"\xc3\x28\",\"maxVisits\":5}";  // invalid UTF-8
  }

  std::mt19937 random_;
  std::vector<std::string> moves_;
  std::vector<Position> positions_;
  int huge_ = 0;
};

TEST(AnalysisBinaryTest, EveryHostileLineGetsOneErrorAndServingGoesOn) {
  const std::vector<Hostile> hostile = HostileLines(2026).Make(10000);
  std::string input;
  std::map<std::string, int> expected_ids;
  int expected_null = 0;
  for (const Hostile& h : hostile) {
    absl::StrAppend(&input, h.line, "\n");
    if (h.id.empty()) {
      ++expected_null;
    } else {
      ++expected_ids[h.id];
    }
  }
  for (int i = 0; i < 3; ++i) {
    absl::StrAppend(&input, R"({"id":"ok)", i, R"(","maxVisits":20})", "\n");
  }
  absl::StrAppend(&input, R"({"id":"v","action":"query_version"})", "\n");

  const RunResult run = Analyse("--hash 16", input);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<Json> answers = AnswerLines(run.out);
  ASSERT_EQ(answers.size(), hostile.size() + 4);
  int nulls = 0, served = 0;
  std::map<std::string, int> error_ids;
  for (const Json& a : answers) {
    if (a.contains("error")) {
      ASSERT_TRUE(a.contains("field"));
      if (a["id"].is_null()) {
        ++nulls;
      } else {
        ++error_ids[a["id"].get<std::string>()];
      }
    } else if (a.contains("moveInfos")) {
      EXPECT_FALSE(a["moveInfos"].empty());
      ++served;
    } else {
      EXPECT_EQ(a["action"], "query_version");
    }
  }
  EXPECT_EQ(nulls, expected_null);
  EXPECT_EQ(error_ids, expected_ids);  // each id'd line: exactly one error
  EXPECT_EQ(served, 3);
}

TEST(AnalysisBinaryTest, SolvedAndFinishedPositionsAreAnsweredExactly) {
  const RunResult run = Analyse(
      "--hash 16",
      absl::StrCat(R"({"id":"s","position":")", kRedClosesAndWins,
                   R"(","moves":["c5d4s"],"analyzeTurns":[0,1],)",
                   R"("maxVisits":3000,"includeOwnership":true})", "\n"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<Json> answers = AnswerLines(run.out);
  ASSERT_EQ(answers.size(), 2u);
  for (const Json& a : answers) {
    const Json& root = a["rootInfo"];
    EXPECT_EQ(root["solved"], true);
    if (a["turnNumber"] == 0) {
      EXPECT_EQ(root["currentPlayer"], "red");
      EXPECT_EQ(root["result"], "win");
      EXPECT_EQ(root["winrate"], 1.0);
      // Either stone next to d4 closes the board there for the same 7.
      const std::string best = a["moveInfos"][0]["move"];
      EXPECT_TRUE(best == "c5d4s" || best == "e5d4s") << best;
      EXPECT_EQ(a["moveInfos"][0]["scoreMargin"], 7.0);
    } else {
      EXPECT_EQ(root["gameOver"], true);
      EXPECT_EQ(root["exact"], true);
      EXPECT_EQ(root["result"], "loss");
      EXPECT_EQ(root["scoreMargin"], -7.0);
    }
    // Rows 4-7 end red's, rows 1-3 blue's: exact when finished, and already
    // so in the playouts of the solved turn (every leaf is the win).
    for (int cell = 0; cell < kNumCells; ++cell) {
      const double red = a["ownership"]["red"][cell];
      const double blue = a["ownership"]["blue"][cell];
      const double none = a["ownership"]["none"][cell];
      EXPECT_NEAR(red + blue + none, 1.0, 0.003);
      if (a["turnNumber"] == 1) {
        EXPECT_EQ(red, RowOf(cell) >= 3 ? 1.0 : 0.0) << CellName(cell);
      }
    }
  }
}

TEST(AnalysisBinaryTest, TheSameSeededQueryGivesTheSameAnswer) {
  const std::string query = absl::StrCat(
      R"({"id":"same","moves":["c4","e4","c2","e6"],"maxVisits":400,)",
      R"("includeOwnership":true,"includePolicy":true,)",
      R"("overrideOptions":{"seed":7}})", "\n");
  const RunResult run =
      Analyse("--analysis-threads 2 --search-threads 1", query + query + query);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> lines =
      absl::StrSplit(run.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], lines[1]);
  EXPECT_EQ(lines[1], lines[2]);
  EXPECT_EQ(Json::parse(lines[0])["rootInfo"]["visits"], 400);
}

TEST(AnalysisBinaryTest, TerminateStopsALongSearch) {
  const RunResult run = RunWallgoPiped(
      "analysis",
      {{"q", R"({"id":"long","maxVisits":1000000000})"
             "\n"},
       {"t", R"({"id":"t","action":"terminate","terminateId":"long"})"
             "\n"}},
      "cat $D/q; sleep 1; cat $D/t");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<Json> answers = AnswerLines(run.out);
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0]["action"], "terminate");
  EXPECT_EQ(answers[1]["id"], "long");
  EXPECT_EQ(answers[1]["terminated"], true);
  EXPECT_GT(answers[1]["rootInfo"]["visits"].get<int64_t>(), 0);
  EXPECT_LT(answers[1]["rootInfo"]["visits"].get<int64_t>(), 1000000000);
}

TEST(AnalysisBinaryTest, BadAnalysisFlagsAreUsageErrors) {
  EXPECT_EQ(RunWallgo("analysis --analysis-threads 0", "").exit_code, 2);
  EXPECT_EQ(RunWallgo("--search-threads 2", "").exit_code, 2);
  EXPECT_EQ(RunWallgo("analysis extra", "").exit_code, 2);
}

TEST(OwnershipLineTest, GenmoveAnalyzeAddsAnOwnershipLineWhenAsked) {
  const RunResult run = RunWallgo("--visits 300 --movetime 0",
                                  "genmove_analyze red 100000 ownership\nundo\n"
                                  "genmove_analyze red 100000\n");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> ownership;
  for (absl::string_view line : absl::StrSplit(run.out, '\n')) {
    if (absl::StartsWith(line, "ownership ")) ownership.emplace_back(line);
  }
  ASSERT_EQ(ownership.size(), 1u) << run.out;  // only where asked
  const std::vector<std::string> words = absl::StrSplit(ownership[0], ' ');
  ASSERT_EQ(words.size(), 1u + 2 * 50);  // "ownership", then colour + 49
  EXPECT_EQ(words[1], "red");
  EXPECT_EQ(words[51], "blue");
  for (int cell = 0; cell < kNumCells; ++cell) {
    const double red = std::stod(words[2 + cell]);
    const double blue = std::stod(words[52 + cell]);
    EXPECT_GE(red, 0);
    EXPECT_GE(blue, 0);
    EXPECT_LE(red + blue, 1.002);
  }
}

}  // namespace
}  // namespace wallgo::protocol::testing
