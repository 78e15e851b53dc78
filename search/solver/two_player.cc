// The two-player solver: negamax alpha-beta (principal variation search) on
// the mover's utility minus a draw's, with iterative deepening of the
// horizon. Only bounds from searches that met no horizon position enter the
// table as bounds, so every stored bound is a fact about the true value.
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/movegen.h"
#include "engine/regions.h"
#include "search/classic/eval.h"
#include "search/solver/solver_table.h"

namespace wallgo::search::solver_internal {
namespace {

constexpr int kDrawUtility = 600;  // a 2-player draw: share 6, margin 0
constexpr int kInfinity = 10000;   // beyond every value
// Nodes with at least this many plies to the horizon order their moves by
// the static evaluation of each child.
constexpr int kEvalOrderingDepth = 3;

class Negamax {
 public:
  Negamax(Table& table, Budget& budget) : table_(table), budget_(budget) {}

  // The value of `pos` for its mover within the window; exact inside it.
  int Value(const Position& pos, int alpha, int beta, int depth, int ply);
  int64_t horizon_hits() const { return horizon_hits_; }

 private:
  void Order(const Position& pos, const MoveList& moves, int depth, int ply,
             Move table_move, std::vector<Move>& ordered);
  void Store(uint64_t key, int best, int alpha_in, int beta_in, Move move,
             bool proven);
  int& History(Move m) {
    return history_[(m.from * kNumCells + m.to) * kNumSides +
                    static_cast<int>(m.side)];
  }

