#include "search/endgame_search.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "search/mcts.h"
#include "search/players/player_common.h"
#include "search/time_plan.h"

namespace wallgo::search {
namespace {

using SteadyClock = std::chrono::steady_clock;

double Seconds(SteadyClock::time_point since) {
  return std::chrono::duration<double>(SteadyClock::now() - since).count();
}

// The least time left to the graph search after the solver (a stopped
// search still gets this, so that it answers a sensible move).
constexpr double kMinGraphSeconds = 0.01;
// The solver's table: about this many MB per million nodes it may visit
// (24-byte entries), within a quarter of the search's memory.
constexpr double kTableMbPerMillionNodes = 24;
// The solver's nodes a second, for sizing its table by time (an upper
// estimate on one core).
constexpr double kSolverNodesPerSecond = 1e6;

// The playouts a search may make at most: options.visits and the level's
// cap, whichever is lower; 0 = no cap.
int64_t PlayoutCap(const SearchOptions& options, int64_t level_cap) {
  if (options.visits > 0 && level_cap > 0) {
    return std::min(options.visits, level_cap);
  }
  return std::max<int64_t>(options.visits, level_cap);
}

// `options` and `limits` less `spent` seconds: what the graph search has
// left after the solver (at least kMinGraphSeconds).
void TakeTime(double spent, SearchOptions& options, Limits& limits) {
  auto less = [spent](double s) {
    return std::max(kMinGraphSeconds, s - spent);
  };
  if (options.movetime_s > 0) options.movetime_s = less(options.movetime_s);
  Clock& clock = limits.clock;
  if (!clock.active()) return;
  if (!clock.in_byo && clock.main_s > 0) {
    clock.main_s = less(clock.main_s);
  } else {
    clock.byo_s = less(clock.byo_s);
  }
}

bool IsOptimal(const SolveResult& proof, Move move) {
  return std::find(proof.optimal.begin(), proof.optimal.end(), move) !=
         proof.optimal.end();
}

// Whether a wall limit leaves the players at most kSolverMaxWallsLeft walls
// in all.
bool FewWallsLeft(const Position& pos) {
  int left = 0;
  for (int i = 0; i < pos.num_players(); ++i) {
    const int walls = pos.walls_left(ColourAt(i));
    if (walls == kUnlimitedWalls) return false;
    left += walls;
  }
  return left <= kSolverMaxWallsLeft;
}

}  // namespace

bool NearTheEnd(const Position& pos) {
  if (pos.in_setup()) return false;
  const RegionSplit split = AnalyzeRegions(pos);
  return split.contested_regions > 0 &&
         (split.contested_cells <= kSolverMaxContestedCells ||
          FewWallsLeft(pos));
}

bool SolvesBeside(const SearchOptions& options, const Limits& limits,
                  int64_t playout_cap) {
  // threads * share >= 1, less a rounding error (5 * 0.2).
  return playout_cap == 0 && !limits.infinite && options.threads >= 2 &&
         options.threads * options.solver_share >= 1 - 1e-9;
}

SolverLimits SolverBudget(const SearchOptions& options, const Limits& limits,
                          const Position& pos, int64_t playout_cap) {
  SolverLimits budget;
  const double share = options.solver_share;
  double most_nodes = 0;
  if (limits.infinite) {
    budget.seconds = kAnalysisSolverSeconds;
  } else if (playout_cap > 0) {
    budget.seconds = 0;  // nodes only: the same answer every time
    budget.nodes = std::max<int64_t>(
        1, static_cast<int64_t>(share * static_cast<double>(playout_cap) *
                                kSolverNodesPerPlayout));
    most_nodes = static_cast<double>(budget.nodes);
  } else {
    const TimePlan plan =
        PlanTime(options, limits, pos, MctsConfig{}.default_movetime_s);
    budget.seconds = share * plan.soft_s;
  }
  if (budget.seconds > 0) most_nodes = budget.seconds * kSolverNodesPerSecond;
  const double mb = most_nodes / 1e6 * kTableMbPerMillionNodes;
  budget.hash_mb = static_cast<int>(
      std::clamp(mb, 1.0, std::max(1.0, options.hash_mb / 4.0)));
  return budget;
}

void ApplyProof(const Position& pos, const SolveResult& proof,
                SearchInfo& info) {
  const PlayerValue value = proof.mover_value(pos);
  const double winrate = value.share12 / 12.0;
  info.root_winrate = winrate;
  info.root_score_margin = value.margin;
  info.solved = info.exact = true;
  std::vector<Candidate>& candidates = info.candidates;
  std::stable_partition(
      candidates.begin(), candidates.end(),
      [&proof](const Candidate& c) { return IsOptimal(proof, c.move); });
  if (candidates.empty() || !IsOptimal(proof, candidates.front().move)) {
    Candidate c;
    c.move = proof.optimal.front();
    c.pv = !proof.pv.empty() && proof.pv.front() == c.move
               ? proof.pv
               : std::vector<Move>{c.move};
    candidates.insert(candidates.begin(), std::move(c));
  }
  for (Candidate& c : candidates) {
    if (!IsOptimal(proof, c.move)) break;
    c.winrate = winrate;
    c.score_margin = value.margin;
  }
}

void ApplyRange(const ValueRange& range, SearchInfo& info) {
  info.solved = true;
  info.exact = range.least.Utility() == range.most.Utility();
  info.root_winrate = range.least.share12 / 12.0;
  info.root_score_margin = std::clamp(info.root_score_margin,
                                      static_cast<double>(range.least.margin),
                                      static_cast<double>(range.most.margin));
}

bool AvoidRefuted(const SolveResult& proof, SearchInfo& info) {
  auto refuted = [&proof](Move m) {
    return std::find(proof.refuted.begin(), proof.refuted.end(), m) !=
           proof.refuted.end();
  };
  std::vector<Candidate>& candidates = info.candidates;
  if (proof.pv.empty() || candidates.empty() ||
      !refuted(candidates.front().move)) {
    return false;
  }
  const Move sure = proof.pv.front();
  std::stable_partition(
      candidates.begin(), candidates.end(),
      [&](const Candidate& c) { return c.move == sure || !refuted(c.move); });
  auto at = std::find_if(candidates.begin(), candidates.end(),
                         [sure](const Candidate& c) { return c.move == sure; });
  if (at == candidates.end()) {
    // The graph search never tried it: what it is known to reach.
    Candidate c;
    c.move = sure;
    c.pv = proof.pv;
    if (proof.range) {
      c.winrate = proof.range->least.share12 / 12.0;
      c.score_margin = proof.range->least.margin;
    }
    candidates.insert(candidates.begin(), std::move(c));
  } else {
    std::rotate(candidates.begin(), at, at + 1);
  }
  return true;
}

namespace {

// Whether `proof` proved the value and an optimal move to play.
bool ProvesAMove(const SolveResult& proof) {
  return proof.proven && !proof.optimal.empty();
}

// Makes `info` say what a solve says: its proof (ApplyProof), or what its
// range proved (ApplyRange) and its refuted moves (AvoidRefuted); true when
// the first candidate is then the solve's choice rather than the graph
// search's.
bool ApplySolve(const Position& pos, const SolveResult& proof,
                SearchInfo& info) {
  if (ProvesAMove(proof)) {
    ApplyProof(pos, proof, info);
    return true;
  }
  if (proof.range && proof.range->result_known()) {
    ApplyRange(*proof.range, info);
  }
  return AvoidRefuted(proof, info);
}

// The graph search's answer made to say what a solve says.
void ApplySolve(const Position& pos, const SolveResult& proof,
                SearchResult& result) {
  if (ApplySolve(pos, proof, result.info)) {
    result.best = result.info.candidates.front().move;
  }
}

}  // namespace

EndgameSearcher::EndgameSearcher(std::unique_ptr<Searcher> graph_search,
                                 const SearchOptions& options,
                                 int64_t playout_cap)
    : graph_search_(std::move(graph_search)),
      options_(options),
      playout_cap_(playout_cap) {}

void EndgameSearcher::SetOptions(const SearchOptions& options) {
  options_ = options;
  graph_search_->SetOptions(options);
}

void EndgameSearcher::Clear() {
  graph_search_->Clear();
  skip_ = backoff_ = 0;
  solver_memory_.reset();
}

void EndgameSearcher::Stop() {
  stop_.store(true, std::memory_order_relaxed);
  graph_search_->Stop();
}

SolveResult EndgameSearcher::SolveFirst(const Position& pos,
                                        const Limits& limits,
                                        const InfoCallback& on_info,
                                        double info_interval_s) {
  const auto start = SteadyClock::now();
  const int64_t cap = PlayoutCap(options_, playout_cap_);
  SolverLimits budget = SolverBudget(options_, limits, pos, cap);
  double next_info = info_interval_s > 0 ? info_interval_s : 1e300;
  budget.should_stop = [&] {
    const double elapsed = Seconds(start);
    if (on_info && elapsed >= next_info) {
      SearchInfo waiting;
      waiting.elapsed_s = elapsed;
      on_info(waiting);
      next_info = elapsed + info_interval_s;
    }
    return stop_.load(std::memory_order_relaxed);
  };
  if (cap > 0) return Solve(pos, budget);
  return Solve(pos, budget, KeptMemory(budget));
}

SolverMemory& EndgameSearcher::KeptMemory(const SolverLimits& budget) {
  if (solver_memory_ == nullptr) {
    const int most = std::max(1, options_.hash_mb / 4);
    solver_memory_ = std::make_unique<SolverMemory>(
        std::min(most, budget.hash_mb * kKeptSolverTableFactor));
  }
  return *solver_memory_;
}

void EndgameSearcher::Back(bool proven) {
  if (proven) {
    backoff_ = 0;
  } else if (!stop_.load(std::memory_order_relaxed)) {
    backoff_ = std::min(kMaxSkippedSearches, std::max(1, 2 * backoff_));
    skip_ = backoff_;
  }
}

SearchResult EndgameSearcher::SolveBeside(const Position& pos,
                                          const Limits& limits,
                                          const InfoCallback& on_info,
                                          double info_interval_s) {
  const auto start = SteadyClock::now();
  // The table as for the whole planned time; no time of its own: the
  // solver stops with the graph search.
  SearchOptions whole = options_;
  whole.solver_share = 1;
  SolverLimits budget = SolverBudget(whole, limits, pos, 0);
  budget.seconds = 0;
  std::atomic<bool> graph_done{false}, proven{false};
  budget.should_stop = [&] {
    // Where threads are fibers (the single-threaded WebAssembly build) the
    // graph search runs only while the solver yields; elsewhere it costs
    // about a microsecond a poll (1,024 nodes).
    std::this_thread::yield();
    return stop_.load(std::memory_order_relaxed) ||
           graph_done.load(std::memory_order_relaxed);
  };
  SolverMemory& memory = KeptMemory(budget);
  SearchOptions graph_options = options_;
  graph_options.threads = options_.threads - 1;
  graph_search_->SetOptions(graph_options);
  SolveResult proof;
  std::thread solver([&] {
    proof = Solve(pos, budget, memory);
    if (!ProvesAMove(proof)) return;
    proven.store(true, std::memory_order_release);
    // The graph search clears a stop as it starts: ask until it has ended.
    while (!graph_done.load(std::memory_order_acquire)) {
      graph_search_->Stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  InfoCallback relay;
  if (on_info) {
    relay = [&](const SearchInfo& info) {
      if (stop_.load(std::memory_order_relaxed)) graph_search_->Stop();
      if (!proven.load(std::memory_order_acquire)) return on_info(info);
      SearchInfo proved = info;
      ApplyProof(pos, proof, proved);
      on_info(proved);
    };
  }
  SearchResult result =
      graph_search_->Search(pos, limits, relay, info_interval_s);
  graph_done.store(true, std::memory_order_release);
  solver.join();
  graph_search_->SetOptions(options_);
  Back(ProvesAMove(proof));
  ApplySolve(pos, proof, result);
  result.info.elapsed_s = Seconds(start);
  return result;
}

SearchResult EndgameSearcher::Search(const Position& pos, const Limits& limits,
                                     const InfoCallback& on_info,
                                     double info_interval_s) {
  stop_.store(false, std::memory_order_relaxed);
  const int64_t cap = PlayoutCap(options_, playout_cap_);
  const SolverLimits budget = SolverBudget(options_, limits, pos, cap);
  const bool too_short =
      cap == 0 && !limits.infinite && budget.seconds < kMinSolverSeconds;
  if (options_.solver_share <= 0 || too_short || !NearTheEnd(pos)) {
    return graph_search_->Search(pos, limits, on_info, info_interval_s);
  }
  if (skip_ > 0) {
    --skip_;
    return graph_search_->Search(pos, limits, on_info, info_interval_s);
  }
  if (SolvesBeside(options_, limits, cap)) {
    return SolveBeside(pos, limits, on_info, info_interval_s);
  }
  const auto start = SteadyClock::now();
  const SolveResult proof = SolveFirst(pos, limits, on_info, info_interval_s);
  const bool proven = ProvesAMove(proof);
  Back(proven);

  // The graph search has what is left; a stop during the solver leaves it a
  // moment, to answer a move, and so does a proof of a timed search (the
  // move is known, and a clock keeps the time for later moves).
  SearchOptions graph_options = options_;
  Limits graph_limits = limits;
  if (stop_.load(std::memory_order_relaxed) ||
      (proven && cap == 0 && !limits.infinite)) {
    graph_options.movetime_s = kMinGraphSeconds;
    graph_options.movetime_set = true;
    graph_limits.infinite = false;
    graph_limits.clock = {};
  } else {
    TakeTime(Seconds(start), graph_options, graph_limits);
  }
  // Each report carries the proof, and repeats a stop request that came
  // from another thread while the graph search was starting (it clears its
  // own at the start).
  InfoCallback relay;
  if (on_info) {
    relay = [&](const SearchInfo& info) {
      if (stop_.load(std::memory_order_relaxed)) graph_search_->Stop();
      SearchInfo proved = info;
      ApplySolve(pos, proof, proved);
      on_info(proved);
    };
  }
  graph_search_->SetOptions(graph_options);
  SearchResult result =
      graph_search_->Search(pos, graph_limits, relay, info_interval_s);
  graph_search_->SetOptions(options_);
  ApplySolve(pos, proof, result);
  result.info.elapsed_s = Seconds(start);
  return result;
}

}  // namespace wallgo::search
