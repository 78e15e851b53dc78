// A whole match (or one shard of it): the schedule, played by `concurrency`
// workers, each game recorded as it ends, statistics as it goes, stopping
// early when the SPRT accepts a hypothesis.
#pragma once

#include <optional>
#include <ostream>
#include <stop_token>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/records/records.h"
#include "tools/referee/options.h"
#include "tools/referee/stats.h"

namespace wallgo::referee {

// Records are the shared records library's (tools/records).
using records::GameRecord;

struct MatchResult {
  // Every finished game of this shard, resumed ones included, by number.
  std::vector<GameRecord> records;
  int played = 0;  // games played by this run
  std::optional<SprtState> sprt;
  // `stop` came before the shard was done: the games in progress were
  // dropped, not recorded; --resume plays them.
  bool interrupted = false;
};

// Plays the match; game lines and live summaries go to `out` unless
// options.quiet. Errors are for unusable options or files, never for
// engine faults. A `stop` request (common/batch/preemption.h) kills the
// engines and ends the match with only whole games recorded.
absl::StatusOr<MatchResult> RunMatch(const MatchOptions& options,
                                     std::ostream& out,
                                     std::stop_token stop = {});

}  // namespace wallgo::referee
