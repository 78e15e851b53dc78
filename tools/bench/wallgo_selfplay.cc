// wallgo-selfplay: in-process matches between levels or search variants,
// the bench, and a speed probe, for measuring the search without the
// protocol binary or the referee.
//
//   wallgo-selfplay --mode match --a 10 --b 2 --games 20 --movetime 0.2
//   wallgo-selfplay --mode bench
//   wallgo-selfplay --mode speed --threads 2 --movetime 5
//   wallgo-selfplay --mode curve --threads 2 --hash 256 --seconds 600
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <thread>

#include "absl/strings/str_format.h"
#include "boost/program_options.hpp"
#include "common/version/version.h"
#include "common/version_option.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "protocol/options.h"
#include "search/bench.h"
#include "search/levels.h"
#include "search/mcts.h"

namespace po = boost::program_options;
using namespace wallgo;
using namespace wallgo::search;

namespace {

// One side of a match: a level, the engine's options it changes (rows of
// the option table, tunables included: "cpuct=1.4"), and the classic
// evaluator's knobs for levels 5..10.
struct Side {
  int level = 10;
  int64_t visits = 0;
  std::vector<std::string> options;  // NAME=VALUE
  std::string prior = "child";       // child, grouped or uniform
  MctsConfig config;  // all but max_visits and move_temperature (the level's)
};

struct MatchOptions {
  Rules rules;
  Side a, b;
  int games = 10;
  int random_plies = 2;
  double movetime_s = 0.2;
  int threads = 1;
  int hash_mb = 64;
  uint64_t seed = 1;
};

// `options` with the side's NAME=VALUE settings, checked by the option table.
SearchOptions WithSideOptions(SearchOptions options, const Side& side) {
  for (const std::string& setting : side.options) {
    const size_t eq = setting.find('=');
    const protocol::OptionSpec* spec =
        eq == std::string::npos
            ? nullptr
            : protocol::FindOption(absl::string_view(setting).substr(0, eq));
    if (spec == nullptr) {
      throw po::error(
          "an option is NAME=VALUE with NAME an engine option, "
          "not '" +
          setting + "'");
    }
    const absl::Status set =
        protocol::SetOptionFromText(options, *spec, setting.substr(eq + 1));
    if (!set.ok()) throw po::error(std::string(set.message()));
  }
  return options;
}

std::unique_ptr<Searcher> MakeSide(const Side& side, const MatchOptions& m,
                                   uint64_t seed) {
  SearchOptions o = ClassicProfile();
  o.level = side.level;
  o.threads = m.threads;
  o.hash_mb = m.hash_mb;
  o.seed = seed;
  o.visits = side.visits;
  o.movetime_s = m.movetime_s;
  o = WithSideOptions(o, side);
  if (side.level < 5) return MakeLevelPlayer(o);
  MctsConfig config = side.config;
  const MctsConfig level = LevelConfig(side.level);
  config.max_visits = level.max_visits;
  config.move_temperature = level.move_temperature;
  const std::map<std::string, PriorKind> kinds = {
      {"grouped", PriorKind::kGrouped},
      {"child", PriorKind::kChildEval},
      {"uniform", PriorKind::kUniform}};
  const auto kind = kinds.find(side.prior);
  if (kind == kinds.end()) {
    throw po::error("prior must be grouped, child or uniform, not " +
                    side.prior);
  }
  config.classic.prior = kind->second;
  return std::make_unique<MctsSearcher>(o, config);
}

// Plays one game; `a_seat` is A's colour index (B takes every other seat).
// Returns the result and the position the engines started from.
Result PlayGame(const MatchOptions& m, int a_seat, uint64_t opening_seed,
                uint64_t seed) {
  Game game = *Game::New(m.rules);
  std::mt19937_64 rng(opening_seed);
  MoveList moves;
  for (int i = 0; i < m.random_plies && !game.is_over(); ++i) {
    GenerateMoves(game.position(), moves);
    const Move move =
        moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)];
    (void)game.Play(game.position().to_move(), move);
  }
  std::unique_ptr<Searcher> a = MakeSide(m.a, m, seed);
  std::unique_ptr<Searcher> b = MakeSide(m.b, m, seed + 1);
  while (!game.is_over()) {
    const Position& pos = game.position();
    Searcher& mover = Index(pos.to_move()) == a_seat ? *a : *b;
    const Move move = mover.Search(pos, Limits{}, nullptr, 0).best;
    const absl::Status played = game.Play(pos.to_move(), move);
    if (!played.ok()) {
      std::cerr << "illegal move " << MoveName(move) << ": " << played << "\n";
      std::abort();
    }
  }
  return game.result();
}

