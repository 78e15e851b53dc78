#include "tools/gui/analysis_state.h"

#include <utility>

namespace wallgo::gui {

using nlohmann::json;

void AnalysisState::Set(bool on, int engine) {
  on_ = on;
  engine_ = engine;
  candidates_.clear();
}

void AnalysisState::Clear() {
  graph_.clear();
  candidates_.clear();
}

void AnalysisState::ForgetAfter(int ply) {
  graph_.erase(graph_.upper_bound(ply), graph_.end());
}

void AnalysisState::Take(std::vector<Candidate> candidates) {
  candidates_ = std::move(candidates);
}

void AnalysisState::Graph(int ply, const std::string& turn) {
  if (candidates_.empty()) return;
  const Candidate& best = candidates_.front();
  graph_[ply] = {turn, best.winrate, best.score, best.visits};
}

void AnalysisState::AskHint(int engine, int ply, TimePoint now) {
  hint_ = Hint{true, engine, ply, now, ""};
}

void AnalysisState::KeepHintOnlyAt(int ply) {
  if (hint_.ply != ply) hint_ = Hint{};
}

std::optional<AnalysisState::TimePoint> AnalysisState::HintDue() const {
  if (!hint_.pending) return std::nullopt;
  return hint_.asked + kHintSearch;
}

bool AnalysisState::HintReady(TimePoint now) const {
  return hint_.pending && now >= hint_.asked + kHintSearch &&
         !candidates_.empty();
}

void AnalysisState::TakeHint() {
  hint_.pending = false;
  hint_.move = candidates_.front().move;
}

json AnalysisState::Json(const std::string& engine_name, int ply) const {
  json candidates = json::array();
  for (const Candidate& c : candidates_) {
    candidates.push_back({{"move", c.move},
                          {"visits", c.visits},
                          {"winrate", c.winrate},
                          {"score", c.score},
                          {"pv", c.pv}});
  }
  json graph = json::array();
  for (const auto& [at, point] : graph_) {
    graph.push_back({{"ply", at},
                     {"turn", point.turn},
                     {"winrate", point.winrate},
                     {"score", point.score},
                     {"visits", point.visits}});
  }
  return {{"analysis",
           {{"on", on_},
            {"engine", engine_name},
            {"ply", ply},
            {"candidates", candidates}}},
          {"graph", graph}};
}

json AnalysisState::HintJson() const {
  return {{"pending", hint_.pending}, {"ply", hint_.ply}, {"move", hint_.move}};
}

}  // namespace wallgo::gui
