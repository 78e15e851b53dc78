#include "protocol/analysis_batch.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/batch/line_file.h"
#include "nlohmann/json.hpp"

namespace wallgo::protocol {
namespace {

// An answer's place: the query's id and the turn.
using AnswerKey = std::pair<std::string, int64_t>;

absl::StatusOr<AnswerKey> KeyOf(const std::string& line,
                                const std::string& where) {
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("id") ||
      !j["id"].is_string() || !j.contains("turnNumber") ||
      !j["turnNumber"].is_number_integer()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": not an answer with an id and a turnNumber"));
  }
  return AnswerKey{j["id"].get<std::string>(), j["turnNumber"].get<int64_t>()};
}

// The answers of a file by key; a last line cut short by a kill is skipped
// (as --resume drops it). The same turn twice is an error.
absl::Status ReadAnswers(const std::string& path,
                         std::map<AnswerKey, std::string>& answers) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::StatusOr<AnswerKey> key =
        KeyOf(line, absl::StrCat(path, ":", number));
    if (!key.ok()) {
      if (in.eof()) break;  // cut short, without its newline
      return key.status();
    }
    if (!answers.emplace(*key, line).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", number, ": query '", key->first, "' turn ",
                       key->second, " is answered twice"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<AnalysisQuery>> ReadQueries(const std::string& path,
                                                       std::ostream& warnings) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::vector<AnalysisQuery> queries;
  std::map<std::string, int> lines;  // id -> line
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    const std::string where = absl::StrCat(path, ":", number);
    if (line.size() > kMaxQueryLineBytes) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": line too long"));
    }
    ParsedLine parsed = ParseQueryLine(line);
    if (const auto* error = std::get_if<QueryError>(&parsed.request)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": ", error->message,
          error->field.empty() ? "" : absl::StrCat(" (", error->field, ")")));
    }
    auto* query = std::get_if<AnalysisQuery>(&parsed.request);
    if (query == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": a query file holds queries, not actions"));
    }
    const auto [it, fresh] = lines.emplace(query->id, number);
    if (!fresh) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": id '", query->id, "' is used on line ",
                       it->second, " too; ids must be unique"));
    }
    for (const QueryWarning& w : parsed.warnings) {
      warnings << where << ": warning: " << w.message << " (" << w.field
               << ")\n";
    }
    queries.push_back(std::move(*query));
  }
  return queries;
}

absl::Status RunAnalysisFiles(const AnalysisFiles& files,
                              const AnalysisConfig& config,
                              SearcherFactory factory, std::stop_token stop,
                              std::ostream& warnings) {
  absl::StatusOr<std::vector<AnalysisQuery>> queries =
      ReadQueries(files.queries, warnings);
  if (!queries.ok()) return queries.status();
  std::map<AnswerKey, std::string> done;
  if (files.resume && std::filesystem::exists(files.answers)) {
    if (absl::Status s = ReadAnswers(files.answers, done); !s.ok()) return s;
  }
  absl::StatusOr<std::unique_ptr<batch::LineFile>> out =
      batch::LineFile::Open(files.answers, files.resume, "answers file");
  if (!out.ok()) return out.status();
  std::mutex mutex;
  absl::Status written;
  {
    AnalysisServer server(
        config, std::move(factory),
        [&](const std::string& line) {
          const absl::Status s = (*out)->Append(line);
          std::lock_guard<std::mutex> lock(mutex);
          if (written.ok()) written = s;
        },
        stop);
    for (size_t i = 0; i < queries->size() && !stop.stop_requested(); ++i) {
      if (!files.shard.Has(static_cast<int64_t>(i))) continue;
      AnalysisQuery& query = (*queries)[i];
      std::vector<int> missing;
      for (int turn : query.analyze_turns) {
        if (!done.count({query.id, turn})) missing.push_back(turn);
      }
      if (missing.empty()) continue;
      query.analyze_turns = std::move(missing);
      server.Submit(std::move(query));
    }
    server.Finish();
  }
  return written;
}

absl::Status MergeAnswers(const AnalysisFiles& files, std::ostream& out) {
  std::ostringstream ignored;  // the run reported the warnings already
  absl::StatusOr<std::vector<AnalysisQuery>> queries =
      ReadQueries(files.queries, ignored);
  if (!queries.ok()) return queries.status();
  std::map<AnswerKey, std::string> answers;
  for (const std::string& path : files.merge) {
    if (absl::Status s = ReadAnswers(path, answers); !s.ok()) return s;
  }
  std::ostringstream merged;
  size_t used = 0;
  for (const AnalysisQuery& query : *queries) {
    for (int turn : query.analyze_turns) {
      const auto it = answers.find({query.id, turn});
      if (it == answers.end()) {
        return absl::NotFoundError(
            absl::StrCat("query '", query.id, "' turn ", turn,
                         " has no answer in the merged files"));
      }
      merged << it->second << "\n";
      ++used;
    }
  }
  if (used != answers.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(answers.size() - used, " answers belong to no query of ",
                     files.queries));
  }
  if (files.answers.empty()) {
    out << merged.str() << std::flush;
    return absl::OkStatus();
  }
  std::ofstream file(files.answers, std::ios::trunc);
  file << merged.str();
  if (!file.flush()) {
    return absl::InternalError(absl::StrCat("cannot write ", files.answers));
  }
  return absl::OkStatus();
}

}  // namespace wallgo::protocol
