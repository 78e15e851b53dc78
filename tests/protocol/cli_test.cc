// The `wallgo` command line and its one-shot jobs, through the real binary.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "common/version/version.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/protocol/run_binary.h"

namespace wallgo::protocol::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string FirstLine(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

std::filesystem::path TempFile(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         (name + "_" + std::to_string(::getpid()));
}

TEST(CliTest, BadFlagsAndValuesExitWithStatusTwoAndAOneLineError) {
  const struct {
    const char* args;
    const char* error;
  } cases[] = {
      {"--bogus", "wallgo: unrecognised option '--bogus'"},
      {"--threads 0", "wallgo: threads must be in 1..256, not 0"},
      {"--movetime soon", "wallgo: movetime must be a number, not 'soon'"},
      {"--level",
       "wallgo: the required argument for option '--level' is missing"},
      {"perft 2 3",
       "wallgo: unexpected argument '3' (jobs: perft [DEPTH], bench, "
       "speedtest, analysis)"},
      {"dance",
       "wallgo: unexpected argument 'dance' (jobs: perft [DEPTH], bench, "
       "speedtest, analysis)"},
      {"speedtest --seconds 0", "wallgo: --seconds must be in (0, 3600]"},
      {"--seconds 2", "wallgo: --seconds belongs to the speedtest job"},
      {"speedtest --rounds 0", "wallgo: --rounds must be in [1, 1000]"},
      {"bench --rounds 2", "wallgo: --rounds belongs to the speedtest job"},
      {"--depth 3",
       "wallgo: --depth, --position, --rules, --moves and --divide "
       "belong to the perft job"},
      {"perft --position nonsense",
       "wallgo: invalid position: syntax error: expected key=value, got "
       "'nonsense'"},
      {"--config /nonexistent/wallgo.cfg",
       "wallgo: config file /nonexistent/wallgo.cfg: can not read options "
       "configuration file '/nonexistent/wallgo.cfg'"},
  };
  for (const auto& c : cases) {
    const RunResult run = RunWallgo(c.args, "");
    EXPECT_EQ(run.exit_code, 2) << c.args;
    EXPECT_EQ(FirstLine(run.err), c.error) << c.args;
    EXPECT_THAT(run.err, HasSubstr("\nUsage: wallgo")) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
}

// eval=net and eval=hybrid use the built-in weights unless --weights names
// a file; a file that cannot be used is an error at start, never a crash
// or a silently weaker engine.
TEST(CliTest, EveryEvaluationPlaysAndBadWeightsStopTheStart) {
  for (const char* eval : {"classic", "net", "hybrid"}) {
    const RunResult run =
        RunWallgo(std::string("--visits 60 --eval ") + eval,
                  "get_option eval\nplay red c3\nplay blue e5\nplay blue c5\n"
                  "play red e3\ngenmove red\ngenmove blue\n");
    EXPECT_EQ(run.exit_code, 0) << eval << run.err;
    std::vector<std::string> answers = absl::StrSplit(run.out, "\n\n");
    ASSERT_EQ(answers.size(), 8u) << eval << run.out;
    EXPECT_EQ(answers[0], std::string("= ") + eval);
    EXPECT_THAT(answers[5], StartsWith("= ")) << eval;
    EXPECT_THAT(answers[6], StartsWith("= ")) << eval;
  }
  const std::string weights =
      ReadWholeFile(WALLGO_SOURCE_DIR "/search/net/weights/wallgo-net-1.wgn");
  ASSERT_GT(weights.size(), 1000u);
  const std::filesystem::path file = TempFile("wallgo_weights");
  WriteWholeFile(file, weights);
  const RunResult good = RunWallgo(
      "--eval net --visits 30 --weights " + file.string(), "genmove red\n");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_THAT(good.out, StartsWith("= "));

  std::string corrupt = weights;
  corrupt[corrupt.size() / 2] ^= 0x40;
  std::string future = weights;
  future[8] = 9;  // the format version, a little-endian u32 at byte 8
  const struct {
    std::string contents;
    std::string error;
  } cases[] = {
      {weights.substr(0, 1000), "truncated: 1000 bytes"},
      {corrupt, "checksum"},
      {future, "version 9, this build reads version 1"},
      {"not a network at all, but long enough to hold a header: "
       "0123456789",
       "bad magic"},
  };
  for (const auto& c : cases) {
    WriteWholeFile(file, c.contents);
    for (const char* flag : {"--weights ", "--weights-multi "}) {
      const RunResult bad = RunWallgo(flag + file.string(), "name\n");
      EXPECT_EQ(bad.exit_code, 2) << flag << c.error;
      EXPECT_THAT(FirstLine(bad.err),
                  StartsWith("wallgo: weights file " + file.string() + ": "));
      EXPECT_THAT(FirstLine(bad.err), HasSubstr(c.error));
      EXPECT_EQ(bad.out, "");
    }
  }
  std::filesystem::remove(file);
  const RunResult missing = RunWallgo("--weights /nonexistent/w.wgn", "");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(FirstLine(missing.err),
            "wallgo: cannot open weights file /nonexistent/w.wgn: No such "
            "file or directory");
}

TEST(CliTest, HelpAndVersion) {
  const RunResult help = RunWallgo("--help", "");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, StartsWith("Usage: wallgo"));
  for (const char* flag :
       {"--threads", "--visits", "--movetime", "--hash", "--seed", "--level",
        "--config", "--log", "--depth", "--position", "--moves", "--divide",
        "--eval", "--weights"}) {
    EXPECT_THAT(help.out, HasSubstr(flag));
  }
  const RunResult version = RunWallgo("--version", "");
  EXPECT_EQ(version.exit_code, 0);
  // The line names this build's version and commit (common/version).
  EXPECT_EQ(version.out, VersionLine("wallgo") + "\n");
  EXPECT_THAT(version.out,
              StartsWith("wallgo " + std::string(Version()) + " (commit "));
}

TEST(CliTest, FlagsAndTheConfigFileSetTheOptionsFlagsWinning) {
  const std::filesystem::path config = TempFile("wallgo_config");
  WriteWholeFile(config, "# search options\nvisits = 77\nlevel = 4\n");
  const RunResult run =
      RunWallgo("--config " + config.string() + " --level 6 --seed 9",
                "get_option visits\nget_option level\nget_option seed\n");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "= 77\n\n= 6\n\n= 9\n\n");
  WriteWholeFile(config, "visits = lots\n");
  const RunResult bad = RunWallgo("--config " + config.string(), "");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(FirstLine(bad.err),
            "wallgo: visits must be an integer, not 'lots'");
  std::filesystem::remove(config);
}

