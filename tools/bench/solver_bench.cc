// How often the endgame solver proves positions near the end of self-play
// games: plays seeded games of each variant with the graph search (a level
// whose move choice is randomised, so that the games differ), then solves
// the positions 2 to 10 plies before each game's end within a time budget
// each, and prints the share proven by variant and by distance to the end.
// With --out, writes every sampled position and what the solver found as
// JSON lines (docs/solver.md, "Measuring").
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "boost/program_options.hpp"
#include "common/version/version.h"
#include "common/version_option.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "search/search.h"
#include "search/solver/solver.h"
#include "tools/bench/tool_flags.h"

namespace wallgo::search {
namespace {

namespace po = boost::program_options;

struct BenchOptions {
  int games = 10;  // per variant
  std::string variants = "2p,2p-mobile,3p,4p";
  int level = 6;
  double seconds = 1.0;
  // A node budget instead (0: none): the same search node for node, so that
  // two builds' speeds compare by time alone.
  int64_t nodes = 0;
  int min_back = 2, max_back = 10;
  // After this many unproven distances in a row in one game, the farther
  // ones are written as unproven without a search (0: solve them all).
  int give_up_after = 0;
  uint64_t seed = 1;
  int hash_mb = 64;
  std::string out;
  bool cpu_time = false;
  bool reduced = false;  // the solver with its settled-region reduction
  bool no_horizon_bounds = false;  // the old horizon: a loss or a win
  std::string positions;           // solve these position strings, one a line
  // With `positions`: one table from line to line, as the engine keeps it
  // through a game; an empty line starts the next game with an empty one.
  bool keep_table = false;
  std::string position;  // solve this one position, printing each iteration
};

// The variants by name: the default rules, and the rule sheets' options.
Rules VariantRules(const std::string& name) {
  if (name == "2p") return Rules::Default(2);
  Rules r = Rules::Default(2);
  if (name == "2p-empty") {
    r.setup = SetupRule::kEmpty;
  } else if (name == "2p-mobile") {
    r.stay = StayRule::kMobile;
  } else if (name == "2p-wall-limit-20") {
    r.wall_limit = 20;
  } else if (name == "3p" || name == "4p") {
    r = Rules::Default(name == "3p" ? 3 : 4);
  } else {
    throw po::error(
        absl::StrCat("unknown variant ", name,
                     " (2p, 2p-empty, 2p-mobile, 2p-wall-limit-20, 3p, 4p)"));
  }
  return r;
}

// One self-play game from the start of `rules`: every position, the final
// one included.
std::vector<Position> SelfPlay(const Rules& rules, const BenchOptions& o,
                               uint64_t seed) {
  SearchOptions so;
  so.level = o.level;
  so.seed = seed;
  so.hash_mb = o.hash_mb;
  std::unique_ptr<Searcher> searcher = MakeSearcher(so);
  absl::StatusOr<Game> game = Game::New(rules);
  std::vector<Position> line{game->position()};
  while (!game->is_over()) {
    const Move move = searcher->Search(game->position(), {}, {}, 1.0).best;
    if (!game->Play(game->position().to_move(), move).ok()) break;
    line.push_back(game->position());
  }
  return line;
}

// Positions, those proven, and those whose result (not yet the margin) is
// proven too.
struct Tally {
  int positions = 0, proven = 0, results = 0;
  double seconds = 0;
  void Add(const SolveResult& r) {
    ++positions;
    proven += r.proven ? 1 : 0;
    results += r.proven || (r.range && r.range->result_known()) ? 1 : 0;
    seconds += r.seconds;
  }
  static std::string Header() {
    return absl::StrFormat("%-18s %5s %6s  %6s  %7s  %6s  %8s", "", "pos",
                           "proven", "share", "results", "share", "mean");
  }
  std::string Row(const std::string& label) const {
    const double n = std::max(1, positions);
    return absl::StrFormat("%-18s %5d %6d  %5.1f%%  %7d  %5.1f%%  %6.3f s",
                           label, positions, proven, 100.0 * proven / n,
                           results, 100.0 * results / n, seconds / n);
  }
};

// "a","b" (moves need no escaping).
std::string Quoted(const std::vector<std::string>& words) {
  std::vector<std::string> quoted;
  for (const std::string& w : words)
    quoted.push_back(absl::StrCat("\"", w, "\""));
  return absl::StrJoin(quoted, ",");
}

std::string Summary(const Position& pos, const SolveResult& r) {
  std::vector<std::string> optimal, pv;
  for (const Move& m : r.optimal) optimal.push_back(MoveName(m));
  for (const Move& m : r.pv) pv.push_back(MoveName(m));
  const PlayerValue v = r.mover_value(pos);
  std::string range;
  if (r.range) {
    range = absl::StrFormat(
        " range %s %d %s %d", ResultWord(r.range->least.share12),
        r.range->least.margin, ResultWord(r.range->most.share12),
        r.range->most.margin);
  }
  std::vector<std::string> refuted;
  for (const Move& m : r.refuted) refuted.push_back(MoveName(m));
  return absl::StrFormat(
      "depth %d nodes %d seconds %.3f %s %s margin %d%s %s %s pv %s%s%s",
      r.depth, r.nodes, r.seconds, r.proven ? "proven" : "unproven",
      ResultWord(v.share12), v.margin, range,
      // As the protocol says it: "optimal-known" lists only some of them.
      r.all_optimal_known ? "optimal" : "optimal-known",
      absl::StrJoin(optimal, ","), absl::StrJoin(pv, " "),
      refuted.empty() ? "" : " refuted ", absl::StrJoin(refuted, ","));
}

// The solver's budget and options as the command line gives them.
SolverLimits LimitsOf(const BenchOptions& o) {
  SolverLimits limits;
  limits.seconds = o.nodes > 0 ? 0 : o.seconds;
  limits.nodes = o.nodes;
  limits.cpu_time = o.cpu_time;
  limits.hash_mb = o.hash_mb;
  limits.settled_reduction = o.reduced;
  limits.horizon_bounds = !o.no_horizon_bounds;
  return limits;
}

// Solves one position, printing every iteration of the horizon.
int SolveOne(const BenchOptions& o) {
  absl::StatusOr<Position> pos = ParsePosition(o.position);
  if (!pos.ok()) throw po::error(std::string(pos.status().message()));
  SolverLimits limits = LimitsOf(o);
  const SolveResult r = Solve(*pos, limits, [&](const SolveResult& step) {
    std::cout << Summary(*pos, step) << "\n";
  });
  std::cout << Summary(*pos, r) << "\nregions: " << r.regions.settled_regions
            << " settled, " << r.regions.contested_regions << " contested ("
            << r.regions.contested_cells << " cells), "
            << (r.regions.independent ? "independent" : r.regions.reason)
            << "\n";
  return r.proven ? 0 : 1;
}

std::string JsonLine(const std::string& variant, uint64_t game_seed, int back,
                     const Position& pos, const SolveResult& r, bool skipped) {
  std::vector<std::string> optimal, pv;
  for (const Move& m : r.optimal) optimal.push_back(MoveName(m));
  for (const Move& m : r.pv) pv.push_back(MoveName(m));
  const PlayerValue v = r.mover_value(pos);
  return absl::StrCat(
      "{\"variant\":\"", variant, "\",\"game_seed\":", game_seed,
      ",\"plies_to_end\":", back, ",\"position\":\"", PositionString(pos),
      "\",\"proven\":", r.proven ? "true" : "false", ",\"result\":\"",
      r.proven ? ResultWord(v.share12) : "unproven", "\",\"margin\":", v.margin,
      ",\"optimal\":[", Quoted(optimal), "]",
      ",\"all_optimal\":", r.all_optimal_known ? "true" : "false", ",\"pv\":\"",
      absl::StrJoin(pv, " "),
      "\",\"seconds\":", absl::StrFormat("%.3f", r.seconds),
      ",\"nodes\":", r.nodes, skipped ? ",\"skipped\":true" : "", "}");
}

// Solves every position string of a file (one a line; empty lines part
// games), printing the share proven.
int SolveFile(const BenchOptions& o) {
  std::ifstream in(o.positions);
  if (!in) throw po::error("cannot read " + o.positions);
  Tally all;
  std::unique_ptr<SolverMemory> memory;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) {
      memory.reset();
      continue;
    }
    absl::StatusOr<Position> pos = ParsePosition(line);
    if (!pos.ok()) throw po::error(std::string(pos.status().message()));
    SolverLimits limits = LimitsOf(o);
    if (o.keep_table && memory == nullptr) {
      memory = std::make_unique<SolverMemory>(o.hash_mb);
    }
    const SolveResult r =
        memory ? Solve(*pos, limits, *memory) : Solve(*pos, limits);
    all.Add(r);
    std::cout << Summary(*pos, r) << "\n";
  }
  std::cout << Tally::Header() << "\n" << all.Row("all") << "\n";
  return 0;
}

