// Annotation (`wallgo-referee annotate`, wallgo-gui's review): every move of
// recorded games judged by an engine that speaks the text protocol (so
// neither tool links a search).
// For each position the engine is asked `genmove_analyze` (then `undo`); the
// mover's win rate before and after each move gives the move's loss, judged
// as lichess judges it, and the games are written back with a note per move,
// each player's accuracy and the game's turning point.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/types.h"
#include "tools/client/engine_pool.h"
#include "tools/client/engine_spec.h"
#include "tools/records/opening.h"
#include "tools/records/records.h"

namespace wallgo::records {

struct AnnotateOptions {
  std::string records;  // the games to annotate
  std::string output;   // the annotated games (JSON Lines, as records)
  client::EngineSpec engine;
  int64_t visits = 0;     // per position; exactly one of visits and
  double movetime_s = 0;  // movetime is > 0
  std::set<int> games;    // game numbers; empty = every game
  bool resume = false;    // keep the output's games, annotate the rest
  int shard_index = 0;    // 0-based; games dealt in turn by number
  int shard_count = 1;
  double command_timeout_s = 10;  // any command but genmove_analyze
  std::string engine_log;         // engine's standard error; "" = dropped
  bool quiet = false;
};

// Judgement thresholds on the mover's win-rate loss, lichess's (0.1, 0.2,
// 0.3 in "winning chances", 2 * win rate - 1) in win-rate units.
inline constexpr double kInaccuracyLoss = 0.05;
inline constexpr double kMistakeLoss = 0.10;
inline constexpr double kBlunderLoss = 0.15;

// "", "inaccuracy", "mistake" or "blunder".
std::string Judge(double loss);

// Lichess's accuracy of a move in 0..100 from its win-rate loss (0..1):
// 103.1668 * exp(-0.04354 * 100 * loss) - 3.1669.
double MoveAccuracy(double loss);

// What an engine said of one position.
struct EngineView {
  std::string best;      // its best move
  double winrate = 0.5;  // the side to move's
  // Every reported candidate with its win rate (for the side to move).
  std::vector<std::pair<std::string, double>> candidates;
};

// Reads a genmove_analyze answer's text: info lines (possibly several
// reports; the last one counts) then `play MOVE`.
absl::StatusOr<EngineView> ParseAnalyzeAnswer(const std::string& text);

// Each player's win rate in one position, where known: NaN where not (the
// engine speaks for the side to move only, so in 3-4 player games the
// others stay unknown). Exact for finished games.
using WinRates = std::array<double, kMaxPlayers>;

// Fills the notes of `record` from positions 0..moves.size(): `rates[i]`
// and `views[i]` (null for a finished position) describe the position
// before move i+1 (`rates[moves.size()]` the last one). A move whose
// after-value is unknown (3-4 players, move not among the candidates) gets
// no note. The engine's own best move loses nothing: the difference between
// two searches of neighbouring positions is noise, not a mistake.
void AddNotes(GameRecord& record, const std::vector<WinRates>& rates,
              const std::vector<std::optional<EngineView>>& views,
              const AnnotateOptions& options);

// Called after each position of a game is judged, with the positions judged
// and the positions in all; returning false stops the game's annotation.
using AnnotateProgress = std::function<bool(int done, int total)>;

// Judges every move of one game with engine 0 of `pool` at the options'
// budget (visits or movetime, command timeout) and adds the notes (AddNotes).
// The engine is told the game from its opening; an engine that fails is
// killed (the pool starts another next time) and the game is an error, as
// is a stop asked by `progress` (Cancelled). `wallgo-referee annotate` and
// wallgo-gui's review both judge games with this.
absl::StatusOr<GameRecord> AnnotateGame(
    GameRecord record, const AnnotateOptions& options, client::EnginePool& pool,
    const AnnotateProgress& progress = nullptr);

// Annotates the games; a progress line per game on `out`. Errors are for
// unusable options or files; a game whose engine fails is reported on `err`
// and left out (a later --resume run tries it again). A `stop` request
// kills the engine and ends the run; the game in progress is left out.
absl::Status RunAnnotate(const AnnotateOptions& options, std::ostream& out,
                         std::ostream& err, std::stop_token stop = {});

}  // namespace wallgo::records
