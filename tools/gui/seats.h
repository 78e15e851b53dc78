// Who sits at each colour: a person or an engine with its settings, and the
// time for both (a clock, a turn limit and what a timeout costs), as a
// page's "new" and "seats" messages give them and as the state shows them.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "tools/client/engine_spec.h"
#include "tools/gui/engine_worker.h"

namespace wallgo::gui {

using client::EngineSpec;

// What the server does for a seat whose time runs out (docs/rules.md,
// "Resignation and timing").
enum class TimeoutRule { kRandom, kForfeit };

struct Seat {
  int engine = -1;  // index into the engines, -1 for a person
  // The engine's settings; the clock (main time + increment) for everyone.
  SeatSettings settings;
  double turn = 0;  // seconds per turn, 0 = no limit
  TimeoutRule timeout = TimeoutRule::kRandom;
};

// The index of the engine named `name` (a JSON string) among `engines`.
absl::StatusOr<int> EngineIndex(const nlohmann::json& name,
                                const std::vector<EngineSpec>& engines);

// A message's "seats": an array of `players` seats, each checked whole.
absl::StatusOr<std::vector<Seat>> ParseSeats(
    const nlohmann::json& seats, int players,
    const std::vector<EngineSpec>& engines);

// An engine seat's settings as the page shows them (only those set).
nlohmann::json SettingsJson(const SeatSettings& settings);

}  // namespace wallgo::gui
