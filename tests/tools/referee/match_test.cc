// The referee against engines that misbehave on purpose (mock_engine.cc):
// every fault loses the game with the right reason while the match goes on;
// resumed and sharded matches play exactly the games they should.
#include "absl/strings/match.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "tests/temp_file.h"
#include "tools/records/records.h"
#include "tools/referee/cli.h"
#include "tools/referee/match.h"
#include "tools/referee/replay.h"
#include "tools/referee/report.h"
#include "tools/referee/schedule.h"

namespace wallgo::referee {
namespace {

using namespace records;  // the records the referee writes (tools/records)

namespace fs = std::filesystem;

std::string Mock(const std::string& flags = "") {
  const bool seeded = absl::StrContains(flags, "--seed");
  return absl::StrCat(MOCK_ENGINE, seeded ? " " : " --seed 7 ", flags);
}

class MatchTest : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) const { return dir_ / name; }

  // A good engine against `bad`, short clocks, quiet.
  MatchOptions Options(const std::string& bad_flags, int games = 2) const {
    MatchOptions o;
    o.engines = {{"good", Mock()}, {"bad", Mock(bad_flags)}};
    o.games = games;
    o.time.movetime_s = 1.0;
    o.margin_s = 0.3;
    o.command_timeout_s = 1.0;
    o.engine_log = Path("engines.log");
    o.quiet = true;
    return o;
  }

  // Three players: the good engine, `bad` and a third good one.
  MatchOptions ThreePlayerOptions(const std::string& bad_flags) const {
    MatchOptions o = Options(bad_flags, 3);
    o.engines.push_back({"third", Mock("--seed 3")});
    o.rules = Rules::Default(3);
    return o;
  }

  static MatchResult Run(const MatchOptions& options) {
    std::ostringstream out;
    absl::StatusOr<MatchResult> result = RunMatch(options, out);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *std::move(result) : MatchResult{};
  }

