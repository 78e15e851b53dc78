// common/batch: the shared --shard parser, whole-line files and the stop on
// SIGTERM/SIGINT.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/batch/line_file.h"
#include "common/batch/preemption.h"
#include "common/batch/shard.h"
#include "gtest/gtest.h"

namespace wallgo::batch {
namespace {

TEST(ShardTest, ParsesOneBasedIntoZeroBased) {
  absl::StatusOr<Shard> shard = ParseShard("2/3");
  ASSERT_TRUE(shard.ok());
  EXPECT_EQ(shard->index, 1);
  EXPECT_EQ(shard->count, 3);
  EXPECT_TRUE(shard->Has(4));
  EXPECT_FALSE(shard->Has(3));
}

TEST(ShardTest, RejectsWhatIsNotIOverN) {
  for (const char* bad : {"0/3", "4/3", "1/0", "1", "a/b", "1/2/3", ""}) {
    absl::StatusOr<Shard> shard = ParseShard(bad);
    ASSERT_FALSE(shard.ok()) << bad;
    EXPECT_NE(shard.status().message().find("--shard"), std::string::npos);
  }
}

std::string Contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(LineFileTest, ResumeDropsACutShortLastLine) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("line_file_test." + std::to_string(getpid())))
                               .string();
  std::filesystem::remove(path);
  {
    auto file = LineFile::Open(path, false, "answers file");
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append("{\"a\":1}").ok());
  }
  std::ofstream(path, std::ios::app) << "{\"cut";
  EXPECT_FALSE(LineFile::Open(path, false, "answers file").ok());
  {
    auto file = LineFile::Open(path, true, "answers file");
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append("{\"b\":2}").ok());
  }
  EXPECT_EQ(Contents(path), "{\"a\":1}\n{\"b\":2}\n");
  std::filesystem::remove(path);
}

TEST(StopOnSignalsTest, SigtermRequestsTheStop) {
  StopOnSignals stop;
  EXPECT_FALSE(stop.stopped());
  kill(getpid(), SIGTERM);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!stop.stopped() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(stop.token().stop_requested());
  EXPECT_EQ(stop.signal(), SIGTERM);
}

TEST(StopOnSignalsTest, CallbacksRunOnSigint) {
  StopOnSignals stop;
  std::atomic<bool> called{false};
  std::stop_callback callback(stop.token(), [&] { called = true; });
  kill(getpid(), SIGINT);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!called && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(called);
  EXPECT_EQ(stop.signal(), SIGINT);
}

}  // namespace
}  // namespace wallgo::batch
