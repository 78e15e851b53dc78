#include "tools/gui/engine_worker.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/notation.h"

namespace wallgo::gui {
namespace {

using client::Fault;
using client::Reply;
using client::SteadyClock;

SteadyClock::time_point In(double seconds) {
  return SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                  std::chrono::duration<double>(seconds));
}

std::string FaultText(const Reply& reply) {
  switch (reply.fault) {
    case Fault::kCrash:
      return absl::StrCat("crashed (", reply.detail, ")");
    case Fault::kTimeout:
      return absl::StrCat("hangs (", reply.detail, ")");
    case Fault::kFraming:
      return absl::StrCat("answers garbage (", reply.detail, ")");
    case Fault::kNone:
      break;
  }
  return absl::StrCat("refused it: ", reply.text);
}

// Whether `prefix` is the first moves of `moves`.
bool IsPrefix(const std::vector<PlayedMove>& prefix,
              const std::vector<PlayedMove>& moves) {
  if (prefix.size() > moves.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (prefix[i].colour != moves[i].colour ||
        !(prefix[i].move == moves[i].move)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<Candidate> ParseInfoLine(const std::string& line) {
  const std::vector<std::string> words =
      absl::StrSplit(line, ' ', absl::SkipWhitespace());
  if (words.size() < 3 || words[0] != "info") return std::nullopt;
  Candidate c;
  bool have_move = false;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& key = words[i];
    if (key == "pv") {  // moves only: the line goes to a web page
      for (size_t j = i + 1; j < words.size() && ParseMove(words[j]).ok();
           ++j) {
        c.pv.push_back(words[j]);
      }
      break;
    }
    if (i + 1 >= words.size()) return std::nullopt;
    const std::string& value = words[++i];
    bool ok = true;
    if (key == "move") {
      ok = ParseMove(value).ok();
      c.move = value;
      have_move = true;
    } else if (key == "visits") {
      ok = absl::SimpleAtoi(value, &c.visits);
    } else if (key == "winrate") {
      ok = absl::SimpleAtod(value, &c.winrate);
    } else if (key == "score") {
      ok = absl::SimpleAtod(value, &c.score);
    }  // other keys are another engine's extras: skipped
    if (!ok) return std::nullopt;
  }
  if (!have_move) return std::nullopt;
  return c;
}

std::string StateName(EngineState state) {
  switch (state) {
    case EngineState::kStarting:
      return "starting";
    case EngineState::kReady:
      return "ready";
    case EngineState::kThinking:
      return "thinking";
    case EngineState::kAnalysing:
      return "analysing";
    case EngineState::kFailed:
      return "failed";
  }
  return "";
}

EngineWorker::EngineWorker(std::string name, std::string command,
                           client::EngineLog* log, WorkerTimeouts timeouts,
                           Callbacks callbacks)
    : name_(std::move(name)),
      command_(std::move(command)),
      log_(log),
      timeouts_(timeouts),
      callbacks_(std::move(callbacks)) {
  thread_ = std::thread([this] { Run(); });
}

EngineWorker::~EngineWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void EngineWorker::Want(std::optional<EngineJob> move,
                        std::optional<EngineJob> analysis) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    move_job_ = std::move(move);
    analysis_job_ = std::move(analysis);
  }
  wake_.notify_all();
}

void EngineWorker::Restart() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    restart_ = true;
  }
  wake_.notify_all();
}

EngineStatus EngineWorker::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

void EngineWorker::SetStatus(EngineState state, std::string detail) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    status_.state = state;
    status_.detail = std::move(detail);
    status_.pid =
        process_ != nullptr && process_->alive() ? process_->pid() : 0;
  }
  callbacks_.on_status();
}

void EngineWorker::Fail(const std::string& what, const Reply& reply) {
  if (process_ != nullptr) process_->Kill();
  synced_.reset();
  SetStatus(EngineState::kFailed, absl::StrCat(what, ": ", FaultText(reply)));
}

