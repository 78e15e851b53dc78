#include "search/net/feature_symmetry.h"

#include "engine/symmetry.h"

namespace wallgo::search::net {

std::array<uint16_t, kNumFeatures + 1> FeaturePermutation(int s) {
  std::array<uint16_t, kNumFeatures + 1> perm;
  for (int f = 0; f <= kNumFeatures; ++f) perm[f] = static_cast<uint16_t>(f);
  for (int slot = 0; slot < kMaxPlayers; ++slot) {
    for (int c = 0; c < kNumCells; ++c) {
      perm[kStoneBase + slot * kNumCells + c] = static_cast<uint16_t>(
          kStoneBase + slot * kNumCells + TransformCell(s, c));
    }
  }
  for (int c = 0; c < kNumCells; ++c) {
    for (int k = 0; k < kRaceClasses; ++k) {
      perm[kRaceBase + c * kRaceClasses + k] = static_cast<uint16_t>(
          kRaceBase + TransformCell(s, c) * kRaceClasses + k);
    }
    for (const Side side : {Side::kNorth, Side::kEast}) {
      const EdgeOrRim edge = EdgeAt(c, side);
      if (!edge.valid) continue;
      perm[WallFeature(edge.edge)] =
          static_cast<uint16_t>(WallFeature(TransformEdge(s, edge.edge)));
    }
  }
  return perm;
}

std::array<uint16_t, kPolicySize + 1> PolicyPermutation(int s) {
  std::array<uint16_t, kPolicySize + 1> perm;
  perm[kNoPolicyIndex] = kNoPolicyIndex;
  for (int c = 0; c < kNumCells; ++c) {
    const int t = TransformCell(s, c);
    perm[kPolicyPlace + c] = static_cast<uint16_t>(kPolicyPlace + t);
    perm[kPolicyFrom + c] = static_cast<uint16_t>(kPolicyFrom + t);
    perm[kPolicyTo + c] = static_cast<uint16_t>(kPolicyTo + t);
    for (int side = 0; side < kNumSides; ++side) {
      const int ts =
          static_cast<int>(TransformSide(s, static_cast<Side>(side)));
      perm[kPolicyWall + c * kNumSides + side] =
          static_cast<uint16_t>(kPolicyWall + t * kNumSides + ts);
      perm[kPolicyBreak + c * kNumSides + side] =
          static_cast<uint16_t>(kPolicyBreak + t * kNumSides + ts);
    }
  }
  return perm;
}

}  // namespace wallgo::search::net