  // A parameterised test's name has a slash ("Test/crash"): TempDir flattens
  // it.
  const wallgo::testing::TempDir dir_{
      "wallgo-referee",
      ::testing::UnitTest::GetInstance()->current_test_info()->name()};
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every child process has been reaped: no zombies left behind.
void ExpectNoChildren() {
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

// The record is consistent with the referee's own rules: the moves replay
// to the final position and the scores are those of that position.
void ExpectConsistent(const GameRecord& r) {
  absl::StatusOr<Rules> rules = ParseRules(r.rules);
  ASSERT_TRUE(rules.ok());
  absl::StatusOr<Opening> opening = ResolveOpening(*rules, r.opening);
  ASSERT_TRUE(opening.ok()) << opening.status();
  Game game(opening->start);
  for (const MoveRecord& m : r.moves) {
    ASSERT_TRUE(game.Play(*ParseColour(m.colour), *ParseMove(m.move)).ok())
        << "game " << r.game << " " << m.colour << " " << m.move;
  }
  EXPECT_EQ(PositionString(game.position()), r.final_position);
  const ScoreSheet sheet = ComputeScores(game.position());
  for (size_t c = 0; c < r.scores.size(); ++c) {
    EXPECT_EQ(r.scores[c].second, sheet.score[c]);
  }
  if (r.reason == "finished") {
    EXPECT_TRUE(IsGameOver(game.position()));
    const Result result = ComputeResult(game.position());
    std::vector<std::string> winners;
    for (int c = 0; c < game.position().num_players(); ++c) {
      if (result.winners >> c & 1) winners.push_back(ColourName(ColourAt(c)));
    }
    EXPECT_EQ(r.winners, winners);
  }
}

struct FaultCase {
  std::string flags;
  std::string reason;
  bool every_game;  // the fault comes back after the restart
};

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.flags; }

class FaultTest : public MatchTest,
                  public ::testing::WithParamInterface<FaultCase> {};

TEST_P(FaultTest, TheFaultyEngineLosesAndTheMatchGoesOn) {
  MatchOptions options = Options(GetParam().flags);
  options.time.movetime_s = 0.3;
  options.margin_s = 0.2;
  const MatchResult result = Run(options);
  ASSERT_EQ(result.records.size(), 2u);
  int faults = 0;
  for (const GameRecord& r : result.records) {
    ExpectConsistent(r);
    const std::string bad =
        r.seats[0].second == "bad" ? r.seats[0].first : r.seats[1].first;
    const std::string good = bad == "red" ? "blue" : "red";
    if (r.reason == "finished") {
      EXPECT_FALSE(GetParam().every_game) << r.detail;
      continue;
    }
    ++faults;
    EXPECT_EQ(r.reason, GetParam().reason) << r.detail;
    EXPECT_EQ(r.loser, bad);
    EXPECT_EQ(r.winner, good);
  }
  EXPECT_GE(faults, 1);
  // Game 1 seats the bad engine as blue, game 2 as red.
  EXPECT_EQ(result.records[0].EngineAt("blue"), "bad");
  EXPECT_EQ(result.records[1].EngineAt("red"), "bad");
  ExpectNoChildren();
}

INSTANTIATE_TEST_SUITE_P(
    Faults, FaultTest,
    ::testing::Values(FaultCase{"--crash-at 3", "crash", true},
                      FaultCase{"--die-at-start", "crash", true},
                      FaultCase{"--hang-at 3", "timeout", true},
                      FaultCase{"--slow-at 2 --slow-ms 800", "timeout", true},
                      FaultCase{"--hang-on-play 4", "hang", true},
                      FaultCase{"--refuse-play 4", "command failed", true},
                      FaultCase{"--garbage-at 3", "garbled move", true},
                      FaultCase{"--illegal-at 3", "illegal move", true},
                      FaultCase{"--extra-line-at 3", "framing error", true},
                      FaultCase{"--wrong-id-at 3", "framing error", true},
                      FaultCase{"--resign-at 3", "resign", false}),
    [](const auto& info) {
      std::string name = info.param.flags.substr(2);
      name = name.substr(0, name.find(' '));
      std::erase(name, '-');
      return name;
    });

TEST_F(MatchTest, GoodEnginesFinishEveryGame) {
  const MatchResult result = Run(Options("", 4));
  ASSERT_EQ(result.records.size(), 4u);
  for (const GameRecord& r : result.records) {
    EXPECT_EQ(r.reason, "finished");
    EXPECT_GT(r.moves.size(), 10u);
    ExpectConsistent(r);
  }
  // Pairs share an opening and swap seats.
  EXPECT_EQ(result.records[0].opening, result.records[1].opening);
  EXPECT_EQ(result.records[0].seats[0].second,
            result.records[1].seats[1].second);
  EXPECT_NE(result.records[0].opening, result.records[2].opening);
  ExpectNoChildren();
}

TEST_F(MatchTest, RandomTurnAfterATimeoutKeepsTheGameGoing) {
  MatchOptions options = Options("--slow-at 6 --slow-ms 1500");
  options.time.movetime_s = 0.2;
  options.margin_s = 0.2;
  options.timeout_rule = TimeoutRule::kRandom;
  const MatchResult result = Run(options);
  ASSERT_EQ(result.records.size(), 2u);
  for (const GameRecord& r : result.records) {
    EXPECT_EQ(r.reason, "finished");
    ExpectConsistent(r);  // the restarted engine was brought up to date
    int random = 0;
    for (const MoveRecord& m : r.moves) {
      if (!m.random) continue;
      ++random;
      EXPECT_EQ(r.EngineAt(m.colour), "bad");
      EXPECT_GE(m.ms, 400);
    }
    EXPECT_GE(random, 1);
  }
  ExpectNoChildren();
}

TEST_F(MatchTest, ClockRunsOutForTheSlowEngine) {
  // 0.5 s + 0.01 s a move; the bad engine spends ~60 ms a move, so its
  // clock falls by ~50 ms a move and runs out (past the 0.3 s margin)
  // after about 16 moves; the fast engine never runs out.
  MatchOptions options = Options("--delay-ms 60 --stderr-lines");
  options.time = TimeControl{0, 0.5, 0.01};
  const MatchResult result = Run(options);
  ASSERT_EQ(result.records.size(), 2u);
  for (const GameRecord& r : result.records) {
    EXPECT_EQ(r.reason, "timeout") << r.detail;
    EXPECT_EQ(r.EngineAt(r.loser), "bad");
    int64_t spent = 0;
    for (const MoveRecord& m : r.moves) {
      if (m.colour == r.loser) spent += m.ms;
    }
    // It got 0.5 s plus 0.01 s per move and overran that by the margin.
    EXPECT_GT(spent, 500);
  }
  // The engine was told the clock: main time only, then its time left.
  const std::string text = ReadFile(Path("engines.log"));
  EXPECT_TRUE(absl::StrContains(text, "time_settings 0.5 0 0"));
  EXPECT_TRUE(absl::StrContains(text, "time_left blue 0.5 0"));
}

TEST_F(MatchTest, EngineStandardErrorIsDrainedToTheLog) {
  // 300 KiB of standard error at start, several pipes' worth, and a line
  // per command: the engine would block if the referee did not read it.
  const MatchResult result =
      Run(Options("--stderr-flood-kb 300 --stderr-lines"));
  ASSERT_EQ(result.records.size(), 2u);
  for (const GameRecord& r : result.records) EXPECT_EQ(r.reason, "finished");
  std::ifstream log(Path("engines.log"));
  std::string line;
  int commands = 0, filler = 0;
  while (std::getline(log, line)) {
    if (absl::StartsWith(line, "[bad] mock got: ")) ++commands;
    if (absl::StartsWith(line, "[bad] xxxx")) ++filler;
  }
  EXPECT_EQ(filler, 300);
  EXPECT_GT(commands, 20);
}

TEST_F(MatchTest, AFaultyEngineIsKilledWithItsProcessGroup) {
  // The engine's shell starts a helper that would outlive the engine if
  // only the engine process were killed.
  const std::string pid_file = Path("helper.pid");
  MatchOptions options = Options("");
  options.engines[1].command = absl::StrCat("sleep 300 & echo $! > ", pid_file,
                                            "; exec ", Mock("--crash-at 3"));
  const MatchResult result = Run(options);
  ASSERT_EQ(result.records.size(), 2u);
  EXPECT_EQ(result.records[1].reason, "crash");
  std::ifstream in(pid_file);
  pid_t helper = 0;
  ASSERT_TRUE(in >> helper);
  // Gone, or at most a zombie waiting for init to reap it.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::ifstream stat(absl::StrCat("/proc/", helper, "/stat"));
  std::string pid_text, comm, state;
  if (stat >> pid_text >> comm >> state) {
    EXPECT_EQ(state, "Z");
  }
  ExpectNoChildren();
}

TEST_F(MatchTest, ThreePlayersRotateSeats) {
  const MatchResult result = Run(ThreePlayerOptions(""));
  ASSERT_EQ(result.records.size(), 3u);
  std::set<std::string> red_engines;
  for (const GameRecord& r : result.records) {
    EXPECT_EQ(r.reason, "finished");
    ASSERT_EQ(r.seats.size(), 3u);
    ASSERT_EQ(r.scores.size(), 3u);
    red_engines.insert(r.EngineAt("red"));
    ExpectConsistent(r);
  }
  EXPECT_EQ(red_engines.size(), 3u);
}

TEST_F(MatchTest, AFaultInAThreePlayerGameRanksTheOthersByScore) {
  const MatchResult result = Run(ThreePlayerOptions("--crash-at 3"));
  ASSERT_EQ(result.records.size(), 3u);
  for (const GameRecord& r : result.records) {
    EXPECT_EQ(r.reason, "crash");
    ASSERT_EQ(r.EngineAt(r.loser), "bad");
    ExpectConsistent(r);
    // The winners are the best of the two others by score.
    int best = -1;
    for (const auto& [colour, score] : r.scores) {
      if (colour != r.loser) best = std::max(best, score);
    }
    ASSERT_FALSE(r.winners.empty());
    for (const auto& [colour, score] : r.scores) {
      const bool won = std::find(r.winners.begin(), r.winners.end(), colour) !=
                       r.winners.end();
      EXPECT_FALSE(won && colour == r.loser);
      EXPECT_TRUE(!won || score == best) << colour << " won with " << score;
    }
  }
}

TEST_F(MatchTest, OpeningsFromAFileAreUsedInTurn) {
  // A move list, then a position string (sent with `setup`).
  const Position after = ResolveOpening(Rules(), "d4 c3 e5")->start;
  {
    std::ofstream file(Path("openings.txt"));
    file << "# two openings\n\nd4 c3\n" << PositionString(after) << "\n";
  }
  MatchOptions options = Options("--stderr-lines", 6);
  options.openings_file = Path("openings.txt");
  const MatchResult result = Run(options);
  ASSERT_EQ(result.records.size(), 6u);
  const std::vector<std::string> expected = {
      "d4 c3", "d4 c3", PositionString(after), PositionString(after),
      "d4 c3", "d4 c3"};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(result.records[i].opening, expected[i]);
    EXPECT_EQ(result.records[i].reason, "finished");
    ExpectConsistent(result.records[i]);
  }
  const std::string text = ReadFile(Path("engines.log"));
  EXPECT_TRUE(absl::StrContains(text, "setup " + PositionString(after)));
  EXPECT_TRUE(absl::StrContains(text, "play blue c3"));
  // An illegal opening is an error before any game.
  {
    std::ofstream file(Path("bad.txt"));
    file << "d4 d4\n";
  }
  options.openings_file = Path("bad.txt");
  std::ostringstream out;
  EXPECT_FALSE(RunMatch(options, out).ok());
}

