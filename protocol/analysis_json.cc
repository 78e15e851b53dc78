#include "protocol/analysis_json.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/json_integer.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "nlohmann/json.hpp"
#include "protocol/solve_text.h"

namespace wallgo::protocol {
namespace {

using Json = nlohmann::ordered_json;

constexpr int64_t kMaxVisits = 1'000'000'000;
constexpr double kMaxTimeS = 1'000'000;
constexpr int64_t kMaxPriority = 1'000'000'000;
constexpr size_t kMaxShown = 40;  // characters of user text in a message

// The fields a query may have; anything else gets a warning.
const std::set<std::string, std::less<>>& QueryFields() {
  static const std::set<std::string, std::less<>> fields = {"id",
                                                            "rules",
                                                            "position",
                                                            "moves",
                                                            "analyzeTurns",
                                                            "maxVisits",
                                                            "maxTime",
                                                            "solve",
                                                            "includeOwnership",
                                                            "includePolicy",
                                                            "overrideOptions",
                                                            "priority"};
  return fields;
}

std::string Shown(absl::string_view text) {
  if (text.size() <= kMaxShown) return std::string(text);
  return absl::StrCat(text.substr(0, kMaxShown), "...");
}

// A bad field, thrown inside the parser and turned into a QueryError.
struct FieldError {
  std::string message;
  std::string field;
};

[[noreturn]] void Fail(std::string message, std::string field) {
  throw FieldError{std::move(message), std::move(field)};
}

// Typed reads of the query object's optional fields.
class Fields {
 public:
  explicit Fields(const Json& object) : object_(object) {}

  const Json* Find(absl::string_view name) const {
    const auto it = object_.find(name);
    return it == object_.end() ? nullptr : &*it;
  }

  std::optional<std::string> String(absl::string_view name) const {
    const Json* v = Find(name);
    if (v == nullptr) return std::nullopt;
    if (!v->is_string())
      Fail(absl::StrCat(name, " must be a string"), std::string(name));
    return v->get<std::string>();
  }

  std::optional<bool> Bool(absl::string_view name) const {
    const Json* v = Find(name);
    if (v == nullptr) return std::nullopt;
    if (!v->is_boolean())
      Fail(absl::StrCat(name, " must be true or false"), std::string(name));
    return v->get<bool>();
  }

  std::optional<int64_t> Int(absl::string_view name, int64_t min,
                             int64_t max) const {
    const Json* v = Find(name);
    if (v == nullptr) return std::nullopt;
    return IntValue(*v, min, max, std::string(name));
  }

  std::optional<double> Number(absl::string_view name, double min,
                               double max) const {
    const Json* v = Find(name);
    if (v == nullptr) return std::nullopt;
    if (!v->is_number() ||
        !(v->get<double>() > min && v->get<double>() <= max)) {
      Fail(absl::StrCat(name, " must be a number of seconds above ", min,
                        " and at most ", max),
           std::string(name));
    }
    return v->get<double>();
  }

  static int64_t IntValue(const Json& v, int64_t min, int64_t max,
                          const std::string& field) {
    if (!common::IsIntegerIn(v, min, max)) {
      Fail(absl::StrCat(field, " must be an integer in ", min, "..", max),
           field);
    }
    return v.get<int64_t>();
  }

