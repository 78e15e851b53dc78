#include "search/mcts.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <random>
#include <span>
#include <thread>
#include <vector>

#include "engine/movegen.h"
#include "engine/regions.h"
#include "engine/zobrist.h"
#include "search/classic/eval.h"
#include "search/time_plan.h"
#include "search/tree_policy.h"

namespace wallgo::search {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr int kMaxDepth = 512;
constexpr int kMaxPv = 12;
constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();
// Playouts between a search thread's yields (Work): a few milliseconds.
constexpr int kPlayoutsPerYield = 256;

double Seconds(SteadyClock::time_point since) {
  return std::chrono::duration<double>(SteadyClock::now() - since).count();
}

// Counters each thread updates on its own cache line (summed when read), so
// that threads do not fight over one line every playout.
struct alignas(64) ThreadCounters {
  std::atomic<int64_t> completed{0};  // playouts
  std::atomic<int64_t> visited{0};    // nodes passed by them
  std::atomic<int64_t> abandoned{0};  // playouts that found the graph full
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
  OwnershipSum* ownership = nullptr;  // set when the search is asked for it
  ThreadArena arena;                  // node ids and edges this thread takes
  std::vector<PathStep> path;
  PendingVisits pending;       // deferred visits not yet in the graph
  ThreadAffinity affinity;     // below the root
  int playouts_unflushed = 0;  // counted since `pending` was last written
  std::array<float, MoveList::kCapacity> priors;
  std::array<int, MoveList::kCapacity> order;
};

// Lets one search thread have the graph to itself between playouts (to
// recycle it) while the others wait, and the main thread read it safely.
class Gate {
 public:
  explicit Gate(int threads) : active_(threads) {}

  // Called between playouts: waits while another thread works alone, after
  // calling `before_waiting` (which may still use node ids; they may have
  // moved when it returns, and the graph's epoch tells).
  template <typename BeforeWaiting>
  void Pass(BeforeWaiting&& before_waiting) {
    if (!closed_.load(std::memory_order_acquire)) return;
    std::unique_lock lock(mutex_);
    if (!closed_.load(std::memory_order_relaxed)) return;
    before_waiting();
    WaitLocked(lock);
  }

  // Runs `work` while every other search thread waits in Pass (or has
  // left). When another thread is already doing so, waits for it instead.
  template <typename Work>
  void RunAlone(Work&& work) {
    std::unique_lock lock(mutex_);
    if (closed_.load(std::memory_order_relaxed)) {
      WaitLocked(lock);
      return;
    }
    closed_.store(true, std::memory_order_relaxed);
    cv_.wait(lock, [this] { return waiting_ == active_ - 1; });
    work();
    closed_.store(false, std::memory_order_release);
    ++generation_;
    cv_.notify_all();
  }

  // Waits until every search thread has left, or `seconds` have passed.
  void AwaitAllLeft(double seconds) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, std::chrono::duration<double>(seconds),
                 [this] { return active_ == 0; });
  }

  // A search thread is done for good.
  void Leave() {
    std::lock_guard lock(mutex_);
    --active_;
    cv_.notify_all();
  }

 private:
  void WaitLocked(std::unique_lock<std::mutex>& lock) {
    if (!closed_.load(std::memory_order_relaxed)) return;
    const uint64_t generation = generation_;
    ++waiting_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return generation_ != generation; });
    --waiting_;
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<bool> closed_{false};
  int active_;  // the rest guarded by mutex_
  int waiting_ = 0;
  uint64_t generation_ = 0;
};

}  // namespace

