// The `wallgo` command line (Boost.Program_options): search options, a
// config file holding the same options, a log file, the non-interactive
// jobs `perft` and `bench`, and the JSON `analysis` engine. Parsing knows
// nothing of running the jobs.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "protocol/analysis_batch.h"
#include "search/search.h"
#include "search/speedtest.h"

namespace wallgo::protocol {

enum class Job { kGtp, kPerft, kBench, kSpeedtest, kAnalysis, kHelp, kVersion };

struct PerftJob {
  int depth = 1;
  std::string position;  // a position string; empty = the start of `rules`
  std::string rules;     // key=value list, used when position is empty
  std::vector<std::string> moves;  // played from the start of `rules` first
  bool divide = false;
};

// `wallgo analysis`: positions searched at once, and threads per search
// (0 = the `threads` option).
struct AnalysisJob {
  int analysis_threads = 1;
  int search_threads = 0;
  AnalysisFiles files;  // --queries, --answers, --shard, --resume, --merge
};

struct Invocation {
  Job job = Job::kGtp;
  search::SearchOptions search;  // DefaultOptions() changed by the flags
  std::string log_file;          // empty = no log file
  // The network for eval=net and hybrid; empty = the built-in weights. The
  // caller loads it (protocol links no network code) and puts it in search.net.
  std::string weights_file;
  // The network for games of 3 and 4 players (search.net_multi); empty =
  // none, the classic evaluation there.
  std::string weights_multi_file;
  PerftJob perft;
  AnalysisJob analysis;
  // `wallgo speedtest`: --threads is the most threads measured (default:
  // the cores there are), --seconds each measurement's time.
  search::SpeedtestConfig speedtest;
};

// Fails with a one-line message saying what is wrong (the caller prints it
// with the usage and exits with status 2).
absl::StatusOr<Invocation> ParseCommandLine(int argc, const char* const argv[]);

// The usage text that --help prints.
std::string Usage();

}  // namespace wallgo::protocol
