// The GUI's bridge without a browser: the game model, the messages from the
// page (a bad one gets a clear error and changes nothing), engines that play,
// analyse, crash, hang or answer garbage (the mock engine), and the command
// line.
#include "tools/gui/bridge.h"

#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tools/gui/cli.h"
#include "tools/gui/engine_worker.h"
#include "tools/gui/gui_game.h"
#include "tools/gui/lobby.h"
#include "tools/records/records.h"

namespace wallgo::gui {
namespace {

using nlohmann::json;

Position Start(const std::string& rules = "") {
  return *Position::Start(*ParseRules(rules));
}

Move M(const std::string& token) { return *ParseMove(token); }

TEST(GuiGameTest, PlayUndoGotoAndContinueFromAnEarlierPly) {
  GuiGame game(Start());
  for (const char* token : {"d4", "c3", "e5", "a1", "b2b3n"}) {
    ASSERT_TRUE(game.Play(M(token)).ok()) << token;
  }
  EXPECT_EQ(game.moves().size(), 5u);
  EXPECT_EQ(game.moves()[1].colour, Colour::kBlue);
  EXPECT_FALSE(game.Play(M("b2b3n")).ok());  // changes nothing
  EXPECT_EQ(game.moves().size(), 5u);
  ASSERT_TRUE(game.Goto(2).ok());
  EXPECT_FALSE(game.at_end());
  EXPECT_EQ(game.shown().position().to_move(), Colour::kBlue);
  EXPECT_FALSE(game.Goto(6).ok());
  EXPECT_EQ(game.cursor(), 2);
  // Another move at ply 2 drops the moves after it.
  ASSERT_TRUE(game.Play(M("g7")).ok());
  EXPECT_EQ(game.moves().size(), 3u);
  EXPECT_TRUE(game.at_end());
  ASSERT_TRUE(game.Undo().ok());
  EXPECT_EQ(game.moves().size(), 2u);
  EXPECT_EQ(MoveName(game.moves().back().move), "c3");
}

TEST(GuiGameTest, FromMovesChecksEveryMoveAndItsColour) {
  EXPECT_TRUE(GuiGame::FromMoves(Start(), {{Colour::kRed, M("d4")}}).ok());
  const auto wrong_colour =
      GuiGame::FromMoves(Start(), {{Colour::kBlue, M("d4")}});
  ASSERT_FALSE(wrong_colour.ok());
  EXPECT_TRUE(absl::StrContains(wrong_colour.status().message(), "red's turn"));
  const auto illegal =
      GuiGame::FromMoves(Start(), {{Colour::kRed, M("b2")}});  // b2 is taken
  EXPECT_FALSE(illegal.ok());
}

TEST(GuiGameTest, BoardJsonHasWhatThePageDraws) {
  // Red has walled b1 in alone: an owned region, shaded on the page.
  const Position pos = *ParsePosition(
      "players=2 setup=fourstone turn=blue red=a1,b2,d4,f6 blue=f2,c3,e5,b6 "
      "red-walls=a1n,a1e blue-walls=c3n");
  GuiGame game(pos);
  const json board = BoardJson(game);
  EXPECT_EQ(board["position"], PositionString(pos));
  EXPECT_EQ(board["turn"], "blue");
  EXPECT_EQ(board["phase"], "play");
  EXPECT_EQ(board["stones"]["red"], json({"a1", "b2", "d4", "f6"}));
  EXPECT_EQ(board["walls"].size(), 3u);
  EXPECT_EQ(board["walls"][0], json({{"edge", "a1n"}, {"colour", "red"}}));
  ASSERT_EQ(board["regions"].size(), 1u);
  EXPECT_EQ(board["regions"][0]["owner"], "red");
  EXPECT_EQ(board["regions"][0]["cells"], json({"a1"}));
  EXPECT_EQ(board["scores"]["red"], 1);
  EXPECT_EQ(board["wallsLeft"]["blue"], -1);
  EXPECT_FALSE(board["legal"].empty());
  for (const auto& token : board["legal"]) {
    EXPECT_TRUE(CheckMove(pos, Colour::kBlue, M(token)).ok()) << token;
  }
  EXPECT_TRUE(board["result"].is_null());
  EXPECT_TRUE(board["last"].is_null());
  ASSERT_TRUE(game.Play(Move::Resign()).ok());
  const json over = BoardJson(game);
  EXPECT_EQ(over["phase"], "finished");
  EXPECT_EQ(over["result"]["winners"], json({"red"}));
  EXPECT_EQ(over["result"]["resigned"], "blue");
  EXPECT_EQ(over["last"]["move"], "resign");
  EXPECT_TRUE(over["legal"].empty());
}

TEST(InfoLineTest, ParsesCandidatesAndRefusesOtherLines) {
  const auto c = ParseInfoLine(
      "info move a1c1n visits 7375 winrate 0.3129 score -3.34 pv a1c1n e5f5n");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->move, "a1c1n");
  EXPECT_EQ(c->visits, 7375);
  EXPECT_DOUBLE_EQ(c->winrate, 0.3129);
  EXPECT_DOUBLE_EQ(c->score, -3.34);
  EXPECT_EQ(c->pv, (std::vector<std::string>{"a1c1n", "e5f5n"}));
  EXPECT_TRUE(
      ParseInfoLine("info move d4 visits 3 lcb 0.1 winrate 0.5").has_value());
  // A principal variation stops at the first word that is not a move.
  EXPECT_EQ(ParseInfoLine("info move d4 visits 3 pv d4 <script> c3")->pv,
            std::vector<std::string>{"d4"});
  EXPECT_FALSE(ParseInfoLine("info visits 3 winrate 0.5").has_value());
  EXPECT_FALSE(ParseInfoLine("info move zz9 visits 3").has_value());
  EXPECT_FALSE(ParseInfoLine("info move d4 visits many").has_value());
  EXPECT_FALSE(ParseInfoLine("play d4").has_value());
}

// A bridge whose published messages are kept, to wait on.
class BridgeTest : public ::testing::Test {
 protected:
  void Make(std::vector<std::string> mock_flags, WorkerTimeouts timeouts = {}) {
    std::vector<EngineSpec> engines;
    for (size_t i = 0; i < mock_flags.size(); ++i) {
      engines.push_back({i == 0 ? "mock" : absl::StrCat("mock", i + 1),
                         absl::StrCat(MOCK_ENGINE, " ", mock_flags[i])});
    }
    BridgeOptions options;
    options.timeouts = timeouts;
    auto bridge =
        Bridge::Create(engines, options, [this](const std::string& m) {
          std::lock_guard<std::mutex> lock(mutex_);
          messages_.push_back(json::parse(m));
          changed_.notify_all();
        });
    ASSERT_TRUE(bridge.ok()) << bridge.status();
    bridge_ = std::move(*bridge);
    WaitForState(
        [](const json& s) {
          for (const auto& e : s["engines"]) {
            if (e["state"] != "ready") return false;
          }
          return true;
        },
        "engines ready");
  }

