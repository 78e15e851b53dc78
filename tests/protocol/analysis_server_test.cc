// The analysis server's scheduling over a test-double searcher: every turn
// answered once with its id, priorities, terminate (queued and running),
// the end of input, the hash shared among workers, finished games.
#include "protocol/analysis_server.h"

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/protocol/fake_searcher.h"

namespace wallgo::protocol {
namespace {

using Json = nlohmann::json;
using testing::FakeFactory;
using testing::FakeRecord;

// Finished: red closed d3n, 28-21 (see analysis_json_test).
constexpr char kFinished[] =
    "players=2 setup=empty turn=blue red=d4,e5,b6,f6 blue=b2,f2,c1,e1 "
    "red-walls=a3n,b3n,c3n,d4s blue-walls=e3n,f3n,g3n";

class AnalysisServerTest : public ::testing::Test {
 protected:
  // Without maxVisits/maxTime the fake searches until stopped.
  void Start(int workers = 1, size_t max_queued = 256) {
    AnalysisConfig config;
    config.analysis_threads = workers;
    config.search_threads = 3;
    config.defaults.visits = 0;
    config.defaults.movetime_s = 0;
    config.defaults.hash_mb = 100;
    config.version = "test";
    config.max_queued_turns = max_queued;
    server_ = std::make_unique<AnalysisServer>(
        config, FakeFactory(record_),
        [this](const std::string& line) { lines_.push_back(line); });
  }

  // The answers, parsed, once the server has finished.
  std::vector<Json> Finish() {
    server_->Finish();
    std::vector<Json> answers;
    for (const std::string& line : lines_) answers.push_back(Json::parse(line));
    return answers;
  }

