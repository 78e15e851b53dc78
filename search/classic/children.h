// The evaluation of every child of a position at once, for priors that
// evaluate each legal move (the classic kChildEval prior): the same figures
// as playing each move on a copy and calling Evaluate, bit for bit, for a
// fraction of the cost. The parent's regions are found once; a child only
// checks whether its new wall cuts its region in two, and is built without
// a Position.
#pragma once

#include <span>

#include "engine/position.h"

namespace wallgo::search {

// What a child is worth to the player who moves into it.
struct ChildOutlook {
  float win = 0;     // Evaluate(child).win of that player
  float margin = 0;  // ScoreMargin of Evaluate(child).score for that player
};

// out[i]: the outlook of the child after moves[i] (legal in `pos`) for
// pos.to_move(). `out` has the size of `moves`.
void EvaluateChildren(const Position& pos, std::span<const Move> moves,
                      std::span<ChildOutlook> out);

// The same for one child by copy, Play and Evaluate: what EvaluateChildren
// falls back on (passes, finished children, a last placement) and must equal.
ChildOutlook EvaluateChildSlowly(const Position& pos, Move move);

}  // namespace wallgo::search
