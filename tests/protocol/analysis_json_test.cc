// The analysis engine's text-free core: query lines to typed queries (every
// field, every kind of mistake) and typed results to answer lines.
#include "protocol/analysis_json.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace wallgo::protocol {
namespace {

using Json = nlohmann::json;

// Walls north of row 3 except at d3; red (above) closes d3n from d4 and wins
// 28-21.
constexpr char kRedClosesAndWins[] =
    "players=2 setup=empty turn=red red=c5,e5,b6,f6 blue=b2,f2,c1,e1 "
    "red-walls=a3n,b3n,c3n blue-walls=e3n,f3n,g3n";

AnalysisQuery MustParse(const std::string& line) {
  ParsedLine parsed = ParseQueryLine(line);
  const auto* query = std::get_if<AnalysisQuery>(&parsed.request);
  if (query == nullptr) {
    ADD_FAILURE() << line << " -> "
                  << ErrorJson(std::get<QueryError>(parsed.request));
    return AnalysisQuery{};
  }
  return *query;
}

QueryError MustFail(const std::string& line) {
  ParsedLine parsed = ParseQueryLine(line);
  const auto* error = std::get_if<QueryError>(&parsed.request);
  if (error == nullptr) {
    ADD_FAILURE() << line << " was accepted";
    return {};
  }
  EXPECT_TRUE(parsed.warnings.empty()) << "one answer per bad line";
  return *error;
}

TEST(AnalysisQueryTest, EveryFieldIsReadAndWrittenBack) {
  const std::string line =
      R"({"id":"q7","rules":"players=2 setup=empty","moves":["d4","c3","e5"],)"
      R"("analyzeTurns":[3,0,2],"maxVisits":1234,"maxTime":2.5,)"
      R"("includeOwnership":true,"includePolicy":true,)"
      R"("overrideOptions":{"seed":42,"level":"7","eval":"hybrid"},)"
      R"("priority":-3})";
  const AnalysisQuery q = MustParse(line);
  EXPECT_EQ(q.id, "q7");
  EXPECT_FALSE(q.from_position);
  EXPECT_EQ(q.rules.setup, SetupRule::kEmpty);
  ASSERT_EQ(q.moves.size(), 3u);
  EXPECT_EQ(MoveName(q.moves[2]), "e5");
  EXPECT_EQ(q.analyze_turns, (std::vector<int>{3, 0, 2}));
  EXPECT_EQ(q.max_visits, 1234);
  EXPECT_EQ(q.max_time_s, 2.5);
  EXPECT_TRUE(q.include_ownership);
  EXPECT_TRUE(q.include_policy);
  ASSERT_EQ(q.overrides.size(), 3u);
  EXPECT_EQ(q.overrides[0],
            (std::pair<std::string, std::string>("seed", "42")));
  EXPECT_EQ(q.overrides[1],
            (std::pair<std::string, std::string>("level", "7")));
  EXPECT_EQ(q.overrides[2],
            (std::pair<std::string, std::string>("eval", "hybrid")));
  EXPECT_EQ(q.priority, -3);
  EXPECT_EQ(PositionString(q.PositionAt(0)), PositionString(q.start));
  EXPECT_EQ(q.PositionAt(3).to_move(), Colour::kRed);  // red, blue, blue, red

  // Written back and read again: the same query, the same text.
  const std::string written = QueryToJson(q);
  const AnalysisQuery again = MustParse(written);
  EXPECT_EQ(QueryToJson(again), written);
  EXPECT_EQ(again.rules, q.rules);
  EXPECT_EQ(again.moves, q.moves);
  EXPECT_EQ(again.analyze_turns, q.analyze_turns);
  EXPECT_EQ(again.max_visits, q.max_visits);
  EXPECT_EQ(again.max_time_s, q.max_time_s);
  EXPECT_EQ(again.overrides, q.overrides);
  EXPECT_EQ(again.priority, q.priority);
}

TEST(AnalysisQueryTest, APositionStartRoundTrips) {
  const AnalysisQuery q =
      MustParse(absl::StrCat(R"({"id":"p","position":")", kRedClosesAndWins,
                             R"(","moves":["c5d4s"]})"));
  EXPECT_TRUE(q.from_position);
  EXPECT_EQ(PositionString(q.start),
            PositionString(*ParsePosition(kRedClosesAndWins)));
  EXPECT_EQ(q.analyze_turns, std::vector<int>{1});  // the last by default
  EXPECT_FALSE(q.max_visits.has_value());
  const AnalysisQuery again = MustParse(QueryToJson(q));
  EXPECT_EQ(PositionString(again.start), PositionString(q.start));
  EXPECT_EQ(again.moves, q.moves);
  EXPECT_TRUE(IsGameOver(again.PositionAt(1)));
}