int Run(const BenchOptions& o) {
  if (!o.position.empty()) return SolveOne(o);
  if (!o.positions.empty()) return SolveFile(o);
  std::ofstream out;
  if (!o.out.empty()) {
    out.open(o.out);
    if (!out) throw po::error("cannot write " + o.out);
  }
  std::map<std::string, Tally> by_variant;
  std::map<int, Tally> by_distance;
  Tally all;
  const std::vector<std::string> names = absl::StrSplit(o.variants, ',');
  for (const std::string& name : names) {
    const Rules rules = VariantRules(name);
    for (int g = 0; g < o.games; ++g) {
      const uint64_t seed = o.seed * 1000003 + g;
      const std::vector<Position> line = SelfPlay(rules, o, seed);
      int unproven_in_a_row = 0;
      for (int back = o.min_back; back <= o.max_back; ++back) {
        if (back >= static_cast<int>(line.size())) break;
        const Position& pos = line[line.size() - 1 - back];
        if (pos.in_setup()) break;
        const bool skipped =
            o.give_up_after > 0 && unproven_in_a_row >= o.give_up_after;
        SolverLimits limits = LimitsOf(o);
        const SolveResult r = skipped ? SolveResult{} : Solve(pos, limits);
        unproven_in_a_row = r.proven ? 0 : unproven_in_a_row + 1;
        by_variant[name].Add(r);
        by_distance[back].Add(r);
        all.Add(r);
        // Flushed a line at a time, so that a stopped run keeps its work.
        if (out)
          out << JsonLine(name, seed, back, pos, r, skipped) << std::endl;
      }
    }
  }
  std::cout << Tally::Header() << "\n";
  for (const auto& [name, t] : by_variant) std::cout << t.Row(name) << "\n";
  for (const auto& [back, t] : by_distance) {
    std::cout << t.Row(absl::StrCat(back, " plies to end")) << "\n";
  }
  std::cout << all.Row("all") << "\n";
  return 0;
}

}  // namespace
}  // namespace wallgo::search

