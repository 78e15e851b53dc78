// wallgo-net: the learned evaluation's pipeline on the engine side.
//   wallgo-net generate --out d.wgd --games 200 --visits 400 --jobs 2
//   wallgo-net features --data d.wgd            (writes d.wgd.examples)
//   wallgo-net evaluate --data held.wgd --weights net.wgn
//   wallgo-net verify --weights net.wgn --fixture fixture.json
// tools/train/make_weights.sh strings them together with the trainer.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stop_token>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "boost/program_options.hpp"
#include "common/batch/preemption.h"
#include "common/batch/shard.h"
#include "common/program_options_error.h"
#include "common/version/version.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "search/classic/classic_evaluator.h"
#include "search/classic/eval.h"
#include "search/classic/shortlist_evaluator.h"
#include "search/net/builtin_weights.h"
#include "search/net/net_evaluator.h"
#include "tools/train/fixture.h"
#include "tools/train/selfplay_data.h"
#include "tools/train_data/examples.h"

namespace po = boost::program_options;

namespace wallgo::train {

// The trainer speaks of the search's networks and the data's records.
using namespace search;
using namespace search::net;
using namespace train_data;
namespace {

constexpr char kUsage[] =
    "Usage: wallgo-net generate|features|evaluate|verify [OPTIONS]\n"
    "       wallgo-net COMMAND --help   lists the command's options\n"
    "       wallgo-net --version        prints the version and the commit\n";

// Parses `args` into `desc`'s variables; false after printing --help.
bool Parse(const po::options_description& desc,
           const std::vector<std::string>& args) {
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(desc).run(), vm);
  if (vm.count("help")) {
    std::cout << desc;
    return false;
  }
  po::notify(vm);
  return true;
}

// --eval NAME and --weights FILE (empty: the built-in network) into `o`.
absl::Status ParseEvaluation(const std::string& eval,
                             const std::string& weights, GenerateOptions& o) {
  const auto* name =
      std::find(kEvalKindNames.begin(), kEvalKindNames.end(), eval);
  if (name == kEvalKindNames.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--eval must be one of ", absl::StrJoin(kEvalKindNames, ", "),
        ", not '", eval, "'"));
  }
  o.search.eval = static_cast<EvalKind>(name - kEvalKindNames.begin());
  if (o.search.eval == EvalKind::kClassic) return absl::OkStatus();
  absl::StatusOr<Network> network = LoadWeights(weights);
  if (!network.ok()) return network.status();
  o.network = std::make_shared<const Network>(*std::move(network));
  return absl::OkStatus();
}