TEST_F(MatchTest, RoundRobinOfThreeEngines) {
  MatchOptions options = Options("", 6);
  options.engines.push_back({"third", Mock("--seed 3")});
  options.concurrency = 2;
  const MatchResult result = Run(options);
  ASSERT_EQ(result.records.size(), 6u);
  const std::vector<HeadToHead> pairings =
      HeadToHeadStats(result.records, {"good", "bad", "third"});
  ASSERT_EQ(pairings.size(), 3u);
  for (const HeadToHead& h : pairings) {
    EXPECT_EQ(h.games.games(), 2);
    EXPECT_EQ(h.pairs.pairs(), 1);
  }
  EXPECT_EQ(pairings[2].first, "bad");
  EXPECT_EQ(pairings[2].second, "third");
  const std::string summary =
      Summary(result.records, {"good", "bad", "third"}, std::nullopt);
  EXPECT_TRUE(absl::StrContains(summary, "Rank  Engine"));
  EXPECT_TRUE(absl::StrContains(summary, "Score of bad vs third"));
}

TEST_F(MatchTest, MergeRefusesTwoDifferentResultsForOneGame) {
  MatchOptions options = Options("", 2);
  options.records_file = Path("a.jsonl");
  Run(options);
  std::vector<GameRecord> records = *ReadRecords(Path("a.jsonl"));
  records[0].winner = records[0].winner == "red" ? "blue" : "red";
  {
    std::ofstream file(Path("b.jsonl"));
    file << RecordToJson(records[0]) << "\n";
  }
  EXPECT_FALSE(MergeRecords({Path("a.jsonl"), Path("b.jsonl")}).ok());
  EXPECT_TRUE(MergeRecords({Path("a.jsonl"), Path("a.jsonl")}).ok());
}

