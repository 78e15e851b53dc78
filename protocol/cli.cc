#include "protocol/cli.h"

#include <exception>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "boost/program_options.hpp"
#include "common/batch/shard.h"
#include "common/program_options_error.h"
#include "protocol/options.h"

namespace wallgo::protocol {
namespace po = boost::program_options;
namespace {

// The search options, as flags and as config-file keys: taken as text and
// checked by the option table, so the ranges are those of set_option. The
// help leaves the hidden ones (the tunables) out.
po::options_description SearchFlags(bool with_hidden = true) {
  po::options_description flags("Search options (also valid in --config)");
  for (const OptionSpec& spec : AllOptions()) {
    if (spec.hidden && !with_hidden) continue;
    const std::string help =
        absl::StrCat(spec.help, " (", FormatRange(spec), ")");
    flags.add_options()(std::string(spec.name).c_str(),
                        po::value<std::string>()->value_name(
                            spec.type == OptionType::kInt     ? "N"
                            : spec.type == OptionType::kFloat ? "X"
                                                              : "NAME"),
                        help.c_str());
  }
  return flags;
}

po::options_description GeneralFlags() {
  po::options_description flags("General");
  flags.add_options()("help,h", "print this help and exit")(
      "version", "print the version and exit")(
      "config", po::value<std::string>()->value_name("FILE"),
      "read search options from FILE (name = value lines)")(
      "log", po::value<std::string>()->value_name("FILE"),
      "append events and the command transcript to FILE")(
      "weights", po::value<std::string>()->value_name("FILE"),
      "the learned evaluation's weights for eval=net and eval=hybrid "
      "(default: the built-in wallgo-net-6)")(
      "weights-multi", po::value<std::string>()->value_name("FILE"),
      "weights for games of 3 and 4 players with eval=net and eval=hybrid "
      "(default: none; those games use the classic evaluation)");
  return flags;
}

po::options_description PerftFlags() {
  po::options_description flags("perft job (wallgo perft [DEPTH] ...)");
  flags.add_options()("depth", po::value<int>()->value_name("N"),
                      "plies to count (default 1)")(
      "position", po::value<std::string>()->value_name("TEXT"),
      "a position string, as the protocol's `position` prints")(
      "rules", po::value<std::string>()->value_name("TEXT"),
      "rules of the start position, as `newgame` takes them")(
      "moves", po::value<std::string>()->value_name("TEXT"),
      "moves played from the start first, space-separated")(
      "divide", "print the count under each first move");
  return flags;
}

po::options_description AnalysisFlags() {
  po::options_description flags(
      "analysis job (wallgo analysis ...; JSON queries on stdin)");
  flags.add_options()("analysis-threads", po::value<int>()->value_name("N"),
                      "positions searched at once (default 1; --hash is "
                      "shared among them)")(
      "search-threads", po::value<int>()->value_name("M"),
      "threads of each search (default: the threads option)")(
      "queries", po::value<std::string>()->value_name("FILE"),
      "read the queries from FILE (ids unique) instead of stdin")(
      "answers", po::value<std::string>()->value_name("FILE"),
      "with --queries: write the answers (or the merge) to FILE")(
      "shard", po::value<std::string>()->value_name("I/N"),
      "with --answers: answer only the I-th of N parts (lines dealt in turn)")(
      "resume", "with --answers: keep its answers, ask only the missing turns")(
      "merge",
      po::value<std::vector<std::string>>()->multitoken()->value_name("FILES"),
      "with --queries: merge shards' answer files in query order, checking "
      "that every turn is answered exactly once");
  return flags;
}

po::options_description SpeedtestFlags() {
  po::options_description flags(
      "speedtest job (wallgo speedtest [--threads N] [--seconds S] "
      "[--rounds R])");
  flags.add_options()("seconds", po::value<double>()->value_name("S"),
                      "each measurement's time (default 3; --threads: the "
                      "most threads measured, default the cores there are)")(
      "rounds", po::value<int>()->value_name("R"),
      "passes over the positions, each S long, the search and its ceiling "
      "side by side (default 1)");
  return flags;
}

po::options_description AllFlags() {
  po::options_description all;
  all.add(GeneralFlags())
      .add(SearchFlags())
      .add(PerftFlags())
      .add(AnalysisFlags())
      .add(SpeedtestFlags());
  all.add_options()("job", po::value<std::vector<std::string>>());
  return all;
}

absl::Status ApplySearchFlags(const po::variables_map& vm,
                              search::SearchOptions& options) {
  for (const OptionSpec& spec : AllOptions()) {
    const std::string name(spec.name);
    if (vm.count(name) == 0) continue;
    absl::Status status =
        SetOptionFromText(options, spec, vm[name].as<std::string>());
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status ReadConfigFile(const std::string& path, po::variables_map& vm) {
  try {
    po::store(po::parse_config_file<char>(path.c_str(), SearchFlags()), vm);
  } catch (po::error& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("config file ", path, ": ", common::ErrorMessage(e)));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("config file ", path, ": ", e.what()));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> ParseDepth(const std::string& text) {
  int depth = 0;
  std::istringstream in(text);
  if (!(in >> depth) || !in.eof() || depth < 0 || depth > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("perft depth must be an integer in 0..64, not ", text));
  }
  return depth;
}

// The job words: none (GTP), `bench`, `speedtest`, `analysis` or
// `perft [DEPTH]`.
absl::Status ApplyJob(const po::variables_map& vm, Invocation& inv) {
  if (vm.count("job") == 0) return absl::OkStatus();
  const auto& words = vm["job"].as<std::vector<std::string>>();
  if (words[0] == "bench" && words.size() == 1) {
    inv.job = Job::kBench;
    return absl::OkStatus();
  }
  if (words[0] == "speedtest" && words.size() == 1) {
    inv.job = Job::kSpeedtest;
    return absl::OkStatus();
  }
  if (words[0] == "analysis" && words.size() == 1) {
    inv.job = Job::kAnalysis;
    return absl::OkStatus();
  }
  if (words[0] == "perft" && words.size() <= 2) {
    inv.job = Job::kPerft;
    if (words.size() == 2) {
      absl::StatusOr<int> depth = ParseDepth(words[1]);
      if (!depth.ok()) return depth.status();
      inv.perft.depth = *depth;
    }
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unexpected argument '", words.back(),
                   "' (jobs: perft [DEPTH], bench, speedtest, analysis)"));
}

absl::Status ApplyPerftFlags(const po::variables_map& vm, Invocation& inv) {
  const bool any = vm.count("depth") || vm.count("position") ||
                   vm.count("rules") || vm.count("moves") || vm.count("divide");
  if (!any) return absl::OkStatus();
  if (inv.job != Job::kPerft) {
    return absl::InvalidArgumentError(
        "--depth, --position, --rules, --moves and --divide belong to the "
        "perft job");
  }
  if (vm.count("position") && (vm.count("rules") || vm.count("moves"))) {
    return absl::InvalidArgumentError(
        "--position cannot be combined with --rules or --moves");
  }
  if (vm.count("depth")) {
    inv.perft.depth = vm["depth"].as<int>();
    if (inv.perft.depth < 0 || inv.perft.depth > 64) {
      return absl::InvalidArgumentError("perft depth must be in 0..64");
    }
  }
  if (vm.count("position"))
    inv.perft.position = vm["position"].as<std::string>();
  if (vm.count("rules")) inv.perft.rules = vm["rules"].as<std::string>();
  if (vm.count("moves")) {
    std::istringstream words(vm["moves"].as<std::string>());
    for (std::string move; words >> move;) inv.perft.moves.push_back(move);
  }
  inv.perft.divide = vm.count("divide") > 0;
  return absl::OkStatus();
}

// --queries, --answers, --shard, --resume and --merge.
absl::Status ApplyAnalysisFiles(const po::variables_map& vm,
                                AnalysisFiles& files) {
  if (vm.count("queries")) files.queries = vm["queries"].as<std::string>();
  if (vm.count("answers")) files.answers = vm["answers"].as<std::string>();
  if (vm.count("merge")) {
    files.merge = vm["merge"].as<std::vector<std::string>>();
  }
  files.resume = vm.count("resume") > 0;
  if (vm.count("shard")) {
    absl::StatusOr<batch::Shard> shard =
        batch::ParseShard(vm["shard"].as<std::string>());
    if (!shard.ok()) return shard.status();
    files.shard = *shard;
  }
  if (files.queries.empty() && (vm.count("answers") || vm.count("merge") ||
                                vm.count("shard") || files.resume)) {
    return absl::InvalidArgumentError(
        "--answers, --shard, --resume and --merge need --queries");
  }
  if (!files.queries.empty() && files.merge.empty() && files.answers.empty()) {
    return absl::InvalidArgumentError("--queries needs --answers or --merge");
  }
  if (!files.merge.empty() && (vm.count("shard") || files.resume)) {
    return absl::InvalidArgumentError(
        "--merge takes no --shard or --resume: it merges every shard");
  }
  return absl::OkStatus();
}

absl::Status ApplyAnalysisFlags(const po::variables_map& vm, Invocation& inv) {
  constexpr int kMaxThreads = 256;
  const bool any = vm.count("analysis-threads") || vm.count("search-threads") ||
                   vm.count("queries") || vm.count("answers") ||
                   vm.count("shard") || vm.count("resume") || vm.count("merge");
  if (!any) return absl::OkStatus();
  if (inv.job != Job::kAnalysis) {
    return absl::InvalidArgumentError(
        "--analysis-threads, --search-threads, --queries, --answers, "
        "--shard, --resume and --merge belong to the analysis job");
  }
  if (absl::Status s = ApplyAnalysisFiles(vm, inv.analysis.files); !s.ok()) {
    return s;
  }
  for (const char* name : {"analysis-threads", "search-threads"}) {
    if (vm.count(name) == 0) continue;
    const int value = vm[name].as<int>();
    if (value < 1 || value > kMaxThreads) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, " must be in 1..", kMaxThreads));
    }
    (std::string(name) == "analysis-threads" ? inv.analysis.analysis_threads
                                             : inv.analysis.search_threads) =
        value;
  }
  return absl::OkStatus();
}