// The game's scores, "red=12 blue=30 green=7".
std::string ScoreLine(const Result& r, int players) {
  std::string line;
  for (int p = 0; p < players; ++p) {
    absl::StrAppendFormat(&line, "%s%s=%d", p == 0 ? "" : " ",
                          ColourName(ColourAt(p)), r.sheet.score[p]);
  }
  return line;
}

void RunMatch(const MatchOptions& m) {
  const int players = m.rules.players;
  double a_points = 0, red_points = 0;
  int a_wins = 0, a_losses = 0, draws = 0;
  for (int g = 0; g < m.games; ++g) {
    // Each opening is played `players` times, A taking every seat in turn,
    // so that no seat's advantage counts for or against A.
    const int a_seat = g % players;
    const Result r =
        PlayGame(m, a_seat, m.seed * 1000 + g / players, m.seed + g * 7);
    const double a_share = r.win_share(a_seat);
    a_points += a_share;
    red_points += r.win_share(0);
    if (r.is_draw()) {
      ++draws;
    } else if (a_share > 0) {
      ++a_wins;
    } else {
      ++a_losses;
    }
    std::cout << absl::StrFormat("game %d: A=%s %s winners=%d A-share=%.2f\n",
                                 g + 1, ColourName(ColourAt(a_seat)),
                                 ScoreLine(r, players), r.winners, a_share);
  }
  const double score = a_points / m.games;
  const double clipped = std::min(0.99, std::max(0.01, score));
  std::cout << absl::StrFormat(
      "A (level %d) vs B (level %d), %d games: A +%d -%d =%d, score %.3f "
      "(Elo %+.0f), red's share %.3f\n",
      m.a.level, m.b.level, m.games, a_wins, a_losses, draws, score,
      -400 * std::log10(1 / clipped - 1), red_points / m.games);
}

void RunBenchMode(const SearchOptions& o) {
  const BenchReport r = RunBench(o);
  std::cout << absl::StrFormat(
      "bench: %d positions, nodes %d, visits %d, %.2f s, %.0f nodes/s, %.0f "
      "visits/s\n",
      r.positions, r.nodes, r.visits, r.seconds, r.nodes_per_second,
      r.visits_per_second);
}

// Memory a node takes with its edges and table slots (every node has edges).
double BytesPerNode(const GraphStats& g) {
  if (g.nodes == 0) return 0;
  const double slot_bytes = 4.0 * 4;  // the table has up to 4 slots a node
  return sizeof(Node) + slot_bytes +
         static_cast<double>(g.edges) * sizeof(search::Edge) / g.nodes;
}

// Playouts per second from the start and from a middle-game bench position.
void RunSpeed(const SearchOptions& o, const std::string& where) {
  for (int index : {0, 5}) {
    if (where != "both" && where != (index == 0 ? "start" : "middle")) continue;
    MctsSearcher searcher(o);
    // CPU time too: on a shared machine the threads may not get a core each.
    const std::clock_t cpu_start = std::clock();
    const SearchResult r = searcher.Search(BenchStart(BenchPositions()[index]),
                                           Limits{}, nullptr, 0);
    const double cpu_s =
        static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    std::cout << absl::StrFormat(
        "%s: threads %d, %d playouts in %.2f s = %.0f playouts/s (%.2f CPU s, "
        "%.0f playouts per CPU s), %d nodes, %.1f per playout, "
        "best %s; graph: %d/%d nodes, %d/%d edges, %d MB, %.0f bytes a node, "
        "%d recyclings\n",
        index == 0 ? "start" : "middle", o.threads, r.info.total_visits,
        r.info.elapsed_s, r.info.total_visits / r.info.elapsed_s, cpu_s,
        r.info.total_visits / cpu_s, r.info.nodes,
        static_cast<double>(searcher.last_nodes_visited()) /
            std::max<int64_t>(1, r.info.total_visits),
        MoveName(r.best), searcher.graph_stats().nodes,
        searcher.graph_stats().node_capacity, searcher.graph_stats().edges,
        searcher.graph_stats().edge_capacity,
        searcher.graph_stats().bytes >> 20,
        BytesPerNode(searcher.graph_stats()), searcher.last_recycles());
  }
}