  json State() { return json::parse(bridge_->StateJson()); }

  // Waits (up to 20 s) until the state satisfies `done`.
  template <typename Pred>
  json WaitForState(Pred done, const std::string& what) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
      size_t seen;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        seen = messages_.size();
      }
      const json state = State();
      if (done(state)) return state;
      // A message published after `seen` is not missed: the size changed.
      std::unique_lock<std::mutex> lock(mutex_);
      if (!changed_.wait_until(lock, deadline,
                               [&] { return messages_.size() != seen; })) {
        ADD_FAILURE() << "timed out waiting for " << what
                      << "; state: " << state.dump();
        return state;
      }
    }
  }

  // The last "analysis" message with candidates for ply `ply`.
  json WaitForAnalysis(int ply) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      for (auto it = messages_.rbegin(); it != messages_.rend(); ++it) {
        if ((*it)["type"] == "analysis" && (*it)["analysis"]["ply"] == ply)
          return *it;
      }
      if (changed_.wait_until(lock, deadline) == std::cv_status::timeout) {
        ADD_FAILURE() << "no analysis of ply " << ply;
        return json();
      }
    }
  }

  absl::Status Send(const json& message) {
    return bridge_->Handle(message.dump());
  }

  // The state without what engines and the clock change on their own.
  static json Stable(json state) {
    state.erase("engines");
    state.erase("turnElapsed");
    return state;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<json> messages_;
  std::unique_ptr<Bridge> bridge_;
};

