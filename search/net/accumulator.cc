#include "search/net/accumulator.h"

#include <algorithm>
#include <bit>
#include <span>

namespace wallgo::search::net {

const FirstLayerSums& FirstLayerCache::Sums(const Network& net, int mover,
                                            const Features& features) {
  FeatureBits bits{};
  for (int i = 0; i < features.count; ++i) {
    const int f = features.active[i];
    bits[f / 64] |= uint64_t{1} << (f % 64);
  }
  ++counts_.lookups;
  counts_.fresh_rows += features.count;

  Entry& last = last_[mover];
  int rows = features.count;  // what fresh sums take
  if (last.valid && last.network == net.checksum()) {
    int differ = 0;
    for (int w = 0; w < kWords; ++w) {
      differ += std::popcount(last.bits[w] ^ bits[w]);
    }
    rows = std::min(rows, differ);
  }
  counts_.rows += rows;
  if (rows < features.count) {
    ++counts_.updates;
    Update(net, last, bits);
  } else {
    net.FirstLayer(features, last.sums);
    last.network = net.checksum();
    last.valid = true;
    last.bits = bits;
  }
  return last.sums;
}

void FirstLayerCache::Update(const Network& net, Entry& entry,
                             const FeatureBits& bits) {
  // Fewer rows differ than the new position has active features.
  std::array<uint16_t, kMaxActive> removed, added;
  int removed_count = 0, added_count = 0;
  for (int w = 0; w < kWords; ++w) {
    for (uint64_t gone = entry.bits[w] & ~bits[w]; gone != 0;
         gone &= gone - 1) {
      removed[removed_count++] =
          static_cast<uint16_t>(64 * w + std::countr_zero(gone));
    }
    for (uint64_t come = bits[w] & ~entry.bits[w]; come != 0;
         come &= come - 1) {
      added[added_count++] =
          static_cast<uint16_t>(64 * w + std::countr_zero(come));
    }
  }
  net.UpdateFirstLayer(entry.sums, std::span(removed.data(), removed_count),
                       std::span(added.data(), added_count));
  entry.bits = bits;
}

}  // namespace wallgo::search::net