// Counts the leaves the search creates (value-only evaluations) and the
// prior requests (expansions and added chunks).
class LeafCounter : public Evaluator {
 public:
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override {
    (moves.empty() ? leaves : prior_calls)
        .fetch_add(1, std::memory_order_relaxed);
    return inner_.Evaluate(pos, moves, priors);
  }
  // Not a leaf: the first play urgency's estimate, as the engine makes it.
  Value ChildEstimate(const Position& child) const override {
    return inner_.ChildEstimate(child);
  }
  // A later chunk's priors, as the engine asks for them (no leaf value).
  void Priors(const Position& pos, std::span<const Move> moves,
              std::span<float> priors) const override {
    prior_calls.fetch_add(1, std::memory_order_relaxed);
    inner_.Priors(pos, moves, priors);
  }
  mutable std::atomic<int64_t> leaves{0}, prior_calls{0};

 private:
  ClassicEvaluator inner_;
};

// The process's resident memory now and at its peak, in MB (Linux).
std::pair<double, double> ResidentMb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  double rss = 0, peak = 0;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) rss = std::stod(line.substr(6)) / 1024;
    if (line.rfind("VmHWM:", 0) == 0) peak = std::stod(line.substr(6)) / 1024;
  }
  return {rss, peak};
}

// A long analysis of the position after c3 e3 c5 e5 and its
// curve every `interval_s`: time, playouts, nodes created and in the
// graph, the best move's PV length and win rate, resident memory.
void RunCurve(const SearchOptions& o, double seconds, double interval_s) {
  Game game = *Game::New(Rules{});
  for (const char* text : {"c3", "e3", "c5", "e5"}) {
    const Move move = *ParseMove(text);
    (void)game.Play(game.position().to_move(), move);
  }
  auto counter = std::make_shared<LeafCounter>();
  MctsConfig config;
  config.evaluator = counter;
  MctsSearcher searcher(o, config);
  Limits limits;
  limits.infinite = true;
  std::thread stopper([&searcher, seconds] {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    searcher.Stop();
  });
  std::cout << "seconds playouts created_nodes graph_nodes pv_length best "
               "winrate rss_mb peak_rss_mb prior_calls\n";
  double next = interval_s;
  searcher.Search(
      game.position(), limits,
      [&](const SearchInfo& info) {
        if (info.elapsed_s < next || info.candidates.empty()) return;
        next += interval_s;
        const auto [rss, peak] = ResidentMb();
        const Candidate& best = info.candidates.front();
        std::cout << absl::StrFormat("%.1f %d %d %d %d %s %.3f %.0f %.0f %d",
                                     info.elapsed_s, info.total_visits,
                                     counter->leaves.load(), info.nodes,
                                     best.pv.size(), MoveName(best.move),
                                     best.winrate, rss, peak,
                                     counter->prior_calls.load())
                  << std::endl;
      },
      0.05);
  stopper.join();
}