TEST_F(BridgeTest, BadMessagesGetAClearErrorAndChangeNothing) {
  Make({""});
  ASSERT_TRUE(Send({{"type", "new"},
                    {"seats", {{{"kind", "human"}}, {{"kind", "human"}}}}})
                  .ok());
  ASSERT_TRUE(Send({{"type", "move"}, {"move", "d4"}}).ok());
  const json before = Stable(State());
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"not json", "JSON object"},
      {"[1,2]", "JSON object"},
      {R"({"kind":"move"})", "'type' must be a string"},
      {R"({"type":"fly"})", "unknown message type 'fly'"},
      {R"({"type":"move"})", "'move' must be a string"},
      {R"({"type":"move","move":"zz"})", "bad move 'zz'"},
      {R"({"type":"move","move":"d4"})", "illegal move"},
      {R"({"type":"move","move":"resign"})", "resign"},
      {R"({"type":"goto","ply":7})", "'ply' must be in 0..1"},
      {R"({"type":"goto","ply":"1"})", "'ply' must be an integer"},
      {R"({"type":"new","rules":"players=5"})", "players"},
      {R"({"type":"new","seats":[{"kind":"human"}]})",
       "'seats' must list 2 seats"},
      {R"({"type":"new","seats":[{"kind":"engine","engine":"sh -c reboot"},{"kind":"human"}]})",
       "no engine named 'sh -c reboot'"},
      {R"({"type":"new","seats":[{"kind":"engine","engine":"mock","level":11},{"kind":"human"}]})",
       "'level' must be in 1..10"},
      {R"({"type":"new","seats":[{"kind":"engine","engine":"mock","movetime":-1},{"kind":"human"}]})",
       "'movetime' must be in 0..3600"},
      {R"({"type":"new","seats":[{"kind":"robot"},{"kind":"human"}]})", "kind"},
      {R"({"type":"new","position":"players=2 red=b2,b2"})",
       "invalid position"},
      {R"({"type":"analysis","on":"yes"})", "'on' must be true or false"},
      {R"({"type":"analysis","on":true,"engine":"other"})", "no engine named"},
      {R"({"type":"restart","engine":"nobody"})", "no engine named"},
      {R"({"type":"moves","moves":"d4 d4"})", "move 2 (d4)"},
      {R"({"type":"records","text":"{\"game\":1}\n"})", "records line 1"},
      {R"({"type":"records","text":""})", "no game records"},
      {R"({"type":"record","index":0})", "no records loaded"},
  };
  for (const auto& [text, expected] : bad) {
    const absl::Status status = bridge_->Handle(text);
    EXPECT_FALSE(status.ok()) << text;
    EXPECT_TRUE(absl::StrContains(status.message(), expected))
        << text << " -> " << status.message();
    EXPECT_EQ(Stable(State()), before) << text;
  }
}

TEST_F(BridgeTest, TheEngineAnswersAPersonsMove) {
  Make({"--seed 5 --delay-ms 200"});
  // Default seats: a person plays red, the first engine blue.
  const json start = State();
  EXPECT_EQ(start["seats"][0]["kind"], "human");
  EXPECT_EQ(start["seats"][1]["engine"], "mock");
  ASSERT_TRUE(Send({{"type", "move"}, {"move", "d4"}}).ok());
  // Blue places twice (fourstone order: red, blue, blue, red).
  const json state =
      WaitForState([](const json& s) { return s["moves"].size() == 3; },
                   "two engine placements");
  EXPECT_EQ(state["moves"][1]["colour"], "blue");
  EXPECT_TRUE(state["moves"][1].contains("ms"));
  EXPECT_EQ(state["board"]["turn"], "red");
  // The play phase starts with red; while the engine thinks about its
  // reply, blue's turn is not the person's to play.
  ASSERT_TRUE(Send({{"type", "move"}, {"move", "a1"}}).ok());
  ASSERT_TRUE(Send({{"type", "move"}, {"move", "a1a2n"}}).ok());
  const absl::Status engines_turn = Send({{"type", "move"}, {"move", "f2f3n"}});
  EXPECT_FALSE(engines_turn.ok());
  EXPECT_TRUE(
      absl::StrContains(engines_turn.message(), "played by the engine"));
  WaitForState([](const json& s) { return s["moves"].size() == 6; },
               "the reply");
  // Undo goes back to the person's turn: the engine's reply and the move.
  ASSERT_TRUE(Send({{"type", "undo"}}).ok());
  const json undone = State();
  EXPECT_EQ(undone["moves"].size(), 4u);
  EXPECT_EQ(undone["board"]["turn"], "red");
}

