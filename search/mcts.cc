#include "search/mcts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <thread>
#include <tuple>
#include <vector>

#include "engine/movegen.h"
#include "engine/regions.h"
#include "engine/zobrist.h"
#include "search/eval/eval.h"
#include "search/time_plan.h"
#include "search/tree_policy.h"

namespace wallgo::search {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr int kMaxDepth = 512;
constexpr int kMaxPv = 12;
constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();

double Seconds(SteadyClock::time_point since) {
  return std::chrono::duration<double>(SteadyClock::now() - since).count();
}

Value ValueOf(const Evaluation& ev, int players) {
  Value v;
  for (int p = 0; p < players; ++p) {
    v.win[p] = ev.win[p];
    v.margin[p] = ScoreMargin(ev.score, players, ColourAt(p));
  }
  return v;
}

// Counters each thread updates on its own cache line (summed when read), so
// that threads do not fight over one line every playout.
struct alignas(64) ThreadCounters {
  std::atomic<int64_t> completed{0};  // playouts
  std::atomic<int64_t> visited{0};    // nodes passed by them
};

// A thread's sum of its playouts' leaf ownership estimates (Limits::
// ownership). Only its thread writes it; Info reads it while the search runs,
// hence relaxed atomics rather than a lock.
struct alignas(64) OwnershipSum {
  std::array<std::atomic<double>, kNumCells*(kMaxPlayers + 1)> share{};

  void Add(const Ownership& o) {
    for (int cell = 0; cell < kNumCells; ++cell) {
      for (int k = 0; k <= kMaxPlayers; ++k) {
        std::atomic<double>& sum = share[cell * (kMaxPlayers + 1) + k];
        sum.store(sum.load(std::memory_order_relaxed) + o.share[cell][k],
                  std::memory_order_relaxed);
      }
    }
  }
};

struct ThreadState {
  std::mt19937_64 rng;
  OwnershipSum* ownership = nullptr;  // set when the search is asked for it
  NodeId spare = kNoNode;  // allocated but not published (lost a race)
  std::vector<PathStep> path;
};

}  // namespace

// One search: the shared state of its threads.
class MctsSearcher::Run {
 public:
  Run(Graph& graph, const MctsConfig& config, const Position& root_pos,
      int64_t visit_limit, int threads, const Limits& limits)
      : graph_(graph),
        config_(config),
        root_pos_(root_pos),
        players_(root_pos.num_players()),
        visit_limit_(visit_limit),
        all_moves_(limits.all_moves),
        counters_(std::max(1, threads)),
        ownership_(limits.ownership ? std::max(1, threads) : 0) {}

  // Finds or creates the root node and expands it; false when the memory
  // cannot even hold that.
  bool PrepareRoot(ThreadState& t) {
    bool fresh = false;
    root_ = FindOrCreate(root_pos_, t, &fresh);
    return root_ != kNoNode && Expand(root_, root_pos_, t);
  }

  void Work(int thread, uint64_t seed) {
    ThreadCounters& counters = counters_[thread];
    ThreadState t;
    t.rng.seed(seed);
    if (!ownership_.empty()) t.ownership = &ownership_[thread];
    t.path.reserve(kMaxDepth);
    while (!done_.load(std::memory_order_relaxed)) {
      // Only a playout budget needs the shared count (every thread bumping
      // one line each playout costs them both).
      if (visit_limit_ != kUnlimited &&
          started_.fetch_add(1, std::memory_order_relaxed) >= visit_limit_) {
        done_.store(true, std::memory_order_relaxed);
        break;
      }
      Playout(t);
      counters.completed.fetch_add(1, std::memory_order_relaxed);
      counters.visited.fetch_add(static_cast<int64_t>(t.path.size()) + 1,
                                 std::memory_order_relaxed);
      if (RootProof() == Proof::kExact) done_.store(true);
    }
  }

  void Finish() { done_.store(true); }
  bool done() const { return done_.load(std::memory_order_relaxed); }
  int64_t completed() const {
    int64_t sum = 0;
    for (const ThreadCounters& c : counters_) {
      sum += c.completed.load(std::memory_order_relaxed);
    }
    return sum;
  }
  int64_t visited() const {
    int64_t sum = 0;
    for (const ThreadCounters& c : counters_) {
      sum += c.visited.load(std::memory_order_relaxed);
    }
    return sum;
  }
  Proof RootProof() const {
    return graph_.node(root_).proof.load(std::memory_order_acquire);
  }
  NodeId root() const { return root_; }

