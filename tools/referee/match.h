// A whole match (or one shard of it): the schedule, played by `concurrency`
// workers, each game recorded as it ends, statistics as it goes, stopping
// early when the SPRT accepts a hypothesis.
#pragma once

#include <optional>
#include <ostream>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/referee/options.h"
#include "tools/referee/records.h"
#include "tools/referee/stats.h"

namespace wallgo::referee {

struct MatchResult {
  // Every finished game of this shard, resumed ones included, by number.
  std::vector<GameRecord> records;
  int played = 0;  // games played by this run
  std::optional<SprtState> sprt;
};

// Plays the match; game lines and live summaries go to `out` unless
// options.quiet. Errors are for unusable options or files, never for
// engine faults.
absl::StatusOr<MatchResult> RunMatch(const MatchOptions& options,
                                     std::ostream& out);

}  // namespace wallgo::referee
