// Speed of the learned evaluation against the classic one, on the positions
// of greedy self-play games (2 players, setup included):
//   build/bin/net_bench [--weights=FILE] [--benchmark_min_time=1]
// (FILE: another network, e.g. a wider one; default the built-in network.)
// What a search pays: the classic evaluation per leaf and, to expand a node,
// one classic evaluation per child (its priors); the network gives a leaf's
// value, or a node's value and every child's prior in one call.
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/movegen.h"
#include "engine/regions.h"
#include "search/classic/classic_evaluator.h"
#include "search/classic/eval.h"
#include "search/net/builtin_weights.h"
#include "search/net/net_evaluator.h"
#include "search/players/greedy.h"

namespace wallgo::search::net {
namespace {

const std::vector<Position>& Positions() {
  static const std::vector<Position> positions = [] {
    std::vector<Position> out;
    SearchOptions options = ClassicProfile();
    for (int g = 0; g < 8; ++g) {
      options.seed = g;
      GreedyPlayer player(options);
      Position pos = *Position::Start(Rules::Default(2));
      while (!IsGameOver(pos)) {
        out.push_back(pos);
        pos.Play(player.Search(pos, {}, nullptr, 1).best);
      }
    }
    return out;
  }();
  return positions;
}

void BM_ClassicValue(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(search::Evaluate(Positions()[i]));
    if (++i == Positions().size()) i = 0;
  }
}
BENCHMARK(BM_ClassicValue);

void BM_NetFeatures(benchmark::State& state) {
  size_t i = 0;
  Features f;
  for (auto _ : state) {
    ExtractFeatures(Positions()[i], f);
    benchmark::DoNotOptimize(f);
    if (++i == Positions().size()) i = 0;
  }
}
BENCHMARK(BM_NetFeatures);

void BM_NetValue(benchmark::State& state, const NetEvaluator& net) {
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(net.Evaluate(Positions()[i], {}, {}));
    if (++i == Positions().size()) i = 0;
  }
}

// Moves of every position, generated once (the search has them anyway).
const std::vector<MoveList>& Moves() {
  static const std::vector<MoveList> moves = [] {
    std::vector<MoveList> out(Positions().size());
    for (size_t i = 0; i < out.size(); ++i)
      GenerateMoves(Positions()[i], out[i]);
    return out;
  }();
  return moves;
}

void BM_NetValueAndPriors(benchmark::State& state, const NetEvaluator& net) {
  size_t i = 0;
  std::array<float, MoveList::kCapacity> priors;
  int64_t moves = 0;
  for (auto _ : state) {
    const MoveList& m = Moves()[i];
    benchmark::DoNotOptimize(net.Evaluate(Positions()[i],
                                          std::span(m.begin(), m.size()),
                                          std::span(priors.data(), m.size())));
    moves += m.size();
    if (++i == Positions().size()) i = 0;
  }
  state.counters["moves"] = static_cast<double>(moves) / state.iterations();
}

// The classic expansion: the priors of every child (ClassicEvaluator, all
// children evaluated at once, softmax of the mover's utility) and the
// position's static evaluation.
void BM_ClassicValueAndPriors(benchmark::State& state) {
  size_t i = 0;
  std::array<float, MoveList::kCapacity> priors;
  const search::ClassicEvaluator classic;
  for (auto _ : state) {
    const Position& pos = Positions()[i];
    const MoveList& m = Moves()[i];
    classic.Priors(pos, std::span(m.begin(), m.end()),
                   std::span(priors.data(), m.size()));
    benchmark::DoNotOptimize(priors.data());
    benchmark::DoNotOptimize(search::Evaluate(pos));
    if (++i == Positions().size()) i = 0;
  }
}
BENCHMARK(BM_ClassicValueAndPriors);

// The network's benchmarks, for the weights named by --weights=FILE (taken
// out of the arguments before Google Benchmark reads them).
int Main(int argc, char** argv) {
  std::string weights;  // the built-in network (LoadWeights)
  const std::string flag = "--weights=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with(flag)) {
      weights = arg.substr(flag.size());
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  absl::StatusOr<Network> network = LoadWeights(weights);
  if (!network.ok()) {
    std::fprintf(stderr, "net_bench: %s\n",
                 std::string(network.status().message()).c_str());
    return 1;
  }
  const NetEvaluator evaluator(
      std::make_shared<const Network>(*std::move(network)));
  benchmark::RegisterBenchmark("BM_NetValue", BM_NetValue, evaluator);
  benchmark::RegisterBenchmark("BM_NetValueAndPriors", BM_NetValueAndPriors,
                               evaluator);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace wallgo::search::net

int main(int argc, char** argv) {
  return wallgo::search::net::Main(argc, argv);
}