int main(int argc, char** argv) {
  if (wallgo::AnsweredVersion(argc, argv, "solver_bench", std::cout)) return 0;
  namespace po = boost::program_options;
  wallgo::search::BenchOptions o;
  po::options_description desc("solver_bench options");
  wallgo::common::AddVersionOption(desc);
  desc.add_options()("help", "this help")(
      "games", po::value(&o.games)->default_value(o.games),
      "self-play games per variant")(
      "variants", po::value(&o.variants)->default_value(o.variants),
      "comma-separated: 2p, 2p-empty, 2p-mobile, 2p-wall-limit-20, 3p, 4p")(
      "level", po::value(&o.level)->default_value(o.level),
      "the self-play level (5-7 randomise their moves)")(
      "seconds", po::value(&o.seconds)->default_value(o.seconds),
      "the solver's time per position")(
      "nodes", po::value(&o.nodes)->default_value(o.nodes),
      "the solver's nodes per position instead of a time (0: none)")(
      "cpu-time", po::bool_switch(&o.cpu_time),
      "count --seconds in CPU time (a shared machine)")(
      "settled-reduction", po::bool_switch(&o.reduced),
      "solve with the settled-region reduction (off by default)")(
      "no-horizon-bounds", po::bool_switch(&o.no_horizon_bounds),
      "count horizon positions as lost or won, not by their bounds")(
      "min-back", po::value(&o.min_back)->default_value(o.min_back),
      "fewest plies before the end sampled")(
      "max-back", po::value(&o.max_back)->default_value(o.max_back),
      "most plies before the end sampled")(
      "give-up-after",
      po::value(&o.give_up_after)->default_value(o.give_up_after),
      "after this many unproven distances in a row in a game, write the "
      "farther ones unproven without solving them (0: solve all)")(
      "seed", po::value(&o.seed)->default_value(o.seed), "the games' seed")(
      "hash", po::value(&o.hash_mb)->default_value(o.hash_mb),
      "MiB for the solver's table and the self-play search")(
      "out", po::value(&o.out), "write every position as a JSON line here")(
      "positions", po::value(&o.positions),
      "solve the position strings of this file (one a line) instead")(
      "keep-table", po::bool_switch(&o.keep_table),
      "with --positions, keep the solver's table from one line to the next "
      "as the engine does through a game (an empty line: the next game)")(
      "position", po::value(&o.position),
      "solve this position string instead, printing each iteration");
  try {
    if (!wallgo::search::ParseFlags(desc, argc, argv)) return 0;
    return wallgo::search::Run(o);
  } catch (const po::error& e) {
    std::cerr << "solver_bench: " << e.what() << "\n";
    return 2;
  }
}