// Two matches on other openings (other seeds) number the same games and
// sets: merged as shards they clash, renumbered they join file after file
// with every pair kept whole.
TEST_F(MatchTest, RenumberedMergeJoinsSeparateMatches) {
  std::vector<std::string> files;
  std::vector<GameRecord> played;
  for (uint64_t seed : {5, 6}) {
    MatchOptions options = Options("", 4);
    options.seed = seed;
    options.records_file = Path(absl::StrCat("seed", seed, ".jsonl"));
    const MatchResult result = Run(options);
    ASSERT_EQ(result.records.size(), 4u);
    played.insert(played.end(), result.records.begin(), result.records.end());
    files.push_back(options.records_file);
  }
  EXPECT_FALSE(MergeRecords(files).ok());
  absl::StatusOr<std::vector<GameRecord>> merged = MergeRecords(files, true);
  ASSERT_TRUE(merged.ok()) << merged.status();
  ASSERT_EQ(merged->size(), 8u);
  std::map<int, int> games_per_set;
  for (size_t i = 0; i < merged->size(); ++i) {
    const GameRecord& r = (*merged)[i];
    EXPECT_EQ(r.game, static_cast<int>(i) + 1);
    EXPECT_EQ(r.opening, played[i].opening);
    EXPECT_EQ(r.final_position, played[i].final_position);
    ++games_per_set[r.set];
  }
  EXPECT_EQ(games_per_set.size(), 4u);
  for (const auto& [set, games] : games_per_set) EXPECT_EQ(games, 2) << set;

  std::vector<std::string> args = {"merge", "--renumber"};
  args.insert(args.end(), files.begin(), files.end());
  std::ostringstream out, err;
  ASSERT_EQ(RefereeMain(args, out, err), 0) << err.str();
  EXPECT_TRUE(absl::StrContains(out.str(), "8 games from 2 files"));
  EXPECT_TRUE(absl::StrContains(out.str(), "4 pairs"));

  std::ostringstream help, help_err;
  ASSERT_EQ(RefereeMain({"merge", "--help"}, help, help_err), 0);
  EXPECT_TRUE(absl::StrContains(help.str(), "Merge options"));
  EXPECT_TRUE(absl::StrContains(help.str(), "not shards of one"));
}

