#include "tools/gui/seating.h"

#include "engine/notation.h"

namespace wallgo::gui {

using nlohmann::json;

Seating::Seating(std::vector<Seat> seats, std::vector<std::string> tokens)
    : tokens_(std::move(tokens)), seats_(std::move(seats)) {}

bool Seating::EngineToMove(const GuiGame& game) const {
  return of(game.shown().position().to_move()).engine >= 0;
}

bool Seating::AnyPerson() const {
  for (const Seat& s : seats_) {
    if (s.engine < 0) return true;
  }
  return false;
}

json Seating::SummaryJson(size_t index,
                          const std::vector<EngineSpec>& engines) const {
  const Seat& s = seats_[index];
  json seat = {{"colour", ColourName(ColourAt(static_cast<int>(index)))},
               {"kind", s.engine >= 0 ? "engine" : "human"}};
  if (s.engine >= 0) {
    seat["engine"] = engines[s.engine].name;
    seat.update(SettingsJson(s.settings));
  }
  return seat;
}

json Seating::StateJson(size_t index,
                        const std::vector<EngineSpec>& engines) const {
  json seat = SummaryJson(index, engines);
  const Seat& s = seats_[index];
  if (s.engine < 0 && s.settings.clock > 0) {
    seat["clock"] = s.settings.clock;
    seat["increment"] = s.settings.increment;
  }
  return seat;
}

}  // namespace wallgo::gui
