#include "protocol/gtp.h"

#include <array>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "protocol/board_picture.h"
#include "protocol/options.h"
#include "protocol/solve_text.h"

namespace wallgo::protocol {
namespace {

constexpr double kDefaultInfoIntervalS = 1.0;  // analyze's 100 centiseconds

// User text quoted in a message, cut short: a message is one short line
// even when the input line was a megabyte.
std::string Shown(absl::string_view text, size_t max_size = 40) {
  if (text.size() <= max_size) return std::string(text);
  return absl::StrCat(text.substr(0, max_size), "...");
}

// `message` with the protocol's standard `prefix` ("illegal move: ", ...),
// unless the engine's message already starts with it.
std::string Prefixed(absl::string_view prefix, absl::string_view message) {
  if (absl::StartsWith(message, prefix)) return std::string(message);
  return absl::StrCat(prefix, message);
}

absl::Status SyntaxError(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("syntax error: ", why));
}

absl::Status CheckArgCount(const CommandLine& c, size_t min, size_t max,
                           absl::string_view usage) {
  if (c.args.size() < min || c.args.size() > max) {
    return SyntaxError(
        absl::StrCat("usage: ", c.name, usage.empty() ? "" : " ", usage));
  }
  return absl::OkStatus();
}

absl::StatusOr<Colour> ColourArg(absl::string_view text) {
  absl::StatusOr<Colour> colour = ParseColour(text);
  if (!colour.ok()) {
    return SyntaxError(absl::StrCat("not a colour: ", Shown(text)));
  }
  return colour;
}

absl::StatusOr<int64_t> IntArg(absl::string_view text, int64_t min, int64_t max,
                               absl::string_view what) {
  int64_t value = 0;
  if (!absl::SimpleAtoi(text, &value) || value < min || value > max) {
    return SyntaxError(absl::StrCat(what, " must be an integer in ", min, "..",
                                    max, ", not ", Shown(text)));
  }
  return value;
}

absl::StatusOr<double> SecondsArg(absl::string_view text,
                                  absl::string_view what) {
  constexpr int64_t kMaxSeconds = 1'000'000'000;
  double value = 0;
  if (!absl::SimpleAtod(text, &value) ||
      !(value >= 0 && value <= kMaxSeconds)) {
    return SyntaxError(absl::StrCat(what, " must be a number of seconds in 0..",
                                    kMaxSeconds, ", not ", Shown(text)));
  }
  return value;
}

struct TimeAndStones {
  double seconds = 0;
  int stones = 0;
};

// The arguments `SECONDS STONES` at `index` of time_settings / time_left.
absl::StatusOr<TimeAndStones> TimeAndStonesArgs(const CommandLine& c,
                                                size_t index,
                                                absl::string_view what) {
  constexpr int kMaxStones = 1000;
  absl::StatusOr<double> seconds = SecondsArg(c.args[index], what);
  if (!seconds.ok()) return seconds.status();
  absl::StatusOr<int64_t> stones =
      IntArg(c.args[index + 1], 0, kMaxStones, "stones");
  if (!stones.ok()) return stones.status();
  return TimeAndStones{*seconds, static_cast<int>(*stones)};
}

// The interval argument of analyze / genmove_analyze, in centiseconds.
absl::StatusOr<double> IntervalArg(const CommandLine& c, size_t index) {
  if (c.args.size() <= index) return kDefaultInfoIntervalS;
  absl::StatusOr<int64_t> cs = IntArg(c.args[index], 0, 360000, "interval");
  if (!cs.ok()) return cs.status();
  return static_cast<double>(*cs) / 100;
}

// Removes the optional last argument `ownership` of analyze /
// genmove_analyze (an ownership line after each report's info lines).
bool TakeOwnershipArg(CommandLine& c) {
  if (c.args.empty() || c.args.back() != "ownership") return false;
  c.args.pop_back();
  return true;
}

// `ownership red S1..S49 blue S1..S49`: each player's expected share of
// every cell, cells a1, b1, ..., g1, a2, ..., g7.
std::string OwnershipLine(const std::vector<search::CellOwnership>& ownership,
                          int players) {
  std::string line = "ownership";
  for (int p = 0; p < players; ++p) {
    absl::StrAppend(&line, " ", ColourName(ColourAt(p)));
    for (const search::CellOwnership& cell : ownership) {
      absl::StrAppend(&line, absl::StrFormat(" %.3f", cell[p]));
    }
  }
  return line;
}

std::string InfoLine(const search::Candidate& candidate) {
  std::vector<std::string> pv;
  for (const Move& move : candidate.pv) pv.push_back(MoveName(move));
  if (pv.empty()) pv.push_back(MoveName(candidate.move));  // never "pv "
  return absl::StrFormat("info move %s visits %d winrate %.4f score %.2f pv %s",
                         MoveName(candidate.move), candidate.visits,
                         candidate.winrate, candidate.score_margin,
                         absl::StrJoin(pv, " "));
}

std::string ScoreText(const Game& game) {
  const Position& pos = game.position();
  const ScoreSheet sheet = ComputeScores(pos);
  std::vector<std::string> fields;
  for (int i = 0; i < pos.num_players(); ++i) {
    fields.push_back(
        absl::StrCat(ColourName(ColourAt(i)), "=", sheet.score[i]));
  }
  if (!game.is_over()) {
    fields.push_back("status=ongoing");
  } else {
    fields.push_back("status=final");
    fields.push_back(absl::StrCat("winner=", WinnerText(game.result())));
  }
  return absl::StrJoin(fields, " ");
}

}  // namespace

