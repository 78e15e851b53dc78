#include "search/net/builtin_weights.h"

#include "search/net/net_evaluator.h"

extern "C" const char wallgo_builtin_weights_begin[];
extern "C" const char wallgo_builtin_weights_end[];

namespace wallgo::search::net {

std::string_view BuiltinWeights() {
  return std::string_view(wallgo_builtin_weights_begin,
                          static_cast<size_t>(wallgo_builtin_weights_end -
                                              wallgo_builtin_weights_begin));
}

absl::StatusOr<Network> LoadWeights(const std::string& path) {
  if (!path.empty()) return Network::Load(path);
  return Network::FromBytes(BuiltinWeights(), std::string(kBuiltinWeightsName));
}

absl::StatusOr<std::shared_ptr<const Evaluator>> LoadNetEvaluator(
    const std::string& path) {
  absl::StatusOr<Network> network = LoadWeights(path);
  if (!network.ok()) return network.status();
  return std::make_shared<const NetEvaluator>(
      std::make_shared<const Network>(*std::move(network)));
}

}  // namespace wallgo::search::net
