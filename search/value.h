// What a node is worth to each player: a win probability (sole win = 1,
// shared draw = 1/k) and an expected score margin (own cells minus the best
// other player's). Every player maximises its own utility, which is the win
// probability with the margin as a small tie-breaker, so that among sure
// wins the bigger margin is preferred.
#pragma once

#include <array>
#include <atomic>

#include "engine/types.h"

namespace wallgo::search {

inline constexpr float kMarginWeight = 0.25f;  // utility of a 49-cell margin

// A player's utility from its win probability and score margin.
constexpr float UtilityOf(float win, float margin) {
  return win + kMarginWeight * margin / 49.0f;
}

struct Value {
  std::array<float, kMaxPlayers> win{};
  std::array<float, kMaxPlayers> margin{};

  float Utility(int player) const {
    return UtilityOf(win[player], margin[player]);
  }
};

// A Value read and written concurrently (relaxed: a slightly stale value only
// steers selection a little, it never breaks the graph).
class AtomicValue {
 public:
  // The first `players` entries (the rest stay zero).
  Value Load(int players = kMaxPlayers) const {
    Value v;
    for (int p = 0; p < players; ++p) {
      v.win[p] = win_[p].load(std::memory_order_relaxed);
      v.margin[p] = margin_[p].load(std::memory_order_relaxed);
    }
    return v;
  }
  void Store(const Value& v, int players = kMaxPlayers) {
    for (int p = 0; p < players; ++p) {
      win_[p].store(v.win[p], std::memory_order_relaxed);
      margin_[p].store(v.margin[p], std::memory_order_relaxed);
    }
  }
  float Utility(int player) const {
    return UtilityOf(win_[player].load(std::memory_order_relaxed),
                     margin_[player].load(std::memory_order_relaxed));
  }

 private:
  std::array<std::atomic<float>, kMaxPlayers> win_{};
  std::array<std::atomic<float>, kMaxPlayers> margin_{};
};

}  // namespace wallgo::search