GtpSession::GtpSession(Engine& engine, std::ostream& out, Log& log,
                       std::string version)
    : engine_(engine), out_(out), log_(log), version_(std::move(version)) {}

std::span<const GtpSession::CommandSpec> GtpSession::Commands() {
  static constexpr std::array<CommandSpec, 27> kCommands = {{
      {"protocol_version", &GtpSession::ProtocolVersion},
      {"name", &GtpSession::Name},
      {"version", &GtpSession::Version},
      {"known_command", &GtpSession::KnownCommand},
      {"list_commands", &GtpSession::ListCommands},
      {"quit", &GtpSession::Quit},
      {"newgame", &GtpSession::NewGame},
      {"clear_board", &GtpSession::ClearBoard},
      {"rules", &GtpSession::RulesCommand},
      {"play", &GtpSession::Play},
      {"genmove", &GtpSession::GenMove},
      {"undo", &GtpSession::Undo},
      {"legal_moves", &GtpSession::LegalMoves},
      {"setup", &GtpSession::Setup},
      {"position", &GtpSession::PositionCommand},
      {"score", &GtpSession::Score},
      {"showboard", &GtpSession::ShowBoard},
      {"set_option", &GtpSession::SetOption},
      {"get_option", &GtpSession::GetOption},
      {"list_options", &GtpSession::ListOptions},
      {"time_settings", &GtpSession::TimeSettings},
      {"time_left", &GtpSession::TimeLeft},
      {"analyze", &GtpSession::Analyze},
      {"genmove_analyze", &GtpSession::GenMoveAnalyze},
      {"solve", &GtpSession::Solve},
      {"perft", &GtpSession::Perft},
      {"wallgo-divide", &GtpSession::Divide},
  }};
  return kCommands;
}

std::vector<absl::string_view> GtpSession::CommandNames() {
  std::vector<absl::string_view> names;
  for (const CommandSpec& spec : Commands()) names.push_back(spec.name);
  return names;
}

GtpSession::Reply GtpSession::Success(std::string text) {
  return {true, std::move(text), false};
}
GtpSession::Reply GtpSession::Failure(std::string message) {
  return {false, std::move(message), false};
}
GtpSession::Reply GtpSession::Streamed() { return {true, "", true}; }

// A failed status as a reply (its message is the whole answer text).
#define WALLGO_FAIL_IF_ERROR(expr)                          \
  if (const absl::Status status_ = (expr); !status_.ok()) { \
    return Failure(std::string(status_.message()));         \
  }

void GtpSession::Run(std::istream& in) {
  InputReader reader(in);
  input_ = &reader.queue();
  while (!quit_) {
    std::optional<std::string> line = input_->Pop();
    if (!line.has_value()) break;  // end of input quits as quit does
    if (line->find_first_not_of(' ') == std::string::npos) continue;
    log_.Received(*line);
    Handle(*line);
  }
  input_ = nullptr;
}

void GtpSession::Handle(const std::string& line) {
  const CommandLine command = SplitCommandLine(line);
  current_id_ = command.id;
  for (const CommandSpec& spec : Commands()) {
    if (spec.name == command.name) {
      const Reply reply = (this->*spec.handler)(command);
      if (!reply.streamed) WriteAnswer(command.id, reply);
      return;
    }
  }
  WriteAnswer(command.id, Failure("unknown command"));
}