  Table& table_;
  Budget& budget_;
  int64_t horizon_hits_ = 0;
  std::array<std::array<Move, 2>, kMaxPly + 1> killers_{};
  std::vector<int> history_ =
      std::vector<int>(kNumCells * kNumCells * kNumSides, 0);
};

int Terminal(const Position& pos) {
  return FinishedUtilities(pos)[Index(pos.to_move())] - kDrawUtility;
}

// The guess at the horizon, only ever used to order moves: the estimated
// margin, counted as a win or loss once it is a cell or more.
int Horizon(const Position& pos) {
  const float estimate = OutcomeValue(pos, pos.to_move());
  const int margin =
      std::clamp(static_cast<int>(std::lround(estimate)), -49, 49);
  return margin == 0 ? 0 : (margin > 0 ? 600 : -600) + margin;
}

void Negamax::Order(const Position& pos, const MoveList& moves, int depth,
                    int ply, Move table_move, std::vector<Move>& ordered) {
  std::vector<std::pair<float, Move>> keyed;
  keyed.reserve(moves.size());
  for (const Move& m : moves) {
    float key;
    if (m == table_move) {
      key = 1e12f;
    } else if (depth >= kEvalOrderingDepth) {
      Position child = pos;
      child.Play(m);
      key = OutcomeValue(child, pos.to_move());
    } else {
      Position child = pos;
      child.Play(m);
      if (AllRegionsSettled(child)) {
        // A move that ends the game, by its exact value.
        key = 1e11f - static_cast<float>(Terminal(child));
      } else if (m == killers_[ply][0] || m == killers_[ply][1]) {
        key = 1e10f;
      } else {
        key = static_cast<float>(History(m));
      }
    }
    keyed.emplace_back(key, m);
  }
  std::stable_sort(
      keyed.begin(), keyed.end(),
      [](const auto& a, const auto& b) { return a.first > b.first; });
  ordered.clear();
  for (const auto& [key, m] : keyed) ordered.push_back(m);
}

void Negamax::Store(uint64_t key, int best, int alpha_in, int beta_in,
                    Move move, bool proven) {
  TableEntry& e = table_.Slot(key);
  const bool same = e.key == key && e.kind == EntryKind::kBounds;
  int lower = same ? e.value[0] : -kInfinity;
  int upper = same ? e.value[1] : kInfinity;
  if (proven) {
    if (best > alpha_in) lower = std::max(lower, best);
    if (best < beta_in) upper = std::min(upper, best);
  }
  e.key = key;
  e.move = move;
  if (proven || same) {
    e.kind = EntryKind::kBounds;
    e.value[0] = static_cast<int16_t>(lower);
    e.value[1] = static_cast<int16_t>(upper);
  } else {
    e.kind = EntryKind::kMoveOnly;
  }
}

int Negamax::Value(const Position& pos, int alpha, int beta, int depth,
                   int ply) {
  if (budget_.Tick()) return 0;
  if (IsGameOver(pos)) return Terminal(pos);
  const uint64_t key = SolverKey(pos);
  Move table_move = kNoMove;
  if (const TableEntry* e = table_.Probe(key)) {
    table_move = e->move;
    if (e->kind == EntryKind::kBounds) {
      const int lower = e->value[0], upper = e->value[1];
      if (lower == upper || lower >= beta) return lower;
      if (upper <= alpha) return upper;
    }
  }
  if (depth <= 0 || ply >= kMaxPly) {
    ++horizon_hits_;
    return Horizon(pos);
  }
  MoveList moves;
  GenerateMoves(pos, moves);
  std::vector<Move> ordered;
  Order(pos, moves, depth, ply, table_move, ordered);
  const int64_t hits_before = horizon_hits_;
  const int alpha_in = alpha;
  int best = -kInfinity;
  Move best_move = ordered.front();
  for (size_t i = 0; i < ordered.size(); ++i) {
    Position child = pos;
    child.Play(ordered[i]);
    int v;
    if (i == 0) {
      v = -Value(child, -beta, -alpha, depth - 1, ply + 1);
    } else {
      v = -Value(child, -alpha - 1, -alpha, depth - 1, ply + 1);
      if (v > alpha && v < beta && !budget_.stopped()) {
        v = -Value(child, -beta, -alpha, depth - 1, ply + 1);
      }
    }
    if (budget_.stopped()) return 0;
    if (v > best) {
      best = v;
      best_move = ordered[i];
    }
    alpha = std::max(alpha, v);
    if (alpha >= beta) {
      History(ordered[i]) += depth * depth;
      auto& killers = killers_[ply];
      if (killers[0] != ordered[i]) killers = {ordered[i], killers[0]};
      break;
    }
  }
  Store(key, best, alpha_in, beta, best_move, horizon_hits_ == hits_before);
  return best;
}

SolveResult ResultOf(const Position& pos, int value) {
  SolveResult r;
  const int mover = Index(pos.to_move());
  r.utility[mover] = value + kDrawUtility;
  r.utility[1 - mover] = kDrawUtility - value;
  return r;
}

// The root's moves, each tested with a null window against the proven value
// `value`: a move is optimal when its child is worth at most -value to the
// opponent. Lists them in the order GenerateMoves gives; stops (leaving
// `all_optimal_known` false and only `best` listed) when the budget ends.
void FindOptimalMoves(const Position& pos, int value, Negamax& search,
                      const Budget& budget, Move best, SolveResult& r) {
  r.optimal = {best};
  MoveList moves;
  GenerateMoves(pos, moves);
  std::vector<Move> optimal;
  for (const Move& m : moves) {
    if (m == best) {
      optimal.push_back(m);
      continue;
    }
    Position child = pos;
    child.Play(m);
    const int64_t hits = search.horizon_hits();
    const int v = -search.Value(child, -value, -value + 1, kMaxPly, 1);
    if (budget.stopped() || search.horizon_hits() != hits) return;
    if (v >= value) optimal.push_back(m);
  }
  r.optimal = std::move(optimal);
  r.all_optimal_known = true;
}

}  // namespace

SolveResult SolveTwoPlayer(const Position& pos, Table& table, Budget& budget,
                           const SolveProgress& on_iteration) {
  Negamax search(table, budget);
  SolveResult last;
  for (int depth = 1; depth <= kMaxPly; ++depth) {
    const int64_t hits = search.horizon_hits();
    const int value = search.Value(pos, -kInfinity, kInfinity, depth, 0);
    if (budget.stopped()) break;
    SolveResult r = ResultOf(pos, value);
    r.depth = depth;
    r.proven = search.horizon_hits() == hits;
    const TableEntry* root = table.Probe(SolverKey(pos));
    if (root != nullptr) r.pv = TableLine(table, pos, root->move, kMaxPly);
    r.nodes = budget.nodes();
    r.seconds = budget.Spent();
    if (r.proven && r.pv.empty()) r.proven = false;  // the root entry was lost
    if (r.proven) {
      FindOptimalMoves(pos, value, search, budget, r.pv.front(), r);
      r.nodes = budget.nodes();
      r.seconds = budget.Spent();
      return r;
    }
    last = std::move(r);
    if (on_iteration) on_iteration(last);
  }
  last.nodes = budget.nodes();
  last.seconds = budget.Spent();
  return last;
}

}  // namespace wallgo::search::solver_internal