  // Root edges, best first: proven wins for the mover (biggest margin
  // first), then by visits and value, proven losses last.
  std::vector<int> RankedRootEdges() {
    Node& root = graph_.node(root_);
    const int n = root.num_edges.load(std::memory_order_acquire);
    std::vector<int> order(n);
    std::vector<std::tuple<int, int64_t, float>> keys(n);
    for (int i = 0; i < n; ++i) {
      order[i] = i;
      keys[i] = RankKey(root, i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&keys](int a, int b) { return keys[a] > keys[b]; });
    return order;
  }

  Candidate MakeCandidate(int edge_index) {
    Node& root = graph_.node(root_);
    Edge& e = graph_.edges(root)[edge_index];
    Candidate c;
    c.move = e.move;
    c.visits = e.visits.load(std::memory_order_relaxed);
    const NodeId child = e.child.load(std::memory_order_acquire);
    const Value v = child != kNoNode ? graph_.node(child).q.Load() : root.eval;
    c.winrate = v.win[root.to_move];
    c.score_margin = v.margin[root.to_move];
    c.prior = e.prior;
    c.pv.push_back(e.move);
    for (NodeId id = child; id != kNoNode && c.pv.size() < kMaxPv;) {
      const int best = MostVisitedEdge(graph_.node(id));
      if (best < 0) break;
      Edge& next = graph_.edges(graph_.node(id))[best];
      c.pv.push_back(next.move);
      id = next.child.load(std::memory_order_acquire);
    }
    return c;
  }

  SearchInfo Info(int max_candidates, double elapsed_s) {
    SearchInfo info;
    const std::vector<int> order = RankedRootEdges();
    Node& root = graph_.node(root_);
    for (int i : order) {
      Edge& e = graph_.edges(root)[i];
      const bool shown = e.visits.load(std::memory_order_relaxed) > 0 ||
                         info.candidates.empty() || all_moves_;
      if (!shown || static_cast<int>(info.candidates.size()) >= max_candidates)
        break;
      info.candidates.push_back(MakeCandidate(i));
    }
    const Value v = root.q.Load();
    info.root_winrate = v.win[root.to_move];
    info.root_score_margin = v.margin[root.to_move];
    info.solved = RootProof() != Proof::kNone;
    info.exact = RootProof() == Proof::kExact;
    if (!ownership_.empty()) info.ownership = AverageOwnership();
    info.total_visits = completed();
    info.nodes = graph_.Stats().nodes;
    info.elapsed_s = elapsed_s;
    return info;
  }

  // True when the two best moves are close enough that more time helps.
  bool Unclear() {
    const std::vector<int> order = RankedRootEdges();
    if (order.size() < 2 || RootProof() != Proof::kNone) return false;
    Node& root = graph_.node(root_);
    Edge* e = graph_.edges(root);
    const int64_t best = e[order[0]].visits.load(std::memory_order_relaxed);
    const int64_t second = e[order[1]].visits.load(std::memory_order_relaxed);
    return second * 2 > best;
  }
  // True when the best move leads the second by far.
  bool Obvious() {
    const std::vector<int> order = RankedRootEdges();
    if (order.size() < 2) return true;
    Edge* e = graph_.edges(graph_.node(root_));
    const int64_t best = e[order[0]].visits.load(std::memory_order_relaxed);
    const int64_t second = e[order[1]].visits.load(std::memory_order_relaxed);
    return best > 100 && best > 5 * second;
  }

 private:
  // The threads' sums over their playouts, each cell divided by its own
  // total (every playout adds 1 per cell), so that a report read while the
  // threads add stays a distribution; the root's own estimate before the
  // first playout (a solved root or a forced move has none).
  std::vector<CellOwnership> AverageOwnership() const {
    std::vector<CellOwnership> average(kNumCells);
    std::vector<double> sums(kNumCells * (kMaxPlayers + 1), 0.0);
    for (const OwnershipSum& sum : ownership_) {
      for (size_t i = 0; i < sums.size(); ++i) {
        sums[i] += sum.share[i].load(std::memory_order_relaxed);
      }
    }
    const Ownership root = EstimateOwnership(root_pos_);
    for (int cell = 0; cell < kNumCells; ++cell) {
      const double* shares = &sums[cell * (kMaxPlayers + 1)];
      double total = 0;
      for (int k = 0; k <= kMaxPlayers; ++k) total += shares[k];
      for (int k = 0; k <= kMaxPlayers; ++k) {
        average[cell][k] = total > 0 ? static_cast<float>(shares[k] / total)
                                     : root.share[cell][k];
      }
    }
    return average;
  }