 private:
  const Json& object_;
};

// The start of the game: `rules` or `position`, never both.
void ReadStart(const Fields& f, AnalysisQuery& q) {
  const std::optional<std::string> rules = f.String("rules");
  const std::optional<std::string> position = f.String("position");
  if (rules && position) Fail("give rules or position, not both", "position");
  if (position) {
    absl::StatusOr<Position> pos = ParsePosition(*position);
    if (!pos.ok()) {
      Fail(absl::StrCat("invalid position: ", Shown(pos.status().message())),
           "position");
    }
    q.from_position = true;
    q.start = *pos;
    q.rules = pos->rules();
    return;
  }
  absl::StatusOr<Rules> parsed = ParseRules(rules.value_or(""));
  absl::StatusOr<Game> game =
      parsed.ok() ? Game::New(*parsed) : absl::StatusOr<Game>(parsed.status());
  if (!game.ok()) {
    Fail(absl::StrCat("invalid rules: ", Shown(game.status().message())),
         "rules");
  }
  q.rules = *parsed;
  q.start = game->position();
}

// The moves, each checked against the game so far.
void ReadMoves(const Fields& f, AnalysisQuery& q) {
  const Json* moves = f.Find("moves");
  if (moves == nullptr) return;
  if (!moves->is_array())
    Fail("moves must be an array of move strings", "moves");
  Game game(q.start);
  for (size_t i = 0; i < moves->size(); ++i) {
    const Json& m = (*moves)[i];
    const std::string turn = absl::StrCat("move ", i + 1);
    if (!m.is_string()) Fail(absl::StrCat(turn, " is not a string"), "moves");
    absl::StatusOr<Move> move = ParseMove(m.get<std::string>());
    if (!move.ok()) {
      Fail(absl::StrCat(turn, ": not a move: ", Shown(m.get<std::string>())),
           "moves");
    }
    if (move->kind == MoveKind::kResign) {
      Fail(absl::StrCat(turn, ": resign is not a move on the board"), "moves");
    }
    if (game.is_over()) Fail(absl::StrCat(turn, ": the game is over"), "moves");
    if (absl::Status played = game.Play(game.position().to_move(), *move);
        !played.ok()) {
      Fail(absl::StrCat(
               turn, ": ",
               absl::StartsWith(played.message(), "illegal move")
                   ? ""
                   : absl::StrCat("illegal move ", MoveName(*move), ": "),
               Shown(played.message())),
           "moves");
    }
    q.moves.push_back(*move);
  }
}

void ReadTurns(const Fields& f, AnalysisQuery& q) {
  const int last = static_cast<int>(q.moves.size());
  const Json* turns = f.Find("analyzeTurns");
  if (turns == nullptr) {
    q.analyze_turns = {last};
    return;
  }
  if (!turns->is_array() || turns->empty()) {
    Fail("analyzeTurns must be a non-empty array of turn numbers",
         "analyzeTurns");
  }
  std::set<int> seen;
  for (const Json& t : *turns) {
    const int turn =
        static_cast<int>(Fields::IntValue(t, 0, last, "analyzeTurns"));
    if (!seen.insert(turn).second) {
      Fail(absl::StrCat("turn ", turn, " is listed twice"), "analyzeTurns");
    }
    q.analyze_turns.push_back(turn);
  }
}

// A JSON scalar as the option table's text ("7", "0.5", "level").
std::string OptionText(const Json& value, const std::string& field) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer() || value.is_number_unsigned()) {
    return value.dump();
  }
  if (value.is_number_float()) return absl::StrCat(value.get<double>());
  Fail(absl::StrCat(field, " must be a number or a string"), field);
}

void ReadOverrides(const Fields& f, AnalysisQuery& q,
                   std::vector<QueryWarning>& warnings) {
  const Json* overrides = f.Find("overrideOptions");
  if (overrides == nullptr) return;
  if (!overrides->is_object()) {
    Fail("overrideOptions must be an object of option names and values",
         "overrideOptions");
  }
  for (const auto& [name, value] : overrides->items()) {
    const std::string field = absl::StrCat("overrideOptions.", Shown(name));
    const OptionSpec* spec = FindOption(name);
    if (spec == nullptr) {
      warnings.push_back({q.id, "unknown option, ignored", field});
      continue;
    }
    if (spec->process_wide) {
      Fail(absl::StrCat(name,
                        " is set for the whole process (--search-threads, "
                        "--hash)"),
           field);
    }
    const std::string text = OptionText(value, field);
    search::SearchOptions scratch;
    if (absl::Status s = SetOptionFromText(scratch, *spec, text); !s.ok()) {
      Fail(Shown(s.message()), field);
    }
    q.overrides.emplace_back(name, text);
  }
}

AnalysisQuery ReadQuery(const Json& j, std::string id,
                        std::vector<QueryWarning>& warnings) {
  const Fields f(j);
  AnalysisQuery q;
  q.id = std::move(id);
  ReadStart(f, q);
  ReadMoves(f, q);
  ReadTurns(f, q);
  q.max_visits = f.Int("maxVisits", 1, kMaxVisits);
  q.max_time_s = f.Number("maxTime", 0, kMaxTimeS);
  q.solve_s = f.Number("solve", 0, kMaxTimeS);
  q.include_ownership = f.Bool("includeOwnership").value_or(false);
  q.include_policy = f.Bool("includePolicy").value_or(false);
  ReadOverrides(f, q, warnings);
  q.priority = static_cast<int>(
      f.Int("priority", -kMaxPriority, kMaxPriority).value_or(0));
  for (const auto& [key, value] : j.items()) {
    if (!QueryFields().count(key)) {
      warnings.push_back({q.id, "unknown field, ignored", Shown(key)});
    }
  }
  return q;
}

