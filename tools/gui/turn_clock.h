// The game's time: when the turn to play began, each seat's clock left at
// the ply shown, the deadline of a late seat and the turn the timeout rule
// plays for it (docs/rules.md, "Resignation and timing"). It owns only the
// turn's start and the random source of random turns; the game and the
// seats are its owner's, passed in. Not thread-safe: its owner's lock
// guards it (tools/gui/bridge.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "nlohmann/json.hpp"
#include "tools/gui/gui_game.h"
#include "tools/gui/seats.h"

namespace wallgo::gui {

// Seconds left on `colour`'s clock at the ply shown: its main time plus an
// increment per move, less the time its moves took (a random turn played
// for it after its clock ran out starts it again at the increment).
double ClockLeft(const GuiGame& game, const SeatSettings& settings,
                 Colour colour);

// Whether the clocks can run: the game's last position is shown and live.
bool Live(const GuiGame& game);

class TurnClock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Now = std::function<TimePoint()>;
  // `now` is the time (tests pass their own); `seed` picks random turns.
  explicit TurnClock(Now now = std::chrono::steady_clock::now,
                     uint64_t seed = std::random_device{}());

  // Untimed until the next change: a new game, new seats.
  void Stop();
  // Times the turn at the end of `game` as begun `elapsed` seconds ago
  // (the static site restores a turn that ran when the page reloaded).
  void Resume(const GuiGame& game, double elapsed);
  // After every change: a new turn at the end of the game starts now.
  void Changed(const GuiGame& game);

  // Whether the turn to play is timed and runs.
  bool Running(const GuiGame& game) const;
  double TurnElapsed() const;  // seconds since the turn to play began
  // A person's move at the end of a live game took the turn's time (ms);
  // -1 elsewhere.
  int64_t MoveMs(const GuiGame& game) const;
  // When the side to move runs out of time (turn or clock), if it can.
  std::optional<TimePoint> Deadline(const GuiGame& game,
                                    const std::vector<Seat>& seats) const;
  // The turn the timeout rule plays for the side to move, late: its
  // resignation (forfeit) or a random legal move.
  PlayedMove TimeoutMove(const GuiGame& game, const Seat& seat);
  // The seat's time as the state shows it: clockLeft and turnLeft as the
  // message leaves (the page counts down from there) and whether it runs.
  nlohmann::json SeatTimes(const GuiGame& game, const Seat& seat,
                           Colour colour) const;

 private:
  Now now_;
  // The turn at the end of the game began at `turn_started_`, after
  // `turn_moves_` moves (-1: not timed).
  TimePoint turn_started_;
  int turn_moves_ = -1;
  std::mt19937_64 random_;
};

}  // namespace wallgo::gui
