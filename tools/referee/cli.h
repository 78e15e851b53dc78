// The wallgo-referee command line: a match (the default), `replay`,
// `merge` and `annotate`. Errors come back as statuses; main prints them with
// the usage and exits 2.
#pragma once

#include <optional>
#include <ostream>
#include <stop_token>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/records/annotate.h"
#include "tools/referee/options.h"

namespace wallgo::referee {

// Records are the shared records library's (tools/records).
using records::AnnotateOptions;

struct MatchCommand {
  MatchOptions options;
  bool help = false;
};
absl::StatusOr<MatchCommand> ParseMatchCommand(
    const std::vector<std::string>& args);

struct ReplayCommand {
  std::string records;
  std::optional<int> game;
  bool commands = false;  // engine command lines instead of boards
  bool help = false;
};
absl::StatusOr<ReplayCommand> ParseReplayCommand(
    const std::vector<std::string>& args);

struct AnnotateCommand {
  AnnotateOptions options;
  bool help = false;
};
absl::StatusOr<AnnotateCommand> ParseAnnotateCommand(
    const std::vector<std::string>& args);

struct MergeCommand {
  std::vector<std::string> files;
  std::string output;     // merged records; empty: none
  bool renumber = false;  // separate matches, not shards of one
  std::optional<SprtParams> sprt;
  bool help = false;
};
absl::StatusOr<MergeCommand> ParseMergeCommand(
    const std::vector<std::string>& args);

using client::NameEngines;  // shared with the GUI (tools/client)

std::string Usage();

// The whole program: dispatches on the first argument. Returns the exit
// status (0, 1 for a failed run, 2 for a bad command line, 75 when `stop`
// interrupted a match or annotation: common/batch/preemption.h).
int RefereeMain(const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err, std::stop_token stop = {});

}  // namespace wallgo::referee
