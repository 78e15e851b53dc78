// What the engines' analysis shows on the page: whether analysis is on and
// by which engine, the candidates for the ply shown, the graph of the best
// candidate's win rate and margin by ply, and a hint (the best move of an
// analysis once it has searched a second). Not thread-safe: its owner's
// lock guards it (tools/gui/bridge.h).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "tools/gui/engine_worker.h"

namespace wallgo::gui {

class AnalysisState {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  // How long a hint's analysis searches before its best move is taken.
  static constexpr std::chrono::seconds kHintSearch{1};

  bool on() const { return on_; }
  int engine() const { return engine_; }
  const std::vector<Candidate>& candidates() const { return candidates_; }
  void Set(bool on, int engine);
  // Forgets the candidates (the position or the engine changed).
  void ClearCandidates() { candidates_.clear(); }
  // Forgets the candidates and the graph (another game).
  void Clear();
  // Forgets the graph after ply `ply` (the moves after it changed).
  void ForgetAfter(int ply);
  // An engine's candidates, best first (not empty).
  void Take(std::vector<Candidate> candidates);
  // The best candidate goes into the graph as the position at `ply`'s, with
  // `turn` (a colour's name) to move.
  void Graph(int ply, const std::string& turn);

  // A hint asked of `engine` at `now` for the position at `ply`.
  void AskHint(int engine, int ply, TimePoint now);
  bool hint_pending() const { return hint_.pending; }
  int hint_engine() const { return hint_.engine; }
  // Forgets the hint unless it is for `ply` (the position shown changed).
  void KeepHintOnlyAt(int ply);
  // When the pending hint is due, if one is.
  std::optional<TimePoint> HintDue() const;
  // Whether the pending hint is due at `now` and has candidates to take.
  bool HintReady(TimePoint now) const;
  // The best candidate becomes the hint (candidates must not be empty).
  void TakeHint();

  // {"analysis": {on, engine, ply, candidates}, "graph": [...]}.
  nlohmann::json Json(const std::string& engine_name, int ply) const;
  // {pending, ply, move}.
  nlohmann::json HintJson() const;

 private:
  struct GraphPoint {
    std::string turn;  // whose win rate and margin these are
    double winrate = 0, score = 0;
    int64_t visits = 0;
  };
  struct Hint {
    bool pending = false;
    int engine = 0;
    int ply = -1;
    TimePoint asked;
    std::string move;
  };
  bool on_ = false;
  int engine_ = 0;
  std::vector<Candidate> candidates_;
  std::map<int, GraphPoint> graph_;  // by ply of the current game
  Hint hint_;
};

}  // namespace wallgo::gui