TEST(CliTest, LogFileGetsTheTranscriptAndStdoutOnlyAnswers) {
  const std::filesystem::path log = TempFile("wallgo_log");
  std::filesystem::remove(log);
  const RunResult run =
      RunWallgo("--visits 5 --log " + log.string(), "name\ngenmove red\n");
  EXPECT_EQ(run.exit_code, 0);
  std::vector<std::string> answers = absl::StrSplit(run.out, "\n\n");
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0], "= wallgo");
  EXPECT_THAT(answers[1], StartsWith("= "));
  const std::string transcript = ReadWholeFile(log);
  EXPECT_THAT(transcript, HasSubstr("< name\n> = wallgo\n"));
  EXPECT_THAT(transcript, HasSubstr("< genmove red\n# genmove red: "));
  EXPECT_THAT(run.err, HasSubstr("genmove red: "));  // events on stderr
  std::filesystem::remove(log);
}

TEST(CliTest, PerftJobCountsLikeTheProtocolAndDivides) {
  const RunResult gtp = RunWallgo("", "perft 3\n");
  ASSERT_THAT(gtp.out, StartsWith("= "));
  const std::string count = gtp.out.substr(2, gtp.out.find('\n') - 2);
  const RunResult job = RunWallgo("perft 3", "");
  EXPECT_EQ(job.exit_code, 0);
  EXPECT_EQ(FirstLine(job.out), "perft 3: " + count);
  EXPECT_THAT(job.out, HasSubstr(" leaves/s\n"));

  const RunResult divide =
      RunWallgo("perft --depth 2 --divide --moves \"d4 c3 e5 a1\"", "");
  EXPECT_EQ(divide.exit_code, 0) << divide.err;
  uint64_t sum = 0;
  std::string total_line;
  for (absl::string_view line : absl::StrSplit(divide.out, '\n')) {
    std::vector<std::string> words = absl::StrSplit(line, ' ');
    uint64_t n = 0;
    if (words.size() == 2 && absl::SimpleAtoi(words[1], &n)) sum += n;
    if (absl::StartsWith(line, "perft 2: ")) total_line = std::string(line);
  }
  EXPECT_EQ(total_line, "perft 2: " + std::to_string(sum));
  const RunResult same = RunWallgo(
      "perft 2 --position \"players=2 setup=fourstone stay=always "
      "wall-limit=unlimited breakers=0 turn=red red=a1,b2,d4,f6 "
      "blue=f2,c3,e5,b6 red-walls= blue-walls=\"",
      "");
  EXPECT_EQ(FirstLine(same.out), total_line);
  const RunResult illegal = RunWallgo("perft 1 --moves \"d4 d4\"", "");
  EXPECT_EQ(illegal.exit_code, 2);
  EXPECT_THAT(FirstLine(illegal.err), StartsWith("wallgo: illegal move: d4"));
}

