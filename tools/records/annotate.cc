#include "tools/records/annotate.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/notation.h"

namespace wallgo::records {
namespace {

using client::EnginePool;
using client::EngineProcess;
using client::EngineSpec;
using client::Fault;
using client::Reply;
using client::SteadyClock;

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
// genmove_analyze's report interval, in centiseconds: longer than any
// search, so that the engine reports once, at the end.
constexpr int kOneReport = 360000;

double Rounded(double x) { return std::round(x * 1e4) / 1e4; }

WinRates UnknownRates() {
  WinRates rates;
  rates.fill(kUnknown);
  return rates;
}

// Exact: the winners share the win.
WinRates FinishedRates(const Position& pos) {
  const Result result = ComputeResult(pos);
  WinRates rates = UnknownRates();
  for (int p = 0; p < result.players; ++p) rates[p] = result.win_share(p);
  return rates;
}

// The side to move's win rate; in two-player games the other's follows.
WinRates ViewRates(const Position& pos, const EngineView& view) {
  WinRates rates = UnknownRates();
  const int mover = Index(pos.to_move());
  rates[mover] = view.winrate;
  if (pos.num_players() == 2) rates[1 - mover] = 1 - view.winrate;
  return rates;
}

// The colours whose mistakes can have decided the game: the losers (every
// colour after a draw).
std::set<std::string> Losers(const GameRecord& record) {
  std::set<std::string> losers;
  for (const auto& [colour, engine] : record.seats) {
    const bool won = record.winner != "draw" &&
                     std::find(record.winners.begin(), record.winners.end(),
                               colour) != record.winners.end();
    if (!won) losers.insert(colour);
  }
  return losers;
}

// "red 91.2 (1 inaccuracy, 0 mistakes, 1 blunder)" for each colour.
std::string PlayerSummary(const GameRecord& record) {
  std::vector<std::string> parts;
  for (const auto& [colour, accuracy] : record.annotation->accuracy) {
    std::map<std::string, int> count;
    for (const MoveRecord& m : record.moves) {
      if (m.colour == colour && m.note) ++count[m.note->judgement];
    }
    parts.push_back(absl::StrFormat(
        "%s %.1f (inaccuracies %d, mistakes %d, blunders %d)", colour, accuracy,
        count["inaccuracy"], count["mistake"], count["blunder"]));
  }
  return absl::StrJoin(parts, ", ");
}

std::string TurningPointText(const GameRecord& record) {
  const int index = record.annotation->turning_point;
  if (index == 0) return "none";
  const MoveRecord& m = record.moves[index - 1];
  return absl::StrFormat("move %d, %s %s (win rate %.2f -> %.2f, best %s)",
                         index, m.colour, m.move, m.note->before, m.note->after,
                         m.note->best);
}

// One engine, one game at a time.
class Annotator {
 public:
  Annotator(const AnnotateOptions& options, EnginePool& pool)
      : options_(options), pool_(pool) {}

  absl::StatusOr<GameRecord> Annotate(GameRecord record,
                                      const AnnotateProgress& progress) {
    absl::StatusOr<Rules> rules = ParseRules(record.rules);
    if (!rules.ok()) return rules.status();
    absl::StatusOr<Opening> opening = ResolveOpening(*rules, record.opening);
    if (!opening.ok()) return opening.status();
    std::string error;
    engine_ = pool_.Running(0, error);
    if (engine_ == nullptr) return absl::UnavailableError(error);
    for (const std::string& command : Preamble(record, *opening)) {
      if (absl::Status s = Ask(command).status(); !s.ok()) return s;
    }
    Game game(opening->start);
    const size_t n = record.moves.size();
    std::vector<WinRates> rates(n + 1, UnknownRates());
    std::vector<std::optional<EngineView>> views(n + 1);
    for (size_t i = 0; i <= n; ++i) {
      if (absl::Status s = Judge(game, rates[i], views[i]); !s.ok()) return s;
      if (progress &&
          !progress(static_cast<int>(i) + 1, static_cast<int>(n) + 1)) {
        return absl::CancelledError("the annotation was stopped");
      }
      if (i == n || record.moves[i].move == "resign") break;
      if (absl::Status s = Play(game, record.moves[i]); !s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("move ", i + 1, ": ", s.message()));
      }
    }
    AddNotes(record, rates, views, options_);
    return record;
  }

 private:
  std::vector<std::string> Preamble(const GameRecord& record,
                                    const Opening& opening) const {
    std::vector<std::string> commands = {
        absl::StrCat("set_option visits ", options_.visits),
        absl::StrCat("set_option movetime ", options_.movetime_s),
        absl::StrCat("newgame ", record.rules)};
    commands.insert(commands.end(), opening.commands.begin(),
                    opening.commands.end());
    return commands;
  }

