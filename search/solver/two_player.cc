// The two-player solver: negamax alpha-beta (principal variation search) on
// the mover's utility minus a draw's, with iterative deepening of the
// horizon. Each iteration searches twice: once with every horizon position
// lost for the root's mover (a lower bound on the true value), once with
// every one won (an upper bound); equal bounds are the proven value. Only
// bounds that are facts about the true value enter the table (see Store).
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

constexpr int kDrawUtility = 600;    // a 2-player draw: share 6, margin 0
constexpr int kInfinity = 10000;     // beyond every value
constexpr int kHorizonValue = 5000;  // a horizon position: beyond every result

// What a position at the horizon is worth to the root's mover.
enum class Leaves { kLost, kWon };
// Nodes with at least this many plies to the horizon order their moves by
// the static evaluation of each child.
constexpr int kEvalOrderingDepth = 3;

class Negamax {
 public:
  Negamax(Table& table, Budget& budget, Colour root)
      : table_(table), budget_(budget), root_(root) {}
  void set_leaves(Leaves leaves) { leaves_ = leaves; }

  // The value of `pos` for its mover within the window; exact inside it.
  int Value(const Position& pos, int alpha, int beta, int depth, int ply);
  int64_t horizon_hits() const { return horizon_hits_; }

 private:
  void Order(const Position& pos, const MoveList& moves, int depth, int ply,
             Move table_move, std::vector<Move>& ordered);
  void Store(uint64_t key, int best, int alpha_in, int beta_in, Move move,
             bool proven, bool below_true);
  // True when the horizon's value counts as a loss for `mover`: then the
  // values searched at its positions are at most the true ones.
  bool HorizonLostFor(Colour mover) const {
    return (leaves_ == Leaves::kLost) == (mover == root_);
  }
  int& History(Move m) {
    return history_[(m.from * kNumCells + m.to) * kNumSides +
                    static_cast<int>(m.side)];
  }

  Table& table_;
  Budget& budget_;
  const Colour root_;
  Leaves leaves_ = Leaves::kLost;
  int64_t horizon_hits_ = 0;
  std::array<std::array<Move, 2>, kMaxPly + 1> killers_{};
  std::vector<int> history_ =
      std::vector<int>(kNumCells * kNumCells * kNumSides, 0);
};

int Terminal(const Position& pos) {
  return FinishedUtilities(pos)[Index(pos.to_move())] - kDrawUtility;
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

// What a search's result says of the true value: with no horizon position
// in the search (`proven`), what alpha-beta says of any value. Otherwise,
// where the horizon counted as a loss for the mover (`below_true`), the
// searched values are at most the true ones, so an exact or failed-high
// result is a lower bound; where it counted as a win, an exact or
// failed-low result is an upper bound. (At the mover's positions every
// child that decides the result returned such a bound.)
void Negamax::Store(uint64_t key, int best, int alpha_in, int beta_in,
                    Move move, bool proven, bool below_true) {
  TableEntry& e = table_.Slot(key);
  const bool same = e.key == key && e.kind == EntryKind::kBounds;
  int lower = same ? e.value[0] : -kInfinity;
  int upper = same ? e.value[1] : kInfinity;
  const bool lower_known = best > alpha_in && (proven || below_true);
  const bool upper_known = best < beta_in && (proven || !below_true);
  if (lower_known) lower = std::max(lower, best);
  if (upper_known) upper = std::min(upper, best);
  e.key = key;
  e.move = move;
  if (lower_known || upper_known || same) {
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
    return HorizonLostFor(pos.to_move()) ? -kHorizonValue : kHorizonValue;
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
  Store(key, best, alpha_in, beta, best_move, horizon_hits_ == hits_before,
        HorizonLostFor(pos.to_move()));
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
// opponent. `first` (the likeliest) is tested first; the list comes in the
// order GenerateMoves gives. When the budget ends first, the optimal moves
// found so far are kept and `all_optimal_known` stays false.
void FindOptimalMoves(const Position& pos, int value, Negamax& search,
                      const Budget& budget, Move first, SolveResult& r) {
  MoveList moves;
  GenerateMoves(pos, moves);
  std::vector<bool> optimal(moves.size(), false);
  std::vector<int> order;
  for (int i = 0; i < moves.size(); ++i) {
    if (moves[i] == first)
      order.insert(order.begin(), i);
    else
      order.push_back(i);
  }
  bool complete = true;
  for (const int i : order) {
    Position child = pos;
    child.Play(moves[i]);
    const int64_t hits = search.horizon_hits();
    const int v = -search.Value(child, -value, -value + 1, kMaxPly, 1);
    if (budget.stopped() || search.horizon_hits() != hits) {
      complete = false;
      break;
    }
    optimal[i] = v >= value;
  }
  r.optimal.clear();
  for (int i = 0; i < moves.size(); ++i) {
    if (optimal[i]) r.optimal.push_back(moves[i]);
  }
  r.all_optimal_known = complete;
}

}  // namespace

SolveResult SolveTwoPlayer(const Position& pos, Table& table, Budget& budget,
                           const SolveProgress& on_iteration) {
  Negamax search(table, budget, pos.to_move());
  SolveResult last;
  for (int depth = 1; depth <= kMaxPly; ++depth) {
    search.set_leaves(Leaves::kLost);
    const int lower = search.Value(pos, -kInfinity, kInfinity, depth, 0);
    if (budget.stopped()) break;
    // The best move when the horizon is lost reaches `lower` for sure.
    const TableEntry* root = table.Probe(SolverKey(pos));
    SolveResult r = ResultOf(pos, std::clamp(lower, -649, 649));
    if (root != nullptr) r.pv = TableLine(table, pos, root->move, kMaxPly);
    search.set_leaves(Leaves::kWon);
    const int upper = search.Value(pos, -kInfinity, kInfinity, depth, 0);
    if (budget.stopped()) break;
    r.depth = depth;
    r.proven = lower == upper && !r.pv.empty();
    r.nodes = budget.nodes();
    r.seconds = budget.Spent();
    if (r.proven) {
      FindOptimalMoves(pos, lower, search, budget, r.pv.front(), r);
      // A value without a move it is known to come from is not reported.
      r.proven = !r.optimal.empty();
      if (r.proven && r.pv.front() != r.optimal.front() &&
          std::find(r.optimal.begin(), r.optimal.end(), r.pv.front()) ==
              r.optimal.end()) {
        r.pv = {r.optimal.front()};
      }
      r.nodes = budget.nodes();
      r.seconds = budget.Spent();
      if (r.proven) return r;
      r.utility = {};
      break;
    }
    last = std::move(r);
    if (on_iteration) on_iteration(last);
  }
  last.nodes = budget.nodes();
  last.seconds = budget.Spent();
  return last;
}

}  // namespace wallgo::search::solver_internal
