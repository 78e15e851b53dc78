// The JSON side of `wallgo analysis` (one query per line in, one answer per
// line out; docs/analysis.md): query lines parsed and checked into typed
// requests, and typed results written as answer lines. No threads, no
// search: everything here is a pure function, tested without processes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "engine/types.h"
#include "protocol/options.h"
#include "search/search.h"
#include "search/solver/solver.h"

namespace wallgo::protocol {

// Longest query line read; longer lines get an error without being parsed.
inline constexpr size_t kMaxQueryLineBytes = size_t{1} << 20;

// One analysis query: a game (a start position and moves from it) and which
// of its turns to analyse, with what limits.
struct AnalysisQuery {
  std::string id;
  // The start: `rules`' start position, or the `position` string's position.
  bool from_position = false;
  Rules rules;  // used when !from_position
  Position start = Position::Start(Rules{}).value();  // either way
  std::vector<Move> moves;  // played from `start`, all legal
  // Turn k is the position after the first k moves (0 = start); each is
  // analysed and answered separately. Default: the last turn.
  std::vector<int> analyze_turns;
  std::optional<int64_t> max_visits;
  std::optional<double> max_time_s;
  std::optional<double> solve_s;  // "solve": the endgame solver's seconds
  bool include_ownership = false;
  bool include_policy = false;
  // overrideOptions: option-table names (options.h) and values as text,
  // applied in order on top of the command line's options.
  std::vector<std::pair<std::string, std::string>> overrides;
  int priority = 0;  // higher is started first; ties in arrival order

  // The position at turn `turn` (0..moves.size()).
  Position PositionAt(int turn) const;
};

// `{"id":..,"action":"terminate","terminateId":..}`: stop that query.
struct TerminateAction {
  std::string id;
  std::string terminate_id;
};

// `{"id":..,"action":"query_version"}`.
struct VersionAction {
  std::string id;
};

// A line that is not a usable query; `id` when the line had a string id.
struct QueryError {
  std::optional<std::string> id;
  std::string message;
  std::string field;  // the offending field, "" for the whole line
};

// A field that was ignored (unknown).
struct QueryWarning {
  std::string id;
  std::string message;
  std::string field;
};

struct ParsedLine {
  std::variant<QueryError, AnalysisQuery, TerminateAction, VersionAction>
      request;
  std::vector<QueryWarning> warnings;  // only beside a valid request
};

// Parses and checks one input line (not necessarily valid UTF-8 or JSON).
ParsedLine ParseQueryLine(absl::string_view line);

// The query as a line ParseQueryLine reads back to the same query.
std::string QueryToJson(const AnalysisQuery& query);

// The search options a query runs with: `defaults` (the command line), then
// its overrideOptions, then maxVisits/maxTime; when either of those is
// given, the other limit is off unless the query set it.
search::SearchOptions QueryOptions(const AnalysisQuery& query,
                                   const search::SearchOptions& defaults);

// One analysed turn, ready to be written.
struct TurnAnswer {
  std::string id;
  int turn = 0;
  Position position = Position::Start(Rules{}).value();
  bool include_ownership = false;
  bool include_policy = false;
  // `info` holds the search's result, or for a finished game the exact one
  // (no candidates; see FinishedGameInfo).
  search::SearchInfo info;
  bool game_over = false;
  bool terminated = false;  // stopped by a terminate action
  bool no_results = false;  // terminated before it started: no info
  std::optional<search::SolveResult> solve;  // asked for by "solve"
};

// The exact SearchInfo of a finished game, from the rules alone: the side
// to move's result and margin, solved and exact, and (when asked) the final
// owner of every cell.
search::SearchInfo FinishedGameInfo(const Position& pos, bool ownership);

std::string AnswerJson(const TurnAnswer& answer);
std::string ErrorJson(const QueryError& error);
std::string WarningJson(const QueryWarning& warning);
std::string TerminateJson(const TerminateAction& action);
std::string VersionJson(const VersionAction& action,
                        const std::string& version);

}  // namespace wallgo::protocol
