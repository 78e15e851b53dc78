// How long one search may think: a planned (soft) time, a hard limit never
// crossed, and whether the search may stretch the plan when the position is
// critical or cut it short when the choice is obvious (only while main time
// is left: see PlanTime).
#pragma once

#include "engine/position.h"
#include "search/search.h"

namespace wallgo::search {

struct TimePlan {
  double soft_s;  // stop here unless the best moves are close
  double hard_s;  // never think longer
  bool flexible;  // main time left: may stretch to hard_s or stop early
};

// A clock governs unless the user set a move time too (then whichever allows
// less); without a clock, the move time (the protocol's default is 1 s);
// `default_s` is
// used when the limits give no time, no clock and no visits budget and the
// search is not infinite.
TimePlan PlanTime(const SearchOptions& options, const Limits& limits,
                  const Position& pos, double default_s);

// Whether a search at `elapsed_s` should stop: past the hard limit, or past
// the planned time unless `unclear`, or (flexible plans) halfway with an
// `obvious` best move.
bool ShouldStop(const TimePlan& plan, double elapsed_s, bool unclear,
                bool obvious);

}  // namespace wallgo::search
