// wallgo: the Wall Go engine. With no job it speaks the text protocol of
// docs/protocol.md on stdin/stdout; `wallgo perft` and `wallgo bench` are
// one-shot jobs, and so is `wallgo speedtest`; `wallgo analysis` answers JSON
// queries (docs/analysis.md). Bad flags print a one-line error and the usage,
// status 2.
#include <fstream>
#include <iostream>
#include <memory>

#include "absl/strings/str_format.h"
#include "common/batch/preemption.h"
#include "common/version/version.h"
#include "protocol/analysis_batch.h"
#include "protocol/analysis_server.h"
#include "protocol/cli.h"
#include "protocol/engine.h"
#include "protocol/gtp.h"
#include "protocol/input.h"
#include "protocol/log.h"
#include "protocol/perft_job.h"
#include "protocol/speedtest_job.h"
#include "search/bench.h"
#include "search/net/builtin_weights.h"
#include "search/search.h"
#include "search/speedtest.h"

namespace wallgo::protocol {
namespace {

constexpr int kUsageError = 2;

int UsageError(absl::string_view message) {
  std::cerr << "wallgo: " << message << "\n" << Usage();
  return kUsageError;
}

int RunGtp(const Invocation& inv) {
  std::ofstream log_file;
  if (!inv.log_file.empty()) {
    log_file.open(inv.log_file, std::ios::app);
    if (!log_file) return UsageError("cannot open log file " + inv.log_file);
  }
  Log log(&std::cerr, log_file.is_open() ? &log_file : nullptr);
  Engine engine(
      [](const search::SearchOptions& options) {
        return search::MakeSearcher(options);
      },
      inv.search);
  GtpSession session(engine, std::cout, log, std::string(Version()));
  session.Run(std::cin);
  return 0;
}

int RunPerft(const Invocation& inv) {
  if (absl::Status status = RunPerftJob(inv.perft, std::cout); !status.ok()) {
    return UsageError(status.message());
  }
  return 0;
}

// Prints the node-count signature (it changes exactly when the search's
// behaviour does) and the speed.
int RunBench(const Invocation& inv) {
  const search::BenchReport report = search::RunBench(inv.search);
  std::cout << absl::StrFormat(
      "positions %d\nvisits %d\nnodes %d\ntime %.3f s\n"
      "nodes/second %.0f\nvisits/second %.0f\n",
      report.positions, report.visits, report.nodes, report.seconds,
      report.nodes_per_second, report.visits_per_second);
  return 0;
}

// Prints each thread count's row as soon as it is measured.
int RunSpeedtest(const Invocation& inv) {
  std::cout << SpeedtestTitle(inv.speedtest) << SpeedtestHeader() << std::flush;
  std::vector<search::SpeedtestRow> rows;
  search::RunSpeedtest(
      inv.search, inv.speedtest, [&rows](const search::SpeedtestRow& row) {
        rows.push_back(row);
        std::cout << SpeedtestLine(row, rows.front()) << std::flush;
      });
  std::cout << SpeedtestSummary(rows) << std::flush;
  return 0;
}

// `wallgo analysis`: queries on stdin and answers on stdout, or over files
// (--queries; analysis_batch.h). SIGTERM and SIGINT stop it within the
// pre-emption contract (common/batch/preemption.h): exit status 75.
int RunAnalysis(const Invocation& inv) {
  const AnalysisFiles& files = inv.analysis.files;
  if (!files.merge.empty()) {
    const absl::Status merged = MergeAnswers(files, std::cout);
    if (!merged.ok())
      std::cerr << "wallgo analysis: " << merged.message() << "\n";
    return merged.ok() ? 0 : 1;
  }
  batch::StopOnSignals stop;  // before the workers start
  AnalysisConfig config;
  config.analysis_threads = inv.analysis.analysis_threads;
  config.search_threads = inv.analysis.search_threads > 0
                              ? inv.analysis.search_threads
                              : inv.search.threads;
  config.defaults = inv.search;
  config.version = std::string(Version());
  const SearcherFactory factory = [](const search::SearchOptions& options) {
    return search::MakeSearcher(options);
  };
  if (!files.queries.empty()) {
    const absl::Status done =
        RunAnalysisFiles(files, config, factory, stop.token(), std::cerr);
    if (!done.ok()) {
      std::cerr << "wallgo analysis: " << done.message() << "\n";
      return 1;
    }
  } else {
    AnalysisServer server(
        config, factory,
        [](const std::string& line) {
          std::cout << line << "\n" << std::flush;
        },
        stop.token());
    FdLines input(0);
    std::string line;
    while (input.Next(line, kMaxQueryLineBytes, stop.token())) {
      server.HandleLine(line);
    }
    server.Finish();
  }
  if (stop.stopped()) {
    std::cerr << "wallgo analysis: interrupted; only whole answers were "
                 "written"
              << (files.queries.empty() ? "" : ": run again with --resume")
              << "\n";
    return batch::kExitInterrupted;
  }
  return 0;
}

// The learned evaluation for eval=net: --weights FILE, or the built-in
// weights, and --weights-multi FILE for games of 3 and 4 players. Loaded at
// start, so that a missing or broken file is an error now rather than in
// the middle of a game.
absl::Status LoadNet(Invocation& inv) {
  auto load = [](const std::string& file,
                 std::shared_ptr<const search::Evaluator>& out) {
    absl::StatusOr<std::shared_ptr<const search::Evaluator>> evaluator =
        search::net::LoadNetEvaluator(file);
    if (!evaluator.ok()) return evaluator.status();
    out = *std::move(evaluator);
    return absl::OkStatus();
  };
  if (absl::Status s = load(inv.weights_file, inv.search.net); !s.ok()) {
    return s;
  }
  if (inv.weights_multi_file.empty()) return absl::OkStatus();
  return load(inv.weights_multi_file, inv.search.net_multi);
}

int Main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  absl::StatusOr<Invocation> inv = ParseCommandLine(argc, argv);
  if (!inv.ok()) return UsageError(inv.status().message());
  if (absl::Status status = LoadNet(*inv); !status.ok()) {
    std::cerr << "wallgo: " << status.message() << "\n";
    return kUsageError;
  }
  switch (inv->job) {
    case Job::kHelp:
      std::cout << Usage();
      return 0;
    case Job::kVersion:
      std::cout << VersionLine("wallgo") << "\n";
      return 0;
    case Job::kPerft:
      return RunPerft(*inv);
    case Job::kBench:
      return RunBench(*inv);
    case Job::kAnalysis:
      return RunAnalysis(*inv);
    case Job::kSpeedtest:
      return RunSpeedtest(*inv);
    case Job::kGtp:
      return RunGtp(*inv);
  }
  return 0;
}

}  // namespace
}  // namespace wallgo::protocol

int main(int argc, char** argv) { return wallgo::protocol::Main(argc, argv); }