void GtpSession::Write(absl::string_view text) {
  out_ << text;
  out_.flush();
}

void GtpSession::WriteAnswer(const std::string& id, const Reply& reply) {
  // Messages quote the input; a megabyte of it makes no useful message.
  constexpr size_t kMaxMessage = 200;
  std::string answer = absl::StrCat(reply.ok ? "=" : "?", id);
  if (!reply.text.empty()) {
    absl::StrAppend(&answer, reply.text.front() == '\n' ? "" : " ",
                    reply.ok ? reply.text : Shown(reply.text, kMaxMessage));
  }
  log_.Sent(answer);
  Write(absl::StrCat(answer, "\n\n"));
}

void GtpSession::WriteInfo(const search::SearchInfo& info) {
  std::string lines;
  for (const search::Candidate& candidate : info.candidates) {
    absl::StrAppend(&lines, InfoLine(candidate), "\n");
  }
  if (!info.ownership.empty()) {
    absl::StrAppend(
        &lines, OwnershipLine(info.ownership, engine_.position().num_players()),
        "\n");
  }
  Write(lines);
}

SearchControl GtpSession::Control(double interval_s, bool stop_on_input) {
  SearchControl control;
  control.info_interval_s = interval_s;
  InputQueue* input = input_;
  control.should_stop = [input, stop_on_input] {
    if (input == nullptr) return false;
    return stop_on_input ? input->HasPending() : input->Closing();
  };
  return control;
}

GtpSession::Reply GtpSession::ProtocolVersion(const CommandLine&) {
  return Success("2");
}

GtpSession::Reply GtpSession::Name(const CommandLine&) {
  return Success("wallgo");
}

GtpSession::Reply GtpSession::Version(const CommandLine&) {
  return Success(version_);
}

GtpSession::Reply GtpSession::KnownCommand(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 1, 1, "NAME"));
  for (const CommandSpec& spec : Commands()) {
    if (spec.name == c.args[0]) return Success("true");
  }
  return Success("false");
}

GtpSession::Reply GtpSession::ListCommands(const CommandLine&) {
  return Success(absl::StrJoin(CommandNames(), "\n"));
}

GtpSession::Reply GtpSession::Quit(const CommandLine&) {
  quit_ = true;
  return Success();
}

GtpSession::Reply GtpSession::NewGame(const CommandLine& c) {
  absl::StatusOr<Rules> rules = ParseRules(absl::StrJoin(c.args, " "));
  if (!rules.ok()) {
    return Failure(Prefixed("syntax error: ", rules.status().message()));
  }
  if (absl::Status started = engine_.NewGame(*rules); !started.ok()) {
    return Failure(Prefixed("syntax error: ", started.message()));
  }
  return Success();
}

GtpSession::Reply GtpSession::ClearBoard(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 0, ""));
  WALLGO_FAIL_IF_ERROR(engine_.NewGame(engine_.position().rules()));
  return Success();
}

GtpSession::Reply GtpSession::RulesCommand(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 0, ""));
  return Success(RulesString(engine_.position().rules()));
}

GtpSession::Reply GtpSession::Play(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 2, 2, "COLOUR MOVE"));
  absl::StatusOr<Colour> colour = ColourArg(c.args[0]);
  WALLGO_FAIL_IF_ERROR(colour.status());
  absl::StatusOr<Move> move = ParseMove(c.args[1]);
  if (!move.ok()) {
    return Failure(
        absl::StrCat("syntax error: not a move: ", Shown(c.args[1])));
  }
  if (engine_.game().is_over()) return Failure("game over");
  if (absl::Status played = engine_.Play(*colour, *move); !played.ok()) {
    // The engine's reasons usually name the move already.
    return Failure(absl::StartsWith(played.message(), "illegal move: ")
                       ? std::string(played.message())
                       : absl::StrCat("illegal move: ", MoveName(*move), ": ",
                                      played.message()));
  }
  return Success();
}

GtpSession::Reply GtpSession::GenMove(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 1, 1, "COLOUR"));
  absl::StatusOr<Colour> colour = ColourArg(c.args[0]);
  WALLGO_FAIL_IF_ERROR(colour.status());
  absl::StatusOr<GenMoveResult> result =
      engine_.GenMove(*colour, Control(kDefaultInfoIntervalS, false));
  WALLGO_FAIL_IF_ERROR(result.status());
  log_.Event(absl::StrFormat("genmove %s: %s, %d visits, %d nodes, %.2f s",
                             ColourName(*colour), MoveName(result->move),
                             result->info.total_visits, result->info.nodes,
                             result->seconds));
  return Success(MoveName(result->move));
}

