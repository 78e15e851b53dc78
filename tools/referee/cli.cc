#include "tools/referee/cli.h"

#include <fstream>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "boost/program_options.hpp"
#include "common/batch/preemption.h"
#include "common/batch/shard.h"
#include "common/program_options_error.h"
#include "common/version_option.h"
#include "engine/notation.h"
#include "tools/records/records.h"
#include "tools/referee/match.h"
#include "tools/referee/replay.h"
#include "tools/referee/report.h"

namespace wallgo::referee {

using records::MergeRecords;
using records::RecordToJson;
using records::RunAnnotate;

namespace po = boost::program_options;
namespace {

absl::Status Bad(const std::string& message) {
  return absl::InvalidArgumentError(message);
}

// Numbers separated by `separator`, exactly `count` of them.
absl::StatusOr<std::vector<double>> Numbers(const std::string& text,
                                            char separator, size_t count,
                                            const std::string& flag) {
  std::vector<double> values;
  for (absl::string_view part : absl::StrSplit(text, separator)) {
    double value;
    if (!absl::SimpleAtod(part, &value)) break;
    values.push_back(value);
  }
  if (values.size() != count) {
    return Bad(absl::StrCat("bad ", flag, " '", text, "'"));
  }
  return values;
}

absl::StatusOr<TimeControl> ParseTc(const std::string& text) {
  const size_t plus = text.find('+');
  absl::StatusOr<std::vector<double>> values =
      plus == std::string::npos ? Numbers(text + "+0", '+', 2, "--tc")
                                : Numbers(text, '+', 2, "--tc");
  if (!values.ok()) return values.status();
  if ((*values)[0] <= 0 || (*values)[1] < 0) {
    return Bad("--tc needs BASE > 0 and INC >= 0 seconds");
  }
  TimeControl tc;
  tc.base_s = (*values)[0];
  tc.increment_s = (*values)[1];
  return tc;
}

absl::StatusOr<SprtParams> ParseSprt(const std::string& text,
                                     const std::string& model) {
  absl::StatusOr<std::vector<double>> v = Numbers(text, ',', 4, "--sprt");
  if (!v.ok()) return v.status();
  SprtParams p{(*v)[0], (*v)[1], (*v)[2], (*v)[3]};
  if (!(p.elo0 < p.elo1) || p.alpha <= 0 || p.alpha >= 1 || p.beta <= 0 ||
      p.beta >= 1) {
    return Bad("--sprt needs elo0 < elo1 and 0 < alpha, beta < 1");
  }
  if (model == "trinomial") {
    p.model = SprtModel::kTrinomial;
  } else if (model != "pentanomial") {
    return Bad("--sprt-model is trinomial or pentanomial");
  }
  return p;
}

// --shard I/N (common/batch/shard.h) into 0-based fields.
absl::Status ParseShard(const std::string& text, int& shard_index,
                        int& shard_count) {
  absl::StatusOr<batch::Shard> shard = batch::ParseShard(text);
  if (!shard.ok()) return shard.status();
  shard_index = shard->index;
  shard_count = shard->count;
  return absl::OkStatus();
}

// "1,4,7-9": game numbers and ranges.
absl::StatusOr<std::set<int>> ParseGameList(const std::string& text) {
  std::set<int> games;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    const std::vector<std::string> ends = absl::StrSplit(part, '-');
    int first = 0, last = 0;
    const bool ok = ends.size() <= 2 && absl::SimpleAtoi(ends[0], &first) &&
                    absl::SimpleAtoi(ends.back(), &last) && first >= 1 &&
                    first <= last && last - first < 1000000;
    if (!ok) {
      return Bad(absl::StrCat("bad --games '", text,
                              "': numbers and ranges, e.g. 1,4,7-9"));
    }
    for (int g = first; g <= last; ++g) games.insert(g);
  }
  return games;
}

po::options_description MatchFlags() {
  po::options_description d("Match options");
  common::AddVersionOption(d);
  // clang-format off
  d.add_options()
      ("help,h", "this help")
      ("engine,e", po::value<std::vector<std::string>>()->composing(),
       "an engine: a shell command, or name=NAME:COMMAND; once per engine")
      ("games,n", po::value<int>()->default_value(2),
       "games in the whole match (all shards together)")
      ("concurrency,c", po::value<int>()->default_value(1), "games at once")
      ("movetime", po::value<double>(), "seconds per move (default 1)")
      ("tc", po::value<std::string>(), "BASE+INC: a clock per player, seconds")
      ("margin", po::value<double>()->default_value(0.5),
       "seconds an engine may overrun its time before it is late")
      ("command-timeout", po::value<double>()->default_value(10),
       "seconds for any command but genmove (else the engine hangs)")
      ("timeout-rule", po::value<std::string>()->default_value("forfeit"),
       "forfeit | random: a late player loses, or gets a random turn")
      ("rules", po::value<std::string>()->default_value(""),
       "the newgame keys, e.g. \"players=2 setup=empty\"")
      ("openings", po::value<std::string>(),
       "file: one opening per line (moves or a position string)")
      ("seed", po::value<uint64_t>()->default_value(1),
       "seed of random openings and random turns")
      ("opening-plies", po::value<int>()->default_value(2),
       "random moves in a random opening")
      ("records", po::value<std::string>(), "JSON Lines file of game records")
      ("engine-log", po::value<std::string>(),
       "file for the engines' standard error (default RECORDS.engines.log, "
       "or wallgo-referee-engines.log)")
      ("sprt", po::value<std::string>(), "elo0,elo1,alpha,beta: stop early")
      ("sprt-model", po::value<std::string>()->default_value("pentanomial"),
       "pentanomial (GSPRT over game pairs) | trinomial (cutechess)")
      ("resume", "continue the records file, playing only missing games")
      ("shard", po::value<std::string>(),
       "I/N: play only the I-th of N disjoint parts (whole game pairs)")
      ("gauntlet", "first engine against each other one, not round robin")
      ("quiet,q", "no per-game lines or summaries");
  // clang-format on
  return d;
}

po::options_description AnnotateFlags() {
  po::options_description d("Annotate options");
  // clang-format off
  d.add_options()
      ("help,h", "this help")
      ("records", po::value<std::string>(), "the games (JSON Lines records)")
      ("engine,e", po::value<std::string>(),
       "the analysing engine: a shell command, or name=NAME:COMMAND")
      ("visits", po::value<int64_t>(), "visits per position")
      ("movetime", po::value<double>(), "seconds per position")
      ("games", po::value<std::string>(), "game numbers, e.g. 1,4,7-9 (all)")
      ("output,o", po::value<std::string>(),
       "annotated records (default RECORDS.annotated.jsonl)")
      ("resume", "continue the output file, annotating only missing games")
      ("shard", po::value<std::string>(),
       "I/N: annotate only the I-th of N parts (games dealt in turn)")
      ("command-timeout", po::value<double>()->default_value(10),
       "seconds for any command, on top of the thinking time")
      ("engine-log", po::value<std::string>(),
       "file for the engine's standard error (default OUTPUT.engines.log)")
      ("quiet,q", "no progress lines");
  // clang-format on
  return d;
}

po::options_description MergeFlags() {
  po::options_description d("Merge options");
  // clang-format off
  d.add_options()
      ("help,h", "this help")
      ("output,o", po::value<std::string>(), "write the merged records here")
      ("renumber",
       "the files are separate matches (other seeds, say), not shards of "
       "one: number each file's games and pairs on after the previous file's")
      ("sprt", po::value<std::string>(), "elo0,elo1,alpha,beta")
      ("sprt-model", po::value<std::string>()->default_value("pentanomial"),
       "pentanomial | trinomial");
  // clang-format on
  return d;
}

absl::StatusOr<po::variables_map> ParseFlags(
    const std::vector<std::string>& args, const po::options_description& d,
    const po::positional_options_description* positional = nullptr) {
  po::variables_map vm;
  try {
    po::command_line_parser parser(args);
    parser.options(d);
    if (positional != nullptr) parser.positional(*positional);
    po::store(parser.run(), vm);
    po::notify(vm);
  } catch (po::error& e) {
    return Bad(common::ErrorMessage(e));
  }
  return vm;
}

absl::Status FillTime(const po::variables_map& vm, MatchOptions& o) {
  if (vm.count("movetime") && vm.count("tc")) {
    return Bad("--movetime and --tc exclude each other");
  }
  if (vm.count("tc")) {
    absl::StatusOr<TimeControl> tc = ParseTc(vm["tc"].as<std::string>());
    if (!tc.ok()) return tc.status();
    o.time = *tc;
  }
  if (vm.count("movetime")) o.time.movetime_s = vm["movetime"].as<double>();
  if (!o.time.has_clock() && o.time.movetime_s <= 0) {
    return Bad("--movetime must be > 0");
  }
  o.margin_s = vm["margin"].as<double>();
  o.command_timeout_s = vm["command-timeout"].as<double>();
  const std::string rule = vm["timeout-rule"].as<std::string>();
  if (rule != "forfeit" && rule != "random") {
    return Bad("--timeout-rule is forfeit or random");
  }
  o.timeout_rule =
      rule == "random" ? TimeoutRule::kRandom : TimeoutRule::kForfeit;
  return absl::OkStatus();
}

absl::Status FillMatch(const po::variables_map& vm, MatchOptions& o) {
  if (vm.count("engine")) {
    o.engines = NameEngines(vm["engine"].as<std::vector<std::string>>());
  }
  o.games = vm["games"].as<int>();
  o.concurrency = vm["concurrency"].as<int>();
  if (absl::Status s = FillTime(vm, o); !s.ok()) return s;
  absl::StatusOr<Rules> rules = ParseRules(vm["rules"].as<std::string>());
  if (!rules.ok())
    return Bad(absl::StrCat("--rules: ", rules.status().message()));
  o.rules = *rules;
  if (vm.count("openings")) o.openings_file = vm["openings"].as<std::string>();
  o.seed = vm["seed"].as<uint64_t>();
  o.opening_plies = vm["opening-plies"].as<int>();
  if (vm.count("records")) o.records_file = vm["records"].as<std::string>();
  o.engine_log = vm.count("engine-log") ? vm["engine-log"].as<std::string>()
                 : o.records_file.empty()
                     ? std::string("wallgo-referee-engines.log")
                     : o.records_file + ".engines.log";
  if (vm.count("sprt")) {
    absl::StatusOr<SprtParams> sprt = ParseSprt(
        vm["sprt"].as<std::string>(), vm["sprt-model"].as<std::string>());
    if (!sprt.ok()) return sprt.status();
    o.sprt = *sprt;
  }
  o.resume = vm.count("resume") > 0;
  if (o.resume && o.records_file.empty())
    return Bad("--resume needs --records");
  if (vm.count("shard")) {
    if (absl::Status s = ParseShard(vm["shard"].as<std::string>(),
                                    o.shard_index, o.shard_count);
        !s.ok()) {
      return s;
    }
  }
  o.gauntlet = vm.count("gauntlet") > 0;
  o.quiet = vm.count("quiet") > 0;
  if (static_cast<int>(o.engines.size()) < o.rules.players) {
    return Bad(
        absl::StrCat("need at least ", o.rules.players, " engines (--engine)"));
  }
  return absl::OkStatus();
}

int RunMatchCommand(const MatchOptions& options, std::ostream& out,
                    std::ostream& err, std::stop_token stop) {
  absl::StatusOr<MatchResult> result = RunMatch(options, out, stop);
  if (!result.ok()) {
    err << "wallgo-referee: " << result.status().message() << "\n";
    return 1;
  }
  if (result->interrupted) {
    err << "wallgo-referee: interrupted after " << result->played
        << " games; the records hold whole games only: run again with "
           "--resume\n";
    return batch::kExitInterrupted;
  }
  if (!options.quiet) {
    out << "Match finished: " << result->played << " games played, "
        << result->records.size() << " in this "
        << (options.shard_count > 1 ? "shard" : "match") << "\n";
  }
  std::vector<std::string> names;
  for (const EngineSpec& e : options.engines) names.push_back(e.name);
  out << Summary(result->records, names, options.sprt);
  return 0;
}

int RunMergeCommand(const MergeCommand& merge, std::ostream& out,
                    std::ostream& err) {
  absl::StatusOr<std::vector<GameRecord>> records =
      MergeRecords(merge.files, merge.renumber);
  if (!records.ok()) {
    err << "wallgo-referee merge: " << records.status().message() << "\n";
    return 1;
  }
  if (!merge.output.empty()) {
    std::ofstream file(merge.output, std::ios::trunc);
    for (const GameRecord& r : *records) file << RecordToJson(r) << "\n";
    if (!file.flush()) {
      err << "wallgo-referee merge: cannot write " << merge.output << "\n";
      return 1;
    }
  }
  out << records->size() << " games from " << merge.files.size() << " files\n"
      << Summary(*records, {}, merge.sprt);
  return 0;
}

}  // namespace