// One search: the shared state of its threads.
class MctsSearcher::Run {
 public:
  Run(Graph& graph, const MctsConfig& config, const SearchOptions& options,
      const Evaluator& evaluator, const Position& root_pos, int64_t visit_limit,
      int threads, const Limits& limits, SteadyClock::time_point start,
      double hard_s)
      : graph_(graph),
        config_(config),
        options_(options),
        evaluator_(evaluator),
        root_pos_(root_pos),
        players_(root_pos.num_players()),
        c_puct_(players_ > 2           ? options.c_puct_multi
                : config.hybrid_values ? options.c_puct_hybrid
                                       : options.c_puct),
        visit_limit_(visit_limit),
        defer_from_(threads > 1 ? options.deferred_visits * threads : 0),
        deferred_batch_(std::max(1, config.deferred_batch)),
        virtual_loss_(static_cast<float>(options.virtual_loss)),
        all_moves_(limits.all_moves),
        gate_(std::max(1, threads)),
        counters_(std::max(1, threads)),
        ownership_(limits.ownership ? std::max(1, threads) : 0),
        start_(start),
        hard_s_(hard_s) {}

  // Finds or creates the root node; false when the memory cannot even hold
  // that.
  bool PrepareRoot(ThreadState& t) {
    bool fresh = false;
    root_.store(FindOrCreate(root_pos_, t, &fresh), std::memory_order_relaxed);
    if (root() == kNoNode) return false;
    Node& n = graph_.node(root());
    return n.proof.load(std::memory_order_relaxed) == Proof::kExact ||
           Grow(n, root_pos_, t);
  }

  void Work(int thread) {
    ThreadCounters& counters = counters_[thread];
    ThreadState t;
    const int threads = static_cast<int>(counters_.size());
    if (threads > 1) {
      t.affinity = {thread, threads,
                    static_cast<float>(options_.thread_affinity)};
      t.arena = ThreadArena(/*blocks=*/true);
    }
    if (!ownership_.empty()) t.ownership = &ownership_[thread];
    t.path.reserve(kMaxDepth);
    int since_yield = 0;
    while (!done_.load(std::memory_order_relaxed)) {
      gate_.Pass([&] { FlushPending(t); });
      // Only a playout budget needs the shared count (every thread bumping
      // one line each playout costs them both).
      if (visit_limit_ != kUnlimited &&
          started_.fetch_add(1, std::memory_order_relaxed) >= visit_limit_) {
        done_.store(true, std::memory_order_relaxed);
        break;
      }
      // A playout that finds the graph full counts nothing: free room and
      // try again in the same place of the budget (handing the place back
      // let another thread find the budget spent and end one playout short).
      bool counted = Playout(t);
      while (!counted && !done_.load(std::memory_order_relaxed)) {
        counters.abandoned.fetch_add(1, std::memory_order_relaxed);
        FlushPending(t);
        gate_.RunAlone([this] { Recycle(); });
        counted = Playout(t);
      }
      if (!counted) break;
      counters.completed.fetch_add(1, std::memory_order_relaxed);
      counters.visited.fetch_add(static_cast<int64_t>(t.path.size()) + 1,
                                 std::memory_order_relaxed);
      if (++t.playouts_unflushed >= deferred_batch_) FlushPending(t);
      if (RootProof() == Proof::kExact) done_.store(true);
      // The single-threaded wasm build runs threads as fibers that switch
      // only where one blocks or yields (tools/web/cooperative_threads.h):
      // this lets the main thread watch the clock and the input. Natively a
      // yield every kPlayoutsPerYield playouts (milliseconds) costs nothing.
      if (++since_yield == kPlayoutsPerYield) {
        since_yield = 0;
        std::this_thread::yield();
      }
    }
    FlushPending(t);
    gate_.Leave();
  }

  void Finish() { done_.store(true); }
  // Blocks until the search threads have all ended or `seconds` passed.
  void AwaitThreads(double seconds) { gate_.AwaitAllLeft(seconds); }
  bool done() const { return done_.load(std::memory_order_relaxed); }
  int64_t completed() const { return Sum(&ThreadCounters::completed); }
  int64_t visited() const { return Sum(&ThreadCounters::visited); }
  int64_t abandoned() const { return Sum(&ThreadCounters::abandoned); }
  int64_t recycles() const { return recycles_.load(std::memory_order_relaxed); }
  Proof RootProof() const {
    return graph_.node(root()).proof.load(std::memory_order_acquire);
  }
  NodeId root() const { return root_.load(std::memory_order_relaxed); }