// terminate / query_version; unknown fields get warnings.
ParsedLine ReadAction(const Json& j, const std::string& id,
                      const std::string& action) {
  ParsedLine parsed;
  std::set<std::string, std::less<>> known = {"id", "action"};
  if (action == "terminate") {
    const std::optional<std::string> target = Fields(j).String("terminateId");
    if (!target) Fail("terminate needs a terminateId", "terminateId");
    parsed.request = TerminateAction{id, *target};
    known.insert("terminateId");
  } else if (action == "query_version") {
    parsed.request = VersionAction{id};
  } else {
    Fail(absl::StrCat("unknown action ", Shown(action),
                      " (terminate, query_version)"),
         "action");
  }
  for (const auto& [key, value] : j.items()) {
    if (!known.count(key)) {
      parsed.warnings.push_back({id, "unknown field, ignored", Shown(key)});
    }
  }
  return parsed;
}

// Rounded for the answer lines: more digits would only be noise.
double Rounded(double x, double scale) { return std::round(x * scale) / scale; }

std::string Dump(const Json& j) {
  // Messages quote user bytes, which need not be UTF-8.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json IdJson(const std::optional<std::string>& id) {
  return id ? Json(*id) : Json(nullptr);
}

// Win, loss or draw for the side to move of a solved root.
std::string ResultWord(double winrate) {
  if (winrate >= 1) return "win";
  if (winrate <= 0) return "loss";
  return "draw";
}

Json MoveInfosJson(const search::SearchInfo& info) {
  Json list = Json::array();
  for (size_t i = 0; i < info.candidates.size(); ++i) {
    const search::Candidate& c = info.candidates[i];
    Json pv = Json::array();
    for (const Move& m : c.pv) pv.push_back(MoveName(m));
    list.push_back({{"move", MoveName(c.move)},
                    {"visits", c.visits},
                    {"winrate", Rounded(c.winrate, 1e4)},
                    {"scoreMargin", Rounded(c.score_margin, 1e2)},
                    {"prior", Rounded(c.prior, 1e4)},
                    {"order", i},
                    {"pv", std::move(pv)}});
  }
  return list;
}

Json RootInfoJson(const TurnAnswer& a) {
  const search::SearchInfo& info = a.info;
  Json root = {{"currentPlayer", ColourName(a.position.to_move())},
               {"visits", info.total_visits},
               {"winrate", Rounded(info.root_winrate, 1e4)},
               {"scoreMargin", Rounded(info.root_score_margin, 1e2)},
               {"solved", info.solved},
               {"exact", info.exact}};
  if (info.solved) root["result"] = ResultWord(info.root_winrate);
  if (a.game_over) root["gameOver"] = true;
  return root;
}

// {"red":[49 shares], "blue":[...], "none":[...]}, cells a1..g1, a2..g7.
Json OwnershipJson(const std::vector<search::CellOwnership>& ownership,
                   int players) {
  Json map = Json::object();
  for (int k = 0; k <= players; ++k) {
    const int index = k < players ? k : kMaxPlayers;
    Json shares = Json::array();
    for (const search::CellOwnership& cell : ownership) {
      shares.push_back(Rounded(cell[index], 1e3));
    }
    map[k < players ? ColourName(ColourAt(k)) : "none"] = std::move(shares);
  }
  return map;
}

Json PolicyJson(const search::SearchInfo& info) {
  Json policy = Json::object();
  for (const search::Candidate& c : info.candidates) {
    policy[MoveName(c.move)] = Rounded(c.prior, 1e4);
  }
  return policy;
}

}  // namespace

Position AnalysisQuery::PositionAt(int turn) const {
  Position pos = start;
  for (int i = 0; i < turn; ++i) pos.Play(moves[i]);
  return pos;
}

ParsedLine ParseQueryLine(absl::string_view line) {
  ParsedLine parsed;
  if (line.size() > kMaxQueryLineBytes) {
    parsed.request = QueryError{
        std::nullopt,
        absl::StrCat("line longer than ", kMaxQueryLineBytes, " bytes"), ""};
    return parsed;
  }
  const Json j = Json::parse(line.begin(), line.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    parsed.request =
        QueryError{std::nullopt, "a query line must be one JSON object", ""};
    return parsed;
  }
  const auto id_it = j.find("id");
  if (id_it == j.end() || !id_it->is_string()) {
    parsed.request = QueryError{std::nullopt, "id must be a string", "id"};
    return parsed;
  }
  const std::string id = id_it->get<std::string>();
  try {
    const auto action = j.find("action");
    if (action != j.end()) {
      if (!action->is_string()) Fail("action must be a string", "action");
      return ReadAction(j, id, action->get<std::string>());
    }
    parsed.request = ReadQuery(j, id, parsed.warnings);
  } catch (const FieldError& e) {
    parsed.request = QueryError{id, e.message, e.field};
    parsed.warnings.clear();  // one line per bad query: the error
  } catch (const Json::exception& e) {
    parsed.request = QueryError{id, Shown(e.what()), ""};
    parsed.warnings.clear();
  }
  return parsed;
}