absl::StatusOr<MatchCommand> ParseMatchCommand(
    const std::vector<std::string>& args) {
  absl::StatusOr<po::variables_map> vm = ParseFlags(args, MatchFlags());
  if (!vm.ok()) return vm.status();
  MatchCommand command;
  command.help = vm->count("help") > 0;
  if (command.help) return command;
  if (absl::Status s = FillMatch(*vm, command.options); !s.ok()) return s;
  return command;
}

absl::StatusOr<ReplayCommand> ParseReplayCommand(
    const std::vector<std::string>& args) {
  po::options_description d("Replay options");
  d.add_options()("help,h", "this help")(
      "commands", "print engine command lines (newgame, setup, play)")(
      "records", po::value<std::string>())("game", po::value<int>());
  po::positional_options_description positional;
  positional.add("records", 1).add("game", 1);
  absl::StatusOr<po::variables_map> vm = ParseFlags(args, d, &positional);
  if (!vm.ok()) return vm.status();
  ReplayCommand command;
  command.help = vm->count("help") > 0;
  if (command.help) return command;
  if (!vm->count("records")) return Bad("replay needs a records file");
  command.records = (*vm)["records"].as<std::string>();
  if (vm->count("game")) command.game = (*vm)["game"].as<int>();
  command.commands = vm->count("commands") > 0;
  return command;
}