absl::Status Generate(const std::vector<std::string>& args,
                      std::stop_token stop) {
  GenerateOptions o;
  std::string out, rules = "players=2", shard = "1/1",
                   eval = kEvalKindNames[static_cast<int>(o.search.eval)],
                   weights;
  bool quiet = false;
  po::options_description desc("wallgo-net generate options");
  desc.add_options()("help", "this text")("out", po::value(&out)->required(),
                                          "data file (appended; resumed)")(
      "games", po::value(&o.games)->default_value(o.games),
      "games of the whole run, all shards")(
      "visits", po::value(&o.visits)->default_value(o.visits),
      "playouts a move")(
      "fast-visits", po::value(&o.fast_visits)->default_value(o.fast_visits),
      "playout cap randomisation: playouts of the fast searches (0: off)")(
      "full-share", po::value(&o.full_share)->default_value(o.full_share),
      "with --fast-visits: the share of moves searched in full (policy "
      "targets)")("seed", po::value(&o.seed)->default_value(o.seed), "seed")(
      "jobs", po::value(&o.jobs)->default_value(o.jobs),
      "games at once (one search thread each)")(
      "shard", po::value(&shard)->default_value(shard), "I/N: this part")(
      "rules", po::value(&rules)->default_value(rules), "newgame keys")(
      "random-placements",
      po::value(&o.random_placements)->default_value(o.random_placements),
      "uniformly random first placements")(
      "temperature-plies",
      po::value(&o.temperature_plies)->default_value(o.temperature_plies),
      "then moves drawn by visits^(1/T)")(
      "temperature", po::value(&o.temperature)->default_value(o.temperature),
      "T")("hash",
           po::value(&o.search.hash_mb)->default_value(o.search.hash_mb),
           "MB per search")("eval", po::value(&eval)->default_value(eval),
                            "the search's evaluation: classic, net or hybrid")(
      "weights", po::value(&weights),
      "weights for net and hybrid (default: the built-in wallgo-net-6)")(
      "shortlist",
      po::value(&o.search.shortlist)->default_value(o.search.shortlist),
      "eval hybrid: only the network's N best moves get the classic priors "
      "(0: every move; the engine's shortlist)")(
      "policy-weight",
      po::value(&o.search.policy_weight)->default_value(o.search.policy_weight),
      "eval hybrid with a shortlist: the policy's weight in the priors (0: "
      "classic only; the engine's policy_weight)")(
      "quiet", po::bool_switch(&quiet), "no progress lines");
  if (!Parse(desc, args)) return absl::OkStatus();
  absl::StatusOr<Rules> parsed = ParseRules(rules);
  if (!parsed.ok()) return parsed.status();
  o.rules = *parsed;
  absl::StatusOr<batch::Shard> parsed_shard = batch::ParseShard(shard);
  if (!parsed_shard.ok()) return parsed_shard.status();
  o.shard_index = parsed_shard->index;
  o.shard_count = parsed_shard->count;
  if (absl::Status s = ParseEvaluation(eval, weights, o); !s.ok()) return s;
  auto progress = [quiet](const GenerateReport& r) {
    if (quiet || r.games_played % 10 != 0) return;
    std::fprintf(stderr, "%d games, %lld positions, %.1f s\n", r.games_played,
                 static_cast<long long>(r.records), r.seconds);
  };
  absl::StatusOr<GenerateReport> r = GenerateData(out, o, progress, stop);
  if (!r.ok()) return r.status();
  std::printf(
      "%s: %d games were there, %d played, %lld positions, %.1f s (%.2f s a "
      "game)\n",
      out.c_str(), r->games_before, r->games_played,
      static_cast<long long>(r->records), r->seconds,
      r->games_played ? r->seconds / r->games_played : 0.0);
  if (r->interrupted) {
    std::printf("%s: interrupted; run again to play the rest\n", out.c_str());
  }
  return absl::OkStatus();
}

absl::Status MakeExamples(const std::vector<std::string>& args) {
  std::vector<std::string> data;
  po::options_description desc("wallgo-net features options");
  desc.add_options()("help", "this text")(
      "data", po::value(&data)->required()->multitoken(),
      "data files; each gets FILE.examples");
  if (!Parse(desc, args)) return absl::OkStatus();
  for (const std::string& path : data) {
    absl::StatusOr<int64_t> n = WriteExamplesFile(path, path + ".examples");
    if (!n.ok()) return n.status();
    std::printf("%s.examples: %lld examples\n", path.c_str(),
                static_cast<long long>(*n));
  }
  return absl::OkStatus();
}

// Log-loss of a predicted win distribution against the result.
double LogLoss(const std::array<float, kMaxPlayers>& predicted,
               const std::array<float, kMaxPlayers>& result, int players) {
  double loss = 0;
  for (int p = 0; p < players; ++p) {
    if (result[p] > 0) {
      loss -= result[p] * std::log(std::clamp<double>(predicted[p], 1e-6, 1));
    }
  }
  return loss;
}

// Priors the search makes with the classic evaluation (mcts.cc BuildEdges):
// a softmax of every child's utility for the mover at temperature 0.2.
void ClassicPriors(const Position& pos, std::span<const Move> moves,
                   std::span<float> priors) {
  search::ClassicEvaluator().Priors(pos, moves, priors);
}

struct Tally {
  int n = 0;
  double classic_loss = 0, net_loss = 0, search_loss = 0;
  double classic_mae = 0, net_mae = 0;
  int policy_n = 0;
  // blend: the search's priors with policy_weight (ShortlistEvaluator's
  // later chunks): the classic log priors plus w times the policy logits.
  double classic_ce = 0, net_ce = 0, blend_ce = 0;
  int classic_top = 0, net_top = 0, blend_top = 0;
};

