// Games between the fixed-depth players, for tuning them and measuring how
// deep alpha-beta gets (not a test). Colours alternate each game pair; each
// pair starts from the same random placements.
//   build-<dir>/bin/players_match --a ab --b greedy --games 20 --movetime 1
//   build-<dir>/bin/players_match --a ab --probe 20 --movetime 1
// Players: random, greedy, ab, or ab with settings:
// ab/maxdepth=4/order=3/beam=16 (share and tempo in hundredths: EvalOptions).
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "boost/program_options.hpp"
#include "common/version/version.h"
#include "common/version_option.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "search/players/alphabeta.h"
#include "search/players/greedy.h"
#include "tools/bench/tool_flags.h"

namespace wallgo::search {
namespace {

struct DepthStats {
  double sum = 0;
  int searches = 0;
};

std::unique_ptr<Searcher> MakePlayer(const std::string& spec,
                                     const SearchOptions& options) {
  const std::vector<std::string> parts = absl::StrSplit(spec, '/');
  if (parts[0] == "random") return std::make_unique<RandomPlayer>(options);
  if (parts[0] == "greedy") return std::make_unique<GreedyPlayer>(options);
  if (parts[0] != "ab") return nullptr;
  AlphaBetaConfig config;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::vector<std::string> kv = absl::StrSplit(parts[i], '=');
    int value = 0;
    if (kv.size() != 2 || !absl::SimpleAtoi(kv[1], &value)) return nullptr;
    if (kv[0] == "maxdepth") config.max_depth = value;
    if (kv[0] == "order") config.eval_ordering_depth = value;
    if (kv[0] == "beam") config.beam_width = value;
    if (kv[0] == "share") config.eval.first_turn_share = value / 100.0f;
    if (kv[0] == "tempo") config.eval.tempo_cells = value / 100.0f;
  }
  return std::make_unique<AlphaBetaPlayer>(options, config);
}

// Plays one game; returns the winners' bits (by colour index).
unsigned PlayGame(const Rules& rules, std::vector<Searcher*> seats,
                  int random_placements, uint64_t opening_seed,
                  std::vector<DepthStats>& depth) {
  Position pos = *Position::Start(rules);
  std::mt19937_64 rng(opening_seed);
  for (int i = 0; i < random_placements && pos.in_setup(); ++i) {
    MoveList moves;
    GenerateMoves(pos, moves);
    pos.Play(moves[rng() % moves.size()]);
  }
  for (Searcher* s : seats) s->Clear();
  while (!IsGameOver(pos)) {
    const int seat = Index(pos.to_move());
    const SearchResult r = seats[seat]->Search(pos, {}, nullptr, 10);
    if (auto* ab = dynamic_cast<AlphaBetaPlayer*>(seats[seat]);
        ab != nullptr && !pos.in_setup()) {
      depth[seat].sum += ab->completed_depth();
      ++depth[seat].searches;
    }
    if (!CheckMove(pos, pos.to_move(), r.best).ok()) {
      std::cerr << "illegal move " << MoveName(r.best) << "\n";
      return 0;
    }
    pos.Play(r.best);
  }
  return ComputeResult(pos).winners;
}

// Middle-game 2-player positions: the 8th to 16th turn of play of
// alpha-beta self-play games (20000 nodes a move) from random placements.
std::vector<Position> MiddleGames(int count) {
  std::vector<Position> out;
  SearchOptions options = ClassicProfile();
  options.visits = 20000;
  options.hash_mb = 16;
  AlphaBetaPlayer player(options);
  for (int g = 0; static_cast<int>(out.size()) < count; ++g) {
    std::vector<DepthStats> unused(kMaxPlayers);
    Position pos = *Position::Start(Rules::Default(2));
    std::mt19937_64 rng(1000 + g);
    const int wanted_turn = 8 + g % 9;
    int turn = 0;
    player.Clear();
    while (!IsGameOver(pos) && turn < wanted_turn) {
      MoveList moves;
      GenerateMoves(pos, moves);
      pos.Play(pos.placements_done() < 2
                   ? moves[rng() % moves.size()]
                   : player.Search(pos, {}, nullptr, 10).best);
      if (!pos.in_setup()) ++turn;
    }
    if (!IsGameOver(pos)) out.push_back(pos);
  }
  return out;
}

// How deep `spec` gets in `movetime` seconds on middle-game positions.
int ProbeDepth(const std::string& spec, double movetime, int count) {
  SearchOptions options = ClassicProfile();
  options.movetime_s = movetime;
  options.hash_mb = 64;
  std::unique_ptr<Searcher> player = MakePlayer(spec, options);
  auto* ab = dynamic_cast<AlphaBetaPlayer*>(player.get());
  if (ab == nullptr) {
    std::cerr << "--probe needs an alpha-beta player\n";
    return 2;
  }
  std::map<int, int> histogram;
  double seconds = 0;
  int64_t nodes = 0;
  for (const Position& pos : MiddleGames(count)) {
    ab->Clear();
    const SearchResult r = ab->Search(pos, {}, nullptr, 10);
    ++histogram[ab->completed_depth()];
    seconds += r.info.elapsed_s;
    nodes += r.info.nodes;
    std::printf("depth %d nodes %lld time %.2fs move %s  %s\n",
                ab->completed_depth(), static_cast<long long>(r.info.nodes),
                r.info.elapsed_s, MoveName(r.best).c_str(),
                PositionString(pos).c_str());
  }
  std::printf("%s, %.2f s a move, %d positions: depth", spec.c_str(), movetime,
              count);
  for (const auto& [depth, n] : histogram) std::printf(" %d:%d", depth, n);
  std::printf("; %.0f nodes/s\n", nodes / seconds);
  return 0;
}

int Main(int argc, char** argv) {
  if (wallgo::AnsweredVersion(argc, argv, "players_match", std::cout)) return 0;
  namespace po = boost::program_options;
  std::string a_spec, b_spec;
  int games = 0, players = 2, placements = 2, probe = 0;
  double movetime = 0;
  int64_t nodes = 0;
  po::options_description desc("players_match options");
  wallgo::common::AddVersionOption(desc);
  desc.add_options()("help", "this text")(
      "a", po::value(&a_spec)->default_value("ab"), "first player")(
      "b", po::value(&b_spec)->default_value("greedy"), "second player")(
      "games", po::value(&games)->default_value(10), "games (even)")(
      "players", po::value(&players)->default_value(2), "2, 3 or 4")(
      "placements", po::value(&placements)->default_value(2),
      "random placements that open each game pair")(
      "movetime", po::value(&movetime)->default_value(0.2), "seconds a move")(
      "nodes", po::value(&nodes)->default_value(0), "node cap (alpha-beta)")(
      "probe", po::value(&probe)->default_value(0),
      "instead of games: the depth --a reaches on this many middle-game "
      "positions in --movetime");
  if (!ParseFlags(desc, argc, argv)) return 0;
  if (probe > 0) return ProbeDepth(a_spec, movetime, probe);
  SearchOptions options = ClassicProfile();
  options.movetime_s = movetime;
  options.visits = nodes;
  options.hash_mb = 64;
  std::unique_ptr<Searcher> a = MakePlayer(a_spec, options);
  std::unique_ptr<Searcher> b = MakePlayer(b_spec, options);
  if (!a || !b) {
    std::cerr << "unknown player\n";
    return 2;
  }
  const Rules rules = Rules::Default(players);
  double a_points = 0;
  std::vector<DepthStats> a_depth(kMaxPlayers), b_depth(kMaxPlayers);
  for (int g = 0; g < games; ++g) {
    // Seat A on colour (g % players), B on every other colour.
    std::vector<Searcher*> seats(players, b.get());
    const int a_seat = g % players;
    seats[a_seat] = a.get();
    std::vector<DepthStats> depth(kMaxPlayers);
    const unsigned winners =
        PlayGame(rules, seats, placements, g / players, depth);
    a_points += WinShare(winners, a_seat);
    for (int p = 0; p < players; ++p) {
      auto& into = p == a_seat ? a_depth[0] : b_depth[0];
      into.sum += depth[p].sum;
      into.searches += depth[p].searches;
    }
    std::printf("game %d: A=%s as %s, winners=%x, A points %.1f/%d\n", g + 1,
                a_spec.c_str(), ColourName(ColourAt(a_seat)).c_str(), winners,
                a_points, g + 1);
  }
  auto mean = [](const DepthStats& d) {
    return d.searches ? d.sum / d.searches : 0.0;
  };
  std::printf("A %s scored %.1f of %d; mean depth A %.2f, B %.2f\n",
              a_spec.c_str(), a_points, games, mean(a_depth[0]),
              mean(b_depth[0]));
  return 0;
}

}  // namespace
}  // namespace wallgo::search

int main(int argc, char** argv) { return wallgo::search::Main(argc, argv); }