  // What the search knows now; safe from the main thread at any time.
  SearchInfo Info(int max_candidates, double elapsed_s) {
    std::lock_guard lock(readers_);
    SearchInfo info;
    const std::vector<int> order = RankRootEdges(graph_, graph_.node(root()));
    Node& root = graph_.node(this->root());
    for (int i : order) {
      const bool shown =
          graph_.edge(root, i).visits.load(std::memory_order_relaxed) > 0 ||
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
    std::lock_guard lock(readers_);
    const std::vector<int> order = RankRootEdges(graph_, graph_.node(root()));
    if (order.size() < 2 || RootProof() != Proof::kNone) return false;
    const auto [best, second] = TopTwoVisits(order);
    return second * 2 > best;
  }
  // True when the best move leads the second by far.
  bool Obvious() {
    std::lock_guard lock(readers_);
    const std::vector<int> order = RankRootEdges(graph_, graph_.node(root()));
    if (order.size() < 2) return true;
    const auto [best, second] = TopTwoVisits(order);
    return best > 100 && best > 5 * second;
  }

 private:
  int64_t Sum(std::atomic<int64_t> ThreadCounters::*field) const {
    int64_t sum = 0;
    for (const ThreadCounters& c : counters_) {
      sum += (c.*field).load(std::memory_order_relaxed);
    }
    return sum;
  }

  std::pair<int64_t, int64_t> TopTwoVisits(const std::vector<int>& order) {
    Node& root = graph_.node(this->root());
    return {graph_.edge(root, order[0]).visits.load(std::memory_order_relaxed),
            graph_.edge(root, order[1]).visits.load(std::memory_order_relaxed)};
  }

  Candidate MakeCandidate(int edge_index) {
    Node& root = graph_.node(this->root());
    Edge& e = graph_.edge(root, edge_index);
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
      Edge& next = graph_.edge(graph_.node(id), best);
      c.pv.push_back(next.move);
      id = next.child.load(std::memory_order_acquire);
    }
    return c;
  }

  int MostVisitedEdge(Node& n) {
    int best = -1;
    int32_t best_visits = 0;
    for (int i = 0; i < n.num_edges.load(std::memory_order_acquire); ++i) {
      const int32_t v =
          graph_.edge(n, i).visits.load(std::memory_order_relaxed);
      if (v > best_visits) best = i, best_visits = v;
    }
    return best;
  }

  // The evaluation of a new leaf, the one place a playout evaluates one:
  // its value, and (when `moves` is not empty) priors for its legal moves,
  // into t.priors.
  Value EvaluateLeaf(const Position& pos, const MoveList& moves,
                     ThreadState& t) {
    return evaluator_.Evaluate(
        pos, std::span<const Move>(moves.begin(), moves.size()),
        std::span<float>(t.priors.data(), moves.size()));
  }

  // t.order[0, count): move indices by prior, highest first and ties by
  // index, so that the ranking is the same every time; only the first
  // `needed` are put in order.
  void RankByPrior(int count, int needed, ThreadState& t) {
    for (int i = 0; i < count; ++i) t.order[i] = i;
    std::partial_sort(t.order.begin(), t.order.begin() + needed,
                      t.order.begin() + count, [&t](int a, int b) {
                        return t.priors[a] > t.priors[b] ||
                               (t.priors[a] == t.priors[b] && a < b);
                      });
  }

