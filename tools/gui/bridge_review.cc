// The bridge's records and reviews: records files loaded for review, and a
// game's review by an engine (records::AnnotateGame) in a thread of its own.
#include <atomic>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/json_text.h"
#include "engine/notation.h"
#include "tools/client/engine_pool.h"
#include "tools/gui/bridge.h"
#include "tools/gui/message_fields.h"
#include "tools/gui/record_game.h"

namespace wallgo::gui {

using nlohmann::json;

absl::Status Bridge::LoadRecords(const json& message) {
  absl::StatusOr<std::string> text = StringField(message, "text");
  if (!text.ok()) return text.status();
  std::vector<records::GameRecord> records;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++line_number;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::StatusOr<records::GameRecord> record =
        records::RecordFromJson(std::string(line));
    if (!record.ok()) {
      return Bad(absl::StrCat("records line ", line_number, ": ",
                              record.status().message()));
    }
    absl::StatusOr<GuiGame> game = GameFromRecord(*record);
    if (!game.ok()) {
      return Bad(absl::StrCat("records line ", line_number, " (game ",
                              record->game, "): ", game.status().message()));
    }
    records.push_back(std::move(*record));
  }
  if (records.empty()) return Bad("no game records in the file");
  Replace(*GameFromRecord(records[0]),
          std::vector<Seat>(ParseRules(records[0].rules)->players));
  records_ = std::move(records);
  record_shown_ = 0;
  ReviewFromRecord(records_[0]);
  game_.Goto(0).IgnoreError();
  return absl::OkStatus();
}

absl::Status Bridge::ShowRecord(const json& message) {
  if (records_.empty())
    return absl::FailedPreconditionError("no records loaded");
  absl::StatusOr<int64_t> index =
      IntField(message, "index", 0, static_cast<int64_t>(records_.size()) - 1);
  if (!index.ok()) return index.status();
  GuiGame game = *GameFromRecord(records_[*index]);  // checked when loaded
  const int players = game.start().num_players();
  Replace(std::move(game), std::vector<Seat>(players));
  record_shown_ = static_cast<int>(*index);
  ReviewFromRecord(records_[*index]);
  game_.Goto(0).IgnoreError();
  return absl::OkStatus();
}

absl::Status Bridge::StartReview(const json& message) {
  absl::StatusOr<int> chosen = ChosenEngine(message);
  if (!chosen.ok()) return chosen.status();
  const int engine = *chosen;
  records::AnnotateOptions options;
  options.engine = specs_[engine];
  options.command_timeout_s = options_.timeouts.command_s;
  if (message.contains("visits")) {
    absl::StatusOr<int64_t> visits = IntField(message, "visits", 1, 10'000'000);
    if (!visits.ok()) return visits.status();
    options.visits = *visits;
  } else {
    options.movetime_s = 0.5;
    if (message.contains("movetime")) {
      absl::StatusOr<double> t = NumberField(message, "movetime", 0.01, 60);
      if (!t.ok()) return t.status();
      options.movetime_s = *t;
    }
  }
  if (game_.moves().empty()) {
    return absl::FailedPreconditionError("no moves to review");
  }
  records::GameRecord record = GameRecordLocked();
  ResetReview();
  review_.state = "running";
  review_.engine = specs_[engine].name;
  review_.total = static_cast<int>(game_.moves().size()) + 1;
  for (const PlayedMove& m : game_.moves()) {
    review_.moves.push_back(MoveName(m.move));
  }
  // Threads of earlier reviews that have ended are joined now.
  std::erase_if(review_threads_, [](ReviewThread& r) {
    if (!r.ended->load()) return false;
    r.thread.join();
    return true;
  });
  auto ended = std::make_shared<std::atomic<bool>>(false);
  std::thread thread([this, id = review_.id, record = std::move(record),
                      options, stop = review_.stop->get_token(), ended] {
    RunReview(id, record, options, stop);
    ended->store(true);
  });
  review_threads_.push_back({ended, std::move(thread)});
  return absl::OkStatus();
}

void Bridge::ResetReview() {
  review_.stop->request_stop();
  const uint64_t id = review_.id;
  review_ = Review{};
  review_.id = id + 1;  // the old thread sees it is not wanted
}

void Bridge::RunReview(uint64_t id, records::GameRecord record,
                       records::AnnotateOptions options, std::stop_token stop) {
  const std::vector<EngineSpec> engines = {options.engine};
  client::EnginePool pool(engines, log_.get(), stop);
  const auto progress = [&](int done, int total) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_ || id != review_.id) return false;
    review_.done = done;
    review_.total = total;
    publish_(common::JsonText(StateLocked()));
    return true;
  };
  absl::StatusOr<records::GameRecord> annotated =
      records::AnnotateGame(std::move(record), options, pool, progress);
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_ || id != review_.id) return;
  if (annotated.ok()) {
    review_.state = "done";
    review_.record = std::move(*annotated);
  } else {
    review_.state = "failed";
    review_.error = std::string(annotated.status().message());
  }
  publish_(common::JsonText(StateLocked()));
}

void Bridge::ReviewFromRecord(const records::GameRecord& record) {
  ResetReview();
  if (!record.annotation) return;
  review_.state = "done";
  review_.engine = record.annotation->engine;
  for (const PlayedMove& m : game_.moves()) {
    review_.moves.push_back(MoveName(m.move));
  }
  review_.record = record;
}

json Bridge::ReviewJson() const {
  json review = {{"state", review_.state}, {"engine", review_.engine},
                 {"error", review_.error}, {"done", review_.done},
                 {"total", review_.total}, {"moves", review_.moves}};
  json notes = json::array();
  json accuracy = json::object();
  if (review_.record) {
    const records::GameRecord& r = *review_.record;
    // The record's moves are the last of the game's (after an opening).
    const size_t offset = review_.moves.size() - r.moves.size();
    for (size_t i = 0; i < offset; ++i) notes.push_back(nullptr);
    for (const records::MoveRecord& m : r.moves) {
      if (!m.note) {
        notes.push_back(nullptr);
        continue;
      }
      notes.push_back({{"judgement", m.note->judgement},
                       {"best", m.note->best},
                       {"loss", m.note->loss},
                       {"before", m.note->before},
                       {"after", m.note->after}});
    }
    if (r.annotation) {
      for (const auto& [colour, value] : r.annotation->accuracy) {
        accuracy[colour] = value;
      }
      review["turningPoint"] = r.annotation->turning_point == 0
                                   ? json()
                                   : json(r.annotation->turning_point + offset);
    }
  }
  review["notes"] = notes;
  review["accuracy"] = accuracy;
  return review;
}

}  // namespace wallgo::gui
