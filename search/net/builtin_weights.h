// The shipped weights (search/net/weights/wallgo-net-6.wgn), assembled into
// the binary so that `eval=net` works wherever `wallgo` is installed, with
// no file to find; `--weights FILE` replaces them.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "search/evaluator.h"
#include "search/net/network.h"

namespace wallgo::search::net {

// The weights file's bytes, and the name its errors and provenance use.
std::string_view BuiltinWeights();
inline constexpr std::string_view kBuiltinWeightsName =
    "wallgo-net-6 (built in)";

// The network of the weights file at `path`, or the built-in one when `path`
// is empty: what every program's --weights option means.
absl::StatusOr<Network> LoadWeights(const std::string& path);

// The evaluator of LoadWeights(path), for SearchOptions::net and net_multi.
absl::StatusOr<std::shared_ptr<const Evaluator>> LoadNetEvaluator(
    const std::string& path);

}  // namespace wallgo::search::net
