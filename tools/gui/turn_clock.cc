#include "tools/gui/turn_clock.h"

#include <algorithm>
#include <utility>

#include "engine/movegen.h"

namespace wallgo::gui {

double ClockLeft(const GuiGame& game, const SeatSettings& settings,
                 Colour colour) {
  double left = settings.clock;
  for (int i = 0; i < game.cursor(); ++i) {
    const PlayedMove& m = game.moves()[i];
    if (m.colour != colour) continue;
    left += settings.increment - std::max<int64_t>(m.ms, 0) / 1000.0;
    if (m.random) left = std::max(left, settings.increment);
  }
  return left;
}

bool Live(const GuiGame& game) {
  return game.at_end() && !game.shown().is_over();
}

TurnClock::TurnClock(Now now, uint64_t seed)
    : now_(std::move(now)), random_(seed) {}

void TurnClock::Stop() { turn_moves_ = -1; }

void TurnClock::Resume(const GuiGame& game, double elapsed) {
  turn_moves_ = -1;
  if (elapsed <= 0 || !game.at_end()) return;
  turn_moves_ = static_cast<int>(game.moves().size());
  turn_started_ =
      now_() - std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(elapsed));
}

void TurnClock::Changed(const GuiGame& game) {
  const int moves = static_cast<int>(game.moves().size());
  if (moves != turn_moves_ && game.at_end()) {
    turn_moves_ = moves;
    turn_started_ = now_();
  }
}

bool TurnClock::Running(const GuiGame& game) const {
  return Live(game) && turn_moves_ >= 0;
}

double TurnClock::TurnElapsed() const {
  return std::chrono::duration<double>(now_() - turn_started_).count();
}

int64_t TurnClock::MoveMs(const GuiGame& game) const {
  return Running(game) ? static_cast<int64_t>(TurnElapsed() * 1000) : -1;
}

std::optional<TurnClock::TimePoint> TurnClock::Deadline(
    const GuiGame& game, const std::vector<Seat>& seats) const {
  if (!Running(game)) return std::nullopt;
  const Colour mover = game.shown().position().to_move();
  const Seat& seat = seats[Index(mover)];
  std::optional<double> limit;
  if (seat.turn > 0) limit = seat.turn;
  if (seat.settings.clock > 0) {
    const double left = std::max(ClockLeft(game, seat.settings, mover), 0.0);
    limit = limit ? std::min(*limit, left) : left;
  }
  if (!limit) return std::nullopt;
  return turn_started_ +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(*limit));
}

PlayedMove TurnClock::TimeoutMove(const GuiGame& game, const Seat& seat) {
  PlayedMove played;
  played.ms = static_cast<int64_t>(TurnElapsed() * 1000);
  if (seat.timeout == TimeoutRule::kForfeit) {
    played.move = Move::Resign();
    played.timeout = true;
    return played;
  }
  MoveList moves;
  GenerateMoves(game.shown().position(), moves);
  played.move = moves[std::uniform_int_distribution<size_t>(
      0, moves.size() - 1)(random_)];
  played.random = true;
  return played;
}

nlohmann::json TurnClock::SeatTimes(const GuiGame& game, const Seat& seat,
                                    Colour colour) const {
  const bool moving =
      Running(game) && colour == game.shown().position().to_move();
  const double elapsed = moving ? TurnElapsed() : 0;
  nlohmann::json times = nlohmann::json::object();
  if (seat.settings.clock > 0) {
    times["clockLeft"] = ClockLeft(game, seat.settings, colour) - elapsed;
  }
  if (seat.turn > 0) {
    times["turn"] = seat.turn;
    times["timeout"] =
        seat.timeout == TimeoutRule::kForfeit ? "forfeit" : "random";
    times["turnLeft"] = seat.turn - elapsed;
  }
  times["running"] = moving;
  return times;
}

}  // namespace wallgo::gui
