// The bridge's timer thread: it plays the timeout rule for a late seat
// (TurnClock) and takes a hint from the analysis once it has searched a
// second (AnalysisState).
#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "tools/gui/bridge.h"

namespace wallgo::gui {

void Bridge::RunTimer() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!closing_) {
    const auto now = std::chrono::steady_clock::now();
    std::optional<TurnClock::TimePoint> wake =
        clock_.Deadline(game_, seating_.seats());
    if (wake && now >= *wake) {
      PlayTimeout();
      continue;
    }
    // A hint is the best move of the analysis a second after it was asked
    // (an engine that stops searching sooner reports nothing more).
    if (const std::optional<TurnClock::TimePoint> due = analysis_.HintDue()) {
      if (now >= *due && !analysis_.candidates().empty()) {
        TakeHint();
        continue;
      }
      if (now < *due && (!wake || *due < *wake)) wake = due;
    }
    if (wake) {
      timer_wake_.wait_until(lock, *wake);
    } else {
      timer_wake_.wait(lock);
    }
  }
}

void Bridge::TakeHint() {
  analysis_.TakeHint();
  Schedule();  // its analysis stops, unless analysis is on
  PublishState();
}

void Bridge::PlayTimeout() {
  const Colour late = game_.shown().position().to_move();
  const PlayedMove played = clock_.TimeoutMove(game_, seating_.of(late));
  const int ply = game_.cursor();
  if (game_.Play(played).ok()) analysis_.ForgetAfter(ply);
  events_.Say(absl::StrCat(
      ColourName(late), " ran out of time: ",
      played.timeout ? "the game is lost" : "a random turn was played"));
  Changed();
}

}  // namespace wallgo::gui