// --seconds, --rounds, and --threads as the most threads (the threads option's
// range).
absl::Status ApplySpeedtestFlags(const po::variables_map& vm, Invocation& inv) {
  constexpr double kMaxSeconds = 3600;
  constexpr int kMaxRounds = 1000;
  if (inv.job != Job::kSpeedtest) {
    for (const char* flag : {"seconds", "rounds"}) {
      if (vm.count(flag) == 0) continue;
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, " belongs to the speedtest job"));
    }
    return absl::OkStatus();
  }
  const unsigned cores = std::thread::hardware_concurrency();
  inv.speedtest.max_threads = vm.count("threads") ? inv.search.threads
                              : cores > 0         ? static_cast<int>(cores)
                                                  : 1;
  inv.speedtest.seconds = vm.count("seconds") ? vm["seconds"].as<double>() : 3;
  if (!(inv.speedtest.seconds > 0 && inv.speedtest.seconds <= kMaxSeconds)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seconds must be in (0, ", kMaxSeconds, "]"));
  }
  inv.speedtest.rounds = vm.count("rounds") ? vm["rounds"].as<int>() : 1;
  if (inv.speedtest.rounds < 1 || inv.speedtest.rounds > kMaxRounds) {
    return absl::InvalidArgumentError(
        absl::StrCat("--rounds must be in [1, ", kMaxRounds, "]"));
  }
  return absl::OkStatus();
}