  std::tuple<int, int64_t, float> RankKey(Node& parent, int i) {
    const int p = parent.to_move;
    Edge& e = graph_.edges(parent)[i];
    const int64_t visits = e.visits.load(std::memory_order_relaxed);
    const NodeId child = e.child.load(std::memory_order_acquire);
    if (child == kNoNode) return {1, visits, e.prior};
    Node& c = graph_.node(child);
    const Value v = c.q.Load();
    const Proof proof = c.proof.load(std::memory_order_acquire);
    if (proof != Proof::kNone && SureWin(v, p)) {
      return {2, 0, v.Utility(p)};
    }
    if (proof != Proof::kNone && v.win[p] <= 0.0f)
      return {0, visits, v.Utility(p)};
    return {1, visits, v.Utility(p)};
  }

  int MostVisitedEdge(Node& n) {
    if (n.expand_state.load(std::memory_order_acquire) !=
        ExpandState::kExpanded) {
      return -1;
    }
    Edge* e = graph_.edges(n);
    int best = -1;
    int32_t best_visits = 0;
    for (int i = 0; i < n.num_edges.load(std::memory_order_relaxed); ++i) {
      const int32_t v = e[i].visits.load(std::memory_order_relaxed);
      if (v > best_visits) best = i, best_visits = v;
    }
    return best;
  }

  Value LeafValue(const Position& pos, ThreadState& t) {
    if (config_.playout_moves <= 0) return ValueOf(Evaluate(pos), players_);
    Position p = pos;
    MoveList moves;
    for (int i = 0; i < config_.playout_moves; ++i) {
      GenerateMoves(p, moves);
      if (moves.empty()) break;
      p.Play(moves[std::uniform_int_distribution<int>(
          0, moves.size() - 1)(t.rng)]);
    }
    return ValueOf(Evaluate(p), players_);
  }

  // The node of `pos`, created (evaluated and published) when new.
  NodeId FindOrCreate(const Position& pos, ThreadState& t, bool* fresh) {
    const uint64_t key = pos.hash(), check = PositionCheck(pos);
    *fresh = false;
    if (NodeId id = graph_.Find(key, check); id != kNoNode) return id;
    NodeId id = t.spare != kNoNode ? t.spare : graph_.Allocate();
    if (id == kNoNode) return kNoNode;
    const bool over = IsGameOver(pos);
    const Value value =
        over ? ValueOf(Evaluate(pos), players_) : LeafValue(pos, t);
    graph_.node(id).Init(key, check, Index(pos.to_move()), value,
                         over ? Proof::kExact : Proof::kNone);
    const NodeId published = graph_.Publish(id);
    t.spare = published == id ? kNoNode : id;
    *fresh = published == id;
    return published;
  }

  // Builds the edges of `id` (once, by whichever thread gets there first).
  // False when there is no memory left for them, or when another thread is
  // building them right now: the playout then ends at `id`.
  bool Expand(NodeId id, const Position& pos, ThreadState& t) {
    Node& n = graph_.node(id);
    ExpandState state = n.expand_state.load(std::memory_order_acquire);
    if (state == ExpandState::kUnexpanded &&
        n.expand_state.compare_exchange_strong(state, ExpandState::kExpanding,
                                               std::memory_order_acq_rel)) {
      const bool built = BuildEdges(n, pos, t);
      n.expand_state.store(
          built ? ExpandState::kExpanded : ExpandState::kUnexpanded,
          std::memory_order_release);
      return built;
    }
    // Another thread is building the edges (tens of microseconds: every
    // child is evaluated). Waiting for it cost the second thread a fifth of
    // its time; ending this playout here, as when memory is full, does not.
    return state == ExpandState::kExpanded;
  }

