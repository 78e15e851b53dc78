// The two-player solver: negamax alpha-beta (principal variation search) on
// the mover's utility minus a draw's, with iterative deepening of the
// horizon. Each iteration searches twice: once with every horizon position
// lost for the root's mover (a lower bound on the true value), once with
// every one won (an upper bound); equal bounds are the proven value. Only
// bounds that are facts about the true value enter the table (see Store).
// The bounding searches also reduce the moves inside settled regions
// (settled.cc), which moves their values only in their bound's direction;
// an iteration whose reduced bounds do not meet searches again unreduced.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "engine/movegen.h"
#include "engine/regions.h"
#include "search/classic/eval.h"
#include "search/move_history.h"
#include "search/solver/solver_table.h"

namespace wallgo::search::solver_internal {
namespace {

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
  void set_reduce(bool reduce) { reduce_ = reduce; }

  // The value of `pos` for its mover within the window; exact inside it
  // when no horizon position and no reduced move list took part. Every
  // region without a stone on `may_be_contested` is settled (a turn
  // changes only its own region, so a child is passed its parent's
  // contested cells).
  int Value(const Position& pos, int alpha, int beta, int depth, int ply,
            Bitboard may_be_contested = kAllCells);
  bool stopped() const { return budget_.stopped(); }

 private:
  void Order(const Position& pos, const ContestedRegions& contested,
             std::vector<Move>& moves, int depth, int ply, Move table_move);
  void Store(uint64_t key, int best, int alpha_in, int beta_in, Move move,
             bool proven, bool below_true);
  // True when the horizon's value counts as a loss for `mover`: then the
  // values searched at its positions are at most the true ones.
  // The value of `m`'s child for the mover (`reduction`: what the settled-
  // region reduction did at `pos`).
  int ChildValue(const Position& pos, const ContestedRegions& contested, Move m,
                 Reduction reduction, int alpha, int beta, int depth, int ply);
  // The player whose moves in its own regions give way to a pass: the one
  // the horizon counts as a win for.
  Colour Idealized() const {
    return leaves_ == Leaves::kWon ? root_ : ColourAt(1 - Index(root_));
  }
  // The table's key: a position reached after passes also keys their count
  // (its bounds hold for the search with that many passes behind it).
  uint64_t Key(const Position& pos) const;
  bool HorizonLostFor(Colour mover) const {
    return (leaves_ == Leaves::kLost) == (mover == root_);
  }