absl::StatusOr<po::variables_map> ParseFlags(int argc,
                                             const char* const argv[]) {
  po::positional_options_description positional;
  positional.add("job", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv)
                  .options(AllFlags())
                  .positional(positional)
                  .run(),
              vm);
    po::notify(vm);
  } catch (po::error& e) {
    return absl::InvalidArgumentError(common::ErrorMessage(e));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(e.what());
  }
  return vm;
}

}  // namespace

absl::StatusOr<Invocation> ParseCommandLine(int argc,
                                            const char* const argv[]) {
  absl::StatusOr<po::variables_map> vm = ParseFlags(argc, argv);
  if (!vm.ok()) return vm.status();
  Invocation inv;
  inv.search = DefaultOptions();
  if (vm->count("help")) {
    inv.job = Job::kHelp;
    return inv;
  }
  if (vm->count("version")) {
    inv.job = Job::kVersion;
    return inv;
  }
  // Flags first, then the file: po::store keeps the first value it sees,
  // so the command line wins over the config file.
  if (vm->count("config")) {
    if (absl::Status s = ReadConfigFile((*vm)["config"].as<std::string>(), *vm);
        !s.ok()) {
      return s;
    }
  }
  if (vm->count("log")) inv.log_file = (*vm)["log"].as<std::string>();
  if (vm->count("weights")) {
    inv.weights_file = (*vm)["weights"].as<std::string>();
  }
  if (vm->count("weights-multi")) {
    inv.weights_multi_file = (*vm)["weights-multi"].as<std::string>();
  }
  if (absl::Status s = ApplySearchFlags(*vm, inv.search); !s.ok()) return s;
  if (absl::Status s = ApplyJob(*vm, inv); !s.ok()) return s;
  if (absl::Status s = ApplyPerftFlags(*vm, inv); !s.ok()) return s;
  if (absl::Status s = ApplyAnalysisFlags(*vm, inv); !s.ok()) return s;
  if (absl::Status s = ApplySpeedtestFlags(*vm, inv); !s.ok()) return s;
  return inv;
}

std::string Usage() {
  po::options_description shown(
      "Usage: wallgo [OPTIONS]            play over the text protocol "
      "(stdin/stdout)\n"
      "       wallgo perft [DEPTH] [...]  count move sequences\n"
      "       wallgo bench [OPTIONS]      search the bench positions\n"
      "       wallgo speedtest [OPTIONS]  playouts a second at 1, 2, 4 ... "
      "threads\n"
      "       wallgo analysis [OPTIONS]   JSON analysis queries, one a line");
  shown.add(GeneralFlags())
      .add(SearchFlags(/*with_hidden=*/false))
      .add(PerftFlags())
      .add(AnalysisFlags())
      .add(SpeedtestFlags());
  std::ostringstream text;
  text << shown;
  return text.str();
}

}  // namespace wallgo::protocol