TEST_F(MatchTest, SprtStopsWhenAHypothesisIsAccepted) {
  // The bad engine crashes at once in every game, so every pair is won
  // twice. With elo1 = 200 (s1 = 0.759747) n such pairs give LLR
  // 0.418890 n, nearly: 7 pairs 2.929162 < 2.944, 8 pairs 3.347539 (same
  // formula as stats_test), so the match stops after 16 of its 60 games.
  MatchOptions options = Options("--crash-at 1", 60);
  options.sprt = SprtParams{0, 200, 0.05, 0.05};
  const MatchResult result = Run(options);
  EXPECT_EQ(result.played, 16);
  ASSERT_TRUE(result.sprt.has_value());
  EXPECT_NEAR(result.sprt->llr, 3.347539, 1e-4);
  EXPECT_EQ(result.sprt->decision, SprtDecision::kAcceptH1);
}

TEST_F(MatchTest, ResumeAfterATruncatedWritePlaysOnlyTheMissingGames) {
  MatchOptions options = Options("", 6);
  options.records_file = Path("games.jsonl");
  const MatchResult full = Run(options);
  ASSERT_EQ(full.records.size(), 6u);
  // Keep games 1-3 and half of game 4's line, as a kill mid-write would.
  const std::vector<std::string> lines = ReadLines(options.records_file);
  ASSERT_EQ(lines.size(), 6u);
  {
    std::ofstream out(options.records_file, std::ios::trunc);
    for (int i = 0; i < 3; ++i) out << lines[i] << "\n";
    out << lines[3].substr(0, lines[3].size() / 2);
  }
  options.resume = true;
  const MatchResult resumed = Run(options);
  EXPECT_EQ(resumed.played, 3);
  absl::StatusOr<std::vector<GameRecord>> records =
      ReadRecords(options.records_file);
  ASSERT_TRUE(records.ok()) << records.status();
  std::multiset<int> games;
  for (const GameRecord& r : *records) games.insert(r.game);
  EXPECT_EQ(games, (std::multiset<int>{1, 2, 3, 4, 5, 6}));
  // Without --resume the referee refuses to overwrite the records.
  options.resume = false;
  std::ostringstream out;
  EXPECT_FALSE(RunMatch(options, out).ok());
}

TEST_F(MatchTest, ResumeChecksTheRecordsBelongToThisMatch) {
  MatchOptions options = Options("", 2);
  options.records_file = Path("games.jsonl");
  Run(options);
  options.engines[1].name = "other";
  options.resume = true;
  std::ostringstream out;
  EXPECT_FALSE(RunMatch(options, out).ok());
}

// The records without the move times, which differ from run to run.
std::vector<std::string> WithoutTimes(std::vector<GameRecord> records) {
  std::vector<std::string> lines;
  for (GameRecord& r : records) {
    for (MoveRecord& m : r.moves) m.ms = 0;
    lines.push_back(RecordToJson(r));
  }
  return lines;
}

TEST_F(MatchTest, MergedShardsEqualTheUnshardedMatch) {
  MatchOptions options = Options("--seed 11", 10);
  options.concurrency = 2;
  options.records_file = Path("all.jsonl");
  const MatchResult all = Run(options);
  ASSERT_EQ(all.records.size(), 10u);
  for (const GameRecord& r : all.records) EXPECT_EQ(r.reason, "finished");
  std::vector<std::string> files;
  std::set<int> sets_seen;
  for (int shard = 0; shard < 3; ++shard) {
    options.shard_index = shard;
    options.shard_count = 3;
    options.records_file = Path(absl::StrCat("shard", shard, ".jsonl"));
    const MatchResult part = Run(options);
    for (const GameRecord& r : part.records) {
      EXPECT_EQ(r.set % 3, shard);  // whole pairs, dealt in turn
      sets_seen.insert(r.set);
    }
    files.push_back(options.records_file);
  }
  EXPECT_EQ(sets_seen.size(), 5u);
  absl::StatusOr<std::vector<GameRecord>> merged = MergeRecords(files);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(WithoutTimes(*merged), WithoutTimes(all.records));

  // The merge command writes the same records and the same report.
  std::vector<std::string> args = {"merge"};
  args.insert(args.end(), files.begin(), files.end());
  args.insert(args.end(), {"--output", Path("merged.jsonl")});
  std::ostringstream out, err;
  ASSERT_EQ(RefereeMain(args, out, err), 0) << err.str();
  EXPECT_TRUE(absl::StrContains(out.str(), "10 games from 3 files"));
  EXPECT_TRUE(absl::StrContains(out.str(), "Score of good vs bad"));
  EXPECT_EQ(WithoutTimes(*ReadRecords(Path("merged.jsonl"))),
            WithoutTimes(all.records));
}

