// The three- and four-player solver: max^n (every player picks the child
// best for itself, ties by MaxnPrefers) with iterative deepening of the
// horizon. Max^n has no safe cutoffs without bounds on the sum of the
// players' values, so every child is searched; the table keeps the proven
// values of subtrees that met no horizon position.
#include <algorithm>
#include <array>
#include <cmath>
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

  Utilities Value(const Position& pos, int depth, int ply);
  int64_t horizon_hits() const { return horizon_hits_; }

 private:
  Table& table_;
  Budget& budget_;
  int64_t horizon_hits_ = 0;
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

Utilities Maxn::Value(const Position& pos, int depth, int ply) {
  if (budget_.Tick()) return {};
  // The slot's memory is on its way while the rules look for the end.
  const uint64_t key = SolverKey(pos);
  table_.Prefetch(key);
  if (IsGameOver(pos)) return FinishedUtilities(pos);
  if (const TableEntry* e = table_.Probe(key)) {
    if (e->kind == EntryKind::kExact) {
      return {e->value[0], e->value[1], e->value[2], e->value[3]};
    }
  }
  if (depth <= 0 || ply >= kMaxPly) {
    ++horizon_hits_;
    return Horizon(pos);
  }
  MoveList moves;
  GenerateMoves(pos, moves);
  const int64_t hits_before = horizon_hits_;
  const int mover = Index(pos.to_move()), players = pos.num_players();
  Utilities best{};
  Move best_move = moves[0];
  for (int i = 0; i < moves.size(); ++i) {
    Position child = pos;
    child.Play(moves[i]);
    const Utilities v = Value(child, depth - 1, ply + 1);
    if (budget_.stopped()) return {};
    if (i == 0 || MaxnPrefers(v, best, mover, players)) {
      best = v;
      best_move = moves[i];
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
    for (const Move& m : moves) {
      Position child = pos;
      child.Play(m);
      values.push_back(search.Value(child, depth - 1, 1));
      if (budget.stopped()) break;
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