TEST_F(BridgeTest, EngineVersusEngineAndThreePlayers) {
  Make({"--seed 1", "--seed 2"});
  ASSERT_TRUE(Send({{"type", "new"},
                    {"rules", "players=3"},
                    {"seats",
                     {{{"kind", "engine"}, {"engine", "mock"}},
                      {{"kind", "engine"}, {"engine", "mock2"}, {"level", 3}},
                      {{"kind", "engine"},
                       {"engine", "mock"},
                       {"movetime", 0.5},
                       {"clock", 60},
                       {"increment", 2}}}}})
                  .ok());
  const json over = WaitForState(
      [](const json& s) { return s["board"]["phase"] == "finished"; },
      "the end");
  // Green's clock: 60 s, 2 s more per move, less the time its moves took.
  double left = 60;
  for (const auto& m : over["moves"]) {
    if (m["colour"] == "green") left += 2 - m["ms"].get<double>() / 1000;
  }
  EXPECT_NEAR(over["seats"][2]["clockLeft"].get<double>(), left, 1e-9);
  EXPECT_GT(left, 60);
  EXPECT_FALSE(over["seats"][0].contains("clockLeft"));
  EXPECT_EQ(over["board"]["players"], 3);
  EXPECT_FALSE(over["board"]["result"]["winners"].empty());
  EXPECT_TRUE(over["board"]["breakersLeft"].contains("green"));
}

TEST_F(BridgeTest, AnEngineThatCrashesIsShownAndRestartedAndTheGameIsKept) {
  Make({"--crash-at 2"});
  ASSERT_TRUE(Send({{"type", "move"}, {"move", "d4"}}).ok());
  const json failed = WaitForState(
      [](const json& s) { return s["engines"][0]["state"] == "failed"; },
      "the crash");
  EXPECT_TRUE(absl::StrContains(
      failed["engines"][0]["detail"].get<std::string>(), "crashed"));
  EXPECT_TRUE(absl::StrContains(failed["event"].get<std::string>(),
                                "restart the engine"));
  EXPECT_EQ(failed["moves"].size(), 2u);  // d4 and the first placement: kept
  // Moves can still be reviewed and the engine restarted.
  ASSERT_TRUE(Send({{"type", "goto"}, {"ply", 1}}).ok());
  ASSERT_TRUE(Send({{"type", "goto"}, {"ply", 2}}).ok());
  ASSERT_TRUE(Send({{"type", "restart"}, {"engine", "mock"}}).ok());
  const json resumed =
      WaitForState([](const json& s) { return s["moves"].size() == 3; },
                   "the move after the restart");
  EXPECT_EQ(resumed["moves"][2]["colour"], "blue");
  EXPECT_EQ(resumed["event"], "");
}

TEST_F(BridgeTest, GarbageAndHangsAreShownAsSuch) {
  WorkerTimeouts fast;
  fast.max_think_s = 0.3;
  fast.margin_s = 0.2;
  Make({"--garbage-at 1", "--hang-at 1"}, fast);
  ASSERT_TRUE(Send({{"type", "move"}, {"move", "d4"}}).ok());
  const json garbage = WaitForState(
      [](const json& s) { return s["engines"][0]["state"] == "failed"; },
      "garbage");
  EXPECT_TRUE(absl::StrContains(
      garbage["engines"][0]["detail"].get<std::string>(), "answers garbage"));
  ASSERT_TRUE(
      Send({{"type", "seats"},
            {"seats",
             {{{"kind", "human"}}, {{"kind", "engine"}, {"engine", "mock2"}}}}})
          .ok());
  const json hang = WaitForState(
      [](const json& s) { return s["engines"][1]["state"] == "failed"; },
      "a hang");
  EXPECT_TRUE(absl::StrContains(hang["engines"][1]["detail"].get<std::string>(),
                                "hangs"));
  EXPECT_EQ(hang["moves"].size(), 1u);
}

TEST_F(BridgeTest, AnalysisFollowsThePositionShown) {
  Make({""});
  ASSERT_TRUE(Send({{"type", "moves"}, {"moves", "d4 c3 e5 a1"}}).ok());
  EXPECT_EQ(State()["seats"][0]["kind"], "human");
  ASSERT_TRUE(Send({{"type", "analysis"}, {"on", true}}).ok());
  const json at4 = WaitForAnalysis(4);
  ASSERT_FALSE(at4["analysis"]["candidates"].empty());
  const std::string best = at4["analysis"]["candidates"][0]["move"];
  EXPECT_TRUE(
      CheckMove(*ParsePosition(State()["board"]["position"].get<std::string>()),
                Colour::kRed, M(best))
          .ok());
  ASSERT_TRUE(Send({{"type", "goto"}, {"ply", 2}}).ok());
  const json at2 = WaitForAnalysis(2);
  EXPECT_EQ(at2["analysis"]["candidates"][0]["winrate"], 0.6);
  const json graph = at2["graph"];
  ASSERT_EQ(graph.size(), 2u);
  EXPECT_EQ(graph[0]["ply"], 2);
  EXPECT_EQ(graph[1]["ply"], 4);
  ASSERT_TRUE(Send({{"type", "analysis"}, {"on", false}}).ok());
  WaitForState(
      [](const json& s) { return s["engines"][0]["state"] == "ready"; },
      "analysis stopped");
}

