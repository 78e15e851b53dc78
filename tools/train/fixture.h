// The check that the engine's network computes what the trainer computed:
// tools/train/train.py exports a fixture (JSON) of positions, as raw data
// records, with its own outputs on them (win probabilities, scores and
// ownership by slot, priors over the legal moves, the active features).
#pragma once

#include <string>

#include "absl/status/status.h"
#include "search/net/network.h"

namespace wallgo::train {

struct FixtureReport {
  int samples = 0;
  double max_error = 0;  // largest absolute difference over every output
};

// OK when every output of `net` on the fixture's positions is within
// `tolerance` of the trainer's and the features are the same; otherwise an
// error naming the sample and output.
absl::StatusOr<FixtureReport> CheckFixture(const search::net::Network& net,
                                           const std::string& fixture_path,
                                           double tolerance = 1e-4);

}  // namespace wallgo::train