  bool BuildEdges(Node& n, const Position& pos, ThreadState& t) {
    (void)t;
    MoveList moves;
    GenerateMoves(pos, moves);
    const int count = moves.size();
    const int64_t begin = graph_.AllocateEdges(count);
    if (begin < 0 || count == 0) return false;
    const int p = n.to_move;
    std::array<float, MoveList::kCapacity> utility, prior;
    std::array<int, MoveList::kCapacity> order;
    float best = -std::numeric_limits<float>::infinity();
    for (int i = 0; i < count; ++i) {
      order[i] = i;
      if (config_.eval_priors) {
        Position child = pos;
        child.Play(moves[i]);
        utility[i] = ValueOf(Evaluate(child), players_).Utility(p);
      } else {
        utility[i] =
            n.eval.Utility(p) - static_cast<float>(config_.fpu_reduction);
      }
      best = std::max(best, utility[i]);
    }
    float sum = 0;
    for (int i = 0; i < count; ++i) {
      prior[i] = std::exp((utility[i] - best) /
                          static_cast<float>(config_.prior_temperature));
      sum += prior[i];
    }
    // Best first-play value first; the prior, rising with it, follows. The
    // selection relies on that order (Node::tried).
    std::stable_sort(
        order.begin(), order.begin() + count,
        [&utility](int a, int b) { return utility[a] > utility[b]; });
    for (int k = 0; k < count; ++k) {
      const int i = order[k];
      graph_.edge(begin + k).Init(moves[i], prior[i] / sum, utility[i]);
    }
    n.edge_begin.store(static_cast<uint32_t>(begin), std::memory_order_relaxed);
    n.num_edges.store(static_cast<uint16_t>(count), std::memory_order_relaxed);
    return true;
  }

  void Playout(ThreadState& t) {
    Position pos = root_pos_;
    NodeId id = root_;
    bool fresh = false;
    t.path.clear();
    while (static_cast<int>(t.path.size()) < kMaxDepth) {
      Node& n = graph_.node(id);
      if (fresh || n.proof.load(std::memory_order_acquire) == Proof::kExact) {
        break;
      }
      if (!Expand(id, pos, t)) break;  // memory full: a leaf for now
      const int i = SelectEdge(graph_, n, config_.c_puct);
      Edge& e = graph_.edges(n)[i];
      pos.Play(e.move);
      NodeId child = e.child.load(std::memory_order_acquire);
      if (child == kNoNode) {
        child = FindOrCreate(pos, t, &fresh);
        if (child == kNoNode) {  // memory full: end the playout at `n`
          e.virtual_loss.fetch_sub(1, std::memory_order_relaxed);
          break;
        }
        e.child.store(child, std::memory_order_release);
      }
      t.path.push_back({id, i});
      id = child;
    }
    if (t.ownership != nullptr) t.ownership->Add(EstimateOwnership(pos));
    Backup(graph_, t.path, players_);
  }

  Graph& graph_;
  const MctsConfig& config_;
  const Position root_pos_;
  const int players_;
  const int64_t visit_limit_;
  const bool all_moves_;
  NodeId root_ = kNoNode;
  alignas(64) std::atomic<int64_t> started_{0};
  alignas(64) std::atomic<bool> done_{false};
  std::vector<ThreadCounters> counters_;
  std::vector<OwnershipSum> ownership_;  // one per thread when asked, else none
};

MctsSearcher::MctsSearcher(const SearchOptions& options,
                           const MctsConfig& config)
    : options_(options), config_(config) {
  graph_ = std::make_unique<Graph>(static_cast<size_t>(options.hash_mb) << 20);
}

MctsSearcher::~MctsSearcher() = default;

void MctsSearcher::SetOptions(const SearchOptions& options) {
  const bool resize = options.hash_mb != options_.hash_mb;
  options_ = options;
  if (resize) {
    graph_.reset();  // free the old arenas before taking the new ones
    graph_ =
        std::make_unique<Graph>(static_cast<size_t>(options.hash_mb) << 20);
  }
}

void MctsSearcher::Clear() {
  graph_->Clear();
  searches_ = 0;
}

GraphStats MctsSearcher::graph_stats() const { return graph_->Stats(); }

