// The bridge's clocks: each seat's time left, the turn's deadline, and the
// timer thread that plays the timeout rule for a late seat and takes a
// hint from the analysis once it has searched a second.
#include <algorithm>
#include <random>

#include "absl/strings/str_cat.h"
#include "common/json_text.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "tools/gui/bridge.h"

namespace wallgo::gui {

double Bridge::ClockLeft(Colour colour) const {
  const SeatSettings& s = seats_[Index(colour)].settings;
  double left = s.clock;
  for (int i = 0; i < game_.cursor(); ++i) {
    const PlayedMove& m = game_.moves()[i];
    if (m.colour != colour) continue;
    left += s.increment - std::max<int64_t>(m.ms, 0) / 1000.0;
    if (m.random) left = std::max(left, s.increment);
  }
  return left;
}

bool Bridge::Live() const { return game_.at_end() && !game_.shown().is_over(); }

double Bridge::TurnElapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       turn_started_)
      .count();
}

std::optional<std::chrono::steady_clock::time_point> Bridge::Deadline() const {
  if (!Live() || turn_moves_ < 0) return std::nullopt;
  const Colour mover = game_.shown().position().to_move();
  const Seat& seat = seats_[Index(mover)];
  std::optional<double> limit;
  if (seat.turn > 0) limit = seat.turn;
  if (seat.settings.clock > 0) {
    const double left = std::max(ClockLeft(mover), 0.0);
    limit = limit ? std::min(*limit, left) : left;
  }
  if (!limit) return std::nullopt;
  return turn_started_ +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(*limit));
}

void Bridge::RunTimer() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!closing_) {
    const auto now = std::chrono::steady_clock::now();
    std::optional<std::chrono::steady_clock::time_point> wake = Deadline();
    if (wake && now >= *wake) {
      PlayTimeout();
      continue;
    }
    // A hint is the best move of the analysis a second after it was asked
    // (an engine that stops searching sooner reports nothing more).
    if (hint_.pending) {
      const auto due = hint_.asked + std::chrono::seconds(1);
      if (now >= due && !candidates_.empty()) {
        TakeHint();
        continue;
      }
      if (now < due && (!wake || due < *wake)) wake = due;
    }
    if (wake) {
      timer_wake_.wait_until(lock, *wake);
    } else {
      timer_wake_.wait(lock);
    }
  }
}

void Bridge::TakeHint() {
  hint_.pending = false;
  hint_.move = candidates_.front().move;
  Schedule();  // its analysis stops, unless analysis is on
  publish_(common::JsonText(StateLocked()));
}

void Bridge::PlayTimeout() {
  const Colour late = game_.shown().position().to_move();
  const Seat& seat = seats_[Index(late)];
  PlayedMove played;
  played.ms = static_cast<int64_t>(TurnElapsed() * 1000);
  if (seat.timeout == TimeoutRule::kForfeit) {
    played.move = Move::Resign();
    played.timeout = true;
  } else {
    MoveList moves;
    GenerateMoves(game_.shown().position(), moves);
    played.move = moves[std::uniform_int_distribution<size_t>(
        0, moves.size() - 1)(random_)];
    played.random = true;
  }
  const int ply = game_.cursor();
  if (game_.Play(played).ok()) {
    graph_.erase(graph_.upper_bound(ply), graph_.end());
  }
  event_ = absl::StrCat(
      ColourName(late), " ran out of time: ",
      played.timeout ? "the game is lost" : "a random turn was played");
  Changed();
}

}  // namespace wallgo::gui