TEST_F(MatchTest, ReplayChecksAndPrintsAGame) {
  MatchOptions options = Options("", 2);
  options.records_file = Path("games.jsonl");
  const MatchResult result = Run(options);
  std::ostringstream boards, commands;
  ASSERT_TRUE(Replay(options.records_file, 2, false, boards).ok());
  EXPECT_TRUE(
      absl::StrContains(boards.str(), result.records[1].final_position));
  EXPECT_TRUE(absl::StrContains(boards.str(), "    a   b   c   d   e   f   g"));
  ASSERT_TRUE(Replay(options.records_file, 2, true, commands).ok());
  // newgame, the opening's plays, then one play per move.
  std::istringstream lines(commands.str());
  std::string line;
  int count = 0;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, "newgame " + result.records[1].rules);
  while (std::getline(lines, line)) {
    EXPECT_TRUE(absl::StartsWith(line, "play ")) << line;
    ++count;
  }
  EXPECT_EQ(count, 2 + static_cast<int>(result.records[1].moves.size()));
  std::ostringstream missing;
  EXPECT_FALSE(Replay(options.records_file, 99, false, missing).ok());
}

TEST(ScheduleTest, PairsSwapSeatsAndShareAnOpening) {
  const std::vector<GameSpec> games = BuildSchedule(2, 2, 6, false);
  ASSERT_EQ(games.size(), 6u);
  for (int i = 0; i < 6; i += 2) {
    EXPECT_EQ(games[i].set, games[i + 1].set);
    EXPECT_EQ(games[i].opening_round, games[i + 1].opening_round);
    EXPECT_EQ(games[i].seats, (std::vector<int>{0, 1}));
    EXPECT_EQ(games[i + 1].seats, (std::vector<int>{1, 0}));
  }
  EXPECT_NE(games[0].opening_round, games[2].opening_round);
}

TEST(ScheduleTest, RoundRobinAndGauntlet) {
  // 3 engines, 2 players: pairings (0,1), (0,2), (1,2).
  EXPECT_EQ(EngineGroups(3, 2, false),
            (std::vector<std::vector<int>>{{0, 1}, {0, 2}, {1, 2}}));
  EXPECT_EQ(EngineGroups(4, 2, true),
            (std::vector<std::vector<int>>{{0, 1}, {0, 2}, {0, 3}}));
  // One round: every pairing plays the round's opening.
  const std::vector<GameSpec> games = BuildSchedule(3, 2, 12, false);
  EXPECT_EQ(games[0].opening_round, games[5].opening_round);
  EXPECT_NE(games[0].opening_round, games[6].opening_round);
  EXPECT_EQ(games[2].seats, (std::vector<int>{0, 2}));
  // Four players: each engine takes each colour once per set.
  const std::vector<GameSpec> four = BuildSchedule(4, 4, 4, false);
  for (int colour = 0; colour < 4; ++colour) {
    std::set<int> engines;
    for (const GameSpec& g : four) engines.insert(g.seats[colour]);
    EXPECT_EQ(engines.size(), 4u);
  }
}