void PrintTally(const char* phase, const Tally& t) {
  if (t.n == 0) return;
  std::printf(
      "%s: %d positions\n"
      "  win log-loss: classic %.4f, net %.4f (search value %.4f)\n"
      "  final margin MAE (cells): classic %.2f, net %.2f\n"
      "  policy vs visits (%d positions): cross-entropy classic %.3f, net "
      "%.3f, blend %.3f; top move classic %.1f%%, net %.1f%%, blend "
      "%.1f%%\n",
      phase, t.n, t.classic_loss / t.n, t.net_loss / t.n, t.search_loss / t.n,
      t.classic_mae / t.n, t.net_mae / t.n, t.policy_n,
      t.classic_ce / std::max(1, t.policy_n),
      t.net_ce / std::max(1, t.policy_n), t.blend_ce / std::max(1, t.policy_n),
      100.0 * t.classic_top / std::max(1, t.policy_n),
      100.0 * t.net_top / std::max(1, t.policy_n),
      100.0 * t.blend_top / std::max(1, t.policy_n));
}

// Where in the game a position is, for the log-loss by stage: the placement
// phase, then the play phase by walls on the board (one a turn), in steps
// of kStageWalls. The early play phase is where even the search's own win
// rate is little better than a coin, so the table shows where the
// evaluation can still gain.
constexpr int kStageWalls = 12;
constexpr int kPlayStages = 5;  // the last: 48 walls or more

int StageOf(const Position& pos) {
  if (pos.in_setup()) return 0;
  const int walls = PopCount(pos.walls().north) + PopCount(pos.walls().east);
  return 1 + std::min(walls / kStageWalls, kPlayStages - 1);
}

std::string StageName(int k) {
  return k == 0 ? "placement"
         : k == kPlayStages
             ? absl::StrFormat("walls %d+", (k - 1) * kStageWalls)
             : absl::StrFormat("walls %d-%d", (k - 1) * kStageWalls,
                               k * kStageWalls - 1);
}

void PrintStages(const std::array<Tally, 1 + kPlayStages>& stages) {
  std::printf("win log-loss by stage: positions, classic, net, search value\n");
  for (int k = 0; k < 1 + kPlayStages; ++k) {
    const Tally& t = stages[k];
    if (t.n == 0) continue;
    std::printf("  %-12s %6d  %.4f  %.4f  %.4f\n", StageName(k).c_str(), t.n,
                t.classic_loss / t.n, t.net_loss / t.n, t.search_loss / t.n);
  }
  // The policy's quality where the game is decided: its agreement with the
  // search that made the data, and the cross-entropy against its visits.
  std::printf(
      "policy vs visits by stage: positions, cross-entropy classic, net, "
      "blend; top move classic, net, blend\n");
  for (int k = 0; k < 1 + kPlayStages; ++k) {
    const Tally& t = stages[k];
    if (t.policy_n == 0) continue;
    std::printf("  %-12s %6d  %.3f  %.3f  %.3f  %5.1f%%  %5.1f%%  %5.1f%%\n",
                StageName(k).c_str(), t.policy_n, t.classic_ce / t.policy_n,
                t.net_ce / t.policy_n, t.blend_ce / t.policy_n,
                100.0 * t.classic_top / t.policy_n,
                100.0 * t.net_top / t.policy_n,
                100.0 * t.blend_top / t.policy_n);
  }
}

// Nanoseconds a call of `f` over `positions`, best of 3 rounds.
template <typename F>
double NanosPerCall(const std::vector<Position>& positions, F f) {
  double best = 1e30;
  for (int round = 0; round < 3; ++round) {
    const auto start = std::chrono::steady_clock::now();
    int calls = 0;
    for (int rep = 0; rep < 5; ++rep) {
      for (const Position& pos : positions) {
        f(pos);
        ++calls;
      }
    }
    const double ns = std::chrono::duration<double, std::nano>(
                          std::chrono::steady_clock::now() - start)
                          .count() /
                      calls;
    best = std::min(best, ns);
  }
  return best;
}