TEST_F(BridgeTest, RecordsAreLoadedAndShown) {
  Make({""});
  const std::string line =
      R"({"game":4,"set":1,"seats":{"red":"a","blue":"b"},"rules":"players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0","opening":"d4 c3","moves":[{"colour":"blue","move":"e5","ms":12},{"colour":"red","move":"a1","ms":30}],"scores":{"red":0,"blue":0},"winner":"blue","winners":["blue"],"reason":"crash","loser":"red","detail":"killed","final":"players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0 turn=red red=a1,b2,d4,f6 blue=f2,c3,e5,b6 red-walls= blue-walls="})";
  ASSERT_TRUE(
      Send({{"type", "records"}, {"text", line + "\n\n" + line + "\n"}}).ok());
  json state = State();
  EXPECT_EQ(state["records"]["games"].size(), 2u);
  EXPECT_EQ(state["records"]["games"][0]["reason"], "crash");
  EXPECT_EQ(state["moves"].size(), 4u);  // the opening's two and the record's
  EXPECT_EQ(state["moves"][3]["ms"], 30);
  EXPECT_EQ(state["cursor"], 0);
  ASSERT_TRUE(Send({{"type", "record"}, {"index", 1}}).ok());
  ASSERT_TRUE(Send({{"type", "goto"}, {"ply", 4}}).ok());
  state = State();
  EXPECT_EQ(state["board"]["position"], json::parse(line)["final"]);
  EXPECT_EQ(state["records"]["shown"], 1);
  EXPECT_FALSE(Send({{"type", "record"}, {"index", 2}}).ok());
}

TEST_F(BridgeTest, AFinishedGameIsARecordsLineThatLoadsBack) {
  Make({""});
  ASSERT_TRUE(Send({{"type", "new"},
                    {"seats", {{{"kind", "human"}}, {{"kind", "human"}}}}})
                  .ok());
  for (const char* token : {"d4", "c3", "e5", "a1", "b2b3n"}) {
    ASSERT_TRUE(Send({{"type", "move"}, {"move", token}}).ok()) << token;
  }
  EXPECT_TRUE(State()["recordLine"].is_null());  // not over yet
  ASSERT_TRUE(Send({{"type", "resign"}}).ok());
  const std::string line = State()["recordLine"];
  const json record = json::parse(line);
  EXPECT_EQ(record["reason"], "resign");
  EXPECT_EQ(record["loser"], "blue");
  EXPECT_EQ(record["winner"], "red");
  EXPECT_EQ(record["seats"], json({{"red", "human"}, {"blue", "human"}}));
  EXPECT_EQ(record["moves"].size(), 6u);
  // The referee's own reader takes it, and the GUI shows it again.
  ASSERT_TRUE(records::RecordFromJson(line).ok());
  const std::string final_position = State()["board"]["position"];
  ASSERT_TRUE(Send({{"type", "records"}, {"text", line + "\n"}}).ok());
  ASSERT_TRUE(Send({{"type", "goto"}, {"ply", 5}}).ok());
  EXPECT_EQ(State()["board"]["position"], final_position);
}

