// The engine client's streamed commands (analyze): lines arrive while the
// engine searches, the next command ends the stream, and a stream never
// swallows or confuses the answers that follow.
#include <chrono>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tools/client/engine_process.h"

namespace wallgo::client {
namespace {

SteadyClock::time_point In(int ms) {
  return SteadyClock::now() + std::chrono::milliseconds(ms);
}

class StreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_ = *EngineLog::Open("");
    engine_ = *EngineProcess::Spawn(MOCK_ENGINE, "mock", log_.get());
    ASSERT_TRUE(engine_->Ask("newgame", In(5000)).success);
  }
  std::unique_ptr<EngineLog> log_;
  std::unique_ptr<EngineProcess> engine_;
};

TEST_F(StreamTest, LinesComeUntilTheNextCommandEndsTheStream) {
  const Reply head = engine_->StartStream("analyze 2", In(5000));
  ASSERT_EQ(head.fault, Fault::kNone) << head.detail;
  EXPECT_TRUE(head.success);
  EXPECT_TRUE(engine_->streaming());
  int info = 0;
  while (info < 7) {  // more than one report of three lines
    const EngineProcess::StreamLine next = engine_->ReadStream(In(2000));
    ASSERT_EQ(next.reply.fault, Fault::kNone) << next.reply.detail;
    ASSERT_FALSE(next.ended);
    if (next.idle) continue;
    EXPECT_TRUE(absl::StartsWith(next.line, "info move ")) << next.line;
    ++info;
  }
  // The next command ends the stream; its own answer is read intact.
  const Reply name = engine_->Ask("name", In(5000));
  ASSERT_EQ(name.fault, Fault::kNone) << name.detail;
  EXPECT_EQ(name.text, "mock");
  EXPECT_FALSE(engine_->streaming());
  EXPECT_EQ(engine_->Ask("protocol_version", In(5000)).text, "2");
}

TEST_F(StreamTest, NoLineYetIsIdleNotAFault) {
  ASSERT_TRUE(engine_->StartStream("analyze 500", In(5000)).success);
  int lines = 0;
  EngineProcess::StreamLine next;
  do {  // the first report, then five seconds of silence
    next = engine_->ReadStream(In(300));
    lines += !next.idle;
  } while (!next.idle);
  EXPECT_EQ(next.reply.fault, Fault::kNone);
  EXPECT_GE(lines, 1);
  EXPECT_EQ(engine_->Ask("name", In(5000)).text, "mock");
}

TEST_F(StreamTest, ARefusedStreamIsAWholeAnswer) {
  const Reply head = engine_->StartStream("analyze -1", In(5000));
  ASSERT_EQ(head.fault, Fault::kNone);
  EXPECT_FALSE(head.success);
  EXPECT_FALSE(engine_->streaming());
  EXPECT_EQ(engine_->Ask("name", In(5000)).text, "mock");
}

TEST_F(StreamTest, AnEngineThatDiesWhileStreamingIsACrash) {
  ASSERT_TRUE(engine_->StartStream("analyze 5", In(5000)).success);
  kill(engine_->pid(), SIGKILL);
  EngineProcess::StreamLine next;
  do next = engine_->ReadStream(In(2000));
  while (next.reply.fault == Fault::kNone && !next.ended);
  EXPECT_EQ(next.reply.fault, Fault::kCrash);
}

}  // namespace
}  // namespace wallgo::client