bool EngineWorker::Start() {
  if (process_ != nullptr) process_->Kill();
  process_.reset();
  synced_.reset();
  sent_options_.clear();
  default_options_.clear();
  SetStatus(EngineState::kStarting, "");
  absl::StatusOr<std::unique_ptr<client::EngineProcess>> started =
      client::EngineProcess::Spawn(command_, name_, log_);
  if (!started.ok()) {
    SetStatus(EngineState::kFailed,
              absl::StrCat("cannot start: ", started.status().message()));
    return false;
  }
  process_ = std::move(*started);
  // The first exchange shows whether the command is an engine at all.
  const Reply reply =
      process_->Ask("protocol_version", In(timeouts_.command_s));
  if (reply.fault != Fault::kNone) {
    Fail("protocol_version", reply);
    return false;
  }
  for (const char* option : {"level", "movetime", "visits"}) {
    const Reply value = process_->Ask(absl::StrCat("get_option ", option),
                                      In(timeouts_.command_s));
    if (value.fault != Fault::kNone) {
      Fail("get_option", value);
      return false;
    }
    if (value.success) default_options_[option] = value.text;
  }
  sent_options_ = default_options_;
  SetStatus(EngineState::kReady, "");
  return true;
}

bool EngineWorker::Command(const std::string& command) {
  const Reply reply = process_->Ask(command, In(timeouts_.command_s));
  if (reply.fault != Fault::kNone || !reply.success) {
    Fail(command, reply);
    return false;
  }
  return true;
}

bool EngineWorker::Sync(const EngineJob& job) {
  const bool extends = synced_.has_value() && synced_->start() == job.start &&
                       IsPrefix(synced_->moves(), job.moves);
  size_t first = extends ? synced_->moves().size() : 0;
  if (!extends) {
    synced_.reset();
    absl::StatusOr<Position> fresh = Position::Start(job.start.rules());
    const bool from_start = fresh.ok() && *fresh == job.start;
    if (!Command(from_start ? "newgame " + RulesString(job.start.rules())
                            : "setup " + PositionString(job.start))) {
      return false;
    }
    synced_.emplace(job.start);
  }
  for (size_t i = first; i < job.moves.size(); ++i) {
    const PlayedMove& m = job.moves[i];
    if (!Command(absl::StrCat("play ", ColourName(m.colour), " ",
                              MoveName(m.move)))) {
      return false;
    }
    synced_->Play(m.move).IgnoreError();  // checked by the bridge's game
  }
  return true;
}

void EngineWorker::SendSettings(const SeatSettings& s) {
  std::map<std::string, std::string> wanted = default_options_;
  if (s.level > 0) wanted["level"] = absl::StrCat(s.level);
  if (s.movetime >= 0) wanted["movetime"] = absl::StrCat(s.movetime);
  if (s.visits >= 0) wanted["visits"] = absl::StrCat(s.visits);
  wanted["clock"] = absl::StrCat(s.clock);
  std::string refused;
  for (const auto& [option, value] : wanted) {
    if (sent_options_[option] == value) continue;
    const std::string command =
        option == "clock" ? absl::StrCat("time_settings ", value, " 0 0")
                          : absl::StrCat("set_option ", option, " ", value);
    const Reply reply = process_->Ask(command, In(timeouts_.command_s));
    if (reply.fault != Fault::kNone) return Fail(command, reply);
    // Another author's engine may not have an option: it plays anyway.
    if (!reply.success)
      absl::StrAppend(&refused, command, ": ", reply.text, "; ");
    sent_options_[option] = value;
  }
  if (!refused.empty()) SetStatus(status().state, "ignored " + refused);
}