TEST(AnalysisQueryTest, DefaultsAreTheStartOfTheDefaultRules) {
  const AnalysisQuery q = MustParse(R"({"id":"d"})");
  EXPECT_EQ(q.rules, Rules{});
  EXPECT_TRUE(q.moves.empty());
  EXPECT_EQ(q.analyze_turns, std::vector<int>{0});
  EXPECT_FALSE(q.include_ownership);
  EXPECT_EQ(q.priority, 0);
}

TEST(AnalysisQueryTest, EachBadFieldIsNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"id":5})", "id"},
      {R"({"moves":[]})", "id"},
      {R"({"id":"x","rules":"players=9"})", "rules"},
      {R"({"id":"x","rules":7})", "rules"},
      {R"({"id":"x","position":"players=2 red=a1,a1"})", "position"},
      {R"({"id":"x","rules":"","position":"x"})", "position"},
      {R"({"id":"x","moves":"d4"})", "moves"},
      {R"({"id":"x","moves":["d4",3]})", "moves"},
      {R"({"id":"x","moves":["zz9"]})", "moves"},
      {R"({"id":"x","moves":["resign"]})", "moves"},
      {R"({"id":"x","moves":["d4"],"analyzeTurns":[2]})", "analyzeTurns"},
      {R"({"id":"x","analyzeTurns":[0,0]})", "analyzeTurns"},
      {R"({"id":"x","analyzeTurns":[]})", "analyzeTurns"},
      {R"({"id":"x","analyzeTurns":0})", "analyzeTurns"},
      {R"({"id":"x","maxVisits":0})", "maxVisits"},
      {R"({"id":"x","maxVisits":"100"})", "maxVisits"},
      {R"({"id":"x","maxVisits":10.5})", "maxVisits"},
      {R"({"id":"x","maxTime":0})", "maxTime"},
      {R"({"id":"x","maxTime":"1"})", "maxTime"},
      {R"({"id":"x","includeOwnership":1})", "includeOwnership"},
      {R"({"id":"x","includePolicy":"yes"})", "includePolicy"},
      {R"({"id":"x","overrideOptions":[]})", "overrideOptions"},
      {R"({"id":"x","overrideOptions":{"level":99}})", "overrideOptions.level"},
      {R"({"id":"x","overrideOptions":{"seed":[1]}})", "overrideOptions.seed"},
      {R"({"id":"x","overrideOptions":{"eval":"deep"}})",
       "overrideOptions.eval"},
      {R"({"id":"x","overrideOptions":{"hash":64}})", "overrideOptions.hash"},
      {R"({"id":"x","overrideOptions":{"threads":2}})",
       "overrideOptions.threads"},
      {R"({"id":"x","priority":1.5})", "priority"},
      {R"({"id":"x","priority":1e12})", "priority"},
      {R"({"id":"x","action":"explode"})", "action"},
      {R"({"id":"x","action":3})", "action"},
      {R"({"id":"x","action":"terminate"})", "terminateId"},
  };
  for (const auto& [line, field] : cases) {
    const QueryError e = MustFail(line);
    EXPECT_EQ(e.field, field) << line << ": " << e.message;
    EXPECT_FALSE(e.message.empty());
    if (field != "id") {
      EXPECT_EQ(e.id, "x") << line;
    }
  }
}

