#include "tools/records/records.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/json_integer.h"
#include "common/json_text.h"
#include "nlohmann/json.hpp"

namespace wallgo::records {
namespace {

using Json = nlohmann::ordered_json;

// A field that is not what a record holds there. nlohmann's get<int>() of
// a number with a fraction or out of range converts it with static_cast,
// undefined behaviour for 3e23 (the records fuzz target found it).
struct BadField : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `value` as an Int: a JSON integer in min..Int's largest, else BadField.
template <typename Int>
Int IntegerOf(const Json& value, const std::string& what,
              Int min = std::numeric_limits<Int>::min()) {
  constexpr Int kMax = std::numeric_limits<Int>::max();
  if (!common::IsIntegerIn(value, min, kMax)) {
    throw BadField(absl::StrCat("'", what, "' must be an integer in ", min,
                                "..", kMax, ", not ", common::JsonText(value)));
  }
  return static_cast<Int>(value.get<int64_t>());
}

template <typename Value>
Json PairsToObject(const std::vector<std::pair<std::string, Value>>& pairs) {
  Json object = Json::object();
  for (const auto& [key, value] : pairs) object[key] = value;
  return object;
}

template <typename Value>
std::vector<std::pair<std::string, Value>> ObjectToPairs(const Json& object) {
  std::vector<std::pair<std::string, Value>> pairs;
  for (const auto& [key, value] : object.items()) {
    if constexpr (std::is_integral_v<Value>) {
      pairs.emplace_back(key, IntegerOf<Value>(value, key));
    } else {
      pairs.emplace_back(key, value.template get<Value>());
    }
  }
  return pairs;
}

Json NoteToJson(const MoveNote& n) {
  Json j = {{"before", n.before},
            {"after", n.after},
            {"best", n.best},
            {"loss", n.loss}};
  if (!n.judgement.empty()) j["judgement"] = n.judgement;
  return j;
}

MoveNote NoteFromJson(const Json& j) {
  MoveNote n;
  n.before = j.at("before").get<double>();
  n.after = j.at("after").get<double>();
  n.best = j.at("best").get<std::string>();
  n.loss = j.at("loss").get<double>();
  n.judgement = j.value("judgement", "");
  return n;
}

Json GameNoteToJson(const GameNote& n) {
  Json j = {{"engine", n.engine},
            {"budget", n.budget},
            {"accuracy", PairsToObject(n.accuracy)}};
  if (n.turning_point > 0) j["turningPoint"] = n.turning_point;
  return j;
}

GameNote GameNoteFromJson(const Json& j) {
  GameNote n;
  n.engine = j.at("engine").get<std::string>();
  n.budget = j.at("budget").get<std::string>();
  n.accuracy = ObjectToPairs<double>(j.at("accuracy"));
  n.turning_point = j.contains("turningPoint")
                        ? IntegerOf<int>(j["turningPoint"], "turningPoint")
                        : 0;
  return n;
}

Json MovesToJson(const std::vector<MoveRecord>& moves) {
  Json list = Json::array();
  for (const MoveRecord& m : moves) {
    Json entry = {{"colour", m.colour}, {"move", m.move}, {"ms", m.ms}};
    if (m.random) entry["random"] = true;
    if (m.note) entry["analysis"] = NoteToJson(*m.note);
    list.push_back(std::move(entry));
  }
  return list;
}

std::vector<MoveRecord> MovesFromJson(const Json& list) {
  std::vector<MoveRecord> moves;
  for (const Json& entry : list) {
    MoveRecord m;
    m.colour = entry.at("colour").get<std::string>();
    m.move = entry.at("move").get<std::string>();
    m.ms = IntegerOf<int64_t>(entry.at("ms"), "ms");
    m.random = entry.value("random", false);
    if (entry.contains("analysis")) m.note = NoteFromJson(entry["analysis"]);
    moves.push_back(std::move(m));
  }
  return moves;
}

}  // namespace

std::string GameRecord::EngineAt(const std::string& colour) const {
  for (const auto& [c, engine] : seats) {
    if (c == colour) return engine;
  }
  return "";
}

std::string RecordToJson(const GameRecord& r) {
  Json j;
  j["game"] = r.game;
  j["set"] = r.set;
  j["seats"] = PairsToObject(r.seats);
  j["rules"] = r.rules;
  j["opening"] = r.opening;
  j["moves"] = MovesToJson(r.moves);
  j["scores"] = PairsToObject(r.scores);
  j["winner"] = r.winner;
  j["winners"] = r.winners;
  j["reason"] = r.reason;
  if (!r.loser.empty()) j["loser"] = r.loser;
  if (!r.detail.empty()) j["detail"] = r.detail;
  j["final"] = r.final_position;
  if (r.annotation) j["annotation"] = GameNoteToJson(*r.annotation);
  // Engines' words reach records (a garbled move in `detail`): bytes that
  // are not UTF-8 become U+FFFD (common::JsonText) rather than an exception
  // that would end the match and lose its results.
  return common::JsonText(j);
}

absl::StatusOr<GameRecord> RecordFromJson(const std::string& line) {
  try {
    const Json j = Json::parse(line);
    GameRecord r;
    // Games number from 1 and sets from 0: merging renumbered shifts a
    // file's games past the last one's, which a game 0 would collide with.
    r.game = IntegerOf<int>(j.at("game"), "game", 1);
    r.set = j.contains("set") ? IntegerOf<int>(j["set"], "set", 0) : 0;
    r.seats = ObjectToPairs<std::string>(j.at("seats"));
    r.rules = j.at("rules").get<std::string>();
    r.opening = j.value("opening", "");
    r.moves = MovesFromJson(j.at("moves"));
    r.scores = ObjectToPairs<int>(j.at("scores"));
    r.winner = j.at("winner").get<std::string>();
    r.winners = j.value("winners", std::vector<std::string>{});
    r.reason = j.at("reason").get<std::string>();
    r.loser = j.value("loser", "");
    r.detail = j.value("detail", "");
    r.final_position = j.at("final").get<std::string>();
    if (j.contains("annotation")) {
      r.annotation = GameNoteFromJson(j["annotation"]);
    }
    return r;
  } catch (const Json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad game record: ", e.what()));
  } catch (const BadField& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad game record: ", e.what()));
  }
}

absl::StatusOr<std::vector<GameRecord>> ReadRecords(const std::string& path,
                                                    bool* truncated_tail) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::vector<GameRecord> records;
  std::string line;
  if (truncated_tail != nullptr) *truncated_tail = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    absl::StatusOr<GameRecord> record = RecordFromJson(line);
    if (record.ok()) {
      records.push_back(*std::move(record));
      continue;
    }
    // Only the last line may be cut short, and only without its newline.
    if (in.eof()) {
      if (truncated_tail != nullptr) *truncated_tail = true;
      break;
    }
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", number, ": ", record.status().message()));
  }
  return records;
}

