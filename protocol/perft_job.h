// `wallgo perft`: counts move sequences from a position given on the command
// line and reports the count, the time and the leaf positions per second.
#pragma once

#include <ostream>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/position.h"
#include "protocol/cli.h"

namespace wallgo::protocol {

// The position the job starts from: the position string, or the start of
// the rules with the moves played (each checked, the error says which).
absl::StatusOr<Position> PerftStart(const PerftJob& job);

absl::Status RunPerftJob(const PerftJob& job, std::ostream& out);

}  // namespace wallgo::protocol
