#include "search/players/alphabeta.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "engine/movegen.h"
#include "engine/zobrist.h"
#include "search/classic/eval.h"
#include "search/move_history.h"
#include "search/players/player_common.h"

namespace wallgo::search {

enum class Bound : uint8_t { kNone, kExact, kLower, kUpper };

class AlphaBetaPlayer::Memory {
 public:
  struct Entry {
    uint64_t key = 0;
    float value = 0;
    int8_t depth = -1;
    Bound bound = Bound::kNone;
    Move move;
  };

  explicit Memory(int hash_mb) {
    // Alpha-beta at a second a move stores a few million nodes at most.
    constexpr size_t kMaxBytes = size_t{64} << 20;
    const size_t bytes =
        std::min(kMaxBytes, static_cast<size_t>(std::max(1, hash_mb)) << 20);
    size_t entries = 1;
    while (entries * 2 * sizeof(Entry) <= bytes) entries *= 2;
    table_.resize(entries);
  }

  const Entry* Probe(uint64_t key) const {
    const Entry& e = table_[key & (table_.size() - 1)];
    return e.key == key && e.bound != Bound::kNone ? &e : nullptr;
  }

  // Keeps the deeper result when two positions share a slot, except that a
  // new search always replaces what is left from an old position.
  void Store(uint64_t key, float value, int depth, Bound bound, Move move) {
    Entry& e = table_[key & (table_.size() - 1)];
    if (e.key == key && e.depth > depth) return;
    e = {key, value, static_cast<int8_t>(depth), bound, move};
  }

  MoveHistory& history() { return history_; }

  void Clear() {
    std::fill(table_.begin(), table_.end(), Entry{});
    history_.Clear();
  }

  size_t table_size() const { return table_.size(); }

 private:
  std::vector<Entry> table_;
  MoveHistory history_;
};

namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr int kMaxPly = 128;
constexpr int64_t kCheckEvery = 512;  // nodes between time checks

// One search: the root player, the limits and the ordering heuristics.
class Run {
 public:
  Run(AlphaBetaPlayer::Memory& memory, const std::atomic<bool>& stop,
      Colour root, double budget_s, int64_t node_cap,
      const InfoCallback& on_info, double info_interval_s,
      const AlphaBetaConfig& config)
      : memory_(memory),
        stop_(stop),
        root_(root),
        root_key_(zobrist::SplitMix64(0xAB00 + Index(root))),
        budget_s_(budget_s),
        node_cap_(node_cap),
        on_info_(on_info),
        // A zero or negative interval would mean a report every few nodes.
        info_interval_s_(std::max(info_interval_s, 0.01)),
        config_(config),
        start_(SteadyClock::now()) {}

  struct RootMove {
    Move move;
    float value = -kInfinity;
  };

  // Searches every root move to `depth` plies, best first; false when the
  // limits cut the iteration short (the moves searched keep their values).
  bool Iterate(const Position& pos, int depth, std::vector<RootMove>& moves);

  float Value(const Position& pos, int depth, float alpha, float beta, int ply);
  float ScoutValue(const Position& child, int depth, float alpha, float beta,
                   int ply, bool maximizing);

  double Elapsed() const {
    return std::chrono::duration<double>(SteadyClock::now() - start_).count();
  }
  int64_t nodes() const { return nodes_; }
  bool aborted() const { return aborted_; }
  std::vector<Move> PrincipalVariation(const Position& pos, Move first,
                                       int length) const;
  void ReportInfo(const SearchInfo& info) { best_info_ = info; }

 private:
  uint64_t Key(const Position& pos) const { return pos.hash() ^ root_key_; }
  float Leaf(const Position& pos) const {
    return OutcomeValue(pos, root_, config_.eval);
  }
  void CheckLimits();
  void OrderMoves(const Position& pos, const MoveList& moves, int depth,
                  int ply, Move table_move, std::vector<Move>& ordered);
  void RecordCutoff(Move move, int depth, int ply);