TEST_F(BridgeTest, TheServerPlaysTheTimeoutRuleForALateSeat) {
  Make({""});
  // Red gets a random turn when late, blue loses; both have a 1 s turn.
  ASSERT_TRUE(Send({{"type", "new"},
                    {"seats",
                     {{{"kind", "human"}, {"turn", 1}, {"timeout", "random"}},
                      {{"kind", "human"},
                       {"turn", 1},
                       {"timeout", "forfeit"},
                       {"clock", 600},
                       {"increment", 2}}}}})
                  .ok());
  const json start = State();
  EXPECT_EQ(start["seats"][0]["turn"], 1);
  EXPECT_EQ(start["seats"][0]["timeout"], "random");
  EXPECT_TRUE(start["seats"][0]["running"].get<bool>());
  EXPECT_LE(start["seats"][0]["turnLeft"].get<double>(), 1);
  EXPECT_FALSE(start["seats"][1]["running"].get<bool>());
  EXPECT_EQ(start["seats"][1]["clockLeft"], 600);
  const auto started = std::chrono::steady_clock::now();
  const json over = WaitForState(
      [](const json& s) { return s["board"]["phase"] == "finished"; },
      "both timeouts");
  EXPECT_GE(std::chrono::steady_clock::now() - started,
            std::chrono::milliseconds(1900));
  ASSERT_EQ(over["moves"].size(), 2u);
  EXPECT_TRUE(over["moves"][0]["random"].get<bool>());
  EXPECT_GE(over["moves"][0]["ms"].get<int>(), 1000);
  EXPECT_EQ(over["moves"][1]["move"], "resign");
  EXPECT_TRUE(over["moves"][1]["timeout"].get<bool>());
  EXPECT_EQ(over["board"]["result"]["winners"], json({"red"}));
  EXPECT_TRUE(absl::StrContains(over["event"].get<std::string>(),
                                "blue ran out of time"));
  const json record = json::parse(over["recordLine"].get<std::string>());
  EXPECT_EQ(record["reason"], "timeout");
  EXPECT_EQ(record["loser"], "blue");
  EXPECT_TRUE(record["moves"][0]["random"].get<bool>());
  // Blue's clock paid for the turn it lost on, and nothing more ticks.
  EXPECT_NEAR(over["seats"][1]["clockLeft"].get<double>(),
              602 - over["moves"][1]["ms"].get<double>() / 1000, 1e-6);
  EXPECT_FALSE(over["seats"][1]["running"].get<bool>());
  // A bad time is refused like any bad seat.
  EXPECT_FALSE(
      Send({{"type", "seats"},
            {"seats",
             {{{"kind", "human"}, {"timeout", "later"}}, {{"kind", "human"}}}}})
          .ok());
}

TEST_F(BridgeTest, AGameComesBackWithItsTimesAndItsRunningTurn) {
  // As the static site restores its saved game after a reload: the moves
  // with their times ("played", a state's own list), then the seats with
  // the time the running turn had already taken.
  Make({""});
  const json played = {{{"move", "d4"}, {"ms", 5000}},
                       {{"move", "c3"}, {"ms", 7000}, {"random", true}},
                       {{"move", "e5"}, {"ms", 2000}, {"colour", "blue"}}};
  ASSERT_TRUE(Send({{"type", "moves"}, {"played", played}}).ok());
  const json seat = {{"kind", "human"}, {"turn", 90}, {"clock", 300}};
  ASSERT_TRUE(
      Send({{"type", "seats"}, {"seats", {seat, seat}}, {"turnElapsed", 80}})
          .ok());
  const json state = State();
  ASSERT_EQ(state["moves"].size(), 3u);
  EXPECT_EQ(state["moves"][0]["ms"], 5000);
  EXPECT_TRUE(state["moves"][1]["random"].get<bool>());
  EXPECT_EQ(state["moves"][2]["colour"], "blue");
  EXPECT_NEAR(state["turnElapsed"].get<double>(), 80, 1);
  EXPECT_NEAR(state["seats"][0]["turnLeft"].get<double>(), 10, 1);
  // Red's clock paid for d4 (5 s), e5 was blue's; and the 80 s running.
  EXPECT_NEAR(state["seats"][0]["clockLeft"].get<double>(), 300 - 5 - 80, 1);
  EXPECT_NEAR(state["seats"][1]["clockLeft"].get<double>(), 300 - 9, 1e-6);
  // Bad entries are refused, naming the move, and change nothing.
  for (const json& bad :
       {json{{{"move", "d4"}, {"ms", "soon"}}}, json{{{"move", "zz9"}}},
        json{{{"move", "d4"}, {"random", 1}}}, json{{{"ms", 3}}},
        json{{{"move", "d4"}}, {{"move", "d4"}}}, json("d4")}) {
    const absl::Status status = Send({{"type", "moves"}, {"played", bad}});
    EXPECT_FALSE(status.ok()) << bad.dump();
  }
  EXPECT_TRUE(
      absl::StrContains(Send({{"type", "moves"},
                              {"played", {{{"move", "d4"}}, {{"move", "d4"}}}}})
                            .message(),
                        "played move 2"));
  EXPECT_FALSE(
      Send({{"type", "seats"}, {"seats", {seat, seat}}, {"turnElapsed", -1}})
          .ok());
  EXPECT_EQ(Stable(State())["moves"], state["moves"]);
  // A turn restored with half a second left runs out as any turn does.
  const json late = {{"kind", "human"}, {"turn", 90}, {"timeout", "random"}};
  ASSERT_TRUE(
      Send({{"type", "seats"}, {"seats", {late, late}}, {"turnElapsed", 89.5}})
          .ok());
  const json after = WaitForState(
      [](const json& s) { return s["moves"].size() == 4; }, "the timeout");
  EXPECT_TRUE(after["moves"][3]["random"].get<bool>());
}