  // Builds n's next chunk of edges (the first: expansion) from the moves
  // ranked by prior, skipping moves that already have an edge (so that
  // even an evaluator whose priors vary a little never gives a move two
  // edges), and publishes it. The graph keeps no priors for moves without
  // an edge, so they are asked again. False when the edge arena is full.
  // Out of line so that a profile shows the share of expansion.
  [[gnu::noinline]] bool AddChunk(Node& n, const Position& pos, int allocated,
                                  ThreadState& t,
                                  const MoveList* known_moves = nullptr) {
    MoveList generated;
    if (known_moves == nullptr) {
      GenerateMoves(pos, generated);
      evaluator_.ChunkPriors(
          pos, std::span<const Move>(generated.begin(), generated.size()),
          std::span<float>(t.priors.data(), generated.size()), allocated);
    }
    const MoveList& moves = known_moves ? *known_moves : generated;
    if (allocated == 0) {
      n.num_moves.store(static_cast<uint16_t>(moves.size()),
                        std::memory_order_relaxed);
    }
    const int chunk = ChunkOf(allocated);
    const int size = ChunkSize(chunk, moves.size());
    // At most `allocated` of the ranked moves are skipped, so the first
    // allocated + size hold all that this chunk takes.
    RankByPrior(moves.size(), allocated + size, t);
    const int64_t begin = t.arena.AllocateEdges(graph_, size);
    if (begin < 0) return false;
    // First play urgency (SearchOptions::fpu_prior_scale), relative to the
    // node's best prior: its first edge's, or the best of these moves.
    const float best_prior =
        std::max(allocated > 0 ? graph_.edge(n, 0).prior : t.priors[t.order[0]],
                 std::numeric_limits<float>::min());
    const float base =
        FpuBase(n, pos,
                allocated > 0 ? graph_.edge(n, 0).move : moves[t.order[0]]) -
        static_cast<float>(options_.fpu_reduction);
    int k = 0;
    for (int r = 0; r < moves.size() && k < size; ++r) {
      const int i = t.order[r];
      bool has_edge = false;
      for (int j = 0; j < allocated && !has_edge; ++j) {
        has_edge = graph_.edge(n, j).move == moves[i];
      }
      if (has_edge) continue;
      const float odds = std::max(t.priors[i], 1e-30f) / best_prior;
      const float fpu =
          base + static_cast<float>(options_.fpu_prior_scale) * std::log(odds);
      graph_.edge(begin + k++).Init(moves[i], t.priors[i], fpu);
    }
    graph_.AttachChunk(n, chunk, begin, allocated + k);
    return true;
  }

  // What the prior's log odds are added to for a first play urgency: the
  // evaluator's estimate of the child after the best-prior move `best`
  // (Evaluator::ChildEstimate), or the parent's own value
  // (MctsConfig::fpu_from_best_child).
  float FpuBase(const Node& n, const Position& pos, Move best) const {
    if (!config_.fpu_from_best_child) return n.eval.Utility(n.to_move);
    Position child = pos;
    child.Play(best);
    const Value v = IsGameOver(child) ? FinishedValue(child)
                                      : evaluator_.ChildEstimate(child);
    return v.Utility(n.to_move);
  }

  // Makes n ready for selection: expands it (first chunk of edges) or adds
  // its next chunk once all its edges were tried. One thread builds a
  // chunk; while it does, the others choose among the edges there are, or
  // wait for the first ones. False when the edge arena is full.
  bool Grow(Node& n, const Position& pos, ThreadState& t) {
    for (;;) {
      const int allocated = n.num_edges.load(std::memory_order_acquire);
      if (allocated > 0 &&
          (allocated >= n.num_moves.load(std::memory_order_relaxed) ||
           n.tried.load(std::memory_order_relaxed) < allocated)) {
        return true;
      }
      bool expected = false;
      if (n.growing.compare_exchange_strong(expected, true,
                                            std::memory_order_acq_rel)) {
        bool built = true;
        if (n.num_edges.load(std::memory_order_acquire) == allocated) {
          built = AddChunk(n, pos, allocated, t);
        }
        n.growing.store(false, std::memory_order_release);
        return built;
      }
      if (allocated > 0) return true;
      std::this_thread::yield();  // the first chunk is coming
    }
  }