GtpSession::Reply GtpSession::Undo(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 0, ""));
  if (!engine_.Undo().ok()) return Failure("cannot undo");
  return Success();
}

GtpSession::Reply GtpSession::LegalMoves(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 0, ""));
  if (engine_.game().is_over()) return Success();
  MoveList moves;
  GenerateMoves(engine_.position(), moves);
  std::vector<std::string> names;
  for (const Move& move : moves) names.push_back(MoveName(move));
  return Success(absl::StrJoin(names, " "));
}

GtpSession::Reply GtpSession::Setup(const CommandLine& c) {
  absl::StatusOr<Position> pos = ParsePosition(absl::StrJoin(c.args, " "));
  if (!pos.ok()) {
    return Failure(Prefixed("invalid position: ", pos.status().message()));
  }
  engine_.Setup(*pos);
  return Success();
}

GtpSession::Reply GtpSession::PositionCommand(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 0, ""));
  return Success(PositionString(engine_.position()));
}

GtpSession::Reply GtpSession::Score(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 0, ""));
  return Success(ScoreText(engine_.game()));
}

GtpSession::Reply GtpSession::ShowBoard(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 0, ""));
  return Success(absl::StrCat("\n", BoardPicture(engine_.game())));
}

GtpSession::Reply GtpSession::SetOption(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 2, 2, "NAME VALUE"));
  const OptionSpec* spec = FindOption(c.args[0]);
  if (spec == nullptr) {
    return Failure(
        absl::StrCat("syntax error: unknown option ", Shown(c.args[0])));
  }
  search::SearchOptions options = engine_.options();
  if (absl::Status set = SetOptionFromText(options, *spec, c.args[1]);
      !set.ok()) {
    // A value the option can never take is a syntax error; one that it
    // cannot take now (memory) is said as it is.
    return Failure(absl::IsInvalidArgument(set)
                       ? absl::StrCat("syntax error: ", set.message())
                       : std::string(set.message()));
  }
  engine_.SetOptions(options);
  return Success();
}

GtpSession::Reply GtpSession::GetOption(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 1, 1, "NAME"));
  const OptionSpec* spec = FindOption(c.args[0]);
  if (spec == nullptr) {
    return Failure(
        absl::StrCat("syntax error: unknown option ", Shown(c.args[0])));
  }
  return Success(OptionValueText(engine_.options(), *spec));
}

GtpSession::Reply GtpSession::ListOptions(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 0, ""));
  std::vector<std::string> lines;
  for (const OptionSpec& spec : AllOptions()) {
    if (!spec.hidden) lines.push_back(DescribeOption(engine_.options(), spec));
  }
  return Success(absl::StrJoin(lines, "\n"));
}

GtpSession::Reply GtpSession::TimeSettings(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 3, 3, "MAIN BYO STONES"));
  absl::StatusOr<double> main_s = SecondsArg(c.args[0], "main time");
  WALLGO_FAIL_IF_ERROR(main_s.status());
  absl::StatusOr<TimeAndStones> byo = TimeAndStonesArgs(c, 1, "byo-yomi time");
  WALLGO_FAIL_IF_ERROR(byo.status());
  WALLGO_FAIL_IF_ERROR(
      engine_.time_control().SetSettings(*main_s, byo->seconds, byo->stones));
  return Success();
}

GtpSession::Reply GtpSession::TimeLeft(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 3, 3, "COLOUR SECONDS STONES"));
  absl::StatusOr<Colour> colour = ColourArg(c.args[0]);
  WALLGO_FAIL_IF_ERROR(colour.status());
  absl::StatusOr<TimeAndStones> left = TimeAndStonesArgs(c, 1, "time left");
  WALLGO_FAIL_IF_ERROR(left.status());
  WALLGO_FAIL_IF_ERROR(
      engine_.time_control().SetTimeLeft(*colour, left->seconds, left->stones));
  return Success();
}

GtpSession::Reply GtpSession::Analyze(const CommandLine& line) {
  CommandLine c = line;
  const bool ownership = TakeOwnershipArg(c);
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 1, "[INTERVAL] [ownership]"));
  absl::StatusOr<double> interval = IntervalArg(c, 0);
  WALLGO_FAIL_IF_ERROR(interval.status());
  if (engine_.game().is_over()) return Failure("game over");
  Write(absl::StrCat("=", current_id_, "\n"));
  SearchControl control = Control(*interval, true);
  control.on_info = [this](const search::SearchInfo& info) { WriteInfo(info); };
  control.ownership = ownership;
  const absl::Status status = engine_.Analyze(control);
  if (!status.ok()) log_.Event(status.ToString());
  Write("\n");
  log_.Sent(absl::StrCat("=", current_id_, " (analysis)"));
  return Streamed();
}