  AlphaBetaPlayer::Memory& memory_;
  const std::atomic<bool>& stop_;
  const Colour root_;
  const uint64_t root_key_;
  const double budget_s_;
  const int64_t node_cap_;
  const InfoCallback& on_info_;
  const double info_interval_s_;
  const AlphaBetaConfig& config_;
  const SteadyClock::time_point start_;
  double last_info_s_ = 0;
  SearchInfo best_info_;
  int64_t nodes_ = 0;
  bool aborted_ = false;
  std::array<std::array<Move, 2>, kMaxPly> killers_{};
};

void Run::CheckLimits() {
  const double elapsed = Elapsed();
  if (stop_.load(std::memory_order_relaxed) || elapsed >= budget_s_ ||
      (node_cap_ > 0 && nodes_ >= node_cap_)) {
    aborted_ = true;
  }
  if (on_info_ && !best_info_.candidates.empty() &&
      elapsed - last_info_s_ >= info_interval_s_) {
    last_info_s_ = elapsed;
    best_info_.nodes = best_info_.total_visits = nodes_;
    best_info_.elapsed_s = elapsed;
    on_info_(best_info_);
  }
}

void Run::RecordCutoff(Move move, int depth, int ply) {
  memory_.history().Reward(move, depth);
  auto& killers = killers_[ply];
  if (killers[0] != move) {
    killers[1] = killers[0];
    killers[0] = move;
  }
}

// Best first: the table's move, then near the root by the static value of
// the child for the player to move, elsewhere killers, then history.
void Run::OrderMoves(const Position& pos, const MoveList& moves, int depth,
                     int ply, Move table_move, std::vector<Move>& ordered) {
  const bool maximizing = pos.to_move() == root_;
  std::vector<std::pair<float, Move>> keyed;
  keyed.reserve(moves.size());
  for (const Move& m : moves) {
    float key;
    if (m == table_move) {
      key = kInfinity;
    } else if (depth >= config_.eval_ordering_depth) {
      Position child = pos;
      child.Play(m);
      const float value = Leaf(child);
      key = maximizing ? value : -value;
    } else if (m == killers_[ply][0] || m == killers_[ply][1]) {
      key = 1e9f;
    } else {
      key = static_cast<float>(memory_.history().Score(m));
    }
    keyed.emplace_back(key, m);
  }
  std::stable_sort(
      keyed.begin(), keyed.end(),
      [](const auto& a, const auto& b) { return a.first > b.first; });
  // Forward pruning: below the root, only the best moves by the static
  // value are searched.
  if (config_.beam_width > 0 && ply > 0 &&
      depth >= config_.eval_ordering_depth &&
      static_cast<int>(keyed.size()) > config_.beam_width) {
    keyed.resize(config_.beam_width);
  }
  ordered.clear();
  for (const auto& [key, m] : keyed) ordered.push_back(m);
}

float Run::Value(const Position& pos, int depth, float alpha, float beta,
                 int ply) {
  if (++nodes_ % kCheckEvery == 0) CheckLimits();
  if (aborted_) return 0;
  if (depth == 0 || ply >= kMaxPly - 1) return Leaf(pos);
  const uint64_t key = Key(pos);
  Move table_move = Move::Resign();  // never generated: no table move
  if (const auto* entry = memory_.Probe(key)) {
    table_move = entry->move;
    if (entry->depth >= depth) {
      if (entry->bound == Bound::kExact) return entry->value;
      if (entry->bound == Bound::kLower && entry->value >= beta) {
        return entry->value;
      }
      if (entry->bound == Bound::kUpper && entry->value <= alpha) {
        return entry->value;
      }
    }
  }
  MoveList moves;
  GenerateMoves(pos, moves);
  if (moves.empty()) return Leaf(pos);  // the game is over
  std::vector<Move> ordered;
  OrderMoves(pos, moves, depth, ply, table_move, ordered);

  const bool maximizing = pos.to_move() == root_;
  const float alpha_in = alpha, beta_in = beta;
  float best = maximizing ? -kInfinity : kInfinity;
  Move best_move = ordered.front();
  for (const Move& m : ordered) {
    Position child = pos;
    child.Play(m);
    const float value =
        m == ordered.front() || depth < 2
            ? Value(child, depth - 1, alpha, beta, ply + 1)
            : ScoutValue(child, depth - 1, alpha, beta, ply, maximizing);
    if (aborted_) return 0;
    if (maximizing ? value > best : value < best) {
      best = value;
      best_move = m;
    }
    if (maximizing) {
      alpha = std::max(alpha, value);
    } else {
      beta = std::min(beta, value);
    }
    if (alpha >= beta) {
      RecordCutoff(m, depth, ply);
      break;
    }
  }
  const Bound bound = best <= alpha_in  ? Bound::kUpper
                      : best >= beta_in ? Bound::kLower
                                        : Bound::kExact;
  memory_.Store(key, best, depth, bound, best_move);
  return best;
}

// Principal variation search: a move after the first is first tried with a
// null window on the bound this node would improve, and searched again with
// the full window only when it beats that bound.
float Run::ScoutValue(const Position& child, int depth, float alpha, float beta,
                      int ply, bool maximizing) {
  constexpr float kNullWindow = 1e-3f;
  const float value =
      maximizing ? Value(child, depth, alpha, alpha + kNullWindow, ply + 1)
                 : Value(child, depth, beta - kNullWindow, beta, ply + 1);
  const bool inside = maximizing ? value > alpha && value < beta
                                 : value < beta && value > alpha;
  if (!inside || aborted_) return value;
  return Value(child, depth, alpha, beta, ply + 1);
}

bool Run::Iterate(const Position& pos, int depth,
                  std::vector<RootMove>& moves) {
  float alpha = -kInfinity;
  for (RootMove& rm : moves) rm.value = -kInfinity;
  for (RootMove& rm : moves) {
    Position child = pos;
    child.Play(rm.move);
    const float value = Value(child, depth - 1, alpha, kInfinity, 1);
    if (aborted_) return false;
    rm.value = value;
    alpha = std::max(alpha, value);
  }
  std::stable_sort(
      moves.begin(), moves.end(),
      [](const RootMove& a, const RootMove& b) { return a.value > b.value; });
  memory_.Store(Key(pos), moves.front().value, depth, Bound::kExact,
                moves.front().move);
  return true;
}

std::vector<Move> Run::PrincipalVariation(const Position& pos, Move first,
                                          int length) const {
  std::vector<Move> pv{first};
  Position p = pos;
  p.Play(first);
  while (static_cast<int>(pv.size()) < length) {
    const auto* entry = memory_.Probe(Key(p));
    if (entry == nullptr) break;
    MoveList moves;
    GenerateMoves(p, moves);
    if (std::find(moves.begin(), moves.end(), entry->move) == moves.end()) {
      break;
    }
    pv.push_back(entry->move);
    p.Play(entry->move);
  }
  return pv;
}

}  // namespace