std::string QueryToJson(const AnalysisQuery& q) {
  Json j;
  j["id"] = q.id;
  if (q.from_position) {
    j["position"] = PositionString(q.start);
  } else {
    j["rules"] = RulesString(q.rules);
  }
  Json moves = Json::array();
  for (const Move& m : q.moves) moves.push_back(MoveName(m));
  j["moves"] = std::move(moves);
  j["analyzeTurns"] = q.analyze_turns;
  if (q.max_visits) j["maxVisits"] = *q.max_visits;
  if (q.max_time_s) j["maxTime"] = *q.max_time_s;
  if (q.solve_s) j["solve"] = *q.solve_s;
  j["includeOwnership"] = q.include_ownership;
  j["includePolicy"] = q.include_policy;
  if (!q.overrides.empty()) {
    Json overrides = Json::object();
    for (const auto& [name, value] : q.overrides) overrides[name] = value;
    j["overrideOptions"] = std::move(overrides);
  }
  j["priority"] = q.priority;
  return Dump(j);
}

search::SearchOptions QueryOptions(const AnalysisQuery& q,
                                   const search::SearchOptions& defaults) {
  search::SearchOptions options = defaults;
  for (const auto& [name, value] : q.overrides) {
    // Checked when parsed; a failure here leaves the option as it was.
    if (const OptionSpec* spec = FindOption(name)) {
      (void)SetOptionFromText(options, *spec, value);
    }
  }
  if (q.max_visits || q.max_time_s) {
    options.visits = q.max_visits.value_or(0);
    options.movetime_s = q.max_time_s.value_or(0);
  }
  return options;
}

search::SearchInfo FinishedGameInfo(const Position& pos, bool ownership) {
  search::SearchInfo info;
  const Result result = ComputeResult(pos);
  const int me = Index(pos.to_move());
  info.root_winrate = result.win_share(me);
  info.root_score_margin = result.margin(me);
  info.solved = info.exact = true;
  if (ownership) {
    info.ownership.assign(kNumCells, search::CellOwnership{});
    const CellOwners owners = ComputeCellOwners(pos);
    for (int cell = 0; cell < kNumCells; ++cell) {
      info.ownership[cell][owners[cell] >= 0 ? owners[cell] : kMaxPlayers] = 1;
    }
  }
  return info;
}

std::string AnswerJson(const TurnAnswer& a) {
  Json j;
  j["id"] = a.id;
  j["turnNumber"] = a.turn;
  if (a.terminated) j["terminated"] = true;
  if (a.no_results) {
    j["noResults"] = true;
    return Dump(j);
  }
  j["moveInfos"] = MoveInfosJson(a.info);
  j["rootInfo"] = RootInfoJson(a);
  if (a.include_ownership && !a.info.ownership.empty()) {
    j["ownership"] = OwnershipJson(a.info.ownership, a.position.num_players());
  }
  if (a.include_policy) j["policy"] = PolicyJson(a.info);
  if (a.solve) j["solve"] = Json::parse(SolveJson(a.position, *a.solve));
  return Dump(j);
}

namespace {
// {"id":..,"error"|"warning":..,"field":..}
std::string NoticeJson(Json id, const char* kind, const std::string& message,
                       const std::string& field) {
  Json j;
  j["id"] = std::move(id);
  j[kind] = message;
  j["field"] = field;
  return Dump(j);
}
}  // namespace

std::string ErrorJson(const QueryError& e) {
  return NoticeJson(IdJson(e.id), "error", e.message, e.field);
}

std::string WarningJson(const QueryWarning& w) {
  return NoticeJson(Json(w.id), "warning", w.message, w.field);
}

std::string TerminateJson(const TerminateAction& a) {
  Json j;
  j["id"] = a.id;
  j["action"] = "terminate";
  j["terminateId"] = a.terminate_id;
  return Dump(j);
}

std::string VersionJson(const VersionAction& a, const std::string& version) {
  Json j;
  j["id"] = a.id;
  j["action"] = "query_version";
  j["version"] = version;
  return Dump(j);
}

}  // namespace wallgo::protocol