  // The node of `pos`, created (evaluated and published) when new; kNoNode
  // when memory is full.
  NodeId FindOrCreate(const Position& pos, ThreadState& t, bool* fresh) {
    const uint64_t key = pos.hash(), check = PositionCheck(pos);
    *fresh = false;
    if (NodeId id = graph_.Find(key, check); id != kNoNode) return id;
    const NodeId id = t.arena.AllocateNode(graph_);
    if (id == kNoNode) return kNoNode;
    const bool over = IsGameOver(pos);
    MoveList moves;
    const bool expand = !over && config_.expand_at_creation;
    if (expand) GenerateMoves(pos, moves);
    const Value value = over ? FinishedValue(pos) : EvaluateLeaf(pos, moves, t);
    Node& n = graph_.node(id);
    n.Init(key, check, Index(pos.to_move()), value,
           over ? Proof::kExact : Proof::kNone);
    if (expand && !AddChunk(n, pos, 0, t, &moves)) {
      t.arena.Unused(id);
      return kNoNode;
    }
    const NodeId published = graph_.Publish(id);
    if (published != id) t.arena.Unused(id);
    *fresh = published == id;
    return published;
  }

  // Takes back the virtual losses of a playout that is not counted.
  void Abandon(const ThreadState& t) {
    for (const PathStep& step : t.path) {
      if (step.deferred) continue;
      graph_.edge(graph_.node(step.node), step.edge)
          .virtual_loss.fetch_sub(1, std::memory_order_relaxed);
    }
  }

  // Writes the thread's deferred visits to the graph.
  void FlushPending(ThreadState& t) {
    t.pending.Flush(graph_, players_);
    t.playouts_unflushed = 0;
  }

  // One playout, from the root to a new leaf (evaluated) or a finished or
  // proven position, counted on its path. False when the graph is full
  // before it gets there: then nothing is counted.
  bool Playout(ThreadState& t) {
    Position pos = root_pos_;
    NodeId id = root();
    bool fresh = false;
    t.path.clear();
    while (static_cast<int>(t.path.size()) < kMaxDepth) {
      Node& n = graph_.node(id);
      if (fresh || n.proof.load(std::memory_order_acquire) == Proof::kExact) {
        break;
      }
      if (!Grow(n, pos, t)) {
        Abandon(t);
        return false;
      }
      // The root is every thread's: its edges' visits are what the search
      // answers, and deferral already spares its lines.
      const PathStep step = SelectStep(
          graph_, id, c_puct_, defer_from_, &t.pending,
          t.path.empty() ? ThreadAffinity{} : t.affinity, virtual_loss_);
      Edge& e = graph_.edge(n, step.edge);
      pos.Play(e.move);
      NodeId child = e.child.load(std::memory_order_acquire);
      if (child == kNoNode) {
        child = FindOrCreate(pos, t, &fresh);
        if (child == kNoNode) {
          if (!step.deferred) {
            e.virtual_loss.fetch_sub(1, std::memory_order_relaxed);
          }
          Abandon(t);
          return false;
        }
        e.child.store(child, std::memory_order_release);
      }
      t.path.push_back(step);
      id = child;
    }
    if (t.ownership != nullptr) t.ownership->Add(EstimateOwnership(pos));
    Backup(graph_, t.path, players_, &t.pending);
    return true;
  }

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

  // Frees the least visited part of the graph (Graph::Recycle); runs with
  // every other search thread waiting. Ends the search instead when the
  // recycling would run past the hard time limit (it cannot be cut short),
  // and after it when nothing could be freed (the root alone fills the
  // memory).
  void Recycle() {
    const auto nodes = static_cast<double>(graph_.Stats().nodes);
    if (Seconds(start_) + config_.recycle_seconds_per_node * nodes > hard_s_) {
      done_.store(true, std::memory_order_relaxed);
      return;
    }
    std::lock_guard lock(readers_);
    const RecycleReport report =
        graph_.Recycle(root(), config_.recycle_keep_share,
                       [this](Node& n) { UpdateNode(graph_, n, players_); });
    root_.store(report.root, std::memory_order_relaxed);
    recycles_.fetch_add(1, std::memory_order_relaxed);
    if (report.nodes_after >= report.nodes_before &&
        report.edges_after >= report.edges_before) {
      done_.store(true, std::memory_order_relaxed);
    }
  }