absl::StatusOr<AnnotateCommand> ParseAnnotateCommand(
    const std::vector<std::string>& args) {
  po::positional_options_description positional;
  positional.add("records", 1);
  absl::StatusOr<po::variables_map> vm =
      ParseFlags(args, AnnotateFlags(), &positional);
  if (!vm.ok()) return vm.status();
  AnnotateCommand command;
  command.help = vm->count("help") > 0;
  if (command.help) return command;
  AnnotateOptions& o = command.options;
  if (!vm->count("records")) return Bad("annotate needs a records file");
  if (!vm->count("engine")) return Bad("annotate needs --engine");
  o.records = (*vm)["records"].as<std::string>();
  o.engine = NameEngines({(*vm)["engine"].as<std::string>()})[0];
  if (vm->count("visits")) o.visits = (*vm)["visits"].as<int64_t>();
  if (vm->count("movetime")) o.movetime_s = (*vm)["movetime"].as<double>();
  if (!vm->count("visits") && !vm->count("movetime")) o.visits = 1000;
  if ((o.visits > 0) == (o.movetime_s > 0)) {
    return Bad("give one of --visits N > 0 or --movetime X > 0");
  }
  if (vm->count("games")) {
    absl::StatusOr<std::set<int>> games =
        ParseGameList((*vm)["games"].as<std::string>());
    if (!games.ok()) return games.status();
    o.games = *games;
  }
  const std::string stem =
      o.records.size() > 6 && o.records.substr(o.records.size() - 6) == ".jsonl"
          ? o.records.substr(0, o.records.size() - 6)
          : o.records;
  o.output = vm->count("output") ? (*vm)["output"].as<std::string>()
                                 : stem + ".annotated.jsonl";
  if (o.output == o.records) {
    return Bad("--output must differ from the records file");
  }
  o.resume = vm->count("resume") > 0;
  if (vm->count("shard")) {
    if (absl::Status s = ParseShard((*vm)["shard"].as<std::string>(),
                                    o.shard_index, o.shard_count);
        !s.ok()) {
      return s;
    }
  }
  o.command_timeout_s = (*vm)["command-timeout"].as<double>();
  o.engine_log = vm->count("engine-log") ? (*vm)["engine-log"].as<std::string>()
                                         : o.output + ".engines.log";
  o.quiet = vm->count("quiet") > 0;
  return command;
}