void MeasureSpeed(const NetEvaluator& net, const std::vector<Position>& all) {
  std::vector<Position> positions(
      all.begin(), all.begin() + std::min<size_t>(all.size(), 2000));
  volatile float sink = 0;
  std::array<float, MoveList::kCapacity> priors;
  const double classic = NanosPerCall(
      positions, [&](const Position& p) { sink = search::Evaluate(p).win[0]; });
  const double value = NanosPerCall(positions, [&](const Position& p) {
    sink = net.Evaluate(p, {}, {}).win[0];
  });
  const double with_priors = NanosPerCall(positions, [&](const Position& p) {
    MoveList moves;
    GenerateMoves(p, moves);
    sink = net.Evaluate(p, std::span(moves.begin(), moves.size()),
                        std::span(priors.data(), moves.size()))
               .win[0];
  });
  const double classic_expand = NanosPerCall(positions, [&](const Position& p) {
    MoveList moves;
    GenerateMoves(p, moves);
    ClassicPriors(p, std::span(moves.begin(), moves.size()),
                  std::span(priors.data(), moves.size()));
    sink = priors[0];
  });
  std::printf(
      "speed (%zu positions, one thread): classic evaluation %.0f ns; net "
      "value %.0f ns; net value + priors of every legal move %.0f ns; classic "
      "priors (evaluate every child, as the search expands) %.0f ns\n",
      positions.size(), classic, value, with_priors, classic_expand);
}

absl::Status EvaluateData(const std::vector<std::string>& args) {
  std::vector<std::string> data;
  std::string weights;
  int policy_every = 1;
  bool speed = true;
  double policy_weight = SearchOptions{}.policy_weight;  // the engine's
  po::options_description desc("wallgo-net evaluate options");
  desc.add_options()("help", "this text")(
      "data", po::value(&data)->required()->multitoken(), "data files")(
      "weights", po::value(&weights)->required(), "network weights")(
      "policy-every", po::value(&policy_every)->default_value(1),
      "compare priors on every Nth position (classic priors are slow)")(
      "speed", po::value(&speed)->default_value(true), "measure ns per call")(
      "policy-weight", po::value(&policy_weight)->default_value(policy_weight),
      "the blend's weight of the policy (the engine's policy_weight)");
  if (!Parse(desc, args)) return absl::OkStatus();
  absl::StatusOr<std::unique_ptr<NetEvaluator>> net =
      NetEvaluator::Load(weights);
  if (!net.ok()) return net.status();
  const std::shared_ptr<const NetEvaluator> network = std::move(*net);
  // Every move blended, as a node's later chunks of edges are.
  const search::ShortlistEvaluator blend(
      network, std::make_shared<search::ClassicEvaluator>(),
      MoveList::kCapacity, policy_weight);
  Tally setup, play;
  std::array<Tally, 1 + kPlayStages> stages;
  std::vector<Position> positions;
  for (const std::string& path : data) {
    absl::StatusOr<std::vector<DataRecord>> records = ReadDataFile(path);
    if (!records.ok()) return records.status();
    for (size_t i = 0; i < records->size(); ++i) {
      const DataRecord& r = (*records)[i];
      absl::StatusOr<Position> pos = RecordPosition(r);
      if (!pos.ok()) return pos.status();
      absl::StatusOr<Example> ex = MakeExample(r, static_cast<uint32_t>(i));
      if (!ex.ok()) return ex.status();
      positions.push_back(*pos);
      const int players = pos->num_players(), me = r.to_move;
      std::array<float, kMaxPlayers> result{};
      for (int p = 0; p < players; ++p) {
        result[p] = ex->win[SlotOf(p, me, players)];
      }
      const float actual_margin =
          ScoreMargin({static_cast<float>(r.final_score[0]),
                       static_cast<float>(r.final_score[1]),
                       static_cast<float>(r.final_score[2]),
                       static_cast<float>(r.final_score[3])},
                      players, pos->to_move());
      Tally& t = pos->in_setup() ? setup : play;
      const Evaluation classic = search::Evaluate(*pos);
      MoveList moves;
      GenerateMoves(*pos, moves);
      std::array<float, MoveList::kCapacity> net_priors{}, classic_priors{},
          blend_priors{};
      const Value v =
          network->Evaluate(*pos, std::span(moves.begin(), moves.size()),
                            std::span(net_priors.data(), moves.size()));
      std::array<float, kMaxPlayers> search_win{};
      search_win[me] = r.search_win;
      if (players == 2) search_win[1 - me] = 1 - r.search_win;
      for (Tally* tally : {&t, &stages[StageOf(*pos)]}) {
        ++tally->n;
        tally->classic_loss += LogLoss(classic.win, result, players);
        tally->net_loss += LogLoss(v.win, result, players);
        tally->search_loss += players == 2 ? LogLoss(search_win, result, 2) : 0;
      }
      t.classic_mae += std::abs(
          ScoreMargin(classic.score, players, pos->to_move()) - actual_margin);
      t.net_mae += std::abs(v.margin[me] - actual_margin);
      if (moves.size() < 2 || i % policy_every != 0) continue;
      double total = 0;
      int most = 0;
      for (int k = 0; k < moves.size(); ++k) {
        total += r.visits[k];
        if (r.visits[k] > r.visits[most]) most = k;
      }
      if (total <= 0) continue;
      ClassicPriors(*pos, std::span(moves.begin(), moves.size()),
                    std::span(classic_priors.data(), moves.size()));
      blend.ChunkPriors(*pos, std::span(moves.begin(), moves.size()),
                        std::span(blend_priors.data(), moves.size()), 1);
      auto top = [&moves](const std::array<float, MoveList::kCapacity>& p) {
        return static_cast<int>(
            std::max_element(p.begin(), p.begin() + moves.size()) - p.begin());
      };
      for (Tally* tally : {&t, &stages[StageOf(*pos)]}) {
        ++tally->policy_n;
        for (int k = 0; k < moves.size(); ++k) {
          const double share = r.visits[k] / total;
          if (share <= 0) continue;
          tally->classic_ce -=
              share * std::log(std::max(1e-9f, classic_priors[k]));
          tally->net_ce -= share * std::log(std::max(1e-9f, net_priors[k]));
          tally->blend_ce -= share * std::log(std::max(1e-9f, blend_priors[k]));
        }
        tally->classic_top += top(classic_priors) == most;
        tally->net_top += top(net_priors) == most;
        tally->blend_top += top(blend_priors) == most;
      }
    }
  }
  PrintTally("play phase", play);
  PrintTally("placement phase", setup);
  PrintStages(stages);
  if (speed && !positions.empty()) MeasureSpeed(*network, positions);
  return absl::OkStatus();
}