  static int IndexOf(const std::vector<Json>& answers, const std::string& id) {
    for (size_t i = 0; i < answers.size(); ++i) {
      if (answers[i]["id"] == id && answers[i].contains("turnNumber")) {
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  // Long enough for the one worker to pick up what is queued.
  static void LetTheWorkerStart() {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }

  std::shared_ptr<FakeRecord> record_ = std::make_shared<FakeRecord>();
  std::vector<std::string> lines_;  // written by the server, one at a time
  std::unique_ptr<AnalysisServer> server_;
};

TEST_F(AnalysisServerTest, AnswersEveryTurnOnceWithItsId) {
  Start();
  server_->HandleLine(
      R"({"id":"g","moves":["c4","e4"],"analyzeTurns":[0,2,1],"maxVisits":5})");
  const std::vector<Json> answers = Finish();
  ASSERT_EQ(answers.size(), 3u);
  std::vector<int> turns;
  for (const Json& a : answers) {
    EXPECT_EQ(a["id"], "g");
    turns.push_back(a["turnNumber"]);
    EXPECT_EQ(a["moveInfos"].size(), 2u);  // the fake's two candidates
    EXPECT_EQ(a["rootInfo"]["visits"], 33);
  }
  EXPECT_EQ(turns, (std::vector<int>{0, 2, 1}));  // one worker: in order
}

TEST_F(AnalysisServerTest, BadLinesAndActionsAreAnsweredAtOnce) {
  Start();
  server_->HandleLine("{oops");
  server_->HandleLine("   ");  // blank: nothing
  server_->HandleLine(R"({"id":"v","action":"query_version"})");
  server_->HandleLine(R"({"id":"x","moves":["zz"]})");
  const std::vector<Json> answers = Finish();
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_TRUE(answers[0]["id"].is_null());
  EXPECT_EQ(answers[1]["version"], "test");
  EXPECT_EQ(answers[2]["field"], "moves");
  EXPECT_EQ(record_->searches, 0);
}

TEST_F(AnalysisServerTest, TerminateStopsARunningQuery) {
  Start();
  server_->HandleLine(R"({"id":"long"})");  // endless for the fake
  LetTheWorkerStart();
  server_->HandleLine(
      R"({"id":"t","action":"terminate","terminateId":"long"})");
  const std::vector<Json> answers = Finish();  // returns: the search stopped
  const int i = IndexOf(answers, "long");
  ASSERT_GE(i, 0);
  EXPECT_EQ(answers[i]["terminated"], true);
  EXPECT_EQ(record_->searches, 1);
  EXPECT_TRUE(answers[i].contains("moveInfos"));  // what it found so far
}

TEST_F(AnalysisServerTest, TerminateDropsQueuedTurnsWithNoResults) {
  Start();
  server_->HandleLine(R"({"id":"blocker"})");
  LetTheWorkerStart();
  server_->HandleLine(
      R"({"id":"q","moves":["c4"],"analyzeTurns":[0,1],"maxVisits":5})");
  server_->HandleLine(R"({"id":"t1","action":"terminate","terminateId":"q"})");
  server_->HandleLine(
      R"({"id":"t2","action":"terminate","terminateId":"blocker"})");
  const std::vector<Json> answers = Finish();
  int dropped = 0;
  for (const Json& a : answers) {
    if (a["id"] != "q") continue;
    EXPECT_EQ(a["noResults"], true);
    EXPECT_EQ(a["terminated"], true);
    ++dropped;
  }
  EXPECT_EQ(dropped, 2);
  EXPECT_EQ(record_->searches, 1);  // only the blocker ever searched
}

TEST_F(AnalysisServerTest, HigherPriorityRunsFirst) {
  Start();
  server_->HandleLine(R"({"id":"blocker"})");
  LetTheWorkerStart();
  server_->HandleLine(R"({"id":"low","maxVisits":5})");
  server_->HandleLine(R"({"id":"high","maxVisits":5,"priority":5})");
  server_->HandleLine(
      R"({"id":"t","action":"terminate","terminateId":"blocker"})");
  const std::vector<Json> answers = Finish();
  ASSERT_GE(IndexOf(answers, "high"), 0);
  ASSERT_GE(IndexOf(answers, "low"), 0);
  EXPECT_LT(IndexOf(answers, "high"), IndexOf(answers, "low"));
}

TEST_F(AnalysisServerTest, EndOfInputAnswersEverythingQueued) {
  Start(1, 2);  // a tiny queue: HandleLine waits for room
  for (int i = 0; i < 20; ++i) {
    server_->HandleLine(absl::StrCat(R"({"id":"n)", i, R"(","maxVisits":5})"));
  }
  const std::vector<Json> answers = Finish();
  ASSERT_EQ(answers.size(), 20u);
  for (int i = 0; i < 20; ++i) {
    EXPECT_GE(IndexOf(answers, absl::StrCat("n", i)), 0);
  }
  EXPECT_EQ(record_->made, 1);  // one searcher reused for every query
  EXPECT_EQ(record_->searches, 20);
}

TEST_F(AnalysisServerTest, WorkersShareTheHashAndUseTheSearchThreads) {
  Start(2);
  server_->HandleLine(
      R"({"id":"o","maxVisits":5,"overrideOptions":{"seed":77}})");
  Finish();
  EXPECT_EQ(record_->last_options.hash_mb, 50);
  EXPECT_EQ(record_->last_options.threads, 3);
  EXPECT_EQ(record_->last_options.seed, 77u);
  EXPECT_EQ(record_->last_options.visits, 5);
  EXPECT_TRUE(record_->last_limits.ownership == false);
}

TEST_F(AnalysisServerTest, AFinishedGameIsAnsweredWithoutASearch) {
  Start();
  server_->HandleLine(absl::StrCat(R"({"id":"f","includeOwnership":true,)",
                                   R"("position":")", kFinished, R"("})"));
  const std::vector<Json> answers = Finish();
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0]["rootInfo"]["gameOver"], true);
  EXPECT_EQ(answers[0]["rootInfo"]["result"], "loss");
  EXPECT_EQ(answers[0]["ownership"]["red"].size(), 49u);
  EXPECT_EQ(record_->searches, 0);
}

TEST_F(AnalysisServerTest, OwnershipAndPolicyReachTheSearch) {
  Start();
  server_->HandleLine(
      R"({"id":"o","maxVisits":5,"includeOwnership":true,"includePolicy":true})");
  Finish();
  EXPECT_TRUE(record_->last_limits.ownership);
  EXPECT_TRUE(record_->last_limits.all_moves);
}

}  // namespace
}  // namespace wallgo::protocol