GtpSession::Reply GtpSession::GenMoveAnalyze(const CommandLine& line) {
  CommandLine c = line;
  const bool ownership = TakeOwnershipArg(c);
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 1, 2, "COLOUR [INTERVAL] [ownership]"));
  absl::StatusOr<Colour> colour = ColourArg(c.args[0]);
  WALLGO_FAIL_IF_ERROR(colour.status());
  absl::StatusOr<double> interval = IntervalArg(c, 1);
  WALLGO_FAIL_IF_ERROR(interval.status());
  WALLGO_FAIL_IF_ERROR(engine_.CheckGenMove(*colour));
  Write(absl::StrCat("=", current_id_, "\n"));
  SearchControl control = Control(*interval, false);
  control.on_info = [this](const search::SearchInfo& info) { WriteInfo(info); };
  control.ownership = ownership;
  absl::StatusOr<GenMoveResult> result = engine_.GenMove(*colour, control);
  // CheckGenMove passed, so GenMove plays a move; resign keeps the answer
  // well-formed should that ever change.
  const std::string move = result.ok() ? MoveName(result->move) : "resign";
  Write(absl::StrCat("play ", move, "\n\n"));
  log_.Sent(absl::StrCat("=", current_id_, " play ", move));
  return Streamed();
}

GtpSession::Reply GtpSession::Solve(const CommandLine& c) {
  constexpr double kDefaultSolveS = 10, kMaxSolveS = 86400;
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 0, 1, "[SECONDS]"));
  double seconds = kDefaultSolveS;
  if (!c.args.empty()) {
    absl::StatusOr<double> arg = SecondsArg(c.args[0], "seconds");
    WALLGO_FAIL_IF_ERROR(arg.status());
    if (*arg <= 0 || *arg > kMaxSolveS) {
      WALLGO_FAIL_IF_ERROR(
          SyntaxError(absl::StrCat("seconds must be more than 0 and at most ",
                                   kMaxSolveS, ", not ", Shown(c.args[0]))));
    }
    seconds = *arg;
  }
  if (engine_.game().is_over()) return Failure("game over");
  Write(absl::StrCat("=", current_id_, "\n"));
  search::SolverLimits limits;
  limits.seconds = seconds;
  limits.hash_mb = engine_.options().hash_mb;
  limits.should_stop = Control(0, true).should_stop;
  const Position pos = engine_.position();
  const search::SolveResult result =
      search::Solve(pos, limits, [this](const search::SolveResult& step) {
        Write(SolveInfoLine(step) + "\n");
      });
  Write(absl::StrCat(SolveAnswer(pos, result), "\n"));
  log_.Sent(absl::StrCat("=", current_id_, " (solve)"));
  return Streamed();
}

GtpSession::Reply GtpSession::Perft(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 1, 1, "DEPTH"));
  absl::StatusOr<int64_t> depth = IntArg(c.args[0], 0, kMaxPerftDepth, "depth");
  WALLGO_FAIL_IF_ERROR(depth.status());
  if (engine_.game().is_over()) return Success(*depth == 0 ? "1" : "0");
  return Success(absl::StrCat(
      wallgo::Perft(engine_.position(), static_cast<int>(*depth))));
}

GtpSession::Reply GtpSession::Divide(const CommandLine& c) {
  WALLGO_FAIL_IF_ERROR(CheckArgCount(c, 1, 1, "DEPTH"));
  absl::StatusOr<int64_t> depth = IntArg(c.args[0], 1, kMaxPerftDepth, "depth");
  WALLGO_FAIL_IF_ERROR(depth.status());
  if (engine_.game().is_over()) return Success("total 0");
  std::vector<std::string> lines;
  uint64_t total = 0;
  for (const auto& [move, count] :
       PerftDivide(engine_.position(), static_cast<int>(*depth))) {
    lines.push_back(absl::StrCat(MoveName(move), " ", count));
    total += count;
  }
  lines.push_back(absl::StrCat("total ", total));
  return Success(absl::StrJoin(lines, "\n"));
}

#undef WALLGO_FAIL_IF_ERROR

}  // namespace wallgo::protocol
