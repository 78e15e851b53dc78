#include "tools/client/engine_process.h"

#include <cerrno>
#include <cstring>
#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace wallgo::client {
namespace {

// A line longer than this is garbage, not an answer.
constexpr size_t kMaxLine = 1 << 20;

// Parses the first line of an answer: '=' or '?', an optional id, then a
// space or the end. Returns the fault detail, empty when well formed.
std::string ParseAnswerHead(const std::string& line, int expected_id,
                            Reply& reply) {
  if (line.empty() || (line[0] != '=' && line[0] != '?')) {
    return absl::StrCat("output that is not an answer: '", line.substr(0, 80),
                        "'");
  }
  reply.success = line[0] == '=';
  size_t pos = 1;
  while (pos < line.size() && absl::ascii_isdigit(line[pos])) ++pos;
  if (pos > 1) {
    int id = 0;
    if (!absl::SimpleAtoi(line.substr(1, pos - 1), &id) || id != expected_id) {
      return absl::StrCat("answer id ", line.substr(1, pos - 1),
                          " to command id ", expected_id);
    }
  }
  if (pos < line.size() && line[pos] != ' ') {
    return absl::StrCat("malformed answer: '", line.substr(0, 80), "'");
  }
  reply.text = std::string(absl::StripAsciiWhitespace(line.substr(pos)));
  return "";
}

}  // namespace

absl::StatusOr<std::unique_ptr<EngineLog>> EngineLog::Open(
    const std::string& path) {
  std::FILE* file = nullptr;
  if (!path.empty()) {
    file = std::fopen(path.c_str(), "ae");
    if (file == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot open engine log ", path, ": ", std::strerror(errno)));
    }
  }
  return std::unique_ptr<EngineLog>(new EngineLog(file));
}

EngineLog::~EngineLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void EngineLog::Write(std::string_view prefix, std::string_view line) {
  if (file_ == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::fprintf(file_, "[%.*s] %.*s\n", static_cast<int>(prefix.size()),
               prefix.data(), static_cast<int>(line.size()), line.data());
  std::fflush(file_);
}

absl::StatusOr<std::unique_ptr<EngineProcess>> EngineProcess::Spawn(
    const std::string& command, const std::string& name, EngineLog* log) {
  absl::StatusOr<std::unique_ptr<EngineChannel>> channel =
      OpenEngineChannel(command, name, log);
  if (!channel.ok()) return channel.status();
  return std::make_unique<EngineProcess>(*std::move(channel));
}

Reply EngineProcess::ReadLine(SteadyClock::time_point deadline,
                              std::string& line) {
  for (;;) {
    const size_t eol = pending_.find('\n');
    if (eol != std::string::npos) {
      line = pending_.substr(0, eol);
      pending_.erase(0, eol + 1);
      std::erase(line, '\r');
      return Reply{};
    }
    if (pending_.size() > kMaxLine) {
      return FaultReply(Fault::kFraming, "an output line longer than 1 MiB");
    }
    Reply read = channel_->Read(pending_, deadline);
    if (read.fault != Fault::kNone) return read;
  }
}

Reply EngineProcess::SendAndReadHead(std::string_view command,
                                     SteadyClock::time_point deadline) {
  if (!alive()) return FaultReply(Fault::kCrash, "not running");
  const int id = next_id_++;
  Reply reply = channel_->Write(
      absl::StrCat(id, " ", std::string(command), "\n"), deadline);
  if (reply.fault != Fault::kNone) return reply;
  std::string line;
  // The command just sent ends an open stream: drop the rest of it.
  while (streaming_) {
    reply = ReadLine(deadline, line);
    if (reply.fault != Fault::kNone) return reply;
    if (line.empty()) streaming_ = false;
  }
  do {  // empty lines before an answer are tolerated, as GTP controllers do
    reply = ReadLine(deadline, line);
    if (reply.fault != Fault::kNone) return reply;
  } while (line.empty());
  const std::string bad = ParseAnswerHead(line, id, reply);
  if (!bad.empty()) return FaultReply(Fault::kFraming, bad);
  return reply;
}

Reply EngineProcess::Ask(std::string_view command,
                         SteadyClock::time_point deadline) {
  Reply reply = SendAndReadHead(command, deadline);
  if (reply.fault != Fault::kNone) return reply;
  std::string line;
  for (;;) {
    Reply next = ReadLine(deadline, line);
    if (next.fault != Fault::kNone) return next;
    if (line.empty()) return reply;
    absl::StrAppend(&reply.text, "\n", line);
  }
}

Reply EngineProcess::StartStream(std::string_view command,
                                 SteadyClock::time_point deadline) {
  Reply reply = SendAndReadHead(command, deadline);
  // A failure ('?') is a whole answer: its empty line ends it at once.
  if (reply.fault == Fault::kNone) streaming_ = true;
  if (reply.fault == Fault::kNone && !reply.success) {
    StreamLine rest;
    do rest = ReadStream(deadline);
    while (rest.reply.fault == Fault::kNone && !rest.ended && !rest.idle);
    if (rest.reply.fault != Fault::kNone) return rest.reply;
  }
  return reply;
}

EngineProcess::StreamLine EngineProcess::ReadStream(
    SteadyClock::time_point deadline) {
  StreamLine out;
  if (!streaming_) {
    out.ended = true;
    return out;
  }
  out.reply = ReadLine(deadline, out.line);
  if (out.reply.fault == Fault::kTimeout) {
    out.reply = Reply{};
    out.idle = true;
  } else if (out.reply.fault == Fault::kNone && out.line.empty()) {
    streaming_ = false;
    out.ended = true;
  }
  return out;
}

void EngineProcess::Quit(std::chrono::milliseconds grace) {
  if (!alive()) return;
  const auto deadline = SteadyClock::now() + grace;
  Ask("quit", deadline);
  channel_->WaitEnded(deadline);
  Kill();
}

}  // namespace wallgo::client