TEST(AnalysisQueryTest, AnIllegalMoveIsReportedWithItsTurn) {
  // A legal game of placements, then the same cell again at each turn.
  const std::vector<std::string> moves = {"c4", "e4", "c2", "e6"};
  for (size_t bad = 0; bad < moves.size(); ++bad) {
    std::string list;
    for (size_t i = 0; i <= bad; ++i) {
      const std::string m = i == bad ? "b2" : moves[i];  // b2: a red stone
      absl::StrAppend(&list, i ? "," : "", "\"", m, "\"");
    }
    const QueryError e =
        MustFail(absl::StrCat(R"({"id":"t","moves":[)", list, "]}"));
    EXPECT_EQ(e.field, "moves");
    EXPECT_NE(e.message.find(absl::StrCat("move ", bad + 1, ":")),
              std::string::npos)
        << e.message;
  }
}

TEST(AnalysisQueryTest, GarbageAndHugeLinesGetAnErrorWithoutAnId) {
  for (const std::string& line :
       {std::string("not json"), std::string("[1,2]"), std::string("\"s\""),
        std::string("{\"id\":\"x\""), std::string("\xff\xfe{}", 4),
        std::string(kMaxQueryLineBytes + 1, '{')}) {
    const QueryError e = MustFail(line);
    EXPECT_FALSE(e.id.has_value());
    const Json answer = Json::parse(ErrorJson(e));  // valid JSON whatever came
    EXPECT_TRUE(answer["id"].is_null());
    EXPECT_FALSE(answer["error"].get<std::string>().empty());
  }
}

TEST(AnalysisQueryTest, UnknownFieldsAndOptionsAreWarnings) {
  const ParsedLine parsed = ParseQueryLine(
      R"({"id":"w","maxVisitz":5,"overrideOptions":{"colour":"red"}})");
  ASSERT_TRUE(std::holds_alternative<AnalysisQuery>(parsed.request));
  ASSERT_EQ(parsed.warnings.size(), 2u);
  EXPECT_EQ(parsed.warnings[0].field, "overrideOptions.colour");
  EXPECT_EQ(parsed.warnings[1].field, "maxVisitz");
  const Json w = Json::parse(WarningJson(parsed.warnings[1]));
  EXPECT_EQ(w["id"], "w");
  EXPECT_TRUE(w.contains("warning"));
}

TEST(AnalysisQueryTest, ActionsAreRead) {
  const ParsedLine t =
      ParseQueryLine(R"({"id":"k","action":"terminate","terminateId":"q1"})");
  const auto* terminate = std::get_if<TerminateAction>(&t.request);
  ASSERT_NE(terminate, nullptr);
  EXPECT_EQ(terminate->terminate_id, "q1");
  EXPECT_EQ(Json::parse(TerminateJson(*terminate))["terminateId"], "q1");
  const ParsedLine v = ParseQueryLine(R"({"id":"v","action":"query_version"})");
  const auto* version = std::get_if<VersionAction>(&v.request);
  ASSERT_NE(version, nullptr);
  EXPECT_EQ(Json::parse(VersionJson(*version, "9.9"))["version"], "9.9");
}

