#include "search/net/builtin_weights.h"

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

}  // namespace wallgo::search::net