void EngineWorker::PlayMove(const EngineJob& job) {
  SetStatus(EngineState::kThinking, "");
  if (!Sync(job)) {
    return callbacks_.on_move(job.token,
                              absl::UnavailableError(status().detail), 0);
  }
  SendSettings(job.settings);
  if (process_ == nullptr || !process_->alive()) {
    return callbacks_.on_move(job.token,
                              absl::UnavailableError(status().detail), 0);
  }
  const Colour colour = synced_->shown().position().to_move();
  double budget =
      job.settings.movetime > 0 ? job.settings.movetime : timeouts_.max_think_s;
  if (job.settings.clock > 0) {
    const double left = std::max(job.clock_left, 0.0);
    const std::string command =
        absl::StrCat("time_left ", ColourName(colour), " ", left, " 0");
    const Reply reply = process_->Ask(command, In(timeouts_.command_s));
    if (reply.fault != Fault::kNone) Fail(command, reply);
    budget = std::min(budget, left);
  }
  if (process_ == nullptr || !process_->alive()) {
    return callbacks_.on_move(job.token,
                              absl::UnavailableError(status().detail), 0);
  }
  const auto started = SteadyClock::now();
  const std::string command = "genmove " + ColourName(colour);
  const Reply reply = process_->Ask(command, In(budget + timeouts_.margin_s));
  const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         SteadyClock::now() - started)
                         .count();
  if (reply.fault != Fault::kNone || !reply.success) {
    Fail(command, reply);
    return callbacks_.on_move(job.token,
                              absl::UnavailableError(status().detail), ms);
  }
  absl::StatusOr<Move> move = ParseMove(reply.text);
  absl::Status legal =
      move.ok() ? CheckMove(synced_->shown().position(), colour, *move)
                : move.status();
  if (move.ok() && move->kind == MoveKind::kResign) legal = absl::OkStatus();
  if (!legal.ok()) {
    Reply bad;
    bad.fault = Fault::kFraming;
    bad.detail =
        absl::StrCat("'", reply.text.substr(0, 80), "': ", legal.message());
    Fail(command, bad);
    return callbacks_.on_move(job.token,
                              absl::UnavailableError(status().detail), ms);
  }
  synced_->Play(*move).IgnoreError();
  SetStatus(EngineState::kReady, status().detail);
  callbacks_.on_move(job.token, *move, ms);
}

bool EngineWorker::AnalysisInterrupted(uint64_t token) const {
  return stop_ || restart_ || (move_job_ && move_job_->token != moved_token_) ||
         !analysis_job_ || analysis_job_->token != token;
}

void EngineWorker::Analyse(const EngineJob& job) {
  if (!Sync(job)) return;
  SetStatus(EngineState::kAnalysing, "");
  const std::string command =
      absl::StrCat("analyze ", timeouts_.analyze_interval_cs);
  const Reply head = process_->StartStream(command, In(timeouts_.command_s));
  if (head.fault != Fault::kNone) return Fail(command, head);
  if (!head.success) {  // e.g. a finished game: the engine stays usable
    return SetStatus(EngineState::kReady, "analyze refused: " + head.text);
  }
  std::vector<Candidate> batch;
  bool fresh = false;
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (AnalysisInterrupted(job.token)) break;
    }
    const client::EngineProcess::StreamLine next =
        process_->ReadStream(In(0.05));
    if (next.reply.fault != Fault::kNone) return Fail(command, next.reply);
    if (next.ended) break;
    if (next.idle) {
      if (fresh) callbacks_.on_analysis(job.token, batch);
      fresh = false;
      continue;
    }
    std::optional<Candidate> candidate = ParseInfoLine(next.line);
    if (!candidate) continue;  // another engine's chatter
    // The best move again: a new report has begun.
    for (const Candidate& c : batch) {
      if (c.move == candidate->move) {
        if (fresh) callbacks_.on_analysis(job.token, batch);
        batch.clear();
        fresh = false;
        break;
      }
    }
    batch.push_back(std::move(*candidate));
    fresh = true;
  }
  if (fresh) callbacks_.on_analysis(job.token, batch);
}

void EngineWorker::Run() {
  Start();
  for (;;) {
    std::optional<EngineJob> move, analysis;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] {
        const bool failed = status_.state == EngineState::kFailed;
        return stop_ || restart_ ||
               (!failed && move_job_ && move_job_->token != moved_token_) ||
               (!failed && analysis_job_) ||
               (!failed && !analysis_job_ && process_ && process_->streaming());
      });
      if (stop_) break;
      if (restart_) {
        restart_ = false;
        moved_token_ = UINT64_MAX;  // the move it owes is asked again
        lock.unlock();
        Start();
        continue;
      }
      if (move_job_ && move_job_->token != moved_token_) {
        moved_token_ = move_job_->token;
        move = move_job_;
      } else if (analysis_job_) {
        analysis = analysis_job_;
      }
    }
    if (move) {
      PlayMove(*move);
    } else if (analysis) {
      Analyse(*analysis);
      // Wait for a change rather than start the same analysis again.
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return AnalysisInterrupted(analysis->token); });
    } else if (process_->streaming()) {
      // Analysis turned off: any command ends the stream.
      if (Command("protocol_version")) SetStatus(EngineState::kReady, "");
    }
  }
  if (process_ != nullptr) process_->Quit(std::chrono::milliseconds(1000));
}

}  // namespace wallgo::gui
