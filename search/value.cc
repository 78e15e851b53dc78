#include "search/value.h"

#include "engine/outcome.h"

namespace wallgo::search {

Value FinishedValue(const Position& pos) {
  const Result result = ComputeResult(pos);
  Value v;
  for (int p = 0; p < result.players; ++p) {
    v.win[p] = static_cast<float>(result.win_share(p));
    v.margin[p] = static_cast<float>(result.margin(p));
  }
  return v;
}

}  // namespace wallgo::search