  Table& table_;
  Budget& budget_;
  const Colour root_;
  Leaves leaves_ = Leaves::kLost;
  bool reduce_ = false;
  int passes_ = 0;  // the idealized player's passes on the current line
  int64_t horizon_hits_ = 0;   // positions at the horizon
  int64_t reduced_nodes_ = 0;  // positions whose moves were reduced
  std::array<std::array<Move, 2>, kMaxPly + 1> killers_{};
  MoveHistory history_;
};

int Terminal(const Position& pos) {
  return FinishedUtilities(pos)[Index(pos.to_move())] - kDrawUtility;
}

// Whether `m` may end the game: a stone stays in its region and builds its
// wall beside its destination, so only a wall inside the one contested
// region left can settle every region.
bool MayEndTheGame(const ContestedRegions& contested, Move m) {
  if (m.kind != MoveKind::kTurn) return true;
  return contested.count == 1 && (CellBit(m.to) & contested.cells) != 0;
}

// The value of `m`'s child for its mover where `m` ends the game.
// `outside`: the score sheet of the regions off the contested cells, found
// once a node (a turn changes only its own region, and the others are
// settled; a break or a pass may be played anywhere).
std::optional<int> EndValue(const Position& pos,
                            const ContestedRegions& contested, Move m,
                            std::optional<ScoreSheet>& outside) {
  if (!MayEndTheGame(contested, m)) return std::nullopt;
  Position child = pos;
  child.Play(m);
  if (m.kind != MoveKind::kTurn) {
    if (!AllRegionsSettled(child)) return std::nullopt;
    return Terminal(child);
  }
  if (!RegionsSettledAt(child, contested.cells)) return std::nullopt;
  if (!outside) outside = ComputeScoresAt(pos, ~contested.cells);
  ScoreSheet sheet = *outside;
  sheet.Add(ComputeScoresAt(child, contested.cells));
  return FinishedUtilities(sheet, child.num_players())[Index(child.to_move())] -
         kDrawUtility;
}

void Negamax::Order(const Position& pos, const ContestedRegions& contested,
                    std::vector<Move>& moves, int depth, int ply,
                    Move table_move) {
  // Sorted by key, ties in list order (the order a stable sort gives),
  // without the stable sort's buffer on the heap at every node.
  std::array<std::pair<float, int>, MoveList::kCapacity> keyed;
  const int count = static_cast<int>(moves.size());
  std::optional<ScoreSheet> outside;
  for (int i = 0; i < count; ++i) {
    const Move& m = moves[static_cast<size_t>(i)];
    float key;
    if (m == table_move) {
      key = 1e12f;
    } else if (depth >= kEvalOrderingDepth) {
      Position child = pos;
      child.Play(m);
      key = OutcomeValue(child, pos.to_move());
    } else if (std::optional<int> end = EndValue(pos, contested, m, outside)) {
      // A move that ends the game, by its exact value.
      key = 1e11f - static_cast<float>(*end);
    } else if (m == killers_[ply][0] || m == killers_[ply][1]) {
      key = 1e10f;
    } else {
      key = static_cast<float>(history_.Score(m));
    }
    keyed[static_cast<size_t>(i)] = {key, i};
  }
  std::sort(
      keyed.begin(), keyed.begin() + count, [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
  std::array<Move, MoveList::kCapacity> listed;
  std::copy(moves.begin(), moves.end(), listed.begin());
  for (int i = 0; i < count; ++i) {
    moves[static_cast<size_t>(i)] =
        listed[static_cast<size_t>(keyed[static_cast<size_t>(i)].second)];
  }
}

// What a search's result says of the true value (at a key of a reduced
// game after passes, of that game's value): with no horizon position and
// no reduced move list in the search (`proven`; after passes, no horizon
// position), what alpha-beta says of any value. Otherwise,
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

uint64_t Negamax::Key(const Position& pos) const {
  uint64_t key = SolverKey(pos);
  if (passes_ == 0) return key;
  // splitmix64 of the passes and the passer.
  uint64_t z = static_cast<uint64_t>(passes_ * 2 + Index(Idealized()) + 1) *
               0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return key ^ z ^ (z >> 31);
}

int Negamax::ChildValue(const Position& pos, const ContestedRegions& contested,
                        Move m, Reduction reduction, int alpha, int beta,
                        int depth, int ply) {
  const bool pass = m.kind == MoveKind::kPass;
  if (pass && reduction == Reduction::kEnd) {
    return BoundedUtilities(pos, pos.to_move(), passes_)[Index(pos.to_move())] -
           kDrawUtility;
  }
  // Passes are counted only where they cost cells: unlimited walls.
  const bool counted = pass && reduction == Reduction::kPass &&
                       pos.rules().wall_limit == kUnlimitedWalls;
  Position child = pos;
  child.Play(m);
  passes_ += counted;
  // A turn changes only its own region; a break may join any two.
  const Bitboard may_be_contested =
      m.kind == MoveKind::kTurn ? contested.cells : kAllCells;
  const int v =
      -Value(child, -beta, -alpha, depth - 1, ply + 1, may_be_contested);
  passes_ -= counted;
  return v;
}

int Negamax::Value(const Position& pos, int alpha, int beta, int depth, int ply,
                   Bitboard may_be_contested) {
  if (budget_.Tick()) return 0;
  // The slot's memory is on its way while the regions are found.
  const uint64_t key = Key(pos);
  table_.Prefetch(key);
  const ContestedRegions contested =
      FindContestedRegions(pos, may_be_contested);
  if (IsGameOverWith(pos, contested)) {
    if (passes_ == 0) return Terminal(pos);
    return BoundedUtilities(pos, Idealized(), passes_)[Index(pos.to_move())] -
           kDrawUtility;
  }
  // Bounds from the regions, like the table's: they end the search here
  // where they decide it. After passes the reduced game scores what the
  // board does not show, and there only the old rule holds. (Found before
  // the table is read, while its slot is still on its way.)
  std::optional<HorizonBounds> bounds;
  if (budget_.limits().horizon_bounds && passes_ == 0) {
    bounds = BoundsAtHorizon(pos, contested);
  }
  Move table_move = kNoMove;
  if (const TableEntry* e = table_.Probe(key)) {
    table_move = e->move;
    if (e->kind == EntryKind::kBounds) {
      const int lower = e->value[0], upper = e->value[1];
      if (lower == upper || lower >= beta) return lower;
      if (upper <= alpha) return upper;
    }
  }
  if (bounds) {
    if (bounds->lower == bounds->upper || bounds->lower >= beta) {
      return bounds->lower;
    }
    if (bounds->upper <= alpha) return bounds->upper;
  }
  if (depth <= 0 || ply >= kMaxPly) {
    ++horizon_hits_;
    const bool lost = HorizonLostFor(pos.to_move());
    if (!bounds) return lost ? -kHorizonValue : kHorizonValue;
    return lost ? bounds->lower : bounds->upper;
  }
  MoveList legal;
  GenerateMoves(pos, legal);
  std::vector<Move> ordered(legal.begin(), legal.end());
  const int64_t horizon_before = horizon_hits_, reduced_before = reduced_nodes_;
  // The restricted side is the one whose values this search bounds from
  // below, as the horizon does.
  const Reduction reduction =
      reduce_ ? ReduceSettledMoves(pos, HorizonLostFor(pos.to_move()), ordered)
              : Reduction::kNone;
  if (reduction != Reduction::kNone) ++reduced_nodes_;
  Order(pos, contested, ordered, depth, ply, table_move);
  const int alpha_in = alpha;
  int best = -kInfinity;
  Move best_move = ordered.front();
  for (size_t i = 0; i < ordered.size(); ++i) {
    const Move m = ordered[i];
    int v;
    if (i == 0) {
      v = ChildValue(pos, contested, m, reduction, alpha, beta, depth, ply);
    } else {
      v = ChildValue(pos, contested, m, reduction, alpha, alpha + 1, depth,
                     ply);
      if (v > alpha && v < beta && !budget_.stopped()) {
        v = ChildValue(pos, contested, m, reduction, alpha, beta, depth, ply);
      }
    }
    if (budget_.stopped()) return 0;
    if (v > best) {
      best = v;
      best_move = ordered[i];
    }
    alpha = std::max(alpha, v);
    if (alpha >= beta) {
      history_.Reward(ordered[i], depth);
      auto& killers = killers_[ply];
      if (killers[0] != ordered[i]) killers = {ordered[i], killers[0]};
      break;
    }
  }
  // A position reached after passes has a key of this reduced game alone,
  // whose rules the reductions are: there only the horizon makes its value
  // a one-sided bound. Without the exact results, a null-window search of
  // the reduced game to the end kept only one side of its results and
  // searched the same positions again and again (docs/solver.md).
  const bool exact = horizon_hits_ == horizon_before &&
                     (passes_ > 0 || reduced_nodes_ == reduced_before);
  Store(key, best, alpha_in, beta, best_move, exact,
        HorizonLostFor(pos.to_move()));
  return best;
}

// The least and the most value of a player whose value (less a draw's) is
// proven to be at least or at most `v`: values between the results' (a draw
// is 0, a win 600 + margin, a loss -600 + margin) stand for the nearest
// result in the bound's direction.
PlayerValue AtLeast(int v) {
  if (v > 0) return {12, std::clamp(v - kDrawUtility, 0, 49)};
  if (v > -kDrawUtility) return {6, 0};
  return {0, std::max(v + kDrawUtility, -49)};
}
PlayerValue AtMost(int v) {
  if (v < 0) return {0, std::clamp(v + kDrawUtility, -49, 0)};
  if (v < kDrawUtility) return {6, 0};
  return {12, std::min(v - kDrawUtility, 49)};
}

SolveResult ResultOf(const Position& pos, int value) {
  SolveResult r;
  const int mover = Index(pos.to_move());
  r.utility[mover] = value + kDrawUtility;
  r.utility[1 - mover] = kDrawUtility - value;
  return r;
}

// One test of KeepsValue's at the horizon `depth`: true or false when a
// bounding search decides, nullopt when neither does or the budget ends.
// (A stopped search's value means nothing, so the budget is checked first.)
std::optional<bool> BoundsDecide(const Position& child, int value, int depth,
                                 bool reduce, Negamax& search,
                                 const Budget& budget) {
  search.set_reduce(reduce);
  search.set_leaves(Leaves::kLost);
  const int lower = -search.Value(child, -value, -value + 1, depth, 1);
  if (budget.stopped()) return std::nullopt;
  if (lower >= value) return true;
  search.set_leaves(Leaves::kWon);
  const int upper = -search.Value(child, -value, -value + 1, depth, 1);
  if (budget.stopped()) return std::nullopt;
  if (upper < value) return false;
  return std::nullopt;
}

// Whether the root's move leading to `child` keeps the proven value `value`:
// yes when a search bounding the child from below (for the root's mover)
// reaches it, no when one bounding it from above stays under it. The
// horizon deepens from `depth`, first with the settled-region reduction
// (when it is on), then without, until one decides; once no line reaches
// the horizon, the unreduced pair meets and decides. A single search to
// the end of the game instead runs depth first down the longest lines (the
// owners filling their regions) and is quick only where the table holds
// the proving iteration's unreduced results; after a proof by the reduced
// pair it ran past 100 million nodes (docs/solver.md). nullopt when the
// budget ends first.
std::optional<bool> KeepsValue(const Position& child, int value, int depth,
                               Negamax& search, const Budget& budget) {
  const bool reduce = budget.limits().settled_reduction;
  for (int d = std::max(1, depth); d < kMaxPly; ++d) {
    for (const bool reduced : {true, false}) {
      if (reduced && !reduce) continue;
      const std::optional<bool> keeps =
          BoundsDecide(child, value, d, reduced, search, budget);
      if (keeps || budget.stopped()) return keeps;
    }
  }
  return std::nullopt;
}

// The root's moves, each tested against the proven value `value` (see
// KeepsValue). `first` (the likeliest) is tested first; the list comes in
// the order GenerateMoves gives. When the budget ends first, the optimal
// moves found so far are kept and `all_optimal_known` stays false.
void FindOptimalMoves(const Position& pos, int value, int depth,
                      Negamax& search, const Budget& budget, Move first,
                      SolveResult& r) {
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
    const std::optional<bool> keeps =
        KeepsValue(child, value, depth, search, budget);
    if (!keeps) {
      complete = false;
      break;
    }
    optimal[i] = *keeps;
  }
  r.optimal.clear();
  for (int i = 0; i < moves.size(); ++i) {
    if (optimal[i]) r.optimal.push_back(moves[i]);
  }
  r.all_optimal_known = complete;
}

// Bounds on the root's value from one iteration: the lower one with the
// line that reaches it.
struct Bounds {
  int lower = -kInfinity;
  int upper = kInfinity;
  std::vector<Move> line;
};

// One iteration's pair of bounding searches to `depth`, with or without the
// settled-region reduction; narrows `bounds`. The true value lies within
// `bounds` already (facts from earlier iterations), so each search needs
// only that window: the one bounding from below learns nothing new from a
// value at or under `bounds.lower`, the one from above nothing from one at
// or over `bounds.upper`. A full window spent most of its nodes on the
// exact margins of lines outside it.
void Bound(const Position& pos, int depth, bool reduce, Negamax& search,
           Table& table, Bounds& bounds) {
  search.set_reduce(reduce);
  search.set_leaves(Leaves::kLost);
  const int lower = search.Value(pos, bounds.lower, bounds.upper + 1, depth, 0);
  if (search.stopped()) return;
  if (lower > bounds.lower || bounds.line.empty()) {
    // The best move when the horizon is lost reaches `lower` for sure.
    const TableEntry* root = table.Probe(SolverKey(pos));
    if (root != nullptr)
      bounds.line = TableLine(table, pos, root->move, kMaxPly);
  }
  bounds.lower = std::max(bounds.lower, lower);
  search.set_leaves(Leaves::kWon);
  const int upper = search.Value(pos, bounds.lower - 1, bounds.upper, depth, 0);
  if (search.stopped()) return;
  bounds.upper = std::min(bounds.upper, upper);
}

// The root's moves proven worse than `lower` (the root mover's proven
// least value): through each, the table's bound on the child (or the end of
// the game) holds the mover under it. Facts, as every bound in the table.
std::vector<Move> RefutedMoves(const Position& pos, const Table& table,
                               int lower) {
  MoveList moves;
  GenerateMoves(pos, moves);
  std::vector<Move> refuted;
  for (const Move& m : moves) {
    Position child = pos;
    child.Play(m);
    int most;
    if (IsGameOver(child)) {
      most = -Terminal(child);
    } else {
      const TableEntry* e = table.Probe(SolverKey(child));
      if (e == nullptr || e->kind != EntryKind::kBounds) continue;
      most = -e->value[0];
    }
    if (most < lower) refuted.push_back(m);
  }
  return refuted;
}

}  // namespace

SolveResult SolveTwoPlayer(const Position& pos, Table& table, Budget& budget,
                           const SolveProgress& on_iteration) {
  Negamax search(table, budget, pos.to_move());
  SolveResult last;
  bool use_reduced = budget.limits().settled_reduction, use_exact = true;
  // Facts about the true value: each iteration can only narrow them.
  Bounds bounds;
  int last_lower = -kInfinity;  // the lower bound `last` reports
  for (int depth = 1; depth <= kMaxPly; ++depth) {
    // The reduced pair first; where its bounds do not meet, the unreduced
    // pair, which starts from the reduced pair's bounds in the table. Where
    // one of the two pairs adds nothing to the other, the next iterations
    // skip it, until every third one runs both again.
    if (use_reduced) Bound(pos, depth, true, search, table, bounds);
    const Bounds reduced = bounds;
    if (use_exact && bounds.lower != bounds.upper && !budget.stopped()) {
      Bound(pos, depth, false, search, table, bounds);
      if (use_reduced && !budget.stopped()) {
        const bool exact_adds =
            bounds.lower > reduced.lower || bounds.upper < reduced.upper;
        use_exact = exact_adds;
        use_reduced = !exact_adds;
      }
    }
    if (depth % 3 == 0) {
      use_reduced = budget.limits().settled_reduction;
      use_exact = true;
    }
    if (budget.stopped()) break;
    SolveResult r = ResultOf(pos, std::clamp(bounds.lower, -649, 649));
    r.pv = bounds.line;
    r.depth = depth;
    r.proven = bounds.lower == bounds.upper;
    r.range = ValueRange{AtLeast(bounds.lower), AtMost(bounds.upper)};
    r.nodes = budget.nodes();
    r.seconds = budget.Spent();
    if (r.proven) {
      FindOptimalMoves(pos, bounds.lower, depth - 1, search, budget,
                       r.pv.empty() ? kNoMove : r.pv.front(), r);
      // A value without a move it is known to come from is not reported.
      r.proven = !r.optimal.empty();
      if (r.proven &&
          (r.pv.empty() || std::find(r.optimal.begin(), r.optimal.end(),
                                     r.pv.front()) == r.optimal.end())) {
        r.pv = {r.optimal.front()};
      }
      r.nodes = budget.nodes();
      r.seconds = budget.Spent();
      if (r.proven) {
        r.range.reset();
        return r;
      }
      break;
    }
    last = std::move(r);
    last_lower = bounds.lower;
    if (on_iteration) on_iteration(last);
  }
  if (last.range && !last.pv.empty()) {
    last.refuted = RefutedMoves(pos, table, last_lower);
  }
  last.nodes = budget.nodes();
  last.seconds = budget.Spent();
  return last;
}

}  // namespace wallgo::search::solver_internal
