// The GTP clock: time_settings gives every player the same main time and
// Canadian byo-yomi (BYO seconds for STONES moves), time_left corrects one
// player's clock, and the engine spends its own thinking time after each of
// its moves. The searcher sees the side to move's clock as search::Clock.
#pragma once

#include <array>

#include "absl/status/status.h"
#include "engine/types.h"
#include "search/search.h"

namespace wallgo::protocol {

class TimeControl {
 public:
  // GTP semantics: main=0 and byo=0 means no clock; byo>0 with stones=0
  // means no time limits either. Resets every player's clock. Negative
  // values are InvalidArgument and change nothing.
  absl::Status SetSettings(double main_s, double byo_s, int byo_stones);
  // `stones` = 0: `seconds` of main time left; otherwise `seconds` left for
  // `stones` moves in the current byo-yomi period.
  absl::Status SetTimeLeft(Colour colour, double seconds, int stones);
  // Every player's clock back to the settings (a new game).
  void Reset();
  // Subtracts `seconds` of thinking for one move of `colour`, moving into
  // byo-yomi and on to new periods as the time and stones run out.
  void Spend(Colour colour, double seconds);

  // In byo-yomi, the Clock's byo_s is the time left in the current period:
  // that, not the full period length, is what the next move may use.
  const search::Clock& clock(Colour colour) const {
    return clocks_[Index(colour)];
  }
  bool active() const { return StartClock().active(); }

 private:
  search::Clock StartClock() const;
  void SpendInByoYomi(search::Clock& clock, double seconds) const;

  double main_s_ = 0;
  double byo_s_ = 0;
  int byo_stones_ = 0;
  std::array<search::Clock, kMaxPlayers> clocks_{};
};

}  // namespace wallgo::protocol