TEST_F(BridgeTest, AHintIsTheEnginesMoveAfterASecondsSearch) {
  Make({""});
  ASSERT_TRUE(Send({{"type", "moves"}, {"moves", "d4 c3 e5 a1"}}).ok());
  const auto asked = std::chrono::steady_clock::now();
  ASSERT_TRUE(Send({{"type", "hint"}}).ok());
  EXPECT_TRUE(State()["hint"]["pending"].get<bool>());
  const json hinted = WaitForState(
      [](const json& s) {
        return !s["hint"]["move"].get<std::string>().empty();
      },
      "the hint");
  EXPECT_GE(std::chrono::steady_clock::now() - asked, std::chrono::seconds(1));
  EXPECT_EQ(hinted["hint"]["ply"], 4);
  EXPECT_TRUE(
      CheckMove(*ParsePosition(hinted["board"]["position"].get<std::string>()),
                Colour::kRed, M(hinted["hint"]["move"]))
          .ok());
  WaitForState(
      [](const json& s) { return s["engines"][0]["state"] == "ready"; },
      "the hint's analysis stopped");
  // Another position forgets it.
  ASSERT_TRUE(Send({{"type", "goto"}, {"ply", 2}}).ok());
  EXPECT_EQ(State()["hint"]["move"], "");
}

TEST_F(BridgeTest, ASeatsPagePlaysItsColourAndAWatcherNothing) {
  Make({""});
  ASSERT_TRUE(Send({{"type", "new"},
                    {"seats", {{{"kind", "human"}}, {{"kind", "human"}}}}})
                  .ok());
  const Access watcher{Access::kWatch};
  const Access red{bridge_->SeatOfToken(bridge_->seat_tokens()[0])};
  const Access blue{bridge_->SeatOfToken(bridge_->seat_tokens()[1])};
  EXPECT_EQ(red.seat, 0);
  EXPECT_EQ(bridge_->SeatOfToken("guess"), Access::kWatch);
  EXPECT_EQ(bridge_->SeatOfToken(""), Access::kWatch);
  EXPECT_EQ(bridge_->seat_tokens()[0].size(), 32u);
  EXPECT_NE(bridge_->seat_tokens()[0], bridge_->seat_tokens()[1]);
  const std::string d4 = R"({"type":"move","move":"d4"})";
  for (const std::string& text : {d4, std::string(R"({"type":"goto","ply":0})"),
                                  std::string(R"({"type":"resign"})")}) {
    const absl::Status refused = bridge_->Handle(text, watcher);
    EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << text;
    EXPECT_TRUE(absl::StrContains(refused.message(), "only watches"));
  }
  EXPECT_FALSE(bridge_->Handle(d4, blue).ok());  // red's turn
  EXPECT_TRUE(bridge_->Handle(d4, red).ok());
  EXPECT_FALSE(bridge_->Handle(R"({"type":"move","move":"c3"})", red).ok());
  EXPECT_FALSE(
      bridge_
          ->Handle(
              R"({"type":"seats","seats":[{"kind":"human"},{"kind":"human"}]})",
              blue)
          .ok());
  EXPECT_TRUE(bridge_->Handle(R"({"type":"move","move":"c3"})", blue).ok());
  EXPECT_EQ(State()["moves"].size(), 2u);
}

TEST_F(BridgeTest, ReviewsRunOneAfterAnotherAndEndedThreadsAreJoined) {
  Make({""});
  ASSERT_TRUE(Send({{"type", "moves"}, {"moves", "d4 c3 e5 a1"}}).ok());
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE(Send({{"type", "review"}, {"movetime", 0.05}}).ok());
    EXPECT_EQ(State()["review"]["state"], "running");
    const json reviewed = WaitForState(
        [](const json& s) { return s["review"]["state"] != "running"; },
        "the review's end");
    EXPECT_EQ(reviewed["review"]["total"], 5) << reviewed["review"].dump();
  }
  EXPECT_FALSE(Send({{"type", "review"}, {"movetime", 0}}).ok());
}