AlphaBetaPlayer::AlphaBetaPlayer(const SearchOptions& options,
                                 const AlphaBetaConfig& config)
    : options_(options),
      config_(config),
      memory_(std::make_unique<Memory>(options.hash_mb)) {}

AlphaBetaPlayer::~AlphaBetaPlayer() = default;

void AlphaBetaPlayer::SetOptions(const SearchOptions& options) {
  if (options.hash_mb != options_.hash_mb) {
    memory_ = std::make_unique<Memory>(options.hash_mb);
  }
  options_ = options;
}

void AlphaBetaPlayer::Clear() { memory_->Clear(); }

namespace {

// The root's moves, best first by the static evaluation.
std::vector<Run::RootMove> RootMoves(const Position& pos, const MoveList& legal,
                                     const EvalOptions& eval) {
  std::vector<Run::RootMove> moves;
  for (const Move& m : legal) {
    Position child = pos;
    child.Play(m);
    moves.push_back({m, OutcomeValue(child, pos.to_move(), eval)});
  }
  std::stable_sort(
      moves.begin(), moves.end(),
      [](const auto& a, const auto& b) { return a.value > b.value; });
  return moves;
}

// The best move of an iteration the limits cut short, when the previous
// best (searched first) was finished: a later move beating it is better.
const Run::RootMove* PartialBest(const std::vector<Run::RootMove>& moves) {
  if (moves.front().value == -kInfinity) return nullptr;
  return &*std::max_element(
      moves.begin(), moves.end(),
      [](const auto& a, const auto& b) { return a.value < b.value; });
}

double WinrateOf(const Position& pos, float value) {
  if (value >= kWinValue / 2) return 1;
  if (value <= -kWinValue / 2) return 0;
  const float scale = WinScale(EstimateTerritory(pos).contested_cells);
  return 1 / (1 + std::exp(-value / scale));
}

// A proven result needs no deeper search.
bool IsDecided(float value) { return std::abs(value) >= kWinValue / 2; }

}  // namespace

SearchResult AlphaBetaPlayer::Search(const Position& pos, const Limits& limits,
                                     const InfoCallback& on_info,
                                     double info_interval_s) {
  stop_.store(false, std::memory_order_relaxed);
  completed_depth_ = 0;
  double budget = MoveTimeBudget(options_, limits, pos);
  if (budget == kNoTimeLimit && !limits.infinite && options_.visits <= 0) {
    budget = config_.default_movetime_s;
  }
  Run run(*memory_, stop_, pos.to_move(), budget, options_.visits, on_info,
          info_interval_s, config_);
  MoveList legal;
  GenerateMoves(pos, legal);
  if (legal.empty()) {  // a finished game: nothing legal, pass is harmless
    return SingleCandidateResult(Move::Pass(), 0.5, 0, {}, 0, run.Elapsed());
  }
  std::vector<Run::RootMove> moves = RootMoves(pos, legal, config_.eval);
  Run::RootMove best = moves.front();
  for (int depth = 1; depth <= config_.max_depth && legal.size() > 1; ++depth) {
    // An iteration takes several times the one before; one that would end
    // far past the budget is not worth starting.
    if (depth > 1 && run.Elapsed() > 0.4 * budget) break;
    if (!run.Iterate(pos, depth, moves)) {
      if (const auto* partial = PartialBest(moves)) best = *partial;
      break;
    }
    completed_depth_ = depth;
    best = moves.front();
    SearchInfo info =
        SingleCandidateResult(best.move, WinrateOf(pos, best.value), best.value,
                              run.PrincipalVariation(pos, best.move, depth),
                              run.nodes(), run.Elapsed())
            .info;
    run.ReportInfo(info);
    if (IsDecided(best.value)) break;
  }
  SearchResult result = SingleCandidateResult(
      best.move, WinrateOf(pos, best.value), best.value,
      run.PrincipalVariation(pos, best.move, std::max(1, completed_depth_)),
      run.nodes(), run.Elapsed());
  if (on_info) on_info(result.info);
  return result;
}

}  // namespace wallgo::search