// The table's shape at a small size: a title, the header, one row per
// thread count (1 and 2), and the summary line.
TEST(CliTest, SpeedtestPrintsATableAndASummaryLine) {
  const RunResult run =
      RunWallgo("speedtest --threads 2 --seconds 0.2 --eval classic", "");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> lines =
      absl::StrSplit(run.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 5u) << run.out;
  EXPECT_THAT(lines[0], StartsWith("speedtest: up to 2 threads"));
  EXPECT_THAT(lines[1],
              ::testing::MatchesRegex(" *threads +playouts/s +"
                                      "speed-up +ceiling/s +ceiling "
                                      "+share +cpu us/po +ceil us/po"));
  EXPECT_THAT(lines[2], ::testing::MatchesRegex(
                            " +1 +[1-9][0-9]* +1.00x +- +- +- +[0-9.]+ +-"));
  EXPECT_THAT(lines[3],
              ::testing::MatchesRegex(" +2 +[1-9][0-9]* +[0-9.]+x +[1-9][0-9]* "
                                      "+[0-9.]+x +[0-9]+% +[0-9.]+ +[0-9.]+"));
  EXPECT_THAT(lines[4], ::testing::MatchesRegex(
                            "speedtest: 2 threads [0-9.]+x of 1 thread, "
                            "ceiling [0-9.]+x, efficiency [0-9]+%"));
}

TEST(CliTest, BenchPrintsARepeatableNodeSignature) {
  const RunResult first = RunWallgo("bench --visits 30", "");
  const RunResult second = RunWallgo("bench --visits 30", "");
  EXPECT_EQ(first.exit_code, 0) << first.err;
  const auto nodes_line = [](const std::string& out) {
    for (absl::string_view line : absl::StrSplit(out, '\n')) {
      if (absl::StartsWith(line, "nodes ")) return std::string(line);
    }
    return std::string("no nodes line");
  };
  EXPECT_THAT(nodes_line(first.out),
              ::testing::MatchesRegex("nodes [1-9][0-9]*"));
  EXPECT_EQ(nodes_line(first.out), nodes_line(second.out));
  EXPECT_THAT(first.out, HasSubstr("nodes/second "));
}

TEST(CliTest, QuitAndEndOfInputStopARealSearchPromptly) {
  for (const char* ending : {"quit\n", ""}) {
    const absl::Time start = absl::Now();
    const RunResult run =
        RunWallgo("--movetime 600", std::string("genmove red\n") + ending);
    EXPECT_LT(absl::Now() - start, absl::Seconds(10)) << "ending: " << ending;
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_THAT(run.out, StartsWith("= "));
  }
  const absl::Time start = absl::Now();
  const RunResult analyze = RunWallgo("", "analyze 10\n");
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_THAT(analyze.out, StartsWith("=\n"));
  EXPECT_THAT(analyze.out, ::testing::EndsWith("\n\n"));
}

}  // namespace
}  // namespace wallgo::protocol::testing