TEST(LobbyTest, GamesByNameUpToTheLimit) {
  std::mutex mutex;
  std::map<std::string, int> published;
  LobbyOptions options;
  options.max_games = 2;
  auto lobby = Lobby::Create({{"mock", MOCK_ENGINE}}, options,
                             [&](const std::string& game, const std::string&) {
                               std::lock_guard<std::mutex> lock(mutex);
                               ++published[game];
                             });
  ASSERT_TRUE(lobby.ok()) << lobby.status();
  EXPECT_FALSE((*lobby)->Open("../etc").ok());
  EXPECT_FALSE((*lobby)->Open("").ok());
  auto a = (*lobby)->Open("friday");
  auto b = (*lobby)->Open("saturday");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), (*lobby)->Open("friday")->get());  // the same game
  const auto third = (*lobby)->Open("sunday");
  ASSERT_FALSE(third.ok());
  EXPECT_TRUE(absl::StrContains(third.status().message(), "--max-games 2"))
      << third.status();
  // Each game's messages go to its own pages only.
  ASSERT_TRUE(
      (*a)->Handle(
              R"({"type":"seats","seats":[{"kind":"human"},{"kind":"human"}]})")
          .ok());
  ASSERT_TRUE((*a)->Handle(R"({"type":"move","move":"d4"})").ok());
  const json list = (*lobby)->List();
  ASSERT_EQ(list["games"].size(), 2u);
  EXPECT_EQ(list["games"][0]["name"], "friday");
  EXPECT_EQ(list["games"][0]["moves"], 1);
  EXPECT_EQ(list["games"][1]["moves"], 0);
  {
    std::lock_guard<std::mutex> lock(mutex);
    EXPECT_GE(published["friday"], 2);
  }
  // Loopback: every page may do everything; with keys, only the host's.
  EXPECT_EQ((*lobby)->AccessFor(a->get(), "").seat, Access::kAll);
  ASSERT_TRUE((*lobby)->Close("saturday").ok());
  EXPECT_FALSE((*lobby)->Close("saturday").ok());
  EXPECT_TRUE((*lobby)->Open("sunday").ok());
}

// The game that the printed address (/) opens: the same one until someone
// plays in it, then a new one with a free name, and none past the limit.
TEST(LobbyTest, FreshGameIsReusedUntilPlayed) {
  LobbyOptions options;
  options.max_games = 3;
  auto lobby = Lobby::Create({{"mock", MOCK_ENGINE}}, options,
                             [](const std::string&, const std::string&) {});
  ASSERT_TRUE(lobby.ok()) << lobby.status();
  const auto first = (*lobby)->OpenFresh();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(*first, "game-1");
  EXPECT_EQ((*lobby)->OpenFresh().value_or(""), "game-1");
  ASSERT_TRUE((*lobby)->Open("game-2").ok());  // someone's own name
  const auto play_in = [&](const std::string& name) {
    return (*(*lobby)->Open(name))->Handle(R"({"type":"move","move":"d4"})");
  };
  ASSERT_TRUE(play_in(*first).ok());
  const auto second = (*lobby)->OpenFresh();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(*second, "game-3");
  EXPECT_EQ((*lobby)->List()["games"].size(), 3u);
  ASSERT_TRUE(play_in(*second).ok());
  const auto full = (*lobby)->OpenFresh();
  ASSERT_FALSE(full.ok());
  EXPECT_TRUE(absl::StrContains(full.status().message(), "--max-games 3"))
      << full.status();
  ASSERT_TRUE((*lobby)->Close("game-2").ok());
  // Room again; a closed game's name is not given again.
  EXPECT_EQ((*lobby)->OpenFresh().value_or(""), "game-4");
}

TEST(GuiCliTest, OptionsAndErrors) {
  const auto defaults = ParseGuiOptions({}, "/opt/wallgo/bin/wallgo-gui");
  ASSERT_TRUE(defaults.ok());
  ASSERT_EQ(defaults->engines.size(), 1u);
  EXPECT_EQ(defaults->engines[0].name, "wallgo");
  EXPECT_EQ(defaults->engines[0].command, "'/opt/wallgo/bin/wallgo'");
  EXPECT_EQ(defaults->port, 8600);
  const auto two =
      ParseGuiOptions({"--engine", "name=a:x --level 1", "--engine", "/bin/y",
                       "--port", "0", "--open"},
                      "g");
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->engines[1].name, "y");
  EXPECT_TRUE(two->open);
  EXPECT_FALSE(ParseGuiOptions({"--port", "70000"}, "g").ok());
  EXPECT_FALSE(ParseGuiOptions({"--bogus"}, "g").ok());
  EXPECT_FALSE(ParseGuiOptions({"--margin", "-1"}, "g").ok());
  EXPECT_EQ(defaults->max_games, 8);
  EXPECT_FALSE(ParseGuiOptions({"--max-games", "0"}, "g").ok());
  std::ostringstream out, err;
  EXPECT_EQ(GuiMain({"--port", "x"}, "g", out, err), 2);
  EXPECT_TRUE(absl::StrContains(err.str(), "Usage: wallgo-gui"));
}

}  // namespace
}  // namespace wallgo::gui