  // The engine's view of the game's position (searched, then taken back),
  // or the exact result of a finished one.
  absl::Status Judge(const Game& game, WinRates& rates,
                     std::optional<EngineView>& view) {
    const Position& pos = game.position();
    if (game.is_over()) {
      rates = FinishedRates(pos);
      return absl::OkStatus();
    }
    const double think_s = options_.movetime_s > 0
                               ? options_.movetime_s
                               : static_cast<double>(options_.visits) * 1e-3;
    absl::StatusOr<std::string> answer =
        Ask(absl::StrCat("genmove_analyze ", ColourName(pos.to_move()), " ",
                         kOneReport),
            think_s);
    if (!answer.ok()) return answer.status();
    absl::StatusOr<EngineView> parsed = ParseAnalyzeAnswer(*answer);
    if (!parsed.ok()) return parsed.status();
    if (absl::Status s = Ask("undo").status(); !s.ok()) return s;
    view = *parsed;
    rates = ViewRates(pos, *view);
    return absl::OkStatus();
  }

  absl::Status Play(Game& game, const MoveRecord& m) {
    absl::StatusOr<Colour> colour = ParseColour(m.colour);
    if (!colour.ok()) return colour.status();
    absl::StatusOr<Move> move = ParseMove(m.move);
    if (!move.ok()) return move.status();
    if (absl::Status s = game.Play(*colour, *move); !s.ok()) return s;
    return Ask(absl::StrCat("play ", m.colour, " ", m.move)).status();
  }

  // The answer's text; any fault or failure is an error (and the engine is
  // killed: the pool starts a fresh one for the next game).
  absl::StatusOr<std::string> Ask(const std::string& command,
                                  double think_s = 0) {
    const auto deadline =
        SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                 std::chrono::duration<double>(
                                     think_s + options_.command_timeout_s));
    const Reply reply = engine_->Ask(command, deadline);
    if (reply.fault == Fault::kNone && reply.success) return reply.text;
    pool_.Kill(0);
    return absl::UnavailableError(absl::StrCat(
        "engine failed '", command,
        "': ", reply.fault == Fault::kNone ? reply.text : reply.detail));
  }

  const AnnotateOptions& options_;
  EnginePool& pool_;
  EngineProcess* engine_ = nullptr;
};

// The games of the records file that this run annotates.
absl::StatusOr<std::vector<GameRecord>> PendingGames(const AnnotateOptions& o) {
  absl::StatusOr<std::vector<GameRecord>> records = ReadRecords(o.records);
  if (!records.ok()) return records.status();
  std::set<int> done;
  if (o.resume && std::filesystem::exists(o.output)) {
    absl::StatusOr<std::vector<GameRecord>> annotated = ReadRecords(o.output);
    if (!annotated.ok()) return annotated.status();
    for (const GameRecord& r : *annotated) done.insert(r.game);
  }
  std::vector<GameRecord> pending;
  for (GameRecord& r : *records) {
    const bool chosen = o.games.empty() || o.games.count(r.game);
    // Games are dealt to shards in turn, as the referee deals sets.
    const bool in_shard = (r.game - 1) % o.shard_count == o.shard_index;
    if (chosen && in_shard && !done.count(r.game)) {
      pending.push_back(std::move(r));
    }
  }
  return pending;
}

}  // namespace

std::string Judge(double loss) {
  if (loss >= kBlunderLoss) return "blunder";
  if (loss >= kMistakeLoss) return "mistake";
  if (loss >= kInaccuracyLoss) return "inaccuracy";
  return "";
}

double MoveAccuracy(double loss) {
  return std::clamp(103.1668 * std::exp(-0.04354 * 100 * loss) - 3.1669, 0.0,
                    100.0);
}

absl::StatusOr<EngineView> ParseAnalyzeAnswer(const std::string& text) {
  EngineView view;
  std::set<std::string> in_report;
  std::string played;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const std::vector<std::string> words =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words.size() == 2 && words[0] == "play") played = words[1];
    if (words.empty() || words[0] != "info") continue;
    std::string move;
    double winrate = kUnknown;
    for (size_t k = 1; k + 1 < words.size(); k += 2) {
      if (words[k] == "move") move = words[k + 1];
      if (words[k] == "winrate" && !absl::SimpleAtod(words[k + 1], &winrate)) {
        winrate = kUnknown;
      }
      if (words[k] == "pv") break;
    }
    // The move must be a move (it goes into the records as the best move),
    // written as this side writes it.
    absl::StatusOr<Move> parsed = ParseMove(move);
    if (!parsed.ok() || !(winrate >= 0 && winrate <= 1)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad info line: ", absl::CHexEscape(line.substr(0, 80))));
    }
    move = MoveName(*parsed);
    // A move seen again starts the next report.
    if (!in_report.insert(move).second) {
      view.candidates.clear();
      in_report = {move};
    }
    view.candidates.emplace_back(move, winrate);
  }
  if (view.candidates.empty()) {
    return absl::InvalidArgumentError("genmove_analyze sent no info line");
  }
  view.best = view.candidates.front().first;
  view.winrate = view.candidates.front().second;
  (void)played;  // the engine's choice may be randomised; the best is not
  return view;
}