namespace {

// The root's node kept from the last search (with what lies below it), or
// an empty graph when the position is new to it.
// Compaction is skipped while the arenas are at most half full (the
// unreachable part only takes room), and traded for a clear when it would
// eat more than a tenth of the planned time: it costs about 2 us a node.
void ReuseOrClear(Graph& graph, const Position& pos, double soft_s) {
  constexpr double kCompactSecondsPerNode = 2e-6;
  const NodeId old_root = graph.Find(pos.hash(), PositionCheck(pos));
  if (old_root == kNoNode) {
    graph.Clear();
    return;
  }
  const GraphStats s = graph.Stats();
  const bool crowded =
      2 * s.nodes > s.node_capacity || 2 * s.edges > s.edge_capacity;
  if (!crowded) return;
  if (kCompactSecondsPerNode * s.nodes <= 0.1 * soft_s) {
    graph.Compact(old_root);
  } else {
    graph.Clear();
  }
}

// Looks at the root's candidates only when the plan can use them.
bool TimeIsUp(const TimePlan& plan, double elapsed_s, MctsSearcher::Run& run) {
  if (elapsed_s < 0.5 * plan.soft_s) return false;
  if (!plan.flexible) return elapsed_s >= plan.soft_s;
  return ShouldStop(plan, elapsed_s, run.Unclear(), run.Obvious());
}

Move PickMove(const std::vector<Candidate>& ranked, double temperature,
              uint64_t seed) {
  if (temperature <= 0 || ranked.size() < 2) return ranked.front().move;
  std::vector<double> weights;
  for (const Candidate& c : ranked) {
    weights.push_back(std::pow(static_cast<double>(c.visits), 1 / temperature));
  }
  std::mt19937_64 rng(seed);
  std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
  return ranked[pick(rng)].move;
}

// The playout cap: options.visits and the level's cap, whichever is lower.
int64_t VisitLimit(const SearchOptions& options, const MctsConfig& config) {
  int64_t limit = options.visits > 0 ? options.visits : kUnlimited;
  if (config.max_visits > 0) limit = std::min(limit, config.max_visits);
  return limit;
}

// Blocks the calling thread until the search should end (stop request,
// budget spent, time up), sending info along the way.
void WaitForLimits(MctsSearcher::Run& run, const std::atomic<bool>& stop,
                   const TimePlan& plan, bool infinite,
                   const InfoCallback& on_info, double info_interval_s,
                   SteadyClock::time_point start) {
  double next_info = info_interval_s > 0 ? info_interval_s : 1e300;
  for (;;) {
    const double elapsed = Seconds(start);
    if (stop.load(std::memory_order_relaxed)) return;
    if (!infinite && (run.done() || TimeIsUp(plan, elapsed, run))) return;
    if (on_info && elapsed >= next_info) {
      on_info(run.Info(8, elapsed));
      next_info = elapsed + info_interval_s;
    }
    // Wakes rarely (each wake takes a core from a search thread on a small
    // machine) but in time: at most half the time left to the plan's soft
    // limit or the next info, between 1 and 10 ms; 20 ms once the threads
    // are done (a solved root under infinite analysis waits for Stop).
    const double until = std::min(plan.soft_s - elapsed, next_info - elapsed);
    const double nap = run.done() ? 0.02 : std::clamp(until / 2, 0.001, 0.01);
    std::this_thread::sleep_for(std::chrono::duration<double>(nap));
  }
}

}  // namespace

SearchResult MctsSearcher::Search(const Position& pos, const Limits& limits,
                                  const InfoCallback& on_info,
                                  double info_interval_s) {
  const auto start = SteadyClock::now();
  stop_.store(false, std::memory_order_relaxed);
  const uint64_t search_seed =
      zobrist::SplitMix64(options_.seed ^ zobrist::SplitMix64(++searches_));
  const TimePlan plan =
      PlanTime(options_, limits, pos, config_.default_movetime_s);

  ReuseOrClear(*graph_, pos, plan.soft_s);
  const int threads = std::max(1, options_.threads);
  Run run(*graph_, config_, pos, VisitLimit(options_, config_), threads,
          limits);
  ThreadState main_state;
  if (!run.PrepareRoot(main_state)) {
    graph_->Clear();  // not even the root fits next to the kept graph
    run.PrepareRoot(main_state);
  }
  std::vector<std::thread> workers;
  if (graph_->node(run.root()).num_edges.load() > 1 &&
      run.RootProof() != Proof::kExact) {
    for (int i = 0; i < threads; ++i) {
      workers.emplace_back(&Run::Work, &run, i, search_seed + i);
    }
  } else {
    run.Finish();  // a forced move or a solved game: nothing to search
  }
  WaitForLimits(run, stop_, plan, limits.infinite, on_info, info_interval_s,
                start);
  run.Finish();
  for (std::thread& w : workers) w.join();

  last_nodes_visited_ = run.visited();
  SearchResult result;
  result.info =
      run.Info(limits.all_moves ? MoveList::kCapacity : 16, Seconds(start));
  const bool sure = run.RootProof() != Proof::kNone;
  // A finished game (outside the contract) has no move: pass, never crash.
  result.best =
      result.info.candidates.empty()
          ? Move::Pass()
          : PickMove(result.info.candidates,
                     sure ? 0 : config_.move_temperature, search_seed);
  if (on_info) on_info(result.info);
  return result;
}

}  // namespace wallgo::search