TEST(AnalysisQueryTest, QueryLimitsReplaceTheDefaults) {
  search::SearchOptions defaults;
  defaults.visits = 0;
  defaults.movetime_s = 1;
  defaults.seed = 1;
  const search::SearchOptions plain =
      QueryOptions(MustParse(R"({"id":"a"})"), defaults);
  EXPECT_EQ(plain.movetime_s, 1);
  EXPECT_EQ(plain.visits, 0);
  const search::SearchOptions visits = QueryOptions(
      MustParse(R"({"id":"a","maxVisits":500,"overrideOptions":{"seed":9}})"),
      defaults);
  EXPECT_EQ(visits.visits, 500);
  EXPECT_EQ(visits.movetime_s, 0);  // the query's limit alone
  EXPECT_EQ(visits.seed, 9u);
  const search::SearchOptions time =
      QueryOptions(MustParse(R"({"id":"a","maxTime":0.25})"), defaults);
  EXPECT_EQ(time.visits, 0);
  EXPECT_EQ(time.movetime_s, 0.25);
}

TEST(AnalysisAnswerTest, AFinishedGameIsAnsweredExactly) {
  Position pos = *ParsePosition(kRedClosesAndWins);
  pos.Play(*ParseMove("c5d4s"));
  ASSERT_TRUE(IsGameOver(pos));
  TurnAnswer a;
  a.id = "f";
  a.turn = 1;
  a.position = pos;
  a.include_ownership = true;
  a.game_over = true;
  a.info = FinishedGameInfo(pos, true);
  const Json j = Json::parse(AnswerJson(a));
  EXPECT_EQ(j["turnNumber"], 1);
  EXPECT_TRUE(j["moveInfos"].empty());
  const Json& root = j["rootInfo"];
  EXPECT_EQ(root["currentPlayer"], "blue");
  EXPECT_EQ(root["winrate"], 0.0);
  EXPECT_EQ(root["scoreMargin"], -7.0);
  EXPECT_EQ(root["solved"], true);
  EXPECT_EQ(root["exact"], true);
  EXPECT_EQ(root["result"], "loss");
  EXPECT_EQ(root["gameOver"], true);
  // Every cell wholly its final owner's: red above row 3, blue below.
  const Json& own = j["ownership"];
  for (int cell = 0; cell < kNumCells; ++cell) {
    const bool red = RowOf(cell) >= 3;
    EXPECT_EQ(own["red"][cell], red ? 1.0 : 0.0) << CellName(cell);
    EXPECT_EQ(own["blue"][cell], red ? 0.0 : 1.0) << CellName(cell);
    EXPECT_EQ(own["none"][cell], 0.0);
  }
}

TEST(AnalysisAnswerTest, CandidatesBecomeMoveInfosInOrder) {
  const Position pos = *ParsePosition(kRedClosesAndWins);
  TurnAnswer a;
  a.id = "m";
  a.position = pos;
  a.include_policy = true;
  const Move m1 = *ParseMove("c5d4s"), m2 = *ParseMove("c5c4e");
  const search::Candidate best{m1, 90, 1.0, 7.0, {m1}, 0.6};
  const search::Candidate other{
      m2, 10, 0.31234567, -2.5, {m2, *ParseMove("b2b3n")}, 0.1};
  a.info.candidates = {best, other};
  a.info.total_visits = 100;
  a.info.root_winrate = 0.9;
  const Json j = Json::parse(AnswerJson(a));
  ASSERT_EQ(j["moveInfos"].size(), 2u);
  const Json& second = j["moveInfos"][1];
  EXPECT_EQ(second["move"], "c5c4e");
  EXPECT_EQ(second["order"], 1);
  EXPECT_EQ(second["visits"], 10);
  EXPECT_EQ(second["winrate"], 0.3123);
  EXPECT_EQ(second["scoreMargin"], -2.5);
  EXPECT_EQ(second["prior"], 0.1);
  EXPECT_EQ(second["pv"], Json::array({"c5c4e", "b2b3n"}));
  EXPECT_EQ(j["rootInfo"]["visits"], 100);
  EXPECT_EQ(j["rootInfo"]["solved"], false);
  EXPECT_FALSE(j["rootInfo"].contains("result"));
  EXPECT_EQ(j["policy"]["c5d4s"], 0.6);
  EXPECT_FALSE(j.contains("ownership"));  // not asked
}

}  // namespace
}  // namespace wallgo::protocol
