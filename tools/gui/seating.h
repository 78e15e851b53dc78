// Who sits at each colour of a game and who may act on it: the seats (a
// person or an engine with its settings and time, seats.h) and the seats'
// join tokens (access.h). The tokens never change, so reading them needs no
// lock; the seats are guarded by the owner's lock (tools/gui/bridge.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "tools/gui/access.h"
#include "tools/gui/gui_game.h"
#include "tools/gui/seats.h"

namespace wallgo::gui {

class Seating {
 public:
  // `seats`, with fresh join tokens unless `tokens` are given.
  explicit Seating(std::vector<Seat> seats,
                   std::vector<std::string> tokens = NewSeatTokens());

  // Every seat's join token, by colour index (kMaxPlayers of them).
  const std::vector<std::string>& tokens() const { return tokens_; }
  // The colour index whose join token is `token`, or Access::kWatch.
  int SeatOfToken(const std::string& token) const {
    return gui::SeatOfToken(tokens_, token);
  }
  // Whether `access` may send a message of `type` while `game` is shown.
  static absl::Status Check(const std::string& type, Access access,
                            const GuiGame& game) {
    return CheckAccess(type, access, game);
  }

  const std::vector<Seat>& seats() const { return seats_; }
  const Seat& of(Colour colour) const { return seats_[Index(colour)]; }
  void Set(std::vector<Seat> seats) { seats_ = std::move(seats); }
  // Whether an engine plays the side to move at the ply shown.
  bool EngineToMove(const GuiGame& game) const;
  // Whether a person plays any colour.
  bool AnyPerson() const;
  // Seat `index` as the games list shows it: colour, kind, the engine and
  // its settings.
  nlohmann::json SummaryJson(size_t index,
                             const std::vector<EngineSpec>& engines) const;
  // Seat `index` as the state shows it: the summary, and a person's clock.
  nlohmann::json StateJson(size_t index,
                           const std::vector<EngineSpec>& engines) const;

 private:
  const std::vector<std::string> tokens_;  // unguessable, per colour
  std::vector<Seat> seats_;
};

}  // namespace wallgo::gui