  Graph& graph_;
  const MctsConfig& config_;
  const SearchOptions& options_;  // the tunables
  const Evaluator& evaluator_;
  const Position root_pos_;
  const int players_;
  const double c_puct_;  // the options', for this player count and values
  const int64_t visit_limit_;
  const int32_t defer_from_;  // SelectStep's; 0 with one thread
  const int deferred_batch_;
  const float virtual_loss_;  // SelectStep's weight of pending visits
  const bool all_moves_;
  std::atomic<NodeId> root_{kNoNode};
  Gate gate_;
  std::mutex readers_;  // the main thread's reads against a recycling
  alignas(64) std::atomic<int64_t> started_{0};
  alignas(64) std::atomic<bool> done_{false};
  std::atomic<int64_t> recycles_{0};
  std::vector<ThreadCounters> counters_;
  std::vector<OwnershipSum> ownership_;  // one per thread when asked, else none
  const SteadyClock::time_point start_;
  const double hard_s_;  // the time plan's, from start_
};

MctsSearcher::MctsSearcher(const SearchOptions& options,
                           const MctsConfig& config)
    : options_(options) {
  set_config(config);
  graph_ = std::make_unique<Graph>(static_cast<size_t>(options.hash_mb) << 20);
}

void MctsSearcher::set_config(const MctsConfig& config) {
  config_ = config;
  evaluator_ = config.evaluator != nullptr
                   ? config.evaluator
                   : std::make_shared<ClassicEvaluator>(config.classic);
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
// Recycling is skipped while the arenas are at most half full (the
// unreachable part only takes room), and traded for a clear when it would
// eat more than a tenth of the planned time.
void ReuseOrClear(Graph& graph, const Position& pos, double soft_s,
                  const MctsConfig& config) {
  const NodeId old_root = graph.Find(pos.hash(), PositionCheck(pos));
  if (old_root == kNoNode) {
    graph.Clear();
    return;
  }
  const GraphStats s = graph.Stats();
  const bool crowded =
      2 * s.nodes > s.node_capacity || 2 * s.edges > s.edge_capacity;
  if (!crowded) return;
  if (config.recycle_seconds_per_node * s.nodes <= 0.1 * soft_s) {
    const int players = pos.num_players();
    graph.Recycle(
        old_root, config.recycle_keep_share,
        [&graph, players](Node& n) { UpdateNode(graph, n, players); });
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
    // limit or the next info, between 1 and 10 ms, and at once when the
    // threads end (a playout budget of a few milliseconds must not wait out
    // a nap: self-play's 400-playout searches slept 9 ms of every 10); 20 ms
    // once they are done (a solved root under infinite analysis waits for
    // Stop).
    if (run.done()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    const double until = std::min(plan.soft_s - elapsed, next_info - elapsed);
    run.AwaitThreads(std::clamp(until / 2, 0.001, 0.01));
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

  ReuseOrClear(*graph_, pos, plan.soft_s, config_);
  const int threads = std::max(1, options_.threads);
  Run run(*graph_, config_, options_, *evaluator_, pos,
          VisitLimit(options_, config_), threads, limits, start, plan.hard_s);
  ThreadState main_state;
  if (!run.PrepareRoot(main_state)) {
    graph_->Clear();  // not even the root fits next to the kept graph
    run.PrepareRoot(main_state);
  }
  std::vector<std::thread> workers;
  if (graph_->node(run.root()).num_moves.load() > 1 &&
      run.RootProof() != Proof::kExact) {
    for (int i = 0; i < threads; ++i) workers.emplace_back(&Run::Work, &run, i);
  } else {
    run.Finish();  // a forced move or a solved game: nothing to search
  }
  WaitForLimits(run, stop_, plan, limits.infinite, on_info, info_interval_s,
                start);
  run.Finish();
  for (std::thread& w : workers) w.join();

  last_nodes_visited_ = run.visited();
  last_recycles_ = run.recycles();
  last_abandoned_ = run.abandoned();
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