// The options of one side, named "<name>-...", plus "<name>" for its level.
void AddSideOptions(po::options_description& desc, const std::string& name,
                    Side& side, int level) {
  auto flag = [&name](const char* what) { return name + "-" + what; };
  ClassicEvaluatorConfig& c = side.config.classic;
  desc.add_options()(name.c_str(), po::value(&side.level)->default_value(level),
                     "level")(flag("visits").c_str(),
                              po::value(&side.visits)->default_value(0),
                              "playouts a move (0: by time)")(
      flag("option").c_str(),
      po::value(&side.options)->composing()->value_name("NAME=VALUE"),
      "an engine option for this side (repeatable), tunables too: cpuct, "
      "cpuct_multi, fpu_reduction, fpu_prior, deferred_visits, "
      "thread_affinity, ...")(
      flag("prior").c_str(), po::value(&side.prior)->default_value(side.prior),
      "priors: child (every child evaluated), grouped or uniform")(
      flag("fpu-best-child").c_str(),
      po::value(&side.config.fpu_from_best_child)
          ->default_value(side.config.fpu_from_best_child),
      "first play urgency from the best-prior child's value (1) or the "
      "parent's (0)")(
      flag("playout-moves").c_str(),
      po::value(&c.playout_moves)->default_value(c.playout_moves),
      "random moves before a leaf evaluation, 2 players")(
      flag("multi-playout-moves").c_str(),
      po::value(&c.multi_player_playout_moves)
          ->default_value(c.multi_player_playout_moves),
      "random moves before a leaf evaluation, 3 or 4 players")(
      flag("prior-temp").c_str(),
      po::value(&c.prior_temperature)->default_value(c.prior_temperature),
      "prior softmax temperature");
}

}  // namespace

int main(int argc, char** argv) {
  if (wallgo::AnsweredVersion(argc, argv, "wallgo-selfplay", std::cout))
    return 0;
  std::string mode = "match", rules_text = "players=2", speed_at = "both";
  double curve_s = 60, curve_every_s = 5;
  MatchOptions m;
  SearchOptions o = ClassicProfile();
  po::options_description desc("wallgo-selfplay options");
  wallgo::common::AddVersionOption(desc);
  desc.add_options()("help", "this text")(
      "mode", po::value(&mode)->default_value("match"),
      "match, bench, speed or curve")(
      "at", po::value(&speed_at)->default_value("both"),
      "speed from: start, middle or both")(
      "rules", po::value(&rules_text)->default_value("players=2"), "rules")(
      "games", po::value(&m.games)->default_value(10), "games (match)")(
      "random-plies", po::value(&m.random_plies)->default_value(2),
      "random opening moves")(
      "movetime", po::value(&m.movetime_s)->default_value(0.2), "s per move")(
      "threads", po::value(&m.threads)->default_value(1), "search threads")(
      "hash", po::value(&m.hash_mb)->default_value(64), "MB per searcher")(
      "visits", po::value(&o.visits)->default_value(0), "visits (bench)")(
      "level", po::value(&o.level)->default_value(10), "level (bench)")(
      "seed", po::value(&m.seed)->default_value(1), "seed")(
      "seconds", po::value(&curve_s)->default_value(60), "curve: length")(
      "interval", po::value(&curve_every_s)->default_value(5),
      "curve: seconds between lines");
  AddSideOptions(desc, "a", m.a, 10);
  AddSideOptions(desc, "b", m.b, 2);
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, desc), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }
  const absl::StatusOr<Rules> rules = ParseRules(rules_text);
  if (!rules.ok()) {
    std::cerr << rules.status() << "\n";
    return 1;
  }
  m.rules = *rules;
  try {  // the sides' options, checked before any game
    for (const auto* side : {&m.a, &m.b})
      WithSideOptions(ClassicProfile(), *side);
  } catch (const po::error& e) {
    std::cerr << "wallgo-selfplay: " << e.what() << "\n";
    return 1;
  }
  o.threads = m.threads;
  o.hash_mb = m.hash_mb;
  o.seed = m.seed;
  o.movetime_s = vm["movetime"].defaulted() ? 0 : m.movetime_s;
  if (mode == "bench") {
    RunBenchMode(o);
  } else if (mode == "speed") {
    RunSpeed(o, speed_at);
  } else if (mode == "curve") {
    RunCurve(o, curve_s, curve_every_s);
  } else {
    RunMatch(m);
  }
  return 0;
}
