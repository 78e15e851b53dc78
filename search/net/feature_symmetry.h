// The board's symmetries (engine/symmetry.h) on the network's inputs and
// outputs: where each feature and each policy index goes, so that the
// trainer permutes examples by table (the Python module's
// wallgo.net.symmetry_tables) and never needs to know the game.
#pragma once

#include <array>
#include <cstdint>

#include "search/net/features.h"

namespace wallgo::search::net {

// Where each feature index goes (kNumFeatures maps to itself).
std::array<uint16_t, kNumFeatures + 1> FeaturePermutation(int s);
// Where each policy index goes (kNoPolicyIndex maps to itself).
std::array<uint16_t, kPolicySize + 1> PolicyPermutation(int s);

}  // namespace wallgo::search::net
