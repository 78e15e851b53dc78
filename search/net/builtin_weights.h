// The shipped weights (search/net/weights/wallgo-net-1.wgn), assembled into
// the binary so that `eval=net` works wherever `wallgo` is installed, with
// no file to find; `--weights FILE` replaces them.
#pragma once

#include <string_view>

namespace wallgo::search::net {

// The weights file's bytes, and the name its errors and provenance use.
std::string_view BuiltinWeights();
inline constexpr std::string_view kBuiltinWeightsName = "wallgo-net-1 (built in)";

}  // namespace wallgo::search::net