absl::StatusOr<MergeCommand> ParseMergeCommand(
    const std::vector<std::string>& args) {
  po::options_description d = MergeFlags();
  d.add_options()("files", po::value<std::vector<std::string>>()->composing());
  po::positional_options_description positional;
  positional.add("files", -1);
  absl::StatusOr<po::variables_map> vm = ParseFlags(args, d, &positional);
  if (!vm.ok()) return vm.status();
  MergeCommand command;
  command.help = vm->count("help") > 0;
  if (command.help) return command;
  if (!vm->count("files")) return Bad("merge needs records files");
  command.files = (*vm)["files"].as<std::vector<std::string>>();
  if (vm->count("output")) command.output = (*vm)["output"].as<std::string>();
  command.renumber = vm->count("renumber") > 0;
  if (vm->count("sprt")) {
    absl::StatusOr<SprtParams> sprt = ParseSprt(
        (*vm)["sprt"].as<std::string>(), (*vm)["sprt-model"].as<std::string>());
    if (!sprt.ok()) return sprt.status();
    command.sprt = *sprt;
  }
  return command;
}

std::string Usage() {
  std::ostringstream text;
  text << "usage: wallgo-referee --engine CMD --engine CMD [options]\n"
          "       wallgo-referee replay RECORDS [GAME] [--commands]\n"
          "       wallgo-referee merge FILES... [--renumber] [--output FILE] "
          "[--sprt ...]\n"
          "       wallgo-referee annotate RECORDS --engine CMD "
          "[--visits N | --movetime X] [...]\n"
       << MatchFlags() << MergeFlags() << AnnotateFlags();
  return text.str();
}

