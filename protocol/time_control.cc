#include "protocol/time_control.h"

#include <algorithm>

namespace wallgo::protocol {
namespace {

// What a flagged clock keeps: a clock at exactly zero would read as "no
// clock" (search::Clock::active), so an exhausted one keeps a sliver and the
// searcher answers at once.
constexpr double kFlaggedSeconds = 0.01;

}  // namespace

absl::Status TimeControl::SetSettings(double main_s, double byo_s,
                                      int byo_stones) {
  if (main_s < 0 || byo_s < 0 || byo_stones < 0) {
    return absl::InvalidArgumentError("times and stones must not be negative");
  }
  main_s_ = main_s;
  byo_s_ = byo_s;
  byo_stones_ = byo_stones;
  Reset();
  return absl::OkStatus();
}

search::Clock TimeControl::StartClock() const {
  const bool no_limits = byo_s_ > 0 && byo_stones_ == 0;
  if (no_limits) return {};
  search::Clock clock;
  clock.main_s = main_s_;
  clock.byo_s = byo_s_;
  clock.byo_stones = byo_stones_;
  clock.byo_stones_left = byo_stones_;
  clock.in_byo = main_s_ == 0 && byo_s_ > 0;
  return clock;
}

void TimeControl::Reset() { clocks_.fill(StartClock()); }

absl::Status TimeControl::SetTimeLeft(Colour colour, double seconds,
                                      int stones) {
  if (seconds < 0 || stones < 0) {
    return absl::InvalidArgumentError("time and stones must not be negative");
  }
  const bool unlimited = byo_s_ > 0 && byo_stones_ == 0;
  if (unlimited) return absl::OkStatus();  // the settings said no limits
  search::Clock& clock = clocks_[Index(colour)];
  clock.byo_stones = byo_stones_;
  if (stones == 0) {
    clock.main_s = std::max(seconds, kFlaggedSeconds);
    clock.in_byo = false;
    clock.byo_s = byo_s_;
    clock.byo_stones_left = byo_stones_;
  } else {
    clock.main_s = 0;
    clock.in_byo = true;
    clock.byo_s = std::max(seconds, kFlaggedSeconds);
    clock.byo_stones_left = stones;
  }
  return absl::OkStatus();
}

void TimeControl::Spend(Colour colour, double seconds) {
  search::Clock& clock = clocks_[Index(colour)];
  if (!clock.active()) return;
  if (!clock.in_byo) {
    clock.main_s -= seconds;
    if (clock.main_s > 0) return;
    const double overdraft = -clock.main_s;
    if (byo_s_ <= 0 || byo_stones_ <= 0) {
      clock.main_s = kFlaggedSeconds;  // absolute time, spent
      return;
    }
    clock.main_s = 0;
    clock.in_byo = true;
    clock.byo_s = byo_s_;
    clock.byo_stones_left = byo_stones_;
    SpendInByoYomi(clock, overdraft);
    return;
  }
  SpendInByoYomi(clock, seconds);
}

void TimeControl::SpendInByoYomi(search::Clock& clock, double seconds) const {
  clock.byo_s = std::max(clock.byo_s - seconds, kFlaggedSeconds);
  if (--clock.byo_stones_left > 0) return;
  clock.byo_s = byo_s_ > 0 ? byo_s_ : kFlaggedSeconds;  // a new period
  clock.byo_stones_left = std::max(byo_stones_, 1);
}

}  // namespace wallgo::protocol
