// NNUE's accumulator, for a graph search. Stockfish keeps the first layer's
// sums of every position along its line of moves and updates them by the
// few features a move changes. A graph search has no such line: each
// playout evaluates one new leaf, wherever the tree led it. But the leaves of
// one search are alike (the same walls, mostly the same stones and race
// classes), so each thread keeps the sums of the last position it evaluated
// with each side to move, and makes a new position's sums from them by the
// features that differ, when fewer differ than are active. In `wallgo bench`
// that takes 35 rows on average where fresh sums take 75 (docs/eval.md, "The
// accumulator").
//
// The sums are integers (network.h), so a position's sums are the same to the
// bit whichever entry they came from: the cache can change no value, only
// the time it takes.
#pragma once

#include <array>
#include <cstdint>

#include "search/net/features.h"
#include "search/net/network.h"

namespace wallgo::search::net {

class FirstLayerCache {
 public:
  // The first layer's sums of `features` (of a position with `mover` to
  // move) under `net`: updated from the last position of that mover and
  // network when fewer features differ than are active, summed afresh
  // otherwise. Valid until the next call.
  const FirstLayerSums& Sums(const Network& net, int mover,
                             const Features& features);

  // The work done so far, and what fresh sums would have done.
  struct Counts {
    int64_t lookups = 0;
    int64_t updates = 0;     // made from a kept position
    int64_t rows = 0;        // rows added or subtracted
    int64_t fresh_rows = 0;  // rows that fresh sums would have added
  };
  const Counts& counts() const { return counts_; }

 private:
  static constexpr int kWords = (kNumFeatures + 63) / 64;
  using FeatureBits = std::array<uint64_t, kWords>;
  struct Entry {
    uint64_t network = 0;  // the network's checksum
    bool valid = false;
    FeatureBits bits{};
    FirstLayerSums sums;
  };
  // Updates `entry` (of the same network) to the position of `bits`.
  void Update(const Network& net, Entry& entry, const FeatureBits& bits);

  // By side to move. Keeping the last eight of each and updating the
  // nearest takes fewer rows (27), but finding it costs more than it saves.
  std::array<Entry, kMaxPlayers> last_;
  Counts counts_;
};

}  // namespace wallgo::search::net