void AddNotes(GameRecord& record, const std::vector<WinRates>& rates,
              const std::vector<std::optional<EngineView>>& views,
              const AnnotateOptions& options) {
  GameNote game_note;
  game_note.engine = options.engine.command;
  game_note.budget = options.movetime_s > 0
                         ? absl::StrCat("movetime ", options.movetime_s)
                         : absl::StrCat("visits ", options.visits);
  std::map<std::string, std::pair<double, int>> accuracy;  // sum, moves
  const std::set<std::string> losers = Losers(record);
  double worst = kInaccuracyLoss;
  for (size_t i = 0; i < record.moves.size() && i + 1 < rates.size(); ++i) {
    MoveRecord& m = record.moves[i];
    absl::StatusOr<Colour> colour = ParseColour(m.colour);
    if (!colour.ok()) continue;
    const int c = Index(*colour);
    double before = rates[i][c], after = rates[i + 1][c];
    if (std::isnan(after) && views[i]) {
      for (const auto& [move, winrate] : views[i]->candidates) {
        if (move == m.move) after = winrate;
      }
    }
    if (std::isnan(before) || std::isnan(after)) continue;
    MoveNote note;
    note.before = Rounded(before);
    note.after = Rounded(after);
    note.best = views[i] ? views[i]->best : "";
    const bool best = note.best == m.move;
    note.loss = best ? 0 : Rounded(std::max(0.0, before - after));
    note.judgement = Judge(note.loss);
    auto& [sum, moves] = accuracy[m.colour];
    sum += MoveAccuracy(note.loss);
    ++moves;
    if (losers.count(m.colour) && note.loss >= worst) {
      worst = note.loss;
      game_note.turning_point = static_cast<int>(i) + 1;
    }
    m.note = note;
  }
  for (const auto& [colour, engine] : record.seats) {
    const auto it = accuracy.find(colour);
    if (it == accuracy.end()) continue;
    const auto [sum, moves] = it->second;
    game_note.accuracy.emplace_back(colour, std::round(10 * sum / moves) / 10);
  }
  record.annotation = game_note;
}

absl::StatusOr<GameRecord> AnnotateGame(GameRecord record,
                                        const AnnotateOptions& options,
                                        EnginePool& pool,
                                        const AnnotateProgress& progress) {
  if ((options.visits > 0) == (options.movetime_s > 0)) {
    return absl::InvalidArgumentError(
        "give exactly one of visits and movetime");
  }
  return Annotator(options, pool).Annotate(std::move(record), progress);
}

absl::Status RunAnnotate(const AnnotateOptions& options, std::ostream& out,
                         std::ostream& err, std::stop_token stop) {
  if ((options.visits > 0) == (options.movetime_s > 0)) {
    return absl::InvalidArgumentError(
        "give exactly one of --visits and --movetime");
  }
  absl::StatusOr<std::vector<GameRecord>> pending = PendingGames(options);
  if (!pending.ok()) return pending.status();
  absl::StatusOr<std::unique_ptr<RecordWriter>> writer =
      RecordWriter::Open(options.output, options.resume);
  if (!writer.ok()) return writer.status();
  absl::StatusOr<std::unique_ptr<client::EngineLog>> log =
      client::EngineLog::Open(options.engine_log);
  if (!log.ok()) return log.status();
  const std::vector<EngineSpec> engines = {options.engine};
  EnginePool pool(engines, log->get(), stop);
  int failed = 0;
  for (size_t k = 0; k < pending->size(); ++k) {
    const int number = (*pending)[k].game;
    absl::StatusOr<GameRecord> annotated =
        AnnotateGame(std::move((*pending)[k]), options, pool);
    if (!annotated.ok() && stop.stop_requested()) break;  // left out
    if (!annotated.ok()) {
      ++failed;
      err << "game " << number
          << " not annotated: " << annotated.status().message() << "\n";
      continue;
    }
    if (absl::Status s = (*writer)->Append(*annotated); !s.ok()) return s;
    if (!options.quiet) {
      out << "[" << k + 1 << "/" << pending->size() << "] game " << number
          << ": accuracy " << PlayerSummary(*annotated)
          << "; turning point: " << TurningPointText(*annotated) << std::endl;
    }
  }
  if (failed > 0) {
    return absl::UnavailableError(absl::StrCat(
        failed, " of ", pending->size(),
        " games could not be annotated (run again with --resume)"));
  }
  return absl::OkStatus();
}

}  // namespace wallgo::records
