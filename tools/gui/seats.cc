#include "tools/gui/seats.h"

#include "absl/strings/str_cat.h"
#include "tools/gui/message_fields.h"

namespace wallgo::gui {

using nlohmann::json;

absl::StatusOr<int> EngineIndex(const json& name,
                                const std::vector<EngineSpec>& engines) {
  if (!name.is_string()) return Bad("an engine is named by a string");
  for (size_t i = 0; i < engines.size(); ++i) {
    if (engines[i].name == name.get<std::string>()) return static_cast<int>(i);
  }
  return Bad(absl::StrCat("no engine named '",
                          name.get<std::string>().substr(0, 40),
                          "' (the engines are those on the command line)"));
}

absl::StatusOr<std::vector<Seat>> ParseSeats(
    const json& seats, int players, const std::vector<EngineSpec>& engines) {
  if (!seats.is_array() || static_cast<int>(seats.size()) != players) {
    return Bad(absl::StrCat("'seats' must list ", players, " seats"));
  }
  std::vector<Seat> out;
  for (const json& entry : seats) {
    if (!entry.is_object()) return Bad("a seat must be an object");
    absl::StatusOr<std::string> kind = StringField(entry, "kind");
    if (!kind.ok()) return kind.status();
    Seat seat;
    if (*kind == "engine") {
      auto name = entry.find("engine");
      absl::StatusOr<int> index =
          EngineIndex(name == entry.end() ? json() : *name, engines);
      if (!index.ok()) return index.status();
      seat.engine = *index;
      if (entry.contains("level")) {
        absl::StatusOr<int64_t> level = IntField(entry, "level", 1, 10);
        if (!level.ok()) return level.status();
        seat.settings.level = static_cast<int>(*level);
      }
      if (entry.contains("movetime")) {
        absl::StatusOr<double> t = NumberField(entry, "movetime", 0, 3600);
        if (!t.ok()) return t.status();
        seat.settings.movetime = *t;
      }
      if (entry.contains("visits")) {
        absl::StatusOr<int64_t> v = IntField(entry, "visits", 0, 1'000'000'000);
        if (!v.ok()) return v.status();
        seat.settings.visits = *v;
      }
    } else if (*kind != "human") {
      return Bad("a seat's kind is 'human' or 'engine'");
    }
    // Time for people and engines alike: a clock and a turn limit.
    if (entry.contains("clock")) {
      absl::StatusOr<double> t = NumberField(entry, "clock", 1, 86400);
      if (!t.ok()) return t.status();
      seat.settings.clock = *t;
    }
    if (entry.contains("increment")) {
      absl::StatusOr<double> t = NumberField(entry, "increment", 0, 3600);
      if (!t.ok()) return t.status();
      seat.settings.increment = *t;
    }
    if (entry.contains("turn")) {
      absl::StatusOr<double> t = NumberField(entry, "turn", 1, 86400);
      if (!t.ok()) return t.status();
      seat.turn = *t;
    }
    if (entry.contains("timeout")) {
      absl::StatusOr<std::string> rule = StringField(entry, "timeout");
      if (!rule.ok()) return rule.status();
      if (*rule != "random" && *rule != "forfeit") {
        return Bad("a seat's 'timeout' is 'random' or 'forfeit'");
      }
      seat.timeout =
          *rule == "forfeit" ? TimeoutRule::kForfeit : TimeoutRule::kRandom;
    }
    out.push_back(seat);
  }
  return out;
}

json SettingsJson(const SeatSettings& s) {
  json out = json::object();
  if (s.level > 0) out["level"] = s.level;
  if (s.movetime >= 0) out["movetime"] = s.movetime;
  if (s.visits >= 0) out["visits"] = s.visits;
  if (s.clock > 0) {
    out["clock"] = s.clock;
    out["increment"] = s.increment;
  }
  return out;
}

}  // namespace wallgo::gui
