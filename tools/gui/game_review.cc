#include "tools/gui/game_review.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tools/client/engine_pool.h"
#include "tools/gui/message_fields.h"
#include "tools/gui/record_game.h"

namespace wallgo::gui {

using nlohmann::json;

absl::StatusOr<std::vector<records::GameRecord>> ParseRecordsText(
    const std::string& text) {
  std::vector<records::GameRecord> records;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
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
  return records;
}

GameReview::GameReview(std::mutex& mutex, client::EngineLog* log,
                       std::function<void()> changed)
    : mutex_(mutex), log_(log), changed_(std::move(changed)) {}

GameReview::~GameReview() { Close(); }

void GameReview::Start(records::GameRecord record,
                       std::vector<std::string> moves,
                       const records::AnnotateOptions& options) {
  Reset();
  review_.state = "running";
  review_.engine = options.engine.name;
  review_.total = static_cast<int>(moves.size()) + 1;
  review_.moves = std::move(moves);
  // Threads of earlier reviews that have ended are joined now.
  std::erase_if(threads_, [](Thread& t) {
    if (!t.ended->load()) return false;
    t.thread.join();
    return true;
  });
  auto ended = std::make_shared<std::atomic<bool>>(false);
  std::thread thread([this, id = review_.id, record = std::move(record),
                      options, stop = review_.stop->get_token(), ended] {
    Run(id, record, options, stop);
    ended->store(true);
  });
  threads_.push_back({ended, std::move(thread)});
}

void GameReview::Reset() {
  review_.stop->request_stop();
  const uint64_t id = review_.id;
  review_ = State{};
  review_.id = id + 1;  // the old thread sees it is not wanted
}

void GameReview::FromRecord(const records::GameRecord& record,
                            std::vector<std::string> moves) {
  Reset();
  if (!record.annotation) return;
  review_.state = "done";
  review_.engine = record.annotation->engine;
  review_.moves = std::move(moves);
  review_.record = record;
}

void GameReview::Close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    review_.stop->request_stop();
  }
  for (Thread& t : threads_) {
    if (t.thread.joinable()) t.thread.join();
  }
  threads_.clear();
}

void GameReview::Run(uint64_t id, records::GameRecord record,
                     records::AnnotateOptions options, std::stop_token stop) {
  const std::vector<EngineSpec> engines = {options.engine};
  client::EnginePool pool(engines, log_, stop);
  const auto progress = [&](int done, int total) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ || id != review_.id) return false;
    review_.done = done;
    review_.total = total;
    changed_();
    return true;
  };
  absl::StatusOr<records::GameRecord> annotated =
      records::AnnotateGame(std::move(record), options, pool, progress);
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_ || id != review_.id) return;
  if (annotated.ok()) {
    review_.state = "done";
    review_.record = std::move(*annotated);
  } else {
    review_.state = "failed";
    review_.error = std::string(annotated.status().message());
  }
  changed_();
}

json GameReview::Json() const {
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
