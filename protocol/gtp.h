// The GTP-style command loop of docs/protocol.md: it parses command lines,
// calls the Engine, and formats the answers; it holds no game state itself.
#pragma once

#include <istream>
#include <ostream>
#include <span>
#include <string>

#include "absl/strings/string_view.h"
#include "protocol/engine.h"
#include "protocol/input.h"
#include "protocol/log.h"

namespace wallgo::protocol {

class GtpSession {
 public:
  // GTP perft answers within about a second (depth 4 of a middle game);
  // deeper counts are `wallgo perft`'s job, which no input line can start.
  static constexpr int kMaxPerftDepth = 4;

  GtpSession(Engine& engine, std::ostream& out, Log& log, std::string version);

  // Answers the commands read from `in` until `quit` or the end of input.
  void Run(std::istream& in);

  // The names list_commands prints, in that order.
  static std::vector<absl::string_view> CommandNames();

 private:
  struct Reply {
    bool ok = true;
    std::string text;
    bool streamed = false;  // the handler wrote its answer itself
  };
  using Handler = Reply (GtpSession::*)(const CommandLine&);
  struct CommandSpec {
    absl::string_view name;
    Handler handler;
  };
  static std::span<const CommandSpec> Commands();
  static Reply Success(std::string text = "");
  static Reply Failure(std::string message);
  static Reply Streamed();

  void Handle(const std::string& line);
  void WriteAnswer(const std::string& id, const Reply& reply);
  void Write(absl::string_view text);
  void WriteInfo(const search::SearchInfo& info);
  SearchControl Control(double interval_s, bool stop_on_input);

  Reply ProtocolVersion(const CommandLine& c);
  Reply Name(const CommandLine& c);
  Reply Version(const CommandLine& c);
  Reply KnownCommand(const CommandLine& c);
  Reply ListCommands(const CommandLine& c);
  Reply Quit(const CommandLine& c);
  Reply NewGame(const CommandLine& c);
  Reply ClearBoard(const CommandLine& c);
  Reply RulesCommand(const CommandLine& c);
  Reply Play(const CommandLine& c);
  Reply GenMove(const CommandLine& c);
  Reply Undo(const CommandLine& c);
  Reply LegalMoves(const CommandLine& c);
  Reply Setup(const CommandLine& c);
  Reply PositionCommand(const CommandLine& c);
  Reply Score(const CommandLine& c);
  Reply ShowBoard(const CommandLine& c);
  Reply SetOption(const CommandLine& c);
  Reply GetOption(const CommandLine& c);
  Reply ListOptions(const CommandLine& c);
  Reply TimeSettings(const CommandLine& c);
  Reply TimeLeft(const CommandLine& c);
  Reply Analyze(const CommandLine& c);
  Reply GenMoveAnalyze(const CommandLine& c);
  Reply Solve(const CommandLine& c);
  Reply Perft(const CommandLine& c);
  Reply Divide(const CommandLine& c);

  Engine& engine_;
  std::ostream& out_;
  Log& log_;
  std::string version_;
  std::string current_id_;       // of the command being handled
  InputQueue* input_ = nullptr;  // set while Run reads
  bool quit_ = false;
};

}  // namespace wallgo::protocol
