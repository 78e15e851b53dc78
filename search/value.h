// What a node is worth to each player: a win probability (sole win = 1,
// shared draw = 1/k) and an expected score margin (own cells minus the best
// other player's). Every player maximises its own utility: the win
// probability, plus the margin at a weight that is small in a close game
// and grows as the result becomes sure, so that a won game is played for
// its margin (docs/search.md, "Won games stay won").
#pragma once

#include <array>
#include <atomic>

#include "engine/types.h"

namespace wallgo::search {

// The utility of a 49-cell margin in an even game...
inline constexpr float kMarginWeight = 0.25f;
// ...and what is added to it, times (2 win - 1)^16, as the win rate nears 1
// or 0. When every move wins, the win rate no longer tells them apart and
// the margin must, by more than the exploration's noise: at a win rate of
// 0.99, 2 points are now worth 0.07 of a win, not 0.01. The 16th power
// keeps games that are not yet decided as they were (at 0.9 the weight is
// 0.31, at 0.95 0.62), where a player behind must play for the win, not
// for a smaller loss. Both players' weights are alike (the power is even),
// so two players' utilities still sum to one.
inline constexpr float kSureMarginWeight = 2.0f;

// The margin's weight in the utility at win probability `win`.
constexpr float MarginWeight(float win) {
  const float sure = 2 * win - 1;
  const float sure4 = (sure * sure) * (sure * sure);
  const float sure16 = (sure4 * sure4) * (sure4 * sure4);
  return kMarginWeight + kSureMarginWeight * sure16;
}

// A player's utility from its win probability and score margin.
constexpr float UtilityOf(float win, float margin) {
  return win + MarginWeight(win) * margin / 49.0f;
}

// The same with the margin at its even-game weight at any win rate: what
// the classic priors rank moves by (a softmax at a temperature tuned on
// it). Their static win rates come near 0 or 1 long before the game is
// decided, and the search's weight there made the priors follow the
// estimated margins instead of the chances.
constexpr float StaticUtilityOf(float win, float margin) {
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