absl::Status Verify(const std::vector<std::string>& args) {
  std::string weights, fixture;
  double tolerance = 1e-4;
  po::options_description desc("wallgo-net verify options");
  desc.add_options()("help", "this text")(
      "weights", po::value(&weights)->required(), "network weights")(
      "fixture", po::value(&fixture)->required(), "the trainer's fixture")(
      "tolerance", po::value(&tolerance)->default_value(tolerance),
      "largest difference allowed");
  if (!Parse(desc, args)) return absl::OkStatus();
  absl::StatusOr<Network> net = Network::Load(weights);
  if (!net.ok()) return net.status();
  absl::StatusOr<FixtureReport> r = CheckFixture(*net, fixture, tolerance);
  if (!r.ok()) return r.status();
  std::printf("%s: %d positions, engine = trainer, largest difference %.2g\n",
              fixture.c_str(), r->samples, r->max_error);
  return absl::OkStatus();
}

int Main(int argc, char** argv) {
  if (wallgo::AnsweredVersion(argc, argv, "wallgo-net", std::cout)) return 0;
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    absl::Status status;
    if (command == "generate") {
      // SIGTERM/SIGINT stop the games and keep the whole ones (the
      // pre-emption contract, common/batch/preemption.h).
      batch::StopOnSignals stop;
      status = Generate(args, stop.token());
      if (status.ok() && stop.stopped()) return batch::kExitInterrupted;
    } else if (command == "features") {
      status = MakeExamples(args);
    } else if (command == "evaluate") {
      status = EvaluateData(args);
    } else if (command == "verify") {
      status = Verify(args);
    } else if (command == "--help" || command == "help") {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "wallgo-net: unknown command '" << command << "'\n"
                << kUsage;
      return 2;
    }
    if (!status.ok()) {
      std::cerr << "wallgo-net " << command << ": " << status.message() << "\n";
      return 1;
    }
  } catch (po::error& e) {
    std::cerr << "wallgo-net " << command << ": " << common::ErrorMessage(e)
              << "\n"
              << kUsage;
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace wallgo::train

int main(int argc, char** argv) { return wallgo::train::Main(argc, argv); }
