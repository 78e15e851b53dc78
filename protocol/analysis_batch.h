// `wallgo analysis` over files, for clusters (docs/cluster.md): a query file
// (JSON Lines, ids unique) is answered into an answers file, optionally one
// shard of it (--shard I/N: query lines dealt in turn), resumable (--resume
// keeps the whole answers there and asks only the missing turns), and the
// shards' answer files are merged back in query order, each turn of each
// query answered exactly once (--merge).
#pragma once

#include <cstddef>
#include <ostream>
#include <stop_token>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/shard.h"
#include "protocol/analysis_json.h"
#include "protocol/analysis_server.h"

namespace wallgo::protocol {

struct AnalysisFiles {
  std::string queries;  // empty: queries on stdin, answers on stdout
  std::string answers;  // with `queries`: the answers (or the merge) file
  batch::Shard shard;
  bool resume = false;
  std::vector<std::string> merge;  // answer files to merge
};

// The queries of a query file, in file order. Every non-blank line must be
// a valid query (not an action) with an id no other line has; warnings
// (ignored fields) go to `warnings` with their line numbers.
absl::StatusOr<std::vector<AnalysisQuery>> ReadQueries(const std::string& path,
                                                       std::ostream& warnings);

// Answers this shard's queries into files.answers. A `stop` request ends the
// searches: the answers of unfinished turns are not written (a --resume run
// asks them again).
absl::Status RunAnalysisFiles(const AnalysisFiles& files,
                              const AnalysisConfig& config,
                              SearcherFactory factory, std::stop_token stop,
                              std::ostream& warnings);

// The answers of files.merge in query order (files.queries' order, then each
// query's analyzeTurns) into files.answers, or `out` when that is empty.
// A turn answered twice, or not at all, is an error naming it.
absl::Status MergeAnswers(const AnalysisFiles& files, std::ostream& out);

}  // namespace wallgo::protocol