int RefereeMain(const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err, std::stop_token stop) {
  const std::string sub = args.empty() ? "" : args[0];
  const std::vector<std::string> rest =
      sub == "replay" || sub == "merge" || sub == "annotate"
          ? std::vector<std::string>(args.begin() + 1, args.end())
          : args;
  const auto fail = [&](const absl::Status& status) {
    err << "wallgo-referee: " << status.message() << "\n" << Usage();
    return 2;
  };
  if (sub == "replay") {
    absl::StatusOr<ReplayCommand> replay = ParseReplayCommand(rest);
    if (!replay.ok()) return fail(replay.status());
    if (replay->help) return out << Usage(), 0;
    const absl::Status s =
        Replay(replay->records, replay->game, replay->commands, out);
    if (!s.ok()) err << "wallgo-referee replay: " << s.message() << "\n";
    return s.ok() ? 0 : 1;
  }
  if (sub == "annotate") {
    absl::StatusOr<AnnotateCommand> annotate = ParseAnnotateCommand(rest);
    if (!annotate.ok()) return fail(annotate.status());
    if (annotate->help) return out << Usage(), 0;
    const absl::Status s = RunAnnotate(annotate->options, out, err, stop);
    if (stop.stop_requested()) {
      err << "wallgo-referee annotate: interrupted; the output holds whole "
             "games only: run again with --resume\n";
      return batch::kExitInterrupted;
    }
    if (!s.ok()) err << "wallgo-referee annotate: " << s.message() << "\n";
    return s.ok() ? 0 : 1;
  }
  if (sub == "merge") {
    absl::StatusOr<MergeCommand> merge = ParseMergeCommand(rest);
    if (!merge.ok()) return fail(merge.status());
    if (merge->help) return out << Usage(), 0;
    return RunMergeCommand(*merge, out, err);
  }
  absl::StatusOr<MatchCommand> match = ParseMatchCommand(rest);
  if (!match.ok()) return fail(match.status());
  if (match->help) return out << Usage(), 0;
  return RunMatchCommand(match->options, out, err, stop);
}

}  // namespace wallgo::referee