TEST(OpeningTest, MoveListsAndPositionsAreCheckedByTheReferee) {
  const Rules rules;
  absl::StatusOr<Opening> moves = ResolveOpening(rules, "d4 c3");
  ASSERT_TRUE(moves.ok()) << moves.status();
  EXPECT_EQ(moves->commands,
            (std::vector<std::string>{"play red d4", "play blue c3"}));
  EXPECT_FALSE(ResolveOpening(rules, "d4 d4").ok());  // occupied
  EXPECT_FALSE(ResolveOpening(rules, "b2").ok());     // a fixed stone
  EXPECT_FALSE(ResolveOpening(rules, "zz9").ok());    // not a move
  absl::StatusOr<Opening> position =
      ResolveOpening(rules, PositionString(moves->start));
  ASSERT_TRUE(position.ok()) << position.status();
  EXPECT_EQ(position->start, moves->start);
  EXPECT_TRUE(absl::StartsWith(position->commands.at(0), "setup "));
  // Random openings are reproducible from (seed, round).
  EXPECT_EQ(RandomOpening(rules, 5, 3, 4).text,
            RandomOpening(rules, 5, 3, 4).text);
  EXPECT_NE(RandomOpening(rules, 5, 3, 4).text,
            RandomOpening(rules, 5, 4, 4).text);
}

TEST(CliTest, BadFlagsGiveAOneLineErrorAndUsageWithStatus2) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"--bogus"},
           {"--engine", "a", "--engine", "b", "--games", "many"},
           {"--engine", "a", "--engine", "b", "--shard", "3/2"},
           {"--engine", "a", "--engine", "b", "--tc", "1+x"},
           {"--engine", "a", "--engine", "b", "--sprt", "5,0,0.05,0.05"},
           {"--engine", "a", "--engine", "b", "--rules", "players=5"},
           {"--engine", "a", "--engine", "b", "--timeout-rule", "never"},
           {"--engine", "a"},
           {"replay"},
       }) {
    std::ostringstream out, err;
    EXPECT_EQ(RefereeMain(args, out, err), 2) << args[0];
    const std::string text = err.str();
    EXPECT_TRUE(absl::StartsWith(text, "wallgo-referee: ")) << text;
    const std::string first = text.substr(0, text.find('\n'));
    EXPECT_TRUE(absl::StartsWith(text.substr(first.size() + 1), "usage:"));
  }
}

TEST(CliTest, EngineNames) {
  const std::vector<EngineSpec> engines = NameEngines(
      {"name=alpha:./wallgo --level 3", "/usr/bin/wallgo", "wallgo x"});
  ASSERT_EQ(engines.size(), 3u);
  EXPECT_EQ(engines[0].name, "alpha");
  EXPECT_EQ(engines[0].command, "./wallgo --level 3");
  EXPECT_EQ(engines[1].name, "wallgo");
  EXPECT_EQ(engines[2].name, "wallgo-2");
}

// The binary itself, killed in the middle of a match, then resumed: the
// resumed run plays exactly the missing games and keeps the finished ones.
TEST_F(MatchTest, ResumeAfterKillingTheReferee) {
  const std::string records = Path("games.jsonl");
  const std::vector<std::string> args = {
      REFEREE,
      "--engine",
      "name=a:" + Mock("--delay-ms 3"),
      "--engine",
      "name=b:" + Mock("--delay-ms 3 --seed 9"),
      "--games",
      "8",
      "--quiet",
      "--records",
      records,
      "--engine-log",
      Path("engines.log")};
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid;
  ASSERT_EQ(posix_spawn(&pid, REFEREE, nullptr, nullptr, argv.data(), environ),
            0);
  auto count_lines = [&] { return ReadLines(records).size(); };
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count_lines() < 3u && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGKILL);
  int status;
  waitpid(pid, &status, 0);
  const std::vector<std::string> before = ReadLines(records);
  ASSERT_GE(before.size(), 3u);
  ASSERT_LT(before.size(), 8u) << "the match ended before the kill";

  std::vector<std::string> resume(args.begin() + 1, args.end());
  resume.push_back("--resume");
  std::ostringstream out, err;
  ASSERT_EQ(RefereeMain(resume, out, err), 0) << err.str();
  const std::vector<std::string> after = ReadLines(records);
  ASSERT_EQ(after.size(), 8u);
  // The finished games are kept as they were (a line cut by the kill is
  // dropped and replayed).
  const size_t kept =
      before.back().back() == '}' ? before.size() : before.size() - 1;
  for (size_t i = 0; i < kept; ++i) EXPECT_EQ(after[i], before[i]);
  std::multiset<int> games;
  for (const std::string& line : after)
    games.insert(RecordFromJson(line)->game);
  EXPECT_EQ(games, (std::multiset<int>{1, 2, 3, 4, 5, 6, 7, 8}));
}

}  // namespace
}  // namespace wallgo::referee
