// The profiles of search.h: the engine's defaults changed in one place each.
#include "search/search.h"

namespace wallgo::search {

SearchOptions ClassicProfile() {
  SearchOptions options;
  options.movetime_s = 0;
  options.eval = EvalKind::kClassic;
  options.shortlist = 0;
  options.policy_weight = 0;
  return options;
}

SearchOptions SelfPlayProfile() {
  SearchOptions options;
  options.threads = 1;
  options.movetime_s = 0;
  options.hash_mb = 32;
  options.eval = EvalKind::kClassic;
  return options;
}

}  // namespace wallgo::search
