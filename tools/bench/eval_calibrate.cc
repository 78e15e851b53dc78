// Fits the logistic scale of the evaluation (WinScale) to games: alpha-beta
// self-play from random openings, every position's estimated margin and
// contested cells against the final result. Prints the log-loss of the
// current WinScale and of the best scale a + b * sqrt(contested) on a grid.
//   build-<dir>/bin/eval_calibrate --games 200 --nodes 20000
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <vector>

#include "boost/program_options.hpp"
#include "common/version/version.h"
#include "common/version_option.h"
#include "engine/movegen.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "search/classic/eval.h"
#include "search/players/alphabeta.h"
#include "tools/bench/tool_flags.h"

namespace wallgo::search {
namespace {

// The first-turn shares (EvalOptions) compared.
constexpr std::array<float, 5> kShares = {0.5f, 0.625f, 0.75f, 0.875f, 1.0f};
constexpr int kNumTieRules = kShares.size();

struct Sample {
  int contested = 0;
  // Red's estimated score minus blue's, by each share of kShares.
  std::array<float, kNumTieRules> margin{};
  float red_result = 0;  // 1 win, 0.5 draw, 0 loss
  bool setup = false;
  bool red_to_move = false;
};

void PlayAndRecord(AlphaBetaPlayer& player, uint64_t seed, int placements,
                   std::vector<Sample>& samples) {
  Position pos = *Position::Start(Rules::Default(2));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < placements; ++i) {
    MoveList moves;
    GenerateMoves(pos, moves);
    pos.Play(moves[rng() % moves.size()]);
  }
  player.Clear();
  const size_t first = samples.size();
  while (!IsGameOver(pos)) {
    Sample sample;
    for (int rule = 0; rule < kNumTieRules; ++rule) {
      const Territory t =
          EstimateTerritory(pos, {.first_turn_share = kShares[rule]});
      sample.contested = t.contested_cells;
      sample.margin[rule] = t.score[0] - t.score[1];
    }
    sample.setup = pos.in_setup();
    sample.red_to_move = pos.to_move() == Colour::kRed;
    samples.push_back(sample);
    pos.Play(player.Search(pos, {}, nullptr, 10).best);
  }
  // Red's share of the win: 1, 0, or 0.5 for a draw (2 players).
  const auto result = static_cast<float>(ComputeResult(pos).win_share(0));
  for (size_t i = first; i < samples.size(); ++i) {
    samples[i].red_result = result;
  }
}

// `tempo` (cells) is added to the margin of the side to move: a fitted tempo
// far from 0 says the evaluation's head start is too small or too large.
template <typename Scale>
double LogLoss(const std::vector<Sample>& samples, int rule, bool setup,
               Scale scale, double tempo = 0) {
  double loss = 0;
  int n = 0;
  for (const Sample& s : samples) {
    if (s.setup != setup) continue;
    const double margin = s.margin[rule] + (s.red_to_move ? tempo : -tempo);
    double p = 1 / (1 + std::exp(-margin / scale(s.contested)));
    p = std::clamp(p, 1e-6, 1 - 1e-6);
    loss -= s.red_result * std::log(p) + (1 - s.red_result) * std::log(1 - p);
    ++n;
  }
  return n ? loss / n : 0;
}

struct Fitted {
  double a = 1, b = 0.5, tempo = 0, loss = 1e9;
};

// Alternates a grid over the scale a + b * sqrt(contested) with one over the
// tempo; a few rounds settle both.
Fitted FitScaleAndTempo(const std::vector<Sample>& samples, int rule,
                        bool setup) {
  Fitted f;
  for (int round = 0; round < 3; ++round) {
    for (double a = 0.1; a <= 12; a += 0.1) {
      for (double b = 0; b <= 4; b += 0.05) {
        const double loss = LogLoss(
            samples, rule, setup,
            [&](int c) { return a + b * std::sqrt(double(c)); }, f.tempo);
        if (loss < f.loss) f = {a, b, f.tempo, loss};
      }
    }
    for (double tempo = -4; tempo <= 4; tempo += 0.125) {
      const double loss = LogLoss(
          samples, rule, setup,
          [&](int c) { return f.a + f.b * std::sqrt(double(c)); }, tempo);
      if (loss < f.loss) f = {f.a, f.b, tempo, loss};
    }
  }
  return f;
}

void Fit(const std::vector<Sample>& samples, int rule, bool setup) {
  const double current =
      LogLoss(samples, rule, setup, [](int c) { return WinScale(c); });
  const Fitted f = FitScaleAndTempo(samples, rule, setup);
  std::printf(
      "share=%.3f %s: log-loss with WinScale %.4f; best %.4f at %.2f + "
      "%.2f*sqrt(c), tempo %+.3f cells\n",
      kShares[rule], setup ? "setup" : "play", current, f.loss, f.a, f.b,
      f.tempo);
}

int Main(int argc, char** argv) {
  if (wallgo::AnsweredVersion(argc, argv, "eval_calibrate", std::cout))
    return 0;
  namespace po = boost::program_options;
  int games = 0, placements = 0;
  float share = 0;
  int64_t nodes = 0;
  po::options_description desc("eval_calibrate options");
  wallgo::common::AddVersionOption(desc);
  desc.add_options()("help", "this text")(
      "games", po::value(&games)->default_value(100), "self-play games")(
      "nodes", po::value(&nodes)->default_value(20000),
      "alpha-beta nodes a move")("placements",
                                 po::value(&placements)->default_value(2),
                                 "random placements that open each game")(
      "share", po::value(&share)->default_value(EvalOptions{}.first_turn_share),
      "first-turn share of the players' evaluation");
  if (!ParseFlags(desc, argc, argv)) return 0;
  SearchOptions options = ClassicProfile();
  options.visits = nodes;
  options.hash_mb = 16;
  AlphaBetaConfig config;
  config.eval.first_turn_share = share;
  AlphaBetaPlayer player(options, config);
  std::vector<Sample> samples;
  for (int g = 0; g < games; ++g) PlayAndRecord(player, g, placements, samples);
  std::printf("%zu positions from %d games\n", samples.size(), games);
  for (int rule = 0; rule < kNumTieRules; ++rule) {
    Fit(samples, rule, false);
    Fit(samples, rule, true);
  }
  return 0;
}

}  // namespace
}  // namespace wallgo::search

int main(int argc, char** argv) { return wallgo::search::Main(argc, argv); }
