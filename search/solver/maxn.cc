// The three- and four-player solver: max^n (every player picks the child
// best for itself, ties by MaxnPrefers) with iterative deepening of the
// horizon. Max^n has no safe deep cutoffs; the one cutoff here is shallow,
// from the results alone: once the mover has a proven win, or a proven
// share of one, the parent's mover cannot do as well there as it does
// elsewhere (see Value). The table keeps the proven values of subtrees that
// met no horizon position.
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

using Utilities = std::array<int, kMaxPlayers>;

class Maxn {
 public:
  Maxn(Table& table, Budget& budget) : table_(table), budget_(budget) {}

  // `parent_best`: the most the parent's mover (`parent`) has proven among
  // its other children, or kNoBound.
  Utilities Value(const Position& pos, int depth, int ply, int parent = -1,
                  int parent_best = kNoBound);
  static constexpr int kNoBound = -100000;
  int64_t horizon_hits() const { return horizon_hits_; }
  // Whether the last Value was cut off (and forgets it).
  bool TakeCut() { return std::exchange(cut_, false); }

 private:
  Table& table_;
  Budget& budget_;
  int64_t horizon_hits_ = 0;
  bool cut_ = false;  // the last Value returned was cut off
};

// The guess at the horizon, only ever used to order and report: the
// estimated margins, the leader counted as the winner.
Utilities Horizon(const Position& pos) {
  const Territory t = EstimateTerritory(pos);
  Utilities u{};
  for (int p = 0; p < pos.num_players(); ++p) {
    const float m = ScoreMargin(t.score, pos.num_players(), ColourAt(p));
    const int margin = std::clamp(static_cast<int>(std::lround(m)), -49, 49);
    u[p] = (margin > 0 ? 1200 : 0) + margin;
  }
  return u;
}

// The most another player can get where the mover is proven to reach
// `mover_value`: none of the others wins alone once the mover wins or
// shares a draw (600: a share of a two-player draw at most), and each loses
// (at most 0) once the mover wins alone.
int OthersCeiling(int mover_value) {
  if (mover_value >= 1200) return 0;
  if (mover_value >= 300) return 600;
  return 100000;  // no ceiling: beyond every value
}

Utilities Maxn::Value(const Position& pos, int depth, int ply, int parent,
                      int parent_best) {
  if (budget_.Tick()) return {};
  // The slot's memory is on its way while the rules look for the end.
  const uint64_t key = SolverKey(pos);
  table_.Prefetch(key);
  if (IsGameOver(pos)) return FinishedUtilities(pos);
  Move table_move = kNoMove;
  if (const TableEntry* e = table_.Probe(key)) {
    if (e->kind == EntryKind::kExact) {
      return {e->value[0], e->value[1], e->value[2], e->value[3]};
    }
    table_move = e->move;
  }
  if (depth <= 0 || ply >= kMaxPly) {
    ++horizon_hits_;
    return Horizon(pos);
  }
  MoveList legal;
  GenerateMoves(pos, legal);
  // The last iteration's choice first: a proven good value found early
  // cuts more of the siblings below (the value does not depend on the order).
  std::array<Move, MoveList::kCapacity> moves;
  std::copy(legal.begin(), legal.end(), moves.begin());
  const auto end = moves.begin() + legal.size();
  const auto first = std::find(moves.begin(), end, table_move);
  if (first != end) std::rotate(moves.begin(), first, first + 1);
  const int64_t hits_before = horizon_hits_;
  const int mover = Index(pos.to_move()), players = pos.num_players();
  Utilities best{};
  Move best_move = moves[0];
  int proven_best = kNoBound;  // the most the mover has proven here
  for (int i = 0; i < legal.size(); ++i) {
    Position child = pos;
    child.Play(moves[i]);
    const int64_t hits = horizon_hits_;
    const Utilities v = Value(child, depth - 1, ply + 1, mover, proven_best);
    if (budget_.stopped()) return {};
    // A child cut off is worth less to the mover than `proven_best`, and
    // its vector is no value.
    const bool cut = TakeCut();
    if (i == 0 || MaxnPrefers(v, best, mover, players)) {
      best = v;
      best_move = moves[i];
    }
    if (cut || horizon_hits_ != hits) continue;
    proven_best = std::max(proven_best, v[mover]);
    // Whatever the mover chooses here is worth at least `proven_best` to
    // it, so at most OthersCeiling to the parent's mover, who has proven
    // more elsewhere: it never comes here, and this node's value is not
    // needed (nor stored). Its horizon positions cannot change the
    // parent's choice either.
    if (parent >= 0 && OthersCeiling(proven_best) < parent_best) {
      horizon_hits_ = hits_before;
      best[parent] = std::min(best[parent], OthersCeiling(proven_best));
      cut_ = true;
      return best;
    }
  }
  TableEntry& e = table_.Slot(key);
  e.key = key;
  e.move = best_move;
  if (horizon_hits_ == hits_before) {
    e.kind = EntryKind::kExact;
    for (int p = 0; p < kMaxPlayers; ++p) {
      e.value[p] = static_cast<int16_t>(best[p]);
    }
  } else {
    e.kind = EntryKind::kMoveOnly;
  }
  return best;
}

}  // namespace

SolveResult SolveMaxn(const Position& pos, Table& table, Budget& budget,
                      const SolveProgress& on_iteration) {
  Maxn search(table, budget);
  MoveList moves;
  GenerateMoves(pos, moves);
  const int mover = Index(pos.to_move()), players = pos.num_players();
  SolveResult last;
  for (int depth = 1; depth <= kMaxPly; ++depth) {
    const int64_t hits = search.horizon_hits();
    std::vector<Utilities> values;
    int proven_best = Maxn::kNoBound;
    for (const Move& m : moves) {
      Position child = pos;
      child.Play(m);
      const int64_t child_hits = search.horizon_hits();
      values.push_back(search.Value(child, depth - 1, 1, mover, proven_best));
      if (budget.stopped()) break;
      if (!search.TakeCut() && search.horizon_hits() == child_hits) {
        proven_best = std::max(proven_best, values.back()[mover]);
      }
    }
    if (budget.stopped()) break;
    size_t best = 0;
    for (size_t i = 1; i < values.size(); ++i) {
      if (MaxnPrefers(values[i], values[best], mover, players)) best = i;
    }
    SolveResult r;
    r.utility = values[best];
    r.depth = depth;
    r.proven = search.horizon_hits() == hits;
    r.pv = TableLine(table, pos, moves[best], kMaxPly);
    for (size_t i = 0; i < values.size() && r.proven; ++i) {
      if (values[i][mover] == values[best][mover])
        r.optimal.push_back(moves[i]);
    }
    r.all_optimal_known = r.proven;
    r.nodes = budget.nodes();
    r.seconds = budget.Spent();
    if (r.proven) return r;
    if (on_iteration) on_iteration(r);
    last = std::move(r);
  }
  last.nodes = budget.nodes();
  last.seconds = budget.Spent();
  return last;
}

}  // namespace wallgo::search::solver_internal