absl::StatusOr<std::vector<GameRecord>> MergeRecords(
    const std::vector<std::string>& paths, bool renumber) {
  std::map<int, GameRecord> by_game;
  int game_offset = 0, set_offset = 0;
  for (const std::string& path : paths) {
    absl::StatusOr<std::vector<GameRecord>> records = ReadRecords(path);
    if (!records.ok()) return records.status();
    if (renumber) {
      int last_game = 0, last_set = -1;
      for (GameRecord& r : *records) {
        last_game = std::max(last_game, r.game);
        last_set = std::max(last_set, r.set);
        r.game += game_offset;
        r.set += set_offset;
      }
      game_offset += last_game;
      set_offset += last_set + 1;
    }
    for (GameRecord& r : *records) {
      const auto [it, inserted] = by_game.emplace(r.game, r);
      if (!inserted && RecordToJson(it->second) != RecordToJson(r)) {
        return absl::InvalidArgumentError(
            absl::StrCat("game ", r.game,
                         " appears twice with different results (", path, ")"));
      }
    }
  }
  std::vector<GameRecord> merged;
  for (auto& [game, record] : by_game) merged.push_back(std::move(record));
  return merged;
}

absl::StatusOr<std::unique_ptr<RecordWriter>> RecordWriter::Open(
    const std::string& path, bool resume) {
  absl::StatusOr<std::unique_ptr<batch::LineFile>> file =
      batch::LineFile::Open(path, resume, "records file");
  if (!file.ok()) return file.status();
  return std::unique_ptr<RecordWriter>(new RecordWriter(*std::move(file)));
}

absl::Status RecordWriter::Append(const GameRecord& record) {
  return file_->Append(RecordToJson(record));
}

}  // namespace wallgo::records
